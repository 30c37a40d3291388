#!/usr/bin/env bash
# A real S3 server on loopback for tests: Ceph's RADOS Gateway as a single-node cluster
# (1 mon + 1 OSD on memstore + radosgw) from Debian's own packages (Ceph 16 "pacific").
#
#   scripts/s3-server.sh start    start it (or find it running) and print the endpoint and credentials
#   scripts/s3-server.sh stop     stop the daemons this script started (by their recorded PIDs)
#   scripts/s3-server.sh status   exit 0 and print the endpoint when it answers, 1 otherwise
#   scripts/s3-server.sh env      print `export ...` lines for the test suite and the server
#
# Needs `apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd` (root, ~40 s).
# Settings (environment): FORMWRIGHT_S3_SERVER_DIR (default ${TMPDIR:-/tmp}/formwright-s3),
# FORMWRIGHT_S3_SERVER_PORT (7480), FORMWRIGHT_S3_SERVER_MON_PORT (6789; the v2 port is +1),
# S3_ACCESS_KEY / S3_SECRET_KEY (testkey / testsecret).
#
# memstore keeps objects in RAM, so a stopped server comes back empty: `start` on a directory whose
# daemons are gone wipes it and builds a fresh cluster (about 16 s). Starting is serialized with
# flock, so parallel callers (test workers) wait for one start and then all find it running.
set -euo pipefail

DIR=${FORMWRIGHT_S3_SERVER_DIR:-${TMPDIR:-/tmp}/formwright-s3}
PORT=${FORMWRIGHT_S3_SERVER_PORT:-7480}
MON_PORT=${FORMWRIGHT_S3_SERVER_MON_PORT:-6789}
MON_V2_PORT=$((MON_PORT + 1))
AK=${S3_ACCESS_KEY:-testkey}
SK=${S3_SECRET_KEY:-testsecret}
ENDPOINT="http://127.0.0.1:$PORT"

say() { printf '[s3-server] %s\n' "$*" >&2; }

alive() { [ -f "$DIR/run/$1.pid" ] && kill -0 "$(cat "$DIR/run/$1.pid")" 2>/dev/null; }

answers() { curl -s -o /dev/null --max-time 2 "$ENDPOINT/"; }

running() { alive mon && alive osd && alive rgw && answers; }

# Waits for a condition, failing with the daemon's log after `limit` seconds.
wait_for() {
  local what=$1 limit=$2 log=$3; shift 3
  local deadline=$((SECONDS + limit))
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then
      say "timed out after ${limit}s waiting for $what; last lines of $log:"
      tail -n 20 "$log" >&2 || true
      return 1
    fi
    sleep 0.2
  done
}

print_env() {
  cat <<EOF
export FORMWRIGHT_TEST_S3_ENDPOINT=$ENDPOINT
export AWS_ACCESS_KEY_ID=$AK
export AWS_SECRET_ACCESS_KEY=$SK
export AWS_REGION=us-east-1
EOF
}

stop_daemons() {
  local name pid
  for name in rgw osd mon; do
    if alive "$name"; then
      pid=$(cat "$DIR/run/$name.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/run/$name.pid"
  done
}

start() {
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph ceph-authtool monmaptool curl; do
    command -v "$tool" >/dev/null 2>&1 || { say "missing $tool: apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd curl"; exit 3; }
  done
  if running; then
    say "already running on $ENDPOINT"
    return
  fi
  # Daemons of an earlier run that are half up, or a memstore cluster whose data is gone: start over.
  stop_daemons
  rm -rf "$DIR"
  mkdir -p "$DIR"/{run,log,mon,osd/ceph-0,rgw}
  local conf="$DIR/ceph.conf" fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$MON_V2_PORT,v1:127.0.0.1:$MON_PORT]
mon initial members = a
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
# Without these the daemons of Ceph 16 do not talk to each other with auth off.
ms mon client mode = crc
ms client mode = crc
ms mon cluster mode = crc
ms cluster mode = crc
ms mon service mode = crc
ms service mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 1
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 4294967296
osd memory target = 1073741824
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
mon data = $DIR/mon/\$cluster-\$id
osd data = $DIR/osd/\$cluster-\$id
keyring = $DIR/keyring
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw data = $DIR/rgw
EOF
  ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_V2_PORT,v1:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
  ceph-mon -c "$conf" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/keyring"

  # -f keeps each daemon in the foreground, so $! is its real PID; setsid detaches it from the
  # caller's process group, so a test runner's exit does not take it down mid-run.
  setsid ceph-mon -f -c "$conf" -i a >>"$DIR/log/mon.out" 2>&1 </dev/null 9>&- & echo $! >"$DIR/run/mon.pid"
  wait_for "the monitor" 60 "$DIR/log/mon.out" ceph -c "$conf" --connect-timeout 2 mon stat >/dev/null 2>&1
  ceph -c "$conf" osd create >/dev/null
  ceph-osd -c "$conf" -i 0 --mkfs >>"$DIR/log/osd-mkfs.out" 2>&1
  setsid ceph-osd -f -c "$conf" -i 0 >>"$DIR/log/osd.out" 2>&1 </dev/null 9>&- & echo $! >"$DIR/run/osd.pid"
  osd_up() { ceph -c "$conf" osd stat 2>/dev/null | grep -q '1 up'; }
  wait_for "the OSD" 60 "$DIR/log/osd.out" osd_up
  setsid radosgw -f -c "$conf" -n client.rgw.a >>"$DIR/log/rgw.out" 2>&1 </dev/null 9>&- & echo $! >"$DIR/run/rgw.pid"
  wait_for "radosgw" 120 "$DIR/log/rgw.out" answers
  radosgw-admin -c "$conf" -n client.admin user create --uid=formwright --display-name=formwright \
    --access-key="$AK" --secret="$SK" >/dev/null
  say "radosgw up on $ENDPOINT (access key $AK, secret $SK); pids mon=$(cat "$DIR/run/mon.pid") osd=$(cat "$DIR/run/osd.pid") rgw=$(cat "$DIR/run/rgw.pid"); data in $DIR"
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
    stop_daemons
    rm -rf "$DIR"
    say "stopped"
    ;;
  status)
    if running; then echo "$ENDPOINT"; else exit 1; fi
    ;;
  env) print_env ;;
  *) say "usage: $0 start|stop|status|env"; exit 2 ;;
esac
