//! `sar` text output from sysstat: the CPU (`-u`, `-u ALL`, `-P ALL`), network (`-n DEV`,
//! `-n EDEV`), disk (`-d`), run queue (`-q`), memory (`-r`), paging (`-B`), swapping (`-W`),
//! task and context switch (`-w`) and interrupt (`-I`) sections. `sadf -j` JSON of the same
//! activities is read by [`crate::sysstat::sadf`] into the same [`Sar`] record.
//!
//! A sar file is a sequence of sections, each a header line (a time or `Average:`, then column
//! names) followed by rows, separated by blank lines. Sections are recognised by their columns
//! (found by name, never by position); sections of other activities (`-b`, `-S`, `-H`, `-v`,
//! `-n SOCK`, `-n IP`, `-F`, `-m`, PSI, …) are skipped without issues. Variants handled:
//! - live runs (`sar -u 1 3`: a header per interval, `Average:` block with its own header) and
//!   files read back with `-f` (one header per activity, all intervals, then `Average:` rows);
//! - data files written by older sysstat (9.1.6, 10.3.1, ppc 11.7.2) and read back by a newer
//!   `sar`: the banner is followed by `LINUX RESTART (N CPU)` and `COM …` comment lines;
//! - `LINUX RESTART (N CPU)` markers between sections and a CPU count that changes after them;
//! - CPUs going offline (their rows are simply absent from an interval);
//! - `sar -d -p` / `--pretty` with the `DEV` column last;
//! - sysstat 9/10 column names (`rd_sec/s`, `wr_sec/s`, `avgrq-sz` in 512-byte sectors,
//!   `avgqu-sz`, `svctm`) next to 11.5.7+ ones (`rkB/s`, `areq-sz`, `aqu-sz`); `%vmeff` (≤ 12.6)
//!   and `pgprom/s`, `pgdem/s` (12.7);
//! - 24-hour (`13:20:19`) and 12-hour (`01:20:19 PM`) clocks, decimal commas (`de_DE`),
//!   translated `Average:` labels, runs that cross midnight (see [`SarTime`]).
//!
//! Sample input (sysstat 12.7 `sar -u -P ALL -f sa18`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST)    04/18/19    _x86_64_    (9 CPU)
//!
//! 13:20:09        CPU     %user     %nice   %system   %iowait    %steal     %idle
//! 13:20:19        all      2.15     12.50      2.36      0.12      0.00     82.88
//! 13:20:19          0      2.71      0.03      3.12      0.00      0.00     94.14
//! Average:        all      3.66     12.87      3.75      0.31      0.10     79.29
//!
//! 13:37:29     LINUX RESTART    (9 CPU)
//! ```

use crate::common::Timestamp;
use crate::common::{
    excerpt, first_non_blank, head_lines, is_number, numbered_lines, parse_sysstat_header,
    parse_time_of_day, read_num, strip_bom, Ceiling, Date, Issues, NumError, ParseError, Parsed,
    Sniff, SysstatHeader,
};
use crate::sysstat::mpstat::CpuId;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A row's time: the end of its interval, as a date (banner date moved on at each midnight the
/// rows of one activity cross) and a time of day. The same type as iostat's timestamps.
pub type SarTime = Timestamp;

/// A whole `sar` (or `sadf -j`) output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Sar {
    /// The sysstat banner (text) or the JSON host record.
    pub header: Option<SysstatHeader>,
    /// `-u` / `-u ALL` / `-P ALL`: CPU utilisation.
    pub cpu: Table<CpuRow>,
    /// `-n DEV`: network interface traffic.
    pub net_dev: Table<NetDevRow>,
    /// `-n EDEV`: network interface errors and drops.
    pub net_edev: Table<NetEdevRow>,
    /// `-d`: block devices.
    pub disk: Table<DiskRow>,
    /// `-q`: run queue and load averages.
    pub queue: Table<QueueRow>,
    /// `-r`: memory utilisation.
    pub memory: Table<MemoryRow>,
    /// `-B`: paging.
    pub paging: Table<PagingRow>,
    /// `-W`: swapping.
    pub swapping: Table<SwappingRow>,
    /// `-w`: task creation and context switches.
    pub tasks: Table<TasksRow>,
    /// `-I`: interrupts per second, by IRQ (`sum`, `0`, `NMI`, …).
    pub interrupts: Table<IntrRow>,
    /// `sadf -j` only: one entry per sample, with its interval length.
    pub samples: Vec<SarSample>,
    /// `sadf -j` only: the data file's time zone (`timezone` host member, e.g. `GMT`).
    pub timezone: Option<String>,
    /// `LINUX RESTART` markers (reboots inside the data file), each listed once, in input order.
    pub restarts: Vec<Restart>,
    /// `COM` comment records (`sadc -C`), each listed once, in input order.
    pub comments: Vec<Comment>,
    /// Number of sections (text) or activity members (JSON, per sample) of activities this
    /// parser does not read, skipped without issues.
    pub other_sections: usize,
}

/// Rows of one activity: interval rows in input order, and the `Average:` rows apart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table<T> {
    /// One row per interval (and per CPU / interface / device), in input order.
    pub rows: Vec<T>,
    /// The `Average:` rows (text only; `sadf -j` prints none).
    pub averages: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            rows: Vec::new(),
            averages: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    /// No rows and no averages.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.averages.is_empty()
    }
}

/// One `sadf -j` sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SarSample {
    /// End of the interval (`timestamp` `date` and `time`).
    pub time: Option<SarTime>,
    /// Length of the interval, seconds (`timestamp` `interval`).
    pub interval_s: Option<f64>,
    /// 1-based input line where the sample object starts.
    pub line: usize,
}

