//! Rendering an analysis: the [`Report`] document (serialised as the JSON output), the HTML page
//! and the terminal summary all come from it.

pub mod charts;
pub mod coverage;
pub mod explain;
pub mod flame;
pub mod html;
pub mod markup;
pub mod page;
pub mod reference;
pub mod terminal;
pub mod viewer;

use crate::analysis::Analysis;
use crate::artifacts::{Artifact, Collected, Outcome};
use crate::bundle::{BundleError, Format, Limits, Refused};
use crate::evidence::Cited;
use crate::facts::profile::Profile;
use crate::facts::{HostFacts, Identity, Jvm, ZkServer};
use crate::rules::{Area, Evaluation, Finding, RuleResult, Severity, RULES};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Version of the JSON document's shape; raised on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The analysis of one bundle, as written by `--json`.
///
/// Fields:
/// - `schema_version`: [`SCHEMA_VERSION`].
/// - `tool`: `{name, version}` of the analyzer.
/// - `bundle`: `{path, format, entries, bytes_read, bytes_decoded, bytes_skipped, stopped,
///   refused: [{path, reason}], manifest, layout: {layout, root, marker}}`; `format` is one of
///   `tar-gz`, `gzip`, `tar`, `zip`, `directory`, `file`; `bytes_decoded` counts every byte a
///   decoder produced (kept, skipped or lost to an error), `bytes_skipped` the data of entries
///   that were not read; `stopped` says why reading ended early (the bundle was read only in
///   part), if it did; `warnings` lists
///   oddities that did not stop it; `layout` is the tool that wrote the bundle
///   (`rca-collector`, `sosreport`, `supportconfig`, `oswatcher`, `loose`), the folder its tree
///   starts at and the path that showed it.
/// - `host`: `{hostname, kernel_release, kernel_version, machine, os, cpus, sources}`.
/// - `jvms`: per JVM `{pid, dir, main, role, vendor, version, feature, build, vm_name,
///   heap_max_bytes, heap_initial_bytes, collector, args, gc: {samples, window_s, ygc, fgc, pause_s,
///   pause_share_pct, old_after_fgc[], old_last}, gc_log, top_classes[], pools[], threads}`; cited
///   values are `{value, artifact, lines[]}`.
/// - `zookeeper`: per server `{endpoint, client_port, version, watch_count, znode_count,
///   connections, wchs_total, wchs_summary, data_dir, data_log_dir, snap_count, jvm}` (`jvm` indexes
///   `jvms`).
/// - `profiles`: per CPU profile `{artifact, source_kind (perf script|perf report), event,
///   samples, idle_samples, busy_samples, kernel_pct, user_pct, top_symbols[], top_dsos[],
///   top_comms[] ({name, dso, samples, pct, lines[]}), modules[] ({module, self_samples,
///   inclusive_samples, self_pct, inclusive_pct, functions[], called_from[], lines[]}), locks,
///   sched, softirq ({samples, pct, lines[], by[]}), folded_dropped}`; shares are % of busy
///   (non-idle) samples.
/// - `window`: collection window `{start_utc, end_utc, duration_s, interval_s}` from the manifest.
/// - `findings`: ranked, each `{rule_id, area, title, severity (info|warning|critical), confidence
///   (low|medium|high), why, details[], score, time_range [first, last], evidence: [{artifact,
///   lines[], note, excerpt: [{line, text}]}]}`; an excerpt line 0 marks an elision.
/// - `rules`: every rule `{id, title, area, result: {status: findings|clear|not-evaluated, ...}}`.
/// - `artifacts`: every file `{path, kind, kind_source (manifest|path|content|link), bytes, outcome:
///   {status: parsed|partial|unusable|unrecognised|not-collected|too-large|parser-bug, ...},
///   issues: [{line, message}], record}` where `record` is the collector's manifest entry.
/// - `outcome_counts`: number of artifacts per outcome label.
/// - `collection`: `{meta: {...}, problems: [{path, kind, exit, timed_out, note, argv}],
///   incomplete: [reason]}` from the manifest; `incomplete` (optional for readers: documents
///   written before it was added lack it) lists why the collection is incomplete (the
///   collector's own reasons, an empty or truncated manifest, listed files missing from the
///   bundle), empty when it is whole.
/// - `platform` (optional for readers: documents written before it was added lack it):
///   `{virtualization, cpu_model, sockets, threads_per_core, numa_nodes, mem_total_kib,
///   swap_total_kib, swap_used_kib, uptime_s, taint}`, each a cited value `{value, artifact,
///   lines[]}` or null; `taint` is `[mask, letters]`.
/// - `conflicts`: host facts two artifacts state differently, `[{fact, taken, set_aside[]}]`,
///   each value cited `{value, artifact, lines[]}`; `taken` is the canonical source's.
/// - `charts` (optional for readers, like `platform`): the time series the HTML page draws,
///   see [`charts::Charts`]: `{axis: {origin_epoch, utc_offset_s, origin_local_s, start_s, end_s,
///   window_s, clock, dated}, cpu: {artifact, times[], per_column, column_s, rows: [{cpu, busy[],
///   soft[], iowait[]}]}, disk: {artifact, await_ms[], aqu_sz[], util_pct[], omitted}, nic:
///   {artifacts[], rx_kb_per_s[], tx_kb_per_s[], drops_per_s[], omitted}, softirq: {artifacts,
///   seconds, cpus[], types[]}, gc: [{jvm, artifact, old_pct, gc_time_pct, full_gcs[]}], swap:
///   {artifact, si, so}, marks: [{finding, rule_id, area, severity, from_s, to_s, segment}],
///   missing: [{chart, why}], segments: [{start_s, end_s, start_host, end_host, start_utc,
///   end_utc, label}]}`. A series is `{label, points: [[t, value|null]]}`; every `t` is seconds
///   from the collection window's start (`axis`); series are reduced to at most
///   [`charts::MAX_POINTS`] points (plus two per segment) keeping each bucket's lowest and
///   highest sample (min-max decimation, [`charts`]). `busy` is `100 − %idle − %iowait`. A mark's `finding` is the
///   1-based rank of the finding whose time range it shades, its `segment` the index of the
///   segment that holds it. `segments` are the runs of samples close together in time (one for
///   one capture; one per capture for captures hours or months apart), each drawn on its own
///   axis; `start_host`/`end_host` (host clock, `YYYY-MM-DDTHH:MM:SS`) are null when only the
///   time of day is known, `start_utc`/`end_utc` null without a collection window.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The analyzer that wrote the document.
    pub tool: Tool,
    /// Where the evidence came from and how reading it went.
    pub bundle: BundleInfo,
    /// Host name, kernel, OS, architecture, CPU count.
    pub host: Identity,
    /// The JVMs with evidence in the bundle.
    pub jvms: Vec<Jvm>,
    /// The ZooKeeper servers the bundle asked or configured.
    pub zookeeper: Vec<ZkServer>,
    /// CPU profiles (`perf script`, else `perf report`).
    pub profiles: Vec<Profile>,
    /// The collection window, from the collector's manifest.
    pub window: Option<Window>,
    /// Findings, ranked (severity, causes before their symptoms, score).
    pub findings: Vec<Finding>,
    /// Every rule and what it concluded.
    pub rules: Vec<RuleStatus>,
    /// Every file of the bundle with its kind and outcome.
    pub artifacts: Vec<Artifact>,
    /// Number of artifacts per outcome label (`parsed`, `partial` …).
    pub outcome_counts: BTreeMap<&'static str, usize>,
    /// What the collector recorded about its own run.
    pub collection: Collection,
    /// What the host runs on, for the summary.
    pub platform: Platform,
    /// The time series the page draws, on one time axis.
    pub charts: charts::Charts,
    /// Host facts that two artifacts state differently, with the value taken from the canonical
    /// source and the others set aside.
    pub conflicts: Vec<crate::facts::conflicts::Conflict>,
}

