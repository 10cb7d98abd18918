#!/bin/sh
# Throughput and memory of `rca redact` on large bundles, on one core.
#
# Two bundles of about SIZE_MB (default 1100) MB of text each:
#   - logs:      16 MiB application and system logs dense with what redaction replaces (host
#                names under the bundle's domain, IPv4 and IPv6 addresses, MACs, user home paths,
#                `key=value` secrets, JDBC URLs, bearer headers) among ordinary log text (a few
#                thousand distinct values of each class, as a site has), plus /etc/hosts,
#                /etc/passwd and hostname files that discovery reads: the worst case;
#   - collected: the collector's layout as a long collection on a big host fills it
#                (bench/gen-mixed-bundle.py: perf script, sysstat text and JSON with 128 CPUs,
#                thread dumps, histograms, GC logs, /proc): what a bundle mostly holds.
# For each, prints medians of RUNS runs (default 3), every command in a process of its own:
#   - `cat` of every file to /dev/null (the floor: reading the text once),
#   - `rca redact BUNDLE -o OUT.tar.gz --map MAP.json` pinned to one core (`taskset -c 0` when
#     present): wall and CPU time, MB/s of input text per wall second and per CPU second (two
#     passes, discovery and replacement, and the output's gzip included), peak RSS beside the
#     largest entry, which bounds it,
#   - `rca redact --verify-only` of the output.
# The product target is at least 100 MB/s of text on one core.
#
# Usage: bench/redact-throughput.sh [--runs N] [SIZE_MB]
#   Builds rca in release mode first (CARGO_TARGET_DIR is honoured); RCA=PATH uses that binary
#   instead. BENCH_DATA=DIR keeps the generated bundles in DIR (redact-logs-<N>m, mixed-<N>m)
#   and reuses those already there. Needs python3.
set -u
runs=3
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        -h|--help) sed -n '2,/^$/p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
size_mb=${1:-1100}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-redact-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if [ -n "${RCA:-}" ]; then
    rca=$RCA
else
    (cd "$here" && cargo build --release -q -p rca) || exit 1
    rca="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi

