//! Kernel log events: what the kernel (and, for a few classes, any program) logged that explains
//! an incident, each event with its class, its time and the lines it rests on.
//!
//! In: `dmesg` (raw `[seconds]` stamps, `-T` wall-clock stamps, none) and syslog-format logs
//! (`journalctl -k` and the full journal, `/var/log/messages`, `kern.log`). Out: [`KernelLog`]:
//! the [`KernelEvent`]s in time order, one per event even when several logs of the bundle
//! repeat it (`/var/log/messages` and the journal hold the same kernel lines).
//!
//! **Classes** ([`EventKind`]), with the message texts as the kernel prints them (the source
//! file of each is named on its variant): OOM kills (victim, memory cgroup or whole host), hung
//! tasks, soft and hard lockups, NIC link down/up and transmit timeouts, block I/O errors and
//! resets, a full connection-tracking table, TCP out of memory, page allocation failures,
//! machine checks and EDAC errors, thermal and power-limit throttling, and — from any program —
//! `No space left on device` and `Too many open files` (`VFS: file-max limit N reached` from the
//! kernel).
//!
//! **Times.** A syslog line's date and time, with its zone when it prints one (RFC 3339,
//! `journalctl -o short-iso`); a year-less line (RFC 3164) takes the year of the collection
//! window's end, else of `journalctl`'s header, else of a dated line of the bundle's logs (a
//! December line in a January log is of the year before); a line without a zone is read in the
//! host's offset from UTC when a zoned line or the sampled series show it, else as UTC. A
//! `dmesg -T` line is the host's local time. A raw `dmesg` stamp is seconds since boot: it is
//! dated by the boot time that a kernel line with both a date and the kernel's stamp shows,
//! else by the window's end minus the uptime (`/proc/uptime`, as good as the window's length).

use crate::artifacts::Collected;
use parsers::common::{Date, Timestamp};
use parsers::kernel::dmesg::Dmesg;
use parsers::kernel::syslog::{Syslog, SyslogTime};
use serde::Serialize;

/// The kernel log events of one host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct KernelLog {
    /// The logs read (bundle paths).
    pub sources: Vec<String>,
    /// Events, in time order (undated ones last, in input order).
    pub events: Vec<KernelEvent>,
    /// The time events are measured against, UTC epoch seconds: the collection window's start,
    /// else the last dated line of the logs.
    pub reference_epoch: Option<f64>,
    /// What [`KernelLog::reference_epoch`] is: `the collection window` or `the end of the log`.
    pub reference: &'static str,
    /// Boot time, UTC epoch seconds, when known (dates raw `dmesg` stamps).
    pub boot_epoch: Option<f64>,
    /// No window, header or dated line gave the year of the year-less lines: their epochs are
    /// taken in [`ASSUMED_YEAR`], good for intervals between events only, and they have no
    /// [`EventTime::host_time`].
    pub year_assumed: bool,
}

/// Most seconds between one message's times in two logs for them to be one event, when both
/// carry their own date: syslog daemons stamp a line on receipt, a second or so after the
/// kernel's stamp.
pub const DEDUP_S: f64 = 2.0;

/// The year year-less lines are read in when nothing in the bundle gives one: a leap year, so
/// that `Feb 29` is a date.
pub const ASSUMED_YEAR: i32 = 2000;

impl KernelLog {
    /// The events of one class (`"oom-kill"`).
    pub fn of<'a>(&'a self, class: &'a str) -> impl Iterator<Item = &'a KernelEvent> + 'a {
        self.events.iter().filter(move |e| e.kind.class() == class)
    }
}

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelEvent {
    /// What happened, with the details read from the line.
    pub kind: EventKind,
    /// When.
    pub time: EventTime,
    /// Bundle path of the log.
    pub artifact: String,
    /// 1-based lines the event rests on (the OOM killer's report lines and the kill).
    pub lines: Vec<usize>,
    /// The message of the main line (after the time, host and program).
    pub text: String,
    /// The program that logged it (`kernel`, or a daemon's name for `No space left on device`).
    pub program: String,
}

/// When an event happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventTime {
    /// UTC epoch seconds, when the line's date (or the boot time) is known.
    pub epoch: Option<f64>,
    /// Seconds since boot, when the line prints the kernel's stamp.
    pub since_boot_s: Option<f64>,
    /// The time as the log prints it (`Feb 11 19:23:37`, `[ 1530.811848]`).
    pub label: String,
    /// Seconds from the event to [`KernelLog::reference_epoch`]: positive before it, zero or
    /// negative at or after it; `None` when either is unknown.
    pub before_reference_s: Option<f64>,
    /// The time in the host's clock, with its date, when known (places the event on the
    /// report's time axis).
    pub host_time: Option<Timestamp>,
}

