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
    strip_bom, Ceiling, Issues, Name, Names, NumError, ParseError, Parsed, Sniff, SysstatHeader,
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

/// One task (process or thread) in one report section. Numeric columns are read through
/// methods (`row.cpu_pct()`), `None` when the section does not print them.
///
/// The numbers a row holds are packed (a bit per column present and the values in column
/// order), so a row takes about as much memory as its line of text; it serialises with every
/// column as a field, `null` when absent.
#[derive(Debug, Clone, PartialEq, Default)]
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
    /// `PID` (without `-t`).
    pub pid: Option<u32>,
    /// `TGID` (`-t`): the process. On `|__` thread rows, where pidstat prints `-`, the TGID of
    /// the process row above.
    pub tgid: Option<u32>,
    /// `TID` (`-t`): the thread (`None` on process rows).
    pub tid: Option<u32>,
    /// `CPU`: processor the task last ran on (`-` on `Average:` rows).
    pub cpu: Option<u32>,
    /// Whether the row is a thread of a process (`|__name`, `(leader)__name`, JSON `TID` set).
    pub is_thread: bool,
    /// `Command`, without the `|__` / `(leader)__` thread marker.
    pub command: Name,
    /// What few rows have: `USER`, the leader's name, `policy`, unnamed columns.
    rare: Option<Box<Rare>>,
    /// The named numeric columns present: bit `f as u32` for [`TaskField`] `f`.
    present: u32,
    /// Their values in [`TaskField`] order, the first [`INLINE`] here (a section prints at
    /// most five; `-h` prints every selected column on one line) …
    inline: [f64; INLINE],
    /// … and the rest here.
    more: Box<[f64]>,
}

/// How many numeric values a [`TaskRow`] holds without a heap allocation.
const INLINE: usize = 6;

/// The columns of a [`TaskRow`] that few rows print.
#[derive(Debug, Clone, PartialEq, Default)]
struct Rare {
    user: Option<Name>,
    leader: Option<Name>,
    policy: Option<Name>,
    extra: BTreeMap<String, f64>,
}

/// What [`TaskRow::extra`] returns for a row without unnamed columns.
static NO_EXTRA: BTreeMap<String, f64> = BTreeMap::new();

/// A numeric column of [`TaskRow`] that the parser names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskField {
    /// `%usr`: user time, % of one CPU (can exceed 100 for multi-threaded tasks).
    UsrPct,
    /// `%system`.
    SystemPct,
    /// `%guest`.
    GuestPct,
    /// `%wait`: time waiting to run (sysstat ≥ 11.5.5).
    WaitPct,
    /// `%CPU`: total CPU time, % of one CPU.
    CpuPct,
    /// `usr-ms` (`-T CHILD|ALL`): user time of the task and its children, ms.
    UsrMs,
    /// `system-ms` (`-T CHILD|ALL`), ms.
    SystemMs,
    /// `guest-ms` (`-T CHILD|ALL`), ms.
    GuestMs,
    /// `minflt/s`: minor faults per second.
    MinfltPerS,
    /// `majflt/s`: major faults (page read from disk) per second.
    MajfltPerS,
    /// `VSZ`: virtual size, KiB.
    VszKb,
    /// `RSS`: resident set size, KiB.
    RssKb,
    /// `%MEM`: RSS as % of RAM.
    MemPct,
    /// `StkSize`: stack reserved, KiB.
    StksizeKb,
    /// `StkRef`: stack referenced, KiB.
    StkrefKb,
    /// `kB_rd/s`: KiB per second read from disk (`None` when pidstat printed `-1.00`).
    KbRdPerS,
    /// `kB_wr/s`: KiB per second written (`None` when `-1.00`).
    KbWrPerS,
    /// `kB_ccwr/s`: KiB per second of writes cancelled (`None` when `-1.00`).
    KbCcwrPerS,
    /// `iodelay`: block I/O delay, clock ticks (sysstat ≥ 11.1.6).
    Iodelay,
    /// `cswch/s`: voluntary context switches per second (waiting for a resource).
    CswchPerS,
    /// `nvcswch/s`: involuntary context switches per second (preempted).
    NvcswchPerS,
    /// `threads`: threads of the task.
    Threads,
    /// `fd-nr`: open file descriptors.
    FdNr,
    /// `prio`: real-time priority.
    Prio,
}

