#!/usr/bin/env python3
"""Writes the S2 pair: baseline/ (the fast 32-vCPU VM) and suspect/ (the slow TaiShan 200).

Run from anywhere: `python3 sample-bundles/s2-bank-core/make.py`. The output is deterministic.
README.md next to this file lists every source and every changed value.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

import pairkit as K  # noqa: E402

KERNEL = "4.19.90-24.4.v2101.ky10.aarch64"
UNAME_V = "#1 SMP Mon May 24 14:45:37 CST 2021"
DURATION, INTERVAL = 60, 5
PID = 27054  # the application JVM
BOOT_PID = 15505  # bootstrap (baseline only)

BISHENG = ("/usr/local/bisheng-jdk1.8.0_272",
           'openjdk version "1.8.0_272"\n'
           "OpenJDK Runtime Environment Bisheng (build 1.8.0_272-b10)\n"
           "OpenJDK 64-Bit Server VM Bisheng (build 25.272-b10, mixed mode)\n",
           "25.272-b10", "8.0_272", "1.8.0_272", "1.8.0_272-b10", "Bisheng")
KYLIN_OPENJDK = ("/usr/lib/jvm/java-1.8.0-openjdk-1.8.0.242.b08-1.h5.ky10.aarch64",
                 'openjdk version "1.8.0_242"\n'
                 "OpenJDK Runtime Environment (build 1.8.0_242-b08)\n"
                 "OpenJDK 64-Bit Server VM (build 25.242-b08, mixed mode)\n",
                 "25.242-b08", "8.0_242", "1.8.0_242", "1.8.0_242-b08", "Huawei Technologies Co., Ltd")

SIDES = {
    "baseline": dict(
        host="app01.example", ip="192.0.2.11", seed=11, t0=1_796_023_800.402119773, label="vm-fast",
        ncpu=32, virt=True, jdk=BISHENG, io_threads=32, task_threads=256, gc_threads=23, cic=15,
        mem_kb=65_285_376, uptime=2_905_311.617, sigpending=254_060, bootstrap=True,
        usr=24.1, sys=6.2, soft=0.9, steal=0.4,
        nic="eth0", driver="virtio_net", drv_version="1.0.0", firmware="", bus="0000:00:03.0",
        queues=8, queues_max=8, rx_ring=(1024, 1024), rx_bps=3_100_000, tx_bps=3_600_000,
        rx_pps=9_800, tx_pps=9_100,
    ),
    "suspect": dict(
        host="app02.example", ip="192.0.2.12", seed=12, t0=1_796_025_000.118306502, label="taishan-slow",
        ncpu=128, virt=False, jdk=KYLIN_OPENJDK, io_threads=128, task_threads=1024, gc_threads=83, cic=21,
        mem_kb=535_961_600, uptime=4_119_027.183, sigpending=2_088_097, bootstrap=False,
        usr=3.1, sys=1.0, soft=0.1, steal=0.0,
        nic="enp125s0f0", driver="hns3", drv_version="4.19.90-24.4.v2101.ky10.aarch64 SMP mod_unload modversions aarch64",
        firmware="0x1b31a012", bus="0000:7d:00.0",
        queues=16, queues_max=16, rx_ring=(1024, 32760), rx_bps=1_050_000, tx_bps=1_210_000,
        rx_pps=3_300, tx_pps=3_050,
    ),
}

JMETER = ["198.51.100.21", "198.51.100.22", "198.51.100.23", "198.51.100.24", "198.51.100.25"]
DB = "192.0.2.50"
BACKENDS = ["192.0.2.61", "192.0.2.62", "192.0.2.63", "192.0.2.64", "192.0.2.65", "192.0.2.66",
            "192.0.2.67", "192.0.2.68"]
REMOTE_BOOTSTRAP = "192.0.2.40"

OS_RELEASE = """NAME="Kylin Linux Advanced Server"
VERSION="V10 (Sword)"
ID="kylin"
VERSION_ID="V10"
PRETTY_NAME="Kylin Linux Advanced Server V10 (Sword)"
ANSI_COLOR="0;31"

