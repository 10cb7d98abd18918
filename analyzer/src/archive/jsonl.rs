//! `rca index --format jsonl --out FILE`: each bundle's rows as one line of JSON, for a job that
//! writes the Parquet dataset with its own writer (`examples/spark/rca_spark.py`).
//!
//! In: each bundle's [`Rows`]. Out: one JSON object per line and bundle, holding the rows of
//! every table of the Parquet dataset ([`super::parquet`]) under the table's name, with its
//! columns' names, and the partition:
//!
//! ```text
//! {"month":"2026-11","bundles":[{"id":…,"hash":"4f…","path":…,"status":"ok",…,"jdks":[…]}],
//!  "findings":[{"bundle_id":…,"rank":1,"rule":"jvm.zk_watches",…}],"features":[…],
//!  "artifacts":[…],"outcomes":[…],"labels":[…]}
//! ```
//!
//! As in the Parquet dataset, `id`/`bundle_id` is [`dataset_id`] and a failed bundle is not
//! written (it is listed, and the run exits 1). The file is written anew by each run; nothing
//! is skipped as already stored.

use super::index::Sink;
use super::rows::{dataset_id, BundleRow, Rows, FAILED};
use serde::Serialize;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

/// A `bundles` row with its key.
#[derive(Serialize)]
struct Keyed<'a> {
    id: i64,
    #[serde(flatten)]
    row: &'a BundleRow,
}

/// A child row with its bundle's key.
#[derive(Serialize)]
struct Child<'a, T> {
    bundle_id: i64,
    #[serde(flatten)]
    row: &'a T,
}

/// One line.
#[derive(Serialize)]
struct Line<'a> {
    month: String,
    bundles: [Keyed<'a>; 1],
    findings: Vec<Child<'a, super::rows::FindingOut>>,
    features: Vec<Child<'a, super::rows::FeatureRow>>,
    artifacts: Vec<Child<'a, super::rows::ArtifactRow>>,
    outcomes: Vec<Child<'a, super::rows::OutcomeRow>>,
    labels: Vec<Child<'a, super::rows::LabelRow>>,
}

/// The JSON lines of one run, in bundle order.
pub struct Lines {
    out: std::io::BufWriter<std::fs::File>,
    path: String,
    seen: HashSet<String>,
}

impl Lines {
    /// Lines written to `path` (created, or emptied). Errors: it cannot be created.
    pub fn create(path: &Path) -> Result<Lines, String> {
        let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Lines {
            out: std::io::BufWriter::new(f),
            path: path.display().to_string(),
            seen: HashSet::new(),
        })
    }
}

/// The line of one bundle's rows, without its newline.
pub fn line(rows: &Rows) -> String {
    let id = dataset_id(&rows.bundle.hash);
    fn keyed<T>(id: i64, rows: &[T]) -> Vec<Child<'_, T>> {
        rows.iter()
            .map(|row| Child { bundle_id: id, row })
            .collect()
    }
    let l = Line {
        month: rows.month(),
        bundles: [Keyed {
            id,
            row: &rows.bundle,
        }],
        findings: keyed(id, &rows.findings),
        features: keyed(id, &rows.features),
        artifacts: keyed(id, &rows.artifacts),
        outcomes: keyed(id, &rows.outcomes),
        labels: keyed(id, &rows.labels),
    };
    serde_json::to_string(&l).expect("rows serialise")
}

impl Sink for Lines {
    fn known(&mut self) -> Result<HashSet<String>, String> {
        Ok(HashSet::new())
    }

    fn write(&mut self, rows: Rows) -> Result<bool, String> {
        if rows.bundle.status == FAILED {
            return Ok(true);
        }
        if !self.seen.insert(rows.bundle.hash.clone()) {
            return Ok(false);
        }
        writeln!(self.out, "{}", line(&rows)).map_err(|e| format!("{}: {e}", self.path))?;
        Ok(true)
    }

    fn finish(&mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| format!("{}: {e}", self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::index::Analyzed;

    #[test]
    fn a_line_holds_every_table_with_the_bundle_key() {
        let a = Analyzed {
            layout: "rca-collector".into(),
            window: Some((1_796_083_199.0, 1_796_083_799.0)),
            features: vec![("eth0: queues".into(), Some(2.0), None)],
            artifacts: vec![crate::archive::rows::ArtifactRow {
                path: "iostat-x.txt".into(),
                kind: None,
                outcome: "unrecognised".into(),
                issues: 0,
                bytes: Some(12),
                reason: Some("no parser recognised the content".into()),
            }],
            label: Some("slow pool".into()),
            ..Analyzed::default()
        };
        let r = Rows::new("00000000000000ff", "x.tgz", Ok(&a), &["acme".into()], 9);
        let v: serde_json::Value = serde_json::from_str(&line(&r)).unwrap();
        assert_eq!(v["month"], "2026-11");
        assert_eq!(v["bundles"][0]["id"], 0xf);
        assert_eq!(v["bundles"][0]["hash"], "00000000000000ff");
        assert_eq!(v["bundles"][0]["indexed_at"], 9);
        assert_eq!(v["bundles"][0]["jdks"], serde_json::json!([]));
        assert_eq!(v["findings"], serde_json::json!([]));
        assert_eq!(
            v["features"],
            serde_json::json!([{"bundle_id": 15, "name": "eth0: queues", "num": 2.0, "text": null}])
        );
        assert_eq!(
            v["artifacts"],
            serde_json::json!([{"bundle_id": 15, "path": "iostat-x.txt", "kind": null,
                "outcome": "unrecognised", "issues": 0, "bytes": 12,
                "reason": "no parser recognised the content"}])
        );
        assert_eq!(
            v["outcomes"],
            serde_json::json!([{"bundle_id": 15, "outcome": "unrecognised", "artifacts": 1}])
        );
        assert_eq!(
            v["labels"],
            serde_json::json!([{"bundle_id": 15, "label": "acme", "source": "index"},
                {"bundle_id": 15, "label": "slow pool", "source": "collector"}])
        );
    }
}
