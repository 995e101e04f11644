# Sourced by the deploy scripts: installs Debian packages a script needs and did not
# find, with apt-get, as root or through sudo (non-interactive under CI or without a
# terminal, so it fails instead of waiting for a password). Needs `log` and `die`.
#
#   apt_install "what is missing" "how to get it without apt" PACKAGE...

apt_install() {
    local missing="$1" otherwise="$2"
    shift 2
    command -v apt-get >/dev/null 2>&1 ||
        die "$missing and apt-get is not available: $otherwise"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 ||
            die "$missing; installing it needs root, and sudo is not available. Run as root: apt-get update && apt-get install -y $* ($otherwise)"
        sudo=(sudo)
        if [ -n "${CI:-}" ] || ! [ -t 0 ]; then sudo=(sudo -n); fi
    fi
    log "$missing: installing Debian's $*"
    local hint=""
    if [ "${#sudo[@]}" -gt 0 ]; then hint=" (run with ${sudo[*]}; does sudo need a password?)"; fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
        die "apt-get update failed$hint"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2 ||
        die "apt-get install $* failed$hint"
}
