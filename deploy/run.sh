#!/usr/bin/env bash
# Builds and runs the Yaniv server (release build).
#
# Usage: deploy/run.sh [args for yaniv-server]
#
# Uses DATABASE_URL when it is set; otherwise starts (or reuses) the
# project-local cluster of deploy/pg-local.sh and exports its URL.
# The server also reads BIND_ADDRESS (default 127.0.0.1:8080) and RUST_LOG;
# see README.md, "Configuration".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '[deploy] %s\n' "$*" >&2; }
redact() { sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#' <<<"$1"; }

if [ -n "${DATABASE_URL:-}" ]; then
    log "using DATABASE_URL from the environment: $(redact "$DATABASE_URL")"
else
    log "DATABASE_URL is not set: using the project-local PostgreSQL (deploy/pg-local.sh)"
    env_lines="$(bash "$ROOT/deploy/pg-local.sh" start)"
    eval "$env_lines"
fi
export DATABASE_URL

log "running: cargo run --release -p yaniv-api --bin yaniv-server -- $*"
exec cargo run --release -p yaniv-api --bin yaniv-server -- "$@"
