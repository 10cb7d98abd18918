//! The leak scan (`rca redact --verify`, `--verify-only`): a redacted bundle is searched for
//! every original value in the pseudonym map and for secret values.
//!
//! In: the redacted bundle (read like any bundle, compressed members decompressed) and the map
//! (optional: without one, only secrets are sought). Out: every [`Leak`], with the entry path
//! and 1-based line. Originals are found with one Aho-Corasick pass per entry, at the token
//! boundaries replacement uses ([`super::Class::bounded`]); secrets by the masking rules
//! themselves ([`super::secrets::find`]): text holds a secret when masking would change it.

use super::scan::Replacer;
use super::{binary, secrets, Map};
use crate::bundle::{self, EntryContent, Limits, RawEntry};
use serde::Serialize;
use std::path::Path;

/// One leak found.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Leak {
    /// Entry path in the bundle.
    pub path: String,
    /// 1-based line (0: the entry's path itself).
    pub line: usize,
    /// What leaked: a class of original (`host-names` …) or `secret:<kind>`.
    pub what: String,
    /// The original value found (empty for secrets, which are never shown).
    pub value: String,
}

/// What the scan went through.
#[derive(Debug, Default, Serialize)]
pub struct Scanned {
    /// Entries scanned.
    pub entries: usize,
    /// Bytes scanned.
    pub bytes: u64,
    /// Entries not scanned (binary, unreadable), which a clean bundle does not hold.
    pub unscanned: Vec<String>,
    /// Leaks, in bundle order.
    pub leaks: Vec<Leak>,
}

/// Scans the bundle at `path` for the originals of `map` and for secrets.
///
/// Errors: the bundle cannot be read at all.
pub fn verify(
    path: &Path,
    map: Option<&Map>,
    limits: &Limits,
) -> Result<Scanned, bundle::BundleError> {
    let originals = map.map(|m| {
        let pats = m
            .originals()
            .into_iter()
            .filter(|(o, _)| o.len() >= 2)
            .map(|(o, c)| (o, (c, String::new())))
            .collect();
        Replacer::from_patterns(pats)
    });
    let mut out = Scanned::default();
    let summary = bundle::read(path, limits, &|_| None, |e: RawEntry| {
        // The redaction's own summary: counts and sentences written by rca, no bundle text.
        if super::is_summary(&e.path) {
            return;
        }
        if let Some(r) = &originals {
            for (s, e2, i) in r.matches(e.path.as_bytes()) {
                out.leaks.push(Leak {
                    path: e.path.clone(),
                    line: 0,
                    what: r.class(i).label().into(),
                    value: e.path.get(s..e2).unwrap_or("").to_string(),
                });
            }
        }
        let b = match &e.content {
            EntryContent::Bytes(b) => b,
            EntryContent::Link { .. } => return,
            _ => {
                out.unscanned.push(e.path.clone());
                return;
            }
        };
        out.entries += 1;
        out.bytes += b.len() as u64;
        if binary(b) {
            out.unscanned.push(e.path.clone());
            return;
        }
        let mut hits: Vec<(usize, String, String)> = Vec::new();
        if let Some(r) = &originals {
            for (s, e2, i) in r.matches(b) {
                hits.push((
                    s,
                    r.class(i).label().into(),
                    String::from_utf8_lossy(&b[s..e2]).into_owned(),
                ));
            }
        }
        for (s, _, kind) in secrets::find(b) {
            hits.push((s, format!("secret:{kind}"), String::new()));
        }
        hits.sort_by_key(|h| h.0);
        let (mut line, mut at) = (1, 0);
        for (s, what, value) in hits {
            line += memchr::memchr_iter(b'\n', &b[at..s]).count();
            at = s;
            out.leaks.push(Leak {
                path: e.path.clone(),
                line,
                what,
                value,
            });
        }
    })?;
    for r in summary.refused {
        out.unscanned.push(r.path);
    }
    Ok(out)
}
