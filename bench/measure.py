"""Timing shared by the benchmarks' Python steps: run one command, its output discarded, and
return (wall seconds, CPU seconds user+sys, peak RSS in KiB, exit status).

The peak RSS is `getrusage(RUSAGE_CHILDREN).ru_maxrss`: the largest of every child waited for
so far, so a benchmark measures its largest command last or reads it as an upper bound.
"""
import os
import resource
import subprocess
import time


def run(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    with open(os.devnull, "wb") as null:
        code = subprocess.run(argv, stdout=null).returncode
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss, code
