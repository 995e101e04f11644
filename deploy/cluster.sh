#!/usr/bin/env bash
# A replicated Yaniv deployment on one machine, on loopback, for trying failover.
#
# Usage:
#   deploy/cluster.sh up       start whatever is not running (idempotent); prints
#                              `export YANIV_CLUSTER_URL=...` and the database URLs
#   deploy/cluster.sh down     stop everything (the data are kept)
#   deploy/cluster.sh status   members, roles and lag; exit 0 when all is up
#   deploy/cluster.sh env      print the export lines again
#   deploy/cluster.sh pids     one line per process: NAME PID (used by the failover test)
#   deploy/cluster.sh start-api N | stop-api N | start-node N
#                              one API server (1-3) or one Patroni node (1-3)
#
# What runs (docs/operations.md, "A replicated cluster"), all under .local/cluster/:
#   - three etcd members (Patroni's consensus store);
#   - three PostgreSQL 15 nodes under Patroni, synchronous replication in its strict
#     form: a commit is acknowledged once a standby has it, and Patroni promotes only
#     a standby that had it;
#   - one HAProxy: port BASE+40 goes to the primary (Patroni's `/primary` check),
#     BASE+41 to the replicas (`/replica`), BASE+50 to the API servers (`/readyz`);
#   - three `yaniv-server` processes (the release build), each draining on SIGTERM.
#
# Environment:
#   YANIV_CLUSTER_PORT_BASE  first port of the block of 70 used (default 17400)
#   YANIV_SERVER_BIN         the server binary (default: target/release/yaniv-server,
#                            built with cargo when missing)
#
# THIS IS A THROWAWAY TEST CLUSTER: local connections are trusted and fsync is off
# (a process killed with kill -9 loses nothing; a machine losing power would).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
C="$ROOT/.local/cluster"
BASE="${YANIV_CLUSTER_PORT_BASE:-17400}"
NODES=(1 2 3)
DB_NAME="yaniv"

log() { printf '[cluster] %s\n' "$*" >&2; }
die() { printf '[cluster] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"

# ------------------------------------------------------------------ ports ---
# One block of ports, so that one number moves the whole cluster. pg-local.sh
# takes 15432-16431; the default block 17400-17469 stays clear of it and of 5432.
etcd_client_port() { echo $((BASE + $1 - 1)); }       # 17400-17402
etcd_peer_port() { echo $((BASE + 10 + $1 - 1)); }    # 17410-17412
pg_port() { echo $((BASE + 20 + $1 - 1)); }           # 17420-17422
rest_port() { echo $((BASE + 30 + $1 - 1)); }         # 17430-17432
PRIMARY_PORT=$((BASE + 40))
REPLICA_PORT=$((BASE + 41))
STATS_PORT=$((BASE + 49))
HTTP_PORT=$((BASE + 50))
api_port() { echo $((BASE + 60 + $1 - 1)); }          # 17460-17462

PRIMARY_URL="postgres://postgres@127.0.0.1:$PRIMARY_PORT/$DB_NAME"
REPLICA_URL="postgres://postgres@127.0.0.1:$REPLICA_PORT/$DB_NAME"
HTTP_URL="http://127.0.0.1:$HTTP_PORT"

# Patroni's timing (docs/operations.md explains the choice): a crashed primary is
# failed over at once (primary_start_timeout 0), seen within one loop.
TTL=20
LOOP_WAIT=2
RETRY_TIMEOUT=5

# -------------------------------------------------------------- processes ---

IS_ROOT=0
if [ "$(id -u)" -eq 0 ]; then IS_ROOT=1; fi
# PostgreSQL refuses to run as root; as root, every process of the cluster runs as
# Debian's `postgres` user (setpriv execs, so the recorded pid is the process's own).
run_as() {
    if [ "$IS_ROOT" -eq 1 ]; then
        setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
    else
        "$@"
    fi
}

# Starts a command detached, its output appended to LOG, its pid in PIDFILE.
spawn() {
    local pidfile="$1" logfile="$2"
    shift 2
    : >>"$logfile"
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$logfile"; fi
    # The shell writes its own pid, then execs: the pid is the command's.
    setsid sh -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "${RUN_AS[@]}" "$@" \
        >>"$logfile" 2>&1 </dev/null 9>&- &
    local i
    for ((i = 0; i < 50; i++)); do [ -s "$pidfile" ] && return 0; sleep 0.1; done
    die "no pid file $pidfile after 5 s (log: $logfile)"
}
RUN_AS=()
if [ "$IS_ROOT" -eq 1 ]; then RUN_AS=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi

alive() {
    local pid
    [ -s "$1" ] || return 1
    pid="$(cat "$1")"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    # A killed process nobody reaped is not alive.
    [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ]
}

# Stops the process of PIDFILE: SIGTERM, then SIGKILL after SECONDS.
stop_pid() {
    local pidfile="$1" seconds="$2" name="$3" pid i
    alive "$pidfile" || { rm -f "$pidfile"; return 0; }
    pid="$(cat "$pidfile")"
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < seconds * 10; i++)); do
        alive "$pidfile" || { rm -f "$pidfile"; return 0; }
        sleep 0.1
    done
    log "$name did not stop within $seconds s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$pidfile"
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

