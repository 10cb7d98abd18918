//! Network facts: per-NIC driver, queues, rings, offloads, MTU, bonding, drop and error rates,
//! interrupt distribution; TCP listen-queue and connection-tracking state.
//!
//! In: `ethtool -i/-l/-g/-k`, `ip -s link`, `/proc/net/dev` (two snapshots), `/proc/net/bonding/*`,
//! `/proc/interrupts` (two snapshots) and IRQ affinity lists, `netstat -s`/`nstat` (two
//! snapshots), `sysctl -a`, `ss -tanp`, `ss -ti`, `ss -s`, `conntrack -S` and
//! `/proc/net/stat/nf_conntrack` ([`tcp`](super::tcp)). Out: [`Nic`] per interface and [`NetStack`].

use crate::evidence::Cited;
use serde::Serialize;

/// One network interface.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Nic {
    /// Interface name (`eth0`, `ens192`, `bond0`).
    pub name: String,
    /// Kernel driver (`ethtool -i`: `driver`), e.g. `vmxnet3`, `e1000e`, `mlx5_core`.
    pub driver: Option<Cited<String>>,
    /// Firmware version (`ethtool -i`).
    pub firmware: Option<Cited<String>>,
    /// Queue counts (`ethtool -l`).
    pub channels: Option<Cited<Channels>>,
    /// Ring sizes (`ethtool -g`).
    pub rings: Option<Cited<Rings>>,
    /// Offload features that are off (`ethtool -k`): name, and whether it is `[fixed]`.
    pub offloads_off: Vec<Cited<(String, bool)>>,
    /// Offload features `ethtool -k` lists as on (top-level features only).
    pub offloads_on: Vec<String>,
    /// MTU (`ip link`).
    pub mtu: Option<Cited<u32>>,
    /// The bond this interface is enslaved to.
    pub master: Option<String>,
    /// Slaves, when this is a bond.
    pub slaves: Vec<String>,
    /// Packet, drop and error rates over the window.
    pub rates: Option<NicRates>,
    /// Receive counters since boot, from one `/proc/net/dev` snapshot, when there is no pair
    /// of snapshots to give `rates`.
    pub since_boot: Option<Cited<NicTotals>>,
    /// Interrupts of this NIC's queues.
    pub irqs: Vec<NicIrq>,
    /// The driver's statistics (`ethtool -S`), with their growth over the window when the bundle
    /// holds two snapshots of them.
    pub ethtool_stats: Option<NicStats>,
}

/// A NIC's `ethtool -S` snapshots.
#[derive(Debug, Clone, Serialize)]
pub struct NicStats {
    /// How many snapshots of this NIC the bundle holds.
    pub snapshots: usize,
    /// The latest snapshot's artifact.
    pub latest: String,
    /// Whether the latest snapshot has per-queue counters.
    pub has_queues: bool,
    /// The counters' growth between the earliest and the latest snapshot; `Err` says why there
    /// is none (one snapshot, a driver reload between them, snapshots that cannot be ordered).
    pub window: Result<StatsWindow, String>,
}

/// The growth of a NIC's `ethtool -S` counters between two snapshots.
#[derive(Debug, Clone, Serialize)]
pub struct StatsWindow {
    /// Each counter's growth, on the later snapshot's lines
    /// ([`parsers::net::ethtool::stats::Stats::since`]).
    pub growth: parsers::net::ethtool::stats::Stats,
    /// Seconds between the snapshots, when the manifest or both names give their times.
    pub seconds: Option<f64>,
    /// The earlier snapshot's artifact.
    pub first: String,
    /// The later snapshot's artifact.
    pub last: String,
    /// For each counter line of the later snapshot, the same counter's line in the earlier.
    pub first_lines: BTreeMap<usize, usize>,
}

/// The NICs whose `ethtool -S` counters have a window's growth. Errors: why none has (no
/// `ethtool -S` in the bundle, or each NIC's reason).
pub fn stats_windows(nics: &[Nic]) -> Result<Vec<(&Nic, &StatsWindow)>, String> {
    let with: Vec<(&Nic, &NicStats)> = nics
        .iter()
        .filter_map(|n| n.ethtool_stats.as_ref().map(|s| (n, s)))
        .collect();
    if with.is_empty() {
        return Err("no `ethtool -S` output in the bundle".into());
    }
    let ok: Vec<(&Nic, &StatsWindow)> = with
        .iter()
        .filter_map(|(n, s)| s.window.as_ref().ok().map(|w| (*n, w)))
        .collect();
    if ok.is_empty() {
        let why: Vec<&str> = with
            .iter()
            .filter_map(|(_, s)| s.window.as_ref().err().map(String::as_str))
            .collect();
        return Err(why.join("; "));
    }
    Ok(ok)
}

