//! The case archive end to end: `rca index` over the sample bundles (twice, stopped and resumed,
//! with a corrupt bundle among them), `rca search` with every operator, `rca similar` finding a
//! planted twin, `rca history` and `rca note`, a migration from the first schema version, and
//! the same tables written as a Parquet dataset and as JSON lines.

use crate::common::{analyze_json, healthy_sample, repo, unpack_sample};
use rca::archive::index::{self, Analyzed, FindingRow, Options};
use rca::archive::{query, schema, similar};
use rca::bundle::Limits;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

fn rca(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// Unpacks a `.tar.gz` sample into `root/name` as host `name` (its `uname` and manifest say
/// so); returns the bundle folder.
fn renamed(sample: &Path, root: &Path, name: &str) -> PathBuf {
    let top = unpack_sample(sample, root, name);
    let uname = top.join("system/uname.txt");
    let t = std::fs::read_to_string(&uname).unwrap();
    std::fs::write(&uname, t.replacen(" vm ", &format!(" {name} "), 1)).unwrap();
    let m = top.join("manifest.tsv");
    let t = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        t.replace("meta\thostname\tvm\n", &format!("meta\thostname\t{name}\n")),
    )
    .unwrap();
    top
}

fn zookeeper_sample() -> PathBuf {
    std::fs::read_dir(repo().join("sample-bundles/s3-zookeeper-watches"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("the zookeeper sample is shipped")
}

#[test]
fn the_samples_indexed_twice_then_searched_compared_and_followed() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("cases.db");
    let dbs = db.to_str().unwrap();
    let samples = repo().join("sample-bundles");
    let twin = renamed(&zookeeper_sample(), d.path(), "zk-twin");
    // The collector's `--label`, as it writes it in the manifest.
    let m = twin.join("manifest.tsv");
    let t = std::fs::read_to_string(&m).unwrap();
    assert!(t.contains("meta\tlabel\ts3-zookeeper-watches\n"));
    std::fs::write(
        &m,
        t.replace(
            "meta\tlabel\ts3-zookeeper-watches\n",
            "meta\tlabel\tslow pool\n",
        ),
    )
    .unwrap();

    let o = rca(&[
        "index",
        samples.to_str().unwrap(),
        twin.to_str().unwrap(),
        "--db",
        dbs,
        "--label",
        "batch-7",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stored = count(&db, "SELECT count(*) FROM bundles WHERE status = 'ok'");
    // healthy, s1, s2 baseline and suspect, s3, s4 baseline and suspect, and the twin.
    assert_eq!(stored, 8, "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("8 stored, 0 already stored, 0 failed"),
        "{}",
        text(&o)
    );
    let findings = count(&db, "SELECT count(*) FROM findings");
    let features = count(&db, "SELECT count(*) FROM features");
    assert!(findings > 0 && features > 0);

    // Every artifact of every bundle with its outcome, as `rca analyze --json` lists them; the
    // counts per outcome are those of the artifacts.
    let (_, doc) = analyze_json(&twin);
    let want: Vec<(String, Option<String>, String, i64, i64)> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["path"].as_str().unwrap().to_string(),
                a["kind"].as_str().map(str::to_string),
                a["outcome"]["status"].as_str().unwrap().to_string(),
                a["issues"].as_array().unwrap().len() as i64,
                a["bytes"].as_i64().unwrap(),
            )
        })
        .collect();
    let c = Connection::open(&db).unwrap();
    let got: Vec<(String, Option<String>, String, i64, i64)> = c
        .prepare(
            "SELECT a.path, a.kind, a.outcome, a.issues, coalesce(a.bytes, 0) FROM artifacts a
             JOIN bundles b ON b.id = a.bundle_id WHERE b.host = 'zk-twin' ORDER BY a.path",
        )
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    // A link's size is not stored (its file is read at the target).
    let want_sorted: Vec<_> = want_sorted
        .into_iter()
        .map(|(p, k, o, i, b)| {
            let b = if o == "link" { 0 } else { b };
            (p, k, o, i, b)
        })
        .collect();
    assert!(want_sorted.len() > 10);
    assert_eq!(got, want_sorted);
    assert_eq!(
        count(&db, "SELECT count(*) FROM artifacts"),
        count(&db, "SELECT sum(artifacts) FROM outcomes")
    );
    // Not parsed: a reason (the outcome's, else the first problem), never longer than the cap.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM artifacts WHERE outcome NOT IN ('parsed') AND reason IS NULL"
        ),
        0
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM artifacts WHERE outcome = 'parsed' AND reason IS NOT NULL"
        ),
        0
    );
    assert!(
        count(&db, "SELECT max(length(reason)) FROM artifacts")
            <= rca::archive::rows::REASON_MAX_CHARS as i64
    );

    // The collector's label is stored with the bundle, apart from the run's.
    let labels: Vec<(String, String)> = c
        .prepare(
            "SELECT l.label, l.source FROM labels l JOIN bundles b ON b.id = l.bundle_id
             WHERE b.host = 'zk-twin' ORDER BY l.source, l.label",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        labels,
        [
            ("slow pool".to_string(), "collector".to_string()),
            ("batch-7".to_string(), "index".to_string())
        ]
    );
    drop(c);
    let o = rca(&["search", "--db", dbs, "--json", "label:\"slow pool\""]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 1, "{}", text(&o));
    assert_eq!(v["bundles"][0]["host"], "zk-twin");
    let o = rca(&["search", "--db", dbs, "--json", "label:healthy"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 1, "{}", text(&o));

    // Artifact terms: a kind, and a kind with an outcome holding for the same artifact.
    let (kind, outcome) = want
        .iter()
        .find_map(|(_, k, o, _, _)| k.clone().filter(|_| o == "parsed").map(|k| (k, o.clone())))
        .unwrap();
    let n_kind = count(
        &db,
        &format!("SELECT count(DISTINCT bundle_id) FROM artifacts WHERE kind = '{kind}'"),
    );
    let o = rca(&[
        "search",
        "--db",
        dbs,
        "--json",
        &format!("kind:{kind} artifact:{outcome}"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["total"].as_i64().unwrap() >= 1 && v["total"].as_i64().unwrap() <= n_kind);
    // Without wildcards an equality, with them a glob: the same kind is found both ways.
    let glob = format!("kind:{}*", &kind[..kind.len() - 1]);
    let o = rca(&["search", "--db", dbs, "--json", &glob]);
    let g: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(g["total"].as_i64().unwrap() >= n_kind, "{}", text(&o));
    let o = rca(&[
        "search",
        "--db",
        dbs,
        &format!("kind:{kind} artifact:parser-bug"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    // Again: nothing new.
    let o = rca(&[
        "index",
        samples.to_str().unwrap(),
        twin.to_str().unwrap(),
        "--db",
        dbs,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 stored, 8 already stored, 0 failed"),
        "{}",
        text(&o)
    );
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 8);
    assert_eq!(count(&db, "SELECT count(*) FROM findings"), findings);
    assert_eq!(count(&db, "SELECT count(*) FROM features"), features);

    // The twin is the closest bundle to the zookeeper sample, sharing all its findings.
    let zk = zookeeper_sample();
    let o = rca(&[
        "similar",
        zk.to_str().unwrap(),
        "--db",
        dbs,
        "-k",
        "3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let first = &v[0];
    assert_eq!(first["host"], "zk-twin", "{}", text(&o));
    assert_eq!(first["findings_similarity"], 1.0, "{}", text(&o));
    assert_eq!(first["features_similarity"], 1.0, "{}", text(&o));
    assert!(!first["shared"].as_array().unwrap().is_empty());
    assert!(v[1]["score"].as_f64().unwrap() < 1.0, "{}", text(&o));

    // A note on the twin shows with it, found by a hash prefix.
    let hash = first["hash"].as_str().unwrap().to_string();
    let o = rca(&[
        "note",
        &hash[..10],
        "fixed by raising maxClientCnxns, INC-1234",
        "--db",
        dbs,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = rca(&["similar", zk.to_str().unwrap(), "--db", dbs, "-k", "1"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("note: fixed by raising maxClientCnxns, INC-1234"),
        "{out}"
    );

    // Search: every bundle of host zk-twin; a rule the twin has.
    let rule: String = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT rule FROM findings f JOIN bundles b ON b.id = f.bundle_id
             WHERE b.host = 'zk-twin' ORDER BY rank LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let o = rca(&[
        "search",
        "--db",
        dbs,
        "--json",
        &format!("rule:{rule} host:ZK-*"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 1, "{}", text(&o));
    assert_eq!(v["bundles"][0]["findings"][0][0], rule.as_str());
    let o = rca(&["search", "--db", dbs, "host:nobody*"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = rca(&["search", "--db", dbs, "colour:red"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown key `colour`"));

    // History of the twin's host: its one bundle, its rules on the time axis, the note.
    let page = d.path().join("h.html");
    let o = rca(&[
        "history",
        "--host",
        "zk-twin",
        "--db",
        dbs,
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("history of zk-twin: 1 bundle(s)"), "{out}");
    assert!(out.contains(&rule), "{out}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("History of zk-twin") && html.contains(&rule));
    assert!(html.contains("INC-1234"));
    assert!(!html.contains("src=\"http"), "the page loads nothing");
}

fn opts() -> Options {
    Options {
        limits: Limits::default(),
        jobs: 2,
        timeout: Duration::from_secs(300),
        labels: vec!["run-1".into()],
    }
}

#[test]
fn a_corrupt_bundle_in_the_middle_is_recorded_and_the_run_goes_on() {
    let d = tempfile::tempdir().unwrap();
    let a = renamed(&healthy_sample(), d.path(), "host-a");
    let c = d.path().join("broken.tar.gz");
    // gzip's magic, then garbage.
    std::fs::write(&c, b"\x1f\x8b\x08\x00garbage, not deflate data at all").unwrap();
    let b = renamed(&healthy_sample(), d.path(), "host-b");
    let db = d.path().join("cases.db");
    let o = rca(&[
        "index",
        a.to_str().unwrap(),
        c.to_str().unwrap(),
        b.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        count(&db, "SELECT count(*) FROM bundles WHERE status = 'ok'"),
        2
    );
    let (path, error): (String, String) = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT path, error FROM bundles WHERE status = 'failed'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(path.ends_with("broken.tar.gz"), "{path}");
    assert!(!error.is_empty());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("broken.tar.gz"),
        "{}",
        text(&o)
    );
    // The next run tries the failed bundle again, and only it.
    let o = rca(&[
        "index",
        a.to_str().unwrap(),
        c.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 stored, 1 already stored, 1 failed"),
        "{}",
        text(&o)
    );
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 3);
}

#[test]
fn a_run_stopped_between_bundles_resumes_with_the_rest() {
    let d = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = ["h1", "h2", "h3"]
        .iter()
        .map(|n| renamed(&healthy_sample(), d.path(), n))
        .collect();
    let db = d.path().join("cases.db");
    let mut conn = schema::open(&db).unwrap();
    let mut o = opts();
    o.jobs = 1;
    // The run stops (here: its caller panics) once the first bundle is committed.
    let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        index::index(&mut conn, &paths, &o, |_, what, _, _| {
            assert_eq!(what, "stored");
            panic!("stopped");
        })
    }));
    assert!(stopped.is_err());
    drop(conn);
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 1);
    assert_eq!(
        count(&db, "SELECT count(*) FROM labels WHERE label = 'run-1'"),
        1
    );
    let mut conn = schema::open(&db).unwrap();
    let r = index::index(&mut conn, &paths, &o, |_, _, _, _| {}).unwrap();
    assert_eq!((r.stored, r.already, r.failed.len()), (2, 1, 0));
    assert_eq!(
        count(&db, "SELECT count(*) FROM bundles WHERE status = 'ok'"),
        3
    );
}

#[test]
fn bundles_written_together_are_committed_together_and_soon() {
    use index::Sink;
    use rca::archive::rows::Rows;
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("cases.db");
    let mut conn = schema::open(&db).unwrap();
    let mut a = index::Archive::new(&mut conn);
    let failed = |h: &str| Rows::new(h, h, Err("cannot be read"), &[], 0);
    assert!(a.write(failed("a1")).unwrap());
    // The batch is open: another connection sees nothing of it yet.
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 0);
    assert!(a.write(failed("a2")).unwrap());
    a.flush().unwrap();
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 2);
    // A batch open for FLUSH_AFTER is committed by its next bundle.
    assert!(a.write(failed("a3")).unwrap());
    std::thread::sleep(index::FLUSH_AFTER);
    assert!(a.write(failed("a4")).unwrap());
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 4);
    assert!(a.write(failed("a5")).unwrap());
    // Dropped (a run that stops on an error): what it holds is committed.
    drop(a);
    assert_eq!(count(&db, "SELECT count(*) FROM bundles"), 5);
}

/// A bundle made of rows: host, collection start (epoch s), findings, features.
fn row(
    host: &str,
    start: f64,
    findings: &[(&str, u8, &str)],
    features: &[(&str, Option<f64>, Option<&str>)],
) -> Box<Analyzed> {
    Box::new(Analyzed {
        layout: "rca-collector".into(),
        host: Some(host.into()),
        window: Some((start, start + 600.0)),
        findings: findings
            .iter()
            .map(|(rule, severity, entity)| FindingRow {
                rule: rule.to_string(),
                severity: *severity,
                confidence: 1,
                entity: entity.to_string(),
                title: format!("{rule} on {host}"),
                time: None,
                evidence: "[]".into(),
            })
            .collect(),
        features: features
            .iter()
            .map(|(n, v, t)| (n.to_string(), *v, t.map(str::to_string)))
            .collect(),
        ..Analyzed::default()
    })
}

/// 2026-01-10, 2026-02-10 and 2026-03-10, 00:00 UTC.
const JAN: f64 = 1_768_003_200.0;
const FEB: f64 = 1_770_681_600.0;
const MAR: f64 = 1_773_100_800.0;

/// A stored host: hash, path, name, collection start, findings (rule, severity, entity),
/// `eth0: queues`, kernel release, label.
type Host = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    &'static [(&'static str, u8, &'static str)],
    f64,
    &'static str,
    &'static str,
);

fn three(db: &Path) -> Connection {
    let mut c = schema::open(db).unwrap();
    let rows: [Host; 3] = [
        (
            "a1",
            "db01.tgz",
            "db01",
            JAN,
            &[
                ("mem.swap", 2, "mem/vmstat.txt"),
                ("disk.await", 1, "iostat.txt"),
            ],
            1.0,
            "5.10.0",
            "acme",
        ),
        (
            "b2",
            "db02.tgz",
            "DB02",
            FEB,
            &[("mem.swap", 1, "mem/vmstat.txt")],
            2.0,
            "6.1.0",
            "globex",
        ),
        (
            "c3",
            "web01.tgz",
            "web01",
            MAR,
            &[("net.retrans", 0, "net/netstat.txt")],
            8.0,
            "6.1.0",
            "acme",
        ),
    ];
    for (hash, path, host, start, findings, queues, kernel, label) in rows {
        let features = [
            ("eth0: queues", Some(queues), None),
            ("kernel release", None, Some(kernel)),
        ];
        index::store(
            &mut c,
            hash,
            Path::new(path),
            Ok(row(host, start, findings, &features)),
            &[label.into()],
        )
        .unwrap();
    }
    c
}

fn hosts(c: &Connection, q: &str) -> Vec<String> {
    let terms = query::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let (hits, total) = query::search(c, &terms, 100).unwrap();
    assert_eq!(total, hits.len());
    let mut v: Vec<String> = hits.into_iter().map(|h| h.host.unwrap()).collect();
    v.sort();
    v
}

#[test]
fn queries_with_every_key_and_operator() {
    let d = tempfile::tempdir().unwrap();
    let c = three(&d.path().join("cases.db"));
    let cases: &[(&str, &[&str])] = &[
        ("rule:mem.swap", &["DB02", "db01"]),
        ("rule:mem.*", &["DB02", "db01"]),
        ("rule:*.retrans", &["web01"]),
        ("severity:critical", &["db01"]),
        ("severity:>=warning", &["DB02", "db01"]),
        ("severity:>warning", &["db01"]),
        ("severity:<warning", &["web01"]),
        ("severity:<=warning", &["DB02", "db01", "web01"]),
        ("severity:=warning", &["DB02", "db01"]),
        ("severity:!=warning", &["db01", "web01"]),
        // The same finding: db02's swap finding is a warning only.
        ("rule:mem.swap severity:critical", &["db01"]),
        ("host:db*", &["DB02", "db01"]),
        ("host:WEB0?", &["web01"]),
        ("since:2026-02-10", &["DB02", "web01"]),
        ("until:2026-02-10", &["DB02", "db01"]),
        ("since:2026-02-01 until:2026-02-28", &["DB02"]),
        ("fact:\"eth0: queues\"<2", &["db01"]),
        ("fact:\"eth0: queues\"<=2", &["DB02", "db01"]),
        ("fact:\"eth0: queues\">2", &["web01"]),
        ("fact:\"eth0: queues\">=2", &["DB02", "web01"]),
        ("fact:\"eth0: queues\"=2", &["DB02"]),
        ("fact:\"eth0: queues\"!=2", &["db01", "web01"]),
        ("fact:\"kernel release\"=6.1.0", &["DB02", "web01"]),
        ("fact:\"kernel release\"!=6.1.0", &["db01"]),
        ("label:acme", &["db01", "web01"]),
        ("label:glo*", &["DB02"]),
        ("label:acme host:web*", &["web01"]),
        ("fact:\"no such fact\">0", &[]),
    ];
    for (q, want) in cases {
        assert_eq!(hosts(&c, q), *want, "{q}");
    }
    let e = query::search(&c, &query::parse("since:2026-02-30").unwrap(), 10);
    assert!(e.is_err_and(|e| e.contains("not a date")));
}

#[test]
fn similar_ranks_by_shared_findings_then_features() {
    let d = tempfile::tempdir().unwrap();
    let c = three(&d.path().join("cases.db"));
    let probe = similar::Probe::stored(&c, "a1").unwrap().unwrap();
    let found = similar::similar(&c, &probe, 10).unwrap();
    let order: Vec<&str> = found.iter().map(|s| s.hash.as_str()).collect();
    // b2 shares the swap finding (warning there: min(4, 2) = 2 of a union of 4 + 2 + 2 − 2);
    // c3 shares nothing: it comes after, on its features alone.
    assert_eq!(order, ["b2", "c3"]);
    assert_eq!(found[1].findings_similarity, 0.0);
    assert!(found[1].score <= 1.0 - similar::FINDINGS_SHARE);
    assert_eq!(found[0].findings_similarity, 0.333);
    assert_eq!(found[0].shared, ["mem.swap @ mem/vmstat.txt (warning)"]);
    assert_eq!(found[0].missing, ["disk.await @ iostat.txt (warning)"]);
}

/// The first schema version, as the first rca that wrote archives created it.
const V1: &str = "CREATE TABLE bundles (
        id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, path TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')), error TEXT, format TEXT,
        layout TEXT, host TEXT, os TEXT, kernel TEXT, cpus INTEGER, window_start REAL,
        window_end REAL, rca_version TEXT NOT NULL, indexed_at INTEGER NOT NULL);
    CREATE INDEX bundles_host ON bundles (host, window_start);
    CREATE INDEX bundles_start ON bundles (window_start);
    CREATE TABLE findings (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        rank INTEGER NOT NULL, rule TEXT NOT NULL, severity INTEGER NOT NULL,
        confidence INTEGER NOT NULL, entity TEXT NOT NULL, title TEXT NOT NULL, time_from TEXT,
        time_to TEXT, evidence TEXT NOT NULL, PRIMARY KEY (bundle_id, rank)) WITHOUT ROWID;
    CREATE INDEX findings_rule ON findings (rule, severity, bundle_id);
    CREATE TABLE features (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        name TEXT NOT NULL, num REAL, text TEXT, PRIMARY KEY (bundle_id, name)) WITHOUT ROWID;
    CREATE INDEX features_name ON features (name, num, bundle_id);
    INSERT INTO bundles (id, hash, path, status, host, window_start, rca_version, indexed_at)
        VALUES (1, 'aaaaaa01', 'old1.tgz', 'ok', 'db01', 1768003200, '0.1.0', 0),
               (2, 'aaaaaa02', 'old2.tgz', 'ok', 'db02', 1770681600, '0.1.0', 0);
    INSERT INTO findings VALUES
        (1, 1, 'mem.swap', 2, 2, 'mem/vmstat.txt', 'Swapping', NULL, NULL, '[]'),
        (1, 2, 'mem.swap', 1, 2, 'mem/vmstat.txt', 'Swapping again', NULL, NULL, '[]'),
        (1, 3, 'disk.await', 1, 1, 'iostat.txt', 'Slow disk', NULL, NULL, '[]'),
        (2, 1, 'mem.swap', 2, 2, 'mem/vmstat.txt', 'Swapping', NULL, NULL, '[]');
    INSERT INTO features VALUES (1, 'eth0: queues', 1, NULL), (2, 'eth0: queues', 1, NULL);
    PRAGMA user_version = 1;";

#[test]
fn an_archive_of_the_first_schema_version_is_migrated_and_read() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("cases.db");
    Connection::open(&db).unwrap().execute_batch(V1).unwrap();
    let c = schema::open(&db).unwrap();
    assert_eq!(schema::version(&c).unwrap(), schema::CURRENT);
    assert_eq!(schema::CURRENT, 4);
    // Version 4: the table of artifacts, empty for the bundles stored before it (their artifacts
    // were not kept), and labels with their source.
    assert_eq!(count(&db, "SELECT count(*) FROM artifacts"), 0);
    assert_eq!(
        count(&db, "SELECT count(*) FROM labels WHERE source = 'index'"),
        0
    );
    // Version 3: host names are found through the index on `lower(host)`, for an exact name and
    // for a prefix.
    for (q, want) in [
        ("host:DB02", &["db02"][..]),
        ("host:DB*", &["db01", "db02"]),
    ] {
        assert_eq!(hosts(&c, q), want, "{q}");
    }
    for cond in [
        "lower(host) = 'db02'",
        "lower(host) >= 'db' AND lower(host) < 'dc'",
    ] {
        let plan: String = c
            .query_row(
                &format!("EXPLAIN QUERY PLAN SELECT count(*) FROM bundles WHERE {cond}"),
                [],
                |r| r.get(3),
            )
            .unwrap();
        assert!(plan.contains("bundles_host_lc"), "{cond}: {plan}");
    }
    // The weight of each bundle's findings is computed from the rows already there: a1 has
    // mem.swap (critical, 4; its repeat counted once) and disk.await (warning, 2).
    let w: Vec<f64> = c
        .prepare("SELECT finding_weight FROM bundles ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(w, [6.0, 4.0]);
    drop(c);
    let dbs = db.to_str().unwrap();
    let o = rca(&[
        "search",
        "--db",
        dbs,
        "--json",
        "rule:mem.swap since:2026-02-01",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["bundles"][0]["host"], "db02");
    let o = rca(&["note", "aaaaaa02", "swap off, INC-7", "--db", dbs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = rca(&["similar", "aaaaaa01", "--db", dbs, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["hash"], "aaaaaa02");
    // 4 shared of a union of 6 + 4 − 4.
    assert_eq!(v[0]["findings_similarity"], 0.667);
    assert_eq!(v[0]["notes"][0], "swap off, INC-7");

    // A bundle indexed into the migrated archive has its artifacts and both kinds of label.
    let h = renamed(&healthy_sample(), d.path(), "db03");
    let o = rca(&["index", h.to_str().unwrap(), "--db", dbs, "--label", "new"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(count(&db, "SELECT count(*) FROM artifacts") > 10);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM labels WHERE source = 'collector' AND label = 'healthy'"
        ),
        1
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM labels WHERE source = 'index' AND label = 'new'"
        ),
        1
    );
}

#[test]
fn the_labels_of_an_archive_of_version_3_become_index_labels() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("cases.db");
    let c = Connection::open(&db).unwrap();
    c.execute_batch(V1).unwrap();
    for sql in &schema::MIGRATIONS[1..3] {
        c.execute_batch(sql).unwrap();
    }
    c.execute_batch(
        "PRAGMA user_version = 3;
         INSERT INTO labels VALUES (1, 'acme'), (2, 'acme'), (2, 'ticket-9');",
    )
    .unwrap();
    drop(c);
    let c = schema::open(&db).unwrap();
    assert_eq!(schema::version(&c).unwrap(), 4);
    let labels: Vec<(i64, String, String)> = c
        .prepare("SELECT bundle_id, label, source FROM labels ORDER BY bundle_id, label")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<(i64, String, String)> = [(1, "acme"), (2, "acme"), (2, "ticket-9")]
        .iter()
        .map(|(b, l)| (*b, l.to_string(), "index".to_string()))
        .collect();
    assert_eq!(labels, want);
    assert_eq!(hosts(&c, "label:ticket-*"), ["db02"]);
    let plan: String = c
        .query_row(
            "EXPLAIN QUERY PLAN SELECT bundle_id FROM labels WHERE label = 'acme'",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("labels_label"), "{plan}");
}

/// Rows of every part file of `table` in the Parquet dataset at `dir`.
fn parquet_rows(dir: &Path, table: &str) -> i64 {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    rca::archive::parquet::parts(dir, table)
        .unwrap()
        .iter()
        .map(|p| {
            let r = SerializedFileReader::new(std::fs::File::open(p).unwrap()).unwrap();
            r.metadata().file_metadata().num_rows()
        })
        .sum()
}

#[test]
fn parquet_and_json_lines_hold_the_rows_of_the_sqlite_archive_and_a_second_run_adds_none() {
    let d = tempfile::tempdir().unwrap();
    let a = renamed(&healthy_sample(), d.path(), "host-a");
    let zk = zookeeper_sample();
    let broken = d.path().join("broken.tar.gz");
    std::fs::write(&broken, b"\x1f\x8b\x08\x00garbage, not deflate data at all").unwrap();
    let args = [
        a.to_str().unwrap(),
        zk.to_str().unwrap(),
        broken.to_str().unwrap(),
    ];
    let db = d.path().join("cases.db");
    let o = rca(&[
        &["index", "--db", db.to_str().unwrap(), "--label", "acme"][..],
        &args,
    ]
    .concat());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let pq = d.path().join("pq");
    let pqs = pq.to_str().unwrap();
    let index_pq = [
        &[
            "index", "--format", "parquet", "--out", pqs, "--label", "acme",
        ][..],
        &args,
    ]
    .concat();
    let o = rca(&index_pq);
    // The broken bundle fails, as in SQLite, and is not written.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("2 stored, 0 already stored, 1 failed"),
        "{}",
        text(&o)
    );
    let tables = [
        ("bundles", "SELECT count(*) FROM bundles WHERE status = 'ok'"),
        ("findings", "SELECT count(*) FROM findings"),
        ("features", "SELECT count(*) FROM features"),
        ("artifacts", "SELECT count(*) FROM artifacts"),
        ("outcomes", "SELECT count(*) FROM outcomes"),
        ("labels", "SELECT count(*) FROM labels l JOIN bundles b ON b.id = l.bundle_id WHERE b.status = 'ok'"),
    ];
    for (t, sql) in tables {
        let n = count(&db, sql);
        assert!(n > 0, "{t}");
        assert_eq!(parquet_rows(&pq, t), n, "{t}");
    }
    // Partitioned by collection month: the samples were collected in November 2026.
    let parts = rca::archive::parquet::parts(&pq, "bundles").unwrap();
    assert!(!parts.is_empty());
    for p in &parts {
        assert!(
            p.parent().unwrap().ends_with("month=2026-11"),
            "{}",
            p.display()
        );
    }
    let known = rca::archive::parquet::known_hashes(&pq).unwrap();
    assert_eq!(known.len(), 2);

    // Again: the dataset's hashes are read, nothing is analyzed or written; the broken bundle
    // is tried again.
    let before: Vec<_> = rca::archive::parquet::TABLES
        .iter()
        .map(|t| rca::archive::parquet::parts(&pq, t).unwrap())
        .collect();
    let o = rca(&index_pq);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 stored, 2 already stored, 1 failed"),
        "{}",
        text(&o)
    );
    let after: Vec<_> = rca::archive::parquet::TABLES
        .iter()
        .map(|t| rca::archive::parquet::parts(&pq, t).unwrap())
        .collect();
    assert_eq!(before, after);

    // JSON lines: one line per analyzed bundle, with as many rows of each table.
    let jl = d.path().join("rows.jsonl");
    let o = rca(&[
        &[
            "index",
            "--format",
            "jsonl",
            "--out",
            jl.to_str().unwrap(),
            "--label",
            "acme",
        ][..],
        &args,
    ]
    .concat());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&jl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for (t, sql) in tables {
        let n: usize = lines.iter().map(|l| l[t].as_array().unwrap().len()).sum();
        assert_eq!(n as i64, count(&db, sql), "{t}");
    }
    for l in &lines {
        assert_eq!(l["month"], "2026-11");
        let id = &l["bundles"][0]["id"];
        assert!(l["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| &f["bundle_id"] == id));
    }

    // --out goes with --format parquet or jsonl only, and they need it.
    let o = rca(&["index", "--format", "parquet", a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = rca(&["index", "--out", pqs, a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn similar_gives_up_on_a_new_bundle_past_its_timeout() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("cases.db");
    let sample = healthy_sample();
    let args = [
        "similar",
        sample.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    let o = rca(&[&args[..], &["--bundle-timeout", "0s"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("exceeded its deadline"),
        "{}",
        text(&o)
    );
    // With time enough it is analyzed (and compared with nothing: the archive is empty).
    let o = rca(&[&args[..], &["--bundle-timeout", "10m"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = rca(&[&args[..], &["--bundle-timeout", "soon"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
