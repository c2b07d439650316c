#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each in turn, keeping what they learn between runs (docs/fuzzing.md).
#
#   scripts/fuzz.sh --minutes N [TARGET...]     N minutes each (default: all targets)
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET...]  the same in seconds (default 120)
#
#   targets: inkml remarkable xournal xournal-xml rnote replay page text search obsidian
#
# The targets (Sources/Fuzz*/main.swift) are not in Package.swift: libFuzzer supplies main, so they only
# link with -sanitize=fuzzer. They are compiled here with swiftc, module by module, with AddressSanitizer
# (or without, FUZZ_SANITIZER=none: see below),
# with `-D FUZZING` (limits that only bound work are lower: `RemarkableText.maxCharacters`), under
# `nice -n 19` (set FUZZ_NICE= to run at normal priority). Everything lives in .build-fuzz/
# (git-ignored): the seeds, copied afresh each run from the shared corpus ($INKWELL_CORPUS, default
# ../shared/corpus) and the repository; the working corpus of each target, kept between runs; the crashers.
# A crasher a run finds is also copied into its target's regression folder (below) as PREFIX-crash-HASH.ext,
# which a test decodes; rename it to say what it is once the decoder is fixed. The run ends with a table:
# target, executions, exec/s, crashes.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=120
if [ "${1:-}" = --minutes ]; then
    seconds=$(( ${2:?--minutes needs a number} * 60 ))
    shift 2
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
all=(inkml remarkable xournal xournal-xml rnote replay page text search obsidian)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

# Per target: the entry point, extra sources compiled into it, the modules it links, the libraries,
# the regression folder and file prefix, the longest input.
declare -A main=([inkml]=FuzzInkML [remarkable]=FuzzRemarkable [xournal]=FuzzXournal [xournal-xml]=FuzzXournalXML [rnote]=FuzzRnote
                 [replay]=FuzzReplay [page]=FuzzPage [text]=FuzzText [search]=FuzzSearch [obsidian]=FuzzObsidian)
recording="Sources/FuzzSupport/RecordingChecks.swift"
declare -A extra=([inkml]=$recording [remarkable]=$recording [xournal]=$recording [xournal-xml]=$recording [rnote]=$recording
                  [replay]=$recording [search]=Sources/InkIndex/SearchTerms.swift)
declare -A uses=([inkml]="InkCore InkInterchange" [remarkable]="InkCore InkInterchange" [xournal]="InkCore InkInterchange"
                 [xournal-xml]="InkCore InkInterchange" [rnote]="InkCore InkInterchange" [replay]="InkCore InkInterchange" [page]="InkCore InkText InkStore"
                 [text]="InkCore InkText" [search]="InkCore" [obsidian]="InkExport InkObsidian")
declare -A libs=([inkml]="-lz -lzip" [remarkable]="-lz -lzip" [xournal]="-lz -lzip" [xournal-xml]="-lz -lzip" [rnote]="-lz -lzip"
                 [replay]="-lz -lzip" [page]="-lz" [text]="" [search]="" [obsidian]="-lzip")
interchange=Tests/InkInterchangeTests/Fixtures/fuzz
declare -A fixtures=([inkml]=$interchange:inkml [remarkable]=$interchange:rm [xournal]=$interchange:xopp
                     [xournal-xml]=$interchange:xopp [rnote]=$interchange:rnote [replay]=$interchange:replay
                     [page]=Tests/InkStoreTests/Fixtures/fuzz:page [text]=Tests/InkTextTests/Fixtures/fuzz:text
                     [search]=Tests/InkIndexTests/Fixtures/fuzz:search [obsidian]=Tests/InkObsidianTests/Fixtures/fuzz:obsidian)
declare -A maxlen=([text]=4096 [search]=4096 [obsidian]=4096 [replay]=16384 [rnote]=16384)
for target in "${targets[@]}"; do
    [ -n "${main[$target]:-}" ] || { echo "unknown target $target (known: ${all[*]})" >&2; exit 2; }
