#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp dir, start on a
# free port on 127.0.0.1 (trust auth, loopback only), create database l9kit.
#
#   scripts/pg-cluster.sh run CMD [ARG...]   start, run CMD with L9KIT_TEST_DATABASE_URL set, stop
#                                            and remove the cluster (also on failure or Ctrl-C);
#                                            exits with CMD's status
#   eval "$(scripts/pg-cluster.sh start)"    start; prints `export L9KIT_TEST_DATABASE_URL=…` and
#                                            `export L9KIT_PG_CLUSTER_DIR=…` for the calling shell
#   scripts/pg-cluster.sh stop [DIR]         stop and remove (DIR defaults to $L9KIT_PG_CLUSTER_DIR)
#
# Binaries: $PG_BIN, else the newest /usr/lib/postgresql/*/bin (Debian), else `pg_config --bindir`,
# else PATH. As root, the server runs as the `postgres` OS user (it refuses to run as root).
set -euo pipefail

die() {
  echo "pg-cluster: $*" >&2
  exit 1
}

find_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$newest" ] && [ -x "$newest/initdb" ]; then echo "$newest"; return; fi
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
  if command -v initdb >/dev/null; then dirname "$(command -v initdb)"; return; fi
  die "no PostgreSQL server binaries found (install Debian's 'postgresql' package, or set PG_BIN to the directory holding initdb)"
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
  local bin dir port url
  bin=$(find_bin)
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then die "running as root, but there is no 'postgres' OS user to run the server"; fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/l9kit-pg.XXXXXX")
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; rm -rf "$dir"; die "initdb failed"; }
  echo "$bin" >"$dir/bin"
  # Another process may take the port between free_port and the server's bind: try a few.
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null; then
      echo "$port" >"$dir/port"
      break
    fi
  done
  [ -f "$dir/port" ] || { cat "$dir/server.log" >&2; rm -rf "$dir"; die "the server did not start"; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres l9kit
  url="postgres://postgres@127.0.0.1:$port/l9kit"
  echo "$url" >"$dir/url"
  echo "export L9KIT_TEST_DATABASE_URL=$url"
  echo "export L9KIT_PG_CLUSTER_DIR=$dir"
}

stop() {
  local dir=${1:-${L9KIT_PG_CLUSTER_DIR:-}}
  [ -n "$dir" ] || die "stop needs the cluster directory (argument or L9KIT_PG_CLUSTER_DIR)"
  [ -f "$dir/bin" ] || die "$dir is not a cluster made by this script"
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  run)
    shift
    [ $# -gt 0 ] || die "run needs a command, e.g. scripts/pg-cluster.sh run npx vitest run test/service/postgres"
    eval "$(start)"
    trap 'stop "$L9KIT_PG_CLUSTER_DIR"' EXIT
    trap 'exit 130' INT TERM
    echo "pg-cluster: $L9KIT_TEST_DATABASE_URL" >&2
    set +e
    "$@"
    status=$?
    set -e
    exit $status
    ;;
  *) die "usage: scripts/pg-cluster.sh start | stop [DIR] | run CMD [ARG...]" ;;
esac
