#!/usr/bin/env bash
# The export benchmark: `inkwell export --all --zip` of N generated multi-page notes (InkSamples
# handwriting, default 2,000 notes × 3 pages × 6 lines), as PDF and as PNG 2x, measured on the
# release binary under /usr/bin/time -v (wall time, CPU, peak RSS); the ZIP step's seconds come from
# the export's own --json (zipSeconds: staging each output, adding it, and writing the archive).
# Xournal++, when installed, converts the first K notes (the same strokes as .xopp) in the same run,
# one process per note, as a peer. Prints a Markdown table; docs/benchmarks.md records it.
#   scripts/export-bench.sh [--notes N] [--pages P] [--peer K] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
notes=2000 pages=3 peer=20 keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --notes) notes="$2"; shift 2 ;;
        --pages) pages="$2"; shift 2 ;;
        --peer) peer="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        *) echo "usage: $0 [--notes N] [--pages P] [--peer K] [--keep DIR]" >&2; exit 64 ;;
    esac
done
./scripts/swift-release.sh --product inkwell-bench >&2
./scripts/swift-release.sh --product inkwell >&2
inkwell=.build/release/inkwell
dir="${keep:-$(mktemp -d /tmp/inkwell-export-bench.XXXXXX)}"
mkdir -p "$dir"
if [ "$(cat "$dir/params" 2>/dev/null)" != "$notes $pages $peer" ]; then
    .build/release/inkwell-bench make-export-library "$dir" --notes "$notes" --pages "$pages" --xopp "$peer" >&2
    echo "$notes $pages $peer" > "$dir/params"
fi
"$inkwell" stats --library "$dir/library" >&2

export_run() {  # NAME ARGS…: one timed export into NAME.zip
    local name="$1"; shift
    rm -f "$dir/$name.zip"
    echo "load before $name: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    /usr/bin/time -v -o "$dir/$name.time" "$inkwell" export --library "$dir/library" --all --zip "$dir/$name.zip" --json "$@" > "$dir/$name.json"
    unzip -tq "$dir/$name.zip" >&2
}
export_run pdf --format pdf
export_run png2x --format png --scale 2

if command -v xournalpp >/dev/null; then
    mkdir -p "$dir/peer"
    start=$EPOCHREALTIME
    for xopp in "$dir"/xopp/*.xopp; do
        xournalpp --create-pdf="$dir/peer/$(basename "$xopp" .xopp).pdf" "$xopp" >/dev/null 2>&1
    done
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }' > "$dir/peer/pdf.seconds"
    start=$EPOCHREALTIME
    for xopp in "$dir"/xopp/*.xopp; do
        xournalpp --create-img="$dir/peer/$(basename "$xopp" .xopp).png" --export-png-dpi=144 "$xopp" >/dev/null 2>&1
    done
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }' > "$dir/peer/png.seconds"
else
    echo "xournalpp is not installed (apt-get install -y xournalpp): no peer column" >&2
fi

python3 - "$dir" "$notes" "$peer" <<'EOF'
import json, os, re, sys
folder, notes, peer = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def time_v(name):
    text = open(os.path.join(folder, name + ".time")).read()
    def field(label):
        return re.search(re.escape(label) + r": (.*)", text).group(1).strip()
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall)))
    return seconds, float(field("User time (seconds)")) + float(field("System time (seconds)")), int(field("Maximum resident set size (kbytes)")) / 1024
print("| export (%d notes, ZIP) | notes/s | wall s | CPU s | peak RSS MB | ZIP step s (share of wall) | archive MB | Xournal++ notes/s (first %d, one process each) |" % (notes, peer))
print("|---|---|---|---|---|---|---|---|")
for name, label, peer_file in [("pdf", "PDF", "pdf"), ("png2x", "PNG 2x", "png")]:
    wall, cpu, rss = time_v(name)
    report = json.load(open(os.path.join(folder, name + ".json")))
    zip_seconds = report["zipSeconds"]
    size = os.path.getsize(os.path.join(folder, name + ".zip")) / 1e6
    peer_path = os.path.join(folder, "peer", peer_file + ".seconds")
    peer_rate = "%.2f" % (peer / float(open(peer_path).read())) if os.path.exists(peer_path) else "–"
    failed = len(report["failed"])
    print("| %s%s | %.1f | %.1f | %.1f | %.0f | %.1f (%.0f %%) | %.0f | %s |" % (
        label, " (%d failed)" % failed if failed else "", notes / wall, wall, cpu, rss, zip_seconds, 100 * zip_seconds / wall, size, peer_rate))
EOF
echo "files kept in $dir" >&2
