//! Rules: one file per rule, each with static metadata ([`RuleMeta`]) and a pure check over
//! [`HostFacts`]; [`RULES`] is the registry.
//!
//! In: facts for one host. Out: for every rule one [`RuleResult`]: findings (each with severity,
//! confidence, a one-line "why" and evidence pointing at artifact lines), "clear" (checked, nothing
//! wrong) or "not evaluated: reason". Findings are ranked by severity, then score.
//!
//! A rule lives in `rules/<id prefix>/<id suffix>.rs` (`disk.saturation` in
//! `rules/disk/saturation.rs`, `net.rx-drops` in `rules/net/rx_drops.rs`): a module doc (what it
//! checks, from which facts), its named thresholds with units, its `META`, one `check` and its
//! tests (`fires_*` for a finding, `clear_*` or `not_evaluated_*` for none). Adding one takes
//! its file and two lines here: the module in its area's block and the entry in [`RULES`]. The
//! report's rule reference, the README's rule table and `docs/rules.md` are rendered from the
//! same metadata, so documentation and behaviour cannot drift.

mod common;
pub mod meta;
pub mod sources;
#[cfg(test)]
mod testkit;

pub mod disk {
    pub mod saturation;
}
pub mod cpu {
    pub mod iowait;
}
pub mod softirq {
    pub mod saturation;
}
pub mod nic {
    pub mod emulated;
    pub mod mtu_mismatch;
    pub mod offloads;
    pub mod queues;
    pub mod rx_ring;
}
pub mod net {
    pub mod conntrack;
    pub mod listen_overflow;
    pub mod rx_drops;
}
pub mod mem {
    pub mod balloon;
    pub mod swap;
}
pub mod time {
    pub mod offset;
    pub mod two_sources;
    pub mod unsynchronised;
}
pub mod kernel {
    pub mod taint;
}
pub mod profile {
    pub mod lock_contention;
    pub mod module_hot_path;
    pub mod sched_thrash;
    pub mod softirq_cost;
}
pub mod zk {
    pub mod default_watch_manager;
    pub mod snapshot_churn;
    pub mod txn_log_on_data_dir;
}
pub mod jvm {
    pub mod gc_overhead;
    pub mod heap_vs_memory;
    pub mod old_gen_not_reclaimed;
    pub mod thread_pool_oversized;
}
pub mod yarn {
    pub mod vmem_check;
}

pub use meta::{Area, Limit, RuleMeta, Source, SymptomGroup, Threshold};

use crate::evidence::Evidence;
use crate::facts::{time_label, HostFacts};
use parsers::iostat::Timestamp;
use serde::Serialize;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Context worth knowing; does not change the exit status.
    Info,
    /// Likely contributes to the incident.
    Warning,
    /// Very likely the cause, or severe enough to explain the symptoms alone.
    Critical,
}

impl Severity {
    /// Lower-case name (`critical`).
    pub fn label(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Critical => "critical",
        }
    }
}

/// How sure the rule is that the finding is real (not how bad it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Thin evidence (few samples, one source).
    Low,
    /// Consistent evidence from one source.
    Medium,
    /// Sustained and corroborated evidence.
    High,
}

/// One diagnosed problem.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The rule that produced it.
    pub rule_id: &'static str,
    /// Rule ids of symptoms this finding accounts for (a root cause names its effects). When such
    /// a finding is present too, this one takes at least its severity and ranks above it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explains: Vec<&'static str>,
    /// Area (`disk`, `cpu`, ...): its rule's.
    pub area: Area,
    /// Specific title (`Disk sda saturated: await 84 ms, aqu-sz 12.3`).
    pub title: String,
    /// Severity.
    pub severity: Severity,
    /// Confidence.
    pub confidence: Confidence,
    /// One-line reason a reader can check against the evidence.
    pub why: String,
    /// Further facts, one per line.
    pub details: Vec<String>,
    /// Ranking score within a severity (higher first); rule-specific, documented per rule.
    pub score: f64,
    /// First and last sample time of the condition, in the host's clock as the artifact prints
    /// it; serialised as `[first, last]` labels (`2024-05-01 12:00:01` or `12:00:01`).
    pub time_range: Option<TimeRange>,
    /// Cited artifact lines.
    pub evidence: Vec<Evidence>,
}

/// When a condition held: the first and last sample time, host clock, as printed in the artifact
/// (with a date when the tool printed one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRange {
    /// First sample of the condition.
    pub from: Timestamp,
    /// Last sample of the condition.
    pub to: Timestamp,
}

impl Serialize for TimeRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (time_label(&self.from), time_label(&self.to)).serialize(s)
    }
}

