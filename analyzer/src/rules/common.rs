//! Helpers shared by rules: averages, what "sustained" means, a finding's common fields, the
//! verdict over several judged subjects, and when a CPU profile is large enough to judge.

use super::{Check, Confidence, Finding, RuleMeta, Severity, Source};
use crate::evidence::Evidence;
use crate::facts::profile::Profile;
use crate::facts::profile::ProfileSource;
use crate::facts::HostFacts;

/// Arithmetic mean of the present values; `None` when there are none.
pub(crate) fn mean(v: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let (mut n, mut s) = (0usize, 0.0);
    for x in v.into_iter().flatten() {
        n += 1;
        s += x;
    }
    (n > 0).then(|| s / n as f64)
}

/// Share of a window's intervals a condition must hold in to be "sustained", %.
pub const SUSTAINED_PCT: f64 = 50.0;

/// Why [`SUSTAINED_PCT`]: the rules' own reasoning, no published source.
pub const SUSTAINED: Source = Source::Rca(
    "a condition that holds in at least half of the intervals describes the window, not a burst",
);

/// `ceil(n / 2)` ([`SUSTAINED_PCT`] of `n`), at least `min`: how many intervals make a condition
/// "sustained".
pub(crate) fn sustained_count(n: usize, min: usize) -> usize {
    n.div_ceil(2).max(min)
}

/// A finding of `meta`'s rule that explains what its metadata says it may explain, with no
/// details and no time range.
pub(crate) fn finding(
    meta: &'static RuleMeta,
    severity: Severity,
    confidence: Confidence,
    title: String,
    why: String,
    evidence: Vec<Evidence>,
    score: f64,
) -> Finding {
    Finding {
        rule_id: meta.id,
        explains: meta.explains.to_vec(),
        area: meta.area,
        title,
        severity,
        confidence,
        why,
        details: Vec::new(),
        score,
        time_range: None,
        evidence,
    }
}

/// The verdict of a rule that judges several subjects (NICs, devices): not evaluated with
/// `none` when it could judge none of them, clear with `clear` followed by the judged subjects'
/// names when it found nothing, else its findings.
pub(crate) fn verdict(
    judged: &[&str],
    out: Vec<Finding>,
    none: impl FnOnce() -> String,
    clear: &str,
) -> Check {
    if judged.is_empty() {
        Check::NotEvaluated(none())
    } else if out.is_empty() {
        Check::Clear(format!("{clear} {}", judged.join(", ")))
    } else {
        Check::Found(out)
    }
}

/// Fewer busy samples than this and a CPU profile says too little.
pub const MIN_BUSY_SAMPLES: u64 = 100;

/// Whether a profile is large enough to judge (a `perf report` gives shares, not samples).
pub(crate) fn enough_samples(p: &Profile) -> bool {
    p.busy_samples >= MIN_BUSY_SAMPLES || p.source_kind == ProfileSource::PerfReport
}

/// Why the profile rules cannot judge this host, if they cannot.
pub(crate) fn profile_not_evaluated(f: &HostFacts) -> Option<Check> {
    if f.profiles.is_empty() {
        return Some(Check::NotEvaluated(
            "no CPU profile (`perf script` or `perf report`) in the bundle".into(),
        ));
    }
    if !f.profiles.iter().any(enough_samples) {
        return Some(Check::NotEvaluated(format!(
            "the profile has fewer than {MIN_BUSY_SAMPLES} busy samples"
        )));
    }
    None
}

/// The maximum heap of `j`, cited, when it was read from an artifact.
pub(crate) fn heap_evidence(j: &crate::facts::Jvm) -> Option<Evidence> {
    let h = j.heap_max_bytes.as_ref()?;
    (!h.artifact.is_empty()).then(|| h.evidence(format!("{}: maximum heap", j.label())))
}

/// How a counter's change is put in words and weighed: over the window it is a warning with the
/// given confidence; read once, it counts since boot, which dates nothing — information at low
/// confidence, stated as a total and per hour of uptime when the uptime is known.
pub(crate) struct CounterWords {
    /// Severity: warning over the window, information since boot.
    pub severity: Severity,
    /// Confidence: lower since boot.
    pub confidence: Confidence,
    /// `during the 60 s window`, `since boot (12.5 per hour over 63.3 h of uptime)`.
    pub when: String,
    /// The uptime's evidence, when the rate per hour used it.
    pub uptime: Option<Evidence>,
}

/// Words for `change` of a counter; `uptime` is the host's time since boot. A change between two
/// snapshots is a window finding (a warning) whether or not the interval is known; a rule whose
/// threshold is a rate says so itself when the interval is unknown.
pub(crate) fn counter_words(
    change: &crate::facts::CounterChange,
    uptime: Option<&crate::evidence::Cited<f64>>,
    window_confidence: Confidence,
) -> CounterWords {
    if let (None, Some(source)) = (change.seconds, change.between) {
        return CounterWords {
            severity: Severity::Warning,
            confidence: window_confidence,
            when: format!("between the two {source} snapshots (interval unknown)"),
            uptime: None,
        };
    }
    match (change.seconds, uptime.filter(|u| u.value > 0.0)) {
        (Some(s), _) => CounterWords {
            severity: Severity::Warning,
            confidence: window_confidence,
            when: format!("during the {s:.0} s window"),
            uptime: None,
        },
        (None, Some(u)) => {
            let hours = u.value / 3600.0;
            CounterWords {
                severity: Severity::Info,
                confidence: Confidence::Low,
                when: format!(
                    "since boot ({:.1} per hour over {hours:.1} h of uptime)",
                    change.delta as f64 / hours
                ),
                uptime: Some(u.evidence("time since boot")),
            }
        }
        (None, None) => CounterWords {
            severity: Severity::Info,
            confidence: Confidence::Low,
            when: "since boot (uptime unknown)".into(),
            uptime: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sustained_means_the_share_it_names() {
        for n in 0..100usize {
            let share = (n as f64 * SUSTAINED_PCT / 100.0).ceil() as usize;
            assert_eq!(sustained_count(n, 0), share, "{n} intervals");
        }
        assert_eq!(sustained_count(2, 3), 3);
    }
}
