#!/bin/sh
# Profile of `rca analyze` on the mixed bundle: where the CPU time goes, by stage, artifact kind
# and thread. Writes into OUT_DIR (default ./profile):
#   perf.data                        `perf record -e cpu-clock -F 999 -g` of one run
#   perf-report.txt                  `perf report --stdio --no-children`, first 80 lines
#   perf-report-flat.txt             the same without call chains (self time per symbol)
#   stacks.folded, flame.svg         collapsed stacks and the flame graph (inferno), one flame per
#                                    thread (`--tid`), so a main thread working alone shows
#   breakdown.txt                    bench/profile-breakdown.py of the stacks
#
# rca is built with frame pointers (RUSTFLAGS=-C force-frame-pointers=yes, in the target folder
# CARGO_TARGET_DIR or target/) so `perf record -g` walks whole stacks: DWARF unwinding
# (`--call-graph dwarf`) stops at the first frame larger than the 64 KiB stack copy, which
# several of rca's are. The release build keeps line tables, so symbols are named.
# cpu-clock is used because virtual machines often lack hardware counters.
#
# Usage: bench/profile-mixed.sh BUNDLE [OUT_DIR]
#   BUNDLE e.g. /tmp/mixed-256m.tar.gz from bench/gen-mixed-bundle.py. Needs perf (Debian:
#   linux-perf) and inferno (`cargo install inferno`); RCA=PATH profiles that binary instead of
#   building one.
set -u
[ $# -ge 1 ] || { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
bundle=$1
out=${2:-profile}
here=$(cd "$(dirname "$0")/.." && pwd)
for c in perf inferno-collapse-perf inferno-flamegraph; do
  command -v "$c" >/dev/null || { echo "$c is missing (perf: apt-get install linux-perf; inferno: cargo install inferno)" >&2; exit 1; }
done
if [ -z "${RCA:-}" ]; then
  (cd "$here" && RUSTFLAGS="${RUSTFLAGS:-} -C force-frame-pointers=yes" cargo build --release -q -p rca) || exit 1
  RCA="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi
mkdir -p "$out" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rca-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

perf record -q -e cpu-clock -F 999 -g -o "$out/perf.data" -- \
  "$RCA" analyze -q --json "$tmp/out.json" -o "$tmp/out.html" \
  --max-entry-size 4G --max-total-size 8G "$bundle"
code=$?
[ "$code" -le 1 ] || { echo "rca analyze exited $code" >&2; exit 1; }
perf report -i "$out/perf.data" --stdio --no-children 2>/dev/null | head -80 > "$out/perf-report.txt"
perf report -i "$out/perf.data" --stdio --no-children -g none --percent-limit 0.3 2>/dev/null \
  > "$out/perf-report-flat.txt"
perf script -i "$out/perf.data" 2>/dev/null | inferno-collapse-perf --tid > "$out/stacks.folded" || exit 1
inferno-flamegraph --title "rca analyze $(basename "$bundle")" < "$out/stacks.folded" > "$out/flame.svg" || exit 1
python3 "$here/bench/profile-breakdown.py" "$out/stacks.folded" | tee "$out/breakdown.txt"
