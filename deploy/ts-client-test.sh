#!/usr/bin/env bash
# The TypeScript generated-client test: types generated from openapi/openapi.json with
# openapi-typescript (any warning of the generator fails), a test written against them
# that must pass `tsc --strict` with no cast (tests/ts-client/no_casts.mjs checks), and,
# through openapi-fetch, a whole game against bots with the live stream, replays,
# refusals and a conditional GET, and a tournament's first draw
# (tests/ts-client/check_client.ts says exactly what is checked).
#
# Usage:
#   deploy/ts-client-test.sh BASE_URL [--admin-username U --admin-password P]
#                                   run the checks against a running server
#   deploy/ts-client-test.sh setup  only install the tools
#
# The tools (tests/ts-client/package.json and its package-lock.json, every version
# pinned) are installed once with `npm ci` into .local/ts-client, reinstalled when the
# lock changes. Node.js 18.17 or later with npm is needed; without them, Debian's nodejs
# and npm are installed with apt-get (with sudo when not root), as deploy/pg-local.sh
# installs PostgreSQL. The types are generated into a temporary folder, removed
# afterwards; OPENAPI_JSON names another document to generate them from (a copy being
# changed). Progress goes to stderr; the exit status is that of the checks.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.local/ts-client"
SOURCE="$ROOT/tests/ts-client"
SPEC="${OPENAPI_JSON:-$ROOT/openapi/openapi.json}"
case "$SPEC" in /*) ;; *) SPEC="$PWD/$SPEC" ;; esac

log() { printf '[ts-client-test] %s\n' "$*" >&2; }
die() { printf '[ts-client-test] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"

node_ok() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
        node -e 'const [a, b] = process.versions.node.split(".").map(Number);
                 process.exit(a > 18 || (a === 18 && b >= 17) ? 0 : 1)' 2>/dev/null
}

ensure_node() {
    node_ok && return 0
    apt_install "no Node.js 18.17 or later with npm found" \
        "install Node.js 18.17 or later and npm" nodejs npm
    node_ok || die "Node.js 18.17 or later with npm is still missing after installing it (found node $(node --version 2>/dev/null || echo none))"
}

# The pinned tools in $TOOLS, installed again when the lock's SHA-256 (kept in
# $TOOLS/.lock-sha256) changes.
ensure_tools() {
    local stamp="$TOOLS/.lock-sha256" wanted
    wanted="$(sha256sum "$SOURCE/package-lock.json" | cut -d' ' -f1)"
    if [ -x "$TOOLS/node_modules/.bin/tsc" ] && [ -x "$TOOLS/node_modules/.bin/openapi-typescript" ] &&
        [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
        return 0
    fi
    log "installing the pinned tools of tests/ts-client/package-lock.json into $TOOLS (node $(node --version), npm $(npm --version))"
    rm -rf "$TOOLS"
    mkdir -p "$TOOLS"
    cp "$SOURCE/package.json" "$SOURCE/package-lock.json" "$TOOLS/"
    (cd "$TOOLS" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2 ||
        die "npm ci could not install $SOURCE/package-lock.json (is the npm registry reachable?)"
    echo "$wanted" >"$stamp"
    log "tools ready"
}

setup() {
    ensure_node
    ensure_tools
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
started=$SECONDS
setup
if [ "$1" = "setup" ]; then
    log "setup done in $((SECONDS - started)) s"
    exit 0
fi
base_url="$1"
shift

work="$(mktemp -d "${TMPDIR:-/tmp}/yaniv-ts-client.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$SOURCE/check_client.ts" "$SOURCE/tsconfig.json" "$SOURCE/no_casts.mjs" "$TOOLS/package.json" "$work/"
ln -s "$TOOLS/node_modules" "$work/node_modules"

# The generator reports what it could not read or type as warnings (` ⚠  ...`), with
# exit status 0: every line but its banner and its closing line is such a report. It
# runs in the work folder so that no redocly.yaml around the checkout changes its lint.
step=$SECONDS
log "generating schema.d.ts from ${SPEC#"$ROOT/"} with openapi-typescript"
status=0
printed="$(cd "$work" && NO_COLOR=1 node_modules/.bin/openapi-typescript "$SPEC" -o schema.d.ts 2>&1)" ||
    status=$?
complaints="$(printf '%s\n' "$printed" | grep -v -e '^✨ openapi-typescript ' -e '^🚀 .* → .*schema\.d\.ts' -e '^[[:space:]]*$' || true)"
if [ "$status" -ne 0 ] || [ -n "$complaints" ] || ! [ -s "$work/schema.d.ts" ]; then
    printf '%s\n' "$printed" >&2
    die "openapi-typescript did not generate the whole document without a warning (exit status $status)"
fi
log "schema.d.ts: $(wc -l <"$work/schema.d.ts") lines in $((SECONDS - step)) s"

step=$SECONDS
log "type-checking check_client.ts with tsc --strict"
(cd "$work" && node_modules/.bin/tsc -p tsconfig.json --strict --pretty false) >&2 ||
    die "tsc refused check_client.ts against the generated types (see above)"
# The compiler holds the test to the document only where nothing overrules it.
(cd "$work" && node no_casts.mjs check_client.ts) ||
    die "check_client.ts overrules the compiler (see above): the generated types must fit as they are"
log "type-checked in $((SECONDS - step)) s"

step=$SECONDS
status=0
node "$work/out/check_client.js" --spec "$SPEC" --base-url "$base_url" "$@" || status=$?
log "ran in $((SECONDS - step)) s; done in $((SECONDS - started)) s (exit status $status)"
exit "$status"
