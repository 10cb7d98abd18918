#!/bin/sh
# Size and browser load time of the report of a very large tree.
#
# Generates (once, with bench/gen-sos-tree.py) a sosreport-shaped folder of FILES files (default
# 100 000), then, with a release build:
#   - runs `rca analyze -q TREE -o report.html --json report.json` and prints its wall time,
#     the page's size and the JSON document's size and artifact count (which must be FILES:
#     the JSON lists every artifact whatever the page shows);
#   - opens the page RUNS times (default 3) in headless Chromium, offline, and prints the median
#     time from navigation to the load event (DevTools protocol over a pipe), the DOM's node
#     count, and the wall time of `chromium --dump-dom` on the page (start, load, serialise,
#     exit) beside that of an empty page.
# The product targets: under 5 MB and under 2 s to load.
#
# Usage: bench/report-scale.sh [FILES] [RUNS]
# Environment: RCA (an rca binary to measure instead of building one), KEEP_TREE=DIR (generate
# the tree there and keep it; reused when it already holds FILES files), RCA_CHROMIUM (default
# /usr/bin/chromium; install with `apt-get install chromium`).
set -u
files=${1:-100000}
runs=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
chromium=${RCA_CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "no $chromium (apt-get install chromium)" >&2; exit 1; }

rca=${RCA:-}
if [ -z "$rca" ]; then
    (cd "$here" && cargo build --release -q -p rca) || exit 1
    rca="${CARGO_TARGET_DIR:-$here/target}/release/rca"
fi

tree=${KEEP_TREE:-$work/tree}
if [ "$(find "$tree" -type f 2>/dev/null | wc -l)" -ne "$files" ]; then
    python3 "$here/bench/gen-sos-tree.py" "$tree" "$files" || exit 1
fi

PYTHONPATH="$here/bench" python3 - "$rca" "$tree" "$work" "$runs" "$chromium" "$files" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time
from browser import FLAGS, Browser
rca, tree, work, runs, chromium, files = sys.argv[1:7]
runs, files = int(runs), int(files)
page = os.path.join(work, "report.html")
doc = os.path.join(work, "report.json")
t = time.monotonic()
p = subprocess.run([rca, "analyze", "-q", tree, "-o", page, "--json", doc],
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
analyze_s = time.monotonic() - t
if p.returncode not in (0, 1):
    sys.exit(f"rca exited {p.returncode}: {p.stderr.decode()[-2000:]}")
with open(doc, encoding="utf-8") as f:
    d = json.load(f)

def dump_dom(path):
    profile = tempfile.mkdtemp(dir=work)
    t = time.monotonic()
    subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                    "file://" + path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=900)
    return time.monotonic() - t


b = Browser(chromium, work)
b.load("about:blank")
loads = []
nodes = 0
for _ in range(runs):
    took, nodes = b.load("file://" + page)
    loads.append(took)
b.close()
empty = os.path.join(work, "empty.html")
with open(empty, "w") as f:
    f.write("<!doctype html><title>empty</title>")
dump_empty = dump_dom(empty)
dump_page = dump_dom(page)

size = os.path.getsize(page)
listed = len(d["artifacts"])
print(f"tree:                {tree} ({files} files)")
print(f"rca analyze:         {analyze_s:7.2f} s (page and JSON)")
print(f"page size:           {size / 1e6:7.2f} MB ({size} bytes)  "
      f"{'OK' if size < 5e6 else 'OVER the 5 MB target'}")
print(f"JSON document:       {os.path.getsize(doc) / 1e6:7.2f} MB, {listed} artifacts listed  "
      f"{'OK' if listed == files else 'NOT every file'}")
med = statistics.median(loads)
print(f"load in Chromium:    {med:7.2f} s to the load event (median of {runs}: "
      f"{', '.join(f'{x:.2f}' for x in loads)})  {'OK' if med < 2 else 'OVER the 2 s target'}")
print(f"DOM elements:        {nodes}")
print(f"chromium --dump-dom: {dump_page:7.2f} s (an empty page: {dump_empty:.2f} s)")
PY
