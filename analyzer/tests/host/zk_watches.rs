//! The ZooKeeper watch-manager case on a real server: `tests/zk-watches/run.sh` starts Debian's
//! ZooKeeper with a small heap, fills it with a million watches (10 000 znodes × 100 sessions,
//! through kazoo) and collects a bundle with `collector.sh --zk`, once with the default
//! `WatchManager` and once with `WatchManagerOptimized`. `rca analyze --json` must then report
//! `zk.default-watch-manager` on the first bundle, citing lines of its `wchs` or `mntr` answer
//! and of the class histogram (checked against the text in the bundle), and must run that rule
//! and find nothing on the second.
//!
//! It needs root, a JDK (`jcmd`, `jstat`), nc, the Debian packages `zookeeper` and
//! `python3-kazoo`. Without them it is skipped with one line, unless `RCA_HOST_TESTS=1` (set
//! by CI, which installs them), where it fails; a failed run shows every failed check of
//! `run.sh` with its detail lines. The bundles go to a temp folder removed afterwards, or to
//! `RCA_ZK_WATCHES_OUT` when set (kept there as `zk-watches-default.tar.gz` and
//! `zk-watches-optimized.tar.gz`).

use super::Needs;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const RULE: &str = "zk.default-watch-manager";

/// Whether Debian's Python (or the first on the `PATH`) imports kazoo, as `run.sh` looks for it.
fn kazoo() -> bool {
    ["/usr/bin/python3", "python3"].iter().any(|p| {
        Command::new(p)
            .args(["-c", "import kazoo"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Regular files of a `.tar.gz`, by path without the top folder.
fn bundle_files(path: &Path) -> HashMap<String, String> {
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap());
    let mut ar = tar::Archive::new(gz);
    let mut out = HashMap::new();
    for e in ar.entries().unwrap() {
        let mut e = e.unwrap();
        if !e.header().entry_type().is_file() {
            continue;
        }
        let p = e.path().unwrap().to_string_lossy().into_owned();
        let rel = p.split_once('/').map_or(p.clone(), |(_, r)| r.to_string());
        let mut text = String::new();
        if e.read_to_string(&mut text).is_ok() {
            out.insert(rel, text);
        }
    }
    out
}

/// `rca analyze BUNDLE --json`: the JSON document (exit 0 or 1 expected).
fn analyze(bundle: &Path, json: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(bundle)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "rca analyze {} exited {:?}:\n{}",
        bundle.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

fn findings_of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .collect()
}

/// Checks one evidence entry against the bundle: the artifact exists, every cited line exists
/// and the excerpt shows its text. Returns the cited lines' text.
fn cited_lines(
    ev: &Value,
    files: &HashMap<String, String>,
    problems: &mut Vec<String>,
) -> Vec<String> {
    let artifact = ev["artifact"].as_str().unwrap_or_default();
    let rel = artifact.split_once('/').map_or(artifact, |(_, r)| r);
    let Some(text) = files.get(rel) else {
        problems.push(format!(
            "evidence cites {artifact}, which is not in the bundle"
        ));
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let cited: Vec<usize> = ev["lines"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|l| l.as_u64())
                .map(|l| l as usize)
                .collect()
        })
        .unwrap_or_default();
    if cited.is_empty() {
        problems.push(format!("evidence on {artifact} cites no line"));
    }
    let mut out = Vec::new();
    for l in cited {
        match lines.get(l.wrapping_sub(1)) {
            Some(t) => out.push(t.to_string()),
            None => problems.push(format!(
                "{artifact}: cited line {l} beyond its {} lines",
                lines.len()
            )),
        }
    }
    for x in ev["excerpt"].as_array().into_iter().flatten() {
        let (Some(l), Some(t)) = (x["line"].as_u64(), x["text"].as_str()) else {
            continue;
        };
        if l == 0 {
            continue;
        }
        let real = lines.get(l as usize - 1).copied().unwrap_or_default();
        let same = match t.strip_suffix('…') {
            Some(prefix) => real.starts_with(prefix),
            None => real == t,
        };
        if !same {
            problems.push(format!(
                "{artifact}:{l}: excerpt {t:?}, bundle has {real:?}"
            ));
        }
    }
    out
}

#[test]
fn zk_watch_manager_end_to_end() {
    let _machine = crate::exclusive();
    let ready = Needs::new("zk_watches")
        .root()
        .that(
            Path::new("/usr/share/zookeeper/bin/zkServer.sh").exists(),
            "zkServer.sh (Debian package zookeeper)",
        )
        .that(kazoo(), "kazoo (Debian package python3-kazoo)")
        .commands("default-jdk-headless", &["java", "jcmd", "jstat"])
        .commands("netcat-openbsd", &["nc"])
        .met();
    if !ready {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let outdir: PathBuf = std::env::var_os("RCA_ZK_WATCHES_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| tmp.path().to_path_buf());
    let Some(stdout) = crate::run_suite(
        "zk_watches",
        "tests/zk-watches/run.sh",
        &[outdir.as_os_str()],
        &[],
    ) else {
        return;
    };
    for l in stdout.lines().filter(|l| l.starts_with("measure ")) {
        eprintln!("{l}");
    }

    let mut problems: Vec<String> = Vec::new();

    // Default watch manager: the rule fires and cites the watches and the histogram.
    let bundle = outdir.join("zk-watches-default.tar.gz");
    let files = bundle_files(&bundle);
    // The server's watch count, as its wchs answer in the bundle gives it.
    let watches: String = files
        .iter()
        .filter(|(p, _)| p.starts_with("zk/") && p.ends_with("/wchs.txt"))
        .flat_map(|(_, t)| t.lines())
        .find_map(|l| l.strip_prefix("Total watches:"))
        .unwrap_or("?")
        .to_string();
    let report = analyze(&bundle, &tmp.path().join("default.json"));
    let found = findings_of(&report, RULE);
    if found.is_empty() {
        let status = report["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == RULE)
            .map(|r| r["result"].to_string())
            .unwrap_or_else(|| "no such rule".into());
        problems.push(format!(
            "default manager: no {RULE} finding (rule: {status}); findings: {:?}",
            report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["rule_id"].as_str().unwrap_or_default())
                .collect::<Vec<_>>()
        ));
    }
    for f in &found {
        eprintln!(
            "default manager: {} {}: {}",
            f["severity"], f["title"], f["why"]
        );
        let evidence = f["evidence"].as_array().cloned().unwrap_or_default();
        let is_zk = |e: &Value| {
            e["artifact"].as_str().is_some_and(|a| {
                a.contains("/zk/") && (a.ends_with("/wchs.txt") || a.ends_with("/mntr.txt"))
            })
        };
        let is_histogram = |e: &Value| {
            e["artifact"]
                .as_str()
                .is_some_and(|a| a.contains("/jvm/") && a.ends_with("/class-histogram.txt"))
        };
        let zk: Vec<String> = evidence
            .iter()
            .filter(|e| is_zk(e))
            .flat_map(|e| cited_lines(e, &files, &mut problems))
            .collect();
        let hist: Vec<String> = evidence
            .iter()
            .filter(|e| is_histogram(e))
            .flat_map(|e| cited_lines(e, &files, &mut problems))
            .collect();
        if !zk.iter().any(|l| {
            *l == format!("zk_watch_count\t{watches}") || *l == format!("Total watches:{watches}")
        }) {
            problems.push(format!(
                "default manager: no cited wchs/mntr line gives the {watches} watches: {zk:?}"
            ));
        }
        if !hist.iter().any(|l| l.contains("java.util.HashMap$Node ")) {
            problems.push(format!(
                "default manager: no cited class-histogram line names java.util.HashMap$Node: {hist:?}"
            ));
        }
    }

    // WatchManagerOptimized: the rule runs and finds nothing.
    let bundle = outdir.join("zk-watches-optimized.tar.gz");
    let report = analyze(&bundle, &tmp.path().join("optimized.json"));
    if !findings_of(&report, RULE).is_empty() {
        problems.push(format!("optimized manager: {RULE} reported"));
    }
    match report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == RULE)
    {
        Some(r) if r["result"]["status"] == "clear" => {
            eprintln!(
                "optimized manager: {RULE} clear: {}",
                r["result"]["checked"]
            );
        }
        Some(r) => problems.push(format!(
            "optimized manager: {RULE} should be clear, is {}",
            r["result"]
        )),
        None => problems.push(format!("optimized manager: no rule {RULE}")),
    }

    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
