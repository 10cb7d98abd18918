//! The case archive past one machine: the sample bundles indexed into SQLite (`rca index --db`),
//! into a Parquet dataset (`rca index --format parquet`), and by the Spark example
//! (`examples/spark/rca_spark.py`, Spark in local mode, `local[2]`, one task per bundle); both
//! datasets read back with DuckDB's Hive partition discovery.
//!
//! Checks: each table has the same number of rows in the three (bundles with status `ok` in
//! SQLite); both datasets have the same columns with the same types and the same month
//! partitions; every bundle key of a child table is in `bundles`; the job's `--label` reaches
//! every bundle's labels, next to the collector's label, in the three.
//!
//! Needs Java (Debian package default-jdk-headless) and the Python packages pyspark and duckdb
//! (.ci/run installs them with pip). Skipped with one line without them, unless
//! `RCA_HOST_TESTS=1` (CI), where they are required.

use super::{repo, Needs};
use rusqlite::Connection;
use std::path::Path;
use std::process::Command;

/// Reads both datasets with DuckDB; prints, per dataset and table, the row count, the columns
/// (name and type), the months and the child rows whose bundle is missing, as JSON.
const DUCKDB_CHECK: &str = r#"
import duckdb, json, sys
out = {}
for d in sys.argv[1:]:
    out[d] = {}
    for t in ["bundles", "findings", "features", "artifacts", "outcomes", "labels"]:
        src = f"read_parquet('{d}/{t}/**/*.parquet', hive_partitioning = true)"
        c = duckdb.connect()
        n = c.execute(f"SELECT count(*) FROM {src}").fetchone()[0]
        cols = [list(r[:2]) for r in c.execute(f"DESCRIBE SELECT * FROM {src}").fetchall()]
        months = sorted(str(r[0]) for r in c.execute(f"SELECT DISTINCT month FROM {src}").fetchall())
        orphans = 0
        if t != "bundles":
            b = f"read_parquet('{d}/bundles/**/*.parquet', hive_partitioning = true)"
            orphans = c.execute(
                f"SELECT count(*) FROM {src} WHERE bundle_id NOT IN (SELECT id FROM {b})"
            ).fetchone()[0]
        out[d][t] = {"rows": n, "columns": cols, "months": months, "orphans": orphans}
        if t == "labels":
            out[d][t]["by_source"] = {
                f"{r[0]}:{r[1]}": r[2]
                for r in c.execute(f"SELECT source, label, count(*) FROM {src} GROUP BY ALL").fetchall()
            }
print(json.dumps(out))
"#;

fn python_has(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(c: &mut Command) -> String {
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "{c:?}: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// The label every run of the test gives its bundles.
const LABEL: &str = "job=spark-test";

#[test]
fn spark_and_rca_write_the_same_parquet_tables_as_the_sqlite_archive() {
    if !Needs::new("spark_parquet")
        .commands("default-jdk-headless", &["java", "python3"])
        .that(python_has("pyspark"), "the Python package pyspark (pip)")
        .that(python_has("duckdb"), "the Python package duckdb (pip)")
        .met()
    {
        return;
    }
    let rca = env!("CARGO_BIN_EXE_rca");
    let d = tempfile::tempdir().unwrap();
    let samples = repo().join("sample-bundles");
    let bundles = rca::fleet::expand(std::slice::from_ref(&samples))
        .unwrap()
        .bundles;
    assert!(bundles.len() >= 7, "{bundles:?}");
    let list = d.path().join("bundles.txt");
    let text: String = bundles
        .iter()
        .map(|b| format!("{}\n", b.display()))
        .collect();
    std::fs::write(&list, format!("# the sample bundles\n{text}")).unwrap();

    let db = d.path().join("cases.db");
    run(Command::new(rca)
        .args(["index", "-q", "--label", LABEL, "--db"])
        .arg(&db)
        .arg(&samples));
    let pq = d.path().join("rca-parquet");
    run(Command::new(rca)
        .args([
            "index", "-q", "--label", LABEL, "--format", "parquet", "--out",
        ])
        .arg(&pq)
        .arg(&samples));
    let spark = d.path().join("spark-parquet");
    let t0 = std::time::Instant::now();
    let said = run(Command::new("python3")
        .arg(repo().join("examples/spark/rca_spark.py"))
        .args(["--master", "local[2]", "--rca", rca, "--label", LABEL])
        .arg(&list)
        .arg(&spark)
        .env("PYSPARK_PYTHON", "python3"));
    super::say(&format!(
        "spark_parquet: the Spark job took {:.1} s",
        t0.elapsed().as_secs_f64()
    ));
    assert!(
        said.contains(&format!("{} bundles written, 0 failed", bundles.len())),
        "{said}"
    );

    let json = run(Command::new("python3")
        .args(["-c", DUCKDB_CHECK])
        .arg(&pq)
        .arg(&spark));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let (ours, theirs) = (&v[pq.to_str().unwrap()], &v[spark.to_str().unwrap()]);
    let sqlite = [
        (
            "bundles",
            "SELECT count(*) FROM bundles WHERE status = 'ok'",
        ),
        ("findings", "SELECT count(*) FROM findings"),
        ("features", "SELECT count(*) FROM features"),
        ("artifacts", "SELECT count(*) FROM artifacts"),
        ("outcomes", "SELECT count(*) FROM outcomes"),
        ("labels", "SELECT count(*) FROM labels"),
    ];
    for (t, sql) in sqlite {
        let n = count(&db, sql);
        assert!(n > 0, "{t}");
        assert_eq!(
            ours[t]["rows"], n,
            "{t}: rca's Parquet against SQLite\n{json}"
        );
        assert_eq!(
            theirs[t]["rows"], n,
            "{t}: Spark's Parquet against SQLite\n{json}"
        );
        assert_eq!(ours[t]["columns"], theirs[t]["columns"], "{t}\n{json}");
        assert_eq!(ours[t]["months"], theirs[t]["months"], "{t}\n{json}");
        assert_eq!(ours[t]["orphans"], 0, "{t}\n{json}");
        assert_eq!(theirs[t]["orphans"], 0, "{t}\n{json}");
    }
    assert_eq!(
        v[pq.to_str().unwrap()]["bundles"]["rows"],
        bundles.len() as i64,
        "{json}"
    );
    // The job's label on every bundle, and each sample's collector label (`healthy` …), the same
    // in the three.
    let by_source = &theirs["labels"]["by_source"];
    assert_eq!(
        by_source[format!("index:{LABEL}")],
        bundles.len() as i64,
        "{json}"
    );
    assert_eq!(by_source["collector:healthy"], 1, "{json}");
    assert_eq!(ours["labels"]["by_source"], *by_source, "{json}");
    assert_eq!(
        count(
            &db,
            &format!("SELECT count(*) FROM labels WHERE source = 'index' AND label = '{LABEL}'")
        ),
        bundles.len() as i64
    );
    // The samples were collected in November 2026.
    assert!(
        ours["bundles"]["months"]
            .as_array()
            .unwrap()
            .contains(&"2026-11".into()),
        "{json}"
    );
}
