# Sourced by the deploy scripts that run pinned Python tools: makes (or reuses) a
# virtual environment with exactly the pins of a requirements file. Needs `log`,
# `die` and deploy/apt-install.sh.
#
#   ensure_venv VENV REQUIREMENTS
#
# The environment is rebuilt when the requirements file changes (its SHA-256 is kept
# in VENV/.requirements). Python 3.11 or later with venv comes from PYTHON, python3
# or /usr/bin/python3, or is installed with apt-get when none is found.

python_ok() {
    "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3 /usr/bin/python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate"; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    local venv="$1" requirements="$2" wanted python
    local stamp="$venv/.requirements"
    wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
        return 0
    fi
    python="$(find_python)" || {
        apt_install "no python3 (3.11 or later, with venv) found" \
            "install one or set PYTHON" python3 python3-venv
        python="$(find_python)"
    } || die "python3 3.11 or later with venv is still missing after installing it"
    log "creating $venv with $python ($("$python" --version 2>&1))"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv" || die "could not create the virtual environment $venv"
    log "installing the pinned tools of $requirements from PyPI"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-input -r "$requirements" >&2 ||
        die "pip could not install $requirements (is PyPI reachable?)"
    echo "$wanted" >"$stamp"
    log "tools ready"
}
