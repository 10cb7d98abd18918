//! `time.offset`: the system clock's offset from its reference.
//!
//! Reads the offset of `chronyc tracking` ("System time"), else of the selected `ntpq -pn`
//! peer, and the frequency error.

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Offset (absolute) for information, s.
const OFFSET_INFO_S: f64 = 0.010;
/// ... for a warning, s.
const OFFSET_WARN_S: f64 = 0.100;
/// ... for critical, s.
const OFFSET_CRIT_S: f64 = 1.0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "time.offset",
    title: "System clock offset",
    area: Area::Time,
    severity: Severity::Info,
    needs: &[Fact::Timesync],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "|offset|",
            value: Limit::Num(OFFSET_INFO_S),
            unit: "s",
            meaning: "at or above: information (an NTP-disciplined LAN host keeps well under \
                      1 ms)",
            sources: &[crate::rules::sources::CHRONY_DOCS],
        },
        Threshold {
            name: "|offset|",
            value: Limit::Num(OFFSET_WARN_S),
            unit: "s",
            meaning: "at or above: a warning",
            sources: &[Source::Rca(
                "between the information level (far above a disciplined host's offset) and the \
                 critical second",
            )],
        },
        Threshold {
            name: "|offset|",
            value: Limit::Num(OFFSET_CRIT_S),
            unit: "s",
            meaning: "at or above: critical (a second of skew breaks lease and session ordering; \
                      the Kerberos clock-skew default of 300 s is the hard limit)",
            sources: &[Source::section(
                "MIT Kerberos documentation",
                "clockskew (default 300 s)",
            )],
        },
    ],
    groups: &[SymptomGroup::Clock],
    explains: &[],
    fires_when: "clock offset ≥ 10 ms (info), ≥ 100 ms (warning), ≥ 1 s (critical)",
    checks: "The system clock's offset from the sync daemon's reference: `chronyc tracking` \
             \"System time\", else the selected `ntpq -pn` peer's offset.",
    why: "Distributed systems compare timestamps across hosts: ZooKeeper and HBase expire \
          sessions and leases, Kerberos rejects tickets beyond its clock-skew limit (300 s by \
          default), and logs stop lining up for diagnosis.",
    false_positives: "A daemon that has just started and is still slewing.",
    remedy: "Find why the clock drifts (a second time source, a VM without a stable clocksource) \
             and let one daemon discipline it; `chronyc makestep` once after fixing the cause.",
    file: file!(),
};

/// The clock's offset from its reference.
pub fn check(f: &HostFacts) -> Check {
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
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::time::off;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_at_10_ms_100_ms_and_1_s() {
        assert_eq!(found(check(&off(-0.035)))[0].severity, Severity::Info);
        assert_eq!(
            found(check(&off(OFFSET_WARN_S)))[0].severity,
            Severity::Warning
        );
        assert_eq!(found(check(&off(-2.5)))[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_under_10_ms_and_not_evaluated_without_an_offset() {
        assert!(is_clear(&check(&off(0.0004))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
