#!/bin/sh
# Throughput and record size of each large artifact kind's parser, on one core.
#
# For every large kind (pidstat, jstat, mpstat, iostat, sar text and sadf JSON, vmstat, ss,
# perf script, perf report --stdio, thread dumps, class histograms, GC logs, dmesg, kern.log,
# /proc/stat snapshots), the `parser_throughput` example (parsers/examples/) builds an input of
# about SIZE_MB MB in memory by repeating a real capture from parsers/tests/fixtures (its header
# lines once, its body over and over), parses it RUNS times through the kind's public `parse`
# function and prints, per kind:
#   - MB/s_cpu: input MB (10^6 bytes) over the median CPU time of the parsing thread
#     (/proc/thread-self/schedstat), which other load on the machine disturbs less than wall
#     time; MB/s_wall: the same over the median wall time;
#   - heap/text: heap bytes the parsed record holds over the input's bytes (counted by the
#     example's allocator); peak/text: the highest heap in use during the parse, over the
#     input's bytes;
#   - issues: line issues of the parse (a check that the repeated input still reads as its
#     kind);
#   - with DIGEST=1, a hash of the record's JSON serialisation, to check that a change to a
#     parser leaves its results as they were on a large input.
# Nothing is written to disk. The product target is >= 300 MB/s per kind and records of at most
# twice the text.
#
# Usage: bench/parser-throughput.sh [SIZE_MB] [RUNS] [KIND...]   (defaults: 64 MB, 5 runs, all)
# Builds the example in release mode first (CARGO_TARGET_DIR is honoured).
set -u
size_mb=${1:-64}
runs=${2:-5}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)

(cd "$here" && cargo build --release -q -p rca-parsers --example parser_throughput) || exit 1
bin="${CARGO_TARGET_DIR:-$here/target}/release/examples/parser_throughput"

set -- --size-mb "$size_mb" --runs "$runs" "$@"
if [ -n "${DIGEST:-}" ]; then
  set -- --digest "$@"
fi
cd "$here" && exec "$bin" "$@"
