#!/usr/bin/env python3
"""Prints, for each reMarkable v6 .rm file given, what rmscene (the reference reader) finds in it:
strokes (Line items reached from the scene tree's root, deleted ones left out, area erasers — tool 8 —
counted apart), points, and the first point of each stroke in drawing order, as JSON lines.
Inkwell's tests compare their own decoding with this (Tests/InkInterchangeTests/RemarkableTests.swift).

    python3 scripts/rmscene-counts.py ../shared/corpus/rm/*/*.rm
"""
import json
import logging
import sys

from rmscene import read_tree, scene_items as si

logging.disable(logging.CRITICAL)

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        tree = read_tree(f)
    strokes = [item for item in tree.walk() if isinstance(item, si.Line)]
    kept = [s for s in strokes if int(s.tool) != 8]
    print(json.dumps({
        "file": path,
        "strokes": len(kept),
        "points": sum(len(s.points) for s in kept),
        "areaErasers": len(strokes) - len(kept),
        "first": [[round(s.points[0].x + 702, 3), round(s.points[0].y, 3)] if s.points else None for s in kept],
    }))
