//! Network facts: per-NIC driver, queues, rings, offloads, MTU, bonding, drop and error rates,
//! interrupt distribution; TCP listen-queue and connection-tracking state.
//!
//! In: `ethtool -i/-l/-g/-k`, `ip -s link`, `/proc/net/dev` (two snapshots), `/proc/net/bonding/*`,
//! `/proc/interrupts` (two snapshots) and IRQ affinity lists, `netstat -s`/`nstat` (two
//! snapshots), `sysctl -a`, `ss -tanp`. Out: [`Nic`] per interface and [`NetStack`].

use super::Cited;
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
    /// MTU (`ip link`).
    pub mtu: Option<Cited<u32>>,
    /// The bond this interface is enslaved to.
    pub master: Option<String>,
    /// Slaves, when this is a bond.
    pub slaves: Vec<String>,
    /// Packet, drop and error rates over the window.
    pub rates: Option<NicRates>,
    /// Interrupts of this NIC's queues.
    pub irqs: Vec<NicIrq>,
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
    /// CPUs that took at least 10 % of this NIC's interrupts during the window.
    pub fn busy_irq_cpus(&self) -> Vec<u32> {
        let mut per: std::collections::BTreeMap<u32, u64> = Default::default();
        for irq in &self.irqs {
            for &(c, n) in &irq.per_cpu {
                *per.entry(c).or_default() += n;
            }
        }
        let total: u64 = per.values().sum();
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
    /// Listening sockets whose accept queue was full (`Recv-Q` ≥ `Send-Q` in `ss -ltn`).
    pub full_listeners: Vec<Cited<ListenQueue>>,
}

/// A counter's change: over the window when two snapshots exist, else since boot.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CounterChange {
    /// Increase.
    pub delta: u64,
    /// Seconds covered; `None` means "since boot".
    pub seconds: Option<f64>,
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
