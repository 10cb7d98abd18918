"""Building blocks for the baseline/suspect sample bundles (S2, S4).

A bundle is written as the unpacked top folder of the collector's tarball: every artifact at
the path collector.sh gives it, a manifest.tsv in the collector's format (header, meta keys in
the collector's order, one `artifact` record per planned artifact in the order the collector
plans them) and a collector.log. Text layouts are taken from real captures (the shipped healthy
sample, parsers/tests/fixtures, public captures named in each case's README); this module only
formats numbers into them. Everything is deterministic: the same seed gives the same bytes.
"""

import json
import os
import random
import re
import shutil
import time

REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(REPO, "parsers", "tests", "fixtures")

CST = 8 * 3600  # Asia/Shanghai, the hosts' local time (sysstat prints local time)


def fixture(rel):
    with open(os.path.join(FIX, rel), encoding="utf-8") as f:
        return f.read()


def hms(epoch, tz=CST):
    return time.strftime("%H:%M:%S", time.gmtime(epoch + tz))


def ymd(epoch, tz=CST):
    return time.strftime("%Y-%m-%d", time.gmtime(epoch + tz))


def t2(x):
    """Manifest time: 1/100 s."""
    return "%.2f" % x


# ---------------------------------------------------------------------------------------------
# The bundle and its manifest


class Bundle:
    """One side: files under `out`, a manifest and a collector log."""

    META_ORDER = [
        "collector_version", "hostname", "user", "uid", "kernel", "machine", "started",
        "ended", "duration", "interval", "options", "complete", "orig_lc_all", "orig_lang",
        "orig_tz", "timeout_impl", "sysstat_version", "label", "pids", "jvms", "perf",
        "perf_event_paranoid", "kptr_restrict", "live_histogram", "keep_perf_data", "zk",
        "max_bytes", "max_artifact_bytes", "max_log_bytes", "max_thread_dump_bytes",
        "max_perf_script_bytes", "secrets_masked",
    ]

    def __init__(self, out, meta):
        self.out = out
        self.meta = dict(meta)
        self.records = []
        self.log = []
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)

    def add(self, path, kind, text, argv, start, end, exit=0, note="", timed_out=0):
        """An artifact whose command ran and left an output file (possibly empty)."""
        p = os.path.join(self.out, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = text.encode("utf-8")
        with open(p, "wb") as f:
            f.write(data)
        self.records.append(
            [path, kind, str(exit), str(timed_out), t2(start), t2(end), str(len(data)), "0",
             note, argv]
        )
        self.log.append("  %s (%s): %s" % (path, kind, argv) if not note else
                        "  %s (%s): %s [%s]" % (path, kind, argv, note))

    def skip(self, path, kind, note, argv):
        """A planned artifact that was never started (`skipped: …`, `not found: …`): no file."""
        self.records.append([path, kind, "", "0", "", "", "0", "0", note, argv])
        self.log.append("  %s: %s" % (path, note))

    def notfound(self, path, kind, tool, argv, at):
        """A command that is not installed: exit 127, no file."""
        self.records.append([path, kind, "127", "0", t2(at), t2(at), "0", "0",
                             "not found: %s" % tool, argv])
        self.log.append("  %s: not found: %s" % (path, tool))

    def say(self, epoch, text):
        self.log.append("%s %s" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch)), text))

    def finish(self, ended):
        self.add("redaction-log.tsv", "redaction-log", "# source\tkey\n",
                 "cat redactions.tsv", ended - 0.02, ended - 0.02)
        self.say(ended, "collection complete; writing the bundle")
        log = "\n".join(self.log) + "\n"
        with open(os.path.join(self.out, "collector.log"), "w") as f:
            f.write(log)
        self.records.append(["collector.log", "collector-log", "", "0", self.meta["started"],
                             "%.9f" % ended, str(len(log.encode())), "0", "", ""])
        self.meta["ended"] = "%.9f" % ended
        lines = ["# rca-manifest 1"]
        for k in self.META_ORDER:
            lines.append("meta\t%s\t%s" % (k, self.meta.get(k, "")))
        for r in self.records:
            lines.append("artifact\t" + "\t".join(r))
        with open(os.path.join(self.out, "manifest.tsv"), "w") as f:
            f.write("\n".join(lines) + "\n")


class Clock:
    """Start and end times for artifacts run one after another."""

    def __init__(self, t):
        self.t = t

    def step(self, dur=0.01):
        s = self.t
        self.t += dur
        return s, self.t


# ---------------------------------------------------------------------------------------------
# sysstat (12.6.1 layouts, from the healthy sample)


def banner(kernel, host, day, machine, ncpu):
    return "Linux %s (%s) \t%s \t_%s_\t(%d CPU)\n" % (kernel, host, day, machine, ncpu)


MP_COLS = ["usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest", "gnice", "idle"]


