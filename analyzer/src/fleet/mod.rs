//! Fleet view: peer hosts that should look alike, each compared with the rest (`rca fleet`).
//!
//! In: N bundles (any form `analyze` accepts), analyzed in parallel; only each host's features
//! and findings are kept, never the artifacts' text. Out: [`FleetReport`]: hosts ranked by how
//! much they deviate from their peers, each with its reasons, and the facts on which some host
//! stands out.
//!
//! The pipeline: [`load`] (bundles → facts and findings, in parallel, each within its deadline)
//! → [`features::extract`]
//! (facts → named numbers and categories) → [`compare`]: for each number, robust outliers by
//! modified z-score ([`robust`]); for each category, the hosts that differ from a strict
//! majority → each deviation scored with the weights of `rca diff`
//! ([`crate::diff::score`]) → hosts ranked.
//!
//! A host's deviation is the sum of its reasons' scores with harmonic decay (the strongest counts
//! fully, the second half, the third a third …): one strong reason outranks many weak ones, yet
//! independent deviations still add up. Reasons under [`score::NOISE_SCORE`] are dropped.

pub mod features;
pub mod robust;

use crate::bundle::{self, Format, Limits};
use crate::diff::score::{self, Weight};
use crate::diff::side::{self, SideSummary};
use crate::layout;
use features::{Features, ABSENT, SET_FAMILIES};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Version of the fleet JSON document's shape; raised on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// Reasons shown per host before the rest are folded.
pub const TOP_REASONS: usize = 5;

/// One analyzed host: what the report shows about it and its features.
#[derive(Debug)]
pub struct Host {
    /// Bundle, identity, findings.
    pub summary: SideSummary,
    /// Features for comparison.
    pub features: Features,
}

/// A bundle that could not be read at all, or not analyzed within its deadline: not compared.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Failed {
    /// The bundle path.
    pub path: String,
    /// Why (`analysis exceeded 300 s` when [`Failed::timed_out`]).
    pub error: String,
    /// The analysis did not finish within the deadline (`rca fleet --bundle-timeout`).
    pub timed_out: bool,
}

/// An entry of a fleet folder that is not a bundle, and why it was left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Skipped {
    /// The entry's path.
    pub path: String,
    /// Why it is not a bundle (`plain text, not a bundle archive`, `symbolic link: not
    /// followed`).
    pub note: String,
}

/// What the command line names: the bundles to compare, and the entries of a fleet folder that
/// were left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expanded {
    /// Bundles, in name order for a folder, in argument order otherwise.
    pub bundles: Vec<PathBuf>,
    /// Entries of the folder that are not bundles, each with why.
    pub skipped: Vec<Skipped>,
}

/// The bundles named by the command line.
///
/// A single directory argument without a `manifest.tsv` is a fleet folder: every entry directly
/// inside it, in name order, is a bundle or is skipped with a note. A bundle is an archive file
/// by its content ([`bundle::sniff_file`]: a tar, compressed with gzip, xz, zstd or bzip2 or not,
/// or a zip), or a bundle folder: one with a `manifest.tsv` (the collector's), one holding a
/// single archive beside checksum files (a ticket folder; `analyze` reads it as that archive),
/// or one holding at least one file at a place a bundle layout names (an unpacked sosreport, a
/// folder of loose command outputs). A folder holding bundles directly inside it (a sample's
/// `baseline/` and `suspect/`, or archives) contributes those instead, its other entries skipped
/// with notes. Hidden entries and symbolic links are skipped (a link could lead anywhere on the
/// analyzing machine). Otherwise each argument is a bundle, a path named twice counting once.
/// Errors: the folder cannot be listed.
pub fn expand(args: &[PathBuf]) -> Result<Expanded, String> {
    if let [one] = args {
        if one.is_dir() && !one.join("manifest.tsv").exists() {
            let mut out = Expanded::default();
            for p in listing(one)? {
                match classify(&p) {
                    Class::Bundle => out.bundles.push(p),
                    Class::Holds(inner) => {
                        for q in listing(&p)? {
                            if inner.contains(&q) {
                                out.bundles.push(q);
                            } else {
                                let note = match classify(&q) {
                                    Class::Skip(note) => note,
                                    _ => "inside a folder of bundles, not one itself".into(),
                                };
                                out.skipped.push(skipped(&q, note));
                            }
                        }
                    }
                    Class::Skip(note) => out.skipped.push(skipped(&p, note)),
                }
            }
            return Ok(out);
        }
    }
    // The same bundle named twice would vote twice for the majority.
    let mut seen = std::collections::HashSet::new();
    Ok(Expanded {
        bundles: args
            .iter()
            .filter(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())))
            .cloned()
            .collect(),
        skipped: Vec::new(),
    })
}

