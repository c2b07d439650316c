#!/usr/bin/env python3
"""Rendered imports look like the source: Inkwell's renders of imported files against the peers' own.

    scripts/peer-overlap.py .build/debug/inkwell                        # the default corpus files
    scripts/peer-overlap.py INKWELL rm/rmc/writing_tools.rm x.xopp      # files (relative to the corpus or not)
    scripts/peer-overlap.py INKWELL --out /tmp/overlap                  # keep the images and the table there
    scripts/peer-overlap.py INKWELL --json                              # one JSON document instead of the table

For each file, Inkwell imports it into a library in a temporary folder and renders every page as PNG;
the peer renders the same file:

- `.xopp`/`.xoj`: `xournalpp --create-img=peer.png --export-png-dpi=72×S --export-no-background FILE`.
  Xournal++ coordinates are PDF points and Inkwell keeps them as page pixels, so at 72×S dpi one
  Xournal++ pixel is one Inkwell pixel at `--scale S`, same origin (the top left corner).
- `.rm`: `rmc -t svg -o peer.svg FILE`. rmc writes tablet pixels × 72/226 with x centred on 0 and a
  viewBox around its bounding box; Inkwell keeps tablet pixels and adds 702 to x. The SVG's viewBox is
  replaced by Inkwell's page area (x from −702, y from 0, or 20 px beyond ink that lies left of or above
  that, the size of Inkwell's render) in rmc's units, and `rsvg-convert` rasterises it at exactly the size
  of Inkwell's PNG. rmc's typed text is left out (Inkwell keeps it as the note's text, not drawn yet).

Both images are composited on white; ink is luminance (PIL's "L") below --threshold. Each mask is dilated
by a disk of --dilate pixels to forgive differences of stroke width and placement, and the table gives
for each page: ink pixels of each (not dilated), the intersection over union of the dilated masks, the
fraction of the peer's ink that lies within Inkwell's dilated ink, and the reverse.

Needs: Python 3.9+, numpy and Pillow (`pip install numpy pillow`); xournalpp (Debian `xournalpp`) for
.xopp/.xoj; rmc (PyPI `rmc`; `pip install rmc` may downgrade rmscene, so run `pip install rmscene==0.8.0`
afterwards) and rsvg-convert (Debian `librsvg2-bin`) for .rm. Files whose peer is missing are reported
as skipped. Nothing is written outside a temporary folder unless --out is given.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

DEFAULT_CORPUS = os.environ.get("INKWELL_CORPUS", "/work/shared/corpus")
DEFAULT_FILES = [
    # Xournal++: pen and highlighter strokes, dashes, a filled shape; text and fills that Inkwell skips
    "xopp/xournalpp/test/files/load/strokes.xopp",
    "xopp/xournalpp/development/documentation/Setsquare_annotations.xopp",
    "xopp/xournalpp/test/files/packaged_xopp/suite.xopp",
    "xopp/xournalpp/test/files/preview-test2.xoj",
    "xopp/xournalpp/test/files/packaged_xopp/stroke/new.xopp",
    # reMarkable: strokes only (every tool, a full page, a page grown downwards, erasers)…
    "rm/rmc/writing_tools.rm",
    "rm/rmc/abcd.strokes.rm",
    "rm/rmc/fullpage.rm",
    "rm/rmc/extended.stroke.rm",
    "rm/rmc/erasers.rm",
    "rm/rmc/Lines_v2.rm",
    # …and strokes in groups anchored to typed text
    "rm/rmc/text_and_strokes.rm",
    "rm/rmc/writing_tools_with_text.rm",
    "rm/rmc/Normal_A_stroke_2_layers.rm",
]

RM_SCALE = 72.0 / 226.0   # rmc: tablet pixels → points
RM_X_SHIFT = 702.0        # Inkwell: x + 702


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"{Path(cmd[0]).name} failed ({result.returncode}): {last}")
    return result


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in (".xopp", ".xoj"):
        return "xopp"
    if suffix == ".rm":
        return "rm"
    return None


def peer_available(kind: str) -> str | None:
    """None when the peer's tools are installed, else what is missing."""
    needed = ["xournalpp"] if kind == "xopp" else ["rmc", "rsvg-convert"]
    missing = [tool for tool in needed if shutil.which(tool) is None]
    return ", ".join(missing) if missing else None