done

build=.build-fuzz
nice=${FUZZ_NICE-nice -n 19}
# No leak check (Swift's runtime keeps caches); no allocation stack traces and a small quarantine: the
# targets allocate on every input, and these made them 1.3-1.5x faster (an overflow is still caught, and
# a crasher is kept to be replayed with full reports).
asan=${FUZZ_ASAN_OPTIONS-detect_leaks=0:malloc_context_size=0:quarantine_size_mb=16}
# FUZZ_SANITIZER=none builds without AddressSanitizer, into .build-fuzz/plain/: two to three times the inputs
# a second, Swift's own checks (bounds, overflow, unwrapping) still trapping; same corpora and crash folder.
case ${FUZZ_SANITIZER:-address} in
    address) sanitize=fuzzer,address bin=$build ;;
    none) sanitize=fuzzer bin=$build/plain ;;
    *) echo "FUZZ_SANITIZER is address or none" >&2; exit 2 ;;
esac
obj=$bin/obj
mkdir -p "$obj" "$build/crashes"
flags=(-O -g -D FUZZING -parse-as-library -package-name Inkwell -sanitize=$sanitize -I "$obj" -I Sources/CZlib -I Sources/CZip)
declare -A built=()
module() { # module NAME FILE... : compiled once per run, only when a target needs it
    [ -n "${built[$1]:-}" ] && return
    built[$1]=1
    local name=$1
    shift
    $nice swiftc "${flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$obj/$name.swiftmodule" \
        -c "$@" -o "$obj/$name.o"
}
need() { # the modules of `uses`, in dependency order
    case $1 in
        InkExport) module InkExport Sources/InkExport/ZipWriter.swift ;;  # ExportError only: the rest needs GRDB
        InkObsidian) module InkObsidian Sources/InkObsidian/ObsidianVault.swift Sources/InkObsidian/MomentDateFormat.swift ;;
        *) module "$1" Sources/"$1"/*.swift ;;
    esac
}
echo "building the fuzz targets (swiftc, libFuzzer, sanitizer: ${FUZZ_SANITIZER:-address})" >&2
for target in "${targets[@]}"; do
    objects=()
    for m in ${uses[$target]}; do need "$m"; objects+=("$obj/$m.o"); done
    name=${main[$target]}
    # shellcheck disable=SC2086
    $nice swiftc "${flags[@]}" -module-name "$name" Sources/$name/main.swift ${extra[$target]:-} "${objects[@]}" \
        ${libs[$target]} -o "$bin/$name" 2> >(grep -v "warning: .*local symbol" >&2 || true)
done

corpus=${INKWELL_CORPUS:-../shared/corpus}
seed() { # seed TARGET DIR: the starting inputs, copied afresh
    local target=$1 seeds=$2 i=0
    case $target in
        inkml) [ -d "$corpus" ] && find "$corpus/inkml" -type f -exec cp {} "$seeds/" \; ;;
        remarkable) [ -d "$corpus" ] && find "$corpus/rm" -name '*.rm' -exec cp {} "$seeds/" \;
                    # The v5 pages (software before 3.0), and a small page in each of v3 and v5 (two lines, the
                    # second an area eraser; v3 lacks the u32 after each line's base size): the v3/v5 reader.
                    if [ -d "$corpus/rm-v5" ]; then find "$corpus/rm-v5" -name '*.rm' -exec cp {} "$seeds/" \; ; fi
                    for v in 3 5; do
                        unknown=''
                        if [ $v = 5 ]; then unknown='\x00\x00\x00\x00'; fi
                        point='\x00\x00\xc8\x42\x00\x00\x48\x43\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x3f'
                        printf "reMarkable .lines file, version=$v          \x01\x00\x00\x00\x02\x00\x00\x00"\
"\x04\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40$unknown\x02\x00\x00\x00$point$point"\
"\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40$unknown\x01\x00\x00\x00$point" > "$seeds/small-v$v.rm"
                    done ;;
        xournal|xournal-xml)
            [ -d "$corpus" ] && find "$corpus/xopp" -type f -print0 | while IFS= read -r -d '' f; do
                i=$((i + 1))
                [ "$target" = xournal ] && cp "$f" "$seeds/$i.xopp"
                # Inflated copies: mutations of the XML itself reach further than of gzip bytes.
                if gzip -t "$f" 2>/dev/null; then gzip -dc "$f" > "$seeds/$i.xml"; fi
            done ;;
        rnote) # Small documents in each of Rnote's three path layouts (the corpus's are megabytes of JSON).
               printf '{"version":"0.15.0","data":{"engine_snapshot":{"document":{"config":{"format":{"width":793.7,"height":1122.5},"background":{"color":{"r":0,"g":0,"b":0,"a":1},"pattern":"grid","pattern_size":[32,32]}}},"stroke_components":[{"value":null},{"value":{"brushstroke":{"path":{"start":{"pos":[10,10],"pressure":0.2},"segments":[{"lineto":{"end":{"pos":[20,12],"pressure":0.4}}},{"cubbezto":{"cp1":[25,5],"cp2":[30,5],"end":{"pos":[35,12],"pressure":0.8}}},{"quadbezto":{"cp":[40,20],"end":{"pos":[45,12],"pressure":0.5}}}]},"style":{"smooth":{"stroke_width":2.5,"stroke_color":{"r":0.1,"g":0.2,"b":0.9,"a":1}}}}}},{"value":{"textstroke":{"text":"Title #work","transform":{"affine":[1,0,0,0,1,0,40,30,1]}}}},{"value":{"shapestroke":{}}}]}}}' > "$seeds/current.json"
               printf '{"version":"0.6.0","data":{"engine_snapshot":{"document":{"format":{"width":500,"height":700}},"stroke_components":[{"value":{"brushstroke":{"path":{"segments":[{"lineto":{"end":{"pos":[1,2],"pressure":0.3}}},{"lineto":{"end":{"pos":[3,4],"pressure":0.6}}}]},"style":{"textured":{"stroke_width":3,"color":{"r":1,"g":0,"b":0,"a":0.5}}}}}}]}}}' > "$seeds/middle.json"
               printf '{"version":"0.5.5","data":{"document":{},"store_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":[{"dot":{"element":{"pos":[-5,-5],"pressure":0.1}}},{"line":{"start":{"pos":[-5,-5],"pressure":0.1},"end":{"pos":[9,9],"pressure":0.9}}},{"cubbez":{"start":{"pos":[9,9],"pressure":0.9},"cp1":[10,0],"cp2":[12,0],"end":{"pos":[14,9],"pressure":0.2}}}],"style":{"rough":{"stroke_width":1}}}}}]}}}' > "$seeds/old.json" ;;
        replay) cp Samples/*.jsonl "$seeds/" ;;
        page) INKWELL_FUZZ_PAGE_SEEDS=$seeds ASAN_OPTIONS=detect_leaks=0 "$bin/FuzzPage" -runs=0 >/dev/null 2>&1 ;;
        text) cp README.md docs/*.md "$seeds/"
              printf -- '- [ ] call Sam #work\n- [x] done\r\n  1. one\n```\ncode #no\n```\nTitle\n===\n---\n> [!] quote\n' > "$seeds/tasks.md" ;;
        search) printf 'budget meeting\n#work\nWork/Projects\n' > "$seeds/1"; printf 'Café naïve STRASSE straße 2026\n' > "$seeds/2"
                printf '"quoted" OR -not tag:x*\nproject/alpha\n' > "$seeds/3" ;;
        obsidian) printf '{"folder":"Daily","format":"YYYY/MM/YYYY-MM-DD dddd"}\0{"attachmentFolderPath":"./attachments"}' > "$seeds/1"
                  printf '{"format":"[Journal] Do MMMM YYYY, [week] WW gggg Qo"}' > "$seeds/2"
                  printf '{"folder":"/","format":""}\0{"attachmentFolderPath":"/"}' > "$seeds/3" ;;
    esac
    local folder=${fixtures[$target]%%:*}
    [ -d "$folder" ] && find "$folder" -maxdepth 1 -type f -name "${fixtures[$target]##*:}-*" -exec cp {} "$seeds/" \;
    return 0
}

# A target's artifacts as libFuzzer names them (not another target's that starts alike: xournal, xournal-xml).
artifacts() { find "$build/crashes" -regextype posix-extended -regex ".*/$1-(crash|oom|timeout|leak|slow-unit)-[0-9a-f]+" | sort; }

