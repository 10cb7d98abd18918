//! Files of procfs: `/proc/softirqs`, `/proc/interrupts`, `/proc/stat`, `/proc/vmstat`,
//! `/proc/meminfo`, `/proc/diskstats`, `/proc/net/dev`, `/proc/net/snmp` (with
//! `/proc/net/netstat`, `/proc/net/snmp6` and `nstat`), `/proc/swaps` (and `swapon --show`),
//! `/proc/<pid>/status`, `/proc/<pid>/limits`, `/proc/pressure/*` (PSI), `/proc/loadavg`, `/proc/cpuinfo`,
//! `/proc/sys/fs/file-nr`, the count of `/proc/<pid>/fd` and NUMA counters (`numastat`,
//! `/sys/devices/system/node/node<N>/numastat`).
//!
//! In: the text of one read of the file. Out: its values as the kernel prints them (counters
//! cumulative since boot, sizes in the file's unit, named in each field's doc); records of
//! counters can be compared with a later read of the same file (`rates_to`, `delta_to`,
//! `utilisation_to`) to get per-second rates.

pub mod cpuinfo;
pub mod diskstats;
pub mod fd_count;
pub mod file_nr;
pub mod interrupts;
pub mod limits;
pub mod loadavg;
pub mod meminfo;
pub mod net_dev;
pub mod numastat;
pub mod pressure;
pub mod snmp;
pub mod softirqs;
pub mod softnet_stat;
pub mod stat;
pub mod status;
pub mod swaps;
pub mod uptime;
pub mod vmstat;
