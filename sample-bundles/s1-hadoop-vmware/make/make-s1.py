#!/usr/bin/env python3
"""Builds the S1 sample bundle (Hadoop DataNode on a VMware guest) from a real collection.

Usage: make-s1.py BASE.tar.gz OUTDIR

BASE is the bundle collect-base.sh writes: a real `collector.sh --duration 30 --interval 1
--pid PID --no-perf` run on a 2-vCPU KVM guest (Debian 12, sysstat 12.6.1, procps-ng 4.0.2,
iproute2 6.1, ethtool 6.1, OpenJDK 17.0.15) with a stand-in DataNode JVM. This program keeps
what that run measured about the JVM and the collector itself (the manifest's records, order,
commands and times; the JVM's jcmd outputs, thread dumps, class histogram, jstat layout, GC log
format, /proc files) and rewrites the host into the S1 guest: 8 vCPUs, VMware, vmxnet3 with one
queue, saturated data disks, active swapping under an inflated balloon, chronyd beside VMware
Tools time sync, a busy DataNode with long GC pauses. Every number it writes comes from one
model (below), so counters, rates and percentages agree with each other:

  * per-CPU jiffies per interval -> mpstat (text, JSON), /proc/stat snapshots, vmstat us/sy/id/wa/st,
    iostat avg-cpu, top's %Cpu line;
  * per-device I/O per interval -> iostat (text, JSON) computed as sysstat does from
    /proc/diskstats deltas, and the two diskstats snapshots;
  * eth0 packets, bytes and drops per interval -> sar -n DEV/EDEV, /proc/net/dev snapshots,
    ip -s link and ethtool -S (cumulative at their own times), /proc/net/snmp, netstat -s, nstat;
  * interrupts and soft-IRQs per CPU per interval -> /proc/interrupts, /proc/softirqs, vmstat in;
  * swap-in/out and block I/O per interval -> vmstat si/so/bi/bo, /proc/vmstat pswpin/pswpout/pgpgin/pgpgout;
  * GC pauses -> the GC log's pause lines, jstat's YGC/YGCT/E/O columns, thread-dump timestamps.

Output: OUTDIR/rca-dn01.example-<same UTC time as BASE>/ with manifest.tsv, as collector.sh lays
it out. Deterministic: the same BASE gives the same output.
"""

import math
import random
import re
import sys
import tarfile
from pathlib import Path

R = random.Random(20261130)

HOST = "dn01.example"
KREL = "6.1.0-37-amd64"
KVER = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.140-1 (2025-05-22)"
NCPU = 8
PID = 1742  # the DataNode
NM_PID = 1689  # the NodeManager
HDFS_UID = 995
YARN_UID = 994
HADOOP = "/opt/hadoop-3.3.6"
UPTIME_S = 9 * 86400 + 2 * 3600 + 14 * 60 + 7  # host uptime at the window start
DN_AGE_S = UPTIME_S - 41  # the DataNode started 41 s after boot
MEM_TOTAL_KIB = 32863952
SWAP_TOTAL_KIB = 8388604
BALLOON_MB = 4096
ETH_MAC = "00:50:56:9a:3c:17"
ETH_IP = "192.0.2.21"


def die(msg):
    sys.exit("make-s1.py: " + msg)


# --------------------------------------------------------------------------------------------
# The base bundle
# --------------------------------------------------------------------------------------------


def read_base(path):
    files = {}
    with tarfile.open(path, "r:gz") as t:
        top = None
        for m in t.getmembers():
            if not m.isfile():
                continue
            top, _, rel = m.name.partition("/")
            files[rel] = t.extractfile(m).read().decode()
    return top, files


class Manifest:
    """manifest.tsv: meta lines and artifact records, order kept."""

    def __init__(self, text):
        self.lines = []
        for l in text.rstrip("\n").split("\n"):
            f = l.split("\t")
            self.lines.append(f)

    def meta(self, key):
        for f in self.lines:
            if f[0] == "meta" and f[1] == key:
                return f[2]
        return None

    def set_meta(self, key, value):
        for f in self.lines:
            if f[0] == "meta" and f[1] == key:
                f[2] = value
                return
        die("no meta " + key)

    def rec(self, path):
        for f in self.lines:
            if f[0] == "artifact" and f[1] == path:
                return f
        die("no manifest record " + path)

    def records(self):
        return [f for f in self.lines if f[0] == "artifact"]

    def text(self):
        return "\n".join("\t".join(f) for f in self.lines) + "\n"


# --------------------------------------------------------------------------------------------
# Small formatting helpers
# --------------------------------------------------------------------------------------------


def split_jiffies(total, shares):
    """Integer jiffies per category summing to total, close to the given shares (sum 1)."""
    raw = [total * s for s in shares]
    out = [int(math.floor(x)) for x in raw]
    rest = total - sum(out)
    order = sorted(range(len(raw)), key=lambda i: raw[i] - out[i], reverse=True)
    for i in order[:rest]:
        out[i] += 1
    return out


def jitter(x, rel):
    return x * (1.0 + R.uniform(-rel, rel))


# --------------------------------------------------------------------------------------------
# The model: what happened on the guest, second by second
# --------------------------------------------------------------------------------------------

N = 30  # intervals of 1 s (collector --duration 30 --interval 1)
CATS = ["usr", "nice", "sys", "iowait", "irq", "soft", "steal", "idle"]
# Mean shares (%) per CPU. CPU 0 takes every receive interrupt of the single-queue NIC and its
# soft-IRQ work; the others run the DataNode, the NodeManager and the YARN containers and wait on
# the data disks. Over all 8 CPUs: usr 27.0, sys 8.5, irq 0.6, soft 4.7, steal 1.2 (busy 42.0),
# iowait 37.9, idle 20.1.
CPU_MEAN = {0: dict(usr=14.0, nice=0.0, sys=9.0, iowait=24.0, irq=1.6, soft=33.0, steal=1.4)}
for _c in range(1, NCPU):
    CPU_MEAN[_c] = dict(usr=28.9, nice=0.0, sys=8.4, iowait=39.75, irq=0.5, soft=0.6, steal=1.2)


class Model:
    def __init__(self):
        self.cpu = []  # [interval][cpu] -> {cat: jiffies}
        for i in range(N):
            row = []
            for c in range(NCPU):
                total = R.choice([99, 100, 100, 100, 101])
                m = CPU_MEAN[c]
                sh = {}
                for k in ("usr", "sys", "irq", "steal"):
                    sh[k] = max(0.0, jitter(m[k], 0.18))
                sh["nice"] = 0.0
                sh["soft"] = min(46.0, jitter(m["soft"], 0.2)) if c == 0 else jitter(m["soft"], 0.5)
                sh["iowait"] = jitter(m["iowait"], 0.15)
                busy = sum(sh.values())
                sh["idle"] = max(2.0, 100.0 - busy)
                s = sum(sh[k] for k in CATS)
                jf = split_jiffies(total, [sh[k] / s for k in CATS])
                row.append(dict(zip(CATS, jf)))
            self.cpu.append(row)
        # Block devices: (r/s, rkB per request, w/s, wkB per request, r_await, w_await).
        self.dev_mean = {
            "sda": (95.0, 16.0, 48.0, 52.0, 9.0, 17.0),
            "sdb": (55.0, 128.0, 95.0, 256.0, 62.0, 103.0),
            "sdc": (48.0, 128.0, 102.0, 256.0, 58.0, 98.0),
        }
        self.disk = []  # [interval][dev] -> diskstats deltas
        for i in range(N):
            row = {}
            for d, (r, rsz, w, wsz, ra, wa) in self.dev_mean.items():
                nr = max(1, int(round(jitter(r, 0.2))))
                nw = max(1, int(round(jitter(w, 0.2))))
                rs = int(round(nr * jitter(rsz, 0.1) * 2))  # 512-byte sectors
                ws = int(round(nw * jitter(wsz, 0.1) * 2))
                rt = int(round(nr * jitter(ra, 0.15)))
                wt = int(round(nw * jitter(wa, 0.15)))
                io = R.randint(985, 1000) if d != "sda" else R.randint(520, 640)
                row[d] = dict(
                    r=nr, rm=int(round(nr * (0.07 if d != "sda" else 0.02))), rs=rs, rt=rt,
                    w=nw, wm=int(round(nw * (0.23 if d != "sda" else 0.4))), ws=ws, wt=wt,
                    io=io, q=rt + wt,
                )
            self.disk.append(row)
        # eth0 and lo per interval. Receive drops 124-318/s (case S1), the ring out of buffers.
        drops = [R.randint(124, 318) for _ in range(N)]
        drops[4], drops[19] = 124, 318  # the case's lowest and highest
        self.net = []
        for i in range(N):
            rxp = int(jitter(45000, 0.08))
            txp = int(jitter(36000, 0.08))
            lop = int(jitter(310, 0.2))
            self.net.append(dict(
                rxp=rxp, rxb=int(rxp * jitter(1310, 0.03)), txp=txp, txb=int(txp * jitter(1280, 0.03)),
                drop=drops[i], lop=lop, lob=int(lop * jitter(890, 0.1)),
            ))
        # Swap traffic (KiB/s) and the other vmstat columns.
        self.vm = []
        for i in range(N):
            si = int(jitter(1500, 0.35))
            so = int(jitter(2200, 0.35))
            self.vm.append(dict(
                pswpin=si // 4, pswpout=so // 4,
                r=R.randint(3, 7), b=R.randint(9, 15),
                cs=int(jitter(47000, 0.1)), forks=R.randint(8, 30),
                pgfault=int(jitter(52000, 0.15)), pgmajfault=int(jitter(290, 0.3)),
            ))
        # Interrupts per CPU per interval: NIC on CPU 0, pvscsi on CPU 3, VMCI on CPU 5.
        self.irq = []
        for i in range(N):
            ios = sum(self.disk[i][d]["r"] + self.disk[i][d]["w"] for d in self.disk[i])
            self.irq.append(dict(
                nic=int(jitter(9200, 0.06)), pvscsi=int(ios * jitter(0.98, 0.02)),
                vmci=R.randint(1, 4),
                LOC=[R.randint(238, 250) for _ in range(NCPU)],
                RES=[int(jitter(900, 0.25)) for _ in range(NCPU)],
                CAL=[int(jitter(300, 0.3)) for _ in range(NCPU)],
                TLB=[int(jitter(600, 0.3)) for _ in range(NCPU)],
                IWI=[R.randint(4, 16) for _ in range(NCPU)],
            ))
        self.soft = []
        for i in range(N):
            net_rx = [int(self.irq[i]["nic"] * jitter(1.03, 0.02))] + [R.randint(10, 50) for _ in range(NCPU - 1)]
            block = [R.randint(5, 25) for _ in range(NCPU)]
            block[3] = int(self.irq[i]["pvscsi"] * jitter(0.95, 0.03))
            self.soft.append(dict(
                HI=[0] * NCPU,
                TIMER=[R.randint(40, 90) for _ in range(NCPU)],
                NET_TX=[R.randint(30, 60)] + [R.randint(5, 20) for _ in range(NCPU - 1)],
                NET_RX=net_rx,
                BLOCK=block,
                IRQ_POLL=[0] * NCPU,
                TASKLET=[R.randint(0, 3)] + [0] * (NCPU - 1),
                SCHED=[R.randint(250, 450) for _ in range(NCPU)],
                HRTIMER=[R.randint(0, 8) for _ in range(NCPU)],
                RCU=[R.randint(120, 260) for _ in range(NCPU)],
            ))

    # Sums over the window and over parts of it.
    def cpu_sum(self, upto=N):
        out = [{k: 0 for k in CATS} for _ in range(NCPU)]
        for i in range(upto):
            for c in range(NCPU):
                for k in CATS:
                    out[c][k] += self.cpu[i][c][k]
        return out


M = Model()


# --------------------------------------------------------------------------------------------
# Sampler outputs (sysstat 12.6.1, procps-ng 4.0.2), in the layouts of the base's own files
# --------------------------------------------------------------------------------------------


def sysstat_header(date):
    return "Linux %s (%s) \t%s \t_x86_64_\t(%d CPU)\n" % (KREL, HOST, date, NCPU)


def base_times(text, first_col_re=r"^(\d\d:\d\d:\d\d)\s+all\s"):
    return re.findall(first_col_re, text, re.M)


def cpu_pct(j):
    tot = sum(j[k] for k in CATS)
    return {k: j[k] * 100.0 / tot for k in CATS}


def cpu_all(i):
    return {k: sum(M.cpu[i][c][k] for c in range(NCPU)) for k in CATS}


MP_COLS = ["usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest", "gnice", "idle"]


def mp_row(t, cpu, p):
    vals = [p.get(k, 0.0) for k in MP_COLS]
    return "%-11s %4s" % (t, cpu) + "".join(" %7.2f" % v for v in vals) + "\n"


def mpstat_text(base, date):
    times = base_times(base)
    head_t = re.search(r"^(\d\d:\d\d:\d\d)\s+CPU\s", base, re.M).group(1)
    hdr = "     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"
    out = [sysstat_header(date), "\n"]
    prev = head_t
    for i in range(N):
        out.append("%-8s" % prev + hdr)
        out.append(mp_row(times[i], "all", cpu_pct(cpu_all(i))))
        for c in range(NCPU):
            out.append(mp_row(times[i], str(c), cpu_pct(M.cpu[i][c])))
        out.append("\n")
        prev = times[i]
    out.append("%-8s" % "Average:" + hdr)
    tot = M.cpu_sum()
    allsum = {k: sum(tot[c][k] for c in range(NCPU)) for k in CATS}
    out.append(mp_row("Average:", "all", cpu_pct(allsum)))
    for c in range(NCPU):
        out.append(mp_row("Average:", str(c), cpu_pct(tot[c])))
    return "".join(out)


def mpstat_json(base_text_times, date):
    times = base_text_times
    stats = []
    for i in range(N):
        loads = []
        for name, j in [("all", cpu_all(i))] + [(str(c), M.cpu[i][c]) for c in range(NCPU)]:
            p = cpu_pct(j)
            loads.append(
                '\t\t\t\t\t\t{"cpu": "%s", "usr": %.2f, "nice": %.2f, "sys": %.2f, "iowait": %.2f, '
                '"irq": %.2f, "soft": %.2f, "steal": %.2f, "guest": 0.00, "gnice": 0.00, "idle": %.2f}'
                % (name, p["usr"], p["nice"], p["sys"], p["iowait"], p["irq"], p["soft"], p["steal"], p["idle"])
            )
        stats.append(
            '\t\t\t\t{\n\t\t\t\t\t"timestamp": "%s",\n\t\t\t\t\t"cpu-load": [\n%s\n\t\t\t\t\t]\n\t\t\t\t}'
            % (times[i], ",\n".join(loads))
        )
    return (
        '{"sysstat": {\n\t"hosts": [\n\t\t{\n\t\t\t"nodename": "%s",\n\t\t\t"sysname": "Linux",\n'
        '\t\t\t"release": "%s",\n\t\t\t"machine": "x86_64",\n\t\t\t"number-of-cpus": %d,\n'
        '\t\t\t"date": "%s",\n\t\t\t"statistics": [\n%s\n\t\t\t]\n\t\t}\n\t]\n}}\n'
        % (HOST, KREL, NCPU, date, ",\n".join(stats))
    )


IO_HDR = (
    "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm"
    " w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
)
IO_W = [8, 10, 9, 7, 8, 9, 8, 10, 9, 7, 8, 9, 8, 10, 9, 7, 8, 9, 8, 8, 8, 7]
IO_KEYS = ["r/s", "rkB/s", "rrqm/s", "rrqm", "r_await", "rareq-sz", "w/s", "wkB/s", "wrqm/s", "wrqm",
           "w_await", "wareq-sz", "d/s", "dkB/s", "drqm/s", "drqm", "d_await", "dareq-sz", "f/s",
           "f_await", "aqu-sz", "util"]


def io_stats(d, itv):
    """iostat -x values from diskstats deltas d over itv seconds, as sysstat computes them."""
    r, w = d["r"], d["w"]
    v = {k: 0.0 for k in IO_KEYS}
    v["r/s"] = r / itv
    v["rkB/s"] = d["rs"] / 2.0 / itv
    v["rrqm/s"] = d["rm"] / itv
    v["rrqm"] = 100.0 * d["rm"] / (d["rm"] + r) if d["rm"] + r else 0.0
    v["r_await"] = d["rt"] / r if r else 0.0
    v["rareq-sz"] = d["rs"] / 2.0 / r if r else 0.0
    v["w/s"] = w / itv
    v["wkB/s"] = d["ws"] / 2.0 / itv
    v["wrqm/s"] = d["wm"] / itv
    v["wrqm"] = 100.0 * d["wm"] / (d["wm"] + w) if d["wm"] + w else 0.0
    v["w_await"] = d["wt"] / w if w else 0.0
    v["wareq-sz"] = d["ws"] / 2.0 / w if w else 0.0
    v["aqu-sz"] = d["q"] / itv / 1000.0
    v["util"] = min(100.0, d["io"] / itv / 10.0)
    return v


def io_line(dev, v):
    return "%-13s" % dev + "".join("%*.2f" % (w, v[k]) for w, k in zip(IO_W, IO_KEYS)) + "\n"


def avg_cpu(j):
    tot = sum(j[k] for k in CATS)
    user = (j["usr"]) * 100.0 / tot
    nice = j["nice"] * 100.0 / tot
    system = (j["sys"] + j["irq"] + j["soft"]) * 100.0 / tot
    return [user, nice, system, j["iowait"] * 100.0 / tot, j["steal"] * 100.0 / tot, j["idle"] * 100.0 / tot]