impl StatsWindow {
    /// "in 30 s" or "between the two snapshots" (interval unknown).
    pub fn during(&self) -> String {
        match self.seconds {
            Some(s) => format!("in {s:.0} s"),
            None => "between the two `ethtool -S` snapshots (interval unknown)".into(),
        }
    }

    /// Evidence for counters on these lines of the later snapshot: those lines (with the
    /// `NIC statistics:` header and the queue headers above them) and the same counters in the
    /// earlier snapshot.
    pub fn evidence(&self, lines: &[usize], label: &str) -> Vec<crate::evidence::Evidence> {
        let mut last: Vec<usize> = lines.to_vec();
        last.push(self.growth.line);
        // The queue header each line sits under: the nearest above it (headers in input order).
        let headers: Vec<usize> = self.growth.sections.iter().map(|s| s.line).collect();
        for &l in lines {
            let i = headers.partition_point(|&h| h < l);
            if let Some(h) = i.checked_sub(1).and_then(|i| headers.get(i)) {
                last.push(*h);
            }
        }
        last.sort_unstable();
        last.dedup();
        let first: Vec<usize> = lines
            .iter()
            .filter_map(|l| self.first_lines.get(l).copied())
            .collect();
        let mut out =
            vec![Cited::lines((), &self.last, last).evidence(format!("{label} (later snapshot)"))];
        if !first.is_empty() {
            out.push(
                Cited::lines((), &self.first, first)
                    .evidence(format!("{label} (earlier snapshot)")),
            );
        }
        out
    }
}

/// `ethtool -l`: current and maximum queue counts; `None` where printed `n/a` or absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Channels {
    /// `Combined` current.
    pub combined: Option<u32>,
    /// `Combined` pre-set maximum.
    pub combined_max: Option<u32>,
    /// `RX` current.
    pub rx: Option<u32>,
    /// `RX` pre-set maximum.
    pub rx_max: Option<u32>,
}

/// `ethtool -g`: current and maximum ring sizes, descriptors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Rings {
    /// `RX` current.
    pub rx: Option<u32>,
    /// `RX` pre-set maximum.
    pub rx_max: Option<u32>,
    /// `TX` current.
    pub tx: Option<u32>,
    /// `TX` pre-set maximum.
    pub tx_max: Option<u32>,
}

/// Per-second rates between two counter snapshots.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NicRates {
    /// Seconds between the snapshots.
    pub seconds: f64,
    /// Received packets per second.
    pub rx_packets_per_s: f64,
    /// Receive drops per second (`/proc/net/dev` `drop`).
    pub rx_drop_per_s: f64,
    /// Receive errors per second (`errs`).
    pub rx_err_per_s: f64,
    /// Receive FIFO/overrun per second (`fifo`).
    pub rx_fifo_per_s: f64,
    /// Transmit drops per second.
    pub tx_drop_per_s: f64,
    /// The two snapshot rows.
    pub evidence: Vec<Cited<()>>,
}

/// Receive counters since boot (`/proc/net/dev`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct NicTotals {
    /// Packets received.
    pub rx_packets: u64,
    /// Receive drops (`drop`) + FIFO overruns (`fifo`) + errors (`errs`).
    pub rx_bad: u64,
}

/// One interrupt line of a NIC and where it fires.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NicIrq {
    /// IRQ number.
    pub irq: u32,
    /// Action name (`virtio0-input.0`, `mlx5_comp3@pci:...`, `eth0-TxRx-3`).
    pub name: String,
    /// CPUs allowed by `smp_affinity_list`.
    pub affinity: Vec<u32>,
    /// Interrupts per CPU during the window (`/proc/interrupts` deltas), `(cpu, count)`.
    pub per_cpu: Vec<(u32, u64)>,
    /// Where it was read.
    pub evidence: Vec<Cited<()>>,
}

impl Nic {
    /// How many CPUs share the NIC's interrupts, as an effective count: `(Σn)² / Σn²` over the
    /// per-CPU interrupt counts (the inverse Simpson index): 1 when one CPU takes them all, k
    /// when k CPUs take equal parts. `None` without counts.
    pub fn irq_effective_cpus(&self) -> Option<f64> {
        let per = self.irqs_per_cpu();
        let total: f64 = per.values().map(|&n| n as f64).sum();
        let sq: f64 = per.values().map(|&n| (n as f64) * (n as f64)).sum();
        (sq > 0.0).then(|| total * total / sq)
    }