fn skipped(p: &Path, note: String) -> Skipped {
    Skipped {
        path: p.display().to_string(),
        note,
    }
}

/// What an entry of a fleet folder is.
enum Class {
    /// A bundle.
    Bundle,
    /// A folder holding these bundles directly inside it.
    Holds(Vec<PathBuf>),
    /// Not a bundle, and why.
    Skip(String),
}

/// The entries of `dir` in name order.
fn listing(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    v.sort();
    Ok(v)
}

/// Most files looked at in a folder for one at a place a bundle layout names.
const MAX_LOOKED_AT: usize = 10_000;

fn classify(p: &Path) -> Class {
    let hidden = p
        .file_name()
        .map(|n| n.as_encoded_bytes().starts_with(b"."))
        .unwrap_or(false);
    if hidden {
        return Class::Skip("hidden entry".into());
    }
    let Ok(meta) = p.symlink_metadata() else {
        return Class::Skip("cannot be read".into());
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        return Class::Skip(
            "symbolic link: not followed (it could lead anywhere on this machine)".into(),
        );
    }
    if ft.is_file() {
        return match bundle::sniff_file(p) {
            Ok(f) if f.is_archive() => Class::Bundle,
            Ok(Format::File) if meta.len() == 0 => Class::Skip("empty file".into()),
            Ok(Format::File) => {
                // The name only words the note: a file is a bundle by its content.
                let name = p.to_string_lossy().to_ascii_lowercase();
                let named = [
                    ".tar", ".tgz", ".tar.gz", ".zip", ".txz", ".tar.xz", ".tar.zst", ".tzst",
                    ".tar.bz2", ".tbz2",
                ]
                .iter()
                .any(|s| name.ends_with(s));
                Class::Skip(format!(
                    "{} (neither tar, compressed tar, nor zip)",
                    if named {
                        "named like an archive, but its content is not one"
                    } else {
                        "not a bundle archive"
                    }
                ))
            }
            Ok(f) => Class::Skip(format!(
                "a single {}-compressed file, not a bundle archive",
                f.label()
            )),
            Err(e) => Class::Skip(format!("cannot be read: {e}")),
        };
    }
    if !ft.is_dir() {
        return Class::Skip("device, socket or FIFO".into());
    }
    if p.join("manifest.tsv").is_file() || bundle::single_archive(p).is_some() {
        return Class::Bundle;
    }
    let inner: Vec<PathBuf> = listing(p)
        .unwrap_or_default()
        .into_iter()
        .filter(|q| {
            let named = q
                .file_name()
                .is_some_and(|n| !n.as_encoded_bytes().starts_with(b"."));
            let Ok(m) = q.symlink_metadata() else {
                return false;
            };
            named
                && ((m.is_file() && bundle::sniff_file(q).is_ok_and(|f| f.is_archive()))
                    || (m.is_dir() && q.join("manifest.tsv").is_file()))
        })
        .collect();
    if !inner.is_empty() {
        return Class::Holds(inner);
    }
    if holds_layout_path(p) {
        return Class::Bundle;
    }
    Class::Skip(
        "a folder with no bundle: no manifest.tsv, no archive, and no file at a place a bundle \
         layout names"
            .into(),
    )
}

/// True when a file under `root` (links not followed, at most [`MAX_LOOKED_AT`] entries looked
/// at) has a path that a bundle layout names ([`layout::by_path`]).
fn holds_layout_path(root: &Path) -> bool {
    let mut stack = vec![(root.to_path_buf(), String::new())];
    let mut looked = 0;
    while let Some((dir, rel)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            looked += 1;
            if looked > MAX_LOOKED_AT {
                return false;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push((e.path(), path)),
                Ok(t) if t.is_file() && layout::by_path(&path).is_some() => return true,
                _ => {}
            }
        }
    }
    false
}

