//! `ps`: the process table (custom `-eo` lists, `aux`, `auxww`, `auxwwwm`).
//!
//! `ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args` (procps-ng 4.0; columns
//! are found by header name, `comm` is cut to its column width, `args` takes the rest):
//! ```text
//!   PID  PPID USER     NLWP %CPU %MEM   RSS    VSZ ELAPSED STAT COMMAND         COMMAND
//!  1505  1461 root        1  0.0  0.0 12012  17228       3 S    bootstrap       /usr/bin/python3 /tmp/conn-b.py
//! ```
//! `ps auxwwwm` follows each process with one row per thread whose PID is `-`.

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

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
        let at = line.get(offset..)?.find(tok)? + offset;
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

/// Every column header `ps` prints: the headers of procps-ng 4.0.2's format specifiers (`ps L`,
/// then `ps -o SPEC -p 1` for each, on Debian 12) and `ADDR`, `TMOUT` and `ALARM`, printed by
/// `ps -l` and `ps X`. A header with any other name (`lslocks`' `TYPE … PATH`,
/// `systemd-inhibit --list`'s `WHO … WHY`) is another tool's table.
const PS_HEADERS: &[&str] = &[
    "%CPU", "%CUC", "%CUU", "%MEM", "ADDR", "AGID", "AGNI", "ALARM", "BLOCKED", "C", "CATCHED",
    "CAUGHT", "CGNAME", "CGROUP", "CGROUPNS", "CLS", "CMD", "COMMAND", "CONTEXT", "CP", "CPUID",
    "DRS", "DSIZ", "EGID", "EGROUP", "EIP", "ELAPSED", "ESP", "EUID", "EUSER", "EXE", "F", "FGID",
    "FGROUP", "FSGID", "FSGROUP", "FSUID", "FSUSER", "FUID", "FUSER", "GID", "GROUP", "IGNORED",
    "IPCNS", "LABEL", "LIM", "LUID", "LWP", "LXC", "MACHINE", "MAJFL", "MAJFLT", "MINFL", "MINFLT",
    "MNTNS", "NETNS", "NI", "NLWP", "NUMA", "OOM", "OOMADJ", "OWNER", "P", "PAGEIN", "PENDING",
    "PGID", "PGRP", "PID", "PIDNS", "POL", "PPID", "PRI", "PSR", "PSS", "RBYTES", "RCHARS", "RGID",
    "RGROUP", "ROPS", "RSS", "RSZ", "RTPRIO", "RUID", "RUSER", "S", "SCH", "SEAT", "SESS",
    "SESSION", "SGID", "SGROUP", "SID", "SIGNAL", "SIZE", "SLICE", "SPID", "STACKP", "START",
    "STARTED", "STAT", "STIME", "SUID", "SUPGID", "SUPGRP", "SUSER", "SVGID", "SVGROUP", "SVUID",
    "SVUSER", "SZ", "TGID", "THCNT", "TID", "TIME", "TIMENS", "TMOUT", "TPGID", "TRS", "TRSS",
    "TSIZ", "TT", "TTY", "UID", "UNIT", "USER", "USERNS", "USS", "UTSNS", "UUNIT", "VSZ", "WBYTES",
    "WCBYTES", "WCHAN", "WCHARS", "WOPS", "ZONE",
];

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
/// names with `PID` and a `COMMAND`/`CMD` column, every name one `ps` prints, and not top's
/// `PR … VIRT` header) and the next complete line reads as a row; `No` otherwise.
pub fn sniff_ps(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, true)) = lines.next() else {
        return Sniff::No;
    };
    let Some(cols) = ps_header(first) else {
        return Sniff::No;
    };
    if !cols.iter().all(|(c, _)| PS_HEADERS.contains(&c.as_str())) {
        return Sniff::No;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etimes() {
        assert_eq!(etime_seconds("01:02"), Some(62));
        assert_eq!(etime_seconds("1-00:00:01"), Some(86_401));
        assert_eq!(etime_seconds("a:b"), None);
    }
}
