//! Processes and their connections: `ps` (custom `-eo` lists, `aux`, `auxww`, `auxwwwm`),
//! `top -b`, `ss -tanp` / `ss -tulpen` / `ss -a`, `netstat -tanp` / `-neopa` / `-lnp`, and
//! [`established_by_process`] over either socket listing.
//!
//! `ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args` (procps-ng 4.0; columns
//! are found by header name, `comm` is cut to its column width, `args` takes the rest):
//! ```text
//!   PID  PPID USER     NLWP %CPU %MEM   RSS    VSZ ELAPSED STAT COMMAND         COMMAND
//!  1505  1461 root        1  0.0  0.0 12012  17228       3 S    bootstrap       /usr/bin/python3 /tmp/conn-b.py
//! ```
//! `ps auxwwwm` follows each process with one row per thread whose PID is `-`.
//!
//! `top -b` (procps-ng 3.3.10 `KiB Mem :`, 3.3.16+ `MiB Mem :`; one frame per iteration):
//! ```text
//! top - 11:24:50 up 2 min,  2 users,  load average: 0.23, 0.22, 0.09
//! Tasks: 112 total,   1 running, 111 sleeping,   0 stopped,   0 zombie
//! %Cpu(s):  5.9 us,  5.9 sy,  0.0 ni, 88.2 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st
//! KiB Mem :  3861332 total,  3446476 free,   216940 used,   197916 buff/cache
//! KiB Swap:  2097148 total,  2097148 free,        0 used.  3419356 avail Mem
//!
//!    PID USER      PR  NI    VIRT    RES    SHR S %CPU %MEM     TIME+ COMMAND
//!   1935 testusr   20   0  161888   2108   1520 R  6.2  0.1   0:00.01 top
//! ```
//! Memory figures are stored in KiB whatever the unit printed (`MiB Mem`, `1.2g` in VIRT).
//!
//! `ss -tanp` (iproute2 6.1):
//! ```text
//! State  Recv-Q Send-Q      Local Address:Port        Peer Address:Port Process
//! ESTAB  0      0               127.0.0.1:46296          127.0.0.1:18081 users:(("bootstrap",pid=1505,fd=4))
//! ESTAB  0      0      [::ffff:127.0.0.1]:18081 [::ffff:127.0.0.1]:46296 users:(("python3",pid=1461,fd=4))
//! ```
//! `netstat -tanp` (net-tools 2.10):
//! ```text
//! Proto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name
//! tcp        0      0 127.0.0.1:46296         127.0.0.1:18081         ESTABLISHED 1505/python3
//! ```
//! ss names the owner by its `comm` (`bootstrap`), netstat by the first word of its command
//! line (`python3`): the same process may carry different names in the two listings.

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

// ---------------------------------------------------------------------------------------------
// ps

/// Columns `ps` can print that this parser reads; others are kept only in the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PsCol {
    Pid,
    Ppid,
    Lwp,
    User,
    Nlwp,
    Cpu,
    Mem,
    Rss,
    Vsz,
    Elapsed,
    Stat,
    Tty,
    Start,
    Time,
    Command,
    Other,
}

fn ps_col(name: &str) -> PsCol {
    match name {
        "PID" => PsCol::Pid,
        "PPID" => PsCol::Ppid,
        "LWP" | "SPID" | "TID" => PsCol::Lwp,
        "USER" | "UID" | "RUSER" | "EUSER" | "UNAME" => PsCol::User,
        "NLWP" | "THCNT" => PsCol::Nlwp,
        "%CPU" | "C" => PsCol::Cpu,
        "%MEM" => PsCol::Mem,
        "RSS" | "RSZ" => PsCol::Rss,
        "VSZ" | "VSIZE" => PsCol::Vsz,
        "ELAPSED" => PsCol::Elapsed,
        "STAT" | "S" => PsCol::Stat,
        "TTY" | "TT" => PsCol::Tty,
        "START" | "STARTED" | "STIME" => PsCol::Start,
        "TIME" => PsCol::Time,
        "COMMAND" | "CMD" | "COMM" | "ARGS" => PsCol::Command,
        _ => PsCol::Other,
    }
}

/// One row of `ps`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Process {
    /// `PID`; `None` on `auxm` thread rows (printed `-`).
    pub pid: Option<u32>,
    /// `PPID`.
    pub ppid: Option<u32>,
    /// `LWP`/`SPID` (thread id, `-L`).
    pub lwp: Option<u32>,
    /// `USER` (a name; `+` ends one cut to the column width).
    pub user: Option<String>,
    /// `NLWP`: number of threads.
    pub nlwp: Option<u32>,
    /// `%CPU`: CPU time over elapsed time, percent of one CPU.
    pub cpu_pct: Option<f64>,
    /// `%MEM`: resident set over physical memory, percent.
    pub mem_pct: Option<f64>,
    /// `RSS`, KiB.
    pub rss_kib: Option<u64>,
    /// `VSZ`, KiB.
    pub vsz_kib: Option<u64>,
    /// `ELAPSED` (`etimes` seconds, or `etime` `[[dd-]hh:]mm:ss` converted), seconds.
    pub elapsed_s: Option<u64>,
    /// `STAT` (`Ssl`, `R+`, `-` on auxm process rows).
    pub stat: Option<String>,
    /// `TTY` (`?` for none).
    pub tty: Option<String>,
    /// `START` as printed (`Oct23`, `05:22`).
    pub start: Option<String>,
    /// `TIME` as printed (cumulative CPU time).
    pub time: Option<String>,
    /// `comm` (executable name, at most 15 characters) when a `COMMAND` column precedes
    /// another one, as in `-eo …,comm,args`.
    pub comm: Option<String>,
    /// The last `COMMAND`/`CMD` column: the command line (`args`), or `comm` when only that
    /// was asked for.
    pub args: Option<String>,
    /// On `auxm` thread rows: the PID of the process row above.
    pub thread_of: Option<u32>,
    /// 1-based input line.
    pub line: usize,
}

impl Process {
    /// A name for the process: `comm` when printed, else the base name of the first word of
    /// the command line (`[kthreadd]` → `kthreadd`).
    pub fn name(&self) -> Option<&str> {
        if let Some(c) = self.comm.as_deref() {
            return Some(c);
        }
        let a = self.args.as_deref()?.trim();
        if let Some(k) = a.strip_prefix('[').and_then(|k| k.strip_suffix(']')) {
            return Some(k);
        }
        let first = a.split_ascii_whitespace().next()?;
        Some(first.rsplit('/').next().unwrap_or(first))
    }
}

/// Parsed `ps`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PsTable {
    /// Header names as printed.
    pub columns: Vec<String>,
    /// Rows in input order (process rows and `auxm` thread rows).
    pub processes: Vec<Process>,
}

