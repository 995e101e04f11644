#!/usr/bin/env bash
# Runs the whole test suite of the workspace against a PostgreSQL database.
#
# Usage: deploy/test.sh [extra args for cargo nextest run / cargo test]
#
# Uses DATABASE_URL when it is set; otherwise starts (or reuses) the
# project-local cluster of deploy/pg-local.sh and exports its URL.
# Runs `cargo nextest run` when cargo-nextest is installed, else `cargo test`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '[deploy] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
redact() { sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#' <<<"$1"; }

if [ -n "${DATABASE_URL:-}" ]; then
    log "using DATABASE_URL from the environment: $(redact "$DATABASE_URL")"
else
    log "DATABASE_URL is not set: using the project-local PostgreSQL (deploy/pg-local.sh)"
    env_lines="$(bash "$ROOT/deploy/pg-local.sh" start)"
    eval "$env_lines"
fi
export DATABASE_URL

# The README's examples run in the suite as a reader pastes them: bash, curl and
# python3. A minimal Debian may lack the last two.
# shellcheck source=deploy/apt-install.sh
source "$ROOT/deploy/apt-install.sh"
missing=()
for tool in curl python3; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "the README's examples need ${missing[*]}" "install ${missing[*]}" "${missing[@]}"
fi

# The page tests drive a headless Chromium and run axe-core in it: both provisioned
# here when missing, as PostgreSQL is.
eval "$(bash "$ROOT/deploy/browser.sh")"

# The end-to-end tests run the `yaniv` tool as a user would (`yaniv replay` of an
# exported record, `yaniv verify` of an archive). The workspace's test build makes it
# too (the CLI's own tests run it), with the features the whole workspace unifies;
# built apart, it would compile the server's stack a second time with other features.
# So the test binaries are built first, before the tests start their clocks, and the
# tests are handed that binary (YANIV_BIN).
if cargo nextest --version >/dev/null 2>&1; then
    log "building the test binaries and the yaniv tool"
    cargo nextest run --workspace --no-run --cargo-quiet
    runner=(cargo nextest run --workspace --no-fail-fast)
else
    log "cargo-nextest not found; building the test binaries and the yaniv tool"
    cargo test --workspace --no-run --quiet
    runner=(cargo test --workspace --no-fail-fast)
fi
YANIV_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/yaniv"
if [ -x "$YANIV_BIN" ]; then
    export YANIV_BIN
else
    log "no $YANIV_BIN after the test build: the tests build the yaniv tool themselves"
    unset YANIV_BIN
fi

# The stream-cap test opens a thousand connections at once, and the server it talks
# to runs in the same process: the soft limit of open files (1024 on many systems) is
# raised to the hard one, which any user may do.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

log "running: ${runner[*]} $*"
# nextest does not run doc tests; the crates keep their examples in unit tests, so
# nextest's summary stays the closing line of the suite.
exec "${runner[@]}" "$@"
