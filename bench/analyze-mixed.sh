#!/bin/sh
# The realistic benchmark of `rca analyze`: a large mixed bundle in the collector's layout
# (bench/gen-mixed-bundle.py: perf script, thread dumps, class histograms, GC logs, jstat, sysstat
# text and JSON with 128 CPUs and thousands of intervals, /proc snapshots, kernel log), read as
# .tar.gz, .zip, folder and .tar.xz, against the decompressors alone. Prints medians of RUNS runs
# (default 5; each command's wall time, CPU time user+sys and peak RSS, measured by
# bench/measure.py in a process of its own so the RSS is that command's):
#   - `gzip -dc` vs `rca analyze` of the same .tar.gz: wall times and their ratio (target <= 1.0),
#   - rca's CPU / wall (how much of the second core it uses),
#   - rca's peak RSS vs the largest artifact (target: 1.5 x largest + 256 MiB),
#   - MB/s of text (uncompressed bytes of the bundle's files) for .tar.gz, .zip and the folder,
#   - `xz -dc` vs `rca analyze` of the .tar.xz (target <= 1.3),
#   - a scaling table of the .tar.gz at 1/4, 1/2 and 1 x SIZE_MB: wall, CPU and peak RSS, and
#     both per MB (a straight line keeps them flat);
# and with the options:
#   --sos    a sosreport-like folder of 100 000 small files (bench/gen-sos-tree.py), and 25 000
#            and 50 000 for its scaling,
#   --big    a bundle holding one 2 GiB artifact (a 2048 MB perf script in a 16 MB mixed
#            bundle, as .tar.gz), and 512 and 1024 MB for its scaling.
#
# Usage: bench/analyze-mixed.sh [--sos [--sos-files N]] [--big [--big-mb M]] [--runs N] [SIZE_MB]
#   (SIZE_MB default 1024; N default 100 000 files, M default 2048 MB)
# BENCH_DATA=DIR keeps the generated bundles in DIR (mixed-<N>m, mixed-<N>m.tar.gz, .zip,
# .tar.xz, ...) and reuses those already there; without it they go to a temporary folder,
# removed at the end. Builds rca in release mode first (CARGO_TARGET_DIR is honoured); RCA=PATH
# uses that binary instead. Needs python3, gzip, xz, tar.
#
# `rca analyze` runs as an analyst runs it: `-q --json FILE -o FILE.html` (the page is rendered),
# with --max-entry-size and --max-total-size raised so the 2 GiB cases are read. Its exit status
# must be 0 or 1 (findings); 2 stops the benchmark.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${RCA:-}" ]; then
  (cd "$here" && cargo build --release -q -p rca) || exit 1
  RCA="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi
export RCA
exec python3 - "$here" "$@" <<'PY'
import argparse, importlib.util, json, os, shutil, statistics, subprocess, sys, tempfile

