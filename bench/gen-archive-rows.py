#!/usr/bin/env python3
"""Fills a case archive with synthetic bundle rows, written directly with SQLite (no analysis).

Usage: gen-archive-rows.py ARCHIVE.db SOURCE.db ROWS

ARCHIVE.db must already have rca's current schema (any `rca search --db ARCHIVE.db ...` creates
it). The vocabulary comes from SOURCE.db, an archive of real bundles indexed by `rca index`:
its rule ids with their entities, and its numeric and categorical feature names with their
values. Each synthetic bundle gets a host out of 2 000 (`db0001`..., `web0001`...), a collection
start spread over 2026, 3 to 10 findings drawn from the real ones, and every real numeric feature
scaled by a random factor (0.5 to 1.5), and the real categorical features; the artifacts of one
of SOURCE.db's bundles, each with a 1 in 50 chance of another outcome (`unusable`, `partial`,
`not-collected`) than its own, and their outcome counts; an index label out of 50
(`customer-NN`) and a collector label out of 20 (`label-NN`). Deterministic (seed 1).
"""
import random
import sqlite3
import sys

SEVERITY_WEIGHT = {0: 1.0, 1: 2.0, 2: 4.0}


def main():
    archive, source, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(1)
    src = sqlite3.connect(source)
    keys = src.execute("SELECT DISTINCT rule, entity, severity FROM findings").fetchall()
    nums = src.execute(
        "SELECT name, avg(num) FROM features WHERE num IS NOT NULL GROUP BY name"
    ).fetchall()
    # Threads by name would make the rows wide without adding anything to measure.
    nums = [n for n in nums if ": threads " not in n[0]][:60]
    cats = src.execute(
        "SELECT name, min(text) FROM features WHERE text IS NOT NULL GROUP BY name"
    ).fetchall()[:30]
    artifact_sets = [
        src.execute(
            "SELECT path, kind, outcome, issues, bytes, reason FROM artifacts WHERE bundle_id = ?",
            (b,),
        ).fetchall()
        for (b,) in src.execute("SELECT DISTINCT bundle_id FROM artifacts").fetchall()
    ]
    if not artifact_sets:
        sys.exit(f"{source} has no artifact rows: index bundles into it with this rca")
    others = ["unusable", "partial", "not-collected"]
    db = sqlite3.connect(archive)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    start = 1767225600  # 2026-01-01 UTC
    (first,) = db.execute("SELECT COALESCE(max(id), 0) + 1 FROM bundles").fetchone()
    db.execute("BEGIN")
    for i in range(first, first + rows):
        host = ("db" if i % 2 else "web") + f"{i % 2000:04d}"
        t = start + rnd.randrange(365 * 86400)
        found = rnd.sample(keys, min(len(keys), rnd.randint(3, 10)))
        weight = {}
        for rule, entity, sev in found:
            weight[(rule, entity)] = max(weight.get((rule, entity), 0), SEVERITY_WEIGHT[sev])
        db.execute(
            "INSERT INTO bundles (id, hash, path, status, format, layout, host, os, kernel, cpus,"
            " window_start, window_end, rca_version, indexed_at, finding_weight, jdks)"
            " VALUES (?, ?, ?, 'ok', 'tar-gz', 'rca-collector', ?, 'Linux', '6.1.0', 8, ?, ?,"
            " 'synthetic', 0, ?, '[]')",
            (i, f"{rnd.getrandbits(256):064x}", f"synthetic/{i}.tar.gz", host, t, t + 600,
             sum(weight.values())),
        )
        db.executemany(
            "INSERT INTO findings VALUES (?, ?, ?, ?, 1, ?, ?, NULL, NULL, '[]')",
            [(i, r + 1, rule, sev, entity, rule) for r, (rule, entity, sev) in enumerate(found)],
        )
        db.executemany(
            "INSERT INTO features (bundle_id, name, num) VALUES (?, ?, ?)",
            [(i, n, v * rnd.uniform(0.5, 1.5)) for n, v in nums],
        )
        db.executemany(
            "INSERT INTO features (bundle_id, name, text) VALUES (?, ?, ?)",
            [(i, n, v) for n, v in cats],
        )
        arts = []
        counts = {}
        for path, kind, outcome, issues, size, reason in rnd.choice(artifact_sets):
            if rnd.randrange(50) == 0:
                outcome, reason = rnd.choice(others), "synthetic"
            arts.append((i, path, kind, outcome, issues, size, reason))
            counts[outcome] = counts.get(outcome, 0) + 1
        db.executemany("INSERT INTO artifacts VALUES (?, ?, ?, ?, ?, ?, ?)", arts)
        db.executemany(
            "INSERT INTO outcomes VALUES (?, ?, ?)", [(i, o, n) for o, n in counts.items()]
        )
        db.executemany(
            "INSERT INTO labels (bundle_id, label, source) VALUES (?, ?, ?)",
            [(i, f"customer-{i % 50:02d}", "index"), (i, f"label-{i % 20:02d}", "collector")],
        )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


if __name__ == "__main__":
    main()
