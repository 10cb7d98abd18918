//! NUMA allocation counters per node: `numastat` (numactl) and
//! `/sys/devices/system/node/node<N>/numastat`.
//!
//! The kernel's counters (`Documentation/admin-guide/numastat.rst`,
//! <https://docs.kernel.org/admin-guide/numastat.html>), in pages, since boot: `numa_hit`
//! (allocated on this node as intended), `numa_miss` (allocated on this node although another
//! was preferred), `numa_foreign` (intended for this node, allocated elsewhere),
//! `interleave_hit`, `local_node` (allocated here by a CPU of this node) and `other_node`
//! (allocated here by a CPU of another node).
//!
//! - `/sys/devices/system/node/node<N>/numastat`: one `name value` line per counter. The file
//!   does not name its node (the path does) and `/proc/vmstat` prints the same names, so this
//!   kind comes from its path only.
//! - `numastat` without options (numactl 2.0.16; the same "compatibility" layout as the older
//!   Perl script): a header of node names, then one row per counter with one column per node:
//!
//! ```text
//!                            node0
//! numa_hit                 8255924
//! numa_miss                      0
//! numa_foreign                   0
//! interleave_hit              1123
//! local_node               8255924
//! other_node                     0
//! ```
//!
//! Seen on Linux 6.18 with numactl 2.0.16 (Debian 12), a one-node guest. `numastat -m`/`-n`
//! (MB tables with `Node 0` headers) are other formats, not read here.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// The counters of every node read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Numastat {
    /// Nodes in input order.
    pub nodes: Vec<NodeCounters>,
}

/// One node's counters, pages since boot.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct NodeCounters {
    /// Node number from the `numastat` header (`node1` → 1); `None` for the sysfs file, whose
    /// path names the node.
    pub node: Option<u32>,
    /// `numa_hit`.
    pub numa_hit: Option<u64>,
    /// `numa_miss`.
    pub numa_miss: Option<u64>,
    /// `numa_foreign`.
    pub numa_foreign: Option<u64>,
    /// `interleave_hit`.
    pub interleave_hit: Option<u64>,
    /// `local_node`.
    pub local_node: Option<u64>,
    /// `other_node`.
    pub other_node: Option<u64>,
    /// 1-based input line of each counter read, by its name (unknown names included).
    pub lines: BTreeMap<String, usize>,
}

impl NodeCounters {
    fn set(&mut self, name: &str, v: u64, line: usize) {
        let slot = match name {
            "numa_hit" => &mut self.numa_hit,
            "numa_miss" => &mut self.numa_miss,
            "numa_foreign" => &mut self.numa_foreign,
            "interleave_hit" => &mut self.interleave_hit,
            "local_node" => &mut self.local_node,
            "other_node" => &mut self.other_node,
            _ => {
                self.lines.insert(name.to_string(), line);
                return;
            }
        };
        *slot = Some(v);
        self.lines.insert(name.to_string(), line);
    }
}

/// `node3` → 3.
fn node_number(t: &str) -> Option<u32> {
    t.strip_prefix("node")?.parse().ok()
}

/// The node numbers of a `numastat` header (`node0 node1`), `None` unless every word is one.
fn header(line: &str) -> Option<Vec<u32>> {
    let nodes: Option<Vec<u32>> = line.split_whitespace().map(node_number).collect();
    nodes.filter(|n| !n.is_empty())
}

