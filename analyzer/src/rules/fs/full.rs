//! `fs.full`: a writable filesystem out of blocks or out of inodes.
//!
//! Reads each filesystem's block usage (`df -P`, `df -k`, `df -h`) and inode usage (`df -i`),
//! its type and `ro` flag from the mount table, and the processes and service settings that
//! write below its mount point (the deepest mount containing the path they name). The logs'
//! `No space left on device` messages (kernel log, syslog, journal) join each full filesystem's
//! finding as evidence; with no `df` at all they make a finding of their own, since they name no
//! filesystem.

use crate::evidence::Evidence;
use crate::facts::storage::{Filesystem, Usage};
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// df's use percentage (blocks or inodes) at or above which a filesystem is nearly full, %.
const USE_WARN_PCT: u32 = 95;
/// df's use percentage at which nothing is left for unprivileged writers, %.
const USE_FULL_PCT: u32 = 100;

/// Types whose fullness is normal or not about disk space: read-only images (always 100 %) and
/// memory-backed filesystems (their size is a memory limit).
const SKIPPED_TYPES: &[&str] = &[
    "squashfs", "iso9660", "udf", "erofs", "cramfs", "tmpfs", "devtmpfs", "ramfs", "proc", "sysfs",
    "devpts", "cgroup", "cgroup2", "nsfs", "overlay",
];

const MKE2FS: Source = Source::Doc {
    document: "mke2fs(8) manual page (e2fsprogs)",
    section: Some(
        "-m reserved-blocks-percentage (default 5 %); -i bytes-per-inode, -N number-of-inodes",
    ),
    url: Some("https://man7.org/linux/man-pages/man8/mke2fs.8.html"),
};