/// How long one bundle's analysis may take unless `rca fleet --bundle-timeout` says otherwise.
pub const DEFAULT_BUNDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// Analyzes every bundle in parallel, at most `jobs` at once (`0`: as many as rayon has threads,
/// which is the number of CPUs unless `RAYON_NUM_THREADS` says otherwise), each within `timeout`
/// from the start of its own analysis. Memory is bounded by `jobs` analyses, not by the number
/// of bundles: each analysis keeps only its host's summary and features once done. Bundles that cannot be opened, or whose analysis
/// does not finish in time, are returned as [`Failed`] (`timed_out` for the latter); the others
/// are compared without them.
///
/// Each bundle is analyzed on a thread of its own, which its worker stops waiting for at the
/// deadline. That analysis parses no entry after the deadline and ends soon after it; one
/// parse already under way runs to its end, and a process that is done exits without waiting
/// for it. A zero `timeout` stops every analysis before it opens its bundle.
pub fn load(
    paths: &[PathBuf],
    limits: &Limits,
    timeout: Duration,
    jobs: usize,
) -> (Vec<Host>, Vec<Failed>) {
    let limits = limits.clone();
    load_with(
        paths,
        timeout,
        jobs,
        Arc::new(move |p: &Path, deadline: Instant| {
            match side::load_until(p, &limits, false, deadline) {
                Ok(Some(s)) => Loaded::Host(Box::new(Host {
                    features: features::extract(&s.facts, s.findings()),
                    summary: s.summary,
                })),
                Ok(None) => Loaded::Exceeded,
                Err(e) => Loaded::Failed(e.to_string()),
            }
        }),
    )
}

/// What one bundle's analysis gave.
enum Loaded {
    Host(Box<Host>),
    Failed(String),
    Exceeded,
}

/// Analyzes a bundle, giving up at the deadline.
type Analyze = Arc<dyn Fn(&Path, Instant) -> Loaded + Send + Sync>;

/// Longest deadline kept: later ones are this far away (an `Instant` cannot hold any).
const MAX_TIMEOUT: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// The instant `timeout` from now, for one bundle's analysis (`--bundle-timeout`); a timeout
/// too large to add to now (`1000y`) is capped at a hundred years, in effect no deadline.
pub fn deadline_after(timeout: Duration) -> Instant {
    Instant::now() + timeout.min(MAX_TIMEOUT)
}

fn load_with(
    paths: &[PathBuf],
    timeout: Duration,
    jobs: usize,
    analyze: Analyze,
) -> (Vec<Host>, Vec<Failed>) {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Host, Failed>>>> =
        Mutex::new((0..paths.len()).map(|_| None).collect());
    let jobs = if jobs == 0 {
        rayon::current_num_threads()
    } else {
        jobs
    };
    let workers = jobs.clamp(1, paths.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = paths.get(i) else { break };
                let r = within(p, timeout, &analyze);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    let mut hosts = Vec::new();
    let mut failed = Vec::new();
    for r in results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
    {
        match r {
            Ok(h) => hosts.push(h),
            Err(f) => failed.push(f),
        }
    }
    (hosts, failed)
}

/// One bundle's analysis on a thread of its own, waited for until its deadline.
fn within(p: &Path, timeout: Duration, analyze: &Analyze) -> Result<Host, Failed> {
    let failed = |error: String, timed_out| Failed {
        path: p.display().to_string(),
        error,
        timed_out,
    };
    let exceeded = || failed(format!("analysis exceeded {}", seconds(timeout)), true);
    let deadline = deadline_after(timeout);
    let (tx, rx) = mpsc::channel();
    let (analyze, path) = (analyze.clone(), p.to_path_buf());
    let started = std::thread::Builder::new()
        .name("rca-bundle".into())
        .spawn(move || {
            // The receiver is gone when the deadline passed first: nothing to tell.
            let _ = tx.send(analyze(&path, deadline));
        });
    if let Err(e) = started {
        return Err(failed(
            format!("its analysis could not be started: {e}"),
            false,
        ));
    }
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Loaded::Host(h)) => Ok(*h),
        Ok(Loaded::Failed(e)) => Err(failed(e, false)),
        Ok(Loaded::Exceeded) | Err(RecvTimeoutError::Timeout) => Err(exceeded()),
        Err(RecvTimeoutError::Disconnected) => Err(failed(
            "rca failed while analyzing it (an internal error, please report it)".into(),
            false,
        )),
    }
}

