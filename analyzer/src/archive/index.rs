//! `rca index`: bundles analyzed and stored in the archive, each whole or not at all.
//!
//! In: bundle paths (as `rca fleet` expands them), reading limits, how many bundles to analyze
//! at once. Out: rows in the archive ([`super::schema`]) and an [`Indexed`] summary.
//!
//! Each bundle is identified by its content hash ([`content_hash`]). A hash already stored with
//! status `ok` is skipped without being analyzed, so indexing the same bundles again stores
//! nothing, and a run that was stopped resumes where it was: every bundle's rows are stored
//! whole or not at all, and committed within [`FLUSH_AFTER`] of its analysis ending (bundles
//! that arrive together in one commit, [`Archive`]), so a stopped run leaves whole bundles or
//! none. A bundle that cannot be read or analyzed gets a row with status `failed` and its error;
//! the run goes on, and the next run tries it again.
//!
//! Where the rows go is a [`Sink`]: the SQLite archive ([`index`], [`store`]), a Parquet
//! dataset ([`super::parquet::Dataset`]) or JSON lines ([`super::jsonl::Lines`]); each bundle's
//! rows are made once, by [`Rows::new`], whatever the sink.
//!
//! Analysis is `rca analyze`'s ([`crate::diff::side::load_until`]), its features `rca fleet`'s
//! ([`crate::fleet::features::extract`]). At most `jobs` bundles are analyzed at once and at most
//! `jobs` analyzed bundles wait for the writer, so memory is that of about `2 × jobs` analyses
//! whatever the number of bundles.

use super::rows::{self, Rows};
use crate::bundle::Limits;
use crate::diff::side;
use crate::fleet::features;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How to index.
#[derive(Debug, Clone)]
pub struct Options {
    /// Limits for reading each bundle.
    pub limits: Limits,
    /// Bundles analyzed at once (`0`: one per CPU).
    pub jobs: usize,
    /// Longest analysis of one bundle; past it the bundle is recorded as failed.
    pub timeout: Duration,
    /// Labels attached to every bundle stored by this run (`customer=acme`, `ticket-1234`).
    pub labels: Vec<String>,
}

/// What one run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Indexed {
    /// Bundles analyzed and stored with status `ok`.
    pub stored: usize,
    /// Bundles whose content was already stored with status `ok`: not analyzed again.
    pub already: usize,
    /// Bundles recorded with status `failed`: `(path, error)`.
    pub failed: Vec<(String, String)>,
}

/// One bundle's result, as the writer receives it.
pub(crate) enum Outcome {
    /// Already stored: nothing to do.
    Known,
    /// Analyzed, or failed with its error.
    Done(Result<Box<Analyzed>, String>),
}

pub use super::rows::{Analyzed, FindingRow};

/// SHA-256 of a bundle, lower-case hex: of the file's bytes, or for a folder of its entries in
/// path order (each relative path, a NUL, then the file's bytes or `<link>` for a symbolic
/// link, which is not followed). Errors: a file or folder cannot be read.
pub fn content_hash(p: &Path) -> std::io::Result<String> {
    let mut h = Sha256::new();
    if p.is_dir() {
        let mut files = Vec::new();
        walk(p, PathBuf::new(), &mut files)?;
        files.sort();
        for (rel, link) in files {
            h.update(rel.to_string_lossy().as_bytes());
            h.update([0u8]);
            if link {
                h.update(b"<link>");
            } else {
                copy_into(&p.join(&rel), &mut h)?;
            }
        }
    } else {
        copy_into(p, &mut h)?;
    }
    Ok(format!("{:x}", h.finalize()))
}

fn copy_into(p: &Path, h: &mut Sha256) -> std::io::Result<()> {
    std::io::copy(&mut std::fs::File::open(p)?, h).map(drop)
}

/// Regular files and links under `dir`, relative paths; links are not followed.
fn walk(root: &Path, rel: PathBuf, out: &mut Vec<(PathBuf, bool)>) -> std::io::Result<()> {
    for e in std::fs::read_dir(root.join(&rel))? {
        let e = e?;
        let t = e.file_type()?;
        let r = rel.join(e.file_name());
        if t.is_dir() {
            walk(root, r, out)?;
        } else if t.is_symlink() {
            out.push((r, true));
        } else if t.is_file() {
            out.push((r, false));
        }
    }
    Ok(())
}

/// `path` inside the layout's tree: without the folder `root` the tree starts in, so a finding
/// on a tarball and on its unpacked folder has the same entity.
fn in_layout<'a>(root: &str, path: &'a str) -> &'a str {
    if root.is_empty() {
        return path;
    }
    path.strip_prefix(root)
        .and_then(|p| p.strip_prefix('/'))
        .unwrap_or(path)
}

