//! `ethtool -S IFACE`: the driver's NIC statistics, each counter placed in its queue.
//!
//! The kernel hands ethtool a flat list of strings and values; each driver chooses how a queue
//! shows in them, and ethtool prints them as given. The layouts read here (the driver source that
//! prints each in brackets):
//!
//! ```text
//! NIC statistics:                        flat, the queue in the name:
//!      rx_packets: 1260062                 device-level counter
//!      rx_queue_3_packets: 0               igb, ixgbe, ice, ifb, older virtio_net
//!      rx0_drops: 0                        virtio_net (Linux ≥ 5.x), mlx4, mlx5
//!      txq0_dropped: 0                     hns3 (`rxq0_`, `txq0_`)
//!      tx-0.tx_packets: 85843565           i40e, sfc (`rx-3.packets` on older i40e)
//!      queue_0_rx_drops: 0                 ena (the direction in the counter)
//!      [2]: rx_discards: 23554             bnxt_en, bnx2x: a ring number before the counter
//! ```
//!
//! and the sectioned layout of vmxnet3 (`drivers/net/vmxnet3/vmxnet3_ethtool.c`): a header per
//! queue whose value is the queue number, its counters indented under it, sub-counters indented
//! further under the counter they break down, and the device's own counters after the last
//! queue, back at the header's indentation:
//!
//! ```text
//! NIC statistics:
//!      Tx Queue#: 0
//!        drv dropped tx total: 0
//!           too many frags: 0
//!           giant hdr: 0
//!        giant hdr: 0
//!      Rx Queue#: 1
//!        ucast pkts rx: 6346769
//!        pkts rx out of buf: 0
//!      tx timeout count: 0
//! ```
//!
//! A counter's identity is its queue, its name without the queue part, the counter it breaks
//! down and its rank among counters equal in all three ([`StatKey`]): vmxnet3's `ucast pkts rx`
//! of queue 0 and of queue 1 are two counters, and so are its `giant hdr` under `drv dropped tx
//! total` and the `giant hdr` after it. Two snapshots of one NIC subtract key by key
//! ([`Stats::since`]).
//!
//! Which counters count drops is named per counter by [`meaning`], after the kernel's definitions
//! of the standard counters and the drivers' documentation; [`Stats::queue_totals`] and
//! [`Stats::device_totals`] derive per-queue and device-wide drops and errors from it.

use super::{sniff_kind, unusable, EthtoolKind, Note, Prelude, STATS_HEADER};
use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -S` output? `Yes` on a `NIC statistics:` header.
pub fn sniff_stats(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Stats)
}

/// Receive or transmit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Receive (`rx`).
    Rx,
    /// Transmit (`tx`).
    Tx,
}

impl Direction {
    /// `rx` or `tx`.
    pub fn label(self) -> &'static str {
        match self {
            Direction::Rx => "rx",
            Direction::Tx => "tx",
        }
    }
}

/// The queue a counter belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Queue {
    /// Queue (or ring) number as the driver prints it, from 0.
    pub index: u32,
    /// Receive or transmit, when the name or the section says it; `None` for a combined
    /// channel's counter whose name does not (bnxt's `[0]: tpa_packets`).
    pub direction: Option<Direction>,
}

/// What a counter counts, as far as drops and errors go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Meaning {
    /// Packets lost because the host had no receive buffer ready: the ring (or the NIC's FIFO in
    /// front of it) was full. See [`meaning`] for the counters and their sources.
    OutOfBuffer,
    /// Other packets dropped (by the driver, the queue, or for lack of other resources).
    Dropped,
    /// Packets received or sent with errors.
    Error,
    /// Anything else: packets, bytes, kicks, allocation failures, XDP verdicts.
    Other,
}

/// One NIC statistic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// Name as the driver prints it, trimmed (`rx_packets`, `port.rx_dropped`,
    /// `rx_queue_3_packets`, `[2]: rx_discards`, `ucast pkts rx`).
    pub name: String,
    /// Counter value since the driver was loaded (or, from [`Stats::since`], its growth).
    pub value: u64,
    /// 1-based input line.
    pub line: usize,
    /// The queue it counts for; `None` for a device-level counter.
    pub queue: Option<Queue>,
    /// The name without its queue part: `packets` of `rx_queue_3_packets`, `tx_packets` of
    /// `tx-0.tx_packets`, `rx_discards` of `[2]: rx_discards`; the name itself otherwise.
    pub counter: String,
    /// Index in [`Stats::stats`] of the counter this one breaks down (vmxnet3's `err` and `fcs`
    /// under `drv dropped rx total`): printed indented below it. A sub-counter is part of its
    /// parent and never added to it.
    pub parent: Option<usize>,
}

/// A vmxnet3 queue header (`Rx Queue#: 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The queue its counters belong to.
    pub queue: Queue,
    /// 1-based input line.
    pub line: usize,
}