/// What the host runs on, for the summary.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Platform {
    /// `kvm`, `vmware`, `none` … (`systemd-detect-virt` and friends).
    pub virtualization: Option<Cited<String>>,
    /// CPU model name (`lscpu`).
    pub cpu_model: Option<Cited<String>>,
    /// Sockets.
    pub sockets: Option<Cited<u32>>,
    /// Threads per core (2 with SMT).
    pub threads_per_core: Option<Cited<u32>>,
    /// NUMA nodes.
    pub numa_nodes: Option<Cited<u32>>,
    /// `MemTotal`, KiB.
    pub mem_total_kib: Option<Cited<u64>>,
    /// `SwapTotal`, KiB.
    pub swap_total_kib: Option<Cited<u64>>,
    /// Swap in use, KiB (`SwapTotal − SwapFree`, else `free`'s `Swap:` used).
    pub swap_used_kib: Option<Cited<u64>>,
    /// Time since boot, seconds (`/proc/uptime`, else `uptime`).
    pub uptime_s: Option<Cited<f64>>,
    /// Kernel taint: mask and letters.
    pub taint: Option<Cited<(u64, String)>>,
}

/// Analyzer name and version.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Tool {
    /// `rca`.
    pub name: &'static str,
    /// The crate's version (`0.1.0`).
    pub version: &'static str,
}

