//! Time-sync rules: clock offset, two sources fighting over the clock, no sync at all.

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::facts::HostFacts;

/// Offsets (absolute, seconds) for information / warning / critical.
const OFFSET_INFO_S: f64 = 0.010;
const OFFSET_WARN_S: f64 = 0.100;
const OFFSET_CRIT_S: f64 = 1.0;

pub static OFFSET: RuleMeta = RuleMeta {
    id: "time.offset",
    title: "System clock offset",
    area: "time",
    checks: "The system clock's offset from the sync daemon's reference: `chronyc tracking` \
             \"System time\", else the selected `ntpq -pn` peer's offset.",
    why: "Distributed systems compare timestamps across hosts: ZooKeeper and HBase expire \
          sessions and leases, Kerberos rejects tickets beyond its clock-skew limit (300 s by \
          default), and logs stop lining up for diagnosis.",
    threshold: "|offset| ≥ 10 ms is information (an NTP-disciplined LAN host keeps well under 1 \
                ms: chrony documentation), ≥ 100 ms a warning, ≥ 1 s critical (a second of skew \
                breaks lease and session ordering; MIT Kerberos clockskew default 300 s is the hard \
                limit).",
    false_positives: "A daemon that has just started and is still slewing.",
    remedy: "Find why the clock drifts (a second time source, a VM without a stable clocksource) \
             and let one daemon discipline it; `chronyc makestep` once after fixing the cause.",
};

pub static TWO_SOURCES: RuleMeta = RuleMeta {
    id: "time.two-sources",
    title: "Two time sources discipline the clock",
    area: "time",
    checks: "VMware Tools periodic time synchronisation (`vmware-toolbox-cmd timesync status`) \
             enabled while chronyd or ntpd runs; or more than one of chronyd, ntpd and \
             systemd-timesyncd running.",
    why: "Each source steps or slews the clock toward its own reference, so the clock jumps \
          back and forth and the NTP daemon's frequency estimate never settles: offsets of tens \
          of ms and drifts of 20–50 ppm (case S1).",
    threshold: "Any combination. Source: VMware KB 1006427 (timekeeping best practices for Linux \
                guests: use NTP and disable VMware Tools periodic time synchronisation) and case S1.",
    false_positives: "None while both are active.",
    remedy: "`vmware-toolbox-cmd timesync disable` (and the VM's 'Synchronize guest time with host' \
             option), keep one NTP daemon.",
};

pub static UNSYNCED: RuleMeta = RuleMeta {
    id: "time.unsynchronised",
    title: "The clock is not synchronised",
    area: "time",
    checks: "No time-sync daemon running, or the daemon reports it is not synchronised \
             (`chronyc tracking` Leap status, `timedatectl` \"System clock synchronized: no\").",
    why: "An undisciplined clock drifts by seconds per day; see `time.offset` for what breaks.",
    threshold: "Not synchronised, or no daemon. Source: chrony and systemd-timesyncd \
                documentation (leap status / NTPSynchronized).",
    false_positives: "Hosts that take time from PTP hardware without an NTP daemon.",
    remedy: "Run and configure chronyd (or ntpd) with reachable servers.",
};

/// `time.offset`.
pub fn check_offset(f: &HostFacts) -> Check {
    let Some(o) = &f.timesync.offset_s else {
        return Check::NotEvaluated(
            "no `chronyc tracking` or `ntpq -pn` offset in the bundle".into(),
        );
    };
    let a = o.value.abs();
    let sev = if a >= OFFSET_CRIT_S {
        Severity::Critical
    } else if a >= OFFSET_WARN_S {
        Severity::Warning
    } else if a >= OFFSET_INFO_S {
        Severity::Info
    } else {
        return Check::Clear(format!("offset {:.3} ms", o.value * 1000.0));
    };
    let mut ev = vec![o.evidence("system clock offset")];
    if let Some(fr) = &f.timesync.frequency_ppm {
        ev.push(fr.evidence("frequency error"));
    }
    Check::Found(vec![Finding {
        rule_id: OFFSET.id,
        explains: Vec::new(),
        area: OFFSET.area,
        title: format!("Clock offset {:+.1} ms", o.value * 1000.0),
        severity: sev,
        confidence: Confidence::High,
        why: format!(
            "The clock is {:.1} ms {} its reference{}.",
            a * 1000.0,
            if o.value >= 0.0 { "ahead of" } else { "behind" },
            f.timesync
                .frequency_ppm
                .as_ref()
                .map(|fr| format!(", frequency error {:+.3} ppm", fr.value))
                .unwrap_or_default()
        ),
        details: Vec::new(),
        score: a,
        time_range: None,
        evidence: ev,
    }])
}

