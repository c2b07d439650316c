#!/usr/bin/env bash
# Import time of a reMarkable document by the number of pages its .content lists (issue 40 item 4):
# a generated notebook of N pages (`cPages`, fractional-index order), one page in ten with the
# corpus's first .rm page (the rest blank, as a tablet leaves pages without handwriting), imported
# with `inkwell import --no-recognize` into a fresh library. Prints "pages seconds" per size.
#
# Usage: scripts/content-bench.sh INKWELL [PAGES...]        (default sizes: 500 1000 2000)
set -euo pipefail
inkwell=$(realpath "$1"); shift
[ $# -gt 0 ] && sizes=("$@") || sizes=(500 1000 2000)
here=$(cd "$(dirname "$0")/.." && pwd)
page=$(find "$here/../shared/corpus/rm" -name '*.rm' 2>/dev/null | sort | head -n 1 || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "${sizes[@]}"; do
    doc="$work/doc-$n"
    mkdir -p "$doc/11111111-2222-3333-4444-555555555555"
    python3 - "$n" "$doc" "$page" <<'PY'
import json, os, shutil, sys
n, doc, page = int(sys.argv[1]), sys.argv[2], sys.argv[3]
uuid = "11111111-2222-3333-4444-555555555555"
ids = ["%08d-0000-4000-8000-000000000000" % i for i in range(n)]
# Fractional indices in order: two letters from "ba" on, as the tablet writes them.
def idx(i):
    return chr(ord("b") + i // 26 // 26) + chr(ord("a") + i // 26 % 26) + chr(ord("a") + i % 26)
content = {"fileType": "notebook", "formatVersion": 2,
           "cPages": {"pages": [{"id": p, "idx": {"timestamp": "1:2", "value": idx(i)}, "template": {"value": "Blank"}}
                                for i, p in enumerate(ids)]}}
json.dump(content, open(os.path.join(doc, uuid + ".content"), "w"))
json.dump({"visibleName": "Big %d" % n, "type": "DocumentType", "parent": "", "lastModified": "1700000000000"},
          open(os.path.join(doc, uuid + ".metadata"), "w"))
if page:
    for p in ids[::10]:
        shutil.copyfile(page, os.path.join(doc, uuid, p + ".rm"))
PY
    rm -rf "$work/library"
    INKWELL_LIBRARY="$work/library" "$inkwell" init >/dev/null
    start=$(date +%s.%N)
    INKWELL_LIBRARY="$work/library" "$inkwell" import "$doc/11111111-2222-3333-4444-555555555555.content" --no-recognize >/dev/null
    end=$(date +%s.%N)
    printf '%s %.2f\n' "$n" "$(echo "$end - $start" | bc)"
done
