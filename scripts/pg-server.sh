#!/usr/bin/env bash
# A real PostgreSQL on loopback for tests and local many-server setups, from Debian's own
# `postgresql` package (15 on bookworm): one cluster in a directory of its own, its own port.
#
#   scripts/pg-server.sh start    start it (or find it running) and print the `export ...` lines
#   scripts/pg-server.sh stop     stop the server this script started (its data stays for the next start)
#   scripts/pg-server.sh status   exit 0 and print the database URL when it answers, 1 otherwise
#   scripts/pg-server.sh env      print `export ...` lines for the test suite and the server
#   scripts/pg-server.sh reset    stop it and delete its data (the next start makes a fresh cluster)
#
# Needs `apt-get install -y --no-install-recommends postgresql` (root). PostgreSQL refuses to run
# as root: run as root, the cluster belongs to the `postgres` user the package creates.
# Settings (environment): FORMWRIGHT_PG_SERVER_DIR (default ${TMPDIR:-/tmp}/formwright-pg),
# FORMWRIGHT_PG_SERVER_PORT (55432), FORMWRIGHT_PG_BIN (default: the newest
# /usr/lib/postgresql/*/bin).
#
# The cluster is a test server: it listens on 127.0.0.1 only, and trades durability on power
# loss (fsync off) for speed. Starting is serialized with flock, so parallel callers (test
# workers) wait for one start and then all find it running.
set -euo pipefail

DIR=${FORMWRIGHT_PG_SERVER_DIR:-${TMPDIR:-/tmp}/formwright-pg}
PORT=${FORMWRIGHT_PG_SERVER_PORT:-55432}
USER_NAME=formwright
PASSWORD=formwright
DATABASE=formwright
URL="postgres://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DATABASE"
DATA="$DIR/data"

say() { printf '[pg-server] %s\n' "$*" >&2; }

pg_bin() {
  if [ -n "${FORMWRIGHT_PG_BIN:-}" ]; then echo "$FORMWRIGHT_PG_BIN"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$newest" ]; then echo "$newest"; return; fi
  local initdb
  initdb=$(command -v initdb || true)
  [ -n "$initdb" ] && dirname "$initdb"
}

BIN=$(pg_bin || true)

# Root runs the cluster as `postgres`; anyone else runs it as themselves.
owner() { if [ "$(id -u)" = "0" ]; then echo postgres; else id -un; fi; }
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

answers() { PGPASSWORD=$PASSWORD "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d "$DATABASE" -Atqc 'select 1' >/dev/null 2>&1; }

# Ours and answering: the postmaster of our data directory is alive and our database answers.
running() {
  [ -f "$DATA/postmaster.pid" ] && kill -0 "$(head -n 1 "$DATA/postmaster.pid")" 2>/dev/null && answers
}

print_env() {
  cat <<EOF
export FORMWRIGHT_TEST_DATABASE_URL=$URL
EOF
}

stop_server() {
  if [ -f "$DATA/postmaster.pid" ] && kill -0 "$(head -n 1 "$DATA/postmaster.pid")" 2>/dev/null; then
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >/dev/null 9>&-
  fi
}

start() {
  if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ] || [ ! -x "$BIN/pg_ctl" ] || [ ! -x "$BIN/psql" ]; then
    say "missing PostgreSQL's programs (initdb, pg_ctl, psql): apt-get install -y --no-install-recommends postgresql"
    exit 3
  fi
  if running; then
    say "already running on 127.0.0.1:$PORT"
    return
  fi
  local who
  who=$(owner)
  mkdir -p "$DIR/run" "$DIR/log"
  chown "$who" "$DIR" "$DIR/run" "$DIR/log"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    rm -rf "$DATA"
    install -d -m 0700 -o "$who" "$DATA"
    local pwfile="$DIR/run/pwfile"
    printf '%s\n' "$PASSWORD" >"$pwfile"
    chown "$who" "$pwfile"
    as_owner "$BIN/initdb" -D "$DATA" -U "$USER_NAME" --pwfile="$pwfile" --auth=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >"$DIR/log/initdb.out" 2>&1 \
      || { say "initdb failed; last lines of $DIR/log/initdb.out:"; tail -n 20 "$DIR/log/initdb.out" >&2; exit 1; }
    rm -f "$pwfile"
    cat >>"$DATA/postgresql.conf" <<EOF
# scripts/pg-server.sh: a loopback test server.
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR/run'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  fi
  # A postmaster that died uncleanly leaves its pid file; pg_ctl checks it is stale before starting.
  # setsid detaches the server from the caller's process group, so a test runner's exit leaves it up.
  # 9>&-: the server must not inherit the flock, or every later start would wait on it forever.
  if ! as_owner setsid "$BIN/pg_ctl" -D "$DATA" -l "$DIR/log/postgres.log" -w -t 60 start >/dev/null 2>&1 </dev/null 9>&-; then
    say "PostgreSQL did not start on 127.0.0.1:$PORT; last lines of $DIR/log/postgres.log:"
    tail -n 20 "$DIR/log/postgres.log" >&2 || true
    exit 1
  fi
  if ! PGPASSWORD=$PASSWORD "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d postgres -Atqc \
    "select 1 from pg_database where datname = '$DATABASE'" | grep -q 1; then
    PGPASSWORD=$PASSWORD "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d postgres -qc "create database $DATABASE" >/dev/null
  fi
  answers || { say "PostgreSQL started but database $DATABASE does not answer"; exit 1; }
  say "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') up on 127.0.0.1:$PORT (pid $(head -n 1 "$DATA/postmaster.pid")); data in $DATA"
}

command=${1:-start}
case "$command" in
  start)
    mkdir -p "$(dirname "$DIR")"
    exec 9>"$DIR.lock"
    flock 9
    start
    print_env
    ;;
  stop)
    exec 9>"$DIR.lock"
    flock 9
    [ -n "$BIN" ] && stop_server
    say "stopped"
    ;;
  reset)
    exec 9>"$DIR.lock"
    flock 9
    [ -n "$BIN" ] && stop_server
    rm -rf "$DIR"
    say "stopped and deleted $DIR"
    ;;
  status)
    if [ -n "$BIN" ] && running; then echo "$URL"; else exit 1; fi
    ;;
  env) print_env ;;
  *) say "usage: $0 start|stop|status|env|reset"; exit 2 ;;
esac
