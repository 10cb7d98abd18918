#!/usr/bin/python3
"""Keep a ZooKeeper server allocating: a few large znodes read over and over, without watches.

Usage: churn.py --port PORT [--large N] [--size BYTES] [--sessions M] [--inflight K]
                [--ready FILE]

Creates N znodes of BYTES bytes each under /rca-churn (BYTES below jute.maxbuffer, 1 MiB by
default), then reads them with getData from M sessions, K requests in flight per session, until
SIGTERM or SIGINT. No watch is set and no znode is changed after its creation, so the server's
watch count stays as it was and its live data grows only by the N znodes; every reply allocates
buffers of about BYTES on the server that are garbage once the reply is sent.

Writes FILE (`key value` lines: znodes, bytes, replies so far) once every session has had a
reply, then keeps reading. Prints `replies N` on exit. Exit status 1 (reason on stderr) when a
reply has the wrong size or the server goes away.
"""

import argparse
import os
import signal
import sys

from kazoo.client import KazooClient

ROOT = "/rca-churn"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--large", type=int, default=4)
    ap.add_argument("--size", type=int, default=900 * 1024)
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument("--inflight", type=int, default=4)
    ap.add_argument("--ready", help="file written once the reads are under way")
    a = ap.parse_args()

    hosts = "127.0.0.1:%d" % a.port
    clients = []
    for _ in range(max(a.sessions, 1)):
        c = KazooClient(hosts=hosts, timeout=30)
        c.start(timeout=30)
        clients.append(c)
    clients[0].ensure_path(ROOT)
    paths = ["%s/big%02d" % (ROOT, i) for i in range(a.large)]
    data = bytes(i % 251 for i in range(a.size))
    for p in paths:
        if clients[0].exists(p) is None:
            clients[0].create(p, data)

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))

    # K requests in flight per session; each reply is checked and replaced by the next request.
    pending = []
    for i, c in enumerate(clients):
        for k in range(a.inflight):
            pending.append((i, c.get_async(paths[(i + k) % len(paths)])))
    replies = 0
    answered = set()
    ready_written = False
    while not stop and pending:
        i, r = pending.pop(0)
        try:
            value, _stat = r.get(timeout=60)
        except Exception as e:  # noqa: BLE001 - any failure ends the run with its reason
            sys.exit("getData failed after %d replies: %r" % (replies, e))
        if len(value) != a.size:
            sys.exit("getData returned %d bytes, expected %d" % (len(value), a.size))
        replies += 1
        answered.add(i)
        pending.append((i, clients[i].get_async(paths[replies % len(paths)])))
        if a.ready and not ready_written and len(answered) == len(clients):
            tmp = a.ready + ".tmp"
            with open(tmp, "w") as f:
                f.write("znodes %d\nbytes %d\nreplies %d\n" % (a.large, a.size, replies))
            os.rename(tmp, a.ready)
            ready_written = True
    print("replies %d" % replies)
    sys.stdout.flush()
    # The server is stopped next anyway: no orderly close of every session.
    os._exit(0)


if __name__ == "__main__":
    main()