"""

# lscpu of util-linux 2.35 (Kylin V10 SP2): the layout of the 2.34-2.36 arm64 captures (the
# QEMU arm64 CPU-topology series' guest, an Ubuntu 20.04 Neoverse-N1 VM): topology first, caches
# as totals, the vulnerabilities, Flags last, labels padded to the longest one. The values:
# TaiShan 200 2280 with two Kunpeng 920 7260 (the host of vllm-ascend issue #2416); the
# vulnerability states of the Kunpeng 4.19 kernel (BCLinux 4.19.90-2107, vllm-ascend issue #901).
VULNS_4_19 = """Vulnerability Itlb multihit:     Not affected
Vulnerability L1tf:              Not affected
Vulnerability Mds:               Not affected
Vulnerability Meltdown:          Not affected
Vulnerability Spec store bypass: Mitigation; Speculative Store Bypass disabled via prctl
Vulnerability Spectre v1:        Mitigation; __user pointer sanitization
Vulnerability Spectre v2:        Not affected
Vulnerability Srbds:             Not affected
Vulnerability Tsx async abort:   Not affected
Flags:                           fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma dcpop asimddp asimdfhm
"""

LSCPU_PHYS = """Architecture:                    aarch64
CPU op-mode(s):                  64-bit
Byte Order:                      Little Endian
CPU(s):                          128
On-line CPU(s) list:             0-127
Thread(s) per core:              1
Core(s) per socket:              64
Socket(s):                       2
NUMA node(s):                    4
Vendor ID:                       HiSilicon
Model:                           0
Model name:                      Kunpeng-920
Stepping:                        0x1
CPU max MHz:                     2600.0000
CPU min MHz:                     200.0000
BogoMIPS:                        200.00
L1d cache:                       8 MiB
L1i cache:                       8 MiB
L2 cache:                        64 MiB
L3 cache:                        128 MiB
NUMA node0 CPU(s):               0-31
NUMA node1 CPU(s):               32-63
NUMA node2 CPU(s):               64-95
NUMA node3 CPU(s):               96-127
""" + VULNS_4_19

# The KVM guest: 32 vCPUs in one socket, no cpufreq (no MHz lines), the guest's cache totals.
LSCPU_VM = """Architecture:                    aarch64
CPU op-mode(s):                  64-bit
Byte Order:                      Little Endian
CPU(s):                          32
On-line CPU(s) list:             0-31
Thread(s) per core:              1
Core(s) per socket:              32
Socket(s):                       1
NUMA node(s):                    1
Vendor ID:                       HiSilicon
Model:                           0
Model name:                      Kunpeng-920
Stepping:                        0x1
BogoMIPS:                        200.00
L1d cache:                       2 MiB
L1i cache:                       2 MiB
L2 cache:                        16 MiB
L3 cache:                        32 MiB
NUMA node0 CPU(s):               0-31
""" + VULNS_4_19


def build(name, out):
    s = SIDES[name]
    rng = random.Random(s["seed"])
    t0 = s["t0"]
    host, ncpu = s["host"], s["ncpu"]
    day = K.ymd(t0)
    jhome, jver_text, vm_rel, jdk_short, jver, jbuild, jvendor = s["jdk"]
    jcmd = "%s/bin/jcmd" % jhome
    attach = "setpriv --reuid=1001 --regid=1001 --clear-groups -- %s -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData" % jcmd
    meta = {
        "collector_version": "0.2.0", "hostname": host, "user": "root", "uid": "0",
        "kernel": KERNEL, "machine": "aarch64", "started": "%.9f" % t0, "ended": "",
        "duration": str(DURATION), "interval": str(INTERVAL),
        "options": "--duration %d --interval %d --no-perf --label %s --output /tmp" % (DURATION, INTERVAL, s["label"]),
        "complete": "1", "orig_lc_all": "", "orig_lang": "zh_CN.UTF-8", "orig_tz": "",
        "timeout_impl": "coreutils", "sysstat_version": "12.6.1", "label": s["label"],
        "pids": str(PID), "jvms": str(PID), "perf": "off (--no-perf)", "perf_event_paranoid": "2",
        "kptr_restrict": "0", "live_histogram": "0", "keep_perf_data": "0", "zk": "",
        "max_bytes": "200000000", "max_artifact_bytes": "50000000", "max_log_bytes": "10000000",
        "max_thread_dump_bytes": "20000000", "max_perf_script_bytes": "50000000",
        "secrets_masked": "1",
    }
    b = K.Bundle(out, meta)
    b.say(t0, "rca collector 0.2.0 on %s as root; budgets via coreutils" % host)
    c = K.Clock(t0 + 0.018)
    b.add("system/uname.txt", "uname", "Linux %s %s %s aarch64 aarch64 aarch64 GNU/Linux\n" % (host, KERNEL, UNAME_V),
          "uname -a", *c.step(0.004))
    b.add("system/os-release", "os-release", OS_RELEASE, "cat /etc/os-release", *c.step(0.003))
    b.add("jvm/jps-lv.txt", "jps", jps_text(s), "jps -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData -lv | awk -f mask.awk",
          *c.step(0.41), note="secrets masked: 1 value(s) (keys: spring.datasource.password)")
    b.say(c.t, "targets: %d; JVMs: %d" % (PID, PID))
    b.add("jvm/%d/vm-version.txt" % PID, "jcmd-vm-version",
          "%d:\nOpenJDK 64-Bit Server VM version %s\nJDK %s\n" % (PID, vm_rel, jdk_short),
          "%s %d VM.version" % (attach, PID), *c.step(0.22))
    b.say(c.t, "sampling window: %ds, %d x %ds" % (DURATION, DURATION // INTERVAL, INTERVAL))

    n = DURATION // INTERVAL
    w0 = c.t + 0.15
    times = [K.hms(w0 + INTERVAL * i) for i in range(n + 1)]
    samples = []
    for i in range(n):
        rows = []
        for cpu in range(ncpu):
            r = dict(usr=K.jitter(rng, s["usr"], 0.25), sys=K.jitter(rng, s["sys"], 0.25),
                     soft=K.jitter(rng, s["soft"], 0.4), steal=K.jitter(rng, s["steal"], 0.5),
                     iowait=rng.choice([0.0, 0.0, 0.0, 0.1]), irq=0.0)
            rows.append(K.close100(r))
        samples.append(rows)
    t_b = w0 + DURATION + 0.04
    for rec in samplers(name, s, rng, host, day, times, samples, w0, t_b, jhome):
        path, kind, text, argv, st_, en_ = rec
        if text is None:
            b.skip(path, kind, argv[1], argv[0])
        else:
            b.add(path, kind, text, argv, st_, en_)

    snap_t0 = w0 + 0.02
    s_end = t0 + DURATION + 0.71
    c = K.Clock(snap_t0)
    s["t_netdev"] = snap_t0 + 5 * 0.004  # the first /proc/net/dev read (6th of the snapshot)
    snap = Snap(name, s, rng, s_end - snap_t0, samples)
    for kind, path, argv, text in snap.artifacts(False):
        b.add(path, kind, text, argv, *c.step(0.004))
    dump1 = thread_dump(s, rng, c.t + 0.2, first=True)
    b.add("jvm/%d/thread-dump.1.txt" % PID, "thread-dump", dump1, "%s %d Thread.print | head -c 20000000" % (attach, PID), *c.step(0.62))

    host_facts(b, c, name, s, rng)
    target_facts(b, c, name, s, rng, attach, jhome, jver_text)

    c = K.Clock(s_end)
    for kind, path, argv, text in snap.artifacts(True):
        b.add(path, kind, text, argv, *c.step(0.004))
    b.say(c.t, "sampling window closed")
    b.add("jvm/%d/thread-dump.2.txt" % PID, "thread-dump", thread_dump(s, rng, c.t + 0.2, first=False),
          "%s %d Thread.print | head -c 20000000" % (attach, PID), *c.step(0.66))
    b.add("jvm/%d/class-histogram.txt" % PID, "class-histogram", histogram(s, rng),
          "%s %d GC.class_histogram -all" % (attach, PID), *c.step(2.9))
    b.skip("jvm/%d/gc.log" % PID, "gc-log",
           "skipped: the command line names no GC log file (-Xloggc:FILE or -Xlog:gc...:file=FILE)",
           "tail -c 10000000 GCLOG")
    b.add("jvm/%d/threads.tsv" % PID, "jvm-threads", threads_tsv(s),
          "awk -f threads.awk /proc/%d/task/*/comm | sort -rn" % PID, *c.step(0.09))
    for p, kind, argv in [("perf/perf-report-comm-dso-symbol.txt", "perf-report",
                           "perf report --stdio --no-children --sort comm,dso,symbol -i perf.data"),
                          ("perf/perf-report-dso.txt", "perf-report", "perf report --stdio --sort dso -i perf.data"),
                          ("perf/perf-script.txt", "perf-script", "perf script -i perf.data")]:
        b.skip(p, kind, "skipped: --no-perf given", argv)
    b.skip("sysstat/sa", "sadf-json", "not found: no sa file modified in the last 2 days in /var/log/sa", "sadf -j saDD")
    b.finish(c.t + 0.04)


# ---- the window ------------------------------------------------------------------------------


def samplers(name, s, rng, host, day, times, samples, t_a, t_b, jhome):
    ncpu = s["ncpu"]
    head = K.banner(KERNEL, host, day, "aarch64", ncpu)
    n = len(samples)
    out = []
    stamps = ["%sT%s+0800" % (day, t) for t in times]
    cpu_rows, dev_rows = [], []
    disks = ["vda", "vdb", "dm-0", "dm-1"] if s["virt"] else ["sda", "sdb", "dm-0", "dm-1", "dm-2"]
    for i in range(n + 1):
        a = K.mean_rows(samples[max(0, i - 1)])
        cpu_rows.append(dict(user=a["usr"], nice=0.0, system=a["sys"] + a["soft"], iowait=a["iowait"],
                             steal=a["steal"], idle=a["idle"]))
        devs = []
        for d in disks:
            v = {k: 0.0 for k in K.IOSTAT_COLS}
            v["w/s"] = rng.uniform(8, 25) if d in ("vdb", "sdb", "dm-1") else rng.uniform(0.5, 3)
            v["wkB/s"] = v["w/s"] * rng.uniform(6, 14)
            v["w_await"] = rng.uniform(0.3, 0.9) if s["virt"] else rng.uniform(0.05, 0.2)
            v["wareq-sz"] = v["wkB/s"] / v["w/s"]
            v["r/s"] = rng.uniform(0.0, 0.6)
            v["rkB/s"] = v["r/s"] * 4
            v["r_await"] = 0.4 if v["r/s"] else 0.0
            v["rareq-sz"] = 4.0 if v["r/s"] else 0.0
            v["aqu-sz"] = 0.01
            v["%util"] = rng.uniform(0.2, 1.6)
            devs.append((d, v))
        dev_rows.append(devs)
    out.append(("sysstat/iostat-x.txt", "iostat", K.iostat_text(head, stamps, cpu_rows, dev_rows), "iostat -x -t %d %d" % (INTERVAL, n + 1), t_a, t_b))
    out.append(("sysstat/iostat-x.json", "iostat", K.iostat_json(host, KERNEL, "aarch64", ncpu, day, stamps, cpu_rows, dev_rows), "iostat -o JSON -x %d %d" % (INTERVAL, n + 1), t_a, t_b))
    out.append(("sysstat/mpstat-P-ALL.txt", "mpstat", K.mpstat_text(head, times, samples), "mpstat -P ALL %d %d" % (INTERVAL, n), t_a + 0.001, t_b))
    out.append(("sysstat/mpstat-P-ALL.json", "mpstat", K.mpstat_json(host, KERNEL, "aarch64", ncpu, day, times, samples), "mpstat -o JSON -P ALL %d %d" % (INTERVAL, n), t_a + 0.002, t_b))
    vm = []
    cs = 61_000 if s["virt"] else 24_000
    for i in range(n + 1):
        a = K.mean_rows(samples[max(0, i - 1)])
        vm.append(dict(r=rng.randint(6, 14) if s["virt"] else rng.randint(2, 6), b=0, swpd=0,
                       free=int(s["mem_kb"] * (0.41 if s["virt"] else 0.83)) + rng.randint(0, 50000), buff=412_100,
                       cache=int(s["mem_kb"] * 0.18), si=0, so=0, bi=rng.randint(0, 20), bo=rng.randint(60, 240),
                       **{"in": int(cs * 0.7) if i else 9000, "cs": cs + rng.randint(-3000, 3000) if i else 30000},
                       us=int(round(a["usr"])), sy=int(round(a["sys"] + a["soft"])), id=int(round(a["idle"])),
                       wa=0, st=int(round(a["steal"])), ts="%s %s" % (day, times[i])))
    out.append(("sysstat/vmstat.txt", "vmstat", K.vmstat_text(vm), "vmstat -t %d %d" % (INTERVAL, n + 1), t_a + 0.003, t_b))
    out.append(("sysstat/pidstat-udw.txt", "pidstat", pidstat_udw(s, rng, head, times, samples), "pidstat -u -d -w %d %d" % (INTERVAL, n), t_a + 0.004, t_b))
    out.append(("sysstat/pidstat-t.txt", "pidstat", pidstat_t(s, rng, head, times, samples), "pidstat -t -p %d %d %d" % (PID, INTERVAL, n), t_a + 0.004, t_b))
    ifaces = ["lo", s["nic"]]
    dev, edev = [], []
    for i in range(n):
        r, e = {}, {}
        for ifc in ifaces:
            f = rng.uniform(0.97, 1.03)
            if ifc == "lo":
                vals = {"rxpck/s": 410.0 * f, "txpck/s": 410.0 * f, "rxkB/s": 96.0 * f, "txkB/s": 96.0 * f}
                if s["bootstrap"]:
                    vals = {"rxpck/s": 7_800.0 * f, "txpck/s": 7_800.0 * f, "rxkB/s": 5_100.0 * f, "txkB/s": 5_100.0 * f}
                util = 0.0
            else:
                vals = {"rxpck/s": s["rx_pps"] * f, "txpck/s": s["tx_pps"] * f, "rxkB/s": s["rx_bps"] * f / 1024, "txkB/s": s["tx_bps"] * f / 1024}
                util = 0.0 if s["virt"] else max(vals["rxkB/s"], vals["txkB/s"]) * 8 / 1000 / 25000 * 100
            vals.update({"rxcmp/s": 0.0, "txcmp/s": 0.0, "rxmcst/s": 0.0, "%ifutil": util})
            r[ifc] = vals
            e[ifc] = {k: 0.0 for k in ["rxerr/s", "txerr/s", "coll/s", "rxdrop/s", "txdrop/s", "txcarr/s", "rxfram/s", "rxfifo/s", "txfifo/s"]}
        dev.append(r)
        edev.append(e)
    out.append(("sysstat/sar-n-DEV.txt", "sar", K.sar_dev_text(head, times, ifaces, dev), "sar -n DEV %d %d" % (INTERVAL, n), t_a + 0.005, t_b))
    out.append(("sysstat/sar-n-EDEV.txt", "sar", K.sar_edev_text(head, times, ifaces, edev), "sar -n EDEV %d %d" % (INTERVAL, n), t_a + 0.005, t_b))
    out.append(("jvm/%d/jstat-gcutil.txt" % PID, "jstat-gcutil", jstat(s, rng, n),
                "setpriv --reuid=1001 --regid=1001 --clear-groups -- %s/bin/jstat -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData -gcutil -t %d %d %d" % (jhome, PID, INTERVAL * 1000, n + 1),
                t_a + 0.006, t_b + 0.3))
    out.append(("perf/perf-record.log", "perf-record", None, ("perf record -F 99 -a -g -N -o perf.data -- sleep 30", "skipped: --no-perf given"), 0, 0))
    return out


def pidstat_udw(s, rng, head, times, samples):
    ncpu = s["ncpu"]
    java = sum(K.mean_rows(samples[0])[k] for k in ("usr", "sys")) * ncpu * 0.93
    procs = [("1001", str(PID), "java", java * 0.8, java * 0.2)]
    if s["bootstrap"]:
        procs.append(("1002", str(BOOT_PID), "bootstrap", 118.0, 41.0))
    procs.append(("0", "1", "systemd", 0.0, 0.2))
    out = [head]
    n = len(samples)
    for i in range(n):
        out.append("%-8s      UID       PID    %%usr %%system  %%guest   %%wait    %%CPU   CPU  Command" % times[i])
        for uid, pid, comm, u, y in procs:
            u, y = K.jitter(rng, u, 0.05), K.jitter(rng, y, 0.05)
            out.append("%-8s %8s %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s" % (times[i + 1], uid, pid, u, y, 0, 0, u + y, rng.randrange(ncpu), comm))
        out.append("")
        out.append("%-8s      UID       PID   kB_rd/s   kB_wr/s kB_ccwr/s iodelay  Command" % times[i])
        out.append("%-8s %8s %9s %9.2f %9.2f %9.2f %7d  %s" % (times[i + 1], "1001", str(PID), 0.0, K.jitter(rng, 420.0, 0.2), 0.0, 0, "java"))
        out.append("")
        out.append("%-8s      UID       PID   cswch/s nvcswch/s  Command" % times[i])
        out.append("%-8s %8s %9s %9.2f %9.2f  %s" % (times[i + 1], "0", "1", 0.8, 0.0, "systemd"))
        out.append("")
    out.append("Average:      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command")
    for uid, pid, comm, u, y in procs:
        out.append("Average: %8s %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5s  %s" % (uid, pid, u, y, 0, 0, u + y, "-", comm))
    out += ["", "Average:      UID       PID   kB_rd/s   kB_wr/s kB_ccwr/s iodelay  Command",
            "Average: %8s %9s %9.2f %9.2f %9.2f %7d  %s" % ("1001", str(PID), 0.0, 420.0, 0.0, 0, "java"), "",
            "Average:      UID       PID   cswch/s nvcswch/s  Command",
            "Average: %8s %9s %9.2f %9.2f  %s" % ("0", "1", 0.8, 0.0, "systemd")]
    return "\n".join(out) + "\n"


def pidstat_t(s, rng, head, times, samples):
    """`pidstat -t -p PID`: the JVM's line and its threads that ran during the interval; the
    threads' command is `java` (JDK 8 leaves native thread names unset on Linux)."""
    ncpu = s["ncpu"]
    out = [head]
    java = sum(K.mean_rows(samples[0])[k] for k in ("usr", "sys")) * ncpu * 0.93
    busy_tasks = 50
    tids = thread_ids(s)
    for i in range(len(samples)):
        out.append("%-8s      UID      TGID       TID    %%usr %%system  %%guest   %%wait    %%CPU   CPU  Command" % times[i])
        u, y = K.jitter(rng, java * 0.8, 0.05), K.jitter(rng, java * 0.2, 0.05)
        out.append("%-8s %8s %9d %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s" % (times[i + 1], "1001", PID, "-", u, y, 0, 0, u + y, 3, "java"))
        for k in range(s["io_threads"]):
            tu = K.jitter(rng, 4.0 if s["virt"] else 0.6, 0.3)
            out.append("%-8s %8s %9s %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s" % (times[i + 1], "1001", "-", tids["XNIO-1 I/O-%d" % (k + 1)], tu, tu * 0.5, 0, 0, tu * 1.5, k % ncpu, "|__java"))
        for k in rng.sample(range(s["task_threads"]), busy_tasks):
            tu = K.jitter(rng, 9.0 if s["virt"] else 1.8, 0.4)
            name = "XNIO-1 task-%d" % (k + 1)
            out.append("%-8s %8s %9s %9d %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s" % (times[i + 1], "1001", "-", tids[name], tu, tu * 0.2, 0, 0, tu * 1.2, rng.randrange(ncpu), "|__java"))
        out.append("")
    return "\n".join(out) + "\n"


