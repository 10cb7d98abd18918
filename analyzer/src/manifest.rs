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
//!
//! Whether the collection is whole ([`Manifest::gaps`]): `meta complete 0` (an interrupt, the
//! deadline, outputs lost to a full temp folder; `meta incomplete` says why, from collector
//! 0.3.0), an empty manifest (the collector could not write it), or a truncated one — fewer
//! artifact records than `meta records` declares (0.3.0), no `records` key from a 0.3.0
//! collector, a last record other than `collector.log`'s (which the collector, from 0.2.0 on,
//! writes last), or no `complete` key from any collector (every version writes it among its
//! first meta records).
//!
//! The collector's own CPU time over its sampling window ([`Meta::collector_cpu`], collector
//! 0.4.0): `meta cpu_window` (s), `collector_cpu_seconds`, `collector_cpu_percent` (of one CPU),
//! `samplers_cpu_seconds`, `perf_record_cpu_seconds`, all to 1/100.

use serde::Serialize;
use std::collections::BTreeMap;

/// Name of the manifest file inside a bundle (at the top or under one top folder).
pub const FILE_NAME: &str = "manifest.tsv";

/// The collector's own log, whose record the collector writes last.
pub const LOG_RECORD: &str = "collector.log";

/// A parsed manifest.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Manifest {
    /// Run metadata.
    pub meta: Meta,
    /// Artifact records in manifest order.
    pub artifacts: Vec<ManifestRecord>,
    /// Lines that could not be read, with 1-based line numbers.
    pub issues: Vec<parsers::LineIssue>,
    /// `artifact` lines met, also those set aside (repeated paths, too short, beyond the
    /// record limit): what `meta records` counts.
    pub record_lines: usize,
    /// The manifest holds no line at all (only blanks, or nothing).
    pub empty: bool,
    /// The path of the last `artifact` line, if it was whole (`None` when there is none, or the
    /// last one was cut short).
    pub last_record: Option<String>,
}

/// The collector's own CPU time over its sampling window (collector 0.4.0; `meta cpu_window`,
/// `collector_cpu_seconds`, `collector_cpu_percent`, `samplers_cpu_seconds`,
/// `perf_record_cpu_seconds`). The collector counts its shell and every command it waited for
/// from the samplers' start to their end, less the samplers' and perf record's own commands
/// (see `collector.sh`, "Overhead").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CollectorCpu {
    /// `cpu_window`: seconds from the samplers' start to the end of the last of them.
    pub window_s: f64,
    /// `collector_cpu_seconds`: user + system CPU seconds of the collector itself over the
    /// window (its shell, job bookkeeping, snapshots and host-fact commands).
    pub collector_s: f64,
    /// `collector_cpu_percent`: `collector_s / window_s × 100`, % of one CPU.
    pub collector_pct: f64,
    /// `samplers_cpu_seconds`: the samplers' CPU seconds (sysstat, jstat), perf record apart.
    pub samplers_s: Option<f64>,
    /// `perf_record_cpu_seconds`: perf record's CPU seconds; `None` when it did not run.
    pub perf_record_s: Option<f64>,
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
    /// `complete`: false when the run was interrupted, reached its deadline or could not write
    /// all its outputs.
    pub complete: Option<bool>,
    /// `collector_version`: the collector that wrote the manifest (`0.3.0`).
    pub collector_version: Option<String>,
    /// `incomplete` (collector 0.3.0): why `complete` is 0, reasons joined by `; `.
    pub incomplete: Option<String>,
    /// `records` (collector 0.3.0): how many artifact records the collector wrote after it.
    pub records: Option<usize>,
    /// The collector's own CPU time over its window (collector 0.4.0): set once the window,
    /// the collector's seconds and its percent are all numbers ≥ 0; `None` from older
    /// collectors and when the window never opened (the keys are written empty).
    pub collector_cpu: Option<CollectorCpu>,
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
            "collector_version" => self.collector_version = Some(value.trim().to_string()),
            "incomplete" => self.incomplete = Some(value.trim().to_string()),
            "records" => self.records = value.trim().parse().ok(),
            _ => {}
        }
        self.raw.insert(key.to_string(), value.to_string());
    }

    /// The [`CollectorCpu`] of the keys read, when its three required keys are numbers
    /// ≥ 0 (a negative or non-finite number is not one the collector writes).
    fn read_collector_cpu(&self) -> Option<CollectorCpu> {
        let get = |k: &str| {
            self.raw
                .get(k)?
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        Some(CollectorCpu {
            window_s: get("cpu_window")?,
            collector_s: get("collector_cpu_seconds")?,
            collector_pct: get("collector_cpu_percent")?,
            samplers_s: get("samplers_cpu_seconds"),
            perf_record_s: get("perf_record_cpu_seconds"),
        })
    }
}

impl Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(s)
    }
}

