#!/bin/sh
# Throughput and memory of the streaming `perf script` reader and folder on a large input.
#
# Generates a `perf script` text of about SIZE_MB (default 1024) MB by repeating a real capture
# (parsers/tests/fixtures/perf/perf6.1-script-callchains.txt: perf 6.1, 397 samples with call
# chains, 190 KB), then prints, from the same run, wall time and peak RSS (GNU time -v) of
#   - `cat FILE > /dev/null` (the floor: reading the file once, from the page cache),
#   - `wc -l < FILE` (finding every line end, which any line reader must do), and
#   - the `collapse_perf_script` example (parsers/examples/), which streams the file through
#     `parsers::perf_script::collapse` and writes the folded stacks, and
#   - `rca analyze` of a folder bundle holding the file as perf/perf-script.txt, with the HTML
#     report (the profile is read while streamed; the flame graph is drawn from folded stacks).
# The product target is a rate close to cat's and a peak RSS that does not grow with the input.
#
# Usage: bench/perf-script-throughput.sh [SIZE_MB]   (builds the example in release mode first)
# Set KEEP_INPUT=PATH to keep the generated file.
set -u
size_mb=${1:-1024}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-perf-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

gnu_time=/usr/bin/time
if ! "$gnu_time" -v true > /dev/null 2>&1; then
  echo "GNU time is needed for peak RSS (Debian/Ubuntu: apt-get install time)" >&2
  exit 1
fi

(cd "$here" && cargo build --release -q -p rca-parsers --example collapse_perf_script &&
  cargo build --release -q -p rca) || exit 1
bin="${CARGO_TARGET_DIR:-$here/target}/release/examples/collapse_perf_script"
rca="${CARGO_TARGET_DIR:-$here/target}/release/rca"
capture="$here/parsers/tests/fixtures/perf/perf6.1-script-callchains.txt"

# Double the capture up to a 16 MiB chunk, then append chunks up to SIZE_MB.
cp "$capture" "$work/chunk"
while [ "$(wc -c < "$work/chunk")" -lt 16777216 ]; do
  cat "$work/chunk" "$work/chunk" > "$work/chunk2" && mv "$work/chunk2" "$work/chunk"
done
target=$((size_mb * 1024 * 1024))
: > "$work/input"
size=0
while [ "$size" -lt "$target" ]; do
  cat "$work/chunk" >> "$work/input"
  size=$(wc -c < "$work/input")
done
rm -f "$work/chunk"
[ -n "${KEEP_INPUT:-}" ] && cp "$work/input" "$KEEP_INPUT"
copies=$((size / $(wc -c < "$capture")))

# One GNU time measurement: prints "WALL_S RSS_KIB".
measure() {
  "$gnu_time" -v -o "$work/time" "$@" || return 1
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
    /Maximum resident set size/ { rss = $2 }
    END { printf "%.2f %d\n", s, rss }' "$work/time"
}

cat "$work/input" > /dev/null   # warm the page cache
# shellcheck disable=SC2016 # the positional parameters expand in the inner sh
read -r cat_s cat_rss <<EOF
$(measure sh -c 'cat "$1" > /dev/null' sh "$work/input")
EOF
# shellcheck disable=SC2016 # same
read -r wc_s wc_rss <<EOF
$(measure sh -c 'wc -l < "$1" > /dev/null' sh "$work/input")
EOF
# shellcheck disable=SC2016 # same
read -r fold_s fold_rss <<EOF
$(measure sh -c '"$1" "$2" > "$3" 2> "$4"' sh "$bin" "$work/input" "$work/folded" "$work/summary")
EOF

# The whole product: `rca analyze` on a folder bundle holding the file as perf/perf-script.txt
# (parsed while read: the text is never held), HTML report with the flame graph included.
mkdir -p "$work/bundle/perf"
ln "$work/input" "$work/bundle/perf/perf-script.txt" 2>/dev/null ||
  cp "$work/input" "$work/bundle/perf/perf-script.txt"
# shellcheck disable=SC2016 # same
read -r rca_s rca_rss <<EOF
$(measure sh -c '"$1" analyze "$2" -o "$3" > /dev/null 2>&1; [ "$?" -le 2 ]' sh "$rca" "$work/bundle" "$work/report.html")
EOF

awk -v size="$size" -v copies="$copies" -v cs="$cat_s" -v cr="$cat_rss" -v fs="$fold_s" -v fr="$fold_rss" \
  -v rs="$rca_s" -v rr="$rca_rss" \
  -v ws="$wc_s" -v wr="$wc_rss" \
  -v stacks="$(wc -l < "$work/folded")" 'BEGIN {
  mib = size / 1048576
  printf "input: %.0f MiB (%d copies of a 397-sample perf 6.1 capture, %d samples)\n", mib, copies, copies * 397
  printf "cat > /dev/null:          %6.2f s  (%5.0f MiB/s), peak RSS %6.1f MiB\n", cs, (cs > 0 ? mib / cs : 0), cr / 1024
  printf "wc -l (finds every line): %6.2f s  (%5.0f MiB/s), peak RSS %6.1f MiB\n", ws, (ws > 0 ? mib / ws : 0), wr / 1024
  printf "collapse_perf_script:     %6.2f s  (%5.0f MiB/s), peak RSS %6.1f MiB, %d folded stacks\n", fs, (fs > 0 ? mib / fs : 0), fr / 1024, stacks
  printf "rca analyze (+ report):  %6.2f s  (%5.0f MiB/s), peak RSS %6.1f MiB\n", rs, (rs > 0 ? mib / rs : 0), rr / 1024
  if (cs > 0) printf "ratio collapse/cat: %.1f, rca/cat: %.1f\n", fs / cs, rs / cs
}'
sed 's/^/  /' "$work/summary"
