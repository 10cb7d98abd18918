//! `net.rx-drops`: packets dropped on receive during the window.
//!
//! Reads each interface's receive counters between the two `/proc/net/dev` snapshots of the
//! window: drops, FIFO overruns and errors per second; with one snapshot only, the counters since
//! boot.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::sources::REDHAT_NETWORK_TUNING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Receive drops (incl. FIFO overruns and errors) per second for a warning.
const DROPS_WARN_PER_S: f64 = 1.0;
/// ... and for critical.
const DROPS_CRIT_PER_S: f64 = 100.0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.rx-drops",
    title: "Packets dropped on receive",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "drops + FIFO overruns + errors",
            value: Limit::Num(DROPS_WARN_PER_S),
            unit: "/s",
            meaning: "at or above, on average over the window: a warning (any steadily growing \
                      drop counter needs attention); counted since boot only (one snapshot): \
                      information, with the rate per hour of uptime",
            sources: &[REDHAT_NETWORK_TUNING, Source::Case(1)],
        },
        Threshold {
            name: "drops + FIFO overruns + errors",
            value: Limit::Num(DROPS_CRIT_PER_S),
            unit: "/s",
            meaning: "at or above: critical (case S1: 124–318 drops/s on the guest NIC, none on \
                      physical)",
            sources: &[
                Source::Rca(
                    "two orders of magnitude above the warning level: loss at that rate costs \
                     retransmissions on every busy connection",
                ),
                Source::Case(1),
            ],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "receive drops + FIFO + errors ≥ 1/s (critical ≥ 100/s) between the `/proc/net/dev` snapshots",
    checks: "Per interface, receive drops + FIFO overruns + errors per second between the two \
             `/proc/net/dev` snapshots of the window.",
    why: "Every dropped TCP segment costs a retransmission timeout or a fast-retransmit round \
          trip; sustained drops cap throughput and add latency spikes (case S1: 124–318 drops/s on \
          the guest NIC, none on physical).",
    false_positives: "Drops of traffic nobody wants (multicast floods, unknown VLANs) counted by \
                      some drivers.",
    remedy: "Find the layer: ring overflow (`ethtool -S` rx_missed/rx_no_buffer → larger rings, \
             more queues), backlog (`netdev_max_backlog`, `/proc/net/softnet_stat` column 2), or \
             CPU (soft-IRQ saturation).",
    file: file!(),
};

