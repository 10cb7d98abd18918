//! `net.softnet-backlog`: the kernel's receive path drops packets or runs out of budget.
//!
//! Reads the `dropped` and `time_squeeze` columns of `/proc/net/softnet_stat` (summed over
//! CPUs; their change over the window, else their value since boot), `net.core.netdev_max_backlog`
//! and `net.core.netdev_budget` from `sysctl -a`, and the time since boot.

use crate::facts::{Fact, HostFacts};
use crate::rules::common::{counter_words, finding};
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// The kernel's documentation of the two limits.
const SYSCTL_NET: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/sysctl/net.rst",
    section: Some("netdev_max_backlog, netdev_budget, netdev_budget_usecs"),
    url: Some("https://docs.kernel.org/admin-guide/sysctl/net.html"),
};

/// Red Hat's guide, which reads the two columns.
const REDHAT_GUIDE: Source = Source::Doc {
    document: "Red Hat Enterprise Linux Network Performance Tuning Guide (Bainbridge, Maxwell, 2015)",
    section: Some("SoftIRQ misses (netdev_budget); Adapter queue (netdev_max_backlog)"),
    url: Some("https://access.redhat.com/sites/default/files/attachments/20150325_network_performance_tuning.pdf"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.softnet-backlog",
    title: "Receive backlog drops or soft-IRQ budget exhausted",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Net],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "softnet_stat `dropped` (column 2)",
            value: Limit::Any,
            unit: "packets",
            meaning: "any increase during the window: a warning; counted since boot only (one \
                      snapshot): information, with the rate per hour of uptime",
            sources: &[SYSCTL_NET, REDHAT_GUIDE],
        },
        Threshold {
            name: "softnet_stat `time_squeeze` (column 3)",
            value: Limit::Any,
            unit: "events",
            meaning: "any increase: information (a squeeze delays packets, it drops none), \
                      with the rate per hour of uptime when counted since boot",
            sources: &[SYSCTL_NET, REDHAT_GUIDE],
        },
    ],
    groups: &[SymptomGroup::NetworkPath, SymptomGroup::Softirq],
    explains: &[],
    fires_when: "`/proc/net/softnet_stat` shows backlog drops (`netdev_max_backlog`) or budget squeezes (`netdev_budget`)",
    checks: "The `dropped` and `time_squeeze` columns of `/proc/net/softnet_stat`, summed over \
             CPUs: their increase between the window's snapshots, else their value since boot \
             with the rate per hour of uptime; `net.core.netdev_max_backlog` and \
             `net.core.netdev_budget` from `sysctl -a`.",
    why: "A packet the driver hands to a CPU whose input queue already holds \
          `netdev_max_backlog` packets is dropped before any protocol sees it (column 2); a \
          receive soft-IRQ that uses up `netdev_budget` packets or `netdev_budget_usecs` with \
          packets left stops and lets them wait (column 3). Both add latency and loss that no \
          socket or NIC counter shows.",
    false_positives: "Counters since boot date nothing: a burst months ago looks the same as one \
                      during the incident, hence information only. The counters are 32-bit and \
                      wrap.",
    remedy: "Raise `net.core.netdev_max_backlog` for drops and `net.core.netdev_budget` / \
             `netdev_budget_usecs` for squeezes, and spread receive work over more CPUs (RSS \
             queues, RPS) so that no single CPU's queue fills.",
    file: file!(),
};

/// Backlog drops and budget squeezes.
pub fn check(f: &HostFacts) -> Check {
    let n = &f.net;
    if n.softnet_dropped.is_none() && n.softnet_squeezed.is_none() {
        return Check::NotEvaluated("no `/proc/net/softnet_stat` in the bundle".into());
    }
    let uptime = f.platform.uptime_s.as_ref();
    let mut out = Vec::new();
    if let Some(d) = n.softnet_dropped.as_ref().filter(|d| d.value.delta > 0) {
        let w = counter_words(&d.value, uptime, Confidence::High);
        let mut ev = vec![d.evidence("softnet_stat `dropped` (column 2)")];
        let limit = n
            .netdev_max_backlog
            .as_ref()
            .map(|b| {
                ev.push(b.evidence("net.core.netdev_max_backlog"));
                format!(" (`netdev_max_backlog` = {})", b.value)
            })
            .unwrap_or_default();
        ev.extend(w.uptime);
        out.push(finding(
            &META,
            w.severity,
            w.confidence,
            format!(
                "{} packets dropped at a full receive backlog {}",
                d.value.delta, w.when
            ),
            format!(
                "CPUs' input queues were full{limit}: the kernel dropped {} packets before the \
                 protocol stack saw them, {}.",
                d.value.delta, w.when
            ),
            ev,
            d.value.delta as f64,
        ));
    }
    if let Some(s) = n.softnet_squeezed.as_ref().filter(|s| s.value.delta > 0) {
        // A squeeze delays packets to the next round; it loses none: information, never more.
        let w = counter_words(&s.value, uptime, Confidence::Medium);
        let mut ev = vec![s.evidence("softnet_stat `time_squeeze` (column 3)")];
        let limit = n
            .netdev_budget
            .as_ref()
            .map(|b| {
                ev.push(b.evidence("net.core.netdev_budget"));
                format!(" (`netdev_budget` = {})", b.value)
            })
            .unwrap_or_default();
        ev.extend(w.uptime);
        out.push(finding(
            &META,
            Severity::Info,
            w.confidence,
            format!(
                "Receive soft-IRQ ran out of budget {} times {}",
                s.value.delta, w.when
            ),
            format!(
                "The receive soft-IRQ stopped {} times with packets still queued{limit}, {}; \
                 the rest waited for the next round.",
                s.value.delta, w.when
            ),
            ev,
            s.value.delta as f64 / 10.0,
        ));
    }
    if out.is_empty() {
        Check::Clear("no backlog drop and no budget squeeze".into())
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::CounterChange;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_drops_in_the_window() {
        let mut f = HostFacts::default();
        f.net.softnet_dropped = Some(c(CounterChange {
            delta: 120,
            seconds: Some(60.0),
            between: None,
        }));
        f.net.netdev_max_backlog = Some(c(1000));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(
            v[0].title.contains("120 packets") && v[0].title.contains("60 s window"),
            "{}",
            v[0].title
        );
        assert!(v[0].why.contains("`netdev_max_backlog` = 1000"));
    }

    #[test]
    fn fires_as_information_since_boot_with_a_rate_per_hour() {
        let mut f = HostFacts::default();
        f.net.softnet_squeezed = Some(c(CounterChange {
            delta: 0x28 + 0x55,
            seconds: None,
            between: None,
        }));
        f.platform.uptime_s = Some(c(11.0 * 3600.0 + 18.0 * 60.0));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Info);
        assert_eq!(v[0].confidence, Confidence::Low);
        assert!(
            v[0].title
                .contains("125 times since boot (11.1 per hour over 11.3 h of uptime)"),
            "{}",
            v[0].title
        );
        assert_eq!(
            v[0].evidence.len(),
            2,
            "the counter and the uptime are cited"
        );
    }

    #[test]
    fn clear_without_drops_or_squeezes() {
        let mut f = HostFacts::default();
        f.net.softnet_dropped = Some(c(CounterChange {
            delta: 0,
            seconds: None,
            between: None,
        }));
        f.net.softnet_squeezed = Some(c(CounterChange {
            delta: 0,
            seconds: None,
            between: None,
        }));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_softnet_stat() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