impl PsTable {
    /// Process rows (not `auxm` thread rows).
    pub fn processes(&self) -> impl Iterator<Item = &Process> {
        self.processes.iter().filter(|p| p.thread_of.is_none())
    }

    /// Process rows whose [`Process::name`] is `name`.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Process> + 'a {
        self.processes().filter(move |p| p.name() == Some(name))
    }

    /// Number of threads of a process: `NLWP` when printed, else its `auxm` thread rows.
    pub fn threads(&self, pid: u32) -> Option<u32> {
        let p = self.processes().find(|p| p.pid == Some(pid))?;
        if let Some(n) = p.nlwp {
            return Some(n);
        }
        let rows = self
            .processes
            .iter()
            .filter(|t| t.thread_of == Some(pid))
            .count();
        (rows > 0).then_some(rows as u32)
    }
}

/// `[[dd-]hh:]mm:ss` → seconds.
fn etime_seconds(s: &str) -> Option<u64> {
    let (days, rest) = match s.split_once('-') {
        Some((d, r)) => (d.parse::<u64>().ok()?, r),
        None => (0, s),
    };
    let mut total = 0u64;
    for part in rest.split(':') {
        total = total
            .checked_mul(60)?
            .checked_add(part.parse::<u64>().ok()?)?;
    }
    days.checked_mul(86_400)?.checked_add(total)
}

/// A ps header: every token an upper-case column name, with `PID` among them.
fn ps_header(line: &str) -> Option<Vec<(String, usize)>> {
    let mut cols = Vec::new();
    let mut offset = 0;
    for tok in line.split_ascii_whitespace() {
        let at = line[offset..].find(tok)? + offset;
        offset = at + tok.len();
        if !tok.bytes().all(|b| {
            b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'%' | b'+' | b'_' | b'-')
        }) {
            return None;
        }
        cols.push((tok.to_string(), at));
    }
    let has_pid = cols.iter().any(|(c, _)| c == "PID");
    let has_cmd = cols.iter().any(|(c, _)| ps_col(c) == PsCol::Command);
    // top's table header has PR and NI, which ps never prints by default.
    let top_like = cols.iter().any(|(c, _)| c == "PR") && cols.iter().any(|(c, _)| c == "VIRT");
    (has_pid && has_cmd && !top_like && cols.len() >= 2).then_some(cols)
}

/// One ps row against the header columns.
fn ps_row(line: &str, cols: &[(String, usize)], n: usize) -> Result<Process, String> {
    let mut p = Process {
        line: n,
        ..Default::default()
    };
    let mut rest = line;
    let last = cols.len() - 1;
    for (i, (name, at)) in cols.iter().enumerate() {
        let kind = ps_col(name);
        let value: &str = if i == last && kind == PsCol::Command {
            let v = rest.trim();
            rest = "";
            v
        } else if kind == PsCol::Command {
            // `comm` before another column: padded to the distance between the headers.
            let width = cols[i + 1].1.saturating_sub(*at).saturating_sub(1).max(1);
            let r = rest.trim_start();
            let cut = r.char_indices().nth(width).map_or(r.len(), |(b, _)| b);
            let (v, after) = r.split_at(cut);
            rest = after;
            v.trim_end()
        } else {
            let r = rest.trim_start();
            let end = r.find([' ', '\t']).unwrap_or(r.len());
            let (v, after) = r.split_at(end);
            rest = after;
            v
        };
        if value.is_empty() {
            return Err(format!(
                "expected {} columns as in the header, found fewer (no `{name}`)",
                cols.len()
            ));
        }
        let dash = value == "-";
        let bad = |what: &str| format!("`{name}`: expected {what}, found `{}`", excerpt(value));
        match kind {
            PsCol::Pid => {
                p.pid = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("a PID"))?)
                }
            }
            PsCol::Ppid => {
                p.ppid = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("a PID"))?)
                }
            }
            PsCol::Lwp => {
                p.lwp = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("a thread id"))?)
                }
            }
            PsCol::User => p.user = Some(value.to_string()),
            PsCol::Nlwp => {
                p.nlwp = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("a thread count"))?)
                }
            }
            PsCol::Cpu => {
                p.cpu_pct = if dash {
                    None
                } else {
                    Some(parse_num(value).ok_or_else(|| bad("a percentage"))?)
                }
            }
            PsCol::Mem => {
                p.mem_pct = if dash {
                    None
                } else {
                    Some(parse_num(value).ok_or_else(|| bad("a percentage"))?)
                }
            }
            PsCol::Rss => {
                p.rss_kib = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("KiB"))?)
                }
            }
            PsCol::Vsz => {
                p.vsz_kib = if dash {
                    None
                } else {
                    Some(value.parse().map_err(|_| bad("KiB"))?)
                }
            }
            PsCol::Elapsed => {
                p.elapsed_s = if dash {
                    None
                } else {
                    Some(
                        value
                            .parse()
                            .ok()
                            .or_else(|| etime_seconds(value))
                            .ok_or_else(|| bad("seconds or [[dd-]hh:]mm:ss"))?,
                    )
                }
            }
            PsCol::Stat => p.stat = Some(value.to_string()),
            PsCol::Tty => p.tty = Some(value.to_string()),
            PsCol::Start => p.start = Some(value.to_string()),
            PsCol::Time => p.time = Some(value.to_string()),
            PsCol::Command if i == last => p.args = Some(value.to_string()),
            PsCol::Command => p.comm = Some(value.to_string()),
            PsCol::Other => {}
        }
    }
    Ok(p)
}

/// Is this `ps` output? `Yes` when the first non-blank line is a ps header (upper-case column
/// names with `PID` and a `COMMAND`/`CMD` column, and not top's `PR … VIRT` header) and the
/// next complete line reads as a row; `No` otherwise.
pub fn sniff_ps(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, true)) = lines.next() else {
        return Sniff::No;
    };
    let Some(cols) = ps_header(first) else {
        return Sniff::No;
    };
    match lines.next() {
        Some((l, true)) => match ps_row(l, &cols, 0) {
            Ok(p) if p.pid.is_some() => Sniff::Yes,
            _ => Sniff::No,
        },
        _ => Sniff::Unsure,
    }
}

