//! Kernel tunables: `sysctl -a` (procps, procps-ng 3.3–4.0, BusyBox) and `sysctl.conf` /
//! `sysctl.d/*.conf` files.
//!
//! In: the text. Out: [`Sysctl`], one [`Entry`] per `key = value` line, and the keys `sysctl -a`
//! could not read, split into [`Sysctl::denied`] and [`Sysctl::read_errors`].
//!
//! (In the samples, the tabs of the real output are shown as `<TAB>`.)
//!
//! `sysctl -a` prints `key = value`. A key whose file holds several numbers prints them as the
//! kernel writes them, separated by tabs (`net.ipv4.tcp_rmem = 4096<TAB>131072<TAB>6291456`,
//! `kernel.printk`, `net.ipv4.ip_local_port_range`, `fs.file-nr`); they are split into
//! [`Entry::fields`] and [`Entry::value`] joins them with one space, so no tab reaches a report
//! or a comparison. A key whose file has several lines prints one `key = line` per line
//! (`dev.cdrom.info`). Run without privileges, sysctl mixes its error messages into the output
//! (when stderr goes to the same file); parsing goes on, each is an issue, and the key goes to
//! one of two lists, because a key that could not be read is unknown, not unset:
//! ```text
//! kernel.bpf_stats_enabled = 0
//! sysctl: permission denied on key 'kernel.cad_pid'
//! kernel.cap_last_cap = 40
//! kernel.printk = 4<TAB>4<TAB>1<TAB>7
//! sysctl: reading key "net.ipv6.conf.all.stable_secret"
//! ```
//! - denied ([`Sysctl::denied`]): `sysctl: permission denied on key 'K'` (procps-ng 3.3–4.0),
//!   `error: permission denied on key 'K'` (procps 3.2, older BusyBox);
//! - read errors ([`Sysctl::read_errors`]): `sysctl: reading key "K"`, with `: <error>` when the
//!   file could not be opened (procps-ng 3.3.x prints it for `stable_secret` as root; 3.3.13 and
//!   later skip that key silently), `error: "<error>" reading key "K"` (procps 3.2),
//!   `sysctl: error reading key 'K'` (BusyBox), `sysctl: cannot stat /proc/sys/K: <error>` and
//!   `sysctl: "K" is an unknown key` (a key that vanished while listed: an interface going away).
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
    /// The value: its [`Entry::fields`] joined with one space (`4096 131072 6291456`); a
    /// single-field value as printed, trimmed (`#1 SMP PREEMPT_DYNAMIC Debian 6.1.123-1`).
    pub value: String,
    /// The fields of a value the kernel writes as a tab-separated vector (`net.ipv4.tcp_rmem`,
    /// `kernel.printk`, `net.ipv4.ip_local_port_range`, `fs.file-nr`), each trimmed, empty ones
    /// dropped; empty when the value has a single field (most keys), which is then
    /// [`Entry::value`] itself.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// `sysctl.d` only: the key was prefixed with `-` (failures to set it are ignored).
    pub ignore_failure: bool,
    /// 1-based input line.
    pub line: usize,
}

/// A key `sysctl -a` printed an error for instead of its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    /// The key named in the message (dotted, also when the message names its `/proc/sys` path).
    pub key: String,
    /// The system's error text when the message carries one (`Input/output error`,
    /// `Invalid argument`).
    pub error: Option<String>,
    /// 1-based input line of the message.
    pub line: usize,
}

/// Parsed `sysctl -a` or `sysctl.conf`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Sysctl {
    /// Entries in input order (a key printed on several lines has several entries).
    pub entries: Vec<Entry>,
    /// Keys `sysctl -a` was refused (`permission denied on key '…'`): their value is unknown.
    pub denied: Vec<Unreadable>,
    /// Keys whose read failed otherwise (`reading key "…"`, `cannot stat`, `is an unknown key`):
    /// their value is unknown.
    pub read_errors: Vec<Unreadable>,
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

    /// Whether `sysctl -a` printed an error for `key` instead of its value (denied or a read
    /// error): its value is unknown, which is not the same as absent.
    pub fn is_unreadable(&self, key: &str) -> bool {
        self.unreadable().any(|u| u.key == key)
    }

    /// The keys `sysctl -a` could not read, denied first, then read errors.
    pub fn unreadable(&self) -> impl Iterator<Item = &Unreadable> {
        self.denied.iter().chain(&self.read_errors)
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
    /// of them, sorted by key: `(key, self's value, other's value)`. A key either side could
    /// not read is unknown there, so not compared.
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
        let unknown: std::collections::BTreeSet<&str> = self
            .unreadable()
            .chain(other.unreadable())
            .map(|u| u.key.as_str())
            .collect();
        let mut keys: Vec<&str> = a
            .keys()
            .chain(b.keys())
            .copied()
            .filter(|k| !unknown.contains(k))
            .collect();
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

/// What an error line of `sysctl -a` says about a key.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ErrorLine {
    /// `permission denied on key`.
    Denied(Unreadable),
    /// Any other failure to read a key.
    ReadError(Unreadable),
    /// A message of sysctl that names no key.
    Other,
}

/// The first quoted text (`'…'` or `"…"`) of `s`, and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let start = s.find(['\'', '"'])?;
    let q = s.get(start..)?.chars().next()?;
    let rest = s.get(start + 1..)?;
    let (inside, after) = rest.split_once(q)?;
    Some((inside, after))
}

