//! `rca index --format parquet --out DIR`: the archive's tables as a Parquet dataset, for the
//! engines that read a case archive past one machine (Spark, Trino, DuckDB).
//!
//! In: each bundle's [`Rows`]. Out: one folder per table under `DIR` (`bundles`, `findings`,
//! `features`, `artifacts`, `outcomes`, `labels`), partitioned Hive-style by the bundle's collection month
//! ([`Rows::month`]):
//!
//! ```text
//! DIR/bundles/month=2026-11/part-20261203T101500Z-4242-00000.parquet
//! DIR/findings/month=2026-11/part-20261203T101500Z-4242-00000.parquet
//! DIR/features/month=__HIVE_DEFAULT_PARTITION__/part-…   (bundles without a collection window)
//! ```
//!
//! The columns are the SQLite tables' (`docs/archive.md`), typed: SQLite `INTEGER` → INT64,
//! `REAL` → DOUBLE, `TEXT` → STRING (UTF-8), and `bundles.jdks` a list of strings instead of
//! SQLite's JSON text. The partition column `month` is in the folder names, not in the files, as
//! Spark writes it. `bundles.id` and the other tables' `bundle_id` are [`dataset_id`]: the same
//! bundle has the same key in every run and every Spark job. Compression: Snappy.
//!
//! A run writes new part files only, named by its run id (UTC start and process id) and a
//! sequence number; it never rewrites or deletes one. It first reads the `hash` and `status`
//! columns of every part already in `DIR/bundles`, and skips a bundle already stored with status
//! `ok`, as the SQLite archive does: a second run over the same bundles writes nothing. Failed
//! bundles are not written (they are listed, the run exits 1, and the next run tries them
//! again), so a hash has at most one row. Rows are written every [`FLUSH_EVERY`] bundles and at
//! the end of the run; each part is written under a hidden name (`.part-….tmp`, which readers
//! skip) and renamed when complete, the children's parts before the `bundles` part, so a
//! bundle listed in `bundles` has all its rows. A run stopped between two flushes loses the
//! bundles since the last one (the next run analyzes them again); one stopped inside a flush
//! may leave child rows whose bundle is not in `bundles`, which a join on `bundles` leaves out.

use super::index::Sink;
use super::rows::{dataset_id, Rows, FAILED};
use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use ::parquet::arrow::{ArrowWriter, ProjectionMask};
use ::parquet::basic::Compression;
use ::parquet::file::properties::WriterProperties;
use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The tables, in the order a flush writes them: `bundles` last.
pub const TABLES: [&str; 6] = [
    "findings",
    "features",
    "artifacts",
    "outcomes",
    "labels",
    "bundles",
];

/// Bundles held in memory before their rows are written as part files.
pub const FLUSH_EVERY: usize = 1000;

/// A Parquet dataset being written by one run.
pub struct Dataset {
    dir: PathBuf,
    run: String,
    seq: usize,
    pending: Vec<Rows>,
    /// Hashes written or held by this run.
    seen: HashSet<String>,
    written: Vec<PathBuf>,
}

impl Dataset {
    /// A run writing into the dataset at `dir` (created if need be). Errors: `dir` cannot be
    /// created.
    pub fn create(dir: &Path) -> Result<Dataset, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let now = std::time::SystemTime::now();
        let stamp: String = humantime::format_rfc3339_seconds(now)
            .to_string()
            .chars()
            .filter(|c| !matches!(c, '-' | ':'))
            .collect();
        Ok(Dataset {
            dir: dir.to_path_buf(),
            run: format!("{stamp}-{}", std::process::id()),
            seq: 0,
            pending: Vec::new(),
            seen: HashSet::new(),
            written: Vec::new(),
        })
    }

    /// The run id in this run's part file names (`20261203T101500Z-4242`).
    pub fn run_id(&self) -> &str {
        &self.run
    }

    /// The part files this run wrote, in the order it wrote them.
    pub fn written(&self) -> &[PathBuf] {
        &self.written
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let mut by_month: BTreeMap<String, Vec<&Rows>> = BTreeMap::new();
        for r in &pending {
            by_month.entry(r.month()).or_default().push(r);
        }
        for table in TABLES {
            for (month, rows) in &by_month {
                let batch = batch(table, rows).map_err(|e| format!("{table}: {e}"))?;
                if batch.num_rows() == 0 {
                    continue;
                }
                let folder = self.dir.join(table).join(format!("month={month}"));
                let name = format!("part-{}-{:05}.parquet", self.run, self.seq);
                let p = write_part(&folder, &name, &batch)?;
                self.written.push(p);
            }
        }
        self.seq += 1;
        Ok(())
    }
}

impl Sink for Dataset {
    fn known(&mut self) -> Result<HashSet<String>, String> {
        known_hashes(&self.dir)
    }

