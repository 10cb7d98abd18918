#!/bin/sh
# Render time, size and browser load time of the HTML report.
#
# With a release build, times RUNS (default 5) runs each of
#   rca analyze -q BUNDLE                   (read, parse, facts, rules: no page)
#   rca analyze -q BUNDLE -o report.html    (the same, plus rendering and writing the page)
# and prints the medians of wall time and of CPU time (user + sys), their differences (the
# page's render time: charts, flame graphs, findings, artifact viewer, templates, write), the
# page's size, and the median time headless Chromium takes from navigation to the load event
# (bench/browser.py; skipped without a browser). The product targets: render under 1 s for
# 10 000 findings, a page under 5 MB, loaded in under 2 s.
#
# The bundle: BUNDLE when given; else, with ITEMS set, a generated bundle whose report has
# ITEMS findings with one evidence item each (bench/gen-report-load.py: ITEMS saturated disks
# in `iostat -x`, a `perf script` of 50 000 samples on a wide call tree); else the largest
# sample bundle under sample-bundles/.
#
# Usage: [ITEMS=10000] bench/report-render.sh [RUNS] [BUNDLE]   (BUNDLE overrides the others)
# Environment: RCA (an rca binary to measure instead of building one), RCA_CHROMIUM (default
# /usr/bin/chromium).
set -u
runs=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-render.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
chromium=${RCA_CHROMIUM:-/usr/bin/chromium}

rca=${RCA:-}
if [ -z "$rca" ]; then
    (cd "$here" && cargo build --release -q -p rca) || exit 1
    rca="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi

bundle=${2:-}
if [ -z "$bundle" ] && [ -n "${ITEMS:-}" ]; then
    bundle="$work/load"
    python3 "$here/bench/gen-report-load.py" "$bundle" "$ITEMS" 8 50000 || exit 1
fi
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

PYTHONPATH="$here/bench" python3 - "$rca" "$bundle" "$work" "$runs" "$chromium" <<'PY'
import json, os, statistics, subprocess, sys
from measure import run
rca, bundle, work, runs, chromium = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
page = os.path.join(work, "report.html")
doc = os.path.join(work, "report.json")
def timed(extra):
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _, code = run([rca, "analyze", "-q", bundle] + extra)
        if code not in (0, 1, 2):
            sys.exit(f"rca exited {code} on {bundle}")
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)
base, base_cpu = timed([])
full, full_cpu = timed(["-o", page])
size = os.path.getsize(page)
render = max(full - base, 0.0)
subprocess.run([rca, "analyze", "-q", bundle, "--json", doc], stdout=subprocess.DEVNULL)
with open(doc, encoding="utf-8") as f:
    d = json.load(f)
findings = len(d["findings"])
items = sum(len(x["evidence"]) for x in d["findings"])
print(f"bundle: {bundle} ({findings} findings, {items} evidence items)")
print(f"analyze without page: {base:6.3f} s wall, {base_cpu:6.3f} s CPU (medians of {runs})")
print(f"analyze with page:    {full:6.3f} s wall, {full_cpu:6.3f} s CPU")
print(f"page render + write:  {render:6.3f} s wall, {max(full_cpu - base_cpu, 0.0):6.3f} s CPU  "
      f"{'OK' if render < 1.0 else 'OVER the 1 s target'}")
print(f"page size:            {size / 1e6:6.2f} MB ({size} bytes)  "
      f"{'OK' if size < 5e6 else 'OVER the 5 MB target'}")
if os.access(chromium, os.X_OK):
    from browser import Browser
    b = Browser(chromium, work)
    b.load("about:blank")
    loads = []
    for _ in range(runs):
        took, nodes = b.load("file://" + page)
        loads.append(took)
    b.close()
    med = statistics.median(loads)
    print(f"load in Chromium:     {med:6.3f} s to the load event (median of {runs}: "
          f"{', '.join(f'{x:.2f}' for x in loads)}), {nodes} elements  "
          f"{'OK' if med < 2 else 'OVER the 2 s target'}")
else:
    print(f"load in Chromium:     not measured (no {chromium}; apt-get install chromium)")
PY
