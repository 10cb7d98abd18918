//! The collector's manifest, `manifest.tsv`: one record per artifact plus run metadata.
//!
//! Format (written by `collector.sh`; fields separated by one TAB, shown here as `→`; the first
//! field is the record type):
//! ```text
//! # rca-manifest 1
//! meta → hostname → db1
//! artifact → <path> → <kind> → <exit> → <timed_out> → <start> → <end> → <bytes> → <truncated> → <note> → <argv>
//! ```
//! `exit` is the command's exit status (124 timed out, 126 not runnable, 127 not found; empty
//! when never started), `start`/`end` are UTC epoch seconds (fractions allowed), `timed_out` and
//! `truncated` are 0/1. Unknown record types and extra fields are ignored so newer collectors
//! stay readable.

use serde::Serialize;
use std::collections::BTreeMap;

/// Name of the manifest file inside a bundle (at the top or under one top folder).
pub const FILE_NAME: &str = "manifest.tsv";

/// A parsed manifest.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Manifest {
    /// Run metadata.
    pub meta: Meta,
    /// Artifact records in manifest order.
    pub artifacts: Vec<ManifestRecord>,
    /// Lines that could not be read, with 1-based line numbers.
    pub issues: Vec<parsers::LineIssue>,
}

/// The run metadata (`meta` records): the keys rca reads, typed, and every key as written.
///
/// Serialised as the map of every key to its text, as written.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// `hostname`: `uname -n`, unsanitised.
    pub hostname: Option<String>,
    /// `kernel`: `uname -r`.
    pub kernel: Option<String>,
    /// `machine`: `uname -m`.
    pub machine: Option<String>,
    /// `started`: UTC epoch seconds of the run's start.
    pub started: Option<f64>,
    /// `ended`: UTC epoch seconds of the run's end.
    pub ended: Option<f64>,
    /// `duration`: the sampling window, seconds.
    pub duration: Option<f64>,
    /// `interval`: the sampling step, seconds.
    pub interval: Option<f64>,
    /// `complete`: false when the run was interrupted.
    pub complete: Option<bool>,
    /// Every `meta` key and its value as written, later keys included.
    pub raw: BTreeMap<String, String>,
}

impl Meta {
    /// Records `key` = `value` and reads it into its typed field if rca knows the key. A number
    /// that does not parse, or is not finite, is left unset.
    fn set(&mut self, key: &str, value: &str) {
        let num = || value.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        match key {
            "hostname" => self.hostname = Some(value.to_string()),
            "kernel" => self.kernel = Some(value.to_string()),
            "machine" => self.machine = Some(value.to_string()),
            "started" => self.started = num(),
            "ended" => self.ended = num(),
            "duration" => self.duration = num(),
            "interval" => self.interval = num(),
            "complete" => self.complete = Some(value.trim() == "1"),
            _ => {}
        }
        self.raw.insert(key.to_string(), value.to_string());
    }
}

impl Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(s)
    }
}

/// One `artifact` record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestRecord {
    /// Path relative to the bundle's top folder.
    pub path: String,
    /// Artifact kind (`iostat`, `softirqs`, ...).
    pub kind: String,
    /// Exit status of the command, when it ran.
    pub exit: Option<i32>,
    /// The command was stopped by its time budget.
    pub timed_out: bool,
    /// Start time, UTC epoch seconds.
    pub start: Option<f64>,
    /// End time, UTC epoch seconds.
    pub end: Option<f64>,
    /// Output size, bytes.
    pub bytes: Option<u64>,
    /// Output was cut at the collector's size cap.
    pub truncated: bool,
    /// Free-text note (`not found`, `permission denied`, ...).
    pub note: String,
    /// The command's words (`cat`, `/proc/softirqs`); serialised as the manifest writes them,
    /// joined by single spaces.
    #[serde(serialize_with = "joined")]
    pub argv: Vec<String>,
}

