//! What the kernel-log rules share: how an event's time against the collection window sets a
//! finding's severity, and how events are cited.

use super::{Confidence, Severity, Source};
use crate::evidence::Evidence;
use crate::facts::klog::{KernelEvent, KernelLog};

/// How long before the collection window's start (or, without a window, the log's last line)
/// an event still counts as part of the incident, seconds.
pub const RECENT_S: f64 = 3600.0;

/// Why [`RECENT_S`].
pub const RECENT: Source = Source::Rca(
    "the collector is run while the problem is seen: an event within the hour before counts as \
     the incident's, an older one (the collector reads a day back) as its history",
);

/// Most events cited in one finding: the latest ones.
pub const MAX_CITED: usize = 12;

/// How a set of events reads against the window.
pub(crate) struct Verdict {
    /// The rule's severity for recent or undated events, information for old ones.
    pub severity: Severity,
    /// High for dated events, medium for undated ones.
    pub confidence: Confidence,
    /// `during or within an hour before the collection window`, `5.2 h before the end of the
    /// log`, `at a time the log does not date`.
    pub when: String,
}

/// Is `e` within [`RECENT_S`] of the reference, or after it?
pub(crate) fn is_recent(e: &KernelEvent) -> bool {
    e.time.before_reference_s.is_some_and(|b| b <= RECENT_S)
}

/// The severity, confidence and wording of `events` (not empty) for a rule whose finding is
/// `severity` when they are recent.
pub(crate) fn verdict(events: &[&KernelEvent], severity: Severity, log: &KernelLog) -> Verdict {
    if events.iter().any(|e| is_recent(e)) {
        return Verdict {
            severity,
            confidence: Confidence::High,
            when: format!("during or within an hour before {}", log.reference),
        };
    }
    let newest = events
        .iter()
        .filter_map(|e| e.time.before_reference_s)
        .fold(None, |m: Option<f64>, b| Some(m.map_or(b, |m| m.min(b))));
    match newest {
        Some(b) if events.iter().all(|e| e.time.before_reference_s.is_some()) => Verdict {
            severity: Severity::Info,
            confidence: Confidence::Medium,
            when: format!("{} before {}", ago(b), log.reference),
        },
        _ => Verdict {
            severity,
            confidence: Confidence::Medium,
            when: "at a time the log does not place against the window".into(),
        },
    }
}

/// `40 min`, `5.2 h`, `3 days`.
pub(crate) fn ago(s: f64) -> String {
    if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 2.0 * 86_400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.0} days", s / 86_400.0)
    }
}

/// The events that make the finding: the recent ones when there are, else all.
pub(crate) fn relevant<'a>(events: &[&'a KernelEvent]) -> Vec<&'a KernelEvent> {
    let recent: Vec<&KernelEvent> = events.iter().copied().filter(|e| is_recent(e)).collect();
    if recent.is_empty() {
        events.to_vec()
    } else {
        recent
    }
}

/// `f` with the time range of `events` when they all fall at or after the reference (in the
/// collection window), so that the report's charts shade it; events before the window stay off
/// the time axis.
pub(crate) fn ranged(mut f: super::Finding, events: &[&KernelEvent]) -> super::Finding {
    let inside = events
        .iter()
        .all(|e| e.time.before_reference_s.is_some_and(|b| b <= 0.0));
    let times: Vec<_> = events.iter().filter_map(|e| e.time.host_time).collect();
    if inside && times.len() == events.len() {
        if let (Some(from), Some(to)) = (times.first(), times.last()) {
            f.time_range = Some(super::TimeRange {
                from: *from,
                to: *to,
            });
        }
    }
    f
}