def close100(row):
    """Rounds a CPU row to two decimals and puts the rounding remainder into %idle."""
    r = {k: round(row.get(k, 0.0), 2) for k in MP_COLS}
    busy = sum(r[k] for k in MP_COLS if k != "idle")
    r["idle"] = round(max(0.0, 100.0 - busy), 2)
    return r


def mean_rows(rows):
    n = len(rows)
    return close100({k: sum(r[k] for r in rows) / n for k in MP_COLS})


def mpstat_text(head, times, samples):
    """`mpstat -P ALL INTERVAL COUNT`; samples[i] is a list of per-CPU rows (dicts)."""
    out = [head]
    hdr = "     CPU" + "".join(" %7s" % ("%" + c) for c in MP_COLS)
    avg = [[] for _ in samples[0]]
    for i, rows in enumerate(samples):
        out.append("%-8s%s" % (times[i], hdr))
        allr = mean_rows(rows)
        out.append("%-8s     all%s" % (times[i + 1], "".join(" %7.2f" % allr[c] for c in MP_COLS)))
        for cpu, r in enumerate(rows):
            out.append("%-8s %7d%s" % (times[i + 1], cpu, "".join(" %7.2f" % r[c] for c in MP_COLS)))
            avg[cpu].append(r)
        out.append("")
    out.append("Average:%s" % hdr)
    avg_rows = [mean_rows(a) for a in avg]
    allr = mean_rows(avg_rows)
    out.append("Average:     all%s" % "".join(" %7.2f" % allr[c] for c in MP_COLS))
    for cpu, r in enumerate(avg_rows):
        out.append("Average: %7d%s" % (cpu, "".join(" %7.2f" % r[c] for c in MP_COLS)))
    return "\n".join(out) + "\n"


def mpstat_json(host, kernel, machine, ncpu, day, times, samples):
    out = ['{"sysstat": {', "\t\"hosts\": [", "\t\t{",
           '\t\t\t"nodename": "%s",' % host, '\t\t\t"sysname": "Linux",',
           '\t\t\t"release": "%s",' % kernel, '\t\t\t"machine": "%s",' % machine,
           '\t\t\t"number-of-cpus": %d,' % ncpu, '\t\t\t"date": "%s",' % day,
           '\t\t\t"statistics": [']
    for i, rows in enumerate(samples):
        out.append("\t\t\t\t{")
        out.append('\t\t\t\t\t"timestamp": "%s",' % times[i + 1])
        out.append('\t\t\t\t\t"cpu-load": [')
        items = [("all", mean_rows(rows))] + [(str(c), r) for c, r in enumerate(rows)]
        for j, (name, r) in enumerate(items):
            body = ", ".join('"%s": %.2f' % (c, r[c]) for c in MP_COLS)
            out.append('\t\t\t\t\t\t{"cpu": "%s", %s}%s' % (name, body, "," if j < len(items) - 1 else ""))
        out.append("\t\t\t\t\t]")
        out.append("\t\t\t\t}" + ("," if i < len(samples) - 1 else ""))
    out += ["\t\t\t]", "\t\t}", "\t]", "}}"]
    return "\n".join(out) + "\n"


IOSTAT_COLS = ["r/s", "rkB/s", "rrqm/s", "%rrqm", "r_await", "rareq-sz", "w/s", "wkB/s",
               "wrqm/s", "%wrqm", "w_await", "wareq-sz", "d/s", "dkB/s", "drqm/s", "%drqm",
               "d_await", "dareq-sz", "f/s", "f_await", "aqu-sz", "%util"]


def iostat_text(head, stamps, cpu_rows, dev_rows):
    """`iostat -x -t`: report 0 is the since-boot summary. stamps are ISO strings."""
    out = [head]
    widths = [8, 9, 8, 6, 7, 8, 8, 9, 8, 6, 7, 8, 8, 9, 8, 6, 7, 8, 7, 7, 7, 6]
    hdr = "Device        " + "".join(" %*s" % (w, c) for w, c in zip(widths, IOSTAT_COLS))
    for i, st in enumerate(stamps):
        c = cpu_rows[i]
        out.append(st)
        out.append("avg-cpu:  %user   %nice %system %iowait  %steal   %idle")
        out.append("        " + "".join(" %7.2f" % c[k] for k in ["user", "nice", "system", "iowait", "steal", "idle"]))
        out.append("")
        out.append(hdr)
        for name, vals in dev_rows[i]:
            out.append("%-14s" % name + "".join(" %*.2f" % (w, vals[k]) for w, k in zip(widths, IOSTAT_COLS)))
        out.append("")
        out.append("")
    return "\n".join(out[:-1]) + "\n"