const DF_MANUAL: Source = Source::Doc {
    document: "GNU coreutils manual, df invocation",
    section: Some("Use%: used / (used + available), rounded up"),
    url: Some("https://www.gnu.org/software/coreutils/manual/html_node/df-invocation.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "fs.full",
    title: "Filesystem full: no blocks or no inodes left for writers",
    area: Area::Disk,
    severity: Severity::Warning,
    needs: &[Fact::Storage],
    reads: &[
        Fact::Processes,
        Fact::Zookeeper,
        Fact::Hadoop,
        Fact::KernelLog,
    ],
    thresholds: &[
        Threshold {
            name: "Use% / IUse%",
            value: Limit::Num(USE_WARN_PCT as f64),
            unit: "%",
            meaning: "at or above: nearly full, a warning. ext4 keeps 5 % of blocks for root by \
                      default, which df counts as neither used nor available: at 95 % an \
                      ordinary filesystem is within that same margin of refusing writes",
            sources: &[MKE2FS, DF_MANUAL],
        },
        Threshold {
            name: "Use% / IUse% (full)",
            value: Limit::Num(USE_FULL_PCT as f64),
            unit: "%",
            meaning: "at 100 % (no available blocks, or no free inodes): writes by unprivileged \
                      processes fail with ENOSPC (\"No space left on device\"); critical",
            sources: &[
                DF_MANUAL,
                MKE2FS,
                Source::Rca(
                    "100 % is where df's own figures say nothing is left, not a tuning choice",
                ),
            ],
        },
    ],
    groups: &[SymptomGroup::Storage],
    explains: &[],
    fires_when: "a writable disk filesystem at ≥ 95 % of its blocks or of its inodes (critical \
                 at 100 %); not read-only mounts, squashfs/ISO images, tmpfs",
    checks: "For each filesystem in `df` (blocks) and `df -i` (inodes): df's use percentage. \
             Skips mounts the mount table shows `ro`, image and memory filesystems (squashfs — \
             snap packages —, iso9660, erofs, tmpfs, devtmpfs, overlay) and, without a mount \
             table, mounts under `/snap/`. Names the processes whose arguments (`-Dlog.dir=`, \
             `--datadir=`, `-Xloggc:`) or whose service settings (ZooKeeper `dataDir`, Hadoop \
             data and log dirs) point below the mount point.",
    why: "A full filesystem fails every write with ENOSPC: logs stop, GC logs are lost, \
          databases and ZooKeeper cannot append their transaction logs and shut down or \
          stall; a filesystem out of inodes does the same with free blocks left, which `df -h` \
          alone does not show.",
    false_positives: "Filesystems meant to be full (a preallocated data file, an archive \
                      volume still mounted read-write); df read at a different time than the \
                      incident.",
    remedy: "Free space where the named writer writes (rotate or compress its logs, remove old \
             snapshots or heap dumps), or grow the filesystem; for inodes, remove many small \
             files (spool, session or cache folders) — the inode count of ext4 is fixed when it \
             is made (`mke2fs -N`/`-i`).",
    file: file!(),
};

/// Human size: `54.7 MiB`.
fn size(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// Why `fs` is not judged, if it is not.
fn skipped(fs: &Filesystem) -> Option<String> {
    if fs.read_only.as_ref().is_some_and(|r| r.value) {
        return Some("mounted read-only".into());
    }
    if let Some(t) = &fs.fstype {
        if SKIPPED_TYPES.contains(&t.value.as_str()) {
            return Some(format!("type {}", t.value));
        }
    } else if fs.mount.starts_with("/snap/") {
        return Some("a snap package image".into());
    } else if MEMORY_DEVICES.contains(&fs.device.as_str()) {
        // Without a type (plain `df`), the memory filesystems print their type as the device.
        return Some(format!("a memory filesystem (device `{}`)", fs.device));
    } else if OPTICAL_DEVICES.iter().any(|d| fs.device.starts_with(d)) {
        return Some(format!("an optical disc (device `{}`)", fs.device));
    }
    None
}

/// `df`'s Filesystem column of memory-backed mounts, which print their type there.
const MEMORY_DEVICES: &[&str] = &["tmpfs", "devtmpfs", "ramfs", "shm", "overlay", "none"];

/// Optical drives (read-only media, always 100 % used): `/dev/sr0`, `/dev/cdrom`, `/dev/scd0`.
const OPTICAL_DEVICES: &[&str] = &["/dev/sr", "/dev/cdrom", "/dev/scd", "/dev/dvd"];

/// The use percentage of `u` at or above the warning, if it has one.
fn over(u: &Usage) -> Option<u32> {
    u.use_pct
        .filter(|&p| p >= USE_WARN_PCT && u.total.is_some_and(|t| t > 0))
}

/// Every writable filesystem's blocks and inodes.
pub fn check(f: &HostFacts) -> Check {
    let st = &f.storage;
    // `No space left on device` in the logs, latest last.
    let enospc: Vec<&crate::facts::klog::KernelEvent> = f
        .klog
        .get()
        .map(|log| log.of("no-space").collect())
        .unwrap_or_default();
    if st.df_blocks.is_none() && st.df_inodes.is_none() {
        return match enospc.last() {
            Some(last) => Check::Found(vec![enospc_only(f, &enospc, last)]),
            None => Check::NotEvaluated("no `df` or `df -i` output".into()),
        };
    }
    let mut findings = Vec::new();
    let mut judged = 0usize;
    let mut skipped_n = 0usize;
    for fs in &st.filesystems {
        let sized = |u: &Option<crate::evidence::Cited<Usage>>| {
            u.as_ref()
                .is_some_and(|c| c.value.total.is_some_and(|t| t > 0))
        };
        // Pseudo filesystems (sysfs, cgroup, nsfs …) report a size of 0: nothing to judge.
        if !sized(&fs.blocks) && !sized(&fs.inodes) {
            continue;
        }
        if skipped(fs).is_some() {
            skipped_n += 1;
            continue;
        }
        judged += 1;
        let blocks = fs
            .blocks
            .as_ref()
            .and_then(|c| over(&c.value).map(|p| (c, p)));
        let inodes = fs
            .inodes
            .as_ref()
            .and_then(|c| over(&c.value).map(|p| (c, p)));
        if blocks.is_none() && inodes.is_none() {
            continue;
        }
        let worst = blocks.map_or(0, |b| b.1).max(inodes.map_or(0, |i| i.1));
        let severity = if worst >= USE_FULL_PCT {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let mut what = Vec::new();
        let mut details = Vec::new();
        let mut evidence = Vec::new();
        if let Some((c, p)) = blocks {
            let u = c.value;
            what.push(format!("blocks {p} %"));
            details.push(format!(
                "Blocks: {p} % used ({} used, {} available of {}).",
                u.used.map(size).unwrap_or_else(|| "?".into()),
                u.avail.map(size).unwrap_or_else(|| "?".into()),
                u.total.map(size).unwrap_or_else(|| "?".into()),
            ));
            evidence.push(c.evidence(format!("`df` row of {}: blocks {p} % used", fs.mount)));
        }
        if let Some((c, p)) = inodes {
            let u = c.value;
            what.push(format!("inodes {p} %"));
            details.push(format!(
                "Inodes: {p} % used ({} used, {} free of {}).",
                u.used.map_or("?".into(), |v| v.to_string()),
                u.avail.map_or("?".into(), |v| v.to_string()),
                u.total.map_or("?".into(), |v| v.to_string()),
            ));
            evidence.push(c.evidence(format!("`df -i` row of {}: inodes {p} % used", fs.mount)));
        }
        if blocks.is_none() {
            if let Some(b) = &fs.blocks {
                if let Some(p) = b.value.use_pct {
                    details.push(format!(
                        "Blocks are {p} % used: the filesystem ran out of inodes, not space."
                    ));
                    evidence
                        .push(b.evidence(format!("`df` row of {}: blocks {p} % used", fs.mount)));
                }
            }
        }
        match (&fs.fstype, &fs.read_only) {
            (Some(t), Some(ro)) if t.artifact == ro.artifact => {
                details.push(format!("Type {}, mounted read-write.", t.value));
                evidence.push(ro.evidence(format!("mount table: {} {} rw", fs.mount, t.value)));
            }
            (Some(t), _) => details.push(format!("Type {}.", t.value)),
            _ => details.push("Type not shown (no mount table, no `df -T`).".into()),
        }
        let writers: Vec<String> = fs
            .writers
            .iter()
            .map(|w| format!("{} ({})", w.value.who, w.value.setting))
            .collect();
        for w in &fs.writers {
            evidence.push(w.evidence(format!("{} writes to {}", w.value.who, w.value.path)));
        }
        let writer_text = match writers.len() {
            0 => String::new(),
            _ => format!("; written by {}", writers.join(", ")),
        };
        if writers.is_empty() {
            details.push("No process or service setting in the bundle names a path on it.".into());
        }
        if !enospc.is_empty() {
            details.push(format!(
                "{} `No space left on device` {} in the logs (they do not name the filesystem).",
                enospc.len(),
                if enospc.len() == 1 {
                    "message"
                } else {
                    "messages"
                }
            ));
            evidence.extend(crate::rules::klog::evidence(
                &enospc,
                "No space left on device",
            ));
        }
        let space_left = blocks
            .and_then(|(c, _)| c.value.avail)
            .map(|a| format!(" ({} available)", size(a)))
            .unwrap_or_default();
        let confidence = if fs.fstype.is_some() && fs.read_only.is_some() {
            Confidence::High
        } else {
            Confidence::Medium
        };
        findings.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "Filesystem {} ({}) full: {}{space_left}{writer_text}",
                fs.mount,
                fs.device,
                what.join(", ")
            ),
            severity,
            confidence,
            why: format!(
                "{} on {} is at {}: with no block available unprivileged writes fail, with no \
                 inode free no file can be created — both with ENOSPC (\"No space left on \
                 device\").",
                fs.mount,
                fs.device,
                what.join(" and ")
            ),
            details,
            score: f64::from(worst) + fs.writers.len().min(5) as f64,
            time_range: None,
            evidence: merge(evidence),
        });
    }
    if !findings.is_empty() {
        Check::Found(findings)
    } else if judged == 0 {
        Check::NotEvaluated(format!(
            "no writable disk filesystem in `df` ({skipped_n} read-only, image or memory filesystem(s) skipped)"
        ))
    } else {
        let inodes = if st.df_inodes.is_some() {
            ""
        } else {
            "; inodes not evaluated: no `df -i`"
        };
        Check::Clear(format!(
            "{judged} filesystem(s) below {USE_WARN_PCT} % ({skipped_n} read-only, image or memory filesystem(s) skipped){inodes}"
        ))
    }
}

