//! Filesystems and the block-device stack.
//!
//! In: `df` (blocks and inodes), the mount table (`/proc/mounts` or `mount`), `lsblk`, the
//! collector's `/sys/block` listings (queue attributes, `slaves/`), and the processes and service
//! configurations that name directories (`ps` arguments, ZooKeeper `dataDir`/`dataLogDir`, Hadoop
//! `*-site.xml` directories). Out: [`Storage`]: each filesystem's usage with its type, read-only
//! flag and the processes that write into it; each block device with the devices it is built on
//! (an LV on its PVs' partitions and disks, md on its members, multipath on its paths), its
//! mount points and whether it is rotational.

use crate::artifacts::Collected;
use crate::evidence::Cited;
use crate::facts::{hadoop::Hadoop, Processes, ZkServer};
use parsers::storage::df::Df;
use parsers::storage::lsblk::Lsblk;
use parsers::storage::mounts::Mounts;
use parsers::storage::sysblock::SysBlock;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Filesystems and block devices of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Storage {
    /// Filesystems, in the order `df` printed them (one per mount point: the last row of a mount
    /// point printed twice, which is the one visible).
    pub filesystems: Vec<Filesystem>,
    /// The block-usage `df` artifact read, if any.
    pub df_blocks: Option<String>,
    /// The inode `df` artifact read, if any.
    pub df_inodes: Option<String>,
    /// The mount-table artifact read, if any.
    pub mount_table: Option<String>,
    /// Block devices by kernel name (`sda`, `dm-0`).
    pub devices: BTreeMap<String, BlockNode>,
    /// Artifacts the device stack was read from (`lsblk`, `slaves/` listing).
    pub stack_sources: Vec<String>,
}

/// Usage of blocks or inodes, as `df` printed it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Usage {
    /// Size (bytes for blocks, count for inodes).
    pub total: Option<u64>,
    /// Used.
    pub used: Option<u64>,
    /// Available to unprivileged users (blocks reserved for root are in neither used nor
    /// available).
    pub avail: Option<u64>,
    /// df's percentage: `used / (used + avail)`, rounded up.
    pub use_pct: Option<u32>,
}

/// One mounted filesystem.
#[derive(Debug, Clone, Serialize)]
pub struct Filesystem {
    /// Mount point.
    pub mount: String,
    /// Device or source (`df`'s first column).
    pub device: String,
    /// Filesystem type: from the mount table (canonical), else `df -T`.
    pub fstype: Option<Cited<String>>,
    /// Mounted read-only (`ro` in the mount table); `None` without a mount table entry.
    pub read_only: Option<Cited<bool>>,
    /// Block usage (`df -P`/`-k`/`-h`).
    pub blocks: Option<Cited<Usage>>,
    /// Inode usage (`df -i`).
    pub inodes: Option<Cited<Usage>>,
    /// Processes and service settings that write below this mount point (it is the deepest mount
    /// containing the path they name).
    pub writers: Vec<Cited<Writer>>,
}

/// Something that writes into a filesystem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Writer {
    /// Who: `pid 4242 java`, `ZooKeeper dataLogDir`, `Hadoop dfs.datanode.data.dir`.
    pub who: String,
    /// The argument or setting naming the path (`-Dlog.dir=/data/logs`).
    pub setting: String,
    /// The path it names.
    pub path: String,
}

/// One block device.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BlockNode {
    /// Kernel name (`dm-0`).
    pub kname: String,
    /// Name as `lsblk` prints it (`vg0-data` for an LV), when different from the kernel name.
    pub name: Option<String>,
    /// `lsblk` `TYPE` (`disk`, `part`, `lvm`, `crypt`, `mpath`, `raid1`).
    pub dev_type: Option<String>,
    /// Devices this one is built on (a partition's disk, an LV's PVs, md members, multipath
    /// paths), by kernel name.
    pub lower: BTreeSet<String>,
    /// Mount points (`lsblk`, else the mount table).
    pub mountpoints: Vec<String>,
    /// Rotational (`queue/rotational`, else `lsblk` `ROTA`).
    pub rotational: Option<Cited<bool>>,
    /// Active I/O scheduler (`queue/scheduler`, else `lsblk` `SCHED`).
    pub scheduler: Option<String>,
    /// Where the device appears in the stack sources.
    pub cited: Option<Cited<()>>,
}

