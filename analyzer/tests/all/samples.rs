//! The shipped sample bundles, analyzed through the command line as a user would.

use std::path::Path;
use std::process::Command;

#[test]
fn healthy_sample_has_no_warning_and_exits_0() {
    let dir = repo().join("sample-bundles/healthy");
    let bundle = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("the healthy sample is shipped");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&bundle)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let loud: Vec<_> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(loud.is_empty(), "{loud:?}");
    let clear = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"]["status"] == "clear")
        .count();
    assert!(
        clear >= 12,
        "a real collection evaluates most rules: {clear} clear"
    );
    let parsed = doc["outcome_counts"]["parsed"].as_u64().unwrap();
    assert!(parsed >= 40, "{parsed} parsed artifacts");
    assert!(doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["outcome"]["status"] != "parser-bug"));
}

// ---------------------------------------------------------------------------------------------
// The case samples: S1 (Hadoop DataNode on VMware) and S3 (ZooKeeper heap full of watches).
// Each runs `rca analyze BUNDLE --json` and checks the ranking and the cited lines against the
// bundle's own files. Problems are collected and reported together.
// ---------------------------------------------------------------------------------------------

use crate::common::repo;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

/// `rca analyze BUNDLE --json`: exit code, the JSON document and the terminal summary.
fn analyze(bundle: &Path) -> (Option<i32>, Value, String) {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(bundle)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let doc = std::fs::read_to_string(&json)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_else(|e| {
            panic!(
                "no JSON from rca analyze {} ({e}): {stdout}{}",
                bundle.display(),
                String::from_utf8_lossy(&o.stderr)
            )
        });
    (o.status.code(), doc, stdout)
}

/// The one entry of a sample folder whose name starts with `rca-` (the collector's top folder
/// or its tarball).
fn sample(folder: &str) -> PathBuf {
    let dir = repo().join("sample-bundles").join(folder);
    let found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("rca-"))
        .collect();
    assert_eq!(found.len(), 1, "one bundle in {}: {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

/// Text files of a bundle by path below its top folder: a directory or a `.tar.gz`.
fn bundle_files(bundle: &Path) -> HashMap<String, String> {
    let mut out = HashMap::new();
    if bundle.is_dir() {
        fn walk(root: &Path, dir: &Path, out: &mut HashMap<String, String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(root, &p, out);
                } else if let Ok(t) = std::fs::read_to_string(&p) {
                    let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                    out.insert(rel, t);
                }
            }
        }
        walk(bundle, bundle, &mut out);
        return out;
    }
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(bundle).unwrap());
    let mut ar = tar::Archive::new(gz);
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

fn findings(doc: &Value) -> &Vec<Value> {
    doc["findings"].as_array().expect("findings")
}

/// Rank (0 = first) of the first finding of `rule`.
fn rank(doc: &Value, rule: &str) -> Option<usize> {
    findings(doc).iter().position(|f| f["rule_id"] == rule)
}

fn ids(doc: &Value) -> Vec<String> {
    findings(doc)
        .iter()
        .map(|f| {
            format!(
                "{} ({})",
                f["rule_id"].as_str().unwrap(),
                f["severity"].as_str().unwrap()
            )
        })
        .collect()
}