/// Parses `ps` output with any column list that includes `PID` and ends with `COMMAND`/`CMD`.
///
/// Errors: [`ParseError::Unusable`] without a header. Rows that do not fit the header are
/// issues.
pub fn parse_ps(text: &str) -> Result<Parsed<PsTable>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let cols = match lines.next() {
        Some((n, l)) => ps_header(l).ok_or_else(|| {
            ParseError::unusable(
                Some(n),
                format!(
                    "expected a ps header with `PID` and `COMMAND` (e.g. `USER PID %CPU … COMMAND`), found `{}`",
                    excerpt(l)
                ),
            )
        })?,
        None => return Err(ParseError::unusable(None, "input is empty")),
    };
    let mut out = PsTable {
        columns: cols.iter().map(|(c, _)| c.clone()).collect(),
        processes: Vec::new(),
    };
    let mut issues = Issues::default();
    let mut last_pid = None;
    for (n, line) in lines {
        match ps_row(line, &cols, n) {
            Ok(mut p) => {
                if p.pid.is_none() {
                    p.thread_of = last_pid;
                    if last_pid.is_none() {
                        issues.push(n, || {
                            "thread row (PID `-`) before any process row".to_string()
                        });
                    }
                } else {
                    last_pid = p.pid;
                }
                out.processes.push(p);
            }
            Err(msg) => issues.push(n, || msg),
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// top -b

/// `Tasks:` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct TaskSummary {
    /// `total`.
    pub total: Option<u32>,
    /// `running`.
    pub running: Option<u32>,
    /// `sleeping`.
    pub sleeping: Option<u32>,
    /// `stopped`.
    pub stopped: Option<u32>,
    /// `zombie`.
    pub zombie: Option<u32>,
    /// 1-based input line.
    pub line: usize,
}

/// `%Cpu(s):` line, percent of all CPUs.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct CpuSummary {
    /// `us`.
    pub us: Option<f64>,
    /// `sy`.
    pub sy: Option<f64>,
    /// `ni`.
    pub ni: Option<f64>,
    /// `id`.
    pub id: Option<f64>,
    /// `wa` (I/O wait).
    pub wa: Option<f64>,
    /// `hi`.
    pub hi: Option<f64>,
    /// `si`.
    pub si: Option<f64>,
    /// `st` (stolen by the hypervisor).
    pub st: Option<f64>,
    /// 1-based input line.
    pub line: usize,
}

/// `Mem` and `Swap` lines, in KiB.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MemSummary {
    /// `total`, KiB.
    pub total_kib: Option<f64>,
    /// `free`, KiB.
    pub free_kib: Option<f64>,
    /// `used`, KiB.
    pub used_kib: Option<f64>,
    /// `buff/cache` (Mem line), KiB.
    pub buff_cache_kib: Option<f64>,
    /// `avail Mem` (printed on the Swap line), KiB.
    pub avail_kib: Option<f64>,
    /// 1-based input line.
    pub line: usize,
}

/// One process row of top.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TopProcess {
    /// `PID`.
    pub pid: u32,
    /// `USER`.
    pub user: Option<String>,
    /// `PR` as printed (`20`, `rt`, `-51`).
    pub pr: Option<String>,
    /// `NI`.
    pub ni: Option<i32>,
    /// `VIRT`, KiB.
    pub virt_kib: Option<u64>,
    /// `RES`, KiB.
    pub res_kib: Option<u64>,
    /// `SHR`, KiB.
    pub shr_kib: Option<u64>,
    /// `S` (state).
    pub state: Option<String>,
    /// `%CPU` (percent of one CPU over the interval).
    pub cpu_pct: Option<f64>,
    /// `%MEM`.
    pub mem_pct: Option<f64>,
    /// `TIME+` as printed.
    pub time: Option<String>,
    /// `COMMAND` (name, or command line with `-c`).
    pub command: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// One `top -b` iteration.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TopFrame {
    /// Time of day from `top - 11:24:50`.
    pub time: Option<String>,
    /// Uptime as printed (`2 min`, `12 days,  3:04`).
    pub uptime: Option<String>,
    /// Logged-in users.
    pub users: Option<u32>,
    /// Load averages (1, 5, 15 minutes).
    pub load: Option<[f64; 3]>,
    /// `Tasks:` (or `Threads:` with `-H`).
    pub tasks: Option<TaskSummary>,
    /// `%Cpu(s):`.
    pub cpu: Option<CpuSummary>,
    /// `Mem` line.
    pub mem: Option<MemSummary>,
    /// `Swap` line (with `avail Mem`).
    pub swap: Option<MemSummary>,
    /// Process rows.
    pub processes: Vec<TopProcess>,
    /// 1-based line of `top -`.
    pub line: usize,
}

/// Parsed `top -b`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Top {
    /// Frames in input order.
    pub frames: Vec<TopFrame>,
}

/// `236m`, `1.2g`, `104364` → KiB.
fn scaled_kib(s: &str) -> Option<u64> {
    let (num, mult) = match s.as_bytes().last()? {
        b'k' | b'K' => (&s[..s.len() - 1], 1.0),
        b'm' | b'M' => (&s[..s.len() - 1], 1024.0),
        b'g' | b'G' => (&s[..s.len() - 1], 1024.0 * 1024.0),
        b't' | b'T' => (&s[..s.len() - 1], 1024.0_f64.powi(3)),
        b'p' | b'P' => (&s[..s.len() - 1], 1024.0_f64.powi(4)),
        b'e' | b'E' => (&s[..s.len() - 1], 1024.0_f64.powi(5)),
        _ => (s, 1.0),
    };
    let v = parse_num(num)? * mult;
    (0.0..1.8e19).contains(&v).then_some(v.round() as u64)
}

/// `a, b, c` and `used. N avail Mem`: the comma- (or `. `-) separated `value label` parts.
fn summary_parts(s: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..=b.len() {
        let end = i == b.len()
            || b[i] == b','
            || (b[i] == b'.'
                && b.get(i + 1).is_some_and(|c| c.is_ascii_whitespace())
                && i > 0
                && b[i - 1].is_ascii_alphabetic());
        if end {
            let part = s[start..i].trim();
            start = i + 1;
            if part.is_empty() {
                continue;
            }
            // `3.1 us` or old `3.1%us`.
            let (v, label) = match part.split_once([' ', '%']) {
                Some((v, l)) => (v.trim(), l.trim()),
                None => (part, ""),
            };
            out.push((v, label));
        }
    }
    out
}

/// The unit factor to KiB of a `KiB Mem :` style line, and the rest after the colon.
fn mem_line(t: &str) -> Option<(f64, bool, &str)> {
    let (head, rest) = t.split_once(':')?;
    let mut words = head.split_ascii_whitespace();
    let (unit, what) = match (words.next(), words.next()) {
        (Some(u), Some(w)) => (u, w),
        (Some(w), None) => ("KiB", w),
        _ => return None,
    };
    let swap = match what {
        "Mem" => false,
        "Swap" => true,
        _ => return None,
    };
    let factor = match unit {
        "KiB" => 1.0,
        "MiB" => 1024.0,
        "GiB" => 1024.0 * 1024.0,
        "TiB" => 1024.0_f64.powi(3),
        "PiB" => 1024.0_f64.powi(4),
        "EiB" => 1024.0_f64.powi(5),
        _ => return None,
    };
    Some((factor, swap, rest))
}

