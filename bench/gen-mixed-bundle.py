#!/usr/bin/env python3
"""Generates a large bundle in the collector's layout, of about SIZE_MB MB of text, to measure
`rca analyze` on the mix a long collection on a big host produces.

Nothing in it is an invented format: every artifact is a real collected output, repeated and
varied. The base is the bundle collected on a Hadoop data node
(`sample-bundles/s1-hadoop-vmware/`, collector 0.2.0, sysstat 12.6.1, OpenJDK 17): its manifest,
small artifacts and /proc snapshots are copied as they are; `perf script`, its `perf report`s and
`dmesg` come from `sample-bundles/healthy/` (collected as root with perf), a second class
histogram and GC log from `sample-bundles/s3-zookeeper-watches/`. The large artifacts are grown
from those outputs; "varied" means each decimal number scaled by a random factor within +-15 %
in its column (percentages kept <= 100, mpstat's %idle what is left of 100), so the text
compresses about as collected text does instead of as one block repeated:

  sysstat/mpstat-P-ALL.txt, .json   128 CPUs, each row a varied copy of a real CPU row,
                                    thousands of one-second intervals
  sysstat/iostat-x.txt, .json       24 disks (varied copies of the real sda-sdc rows as sda-sdx)
  sysstat/pidstat-udw.txt, -t.txt   the real interval blocks in turn, rows varied, timestamps
  sysstat/sar-n-DEV.txt, -EDEV.txt  advancing one second a block
  sysstat/vmstat.txt                the real rows with advancing timestamps
  perf/perf-script.txt              the real samples repeated, times shifted by the span of the
                                    recording at each pass, spread over the 128 CPUs
  jvm/<pid>/thread-dump.{1,2}.txt   one per JVM and window end; the real dumps with their Java
                                    threads repeated under numbered names and new nids (a JVM
                                    with thousands of threads)
  jvm/<pid>/class-histogram.txt     a real histogram (first line: the pid)
  jvm/<pid>/gc.log                  the real unified GC log lines repeated, uptime and GC ids
                                    shifted at each pass
  jvm/<pid>/jstat-gcutil.txt        the real rows repeated, uptime advancing and the cumulative
                                    counters (YGC, YGCT, FGC, ...) carried on at each pass

Each artifact kind gets a fixed share of the size (SHARES below); the number of JVMs grows with
the size (one per 8 MB, at least 4). The manifest lists every file with its size, as the
collector writes it. The bundle is the same for the same size, seed and format (archives are
written with fixed times, owners and order).

Usage: bench/gen-mixed-bundle.py OUT --size-mb N [--seed S] [--format dir|tar.gz|zip|tar.xz]
                                     [--perf-script-mb M]
  dir      OUT is the bundle's top folder (holding manifest.tsv)
  tar.gz   OUT is an archive of the top folder `rca-benchhost-20261201T000000Z/`
           (tar | gzip -6 -n), likewise zip (deflate, level 6) and tar.xz (xz -3, one thread)
  --perf-script-mb M   perf/perf-script.txt of M MB whatever N is: one artifact larger than
           all the others together (e.g. N 16, M 2048)
"""
import argparse
import datetime
import json
import os
import random
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
S1 = os.path.join(ROOT, "sample-bundles", "s1-hadoop-vmware", "rca-dn01.example-20261130T043135Z")
HEALTHY = os.path.join(ROOT, "sample-bundles", "healthy", "rca-vm-20261130T024849Z.tar.gz")
S3 = os.path.join(ROOT, "sample-bundles", "s3-zookeeper-watches", "rca-vm-20261130T042816Z.tar.gz")
TOP = "rca-benchhost-20261201T000000Z"
HOST = "benchhost.example"
CPUS = 128
DISKS = 24
BASE_PID = 1742
FROM_HEALTHY = {"kernel/dmesg.txt", "perf/perf-record.log", "perf/perf-report-comm-dso-symbol.txt",
                "perf/perf-report-dso.txt"}

