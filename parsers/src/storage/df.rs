//! GNU coreutils `df`: block usage (`df -P`, `df -k`, plain `df`, `df -T`, `df -h`, `df -Th`,
//! sosreport's `df -al -x autofs`) and inode usage (`df -i`, sosreport's `df -ali -x autofs`).
//!
//! Seen on coreutils 9.1 (Debian 12, Linux 6.18: every form above, in the C locale and in
//! `de_DE.UTF-8`, whose headers are translated: `Dateisystem 1024-Blöcke Benutzt Verfügbar
//! Kapazität Eingehängt auf`), and in sosreports of Ubuntu 20.04 (coreutils 8.30, `1K-blocks`
//! and `Use%`, `-` in place of a percentage for pseudo filesystems of size 0). The columns come
//! in one order in every form (coreutils `df.c`, the default field list): `Filesystem`, `Type`
//! (only with `-T`), size, used, available, use percentage, mount point. The header names the
//! form: `1024-blocks`/`1K-blocks`/`1M-blocks` (a block size: values are counts of that many
//! bytes), `Size` (`-h`/`-H`: values with a unit suffix, `12G`, rounded up by df, so sizes read
//! from them are approximate), `Inodes` (`-i`: counts of inodes). The header words are read for
//! the form only; the values are read by position, which is what makes a translated header
//! readable. Without `-P` a long device name is printed alone on its line and its numbers on
//! the next one; the two are joined.
//!
//! The percentage is df's own, `used / (used + available)` rounded up: on ext4 the blocks
//! reserved for root (5 % by default, `tune2fs -m`) are in neither, so a filesystem shows 100 %
//! when only root can still write.
//!
//! Sample input (`df -P`, coreutils 9.1):
//! ```text
//! Filesystem              1024-blocks     Used Available Capacity Mounted on
//! /dev/vda                  264212084 23932248  71353640      26% /
//! /dev/loop0                    56037    54672         0     100% /srv/fsblk/data
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, split_last, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One `df` report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Df {
    /// What the size columns count.
    pub unit: DfUnit,
    /// 1-based line of the header.
    pub header_line: usize,
    /// One row per filesystem, in input order.
    pub rows: Vec<DfRow>,
}

/// What the size columns of a `df` report count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DfUnit {
    /// Blocks of this many bytes (`1024-blocks`, `1K-blocks`: 1024); values are stored in bytes.
    Blocks(u64),
    /// Sizes with a unit suffix (`-h`, powers of 1024); values are stored in bytes, approximate.
    Human,
    /// Inodes (`-i`); values are counts.
    Inodes,
}

/// One filesystem row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DfRow {
    /// 1-based input line of the numbers (the second line of a wrapped row).
    pub line: usize,
    /// `Filesystem`: the device or source (`/dev/sda1`, `tmpfs`).
    pub filesystem: String,
    /// `Type` (`-T` only).
    pub fstype: Option<String>,
    /// Size: bytes (blocks, human) or inodes. `None` when not a number.
    pub total: Option<u64>,
    /// `Used` (`IUsed`): bytes or inodes.
    pub used: Option<u64>,
    /// `Available` (`Avail`, `IFree`): bytes or inodes.
    pub avail: Option<u64>,
    /// `Capacity` / `Use%` / `IUse%`, percent as df printed it; `None` for `-` (size 0).
    pub use_pct: Option<u32>,
    /// `Mounted on`.
    pub mount: String,
}

/// Header words of the first column, by locale (C, de).
const FIRST: &[&str] = &["Filesystem", "Dateisystem"];
/// Header words of the last column, by locale (C, de).
const LAST: &[&str] = &["Mounted on", "Eingehängt auf"];
/// Header words of the `-T` column, by locale.
const TYPE: &[&str] = &["Type", "Typ"];