here = sys.argv[1]
ap = argparse.ArgumentParser(prog="bench/analyze-mixed.sh")
ap.add_argument("size_mb", nargs="?", type=int, default=1024)
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--sos", action="store_true", help="also a folder of 100 000 small files")
ap.add_argument("--sos-files", type=int, default=100_000, help="files of the --sos folder")
ap.add_argument("--big", action="store_true", help="also a bundle with one 2 GiB artifact")
ap.add_argument("--big-mb", type=int, default=2048, help="MB of the --big artifact")
a = ap.parse_args(sys.argv[2:])
rca = os.environ["RCA"]
spec = importlib.util.spec_from_file_location("gen", os.path.join(here, "bench", "gen-mixed-bundle.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
keep = os.environ.get("BENCH_DATA")
data = keep or tempfile.mkdtemp(prefix="rca-mixed.", dir=os.environ.get("TMPDIR"))
os.makedirs(data, exist_ok=True)
work = tempfile.mkdtemp(prefix="rca-mixed-out.", dir=os.environ.get("TMPDIR"))
MiB = 2**20
RCA_ARGS = ["--max-entry-size", "4G", "--max-total-size", "8G"]


def say(*x):
    print(*x, flush=True)


def bundle(mb, fmt, perf_mb=None):
    """The bundle of `mb` MB in `fmt` under `data`, generated once (folder first, archives from it)."""
    name = f"mixed-{mb}m" + (f"-perf{perf_mb}m" if perf_mb else "")
    folder = os.path.join(data, name)
    if not os.path.isdir(folder):
        say(f"generating {folder} ...")
        gen.build(folder + ".part", mb, 1, perf_mb)
        os.rename(folder + ".part", folder)
    if fmt == "dir":
        return folder
    out = folder + "." + fmt
    if not os.path.exists(out):
        say(f"packing {out} ...")
        gen.archive(folder, fmt, out + ".part")
        os.rename(out + ".part", out)
    return out


def text_bytes(folder):
    total = largest = 0
    for d, _, files in os.walk(folder):
        for f in files:
            n = os.path.getsize(os.path.join(d, f))
            total += n
            largest = max(largest, n)
    return total, largest


def measure(argv):
    """(wall s, cpu s, peak RSS KiB, exit) of one run, in a fresh process so the RSS is argv's."""
    code = ("import json, sys; sys.dont_write_bytecode = True; sys.path.insert(0, sys.argv[1]); import measure; "
            "print(json.dumps(measure.run(sys.argv[2:])))")
    out = subprocess.run([sys.executable, "-c", code, os.path.join(here, "bench")] + argv,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def analyze_argv(path):
    return [rca, "analyze", "-q", "--json", os.path.join(work, "out.json"),
            "-o", os.path.join(work, "out.html")] + RCA_ARGS + [path]


def medians(pairs):
    """Runs each (label, argv) in turn, RUNS rounds interleaved; medians per label."""
    got = {label: [] for label, _ in pairs}
    for _ in range(a.runs):
        for label, argv in pairs:
            wall, cpu, rss, code = measure(argv)
            if label.startswith("rca") and code not in (0, 1):
                sys.exit(f"{' '.join(argv)}: exit {code}")
            got[label].append((wall, cpu, rss))
    med = {}
    for label, runs in got.items():
        med[label] = tuple(statistics.median(r[i] for r in runs) for i in range(3))
    return med, got


def check_outcomes():
    d = json.load(open(os.path.join(work, "out.json")))
    bad = [f"{x['path']} ({x['kind']}: {x['outcome']['status']})" for x in d["artifacts"]
           if x["outcome"]["status"] in ("partial", "unusable") or x.get("issues")]
    return d["outcome_counts"], bad


def line(label, m, mb=None):
    wall, cpu, rss = m
    s = f"  {label:<22} {wall:7.2f} s wall {cpu:7.2f} s CPU  CPU/wall {cpu / wall:4.2f}  peak RSS {rss / 1024:7.0f} MiB"
    if mb:
        s += f"  {mb / wall:6.1f} MB/s ({mb / cpu:5.0f} MB per CPU-s)"
    say(s)


try:
    say(f"rca: {rca}\ncores: {os.cpu_count()}, runs: {a.runs} (medians)")
    size = a.size_mb
    folder = bundle(size, "dir")
    raw, largest = text_bytes(folder)
    tgz = bundle(size, "tar.gz")
    say(f"\nbundle: {folder}\n  {raw / 1e6:.0f} MB of text in {sum(len(f) for _, _, f in os.walk(folder))} files, "
        f"largest artifact {largest / MiB:.0f} MiB; .tar.gz {os.path.getsize(tgz) / MiB:.0f} MiB "
        f"({raw / os.path.getsize(tgz):.1f}:1)")

    say("\n.tar.gz: gzip -dc vs rca analyze of the same file")
    med, runs = medians([("gzip -dc", ["gzip", "-dc", tgz]), ("rca analyze .tar.gz", analyze_argv(tgz))])
    counts, bad = check_outcomes()
    say(f"  artifact outcomes: {counts}" + (f"; with issues: {', '.join(bad[:10])}" if bad else "; no parse issues"))
    line("gzip -dc", med["gzip -dc"], raw / 1e6)
    line("rca analyze .tar.gz", med["rca analyze .tar.gz"], raw / 1e6)
    ratios = [r[0] / g[0] for g, r in zip(runs["gzip -dc"], runs["rca analyze .tar.gz"])]
    say(f"  rca / gzip -dc wall: {med['rca analyze .tar.gz'][0] / med['gzip -dc'][0]:.2f} (median of paired runs "
        f"{statistics.median(ratios):.2f}; target <= 1.0)")
    say(f"  rca / gzip -dc CPU time: {med['rca analyze .tar.gz'][1] / med['gzip -dc'][1]:.2f} (steadier than wall "
        f"on a loaded machine; equal CPU time on 2 cores would allow a wall ratio of 0.5 to 1)")
    rss = med["rca analyze .tar.gz"][2] * 1024
    budget = 1.5 * largest + 256 * MiB
    say(f"  peak RSS {rss / MiB:.0f} MiB = {rss / largest:.1f} x largest artifact; target 1.5 x {largest / MiB:.0f} "
        f"+ 256 = {budget / MiB:.0f} MiB ({rss / budget:.2f} of it); {rss / raw:.2f} x the text")
    scale = {size: med["rca analyze .tar.gz"]}

    say("\n.zip and folder")
    z = bundle(size, "zip")
    m2, _ = medians([("rca analyze .zip", analyze_argv(z)), ("rca analyze folder", analyze_argv(folder))])
    line("rca analyze .zip", m2["rca analyze .zip"], raw / 1e6)
    line("rca analyze folder", m2["rca analyze folder"], raw / 1e6)

    say("\n.tar.xz: xz -dc vs rca analyze of the same file")
    x = bundle(size, "tar.xz")
    m3, runs3 = medians([("xz -dc", ["xz", "-dc", x]), ("rca analyze .tar.xz", analyze_argv(x))])
    line("xz -dc", m3["xz -dc"], raw / 1e6)
    line("rca analyze .tar.xz", m3["rca analyze .tar.xz"], raw / 1e6)
    say(f"  rca / xz -dc wall: {m3['rca analyze .tar.xz'][0] / m3['xz -dc'][0]:.2f} (target <= 1.3)")
    say(f"  rca / xz -dc CPU time: {m3['rca analyze .tar.xz'][1] / m3['xz -dc'][1]:.2f}")

    def table(title, cases):
        """cases: [(label, MB of text, path, given medians or None)]"""
        say(f"\n{title}")
        say(f"  {'size':>14} {'wall s':>8} {'CPU s':>8} {'RSS MiB':>8} {'s/GB':>7} {'RSS/MB':>7}")
        m = None
        for label, mb, path, m in cases:
            if m is None:
                m = medians([("rca", analyze_argv(path))])[0]["rca"]
            wall, cpu, rss = m
            say(f"  {label:>14} {wall:8.2f} {cpu:8.2f} {rss / 1024:8.0f} {wall / mb * 1000:7.2f} {rss / 1024 / mb:7.2f}")
        return m

    cases = []
    for s in (size // 4, size // 2):
        f = bundle(s, "tar.gz")
        cases.append((f"{s} MB", text_bytes(bundle(s, "dir"))[0] / 1e6, f, None))
    cases.append((f"{size} MB", raw / 1e6, tgz, scale[size]))
    table("scaling, .tar.gz (a straight line keeps s/GB and RSS/MB flat)", cases)

    if a.sos:
        cases = []
        for n in (a.sos_files // 4, a.sos_files // 2, a.sos_files):
            tree = os.path.join(data, f"sos-{n}")
            if not os.path.isdir(tree):
                say(f"generating {tree} ...")
                subprocess.run([sys.executable, os.path.join(here, "bench", "gen-sos-tree.py"), tree + ".part", str(n)], check=True)
                os.rename(tree + ".part", tree)
            cases.append((f"{n} files", text_bytes(tree)[0] / 1e6, tree, None))
        table("sosreport-like folder of small files (bench/gen-sos-tree.py)", cases)

    if a.big:
        cases = []
        for p in (a.big_mb // 4, a.big_mb // 2, a.big_mb):
            f = bundle(16, "tar.gz", p)
            t, big = text_bytes(bundle(16, "dir", p))
            cases.append((f"perf {p} MB", t / 1e6, f, None))
        rss = table("one large artifact (perf script in a 16 MB bundle, .tar.gz)", cases)[2] * 1024
        say(f"  {big / MiB:.0f} MiB perf script: peak RSS {rss / MiB:.0f} MiB, target 1.5 x it + 256 = "
            f"{(1.5 * big + 256 * MiB) / MiB:.0f} MiB")
finally:
    shutil.rmtree(work, ignore_errors=True)
    if not keep:
        shutil.rmtree(data, ignore_errors=True)
PY