# Share of the total size per generated artifact kind (the rest is the copied small artifacts).
SHARES = {
    "perf-script": 0.22,
    "mpstat-txt": 0.09,
    "mpstat-json": 0.10,
    "iostat-txt": 0.04,
    "iostat-json": 0.05,
    "pidstat-udw": 0.07,
    "pidstat-t": 0.07,
    "sar-dev": 0.025,
    "sar-edev": 0.025,
    "vmstat": 0.01,
    "thread-dump": 0.15,
    "gc-log": 0.08,
    "jstat": 0.04,
}

T0 = datetime.datetime(2026, 12, 1, 0, 0, 0)


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def member(archive, suffix):
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            if m.name.endswith(suffix):
                return t.extractfile(m).read().decode("utf-8", "surrogateescape")
    raise SystemExit(f"{archive}: no member ending in {suffix}")


class Out:
    """A file written in pieces until it holds at least `limit` characters."""

    def __init__(self, path, limit):
        self.f = open(path, "w", encoding="utf-8", errors="surrogateescape")
        self.n = 0
        self.limit = limit

    def write(self, s):
        self.f.write(s)
        self.n += len(s)

    def full(self):
        return self.n >= self.limit

    def close(self):
        self.f.close()


# ---- sysstat text: header line, blank, blocks separated by blank lines, Average blocks ----

def sysstat_blocks(text):
    lines = text.split("\n")
    first = lines[0]
    blocks, avg, cur = [], [], []
    for line in lines[2:]:
        if line == "":
            if cur:
                (avg if cur[0].startswith("Average:") else blocks).append(cur)
            cur = []
        else:
            cur.append(line)
    if cur:
        (avg if cur[0].startswith("Average:") else blocks).append(cur)
    return first, blocks, avg


def hms(t):
    s = int(t) % 86400
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


NUM = re.compile(r" *\d+\.\d+")
POOL = 16  # varied copies made of each real row


def vary(line, start, stop, pct_ends, rng, spread=0.15):
    """`line` with each decimal number between `start` and `stop` scaled by a random factor within
    +-spread, in its column (right-aligned, same decimals); numbers ending where a `%` column's
    header ends stay <= 100."""
    out, pos = [line[:start]], start
    for m in NUM.finditer(line, start, stop):
        tok = m.group()
        d = len(tok) - tok.index(".") - 1
        x = float(tok) * (1 + rng.uniform(-spread, spread))
        if m.end() in pct_ends:
            x = min(x, 100.0)
        out.append(line[pos:m.start()])
        out.append(f"{x:{len(tok)}.{d}f}")
        pos = m.end()
    out.append(line[pos:])
    return "".join(out)


def pct_ends(header):
    return {m.end() for m in re.finditer(r"\S+", header) if m.group().startswith("%")}


def vary_cpu(vals, rng):
    """mpstat's usr nice sys iowait irq soft steal guest gnice idle: the busy shares varied, idle
    what is left of 100."""
    v = [x * (1 + rng.uniform(-0.15, 0.15)) for x in vals]
    busy = sum(v[:7])
    if busy > 100:
        v = [x * 100 / busy for x in v]
        busy = 100.0
    v[9] = max(0.0, 100.0 - busy)
    return v


class Varied:
    """POOL varied copies of each real row, made once; `pick` takes one at random."""

    def __init__(self, rows, make, rng):
        self.pool = [[make(r, rng) for _ in range(POOL)] for r in rows]
        self.rng = rng

    def pick(self, i):
        return self.pool[i][self.rng.randrange(POOL)]


def mpstat_expander(blocks, rng):
    """mpstat rows of `all` and CPUs 0-7 -> `all` and CPUs 0-127, each CPU's row a varied copy of
    a real CPU row of any interval."""
    real = [r for b in blocks for r in b[1:] if r[8:16].strip() != "all"]

    def make(r, rng):
        v = vary_cpu([float(x) for x in r[16:].split()], rng)
        return "".join(f"{x:8.2f}" for x in v)

    pool = Varied(real, make, rng)

    def expand(rows, prefix):
        out = [prefix + rows[0][8:]]
        for c in range(CPUS):
            out.append(prefix + f"{c:>8}" + pool.pick(rng.randrange(len(real))))
        return out

    return expand