/// What one rule concluded.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum RuleResult {
    /// The rule fired.
    Findings {
        /// Number of findings.
        count: usize,
    },
    /// The rule ran and found nothing wrong; `checked` says over what.
    Clear {
        /// What was checked (`3 devices over 59 intervals`).
        checked: String,
    },
    /// The rule could not run.
    NotEvaluated {
        /// Why (`no iostat -x output was parsed`).
        reason: String,
    },
}

/// The result of a check function before it is recorded.
pub enum Check {
    /// Findings (never empty).
    Found(Vec<Finding>),
    /// Checked, nothing wrong.
    Clear(String),
    /// Could not check.
    NotEvaluated(String),
}

/// A registered rule: its metadata and its check.
pub struct Rule {
    /// Its documentation.
    pub meta: &'static RuleMeta,
    /// The check.
    pub check: fn(&HostFacts) -> Check,
}

impl Rule {
    /// Runs the check, unless a fact it needs is missing: then it is not evaluated, for the
    /// reason that fact is missing.
    pub fn run(&self, facts: &HostFacts) -> Check {
        if let Some(why) = self.meta.needs.iter().find_map(|n| n.missing(facts)) {
            return Check::NotEvaluated(why.to_string());
        }
        let c = (self.check)(facts);
        if let Check::Found(v) = &c {
            for f in v {
                debug_assert_eq!(f.rule_id, self.meta.id, "a finding names its own rule");
                debug_assert!(
                    f.explains.iter().all(|e| self.meta.explains.contains(e)),
                    "{} explains {:?}, beyond its metadata",
                    self.meta.id,
                    f.explains
                );
            }
        }
        c
    }
}

/// `rule!(disk::saturation)`: the registry entry of the rule in that module.
macro_rules! rule {
    ($($m:ident)::+) => {
        Rule {
            meta: &$($m)::+::META,
            check: $($m)::+::check,
        }
    };
}

/// Every rule, in evaluation order (the order of the JSON document's `rules`).
pub static RULES: &[Rule] = &[
    rule!(disk::saturation),
    rule!(cpu::iowait),
    rule!(softirq::saturation),
    rule!(nic::queues),
    rule!(nic::emulated),
    rule!(nic::offloads),
    rule!(nic::rx_ring),
    rule!(nic::mtu_mismatch),
    rule!(net::rx_drops),
    rule!(net::conntrack),
    rule!(net::listen_overflow),
    rule!(mem::swap),
    rule!(mem::balloon),
    rule!(time::offset),
    rule!(time::two_sources),
    rule!(time::unsynchronised),
    rule!(kernel::taint),
    rule!(profile::module_hot_path),
    rule!(profile::lock_contention),
    rule!(profile::sched_thrash),
    rule!(profile::softirq_cost),
    rule!(zk::default_watch_manager),
    rule!(zk::txn_log_on_data_dir),
    rule!(zk::snapshot_churn),
    rule!(jvm::old_gen_not_reclaimed),
    rule!(jvm::gc_overhead),
    rule!(jvm::thread_pool_oversized),
    rule!(jvm::heap_vs_memory),
    rule!(yarn::vmem_check),
];

/// The metadata of the rule with this id.
pub fn meta(id: &str) -> Option<&'static RuleMeta> {
    RULES.iter().map(|r| r.meta).find(|m| m.id == id)
}

/// Whether the rule with this id belongs to `group`.
pub fn in_group(id: &str, group: SymptomGroup) -> bool {
    meta(id).is_some_and(|m| m.groups.contains(&group))
}

/// Outcome of running all rules on one host.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    /// Findings, ranked: severity, then score, both descending.
    pub findings: Vec<Finding>,
    /// Per rule id, what it concluded.
    pub results: Vec<(&'static str, RuleResult)>,
}

/// Runs every rule over `facts`.
pub fn evaluate(facts: &HostFacts) -> Evaluation {
    let mut findings = Vec::new();
    let mut results = Vec::new();
    for rule in RULES {
        let r = match rule.run(facts) {
            Check::Found(f) => {
                let n = f.len();
                findings.extend(f);
                RuleResult::Findings { count: n }
            }
            Check::Clear(checked) => RuleResult::Clear { checked },
            Check::NotEvaluated(reason) => RuleResult::NotEvaluated { reason },
        };
        results.push((rule.meta.id, r));
    }
    rank(&mut findings);
    Evaluation { findings, results }
}

