//! Comparing two hosts: a healthy baseline and a suspect (`rca diff`).
//!
//! In: two bundles in any form `analyze` accepts. Out: [`DiffReport`]: every difference between
//! their facts, each with a score and a one-line reason, ranked; what could not be compared; and
//! both sides' findings.
//!
//! The pipeline, one module per stage or area:
//! [`side`] (bundle → facts, cited findings, artifact text) → [`symptoms`] (what the suspect
//! shows and the baseline does not) → one comparator per area ([`process`], [`jvm`], [`kernel`],
//! [`sysctl`], [`limits`], [`nic`], [`cpu`], [`disk`], [`memory`], [`time`], [`findings`]) →
//! [`score`] (weight × magnitude × link) → evidence excerpts → [`html`], JSON, [`mod@terminal`].

pub mod config;
pub mod cpu;
pub mod disk;
pub mod findings;
pub mod html;
pub mod jvm;
pub mod kernel;
pub mod limits;
pub mod memory;
pub mod nic;
pub mod process;
pub mod profile;
pub mod score;
pub mod side;
pub mod symptoms;
pub mod sysctl;
pub mod terminal;
pub mod time;

pub use side::{load, Side, SideSummary};
pub use symptoms::Symptoms;
pub use terminal::styled as terminal_styled;
pub use terminal::summary as terminal;

use crate::evidence::{Cited, ExcerptLine};
use score::Weight;
use serde::Serialize;

/// Version of the diff JSON document's shape; raised on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// How many differences the report leads with (those above the noise threshold).
pub const TOP: usize = 10;

/// Which host a value or a line comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    /// The healthy reference host.
    Baseline,
    /// The host under suspicion.
    Suspect,
}

impl Which {
    /// `baseline` or `suspect`.
    pub fn label(self) -> &'static str {
        match self {
            Which::Baseline => "baseline",
            Which::Suspect => "suspect",
        }
    }
}

/// Lines of one artifact on one side that a difference rests on.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DiffEvidence {
    /// Side.
    pub side: Which,
    /// Bundle path of the artifact on that side.
    pub artifact: String,
    /// 1-based lines.
    pub lines: Vec<usize>,
    /// The lines with their text; line 0 marks an elision.
    pub excerpt: Vec<ExcerptLine>,
}

/// One difference between the two hosts.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Difference {
    /// Area (`process`, `jvm`, `kernel`, `limits`, `nic`, `irq`, `cpu`, `disk`, `memory`,
    /// `time`, `host`, `findings`).
    pub area: &'static str,
    /// Kind: the id of its [`Weight`].
    pub kind: &'static str,
    /// What differs (`process bootstrap`, `sysctl net.core.somaxconn`).
    pub subject: String,
    /// The baseline's value; `None` when absent there.
    pub baseline: Option<String>,
    /// The suspect's value; `None` when absent there.
    pub suspect: Option<String>,
    /// Weight of the kind, 0–100.
    pub weight: f64,
    /// Size of the difference, 0–1.
    pub magnitude: f64,
    /// What connects this difference to the suspect's symptoms, when something does (a finding
    /// present only on the suspect in a related area; a process owning most connections).
    pub link: Option<String>,
    /// `weight × magnitude × link boost`.
    pub score: f64,
    /// One line: why it scores what it scores.
    pub reason: String,
    /// Below [`score::NOISE_SCORE`].
    pub noise: bool,
    /// Evidence lines from both sides.
    pub evidence: Vec<DiffEvidence>,
}

impl Difference {
    /// A difference of kind `w` about `subject`, categorical (magnitude 1) until told otherwise.
    pub fn new(w: &'static Weight, subject: impl Into<String>) -> Difference {
        Difference {
            area: w.area,
            kind: w.id,
            subject: subject.into(),
            baseline: None,
            suspect: None,
            weight: w.value,
            magnitude: 1.0,
            link: None,
            score: 0.0,
            reason: String::new(),
            noise: false,
            evidence: Vec::new(),
        }
    }

    /// Sets the displayed values.
    pub fn values(mut self, baseline: Option<String>, suspect: Option<String>) -> Self {
        self.baseline = baseline;
        self.suspect = suspect;
        self
    }

    /// Overrides the weight (a key known to matter weighs more than its kind's default).
    pub fn weight(mut self, w: f64) -> Self {
        self.weight = w;
        self
    }

    /// Sets the magnitude, 0–1.
    pub fn magnitude(mut self, m: f64) -> Self {
        self.magnitude = m.clamp(0.0, 1.0);
        self
    }

    /// Sets the reason.
    pub fn reason(mut self, r: impl Into<String>) -> Self {
        self.reason = r.into();
        self
    }