/// Evidence for the latest [`MAX_CITED`] of `events`, one per log.
pub(crate) fn evidence(events: &[&KernelEvent], note: &str) -> Vec<Evidence> {
    let start = events.len().saturating_sub(MAX_CITED);
    let mut by_log: Vec<(String, Vec<usize>)> = Vec::new();
    for e in &events[start..] {
        match by_log.iter_mut().find(|(a, _)| *a == e.artifact) {
            Some((_, l)) => l.extend(&e.lines),
            None => by_log.push((e.artifact.clone(), e.lines.clone())),
        }
    }
    by_log
        .into_iter()
        .map(|(a, l)| Evidence::new(&a, l, note))
        .collect()
}

/// The time of an event as the log prints it, with how long before the reference.
pub(crate) fn at(e: &KernelEvent, log: &KernelLog) -> String {
    match e.time.before_reference_s {
        Some(b) if b > 0.0 => format!("{} ({} before {})", e.time.label, ago(b), log.reference),
        _ => e.time.label.clone(),
    }
}

/// The check of a rule that reports every event of one class: clear without any, else one
/// finding titled `N {noun} {when}{what}` (`what` from the events: the CPUs, the commands), with
/// `why` and the latest events' lines.
pub(crate) fn count_rule(
    meta: &'static super::RuleMeta,
    f: &crate::facts::HostFacts,
    keep: fn(&KernelEvent) -> bool,
    severity: fn(&[&KernelEvent]) -> Severity,
    noun: (&str, &str),
    what: fn(&[&KernelEvent]) -> String,
    why: &str,
) -> super::Check {
    let Some(log) = f.klog.get() else {
        return super::Check::NotEvaluated("no kernel log in the bundle".into());
    };
    let all: Vec<&KernelEvent> = log.events.iter().filter(|e| keep(e)).collect();
    if all.is_empty() {
        return super::Check::Clear(format!("no {} in {}", noun.1, log.sources.join(", ")));
    }
    let ev = relevant(&all);
    let v = verdict(&all, severity(&ev), log);
    let n = ev.len();
    super::Check::Found(vec![ranged(
        super::common::finding(
            meta,
            v.severity,
            v.confidence,
            format!(
                "{n} {}{} {}",
                if n == 1 { noun.0 } else { noun.1 },
                what(&ev),
                v.when
            ),
            format!("{why} The last at {}.", at(ev[n - 1], log)),
            evidence(&ev, noun.1),
            n as f64 * 10.0,
        ),
        &ev,
    )])
}

/// ` on CPU 3`, ` on CPUs 0, 2`, or nothing.
pub(crate) fn on_cpus(cpus: impl Iterator<Item = u32>) -> String {
    let mut c: Vec<u32> = cpus.collect();
    c.sort_unstable();
    c.dedup();
    match c.as_slice() {
        [] => String::new(),
        [x] => format!(" on CPU {x}"),
        xs => format!(
            " on CPUs {}",
            xs.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
pub(crate) mod testkit {
    //! Kernel log facts for rule tests.
    use crate::facts::klog::{EventKind, EventTime, KernelEvent, KernelLog};
    use crate::facts::{Available, HostFacts};

    /// An event `before_s` seconds before the window (`None`: undated), on line `line`.
    pub fn ev(kind: EventKind, before_s: Option<f64>, line: usize, text: &str) -> KernelEvent {
        KernelEvent {
            kind,
            time: EventTime {
                epoch: before_s.map(|b| 1_800_000_000.0 - b),
                since_boot_s: None,
                label: format!("Dec  2 10:{:02}:00", line % 60),
                before_reference_s: before_s,
                host_time: None,
            },
            artifact: "kernel/journalctl-k.txt".into(),
            lines: vec![line],
            text: text.into(),
            program: "kernel".into(),
        }
    }

    /// Facts with these kernel log events.
    pub fn facts(events: Vec<KernelEvent>) -> HostFacts {
        HostFacts {
            klog: Available::Present(KernelLog {
                sources: vec!["kernel/journalctl-k.txt".into()],
                events,
                reference_epoch: Some(1_800_000_000.0),
                reference: "the collection window",
                boot_epoch: None,
                year_assumed: false,
            }),
            ..HostFacts::default()
        }
    }
}