impl TaskField {
    /// Every field, in serialisation order.
    pub const ALL: [TaskField; 24] = [
        TaskField::UsrPct,
        TaskField::SystemPct,
        TaskField::GuestPct,
        TaskField::WaitPct,
        TaskField::CpuPct,
        TaskField::UsrMs,
        TaskField::SystemMs,
        TaskField::GuestMs,
        TaskField::MinfltPerS,
        TaskField::MajfltPerS,
        TaskField::VszKb,
        TaskField::RssKb,
        TaskField::MemPct,
        TaskField::StksizeKb,
        TaskField::StkrefKb,
        TaskField::KbRdPerS,
        TaskField::KbWrPerS,
        TaskField::KbCcwrPerS,
        TaskField::Iodelay,
        TaskField::CswchPerS,
        TaskField::NvcswchPerS,
        TaskField::Threads,
        TaskField::FdNr,
        TaskField::Prio,
    ];

    /// The field of a text header column (`%usr`, `kB_rd/s`), if the parser names it.
    fn of_header(col: &str) -> Option<TaskField> {
        Some(match col {
            "%usr" => TaskField::UsrPct,
            "%system" => TaskField::SystemPct,
            "%guest" => TaskField::GuestPct,
            "%wait" => TaskField::WaitPct,
            "%CPU" => TaskField::CpuPct,
            "usr-ms" => TaskField::UsrMs,
            "system-ms" => TaskField::SystemMs,
            "guest-ms" => TaskField::GuestMs,
            "minflt/s" => TaskField::MinfltPerS,
            "majflt/s" => TaskField::MajfltPerS,
            "VSZ" => TaskField::VszKb,
            "RSS" => TaskField::RssKb,
            "%MEM" => TaskField::MemPct,
            "StkSize" => TaskField::StksizeKb,
            "StkRef" => TaskField::StkrefKb,
            "kB_rd/s" => TaskField::KbRdPerS,
            "kB_wr/s" => TaskField::KbWrPerS,
            "kB_ccwr/s" => TaskField::KbCcwrPerS,
            "iodelay" => TaskField::Iodelay,
            "cswch/s" => TaskField::CswchPerS,
            "nvcswch/s" => TaskField::NvcswchPerS,
            "threads" => TaskField::Threads,
            "fd-nr" => TaskField::FdNr,
            "prio" => TaskField::Prio,
            _ => return None,
        })
    }

    /// The serialised field name (`usr_pct`).
    fn key(self) -> &'static str {
        match self {
            TaskField::UsrPct => "usr_pct",
            TaskField::SystemPct => "system_pct",
            TaskField::GuestPct => "guest_pct",
            TaskField::WaitPct => "wait_pct",
            TaskField::CpuPct => "cpu_pct",
            TaskField::UsrMs => "usr_ms",
            TaskField::SystemMs => "system_ms",
            TaskField::GuestMs => "guest_ms",
            TaskField::MinfltPerS => "minflt_per_s",
            TaskField::MajfltPerS => "majflt_per_s",
            TaskField::VszKb => "vsz_kb",
            TaskField::RssKb => "rss_kb",
            TaskField::MemPct => "mem_pct",
            TaskField::StksizeKb => "stksize_kb",
            TaskField::StkrefKb => "stkref_kb",
            TaskField::KbRdPerS => "kb_rd_per_s",
            TaskField::KbWrPerS => "kb_wr_per_s",
            TaskField::KbCcwrPerS => "kb_ccwr_per_s",
            TaskField::Iodelay => "iodelay",
            TaskField::CswchPerS => "cswch_per_s",
            TaskField::NvcswchPerS => "nvcswch_per_s",
            TaskField::Threads => "threads",
            TaskField::FdNr => "fd_nr",
            TaskField::Prio => "prio",
        }
    }
}

impl TaskRow {
    /// The task's id: `TID` for a thread, else `PID` or `TGID`.
    pub fn task_id(&self) -> Option<u32> {
        self.tid.or(self.pid).or(self.tgid)
    }