    /// Connects it to a suspect symptom; `symptom` is a phrase appended to the reason.
    pub fn link(mut self, symptom: Option<String>) -> Self {
        self.link = symptom;
        self
    }

    /// Cites the lines of a fact on one side.
    pub fn cite<T>(mut self, side: Which, c: Option<&Cited<T>>) -> Self {
        if let Some(c) = c {
            self = self.cite_lines(side, &c.artifact, &c.lines);
        }
        self
    }

    /// Cites lines of an artifact on one side.
    pub fn cite_lines(mut self, side: Which, artifact: &str, lines: &[usize]) -> Self {
        if artifact.is_empty() {
            return self;
        }
        let mut lines: Vec<usize> = lines.iter().copied().filter(|&l| l > 0).collect();
        lines.sort_unstable();
        lines.dedup();
        if let Some(e) = self
            .evidence
            .iter_mut()
            .find(|e| e.side == side && e.artifact == artifact)
        {
            e.lines.extend(lines);
            e.lines.sort_unstable();
            e.lines.dedup();
            return self;
        }
        self.evidence.push(DiffEvidence {
            side,
            artifact: artifact.to_string(),
            lines,
            excerpt: Vec::new(),
        });
        self
    }

    /// Computes the score and the noise flag; appends the link to the reason.
    pub fn finish(mut self) -> Self {
        self.score = score::score(self.weight, self.magnitude, self.link.is_some());
        self.noise = self.score < score::NOISE_SCORE;
        if let Some(l) = &self.link {
            self.reason = format!("{}; {l}", self.reason);
        }
        self
    }
}

/// A fact that could not be compared, and why (`sysctl -a` collected on one side only).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Gap {
    /// Area.
    pub area: &'static str,
    /// What was not compared and why.
    pub what: String,
}

/// The comparison of two hosts, as written by `rca diff --json`.
///
/// Fields:
/// - `schema_version`: [`SCHEMA_VERSION`].
/// - `tool`: `{name, version}`.
/// - `baseline`, `suspect`: [`SideSummary`] `{path, hostname, kernel_release, os, cpus, format,
///   entries, outcome_counts, unanalyzable, findings[]}`; `findings` are as in `rca analyze`'s
///   document (`rule_id, area, title, severity, confidence, why, details[], score, time_range,
///   evidence[]`).
/// - `noise_threshold`: [`score::NOISE_SCORE`]; `link_boost`: [`score::LINK_BOOST`].
/// - `above_noise`: number of differences scoring at or above the threshold.
/// - `differences`: every difference, highest score first, each `{area, kind, subject,
///   baseline, suspect, weight, magnitude, link, score, reason, noise, evidence: [{side
///   (baseline|suspect), artifact, lines[], excerpt: [{line, text}]}]}`; `baseline`/`suspect`
///   are display strings, `null` when absent on that side; an excerpt line 0 marks an elision.
/// - `not_compared`: `[{area, what}]`: facts present on one side only, so not compared.
/// - `weights`: every kind `{id, area, value, rationale}`; `floors`: numeric noise floors
///   `{metric, abs, rel}`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct DiffReport {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The analyzer that wrote the document.
    pub tool: crate::report::Tool,
    /// The healthy side: bundle, host, findings, exit-relevant counts.
    pub baseline: SideSummary,
    /// The side under suspicion.
    pub suspect: SideSummary,
    /// Score at or above which a difference is listed as significant.
    pub noise_threshold: f64,
    /// Factor applied to a difference that connects to a suspect-only symptom.
    pub link_boost: f64,
    /// Differences scoring at or above `noise_threshold`.
    pub above_noise: usize,
    /// Every difference, highest score first.
    pub differences: Vec<Difference>,
    /// Facts present on one side only, so not compared.
    pub not_compared: Vec<Gap>,
    /// Every kind of difference with its weight and rationale.
    pub weights: &'static [&'static Weight],
    /// Numeric noise floors (absolute and relative).
    pub floors: &'static [&'static score::Floor],
    /// Differential flame graph (inline SVG) of the two sides' `perf script` profiles, or why
    /// there is none. Not in the JSON (its size).
    #[serde(skip)]
    pub flame: Option<Result<String, String>>,
}

impl DiffReport {
    /// The differences above the noise threshold, best first (at most [`TOP`]).
    pub fn top(&self) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(|d| !d.noise).take(TOP)
    }

    /// Whether either side could not be analyzed, and why.
    pub fn unanalyzable(&self) -> Option<String> {
        let mut why = Vec::new();
        for (w, s) in [("baseline", &self.baseline), ("suspect", &self.suspect)] {
            if let Some(u) = &s.unanalyzable {
                why.push(format!("{w} {}: {u}", s.path));
            }
        }
        (!why.is_empty()).then(|| why.join("; "))
    }
}