    fn write(&mut self, rows: Rows) -> Result<bool, String> {
        if rows.bundle.status == FAILED {
            return Ok(true);
        }
        if !self.seen.insert(rows.bundle.hash.clone()) {
            return Ok(false);
        }
        self.pending.push(rows);
        if self.pending.len() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(true)
    }

    fn finish(&mut self) -> Result<(), String> {
        self.flush()
    }
}

fn text<'a>(v: impl IntoIterator<Item = Option<&'a str>>) -> ArrayRef {
    Arc::new(StringArray::from_iter(v))
}

fn int(v: impl IntoIterator<Item = Option<i64>>) -> ArrayRef {
    Arc::new(Int64Array::from_iter(v))
}

fn real(v: impl IntoIterator<Item = Option<f64>>) -> ArrayRef {
    Arc::new(Float64Array::from_iter(v))
}

/// The rows of `table` for `rows`, named as the SQLite columns are.
fn batch(table: &str, rows: &[&Rows]) -> Result<RecordBatch, arrow_schema::ArrowError> {
    // Child rows with their bundle's key.
    fn children<'a, T>(
        rows: &[&'a Rows],
        of: impl Fn(&'a Rows) -> &'a [T],
    ) -> (Vec<i64>, Vec<&'a T>) {
        rows.iter()
            .flat_map(|r| {
                let id = dataset_id(&r.bundle.hash);
                of(r).iter().map(move |c| (id, c))
            })
            .unzip()
    }
    let cols: Vec<(&str, ArrayRef, bool)> = match table {
        "bundles" => {
            let b: Vec<_> = rows.iter().map(|r| &r.bundle).collect();
            let mut jdks = ListBuilder::new(StringBuilder::new());
            for r in &b {
                for j in &r.jdks {
                    jdks.values().append_value(j);
                }
                jdks.append(true);
            }
            vec![
                (
                    "id",
                    int(b.iter().map(|r| Some(dataset_id(&r.hash)))),
                    false,
                ),
                ("hash", text(b.iter().map(|r| Some(r.hash.as_str()))), false),
                ("path", text(b.iter().map(|r| Some(r.path.as_str()))), false),
                ("status", text(b.iter().map(|r| Some(r.status))), false),
                ("error", text(b.iter().map(|r| r.error.as_deref())), true),
                ("format", text(b.iter().map(|r| r.format.as_deref())), true),
                ("layout", text(b.iter().map(|r| r.layout.as_deref())), true),
                ("host", text(b.iter().map(|r| r.host.as_deref())), true),
                ("os", text(b.iter().map(|r| r.os.as_deref())), true),
                ("kernel", text(b.iter().map(|r| r.kernel.as_deref())), true),
                ("cpus", int(b.iter().map(|r| r.cpus.map(i64::from))), true),
                ("window_start", real(b.iter().map(|r| r.window_start)), true),
                ("window_end", real(b.iter().map(|r| r.window_end)), true),
                (
                    "rca_version",
                    text(b.iter().map(|r| Some(r.rca_version))),
                    false,
                ),
                (
                    "indexed_at",
                    int(b.iter().map(|r| Some(r.indexed_at))),
                    false,
                ),
                (
                    "finding_weight",
                    real(b.iter().map(|r| Some(r.finding_weight))),
                    false,
                ),
                ("jdks", Arc::new(jdks.finish()), false),
            ]
        }
        "findings" => {
            let (ids, f) = children(rows, |r| &r.findings);
            vec![
                ("bundle_id", int(ids.into_iter().map(Some)), false),
                ("rank", int(f.iter().map(|f| Some(f.rank))), false),
                ("rule", text(f.iter().map(|f| Some(f.rule.as_str()))), false),
                (
                    "severity",
                    int(f.iter().map(|f| Some(i64::from(f.severity)))),
                    false,
                ),
                (
                    "confidence",
                    int(f.iter().map(|f| Some(i64::from(f.confidence)))),
                    false,
                ),
                (
                    "entity",
                    text(f.iter().map(|f| Some(f.entity.as_str()))),
                    false,
                ),
                (
                    "title",
                    text(f.iter().map(|f| Some(f.title.as_str()))),
                    false,
                ),
                (
                    "time_from",
                    text(f.iter().map(|f| f.time_from.as_deref())),
                    true,
                ),
                (
                    "time_to",
                    text(f.iter().map(|f| f.time_to.as_deref())),
                    true,
                ),
                (
                    "evidence",
                    text(f.iter().map(|f| Some(f.evidence.as_str()))),
                    false,
                ),
            ]
        }
        "features" => {
            let (ids, f) = children(rows, |r| &r.features);
            vec![
                ("bundle_id", int(ids.into_iter().map(Some)), false),
                ("name", text(f.iter().map(|f| Some(f.name.as_str()))), false),
                ("num", real(f.iter().map(|f| f.num)), true),
                ("text", text(f.iter().map(|f| f.text.as_deref())), true),
            ]
        }
        "artifacts" => {
            let (ids, a) = children(rows, |r| &r.artifacts);
            vec![
                ("bundle_id", int(ids.into_iter().map(Some)), false),
                ("path", text(a.iter().map(|a| Some(a.path.as_str()))), false),
                ("kind", text(a.iter().map(|a| a.kind.as_deref())), true),
                (
                    "outcome",
                    text(a.iter().map(|a| Some(a.outcome.as_str()))),
                    false,
                ),
                ("issues", int(a.iter().map(|a| Some(a.issues))), false),
                ("bytes", int(a.iter().map(|a| a.bytes)), true),
                ("reason", text(a.iter().map(|a| a.reason.as_deref())), true),
            ]
        }
        "outcomes" => {
            let (ids, o) = children(rows, |r| &r.outcomes);
            vec![
                ("bundle_id", int(ids.into_iter().map(Some)), false),
                (
                    "outcome",
                    text(o.iter().map(|o| Some(o.outcome.as_str()))),
                    false,
                ),
                ("artifacts", int(o.iter().map(|o| Some(o.artifacts))), false),
            ]
        }
        _ => {
            let (ids, l) = children(rows, |r| &r.labels);
            vec![
                ("bundle_id", int(ids.into_iter().map(Some)), false),
                (
                    "label",
                    text(l.iter().map(|l| Some(l.label.as_str()))),
                    false,
                ),
                ("source", text(l.iter().map(|l| Some(l.source))), false),
            ]
        }
    };
    RecordBatch::try_from_iter_with_nullable(cols)
}

/// Writes `batch` as `folder/name`, through a hidden temporary file renamed when complete.
fn write_part(folder: &Path, name: &str, batch: &RecordBatch) -> Result<PathBuf, String> {
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let tmp = folder.join(format!(".{name}.tmp"));
    let to = folder.join(name);
    let write = || -> Result<(), String> {
        let f = std::fs::File::create(&tmp).map_err(|e| e.to_string())?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        let mut w =
            ArrowWriter::try_new(f, batch.schema(), Some(props)).map_err(|e| e.to_string())?;
        w.write(batch).map_err(|e| e.to_string())?;
        w.close().map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, &to).map_err(|e| e.to_string())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", to.display())
    })?;
    Ok(to)
}

