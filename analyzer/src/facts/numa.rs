//! NUMA allocation counters per node: how many pages each node served to CPUs of other nodes.
//!
//! In: `/sys/devices/system/node/node<N>/numastat` snapshots (the node from the path; two
//! snapshots of each node give the change over the window), else `numastat` (numactl), read
//! once: counters since boot. Out: [`NumaNode`] per node.

use crate::artifacts::{Artifact, Collected};
use crate::evidence::Cited;
use parsers::kind;
use parsers::proc::numastat::{NodeCounters, Numastat};
use serde::Serialize;
use std::collections::BTreeMap;

/// One node's allocation counters (pages): their change over the window, else since boot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumaNode {
    /// Node number.
    pub node: u32,
    /// Seconds between the snapshots, when known.
    pub seconds: Option<f64>,
    /// The source of the two snapshots the counts are between; `None` with `seconds: None`:
    /// since boot.
    pub between: Option<&'static str>,
    /// `numa_hit`: allocated here as intended.
    pub numa_hit: u64,
    /// `numa_miss`: allocated here although another node was preferred.
    pub numa_miss: u64,
    /// `local_node`: allocated here by a CPU of this node.
    pub local_node: u64,
    /// `other_node`: allocated here by a CPU of another node.
    pub other_node: u64,
}

impl NumaNode {
    /// `other_node / (local_node + other_node)`: the share of this node's allocations made for
    /// CPUs of other nodes; `None` when nothing was allocated.
    pub fn remote_share(&self) -> Option<f64> {
        let all = self.local_node.saturating_add(self.other_node);
        (all > 0).then(|| self.other_node as f64 / all as f64)
    }
}

/// The node number in a `…/node<N>/numastat…` path.
fn node_of(path: &str) -> Option<u32> {
    let mut parts = path.rsplit('/');
    parts.next()?;
    parts.next()?.strip_prefix("node")?.parse().ok()
}

fn counters(n: &NodeCounters) -> Option<[u64; 4]> {
    Some([n.numa_hit?, n.numa_miss?, n.local_node?, n.other_node?])
}

fn lines(n: &NodeCounters) -> Vec<usize> {
    ["numa_miss", "local_node", "other_node"]
        .iter()
        .filter_map(|k| n.lines.get(*k).copied())
        .collect()
}

fn node(number: u32, v: [u64; 4], seconds: Option<f64>) -> NumaNode {
    NumaNode {
        node: number,
        seconds,
        between: seconds.map(|_| kind::NODE_NUMASTAT.source),
        numa_hit: v[0],
        numa_miss: v[1],
        local_node: v[2],
        other_node: v[3],
    }
}

/// Builds the per-node counters.
pub fn build(c: &Collected) -> Vec<Cited<NumaNode>> {
    // The sysfs files, grouped by node, in time order.
    let mut by_node: BTreeMap<u32, Vec<(&Artifact, &NodeCounters)>> = BTreeMap::new();
    for (a, x) in c.records_of::<Numastat>(&kind::NODE_NUMASTAT) {
        let (Some(n), Some(counts)) = (node_of(&a.path), x.nodes.first()) else {
            continue;
        };
        by_node.entry(n).or_default().push((a, counts));
    }
    let start = |a: &Artifact| a.record.as_ref().and_then(|r| r.start);
    let mut out = Vec::new();
    for (n, mut snaps) in by_node {
        snaps.sort_by(|x, y| {
            start(x.0)
                .partial_cmp(&start(y.0))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| x.0.path.ends_with(".end").cmp(&y.0.path.ends_with(".end")))
        });
        let (la, lx) = snaps[snaps.len() - 1];
        let Some(last) = counters(lx) else { continue };
        let (fa, fx) = snaps[0];
        let seconds = match (start(fa), start(la)) {
            (Some(t0), Some(t1)) if t1 > t0 => Some(t1 - t0),
            _ => None,
        };
        match (seconds, counters(fx)) {
            (Some(s), Some(first)) => {
                let d = [0, 1, 2, 3].map(|i| last[i].saturating_sub(first[i]));
                out.push(Cited::lines(node(n, d, Some(s)), &la.path, lines(lx)));
            }
            _ => out.push(Cited::lines(node(n, last, None), &la.path, lines(lx))),
        }
    }
    if !out.is_empty() {
        return out;
    }
    // Two `numastat` outputs: the change between them, ordered by their counters when no
    // manifest times them.
    if let Ok(p) = super::snapshots::ordered(c, &kind::NUMASTAT, |x: &Numastat| Some(x)) {
        let (la, lx) = p.last;
        let out: Vec<Cited<NumaNode>> = lx
            .nodes
            .iter()
            .filter_map(|n| {
                let number = n.node?;
                let last = counters(n)?;
                let first = p
                    .first
                    .1
                    .nodes
                    .iter()
                    .find(|f| f.node == Some(number))
                    .and_then(counters)?;
                let d = [0, 1, 2, 3].map(|i| last[i].saturating_sub(first[i]));
                let mut v = node(number, d, p.seconds);
                v.between = Some(kind::NUMASTAT.source);
                Some(Cited::lines(v, &la.path, lines(n)))
            })
            .collect();
        if !out.is_empty() {
            return out;
        }
    }
    // `numastat` read once.
    let Some((a, x)) = super::snapshots::latest_counted(c, &kind::NUMASTAT, |x: &Numastat| Some(x))
    else {
        return out;
    };
    x.nodes
        .iter()
        .filter_map(|n| {
            let v = counters(n)?;
            Some(Cited::lines(node(n.node?, v, None), &a.path, lines(n)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_comes_from_the_folder() {
        assert_eq!(super::node_of("rca-h/sys/node/node1/numastat.end"), Some(1));
        assert_eq!(
            super::node_of("sys/devices/system/node/node12/numastat"),
            Some(12)
        );
        assert_eq!(super::node_of("numastat"), None);
    }
}
