//! `ethtool -S IFACE`: the driver's NIC statistics.
//!
//! Names as the driver prints them, dotted or per queue:
//! ```text
//! NIC statistics:
//!      rx_packets: 1260062
//!      port.rx_dropped: 12028
//!      rx_queue_3_packets: 0
//! ```

use super::{sniff_kind, unusable, EthtoolKind, Note, Prelude, STATS_HEADER};
use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -S` output? `Yes` on a `NIC statistics:` header.
pub fn sniff_stats(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Stats)
}

/// One NIC statistic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// Name as the driver prints it (`rx_packets`, `port.rx_dropped`, `rx_queue_3_packets`).
    pub name: String,
    /// Counter value since the driver was loaded.
    pub value: u64,
    /// 1-based input line.
    pub line: usize,
}

/// A per-queue statistic name split into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueueStat<'a> {
    /// `rx` or `tx`.
    pub direction: &'a str,
    /// Queue number.
    pub queue: u32,
    /// The rest of the name (`packets`, `drops`, `xdp_tx`).
    pub metric: &'a str,
}

/// Splits per-queue names as drivers print them: `rx_queue_3_packets` (igb, ixgbe, ena),
/// `tx_queue_0_bytes`, `rx0_drops` / `tx0_kicks` (virtio_net, mlx5). `None` for other names.
pub fn queue_stat(name: &str) -> Option<QueueStat<'_>> {
    let (direction, rest) = if let Some(r) = name.strip_prefix("rx") {
        ("rx", r)
    } else if let Some(r) = name.strip_prefix("tx") {
        ("tx", r)
    } else {
        return None;
    };
    let rest = rest.strip_prefix("_queue_").unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let (queue, metric) = rest.split_at_checked(digits)?;
    let queue = queue.parse().ok()?;
    let metric = metric.strip_prefix('_')?;
    (!metric.is_empty()).then_some(QueueStat {
        direction,
        queue,
        metric,
    })
}

/// `ethtool -S`: NIC statistics.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Stats {
    /// Interface from a `# ethtool -S eth0` comment, when present.
    pub interface: Option<String>,
    /// 1-based line of `NIC statistics:`.
    pub line: usize,
    /// Counters in input order (a driver may print a name twice; both are kept).
    pub stats: Vec<Stat>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

impl Stats {
    /// First counter with this name.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.stats.iter().find(|s| s.name == name).map(|s| s.value)
    }

    /// Counters whose name contains `part` (`rx_queue_3`), in input order.
    pub fn matching<'a>(&'a self, part: &'a str) -> impl Iterator<Item = &'a Stat> + 'a {
        self.stats.iter().filter(move |s| s.name.contains(part))
    }

    /// Per-queue values of one metric and direction (`("rx", "packets")`), by queue number.
    pub fn per_queue(&self, direction: &str, metric: &str) -> Vec<(u32, u64)> {
        let mut out: Vec<(u32, u64)> = self
            .stats
            .iter()
            .filter_map(|s| {
                let q = queue_stat(&s.name)?;
                (q.direction == direction && q.metric == metric).then_some((q.queue, s.value))
            })
            .collect();
        out.sort_by_key(|(q, _)| *q);
        out
    }
}

/// Parses `ethtool -S`. Errors: [`ParseError::Unusable`] without `NIC statistics:`.
///
/// A name may contain spaces (`duplicate metric: 1`); the value follows the last `: `.
pub fn parse_stats(text: &str) -> Result<Parsed<Stats>, ParseError> {
    let mut prelude = Prelude::default();
    let mut out = Stats::default();
    let mut issues = Issues::default();
    let mut started = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        if !started {
            if t == STATS_HEADER {
                started = true;
                out.line = n;
                continue;
            }
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the header `NIC statistics:`, found `{}`",
                    excerpt(line)
                ),
            ));
        }
        let Some((name, value)) = t.rsplit_once(':') else {
            issues.push(n, || {
                format!("expected `name: value`, found `{}`", excerpt(t))
            });
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        match value.parse::<u64>() {
            Ok(v) if !name.is_empty() => out.stats.push(Stat {
                name: name.to_string(),
                value: v,
                line: n,
            }),
            _ => issues.push(n, || {
                format!("expected `name: counter`, found `{}`", excerpt(t))
            }),
        }
    }
    out.notes = prelude.notes;
    out.interface = prelude.command_interface;
    if !started {
        return Err(unusable(text, &out.notes, "`NIC statistics:` header"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_names() {
        let q = queue_stat("rx_queue_3_packets").unwrap();
        assert_eq!((q.direction, q.queue, q.metric), ("rx", 3, "packets"));
        let q = queue_stat("tx0_kicks").unwrap();
        assert_eq!((q.direction, q.queue, q.metric), ("tx", 0, "kicks"));
        assert!(queue_stat("rx_packets").is_none());
        assert!(queue_stat("rx_queue_").is_none());
        assert!(queue_stat("rx99999999999_x").is_none());
    }
}
