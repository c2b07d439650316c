#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests and benchmarks (Debian's postgresql, installed by
# scripts/install-deps.sh): a new cluster in a temporary folder, on a free port of 127.0.0.1 only,
# trusting local logins, without fsync (its data is thrown away).
#
#   scripts/pg-test-server.sh start      starts one; prints its folder, then its URL (postgres://inkwell@127.0.0.1:PORT/inkwell)
#   scripts/pg-test-server.sh stop DIR   stops the one in DIR and removes DIR
#   scripts/pg-test-server.sh down DIR   stops it as an administrator would (pg_ctl stop -m fast), keeping DIR
#   scripts/pg-test-server.sh up DIR     starts it again, on the same port
#
# The server's output goes to files in the folder, never to this script's output: a caller reading
# that until it closes would otherwise wait for the server to stop.
#
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user the package
# creates, and the folder is made under /tmp (a folder under root's own temporary folder may not be
# reachable by that user).
set -euo pipefail

bin=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bin/initdb" ] || bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL's initdb was not found: run scripts/install-deps.sh (Debian package postgresql)" >&2; exit 2; }
as=()
[ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)

# Starts the cluster in $1 on port $2.
start_server() {
    "${as[@]}" "$bin/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 30 \
        -o "-p $2 -k $1 -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start </dev/null >>"$1/pg_ctl.log" 2>&1
}

case "${1:-}" in
start)
    # Descriptors a caller left open (Foundation's Pipe on Linux is not close-on-exec) would be
    # inherited by the server and keep the caller's pipe open for as long as it runs.
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
    done
    if [ "$(id -u)" -eq 0 ]; then
        dir=$(mktemp -d /tmp/inkwell-pg.XXXXXX)
        chown postgres "$dir"
    else
        dir=$(mktemp -d "${TMPDIR:-/tmp}/inkwell-pg.XXXXXX")
    fi
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U inkwell --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: bind to port 0 and see what the kernel gave; retried if another process takes it first.
    for attempt in 1 2 3 4 5; do
        port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        if start_server "$dir" "$port"; then
            echo "$port" >"$dir/port"
            break
        fi
        [ "$attempt" -eq 5 ] && { cat "$dir/server.log" >&2; exit 1; }
    done
    "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U inkwell inkwell
    echo "$dir"
    echo "postgres://inkwell@127.0.0.1:$port/inkwell?sslmode=disable"
    ;;
stop)
    dir=${2:?stop needs the folder start printed}
    [ -f "$dir/data/PG_VERSION" ] || { echo "$dir is not a test server's folder" >&2; exit 2; }
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
down)
    dir=${2:?down needs the folder start printed}
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >>"$dir/pg_ctl.log" 2>&1
    ;;
up)
    dir=${2:?up needs the folder start printed}
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
    done
    start_server "$dir" "$(cat "$dir/port")" || { cat "$dir/server.log" >&2; exit 1; }
    ;;
*)
    echo "usage: $0 start | stop DIR | down DIR | up DIR" >&2
    exit 2
    ;;
esac
