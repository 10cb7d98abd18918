#!/usr/bin/env python3
"""Where `rca analyze`'s CPU time goes, by stage and by artifact kind, from a profile.

Input: collapsed stacks (`inferno-collapse-perf --tid`, or Brendan Gregg's
`stackcollapse-perf.pl --tid`): one line per distinct stack, `comm-pid/tid;root;...;leaf COUNT`.
Each stack is charged to one stage: the frame nearest the leaf that names a stage (STAGES,
first pattern that matches wins), so the time of `malloc`, `memcpy` or a page fault goes to the
stage that called it, and inflating under a streaming parser goes to the decompressor. Parsers
are told apart by their module (`parsers::sysstat::mpstat::...` -> `parse sysstat::mpstat`).

Output: samples and share per pipeline stage (the outermost rca stage on the stack: reading and
parsing, facts, rules, evidence, report parts), per code stage (innermost: decompressor, parser
of each kind, ...), then per thread (a busy main thread beside idle workers
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

# (stage, pattern over one frame). A stack goes to the first of these found from its leaf:
# decompression first (inflating under a streaming parser is decompression), then rca's own
# stages, then the libraries that the stage calling them did not name.
DECOMPRESS = [
    ("decompress gzip/deflate", re.compile(r"miniz_oxide|flate2|zlib|inflate|libz\.so")),
    ("decompress xz", re.compile(r"lzma|xz2|liblzma")),
    ("decompress bzip2/zstd", re.compile(r"bzip2|bz2|zstd")),
]
GROUPS = "collection|hadoop|host|jvm|kernel|net|osw|perf|proc|procs|storage|sysstat|time|zookeeper"
STAGES = [
    # The parsers crate's library is `parsers`; a kind's module sits under its group
    # (`parsers::sysstat::mpstat::parse`).
    ("parse {}", re.compile(rf"\bparsers::((?:{GROUPS})::\w+)::")),
    ("report {}", re.compile(r"\brca::report::(\w+)")),
    ("evidence / excerpts", re.compile(r"\brca::evidence")),
    ("rules", re.compile(r"\brca::rules::")),
    ("facts", re.compile(r"\brca::facts::")),
    ("diff / compare", re.compile(r"\brca::diff::")),
    ("sniff / layout", re.compile(r"\brca::bundle::sniff|\brca::layout::")),
    ("artifacts (dispatch, text kept)", re.compile(r"\brca::artifacts")),
    ("bundle reading (tar, zip, files)", re.compile(r"\brca::bundle::|\btar::|\bzip::")),
    ("manifest", re.compile(r"\brca::manifest")),
    ("analysis", re.compile(r"\brca::analysis")),
    ("console", re.compile(r"\brca::console")),
    ("main", re.compile(r"\brca::main|\brca::")),
]
LIBRARIES = [
    # `parsers::common` is the shared number and time parsing, charged to the kind that calls it.
    ("parse common (caller not in the stack)", re.compile(r"\bparsers::")),
    ("json (serde_json)", re.compile(r"serde_json")),
    ("page templates (minijinja)", re.compile(r"minijinja")),
    ("drop / free", re.compile(r"drop_in_place|free|munmap")),
    ("regex", re.compile(r"regex")),
    ("process start (dynamic loader)", re.compile(r"_dl_|ld-linux")),
    ("malloc / realloc", re.compile(r"malloc|realloc|alloc::raw_vec|finish_grow")),
    ("bytes and str scanning (caller not in the stack)",
     re.compile(r"mem(cmp|chr|rchr|move|set|cpy)|core::str::|core::slice::|from_utf8|trim|Searcher")),
    ("kernel: page faults and memory", re.compile(
        r"page_fault|_mm_fault|do_anonymous_page|clear_page|folio|memcg|pte_|vma|mas_|"
        r"lruvec|unmap|mprotect|brk|mmap")),
    ("kernel: other", re.compile(r"^(__|_raw_|do_syscall|entry_SYSCALL|x2apic|finish_task)")),
]


# The pipeline stage a stack runs under: the first of these from the root.
PIPELINE = [
    ("read + parse (artifacts)", re.compile(r"\brca::artifacts|\brca::bundle::")),
    ("facts", re.compile(r"\brca::facts::")),
    ("rules", re.compile(r"\brca::rules::")),
    ("evidence / excerpts", re.compile(r"\brca::evidence")),
    ("report {}", re.compile(r"\brca::report::(\w+)")),
    ("json output", re.compile(r"serde_json::ser")),
]


def pipeline_of(frames):
    for f in frames:
        for name, pat in PIPELINE:
            m = pat.search(f)
            if m:
                return name.format(*m.groups()) if "{}" in name else name
    return "outside the stages (start, main, exit)"


def stage_of(frames):
    for table in (DECOMPRESS, STAGES, LIBRARIES):
        for f in reversed(frames):
            for name, pat in table:
                m = pat.search(f)
                if m:
                    return name.format(*m.groups()) if "{}" in name else name
    return "other (" + (frames[-1] if frames else "?") + ")"


def table(title, counts, total, floor=0.005):
    print(f"\n{title:<52} {'count':>10} {'share':>7}")
    rest = rest_n = 0
    for s, n in counts.most_common():
        if n < floor * total:
            rest += n
            rest_n += 1
            continue
        print(f"{s[:52]:<52} {n:10d} {100 * n / total:6.1f}%")
    if rest:
        print(f"{f'({rest_n} more, each under {100 * floor:g}%)':<52} {rest:10d} {100 * rest / total:6.1f}%")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1])
    by_stage = collections.Counter()
    by_pipeline = collections.Counter()
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
            by_pipeline[pipeline_of(frames)] += n
            by_thread[thread] += n
            stage_thread[thread][s] += n
            total += n
    if not total:
        sys.exit("no samples")
    print(f"{total} in all (samples, or the event period where perf recorded one: ns of cpu-clock)")
    table("pipeline stage (outermost frame)", by_pipeline, total)
    table("code (innermost frame; parsers per kind)", by_stage, total)
    print(f"\n{'thread':<44} {'count':>10} {'share':>7}  top stages")
    for t, n in by_thread.most_common():
        top = ", ".join(f"{s} {100 * c / n:.0f}%" for s, c in stage_thread[t].most_common(3))
        print(f"{t:<44} {n:10d} {100 * n / total:6.1f}%  {top}")


if __name__ == "__main__":
    main()