/// The lines a finding's evidence cites in the artifact whose path ends with `artifact`, read
/// from the bundle itself; every excerpt line is checked against the file on the way.
fn cited(
    f: &Value,
    artifact: &str,
    files: &HashMap<String, String>,
    problems: &mut Vec<String>,
) -> Vec<String> {
    let rule = f["rule_id"].as_str().unwrap_or("?");
    let mut out = Vec::new();
    let mut seen = false;
    for ev in f["evidence"].as_array().into_iter().flatten() {
        let path = ev["artifact"].as_str().unwrap_or_default();
        if !path.ends_with(artifact) {
            continue;
        }
        seen = true;
        let rel = if files.contains_key(path) {
            path
        } else {
            path.split_once('/').map_or(path, |(_, r)| r)
        };
        let Some(text) = files.get(rel) else {
            problems.push(format!("{rule}: evidence cites {path}, not in the bundle"));
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        for l in ev["lines"].as_array().into_iter().flatten() {
            let n = l.as_u64().unwrap_or(0) as usize;
            match lines.get(n.wrapping_sub(1)) {
                Some(t) => out.push(t.to_string()),
                None => problems.push(format!(
                    "{rule}: {path}:{n} beyond its {} lines",
                    lines.len()
                )),
            }
        }
        for x in ev["excerpt"].as_array().into_iter().flatten() {
            let (Some(n), Some(t)) = (x["line"].as_u64(), x["text"].as_str()) else {
                continue;
            };
            let real = lines
                .get((n as usize).wrapping_sub(1))
                .copied()
                .unwrap_or_default();
            let same = match t.strip_suffix('…') {
                Some(prefix) => real.starts_with(prefix),
                None => n == 0 || real == t,
            };
            if !same {
                problems.push(format!(
                    "{rule}: {path}:{n}: excerpt {t:?}, the bundle has {real:?}"
                ));
            }
        }
    }
    if !seen {
        problems.push(format!(
            "{rule}: no evidence in an artifact ending with {artifact}"
        ));
    }
    out
}

/// The first finding of `rule`, or a problem noted.
fn finding<'a>(doc: &'a Value, rule: &str, problems: &mut Vec<String>) -> Option<&'a Value> {
    let f = findings(doc).iter().find(|f| f["rule_id"] == rule);
    if f.is_none() {
        problems.push(format!("no {rule} finding; findings: {:?}", ids(doc)));
    }
    f
}

fn expect_line(
    f: Option<&Value>,
    artifact: &str,
    want: impl Fn(&str) -> bool,
    what: &str,
    files: &HashMap<String, String>,
    problems: &mut Vec<String>,
) {
    let Some(f) = f else { return };
    let lines = cited(f, artifact, files, problems);
    if !lines.iter().any(|l| want(l)) {
        problems.push(format!(
            "{}: no cited line of {artifact} {what}: {lines:?}",
            f["rule_id"].as_str().unwrap_or("?")
        ));
    }
}

/// `a` ranks above `b` (both present).
fn above(doc: &Value, a: &str, b: &str, why: &str, problems: &mut Vec<String>) {
    if let (Some(x), Some(y)) = (rank(doc, a), rank(doc, b)) {
        if x > y {
            problems.push(format!(
                "{a} (rank {}) should rank above {b} (rank {}): {why}; findings: {:?}",
                x + 1,
                y + 1,
                ids(doc)
            ));
        }
    }
}

