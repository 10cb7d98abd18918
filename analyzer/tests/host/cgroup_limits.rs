//! cgroup limits for real: a memory cgroup whose limit OOM-kills a memory hog beside the
//! target, and a CPU cgroup whose quota throttles a busy loop, each collected by `collector.sh`
//! and analyzed by `rca analyze`.
//!
//! Needs root and a writable cgroup hierarchy with the controller (v1
//! `/sys/fs/cgroup/{memory,cpu}`, or v2 `/sys/fs/cgroup` with `memory` and `cpu` in
//! `cgroup.subtree_control`). Without root the test skips with one line, unless
//! `RCA_HOST_TESTS=1` (CI runs as root), where it fails; without the hierarchy it skips with one
//! line whatever `RCA_HOST_TESTS` says (a container often has neither, and no package provides
//! them). The tools are coreutils (`sleep`, `tail`) and `sh`. The cgroups are removed
//! afterwards.

use super::{repo, say, Needs};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

/// One test cgroup: its directory and how to write its limit.
struct Group {
    dir: PathBuf,
    children: Vec<Child>,
}

impl Group {
    /// Creates `name` under the hierarchy of `controller` (v1 mount, else v2 with the
    /// controller delegated); `None` when that is not possible here.
    fn create(controller: &str, name: &str) -> Option<Group> {
        let v1 = Path::new("/sys/fs/cgroup").join(controller);
        let root = if v1.join("cgroup.procs").exists() {
            v1
        } else {
            let v2 = PathBuf::from("/sys/fs/cgroup");
            let sub = std::fs::read_to_string(v2.join("cgroup.subtree_control")).ok()?;
            if !sub.split_whitespace().any(|c| c == controller) {
                return None;
            }
            v2
        };
        let dir = root.join(name);
        let _ = std::fs::remove_dir(&dir);
        std::fs::create_dir(&dir).ok()?;
        Some(Group {
            dir,
            children: Vec::new(),
        })
    }

    fn is_v2(&self) -> bool {
        self.dir.join("cgroup.controllers").exists()
    }

    fn write(&self, file: &str, value: &str) -> bool {
        std::fs::write(self.dir.join(file), value).is_ok()
    }

    /// Starts `script` under `sh` inside the cgroup; returns its pid.
    fn spawn(&mut self, script: &str) -> u32 {
        let procs = self.dir.join("cgroup.procs");
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("echo $$ > '{}' && exec {script}", procs.display()))
            // The shell's "Killed" notes for the OOM-killed hogs are expected.
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("sh starts");
        let pid = child.id();
        self.children.push(child);
        pid
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        // The kernel may take a moment to empty the cgroup after its last task exits.
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// Collects `pid` for `secs` seconds and returns `rca analyze`'s JSON document.
fn collect_and_analyze(pid: u32, secs: u32, out: &Path) -> Value {
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args(["--no-perf", "--duration", &secs.to_string(), "--pid"])
        .arg(pid.to_string())
        .arg("--output")
        .arg(out)
        .output()
        .expect("sh runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let tarball = stdout
        .lines()
        .last()
        .expect("a tarball path")
        .trim()
        .to_string();
    let json = out.join("f.json");
    let a = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&tarball)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(matches!(a.status.code(), Some(0..=1)), "{a:?}");
    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
}

fn finding<'a>(doc: &'a Value, id: &str) -> Option<&'a Value> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == id)
}

#[test]
fn a_memory_cgroup_limit_oom_kills_and_is_named() {
    if !Needs::new("cgroup_limits (memory)").root().met() {
        return;
    }
    let _machine = crate::exclusive();
    let name = format!("rca-test-oom-{}", std::process::id());
    let Some(mut g) = Group::create("memory", &name) else {
        say("skipped: cgroup_limits (memory) needs a writable memory cgroup hierarchy");
        return;
    };
    let limit = (32u64 << 20).to_string();
    let ok = if g.is_v2() {
        g.write("memory.max", &limit) && g.write("memory.swap.max", "0")
    } else {
        g.write("memory.limit_in_bytes", &limit)
    };
    assert!(ok, "the limit of {} could not be set", g.dir.display());
    let target = g.spawn("sleep 120");
    // Beside the target, a loop of memory hogs: `tail /dev/zero` keeps one endless line.
    g.spawn("sh -c 'while :; do tail /dev/zero; sleep 1; done'");
    let dir = tempfile::tempdir().unwrap();
    let doc = collect_and_analyze(target, 6, dir.path());
    let f = finding(&doc, "cgroup.oom-kill")
        .unwrap_or_else(|| panic!("no cgroup.oom-kill finding: {:#}", doc["rules"]));
    assert_eq!(f["severity"], "critical");
    let title = f["title"].as_str().unwrap();
    assert!(title.contains(&format!("/{name}")), "{title}");
    assert!(title.contains("during the"), "{title}");
    assert!(f["why"]
        .as_str()
        .unwrap()
        .contains("reached its 32 MiB limit"));
}

#[test]
fn a_cpu_quota_throttles_a_busy_loop() {
    if !Needs::new("cgroup_limits (cpu)").root().met() {
        return;
    }
    let _machine = crate::exclusive();
    let name = format!("rca-test-cpu-{}", std::process::id());
    let Some(mut g) = Group::create("cpu", &name) else {
        say("skipped: cgroup_limits (cpu) needs a writable cpu cgroup hierarchy");
        return;
    };
    let ok = if g.is_v2() {
        g.write("cpu.max", "10000 100000")
    } else {
        g.write("cpu.cfs_period_us", "100000") && g.write("cpu.cfs_quota_us", "10000")
    };
    assert!(ok, "the quota of {} could not be set", g.dir.display());
    let target = g.spawn("sh -c 'while :; do :; done'");
    let dir = tempfile::tempdir().unwrap();
    let doc = collect_and_analyze(target, 5, dir.path());
    let f = finding(&doc, "cgroup.cpu-throttled")
        .unwrap_or_else(|| panic!("no cgroup.cpu-throttled finding: {:#}", doc["rules"]));
    assert_eq!(f["severity"], "warning");
    let title = f["title"].as_str().unwrap();
    assert!(title.contains(&format!("/{name}")), "{title}");
    assert!(
        f["why"]
            .as_str()
            .unwrap()
            .contains("(0.10 CPU: 10000 µs per 100000 µs period)"),
        "{}",
        f["why"]
    );
}
