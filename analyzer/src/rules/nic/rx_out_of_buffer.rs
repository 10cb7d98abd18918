//! `nic.rx-out-of-buffer`: a NIC's receive ring ran out of buffers during the window.
//!
//! Reads the growth of each NIC's out-of-buffer counters (`rx_missed_errors`,
//! `rx_no_buffer_count`, `rx_fifo_errors`, mlx5 `rx_out_of_buffer`, vmxnet3 `pkts rx out of buf`
//! …; [`parsers::net::ethtool::stats::meaning`] names them and their sources) between two
//! `ethtool -S` snapshots, and its ring sizes (`ethtool -g`) for the remedy.

use crate::facts::{stats_windows, Fact, HostFacts};
use crate::rules::common::{finding, verdict};
use crate::rules::sources::REDHAT_NETWORK_TUNING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};
use parsers::net::ethtool::stats::{meaning, Direction, Meaning};

/// Counters cited, and queues named, at most (the largest first).
const MAX_CITED: usize = 8;

/// Out-of-buffer events per second for critical.
const OOB_CRIT_PER_S: f64 = 100.0;

/// The kernel's definitions of the standard receive counters.
const KERNEL_IF_LINK: Source = Source::Doc {
    document: "Linux kernel, include/uapi/linux/if_link.h (struct rtnl_link_stats64) and Documentation/networking/statistics.rst",
    section: Some("rx_missed_errors, rx_over_errors, rx_fifo_errors"),
    url: Some("https://docs.kernel.org/networking/statistics.html"),
};

