//! Kernel tunables: `sysctl -a` (procps-ng) and `sysctl.conf` / `sysctl.d/*.conf` files.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
//!
//! `sysctl -a` prints `key = value`; multi-valued keys separate their values with tabs
//! (`net.ipv4.tcp_rmem = 4096      131072  6291456`), and a key whose file has several lines prints
//! one `key = line` per line (`dev.cdrom.info`). Run without privileges, procps-ng mixes its
//! error messages into the output; they are reported as issues and parsing goes on:
//! ```text
//! kernel.bpf_stats_enabled = 0
//! sysctl: permission denied on key 'kernel.cad_pid'
//! kernel.cap_last_cap = 40
//! sysctl: reading key "net.ipv6.conf.all.stable_secret"
//! ```
//!
//! `sysctl.conf(5)` / `sysctl.d(5)`: `key = value` or `key=value`, comments start with `#` or
//! `;`, a leading `-` on the key means "ignore a failure to set it", and keys may use `/`
//! instead of `.` as separator (read here as dots).

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One `key = value` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Key with dots (`net.core.somaxconn`).
    pub key: String,
    /// Value as printed, trimmed at both ends (inner tabs kept).
    pub value: String,
    /// `sysctl.d` only: the key was prefixed with `-` (failures to set it are ignored).
    pub ignore_failure: bool,
    /// 1-based input line.
    pub line: usize,
}

/// A key `sysctl -a` could not read (permission denied, or an error reading it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    /// The key named in the message.
    pub key: String,
    /// 1-based input line of the message.
    pub line: usize,
}

/// Parsed `sysctl -a` or `sysctl.conf`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Sysctl {
    /// Entries in input order (a key printed on several lines has several entries).
    pub entries: Vec<Entry>,
    /// Keys `sysctl -a` reported as unreadable.
    pub unreadable: Vec<Unreadable>,
}

impl Sysctl {
    /// The entry of `key` (the last one for a key set twice, which is the one that wins in a
    /// configuration file; for multi-line keys in `sysctl -a` use [`Sysctl::all`]).
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }

    /// The value of `key` as printed.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entry(key).map(|e| e.value.as_str())
    }

    /// Every entry of `key`, in input order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries.iter().filter(move |e| e.key == key)
    }

    /// The value of `key` as a signed integer (`vm.swappiness`, `net.core.somaxconn`);
    /// `None` when absent or not a single integer.
    pub fn get_i64(&self, key: &str) -> Option<i64> {
        self.get(key)?.trim().parse().ok()
    }

    /// The value of `key` as an unsigned integer.
    pub fn get_u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.trim().parse().ok()
    }

    /// The whitespace-separated integers of a multi-valued key (`net.ipv4.tcp_rmem` →
    /// `[4096, 131072, 6291456]`); `None` when absent or when any part is not an integer.
    pub fn get_i64s(&self, key: &str) -> Option<Vec<i64>> {
        self.get(key)?
            .split_ascii_whitespace()
            .map(|t| t.parse().ok())
            .collect()
    }

    /// Keys present in `self` and `other` with different values, and keys present in only one
    /// of them, sorted by key: `(key, self's value, other's value)`.
    pub fn diff<'a>(
        &'a self,
        other: &'a Sysctl,
    ) -> Vec<(&'a str, Option<&'a str>, Option<&'a str>)> {
        use std::collections::BTreeMap;
        let map = |s: &'a Sysctl| -> BTreeMap<&'a str, &'a str> {
            s.entries
                .iter()
                .map(|e| (e.key.as_str(), e.value.as_str()))
                .collect()
        };
        let (a, b) = (map(self), map(other));
        let mut keys: Vec<&str> = a.keys().chain(b.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .filter_map(|k| {
                let (x, y) = (a.get(k).copied(), b.get(k).copied());
                (x != y).then_some((k, x, y))
            })
            .collect()
    }
}

/// Top-level sysctl directories (`/proc/sys/*`).
const TOP_LEVELS: &[&str] = &[
    "abi", "crypto", "debug", "dev", "fs", "kernel", "net", "sunrpc", "user", "vm",
];

/// A sysctl key: dotted (or slashed) names, starting with a known top level.
fn is_key(k: &str) -> bool {
    let first = k.split(['.', '/']).next().unwrap_or("");
    TOP_LEVELS.contains(&first)
        && k.len() <= 256
        && k.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'_' | b'-' | b'*' | b'@' | b':')
        })
}

/// A procps-ng error line, with the key it names.
fn error_line(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("sysctl: ")?;
    // `permission denied on key 'kernel.cad_pid'`, `reading key "net.ipv6.conf.all.stable_secret"`,
    // `cannot stat /proc/sys/…`.
    let quoted = rest
        .split_once('\'')
        .map(|(_, r)| r)
        .or_else(|| rest.split_once('"').map(|(_, r)| r))?;
    let key = quoted.split(['\'', '"']).next()?;
    Some(key)
}

/// `key = value` as `sysctl -a` prints it.
fn sysctl_a_line(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(" = ").or_else(|| {
        // An empty value is printed as `key = ` and may have lost its trailing space.
        line.strip_suffix(" =").map(|k| (k, ""))
    })?;
    let k = k.trim();
    is_key(k).then_some((k, v.trim()))
}