def jstat(s, rng, n):
    out = ["Timestamp         S0     S1     E      O      M     CCS    YGC     YGCT    FGC    FGCT     GCT   "]
    t = s["uptime"] * 0.0 + 1_209_331.6 if s["virt"] else 1_411_008.2
    ygc = 18_211 if s["virt"] else 6_104
    ygct = ygc * 0.021
    e = 31.0
    o = 41.2 if s["virt"] else 23.9
    for i in range(n + 1):
        e += 33.0 if s["virt"] else 11.0
        if e > 100:
            e -= 100.0
            ygc += 1
            ygct += 0.021
            o += 0.04
        out.append("%14.1f %6.2f %6.2f %6.2f %6.2f %6.2f %6.2f %6d %8.3f %5d %7.3f %8.3f" % (
            t + i * INTERVAL, 0.0, 12.31, e, o, 96.11, 93.27, ygc, ygct, 3, 1.204, ygct + 1.204))
    return "\n".join(out) + "\n"


# ---- counters ---------------------------------------------------------------------------------


def links(s, el):
    """Interface counters `el` seconds after the first /proc/net/dev read, as
    (rx_b, rx_p, tx_b, tx_p): lo (the local pool to bootstrap on the VM) and the NIC."""
    up = s["uptime"]
    lo_pps = 7_800 if s["bootstrap"] else 410
    lo_bps = 5_222_400 if s["bootstrap"] else 98_304
    lo = (int(up * lo_bps * 0.3517 + el * lo_bps), int(up * lo_pps * 0.3517 + el * lo_pps))
    nic = tuple(int(up * s[k] * 0.3517 + el * s[k]) for k in ("rx_bps", "rx_pps", "tx_bps", "tx_pps"))
    return {"lo": lo * 2, s["nic"]: nic, "rates": (lo_bps, lo_pps)}


def net_counters(name, s):
    ln = links(s, 0.0)
    lo_bps, lo_pps = ln["rates"]
    lo, nic = ln["lo"], ln[s["nic"]]
    return K.NetCounters(
        s["uptime"], rx_p=lo[1] + nic[1], rx_rate=lo_pps + s["rx_pps"],
        tx_p=lo[3] + nic[3], tx_rate=lo_pps + s["tx_pps"],
        rx_b=lo[0] + nic[0], rx_brate=lo_bps + s["rx_bps"],
        tx_b=lo[2] + nic[2], tx_brate=lo_bps + s["tx_bps"],
        estab=ss_tanp(name, s).count("\nESTAB"), factor=s["uptime"] / 1110.0)