/// Whether an OOM kill was a memory cgroup's limit or the whole host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OomScope {
    /// `CONSTRAINT_MEMCG`, `Memory cgroup out of memory`: a cgroup's limit; the host may have
    /// free memory.
    MemoryCgroup,
    /// `CONSTRAINT_NONE`, `Out of memory:`: the host ran out.
    Host,
    /// `CONSTRAINT_CPUSET` or `CONSTRAINT_MEMORY_POLICY`: the memory nodes a task may use ran
    /// out.
    Nodes,
}

/// An event's class and details. Serialised with its class name in `class`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "class", rename_all = "kebab-case")]
pub enum EventKind {
    /// The OOM killer killed a process (mm/oom_kill.c `oom_kill_process`, `dump_oom_summary`;
    /// RHEL 7's `Out of memory: Kill process N (comm) score S or sacrifice child` then `Killed
    /// process`, Linux ≥ 5.0 `Out of memory: Killed process N (comm)`).
    OomKill {
        /// Victim pid.
        pid: Option<u32>,
        /// Victim command name.
        comm: Option<String>,
        /// Memory cgroup, host or memory nodes, when the report says.
        scope: Option<OomScope>,
        /// `constraint=` of the `oom-kill:` line (Linux ≥ 4.19).
        constraint: Option<String>,
        /// The cgroup whose limit was hit: `oom_memcg=` (Linux ≥ 4.19), or RHEL 7's `Task in X
        /// killed as a result of limit of Y`.
        memcg: Option<String>,
    },
    /// `INFO: task df:1177107 blocked for more than 120 seconds.` (kernel/hung_task.c).
    HungTask {
        /// Command name.
        comm: String,
        /// Pid.
        pid: Option<u32>,
        /// The hung-task timeout the task exceeded, seconds.
        seconds: Option<u32>,
    },
    /// `watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [kworker/3:0:17896]`
    /// (kernel/watchdog.c).
    SoftLockup {
        /// CPU number.
        cpu: Option<u32>,
        /// How long the CPU was stuck, seconds.
        seconds: Option<u32>,
        /// The task on the CPU (`comm:pid`).
        task: Option<String>,
    },
    /// `NMI watchdog: Watchdog detected hard LOCKUP on cpu 5` (kernel/watchdog.c,
    /// watchdog_perf.c).
    HardLockup {
        /// CPU number.
        cpu: Option<u32>,
    },
    /// A NIC lost its link: `e1000e 0000:00:19.0 eth0: NIC Link is Down`, `mlx5_core … ens1f0:
    /// Link down`, `tg3 … eth0: Link is down.`.
    LinkDown {
        /// Interface (`eth0`).
        iface: String,
        /// Driver (the message's first word).
        driver: String,
    },
    /// A NIC's link came up: `ixgbe 0000:01:00.0 eth2: NIC Link is Up 10 Gbps, Flow Control:
    /// RX/TX`.
    LinkUp {
        /// Interface.
        iface: String,
        /// Driver.
        driver: String,
    },
    /// `NETDEV WATCHDOG: eth0 (ixgbe): transmit queue 0 timed out` (net/sched/sch_generic.c).
    TxTimeout {
        /// Interface.
        iface: String,
        /// Driver.
        driver: Option<String>,
    },
    /// A block I/O error or reset (block/blk-core.c `blk_errors`, fs/buffer.c, drivers/scsi,
    /// drivers/nvme/host/pci.c, drivers/ata/libata-eh.c).
    IoError {
        /// Device (`sda`, `nvme0`, `ata1`, `2:0:0:0`).
        device: String,
        /// What it was: `I/O error`, `medium error`, `Buffer I/O error`, `offline device`,
        /// `NVMe timeout`, `link reset`.
        what: &'static str,
    },
    /// `nf_conntrack: table full, dropping packet` (net/netfilter/nf_conntrack_core.c).
    ConntrackFull,
    /// `TCP: out of memory -- consider tuning tcp_mem` (net/ipv4/tcp_timer.c).
    TcpOom,
    /// `java: page allocation failure: order:4, mode:0x…` (mm/page_alloc.c `warn_alloc`).
    AllocFailure {
        /// The allocating command.
        comm: String,
        /// Allocation order (2^order pages).
        order: Option<u32>,
    },
    /// A machine check or memory controller error: `mce: [Hardware Error]: …`
    /// (arch/x86/kernel/cpu/mce), `EDAC MC0: 1 CE …` / `1 UE …` (drivers/edac/edac_mc.c).
    MachineCheck {
        /// Corrected (`CE`, `Corrected error`) or not (`UE`, `Uncorrected`); `None` when the
        /// line does not say.
        corrected: Option<bool>,
    },
    /// `CPU0: Core temperature above threshold, cpu clock throttled`, `Package temperature …`,
    /// `Core power limit notification` (arch/x86/kernel/cpu/mce/therm_throt.c).
    Throttle {
        /// CPU number.
        cpu: Option<u32>,
        /// `core temperature`, `package temperature` or `power limit`.
        what: &'static str,
    },
    /// `No space left on device` (ENOSPC) from any program.
    NoSpace,
    /// `Too many open files` (EMFILE) from any program, or the kernel's `VFS: file-max limit N
    /// reached` (fs/file_table.c).
    TooManyOpenFiles {
        /// `N` of `file-max limit N reached`.
        file_max: Option<u64>,
    },
}

