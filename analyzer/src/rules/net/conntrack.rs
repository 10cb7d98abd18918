//! `net.conntrack`: the connection-tracking table near full.
//!
//! Reads the kernel log's `nf_conntrack: table full, dropping packet` messages, and
//! `net.netfilter.nf_conntrack_count` and `nf_conntrack_max` from `sysctl -a`.

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
    reads: &[Fact::KernelLog],
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
        Threshold {
            name: "`nf_conntrack: table full, dropping packet`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any within an hour before the window or during it: critical (packets were \
                      dropped); older only: information",
            sources: &[NF_CONNTRACK_SYSCTL, crate::rules::klog::RECENT],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "the kernel log reports `nf_conntrack: table full`, or `nf_conntrack_count` ≥ 80 % of `nf_conntrack_max`",
    checks: "The kernel log's `nf_conntrack: table full, dropping packet` messages; else \
             `net.netfilter.nf_conntrack_count` against `net.netfilter.nf_conntrack_max` \
             (`sysctl -a`).",
    why: "When the table is full the kernel drops new connections' first packets (\"nf_conntrack: \
          table full, dropping packet\"): clients see connect timeouts and retries while the \
          server looks idle.",
    false_positives: "A momentary peak during the snapshot.",
    remedy: "Raise `nf_conntrack_max` (and the hash size), shorten timeouts for the dominant \
             state, or exempt the busy ports with NOTRACK rules.",
    file: file!(),
};

/// Packets dropped for a full table (kernel log), else the table's fill against its maximum.
pub fn check(f: &HostFacts) -> Check {
    use crate::rules::klog::{at, evidence, relevant, verdict};
    if let Some(log) = f.klog.get() {
        let all: Vec<_> = log.of("conntrack-full").collect();
        if !all.is_empty() {
            let ev = relevant(&all);
            let v = verdict(&all, Severity::Critical, log);
            let mut evs = evidence(&ev, "table full, dropping packet");
            if let (Some(c), Some(m)) = (&f.net.conntrack_count, &f.net.conntrack_max) {
                evs.push(c.evidence("nf_conntrack_count"));
                evs.push(m.evidence("nf_conntrack_max"));
            }
            let n = ev.len();
            return Check::Found(vec![crate::rules::klog::ranged(
                crate::rules::common::finding(
                    &META,
                    v.severity,
                    v.confidence,
                    format!(
                        "Connection-tracking table full: {n} `dropping packet` {} {}",
                        if n == 1 { "message" } else { "messages" },
                        v.when
                    ),
                    format!(
                    "The kernel dropped packets of new connections because nf_conntrack_max was \
                     reached; the last report at {}.",
                    at(ev[n - 1], log)
                ),
                    evs,
                    1.0 + n as f64,
                ),
                &ev,
            )]);
        }
    }
    from_sysctl(f)
}

/// Entries in the connection-tracking table against its maximum.
fn from_sysctl(f: &HostFacts) -> Check {
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
    fn fires_on_table_full_messages_without_sysctl() {
        use crate::facts::klog::EventKind;
        use crate::rules::klog::testkit::{ev, facts};
        let f = facts(vec![ev(
            EventKind::ConntrackFull,
            Some(120.0),
            14,
            "nf_conntrack: nf_conntrack: table full, dropping packet",
        )]);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(v[0].evidence[0].lines, vec![14]);
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
