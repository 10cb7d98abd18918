#!/usr/bin/env python3
"""Analyzes bundles with rca on a Spark cluster and writes the case archive's Parquet dataset.

Usage:
  spark-submit --files /path/to/rca rca_spark.py [--label TEXT]... BUNDLES.txt OUT_DIR
  python3 rca_spark.py --master 'local[2]' --rca /path/to/rca [--label TEXT]... BUNDLES.txt OUT_DIR

BUNDLES.txt lists one bundle per line (a path every executor can read: a shared file system,
HDFS mounted through FUSE, or the same copy on every node); blank lines and lines starting with
`#` are skipped. Each bundle is one Spark task, which runs

  rca index --format jsonl --out ROWS.jsonl -q -j 1 [--label TEXT]... BUNDLE

and turns the line rca writes into rows of the archive's tables. The rows are therefore the ones
`rca index --db` and `rca index --format parquet` store (same conversion inside rca, same
columns). Spark's own writer then writes OUT_DIR/<table>/month=YYYY-MM/part-*.parquet for the
tables bundles, findings, features, artifacts, outcomes and labels, partitioned by collection month as
`rca index --format parquet` partitions them (docs/archive.md). Each table is overwritten.
Every `--label TEXT` (repeatable) is given to each task's `rca index`, which stores it in
`labels` with source `index`, next to the collector's own label (source `collector`).

The rca binary: shipped with the job by `spark-submit --files /path/to/rca` (each task finds it
with SparkFiles), or named with `--rca PATH` on the driver, which ships it the same way
(SparkContext.addFile).

A bundle rca could not analyze is not written; it is listed on standard error and the job exits
1. Exit 2: rca could not be run, or a usage error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql.types import (
    ArrayType,
    DoubleType,
    LongType,
    StringType,
    StructField,
    StructType,
)


def _fields(*cols):
    return StructType([StructField(name, kind, True) for name, kind in cols])


S, L, D = StringType(), LongType(), DoubleType()

# The columns of each table, as `rca index --format parquet` writes them (docs/archive.md):
# SQLite INTEGER -> long, REAL -> double, TEXT -> string; bundles.jdks a list of strings. The
# partition column `month` comes last and becomes the folder name.
TABLES = {
    "bundles": _fields(
        ("id", L), ("hash", S), ("path", S), ("status", S), ("error", S), ("format", S),
        ("layout", S), ("host", S), ("os", S), ("kernel", S), ("cpus", L),
        ("window_start", D), ("window_end", D), ("rca_version", S), ("indexed_at", L),
        ("finding_weight", D), ("jdks", ArrayType(S)), ("month", S),
    ),
    "findings": _fields(
        ("bundle_id", L), ("rank", L), ("rule", S), ("severity", L), ("confidence", L),
        ("entity", S), ("title", S), ("time_from", S), ("time_to", S), ("evidence", S),
        ("month", S),
    ),
    "features": _fields(("bundle_id", L), ("name", S), ("num", D), ("text", S), ("month", S)),
    "artifacts": _fields(
        ("bundle_id", L), ("path", S), ("kind", S), ("outcome", S), ("issues", L), ("bytes", L),
        ("reason", S), ("month", S),
    ),
    "outcomes": _fields(("bundle_id", L), ("outcome", S), ("artifacts", L), ("month", S)),
    "labels": _fields(("bundle_id", L), ("label", S), ("source", S), ("month", S)),
}

# What a task yields for a bundle rca could not analyze.
FAILED = "failed"


def rows_of(bundle, name, labels=()):
    """One task: rca's rows of one bundle, as (table, row) pairs; (FAILED, (bundle, why)) when
    rca could not analyze it. `name`: the file name rca was shipped under; `labels`: given to
    `rca index --label`. Raises when rca itself cannot run (exit 2)."""
    exe = SparkFiles.get(name)
    if not os.access(exe, os.X_OK):
        os.chmod(exe, 0o755)
    with tempfile.TemporaryDirectory(prefix="rca-spark-") as tmp:
        out = os.path.join(tmp, "rows.jsonl")
        label_args = [arg for label in labels for arg in ("--label", label)]
        p = subprocess.run(
            [exe, "index", "--format", "jsonl", "--out", out, "-q", "-j", "1", *label_args,
             "--", bundle],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
        )
        if p.returncode not in (0, 1):
            raise RuntimeError(f"{exe} index {bundle}: exit {p.returncode}: {p.stderr.strip()}")
        if p.returncode == 1:
            yield (FAILED, (bundle, p.stderr.strip()))
        with open(out, encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                for table in TABLES:
                    for row in doc[table]:
                        row["month"] = doc["month"]
                        yield (table, row)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("bundles", help="a text file: one bundle path per line")
    ap.add_argument("out", help="the dataset's folder (a path or URI Spark's writer takes)")
    ap.add_argument("--rca", help="the rca binary on the driver, shipped to the executors")
    ap.add_argument("--master", help="Spark master when not run by spark-submit (local[2])")
    ap.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="TEXT",
        help="label every bundle of the job (customer=acme); repeatable",
    )
    a = ap.parse_args(argv)

    with open(a.bundles, encoding="utf-8") as f:
        paths = [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
    if not paths:
        print(f"rca_spark: {a.bundles} lists no bundle", file=sys.stderr)
        return 2

    b = SparkSession.builder.appName("rca index")
    if a.master:
        b = b.master(a.master)
    spark = b.getOrCreate()
    sc = spark.sparkContext
    if a.rca:
        sc.addFile(os.path.abspath(a.rca))
    # Every task finds the binary under this name, on its own executor.
    name = os.path.basename(a.rca) if a.rca else "rca"

    # One task per bundle; the rows are kept so that writing six tables runs rca once.
    labels = list(a.label)
    rows = (
        sc.parallelize(paths, len(paths)).flatMap(lambda p: rows_of(p, name, labels)).persist()
    )
    failed = rows.filter(lambda r: r[0] == FAILED).map(lambda r: r[1]).collect()
    for table, schema in TABLES.items():
        part = rows.filter(lambda r, t=table: r[0] == t).map(lambda r: r[1])
        df = spark.createDataFrame(part, schema)
        df.write.mode("overwrite").partitionBy("month").parquet(os.path.join(a.out, table))
    rows.unpersist()
    spark.stop()
    for bundle, why in failed:
        print(f"rca_spark: {bundle}: not analyzed: {why}", file=sys.stderr)
    print(f"{len(paths) - len(failed)} bundles written, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
