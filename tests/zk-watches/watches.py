#!/usr/bin/python3
"""Fill a ZooKeeper server with watches: N znodes, M client sessions, every session watching
every znode (N x M data watches), then hold the sessions open until SIGTERM or SIGINT.

Usage: watches.py --port PORT [--znodes N] [--sessions M] [--ready FILE]

The first session sets its N watches through kazoo's public API (`exists` with a watch, sent
asynchronously). The other sessions register theirs the way a ZooKeeper client re-registers its
watches after a reconnect: SetWatches requests (opcode 101) carrying many paths each. The server
stores both in the same watch manager (DataTree.setWatches -> addWatch); kazoo itself never sends
SetWatches, and its one-request-per-watch API reaches about 8 000 watches per second on two
cores, too slow for a million.

When all watches are in place (the server's `mntr` zk_watch_count is N x M) it writes FILE
(`key value` lines: znodes, sessions, watches, seconds per phase) and waits. Exit status 1 (with
the reason on stderr) when the server does not get there.
"""

import argparse
import os
import signal
import socket
import sys
import time
from collections import namedtuple

from kazoo.client import KazooClient
from kazoo.protocol.serialization import int_struct, long_struct, write_string

ROOT = "/rca-watches"
# Paths per SetWatches request: about 17 bytes each, far below jute.maxbuffer (1 MiB); the Java
# client splits its own SetWatches at 128 KiB.
PATHS_PER_REQUEST = 2000


class SetWatches(
    namedtuple("SetWatches", "relative_zxid data_watches exist_watches child_watches")
):
    """SetWatches request: long relativeZxid, then three vectors of paths. A data watch on an
    existing znode not modified after relativeZxid is added to the watch manager as is."""

    type = 101

    def serialize(self):
        b = bytearray(long_struct.pack(self.relative_zxid))
        for paths in (self.data_watches, self.exist_watches, self.child_watches):
            b.extend(int_struct.pack(len(paths)))
            for p in paths:
                b.extend(write_string(p))
        return b

    @classmethod
    def deserialize(cls, _buffer, _offset):
        return True  # the reply has no body

    def __repr__(self):
        return "SetWatches(%d data watches)" % len(self.data_watches)


def four_letter(port, word):
    """The server's answer to a four-letter word."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(word.encode())
        chunks = []
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
    return b"".join(chunks).decode(errors="replace")


def mntr_value(port, key):
    for line in four_letter(port, "mntr").splitlines():
        k, _, v = line.partition("\t")
        if k == key:
            return int(float(v))
    return None


def wait_for_watches(port, want, timeout=60.0):
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        got = mntr_value(port, "zk_watch_count")
        if got == want:
            return got
        time.sleep(0.2)
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--znodes", type=int, default=10000)
    ap.add_argument("--sessions", type=int, default=100)
    ap.add_argument("--ready", help="file written once the watches are in place")
    a = ap.parse_args()

    hosts = "127.0.0.1:%d" % a.port
    times = {}

    t = time.monotonic()
    main_client = KazooClient(hosts=hosts, timeout=30)
    main_client.start(timeout=30)
    main_client.ensure_path(ROOT)
    paths = ["%s/n%06d" % (ROOT, i) for i in range(a.znodes)]
    for i in range(0, len(paths), 1000):  # multi transactions of 1000 creates
        tx = main_client.transaction()
        for p in paths[i : i + 1000]:
            tx.create(p, b"")
        for r in tx.commit():
            if isinstance(r, Exception):
                sys.exit("creating znodes failed: %r" % r)
    times["create_s"] = time.monotonic() - t
    # Every znode was created at or before this zxid: SetWatches relative to it adds the watches
    # without firing them.
    relative_zxid = main_client.last_zxid

    t = time.monotonic()
    sessions = []
    for _ in range(a.sessions):
        c = KazooClient(hosts=hosts, timeout=30)
        c.start(timeout=30)
        sessions.append(c)
    times["connect_s"] = time.monotonic() - t

    def ignore(_event):
        pass

    # Session 1: the public API, one exists() per znode.
    t = time.monotonic()
    pending = [sessions[0].exists_async(p, watch=ignore) for p in paths]
    for r in pending:
        if r.get(timeout=60) is None:
            sys.exit("exists() found no znode")
    times["exists_s"] = time.monotonic() - t
    got = wait_for_watches(a.port, a.znodes, timeout=10)
    if got != a.znodes:
        sys.exit("after exists() on %d znodes the server counts %s watches" % (a.znodes, got))

    # The other sessions: SetWatches.
    t = time.monotonic()
    pending = []
    for c in sessions[1:]:
        for i in range(0, len(paths), PATHS_PER_REQUEST):
            r = c.handler.async_result()
            c._call(SetWatches(relative_zxid, paths[i : i + PATHS_PER_REQUEST], [], []), r)
            pending.append(r)
    for r in pending:
        r.get(timeout=60)
    want = a.znodes * a.sessions
    got = wait_for_watches(a.port, want)
    times["setwatches_s"] = time.monotonic() - t
    if got != want:
        sys.exit("the server counts %s watches, expected %d" % (got, want))

    # Until here SIGTERM ends the process at once; from here on it ends the wait below.
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    if a.ready:
        tmp = a.ready + ".tmp"
        with open(tmp, "w") as f:
            f.write("znodes %d\nsessions %d\nwatches %d\n" % (a.znodes, a.sessions, got))
            for k, v in times.items():
                f.write("%s %.2f\n" % (k, v))
        os.rename(tmp, a.ready)

    while not stop:
        time.sleep(0.2)
    # Leave without closing the sessions one by one: the server is stopped next anyway.
    os._exit(0)


if __name__ == "__main__":
    main()
