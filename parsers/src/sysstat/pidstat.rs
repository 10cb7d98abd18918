//! `pidstat` from sysstat: per-task statistics, text and `-o JSON`.
//!
//! Every report section is read, whatever its columns (found by header name): `-u` (`%usr
//! %system %guest %wait %CPU CPU`), `-T CHILD|ALL` (`usr-ms system-ms guest-ms`), `-r`
//! (`minflt/s majflt/s VSZ RSS %MEM`), `-s` (`StkSize StkRef`), `-d` (`kB_rd/s kB_wr/s
//! kB_ccwr/s iodelay`), `-w` (`cswch/s nvcswch/s`), `-v` (`threads fd-nr`), `-R` (`prio
//! policy`). Each printed line becomes one [`TaskRow`], so a task appears once per section;
//! `Average:` rows are kept apart. Variants handled:
//! - `-t`: `TGID` and `TID` columns (`-` where not applicable); thread rows print their name as
//!   `|__name`, or `(leader)__name` when the thread's process is not itself listed;
//! - `-h`: one line per task with every selected column, a `#` header (`# Time UID PID …`), the
//!   time as a time of day or, in older sysstat, seconds since the epoch;
//! - `-U`: a `USER` column instead of `UID`;
//! - command names with spaces (`JS Helper`): `Command` is the last column and takes the rest
//!   of the line;
//! - 24-hour and 12-hour (`12:06:39 PM`) clocks, decimal commas, runs crossing midnight;
//! - `-o JSON` (`sysstat.hosts[0].statistics[]` with `task-cpu-load`, `task-memory`, `stack`,
//!   `io`, `context-switch`, `kernel`, `realtime` arrays), including a document cut short.
//!
//! `-1.00` printed for `kB_rd/s`, `kB_wr/s` and `kB_ccwr/s` means "not available" (kernel
//! threads, or no permission to read the task's I/O accounting) and is read as `None`.
//!
//! Sample input (sysstat 12.x `pidstat -t -u 2 1`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST)    06/01/20    _x86_64_    (9 CPU)
//!
//! 12:53:20      UID      TGID       TID    %usr %system  %guest   %wait    %CPU   CPU  Command
//! 12:53:22     1000      7900         -  359.42   53.55    0.00    8.47  412.96     2  gnome-shell
//! 12:53:22     1000         -      7900  349.70   51.43    0.00    8.47  401.12     2  |__gnome-shell
//! 12:53:22     1000         -     10334    0.22    0.00    0.00    0.00    0.22     1  |__dconf worker
//! ```

use crate::common::{
    excerpt, first_non_blank, head_lines, numbered_lines, parse_sysstat_header, read_num,
    strip_bom, Ceiling, Issues, NumError, ParseError, Parsed, Sniff, SysstatHeader,
};
use crate::sysstat::json::sniff_json;
use crate::sysstat::json::{
    finish_walk, repaired, walk_sysstat, Cursor, Fields, HostFields, Scalar,
};
use crate::sysstat::sar::{split_prefix, Clock, Prefix, SarTime};
use serde::Serialize;
use std::collections::BTreeMap;

/// A whole `pidstat` output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Pidstat {
    /// The sysstat banner (text) or the JSON host record.
    pub header: Option<SysstatHeader>,
    /// One row per printed task line, in input order (a task appears in each section).
    pub rows: Vec<TaskRow>,
    /// The `Average:` rows.
    pub averages: Vec<TaskRow>,
}