impl Manifest {
    /// Parses manifest text; never fails (unreadable lines become issues). At most
    /// `max_records` artifact records are kept (the bundle's entry limit: a manifest cannot
    /// describe more files than may be read); a repeated path keeps its first record.
    pub fn parse(text: &str, max_records: usize) -> Manifest {
        let mut m = Manifest::default();
        let mut paths = std::collections::HashSet::new();
        let mut dropped = 0usize;
        for (no, line) in parsers::common::numbered_lines(text) {
            if let Some(v) = line.trim().strip_prefix("# rca-manifest ") {
                if v.trim() != "1" {
                    m.issues.push(parsers::LineIssue::of(
                        parsers::IssueKind::Manifest,
                        no,
                        format!(
                            "manifest format `{}` is not the one this rca reads (1): records read as format 1",
                            v.trim()
                        ),
                    ));
                }
                continue;
            }
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            match f[0] {
                "meta" if f.len() >= 3 => m.meta.set(f[1], &f[2..].join("\t")),
                "artifact" if f.len() >= 11 => {
                    let path = f[1].trim_start_matches("./").to_string();
                    if m.artifacts.len() >= max_records {
                        dropped += 1;
                        continue;
                    }
                    if !paths.insert(path.clone()) {
                        m.issues.push(parsers::LineIssue::of(
                            parsers::IssueKind::Manifest,
                            no,
                            format!("a second record for `{path}`: ignored"),
                        ));
                        continue;
                    }
                    m.artifacts.push(ManifestRecord {
                        path,
                        kind: f[2].to_string(),
                        exit: f[3].trim().parse().ok(),
                        timed_out: f[4].trim() == "1",
                        start: f[5].trim().parse().ok().filter(|v: &f64| v.is_finite()),
                        end: f[6].trim().parse().ok().filter(|v: &f64| v.is_finite()),
                        bytes: f[7].trim().parse().ok(),
                        truncated: f[8].trim() == "1",
                        note: f[9].to_string(),
                        argv: f[10..].join(" ").split(' ').map(str::to_string).collect(),
                    })
                }
                "meta" | "artifact" => m.issues.push(parsers::LineIssue::of(
                    parsers::IssueKind::Manifest,
                    no,
                    format!("`{}` record with {} fields is too short", f[0], f.len()),
                )),
                _ => {}
            }
        }
        if dropped > 0 {
            m.issues.push(parsers::LineIssue::of(
                        parsers::IssueKind::Capped,
                0,
                format!("{dropped} artifact records beyond the first {max_records} were ignored (raise with --max-entries)"),
            ));
        }
        m
    }

    /// The record for a bundle path (given relative to the manifest's folder).
    pub fn record(&self, rel_path: &str) -> Option<&ManifestRecord> {
        self.artifacts.iter().find(|r| r.path == rel_path)
    }
}

impl ManifestRecord {
    /// The command line as the manifest writes it: the words joined by single spaces.
    pub fn argv_text(&self) -> String {
        self.argv.join(" ")
    }
}

fn joined<S: serde::Serializer>(argv: &[String], s: S) -> Result<S::Ok, S::Error> {
    argv.join(" ").serialize(s)
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_unknown_format_and_non_finite_times_are_flagged_or_dropped() {
        let m = Manifest::parse(
            "# rca-manifest 999\nmeta\tstarted\tNaN\nmeta\tended\t-1e400\nartifact\ta\tps\t0\t0\tinf\t1\t3\t0\t\tps\n",
            10,
        );
        assert!(m
            .issues
            .iter()
            .any(|i| i.line == 1 && i.message.contains("`999`")));
        assert_eq!(m.meta.started, None);
        assert_eq!(m.meta.ended, None);
        assert_eq!(m.artifacts[0].start, None);
        assert_eq!(m.artifacts[0].end, Some(1.0));
    }

    use super::*;

    #[test]
    fn reads_records_and_flags_short_lines() {
        let text = "# rca-manifest 1\nmeta\thostname\tdb1\nartifact\tproc/softirqs.start\tsoftirqs\t0\t0\t1700000000.5\t1700000000.6\t2048\t0\t\tcat /proc/softirqs\nartifact\tbroken\nartifact\tproc/softirqs.start\tsoftirqs\t0\t0\t1\t2\t3\t0\t\tagain\n";
        let m = Manifest::parse(text, 100);
        assert_eq!(m.meta.raw["hostname"], "db1");
        assert_eq!(m.meta.hostname.as_deref(), Some("db1"));
        assert_eq!(m.artifacts.len(), 1);
        assert_eq!(m.artifacts[0].start, Some(1700000000.5));
        assert_eq!(m.artifacts[0].argv, ["cat", "/proc/softirqs"]);
        assert_eq!(m.artifacts[0].argv_text(), "cat /proc/softirqs");
        assert_eq!(m.issues.len(), 2);
        assert_eq!(m.issues[0].line, 4);
        assert!(m.issues[1].message.contains("second record"));
        assert_eq!(Manifest::parse(text, 0).artifacts.len(), 0);
    }
}