/// What every comparator receives.
pub struct Pair<'a> {
    /// The baseline.
    pub baseline: &'a Side,
    /// The suspect.
    pub suspect: &'a Side,
    /// What the suspect shows and the baseline does not.
    pub symptoms: &'a Symptoms,
}

/// Output of the comparators: differences and gaps.
#[derive(Default)]
pub struct Out {
    /// Differences found.
    pub diffs: Vec<Difference>,
    /// Facts that could not be compared.
    pub gaps: Vec<Gap>,
}

impl Out {
    /// Records a finished difference.
    pub fn push(&mut self, d: Difference) {
        self.diffs.push(d.finish());
    }

    /// Records a fact present on one side only (or neither): `what` names it. Returns whether
    /// both sides have it.
    pub fn both(&mut self, area: &'static str, what: &str, b: bool, s: bool) -> bool {
        match (b, s) {
            (true, true) => true,
            (false, false) => false,
            (true, false) => {
                self.gaps.push(Gap {
                    area,
                    what: format!("{what}: in the baseline's bundle only"),
                });
                false
            }
            (false, true) => {
                self.gaps.push(Gap {
                    area,
                    what: format!("{what}: in the suspect's bundle only"),
                });
                false
            }
        }
    }
}

/// Compares two analyzed sides.
pub fn compare(baseline: &Side, suspect: &Side) -> DiffReport {
    let symptoms = Symptoms::of(baseline, suspect);
    let pair = Pair {
        baseline,
        suspect,
        symptoms: &symptoms,
    };
    let mut out = Out::default();
    process::compare(&pair, &mut out);
    jvm::compare(&pair, &mut out);
    kernel::compare(&pair, &mut out);
    sysctl::compare(&pair, &mut out);
    limits::compare(&pair, &mut out);
    nic::compare(&pair, &mut out);
    cpu::compare(&pair, &mut out);
    disk::compare(&pair, &mut out);
    memory::compare(&pair, &mut out);
    time::compare(&pair, &mut out);
    profile::compare(&pair, &mut out);
    config::compare(&pair, &mut out);
    findings::compare(&pair, &mut out);
    let mut diffs = out.diffs;
    diffs.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.area.cmp(b.area))
            .then_with(|| a.subject.cmp(&b.subject))
    });
    for d in &mut diffs {
        for e in &mut d.evidence {
            let side = match e.side {
                Which::Baseline => baseline,
                Which::Suspect => suspect,
            };
            e.excerpt = side.excerpt(&e.artifact, &e.lines);
        }
    }
    DiffReport {
        schema_version: SCHEMA_VERSION,
        tool: crate::report::Tool {
            name: "rca",
            version: env!("CARGO_PKG_VERSION"),
        },
        baseline: baseline.summary.clone(),
        suspect: suspect.summary.clone(),
        noise_threshold: score::NOISE_SCORE,
        link_boost: score::LINK_BOOST,
        above_noise: diffs.iter().filter(|d| !d.noise).count(),
        differences: diffs,
        not_compared: out.gaps,
        weights: score::WEIGHTS,
        floors: score::FLOORS,
        flame: match (
            profile::script(&baseline.facts.profiles),
            profile::script(&suspect.facts.profiles),
        ) {
            (Some(b), Some(s)) => crate::report::flame::differential_svg(b, s),
            _ => None,
        },
    }
}

/// Kernel defaults computed from the host's RAM or CPU count at boot, with what they follow.
const HOST_SIZED: &[(&str, &str)] = &[
    ("kernel.threads-max", "ram"),
    ("fs.file-max", "ram"),
    ("vm.min_free_kbytes", "ram"),
    ("net.ipv4.tcp_mem", "ram"),
    ("net.ipv4.udp_mem", "ram"),
    ("net.ipv4.tcp_max_orphans", "ram"),
    ("net.ipv4.tcp_max_syn_backlog", "ram"),
    ("net.ipv4.tcp_max_tw_buckets", "ram"),
    ("net.netfilter.nf_conntrack_max", "ram"),
    ("net.nf_conntrack_max", "ram"),
    ("net.netfilter.nf_conntrack_buckets", "ram"),
    ("net.netfilter.nf_conntrack_expect_max", "ram"),
    ("kernel.msgmni", "ram"),
    ("kernel.pid_max", "cpus"),
];