/// One task (process or thread) in one report section. Fields are `None` when the section does
/// not print them.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TaskRow {
    /// End of the interval (`None` on `Average:` rows): the banner's date, moved on at
    /// midnight; with an epoch time (`-h` of older sysstat) the UTC date and time.
    pub time: Option<SarTime>,
    /// Seconds since the epoch, when the line printed them.
    pub epoch: Option<u64>,
    /// 1-based input line (JSON: the line of the task object).
    pub line: usize,
    /// `UID`.
    pub uid: Option<u32>,
    /// `USER` (`-U`).
    pub user: Option<String>,
    /// `PID` (without `-t`).
    pub pid: Option<u32>,
    /// `TGID` (`-t`): the process. On `|__` thread rows, where pidstat prints `-`, the TGID of
    /// the process row above.
    pub tgid: Option<u32>,
    /// `TID` (`-t`): the thread (`None` on process rows).
    pub tid: Option<u32>,
    /// `Command`, without the `|__` / `(leader)__` thread marker.
    pub command: String,
    /// Whether the row is a thread of a process (`|__name`, `(leader)__name`, JSON `TID` set).
    pub is_thread: bool,
    /// The process name in `(leader)__name` (JSON `leader`).
    pub leader: Option<String>,
    /// `%usr`: user time, % of one CPU (can exceed 100 for multi-threaded tasks).
    pub usr_pct: Option<f64>,
    /// `%system`.
    pub system_pct: Option<f64>,
    /// `%guest`.
    pub guest_pct: Option<f64>,
    /// `%wait`: time waiting to run (sysstat ≥ 11.5.5).
    pub wait_pct: Option<f64>,
    /// `%CPU`: total CPU time, % of one CPU.
    pub cpu_pct: Option<f64>,
    /// `CPU`: processor the task last ran on (`-` on `Average:` rows).
    pub cpu: Option<u32>,
    /// `usr-ms` (`-T CHILD|ALL`): user time of the task and its children, ms.
    pub usr_ms: Option<f64>,
    /// `system-ms` (`-T CHILD|ALL`), ms.
    pub system_ms: Option<f64>,
    /// `guest-ms` (`-T CHILD|ALL`), ms.
    pub guest_ms: Option<f64>,
    /// `minflt/s`: minor faults per second.
    pub minflt_per_s: Option<f64>,
    /// `majflt/s`: major faults (page read from disk) per second.
    pub majflt_per_s: Option<f64>,
    /// `VSZ`: virtual size, KiB.
    pub vsz_kb: Option<f64>,
    /// `RSS`: resident set size, KiB.
    pub rss_kb: Option<f64>,
    /// `%MEM`: RSS as % of RAM.
    pub mem_pct: Option<f64>,
    /// `StkSize`: stack reserved, KiB.
    pub stksize_kb: Option<f64>,
    /// `StkRef`: stack referenced, KiB.
    pub stkref_kb: Option<f64>,
    /// `kB_rd/s`: KiB per second read from disk (`None` when pidstat printed `-1.00`).
    pub kb_rd_per_s: Option<f64>,
    /// `kB_wr/s`: KiB per second written (`None` when `-1.00`).
    pub kb_wr_per_s: Option<f64>,
    /// `kB_ccwr/s`: KiB per second of writes cancelled (`None` when `-1.00`).
    pub kb_ccwr_per_s: Option<f64>,
    /// `iodelay`: block I/O delay, clock ticks (sysstat ≥ 11.1.6).
    pub iodelay: Option<f64>,
    /// `cswch/s`: voluntary context switches per second (waiting for a resource).
    pub cswch_per_s: Option<f64>,
    /// `nvcswch/s`: involuntary context switches per second (preempted).
    pub nvcswch_per_s: Option<f64>,
    /// `threads`: threads of the task.
    pub threads: Option<f64>,
    /// `fd-nr`: open file descriptors.
    pub fd_nr: Option<f64>,
    /// `prio`: real-time priority.
    pub prio: Option<f64>,
    /// `policy`: scheduling policy (`NORMAL`, `FIFO`, `RR`, `BATCH`, `IDLE`, …), as printed.
    pub policy: Option<String>,
    /// Numeric columns this parser does not name, by header text (e.g. `minflt-nr`).
    pub extra: BTreeMap<String, f64>,
}

