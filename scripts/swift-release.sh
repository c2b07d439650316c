#!/usr/bin/env bash
# The one release build every Makefile target and benchmark script runs, so that they share
# .build/release (a build with other flags recompiles everything): optimised, the Swift runtime and
# Foundation linked statically (a command starts sooner: docs/benchmarks.md, cold start), and no debug
# information (-gnone). Installed binaries are stripped of it anyway; without it a clean build of the
# command took 463 s instead of 514 s on two cores here, and the unstripped binary was 106 MB instead
# of 155 MB. Symbols stay (perf and nm name functions; build-deb.sh reads the modules from them).
# On Linux the static Foundation's ICU data is replaced by its English part (scripts/icu-data.py:
# 34 MB → 5 MB of the binary).
#   scripts/swift-release.sh [swift build options…]     e.g. --product inkwell, --show-bin-path
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
icu=()
if [ "$(uname -s)" = Linux ]; then
    read -ra icu < <(/usr/bin/python3 "$root/scripts/icu-data.py" "$root/.build/icu-data/icu-data.o")
    [ ${#icu[@]} -gt 0 ] || { echo "swift-release.sh: scripts/icu-data.py failed" >&2; exit 1; }
fi
exec "${SWIFT:-swift}" build -c release --static-swift-stdlib -Xswiftc -gnone "${icu[@]}" "$@"