impl BlockNode {
    /// `dm-0 (vg0-data)`, or the kernel name alone.
    pub fn label(&self) -> String {
        match &self.name {
            Some(n) => format!("{} ({n})", self.kname),
            None => self.kname.clone(),
        }
    }
}

impl Storage {
    /// Whether `upper` is built, directly or through other devices, on `lower`.
    pub fn stacked_on(&self, upper: &str, lower: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut todo = vec![upper.to_string()];
        while let Some(d) = todo.pop() {
            if !seen.insert(d.clone()) {
                continue;
            }
            if let Some(n) = self.devices.get(&d) {
                for l in &n.lower {
                    if l == lower {
                        return true;
                    }
                    todo.push(l.clone());
                }
            }
        }
        false
    }

    /// Every device built, directly or not, on `dev`, and `dev` itself.
    pub fn with_uppers(&self, dev: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::from([dev.to_string()]);
        loop {
            let more: Vec<String> = self
                .devices
                .values()
                .filter(|n| !out.contains(&n.kname) && n.lower.iter().any(|l| out.contains(l)))
                .map(|n| n.kname.clone())
                .collect();
            if more.is_empty() {
                return out;
            }
            out.extend(more);
        }
    }

    /// Mount points of `dev` and of every device built on it.
    pub fn mounts_over(&self, dev: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for d in self.with_uppers(dev) {
            if let Some(n) = self.devices.get(&d) {
                for m in &n.mountpoints {
                    if m.starts_with('/') && !out.contains(m) {
                        out.push(m.clone());
                    }
                }
            }
        }
        out
    }

    /// Rotational or not, for `dev` or, for a stacked device, for all the disks under it alike.
    pub fn rotational(&self, dev: &str) -> Option<bool> {
        if let Some(r) = self.devices.get(dev).and_then(|n| n.rotational.as_ref()) {
            if self.devices.get(dev).is_some_and(|n| n.lower.is_empty()) {
                return Some(r.value);
            }
        }
        let leaves = self.leaves(dev);
        let vals: Vec<Option<bool>> = leaves
            .iter()
            .map(|l| {
                self.devices
                    .get(l)
                    .and_then(|n| n.rotational.as_ref())
                    .map(|c| c.value)
            })
            .collect();
        match vals.first() {
            Some(Some(v)) if vals.iter().all(|x| *x == Some(*v)) => Some(*v),
            _ => self
                .devices
                .get(dev)
                .and_then(|n| n.rotational.as_ref())
                .map(|c| c.value),
        }
    }

    /// The devices at the bottom of `dev`'s stack (itself when it is built on nothing).
    pub fn leaves(&self, dev: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo = vec![dev.to_string()];
        while let Some(d) = todo.pop() {
            if !seen.insert(d.clone()) {
                continue;
            }
            match self.devices.get(&d) {
                Some(n) if !n.lower.is_empty() => todo.extend(n.lower.iter().cloned()),
                _ => out.push(d),
            }
        }
        out.sort();
        out
    }

    /// The filesystem whose mount point is the deepest one containing `path`.
    pub fn filesystem_of(&self, path: &str) -> Option<usize> {
        self.filesystems
            .iter()
            .enumerate()
            .filter(|(_, f)| contains(&f.mount, path))
            .max_by_key(|(_, f)| f.mount.len())
            .map(|(i, _)| i)
    }
}

/// Whether `path` is `mount` or below it.
fn contains(mount: &str, path: &str) -> bool {
    let m = mount.trim_end_matches('/');
    path == mount
        || m.is_empty() && path.starts_with('/')
        || path.strip_prefix(m).is_some_and(|r| r.starts_with('/'))
}

/// Builds the storage facts.
pub fn build(c: &Collected, procs: &Processes, zk: &[ZkServer], hadoop: &Hadoop) -> Storage {
    let mut s = Storage::default();
    filesystems(c, &mut s);
    stack(c, &mut s);
    writers(&mut s, procs, zk, hadoop);
    s
}

