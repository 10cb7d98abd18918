//! The mount table: `/proc/mounts` (also `/proc/self/mounts`, `/proc/<pid>/mounts`) and the
//! `mount` command's listing (util-linux `mount`, `mount -l`).
//!
//! `/proc/mounts` has one line per mount with six fields separated by single spaces (`proc(5)`,
//! "/proc/pid/mounts", the `fstab(5)` format): source, mount point, filesystem type, options
//! (comma-separated; the first is `rw` or `ro`), and two zeros kept for `fstab` compatibility.
//! Spaces, tabs, newlines and backslashes inside the source or the mount point are written as
//! octal escapes (`\040` for a space), which are decoded here. `mount` prints the same entries
//! as `SOURCE on TARGET type TYPE (OPTIONS)`, with `-l` a ` [LABEL]` after it.
//!
//! Seen on Linux 6.18 (Debian 12 with util-linux 2.38.1 `mount`) and in sosreports of Ubuntu
//! 20.04 (Linux 5.4, util-linux 2.34: `proc/<pid>/mounts` and `mount -l`).
//!
//! Sample input (`/proc/mounts`, Linux 6.18):
//! ```text
//! /dev/vda / ext4 rw,relatime,discard 0 0
//! /dev/loop2 /srv/fsblk/archive ext4 ro,relatime 0 0
//! tmpfs /srv/fsblk/tmp tmpfs rw,relatime,size=1024k 0 0
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// The mount table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mounts {
    /// Which listing it was read from.
    pub format: MountsFormat,
    /// Mounts in input order (the kernel's mount order: a later mount on the same point hides
    /// the earlier one).
    pub entries: Vec<Mount>,
}

/// The listing a mount table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MountsFormat {
    /// `/proc/mounts`.
    Proc,
    /// `mount` / `mount -l`.
    Command,
}

/// One mount.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mount {
    /// 1-based input line.
    pub line: usize,
    /// Source (`/dev/sda1`, `tmpfs`, `server:/export`).
    pub source: String,
    /// Mount point.
    pub mount_point: String,
    /// Filesystem type (`ext4`, `xfs`, `tmpfs`, `squashfs`).
    pub fstype: String,
    /// Mount options, in order.
    pub options: Vec<String>,
}

impl Mount {
    /// Mounted read-only (`ro` among the options).
    pub fn read_only(&self) -> bool {
        self.options.iter().any(|o| o == "ro")
    }
}

