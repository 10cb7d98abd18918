//! One bundle's rows in the archive's tables, the same for every place they are written.
//!
//! In: a bundle's content hash, its path, what its analysis gave ([`Analyzed`], or the error),
//! the labels of the run and the time of indexing. Out: [`Rows`], one value per column of the
//! tables `bundles`, `findings`, `features`, `artifacts`, `outcomes` and `labels`
//! (`docs/archive.md`), named as the columns are. The outcome counts are derived here from the
//! artifact rows, so the two tables always agree. The SQLite archive ([`super::index::store`]), the Parquet dataset
//! ([`super::parquet`]) and the JSON lines the Spark example reads ([`super::jsonl`]) all write
//! these rows: one conversion, several sinks.
//!
//! Which bundle a child row belongs to is each sink's business: SQLite numbers its bundles
//! itself (`bundles.id`, an integer primary key); the Parquet dataset, written by independent
//! runs and jobs, uses [`dataset_id`], derived from the content hash.

use super::{severity_weight, Key};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the archive keeps of one analyzed bundle.
#[derive(Debug, Clone, Default)]
pub struct Analyzed {
    /// Bundle format (`tar-gz`, `directory`, …).
    pub format: Option<String>,
    /// Layout that wrote it (`rca-collector`, `sosreport`, …).
    pub layout: String,
    /// Host name.
    pub host: Option<String>,
    /// OS name.
    pub os: Option<String>,
    /// Kernel release.
    pub kernel: Option<String>,
    /// Logical CPUs.
    pub cpus: Option<u32>,
    /// Collection window, UTC epoch seconds (from the collector's manifest).
    pub window: Option<(f64, f64)>,
    /// Distinct JDKs (`OpenJDK 17.0.15`).
    pub jdks: Vec<String>,
    /// Findings in rank order.
    pub findings: Vec<FindingRow>,
    /// Features: name, number (numeric features) or text (categorical ones).
    pub features: Vec<(String, Option<f64>, Option<String>)>,
    /// Every artifact with its outcome, as the analysis document lists them.
    pub artifacts: Vec<ArtifactRow>,
    /// The collector's `--label` text, from the bundle's manifest.
    pub label: Option<String>,
}

/// Longest `artifacts.reason` kept, in characters; a longer one is cut and ends with `…`.
pub const REASON_MAX_CHARS: usize = 240;

/// A row of `artifacts`, without its bundle: one artifact of the bundle and its outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArtifactRow {
    /// Path inside the bundle, as `rca analyze --json` gives it (`artifacts[].path`).
    pub path: String,
    /// Its kind (`iostat`), when resolved.
    pub kind: Option<String>,
    /// The outcome's label (`parsed`, `partial`, `unusable`, `unrecognised`, `not-collected`,
    /// `too-large`, `link`, `parser-bug`).
    pub outcome: String,
    /// How many problems reading it met.
    pub issues: i64,
    /// Size, bytes; null for a link (read at its target).
    pub bytes: Option<i64>,
    /// Why it is not `parsed`: the outcome's reason, else its first problem; at most
    /// [`REASON_MAX_CHARS`] characters. Null for a parsed artifact.
    pub reason: Option<String>,
}

impl ArtifactRow {
    /// The row of one artifact of the analysis.
    pub fn new(a: &crate::diff::side::ArtifactOutcome) -> ArtifactRow {
        use crate::artifacts::Outcome;
        let reason = match &a.outcome {
            Outcome::Parsed | Outcome::Partial => None,
            Outcome::Unusable { reason } | Outcome::Unrecognised { reason } => Some(reason.clone()),
            Outcome::NotCollected {
                exit,
                timed_out,
                note,
            } => {
                let mut parts = Vec::new();
                if !note.trim().is_empty() {
                    parts.push(note.trim().to_string());
                }
                if *timed_out {
                    parts.push("timed out".to_string());
                }
                if let Some(e) = exit {
                    parts.push(format!("exit status {e}"));
                }
                Some(parts.join("; "))
            }
            Outcome::TooLarge { limit } => Some(format!("larger than the {limit}-byte limit")),
            Outcome::Link { target } => Some(format!("a link to {target}")),
            Outcome::ParserBug { message, .. } => Some(message.clone()),
        }
        .filter(|r| !r.is_empty());
        let reason = match (&a.outcome, reason) {
            (Outcome::Parsed, _) => None,
            (_, Some(r)) => Some(r),
            (_, None) => a.first_issue.clone(),
        };
        ArtifactRow {
            path: a.path.clone(),
            kind: a.kind.map(str::to_string),
            outcome: a.outcome.label().to_string(),
            issues: a.issues as i64,
            bytes: match a.outcome {
                Outcome::Link { .. } => None,
                _ => i64::try_from(a.bytes).ok(),
            },
            reason: reason.map(|r| capped(&r, REASON_MAX_CHARS)),
        }
    }
}