/// A duration in seconds, as the terminal and the page show a deadline: `300 s`, `0.25 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Why one host stands out.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Reason {
    /// The feature (`module: resguard_linux`, `cpu: mean %soft`).
    pub fact: String,
    /// Area of the kind.
    pub area: &'static str,
    /// Kind (a weight id of `rca diff`).
    pub kind: &'static str,
    /// This host's value.
    pub value: String,
    /// The fleet's value: the majority value, or the median.
    pub fleet: String,
    /// Modified z-score, for numbers.
    pub z: Option<f64>,
    /// Hosts sharing this host's value and hosts with the fact, for categories.
    pub share: Option<(usize, usize)>,
    /// Weight × magnitude.
    pub score: f64,
    /// One line.
    pub reason: String,
    /// Artifact and lines the value was read from on this host.
    pub artifact: Option<String>,
    /// Lines.
    pub lines: Vec<usize>,
}

/// One host of the fleet, ranked.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct HostReport {
    /// 1-based rank (most deviant first).
    pub rank: usize,
    /// Display label (host name, else bundle file name), unique in the fleet.
    pub label: String,
    /// Bundle, identity and findings.
    pub summary: SideSummary,
    /// Sum of reason scores with harmonic decay.
    pub deviation: f64,
    /// Reasons above the noise threshold, strongest first.
    pub reasons: Vec<Reason>,
}

/// A number on which some host is an outlier.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct NumericFact {
    /// Feature name.
    pub fact: String,
    /// Unit.
    pub unit: &'static str,
    /// Hosts with a value.
    pub hosts: usize,
    /// Median, MAD and mean absolute deviation.
    pub spread: robust::Spread,
    /// Outliers: `(label, value, modified z)`.
    pub outliers: Vec<(String, f64, f64)>,
}

/// A category on which some host differs from the majority.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CategoricalFact {
    /// Feature name.
    pub fact: String,
    /// Hosts with a value.
    pub hosts: usize,
    /// The majority value.
    pub majority: String,
    /// Hosts holding it.
    pub majority_hosts: usize,
    /// Hosts that differ: `(label, value)`.
    pub deviants: Vec<(String, String)>,
}

/// How the fleet was compared (constants, for the report).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Method {
    /// `|modified z| >` this marks a numeric outlier.
    pub z_threshold: f64,
    /// Fewest hosts with a fact before it is compared.
    pub min_hosts: usize,
    /// Reasons under this score are dropped.
    pub noise_threshold: f64,
}

/// The fleet comparison, as written by `rca fleet --json`.
///
/// Fields:
/// - `schema_version`: [`SCHEMA_VERSION`]; `tool`: `{name, version}`.
/// - `method`: `{z_threshold, min_hosts, noise_threshold}`.
/// - `hosts`: ranked, each `{rank, label, deviation, summary: {path, hostname, kernel_release,
///   os, cpus, format, entries, outcome_counts, unanalyzable, findings[]}, reasons: [{fact, area,
///   kind, value, fleet, z, share: [same, of], score, reason, artifact, lines[]}]}`; `z` is set
///   for numbers, `share` for categories.
/// - `numeric`: facts with outliers `{fact, unit, hosts, spread: {median, mad, mean_ad},
///   outliers: [[label, value, z]]}`.
/// - `categorical`: facts with deviants `{fact, hosts, majority, majority_hosts, deviants:
///   [[label, value]]}`.
/// - `failed`: bundles that could not be read, or not analyzed within the deadline, so not
///   compared: `{path, error, timed_out}`.
/// - `skipped`: entries of a fleet folder that are not bundles `{path, note}` (see [`expand`]).
/// - `deviating`: hosts whose deviation is at or above the noise threshold.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct FleetReport {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The analyzer that wrote the document.
    pub tool: crate::report::Tool,
    /// How outliers and deviants are decided (thresholds, scores).
    pub method: Method,
    /// Every host, most deviating first, with its reasons.
    pub hosts: Vec<HostReport>,
    /// Numeric facts with outliers.
    pub numeric: Vec<NumericFact>,
    /// Categorical facts with deviants.
    pub categorical: Vec<CategoricalFact>,
    /// Bundles that could not be read, or not analyzed in time.
    pub failed: Vec<Failed>,
    /// Entries of a fleet folder that are not bundles (set by the caller from [`Expanded`]).
    pub skipped: Vec<Skipped>,
    /// Hosts whose deviation is at or above the noise threshold.
    pub deviating: usize,
}