/// Where the evidence came from and how reading went.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BundleInfo {
    /// The bundle as given on the command line.
    pub path: String,
    /// Archive format recognised by its magic bytes, or `directory` / `file`.
    pub format: Option<Format>,
    /// Entries read.
    pub entries: usize,
    /// Uncompressed bytes read.
    pub bytes_read: u64,
    /// Bytes every decoder produced, kept, skipped or lost to an error (what the total size
    /// limit and the ratio alarm bound).
    pub bytes_decoded: u64,
    /// Data of entries that were not read (refused entries, links or directories carrying
    /// data), read or decompressed only to be skipped.
    pub bytes_skipped: u64,
    /// Why reading ended early, if it did (a size limit, a corrupt archive).
    pub stopped: Option<String>,
    /// Oddities that did not stop reading (bytes after the end of the gzip data).
    pub warnings: Vec<String>,
    /// Entries not read, each with the reason (links, absolute paths, duplicates …).
    pub refused: Vec<Refused>,
    /// Path of the collector's manifest inside the bundle, if it has one.
    pub manifest: Option<String>,
    /// Which tool wrote the bundle, from its marker paths: `{layout (rca-collector|sosreport|
    /// supportconfig|oswatcher|loose), root, marker}`.
    pub layout: crate::layout::Detected,
    /// Set when the bundle was written by `rca redact`: what was pseudonymised or removed and
    /// which analyses that limits (its `redaction.json`); null otherwise.
    pub redaction: Option<crate::redact::Summary>,
}

/// The collection window (UTC).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Window {
    /// Start, UTC, RFC 3339.
    pub start_utc: String,
    /// End, UTC, RFC 3339.
    pub end_utc: String,
    /// Length, seconds.
    pub duration_s: f64,
    /// Sampling step, seconds, when the manifest gives it.
    pub interval_s: Option<f64>,
}

/// One rule and what it concluded.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct RuleStatus {
    /// Rule id (`disk.saturation`).
    pub id: &'static str,
    /// Rule title.
    pub title: &'static str,
    /// Rule area.
    pub area: Area,
    /// What it concluded: findings, clear, or not evaluated with the reason.
    pub result: RuleResult,
}

/// Why a bundle of `artifacts` whose rules concluded `results` could not be analyzed, if so
/// ([`Report::unanalyzable`]): no evidence artifact parsed, or no rule evaluated.
pub fn unanalyzable<'a>(
    artifacts: &[Artifact],
    mut results: impl Iterator<Item = &'a RuleResult>,
) -> Option<String> {
    let evidence = artifacts
        .iter()
        .filter(|a| a.kind.is_none_or(|k| k.evidence))
        .any(|a| matches!(a.outcome, Outcome::Parsed | Outcome::Partial));
    if !evidence {
        return Some("no artifact could be parsed (see the coverage section)".into());
    }
    let evaluated = results.any(|r| !matches!(r, RuleResult::NotEvaluated { .. }));
    (!evaluated).then(|| {
        "no rule could be evaluated with the evidence in it (see the rules section)".into()
    })
}

/// What the collector recorded about its own run.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Collection {
    /// The manifest's `meta` records, every key as written.
    pub meta: BTreeMap<String, String>,
    /// Commands that failed, timed out or were cut.
    pub problems: Vec<Problem>,
    /// Why the collection is incomplete ([`Collected::incomplete`]); empty when it is whole.
    /// A bundle with reasons here is never called healthy.
    pub incomplete: Vec<String>,
    /// The collector's own CPU time over its sampling window, as its manifest states it
    /// (collector 0.4.0).
    pub collector_cpu: Option<crate::manifest::CollectorCpu>,
}

