#!/usr/bin/env bash
# The web notebook under load (release build): 20 editors, each on its own note, writing 200 points a
# second for 60 s over WebSockets on loopback, with and without recognition after autosaves (every
# point sent is checked to be in the page files); then dense pages: one writer sending 40-point
# strokes on a page already holding 10, 300, 1,500 and 5,000 strokes, pen up → durable confirmation
# p50/p99 and the bytes the server sends a stroke; then how long the library answers and the browser
# shows it with 1,000 notes. Figures: docs/benchmarks.md.
#   scripts/serve-bench.sh [EDITORS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
editors=${1:-20}
seconds=${2:-60}
./scripts/swift-release.sh -j 2 >/dev/null
inkwell=$PWD/.build/release/inkwell
work=$(mktemp -d /tmp/inkwell-serve-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export TESSDATA_PREFIX=${TESSDATA_PREFIX:-/usr/share/tesseract-ocr/5/tessdata} OMP_THREAD_LIMIT=1

for mode in --no-recognize ""; do
    rm -rf "$work/load"
    "$inkwell" init --library "$work/load" >/dev/null
    python3 scripts/serve_load.py "$inkwell" "$work/load" --editors "$editors" --seconds "$seconds" $mode
done

# Dense pages: what a stroke costs must not grow with the page (the server sends that stroke's ink).
/usr/bin/python3 scripts/serve-durable-latency.py "$inkwell" --strokes 10 300 1500 5000 --writes 100 --pause 0.2

# 1,000 notes of one generated page each: /api/library's answer, and the library view in Chromium
# until every card is on the page (thumbnails load lazily as they scroll in).
"$inkwell" init --library "$work/big" >/dev/null
"$inkwell" sample --notes 1000 --pages 1 --seed 7 -o "$work/samples" >/dev/null 2>&1
"$inkwell" import "$work/samples" --library "$work/big" --no-recognize >/dev/null 2>&1
/usr/bin/python3 scripts/serve_library_bench.py "$inkwell" "$work/big"