impl FleetReport {
    /// Why the fleet is incomplete: bundles that could not be read or analyzed (in time).
    pub fn incomplete(&self) -> Option<String> {
        let mut why: Vec<String> = self
            .failed
            .iter()
            .map(|f| format!("{}: {}", f.path, f.error))
            .collect();
        for h in &self.hosts {
            if let Some(u) = &h.summary.unanalyzable {
                why.push(format!("{}: {u}", h.summary.path));
            }
        }
        (!why.is_empty()).then(|| why.join("; "))
    }
}

/// Unique display labels: host names, else (or when repeated) bundle file names, numbered when
/// still repeated.
fn labels(hosts: &[Host]) -> Vec<String> {
    let file = |h: &Host| {
        Path::new(&h.summary.path)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| h.summary.path.clone())
    };
    let mut v: Vec<String> = hosts
        .iter()
        .map(|h| h.summary.hostname.clone().unwrap_or_else(|| file(h)))
        .collect();
    for i in 0..v.len() {
        if v.iter().filter(|x| **x == v[i]).count() > 1 {
            let same: Vec<usize> = (0..v.len()).filter(|&j| v[j] == v[i]).collect();
            for j in same {
                v[j] = file(&hosts[j]);
            }
        }
    }
    for i in 0..v.len() {
        let same: Vec<usize> = (0..v.len()).filter(|&j| v[j] == v[i]).collect();
        if same.len() > 1 {
            for (k, j) in same.into_iter().enumerate() {
                v[j] = format!("{} #{}", v[j], k + 1);
            }
        }
    }
    v
}

