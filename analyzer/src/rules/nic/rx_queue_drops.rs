//! `nic.rx-queue-drops`: a NIC's receive drops concentrated on one queue.
//!
//! Reads the growth of each NIC's per-queue receive drop counters (`rxN_drops`,
//! `rx_queue_N_drops`, vmxnet3 `Rx Queue#` `pkts rx out of buf` and `drv dropped rx total`, bnxt
//! `[N]: rx_discards` …) and packet counters between two `ethtool -S` snapshots.

use crate::facts::{stats_windows, Fact, HostFacts};
use crate::rules::common::{finding, verdict};
use crate::rules::sources::KERNEL_SCALING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};
use parsers::net::ethtool::stats::{Direction, QueueTotals};

/// One queue's share of the NIC's per-queue receive drops in the window, %.
const ONE_QUEUE_PCT: u64 = 90;
/// Fewest per-queue receive drops in the window to judge where they fall.
const MIN_DROPS: u64 = 100;
/// Queues named in a finding's details, at most (the most drops first).
const MAX_NAMED: usize = 8;
/// A dropping queue that received at least this share of the packets is the one RSS favours, %.
const HOT_QUEUE_PCT: u64 = 50;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.rx-queue-drops",
    title: "NIC receive drops concentrated on one queue",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "one receive queue's share of the NIC's per-queue receive drops",
            value: Limit::Count(ONE_QUEUE_PCT),
            unit: "%",
            meaning: "at or above, with two or more receive queues counting drops: a warning \
                      (RSS spreads flows over the queues by hash; drops that all fall on one \
                      queue point at that queue, not at the NIC)",
            sources: &[KERNEL_SCALING],
        },
        Threshold {
            name: "per-queue receive drops in the window",
            value: Limit::Count(MIN_DROPS),
            unit: "packets",
            meaning: "fewer: not judged (where a handful of drops fall says nothing)",
            sources: &[Source::Rca(
                "a floor well above the drops a single burst leaves, so that the share describes \
                 the window",
            )],
        },
        Threshold {
            name: "that queue's share of the received packets",
            value: Limit::Count(HOT_QUEUE_PCT),
            unit: "%",
            meaning: "at or above: RSS sends it most of the traffic (a dominant flow, or an \
                      indirection table that favours it); below: the queue's ring or the CPU \
                      that serves it falls behind",
            sources: &[KERNEL_SCALING],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[
        crate::rules::nic::rx_out_of_buffer::META.id,
        crate::rules::net::rx_drops::META.id,
    ],
    fires_when: "one receive queue holds ≥ 90 % of a NIC's per-queue receive drops (≥ 100 in the window) between two `ethtool -S` snapshots",
    checks: "For each NIC with two `ethtool -S` snapshots and per-queue receive drop counters, \
             the growth of each receive queue's drops (out-of-buffer and driver drops; \
             sub-counters not added) and packets, and the largest queue's share of both.",
    why: "Each receive queue has its own ring, interrupt and, with RSS, its own CPU. When one \
          queue drops while the others do not, a larger ring for the whole NIC or more queues \
          treat the wrong thing: that queue gets more traffic than its CPU can take (one heavy \
          flow hashes to one queue; an uneven indirection table), or its CPU is busy with \
          something else.",
    false_positives: "A single heavy flow (one TCP connection, a tunnel whose outer header \
                      hashes alike) always lands on one queue: RSS cannot split it; a \
                      deliberately steered queue (`ethtool -N` flow rules).",
    remedy: "Look at the queue's CPU (its IRQ in `/proc/interrupts`, `smp_affinity_list`, \
             soft-IRQ time); spread flows with `ethtool -X <nic> equal <n>` or a different \
             hash key/fields (`ethtool -N <nic> rx-flow-hash …`), add queues with `ethtool -L`, \
             and raise the ring (`ethtool -G`) if bursts overflow it.",
    file: file!(),
};

/// Receive queues that count drops, each with its totals.
fn rx_queues(t: Vec<QueueTotals>) -> Vec<QueueTotals> {
    t.into_iter()
        .filter(|q| {
            q.drop_counters > 0
                && q.queue.and_then(|q| q.direction).unwrap_or(Direction::Rx) == Direction::Rx
        })
        .collect()
}