impl TaskRow {
    /// The task's id: `TID` for a thread, else `PID` or `TGID`.
    pub fn task_id(&self) -> Option<u32> {
        self.tid.or(self.pid).or(self.tgid)
    }

    /// Stores a number printed under `col` (text header name).
    fn set_num(&mut self, col: &str, v: f64) {
        let slot = match col {
            "%usr" => &mut self.usr_pct,
            "%system" => &mut self.system_pct,
            "%guest" => &mut self.guest_pct,
            "%wait" => &mut self.wait_pct,
            "%CPU" => &mut self.cpu_pct,
            "usr-ms" => &mut self.usr_ms,
            "system-ms" => &mut self.system_ms,
            "guest-ms" => &mut self.guest_ms,
            "minflt/s" => &mut self.minflt_per_s,
            "majflt/s" => &mut self.majflt_per_s,
            "VSZ" => &mut self.vsz_kb,
            "RSS" => &mut self.rss_kb,
            "%MEM" => &mut self.mem_pct,
            "StkSize" => &mut self.stksize_kb,
            "StkRef" => &mut self.stkref_kb,
            "kB_rd/s" | "kB_wr/s" | "kB_ccwr/s" => {
                let slot = match col {
                    "kB_rd/s" => &mut self.kb_rd_per_s,
                    "kB_wr/s" => &mut self.kb_wr_per_s,
                    _ => &mut self.kb_ccwr_per_s,
                };
                // -1.00: I/O statistics not available for this task.
                *slot = (v >= 0.0).then_some(v);
                return;
            }
            "iodelay" => &mut self.iodelay,
            "cswch/s" => &mut self.cswch_per_s,
            "nvcswch/s" => &mut self.nvcswch_per_s,
            "threads" => &mut self.threads,
            "fd-nr" => &mut self.fd_nr,
            "prio" => &mut self.prio,
            _ => {
                self.extra.insert(col.to_string(), v);
                return;
            }
        };
        *slot = Some(v);
    }

    /// Splits a `Command` value into its thread marker and name.
    fn set_command(&mut self, cmd: &str, thread_view: bool) {
        if thread_view {
            if let Some(name) = cmd.strip_prefix("|__") {
                self.is_thread = true;
                self.command = name.to_string();
                return;
            }
            if let Some((leader, name)) = cmd
                .strip_prefix('(')
                .and_then(|rest| rest.split_once(")__"))
            {
                self.is_thread = true;
                self.leader = Some(leader.to_string());
                self.command = name.to_string();
                return;
            }
        }
        self.command = cmd.to_string();
    }
}

/// What a header column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Uid,
    User,
    Pid,
    Tgid,
    Tid,
    Cpu,
    Policy,
    Command,
    Num,
}

fn column(name: &str) -> Col {
    match name {
        "UID" => Col::Uid,
        "USER" => Col::User,
        "PID" => Col::Pid,
        "TGID" => Col::Tgid,
        "TID" => Col::Tid,
        "CPU" => Col::Cpu,
        "policy" => Col::Policy,
        "Command" => Col::Command,
        _ => Col::Num,
    }
}

/// A header line's columns (after the time, `Average:` or `# Time`), if it is a pidstat header:
/// an id column and `Command` last.
fn header_cols<'a>(toks: &[&'a str]) -> Option<Vec<&'a str>> {
    let last = *toks.last()?;
    let ids = toks.iter().any(|t| matches!(*t, "PID" | "TGID" | "TID"));
    (last == "Command" && ids).then(|| toks.to_vec())
}