class Snap:
    def __init__(self, name, s, rng, seconds, samples):
        self.name, self.s, self.rng, self.seconds, self.samples = name, s, rng, seconds, samples

    def artifacts(self, end):
        suf = "end" if end else "start"
        s, ncpu, secs = self.s, self.s["ncpu"], self.seconds if end else 0.0
        up = s["uptime"]
        r = random.Random(s["seed"] * 3)
        sirq = {}
        for nm in K.SOFTIRQ_NAMES:
            rate = {"HI": 0.0, "TIMER": 240.0, "NET_TX": 6.0, "NET_RX": (s["rx_pps"] / s["queues"]) if nm else 0,
                    "BLOCK": 4.0, "IRQ_POLL": 0.0, "TASKLET": 0.3, "SCHED": 220.0, "HRTIMER": 0.0, "RCU": 140.0}[nm]
            sirq[nm] = []
            for cpu in range(ncpu):
                rr = rate
                if nm == "NET_RX" and cpu >= s["queues"]:
                    rr = 3.0
                sirq[nm].append(int(rr * up * r.uniform(0.3, 0.4)) + int(rr * secs))
        stat_cpus = []
        for cpu in range(ncpu):
            j = int(up * 100)
            usr = int(j * 0.09) + int(secs * s["usr"])
            sy = int(j * 0.03) + int(secs * s["sys"])
            soft = int(j * 0.004) + int(secs * s["soft"])
            steal = int(j * 0.002) + int(secs * s["steal"])
            idle = j + int(secs * 100) - usr - sy - soft - steal - 500
            stat_cpus.append(dict(user=usr, nice=310, system=sy, idle=idle, iowait=500, irq=0, softirq=soft, steal=steal, guest=0, guest_nice=0))
        ln = links(s, secs)
        row = lambda n, mc: (n, dict(bytes=ln[n][0], packets=ln[n][1], errs=0, drop=0, fifo=0, frame=0, multicast=mc),  # noqa: E731
                             dict(bytes=ln[n][2], packets=ln[n][3], errs=0, drop=0, fifo=0))
        dev = K.net_dev_text([row("lo", 0), row(s["nic"], 101_223)])
        net = net_counters(self.name, s)
        totals = [sum(sirq[nm]) for nm in K.SOFTIRQ_NAMES]
        interrupts, nirq, itotal = self.interrupts(secs)
        out = [
            ("softirqs", "proc/softirqs.%s" % suf, "cat /proc/softirqs", K.softirqs_text(sirq)),
            ("interrupts", "proc/interrupts.%s" % suf, "cat /proc/interrupts", interrupts),
            ("proc-stat", "proc/stat.%s" % suf, "cat /proc/stat", K.proc_stat_text(stat_cpus, itotal, int(up * 41_000 + secs * 61_000), int(s["t0"] - up), 9_221_004 + int(secs * 9), 7, 0, totals, nirq)),
            ("proc-vmstat", "proc/vmstat.%s" % suf, "cat /proc/vmstat", K.scale_counters(K.fixture("captured-a/proc-vmstat-%d.txt" % (2 if end else 1)), 310.0, skip=("nr_", "drop_", "balloon"), minimum=1)),
            ("diskstats", "proc/diskstats" if not end else "proc/diskstats.end", "cat /proc/diskstats", self.diskstats(secs)),
            ("net-dev", "proc/net/dev.%s" % suf, "cat /proc/net/dev", dev),
            # read 4, 12 and 16 ms after /proc/net/dev
            ("net-snmp", "proc/net/snmp.%s" % suf, "cat /proc/net/snmp", net.snmp(secs + 0.004)),
            ("softnet-stat", "proc/net/softnet_stat.%s" % suf, "cat /proc/net/softnet_stat",
             K.softnet_text([[int(up * 30) + int(secs * (s["rx_pps"] / s["queues"] if c < s["queues"] else 2)), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] for c in range(ncpu)])),
            ("netstat-s", "net/netstat-s.%s" % suf, "netstat -s", net.netstat_s(secs + 0.012)),
            ("nstat", "net/nstat-asz.%s" % suf, "nstat -asz", net.nstat(secs + 0.016)),
            ("ss", "net/ss-tanp.%s" % suf, "ss -tanp", ss_tanp(self.name, s)),
        ]
        return out

    def interrupts(self, secs):
        s = self.s
        ncpu, up = s["ncpu"], s["uptime"]
        r = random.Random(s["seed"] * 5)
        one = lambda cpu, v: [v if i == cpu else 0 for i in range(ncpu)]  # noqa: E731
        rows = [(3, [int(up * r.uniform(120, 140)) + int(secs * 250) for _ in range(ncpu)], "GICv3", 27, "Level", "arch_timer")]
        irq = 40
        if s["virt"]:
            for q in range(s["queues"]):
                for kind in ("input", "output"):
                    v = int(up * s["rx_pps"] / s["queues"] * 0.2) + int(secs * s["rx_pps"] / s["queues"] * 0.4)
                    rows.append((irq, one(q * 4, v), "ITS-MSI", 16384 + irq, "Edge", "virtio2-%s.%d" % (kind, q)))
                    irq += 1
            rows.append((irq, one(0, 2), "ITS-MSI", 16384 + irq, "Edge", "virtio2-config"))
        else:
            for q in range(s["queues"]):
                v = int(up * s["rx_pps"] / s["queues"] * 0.3) + int(secs * s["rx_pps"] / s["queues"] * 0.6)
                rows.append((irq, one(q * 8, v), "ITS-MSI", 65536 + q, "Edge", "hns3-%s-TxRx-%d" % (s["bus"], q)))
                irq += 1
        ipis = [([int(up * r.uniform(300, 400)) + int(secs * 800) for _ in range(ncpu)], "Rescheduling interrupts"),
                ([int(up * r.uniform(10, 20)) + int(secs * 12) for _ in range(ncpu)], "Function call interrupts"),
                ([0] * ncpu, "CPU stop interrupts"), ([0] * ncpu, "CPU stop (for crash dump) interrupts"),
                ([0] * ncpu, "Timer broadcast interrupts"),
                ([int(up * r.uniform(0.2, 0.5)) for _ in range(ncpu)], "IRQ work interrupts"),
                ([0] * ncpu, "CPU wake-up interrupts")]
        total = sum(sum(x[1]) for x in rows)
        return K.interrupts_text(ncpu, rows, ipis), irq + 1, total

    def diskstats(self, secs):
        s, up = self.s, self.s["uptime"]
        names = [(252, 0, "vda"), (252, 1, "vda1"), (252, 2, "vda2"), (252, 16, "vdb"), (253, 0, "dm-0"), (253, 1, "dm-1")] if s["virt"] else \
            [(8, 0, "sda"), (8, 1, "sda1"), (8, 2, "sda2"), (8, 3, "sda3"), (8, 16, "sdb"), (253, 0, "dm-0"), (253, 1, "dm-1"), (253, 2, "dm-2")]
        rows = []
        for ma, mi, nm in names:
            w = 12.0 if nm in ("vdb", "sdb", "dm-1") else 1.5
            writes = int(up * w * 0.7 + secs * w)
            reads = int(up * 0.3 * 0.7 + secs * 0.3)
            rows.append((ma, mi, nm, [reads, 0, reads * 8, reads // 3, writes, writes // 5, writes * 20, writes // 2, 0, (reads + writes) // 30, reads // 3 + writes // 2, 0, 0, 0, 0]))
        return K.diskstats_text(rows)


def ss_tanp(name, s):
    """ESTABLISHED sockets during the load test: JMeter's 50 keep-alive connections to port 8080,
    the application's 200 pooled connections to bootstrap's port 20880 (local on the VM, to
    another host on the TaiShan) and 40 to the database; on the VM, bootstrap's ends of the 200
    local connections and its 320 connections to eight back-end services."""
    rows = [("LISTEN", "0", "128", "0.0.0.0", "22", "0.0.0.0", "*", 'users:(("sshd",pid=1811,fd=3))'),
            ("LISTEN", "0", "1024", "0.0.0.0", "8080", "0.0.0.0", "*", 'users:(("java",pid=%d,fd=412))' % PID)]
    if s["bootstrap"]:
        rows.append(("LISTEN", "0", "4096", "0.0.0.0", "20880", "0.0.0.0", "*", 'users:(("bootstrap",pid=%d,fd=31))' % BOOT_PID))
    fd = 500
    for i in range(50):
        rows.append(("ESTAB", "0", "0", s["ip"], "8080", JMETER[i % 5], str(52011 + i * 7), 'users:(("java",pid=%d,fd=%d))' % (PID, fd)))
        fd += 1
    bfd = 300
    for i in range(200):
        if s["bootstrap"]:
            rows.append(("ESTAB", "0", "0", "127.0.0.1", str(38200 + i), "127.0.0.1", "20880", 'users:(("java",pid=%d,fd=%d))' % (PID, fd)))
            rows.append(("ESTAB", "0", "0", "127.0.0.1", "20880", "127.0.0.1", str(38200 + i), 'users:(("bootstrap",pid=%d,fd=%d))' % (BOOT_PID, bfd)))
            bfd += 1
        else:
            rows.append(("ESTAB", "0", "0", s["ip"], str(38200 + i), REMOTE_BOOTSTRAP, "20880", 'users:(("java",pid=%d,fd=%d))' % (PID, fd)))
        fd += 1
    for i in range(40):
        rows.append(("ESTAB", "0", "0", s["ip"], str(44100 + i), DB, "3306", 'users:(("java",pid=%d,fd=%d))' % (PID, fd)))
        fd += 1
    if s["bootstrap"]:
        for i in range(320):
            rows.append(("ESTAB", "0", "0", s["ip"], str(56000 + i), BACKENDS[i % 8], "20880", 'users:(("bootstrap",pid=%d,fd=%d))' % (BOOT_PID, bfd)))
            bfd += 1
    rows.append(("ESTAB", "0", "52", s["ip"], "22", "198.51.100.200", "61022", 'users:(("sshd",pid=700311,fd=4),("sshd",pid=700298,fd=4))'))
    return K.ss_table(rows)


# ---- host facts -------------------------------------------------------------------------------


def host_facts(b, c, name, s, rng):
    b.add("kernel/cmdline", "cmdline",
          "BOOT_IMAGE=/vmlinuz-%s root=/dev/mapper/klas-root ro rd.lvm.lv=klas/root rd.lvm.lv=klas/swap "
          "video=VGA-1:640x480-32@60me rhgb quiet %scrashkernel=1024M,high audit=0\n"
          % (KERNEL, "" if s["virt"] else "smmu.bypassdev=0x1000:0x17 smmu.bypassdev=0x1000:0x15 "),
          "cat /proc/cmdline", *c.step(0.003))
    mods = [("nf_conntrack", 180224, 1, "nf_conntrack_netlink,"), ("nf_conntrack_netlink", 53248, 0, "-"),
            ("nf_defrag_ipv6", 24576, 1, "nf_conntrack,"), ("nf_defrag_ipv4", 16384, 1, "nf_conntrack,")] if not s["virt"] else []
    mods += [("sunrpc", 458752, 1, "-"), ("vfat", 24576, 1, "-"), ("fat", 90112, 1, "vfat,"),
             ("sch_fq_codel", 28672, 3, "-"), ("ip_tables", 32768, 0, "-"), ("xfs", 1507328, 4, "-"),
             ("libcrc32c", 16384, 1 if s["virt"] else 2, "xfs," if s["virt"] else "nf_conntrack,xfs,")]
    if s["virt"]:
        mods += [("virtio_net", 61440, 0, "-"), ("net_failover", 24576, 1, "virtio_net,"), ("failover", 16384, 1, "net_failover,"),
                 ("virtio_blk", 24576, 4, "-"), ("virtio_console", 40960, 0, "-"), ("virtio_balloon", 24576, 0, "-"),
                 ("virtio_pci", 28672, 0, "-"), ("virtio_ring", 40960, 5, "virtio_net,virtio_blk,virtio_console,virtio_balloon,virtio_pci,"),
                 ("virtio", 16384, 5, "virtio_net,virtio_blk,virtio_console,virtio_balloon,virtio_pci,")]
    else:
        mods += [("hclge", 327680, 0, "-"), ("hns3", 147456, 1, "hclge,"), ("hnae3", 36864, 2, "hclge,hns3,"),
                 ("hisi_sas_v3_hw", 65536, 2, "-"), ("hisi_sas_main", 61440, 1, "hisi_sas_v3_hw,"), ("libsas", 110592, 2, "hisi_sas_v3_hw,hisi_sas_main,"),
                 ("ipmi_si", 69632, 0, "-"), ("ipmi_msghandler", 131072, 1, "ipmi_si,"), ("sbsa_gwdt", 20480, 1, "-")]
    mods += [("dm_mirror", 28672, 0, "-"), ("dm_region_hash", 24576, 1, "dm_mirror,"), ("dm_log", 24576, 2, "dm_mirror,dm_region_hash,"), ("dm_mod", 155648, 8, "dm_mirror,dm_log,")]
    addr = 0xFFFF000001A40000
    pm, ls = [], ["Module                  Size  Used by"]
    for m, size, refc, used in mods:
        pm.append("%s %d %d %s Live 0x%016x" % (m, size, refc, used, addr))
        ls.append("%-19s %8d  %d %s" % (m, size, refc, used.rstrip(",") if used != "-" else ""))
        addr -= ((size + 0xFFFF) // 0x10000) * 0x10000
    b.add("proc/modules", "proc-modules", "\n".join(pm) + "\n", "cat /proc/modules", *c.step(0.002))
    b.add("kernel/lsmod.txt", "lsmod", "\n".join(l.rstrip() for l in ls) + "\n", "lsmod", *c.step(0.01))
    b.add("kernel/tainted", "tainted", "0\n", "cat /proc/sys/kernel/tainted", *c.step(0.002))
    b.skip("kernel/modinfo-tainted.txt", "modinfo", "skipped: no module in /proc/modules carries a taint flag", "modinfo MODULES")
    b.add("kernel/dmesg.txt", "dmesg", dmesg(s), "dmesg | tail -n 2000", *c.step(0.03))
    b.add("kernel/sysctl-a.txt", "sysctl", sysctl(name, s), "sysctl -a", *c.step(0.19))
    b.add("cpu/lscpu.txt", "lscpu", LSCPU_VM if s["virt"] else LSCPU_PHYS, "lscpu", *c.step(0.02))
    b.add("cpu/numactl-H.txt", "numactl", numactl(s), "numactl -H", *c.step(0.01))
    b.add("cpu/cpuinfo-head.txt", "cpuinfo", cpuinfo_head(s), "head -n 64 /proc/cpuinfo", *c.step(0.002))
    if s["virt"]:
        b.add("system/detect-virt.txt", "detect-virt", "kvm\n", "systemd-detect-virt", *c.step(0.01))
        b.add("system/dmidecode-t-system.txt", "dmidecode", dmidecode_vm(), "dmidecode -t system", *c.step(0.04))
    else:
        st, en = c.step(0.01)
        b.add("system/detect-virt.txt", "detect-virt", "none\n", "systemd-detect-virt", st, en, exit=1, note="exit 1: none")
        b.add("system/dmidecode-t-system.txt", "dmidecode", dmidecode_phys(), "dmidecode -t system", *c.step(0.05))
    b.add("system/lspci-k.txt", "lspci", lspci(s), "lspci -k", *c.step(0.06))
    total = s["mem_kb"]
    free = int(total * (0.41 if s["virt"] else 0.83))
    cached = int(total * (0.18 if s["virt"] else 0.10))
    meminfo = meminfo_text(total, free, cached)
    b.add("mem/meminfo", "meminfo", meminfo, "cat /proc/meminfo", *c.step(0.002))
    free_m, top_mem = K.free_and_top_mem(total, free, 412_100, cached, 700_221, 21_504, free + cached,
                                         swap_total=4_194_300, swap_free=4_194_300)
    s["top_mem"] = top_mem
    b.add("mem/free-m.txt", "free", free_m, "free -m", *c.step(0.004))
    b.add("mem/swaps", "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/dm-1                               partition\t4194300\t\t0\t\t-2\n", "cat /proc/swaps", *c.step(0.002))
    b.add("mem/swapon-show.txt", "swapon", "NAME      TYPE      SIZE USED PRIO\n/dev/dm-1 partition   4G   0B   -2\n", "swapon --show", *c.step(0.003))
    b.add("mem/thp.txt", "thp", "/sys/kernel/mm/transparent_hugepage/enabled:[always] madvise never\n/sys/kernel/mm/transparent_hugepage/defrag:always defer defer+madvise [madvise] never\n",
          "grep -H . /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag", *c.step(0.003))
    b.notfound("mem/vmware-balloon.txt", "balloon", "vmware-toolbox-cmd", "vmware-toolbox-cmd stat balloon", c.step(0.002)[0])
    b.add("net/ip-s-link.txt", "ip-link", ip_s_link(s, c.t - s["t_netdev"]), "ip -s link", *c.step(0.01))
    b.add("net/ip-addr.txt", "ip-addr", ip_addr(s), "ip addr", *c.step(0.01))
    for opt in "ilkgcS":
        b.add("net/ethtool/%s/ethtool-%s.txt" % (s["nic"], opt), "ethtool-%s" % opt, ethtool(s, opt, c.t - s["t_netdev"]), "ethtool -%s %s" % (opt, s["nic"]), *c.step(0.006))
    b.add("net/irq-affinity.tsv", "irq-affinity", irq_affinity(s), "awk -f irq.awk /proc/irq/*/*/", *c.step(0.03))
    b.add("net/ss-tulpn.txt", "ss", ss_tulpn(s), "ss -tulpn", *c.step(0.02))
    t = K.fixture("captured-b/chronyc-tracking-chrony4-synced.txt")
    t = t.replace("7F000002 (127.0.0.2)", "C6336401 (198.51.100.1)").replace("Stratum         : 6", "Stratum         : 3")
    t = t.replace("Mon Nov 30 01:48:27 2026", K.hms(s["t0"] - 40, tz=0).join(["Mon Nov 30 ", " 2026"]))
    t = t.replace("Update interval : 2.0 seconds", "Update interval : 64.5 seconds")
    b.add("time/chronyc-tracking.txt", "chronyc-tracking", t, "chronyc -n tracking", *c.step(0.004))
    src = K.fixture("captured-b/chronyc-sources-v-chrony4.txt").split("\n")
    src = src[:src.index("=" * 79) + 1] + ["^* 198.51.100.1                 2   6   377    33    +18us[  +21us] +/-  301us", ""]
    b.add("time/chronyc-sources.txt", "chronyc-sources", "\n".join(src), "chronyc -n sources -v", *c.step(0.004))
    b.notfound("time/ntpq-pn.txt", "ntpq", "ntpq", "ntpq -pn", c.step(0.002)[0])
    td = K.fixture("timedatectl/hotsos__timedatectl-ubuntu2004-trailing-spaces.txt")
    td = td.replace("Fri 2022-02-11 19:24:03 UTC", "Mon 2026-11-30 %s CST" % K.hms(s["t0"] + 1.6), 1)
    td = td.replace("Fri 2022-02-11 19:24:03 UTC", "Mon 2026-11-30 %s UTC" % K.hms(s["t0"] + 1.6, tz=0), 1)
    td = td.replace("Fri 2022-02-11 19:24:04    ", "Mon 2026-11-30 %s    " % K.hms(s["t0"] + 1.6, tz=0))
    td = td.replace("Etc/UTC (UTC, +0000)       ", "Asia/Shanghai (CST, +0800)")
    b.add("time/timedatectl.txt", "timedatectl", td, "timedatectl", *c.step(0.03))
    b.notfound("time/vmware-timesync.txt", "vmware-timesync", "vmware-toolbox-cmd", "vmware-toolbox-cmd timesync status", c.step(0.002)[0])
    b.add("system/ps.txt", "ps", ps_text(s), "ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args | awk -f mask.awk", *c.step(0.09),
          note="secrets masked: 1 value(s) (keys: spring.datasource.password)")
    b.add("system/top.txt", "top", top_text(s), "top -b -n 1", *c.step(0.3))
    b.add("system/ulimit-a.txt", "ulimit", K.ulimit_bash(s["sigpending"], nofile=65535, nproc=65535), "bash -c ulimit -a", *c.step(0.004))


def target_facts(b, c, name, s, rng, attach, jhome, jver_text):
    d = "jvm/%d" % PID
    b.add(d + "/status", "proc-status", status_text(s), "cat /proc/%d/status" % PID, *c.step(0.002))
    b.add(d + "/limits", "proc-limits", K.proc_limits(s["sigpending"]), "cat /proc/%d/limits" % PID, *c.step(0.002))
    args = java_args(s)
    b.add(d + "/cmdline.txt", "proc-cmdline", "\n".join(args) + "\n", "tr '\\0' '\\n' </proc/%d/cmdline | awk -f mask.awk" % PID, *c.step(0.004),
          note="secrets masked: 1 value(s) (keys: spring.datasource.password)")
    cg = ("cgroup\t11:cpuset:/\ncgroup\t10:memory:/system.slice/bank-core.service\ncgroup\t9:pids:/system.slice/bank-core.service\n"
          "cgroup\t8:blkio:/system.slice/bank-core.service\ncgroup\t7:cpu,cpuacct:/system.slice/bank-core.service\n"
          "cgroup\t1:name=systemd:/system.slice/bank-core.service\n"
          "limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory/system.slice/bank-core.service\t9223372036854710272\n"
          "limit\tmemory.memsw.limit_in_bytes\t/sys/fs/cgroup/memory/system.slice/bank-core.service\t9223372036854710272\n"
          "limit\tmemory.usage_in_bytes\t/sys/fs/cgroup/memory/system.slice/bank-core.service\t%d\n"
          "limit\tmemory.max_usage_in_bytes\t/sys/fs/cgroup/memory/system.slice/bank-core.service\t%d\n"
          "limit\tmemory.failcnt\t/sys/fs/cgroup/memory/system.slice/bank-core.service\t0\n"
          "limit\tcpu.cfs_quota_us\t/sys/fs/cgroup/cpu,cpuacct/system.slice/bank-core.service\t-1\n"
          "limit\tcpu.cfs_period_us\t/sys/fs/cgroup/cpu,cpuacct/system.slice/bank-core.service\t100000\n"
          "limit\tcpu.shares\t/sys/fs/cgroup/cpu,cpuacct/system.slice/bank-core.service\t1024\n"
          % (18_920_411_136 if s["virt"] else 19_402_088_448, 19_116_716_032 if s["virt"] else 19_611_189_248))
    b.add(d + "/cgroup.tsv", "cgroup", cg, "awk -v root= -f cgroup.awk /proc/mounts /proc/%d/cgroup" % PID, *c.step(0.01))
    b.add(d + "/java-version.txt", "java-version", jver_text, "/proc/%d/exe -version" % PID, *c.step(0.21))
    b.add(d + "/vm-flags.txt", "jcmd-vm-flags", "%d:\n%s\n" % (PID, vm_flags(s)), "%s %d VM.flags" % (attach, PID), *c.step(0.2))
    b.add(d + "/vm-command-line.txt", "jcmd-vm-command-line",
          "%d:\nVM Arguments:\njvm_args: %s \njava_command: /app/bank-core/bank-core.jar --server.port=8080\njava_class_path (initial): /app/bank-core/bank-core.jar\nLauncher Type: SUN_STANDARD\n"
          % (PID, " ".join(args[1:-3])), "%s %d VM.command_line" % (attach, PID), *c.step(0.2),
          note="secrets masked: 1 value(s) (keys: spring.datasource.password)")
    b.add(d + "/vm-system-properties.txt", "jcmd-vm-system-properties", system_properties(s), "%s %d VM.system_properties" % (attach, PID), *c.step(0.2),
          note="secrets masked: 1 value(s) (keys: spring.datasource.password)")


# ---- JVM texts ----------------------------------------------------------------------------------


def c2_count(s):
    """JDK 8 tiered ergonomics (AdvancedThresholdPolicy::initialize): CICompilerCount =
    log2(cpus) * log2(log2(cpus)) * 3 / 2 (15 on 32 CPUs, 21 on 128), a third of them C1; the
    C2 threads are numbered first, the C1 threads continue the numbering."""
    return s["cic"] - max(s["cic"] // 3, 1)


def java_args(s):
    # the start script runs $JAVA_HOME/bin/java on the VM (BiSheng tarball) and `java` from
    # the PATH (/usr/bin/java, the alternatives link of the distribution's package) on TaiShan
    argv0 = "%s/bin/java" % s["jdk"][0] if s["virt"] else "/usr/bin/java"
    return [argv0, "-Xms16g", "-Xmx16g", "-XX:MetaspaceSize=512m", "-XX:MaxMetaspaceSize=512m",
            "-Dfile.encoding=UTF-8", "-Duser.timezone=Asia/Shanghai", "-Dspring.profiles.active=prod",
            "-Dspring.datasource.password=****", "-jar", "/app/bank-core/bank-core.jar", "--server.port=8080"]


def jps_text(s):
    return "%d /app/bank-core/bank-core.jar -Xms16g -Xmx16g -XX:MetaspaceSize=512m -XX:MaxMetaspaceSize=512m -Dfile.encoding=UTF-8 -Duser.timezone=Asia/Shanghai -Dspring.profiles.active=prod -Dspring.datasource.password=****\n" % PID


def vm_flags(s):
    return ("-XX:CICompilerCount=%d -XX:InitialHeapSize=17179869184 -XX:MaxHeapSize=17179869184 "
            "-XX:MaxMetaspaceSize=536870912 -XX:MaxNewSize=5726273536 -XX:MetaspaceSize=536870912 "
            "-XX:MinHeapDeltaBytes=524288 -XX:NewSize=5726273536 -XX:OldSize=11453595648 "
            "-XX:ParallelGCThreads=%d -XX:+UseCompressedClassPointers -XX:+UseCompressedOops -XX:+UseParallelGC "
            % (s["cic"], s["gc_threads"]))


def system_properties(s):
    jhome, _, vm_rel, _, jver, jbuild, jvendor = s["jdk"]
    vm_vendor = "Bisheng" if jvendor == "Bisheng" else "Huawei Technologies Co., Ltd"
    props = [
        ("java.runtime.name", "OpenJDK Runtime Environment"),
        ("sun.boot.library.path", "%s/jre/lib/aarch64" % jhome),
        ("java.vm.version", vm_rel),
        ("java.vm.vendor", vm_vendor),
        ("java.vendor.url", "http\\://java.oracle.com/"),
        ("path.separator", "\\:"),
        ("java.vm.name", "OpenJDK 64-Bit Server VM"),
        ("file.encoding.pkg", "sun.io"),
        ("user.country", "CN"),
        ("sun.java.launcher", "SUN_STANDARD"),
        ("sun.os.patch.level", "unknown"),
        ("java.vm.specification.name", "Java Virtual Machine Specification"),
        ("user.dir", "/app/bank-core"),
        ("java.runtime.version", jbuild),
        ("java.awt.graphicsenv", "sun.awt.X11GraphicsEnvironment"),
        ("java.endorsed.dirs", "%s/jre/lib/endorsed" % jhome),
        ("os.arch", "aarch64"),
        ("java.io.tmpdir", "/tmp"),
        ("line.separator", "\\n"),
        ("java.vm.specification.vendor", "Oracle Corporation"),
        ("os.name", "Linux"),
        ("spring.profiles.active", "prod"),
        ("sun.jnu.encoding", "UTF-8"),
        ("java.library.path", "/usr/java/packages/lib/aarch64\\:/usr/lib64\\:/lib64\\:/lib\\:/usr/lib"),
        ("spring.datasource.password", "****"),
        ("java.specification.name", "Java Platform API Specification"),
        ("java.class.version", "52.0"),
        ("sun.management.compiler", "HotSpot 64-Bit Tiered Compilers"),
        ("os.version", KERNEL),
        ("user.home", "/home/bank"),
        ("user.timezone", "Asia/Shanghai"),
        ("java.awt.printerjob", "sun.print.PSPrinterJob"),
        ("file.encoding", "UTF-8"),
        ("java.specification.version", "1.8"),
        ("java.class.path", "/app/bank-core/bank-core.jar"),
        ("user.name", "bank"),
        ("java.vm.specification.version", "1.8"),
        ("sun.java.command", "/app/bank-core/bank-core.jar --server.port=8080"),
        ("java.home", "%s/jre" % jhome),
        ("sun.arch.data.model", "64"),
        ("user.language", "zh"),
        ("java.specification.vendor", "Oracle Corporation"),
        ("awt.toolkit", "sun.awt.X11.XToolkit"),
        ("java.vm.info", "mixed mode"),
        ("java.version", jver),
        ("java.ext.dirs", "%s/jre/lib/ext\\:/usr/java/packages/lib/ext" % jhome),
        ("sun.boot.class.path", "%s/jre/lib/resources.jar\\:%s/jre/lib/rt.jar" % (jhome, jhome)),
        ("java.vendor", jvendor),
        ("file.separator", "/"),
        ("java.vendor.url.bug", "http\\://bugreport.sun.com/bugreport/"),
        ("sun.io.unicode.encoding", "UnicodeLittle"),
        ("sun.cpu.endian", "little"),
        ("sun.cpu.isalist", ""),
    ]
    t0 = s["t0"] + 2.0
    head = "%d:\n#%s CST 2026\n" % (PID, __import__("time").strftime("%a %b %d %H:%M:%S", __import__("time").gmtime(t0 + K.CST)))
    return head + "".join("%s=%s\n" % kv for kv in props)


def thread_ids(s):
    """Native thread ids (nid) by thread name, stable between the two dumps."""
    ids = {}
    tid = PID + 1
    for name in ["main"] + ["GC task thread#%d (ParallelGC)" % i for i in range(s["gc_threads"])] + \
            ["VM Thread", "Reference Handler", "Finalizer", "Signal Dispatcher"] + \
            ["C2 CompilerThread%d" % i for i in range(c2_count(s))] + \
            ["C1 CompilerThread%d" % i for i in range(c2_count(s), s["cic"])] + \
            ["Service Thread", "VM Periodic Task Thread", "Attach Listener"]:
        ids[name] = tid
        tid += 1
    tid += 40
    for name in ["HikariPool-1 housekeeper", "Catalina-utility-1", "container-0", "DestroyJavaVM",
                 "XNIO-1 Accept"] + ["XNIO-1 I/O-%d" % (i + 1) for i in range(s["io_threads"])] + \
            ["XNIO-1 task-%d" % (i + 1) for i in range(s["task_threads"])] + \
            ["bootstrap-client-worker-%d" % (i + 1) for i in range(16)] + ["mysql-cj-abandoned-connection-cleanup"]:
        ids[name] = tid
        tid += 1
    return ids


TASK_IDLE = """   java.lang.Thread.State: WAITING (parking)
	at sun.misc.Unsafe.park(Native Method)
	- parking to wait for  <0x{lock:012x}> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)
	at java.util.concurrent.locks.LockSupport.park(LockSupport.java:175)
	at java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(AbstractQueuedSynchronizer.java:2039)
	at java.util.concurrent.LinkedBlockingQueue.take(LinkedBlockingQueue.java:442)
	at java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1074)
	at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1134)
	at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)
	at java.lang.Thread.run(Thread.java:748)
"""

TASK_BUSY = """   java.lang.Thread.State: RUNNABLE
	at java.net.SocketInputStream.socketRead0(Native Method)
	at java.net.SocketInputStream.socketRead(SocketInputStream.java:116)
	at java.net.SocketInputStream.read(SocketInputStream.java:171)
	at java.net.SocketInputStream.read(SocketInputStream.java:141)
	at java.io.BufferedInputStream.fill(BufferedInputStream.java:246)
	at java.io.BufferedInputStream.read1(BufferedInputStream.java:286)
	at java.io.BufferedInputStream.read(BufferedInputStream.java:345)
	- locked <0x{lock:012x}> (a java.io.BufferedInputStream)
	at com.example.bank.core.rpc.BlockingRpcClient.readResponse(BlockingRpcClient.java:212)
	at com.example.bank.core.rpc.BlockingRpcClient.call(BlockingRpcClient.java:97)
	at com.example.bank.core.account.AccountService.transfer(AccountService.java:318)
	at com.example.bank.core.web.TransferHandler.handleRequest(TransferHandler.java:64)
	at io.undertow.server.Connectors.executeRootHandler(Connectors.java:376)
	at io.undertow.server.HttpServerExchange$1.run(HttpServerExchange.java:830)
	at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)
	at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)
	at java.lang.Thread.run(Thread.java:748)
"""

IO_THREAD = """   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.EPollArrayWrapper.epollWait(Native Method)
	at sun.nio.ch.EPollArrayWrapper.poll(EPollArrayWrapper.java:269)
	at sun.nio.ch.EPollSelectorImpl.doSelect(EPollSelectorImpl.java:93)
	at sun.nio.ch.SelectorImpl.lockAndDoSelect(SelectorImpl.java:86)
	- locked <0x{a:012x}> (a sun.nio.ch.Util$3)
	- locked <0x{b:012x}> (a java.util.Collections$UnmodifiableSet)
	- locked <0x{c:012x}> (a sun.nio.ch.EPollSelectorImpl)
	at sun.nio.ch.SelectorImpl.select(SelectorImpl.java:97)
	at sun.nio.ch.SelectorImpl.select(SelectorImpl.java:101)
	at org.xnio.nio.WorkerThread.run(WorkerThread.java:574)
"""


def thread_dump(s, rng, at, first):
    """`jcmd PID Thread.print` of a JDK 8 HotSpot VM (the layout of the JDK 8u191 dump in
    parsers/tests/fixtures/jstack, without `-l`): Undertow's XNIO I/O and task pools."""
    ids = thread_ids(s)
    vm = "OpenJDK 64-Bit Server VM (%s mixed mode)" % s["jdk"][2]
    import time as _t
    out = ["%d:" % PID, _t.strftime("%Y-%m-%d %H:%M:%S", _t.gmtime(at + K.CST)), "Full thread dump %s:" % vm, ""]
    n = 1
    tid_addr = 0xFFFF4C000000 + (0 if first else 0)
    busy = set(rng.sample(range(1, s["task_threads"] + 1), 50))
    lock = 0x3C0000000

    def head(name, daemon, prio, state_word, stack_addr):
        nonlocal n, tid_addr
        tid_addr += 0x3800
        n += 1
        return '"%s" #%d %sprio=%d os_prio=0 tid=0x0000%012x nid=0x%x %s [0x0000%012x]' % (
            name, n, "daemon " if daemon else "", prio, tid_addr, ids[name], state_word, stack_addr)

    block = []
    for i in range(s["task_threads"], 0, -1):
        name = "XNIO-1 task-%d" % i
        if i in busy:
            block.append(head(name, False, 5, "runnable", 0xFFFE00000000 + i * 0x100000))
            block.append(TASK_BUSY.format(lock=lock + i * 0x40).rstrip("\n"))
        else:
            block.append(head(name, False, 5, "waiting on condition", 0xFFFE00000000 + i * 0x100000))
            block.append(TASK_IDLE.format(lock=0x3C8A11D40).rstrip("\n"))
        block.append("")
    block.append(head("XNIO-1 Accept", False, 5, "runnable", 0xFFFD40000000))
    block.append(IO_THREAD.format(a=0x3C0A00010, b=0x3C0A00020, c=0x3C0A00030).rstrip("\n"))
    block.append("")
    for i in range(s["io_threads"], 0, -1):
        block.append(head("XNIO-1 I/O-%d" % i, False, 5, "runnable", 0xFFFD00000000 + i * 0x100000))
        base = 0x3C0B00000 + i * 0x100
        block.append(IO_THREAD.format(a=base, b=base + 0x10, c=base + 0x20).rstrip("\n"))
        block.append("")
    for i in range(16, 0, -1):
        block.append(head("bootstrap-client-worker-%d" % i, True, 5, "runnable", 0xFFFC00000000 + i * 0x100000))
        base = 0x3C0C00000 + i * 0x100
        block.append(IO_THREAD.format(a=base, b=base + 0x10, c=base + 0x20).rstrip("\n").replace(
            "org.xnio.nio.WorkerThread.run(WorkerThread.java:574)",
            "io.netty.channel.nio.NioEventLoop.select(NioEventLoop.java:756)\n\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:411)\n\tat io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:884)\n\tat java.lang.Thread.run(Thread.java:748)"))
        block.append("")
    block += [head("mysql-cj-abandoned-connection-cleanup", True, 5, "in Object.wait()", 0xFFFBF0000000),
              "   java.lang.Thread.State: TIMED_WAITING (on object monitor)",
              "\tat java.lang.Object.wait(Native Method)",
              "\tat java.lang.ref.ReferenceQueue.remove(ReferenceQueue.java:144)",
              "\t- locked <0x00000003c0d00000> (a java.lang.ref.ReferenceQueue$Lock)",
              "\tat com.mysql.cj.jdbc.AbandonedConnectionCleanupThread.run(AbandonedConnectionCleanupThread.java:85)",
              "\tat java.lang.Thread.run(Thread.java:748)", "",
              head("HikariPool-1 housekeeper", True, 5, "waiting on condition", 0xFFFBE0000000),
              "   java.lang.Thread.State: TIMED_WAITING (parking)",
              "\tat sun.misc.Unsafe.park(Native Method)",
              "\t- parking to wait for  <0x00000003c0d10000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)",
              "\tat java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:215)",
              "\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos(AbstractQueuedSynchronizer.java:2078)",
              "\tat java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(ScheduledThreadPoolExecutor.java:1093)",
              "\tat java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(ScheduledThreadPoolExecutor.java:809)",
              "\tat java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1074)",
              "\tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1134)",
              "\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)",
              "\tat java.lang.Thread.run(Thread.java:748)", "",
              head("DestroyJavaVM", False, 5, "waiting on condition", 0),
              "   java.lang.Thread.State: RUNNABLE", "",
              head("Attach Listener", True, 9, "waiting on condition", 0),
              "   java.lang.Thread.State: RUNNABLE", "",
              head("Service Thread", True, 9, "runnable", 0),
              "   java.lang.Thread.State: RUNNABLE", ""]
    for i in range(s["cic"] - 1, c2_count(s) - 1, -1):
        block += [head("C1 CompilerThread%d" % i, True, 9, "waiting on condition", 0), "   java.lang.Thread.State: RUNNABLE", ""]
    for i in range(c2_count(s) - 1, -1, -1):
        block += [head("C2 CompilerThread%d" % i, True, 9, "waiting on condition", 0), "   java.lang.Thread.State: RUNNABLE", ""]
    block += [head("Signal Dispatcher", True, 9, "runnable", 0), "   java.lang.Thread.State: RUNNABLE", "",
              head("Finalizer", True, 8, "in Object.wait()", 0xFFFBD0000000),
              "   java.lang.Thread.State: WAITING (on object monitor)",
              "\tat java.lang.Object.wait(Native Method)",
              "\tat java.lang.ref.ReferenceQueue.remove(ReferenceQueue.java:144)",
              "\t- locked <0x00000003c0008ed0> (a java.lang.ref.ReferenceQueue$Lock)",
              "\tat java.lang.ref.ReferenceQueue.remove(ReferenceQueue.java:165)",
              "\tat java.lang.ref.Finalizer$FinalizerThread.run(Finalizer.java:216)", "",
              head("Reference Handler", True, 10, "in Object.wait()", 0xFFFBC0000000),
              "   java.lang.Thread.State: WAITING (on object monitor)",
              "\tat java.lang.Object.wait(Native Method)",
              "\tat java.lang.Object.wait(Object.java:502)",
              "\tat java.lang.ref.Reference.tryHandlePending(Reference.java:191)",
              "\t- locked <0x00000003c0006bf8> (a java.lang.ref.Reference$Lock)",
              "\tat java.lang.ref.Reference$ReferenceHandler.run(Reference.java:153)", ""]
    out += block
    out.append('"VM Thread" os_prio=0 tid=0x0000%012x nid=0x%x runnable ' % (0xFFFF4B000000, ids["VM Thread"]))
    out.append("")
    for i in range(s["gc_threads"]):
        out.append('"GC task thread#%d (ParallelGC)" os_prio=0 tid=0x0000%012x nid=0x%x runnable ' % (i, 0xFFFF4A000000 + i * 0x800, ids["GC task thread#%d (ParallelGC)" % i]))
        out.append("")
    out.append('"VM Periodic Task Thread" os_prio=0 tid=0x0000%012x nid=0x%x waiting on condition ' % (0xFFFF49000000, ids["VM Periodic Task Thread"]))
    out.append("")
    out.append("JNI global references: %d" % (2461 if s["virt"] else 2673))
    out.append("")
    return "\n".join(out)


def threads_tsv(s):
    """`awk -f threads.awk /proc/PID/task/*/comm | sort -rn`: counts by /proc comm. JDK 8 on
    Linux does not name native threads (os::set_native_thread_name is "Not yet implemented" in
    os_linux.cpp of 8u of this era), so every thread keeps the launcher's comm, `java`."""
    return "%d\tjava\n" % len(thread_ids(s))


def histogram(s, rng):
    scale = 1.0 if s["virt"] else 0.9
    rows = [("[C", 4_212_330, 512_003_920), ("[B", 611_204, 389_117_904), ("java.lang.String", 4_190_877, 100_581_048),
            ("java.util.HashMap$Node", 1_901_213, 60_838_816), ("[Ljava.lang.Object;", 402_118, 41_006_112),
            ("io.undertow.server.HttpServerExchange", 61_204, 19_585_280), ("java.util.concurrent.ConcurrentHashMap$Node", 509_883, 16_316_256),
            ("[Ljava.util.HashMap$Node;", 98_227, 15_716_320), ("java.lang.Object", 612_338, 9_797_408),
            ("java.util.LinkedHashMap$Entry", 201_904, 9_691_392), ("com.example.bank.core.account.TransferRecord", 120_511, 8_676_792),
            ("java.util.ArrayList", 300_111, 7_202_664), ("java.lang.Long", 280_091, 6_722_184),
            ("io.undertow.util.HeaderMap", 61_204, 2_448_160), ("java.lang.Class", 21_204, 2_468_808)]
    out = ["%d:" % PID, "", " num     #instances         #bytes  class name", "----------------------------------------------"]
    ti = tb = 0
    for i, (cl, inst, byt) in enumerate(rows):
        inst, byt = int(inst * scale), int(byt * scale) // 8 * 8
        ti += inst
        tb += byt
        out.append("%4d:  %12d  %13d  %s" % (i + 1, inst, byt, cl))
    out.append("Total  %12d  %13d" % (ti, tb))
    return "\n".join(out) + "\n"


def status_text(s):
    t = K.fixture("captured-proc/collector-status-java-jdk17.txt")
    nthreads = len(thread_ids(s))
    rep = {"Tgid:": str(PID), "Pid:": str(PID), "PPid:": "1", "NStgid:": str(PID), "NSpid:": str(PID),
           "NSpgid:": str(PID), "NSsid:": str(PID), "Uid:": "1001\t1001\t1001\t1001", "Gid:": "1001\t1001\t1001\t1001",
           "FDSize:": "1024", "VmPeak:": "  31092412 kB", "VmSize:": "  30871104 kB", "VmHWM:": "  18644220 kB",
           "VmRSS:": "  18477832 kB", "RssAnon:": "  18401004 kB", "RssFile:": "     76828 kB", "VmData:": "  25120444 kB",
           "VmSwap:": "         0 kB", "Threads:": str(nthreads), "SigQ:": "0/%d" % s["sigpending"],
           "Cpus_allowed_list:": "0-%d" % (s["ncpu"] - 1), "Mems_allowed_list:": "0" if s["virt"] else "0-3"}
    out = []
    for line in t.split("\n"):
        k = line.split("\t")[0]
        if k in ("untag_mask:", "Kthread:", "THP_enabled:", "Seccomp_filters:", "SpeculationIndirectBranch:", "VmLck:", "VmPin:"):
            if k in ("VmLck:", "VmPin:"):
                out.append(line)
            continue
        if k in rep:
            line = "%s\t%s" % (k, rep[k])
        elif k == "Cpus_allowed:":
            line = "Cpus_allowed:\t%s" % ("ffffffff" if s["virt"] else "ffffffff,ffffffff,ffffffff,ffffffff")
        elif k == "voluntary_ctxt_switches:":
            line = "voluntary_ctxt_switches:\t4"
        out.append(line)
    return "\n".join(out)


# ---- host texts --------------------------------------------------------------------------------


def sysctl(name, s):
    t = K.fixture("sysctl/hotsos__sysctl-a-ubuntu2004-k8s.txt")
    tuned = {
        "net.core.rmem_default": "8388608", "net.core.rmem_max": "16777216",
        "net.core.wmem_default": "8388608", "net.core.wmem_max": "16777216",
        "net.core.somaxconn": "65535", "net.core.netdev_max_backlog": "250000",
        "net.core.netdev_budget": "600", "net.core.dev_weight": "128", "net.core.optmem_max": "81920",
        "net.ipv4.tcp_limit_output_bytes": "1048576", "net.ipv4.tcp_invalid_ratelimit": "0",
        "net.netfilter.nf_conntrack_max": "2097152", "net.nf_conntrack_max": "2097152",
        "net.netfilter.nf_conntrack_buckets": "524288",
        "net.netfilter.nf_conntrack_tcp_timeout_established": "1200",
        "net.netfilter.nf_conntrack_tcp_timeout_time_wait": "30",
    }
    defaults_4_19 = {"net.core.somaxconn": "128", "net.ipv4.tcp_limit_output_bytes": "262144"}
    out = []
    for line in t.split("\n"):
        if line.startswith("abi."):
            continue
        k = line.split(" = ")[0]
        if k.startswith("net.netfilter.") or k.startswith("net.nf_conntrack"):
            if s["virt"]:
                continue  # no connection tracking module on the VM
        if k == "kernel.hostname":
            line = "kernel.hostname = %s" % s["host"]
        elif k == "kernel.tainted":
            line = "kernel.tainted = 0"
        elif k == "kernel.threads-max":
            line = "kernel.threads-max = %d" % (s["sigpending"] * 2)
        elif not s["virt"] and k in tuned:
            line = "%s = %s" % (k, tuned[k])
        elif k in defaults_4_19:
            line = "%s = %s" % (k, defaults_4_19[k])
        out.append(line)
    return "\n".join(out)


def numactl(s):
    if s["virt"]:
        return ("available: 1 nodes (0)\nnode 0 cpus: %s\nnode 0 size: 63754 MB\nnode 0 free: 26134 MB\n"
                "node distances:\nnode   0 \n  0:  10 \n" % " ".join(str(i) for i in range(32)))
    out = ["available: 4 nodes (0-3)"]
    for nd in range(4):
        out += ["node %d cpus: %s" % (nd, " ".join(str(c) for c in range(nd * 32, nd * 32 + 32))),
                "node %d size: %d MB" % (nd, 130787 if nd else 129740), "node %d free: %d MB" % (nd, 108202 + nd * 311)]
    out += ["node distances:", "node   0   1   2   3 ", "  0:  10  12  20  22 ", "  1:  12  10  22  24 ",
            "  2:  20  22  10  12 ", "  3:  22  24  12  10 "]
    return "\n".join(out) + "\n"


def cpuinfo_head(s):
    feats = "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma dcpop asimddp asimdfhm"
    block = ("processor\t: {n}\nBogoMIPS\t: 200.00\nFeatures\t: %s\nCPU implementer\t: 0x48\n"
             "CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd01\nCPU revision\t: 0\n\n") % feats
    text = "".join(block.format(n=i) for i in range(8))
    return "\n".join(text.split("\n")[:64]) + "\n"


def dmidecode_vm():
    t = K.fixture("dmidecode/hotsos__dmidecode-openstack-nova-kvm.txt")
    return t


def dmidecode_phys():
    return ("# dmidecode 3.2\nGetting SMBIOS data from sysfs.\nSMBIOS 3.2.0 present.\n\n"
            "Handle 0x0001, DMI type 1, 27 bytes\nSystem Information\n\tManufacturer: Huawei\n"
            "\tProduct Name: TaiShan 200 (Model 2280)\n\tVersion: To be filled by O.E.M.\n"
            "\tSerial Number: 2102312WYG10L4000312\n\tUUID: 5c7e1d40-1d0b-11eb-8000-0c42a1b23c12\n"
            "\tWake-up Type: Power Switch\n\tSKU Number: To be filled by O.E.M.\n\tFamily: To be filled by O.E.M.\n\n"
            "Handle 0x0024, DMI type 12, 5 bytes\nSystem Configuration Options\n\tOption 1: To Be Filled By O.E.M.\n\n"
            "Handle 0x0025, DMI type 32, 20 bytes\nSystem Boot Information\n\tStatus: No errors detected\n\n")


def lspci(s):
    if s["virt"]:
        return ("00:00.0 Host bridge: Red Hat, Inc. QEMU PCIe Host bridge\n\tSubsystem: Red Hat, Inc. Device 1100\n"
                "00:01.0 PCI bridge: Red Hat, Inc. QEMU PCIe Root port\n\tKernel driver in use: pcieport\n"
                "00:03.0 Ethernet controller: Red Hat, Inc. Virtio network device (rev 01)\n\tSubsystem: Red Hat, Inc. Device 0001\n\tKernel driver in use: virtio-pci\n"
                "00:04.0 SCSI storage controller: Red Hat, Inc. Virtio block device (rev 01)\n\tSubsystem: Red Hat, Inc. Device 0002\n\tKernel driver in use: virtio-pci\n"
                "00:05.0 SCSI storage controller: Red Hat, Inc. Virtio block device (rev 01)\n\tSubsystem: Red Hat, Inc. Device 0002\n\tKernel driver in use: virtio-pci\n")
    return ("74:02.0 Serial Attached SCSI controller: Huawei Technologies Co., Ltd. HiSilicon SAS 3.0 HBA (rev 21)\n"
            "\tSubsystem: Huawei Technologies Co., Ltd. Device 0000\n\tKernel driver in use: hisi_sas_v3_hw\n\tKernel modules: hisi_sas_v3_hw\n"
            "7d:00.0 Ethernet controller: Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller (rev 21)\n"
            "\tSubsystem: Huawei Technologies Co., Ltd. Device 0454\n\tKernel driver in use: hns3\n\tKernel modules: hclge\n"
            "7d:00.1 Ethernet controller: Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller (rev 21)\n"
            "\tSubsystem: Huawei Technologies Co., Ltd. Device 0454\n\tKernel driver in use: hns3\n\tKernel modules: hclge\n")


def meminfo_text(total, free, cached):
    anon = total - free - cached - 412_100 - 2_400_000
    rows = [("MemTotal", total), ("MemFree", free), ("MemAvailable", free + cached), ("Buffers", 412_100),
            ("Cached", cached), ("SwapCached", 0), ("Active", anon + cached // 3), ("Inactive", cached * 2 // 3),
            ("Active(anon)", anon), ("Inactive(anon)", 98_112), ("Active(file)", cached // 3),
            ("Inactive(file)", cached * 2 // 3 - 98_112), ("Unevictable", 0), ("Mlocked", 0), ("SwapTotal", 4_194_300),
            ("SwapFree", 4_194_300), ("Dirty", 1_204), ("Writeback", 0), ("AnonPages", anon - 300_000), ("Mapped", 212_004),
            ("Shmem", 21_504), ("Slab", 1_402_110), ("SReclaimable", 700_221), ("SUnreclaim", 701_889),
            ("KernelStack", 41_280), ("PageTables", 61_442), ("NFS_Unstable", 0), ("Bounce", 0), ("WritebackTmp", 0),
            ("CommitLimit", total // 2 + 4_194_300), ("Committed_AS", int(total * 0.42)), ("VmallocTotal", 133_009_637_312),
            ("VmallocUsed", 0), ("VmallocChunk", 0), ("Percpu", 40_960), ("HardwareCorrupted", 0), ("AnonHugePages", 12_582_912),
            ("ShmemHugePages", 0), ("ShmemPmdMapped", 0)]
    lines = ["%-15s %8d kB" % (k + ":", v) for k, v in rows]
    lines += ["HugePages_Total:       0", "HugePages_Free:        0", "HugePages_Rsvd:        0", "HugePages_Surp:        0",
              "Hugepagesize:       2048 kB", "Hugetlb:               0 kB"]
    return "\n".join(lines) + "\n"


def ip_s_link(s, el):
    ln = links(s, el)
    lo, nic = ln["lo"], ln[s["nic"]]
    return ("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\n"
            "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
            "    RX: bytes  packets  errors  dropped overrun mcast   \n"
            "    %-11d %-8d 0       0       0       0       \n"
            "    TX: bytes  packets  errors  dropped carrier collsns \n"
            "    %-11d %-8d 0       0       0       0       \n"
            "2: %s: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc %s state UP mode DEFAULT group default qlen 1000\n"
            "    link/ether %s brd ff:ff:ff:ff:ff:ff\n"
            "    RX: bytes  packets  errors  dropped overrun mcast   \n"
            "    %-11d %-8d 0       0       0       101223  \n"
            "    TX: bytes  packets  errors  dropped carrier collsns \n"
            "    %-11d %-8d 0       0       0       0       \n"
            % (lo[0], lo[1], lo[2], lo[3], s["nic"], "mq",
               "fa:16:3e:5d:0b:11" if s["virt"] else "0c:42:a1:b2:3c:12", nic[0], nic[1], nic[2], nic[3]))


def ip_addr(s):
    return ("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
            "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n"
            "       valid_lft forever preferred_lft forever\n    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n"
            "2: %s: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000\n"
            "    link/ether %s brd ff:ff:ff:ff:ff:ff\n    inet %s/24 brd 192.0.2.255 scope global noprefixroute %s\n"
            "       valid_lft forever preferred_lft forever\n"
            % (s["nic"], "fa:16:3e:5d:0b:11" if s["virt"] else "0c:42:a1:b2:3c:12", s["ip"], s["nic"]))


def ethtool(s, opt, el=0.0):
    nic = s["nic"]
    if opt == "i":
        if s["virt"]:
            return K.fixture("captured-b/ethtool-i-virtio-eth0.txt")
        return ("driver: hns3\nversion: %s\nfirmware-version: %s\nexpansion-rom-version: \nbus-info: %s\n"
                "supports-statistics: yes\nsupports-test: yes\nsupports-eeprom-access: no\nsupports-register-dump: yes\n"
                "supports-priv-flags: yes\n" % (s["drv_version"], s["firmware"], s["bus"]))
    if opt == "l":
        return ("Channel parameters for %s:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t%d\n"
                "Current hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t%d\n" % (nic, s["queues_max"], s["queues"]))
    if opt == "g":
        return ("Ring parameters for %s:\nPre-set maximums:\nRX:\t\t%d\nRX Mini:\tn/a\nRX Jumbo:\tn/a\nTX:\t\t%d\n"
                "Current hardware settings:\nRX:\t\t%d\nRX Mini:\tn/a\nRX Jumbo:\tn/a\nTX:\t\t%d\n"
                "RX Buf Len:\t\tn/a\nCQE Size:\t\tn/a\nTX Push:\toff\nTCP data split:\tn/a\n"
                % (nic, s["rx_ring"][1], s["rx_ring"][1], s["rx_ring"][0], s["rx_ring"][0]))
    if opt == "k":
        if s["virt"]:
            real = K.fixture("captured-b/ethtool-k-virtio-eth0.txt").split("\n", 1)
            return real[0] + "\n" + K.ethtool_k_4_19(real[1])
        return "Features for %s:\n%s" % (nic, K.PHYS_ETHTOOL_K)
    if opt == "c":
        if s["virt"]:
            return K.fixture("captured-b/ethtool-c-virtio-eth0.txt")
        return ("Coalesce parameters for %s:\nAdaptive RX: on  TX: on\nstats-block-usecs: 0\nsample-interval: 0\n"
                "pkt-rate-low: 0\npkt-rate-high: 0\n\nrx-usecs: 20\nrx-frames: 0\nrx-usecs-irq: 0\nrx-frames-irq: 0\n\n"
                "tx-usecs: 20\ntx-frames: 0\ntx-usecs-irq: 0\ntx-frames-irq: 0\n\nrx-usecs-low: 0\nrx-frame-low: 0\n"
                "tx-usecs-low: 0\ntx-frame-low: 0\n\nrx-usecs-high: 0\nrx-frame-high: 0\ntx-usecs-high: 0\ntx-frame-high: 0\n\n" % nic)
    rxb, rxp, txb, txp = links(s, el)[nic]
    n = s["queues"]
    share = lambda v, q: v // n + (1 if q < v % n else 0)  # noqa: E731  queues sum to the NIC
    if s["virt"]:
        # virtio_net 4.19: virtnet_rq_stats_desc and virtnet_sq_stats_desc, rx queues first
        out = ["NIC statistics:"]
        for q in range(n):
            out += ["     rx_queue_%d_packets: %d" % (q, share(rxp, q)), "     rx_queue_%d_bytes: %d" % (q, share(rxb, q)),
                    "     rx_queue_%d_drops: 0" % q, "     rx_queue_%d_xdp_packets: 0" % q,
                    "     rx_queue_%d_xdp_tx: 0" % q, "     rx_queue_%d_xdp_redirects: 0" % q,
                    "     rx_queue_%d_xdp_drops: 0" % q, "     rx_queue_%d_kicks: %d" % (q, share(rxp, q) // 190)]
        for q in range(n):
            out += ["     tx_queue_%d_packets: %d" % (q, share(txp, q)), "     tx_queue_%d_bytes: %d" % (q, share(txb, q)),
                    "     tx_queue_%d_xdp_tx: 0" % q, "     tx_queue_%d_xdp_tx_drops: 0" % q,
                    "     tx_queue_%d_kicks: %d" % (q, int(share(txp, q) * 0.86))]
        return "\n".join(out) + "\n"
    out = ["NIC statistics:", "     queue_num: %d" % n]
    for q in range(n):
        out += ["     txq%d_pktnum_rcd: %d" % (q, share(txp, q)), "     txq%d_dropped: 0" % q]
    for q in range(n):
        out += ["     rxq%d_pktnum_rcd: %d" % (q, share(rxp, q)), "     rxq%d_dropped: 0" % q]
    return "\n".join(out) + "\n"


def irq_affinity(s):
    out = ["3\t0-%d\tarch_timer" % (s["ncpu"] - 1)]
    irq = 40
    if s["virt"]:
        for q in range(s["queues"]):
            for kind in ("input", "output"):
                out.append("%d\t%d\tvirtio2-%s.%d" % (irq, q * 4, kind, q))
                irq += 1
        out.append("%d\t0-31\tvirtio2-config" % irq)
    else:
        for q in range(s["queues"]):
            out.append("%d\t%d\thns3-%s-TxRx-%d" % (irq, q * 8, s["bus"], q))
            irq += 1
    return "\n".join(out) + "\n"


def ss_tulpn(s):
    rows = [("udp", "UNCONN", "0", "0", "127.0.0.1", "323", 'users:(("chronyd",pid=1320,fd=5))'),
            ("tcp", "LISTEN", "0", "128", "0.0.0.0", "22", 'users:(("sshd",pid=1811,fd=3))'),
            ("tcp", "LISTEN", "0", "1024", "0.0.0.0", "8080", 'users:(("java",pid=%d,fd=412))' % PID)]
    if s["bootstrap"]:
        rows.append(("tcp", "LISTEN", "0", "4096", "0.0.0.0", "20880", 'users:(("bootstrap",pid=%d,fd=31))' % BOOT_PID))
    out = ["Netid State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess"]
    for r in rows:
        out.append("%-5s %-6s %-6s %-6s %13s:%-5s %12s:%-4s %s" % (r[0], r[1], r[2], r[3], r[4], r[5], "0.0.0.0", "*", r[6]))
    return "\n".join(out) + "\n"


JAVA_ETIMES, BOOT_ETIMES, BOOT_LIFE_PCPU = 604_811, 801_204, 141.7


def java_now_pcpu(s):
    return sum([s["usr"], s["sys"]]) * s["ncpu"] * 0.93


def java_life_pcpu(s):
    return round(java_now_pcpu(s) * 0.71, 1)


def top_time(pcpu, etimes):
    """top's TIME+ (minutes:seconds.hundredths, hundredths dropped past 999 minutes)."""
    cs = int(pcpu / 100.0 * etimes * 100)
    m, rest = divmod(cs, 6000)
    return "%d:%02d" % (m, rest // 100) if m > 999 else "%d:%02d.%02d" % (m, rest // 100, rest % 100)


def ps_text(s):
    up = int(s["uptime"])
    rows = [dict(pid=1, ppid=0, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=14_208, vsz=172_004, etimes=up, stat="Ss",
                 comm="systemd", args="/usr/lib/systemd/systemd --switched-root --system --deserialize 17")]
    for pid, comm in K.kernel_threads(s["ncpu"]):
        rows.append(dict(pid=pid, ppid=0 if comm == "kthreadd" else 2, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=0, vsz=0,
                         etimes=up, stat="S" if not comm.startswith("kworker") else "I<", comm=comm, args="[%s]" % comm))
    svc = [(1320, "chrony", 1, 0.0, "chronyd", "/usr/sbin/chronyd"),
           (1402, "root", 3, 0.0, "irqbalance", "/usr/sbin/irqbalance --foreground"),
           (1811, "root", 1, 0.0, "sshd", "/usr/sbin/sshd -D"),
           (1903, "root", 1, 0.0, "crond", "/usr/sbin/crond -n")]
    for pid, user, nlwp, pc, comm, args in svc:
        rows.append(dict(pid=pid, ppid=1, user=user, nlwp=nlwp, pcpu=pc, pmem=0.0, rss=6_000, vsz=110_000, etimes=up - 40,
                         stat="Ssl", comm=comm, args=args))
    if s["bootstrap"]:
        rows.append(dict(pid=BOOT_PID, ppid=1, user="gateway", nlwp=64, pcpu=BOOT_LIFE_PCPU, pmem=3.1, rss=2_061_204, vsz=4_118_332,
                         etimes=BOOT_ETIMES, stat="Ssl", comm="bootstrap", args="/opt/gateway/bin/bootstrap -c /opt/gateway/conf/bootstrap.yaml"))
    nth = len(thread_ids(s))
    java = sum([s["usr"], s["sys"]]) * s["ncpu"] * 0.93
    # ps: CPU time over the process's life; top: over its last interval
    rows.append(dict(pid=PID, ppid=1, user="bank", nlwp=nth, pcpu=java_life_pcpu(s), pmem=28.3 if s["virt"] else 3.4,
                     rss=18_477_832, vsz=30_871_104, etimes=JAVA_ETIMES, stat="Ssl", comm="java", args=" ".join(java_args(s))))
    rows += [dict(pid=700298, ppid=1811, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=9_100, vsz=154_300, etimes=910, stat="Ss", comm="sshd", args="sshd: root@pts/0"),
             dict(pid=700311, ppid=700298, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=9_100, vsz=154_300, etimes=909, stat="S", comm="sshd", args="sshd: root@pts/0"),
             dict(pid=700320, ppid=700311, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=5_100, vsz=21_900, etimes=909, stat="Ss", comm="bash", args="-bash")]
    rows.sort(key=lambda r: r["pid"])
    return K.ps_table(rows)


def top_text(s):
    java = java_now_pcpu(s)
    ntasks = ps_text(s).count("\n")  # the processes ps listed a moment before, and top
    lines = ["top - %s up %d days,  %d:%02d,  1 user,  load average: %s" % (K.hms(s["t0"] + 3), int(s["uptime"] // 86400), int(s["uptime"] % 86400 // 3600), int(s["uptime"] % 3600 // 60),
                                                                      "9.21, 9.04, 8.77" if s["virt"] else "5.12, 5.30, 5.41"),
             "Tasks: %d total,   3 running, %d sleeping,   0 stopped,   0 zombie" % (ntasks, ntasks - 3),
             "%%Cpu(s): %4.1f us, %4.1f sy,  0.0 ni, %4.1f id,  0.0 wa,  0.0 hi, %4.1f si, %4.1f st" % (s["usr"], s["sys"], 100 - s["usr"] - s["sys"] - s["soft"] - s["steal"], s["soft"], s["steal"]),
             s["top_mem"][0], s["top_mem"][1],
             "", "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND",
             "  %5d bank      20   0   29.4g  17.6g  21408 S %5.1f  %4.1f %9s java" % (PID, java, 28.3 if s["virt"] else 3.4, top_time(java_life_pcpu(s), JAVA_ETIMES))]
    if s["bootstrap"]:
        lines.append("  %5d gateway   20   0 4118332   1.9g  11320 S 158.2   3.1 %9s bootstrap" % (BOOT_PID, top_time(BOOT_LIFE_PCPU, BOOT_ETIMES)))
    lines.append("      1 root      20   0  172004  14208   9120 S   0.0   0.0   6:40.11 systemd")
    return "\n".join(lines) + "\n"


def dmesg(s):
    up = s["uptime"] - 3600 * 30
    if s["virt"]:
        return ("[%12.6f] virtio_net virtio2 eth0: link up\n[%12.6f] IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready\n"
                % (up, up + 0.000411))
    return ("[%12.6f] hns3 0000:7d:00.0 enp125s0f0: link up\n[%12.6f] IPv6: ADDRCONF(NETDEV_CHANGE): enp125s0f0: link becomes ready\n"
            "[%12.6f] nf_conntrack: default automatic helper assignment has been turned off for security reasons and CT-based  firewall rule not found. Use the iptables CT target to attach helpers instead.\n"
            % (up, up + 0.000502, up + 11.204117))


def main():
    for name in ("baseline", "suspect"):
        build(name, os.path.join(HERE, name))


if __name__ == "__main__":
    main()