fn is_top_header(line: &str) -> bool {
    line.trim_start().starts_with("top - ")
}

/// Is this `top -b` output? `Yes` when the first non-blank line is `top - HH:MM:SS up …`; `No`
/// otherwise.
pub fn sniff_top(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if is_top_header(l) && l.contains(" up ") => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `top -b` with one or more frames.
///
/// Errors: [`ParseError::Unusable`] when no `top -` line is found.
pub fn parse_top(text: &str) -> Result<Parsed<Top>, ParseError> {
    let mut out = Top::default();
    let mut issues = Issues::default();
    let mut header: Option<Vec<String>> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_top_header(line) {
            header = None;
            let mut f = TopFrame {
                line: n,
                ..Default::default()
            };
            let rest = t.strip_prefix("top -").unwrap_or(t).trim_start();
            f.time = rest.split_ascii_whitespace().next().map(str::to_string);
            if let Some((_, after_up)) = rest.split_once(" up ") {
                // `2 min,  2 users,  load average: …`
                let (before_load, load) = after_up
                    .split_once("load average:")
                    .unwrap_or((after_up, ""));
                let parts: Vec<&str> = before_load.split(',').map(str::trim).collect();
                let user_idx = parts
                    .iter()
                    .position(|p| p.ends_with("user") || p.ends_with("users"));
                if let Some(i) = user_idx {
                    f.users = parts[i]
                        .split_ascii_whitespace()
                        .next()
                        .and_then(|u| u.parse().ok());
                    f.uptime = Some(parts[..i].join(", ")).filter(|u| !u.is_empty());
                } else {
                    f.uptime = Some(parts.join(", ").trim_end_matches(", ").to_string());
                }
                let loads: Vec<f64> = load.split(',').filter_map(parse_num).collect();
                if let [a, b, c] = loads[..] {
                    f.load = Some([a, b, c]);
                } else if !load.trim().is_empty() {
                    issues.push(n, || {
                        format!("expected three load averages, found `{}`", excerpt(load))
                    });
                }
            }
            out.frames.push(f);
            continue;
        }
        let Some(f) = out.frames.last_mut() else {
            issues.push(n, || {
                format!("line before the first `top -` line: `{}`", excerpt(t))
            });
            continue;
        };
        if let Some(rest) = t
            .strip_prefix("Tasks:")
            .or_else(|| t.strip_prefix("Threads:"))
        {
            let mut s = TaskSummary {
                line: n,
                ..Default::default()
            };
            for (v, label) in summary_parts(rest) {
                let v = v.parse().ok();
                match label {
                    "total" => s.total = v,
                    "running" => s.running = v,
                    "sleeping" => s.sleeping = v,
                    "stopped" => s.stopped = v,
                    "zombie" => s.zombie = v,
                    _ => {}
                }
            }
            f.tasks = Some(s);
            continue;
        }
        let per_cpu = ["%Cpu", "Cpu"].iter().any(|p| {
            t.strip_prefix(p)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        });
        if per_cpu {
            // `%Cpu0  :` lines (top's `1` toggle): per-CPU detail, not the summary.
            continue;
        }
        if t.starts_with("%Cpu(s)") || t.starts_with("Cpu(s)") {
            let rest = t.split_once(':').map_or("", |(_, r)| r);
            let mut c = CpuSummary {
                line: n,
                ..Default::default()
            };
            for (v, label) in summary_parts(rest) {
                let v = parse_num(v);
                match label {
                    "us" => c.us = v,
                    "sy" => c.sy = v,
                    "ni" => c.ni = v,
                    "id" => c.id = v,
                    "wa" => c.wa = v,
                    "hi" => c.hi = v,
                    "si" => c.si = v,
                    "st" => c.st = v,
                    _ => {}
                }
            }
            f.cpu = Some(c);
            continue;
        }
        if let Some((factor, swap, rest)) = mem_line(t) {
            let mut m = MemSummary {
                line: n,
                ..Default::default()
            };
            for (v, label) in summary_parts(rest) {
                let kib = if let Some(k) = v.strip_suffix('k') {
                    parse_num(k)
                } else {
                    parse_num(v).map(|x| x * factor)
                };
                match label {
                    "total" => m.total_kib = kib,
                    "free" => m.free_kib = kib,
                    "used" => m.used_kib = kib,
                    "buff/cache" | "buffers" | "cached Mem" | "cached" => {
                        m.buff_cache_kib = kib.map(|k| k + m.buff_cache_kib.unwrap_or(0.0))
                    }
                    "avail Mem" => m.avail_kib = kib,
                    _ => {}
                }
            }
            if swap {
                f.swap = Some(m);
            } else {
                f.mem = Some(m);
            }
            continue;
        }
        let toks: Vec<&str> = t.split_ascii_whitespace().collect();
        if toks.first() == Some(&"PID") {
            header = Some(toks.iter().map(|s| s.to_string()).collect());
            continue;
        }
        let Some(cols) = header.as_ref() else {
            issues.push(n, || {
                format!("unexpected line in the summary area: `{}`", excerpt(t))
            });
            continue;
        };
        let mut p = TopProcess {
            line: n,
            ..Default::default()
        };
        let mut rest = t;
        let mut ok = true;
        for (i, c) in cols.iter().enumerate() {
            let r = rest.trim_start();
            let value = if i + 1 == cols.len() && c == "COMMAND" {
                rest = "";
                r.trim_end()
            } else {
                let end = r.find([' ', '\t']).unwrap_or(r.len());
                let (v, after) = r.split_at(end);
                rest = after;
                v
            };
            if value.is_empty() {
                issues.push(n, || {
                    format!(
                        "expected {} columns as in the header, found fewer",
                        cols.len()
                    )
                });
                ok = false;
                break;
            }
            match c.as_str() {
                "PID" => match value.parse() {
                    Ok(v) => p.pid = v,
                    Err(_) => {
                        issues.push(n, || {
                            format!("`PID`: expected a number, found `{}`", excerpt(value))
                        });
                        ok = false;
                        break;
                    }
                },
                "USER" => p.user = Some(value.to_string()),
                "PR" => p.pr = Some(value.to_string()),
                "NI" => p.ni = value.parse().ok(),
                "VIRT" => p.virt_kib = scaled_kib(value),
                "RES" => p.res_kib = scaled_kib(value),
                "SHR" => p.shr_kib = scaled_kib(value),
                "S" => p.state = Some(value.to_string()),
                "%CPU" => p.cpu_pct = parse_num(value),
                "%MEM" => p.mem_pct = parse_num(value),
                "TIME+" | "TIME" => p.time = Some(value.to_string()),
                "COMMAND" => p.command = Some(value.to_string()),
                _ => {}
            }
        }
        if ok {
            f.processes.push(p);
        }
    }
    if out.frames.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `top - HH:MM:SS up …` line (expected top -b output)"
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// Sockets: shared types

/// A socket address as printed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Endpoint {
    /// As printed (`[::ffff:10.0.0.1]:8080`, `127.0.0.53%lo:53`, `*:*`, `rtnl:kernel`).
    pub text: String,
    /// Host without brackets and scope (`::ffff:10.0.0.1`, `127.0.0.53`, `*`); the whole
    /// text for non-IP families (netlink, unix).
    pub host: String,
    /// Port or service name (`8080`, `ssh`, `*`); `None` for non-IP families.
    pub port: Option<String>,
    /// Interface scope after `%` (`lo`, `virbr0`).
    pub scope: Option<String>,
}

