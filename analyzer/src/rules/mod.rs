//! Rules: static metadata plus a pure check over [`HostFacts`].
//!
//! In: facts for one host. Out: for every rule one [`RuleResult`]: findings (each with severity,
//! confidence, a one-line "why" and evidence pointing at artifact lines), "clear" (checked, nothing
//! wrong) or "not evaluated: reason". Findings are ranked by severity, then score.
//!
//! One rule family per module; [`RULES`] is the registry. The report's rule appendix is generated
//! from the same metadata, so documentation and behaviour cannot drift.

mod cpu;
mod disk;
mod hadoop;
mod jvm;
mod kernel;
mod memory;
mod netstack;
mod nic;
mod profile;
mod softirq;
#[cfg(test)]
mod testkit;
mod timesync;
mod zookeeper;

use crate::facts::{time_label, HostFacts};
use parsers::common::Timestamp;
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

/// Static documentation of a rule, shown in the report appendix.
#[derive(Debug, Serialize)]
pub struct RuleMeta {
    /// Stable identifier (`disk.saturation`); never reused.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// Area for filtering (`disk`, `cpu`, `network`, ...).
    pub area: &'static str,
    /// What it checks.
    pub checks: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// Threshold and its source.
    pub threshold: &'static str,
    /// Known false positives.
    pub false_positives: &'static str,
    /// What to do about it.
    pub remedy: &'static str,
}

/// Lines of one artifact cited by a finding.
#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    /// Bundle path of the artifact.
    pub artifact: String,
    /// 1-based line numbers cited, ascending (header lines included).
    pub lines: Vec<usize>,
    /// What these lines show.
    pub note: String,
    /// When set, the nearest line above the first cited line that starts with this text (after
    /// leading blanks) is cited too: the table header that names the columns (`Device`).
    #[serde(skip)]
    pub header_prefix: Option<&'static str>,
    /// The cited lines with their text, filled in after the rules ran.
    pub excerpt: Vec<ExcerptLine>,
}

/// One line of an excerpt.
#[derive(Debug, Clone, Serialize)]
pub struct ExcerptLine {
    /// 1-based line number; 0 marks an elision ("…") between non-adjacent lines.
    pub line: usize,
    /// Verbatim text of the line (long lines shortened).
    pub text: String,
}

impl Evidence {
    /// Evidence over `lines` of `artifact` (sorted and deduplicated here).
    pub fn new(artifact: &str, mut lines: Vec<usize>, note: impl Into<String>) -> Self {
        lines.sort_unstable();
        lines.dedup();
        lines.retain(|&l| l > 0);
        Evidence {
            artifact: artifact.to_string(),
            lines,
            note: note.into(),
            header_prefix: None,
            excerpt: Vec::new(),
        }
    }

    /// Also cite the nearest table header above the cited lines that starts with `prefix`.
    pub fn with_header(mut self, prefix: &'static str) -> Self {
        self.header_prefix = Some(prefix);
        self
    }
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
    /// Area (`disk`, `cpu`, ...).
    pub area: &'static str,
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

/// A registered rule.
pub struct Rule {
    /// Its documentation.
    pub meta: &'static RuleMeta,
    /// The check.
    pub check: fn(&HostFacts) -> Check,
}

/// Every rule, in evaluation order.
pub static RULES: &[Rule] = &[
    Rule {
        meta: &disk::META,
        check: disk::check,
    },
    Rule {
        meta: &cpu::IOWAIT,
        check: cpu::check_iowait,
    },
    Rule {
        meta: &softirq::META,
        check: softirq::check,
    },
    Rule {
        meta: &nic::QUEUES,
        check: nic::check_queues,
    },
    Rule {
        meta: &nic::EMULATED,
        check: nic::check_emulated,
    },
    Rule {
        meta: &nic::OFFLOADS,
        check: nic::check_offloads,
    },
    Rule {
        meta: &nic::RX_RING,
        check: nic::check_rx_ring,
    },
    Rule {
        meta: &nic::MTU,
        check: nic::check_mtu,
    },
    Rule {
        meta: &nic::DROPS,
        check: nic::check_drops,
    },
    Rule {
        meta: &netstack::CONNTRACK,
        check: netstack::check_conntrack,
    },
    Rule {
        meta: &netstack::LISTEN,
        check: netstack::check_listen,
    },
    Rule {
        meta: &memory::SWAP,
        check: memory::check_swap,
    },
    Rule {
        meta: &memory::BALLOON,
        check: memory::check_balloon,
    },
    Rule {
        meta: &timesync::OFFSET,
        check: timesync::check_offset,
    },
    Rule {
        meta: &timesync::TWO_SOURCES,
        check: timesync::check_two_sources,
    },
    Rule {
        meta: &timesync::UNSYNCED,
        check: timesync::check_unsynced,
    },
    Rule {
        meta: &kernel::TAINT,
        check: kernel::check_taint,
    },
    Rule {
        meta: &profile::MODULE_HOT,
        check: profile::check_module_hot,
    },
    Rule {
        meta: &profile::LOCKS,
        check: profile::check_locks,
    },
    Rule {
        meta: &profile::SCHED,
        check: profile::check_sched,
    },
    Rule {
        meta: &profile::SOFTIRQ_COST,
        check: profile::check_softirq,
    },
    Rule {
        meta: &zookeeper::WATCH_MANAGER,
        check: zookeeper::check_watch_manager,
    },
    Rule {
        meta: &zookeeper::TXN_LOG,
        check: zookeeper::check_txn_log,
    },
    Rule {
        meta: &zookeeper::SNAPSHOTS,
        check: zookeeper::check_snapshots,
    },
    Rule {
        meta: &jvm::OLD_GEN,
        check: jvm::check_old_gen,
    },
    Rule {
        meta: &jvm::GC_OVERHEAD,
        check: jvm::check_gc_overhead,
    },
    Rule {
        meta: &jvm::POOLS,
        check: jvm::check_pools,
    },
    Rule {
        meta: &jvm::HEAP_MEMORY,
        check: jvm::check_heap_memory,
    },
    Rule {
        meta: &hadoop::VMEM_CHECK,
        check: hadoop::check_vmem,
    },
];

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
        let r = match (rule.check)(facts) {
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

/// Arithmetic mean of the present values; `None` when there are none.
pub(crate) fn mean(v: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let (mut n, mut s) = (0usize, 0.0);
    for x in v.into_iter().flatten() {
        n += 1;
        s += x;
    }
    (n > 0).then(|| s / n as f64)
}

/// `ceil(n / 2)`, at least `min`: how many intervals make a condition "sustained".
pub(crate) fn sustained_count(n: usize, min: usize) -> usize {
    n.div_ceil(2).max(min)
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
            area: "x",
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
