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
//!
//! # Parsing approach
//!
//! Byte scanning finds lines and splits records: `memchr` over the input (the streaming
//! [`perf::script`] reader hands lines over from its reader's buffer this way), then
//! `split_once`, `strip_prefix` and token iterators on each line. Most lines of a large
//! artifact are of a fixed shape that a scanner reads in a few comparisons: an `iostat` row, a
//! GC-log line's `[…]` decorators, a stack's `at` frame, a `perf script` frame.
//!
//! [nom](https://docs.rs/nom/8) combinators (nom 8, `&str` input, the unit error so that a
//! failed alternative costs nothing) read a line whose grammar is nested where the line is rare
//! enough that the combinators' cost does not show: the lock lines of a thread dump (a verb, an
//! address in `<…>`, a class in `(a …)`; [`jvm::thread_dump`]). A grammar is checked against the
//! scanner it replaced, on every fixture line and on lines mutated from them, and the scanner is
//! kept where the grammar measured slower on a path every line takes.
//!
//! Measured with `bench/parser-throughput.sh` (64 MB of a repeated real capture, MB/s of the
//! parsing thread's CPU time, median of 7 runs alternating the builds on a shared machine,
//! record digests equal):
//!
//! | kind | scanner | nom | kept |
//! | --- | ---: | ---: | --- |
//! | `gclog-unified`: the decorators of every line | 254 | 174 | scanner |
//! | `thread-dump`: headers and lock lines | 223 | 169 | scanner for headers |
//! | `thread-dump`: lock lines only | 223 (285 in 9 later runs) | 209 (272) | nom: a cold path, 5 % of the whole on a lock-heavy dump |
//!
//! `perf script` frames and sample headers stay scanned without a nom rewrite: a frame's DSO
//! is the last balanced `(…)` group of the line, found from the line's end, and a header is
//! anchored on its time stamp with a command name of any text before it; neither reads left to
//! right without backtracking over the line, and frames are most of the input.

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