/// A counter's identity across snapshots of one NIC: its queue, its name without the queue part,
/// the name of the counter it breaks down, and how many counters equal in all three come before
/// it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StatKey {
    /// [`Stat::queue`].
    pub queue: Option<Queue>,
    /// [`Stat::counter`].
    pub counter: String,
    /// The parent's [`Stat::counter`].
    pub parent: Option<String>,
    /// Rank among equal keys, from 0.
    pub rank: u32,
}

/// `ethtool -S`: NIC statistics.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Stats {
    /// Interface from a `# ethtool -S eth0` comment, when present.
    pub interface: Option<String>,
    /// 1-based line of `NIC statistics:`.
    pub line: usize,
    /// Counters in input order (a name printed twice is two counters: both are kept).
    pub stats: Vec<Stat>,
    /// Queue headers of a sectioned layout, in input order.
    pub sections: Vec<Section>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

/// Drops and errors of one queue, derived from its counters by [`meaning`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct QueueTotals {
    /// The queue.
    pub queue: Option<Queue>,
    /// Packets (`packets`, `rx_packets`, vmxnet3 `ucast`/`mcast`/`bcast pkts rx`, bnxt
    /// `rx_ucast_packets` …): the sum of its packet counters, `None` without one.
    pub packets: Option<u64>,
    /// Packets lost for lack of a receive buffer ([`Meaning::OutOfBuffer`]).
    pub out_of_buffer: u64,
    /// Every drop: [`Meaning::OutOfBuffer`] and [`Meaning::Dropped`] counters summed (one
    /// queue's drop counters count disjoint events; sub-counters are left out).
    pub drops: u64,
    /// [`Meaning::Error`] counters summed.
    pub errors: u64,
    /// How many drop counters ([`Meaning::OutOfBuffer`], [`Meaning::Dropped`]) the queue has:
    /// 0 means "not counted", not "no drop".
    pub drop_counters: usize,
    /// Input lines of the counters summed into `drops`, `errors` and `packets`.
    pub lines: Vec<usize>,
}

/// Device-wide drops and errors of one direction, derived by [`meaning`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct DeviceTotals {
    /// The largest device-level [`Meaning::OutOfBuffer`] counter (`rx_missed_errors`,
    /// `rx_out_of_buffer`, …), `None` when the driver prints none.
    pub out_of_buffer: Option<u64>,
    /// Drops: the largest of the device-level drop counters and the sum of the queues' drops.
    /// Drivers print overlapping totals (virtio_net's `rx_drops` is the sum of its `rxN_drops`,
    /// e1000's `rx_fifo_errors` includes `rx_missed_errors`, procfs folds `rx_missed_errors`
    /// into `rx_dropped`), so adding them would count a drop twice: this is a lower bound that
    /// never does. `None` when the driver prints no drop counter.
    pub drops: Option<u64>,
    /// Errors, by the same rule.
    pub errors: Option<u64>,
    /// Input lines of the counters that gave the three values.
    pub lines: Vec<usize>,
}