impl Endpoint {
    /// The port as a number, when numeric.
    pub fn port_number(&self) -> Option<u16> {
        self.port.as_deref()?.parse().ok()
    }

    /// The host with an IPv4-mapped IPv6 prefix removed (`::ffff:10.0.0.1` → `10.0.0.1`), so
    /// that the same peer reads the same from an IPv4 and an IPv6 socket.
    pub fn peer_host(&self) -> &str {
        self.host
            .strip_prefix("::ffff:")
            .filter(|h| h.contains('.'))
            .unwrap_or(&self.host)
    }

    /// Reads `host:port`, `[v6]:port`, `host%scope:port`, `:::port` (old ss/netstat IPv6).
    fn inet(text: &str) -> Endpoint {
        let (host, port) = match text.rsplit_once(':') {
            Some((h, p)) if !h.is_empty() => (h, Some(p.to_string())),
            _ => (text, None),
        };
        let (host, scope) = match host.split_once('%') {
            Some((h, s)) => (h, Some(s.trim_end_matches(']').to_string())),
            None => (host, None),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        Endpoint {
            text: text.to_string(),
            host: host.to_string(),
            port,
            scope,
        }
    }

    fn raw(text: &str) -> Endpoint {
        Endpoint {
            text: text.to_string(),
            host: text.to_string(),
            port: None,
            scope: None,
        }
    }
}

/// A process owning a socket (`("java",pid=123,fd=45)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SocketOwner {
    /// Process name (ss: the `comm`; netstat: first word of the command line, cut to 15
    /// characters or so).
    pub name: String,
    /// PID.
    pub pid: Option<u32>,
    /// File descriptor (ss only).
    pub fd: Option<u32>,
}

/// Established connections of one process name, from [`established_by_process`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProcessConnections {
    /// Process name as the listing printed it (`-` for sockets without an owner).
    pub process: String,
    /// Distinct PIDs seen with that name, sorted.
    pub pids: Vec<u32>,
    /// Number of established TCP sockets it owns.
    pub established: usize,
    /// Distinct peer hosts (IPv4-mapped addresses shown as IPv4), sorted.
    pub peers: Vec<String>,
    /// 1-based input lines of those sockets.
    pub lines: Vec<usize>,
}

/// One established TCP socket, as either listing shows it.
#[derive(Debug, Clone, Copy)]
pub struct ConnView<'a> {
    /// Owners (may be empty).
    pub owners: &'a [SocketOwner],
    /// Peer address.
    pub peer: &'a Endpoint,
    /// 1-based input line.
    pub line: usize,
}

/// Counts established TCP connections per process name with their distinct peers, most
/// connections first (ties by name). A socket shared by several processes counts for each;
/// a socket without an owner counts for `-`. Feed it [`SsTable::established`] or
/// [`Netstat::established`].
pub fn established_by_process<'a>(
    conns: impl IntoIterator<Item = ConnView<'a>>,
) -> Vec<ProcessConnections> {
    use std::collections::{BTreeMap, BTreeSet};
    #[derive(Default)]
    struct Acc {
        pids: BTreeSet<u32>,
        count: usize,
        peers: BTreeSet<String>,
        lines: Vec<usize>,
    }
    let mut by: BTreeMap<String, Acc> = BTreeMap::new();
    for c in conns {
        let mut add = |name: &str, pid: Option<u32>| {
            let a = by.entry(name.to_string()).or_default();
            a.count += 1;
            a.pids.extend(pid);
            a.peers.insert(c.peer.peer_host().to_string());
            a.lines.push(c.line);
        };
        if c.owners.is_empty() {
            add("-", None);
        }
        for o in c.owners {
            add(&o.name, o.pid);
        }
    }
    let mut out: Vec<ProcessConnections> = by
        .into_iter()
        .map(|(process, a)| ProcessConnections {
            process,
            pids: a.pids.into_iter().collect(),
            established: a.count,
            peers: a.peers.into_iter().collect(),
            lines: a.lines,
        })
        .collect();
    out.sort_by(|a, b| {
        b.established
            .cmp(&a.established)
            .then(a.process.cmp(&b.process))
    });
    out
}

// ---------------------------------------------------------------------------------------------
// ss

/// One socket of `ss`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Socket {
    /// `Netid` (`tcp`, `udp`, `u_str`, `nl`); `None` when the listing has no Netid column
    /// (`ss -t`).
    pub netid: Option<String>,
    /// `State` (`ESTAB`, `LISTEN`, `TIME-WAIT`, `UNCONN`).
    pub state: String,
    /// `Recv-Q`: bytes not yet read by the application (listeners: accept queue length).
    pub recv_q: Option<u64>,
    /// `Send-Q`: bytes not yet acknowledged (listeners: accept queue limit).
    pub send_q: Option<u64>,
    /// Local address.
    pub local: Endpoint,
    /// Peer address.
    pub peer: Endpoint,
    /// Owners from `users:((…))`.
    pub users: Vec<SocketOwner>,
    /// `uid:` (`-e`).
    pub uid: Option<u32>,
    /// `ino:` (`-e`).
    pub inode: Option<u64>,
    /// Everything after the addresses other than `users:`, as printed (`ino:25147 sk:2 <->`,
    /// `timer:(keepalive,…)`).
    pub extra: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `ss`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SsTable {
    /// Sockets in input order.
    pub sockets: Vec<Socket>,
}

impl SsTable {
    /// Established TCP sockets, for [`established_by_process`].
    pub fn established(&self) -> impl Iterator<Item = ConnView<'_>> {
        self.sockets
            .iter()
            .filter(|s| s.state == "ESTAB" && s.netid.as_deref().is_none_or(|n| n == "tcp"))
            .map(|s| ConnView {
                owners: &s.users,
                peer: &s.peer,
                line: s.line,
            })
    }

    /// Sockets owned by a process name.
    pub fn owned_by<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Socket> + 'a {
        self.sockets
            .iter()
            .filter(move |s| s.users.iter().any(|u| u.name == name))
    }
}

