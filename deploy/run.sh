#!/usr/bin/env bash
# Builds and runs the Yaniv server (release build).
#
# Usage: deploy/run.sh [args for yaniv-server]
#
# Uses DATABASE_URL when it is set; otherwise starts (or reuses) the
# project-local cluster of deploy/pg-local.sh and exports its URL, and (unless
# YANIV_BOOTSTRAP_ADMIN is set) makes sure of an admin `admin` whose password it keeps
# in .local/admin-password.
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
    # A local server gets a first admin, so the README's examples can grant roles: the
    # account `admin`, its password made once and kept beside the local cluster.
    if [ -z "${YANIV_BOOTSTRAP_ADMIN:-}" ]; then
        password_file="$ROOT/.local/admin-password"
        if [ ! -s "$password_file" ]; then
            mkdir -p "$ROOT/.local"
            (umask 077 && head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$password_file")
        fi
        export YANIV_BOOTSTRAP_ADMIN=admin
        YANIV_BOOTSTRAP_ADMIN_PASSWORD="$(cat "$password_file")"
        export YANIV_BOOTSTRAP_ADMIN_PASSWORD
        log "the admin is 'admin'; its password is in .local/admin-password"
    fi
fi
export DATABASE_URL

log "running: cargo run --release -p yaniv-api --bin yaniv-server -- $*"
exec cargo run --release -p yaniv-api --bin yaniv-server -- "$@"