fn filesystems(c: &Collected, s: &mut Storage) {
    // Prefer exact blocks over `-h`'s rounded sizes; then the path (stable).
    let mut dfs: Vec<_> = c.records::<Df>().collect();
    dfs.sort_by_key(|(a, d)| {
        (
            matches!(d.unit, parsers::storage::df::DfUnit::Human),
            a.path.clone(),
        )
    });
    // Every `df` is read: the first (by the order above) gives a mount's row, the others add the
    // mounts it does not show.
    let blocks: Vec<_> = dfs.iter().filter(|(_, d)| !d.inodes()).collect();
    let inodes: Vec<_> = dfs.iter().filter(|(_, d)| d.inodes()).collect();
    let usage = |r: &parsers::storage::df::DfRow| Usage {
        total: r.total,
        used: r.used,
        avail: r.avail,
        use_pct: r.use_pct,
    };
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut slot = |s: &mut Storage, mount: &str, device: &str| -> usize {
        if let Some(&i) = index.get(mount) {
            s.filesystems[i].device = device.to_string();
            return i;
        }
        s.filesystems.push(Filesystem {
            mount: mount.to_string(),
            device: device.to_string(),
            fstype: None,
            read_only: None,
            blocks: None,
            inodes: None,
            writers: Vec::new(),
        });
        index.insert(mount.to_string(), s.filesystems.len() - 1);
        s.filesystems.len() - 1
    };
    for (a, d) in blocks {
        s.df_blocks.get_or_insert_with(|| a.path.clone());
        for r in &d.rows {
            if s.filesystems
                .iter()
                .any(|f| f.mount == r.mount && f.blocks.is_some())
            {
                continue;
            }
            let i = slot(s, &r.mount, &r.filesystem);
            s.filesystems[i].blocks =
                Some(Cited::lines(usage(r), &a.path, vec![d.header_line, r.line]));
            if let Some(t) = &r.fstype {
                s.filesystems[i].fstype = Some(Cited::new(t.clone(), &a.path, r.line));
            }
        }
    }
    for (a, d) in inodes {
        s.df_inodes.get_or_insert_with(|| a.path.clone());
        for r in &d.rows {
            if s.filesystems
                .iter()
                .any(|f| f.mount == r.mount && f.inodes.is_some())
            {
                continue;
            }
            let i = slot(s, &r.mount, &r.filesystem);
            s.filesystems[i].inodes =
                Some(Cited::lines(usage(r), &a.path, vec![d.header_line, r.line]));
            if let Some(t) = &r.fstype {
                if s.filesystems[i].fstype.is_none() {
                    s.filesystems[i].fstype = Some(Cited::new(t.clone(), &a.path, r.line));
                }
            }
        }
    }
    // The mount table is canonical for type and flags; the last entry of a mount point is the
    // visible one.
    let table = c.records::<Mounts>().min_by_key(|(a, m)| {
        (
            m.format != parsers::storage::mounts::MountsFormat::Proc,
            a.path.clone(),
        )
    });
    if let Some((a, m)) = table {
        s.mount_table = Some(a.path.clone());
        for f in &mut s.filesystems {
            if let Some(e) = m.entries.iter().rev().find(|e| e.mount_point == f.mount) {
                f.fstype = Some(Cited::new(e.fstype.clone(), &a.path, e.line));
                f.read_only = Some(Cited::new(e.read_only(), &a.path, e.line));
            }
        }
    }
}

