#!/usr/bin/env python3
"""Cross-checks the S1 sample bundle: every rate and percentage against the counters it derives from.

Usage: check-s1.py BUNDLE_DIR

Prints one line per check (`ok` or `MISMATCH`) and exits 1 on any mismatch. Tolerances are the
rounding of the tools (two decimals) plus the few hundredths of a second between a snapshot and
the sampler's interval boundary.
"""

import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
fails = 0


def read(p):
    return (root / p).read_text()


def check(name, got, want, tol):
    global fails
    ok = abs(got - want) <= tol
    fails += not ok
    print("%-8s %-70s got %.3f want %.3f (±%g)" % ("ok" if ok else "MISMATCH", name, got, want, tol))


def manifest_times():
    t = {}
    for l in read("manifest.tsv").splitlines():
        f = l.split("\t")
        if f[0] == "artifact" and f[5]:
            t[f[1]] = (float(f[5]), float(f[6]))
    return t


T = manifest_times()
window = T["proc/stat.end"][0] - T["proc/stat.start"][0]

# /proc/stat deltas against mpstat's average.
def stat_cpu(p):
    return [int(x) for x in read(p).splitlines()[0].split()[1:9]]


a, b = stat_cpu("proc/stat.start"), stat_cpu("proc/stat.end")
d = [y - x for x, y in zip(a, b)]
tot = sum(d)
avg = [l for l in read("sysstat/mpstat-P-ALL.txt").splitlines() if l.startswith("Average:") and " all " in l][0].split()
names = ["usr", "nice", "sys", "idle", "iowait", "irq", "soft", "steal"]
mp = dict(zip(["usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest", "gnice", "idle"], map(float, avg[2:])))
for k, v in zip(names, d):
    check("mpstat Average %%%s vs /proc/stat delta" % k, mp[k], v * 100.0 / tot, 0.02)
check("busy (usr+sys+irq+soft+steal), %", mp["usr"] + mp["sys"] + mp["irq"] + mp["soft"] + mp["steal"], 42.0, 0.5)
check("iowait, % (case S1: 37.9)", mp["iowait"], 37.9, 0.5)

# diskstats deltas against the sum of iostat's intervals.
def diskstats(p):
    out = {}
    for l in read(p).splitlines():
        f = l.split()
        out[f[2]] = [int(x) for x in f[3:]]
    return out


s, e = diskstats("proc/diskstats"), diskstats("proc/diskstats.end")
io = read("sysstat/iostat-x.txt").split("\n\n\n")
for dev in ("sda", "sdb", "sdc"):
    rows = []
    for rep in io[1:]:
        for l in rep.splitlines():
            if l.startswith(dev + " "):
                rows.append([float(x) for x in l.split()[1:]])
    rs = sum(r[0] for r in rows)
    ws = sum(r[6] for r in rows)
    await_ticks = sum(r[0] * r[4] + r[6] * r[10] for r in rows)
    check("%s reads: iostat r/s summed vs diskstats" % dev, rs, e[dev][0] - s[dev][0], 0.5)
    check("%s writes: iostat w/s summed vs diskstats" % dev, ws, e[dev][4] - s[dev][4], 0.5)
    check("%s r+w ticks: iostat await x ios vs diskstats, ms" % dev, await_ticks,
          (e[dev][3] - s[dev][3]) + (e[dev][7] - s[dev][7]), 0.01 * (rs + ws) + 1)
    check("%s aqu-sz mean vs diskstats time_in_queue / window" % dev, sum(r[20] for r in rows) / len(rows),
          (e[dev][10] - s[dev][10]) / 1000.0 / len(rows), 0.02)

# /proc/net/dev against sar.
def netdev(p):
    for l in read(p).splitlines():
        if l.strip().startswith("eth0:"):
            return [int(x) for x in l.split(":", 1)[1].split()]