    /// Interrupts counted over all the NIC's IRQs and CPUs.
    pub fn irq_total(&self) -> u64 {
        self.irqs_per_cpu()
            .values()
            .fold(0u64, |a, n| a.saturating_add(*n))
    }

    /// Interrupts per CPU, summed over the NIC's IRQs.
    fn irqs_per_cpu(&self) -> std::collections::BTreeMap<u32, u64> {
        let mut per = std::collections::BTreeMap::new();
        for irq in &self.irqs {
            for &(c, n) in &irq.per_cpu {
                let count: &mut u64 = per.entry(c).or_default();
                *count = count.saturating_add(n);
            }
        }
        per
    }

    /// CPUs that took at least 10 % of this NIC's interrupts during the window.
    pub fn busy_irq_cpus(&self) -> Vec<u32> {
        let per = self.irqs_per_cpu();
        let total: u64 = per.values().fold(0, |a, n| a.saturating_add(*n));
        if total == 0 {
            return Vec::new();
        }
        per.into_iter()
            .filter(|&(_, n)| n * 10 >= total)
            .map(|(c, _)| c)
            .collect()
    }
}

/// TCP stack state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NetStack {
    /// `TcpExt: ListenOverflows` increase over the window (or since boot when only one snapshot).
    pub listen_overflows: Option<Cited<CounterChange>>,
    /// `TcpExt: ListenDrops` increase.
    pub listen_drops: Option<Cited<CounterChange>>,
    /// `net.core.somaxconn`.
    pub somaxconn: Option<Cited<u64>>,
    /// `net.netfilter.nf_conntrack_count`.
    pub conntrack_count: Option<Cited<u64>>,
    /// `net.netfilter.nf_conntrack_max`.
    pub conntrack_max: Option<Cited<u64>>,
    /// Packets dropped because a CPU's input queue was full (`/proc/net/softnet_stat` column 2,
    /// summed over CPUs; `net.core.netdev_max_backlog`): over the window, else since boot.
    pub softnet_dropped: Option<Cited<CounterChange>>,
    /// Times the receive soft-IRQ stopped with packets left because its budget ran out
    /// (`softnet_stat` column 3; `net.core.netdev_budget`): over the window, else since boot.
    pub softnet_squeezed: Option<Cited<CounterChange>>,
    /// `net.core.netdev_max_backlog`.
    pub netdev_max_backlog: Option<Cited<u64>>,
    /// `net.core.netdev_budget`.
    pub netdev_budget: Option<Cited<u64>>,
    /// Listening sockets read with their queues (`ss`), full or not.
    pub listeners_read: usize,
    /// Listening sockets whose accept queue was full (`Recv-Q` ≥ `Send-Q` in `ss -ltn`).
    pub full_listeners: Vec<Cited<ListenQueue>>,
    /// TCP segments sent and retransmitted (`Tcp: OutSegs`, `RetransSegs`, with `TcpExt`
    /// `TCPTimeouts`, `TCPLostRetransmit`, `TCPSynRetrans`): over the window, else since boot.
    pub tcp_retrans: Option<Cited<super::tcp::TcpRetrans>>,
    /// The connections with the most retransmissions (`ss -i` `retrans:a/b`), most first.
    pub retrans_peers: Vec<Cited<super::tcp::RetransPeer>>,
    /// The socket summary (`ss -s`): orphaned and TIME-WAIT TCP sockets.
    pub socket_summary: Option<Cited<parsers::procs::ss_summary::SsSummary>>,
    /// Packets dropped because no conntrack entry could be made (`drop`, summed over CPUs;
    /// `conntrack -S`, `/proc/net/stat/nf_conntrack`): over the window, else since loading.
    pub conntrack_drop: Option<Cited<CounterChange>>,
    /// Conntrack entries that could not be inserted (`insert_failed`).
    pub conntrack_insert_failed: Option<Cited<CounterChange>>,
    /// Conntrack entries evicted to make room for new ones (`early_drop`).
    pub conntrack_early_drop: Option<Cited<CounterChange>>,
}

/// A counter's change: between two snapshots when they exist (over a known window or an
/// unknown interval), else since boot.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CounterChange {
    /// Increase.
    pub delta: u64,
    /// Seconds between the snapshots, when known.
    pub seconds: Option<f64>,
    /// The source of the two snapshots the increase is between (`` `/proc/vmstat` ``); `None`
    /// with `seconds: None` means "since boot" (one snapshot).
    pub between: Option<&'static str>,
}

