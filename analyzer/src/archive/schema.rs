//! The archive's SQLite schema and its migrations.
//!
//! In: a database file (new, or written by any earlier rca). Out: a connection on the current
//! schema ([`CURRENT`]), in WAL mode with foreign keys on. The schema version is SQLite's
//! `PRAGMA user_version`; each migration is one SQL script run in one transaction together with
//! the version bump, so a database is always at exactly one version. A database written by a
//! newer rca is refused, never altered. The tables are described in `docs/archive.md`.

use rusqlite::Connection;
use std::path::Path;

/// The schema version this rca writes.
pub const CURRENT: u32 = 4;

/// Migration `i` takes a database from version `i` to `i + 1`.
///
/// Version 1: bundles (identity, status, error), findings, features. Version 2: per-bundle
/// finding weight (for `similar`), JDKs, index labels, artifact outcome counts, notes, and the
/// cached spread of each numeric feature. Version 3: an index on the host name without regard to
/// ASCII case (`lower(host)`, SQLite's `lower`), which `host:` searches and `history` use.
/// Version 4: each artifact's outcome (`artifacts`, a rowid table so that its indexes hold a
/// row id instead of the path: a third of the size of keying them on `(bundle_id, path)`;
/// [`super::rows::Rows`] holds each path of a bundle once), and where a label comes from
/// (`labels.source`: `index` for `rca index --label`, `collector` for the collector's `--label`;
/// the labels already stored are the index's).
pub const MIGRATIONS: &[&str] = &[
    // 0 → 1
    "CREATE TABLE bundles (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        path TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        error TEXT,
        format TEXT,
        layout TEXT,
        host TEXT,
        os TEXT,
        kernel TEXT,
        cpus INTEGER,
        window_start REAL,
        window_end REAL,
        rca_version TEXT NOT NULL,
        indexed_at INTEGER NOT NULL
    );
    CREATE INDEX bundles_host ON bundles (host, window_start);
    CREATE INDEX bundles_start ON bundles (window_start);
    CREATE TABLE findings (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        rank INTEGER NOT NULL,
        rule TEXT NOT NULL,
        severity INTEGER NOT NULL,
        confidence INTEGER NOT NULL,
        entity TEXT NOT NULL,
        title TEXT NOT NULL,
        time_from TEXT,
        time_to TEXT,
        evidence TEXT NOT NULL,
        PRIMARY KEY (bundle_id, rank)
    ) WITHOUT ROWID;
    CREATE INDEX findings_rule ON findings (rule, severity, bundle_id);
    CREATE TABLE features (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        num REAL,
        text TEXT,
        PRIMARY KEY (bundle_id, name)
    ) WITHOUT ROWID;
    CREATE INDEX features_name ON features (name, num, bundle_id);",
    // 1 → 2
    "ALTER TABLE bundles ADD COLUMN finding_weight REAL NOT NULL DEFAULT 0;
    ALTER TABLE bundles ADD COLUMN jdks TEXT NOT NULL DEFAULT '[]';
    UPDATE bundles SET finding_weight = (
        SELECT COALESCE(SUM(w), 0) FROM (
            SELECT MAX(CASE severity WHEN 2 THEN 4.0 WHEN 1 THEN 2.0 ELSE 1.0 END) AS w
            FROM findings WHERE findings.bundle_id = bundles.id GROUP BY rule, entity));
    CREATE INDEX findings_key ON findings (rule, entity, bundle_id, severity);
    CREATE TABLE labels (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        PRIMARY KEY (bundle_id, label)
    ) WITHOUT ROWID;
    CREATE INDEX labels_label ON labels (label);
    CREATE TABLE outcomes (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        outcome TEXT NOT NULL,
        artifacts INTEGER NOT NULL,
        PRIMARY KEY (bundle_id, outcome)
    ) WITHOUT ROWID;
    CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL REFERENCES bundles (hash) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX notes_hash ON notes (hash);
    CREATE TABLE feature_spread (
        name TEXT PRIMARY KEY,
        median REAL NOT NULL,
        mad REAL NOT NULL,
        mean_ad REAL NOT NULL,
        bundles INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;",
    // 2 → 3
    "CREATE INDEX bundles_host_lc ON bundles (lower(host), window_start);",
    // 3 → 4
    "CREATE TABLE artifacts (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT,
        outcome TEXT NOT NULL,
        issues INTEGER NOT NULL,
        bytes INTEGER,
        reason TEXT
    );
    CREATE INDEX artifacts_bundle ON artifacts (bundle_id);
    CREATE INDEX artifacts_outcome ON artifacts (outcome, bundle_id);
    CREATE INDEX artifacts_kind ON artifacts (kind, outcome, bundle_id);
    CREATE TABLE labels_v4 (
        bundle_id INTEGER NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('index', 'collector')),
        PRIMARY KEY (bundle_id, source, label)
    ) WITHOUT ROWID;
    INSERT INTO labels_v4 (bundle_id, label, source) SELECT bundle_id, label, 'index' FROM labels;
    DROP TABLE labels;
    ALTER TABLE labels_v4 RENAME TO labels;
    CREATE INDEX labels_label ON labels (label);",
];

/// Opens (creating it if need be) the archive at `path` and brings it to [`CURRENT`].
///
/// Errors: the file cannot be opened or is not SQLite, a migration fails (the database is left
/// at the last version reached), or the database was written by a newer rca.
pub fn open(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    setup(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    migrate(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(conn)
}

/// WAL (readers never wait for the indexer), foreign keys, and a wait for a busy writer.
fn setup(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// The database's schema version (`PRAGMA user_version`).
pub fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// Runs the migrations from the database's version to [`CURRENT`], each in its own
/// transaction with its version bump.
pub fn migrate(conn: &Connection) -> Result<(), String> {
    let from = version(conn).map_err(|e| e.to_string())?;
    if from > CURRENT {
        return Err(format!(
            "the archive has schema version {from}, written by a newer rca; this rca reads up \
             to version {CURRENT}: upgrade rca, or index into a new database"
        ));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(from as usize) {
        let to = i + 1;
        let run = || -> rusqlite::Result<()> {
            conn.execute_batch("BEGIN IMMEDIATE")?;
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", to as i64)?;
            conn.execute_batch("COMMIT")
        };
        if let Err(e) = run() {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(format!("migrating the archive to schema version {to}: {e}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_database_reaches_the_current_version_and_reopening_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("cases.db");
        let c = open(&p).unwrap();
        assert_eq!(version(&c).unwrap(), CURRENT);
        drop(c);
        let c = open(&p).unwrap();
        assert_eq!(version(&c).unwrap(), CURRENT);
        let mode: String = c
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn a_newer_schema_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("cases.db");
        let c = Connection::open(&p).unwrap();
        c.pragma_update(None, "user_version", CURRENT + 1).unwrap();
        drop(c);
        let e = open(&p).unwrap_err();
        assert!(e.contains("newer rca"), "{e}");
    }
}
