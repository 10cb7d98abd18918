//! The leak scan (`rca redact --verify`, `--verify-only`): a redacted bundle is searched for
//! every original value in the pseudonym map, in every form it may be written ([`leak_forms`]:
//! an IPv6 address expanded or with leading zeros, an IPv4 address mapped into IPv6, either in
//! the hexadecimal of /proc/net), and for secret values.
//!
//! In: the redacted bundle (read like any bundle, compressed members decompressed) and the map
//! (optional: without one, only secrets are sought). Out: every [`Leak`], with the entry path
//! and 1-based line. Originals are found with one Aho-Corasick pass per entry, at the token
//! boundaries replacement uses ([`super::Class::bounded`]); secrets by the masking rules
//! themselves ([`super::secrets::find`]): text holds a secret when masking would change it.

use super::scan::Replacer;
use super::{binary, procnet, secrets, Class, Map};
use crate::bundle::{self, EntryContent, Limits, RawEntry};
use serde::Serialize;
use std::net::{Ipv4Addr, Ipv6Addr};
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

/// Every text the originals of `map` may be written as, with its class: each original as the map
/// keeps it; for each IPv6 address its other colon forms ([`v6_text_forms`]) and /proc/net hex
/// forms ([`procnet::v6_hex_forms`]); for each IPv4 address its /proc/net hex forms
/// ([`procnet::v4_hex_forms`]) and its IPv4-mapped IPv6 forms (`::ffff:10.1.2.3`,
/// `::ffff:a01:203`, expanded). Upper-case forms are not listed: the scan ignores ASCII case.
/// Originals shorter than two characters are left out. Sorted, without duplicates.
pub fn leak_forms(map: &Map) -> Vec<(String, Class)> {
    let mut v: Vec<(String, Class)> = map
        .originals()
        .into_iter()
        .filter(|(o, _)| o.len() >= 2)
        .collect();
    for k in map.ipv6.keys() {
        if let Ok(a) = k.parse::<Ipv6Addr>() {
            v.extend(v6_text_forms(a).into_iter().map(|f| (f, Class::Ipv6)));
            v.extend(
                procnet::v6_hex_forms(a)
                    .into_iter()
                    .map(|f| (f, Class::Ipv6)),
            );
        }
    }
    for k in map.ipv4.keys() {
        if let Ok(a) = k.parse::<Ipv4Addr>() {
            v.extend(
                procnet::v4_hex_forms(a)
                    .into_iter()
                    .map(|f| (f, Class::Ipv4)),
            );
            let m = a.to_ipv6_mapped();
            v.extend(v6_text_forms(m).into_iter().map(|f| (f, Class::Ipv4)));
            v.push((format!("::ffff:{a}"), Class::Ipv4));
            v.push((format!("0:0:0:0:0:ffff:{a}"), Class::Ipv4));
            v.push((format!("0000:0000:0000:0000:0000:ffff:{a}"), Class::Ipv4));
        }
    }
    v.sort();
    v.dedup_by(|a, b| a.0.eq_ignore_ascii_case(&b.0));
    v
}

/// The colon forms of an IPv6 address, lower-case: its groups with and without leading zeros,
/// each written in full and with each run of zero groups compressed to `::` (the canonical RFC
/// 5952 form among them).
pub fn v6_text_forms(a: Ipv6Addr) -> Vec<String> {
    let s = a.segments();
    let mut v = vec![a.to_string()];
    for padded in [false, true] {
        let g: Vec<String> = s
            .iter()
            .map(|x| {
                if padded {
                    format!("{x:04x}")
                } else {
                    format!("{x:x}")
                }
            })
            .collect();
        v.push(g.join(":"));
        let mut i = 0;
        while i < 8 {
            if s[i] != 0 {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < 8 && s[j] == 0 {
                j += 1;
            }
            v.push(format!("{}::{}", g[..i].join(":"), g[j..].join(":")));
            i = j;
        }
    }
    v.sort();
    v.dedup();
    v
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
        let pats = leak_forms(m)
            .into_iter()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_an_address() {
        let f = v6_text_forms("2a01:4f8:0:7::10".parse().unwrap());
        for x in [
            "2a01:4f8:0:7::10",
            "2a01:4f8::7:0:0:0:10",
            "2a01:4f8:0:7:0:0:0:10",
            "2a01:04f8:0000:0007:0000:0000:0000:0010",
            "2a01:04f8:0000:0007::0010",
            "2a01:04f8::0007:0000:0000:0000:0010",
        ] {
            assert!(f.contains(&x.to_string()), "{x} not in {f:?}");
        }
        let mut m = Map::default();
        m.ipv4("10.0.0.121".parse().unwrap());
        m.ipv6("2a01:4f8:0:7::10".parse().unwrap());
        let forms = leak_forms(&m);
        let has = |x: &str, c: Class| {
            forms
                .iter()
                .any(|(f, k)| f.eq_ignore_ascii_case(x) && *k == c)
        };
        assert!(has("10.0.0.121", Class::Ipv4));
        assert!(has("7900000a", Class::Ipv4));
        assert!(has("::ffff:10.0.0.121", Class::Ipv4));
        assert!(has("::ffff:a00:79", Class::Ipv4));
        assert!(has("0000000000000000FFFF00007900000A", Class::Ipv4));
        assert!(has("2a0104f8000000070000000000000010", Class::Ipv6));
        assert!(has("F804012A070000000000000010000000", Class::Ipv6));
        // Matched at the boundaries the scan uses: a hex form followed by its port.
        let r = Replacer::from_patterns(
            forms
                .into_iter()
                .map(|(o, c)| (o, (c, String::new())))
                .collect(),
        );
        let t = b"   1: 2A0104F8000000070000000000000010:0050 and 2A01:4F8:0:7:0:0:0:10 and 7900000A:2009";
        let found: Vec<&[u8]> = r.matches(t).map(|(s, e, _)| &t[s..e]).collect();
        assert_eq!(found.len(), 3, "{:?}", found);
    }
}