/// `users:(("a",pid=1,fd=2),("b",pid=3,fd=4))` starting at `s`; returns the owners and the
/// byte length consumed.
fn parse_users(s: &str) -> Result<(Vec<SocketOwner>, usize), String> {
    let body = s
        .strip_prefix("users:(")
        .ok_or_else(|| "expected `users:((…))`".to_string())?;
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        match bytes.get(i) {
            Some(b')') => return Ok((out, "users:(".len() + i + 1)),
            Some(b',') => i += 1,
            Some(b'(') => {
                // ("name",pid=N,fd=M)
                i += 1;
                if bytes.get(i) != Some(&b'"') {
                    return Err("expected `(\"name\",…)` in users".to_string());
                }
                let name_start = i + 1;
                let name_len = body[name_start..]
                    .find("\",")
                    .or_else(|| body[name_start..].find("\")"))
                    .ok_or_else(|| "unclosed process name in users".to_string())?;
                let name = body[name_start..name_start + name_len].to_string();
                i = name_start + name_len + 1;
                let close = body[i..]
                    .find(')')
                    .ok_or_else(|| "unclosed `(` in users".to_string())?;
                let attrs = &body[i..i + close];
                let mut pid = None;
                let mut fd = None;
                for kv in attrs.split(',') {
                    match kv.split_once('=') {
                        Some(("pid", v)) => pid = v.parse().ok(),
                        Some(("fd", v)) => fd = v.parse().ok(),
                        _ => {}
                    }
                }
                out.push(SocketOwner { name, pid, fd });
                i += close + 1;
            }
            _ => return Err("malformed `users:((…))`".to_string()),
        }
    }
}

/// The ss header: `Netid State Recv-Q Send-Q Local Address:Port Peer Address:Port [Process]`
/// (the last two may be glued: `Address:PortProcess`).
fn ss_header(line: &str) -> Option<bool> {
    let mut t = line.split_ascii_whitespace();
    let first = t.next()?;
    let has_netid = match first {
        "Netid" => {
            if t.next()? != "State" {
                return None;
            }
            true
        }
        "State" => false,
        _ => return None,
    };
    (t.next()? == "Recv-Q" && t.next()? == "Send-Q" && line.contains("Local Address"))
        .then_some(has_netid)
}

/// Splits off the next whitespace-separated token.
fn next_token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find([' ', '\t']).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

fn ss_row(line: &str, has_netid: bool, n: usize) -> Result<Socket, String> {
    let expected = "expected `[Netid] State Recv-Q Send-Q Local Peer [Process]`";
    let short = || format!("{expected}, found `{}`", excerpt(line));
    let mut rest = line;
    let take = |rest: &mut &str| -> Result<String, String> {
        let (t, r) = next_token(rest).ok_or_else(short)?;
        *rest = r;
        Ok(t.to_string())
    };
    let netid = if has_netid {
        Some(take(&mut rest)?)
    } else {
        None
    };
    let state = take(&mut rest)?;
    let rq = take(&mut rest)?;
    let sq = take(&mut rest)?;
    let q = |v: &str| {
        v.parse::<u64>()
            .map(Some)
            .map_err(|_| format!("{expected}: queue `{}` is not a number", excerpt(v)))
    };
    let unix = netid.as_deref().is_some_and(|id| id.starts_with("u_"));
    let (local, peer) = if unix {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let c = take(&mut rest)?;
        let d = take(&mut rest)?;
        (
            Endpoint::raw(&format!("{a} {b}")),
            Endpoint::raw(&format!("{c} {d}")),
        )
    } else {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let ip = netid.as_deref().is_none_or(|id| {
            matches!(
                id,
                "tcp" | "udp" | "raw" | "sctp" | "mptcp" | "dccp" | "udplite" | "tcp6" | "udp6"
            )
        });
        if ip {
            (Endpoint::inet(&a), Endpoint::inet(&b))
        } else {
            (Endpoint::raw(&a), Endpoint::raw(&b))
        }
    };
    let mut s = Socket {
        netid,
        state,
        recv_q: q(&rq)?,
        send_q: q(&sq)?,
        local,
        peer,
        line: n,
        ..Default::default()
    };
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok(s);
    }
    let mut extra = String::new();
    let mut r = rest;
    while !r.is_empty() {
        if r.starts_with("users:(") {
            let (users, used) = parse_users(r).map_err(|m| format!("{m} in `{}`", excerpt(r)))?;
            s.users = users;
            r = r[used..].trim_start();
            continue;
        }
        let (tok, after) = next_token(r).unwrap_or((r, ""));
        if let Some(v) = tok.strip_prefix("uid:") {
            s.uid = v.parse().ok();
        } else if let Some(v) = tok.strip_prefix("ino:") {
            s.inode = v.parse().ok();
        }
        if !extra.is_empty() {
            extra.push(' ');
        }
        extra.push_str(tok);
        r = after.trim_start();
    }
    s.extra = (!extra.is_empty()).then_some(extra);
    Ok(s)
}