/// Programs reported ENOSPC, and no `df` says which filesystem is full.
fn enospc_only(
    f: &HostFacts,
    events: &[&crate::facts::klog::KernelEvent],
    last: &crate::facts::klog::KernelEvent,
) -> Finding {
    let n = events.len();
    let programs: Vec<&str> = events.iter().fold(Vec::new(), |mut v, e| {
        if !v.contains(&e.program.as_str()) {
            v.push(e.program.as_str());
        }
        v
    });
    let when = f
        .klog
        .get()
        .map(|log| crate::rules::klog::at(last, log))
        .unwrap_or_else(|| last.time.label.clone());
    Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "{n} `No space left on device` {} from {} (no `df` to name the filesystem)",
            if n == 1 { "message" } else { "messages" },
            programs.join(", ")
        ),
        severity: Severity::Warning,
        confidence: Confidence::Medium,
        why: format!(
            "Writes failed with ENOSPC, the last at {when}: a filesystem ran out of blocks or \
             inodes (or a quota was reached). The bundle holds no `df`/`df -i` to say which."
        ),
        details: vec!["Collect `df -P` and `df -i` to name the filesystem.".into()],
        score: 95.0,
        time_range: None,
        evidence: crate::rules::klog::evidence(events, "No space left on device"),
    }
}

