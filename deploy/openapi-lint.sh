#!/usr/bin/env bash
# Lints the OpenAPI document with Redocly CLI: the rules of its `recommended` set, as
# openapi/redocly.yaml extends and adjusts them (an ignore file beside it,
# .redocly.lint-ignore.yaml, lists single problems accepted on purpose). Every problem
# is listed, grouped by rule, with its JSON pointer; any error or warning fails.
#
# Usage:
#   deploy/openapi-lint.sh [SPEC]   lint SPEC (default openapi/openapi.json)
#   deploy/openapi-lint.sh setup    only install the tools
#
# The CLI (tests/openapi-lint/package-lock.json, the exact version pinned) is installed
# with `npm ci --ignore-scripts` into .local/openapi-lint, once, and again when the
# lock file changes (its SHA-256 is kept in .local/openapi-lint/.lock-sha256). It needs
# Node.js 20.19 or later on 20, or 22.12 or later, with npm; when either is missing,
# Debian's nodejs and npm are installed with apt-get, as deploy/pg-local.sh installs
# PostgreSQL (Debian 13 has a Node.js that fits; Debian 12's 18 does not, and the
# script then says so). Nothing leaves the machine but that install: no usage report
# (REDOCLY_TELEMETRY=off, and `telemetry: off` in the config) and no check for a newer
# version (REDOCLY_SUPPRESS_UPDATE_NOTICE=true). The CLI's progress goes to stderr,
# the list of problems to stdout. Exit status: 0 clean, 1 any error or warning (or a
# document or config that cannot be read), 2 bad usage.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PINS="$ROOT/tests/openapi-lint"
PREFIX="$ROOT/.local/openapi-lint"
CONFIG="$ROOT/openapi/redocly.yaml"

log() { printf '[openapi-lint] %s\n' "$*" >&2; }
die() { printf '[openapi-lint] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"

# The engines range of the pinned @redocly/cli 2.x: ">=22.12.0 || >=20.19.0 <21.0.0".
node_fits() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
        node -e '
            const [major, minor] = process.versions.node.split(".").map(Number);
            process.exit((major === 20 && minor >= 19) || (major === 22 && minor >= 12)
                || major >= 23 ? 0 : 1);' 2>/dev/null
}

ensure_node() {
    node_fits && return 0
    apt_install "no Node.js 20.19+ (or 22.12+) with npm found" \
        "install Node.js 22 with npm" nodejs npm
    node_fits || die "Node.js $(node --version 2>/dev/null || echo 'missing') with npm \
$(npm --version 2>/dev/null || echo 'missing') does not fit @redocly/cli $(pinned_version), \
which needs Node.js 20.19 or later on 20, or 22.12 or later: install one (Debian 12's is 18)"
}

pinned_version() {
    sed -n 's/.*"@redocly\/cli": *"\([^"]*\)".*/\1/p' "$PINS/package.json" | head -n 1
}

ensure_cli() {
    local wanted stamp="$PREFIX/.lock-sha256"
    wanted="$(sha256sum "$PINS/package-lock.json" | cut -d' ' -f1)"
    if [ -x "$PREFIX/node_modules/.bin/redocly" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
        return 0
    fi
    ensure_node
    log "installing @redocly/cli $(pinned_version) into $PREFIX with node $(node --version), npm $(npm --version)"
    rm -rf "$PREFIX"
    mkdir -p "$PREFIX"
    cp "$PINS/package.json" "$PINS/package-lock.json" "$PREFIX/"
    # The CLI ships as one bundle with no dependencies and no install scripts.
    (cd "$PREFIX" && npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier \
        --loglevel=warn >&2) ||
        die "npm ci could not install $PINS/package-lock.json (is the npm registry reachable?)"
    echo "$wanted" >"$stamp"
    log "tools ready"
}

usage() {
    # The header comment of this file, without its first line and the `set` line.
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

[ $# -le 1 ] || { usage >&2; exit 2; }
case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    -*) log "unknown option $1"; usage >&2; exit 2 ;;
esac
ensure_cli
if [ "${1:-}" = "setup" ]; then
    exit 0
fi
spec="${1:-$ROOT/openapi/openapi.json}"
[ -f "$spec" ] || die "no such file: $spec"
spec="$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"
# Warm runs skip ensure_node: a node that has gone since the install is said here.
command -v node >/dev/null 2>&1 || die "node is not on PATH (the CLI in $PREFIX needs it)"

export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
report="$(mktemp "${TMPDIR:-/tmp}/yaniv-openapi-lint.XXXXXX")"
trap 'rm -f "$report"' EXIT
started=$SECONDS
# Paths in the report are relative to the working directory: the repository's root.
# Redocly exits 1 on errors only; report.mjs fails on warnings too.
status=0
(cd "$ROOT" && "$PREFIX/node_modules/.bin/redocly" lint --config "$CONFIG" \
    --lint-config error --max-problems 1000000 --format json "$spec") >"$report" || status=$?
label="${spec#"$ROOT"/}"
listed=0
node "$PINS/report.mjs" "$report" "$label" || listed=$?
if [ "$listed" -eq 2 ]; then
    die "redocly lint exited $status without a report (see its message above)"
fi
if [ "$status" -eq 0 ] && [ "$listed" -ne 0 ]; then status=1; fi
log "done in $((SECONDS - started)) s (exit status $status)"
exit "$status"