/// `text` cut to at most `max` characters, the last of them `…` when cut.
fn capped(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// One stored finding.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingRow {
    /// Rule id (`mem.swap`).
    pub rule: String,
    /// 0 info, 1 warning, 2 critical.
    pub severity: u8,
    /// 0 low, 1 medium, 2 high.
    pub confidence: u8,
    /// What the finding is about: the artifact its first evidence cites (`iostat-x.txt`), or
    /// empty.
    pub entity: String,
    /// Title.
    pub title: String,
    /// First and last sample time of the condition, as the artifact prints them.
    pub time: Option<(String, String)>,
    /// Evidence as JSON: `[{"artifact": …, "lines": […]}]`.
    pub evidence: String,
}

/// Status of a bundle that was analyzed.
pub const OK: &str = "ok";
/// Status of a bundle that could not be read or analyzed.
pub const FAILED: &str = "failed";

/// The value of the partition column `month` for a bundle without a collection window: Hive's
/// name for a null partition value, which Spark writes and Spark, Trino and DuckDB read back as
/// null.
pub const NO_MONTH: &str = "__HIVE_DEFAULT_PARTITION__";

/// A row of `bundles`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BundleRow {
    /// Content hash, lower-case hex SHA-256 ([`super::index::content_hash`]).
    pub hash: String,
    /// The path as given when indexed.
    pub path: String,
    /// [`OK`] or [`FAILED`].
    pub status: &'static str,
    /// Why it failed.
    pub error: Option<String>,
    /// Bundle format (`tar-gz`, `directory`, …).
    pub format: Option<String>,
    /// Layout that wrote it (`rca-collector`, `sosreport`, …).
    pub layout: Option<String>,
    /// Host name.
    pub host: Option<String>,
    /// OS name.
    pub os: Option<String>,
    /// Kernel release.
    pub kernel: Option<String>,
    /// Logical CPUs.
    pub cpus: Option<u32>,
    /// Start of the collection window, UTC epoch seconds.
    pub window_start: Option<f64>,
    /// End of the collection window, UTC epoch seconds.
    pub window_end: Option<f64>,
    /// The rca that indexed it (`0.1.0`).
    pub rca_version: &'static str,
    /// When it was indexed, UTC epoch seconds.
    pub indexed_at: i64,
    /// Σ of the severity weights of its distinct (rule, entity) findings, each key at its worst
    /// severity ([`severity_weight`]).
    pub finding_weight: f64,
    /// Distinct JDKs (`OpenJDK 17.0.15`).
    pub jdks: Vec<String>,
}

/// A row of `findings`, without its bundle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindingOut {
    /// 1 = first in the report.
    pub rank: i64,
    /// Rule id (`mem.swap`).
    pub rule: String,
    /// 0 info, 1 warning, 2 critical.
    pub severity: u8,
    /// 0 low, 1 medium, 2 high.
    pub confidence: u8,
    /// The artifact its first evidence cites, inside the layout's tree, or empty.
    pub entity: String,
    /// Title.
    pub title: String,
    /// First sample time of the condition, as the artifact prints it (host clock).
    pub time_from: Option<String>,
    /// Last sample time of the condition, as the artifact prints it (host clock).
    pub time_to: Option<String>,
    /// Evidence as JSON: `[{"artifact": …, "lines": […]}]`.
    pub evidence: String,
}

/// A row of `features`, without its bundle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureRow {
    /// Feature name (`cpu: mean %soft`, `kernel release`).
    pub name: String,
    /// Value of a numeric feature.
    pub num: Option<f64>,
    /// Value of a categorical feature.
    pub text: Option<String>,
}

/// Where a label comes from: `rca index --label` (`labels.source` = `index`).
pub const LABEL_INDEX: &str = "index";
/// Where a label comes from: the collector's `--label`, in the bundle's manifest.
pub const LABEL_COLLECTOR: &str = "collector";

/// A row of `labels`, without its bundle.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct LabelRow {
    /// The label (`customer=acme`, `slow pool`).
    pub label: String,
    /// [`LABEL_INDEX`] or [`LABEL_COLLECTOR`].
    pub source: &'static str,
}