def iostat_reports(base_boot):
    """[(avg-cpu values, {dev: iostat values})] for the since-boot report and the N intervals."""
    reps = []
    boot_cpu, boot_disk, uptime = base_boot
    reps.append((avg_cpu(boot_cpu), {d: io_stats(boot_disk[d], uptime) for d in DEVS}))
    for i in range(N):
        reps.append((avg_cpu(cpu_all(i)), {d: io_stats(M.disk[i][d], 1.0) for d in DEVS}))
    return reps


def iostat_text(base, date, reps):
    stamps = re.findall(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4})$", base, re.M)
    out = [sysstat_header(date), "\n"]
    for n, (cpu, devs) in enumerate(reps):
        out.append(stamps[n] + "\n")
        out.append("avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n")
        out.append("       " + "".join("%8.2f" % x for x in cpu) + "\n\n")
        out.append(IO_HDR)
        for d in DEVS:
            out.append(io_line(d, devs[d]))
        out.append("\n\n")
    return "".join(out)


def iostat_json(date, reps):
    stats = []
    for cpu, devs in reps:
        disks = []
        for d in DEVS:
            v = devs[d]
            disks.append(
                '\t\t\t\t\t\t{"disk_device": "%s", ' % d
                + ", ".join('"%s": %.2f' % (k, v[k]) for k in
                            ["r/s", "w/s", "d/s", "f/s", "rkB/s", "wkB/s", "dkB/s", "rrqm/s", "wrqm/s",
                             "drqm/s", "rrqm", "wrqm", "drqm", "r_await", "w_await", "d_await",
                             "f_await", "rareq-sz", "wareq-sz", "dareq-sz", "aqu-sz", "util"])
                + "}"
            )
        stats.append(
            '\t\t\t\t{\n\t\t\t\t\t"avg-cpu":  {"user": %.2f, "nice": %.2f, "system": %.2f, "iowait": %.2f, '
            '"steal": %.2f, "idle": %.2f},\n\t\t\t\t\t"disk": [\n%s\n\t\t\t\t\t]\n\t\t\t\t}'
            % (tuple(cpu) + (",\n".join(disks),))
        )
    return (
        '{"sysstat": {\n\t"hosts": [\n\t\t{\n\t\t\t"nodename": "%s",\n\t\t\t"sysname": "Linux",\n'
        '\t\t\t"release": "%s",\n\t\t\t"machine": "x86_64",\n\t\t\t"number-of-cpus": %d,\n'
        '\t\t\t"date": "%s",\n\t\t\t"statistics": [\n%s\n\t\t\t]\n\t\t}\n\t]\n}}\n'
        % (HOST, KREL, NCPU, date, ",\n".join(stats))
    )


DEVS = ["sda", "sdb", "sdc"]


# Counters at the start of the window (9 days of uptime, long-run averages below the window's).
BOOT_SHARES = {0: dict(usr=0.12, nice=0.001, sys=0.07, iowait=0.10, irq=0.010, soft=0.09, steal=0.006)}
for _c in range(1, NCPU):
    BOOT_SHARES[_c] = dict(usr=0.19, nice=0.001, sys=0.06, iowait=0.13, irq=0.003, soft=0.004, steal=0.005)


def boot_cpu():
    out = []
    for c in range(NCPU):
        total = UPTIME_S * 100 - R.randint(200, 900)
        sh = dict(BOOT_SHARES[c])
        sh["idle"] = 1.0 - sum(sh.values())
        out.append(dict(zip(CATS, split_jiffies(total, [sh[k] for k in CATS]))))
    return out


def boot_disk():
    """Cumulative diskstats at the window start: long-run rates over the uptime."""
    long_run = {  # r/s, rkB/req, w/s, wkB/req, r_await, w_await, util share
        "sda": (21.0, 14.0, 17.0, 38.0, 4.1, 7.9, 0.16),
        "sdb": (31.0, 128.0, 52.0, 244.0, 19.0, 31.0, 0.47),
        "sdc": (29.0, 128.0, 55.0, 246.0, 18.0, 30.0, 0.46),
    }
    out = {}
    for d, (r, rsz, w, wsz, ra, wa, util) in long_run.items():
        nr = int(r * UPTIME_S)
        nw = int(w * UPTIME_S)
        rt = int(nr * ra)
        wt = int(nw * wa)
        out[d] = dict(r=nr, rm=int(nr * 0.05), rs=int(nr * rsz * 2), rt=rt, w=nw, wm=int(nw * 0.21),
                      ws=int(nw * wsz * 2), wt=wt, io=int(UPTIME_S * 1000 * util), q=rt + wt)
    return out


BOOT_CPU = boot_cpu()
BOOT_DISK = boot_disk()


def vmstat_text(base):
    stamps = re.findall(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)$", base, re.M)
    h1 = "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
    h2 = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"
    rows = []
    # First report: averages since boot.
    bc = {k: sum(BOOT_CPU[c][k] for c in range(NCPU)) for k in CATS}
    rows.append(vm_row(8, 6, MEM_SERIES[0], int(BOOT_VM["pswpin"] * 4 / UPTIME_S),
                       int(BOOT_VM["pswpout"] * 4 / UPTIME_S),
                       int(sum(BOOT_DISK[d]["rs"] for d in DEVS) / 2 / UPTIME_S),
                       int(sum(BOOT_DISK[d]["ws"] for d in DEVS) / 2 / UPTIME_S),
                       int(BOOT_IRQ_TOTAL / UPTIME_S), int(BOOT_CTXT / UPTIME_S), bc, stamps[0]))
    for i in range(N):
        v = M.vm[i]
        rows.append(vm_row(v["r"], v["b"], MEM_SERIES[i + 1], v["pswpin"] * 4, v["pswpout"] * 4,
                           sum(M.disk[i][d]["rs"] for d in DEVS) // 2,
                           sum(M.disk[i][d]["ws"] for d in DEVS) // 2,
                           irq_total(i), v["cs"], cpu_all(i), stamps[i + 1]))
    out = [h1, h2]
    for n, r in enumerate(rows):
        if n and n % 21 == 0:
            out += [h1, h2]
        out.append(r)
    return "".join(out)


def vm_row(r, b, mem, si, so, bi, bo, inn, cs, cpu, stamp):
    tot = sum(cpu[k] for k in CATS)
    pct = lambda x: int(round(x * 100.0 / tot))
    us = pct(cpu["usr"] + cpu["nice"])
    sy = pct(cpu["sys"] + cpu["irq"] + cpu["soft"])
    wa = pct(cpu["iowait"])
    st = pct(cpu["steal"])
    idl = max(0, 100 - us - sy - wa - st)
    swpd, free, buff, cache = mem
    return "%2d %2d %6d %6d %6d %6d %4d %4d %5d %5d %4d %4d %2d %2d %2d %2d %2d %s\n" % (
        r, b, swpd, free, buff, cache, si, so, bi, bo, inn, cs, us, sy, idl, wa, st, stamp)


# --------------------------------------------------------------------------------------------
# /proc snapshots (kernel 6.1 layouts)
# --------------------------------------------------------------------------------------------

# Interrupt lines of a vSphere 7 guest: IO-APIC legacy lines, 32 PCIe root-port hotplug lines
# (00:15.0-00:18.7), PVSCSI (03:00.0), vmxnet3 (0b:00.0: one rx/tx vector and the event
# vector), VMCI (00:07.7). Affinity as irq-affinity.tsv shows it.
IRQ_LINES = [
    (0, "IO-APIC", 2, "edge", "timer"),
    (1, "IO-APIC", 1, "edge", "i8042"),
    (8, "IO-APIC", 8, "edge", "rtc0"),
    (9, "IO-APIC", 9, "fasteoi", "acpi"),
    (12, "IO-APIC", 12, "edge", "i8042"),
    (14, "IO-APIC", 14, "edge", "ata_piix"),
    (15, "IO-APIC", 15, "edge", "ata_piix"),
    (16, "IO-APIC", 16, "fasteoi", "vmwgfx"),
]
for _n in range(32):
    _dev, _fn = 0x15 + _n // 8, _n % 8
    IRQ_LINES.append((24 + _n, "PCI-MSI", ((_dev << 3) | _fn) << 11, "edge", "PCIe PME, pciehp"))
IRQ_LINES += [
    (56, "PCI-MSI", 3 << 19, "edge", "vmw_pvscsi"),
    (57, "PCI-MSI", 11 << 19, "edge", "eth0-rxtx-0"),
    (58, "PCI-MSI", (11 << 19) + 1, "edge", "eth0-event-1"),
    (59, "PCI-MSI", 0x3F << 11, "edge", "vmw_vmci"),
    (60, "PCI-MSI", (0x3F << 11) + 1, "edge", "vmw_vmci"),
]
IRQ_AFFINITY = {0: "0", 1: "2", 8: "5", 9: "0-7", 12: "3", 14: "0-7", 15: "4", 16: "6",
                56: "3", 57: "0", 58: "0", 59: "5", 60: "5"}
ARCH_LINES = [
    ("NMI", "Non-maskable interrupts"), ("LOC", "Local timer interrupts"),
    ("SPU", "Spurious interrupts"), ("PMI", "Performance monitoring interrupts"),
    ("IWI", "IRQ work interrupts"), ("RTR", "APIC ICR read retries"),
    ("RES", "Rescheduling interrupts"), ("CAL", "Function call interrupts"),
    ("TLB", "TLB shootdowns"), ("TRM", "Thermal event interrupts"),
    ("THR", "Threshold APIC interrupts"), ("DFR", "Deferred Error APIC interrupts"),
    ("MCE", "Machine check exceptions"), ("MCP", "Machine check polls"),
]
ARCH_TAIL = [("PIN", "Posted-interrupt notification event"), ("NPI", "Nested posted-interrupt event"),
             ("PIW", "Posted-interrupt wakeup event")]
NR_IRQS = 24 + 8 * NCPU + 24 * 16  # arch_probe_nr_irqs: GSIs + 8 per CPU + 16 per GSI for MSI