/// The form of a header line, or `None` if it is not a `df` header.
fn header(line: &str) -> Option<(DfUnit, bool)> {
    let line = line.trim_end();
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() < 6 || !FIRST.contains(&toks[0]) || !LAST.iter().any(|l| line.ends_with(l)) {
        return None;
    }
    let typed = TYPE.contains(&toks[1]);
    let size = toks[1 + usize::from(typed)];
    let unit = if size == "Inodes" {
        DfUnit::Inodes
    } else if let Some((n, _)) = size.split_once('-') {
        DfUnit::Blocks(block_size(n)?)
    } else {
        DfUnit::Human
    };
    Some((unit, typed))
}

/// `1024`, `1K`, `1k`, `512`, `1M` → bytes.
fn block_size(s: &str) -> Option<u64> {
    let (digits, mult) = match split_last(s)? {
        (d, 'K' | 'k') => (d, 1024),
        (d, 'M') => (d, 1024 * 1024),
        (d, 'G') => (d, 1024 * 1024 * 1024),
        _ => (s, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(mult)
}

/// A `-h` value (`12G`, `1.5M`, `1,5M`, `0`, `512`) → bytes.
fn human(s: &str) -> Option<u64> {
    let (num, mult) = match split_last(s)? {
        (n, 'K' | 'k') => (n, 1u64 << 10),
        (n, 'M') => (n, 1 << 20),
        (n, 'G') => (n, 1 << 30),
        (n, 'T') => (n, 1 << 40),
        (n, 'P') => (n, 1 << 50),
        (n, 'E') => (n, 1 << 60),
        _ => (s, 1),
    };
    if num.is_empty()
        || !num
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return None;
    }
    let v: f64 = num.replace(',', ".").parse().ok()?;
    let bytes = v * mult as f64;
    (bytes.is_finite() && bytes >= 0.0 && bytes < u64::MAX as f64).then_some(bytes as u64)
}

/// A count: digits only.
fn count(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `26%` → 26; `-` → `Ok(None)`; anything else → `Err`.
fn percent(s: &str) -> Result<Option<u32>, ()> {
    if s == "-" {
        return Ok(None);
    }
    let digits = s.strip_suffix('%').ok_or(())?;
    count(digits)
        .and_then(|v| u32::try_from(v).ok())
        .map(Some)
        .ok_or(())
}

/// The byte offset just past the `i`-th (0-based) whitespace-separated word of `line`.
fn word_end(line: &str, i: usize) -> Option<usize> {
    let mut seen = 0;
    let mut in_word = false;
    for (at, c) in line.char_indices() {
        if c.is_whitespace() {
            if in_word {
                if seen == i {
                    return Some(at);
                }
                seen += 1;
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    (in_word && seen == i).then_some(line.len())
}

/// A `df` report (blocks, `-h` or inodes; any of the headers named in the module doc)?
///
/// `Yes` when the first non-blank line is a `df` header: `Filesystem` first, `Mounted on` last,
/// at least six columns and a size column df prints (`1024-blocks`, `1K-blocks`, `Size`,
/// `Inodes`).
pub fn sniff(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if !complete {
            // A cut header: unsure only when it starts like one.
            let t = line.trim_start();
            return if FIRST.iter().any(|f| t.starts_with(f) || f.starts_with(t)) {
                Sniff::Unsure
            } else {
                Sniff::No
            };
        }
        return if header(line).is_some() {
            Sniff::Yes
        } else {
            Sniff::No
        };
    }
    Sniff::No
}

/// Parses one `df` report.
///
/// Errors: [`ParseError::Unusable`] without a header line or without any readable row. A row
/// whose numbers or percentage cannot be read becomes an issue.
pub fn parse(text: &str) -> Result<Parsed<Df>, ParseError> {
    let mut issues = Issues::default();
    let mut lines = numbered_lines(text).skip_while(|(_, l)| l.trim().is_empty());
    let Some((header_line, h)) = lines.next() else {
        return Err(ParseError::unusable(None, "empty input"));
    };
    let Some((unit, typed)) = header(h) else {
        return Err(ParseError::unusable(
            Some(header_line),
            format!(
                "expected a `df` header (`Filesystem … Mounted on`), found `{}`",
                excerpt(h)
            ),
        ));
    };
    let fixed = if typed { 6 } else { 5 };
    let mut rows = Vec::new();
    // A device name printed alone on its line (no -P): its numbers follow on the next line.
    let mut pending: Option<(usize, String)> = None;
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let lead = if line.starts_with(char::is_whitespace) {
            pending.take()
        } else {
            if let Some((p, name)) = pending.take() {
                issues.push(p, || {
                    format!("`{}` has no numbers after it", excerpt(&name))
                });
            }
            None
        };
        let mut words: Vec<&str> = Vec::with_capacity(toks.len() + 1);
        if let Some((_, name)) = &lead {
            words.push(name.as_str());
        }
        words.extend(&toks);
        if lead.is_none() && words.len() < fixed {
            if words.len() == 1 || (typed && words.len() == 2) {
                pending = Some((n, line.trim().to_string()));
                continue;
            }
            issues.push(n, || {
                format!(
                    "expected {fixed} columns and a mount point, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        // Where the size column starts among this line's words.
        let (fs, fstype, skip) = match (&lead, typed) {
            (Some((_, name)), true) if name.split_whitespace().count() == 2 => {
                let mut it = name.split_whitespace();
                let fs = it.next().unwrap_or_default();
                let ty = it.next().unwrap_or_default();
                (fs.to_string(), Some(ty.to_string()), 0)
            }
            (Some((_, name)), false) => (name.clone(), None, 0),
            (Some((_, name)), true) => (name.clone(), toks.first().map(|t| t.to_string()), 1),
            (None, true) => (toks[0].to_string(), Some(toks[1].to_string()), 2),
            (None, false) => (toks[0].to_string(), None, 1),
        };
        let rest = toks.get(skip..).unwrap_or(&[]);
        if rest.len() < 4 {
            issues.push(n, || {
                format!(
                    "expected size, used, available, use% and a mount point, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let num = |s: &str| match unit {
            DfUnit::Blocks(b) => count(s).and_then(|v| v.checked_mul(b)),
            DfUnit::Human => human(s),
            DfUnit::Inodes => count(s),
        };
        let (total, used, avail) = (num(rest[0]), num(rest[1]), num(rest[2]));
        let Ok(use_pct) = percent(rest[3]) else {
            issues.push(n, || {
                format!(
                    "expected a percentage (`26%` or `-`), found `{}`",
                    excerpt(rest[3])
                )
            });
            continue;
        };
        if [total, used, avail].iter().any(Option::is_none) && use_pct.is_some() {
            issues.push(n, || {
                format!(
                    "expected three numbers before the percentage, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        // The mount point is the rest of the line after the percentage (it may hold spaces).
        let mount = match word_end(line, skip + 3) {
            Some(end) if rest.len() > 4 => line.get(end..).unwrap_or("").trim().to_string(),
            _ => String::new(),
        };
        if mount.is_empty() {
            issues.push(n, || format!("no mount point in `{}`", excerpt(line)));
            continue;
        }
        rows.push(DfRow {
            line: n,
            filesystem: fs,
            fstype,
            total,
            used,
            avail,
            use_pct,
            mount,
        });
    }
    if let Some((p, name)) = pending {
        issues.push(p, || {
            format!("`{}` has no numbers after it", excerpt(&name))
        });
    }
    if rows.is_empty() {
        return Err(ParseError::unusable(
            Some(header_line),
            "a `df` header without any readable filesystem row",
        ));
    }
    Ok(Parsed {
        value: Df {
            unit,
            header_line,
            rows,
        },
        issues: issues.into_vec(),
    })
}

impl Df {
    /// Whether the report counts inodes (`df -i`).
    pub fn inodes(&self) -> bool {
        self.unit == DfUnit::Inodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(d: &'a Df, mount: &str) -> &'a DfRow {
        d.rows.iter().find(|r| r.mount == mount).unwrap()
    }

    #[test]
    fn reads_df_p_of_coreutils_9_1() {
        let p = parse(include_str!(
            "../../tests/fixtures/df/df-P.coreutils-9.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.unit, DfUnit::Blocks(1024));
        let d = row(&p.value, "/srv/fsblk/data");
        assert_eq!(d.filesystem, "/dev/loop0");
        assert_eq!(d.total, Some(56037 * 1024));
        assert_eq!(d.used, Some(54672 * 1024));
        assert_eq!(d.avail, Some(0));
        assert_eq!(d.use_pct, Some(100));
        assert_eq!(row(&p.value, "/").use_pct, Some(26));
    }

    #[test]
    fn reads_df_i_and_sosreport_dashes() {
        let p = parse(include_str!(
            "../../tests/fixtures/df/df-i.coreutils-9.1.txt"
        ))
        .unwrap();
        assert!(p.value.inodes());
        let s = row(&p.value, "/srv/fsblk/spool");
        assert_eq!(
            (s.total, s.used, s.avail, s.use_pct),
            (Some(64), Some(64), Some(0), Some(100))
        );
        let p = parse(include_str!(
            "../../tests/fixtures/df/df_-ali_-x_autofs.ubuntu-20.04"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert!(p.value.inodes());
        assert_eq!(row(&p.value, "/sys").use_pct, None);
        assert_eq!(row(&p.value, "/snap/core20/1328").used, Some(11777));
        let p = parse(include_str!(
            "../../tests/fixtures/df/df_-al_-x_autofs.ubuntu-20.04"
        ))
        .unwrap();
        assert_eq!(p.value.unit, DfUnit::Blocks(1024));
        let n = row(&p.value, "/var/lib/nova/instances");
        assert_eq!(n.filesystem, "/dev/dm-2");
        assert_eq!(n.used, Some(2081948 * 1024));
    }

    #[test]
    fn reads_type_and_human_and_german_headers() {
        let p = parse(include_str!(
            "../../tests/fixtures/df/df-Th.coreutils-9.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.unit, DfUnit::Human);
        let d = row(&p.value, "/srv/fsblk/snap");
        assert_eq!(d.fstype.as_deref(), Some("squashfs"));
        assert_eq!(d.use_pct, Some(100));
        assert_eq!(d.total, Some(128 * 1024));
        let p = parse(include_str!(
            "../../tests/fixtures/df/df-P.de_DE.coreutils-9.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.unit, DfUnit::Blocks(1024));
        assert_eq!(row(&p.value, "/srv/fsblk/tmp").use_pct, Some(100));
        let p = parse(include_str!(
            "../../tests/fixtures/df/df-h.de_DE.coreutils-9.1.txt"
        ))
        .unwrap();
        assert_eq!(p.value.unit, DfUnit::Human);
        let t = parse(include_str!(
            "../../tests/fixtures/df/df-T.coreutils-9.1.txt"
        ))
        .unwrap();
        assert_eq!(row(&t.value, "/").fstype.as_deref(), Some("ext4"));
    }

    #[test]
    fn joins_a_wrapped_device_name() {
        let text = "Filesystem     1K-blocks    Used Available Use% Mounted on\n\
                    /dev/mapper/rhel-root\n\
                    \x20              52403200 4915200  47487999  10% /\n";
        let p = parse(text).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.rows[0].filesystem, "/dev/mapper/rhel-root");
        assert_eq!(p.value.rows[0].line, 3);
        assert_eq!(p.value.rows[0].use_pct, Some(10));
    }

    #[test]
    fn sniffs_headers_only() {
        assert_eq!(
            sniff("Filesystem     1K-blocks    Used Available Use% Mounted on\n"),
            Sniff::Yes
        );
        assert_eq!(
            sniff("Filesystem      Inodes IUsed   IFree IUse% Mounted on\n"),
            Sniff::Yes
        );
        assert_eq!(sniff("/dev/sda1 / ext4 rw 0 0\n"), Sniff::No);
        assert!(parse("Filesystem 1K-blocks Used Available Use% Mounted on\n").is_err());
    }
}