/// A `LINUX RESTART (N CPU)` marker: the machine rebooted while sadc was recording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Restart {
    /// When the machine came back up.
    pub time: Option<SarTime>,
    /// CPU count after the restart, when printed (`(10 CPU)`).
    pub cpus: Option<u32>,
    /// 1-based input line of the (first) marker.
    pub line: usize,
}

/// A `COM …` comment record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comment {
    /// When the comment was recorded.
    pub time: Option<SarTime>,
    /// The comment text.
    pub text: String,
    /// 1-based input line.
    pub line: usize,
}

/// `sar -u` CPU utilisation of one CPU (or `all`) over one interval, in % of that CPU's time.
///
/// The default report prints `%user` and `%system`, which *include* guest time and interrupt
/// time respectively; `-u ALL` prints `%usr` and `%sys`, which exclude them, plus `%irq`,
/// `%soft`, `%guest` and `%gnice`. Both kinds are kept apart, never mixed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `all` or a CPU number (the `CPU` column; JSON `cpu`).
    pub cpu: CpuId,
    /// `%user` (default report): user time including guest time.
    pub user_pct: Option<f64>,
    /// `%usr` (`-u ALL`): user time excluding guest time.
    pub usr_pct: Option<f64>,
    /// `%nice`.
    pub nice_pct: Option<f64>,
    /// `%system` (default report): kernel time including hard and soft interrupts.
    pub system_pct: Option<f64>,
    /// `%sys` (`-u ALL`): kernel time excluding interrupts.
    pub sys_pct: Option<f64>,
    /// `%iowait`.
    pub iowait_pct: Option<f64>,
    /// `%steal`: time stolen by the hypervisor.
    pub steal_pct: Option<f64>,
    /// `%irq` (`-u ALL`).
    pub irq_pct: Option<f64>,
    /// `%soft` (`-u ALL`): softirq handling.
    pub soft_pct: Option<f64>,
    /// `%guest` (`-u ALL`).
    pub guest_pct: Option<f64>,
    /// `%gnice` (`-u ALL`).
    pub gnice_pct: Option<f64>,
    /// `%idle`.
    pub idle_pct: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -n DEV`: traffic of one interface over one interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct NetDevRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `IFACE`: interface name.
    pub iface: String,
    /// `rxpck/s`: packets received per second.
    pub rxpck_per_s: Option<f64>,
    /// `txpck/s`: packets transmitted per second.
    pub txpck_per_s: Option<f64>,
    /// `rxkB/s`: KiB received per second.
    pub rxkb_per_s: Option<f64>,
    /// `txkB/s`: KiB transmitted per second.
    pub txkb_per_s: Option<f64>,
    /// `rxcmp/s`: compressed packets received per second.
    pub rxcmp_per_s: Option<f64>,
    /// `txcmp/s`: compressed packets transmitted per second.
    pub txcmp_per_s: Option<f64>,
    /// `rxmcst/s`: multicast packets received per second.
    pub rxmcst_per_s: Option<f64>,
    /// `%ifutil`: utilisation of the interface's bandwidth (sysstat ≥ 10.1; 0 when the speed is
    /// unknown, e.g. on virtio).
    pub ifutil_pct: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -n EDEV`: errors and drops of one interface over one interval, per second.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct NetEdevRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `IFACE`: interface name.
    pub iface: String,
    /// `rxerr/s`: bad packets received.
    pub rxerr_per_s: Option<f64>,
    /// `txerr/s`: errors while transmitting.
    pub txerr_per_s: Option<f64>,
    /// `coll/s`: collisions.
    pub coll_per_s: Option<f64>,
    /// `rxdrop/s`: received packets dropped for lack of space in Linux buffers.
    pub rxdrop_per_s: Option<f64>,
    /// `txdrop/s`: transmitted packets dropped for lack of space in Linux buffers.
    pub txdrop_per_s: Option<f64>,
    /// `txcarr/s`: carrier errors.
    pub txcarr_per_s: Option<f64>,
    /// `rxfram/s`: frame alignment errors.
    pub rxfram_per_s: Option<f64>,
    /// `rxfifo/s`: FIFO overrun errors on received packets.
    pub rxfifo_per_s: Option<f64>,
    /// `txfifo/s`: FIFO overrun errors on transmitted packets.
    pub txfifo_per_s: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -d`: one block device over one interval. Sizes in KiB whatever the sysstat version.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DiskRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `DEV`: device name (`sda`, `dev8-0` without `-p`, `vda`).
    pub dev: String,
    /// `tps`: transfers (I/O requests) per second.
    pub tps: Option<f64>,
    /// `rkB/s` (from `rd_sec/s` sectors on sysstat ≤ 11.5.6): KiB read per second.
    pub rkb_per_s: Option<f64>,
    /// `wkB/s` (from `wr_sec/s`): KiB written per second.
    pub wkb_per_s: Option<f64>,
    /// `dkB/s` (from `dc_sec/s`): KiB discarded per second.
    pub dkb_per_s: Option<f64>,
    /// `areq-sz` (KiB), or `avgrq-sz` (512-byte sectors) converted to KiB: average request size.
    pub areq_sz_kb: Option<f64>,
    /// `aqu-sz` (`avgqu-sz` before 11.5.7): average queue length.
    pub aqu_sz: Option<f64>,
    /// `await`: average time per request (queue + service), ms.
    pub await_ms: Option<f64>,
    /// `svctm` (ms; removed in sysstat 12).
    pub svctm_ms: Option<f64>,
    /// `%util`: % of elapsed time the device had I/O in flight.
    pub util_pct: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -q`: run queue and load averages at the end of one interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct QueueRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `runq-sz`: tasks running or waiting for a CPU.
    pub runq_sz: Option<f64>,
    /// `plist-sz`: tasks in the task list.
    pub plist_sz: Option<f64>,
    /// `ldavg-1`: 1-minute load average.
    pub ldavg_1: Option<f64>,
    /// `ldavg-5`: 5-minute load average.
    pub ldavg_5: Option<f64>,
    /// `ldavg-15`: 15-minute load average.
    pub ldavg_15: Option<f64>,
    /// `blocked`: tasks blocked waiting for I/O (sysstat ≥ 10.1).
    pub blocked: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -r` (`-r ALL`): memory at the end of one interval. `kb*` values are KiB.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MemoryRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `kbmemfree`: free memory.
    pub kbmemfree: Option<f64>,
    /// `kbavail`: memory available for new work without swapping (sysstat ≥ 11.5.1).
    pub kbavail: Option<f64>,
    /// `kbmemused`: used memory (total − free − buffers − cache − slab since sysstat 11.5.1).
    pub kbmemused: Option<f64>,
    /// `%memused`.
    pub memused_pct: Option<f64>,
    /// `kbbuffers`.
    pub kbbuffers: Option<f64>,
    /// `kbcached`.
    pub kbcached: Option<f64>,
    /// `kbcommit`: memory needed for the current workload (Committed_AS).
    pub kbcommit: Option<f64>,
    /// `%commit`: kbcommit as % of RAM + swap; above 100 % the system is overcommitted.
    pub commit_pct: Option<f64>,
    /// `kbactive`.
    pub kbactive: Option<f64>,
    /// `kbinact`.
    pub kbinact: Option<f64>,
    /// `kbdirty`: memory waiting to be written back to disk.
    pub kbdirty: Option<f64>,
    /// `kbshmem` (`-r ALL`).
    pub kbshmem: Option<f64>,
    /// `kbanonpg` (`-r ALL`).
    pub kbanonpg: Option<f64>,
    /// `kbslab` (`-r ALL`).
    pub kbslab: Option<f64>,
    /// `kbkstack` (`-r ALL`).
    pub kbkstack: Option<f64>,
    /// `kbpgtbl` (`-r ALL`).
    pub kbpgtbl: Option<f64>,
    /// `kbvmused` (`-r ALL`).
    pub kbvmused: Option<f64>,
    /// Columns this parser does not name, by header text (JSON swap members `swpfree` … too).
    pub extra: BTreeMap<String, f64>,
}

/// `sar -B`: paging over one interval, per second.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PagingRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `pgpgin/s`: KiB paged in from disk.
    pub pgpgin_per_s: Option<f64>,
    /// `pgpgout/s`: KiB paged out to disk.
    pub pgpgout_per_s: Option<f64>,
    /// `fault/s`: page faults (major + minor).
    pub fault_per_s: Option<f64>,
    /// `majflt/s`: major faults (page read from disk).
    pub majflt_per_s: Option<f64>,
    /// `pgfree/s`: pages put on the free list.
    pub pgfree_per_s: Option<f64>,
    /// `pgscank/s`: pages scanned by kswapd.
    pub pgscank_per_s: Option<f64>,
    /// `pgscand/s`: pages scanned directly (direct reclaim: allocation stalls).
    pub pgscand_per_s: Option<f64>,
    /// `pgsteal/s`: pages reclaimed.
    pub pgsteal_per_s: Option<f64>,
    /// `%vmeff`: pgsteal / pgscan (sysstat ≤ 12.6).
    pub vmeff_pct: Option<f64>,
    /// `pgprom/s`: pages promoted (NUMA tiering, sysstat 12.7).
    pub pgprom_per_s: Option<f64>,
    /// `pgdem/s`: pages demoted (sysstat 12.7).
    pub pgdem_per_s: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -W`: swapping over one interval, pages per second.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SwappingRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `pswpin/s`: pages swapped in.
    pub pswpin_per_s: Option<f64>,
    /// `pswpout/s`: pages swapped out.
    pub pswpout_per_s: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -w`: task creation and context switches over one interval, per second.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TasksRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `proc/s`: tasks created.
    pub proc_per_s: Option<f64>,
    /// `cswch/s`: context switches.
    pub cswch_per_s: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

/// `sar -I`: one interrupt line over one interval, interrupts per second.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IntrRow {
    /// End of the interval (`None` on `Average:` rows).
    pub time: Option<SarTime>,
    /// 1-based input line.
    pub line: usize,
    /// `INTR`: `sum` (all interrupts) or an IRQ number or name as in `/proc/interrupts`.
    pub intr: String,
    /// `all`: rate over all CPUs.
    pub all_per_s: Option<f64>,
    /// `CPUn` columns (`-P ALL`; JSON `CPU0` … members): `(cpu, rate)`.
    pub per_cpu: Vec<(u32, f64)>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

// ---------------------------------------------------------------------------------------------
// Rows: one trait so that text and JSON fill every table the same way.

/// KiB per 512-byte sector.
const KIB_PER_SECTOR: f64 = 0.5;

/// A row of one activity, filled column by column.
pub(crate) trait SarRow: Sized {
    /// Header of the key column (`CPU`, `IFACE`, `DEV`), if the activity has one.
    const KEY: Option<&'static str>;
    /// A new row for `key` (the key column's text; empty for keyless activities).
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self>;
    /// Stores `value` printed under `col` (text header name); `false` if the column has no
    /// field of its own.
    fn set(&mut self, col: &str, value: f64) -> bool;
    /// Columns without a field.
    fn extra(&mut self) -> &mut BTreeMap<String, f64>;
    /// The ceiling of the values under `col`: [`Ceiling::Counter`] unless the activity says
    /// otherwise.
    fn ceiling(_col: &str) -> Ceiling {
        Ceiling::Counter
    }

    /// Stores a value, in `extra` when the column has no field.
    fn put(&mut self, col: &str, value: f64) {
        if !self.set(col, value) {
            self.extra().insert(col.to_string(), value);
        }
    }
}

/// Sets a sector-derived value only when the KiB column did not already give it.
fn set_if_none(slot: &mut Option<f64>, v: f64) {
    if slot.is_none() {
        *slot = Some(v);
    }
}

impl SarRow for CpuRow {
    const KEY: Option<&'static str> = Some("CPU");
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        let cpu = if key == "all" || key == "-1" {
            CpuId::All
        } else {
            CpuId::Cpu(key.parse().ok()?)
        };
        Some(CpuRow {
            time,
            line,
            cpu,
            user_pct: None,
            usr_pct: None,
            nice_pct: None,
            system_pct: None,
            sys_pct: None,
            iowait_pct: None,
            steal_pct: None,
            irq_pct: None,
            soft_pct: None,
            guest_pct: None,
            gnice_pct: None,
            idle_pct: None,
            extra: BTreeMap::new(),
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "%user" => &mut self.user_pct,
            "%usr" => &mut self.usr_pct,
            "%nice" => &mut self.nice_pct,
            "%system" => &mut self.system_pct,
            "%sys" => &mut self.sys_pct,
            "%iowait" => &mut self.iowait_pct,
            "%steal" => &mut self.steal_pct,
            "%irq" => &mut self.irq_pct,
            "%soft" => &mut self.soft_pct,
            "%guest" => &mut self.guest_pct,
            "%gnice" => &mut self.gnice_pct,
            "%idle" => &mut self.idle_pct,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    /// Every `%` column of the CPU activity is a share of CPU time.
    fn ceiling(col: &str) -> Ceiling {
        if col.starts_with('%') {
            Ceiling::CpuShare
        } else {
            Ceiling::Counter
        }
    }

    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for NetDevRow {
    const KEY: Option<&'static str> = Some("IFACE");
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(NetDevRow {
            time,
            line,
            iface: key.to_string(),
            ..NetDevRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "rxpck/s" => &mut self.rxpck_per_s,
            "txpck/s" => &mut self.txpck_per_s,
            "rxkB/s" => &mut self.rxkb_per_s,
            "txkB/s" => &mut self.txkb_per_s,
            "rxcmp/s" => &mut self.rxcmp_per_s,
            "txcmp/s" => &mut self.txcmp_per_s,
            "rxmcst/s" => &mut self.rxmcst_per_s,
            "%ifutil" => &mut self.ifutil_pct,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for NetEdevRow {
    const KEY: Option<&'static str> = Some("IFACE");
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(NetEdevRow {
            time,
            line,
            iface: key.to_string(),
            ..NetEdevRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "rxerr/s" => &mut self.rxerr_per_s,
            "txerr/s" => &mut self.txerr_per_s,
            "coll/s" => &mut self.coll_per_s,
            "rxdrop/s" => &mut self.rxdrop_per_s,
            "txdrop/s" => &mut self.txdrop_per_s,
            "txcarr/s" => &mut self.txcarr_per_s,
            "rxfram/s" => &mut self.rxfram_per_s,
            "rxfifo/s" => &mut self.rxfifo_per_s,
            "txfifo/s" => &mut self.txfifo_per_s,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for DiskRow {
    const KEY: Option<&'static str> = Some("DEV");
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(DiskRow {
            time,
            line,
            dev: key.to_string(),
            ..DiskRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        match col {
            "tps" => self.tps = Some(v),
            "rkB/s" => self.rkb_per_s = Some(v),
            "wkB/s" => self.wkb_per_s = Some(v),
            "dkB/s" => self.dkb_per_s = Some(v),
            "rd_sec/s" => set_if_none(&mut self.rkb_per_s, v * KIB_PER_SECTOR),
            "wr_sec/s" => set_if_none(&mut self.wkb_per_s, v * KIB_PER_SECTOR),
            "dc_sec/s" => set_if_none(&mut self.dkb_per_s, v * KIB_PER_SECTOR),
            "areq-sz" => self.areq_sz_kb = Some(v),
            "avgrq-sz" => set_if_none(&mut self.areq_sz_kb, v * KIB_PER_SECTOR),
            "aqu-sz" | "avgqu-sz" => self.aqu_sz = Some(v),
            "await" => self.await_ms = Some(v),
            "svctm" => self.svctm_ms = Some(v),
            "%util" => self.util_pct = Some(v),
            _ => return false,
        }
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for QueueRow {
    const KEY: Option<&'static str> = None;
    fn new(_: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(QueueRow {
            time,
            line,
            ..QueueRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "runq-sz" => &mut self.runq_sz,
            "plist-sz" => &mut self.plist_sz,
            "ldavg-1" => &mut self.ldavg_1,
            "ldavg-5" => &mut self.ldavg_5,
            "ldavg-15" => &mut self.ldavg_15,
            "blocked" => &mut self.blocked,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for MemoryRow {
    const KEY: Option<&'static str> = None;
    fn new(_: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(MemoryRow {
            time,
            line,
            ..MemoryRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "kbmemfree" => &mut self.kbmemfree,
            "kbavail" => &mut self.kbavail,
            "kbmemused" => &mut self.kbmemused,
            "%memused" => &mut self.memused_pct,
            "kbbuffers" => &mut self.kbbuffers,
            "kbcached" => &mut self.kbcached,
            "kbcommit" => &mut self.kbcommit,
            "%commit" => &mut self.commit_pct,
            "kbactive" => &mut self.kbactive,
            "kbinact" => &mut self.kbinact,
            "kbdirty" => &mut self.kbdirty,
            "kbshmem" => &mut self.kbshmem,
            "kbanonpg" => &mut self.kbanonpg,
            "kbslab" => &mut self.kbslab,
            "kbkstack" => &mut self.kbkstack,
            "kbpgtbl" => &mut self.kbpgtbl,
            "kbvmused" => &mut self.kbvmused,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for PagingRow {
    const KEY: Option<&'static str> = None;
    fn new(_: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(PagingRow {
            time,
            line,
            ..PagingRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "pgpgin/s" => &mut self.pgpgin_per_s,
            "pgpgout/s" => &mut self.pgpgout_per_s,
            "fault/s" => &mut self.fault_per_s,
            "majflt/s" => &mut self.majflt_per_s,
            "pgfree/s" => &mut self.pgfree_per_s,
            "pgscank/s" => &mut self.pgscank_per_s,
            "pgscand/s" => &mut self.pgscand_per_s,
            "pgsteal/s" => &mut self.pgsteal_per_s,
            "%vmeff" => &mut self.vmeff_pct,
            "pgprom/s" => &mut self.pgprom_per_s,
            "pgdem/s" => &mut self.pgdem_per_s,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for SwappingRow {
    const KEY: Option<&'static str> = None;
    fn new(_: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(SwappingRow {
            time,
            line,
            ..SwappingRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "pswpin/s" => &mut self.pswpin_per_s,
            "pswpout/s" => &mut self.pswpout_per_s,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for TasksRow {
    const KEY: Option<&'static str> = None;
    fn new(_: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(TasksRow {
            time,
            line,
            ..TasksRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        let slot = match col {
            "proc/s" => &mut self.proc_per_s,
            "cswch/s" => &mut self.cswch_per_s,
            _ => return false,
        };
        *slot = Some(v);
        true
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

impl SarRow for IntrRow {
    const KEY: Option<&'static str> = Some("INTR");
    fn new(key: &str, time: Option<SarTime>, line: usize) -> Option<Self> {
        Some(IntrRow {
            time,
            line,
            intr: key.to_string(),
            ..IntrRow::default()
        })
    }
    fn set(&mut self, col: &str, v: f64) -> bool {
        if col == "all" {
            self.all_per_s = Some(v);
            return true;
        }
        match col.strip_prefix("CPU").and_then(|n| n.parse::<u32>().ok()) {
            Some(cpu) => {
                self.per_cpu.push((cpu, v));
                true
            }
            None => false,
        }
    }
    fn extra(&mut self) -> &mut BTreeMap<String, f64> {
        &mut self.extra
    }
}

// ---------------------------------------------------------------------------------------------
// Sections

/// The activities this parser reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Activity {
    Cpu,
    NetDev,
    NetEdev,
    Disk,
    Queue,
    Memory,
    Paging,
    Swapping,
    Tasks,
    Interrupts,
}

impl Activity {
    const COUNT: usize = 10;

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The activity of a header, from its column names (the time or `Average:` removed).
fn classify(cols: &[&str]) -> Option<Activity> {
    let has = |c: &str| cols.contains(&c);
    let first = *cols.first()?;
    if first == "CPU" && has("%idle") && is_sar_cpu_header(cols) {
        Some(Activity::Cpu)
    } else if first == "IFACE" && has("rxpck/s") {
        Some(Activity::NetDev)
    } else if first == "IFACE" && has("rxerr/s") {
        Some(Activity::NetEdev)
    } else if has("DEV") && has("tps") {
        Some(Activity::Disk)
    } else if has("runq-sz") {
        Some(Activity::Queue)
    } else if has("kbmemfree") {
        Some(Activity::Memory)
    } else if has("pgpgin/s") {
        Some(Activity::Paging)
    } else if has("pswpin/s") {
        Some(Activity::Swapping)
    } else if has("proc/s") && has("cswch/s") {
        Some(Activity::Tasks)
    } else if first == "INTR" {
        Some(Activity::Interrupts)
    } else {
        None
    }
}

/// sar puts `%steal` right after `%iowait` in both CPU reports; mpstat puts `%irq` there.
fn is_sar_cpu_header(cols: &[&str]) -> bool {
    cols.windows(2).any(|w| w == ["%iowait", "%steal"])
}

/// What starts a sysstat line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prefix {
    /// `12:53:21` or `03:15:06 PM`: seconds since midnight.
    Time(u32),
    /// Seconds since the epoch (`pidstat -h` of older sysstat, `-U`).
    Epoch(u64),
    /// `Average:`, `Summary:` or a translation (`Durchschn.:`).
    Average,
}

/// Reads the time (or `Average:`) at the start of a line; returns it and how many tokens it used.
pub(crate) fn split_prefix(toks: &[&str]) -> Option<(Prefix, usize)> {
    let first = *toks.first()?;
    if let Some((secs, used)) = parse_time_of_day(toks) {
        return Some((Prefix::Time(secs), used));
    }
    if first.len() > 1 && first.ends_with(':') && !first.bytes().any(|b| b.is_ascii_digit()) {
        return Some((Prefix::Average, 1));
    }
    if (9..=11).contains(&first.len()) && first.bytes().all(|b| b.is_ascii_digit()) {
        return first.parse().ok().map(|s| (Prefix::Epoch(s), 1));
    }
    None
}

/// Turns times of day into dates and times, moving the date on each time the clock goes
/// backwards (the run crossed midnight).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    base: Option<Date>,
    days: i64,
    last: Option<u32>,
    /// `base` moved on by `days`: computed once per day, not once per row.
    today: Option<Date>,
}

impl Clock {
    pub(crate) fn new(base: Option<Date>) -> Self {
        Clock {
            base,
            days: 0,
            last: None,
            // Through `add_days` as every later day is, so an impossible banner date
            // (`02/31/24`) reads the same on every row.
            today: base.map(|d| d.add_days(0)),
        }
    }

    pub(crate) fn of_day(&mut self, seconds_of_day: u32) -> SarTime {
        if self.last.is_some_and(|l| seconds_of_day < l) {
            self.days += 1;
            self.today = self.base.map(|d| d.add_days(self.days));
        }
        self.last = Some(seconds_of_day);
        Timestamp {
            date: self.today,
            seconds_of_day,
        }
    }

    pub(crate) fn of_prefix(&mut self, p: Prefix) -> Option<SarTime> {
        match p {
            Prefix::Time(s) => Some(self.of_day(s)),
            Prefix::Epoch(s) => Some(epoch_time(s)),
            Prefix::Average => None,
        }
    }
}

/// UTC date and time of `secs` since the epoch.
pub(crate) fn epoch_time(secs: u64) -> SarTime {
    Timestamp {
        date: Some(Date::from_days_since_epoch((secs / 86_400) as i64)),
        seconds_of_day: (secs % 86_400) as u32,
    }
}

/// Restart and comment markers already listed: `sar -f` repeats them after each activity, and
/// they are kept once. A set, so that a file of many markers stays linear.
#[derive(Debug, Default)]
pub(crate) struct Markers {
    restarts: BTreeSet<(Option<Date>, Option<u32>, Option<u32>)>,
    comments: BTreeSet<(Option<Date>, Option<u32>, String)>,
}

impl Markers {
    /// Adds `r` to `out` unless the same restart (time and CPU count) is listed.
    pub(crate) fn restart(&mut self, out: &mut Sar, r: Restart) {
        let t = r.time;
        if self
            .restarts
            .insert((t.and_then(|t| t.date), t.map(|t| t.seconds_of_day), r.cpus))
        {
            out.restarts.push(r);
        }
    }

    /// Adds `c` to `out` unless the same comment is listed.
    pub(crate) fn comment(&mut self, out: &mut Sar, c: Comment) {
        let t = c.time;
        if self.comments.insert((
            t.and_then(|t| t.date),
            t.map(|t| t.seconds_of_day),
            c.text.clone(),
        )) {
            out.comments.push(c);
        }
    }
}

impl Sar {
    /// Moves the rows of `other` (one JSON sample) to the end of `self`.
    pub(crate) fn append(&mut self, mut other: Sar) {
        fn move_rows<T>(to: &mut Table<T>, from: &mut Table<T>) {
            to.rows.append(&mut from.rows);
            to.averages.append(&mut from.averages);
        }
        move_rows(&mut self.cpu, &mut other.cpu);
        move_rows(&mut self.net_dev, &mut other.net_dev);
        move_rows(&mut self.net_edev, &mut other.net_edev);
        move_rows(&mut self.disk, &mut other.disk);
        move_rows(&mut self.queue, &mut other.queue);
        move_rows(&mut self.memory, &mut other.memory);
        move_rows(&mut self.paging, &mut other.paging);
        move_rows(&mut self.swapping, &mut other.swapping);
        move_rows(&mut self.tasks, &mut other.tasks);
        move_rows(&mut self.interrupts, &mut other.interrupts);
        self.samples.append(&mut other.samples);
        self.other_sections += other.other_sections;
    }

    /// Whether any table has a row or an average.
    pub fn has_rows(&self) -> bool {
        !(self.cpu.is_empty()
            && self.net_dev.is_empty()
            && self.net_edev.is_empty()
            && self.disk.is_empty()
            && self.queue.is_empty()
            && self.memory.is_empty()
            && self.paging.is_empty()
            && self.swapping.is_empty()
            && self.tasks.is_empty()
            && self.interrupts.is_empty())
    }
}

// ---------------------------------------------------------------------------------------------
// Sniffing

/// Column sets that only sar prints (the time or `Average:` removed).
fn is_sar_header(cols: &[&str]) -> bool {
    if classify(cols).is_some() {
        return true;
    }
    // Other sar-only activities, enough to recognise a file that starts with them.
    matches!(
        cols,
        ["tps", "rtps", ..]
            | ["kbswpfree", ..]
            | ["kbhugfree", ..]
            | ["dentunusd", ..]
            | ["totsck", ..]
    )
}

/// Text `sar` output?
///
/// `Yes` on a `LINUX RESTART` marker or a header line only sar prints (a time or `Average:`, then
/// e.g. `CPU … %iowait %steal …`, `IFACE rxpck/s`, `DEV tps`, `runq-sz`, `kbmemfree`,
/// `pgpgin/s`, `pswpin/s`, `proc/s cswch/s`); `Unsure` on a bare sysstat banner; `No`
/// otherwise (mpstat puts `%irq` after `%iowait`, iostat says `Device`). `sadf -j` JSON is
/// [`crate::sysstat::sadf::sniff`]'s.
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) == Some(b'{') {
        return Sniff::No;
    }
    let mut banner = false;
    let mut other = false;
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    for (line, complete) in head_lines(head) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        if toks.is_empty() {
            continue;
        }
        if toks[0] == "Linux" && parse_sysstat_header(line, 0).is_some_and(|h| h.date.is_some()) {
            banner = true;
            continue;
        }
        if let Some((_, used)) = split_prefix(&toks) {
            let rest = &toks[used..];
            if rest.starts_with(&["LINUX", "RESTART"]) {
                return Sniff::Yes;
            }
            if complete && is_sar_header(rest) {
                return Sniff::Yes;
            }
        }
        if complete {
            other = true;
        }
    }
    if banner && !other {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

// ---------------------------------------------------------------------------------------------
// Text parsing

/// The section the following rows belong to.
enum Section<'a> {
    /// Between sections (after a blank line, the banner or a restart marker).
    Idle,
    /// A section of an activity this parser reads.
    Known {
        activity: Activity,
        cols: Vec<&'a str>,
        key: Option<usize>,
        line: usize,
    },
    /// A section of another activity: rows skipped.
    Other,
}

struct TextParser {
    out: Sar,
    issues: Issues,
    /// One clock per activity: each activity's rows are in time order, but a file read back
    /// with `-f` lists every activity from the start of the day again.
    clocks: [Clock; Activity::COUNT],
    /// Clock of restart and comment markers.
    marker_clock: Clock,
    /// Markers already listed.
    markers: Markers,
}

impl TextParser {
    #[allow(clippy::too_many_arguments)]
    fn row<T: SarRow>(
        &mut self,
        activity: Activity,
        cols: &[&str],
        key: Option<usize>,
        header_line: usize,
        prefix: Prefix,
        vals: &[&str],
        n: usize,
    ) -> Option<T> {
        if vals.len() != cols.len() {
            let (want, found) = (cols.len(), vals.len());
            self.issues.push(n, || {
                format!(
                    "expected {want} columns as in the header on line {header_line}, found \
                     {found}: `{}`",
                    excerpt(&vals.join(" "))
                )
            });
            return None;
        }
        let key_text = key.map_or("", |k| vals[k]);
        let time = self.clocks[activity.index()].of_prefix(prefix);
        let Some(mut row) = T::new(key_text, time, n) else {
            let col = key.map_or("", |k| cols[k]);
            self.issues.push(n, || {
                format!("expected `all` or a CPU number under `{col}`, found `{key_text}`")
            });
            return None;
        };
        let mut bad: Option<(&str, &str)> = None;
        let mut bad_count = 0;
        for (i, (col, tok)) in cols.iter().zip(vals).enumerate() {
            if Some(i) == key {
                continue;
            }
            match read_num(tok, T::ceiling(col)) {
                Ok(v) => row.put(col, v),
                Err(NumError::NotANumber) => {
                    bad_count += 1;
                    bad.get_or_insert((col, tok));
                }
                Err(e) => self.issues.push(n, || e.message(col, tok)),
            }
        }
        if let Some((col, tok)) = bad {
            let total = cols.len() - usize::from(key.is_some());
            if bad_count == total {
                self.issues.push(n, || {
                    format!(
                        "expected a row of {total} numbers, found `{}`",
                        excerpt(&vals.join(" "))
                    )
                });
                return None;
            }
            self.issues.push(n, || {
                format!(
                    "expected a number under `{col}`, found `{}`{}",
                    excerpt(tok),
                    if bad_count > 1 {
                        format!(" ({bad_count} unreadable values in this row)")
                    } else {
                        String::new()
                    }
                )
            });
        }
        Some(row)
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        activity: Activity,
        cols: &[&str],
        key: Option<usize>,
        header_line: usize,
        prefix: Prefix,
        vals: &[&str],
        n: usize,
    ) {
        let avg = prefix == Prefix::Average;
        macro_rules! to {
            ($table:ident) => {{
                if let Some(r) = self.row(activity, cols, key, header_line, prefix, vals, n) {
                    let t = &mut self.out.$table;
                    if avg {
                        t.averages.push(r)
                    } else {
                        t.rows.push(r)
                    }
                }
            }};
        }
        match activity {
            Activity::Cpu => to!(cpu),
            Activity::NetDev => to!(net_dev),
            Activity::NetEdev => to!(net_edev),
            Activity::Disk => to!(disk),
            Activity::Queue => to!(queue),
            Activity::Memory => to!(memory),
            Activity::Paging => to!(paging),
            Activity::Swapping => to!(swapping),
            Activity::Tasks => to!(tasks),
            Activity::Interrupts => to!(interrupts),
        }
    }
}

/// Reads `(N CPU)` from the tokens after `LINUX RESTART`.
fn restart_cpus(rest: &[&str]) -> Option<u32> {
    rest.windows(2)
        .find(|w| w[0].starts_with('(') && w[1].starts_with("CPU"))
        .and_then(|w| w[0].trim_start_matches('(').parse().ok())
}

/// Parses text `sar` output (use [`crate::sysstat::sadf::parse`] for `sadf -j` JSON).
///
/// Errors: [`ParseError::Unusable`] when no sar section (or restart marker) is found. A file
/// with a sysstat banner holding only activities this parser does not read is a valid, empty
/// [`Sar`] (see [`Sar::other_sections`]). Rows with the wrong number of columns or unreadable numbers become issues; lines that do
/// not start with a time or `Average:` too.
pub fn parse(text: &str) -> Result<Parsed<Sar>, ParseError> {
    let text = strip_bom(text);
    if first_non_blank(text).is_none() {
        return Err(ParseError::unusable(None, "input is empty"));
    }
    let mut p = TextParser {
        out: Sar::default(),
        issues: Issues::default(),
        clocks: [Clock::new(None); Activity::COUNT],
        marker_clock: Clock::new(None),
        markers: Markers::default(),
    };
    let mut section = Section::Idle;
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    for (n, line) in numbered_lines(text) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        let Some(&first) = toks.first() else {
            section = Section::Idle;
            continue;
        };
        if first == "Linux" {
            if let Some(h) = parse_sysstat_header(line, n) {
                if p.out.header.is_none() {
                    p.clocks = [Clock::new(h.date); Activity::COUNT];
                    p.marker_clock = Clock::new(h.date);
                    p.out.header = Some(h);
                }
                section = Section::Idle;
                continue;
            }
        }
        let Some((prefix, used)) = split_prefix(&toks) else {
            p.issues.push(n, || {
                format!(
                    "expected a time (`13:20:19`, `01:20:19 PM`) or `Average:` at the start of \
                     the line, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let rest = &toks[used..];
        if rest.starts_with(&["LINUX", "RESTART"]) {
            let time = p.marker_clock.of_prefix(prefix);
            let cpus = restart_cpus(&rest[2..]);
            p.markers.restart(
                &mut p.out,
                Restart {
                    time,
                    cpus,
                    line: n,
                },
            );
            section = Section::Idle;
            continue;
        }
        if rest.first() == Some(&"COM") {
            let time = p.marker_clock.of_prefix(prefix);
            let text = line
                .split_once("COM")
                .map_or("", |(_, t)| t)
                .trim()
                .to_string();
            p.markers.comment(
                &mut p.out,
                Comment {
                    time,
                    text,
                    line: n,
                },
            );
            continue;
        }
        if rest.is_empty() {
            p.issues.push(n, || {
                format!(
                    "expected a header or a row after the time, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let is_header = rest.iter().all(|t| !is_number(t));
        if is_header {
            let activity = classify(rest);
            match (&section, activity) {
                (_, Some(activity)) => {
                    let key = activity
                        .key()
                        .and_then(|k| rest.iter().position(|c| *c == k));
                    section = Section::Known {
                        activity,
                        cols: rest.to_vec(),
                        key,
                        line: n,
                    };
                }
                (Section::Idle, None) => {
                    p.out.other_sections += 1;
                    section = Section::Other;
                }
                (Section::Other, None) => {}
                (Section::Known { .. }, None) => p.issues.push(n, || {
                    format!(
                        "expected a row of numbers, found `{}` (a header needs a blank line \
                         before it)",
                        excerpt(line)
                    )
                }),
            }
            continue;
        }
        match &section {
            Section::Known {
                activity,
                cols,
                key,
                line: header_line,
            } => p.push(*activity, cols, *key, *header_line, prefix, rest, n),
            Section::Other => {}
            Section::Idle => p.issues.push(n, || {
                format!(
                    "expected a header line before this row (a time then column names), found \
                     `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    let recognised =
        !p.out.restarts.is_empty() || (p.out.header.is_some() && p.out.other_sections > 0);
    if !p.out.has_rows() && !recognised {
        return Err(ParseError::unusable(
            None,
            "no sar section found: no header line (a time or `Average:` followed by column \
             names such as `CPU %user …`, `IFACE rxpck/s …`, `DEV tps …`)",
        ));
    }
    Ok(Parsed {
        value: p.out,
        issues: p.issues.into_vec(),
    })
}