wait_for() {
    local what="$1" seconds="$2" i
    shift 2
    for ((i = 0; i < seconds * 4; i++)); do
        if "$@"; then return 0; fi
        sleep 0.25
    done
    die "$what not ready after $seconds s"
}

http_ok() { curl -fsS -m 2 -o /dev/null "$1" 2>/dev/null; }

# ------------------------------------------------------------- packages ---

PG_BIN=""
find_pg_bin() {
    local dir
    PG_BIN=""
    # Patroni's configuration names PostgreSQL 15, the version the docs tested.
    for dir in /usr/lib/postgresql/15/bin; do
        [ -x "$dir/postgres" ] && [ -x "$dir/initdb" ] && PG_BIN="$dir" && return 0
    done
    return 1
}

ensure_packages() {
    local missing=()
    command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
    command -v patroni >/dev/null 2>&1 || missing+=(patroni)
    command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
    find_pg_bin || missing+=(postgresql-15)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    if [ "${#missing[@]}" -gt 0 ]; then
        apt_install "the cluster needs ${missing[*]}" "install ${missing[*]}" "${missing[@]}"
        # Debian's packages start their own system services where an init runs them;
        # the cluster runs its own processes on its own ports, so those are not used.
    fi
    find_pg_bin || die "no PostgreSQL 15 server binaries under /usr/lib/postgresql/15/bin"
    HAPROXY="$(command -v haproxy 2>/dev/null || echo /usr/sbin/haproxy)"
}

server_bin() {
    local bin="${YANIV_SERVER_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/yaniv-server}"
    if [ ! -x "$bin" ]; then
        [ -z "${YANIV_SERVER_BIN:-}" ] || die "YANIV_SERVER_BIN=$bin is not an executable"
        log "building the release server: cargo build --release -p yaniv-api --bin yaniv-server"
        (cd "$ROOT" && cargo build --release -p yaniv-api --bin yaniv-server) >&2 ||
            die "the server did not build"
    fi
    printf '%s\n' "$bin"
}

# ----------------------------------------------------------------- layout ---

