#!/usr/bin/env bash
# The generated-client test: a Python client generated from openapi/openapi.json with
# openapi-python-client must cover every operation with typed models, every example
# of the document must validate against its schema, and the client must play a whole
# game against bots (tests/client/check_client.py says exactly what is checked).
#
# Usage:
#   deploy/client-test.sh BASE_URL [--admin-username U --admin-password P]
#                                   run the checks against a running server
#   deploy/client-test.sh setup     only install the tools
#
# The tools (tests/client/requirements.txt, every version pinned) are installed once
# into a virtual environment in .local/client-venv, reinstalled when the pins change.
# Python 3.11 or later is needed; without one, Debian's python3 and python3-venv are
# installed with apt-get (with sudo when not root), as deploy/pg-local.sh installs
# PostgreSQL. The client is generated into a temporary folder, removed afterwards.
# Progress goes to stderr; the exit status is that of the checks.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.local/client-venv"
REQUIREMENTS="$ROOT/tests/client/requirements.txt"
STAMP="$VENV/.requirements"

log() { printf '[client-test] %s\n' "$*" >&2; }
die() { printf '[client-test] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"

# A python3 of at least 3.11 (the generated client uses typing.Self), with venv.
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

install_python() {
    apt_install "no python3 (3.11 or later, with venv) found" \
        "install one or set PYTHON" python3 python3-venv
}

setup() {
    local wanted
    wanted="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
    if [ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$wanted" ]; then
        return 0
    fi
    local python
    python="$(find_python)" || { install_python; python="$(find_python)"; } ||
        die "python3 3.11 or later with venv is still missing after installing it"
    log "creating $VENV with $python ($("$python" --version 2>&1))"
    rm -rf "$VENV"
    mkdir -p "$(dirname "$VENV")"
    "$python" -m venv "$VENV" || die "could not create the virtual environment $VENV"
    log "installing the pinned tools of $REQUIREMENTS from PyPI"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-input -r "$REQUIREMENTS" >&2 ||
        die "pip could not install $REQUIREMENTS (is PyPI reachable?)"
    echo "$wanted" >"$STAMP"
    log "tools ready"
}

usage() {
    # The header comment of this file, without its first line and the `set` line.
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
    -h | --help) usage; exit 0 ;;
    -*) log "unknown option $1"; usage >&2; exit 2 ;;
esac
setup
if [ "$1" = "setup" ]; then
    exit 0
fi
base_url="$1"
shift

work="$(mktemp -d "${TMPDIR:-/tmp}/yaniv-client.XXXXXX")"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
# The generator runs ruff on what it writes: the venv's bin must come first on PATH.
status=0
PATH="$VENV/bin:$PATH" "$VENV/bin/python" "$ROOT/tests/client/check_client.py" \
    --spec "$ROOT/openapi/openapi.json" --base-url "$base_url" --work "$work" "$@" || status=$?
log "done in $((SECONDS - started)) s (exit status $status)"
exit "$status"