impl CounterChange {
    /// A counter read once: its value since boot.
    pub fn since_boot(delta: u64) -> Self {
        CounterChange {
            delta,
            seconds: None,
            between: None,
        }
    }

    /// The increase over a window of known length.
    pub fn window(delta: u64, seconds: f64) -> Self {
        CounterChange {
            delta,
            seconds: Some(seconds),
            between: None,
        }
    }

    /// Between two snapshots whose interval is not known.
    pub fn interval_unknown(&self) -> bool {
        self.seconds.is_none() && self.between.is_some()
    }

    /// Since boot: one snapshot.
    pub fn is_since_boot(&self) -> bool {
        self.seconds.is_none() && self.between.is_none()
    }
}

/// A listening socket's accept queue.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListenQueue {
    /// Local address:port.
    pub local: String,
    /// Connections waiting to be accepted (`Recv-Q`).
    pub queued: u64,
    /// Backlog limit (`Send-Q`): min(listen() backlog, somaxconn).
    pub backlog: u64,
    /// Owning process, when shown.
    pub process: Option<String>,
}

use crate::artifacts::{Artifact, Collected};
use parsers::kind::{self, Data, Record};
use parsers::net::ethtool::driver::DriverInfo;
use parsers::net::irq_affinity::IrqAffinity;
use parsers::net::netstat_s::NetstatS;
use parsers::proc::interrupts::Interrupts;
use parsers::proc::net_dev::NetDev;
use parsers::proc::snmp::Snmp;
use parsers::proc::softnet_stat::SoftnetStat;
use parsers::procs::ss::SsTable;
use std::collections::BTreeMap;

/// The interface an `ethtool` artifact describes: the name printed in its header, else the
/// folder it sits in (`net/ethtool/<nic>/…`), else a sosreport-style suffix (`ethtool_-i_eth0`),
/// else the last word of the collector's command line.
fn iface_of(a: &Artifact, printed: Option<&str>) -> Option<String> {
    if let Some(p) = printed.filter(|p| !p.is_empty()) {
        return Some(p.to_string());
    }
    let parts: Vec<&str> = a.path.split('/').collect();
    if let Some(i) = parts.iter().position(|p| *p == "ethtool") {
        if i + 2 < parts.len() {
            return Some(parts[i + 1].to_string());
        }
    }
    let file = parts.last().copied().unwrap_or("");
    if let Some(rest) = file.strip_prefix("ethtool_-") {
        if let Some((_, nic)) = rest.split_once('_') {
            return Some(nic.to_string());
        }
    }
    a.record
        .as_ref()
        .and_then(|r| r.argv_text().split_whitespace().last().map(str::to_string))
}