def gen_sysstat(src, path, limit, rng, cpus=False):
    """A sysstat report (mpstat, pidstat, sar) grown to `limit` characters: the real interval
    blocks in turn, one second apart, each row a varied copy (a pidstat Command column is kept)."""
    first, blocks, avg = sysstat_blocks(src)
    first = first.replace("(dn01.example)", f"({HOST})").replace("2026-11-30", T0.strftime("%Y-%m-%d"))
    first = re.sub(r"\(\d+ CPU\)", f"({CPUS} CPU)", first)
    expand = mpstat_expander(blocks, rng) if cpus else None
    varied = []
    for b in blocks:
        ends = pct_ends(b[0])
        stop = b[0].find("Command")

        def make(r, rng, ends=ends, stop=stop):
            return vary(r, 8, stop if stop > 0 else len(r), ends, rng)[8:]

        varied.append(Varied(b[1:], make, rng))
    out = Out(path, limit)
    out.write(first + "\n\n")
    k = 0
    while not out.full():
        i = k % len(blocks)
        b = blocks[i]
        head = hms(k) + b[0][8:]
        ts = hms(k + 1)
        if expand:
            rows = expand(b[1:], ts)
        else:
            rows = [ts + varied[i].pick(j) for j in range(len(b) - 1)]
        out.write(head + "\n" + "\n".join(rows) + "\n\n")
        k += 1
    for b in avg:
        rows = expand(b[1:], "Average:") if expand else b[1:]
        out.write(b[0] + "\n" + "\n".join(rows) + "\n\n")
    out.close()
    return k


# ---- sysstat JSON (the layout sysstat prints: tabs, one object per line, %.2f numbers) ----

def jobj(d):
    parts = []
    for key, v in d.items():
        if isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool)):
            parts.append(f'"{key}": {v:.2f}')
        else:
            parts.append(f'"{key}": {json.dumps(v)}')
    return "{" + ", ".join(parts) + "}"


def json_head(src):
    head = src[: src.index('"statistics": [') + len('"statistics": [')] + "\n"
    head = head.replace("dn01.example", HOST).replace('"2026-11-30"', f'"{T0:%Y-%m-%d}"')
    return re.sub(r'"number-of-cpus": \d+', f'"number-of-cpus": {CPUS}', head)


JSON_TAIL = "\n\t\t\t]\n\t\t}\n\t]\n}}\n"


def gen_mpstat_json(src, path, limit, rng):
    stats = json.loads(src)["sysstat"]["hosts"][0]["statistics"]
    step = 1
    out = Out(path, limit)
    out.write(json_head(src))
    k = 0
    keys = ["usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest", "gnice", "idle"]
    real = [r for st in stats for r in st["cpu-load"] if r["cpu"] != "all"]

    def make(r, rng):
        return dict(zip(keys, vary_cpu([r[k] for k in keys], rng)))

    pool = Varied(real, make, rng)
    while not out.full():
        loads = stats[k % len(stats)]["cpu-load"]
        rows = [loads[0]] + [dict(cpu=str(c), **pool.pick(rng.randrange(len(real)))) for c in range(CPUS)]
        body = ",\n".join("\t\t\t\t\t\t" + jobj(r) for r in rows)
        out.write(("" if k == 0 else ",\n") + "\t\t\t\t{\n"
                  f'\t\t\t\t\t"timestamp": "{hms((k + 1) * step)}",\n'
                  '\t\t\t\t\t"cpu-load": [\n' + body + "\n\t\t\t\t\t]\n\t\t\t\t}")
        k += 1
    out.write(JSON_TAIL)
    out.close()


def disk_name(i):
    return "sd" + chr(ord("a") + i)


PCT_KEYS = {"util", "rrqm", "wrqm", "drqm"}


def vary_dict(d, rng):
    out = {}
    for key, v in d.items():
        if isinstance(v, float):
            v *= 1 + rng.uniform(-0.15, 0.15)
            if key in PCT_KEYS:
                v = min(v, 100.0)
        out[key] = v
    return out