    /// The value of a numeric column, `None` when the section does not print it.
    pub fn get(&self, f: TaskField) -> Option<f64> {
        let bit = 1u32 << (f as u32);
        if self.present & bit == 0 {
            return None;
        }
        let at = (self.present & (bit - 1)).count_ones() as usize;
        match at.checked_sub(INLINE) {
            None => self.inline.get(at).copied(),
            Some(i) => self.more.get(i).copied(),
        }
    }

    /// `USER` (`-U`).
    pub fn user(&self) -> Option<&str> {
        self.rare.as_ref()?.user.as_deref()
    }

    /// The process name in `(leader)__name` (JSON `leader`).
    pub fn leader(&self) -> Option<&str> {
        self.rare.as_ref()?.leader.as_deref()
    }

    /// `policy`: scheduling policy (`NORMAL`, `FIFO`, `RR`, `BATCH`, `IDLE`, …), as printed.
    pub fn policy(&self) -> Option<&str> {
        self.rare.as_ref()?.policy.as_deref()
    }

    /// Numeric columns this parser does not name, by header text (e.g. `minflt-nr`).
    pub fn extra(&self) -> &BTreeMap<String, f64> {
        self.rare.as_ref().map_or(&NO_EXTRA, |r| &r.extra)
    }

    fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    /// Sets (or with `None` clears) the value of a numeric column.
    pub fn set(&mut self, f: TaskField, v: Option<f64>) {
        let mut all = [None; TaskField::ALL.len()];
        for (slot, g) in all.iter_mut().zip(TaskField::ALL) {
            *slot = self.get(g);
        }
        all[f as usize] = v;
        self.pack(&all);
    }

    /// Stores the numeric columns from one value per [`TaskField`].
    fn pack(&mut self, all: &[Option<f64>; TaskField::ALL.len()]) {
        self.present = 0;
        self.inline = [0.0; INLINE];
        let mut n = 0;
        let mut more = Vec::new();
        for (i, v) in all.iter().enumerate() {
            if let Some(v) = v {
                self.present |= 1 << i;
                match self.inline.get_mut(n) {
                    Some(slot) => *slot = *v,
                    None => more.push(*v),
                }
                n += 1;
            }
        }
        self.more = more.into_boxed_slice();
    }

    /// `%usr`: user time, % of one CPU (can exceed 100 for multi-threaded tasks).
    pub fn usr_pct(&self) -> Option<f64> {
        self.get(TaskField::UsrPct)
    }

    /// `%system`.
    pub fn system_pct(&self) -> Option<f64> {
        self.get(TaskField::SystemPct)
    }

    /// `%guest`.
    pub fn guest_pct(&self) -> Option<f64> {
        self.get(TaskField::GuestPct)
    }

    /// `%wait`: time waiting to run (sysstat ≥ 11.5.5).
    pub fn wait_pct(&self) -> Option<f64> {
        self.get(TaskField::WaitPct)
    }

    /// `%CPU`: total CPU time, % of one CPU.
    pub fn cpu_pct(&self) -> Option<f64> {
        self.get(TaskField::CpuPct)
    }

    /// `usr-ms` (`-T CHILD|ALL`): user time of the task and its children, ms.
    pub fn usr_ms(&self) -> Option<f64> {
        self.get(TaskField::UsrMs)
    }

    /// `system-ms` (`-T CHILD|ALL`), ms.
    pub fn system_ms(&self) -> Option<f64> {
        self.get(TaskField::SystemMs)
    }

    /// `guest-ms` (`-T CHILD|ALL`), ms.
    pub fn guest_ms(&self) -> Option<f64> {
        self.get(TaskField::GuestMs)
    }

    /// `minflt/s`: minor faults per second.
    pub fn minflt_per_s(&self) -> Option<f64> {
        self.get(TaskField::MinfltPerS)
    }

    /// `majflt/s`: major faults (page read from disk) per second.
    pub fn majflt_per_s(&self) -> Option<f64> {
        self.get(TaskField::MajfltPerS)
    }

    /// `VSZ`: virtual size, KiB.
    pub fn vsz_kb(&self) -> Option<f64> {
        self.get(TaskField::VszKb)
    }

