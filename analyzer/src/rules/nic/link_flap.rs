//! `nic.link-flap`: NICs that lost their link, or whose transmit queue timed out.
//!
//! Reads the kernel log events: the drivers' link messages (`e1000e … eth0: NIC Link is Down`,
//! `mlx5_core … ens1f0: Link down`) and `NETDEV WATCHDOG: eth0 (ixgbe): transmit queue 0 timed
//! out` (net/sched/sch_generic.c `dev_watchdog`).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::klog::{at, evidence, relevant, verdict, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.link-flap",
    title: "NIC link lost, or transmit queue timed out",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "link-down messages of a NIC driver",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: the carrier went down (operstate `down`/`lowerlayerdown`); a link \
                      that only comes up (at boot) is not a flap",
            sources: &[Source::Doc {
                document: "Linux kernel documentation, Documentation/networking/operstates.rst",
                section: Some("Querying from userspace: carrier"),
                url: Some("https://docs.kernel.org/networking/operstates.html"),
            }],
        },
        Threshold {
            name: "`NETDEV WATCHDOG: … transmit queue N timed out`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: a transmit queue made no progress for the driver's `watchdog_timeo`; \
                      the driver resets the device (`ndo_tx_timeout`)",
            sources: &[Source::Doc {
                document: "Linux kernel documentation, Documentation/networking/netdevices.rst",
                section: Some("ndo_tx_timeout"),
                url: Some("https://docs.kernel.org/networking/netdevices.html"),
            }],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): a warning; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "the kernel log shows a NIC's link going down or a transmit queue timing out",
    checks: "The NIC drivers' link messages (`NIC Link is Down`/`Up` of e1000e, igb, ixgbe, i40e, \
             bnx2x, bnxt_en; `Link down`/`up` of mlx5_core; `Link is down` of tg3) and the \
             transmit watchdog's timeouts, per interface.",
    why: "While the link is down nothing is sent or received: connections stall, retransmit and \
          time out; a bond fails over. A transmit timeout resets the NIC, which drops its queues \
          and often the link. Flapping points at the cable, the switch port, optics or the driver.",
    false_positives: "Planned maintenance (a switch reload, an `ip link set down`) and links \
                      that come up at boot print the same messages; only link-down messages and \
                      timeouts count here.",
    remedy: "Check the switch port's log and counters, the cable or optics (`ethtool -m`), the \
             NIC's error counters (`ethtool -S`), and the driver and firmware versions \
             (`ethtool -i`).",
    file: file!(),
};

fn iface(e: &KernelEvent) -> Option<&str> {
    match &e.kind {
        EventKind::LinkDown { iface, .. } | EventKind::TxTimeout { iface, .. } => Some(iface),
        _ => None,
    }
}

/// Link-down and transmit-timeout messages.
pub fn check(f: &HostFacts) -> Check {
    let Some(log) = f.klog.get() else {
        return Check::NotEvaluated("no kernel log in the bundle".into());
    };
    let all: Vec<_> = log.events.iter().filter(|e| iface(e).is_some()).collect();
    if all.is_empty() {
        let ups = log.of("link-up").count();
        return Check::Clear(if ups > 0 {
            format!("{ups} link-up message(s) and no link down or transmit timeout")
        } else {
            "no link down or transmit timeout in the kernel log".into()
        });
    }
    let ev = relevant(&all);
    let v = verdict(&all, META.severity, log);
    let mut nics: Vec<&str> = ev.iter().filter_map(|e| iface(e)).collect();
    nics.sort_unstable();
    nics.dedup();
    let downs = ev.iter().filter(|e| e.kind.class() == "link-down").count();
    let timeouts = ev.len() - downs;
    let mut parts = Vec::new();
    if downs > 0 {
        parts.push(format!("{downs} link down"));
    }
    if timeouts > 0 {
        parts.push(format!(
            "{timeouts} transmit timeout{}",
            if timeouts == 1 { "" } else { "s" }
        ));
    }
    // The link-up lines of the same interfaces show how long each outage lasted.
    let mut lines: Vec<&KernelEvent> = ev.clone();
    lines.extend(log.events.iter().filter(|e| {
        matches!(&e.kind, EventKind::LinkUp { iface, .. } if nics.contains(&iface.as_str()))
            && ev.iter().any(|d| d.artifact == e.artifact)
            && crate::rules::klog::is_recent(e) == crate::rules::klog::is_recent(ev[0])
    }));
    lines.sort_by(|a, b| a.lines.cmp(&b.lines));
    Check::Found(vec![crate::rules::klog::ranged(
        finding(
            &META,
            v.severity,
            v.confidence,
            format!("{} on {} {}", parts.join(", "), nics.join(", "), v.when),
            format!(
            "The kernel reported {} losing its link or its transmit queue stalling; the last at \
             {}.",
            if nics.len() == 1 { "the NIC" } else { "NICs" },
            at(ev[ev.len() - 1], log)
        ),
            evidence(&lines, "link down/up and transmit timeout messages"),
            ev.len() as f64 * 10.0,
        ),
        &ev,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn link(up: bool, before: f64, line: usize) -> KernelEvent {
        let (iface, driver) = ("eth0".to_string(), "e1000e".to_string());
        let kind = if up {
            EventKind::LinkUp { iface, driver }
        } else {
            EventKind::LinkDown { iface, driver }
        };
        ev(
            kind,
            Some(before),
            line,
            "e1000e 0000:00:19.0 eth0: NIC Link is Down",
        )
    }

    #[test]
    fn fires_on_a_flap_with_its_up_line() {
        let f = facts(vec![link(false, 120.0, 5), link(true, 110.0, 6)]);
        let v = found(check(&f));
        assert_eq!(
            v[0].title,
            "1 link down on eth0 during or within an hour before the collection window"
        );
        assert_eq!(v[0].evidence[0].lines, vec![5, 6]);
    }

    #[test]
    fn fires_on_a_transmit_timeout() {
        let f = facts(vec![ev(
            EventKind::TxTimeout {
                iface: "eth1".into(),
                driver: Some("ixgbe".into()),
            },
            Some(10.0),
            8,
            "NETDEV WATCHDOG: eth1 (ixgbe): transmit queue 0 timed out",
        )]);
        assert!(found(check(&f))[0]
            .title
            .starts_with("1 transmit timeout on eth1"));
    }

    #[test]
    fn clear_with_links_coming_up_only() {
        assert!(is_clear(&check(&facts(vec![link(true, 86_000.0, 2)]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