/// Is this `numastat` output? `Yes` when the first non-blank line is a header of node names
/// (`node0 node1 …`) and the next starts with `numa_hit` and holds one number per node.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some(nodes) = lines.next().and_then(|(l, _)| header(l)) else {
        return Sniff::No;
    };
    match lines.next() {
        Some((l, _)) => {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.first() == Some(&"numa_hit")
                && t.len() == nodes.len() + 1
                && t[1..].iter().all(|x| x.parse::<u64>().is_ok())
            {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
        None => Sniff::Unsure,
    }
}

/// Parses `numastat` (no options).
///
/// Errors: [`ParseError::Unusable`] without the node header or without any counter row. Rows
/// with a wrong number of columns or a non-number are issues.
pub fn parse(text: &str) -> Result<Parsed<Numastat>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let (hn, hl) = lines
        .next()
        .ok_or_else(|| ParseError::unusable(None, "input is empty"))?;
    let nodes = header(hl).ok_or_else(|| {
        ParseError::unusable(
            Some(hn),
            format!(
                "expected a header of node names (`node0 node1`), found `{}`",
                excerpt(hl)
            ),
        )
    })?;
    let mut out = Numastat {
        nodes: nodes
            .iter()
            .map(|&n| NodeCounters {
                node: Some(n),
                ..Default::default()
            })
            .collect(),
    };
    let mut issues = Issues::default();
    let mut rows = 0;
    for (n, line) in lines {
        let t: Vec<&str> = line.split_whitespace().collect();
        let values: Option<Vec<u64>> = t.iter().skip(1).map(|x| x.parse().ok()).collect();
        match values {
            Some(v) if v.len() == nodes.len() => {
                for (node, x) in out.nodes.iter_mut().zip(v) {
                    node.set(t[0], x, n);
                }
                rows += 1;
            }
            _ => issues.push(n, || {
                format!(
                    "expected a counter name and {} numbers, found `{}`",
                    nodes.len(),
                    excerpt(line)
                )
            }),
        }
    }
    if rows == 0 {
        return Err(ParseError::unusable(
            Some(hn),
            "no counter rows under the node header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Parses one `/sys/devices/system/node/node<N>/numastat` file into one node without a number.
///
/// Errors: [`ParseError::Unusable`] when no `name value` line was read. Other lines are issues.
pub fn parse_node(text: &str) -> Result<Parsed<Numastat>, ParseError> {
    let mut node = NodeCounters::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty()) {
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.as_slice() {
            [name, v] if name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') => {
                match v.parse() {
                    Ok(v) => node.set(name, v, n),
                    Err(_) => issues.push(n, || format!("not a counter: `{}`", excerpt(line))),
                }
            }
            _ => issues.push(n, || {
                format!("expected `name value`, found `{}`", excerpt(line))
            }),
        }
    }
    if node.lines.is_empty() {
        return Err(ParseError::unusable(None, "no `name value` counter line"));
    }
    Ok(Parsed {
        value: Numastat { nodes: vec![node] },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numastat_of_a_one_node_guest() {
        let text =
            include_str!("../../tests/fixtures/numastat/captured-numactl-2.0.16-one-node.txt");
        assert_eq!(sniff(text), Sniff::Yes);
        let p = parse(text).unwrap();
        assert!(p.issues.is_empty());
        let n = &p.value.nodes[0];
        assert_eq!(n.node, Some(0));
        assert_eq!(
            (n.numa_hit, n.numa_miss, n.interleave_hit),
            (Some(13_136_870), Some(0), Some(1123))
        );
        assert_eq!((n.local_node, n.other_node), (Some(13_136_870), Some(0)));
        assert_eq!(n.lines["other_node"], 7);
    }

    #[test]
    fn sysfs_node_file() {
        let text = include_str!("../../tests/fixtures/node-numastat/captured-linux-6.18-node0.txt");
        let n = &parse_node(text).unwrap().value.nodes[0];
        assert_eq!(n.node, None);
        assert_eq!(
            (n.numa_hit, n.numa_miss, n.other_node),
            (Some(13_138_027), Some(0), Some(0))
        );
        assert_eq!(n.lines["numa_miss"], 2);
        assert_eq!(sniff(text), Sniff::No);
    }

    #[test]
    fn two_columns_and_bad_rows() {
        let text = "            node0    node1\nnuma_hit 10 20\nnuma_miss 1\nother_node 3 4\n";
        let p = parse(text).unwrap();
        assert_eq!(p.value.nodes[1].node, Some(1));
        assert_eq!(p.value.nodes[1].other_node, Some(4));
        assert_eq!(p.issues.len(), 1);
        assert_eq!(p.issues[0].line, 3);
        assert!(parse("node0\n").is_err());
        assert!(parse("numa_hit 1\n").is_err());
    }
}
