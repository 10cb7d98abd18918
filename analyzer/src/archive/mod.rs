//! The case archive: analyzed bundles kept in a SQLite database, to search across them, find the
//! past bundles most like a new one, and follow one host over time.
//!
//! In: bundles (any form `rca analyze` reads) and an archive file (`--db`, default
//! [`default_db`]). Out: rows in the archive, and for the questions asked of it: matching
//! bundles ([`query::search`]), the closest past bundles with their notes
//! ([`similar::similar`]), one host's findings on a time axis ([`history::history`]).
//!
//! The modules, in the order data flows: [`schema`] (tables, versions, migrations) →
//! [`index`] (bundles analyzed as `rca analyze` does and stored whole or not at all, in batched commits,
//! idempotent by content hash), through [`rows`] (one bundle's rows, the same for every sink),
//! into SQLite or, past one machine, a Parquet dataset partitioned by month ([`parquet`]) or
//! JSON lines for a Spark job ([`jsonl`]) → [`query`] (the search language), [`similar`] (weighted Jaccard
//! over findings plus a robust distance over features), [`history`] (one host over time). Notes
//! ([`add_note`]) attach what fixed a case to its bundle's hash. The schema, the query language
//! and the similarity measure are described in `docs/archive.md`.

pub mod history;
pub mod index;
pub mod jsonl;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod query;
pub mod rows;
pub mod schema;
pub mod similar;

use rusqlite::{Connection, OptionalExtension};
use std::path::PathBuf;

/// A finding's identity for comparison: rule id and entity.
pub type Key = (String, String);

/// Weight of a severity (0 info, 1 warning, 2 critical) in the findings similarity: 1, 2, 4 (each
/// level counts twice the one below).
pub fn severity_weight(severity: u8) -> f64 {
    match severity {
        0 => 1.0,
        1 => 2.0,
        _ => 4.0,
    }
}

/// The name of a stored severity.
pub fn severity_label(severity: u8) -> &'static str {
    match severity {
        0 => "info",
        1 => "warning",
        _ => "critical",
    }
}

/// The archive used when `--db` is not given: `$RCA_DB`, else `$XDG_DATA_HOME/rca/cases.db`,
/// else `$HOME/.local/share/rca/cases.db`, else `cases.db` in the current directory.
pub fn default_db() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(p) = var("RCA_DB") {
        return p;
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return d.join("rca").join("cases.db");
    }
    if let Some(h) = var("HOME") {
        return h.join(".local/share/rca/cases.db");
    }
    PathBuf::from("cases.db")
}

/// The full hash of the stored bundle whose hash starts with `prefix` (at least 6 hex
/// characters). Errors: too short, not found, or more than one bundle starts with it.
pub fn resolve(conn: &Connection, prefix: &str) -> Result<String, String> {
    let p = prefix.to_ascii_lowercase();
    if p.len() < 6 || !p.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "`{prefix}` is not a bundle hash: give at least 6 hexadecimal characters of the \
             hash `rca search` shows"
        ));
    }
    let mut st = conn
        .prepare("SELECT hash FROM bundles WHERE hash >= ?1 AND hash < ?1 || 'g' LIMIT 2")
        .map_err(|e| e.to_string())?;
    let found: Vec<String> = st
        .query_map([&p], |r| r.get(0))
        .map_err(|e| e.to_string())?
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(format!(
            "no bundle in the archive has a hash starting with {p}"
        )),
        _ => Err(format!(
            "more than one bundle has a hash starting with {p}: give more characters"
        )),
    }
}

/// Attaches a note (what fixed it, the ticket) to the bundle with `hash`. Errors: the archive
/// cannot be written.
pub fn add_note(conn: &Connection, hash: &str, text: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO notes (hash, text, created_at) VALUES (?1, ?2, unixepoch())",
        [hash, text],
    )?;
    Ok(())
}

/// The notes of the bundle with `hash`, oldest first.
pub fn notes(conn: &Connection, hash: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare_cached("SELECT text FROM notes WHERE hash = ?1 ORDER BY id")?;
    let v = st
        .query_map([hash], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(v)
}

/// The stored status of `hash`: `Some("ok")`, `Some("failed")`, or `None`.
pub fn status(conn: &Connection, hash: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT status FROM bundles WHERE hash = ?1", [hash], |r| {
        r.get(0)
    })
    .optional()
}