fn fmt(v: f64, unit: &str) -> String {
    let n = if v == v.trunc() && v.abs() < 1e12 {
        format!("{}", v as i64)
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    };
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

/// Deviation of a host from its reasons' scores, strongest first: `Σ score_i / i`.
pub fn deviation(scores_desc: &[f64]) -> f64 {
    let d: f64 = scores_desc
        .iter()
        .enumerate()
        .map(|(i, s)| s / (i + 1) as f64)
        .sum();
    // `+ 0.0` turns the empty sum's -0 into 0.
    (d * 10.0).round() / 10.0 + 0.0
}

/// Compares the hosts with each other.
pub fn compare(hosts: Vec<Host>, failed: Vec<Failed>) -> FleetReport {
    let label = labels(&hosts);
    let usable: Vec<usize> = (0..hosts.len())
        .filter(|&i| hosts[i].summary.unanalyzable.is_none())
        .collect();
    let mut reasons: Vec<Vec<Reason>> = vec![Vec::new(); hosts.len()];
    let mut numeric = Vec::new();
    let mut categorical = Vec::new();

    // Numbers: robust outliers.
    let mut names: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in &usable {
        for k in hosts[i].features.numeric.keys() {
            names.entry(k.as_str()).or_default().push(i);
        }
    }
    for (name, who) in names {
        let vals: Vec<f64> = who
            .iter()
            .map(|&i| hosts[i].features.numeric[name].value)
            .collect();
        let Some(spread) = robust::Spread::of(&vals) else {
            continue;
        };
        let mut outliers = Vec::new();
        for (&i, &v) in who.iter().zip(&vals) {
            let n = &hosts[i].features.numeric[name];
            let z = spread.z(v);
            if z.abs() <= robust::Z_THRESHOLD {
                continue;
            }
            let m = score::numeric_magnitude(spread.median, v, n.floor);
            if m == 0.0 {
                continue;
            }
            let sc = score::score(n.weight.value, m, false);
            outliers.push((label[i].clone(), v, (z * 10.0).round() / 10.0));
            if sc < score::NOISE_SCORE {
                continue;
            }
            reasons[i].push(Reason {
                fact: name.to_string(),
                area: n.weight.area,
                kind: n.weight.id,
                value: fmt(v, n.unit),
                fleet: format!("median {}", fmt(spread.median, n.unit)),
                z: Some((z * 10.0).round() / 10.0),
                share: None,
                score: sc,
                reason: format!(
                    "{} here vs a fleet median of {} (modified z {:+.1}, {} hosts)",
                    fmt(v, n.unit),
                    fmt(spread.median, n.unit),
                    z,
                    who.len()
                ),
                artifact: n.cite.as_ref().map(|c| c.0.clone()),
                lines: n.cite.as_ref().map(|c| c.1.clone()).unwrap_or_default(),
            });
        }
        if !outliers.is_empty() {
            numeric.push(NumericFact {
                fact: name.to_string(),
                unit: hosts[who[0]].features.numeric[name].unit,
                hosts: who.len(),
                spread,
                outliers,
            });
        }
    }

    // Categories: deviations from a strict majority.
    let mut cats: BTreeMap<&str, ()> = BTreeMap::new();
    for &i in &usable {
        for k in hosts[i].features.categorical.keys() {
            cats.insert(k.as_str(), ());
        }
    }
    for name in cats.keys() {
        let family = name
            .split_once(": ")
            .map(|x| x.0)
            .filter(|f| SET_FAMILIES.contains(f));
        let mut vals: Vec<(usize, String)> = Vec::new();
        let mut weight: Option<(&'static Weight, f64)> = None;
        for &i in &usable {
            let f = &hosts[i].features;
            match f.categorical.get(*name) {
                Some(c) => {
                    let w = c.weight_value.unwrap_or(c.weight.value);
                    if weight.is_none_or(|(_, x)| w > x) {
                        weight = Some((c.weight, w));
                    }
                    vals.push((i, c.value.clone()));
                }
                None if family.is_some_and(|fam| f.families.contains(fam))
                    && !f.unknown.contains(*name) =>
                {
                    vals.push((i, ABSENT.to_string()));
                }
                None => {}
            }
        }
        let Some((w, wv)) = weight else { continue };
        if vals.len() < robust::MIN_HOSTS {
            continue;
        }
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, v) in &vals {
            *counts.entry(v.as_str()).or_default() += 1;
        }
        let Some((majority, mcount)) = counts
            .iter()
            .max_by_key(|(_, c)| **c)
            .map(|(v, c)| (v.to_string(), *c))
        else {
            continue;
        };
        if mcount * 2 <= vals.len() || mcount == vals.len() {
            continue;
        }
        let n = vals.len();
        let mut deviants = Vec::new();
        for (i, v) in &vals {
            if *v == majority {
                continue;
            }
            let same = counts[v.as_str()];
            let m = 1.0 - same as f64 / n as f64;
            let sc = score::score(wv, m, false);
            deviants.push((label[*i].clone(), v.clone()));
            if sc < score::NOISE_SCORE {
                continue;
            }
            let c = hosts[*i].features.categorical.get(*name);
            let reason = if v == ABSENT {
                format!("absent here; {mcount} of {n} hosts have it ({majority})")
            } else if majority == ABSENT {
                format!(
                    "{v} here{}; {mcount} of {n} hosts do not have it",
                    if same > 1 {
                        format!(" and on {} other host(s)", same - 1)
                    } else {
                        " only".to_string()
                    }
                )
            } else {
                format!("{v} here; {majority} on {mcount} of {n} hosts")
            };
            reasons[*i].push(Reason {
                fact: name.to_string(),
                area: w.area,
                kind: w.id,
                value: v.clone(),
                fleet: majority.clone(),
                z: None,
                share: Some((same, n)),
                score: sc,
                reason,
                artifact: c.and_then(|c| c.cite.as_ref().map(|x| x.0.clone())),
                lines: c
                    .and_then(|c| c.cite.as_ref().map(|x| x.1.clone()))
                    .unwrap_or_default(),
            });
        }
        if !deviants.is_empty() {
            categorical.push(CategoricalFact {
                fact: name.to_string(),
                hosts: n,
                majority,
                majority_hosts: mcount,
                deviants,
            });
        }
    }

    let mut out: Vec<HostReport> = hosts
        .into_iter()
        .zip(reasons)
        .zip(label)
        .map(|((h, mut r), label)| {
            r.sort_by(|a, b| {
                b.score
                    .partial_cmp(&a.score)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| a.fact.cmp(&b.fact))
            });
            let scores: Vec<f64> = r.iter().map(|x| x.score).collect();
            HostReport {
                rank: 0,
                label,
                summary: h.summary,
                deviation: deviation(&scores),
                reasons: r,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.deviation
            .partial_cmp(&a.deviation)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.label.cmp(&b.label))
    });
    for (i, h) in out.iter_mut().enumerate() {
        h.rank = i + 1;
    }
    numeric.sort_by(|a, b| {
        b.outliers
            .len()
            .cmp(&a.outliers.len())
            .then(a.fact.cmp(&b.fact))
    });
    categorical.sort_by(|a, b| {
        a.deviants
            .len()
            .cmp(&b.deviants.len())
            .then(a.fact.cmp(&b.fact))
    });
    FleetReport {
        schema_version: SCHEMA_VERSION,
        tool: crate::report::Tool {
            name: "rca",
            version: env!("CARGO_PKG_VERSION"),
        },
        method: Method {
            z_threshold: robust::Z_THRESHOLD,
            min_hosts: robust::MIN_HOSTS,
            noise_threshold: score::NOISE_SCORE,
        },
        deviating: out
            .iter()
            .filter(|h| h.deviation >= score::NOISE_SCORE)
            .count(),
        hosts: out,
        numeric,
        categorical,
        failed,
        skipped: Vec::new(),
    }
}