impl EventKind {
    /// The class name (`oom-kill`, `hung-task`, …).
    pub fn class(&self) -> &'static str {
        match self {
            EventKind::OomKill { .. } => "oom-kill",
            EventKind::HungTask { .. } => "hung-task",
            EventKind::SoftLockup { .. } => "soft-lockup",
            EventKind::HardLockup { .. } => "hard-lockup",
            EventKind::LinkDown { .. } => "link-down",
            EventKind::LinkUp { .. } => "link-up",
            EventKind::TxTimeout { .. } => "tx-timeout",
            EventKind::IoError { .. } => "io-error",
            EventKind::ConntrackFull => "conntrack-full",
            EventKind::TcpOom => "tcp-oom",
            EventKind::AllocFailure { .. } => "alloc-failure",
            EventKind::MachineCheck { .. } => "machine-check",
            EventKind::Throttle { .. } => "throttle",
            EventKind::NoSpace => "no-space",
            EventKind::TooManyOpenFiles { .. } => "too-many-open-files",
        }
    }
}

/// One line of either log, as the classifier sees it.
struct Line<'a> {
    kernel: bool,
    program: &'a str,
    message: &'a str,
    line: usize,
    local: Option<Local>,
    since_boot: Option<f64>,
    label: String,
}

/// A local date and time as a line prints it.
#[derive(Clone, Copy)]
struct Local {
    year: Option<i32>,
    month: u32,
    day: u32,
    seconds_of_day: f64,
    offset_s: Option<i64>,
}

impl Local {
    fn from_syslog(t: &SyslogTime) -> Local {
        Local {
            year: t.year,
            month: t.month,
            day: t.day,
            seconds_of_day: t.seconds_of_day,
            offset_s: t.utc_offset_s.map(i64::from),
        }
    }

    /// Host-clock seconds (days since 1970 × 86400 + seconds of day) in `year`.
    fn local_s(&self, year: i32) -> f64 {
        let d = Date {
            year,
            month: self.month,
            day: self.day,
        };
        d.days_since_epoch() as f64 * 86_400.0 + self.seconds_of_day
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `Mon Nov 30 01:09:57 2026` (`dmesg -T`).
fn dmesg_t(s: &str) -> Option<Local> {
    let w: Vec<&str> = s.split_ascii_whitespace().collect();
    let [_, mon, day, hms, year] = w.as_slice() else {
        return None;
    };
    let month = MONTHS.iter().position(|m| m == mon)? as u32 + 1;
    let mut p = hms.split(':');
    let (h, m, sec) = (p.next()?, p.next()?, p.next()?);
    let sod =
        h.parse::<u32>().ok()? * 3600 + m.parse::<u32>().ok()? * 60 + sec.parse::<u32>().ok()?;
    Some(Local {
        year: Some(year.parse().ok()?),
        month,
        day: day.parse().ok()?,
        seconds_of_day: f64::from(sod),
        offset_s: None,
    })
}

fn syslog_label(t: &SyslogTime) -> String {
    let s = t.seconds_of_day as u32;
    let hms = format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    let mon = MONTHS[(t.month as usize).clamp(1, 12) - 1];
    match t.year {
        Some(y) => format!("{y}-{:02}-{:02} {hms}", t.month, t.day),
        None => format!("{mon} {:2} {hms}", t.day),
    }
}

/// A log's lines, with its path.
struct Log<'a> {
    path: &'a str,
    lines: Vec<Line<'a>>,
    header_year: Option<i32>,
}

fn logs(c: &Collected) -> Vec<Log<'_>> {
    let mut out = Vec::new();
    for (a, s) in c.records::<Syslog>() {
        let lines = s
            .lines
            .iter()
            .map(|l| Line {
                kernel: l.is_kernel(),
                program: &l.ident,
                message: &l.message,
                line: l.line,
                local: l.time.as_ref().map(Local::from_syslog),
                since_boot: l.kernel_stamp.or(l.monotonic),
                label: match (&l.time, l.monotonic) {
                    (Some(t), _) => syslog_label(t),
                    (None, Some(m)) => format!("[{m:.6}]"),
                    (None, None) => String::new(),
                },
            })
            .collect();
        out.push(Log {
            path: &a.path,
            lines,
            header_year: s.header_date.map(|d| d.year),
        });
    }
    for (a, d) in c.records::<Dmesg>() {
        let lines = d
            .lines
            .iter()
            // Continuation lines of a multi-line report (`Mem-Info`) are indented.
            .filter(|l| !(l.timestamp.is_none() && l.time.is_none() && l.message.starts_with(' ')))
            .map(|l| Line {
                kernel: true,
                program: "kernel",
                message: &l.message,
                line: l.line,
                local: l.time.as_deref().and_then(dmesg_t),
                since_boot: l.timestamp,
                label: match (&l.time, l.timestamp) {
                    (Some(t), _) => format!("[{t}]"),
                    (None, Some(s)) => format!("[{s:.6}]"),
                    (None, None) => String::new(),
                },
            })
            .collect();
        out.push(Log {
            path: &a.path,
            lines,
            header_year: None,
        });
    }
    out
}

