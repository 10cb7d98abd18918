#!/bin/sh
# The case archive's benchmark (docs/archive.md):
#   1. indexing overhead: N bundles (default 50) generated from the shipped .tar.gz samples
#      (healthy and s3-zookeeper-watches), each with its own host name and collection time,
#      analyzed by `rca analyze -q` (one process per bundle, JOBS at once) against
#      `rca index -j JOBS` of the same bundles into a new archive: wall and CPU time (user+sys),
#      medians of RUNS runs, and their ratio (target: index <= 1.1 x analyze);
#   2. the archive's size per bundle (after a WAL checkpoint), and the same bundles written as a
#      Parquet dataset (`rca index --format parquet`): wall time and size per bundle;
#   3. `rca search` and `rca similar` on an archive of ROWS synthetic bundles (default 100 000;
#      bench/gen-archive-rows.py writes the rows directly, its vocabulary taken from step 1's
#      archive, with their artifacts and labels): median wall time of RUNS runs per query, one
#      per kind of term (targets: search < 200 ms,
#      similar < 1 s). The first `similar` after the rows were written computes the feature
#      spreads it caches: timed apart.
#
# Usage: bench/archive.sh [--bundles N] [--rows ROWS] [--runs RUNS] [--jobs JOBS]
# Builds rca in release mode first (CARGO_TARGET_DIR is honoured); RCA=PATH uses that binary.
# BENCH_DATA=DIR keeps the generated bundles and archives in DIR. Needs python3.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${RCA:-}" ]; then
  (cd "$here" && cargo build --release -q -p rca) || exit 1
  RCA="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi
export RCA
exec python3 - "$here" "$@" <<'PY'
import argparse, glob, io, os, resource, shutil, statistics, subprocess, sys, tarfile, tempfile, time

here = sys.argv[1]
ap = argparse.ArgumentParser(prog="bench/archive.sh")
ap.add_argument("--bundles", type=int, default=50)
ap.add_argument("--rows", type=int, default=100_000)
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--jobs", type=int, default=2)
a = ap.parse_args(sys.argv[2:])
rca = os.environ["RCA"]
data = os.environ.get("BENCH_DATA") or tempfile.mkdtemp(prefix="rca-archive-")
keep = "BENCH_DATA" in os.environ
os.makedirs(data, exist_ok=True)

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def timed(argv_list, jobs=1):
    """Runs the commands, `jobs` at once; wall and children's CPU seconds."""
    c0, t0 = children_cpu(), time.monotonic()
    running = []
    for argv in argv_list:
        while len(running) >= jobs:
            running.pop(0).wait()
        running.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for p in running:
        p.wait()
    return time.monotonic() - t0, children_cpu() - c0

# 1. Bundles.
samples = [glob.glob(f"{here}/sample-bundles/healthy/*.tar.gz")[0],
           glob.glob(f"{here}/sample-bundles/s3-zookeeper-watches/*.tar.gz")[0]]
bdir = os.path.join(data, f"bundles-{a.bundles}")
if not os.path.isdir(bdir) or len(os.listdir(bdir)) != a.bundles:
    shutil.rmtree(bdir, ignore_errors=True)
    os.makedirs(bdir)
    for i in range(a.bundles):
        src = samples[i % len(samples)]
        host = f"host{i:04d}"
        shift = i * 6 * 3600
        out = tarfile.open(os.path.join(bdir, f"{host}.tar.gz"), "w:gz")
        with tarfile.open(src) as t:
            for m in t.getmembers():
                f = t.extractfile(m) if m.isfile() else None
                body = f.read() if f else None
                if body is not None and m.name.endswith("system/uname.txt"):
                    body = body.replace(b" vm ", f" {host} ".encode(), 1)
                if body is not None and m.name.endswith("manifest.tsv"):
                    lines = []
                    for l in body.decode().split("\n"):
                        k = l.split("\t")
                        if len(k) == 3 and k[0] == "meta" and k[1] == "hostname":
                            l = f"meta\thostname\t{host}"
                        if len(k) == 3 and k[0] == "meta" and k[1] in ("started", "ended"):
                            l = f"meta\t{k[1]}\t{float(k[2]) + shift:.6f}"
                        lines.append(l)
                    body = "\n".join(lines).encode()
                if body is not None:
                    m.size = len(body)
                    out.addfile(m, io.BytesIO(body))
                else:
                    out.addfile(m)
        out.close()
