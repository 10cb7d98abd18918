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
pub(crate) mod klog;
pub mod meta;
pub mod sources;
#[cfg(test)]
mod testkit;

/// Block devices.
pub mod disk {
    pub mod io_errors;
    pub mod saturation;
}
/// Filesystems.
pub mod fs {
    pub mod full;
}
/// CPU time.
pub mod cpu {
    pub mod frequency;
    pub mod iowait;
    pub mod run_queue;
    pub mod steal;
    pub mod thermal_throttle;
}
/// Soft-IRQ time.
pub mod softirq {
    pub mod saturation;
}
/// Network interfaces: drivers, queues, offloads, rings, MTU.
pub mod nic {
    pub mod emulated;
    pub mod link_flap;
    pub mod mtu_mismatch;
    pub mod offloads;
    pub mod queues;
    pub mod rx_out_of_buffer;
    pub mod rx_queue_drops;
    pub mod rx_ring;
}
/// The network stack: drops, connection tracking, listen queues.
pub mod net {
    pub mod conntrack;
    pub mod listen_overflow;
    pub mod rx_drops;
    pub mod softnet_backlog;
    pub mod tcp_oom;
    pub mod tcp_retransmits;
}
/// Memory: swap and the VMware balloon.
pub mod mem {
    pub mod alloc_failure;
    pub mod balloon;
    pub mod compaction_stall;
    pub mod numa_remote;
    pub mod oom_kill;
    pub mod swap;
}
/// Clock discipline.
pub mod time {
    pub mod offset;
    pub mod two_sources;
    pub mod unsynchronised;
}
/// Kernel taint.
pub mod kernel {
    pub mod hung_task;
    pub mod lockup;
    pub mod machine_check;
    pub mod pressure;
    pub mod taint;
}
/// CPU profiles: hot kernel modules, locks, scheduling, soft-IRQ cost.
pub mod profile {
    pub mod lock_contention;
    pub mod module_hot_path;
    pub mod sched_thrash;
    pub mod softirq_cost;
}
/// ZooKeeper servers.
pub mod zk {
    pub mod default_watch_manager;
    pub mod snapshot_churn;
    pub mod txn_log_on_data_dir;
}
/// JVMs: old generation, GC pauses, thread pools, locks and deadlocks, heap against memory and
/// the cgroup limit.
pub mod jvm {
    pub mod deadlock;
    pub mod gc_overhead;
    pub mod heap_growth;
    pub mod heap_vs_cgroup;
    pub mod heap_vs_memory;
    pub mod monitor_contention;
    pub mod old_gen_not_reclaimed;
    pub mod thread_pool_oversized;
}
/// Control groups: memory limits that OOM-kill, CPU quotas that throttle.
pub mod cgroup {
    pub mod cpu_throttled;
    pub mod oom_kill;
}
/// YARN NodeManagers.
pub mod yarn {
    pub mod vmem_check;
}

/// Processes' resource limits, and the services that run them.
pub mod proc {
    pub mod fd_exhaustion;
    pub mod service_failing;
}

pub use meta::{Area, Limit, RuleMeta, Source, SymptomGroup, Threshold};

use crate::evidence::Evidence;
use crate::facts::{time_label, HostFacts};
use parsers::common::Timestamp;
use serde::Serialize;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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

/// The serialised form: `[first, last]`, each label as [`time_label`] writes it.
impl schemars::JsonSchema for TimeRange {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TimeRange".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = <(String, String)>::json_schema(generator);
        schema.insert(
            "description".into(),
            "First and last sample time of the condition, host clock, as the artifact prints \
             it (`2024-05-01 12:00:01`, or `12:00:01` without a date)."
                .into(),
        );
        schema
    }
}