/// A row of `outcomes`, without its bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutcomeRow {
    /// `parsed`, `partial`, `unusable`, …
    pub outcome: String,
    /// How many of the bundle's artifacts had it.
    pub artifacts: i64,
}

/// One bundle's rows. A failed bundle has its `bundles` row and labels only.
#[derive(Debug, Clone, PartialEq)]
pub struct Rows {
    /// Its row of `bundles`.
    pub bundle: BundleRow,
    /// Its findings in rank order.
    pub findings: Vec<FindingOut>,
    /// Its features, one per name (the last value given for a name), by name.
    pub features: Vec<FeatureRow>,
    /// Its artifacts, each path once, in the analysis document's order.
    pub artifacts: Vec<ArtifactRow>,
    /// Its artifact outcome counts, by outcome (counted from `artifacts`).
    pub outcomes: Vec<OutcomeRow>,
    /// The labels of the run and the collector's label, each once, sorted.
    pub labels: Vec<LabelRow>,
}

impl Rows {
    /// The rows of the bundle with content `hash` found at `path`, analyzed (`Ok`) or not
    /// (`Err` with why), labelled with `labels` (and the collector's label of an analyzed
    /// bundle), indexed at `indexed_at` (UTC epoch seconds).
    pub fn new(
        hash: &str,
        path: &str,
        analyzed: Result<&Analyzed, &str>,
        labels: &[String],
        indexed_at: i64,
    ) -> Rows {
        let mut label_set: BTreeSet<LabelRow> = labels
            .iter()
            .map(|l| LabelRow {
                label: l.clone(),
                source: LABEL_INDEX,
            })
            .collect();
        if let Ok(Some(l)) = analyzed.map(|a| a.label.as_ref()) {
            label_set.insert(LabelRow {
                label: l.clone(),
                source: LABEL_COLLECTOR,
            });
        }
        let labels: Vec<LabelRow> = label_set.into_iter().collect();
        let mut bundle = BundleRow {
            hash: hash.to_string(),
            path: path.to_string(),
            status: OK,
            error: None,
            format: None,
            layout: None,
            host: None,
            os: None,
            kernel: None,
            cpus: None,
            window_start: None,
            window_end: None,
            rca_version: env!("CARGO_PKG_VERSION"),
            indexed_at,
            finding_weight: 0.0,
            jdks: Vec::new(),
        };
        let a = match analyzed {
            Err(e) => {
                bundle.status = FAILED;
                bundle.error = Some(e.to_string());
                return Rows {
                    bundle,
                    findings: Vec::new(),
                    features: Vec::new(),
                    artifacts: Vec::new(),
                    outcomes: Vec::new(),
                    labels,
                };
            }
            Ok(a) => a,
        };
        let mut weights: BTreeMap<Key, f64> = BTreeMap::new();
        for f in &a.findings {
            let w = weights
                .entry((f.rule.clone(), f.entity.clone()))
                .or_default();
            *w = w.max(severity_weight(f.severity));
        }
        bundle.format = a.format.clone();
        bundle.layout = Some(a.layout.clone());
        bundle.host = a.host.clone();
        bundle.os = a.os.clone();
        bundle.kernel = a.kernel.clone();
        bundle.cpus = a.cpus;
        bundle.window_start = a.window.map(|w| w.0);
        bundle.window_end = a.window.map(|w| w.1);
        bundle.finding_weight = weights.values().sum();
        bundle.jdks = a.jdks.clone();
        let features: BTreeMap<&str, (Option<f64>, Option<&String>)> = a
            .features
            .iter()
            .map(|(n, num, text)| (n.as_str(), (*num, text.as_ref())))
            .collect();
        let mut paths = BTreeSet::new();
        let artifacts: Vec<ArtifactRow> = a
            .artifacts
            .iter()
            .filter(|r| paths.insert(r.path.as_str()))
            .cloned()
            .collect();
        let mut outcomes: BTreeMap<&str, i64> = BTreeMap::new();
        for r in &artifacts {
            *outcomes.entry(r.outcome.as_str()).or_default() += 1;
        }
        let outcomes = outcomes
            .into_iter()
            .map(|(o, n)| OutcomeRow {
                outcome: o.to_string(),
                artifacts: n,
            })
            .collect();
        Rows {
            bundle,
            findings: a
                .findings
                .iter()
                .enumerate()
                .map(|(i, f): (usize, &FindingRow)| FindingOut {
                    rank: i as i64 + 1,
                    rule: f.rule.clone(),
                    severity: f.severity,
                    confidence: f.confidence,
                    entity: f.entity.clone(),
                    title: f.title.clone(),
                    time_from: f.time.as_ref().map(|t| t.0.clone()),
                    time_to: f.time.as_ref().map(|t| t.1.clone()),
                    evidence: f.evidence.clone(),
                })
                .collect(),
            features: features
                .into_iter()
                .map(|(name, (num, text))| FeatureRow {
                    name: name.to_string(),
                    num,
                    text: text.cloned(),
                })
                .collect(),
            artifacts,
            outcomes,
            labels,
        }
    }

