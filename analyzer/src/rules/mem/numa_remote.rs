//! `mem.numa-remote`: a large share of memory allocations served from another NUMA node.
//!
//! Reads the per-node `local_node`/`other_node` (and `numa_miss`) page counters of
//! `/sys/devices/system/node/node<N>/numastat` snapshots (else `numastat`, since boot).

use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Share of pages allocated for CPUs of another node (`other_node` over `local_node +
/// other_node`, all nodes) for a warning over the window.
const REMOTE_WARN: f64 = 0.10;

const NUMASTAT_RST: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/numastat.rst",
    section: Some("local_node, other_node, numa_miss; memoryless nodes skew the counters"),
    url: Some("https://docs.kernel.org/admin-guide/numastat.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.numa-remote",
    title: "Memory allocated on remote NUMA nodes",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::Memory],
    reads: &[],
    thresholds: &[Threshold {
        name: "other_node / (local_node + other_node), all nodes",
        value: Limit::Num(REMOTE_WARN),
        unit: "",
        meaning: "at or above during the window on a host of two nodes or more: a warning; \
                  since boot only (one read): information; one node: not evaluated",
        sources: &[
            NUMASTAT_RST,
            Source::Rca(
                "a remote access costs about one and a half to two times a local one on \
                 two-socket servers; when one allocation in ten is remote the memory-bound part \
                 of the work slows measurably, while a few percent is the ordinary spill of \
                 a busy node",
            ),
        ],
    }],
    groups: &[SymptomGroup::Memory],
    explains: &[],
    fires_when: "≥ 10 % of the pages allocated during the window went to CPUs of another node (two nodes or more)",
    checks: "Per node, the change of `local_node` and `other_node` (and `numa_miss`) between the \
             `/sys/devices/system/node/node<N>/numastat` snapshots of the window (else one \
             `numastat`, since boot); the share of pages allocated for CPUs of another node.",
    why: "A page allocated on another node than the CPU using it is reached over the \
          interconnect: every cache miss on it costs more, and memory-bound work slows while CPU \
          utilisation looks unchanged. It happens when a process's memory outgrows its node, \
          when processes or threads move between nodes, or under a memory policy that prefers \
          another node.",
    false_positives: "Interleaved memory (`numactl --interleave`, some databases' shared \
                      memory) is remote by design. On systems with memoryless nodes the kernel \
                      document says the counters are skewed. Since-boot counters include every \
                      past workload.",
    remedy: "Bind the busy processes and their memory to one node (`numactl --cpunodebind \
             --membind`, the service's CPU and NUMA affinity settings), size them to fit a \
             node, or let automatic NUMA balancing (`kernel.numa_balancing`) move pages.",
    file: file!(),
};

/// Share of allocations made for CPUs of another node.
pub fn check(f: &HostFacts) -> Check {
    let nodes = &f.memory.numa_nodes;
    if nodes.is_empty() {
        return Check::NotEvaluated(
            "no NUMA counters (`/sys/devices/system/node/node<N>/numastat`, `numastat`) in the \
             bundle"
                .into(),
        );
    }
    if nodes.len() < 2 {
        return Check::NotEvaluated(format!(
            "one NUMA node (node{}): every allocation is local",
            nodes[0].value.node
        ));
    }
    let local: u64 = nodes
        .iter()
        .fold(0, |a, n| a.saturating_add(n.value.local_node));
    let other: u64 = nodes
        .iter()
        .fold(0, |a, n| a.saturating_add(n.value.other_node));
    let all = local.saturating_add(other);
    if all == 0 {
        return Check::NotEvaluated("no pages allocated on any node".into());
    }
    let share = other as f64 / all as f64;
    let seconds = nodes.iter().find_map(|n| n.value.seconds);
    let between = nodes.iter().find_map(|n| n.value.between);
    let window = nodes
        .iter()
        .all(|n| n.value.seconds.is_some() || n.value.between.is_some());
    let when = match (window, seconds, between) {
        (true, Some(s), _) => format!("during the {s:.0} s window"),
        (true, None, Some(source)) => {
            format!("between the two {source} snapshots (interval unknown)")
        }
        _ => "since boot".to_string(),
    };
    if share < REMOTE_WARN {
        return Check::Clear(format!(
            "{other} of {all} pages allocated for another node's CPUs ({:.1} %) {when}",
            share * 100.0
        ));
    }
    let worst = nodes
        .iter()
        .filter_map(|n| n.value.remote_share().map(|s| (n, s)))
        .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
    let (severity, confidence) = if window {
        (Severity::Warning, Confidence::Medium)
    } else {
        (Severity::Info, Confidence::Low)
    };
    let mut why = format!(
        "{other} of the {all} pages allocated on the {} nodes ({:.1} %) went to CPUs of another \
         node {when}.",
        nodes.len(),
        share * 100.0
    );
    if let Some((n, s)) = worst {
        why.push_str(&format!(
            " Node {} served {:.1} % of its allocations to other nodes ({} other_node, {} \
             numa_miss).",
            n.value.node,
            s * 100.0,
            n.value.other_node,
            n.value.numa_miss
        ));
    }
    Check::Found(vec![finding(
        &META,
        severity,
        confidence,
        format!(
            "{:.1} % of memory allocations remote across {} NUMA nodes {when}",
            share * 100.0,
            nodes.len()
        ),
        why,
        nodes
            .iter()
            .map(|n| n.evidence(format!("node{}: local_node, other_node", n.value.node)))
            .collect(),
        share * 100.0,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::numa::NumaNode;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    fn node(n: u32, local: u64, other: u64, seconds: Option<f64>) -> NumaNode {
        NumaNode {
            node: n,
            seconds,
            between: seconds.map(|_| "`numastat`"),
            numa_hit: local,
            numa_miss: other / 2,
            local_node: local,
            other_node: other,
        }
    }

    #[test]
    fn fires_over_the_window_on_two_nodes() {
        let mut f = HostFacts::default();
        f.memory.numa_nodes = vec![
            c(node(0, 80_000, 20_000, Some(60.0))),
            c(node(1, 90_000, 10_000, Some(60.0))),
        ];
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "15.0 % of memory allocations remote across 2 NUMA nodes during the 60 s window"
        );
        assert!(v[0].why.contains("Node 0 served 20.0 %"), "{}", v[0].why);
    }

    #[test]
    fn fires_as_information_since_boot() {
        let mut f = HostFacts::default();
        f.memory.numa_nodes = vec![c(node(0, 10, 90, None)), c(node(1, 10, 90, None))];
        assert_eq!(found(check(&f))[0].severity, Severity::Info);
    }

    #[test]
    fn clear_when_mostly_local() {
        let mut f = HostFacts::default();
        f.memory.numa_nodes = vec![
            c(node(0, 5_000_000, 20_000, None)),
            c(node(1, 4_000_000, 50_000, None)),
        ];
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_on_one_node_or_without_counters() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
        let mut f = HostFacts::default();
        f.memory.numa_nodes = vec![c(node(0, 13_136_870, 0, Some(10.0)))];
        let Check::NotEvaluated(why) = check(&f) else {
            panic!("one node is not evaluated");
        };
        assert_eq!(why, "one NUMA node (node0): every allocation is local");
    }
}