/// Analyzes one bundle for the archive. Errors: it cannot be read, could not be analyzed, or
/// not before `deadline`.
pub fn analyze(path: &Path, limits: &Limits, deadline: Instant) -> Result<Analyzed, String> {
    let s = match side::load_until(path, limits, false, deadline) {
        Ok(Some(s)) => s,
        Ok(None) => return Err("analysis exceeded its deadline".into()),
        Err(e) => return Err(e.to_string()),
    };
    if let Some(why) = &s.summary.unanalyzable {
        return Err(format!("could not be analyzed: {why}"));
    }
    let feats = features::extract(&s.facts, s.findings());
    let mut jdks = BTreeSet::new();
    let mut rows = Vec::new();
    for (name, n) in &feats.numeric {
        rows.push((name.clone(), Some(n.value), None));
    }
    for (name, c) in &feats.categorical {
        if name.ends_with(": JDK") {
            jdks.insert(c.value.clone());
        }
        rows.push((name.clone(), None, Some(c.value.clone())));
    }
    let findings = s
        .findings()
        .iter()
        .map(|f| FindingRow {
            rule: f.rule_id.to_string(),
            severity: f.severity as u8,
            confidence: f.confidence as u8,
            entity: f
                .evidence
                .first()
                .map(|e| in_layout(&s.summary.root, &e.artifact).to_string())
                .unwrap_or_default(),
            title: f.title.clone(),
            time: f.time_range.map(|t| {
                (
                    crate::facts::time_label(&t.from),
                    crate::facts::time_label(&t.to),
                )
            }),
            evidence: serde_json::to_string(
                &f.evidence
                    .iter()
                    .map(|e| serde_json::json!({"artifact": e.artifact, "lines": e.lines}))
                    .collect::<Vec<_>>(),
            )
            .expect("evidence serialises"),
        })
        .collect();
    Ok(Analyzed {
        format: s.summary.format.clone(),
        layout: s.summary.layout.to_string(),
        host: s.summary.hostname.clone(),
        os: s.summary.os.clone(),
        kernel: s.summary.kernel_release.clone(),
        cpus: s.summary.cpus,
        window: s.facts.window,
        jdks: jdks.into_iter().collect(),
        findings,
        features: rows,
        artifacts: s.artifacts.iter().map(rows::ArtifactRow::new).collect(),
        label: s.collector_label.clone(),
    })
}

/// Where an indexing run writes its rows.
pub trait Sink {
    /// The content hashes already stored with status `ok`: these bundles are not analyzed again.
    fn known(&mut self) -> Result<HashSet<String>, String>;
    /// Writes one bundle's rows; `false` when its content was already stored with status `ok`
    /// (the same bundle named twice in one run).
    fn write(&mut self, rows: Rows) -> Result<bool, String>;
    /// Makes what was written so far durable (commits an open batch); called when no bundle has
    /// been waiting for [`FLUSH_AFTER`].
    fn flush(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// Ends the run: whatever the sink still holds is written.
    fn finish(&mut self) -> Result<(), String>;
}

/// How long the writer waits for the next analyzed bundle before it makes what it wrote
/// durable ([`Sink::flush`]); also the longest a batch of the SQLite archive stays open.
pub const FLUSH_AFTER: Duration = Duration::from_millis(500);

/// Most bundles in one batch of the SQLite archive.
const BATCH_BUNDLES: usize = 64;

/// The SQLite archive as a [`Sink`]. Each bundle is stored whole or not at all (a savepoint of
/// its own, [`store_rows`]), and bundles that arrive together are committed together: a batch
/// ends after [`BATCH_BUNDLES`] bundles, [`FLUSH_AFTER`], or when no bundle is waiting. One
/// commit per bundle would rewrite every index page a bundle touches (its features land in
/// hundreds of pages of the feature index) once per bundle.
pub struct Archive<'c> {
    conn: &'c mut Connection,
    /// When the open batch began, and how many bundles it holds.
    batch: Option<(Instant, usize)>,
}