/// One evidence per artifact, its lines joined (the notes joined too).
fn merge(list: Vec<Evidence>) -> Vec<Evidence> {
    let mut out: Vec<Evidence> = Vec::new();
    for e in list {
        match out.iter_mut().find(|o| o.artifact == e.artifact) {
            Some(o) => {
                let mut lines = o.lines.clone();
                lines.extend(&e.lines);
                let note = format!("{}; {}", o.note, e.note);
                *o = Evidence::new(&o.artifact, lines, note);
            }
            None => out.push(e),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::storage::{Storage, Writer};

    fn fs(mount: &str, ty: &str, ro: bool, blocks: Option<u32>, inodes: Option<u32>) -> Filesystem {
        let u = |p: u32| Usage {
            total: Some(1000),
            used: Some(u64::from(p) * 10),
            avail: Some(1000 - u64::from(p) * 10),
            use_pct: Some(p),
        };
        Filesystem {
            mount: mount.into(),
            device: "/dev/sdb1".into(),
            fstype: Some(Cited::new(ty.into(), "proc/mounts", 3)),
            read_only: Some(Cited::new(ro, "proc/mounts", 3)),
            blocks: blocks.map(|p| Cited::lines(u(p), "fs/df-P.txt", vec![1, 4])),
            inodes: inodes.map(|p| Cited::lines(u(p), "fs/df-i.txt", vec![1, 4])),
            writers: Vec::new(),
        }
    }

    fn facts(list: Vec<Filesystem>) -> HostFacts {
        HostFacts {
            storage: Storage {
                filesystems: list,
                df_blocks: Some("fs/df-P.txt".into()),
                df_inodes: Some("fs/df-i.txt".into()),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn fires_critical_on_full_blocks_naming_the_writer() {
        let mut data = fs("/data", "ext4", false, Some(100), Some(3));
        data.writers.push(Cited::new(
            Writer {
                who: "pid 42 java".into(),
                setting: "-Dlog.dir=/data/logs".into(),
                path: "/data/logs".into(),
            },
            "system/ps.txt",
            9,
        ));
        let Check::Found(v) = check(&facts(vec![data])) else {
            panic!("expected a finding")
        };
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(
            v[0].title.contains("/data") && v[0].title.contains("blocks 100 %"),
            "{}",
            v[0].title
        );
        assert!(
            v[0].title.contains("pid 42 java (-Dlog.dir=/data/logs)"),
            "{}",
            v[0].title
        );
        assert!(v[0]
            .evidence
            .iter()
            .any(|e| e.artifact == "system/ps.txt" && e.lines == [9]));
    }

    #[test]
    fn fires_on_inodes_with_blocks_free() {
        let Check::Found(v) = check(&facts(vec![fs("/spool", "ext4", false, Some(1), Some(96))]))
        else {
            panic!("expected a finding")
        };
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].title.contains("inodes 96 %"), "{}", v[0].title);
        assert!(v[0]
            .details
            .iter()
            .any(|d| d.contains("out of inodes, not space")));
    }

    #[test]
    fn clear_for_images_memory_and_read_only_mounts() {
        let f = facts(vec![
            fs("/snap/core20/1328", "squashfs", true, Some(100), Some(100)),
            fs("/run/x", "tmpfs", false, Some(100), None),
            fs("/archive", "ext4", true, Some(100), None),
            fs("/", "ext4", false, Some(26), Some(3)),
        ]);
        let Check::Clear(why) = check(&f) else {
            panic!("expected clear")
        };
        assert!(
            why.contains("1 filesystem(s) below 95 %") && why.contains("3 read-only"),
            "{why}"
        );
    }

    #[test]
    fn not_evaluated_without_df() {
        assert!(matches!(check(&HostFacts::default()), Check::NotEvaluated(r) if r.contains("df")));
    }

    #[test]
    fn fires_on_no_space_messages_without_df_and_cites_them_beside_df() {
        use crate::facts::klog::EventKind;
        use crate::rules::klog::testkit;
        let events = || {
            vec![testkit::ev(
                EventKind::NoSpace,
                Some(30.0),
                41,
                "java[812]: java.io.IOException: No space left on device",
            )]
        };
        // No `df`: the messages alone, naming no filesystem.
        let Check::Found(v) = check(&testkit::facts(events())) else {
            panic!("expected a finding")
        };
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(
            v[0].title
                .starts_with("1 `No space left on device` message from "),
            "{}",
            v[0].title
        );
        assert_eq!(v[0].evidence[0].lines, vec![41]);
        // With `df`: the full filesystem's finding cites them too.
        let mut f = facts(vec![fs("/spool", "ext4", false, Some(1), Some(100))]);
        f.klog = testkit::facts(events()).klog;
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert!(v[0]
            .evidence
            .iter()
            .any(|e| e.artifact == "kernel/journalctl-k.txt" && e.lines == [41]));
        assert!(v[0]
            .details
            .iter()
            .any(|d| d.starts_with("1 `No space left on device` message in the logs")));
    }

    #[test]
    fn clear_for_tmpfs_and_optical_discs_in_a_plain_df_without_types() {
        // Plain `df` (RHEL 7): no type column and no mount table; the device column says it.
        let untyped = |mount: &str, device: &str, p: u32| {
            let mut f = fs(mount, "ext4", false, Some(p), None);
            f.fstype = None;
            f.read_only = None;
            f.device = device.into();
            f
        };
        let f = facts(vec![
            untyped("/run", "tmpfs", 100),
            untyped("/mnt/cdrom", "/dev/sr0", 100),
            untyped("/", "/dev/mapper/centos-root", 97),
        ]);
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert_eq!(
            v.len(),
            1,
            "{:?}",
            v.iter().map(|f| &f.title).collect::<Vec<_>>()
        );
        assert!(v[0]
            .title
            .starts_with("Filesystem / (/dev/mapper/centos-root) full: blocks 97 %"));
    }
}
