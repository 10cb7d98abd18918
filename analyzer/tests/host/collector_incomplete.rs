//! The collector where a run cannot finish, and what `rca analyze` makes of what it leaves: a
//! temp folder (TMPDIR) that fills up during the run, one full from the start, and `ethtool`
//! hung on six NICs against a short `--deadline`. A bundle that did not finish is never called
//! healthy; a run that cannot write its manifest leaves no tarball and says why.
//!
//! The temp folder is a loop-mounted ext4 image, made as `fs_full` makes its filesystems, which
//! needs root, `mkfs.ext4` (e2fsprogs) and `mount`/`umount`/`losetup` (Debian's `mount`); the
//! deadline case needs only `sh`. Without them the temp-folder cases skip with one line, unless
//! `RCA_HOST_TESTS=1` (CI installs them and runs as root), which makes their absence a failure.

use super::fs_full::{ext4, Scene};
use super::{analyze, repo, say, Needs};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One collector run: its exit status, stdout, stderr and wall time.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    secs: u64,
}

impl Run {
    /// The tarball named on the last line of stdout, if it exists.
    fn tarball(&self) -> Option<PathBuf> {
        let p = PathBuf::from(self.stdout.lines().last()?.trim());
        p.is_file().then_some(p)
    }
}

/// `sh collector.sh ARGS --no-perf --output OUT` with `env` set.
fn collect(out: &Path, env: &[(&str, &std::ffi::OsStr)], args: &[&str]) -> Run {
    let t0 = Instant::now();
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args(args)
        .args(["--no-perf", "--output"])
        .arg(out)
        .envs(env.iter().copied())
        .output()
        .expect("sh runs");
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        secs: t0.elapsed().as_secs(),
    }
}

/// The notes of the bundle's manifest records, from rca's document.
fn notes(doc: &serde_json::Value) -> Vec<String> {
    doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["record"]["note"].as_str().map(str::to_string))
        .collect()
}

/// rca's verdict on an incomplete bundle: not exit 0, the reason first in the terminal, no
/// "findings: none" on its own.
fn assert_not_healthy(code: Option<i32>, stdout: &str, reason: &str) {
    assert!(matches!(code, Some(1 | 2)), "rca exit {code:?}: {stdout}");
    let line = format!("INCOMPLETE collection: the collector says: {reason}");
    assert!(stdout.lines().any(|l| l.starts_with(&line)), "{stdout}");
    assert!(!stdout.contains("findings: none\n"), "{stdout}");
}

/// Root and the tools for a loop-mounted temp folder (a skip line when they are missing, a
/// failure under `RCA_HOST_TESTS=1`).
fn loop_mount_ready(test: &'static str) -> bool {
    Needs::new(test)
        .root()
        .commands("e2fsprogs", &["mkfs.ext4"])
        .commands("mount", &["mount", "umount", "losetup"])
        .met()
}

/// A 64 MiB ext4 temp folder mounted under `dir`, filled to its last block (as root: the
/// reserved ones too; 64 KiB writes, then 1 KiB ones, the filesystem's block size) by one file,
/// of which the last `free` bytes are then given back.
fn full_tmpdir(dir: &Path, free: u64, scene: &mut Scene, test: &str) -> Option<PathBuf> {
    let mnt = dir.join("tmp");
    if !ext4(&dir.join("tmp.img"), &mnt, &[], scene) {
        assert!(
            !super::required(),
            "RCA_HOST_TESTS=1 but a loop mount failed here"
        );
        say(&format!(
            "skipped: {test} needs loop mounts, which this machine refuses"
        ));
        return None;
    }
    let filler = mnt.join("filler");
    let mut f = File::create(&filler).unwrap();
    for size in [64 << 10, 1 << 10] {
        let block = vec![0u8; size];
        let enospc = loop {
            if let Err(e) = f.write_all(&block).and_then(|_| f.sync_data()) {
                break e;
            }
            assert!(
                f.metadata().unwrap().len() < 128 << 20,
                "a 64 MiB filesystem took more than 128 MiB"
            );
        };
        assert_eq!(enospc.raw_os_error(), Some(28), "ENOSPC: {enospc}");
    }
    let len = f.metadata().unwrap().len();
    f.set_len(len.saturating_sub(free)).unwrap();
    f.sync_all().unwrap();
    Some(mnt)
}