def iostat_json(host, kernel, machine, ncpu, day, stamps, cpu_rows, dev_rows):
    def key(c):
        return c.replace("%", "").replace("/", "/")
    out = ['{"sysstat": {', "\t\"hosts\": [", "\t\t{",
           '\t\t\t"nodename": "%s",' % host, '\t\t\t"sysname": "Linux",',
           '\t\t\t"release": "%s",' % kernel, '\t\t\t"machine": "%s",' % machine,
           '\t\t\t"number-of-cpus": %d,' % ncpu, '\t\t\t"date": "%s",' % day,
           '\t\t\t"statistics": [']
    for i in range(len(stamps)):
        c = cpu_rows[i]
        out.append("\t\t\t\t{")
        out.append('\t\t\t\t\t"avg-cpu":  {"user": %.2f, "nice": %.2f, "system": %.2f, "iowait": %.2f, "steal": %.2f, "idle": %.2f},'
                   % tuple(c[k] for k in ["user", "nice", "system", "iowait", "steal", "idle"]))
        out.append('\t\t\t\t\t"disk": [')
        devs = dev_rows[i]
        for j, (name, vals) in enumerate(devs):
            body = ", ".join('"%s": %.2f' % (key(k), vals[k]) for k in IOSTAT_COLS)
            out.append('\t\t\t\t\t\t{"disk_device": "%s", %s}%s' % (name, body, "," if j < len(devs) - 1 else ""))
        out.append("\t\t\t\t\t]")
        out.append("\t\t\t\t}" + ("," if i < len(stamps) - 1 else ""))
    out += ["\t\t\t]", "\t\t}", "\t]", "}}"]
    return "\n".join(out) + "\n"


def vmstat_text(rows, tzname="CST"):
    """procps-ng `vmstat -t`: rows are dicts; report 0 is since boot."""
    out = ["procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----",
           " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 %s" % tzname]
    for r in rows:
        out.append("%2d %2d %6d %6d %6d %6d %4d %4d %5d %5d %4d %4d %2d %2d %2d %2d %2d %s"
                   % (r["r"], r["b"], r["swpd"], r["free"], r["buff"], r["cache"], r["si"], r["so"],
                      r["bi"], r["bo"], r["in"], r["cs"], r["us"], r["sy"], r["id"], r["wa"], r["st"],
                      r["ts"]))
    return "\n".join(out) + "\n"


def sar_dev_text(head, times, ifaces, rows):
    """`sar -n DEV`: rows[i][iface] = dict of the nine rates."""
    cols = ["rxpck/s", "txpck/s", "rxkB/s", "txkB/s", "rxcmp/s", "txcmp/s", "rxmcst/s", "%ifutil"]
    return _sar(head, times, ifaces, rows, cols)


def sar_edev_text(head, times, ifaces, rows):
    cols = ["rxerr/s", "txerr/s", "coll/s", "rxdrop/s", "txdrop/s", "txcarr/s", "rxfram/s",
            "rxfifo/s", "txfifo/s"]
    return _sar(head, times, ifaces, rows, cols)


def _sar(head, times, ifaces, rows, cols):
    out = [head]
    hdr = "        IFACE" + "".join(" %9s" % c for c in cols)
    sums = {i: {c: 0.0 for c in cols} for i in ifaces}
    for n, r in enumerate(rows):
        out.append("%-8s%s" % (times[n], hdr))
        for i in ifaces:
            out.append("%-8s %12s%s" % (times[n + 1], i, "".join(" %9.2f" % r[i][c] for c in cols)))
            for c in cols:
                sums[i][c] += r[i][c]
        out.append("")
    out.append("Average:%s" % hdr)
    for i in ifaces:
        out.append("Average: %12s%s" % (i, "".join(" %9.2f" % (sums[i][c] / len(rows)) for c in cols)))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# /proc snapshots


SOFTIRQ_NAMES = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
                 "HRTIMER", "RCU"]


def softirqs_text(counts):
    """/proc/softirqs (Linux 4.19 layout): counts[name] = per-CPU list."""
    ncpu = len(counts["TIMER"])
    out = ["                    " + "".join("CPU%-8d" % i for i in range(ncpu))]
    for n in SOFTIRQ_NAMES:
        out.append("%12s:" % n + "".join(" %10d" % v for v in counts[n]))
    return "\n".join(out) + "\n"


def interrupts_text(ncpu, rows, ipis, err=0):
    """/proc/interrupts, Linux 4.19 arm64 layout (prec 3, `%10u ` per CPU, chip, hwirq, type).

    rows: (irq, counts, chip, hwirq, trigger, name); ipis: (counts, name)."""
    out = [" " * 11 + "".join("CPU%-8d" % i for i in range(ncpu))]
    for irq, counts, chip, hwirq, trig, name in rows:
        line = "%3d: " % irq + "".join("%10d " % c for c in counts)
        line += " %8s %3d %-8s  %s" % (chip, hwirq, trig, name)
        out.append(line)
    for i, (counts, name) in enumerate(ipis):
        out.append("IPI%d:" % i + "".join("%10d " % c for c in counts) + "      " + name)
    out.append("Err:%11d" % err)
    return "\n".join(out) + "\n"