/// Builds per-NIC facts and the TCP-stack facts.
pub fn build(c: &Collected, sysctl: &BTreeMap<String, Cited<String>>) -> (Vec<Nic>, NetStack) {
    let mut nics: BTreeMap<String, Nic> = BTreeMap::new();
    fn nic<'m>(m: &'m mut BTreeMap<String, Nic>, name: &str) -> &'m mut Nic {
        m.entry(name.to_string()).or_insert_with(|| Nic {
            name: name.to_string(),
            ..Default::default()
        })
    }
    for a in &c.artifacts {
        let Some(d) = &a.data else { continue };
        match d {
            Data::EthtoolDriver(x) => {
                let Some(name) = iface_of(a, x.interface.as_deref()) else {
                    continue;
                };
                let n = nic(&mut nics, &name);
                if let Some(drv) = &x.driver {
                    n.driver = Some(Cited::new(
                        drv.clone(),
                        &a.path,
                        x.line_of("driver").unwrap_or(1),
                    ));
                }
                if let Some(fw) = &x.firmware_version {
                    n.firmware = Some(Cited::new(
                        fw.clone(),
                        &a.path,
                        x.line_of("firmware-version").unwrap_or(1),
                    ));
                }
            }
            Data::EthtoolChannels(x) => {
                let Some(name) = iface_of(a, x.interface.as_deref()) else {
                    continue;
                };
                let v = |r: &Option<parsers::net::ethtool::Reading<u64>>| {
                    r.as_ref()
                        .and_then(|r| r.value)
                        .map(|v| v.min(u64::from(u32::MAX)) as u32)
                };
                let lines: Vec<usize> = [
                    &x.max.combined,
                    &x.current.combined,
                    &x.max.rx,
                    &x.current.rx,
                ]
                .iter()
                .filter_map(|r| r.as_ref().map(|r| r.line))
                .chain([x.line])
                .collect();
                nic(&mut nics, &name).channels = Some(Cited::lines(
                    Channels {
                        combined: v(&x.current.combined),
                        combined_max: v(&x.max.combined),
                        rx: v(&x.current.rx),
                        rx_max: v(&x.max.rx),
                    },
                    &a.path,
                    lines,
                ));
            }
            Data::EthtoolRings(x) => {
                let Some(name) = iface_of(a, x.interface.as_deref()) else {
                    continue;
                };
                let v = |r: &Option<parsers::net::ethtool::Reading<u64>>| {
                    r.as_ref()
                        .and_then(|r| r.value)
                        .map(|v| v.min(u64::from(u32::MAX)) as u32)
                };
                let lines: Vec<usize> = [&x.max.rx, &x.current.rx]
                    .iter()
                    .filter_map(|r| r.as_ref().map(|r| r.line))
                    .chain([x.line])
                    .collect();
                nic(&mut nics, &name).rings = Some(Cited::lines(
                    Rings {
                        rx: v(&x.current.rx),
                        rx_max: v(&x.max.rx),
                        tx: v(&x.current.tx),
                        tx_max: v(&x.max.tx),
                    },
                    &a.path,
                    lines,
                ));
            }
            Data::EthtoolFeatures(x) => {
                let Some(name) = iface_of(a, x.interface.as_deref()) else {
                    continue;
                };
                let n = nic(&mut nics, &name);
                n.offloads_off = x
                    .features
                    .iter()
                    .filter(|f| !f.on && f.parent.is_none())
                    .map(|f| Cited::lines((f.name.clone(), f.fixed), &a.path, vec![x.line, f.line]))
                    .collect();
                n.offloads_on = x
                    .features
                    .iter()
                    .filter(|f| f.on && f.parent.is_none())
                    .map(|f| f.name.clone())
                    .collect();
            }
            Data::IpLink(links) => {
                for l in &links.links {
                    let n = nic(&mut nics, &l.name);
                    if let Some(m) = l.mtu {
                        n.mtu = Some(Cited::new(m, &a.path, l.line));
                    }
                    n.master = l.master.clone();
                }
            }
            Data::Bonding(b) => {
                let name = a.path.rsplit('/').next().unwrap_or("bond").to_string();
                nic(&mut nics, &name).slaves =
                    b.slaves.iter().map(|s| s.interface.clone()).collect();
            }
            _ => {}
        }
    }
    // Slaves named by `ip link` master relations, for bonds without a /proc/net/bonding file.
    let masters: Vec<(String, String)> = nics
        .values()
        .filter_map(|n| n.master.clone().map(|m| (m, n.name.clone())))
        .collect();
    for (m, s) in masters {
        if let Some(b) = nics.get_mut(&m) {
            if !b.slaves.contains(&s) && m.starts_with("bond") {
                b.slaves.push(s);
            }
        }
    }
    // Drop and packet rates between the two /proc/net/dev snapshots.
    if let Ok(p) = super::snapshots::pair(c, &kind::NET_DEV, |x: &NetDev| Some(x)) {
        for i0 in &p.first.1.interfaces {
            let Some(i1) = p.last.1.interfaces.iter().find(|i| i.name == i0.name) else {
                continue;
            };
            let r = i0.rates_to(i1, p.seconds);
            nic(&mut nics, &i0.name).rates = Some(NicRates {
                seconds: p.seconds,
                rx_packets_per_s: r.rxpck_per_s.unwrap_or(0.0),
                rx_drop_per_s: r.rxdrop_per_s.unwrap_or(0.0),
                rx_err_per_s: r.rxerr_per_s.unwrap_or(0.0),
                rx_fifo_per_s: r.rxfifo_per_s.unwrap_or(0.0),
                tx_drop_per_s: r.txdrop_per_s.unwrap_or(0.0),
                evidence: vec![
                    Cited::lines((), &p.first.0.path, vec![1, 2, i0.line]),
                    Cited::lines((), &p.last.0.path, vec![1, 2, i1.line]),
                ],
            });
        }
    }
    // One snapshot (a sosreport, a loose file): the counters since boot.
    if nics.values().all(|n| n.rates.is_none()) {
        if let Some((a, d)) =
            super::snapshots::latest_counted(c, &kind::NET_DEV, |x: &NetDev| Some(x))
        {
            for i in &d.interfaces {
                let bad = [i.rx_drop, i.rx_fifo, i.rx_errs]
                    .iter()
                    .flatten()
                    .fold(0u64, |a, n| a.saturating_add(*n));
                nic(&mut nics, &i.name).since_boot = Some(Cited::lines(
                    NicTotals {
                        rx_packets: i.rx_packets.unwrap_or(0),
                        rx_bad: bad,
                    },
                    &a.path,
                    vec![1, 2, i.line],
                ));
            }
        }
    }
    attach_irqs(c, &mut nics);
    for (name, st) in ethtool_stats(c) {
        nic(&mut nics, &name).ethtool_stats = Some(st);
    }
    let net = stack(c, sysctl);
    nics.remove("lo");
    (nics.into_values().collect(), net)
}