prepare_dirs() {
    mkdir -p "$C"
    local n
    for n in "${NODES[@]}"; do mkdir -p "$C/etcd$n" "$C/pg$n/run"; done
    mkdir -p "$C/api"
    if [ "$IS_ROOT" -eq 1 ]; then
        id postgres >/dev/null 2>&1 || die "running as root, but there is no 'postgres' user"
        setpriv --reuid=postgres --regid=postgres --init-groups -- test -x "$C" ||
            die "user postgres cannot enter $C (a checkout under a private home?)"
        chown -R postgres: "$C"
    fi
    chmod 700 "$C"/pg? 2>/dev/null || true
    if [ ! -s "$C/admin-password" ]; then
        (umask 077 && head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$C/admin-password")
    fi
}

# ------------------------------------------------------------------- etcd ---

etcd_cluster_list() {
    local n out=""
    for n in "${NODES[@]}"; do out+="${out:+,}e$n=http://127.0.0.1:$(etcd_peer_port "$n")"; done
    printf '%s' "$out"
}

start_etcd() {
    local n="$1" state=new
    alive "$C/etcd$n.pid" && return 0
    for p in "$(etcd_client_port "$n")" "$(etcd_peer_port "$n")"; do
        port_open "$p" && die "port $p is taken by something else (set YANIV_CLUSTER_PORT_BASE)"
    done
    [ -d "$C/etcd$n/data/member" ] && state=existing
    log "starting etcd member e$n on 127.0.0.1:$(etcd_client_port "$n")"
    # Heartbeat and election timeouts at twice the defaults: the machine's two
    # cores are shared with builds, and a late heartbeat must not start an election.
    spawn "$C/etcd$n.pid" "$C/etcd$n.log" etcd --name "e$n" --data-dir "$C/etcd$n/data" \
        --listen-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" \
        --advertise-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" \
        --listen-peer-urls "http://127.0.0.1:$(etcd_peer_port "$n")" \
        --initial-advertise-peer-urls "http://127.0.0.1:$(etcd_peer_port "$n")" \
        --initial-cluster "$(etcd_cluster_list)" --initial-cluster-state "$state" \
        --initial-cluster-token yaniv-cluster \
        --heartbeat-interval 200 --election-timeout 2000 \
        --logger zap --log-level warn
}

etcd_healthy() { curl -fsS -m 2 "http://127.0.0.1:$(etcd_client_port 1)/health" 2>/dev/null | grep -q '"health":"true"'; }

# ---------------------------------------------------------------- patroni ---

write_patroni_conf() {
    local n="$1" dir="$C/pg$n" hosts="" m
    for m in "${NODES[@]}"; do hosts+="${hosts:+, }127.0.0.1:$(etcd_client_port "$m")"; done
    cat >"$dir/patroni.yml" <<EOF
# Written by deploy/cluster.sh at each start; edits are lost.
scope: yaniv
name: pg$n
restapi:
  listen: 127.0.0.1:$(rest_port "$n")
  connect_address: 127.0.0.1:$(rest_port "$n")
etcd3:
  hosts: [$hosts]
bootstrap:
  dcs:
    ttl: $TTL
    loop_wait: $LOOP_WAIT
    retry_timeout: $RETRY_TIMEOUT
    maximum_lag_on_failover: 1048576
    # A primary whose PostgreSQL died is failed over at once rather than restarted in
    # place: the synchronous standby has every acknowledged commit.
    primary_start_timeout: 0
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
        fsync: "off"
        hot_standby_feedback: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
postgresql:
  listen: 127.0.0.1:$(pg_port "$n")
  connect_address: 127.0.0.1:$(pg_port "$n")
  data_dir: $dir/data
  bin_dir: $PG_BIN
  pgpass: $dir/pgpass
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
  parameters:
    unix_socket_directories: '$dir/run'
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
log:
  level: INFO
EOF
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$dir/patroni.yml"; fi
}

start_node() {
    local n="$1"
    alive "$C/pg$n/patroni.pid" && return 0
    for p in "$(pg_port "$n")" "$(rest_port "$n")"; do
        port_open "$p" && die "port $p is taken by something else (set YANIV_CLUSTER_PORT_BASE)"
    done
    write_patroni_conf "$n"
    log "starting Patroni node pg$n (PostgreSQL on 127.0.0.1:$(pg_port "$n"), REST on $(rest_port "$n"))"
    spawn "$C/pg$n/patroni.pid" "$C/pg$n/patroni.log" patroni "$C/pg$n/patroni.yml"
}

# The pid of node N's postmaster, if it runs.
postmaster_pid() {
    local pid
    pid="$(head -n 1 "$C/pg$1/data/postmaster.pid" 2>/dev/null)" || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && printf '%s\n' "$pid"
}

patroni_role() { curl -fsS -m 2 "http://127.0.0.1:$(rest_port "$1")/patroni" 2>/dev/null | sed -n 's/.*"role": *"\([a-z_]*\)".*/\1/p'; }

primary_reachable() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -t 2; }

# True when a primary and at least one streaming synchronous standby exist.
replication_ready() {
    local out
    out="$("$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -tAX \
        -c "select count(*) from pg_stat_replication where sync_state in ('sync','quorum')" 2>/dev/null)" || return 1
    [ "${out:-0}" -ge 1 ]
}

