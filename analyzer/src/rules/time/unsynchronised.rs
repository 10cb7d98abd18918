//! `time.unsynchronised`: the clock is not synchronised.
//!
//! Reads the sync daemons' status (`chronyc tracking` leap status, `timedatectl` "System clock
//! synchronized") and the process list.

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "time.unsynchronised",
    title: "The clock is not synchronised",
    area: Area::Time,
    severity: Severity::Warning,
    needs: &[Fact::Timesync],
    reads: &[Fact::Processes],
    thresholds: &[Threshold {
        name: "sync status, or a running sync daemon",
        value: Limit::Any,
        unit: "",
        meaning: "not synchronised, or no daemon: a warning",
        sources: &[Source::section(
            "chrony and systemd-timesyncd documentation",
            "leap status / NTPSynchronized",
        )],
    }],
    groups: &[SymptomGroup::Clock],
    explains: &[],
    fires_when: "no time-sync daemon, or the daemon is not synchronised",
    checks: "No time-sync daemon running, or the daemon reports it is not synchronised \
             (`chronyc tracking` Leap status, `timedatectl` \"System clock synchronized: no\").",
    why: "An undisciplined clock drifts by seconds per day; see `time.offset` for what breaks.",
    false_positives: "Hosts that take time from PTP hardware without an NTP daemon.",
    remedy: "Run and configure chronyd (or ntpd) with reachable servers.",
    file: file!(),
};

/// Whether a daemon disciplines the clock and says it is synchronised.
pub fn check(f: &HostFacts) -> Check {
    let t = &f.timesync;
    if !t.evidence_present && f.processes.list.is_empty() {
        return Check::NotEvaluated("no time-sync evidence or process list in the bundle".into());
    }
    if let Some(s) = t.synchronised.as_ref().filter(|s| !s.value) {
        return Check::Found(vec![Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: "The system clock is not synchronised".into(),
            severity: Severity::Warning,
            confidence: Confidence::High,
            why: "The time-sync daemon reports that the clock is not synchronised to any source."
                .into(),
            details: Vec::new(),
            score: 1.0,
            time_range: None,
            evidence: vec![s.evidence("sync status")],
        }]);
    }
    if t.daemons.is_empty() && t.synchronised.is_none() {
        if !t.daemons_complete {
            return Check::NotEvaluated(format!(
                "no sync status, and no complete process list to tell whether a time-sync \
                 daemon runs: {}",
                f.processes
                    .listing
                    .reason()
                    .unwrap_or("the list is partial")
            ));
        }
        return Check::Found(vec![Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: "No time-sync daemon runs".into(),
            severity: Severity::Warning,
            confidence: Confidence::Medium,
            why: "Neither chronyd, ntpd nor systemd-timesyncd appears in the process list.".into(),
            details: Vec::new(),
            score: 1.0,
            time_range: None,
            evidence: f
                .processes
                .list
                .first()
                .map(|p| vec![p.evidence("process list")])
                .unwrap_or_default(),
        }]);
    }
    Check::Clear("synchronised".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::time::off;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated, with_process};

    #[test]
    fn fires_when_unsynchronised_or_without_a_daemon() {
        let mut f = off(0.0);
        f.timesync.synchronised = Some(c(false));
        assert!(found(check(&f))[0].title.contains("not synchronised"));
        let mut g = with_process(HostFacts::default(), "sshd");
        g.timesync.daemons_complete = true;
        assert!(found(check(&g))[0].title.contains("No time-sync daemon"));
    }

    #[test]
    fn not_evaluated_without_a_complete_process_list() {
        // Some processes, none a sync daemon, but not the whole list: whether one runs is
        // unknown.
        let g = with_process(HostFacts::default(), "sshd");
        assert!(is_not_evaluated(&check(&g)));
    }

    #[test]
    fn clear_when_synchronised_and_not_evaluated_without_evidence() {
        let mut h = with_process(HostFacts::default(), "chronyd");
        h.timesync.daemons = vec![c("chronyd".into())];
        h.timesync.synchronised = Some(c(true));
        assert!(is_clear(&check(&h)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