/// One `artifact` record.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
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
    #[schemars(with = "String")]
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
        m.empty = text.trim().is_empty();
        for (no, line) in parsers::common::numbered_lines(text) {
            if line.starts_with("artifact\t") || line == "artifact" {
                m.record_lines += 1;
                let f: Vec<&str> = line.split('\t').collect();
                m.last_record = (f.len() >= 11).then(|| f[1].trim_start_matches("./").to_string());
            }
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
        for why in m.truncation() {
            m.issues
                .push(parsers::LineIssue::of(parsers::IssueKind::Manifest, 0, why));
        }
        m.meta.collector_cpu = m.meta.read_collector_cpu();
        m
    }

    /// Why the manifest itself is not whole: empty, or cut short (see the module doc).
    fn truncation(&self) -> Vec<String> {
        let meta = &self.meta;
        let mut out = Vec::new();
        if self.empty {
            out.push("the manifest is empty: the collector could not write it, so nothing says what was collected".into());
            return out;
        }
        if meta.collector_version.is_some() && meta.complete.is_none() {
            out.push("the manifest stops before its `complete` record: it is truncated".into());
        }
        let Some(version) = meta.collector_version.as_deref() else {
            return out;
        };
        if meta.complete.is_none() {
            return out;
        }
        match meta.records {
            Some(n) if self.record_lines < n => out.push(format!(
                "the manifest holds {} of the {n} artifact records the collector wrote: it is truncated",
                self.record_lines
            )),
            None if version_at_least(version, (0, 3)) => out.push(format!(
                "the manifest of collector {version} has no `records` count: it is truncated"
            )),
            _ if version_at_least(version, (0, 2))
                && self.last_record.as_deref() != Some(LOG_RECORD) =>
            {
                out.push(format!(
                    "the manifest's last record is not `{LOG_RECORD}`'s, which the collector writes last: it is truncated"
                ))
            }
            _ => {}
        }
        out
    }

    /// Why the collection this manifest describes is incomplete, if it is: what the collector
    /// said (`meta complete 0`, with `meta incomplete`'s reasons) and what the manifest shows
    /// (empty or truncated). Empty for a whole collection and for manifests that say nothing
    /// either way (no `complete` key and no collector version: hand-made, or not rca's).
    pub fn gaps(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.meta.complete == Some(false) {
            out.push(match self.meta.incomplete.as_deref() {
                Some(why) if !why.is_empty() => format!("the collector says: {why}"),
                _ => "the collector says its run was interrupted (meta complete 0)".into(),
            });
        }
        out.extend(self.truncation());
        out
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

    /// Why the collector could not write the output in full, when its note says so (its last
    /// part, `write failed: <why>`, collector 0.3.0: a full temp folder).
    pub fn write_failed(&self) -> Option<&str> {
        const PART: &str = "write failed: ";
        self.note.strip_prefix(PART).or_else(|| {
            self.note
                .find(&format!("; {PART}"))
                .and_then(|at| self.note.get(at + 2 + PART.len()..))
        })
    }
}

