#!/usr/bin/env bash
# Project-local PostgreSQL for development and tests.
#
# Usage:
#   deploy/pg-local.sh [start]   provision (first time), start or reuse the cluster;
#                                prints `export DATABASE_URL=...` on stdout
#   deploy/pg-local.sh stop      stop the cluster (the data are kept)
#   deploy/pg-local.sh status    say whether it runs; exit 0 if it does
#
# Use it with:  eval "$(deploy/pg-local.sh)"
# Progress goes to stderr, only the export line goes to stdout.
#
# What it does (see README.md, "Local PostgreSQL"):
#   - finds PostgreSQL's server binaries under /usr/lib/postgresql/<version>/bin
#     (highest version), or installs Debian's `postgresql` packages with apt-get;
#   - runs initdb into .local/pg/data, keeps the port in .local/pg/port, the unix
#     socket in .local/pg/run and the server log in .local/pg/log;
#   - listens on 127.0.0.1 only, on a free port (never assumes 5432 is free);
#   - when a cluster is already up it only prints the URL (well under a second).
#
# Environment: PG_LOCAL_LIBDIR (default /usr/lib/postgresql) is where the
# versioned bin/ folders are looked for.
#
# THIS IS A THROWAWAY DEV/TEST CLUSTER: every local connection is trusted (no
# password), and fsync is off. Never point it at data you care about.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_LINK="$ROOT/.local/pg"          # what users see; may be a symlink (see pick_base)
PG_LIBDIR="${PG_LOCAL_LIBDIR:-/usr/lib/postgresql}"
DB_NAME="yaniv"
DB_USER="postgres"                 # superuser created by initdb (-U)
PORT_RANGE_START=15432             # ports are looked for in [start, start + 1000)