/// A command the collector could not run cleanly.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// Artifact path.
    pub path: String,
    /// Kind named by the manifest.
    pub kind: String,
    /// Exit status, when the command ran.
    pub exit: Option<i32>,
    /// Stopped at the collector's time budget.
    pub timed_out: bool,
    /// The collector's note (`not found`, `permission denied` …).
    pub note: String,
    /// The command line, words joined by spaces.
    pub argv: String,
}

impl Report {
    /// Analyzes the bundle at `path` and assembles its document. Errors: the bundle cannot be
    /// opened or is in an unsupported format (see [`Analysis::run`]).
    pub fn analyze(path: &Path, limits: &Limits) -> Result<Report, BundleError> {
        let a = Analysis::run(path, limits)?;
        Ok(Report::new(path, a.collected, a.facts, a.eval))
    }

    /// Why the bundle could not be analyzed, if so: no evidence artifact parsed (the manifest
    /// and the collector's log do not count), or not a single rule could be evaluated.
    pub fn unanalyzable(&self) -> Option<String> {
        unanalyzable(&self.artifacts, self.rules.iter().map(|s| &s.result))
    }

    /// Assembles the document.
    pub fn new(path: &Path, c: Collected, facts: HostFacts, eval: Evaluation) -> Report {
        let mut outcome_counts = BTreeMap::new();
        for a in &c.artifacts {
            *outcome_counts.entry(a.outcome.label()).or_insert(0) += 1;
        }
        let mut collection = Collection {
            incomplete: c.incomplete.clone(),
            ..Collection::default()
        };
        if let Some(m) = &c.manifest {
            collection.meta = m.meta.raw.clone();
            collection.collector_cpu = m.meta.collector_cpu;
            collection.problems = m
                .artifacts
                .iter()
                .filter(|r| {
                    r.timed_out
                        || r.exit.is_some_and(|e| e != 0)
                        || r.exit.is_none()
                        || !r.note.is_empty()
                })
                .map(|r| Problem {
                    path: r.path.clone(),
                    kind: r.kind.clone(),
                    exit: r.exit,
                    timed_out: r.timed_out,
                    note: r.note.clone(),
                    argv: r.argv_text(),
                })
                .collect();
        }
        let window = facts.window.map(|(s, e)| Window {
            start_utc: utc(s),
            end_utc: utc(e),
            duration_s: ((e - s) * 10.0).round() / 10.0,
            interval_s: facts.interval_s,
        });
        let rules = RULES
            .iter()
            .map(|r| RuleStatus {
                id: r.meta.id,
                title: r.meta.title,
                area: r.meta.area,
                result: eval
                    .results
                    .iter()
                    .find(|(id, _)| *id == r.meta.id)
                    .map(|(_, res)| res.clone())
                    .unwrap_or(RuleResult::NotEvaluated {
                        reason: "not run".into(),
                    }),
            })
            .collect();
        let charts = charts::Charts::build(&facts, &eval.findings);
        let facts_conflicts = facts.conflicts.clone();
        let platform = Platform {
            virtualization: facts.kernel.virt.clone(),
            cpu_model: facts.platform.cpu_model.clone(),
            sockets: facts.platform.sockets.clone(),
            threads_per_core: facts.platform.threads_per_core.clone(),
            numa_nodes: facts.platform.numa_nodes.clone(),
            mem_total_kib: facts.memory.mem_total_kib.clone(),
            swap_total_kib: facts.memory.swap_total_kib.clone(),
            swap_used_kib: facts.memory.swap_used_kib.clone(),
            uptime_s: facts.platform.uptime_s.clone(),
            taint: facts.kernel.taint.clone(),
        };
        Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: "rca",
                version: env!("CARGO_PKG_VERSION"),
            },
            bundle: BundleInfo {
                path: path.display().to_string(),
                format: c.summary.format,
                entries: c.summary.entries,
                bytes_read: c.summary.bytes_read,
                bytes_decoded: c.summary.bytes_decoded,
                bytes_skipped: c.summary.bytes_skipped,
                stopped: c.summary.stopped.clone(),
                warnings: c.summary.warnings.clone(),
                refused: c.summary.refused.clone(),
                manifest: c.manifest_path.clone(),
                layout: c.layout.clone(),
                redaction: c.redaction.clone(),
            },
            host: facts.identity.clone(),
            jvms: facts.jvms,
            zookeeper: facts.zookeeper,
            profiles: facts.profiles,
            window,
            findings: eval.findings,
            rules,
            artifacts: c.artifacts,
            outcome_counts,
            collection,
            platform,
            charts,
            conflicts: facts_conflicts,
        }
    }

    /// Why the collection is incomplete, reasons joined by `; `, if it is. With no finding at
    /// warning or above, such a bundle is no clean bill of health: `rca analyze` exits 2.
    pub fn incomplete(&self) -> Option<String> {
        let why = &self.collection.incomplete;
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// Findings at warning or above (these decide the exit status).
    pub fn actionable(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .count()
    }

    /// Why the bundle holds too little evidence to call the host healthy, if so: it was read
    /// only in part (reading stopped early: a truncated or corrupt archive, a limit reached), or
    /// one of the areas in [`HEALTH_AREAS`] had no rule evaluated (each named with the reasons
    /// its rules give). A bundle without findings at warning or above but with such a gap is no
    /// clean bill of health: `rca analyze` exits 2 for it.
    pub fn evidence_gap(&self) -> Option<String> {
        if let Some(why) = &self.bundle.stopped {
            return Some(format!("the bundle was read only in part: {why}"));
        }
        let gaps: Vec<String> = HEALTH_AREAS
            .iter()
            .filter(|area| {
                !self.rules.iter().any(|s| {
                    s.area == **area && !matches!(s.result, RuleResult::NotEvaluated { .. })
                })
            })
            .map(|area| {
                let why: Vec<&str> = self
                    .rules
                    .iter()
                    .filter(|s| s.area == *area)
                    .filter_map(|s| match &s.result {
                        RuleResult::NotEvaluated { reason } => Some(reason.as_str()),
                        _ => None,
                    })
                    .take(2)
                    .collect();
                format!("{} ({})", area.label(), why.join("; "))
            })
            .collect();
        (!gaps.is_empty()).then(|| format!("nothing could be judged in {}", gaps.join(", ")))
    }
}