def interrupts_at(k):
    """Per-line per-CPU counts after k intervals of the window."""
    rows = {}
    base_pvscsi = int(sum(BOOT_DISK[d]["r"] + BOOT_DISK[d]["w"] for d in DEVS) * 0.97)
    base_nic = int(UPTIME_S * 6100)
    static = {0: [40, 0, 0, 0, 0, 0, 0, 0], 1: [0, 0, 9, 0, 0, 0, 0, 0], 8: [0, 0, 0, 0, 0, 1, 0, 0],
              9: [0] * 8, 12: [0, 0, 0, 15, 0, 0, 0, 0], 14: [0] * 8, 15: [0, 0, 0, 0, 51230, 0, 0, 0],
              16: [0, 0, 0, 0, 0, 0, 812, 0]}
    for irq, _chip, _hw, _trig, _name in IRQ_LINES:
        v = static.get(irq, [0] * NCPU)
        if irq == 56:
            v = [0, 0, 0, base_pvscsi + sum(M.irq[i]["pvscsi"] for i in range(k)), 0, 0, 0, 0]
        elif irq == 57:
            v = [base_nic + sum(M.irq[i]["nic"] for i in range(k)), 0, 0, 0, 0, 0, 0, 0]
        elif irq == 58:
            v = [3, 0, 0, 0, 0, 0, 0, 0]
        elif irq == 59:
            v = [0, 0, 0, 0, 0, 41873 + sum(M.irq[i]["vmci"] for i in range(k)), 0, 0]
        elif irq == 60:
            v = [0] * NCPU
        rows[irq] = list(v)
    arch = {}
    boot = {"LOC": 243, "RES": 610, "CAL": 190, "TLB": 330, "IWI": 6}
    for key, _desc in ARCH_LINES + ARCH_TAIL:
        if key in boot:
            arch[key] = [int(UPTIME_S * boot[key] * (1.0 + 0.03 * ((c * 7) % 5 - 2))) +
                         sum(M.irq[i][key][c] for i in range(k)) for c in range(NCPU)]
        elif key == "MCP":
            arch[key] = [UPTIME_S // 300] * NCPU
        else:
            arch[key] = [0] * NCPU
    return rows, arch


def interrupts_text(k):
    rows, arch = interrupts_at(k)
    out = ["%*s" % (3 + 8, "") + "".join("CPU%-8d" % c for c in range(NCPU)) + "\n"]
    for irq, chip, hw, trig, name in IRQ_LINES:
        out.append("%3d:" % irq + "".join(" %10u" % x for x in rows[irq]) +
                   " %8s" % chip + " %3d" % hw + "-%-8s" % trig + "  " + name + "\n")
    for key, desc in ARCH_LINES:
        out.append("%3s: " % key + "".join("%10u " % x for x in arch[key]) + "  " + desc + "\n")
    out.append("ERR:          0\nMIS:          0\n")
    for key, desc in ARCH_TAIL:
        out.append("%3s: " % key + "".join("%10u " % x for x in arch[key]) + "  " + desc + "\n")
    return "".join(out)


def irq_total(i):
    x = M.irq[i]
    return (x["nic"] + x["pvscsi"] + x["vmci"] +
            sum(sum(x[k]) for k in ("LOC", "RES", "CAL", "TLB", "IWI")))


SOFT_NAMES = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"]
SOFT_BOOT = {"HI": 0.0, "TIMER": 55, "NET_TX": 9, "NET_RX": 0, "BLOCK": 9, "IRQ_POLL": 0,
             "TASKLET": 0.2, "SCHED": 300, "HRTIMER": 3, "RCU": 170}


def softirqs_at(k):
    out = {}
    for name in SOFT_NAMES:
        row = []
        for c in range(NCPU):
            b = SOFT_BOOT[name]
            if name == "NET_RX":
                b = 6350 if c == 0 else 28
            if name == "BLOCK":
                b = 310 if c == 3 else 12
            if name == "NET_TX" and c == 0:
                b = 35
            row.append(int(UPTIME_S * b * (1.0 + 0.02 * ((c * 3) % 5 - 2))) +
                       sum(M.soft[i][name][c] for i in range(k)))
        out[name] = row
    return out


def softirqs_text(k):
    s = softirqs_at(k)
    out = ["                    " + "".join("CPU%-8d" % c for c in range(NCPU)) + "\n"]
    for name in SOFT_NAMES:
        out.append("%12s:" % name + "".join(" %10u" % x for x in s[name]) + "\n")
    return "".join(out)


BOOT_CTXT = UPTIME_S * 38000
BOOT_FORKS = UPTIME_S * 11
BOOT_IRQ_TOTAL = 0  # set in main() from interrupts_at(0)


def proc_stat_text(k, running, blocked):
    tot = [{key: BOOT_CPU[c][key] + sum(M.cpu[i][c][key] for i in range(k)) for key in CATS}
           for c in range(NCPU)]

    def line(name, j):
        return "%s %d %d %d %d %d %d %d %d 0 0\n" % (
            name, j["usr"], j["nice"], j["sys"], j["idle"], j["iowait"], j["irq"], j["soft"], j["steal"])

    allj = {key: sum(tot[c][key] for c in range(NCPU)) for key in CATS}
    out = [line("cpu ", allj)]
    for c in range(NCPU):
        out.append(line("cpu%d" % c, tot[c]))
    rows, arch = interrupts_at(k)
    per_irq = [0] * NR_IRQS
    for irq, v in rows.items():
        per_irq[irq] = sum(v)
    total = sum(per_irq) + sum(sum(v) for v in arch.values())
    out.append("intr %d %s\n" % (total, " ".join(str(x) for x in per_irq)))
    out.append("ctxt %d\n" % (BOOT_CTXT + sum(M.vm[i]["cs"] for i in range(k))))
    out.append("btime %d\n" % BTIME)
    out.append("processes %d\n" % (BOOT_FORKS + sum(M.vm[i]["forks"] for i in range(k))))
    out.append("procs_running %d\nprocs_blocked %d\n" % (running, blocked))
    s = softirqs_at(k)
    per = [sum(s[n]) for n in SOFT_NAMES]
    out.append("softirq %d %s\n" % (sum(per), " ".join(str(x) for x in per)))
    return "".join(out)


# Partitions of sda: sda1 /boot, sda2 /, sda3 swap. Swap-in reads and swap-out writes go to sda3.
DISK_ORDER = [(8, 0, "sda"), (8, 1, "sda1"), (8, 2, "sda2"), (8, 3, "sda3"), (8, 16, "sdb"),
              (8, 32, "sdc"), (11, 0, "sr0")]


def diskstats_text(k, inflight):
    out = []
    for major, minor, name in DISK_ORDER:
        if name == "sr0":
            out.append("  11       0 sr0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
            continue
        dev = name[:3]
        acc = dict(BOOT_DISK[dev])
        for i in range(k):
            for key in acc:
                acc[key] += M.disk[i][dev][key]
        if name != dev:  # a partition of sda: its share of the device's I/O
            share = {"sda1": (0.001, 0.002), "sda2": (0.12, 0.55), "sda3": (0.879, 0.448)}[name]
            for key in ("r", "rm", "rs", "rt"):
                acc[key] = int(acc[key] * share[0])
            for key in ("w", "wm", "ws", "wt"):
                acc[key] = int(acc[key] * share[1])
            acc["io"] = int(acc["io"] * (0.9 if name == "sda3" else 0.35 if name == "sda2" else 0.001))
            acc["q"] = acc["rt"] + acc["wt"]
        fl = inflight.get(name, 0)
        out.append("%4d %7d %s %d %d %d %d %d %d %d %d %d %d %d 0 0 0 0 %d %d\n" % (
            major, minor, name, acc["r"], acc["rm"], acc["rs"], acc["rt"], acc["w"], acc["wm"],
            acc["ws"], acc["wt"], fl, acc["io"], acc["q"], acc["w"] // 40 if name in ("sda", "sda2") else 0,
            acc["w"] // 40 if name in ("sda", "sda2") else 0))
    return "".join(out)


NET_BOOT = {
    "eth0": dict(rxb=31_418_227_390_512, rxp=24_103_558_801, txb=25_906_114_877_031, txp=19_811_402_596,
                 drop=87_342_118),
    "lo": dict(rxb=2_193_805_554, rxp=2_417_390),
}


def net_at(t):
    """Cumulative counters after t intervals (t may be fractional: a snapshot between samples)."""
    k = int(t)
    frac = t - k
    e = dict(NET_BOOT["eth0"])
    lo = dict(NET_BOOT["lo"])
    for i in range(min(k, N)):
        n = M.net[i]
        e["rxb"] += n["rxb"]; e["rxp"] += n["rxp"]; e["txb"] += n["txb"]; e["txp"] += n["txp"]
        e["drop"] += n["drop"]; lo["rxb"] += n["lob"]; lo["rxp"] += n["lop"]
    if frac and k < N:
        n = M.net[k]
        for key in ("rxb", "rxp", "txb", "txp", "drop"):
            e[key] += int(n[key] * frac)
        lo["rxb"] += int(n["lob"] * frac); lo["rxp"] += int(n["lop"] * frac)
    return e, lo


def net_dev_text(t):
    e, lo = net_at(t)
    hdr = ("Inter-|   Receive                                                |  Transmit\n"
           " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n")
    row = "%6s: %7d %7d %4d %4d %4d %5d %10d %9d %8d %7d %4d %4d %4d %5d %7d %10d\n"
    return (hdr + row % ("lo", lo["rxb"], lo["rxp"], 0, 0, 0, 0, 0, 0, lo["rxb"], lo["rxp"], 0, 0, 0, 0, 0, 0)
            + row % ("eth0", e["rxb"], e["rxp"], 0, e["drop"], 0, 0, 0, 4_381_226, e["txb"], e["txp"], 0, 0, 0, 0, 0, 0))


def softnet_text(k):
    out = []
    for c in range(NCPU):
        if c == 0:
            processed = NET_BOOT["eth0"]["rxp"] + sum(M.net[i]["rxp"] for i in range(k))
            squeeze = UPTIME_S * 14 + sum(random.Random(i).randint(18, 34) for i in range(k))
        else:
            processed = UPTIME_S * 40 + c * 1731 + sum(M.soft[i]["NET_RX"][c] for i in range(k))
            squeeze = 0
        out.append("%08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n" % (
            processed & 0xFFFFFFFF, 0, squeeze, 0, 0, 0, 0, 0, 0, 0, 0, 0, c))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Memory: swap in use and growing, 4 GiB ballooned, page cache squeezed
# --------------------------------------------------------------------------------------------

SWAP_USED0 = 2_411_520  # KiB in use at the window start
BOOT_VM = {"pswpin": 97_113_502, "pswpout": 131_870_244}
MEM_SERIES = []  # (swpd, free, buff, cache) at the start and after each interval, KiB
_swpd = SWAP_USED0
for _i in range(N + 1):
    if _i:
        _swpd += M.vm[_i - 1]["pswpout"] * 4 - M.vm[_i - 1]["pswpin"] * 4 // 3
    MEM_SERIES.append((_swpd, int(jitter(405_000, 0.08)), 61_236 + _i * 3, int(jitter(3_712_000, 0.01))))


def meminfo_text(base, t):
    swpd, free, buff, cache = MEM_SERIES[t]
    slab_r, slab_u = 489_412, 122_604
    kstack, ptables = 21_344, 98_212
    swap_cached = 186_400
    balloon = BALLOON_MB * 1024
    anon = MEM_TOTAL_KIB - free - buff - cache - swap_cached - slab_r - slab_u - kstack - ptables - balloon - 61_000
    shmem = 11_208
    v = {
        "MemTotal": MEM_TOTAL_KIB, "MemFree": free, "MemAvailable": free + int(cache * 0.62) + slab_r // 2,
        "Buffers": buff, "Cached": cache, "SwapCached": swap_cached,
        "Active": int(anon * 0.52) + int(cache * 0.41), "Inactive": int(anon * 0.48) + int(cache * 0.59),
        "Active(anon)": int(anon * 0.52), "Inactive(anon)": int(anon * 0.48),
        "Active(file)": int(cache * 0.41), "Inactive(file)": int(cache * 0.59),
        "Unevictable": 0, "Mlocked": 0, "SwapTotal": SWAP_TOTAL_KIB, "SwapFree": SWAP_TOTAL_KIB - swpd,
        "Zswap": 0, "Zswapped": 0, "Dirty": 184_312, "Writeback": 22_840, "AnonPages": anon,
        "Mapped": 188_904, "Shmem": shmem, "KReclaimable": slab_r, "Slab": slab_r + slab_u,
        "SReclaimable": slab_r, "SUnreclaim": slab_u, "KernelStack": kstack, "PageTables": ptables,
        "NFS_Unstable": 0, "Bounce": 0, "WritebackTmp": 0,
        "CommitLimit": MEM_TOTAL_KIB // 2 + SWAP_TOTAL_KIB, "Committed_AS": 43_718_604,
        "VmallocTotal": 34359738367, "VmallocUsed": 41_236, "VmallocChunk": 0, "Percpu": 9_216,
        "HardwareCorrupted": 0, "AnonHugePages": 0, "ShmemHugePages": 0, "ShmemPmdMapped": 0,
        "FileHugePages": 0, "FilePmdMapped": 0, "HugePages_Total": 0, "HugePages_Free": 0,
        "HugePages_Rsvd": 0, "HugePages_Surp": 0, "Hugepagesize": 2048, "Hugetlb": 0,
        "DirectMap4k": 395_072, "DirectMap2M": 15_333_376, "DirectMap1G": 19_922_944,
    }
    out = []
    # Kernel 6.1's fields, in /proc/meminfo's order (the base's order, without the fields of
    # later kernels: SecPageTables, Balloon, Unaccepted).
    order = [l.split(":")[0] for l in base.splitlines()]
    order = [k for k in order if k not in ("SecPageTables", "Balloon", "Unaccepted")]
    order.insert(order.index("AnonHugePages"), "HardwareCorrupted")
    for key in order:
        val = v[key]
        if key.startswith("HugePages_"):
            out.append("%-15s %7d\n" % (key + ":", val))
        else:
            out.append("%-15s %8d kB\n" % (key + ":", val))
    return "".join(out), v


def free_text(v):
    mib = lambda x: int(x / 1024 + 0.5)
    total = v["MemTotal"]
    cache = v["Cached"] + v["SReclaimable"]
    used = total - v["MemFree"] - v["Buffers"] - cache
    return ("               total        used        free      shared  buff/cache   available\n"
            "Mem:   %13d %11d %11d %11d %11d %11d\n"
            "Swap:  %13d %11d %11d\n" % (
                mib(total), mib(used), mib(v["MemFree"]), mib(v["Shmem"]), mib(v["Buffers"] + cache),
                mib(v["MemAvailable"]), mib(v["SwapTotal"]), mib(v["SwapTotal"] - v["SwapFree"]),
                mib(v["SwapFree"])))


def swaps_text(v):
    used = v["SwapTotal"] - v["SwapFree"]
    return ("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
            "%-40spartition\t%d\t\t%d\t\t-2\n" % ("/dev/sda3", v["SwapTotal"], used))


def swapon_text(v):
    used = v["SwapTotal"] - v["SwapFree"]
    return ("NAME      TYPE      SIZE USED PRIO\n"
            "/dev/sda3 partition   8G %.1fG   -2\n" % (used / 1048576.0))


VM_PRUNE = {"nr_free_pages_blocks", "nr_sec_page_table_pages", "nr_iommu_pages", "pgpromote_candidate_nrl",
            "pgdemote_khugepaged", "pgdemote_proactive", "nr_hugetlb", "nr_balloon_pages",
            "nr_kernel_file_pages", "nr_memmap_pages", "nr_memmap_boot_pages", "pgsteal_proactive",
            "pgscan_proactive", "thp_underused_split_page", "swpin_zero", "swpout_zero", "zswpwb"}


def proc_vmstat_text(base_start, base_end, k, v):
    """Keys of the base (minus later kernels' keys). Gauges from meminfo; event counters at the
    start scaled to 9 days of a busier machine, advancing by the model where it has them, else by
    the base's own change over its window."""
    bs = dict(l.split() for l in base_start.splitlines())
    be = dict(l.split() for l in base_end.splitlines())
    pages = lambda kib: kib // 4
    swpd = MEM_SERIES[k][0]
    gauges = {
        "nr_free_pages": pages(MEM_SERIES[k][1]), "nr_zone_inactive_anon": pages(v["Inactive(anon)"]),
        "nr_zone_active_anon": pages(v["Active(anon)"]), "nr_zone_inactive_file": pages(v["Inactive(file)"]),
        "nr_zone_active_file": pages(v["Active(file)"]), "nr_zone_unevictable": 0, "nr_mlock": 0,
        "nr_inactive_anon": pages(v["Inactive(anon)"]), "nr_active_anon": pages(v["Active(anon)"]),
        "nr_inactive_file": pages(v["Inactive(file)"]), "nr_active_file": pages(v["Active(file)"]),
        "nr_unevictable": 0, "nr_slab_reclaimable": pages(v["SReclaimable"]),
        "nr_slab_unreclaimable": pages(v["SUnreclaim"]), "nr_anon_pages": pages(v["AnonPages"]),
        "nr_mapped": pages(v["Mapped"]), "nr_file_pages": pages(v["Cached"] + v["SwapCached"] + v["Buffers"]),
        "nr_dirty": pages(v["Dirty"]), "nr_writeback": pages(v["Writeback"]), "nr_shmem": pages(v["Shmem"]),
        "nr_kernel_stack": v["KernelStack"], "nr_page_table_pages": pages(v["PageTables"]),
        "nr_swapcached": pages(v["SwapCached"]), "nr_file_hugepages": 0, "nr_file_pmdmapped": 0,
        "nr_zone_write_pending": pages(v["Dirty"] + v["Writeback"]),
        "nr_dirty_threshold": 391_244, "nr_dirty_background_threshold": 195_381,
    }
    model = {
        "pswpin": (BOOT_VM["pswpin"], [M.vm[i]["pswpin"] for i in range(N)]),
        "pswpout": (BOOT_VM["pswpout"], [M.vm[i]["pswpout"] for i in range(N)]),
        "pgpgin": (sum(BOOT_DISK[d]["rs"] for d in DEVS) // 2, [sum(M.disk[i][d]["rs"] for d in DEVS) // 2 for i in range(N)]),
        "pgpgout": (sum(BOOT_DISK[d]["ws"] for d in DEVS) // 2, [sum(M.disk[i][d]["ws"] for d in DEVS) // 2 for i in range(N)]),
        "pgfault": (UPTIME_S * 41_000, [M.vm[i]["pgfault"] for i in range(N)]),
        "pgmajfault": (UPTIME_S * 180, [M.vm[i]["pgmajfault"] for i in range(N)]),
        "pgscan_kswapd": (UPTIME_S * 2_900, [int(M.vm[i]["pswpout"] * 5.1) for i in range(N)]),
        "pgsteal_kswapd": (UPTIME_S * 2_350, [int(M.vm[i]["pswpout"] * 3.9) for i in range(N)]),
        "pgscan_direct": (UPTIME_S * 310, [int(M.vm[i]["pswpout"] * 0.6) for i in range(N)]),
        "pgsteal_direct": (UPTIME_S * 220, [int(M.vm[i]["pswpout"] * 0.4) for i in range(N)]),
        "pgscan_anon": (UPTIME_S * 1_700, [int(M.vm[i]["pswpout"] * 3.2) for i in range(N)]),
        "pgscan_file": (UPTIME_S * 1_510, [int(M.vm[i]["pswpout"] * 2.5) for i in range(N)]),
        "pgsteal_anon": (UPTIME_S * 1_210, [M.vm[i]["pswpout"] for i in range(N)]),
        "pgsteal_file": (UPTIME_S * 1_360, [int(M.vm[i]["pswpout"] * 3.3) for i in range(N)]),
        "allocstall_normal": (UPTIME_S * 3, [2 + (i % 3) for i in range(N)]),
        "workingset_refault_anon": (UPTIME_S * 320, [int(M.vm[i]["pswpin"] * 0.8) for i in range(N)]),
        "workingset_refault_file": (UPTIME_S * 1_900, [int(jitter(2100, 0.2)) for i in range(N)]),
        "swap_ra": (UPTIME_S * 210, [int(M.vm[i]["pswpin"] * 0.55) for i in range(N)]),
        "swap_ra_hit": (UPTIME_S * 120, [int(M.vm[i]["pswpin"] * 0.3) for i in range(N)]),
        "balloon_inflate": (1_048_576 + 311_808, [0] * N),
        "balloon_deflate": (311_808, [0] * N),
        "oom_kill": (0, [0] * N),
    }
    scale = UPTIME_S / 12_100.0  # the base host had been up about 3 h 22 min
    out = []
    for key, val in bs.items():
        if key in VM_PRUNE:
            continue
        if key in gauges:
            x = gauges[key]
        elif key in model:
            start, deltas = model[key]
            x = start + sum(deltas[:k])
        else:
            a, b = int(val), int(be.get(key, val))
            if b >= a and not key.startswith("nr_"):
                x = int(a * scale) + int((b - a) * 4.0 * k / N)
            else:
                x = a
        out.append("%s %d\n" % (key, x))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Processes: a Debian 12 guest with systemd, VMware Tools, chronyd, the NodeManager, the
# DataNode, six YARN containers of a TeraSort job, and the collector run as the hdfs user
# --------------------------------------------------------------------------------------------

# pid, ppid, user, nlwp, %cpu (life average, ps), rss KiB, vsz KiB, etimes, stat, comm, args
PROCS = []


def kthread(pid, comm, stat="S", ppid=2, cpu=0.0):
    PROCS.append((pid, ppid, "root", 1, cpu, 0, 0, UPTIME_S, stat, comm[:15], "[%s]" % comm))


def build_procs(collector_pids):
    U = UPTIME_S
    PROCS.append((1, 0, "root", 1, 0.0, 12_804, 168_172, U, "Ss", "systemd", "/sbin/init"))
    kthread(2, "kthreadd", ppid=0)
    for pid, comm in [(3, "rcu_gp"), (4, "rcu_par_gp"), (5, "slub_flushwq"), (6, "netns")]:
        kthread(pid, comm, "I<")
    kthread(8, "kworker/0:0H-events_highpri", "I<")
    kthread(10, "mm_percpu_wq", "I<")
    kthread(11, "rcu_tasks_kthread", "I")
    kthread(12, "rcu_tasks_rude_kthread", "I")
    kthread(13, "rcu_tasks_trace_kthread", "I")
    kthread(14, "ksoftirqd/0", cpu=0.9)
    kthread(15, "rcu_preempt", "I", cpu=0.1)
    kthread(16, "migration/0")
    kthread(18, "cpuhp/0")
    pid = 19
    for c in range(1, NCPU):
        kthread(pid, "cpuhp/%d" % c)
        kthread(pid + 1, "migration/%d" % c)
        kthread(pid + 2, "ksoftirqd/%d" % c, cpu=0.0)
        kthread(pid + 4, "kworker/%d:0H-events_highpri" % c, "I<")
        pid += 5
    for comm, stat in [("kdevtmpfs", "S"), ("inet_frag_wq", "I<"), ("kauditd", "S"), ("khungtaskd", "S"),
                       ("oom_reaper", "S"), ("writeback", "I<"), ("kcompactd0", "S"), ("ksmd", "SN"),
                       ("khugepaged", "SN"), ("kintegrityd", "I<"), ("kblockd", "I<"), ("blkcg_punt_bio", "I<"),
                       ("tpm_dev_wq", "I<"), ("ata_sff", "I<"), ("md", "I<"), ("edac-poller", "I<"),
                       ("devfreq_wq", "I<"), ("watchdogd", "S")]:
        kthread(pid, comm, stat)
        pid += 1
    kthread(pid, "kswapd0", "D", cpu=2.1)
    pid += 1
    for comm, stat in [("kthrotld", "I<"), ("acpi_thermal_pm", "I<"), ("scsi_eh_0", "S"), ("scsi_tmf_0", "I<"),
                       ("scsi_eh_1", "S"), ("scsi_tmf_1", "I<"), ("vmw_pvscsi_wq_2", "I<"),
                       ("scsi_eh_2", "S"), ("scsi_tmf_2", "I<"), ("ttm", "I<"), ("kworker/0:1H-kblockd", "I<"),
                       ("jbd2/sda2-8", "D"), ("ext4-rsv-conver", "I<"), ("jbd2/sdb-8", "D"),
                       ("ext4-rsv-conver", "I<"), ("jbd2/sdc-8", "D"), ("ext4-rsv-conver", "I<"),
                       ("ipv6_addrconf", "I<"), ("kworker/u17:0-flush-8:16", "I"), ("kworker/u17:2-flush-8:32", "D"),
                       ("kworker/3:1H-kblockd", "I<"), ("kworker/5:2-events", "I")]:
        kthread(pid, comm, stat, cpu=0.3 if comm.startswith("jbd2") else 0.0)
        pid += 1
    PROCS.extend([
        (298, 1, "root", 1, 0.0, 38_412, 64_880, U, "Ss", "systemd-journal", "/lib/systemd/systemd-journald"),
        (331, 1, "root", 1, 0.0, 6_240, 25_916, U, "Ss", "systemd-udevd", "/lib/systemd/systemd-udevd"),
        (502, 1, "_chrony", 1, 0.0, 3_380, 18_916, U, "S", "chronyd", "/usr/sbin/chronyd -F 1"),
        (508, 1, "root", 1, 0.0, 9_612, 49_356, U, "Ss", "VGAuthService", "/usr/bin/VGAuthService"),
        (510, 1, "root", 3, 0.1, 8_940, 241_900, U, "Ssl", "vmtoolsd", "/usr/bin/vmtoolsd"),
        (514, 1, "messagebus", 1, 0.0, 4_312, 9_128, U, "Ss", "dbus-daemon",
         "/usr/bin/dbus-daemon --system --address=systemd: --nofork --nopidfile --systemd-activation --syslog-only"),
        (517, 1, "root", 1, 0.0, 6_932, 16_612, U, "Ss", "systemd-logind", "/lib/systemd/systemd-logind"),
        (532, 1, "root", 1, 0.0, 2_660, 6_608, U, "Ss", "cron", "/usr/sbin/cron -f"),
        (541, 1, "root", 3, 0.0, 4_284, 222_212, U, "Ssl", "rsyslogd", "/usr/sbin/rsyslogd -n -iNONE"),
        (603, 1, "root", 1, 0.0, 8_812, 15_432, U, "Ss", "sshd", "sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups"),
        (611, 1, "root", 1, 0.0, 1_996, 5_872, U, "Ss+", "agetty", "/sbin/agetty -o -p -- \\u --noclear - linux"),
        (NM_PID, 1, "yarn", 143, 3.9, 1_188_644, 5_512_380, U - 38, "Sl", "java",
         "/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Dproc_nodemanager -Djava.net.preferIPv4Stack=true "
         "-Xms1g -Xmx1g -XX:+UseG1GC --add-opens=java.base/java.lang=ALL-UNNAMED "
         "-Dyarn.log.dir=/opt/hadoop-3.3.6/logs -Dyarn.log.file=hadoop-yarn-nodemanager-dn01.example.log "
         "-Dyarn.home.dir=/opt/hadoop-3.3.6 -Dyarn.root.logger=INFO,console "
         "-Dhadoop.log.dir=/opt/hadoop-3.3.6/logs -Dhadoop.home.dir=/opt/hadoop-3.3.6 -Dhadoop.id.str=yarn "
         "-Dhadoop.root.logger=INFO,RFA -Dhadoop.policy.file=hadoop-policy.xml "
         "org.apache.hadoop.yarn.server.nodemanager.NodeManager"),
        (PID, 1, "hdfs", 62, 11.8, 2_964_112, 6_996_248, DN_AGE_S, "Sl", "java", DN_ARGS),
    ])
    # Six containers of the TeraSort job (application 1701234567890_0042): launch script + JVM.
    for n, (cpid, age) in enumerate([(48211, 612), (48230, 598), (48302, 541), (48377, 505), (48469, 447), (48526, 403)]):
        cid = "container_1701234567890_0042_01_%06d" % (14 + n)
        attempt = "attempt_1701234567890_0042_m_%06d_0" % (11 + n)
        wd = "/data/%d/yarn/nm/usercache/etl/appcache/application_1701234567890_0042/%s" % (1 + n % 2, cid)
        PROCS.append((cpid, NM_PID, "yarn", 1, 0.0, 3_180, 7_236, age, "Ss", "bash",
                      "/bin/bash -c /usr/lib/jvm/java-17-openjdk-amd64/bin/java -Djava.net.preferIPv4Stack=true "
                      "-Xmx2560m -Djava.io.tmpdir=%s/tmp org.apache.hadoop.mapred.YarnChild 192.0.2.11 40313 %s 15 "
                      "1>/opt/hadoop-3.3.6/logs/userlogs/application_1701234567890_0042/%s/stdout "
                      "2>/opt/hadoop-3.3.6/logs/userlogs/application_1701234567890_0042/%s/stderr" % (wd, attempt, cid, cid)))
        PROCS.append((cpid + 9, cpid, "yarn", 58, round(R.uniform(31, 46), 1), int(jitter(2_710_000, 0.08)),
                      6_104_312, age - 1, "Sl", "java",
                      "/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Djava.net.preferIPv4Stack=true -Xmx2560m "
                      "-Djava.io.tmpdir=%s/tmp -Dlog4j.configuration=container-log4j.properties "
                      "-Dyarn.app.container.log.dir=/opt/hadoop-3.3.6/logs/userlogs/application_1701234567890_0042/%s "
                      "-Dyarn.app.container.log.filesize=0 -Dhadoop.root.logger=INFO,CLA "
                      "org.apache.hadoop.mapred.YarnChild 192.0.2.11 40313 %s 15" % (wd, cid, attempt)))
    # The operator's session and the collector (run as hdfs through sudo).
    sess = [
        (50311, 603, "root", 1, 0.0, 11_012, 17_880, 2_212, "Ss", "sshd", "sshd: ops [priv]"),
        (50318, 50311, "ops", 1, 0.0, 6_908, 18_040, 2_211, "S", "sshd", "sshd: ops@pts/0"),
        (50319, 50318, "ops", 1, 0.0, 5_244, 8_264, 2_211, "Ss", "bash", "-bash"),
        (collector_pids["sudo"], 50319, "root", 1, 0.0, 7_104, 11_452, 2, "S+", "sudo",
         "sudo -u hdfs sh collector.sh --duration 30 --interval 1 --pid %d --no-perf --max-log-bytes 65536 "
         "--label s1-hadoop-vmware --output /tmp" % PID),
    ]
    PROCS.extend(sess)
    return PROCS


DN_ARGS = None  # set from the base's command line


def ps_text(procs):
    cols = [("PID", 5, "R"), ("PPID", 5, "R"), ("USER", 8, "L"), ("NLWP", 4, "R"), ("%CPU", 4, "R"),
            ("%MEM", 4, "R"), ("RSS", 5, "R"), ("VSZ", 6, "R"), ("ELAPSED", 7, "R"), ("STAT", 4, "L"),
            ("COMMAND", 15, "L")]

    def row(vals, last):
        out = []
        debt = 0
        for (name, w, al), v in zip(cols, vals):
            pad = w - len(v) - debt
            debt = -pad if pad < 0 else 0
            pad = max(pad, 0)
            out.append(" " * pad + v if al == "R" else v + " " * pad)
        return " ".join(out) + " " + last + "\n"

    lines = [row([c[0] for c in cols], "COMMAND")]
    for p in procs:
        pid, ppid, user, nlwp, cpu, rss, vsz, et, stat, comm, args = p
        mem = (rss * 1000 // MEM_TOTAL_KIB) / 10.0  # procps truncates
        pcpu = "%.1f" % cpu if cpu < 100 else "%d" % cpu
        lines.append(row([str(pid), str(ppid), user, str(nlwp), pcpu, "%.1f" % mem, str(rss), str(vsz),
                          str(et), stat, comm], args))
    return "".join(lines)


# --------------------------------------------------------------------------------------------
# The DataNode JVM: the stand-in's real outputs, moved to pid 1742, 9 days of uptime, the
# Hadoop paths, and the pauses of a heap partly on swap
# --------------------------------------------------------------------------------------------

HADOOP_CP = ":".join([
    HADOOP + "/etc/hadoop", HADOOP + "/share/hadoop/common/lib/*", HADOOP + "/share/hadoop/common/*",
    HADOOP + "/share/hadoop/hdfs", HADOOP + "/share/hadoop/hdfs/lib/*", HADOOP + "/share/hadoop/hdfs/*",
    HADOOP + "/share/hadoop/mapreduce/*", HADOOP + "/share/hadoop/yarn/lib/*", HADOOP + "/share/hadoop/yarn/*",
])
GC_LOG = HADOOP + "/logs/gc-datanode.log"
# Young pauses of the four collections in the window, ms: heap pages read back from swap.
WINDOW_PAUSES = [1843.211, 2309.684, 1271.402, 2618.937]


class Jvm:
    def __init__(self, files, work, base_pid):
        self.work = work
        self.base_pid = base_pid
        js = files["jvm/%d/jstat-gcutil.txt" % base_pid].splitlines()
        self.jstat_rows = [l.split() for l in js[1:] if l.strip()]
        self.base_age0 = float(self.jstat_rows[0][0])  # JVM age at the first sample (window start)
        self.offset = DN_AGE_S - self.base_age0
        log = files["jvm/%d/gc.log" % base_pid]
        self.base_gcs = []  # (age, id, before, after, total) of the base's young pauses
        for m in re.finditer(r"^\[([\d.]+)s\]\[info\]\[gc\s*\] GC\((\d+)\) Pause Young \(Normal\) "
                             r"\(G1 Evacuation Pause\) (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms$", log, re.M):
            self.base_gcs.append((float(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                                  int(m.group(5))))
        t_first, t_last = float(self.jstat_rows[0][0]), float(self.jstat_rows[-1][0])
        self.window_gcs = [g for g in self.base_gcs if t_first <= g[0] <= t_last]
        if len(self.window_gcs) < 2:
            die("the base has %d young GCs in the jstat window, at least 2 are needed" % len(self.window_gcs))
        self.id_off = 97_300
        self.pause = {g[1]: WINDOW_PAUSES[n % len(WINDOW_PAUSES)] for n, g in enumerate(self.window_gcs)}

    def scrub(self, text):
        """The stand-in's paths and flags, as the real DataNode's."""
        t = text.replace(self.work + "/opt/hadoop-3.3.6/etc/hadoop:" + self.work +
                         "/opt/hadoop-3.3.6/share/hadoop/hdfs/classes", HADOOP_CP)
        t = t.replace(self.work + "/opt/hadoop-3.3.6/etc/hadoop\\:" + self.work +
                      "/opt/hadoop-3.3.6/share/hadoop/hdfs/classes", HADOOP_CP.replace(":", "\\:"))
        t = t.replace("-Xlog:gc*:file=" + self.work + "/opt/hadoop-3.3.6/logs/gc-datanode.log",
                      "-Xlog:gc:file=" + GC_LOG)
        t = t.replace(self.work + "/opt/hadoop-3.3.6", HADOOP)
        t = re.sub(r"\n-XX:ActiveProcessorCount=8(?=\n)", "", t)
        t = t.replace("-XX:ActiveProcessorCount=8 ", "").replace(" -XX:ActiveProcessorCount=8", "")
        t = re.sub(r" ?-Dstandin\.dataDir=\S+", "", t)
        t = re.sub(r"\n-Dstandin\.dataDir=[^\n]*(?=\n)", "", t)
        t = re.sub(r"\nstandin\.dataDir=[^\n]*(?=\n)", "", t)
        t = re.sub(r"^%d:$" % self.base_pid, "%d:" % PID, t, flags=re.M)
        return t

    def age(self, base_age):
        return base_age + self.offset

    def jstat(self, header):
        """jstat -gcutil -t rows with the DataNode's age, counts and the long pauses."""
        out = [header]
        prev_e = None
        for row in self.jstat_rows:
            t = float(row[0])
            s0, s1, e, o, m, ccs = row[1:7]
            ygc, fgc, cgc = int(row[7]), int(row[9]), int(row[11])
            cgct = float(row[12])
            done = [g for g in self.window_gcs if g[0] + self.pause[g[1]] / 1000.0 <= t]
            running = [g for g in self.window_gcs if g[0] <= t < g[0] + self.pause[g[1]] / 1000.0]
            ygct = YGCT_AT_WINDOW + sum(self.pause[g[1]] for g in done) / 1000.0
            if running and prev_e is not None:
                s0, s1, e = prev_e  # eden still full, survivors unchanged: the pause is in progress
            prev_e = (s0, s1, e)
            gct = ygct + 0.0 + cgct
            out.append("%15.1f %6s %6s %6s %6s %6s %6s %6d %9.3f %6d %9.3f %5d %9.3f %9.3f\n" % (
                self.age(t), s0, s1, e, o, m, ccs, ygc + self.id_off, ygct, fgc, 0.0, cgc, cgct, gct))
        return "".join(out)

    def gc_log(self, cap):
        """-Xlog:gc of the last ~90 minutes: young pauses every ~8 s, normal until the balloon
        inflated 38 minutes before the window, seconds long since; cut to the last cap bytes."""
        first = self.window_gcs[0]
        lines = []
        hist = []
        age = first[0] + self.offset
        gid = first[1] + self.id_off
        rr = random.Random(7)
        while len(hist) < 700:
            age -= rr.uniform(7.6, 8.4)
            gid -= 1
            since = (first[0] + self.offset) - age
            if since < 38 * 60:
                p = rr.choice([rr.uniform(180, 900), rr.uniform(700, 1900), rr.uniform(1000, 3100)])
            else:
                p = rr.uniform(4.0, 26.0)
            hist.append((age, gid, rr.randint(3086, 3096), rr.randint(636, 652), p))
        hist.reverse()
        for age, gid, before, after, p in hist:
            lines.append("[%.3fs][info][gc] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) %dM->%dM(4096M) %.3fms\n"
                         % (age, gid, before, after, p))
        for g in self.window_gcs:
            lines.append("[%.3fs][info][gc] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) %dM->%dM(4096M) %.3fms\n"
                         % (g[0] + self.offset, g[1] + self.id_off, g[2], g[3], self.pause[g[1]]))
        self.recent_pauses = [h[4] for h in hist]
        text = "".join(lines).encode()
        return text[-cap:].decode()


YGCT_AT_WINDOW = 0.0  # set in main() from the generated history


# --------------------------------------------------------------------------------------------
# One-off host facts
# --------------------------------------------------------------------------------------------

def lscpu_text(base):
    flags = None
    out = []
    drop_flags = {"avx512f", "avx512dq", "avx512ifma", "avx512cd", "avx512bw", "avx512vl", "avx_vnni",
                  "avx512_bf16", "avx512vbmi", "avx512_vbmi2", "gfni", "avx512_vnni", "avx512_bitalg",
                  "avx512_vpopcntdq", "avx512_vp2intersect", "tsc_deadline_timer"}
    for l in base.splitlines():
        key, _, val = l.partition(":")
        pad = l[len(key) + 1:len(l) - len(val.lstrip())]
        v = val.strip()
        new = {
            "CPU(s)": "8", "On-line CPU(s) list": "0-7", "Model name": "AMD EPYC 7513 32-Core Processor",
            "CPU family": "25", "Model": "1", "Thread(s) per core": "1", "Core(s) per socket": "1",
            "Socket(s)": "8", "Stepping": "1", "BogoMIPS": "5190.24", "Hypervisor vendor": "VMware",
            "L1d cache": "256 KiB (8 instances)", "L1i cache": "256 KiB (8 instances)",
            "L2 cache": "4 MiB (8 instances)", "L3 cache": "256 MiB (8 instances)",
            "NUMA node0 CPU(s)": "0-7", "Address sizes": "45 bits physical, 48 bits virtual",
            "Vulnerability Spec rstack overflow": "Mitigation; safe RET",
            "Vulnerability Spectre v2": "Mitigation; Retpolines; IBPB conditional; STIBP disabled; RSB filling; PBRSB-eIBRS Not affected; BHI Not affected",
        }.get(key, v)
        if key == "Flags":
            fl = [f for f in v.split() if f not in drop_flags]
            fl.insert(fl.index("nonstop_tsc"), "tsc_reliable")
            fl.insert(fl.index("adx"), "rdseed")
            fl += ["pku", "ospke", "overflow_recov", "succor"]
            new = flags = " ".join(fl)
        if key in ("Vulnerability Ghostwrite", "Vulnerability Indirect target selection",
                   "Vulnerability Old microcode", "Vulnerability Tsa", "Vulnerability Vmscape"):
            continue
        out.append(key + ":" + pad + new)
    return "\n".join(out) + "\n", flags


def cpuinfo_text(flags):
    out = []
    for c in range(3):
        out += ["processor\t: %d" % c, "vendor_id\t: AuthenticAMD", "cpu family\t: 25", "model\t\t: 1",
                "model name\t: AMD EPYC 7513 32-Core Processor", "stepping\t: 1", "microcode\t: 0xa0011d1",
                "cpu MHz\t\t: 2595.124", "cache size\t: 512 KB", "physical id\t: %d" % c, "siblings\t: 1",
                "core id\t\t: 0", "cpu cores\t: 1", "apicid\t\t: %d" % (2 * c), "initial apicid\t: %d" % (2 * c),
                "fpu\t\t: yes", "fpu_exception\t: yes", "cpuid level\t: 16", "wp\t\t: yes", "flags\t\t: " + flags,
                "bugs\t\t: sysret_ss_attrs null_seg spectre_v1 spectre_v2 spec_store_bypass srso",
                "bogomips\t: 5190.24", "TLB size\t: 2560 4K pages", "clflush size\t: 64",
                "cache_alignment\t: 64", "address sizes\t: 45 bits physical, 48 bits virtual",
                "power management:", ""]
    return "\n".join(out[:64]) + "\n"


def lspci_text():
    dev = [
        ("00:00.0", "Host bridge: Intel Corporation 440BX/ZX/DX - 82443BX/ZX/DX Host bridge (rev 01)",
         "VMware Virtual Machine Chipset", None, None),
        ("00:01.0", "PCI bridge: Intel Corporation 440BX/ZX/DX - 82443BX/ZX/DX AGP bridge (rev 01)", None, None, None),
        ("00:07.0", "ISA bridge: Intel Corporation 82371AB/EB/MB PIIX4 ISA (rev 08)", "VMware Virtual Machine Chipset", None, None),
        ("00:07.1", "IDE interface: Intel Corporation 82371AB/EB/MB PIIX4 IDE (rev 01)", "VMware Virtual Machine Chipset",
         "ata_piix", "pata_acpi, ata_piix, ata_generic"),
        ("00:07.3", "Bridge: Intel Corporation 82371AB/EB/MB PIIX4 ACPI (rev 08)", "VMware Virtual Machine Chipset",
         "piix4_smbus", "i2c_piix4"),
        ("00:07.7", "System peripheral: VMware Virtual Machine Communication Interface (rev 10)",
         "VMware Virtual Machine Communication Interface", "vmw_vmci", "vmw_vmci"),
        ("00:0f.0", "VGA compatible controller: VMware SVGA II Adapter", "VMware SVGA II Adapter", "vmwgfx", "vmwgfx"),
        ("00:11.0", "PCI bridge: VMware PCI bridge (rev 02)", None, None, None),
    ]
    for n in range(32):
        dev.append(("00:%02x.%d" % (0x15 + n // 8, n % 8), "PCI bridge: VMware PCI Express Root Port (rev 01)",
                    None, "pcieport", None))
    dev += [
        ("03:00.0", "Serial Attached SCSI controller: VMware PVSCSI SCSI Controller (rev 02)",
         "VMware PVSCSI SCSI Controller", "vmw_pvscsi", "vmw_pvscsi"),
        ("0b:00.0", "Ethernet controller: VMware VMXNET3 Ethernet Controller (rev 01)",
         "VMware VMXNET3 Ethernet Controller", "vmxnet3", "vmxnet3"),
    ]
    out = []
    for slot, desc, sub, drv, mods in dev:
        out.append("%s %s\n" % (slot, desc))
        if sub:
            out.append("\tSubsystem: %s\n" % sub)
        if drv:
            out.append("\tKernel driver in use: %s\n" % drv)
        if mods:
            out.append("\tKernel modules: %s\n" % mods)
    return "".join(out)


# /proc/modules of the guest (unprivileged reader: addresses print as zero). Starts from the
# module list of a VMware guest in the parser fixtures (jc's linux-proc/modules), with the
# desktop modules (sound, camera, bluetooth, RAID) left out, e1000 replaced by vmxnet3, the LSI
# driver by vmw_pvscsi, and Debian's ext4 and SCSI modules.
MODULES = [
    ("binfmt_misc", 28672, 1, "-"), ("vmw_vsock_vmci_transport", 32768, 1, "-"),
    ("vsock", 49152, 2, "vmw_vsock_vmci_transport,"), ("intel_rapl_msr", 20480, 0, "-"),
    ("intel_rapl_common", 32768, 1, "intel_rapl_msr,"), ("vmw_balloon", 28672, 0, "-"),
    ("joydev", 28672, 0, "-"), ("evdev", 28672, 2, "-"), ("serio_raw", 20480, 0, "-"),
    ("vmw_vmci", 90112, 2, "vmw_vsock_vmci_transport,vmw_balloon,"), ("pcspkr", 16384, 0, "-"),
    ("sg", 40960, 0, "-"), ("button", 24576, 0, "-"), ("ac", 20480, 0, "-"), ("loop", 32768, 0, "-"),
    ("fuse", 176128, 1, "-"), ("efi_pstore", 16384, 0, "-"), ("configfs", 57344, 1, "-"),
    ("ip_tables", 36864, 0, "-"), ("x_tables", 53248, 1, "ip_tables,"), ("autofs4", 53248, 2, "-"),
    ("ext4", 991232, 3, "-"), ("crc16", 16384, 1, "ext4,"), ("mbcache", 16384, 1, "ext4,"),
    ("jbd2", 167936, 1, "ext4,"), ("crc32c_generic", 16384, 0, "-"), ("sd_mod", 65536, 5, "-"),
    ("sr_mod", 28672, 0, "-"), ("cdrom", 73728, 1, "sr_mod,"), ("t10_pi", 16384, 1, "sd_mod,"),
    ("crc64_rocksoft_generic", 16384, 1, "-"), ("crc64_rocksoft", 20480, 1, "t10_pi,"),
    ("crc_t10dif", 20480, 1, "t10_pi,"), ("crct10dif_generic", 16384, 0, "-"),
    ("crct10dif_pclmul", 16384, 1, "-"), ("crc64", 20480, 2, "crc64_rocksoft_generic,crc64_rocksoft,"),
    ("crct10dif_common", 16384, 3, "crc_t10dif,crct10dif_generic,crct10dif_pclmul,"),
    ("ata_generic", 16384, 0, "-"), ("crc32_pclmul", 16384, 0, "-"), ("crc32c_intel", 24576, 5, "-"),
    ("ghash_clmulni_intel", 16384, 0, "-"), ("sha512_ssse3", 49152, 0, "-"), ("sha512_generic", 16384, 1, "sha512_ssse3,"),
    ("vmwgfx", 401408, 1, "-"), ("aesni_intel", 393216, 0, "-"), ("crypto_simd", 16384, 1, "aesni_intel,"),
    ("cryptd", 28672, 2, "ghash_clmulni_intel,crypto_simd,"), ("drm_ttm_helper", 16384, 1, "vmwgfx,"),
    ("ttm", 94208, 2, "vmwgfx,drm_ttm_helper,"), ("drm_kms_helper", 212992, 1, "vmwgfx,"),
    ("ata_piix", 40960, 0, "-"), ("drm", 614400, 5, "vmwgfx,drm_ttm_helper,ttm,drm_kms_helper,"),
    ("libata", 401408, 2, "ata_generic,ata_piix,"), ("vmw_pvscsi", 28672, 4, "-"),
    ("scsi_mod", 282624, 5, "sg,sd_mod,sr_mod,libata,vmw_pvscsi,"), ("psmouse", 188416, 0, "-"),
    ("vmxnet3", 73728, 0, "-"), ("scsi_common", 16384, 5, "sg,sd_mod,sr_mod,libata,scsi_mod,"),
    ("i2c_piix4", 32768, 0, "-"),
]


def proc_modules_text():
    return "".join("%s %d %d %s Live 0x0000000000000000\n" % m for m in MODULES)


def lsmod_text():
    out = ["Module                  Size  Used by\n"]
    for name, size, refs, deps in MODULES:
        used = "" if deps == "-" else deps.rstrip(",")
        out.append("%-19s %8d  %d%s\n" % (name, size, refs, " " + used if used else ""))
    return "".join(out)


CHRONY_LEGEND = (
    "\n  .-- Source mode  '^' = server, '=' = peer, '#' = local clock.\n"
    " / .- Source state '*' = current best, '+' = combined, '-' = not combined,\n"
    "| /             'x' = may be in error, '~' = too variable, '?' = unusable.\n"
    "||                                                 .- xxxx [ yyyy ] +/- zzzz\n"
    "||      Reachability register (octal) -.           |  xxxx = adjusted offset,\n"
    "||      Log2(Polling interval) --.      |          |  yyyy = measured offset,\n"
    "||                                \\     |          |  zzzz = estimated error.\n"
    "||                                 |    |           \\\n"
    "MS Name/IP address         Stratum Poll Reach LastRx Last sample               \n"
    "===============================================================================\n"
)


def chrony_tracking(epoch):
    t = epoch - 33
    import time as _t
    ref = _t.strftime("%a %b %d %H:%M:%S %Y", _t.gmtime(t))
    return ("Reference ID    : C0000201 (192.0.2.1)\n"
            "Stratum         : 3\n"
            "Ref time (UTC)  : %s\n"
            "System time     : 0.062317204 seconds fast of NTP time\n"
            "Last offset     : +0.048207113 seconds\n"
            "RMS offset      : 0.041872090 seconds\n"
            "Frequency       : 38.412 ppm slow\n"
            "Residual freq   : +4.118 ppm\n"
            "Skew            : 9.903 ppm\n"
            "Root delay      : 0.000812336 seconds\n"
            "Root dispersion : 0.004105021 seconds\n"
            "Update interval : 64.3 seconds\n"
            "Leap status     : Normal\n" % ref)


def chrony_sources():
    row = "%s %-27s%4d%4d%6o%6s%9s[%7s] +/- %6s\n"
    return (CHRONY_LEGEND + row % ("^*", "192.0.2.1", 2, 6, 0o377, "33", "+48ms", "+55ms", "2157us")
            + row % ("^+", "192.0.2.2", 2, 6, 0o377, "31", "+61ms", "+61ms", "2410us"))


def timedatectl_text(epoch):
    import time as _t
    lt = _t.strftime("%a %Y-%m-%d %H:%M:%S", _t.gmtime(epoch))
    rtc = _t.strftime("%a %Y-%m-%d %H:%M:%S", _t.gmtime(epoch - 1))
    return ("               Local time: %s UTC\n"
            "           Universal time: %s UTC\n"
            "                 RTC time: %s    \n"
            "                Time zone: Etc/UTC (UTC, +0000)       \n"
            "System clock synchronized: yes                        \n"
            "              NTP service: active                     \n"
            "          RTC in local TZ: no                         \n" % (lt, lt, rtc))


# --------------------------------------------------------------------------------------------
# The NIC: vmxnet3 (driver 1.7.0.0-k of kernel 6.1), one combined queue, RX ring 256 of 4096
# --------------------------------------------------------------------------------------------

def ethtool_i():
    return ("driver: vmxnet3\nversion: 1.7.0.0-k\nfirmware-version: \nexpansion-rom-version: \n"
            "bus-info: 0000:0b:00.0\nsupports-statistics: yes\nsupports-test: no\n"
            "supports-eeprom-access: no\nsupports-register-dump: yes\nsupports-priv-flags: no\n")


def ethtool_l():
    # The case reports `Combined: 1` against a higher maximum on this guest (8 vCPUs). Mainline
    # vmxnet3 reports its maximums equal to the current counts (vmxnet3_get_channels): see the
    # sample's README.
    return ("Channel parameters for eth0:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\t1\n"
            "Combined:\t8\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\t1\nCombined:\t1\n")


def ethtool_g():
    return ("Ring parameters for eth0:\nPre-set maximums:\nRX:\t\t4096\nRX Mini:\tn/a\nRX Jumbo:\t4096\n"
            "TX:\t\t4096\nCurrent hardware settings:\nRX:\t\t256\nRX Mini:\tn/a\nRX Jumbo:\t128\nTX:\t\t512\n"
            "RX Buf Len:\t\tn/a\nCQE Size:\t\tn/a\nTX Push:\toff\nTCP data split:\tn/a\n")


def ethtool_k(base):
    """The base's feature list with vmxnet3's: LRO and VLAN offloads on, hashing on."""
    set_ = {
        "rx-checksumming": "on", "tx-checksumming": "on", "tx-checksum-ipv4": "off [fixed]",
        "tx-checksum-ip-generic": "on", "tx-checksum-ipv6": "off [fixed]", "large-receive-offload": "on",
        "rx-vlan-offload": "on", "tx-vlan-offload": "on", "receive-hashing": "on",
        "rx-vlan-filter": "on [fixed]", "rx-gro-hw": "off [fixed]", "tx-gso-robust": "off [fixed]",
        "tx-tcp-accecn-segmentation": None, "tx-udp_tnl-segmentation": "on",
        "tx-udp_tnl-csum-segmentation": "on", "tx-gso-partial": "off [fixed]",
    }
    out = []
    for l in base.splitlines():
        name, sep, val = l.partition(": ")
        key = name.strip()
        if key in set_:
            if set_[key] is None:
                continue
            l = name + sep + set_[key]
        out.append(l)
    return "\n".join(out) + "\n"


def ethtool_c():
    return ("Coalesce parameters for eth0:\nAdaptive RX: on  TX: n/a\nstats-block-usecs: n/a\n"
            "sample-interval: n/a\npkt-rate-low: n/a\npkt-rate-high: n/a\n\nrx-usecs: 0\nrx-frames: n/a\n"
            "rx-usecs-irq: n/a\nrx-frames-irq: n/a\n\ntx-usecs: n/a\ntx-frames: n/a\ntx-usecs-irq: n/a\n"
            "tx-frames-irq: n/a\n\nrx-usecs-low: n/a\nrx-frame-low: n/a\ntx-usecs-low: n/a\n"
            "tx-frame-low: n/a\n\nrx-usecs-high: n/a\nrx-frame-high: n/a\ntx-usecs-high: n/a\n"
            "tx-frame-high: n/a\n\nCQE mode RX: n/a  TX: n/a\n\n")


def ethtool_s(e):
    """vmxnet3's per-queue statistics (strings of drivers/net/vmxnet3/vmxnet3_ethtool.c)."""
    s = [("Tx Queue#", 0), ("  TSO pkts tx", int(e["txp"] * 0.41)), ("  TSO bytes tx", int(e["txb"] * 0.83)),
         ("  ucast pkts tx", e["txp"]), ("  ucast bytes tx", e["txb"]), ("  mcast pkts tx", 1_204),
         ("  mcast bytes tx", 108_360), ("  bcast pkts tx", 61), ("  bcast bytes tx", 2_562),
         ("  pkts tx err", 0), ("  pkts tx discard", 0), ("  drv dropped tx total", 0),
         ("     too many frags", 0), ("     giant hdr", 0), ("     hdr err", 0), ("     tso", 0),
         ("  ring full", 41_377), ("  pkts linearized", 0), ("  hdr cloned", 0), ("  giant hdr", 0),
         ("Rx Queue#", 0), ("  LRO pkts rx", int(e["rxp"] * 0.22)), ("  LRO byte rx", int(e["rxb"] * 0.57)),
         ("  ucast pkts rx", e["rxp"] - 4_381_226 - 9_114), ("  ucast bytes rx", e["rxb"] - 394_310_340 - 546_840),
         ("  mcast pkts rx", 4_381_226), ("  mcast bytes rx", 394_310_340), ("  bcast pkts rx", 9_114),
         ("  bcast bytes rx", 546_840), ("  pkts rx OOB", e["drop"]), ("  pkts rx err", 0),
         ("  drv dropped rx total", 0), ("     err", 0), ("     fcs", 0), ("  rx buf alloc fail", 0),
         ("tx timeout count", 0)]
    return "NIC statistics:\n" + "".join("     %s: %d\n" % kv for kv in s)


def ip_link(e, lo):
    """ip -s link (iproute2 6.1): one width per column, shared by the RX and TX lines."""
    def counters(rx, tx):
        # rx: bytes packets errors dropped missed mcast; tx: bytes packets errors dropped carrier collsns
        w = [max(10, len("%d" % rx[0]), len("%d" % tx[0]))]
        for k, d in enumerate([7, 6, 7, 7, 7]):
            w.append(max(d, len("%d" % rx[k + 1]), len("%d" % tx[k + 1])))
        head = lambda tag, names: ("    %s:%s" % (tag, "bytes".rjust(w[0] - 3)) +
                                   "".join(" " + n.rjust(w[k + 1]) for k, n in enumerate(names)) + "           \n")
        data = lambda v: "    " + "%*d" % (w[0], v[0]) + "".join(" %*d" % (w[k + 1], v[k + 1]) for k in range(5)) + " \n"
        return (head("RX", ["packets", "errors", "dropped", "missed", "mcast"]) + data(rx) +
                head("TX", ["packets", "errors", "dropped", "carrier", "collsns"]) + data(tx))
    return ("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\n"
            "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n" +
            counters((lo["rxb"], lo["rxp"], 0, 0, 0, 0), (lo["rxb"], lo["rxp"], 0, 0, 0, 0)) +
            "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000\n"
            "    link/ether %s brd ff:ff:ff:ff:ff:ff\n    altname enp11s0\n" % ETH_MAC +
            counters((e["rxb"], e["rxp"], 0, e["drop"], 0, 4_381_226), (e["txb"], e["txp"], 0, 0, 0, 0)))


def ip_addr():
    return ("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
            "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
            "    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n"
            "    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n"
            "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000\n"
            "    link/ether %s brd ff:ff:ff:ff:ff:ff\n    altname enp11s0\n"
            "    inet %s/24 brd 192.0.2.255 scope global eth0\n       valid_lft forever preferred_lft forever\n"
            "    inet6 fe80::250:56ff:fe9a:3c17/64 scope link \n       valid_lft forever preferred_lft forever\n"
            % (ETH_MAC, ETH_IP))


def irq_affinity():
    out = []
    for irq, _chip, _hw, _trig, name in IRQ_LINES:
        for action in name.split(", "):
            out.append("%d\t%s\t%s\n" % (irq, IRQ_AFFINITY.get(irq, "0-7"), action))
    return "".join(out)


def ss_text(rows, listening=False):
    """ss -tanp / -tulpn (iproute2 6.1): address and port widths from the rows, as ss sizes them.
    A row is (netid, state, recv-q, send-q, local address, local port, peer address, peer port,
    process)."""
    la = max([len("Local Address")] + [len(r[4]) for r in rows])
    lp = max([len("Port")] + [len(r[5]) for r in rows])
    pa = max([len("Peer Address")] + [len(r[6]) for r in rows])
    pp = max([len("Port")] + [len(r[7]) for r in rows])
    pw = max([len("Process")] + [len(" " + r[8]) for r in rows])
    pre = "Netid " if listening else ""
    out = [pre + "State  Recv-Q Send-Q %*s:%-*s %*s:%-*s" % (la, "Local Address", lp, "Port", pa, "Peer Address",
                                                            pp, "Port") + "%-*s" % (pw, "Process") + "\n"]
    for netid, state, rq, sq, laddr, lport, paddr, pport, proc in rows:
        out.append(("%-5s " % netid if listening else "") + "%-6s %-6s %-6s %*s:%-*s %*s:%-*s" %
                   (state, rq, sq, la, laddr, lp, lport, pa, paddr, pp, pport) + "%-*s" % (pw, " " + proc if proc else "") + "\n")
    return "".join(out)


def ss_rows(end=False):
    rr = random.Random(11 if end else 10)
    dn = lambda fd: 'users:(("java",pid=%d,fd=%d))' % (PID, fd)
    rows = LISTENERS + [("ESTAB", "0", "0", ETH_IP, "43716", "192.0.2.10", "8020", dn(309)),
                        ("ESTAB", "0", "0", ETH_IP, "38210", "192.0.2.11", "8031", ""),
                        ("ESTAB", "0", "52", ETH_IP, "22", "198.51.100.7", "51934", "")]
    fd = 340
    for n in range(14):  # write pipelines: from clients / upstream DataNodes into 9866
        peer = "192.0.2.%d" % rr.choice([22, 23, 24, 31, 32, 33, 34, 35, 36])
        rq = str(rr.choice([0, 0, 0, 65160, 131072, 262144, 196608]))
        rows.append(("ESTAB", rq, "0", ETH_IP, "9866", peer, str(rr.randint(33000, 60999)), dn(fd)))
        fd += 1
    for n in range(9):  # to the next DataNode of each pipeline
        rows.append(("ESTAB", "0", str(rr.choice([0, 87040, 261120, 1041408])), ETH_IP,
                     str(rr.randint(33000, 60999)), "192.0.2.%d" % rr.choice([22, 23, 24]), "9866", dn(fd)))
        fd += 1
    for n in range(12):  # YARN containers reading HDFS and shuffling
        rows.append(("ESTAB", "0", "0", ETH_IP, str(rr.randint(33000, 60999)), "192.0.2.%d" % rr.choice([22, 23, 24]),
                     rr.choice(["9866", "13562"]), ""))
    return [("tcp",) + r for r in rows]


LISTENERS = [("LISTEN", "0", "128", "0.0.0.0", "9866", "0.0.0.0", "*", 'users:(("java",pid=%d,fd=301))' % PID),
             ("LISTEN", "0", "128", "0.0.0.0", "9867", "0.0.0.0", "*", 'users:(("java",pid=%d,fd=305))' % PID),
             ("LISTEN", "0", "50", "0.0.0.0", "9864", "0.0.0.0", "*", 'users:(("java",pid=%d,fd=298))' % PID),
             ("LISTEN", "0", "128", "0.0.0.0", "8040", "0.0.0.0", "*", ""),
             ("LISTEN", "0", "128", "0.0.0.0", "8042", "0.0.0.0", "*", ""),
             ("LISTEN", "0", "128", "0.0.0.0", "13562", "0.0.0.0", "*", ""),
             ("LISTEN", "0", "128", "0.0.0.0", "22", "0.0.0.0", "*", "")]


def ss_listen_rows():
    return ([("udp", "UNCONN", "0", "0", "127.0.0.1", "323", "0.0.0.0", "*", ""),
             ("udp", "UNCONN", "0", "0", "[::1]", "323", "[::]", "*", "")] +
            [("tcp",) + r for r in LISTENERS] +
            [("tcp", "LISTEN", "0", "128", "[::]", "22", "[::]", "*", "")])


# --------------------------------------------------------------------------------------------
# Per-process CPU: who uses the 42 % (pidstat, top)
# --------------------------------------------------------------------------------------------

def busy_procs():
    """(pid, uid, comm, usr%, sys%) means over the window for the processes that run."""
    b = [(PID, HDFS_UID, "java", 29.0, 16.5), (NM_PID, YARN_UID, "java", 4.1, 1.6)]
    for p in PROCS:
        if p[10].startswith("/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Djava.net.preferIPv4Stack=true -Xmx2560m"):
            b.append((p[0], YARN_UID, "java", round(R.uniform(26.5, 31.5), 1), round(R.uniform(2.5, 4.0), 1)))
    b += [(next(p[0] for p in PROCS if p[9] == "kswapd0"), 0, "kswapd0", 0.0, 11.8),
          (14, 0, "ksoftirqd/0", 0.0, 6.1),
          (next(p[0] for p in PROCS if p[9] == "jbd2/sdb-8"), 0, "jbd2/sdb-8", 0.0, 0.9),
          (next(p[0] for p in PROCS if p[9] == "jbd2/sdc-8"), 0, "jbd2/sdc-8", 0.0, 0.8),
          (next(p[0] for p in PROCS if p[9].startswith("kworker/u17:2")), 0, "kworker/u17:2-flush-8:32", 0.0, 2.2),
          (510, 0, "vmtoolsd", 0.2, 0.3)]
    return b


def pidstat_udw(date, times, head_t, collector_rows):
    busy = busy_procs()
    rr = random.Random(3)
    per = []  # [interval] -> list of (pid, uid, comm, usr, sys, wait, cpu)
    for i in range(N):
        rows = []
        for pid, uid, comm, u, s in busy:
            uu = max(0.0, jitter(u, 0.25)) if u else 0.0
            ss_ = max(0.0, jitter(s, 0.25))
            if pid == PID and M_GC_INTERVALS.get(i):
                ss_ += 22.0  # GC threads fault heap pages back in from swap
            cpu = int(comm.split("/")[1]) if comm.startswith("ksoftirqd/") else rr.randint(0, NCPU - 1)
            rows.append((pid, uid, comm, round(uu, 2), round(ss_, 2), round(rr.uniform(0.4, 3.5), 2), cpu))
        rows += [r for r in collector_rows(i)]
        rows.sort()
        per.append(rows)
    out = [sysstat_header(date), "\n"]
    h_u = "      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
    h_d = "      UID       PID   kB_rd/s   kB_wr/s kB_ccwr/s iodelay  Command\n"
    h_w = "      UID       PID   cswch/s nvcswch/s  Command\n"
    prev = head_t
    dn_io = []
    for i in range(N):
        t = times[i]
        out.append("%-8s" % prev + h_u)
        for pid, uid, comm, u, s, w, c in per[i]:
            if u + s > 0:
                out.append("%-11s %5d %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s\n" % (t, uid, pid, u, s, 0.0, w, u + s, c, comm))
        out.append("\n" + "%-8s" % prev + h_d)
        rd = sum(M.disk[i][d]["rs"] for d in ("sdb", "sdc")) / 2.0 * 0.93
        wr = sum(M.disk[i][d]["ws"] for d in ("sdb", "sdc")) / 2.0 * 0.97
        dn_io.append((rd, wr))
        out.append("%-11s %5d %9d %9.2f %9.2f %9.2f %7d  %s\n" % (t, HDFS_UID, PID, rd, wr, 0.0, rr.randint(78, 99), "java"))
        out.append("\n" + "%-8s" % prev + h_w)
        for pid, uid, comm, u, s, w, c in per[i]:
            out.append("%-11s %5d %9d %9.2f %9.2f  %s\n" % (t, uid, pid, rr.uniform(0.9, 60.0) if comm != "java" else
                                                           rr.uniform(1.5, 9.0), rr.uniform(0.0, 4.0), comm))
        out.append("\n")
        prev = t
    # Averages.
    out.append("Average:" + h_u)
    acc = {}
    for i in range(N):
        for pid, uid, comm, u, s, w, c in per[i]:
            a = acc.setdefault(pid, [uid, comm, 0.0, 0.0, 0.0])
            a[2] += u; a[3] += s; a[4] += w
    for pid in sorted(acc):
        uid, comm, u, s, w = acc[pid]
        if u + s > 0:
            out.append("%-11s %5d %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5s  %s\n" % (
                "Average:", uid, pid, u / N, s / N, 0.0, w / N, (u + s) / N, "-", comm))
    out.append("\nAverage:" + h_d)
    out.append("%-11s %5d %9d %9.2f %9.2f %9.2f %7d  %s\n" % (
        "Average:", HDFS_UID, PID, sum(x[0] for x in dn_io) / N, sum(x[1] for x in dn_io) / N, 0.0, 88, "java"))
    out.append("\nAverage:" + h_w)
    for pid in sorted(acc):
        uid, comm = acc[pid][0], acc[pid][1]
        out.append("%-11s %5d %9d %9.2f %9.2f  %s\n" % ("Average:", uid, pid, rr.uniform(0.9, 40.0), rr.uniform(0.0, 3.0), comm))
    return "".join(out), {i: next(r for r in per[i] if r[0] == PID) for i in range(N)}


M_GC_INTERVALS = {}  # interval -> [gc in progress], set in main()


def pidstat_t(base, date, times, head_t, dn_rows, tid_map):
    """pidstat -t -p PID: the base's threads (names, order), the DataNode's CPU split over them."""
    names = []
    for l in base.splitlines():
        m = re.match(r"^\S+\s+\d+\s+-\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+\s+\|__(.*)$", l)
        if m:
            tid = int(m.group(1))
            if tid in [t for t, _ in names]:
                break
            names.append((tid, m.group(2)))
    rr = random.Random(5)
    weights = []
    for tid, n in names:
        if n.startswith("DataXceiver"):
            weights.append((9.0, 5.0))
        elif n.startswith("PacketRespond"):
            weights.append((2.0, 2.0))
        elif n.startswith("IPC Server"):
            weights.append((0.3, 0.2))
        elif n.startswith("C2 Compiler") or n.startswith("C1 Compiler"):
            weights.append((0.5, 0.0))
        elif n.startswith("G1 Refine") or n.startswith("VM Periodic"):
            weights.append((0.1, 0.1))
        else:
            weights.append((0.0, 0.0))
    gc_threads = [k for k, (_, n) in enumerate(names) if n.startswith("GC Thread#")]
    out = [sysstat_header(date), "\n"]
    hdr = "      UID      TGID       TID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
    prev = head_t
    acc = [[0.0, 0.0, 0.0] for _ in names]
    tg_acc = [0.0, 0.0, 0.0]
    for i in range(N):
        t = times[i]
        _pid, _uid, _comm, u, s, w, c = dn_rows[i]
        out.append("%-8s" % prev + hdr)
        out.append("%-11s %5d %9d %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s\n" % (t, HDFS_UID, PID, "-", u, s, 0.0, w, u + s, c, "java"))
        tg_acc[0] += u; tg_acc[1] += s; tg_acc[2] += w
        wu = [x[0] for x in weights]
        ws = [x[1] for x in weights]
        gc = bool(M_GC_INTERVALS.get(i))
        if gc:
            for k in gc_threads:
                ws[k] += 7.0
                wu[k] += 1.5
        su, sv = sum(wu) or 1.0, sum(ws) or 1.0
        for k, (tid, n) in enumerate(names):
            uu = round(u * wu[k] / su, 2)
            sy = round(s * ws[k] / sv, 2)
            wt = round(rr.uniform(0.0, 1.5), 2) if uu + sy > 0 else 0.0
            acc[k][0] += uu; acc[k][1] += sy; acc[k][2] += wt
            out.append("%-11s %5d %9s %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5d  |__%s\n" % (
                t, HDFS_UID, "-", tid_map(tid), uu, sy, 0.0, wt, uu + sy, rr.randint(0, NCPU - 1), n))
        out.append("\n")
        prev = t
    out.append("Average:" + hdr)
    out.append("%-11s %5d %9d %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5s  %s\n" % (
        "Average:", HDFS_UID, PID, "-", tg_acc[0] / N, tg_acc[1] / N, 0.0, tg_acc[2] / N, (tg_acc[0] + tg_acc[1]) / N, "-", "java"))
    for k, (tid, n) in enumerate(names):
        a = acc[k]
        out.append("%-11s %5d %9s %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5s  |__%s\n" % (
            "Average:", HDFS_UID, "-", tid_map(tid), a[0] / N, a[1] / N, 0.0, a[2] / N, (a[0] + a[1]) / N, "-", n))
    return "".join(out)


def top_text(base_first, procs, cpu_now, v):
    t = re.match(r"top - (\d\d:\d\d:\d\d)", base_first).group(1)
    days, rest = divmod(UPTIME_S, 86400)
    mib = lambda k: k / 1024.0
    tot = sum(cpu_now[k] for k in CATS)
    p = {k: cpu_now[k] * 100.0 / tot for k in CATS}
    running = sum(1 for x in procs if x[8].startswith("R"))
    out = ["top - %s up %d days, %2d:%02d,  1 user,  load average: 14.62, 13.87, 12.95\n" % (t, days, rest // 3600, rest // 60 % 60),
           "Tasks: %d total, %3d running, %d sleeping,   0 stopped,   0 zombie\n" % (len(procs), max(running, 4), len(procs) - max(running, 4)),
           "%%Cpu(s): %4.1f us, %4.1f sy, %4.1f ni, %4.1f id, %4.1f wa, %4.1f hi, %4.1f si, %4.1f st \n" % (
               p["usr"], p["sys"], p["nice"], p["idle"], p["iowait"], p["irq"], p["soft"], p["steal"]),
           "MiB Mem :  %7.1f total,  %7.1f free,  %7.1f used,  %7.1f buff/cache     \n" % (
               mib(v["MemTotal"]), mib(v["MemFree"]),
               mib(v["MemTotal"] - v["MemFree"] - v["Buffers"] - v["Cached"] - v["SReclaimable"]),
               mib(v["Buffers"] + v["Cached"] + v["SReclaimable"])),
           "MiB Swap:  %7.1f total,  %7.1f free,  %7.1f used.  %7.1f avail Mem \n" % (
               mib(v["SwapTotal"]), mib(v["SwapFree"]), mib(v["SwapTotal"] - v["SwapFree"]), mib(v["MemAvailable"])),
           "\n", "  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n"]
    now = {pid: u + s for pid, _uid, _c, u, s in busy_procs()}

    def size(k, w):
        if len(str(k)) <= w:
            return str(k)
        return ("%.1fg" % (k / 1048576.0)) if k >= 1048576 else ("%.1fm" % (k / 1024.0))

    def tm(cpu_s):
        cs = int(cpu_s * 100)
        mins, sec = divmod(cs // 100, 60)
        full = "%d:%02d.%02d" % (mins, sec, cs % 100)
        return full if len(full) <= 9 else "%d:%02d" % (mins, sec)

    rows = sorted(procs, key=lambda x: (-now.get(x[0], 0.0), x[0]))
    for pid, ppid, user, nlwp, cpu, rss, vsz, et, stat, comm, args in rows:
        shr = min(rss, 28_000 + rss // 200) if rss else 0
        pr, ni = ("rt", "0") if comm.startswith("migration") else (("0", "-20") if stat.endswith("<") else (("39", "19") if stat.endswith("N") else ("20", "0")))
        name = comm if len(comm) <= 10 else comm[:9] + "+"
        out.append("%5d %-8s %3s %3s %7s %6s %6s %s %5.1f %5.1f %9s %s\n" % (
            pid, user[:8], pr, ni, size(vsz, 7), size(rss, 6), size(shr, 6), stat[0], now.get(pid, 0.0),
            rss * 100.0 / MEM_TOTAL_KIB, tm(cpu / 100.0 * et), name))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Network counters of the TCP/IP stack: /proc/net/snmp, netstat -s, nstat -asz
# --------------------------------------------------------------------------------------------

NETSTAT_SENTENCES = [
    (r"(\d+) total packets received", "IpInReceives"), (r"(\d+) forwarded", "IpForwDatagrams"),
    (r"(\d+) incoming packets discarded", "IpInDiscards"), (r"(\d+) incoming packets delivered", "IpInDelivers"),
    (r"(\d+) requests sent out", "IpOutRequests"), (r"(\d+) ICMP messages received", "IcmpInMsgs"),
    (r"(\d+) input ICMP message failed", "IcmpInErrors"), (r"(\d+) ICMP messages sent", "IcmpOutMsgs"),
    (r"(\d+) ICMP messages failed", "IcmpOutErrors"), (r"(\d+) active connection openings", "TcpActiveOpens"),
    (r"(\d+) passive connection openings", "TcpPassiveOpens"), (r"(\d+) failed connection attempts", "TcpAttemptFails"),
    (r"(\d+) connection resets received", "TcpEstabResets"), (r"(\d+) connections established", "TcpCurrEstab"),
    (r"(\d+) segments received", "TcpInSegs"), (r"(\d+) segments sent out", "TcpOutSegs"),
    (r"(\d+) segments retransmitted", "TcpRetransSegs"), (r"(\d+) bad segments received", "TcpInErrs"),
    (r"(\d+) resets sent", "TcpOutRsts"), (r"(\d+) packets received", "UdpInDatagrams"),
    (r"(\d+) packets to unknown port received", "UdpNoPorts"), (r"(\d+) packet receive errors", "UdpInErrors"),
    (r"(\d+) packets sent", "UdpOutDatagrams"), (r"(\d+) receive buffer errors", "UdpRcvbufErrors"),
    (r"(\d+) send buffer errors", "UdpSndbufErrors"),
    (r"(\d+) packets pruned from receive queue because of socket buffer overrun", "TcpExtPruneCalled"),
    (r"(\d+) TCP sockets finished time wait in fast timer", "TcpExtTW"),
    (r"(\d+) packets rejected in established connections because of timestamp", "TcpExtPAWSEstab"),
    (r"(\d+) delayed acks sent", "TcpExtDelayedACKs"), (r"Quick ack mode was activated (\d+) times", "TcpExtDelayedACKLost"),
    (r"(\d+) packet headers predicted", "TcpExtTCPHPHits"),
    (r"(\d+) acknowledgments not containing data payload received", "TcpExtTCPPureAcks"),
    (r"(\d+) predicted acknowledgments", "TcpExtTCPHPAcks"),
    (r"Detected reordering (\d+) times using SACK", "TcpExtTCPSACKReorder"),
    (r"Detected reordering (\d+) times using time stamp", "TcpExtTCPTSReorder"),
    (r"(\d+) congestion windows fully recovered without slow start", "TcpExtTCPFullUndo"),
    (r"(\d+) congestion windows partially recovered using Hoe heuristic", "TcpExtTCPPartialUndo"),
    (r"(\d+) fast retransmits", "TcpExtTCPFastRetrans"),
    (r"(\d+) connections reset due to unexpected data", "TcpExtTCPAbortOnData"),
    (r"(\d+) connections reset due to early user close", "TcpExtTCPAbortOnClose"),
]


def net_counters(nstat_start, nstat_end):
    """nstat names -> (value at the window start, value at its end)."""
    bs = {l.split()[0]: int(l.split()[1]) for l in nstat_start.splitlines() if l and not l.startswith("#")}
    be = {l.split()[0]: int(l.split()[1]) for l in nstat_end.splitlines() if l and not l.startswith("#")}
    scale = UPTIME_S / 12_100.0
    rr = random.Random(9)
    rx = sum(n["rxp"] + n["lop"] for n in M.net)
    tx = sum(n["txp"] + n["lop"] for n in M.net)
    e0, lo0 = net_at(0)
    model = {  # key: (start, delta over the window)
        "IpInReceives": (e0["rxp"] + lo0["rxp"], rx), "IpInDelivers": (e0["rxp"] + lo0["rxp"] - 9_114, rx),
        "IpOutRequests": (e0["txp"] + lo0["rxp"], tx), "IpOutTransmits": (e0["txp"] + lo0["rxp"], tx),
        "IpExtInOctets": (e0["rxb"] + lo0["rxb"], sum(n["rxb"] + n["lob"] for n in M.net)),
        "IpExtOutOctets": (e0["txb"] + lo0["rxb"], sum(n["txb"] + n["lob"] for n in M.net)),
        "IpExtInNoECTPkts": (e0["rxp"] + lo0["rxp"], rx),
        "TcpInSegs": (int((e0["rxp"] + lo0["rxp"]) * 0.996), int(rx * 0.996)),
        "TcpOutSegs": (int((e0["txp"] + lo0["rxp"]) * 0.995), int(tx * 0.995)),
        "TcpRetransSegs": (UPTIME_S * 21, sum(rr.randint(25, 45) for _ in range(N))),
        "TcpActiveOpens": (UPTIME_S * 15, sum(rr.randint(14, 24) for _ in range(N))),
        "TcpPassiveOpens": (UPTIME_S * 19, sum(rr.randint(18, 30) for _ in range(N))),
        "TcpEstabResets": (UPTIME_S // 3, 9), "TcpOutRsts": (UPTIME_S, 52),
        "TcpExtTCPFastRetrans": (UPTIME_S * 16, sum(rr.randint(18, 34) for _ in range(N))),
        "TcpExtTCPLostRetransmit": (UPTIME_S * 2, sum(rr.randint(2, 6) for _ in range(N))),
        "TcpExtTCPTimeouts": (UPTIME_S, sum(rr.randint(1, 4) for _ in range(N))),
        "TcpExtTCPOFOQueue": (UPTIME_S * 95, sum(rr.randint(120, 220) for _ in range(N))),
        "TcpExtTCPSackRecovery": (UPTIME_S * 9, sum(rr.randint(10, 20) for _ in range(N))),
        "TcpExtTCPDSACKOldSent": (UPTIME_S * 110, sum(rr.randint(150, 260) for _ in range(N))),
        "TcpExtTCPRcvCoalesce": (UPTIME_S * 6_900, sum(rr.randint(9_000, 12_000) for _ in range(N))),
        "TcpExtTCPHPHits": (UPTIME_S * 11_000, sum(rr.randint(13_000, 17_000) for _ in range(N))),
        "TcpExtTCPPureAcks": (UPTIME_S * 6_100, sum(rr.randint(8_000, 10_000) for _ in range(N))),
        "TcpExtTCPHPAcks": (UPTIME_S * 5_200, sum(rr.randint(7_000, 9_000) for _ in range(N))),
        "TcpExtTCPOrigDataSent": (int(e0["txp"] * 0.6), int(tx * 0.6)),
        "TcpExtTCPDelivered": (int(e0["txp"] * 0.6), int(tx * 0.6)),
        "TcpExtListenOverflows": (0, 0), "TcpExtListenDrops": (0, 0),
    }
    out = {}
    for key, a in bs.items():
        if key in model:
            s, d = model[key]
            out[key] = (s, s + d)
        elif key == "TcpCurrEstab":
            out[key] = (143, 141)
        elif key in ("TcpRtoAlgorithm", "TcpRtoMin", "TcpRtoMax", "TcpMaxConn", "IpForwarding", "IpDefaultTTL"):
            out[key] = (a, a)
        else:
            b = be.get(key, a)
            s = int(a * scale)
            out[key] = (s, s + max(0, b - a) * 4)
    return out


def nstat_text(base, counters, end):
    out = []
    for l in base.splitlines():
        if not l or l.startswith("#"):
            out.append(l)
            continue
        key = l.split()[0]
        out.append("%-32s%-19d%.1f" % (key, counters[key][1 if end else 0], 0.0))
    return "\n".join(out) + "\n"


def snmp_text(base, counters, end):
    lines = base.splitlines()
    out = []
    for k in range(0, len(lines), 2):
        head, vals = lines[k], lines[k + 1]
        sect = head.split(":")[0]
        names = head.split()[1:]
        new = []
        for n, v in zip(names, vals.split()[1:]):
            key = sect + n
            new.append(str(counters[key][1 if end else 0]) if key in counters else v)
        out += [head, sect + ": " + " ".join(new)]
    return "\n".join(out) + "\n"


def netstat_text(base, counters, end):
    out = []
    sect = ""
    hist = ""
    for l in base.splitlines():
        if re.match(r"^\S+:$", l):
            sect = l[:-1]
            out.append(l)
            continue
        if "ICMP input histogram" in l or "ICMP output histogram" in l:
            hist = "In" if "input" in l else "Out"
            out.append(l)
            continue
        dm = re.match(r"^(\s*destination unreachable: )(\d+)$", l)
        if dm and ("Icmp%sDestUnreachs" % hist) in counters:
            out.append(dm.group(1) + str(counters["Icmp%sDestUnreachs" % hist][1 if end else 0]))
            continue
        key = None
        for pat, k in NETSTAT_SENTENCES:
            if re.fullmatch(r"\s*" + pat, l):
                if (k.startswith("Udp") and sect != "Udp") or (k.startswith("Ip") and sect != "Ip"):
                    continue
                key = k
                break
        m = re.match(r"^(\s*)([A-Za-z0-9_]+): (\d+)$", l)
        if key is None and m:
            key = sect + m.group(2)
            if sect in ("IcmpMsg",):
                key = "IcmpMsg" + m.group(2)
        if key and key in counters:
            val = counters[key][1 if end else 0]
            l = re.sub(r"\d+", str(val), l, count=1) if not m else m.group(1) + m.group(2) + ": " + str(val)
        out.append(l)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------

def main():
    global BOOT_IRQ_TOTAL, BTIME, DN_ARGS, YGCT_AT_WINDOW
    if len(sys.argv) != 3:
        die("usage: make-s1.py BASE.tar.gz OUTDIR")
    base_top, F = read_base(sys.argv[1])
    man = Manifest(F["manifest.tsv"])
    base_pid = int(man.meta("jvms"))
    work = re.search(r"/tmp/rca-s1-base\.[A-Za-z0-9]+", F["manifest.tsv"]).group(0)
    w0 = float(man.rec("sysstat/iostat-x.txt")[5])
    BTIME = int(w0) - UPTIME_S
    date = re.search(r"\t(\d{4}-\d\d-\d\d) \t", F["sysstat/mpstat-P-ALL.txt"]).group(1)
    times = base_times(F["sysstat/mpstat-P-ALL.txt"])
    head_t = re.search(r"^(\d\d:\d\d:\d\d)\s+CPU\s", F["sysstat/mpstat-P-ALL.txt"], re.M).group(1)
    if len(times) != N:
        die("the base has %d mpstat intervals, expected %d" % (len(times), N))
    jp = "jvm/%d/" % base_pid
    jvm = Jvm(F, work, base_pid)
    BOOT_IRQ_TOTAL = sum(sum(v) for v in interrupts_at(0)[0].values()) + sum(sum(v) for v in interrupts_at(0)[1].values())
    # Which intervals hold a GC pause (for thread CPU): interval i covers JVM ages [a0+i, a0+i+1).
    for n, g in enumerate(jvm.window_gcs):
        start = g[0] - jvm.base_age0
        end = start + jvm.pause[g[1]] / 1000.0
        for i in range(int(start), min(N, int(end) + 1)):
            M_GC_INTERVALS.setdefault(i, []).append(g[1])
    out = {}

    # --- the JVM ---------------------------------------------------------------------------
    cmdline = jvm.scrub(F[jp + "cmdline.txt"])
    DN_ARGS = " ".join(cmdline.splitlines())
    gc_log = jvm.gc_log(65536)
    YGCT_AT_WINDOW = 1041.637 + sum(jvm.recent_pauses) / 1000.0
    js = F[jp + "jstat-gcutil.txt"].splitlines(True)
    out["jvm/%d/jstat-gcutil.txt" % PID] = jvm.jstat(js[0])
    out["jvm/%d/gc.log" % PID] = gc_log
    out["jvm/%d/cmdline.txt" % PID] = cmdline
    for name in ("vm-version.txt", "vm-flags.txt", "vm-command-line.txt", "java-version.txt", "limits", "threads.tsv"):
        out["jvm/%d/%s" % (PID, name)] = jvm.scrub(F[jp + name])
    props = jvm.scrub(F[jp + "vm-system-properties.txt"])
    props = (props.replace("user.name=root", "user.name=hdfs").replace("user.home=/root", "user.home=/home/hdfs")
             .replace("os.version=6.18.44-fc-v657", "os.version=" + KREL))
    out["jvm/%d/vm-system-properties.txt" % PID] = props
    # Threads of a block transfer (DataXceiver, PacketResponder) live for one block: recent
    # thread ids and their own short elapsed times. The others started with the JVM.
    short = {}
    for m_ in re.finditer(r'^"(.*?)".* nid=0x([0-9a-f]+)', F[jp + "thread-dump.1.txt"], re.M):
        if m_.group(1).startswith(("DataXceiver for client", "PacketResponder:")):
            short[int(m_.group(2), 16)] = 2_614_003 + 11 * len(short)

    def tid(t):
        return short.get(t, t - base_pid + PID)

    def thread_line(m_):
        name, cpu, el = m_.group(1), float(m_.group(2)), float(m_.group(3))
        if name.startswith(("DataXceiver for client", "PacketResponder:")):
            return m_.group(0)
        new_el = el + jvm.offset
        if name != "main":
            cpu = cpu * new_el / max(el, 1.0) * 0.9
        return m_.group(0).replace("cpu=%sms elapsed=%ss" % (m_.group(2), m_.group(3)),
                                   "cpu=%.2fms elapsed=%.2fs" % (cpu, new_el))

    for n in ("1", "2"):
        raw = F[jp + "thread-dump.%s.txt" % n]
        raw = re.sub(r'^"(.*?)".*? cpu=([\d.]+)ms elapsed=([\d.]+)s', thread_line, raw, flags=re.M)
        raw = jvm.scrub(raw)
        raw = re.sub(r"nid=0x([0-9a-f]+)", lambda m: "nid=0x%x" % tid(int(m.group(1), 16)), raw)
        out["jvm/%d/thread-dump.%s.txt" % (PID, n)] = raw
    out["jvm/%d/class-histogram.txt" % PID] = jvm.scrub(F[jp + "class-histogram.txt"])
    status = F[jp + "status"]
    st = {"Tgid": PID, "Pid": PID, "PPid": 1, "NStgid": PID, "NSpid": PID, "NSpgid": PID, "NSsid": PID,
          "VmPeak": "6996248 kB", "VmSize": "6996248 kB", "VmHWM": "3790552 kB", "VmRSS": "2964112 kB",
          "RssAnon": "2941980 kB", "RssFile": "22132 kB", "VmSwap": "826408 kB", "VmPTE": "7432 kB",
          "Cpus_allowed": "ff", "Cpus_allowed_list": "0-7",
          "voluntary_ctxt_switches": 1_948_211_406, "nonvoluntary_ctxt_switches": 83_114_982,
          "Uid": "%d\t%d\t%d\t%d" % ((HDFS_UID,) * 4), "Gid": "%d\t%d\t%d\t%d" % ((HDFS_UID,) * 4),
          "State": "S (sleeping)", "FDSize": "1024", "SigQ": "4/127814"}
    lines = []
    for l in status.splitlines():
        k, _, v = l.partition(":\t")
        if k in st:
            val = st[k]
            if isinstance(val, str) and val.endswith(" kB"):
                val = "%8s kB" % val[:-3]
            l = "%s:\t%s" % (k, val)
        lines.append(l)
    out["jvm/%d/status" % PID] = "\n".join(lines) + "\n"
    svc = "/sys/fs/cgroup/system.slice/hadoop-hdfs-datanode.service"
    cg = ["cgroup\t0::/system.slice/hadoop-hdfs-datanode.service"]
    for d, cur in ((svc, 3_057_311_744), ("/sys/fs/cgroup/system.slice", 7_442_817_024)):
        cg += ["limit\tmemory.max\t%s\tmax" % d, "limit\tmemory.high\t%s\tmax" % d, "limit\tmemory.swap.max\t%s\tmax" % d,
               "limit\tmemory.current\t%s\t%d" % (d, cur)]
        cg += ["limit\tmemory.events\t%s\t%s 0" % (d, e) for e in ("low", "high", "max", "oom", "oom_kill", "oom_group_kill")]
        cg += ["limit\tcpu.max\t%s\tmax 100000" % d, "limit\tcpu.weight\t%s\t100" % d]
        us = 91_873_412_003 if d == svc else 412_661_093_387
        cg += ["limit\tcpu.stat\t%s\t%s" % (d, x) for x in (
            "usage_usec %d" % us, "user_usec %d" % int(us * 0.66), "system_usec %d" % int(us * 0.34),
            "nr_periods 0", "nr_throttled 0", "throttled_usec 0", "nr_bursts 0", "burst_usec 0")]
    allc = sum(sum(BOOT_CPU[c][k] for k in ("usr", "nice", "sys", "irq", "soft")) for c in range(NCPU)) * 10_000
    cg += ["limit\tcpu.stat\t/sys/fs/cgroup\t%s" % x for x in (
        "usage_usec %d" % allc, "user_usec %d" % int(allc * 0.71), "system_usec %d" % int(allc * 0.29))]
    out["jvm/%d/cgroup.tsv" % PID] = "\n".join(cg) + "\n"

    # --- processes ----------------------------------------------------------------------------
    base_ps = F["system/ps.txt"].splitlines()[1:]
    parsed = []
    for l in base_ps:
        f = l.split(None, 11)
        parsed.append((int(f[0]), int(f[1]), f[2], f[3:11], f[11] if len(f) > 11 else ""))
    roots = [p[0] for p in parsed if p[4].startswith("sh ") and "collector.sh" in p[4] and
             not any(q[0] == p[1] and "collector.sh" in q[4] for q in parsed)]
    sub = set(roots)
    changed = True
    while changed:
        changed = False
        for p in parsed:
            if p[1] in sub and p[0] not in sub:
                sub.add(p[0]); changed = True
    base_sorted = sorted(sub)
    cmap = {p: 50_402 + n * 3 for n, p in enumerate(base_sorted)}
    collector_pids = {"sudo": 50_398}
    build_procs(collector_pids)
    opts = "--duration 30 --interval 1 --pid %d --no-perf --max-log-bytes 65536 --label s1-hadoop-vmware --output /tmp" % PID

    def cargs(a):
        a = a.replace("sh " + REPO_COLLECTOR, "sh collector.sh")
        a = re.sub(r"sh /\S*/collector\.sh", "sh collector.sh", a)
        a = re.sub(r"--duration 30 --interval 1 --pid %d --no-perf --label s1-hadoop-vmware --output \S+" % base_pid, opts, a)
        a = re.sub(r"\b%d\b" % base_pid, str(PID), a)
        return a

    for p in parsed:
        if p[0] not in sub:
            continue
        pid, ppid, user, mid, args = p
        nlwp, pcpu, pmem, rss, vsz, et, stat, comm = mid
        PROCS.append((cmap[pid], cmap.get(ppid, collector_pids["sudo"]), "hdfs", int(nlwp), float(pcpu), int(rss),
                      int(vsz), int(et), stat, comm, cargs(args)))
    PROCS.sort(key=lambda x: x[0])
    out["system/ps.txt"] = ps_text(PROCS)
    jstat_pid = next((cmap[p[0]] for p in parsed if p[0] in sub and p[3][7] == "jstat"), 50_450)
    pidstat_pid = next((cmap[p[0]] for p in parsed if p[0] in sub and p[3][7] == "pidstat"), 50_440)

    def collector_rows(i):
        rows = [(pidstat_pid, HDFS_UID, "pidstat", 0.31, 0.62, 0.1, 2)]
        if i == 0:
            rows.append((jstat_pid, HDFS_UID, "jstat", 10.61, 2.02, 0.4, 5))
        else:
            rows.append((jstat_pid, HDFS_UID, "jstat", 0.0, 0.98 if i % 3 == 0 else 0.0, 0.0, 5))
        return rows

    udw, dn_rows = pidstat_udw(date, times, head_t, collector_rows)
    out["sysstat/pidstat-udw.txt"] = udw
    out["sysstat/pidstat-t.txt"] = pidstat_t(F["sysstat/pidstat-t.txt"], date, times, head_t, dn_rows, tid)
    jps = jvm.scrub(F["jvm/jps-lv.txt"])
    out["jvm/jps-lv.txt"] = re.sub(r"^%d " % base_pid, "%d " % PID, jps, flags=re.M)

    # --- samplers ---------------------------------------------------------------------------
    out["sysstat/mpstat-P-ALL.txt"] = mpstat_text(F["sysstat/mpstat-P-ALL.txt"], date)
    out["sysstat/mpstat-P-ALL.json"] = mpstat_json(times, date)
    boot = ({k: sum(BOOT_CPU[c][k] for c in range(NCPU)) for k in CATS}, BOOT_DISK, float(UPTIME_S))
    reps = iostat_reports(boot)
    out["sysstat/iostat-x.txt"] = iostat_text(F["sysstat/iostat-x.txt"], date, reps)
    out["sysstat/iostat-x.json"] = iostat_json(date, reps)
    out["sysstat/vmstat.txt"] = vmstat_text(F["sysstat/vmstat.txt"])
    out["sysstat/sar-n-DEV.txt"], out["sysstat/sar-n-EDEV.txt"] = sar_texts(date, times, head_t)

    # --- /proc snapshots --------------------------------------------------------------------
    vals0 = meminfo_text(F["mem/meminfo"], 1)[1]
    out["proc/softirqs.start"], out["proc/softirqs.end"] = softirqs_text(0), softirqs_text(N)
    out["proc/interrupts.start"], out["proc/interrupts.end"] = interrupts_text(0), interrupts_text(N)
    out["proc/stat.start"] = proc_stat_text(0, M.vm[0]["r"], M.vm[0]["b"])
    out["proc/stat.end"] = proc_stat_text(N, M.vm[-1]["r"], M.vm[-1]["b"])
    v_end = meminfo_text(F["mem/meminfo"], N)[1]
    out["proc/vmstat.start"] = proc_vmstat_text(F["proc/vmstat.start"], F["proc/vmstat.end"], 0, vals0)
    out["proc/vmstat.end"] = proc_vmstat_text(F["proc/vmstat.start"], F["proc/vmstat.end"], N, v_end)
    out["proc/diskstats"] = diskstats_text(0, {"sda": 2, "sda3": 1, "sdb": 11, "sdc": 13})
    out["proc/diskstats.end"] = diskstats_text(N, {"sda": 1, "sda3": 1, "sdb": 14, "sdc": 12})
    out["proc/net/dev.start"], out["proc/net/dev.end"] = net_dev_text(0.05), net_dev_text(N + 0.04)
    counters = net_counters(F["net/nstat-asz.start"], F["net/nstat-asz.end"])
    out["proc/net/snmp.start"] = snmp_text(F["proc/net/snmp.start"], counters, False)
    out["proc/net/snmp.end"] = snmp_text(F["proc/net/snmp.start"], counters, True)
    out["net/netstat-s.start"] = netstat_text(F["net/netstat-s.start"], counters, False)
    out["net/netstat-s.end"] = netstat_text(F["net/netstat-s.start"], counters, True)
    out["net/nstat-asz.start"] = nstat_text(F["net/nstat-asz.start"], counters, False)
    out["net/nstat-asz.end"] = nstat_text(F["net/nstat-asz.start"], counters, True)
    out["proc/net/softnet_stat.start"], out["proc/net/softnet_stat.end"] = softnet_text(0), softnet_text(N)
    out["net/ss-tanp.start"] = ss_text(ss_rows(False))
    out["net/ss-tanp.end"] = ss_text(ss_rows(True))
    out["net/ss-tulpn.txt"] = ss_text(ss_listen_rows(), listening=True)

    # --- one-off host facts (taken about 0.5 s into the window) ------------------------------
    out["system/uname.txt"] = "Linux %s %s %s x86_64 GNU/Linux\n" % (HOST, KREL, KVER)
    out["system/os-release"] = F["system/os-release"]
    out["system/detect-virt.txt"] = "vmware\n"
    out["system/dmidecode-t-system.txt"] = "# dmidecode 3.4\nScanning /dev/mem for entry point.\n"
    out["system/lspci-k.txt"] = lspci_text()
    out["system/ulimit-a.txt"] = (F["system/ulimit-a.txt"].replace("(-i) 96365", "(-i) 127814")
                                  .replace("(-u) 96365", "(-u) 127814").replace("(-n) 20000", "(-n) 32768"))
    out["jvm/%d/limits" % PID] = (out["jvm/%d/limits" % PID].replace("96365", "127814")
                                  .replace("20000                20000", "65536                65536"))
    out["kernel/cmdline"] = "BOOT_IMAGE=/boot/vmlinuz-%s root=UUID=7d1e6a2c-3b9f-4f0e-9a51-2c8e0b4d61f3 ro net.ifnames=0 biosdevname=0 quiet\n" % KREL
    out["proc/modules"] = proc_modules_text()
    out["kernel/lsmod.txt"] = lsmod_text()
    out["kernel/tainted"] = "0\n"
    out["kernel/dmesg.txt"] = ""
    denied = {"kernel.cad_pid", "kernel.usermodehelper.bset", "kernel.usermodehelper.inheritable",
              "net.core.bpf_jit_harden", "net.core.bpf_jit_kallsyms", "net.core.bpf_jit_limit",
              "net.ipv4.tcp_fastopen_key", "vm.mmap_rnd_bits", "vm.mmap_rnd_compat_bits", "vm.stat_refresh"}
    sysctl = []
    for l in F["kernel/sysctl-a.txt"].splitlines():
        k = l.split(" = ")[0]
        if k in denied or k.endswith(".stable_secret") or ".ifb0." in k or ".ifb1." in k:
            continue
        if k == "kernel.hostname":
            l = "kernel.hostname = " + HOST
        elif k == "kernel.osrelease":
            l = "kernel.osrelease = " + KREL
        elif k == "kernel.version":
            l = "kernel.version = " + KVER
        elif k == "vm.swappiness":
            l = "vm.swappiness = 60"
        sysctl.append(l)
    out["kernel/sysctl-a.txt"] = "\n".join(sysctl) + "\n"
    lscpu, flags = lscpu_text(F["cpu/lscpu.txt"])
    out["cpu/lscpu.txt"] = lscpu
    out["cpu/cpuinfo-head.txt"] = cpuinfo_text(flags)
    out["cpu/numactl-H.txt"] = ("available: 1 nodes (0)\nnode 0 cpus: 0 1 2 3 4 5 6 7\nnode 0 size: 32093 MB\n"
                                "node 0 free: %d MB\nnode distances:\nnode   0 \n  0:  10 \n" % (MEM_SERIES[1][1] // 1024))
    mi, v = meminfo_text(F["mem/meminfo"], 1)
    out["mem/meminfo"] = mi
    out["mem/free-m.txt"] = free_text(v)
    out["mem/swaps"] = swaps_text(v)
    out["mem/swapon-show.txt"] = swapon_text(v)
    out["mem/thp.txt"] = F["mem/thp.txt"]
    out["mem/vmware-balloon.txt"] = "%d MB\n" % BALLOON_MB
    e, lo = net_at(1.0)
    out["net/ip-s-link.txt"] = ip_link(e, lo)
    out["net/ip-addr.txt"] = ip_addr()
    out["net/ethtool/eth0/ethtool-i.txt"] = ethtool_i()
    out["net/ethtool/eth0/ethtool-l.txt"] = ethtool_l()
    out["net/ethtool/eth0/ethtool-k.txt"] = ethtool_k(F["net/ethtool/eth0/ethtool-k.txt"])
    out["net/ethtool/eth0/ethtool-g.txt"] = ethtool_g()
    out["net/ethtool/eth0/ethtool-c.txt"] = ethtool_c()
    out["net/ethtool/eth0/ethtool-S.txt"] = ethtool_s(net_at(1.05)[0])
    out["net/irq-affinity.tsv"] = irq_affinity()
    rec_t = float(man.rec("time/chronyc-tracking.txt")[5])
    out["time/chronyc-tracking.txt"] = chrony_tracking(rec_t)
    out["time/chronyc-sources.txt"] = chrony_sources()
    out["time/timedatectl.txt"] = timedatectl_text(float(man.rec("time/timedatectl.txt")[5]))
    out["time/vmware-timesync.txt"] = "Enabled\n"
    out["system/top.txt"] = top_text(F["system/top.txt"].splitlines()[0], PROCS, cpu_all(1), v)
    out["redaction-log.tsv"] = F["redaction-log.tsv"]
    for name in ("core-site.xml", "hdfs-site.xml", "yarn-site.xml"):
        out["configs%s/etc/hadoop/%s" % (HADOOP, name)] = F["configs%s/opt/hadoop-3.3.6/etc/hadoop/%s" % (work, name)]

    # --- the manifest and the collector's log -----------------------------------------------
    for k, val in [("hostname", HOST), ("user", "hdfs"), ("uid", str(HDFS_UID)), ("kernel", KREL),
                   ("options", opts), ("pids", str(PID)), ("jvms", str(PID)), ("max_log_bytes", "65536")]:
        man.set_meta(k, val)
    notes = {
        "proc/modules": ("0", "", "cat /proc/modules"),
        "kernel/lsmod.txt": ("0", "", None),
        "kernel/modinfo-tainted.txt": ("", "skipped: no module in /proc/modules carries a taint flag", None),
        "kernel/dmesg.txt": ("1", "permission denied: dmesg: read kernel buffer failed: Operation not permitted; exit 1", None),
        "kernel/sysctl-a.txt": ("0", "permission denied: sysctl: permission denied on key 'kernel.cad_pid'", None),
        "system/dmidecode-t-system.txt": ("1", "permission denied: /sys/firmware/dmi/tables/smbios_entry_point: Permission denied; exit 1", None),
        "mem/vmware-balloon.txt": ("0", "", None),
        "time/chronyc-tracking.txt": ("0", "", None),
        "time/chronyc-sources.txt": ("0", "", None),
        "time/timedatectl.txt": ("0", "", None),
        "time/vmware-timesync.txt": ("0", "", None),
        jp + "gc.log": ("0", "truncated at 65536 bytes (log cap)", "tail -c 65536 " + GC_LOG),
    }
    for f in man.records():
        old = f[1]
        f[1] = old.replace(jp, "jvm/%d/" % PID).replace("configs" + work + "/opt/hadoop-3.3.6", "configs" + HADOOP)
        if old in notes:
            ex, note, argv = notes[old]
            f[3] = ex
            f[9] = note
            if argv:
                f[10] = argv
            if not f[5] and ex:
                t = float(man.rec("kernel/cmdline")[5]) + 0.01
                f[5] = f[6] = "%.2f" % t
            if old == jp + "gc.log":
                f[8] = "1"
        f[10] = cargs(jvm.scrub(f[10])).replace(work + "/opt/hadoop-3.3.6", HADOOP)
        if f[1] in out:
            f[7] = str(len(out[f[1]].encode()))
        elif f[1] == "collector.log":
            pass
        elif f[7] != "0":
            die("no output for " + f[1])
    log = collector_log(F["collector.log"], work, base_pid, cargs, jvm)
    out["collector.log"] = log
    man.rec("collector.log")[7] = str(len(log.encode()))
    out["manifest.tsv"] = man.text()

    top = "rca-%s-%s" % (HOST, base_top.rsplit("-", 1)[1])
    root = Path(sys.argv[2]) / top
    if root.exists():
        die("%s exists" % root)
    for path, text in out.items():
        p = root / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    missing = [f[1] for f in man.records() if f[1] not in out and f[7] != "0"]
    if missing:
        die("records without files: %s" % missing)
    print(root)


REPO_COLLECTOR = str(Path(__file__).resolve().parents[3] / "collector.sh")


def collector_log(text, work, base_pid, cargs, jvm):
    out = []
    skip = False
    for l in text.splitlines():
        if skip and l.startswith("    "):
            continue
        skip = False
        l = l.replace(" on vm as root;", " on %s as hdfs;" % HOST)
        if l.startswith("  proc/modules: not found"):
            l = "  proc/modules (proc-modules): cat /proc/modules"
        elif l.startswith("  kernel/lsmod.txt: stderr") or l.startswith("  kernel/lsmod.txt: exit"):
            skip = True
            continue
        elif l.startswith("  kernel/modinfo-tainted.txt: skipped"):
            l = "  kernel/modinfo-tainted.txt: skipped: no module in /proc/modules carries a taint flag"
        elif l.startswith("  kernel/dmesg.txt (dmesg)"):
            out.append(l)
            out += ["  kernel/dmesg.txt: stderr (first lines):",
                    "    dmesg: read kernel buffer failed: Operation not permitted",
                    "  kernel/dmesg.txt: permission denied: dmesg: read kernel buffer failed: Operation not permitted; exit 1"]
            continue
        elif l.startswith("  kernel/sysctl-a.txt (sysctl)"):
            out.append(l)
            out.append("  kernel/sysctl-a.txt: stderr (first lines):")
            for k in ("kernel.cad_pid", "kernel.usermodehelper.bset", "kernel.usermodehelper.inheritable",
                      "net.core.bpf_jit_harden", "net.core.bpf_jit_kallsyms", "net.core.bpf_jit_limit",
                      "net.ipv4.tcp_fastopen_key", "net.ipv6.conf.all.stable_secret",
                      "net.ipv6.conf.default.stable_secret", "net.ipv6.conf.eth0.stable_secret",
                      "net.ipv6.conf.lo.stable_secret", "vm.mmap_rnd_bits", "vm.mmap_rnd_compat_bits", "vm.stat_refresh"):
                out.append("    sysctl: permission denied on key '%s'" % k)
            out.append("  kernel/sysctl-a.txt: permission denied: sysctl: permission denied on key 'kernel.cad_pid'")
            continue
        elif l.startswith("  system/dmidecode-t-system.txt: stderr"):
            out += [l, "    /sys/firmware/dmi/tables/smbios_entry_point: Permission denied", "    /dev/mem: Permission denied",
                    "  system/dmidecode-t-system.txt: permission denied: /sys/firmware/dmi/tables/smbios_entry_point: Permission denied; exit 1"]
            skip = True
            continue
        elif l.startswith("  system/dmidecode-t-system.txt: exit"):
            continue
        elif l.startswith("  system/lspci-k.txt: stderr"):
            skip = True
            continue
        elif l.startswith("  mem/vmware-balloon.txt: not found"):
            l = "  mem/vmware-balloon.txt (balloon): vmware-toolbox-cmd stat balloon"
        elif l.startswith("  time/vmware-timesync.txt: not found"):
            l = "  time/vmware-timesync.txt (vmware-timesync): vmware-toolbox-cmd timesync status"
        elif re.match(r"  time/(chronyc-\w+|timedatectl)\.txt: (exit|stderr)", l):
            skip = l.endswith("stderr (first lines):")
            continue
        elif l.startswith("  no ethtool for interfaces without a device"):
            l = "  no ethtool for interfaces without a device: lo"
        elif "gc.log (gc-log): tail -c" in l:
            l = "  jvm/%d/gc.log (gc-log): tail -c 65536 %s" % (base_pid, GC_LOG)
            out.append(jvm.scrub(l).replace("jvm/%d/" % base_pid, "jvm/%d/" % PID))
            out.append("  jvm/%d/gc.log: truncated at 65536 bytes (log cap)" % PID)
            continue
        l = cargs(jvm.scrub(l)).replace("jvm/%d/" % base_pid, "jvm/%d/" % PID)
        l = l.replace("configs" + work + "/opt/hadoop-3.3.6", "configs" + HADOOP).replace(work + "/opt/hadoop-3.3.6", HADOOP)
        l = l.replace("/proc/%d/" % base_pid, "/proc/%d/" % PID)
        out.append(l)
    return "\n".join(out) + "\n"


def sar_texts(date, times, head_t):
    dev = [sysstat_header(date), "\n"]
    edev = [sysstat_header(date), "\n"]
    hd = "        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n"
    he = "        IFACE   rxerr/s   txerr/s    coll/s  rxdrop/s  txdrop/s  txcarr/s  rxfram/s  rxfifo/s  txfifo/s\n"
    prev = head_t
    acc = {"lo": [0.0] * 9, "eth0": [0.0] * 9}
    acc_e = {"lo": [0.0] * 9, "eth0": [0.0] * 9}
    for i in range(N):
        n = M.net[i]
        t = times[i]
        dev.append("%-8s" % prev + hd)
        edev.append("%-8s" % prev + he)
        rows = {"lo": [n["lop"], n["lop"], n["lob"] / 1024.0, n["lob"] / 1024.0, 0, 0, 0, 0.0],
                "eth0": [n["rxp"], n["txp"], n["rxb"] / 1024.0, n["txb"] / 1024.0, 0, 0, 146.0 + (i % 3),
                         max(n["rxb"], n["txb"]) * 8 / 1e10 * 100]}
        erows = {"lo": [0] * 9, "eth0": [0, 0, 0, n["drop"], 0, 0, 0, 0, 0]}
        for ifc in ("lo", "eth0"):
            dev.append("%-11s %9s" % (t, ifc) + "".join(" %9.2f" % x for x in rows[ifc]) + "\n")
            edev.append("%-11s %9s" % (t, ifc) + "".join(" %9.2f" % x for x in erows[ifc]) + "\n")
            for k, x in enumerate(rows[ifc]):
                acc[ifc][k] += x
            for k, x in enumerate(erows[ifc]):
                acc_e[ifc][k] += x
        dev.append("\n")
        edev.append("\n")
        prev = t
    dev.append("Average:" + hd)
    edev.append("Average:" + he)
    for ifc in ("lo", "eth0"):
        dev.append("%-11s %9s" % ("Average:", ifc) + "".join(" %9.2f" % (x / N) for x in acc[ifc][:8]) + "\n")
        edev.append("%-11s %9s" % ("Average:", ifc) + "".join(" %9.2f" % (x / N) for x in acc_e[ifc]) + "\n")
    return "".join(dev), "".join(edev)


if __name__ == "__main__":
    main()