/// Splits a flat per-queue name into its queue and the rest. Recognised (see the module doc):
/// `rx_queue_3_packets`, `tx_queue_0_bytes`, `rx0_drops`, `txq0_dropped`, `rx-3.packets`,
/// `tx-0.tx_packets`, `queue_0_rx_drops` (the direction then from the rest), `[2]: rx_discards`.
/// `None` for device-level names (`rx_packets`, `rx_1024_to_1518_bytes`).
pub fn split_queue(name: &str) -> Option<(Queue, &str)> {
    if let Some(rest) = name.strip_prefix('[') {
        let (n, rest) = leading_number(rest)?;
        let counter = rest.strip_prefix("]:")?.trim();
        return (!counter.is_empty()).then(|| {
            (
                Queue {
                    index: n,
                    direction: direction_of(counter),
                },
                counter,
            )
        });
    }
    if let Some(rest) = name.strip_prefix("queue_") {
        let (n, rest) = leading_number(rest)?;
        let counter = rest.strip_prefix('_').filter(|c| !c.is_empty())?;
        return Some((
            Queue {
                index: n,
                direction: direction_of(counter),
            },
            counter,
        ));
    }
    let (direction, rest) = if let Some(r) = name.strip_prefix("rx") {
        (Direction::Rx, r)
    } else if let Some(r) = name.strip_prefix("tx") {
        (Direction::Tx, r)
    } else {
        return None;
    };
    let (rest, seps): (&str, &[char]) = if let Some(r) = rest.strip_prefix("_queue_") {
        (r, &['_'])
    } else if let Some(r) = rest.strip_prefix('-') {
        (r, &['.'])
    } else if let Some(r) = rest.strip_prefix('q') {
        (r, &['_'])
    } else {
        (rest, &['_'])
    };
    let (n, rest) = leading_number(rest)?;
    let counter = rest.strip_prefix(seps).filter(|c| !c.is_empty())?;
    Some((
        Queue {
            index: n,
            direction: Some(direction),
        },
        counter,
    ))
}

/// A decimal number of 1 to 9 digits at the start of `s`, and what follows.
fn leading_number(s: &str) -> Option<(u32, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let (n, rest) = s.split_at_checked(digits)?;
    Some((n.parse().ok()?, rest))
}

/// The direction a counter's name states: a leading `rx`/`tx` (after `port.`), or an `rx`/`tx`
/// word (vmxnet3 `ucast pkts rx`, `drv dropped tx total`).
pub fn direction_of(counter: &str) -> Option<Direction> {
    let c = counter.strip_prefix("port.").unwrap_or(counter);
    let lead = |p: &str| {
        c.strip_prefix(p)
            .is_some_and(|r| r.is_empty() || r.starts_with(['_', ' ', '-', '.']))
    };
    if lead("rx") {
        return Some(Direction::Rx);
    }
    if lead("tx") {
        return Some(Direction::Tx);
    }
    let words = || c.split([' ', '_']);
    match (words().any(|w| w == "rx"), words().any(|w| w == "tx")) {
        (true, false) => Some(Direction::Rx),
        (false, true) => Some(Direction::Tx),
        _ => None,
    }
}

