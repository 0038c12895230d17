#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on a free loopback port for the tests.
#
#   source .ci/postgres.sh            # exports WUWE_TEST_POSTGRES_URL; the server stops when the shell exits
#   .ci/postgres.sh npx jest spec/durable   # runs one command against a fresh server, then stops it
#
# The server runs as the `postgres` user when started as root, in a fresh temporary directory
# (data, unix socket and log), with trust authentication on 127.0.0.1 only.

# The server binaries: WUWE_PG_BIN, else `pg_config --bindir`, else the newest Debian /usr/lib/postgresql/<version>/bin.
wuwe_pg_find_bin() {
  local candidate
  for candidate in "${WUWE_PG_BIN:-}" "$(pg_config --bindir 2>/dev/null)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -rn); do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ]; then
      echo "$candidate"
      return 0
    fi
  done
  echo "${WUWE_PG_BIN:-/usr/lib/postgresql/bin}"
}
wuwe_pg_bin="$(wuwe_pg_find_bin)"

# Runs a command as the server's owner: `postgres` when we are root, ourselves otherwise.
wuwe_pg_as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

wuwe_pg_stop() {
  if [ -n "${WUWE_PG_DIR:-}" ] && [ -d "$WUWE_PG_DIR" ]; then
    wuwe_pg_as_owner "$wuwe_pg_bin/pg_ctl" -D "$WUWE_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$WUWE_PG_DIR"
  fi
}

wuwe_pg_start() {
  if [ ! -x "$wuwe_pg_bin/initdb" ]; then
    echo "postgres.sh: PostgreSQL binaries not found in $wuwe_pg_bin (set WUWE_PG_BIN)" >&2
    return 1
  fi
  WUWE_PG_DIR="$(mktemp -d /tmp/wuwe-pg.XXXXXX)"
  if [ "$(id -u)" = "0" ]; then chown postgres: "$WUWE_PG_DIR"; fi
  chmod 700 "$WUWE_PG_DIR"

  local port
  port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"

  wuwe_pg_as_owner "$wuwe_pg_bin/initdb" -D "$WUWE_PG_DIR/data" -U postgres --auth=trust -E UTF8 --no-locale >"$WUWE_PG_DIR/initdb.log" 2>&1 || {
    cat "$WUWE_PG_DIR/initdb.log" >&2
    return 1
  }
  wuwe_pg_as_owner "$wuwe_pg_bin/pg_ctl" -D "$WUWE_PG_DIR/data" -l "$WUWE_PG_DIR/server.log" -w -t 60 \
    -o "-p $port -k $WUWE_PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null || {
    cat "$WUWE_PG_DIR/server.log" >&2
    return 1
  }
  local tries=0
  until "$wuwe_pg_bin/pg_isready" -q -h 127.0.0.1 -p "$port"; do
    tries=$((tries + 1))
    if [ "$tries" -gt 60 ]; then
      echo "postgres.sh: server did not become ready" >&2
      return 1
    fi
    sleep 0.5
  done
  "$wuwe_pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres wuwe_test
  export WUWE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/wuwe_test"
  echo "postgres.sh: PostgreSQL ready at $WUWE_TEST_POSTGRES_URL"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: start now, stop when the sourcing shell exits.
  trap wuwe_pg_stop EXIT
  wuwe_pg_start
else
  set -euo pipefail
  trap wuwe_pg_stop EXIT
  wuwe_pg_start
  if [ "$#" -gt 0 ]; then
    "$@"
  else
    echo "postgres.sh: no command given; stopping the server" >&2
  fi
fi