impl Activity {
    /// Header of the key column.
    fn key(self) -> Option<&'static str> {
        match self {
            Activity::Cpu => CpuRow::KEY,
            Activity::NetDev => NetDevRow::KEY,
            Activity::NetEdev => NetEdevRow::KEY,
            Activity::Disk => DiskRow::KEY,
            Activity::Queue => QueueRow::KEY,
            Activity::Memory => MemoryRow::KEY,
            Activity::Paging => PagingRow::KEY,
            Activity::Swapping => SwappingRow::KEY,
            Activity::Tasks => TasksRow::KEY,
            Activity::Interrupts => IntrRow::KEY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_columns() {
        assert_eq!(
            classify(&["CPU", "%user", "%nice", "%system", "%iowait", "%steal", "%idle"]),
            Some(Activity::Cpu)
        );
        // mpstat's order is not sar's.
        assert_eq!(
            classify(&["CPU", "%usr", "%nice", "%sys", "%iowait", "%irq", "%soft", "%idle"]),
            None
        );
        assert_eq!(
            classify(&["tps", "rkB/s", "%util", "DEV"]),
            Some(Activity::Disk)
        );
        assert_eq!(classify(&["tps", "rtps", "wtps"]), None);
        assert_eq!(classify(&["CPU", "MHz"]), None);
    }

    #[test]
    fn old_disk_columns_are_converted() {
        let mut d = DiskRow::default();
        d.put("rd_sec/s", 100.0);
        d.put("avgrq-sz", 16.0);
        d.put("avgqu-sz", 0.5);
        assert_eq!(d.rkb_per_s, Some(50.0));
        assert_eq!(d.areq_sz_kb, Some(8.0));
        assert_eq!(d.aqu_sz, Some(0.5));
        // A KiB column wins over the sector one whatever the order (JSON prints both).
        d.put("rkB/s", 51.0);
        d.put("rd_sec/s", 1.0);
        assert_eq!(d.rkb_per_s, Some(51.0));
    }
}
