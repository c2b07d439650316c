#!/usr/bin/env python3
"""Pen-up → durable confirmation in `inkwell serve`: the time from a stroke's `up` message to the
`ink` (or `page`) message carrying its key (which the server sends once the stroke is synced to the
note's journal), one writer sending 40-point strokes, on a page that already holds N strokes
(imported from a generated InkML file of 40-point strokes), and the bytes the server sends the
writer a stroke (every message after `hello`, divided by the strokes written).

    /usr/bin/python3 scripts/serve-durable-latency.py INKWELL [--strokes 0 [300 …]] [--writes 60] [--pause 0.3]

Prints one JSON object a page size: p50/p99/max in milliseconds, bytes a stroke, the confirmation's size.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_load import WebSocket  # noqa: E402


def inkml(count):
    """A page of `count` strokes of 40 points each, in rows."""
    traces = []
    for i in range(count):
        x0, y0 = 20 + (i % 40) * 34, 20 + (i // 40) % 50 * 36
        traces.append("<trace>" + ", ".join(f"{x0 + j * 0.7:.1f} {y0 + (j % 9) * 2:.1f}" for j in range(40)) + "</trace>")
    return '<ink xmlns="http://www.w3.org/2003/InkML">' + "".join(traces) + "</ink>"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inkwell")
    parser.add_argument("--strokes", type=int, nargs="+", default=[0], help="strokes on the page before writing (one run each)")
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between strokes")
    args = parser.parse_args()
    for strokes in args.strokes:
        print(json.dumps(measure(args.inkwell, strokes, args.writes, args.pause)), flush=True)


def measure(inkwell, strokes, writes, pause):
    work = tempfile.mkdtemp(prefix="inkwell-latency.")
    library = os.path.join(work, "library")
    subprocess.run([inkwell, "init", "--library", library], check=True, capture_output=True)
    note = None
    if strokes:
        path = os.path.join(work, "page.inkml")
        with open(path, "w") as f:
            f.write(inkml(strokes))
        subprocess.run([inkwell, "import", path, "--library", library, "--no-recognize"], check=True, capture_output=True)
        note = json.loads(subprocess.run([inkwell, "note", "list", "--library", library, "--json"],
                                         capture_output=True, text=True, check=True).stdout)[0]["id"]
    server = subprocess.Popen([inkwell, "serve", "--library", library, "--port", "0", "--no-recognize"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"http://[^:/]+:(\d+)/", server.stdout.readline()).group(1))
        if note is None:
            import urllib.request
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/notes", data=b'{"title": "Latency"}',
                                             headers={"Content-Type": "application/json"}, method="POST")
            note = json.load(urllib.request.urlopen(request))["id"]
        ws = WebSocket("127.0.0.1", port, f"/api/notes/{note}/live")
        hello = json.loads(ws.receive())
        page = hello["pages"][0]["id"]
        sent, latencies, sizes, received = {}, [], [], [0]
        done = threading.Event()

        def reader():
            while not done.is_set():
                try:
                    text = ws.receive()
                except (ConnectionError, OSError):
                    return
                if text is None:
                    return
                arrived = time.perf_counter()
                received[0] += len(text.encode())
                if '"t":"page"' in text or '"t":"ink"' in text:
                    for key in json.loads(text).get("keys", []):
                        if key in sent:
                            latencies.append(arrived - sent[key])
                            sizes.append(len(text.encode()))

        threading.Thread(target=reader, daemon=True).start()
        for i in range(writes):
            key = f"lat:{i}"
            x, y = 100 + (i % 20) * 60, 1700 - (i // 20) * 40
            ws.send(json.dumps({"t": "down", "k": key, "page": page, "pt": [x, y, 0.5], "tool": "pen", "color": "#000000", "w": 3}))
            for j in range(1, 40):  # a 40-point stroke, in frames of 4 points
                if j % 4 == 0:
                    time.sleep(1 / 60)
                ws.send(json.dumps({"t": "move", "k": key, "pts": [[x + j, y + (j % 5), 0.6]]}))
            sent[key] = time.perf_counter()
            ws.send(json.dumps({"t": "up", "k": key}))
            time.sleep(pause)
        time.sleep(1)
        done.set()
        ws.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        subprocess.run(["rm", "-rf", work])
    latencies.sort()

    def percentile(p):
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2) if latencies else None

    return {"strokes_on_page": strokes, "writes": writes, "confirmed": len(latencies),
            "p50_ms": percentile(0.5), "p99_ms": percentile(0.99), "max_ms": percentile(1.0),
            "bytes_per_stroke": round(received[0] / max(1, writes)), "confirmation_bytes": max(sizes) if sizes else None}


if __name__ == "__main__":
    main()