/// What a counter counts, by its name without the queue part (case does not matter).
///
/// [`Meaning::OutOfBuffer`], the host had no receive buffer ready:
/// - `rx_missed_errors`, `rx_missed`: "packets dropped by the device due to lack of buffer space
///   … the host is not keeping up with the receive packet rate" (`struct rtnl_link_stats64`,
///   include/uapi/linux/if_link.h; Documentation/networking/statistics.rst);
/// - `rx_over_errors`, `rx_fifo_errors`: receiver FIFO overflows, "packets dropped because they
///   did not fit into buffers provided by the host" (same header);
/// - `rx_no_buffer_count` (e1000, e1000e, igb): times the ring had no free descriptor (Intel's
///   RNBC register; the driver READMEs: a growing count calls for more descriptors,
///   `ethtool -G`);
/// - `rx_no_dma_resources` (ixgbe): packets dropped for want of a descriptor;
/// - `rx_out_of_buffer`, `rx_discards_phy` (mlx5: "no software buffers allocated for the
///   adapter's incoming traffic", "dropped due to lack of buffers on a physical port",
///   Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst);
/// - `pkts rx out of buf`, `pkts rx OOB` (vmxnet3, UPT1 `pktsRxOutOfBuf`: the receive ring was
///   out of buffers; VMware KB 2039495 raises the ring when it grows).
///
/// [`Meaning::Dropped`]: `rx_dropped`/`tx_dropped` ("received but not processed, e.g. due to lack
/// of resources", if_link.h), a queue's `drops`/`dropped` (virtio_net, igb's per-queue RQDPC,
/// hns3), `discards`/`rx_discards`/`tx_discards` (bnxt_en, bnx2x), `port.rx_dropped` (i40e,
/// ice), vmxnet3's `drv dropped rx total` / `drv dropped tx total` and `pkts tx discard`.
/// XDP verdicts (`xdp_drops`) are a program's decision, not a loss: [`Meaning::Other`].
///
/// [`Meaning::Error`]: names with an `err` word (`rx_errors`, `rx_crc_errors`, `pkts rx err`,
/// `rx_queue_0_csum_err`) other than the FIFO and missed counters above.
pub fn meaning(counter: &str) -> Meaning {
    let lower = counter.to_ascii_lowercase();
    let c = lower.strip_prefix("port.").unwrap_or(&lower);
    if c.contains("xdp") || c.contains("smbus") {
        return Meaning::Other;
    }
    let base = c
        .strip_prefix("rx_")
        .or_else(|| c.strip_prefix("tx_"))
        .unwrap_or(c);
    let rx = direction_of(c) != Some(Direction::Tx);
    if rx
        && (matches!(
            base,
            "missed_errors"
                | "missed"
                | "over_errors"
                | "fifo_errors"
                | "no_buffer_count"
                | "no_dma_resources"
                | "out_of_buffer"
                | "discards_phy"
        ) || matches!(c, "pkts rx out of buf" | "pkts rx oob"))
    {
        return Meaning::OutOfBuffer;
    }
    let words: Vec<&str> = c.split([' ', '_', '.', '-']).collect();
    let has = |w: &str| words.contains(&w);
    if has("drops")
        || has("dropped")
        || has("drop")
        || has("discards")
        || has("discard")
        || c == "drv dropped rx total"
    {
        return Meaning::Dropped;
    }
    if words
        .iter()
        .any(|w| *w == "err" || *w == "errs" || *w == "errors" || *w == "error")
    {
        return Meaning::Error;
    }
    Meaning::Other
}

/// Is this a packet counter (not bytes, not a drop or error)? `packets`, `rx_packets`,
/// `ucast pkts rx`, `rx_ucast_packets`, `pktnum_rcd` (hns3).
pub fn is_packets(counter: &str) -> bool {
    let c = counter.to_ascii_lowercase();
    let base = c
        .strip_prefix("rx_")
        .or_else(|| c.strip_prefix("tx_"))
        .unwrap_or(&c);
    matches!(
        base,
        "packets" | "ucast_packets" | "mcast_packets" | "bcast_packets" | "pktnum_rcd"
    ) || matches!(
        c.as_str(),
        "ucast pkts rx"
            | "mcast pkts rx"
            | "bcast pkts rx"
            | "ucast pkts tx"
            | "mcast pkts tx"
            | "bcast pkts tx"
    )
}

