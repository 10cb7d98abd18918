//! `/etc/os-release`: the distribution the host runs.
//!
//! freedesktop os-release(5): `KEY=value` lines, values optionally quoted with `"` or `'` and
//! backslash escapes; comments start with `#`:
//! ```text
//! PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
//! NAME="Debian GNU/Linux"
//! VERSION_ID="12"
//! VERSION_CODENAME=bookworm
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// Parsed `/etc/os-release`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct OsRelease {
    /// Every key with its unquoted value.
    pub fields: BTreeMap<String, String>,
    /// 1-based line of each key.
    pub lines: BTreeMap<String, usize>,
}

impl OsRelease {
    /// `PRETTY_NAME`, else `NAME VERSION`, else `ID`.
    ///
    /// Empty values count as absent; `NAME` alone is used when `VERSION` is absent.
    pub fn pretty_name(&self) -> Option<String> {
        let get = |k: &str| {
            self.fields
                .get(k)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
        };
        if let Some(p) = get("PRETTY_NAME") {
            return Some(p.to_string());
        }
        match (get("NAME"), get("VERSION")) {
            (Some(n), Some(v)) => Some(format!("{n} {v}")),
            (Some(n), None) => Some(n.to_string()),
            _ => get("ID").map(str::to_string),
        }
    }
}

/// A `KEY=value` line of os-release; `None` when the line is not one.
fn os_release_line(line: &str) -> Option<(&str, String)> {
    let (key, raw) = line.split_once('=')?;
    let key = key.trim();
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    Some((key, unquote(raw.trim())?))
}

/// Shell-style value: `"…"` with `\"`, `\\`, `\$`, `` \` `` escapes, `'…'` literal, or bare.
fn unquote(raw: &str) -> Option<String> {
    let mut chars = raw.chars();
    match chars.next() {
        Some(q @ ('"' | '\'')) => {
            let mut out = String::with_capacity(raw.len());
            let mut closed = false;
            while let Some(c) = chars.next() {
                if c == q {
                    closed = true;
                    break;
                }
                if c == '\\' && q == '"' {
                    match chars.next() {
                        Some(e @ ('"' | '\\' | '$' | '`')) => out.push(e),
                        Some(e) => {
                            out.push('\\');
                            out.push(e);
                        }
                        None => return None,
                    }
                } else {
                    out.push(c);
                }
            }
            // Anything but blanks or a comment after the closing quote is malformed.
            let tail = chars.as_str().trim();
            (closed && (tail.is_empty() || tail.starts_with('#'))).then_some(out)
        }
        _ => Some(raw.to_string()),
    }
}

/// Is this an os-release file?
///
/// `Yes` when every complete non-comment line of the head is `KEY=value` and the head carries
/// os-release(5)'s own identification keys: `NAME=`, a non-empty `ID=`, and `VERSION_ID=` or
/// `PRETTY_NAME=` (rolling distributions such as Arch have no `VERSION_ID`); `No` otherwise.
/// `KEY=value` lines without them are other files of the same shell syntax
/// (`/etc/environment`, `/etc/default/*`, `/etc/sysconfig/*`, `/etc/lsb-release`, an init
/// script's variables, `blkid -o export`, systemd's `/run/systemd/users/*`).
pub fn sniff_os_release(head: &str) -> Sniff {
    let (mut id, mut name, mut version) = (false, false, false);
    for (line, complete) in head_lines(head) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match os_release_line(t) {
            Some((key, value)) => {
                id |= key == "ID" && !value.is_empty();
                name |= key == "NAME";
                version |= matches!(key, "VERSION_ID" | "PRETTY_NAME");
            }
            None if complete => return Sniff::No,
            None => {}
        }
    }
    if id && name && version {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/etc/os-release`. Errors: [`ParseError::Unusable`] when no `KEY=value` line exists.
pub fn parse_os_release(text: &str) -> Result<Parsed<OsRelease>, ParseError> {
    let mut out = OsRelease::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match os_release_line(t) {
            Some((key, value)) => {
                out.fields.insert(key.to_string(), value);
                out.lines.insert(key.to_string(), n);
            }
            None => issues.push(n, || {
                format!(
                    "expected `KEY=value` (KEY in capitals, value optionally quoted), found `{}`",
                    excerpt(t)
                )
            }),
        }
    }
    if out.fields.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `KEY=value` line found (not an os-release file)",
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
    fn os_release_quoting() {
        let text =
            "# comment\nNAME=\"Fedora \\\"Linux\\\"\"\nID=fedora\nVERSION_ID='39'\nbad line\n";
        let p = parse_os_release(text).unwrap();
        assert_eq!(p.value.fields["NAME"], "Fedora \"Linux\"");
        assert_eq!(p.value.fields["VERSION_ID"], "39");
        assert_eq!(p.value.lines["ID"], 3);
        assert_eq!(p.issues.len(), 1);
        assert_eq!(p.issues[0].line, 5);
        assert_eq!(p.value.pretty_name().as_deref(), Some("Fedora \"Linux\""));
        let only_id = parse_os_release("ID=alpine\n").unwrap().value;
        assert_eq!(only_id.pretty_name().as_deref(), Some("alpine"));
    }
}
