#!/usr/bin/env python3
"""Load on `inkwell serve`: N editors, each on its own note, writing strokes at R points a second for
S seconds over WebSockets (Python's standard library only), like a browser does (a move message a
frame with the points since the last). Measures the time from a stroke's last message (pen up) to the
page update that carries its key (the server's final outline), the server's CPU time and peak memory,
and checks afterwards that every point sent is in the page files.

    scripts/serve_load.py INKWELL LIBRARY --editors 20 --rate 200 --seconds 60 [--no-recognize]

Prints one JSON object.
"""
import argparse
import base64
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), text frames in."""

    def __init__(self, host, port, path):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.lock = threading.Lock()

    def send(self, text, opcode=0x1):
        payload = text.encode() if isinstance(text, str) else text
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x80 | opcode])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        """The next whole text message, or None when the server closes."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            if opcode == 0x8:
                return None
            if opcode == 0x9:  # the server's keep-alive ping: answered as a browser does
                self.send(payload, opcode=0xA)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self):
        with self.lock:
            self.sock.sendall(bytes([0x88, 0x82]) + b"\0\0\0\0" + b"\x03\xe8")
        try:
            while self.receive() is not None:
                pass
        except (ConnectionError, OSError):
            pass
        self.sock.close()


def editor(host, port, note, rate, seconds, results, index):
    ws = WebSocket(host, port, f"/api/notes/{note}/live")
    hello = json.loads(ws.receive())
    page = hello["pages"][0]["id"]
    sent_up = {}
    latencies = []
    done = threading.Event()

    def reader():
        try:
            while True:
                text = ws.receive()
                if text is None:
                    return
                arrived = time.perf_counter()
                if '"t":"page"' in text or '"t":"ink"' in text:
                    message = json.loads(text)
                    for key in message.get("keys", []):
                        if key in sent_up:
                            latencies.append(arrived - sent_up[key])
        except (ConnectionError, OSError):
            return

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    rng = random.Random(index)
    strokes = points = 0
    start = time.perf_counter()
    frame = 1 / 60
    per_frame = rate * frame
    owed = 0.0
    x, y = 100.0, 150.0
    while time.perf_counter() - start < seconds:
        # A stroke: 0.4–0.8 s of writing, then 0.15 s with the pen up; every ~10 s a 2.5 s pause (autosave).
        strokes += 1
        key = f"load{index}:{strokes}"
        length = rng.uniform(0.4, 0.8)
        ws.send(json.dumps({"t": "down", "k": key, "page": page, "pt": [round(x, 2), round(y, 2), 0.5], "tool": "pen",
                            "color": "#000000", "w": 3}))
        points += 1
        began = time.perf_counter()
        while time.perf_counter() - began < length:
            owed += per_frame
            batch = []
            while owed >= 1:
                owed -= 1
                x += rng.uniform(0.5, 2.5)
                y += rng.uniform(-2, 2)
                batch.append([round(x, 2), round(y, 2), round(rng.uniform(0.2, 0.9), 3)])
            if batch:
                ws.send(json.dumps({"t": "move", "k": key, "pts": batch}))
                points += len(batch)
            time.sleep(frame)
        sent_up[key] = time.perf_counter()
        ws.send(json.dumps({"t": "up", "k": key}))
        x += 30
        if x > 1300:
            x, y = 100.0, y + 60 if y < 1750 else 150.0
        time.sleep(2.5 if strokes % 14 == 0 else 0.15)
    time.sleep(1.0)
    ws.close()
    thread.join(timeout=5)
    results[index] = {"note": note, "strokes": strokes, "points": points, "latencies": latencies}


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inkwell")
    parser.add_argument("library")
    parser.add_argument("--editors", type=int, default=20)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--no-recognize", action="store_true")
    args = parser.parse_args()
    command = [args.inkwell, "serve", "--library", args.library, "--port", "0"] + (["--no-recognize"] if args.no_recognize else [])
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(os.environ.get("SERVE_LOG", os.devnull), "w"), text=True,
                              env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    try:
        address = re.search(r"http://([^:/]+):(\d+)/", server.stdout.readline())
        host, port = address.group(1), int(address.group(2))
        base = f"http://{host}:{port}"
        notes = []
        for i in range(args.editors):
            request = urllib.request.Request(f"{base}/api/notes", data=json.dumps({"title": f"Load {i + 1}"}).encode(),
                                             headers={"Content-Type": "application/json"}, method="POST")
            notes.append(json.load(urllib.request.urlopen(request))["id"])
        cpu_before = cpu_seconds(server.pid)
        results = [None] * args.editors
        threads = [threading.Thread(target=editor, args=(host, port, notes[i], args.rate, args.seconds, results, i))
                   for i in range(args.editors)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        time.sleep(2)  # the last closes save
        cpu = cpu_seconds(server.pid) - cpu_before
        memory = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    lost_strokes = lost_points = 0
    for result in results:
        shown = json.loads(subprocess.run([args.inkwell, "note", "show", result["note"], "--library", args.library, "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        stored_strokes = sum(p["strokes"] for p in shown["pages"])
        stored_points = sum(p["points"] for p in shown["pages"])
        lost_strokes += result["strokes"] - stored_strokes
        lost_points += result["points"] - stored_points
    latencies = sorted(l for r in results for l in r["latencies"])
    sent = sum(r["strokes"] for r in results)

    def percentile(p):
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2) if latencies else None

    print(json.dumps({
        "editors": args.editors, "rate": args.rate, "seconds": args.seconds, "recognize": not args.no_recognize,
        "strokes": sent, "points": sum(r["points"] for r in results), "replies": len(latencies),
        "lost_strokes": lost_strokes, "lost_points": lost_points,
        "p50_ms": percentile(0.5), "p99_ms": percentile(0.99), "max_ms": percentile(1.0),
        "server_cpu_s": round(cpu, 1), "server_cpu_share": round(cpu / wall, 2), "peak_rss_mb": round(memory, 1),
    }))


if __name__ == "__main__":
    main()