/// Ranks findings: severity, then root causes before symptoms, then reach, then score.
///
/// A finding that [`Finding::explains`] another present finding takes at least that finding's
/// severity (the cause is as bad as its worst effect). Within a severity, findings that no other
/// present finding explains (root causes) come before those that one does (symptoms); among
/// them, the one that explains more present findings first; then the rule's own score.
pub fn rank(findings: &mut [Finding]) {
    let present: Vec<(&'static str, Severity)> =
        findings.iter().map(|f| (f.rule_id, f.severity)).collect();
    let mut explained = vec![0usize; findings.len()];
    for (i, f) in findings.iter_mut().enumerate() {
        for (id, sev) in &present {
            if f.explains.contains(id) {
                explained[i] += 1;
                f.severity = f.severity.max(*sev);
            }
        }
    }
    let is_symptom: Vec<bool> = findings
        .iter()
        .map(|f| {
            findings
                .iter()
                .any(|g| g.rule_id != f.rule_id && g.explains.contains(&f.rule_id))
        })
        .collect();
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let (fa, fb) = (&findings[a], &findings[b]);
        fb.severity
            .cmp(&fa.severity)
            .then(is_symptom[a].cmp(&is_symptom[b]))
            .then(explained[b].cmp(&explained[a]))
            .then(
                fb.score
                    .partial_cmp(&fa.score)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
    });
    let sorted: Vec<Finding> = order.iter().map(|&i| findings[i].clone()).collect();
    findings.clone_from_slice(&sorted);
}

#[cfg(test)]
mod ranking_tests {
    use super::*;

    fn finding(
        id: &'static str,
        sev: Severity,
        score: f64,
        explains: Vec<&'static str>,
    ) -> Finding {
        Finding {
            rule_id: id,
            explains,
            area: Area::Cpu,
            title: id.into(),
            severity: sev,
            confidence: Confidence::Medium,
            why: String::new(),
            details: Vec::new(),
            score,
            time_range: None,
            evidence: Vec::new(),
        }
    }

    #[test]
    fn a_cause_ranks_above_the_symptom_it_explains_and_takes_its_severity() {
        let mut v = vec![
            finding(
                "jvm.old-gen-not-reclaimed",
                Severity::Critical,
                300.0,
                vec![],
            ),
            finding("other", Severity::Critical, 200.0, vec![]),
            finding(
                "zk.default-watch-manager",
                Severity::Warning,
                20.0,
                vec!["jvm.old-gen-not-reclaimed"],
            ),
        ];
        rank(&mut v);
        let ids: Vec<&str> = v.iter().map(|f| f.rule_id).collect();
        // Roots first (the cause, then an unrelated finding), the symptom last.
        assert_eq!(
            ids,
            [
                "zk.default-watch-manager",
                "other",
                "jvm.old-gen-not-reclaimed"
            ]
        );
        assert_eq!(v[0].severity, Severity::Critical);
    }

    #[test]
    fn roots_come_before_symptoms_of_the_same_severity() {
        let mut v = vec![
            finding(
                "mem.swap",
                Severity::Critical,
                900.0,
                vec!["jvm.gc-overhead"],
            ),
            finding("net.rx-drops", Severity::Critical, 500.0, vec![]),
            finding("nic.queues", Severity::Critical, 1.0, vec!["net.rx-drops"]),
            finding(
                "mem.balloon",
                Severity::Warning,
                4.0,
                vec!["mem.swap", "jvm.gc-overhead"],
            ),
            finding("jvm.gc-overhead", Severity::Warning, 30.0, vec![]),
        ];
        rank(&mut v);
        let ids: Vec<&str> = v.iter().map(|f| f.rule_id).collect();
        // The balloon explains two findings and takes swap's severity; the NIC queues explain the
        // drops; swap and the drops are symptoms; GC overhead is a symptom of a lower severity.
        assert_eq!(
            ids,
            [
                "mem.balloon",
                "nic.queues",
                "mem.swap",
                "net.rx-drops",
                "jvm.gc-overhead"
            ]
        );
    }

    #[test]
    fn a_time_range_is_written_as_the_labels_the_artifact_prints() {
        use parsers::common::Date;
        let at = |date, s| Timestamp {
            date,
            seconds_of_day: s,
        };
        let day = Date {
            year: 2024,
            month: 5,
            day: 1,
        };
        let r = TimeRange {
            from: at(Some(day), 43_201),
            to: at(None, 9),
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"["2024-05-01 12:00:01","00:00:09"]"#
        );
    }

    #[test]
    fn an_absent_symptom_changes_nothing() {
        let mut v = vec![
            finding("a", Severity::Warning, 1.0, vec!["missing"]),
            finding("b", Severity::Warning, 2.0, vec![]),
        ];
        rank(&mut v);
        assert_eq!(v[0].rule_id, "b");
        assert_eq!(v[1].severity, Severity::Warning);
    }
}