impl Stats {
    /// Value of the first counter with this name, as printed.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.stats.iter().find(|s| s.name == name).map(|s| s.value)
    }

    /// Counters whose printed name contains `part` (`rx_queue_3`), in input order.
    pub fn matching<'a>(&'a self, part: &'a str) -> impl Iterator<Item = &'a Stat> + 'a {
        self.stats.iter().filter(move |s| s.name.contains(part))
    }

    /// Per-queue values of one counter and direction (`(Rx, "packets")`), by queue number.
    pub fn per_queue(&self, direction: Direction, counter: &str) -> Vec<(u32, u64)> {
        let mut out: Vec<(u32, u64)> = self
            .stats
            .iter()
            .filter(|s| s.parent.is_none() && s.counter == counter)
            .filter_map(|s| {
                let q = s.queue?;
                (q.direction == Some(direction)).then_some((q.index, s.value))
            })
            .collect();
        out.sort_by_key(|(q, _)| *q);
        out
    }

    /// Does any counter belong to a queue?
    pub fn has_queues(&self) -> bool {
        self.stats.iter().any(|s| s.queue.is_some())
    }

    /// The identity of each counter, in input order (see [`StatKey`]).
    pub fn keys(&self) -> Vec<StatKey> {
        let mut seen: std::collections::HashMap<StatKey, u32> = std::collections::HashMap::new();
        self.stats
            .iter()
            .map(|s| {
                let mut k = StatKey {
                    queue: s.queue,
                    counter: s.counter.clone(),
                    parent: s
                        .parent
                        .and_then(|p| self.stats.get(p))
                        .map(|p| p.counter.clone()),
                    rank: 0,
                };
                let n = seen.entry(k.clone()).or_insert(0);
                k.rank = *n;
                *n += 1;
                k
            })
            .collect()
    }

    /// The growth of every counter from `earlier` (a snapshot of the same NIC) to this one:
    /// these counters with their values minus the earlier ones, on this snapshot's lines.
    /// Counters absent from `earlier` are left out, and so are values that went down but count
    /// neither packets, drops nor errors (drivers print a few gauges: hns3's `queue_num`, veth's
    /// `peer_ifindex`).
    /// Errors: a packet, drop or error counter that went down (the driver was reloaded or the
    /// NIC reset between the snapshots), naming it; no counter in common.
    pub fn since(&self, earlier: &Stats) -> Result<Stats, String> {
        let before: std::collections::HashMap<StatKey, u64> = earlier
            .keys()
            .into_iter()
            .zip(earlier.stats.iter().map(|s| s.value))
            .collect();
        let mut out = Stats {
            interface: self.interface.clone(),
            line: self.line,
            sections: self.sections.clone(),
            ..Default::default()
        };
        // Indices shift when counters are left out: map parents to the kept ones.
        let mut kept: Vec<Option<usize>> = vec![None; self.stats.len()];
        for (i, (k, s)) in self.keys().into_iter().zip(&self.stats).enumerate() {
            let Some(&b) = before.get(&k) else { continue };
            let Some(value) = s.value.checked_sub(b) else {
                if meaning(&s.counter) == Meaning::Other && !is_packets(&s.counter) {
                    continue;
                }
                return Err(format!(
                    "`{}` went down from {b} to {} (line {}): the driver was reloaded or the \
                     NIC reset between the snapshots",
                    s.name, s.value, s.line
                ));
            };
            kept[i] = Some(out.stats.len());
            out.stats.push(Stat {
                value,
                parent: s.parent.and_then(|p| kept.get(p).copied().flatten()),
                ..s.clone()
            });
        }
        if out.stats.is_empty() && !self.stats.is_empty() {
            return Err("the snapshots share no counter".into());
        }
        Ok(out)
    }

    /// Drops, errors and packets per queue, in queue order (receive before transmit), derived by
    /// [`meaning`] from the queue's top-level counters.
    pub fn queue_totals(&self) -> Vec<QueueTotals> {
        let mut by: std::collections::BTreeMap<Queue, QueueTotals> = Default::default();
        for s in self.stats.iter().filter(|s| s.parent.is_none()) {
            let Some(q) = s.queue else { continue };
            let t = by.entry(q).or_insert_with(|| QueueTotals {
                queue: Some(q),
                ..Default::default()
            });
            let m = meaning(&s.counter);
            match m {
                Meaning::OutOfBuffer => {
                    t.out_of_buffer = t.out_of_buffer.saturating_add(s.value);
                    t.drops = t.drops.saturating_add(s.value);
                    t.drop_counters += 1;
                }
                Meaning::Dropped => {
                    t.drops = t.drops.saturating_add(s.value);
                    t.drop_counters += 1;
                }
                Meaning::Error => t.errors = t.errors.saturating_add(s.value),
                Meaning::Other if is_packets(&s.counter) => {
                    t.packets = Some(t.packets.unwrap_or(0).saturating_add(s.value));
                }
                Meaning::Other => continue,
            }
            t.lines.push(s.line);
        }
        by.into_values().collect()
    }

    /// Device-wide drops and errors of one direction (see [`DeviceTotals`] for why the largest
    /// counter is taken rather than a sum). A device-level counter whose name states no
    /// direction counts for receive.
    pub fn device_totals(&self, direction: Direction) -> DeviceTotals {
        let mut out = DeviceTotals::default();
        let mut lines = Vec::new();
        let best = |slot: &mut Option<u64>, v: u64, line: usize, lines: &mut Vec<usize>| {
            if slot.is_none_or(|x| v > x) {
                *slot = Some(v);
            }
            lines.push(line);
        };
        for s in self
            .stats
            .iter()
            .filter(|s| s.parent.is_none() && s.queue.is_none())
        {
            if direction_of(&s.counter).unwrap_or(Direction::Rx) != direction {
                continue;
            }
            match meaning(&s.counter) {
                Meaning::OutOfBuffer => {
                    best(&mut out.out_of_buffer, s.value, s.line, &mut lines);
                    best(&mut out.drops, s.value, s.line, &mut lines);
                }
                Meaning::Dropped => best(&mut out.drops, s.value, s.line, &mut lines),
                Meaning::Error => best(&mut out.errors, s.value, s.line, &mut lines),
                Meaning::Other => {}
            }
        }
        let queues: Vec<QueueTotals> = self
            .queue_totals()
            .into_iter()
            .filter(|q| q.queue.and_then(|q| q.direction).unwrap_or(Direction::Rx) == direction)
            .collect();
        let has = |m: Meaning| {
            self.stats.iter().any(|s| {
                s.parent.is_none()
                    && s.queue
                        .is_some_and(|q| q.direction.unwrap_or(Direction::Rx) == direction)
                    && meaning(&s.counter) == m
            })
        };
        let sum = |f: fn(&QueueTotals) -> u64| queues.iter().map(f).fold(0u64, u64::saturating_add);
        if has(Meaning::OutOfBuffer) || has(Meaning::Dropped) {
            let q = sum(|q| q.drops);
            if out.drops.is_none_or(|d| q > d) {
                out.drops = Some(q);
            }
            lines.extend(queues.iter().flat_map(|q| q.lines.iter().copied()));
        }
        if has(Meaning::OutOfBuffer) {
            let q = sum(|q| q.out_of_buffer);
            if out.out_of_buffer.is_none_or(|d| q > d) {
                out.out_of_buffer = Some(q);
            }
        }
        if has(Meaning::Error) {
            let q = sum(|q| q.errors);
            if out.errors.is_none_or(|d| q > d) {
                out.errors = Some(q);
            }
        }
        lines.sort_unstable();
        lines.dedup();
        out.lines = lines;
        out
    }
}

