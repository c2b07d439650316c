#!/usr/bin/env bash
# Annotated PDFs, against Xournal++: writes a 50-page PDF (text and vector shapes on every page) and a
# Xournal++ document on it with 40 pen strokes a page, then, each run --runs times (median), in one run:
# `inkwell import paper.pdf` into a new library; `inkwell render notes.xopp -o out.pdf` (the PDF pages
# as vectors under the ink, no library); and `xournalpp --create-pdf` of the same document. Prints the
# times, the output sizes and the ratios. Needs `make release` and xournalpp (scripts/install-deps.sh).
#
#   scripts/pdf-bench.sh [--runs 5]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N]" >&2; exit 2 ;;
  esac
done
inkwell=.build/release/inkwell
[ -x "$inkwell" ] || { echo "$inkwell: missing (make release)" >&2; exit 1; }
command -v xournalpp >/dev/null || { echo "xournalpp: missing (scripts/install-deps.sh)" >&2; exit 1; }
python3 - "$inkwell" "$runs" <<'PY'
import math, os, random, statistics, subprocess, sys, tempfile, time
inkwell, runs = sys.argv[1], int(sys.argv[2])
out = tempfile.mkdtemp(prefix="inkwell-pdf-bench-")
pages = 50
# The PDF: on each page a heading, ten lines of Helvetica text and a few filled and stroked shapes.
objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
kids = []
for p in range(pages):
    body = [f"BT /F1 20 Tf 72 740 Td (Chapter {p + 1}: reading notes) Tj ET"]
    for line in range(10):
        body.append(f"BT /F1 11 Tf 72 {700 - 16 * line} Td (Line {line + 1} of page {p + 1}: the quick brown fox jumps over the lazy dog.) Tj ET")
    body.append("0.8 0.2 0.2 rg 72 300 200 120 re f 0 0 0.6 RG 2 w 320 300 m 520 420 l 520 300 l h S")
    content = "\n".join(body)
    objects.append(f"<< /Length {len(content)} >>\nstream\n{content}\nendstream")
    objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {len(objects)} 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
    kids.append(f"{len(objects)} 0 R")
objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
pdf, offsets = "%PDF-1.4\n", []
for i, o in enumerate(objects):
    offsets.append(len(pdf.encode()))
    pdf += f"{i + 1} 0 obj\n{o}\nendobj\n"
xref = len(pdf.encode())
pdf += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
pdf += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
paper = os.path.join(out, "paper.pdf")
open(paper, "w").write(pdf)
# The document: 40 pressure-varying strokes a page, in the margins and between the lines.
rng = random.Random(7)
xml = ['<?xml version="1.0" standalone="no"?>', '<xournal creator="xournalpp 1.2.3" fileversion="4">']
for p in range(pages):
    xml.append(f'<page width="612.00" height="792.00"><background type="pdf" domain="absolute" filename="{paper}" pageno="{p + 1}ll"/><layer>')
    for s in range(40):
        x, y = rng.uniform(60, 500), rng.uniform(60, 740)
        pts, widths = [], []
        for i in range(60):
            pts += [x + i * 1.5, y + 6 * math.sin(i / 4 + s)]
            widths.append(1.2 + 0.6 * math.sin(i / 7))
        xml.append(f'<stroke tool="pen" color="#1a1a80ff" width="1.41 {" ".join(f"{w:.2f}" for w in widths[:-1])}">'
                   + " ".join(f"{v:.2f}" for v in pts) + "</stroke>")
    xml.append("</layer></page>")
xml.append("</xournal>")
doc = os.path.join(out, "notes.xopp")
open(doc, "w").write("\n".join(xml))

def median(make_cmd, setup=None):
    times = []
    for r in range(runs):
        if setup: setup(r)
        cmd, env = make_cmd(r)
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        times.append(time.perf_counter() - start)
        if done.returncode != 0: sys.exit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
    return statistics.median(times)

def library(r):
    lib = os.path.join(out, f"lib{r}")
    env = dict(os.environ, INKWELL_LIBRARY=lib)
    subprocess.run([inkwell, "init"], env=env, stdout=subprocess.DEVNULL, check=True)
base = dict(os.environ, INKWELL_LIBRARY=os.path.join(out, "no-library"))
imp = median(lambda r: ([inkwell, "import", paper, "--no-recognize"], dict(os.environ, INKWELL_LIBRARY=os.path.join(out, f"lib{r}"))), library)
ours_pdf, theirs_pdf = os.path.join(out, "inkwell.pdf"), os.path.join(out, "xournalpp.pdf")
ours = median(lambda r: ([inkwell, "render", doc, "-o", ours_pdf], base))
theirs = median(lambda r: (["xournalpp", f"--create-pdf={theirs_pdf}", doc], base))
size_ours, size_theirs = os.path.getsize(ours_pdf), os.path.getsize(theirs_pdf)
print(f"50-page PDF ({len(pdf) // 1024} KB), document with {pages * 40} strokes on it; median of {runs} runs")
print(f"| step | Inkwell | Xournal++ | ratio |")
print(f"|---|---:|---:|---:|")
print(f"| import the PDF into a library | {imp * 1000:.0f} ms | | |")
print(f"| annotated document → PDF | {ours * 1000:.0f} ms, {size_ours // 1024} KB | {theirs * 1000:.0f} ms, {size_theirs // 1024} KB | {ours / theirs:.2f}× the time, {size_ours / size_theirs:.2f}× the bytes |")
PY