/// Splits a line into its header columns when it is a pidstat header (`12:53:20 UID PID …`,
/// `Average: UID PID …` or `# Time UID PID …`).
fn header_of<'a>(toks: &[&'a str]) -> Option<Vec<&'a str>> {
    if toks.first() == Some(&"#") || toks.first().is_some_and(|t| t.starts_with('#')) {
        // `# Time UID …` or `#      Time   UID …`.
        let rest: Vec<&str> = toks
            .iter()
            .map(|t| t.trim_start_matches('#'))
            .filter(|t| !t.is_empty())
            .collect();
        let rest = rest.strip_prefix(&["Time"]).unwrap_or(&rest);
        return header_cols(rest);
    }
    let (_, used) = split_prefix(toks)?;
    header_cols(&toks[used..])
}

/// Text or JSON `pidstat` output?
///
/// `Yes` on a header line with a time (or `Average:`, or `# Time`), an id column (`PID`,
/// `TGID`, `TID`) and `Command` last, or a sysstat JSON document with task members (`cmd`);
/// `Unsure` on a bare sysstat banner; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) == Some(b'{') {
        return sniff_json(head, &["\"cmd\":", "\"task-cpu-load\"", "\"task-memory\""]);
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
        if complete && header_of(&toks).is_some() {
            return Sniff::Yes;
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

/// Parses `pidstat` text or `-o JSON` output.
///
/// Errors: [`ParseError::Unusable`] when no pidstat header (or JSON sample) is found.
pub fn parse(text: &str) -> Result<Parsed<Pidstat>, ParseError> {
    match first_non_blank(text) {
        None => Err(ParseError::unusable(None, "input is empty")),
        Some(b'{') => parse_json(text),
        Some(_) => parse_text(text),
    }
}

/// Byte offset of `tok` (a subslice of `line`) in `line`.
fn offset_in(line: &str, tok: &str) -> usize {
    (tok.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

/// The section being read.
struct Table<'a> {
    cols: Vec<&'a str>,
    kinds: Vec<Col>,
    line: usize,
    thread_view: bool,
}

fn parse_text(text: &str) -> Result<Parsed<Pidstat>, ParseError> {
    let mut out = Pidstat::default();
    let mut issues = Issues::default();
    let mut table: Option<Table> = None;
    let mut headers = 0usize;
    let mut clock = Clock::new(None);
    let mut last_tgid: Option<u32> = None;
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    for (n, line) in numbered_lines(strip_bom(text)) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        let Some(&first) = toks.first() else {
            continue;
        };
        if first == "Linux" {
            if let Some(h) = parse_sysstat_header(line, n) {
                if out.header.is_none() {
                    clock = Clock::new(h.date);
                    out.header = Some(h);
                }
                continue;
            }
        }
        if let Some(cols) = header_of(&toks) {
            let kinds: Vec<Col> = cols.iter().map(|c| column(c)).collect();
            let thread_view = kinds.contains(&Col::Tid);
            table = Some(Table {
                cols,
                kinds,
                line: n,
                thread_view,
            });
            headers += 1;
            continue;
        }
        let Some((prefix, used)) = split_prefix(&toks) else {
            issues.push(n, || {
                format!(
                    "expected a time (`12:53:22`, `12:06:39 PM`, epoch seconds) or `Average:` at \
                     the start of the line, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let Some(t) = &table else {
            issues.push(n, || {
                format!(
                    "expected a header line (`… UID PID … Command`) before this row: `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let vals = &toks[used..];
        let ncols = t.cols.len();
        if vals.len() < ncols {
            let (found, header_line) = (vals.len(), t.line);
            issues.push(n, || {
                format!(
                    "expected at least {ncols} columns as in the header on line {header_line}, \
                     found {found}: `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let mut row = TaskRow {
            line: n,
            ..TaskRow::default()
        };
        match prefix {
            Prefix::Epoch(s) => {
                row.epoch = Some(s);
                row.time = clock.of_prefix(prefix);
            }
            Prefix::Time(_) => row.time = clock.of_prefix(prefix),
            Prefix::Average => {}
        }
        let mut bad: Option<(&str, &str)> = None;
        for (i, (&col, &kind)) in t.cols.iter().zip(&t.kinds).enumerate() {
            let tok = vals[i];
            let ok = match kind {
                Col::Command => {
                    let cmd = line.get(offset_in(line, tok)..).unwrap_or(tok).trim_end();
                    row.set_command(cmd, t.thread_view);
                    true
                }
                Col::User => {
                    row.user = Some(tok.to_string());
                    true
                }
                Col::Policy => {
                    row.policy = Some(tok.to_string());
                    true
                }
                Col::Uid | Col::Pid | Col::Tgid | Col::Tid | Col::Cpu => {
                    let v = if tok == "-" {
                        Some(None)
                    } else {
                        tok.parse::<u32>().ok().map(Some)
                    };
                    match v {
                        Some(v) => {
                            match kind {
                                Col::Uid => row.uid = v,
                                Col::Pid => row.pid = v,
                                Col::Tgid => row.tgid = v,
                                Col::Tid => row.tid = v,
                                _ => row.cpu = v,
                            }
                            true
                        }
                        None => false,
                    }
                }
                // A process's `%CPU` reaches 100 × the CPUs (pidstat(1) without `-I`): no
                // tighter ceiling than a counter's.
                Col::Num => match read_num(tok, Ceiling::Counter) {
                    Ok(v) => {
                        row.set_num(col, v);
                        true
                    }
                    Err(NumError::NotANumber) => tok == "-",
                    Err(e) => {
                        issues.push(n, || e.message(col, tok));
                        true
                    }
                },
            };
            if !ok && bad.is_none() {
                bad = Some((col, tok));
            }
        }
        if let Some((col, tok)) = bad {
            issues.push(n, || {
                format!(
                    "expected a number under `{col}`, found `{}` in `{}`",
                    excerpt(tok),
                    excerpt(line)
                )
            });
            continue;
        }
        if t.thread_view {
            if row.is_thread {
                if row.tgid.is_none() {
                    row.tgid = last_tgid;
                }
            } else {
                last_tgid = row.tgid;
            }
        }
        if prefix == Prefix::Average {
            out.averages.push(row);
        } else {
            out.rows.push(row);
        }
    }
    if headers == 0 {
        return Err(ParseError::unusable(
            None,
            "no pidstat header line found (a time or `# Time`, then `UID PID … Command`)",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// JSON

/// Text header of a JSON task key.
fn json_col(key: &str) -> &str {
    match key {
        "usr" => "%usr",
        "system" => "%system",
        "guest" => "%guest",
        "wait" => "%wait",
        "cpu" => "%CPU",
        "MEM" => "%MEM",
        other => other,
    }
}

/// An id member (`"UID": "1000"`, `"TID": ""`).
fn json_id(v: &Scalar<'_>) -> Option<u32> {
    match v {
        Scalar::Num(n) if *n >= 0.0 && *n <= f64::from(u32::MAX) => Some(*n as u32),
        Scalar::Str(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The task of a JSON object; a value beyond [`Ceiling::Counter`] is left out with an issue.
fn task_from_json(
    f: &Fields<'_>,
    line: usize,
    time: Option<SarTime>,
    issues: &mut Issues,
) -> Option<TaskRow> {
    let mut row = TaskRow {
        line,
        time,
        ..TaskRow::default()
    };
    let mut has_cmd = false;
    for (k, v) in &f.0 {
        match k.as_ref() {
            "UID" => row.uid = json_id(v),
            "USER" => row.user = v.as_str().map(str::to_string),
            "PID" => row.pid = json_id(v),
            "TGID" => row.tgid = json_id(v),
            "TID" => row.tid = json_id(v),
            "cpu_nr" => row.cpu = json_id(v),
            "cmd" => {
                has_cmd = true;
                row.command = v.as_str().unwrap_or("").to_string();
            }
            "leader" => row.leader = v.as_str().filter(|s| !s.is_empty()).map(str::to_string),
            "policy" => row.policy = v.as_str().map(str::to_string),
            key => match v.read(Ceiling::Counter) {
                Ok(x) => row.set_num(json_col(key), x),
                Err(e @ NumError::Beyond(_)) => issues.push(line, || e.message(key, &v.text())),
                Err(NumError::NotANumber) => {}
            },
        }
    }
    row.is_thread = row.tid.is_some() && row.leader.is_some();
    has_cmd.then_some(row)
}

fn parse_json(text: &str) -> Result<Parsed<Pidstat>, ParseError> {
    let mut issues = Issues::default();
    let text = repaired(strip_bom(text), &mut issues);
    let mut cur = Cursor::new(&text);
    let mut host = HostFields::default();
    let mut rows: Vec<TaskRow> = Vec::new();
    let mut samples = 0usize;
    let walked = walk_sysstat(&mut cur, &mut host, |cur, host| {
        let mut clock = Clock::new(host.date);
        cur.array(|cur, _| {
            let mut time: Option<SarTime> = None;
            let mut sample: Vec<TaskRow> = Vec::new();
            cur.object(|cur, key| {
                if key == "timestamp" {
                    let line = cur.line();
                    match cur.value::<Scalar>()? {
                        Some(Scalar::Str(s)) => {
                            let toks: Vec<&str> = s.split_ascii_whitespace().take(3).collect();
                            match split_prefix(&toks) {
                                Some((p @ (Prefix::Time(_) | Prefix::Epoch(_)), _)) => {
                                    time = clock.of_prefix(p)
                                }
                                _ => issues.push(line, || {
                                    format!("unreadable timestamp `{}`", excerpt(&s))
                                }),
                            }
                        }
                        Some(Scalar::Num(secs)) if (0.0..1e12).contains(&secs) => {
                            time = clock.of_prefix(Prefix::Epoch(secs as u64));
                        }
                        _ => {}
                    }
                    return Ok(());
                }
                cur.array(|cur, _| {
                    let line = cur.line();
                    match cur
                        .value::<Fields>()?
                        .and_then(|f| task_from_json(&f, line, time, &mut issues))
                    {
                        Some(row) => sample.push(row),
                        None => issues.push(line, || {
                            "expected a task object with a `cmd` member".to_string()
                        }),
                    }
                    Ok(())
                })
            })?;
            rows.append(&mut sample);
            samples += 1;
            Ok(())
        })
    });
    finish_walk(
        walked.err(),
        samples,
        "pidstat",
        "pidstat",
        "sample",
        &mut issues,
    )?;
    Ok(Parsed {
        value: Pidstat {
            header: host.into_header(),
            rows,
            averages: Vec::new(),
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_markers() {
        let mut r = TaskRow::default();
        r.set_command("|__JS Helper", true);
        assert!(r.is_thread);
        assert_eq!(r.command, "JS Helper");
        let mut r = TaskRow::default();
        r.set_command("(firefox)__Link Monitor", true);
        assert_eq!(
            (r.leader.as_deref(), r.command.as_str()),
            (Some("firefox"), "Link Monitor")
        );
        // Without -t a name is taken as printed.
        let mut r = TaskRow::default();
        r.set_command("(sd-pam)", false);
        assert_eq!(r.command, "(sd-pam)");
        assert!(!r.is_thread);
    }

    #[test]
    fn headers_in_every_form() {
        fn h(s: &str) -> Option<Vec<&str>> {
            header_of(&s.split_whitespace().collect::<Vec<_>>())
        }
        assert!(h("12:53:20 UID PID %usr Command").is_some());
        assert!(h("12:06:39 PM UID PID %usr Command").is_some());
        assert!(h("Average: UID TGID TID %usr Command").is_some());
        assert_eq!(
            h("#      Time   UID       PID    %usr  Command").unwrap(),
            ["UID", "PID", "%usr", "Command"]
        );
        assert!(h("12:53:20 0 1 0.00 systemd").is_none());
    }
}