/// Builds the kernel log events; `None` when the bundle holds no kernel log.
///
/// `window` is the collection window (UTC epoch), `uptime_s` the time since boot at its end,
/// `host_offset_s` the host clock's offset from UTC when the sampled series showed it.
pub fn build(
    c: &Collected,
    window: Option<(f64, f64)>,
    uptime_s: Option<f64>,
    host_offset_s: Option<i64>,
) -> Option<KernelLog> {
    let logs = logs(c);
    if logs.is_empty() {
        return None;
    }
    // The host's offset: a zoned line's, else the series'.
    let offset = logs
        .iter()
        .flat_map(|l| &l.lines)
        .find_map(|l| l.local.and_then(|t| t.offset_s))
        .or(host_offset_s);
    // The reference year (and month) for year-less lines.
    let reference_ym: Option<(i32, u32)> = match window {
        Some((_, end)) => {
            let local = end + offset.unwrap_or(0) as f64;
            let d = Date::from_days_since_epoch((local / 86_400.0).floor() as i64);
            Some((d.year, d.month))
        }
        None => logs
            .iter()
            .find_map(|l| l.header_year.map(|y| (y, 12)))
            .or_else(|| {
                logs.iter()
                    .flat_map(|l| &l.lines)
                    .filter_map(|l| l.local.and_then(|t| t.year.map(|y| (y, t.month))))
                    .max()
            }),
    };
    // Nothing dates the year-less lines: read them in an assumed year, the month of the last
    // dated line as the reference, so that intervals hold across a New Year.
    let year_assumed = reference_ym.is_none()
        && logs
            .iter()
            .flat_map(|l| &l.lines)
            .any(|l| l.local.is_some_and(|t| t.year.is_none()));
    let reference_ym = reference_ym.or_else(|| {
        logs.iter()
            .flat_map(|l| &l.lines)
            .filter_map(|l| l.local)
            .next_back()
            .map(|t| (ASSUMED_YEAR, t.month))
    });
    let epoch_of = |t: &Local| -> Option<f64> {
        let year = match t.year {
            Some(y) => y,
            None => {
                let (y, m) = reference_ym?;
                if t.month > m + 1 {
                    y - 1
                } else {
                    y
                }
            }
        };
        Some(t.local_s(year) - t.offset_s.or(offset).unwrap_or(0) as f64)
    };
    // Boot time: a line with both a date and the kernel's stamp (the last one: the current
    // boot), else the window's end minus the uptime.
    let exact_boot = logs
        .iter()
        .flat_map(|l| &l.lines)
        .filter_map(|l| Some(epoch_of(l.local.as_ref()?)? - l.since_boot?))
        .next_back();
    let boot_epoch = exact_boot.or_else(|| Some(window?.1 - uptime_s?));
    // How far apart one message's times in two logs may be: a second or two between a line's
    // own stamp and the syslog daemon's; with the boot time from the uptime, the window's
    // length and the uptime's resolution as well.
    let tolerance = match (exact_boot, window) {
        (None, Some((start, end))) => DEDUP_S + (end - start).max(0.0) + 60.0,
        _ => DEDUP_S,
    };
    let host_time = |epoch: Option<f64>| -> Option<Timestamp> {
        if year_assumed {
            return None;
        }
        let local = epoch? + offset.unwrap_or(0) as f64;
        let days = (local / 86_400.0).floor();
        Some(Timestamp {
            date: Some(Date::from_days_since_epoch(days as i64)),
            seconds_of_day: (local - days * 86_400.0) as u32,
        })
    };
    let time_of = |l: &Line| -> Option<f64> {
        match &l.local {
            Some(t) => epoch_of(t),
            None => Some(boot_epoch? + l.since_boot?),
        }
    };
    let (reference_epoch, reference) = match window {
        Some((start, _)) => (Some(start), "the collection window"),
        None => (
            logs.iter()
                .flat_map(|l| &l.lines)
                .filter_map(&time_of)
                .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t)))),
            "the end of the log",
        ),
    };
    let mut events: Vec<KernelEvent> = Vec::new();
    // Per accepted event, the other logs whose copy of it was already absorbed.
    let mut absorbed: Vec<Vec<&str>> = Vec::new();
    for log in &logs {
        for mut e in classify(log) {
            let l = &log.lines[e.0];
            let epoch = time_of(l);
            e.1.time = EventTime {
                epoch,
                since_boot_s: l.since_boot,
                label: l.label.clone(),
                before_reference_s: match (epoch, reference_epoch) {
                    (Some(t), Some(r)) => Some(r - t),
                    _ => None,
                },
                host_time: host_time(epoch),
            };
            // The same message of another log at the same time is this event again (the
            // journal, `/var/log/messages` and `dmesg` hold the same kernel lines); within one
            // log a repeated message is another event.
            let twin = events.iter().zip(absorbed.iter()).position(|(a, seen)| {
                a.artifact != log.path
                    && !seen.contains(&log.path)
                    && a.text == e.1.text
                    && match (a.time.epoch, epoch) {
                        (Some(x), Some(y)) => (x - y).abs() <= tolerance,
                        _ => a.time.since_boot_s.is_some() && a.time.since_boot_s == l.since_boot,
                    }
            });
            match twin {
                Some(i) => absorbed[i].push(log.path),
                None => {
                    events.push(e.1);
                    absorbed.push(Vec::new());
                }
            }
        }
    }
    events.sort_by(|a, b| match (a.time.epoch, b.time.epoch) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Some(KernelLog {
        sources: logs.iter().map(|l| l.path.to_string()).collect(),
        events,
        reference_epoch,
        reference,
        boot_epoch,
        year_assumed,
    })
}

