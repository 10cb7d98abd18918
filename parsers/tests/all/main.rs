//! Integration tests of the parsers, one module per format family or cross-format concern, in
//! one test binary (one link instead of one per file). Fixtures are under `tests/fixtures/`,
//! their sources in `tests/fixtures/PROVENANCE.md`.

mod common;

mod bonding;
mod ceilings;
mod cgroup;
mod cgroup_loose;
mod diskstats;
mod ethtool;
mod free;
mod gclog;
mod gclog_histograms;
mod hadoop;
mod histogram;
mod identity;
mod interrupts;
mod iostat;
mod iplink;
mod irq_affinity;
mod jps;
mod jstat;
mod jvm_identity;
mod jvm_threads;
mod kernel;
mod limits;
mod lspci;
mod meminfo;
mod modules;
mod mpstat;
mod multibyte;
mod netdev;
mod netstat_s;
mod perf_report;
mod perf_script;
mod pidstat;
mod proc_status;
mod procs;
mod procstat;
mod robustness;
mod robustness_b;
mod sadf;
mod sar;
mod snapshot;
mod sniff;
mod snmp;
mod softirqs;
mod swaps;
mod sysctl;
mod sysstat_json;
mod threads;
mod timesync;
mod virt;
mod vmstat;
mod vmstat_proc;
mod zookeeper;