/// An error line of procps, procps-ng or BusyBox `sysctl -a` (see the module doc for the forms).
fn error_line(line: &str, n: usize) -> Option<ErrorLine> {
    let t = line.trim();
    let rest = t
        .strip_prefix("sysctl: ")
        .or_else(|| t.strip_prefix("error: "))?;
    let rest = rest.strip_prefix("error: ").unwrap_or(rest);
    let found = |key: &str, error: Option<&str>| Unreadable {
        key: key.replace('/', "."),
        error: error
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(str::to_string),
        line: n,
    };
    if let Some(after) = rest.strip_prefix("permission denied on key ") {
        let (key, _) = quoted(after)?;
        return Some(ErrorLine::Denied(found(key, None)));
    }
    if let Some(at) = rest.find("reading key ") {
        // `reading key "K"[: error]`, `error reading key 'K'`, `"error" reading key "K"`.
        let before = rest.get(..at).unwrap_or("");
        let (key, after) = quoted(rest.get(at + "reading key ".len()..)?)?;
        let error = quoted(before)
            .map(|(e, _)| e)
            .or_else(|| after.strip_prefix(':'));
        return Some(ErrorLine::ReadError(found(key, error)));
    }
    if let Some(path) = rest.strip_prefix("cannot stat /proc/sys/") {
        let (key, error) = path.split_once(": ").unwrap_or((path, ""));
        return Some(ErrorLine::ReadError(found(key, Some(error))));
    }
    if let Some((key, after)) = quoted(rest) {
        if after.trim() == "is an unknown key" {
            return Some(ErrorLine::ReadError(found(key, Some("unknown key"))));
        }
    }
    Some(ErrorLine::Other)
}

/// The tab-separated fields of a value, trimmed, empty ones dropped.
fn fields(value: &str) -> Vec<String> {
    value
        .split('\t')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect()
}

/// An entry of `key` with `raw` split into fields.
fn entry(key: String, raw: &str, ignore_failure: bool, line: usize) -> Entry {
    let mut fields = fields(raw);
    let value = if fields.len() > 1 {
        fields.join(" ")
    } else {
        fields.clear();
        raw.trim().to_string()
    };
    Entry {
        key,
        value,
        fields,
        ignore_failure,
        line,
    }
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
        if t.is_empty() || error_line(t, 0).is_some() {
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
        match error_line(line, n) {
            Some(ErrorLine::Denied(u)) => {
                issues.push(n, || {
                    format!("permission denied on `{}`: value unknown", u.key)
                });
                out.denied.push(u);
                continue;
            }
            Some(ErrorLine::ReadError(u)) => {
                issues.push(n, || {
                    format!(
                        "sysctl could not read `{}`{}: value unknown",
                        u.key,
                        u.error
                            .as_deref()
                            .map(|e| format!(" ({e})"))
                            .unwrap_or_default()
                    )
                });
                out.read_errors.push(u);
                continue;
            }
            Some(ErrorLine::Other) => {
                issues.push(n, || format!("sysctl message `{}`", excerpt(line)));
                continue;
            }
            None => {}
        }
        match sysctl_a_line(line) {
            Some((key, value)) => out.entries.push(entry(key.to_string(), value, false, n)),
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
            Some((key, value, ignore_failure)) => {
                out.entries.push(entry(key, value, ignore_failure, n))
            }
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
        let key = |l: &str| match error_line(l, 7) {
            Some(ErrorLine::Denied(u)) => ("denied", u.key, u.error),
            Some(ErrorLine::ReadError(u)) => ("read", u.key, u.error),
            Some(ErrorLine::Other) => ("other", String::new(), None),
            None => ("none", String::new(), None),
        };
        let s = |x: &str| x.to_string();
        assert_eq!(
            key("sysctl: permission denied on key 'kernel.cad_pid'"),
            ("denied", s("kernel.cad_pid"), None)
        );
        assert_eq!(
            key("error: permission denied on key 'net.ipv4.route.flush'"),
            ("denied", s("net.ipv4.route.flush"), None)
        );
        assert_eq!(
            key("sysctl: reading key \"net.ipv6.conf.all.stable_secret\""),
            ("read", s("net.ipv6.conf.all.stable_secret"), None)
        );
        assert_eq!(
            key("sysctl: reading key \"vm.x\": Input/output error"),
            ("read", s("vm.x"), Some(s("Input/output error")))
        );
        assert_eq!(
            key("error: \"Invalid argument\" reading key \"fs.binfmt_misc.register\""),
            (
                "read",
                s("fs.binfmt_misc.register"),
                Some(s("Invalid argument"))
            )
        );
        assert_eq!(
            key("sysctl: error reading key 'net.ipv4.route.flush'"),
            ("read", s("net.ipv4.route.flush"), None)
        );
        assert_eq!(
            key("sysctl: cannot stat /proc/sys/net/ipv4/conf/veth1/forwarding: No such file or directory"),
            ("read", s("net.ipv4.conf.veth1.forwarding"), Some(s("No such file or directory")))
        );
        assert_eq!(
            key("sysctl: \"net.ipv6.conf.veth1.mtu\" is an unknown key"),
            ("read", s("net.ipv6.conf.veth1.mtu"), Some(s("unknown key")))
        );
        assert_eq!(key("sysctl: something else"), ("other", s(""), None));
        assert_eq!(key("kernel.x = 1"), ("none", s(""), None));
    }

    #[test]
    fn tab_separated_values_are_fields() {
        let e = entry("kernel.printk".into(), "4\t4\t1\t7", false, 1);
        assert_eq!((e.value.as_str(), e.fields.len()), ("4 4 1 7", 4));
        let e = entry("kernel.version".into(), "#1 SMP  Debian ", false, 1);
        assert_eq!(e.value, "#1 SMP  Debian");
        assert!(e.fields.is_empty());
        let e = entry("dev.cdrom.info".into(), "drive name:\t\tsr0", false, 1);
        assert_eq!(e.value, "drive name: sr0");
        assert!(entry("kernel.domainname".into(), "", false, 1)
            .fields
            .is_empty());
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
