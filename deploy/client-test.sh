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

log() { printf '[client-test] %s\n' "$*" >&2; }
die() { printf '[client-test] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"
# shellcheck source=deploy/python-venv.sh
. "$ROOT/deploy/python-venv.sh"

setup() {
    # The generated client uses typing.Self: Python 3.11, which ensure_venv asks for.
    ensure_venv "$VENV" "$REQUIREMENTS"
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
