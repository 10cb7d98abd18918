//! `rca similar`: the archived bundles closest to one bundle.
//!
//! In: a [`Probe`] (a stored bundle's findings and numeric features, or those of a bundle just
//! analyzed) and the archive. Out: [`Similar`] bundles, closest first, each with why and its
//! notes.
//!
//! The measure (also in `docs/archive.md`):
//! - findings: weighted Jaccard over the set of (rule id, entity) keys, each key weighted by
//!   its severity ([`super::severity_weight`]: info 1, warning 2, critical 4):
//!   `J = Σ min(wA, wB) / Σ max(wA, wB)`, 1 when both bundles have no finding;
//! - features: for each numeric feature both bundles have, the distance of their modified
//!   z-scores over the archive (`|z(a) − z(b)|`, median and MAD as `rca fleet` computes them,
//!   [`crate::fleet::robust::Spread`]), capped at [`DISTANCE_CAP`]; `F = 1 − mean / cap`, 0 when
//!   no feature is shared;
//! - `score = 0.7 J + 0.3 F` ([`FINDINGS_SHARE`]).
//!
//! The [`CANDIDATES`] bundles with the highest `J` are scored in full; the spread of each
//! feature is cached in the archive (`feature_spread`) and computed again when the number of
//! bundles changed.

use super::{severity_label, severity_weight, Key};
use crate::fleet::robust::Spread;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Share of the findings' similarity in the score (the features' is the rest).
pub const FINDINGS_SHARE: f64 = 0.7;

/// Largest per-feature distance counted, in modified z-score units: beyond it two values are
/// simply far apart (3.5 is `rca fleet`'s outlier threshold).
pub const DISTANCE_CAP: f64 = 3.5;

/// Bundles scored in full: those with the highest findings similarity.
pub const CANDIDATES: usize = 500;

/// A candidate scored in full: bundle id, score, weighted Jaccard, feature closeness, and each
/// compared feature's capped distance with its "name: ours vs theirs" text.
type Scored = (i64, f64, f64, f64, Vec<(f64, String)>);

/// What a bundle is compared by.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// Its content hash (excluded from the results).
    pub hash: Option<String>,
    /// Weight of each (rule, entity) key: the severity weight of its worst finding.
    pub findings: BTreeMap<Key, f64>,
    /// Numeric features.
    pub numeric: BTreeMap<String, f64>,
}

impl Probe {
    /// A probe from an analysis that was not stored.
    pub fn from_analyzed(hash: Option<String>, a: &super::index::Analyzed) -> Probe {
        let mut p = Probe {
            hash,
            ..Probe::default()
        };
        for f in &a.findings {
            let w = p
                .findings
                .entry((f.rule.clone(), f.entity.clone()))
                .or_default();
            *w = w.max(severity_weight(f.severity));
        }
        for (name, num, _) in &a.features {
            if let Some(n) = num {
                p.numeric.insert(name.clone(), *n);
            }
        }
        p
    }

    /// The probe of a stored bundle; `None` when `hash` is not stored with status `ok`.
    pub fn stored(conn: &Connection, hash: &str) -> rusqlite::Result<Option<Probe>> {
        let id: Option<i64> = conn
            .query_row(
                "SELECT id FROM bundles WHERE hash = ?1 AND status = 'ok'",
                [hash],
                |r| r.get(0),
            )
            .optional()?;
        let Some(id) = id else { return Ok(None) };
        let mut p = Probe {
            hash: Some(hash.to_string()),
            ..Probe::default()
        };
        let mut st = conn.prepare(
            "SELECT rule, entity, MAX(severity) FROM findings WHERE bundle_id = ?1
             GROUP BY rule, entity",
        )?;
        for r in st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, u8>(2)?)))? {
            let (rule, entity, s) = r?;
            p.findings.insert((rule, entity), severity_weight(s));
        }
        let mut st = conn
            .prepare("SELECT name, num FROM features WHERE bundle_id = ?1 AND num IS NOT NULL")?;
        for r in st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))? {
            let (n, v) = r?;
            p.numeric.insert(n, v);
        }
        Ok(Some(p))
    }
}