/// Where each NIC's receive drops fell among its queues.
pub fn check(f: &HostFacts) -> Check {
    let windows = match stats_windows(&f.nics) {
        Ok(w) => w,
        Err(why) => return Check::NotEvaluated(why),
    };
    let mut judged = Vec::new();
    let mut out = Vec::new();
    for (n, w) in &windows {
        let queues = rx_queues(w.growth.queue_totals());
        if queues.len() < 2 {
            continue;
        }
        judged.push(n.name.as_str());
        let total = queues
            .iter()
            .map(|q| q.drops)
            .fold(0u64, u64::saturating_add);
        let Some(top) = queues.iter().max_by_key(|q| q.drops) else {
            continue;
        };
        if total < MIN_DROPS
            || u128::from(top.drops) * 100 < u128::from(total) * u128::from(ONE_QUEUE_PCT)
        {
            continue;
        }
        let Some(index) = top.queue.map(|q| q.index) else {
            continue;
        };
        let packets: u64 = queues
            .iter()
            .filter_map(|q| q.packets)
            .fold(0, u64::saturating_add);
        let pkt_share = top
            .packets
            .filter(|_| packets > 0)
            .map(|p| (u128::from(p) * 100 / u128::from(packets)) as u64);
        let reading = match pkt_share {
            Some(s) if s >= HOT_QUEUE_PCT => format!(
                "It also received {s} % of the packets: RSS sends it most of the traffic (one \
                 heavy flow, or an indirection table that favours it)."
            ),
            Some(s) => format!(
                "It received only {s} % of the packets: its ring or the CPU that serves it \
                 falls behind."
            ),
            None => String::new(),
        };
        let share = top.drops * 100 / total.max(1);
        // The queues by drops, most first, at most MAX_NAMED of them.
        let mut by_drops: Vec<&QueueTotals> = queues.iter().collect();
        by_drops.sort_by_key(|q| std::cmp::Reverse(q.drops));
        let more = by_drops.len().saturating_sub(MAX_NAMED);
        let mut details = vec![format!(
            "Receive drops per queue {}: {}{}.",
            w.during(),
            by_drops
                .iter()
                .take(MAX_NAMED)
                .filter_map(|q| Some(format!("queue {}: {}", q.queue?.index, q.drops)))
                .collect::<Vec<_>>()
                .join(", "),
            if more > 0 {
                format!(" and {more} more queue(s)")
            } else {
                String::new()
            }
        )];
        if !reading.is_empty() {
            details.push(reading);
        }
        details.push(format!(
            "These drops are the ones `nic.rx-out-of-buffer` and `net.rx-drops` count for {} as \
             a whole: this finding says where they fall, not that there are more.",
            n.name
        ));
        // The dropping queue's counters, and the next queue's by drops to compare with.
        let other = queues
            .iter()
            .filter(|q| q.queue != top.queue)
            .max_by_key(|q| q.drops);
        let lines: Vec<usize> = std::iter::once(top)
            .chain(other)
            .flat_map(|q| q.lines.iter().copied())
            .collect();
        out.push(Finding {
            details,
            ..finding(
                &META,
                Severity::Warning,
                Confidence::Medium,
                format!(
                    "{}: receive queue {index} holds {share} % of the queue drops ({} of {total})",
                    n.name, top.drops
                ),
                format!(
                    "Of {total} receive drops counted per queue {}, queue {index} took {} and \
                     the other {} queue(s) {}.",
                    w.during(),
                    top.drops,
                    queues.len() - 1,
                    total - top.drops
                ),
                w.evidence(&lines, &format!("{} receive queues", n.name)),
                share as f64 / 100.0,
            )
        });
    }
    let none =
        || {
            format!(
            "no per-queue receive drop counters on two or more queues in the `ethtool -S` of {}",
            windows.iter().map(|(n, _)| n.name.as_str()).collect::<Vec<_>>().join(", ")
        )
        };
    verdict(
        &judged,
        out,
        none,
        "receive drops not concentrated on one queue of",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::nic::{host, nic, with_stats};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn virtio(d0: u64, d1: u64, p0: u64, p1: u64) -> String {
        format!(
            "NIC statistics:\n     rx_drops: {}\n     rx0_packets: {p0}\n     rx0_drops: {d0}\n     \
             rx1_packets: {p1}\n     rx1_drops: {d1}\n",
            d0 + d1
        )
    }

    #[test]
    fn fires_on_one_queue_and_tells_hot_from_slow() {
        let before = virtio(0, 0, 0, 0);
        // Queue 1 drops 950 of 1000 and receives 80 % of the packets: RSS favours it.
        let n = with_stats(
            nic("eth0"),
            &before,
            &virtio(50, 950, 2000, 8000),
            Some(30.0),
        );
        let v = found(check(&host(4, vec![n])));
        assert!(v[0].title.contains("queue 1 holds 95 %"), "{}", v[0].title);
        assert!(
            v[0].details[1].contains("80 % of the packets"),
            "{:?}",
            v[0].details
        );
        // The device's `rx_drops` (their sum) is cited nowhere: it is not a queue's.
        assert!(!v[0].evidence[0].lines.contains(&2));
        // The same drops on a queue that gets 20 % of the packets: it falls behind.
        let n = with_stats(
            nic("eth0"),
            &before,
            &virtio(50, 950, 8000, 2000),
            Some(30.0),
        );
        let v = found(check(&host(4, vec![n])));
        assert!(
            v[0].details[1].contains("falls behind"),
            "{:?}",
            v[0].details
        );
    }

    #[test]
    fn clear_when_spread_or_too_few() {
        let before = virtio(0, 0, 0, 0);
        let n = with_stats(nic("eth0"), &before, &virtio(400, 600, 1, 1), Some(30.0));
        assert!(is_clear(&check(&host(4, vec![n]))));
        let n = with_stats(nic("eth0"), &before, &virtio(0, 99, 1, 1), Some(30.0));
        assert!(is_clear(&check(&host(4, vec![n]))), "below the floor");
    }

    #[test]
    fn not_evaluated_without_per_queue_drop_counters() {
        let one = "NIC statistics:\n     rx_missed_errors: 5\n     rx_queue_0_packets: 7\n";
        let n = with_stats(nic("eth0"), one, one, Some(30.0));
        match check(&host(4, vec![n])) {
            Check::NotEvaluated(why) => assert!(why.contains("per-queue"), "{why}"),
            _ => panic!("expected not evaluated"),
        }
        assert!(is_not_evaluated(&check(&host(4, vec![nic("eth0")]))));
    }
}
