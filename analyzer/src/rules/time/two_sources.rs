//! `time.two-sources`: two time sources discipline the clock.
//!
//! Reads the running time-sync daemons (`ps`, `chronyc`, `ntpq`, `timedatectl`) and VMware Tools'
//! periodic time synchronisation (`vmware-toolbox-cmd timesync status`).

use crate::evidence::Cited;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Time sources adjusting the clock at once for a finding.
const MIN_SOURCES: usize = 2;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "time.two-sources",
    title: "Two time sources discipline the clock",
    area: Area::Time,
    severity: Severity::Warning,
    needs: &[Fact::Timesync],
    reads: &[],
    thresholds: &[Threshold {
        name: "active time sources",
        value: Limit::Count(MIN_SOURCES as u64),
        unit: "",
        meaning: "at or above (any combination of VMware Tools periodic sync, chronyd, ntpd, \
                  systemd-timesyncd): a warning",
        sources: &[
            Source::section(
                "VMware KB 1006427",
                "timekeeping best practices for Linux guests: use NTP and disable VMware Tools \
                 periodic time synchronisation",
            ),
            Source::Case(1),
        ],
    }],
    groups: &[SymptomGroup::Clock],
    explains: &[],
    fires_when:
        "VMware Tools periodic sync and an NTP daemon (or two daemons) both steer the clock",
    checks: "VMware Tools periodic time synchronisation (`vmware-toolbox-cmd timesync status`) \
             enabled while chronyd or ntpd runs; or more than one of chronyd, ntpd and \
             systemd-timesyncd running.",
    why: "Each source steps or slews the clock toward its own reference, so the clock jumps \
          back and forth and the NTP daemon's frequency estimate never settles: offsets of tens \
          of ms and drifts of 20–50 ppm (case S1).",
    false_positives: "None while both are active.",
    remedy:
        "`vmware-toolbox-cmd timesync disable` (and the VM's 'Synchronize guest time with host' \
             option), keep one NTP daemon.",
    file: file!(),
};

/// The time sources that adjust the clock.
pub fn check(f: &HostFacts) -> Check {
    let t = &f.timesync;
    if !t.evidence_present {
        return Check::NotEvaluated(
            "no time-sync evidence (chronyc, ntpq, timedatectl, vmware-toolbox-cmd) in the bundle"
                .into(),
        );
    }
    let mut sources: Vec<&Cited<String>> = t.daemons.iter().collect();
    sources.dedup_by(|a, b| a.value == b.value);
    let vmware = t.vmware_periodic_sync.as_ref().filter(|v| v.value);
    let n = sources.len() + usize::from(vmware.is_some());
    if n < MIN_SOURCES {
        return Check::Clear(format!("{} active time source(s)", n));
    }
    let mut names: Vec<String> = sources.iter().map(|s| s.value.clone()).collect();
    let mut ev: Vec<_> = sources
        .iter()
        .map(|s| s.evidence(format!("{} running", s.value)))
        .collect();
    if let Some(v) = vmware {
        names.push("VMware Tools periodic sync".into());
        ev.push(v.evidence("VMware Tools time sync enabled"));
    }
    if let Some(o) = &t.offset_s {
        ev.push(o.evidence("resulting offset"));
    }
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "Two time sources fight over the clock: {}",
            names.join(" and ")
        ),
        severity: Severity::Warning,
        confidence: Confidence::High,
        why: format!(
            "{} both adjust the system clock{}.",
            names.join(" and "),
            t.offset_s
                .as_ref()
                .map(|o| format!("; current offset {:+.1} ms", o.value * 1000.0))
                .unwrap_or_default()
        ),
        details: Vec::new(),
        score: n as f64,
        time_range: None,
        evidence: ev,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::time::off;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_when_vmware_tools_and_chrony_both_steer() {
        let mut f = off(0.042);
        f.timesync.daemons = vec![c("chronyd".into())];
        f.timesync.vmware_periodic_sync = Some(c(true));
        let v = found(check(&f));
        assert!(v[0].title.contains("chronyd") && v[0].title.contains("VMware"));
    }

    #[test]
    fn clear_with_one_source_and_not_evaluated_without_evidence() {
        let mut f = off(0.042);
        f.timesync.daemons = vec![c("chronyd".into())];
        f.timesync.vmware_periodic_sync = Some(c(false));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
