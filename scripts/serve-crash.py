#!/usr/bin/env python3
"""Crash test of `inkwell serve` (issue 29): nothing the server confirmed is lost, nothing is doubled.

A writer sends strokes over the note's WebSocket like the browser does (down, a move message a frame,
up; each stroke keyed) and keeps every stroke the server has not confirmed (a `page` message naming
its key), sending those again after each reconnect. Meanwhile the server is killed with SIGKILL at
random moments and started again. Two runs, each on its own note: writing at a person's pace (strokes
of 0.3-0.8 s, pauses of 0.1-0.6 s, now and then 2.5 s), and steadily (a stroke every 0.6 s, which
never leaves the 2 s autosave a quiet moment). At the end the server is killed once more, started
(which replays the journals) and killed again, and the notes are exported as InkML through the CLI:
every confirmed stroke must be there exactly once, and no stroke twice.

    /usr/bin/python3 scripts/serve-crash.py INKWELL [--seconds 30] [--seed N]

Standard library only (the WebSocket client is scripts/serve_load.py's). Exits 1 on a lost or doubled
stroke, printing a JSON summary either way.
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_load import WebSocket  # noqa: E402


class Server:
    """One `inkwell serve` process at a time on the library; `port` is the running one's (None while down)."""

    def __init__(self, inkwell, library, log):
        self.inkwell, self.library, self.log = inkwell, library, log
        self.process = None
        self.port = None
        self.kills = 0

    def start(self):
        self.process = subprocess.Popen([self.inkwell, "serve", "--library", self.library, "--port", "0", "--no-recognize"],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://[^:/]+:(\d+)/", line)
        if not match:
            raise RuntimeError(f"the server did not start: {line!r}")
        self.port = int(match.group(1))

    def kill(self):
        self.port = None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.kills += 1


class Writer:
    """Writes strokes to one note as a browser does, keeping those not yet confirmed and resending them."""

    def __init__(self, server, note, first_index):
        self.server, self.note = server, note
        self.ws = None
        self.page = None
        self.messages = {}      # key → the stroke's messages so far
        self.first_point = {}   # key → (x, y) of its first point: how the stroke is found in the export
        self.confirmed = set()
        self.lock = threading.Lock()
        self.index = first_index
        self.reconnects = 0

    def connect(self):
        """Connects if the server is up; on its hello, resends every unconfirmed stroke."""
        port = self.server.port
        if port is None:
            return False
        try:
            ws = WebSocket("127.0.0.1", port, f"/api/notes/{self.note}/live")
            hello = json.loads(ws.receive())
        except (ConnectionError, OSError, TypeError):
            return False
        self.ws = ws
        self.page = hello["pages"][0]["id"]
        threading.Thread(target=self.read, args=(ws,), daemon=True).start()
        with self.lock:
            pending = [m for key, ms in self.messages.items() if key not in self.confirmed for m in ms]
        try:
            for message in pending:
                ws.send(json.dumps(message))
        except (ConnectionError, OSError):
            self.ws = None
            return False
        self.reconnects += 1
        return True

    def read(self, ws):
        try:
            while True:
                text = ws.receive()
                if text is None:
                    break
                if '"t":"page"' in text or '"t":"ink"' in text:
                    with self.lock:
                        self.confirmed.update(json.loads(text).get("keys", []))
        except (ConnectionError, OSError, ValueError):
            pass
        if self.ws is ws:
            self.ws = None

    def send(self, message, key):
        with self.lock:
            self.messages.setdefault(key, []).append(message)
        if self.ws is None and not self.connect():
            return  # offline: kept, sent again on reconnect
        try:
            self.ws.send(json.dumps(message))
        except (ConnectionError, OSError, AttributeError):
            self.ws = None

    def stroke(self, duration):
        """One stroke of `duration` seconds starting at a point no other stroke starts at."""
        self.index += 1
        i = self.index
        key = f"crash:{i}"
        x, y = 40 + (i % 30) * 40, 40 + (i // 30) * 40
        self.first_point[key] = (x, y)
        page = self.page or "000000000000"
        self.send({"t": "down", "k": key, "page": page, "pt": [x, y, 0.5], "tool": "pen", "color": "#000000", "w": 3}, key)
        began = time.perf_counter()
        step = 0
        while time.perf_counter() - began < duration:
            time.sleep(1 / 60)
            step += 1
            self.send({"t": "move", "k": key, "pts": [[x + step, y + (step % 7), 0.6]]}, key)
        self.send({"t": "up", "k": key}, key)

    def finish(self, timeout):
        """Reconnects until every stroke is confirmed or `timeout` passes."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if set(self.messages) <= self.confirmed:
                    return
            if self.ws is None:
                self.connect()
            time.sleep(0.1)


def killer(server, stop, rng, gap):
    """Kills the server after a random 0.5…`gap` s of running, starts it again, until `stop` is set."""
    while not stop.is_set():
        if stop.wait(rng.uniform(0.5, gap)):
            return
        server.kill()
        time.sleep(rng.uniform(0.05, 0.3))
        server.start()


def exported_first_points(inkwell, library, note, work):
    """The first point of every stroke stored in `note`, read back through `inkwell export --format inkml`."""
    out = os.path.join(work, f"{note}.inkml")
    subprocess.run([inkwell, "export", note, "--library", library, "--format", "inkml", "-o", out, "--on-conflict", "overwrite"],
                   check=True, capture_output=True)
    points = []
    for trace in ET.parse(out).getroot().iter():
        if trace.tag.endswith("trace") and trace.text:
            first = trace.text.strip().split(",")[0].split()
            points.append((round(float(first[0])), round(float(first[1]))))
    return points


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inkwell")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--gap", type=float, default=2.4, help="most seconds the server runs between kills")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="inkwell-crash.")
    library = os.path.join(work, "library")
    subprocess.run([args.inkwell, "init", "--library", library], check=True, capture_output=True)
    log = open(os.path.join(work, "serve.log"), "w")
    server = Server(args.inkwell, library, log)
    server.start()
    notes = []
    for title in ["Person's pace", "Steady"]:
        request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/notes", data=json.dumps({"title": title}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        notes.append(json.load(urllib.request.urlopen(request))["id"])
    writers = []
    began = time.time()
    for run, note in enumerate(notes):
        writer = Writer(server, note, first_index=0)
        writers.append(writer)
        stop = threading.Event()
        thread = threading.Thread(target=killer, args=(server, stop, random.Random(rng.random()), args.gap))
        thread.start()
        end = time.time() + args.seconds
        while time.time() < end:
            if run == 0:
                writer.stroke(rng.uniform(0.3, 0.8))
                time.sleep(2.5 if rng.random() < 0.08 else rng.uniform(0.1, 0.6))
            else:
                started = time.perf_counter()
                writer.stroke(0.3)
                time.sleep(max(0, 0.6 - (time.perf_counter() - started)))
        stop.set()
        thread.join()
        if server.port is None:
            server.start()
    for writer in writers:
        writer.finish(timeout=20)
    # The last confirmations came from the journal alone: kill before any save, start (replays), kill.
    server.kill()
    server.start()
    server.kill()
    result = {"seed": args.seed, "kills": server.kills, "seconds": round(time.time() - began, 1), "runs": []}
    failed = False
    for name, writer in zip(["person", "steady"], writers):
        stored = exported_first_points(args.inkwell, library, writer.note, work)
        counts = {}
        for point in stored:
            counts[point] = counts.get(point, 0) + 1
        confirmed = writer.confirmed & set(writer.messages)
        lost = sorted(k for k in confirmed if counts.get(writer.first_point[k], 0) == 0)
        doubled = sorted(k for k in writer.messages if counts.get(writer.first_point[k], 0) > 1)
        unconfirmed = sorted(set(writer.messages) - writer.confirmed)
        result["runs"].append({"writing": name, "strokes": len(writer.messages), "confirmed": len(confirmed),
                               "stored": len(stored), "lost_confirmed": len(lost), "doubled": len(doubled),
                               "never_confirmed": len(unconfirmed), "reconnects": writer.reconnects,
                               "examples": (lost + doubled)[:5]})
        failed = failed or bool(lost or doubled or unconfirmed)
    result["ok"] = not failed
    print(json.dumps(result))
    if failed:
        print(f"serve-crash: FAILED (library and server log kept in {work})", file=sys.stderr)
        sys.exit(1)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