fn stack(c: &Collected, s: &mut Storage) {
    let mut lsblks: Vec<_> = c.records::<Lsblk>().collect();
    lsblks.sort_by_key(|(a, l)| {
        (
            l.format != parsers::storage::lsblk::LsblkFormat::Json,
            a.path.clone(),
        )
    });
    if let Some((a, l)) = lsblks.first() {
        s.stack_sources.push(a.path.clone());
        for d in &l.devices {
            let k = d.kernel_name();
            let parent = d
                .parent
                .and_then(|p| l.devices.get(p))
                .map(|p| p.kernel_name());
            let n = node(s, &k);
            let shown = d
                .name
                .trim_start_matches("/dev/mapper/")
                .trim_start_matches("/dev/");
            if shown != k {
                n.name = Some(shown.to_string());
            }
            if n.dev_type.is_none() {
                n.dev_type = d.dev_type.clone();
            }
            if let Some(p) = parent {
                n.lower.insert(p);
            }
            for m in &d.mountpoints {
                if !n.mountpoints.contains(m) {
                    n.mountpoints.push(m.clone());
                }
            }
            if n.rotational.is_none() {
                n.rotational = d.rota.map(|r| Cited::new(r, &a.path, d.line));
            }
            if n.scheduler.is_none() {
                n.scheduler = d.sched.clone();
            }
            if n.cited.is_none() {
                n.cited = Some(Cited::new((), &a.path, d.line));
            }
        }
    }
    let mut listed: Vec<String> = Vec::new();
    for (a, sb) in c.records::<SysBlock>() {
        if !sb.slaves.is_empty() || !sb.listed.is_empty() {
            if !s.stack_sources.contains(&a.path) {
                s.stack_sources.push(a.path.clone());
            }
            listed.extend(sb.listed.iter().cloned());
        }
        for sl in &sb.slaves {
            let n = node(s, &sl.device);
            n.lower.insert(sl.slave.clone());
            if n.cited.is_none() {
                n.cited = Some(Cited::new((), &a.path, sl.line));
            }
        }
        for q in &sb.queue {
            let n = node(s, &q.device);
            if let Some(r) = q.rotational() {
                // /sys is canonical over lsblk's ROTA (which reads the same file).
                n.rotational = Some(Cited::new(r, &a.path, q.line));
            }
            if let Some(sch) = q.active_scheduler() {
                n.scheduler = Some(sch.to_string());
            }
        }
    }
    // A partition named in `slaves/` (sda2) sits on its disk (sda): the listed device whose name
    // it extends, when lsblk did not already say.
    let slaves: Vec<String> = s
        .devices
        .values()
        .flat_map(|n| n.lower.iter().cloned())
        .collect();
    for p in slaves {
        if listed.contains(&p) || s.devices.get(&p).is_some_and(|n| !n.lower.is_empty()) {
            continue;
        }
        let disk = listed
            .iter()
            .filter(|d| {
                p.strip_prefix(d.as_str())
                    .is_some_and(|rest| !rest.is_empty() && partition_suffix(rest))
            })
            .max_by_key(|d| d.len())
            .cloned();
        if let Some(d) = disk {
            node(s, &p).lower.insert(d);
        }
    }
    // Mount points the mount table gives devices that lsblk did not (or that no lsblk named).
    if let Some((_, m)) = c.records::<Mounts>().next() {
        for e in &m.entries {
            let Some(dev) = e.source.strip_prefix("/dev/") else {
                continue;
            };
            let k = if let Some(lv) = dev.strip_prefix("mapper/") {
                s.devices
                    .values()
                    .find(|n| n.name.as_deref() == Some(lv))
                    .map(|n| n.kname.clone())
            } else {
                s.devices.contains_key(dev).then(|| dev.to_string())
            };
            if let Some(k) = k {
                let n = node(s, &k);
                if !n.mountpoints.contains(&e.mount_point) {
                    n.mountpoints.push(e.mount_point.clone());
                }
            }
        }
    }
}

/// The node of `k`, made when missing.
fn node<'a>(s: &'a mut Storage, k: &str) -> &'a mut BlockNode {
    s.devices.entry(k.to_string()).or_insert_with(|| BlockNode {
        kname: k.to_string(),
        ..Default::default()
    })
}

