#!/usr/bin/env python3
"""Writes the S4 pair: baseline/ (pool B, healthy) and suspect/ (pool A, the slow one).

Run from anywhere: `python3 sample-bundles/s4-oceanbase-softirq/make.py`. The output is
deterministic. README.md next to this file lists every source and every changed value.
"""

import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

import pairkit as K  # noqa: E402
import perfreport  # noqa: E402

NCPU = 192
KERNEL = "4.19.90-2107.6.0.0192.8.oe1.bclinux.aarch64"
DURATION, INTERVAL = 30, 5
UPTIME = 3_556_813.47  # 41 days 4 hours at the start of the run
MEM_KB = 535_699_456  # 512 GiB minus firmware reservations

SIDES = {
    "baseline": dict(
        host="ob-b01.example", ip="192.0.2.31", mac="b4:96:91:a0:31:0",
        t0=1_796_031_300.184562371, seed=31, label="pool-b",
        driver="mlx5_core", drv_version="5.0-0", firmware="14.28.1300 (HUA0020040036)",
        nics=["enp129s0f0np0", "enp129s0f1np1"], bus=["0000:81:00.0", "0000:81:00.1"],
        queues=63, queues_max=63, rx_ring=(8192, 8192), tx_ring=(8192, 8192),
        irq_cpus=list(range(63)), irq_base=300,
        # rates: bond0 bytes/s each way, packets/s each way
        rx_bps=46_300_000, tx_bps=44_600_000, rx_pps=181_000, tx_pps=176_000,
        soft_hot=14.2, usr_hot=19.5, sys_hot=7.8, usr_rest=21.0, sys_rest=8.4, soft_rest=0.4,
        net_rx_hot=3100.0, nic_irq_per_queue=1480.0, cs=410_000,
        module=False,
    ),
    "suspect": dict(
        host="ob-a01.example", ip="192.0.2.21", mac="f4:1d:6b:5c:21:0",
        t0=1_796_030_100.271936458, seed=21, label="pool-a",
        driver="hinic3", drv_version="17.7.7.2", firmware="17.7.7.2",
        nics=["enp3s0f0", "enp3s0f1"], bus=["0000:03:00.0", "0000:03:00.1"],
        queues=24, queues_max=64, rx_ring=(1024, 16384), tx_ring=(1024, 65536),
        irq_cpus=list(range(24)), irq_base=300,
        rx_bps=15_400_000, tx_bps=14_800_000, rx_pps=60_200, tx_pps=58_100,
        soft_hot=99.1, usr_hot=0.2, sys_hot=0.5, usr_rest=7.4, sys_rest=3.1, soft_rest=0.3,
        net_rx_hot=640.0, nic_irq_per_queue=318.0, cs=205_000,
        module=True,
    ),
}

CLIENTS = ["198.51.100.11", "198.51.100.12", "198.51.100.13", "198.51.100.14"]
PEERS = ["192.0.2.22", "192.0.2.23"]


def side_peers(name):
    return PEERS if name == "suspect" else ["192.0.2.32", "192.0.2.33"]


# ---------------------------------------------------------------------------------------------
# Texts taken from real captures (README: "Sources")

LSCPU = """Architecture:                    aarch64
CPU op-mode(s):                  64-bit
Byte Order:                      Little Endian
CPU(s):                          192
On-line CPU(s) list:             0-191
Vendor ID:                       HiSilicon
BIOS Vendor ID:                  HiSilicon
Model name:                      Kunpeng-920
BIOS Model name:                 HUAWEI Kunpeng 920 5250
Model:                           0
Thread(s) per core:              1
Core(s) per socket:              48
Socket(s):                       4
Stepping:                        0x1
BogoMIPS:                        200.00
Flags:                           fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma dcpop asimddp asimdfhm ssbs
L1d cache:                       12 MiB (192 instances)
L1i cache:                       12 MiB (192 instances)
L2 cache:                        96 MiB (192 instances)
L3 cache:                        192 MiB (8 instances)
NUMA node(s):                    8
NUMA node0 CPU(s):               0-23
NUMA node1 CPU(s):               24-47
NUMA node2 CPU(s):               48-71
NUMA node3 CPU(s):               72-95
NUMA node4 CPU(s):               96-119
NUMA node5 CPU(s):               120-143
NUMA node6 CPU(s):               144-167
NUMA node7 CPU(s):               168-191
Vulnerability Itlb multihit:     Not affected
Vulnerability L1tf:              Not affected
Vulnerability Mds:               Not affected
Vulnerability Meltdown:          Not affected
Vulnerability Mmio stale data:   Not affected
Vulnerability Spec store bypass: Mitigation; Speculative Store Bypass disabled via prctl
Vulnerability Spectre v1:        Mitigation; __user pointer sanitization
Vulnerability Spectre v2:        Not affected
Vulnerability Srbds:             Not affected
Vulnerability Tsx async abort:   Not affected
"""

OS_RELEASE = """NAME="BigCloud Enterprise Linux"
VERSION="21.10 (LTS-SP2)"
ID="bclinux"
VERSION_ID="21.10"
PRETTY_NAME="BigCloud Enterprise Linux For Euler 21.10 LTS"
ANSI_COLOR="0;31"

"""

CMDLINE = ("BOOT_IMAGE=/vmlinuz-%s root=/dev/mapper/bclinux-root ro rd.lvm.lv=bclinux/root "
           "rd.lvm.lv=bclinux/swap video=VGA-1:640x480-32@60me rhgb quiet smmu.bypassdev=0x1000:0x17 "
           "smmu.bypassdev=0x1000:0x15 crashkernel=1024M,high video=efifb:off audit=0\n" % KERNEL)

ETHTOOL_K = K.PHYS_ETHTOOL_K

MODULES_COMMON = [
    # name, size, refcount, used by
    ("bonding", 196608, 0, "-"),
    ("nf_conntrack", 180224, 0, "-"),
    ("nf_defrag_ipv6", 24576, 1, "nf_conntrack,"),
    ("nf_defrag_ipv4", 16384, 1, "nf_conntrack,"),
    ("libcrc32c", 16384, 2, "nf_conntrack,xfs,"),
    ("sunrpc", 458752, 1, "-"),
    ("vfat", 24576, 1, "-"),
    ("fat", 90112, 1, "vfat,"),
    ("ipmi_ssif", 36864, 0, "-"),
    ("hisi_uncore_hha_pmu", 20480, 0, "-"),
    ("hisi_uncore_ddrc_pmu", 20480, 0, "-"),
    ("hisi_uncore_l3c_pmu", 20480, 0, "-"),
    ("hisi_uncore_pmu", 20480, 3, "hisi_uncore_hha_pmu,hisi_uncore_ddrc_pmu,hisi_uncore_l3c_pmu,"),
    ("arm_spe_pmu", 24576, 0, "-"),
    ("sbsa_gwdt", 20480, 1, "-"),
    ("ipmi_si", 69632, 0, "-"),
    ("ipmi_devintf", 24576, 0, "-"),
    ("ipmi_msghandler", 131072, 3, "ipmi_ssif,ipmi_si,ipmi_devintf,"),
    ("spi_dw_mmio", 20480, 0, "-"),
    ("sch_fq_codel", 28672, 9, "-"),
    ("ip_tables", 32768, 0, "-"),
    ("xfs", 1507328, 6, "-"),
    ("sd_mod", 61440, 3, "-"),
    ("hisi_sas_v3_hw", 65536, 2, "-"),
    ("hisi_sas_main", 61440, 1, "hisi_sas_v3_hw,"),
    ("libsas", 110592, 2, "hisi_sas_v3_hw,hisi_sas_main,"),
    ("scsi_transport_sas", 53248, 3, "hisi_sas_v3_hw,hisi_sas_main,libsas,"),
    ("nvme", 53248, 8, "-"),
    ("nvme_core", 122880, 9, "nvme,"),
    ("crct10dif_ce", 16384, 1, "-"),
    ("ghash_ce", 24576, 0, "-"),
    ("sha2_ce", 20480, 0, "-"),
    ("sha256_arm64", 24576, 1, "sha2_ce,"),
    ("sha1_ce", 20480, 0, "-"),
    ("dm_mirror", 28672, 0, "-"),
    ("dm_region_hash", 24576, 1, "dm_mirror,"),
    ("dm_log", 24576, 2, "dm_mirror,dm_region_hash,"),
    ("dm_mod", 155648, 8, "dm_mirror,dm_log,"),
]

NIC_MODULES = {
    "mlx5_core": [("mlx5_core", 880640, 0, "-"), ("mlxfw", 24576, 1, "mlx5_core,"),
                  ("devlink", 94208, 1, "mlx5_core,"), ("tls", 77824, 1, "mlx5_core,")],
    "hinic3": [("hinic3", 1093632, 0, "-")],
}

THIRD_PARTY = [
    ("resguard_linux", 364544, 2, "secmodel_linux,"),
    ("secmodel_linux", 45056, 0, "-"),
]

MODINFO = """filename:       /lib/modules/{k}/extra/resguard/resguard_linux.ko
version:        3.2.1.0
license:        GPL
description:    Host security agent network access control
author:         Example Security Agent
srcversion:     9C1E5A7F3B2D406E81A4C07
depends:        
name:           resguard_linux
vermagic:       {k} SMP mod_unload modversions aarch64
parm:           debug:int
filename:       /lib/modules/{k}/extra/resguard/secmodel_linux.ko
version:        3.2.1.0
license:        GPL
description:    Host security agent policy model
author:         Example Security Agent
srcversion:     4D8B06E2A95C1F37D05B8E1
depends:        resguard_linux
name:           secmodel_linux
vermagic:       {k} SMP mod_unload modversions aarch64
""".format(k=KERNEL)


# ---------------------------------------------------------------------------------------------
# The profile


PERF = os.path.join(K.FIX, "perf")