ensure_database() {
    local exists
    exists="$("$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -tAX \
        -c "select 1 from pg_database where datname = '$DB_NAME'")"
    if [ "$exists" != "1" ]; then
        log "creating database $DB_NAME"
        "$PG_BIN/createdb" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres "$DB_NAME"
    fi
}

# ---------------------------------------------------------------- haproxy ---

write_haproxy_conf() {
    local n
    {
        cat <<EOF
# Written by deploy/cluster.sh at each start; edits are lost.
global
    maxconn 8000
    pidfile $C/haproxy.pidfile

defaults
    timeout connect 2s
    timeout check 2s
    # Long enough for a live stream's heartbeat (15 s) and a pooled database link.
    timeout client 30m
    timeout server 30m
    retries 3
    # An answer of our own while no server can take the request: a problem document,
    # as the servers' own 503, so clients retry it the same way.
    errorfile 503 $C/503.http
    errorfile 502 $C/502.http
    errorfile 504 $C/504.http

# Writes (and every command's reads): the one node whose Patroni says it leads.
# shutdown-sessions cuts the links to a node as soon as it is marked down, so no
# pooled connection outlives its primary.
listen postgres_primary
    mode tcp
    bind 127.0.0.1:$PRIMARY_PORT
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
EOF
        for n in "${NODES[@]}"; do
            echo "    server pg$n 127.0.0.1:$(pg_port "$n") check port $(rest_port "$n")"
        done
        cat <<EOF

# Lag-tolerant reads: a streaming replica no more than 1 MB behind.
listen postgres_replicas
    mode tcp
    bind 127.0.0.1:$REPLICA_PORT
    balance roundrobin
    option httpchk OPTIONS /replica?lag=1MB
    http-check expect status 200
    default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
EOF
        for n in "${NODES[@]}"; do
            echo "    server pg$n 127.0.0.1:$(pg_port "$n") check port $(rest_port "$n")"
        done
        cat <<EOF

# The API servers, taken out while /readyz fails (no database, or draining).
frontend yaniv_http
    mode http
    bind 127.0.0.1:$HTTP_PORT
    option httplog
    timeout http-request 10s
    default_backend yaniv_api

backend yaniv_api
    mode http
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    # A new link to the server for every request: no idle link to a server that
    # closed it meanwhile, which would cost a request its answer (502).
    option http-server-close
    # A request that never reached a server (refused, or the door of a draining one)
    # goes to another.
    option redispatch 1
    retry-on conn-failure
    default-server inter 1s fastinter 500ms fall 2 rise 1
EOF
        for n in "${NODES[@]}"; do
            echo "    server api$n 127.0.0.1:$(api_port "$n") check"
        done
        cat <<EOF

listen stats
    mode http
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /
EOF
    } >"$C/haproxy.cfg"
    # The same problem documents as deploy/compose.yaml's HAProxy.
    cp "$ROOT"/deploy/compose/errors/50?.http "$C/"
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$C/haproxy.cfg" "$C"/50?.http; fi
}

start_haproxy() {
    write_haproxy_conf
    "$HAPROXY" -c -q -f "$C/haproxy.cfg" || die "HAProxy refuses $C/haproxy.cfg"
    if alive "$C/haproxy.pid"; then
        # The configuration may have changed (another port base): reload it.
        kill -USR2 "$(cat "$C/haproxy.pid")" 2>/dev/null || true
        return 0
    fi
    for p in "$PRIMARY_PORT" "$REPLICA_PORT" "$STATS_PORT" "$HTTP_PORT"; do
        port_open "$p" && die "port $p is taken by something else (set YANIV_CLUSTER_PORT_BASE)"
    done
    log "starting HAProxy: primary 127.0.0.1:$PRIMARY_PORT, replicas $REPLICA_PORT, HTTP $HTTP_PORT, stats $STATS_PORT"
    # -W: master-worker, so SIGUSR2 reloads it; -db: stays in the foreground.
    spawn "$C/haproxy.pid" "$C/haproxy.log" "$HAPROXY" -W -db -f "$C/haproxy.cfg"
}

# ------------------------------------------------------------ API servers ---