log() { printf '[deploy] %s\n' "$*" >&2; }
die() { printf '[deploy] error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=deploy/apt-install.sh
. "$ROOT/deploy/apt-install.sh"

IS_ROOT=0
if [ "$(id -u)" -eq 0 ]; then IS_ROOT=1; fi

# ---------------------------------------------------------------- binaries ---

PG_BIN=""

# Sets PG_BIN to the highest-versioned folder holding the server binaries.
find_pg_bin() {
    local dir
    local required=(initdb pg_ctl postgres pg_isready psql createdb)
    PG_BIN=""
    while IFS= read -r dir; do
        [ -n "$dir" ] || continue
        if has_all "$dir" "${required[@]}"; then PG_BIN="$dir"; return 0; fi
    done < <(compgen -G "$PG_LIBDIR/*/bin" | sort -rV)
    # Not Debian's layout (e.g. a source build): accept binaries on PATH.
    local initdb
    if initdb="$(command -v initdb 2>/dev/null)"; then
        dir="$(dirname "$initdb")"
        if has_all "$dir" "${required[@]}"; then PG_BIN="$dir"; return 0; fi
    fi
    return 1
}

has_all() {
    local dir="$1" b
    shift
    for b in "$@"; do [ -x "$dir/$b" ] || return 1; done
}

install_pg() {
    apt_install "no PostgreSQL server binaries under $PG_LIBDIR/*/bin" \
        "install PostgreSQL (initdb, pg_ctl, postgres) or set DATABASE_URL" postgresql
    find_pg_bin || die "postgresql was installed but no server binaries were found under $PG_LIBDIR/*/bin"
}

# ------------------------------------------------------------ run as owner ---

# initdb, pg_ctl and postgres refuse to run as root: as root, run them as the
# `postgres` system user (created by Debian's package). cd / first so that
# the unprivileged user never needs access to the caller's working directory.
# fd 9 (our lock, see cmd_start) is closed: the server must not inherit it.
as_owner() {
    if [ "$IS_ROOT" -eq 1 ]; then
        if command -v runuser >/dev/null 2>&1; then
            (cd / && runuser -u postgres -- "$@" 9>&-)
        else
            local cmd
            cmd="$(printf '%q ' "$@")"
            (cd / && su -s /bin/sh postgres -c "$cmd" 9>&-)
        fi
    else
        "$@" 9>&-
    fi
}

# ----------------------------------------------------------------- layout ---

# PG is the real (resolved) folder. Normally it is .local/pg itself. When run
# as root from a checkout the `postgres` user cannot enter (e.g. under /root,
# mode 700), the cluster lives in /var/tmp/yaniv-pg-<hash> and .local/pg is a
# symlink to it: the PostgreSQL binaries are always given the resolved path.
PG=""
set_paths() {
    PG="$(readlink -m "$PG_LINK")"
    DATA="$PG/data"
    SOCK_DIR="$PG/run"
    LOG_FILE="$PG/log"
    PORT_FILE="$PG/port"
}
set_paths

pick_base() {
    mkdir -p "$ROOT/.local"
    if [ "$IS_ROOT" -eq 1 ]; then
        id postgres >/dev/null 2>&1 ||
            die "running as root, but there is no 'postgres' user to run the server as (Debian's postgresql package creates it)"
        if ! [ -L "$PG_LINK" ] && ! as_owner test -x "$ROOT/.local"; then
            local alt
            alt="/var/tmp/yaniv-pg-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
            log "user postgres cannot enter $ROOT: keeping the cluster in $alt (.local/pg links to it)"
            if [ -d "$PG_LINK" ]; then rmdir "$PG_LINK" 2>/dev/null || true; fi
            [ -e "$PG_LINK" ] && die "$PG_LINK exists and is not empty; remove it and try again"
            ln -sfn "$alt" "$PG_LINK"
        fi
    fi
    set_paths
    mkdir -p "$PG" "$SOCK_DIR"
    touch "$LOG_FILE"
    # The server writes the log and its socket itself, so it must own them.
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$PG" "$SOCK_DIR" "$LOG_FILE"; fi
}

# ------------------------------------------------------------------ state ---

# Prints the pid of the postmaster running on DATA, if any.
running_pid() {
    local pid
    [ -r "$DATA/postmaster.pid" ] || return 1
    pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null)" || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    # A killed server nobody reaped yet (zombie) is not running.
    if [ -r "/proc/$pid/stat" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat")" = Z ]; then return 1; fi
    printf '%s\n' "$pid"
}

# A server that was killed and never reaped (a zombie: seen in containers whose
# init does not reap) leaves a postmaster.pid and a socket lock file naming a
# pid that still "exists": postgres would refuse to start. Both are stale.
# (postgres still checks its shared memory is unused before it starts.)
remove_stale_pidfile() {
    local pid
    [ -r "$DATA/postmaster.pid" ] || return 0
    pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null)"
    if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat")" = Z ]; then
        log "removing stale postmaster.pid and socket lock (pid $pid is dead)"
        rm -f "$DATA/postmaster.pid" "$SOCK_DIR"/.s.PGSQL.*
    fi
}

# True when our cluster runs and accepts connections on the recorded port.
is_up() {
    local port pidport
    [ -r "$PORT_FILE" ] || return 1
    port="$(cat "$PORT_FILE")"
    running_pid >/dev/null || return 1
    # Line 4 of postmaster.pid is the port the server really listens on:
    # this keeps us from mistaking some other server for ours.
    pidport="$(sed -n 4p "$DATA/postmaster.pid")"
    [ "$pidport" = "$port" ] || return 1
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U "$DB_USER" -d postgres -t 2
}

url() {
    printf 'postgres://%s@127.0.0.1:%s/%s' "$DB_USER" "$(cat "$PORT_FILE")" "$DB_NAME"
}

print_env() {
    printf 'export DATABASE_URL=%q\n' "$(url)"
}

# ------------------------------------------------------------------- ports ---

