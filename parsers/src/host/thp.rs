//! Transparent huge page settings: `/sys/kernel/mm/transparent_hugepage/{enabled,defrag}` as
//! `collector.sh` reads them with `grep -H . enabled defrag` (kind `thp`, `mem/thp.txt`).
//!
//! In: one `PATH:VALUE` line per file, `PATH` ending in `transparent_hugepage/enabled` or
//! `…/defrag` (RHEL 6's `redhat_transparent_hugepage/…` too), `VALUE` the file's one line: the
//! choices the kernel offers with the one in force in brackets. The choices are those of the
//! kernel's `Documentation/admin-guide/mm/transhuge.rst`: `enabled` is `always`, `madvise` or
//! `never`; `defrag` (Linux ≥ 4.6) is `always`, `defer`, `defer+madvise`, `madvise` or `never`.
//! Captured with kernel 6.18 (Debian 12 guest):
//! ```text
//! /sys/kernel/mm/transparent_hugepage/enabled:always [madvise] never
//! /sys/kernel/mm/transparent_hugepage/defrag:always defer defer+madvise [madvise] never
//! ```
//!
//! Out: a [`Thp`] with each setting's choice in force, its choices and its input line. Unknown
//! choices are kept as printed.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One of the two settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThpSetting {
    /// The choice in force (the bracketed word): `always`, `madvise`, `never`, `defer`, …
    pub selected: String,
    /// Every choice the kernel offers, in its order, without brackets.
    pub choices: Vec<String>,
    /// The file's path as printed (`/sys/kernel/mm/transparent_hugepage/defrag`).
    pub path: String,
    /// 1-based input line.
    pub line: usize,
}

/// The host's transparent huge page settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Thp {
    /// `enabled`: when page faults may allocate huge pages.
    pub enabled: Option<ThpSetting>,
    /// `defrag`: whether a fault that finds no free huge page stalls in direct reclaim and
    /// compaction (`always`), wakes kcompactd and falls back (`defer`), or does either only for
    /// `madvise(MADV_HUGEPAGE)` regions.
    pub defrag: Option<ThpSetting>,
}

/// One settings file read alone (`cat /sys/kernel/mm/transparent_hugepage/enabled`, sosreport's
/// copy of it): the choices with the one in force. Which setting it is, its path says (see
/// [`which`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThpChoice {
    /// The choice in force (the bracketed word).
    pub selected: String,
    /// Every choice offered, in the kernel's order, without brackets.
    pub choices: Vec<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parses one settings file's line, `always [madvise] never`.
///
/// Errors: [`ParseError::Unusable`] unless the first non-blank line is lowercase choices with
/// exactly one in brackets.
pub fn parse_bare(text: &str) -> Result<Parsed<ThpChoice>, ParseError> {
    let Some((n, l)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty()) else {
        return Err(ParseError::unusable(None, "empty"));
    };
    let (selected, choices) = choices(l).ok_or_else(|| {
        ParseError::unusable(
            Some(n),
            format!("not a choice list with one bracketed: `{}`", excerpt(l)),
        )
    })?;
    Ok(Parsed {
        value: ThpChoice {
            selected,
            choices,
            line: n,
        },
        issues: Vec::new(),
    })
}

/// `enabled` or `defrag`, from the path's last two components
/// (`…/transparent_hugepage/enabled`, RHEL 6's `…/redhat_transparent_hugepage/defrag`).
pub fn which(path: &str) -> Option<&'static str> {
    let mut parts = path.rsplit('/');
    let file = parts.next()?;
    let dir = parts.next()?;
    if dir != "transparent_hugepage" && dir != "redhat_transparent_hugepage" {
        return None;
    }
    match file {
        "enabled" => Some("enabled"),
        "defrag" => Some("defrag"),
        _ => None,
    }
}

