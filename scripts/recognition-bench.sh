#!/usr/bin/env bash
# Release-build benchmark of handwriting recognition (InkRecognize) against the `tesseract` CLI.
#
#   scripts/recognition-bench.sh                 accuracy, speed and the real pages
#   scripts/recognition-bench.sh accuracy --pages 20
#   scripts/recognition-bench.sh sweep --pages 16        every measured choice (SWEEP=name,… to pick)
#   scripts/recognition-bench.sh speed --pages 20
#   scripts/recognition-bench.sh real [--quality best|fast] [--verbose]   the real pages (scripts/real-bench.sh)
#   scripts/recognition-bench.sh show script mild 3      recognised text next to the truth (--dump DIR: line images)
#   scripts/recognition-bench.sh tags script strong      every hashtag missed or invented
#   scripts/recognition-bench.sh calibrate --pages 12    how every hashtag word was decided
#
# OMP_THREAD_LIMIT=1 for the tesseract CLI baseline too (Inkwell's loader sets it for itself when unset).
# SCRATCH=path builds in another scratch folder (e.g. .build-recog) instead of .build.
set -euo pipefail
cd "$(dirname "$0")/.."

export OMP_THREAD_LIMIT=1
if [ -z "${TESSDATA_PREFIX:-}" ] && [ -f /usr/share/tesseract-ocr/5/tessdata/eng.traineddata ]; then
    export TESSDATA_PREFIX=/usr/share/tesseract-ocr/5/tessdata
fi
command -v tesseract >/dev/null || { echo "the tesseract command is missing (apt-get install tesseract-ocr)" >&2; exit 1; }

scratch=()
[ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
./scripts/swift-release.sh -j "${JOBS:-1}" "${scratch[@]}" --product recognition-bench >&2
bin="$(./scripts/swift-release.sh "${scratch[@]}" --show-bin-path)/recognition-bench"

if [ $# -eq 0 ]; then
    "$bin" accuracy --pages 20
    echo
    "$bin" speed --pages 20
    echo
    "$bin" real
else
    "$bin" "$@"
fi
