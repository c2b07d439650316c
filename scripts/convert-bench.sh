#!/usr/bin/env bash
# Converting a file without a library, against rmc: `inkwell render FILE.rm -o out.svg` (one process,
# release build) and `rmc -t svg -o out.svg FILE.rm` on every .rm page of the corpus, each run --runs
# times, and the whole batch in one `inkwell export FILES… --format svg --zip`; prints the median per
# file and the ratios, in one run. Needs `make release` and rmc
# (scripts/install-deps.sh puts it in .build/peers).
#
#   scripts/convert-bench.sh [--runs 7] [--corpus DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7
corpus="${INKWELL_CORPUS:-$(cd .. && pwd)/shared/corpus}"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--corpus DIR]" >&2; exit 2 ;;
  esac
done
inkwell=.build/release/inkwell
rmc=$(command -v rmc || echo .build/peers/bin/rmc)
[ -x "$inkwell" ] || { echo "$inkwell: missing (make release)" >&2; exit 1; }
[ -x "$rmc" ] || { echo "rmc: missing (scripts/install-deps.sh)" >&2; exit 1; }
[ -d "$corpus/rm" ] || { echo "$corpus/rm: missing (--corpus DIR)" >&2; exit 1; }
python3 - "$inkwell" "$rmc" "$runs" "$corpus" <<'PY'
import glob, os, statistics, subprocess, sys, tempfile, time
inkwell, rmc, runs, corpus = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
files = sorted(glob.glob(os.path.join(corpus, "rm", "*", "*.rm")))
out = tempfile.mkdtemp()
env = dict(os.environ, INKWELL_LIBRARY=os.path.join(out, "no-library"))
def median(cmd):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times), done.returncode
ours, theirs, skipped = [], [], []
for f in files:
    a, ra = median([inkwell, "render", f, "-o", os.path.join(out, "a.svg")])
    b, rb = median([rmc, "-t", "svg", "-o", os.path.join(out, "b.svg"), f])
    if ra != 0 or rb != 0:
        skipped.append((os.path.relpath(f, corpus), ra, rb))
        continue
    ours.append(a); theirs.append(b)
start, _ = median([inkwell, "--version"])
# Every file in one process, as a batch conversion runs: `inkwell export FILES… --format svg --zip`.
converted = [f for f in files if os.path.relpath(f, corpus) not in {n for n, _, _ in skipped}]
zip_path = os.path.join(out, "all.zip")
def batch():
    if os.path.exists(zip_path): os.remove(zip_path)
    return [inkwell, "export", *converted, "--format", "svg", "--zip", zip_path]
times = []
for _ in range(runs):
    cmd = batch()
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    times.append(time.perf_counter() - t0)
    if done.returncode != 0: sys.exit("inkwell export failed")
together = statistics.median(times)
print(f"{len(ours)} .rm pages converted to SVG by both, median of {runs} runs each "
      f"({len(skipped)} left out: {', '.join(f'{n} (inkwell {x}, rmc {y})' for n, x, y in skipped) or 'none'})")
print()
print("| | median per file | slowest file | total |")
print("|---|---:|---:|---:|")
print(f"| `inkwell render FILE -o out.svg` | {statistics.median(ours)*1000:.1f} ms | {max(ours)*1000:.1f} ms | {sum(ours)*1000:.0f} ms |")
print(f"| `rmc -t svg -o out.svg FILE` | {statistics.median(theirs)*1000:.1f} ms | {max(theirs)*1000:.1f} ms | {sum(theirs)*1000:.0f} ms |")
print(f"| `inkwell --version` (start-up alone) | {start*1000:.1f} ms | | |")
print(f"| `inkwell export` all {len(converted)} files in one process (`--format svg --zip`) | {together / len(converted) * 1000:.1f} ms a file | | {together*1000:.0f} ms |")
print()
print(f"inkwell is {statistics.median(theirs)/statistics.median(ours):.1f}x rmc per file (median), {sum(theirs)/sum(ours):.1f}x in total.")
print(f"in one process inkwell converts the batch {sum(theirs)/together:.1f}x faster than rmc converts it file by file.")
PY
