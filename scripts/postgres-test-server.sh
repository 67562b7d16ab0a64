#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite, from Debian's `postgresql` package:
#   scripts/postgres-test-server.sh start DIR   initdb + pg_ctl start in DIR on a free loopback port;
#                                               prints the URL for TIMETRACK_TEST_DATABASE_URL
#   scripts/postgres-test-server.sh stop DIR    stops it (DIR can then be removed)
# `start` on a DIR that holds a stopped cluster starts it again on the same port.
# initdb refuses to run as root: as root the server runs as the `postgres` user the package creates.
# Durability is off (fsync, synchronous_commit): the data lives only as long as the test run.
set -euo pipefail
action=${1:?start or stop}
dir=${2:?a folder for the cluster}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "postgres-test-server: no PostgreSQL server programs (apt-get install -y postgresql)" >&2
  exit 3
fi
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
case "$action" in
  start)
    password=timetrack-test-password
    if [ ! -d "$dir/data" ]; then
      mkdir -p "$dir"
      if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
      printf '%s\n' "$password" > "$dir/pwfile"
      if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/pwfile"; fi
      "${as[@]}" "$bindir/initdb" --pgdata="$dir/data" --username=timetrack --pwfile="$dir/pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
      node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})' > "$dir/port"
    fi
    port=$(cat "$dir/port")
    "${as[@]}" "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
      start >/dev/null
    echo "postgres://timetrack:$password@127.0.0.1:$port/postgres"
    ;;
  stop)
    "${as[@]}" "$bindir/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    ;;
  *)
    echo "postgres-test-server: start or stop" >&2
    exit 2
    ;;
esac