/// A vmxnet3 section header: `Tx Queue#` / `Rx Queue#` (any case).
fn section_direction(name: &str) -> Option<Direction> {
    let n = name.to_ascii_lowercase();
    match n.as_str() {
        "tx queue#" => Some(Direction::Tx),
        "rx queue#" => Some(Direction::Rx),
        _ => None,
    }
}

/// vmxnet3's device-level counters (`vmxnet3_global_stats`), printed after the last queue:
/// they end a section whose counters are not indented below its header (drivers before the
/// names carried their own indentation).
const FLUSH_DEVICE_COUNTERS: &[&str] = &["tx timeout count"];

/// Leading blanks (a tab counts as one).
fn indent(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count()
}

/// Parses `ethtool -S`. Errors: [`ParseError::Unusable`] without `NIC statistics:`.
///
/// A name may contain spaces (`duplicate metric: 1`, `pkts rx out of buf: 0`); the value follows
/// the last `:`. A queue header's section ends at a line back at the header's indentation (or,
/// when its counters are printed at the header's indentation, at the next header or vmxnet3's
/// `tx timeout count`). A line indented deeper than the counters before it is a sub-counter of the last
/// of them. Issues, on their input line: a line that is not `name: counter`; a queue header whose
/// value is not a queue number.
pub fn parse_stats(text: &str) -> Result<Parsed<Stats>, ParseError> {
    let mut prelude = Prelude::default();
    let mut out = Stats::default();
    let mut issues = Issues::default();
    let mut started = false;
    // The open vmxnet3 section: its queue, the header's indentation, and whether its counters
    // are indented below the header (decided by its first counter).
    let mut section: Option<(Queue, usize, Option<bool>)> = None;
    // Indentation of the current scope's counters, and its last top-level counter.
    let mut base: Option<usize> = None;
    let mut last_top: Option<usize> = None;
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
        let Ok(v) = value.parse::<u64>() else {
            issues.push(n, || {
                format!("expected `name: counter`, found `{}`", excerpt(t))
            });
            continue;
        };
        if name.is_empty() {
            issues.push(n, || {
                format!("expected `name: counter`, found `{}`", excerpt(t))
            });
            continue;
        }
        let ind = indent(line);
        // Leaving a section: a line back at (or left of) its header's indentation when its
        // counters are indented; vmxnet3's device counter when they are not.
        if let Some((_, h, nested)) = &mut section {
            let nested = *nested.get_or_insert(ind > *h);
            let h = *h;
            if (nested && ind <= h) || (!nested && FLUSH_DEVICE_COUNTERS.contains(&name)) {
                section = None;
                base = None;
                last_top = None;
            }
        }
        if let Some(direction) = section_direction(name) {
            match u32::try_from(v) {
                Ok(index) => {
                    let queue = Queue {
                        index,
                        direction: Some(direction),
                    };
                    out.sections.push(Section { queue, line: n });
                    section = Some((queue, ind, None));
                }
                Err(_) => {
                    issues.push(n, || {
                        format!(
                            "queue header `{}` has no queue number; its counters are read as \
                             the device's",
                            excerpt(t)
                        )
                    });
                    section = None;
                }
            }
            base = None;
            last_top = None;
            continue;
        }
        let parent = match base {
            Some(b) if ind > b => last_top,
            _ => None,
        };
        if parent.is_none() && base.is_none_or(|b| ind < b) {
            base = Some(ind);
        }
        let (queue, counter) = match section {
            Some((q, _, _)) => (Some(q), name),
            None => match split_queue(name) {
                Some((q, c)) => (Some(q), c),
                None => (None, name),
            },
        };
        if parent.is_none() {
            last_top = Some(out.stats.len());
        }
        out.stats.push(Stat {
            name: name.to_string(),
            value: v,
            line: n,
            queue,
            counter: counter.to_string(),
            parent,
        });
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

    fn q(index: u32, d: Option<Direction>) -> Queue {
        Queue {
            index,
            direction: d,
        }
    }

    #[test]
    fn queue_names_of_each_layout() {
        use Direction::{Rx, Tx};
        for (name, queue, counter) in [
            ("rx_queue_3_packets", q(3, Some(Rx)), "packets"),
            ("tx0_kicks", q(0, Some(Tx)), "kicks"),
            ("rxq12_packets", q(12, Some(Rx)), "packets"),
            ("txq0_dropped", q(0, Some(Tx)), "dropped"),
            ("tx-0.tx_packets", q(0, Some(Tx)), "tx_packets"),
            ("rx-3.packets", q(3, Some(Rx)), "packets"),
            ("queue_0_rx_drops", q(0, Some(Rx)), "rx_drops"),
            ("[2]: rx_discards", q(2, Some(Rx)), "rx_discards"),
            ("[0]: tpa_packets", q(0, None), "tpa_packets"),
        ] {
            assert_eq!(split_queue(name), Some((queue, counter)), "{name}");
        }
        for name in [
            "rx_packets",
            "rx_queue_",
            "rx99999999999_x",
            "rx_1024_to_1518_bytes",
            "rx-0",
            "[x]: rx",
            "queue_num",
        ] {
            assert_eq!(split_queue(name), None, "{name}");
        }
    }

    /// vmxnet3 drivers whose names carried no indentation print the counters at the header's
    /// indentation (`vmxnet3_rq_dev_stats` of older kernels: `"ucast pkts rx"`, `"   err"`):
    /// the section then runs to the next header or `tx timeout count`.
    #[test]
    fn flush_sections_run_to_the_next_header() {
        let text = "NIC statistics:\n     Rx Queue#: 0\n     ucast pkts rx: 5\n     drv dropped rx total: 2\n        err: 2\n     Rx Queue#: 1\n     ucast pkts rx: 7\n     tx timeout count: 0\n";
        let s = parse_stats(text).unwrap().value;
        let q = |line: usize| s.stats.iter().find(|x| x.line == line).unwrap();
        assert_eq!(q(3).queue.map(|x| x.index), Some(0));
        assert_eq!(q(5).parent.map(|p| s.stats[p].line), Some(4));
        assert_eq!(q(7).queue.map(|x| x.index), Some(1));
        assert_eq!(q(8).queue, None);
    }

    /// A gauge that went down is left out of the growth; a packet counter that went down means
    /// the driver was reloaded.
    #[test]
    fn gauges_may_shrink_counters_may_not() {
        let a = parse_stats("NIC statistics:\n     queue_num: 16\n     rxq0_packets: 5\n")
            .unwrap()
            .value;
        let b = parse_stats("NIC statistics:\n     queue_num: 8\n     rxq0_packets: 9\n")
            .unwrap()
            .value;
        let d = b.since(&a).unwrap();
        assert_eq!(d.stats.len(), 1);
        assert_eq!(
            (d.stats[0].name.as_str(), d.stats[0].value),
            ("rxq0_packets", 4)
        );
        assert!(a
            .since(&b)
            .unwrap_err()
            .contains("`rxq0_packets` went down"));
    }

    #[test]
    fn meanings() {
        for (c, m) in [
            ("rx_missed_errors", Meaning::OutOfBuffer),
            ("rx_no_buffer_count", Meaning::OutOfBuffer),
            ("rx_out_of_buffer", Meaning::OutOfBuffer),
            ("pkts rx out of buf", Meaning::OutOfBuffer),
            ("pkts rx OOB", Meaning::OutOfBuffer),
            ("rx_fifo_errors", Meaning::OutOfBuffer),
            ("tx_fifo_errors", Meaning::Error),
            ("rx_dropped", Meaning::Dropped),
            ("port.rx_dropped", Meaning::Dropped),
            ("drops", Meaning::Dropped),
            ("drv dropped rx total", Meaning::Dropped),
            ("rx_discards", Meaning::Dropped),
            ("xdp_drops", Meaning::Other),
            ("dropped_smbus", Meaning::Other),
            ("rx_crc_errors", Meaning::Error),
            ("pkts rx err", Meaning::Error),
            ("packets", Meaning::Other),
            ("rx buf alloc fail", Meaning::Other),
        ] {
            assert_eq!(meaning(c), m, "{c}");
        }
    }
}