impl<'c> Archive<'c> {
    /// The archive behind `conn`, with no batch open.
    pub fn new(conn: &'c mut Connection) -> Archive<'c> {
        Archive { conn, batch: None }
    }

    /// Commits the open batch, if any.
    fn commit(&mut self) -> Result<(), String> {
        if self.batch.take().is_some() {
            self.conn
                .execute_batch("COMMIT")
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// A run that stops on an error keeps the bundles it stored whole.
impl Drop for Archive<'_> {
    fn drop(&mut self) {
        let _ = self.commit();
    }
}

impl Sink for Archive<'_> {
    fn known(&mut self) -> Result<HashSet<String>, String> {
        let mut st = self
            .conn
            .prepare("SELECT hash FROM bundles WHERE status = 'ok'")
            .map_err(|e| e.to_string())?;
        let rows = st
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| e.to_string())?;
        rows.collect::<Result<_, _>>().map_err(|e| e.to_string())
    }

    fn write(&mut self, rows: Rows) -> Result<bool, String> {
        if self.batch.is_none() {
            self.conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(|e| e.to_string())?;
            self.batch = Some((Instant::now(), 0));
        }
        let stored = store_rows(self.conn, &rows).map_err(|e| e.to_string())?;
        if let Some((began, n)) = &mut self.batch {
            *n += 1;
            if *n >= BATCH_BUNDLES || began.elapsed() >= FLUSH_AFTER {
                self.commit()?;
            }
        }
        Ok(stored)
    }

    fn flush(&mut self) -> Result<(), String> {
        self.commit()
    }

    fn finish(&mut self) -> Result<(), String> {
        self.commit()
    }
}

/// Indexes `paths` into the SQLite archive ([`run`] into [`Archive`]).
///
/// Errors: the archive cannot be written (the bundles stored until then stay stored).
pub fn index(
    conn: &mut Connection,
    paths: &[PathBuf],
    opts: &Options,
    progress: impl FnMut(&Path, &str, usize, usize),
) -> Result<Indexed, String> {
    run(&mut Archive::new(conn), paths, opts, progress)
}

/// Indexes `paths` into `sink`. `progress` is called after each bundle with its path, what
/// happened (`stored`, `already stored`, `failed: …`), and how many are done of how many.
///
/// Errors: the sink cannot be read or written (the bundles it stored until then stay stored).
pub fn run(
    sink: &mut dyn Sink,
    paths: &[PathBuf],
    opts: &Options,
    mut progress: impl FnMut(&Path, &str, usize, usize),
) -> Result<Indexed, String> {
    let known = sink.known()?;
    let jobs = if opts.jobs == 0 {
        rayon::current_num_threads()
    } else {
        opts.jobs
    }
    .clamp(1, paths.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::sync_channel::<(usize, String, Outcome)>(jobs);
    let mut out = Indexed::default();
    let mut write_error = None;
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, known) = (&next, &known);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = paths.get(i) else { break };
                let (hash, outcome) = one(p, known, opts);
                if tx.send((i, hash, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Owned here: when the writer stops (an error, or its caller's panic), the receiver is
        // dropped, every worker's next send fails, and the workers end, so the scope can join
        // them.
        let rx = rx;
        let mut done = 0;
        // Whether rows were written since the sink was last made durable.
        let mut unflushed = false;
        loop {
            let next_rows = if unflushed {
                match rx.recv_timeout(FLUSH_AFTER) {
                    Ok(m) => Some(m),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        unflushed = false;
                        if let Err(e) = sink.flush() {
                            write_error = Some(e);
                            next.store(paths.len(), Ordering::Relaxed);
                            break;
                        }
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => None,
                }
            } else {
                rx.recv().ok()
            };
            let Some((i, hash, outcome)) = next_rows else {
                break;
            };
            done += 1;
            let p = &paths[i];
            let what = match outcome {
                Outcome::Known => {
                    out.already += 1;
                    "already stored".to_string()
                }
                Outcome::Done(r) => {
                    let rows = Rows::new(
                        &hash,
                        &p.display().to_string(),
                        r.as_deref().map_err(String::as_str),
                        &opts.labels,
                        now(),
                    );
                    unflushed = true;
                    match sink.write(rows) {
                        Ok(true) => {}
                        Ok(false) => {
                            out.already += 1;
                            progress(p, "already stored", done, paths.len());
                            continue;
                        }
                        Err(e) => {
                            write_error = Some(e);
                            // Stop the workers: no further bundle is taken.
                            next.store(paths.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                    match r {
                        Ok(_) => {
                            out.stored += 1;
                            "stored".to_string()
                        }
                        Err(e) => {
                            let what = format!("failed: {e}");
                            out.failed.push((p.display().to_string(), e));
                            what
                        }
                    }
                }
            };
            progress(p, &what, done, paths.len());
        }
    });
    if let Some(e) = write_error {
        return Err(format!("cannot write the archive: {e}"));
    }
    sink.finish()
        .map_err(|e| format!("cannot write the archive: {e}"))?;
    Ok(out)
}

/// Now, UTC epoch seconds.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Hashes and, unless already stored, analyzes one bundle.
fn one(p: &Path, known: &HashSet<String>, opts: &Options) -> (String, Outcome) {
    let hash = match content_hash(p) {
        Ok(h) => h,
        Err(e) => {
            // Unreadable: recorded under a hash of its path so that the failure is listed.
            let h = format!("{:x}", Sha256::digest(p.to_string_lossy().as_bytes()));
            return (h, Outcome::Done(Err(format!("cannot be read: {e}"))));
        }
    };
    if known.contains(&hash) {
        return (hash, Outcome::Known);
    }
    let deadline = crate::fleet::deadline_after(opts.timeout);
    let r = crate::console::catch_quietly(|| analyze(p, &opts.limits, deadline))
        .unwrap_or_else(|c| {
            Err(format!(
                "rca failed while analyzing it (an internal error, please report it): {}",
                c.message
            ))
        })
        .map(Box::new);
    (hash, Outcome::Done(r))
}

/// Stores one bundle in one transaction (its rows made by [`Rows::new`], indexed now); `false`
/// when its content is already stored with status `ok` (the same bundle named twice). A stored
/// failure is replaced.
pub fn store(
    conn: &mut Connection,
    hash: &str,
    path: &Path,
    r: Result<Box<Analyzed>, String>,
    labels: &[String],
) -> rusqlite::Result<bool> {
    let rows = Rows::new(
        hash,
        &path.display().to_string(),
        r.as_deref().map_err(String::as_str),
        labels,
        now(),
    );
    store_rows(conn, &rows)
}

/// Stores one bundle's rows, whole or not at all (a savepoint: its own transaction, or part of
/// the caller's open one); `false` when its content is already stored with status `ok`. A
/// stored failure is replaced.
pub fn store_rows(conn: &mut Connection, rows: &Rows) -> rusqlite::Result<bool> {
    let tx = conn.savepoint()?;
    let b = &rows.bundle;
    let before: Option<(i64, String)> = tx
        .query_row(
            "SELECT id, status FROM bundles WHERE hash = ?1",
            [&b.hash],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match before {
        Some((_, s)) if s == rows::OK => return Ok(false),
        Some((id, _)) => {
            tx.execute("DELETE FROM bundles WHERE id = ?1", [id])?;
        }
        None => {}
    }
    tx.execute(
        "INSERT INTO bundles (hash, path, status, error, format, layout, host, os, kernel, cpus,
            window_start, window_end, rca_version, indexed_at, finding_weight, jdks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            b.hash,
            b.path,
            b.status,
            b.error,
            b.format,
            b.layout,
            b.host,
            b.os,
            b.kernel,
            b.cpus,
            b.window_start,
            b.window_end,
            b.rca_version,
            b.indexed_at,
            b.finding_weight,
            serde_json::to_string(&b.jdks).expect("strings serialise"),
        ],
    )?;
    let id = tx.last_insert_rowid();
    {
        let mut st = tx.prepare(
            "INSERT INTO findings (bundle_id, rank, rule, severity, confidence, entity, title,
                time_from, time_to, evidence) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?;
        for f in &rows.findings {
            st.execute(params![
                id,
                f.rank,
                f.rule,
                f.severity,
                f.confidence,
                f.entity,
                f.title,
                f.time_from,
                f.time_to,
                f.evidence,
            ])?;
        }
        let mut st = tx
            .prepare("INSERT INTO features (bundle_id, name, num, text) VALUES (?1, ?2, ?3, ?4)")?;
        for f in &rows.features {
            st.execute(params![id, f.name, f.num, f.text])?;
        }
        let mut st = tx.prepare(
            "INSERT INTO artifacts (bundle_id, path, kind, outcome, issues, bytes, reason)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for a in &rows.artifacts {
            st.execute(params![
                id, a.path, a.kind, a.outcome, a.issues, a.bytes, a.reason
            ])?;
        }
        let mut st =
            tx.prepare("INSERT INTO outcomes (bundle_id, outcome, artifacts) VALUES (?1, ?2, ?3)")?;
        for o in &rows.outcomes {
            st.execute(params![id, o.outcome, o.artifacts])?;
        }
        let mut st =
            tx.prepare("INSERT INTO labels (bundle_id, label, source) VALUES (?1, ?2, ?3)")?;
        for l in &rows.labels {
            st.execute(params![id, l.label, l.source])?;
        }
    }
    tx.commit()?;
    Ok(true)
}
