//! Pure parsers for the outputs of Linux and JVM diagnostic tools.
//!
//! Every module handles one artifact kind and exposes the same two functions:
//!
//! - `sniff(head: &str) -> Sniff` looks at the first lines of a file and answers whether the text
//!   is that kind ([`Sniff::Yes`], [`Sniff::Unsure`], [`Sniff::No`]); the analyzer uses it to
//!   recognise loose files whatever their names.
//! - `parse(text: &str) -> Result<Parsed<T>, ParseError>` turns the text into a typed record `T`.
//!   Lines that cannot be read become [`LineIssue`]s carrying the *input* line number, and parsing
//!   goes on; only an input with nothing usable in it is a [`ParseError`].
//!
//! The crate knows nothing about files, archives or threads: text in, record and issues out. Every
//! record keeps the input line numbers of what it was read from, so findings can cite evidence.
//!
//! ```
//! let text = "Linux 6.1.0 (db1) \t2024-05-01 \t_x86_64_\t(2 CPU)\n\n\
//! 12:00:01     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
//! 12:00:02     all    1.00    0.00    1.00    0.00    0.00   48.00    0.00    0.00    0.00   50.00\n";
//! let parsed = parsers::mpstat::parse(text).unwrap();
//! assert_eq!(parsed.value.intervals[0].rows[0].soft_pct, Some(48.0));
//! ```

pub mod bonding;
pub mod cgroup;
pub mod common;
pub mod diskstats;
pub mod ethtool;
pub mod free;
pub mod gclog;
pub mod hadoop;
pub mod histogram;
pub mod identity;
pub mod interrupts;
pub mod iostat;
pub mod iplink;
pub mod irq_affinity;
pub mod jps;
mod json;
pub mod jstat;
pub mod jvm_identity;
pub mod jvm_threads;
pub mod kernel;
pub mod kind;
pub mod limits;
pub mod lspci;
pub mod meminfo;
pub mod modules;
pub mod mpstat;
pub mod netdev;
pub mod netstat_s;
pub mod perf_profile;
pub mod perf_report;
pub mod perf_script;
pub mod pidstat;
pub mod proc_status;
pub mod procs;
pub mod procstat;
pub mod sadf;
pub mod sar;
pub mod snmp;
pub mod softirqs;
pub mod swaps;
pub mod sysctl;
pub mod threads;
pub mod timesync;
pub mod virt;
pub mod vmstat;
pub mod vmstat_proc;
pub mod vmware;
pub mod zookeeper;

pub use common::{LineIssue, ParseError, Parsed, Sniff};
