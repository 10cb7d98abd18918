//! A full filesystem made for real: two loop-mounted ext4 images, one filled to its last block
//! by a writer whose argument names its folder, one to its last inode; `collector.sh` collects
//! this machine, and `rca analyze` must name both mounts in `fs.full` findings, the writer of
//! the first, and which of blocks or inodes ran out.
//!
//! Needs root (mount), `mkfs.ext4` (e2fsprogs), `mount`/`umount`/`losetup` (Debian's `mount`),
//! `lsblk` (util-linux) and `df` (coreutils). Without them it skips with one line, unless
//! `RCA_HOST_TESTS=1` (CI installs them and runs as root), which makes their absence a failure.

use super::{analyze, repo, say, Needs};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

fn run(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

/// Unmounts what it mounted and stops the writer, whatever the test's outcome.
#[derive(Default)]
pub(crate) struct Scene {
    pub(crate) mounts: Vec<PathBuf>,
    pub(crate) writer: Option<Child>,
}

impl Drop for Scene {
    fn drop(&mut self) {
        if let Some(w) = &mut self.writer {
            let _ = w.kill();
            let _ = w.wait();
        }
        for m in self.mounts.iter().rev() {
            // -d frees the loop device the mount set up.
            let _ = Command::new("umount").arg("-d").arg(m).status();
        }
    }
}

/// A 64 MiB image at `img`, made with `mkfs.ext4 -q -F` plus `extra`, mounted on `mnt`.
pub(crate) fn ext4(img: &Path, mnt: &Path, extra: &[&str], scene: &mut Scene) -> bool {
    File::create(img).unwrap().set_len(64 << 20).unwrap();
    std::fs::create_dir_all(mnt).unwrap();
    let img_s = img.to_str().unwrap();
    let mut args = vec!["-q", "-F"];
    args.extend(extra);
    args.push(img_s);
    if !run("mkfs.ext4", &args) {
        return false;
    }
    if !run("mount", &["-o", "loop", img_s, mnt.to_str().unwrap()]) {
        return false;
    }
    scene.mounts.push(mnt.to_path_buf());
    true
}

#[test]
fn full_blocks_and_full_inodes_are_found_with_their_writer() {
    let _machine = crate::exclusive();
    let ready = Needs::new("fs_full")
        .root()
        .commands("e2fsprogs", &["mkfs.ext4"])
        .commands("mount", &["mount", "umount", "losetup"])
        .commands("util-linux", &["lsblk"])
        .commands("coreutils", &["df"])
        .met();
    if !ready {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (data, spool) = (dir.path().join("data"), dir.path().join("spool"));
    let mut scene = Scene::default();
    let made = ext4(&dir.path().join("data.img"), &data, &[], &mut scene)
        && ext4(
            &dir.path().join("spool.img"),
            &spool,
            &["-N", "64"],
            &mut scene,
        );
    if !made {
        assert!(
            !super::required(),
            "RCA_HOST_TESTS=1 but a loop mount failed here"
        );
        say("skipped: fs_full needs loop mounts, which this machine refuses");
        return;
    }
    // Fill the data filesystem's blocks (as root: the reserved ones too) ...
    let logs = data.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let mut f = File::create(logs.join("server.log")).unwrap();
    let block = vec![0u8; 64 << 10];
    let mut written = 0u64;
    let enospc = loop {
        match f.write_all(&block).and_then(|_| f.sync_data()) {
            Ok(()) => written += block.len() as u64,
            Err(e) => break e,
        }
        assert!(
            written < 128 << 20,
            "a 64 MiB filesystem took more than 128 MiB"
        );
    };
    assert_eq!(enospc.raw_os_error(), Some(28), "ENOSPC: {enospc}");
    // ... and the spool's inodes.
    let queue = spool.join("queue");
    std::fs::create_dir_all(&queue).unwrap();
    let mut files = 0;
    let err = loop {
        match File::create(queue.join(format!("msg.{files}"))) {
            Ok(_) => files += 1,
            Err(e) => break e,
        }
        assert!(files < 100_000, "64 inodes took more than 100000 files");
    };
    assert_eq!(err.raw_os_error(), Some(28), "ENOSPC: {err}");
    // The writer: a process whose argument names the data folder.
    scene.writer = Some(
        Command::new("sh")
            .args(["-c", "sleep 120", "writer"])
            .arg(format!("--log-dir={}", logs.display()))
            .spawn()
            .unwrap(),
    );

    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args([
            "--duration",
            "1",
            "--interval",
            "1",
            "--no-perf",
            "--output",
        ])
        .arg(&out)
        .output()
        .expect("sh runs");
    assert!(
        o.status.success(),
        "collector: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tarball = String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    let (code, doc, stdout) = analyze(std::path::Path::new(&tarball));
    assert_eq!(code, Some(1), "{stdout}");
    let titles: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "fs.full")
        .map(|f| f["title"].as_str().unwrap().to_string())
        .collect();
    let of = |m: &Path| {
        titles
            .iter()
            .find(|t| t.starts_with(&format!("Filesystem {} ", m.display())))
            .unwrap_or_else(|| panic!("no fs.full finding for {}: {titles:?}", m.display()))
            .clone()
    };
    let d = of(&data);
    assert!(d.contains(": blocks 100 %"), "{d}");
    assert!(
        d.contains(&format!("(--log-dir={})", logs.display())),
        "{d}"
    );
    let s = of(&spool);
    assert!(s.contains(": inodes 100 %") && !s.contains("blocks"), "{s}");
}
