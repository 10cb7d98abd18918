#!/bin/sh
# Render time and size of the HTML report of the largest sample bundle.
#
# Finds the largest bundle under sample-bundles/ (an archive, or a baseline/ or suspect/ folder
# of a pair), then, with a release build, times RUNS (default 5) runs each of
#   rca analyze -q BUNDLE                   (read, parse, facts, rules: no page)
#   rca analyze -q BUNDLE -o report.html    (the same, plus rendering and writing the page)
# and prints the medians, their difference (the page's render time: charts, artifact viewer,
# templates, write) and the page's size. The product target is a render time under 1 s.
#
# Usage: bench/report-render.sh [RUNS] [BUNDLE]   (BUNDLE overrides the search)
set -u
runs=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-render.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

(cd "$here" && cargo build --release -q -p rca) || exit 1
rca="$here/target/release/rca"
[ -n "${CARGO_TARGET_DIR:-}" ] && rca="$CARGO_TARGET_DIR/release/rca"

bundle=${2:-}
if [ -z "$bundle" ]; then
    # Bytes of each candidate: archives by file size, folders by the sum of their files.
    bundle=$(
        cd "$here" || exit 1
        for d in sample-bundles/*/; do
            for f in "$d"*.tar.gz "$d"*.tgz "$d"*.tar "$d"*.zip; do
                [ -f "$f" ] && printf '%s %s\n' "$(wc -c < "$f")" "$f"
            done
            for s in "$d"baseline "$d"suspect; do
                [ -d "$s" ] && printf '%s %s\n' "$(du -sb "$s" | cut -f1)" "$s"
            done
        done | sort -n | tail -n 1 | cut -d' ' -f2-
    )
    [ -n "$bundle" ] || { echo "no sample bundle under sample-bundles/" >&2; exit 1; }
    bundle="$here/$bundle"
fi

python3 - "$rca" "$bundle" "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
rca, bundle, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
page = os.path.join(work, "report.html")
def timed(extra):
    ts = []
    for _ in range(runs):
        t = time.monotonic()
        p = subprocess.run([rca, "analyze", "-q", bundle] + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append(time.monotonic() - t)
        if p.returncode not in (0, 1):
            sys.exit(f"rca exited {p.returncode} on {bundle}")
    return statistics.median(ts)
base = timed([])
full = timed(["-o", page])
size = os.path.getsize(page)
render = max(full - base, 0.0)
print(f"bundle: {bundle}")
print(f"analyze without page: {base:6.3f} s (median of {runs})")
print(f"analyze with page:    {full:6.3f} s")
print(f"page render + write:  {render:6.3f} s  {'OK' if render < 1.0 else 'OVER the 1 s target'}")
print(f"page size:            {size / 2**20:6.2f} MiB ({size} bytes)")
PY