/// Each NIC's `ethtool -S` snapshots, paired: by the manifest's times when all carry one, else
/// (two snapshots) by their counters, which only grow while the driver stays loaded
/// ([`super::snapshots::earlier`]), with the interval from times in their names.
fn ethtool_stats(c: &Collected) -> BTreeMap<String, NicStats> {
    use parsers::net::ethtool::stats::Stats;
    let mut by: BTreeMap<String, Vec<(&Artifact, &Stats)>> = BTreeMap::new();
    for (a, x) in c.records_of::<Stats>(&kind::ETHTOOL_S) {
        if let Some(name) = iface_of(a, x.interface.as_deref()) {
            by.entry(name).or_default().push((a, x));
        }
    }
    let start = |a: &Artifact| a.record.as_ref().and_then(|r| r.start);
    by.into_iter()
        .filter_map(|(name, mut snaps)| {
            let timed = snaps.iter().all(|(a, _)| start(a).is_some());
            let ordered: Result<(usize, usize, Option<f64>), String> = match snaps.len() {
                0 => return None,
                1 => Err(format!(
                    "one `ethtool -S` snapshot of {name} ({}): growth during the window needs two",
                    snaps[0].0.path
                )),
                _ if timed => {
                    snaps.sort_by(|x, y| {
                        start(x.0)
                            .partial_cmp(&start(y.0))
                            .unwrap_or(std::cmp::Ordering::Equal)
                    });
                    let secs = start(snaps[snaps.len() - 1].0)
                        .zip(start(snaps[0].0))
                        .map(|(b, a)| b - a)
                        .filter(|s| *s > 0.0);
                    Ok((0, snaps.len() - 1, secs))
                }
                2 => super::snapshots::earlier(snaps[0].1, snaps[1].1)
                    .map(|first| if first { (0, 1) } else { (1, 0) })
                    .map(|(i, j)| {
                        let secs = super::snapshots::name_time(&snaps[j].0.path)
                            .zip(super::snapshots::name_time(&snaps[i].0.path))
                            .map(|(b, a)| b - a)
                            .filter(|s| *s > 0.0);
                        (i, j, secs)
                    })
                    .map_err(|why| {
                        format!(
                            "the `ethtool -S` snapshots of {name} ({} and {}) are not compared: {why}",
                            snaps[0].0.path, snaps[1].0.path
                        )
                    }),
                n => Err(format!(
                    "{n} `ethtool -S` snapshots of {name} without collection times: only two can \
                     be ordered by their counters"
                )),
            };
            let latest = match &ordered {
                Ok((_, j, _)) => snaps[*j],
                Err(_) => *snaps.last()?,
            };
            let window = ordered.and_then(|(i, j, seconds)| {
                let (fa, fx) = snaps[i];
                let (la, lx) = snaps[j];
                let growth = lx.since(fx).map_err(|why| {
                    format!("`ethtool -S` of {name} between {} and {}: {why}", fa.path, la.path)
                })?;
                let before: std::collections::HashMap<_, usize> = fx
                    .keys()
                    .into_iter()
                    .zip(fx.stats.iter().map(|s| s.line))
                    .collect();
                let first_lines = lx
                    .keys()
                    .into_iter()
                    .zip(lx.stats.iter().map(|s| s.line))
                    .filter_map(|(k, l)| before.get(&k).map(|f| (l, *f)))
                    .collect();
                Ok(StatsWindow {
                    growth,
                    seconds,
                    first: fa.path.clone(),
                    last: la.path.clone(),
                    first_lines,
                })
            });
            Some((
                name,
                NicStats {
                    snapshots: snaps.len(),
                    latest: latest.0.path.clone(),
                    has_queues: latest.1.has_queues(),
                    window,
                },
            ))
        })
        .collect()
}