def proc_stat_text(cpus, intr_total, ctxt, btime, processes, running, blocked, softirq_totals,
                   nirq):
    """/proc/stat (4.19): cpus = list of per-CPU jiffies dicts."""
    keys = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice"]
    tot = {k: sum(c[k] for c in cpus) for k in keys}
    out = ["cpu  " + " ".join(str(tot[k]) for k in keys)]
    for i, c in enumerate(cpus):
        out.append("cpu%d " % i + " ".join(str(c[k]) for k in keys))
    out.append("intr %d" % intr_total + " 0" * nirq)
    out.append("ctxt %d" % ctxt)
    out.append("btime %d" % btime)
    out.append("processes %d" % processes)
    out.append("procs_running %d" % running)
    out.append("procs_blocked %d" % blocked)
    out.append("softirq %d " % sum(softirq_totals) + " ".join(str(v) for v in softirq_totals))
    return "\n".join(out) + "\n"


def net_dev_text(rows):
    """/proc/net/dev: rows = (name, rx dict, tx dict)."""
    out = ["Inter-|   Receive                                                |  Transmit",
           " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed"]
    for name, rx, tx in rows:
        out.append("%6s: %7d %7d %4d %4d %4d %5d %10d %9d %8d %7d %4d %4d %4d %5d %7d %10d"
                   % (name, rx["bytes"], rx["packets"], rx["errs"], rx["drop"], rx["fifo"],
                      rx["frame"], 0, rx["multicast"], tx["bytes"], tx["packets"], tx["errs"],
                      tx["drop"], tx["fifo"], 0, 0, 0))
    return "\n".join(out) + "\n"


def softnet_text(rows):
    """/proc/net/softnet_stat, Linux 4.19: 11 hex columns per CPU."""
    return "".join(" ".join("%08x" % (v & 0xFFFFFFFF) for v in r) + "\n" for r in rows)


def scale_counters(text, factor, skip=(), minimum=0):
    """Multiplies every integer of a counter dump by `factor` (names in `skip` kept)."""

    def fix(m):
        v = int(m.group(0))
        return str(int(v * factor) if v > minimum else v)

    out = []
    for line in text.split("\n"):
        if any(s in line for s in skip):
            out.append(line)
            continue
        out.append(re.sub(r"(?<![\w.:-])\d+(?![\w.:])", fix, line))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Tables printed by procps and iproute2


def ss_table(rows, with_header=True):
    """`ss -tanp` (iproute2): rows = (state, recvq, sendq, laddr, lport, paddr, pport, proc)."""
    wa = max([len("Local Address")] + [len(r[3]) for r in rows])
    wp = max([len("Port")] + [len(str(r[4])) for r in rows])
    wb = max([len("Peer Address")] + [len(r[5]) for r in rows])
    wq = max([len("Port")] + [len(str(r[6])) for r in rows])
    wproc = max([len("Process")] + [len(r[7]) for r in rows])
    out = []
    if with_header:
        out.append("State  Recv-Q Send-Q %s:%s %s:%s%s" % (
            "Local Address".rjust(wa), "Port".ljust(wp), "Peer Address".rjust(wb),
            "Port".ljust(wq), "Process".ljust(wproc)))
    for st, rq, sq, la, lp, pa, pp, proc in rows:
        out.append("%-6s %-6s %-6s %s:%s %s:%s %s" % (
            st, rq, sq, la.rjust(wa), str(lp).ljust(wp), pa.rjust(wb), str(pp).ljust(wq),
            proc.ljust(wproc)))
    return "\n".join(out) + "\n"


def ps_table(rows):
    """`ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args` (procps-ng)."""
    out = ["  PID  PPID USER     NLWP %CPU %MEM   RSS    VSZ ELAPSED STAT COMMAND         COMMAND"]
    for r in rows:
        out.append("%5d %5d %-8s %4d %4.1f %4.1f %5d %6d %7d %-4s %-15s %s" % (
            r["pid"], r["ppid"], r["user"][:8], r["nlwp"], r["pcpu"], r["pmem"], r["rss"],
            r["vsz"], r["etimes"], r["stat"], r["comm"][:15], r["args"]))
    return "\n".join(out) + "\n"


def kernel_threads(ncpu):
    """Kernel threads of a Linux 4.19 host in pid order, as `ps -eo comm` names them."""
    names = ["kthreadd", "rcu_gp", "rcu_par_gp", "kworker/0:0H-kb", "mm_percpu_wq",
             "ksoftirqd/0", "rcu_sched", "migration/0", "cpuhp/0"]
    for c in range(1, ncpu):
        names += ["cpuhp/%d" % c, "migration/%d" % c, "ksoftirqd/%d" % c, "kworker/%d:0H-kb" % c]
    names += ["kdevtmpfs", "netns", "rcu_tasks_kthre", "kauditd", "khungtaskd", "oom_reaper",
              "writeback", "kcompactd0", "ksmd", "khugepaged", "crypto", "kintegrityd",
              "kblockd", "md", "edac-poller", "watchdogd", "kswapd0", "kthrotld",
              "acpi_thermal_pm", "scsi_eh_0", "scsi_tmf_0", "nvme-wq", "nvme-reset-wq",
              "nvme-delete-wq", "ipv6_addrconf", "kstrp", "xfsalloc", "xfs_mru_cache",
              "kdmflush", "xfsaild/dm-0"]
    out = []
    pid = 2
    for n in names:
        out.append((pid, n))
        pid += 1 if not n.startswith("kworker/") else 2
    return out


