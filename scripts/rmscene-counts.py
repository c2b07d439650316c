#!/usr/bin/env python3
"""Prints, for each reMarkable v6 .rm file given, what rmscene (the reference reader) finds in it:
strokes (Line items reached from the scene tree's root, deleted ones left out, area erasers — tool 8 —
counted apart), points, the first point of each stroke in drawing order (x + 702, relative to its group)
and the anchor of the group it was written in ([author, counter, anchor_origin_x], or null), as JSON lines.
Inkwell's tests compare their own decoding with this (Tests/InkInterchangeTests/RemarkableTests.swift).

    python3 scripts/rmscene-counts.py ../shared/corpus/rm/*/*.rm
"""
import json
import logging
import sys

from rmscene import read_tree, scene_items as si

logging.disable(logging.CRITICAL)

def lines(group, anchor=None):
    """Leaf strokes in drawing order (as SceneTree.walk), each with the nearest anchored group above it."""
    for child in group.children.values():
        if isinstance(child, si.Group):
            own = ([child.anchor_id.value.part1, child.anchor_id.value.part2,
                    child.anchor_origin_x.value if child.anchor_origin_x else 0.0]
                   if child.anchor_id is not None else None)
            yield from lines(child, own or anchor)
        elif isinstance(child, si.Line):
            yield child, anchor


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        tree = read_tree(f)
    strokes = list(lines(tree.root))
    kept = [(s, a) for s, a in strokes if int(s.tool) != 8]
    print(json.dumps({
        "file": path,
        "strokes": len(kept),
        "points": sum(len(s.points) for s, _ in kept),
        "areaErasers": len(strokes) - len(kept),
        "first": [[round(s.points[0].x + 702, 3), round(s.points[0].y, 3)] if s.points else None for s, _ in kept],
        "anchors": [a for _, a in kept],
    }))