n0, n1 = netdev("proc/net/dev.start"), netdev("proc/net/dev.end")
secs = T["proc/net/dev.end"][0] - T["proc/net/dev.start"][0]
edev = [l.split() for l in read("sysstat/sar-n-EDEV.txt").splitlines() if l.startswith("Average:") and "eth0" in l][0]
sdev = [l.split() for l in read("sysstat/sar-n-DEV.txt").splitlines() if l.startswith("Average:") and "eth0" in l][0]
check("eth0 drops/s: /proc/net/dev delta / seconds vs sar rxdrop/s", (n1[3] - n0[3]) / secs, float(edev[5]), 3.0)
check("eth0 rx packets/s: /proc/net/dev vs sar rxpck/s", (n1[1] - n0[1]) / secs, float(sdev[2]), 600.0)
drops = [float(l.split()[5]) for l in read("sysstat/sar-n-EDEV.txt").splitlines()
         if re.match(r"^\d\d:\d\d:\d\d\s+eth0", l)]
check("eth0 drops/s lowest interval (case S1: 124-318)", min(drops), 124, 0)
check("eth0 drops/s highest interval (case S1: 124-318)", max(drops), 318, 0)

# vmstat si/so against /proc/vmstat.
def pv(p):
    return {l.split()[0]: int(l.split()[1]) for l in read(p).splitlines()}


v0, v1 = pv("proc/vmstat.start"), pv("proc/vmstat.end")
vm = [l.split() for l in read("sysstat/vmstat.txt").splitlines() if re.match(r"^\s*\d", l)][1:]
check("vmstat si mean vs pswpin delta x 4 KiB / window", sum(int(r[6]) for r in vm) / len(vm),
      (v1["pswpin"] - v0["pswpin"]) * 4.0 / len(vm), 4.0)
check("vmstat so mean vs pswpout delta x 4 KiB / window", sum(int(r[7]) for r in vm) / len(vm),
      (v1["pswpout"] - v0["pswpout"]) * 4.0 / len(vm), 4.0)
check("vmstat bi mean vs pgpgin delta / window", sum(int(r[8]) for r in vm) / len(vm),
      (v1["pgpgin"] - v0["pgpgin"]) / len(vm), 2.0)

# Interrupts: /proc/interrupts deltas against vmstat in; the NIC's all on CPU 0.
def irqs(p):
    out = {}
    lines = read(p).splitlines()
    ncpu = len(lines[0].split())
    for l in lines[1:]:
        f = l.split()
        key = f[0].rstrip(":")
        vals = [int(x) for x in f[1:1 + ncpu] if x.isdigit()]
        out[key + ("/" + f[-1] if key.isdigit() else "")] = vals
    return out


i0, i1 = irqs("proc/interrupts.start"), irqs("proc/interrupts.end")
total = sum(sum(y) - sum(x) for k, (x, y) in ((k, (i0[k], i1[k])) for k in i0))
check("vmstat in mean vs /proc/interrupts delta / window", sum(int(r[10]) for r in vm) / len(vm), total / len(vm), 2.0)
nic = [y - x for x, y in zip(i0["57/eth0-rxtx-0"], i1["57/eth0-rxtx-0"])]
check("eth0-rxtx-0 interrupts on CPU 0, share", nic[0] / float(sum(nic)), 1.0, 0.0)

# jstat: GC time over the window against the GC log's pauses in it.
js = [l.split() for l in read("jvm/1742/jstat-gcutil.txt").splitlines()[1:]]
t0, t1 = float(js[0][0]), float(js[-1][0])
ygct = float(js[-1][8]) - float(js[0][8])
pauses = [(float(m.group(1)), float(m.group(2))) for m in
          re.finditer(r"^\[([\d.]+)s\]\[info\]\[gc\] GC\(\d+\) Pause Young.* ([\d.]+)ms$", read("jvm/1742/gc.log"), re.M)]
inside = sum(p for t, p in pauses if t0 <= t and t + p / 1000.0 <= t1)
check("jstat YGCT delta vs GC-log pauses ending in the jstat window, s", ygct, inside / 1000.0, 0.002)
print("%d mismatch(es)" % fails)
sys.exit(1 if fails else 0)