port_in_use() {
    # Something accepts TCP connections there (any address family on loopback).
    timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null && return 0
    # A server elsewhere may have bound it without accepting (rare); ss knows.
    if command -v ss >/dev/null 2>&1; then
        ss -Htln "sport = :$1" 2>/dev/null | grep -q . && return 0
    fi
    return 1
}

# Prints a free port: the recorded one if it is free, else one derived from
# the checkout path (stable per checkout), else the next free one after it.
free_port() {
    local p i start
    if [ -r "$PORT_FILE" ]; then
        p="$(cat "$PORT_FILE")"
        if [[ "$p" =~ ^[0-9]+$ ]] && ! port_in_use "$p"; then echo "$p"; return 0; fi
    fi
    start=$(( $(printf '%s' "$ROOT" | cksum | cut -d' ' -f1) % 1000 ))
    for ((i = 0; i < 1000; i++)); do
        p=$(( PORT_RANGE_START + (start + i) % 1000 ))
        if ! port_in_use "$p"; then echo "$p"; return 0; fi
    done
    die "no free TCP port in $PORT_RANGE_START-$((PORT_RANGE_START + 999))"
}

# --------------------------------------------------------------- commands ---

init_cluster() {
    log "initdb into $DATA (PostgreSQL binaries from $PG_BIN)"
    # --auth=trust: a throwaway dev/test cluster, reachable only from this
    # machine (see listen_addresses below); no passwords anywhere.
    if ! as_owner "$PG_BIN/initdb" -D "$DATA" -U "$DB_USER" --auth=trust \
            --encoding=UTF8 --locale=C.UTF-8 >>"$LOG_FILE" 2>&1; then
        tail -n 20 "$LOG_FILE" >&2 || true
        die "initdb failed (full output in $LOG_FILE)"
    fi
    # Settings that never change live in postgresql.conf; the port and the
    # paths are rewritten before each start (local.conf), see write_local_conf.
    cat >>"$DATA/postgresql.conf" <<'EOF'

# --- added by deploy/pg-local.sh: throwaway dev/test cluster ---
listen_addresses = '127.0.0.1'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
include_if_exists = 'local.conf'
EOF
}

conf_quote() { printf "'%s'" "${1//\'/\'\'}"; }

# A self-signed certificate for the cluster (made once, kept in the data folder).
# Without openssl the cluster runs without TLS, and says so.
ensure_certificate() {
    [ -f "$DATA/server.crt" ] && [ -f "$DATA/server.key" ] && return 0
    if ! command -v openssl >/dev/null 2>&1; then
        log "openssl not found: the local cluster runs without TLS"
        return 1
    fi
    if ! openssl req -new -x509 -days 3650 -nodes -subj "/CN=localhost" \
            -keyout "$DATA/server.key" -out "$DATA/server.crt" >>"$LOG_FILE" 2>&1; then
        log "could not make a certificate (see $LOG_FILE): the local cluster runs without TLS"
        rm -f "$DATA/server.key" "$DATA/server.crt"
        return 1
    fi
    chmod 600 "$DATA/server.key"
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$DATA/server.key" "$DATA/server.crt"; fi
    log "made a self-signed TLS certificate for the local cluster"
}

