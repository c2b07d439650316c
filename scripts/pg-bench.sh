#!/usr/bin/env bash
# The PostgreSQL benchmarks of docs/benchmarks.md ("The index on PostgreSQL"), on a throwaway server
# (scripts/pg-test-server.sh), release build:
#   1. the OCR indexing job with 1, 2 and 4 `inkwell index --worker` processes (--jobs 1 each) on one
#      database, against `inkwell index --jobs N` on the SQLite index, same generated library;
#   2. the job's own cost per page without recognition, SQLite against the PostgreSQL queue;
#   3. search latency on the same 100,000 pages on both backends.
#   scripts/pg-bench.sh [PAGES_FOR_WORKERS] [PAGES_FOR_SEARCH]     (defaults 200 and 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
worker_pages=${1:-200}
search_pages=${2:-100000}

./scripts/swift-release.sh --product inkwell >&2
./scripts/swift-release.sh --product inkwell-bench >&2
inkwell=$PWD/.build/release/inkwell

server=$(scripts/pg-test-server.sh start)
folder=$(echo "$server" | head -1)
base=$(echo "$server" | tail -1)
scratch=$(mktemp -d)
trap 'scripts/pg-test-server.sh stop "$folder"; rm -rf "$scratch"' EXIT
row() { # row LABEL PAGES SECONDS_START SECONDS_END: one table row with the rate
    /usr/bin/python3 -c 'import sys; l, p, a, b = sys.argv[1:]; s = float(b) - float(a); print(f"| {l} | {p} | {s:.1f} | {int(p.split()[0]) / s:.2f} |")' "$@"
}
database() { # database NAME: a new empty database's URL
    psql -q "$base" -c "CREATE DATABASE $1"
    echo "$base" | sed "s#/inkwell?#/$1?#"
}

export INKWELL_LIBRARY=$scratch/library
"$inkwell" init >/dev/null
notes=$(( worker_pages / 4 ))
"$inkwell" sample -o "$scratch/samples" --notes "$notes" --pages 4 --sentences 3 --seed 500 >/dev/null
"$inkwell" import --no-recognize "$scratch"/samples/*.jsonl >/dev/null
pages=$("$inkwell" stats --json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["library"]["pages"])')

echo "| run | pages | seconds | pages/s |"
echo "|---|---:|---:|---:|"
for jobs in 1 2; do
    start=$(date +%s.%N)
    "$inkwell" index --rebuild --jobs "$jobs" >/dev/null
    end=$(date +%s.%N)
    row "SQLite, \`inkwell index --jobs $jobs\`" "$pages" "$start" "$end"
done
for workers in 1 2 4; do
    url=$(database "workers_$workers")
    "$inkwell" index --index "$url" --status >/dev/null   # the schema, before the clock starts
    start=$(date +%s.%N)
    pids=()
    for _ in $(seq "$workers"); do "$inkwell" index --worker --index "$url" --jobs 1 >/dev/null & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    end=$(date +%s.%N)
    done_pages=$(psql -tA "$url" -c "SELECT count(*) FROM page WHERE status = 'recognised'")
    once=$(psql -tA "$url" -c "SELECT count(*) FROM page WHERE recognitions = 1")
    row "PostgreSQL, $workers × \`inkwell index --worker --jobs 1\`" "$done_pages (recognised once: $once)" "$start" "$end"
done
echo

INKWELL_BENCH_POSTGRES_URL=$(database queue) .build/release/inkwell-bench pg-queue 2>/dev/null | sed -n '3,$p'
INKWELL_BENCH_SEARCH_PAGES=$search_pages .build/release/inkwell-bench search 2>/dev/null | sed -n '3,$p'
INKWELL_BENCH_SEARCH_PAGES=$search_pages INKWELL_BENCH_POSTGRES_URL=$(database search) .build/release/inkwell-bench pg-search 2>/dev/null | sed -n '3,$p'
