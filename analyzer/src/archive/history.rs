//! `rca history`: one host's findings across its archived bundles, on a time axis.
//!
//! In: the archive and a host name (matched without regard to case). Out: [`History`]: the
//! host's bundles in collection order and, for each rule seen, its worst severity in each
//! bundle; rendered as a terminal table ([`terminal`]) or a self-contained HTML page ([`html`],
//! `templates/history.html`, built from the report's components).

use super::severity_label;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::BTreeMap;

/// One bundle of the host.
#[derive(Debug, Clone, Serialize)]
pub struct Visit {
    /// Content hash.
    pub hash: String,
    /// Collection start, UTC (`2026-01-05 10:00:00`), when the bundle says.
    pub collected: Option<String>,
    /// Path when indexed.
    pub path: String,
    /// Kernel release.
    pub kernel: Option<String>,
    /// Findings in rank order: `{rule, severity, title, from, to}`.
    pub findings: Vec<Seen>,
    /// Notes attached with `rca note`.
    pub notes: Vec<String>,
}

/// One finding of one bundle.
#[derive(Debug, Clone, Serialize)]
pub struct Seen {
    /// Rule id.
    pub rule: String,
    /// `info`, `warning`, `critical`.
    pub severity: &'static str,
    /// Title.
    pub title: String,
    /// First sample of the condition, as the artifact printed it.
    pub from: Option<String>,
    /// Last sample.
    pub to: Option<String>,
}

/// A host's history.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    /// The host as asked.
    pub host: String,
    /// Its bundles, oldest collection first (bundles without a collection time last).
    pub visits: Vec<Visit>,
    /// Each rule seen, with its worst severity per visit (`None`: not found in that bundle),
    /// rules ordered by first appearance.
    pub rules: Vec<(String, Vec<Option<&'static str>>)>,
}

/// A stored bundle of the host: id, content hash, collection start, path, kernel.
type BundleRow = (i64, String, Option<String>, String, Option<String>);

/// The history of `host`. Errors: the archive cannot be read.
pub fn history(conn: &Connection, host: &str) -> rusqlite::Result<History> {
    let mut st = conn.prepare(
        "SELECT id, hash, datetime(window_start, 'unixepoch'), path, kernel FROM bundles
         WHERE status = 'ok' AND lower(host) = lower(?1)
         ORDER BY window_start IS NULL, window_start, indexed_at, id",
    )?;
    let rows: Vec<BundleRow> = st
        .query_map([host], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut fst = conn.prepare(
        "SELECT rule, severity, title, time_from, time_to FROM findings WHERE bundle_id = ?1
         ORDER BY rank",
    )?;
    let mut visits = Vec::new();
    for (id, hash, collected, path, kernel) in rows {
        let findings = fst
            .query_map([id], |r| {
                Ok(Seen {
                    rule: r.get(0)?,
                    severity: severity_label(r.get(1)?),
                    title: r.get(2)?,
                    from: r.get(3)?,
                    to: r.get(4)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        visits.push(Visit {
            notes: super::notes(conn, &hash)?,
            hash,
            collected,
            path,
            kernel,
            findings,
        });
    }
    let rank = |s: &str| match s {
        "critical" => 2,
        "warning" => 1,
        _ => 0,
    };
    let mut order: Vec<String> = Vec::new();
    let mut grid: BTreeMap<String, Vec<Option<&'static str>>> = BTreeMap::new();
    for (i, v) in visits.iter().enumerate() {
        for f in &v.findings {
            let row = grid.entry(f.rule.clone()).or_insert_with(|| {
                order.push(f.rule.clone());
                vec![None; visits.len()]
            });
            if row[i].is_none_or(|s| rank(s) < rank(f.severity)) {
                row[i] = Some(f.severity);
            }
        }
    }
    let rules = order
        .into_iter()
        .map(|r| {
            let row = grid.remove(&r).unwrap_or_default();
            (r, row)
        })
        .collect();
    Ok(History {
        host: host.to_string(),
        visits,
        rules,
    })
}

/// The terminal table: the bundles numbered in time order, then one line per rule with its
/// severity in each bundle (`C` critical, `W` warning, `i` info, `·` not found).
pub fn terminal(h: &History) -> String {
    use crate::console::clean;
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "history of {}: {} bundle(s)",
        clean(&h.host),
        h.visits.len()
    );
    for (i, v) in h.visits.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:>3}  {:<19}  {}  {}{}",
            i + 1,
            v.collected.as_deref().unwrap_or("(no time)"),
            v.hash.get(..12).unwrap_or(&v.hash),
            clean(&v.path),
            if v.notes.is_empty() {
                String::new()
            } else {
                format!("  note: {}", clean(&v.notes.join(" | ")))
            }
        );
    }
    if h.rules.is_empty() {
        let _ = writeln!(s, "no finding in any bundle");
        return s;
    }
    let width = h.rules.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let _ = write!(s, "\n  {:<width$}  ", "rule");
    for i in 0..h.visits.len() {
        let _ = write!(s, "{:>3}", i + 1);
    }
    s.push('\n');
    for (rule, row) in &h.rules {
        let _ = write!(s, "  {:<width$}  ", clean(rule));
        for c in row {
            let m = match c {
                Some("critical") => "C",
                Some("warning") => "W",
                Some(_) => "i",
                None => "·",
            };
            let _ = write!(s, "{m:>3}");
        }
        s.push('\n');
    }
    s
}

/// The history page: self-contained, every bundle text escaped. Errors: a template error (a
/// defect in rca).
pub fn html(h: &History) -> Result<String, minijinja::Error> {
    let env = crate::report::html::environment();
    env.get_template("history.html")?
        .render(minijinja::context! {
            h => h,
            version => env!("CARGO_PKG_VERSION"),
        })
}
