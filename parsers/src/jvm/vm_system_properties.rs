//! `jcmd PID VM.system_properties`: the Java system properties of a running JVM.
//!
//! jcmd prints the target PID alone first, then the properties in `java.util.Properties` file
//! form (`#` date comment, `key=value` with backslash escapes), OpenJDK 17.0.15:
//! ```text
//! 24267:
//! #Mon Nov 30 02:56:11 UTC 2026
//! java.specification.version=17
//! sun.jnu.encoding=UTF-8
//! java.runtime.version=17.0.15+6-Debian-1deb12u1
//! ```

use super::pid_line;
use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::BTreeMap;

/// `jcmd PID VM.system_properties` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SystemProperties {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// The `#…` comment line (the time the properties were written), without `#`.
    pub comment: Option<String>,
    /// Properties by key, unescaped, with their 1-based input lines.
    pub properties: BTreeMap<String, (String, usize)>,
}

impl SystemProperties {
    /// A property's value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(|(v, _)| v.as_str())
    }
}

/// Undoes `java.util.Properties.store` escaping: `\:` `\=` `\ ` `\\` `\t` `\n` `\r` `\f` and
/// `\uXXXX`. Returns `None` on a malformed `\u` escape.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                if hex.len() != 4 {
                    return None;
                }
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    Some(out)
}

/// Byte index of the first `=` not escaped by a backslash.
/// `key=value` split at the first unescaped `=` (escaped key and value).
fn split_property(s: &str) -> Option<(&str, &str)> {
    let (key, rest) = s.split_at_checked(separator(s)?)?;
    Some((key, rest.strip_prefix('=')?))
}

fn separator(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'=' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Properties that only a running JVM sets (the launcher and the VM fill them in; a
/// `.properties` file of an application or of the JDK's `conf/` never does).
const RUNTIME_KEYS: &[&str] = &[
    "java.class.path",
    "java.class.version",
    "java.home",
    "java.library.path",
    "java.runtime.name",
    "java.runtime.version",
    "java.specification.version",
    "java.vendor",
    "java.version",
    "java.vm.name",
    "java.vm.specification.version",
    "java.vm.vendor",
    "java.vm.version",
    "sun.java.command",
];

/// Fewest distinct [`RUNTIME_KEYS`] in the head of a JVM's system properties (JDK 17 prints
/// them unsorted: the first 4 KiB hold about ten).
const MIN_RUNTIME_KEYS: usize = 3;

/// `jcmd VM.system_properties` output?
///
/// `Yes` when complete `key=value` lines of the head set at least [`MIN_RUNTIME_KEYS`] of the
/// properties only a running JVM has (`java.version`, `java.vm.name`, `java.home`, …); `No`
/// otherwise: a `.properties` file with `java.…` keys (`/etc/java-17-openjdk/net.properties`'
/// `java.net.useSystemProxies`) is configuration, not a JVM.
pub fn sniff_system_properties(head: &str) -> Sniff {
    let mut seen: Vec<&str> = Vec::new();
    for (line, complete) in head_lines(head) {
        if !complete {
            continue;
        }
        let Some((key, _)) = split_property(line) else {
            continue;
        };
        if RUNTIME_KEYS.contains(&key) && !seen.contains(&key) {
            seen.push(key);
        }
    }
    if seen.len() >= MIN_RUNTIME_KEYS {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `jcmd PID VM.system_properties`.
///
/// Errors: [`ParseError::Unusable`] when no `key=value` line is found. Other lines become issues.
pub fn parse_system_properties(text: &str) -> Result<Parsed<SystemProperties>, ParseError> {
    let mut out = SystemProperties::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.properties.is_empty() && out.comment.is_none() {
            if let Some(pid) = pid_line(t.trim_end()) {
                out.pid = Some(pid);
                continue;
            }
        }
        if let Some(c) = t.strip_prefix('#') {
            if out.comment.is_none() {
                out.comment = Some(c.trim().to_string());
            }
            continue;
        }
        let parsed = split_property(t).and_then(|(k, v)| Some((unescape(k)?, unescape(v)?)));
        match parsed {
            Some((k, v)) if !k.is_empty() => {
                out.properties.insert(k, (v, n));
            }
            _ => issues.push(n, || {
                format!("expected `key=value`, found `{}`", excerpt(line))
            }),
        }
    }
    if out.properties.is_empty() {
        return Err(ParseError::unusable(None, "no `key=value` property found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
