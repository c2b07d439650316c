#!/usr/bin/env bash
# Renders every real file of the shared corpus (../shared/corpus beside the repository, or
# INKWELL_CORPUS) to PNG with one inkwell binary, so that two builds can be compared page by page:
#
#   scripts/corpus-renders.sh INKWELL OUTDIR           render: OUTDIR/<path with / as __>.png (-p02… for further pages)
#   scripts/corpus-renders.sh compare BEFORE AFTER     list the pages that differ, with how many pixels and where
#
# Files: .rm (v3, v5, v6), .xopp/.xoj, .rnote, .inkml and the InkML written as .xml. A file that does not
# render is listed in OUTDIR/failures.txt with the error, and the others go on. The comparison decodes the
# PNGs itself (python3, no imaging library): a page only one side has is listed as such.
set -euo pipefail

usage() { sed -n '2,10p' "$0" >&2; exit 64; }

if [[ $# -eq 3 && $1 == compare ]]; then
    exec python3 - "$2" "$3" <<'PY'
import os, sys, zlib, struct

def pixels(path):
    """The PNG's size and its rows as RGBA tuples (8-bit grey, grey+alpha, RGB or RGBA, not interlaced)."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and interlace == 0, f'{path}: {depth}-bit or interlaced'
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    def rgba(row, x):
        v = row[x * channels:(x + 1) * channels]
        if channels == 1: return (v[0],) * 3 + (255,)
        if channels == 2: return (v[0],) * 3 + (v[1],)
        return tuple(v) + (255,) if channels == 3 else tuple(v)
    return width, height, [[rgba(row, x) for x in range(width)] for row in rows]

before, after = sys.argv[1], sys.argv[2]
names = sorted(n for n in set(os.listdir(before)) | set(os.listdir(after)) if n.endswith('.png'))
same = 0
for name in names:
    if not os.path.exists(os.path.join(before, name)) or not os.path.exists(os.path.join(after, name)):
        print(f'{name}: only {"after" if os.path.exists(os.path.join(after, name)) else "before"}')
        continue
    if open(os.path.join(before, name), 'rb').read() == open(os.path.join(after, name), 'rb').read():
        same += 1
        continue
    w1, h1, p1 = pixels(os.path.join(before, name))
    w2, h2, p2 = pixels(os.path.join(after, name))
    if (w1, h1) != (w2, h2):
        print(f'{name}: size {w1}x{h1} -> {w2}x{h2}')
        continue
    changed = [(x, y) for y in range(h1) for x in range(w1) if p1[y][x] != p2[y][x]]
    if not changed:
        same += 1
        continue
    xs, ys = [x for x, _ in changed], [y for _, y in changed]
    print(f'{name}: {len(changed)} pixels differ, within x {min(xs)}-{max(xs)}, y {min(ys)}-{max(ys)}')
print(f'{same} of {len(names)} pages the same')
PY
fi
[[ $# -eq 2 ]] || usage
inkwell=$1
out=$2
corpus=${INKWELL_CORPUS:-$(cd "$(dirname "$0")/.." && pwd)/../shared/corpus}
[[ -d $corpus ]] || { echo "corpus-renders: no corpus at $corpus (set INKWELL_CORPUS)" >&2; exit 1; }
[[ -x $inkwell ]] || { echo "corpus-renders: $inkwell is not an executable" >&2; exit 1; }
mkdir -p "$out"
: >"$out/failures.txt"
count=0
while IFS= read -r -d '' file; do
    relative=${file#"$corpus"/}
    name=${relative//\//__}
    if ! error=$("$inkwell" render "$file" -o "$out/${name%.*}.png" 2>&1 >/dev/null); then
        printf '%s: %s\n' "$relative" "$error" >>"$out/failures.txt"
    fi
    count=$((count + 1))
done < <(find "$corpus" -type f \( -name '*.rm' -o -name '*.xopp' -o -name '*.xoj' -o -name '*.rnote' -o -name '*.inkml' -o -name '*.xml' \) -print0 | sort -z)
echo "corpus-renders: $count files rendered into $out ($(grep -c . "$out/failures.txt" || true) failed: $out/failures.txt)"