/// The short terminal summary as plain text (see [`terminal_styled`]).
pub fn terminal(r: &FleetReport) -> String {
    terminal_styled(r).to_string()
}

/// The short terminal summary: hosts ranked with their strongest reasons. Bundles not compared
/// and hosts that could not be analyzed are painted critical, hosts deviating above the noise
/// warning, the others ok.
pub fn terminal_styled(r: &FleetReport) -> crate::console::Styled {
    use crate::console::{clean, Styled, Tone};
    use std::fmt::Write;
    let mut s = Styled::new();
    let _ = write!(
        s,
        "rca {} — fleet of {} host(s), ",
        r.tool.version,
        r.hosts.len(),
    );
    s.paint(
        if r.deviating > 0 {
            Tone::Warning
        } else {
            Tone::Ok
        },
        &format!("{} deviating above the noise threshold", r.deviating),
    );
    s.paint(Tone::Plain, "\n");
    for f in &r.failed {
        s.paint(Tone::Critical, "not compared:");
        let _ = writeln!(s, " {}: {}", clean(&f.path), clean(&f.error));
    }
    for k in &r.skipped {
        s.paint(
            Tone::Dim,
            &format!("skipped: {}: {}", clean(&k.path), clean(&k.note)),
        );
        s.paint(Tone::Plain, "\n");
    }
    for h in &r.hosts {
        let _ = write!(s, "  #{:<3} ", h.rank);
        s.paint(
            if h.summary.unanalyzable.is_some() {
                Tone::Critical
            } else if h.deviation >= score::NOISE_SCORE {
                Tone::Warning
            } else {
                Tone::Ok
            },
            &format!("{:>7.1}", h.deviation),
        );
        let _ = write!(s, "  {}", clean(&h.label));
        if let Some(u) = h.summary.unanalyzable.as_deref() {
            s.paint(Tone::Plain, " — ");
            s.paint(
                Tone::Critical,
                &format!("could not be analyzed: {}", clean(u)),
            );
        }
        s.paint(Tone::Plain, "\n");
        for x in h.reasons.iter().take(3) {
            let _ = writeln!(
                s,
                "               {:>6.1}  {}: {}",
                x.score,
                clean(&x.fact),
                clean(&x.reason)
            );
        }
    }
    s
}

