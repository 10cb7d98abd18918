//! `nic.rx-ring`: a receive ring far below its maximum.
//!
//! Reads each NIC's ring parameters (`ethtool -g`) and its receive drops over the window (two
//! `/proc/net/dev` snapshots).

use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::sources::REDHAT_NETWORK_TUNING;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// An RX ring below 1 / this fraction of its maximum is "far below".
const RING_FRACTION: u32 = 4;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.rx-ring",
    title: "RX ring far below its maximum",
    area: Area::Network,
    severity: Severity::Info,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[Threshold {
        name: "current RX ring",
        value: Limit::Num(1.0 / RING_FRACTION as f64),
        unit: "× its maximum",
        meaning: "below it: information; a warning when the NIC also drops packets (case S1: \
                  256 against 1024–4096; raise the ring when drops occur)",
        sources: &[Source::Case(1), REDHAT_NETWORK_TUNING],
    }],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[crate::rules::net::rx_drops::META.id],
    fires_when: "RX ring below ¼ of its maximum (a warning when the NIC drops)",
    checks: "For each NIC with `ethtool -g` output, the current RX ring size against the pre-set \
             maximum; a warning when the NIC also drops packets, information otherwise.",
    why: "The RX ring absorbs bursts while the CPU is busy; a small ring overflows into drops \
          (`rx_missed`, `fifo`) long before the CPU is saturated.",
    false_positives: "Latency-sensitive setups that keep rings small to bound queueing delay.",
    remedy: "`ethtool -G <nic> rx <max>` (persist it in the interface configuration).",
    file: file!(),
};

/// RX ring sizes against their maximum, and the NIC's drops.
pub fn check(f: &HostFacts) -> Check {
    let with_rings: Vec<&Nic> = f.nics.iter().filter(|n| n.rings.is_some()).collect();
    if with_rings.is_empty() {
        return Check::NotEvaluated("no `ethtool -g` output in the bundle".into());
    }
    let mut out = Vec::new();
    for n in with_rings {
        let r = n.rings.as_ref().expect("filtered");
        let (Some(cur), Some(max)) = (r.value.rx, r.value.rx_max) else {
            continue;
        };
        if max == 0 || cur.saturating_mul(RING_FRACTION) >= max {
            continue;
        }
        let drops = n
            .rates
            .as_ref()
            .map(|x| x.rx_drop_per_s + x.rx_fifo_per_s)
            .unwrap_or(0.0);
        let sev = if drops > 0.0 {
            Severity::Warning
        } else {
            Severity::Info
        };
        out.push(finding(
            &META,
            sev,
            Confidence::High,
            format!("{}: RX ring {cur} of a possible {max}", n.name),
            if drops > 0.0 {
                format!("The ring is under a quarter of its maximum and the NIC drops {drops:.1} packets/s.")
            } else {
                "The ring is under a quarter of its maximum; no drops were measured in this window.".to_string()
            },
            vec![r.evidence(format!("{} ring parameters", n.name))],
            1.0 - f64::from(cur) / f64::from(max),
        ));
    }
    if out.is_empty() {
        Check::Clear("RX rings at or near their maximum".into())
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{NicRates, Rings};
    use crate::rules::testkit::nic::{host, nic};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_as_information_and_as_a_warning_only_with_drops() {
        let mut n = nic("eth0");
        n.rings = Some(c(Rings {
            rx: Some(256),
            rx_max: Some(4096),
            ..Default::default()
        }));
        assert_eq!(
            found(check(&host(4, vec![n.clone()])))[0].severity,
            Severity::Info
        );
        n.rates = Some(NicRates {
            seconds: 60.0,
            rx_drop_per_s: 5.0,
            ..Default::default()
        });
        assert_eq!(
            found(check(&host(4, vec![n.clone()])))[0].severity,
            Severity::Warning
        );
    }

    #[test]
    fn clear_at_exactly_a_quarter_of_the_maximum() {
        let mut n = nic("eth0");
        // Boundary: exactly a quarter is not "far below".
        n.rings = Some(c(Rings {
            rx: Some(1024),
            rx_max: Some(4096),
            ..Default::default()
        }));
        assert!(is_clear(&check(&host(4, vec![n]))));
    }

    #[test]
    fn not_evaluated_without_ring_parameters() {
        assert!(is_not_evaluated(&check(&host(4, vec![nic("eth0")]))));
    }
}
