//! Pure parsers for the outputs of Linux and JVM diagnostic tools.
//!
//! Parsers are grouped by tool family, one module per format:
//!
//! | family | formats |
//! | --- | --- |
//! | [`sysstat`] | `iostat`, `mpstat`, `sar`, `sadf -j`, `pidstat` |
//! | [`proc`] | `/proc` files: softirqs, interrupts, stat, vmstat, meminfo, diskstats, net/dev, net/snmp (and `nstat`), swaps, `<pid>/status`, `<pid>/limits`, pressure (PSI), loadavg, `sys/fs/file-nr`, a process's descriptor count, NUMA counters (`numastat`, `node<N>/numastat`), cpuinfo |
//! | [`kernel`] | `/proc/cmdline`, taint flags, `dmesg`, `journalctl`/syslog files, `/proc/modules`, `lsmod`, `modinfo`, `sysctl` |
//! | [`net`] | `ethtool` (one module per option), `ip -s link`, bonding, IRQ affinity, `netstat -s`, connection-tracking statistics (`conntrack -S`, `/proc/net/stat/nf_conntrack`) |
//! | [`procs`] | `ps`, `top`, `ss` (with `-i` internals), `ss -s`, `netstat` connections, `vmstat`, `free`, `ulimit -a`, cgroups |
//! | [`jvm`] | `java -version`, `jcmd VM.*`, `jstat`, `jcmd GC.heap_info`, class histograms, GC logs, thread dumps, `jps` |
//! | [`time`] | chrony, `ntpq`, `timedatectl`, VMware Tools time sync |
//! | [`host`] | `uname`, os-release, `dmidecode`, `systemd-detect-virt`, `systemctl status`, `lscpu`, `lspci`, VMware balloon, `cpupower frequency-info`, cpufreq sysfs, `tuned-adm`, transparent huge page settings |
//! | [`perf`] | `perf report`, `perf script` |
//! | [`storage`] | `df` (blocks, inodes), `/proc/mounts` and `mount`, `lsblk` (JSON and text), `/sys/block` queue attributes and `slaves/` |
//! | [`osw`] | OSWatcher archive files: `oswvmstat`, `oswiostat`, `oswmpstat` (the tools' own parsers, split at the `zzz ***` markers) |
//! | [`collection`] | sosreport's own logs (`sos_logs/sos.log`, `ui.log`): plugins and commands timed out or skipped |
//! | [`zookeeper`], [`hadoop`] | their configuration files and status outputs |
//!
//! Every format module exposes the same two functions, `sniff` and `parse`, or `sniff_*` and
//! `parse_*` where the name says which format (`kernel::dmesg::parse_dmesg`):
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
//! let parsed = parsers::sysstat::mpstat::parse(text).unwrap();
//! assert_eq!(parsed.value.intervals[0].rows[0].soft_pct, Some(48.0));
//! ```

// A parser meets untrusted text: a panic would lose the whole bundle's analysis, so failure
// paths are written out (tests may unwrap; see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used)]
// Input text is sliced only where a character boundary is certain: `&s[..n]` on a byte index
// panics inside a multi-byte character, so slicing goes through `get`, `split_at_checked`,
// `strip_prefix`, `split_once` or char iterators (tests may slice their own text).
#![cfg_attr(not(test), deny(clippy::string_slice))]

pub mod cells;
pub mod collection;
pub mod common;
#[cfg(test)]
mod differential;
pub mod hadoop;
pub mod host;
pub mod jvm;
pub mod kernel;
pub mod kind;
pub mod net;
pub mod osw;
pub mod perf;
pub mod proc;
pub mod procs;
pub mod storage;
pub mod sysstat;
pub mod time;
pub mod zookeeper;

pub use common::{IssueKind, LineIssue, ParseError, Parsed, Sniff};