def ulimit_bash(sigpending, nofile=65535, nproc=65535, memlock=64):
    """`bash -c 'ulimit -a'`, the real bash 5 layout of the healthy sample, values as given."""
    t = fixture("captured-b/ulimit-a-bash.txt")
    t = re.sub(r"(pending signals\s+\(-i\)) \d+", r"\g<1> %d" % sigpending, t)
    t = re.sub(r"(open files\s+\(-n\)) \d+", r"\g<1> %d" % nofile, t)
    t = re.sub(r"(max user processes\s+\(-u\)) \d+", r"\g<1> %d" % nproc, t)
    t = re.sub(r"(max locked memory\s+\(kbytes, -l\)) \d+", r"\g<1> %d" % memlock, t)
    return t


def proc_limits(sigpending, nofile=65535, nproc=65535, memlock=65536):
    """/proc/PID/limits (the kernel's fixed layout)."""
    rows = [
        ("Max cpu time", "unlimited", "unlimited", "seconds"),
        ("Max file size", "unlimited", "unlimited", "bytes"),
        ("Max data size", "unlimited", "unlimited", "bytes"),
        ("Max stack size", "8388608", "unlimited", "bytes"),
        ("Max core file size", "0", "unlimited", "bytes"),
        ("Max resident set", "unlimited", "unlimited", "bytes"),
        ("Max processes", str(nproc), str(nproc), "processes"),
        ("Max open files", str(nofile), str(nofile), "files"),
        ("Max locked memory", str(memlock), str(memlock), "bytes"),
        ("Max address space", "unlimited", "unlimited", "bytes"),
        ("Max file locks", "unlimited", "unlimited", "locks"),
        ("Max pending signals", str(sigpending), str(sigpending), "signals"),
        ("Max msgqueue size", "819200", "819200", "bytes"),
        ("Max nice priority", "0", "0", ""),
        ("Max realtime priority", "0", "0", ""),
        ("Max realtime timeout", "unlimited", "unlimited", "us"),
    ]
    out = ["%-25s %-20s %-20s %-10s" % ("Limit", "Soft Limit", "Hard Limit", "Units")]
    for n, s, h, u in rows:
        out.append("%-25s %-20s %-20s %-10s" % (n, s, h, u))
    return "\n".join(out) + "\n"


def free_and_top_mem(total, free, buffers, cached, srecl, shmem, avail, swap_total=0, swap_free=0):
    """`free -m` and top's two memory lines from /proc/meminfo values (kB), computed as
    procps-ng 3.3 does: buff/cache = Buffers + Cached + SReclaimable, used = total - free -
    buff/cache."""
    bc = buffers + cached + srecl
    used = total - free - bc
    mb = lambda kb: kb // 1024  # noqa: E731
    # procps-ng 3.3.16 free.c: header, then "%-7s" and " %11s" per column
    free_m = ("              total        used        free      shared  buff/cache   available\n"
              + "%-7s" % "Mem:" + "".join(" %11d" % mb(v) for v in (total, used, free, shmem, bc, avail)) + "\n"
              + "%-7s" % "Swap:" + "".join(" %11d" % mb(v) for v in (swap_total, swap_total - swap_free, swap_free)) + "\n")
    top = ["MiB Mem : %8.1f total, %8.1f free, %8.1f used, %8.1f buff/cache" % (total / 1024, free / 1024, used / 1024, bc / 1024),
           "MiB Swap: %8.1f total, %8.1f free, %8.1f used. %8.1f avail Mem " % (swap_total / 1024, swap_free / 1024, (swap_total - swap_free) / 1024, avail / 1024)]
    return free_m, top


def jitter(rng, v, rel):
    return v * (1.0 + rng.uniform(-rel, rel))


# Features that ethtool lists only for kernels newer than 4.19 (the hosts' kernels).
POST_4_19_FEATURES = ("tx-tcp-accecn-segmentation", "tx-gso-list", "rx-gro-list", "macsec-hw-offload",
                      "rx-udp-gro-forwarding", "hsr-tag-ins-offload", "hsr-tag-rm-offload",
                      "hsr-fwd-offload", "hsr-dup-offload")

# Sub-features that `ethtool -k` prints indented under their group (as in the real ethtool 6.1
# capture parsers/tests/fixtures/captured-b/ethtool-k-virtio-eth0.txt).
ETHTOOL_CHILDREN = ("tx-checksum-ipv4", "tx-checksum-ip-generic", "tx-checksum-ipv6",
                    "tx-checksum-fcoe-crc", "tx-checksum-sctp", "tx-scatter-gather",
                    "tx-scatter-gather-fraglist", "tx-tcp-segmentation", "tx-tcp-ecn-segmentation",
                    "tx-tcp-mangleid-segmentation", "tx-tcp6-segmentation",
                    "tx-tcp-accecn-segmentation")