def derived_profile():
    """The suspect's `perf script`: the real perf 6.1 loopback capture, with the frames of the
    two functions above `__ip_queue_xmit` renamed into the module (as in
    perf6.1-script-loopback-300-resguard-derived.txt), and in the samples that pass through
    the module and end in `_raw_spin_unlock_irqrestore`, that leaf renamed to the spin-lock slow
    path and its caller to the module's lock wrapper. Addresses, offsets, comms, pids, CPUs,
    times and periods are kept."""
    text = open(os.path.join(PERF, "perf6.1-script-loopback-300.txt")).read()
    text = re.sub(r" ip_output\+(0x[0-9a-f]+) \(\[kernel\.kallsyms\]\)$",
                  r" net_asp_logic_access_check+\1 ([resguard_linux])", text, flags=re.M)
    text = re.sub(r" ip_finish_output2\+(0x[0-9a-f]+) \(\[kernel\.kallsyms\]\)$",
                  r" secmodel_check+\1 ([resguard_linux])", text, flags=re.M)
    blocks = text.split("\n\n")
    changed = 0
    for i, b in enumerate(blocks):
        lines = b.split("\n")
        if len(lines) < 3 or "[resguard_linux]" not in b:
            continue
        if " _raw_spin_unlock_irqrestore+" not in lines[1]:
            continue
        lines[1] = re.sub(r" _raw_spin_unlock_irqrestore\+(0x[0-9a-f]+) ",
                          r" native_queued_spin_lock_slowpath+\1 ", lines[1])
        lines[2] = re.sub(r" (\S+)\+(0x[0-9a-f]+) \(\[kernel\.kallsyms\]\)$",
                          r" asp_spin_lock+\2 ([resguard_linux])", lines[2])
        blocks[i] = "\n".join(lines)
        changed += 1
    assert changed == 10, changed
    return "\n\n".join(blocks)


def profile(name):
    if name == "suspect":
        return derived_profile()
    return open(os.path.join(PERF, "perf6.1-script-loopback-300.txt")).read()


# ---------------------------------------------------------------------------------------------
# The side


