#!/bin/sh
# The collector's own CPU cost against its budgets: under 2 % of one CPU without JVMs, under
# 1.5 s of CPU per JVM for the JDK tools. Runs the collector suite (tests/collector/run.sh) with
# RCA_OVERHEAD_BUDGET=1, which adds two 60 s runs with perf off (one with the suite's two JVMs,
# one without) and checks their CPU time against the budgets.
# CPU seconds are only meaningful on an otherwise idle machine: run it there, not under CI load.
#
# Usage: bench/collector-overhead.sh    (root, with the packages .ci/run installs)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
RCA_OVERHEAD_BUDGET=1 RCA_HOST_TESTS=1 bash "$here/tests/collector/run.sh" |
    grep -e '^measure' -e 'overhead' -e 'passed, .* failed$'