/// The part files of `table` under `dir`: every `*.parquet` in its partition folders, hidden
/// (`.x`) and Spark's own (`_SUCCESS`, `_temporary`) names left out; links are not followed.
pub fn parts(dir: &Path, table: &str) -> std::io::Result<Vec<PathBuf>> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        let entries = match std::fs::read_dir(d) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        for e in entries {
            let e = e?;
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name.starts_with('_') {
                continue;
            }
            let t = e.file_type()?;
            if t.is_dir() {
                walk(&e.path(), out)?;
            } else if t.is_file() && name.ends_with(".parquet") {
                out.push(e.path());
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(&dir.join(table), &mut out)?;
    out.sort();
    Ok(out)
}

/// The hashes stored with status `ok` in the dataset at `dir` (its `bundles` parts, written by
/// rca or by the Spark example). Errors: a part cannot be read or is not Parquet, or has no
/// `hash` column of strings.
pub fn known_hashes(dir: &Path) -> Result<HashSet<String>, String> {
    let mut known = HashSet::new();
    let files = parts(dir, "bundles").map_err(|e| format!("{}: {e}", dir.display()))?;
    for p in files {
        let at = |e: &dyn std::fmt::Display| format!("{}: {e}", p.display());
        let f = std::fs::File::open(&p).map_err(|e| at(&e))?;
        let b = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| at(&e))?;
        let mask = ProjectionMask::columns(b.parquet_schema(), ["hash", "status"]);
        let reader = b.with_projection(mask).build().map_err(|e| at(&e))?;
        for batch in reader {
            let batch = batch.map_err(|e| at(&e))?;
            let hash = strings(batch.column_by_name("hash"))
                .ok_or_else(|| at(&"no `hash` column of strings"))?;
            let status = strings(batch.column_by_name("status"));
            for (i, h) in hash.iter().enumerate() {
                let ok = status
                    .as_ref()
                    .is_none_or(|s| s[i].as_deref() == Some("ok"));
                if let (Some(h), true) = (h, ok) {
                    known.insert(h.clone());
                }
            }
        }
    }
    Ok(known)
}

