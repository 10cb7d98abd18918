#!/usr/bin/env python3
"""Generates a collector bundle whose report is large, to measure how the HTML page scales with
the number of findings and evidence items, the length of the time series and the size of the
CPU profile.

It copies a real sample bundle (BASE, default sample-bundles/s4-oceanbase-softirq/suspect: a
collector bundle with sysstat text, /proc snapshots and a `perf script`), then
- rewrites `sysstat/iostat-x.txt` (sysstat 12 `iostat -x -t` layout, the header line kept from
  the original) with DEVICES block devices over INTERVALS intervals, every device queued
  (`aqu-sz` over 1) and slow (`await` over 20 ms) in every interval, so that `disk.saturation`
  finds each one; its JSON twin is removed so that the text is what is read;
- appends SAMPLES synthetic samples to `perf/perf-script.txt`, on stacks drawn from a random
  call tree of a few thousand functions, so that the flame graph has tens of thousands of
  distinct stacks.
The synthetic lines are the tools' formats filled with made-up numbers: they measure the page,
not any incident. The bundle is the same for the same arguments and SEED.

Usage: bench/gen-report-load.py OUT_DIR [DEVICES] [INTERVALS] [SAMPLES] [SEED]
"""
import datetime
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "sample-bundles", "s4-oceanbase-softirq", "suspect")

START = datetime.datetime(2026, 11, 30, 15, 50, 0)
COLUMNS = ("r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s wrqm/s %wrqm w_await wareq-sz "
           "d/s dkB/s drqm/s %drqm d_await dareq-sz f/s f_await aqu-sz %util").split()


def disk_name(i):
    """sda … sdz, sdaa … sdzz, sdaaa …: the kernel's naming of SCSI disks."""
    letters = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return "sd" + letters


def iostat(path, devices, intervals, rnd):
    with open(path, encoding="utf-8") as f:
        header = f.readline()
    names = [disk_name(i) for i in range(devices)]
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n")
        for k in range(intervals):
            at = START + datetime.timedelta(seconds=5 * k)
            out.write(at.strftime("%Y-%m-%dT%H:%M:%S+0800") + "\n")
            out.write("avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
                      "            3.16    0.00    1.09   20.03    0.00   75.72\n\n")
            out.write("Device    " + " ".join(f"{c:>8}" for c in COLUMNS) + "\n")
            for n in names:
                wait = 40 + rnd.random() * 60
                vals = [5.0, 20.0, 0, 0, wait, 4.0, 120.0, 900.0, 0, 0, wait, 7.5,
                        0, 0, 0, 0, 0, 0, 0, 0, 3 + rnd.random() * 9, 99.0]
                out.write(f"{n:<10}" + " ".join(f"{v:8.2f}" for v in vals) + "\n")
            out.write("\n\n")


def perf_script(path, samples, rnd):
    funcs = [f"fn_{i:04d}_{rnd.choice(['read', 'write', 'lock', 'hash', 'parse', 'send'])}"
             for i in range(4000)]
    children = {f: rnd.sample(funcs, 4) for f in funcs[:800]}
    roots = funcs[:12]
    with open(path, "a", encoding="utf-8") as out:
        t = 10_000.0
        for i in range(samples):
            stack = [rnd.choice(roots)]
            for _ in range(rnd.randint(3, 24)):
                nxt = children.get(stack[-1])
                if not nxt:
                    break
                stack.append(rnd.choice(nxt))
            t += 0.001
            out.write(f"\nobserver {30000 + i % 64} [{i % 64:03d}] {t:.6f}:    1000000 "
                      "cpu-clock:ppp: \n")
            for depth, fn in enumerate(reversed(stack)):
                out.write(f"\t{0x400000 + 16 * depth:16x} {fn}+0x{depth:x} (/usr/bin/observer)\n")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    devices = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    intervals = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    samples = int(sys.argv[4]) if len(sys.argv) > 4 else 200_000
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rnd = random.Random(seed)
    if os.path.exists(out):
        shutil.rmtree(out)
    shutil.copytree(BASE, out)
    iostat(os.path.join(out, "sysstat", "iostat-x.txt"), devices, intervals, rnd)
    json_twin = os.path.join(out, "sysstat", "iostat-x.json")
    if os.path.exists(json_twin):
        os.remove(json_twin)
    perf_script(os.path.join(out, "perf", "perf-script.txt"), samples, rnd)


if __name__ == "__main__":
    main()