#[test]
fn a_temp_folder_that_fills_up_gives_a_bundle_marked_incomplete_and_never_healthy() {
    let _machine = crate::exclusive();
    let test = "collector_incomplete (temp folder fills up)";
    if !loop_mount_ready(test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut scene = Scene::default();
    // 400 KiB: room for the collector's start (its 256 KiB reserve for the manifest, the first
    // outputs), far from enough for a collection (about a megabyte).
    let Some(tmp) = full_tmpdir(dir.path(), 400 << 10, &mut scene, test) else {
        return;
    };
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let run = collect(&out, &[("TMPDIR", tmp.as_os_str())], &["--duration", "2"]);
    assert_eq!(run.code, Some(3), "collector: {}", run.stderr);
    assert!(
        run.stderr
            .contains("the bundle is incomplete: no space left on device while writing "),
        "{}",
        run.stderr
    );
    let tarball = run
        .tarball()
        .unwrap_or_else(|| panic!("no tarball: {}", run.stderr));
    // The collector removed its temp folder; the tarball is in the output folder only.
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "filler" && n != "lost+found")
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");

    let (code, doc, stdout) = analyze(&tarball);
    let meta = &doc["collection"]["meta"];
    assert_eq!(meta["complete"], "0");
    assert_eq!(meta["collector_version"], "0.4.0");
    let why = meta["incomplete"].as_str().unwrap();
    assert!(
        why.starts_with("no space left on device while writing "),
        "{why}"
    );
    // The manifest is whole (the reserve kept room for it): every record is there.
    assert_eq!(
        meta["records"].as_str().unwrap().parse::<usize>().unwrap(),
        doc["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["record"].is_object())
            .count()
    );
    let notes = notes(&doc);
    assert!(
        notes.iter().any(|n| n.contains("write failed: ")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("skipped: no space left in the temp folder ")),
        "{notes:?}"
    );
    assert_not_healthy(code, &stdout, "no space left on device while writing ");
}

#[test]
fn a_temp_folder_full_from_the_start_gives_no_tarball_and_says_why() {
    let _machine = crate::exclusive();
    let test = "collector_incomplete (temp folder full from the start)";
    if !loop_mount_ready(test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut scene = Scene::default();
    let Some(tmp) = full_tmpdir(dir.path(), 0, &mut scene, test) else {
        return;
    };
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let run = collect(&out, &[("TMPDIR", tmp.as_os_str())], &["--duration", "1"]);
    assert_eq!(run.code, Some(1), "collector: {}", run.stderr);
    let last = run.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("rca-collector: error: ")
            && last.contains(&tmp.display().to_string())
            && last.to_lowercase().contains("no space left")
            && last.contains("TMPDIR"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "a tarball was written"
    );
}

#[test]
fn a_hung_ethtool_stops_at_the_deadline_and_the_bundle_is_never_healthy() {
    let _machine = crate::exclusive();
    let dir = tempfile::tempdir().unwrap();
    // An ethtool that never answers, and a fake root whose six NICs have a device behind them
    // (so the collector asks ethtool about each): at least 60 s of budgets, one timeout per NIC.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("ethtool"),
        "#!/bin/sh\nwhile :; do sleep 1; done\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(bin.join("ethtool"))
        .status()
        .unwrap();
    let root = dir.path().join("root");
    for n in 0..6 {
        std::fs::create_dir_all(root.join(format!("sys/class/net/eth{n}/device"))).unwrap();
    }
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let run = collect(
        &out,
        &[("PATH", path.as_os_str()), ("RCA_ROOT", root.as_os_str())],
        &["--duration", "2", "--deadline", "15"],
    );
    assert_eq!(run.code, Some(3), "collector: {}", run.stderr);
    // Hang detection, not timing: without the deadline the run takes over a minute.
    assert!(run.secs <= 15 + 40, "took {} s: {}", run.secs, run.stderr);
    let tarball = run
        .tarball()
        .unwrap_or_else(|| panic!("no tarball: {}", run.stderr));

    let (code, doc, stdout) = analyze(&tarball);
    assert_eq!(doc["collection"]["meta"]["deadline"], "15");
    let notes = notes(&doc);
    assert!(
        notes
            .iter()
            .any(|n| n == "skipped: deadline reached (--deadline 15)"),
        "{notes:?}"
    );
    assert_not_healthy(code, &stdout, "deadline of 15 s reached: ");
}