/// `time.two-sources`.
pub fn check_two_sources(f: &HostFacts) -> Check {
    let t = &f.timesync;
    if !t.evidence_present {
        return Check::NotEvaluated(
            "no time-sync evidence (chronyc, ntpq, timedatectl, vmware-toolbox-cmd) in the bundle"
                .into(),
        );
    }
    let mut sources: Vec<&crate::evidence::Cited<String>> = t.daemons.iter().collect();
    sources.dedup_by(|a, b| a.value == b.value);
    let vmware = t.vmware_periodic_sync.as_ref().filter(|v| v.value);
    let n = sources.len() + usize::from(vmware.is_some());
    if n < 2 {
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
        rule_id: TWO_SOURCES.id,
        explains: Vec::new(),
        area: TWO_SOURCES.area,
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

/// `time.unsynchronised`.
pub fn check_unsynced(f: &HostFacts) -> Check {
    let t = &f.timesync;
    if !t.evidence_present && f.processes.list.is_empty() {
        return Check::NotEvaluated("no time-sync evidence or process list in the bundle".into());
    }
    if let Some(s) = t.synchronised.as_ref().filter(|s| !s.value) {
        return Check::Found(vec![Finding {
            rule_id: UNSYNCED.id,
            explains: Vec::new(),
            area: UNSYNCED.area,
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
    if t.daemons.is_empty() && t.synchronised.is_none() && !f.processes.list.is_empty() {
        return Check::Found(vec![Finding {
            rule_id: UNSYNCED.id,
            explains: Vec::new(),
            area: UNSYNCED.area,
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
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated, with_process};

    fn off(s: f64) -> HostFacts {
        let mut f = HostFacts::default();
        f.timesync.offset_s = Some(c(s));
        f.timesync.evidence_present = true;
        f
    }

    #[test]
    fn offset_thresholds() {
        assert!(is_clear(&check_offset(&off(0.0004))));
        assert_eq!(
            found(check_offset(&off(-0.035)))[0].severity,
            Severity::Info
        );
        assert_eq!(
            found(check_offset(&off(OFFSET_WARN_S)))[0].severity,
            Severity::Warning
        );
        assert_eq!(
            found(check_offset(&off(-2.5)))[0].severity,
            Severity::Critical
        );
        assert!(is_not_evaluated(&check_offset(&HostFacts::default())));
    }

    #[test]
    fn vmware_tools_and_chrony_fight() {
        let mut f = off(0.042);
        f.timesync.daemons = vec![c("chronyd".into())];
        f.timesync.vmware_periodic_sync = Some(c(true));
        let v = found(check_two_sources(&f));
        assert!(v[0].title.contains("chronyd") && v[0].title.contains("VMware"));
        f.timesync.vmware_periodic_sync = Some(c(false));
        assert!(is_clear(&check_two_sources(&f)));
    }

    #[test]
    fn unsynchronised_and_no_daemon() {
        let mut f = off(0.0);
        f.timesync.synchronised = Some(c(false));
        assert!(found(check_unsynced(&f))[0]
            .title
            .contains("not synchronised"));
        let g = with_process(HostFacts::default(), "sshd");
        assert!(found(check_unsynced(&g))[0]
            .title
            .contains("No time-sync daemon"));
        let mut h = with_process(HostFacts::default(), "chronyd");
        h.timesync.daemons = vec![c("chronyd".into())];
        h.timesync.synchronised = Some(c(true));
        assert!(is_clear(&check_unsynced(&h)));
    }
}