write_local_conf() {
    local port="$1" sockdirs
    # A unix socket path is limited to 107 bytes; beyond that use TCP only.
    if [ $(( ${#SOCK_DIR} + 16 )) -lt 107 ]; then
        sockdirs="$SOCK_DIR"
    else
        log "socket path under $SOCK_DIR would be too long: TCP only"
        sockdirs=""
    fi
    local tls="off"
    if ensure_certificate; then tls="on"; fi
    {
        echo "# written by deploy/pg-local.sh before each start"
        echo "port = $port"
        echo "unix_socket_directories = $(conf_quote "$sockdirs")"
        # TLS on, so that the tests exercise the encrypted link managed databases
        # require (clients that do not ask for it still connect in clear).
        echo "ssl = $tls"
    } >"$DATA/local.conf"
    if [ "$IS_ROOT" -eq 1 ]; then chown postgres: "$DATA/local.conf"; fi
}

start_server() {
    local port attempt logsize out=""
    for attempt in 1 2 3; do
        port="$(free_port)"
        write_local_conf "$port"
        echo "$port" >"$PORT_FILE"
        log "starting PostgreSQL on 127.0.0.1:$port (log: $LOG_FILE)"
        logsize="$(stat -c %s "$LOG_FILE" 2>/dev/null || echo 0)"
        if out="$(as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG_FILE" -w -t 60 start 2>&1)"; then
            return 0
        fi
        # Lost a race for the port? Try another one.
        if tail -c +"$((logsize + 1))" "$LOG_FILE" 2>/dev/null | grep -q 'could not bind\|Address already in use'; then
            log "port $port was taken meanwhile (attempt $attempt); trying another"
            rm -f "$PORT_FILE"
            continue
        fi
        break
    done
    printf '%s\n' "$out" >&2
    tail -n 20 "$LOG_FILE" >&2 || true
    die "PostgreSQL did not start (full log: $LOG_FILE)"
}

wait_ready() {
    local port i
    port="$(cat "$PORT_FILE")"
    for ((i = 0; i < 60; i++)); do
        if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U "$DB_USER" -d postgres -t 2; then
            return 0
        fi
        sleep 0.5
    done
    die "PostgreSQL on 127.0.0.1:$port is not ready after 30 s (log: $LOG_FILE)"
}

ensure_database() {
    local port exists
    port="$(cat "$PORT_FILE")"
    exists="$("$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U "$DB_USER" -d postgres -tAX \
        -c "select 1 from pg_database where datname = '$DB_NAME'")"
    if [ "$exists" != "1" ]; then
        log "creating database $DB_NAME"
        "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U "$DB_USER" "$DB_NAME"
    fi
}

cmd_start() {
    # Fast path: already running, nothing to do but print the URL.
    if find_pg_bin && is_up; then
        log "reusing PostgreSQL on 127.0.0.1:$(cat "$PORT_FILE") ($DATA)"
        print_env
        return 0
    fi
    [ -n "$PG_BIN" ] || install_pg
    pick_base
    # Serialise concurrent callers (two test runs started at once).
    exec 9>"$PG/.lock"
    if command -v flock >/dev/null 2>&1; then flock 9; fi
    if ! is_up; then
        if [ ! -s "$DATA/PG_VERSION" ]; then
            if [ -e "$DATA" ] && [ -n "$(ls -A "$DATA" 2>/dev/null)" ]; then
                die "$DATA exists but is not a PostgreSQL data folder; remove it and try again"
            fi
            init_cluster
        elif running_pid >/dev/null; then
            # Running but not answering on the recorded port: stop and restart.
            log "a server runs on $DATA but does not answer as expected: restarting it"
            as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
        else
            log "cluster in $DATA exists but is down"
            remove_stale_pidfile
        fi
        start_server
    fi
    wait_ready
    ensure_database
    log "PostgreSQL ready: $(url)"
    print_env
}

cmd_stop() {
    find_pg_bin || die "no PostgreSQL binaries found: nothing to stop"
    if ! running_pid >/dev/null; then
        log "PostgreSQL in $DATA is not running"
        return 0
    fi
    log "stopping PostgreSQL in $DATA"
    as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null ||
        die "pg_ctl stop failed (log: $LOG_FILE)"
    log "stopped (data kept; delete $PG to start afresh)"
}

cmd_status() {
    if find_pg_bin && is_up; then
        log "running: $(url) ($DATA)"
        return 0
    fi
    log "not running ($DATA)"
    return 3
}

case "${1:-start}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    -h | --help | help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$1' (expected start, stop or status)" ;;
esac