/// `2`, `p2`: what follows a disk's name in its partitions' (`sda2`, `nvme0n1p2`).
fn partition_suffix(s: &str) -> bool {
    let d = s.strip_prefix('p').unwrap_or(s);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// Words of an argument key that say the path is written to.
const WRITE_WORDS: &[&str] = &[
    "log", "data", "dir", "out", "spool", "tmp", "wal", "store", "journal", "file", "cache",
    "queue", "dump", "snap", "loggc",
];

/// Words of an argument key that say the path is read, not written (`hadoop.home.dir`,
/// `log4j.configuration`, `java.library.path`).
const READ_WORDS: &[&str] = &[
    "home", "conf", "class", "lib", "bin", "install", "jaas", "keytab", "trust", "keystore",
];

/// Absolute paths an argument names as a place to write, with the argument: `-Dlog.dir=/x`,
/// `--datadir=/x`, `-Xloggc:/x/gc.log`, `-Xlog:gc*:file=/x/gc.log`, `-XX:HeapDumpPath=/x`.
fn written_paths(arg: &str) -> Vec<String> {
    let lower = arg.to_ascii_lowercase();
    let mut out = Vec::new();
    for (i, _) in arg.match_indices(['=', ':']) {
        let (Some(key), Some(value)) = (lower.get(..i), arg.get(i + 1..)) else {
            continue;
        };
        let value = value.split(',').next().unwrap_or(value);
        let value = value.strip_prefix("file://").unwrap_or(value);
        if value.starts_with('/')
            && WRITE_WORDS.iter().any(|w| key.contains(w))
            && !READ_WORDS.iter().any(|w| key.contains(w))
        {
            let v = value
                .split([':', '*'])
                .next()
                .unwrap_or(value)
                .trim_end_matches('/');
            if !v.is_empty() && !out.iter().any(|o: &String| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// Hadoop properties whose values are local directories written to.
const HADOOP_DIRS: &[&str] = &[
    "hadoop.tmp.dir",
    "dfs.datanode.data.dir",
    "dfs.namenode.name.dir",
    "dfs.namenode.edits.dir",
    "dfs.journalnode.edits.dir",
    "yarn.nodemanager.local-dirs",
    "yarn.nodemanager.log-dirs",
];

fn writers(s: &mut Storage, procs: &Processes, zk: &[ZkServer], hadoop: &Hadoop) {
    let mut found: Vec<(usize, Cited<Writer>)> = Vec::new();
    for p in &procs.list {
        // argv[0] is the program, not a place it writes.
        for arg in p.value.args.split_whitespace().skip(1) {
            for path in written_paths(arg) {
                if let Some(i) = s.filesystem_of(&path) {
                    let w = Writer {
                        who: format!("pid {} {}", p.value.pid, p.value.comm),
                        setting: crate::facts::clip(arg),
                        path,
                    };
                    found.push((i, Cited::lines(w, &p.artifact, p.lines.clone())));
                }
            }
        }
    }
    for z in zk {
        for (name, dir) in [("dataDir", &z.data_dir), ("dataLogDir", &z.data_log_dir)] {
            let Some(d) = dir else { continue };
            if let Some(i) = s.filesystem_of(d.value.trim()) {
                let w = Writer {
                    who: format!("ZooKeeper {}", z.endpoint),
                    setting: format!("{name}={}", d.value.trim()),
                    path: d.value.trim().to_string(),
                };
                found.push((i, Cited::lines(w, &d.artifact, d.lines.clone())));
            }
        }
    }
    for key in HADOOP_DIRS {
        let Some(v) = hadoop.get(key) else { continue };
        for dir in v.value.split(',') {
            let dir = dir.trim();
            let dir = dir.strip_prefix("file://").unwrap_or(dir);
            let dir = dir
                .strip_prefix('[')
                .and_then(|d| d.split_once(']'))
                .map_or(dir, |(_, d)| d);
            if !dir.starts_with('/') || dir.contains("${") {
                continue;
            }
            if let Some(i) = s.filesystem_of(dir) {
                let w = Writer {
                    who: "Hadoop".to_string(),
                    setting: format!("{key}={}", v.value.trim()),
                    path: dir.to_string(),
                };
                found.push((i, Cited::lines(w, &v.artifact, v.lines.clone())));
            }
        }
    }
    for (i, w) in found {
        let list = &mut s.filesystems[i].writers;
        if !list.iter().any(|x| x.value == w.value) {
            list.push(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_paths_of_common_arguments() {
        assert_eq!(written_paths("-Dlog.dir=/data/logs"), ["/data/logs"]);
        assert_eq!(
            written_paths("--datadir=/var/lib/mysql"),
            ["/var/lib/mysql"]
        );
        assert_eq!(
            written_paths("-Xloggc:/var/log/app/gc.log"),
            ["/var/log/app/gc.log"]
        );
        assert_eq!(
            written_paths("-Xlog:gc*:file=/var/log/kafka/gc.log:time,tags"),
            ["/var/log/kafka/gc.log"]
        );
        assert!(written_paths("-Djava.class.path=/opt/app/lib").is_empty());
        assert!(written_paths("-Xmx4g").is_empty());
        assert!(written_paths("-Dhadoop.home.dir=/opt/hadoop").is_empty());
        assert!(written_paths("-Dlog4j.configuration=file:/etc/kafka/log4j.properties").is_empty());
        assert_eq!(written_paths("-XX:HeapDumpPath=/var/crash"), ["/var/crash"]);
    }

    #[test]
    fn deepest_mount_contains_the_path() {
        assert!(contains("/", "/data/x"));
        assert!(contains("/data", "/data/x"));
        assert!(!contains("/data", "/database/x"));
        let mut s = Storage::default();
        for m in ["/", "/data", "/data/logs"] {
            s.filesystems.push(Filesystem {
                mount: m.into(),
                device: "d".into(),
                fstype: None,
                read_only: None,
                blocks: None,
                inodes: None,
                writers: Vec::new(),
            });
        }
        assert_eq!(s.filesystem_of("/data/logs/gc.log"), Some(2));
        assert_eq!(s.filesystem_of("/data/x"), Some(1));
        assert_eq!(s.filesystem_of("/var/x"), Some(0));
    }
}