# The feature list and states of a real 25GE PF (`ethtool -k em1` of an E810 port quoted in a
# netdev thread, whose mail had lost the indentation).
ICE_25GE_FEATURES = """rx-checksumming: on
tx-checksumming: on
tx-checksum-ipv4: on
tx-checksum-ip-generic: off [fixed]
tx-checksum-ipv6: on
tx-checksum-fcoe-crc: off [fixed]
tx-checksum-sctp: on
scatter-gather: on
tx-scatter-gather: on
tx-scatter-gather-fraglist: off [fixed]
tcp-segmentation-offload: on
tx-tcp-segmentation: on
tx-tcp-ecn-segmentation: on
tx-tcp-mangleid-segmentation: off
tx-tcp6-segmentation: on
tx-tcp-accecn-segmentation: off [fixed]
generic-segmentation-offload: on
generic-receive-offload: on
large-receive-offload: off [fixed]
rx-vlan-offload: on
tx-vlan-offload: on
ntuple-filters: on
receive-hashing: on
highdma: on
rx-vlan-filter: on
vlan-challenged: off [fixed]
tx-gso-robust: off [fixed]
tx-fcoe-segmentation: off [fixed]
tx-gre-segmentation: on
tx-gre-csum-segmentation: on
tx-ipxip4-segmentation: on
tx-ipxip6-segmentation: on
tx-udp_tnl-segmentation: on
tx-udp_tnl-csum-segmentation: on
tx-gso-partial: on
tx-tunnel-remcsum-segmentation: off [fixed]
tx-sctp-segmentation: off [fixed]
tx-esp-segmentation: off [fixed]
tx-udp-segmentation: on
tx-gso-list: off [fixed]
tx-nocache-copy: off
loopback: off
rx-fcs: off
rx-all: off [fixed]
tx-vlan-stag-hw-insert: off
rx-vlan-stag-hw-parse: off
rx-vlan-stag-filter: on
l2-fwd-offload: off [fixed]
hw-tc-offload: off
esp-hw-offload: off [fixed]
esp-tx-csum-hw-offload: off [fixed]
rx-udp_tunnel-port-offload: on
tls-hw-tx-offload: off [fixed]
tls-hw-rx-offload: off [fixed]
rx-gro-hw: off [fixed]
tls-hw-record: off [fixed]
rx-gro-list: off
macsec-hw-offload: off [fixed]
rx-udp-gro-forwarding: off
hsr-tag-ins-offload: off [fixed]
hsr-tag-rm-offload: off [fixed]
hsr-fwd-offload: off [fixed]
hsr-dup-offload: off [fixed]
"""


def ethtool_k_4_19(features):
    """`ethtool -k` lines for a 4.19 kernel: post-4.19 features dropped, sub-features indented."""
    out = []
    for line in features.strip("\n").split("\n"):
        name = line.strip().split(":")[0]
        if name in POST_4_19_FEATURES:
            continue
        out.append(("\t" if name in ETHTOOL_CHILDREN else "") + line.strip())
    return "\n".join(out) + "\n"


PHYS_ETHTOOL_K = ethtool_k_4_19(ICE_25GE_FEATURES)


# ---------------------------------------------------------------------------------------------
# TCP/IP counters: /proc/net/snmp, `netstat -s` and `nstat -asz` of one host, from one model

# Counters the captured templates (Linux 6.1, iproute2 6.1, net-tools 2.10) print that Linux
# 4.19 does not have: OutTransmits (6.3), Icmp OutRateLimit* (6.0), Udp MemErrors (5.11),
# MPTCP (5.6), TCPBacklogCoalesce (5.0), TCPZeroWindowDrop/TCPRcvQDrop (5.1),
# TCPFastOpenPassiveAltKey, Tcp*Rehash, TCPHystart* (5.3-5.7), TCPDSACKRecvSegs and
# TCPDSACKIgnoredDubious (5.10), TCPMigrateReq* (5.14), TCPPLBRehash (6.2), TCP-AO (6.7).
# TCPWqueueTooBig stays: it came to 4.19 with the 4.19.53 stable update.
POST_4_19_COUNTERS = (
    "IpOutTransmits", "Ip6OutTransmits", "IcmpOutRateLimitGlobal", "IcmpOutRateLimitHost",
    "UdpMemErrors", "UdpLiteMemErrors", "Udp6MemErrors", "UdpLite6MemErrors",
    "TcpExtTCPBacklogCoalesce", "TcpExtTCPZeroWindowDrop", "TcpExtTCPRcvQDrop",
    "TcpExtTCPFastOpenPassiveAltKey", "TcpExtTcpTimeoutRehash", "TcpExtTcpDuplicateDataRehash",
    "TcpExtTCPHystartTrainDetect", "TcpExtTCPHystartTrainCwnd", "TcpExtTCPHystartDelayDetect",
    "TcpExtTCPHystartDelayCwnd", "TcpExtTCPDSACKRecvSegs", "TcpExtTCPDSACKIgnoredDubious",
    "TcpExtTCPMigrateReqSuccess", "TcpExtTCPMigrateReqFailure", "TcpExtTCPPLBRehash",
    "TcpExtTCPAORequired", "TcpExtTCPAOBad", "TcpExtTCPAOKeyNotFound", "TcpExtTCPAOGood",
    "TcpExtTCPAODroppedIcmps",
)