/// Renders the fleet page. Errors: a template error (a defect in rca).
pub fn render(report: &FleetReport) -> Result<String, minijinja::Error> {
    let env = crate::diff::html::environment();
    env.get_template("fleet.html")?.render(minijinja::context! {
        r => report,
        top => TOP_REASONS,
        weights => score::WEIGHTS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deviation_decays_harmonically() {
        assert_eq!(deviation(&[60.0]), 60.0);
        assert_eq!(deviation(&[60.0, 20.0, 9.0]), 73.0);
        assert_eq!(deviation(&[]), 0.0);
        // One strong reason outranks three weak ones.
        assert!(deviation(&[70.0]) > deviation(&[20.0, 20.0, 20.0]));
    }

    #[test]
    fn a_bundle_past_its_deadline_is_not_compared_and_the_others_are() {
        let paths: Vec<PathBuf> = ["a", "cooperative", "b", "stuck", "c"]
            .map(PathBuf::from)
            .to_vec();
        // Generous for the bundles that finish at once: the deadline only has to catch the two
        // that never finish by themselves.
        let timeout = Duration::from_secs(5);
        let (hosts, failed) = load_with(
            &paths,
            timeout,
            0,
            Arc::new(|p: &Path, deadline: Instant| match p.to_str() {
                // Checks its deadline between steps, as the analysis does.
                Some("cooperative") => loop {
                    if Instant::now() >= deadline {
                        return Loaded::Exceeded;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                },
                // Never returns: its thread is abandoned.
                Some("stuck") => loop {
                    std::thread::park();
                },
                Some(name) => Loaded::Host(Box::new(Host {
                    summary: side::Side::from_facts(name, Default::default(), Vec::new()).summary,
                    features: Features::default(),
                })),
                None => Loaded::Failed("not a name".into()),
            }),
        );
        let compared: Vec<&str> = hosts.iter().map(|h| h.summary.path.as_str()).collect();
        assert_eq!(compared, ["a", "b", "c"]);
        let late: Vec<(&str, &str, bool)> = failed
            .iter()
            .map(|f| (f.path.as_str(), f.error.as_str(), f.timed_out))
            .collect();
        assert_eq!(
            late,
            [
                ("cooperative", "analysis exceeded 5 s", true),
                ("stuck", "analysis exceeded 5 s", true)
            ]
        );
    }

    #[test]
    fn a_panicking_analysis_fails_its_bundle_alone() {
        let paths: Vec<PathBuf> = ["a", "b"].map(PathBuf::from).to_vec();
        let (hosts, failed) = load_with(
            &paths,
            DEFAULT_BUNDLE_TIMEOUT,
            1,
            Arc::new(|p: &Path, _| {
                let r = crate::console::catch_quietly(|| {
                    if p == Path::new("b") {
                        panic!("a defect");
                    }
                    Loaded::Host(Box::new(Host {
                        summary: side::Side::from_facts("a", Default::default(), Vec::new())
                            .summary,
                        features: Features::default(),
                    }))
                });
                // Re-raised outside the quiet guard would print; here the thread just ends.
                r.unwrap_or_else(|_| std::panic::resume_unwind(Box::new(())))
            }),
        );
        assert_eq!(hosts.len(), 1);
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].path, "b");
        assert!(!failed[0].timed_out);
        assert!(
            failed[0].error.contains("internal error"),
            "{:?}",
            failed[0]
        );
    }

    #[test]
    fn deadlines_in_seconds() {
        assert_eq!(seconds(Duration::from_secs(300)), "300 s");
        assert_eq!(seconds(Duration::ZERO), "0 s");
        assert_eq!(seconds(Duration::from_millis(250)), "0.25 s");
        assert_eq!(seconds(Duration::from_micros(1)), "0.000001 s");
    }
}