/// Is this `ss` output? `Yes` when the first non-blank line is the ss header (`Netid State
/// Recv-Q Send-Q Local Address:Port …` or `State Recv-Q …`); `No` otherwise.
pub fn sniff_ss(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if ss_header(l).is_some() => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `ss` listings (`-tanp`, `-tulpen`, `-a` with every family).
///
/// Errors: [`ParseError::Unusable`] without the header. Rows that cannot be read are issues.
pub fn parse_ss(text: &str) -> Result<Parsed<SsTable>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let has_netid = match lines.next() {
        Some((n, l)) => ss_header(l).ok_or_else(|| {
            ParseError::unusable(
                Some(n),
                format!(
                    "expected the ss header `[Netid] State Recv-Q Send-Q Local Address:Port …`, found `{}`",
                    excerpt(l)
                ),
            )
        })?,
        None => return Err(ParseError::unusable(None, "input is empty")),
    };
    let mut out = SsTable::default();
    let mut issues = Issues::default();
    for (n, line) in lines {
        match ss_row(line, has_netid, n) {
            Ok(s) => out.sockets.push(s),
            Err(msg) => issues.push(n, || msg),
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// netstat

/// One row of netstat's Internet table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct InetConn {
    /// `Proto` (`tcp`, `tcp6`, `udp`, `raw6`).
    pub proto: String,
    /// `Recv-Q`, bytes.
    pub recv_q: Option<u64>,
    /// `Send-Q`, bytes.
    pub send_q: Option<u64>,
    /// `Local Address`.
    pub local: Endpoint,
    /// `Foreign Address`.
    pub foreign: Endpoint,
    /// `State` (`ESTABLISHED`, `LISTEN`, `TIME_WAIT`; a number for raw sockets); `None` when
    /// blank (udp).
    pub state: Option<String>,
    /// `User` (`-e`): name or uid.
    pub user: Option<String>,
    /// `Inode` (`-e`).
    pub inode: Option<u64>,
    /// Owner from `PID/Program name` (`-p`); `None` when printed `-`.
    pub owner: Option<SocketOwner>,
    /// `Timer` (`-o`) as printed (`off (0.00/0/0)`).
    pub timer: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// One row of netstat's UNIX domain table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct UnixSocket {
    /// `RefCnt`.
    pub refcnt: Option<u32>,
    /// `Flags` inside the brackets (`ACC`, empty).
    pub flags: String,
    /// `Type` (`STREAM`, `DGRAM`, `SEQPACKET`).
    pub kind: String,
    /// `State` (`LISTENING`, `CONNECTED`); `None` when blank.
    pub state: Option<String>,
    /// `I-Node`.
    pub inode: Option<u64>,
    /// Owner from `PID/Program name`.
    pub owner: Option<SocketOwner>,
    /// `Path`; `None` when blank.
    pub path: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `netstat` connection listing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Netstat {
    /// Internet sockets in input order.
    pub inet: Vec<InetConn>,
    /// UNIX domain sockets in input order.
    pub unix: Vec<UnixSocket>,
}

impl Netstat {
    /// Established TCP connections, for [`established_by_process`].
    pub fn established(&self) -> impl Iterator<Item = ConnView<'_>> {
        self.inet
            .iter()
            .filter(|c| c.proto.starts_with("tcp") && c.state.as_deref() == Some("ESTABLISHED"))
            .map(|c| ConnView {
                owners: c.owner.as_slice(),
                peer: &c.foreign,
                line: c.line,
            })
    }
}

/// TCP states as netstat prints them.
const TCP_STATES: &[&str] = &[
    "ESTABLISHED",
    "SYN_SENT",
    "SYN_RECV",
    "FIN_WAIT1",
    "FIN_WAIT2",
    "TIME_WAIT",
    "CLOSE",
    "CLOSE_WAIT",
    "LAST_ACK",
    "LISTEN",
    "CLOSING",
    "UNKNOWN",
];

/// `PID/Program name` or `-`.
fn owner(pid_prog: &str) -> Option<SocketOwner> {
    let (pid, name) = pid_prog.split_once('/')?;
    Some(SocketOwner {
        name: name.trim().to_string(),
        pid: Some(pid.parse().ok()?),
        fd: None,
    })
}

/// Which netstat table a section header starts.
#[derive(Clone, Copy, PartialEq)]
enum NsTable {
    Inet,
    Unix,
    Other,
}

/// Columns of an Internet table header.
#[derive(Clone, Copy, Default)]
struct InetCols {
    user: bool,
    pid: bool,
    timer: bool,
}

fn inet_row(line: &str, cols: InetCols, n: usize) -> Result<InetConn, String> {
    let expected = "expected `Proto Recv-Q Send-Q Local Foreign [State] …`";
    let mut rest = line;
    let next = |rest: &mut &str| -> Option<String> {
        let (t, r) = next_token(rest)?;
        *rest = r;
        Some(t.to_string())
    };
    let (Some(proto), Some(rq), Some(sq), Some(local), Some(foreign)) = (
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
    ) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let num = |v: &str| {
        v.parse::<u64>()
            .map_err(|_| format!("{expected}: queue `{}` is not a number", excerpt(v)))
    };
    let mut c = InetConn {
        recv_q: Some(num(&rq)?),
        send_q: Some(num(&sq)?),
        local: Endpoint::inet(&local),
        foreign: Endpoint::inet(&foreign),
        proto,
        line: n,
        ..Default::default()
    };
    if let Some((tok, r)) = next_token(rest) {
        let raw_state = c.proto.starts_with("raw") && tok.bytes().all(|b| b.is_ascii_digit());
        if TCP_STATES.contains(&tok) || raw_state {
            c.state = Some(tok.to_string());
            rest = r;
        }
    }
    if cols.user {
        let (Some(user), Some(inode)) = (next(&mut rest), next(&mut rest)) else {
            return Err(format!(
                "{expected}: no `User Inode` columns in `{}`",
                excerpt(line)
            ));
        };
        c.user = Some(user);
        c.inode = inode.parse().ok();
    }
    if cols.pid {
        let r = rest.trim();
        // The program name may contain spaces; the timer starts with a word and `(`.
        let (prog, timer) = if cols.timer {
            match r.rfind(" (") {
                Some(p) => {
                    let word_start = r[..p].rfind(' ').map_or(0, |w| w + 1);
                    (r[..word_start].trim(), Some(r[word_start..].trim()))
                }
                None => (r, None),
            }
        } else {
            (r, None)
        };
        if prog.is_empty() {
            return Err(format!(
                "{expected}: no `PID/Program name` in `{}`",
                excerpt(line)
            ));
        }
        c.owner = owner(prog);
        if c.owner.is_none() && prog != "-" {
            return Err(format!(
                "{expected}: `{}` is not `PID/Program name` or `-`",
                excerpt(prog)
            ));
        }
        c.timer = timer.map(str::to_string);
    } else if cols.timer {
        let r = rest.trim();
        c.timer = (!r.is_empty()).then(|| r.to_string());
    }
    Ok(c)
}

fn unix_row(line: &str, path_at: Option<usize>, n: usize) -> Result<UnixSocket, String> {
    let expected = "expected `unix RefCnt [ Flags ] Type [State] I-Node [PID/Program] [Path]`";
    let mut rest = line;
    let next = |rest: &mut &str| -> Option<String> {
        let (t, r) = next_token(rest)?;
        *rest = r;
        Some(t.to_string())
    };
    let (Some(_proto), Some(refcnt)) = (next(&mut rest), next(&mut rest)) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let r = rest.trim_start();
    let Some(after_open) = r.strip_prefix('[') else {
        return Err(format!("{expected}: no `[ flags ]` in `{}`", excerpt(line)));
    };
    let Some((flags, after)) = after_open.split_once(']') else {
        return Err(format!("{expected}: unclosed `[` in `{}`", excerpt(line)));
    };
    rest = after;
    let Some(kind) = next(&mut rest) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let mut u = UnixSocket {
        refcnt: refcnt.parse().ok(),
        flags: flags.trim().to_string(),
        kind,
        line: n,
        ..Default::default()
    };
    let Some(tok) = next(&mut rest) else {
        return Err(format!("{expected}: no I-Node in `{}`", excerpt(line)));
    };
    let inode_tok = if tok.bytes().all(|b| b.is_ascii_digit()) {
        tok
    } else {
        u.state = Some(tok);
        next(&mut rest).ok_or_else(|| format!("{expected}: no I-Node in `{}`", excerpt(line)))?
    };
    u.inode = Some(inode_tok.parse().map_err(|_| {
        format!(
            "{expected}: I-Node `{}` is not a number",
            excerpt(&inode_tok)
        )
    })?);
    // The rest: `PID/Program name` then the path; use the header's Path column when the line
    // reaches it, else the first word is the owner and the others the path.
    let consumed = line.len() - rest.len();
    let (owner_part, path_part) = match path_at {
        Some(p)
            if p > consumed
                && line.len() > p
                && line.is_char_boundary(p)
                && line.as_bytes()[p - 1] == b' ' =>
        {
            (&line[consumed..p], &line[p..])
        }
        _ => {
            let r = rest.trim_start();
            match r.find(' ') {
                Some(sp) => (&r[..sp], &r[sp..]),
                None => (r, ""),
            }
        }
    };
    let owner_part = owner_part.trim();
    u.owner = owner(owner_part);
    let path = path_part.trim();
    u.path = (!path.is_empty()).then(|| path.to_string());
    Ok(u)
}

fn netstat_section(line: &str) -> Option<NsTable> {
    let t = line.trim();
    if t.starts_with("Active Internet connections") {
        Some(NsTable::Inet)
    } else if t.starts_with("Active UNIX domain sockets") {
        Some(NsTable::Unix)
    } else if t.starts_with("Active ") {
        Some(NsTable::Other)
    } else {
        None
    }
}

fn is_inet_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("Proto") && t.next() == Some("Recv-Q") && line.contains("Local Address")
}

/// Is this a netstat connection listing? `Yes` when the first non-blank line is `Active
/// Internet connections …` or `Active UNIX domain sockets …`, or the Internet table header
/// `Proto Recv-Q Send-Q Local Address …`; `No` otherwise (`netstat -i`, `-s`, `-r` differ).
pub fn sniff_netstat(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _))
            if matches!(netstat_section(l), Some(NsTable::Inet | NsTable::Unix))
                || is_inet_header(l) =>
        {
            Sniff::Yes
        }
        _ => Sniff::No,
    }
}