# Settings and gauges: not counters.
NET_SETTINGS = {"IpForwarding", "IpDefaultTTL", "TcpRtoAlgorithm", "TcpRtoMin", "TcpRtoMax",
                "TcpMaxConn", "TcpCurrEstab"}

# `netstat -s` (net-tools) sentences: section -> {text after the number: counter}.
NETSTAT_S_LINES = {
    "Ip": {"total packets received": "IpInReceives", "forwarded": "IpForwDatagrams",
           "incoming packets discarded": "IpInDiscards",
           "incoming packets delivered": "IpInDelivers", "requests sent out": "IpOutRequests"},
    "Icmp": {"ICMP messages received": "IcmpInMsgs", "input ICMP message failed": "IcmpInErrors",
             "ICMP messages sent": "IcmpOutMsgs", "ICMP messages failed": "IcmpOutErrors"},
    "Tcp": {"active connection openings": "TcpActiveOpens",
            "passive connection openings": "TcpPassiveOpens",
            "failed connection attempts": "TcpAttemptFails",
            "connection resets received": "TcpEstabResets",
            "connections established": "TcpCurrEstab", "segments received": "TcpInSegs",
            "segments sent out": "TcpOutSegs", "segments retransmitted": "TcpRetransSegs",
            "bad segments received": "TcpInErrs", "resets sent": "TcpOutRsts"},
    "Udp": {"packets received": "UdpInDatagrams", "packets to unknown port received": "UdpNoPorts",
            "packet receive errors": "UdpInErrors", "packets sent": "UdpOutDatagrams",
            "receive buffer errors": "UdpRcvbufErrors", "send buffer errors": "UdpSndbufErrors"},
    "TcpExt": {"TCP sockets finished time wait in fast timer": "TcpExtTW",
               "packet headers predicted": "TcpExtTCPHPHits",
               "acknowledgments not containing data payload received": "TcpExtTCPPureAcks",
               "predicted acknowledgments": "TcpExtTCPHPAcks",
               "connections reset due to unexpected data": "TcpExtTCPAbortOnData",
               "connections reset due to early user close": "TcpExtTCPAbortOnClose"},
}


