#!/bin/sh
# Throughput benchmark for `rca analyze` on a large bundle.
#
# Generates a .tar.gz of about SIZE_MB (default 500) MB of uncompressed sysstat text in the
# formats sysstat 12.6 prints under LC_ALL=C S_TIME_FORMAT=ISO (`iostat -x -t`, `mpstat -P ALL`)
# plus two /proc/softirqs snapshots, then prints, from the same run:
#   - `gzip -dc bundle > /dev/null` wall time (the floor: one serial decompression),
#   - `rca analyze bundle --json ...` wall time and peak RSS.
# The product target is rca no slower than gzip -dc alone.
#
# Usage: bench/analyze-throughput.sh [SIZE_MB]   (builds rca in release mode first)
# Set KEEP_BUNDLE=PATH to keep the generated bundle (e.g. to profile with perf).
set -u
size_mb=${1:-500}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

(cd "$here" && cargo build --release -q -p rca) || exit 1
rca="$here/target/release/rca"

top="$work/rca-benchhost-20260101T000000Z"
mkdir -p "$top/sysstat" "$top/proc"
# Each part holds about a quarter of the volume: iostat (32 devices) and mpstat (64 CPUs) split
# over several files, as a folder of daily logs would be, so parsing can use every core.
parts=4
per_part=$((size_mb * 1024 * 1024 / (2 * parts)))
i=0
while [ "$i" -lt "$parts" ]; do
  awk -v limit="$per_part" -v seed="$i" 'BEGIN {
    srand(seed + 1);
    printf "Linux 6.1.0-18-amd64 (benchhost) \t2026-01-0%d \t_x86_64_\t(64 CPU)\n\n", seed + 1;
    hdr = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util";
    n = 0; t = 0;
    while (n < limit) {
      s = sprintf("2026-01-0%dT%02d:%02d:%02d+0000\navg-cpu:  %%user   %%nice %%system %%iowait  %%steal   %%idle\n          %6.2f    0.00    %5.2f    %5.2f    0.00   %6.2f\n\n%s\n", seed + 1, int(t / 3600) % 24, int(t / 60) % 60, t % 60, rand() * 40, rand() * 10, rand() * 5, 40 + rand() * 20, hdr);
      for (d = 0; d < 32; d++) {
        s = s sprintf("sd%c%c %13.2f %9.2f %8.2f %6.2f %7.2f %8.2f %7.2f %9.2f %8.2f %6.2f %7.2f %8.2f %7.2f %9.2f %8.2f %6.2f %7.2f %8.2f %7.2f %7.2f %7.2f %6.2f\n", 97 + int(d / 26), 97 + d % 26, rand() * 500, rand() * 20000, rand() * 10, rand() * 50, rand() * 30, rand() * 64, rand() * 500, rand() * 20000, rand() * 10, rand() * 50, rand() * 30, rand() * 64, 0, 0, 0, 0, 0, 0, rand() * 5, rand() * 2, rand() * 8, rand() * 100);
      }
      s = s "\n\n";
      printf "%s", s; n += length(s); t++;
    }
  }' > "$top/sysstat/iostat-x-$i.txt"
  awk -v limit="$per_part" -v seed="$i" 'BEGIN {
    srand(seed + 11);
    printf "Linux 6.1.0-18-amd64 (benchhost) \t01/0%d/26 \t_x86_64_\t(64 CPU)\n\n", seed + 1;
    n = 0; t = 0;
    while (n < limit) {
      ts = sprintf("%02d:%02d:%02d", int(t / 3600) % 24, int(t / 60) % 60, t % 60);
      s = sprintf("%s     CPU    %%usr   %%nice    %%sys %%iowait    %%irq   %%soft  %%steal  %%guest  %%gnice   %%idle\n", ts);
      for (c = -1; c < 64; c++) {
        u = rand() * 40; y = rand() * 10; w = rand() * 5; q = rand() * 3;
        s = s sprintf("%s     %3s %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f\n", ts, (c < 0 ? "all" : c), u, 0, y, w, 0, q, 0, 0, 0, 100 - u - y - w - q);
      }
      s = s "\n";
      printf "%s", s; n += length(s); t++;
    }
  }' > "$top/sysstat/mpstat-P-ALL-$i.txt"
  i=$((i + 1))
done
for snap in start end; do
  awk -v mult="$([ "$snap" = start ] && echo 1 || echo 2)" 'BEGIN {
    printf "     "; for (c = 0; c < 64; c++) printf "       CPU%-3d", c; printf "\n";
    split("HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU", k, " ");
    for (r = 1; r <= 10; r++) { printf "%10s:", k[r]; for (c = 0; c < 64; c++) printf " %12d", (r * 1000 + c) * mult; printf "\n"; }
  }' > "$top/proc/softirqs.$snap"
done
(cd "$work" && tar -czf bundle.tar.gz "$(basename "$top")") || exit 1
rm -rf "$top"
[ -n "${KEEP_BUNDLE:-}" ] && cp "$work/bundle.tar.gz" "$KEEP_BUNDLE"
raw=$(gzip -dc "$work/bundle.tar.gz" | wc -c)
comp=$(wc -c < "$work/bundle.tar.gz")

python3 - "$work/bundle.tar.gz" "$rca" "$raw" "$comp" <<'PY'
import resource, subprocess, sys, time
bundle, rca, raw, comp = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def run(argv, **kw):
    t = time.monotonic()
    p = subprocess.run(argv, **kw)
    return time.monotonic() - t, p.returncode
with open("/dev/null", "wb") as null:
    gz, _ = run(["gzip", "-dc", bundle], stdout=null)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    wall, code = run([rca, "analyze", "-q", "--json", "/dev/null", bundle], stdout=null)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"bundle: {raw / 2**20:.0f} MiB uncompressed, {comp / 2**20:.0f} MiB compressed")
print(f"gzip -dc:    {gz:6.2f} s  ({raw / 2**20 / gz:.0f} MiB/s)")
print(f"rca analyze: {wall:6.2f} s  ({raw / 2**20 / wall:.0f} MiB/s), peak RSS {rss / 1024:.0f} MiB, exit {code}"
      + ("" if rss > before else " (peak RSS may be gzip's)"))
print(f"ratio rca/gzip: {wall / gz:.2f}")
PY