/// Receive drops, FIFO overruns and errors per second of every interface.
pub fn check(f: &HostFacts) -> Check {
    let measured: Vec<&Nic> = f
        .nics
        .iter()
        .filter(|n| n.rates.is_some() && n.name != "lo")
        .collect();
    if measured.is_empty() {
        return since_boot(f);
    }
    let mut out = Vec::new();
    for n in &measured {
        let r = n.rates.as_ref().expect("filtered");
        let bad = r.rx_drop_per_s + r.rx_fifo_per_s + r.rx_err_per_s;
        if bad < DROPS_WARN_PER_S {
            continue;
        }
        let sev = if bad >= DROPS_CRIT_PER_S {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let share = if r.rx_packets_per_s > 0.0 {
            format!(
                " ({:.2} % of received packets)",
                100.0 * bad / (r.rx_packets_per_s + bad)
            )
        } else {
            String::new()
        };
        let mut ev: Vec<Evidence> = r
            .evidence
            .iter()
            .map(|c| c.evidence(format!("{} counters", n.name)))
            .collect();
        ev.truncate(4);
        out.push(Finding {
            details: vec![format!(
                "drop {:.1}/s, fifo {:.1}/s, errors {:.1}/s over {:.0} s; received {:.0} packets/s.",
                r.rx_drop_per_s, r.rx_fifo_per_s, r.rx_err_per_s, r.seconds, r.rx_packets_per_s
            )],
            ..finding(
                &META,
                sev,
                Confidence::High,
                format!("{} drops {bad:.0} received packets per second", n.name),
                format!("Between the two `/proc/net/dev` snapshots {} lost {bad:.1} packets/s on receive{share}.", n.name),
                ev,
                bad.min(10_000.0),
            )
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{} interface(s) measured over the window",
            measured.len()
        ))
    } else {
        Check::Found(out)
    }
}

/// One `/proc/net/dev` snapshot: drops counted since boot, as information with the rate per hour
/// of uptime (they date nothing).
fn since_boot(f: &HostFacts) -> Check {
    let read: Vec<&Nic> = f
        .nics
        .iter()
        .filter(|n| n.since_boot.is_some() && n.name != "lo")
        .collect();
    if read.is_empty() {
        return Check::NotEvaluated(
            "no `/proc/net/dev` snapshot to read receive drops from".into(),
        );
    }
    let mut out = Vec::new();
    for n in &read {
        let Some(t) = n.since_boot.as_ref().filter(|t| t.value.rx_bad > 0) else {
            continue;
        };
        let change = crate::facts::CounterChange {
            delta: t.value.rx_bad,
            seconds: None,
            between: None,
        };
        let w = crate::rules::common::counter_words(
            &change,
            f.platform.uptime_s.as_ref(),
            Confidence::High,
        );
        let share = if t.value.rx_packets > 0 {
            format!(
                " ({:.3} % of received packets)",
                100.0 * t.value.rx_bad as f64 / (t.value.rx_packets + t.value.rx_bad) as f64
            )
        } else {
            String::new()
        };
        let mut ev = vec![t.evidence(format!("{} counters", n.name))];
        ev.extend(w.uptime);
        out.push(finding(
            &META,
            w.severity,
            w.confidence,
            format!("{} dropped {} received packets {}", n.name, t.value.rx_bad, w.when),
            format!(
                "`/proc/net/dev` counts {} receive drops, FIFO overruns and errors on {}{share}, {}.",
                t.value.rx_bad, n.name, w.when
            ),
            ev,
            1.0,
        ));
    }
    if out.is_empty() {
        Check::Clear(format!(
            "no receive drop since boot on {} interface(s) (one snapshot)",
            read.len()
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::NicRates;
    use crate::rules::testkit::nic::{host, nic};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_at_one_and_a_hundred_per_second() {
        let rate = |d: f64| {
            let mut n = nic("eth0");
            n.rates = Some(NicRates {
                seconds: 60.0,
                rx_packets_per_s: 50_000.0,
                rx_drop_per_s: d,
                ..Default::default()
            });
            host(4, vec![n])
        };
        assert_eq!(found(check(&rate(150.0)))[0].severity, Severity::Critical);
        assert_eq!(
            found(check(&rate(DROPS_CRIT_PER_S)))[0].severity,
            Severity::Critical
        );
        assert_eq!(found(check(&rate(1.0)))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_below_one_per_second_and_not_evaluated_without_counters() {
        let rate = |d: f64| {
            let mut n = nic("eth0");
            n.rates = Some(NicRates {
                seconds: 60.0,
                rx_packets_per_s: 50_000.0,
                rx_drop_per_s: d,
                ..Default::default()
            });
            host(4, vec![n])
        };
        assert!(is_clear(&check(&rate(0.5))));
        assert!(is_not_evaluated(&check(&host(4, vec![nic("eth0")]))));
    }

    #[test]
    fn fires_as_information_since_boot_and_clear_without_drops() {
        let boot = |bad: u64| {
            let mut n = nic("eth0");
            n.since_boot = Some(crate::rules::testkit::c(crate::facts::NicTotals {
                rx_packets: 1_000_000,
                rx_bad: bad,
            }));
            host(4, vec![n])
        };
        let mut f = boot(500);
        f.platform.uptime_s = Some(crate::rules::testkit::c(10.0 * 3600.0));
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert_eq!(
            v[0].title,
            "eth0 dropped 500 received packets since boot (50.0 per hour over 10.0 h of uptime)"
        );
        assert!(
            v[0].why.contains("(0.050 % of received packets)"),
            "{}",
            v[0].why
        );
        assert!(is_clear(&check(&boot(0))));
    }
}
