#!/usr/bin/env bash
# Writes the benchmark's dense page set into DIR: dense.xopp (Xournal++, per-segment widths =
# width × pressure) and library/, an Inkwell library holding the same strokes as the note "Dense pages".
#   scripts/make-dense-pages.sh DIR
#   inkwell render --library DIR/library "Dense pages" -o dense.pdf
#   xournalpp --create-pdf=xopp.pdf DIR/dense.xopp
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 64; }
cd "$(dirname "$0")/.."
./scripts/swift-release.sh --product inkwell-bench >&2
.build/release/inkwell-bench make-dense-pages "$1"