def plain_paper_copy(source: Path, work: Path) -> Path:
    """A copy of a .xopp/.xoj whose solid backgrounds are plain white, in the same container (gzip, zip, XML).

    Inkwell imports Xournal++'s ruled, graph and dotted backgrounds as page templates and always renders
    them; `xournalpp --export-no-background` leaves them out. Ink is compared, so Inkwell imports a copy
    without them: only `<background>` elements change, the strokes are the file's own.
    """
    def plain(xml: bytes) -> bytes:
        def fix(match: re.Match) -> bytes:
            tag = re.sub(rb'\bstyle="[^"]*"', b'style="plain"', match.group(0))
            return re.sub(rb'\bcolor="[^"]*"', b'color="#ffffffff"', tag)
        return re.sub(rb'<background\b[^>]*\btype="solid"[^>]*>', fix, xml)

    data = source.read_bytes()
    out = work / ("plain" + source.suffix)
    if data[:2] == b"\x1f\x8b":
        out.write_bytes(gzip.compress(plain(gzip.decompress(data))))
    elif data[:2] == b"PK":
        buffer = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in zin.infolist():
                body = zin.read(info)
                zout.writestr(info, plain(body) if info.filename == "content.xml" else body)
        out.write_bytes(buffer.getvalue())
    else:
        out.write_bytes(plain(data))
    return out


def inkwell_render(inkwell: str, source: Path, work: Path, scale: int) -> list[Path]:
    """Imports `source` into a fresh library in `work` and renders every page; returns the PNGs in page order."""
    library = work / "library"
    run([inkwell, "init", "--library", str(library)])
    imported = json.loads(run([inkwell, "import", str(source), "--library", str(library), "--json"]).stdout)
    notes = [note for entry in imported.get("imported", []) for note in entry.get("notes", [])]
    if len(notes) != 1:
        raise RuntimeError(f"expected one imported note, got {len(notes)}: {imported.get('failures')}")
    note = notes[0]["id"]
    out = work / "inkwell.png"
    written = json.loads(run([inkwell, "render", note, "--library", str(library), "--format", "png",
                              "--scale", str(scale), "-o", str(out), "--json"]).stdout)
    return [Path(f["path"]) for f in written["files"]]


def numbered(folder: Path, stem: str) -> list[Path]:
    """`stem.png`, or `stem-1.png`, `stem-2.png`, … in page order."""
    single = folder / f"{stem}.png"
    if single.exists():
        return [single]
    pages = []
    for path in folder.glob(f"{stem}-*.png"):
        match = re.fullmatch(re.escape(stem) + r"-(\d+)\.png", path.name)
        if match:
            pages.append((int(match.group(1)), path))
    return [p for _, p in sorted(pages)]


def xournalpp_render(source: Path, work: Path, scale: int) -> list[Path]:
    run(["xournalpp", f"--create-img={work / 'peer.png'}", f"--export-png-dpi={72 * scale}",
         "--export-no-background", str(source)], env={**os.environ, "NO_AT_BRIDGE": "1"})
    return numbered(work, "peer")