/// What one rule concluded.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
    /// reason that fact is missing. When the collection tool says it left a gap in the kinds a
    /// needed fact is read from (a sos plugin that timed out), a check that found nothing, or
    /// could not run, is not evaluated for that gap: its silence says nothing about the host.
    pub fn run(&self, facts: &HostFacts) -> Check {
        if let Some(why) = self.meta.needs.iter().find_map(|n| n.missing(facts)) {
            return Check::NotEvaluated(self.gap(facts).unwrap_or_else(|| why.to_string()));
        }
        let c = (self.check)(facts);
        if matches!(c, Check::Clear(_) | Check::NotEvaluated(_)) {
            if let Some(gap) = self.gap(facts) {
                return Check::NotEvaluated(gap);
            }
        }
        if let Check::Found(v) = &c {
            for f in v {
                debug_assert_eq!(f.rule_id, self.meta.id, "a finding names its own rule");
                debug_assert_eq!(f.area, self.meta.area, "a finding is in its rule's area");
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

impl Rule {
    /// The first collection gap in the kinds a needed fact is read from, as a reason.
    fn gap(&self, facts: &HostFacts) -> Option<String> {
        self.meta.needs.iter().find_map(|need| {
            facts.gaps.iter().find_map(|g| {
                let lost: Vec<&str> = g
                    .kinds
                    .iter()
                    .copied()
                    .filter(|k| need.kinds().contains(k))
                    .collect();
                (!lost.is_empty()).then(|| {
                    format!(
                        "{}: its `{}` output, which `{}` is read from, may be missing or cut",
                        g.what,
                        lost.join("`, `"),
                        need.name()
                    )
                })
            })
        })
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
    rule!(disk::io_errors),
    rule!(fs::full),
    rule!(cpu::iowait),
    rule!(cpu::thermal_throttle),
    rule!(cpu::steal),
    rule!(cpu::run_queue),
    rule!(cpu::frequency),
    rule!(softirq::saturation),
    rule!(nic::queues),
    rule!(nic::emulated),
    rule!(nic::offloads),
    rule!(nic::rx_ring),
    rule!(nic::rx_queue_drops),
    rule!(nic::rx_out_of_buffer),
    rule!(nic::mtu_mismatch),
    rule!(nic::link_flap),
    rule!(net::rx_drops),
    rule!(net::conntrack),
    rule!(net::listen_overflow),
    rule!(net::softnet_backlog),
    rule!(net::tcp_oom),
    rule!(net::tcp_retransmits),
    rule!(mem::swap),
    rule!(mem::balloon),
    rule!(mem::oom_kill),
    rule!(mem::alloc_failure),
    rule!(mem::compaction_stall),
    rule!(cgroup::oom_kill),
    rule!(cgroup::cpu_throttled),
    rule!(mem::numa_remote),
    rule!(time::offset),
    rule!(time::two_sources),
    rule!(time::unsynchronised),
    rule!(kernel::taint),
    rule!(kernel::hung_task),
    rule!(kernel::lockup),
    rule!(kernel::machine_check),
    rule!(kernel::pressure),
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
    rule!(jvm::monitor_contention),
    rule!(jvm::deadlock),
    rule!(jvm::heap_vs_cgroup),
    rule!(jvm::heap_growth),
    rule!(yarn::vmem_check),
    rule!(proc::fd_exhaustion),
    rule!(proc::service_failing),
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Evaluation {
    /// Findings, ranked: severity, then score, both descending.
    pub findings: Vec<Finding>,
    /// Per rule id, what it concluded.
    pub results: Vec<(&'static str, RuleResult)>,
}

/// Runs every rule over `facts`. The rules are pure over the facts and run in parallel; their
/// findings and results are gathered in registry order, as if run one after the other.
pub fn evaluate(facts: &HostFacts) -> Evaluation {
    use rayon::prelude::*;
    let checks: Vec<Check> = RULES.par_iter().map(|rule| rule.run(facts)).collect();
    let mut findings = Vec::new();
    let mut results = Vec::new();
    for (rule, check) in RULES.iter().zip(checks) {
        let r = match check {
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
mod registry_tests {
    //! The registry holds every rule to one shape: a unique id that names its file, complete
    //! documentation, thresholds with sources, a symptom group, and tests of both outcomes.

    use super::*;
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    /// `analyzer/src`.
    fn src() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    /// The rule's file, from what `file!()` recorded (relative to the workspace or the crate).
    fn file_of(m: &RuleMeta) -> PathBuf {
        let f = m.file.replace('\\', "/");
        let rel = &f[f.find("src/rules/").expect("rules live under src/rules/") + 4..];
        src().join(rel)
    }

    /// `rules/<prefix>/<name>.rs` for `<prefix>.<name>`, `-` written `_`.
    fn expected_file(id: &str) -> PathBuf {
        let (prefix, name) = id.split_once('.').expect("an id is `<prefix>.<name>`");
        src()
            .join("rules")
            .join(prefix)
            .join(format!("{}.rs", name.replace('-', "_")))
    }

    /// Names of the `#[test]` functions in `text`.
    fn tests_in(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut after_test = false;
        for line in text.lines().map(str::trim) {
            if line == "#[test]" {
                after_test = true;
            } else if after_test {
                if let Some(rest) = line.strip_prefix("fn ") {
                    out.push(rest.split('(').next().unwrap_or("").to_string());
                }
                after_test = line.starts_with("#[");
            }
        }
        out
    }

    #[test]
    fn ids_are_unique_and_name_their_file() {
        let mut seen = BTreeSet::new();
        for r in RULES {
            let m = r.meta;
            assert!(seen.insert(m.id), "duplicate rule id {}", m.id);
            assert!(
                m.id.split_once('.').is_some_and(|(a, b)| !a.is_empty()
                    && !b.is_empty()
                    && m.id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-".contains(c))),
                "{}: an id is `<prefix>.<name>` in lower case",
                m.id
            );
            assert_eq!(
                file_of(m),
                expected_file(m.id),
                "{}: defined in the wrong file",
                m.id
            );
        }
    }

    #[test]
    fn every_rule_file_is_registered() {
        let registered: BTreeSet<PathBuf> = RULES.iter().map(|r| file_of(r.meta)).collect();
        let mut files = BTreeSet::new();
        for dir in std::fs::read_dir(src().join("rules")).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "rs") {
                    files.insert(f);
                }
            }
        }
        let orphans: Vec<_> = files.difference(&registered).collect();
        assert!(orphans.is_empty(), "rule files not in RULES: {orphans:?}");
    }

    #[test]
    fn every_doc_field_is_written() {
        for r in RULES {
            let m = r.meta;
            for (field, text) in [
                ("title", m.title),
                ("fires_when", m.fires_when),
                ("checks", m.checks),
                ("why", m.why),
                ("false_positives", m.false_positives),
                ("remedy", m.remedy),
            ] {
                assert!(!text.trim().is_empty(), "{}: empty `{field}`", m.id);
            }
            assert!(!m.thresholds.is_empty(), "{}: no threshold", m.id);
            assert!(!m.needs.is_empty(), "{}: needs no fact", m.id);
            for f in m.reads {
                assert!(
                    !m.needs.contains(f),
                    "{}: `{}` both needed and read",
                    m.id,
                    f.name()
                );
            }
        }
    }

    #[test]
    fn every_threshold_has_a_source() {
        for r in RULES {
            let m = r.meta;
            for t in m.thresholds {
                assert!(
                    !t.name.trim().is_empty() && !t.meaning.trim().is_empty(),
                    "{}: a threshold without its name or meaning",
                    m.id
                );
                assert!(
                    !t.sources.is_empty(),
                    "{}: threshold `{}` has no source",
                    m.id,
                    t.name
                );
                // A sample case illustrates a threshold; it is not where the value comes from.
                assert!(
                    t.sources.iter().any(|s| !matches!(s, Source::Case(_))),
                    "{}: threshold `{}` cites only sample cases: name a document, or rca's reasoning",
                    m.id,
                    t.name
                );
                for s in t.sources {
                    let ok = match s {
                        Source::Doc {
                            document,
                            section,
                            url,
                        } => {
                            !document.trim().is_empty()
                                && section.is_none_or(|x| !x.trim().is_empty())
                                && url.is_none_or(|u| u.starts_with("https://"))
                        }
                        Source::Case(_) => s.address().is_some(),
                        Source::Rca(why) => !why.trim().is_empty(),
                    };
                    assert!(ok, "{}: threshold `{}` cites an empty source", m.id, t.name);
                }
            }
        }
    }

    #[test]
    fn every_rule_is_in_a_symptom_group() {
        for r in RULES {
            let m = r.meta;
            assert!(!m.groups.is_empty(), "{}: in no symptom group", m.id);
            let distinct: BTreeSet<_> = m.groups.iter().map(|g| g.label()).collect();
            assert_eq!(
                distinct.len(),
                m.groups.len(),
                "{}: a group named twice",
                m.id
            );
        }
        for g in SymptomGroup::ALL {
            assert!(
                RULES.iter().any(|r| r.meta.groups.contains(g)),
                "no rule in the `{g}` group"
            );
        }
    }

    #[test]
    fn what_a_rule_explains_is_another_registered_rule() {
        for r in RULES {
            for e in r.meta.explains {
                assert!(meta(e).is_some(), "{} explains unknown rule {e}", r.meta.id);
                assert_ne!(*e, r.meta.id, "{} explains itself", r.meta.id);
            }
        }
    }

    #[test]
    fn every_rule_has_a_positive_and_a_negative_test() {
        for r in RULES {
            let m = r.meta;
            let text = std::fs::read_to_string(file_of(m)).unwrap();
            let tests = tests_in(&text);
            assert!(
                tests.iter().any(|t| t.starts_with("fires_")),
                "{}: no `fires_*` test in {}",
                m.id,
                m.file
            );
            assert!(
                tests
                    .iter()
                    .any(|t| t.starts_with("clear_") || t.starts_with("not_evaluated_")),
                "{}: no `clear_*` or `not_evaluated_*` test in {}",
                m.id,
                m.file
            );
        }
    }

    #[test]
    fn with_no_facts_no_rule_is_evaluated() {
        let none = HostFacts::default();
        for r in RULES {
            assert!(
                matches!(r.run(&none), Check::NotEvaluated(_)),
                "{} judged a host it knows nothing about",
                r.meta.id
            );
        }
    }

    #[test]
    fn the_test_finder_sees_test_functions_only() {
        let text = "#[test]\nfn fires_a() {}\nfn clear_helper() {}\n#[test]\n#[should_panic]\nfn clear_b() {}";
        assert_eq!(tests_in(text), ["fires_a", "clear_b"]);
    }
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
