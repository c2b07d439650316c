#!/usr/bin/env bash
# The rendering benchmark: Inkwell against Xournal++ 1.1.3 and raw Cairo on the dense page set
# (10 A4 pages × 1,500 strokes × 40 points). Prints a Markdown table; docs/rendering.md records it.
# Needs the Debian package xournalpp for the Xournal++ columns (apt-get install -y xournalpp).
#   scripts/render-bench.sh [--runs N] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v xournalpp >/dev/null || echo "xournalpp is not installed (apt-get install -y xournalpp): its columns stay empty" >&2
./scripts/swift-release.sh --product inkwell-bench
./scripts/swift-release.sh --product inkwell
.build/release/inkwell-bench render --inkwell .build/release/inkwell "$@"