def rmc_render(source: Path, work: Path, size: tuple[int, int], scale: int) -> list[Path]:
    """rmc's SVG, its viewBox set to Inkwell's page area, rasterised at Inkwell's pixel size."""
    svg_path = work / "peer.svg"
    run(["rmc", "-t", "svg", "-o", str(svg_path), str(source)])
    svg = svg_path.read_text(encoding="utf-8")
    # Typed text is compared as text (note text), not as pixels: Inkwell does not draw it on the page yet.
    svg = re.sub(r'<g class="root-text".*?</g>', "", svg, flags=re.S)
    width, height = size
    header = re.search(r"<svg\b[^>]*>", svg)
    if not header:
        raise RuntimeError("rmc wrote no <svg> element")
    # rmc's viewBox starts at its ink's top left where that is above or left of the page; Inkwell then moves
    # the page's corner 20 tablet pixels beyond ink more than 2 px outside (RemarkableDecoder), whole pixels.
    box = re.search(r'viewBox="([-\d.e]+) ([-\d.e]+)', header.group(0))
    left, top = (float(box.group(1)) / RM_SCALE, float(box.group(2)) / RM_SCALE) if box else (-RM_X_SHIFT, 0.0)
    left = math.floor(left - 20) if left < -RM_X_SHIFT - 2 else -RM_X_SHIFT
    top = math.floor(top - 20) if top < -2 else 0.0
    x0, y0 = left * RM_SCALE, top * RM_SCALE
    w, h = width / scale * RM_SCALE, height / scale * RM_SCALE
    new_header = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                  f'viewBox="{x0} {y0} {w} {h}" preserveAspectRatio="none">')
    aligned = work / "peer-aligned.svg"
    aligned.write_text(svg[:header.start()] + new_header + svg[header.end():], encoding="utf-8")
    out = work / "peer.png"
    run(["rsvg-convert", "-w", str(width), "-h", str(height), "-b", "white", "-o", str(out), str(aligned)])
    return [out]


def load_rgb(path: Path) -> Image.Image:
    image = Image.open(path).convert("RGBA")
    white = Image.new("RGBA", image.size, (255, 255, 255, 255))
    white.alpha_composite(image)
    return white.convert("RGB")


def dilate(mask: np.ndarray, radius: int) -> np.ndarray:
    if radius <= 0:
        return mask
    h, w = mask.shape
    padded = np.pad(mask, radius)
    out = np.zeros_like(mask)
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            if dx * dx + dy * dy <= radius * radius:
                out |= padded[radius + dy:radius + dy + h, radius + dx:radius + dx + w]
    return out


def compare(peer: Image.Image, ink: Image.Image, threshold: int, radius: int) -> dict:
    w, h = min(peer.width, ink.width), min(peer.height, ink.height)
    p = np.asarray(peer.convert("L"))[:h, :w] < threshold
    i = np.asarray(ink.convert("L"))[:h, :w] < threshold
    dp, di = dilate(p, radius), dilate(i, radius)
    union = int((dp | di).sum())
    np_, ni = int(p.sum()), int(i.sum())
    return {
        "peer_size": list(peer.size), "inkwell_size": list(ink.size),
        "peer_ink": np_, "inkwell_ink": ni,
        "iou": (int((dp & di).sum()) / union) if union else None,
        "peer_covered": (int((p & di).sum()) / np_) if np_ else None,
        "inkwell_covered": (int((i & dp).sum()) / ni) if ni else None,
        "masks": (p, i, dp, di),
    }


def save_pictures(folder: Path, name: str, peer: Image.Image, ink: Image.Image, masks) -> None:
    """Side by side (peer | Inkwell | overlay) and the overlay alone: black both, red peer only, blue Inkwell only."""
    p, i, dp, di = masks
    h, w = p.shape
    overlay = np.full((h, w, 3), 255, np.uint8)
    overlay[p & ~di] = (220, 30, 30)
    overlay[i & ~dp] = (30, 60, 230)
    overlay[(p & di) | (i & dp)] = (0, 0, 0)
    overlay_image = Image.fromarray(overlay)
    overlay_image.save(folder / f"{name}-overlay.png")
    gap = 12
    side = Image.new("RGB", (peer.width + ink.width + w + 2 * gap, max(peer.height, ink.height, h)), (200, 200, 200))
    side.paste(peer, (0, 0))
    side.paste(ink, (peer.width + gap, 0))
    side.paste(overlay_image, (peer.width + ink.width + 2 * gap, 0))
    side.save(folder / f"{name}-side.png")
    peer.save(folder / f"{name}-peer.png")
    ink.save(folder / f"{name}-inkwell.png")