/// Is this `sysctl -a` output? `Yes` when at least three complete lines of the head are
/// `known.key = value` and no line is a comment; error lines are allowed. `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let (mut good, mut bad) = (0, 0);
    for (line, complete) in head_lines(head) {
        let t = line.trim();
        if t.is_empty() || error_line(t).is_some() {
            continue;
        }
        if t.starts_with(['#', ';']) {
            return Sniff::No;
        }
        match (sysctl_a_line(line).is_some(), complete) {
            (true, _) => good += 1,
            (false, true) => bad += 1,
            (false, false) => {}
        }
    }
    match (good, bad) {
        (g, 0) if g >= 3 => Sniff::Yes,
        (g, b) if g >= 3 && g > 4 * b => Sniff::Unsure,
        _ => Sniff::No,
    }
}

/// Parses `sysctl -a`.
///
/// Errors: [`ParseError::Unusable`] when no `key = value` line is found. Permission and read
/// errors become [`Sysctl::unreadable`] entries and issues; other lines are issues.
pub fn parse(text: &str) -> Result<Parsed<Sysctl>, ParseError> {
    let mut out = Sysctl::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(key) = error_line(line) {
            out.unreadable.push(Unreadable {
                key: key.to_string(),
                line: n,
            });
            issues.push(n, || {
                format!("sysctl could not read `{key}`: {}", excerpt(line.trim()))
            });
            continue;
        }
        match sysctl_a_line(line) {
            Some((key, value)) => out.entries.push(Entry {
                key: key.to_string(),
                value: value.to_string(),
                ignore_failure: false,
                line: n,
            }),
            None => issues.push(n, || {
                format!("expected `key = value`, found `{}`", excerpt(line))
            }),
        }
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `key = value` line with a sysctl key".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// `[-]key[ ]=[ ]value` of a configuration file; keys with `/` are turned into dotted keys.
fn conf_line(t: &str) -> Option<(String, &str, bool)> {
    let (k, v) = t.split_once('=')?;
    let k = k.trim();
    let (k, ignore) = match k.strip_prefix('-') {
        Some(k) => (k, true),
        None => (k, false),
    };
    if !is_key(k) {
        return None;
    }
    Some((k.replace('/', "."), v.trim(), ignore))
}

/// Is this a `sysctl.conf` / `sysctl.d` file? `Yes` when it has comment lines (`#`, `;`) and
/// every complete non-comment line of the head is `key = value`, or when a comment line itself
/// is a commented-out `key = value`; `No` otherwise (`sysctl -a` has no comments; comments
/// alone, or `key=value` lines outside `/proc/sys`, are any configuration file, a Java
/// `.properties` file among them).
pub fn sniff_conf(head: &str) -> Sniff {
    let (mut comments, mut commented_keys, mut good, mut bad) = (0, 0, 0, 0);
    for (line, complete) in head_lines(head) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(c) = t.strip_prefix(['#', ';']) {
            comments += 1;
            if conf_line(c.trim()).is_some() {
                commented_keys += 1;
            }
            continue;
        }
        match (conf_line(t).is_some(), complete) {
            (true, _) => good += 1,
            (false, true) => bad += 1,
            (false, false) => {}
        }
    }
    if bad > 0 || comments == 0 {
        return Sniff::No;
    }
    if good > 0 || commented_keys > 0 {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses a `sysctl.conf` / `sysctl.d/*.conf` file.
///
/// A file with only comments is valid and has no entries. Errors: [`ParseError::Unusable`] when
/// no line is a `key = value` assignment and the file is not made of comments only.
pub fn parse_conf(text: &str) -> Result<Parsed<Sysctl>, ParseError> {
    let mut out = Sysctl::default();
    let mut issues = Issues::default();
    let mut comments = 0;
    let mut bad = 0;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with(['#', ';']) {
            comments += 1;
            continue;
        }
        match conf_line(t) {
            Some((key, value, ignore_failure)) => out.entries.push(Entry {
                key,
                value: value.to_string(),
                ignore_failure,
                line: n,
            }),
            None => {
                bad += 1;
                issues.push(n, || {
                    format!(
                        "expected `key = value` or a `#`/`;` comment, found `{}`",
                        excerpt(t)
                    )
                })
            }
        }
    }
    if out.entries.is_empty() && (comments == 0 || bad > 0) {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `key = value` line and no comment".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines() {
        assert_eq!(
            error_line("sysctl: permission denied on key 'kernel.cad_pid'"),
            Some("kernel.cad_pid")
        );
        assert_eq!(
            error_line("sysctl: reading key \"net.ipv6.conf.all.stable_secret\""),
            Some("net.ipv6.conf.all.stable_secret")
        );
        assert_eq!(error_line("kernel.x = 1"), None);
    }

    #[test]
    fn conf_lines() {
        assert_eq!(
            conf_line("-net/ipv4/ip_forward=1"),
            Some(("net.ipv4.ip_forward".to_string(), "1", true))
        );
        assert_eq!(conf_line("foo = bar"), None);
    }
}