declare -A execs=() rates=() crashes=()
for target in "${targets[@]}"; do
    name=${main[$target]}
    seeds="$build/seeds-$target"
    work="$build/work-$target"
    rm -rf "$seeds"
    mkdir -p "$seeds" "$work"
    seed "$target" "$seeds"
    dict=()
    [ -f "scripts/fuzz-dicts/$target.dict" ] && dict=(-dict="scripts/fuzz-dicts/$target.dict")
    echo "fuzzing $name for ${seconds}s" >&2
    # A crash stops libFuzzer: it starts again (with the corpus it has grown) for the time that is left.
    start=$SECONDS total=0 found=0 runs=0
    while :; do
        left=$(( seconds - (SECONDS - start) ))
        [ "$left" -gt 0 ] && [ "$runs" -lt 8 ] || break
        before=$(artifacts "$target")
        log="$build/$target.log"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$asan $nice "$bin/$name" "$work" "$seeds" "${dict[@]}" -max_total_time="$left" \
            -max_len="${maxlen[$target]:-262144}" -rss_limit_mb=3072 -timeout=10 -artifact_prefix="$build/crashes/$target-" \
            -print_final_stats=1 > "$log" 2>&1 || true
        grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|SUMMARY|Test unit written|INITED|Fatal error" "$log" >&2 || true
        runs=$((runs + 1))
        total=$(( total + $(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 | grep . || echo 0) ))
        new=$(comm -13 <(echo "$before") <(artifacts "$target") | grep . || true)
        [ -z "$new" ] && break
        for crasher in $new; do
            found=$((found + 1))
            folder=${fixtures[$target]%%:*} prefix=${fixtures[$target]##*:}
            mkdir -p "$folder"
            ext=$(case $target in inkml) echo xml ;; remarkable) echo rm ;; xournal) echo xopp ;; xournal-xml) echo xml ;; rnote) echo json ;;
                  replay) echo jsonl ;; page) echo inkpage ;; text) echo md ;; *) echo txt ;; esac)
            kind=$(basename "$crasher" | sed "s/^$target-//; s/-.*//")
            cp "$crasher" "$folder/$prefix-$kind-$(sha1sum "$crasher" | cut -c1-8).$ext"
            echo "new crasher $crasher, kept as $folder/$prefix-$kind-…" >&2
        done
    done
    execs[$target]=$total
    # Over the time the target ran (a run stopped early with Ctrl-C or `pkill -INT` is shorter than asked).
    elapsed=$(( SECONDS - start ))
    rates[$target]=$(( elapsed > 0 ? total / elapsed : total ))
    crashes[$target]=$found
done

echo
echo "fuzz.sh: $(date -u +%Y-%m-%d), ${seconds}s per target, sanitizer: ${FUZZ_SANITIZER:-address}"
printf '| %-12s | %12s | %7s | %7s |\n' target executions exec/s crashes
printf '|%s|%s|%s|%s|\n' -------------- -------------- --------- ---------
for target in "${targets[@]}"; do
    printf '| %-12s | %12s | %7s | %7s |\n' "$target" "${execs[$target]}" "${rates[$target]}" "${crashes[$target]}"
done