/// One similar bundle.
#[derive(Debug, Clone, Serialize)]
pub struct Similar {
    /// Content hash.
    pub hash: String,
    /// Host name.
    pub host: Option<String>,
    /// Collection start, UTC.
    pub collected: Option<String>,
    /// Path when indexed.
    pub path: String,
    /// `0.7 J + 0.3 F`, 0 to 1.
    pub score: f64,
    /// Weighted Jaccard over findings.
    pub findings_similarity: f64,
    /// Feature similarity `F`.
    pub features_similarity: f64,
    /// Shared findings, heaviest first: `rule @ entity (severity)`.
    pub shared: Vec<String>,
    /// The probe's findings this bundle does not have.
    pub missing: Vec<String>,
    /// The closest shared features: `name: probe value vs this value`.
    pub closest: Vec<String>,
    /// Notes attached with `rca note`, oldest first.
    pub notes: Vec<String>,
}

fn label_of(w: f64) -> &'static str {
    match w as u8 {
        4 => severity_label(2),
        2 => severity_label(1),
        _ => severity_label(0),
    }
}

fn key_text((rule, entity): &Key, w: f64) -> String {
    if entity.is_empty() {
        format!("{rule} ({})", label_of(w))
    } else {
        format!("{rule} @ {entity} ({})", label_of(w))
    }
}

/// The `k` stored bundles closest to `probe`. Errors: the archive cannot be read.
pub fn similar(conn: &Connection, probe: &Probe, k: usize) -> rusqlite::Result<Vec<Similar>> {
    let own = probe.hash.clone().unwrap_or_default();
    let mut total_w: HashMap<i64, f64> = HashMap::new();
    {
        let mut st = conn
            .prepare("SELECT id, finding_weight FROM bundles WHERE status = 'ok' AND hash != ?1")?;
        for r in st.query_map([&own], |r| Ok((r.get(0)?, r.get(1)?)))? {
            let (id, w) = r?;
            total_w.insert(id, w);
        }
    }
    let wa: f64 = probe.findings.values().sum();
    let mut inter: HashMap<i64, f64> = HashMap::new();
    let mut st = conn.prepare(
        "SELECT bundle_id, MAX(severity) FROM findings WHERE rule = ?1 AND entity = ?2
         GROUP BY bundle_id",
    )?;
    for ((rule, entity), w) in &probe.findings {
        for r in st.query_map(params![rule, entity], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, u8>(1)?))
        })? {
            let (id, s) = r?;
            *inter.entry(id).or_default() += w.min(severity_weight(s));
        }
    }
    // Every stored bundle is a candidate, those sharing no finding at Jaccard 0 (their features
    // may still be close); two bundles without findings are alike in findings.
    let mut candidates: Vec<(i64, f64)> = total_w
        .iter()
        .map(|(id, wb)| {
            let i = inter.get(id).copied().unwrap_or(0.0);
            let union = wa + wb - i;
            (*id, if union > 0.0 { i / union } else { 1.0 })
        })
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    candidates.truncate(CANDIDATES);

    let spreads = spreads(conn, probe.numeric.keys())?;
    let mut fst =
        conn.prepare("SELECT name, num FROM features WHERE bundle_id = ?1 AND num IS NOT NULL")?;
    let mut scored: Vec<Scored> = Vec::new();
    for (id, j) in candidates {
        let mut dists = Vec::new();
        for r in fst.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?)))? {
            let (name, b) = r?;
            let (Some(a), Some(s)) = (probe.numeric.get(&name), spreads.get(&name)) else {
                continue;
            };
            let d = if a == &b {
                0.0
            } else {
                let d = (s.z(*a) - s.z(b)).abs();
                if d.is_finite() && (s.mad > 0.0 || s.mean_ad > 0.0) {
                    d.min(DISTANCE_CAP)
                } else {
                    DISTANCE_CAP
                }
            };
            dists.push((d, format!("{name}: {} vs {}", num(*a), num(b))));
        }
        let f = if dists.is_empty() {
            0.0
        } else {
            1.0 - dists.iter().map(|d| d.0).sum::<f64>() / dists.len() as f64 / DISTANCE_CAP
        };
        let score = FINDINGS_SHARE * j + (1.0 - FINDINGS_SHARE) * f;
        scored.push((id, score, j, f, dists));
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    scored.truncate(k);

    let mut out = Vec::with_capacity(scored.len());
    let mut kst = conn.prepare(
        "SELECT rule, entity, MAX(severity) FROM findings WHERE bundle_id = ?1 GROUP BY rule, entity",
    )?;
    for (id, score, j, f, mut dists) in scored {
        let (hash, host, collected, path): (String, Option<String>, Option<String>, String) = conn
            .query_row(
                "SELECT hash, host, datetime(window_start, 'unixepoch'), path FROM bundles
                 WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )?;
        let mut theirs: BTreeMap<Key, f64> = BTreeMap::new();
        for r in kst.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, u8>(2)?)))? {
            let (rule, entity, s) = r?;
            theirs.insert((rule, entity), severity_weight(s));
        }
        let mut shared: Vec<(&Key, f64)> = probe
            .findings
            .iter()
            .filter_map(|(key, w)| theirs.get(key).map(|x| (key, w.min(*x))))
            .collect();
        shared.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        let missing = probe
            .findings
            .iter()
            .filter(|(key, _)| !theirs.contains_key(*key))
            .map(|(key, w)| key_text(key, *w))
            .collect();
        dists.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.push(Similar {
            notes: super::notes(conn, &hash)?,
            hash,
            host,
            collected,
            path,
            score: round3(score),
            findings_similarity: round3(j),
            features_similarity: round3(f),
            shared: shared.iter().map(|(key, w)| key_text(key, *w)).collect(),
            missing,
            closest: dists.into_iter().take(3).map(|d| d.1).collect(),
        });
    }
    Ok(out)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e12 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// The archive-wide spread of the named features, from the cache (recomputed first when the