/// Assigns interrupt lines to NICs: by the NIC's name or PCI address in the IRQ's device name;
/// on a single-NIC host also the queue-looking lines (`virtio0-input.0`, `*-TxRx-*`, `*comp*`).
fn attach_irqs(c: &Collected, nics: &mut BTreeMap<String, Nic>) {
    let Ok(p) = super::snapshots::pair(c, &kind::INTERRUPTS, |x: &Interrupts| Some(x)) else {
        return;
    };
    let affinity = c.records::<IrqAffinity>().next();
    let physical: Vec<String> = nics
        .values()
        .filter(|n| {
            n.name != "lo" && n.slaves.is_empty() && (n.driver.is_some() || n.channels.is_some())
        })
        .map(|n| n.name.clone())
        .collect();
    let bus: BTreeMap<String, String> = c
        .artifacts
        .iter()
        .filter_map(|a| {
            let x = DriverInfo::of(a.data.as_ref()?)?;
            Some((iface_of(a, x.interface.as_deref())?, x.bus_info.clone()?))
        })
        .collect();
    for d in p.first.1.delta_to(p.last.1) {
        let Ok(irq) = d.irq.parse::<u32>() else {
            continue;
        };
        let label = d.devices.join(" ");
        let queue_like = ["input", "output", "rx", "tx", "TxRx", "comp", "-q"]
            .iter()
            .any(|k| label.contains(k));
        let owner = physical
            .iter()
            .find(|n| {
                label
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .any(|w| w == n.as_str())
                    || label.starts_with(&format!("{n}-"))
                    || label.starts_with(&format!("{n}_"))
            })
            .or_else(|| {
                physical.iter().find(|n| {
                    bus.get(*n)
                        .is_some_and(|b| !b.is_empty() && label.contains(b.as_str()))
                })
            })
            .or_else(|| (physical.len() == 1 && queue_like).then(|| &physical[0]));
        let Some(owner) = owner.cloned() else {
            continue;
        };
        let mut evidence = Vec::new();
        if let Some(r) = p.first.1.row(&d.irq) {
            evidence.push(Cited::lines((), &p.first.0.path, vec![1, r.line]));
        }
        if let Some(r) = p.last.1.row(&d.irq) {
            evidence.push(Cited::lines((), &p.last.0.path, vec![1, r.line]));
        }
        let mut aff = Vec::new();
        if let Some((a, x)) = affinity {
            if let Some(e) = x.irqs.iter().find(|e| e.irq == irq) {
                aff = e.cpus.clone();
                evidence.push(Cited::new((), &a.path, e.line));
            }
        }
        if let Some(n) = nics.get_mut(&owner) {
            n.irqs.push(NicIrq {
                irq,
                name: label,
                affinity: aff,
                per_cpu: d.per_cpu,
                evidence,
            });
        }
    }
}