/// Parses netstat connection listings (`-tanp`, `-neopa`, `-lnp`, `-aeep`).
///
/// Errors: [`ParseError::Unusable`] when neither table header is found.
pub fn parse_netstat(text: &str) -> Result<Parsed<Netstat>, ParseError> {
    let mut out = Netstat::default();
    let mut issues = Issues::default();
    let mut table: Option<NsTable> = None;
    let mut inet_cols: Option<InetCols> = None;
    let mut unix_path_at: Option<Option<usize>> = None;
    let mut headers = 0;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(s) = netstat_section(line) {
            table = Some(s);
            inet_cols = None;
            unix_path_at = None;
            continue;
        }
        if is_inet_header(line) {
            table = Some(NsTable::Inet);
            inet_cols = Some(InetCols {
                user: line.contains(" User "),
                pid: line.contains("PID/Program name"),
                timer: line.contains("Timer"),
            });
            headers += 1;
            continue;
        }
        if line
            .split_ascii_whitespace()
            .take(2)
            .eq(["Proto", "RefCnt"])
        {
            table = Some(NsTable::Unix);
            unix_path_at = Some(line.find("Path"));
            headers += 1;
            continue;
        }
        match (table, inet_cols, unix_path_at) {
            (Some(NsTable::Inet), Some(cols), _) => match inet_row(line, cols, n) {
                Ok(c) => out.inet.push(c),
                Err(msg) => issues.push(n, || msg),
            },
            (Some(NsTable::Unix), _, Some(path_at)) => match unix_row(line, path_at, n) {
                Ok(u) => out.unix.push(u),
                Err(msg) => issues.push(n, || msg),
            },
            (Some(NsTable::Other), _, _) => {}
            _ => issues.push(n, || {
                format!(
                    "line outside a table (no header above it): `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if headers == 0 {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `Proto Recv-Q Send-Q Local Address …` or `Proto RefCnt Flags …` header"
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints() {
        let e = Endpoint::inet("[::ffff:10.0.0.1]:8080");
        assert_eq!(e.host, "::ffff:10.0.0.1");
        assert_eq!(e.peer_host(), "10.0.0.1");
        assert_eq!(e.port_number(), Some(8080));
        let e = Endpoint::inet("127.0.0.53%lo:53");
        assert_eq!(
            (e.host.as_str(), e.scope.as_deref()),
            ("127.0.0.53", Some("lo"))
        );
        let e = Endpoint::inet(":::37968");
        assert_eq!((e.host.as_str(), e.port.as_deref()), ("::", Some("37968")));
        let e = Endpoint::inet("*:*");
        assert_eq!((e.host.as_str(), e.port.as_deref()), ("*", Some("*")));
        let e = Endpoint::inet("[fe80::1%eth0]:22");
        assert_eq!(
            (e.host.as_str(), e.scope.as_deref()),
            ("fe80::1", Some("eth0"))
        );
    }

    #[test]
    fn users_field() {
        let (u, used) =
            parse_users("users:((\"rpcbind\",pid=1139,fd=5),(\"systemd\",pid=1,fd=41)) ino:1")
                .unwrap();
        assert_eq!(
            used,
            "users:((\"rpcbind\",pid=1139,fd=5),(\"systemd\",pid=1,fd=41))".len()
        );
        assert_eq!(u.len(), 2);
        assert_eq!(
            (u[1].name.as_str(), u[1].pid, u[1].fd),
            ("systemd", Some(1), Some(41))
        );
        let (u, _) = parse_users("users:((\"Web Content\",pid=9,fd=3))").unwrap();
        assert_eq!(u[0].name, "Web Content");
        assert!(parse_users("users:((\"x").is_err());
        assert!(parse_users("users:(x)").is_err());
    }

    #[test]
    fn scaled() {
        assert_eq!(scaled_kib("104364"), Some(104_364));
        assert_eq!(scaled_kib("236m"), Some(236 * 1024));
        assert_eq!(scaled_kib("1.5g"), Some(1_572_864));
        assert_eq!(scaled_kib("2t"), Some(2 * 1024 * 1024 * 1024));
        assert_eq!(scaled_kib("x"), None);
    }

    #[test]
    fn etimes() {
        assert_eq!(etime_seconds("01:02"), Some(62));
        assert_eq!(etime_seconds("1-00:00:01"), Some(86_401));
        assert_eq!(etime_seconds("a:b"), None);
    }
}
