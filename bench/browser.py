"""Headless Chromium driven over the DevTools protocol on a pipe, for the benchmarks that open
report pages: `Browser().load(url)` gives the seconds from navigation to the load event in a
fresh tab and the page's element count. Offline: every host name resolves to nothing.

The flags are those of a scripted, offline headless browser: no GPU, no sandbox (the
benchmarks may run as root), no background networking or component updates, a fresh profile.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND"]


class Browser:
    """Headless Chromium over the DevTools protocol on a pipe (fds 3 and 4 of the browser)."""

    def __init__(self, chromium="/usr/bin/chromium", work=None):
        self.profile = tempfile.mkdtemp(dir=work)
        # The shell moves our pipes to fds 3 and 4 before starting the browser.
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec 3<&0 4>&1 0</dev/null 1>/dev/null; exec "$0" "$@"', chromium,
             *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
             "about:blank"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.to_w = self.proc.stdin.fileno()
        self.from_r = self.proc.stdout.fileno()
        self.buf = b""
        self.n = 0

    def recv(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                sys.exit("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.n += 1
        m = {"id": self.n, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.to_w, json.dumps(m).encode() + b"\0")
        while True:
            r = self.recv()
            if r.get("id") == self.n:
                if "error" in r:
                    sys.exit(f"{method}: {r['error']}")
                return r["result"]

    def wait(self, method, session):
        while True:
            r = self.recv()
            if r.get("method") == method and r.get("sessionId") == session:
                return r

    def load(self, url):
        """Seconds from navigation to the load event in a fresh tab, and the DOM's node count."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=s)
        t = time.monotonic()
        self.call("Page.navigate", {"url": url}, session=s)
        self.wait("Page.loadEventFired", s)
        took = time.monotonic() - t
        nodes = self.call("Runtime.evaluate",
                          {"expression": "document.getElementsByTagName('*').length",
                           "returnByValue": True}, session=s)["result"]["value"]
        self.call("Target.closeTarget", {"targetId": target})
        return took, nodes

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
