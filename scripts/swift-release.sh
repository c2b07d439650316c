#!/usr/bin/env bash
# The one release build every Makefile target and benchmark script runs, so that they share
# .build/release (a build with other flags recompiles everything): optimised, the Swift runtime and
# Foundation linked statically (a command starts sooner: docs/benchmarks.md, cold start), and no debug
# information (-gnone). Installed binaries are stripped of it anyway; without it a clean build of the
# command took 463 s instead of 514 s on two cores here, and the unstripped binary was 106 MB instead
# of 155 MB. Symbols stay (perf and nm name functions; build-deb.sh reads the modules from them).
# On Linux the static Foundation's ICU data is replaced by its English part (scripts/icu-data.py:
# 34 MB → 5 MB of the binary), and the toolchain's lld links (a toolset that names it: the link
# alone changes) with two options gold lacks or the static stdlib turns off (docs/benchmarks.md,
# "Linking"): no symbol table for other libraries (the static stdlib's -export-dynamic put 35,000
# symbols in it, 3 MB, and the runtime's start-up dladdr walked them) and relative relocations
# packed (RELR: 2.9 MB of 24-byte entries become 24 kB). 51.8 → 45.5 MB stripped.
#   scripts/swift-release.sh [swift build options…]     e.g. --product inkwell, --show-bin-path
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
linux=()
if [ "$(uname -s)" = Linux ]; then
    read -ra linux < <(/usr/bin/python3 "$root/scripts/icu-data.py" "$root/.build/icu-data/icu-data.o")
    [ ${#linux[@]} -gt 0 ] || { echo "swift-release.sh: scripts/icu-data.py failed" >&2; exit 1; }
    lld=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/ld.lld
    [ -x "$lld" ] || { echo "swift-release.sh: no ld.lld beside ${SWIFT:-swift} ($lld): the Swift toolchain ships one" >&2; exit 1; }
    printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$root/.build/lld-toolset.json"
    linux+=(--toolset "$root/.build/lld-toolset.json"
            -Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs)
fi
exec "${SWIFT:-swift}" build -c release --static-swift-stdlib -Xswiftc -gnone "${linux[@]}" "$@"