/// TCP listen-queue counters, somaxconn, conntrack and full accept queues.
fn stack(c: &Collected, sysctl: &BTreeMap<String, Cited<String>>) -> NetStack {
    let num = |k: &str| -> Option<Cited<u64>> {
        let v = sysctl.get(k)?;
        Some(Cited {
            value: v.value.trim().parse().ok()?,
            artifact: v.artifact.clone(),
            lines: v.lines.clone(),
        })
    };
    let mut net = NetStack {
        somaxconn: num("net.core.somaxconn"),
        conntrack_count: num("net.netfilter.nf_conntrack_count"),
        conntrack_max: num("net.netfilter.nf_conntrack_max"),
        ..Default::default()
    };
    // Counter changes over the window from netstat -s, nstat or /proc/net/netstat snapshots.
    let change = |key: &str| -> Option<Cited<CounterChange>> {
        if let Ok(p) = super::snapshots::ordered(c, &kind::NETSTAT_S, |x: &NetstatS| Some(x)) {
            let line = |x: &parsers::net::netstat_s::NetstatS| {
                x.section("TcpExt").and_then(|s| {
                    s.entries
                        .iter()
                        .find(|e| e.key.as_deref() == Some(key))
                        .map(|e| e.line)
                })
            };
            let a = p.first.1.get("TcpExt", key).unwrap_or(0);
            let b = p.last.1.get("TcpExt", key).unwrap_or(0);
            let mut cited = Cited::lines(
                CounterChange {
                    delta: b.saturating_sub(a),
                    seconds: p.seconds,
                    between: Some(kind::NETSTAT_S.source),
                },
                &p.last.0.path,
                line(p.last.1).into_iter().collect(),
            );
            if cited.lines.is_empty() {
                cited.lines.push(1);
            }
            return Some(cited);
        }
        for of in [&kind::NSTAT, &kind::NET_SNMP] {
            if let Ok(p) = super::snapshots::ordered(c, of, |x: &Snmp| Some(x)) {
                let (Some(a), Some(b)) =
                    (p.first.1.get("TcpExt", key), p.last.1.get("TcpExt", key))
                else {
                    continue;
                };
                let line = p
                    .last
                    .1
                    .groups
                    .iter()
                    .filter(|g| g.name == "TcpExt")
                    .flat_map(|g| g.counters.iter())
                    .find(|x| x.name == key)
                    .map(|x| x.line)
                    .unwrap_or(1);
                return Some(Cited::new(
                    CounterChange {
                        delta: (b - a).max(0) as u64,
                        seconds: p.seconds,
                        between: Some(of.source),
                    },
                    &p.last.0.path,
                    line,
                ));
            }
        }
        // One snapshot (a sosreport, a loose `netstat -s`): the counter since boot. net-tools
        // prints no line for a counter that is zero: a `TcpExt` section without it reads 0.
        if let Some((a, x)) =
            super::snapshots::latest_counted(c, &kind::NETSTAT_S, |x: &NetstatS| {
                x.section("TcpExt").map(|_| x)
            })
        {
            let entry = x
                .section("TcpExt")
                .and_then(|s| s.entries.iter().find(|e| e.key.as_deref() == Some(key)));
            let line = entry
                .map(|e| e.line)
                .or_else(|| x.section("TcpExt").map(|s| s.line))
                .unwrap_or(1);
            let v = x.get("TcpExt", key).unwrap_or(0);
            return Some(Cited::new(CounterChange::since_boot(v), &a.path, line));
        }
        // `nstat` and `/proc/net/netstat` (a sosreport holds `snmp`, `netstat` and `snmp6` of
        // the same kind): the latest that carries the counter.
        for of in [&kind::NSTAT, &kind::NET_SNMP] {
            let found = c
                .records_of::<Snmp>(of)
                .filter_map(|(a, x)| {
                    let g = x.groups.iter().filter(|g| g.name == "TcpExt");
                    let counter = g.flat_map(|g| g.counters.iter()).find(|x| x.name == key)?;
                    Some((a, counter.value, counter.line))
                })
                .last();
            if let Some((a, v, line)) = found {
                return Some(Cited::new(
                    CounterChange::since_boot(v.max(0) as u64),
                    &a.path,
                    line,
                ));
            }
        }
        None
    };
    net.softnet_dropped =
        super::snapshots::counter_change(c, &kind::SOFTNET_STAT, |s: &SoftnetStat| {
            Some((
                s.dropped(),
                s.cpus
                    .iter()
                    .find(|c| c.dropped > 0)
                    .or(s.cpus.first())?
                    .line,
            ))
        });
    net.softnet_squeezed =
        super::snapshots::counter_change(c, &kind::SOFTNET_STAT, |s: &SoftnetStat| {
            Some((
                s.time_squeeze(),
                s.cpus
                    .iter()
                    .find(|c| c.time_squeeze > 0)
                    .or(s.cpus.first())?
                    .line,
            ))
        });
    net.netdev_max_backlog = num("net.core.netdev_max_backlog");
    net.netdev_budget = num("net.core.netdev_budget");
    net.tcp_retrans = super::tcp::retrans(c);
    net.retrans_peers = super::tcp::retrans_peers(c);
    net.socket_summary = super::tcp::summary(c);
    net.conntrack_drop = super::tcp::conntrack_counter(c, "drop");
    net.conntrack_insert_failed = super::tcp::conntrack_counter(c, "insert_failed");
    net.conntrack_early_drop = super::tcp::conntrack_counter(c, "early_drop");
    net.listen_overflows = change("ListenOverflows");
    net.listen_drops = change("ListenDrops");
    for (a, t) in c.records::<SsTable>() {
        for s in t.sockets.iter().filter(|s| s.state == "LISTEN") {
            if let (Some(q), Some(b)) = (s.recv_q, s.send_q) {
                net.listeners_read += 1;
                if b > 0 && q >= b {
                    net.full_listeners.push(Cited::new(
                        ListenQueue {
                            local: s.local.text.to_string(),
                            queued: q,
                            backlog: b,
                            process: s.users.first().map(|u| u.name.to_string()),
                        },
                        &a.path,
                        s.line,
                    ));
                }
            }
        }
    }
    net
}