/// Whether a version such as `0.3.0` is at least `(major, minor)`.
fn version_at_least(v: &str, (major, minor): (u64, u64)) -> bool {
    let mut parts = v.trim().split('.').map(|p| p.parse::<u64>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        (Some(a), None) => a > major,
        _ => false,
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

    /// An artifact record of `path`.
    fn rec(path: &str) -> String {
        format!("artifact\t{path}\tsoftirqs\t0\t0\t1\t2\t3\t0\t\tcat /{path}\n")
    }

    /// A manifest as collector 0.3.0 writes it, with `records` declaring `declared` records and
    /// the first `have` of them present (the last of all is collector.log's).
    fn v3(complete: &str, incomplete: &str, declared: usize, have: usize) -> String {
        let mut t = format!(
            "# rca-manifest 1\nmeta\tcollector_version\t0.3.0\nmeta\tcomplete\t{complete}\nmeta\tincomplete\t{incomplete}\nmeta\trecords\t{declared}\n"
        );
        for i in 0..have {
            t.push_str(
                &rec(if i + 1 == declared {
                    LOG_RECORD
                } else {
                    "proc/f"
                })
                .replace("proc/f", &format!("proc/f{i}")),
            );
        }
        t
    }

    /// A manifest as collector 0.2.0 writes it (no `records`), with these records.
    fn v2(paths: &[&str]) -> String {
        let mut t =
            String::from("# rca-manifest 1\nmeta\tcollector_version\t0.2.0\nmeta\tcomplete\t1\n");
        for p in paths {
            t.push_str(&rec(p));
        }
        t
    }

    #[test]
    fn a_whole_manifest_has_no_gaps() {
        let m = Manifest::parse(&v3("1", "", 2, 2), 100);
        assert_eq!(m.gaps(), Vec::<String>::new());
        assert!(m.issues.is_empty(), "{:?}", m.issues);
        assert_eq!(m.meta.records, Some(2));
        // A hand-made manifest (no collector version, no `complete`) says nothing either way.
        let m = Manifest::parse("# rca-manifest 1\nmeta\tstarted\t1\n", 100);
        assert!(m.gaps().is_empty());
    }

    #[test]
    fn the_collectors_own_reason_is_quoted() {
        let why =
            "no space left on device while writing sysstat/iostat-x.txt: 3 output(s) may be cut";
        let m = Manifest::parse(&v3("0", why, 1, 1), 100);
        assert_eq!(m.gaps(), [format!("the collector says: {why}")]);
        // Collector 0.2.0 had no reason: complete 0 meant an interrupt.
        let m = Manifest::parse(
            &v2(&[LOG_RECORD]).replace("complete\t1", "complete\t0"),
            100,
        );
        assert_eq!(
            m.gaps(),
            ["the collector says its run was interrupted (meta complete 0)"]
        );
    }

    #[test]
    fn an_empty_or_truncated_manifest_is_a_gap() {
        for empty in ["", "\n\n", "   "] {
            let m = Manifest::parse(empty, 100);
            assert!(
                m.gaps()[0].starts_with("the manifest is empty"),
                "{empty:?}"
            );
            assert_eq!(m.issues.len(), 1);
        }
        // Fewer records than declared; cut inside the meta records (no `records`, or not even
        // `complete`).
        let m = Manifest::parse(&v3("1", "", 5, 2), 100);
        assert_eq!(
            m.gaps(),
            ["the manifest holds 2 of the 5 artifact records the collector wrote: it is truncated"]
        );
        let cut = "# rca-manifest 1\nmeta\tcollector_version\t0.3.0\nmeta\tcomplete\t1\n";
        assert!(Manifest::parse(cut, 100).gaps()[0].contains("has no `records` count"));
        let cut = "# rca-manifest 1\nmeta\tcollector_version\t0.2.0\nmeta\thostname\tdb1\n";
        assert!(Manifest::parse(cut, 100).gaps()[0].contains("before its `complete` record"));
        // 0.2.0 wrote no `records`: its absence is no sign of a cut, but a last record other
        // than collector.log's is, also one cut within its line.
        assert!(Manifest::parse(&v2(&["proc/a", "collector.log"]), 100)
            .gaps()
            .is_empty());
        for cut in [
            v2(&["proc/a"]),
            v2(&[]),
            v2(&["proc/a", "collector.log"]).replace(
                "\tcollector.log\tsoftirqs\t0\t0\t1\t2\t3\t0\t\tcat /collector.log\n",
                "\tcollector.lo",
            ),
        ] {
            assert!(
                Manifest::parse(&cut, 100).gaps()[0]
                    .contains("last record is not `collector.log`'s"),
                "{cut}"
            );
        }
        // The short manifest a collector writes when the full one did not fit: its reason and
        // the missing records both count.
        let m = Manifest::parse(
            &v3(
                "0",
                "no space left on device while writing manifest.tsv",
                40,
                0,
            ),
            100,
        );
        assert_eq!(m.gaps().len(), 2, "{:?}", m.gaps());
        // Records set aside (a repeated path) still count as written.
        let t = v3("1", "", 3, 3).replace(
            "artifact\tproc/f1",
            &format!("{}artifact\tproc/f1", rec("proc/f0")),
        );
        let t = t.replace("records\t3", "records\t4");
        assert!(Manifest::parse(&t, 100).gaps().is_empty(), "{t}");
        assert!(Manifest::parse(&t, 1).gaps().is_empty());
    }

    #[test]
    fn reads_the_collectors_own_cpu_time() {
        let head = "# rca-manifest 1\nmeta\tcollector_version\t0.4.0\nmeta\tcomplete\t1\n";
        let t = format!("{head}meta\tcpu_window\t61.37\nmeta\tcollector_cpu_seconds\t0.52\nmeta\tcollector_cpu_percent\t0.84\nmeta\tsamplers_cpu_seconds\t1.90\nmeta\tperf_record_cpu_seconds\t\n");
        let cpu = Manifest::parse(&t, 10).meta.collector_cpu.expect("read");
        assert_eq!(
            cpu,
            CollectorCpu {
                window_s: 61.37,
                collector_s: 0.52,
                collector_pct: 0.84,
                samplers_s: Some(1.9),
                perf_record_s: None,
            }
        );
        // Written empty (the window never opened), negative or absent (an older collector).
        for t in [
            t.replace("\t0.52\n", "\t\n"),
            t.replace("\t0.84\n", "\t-0.84\n"),
            t.replace("cpu_window", "other"),
            head.to_string(),
        ] {
            assert_eq!(Manifest::parse(&t, 10).meta.collector_cpu, None, "{t}");
        }
    }

    #[test]
    fn versions_compare_by_number() {
        assert!(version_at_least("0.3.0", (0, 3)));
        assert!(version_at_least("0.10.1", (0, 3)));
        assert!(version_at_least("1", (0, 3)));
        assert!(!version_at_least("0.2.9", (0, 3)));
        assert!(!version_at_least("x", (0, 3)));
    }

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
