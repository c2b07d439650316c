#!/usr/bin/env python3
"""How long `inkwell serve` takes to stop on SIGTERM with a note open (issue 29, docs/serve.md).

A writer opens a note's WebSocket, writes a stroke (waiting for its confirmation) and starts another
that it leaves with the pen down (a second socket, closed before the signal, sees it relayed: the
server has it); then the server gets SIGTERM. Measured: seconds from the signal to
the exit, the exit status, whether the writer was told (`stopping`), the page's stroke count after,
and whether a journal with changes is left. With --sleeping the writer never answers the server's
close (a tablet gone to sleep); otherwise it answers it as a browser does.

    /usr/bin/python3 scripts/serve-stop-time.py INKWELL [--runs 5] [--sleeping] [--bound 15]

Standard library only (the WebSocket client is scripts/serve_load.py's). Prints one JSON line a run
and a summary.
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_load import WebSocket  # noqa: E402


def run_once(inkwell, sleeping, bound):
    work = tempfile.mkdtemp(prefix="inkwell-stop-")
    library = os.path.join(work, "library")
    try:
        subprocess.run([inkwell, "init", "--library", library], check=True, capture_output=True)
        subprocess.run([inkwell, "note", "create", "Stop", "--library", library], check=True, capture_output=True)
        note = json.loads(subprocess.run([inkwell, "note", "list", "--json", "--library", library],
                                         check=True, capture_output=True, text=True).stdout)[0]["id"]
        server = subprocess.Popen([inkwell, "serve", "--library", library, "--port", "0", "--no-recognize"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        ws = WebSocket("127.0.0.1", port, f"/api/notes/{note}/live")
        page = json.loads(ws.receive())["pages"][0]["id"]
        # A second socket on the note sees the writer's pen messages relayed: the relay of s:2's move
        # means the server has applied its pen down (messages of a socket are applied in order).
        observer = WebSocket("127.0.0.1", port, f"/api/notes/{note}/live")
        observer.receive()

        def pen(kind, key, x):
            message = {"t": kind, "k": key}
            if kind == "down":
                message.update(page=page, pt=[x, 100, 0.5], tool="pen", color="#000000", w=3)
            elif kind == "move":
                message["pts"] = [[x + 40, 140, 0.5]]
            ws.send(json.dumps(message))

        for kind in ("down", "move", "up"):
            pen(kind, "s:1", 100)
        while "s:1" not in json.loads(ws.receive()).get("keys", []):
            pass
        pen("down", "s:2", 400)
        pen("move", "s:2", 400)
        while True:
            relayed = json.loads(observer.receive())
            if relayed.get("t") == "move" and relayed.get("k") == "s:2":
                break
        observer.close()
        heard = []

        def read():
            try:
                while (text := ws.receive()) is not None:
                    heard.append(json.loads(text).get("t"))
                if not sleeping:  # answer the close, as a browser does
                    ws.sock.sendall(bytes([0x88, 0x82]) + b"\0\0\0\0" + b"\x03\xe9")
            except (ConnectionError, OSError):
                pass

        if not sleeping:
            threading.Thread(target=read, daemon=True).start()
        start = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=bound)
            took = round(time.monotonic() - start, 3)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            status, took = None, None
        shown = json.loads(subprocess.run([inkwell, "note", "show", note, "--json", "--library", library],
                                          capture_output=True, text=True).stdout)
        check = subprocess.run([inkwell, "check", "--library", library], capture_output=True, text=True)
        return {"seconds": took, "status": status, "told": "stopping" in heard if not sleeping else None,
                "strokes": shown["pages"][0]["strokes"], "journal_applied_by_check": "journal replayed" in check.stderr,
                "stderr": server.stderr.read().strip().splitlines()}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inkwell")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sleeping", action="store_true", help="the writer never answers the server's close")
    parser.add_argument("--bound", type=float, default=15, help="seconds to wait for the exit before killing it")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        result = run_once(os.path.abspath(args.inkwell), args.sleeping, args.bound)
        print(json.dumps(result))
        runs.append(result)
    times = [r["seconds"] for r in runs if r["seconds"] is not None]
    print(json.dumps({"runs": len(runs), "exited": len(times), "exit 0": sum(r["status"] == 0 for r in runs),
                      "median s": statistics.median(times) if times else None, "max s": max(times) if times else None,
                      "strokes": sorted({r["strokes"] for r in runs})}))


if __name__ == "__main__":
    main()