/// The areas in which a bundle must let at least one rule reach a verdict before rca calls the
/// host healthy: the resources every performance incident is looked for in first (the USE
/// method's CPU, memory, storage and network; Brendan Gregg, Systems Performance, 2nd ed.,
/// §2.5.9).
pub const HEALTH_AREAS: &[Area] = &[Area::Cpu, Area::Memory, Area::Disk, Area::Network];

/// `2024-05-01T12:00:01Z` from UTC epoch seconds.
pub fn utc(epoch: f64) -> String {
    let secs = epoch.floor() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

/// Reports over hand-made artifacts, for the page's tests.
#[cfg(test)]
pub(crate) mod testkit {
    use super::Report;
    use crate::artifacts::{Artifact, Collected, Outcome, Text};
    use parsers::kind::KindSpec;

    /// An artifact at `path` of `kind` with `outcome` and `text` (no parsed record).
    pub fn artifact(
        path: &str,
        kind: Option<&'static KindSpec>,
        outcome: Outcome,
        text: &Text,
    ) -> Artifact {
        Artifact {
            path: path.to_string(),
            kind,
            kind_source: None,
            bytes: text.len() as u64,
            outcome,
            issues: Vec::new(),
            record: None,
            text: text.clone(),
            kept_lines: None,
            data: None,
            origin: None,
        }
    }

    /// An unrecognised artifact.
    pub fn unrecognised(path: &str, text: &Text) -> Artifact {
        let o = Outcome::Unrecognised {
            reason: "no parser recognised the content".into(),
        };
        artifact(path, None, o, text)
    }

    /// A bundle of `artifacts` in no known layout, without a manifest.
    pub fn collected(artifacts: Vec<Artifact>) -> Collected {
        Collected {
            artifacts,
            manifest: None,
            manifest_path: None,
            summary: Default::default(),
            layout: crate::layout::Detected::loose(),
            incomplete: Vec::new(),
            redaction: None,
        }
    }

    /// The report of a bundle of `artifacts` (sorted by path), with no facts.
    pub fn report(mut artifacts: Vec<Artifact>) -> Report {
        artifacts.sort_by(|a, b| a.path.cmp(&b.path));
        let c = collected(artifacts);
        let facts = crate::facts::HostFacts::default();
        let eval = crate::rules::evaluate(&facts);
        Report::new(std::path::Path::new("b"), c, facts, eval)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc(1_709_251_199.9), "2024-02-29T23:59:59Z");
    }
}