data="${BENCH_DATA:-$work}"
mkdir -p "$data"
bundle="$data/redact-logs-${size_mb}m"
collected="$data/mixed-${size_mb}m"
[ -d "$collected" ] || python3 "$here/bench/gen-mixed-bundle.py" "$collected" --size-mb "$size_mb" || exit 1
[ -d "$bundle" ] || python3 - "$bundle" "$size_mb" <<'PY' || exit 1
import os, random, sys
root, size_mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
def w(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
hosts = [f"node{i:03}.corp.bank.example" for i in range(200)]
ips = [f"10.{20 + i // 250}.{i % 250}.{1 + i % 200}" for i in range(2000)]
w("system/hostname", "node000.corp.bank.example\n")
w("etc/hosts", "127.0.0.1 localhost\n" + "".join(f"{ips[i]} {h} {h.split('.')[0]}\n" for i, h in enumerate(hosts)))
w("etc/passwd", "root:x:0:0:root:/root:/bin/bash\n" + "".join(
    f"user{i:03}:x:{1000 + i}:{1000 + i}::/home/user{i:03}:/bin/bash\n" for i in range(100)))
templates = [
    "{t} {h} sshd[{p}]: Accepted publickey for user{u:03} from {ip} port {port} ssh2",
    "{t} {h} app[{p}]: GET /api/v1/accounts?id={p} 200 12ms client={ip} upstream={h2}:8443",
    "{t} {h} kernel: [{p}.123] eth0: link up, lladdr 52:54:00:{m:02x}:{b:02x}:{c:02x}, peer fe80::{a:x}:{b:x}",
    "{t} {h} java[{p}]: connecting jdbc:postgresql://svc:pw{p}@{h2}:5432/core user.dir=/home/user{u:03}",
    "{t} {h} app[{p}]: config db.password=S3cret{p} pool.size=20 timeout=30s",
    "{t} {h} nginx[{p}]: {ip} - - \"POST /login HTTP/1.1\" 302 0 \"-\" \"Authorization: Bearer abcd{p}efgh\"",
    "{t} {h} CRON[{p}]: (root) CMD (run-parts /etc/cron.hourly) on 2a01:4f8:{m:x}:{m:x}::{c:x}",
    "{t} {h} systemd[1]: Started Session {p} of user user{u:03}.",
    "{t} {h} app[{p}]: processed batch {p} in {port} ms, queue depth {a}, heap {b} MiB, gc {c} ms",
    "{t} {h} app[{p}]: INFO  org.apache.hadoop.hdfs.server.datanode.DataNode: Receiving block blk_{p}_{port} src: /{ip}:{port}",
]
entry = 16 << 20
total = size_mb << 20
n = 0
i = 0
while n < total:
    lines = []
    size = 0
    while size < entry:
        h = hosts[rnd.randrange(200)]
        line = templates[rnd.randrange(len(templates))].format(
            t="2026-11-30T04:31:35", h=h.split(".")[0], h2=hosts[rnd.randrange(200)],
            p=rnd.randrange(1, 99999), u=rnd.randrange(100), ip=ips[rnd.randrange(2000)],
            port=rnd.randrange(1024, 65535), a=rnd.randrange(256), b=rnd.randrange(256),
            c=rnd.randrange(256), m=rnd.randrange(8))
        lines.append(line)
        size += len(line) + 1
    w(f"logs/app-{i:03}.log", "\n".join(lines) + "\n")
    n += size
    i += 1
print(f"generated {n / 2**20:.0f} MiB in {i} files of {entry >> 20} MiB")
PY

python3 - "$here/bench" "$rca" "$work" "$runs" "$bundle" "$collected" <<'PY'
import json, os, shutil, statistics, subprocess, sys
bench, rca, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []

def measure(argv):
    """(wall s, CPU s, peak RSS KiB, exit status) of argv, in a process of its own."""
    code = ("import json, sys; sys.dont_write_bytecode = True; sys.path.insert(0, sys.argv[1]); "
            "import measure; print(json.dumps(measure.run(sys.argv[2:])))")
    out = subprocess.run([sys.executable, "-c", code, bench] + argv, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)

def median_of(argv):
    rs = [measure(argv) for _ in range(runs)]
    return [statistics.median(r[k] for r in rs) for k in range(3)] + [rs[-1][3]]

print(f"cores: {os.cpu_count()}; medians of {runs} runs{'; rca pinned to one core' if pin else ''}")
for name, bundle in (("logs", sys.argv[5]), ("collected", sys.argv[6])):
    files = [os.path.join(d, f) for d, _, fs in os.walk(bundle) for f in fs]
    raw = sum(os.path.getsize(f) for f in files)
    largest = max(os.path.getsize(f) for f in files)
    print(f"{name}: {raw / 2**20:.0f} MiB of text in {len(files)} files, largest entry "
          f"{largest / 2**20:.0f} MiB")
    wall, cpu, _, _ = median_of(["sh", "-c", 'find "$0" -type f -exec cat {} + > /dev/null', bundle])
    print(f"  cat            {wall:6.2f} s wall, {cpu:6.2f} s CPU  ({raw / 1e6 / wall:.0f} MB/s)")
    out, m = os.path.join(work, "clean.tar.gz"), os.path.join(work, "map.json")
    for f in (out, m):
        if os.path.exists(f):
            os.remove(f)
    # The map is written anew by each run: every run redacts the bundle from scratch.
    argv = pin + ["sh", "-c", 'rm -f "$2" "$3"; exec "$0" redact -q "$1" -o "$2" --map "$3"',
                  rca, bundle, out, m]
    wall, cpu, rss, code = median_of(argv)
    print(f"  rca redact     {wall:6.2f} s wall, {cpu:6.2f} s CPU: {raw / 1e6 / wall:.0f} MB/s of "
          f"text, {raw / 1e6 / cpu:.0f} MB/s per CPU second; peak RSS {rss / 1024:.0f} MiB "
          f"(largest entry {largest / 2**20:.0f} MiB), exit {code}, output "
          f"{os.path.getsize(out) / 2**20:.0f} MiB")
    wall, cpu, _, code = median_of([rca, "redact", "--verify-only", out, "--map", m])
    print(f"  --verify-only  {wall:6.2f} s wall ({raw / 1e6 / wall:.0f} MB/s), exit {code}")
PY
