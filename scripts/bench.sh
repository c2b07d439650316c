#!/usr/bin/env bash
# Release-build benchmarks; prints a Markdown table (figures are recorded in docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/swift-release.sh --product inkwell-bench
.build/release/inkwell-bench