def build(name, out):
    s = SIDES[name]
    rng = random.Random(s["seed"])
    t0 = s["t0"]
    started = "%.9f" % t0
    day = K.ymd(t0)
    host = s["host"]
    nics = s["nics"]
    meta = {
        "collector_version": "0.2.0", "hostname": host, "user": "root", "uid": "0",
        "kernel": KERNEL, "machine": "aarch64", "started": started, "ended": "",
        "duration": str(DURATION), "interval": str(INTERVAL),
        "options": "--duration %d --interval %d --label %s --output /var/tmp" % (DURATION, INTERVAL, s["label"]),
        "complete": "1", "orig_lc_all": "", "orig_lang": "en_US.UTF-8", "orig_tz": "",
        "timeout_impl": "coreutils", "sysstat_version": "12.6.1", "label": s["label"],
        "pids": "", "jvms": "", "perf": "recorded", "perf_event_paranoid": "2",
        "kptr_restrict": "0", "live_histogram": "0", "keep_perf_data": "0", "zk": "",
        "max_bytes": "200000000", "max_artifact_bytes": "50000000", "max_log_bytes": "10000000",
        "max_thread_dump_bytes": "20000000", "max_perf_script_bytes": "50000000",
        "secrets_masked": "0",
    }
    b = K.Bundle(out, meta)
    b.say(t0, "rca collector 0.2.0 on %s as root; budgets via coreutils" % host)
    c = K.Clock(t0 + 0.021)

    # ---- identity
    uname = "Linux %s %s #1 SMP Fri Mar 24 10:04:47 CST 2023 aarch64 aarch64 aarch64 GNU/Linux\n" % (host, KERNEL)
    b.add("system/uname.txt", "uname", uname, "uname -a", *c.step(0.004))
    b.add("system/os-release", "os-release", OS_RELEASE, "cat /etc/os-release", *c.step(0.003))
    b.notfound("jvm/jps-lv.txt", "jps", "jps",
               "jps -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData -lv | awk -f mask.awk",
               c.step(0.006)[0])
    b.say(c.t, "targets: none; JVMs: none")
    b.say(c.t, "sampling window: %ds, %d x %ds" % (DURATION, DURATION // INTERVAL, INTERVAL))

    # ---- the window: per-CPU utilisation of every interval
    n = DURATION // INTERVAL
    w0 = c.t + 0.12  # samplers start
    times = [K.hms(w0 + INTERVAL * i) for i in range(n + 1)]
    hot = set(s["irq_cpus"])
    samples = []
    for i in range(n):
        rows = []
        for cpu in range(NCPU):
            if cpu in hot:
                r = dict(usr=K.jitter(rng, s["usr_hot"], 0.3), sys=K.jitter(rng, s["sys_hot"], 0.2),
                         soft=K.jitter(rng, s["soft_hot"], 0.006 if s["soft_hot"] > 90 else 0.12),
                         iowait=0.0, irq=0.0)
            else:
                r = dict(usr=K.jitter(rng, s["usr_rest"], 0.18), sys=K.jitter(rng, s["sys_rest"], 0.18),
                         soft=K.jitter(rng, s["soft_rest"], 0.5), iowait=rng.choice([0.0, 0.0, 0.2]),
                         irq=0.0)
            rows.append(K.close100(r))
        samples.append(rows)
    sampler_end = w0 + DURATION + 0.03
    for path, kind, text, argv, st_, en_ in samplers(name, s, rng, host, day, times, samples, w0, sampler_end):
        if text is None:
            b.skip(path, kind, argv[1], argv[0])
        else:
            b.add(path, kind, text, argv, st_, en_)

    # ---- counter snapshots at the start and (when the pacer ends) at the end of the window
    snap_t0 = w0 + 0.02
    s_end_t = t0 + DURATION + 0.62
    s["t_netdev"] = snap_t0 + 5 * 0.003  # the first /proc/net/dev read (6th of the snapshot)
    snaps = Snapshots(name, s, rng)
    snaps.take_start()
    snaps.advance(s_end_t - snap_t0, samples)
    c = K.Clock(snap_t0)
    for kind, path, argv, text in snaps.start_artifacts():
        b.add(path, kind, text, argv, *c.step(0.003 if kind != "nstat" else 0.006))

    # ---- host facts, while the window runs
    host_facts(b, c, name, s, rng)

    c = K.Clock(s_end_t)
    for kind, path, argv, text in snaps.end_artifacts():
        b.add(path, kind, text, argv, *c.step(0.003 if kind != "nstat" else 0.006))
    b.say(c.t, "sampling window closed")

    # ---- perf, after the window
    c = K.Clock(max(c.t, sampler_end + 1.2))
    script = profile(name)
    ps = perfreport.parse_script(script)
    b.add("perf/perf-report-comm-dso-symbol.txt", "perf-report",
          perfreport.report_no_children_comm_dso_sym(ps),
          "perf report --stdio --no-children --sort comm,dso,symbol -i perf.data", *c.step(6.41))
    b.add("perf/perf-report-dso.txt", "perf-report", perfreport.report_children_dso(ps),
          "perf report --stdio --sort dso -i perf.data", *c.step(5.87))
    b.add("perf/perf-script.txt", "perf-script", script,
          "perf script -i perf.data | head -c 50000000", *c.step(3.12))
    c.step(0.01)
    b.skip("sysstat/sa", "sadf-json", "not found: no sa file modified in the last 2 days in /var/log/sa",
           "sadf -j saDD")
    b.finish(c.t + 0.05)


# ---------------------------------------------------------------------------------------------


LO_B0, LO_P0, LO_BPS, LO_PPS = 92_811_004_317, 301_221_880, 41_000, 120


def links(s, el):
    """Interface counters `el` seconds after the first /proc/net/dev read: lo, each bond slave
    (its share of the bond's traffic) and bond0 (their sum), as (rx_b, rx_p, tx_b, tx_p)."""
    out = {"lo": (LO_B0 + int(el * LO_BPS), LO_P0 + int(el * LO_PPS)) * 2}
    tot = [0, 0, 0, 0]
    for p, nic in enumerate(s["nics"]):
        share = 0.503 if p == 0 else 0.497
        v = tuple(int(UPTIME * s[k] * 0.31 * share) + int(el * s[k] * share)
                  for k in ("rx_bps", "rx_pps", "tx_bps", "tx_pps"))
        out[nic] = v
        tot = [a + b for a, b in zip(tot, v)]
    out["bond0"] = tuple(tot)
    return out


class Snapshots:
    """Counters at the start and the end of the window, consistent with the model's rates."""

    def __init__(self, name, s, rng):
        self.name, self.s, self.rng = name, s, rng

    def take_start(self):
        s, rng = self.s, self.rng
        hot = set(s["irq_cpus"])
        # since-boot averages are lower than the load-test rates
        self.sirq0 = {}
        for n in K.SOFTIRQ_NAMES:
            self.sirq0[n] = [int(self.rate(n, cpu) * UPTIME * rng.uniform(0.25, 0.35)) for cpu in range(NCPU)]
        self.jiffies0 = []
        for cpu in range(NCPU):
            up = int(UPTIME * 100)
            busy = rng.uniform(0.06, 0.09)
            user = int(up * busy * 0.62)
            system = int(up * busy * 0.25)
            soft = int(up * (0.035 if cpu in hot else 0.004))
            self.jiffies0.append(dict(user=user, nice=int(up * 0.0001), system=system,
                                      idle=up - user - system - soft - 900, iowait=600, irq=0,
                                      softirq=soft, steal=0, guest=0, guest_nice=0))

    def rate(self, n, cpu):
        s = self.s
        hot = cpu in s["irq_cpus"]
        susp = self.name == "suspect"
        base = {
            "HI": 0.0,
            "TIMER": 96.0 if hot and susp else 178.0,
            "NET_TX": 14.0 if hot else 2.0,
            "NET_RX": s["net_rx_hot"] if hot else 3.0,
            "BLOCK": 6.0 if cpu % 24 == 3 else 0.0,
            "IRQ_POLL": 0.0,
            "TASKLET": 1.0 if cpu == 0 else 0.0,
            "SCHED": (18.0 if susp else 330.0) if hot else (260.0 if susp else 420.0),
            "HRTIMER": 0.0,
            "RCU": (41.0 if susp else 150.0) if hot else (120.0 if susp else 170.0),
        }[n]
        return base

    def advance(self, seconds, samples):
        rng = self.rng
        self.seconds = seconds
        self.sirq1 = {}
        for n in K.SOFTIRQ_NAMES:
            self.sirq1[n] = [v + int(round(self.rate(n, cpu) * seconds * rng.uniform(0.97, 1.03)))
                             for cpu, v in enumerate(self.sirq0[n])]
        # /proc/stat: jiffies over the window from the mpstat means
        self.jiffies1 = []
        for cpu in range(NCPU):
            mean = {k: sum(sm[cpu][k] for sm in samples) / len(samples) for k in K.MP_COLS}
            tot = int(round(seconds * 100))
            add = dict(user=int(tot * mean["usr"] / 100), nice=0, system=int(tot * mean["sys"] / 100),
                       iowait=int(tot * mean["iowait"] / 100), irq=0,
                       softirq=int(tot * mean["soft"] / 100), steal=0, guest=0, guest_nice=0)
            add["idle"] = tot - sum(add.values())
            j0 = self.jiffies0[cpu]
            self.jiffies1.append({k: j0[k] + add.get(k, 0) for k in j0})

    # ---- texts

    def softirqs(self, end):
        return K.softirqs_text(self.sirq1 if end else self.sirq0)

    def start_artifacts(self):
        return self._artifacts(False)

    def end_artifacts(self):
        return self._artifacts(True)

    def _artifacts(self, end):
        suf = "end" if end else "start"
        interrupts = self.interrupts(end)
        out = [
            ("softirqs", "proc/softirqs.%s" % suf, "cat /proc/softirqs", self.softirqs(end)),
            ("interrupts", "proc/interrupts.%s" % suf, "cat /proc/interrupts", interrupts[0]),
            ("proc-stat", "proc/stat.%s" % suf, "cat /proc/stat", self.proc_stat(end, interrupts[1])),
            ("proc-vmstat", "proc/vmstat.%s" % suf, "cat /proc/vmstat", self.proc_vmstat(end)),
            ("diskstats", "proc/diskstats" if not end else "proc/diskstats.end", "cat /proc/diskstats", self.diskstats(end)),
            ("net-dev", "proc/net/dev.%s" % suf, "cat /proc/net/dev", self.net_dev(end)),
            ("net-snmp", "proc/net/snmp.%s" % suf, "cat /proc/net/snmp", self.snmp(end)),
            ("softnet-stat", "proc/net/softnet_stat.%s" % suf, "cat /proc/net/softnet_stat", self.softnet(end)),
            ("netstat-s", "net/netstat-s.%s" % suf, "netstat -s", self.netstat_s(end)),
            ("nstat", "net/nstat-asz.%s" % suf, "nstat -asz", self.nstat(end)),
            ("ss", "net/ss-tanp.%s" % suf, "ss -tanp", ss_tanp(self.name, self.s, self.rng if not end else random.Random(7))),
        ]
        return out

    def interrupts(self, end):
        s, rng = self.s, random.Random(self.s["seed"] * 7)
        secs = self.seconds if end else 0.0
        rows = []
        # Per-CPU timer and PMU lines (GICv3 PPIs)
        timer = []
        for cpu in range(NCPU):
            base = int(UPTIME * rng.uniform(118, 131))
            rate = 250.0 if (cpu in s["irq_cpus"] and self.name == "suspect") else 208.0
            timer.append(base + int(rate * secs))
        rows.append((3, timer, "GICv3", 27, "Level", "arch_timer"))
        rows.append((5, [0] * NCPU, "GICv3", 23, "Level", "arm-pmu"))
        rows.append((6, [0] * NCPU, "GICv3", 31, "Level", "arm-spe"))
        one = lambda cpu, v: [v if i == cpu else 0 for i in range(NCPU)]  # noqa: E731
        rows.append((7, [0] * NCPU, "GICv3", 93, "Level", "PME"))
        rows.append((9, one(0, 2), "GICv3", 166, "Level", "ttyAMA0"))
        rows.append((10, [0] * NCPU, "GICv3", 80, "Edge", "ACPI:Ged"))
        rows.append((11, one(0, 1), "GICv3", 33, "Level", "sbsa-gwdt"))
        irq = 40
        # NVMe and SAS queues (four NVMe devices for data and clog, one SAS HBA for the OS)
        for d in range(4):
            rows.append((irq, one(0, 30 + d), "ITS-MSI", 134217728 + d * 524288, "Edge", "nvme%dq0" % d))
            irq += 1
            for q in range(1, 33):
                cpu = (q - 1) * 6 + d
                v = int(UPTIME * rng.uniform(2.0, 6.0)) + int(secs * rng.uniform(40, 90))
                rows.append((irq, one(cpu, v), "ITS-MSI", 134217728 + d * 524288 + q, "Edge", "nvme%dq%d" % (d, q)))
                irq += 1
        for q in range(16):
            v = int(UPTIME * rng.uniform(0.1, 0.3)) + int(secs * rng.uniform(0.5, 3))
            rows.append((irq, one(q * 12, v), "ITS-MSI", 104857600 + q, "Edge", "hisi_sas_v3_hw cq"))
            irq += 1
        # The NIC: two ports of one card
        irq = s["irq_base"]
        for p, nic in enumerate(self.s["nics"]):
            bus = s["bus"][p]
            hw0 = 71303168 + p * 1048576
            if s["driver"] == "hinic3":
                for a in range(4):
                    v = int(UPTIME * 0.02) + int(secs * 0.05)
                    rows.append((irq, one(0, v), "ITS-MSI", hw0 + a, "Edge", "hinic3_aeq%d@pci:%s" % (a, bus)))
                    irq += 1
                for q in range(s["queues"]):
                    cpu = s["irq_cpus"][q]
                    v = int(UPTIME * rng.uniform(180, 220)) + int(secs * s["nic_irq_per_queue"] * rng.uniform(0.96, 1.04))
                    rows.append((irq, one(cpu, v), "ITS-MSI", hw0 + 4 + q, "Edge", "%s_qp%d" % (nic, q)))
                    irq += 1
            else:
                for e, ename in enumerate(["mlx5_cmd_eq", "mlx5_async_eq", "mlx5_pages_eq"]):
                    v = int(UPTIME * 0.01) + int(secs * 0.03)
                    rows.append((irq, one(0, v), "ITS-MSI", hw0 + e, "Edge", "%s@pci:%s" % (ename, bus)))
                    irq += 1
                for q in range(s["queues"]):
                    cpu = s["irq_cpus"][q]
                    v = int(UPTIME * rng.uniform(500, 560)) + int(secs * s["nic_irq_per_queue"] * rng.uniform(0.96, 1.04))
                    rows.append((irq, one(cpu, v), "ITS-MSI", hw0 + 3 + q, "Edge", "mlx5_comp%d@pci:%s" % (q, bus)))
                    irq += 1
        # IPIs
        busy = lambda cpu: 1.0 if cpu not in s["irq_cpus"] or self.name != "suspect" else 0.08  # noqa: E731
        ipis = [
            ([int(UPTIME * rng.uniform(900, 1100) * busy(c)) + int(secs * 2300 * busy(c)) for c in range(NCPU)], "Rescheduling interrupts"),
            ([int(UPTIME * rng.uniform(20, 30)) + int(secs * 41) for c in range(NCPU)], "Function call interrupts"),
            ([0] * NCPU, "CPU stop interrupts"),
            ([0] * NCPU, "CPU stop (for crash dump) interrupts"),
            ([0] * NCPU, "Timer broadcast interrupts"),
            ([int(UPTIME * rng.uniform(0.5, 1.5)) + int(secs * 2) for c in range(NCPU)], "IRQ work interrupts"),
            ([0] * NCPU, "CPU wake-up interrupts"),
        ]
        total = sum(sum(r[1]) for r in rows)
        self.irq_rows = rows
        return K.interrupts_text(NCPU, rows, ipis), (total, max(r[0] for r in rows) + 1)

    def proc_stat(self, end, intr):
        j = self.jiffies1 if end else self.jiffies0
        sirq = self.sirq1 if end else self.sirq0
        totals = [sum(sirq[n]) for n in K.SOFTIRQ_NAMES]
        secs = self.seconds if end else 0
        ctxt = int(UPTIME * 120_000) + int(secs * self.s["cs"])
        return K.proc_stat_text(j, intr[0], ctxt, int(self.s["t0"] - UPTIME), 51_233_415 + int(secs * 38),
                                 9 if self.name == "suspect" else 31, 0, totals, intr[1])

    def proc_vmstat(self, end):
        t = open(os.path.join(K.FIX, "captured-a", "proc-vmstat-2.txt" if end else "proc-vmstat-1.txt")).read()
        return K.scale_counters(t, 9400.0, skip=("nr_", "drop_", "balloon"), minimum=1)

    def diskstats(self, end):
        secs = self.seconds if end else 0.0
        rows = []
        devs = [(259, 0, "nvme0n1", 5.0, 30.0), (259, 1, "nvme1n1", 5.0, 30.0),
                (259, 2, "nvme2n1", 5.0, 220.0), (259, 3, "nvme3n1", 5.0, 220.0),
                (8, 0, "sda", 0.2, 2.0), (8, 1, "sda1", 0.0, 0.0), (8, 2, "sda2", 0.0, 0.1),
                (8, 3, "sda3", 0.2, 1.9), (253, 0, "dm-0", 0.2, 1.9), (253, 1, "dm-1", 0.0, 0.0)]
        for ma, mi, name, r, w in devs:
            reads = int(UPTIME * r * 0.6 + secs * r)
            writes = int(UPTIME * w * 0.6 + secs * w)
            rows.append((ma, mi, name, [reads, 0, reads * 32, reads // 9, writes, writes // 7,
                                        writes * 48, writes // 30, 0, (reads + writes) // 40,
                                        (reads // 9 + writes // 30), 0, 0, 0, 0]))
        return K.diskstats_text(rows)

    def net_dev(self, end):
        s = self.s
        secs = self.seconds if end else 0.0
        ln = links(s, secs)
        row = lambda n, mc: (n, dict(bytes=ln[n][0], packets=ln[n][1], errs=0, drop=0, fifo=0, frame=0, multicast=mc),  # noqa: E731
                             dict(bytes=ln[n][2], packets=ln[n][3], errs=0, drop=0, fifo=0))
        rows = [row("lo", 0)] + [row(nic, 3_552_019 + int(secs * 0.4)) for nic in s["nics"]]
        rows.append(row("bond0", 7_104_038 + int(secs * 0.8)))
        return K.net_dev_text(rows)

    def counters(self):
        """TCP/IP counters consistent with /proc/net/dev (lo and bond0 carry the IP traffic)."""
        if not hasattr(self, "net"):
            s = self.s
            estab = ss_tanp(self.name, s, random.Random(7)).count("\nESTAB")
            ln = links(s, 0.0)
            self.net = K.NetCounters(
                UPTIME,
                rx_p=ln["lo"][1] + ln["bond0"][1], rx_rate=LO_PPS + s["rx_pps"],
                tx_p=ln["lo"][3] + ln["bond0"][3], tx_rate=LO_PPS + s["tx_pps"],
                rx_b=ln["lo"][0] + ln["bond0"][0], rx_brate=LO_BPS + s["rx_bps"],
                tx_b=ln["lo"][2] + ln["bond0"][2], tx_brate=LO_BPS + s["tx_bps"],
                estab=estab, factor=2617.3 if self.name == "baseline" else 2481.9)
        return self.net

    # read 3, 9 and 12 ms after /proc/net/dev (the order of _artifacts)
    def snmp(self, end):
        return self.counters().snmp((self.seconds if end else 0.0) + 0.003)

    def softnet(self, end):
        s = self.s
        secs = self.seconds if end else 0.0
        rows = []
        for cpu in range(NCPU):
            hot = cpu in s["irq_cpus"]
            processed = int(UPTIME * (s["rx_pps"] / max(1, len(s["irq_cpus"]))) * 0.3) if hot else int(UPTIME * 2.1)
            processed += int(secs * (s["rx_pps"] / len(s["irq_cpus"]) if hot else 2.0))
            squeeze = 0
            if hot and self.name == "suspect":
                squeeze = 1_204_551 + cpu * 37 + int(secs * 41.0)
            elif hot:
                squeeze = 3_911 + cpu + int(secs * 0.05)
            rows.append([processed, 0, squeeze, 0, 0, 0, 0, 0, 0, 0, 0])
        return K.softnet_text(rows)

    def netstat_s(self, end):
        return self.counters().netstat_s((self.seconds if end else 0.0) + 0.009)

    def nstat(self, end):
        return self.counters().nstat((self.seconds if end else 0.0) + 0.012)


# ---------------------------------------------------------------------------------------------


def ss_tanp(name, s, rng):
    """observer's SQL port 2881 (800 sysbench threads on four clients) and RPC port 2882 (the
    other zones' observers), plus sshd and the agents. Same on both sides."""
    rows = [
        ("LISTEN", "0", "128", "0.0.0.0", "22", "0.0.0.0", "*", 'users:(("sshd",pid=2201,fd=3))'),
        ("LISTEN", "0", "2048", "0.0.0.0", "2881", "0.0.0.0", "*", 'users:(("observer",pid=31552,fd=88))'),
        ("LISTEN", "0", "2048", "0.0.0.0", "2882", "0.0.0.0", "*", 'users:(("observer",pid=31552,fd=86))'),
        ("LISTEN", "0", "128", "127.0.0.1", "323", "0.0.0.0", "*", ""),
    ]
    r2 = random.Random(s["seed"] * 11)
    fd = 400
    for i in range(800):
        cli = CLIENTS[i % 4]
        rows.append(("ESTAB", "0", str(r2.choice([0, 0, 0, 0, 0, 31, 62])), s["ip"], "2881", cli,
                     str(41000 + i // 4 * 3 + i % 4), 'users:(("observer",pid=31552,fd=%d))' % fd))
        fd += 1
    for j, peer in enumerate(side_peers(name)):
        for k in range(24):
            rows.append(("ESTAB", "0", "0", s["ip"], str(52300 + j * 100 + k), peer, "2882",
                         'users:(("observer",pid=31552,fd=%d))' % fd))
            fd += 1
            rows.append(("ESTAB", "0", "0", s["ip"], "2882", peer, str(49100 + j * 100 + k),
                         'users:(("observer",pid=31552,fd=%d))' % fd))
            fd += 1
    rows.append(("ESTAB", "0", "36", s["ip"], "22", "198.51.100.200", "50122", 'users:(("sshd",pid=940211,fd=4),("sshd",pid=940198,fd=4))'))
    if name == "suspect":
        rows.append(("ESTAB", "0", "0", s["ip"], "48822", "198.51.100.250", "8443", 'users:(("resguardd",pid=2291437,fd=17))'))
    return K.ss_table(rows)


def samplers(name, s, rng, host, day, times, samples, t_a, t_b):
    """The window's samplers: (path, kind, text, argv, start, end)."""
    head = K.banner(KERNEL, host, day, "aarch64", NCPU)
    n = len(samples)
    out = []
    # iostat
    stamps = ["%sT%s+0800" % (day, times[0])] + ["%sT%s+0800" % (day, t) for t in times[1:]]
    cpu_rows, dev_rows = [], []
    for i in range(n + 1):
        src = samples[max(0, i - 1)]
        a = K.mean_rows(src)
        cpu_rows.append(dict(user=a["usr"], nice=0.0, system=a["sys"] + a["soft"] + a["irq"],
                             iowait=a["iowait"], steal=0.0, idle=a["idle"]))
        devs = []
        for d in ["nvme0n1", "nvme1n1", "nvme2n1", "nvme3n1", "sda", "dm-0", "dm-1"]:
            v = {k: 0.0 for k in K.IOSTAT_COLS}
            if d.startswith("nvme"):
                v["r/s"] = rng.uniform(2, 9)
                v["rkB/s"] = v["r/s"] * 16
                v["r_await"] = rng.uniform(0.08, 0.15)
                v["rareq-sz"] = 16.0
                v["w/s"] = rng.uniform(180, 260) if d in ("nvme2n1", "nvme3n1") else rng.uniform(20, 40)
                v["wkB/s"] = v["w/s"] * rng.uniform(18, 30)
                v["w_await"] = rng.uniform(0.02, 0.05)
                v["wareq-sz"] = v["wkB/s"] / v["w/s"]
                v["f/s"] = v["w/s"] * 0.1
                v["f_await"] = 0.08
                v["aqu-sz"] = 0.01
                v["%util"] = rng.uniform(0.8, 3.0)
            elif d == "sda":
                v["w/s"] = rng.uniform(1, 3)
                v["wkB/s"] = v["w/s"] * 8
                v["w_await"] = rng.uniform(0.2, 0.6)
                v["wareq-sz"] = 8.0
                v["%util"] = rng.uniform(0.05, 0.3)
            devs.append((d, v))
        dev_rows.append(devs)
    argv_n = DURATION // INTERVAL
    out.append(("sysstat/iostat-x.txt", "iostat", K.iostat_text(head, stamps, cpu_rows, dev_rows),
                "iostat -x -t %d %d" % (INTERVAL, argv_n + 1), t_a, t_b))
    out.append(("sysstat/iostat-x.json", "iostat",
                K.iostat_json(host, KERNEL, "aarch64", NCPU, day, stamps, cpu_rows, dev_rows),
                "iostat -o JSON -x %d %d" % (INTERVAL, argv_n + 1), t_a, t_b))
    out.append(("sysstat/mpstat-P-ALL.txt", "mpstat", K.mpstat_text(head, times, samples),
                "mpstat -P ALL %d %d" % (INTERVAL, argv_n), t_a + 0.001, t_b))
    out.append(("sysstat/mpstat-P-ALL.json", "mpstat",
                K.mpstat_json(host, KERNEL, "aarch64", NCPU, day, times, samples),
                "mpstat -o JSON -P ALL %d %d" % (INTERVAL, argv_n), t_a + 0.002, t_b))
    # vmstat -t
    vm = []
    for i in range(n + 1):
        a = K.mean_rows(samples[max(0, i - 1)])
        running = int(sum(1 for r in samples[max(0, i - 1)] if r["idle"] < 50)) + rng.randint(2, 9)
        vm.append(dict(r=running, b=0, swpd=0, free=int(MEM_KB * 0.21) + rng.randint(0, 90000), buff=2_114_980,
                       cache=int(MEM_KB * 0.06), si=0, so=0, bi=rng.randint(40, 120), bo=rng.randint(9000, 14000),
                       **{"in": int(s["cs"] * 0.62) if i else 21000, "cs": s["cs"] + rng.randint(-4000, 4000) if i else 110000},
                       us=int(round(a["usr"])), sy=int(round(a["sys"] + a["soft"])), id=int(round(a["idle"])),
                       wa=0, st=0, ts="%s %s" % (day, times[max(0, i)] if i else times[0])))
    out.append(("sysstat/vmstat.txt", "vmstat", K.vmstat_text(vm), "vmstat -t %d %d" % (INTERVAL, argv_n + 1), t_a + 0.003, t_b))
    out.append(("sysstat/pidstat-udw.txt", "pidstat", pidstat_udw(name, s, rng, head, times, samples),
                "pidstat -u -d -w %d %d" % (INTERVAL, argv_n), t_a + 0.004, t_b))
    out.append(("sysstat/pidstat-t.txt", "pidstat", None,
                ("pidstat -t -p PIDS %d %d" % (INTERVAL, argv_n), "skipped: no target process (no JVM found, no --pid given)"), 0, 0))
    # sar -n DEV / EDEV
    ifaces = ["lo"] + s["nics"] + ["bond0"]
    dev, edev = [], []
    for i in range(n):
        r, e = {}, {}
        for ifc in ifaces:
            if ifc == "lo":
                vals = dict(rx=120.0, tx=120.0, rkb=40.0, tkb=40.0, util=0.0)
            else:
                share = 1.0 if ifc == "bond0" else (0.503 if ifc == s["nics"][0] else 0.497)
                f = rng.uniform(0.98, 1.02)
                rkb = s["rx_bps"] * share * f / 1024
                tkb = s["tx_bps"] * share * f / 1024
                speed = 50000 if ifc == "bond0" else 25000
                vals = dict(rx=s["rx_pps"] * share * f, tx=s["tx_pps"] * share * f, rkb=rkb, tkb=tkb,
                            util=max(rkb, tkb) * 8 / 1000 / speed * 100)
            r[ifc] = {"rxpck/s": vals["rx"], "txpck/s": vals["tx"], "rxkB/s": vals["rkb"], "txkB/s": vals["tkb"],
                      "rxcmp/s": 0.0, "txcmp/s": 0.0, "rxmcst/s": 0.0 if ifc == "lo" else 0.2, "%ifutil": vals["util"]}
            e[ifc] = {k: 0.0 for k in ["rxerr/s", "txerr/s", "coll/s", "rxdrop/s", "txdrop/s", "txcarr/s", "rxfram/s", "rxfifo/s", "txfifo/s"]}
        dev.append(r)
        edev.append(e)
    out.append(("sysstat/sar-n-DEV.txt", "sar", K.sar_dev_text(head, times, ifaces, dev), "sar -n DEV %d %d" % (INTERVAL, argv_n), t_a + 0.005, t_b))
    out.append(("sysstat/sar-n-EDEV.txt", "sar", K.sar_edev_text(head, times, ifaces, edev), "sar -n EDEV %d %d" % (INTERVAL, argv_n), t_a + 0.005, t_b))
    # the sample count of the profile that is shipped (see README: the profile is a real
    # 300-sample capture of another machine, not 192 CPUs x 99 Hz x 30 s)
    log = ("[ perf record: Woken up 1 times to write data ]\n"
           "[ perf record: Captured and wrote 0.268 MB /var/tmp/rca-collector.%s/perf.data (%d samples) ]\n"
           % ("Qm3xT1" if name == "suspect" else "7bKcW2", 300))
    out.append(("perf/perf-record.log", "perf-record", log,
                "perf record -F 99 -a -g -N -o perf.data -- sleep %d" % DURATION, t_a + 0.006, t_b + 0.93))
    return out


def pidstat_udw(name, s, rng, head, times, samples):
    """`pidstat -u -d -w`: observer, ksoftirqd of the NIC's CPUs, the agent (suspect)."""
    n = len(samples)
    obs_cpu = sum(K.mean_rows(samples[0])[k] for k in ("usr", "sys")) * NCPU
    procs = [("0", "1", "systemd", 0.0, 0.2, 0)]
    hot = s["irq_cpus"]
    for cpu in hot[:24]:
        pid = 9 if cpu == 0 else 12 + cpu * 4 + 2
        sysp = 38.0 if name == "suspect" else 1.2
        procs.append(("0", str(pid), "ksoftirqd/%d" % cpu, 0.0, sysp, cpu))
    procs.append(("1001", "31552", "observer", obs_cpu * 0.7, obs_cpu * 0.3, 57))
    procs.append(("0", "2201", "sshd", 0.0, 0.0, 3))
    if name == "suspect":
        procs.append(("0", "2291437", "resguardd", 0.4, 0.6, 101))
    out = [head]
    for i in range(n):
        out.append("%-8s      UID       PID    %%usr %%system  %%guest   %%wait    %%CPU   CPU  Command" % times[i])
        for uid, pid, comm, usr, sysp, cpu in procs:
            if usr + sysp < 0.5 and comm != "systemd":
                continue
            u = K.jitter(rng, usr, 0.05)
            y = K.jitter(rng, sysp, 0.05)
            out.append("%-8s %8s %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5d  %s" % (times[i + 1], uid, pid, u, y, 0, 0, u + y, cpu, comm))
        out.append("")
        out.append("%-8s      UID       PID   kB_rd/s   kB_wr/s kB_ccwr/s iodelay  Command" % times[i])
        out.append("%-8s %8s %9s %9.2f %9.2f %9.2f %7d  %s" % (times[i + 1], "1001", "31552", 0.0, K.jitter(rng, 36000, 0.1), 0.0, 0, "observer"))
        out.append("")
        out.append("%-8s      UID       PID   cswch/s nvcswch/s  Command" % times[i])
        for uid, pid, comm, usr, sysp, cpu in procs:
            cs = 260.0 if comm.startswith("ksoftirqd") else (4.0 if comm != "observer" else 0.0)
            if comm == "observer":
                continue
            out.append("%-8s %8s %9s %9.2f %9.2f  %s" % (times[i + 1], uid, pid, K.jitter(rng, cs, 0.1), K.jitter(rng, cs * 0.2, 0.1), comm))
        out.append("")
    out.append("Average:      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command")
    for uid, pid, comm, usr, sysp, cpu in procs:
        if usr + sysp < 0.5 and comm != "systemd":
            continue
        out.append("Average: %8s %9s %7.2f %7.2f %7.2f %7.2f %7.2f %5s  %s" % (uid, pid, usr, sysp, 0, 0, usr + sysp, "-", comm))
    out.append("")
    out.append("Average:      UID       PID   kB_rd/s   kB_wr/s kB_ccwr/s iodelay  Command")
    out.append("Average: %8s %9s %9.2f %9.2f %9.2f %7d  %s" % ("1001", "31552", 0.0, 36000.0, 0.0, 0, "observer"))
    out.append("")
    out.append("Average:      UID       PID   cswch/s nvcswch/s  Command")
    for uid, pid, comm, usr, sysp, cpu in procs:
        if comm == "observer":
            continue
        cs = 260.0 if comm.startswith("ksoftirqd") else 4.0
        out.append("Average: %8s %9s %9.2f %9.2f  %s" % (uid, pid, cs, cs * 0.2, comm))
    return "\n".join(out) + "\n"


def host_facts(b, c, name, s, rng):
    """collect_kernel, collect_cpu, collect_mem, collect_net, collect_time, collect_processes."""
    b.add("kernel/cmdline", "cmdline", CMDLINE, "cat /proc/cmdline", *c.step(0.003))
    mods = list(MODULES_COMMON) + NIC_MODULES[s["driver"]]
    if s["module"]:
        mods = THIRD_PARTY + mods
    addr = 0xFFFF000001F80000
    pm, ls = [], ["Module                  Size  Used by"]
    for m, size, refc, used in mods:
        taint = " (OE)" if m in ("resguard_linux", "secmodel_linux") else ""
        pm.append("%s %d %d %s Live 0x%016x%s" % (m, size, refc, used, addr, taint))
        ls.append("%-19s %8d  %d %s" % (m, size, refc, used.rstrip(",").replace("-", "") if used != "-" else ""))
        addr -= ((size + 0xFFFF) // 0x10000) * 0x10000
    b.add("proc/modules", "proc-modules", "\n".join(pm) + "\n", "cat /proc/modules", *c.step(0.002))
    b.add("kernel/lsmod.txt", "lsmod", "\n".join(l.rstrip() for l in ls) + "\n", "lsmod", *c.step(0.01))
    b.add("kernel/tainted", "tainted", "12288\n" if s["module"] else "0\n", "cat /proc/sys/kernel/tainted", *c.step(0.002))
    if s["module"]:
        b.add("kernel/modinfo-tainted.txt", "modinfo", MODINFO, "modinfo resguard_linux secmodel_linux", *c.step(0.02))
    else:
        c.step(0.001)
        b.skip("kernel/modinfo-tainted.txt", "modinfo", "skipped: no module in /proc/modules carries a taint flag", "modinfo MODULES")
    b.add("kernel/dmesg.txt", "dmesg", dmesg(name, s), "dmesg | tail -n 2000", *c.step(0.03))
    b.add("kernel/sysctl-a.txt", "sysctl", sysctl(name, s), "sysctl -a", *c.step(0.21))
    b.add("cpu/lscpu.txt", "lscpu", LSCPU, "lscpu", *c.step(0.02))
    b.add("cpu/numactl-H.txt", "numactl", numactl(), "numactl -H", *c.step(0.01))
    b.add("cpu/cpuinfo-head.txt", "cpuinfo", cpuinfo_head(), "head -n 64 /proc/cpuinfo", *c.step(0.002))
    st, en = c.step(0.01)
    b.add("system/detect-virt.txt", "detect-virt", "none\n", "systemd-detect-virt", st, en, exit=1, note="exit 1: none")
    b.add("system/dmidecode-t-system.txt", "dmidecode", dmidecode(name), "dmidecode -t system", *c.step(0.05))
    b.add("system/lspci-k.txt", "lspci", lspci(s), "lspci -k", *c.step(0.09))
    meminfo, free, top_mem = mem_texts(rng)
    b.add("mem/meminfo", "meminfo", meminfo, "cat /proc/meminfo", *c.step(0.002))
    b.add("mem/free-m.txt", "free", free, "free -m", *c.step(0.004))
    b.add("mem/swaps", "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", "cat /proc/swaps", *c.step(0.002))
    b.add("mem/swapon-show.txt", "swapon", "", "swapon --show", *c.step(0.003))
    b.add("mem/thp.txt", "thp", "/sys/kernel/mm/transparent_hugepage/enabled:always madvise [never]\n"
          "/sys/kernel/mm/transparent_hugepage/defrag:always defer defer+madvise madvise [never]\n",
          "grep -H . /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag", *c.step(0.003))
    b.notfound("mem/vmware-balloon.txt", "balloon", "vmware-toolbox-cmd", "vmware-toolbox-cmd stat balloon", c.step(0.002)[0])
    # network
    b.add("net/ip-s-link.txt", "ip-link", ip_s_link(s, c.t - s["t_netdev"]), "ip -s link", *c.step(0.01))
    b.add("net/ip-addr.txt", "ip-addr", ip_addr(s), "ip addr", *c.step(0.01))
    for p, nic in enumerate(s["nics"]):
        for opt in "ilkgcS":
            b.add("net/ethtool/%s/ethtool-%s.txt" % (nic, opt), "ethtool-%s" % opt, ethtool(s, p, opt, c.t - s["t_netdev"]),
                  "ethtool -%s %s" % (opt, nic), *c.step(0.006))
    b.add("net/bonding/bond0", "bonding", bonding(s), "cat /proc/net/bonding/bond0", *c.step(0.002))
    b.add("net/irq-affinity.tsv", "irq-affinity", irq_affinity(s), "awk -f irq.awk /proc/irq/*/*/", *c.step(0.05))
    b.add("net/ss-tulpn.txt", "ss", ss_tulpn(name), "ss -tulpn", *c.step(0.02))
    # time
    b.add("time/chronyc-tracking.txt", "chronyc-tracking", chrony_tracking(name), "chronyc -n tracking", *c.step(0.004))
    b.add("time/chronyc-sources.txt", "chronyc-sources", chrony_sources(name), "chronyc -n sources -v", *c.step(0.004))
    b.notfound("time/ntpq-pn.txt", "ntpq", "ntpq", "ntpq -pn", c.step(0.002)[0])
    b.add("time/timedatectl.txt", "timedatectl", timedatectl(s), "timedatectl", *c.step(0.03))
    b.notfound("time/vmware-timesync.txt", "vmware-timesync", "vmware-toolbox-cmd", "vmware-toolbox-cmd timesync status", c.step(0.002)[0])
    # processes
    b.add("system/ps.txt", "ps", ps_text(name, s),
          "ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args | awk -f mask.awk", *c.step(0.12))
    b.add("system/top.txt", "top", top_text(name, s, top_mem), "top -b -n 1", *c.step(0.4))
    b.add("system/ulimit-a.txt", "ulimit", K.ulimit_bash(2_088_097, nofile=655350, nproc=655350), "bash -c ulimit -a", *c.step(0.004))


# ---- host texts ------------------------------------------------------------------------------


def sysctl(name, s):
    t = K.fixture("sysctl/hotsos__sysctl-a-ubuntu2004-k8s.txt")
    out = []
    for line in t.split("\n"):
        if line.startswith("abi."):
            continue
        k = line.split(" = ")[0]
        if k == "kernel.hostname":
            line = "kernel.hostname = %s" % s["host"]
        elif k == "kernel.tainted":
            line = "kernel.tainted = %d" % (12288 if s["module"] else 0)
        elif k == "kernel.domainname":
            line = "kernel.domainname = (none)"
        elif k == "net.core.somaxconn":
            line = "net.core.somaxconn = 2048"
        elif k == "vm.swappiness":
            line = "vm.swappiness = 0"
        elif k in ("net.core.netdev_max_backlog",):
            line = "net.core.netdev_max_backlog = 10000"
        out.append(line)
    return "\n".join(out)


def numactl():
    d = [[10, 12, 20, 22, 24, 25, 27, 28], [12, 10, 22, 24, 25, 27, 28, 30],
         [20, 22, 10, 12, 27, 28, 30, 32], [22, 24, 12, 10, 28, 30, 32, 33],
         [24, 25, 27, 28, 10, 12, 20, 22], [25, 27, 28, 30, 12, 10, 22, 24],
         [27, 28, 30, 32, 20, 22, 10, 12], [28, 30, 32, 33, 22, 24, 12, 10]]
    out = ["available: 8 nodes (0-7)"]
    free = [52011, 63120, 61902, 64210, 63877, 62001, 63550, 64002]
    for nd in range(8):
        out.append("node %d cpus: %s" % (nd, " ".join(str(c) for c in range(nd * 24, nd * 24 + 24))))
        out.append("node %d size: %d MB" % (nd, 65403 if nd else 64890))
        out.append("node %d free: %d MB" % (nd, free[nd]))
    out.append("node distances:")
    out.append("node   " + "".join("%d   " % i for i in range(8)))
    for i in range(8):
        out.append("  %d:  " % i + "  ".join("%2d" % v for v in d[i]) + " ")
    return "\n".join(out) + "\n"


def cpuinfo_head():
    block = ("processor\t: {n}\nBogoMIPS\t: 200.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 "
             "atomics fphp asimdhp cpuid asimdrdm jscvt fcma dcpop asimddp asimdfhm ssbs\nCPU implementer\t: 0x48\n"
             "CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd01\nCPU revision\t: 0\n\n")
    text = "".join(block.format(n=i) for i in range(8))
    return "\n".join(text.split("\n")[:64]) + "\n"


def dmidecode(name):
    serial = "2102313NBK10M8000121" if name == "suspect" else "2102313NBK10M8000187"
    uuid = "f3c2a6f0-6d1a-11ec-8000-0812ae5c2100" if name == "suspect" else "f3c2a6f0-6d1a-11ec-8000-0812ae5c3100"
    return ("# dmidecode 3.2\nGetting SMBIOS data from sysfs.\nSMBIOS 3.2.0 present.\n\n"
            "Handle 0x0001, DMI type 1, 27 bytes\nSystem Information\n\tManufacturer: Huawei\n"
            "\tProduct Name: TaiShan 200 (Model 2480)\n\tVersion: To be filled by O.E.M.\n"
            "\tSerial Number: %s\n\tUUID: %s\n\tWake-up Type: Power Switch\n"
            "\tSKU Number: To be filled by O.E.M.\n\tFamily: To be filled by O.E.M.\n\n"
            "Handle 0x0026, DMI type 12, 5 bytes\nSystem Configuration Options\n\tOption 1: To Be Filled By O.E.M.\n\n"
            "Handle 0x0027, DMI type 32, 20 bytes\nSystem Boot Information\n\tStatus: No errors detected\n\n") % (serial, uuid)


def lspci(s):
    if s["driver"] == "hinic3":
        nic = ("03:00.0 Ethernet controller: Huawei Technologies Co., Ltd. Device 0222 (rev 45)\n"
               "\tSubsystem: Huawei Technologies Co., Ltd. Device 0051\n\tKernel driver in use: hinic3\n\tKernel modules: hinic3\n"
               "03:00.1 Ethernet controller: Huawei Technologies Co., Ltd. Device 0222 (rev 45)\n"
               "\tSubsystem: Huawei Technologies Co., Ltd. Device 0051\n\tKernel driver in use: hinic3\n\tKernel modules: hinic3\n")
    else:
        nic = ("81:00.0 Ethernet controller: Mellanox Technologies MT27710 Family [ConnectX-4 Lx]\n"
               "\tSubsystem: Huawei Technologies Co., Ltd. Device 0200\n\tKernel driver in use: mlx5_core\n\tKernel modules: mlx5_core\n"
               "81:00.1 Ethernet controller: Mellanox Technologies MT27710 Family [ConnectX-4 Lx]\n"
               "\tSubsystem: Huawei Technologies Co., Ltd. Device 0200\n\tKernel driver in use: mlx5_core\n\tKernel modules: mlx5_core\n")
    base = ("00:00.0 PCI bridge: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 (rev 21)\n"
            "\tKernel driver in use: pcieport\n"
            "74:02.0 Serial Attached SCSI controller: Huawei Technologies Co., Ltd. HiSilicon SAS 3.0 HBA (rev 21)\n"
            "\tSubsystem: Huawei Technologies Co., Ltd. Device 0000\n\tKernel driver in use: hisi_sas_v3_hw\n\tKernel modules: hisi_sas_v3_hw\n"
            "74:03.0 SATA controller: Huawei Technologies Co., Ltd. HiSilicon AHCI HBA (rev 21)\n"
            "\tSubsystem: Huawei Technologies Co., Ltd. HiSilicon AHCI HBA\n\tKernel driver in use: ahci\n")
    nvme = "".join("%02x:00.0 Non-Volatile memory controller: Huawei Technologies Co., Ltd. ES3000 V5 NVMe PCIe SSD (rev 45)\n"
                   "\tSubsystem: Huawei Technologies Co., Ltd. NVMe SSD ES3600C V5 3200GB HHHL AIC\n\tKernel driver in use: nvme\n\tKernel modules: nvme\n"
                   % b for b in (0x04, 0x05, 0x84, 0x85))
    return base + nic + nvme


def mem_texts(rng):
    total = MEM_KB
    free = int(total * 0.212)
    buffers = 2_114_980
    cached = int(total * 0.061)
    anon = total - free - buffers - cached - 9_800_000
    rows = [
        ("MemTotal", total), ("MemFree", free), ("MemAvailable", free + cached + buffers - 900_000),
        ("Buffers", buffers), ("Cached", cached), ("SwapCached", 0), ("Active", anon + int(cached * 0.4)),
        ("Inactive", int(cached * 0.6)), ("Active(anon)", anon), ("Inactive(anon)", 318_204),
        ("Active(file)", int(cached * 0.4)), ("Inactive(file)", int(cached * 0.6) - 318_204),
        ("Unevictable", 0), ("Mlocked", 0), ("SwapTotal", 0), ("SwapFree", 0), ("Dirty", 5_304),
        ("Writeback", 0), ("AnonPages", anon - 2_000_000), ("Mapped", 1_204_100), ("Shmem", 411_020),
        ("KReclaimable", 0), ("Slab", 7_920_416), ("SReclaimable", 2_104_880), ("SUnreclaim", 5_815_536),
        ("KernelStack", 101_312), ("PageTables", 1_122_904), ("NFS_Unstable", 0), ("Bounce", 0),
        ("WritebackTmp", 0), ("CommitLimit", total // 2), ("Committed_AS", int(total * 0.74)),
        ("VmallocTotal", 133_009_637_312), ("VmallocUsed", 0), ("VmallocChunk", 0), ("Percpu", 201_728),
        ("HardwareCorrupted", 0), ("AnonHugePages", 0), ("ShmemHugePages", 0), ("ShmemPmdMapped", 0),
    ]
    lines = []
    for k, v in rows:
        if k == "KReclaimable":
            continue
        lines.append("%-15s %8d kB" % (k + ":", v))
    lines += ["HugePages_Total:       0", "HugePages_Free:        0", "HugePages_Rsvd:        0",
              "HugePages_Surp:        0", "Hugepagesize:       2048 kB", "Hugetlb:               0 kB"]
    meminfo = "\n".join(lines) + "\n"
    free_m, top_mem = K.free_and_top_mem(total, free, buffers, cached, 2_104_880, 411_020,
                                         free + cached + buffers - 900_000)
    return meminfo, free_m, top_mem


def ip_s_link(s, el):
    ln = links(s, el)
    stats = lambda n, mc: ["    RX: bytes  packets  errors  dropped overrun mcast   ",  # noqa: E731
                           "    %-11d %-8d 0       0       0       %-7d " % (ln[n][0], ln[n][1], mc),
                           "    TX: bytes  packets  errors  dropped carrier collsns ",
                           "    %-11d %-8d 0       0       0       0       " % (ln[n][2], ln[n][3])]
    out = ["1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000",
           "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00"] + stats("lo", 0)
    mac = s["mac"] + "0"
    for p, nic in enumerate(s["nics"]):
        out += ["%d: %s: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 state UP mode DEFAULT group default qlen 1000" % (p + 2, nic),
                "    link/ether %s brd ff:ff:ff:ff:ff:ff" % mac] + stats(nic, 3_552_019)
    out += ["4: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000",
            "    link/ether %s brd ff:ff:ff:ff:ff:ff" % mac] + stats("bond0", 7_104_038)
    return "\n".join(out) + "\n"


def ip_addr(s):
    mac = s["mac"] + "0"
    out = ["1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000",
           "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00",
           "    inet 127.0.0.1/8 scope host lo", "       valid_lft forever preferred_lft forever",
           "    inet6 ::1/128 scope host ", "       valid_lft forever preferred_lft forever"]
    for p, nic in enumerate(s["nics"]):
        out += ["%d: %s: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 state UP group default qlen 1000" % (p + 2, nic),
                "    link/ether %s brd ff:ff:ff:ff:ff:ff" % mac]
    out += ["4: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default qlen 1000",
            "    link/ether %s brd ff:ff:ff:ff:ff:ff" % mac,
            "    inet %s/24 brd 192.0.2.255 scope global noprefixroute bond0" % s["ip"],
            "       valid_lft forever preferred_lft forever"]
    return "\n".join(out) + "\n"


def ethtool(s, p, opt, el=0.0):
    nic = s["nics"][p]
    if opt == "i":
        return ("driver: %s\nversion: %s\nfirmware-version: %s\nexpansion-rom-version: \nbus-info: %s\n"
                "supports-statistics: yes\nsupports-test: yes\nsupports-eeprom-access: no\n"
                "supports-register-dump: no\nsupports-priv-flags: yes\n"
                % (s["driver"], s["drv_version"], s["firmware"], s["bus"][p]))
    if opt == "l":
        return ("Channel parameters for %s:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\n"
                "Combined:\t%d\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t%d\n"
                % (nic, s["queues_max"], s["queues"]))
    if opt == "g":
        return ("Ring parameters for %s:\nPre-set maximums:\nRX:\t\t%d\nRX Mini:\tn/a\nRX Jumbo:\tn/a\nTX:\t\t%d\n"
                "Current hardware settings:\nRX:\t\t%d\nRX Mini:\tn/a\nRX Jumbo:\tn/a\nTX:\t\t%d\n"
                "RX Buf Len:\t\tn/a\nCQE Size:\t\tn/a\nTX Push:\toff\nTCP data split:\tn/a\n"
                % (nic, s["rx_ring"][1], s["tx_ring"][1], s["rx_ring"][0], s["tx_ring"][0]))
    if opt == "k":
        return "Features for %s:\n%s" % (nic, ETHTOOL_K)
    if opt == "c":
        adaptive = "on" if s["driver"] == "mlx5_core" else "off"
        return ("Coalesce parameters for %s:\nAdaptive RX: %s  TX: %s\nstats-block-usecs: 0\nsample-interval: 0\n"
                "pkt-rate-low: 0\npkt-rate-high: 0\n\nrx-usecs: %d\nrx-frames: %d\nrx-usecs-irq: 0\nrx-frames-irq: 0\n\n"
                "tx-usecs: %d\ntx-frames: %d\ntx-usecs-irq: 0\ntx-frames-irq: 0\n\nrx-usecs-low: 0\nrx-frame-low: 0\n"
                "tx-usecs-low: 0\ntx-frame-low: 0\n\nrx-usecs-high: 0\nrx-frame-high: 0\ntx-usecs-high: 0\ntx-frame-high: 0\n\n"
                % (nic, adaptive, adaptive, 8 if adaptive == "on" else 25, 128 if adaptive == "on" else 64,
                   8 if adaptive == "on" else 25, 128 if adaptive == "on" else 64))
    # -S: the port counters, then per queue
    rxb, rxp, txb, txp = links(s, el)[nic]
    out = ["NIC statistics:"]
    if s["driver"] == "mlx5_core":
        out += ["     rx_packets: %d" % rxp, "     rx_bytes: %d" % rxb, "     tx_packets: %d" % txp,
                "     tx_bytes: %d" % txb, "     rx_csum_unnecessary: %d" % rxp, "     rx_out_of_buffer: 0",
                "     rx_discards_phy: 0", "     tx_discards_phy: 0", "     rx_buff_alloc_err: 0"]
        for q in range(s["queues"]):
            out += ["     rx%d_packets: %d" % (q, rxp // s["queues"]), "     rx%d_bytes: %d" % (q, rxb // s["queues"])]
        for q in range(s["queues"]):
            out += ["     tx%d_packets: %d" % (q, txp // s["queues"]), "     tx%d_bytes: %d" % (q, txb // s["queues"])]
    else:
        out += ["     rx_packets: %d" % rxp, "     tx_packets: %d" % txp, "     rx_bytes: %d" % rxb,
                "     tx_bytes: %d" % txb, "     rx_errors: 0", "     tx_errors: 0", "     rx_dropped: 0",
                "     tx_dropped: 0", "     rx_fifo_errors: 0"]
        for q in range(s["queues"]):
            out += ["     rxq%d_packets: %d" % (q, rxp // s["queues"]), "     rxq%d_bytes: %d" % (q, rxb // s["queues"]),
                    "     rxq%d_errors: 0" % q, "     rxq%d_dropped: 0" % q]
        for q in range(s["queues"]):
            out += ["     txq%d_packets: %d" % (q, txp // s["queues"]), "     txq%d_bytes: %d" % (q, txb // s["queues"]),
                    "     txq%d_busy: 0" % q, "     txq%d_dropped: 0" % q]
    return "\n".join(out) + "\n"


def bonding(s):
    mac = s["mac"] + "0"
    out = ["Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)", "",
           "Bonding Mode: IEEE 802.3ad Dynamic link aggregation", "Transmit Hash Policy: layer3+4 (1)",
           "MII Status: up", "MII Polling Interval (ms): 100", "Up Delay (ms): 0", "Down Delay (ms): 0", "",
           "802.3ad info", "LACP rate: fast", "Min links: 0", "Aggregator selection policy (ad_select): stable",
           "System priority: 65535", "System MAC address: %s" % mac, "Active Aggregator Info:",
           "\tAggregator ID: 1", "\tNumber of ports: 2", "\tActor Key: 21", "\tPartner Key: 50013",
           "\tPartner Mac Address: 00:00:5e:00:01:01", ""]
    for p, nic in enumerate(s["nics"]):
        out += ["Slave Interface: %s" % nic, "MII Status: up", "Speed: 25000 Mbps", "Duplex: full",
                "Link Failure Count: 0", "Permanent HW addr: %s%d" % (s["mac"], p), "Slave queue ID: 0",
                "Aggregator ID: 1", "Actor Churn State: none", "Partner Churn State: none",
                "Actor Churned Count: 0", "Partner Churned Count: 0", "details actor lacp pdu:",
                "    system priority: 65535", "    system mac address: %s" % mac, "    port key: 21",
                "    port priority: 255", "    port number: %d" % (p + 1), "    port state: 63",
                "details partner lacp pdu:", "    system priority: 32768",
                "    system mac address: 00:00:5e:00:01:01", "    oper key: 50013", "    port priority: 32768",
                "    port number: %d" % (p + 21), "    port state: 63", ""]
    return "\n".join(out)


def irq_affinity(s):
    """`N<TAB>smp_affinity_list<TAB>action` per IRQ of /proc/irq (collector's irq.awk)."""
    out = ["3\t0-191\tarch_timer", "9\t0\tttyAMA0", "10\t0-191\tACPI:Ged", "11\t0\tsbsa-gwdt"]
    rng = random.Random(5)
    irq = 40
    for d in range(4):
        out.append("%d\t0-191\tnvme%dq0" % (irq, d))
        irq += 1
        for q in range(1, 33):
            lo = (q - 1) * 6
            out.append("%d\t%d-%d\tnvme%dq%d" % (irq, lo, lo + 5, d, q))
            irq += 1
    for q in range(16):
        out.append("%d\t%d\thisi_sas_v3_hw cq" % (irq, q * 12))
        irq += 1
    irq = s["irq_base"]
    for p, nic in enumerate(s["nics"]):
        bus = s["bus"][p]
        if s["driver"] == "hinic3":
            for a in range(4):
                out.append("%d\t0-191\thinic3_aeq%d@pci:%s" % (irq, a, bus))
                irq += 1
            for q in range(s["queues"]):
                out.append("%d\t%d\t%s_qp%d" % (irq, s["irq_cpus"][q], nic, q))
                irq += 1
        else:
            for ename in ["mlx5_cmd_eq", "mlx5_async_eq", "mlx5_pages_eq"]:
                out.append("%d\t0-191\t%s@pci:%s" % (irq, ename, bus))
                irq += 1
            for q in range(s["queues"]):
                out.append("%d\t%d\tmlx5_comp%d@pci:%s" % (irq, s["irq_cpus"][q], q, bus))
                irq += 1
    return "\n".join(out) + "\n"


def ss_tulpn(name):
    rows = [
        ("udp", "UNCONN", "0", "0", "127.0.0.1", "323", "0.0.0.0", "*", 'users:(("chronyd",pid=1702,fd=5))'),
        ("tcp", "LISTEN", "0", "128", "0.0.0.0", "22", "0.0.0.0", "*", 'users:(("sshd",pid=2201,fd=3))'),
        ("tcp", "LISTEN", "0", "2048", "0.0.0.0", "2881", "0.0.0.0", "*", 'users:(("observer",pid=31552,fd=88))'),
        ("tcp", "LISTEN", "0", "2048", "0.0.0.0", "2882", "0.0.0.0", "*", 'users:(("observer",pid=31552,fd=86))'),
    ]
    wa = max(len("Local Address"), max(len(r[4]) for r in rows))
    wb = max(len("Peer Address"), max(len(r[6]) for r in rows))
    out = ["Netid State  Recv-Q Send-Q %s:%s %s:%s%s" % ("Local Address".rjust(wa), "Port ", "Peer Address".rjust(wb), "Port", "Process")]
    for r in rows:
        out.append("%-5s %-6s %-6s %-6s %s:%-5s %s:%-4s %s" % (r[0], r[1], r[2], r[3], r[4].rjust(wa), r[5], r[6].rjust(wb), r[7], r[8]))
    return "\n".join(out) + "\n"


def chrony_tracking(name):
    t = K.fixture("captured-b/chronyc-tracking-chrony4-synced.txt")
    t = t.replace("7F000002 (127.0.0.2)", "C6336401 (198.51.100.1)").replace("Stratum         : 6", "Stratum         : 3")
    t = t.replace("Mon Nov 30 01:48:27 2026", "Mon Nov 30 09:14:52 2026" if name == "suspect" else "Mon Nov 30 09:34:58 2026")
    t = t.replace("Update interval : 2.0 seconds", "Update interval : 64.2 seconds")
    return t


def chrony_sources(name):
    t = K.fixture("captured-b/chronyc-sources-v-chrony4.txt")
    lines = t.split("\n")
    head = lines[:lines.index("=" * 79) + 1]
    return "\n".join(head + ["^* 198.51.100.1                 2   6   377    21    -12us[  -15us] +/-  210us",
                             "^+ 198.51.100.2                 2   6   377    19    +31us[  +28us] +/-  274us", ""])


def timedatectl(s):
    t = K.fixture("timedatectl/hotsos__timedatectl-ubuntu2004-trailing-spaces.txt")
    local = K.hms(s["t0"] + 1.5)
    utc = K.hms(s["t0"] + 1.5, tz=0)
    t = t.replace("Fri 2022-02-11 19:24:03 UTC", "Mon 2026-11-30 %s CST" % local, 1)
    t = t.replace("Fri 2022-02-11 19:24:03 UTC", "Mon 2026-11-30 %s UTC" % utc, 1)
    t = t.replace("Fri 2022-02-11 19:24:04    ", "Mon 2026-11-30 %s    " % utc)
    t = t.replace("Etc/UTC (UTC, +0000)       ", "Asia/Shanghai (CST, +0800)")
    return t


def ps_text(name, s):
    rows = [dict(pid=1, ppid=0, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=18404, vsz=175092, etimes=int(UPTIME),
                 stat="Ss", comm="systemd", args="/usr/lib/systemd/systemd --switched-root --system --deserialize 17")]
    for pid, comm in K.kernel_threads(NCPU):
        pc = 0.0
        if comm.startswith("ksoftirqd/") and name == "suspect" and int(comm.split("/")[1]) in s["irq_cpus"]:
            pc = 3.1
        rows.append(dict(pid=pid, ppid=0 if comm == "kthreadd" else 2, user="root", nlwp=1, pcpu=pc, pmem=0.0, rss=0, vsz=0,
                         etimes=int(UPTIME), stat="S" if not comm.startswith("kworker") else "I<", comm=comm, args="[%s]" % comm))
    svc = [
        (1702, "chrony", 1, "chronyd", "/usr/sbin/chronyd"),
        (1750, "root", 3, "irqbalance", "/usr/sbin/irqbalance --foreground"),
        (2201, "root", 1, "sshd", "/usr/sbin/sshd -D"),
        (2310, "root", 1, "crond", "/usr/sbin/crond -n"),
    ]
    if name == "suspect":
        svc.insert(1, (2291437, "root", 21, "resguardd", "/opt/resguard/bin/resguardd --config /opt/resguard/etc/resguard.conf"))
    for pid, user, nlwp, comm, args in svc:
        rows.append(dict(pid=pid, ppid=1, user=user, nlwp=nlwp, pcpu=0.0 if comm != "resguardd" else 0.9, pmem=0.0,
                         rss=8000 if comm != "resguardd" else 212_440,
                         vsz=120_000 if comm != "resguardd" else 1_843_712,
                         # the agent's daemon (re)started with its module, 25 hours ago (dmesg)
                         etimes=int(UPTIME - 60) if comm != "resguardd" else 3600 * 25 + 2,
                         stat="Ssl", comm=comm, args=args))
    rows.append(dict(pid=31552, ppid=1, user="admin", nlwp=1412, pcpu=1051.2 if name == "suspect" else 5620.4,
                     pmem=74.9, rss=401_223_104, vsz=452_118_212, etimes=1_209_331, stat="Ssl", comm="observer",
                     args="/home/admin/oceanbase/bin/observer -z zone%s -d /home/admin/oceanbase/store/obcluster -i bond0 -p 2881 -P 2882 -n obcluster -c 1 -o memory_limit=420G,datafile_size=3000G" % ("1" if name == "suspect" else "2")))
    rows.append(dict(pid=940198, ppid=2201, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=9100, vsz=154_300, etimes=780,
                     stat="Ss", comm="sshd", args="sshd: root@pts/0"))
    rows.append(dict(pid=940211, ppid=940198, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=9100, vsz=154_300, etimes=779,
                     stat="S", comm="sshd", args="sshd: root@pts/0"))
    rows.append(dict(pid=940230, ppid=940211, user="root", nlwp=1, pcpu=0.0, pmem=0.0, rss=5100, vsz=21_900, etimes=779,
                     stat="Ss", comm="bash", args="-bash"))
    rows.sort(key=lambda r: r["pid"])
    return K.ps_table(rows)


def top_text(name, s, top_mem):
    susp = name == "suspect"
    ntasks = ps_text(name, s).count("\n")  # rows without the header, plus top
    cpu = (5.4, 2.9, 0.0, 79.1, 0.0, 0.0, 12.6, 0.0) if susp else (19.9, 8.2, 0.0, 67.1, 0.0, 0.0, 4.8, 0.0)
    lines = [
        "top - %s up 41 days,  4:00,  1 user,  load average: %s" % (K.hms(s["t0"] + 3), "38.14, 37.90, 36.02" if susp else "121.55, 119.87, 118.40"),
        # the processes ps listed a moment before, and top itself
        "Tasks: %d total,  %3d running, %d sleeping,   0 stopped,   0 zombie" % ((ntasks, 25, ntasks - 25) if susp else (ntasks, 33, ntasks - 33)),
        "%%Cpu(s): %4.1f us, %4.1f sy, %4.1f ni, %4.1f id, %4.1f wa, %4.1f hi, %4.1f si, %4.1f st" % cpu,
        top_mem[0],
        top_mem[1],
        "",
        "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND",
        "  31552 admin     20   0  431.2g 382.6g  11.2g S %5.1f  74.9  27045:12 observer" % (1051.2 if susp else 5620.4),
    ]
    if susp:
        for cpu_ in range(0, 24, 2):
            pid = 9 if cpu_ == 0 else 12 + cpu_ * 4 + 2
            lines.append("%7d root      20   0       0      0      0 R  41.2   0.0 %4d:%02d.%02d ksoftirqd/%d" % (pid, 3100 + cpu_, 11, 7, cpu_))
        lines.append("2291437 root      20   0 1843712 212440  21604 S   0.9   0.0  13:31.07 resguardd")
    lines.append("      1 root      20   0  175092  18404  10312 S   0.0   0.0   9:12.61 systemd")
    return "\n".join(lines) + "\n"


def dmesg(name, s):
    """The tail of the ring buffer of a host up for 41 days: boot messages have rotated out; what
    is left are NIC/bond events from the last maintenance and, on the suspect, the agent's
    module load."""
    up = UPTIME - 3600 * 26
    out = []
    t = up
    for p, nic in enumerate(s["nics"]):
        out.append("[%12.6f] bond0: (slave %s): link status definitely down, disabling slave" % (t, nic))
        t += 3.100431
        out.append("[%12.6f] %s %s: %s: Link is up" % (t, s["driver"], s["bus"][p], nic) if s["driver"] == "hinic3"
                   else "[%12.6f] mlx5_core %s %s: Link up" % (t, s["bus"][p], nic))
        t += 0.100012
        out.append("[%12.6f] bond0: (slave %s): link status definitely up, 25000 Mbps full duplex" % (t, nic))
        t += 12.30221
    if s["module"]:
        t = UPTIME - 3600 * 25
        out.append("[%12.6f] resguard_linux: loading out-of-tree module taints kernel." % t)
        out.append("[%12.6f] resguard_linux: module verification failed: signature and/or required key missing - tainting kernel" % (t + 0.000211))
        out.append("[%12.6f] resguard: network access control enabled, hooks registered" % (t + 0.041012))
        out.append("[%12.6f] secmodel: policy model loaded (rules: 1182)" % (t + 0.052207))
    return "\n".join(out) + "\n"


def main():
    for name in ("baseline", "suspect"):
        build(name, os.path.join(HERE, name))


if __name__ == "__main__":
    main()
