//! JVM locks on a real JVM: `tests/java-locks/Locks.java` is compiled with `javac` and run
//! twice. With 12 threads queued behind a monitor whose owner sleeps, `collector.sh --pid PID`
//! collects a bundle (its two thread dumps, at the window's start and end) and `rca analyze`
//! must report `jvm.monitor-contention` for that lock in both dumps, naming the owner and the
//! frame that holds the lock, and must not call the blocked pool oversized; the bundle holds a
//! `GC.heap_info` beside each dump. With two threads deadlocked, three `jstack -l` outputs in
//! a folder must give `jvm.deadlock` first.
//!
//! It needs a JDK (`javac`, `java`, `jstack`, `jcmd`); without it the test is skipped with one
//! line, unless `RCA_HOST_TESTS=1` (set by CI, which installs `default-jdk-headless`), where it
//! fails.

use super::{repo, Needs};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Kills the JVM when the test ends, whatever happens.
struct Jvm(Child);

impl Drop for Jvm {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `java -cp CLASSES Locks ARGS` and waits for its `ready` line.
fn start(classes: &Path, args: &[&str]) -> Jvm {
    let mut child = Command::new("java")
        .arg("-cp")
        .arg(classes)
        .arg("Locks")
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("java starts");
    let out = child.stdout.take().unwrap();
    let jvm = Jvm(child);
    let mut line = String::new();
    BufReader::new(out).read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready", "Locks {args:?} did not get ready");
    jvm
}

/// `rca analyze BUNDLE --json`: the exit status and the document.
fn analyze(bundle: &Path, json: &Path) -> (Option<i32>, Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(bundle)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    let doc = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (o.status.code(), doc)
}

fn rule_status<'a>(doc: &'a Value, id: &str) -> &'a str {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .and_then(|r| r["result"]["status"].as_str())
        .unwrap_or("missing")
}

#[test]
fn contended_monitor_and_deadlock_on_a_real_jvm() {
    if !Needs::new("java_locks")
        .commands("default-jdk-headless", &["javac", "java", "jstack", "jcmd"])
        .met()
    {
        return;
    }
    let _machine = crate::exclusive();
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    let o = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(repo().join("tests/java-locks/Locks.java"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "javac: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    // Contention, collected by the collector.
    let jvm = start(&classes, &["contention", "12"]);
    let pid = jvm.0.id().to_string();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args([
            "--duration",
            "3",
            "--interval",
            "1",
            "--no-perf",
            "--pid",
            &pid,
            "--output",
        ])
        .arg(&out)
        .output()
        .unwrap();
    drop(jvm);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let tarball = PathBuf::from(stdout.lines().last().unwrap_or_default().trim());
    assert!(
        tarball.exists(),
        "collector: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (_, doc) = analyze(&tarball, &tmp.path().join("c.json"));
    let f: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "jvm.monitor-contention")
        .collect();
    assert_eq!(f.len(), 1, "{:#?}", doc["findings"]);
    let title = f[0]["title"].as_str().unwrap();
    assert!(
        title.contains(&format!("(pid {pid}): 12 threads wait for lock"))
            && title.contains("(a Locks$Inventory) held by `holder`"),
        "{title}"
    );
    let why = f[0]["why"].as_str().unwrap();
    assert!(
        why.contains("2 of 2 thread dumps") && why.contains("12, 12 waiters"),
        "{why}"
    );
    assert!(
        why.contains("`Locks$Inventory.reserve(Locks.java:15)`"),
        "{why}"
    );
    assert_eq!(f[0]["severity"], "warning");
    let cited: Vec<&str> = f[0]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["artifact"].as_str())
        .collect();
    assert!(
        cited
            .iter()
            .any(|a| a.ends_with(&format!("jvm/{pid}/thread-dump.1.txt"))),
        "{cited:?}"
    );
    assert!(
        cited
            .iter()
            .any(|a| a.ends_with(&format!("jvm/{pid}/thread-dump.2.txt"))),
        "{cited:?}"
    );
    assert_ne!(rule_status(&doc, "jvm.thread-pool-oversized"), "findings");
    // The heap summary beside each thread dump.
    for n in 1..=2 {
        let want = format!("jvm/{pid}/gc-heap-info.{n}.txt");
        let a = doc["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["path"].as_str().is_some_and(|p| p.ends_with(&want)));
        let a = a.unwrap_or_else(|| panic!("{want} not in the bundle"));
        assert_eq!(a["kind"], "gc-heap-info", "{a:#}");
        assert_eq!(a["outcome"]["status"], "parsed", "{a:#}");
    }

    // Deadlock, three `jstack -l` outputs in a folder.
    let jvm = start(&classes, &["deadlock"]);
    let dir = tmp.path().join("dumps");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 1..=3 {
        let o = Command::new("jstack")
            .arg("-l")
            .arg(jvm.0.id().to_string())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "jstack: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::write(dir.join(format!("jstack.{i}.txt")), &o.stdout).unwrap();
    }
    drop(jvm);
    let (code, doc) = analyze(&dir, &tmp.path().join("d.json"));
    assert_eq!(code, Some(1), "{:#?}", doc["findings"]);
    let top = &doc["findings"][0];
    assert_eq!(top["rule_id"], "jvm.deadlock", "{top:#}");
    assert!(top["title"]
        .as_str()
        .unwrap()
        .contains("deadlock between 2 threads: `left`, `right`"));
    assert!(top["why"].as_str().unwrap().contains("3 of 3 thread dumps"));
}