/// VMware's articles on vmxnet3 receive ring exhaustion.
const VMWARE_RX_RING: Source = Source::Doc {
    document: "VMware KB 2039495 (Large packet loss in the guest OS using VMXNET3) and KB 1010071 / Broadcom 312565 (esxtop shows dropped receive packets)",
    section: Some("the guest's receive buffers fill: raise the RX ring size, enable RSS"),
    url: Some("https://knowledge.broadcom.com/external/article/312565"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.rx-out-of-buffer",
    title: "NIC receive ring ran out of buffers",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "growth of the out-of-buffer counters (`ethtool -S`)",
            value: Limit::Count(1),
            unit: "events in the window",
            meaning: "any growth between the two snapshots: a warning (the host had no receive \
                      buffer for a packet; each such counter only grows when the ring or the \
                      FIFO before it overflowed)",
            sources: &[KERNEL_IF_LINK, REDHAT_NETWORK_TUNING, VMWARE_RX_RING],
        },
        Threshold {
            name: "out-of-buffer events",
            value: Limit::Num(OOB_CRIT_PER_S),
            unit: "/s",
            meaning: "at or above, over a window of known length: critical",
            sources: &[Source::Rca(
                "the critical level of `net.rx-drops`: loss at that rate costs retransmissions on \
                 every busy connection",
            )],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[crate::rules::net::rx_drops::META.id],
    fires_when: "a NIC's out-of-buffer counters (`rx_missed_errors`, `rx_no_buffer_count`, `rx_out_of_buffer`, vmxnet3 `pkts rx out of buf` …) grow between two `ethtool -S` snapshots (critical ≥ 100/s)",
    checks: "For each NIC with two `ethtool -S` snapshots, the growth of the counters that count \
             packets the NIC could not hand to the host for lack of a receive buffer: the \
             largest device-level one, or the queues' sum where the driver counts per queue.",
    why: "When the receive ring has no free descriptor the NIC (or the hypervisor, for vmxnet3) \
          discards the packet before the kernel sees it: the loss shows in `/proc/net/dev` only \
          as an anonymous `drop` or `fifo`, and TCP pays it in retransmissions. These counters \
          name the cause: the ring is too small for the bursts, or the CPU that empties it is \
          late.",
    false_positives: "Drivers that count an event rather than a lost packet (`rx_no_buffer_count` \
                      counts times the ring was empty; the packet may still wait in the FIFO).",
    remedy: "`ethtool -G <nic> rx <n>` up to the maximum `ethtool -g` shows (persist it in the \
             interface configuration); when one CPU serves the queue and is busy in soft-IRQ, \
             spread the work first (`ethtool -L <nic> combined <n>`, IRQ affinity). On vmxnet3 \
             enable RSS in the guest driver and raise `Rx Ring #1` (VMware KB 2039495).",
    file: file!(),
};

/// The growth of each NIC's out-of-buffer counters over the window.
pub fn check(f: &HostFacts) -> Check {
    let windows = match stats_windows(&f.nics) {
        Ok(w) => w,
        Err(why) => return Check::NotEvaluated(why),
    };
    let mut counted = Vec::new();
    let mut out = Vec::new();
    for (n, w) in &windows {
        let d = w.growth.device_totals(Direction::Rx);
        let Some(oob) = d.out_of_buffer else {
            continue;
        };
        counted.push(n.name.as_str());
        if oob == 0 {
            continue;
        }
        let grown: Vec<&parsers::net::ethtool::stats::Stat> = w
            .growth
            .stats
            .iter()
            .filter(|s| {
                s.parent.is_none()
                    && s.value > 0
                    && meaning(&s.counter) == Meaning::OutOfBuffer
                    && s.queue.and_then(|q| q.direction).unwrap_or(Direction::Rx) == Direction::Rx
            })
            .collect();
        // The counters that grew most: a NIC may have hundreds of queues.
        let mut top = grown.clone();
        top.sort_by_key(|s| std::cmp::Reverse(s.value));
        let lines: Vec<usize> = top.iter().take(MAX_CITED).map(|s| s.line).collect();
        let mut names: Vec<&str> = grown.iter().map(|s| s.counter.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let rate = w.seconds.map(|s| oob as f64 / s);
        let sev = if rate.is_some_and(|r| r >= OOB_CRIT_PER_S) {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let rate_words = rate.map_or(String::new(), |r| format!(" ({r:.1}/s)"));
        let mut details = Vec::new();
        let mut per_queue: Vec<(u32, u64)> = w
            .growth
            .queue_totals()
            .iter()
            .filter(|q| q.out_of_buffer > 0)
            .filter_map(|q| Some((q.queue?.index, q.out_of_buffer)))
            .collect();
        if !per_queue.is_empty() {
            per_queue.sort_by_key(|&(q, n)| (std::cmp::Reverse(n), q));
            let more = per_queue.len().saturating_sub(MAX_CITED);
            let shown: Vec<String> = per_queue
                .iter()
                .take(MAX_CITED)
                .map(|(q, n)| format!("queue {q}: {n}"))
                .collect();
            let tail = if more > 0 {
                format!(" and {more} more queue(s)")
            } else {
                String::new()
            };
            details.push(format!("Per receive queue: {}{tail}.", shown.join(", ")));
        }
        let mut ev = w.evidence(&lines, &format!("{} out-of-buffer counters", n.name));
        if let Some(r) = &n.rings {
            if let (Some(cur), Some(max)) = (r.value.rx, r.value.rx_max) {
                details.push(format!("RX ring {cur} of a possible {max} (`ethtool -g`)."));
                ev.push(r.evidence(format!("{} ring parameters", n.name)));
            }
        }
        if n.rates
            .as_ref()
            .is_some_and(|r| r.rx_drop_per_s + r.rx_fifo_per_s > 0.0)
        {
            details.push(format!(
                "`/proc/net/dev` counts these among {}'s `drop`/`fifo` (`net.rx-drops`): the same \
                 packets, not more.",
                n.name
            ));
        }
        out.push(Finding {
            details,
            ..finding(
                &META,
                sev,
                Confidence::High,
                format!(
                    "{}: receive ring out of buffers {oob} times {}{rate_words}",
                    n.name,
                    w.during()
                ),
                format!(
                    "`{}` grew by {oob} {}: the NIC had no free receive buffer for those packets.",
                    names.join("`, `"),
                    w.during()
                ),
                ev,
                rate.unwrap_or(1.0).min(10_000.0),
            )
        });
    }
    let none = || {
        format!(
            "the `ethtool -S` of {} print no out-of-buffer counter",
            windows
                .iter()
                .map(|(n, _)| n.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    verdict(&counted, out, none, "no out-of-buffer counter grew on")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::nic::{host, nic, with_stats};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    const BEFORE: &str = "NIC statistics:
     Rx Queue#: 0
       ucast pkts rx: 1000
       pkts rx out of buf: 0
       drv dropped rx total: 0
          err: 0
     Rx Queue#: 1
       ucast pkts rx: 1000
       pkts rx out of buf: 10
       drv dropped rx total: 0
          err: 0
     tx timeout count: 0
";

    fn after(oob1: u64) -> String {
        BEFORE.replace(
            "pkts rx out of buf: 10",
            &format!("pkts rx out of buf: {oob1}"),
        )
    }

    #[test]
    fn fires_when_the_counter_grows_and_critical_from_a_hundred_per_second() {
        let f = host(
            4,
            vec![with_stats(nic("ens192"), BEFORE, &after(610), Some(60.0))],
        );
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning, "10/s");
        assert!(v[0].title.contains("600 times in 60 s"), "{}", v[0].title);
        assert!(
            v[0].details[0].contains("queue 1: 600"),
            "{:?}",
            v[0].details
        );
        // The later snapshot's counter line and the queue header above it, and the earlier's.
        assert_eq!(v[0].evidence[0].lines, vec![1, 7, 9]);
        assert_eq!(v[0].evidence[1].lines, vec![9]);
        let f = host(
            4,
            vec![with_stats(nic("ens192"), BEFORE, &after(6010), Some(60.0))],
        );
        assert_eq!(found(check(&f))[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_without_growth() {
        let f = host(
            4,
            vec![with_stats(nic("ens192"), BEFORE, BEFORE, Some(60.0))],
        );
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_with_one_snapshot_or_no_counter() {
        let mut n = nic("ens192");
        n.ethtool_stats = Some(crate::facts::NicStats {
            snapshots: 1,
            latest: "net/ethtool/ens192/ethtool-S.txt".into(),
            has_queues: true,
            window: Err(
                "one `ethtool -S` snapshot of ens192: growth during the window needs two".into(),
            ),
        });
        match check(&host(4, vec![n])) {
            Check::NotEvaluated(why) => assert!(why.contains("needs two"), "{why}"),
            _ => panic!("expected not evaluated"),
        }
        let plain = "NIC statistics:\n     rx_packets: 5\n";
        let f = host(4, vec![with_stats(nic("eth0"), plain, plain, Some(60.0))]);
        assert!(is_not_evaluated(&check(&f)));
        assert!(is_not_evaluated(&check(&host(4, vec![nic("eth0")]))));
    }
}