class NetCounters:
    """The kernel's TCP/IP counters at the start of the window and how fast each grows.

    The counters the traffic drives (IP packets and octets, TCP segments, the fast-path, ACK and
    coalescing counters, UDP datagrams, retransmissions) follow the interfaces' packets and
    bytes in /proc/net/dev; every other counter is the captured development-machine value
    (captured-a) times one factor, so equal counters stay equal (IcmpInMsgs, InDestUnreachs and
    IcmpMsg InType3), and grows at its lifetime average. `value(name, dt)` is the counter `dt`
    seconds after the start snapshot, so the three tools, read a few milliseconds apart, agree
    with each other and with /proc/net/dev.
    """

    def __init__(self, uptime, rx_p, rx_rate, tx_p, tx_rate, rx_b, rx_brate, tx_b, tx_brate,
                 estab, factor=2617.3, udp=(18.4, 19.1), retrans=2e-5):
        self.snmp_t = fixture("captured-a/proc-net-snmp-1.txt")
        self.netstat_t = fixture("captured-a/netstat-s.txt")
        self.nstat_t = fixture("captured-a/nstat-az.txt")
        base = {}
        for line in self.nstat_t.split("\n")[1:]:
            if line.strip():
                name, v = line.split()[:2]
                base[name] = int(v)
        self.estab = estab
        delivers = rx_p * 0.99961
        tcp_in = delivers * 0.9978
        self.v0, self.rate = {}, {}
        for name, v in base.items():
            if name in NET_SETTINGS:
                self.v0[name] = v
                self.rate[name] = 0.0
                continue
            self.v0[name] = int(v * factor)
            self.rate[name] = self.v0[name] / uptime
        self.v0["TcpCurrEstab"], self.rate["TcpCurrEstab"] = estab, 0.0
        drive = {  # name: (value at start, per second)
            "IpInReceives": (rx_p, rx_rate), "IpInDelivers": (delivers, rx_rate * 0.99961),
            "IpOutRequests": (tx_p * 0.99985, tx_rate * 0.99985),
            "TcpInSegs": (tcp_in, rx_rate * 0.99961 * 0.9978),
            "TcpOutSegs": (tx_p * 0.9979, tx_rate * 0.9979),
            "UdpInDatagrams": (uptime * udp[0], udp[0]),
            "UdpOutDatagrams": (uptime * udp[1], udp[1]),
            "IpExtInOctets": (rx_b, rx_brate), "IpExtOutOctets": (tx_b, tx_brate),
            "IpExtInNoECTPkts": (rx_p, rx_rate),
            "TcpRetransSegs": (tx_p * retrans * 3, tx_rate * retrans),
            "TcpExtTCPTimeouts": (tx_p * retrans * 2.4, tx_rate * retrans * 0.8),
            "TcpExtTCPHPHits": (tcp_in * 0.31, rx_rate * 0.31),
            "TcpExtTCPPureAcks": (tcp_in * 0.36, rx_rate * 0.36),
            "TcpExtTCPHPAcks": (tcp_in * 0.22, rx_rate * 0.22),
            "TcpExtTCPRcvCoalesce": (tcp_in * 0.081, rx_rate * 0.081),
            "TcpExtTCPOrigDataSent": (tx_p * 0.61, tx_rate * 0.61),
            "TcpExtTCPDelivered": (tx_p * 0.613, tx_rate * 0.613),
            "TcpExtTCPAutoCorking": (tx_p * 0.012, tx_rate * 0.012),
        }
        for name, (v, r) in drive.items():
            self.v0[name] = int(v)
            self.rate[name] = r

    def value(self, name, dt):
        return int(self.v0[name] + self.rate[name] * dt)

    def snmp(self, dt):
        """/proc/net/snmp as Linux 4.19 prints it."""
        lines = self.snmp_t.rstrip("\n").split("\n")
        out = []
        for i in range(0, len(lines), 2):
            head, vals = lines[i].split(), lines[i + 1].split()
            proto = head[0].rstrip(":")
            names, new = [head[0]], [vals[0]]
            for name, v in zip(head[1:], vals[1:]):
                key = proto + name
                if key in POST_4_19_COUNTERS:
                    continue
                names.append(name)
                new.append(v if key in NET_SETTINGS and key != "TcpCurrEstab" else str(self.value(key, dt)))
            out += [" ".join(names), " ".join(new)]
        return "\n".join(out) + "\n"

    def nstat(self, dt):
        """`nstat -asz` (iproute2: "%-32s%-16llu%6.1f"; the rate column is 0.0 without a
        daemon's history)."""
        out = ["#kernel"]
        for line in self.nstat_t.split("\n")[1:]:
            if not line.strip():
                continue
            name = line.split()[0]
            if name in POST_4_19_COUNTERS or name.startswith("MPTcpExt"):
                continue
            out.append("%-32s%-16d%6.1f" % (name, self.value(name, dt), 0.0))
        return "\n".join(out) + "\n"

    def netstat_s(self, dt):
        """`netstat -s` (net-tools) with the template's sentences, for Linux 4.19."""
        out, section, hist = [], None, None
        for line in self.netstat_t.rstrip("\n").split("\n"):
            if not line.startswith(" "):
                section, hist = line.rstrip(":"), None
                if section == "MPTcpExt":
                    continue
                out.append(line)
                continue
            body = line.strip()
            if body.endswith("histogram:"):
                hist = "In" if body.startswith("ICMP input") else "Out"
                out.append(line)
                continue
            indent = line[:len(line) - len(line.lstrip())]
            m = re.match(r"^(\d+) (.*)$", body)
            if m and m.group(2) in NETSTAT_S_LINES.get(section, {}):
                key = NETSTAT_S_LINES[section][m.group(2)]
                out.append("%s%d %s" % (indent, self.value(key, dt), m.group(2)))
                continue
            m = re.match(r"^Quick ack mode was activated (\d+) times$", body)
            if m:
                out.append("%sQuick ack mode was activated %d times" % (indent, self.value("TcpExtDelayedACKLost", dt)))
                continue
            m = re.match(r"^([A-Za-z0-9 ]+): (\d+)$", body)
            if m and section == "Icmp" and hist:
                key = "Icmp%sDestUnreachs" % hist if m.group(1) == "destination unreachable" else None
                out.append("%s%s: %d" % (indent, m.group(1), self.value(key, dt)))
                continue
            if m:
                key = {"IcmpMsg": "IcmpMsg", "TcpExt": "TcpExt", "IpExt": "IpExt"}.get(section, section) + m.group(1)
                if key in POST_4_19_COUNTERS or m.group(1) == "OutTransmits":
                    continue
                if key in NET_SETTINGS:
                    out.append(line)
                    continue
                out.append("%s%s: %d" % (indent, m.group(1), self.value(key, dt)))
                continue
            raise ValueError("netstat -s line without a counter: %r" % line)
        return "\n".join(out) + "\n"


def diskstats_text(rows):
    """/proc/diskstats, Linux 4.19 (14 fields and the 4 discard fields added in 4.18):
    rows = (major, minor, name, [15 counters])."""
    return "".join("%4d %7d %s %s\n" % (ma, mi, name, " ".join(str(v) for v in vals))
                   for ma, mi, name, vals in rows)