start_api() {
    local n="$1" bin
    alive "$C/api/api$n.pid" && return 0
    port_open "$(api_port "$n")" && die "port $(api_port "$n") is taken by something else"
    bin="$(server_bin)"
    log "starting API server $n on 127.0.0.1:$(api_port "$n")"
    # Lag-tolerant public reads go to HAProxy's replica port (docs/operations.md,
    # "Reads from a replica"); with no standby healthy there they go to the primary.
    # The drain delay exceeds HAProxy's time to mark a server down (fall 2 at 1 s).
    API_ENV=(DATABASE_URL="$PRIMARY_URL" YANIV_DATABASE_REPLICA_URL="$REPLICA_URL"
        BIND_ADDRESS="127.0.0.1:$(api_port "$n")"
        RUST_LOG="${RUST_LOG:-info,sqlx=warn}" YANIV_SHUTDOWN_DELAY_MS=2500
        YANIV_BOOTSTRAP_ADMIN=admin YANIV_BOOTSTRAP_ADMIN_PASSWORD="$(cat "$C/admin-password")"
        YANIV_HTTP_WORKERS="${YANIV_CLUSTER_HTTP_WORKERS:-1}")
    spawn "$C/api/api$n.pid" "$C/api/api$n.log" env "${API_ENV[@]}" "$bin" serve
}

api_ready() { http_ok "http://127.0.0.1:$(api_port "$1")/readyz"; }

# --------------------------------------------------------------- commands ---

print_env() {
    printf 'export YANIV_CLUSTER_URL=%q\n' "$HTTP_URL"
    printf 'export YANIV_CLUSTER_DATABASE_URL=%q\n' "$PRIMARY_URL"
    printf 'export YANIV_CLUSTER_REPLICA_URL=%q\n' "$REPLICA_URL"
}

cmd_up() {
    ensure_packages
    local bin
    bin="$(server_bin)" # built before anything starts, so a failed build starts nothing
    prepare_dirs
    exec 9>"$C/.lock"
    flock 9
    local n
    for n in "${NODES[@]}"; do start_etcd "$n"; done
    wait_for "etcd" 60 etcd_healthy
    for n in "${NODES[@]}"; do start_node "$n"; done
    start_haproxy
    wait_for "a PostgreSQL primary behind HAProxy" 180 primary_reachable
    wait_for "a synchronous standby" 180 replication_ready
    ensure_database
    # The first server applies the migrations; the others start on the migrated schema.
    start_api 1
    wait_for "API server 1" 60 api_ready 1
    for n in 2 3; do start_api "$n"; done
    for n in 2 3; do wait_for "API server $n" 60 api_ready "$n"; done
    wait_for "the API through HAProxy" 30 http_ok "$HTTP_URL/readyz"
    log "cluster up: $HTTP_URL (server $bin; admin 'admin', password in $C/admin-password)"
    print_env
}

cmd_down() {
    local n
    for n in 3 2 1; do stop_pid "$C/api/api$n.pid" 40 "API server $n"; done
    stop_pid "$C/haproxy.pid" 10 "HAProxy"
    # Replicas first, the leader last: no failover on the way down.
    local leader=""
    for n in "${NODES[@]}"; do [ "$(patroni_role "$n")" = "primary" ] && leader="$n"; done
    for n in "${NODES[@]}"; do [ "$n" = "$leader" ] || stop_pid "$C/pg$n/patroni.pid" 60 "Patroni pg$n"; done
    [ -z "$leader" ] || stop_pid "$C/pg$leader/patroni.pid" 60 "Patroni pg$leader"
    # A PostgreSQL left behind by a Patroni that was killed.
    find_pg_bin || true
    for n in "${NODES[@]}"; do
        if postmaster_pid "$n" >/dev/null && [ -n "$PG_BIN" ]; then
            log "stopping PostgreSQL pg$n left without its Patroni"
            run_as "$PG_BIN/pg_ctl" -D "$C/pg$n/data" -m fast -w stop >/dev/null 2>&1 || true
        fi
    done
    for n in "${NODES[@]}"; do stop_pid "$C/etcd$n.pid" 10 "etcd e$n"; done
    log "stopped (data kept under $C; delete it to start afresh)"
}