/// `always [madvise] never` → the bracketed choice and all choices; `None` unless exactly one
/// choice is bracketed.
fn choices(value: &str) -> Option<(String, Vec<String>)> {
    let mut selected = None;
    let mut all = Vec::new();
    for w in value.split_ascii_whitespace() {
        if let Some(inner) = w.strip_prefix('[').and_then(|w| w.strip_suffix(']')) {
            if selected.is_some() || inner.is_empty() {
                return None;
            }
            selected = Some(inner.to_string());
            all.push(inner.to_string());
        } else if w.bytes().all(|b| b.is_ascii_lowercase() || b == b'+') {
            all.push(w.to_string());
        } else {
            return None;
        }
    }
    Some((selected?, all))
}

/// One `PATH:VALUE` line: which setting, and its value.
fn setting(line: &str, n: usize) -> Option<(&'static str, ThpSetting)> {
    let (path, value) = line.split_once(':')?;
    let name = which(path.trim())?;
    let (selected, choices) = choices(value)?;
    Some((
        name,
        ThpSetting {
            selected,
            choices,
            path: path.trim().to_string(),
            line: n,
        },
    ))
}

/// Is this `grep -H` over the THP settings?
///
/// `Yes` when every complete non-blank line of the head is `…/transparent_hugepage/enabled:` or
/// `…/defrag:` followed by choices with exactly one in brackets, and there is at least one; `No`
/// otherwise (a bare `always [madvise] never` does not say which file it is).
pub fn sniff(head: &str) -> Sniff {
    let mut seen = false;
    for (l, complete) in head_lines(head) {
        if l.trim().is_empty() {
            continue;
        }
        if setting(l, 0).is_some() {
            seen = true;
        } else if complete {
            return Sniff::No;
        }
    }
    if seen {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the THP settings.
///
/// Errors: [`ParseError::Unusable`] when neither setting is found. Other lines are issues.
pub fn parse(text: &str) -> Result<Parsed<Thp>, ParseError> {
    let mut out = Thp::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match setting(line, n) {
            Some(("enabled", s)) => out.enabled = Some(s),
            Some((_, s)) => out.defrag = Some(s),
            None => issues.push(n, || {
                format!(
                    "expected `…/transparent_hugepage/enabled:` or `…/defrag:` with one \
                     bracketed choice, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if out.enabled.is_none() && out.defrag.is_none() {
        return Err(ParseError::unusable(
            None,
            "no `transparent_hugepage/enabled` or `defrag` line found".to_string(),
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
    fn reads_the_captured_settings() {
        let t = include_str!("../../tests/fixtures/thp/collector-debian12-madvise.txt");
        assert_eq!(sniff(t), Sniff::Yes);
        let p = parse(t).unwrap();
        assert!(p.issues.is_empty());
        let e = p.value.enabled.unwrap();
        assert_eq!((e.selected.as_str(), e.line), ("madvise", 1));
        assert_eq!(e.choices, ["always", "madvise", "never"]);
        let d = p.value.defrag.unwrap();
        assert_eq!((d.selected.as_str(), d.line), ("madvise", 2));
        assert_eq!(d.choices.len(), 5);
        assert_eq!(d.choices[2], "defer+madvise");
    }

    #[test]
    fn reads_always_and_the_rhel6_directory() {
        // The `[always]` selection as transhuge.rst shows it, under RHEL 6's directory name.
        let t = "/sys/kernel/mm/redhat_transparent_hugepage/enabled:[always] madvise never\n\
                 /sys/kernel/mm/redhat_transparent_hugepage/defrag:[always] madvise never\n";
        assert_eq!(sniff(t), Sniff::Yes);
        let p = parse(t).unwrap();
        assert_eq!(p.value.enabled.unwrap().selected, "always");
        assert_eq!(p.value.defrag.unwrap().line, 2);
    }

    #[test]
    fn refuses_bare_values_and_other_files() {
        assert_eq!(sniff("always [madvise] never\n"), Sniff::No);
        assert_eq!(
            sniff("/sys/kernel/mm/transparent_hugepage/enabled:always madvise never\n"),
            Sniff::No
        );
        assert_eq!(
            sniff("/sys/kernel/mm/transparent_hugepage/khugepaged/defrag:1\n"),
            Sniff::No
        );
        assert!(parse("hello\n").is_err());
    }
}