/// The values of a column of strings, whichever of Arrow's string types the reader gave.
fn strings(c: Option<&ArrayRef>) -> Option<Vec<Option<String>>> {
    let c = c?;
    let own = |v: Option<&str>| v.map(str::to_string);
    if let Some(a) = c.as_string_opt::<i32>() {
        return Some(a.iter().map(own).collect());
    }
    if let Some(a) = c.as_string_opt::<i64>() {
        return Some(a.iter().map(own).collect());
    }
    if let Some(a) = c.as_string_view_opt() {
        return Some(a.iter().map(own).collect());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::index::{Analyzed, FindingRow};
    use crate::archive::rows::ArtifactRow;

    fn rows(hash: &str, start: Option<f64>) -> Rows {
        let a = Analyzed {
            layout: "rca-collector".into(),
            host: Some("db01".into()),
            window: start.map(|s| (s, s + 600.0)),
            jdks: vec!["OpenJDK 17.0.15".into()],
            findings: vec![FindingRow {
                rule: "mem.swap".into(),
                severity: 2,
                confidence: 1,
                entity: "mem/vmstat.txt".into(),
                title: "Swapping".into(),
                time: None,
                evidence: "[]".into(),
            }],
            features: vec![("eth0: queues".into(), Some(2.0), None)],
            artifacts: vec![ArtifactRow {
                path: "mem/vmstat.txt".into(),
                kind: Some("vmstat".into()),
                outcome: "parsed".into(),
                issues: 0,
                bytes: Some(4096),
                reason: None,
            }],
            ..Analyzed::default()
        };
        Rows::new(hash, "x.tgz", Ok(&a), &["acme".into()], 0)
    }

    #[test]
    fn a_run_writes_partitioned_parts_and_the_next_one_knows_its_bundles() {
        let d = tempfile::tempdir().unwrap();
        let mut ds = Dataset::create(d.path()).unwrap();
        assert!(ds.known().unwrap().is_empty());
        // 2026-11-30 and 2026-12-01 UTC, and one without a window.
        assert!(ds.write(rows("aa01", Some(1_796_083_199.0))).unwrap());
        assert!(ds.write(rows("aa02", Some(1_796_083_200.0))).unwrap());
        assert!(ds.write(rows("aa03", None)).unwrap());
        assert!(
            !ds.write(rows("aa01", Some(1.0))).unwrap(),
            "twice in one run"
        );
        let failed = Rows::new("aa04", "y.tgz", Err("broken"), &[], 0);
        assert!(ds.write(failed).unwrap());
        ds.finish().unwrap();
        let mut months: Vec<String> = parts(d.path(), "bundles")
            .unwrap()
            .iter()
            .map(|p| {
                let m = p.parent().unwrap().file_name().unwrap();
                m.to_string_lossy().into_owned()
            })
            .collect();
        months.sort();
        assert_eq!(
            months,
            [
                "month=2026-11",
                "month=2026-12",
                "month=__HIVE_DEFAULT_PARTITION__"
            ]
        );
        // 6 tables × 3 months, nothing hidden left behind.
        assert_eq!(ds.written().len(), 18);
        for t in TABLES {
            assert_eq!(parts(d.path(), t).unwrap().len(), 3, "{t}");
        }
        let known = Dataset::create(d.path()).unwrap().known().unwrap();
        let mut known: Vec<String> = known.into_iter().collect();
        known.sort();
        assert_eq!(
            known,
            ["aa01", "aa02", "aa03"],
            "the failed bundle is not stored"
        );

        // The rows read back typed, with the bundle's key.
        let p = &parts(d.path(), "findings").unwrap()[0];
        let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(p).unwrap())
            .unwrap()
            .build()
            .unwrap();
        let batch = b.into_iter().next().unwrap().unwrap();
        let names: Vec<String> = batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(
            names,
            [
                "bundle_id",
                "rank",
                "rule",
                "severity",
                "confidence",
                "entity",
                "title",
                "time_from",
                "time_to",
                "evidence"
            ]
        );
        let ids = batch
            .column(0)
            .as_primitive::<arrow_array::types::Int64Type>();
        assert_eq!(ids.value(0), dataset_id("aa01"));
        let sev = batch
            .column(3)
            .as_primitive::<arrow_array::types::Int64Type>();
        assert_eq!(sev.value(0), 2);
    }

    #[test]
    fn a_part_that_is_not_parquet_is_refused_with_its_path() {
        let d = tempfile::tempdir().unwrap();
        let m = d.path().join("bundles/month=2026-11");
        std::fs::create_dir_all(&m).unwrap();
        std::fs::write(m.join("part-x.parquet"), b"PAR1 not really").unwrap();
        // Hidden and Spark's own files are not parts.
        std::fs::write(m.join(".part-y.parquet.tmp"), b"half written").unwrap();
        std::fs::write(d.path().join("bundles/_SUCCESS"), b"").unwrap();
        let e = known_hashes(d.path()).unwrap_err();
        assert!(e.contains("part-x.parquet"), "{e}");
        std::fs::remove_file(m.join("part-x.parquet")).unwrap();
        assert!(known_hashes(d.path()).unwrap().is_empty());
    }
}