cmd_status() {
    local ok=0 n
    find_pg_bin || true
    echo "etcd:"
    for n in "${NODES[@]}"; do
        if alive "$C/etcd$n.pid" && curl -fsS -m 2 "http://127.0.0.1:$(etcd_client_port "$n")/health" 2>/dev/null | grep -q '"health":"true"'; then
            echo "  e$n  127.0.0.1:$(etcd_client_port "$n")  healthy"
        else
            echo "  e$n  127.0.0.1:$(etcd_client_port "$n")  DOWN"; ok=1
        fi
    done
    echo "PostgreSQL (Patroni):"
    if alive "$C/pg1/patroni.pid" || alive "$C/pg2/patroni.pid" || alive "$C/pg3/patroni.pid"; then
        local conf
        for n in "${NODES[@]}"; do [ -s "$C/pg$n/patroni.yml" ] && conf="$C/pg$n/patroni.yml" && break; done
        run_as patronictl -c "$conf" list 2>/dev/null | sed 's/^/  /' || { echo "  patronictl failed"; ok=1; }
    else
        echo "  no Patroni runs"; ok=1
    fi
    for n in "${NODES[@]}"; do alive "$C/pg$n/patroni.pid" || { echo "  pg$n: Patroni DOWN"; ok=1; }; done
    if [ -n "$PG_BIN" ] && primary_reachable; then
        echo "  replication seen from the primary (127.0.0.1:$PRIMARY_PORT):"
        "$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -X -P footer=off \
            -c "select application_name as standby, state, sync_state, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) as replay_lag_bytes, replay_lag from pg_stat_replication order by 1" 2>/dev/null |
            sed 's/^/    /'
    else
        echo "  no primary reachable through HAProxy"; ok=1
    fi
    echo "HAProxy (stats: http://127.0.0.1:$STATS_PORT/):"
    if alive "$C/haproxy.pid"; then
        curl -fsS -m 2 "http://127.0.0.1:$STATS_PORT/;csv" 2>/dev/null |
            awk -F, '$2 != "FRONTEND" && $2 != "BACKEND" && $1 !~ /^#/ && $1 != "stats" {printf "  %-18s %-6s %s\n", $1, $2, $18}'
    else
        echo "  DOWN"; ok=1
    fi
    echo "API servers:"
    for n in "${NODES[@]}"; do
        local ready="DOWN"
        if alive "$C/api/api$n.pid"; then
            ready="$(curl -sS -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$(api_port "$n")/readyz" 2>/dev/null || true)"
            [ "$ready" = 200 ] && ready="ready" || { ready="readyz $ready"; ok=1; }
        else
            ok=1
        fi
        echo "  api$n  127.0.0.1:$(api_port "$n")  $ready"
    done
    echo "URL: $HTTP_URL"
    return "$ok"
}

cmd_pids() {
    local n pid
    for n in "${NODES[@]}"; do
        alive "$C/etcd$n.pid" && echo "etcd$n $(cat "$C/etcd$n.pid")"
        alive "$C/pg$n/patroni.pid" && echo "patroni$n $(cat "$C/pg$n/patroni.pid")"
        pid="$(postmaster_pid "$n" 2>/dev/null)" && echo "postgres$n $pid $(patroni_role "$n")"
        alive "$C/api/api$n.pid" && echo "api$n $(cat "$C/api/api$n.pid")"
    done
    alive "$C/haproxy.pid" && echo "haproxy $(cat "$C/haproxy.pid")"
    return 0
}

node_number() {
    [[ "${1:-}" =~ ^[123]$ ]] || die "expected a node number 1, 2 or 3, not '${1:-}'"
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    env) print_env ;;
    pids) cmd_pids ;;
    start-api) node_number "${2:-}"; ensure_packages; start_api "$2"; wait_for "API server $2" 60 api_ready "$2" ;;
    stop-api) node_number "${2:-}"; stop_pid "$C/api/api$2.pid" 40 "API server $2" ;;
    start-node) node_number "${2:-}"; ensure_packages; start_node "$2" ;;
    -h | --help | help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '${1:-}' (expected up, down, status, env, pids, start-api, stop-api or start-node)" ;;
esac
