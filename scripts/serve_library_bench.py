#!/usr/bin/env python3
"""The library view with many notes: how long `GET /api/library` takes (median of 5, after one to warm
up), and how long headless Chromium takes from navigation to every note card on the page.

    scripts/serve_library_bench.py INKWELL LIBRARY    (prints one JSON object)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from browser_test import Chromium, Tab  # noqa: E402


def main():
    inkwell, library = sys.argv[1], sys.argv[2]
    server = subprocess.Popen([inkwell, "serve", "--library", library, "--port", "0", "--no-recognize"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    profile = tempfile.mkdtemp(prefix="inkwell-bench-profile-")
    browser = None
    try:
        started = time.perf_counter()
        base = re.search(r"http://\S+", server.stdout.readline()).group(0)
        startup = time.perf_counter() - started
        times = []
        for _ in range(6):
            began = time.perf_counter()
            notes = len(json.load(urllib.request.urlopen(f"{base}api/library"))["notes"])
            times.append(time.perf_counter() - began)
        api = sorted(times[1:])[2]
        browser = Chromium(profile)
        shown = []
        for _ in range(3):
            tab = Tab(browser, "about:blank")
            tab.call("Page.navigate", url=base)
            tab.wait_for(f"document.querySelectorAll('.note').length === {notes}", timeout=30, step=0.01)
            shown.append(tab.js("performance.now()") / 1000)
        print(json.dumps({"notes": notes, "startup_ms": round(startup * 1000, 1), "api_library_ms": round(api * 1000, 1),
                          "view_shown_ms": round(1000 * sorted(shown)[1], 1)}))
    finally:
        if browser:
            browser.close()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