def fmt(value, percent=True) -> str:
    if value is None:
        return "—"
    return f"{100 * value:.1f} %" if percent else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inkwell", help="the inkwell binary")
    parser.add_argument("files", nargs="*", help="files to compare, absolute or relative to --corpus (default: a few)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS, help="corpus folder (default: %(default)s, or $INKWELL_CORPUS)")
    parser.add_argument("--scale", type=int, default=1, choices=(1, 2, 3), help="Inkwell's --scale (Xournal++ at 72×scale dpi)")
    parser.add_argument("--threshold", type=int, default=200, help="ink is luminance below this (default %(default)s)")
    parser.add_argument("--dilate", type=int, default=2, help="dilation radius in pixels (default %(default)s)")
    parser.add_argument("--keep-paper", action="store_true",
                        help="let Inkwell import .xopp backgrounds (ruled, graph…) as templates, which then count as ink")
    parser.add_argument("--out", type=Path, help="keep the images (peer, Inkwell, overlay, side by side) and table.md here")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the Markdown table")
    args = parser.parse_intermixed_args()

    inkwell = str(Path(args.inkwell).resolve())
    corpus = Path(args.corpus)
    files = args.files or DEFAULT_FILES
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)

    rows = []
    with tempfile.TemporaryDirectory(prefix="peer-overlap-") as tmp:
        for index, name in enumerate(files):
            source = Path(name) if Path(name).is_absolute() or Path(name).exists() else corpus / name
            label = os.path.relpath(source, corpus) if str(source).startswith(str(corpus)) else str(source)
            kind = kind_of(source)
            base = {"file": label, "kind": kind}
            if kind is None or not source.exists():
                rows.append({**base, "page": None, "skipped": "not a .xopp/.xoj/.rm file" if kind is None else "missing"})
                continue
            missing = peer_available(kind)
            if missing:
                rows.append({**base, "page": None, "skipped": f"needs {missing}"})
                continue
            work = Path(tmp) / f"{index:02d}"
            work.mkdir()
            try:
                imported = plain_paper_copy(source, work) if kind == "xopp" and not args.keep_paper else source
                ours = inkwell_render(inkwell, imported, work, args.scale)
                first = Image.open(ours[0]).size
                peers = (xournalpp_render(source, work, args.scale) if kind == "xopp"
                         else rmc_render(source, work, first, args.scale))
            except RuntimeError as error:
                rows.append({**base, "page": None, "skipped": str(error)})
                continue
            if len(peers) != len(ours):
                print(f"warning: {label}: peer made {len(peers)} pages, Inkwell {len(ours)}", file=sys.stderr)
            for page, (peer_path, ink_path) in enumerate(zip(peers, ours), start=1):
                peer, ink = load_rgb(peer_path), load_rgb(ink_path)
                result = compare(peer, ink, args.threshold, args.dilate)
                masks = result.pop("masks")
                row = {**base, "page": page, "pages": len(ours), **result}
                if abs(peer.width - ink.width) > 1 or abs(peer.height - ink.height) > 1:
                    row["note"] = f"sizes differ: peer {peer.width}×{peer.height}, Inkwell {ink.width}×{ink.height}"
                rows.append(row)
                if args.out:
                    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", label) + (f"-p{page}" if len(ours) > 1 else "")
                    save_pictures(args.out, stem, peer, ink, masks)

    lines = [
        f"| file | page | peer ink px | Inkwell ink px | IoU (dilated {args.dilate} px) | peer ink covered by Inkwell | Inkwell ink covered by peer |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        if "skipped" in row:
            lines.append(f"| {row['file']} | | | | | | skipped: {row['skipped']} |")
            continue
        page = f"{row['page']}/{row['pages']}" if row["pages"] > 1 else "1"
        lines.append(f"| {row['file']} | {page} | {row['peer_ink']} | {row['inkwell_ink']} | {fmt(row['iou'])} | "
                     f"{fmt(row['peer_covered'])} | {fmt(row['inkwell_covered'])} |")
    table = "\n".join(lines)
    if args.out:
        (args.out / "table.md").write_text(table + "\n", encoding="utf-8")
        (args.out / "results.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({"threshold": args.threshold, "dilate": args.dilate, "scale": args.scale, "rows": rows}, indent=2))
    else:
        print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
