#!/usr/bin/env python3
"""Where `rca analyze`'s CPU time goes, by stage and by artifact kind, from a profile.

Input: collapsed stacks (`inferno-collapse-perf --tid`, or Brendan Gregg's
`stackcollapse-perf.pl --tid`): one line per distinct stack, `comm-pid/tid;root;...;leaf COUNT`.
Each stack is charged to one stage: the frame nearest the leaf that names a stage (STAGES,
first pattern that matches wins), so the time of `malloc`, `memcpy` or a page fault goes to the
stage that called it, and inflating under a streaming parser goes to the decompressor. Parsers
are told apart by their module (`rca_parsers::mpstat::...` -> `parse mpstat`).

Output: samples and share per stage, then per thread (a busy main thread beside idle workers
shows what does not run in parallel).

Record and collapse (cpu-clock works where the machine has no hardware counters; the release
build keeps line tables, so DWARF unwinding finds Rust frames):
  perf record -e cpu-clock -F 999 --call-graph dwarf,16384 -o perf.data -- \
      rca analyze -q --json out.json -o out.html bundle.tar.gz
  perf script -i perf.data --no-inline | inferno-collapse-perf --tid > stacks.folded
  inferno-flamegraph < stacks.folded > flame.svg      # (without --tid for one flame per function)
  bench/profile-breakdown.py stacks.folded

Usage: bench/profile-breakdown.py STACKS.folded
"""
import collections
import re
import sys

# (stage, pattern over one frame). Checked in this order for each frame, leaf first.
STAGES = [
    ("decompress gzip/deflate", re.compile(r"miniz_oxide|flate2|zlib|inflate|libz\.so|crc32")),
    ("decompress xz", re.compile(r"lzma|xz2|liblzma")),
    ("decompress bzip2/zstd", re.compile(r"bzip2|bz2|zstd")),
    ("parse {}", re.compile(r"rca_parsers::(\w+)::")),
    ("json output", re.compile(r"serde_json")),
    ("page templates", re.compile(r"minijinja")),
    ("report {}", re.compile(r"rca::report::(\w+)")),
    ("evidence / excerpts", re.compile(r"rca::evidence")),
    ("rules", re.compile(r"rca::rules::")),
    ("facts", re.compile(r"rca::facts::")),
    ("diff / compare", re.compile(r"rca::diff::")),
    ("sniff / layout", re.compile(r"rca::bundle::sniff|rca::layout::")),
    ("artifacts (dispatch, text kept)", re.compile(r"rca::artifacts")),
    ("bundle reading (tar, zip, files)", re.compile(r"rca::bundle::|tar::|zip::")),
    ("manifest", re.compile(r"rca::manifest")),
    ("analysis", re.compile(r"rca::analysis")),
    ("console", re.compile(r"rca::console")),
    ("drop / free", re.compile(r"drop_in_place|__libc_free|_int_free|munmap")),
]


def stage_of(frames):
    for f in reversed(frames):
        for name, pat in STAGES:
            m = pat.search(f)
            if m:
                return name.format(*m.groups()) if "{}" in name else name
    return "other (" + (frames[min(len(frames) - 1, 1)] if frames else "?") + ")"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1])
    by_stage = collections.Counter()
    by_thread = collections.Counter()
    stage_thread = collections.defaultdict(collections.Counter)
    total = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not n.isdigit():
                continue
            n = int(n)
            frames = stack.split(";")
            thread, frames = frames[0], frames[1:]
            s = stage_of(frames)
            by_stage[s] += n
            by_thread[thread] += n
            stage_thread[thread][s] += n
            total += n
    if not total:
        sys.exit("no samples")
    print(f"{total} samples")
    print(f"\n{'stage':<44} {'samples':>8} {'share':>7}")
    for s, n in by_stage.most_common():
        print(f"{s:<44} {n:8d} {100 * n / total:6.1f}%")
    print(f"\n{'thread':<44} {'samples':>8} {'share':>7}  top stages")
    for t, n in by_thread.most_common():
        top = ", ".join(f"{s} {100 * c / n:.0f}%" for s, c in stage_thread[t].most_common(3))
        print(f"{t:<44} {n:8d} {100 * n / total:6.1f}%  {top}")


if __name__ == "__main__":
    main()
