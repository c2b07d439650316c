#!/usr/bin/env bash
# Converting a file without a library, one process a file, against a peer in the same run, on the
# real files of the corpus; and the same files in one `inkwell export … --zip` process, as a batch
# runs. Prints the median per file and the ratios. Needs `make release` and the peer
# (scripts/install-deps.sh puts rmc in .build/peers and installs xournalpp).
#   --peer rmc (the default)   every .rm page: `inkwell render FILE -o out.svg` against
#                              `rmc -t svg -o out.svg FILE`
#   --peer xournalpp           every .xopp/.xoj file: `inkwell render FILE -o out.pdf` against
#                              `xournalpp --create-pdf=out.pdf FILE`, and PNG at 2x (`--scale 2`)
#                              against `xournalpp --create-img=out.png --export-png-dpi=144 FILE`
#   --inkwell PATH             the binary to measure (default .build/release/inkwell)
#
#   scripts/convert-bench.sh [--peer rmc|xournalpp] [--runs 7] [--corpus DIR] [--inkwell PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7
peer=rmc
inkwell=.build/release/inkwell
corpus="${INKWELL_CORPUS:-$(cd .. && pwd)/shared/corpus}"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --peer) peer="$2"; shift 2 ;;
    --inkwell) inkwell="$2"; shift 2 ;;
    *) echo "usage: $0 [--peer rmc|xournalpp] [--runs N] [--corpus DIR] [--inkwell PATH]" >&2; exit 2 ;;
  esac
done
case "$peer" in
  rmc) peer_command=$(command -v rmc || echo .build/peers/bin/rmc) ;;
  xournalpp) peer_command=$(command -v xournalpp || echo xournalpp) ;;
  *) echo "$0: --peer is rmc or xournalpp" >&2; exit 2 ;;
esac
[ -x "$inkwell" ] || { echo "$inkwell: missing (make release)" >&2; exit 1; }
[ -x "$peer_command" ] || { echo "$peer: missing (scripts/install-deps.sh)" >&2; exit 1; }
[ -d "$corpus" ] || { echo "$corpus: missing (--corpus DIR)" >&2; exit 1; }
python3 - "$inkwell" "$peer" "$peer_command" "$runs" "$corpus" <<'PY'
import glob, os, statistics, subprocess, sys, tempfile, time
inkwell, peer, peer_command, runs, corpus = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
out = tempfile.mkdtemp()
env = dict(os.environ, INKWELL_LIBRARY=os.path.join(out, "no-library"))
# Per peer: the files, and per output (name, inkwell's command, the peer's command, export's options).
if peer == "rmc":
    files = sorted(glob.glob(os.path.join(corpus, "rm", "*", "*.rm")))
    outputs = [("SVG", lambda f: [inkwell, "render", f, "-o", os.path.join(out, "a.svg")],
                lambda f: [peer_command, "-t", "svg", "-o", os.path.join(out, "b.svg"), f], ["--format", "svg"])]
else:
    files = sorted(f for f in glob.glob(os.path.join(corpus, "xopp", "**", "*"), recursive=True) if f.endswith((".xopp", ".xoj")))
    outputs = [("PDF", lambda f: [inkwell, "render", f, "-o", os.path.join(out, "a.pdf")],
                lambda f: [peer_command, f"--create-pdf={os.path.join(out, 'b.pdf')}", f], ["--format", "pdf"]),
               ("PNG 2x", lambda f: [inkwell, "render", f, "--scale", "2", "-o", os.path.join(out, "a.png")],
                lambda f: [peer_command, f"--create-img={os.path.join(out, 'b.png')}", "--export-png-dpi=144", f],
                ["--format", "png", "--scale", "2"])]
def median(cmd):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times), done.returncode
start, _ = median([inkwell, "--version"])
print(f"`inkwell --version` (start-up alone): {start*1000:.1f} ms; median of {runs} runs for every figure")
for name, ours_command, peer_of, export_options in outputs:
    ours, theirs, skipped = [], [], []
    for f in files:
        a, ra = median(ours_command(f))
        b, rb = median(peer_of(f))
        if ra != 0 or rb != 0:
            skipped.append((os.path.relpath(f, corpus), ra, rb))
            continue
        ours.append(a); theirs.append(b)
    # Every file in one process, as a batch conversion runs.
    converted = [f for f in files if os.path.relpath(f, corpus) not in {n for n, _, _ in skipped}]
    zip_path = os.path.join(out, "all.zip")
    times = []
    for _ in range(runs):
        if os.path.exists(zip_path): os.remove(zip_path)
        t0 = time.perf_counter()
        done = subprocess.run([inkwell, "export", *converted, *export_options, "--zip", zip_path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0: sys.exit(f"inkwell export {' '.join(export_options)} failed")
    together = statistics.median(times)
    print()
    print(f"{name}: {len(ours)} files converted by both, one process a file "
          f"({len(skipped)} left out: {', '.join(f'{n} (inkwell {x}, {peer} {y})' for n, x, y in skipped) or 'none'})")
    print()
    print("| | median per file | slowest file | total |")
    print("|---|---:|---:|---:|")
    print(f"| `{' '.join(os.path.basename(a) if a == inkwell else a for a in ours_command('FILE')).replace(out + '/', '')}` | {statistics.median(ours)*1000:.1f} ms | {max(ours)*1000:.1f} ms | {sum(ours)*1000:.0f} ms |")
    print(f"| `{' '.join(os.path.basename(a) if a == peer_command else a for a in peer_of('FILE')).replace(out + '/', '')}` | {statistics.median(theirs)*1000:.1f} ms | {max(theirs)*1000:.1f} ms | {sum(theirs)*1000:.0f} ms |")
    print(f"| `inkwell export` all {len(converted)} files in one process (`{' '.join(export_options)} --zip`) | {together / len(converted) * 1000:.1f} ms a file | | {together*1000:.0f} ms |")
    print()
    print(f"{name}: inkwell is {statistics.median(theirs)/statistics.median(ours):.1f}x {peer} per file (median), {sum(theirs)/sum(ours):.1f}x in total; "
          f"in one process it converts the batch {sum(theirs)/together:.1f}x faster than {peer} converts it file by file.")
PY