    /// `RSS`: resident set size, KiB.
    pub fn rss_kb(&self) -> Option<f64> {
        self.get(TaskField::RssKb)
    }

    /// `%MEM`: RSS as % of RAM.
    pub fn mem_pct(&self) -> Option<f64> {
        self.get(TaskField::MemPct)
    }

    /// `StkSize`: stack reserved, KiB.
    pub fn stksize_kb(&self) -> Option<f64> {
        self.get(TaskField::StksizeKb)
    }

    /// `StkRef`: stack referenced, KiB.
    pub fn stkref_kb(&self) -> Option<f64> {
        self.get(TaskField::StkrefKb)
    }

    /// `kB_rd/s`: KiB per second read from disk (`None` when pidstat printed `-1.00`).
    pub fn kb_rd_per_s(&self) -> Option<f64> {
        self.get(TaskField::KbRdPerS)
    }

    /// `kB_wr/s`: KiB per second written (`None` when `-1.00`).
    pub fn kb_wr_per_s(&self) -> Option<f64> {
        self.get(TaskField::KbWrPerS)
    }

    /// `kB_ccwr/s`: KiB per second of writes cancelled (`None` when `-1.00`).
    pub fn kb_ccwr_per_s(&self) -> Option<f64> {
        self.get(TaskField::KbCcwrPerS)
    }

    /// `iodelay`: block I/O delay, clock ticks (sysstat ≥ 11.1.6).
    pub fn iodelay(&self) -> Option<f64> {
        self.get(TaskField::Iodelay)
    }

    /// `cswch/s`: voluntary context switches per second (waiting for a resource).
    pub fn cswch_per_s(&self) -> Option<f64> {
        self.get(TaskField::CswchPerS)
    }

    /// `nvcswch/s`: involuntary context switches per second (preempted).
    pub fn nvcswch_per_s(&self) -> Option<f64> {
        self.get(TaskField::NvcswchPerS)
    }

    /// `threads`: threads of the task.
    pub fn threads(&self) -> Option<f64> {
        self.get(TaskField::Threads)
    }

    /// `fd-nr`: open file descriptors.
    pub fn fd_nr(&self) -> Option<f64> {
        self.get(TaskField::FdNr)
    }

    /// `prio`: real-time priority.
    pub fn prio(&self) -> Option<f64> {
        self.get(TaskField::Prio)
    }

    /// Splits a `Command` value into its thread marker and name.
    fn set_command(&mut self, cmd: &str, thread_view: bool, names: &mut Names) {
        if thread_view {
            if let Some(name) = cmd.strip_prefix("|__") {
                self.is_thread = true;
                self.command = names.get(name);
                return;
            }
            if let Some((leader, name)) = cmd
                .strip_prefix('(')
                .and_then(|rest| rest.split_once(")__"))
            {
                self.is_thread = true;
                self.rare_mut().leader = Some(names.get(leader));
                self.command = names.get(name);
                return;
            }
        }
        self.command = names.get(cmd);
    }
}

/// A row's numeric columns while it is read: one slot per [`TaskField`].
struct RowValues([Option<f64>; TaskField::ALL.len()]);

impl RowValues {
    fn new() -> Self {
        RowValues([None; TaskField::ALL.len()])
    }

    /// Stores a number printed under a column the parser names.
    fn set(&mut self, f: TaskField, v: f64) {
        self.0[f as usize] = match f {
            // -1.00: I/O statistics not available for this task.
            TaskField::KbRdPerS | TaskField::KbWrPerS | TaskField::KbCcwrPerS => {
                (v >= 0.0).then_some(v)
            }
            _ => Some(v),
        };
    }
}