def gen_iostat_json(src, path, limit, rng):
    stats = json.loads(src)["sysstat"]["hosts"][0]["statistics"]
    real = [d for st in stats for d in st["disk"]]
    pool = Varied(real, vary_dict, rng)
    out = Out(path, limit)
    out.write(json_head(src))
    k = 0
    while not out.full():
        st = stats[k % len(stats)]
        per = len(st["disk"])
        base = (k % len(stats)) * per
        rows = [dict(pool.pick(base + i % per), disk_device=disk_name(i)) for i in range(DISKS)]
        body = ",\n".join("\t\t\t\t\t\t" + jobj(r) for r in rows)
        out.write(("" if k == 0 else ",\n") + "\t\t\t\t{\n"
                  '\t\t\t\t\t"avg-cpu":  ' + jobj(st["avg-cpu"]) + ",\n"
                  '\t\t\t\t\t"disk": [\n' + body + "\n\t\t\t\t\t]\n\t\t\t\t}")
        k += 1
    out.write(JSON_TAIL)
    out.close()


def gen_iostat_txt(src, path, limit, rng):
    first, rest = src.split("\n", 1)
    first = first.replace("(dn01.example)", f"({HOST})").replace("2026-11-30", f"{T0:%Y-%m-%d}")
    first = re.sub(r"\(\d+ CPU\)", f"({CPUS} CPU)", first)
    chunks = re.split(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000\n", rest, flags=re.M)[1:]
    parsed = []
    for c in chunks:
        lines = c.rstrip("\n").split("\n")
        dev = next(i for i, l in enumerate(lines) if l.startswith("Device"))
        ends = pct_ends(lines[dev])
        parsed.append((lines[: dev + 1],
                       Varied(lines[dev + 1:], lambda r, rng, e=ends: vary(r, 3, len(r), e, rng), rng)))
    out = Out(path, limit)
    out.write(first + "\n\n")
    k = 0
    while not out.full():
        head, rows = parsed[k % len(parsed)]
        rows = [disk_name(i) + rows.pick(i % len(rows.pool))[3:] for i in range(DISKS)]
        ts = (T0 + datetime.timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%S+0000")
        out.write(ts + "\n" + "\n".join(head + rows) + "\n\n\n")
        k += 1
    out.close()


def gen_vmstat(src, path, limit):
    """vmstat repeats its two header lines every screenful; they are repeated as they come."""
    lines = src.rstrip("\n").split("\n")
    out = Out(path, limit)
    out.write("\n".join(lines[:2]) + "\n")
    body = lines[2:]
    k = i = 0
    while not out.full():
        line = body[i % len(body)]
        i += 1
        if not line[:1] == " " or not line.strip()[:1].isdigit():
            out.write(line + "\n")
            continue
        ts = (T0 + datetime.timedelta(seconds=k)).strftime("%Y-%m-%d %H:%M:%S")
        out.write(line[:-19] + ts + "\n")
        k += 1
    out.close()


# ---- perf script: samples separated by blank lines ----

PERF_HEAD = re.compile(r"^(.*?) \[(\d{3})\]( +)(\d+)\.(\d{6}):")


def gen_perf_script(src, path, limit, rng):
    samples = [s for s in src.split("\n\n") if s.strip()]
    times = [int(m.group(4)) * 10**6 + int(m.group(5)) for s in samples
             if (m := PERF_HEAD.match(s))]
    span = max(times) - min(times) + 10101
    out = Out(path, limit)
    rep = 0
    while not out.full():
        buf = []
        for s in samples:
            m = PERF_HEAD.match(s)
            if m:
                us = int(m.group(4)) * 10**6 + int(m.group(5)) + rep * span
                stamp = f"{us // 10**6}.{us % 10**6:06d}"
                stamp = stamp.rjust(len(m.group(3)) + len(m.group(4)) + 7)
                s = f"{m.group(1)} [{rng.randrange(CPUS):03d}]{stamp}:" + s[m.end():]
            buf.append(s)
        out.write("\n\n".join(buf) + "\n\n")
        rep += 1
    out.close()


# ---- JVM artifacts ----

THREAD_HEAD = re.compile(r'^"([^"]*)"( #(\d+))?(.*? nid=)0x([0-9a-f]+)(.*)$', re.S)


def gen_thread_dump(src, pid, path, limit):
    parts = src.split("\n\n")
    first = parts[0].split("\n", 1)
    parts[0] = f"{pid}:\n" + first[1]
    java = [i for i, p in enumerate(parts) if p.startswith('"') and " #" in p.split("\n")[0]]
    body = "\n\n".join(parts)
    extra, k = [], 1
    size = len(body)
    while size < limit and java:
        for i in java:
            m = THREAD_HEAD.match(parts[i])
            if not m:
                continue
            num = int(m.group(3)) + 1000 * k
            nid = int(m.group(5), 16) + 0x10000 * k
            t = f'"{m.group(1)}-{k}" #{num}{m.group(4)}0x{nid:x}{m.group(6)}'
            extra.append(t)
            size += len(t) + 2
        k += 1
    if extra:
        at = java[-1] + 1
        parts = parts[:at] + extra + parts[at:]
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n\n".join(parts))


GC_LINE = re.compile(r"^\[(\d+)\.(\d{3})s\](.*?)(GC\((\d+)\))?(.*)$")


def gen_gc_log(src, path, limit):
    lines = src.rstrip("\n").split("\n")
    whole = [l for l in lines if GC_LINE.match(l)]
    ms = [int(m.group(1)) * 1000 + int(m.group(2)) for l in whole if (m := GC_LINE.match(l))]
    ids = [int(m.group(5)) for l in whole if (m := GC_LINE.match(l)) and m.group(5)]
    span = max(ms) - min(ms) + 1000
    idspan = (max(ids) - min(ids) + 1) if ids else 0
    out = Out(path, limit)
    out.write(src if src.endswith("\n") else src + "\n")
    rep = 1
    while not out.full():
        buf = []
        for l in whole:
            m = GC_LINE.match(l)
            t = int(m.group(1)) * 1000 + int(m.group(2)) + rep * span
            gc = f"GC({int(m.group(5)) + rep * idspan})" if m.group(5) else ""
            buf.append(f"[{t // 1000}.{t % 1000:03d}s]{m.group(3)}{gc}{m.group(6)}")
        out.write("\n".join(buf) + "\n")
        rep += 1
    out.close()


CUMULATIVE = {"YGC", "YGCT", "FGC", "FGCT", "CGC", "CGCT", "GCT"}


def gen_jstat(src, path, limit):
    lines = src.rstrip("\n").split("\n")
    head, rows = lines[0], lines[1:]
    names = head.split()
    ends = [m.end() for m in re.finditer(r"\S+", rows[0])]
    vals = [r.split() for r in rows]
    first = [float(v) for v in vals[0]]
    last = [float(v) for v in vals[-1]]
    decimals = [len(v.split(".")[1]) if "." in v else 0 for v in vals[0]]
    out = Out(path, limit)
    out.write(head + "\n")
    k = 0
    while not out.full():
        rep, i = divmod(k, len(vals))
        line = ""
        for c, v in enumerate(vals[i]):
            x = float(v)
            if c == 0:
                x = first[0] + k
            elif names[c] in CUMULATIVE:
                x += rep * (last[c] - first[c] + (1 if decimals[c] == 0 else 0))
            s = f"{x:.{decimals[c]}f}"
            line += s.rjust(max(ends[c] - len(line), len(s) + 1))
        out.write(line + "\n")
        k += 1
    out.close()


# ---- manifest ----

def manifest_records(path):
    return manifest_records_text(read(path))


def manifest_records_text(text):
    meta, arts = [], []
    for line in text.split("\n"):
        f = line.split("\t")
        if f[0] == "meta":
            meta.append(f)
        elif f[0] == "artifact":
            arts.append(f)
    return meta, arts


def build(top, size_mb, seed, perf_mb=None):
    rng = random.Random(seed)
    total = size_mb * 1_000_000
    meta, arts = manifest_records(os.path.join(S1, "manifest.tsv"))
    sysstat = {n: read(os.path.join(S1, "sysstat", n)) for n in os.listdir(os.path.join(S1, "sysstat"))}
    jvm_files = sorted(os.listdir(os.path.join(S1, "jvm", str(BASE_PID))))
    dumps = [read(os.path.join(S1, "jvm", str(BASE_PID), f"thread-dump.{i}.txt")) for i in (1, 2)]
    gc_logs = [read(os.path.join(S1, "jvm", str(BASE_PID), "gc.log")), member(S3, "/gc.log")]
    histograms = [read(os.path.join(S1, "jvm", str(BASE_PID), "class-histogram.txt")),
                  member(S3, "/class-histogram.txt")]
    perf = member(HEALTHY, "perf/perf-script.txt")
    # From the healthy bundle (collected as root, with perf): its dmesg and perf outputs, with
    # their manifest records, in place of the base's skipped ones.
    with tarfile.open(HEALTHY) as t:
        _, harts = manifest_records_text(t.extractfile(
            next(m for m in t.getmembers() if m.name.endswith("/manifest.tsv"))).read().decode())
        from_healthy = {a[1]: a for a in harts if a[1] in FROM_HEALTHY}
        healthy_text = {}
        for m in t.getmembers():
            rel = m.name.split("/", 1)[-1]
            if rel in FROM_HEALTHY:
                healthy_text[rel] = t.extractfile(m).read()
    jstat = read(os.path.join(S1, "jvm", str(BASE_PID), "jstat-gcutil.txt"))
    n_jvms = max(4, size_mb // 8)
    pids = [BASE_PID + 1000 * i for i in range(n_jvms)]

    # Copy the base bundle's files (all but the JVM folder, which is made per JVM below).
    for dirpath, _, files in os.walk(S1):
        rel = os.path.relpath(dirpath, S1)
        if rel.split(os.sep)[0] == "jvm" and rel != "jvm":
            continue
        os.makedirs(os.path.join(top, rel), exist_ok=True)
        for f in files:
            if f != "manifest.tsv":
                shutil.copyfile(os.path.join(dirpath, f), os.path.join(top, rel, f))

    share = {k: int(v * total) for k, v in SHARES.items()}
    if perf_mb:
        share["perf-script"] = perf_mb * 1_000_000
    ss = os.path.join(top, "sysstat")
    gen_sysstat(sysstat["mpstat-P-ALL.txt"], os.path.join(ss, "mpstat-P-ALL.txt"), share["mpstat-txt"], rng, cpus=True)
    gen_mpstat_json(sysstat["mpstat-P-ALL.json"], os.path.join(ss, "mpstat-P-ALL.json"), share["mpstat-json"], rng)
    gen_iostat_txt(sysstat["iostat-x.txt"], os.path.join(ss, "iostat-x.txt"), share["iostat-txt"], rng)
    gen_iostat_json(sysstat["iostat-x.json"], os.path.join(ss, "iostat-x.json"), share["iostat-json"], rng)
    for name, key in (("pidstat-udw.txt", "pidstat-udw"), ("pidstat-t.txt", "pidstat-t"),
                      ("sar-n-DEV.txt", "sar-dev"), ("sar-n-EDEV.txt", "sar-edev")):
        gen_sysstat(sysstat[name], os.path.join(ss, name), share[key], rng)
    gen_vmstat(sysstat["vmstat.txt"], os.path.join(ss, "vmstat.txt"), share["vmstat"])
    os.makedirs(os.path.join(top, "perf"), exist_ok=True)
    for rel, data in healthy_text.items():
        with open(os.path.join(top, rel), "wb") as f:
            f.write(data)
    gen_perf_script(perf, os.path.join(top, "perf", "perf-script.txt"), share["perf-script"], rng)

    for j, pid in enumerate(pids):
        d = os.path.join(top, "jvm", str(pid))
        os.makedirs(d, exist_ok=True)
        for f in jvm_files:
            shutil.copyfile(os.path.join(S1, "jvm", str(BASE_PID), f), os.path.join(d, f))
        for i in (1, 2):
            gen_thread_dump(dumps[i - 1], pid, os.path.join(d, f"thread-dump.{i}.txt"),
                            share["thread-dump"] // (2 * n_jvms))
        gen_gc_log(gc_logs[j % 2], os.path.join(d, "gc.log"), share["gc-log"] // n_jvms)
        gen_jstat(jstat, os.path.join(d, "jstat-gcutil.txt"), share["jstat"] // n_jvms)
        with open(os.path.join(d, "class-histogram.txt"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(f"{pid}:\n" + histograms[j % 2].split("\n", 1)[1])

    # The manifest: the base's records, JVM records once per JVM, perf script and the class
    # histogram added, every size as stored.
    out_arts = []
    for a in arts:
        if a[1].startswith(f"jvm/{BASE_PID}/"):
            if a[1].endswith("thread-dump.2.txt"):
                continue
            for pid in pids:
                for rel in ([a[1]] + ([a[1].replace(".1.", ".2.")] if "thread-dump.1" in a[1] else [])):
                    b = list(a)
                    b[1] = rel.replace(f"jvm/{BASE_PID}/", f"jvm/{pid}/")
                    b[10] = b[10].replace(str(BASE_PID), str(pid))
                    out_arts.append(b)
            continue
        if a[1] == "perf/perf-script.txt":
            a = ["artifact", "perf/perf-script.txt", "perf-script", "0", "0", "1796013127.20",
                 "1796013128.90", "0", "0", "", "perf script -i perf.data"]
        out_arts.append(from_healthy.get(a[1], a))
    for a in out_arts:
        p = os.path.join(top, a[1])
        if os.path.isfile(p):
            a[7] = str(os.path.getsize(p))
            a[8] = "0"
            a[9] = "" if a[9].startswith("truncated") else a[9]
    caps = {"max_bytes": "4000000000", "max_artifact_bytes": "4000000000",
            "max_log_bytes": "1000000000", "max_thread_dump_bytes": "1000000000",
            "max_perf_script_bytes": "4000000000"}
    with open(os.path.join(top, "manifest.tsv"), "w", encoding="utf-8") as f:
        f.write("# rca-manifest 1\n")
        for m in meta:
            key = m[1]
            val = m[2] if len(m) > 2 else ""
            val = {"hostname": HOST, "pids": " ".join(map(str, pids)), "jvms": " ".join(map(str, pids)),
                   "perf": "recorded", "label": "mixed-bench",
                   "options": f"--duration 86400 --interval 1 --pid {','.join(map(str, pids))} --label mixed-bench"}.get(key, val)
            val = caps.get(key, val)
            f.write(f"meta\t{key}\t{val}\n")
        for a in out_arts:
            f.write("\t".join(a) + "\n")


def archive(top, fmt, out):
    """Packs the bundle folder `top` as `fmt` into `out`, under the top folder name TOP."""
    names = []
    for dirpath, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            names.append(os.path.relpath(os.path.join(dirpath, f), top))
    if fmt == "zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            for n in names:
                zi = zipfile.ZipInfo(f"{TOP}/{n}", date_time=(2026, 12, 1, 0, 0, 0))
                zi.compress_type = zipfile.ZIP_DEFLATED
                zi.external_attr = 0o644 << 16
                with open(os.path.join(top, n), "rb") as src, z.open(zi, "w", force_zip64=True) as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
        return
    base = os.path.basename(os.path.normpath(top))
    tar = ["tar", "--sort=name", "--mtime=@1796083200", "--owner=0", "--group=0",
           "--numeric-owner", f"--transform=s,^{re.escape(base)},{TOP},", "-C",
           os.path.dirname(os.path.abspath(top)), "-cf", "-", base]
    comp = ["gzip", "-6", "-n"] if fmt == "tar.gz" else ["xz", "-3", "-T1"]
    with open(out, "wb") as f:
        t = subprocess.Popen(tar, stdout=subprocess.PIPE)
        c = subprocess.Popen(comp, stdin=t.stdout, stdout=f)
        t.stdout.close()
        if c.wait() != 0 or t.wait() != 0:
            raise SystemExit(f"archiving {out} failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size-mb", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--format", choices=["dir", "tar.gz", "zip", "tar.xz"], default="dir")
    ap.add_argument("--perf-script-mb", type=int,
                    help="make perf/perf-script.txt this many MB instead of its share of the size "
                         "(a single artifact larger than the rest of the bundle)")
    a = ap.parse_args()
    if a.size_mb < 4:
        ap.error("--size-mb must be at least 4")
    if os.path.exists(a.out):
        ap.error(f"{a.out} exists")
    if a.format == "dir":
        tmp = a.out + ".part"
        shutil.rmtree(tmp, ignore_errors=True)
        build(tmp, a.size_mb, a.seed, a.perf_script_mb)
        os.rename(tmp, a.out)
        return
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(a.out))) as tmp:
        build(os.path.join(tmp, TOP), a.size_mb, a.seed, a.perf_script_mb)
        archive(os.path.join(tmp, TOP), a.format, a.out + ".part")
        os.rename(a.out + ".part", a.out)


if __name__ == "__main__":
    main()
