//! `net.conntrack`: the connection-tracking table near full.
//!
//! Reads `net.netfilter.nf_conntrack_count` and `nf_conntrack_max` from `sysctl -a`.

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Conntrack fill (count / max) for a warning.
const CONNTRACK_WARN: f64 = 0.80;
/// ... and for critical.
const CONNTRACK_CRIT: f64 = 0.95;

const NF_CONNTRACK_SYSCTL: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/networking/nf_conntrack-sysctl.rst",
    section: Some("nf_conntrack_max"),
    url: Some("https://docs.kernel.org/networking/nf_conntrack-sysctl.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.conntrack",
    title: "Connection-tracking table near full",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Net],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "nf_conntrack_count / nf_conntrack_max",
            value: Limit::Num(CONNTRACK_WARN),
            unit: "",
            meaning: "at or above: a warning (nf_conntrack_max is the hard limit; packets of new \
                      connections are dropped beyond it)",
            sources: &[NF_CONNTRACK_SYSCTL],
        },
        Threshold {
            name: "nf_conntrack_count / nf_conntrack_max",
            value: Limit::Num(CONNTRACK_CRIT),
            unit: "",
            meaning: "at or above: critical",
            sources: &[NF_CONNTRACK_SYSCTL],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "`nf_conntrack_count` ≥ 80 % of `nf_conntrack_max`",
    checks: "`net.netfilter.nf_conntrack_count` against `net.netfilter.nf_conntrack_max` \
             (`sysctl -a`).",
    why: "When the table is full the kernel drops new connections' first packets (\"nf_conntrack: \
          table full, dropping packet\"): clients see connect timeouts and retries while the \
          server looks idle.",
    false_positives: "A momentary peak during the snapshot.",
    remedy: "Raise `nf_conntrack_max` (and the hash size), shorten timeouts for the dominant \
             state, or exempt the busy ports with NOTRACK rules.",
    file: file!(),
};

/// Entries in the connection-tracking table against its maximum.
pub fn check(f: &HostFacts) -> Check {
    let (Some(c), Some(m)) = (&f.net.conntrack_count, &f.net.conntrack_max) else {
        return Check::NotEvaluated(
            "nf_conntrack_count/max not in `sysctl -a` (module not loaded, or not collected)"
                .into(),
        );
    };
    if m.value == 0 {
        return Check::NotEvaluated("nf_conntrack_max is 0".into());
    }
    let fill = c.value as f64 / m.value as f64;
    let sev = if fill >= CONNTRACK_CRIT {
        Severity::Critical
    } else if fill >= CONNTRACK_WARN {
        Severity::Warning
    } else {
        return Check::Clear(format!(
            "{} of {} entries ({:.0} %)",
            c.value,
            m.value,
            fill * 100.0
        ));
    };
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "Connection-tracking table {:.0} % full ({} of {})",
            fill * 100.0,
            c.value,
            m.value
        ),
        severity: sev,
        confidence: Confidence::Medium,
        why: "New connections are dropped once the table is full.".into(),
        details: Vec::new(),
        score: fill,
        time_range: None,
        evidence: vec![
            c.evidence("nf_conntrack_count"),
            m.evidence("nf_conntrack_max"),
        ],
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_at_80_and_95_percent() {
        let mut f = HostFacts::default();
        f.net.conntrack_max = Some(c(262_144));
        f.net.conntrack_count = Some(c(262_000));
        assert_eq!(found(check(&f))[0].severity, Severity::Critical);
        f.net.conntrack_count = Some(c(209_716));
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_when_mostly_free_and_not_evaluated_without_the_counters() {
        let mut f = HostFacts::default();
        f.net.conntrack_max = Some(c(262_144));
        f.net.conntrack_count = Some(c(1000));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