impl Serialize for TaskRow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("TaskRow", 38)?;
        st.serialize_field("time", &self.time)?;
        st.serialize_field("epoch", &self.epoch)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("uid", &self.uid)?;
        st.serialize_field("user", &self.user())?;
        st.serialize_field("pid", &self.pid)?;
        st.serialize_field("tgid", &self.tgid)?;
        st.serialize_field("tid", &self.tid)?;
        st.serialize_field("command", &self.command)?;
        st.serialize_field("is_thread", &self.is_thread)?;
        st.serialize_field("leader", &self.leader())?;
        for f in TaskField::ALL {
            st.serialize_field(f.key(), &self.get(f))?;
            if f == TaskField::CpuPct {
                st.serialize_field("cpu", &self.cpu)?;
            }
        }
        st.serialize_field("policy", &self.policy())?;
        st.serialize_field("extra", self.extra())?;
        st.end()
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
    /// A number: a [`TaskField`], or `None` for a column kept in [`TaskRow::extra`].
    Num(Option<TaskField>),
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
        other => Col::Num(TaskField::of_header(other)),
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
    let mut names = Names::default();
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
        // A header ends in `Command`; a row ends in a name, which may be `Command` too.
        if let Some(cols) = (toks.last() == Some(&"Command"))
            .then(|| header_of(&toks))
            .flatten()
        {
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
        let mut values = RowValues::new();
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
                    row.set_command(cmd, t.thread_view, &mut names);
                    true
                }
                Col::User => {
                    row.rare_mut().user = Some(names.get(tok));
                    true
                }
                Col::Policy => {
                    row.rare_mut().policy = Some(names.get(tok));
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
                Col::Num(field) => match read_num(tok, Ceiling::Counter) {
                    Ok(v) => {
                        match field {
                            Some(f) => values.set(f, v),
                            None => {
                                row.rare_mut().extra.insert(col.to_string(), v);
                            }
                        }
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
        row.pack(&values.0);
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
    // A long listing grows its vector by doubling: give back what is left over.
    out.rows.shrink_to_fit();
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
    names: &mut Names,
) -> Option<TaskRow> {
    let mut row = TaskRow {
        line,
        time,
        ..TaskRow::default()
    };
    let mut values = RowValues::new();
    let mut has_cmd = false;
    for (k, v) in &f.0 {
        match k.as_ref() {
            "UID" => row.uid = json_id(v),
            "USER" => row.rare_mut().user = v.as_str().map(|s| names.get(s)),
            "PID" => row.pid = json_id(v),
            "TGID" => row.tgid = json_id(v),
            "TID" => row.tid = json_id(v),
            "cpu_nr" => row.cpu = json_id(v),
            "cmd" => {
                has_cmd = true;
                row.command = names.get(v.as_str().unwrap_or(""));
            }
            "leader" => {
                if let Some(l) = v.as_str().filter(|s| !s.is_empty()) {
                    row.rare_mut().leader = Some(names.get(l));
                }
            }
            "policy" => row.rare_mut().policy = v.as_str().map(|s| names.get(s)),
            key => match v.read(Ceiling::Counter) {
                Ok(x) => {
                    let col = json_col(key);
                    match TaskField::of_header(col) {
                        Some(f) => values.set(f, x),
                        None => {
                            row.rare_mut().extra.insert(col.to_string(), x);
                        }
                    }
                }
                Err(e @ NumError::Beyond(_)) => issues.push(line, || e.message(key, &v.text())),
                Err(NumError::NotANumber) => {}
            },
        }
    }
    row.is_thread = row.tid.is_some() && row.leader().is_some();
    row.pack(&values.0);
    has_cmd.then_some(row)
}

fn parse_json(text: &str) -> Result<Parsed<Pidstat>, ParseError> {
    let mut issues = Issues::default();
    let text = repaired(strip_bom(text), &mut issues);
    let mut cur = Cursor::new(&text);
    let mut host = HostFields::default();
    let mut rows: Vec<TaskRow> = Vec::new();
    let mut names = Names::default();
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
                        .and_then(|f| task_from_json(&f, line, time, &mut issues, &mut names))
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
    rows.shrink_to_fit();
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
        let mut names = Names::default();
        let mut r = TaskRow::default();
        r.set_command("|__JS Helper", true, &mut names);
        assert!(r.is_thread);
        assert_eq!(r.command, "JS Helper");
        let mut r = TaskRow::default();
        r.set_command("(firefox)__Link Monitor", true, &mut names);
        assert_eq!(
            (r.leader(), r.command.as_str()),
            (Some("firefox"), "Link Monitor")
        );
        // Without -t a name is taken as printed.
        let mut r = TaskRow::default();
        r.set_command("(sd-pam)", false, &mut names);
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
