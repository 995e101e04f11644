#!/usr/bin/env bash
# The replicated cluster under faults (issue 33). Not part of deploy/test.sh: it runs
# the whole cluster of deploy/cluster.sh for minutes and kills its processes.
#
# Usage: deploy/cluster-test.sh [failover|rolling|ratio|all]   (default: all)
#
#   failover  20 tables through HAProxy with a live-stream reader each, for
#             CLUSTER_TEST_SECONDS (default 150); kill -9 of the PostgreSQL primary
#             three times and of an API server twice. Checks that no acknowledged
#             action is lost or carried out twice, that every reader resumes without
#             a gap or a duplicate, that every table verifies, and prints the time to
#             service after each kill (tests/src/failover.rs).
#   rolling   the load tool through HAProxy while the three servers are restarted one
#             after another (SIGTERM, drain, start); passes with 0 failed requests.
#   ratio     actions/s of one server on the cluster's primary (through HAProxy,
#             synchronous replication) against one server on deploy/pg-local.sh's
#             PostgreSQL, same binary, same client, one after the other.
#
# The cluster is brought up when it is not running, and left running (stop it with
# deploy/cluster.sh down).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
log() { printf '[cluster-test] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

what="${1:-all}"
case "$what" in failover | rolling | ratio | all) ;; *) die "unknown test '$what'" ;; esac

# The clients may be a debug build (CLUSTER_TEST_CLIENT_PROFILE=debug) where a release
# build of the test crate would take too long; the servers are always the release build.
profile="${CLUSTER_TEST_CLIENT_PROFILE:-release}"
case "$profile" in
    release) profile_flag=(--release) ;;
    debug) profile_flag=() ;;
    *) die "CLUSTER_TEST_CLIENT_PROFILE is release or debug, not '$profile'" ;;
esac
log "building the release server and the test clients ($profile)"
cargo build --release -p yaniv-api --bin yaniv-server >&2
cargo build "${profile_flag[@]}" -p yaniv-e2e-tests --example failover --example load >&2
CLIENTS="$TARGET/$profile/examples"

eval "$(bash deploy/cluster.sh up)"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

failed=0

run_failover() {
    log "failover: ${CLUSTER_TEST_SECONDS:-150} s of play, 3 primary kills, 2 API server kills"
    "$CLIENTS/failover" --url "$YANIV_CLUSTER_URL" \
        --admin-password-file .local/cluster/admin-password \
        --tables "${CLUSTER_TEST_TABLES:-20}" --seconds "${CLUSTER_TEST_SECONDS:-150}" \
        --kill-primary 3 --kill-api 2 --cluster-script "$ROOT/deploy/cluster.sh" || failed=1
    bash deploy/cluster.sh status >&2 || true
}

run_rolling() {
    local seconds=60 out="$ROOT/.local/cluster/rolling.txt"
    log "rolling restart: the load tool for $seconds s while api1, api2, api3 restart in turn"
    "$CLIENTS/load" --url "$YANIV_CLUSTER_URL" --tables 20 --readers \
        --think-ms 200 --seconds "$seconds" >"$out" &
    local load=$!
    sleep 15
    local n
    for n in 1 2 3; do
        log "restarting API server $n"
        bash deploy/cluster.sh stop-api "$n"
        bash deploy/cluster.sh start-api "$n"
        sleep 5
    done
    wait "$load" || failed=1
    cat "$out"
    grep -q '^errors: none' "$out" || { log "rolling restart: some requests failed"; failed=1; }
}

run_ratio() {
    local seconds=20 bin="$TARGET/release/yaniv-server" port=17480
    log "ratio: one server (2 workers) on the cluster's primary, then on the local PostgreSQL"
    local local_url
    local_url="$(bash deploy/pg-local.sh start | sed -n "s/^export DATABASE_URL=//p")"
    local_url="${local_url%/*}/yaniv_ratio"
    psql "${local_url%/*}/postgres" -qc "DROP DATABASE IF EXISTS yaniv_ratio" -c "CREATE DATABASE yaniv_ratio" >&2
    local target
    for target in "$YANIV_CLUSTER_DATABASE_URL" "$local_url"; do
        DATABASE_URL="$target" BIND_ADDRESS="127.0.0.1:$port" YANIV_HTTP_WORKERS=2 \
            RUST_LOG=warn "$bin" serve >"$ROOT/.local/cluster/ratio-server.log" 2>&1 &
        local server=$!
        local i
        for ((i = 0; i < 120; i++)); do
            curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null && break
            sleep 0.25
        done
        printf '== %s\n' "${target%%\?*}"
        "$CLIENTS/load" --url "http://127.0.0.1:$port" --tables 20 \
            --seconds "$seconds" || failed=1
        kill -TERM "$server"
        wait "$server" || true
    done
}

case "$what" in
    failover) run_failover ;;
    rolling) run_rolling ;;
    ratio) run_ratio ;;
    all) run_failover; run_rolling; run_ratio ;;
esac
if [ "$failed" -ne 0 ]; then log "FAILED"; exit 1; fi
log "passed"