/// Decodes the octal escapes of `/proc/mounts` (`\040` → space).
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') as u32 * 64
                + (b[i + 2] - b'0') as u32 * 8
                + (b[i + 3] - b'0') as u32;
            if let Ok(byte) = u8::try_from(v) {
                out.push(byte);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A `/proc/mounts` line: six fields, the last two numbers, a mount point starting with `/`
/// (or `none` for swap in `fstab`, not seen here).
fn proc_line(line: &str) -> Option<[&str; 4]> {
    let f: Vec<&str> = line.split_ascii_whitespace().collect();
    let [src, mnt, ty, opts, a, b] = f.as_slice() else {
        return None;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    (mnt.starts_with('/') && digits(a) && digits(b) && !ty.is_empty() && !opts.is_empty())
        .then_some([src, mnt, ty, opts])
}

/// A `mount` line: `SOURCE on TARGET type TYPE (OPTIONS)[ [LABEL]]`.
fn command_line(line: &str) -> Option<(String, String, String, String)> {
    let (src, rest) = line.split_once(" on ")?;
    let (mnt, rest) = rest.rsplit_once(" type ")?;
    let (ty, rest) = rest.split_once(" (")?;
    let (opts, tail) = rest.split_once(')')?;
    let tail = tail.trim();
    if !mnt.starts_with('/') || ty.contains(' ') || !(tail.is_empty() || tail.starts_with('[')) {
        return None;
    }
    Some((
        src.to_string(),
        mnt.to_string(),
        ty.to_string(),
        opts.to_string(),
    ))
}

/// A mount table?
///
/// `Yes` when the first three non-blank lines are all `/proc/mounts` lines (six fields, a mount
/// point, two trailing numbers) whose options begin with `rw` or `ro`, or all `mount` lines
/// (`… on /… type … (rw|ro…)`); `Unsure` when the head ends before three such lines.
pub fn sniff(head: &str) -> Sniff {
    let mut proc_n = 0;
    let mut cmd_n = 0;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if !complete {
            break;
        }
        let p =
            proc_line(line).is_some_and(|[_, _, _, o]| o.starts_with("rw") || o.starts_with("ro"));
        let c = command_line(line)
            .is_some_and(|(_, _, _, o)| o.starts_with("rw") || o.starts_with("ro"));
        match (p, c) {
            (true, _) if cmd_n == 0 => proc_n += 1,
            (_, true) if proc_n == 0 => cmd_n += 1,
            _ => return Sniff::No,
        }
        if proc_n >= 3 || cmd_n >= 3 {
            return Sniff::Yes;
        }
    }
    if proc_n + cmd_n > 0 {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// Parses a mount table (`/proc/mounts` or `mount` output: which one is taken from the first
/// readable line).
///
/// Errors: [`ParseError::Unusable`] when no line reads as a mount. Other lines become issues.
pub fn parse(text: &str) -> Result<Parsed<Mounts>, ParseError> {
    let mut issues = Issues::default();
    let mut format = None;
    let mut entries = Vec::new();
    for (n, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        let as_proc = || {
            proc_line(line).map(|[s, m, t, o]| Mount {
                line: n,
                source: unescape(s),
                mount_point: unescape(m),
                fstype: t.to_string(),
                options: o.split(',').map(str::to_string).collect(),
            })
        };
        let as_cmd = || {
            command_line(line).map(|(s, m, t, o)| Mount {
                line: n,
                source: s,
                mount_point: m,
                fstype: t,
                options: o.split(',').map(str::to_string).collect(),
            })
        };
        let got = match format {
            Some(MountsFormat::Proc) => as_proc(),
            Some(MountsFormat::Command) => as_cmd(),
            None => match as_proc() {
                Some(m) => {
                    format = Some(MountsFormat::Proc);
                    Some(m)
                }
                None => as_cmd().inspect(|_| format = Some(MountsFormat::Command)),
            },
        };
        match got {
            Some(m) => entries.push(m),
            None => issues.push(n, || {
                format!(
                    "expected `SOURCE TARGET TYPE OPTIONS 0 0` or `SOURCE on TARGET type TYPE (OPTIONS)`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    let Some(format) = format else {
        return Err(ParseError::unusable(None, "no line reads as a mount"));
    };
    Ok(Parsed {
        value: Mounts { format, entries },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(m: &'a Mounts, point: &str) -> &'a Mount {
        m.entries
            .iter()
            .rev()
            .find(|e| e.mount_point == point)
            .unwrap()
    }

    #[test]
    fn reads_proc_mounts_of_two_kernels() {
        let p = parse(include_str!(
            "../../tests/fixtures/mounts/proc-mounts.linux-6.18"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.format, MountsFormat::Proc);
        let a = at(&p.value, "/srv/fsblk/archive");
        assert_eq!(
            (a.source.as_str(), a.fstype.as_str()),
            ("/dev/loop2", "ext4")
        );
        assert!(a.read_only());
        assert!(!at(&p.value, "/srv/fsblk/data").read_only());
        assert_eq!(at(&p.value, "/srv/fsblk/snap").fstype, "squashfs");
        let p = parse(include_str!(
            "../../tests/fixtures/mounts/proc-mounts.ubuntu-20.04"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let s = at(&p.value, "/snap/core20/1328");
        assert_eq!(s.fstype, "squashfs");
        assert!(s.read_only());
    }

    #[test]
    fn reads_the_mount_command() {
        let p = parse(include_str!(
            "../../tests/fixtures/mounts/mount.util-linux-2.38.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.format, MountsFormat::Command);
        assert!(at(&p.value, "/srv/fsblk/archive").read_only());
        let p = parse(include_str!(
            "../../tests/fixtures/mounts/mount_-l.ubuntu-20.04"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(at(&p.value, "/").source, "/dev/vda2");
    }

    #[test]
    fn decodes_octal_escapes() {
        let p = parse("/dev/sdb1 /mnt/my\\040disk ext4 rw,relatime 0 0\n").unwrap();
        assert_eq!(p.value.entries[0].mount_point, "/mnt/my disk");
    }

    #[test]
    fn sniffs_both_forms() {
        let proc = include_str!("../../tests/fixtures/mounts/proc-mounts.linux-6.18");
        assert_eq!(sniff(proc), Sniff::Yes);
        let cmd = include_str!("../../tests/fixtures/mounts/mount.util-linux-2.38.1.txt");
        assert_eq!(sniff(cmd), Sniff::Yes);
        assert_eq!(
            sniff("Filesystem 1K-blocks Used Available Use% Mounted on\n"),
            Sniff::No
        );
    }
}