bundles = sorted(glob.glob(os.path.join(bdir, "*.tar.gz")))
total_mb = sum(os.path.getsize(b) for b in bundles) / 1e6

an, ix = [], []
db = os.path.join(data, "index.db")
for r in range(a.runs):
    an.append(timed([[rca, "analyze", "-q", b] for b in bundles], a.jobs))
    for f in glob.glob(db + "*"):
        os.remove(f)
    ix.append(timed([[rca, "index", "-q", "-j", str(a.jobs), "--db", db, bdir]]))
med = lambda v, i: statistics.median(x[i] for x in v)
print(f"{len(bundles)} bundles ({total_mb:.1f} MB compressed), {a.jobs} at once, medians of {a.runs} runs")
print(f"  rca analyze -q, one process per bundle: wall {med(an,0):.2f} s, CPU {med(an,1):.2f} s")
print(f"  rca index -j {a.jobs}:                      wall {med(ix,0):.2f} s, CPU {med(ix,1):.2f} s")
print(f"  index / analyze: wall {med(ix,0)/med(an,0):.3f}, CPU {med(ix,1)/med(an,1):.3f} (target <= 1.1)")
subprocess.run(["python3", "-c", f"import sqlite3; sqlite3.connect({db!r}).execute('PRAGMA wal_checkpoint(TRUNCATE)')"], check=True)
size = sum(os.path.getsize(f) for f in glob.glob(db + "*"))
print(f"  archive: {size/1e6:.2f} MB, {size/len(bundles)/1e3:.1f} kB per bundle")
pq = os.path.join(data, "parquet")
shutil.rmtree(pq, ignore_errors=True)
wall, cpu = timed([[rca, "index", "-q", "-j", str(a.jobs), "--format", "parquet", "--out", pq, bdir]])
files = [os.path.join(r, f) for r, _, fs in os.walk(pq) for f in fs if f.endswith(".parquet")]
size = sum(os.path.getsize(f) for f in files)
print(f"  parquet dataset: {len(files)} part files, {size/1e6:.2f} MB, {size/len(bundles)/1e3:.1f} kB per bundle"
      f" (index --format parquet: wall {wall:.2f} s, CPU {cpu:.2f} s)")

# 3. Synthetic rows.
big = os.path.join(data, f"rows-{a.rows}.db")
if not os.path.exists(big):
    subprocess.run([rca, "search", "--db", big, "host:none"], stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    subprocess.run(["python3", f"{here}/bench/gen-archive-rows.py", big, db, str(a.rows)], check=True)
    print(f"  {a.rows} synthetic rows written in {time.monotonic()-t0:.1f} s")
size = os.path.getsize(big)
print(f"synthetic archive: {a.rows} bundles, {size/1e6:.0f} MB, {size/a.rows/1e3:.1f} kB per bundle")
import sqlite3
c = sqlite3.connect(big)
rule, = c.execute("SELECT rule FROM findings GROUP BY rule ORDER BY count(*) LIMIT 1").fetchone()
fact, = c.execute("SELECT name FROM features WHERE num IS NOT NULL LIMIT 1").fetchone()
probe, = c.execute("SELECT hash FROM bundles WHERE id = 4242").fetchone()
kind, = c.execute("SELECT kind FROM artifacts WHERE bundle_id = 4242 AND kind IS NOT NULL LIMIT 1").fetchone()
c.close()
def once(argv):
    t0 = time.monotonic()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.exit(f"{argv}: {p.stderr.decode()}")
    return time.monotonic() - t0
queries = [f"rule:{rule}", f"rule:{rule.split('.')[0]}.* severity:>=warning host:db1*",
           "since:2026-03-01 until:2026-03-31 severity:critical",
           f'fact:"{fact}">1', "host:web0042", "label:customer-07", "artifact:unusable",
           f"kind:{kind}", f"kind:{kind} artifact:partial"]
first = once([rca, "similar", probe[:12], "--db", big, "-k", "10"])
print(f"  similar, first after writing (computes the spread cache): {first*1000:.0f} ms")
for q in queries:
    t = [once([rca, "search", "--db", big, q]) for _ in range(max(a.runs, 5))]
    print(f"  search {q!r}: median {statistics.median(t)*1000:.0f} ms (target < 200)")
t = [once([rca, "similar", probe[:12], "--db", big, "-k", "10"]) for _ in range(max(a.runs, 5))]
print(f"  similar -k 10: median {statistics.median(t)*1000:.0f} ms (target < 1000)")
if not keep:
    shutil.rmtree(data)
PY
