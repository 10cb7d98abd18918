#!/bin/sh
# Throughput and memory of `rca redact` on a large bundle, on one core.
#
# Generates a bundle folder of about SIZE_MB (default 1100) MB of text: 16 MiB application and
# system logs dense with what redaction replaces (host names under the bundle's domain, IPv4 and
# IPv6 addresses, MACs, user home paths, `key=value` secrets, JDBC URLs, bearer headers) among
# ordinary log text (a few thousand distinct values of each class, as a site has), plus /etc/hosts, /etc/passwd and hostname files that discovery reads. Then
# prints, from the same run:
#   - `cat` of every file to /dev/null (the floor: reading the text once),
#   - `rca redact BUNDLE -o OUT.tar.gz --map MAP.json` pinned to one core (`taskset -c 0` when
#     present): wall and CPU time, MB/s of input text (two passes: discovery and replacement,
#     output gzip included), peak RSS,
#   - the largest entry, which bounds the memory: peak RSS stays a small multiple of it.
# The product target is at least 100 MB/s of text on one core. Measured (537 MB, 32 entries of
# 16 MiB, 307 014 distinct MACs among about 312 000 distinct values, 2-core VM under other load, so CPU
# time rather than wall): 11.5 s CPU = 47 MB/s of text per CPU second, peak RSS 248 MiB. Where the
# time went before the last changes (perf, 64 MiB run): secret rules 33 % (13 % after), the
# Aho-Corasick replacement pass 30 %, discovery's regexes 17 % (the largest share now), gzip 6-10 %.
#
# Usage: bench/redact-throughput.sh [SIZE_MB]   (builds rca in release mode first)
# Set KEEP_BUNDLE=DIR to keep the generated bundle folder. Needs python3.
set -u
size_mb=${1:-1100}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-redact-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

(cd "$here" && cargo build --release -q -p rca) || exit 1
rca="$here/target/release/rca"
[ -n "${CARGO_TARGET_DIR:-}" ] && rca="$CARGO_TARGET_DIR/release/rca"

bundle="${KEEP_BUNDLE:-$work/bundle}"
python3 - "$bundle" "$size_mb" <<'PY'
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

PYTHONPATH="$here/bench" python3 - "$rca" "$bundle" "$work" <<'PY'
import os, shutil, sys
from measure import run
rca, bundle, work = sys.argv[1:]
files = [os.path.join(d, f) for d, _, fs in os.walk(bundle) for f in fs]
raw = sum(os.path.getsize(f) for f in files)
largest = max(os.path.getsize(f) for f in files)
pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
print(f"cores: {os.cpu_count()}; bundle: {raw / 2**20:.0f} MiB of text in {len(files)} files, "
      f"largest entry {largest / 2**20:.0f} MiB")
wall, cpu, _, _ = run(["sh", "-c", 'find "$0" -type f -exec cat {} + > /dev/null', bundle])
print(f"  cat          {wall:6.2f} s wall, {cpu:6.2f} s CPU  ({raw / 1e6 / wall:.0f} MB/s)")
out, m = os.path.join(work, "clean.tar.gz"), os.path.join(work, "map.json")
wall, cpu, rss, code = run(pin + [rca, "redact", "-q", bundle, "-o", out, "--map", m])
print(f"  rca redact   {wall:6.2f} s wall, {cpu:6.2f} s CPU  ({raw / 1e6 / wall:.0f} MB/s of text"
      f"{', one core' if pin else ''}), peak RSS {rss / 1024:.0f} MiB, exit {code}, "
      f"output {os.path.getsize(out) / 2**20:.0f} MiB")
wall, cpu, rss2, code = run(pin + [rca, "redact", "--verify-only", out, "--map", m])
print(f"  --verify-only {wall:5.2f} s wall ({raw / 1e6 / wall:.0f} MB/s), exit {code}")
PY