/// When `key` is a kernel default sized from RAM or the CPU count and that differs between the
/// two hosts (RAM by more than 10 %), says so (`MemTotal 62 vs 250 GiB`); `None` otherwise.
pub(crate) fn sized_by_host(p: &Pair, key: &str) -> Option<String> {
    let (_, what) = HOST_SIZED.iter().find(|(k, _)| *k == key)?;
    let (b, s) = (&p.baseline.facts, &p.suspect.facts);
    match *what {
        "ram" => {
            let (x, y) = (
                b.memory.mem_total_kib.as_ref()?.value,
                s.memory.mem_total_kib.as_ref()?.value,
            );
            (score::relative_change(x as f64, y as f64) > 0.1).then(|| {
                format!(
                    "MemTotal {} vs {} GiB",
                    num((x >> 20) as f64),
                    num((y >> 20) as f64)
                )
            })
        }
        _ => {
            let (x, y) = (b.identity.cpus?, s.identity.cpus?);
            (x != y).then(|| format!("{x} vs {y} CPUs"))
        }
    }
}

/// A number without needless decimals: `3`, `2.5`, `0.04`, `1234`.
pub(crate) fn num(v: f64) -> String {
    let s = if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.1}")
    } else if v.abs() >= 0.01 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Compares one numeric value present on both sides; pushes a difference when it is not zero.
/// `make` builds the difference from the magnitude (values and reason are filled here).
#[allow(clippy::too_many_arguments)]
pub(crate) fn numeric(
    out: &mut Out,
    w: &'static Weight,
    subject: String,
    b: f64,
    s: f64,
    floor: score::Floor,
    unit: &str,
    link: Option<String>,
    cite: impl FnOnce(Difference) -> Difference,
) {
    if b == s {
        return;
    }
    let m = score::numeric_magnitude(b, s, floor);
    let rel = score::relative_change(b, s);
    let dir = if s > b { "higher" } else { "lower" };
    let reason = if m == 0.0 {
        format!(
            "{} vs {} {unit}: below the noise floor for {} (a change must exceed {} and {:.0} % of the larger value)",
            num(b),
            num(s),
            floor.metric,
            num(floor.abs),
            floor.rel * 100.0
        )
    } else {
        let (lo, hi) = (b.abs().min(s.abs()), b.abs().max(s.abs()));
        let by = if lo > 0.0 {
            format!("{:.1}×", hi / lo)
        } else {
            format!("{:.0} % of the larger", rel * 100.0)
        };
        format!(
            "{dir} on the suspect: {} vs {} {unit} ({by})",
            num(s),
            num(b)
        )
    };
    let d = Difference::new(w, subject)
        .values(
            Some(format!("{} {unit}", num(b)).trim().to_string()),
            Some(format!("{} {unit}", num(s)).trim().to_string()),
        )
        .magnitude(m)
        .reason(reason)
        .link(if m > 0.0 { link } else { None });
    out.push(cite(d));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_without_needless_decimals() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.50), "2.5");
        assert_eq!(num(0.1), "0.1");
        assert_eq!(num(0.042), "0.04");
        assert_eq!(num(1234.4), "1234");
        assert_eq!(num(0.0005), "0.0005");
    }

    #[test]
    fn a_difference_is_scored_and_flagged_when_finished() {
        let d = Difference::new(&score::JVM_RUNTIME, "JDK").finish();
        assert_eq!(d.score, 80.0);
        assert!(!d.noise);
        let d = Difference::new(&score::SYSCTL, "sysctl x")
            .magnitude(0.0)
            .reason("r")
            .link(Some("the suspect shows y".into()))
            .finish();
        assert_eq!(d.score, 0.0);
        assert!(d.noise);
        assert_eq!(d.reason, "r; the suspect shows y");
    }

    #[test]
    fn numeric_differences_within_the_floor_are_noise() {
        let mut out = Out::default();
        numeric(
            &mut out,
            &score::CPU_PROFILE,
            "mean %soft".into(),
            30.0,
            31.5,
            score::UTIL_PCT,
            "%",
            Some("linked".into()),
            |d| d,
        );
        numeric(
            &mut out,
            &score::CPU_PROFILE,
            "busiest %soft".into(),
            5.0,
            100.0,
            score::UTIL_PCT,
            "%",
            None,
            |d| d,
        );
        numeric(
            &mut out,
            &score::CPU_PROFILE,
            "equal".into(),
            7.0,
            7.0,
            score::UTIL_PCT,
            "%",
            None,
            |d| d,
        );
        assert_eq!(out.diffs.len(), 2, "equal values are no difference");
        assert!(out.diffs[0].noise && out.diffs[0].link.is_none());
        assert!(out.diffs[0].reason.contains("below the noise floor"));
        assert!(!out.diffs[1].noise);
        assert_eq!(out.diffs[1].score, 38.0);
    }

    #[test]
    fn a_fact_on_one_side_only_is_a_gap_not_a_difference() {
        let mut out = Out::default();
        assert!(out.both("kernel", "sysctl", true, true));
        assert!(!out.both("kernel", "sysctl", true, false));
        assert!(!out.both("kernel", "sysctl", false, false));
        assert_eq!(out.gaps.len(), 1);
        assert!(out.gaps[0].what.contains("baseline's bundle only"));
    }
}
