//! Network interfaces and the kernel's network statistics: `ethtool` (one module per option),
//! `ip -s link`, `/proc/net/bonding/*`, the IRQ affinity of NIC queues, `netstat -s` and connection-tracking statistics.
//!
//! In: the text of one output. Out: one record per interface, queue, bond or counter, with its
//! input line. The raw procfs counters (`/proc/net/dev`, `/proc/net/snmp`) are read in
//! [`crate::proc`].

pub mod bonding;
pub mod conntrack_stat;
pub mod ethtool;
pub mod iplink;
pub mod irq_affinity;
pub mod netstat_s;
