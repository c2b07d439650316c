#!/usr/bin/env bash
# Release-build benchmarks; prints a Markdown table (figures are recorded in docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product inkwell-bench
.build/release/inkwell-bench