    /// The bundle's collection month, the dataset's partition (`2026-11`, UTC), from the start
    /// of its collection window; [`NO_MONTH`] without one (or one outside years 1970–9999).
    pub fn month(&self) -> String {
        month_of(self.bundle.window_start)
    }
}

/// The month (`YYYY-MM`, UTC) of `epoch_s`; [`NO_MONTH`] for none, or a time before 1970 or
/// after 9999.
pub fn month_of(epoch_s: Option<f64>) -> String {
    const LAST: f64 = 253_402_300_799.0; // 9999-12-31T23:59:59Z
    match epoch_s {
        Some(t) if (0.0..=LAST).contains(&t) => {
            let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(t as u64);
            let stamp = humantime::format_rfc3339_seconds(at).to_string();
            // `YYYY-MM-DDThh:mm:ssZ`: ASCII, so the first 7 bytes are `YYYY-MM`.
            stamp.get(..7).unwrap_or(NO_MONTH).to_string()
        }
        _ => NO_MONTH.to_string(),
    }
}

/// The bundle's key in the Parquet dataset (`bundles.id`, the child tables' `bundle_id`): the
/// first 15 hex digits of its content hash as an integer (60 bits, so never negative). The
/// same bundle gets the same key in every run and every job; two of a million bundles share one
/// with a probability under 10⁻⁶.
pub fn dataset_id(hash: &str) -> i64 {
    let digits: String = hash.chars().take(15).collect();
    i64::from_str_radix(&digits, 16).unwrap_or_else(|_| {
        // Not hex (the hash of an unreadable bundle is hex too; this is for other callers):
        // the same 60 bits of a SHA-256 of the text.
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(hash.as_bytes());
        let mut b = [0u8; 8];
        b.copy_from_slice(&h[..8]);
        (u64::from_be_bytes(b) >> 4) as i64
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::Outcome;
    use crate::diff::side::ArtifactOutcome;

    /// An artifact of 10 bytes of kind `iostat` with `outcome` and `issues`.
    fn artifact(path: &str, outcome: Outcome, issues: &[&str]) -> ArtifactOutcome {
        ArtifactOutcome {
            path: path.into(),
            kind: Some("iostat"),
            bytes: 10,
            outcome,
            issues: issues.len(),
            first_issue: issues.first().map(|i| i.to_string()),
        }
    }

    #[test]
    fn months_are_utc_and_odd_times_have_none() {
        // 2026-11-30T23:59:59Z and one second later.
        assert_eq!(month_of(Some(1_796_083_199.0)), "2026-11");
        assert_eq!(month_of(Some(1_796_083_200.0)), "2026-12");
        assert_eq!(month_of(Some(0.0)), "1970-01");
        for t in [
            None,
            Some(-1.0),
            Some(f64::NAN),
            Some(f64::INFINITY),
            Some(1e15),
        ] {
            assert_eq!(month_of(t), NO_MONTH, "{t:?}");
        }
    }

    #[test]
    fn the_dataset_id_is_the_hash_prefix_and_never_negative() {
        let h = "ffffffffffffffff0000000000000000000000000000000000000000000000aa";
        assert_eq!(dataset_id(h), 0x0fff_ffff_ffff_ffff);
        assert_eq!(dataset_id("0000000000000abc"), 0xab);
        assert!(dataset_id("not hex at all") >= 0);
        assert_eq!(dataset_id("not hex"), dataset_id("not hex"));
    }

    #[test]
    fn rows_weigh_findings_and_keep_one_feature_per_name() {
        let a = Analyzed {
            layout: "rca-collector".into(),
            host: Some("db01".into()),
            window: Some((1_796_083_199.0, 1_796_083_799.0)),
            findings: [(2, "mem.swap"), (1, "mem.swap"), (1, "disk.await")]
                .iter()
                .map(|(s, r)| FindingRow {
                    rule: r.to_string(),
                    severity: *s,
                    confidence: 1,
                    entity: "x.txt".into(),
                    title: "t".into(),
                    time: Some(("10:00:00".into(), "10:05:00".into())),
                    evidence: "[]".into(),
                })
                .collect(),
            features: vec![
                ("b".into(), Some(1.0), None),
                ("a".into(), None, Some("x".into())),
                ("b".into(), Some(2.0), None),
            ],
            artifacts: [
                artifact("a.txt", Outcome::Parsed, &[]),
                artifact(
                    "b.txt",
                    Outcome::Partial,
                    &["expected 14 columns, found 9", "x"],
                ),
                artifact(
                    "c.txt",
                    Outcome::Unusable {
                        reason: "é".repeat(300),
                    },
                    &["ignored: the outcome says why"],
                ),
                artifact(
                    "d.txt",
                    Outcome::NotCollected {
                        exit: Some(127),
                        timed_out: false,
                        note: "not found".into(),
                    },
                    &[],
                ),
                artifact(
                    "e.txt",
                    Outcome::Link {
                        target: "a.txt".into(),
                    },
                    &[],
                ),
                // The same path twice (a hostile bundle): kept once.
                artifact("a.txt", Outcome::Parsed, &[]),
            ]
            .iter()
            .map(ArtifactRow::new)
            .collect(),
            label: Some("slow pool".into()),
            ..Analyzed::default()
        };
        let labels = ["z".to_string(), "a".to_string(), "z".to_string()];
        let r = Rows::new("abc", "p.tgz", Ok(&a), &labels, 7);
        // mem.swap at its worst (critical, 4) once, disk.await (warning, 2).
        assert_eq!(r.bundle.finding_weight, 6.0);
        assert_eq!(r.bundle.status, OK);
        assert_eq!(r.month(), "2026-11");
        assert_eq!(
            r.findings.iter().map(|f| f.rank).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(r.findings[0].time_to.as_deref(), Some("10:05:00"));
        let names: Vec<(&str, Option<f64>)> = r
            .features
            .iter()
            .map(|f| (f.name.as_str(), f.num))
            .collect();
        assert_eq!(names, [("a", None), ("b", Some(2.0))]);
        let stored: Vec<(&str, &str)> = r
            .labels
            .iter()
            .map(|l| (l.label.as_str(), l.source))
            .collect();
        assert_eq!(
            stored,
            [
                ("a", LABEL_INDEX),
                ("slow pool", LABEL_COLLECTOR),
                ("z", LABEL_INDEX)
            ]
        );
        type Stored<'a> = (&'a str, &'a str, i64, Option<i64>, Option<&'a str>);
        let arts: Vec<Stored> = r
            .artifacts
            .iter()
            .map(|a| {
                let reason = a.reason.as_deref();
                let short = reason.filter(|r| r.chars().count() < 100);
                (
                    a.path.as_str(),
                    a.outcome.as_str(),
                    a.issues,
                    a.bytes,
                    short,
                )
            })
            .collect();
        assert_eq!(
            arts,
            [
                ("a.txt", "parsed", 0, Some(10), None),
                (
                    "b.txt",
                    "partial",
                    2,
                    Some(10),
                    Some("expected 14 columns, found 9")
                ),
                ("c.txt", "unusable", 1, Some(10), None),
                (
                    "d.txt",
                    "not-collected",
                    0,
                    Some(10),
                    Some("not found; exit status 127")
                ),
                ("e.txt", "link", 0, None, Some("a link to a.txt")),
            ]
        );
        let long = r.artifacts[2].reason.as_deref().unwrap();
        assert_eq!(long.chars().count(), REASON_MAX_CHARS);
        assert!(long.starts_with("éé") && long.ends_with('…'));
        assert_eq!(r.artifacts[1].kind.as_deref(), Some("iostat"));
        let counts: Vec<(&str, i64)> = r
            .outcomes
            .iter()
            .map(|o| (o.outcome.as_str(), o.artifacts))
            .collect();
        assert_eq!(
            counts,
            [
                ("link", 1),
                ("not-collected", 1),
                ("parsed", 1),
                ("partial", 1),
                ("unusable", 1)
            ]
        );

        let f = Rows::new("abc", "p.tgz", Err("cannot be read"), &labels, 7);
        assert_eq!(f.bundle.status, FAILED);
        assert!(f.artifacts.is_empty() && f.outcomes.is_empty());
        assert_eq!(f.labels.len(), 2, "the run's labels only");
        assert_eq!(f.bundle.error.as_deref(), Some("cannot be read"));
        assert!(f.findings.is_empty() && f.features.is_empty());
        assert_eq!(f.month(), NO_MONTH);
    }
}
