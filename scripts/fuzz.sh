#!/usr/bin/env bash
# Builds the libFuzzer targets of the importers and runs each, seeded with the shared corpus.
#
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET...]     targets: inkml remarkable xournal (default: all)
#
# The targets (Sources/FuzzInkML, FuzzRemarkable, FuzzXournal) are not in Package.swift: libFuzzer supplies
# main, so they only link with -sanitize=fuzzer. They are compiled here with swiftc, module by module, with
# AddressSanitizer. Crashes land in .build-fuzz/crashes/; keep each as a regression input under
# Tests/InkInterchangeTests/Fixtures/fuzz/ (named FORMAT-what.ext, where FORMAT is inkml, rm or xopp).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(inkml remarkable xournal)

build=.build-fuzz
mkdir -p "$build/obj" "$build/crashes"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -I "$build/obj" -I Sources/CZlib -I Sources/CZip)
module() { # module NAME DIR
    swiftc "${flags[@]}" -wmo -module-name "$1" -emit-module -emit-module-path "$build/obj/$1.swiftmodule" \
        -c "$2"/*.swift -o "$build/obj/$1.o"
}
echo "building the fuzz targets (swiftc, AddressSanitizer + libFuzzer)" >&2
module InkCore Sources/InkCore
module InkInterchange Sources/InkInterchange
declare -A names=([inkml]=FuzzInkML [remarkable]=FuzzRemarkable [xournal]=FuzzXournal)
for target in "${targets[@]}"; do
    name=${names[$target]}
    swiftc "${flags[@]}" -module-name "$name" Sources/$name/main.swift "$build/obj/InkCore.o" "$build/obj/InkInterchange.o" \
        -lz -lzip -o "$build/$name" 2> >(grep -v "warning: .*local symbol" >&2 || true)
done

corpus=${INKWELL_CORPUS:-../shared/corpus}
for target in "${targets[@]}"; do
    name=${names[$target]}
    seeds="$build/seeds-$target"
    work="$build/work-$target"
    mkdir -p "$seeds" "$work"
    if [ -d "$corpus" ]; then
        case $target in
            inkml) find "$corpus/inkml" -type f -exec cp {} "$seeds/" \; ;;
            remarkable) find "$corpus/rm" -name '*.rm' -exec cp {} "$seeds/" \; ;;
            xournal) i=0; find "$corpus/xopp" -type f -print0 | while IFS= read -r -d '' f; do
                         i=$((i + 1)); cp "$f" "$seeds/$i.xopp"
                         # Inflated copies too: mutations of the XML itself reach further than of gzip bytes.
                         if gzip -t "$f" 2>/dev/null; then gzip -dc "$f" > "$seeds/$i.xml"; fi
                     done ;;
        esac
    fi
    cp Tests/InkInterchangeTests/Fixtures/fuzz/* "$seeds/" 2>/dev/null || true
    echo "fuzzing $name for ${seconds}s" >&2
    ASAN_OPTIONS=detect_leaks=0 "$build/$name" "$work" "$seeds" -max_total_time="$seconds" -max_len=262144 \
        -rss_limit_mb=3072 -timeout=10 -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 2>&1 \
        | grep -E "^#[0-9]+ +(DONE|pulse)|stat::|ERROR|SUMMARY|Test unit written|INITED" || true
done
ls -la "$build/crashes" >&2
