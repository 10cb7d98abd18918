//! `wchs`: how many watches a ZooKeeper server holds (3.4 to 3.9).
//!
//! Sample input (ZooKeeper 3.8.0 `echo wchs | nc 127.0.0.1 2181`):
//! ```text
//! 2 connections watching 5 paths
//! Total watches:7
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// The answer to `wchs`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Wchs {
    /// Connections with at least one watch.
    pub connections: Option<u64>,
    /// Distinct watched paths.
    pub paths: Option<u64>,
    /// 1-based line of `N connections watching M paths`.
    pub summary_line: Option<usize>,
    /// `Total watches:K`.
    pub total_watches: Option<u64>,
    /// 1-based line of `Total watches:`.
    pub total_line: Option<usize>,
}

/// `(connections, paths)` of `N connections watching M paths`.
fn wchs_summary(line: &str) -> Option<(u64, u64)> {
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.as_slice() {
        [c, "connections", "watching", p, "paths"] => Some((c.parse().ok()?, p.parse().ok()?)),
        _ => None,
    }
}

/// `wchs` output?
///
/// `Yes` on `N connections watching M paths` or `Total watches:K`; `No` otherwise.
pub fn sniff_wchs(head: &str) -> Sniff {
    for (l, _) in head_lines(head) {
        if wchs_summary(l).is_some() || l.trim_start().starts_with("Total watches:") {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses the answer to `wchs`.
///
/// Errors: [`ParseError::Unusable`] when neither line is found.
pub fn parse_wchs(text: &str) -> Result<Parsed<Wchs>, ParseError> {
    let mut out = Wchs::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((c, p)) = wchs_summary(t) {
            out.connections = Some(c);
            out.paths = Some(p);
            out.summary_line = Some(n);
        } else if let Some(v) = t.strip_prefix("Total watches:") {
            match v.trim().parse() {
                Ok(v) => {
                    out.total_watches = Some(v);
                    out.total_line = Some(n);
                }
                Err(_) => issues.push(n, || {
                    format!(
                        "expected a whole number after `Total watches:`, found `{}`",
                        excerpt(v)
                    )
                }),
            }
        } else {
            issues.push(n, || {
                format!(
                    "expected `N connections watching M paths` or `Total watches:K`, found `{}`",
                    excerpt(line)
                )
            });
        }
    }
    if out.summary_line.is_none() && out.total_line.is_none() {
        return Err(ParseError::unusable(
            None,
            "no `N connections watching M paths` or `Total watches:` line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