/// The OOM killer's report being read: the lines before the kill.
#[derive(Default)]
struct OomReport {
    lines: Vec<usize>,
    constraint: Option<String>,
    memcg: Option<String>,
    memcg_header: bool,
}

/// `key=value` of a comma-separated `oom-kill:` line.
fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    s.split(',')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// `Killed process 955 (gnome-shell)` → (pid, comm).
fn killed(m: &str) -> Option<(Option<u32>, Option<String>)> {
    let (_, rest) = m.split_once("Killed process ")?;
    let (pid, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let comm = rest
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .map(|(c, _)| c.to_string());
    Some((pid.parse().ok(), comm))
}

/// The number after `prefix` in `s`.
fn num_after<T: std::str::FromStr>(s: &str, prefix: &str) -> Option<T> {
    let (_, rest) = s.split_once(prefix)?;
    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    n.parse().ok()
}

/// `e1000e 0000:00:19.0 eth0: NIC Link is Down` → (driver, iface), the words before `at`.
fn driver_iface(m: &str, at: usize) -> (String, String) {
    let head = m.get(..at).unwrap_or(m).trim_end().trim_end_matches(':');
    let words: Vec<&str> = head.split_ascii_whitespace().collect();
    let iface = words.last().copied().unwrap_or("").trim_end_matches(':');
    let driver = if words.len() > 1 { words[0] } else { "" };
    (driver.to_string(), iface.to_string())
}

fn event(log: &Log, i: usize, kind: EventKind, lines: Vec<usize>) -> (usize, KernelEvent) {
    let l = &log.lines[i];
    (
        i,
        KernelEvent {
            kind,
            time: EventTime {
                epoch: None,
                since_boot_s: None,
                label: String::new(),
                before_reference_s: None,
                host_time: None,
            },
            artifact: log.path.to_string(),
            lines,
            text: l.message.to_string(),
            program: l.program.to_string(),
        },
    )
}

/// The events of one log: (index of the main line, event).
fn classify(log: &Log) -> Vec<(usize, KernelEvent)> {
    let mut out = Vec::new();
    let mut oom = OomReport::default();
    for (i, l) in log.lines.iter().enumerate() {
        let m = l.message;
        if !l.kernel {
            if m.contains("No space left on device") {
                out.push(event(log, i, EventKind::NoSpace, vec![l.line]));
            } else if m.contains("Too many open files") {
                out.push(event(
                    log,
                    i,
                    EventKind::TooManyOpenFiles { file_max: None },
                    vec![l.line],
                ));
            }
            continue;
        }
        if let Some(k) = classify_kernel(m) {
            out.push(event(log, i, k, vec![l.line]));
            continue;
        }
        // The OOM killer's report, in the order the kernel prints it.
        if m.contains("invoked oom-killer:") {
            oom = OomReport::default();
            oom.lines.push(l.line);
        } else if let Some(rest) = m.strip_prefix("oom-kill:") {
            oom.lines.push(l.line);
            oom.constraint = field(rest, "constraint").map(str::to_string);
            oom.memcg = field(rest, "oom_memcg")
                .map(str::to_string)
                .or(oom.memcg.take());
        } else if let Some(rest) = m.strip_prefix("Task in ") {
            // RHEL 7: `Task in /docker/abc killed as a result of limit of /docker/abc`.
            if let Some((_, limit)) = rest.split_once(" killed as a result of limit of ") {
                oom.lines.push(l.line);
                oom.memcg = Some(limit.trim().to_string());
            }
        } else if m.contains("Killed process ") {
            let memcg_line = m.contains("Memory cgroup out of memory");
            let host_line = m.contains("Out of memory:");
            let (pid, comm) = killed(m).unwrap_or((None, None));
            let scope = match oom.constraint.as_deref() {
                Some("CONSTRAINT_MEMCG") => Some(OomScope::MemoryCgroup),
                Some("CONSTRAINT_NONE") => Some(OomScope::Host),
                Some(_) => Some(OomScope::Nodes),
                None if memcg_line || oom.memcg_header || oom.memcg.is_some() => {
                    Some(OomScope::MemoryCgroup)
                }
                None if host_line => Some(OomScope::Host),
                None => None,
            };
            let mut lines = std::mem::take(&mut oom.lines);
            lines.push(l.line);
            let kind = EventKind::OomKill {
                pid,
                comm,
                scope,
                constraint: oom.constraint.take(),
                memcg: oom.memcg.take(),
            };
            oom = OomReport::default();
            out.push(event(log, i, kind, lines));
        } else if m.contains("Memory cgroup out of memory:")
            || m.contains("Out of memory: Kill process")
        {
            // RHEL 7: the choice, then `Killed process` on the next line.
            oom.lines.push(l.line);
            oom.memcg_header |= m.contains("Memory cgroup out of memory");
        }
    }
    out
}

/// The one-line classes of a kernel message.
fn classify_kernel(m: &str) -> Option<EventKind> {
    if let Some(rest) = m.strip_prefix("INFO: task ") {
        let (task, after) = rest.split_once(" blocked for more than ")?;
        let (comm, pid) = match task.rsplit_once(':') {
            Some((c, p)) => (c, p.parse().ok()),
            None => (task, None),
        };
        return Some(EventKind::HungTask {
            comm: comm.to_string(),
            pid,
            seconds: num_after(after, ""),
        });
    }
    if m.contains("BUG: soft lockup - CPU#") {
        let task = m
            .rsplit_once('[')
            .and_then(|(_, t)| t.strip_suffix(']'))
            .map(str::to_string);
        return Some(EventKind::SoftLockup {
            cpu: num_after(m, "CPU#"),
            seconds: num_after(m, "stuck for "),
            task,
        });
    }
    if m.contains("Watchdog detected hard LOCKUP") {
        return Some(EventKind::HardLockup {
            cpu: num_after(m, "on cpu "),
        });
    }
    if let Some(rest) = m.strip_prefix("NETDEV WATCHDOG: ") {
        if m.contains("timed out") {
            let (iface, after) = rest.split_once(' ').unwrap_or((rest, ""));
            let driver = after
                .strip_prefix('(')
                .and_then(|a| a.split_once(')'))
                .map(|(d, _)| d.to_string());
            return Some(EventKind::TxTimeout {
                iface: iface.trim_end_matches(':').to_string(),
                driver,
            });
        }
    }
    for (needle, up) in [
        ("NIC Link is Down", false),
        ("NIC Link is Up", true),
        (": Link is down", false),
        (": Link is up", true),
        (": Link down", false),
        (": Link up", true),
    ] {
        if let Some(at) = m.find(needle) {
            let at = if needle.starts_with(':') { at + 1 } else { at };
            let (driver, iface) = driver_iface(m, at);
            if iface.is_empty() {
                return None;
            }
            return Some(if up {
                EventKind::LinkUp { iface, driver }
            } else {
                EventKind::LinkDown { iface, driver }
            });
        }
    }
    if let Some(k) = io_error(m) {
        return Some(k);
    }
    if m.contains("nf_conntrack: table full, dropping packet") {
        return Some(EventKind::ConntrackFull);
    }
    if m.contains("TCP: out of memory -- consider tuning tcp_mem") {
        return Some(EventKind::TcpOom);
    }
    if let Some((before, after)) = m.split_once(": page allocation failure: order:") {
        return Some(EventKind::AllocFailure {
            comm: before.rsplit(' ').next().unwrap_or("").to_string(),
            order: num_after(after, ""),
        });
    }
    if m.contains("[Hardware Error]") || m.contains("Machine check events logged") {
        let corrected = if m.contains("Uncorrected") || m.contains("uncorrected") {
            Some(false)
        } else if m.contains("Corrected error") || m.contains("corrected error") {
            Some(true)
        } else {
            None
        };
        return Some(EventKind::MachineCheck { corrected });
    }
    if m.starts_with("EDAC MC") && (m.contains(" CE ") || m.contains(" UE ")) {
        return Some(EventKind::MachineCheck {
            corrected: Some(m.contains(" CE ")),
        });
    }
    for (needle, what) in [
        ("Core temperature above threshold", "core temperature"),
        ("Package temperature above threshold", "package temperature"),
        ("power limit notification", "power limit"),
    ] {
        if m.contains(needle) {
            return Some(EventKind::Throttle {
                cpu: m.strip_prefix("CPU").and_then(|r| num_after(r, "")),
                what,
            });
        }
    }
    if m.contains("VFS: file-max limit") && m.contains("reached") {
        return Some(EventKind::TooManyOpenFiles {
            file_max: num_after(m, "file-max limit "),
        });
    }
    if m.contains("No space left on device") {
        return Some(EventKind::NoSpace);
    }
    if m.contains("Too many open files") {
        return Some(EventKind::TooManyOpenFiles { file_max: None });
    }
    None
}

/// Block I/O errors and resets.
fn io_error(m: &str) -> Option<EventKind> {
    let word = |s: &str| -> String { s.split([',', ' ', ':']).next().unwrap_or("").to_string() };
    if let Some((_, after)) = m.split_once("Buffer I/O error on dev ") {
        let dev = word(after);
        return Some(EventKind::IoError {
            device: dev,
            what: "Buffer I/O error",
        });
    }
    // block/blk-core.c blk_errors: "I/O error", "critical medium error", "critical target
    // error", … then ", dev sda, sector N".
    if let Some((before, after)) = m.split_once(" error, dev ") {
        let what = if before.ends_with("medium") {
            "medium error"
        } else {
            "I/O error"
        };
        return Some(EventKind::IoError {
            device: word(after),
            what,
        });
    }
    if m.contains("rejecting I/O to offline device") {
        // `sd 2:0:0:0: rejecting I/O to offline device`
        let dev = m
            .split_ascii_whitespace()
            .nth(1)
            .unwrap_or("")
            .trim_end_matches(':');
        return Some(EventKind::IoError {
            device: dev.to_string(),
            what: "offline device",
        });
    }
    if m.starts_with("nvme ") && m.contains(" timeout, reset controller") {
        let dev = m
            .split_ascii_whitespace()
            .nth(1)
            .unwrap_or("")
            .trim_end_matches(':');
        return Some(EventKind::IoError {
            device: dev.to_string(),
            what: "NVMe timeout",
        });
    }
    if m.starts_with("ata") && m.contains(": hard resetting link") {
        return Some(EventKind::IoError {
            device: word(m),
            what: "link reset",
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(m: &str) -> Option<EventKind> {
        classify_kernel(m)
    }

    #[test]
    fn classifies_real_kernel_lines() {
        assert_eq!(
            one("INFO: task df:1177107 blocked for more than 120 seconds."),
            Some(EventKind::HungTask {
                comm: "df".into(),
                pid: Some(1_177_107),
                seconds: Some(120)
            })
        );
        assert_eq!(
            one("watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [kworker/3:0:17896]"),
            Some(EventKind::SoftLockup {
                cpu: Some(3),
                seconds: Some(23),
                task: Some("kworker/3:0:17896".into())
            })
        );
        assert_eq!(
            one("blk_update_request: I/O error, dev loop11, sector 0 op 0x1:(WRITE) flags 0x800 phys_seg 0 prio class 0"),
            Some(EventKind::IoError {
                device: "loop11".into(),
                what: "I/O error"
            })
        );
        assert_eq!(
            one("print_req_error: critical medium error, dev sdb, sector 8724376"),
            Some(EventKind::IoError {
                device: "sdb".into(),
                what: "medium error"
            })
        );
        assert_eq!(
            one("nf_conntrack: nf_conntrack: table full, dropping packet"),
            Some(EventKind::ConntrackFull)
        );
        assert_eq!(
            one("e1000e 0000:00:19.0 eth0: NIC Link is Down"),
            Some(EventKind::LinkDown {
                iface: "eth0".into(),
                driver: "e1000e".into()
            })
        );
        assert_eq!(
            one("mlx5_core 0000:3b:00.0 ens1f0: Link up"),
            Some(EventKind::LinkUp {
                iface: "ens1f0".into(),
                driver: "mlx5_core".into()
            })
        );
        assert_eq!(
            one("NETDEV WATCHDOG: eth0 (ixgbe): transmit queue 0 timed out"),
            Some(EventKind::TxTimeout {
                iface: "eth0".into(),
                driver: Some("ixgbe".into())
            })
        );
        assert_eq!(
            one("CPU0: Core temperature above threshold, cpu clock throttled (total events = 1)"),
            Some(EventKind::Throttle {
                cpu: Some(0),
                what: "core temperature"
            })
        );
        assert_eq!(one("ACPI: PCI Interrupt Link [LNKA] (IRQs 5 *10 11)"), None);
        assert_eq!(
            one("IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready"),
            None
        );
    }

    fn log(lines: &[&'static str]) -> Log<'static> {
        Log {
            path: "dmesg.txt",
            lines: lines
                .iter()
                .enumerate()
                .map(|(i, m)| Line {
                    kernel: true,
                    program: "kernel",
                    message: m,
                    line: i + 1,
                    local: None,
                    since_boot: None,
                    label: String::new(),
                })
                .collect(),
            header_year: None,
        }
    }

    #[test]
    fn a_memcg_oom_report_names_victim_and_cgroup() {
        // Lines of a Docker memory cgroup OOM kill as a public kernel log shows them (Linux 5.x).
        let l = log(&[
            "java invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0",
            "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=8580b0e84bfe,mems_allowed=0,oom_memcg=/docker/8580b0e84bfe,task_memcg=/docker/8580b0e84bfe,task=java,pid=11433,uid=0",
            "Memory cgroup out of memory: Killed process 11433 (java) total-vm:25004420kB, anon-rss:91796kB, file-rss:15612kB, shmem-rss:0kB, UID:0 pgtables:716kB oom_score_adj:0",
        ]);
        let ev = classify(&l);
        assert_eq!(ev.len(), 1);
        assert_eq!(
            ev[0].1.kind,
            EventKind::OomKill {
                pid: Some(11433),
                comm: Some("java".into()),
                scope: Some(OomScope::MemoryCgroup),
                constraint: Some("CONSTRAINT_MEMCG".into()),
                memcg: Some("/docker/8580b0e84bfe".into()),
            }
        );
        assert_eq!(ev[0].1.lines, vec![1, 2, 3]);
    }

    #[test]
    fn a_rhel7_memcg_oom_names_the_limit_and_the_killed_child() {
        let l = log(&[
            "Task in /docker/abc killed as a result of limit of /docker/abc",
            "Memory cgroup out of memory: Kill process 46211 (process) score 561 or sacrifice child",
            "Killed process 46433 (process) total-vm:536552kB, anon-rss:12012kB, file-rss:53740kB, shmem-rss:4kB",
        ]);
        let ev = classify(&l);
        let EventKind::OomKill {
            pid, scope, memcg, ..
        } = &ev[0].1.kind
        else {
            panic!("{:?}", ev[0].1.kind)
        };
        assert_eq!(
            (*pid, *scope, memcg.as_deref()),
            (
                Some(46433),
                Some(OomScope::MemoryCgroup),
                Some("/docker/abc")
            )
        );
        assert_eq!(ev.len(), 1);
    }

    #[test]
    fn daemons_lines_count_only_for_enospc_and_emfile() {
        let l = Log {
            path: "messages",
            lines: vec![Line {
                kernel: false,
                program: "java",
                message: "write failed: No space left on device",
                line: 7,
                local: None,
                since_boot: None,
                label: String::new(),
            }],
            header_year: None,
        };
        let ev = classify(&l);
        assert_eq!(
            (ev[0].1.kind.class(), ev[0].1.program.as_str()),
            ("no-space", "java")
        );
    }
}