/// S1: a Hadoop DataNode on a VMware guest with three independent causes. The expected first
/// finding is the network cause, `nic.queues` (see sample-bundles/s1-hadoop-vmware/README.md).
#[test]
fn s1_hadoop_on_vmware_puts_the_balloon_first_then_the_single_queue_nic_and_shows_all_three_causes()
{
    let bundle = sample("s1-hadoop-vmware");
    let files = bundle_files(&bundle);
    let (code, doc, stdout) = analyze(&bundle);
    eprintln!("{stdout}");
    let mut problems = Vec::new();
    if code != Some(1) {
        problems.push(format!(
            "exit status {code:?}, expected 1 (findings at warning or above)"
        ));
    }
    let loud = |f: &&Value| f["severity"] == "warning" || f["severity"] == "critical";

    // The first finding and what it cites.
    let top = findings(&doc)
        .first()
        .map(|f| f["rule_id"].as_str().unwrap_or("?"));
    // Three independent causes: the one that accounts for the most other findings leads. The
    // balloon explains the active swapping and the DataNode's GC pauses; the single queue
    // explains the RX drops and is the first network finding.
    if top != Some("mem.balloon") {
        problems.push(format!(
            "first finding is {top:?}, expected mem.balloon (it explains mem.swap and \
             jvm.gc-overhead); findings: {:?}",
            ids(&doc)
        ));
    }
    let first_net = findings(&doc)
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap_or("?").to_string())
        .find(|id| id.starts_with("nic.") || id.starts_with("net."));
    if !matches!(
        first_net.as_deref(),
        Some("nic.queues") | Some("nic.rx-ring")
    ) {
        problems.push(format!(
            "the first network finding is {first_net:?}, expected the NIC configuration \
             (nic.queues or nic.rx-ring) above the drops it causes; findings: {:?}",
            ids(&doc)
        ));
    }
    let queues = finding(&doc, "nic.queues", &mut problems);
    if let Some(q) = queues {
        if q["severity"] != "critical" {
            problems.push(format!(
                "nic.queues is {}, expected critical",
                q["severity"]
            ));
        }
    }
    let ethtool = "net/ethtool/eth0/ethtool-l.txt";
    expect_line(
        queues,
        ethtool,
        |l| l == "Combined:\t1",
        "with the current `Combined:\t1`",
        &files,
        &mut problems,
    );
    expect_line(
        queues,
        ethtool,
        |l| l == "Combined:\t8",
        "with the maximum `Combined:\t8`",
        &files,
        &mut problems,
    );

    // All three causes, each at warning or above, with their evidence.
    for (area, prefix) in [
        ("network path", "nic."),
        ("time sync", "time."),
        ("memory", "mem."),
    ] {
        if !findings(&doc)
            .iter()
            .filter(loud)
            .any(|f| f["rule_id"].as_str().unwrap_or("").starts_with(prefix))
        {
            problems.push(format!(
                "no {prefix}* finding at warning or above (the {area} cause): {:?}",
                ids(&doc)
            ));
        }
    }
    let drops = finding(&doc, "net.rx-drops", &mut problems);
    expect_line(
        drops,
        "proc/net/dev.end",
        |l| l.trim_start().starts_with("eth0:"),
        "for eth0",
        &files,
        &mut problems,
    );
    let two = finding(&doc, "time.two-sources", &mut problems);
    expect_line(
        two,
        "time/vmware-timesync.txt",
        |l| l == "Enabled",
        "saying `Enabled`",
        &files,
        &mut problems,
    );
    expect_line(
        two,
        "system/ps.txt",
        |l| l.contains("/usr/sbin/chronyd"),
        "with chronyd",
        &files,
        &mut problems,
    );
    let balloon = finding(&doc, "mem.balloon", &mut problems);
    expect_line(
        balloon,
        "mem/vmware-balloon.txt",
        |l| l == "4096 MB",
        "with `4096 MB`",
        &files,
        &mut problems,
    );
    expect_line(
        balloon,
        "proc/modules",
        |l| l.starts_with("vmw_balloon "),
        "with vmw_balloon",
        &files,
        &mut problems,
    );
    let swap = finding(&doc, "mem.swap", &mut problems);
    if let Some(s) = swap {
        if s["severity"] != "critical" {
            problems.push(format!(
                "mem.swap is {}, expected critical (si/so during the window)",
                s["severity"]
            ));
        }
    }
    expect_line(
        swap,
        "kernel/sysctl-a.txt",
        |l| l == "vm.swappiness = 60",
        "with `vm.swappiness = 60`",
        &files,
        &mut problems,
    );
    expect_line(
        swap,
        "sysstat/vmstat.txt",
        |l| l.split_whitespace().nth(6).is_some_and(|si| si != "0"),
        "with swap-in",
        &files,
        &mut problems,
    );
    let gc = finding(&doc, "jvm.gc-overhead", &mut problems);
    expect_line(
        gc,
        "jvm/1742/gc.log",
        |l| l.contains("Pause Young"),
        "with a pause",
        &files,
        &mut problems,
    );
    finding(&doc, "jvm.heap-vs-memory", &mut problems);
    finding(&doc, "yarn.vmem-check", &mut problems);
    let disk = finding(&doc, "disk.saturation", &mut problems);
    expect_line(
        disk,
        "sysstat/iostat-x.txt",
        |l| l.starts_with("sdb ") || l.starts_with("sdc "),
        "for a data disk",
        &files,
        &mut problems,
    );

    // Ranking: causes before their symptoms, throughput causes before the time-sync risk, and
    // no ruled-out suspect (raw CPU utilisation, ~42 %) above the first finding.
    above(
        &doc,
        "nic.queues",
        "net.rx-drops",
        "the single queue is why eth0 drops",
        &mut problems,
    );
    for time in ["time.two-sources", "time.offset"] {
        above(
            &doc,
            "nic.queues",
            time,
            "the case measured the network fix; time sync is a correctness risk",
            &mut problems,
        );
        above(
            &doc,
            "mem.balloon",
            time,
            "the memory cause lengthens GC pauses",
            &mut problems,
        );
    }
    if let Some(top_rank) = rank(&doc, "nic.queues") {
        for f in findings(&doc).iter().take(top_rank) {
            let id = f["rule_id"].as_str().unwrap_or("");
            if f["area"] == "cpu" || id.starts_with("softirq.") || id.starts_with("profile.") {
                problems.push(format!(
                    "{id}, a ruled-out CPU suspect, ranks above nic.queues"
                ));
            }
        }
    }
    let soft = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "softirq.saturation");
    if soft.map(|r| r["result"]["status"].clone()) != Some(Value::from("clear")) {
        problems.push(format!(
            "softirq.saturation should be clear (CPU 0 below 50 % %soft): {soft:?}"
        ));
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// S3: a real ZooKeeper 3.8 with one million watches in the default watch manager and a heap
/// whose old generation stays full across the full GCs of the window.
#[test]
fn s3_zookeeper_puts_the_default_watch_manager_first_above_the_full_old_generation() {
    let bundle = sample("s3-zookeeper-watches");
    let files = bundle_files(&bundle);
    let (code, doc, stdout) = analyze(&bundle);
    eprintln!("{stdout}");
    let mut problems = Vec::new();
    if code != Some(1) {
        problems.push(format!("exit status {code:?}, expected 1"));
    }
    let top = findings(&doc).first();
    if top.map(|f| f["rule_id"].clone()) != Some(Value::from("zk.default-watch-manager")) {
        problems.push(format!(
            "first finding should be zk.default-watch-manager: {:?}",
            ids(&doc)
        ));
    }
    let wm = finding(&doc, "zk.default-watch-manager", &mut problems);
    if let Some(w) = wm {
        if w["severity"] != "critical" {
            problems.push(format!(
                "zk.default-watch-manager is {}, expected critical",
                w["severity"]
            ));
        }
    }
    expect_line(
        wm,
        "/mntr.txt",
        |l| l == "zk_watch_count\t1000000",
        "with `zk_watch_count\t1000000`",
        &files,
        &mut problems,
    );
    expect_line(
        wm,
        "/wchs.txt",
        |l| l == "Total watches:1000000",
        "with `Total watches:1000000`",
        &files,
        &mut problems,
    );
    expect_line(
        wm,
        "/class-histogram.txt",
        |l| l.contains(" java.util.HashMap$Node "),
        "naming HashMap$Node",
        &files,
        &mut problems,
    );
    let old_pct = |l: &str| -> Option<f64> { l.split_whitespace().nth(4)?.parse().ok() };
    expect_line(
        wm,
        "/jstat-gcutil.txt",
        |l| old_pct(l).is_some_and(|o| o >= 90.0),
        "with O >= 90",
        &files,
        &mut problems,
    );
    let old = finding(&doc, "jvm.old-gen-not-reclaimed", &mut problems);
    if let Some(o) = old {
        if o["severity"] != "critical" {
            problems.push(format!(
                "jvm.old-gen-not-reclaimed is {}, expected critical (several full GCs)",
                o["severity"]
            ));
        }
    }
    expect_line(
        old,
        "/jstat-gcutil.txt",
        |l| old_pct(l).is_some_and(|o| o >= 90.0),
        "with O >= 90",
        &files,
        &mut problems,
    );
    above(
        &doc,
        "zk.default-watch-manager",
        "jvm.old-gen-not-reclaimed",
        "the watch maps fill the old generation",
        &mut problems,
    );
    above(
        &doc,
        "zk.default-watch-manager",
        "jvm.gc-overhead",
        "the full GCs are the watch maps' doing",
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