/// number of stored bundles changed since it was computed).
fn spreads<'a>(
    conn: &Connection,
    names: impl Iterator<Item = &'a String>,
) -> rusqlite::Result<HashMap<String, Spread>> {
    refresh_spreads(conn)?;
    let mut st = conn.prepare("SELECT median, mad, mean_ad FROM feature_spread WHERE name = ?1")?;
    let mut out = HashMap::new();
    for n in names {
        if let Some(s) = st
            .query_row([n], |r| {
                Ok(Spread {
                    median: r.get(0)?,
                    mad: r.get(1)?,
                    mean_ad: r.get(2)?,
                })
            })
            .optional()?
        {
            out.insert(n.clone(), s);
        }
    }
    Ok(out)
}

/// Recomputes the cached spread of every numeric feature when the number of stored bundles
/// changed since it was last computed; `true` when it did.
pub fn refresh_spreads(conn: &Connection) -> rusqlite::Result<bool> {
    let state: String = conn.query_row(
        "SELECT count(*) || '/' || COALESCE(max(id), 0) FROM bundles WHERE status = 'ok'",
        [],
        |r| r.get(0),
    )?;
    let cached: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'spread_of'", [], |r| {
            r.get(0)
        })
        .optional()?;
    if cached.as_deref() == Some(state.as_str()) {
        return Ok(false);
    }
    let tx = conn.unchecked_transaction()?;
    tx.execute("DELETE FROM feature_spread", [])?;
    {
        let mut ins = tx.prepare(
            "INSERT INTO feature_spread (name, median, mad, mean_ad, bundles)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut st = tx.prepare(
            "SELECT f.name, f.num FROM features f JOIN bundles b ON b.id = f.bundle_id
             WHERE f.num IS NOT NULL AND b.status = 'ok' ORDER BY f.name",
        )?;
        let mut rows = st.query([])?;
        let mut name = String::new();
        let mut vals: Vec<f64> = Vec::new();
        let mut flush = |name: &str, vals: &mut Vec<f64>| -> rusqlite::Result<()> {
            if let Some(s) = Spread::of(vals) {
                ins.execute(params![name, s.median, s.mad, s.mean_ad, vals.len() as i64])?;
            }
            vals.clear();
            Ok(())
        };
        while let Some(r) = rows.next()? {
            let n: String = r.get(0)?;
            if n != name {
                flush(&name, &mut vals)?;
                name = n;
            }
            vals.push(r.get(1)?);
        }
        flush(&name, &mut vals)?;
    }
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('spread_of', ?1)",
        [&state],
    )?;
    tx.commit()?;
    Ok(true)
}
