//! `mpstat -P ALL` from sysstat: per-CPU utilisation, text and `-o JSON`.
//!
//! Only the CPU utilisation table is read (the one whose header has `%usr`/`%user` and
//! `%idle`); the other tables of `mpstat -A` (`intr/s`, per-IRQ, per-softirq, `NODE`) are
//! recognised and skipped without issues. `Average:` rows are kept apart from interval rows.
//!
//! Variants: sysstat 9 (`%user %nice %sys %iowait %irq %soft %steal %guest %idle`), 10+ (`%usr …
//! %gnice %idle`); 24-hour (`12:53:21`) and 12-hour (`03:15:06 PM`) clocks; decimal commas;
//! offline CPUs (rows missing or all-zero); `-o JSON` (`sysstat.hosts[0].statistics[].cpu-load[]`
//! with keys `cpu`, `usr`, `nice`, `sys`, `iowait`, `irq`, `soft`, `steal`, `guest`, `gnice`,
//! `idle`), including a document cut short by a timeout (complete samples kept) and the JSON of
//! 11.5.1 under a locale with a decimal comma (`"usr": 16,00`: repaired, with an issue on each
//! repaired line; see `sysstat::json`); `-T` topology
//! columns (`CORE SOCK NODE`, blank on the `all` row); `-U` epoch-second timestamps; runs that
//! cross midnight (see [`MpstatInterval::time`]).
//!
//! Sample input (sysstat 12.x `mpstat -P ALL 1 1`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST)    06/01/20    _x86_64_    (9 CPU)
//!
//! 12:53:21     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
//! 12:53:21     all    2.15   12.50    1.84    0.12    0.00    0.61    0.00    0.00    0.00   82.88
//! 12:53:21       0    0.96    0.00    0.96    0.00    0.00    0.00    0.00    0.00    0.00   98.08
//! ```

use crate::common::{
    excerpt, first_non_blank, head_lines, is_number, numbered_lines, parse_sysstat_header,
    parse_time_of_day, read_num, strip_bom, Ceiling, Date, Issues, LineIssue, NumError, ParseError,
    Parsed, Sniff, SysstatHeader,
};
use crate::sysstat::json::{
    finish_walk, repaired, walk_sysstat, Cursor, Fields, HostFields, Scalar,
};
use crate::{
    common::{parse_timestamp_str, Timestamp},
    sysstat::json::sniff_json,
};
use serde::Serialize;

/// A whole `mpstat` output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Mpstat {
    /// The sysstat banner (text) or JSON host record.
    pub header: Option<SysstatHeader>,
    /// One entry per sampling interval, in input order.
    pub intervals: Vec<MpstatInterval>,
    /// The `Average:` rows, when printed.
    pub averages: Vec<CpuRow>,
}

/// The CPU rows of one sampling interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MpstatInterval {
    /// End time of the interval as printed on its rows. The date is the banner's (JSON: the host
    /// record's), moved one day on each time the clock goes backwards (the run crossed midnight);
    /// with `-U` (seconds since the epoch) date and time are UTC.
    pub time: Option<Timestamp>,
    /// 1-based input line of the interval's header line (JSON: the sample's first line).
    pub line: usize,
    /// One row per CPU, `all` first when printed.
    pub rows: Vec<CpuRow>,
}

/// Which CPU a row describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum CpuId {
    /// The `all` row: mean over online CPUs.
    All,
    /// One logical CPU by number.
    Cpu(u32),
}

/// Utilisation of one CPU over one interval, each in % of that CPU's time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuRow {
    /// The CPU.
    pub cpu: CpuId,
    /// 1-based input line of the row.
    pub line: usize,
    /// `%usr` (`%user` in sysstat 9).
    pub usr_pct: Option<f64>,
    /// `%nice`.
    pub nice_pct: Option<f64>,
    /// `%sys` (`%system`).
    pub sys_pct: Option<f64>,
    /// `%iowait`.
    pub iowait_pct: Option<f64>,
    /// `%irq`: hardware interrupt handling.
    pub irq_pct: Option<f64>,
    /// `%soft`: software interrupt (softirq) handling, e.g. `NET_RX`.
    pub soft_pct: Option<f64>,
    /// `%steal`: time stolen by the hypervisor.
    pub steal_pct: Option<f64>,
    /// `%guest`.
    pub guest_pct: Option<f64>,
    /// `%gnice`.
    pub gnice_pct: Option<f64>,
    /// `%idle`.
    pub idle_pct: Option<f64>,
}

/// Text or JSON `mpstat` CPU output?
///
/// `Yes` on a header line only mpstat prints: a time (or `Average:`), `CPU` or `NODE`, and either
/// mpstat's utilisation columns (`%iowait` directly followed by `%irq`; sar puts `%steal` there and
/// says `%user`/`%system` in its default report) or its `-I` columns (`intr/s`, `HI/s …`,
/// `0/s …`); also a sysstat JSON document with `cpu-load` or interrupt members. `Unsure` on a bare
/// sysstat banner; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) == Some(b'{') {
        return sniff_json(
            head,
            &[
                "\"cpu-load\"",
                "\"node-load\"",
                "\"sum-interrupts\"",
                "\"individual-interrupts\"",
                "\"soft-interrupts\"",
            ],
        );
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
        if let Some((_, used)) = split_prefix(&toks) {
            if is_mpstat_header(&toks[used..]) {
                return Sniff::Yes;
            }
        }
        if toks[0] == "Linux" && parse_sysstat_header(line, 0).is_some_and(|h| h.date.is_some()) {
            banner = true;
        } else if complete {
            other = true;
        }
    }
    if banner && !other {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// Parses `mpstat` text or `-o JSON` output.
///
/// Errors: [`ParseError::Unusable`] when no CPU utilisation table is found.
pub fn parse(text: &str) -> Result<Parsed<Mpstat>, ParseError> {
    let mut parsed = match first_non_blank(text) {
        None => return Err(ParseError::unusable(None, "input is empty")),
        Some(b'{') => parse_json(text)?,
        Some(_) => parse_text(text)?,
    };
    drop_impossible_cpus(&mut parsed);
    Ok(parsed)
}

/// Removes rows whose CPU number is not below the banner's CPU count (`(9 CPU)` numbers CPUs
/// 0–8), each with an issue: such a row cannot come from the machine the banner describes.
fn drop_impossible_cpus(p: &mut Parsed<Mpstat>) {
    let Some(count) = p.value.header.as_ref().and_then(|h| h.cpus) else {
        return;
    };
    let mut dropped = Vec::new();
    let mut keep = |r: &CpuRow| match r.cpu {
        CpuId::Cpu(n) if n >= count => {
            dropped.push((r.line, n));
            false
        }
        _ => true,
    };
    for iv in &mut p.value.intervals {
        iv.rows.retain(&mut keep);
    }
    p.value.averages.retain(&mut keep);
    for (line, n) in dropped.into_iter().take(100) {
        p.issues.push(LineIssue::new(
            line,
            format!("CPU {n} does not exist on a {count}-CPU machine (banner); row ignored"),
        ));
    }
}

/// What starts an mpstat line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Prefix {
    /// `12:53:21` or `03:15:06 PM`: seconds since midnight.
    Time(u32),
    /// `-U`: seconds since the epoch.
    Epoch(u64),
    /// `Average:` (or its translation).
    Average,
}

/// Reads the time (or `Average:`) at the start of a line; returns it and how many tokens it used.
fn split_prefix(toks: &[&str]) -> Option<(Prefix, usize)> {
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

/// A header line (after the time) that only mpstat prints.
fn is_mpstat_header(rest: &[&str]) -> bool {
    let (Some(&what), Some(&col)) = (rest.first(), rest.get(1)) else {
        return false;
    };
    if what != "CPU" && what != "NODE" {
        return false;
    }
    let utilisation = rest.windows(2).any(|w| w == ["%iowait", "%irq"]);
    let interrupts = what == "CPU"
        && (col == "intr/s"
            || col == "HI/s"
            || col
                .strip_suffix("/s")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())));
    utilisation || interrupts
}

/// A utilisation column of [`CpuRow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CpuCol {
    Usr,
    Nice,
    Sys,
    Iowait,
    Irq,
    Soft,
    Steal,
    Guest,
    Gnice,
    Idle,
    /// `-T` topology columns (`CORE`, `SOCK`, `NODE`): blank on the `all` row.
    Topology,
    /// Anything else (e.g. `intr/s` at the end of the sysstat ≤ 8 CPU table).
    Other,
}

/// Column by name, `%usr` in text or `usr` in JSON.
fn cpu_col(name: &str) -> CpuCol {
    match name.strip_prefix('%').unwrap_or(name) {
        "usr" | "user" => CpuCol::Usr,
        "nice" => CpuCol::Nice,
        "sys" | "system" => CpuCol::Sys,
        "iowait" => CpuCol::Iowait,
        "irq" => CpuCol::Irq,
        "soft" => CpuCol::Soft,
        "steal" => CpuCol::Steal,
        "guest" => CpuCol::Guest,
        "gnice" => CpuCol::Gnice,
        "idle" => CpuCol::Idle,
        "CORE" | "SOCK" | "NODE" | "core" | "socket" | "node" => CpuCol::Topology,
        _ => CpuCol::Other,
    }
}

impl CpuCol {
    /// Utilisation columns are shares of CPU time; the rest are counts.
    fn ceiling(self) -> Ceiling {
        match self {
            CpuCol::Topology | CpuCol::Other => Ceiling::Counter,
            _ => Ceiling::CpuShare,
        }
    }

    /// The header text, for an issue.
    fn label(self) -> &'static str {
        match self {
            CpuCol::Usr => "%usr",
            CpuCol::Nice => "%nice",
            CpuCol::Sys => "%sys",
            CpuCol::Iowait => "%iowait",
            CpuCol::Irq => "%irq",
            CpuCol::Soft => "%soft",
            CpuCol::Steal => "%steal",
            CpuCol::Guest => "%guest",
            CpuCol::Gnice => "%gnice",
            CpuCol::Idle => "%idle",
            CpuCol::Topology => "topology",
            CpuCol::Other => "column",
        }
    }
}

impl CpuRow {
    fn empty(cpu: CpuId, line: usize) -> Self {
        CpuRow {
            cpu,
            line,
            usr_pct: None,
            nice_pct: None,
            sys_pct: None,
            iowait_pct: None,
            irq_pct: None,
            soft_pct: None,
            steal_pct: None,
            guest_pct: None,
            gnice_pct: None,
            idle_pct: None,
        }
    }

    fn slot(&mut self, col: CpuCol) -> Option<&mut Option<f64>> {
        Some(match col {
            CpuCol::Usr => &mut self.usr_pct,
            CpuCol::Nice => &mut self.nice_pct,
            CpuCol::Sys => &mut self.sys_pct,
            CpuCol::Iowait => &mut self.iowait_pct,
            CpuCol::Irq => &mut self.irq_pct,
            CpuCol::Soft => &mut self.soft_pct,
            CpuCol::Steal => &mut self.steal_pct,
            CpuCol::Guest => &mut self.guest_pct,
            CpuCol::Gnice => &mut self.gnice_pct,
            CpuCol::Idle => &mut self.idle_pct,
            CpuCol::Topology | CpuCol::Other => return None,
        })
    }
}

/// `all` or a CPU number.
fn cpu_id(s: &str) -> Option<CpuId> {
    if s == "all" {
        Some(CpuId::All)
    } else {
        s.parse().ok().map(CpuId::Cpu)
    }
}

/// Turns times of day into timestamps, moving the date on when the clock wraps past midnight.
struct Clock {
    base: Option<Date>,
    days: i64,
    last: Option<u32>,
}

impl Clock {
    fn new(base: Option<Date>) -> Self {
        Clock {
            base,
            days: 0,
            last: None,
        }
    }

    fn of_day(&mut self, seconds_of_day: u32) -> Timestamp {
        if self.last.is_some_and(|l| seconds_of_day < l) {
            self.days += 1;
        }
        self.last = Some(seconds_of_day);
        Timestamp {
            date: self.base.map(|d| d.add_days(self.days)),
            seconds_of_day,
        }
    }

    fn of_prefix(&mut self, p: Prefix) -> Option<Timestamp> {
        match p {
            Prefix::Time(s) => Some(self.of_day(s)),
            Prefix::Epoch(s) => Some(Timestamp {
                date: Some(Date::from_days_since_epoch((s / 86_400) as i64)),
                seconds_of_day: (s % 86_400) as u32,
            }),
            Prefix::Average => None,
        }
    }
}

/// The table the following rows belong to.
enum Table {
    /// No header seen yet.
    None,
    /// The CPU utilisation table.
    Cpu {
        cols: Vec<CpuCol>,
        topology: usize,
        line: usize,
        average: bool,
    },
    /// Another mpstat table (NODE, intr/s, per-IRQ, per-softirq): rows are skipped.
    Other,
}

fn parse_text(text: &str) -> Result<Parsed<Mpstat>, ParseError> {
    let mut out = Mpstat::default();
    let mut issues = Issues::default();
    let mut table = Table::None;
    let mut clock = Clock::new(None);
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    for (n, line) in numbered_lines(strip_bom(text)) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        let Some(&first) = toks.first() else { continue };
        if first == "Linux" {
            if let Some(h) = parse_sysstat_header(line, n) {
                if out.header.is_none() {
                    clock = Clock::new(h.date);
                    out.header = Some(h);
                }
                table = Table::None;
                continue;
            }
        }
        let Some((prefix, used)) = split_prefix(&toks) else {
            issues.push(n, || {
                format!(
                    "expected a time (`12:53:21`, `03:15:06 PM`) or `Average:` at the start of \
                     the line, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let rest = &toks[used..];
        let Some(&what) = rest.first() else {
            issues.push(n, || {
                "expected a CPU number or a header after the time".to_string()
            });
            continue;
        };
        let Some(cpu) = cpu_id(what) else {
            // A header line.
            let cols = rest.get(1..).unwrap_or(&[]);
            if what == "CPU"
                && cols.contains(&"%idle")
                && (cols.contains(&"%usr") || cols.contains(&"%user"))
            {
                let cols: Vec<CpuCol> = cols.iter().map(|c| cpu_col(c)).collect();
                let topology = cols.iter().filter(|c| **c == CpuCol::Topology).count();
                let average = prefix == Prefix::Average;
                if !average {
                    drop_empty_interval(&mut out, &mut issues);
                    out.intervals.push(MpstatInterval {
                        time: None,
                        line: n,
                        rows: Vec::new(),
                    });
                }
                table = Table::Cpu {
                    cols,
                    topology,
                    line: n,
                    average,
                };
            } else if !cols.is_empty() && cols.iter().all(|c| !is_number(c)) {
                table = Table::Other;
            } else {
                issues.push(n, || {
                    format!(
                        "expected a CPU number, `all` or a header after the time, found `{}`",
                        excerpt(line)
                    )
                });
            }
            continue;
        };
        let Table::Cpu {
            cols,
            topology,
            line: header_line,
            average,
        } = &table
        else {
            if let Table::None = table {
                issues.push(n, || {
                    format!(
                        "expected a header line (`CPU %usr …`) before this row: `{}`",
                        excerpt(line)
                    )
                });
            }
            continue;
        };
        let values = &rest[1..];
        let ncols = cols.len();
        let skip_topology = if values.len() == ncols {
            false
        } else if cpu == CpuId::All && *topology > 0 && values.len() + topology == ncols {
            true
        } else {
            let (found, hl) = (values.len(), *header_line);
            issues.push(n, || {
                format!(
                    "expected {ncols} values after the CPU as in the header on line {hl}, found \
                     {found}: `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let mut row = CpuRow::empty(cpu, n);
        let mut bad = None;
        let mut read = 0;
        let used_cols = cols
            .iter()
            .filter(|c| !(skip_topology && **c == CpuCol::Topology));
        for (col, tok) in used_cols.zip(values) {
            match read_num(tok, col.ceiling()) {
                Ok(v) => {
                    read += 1;
                    if let Some(slot) = row.slot(*col) {
                        *slot = Some(v);
                    }
                }
                Err(NumError::NotANumber) => {
                    bad.get_or_insert(*tok);
                }
                Err(e) => {
                    read += 1;
                    issues.push(n, || e.message(col.label(), tok));
                }
            }
        }
        if let Some(tok) = bad {
            if read == 0 {
                issues.push(n, || {
                    format!("expected numbers after the CPU, found `{}`", excerpt(line))
                });
                continue;
            }
            issues.push(n, || format!("expected a number, found `{tok}`"));
        }
        match prefix {
            Prefix::Average => out.averages.push(row),
            _ if *average => issues.push(n, || {
                "a timed row under an `Average:` header: expected `Average:`".to_string()
            }),
            _ => {
                if let Some(iv) = out.intervals.last_mut() {
                    if iv.time.is_none() {
                        iv.time = clock.of_prefix(prefix);
                    }
                    iv.rows.push(row);
                }
            }
        }
    }
    drop_empty_interval(&mut out, &mut issues);
    if out.intervals.is_empty() && out.averages.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no mpstat CPU utilisation table found (no `CPU %usr … %idle` header followed by rows)",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Removes a trailing interval whose header had no rows.
fn drop_empty_interval(out: &mut Mpstat, issues: &mut Issues) {
    if out.intervals.last().is_some_and(|iv| iv.rows.is_empty()) {
        if let Some(iv) = out.intervals.pop() {
            issues.push(iv.line, || {
                "CPU header not followed by any CPU row (output cut short?)".to_string()
            });
        }
    }
}

/// The row of a `cpu-load` object; values beyond their ceiling are left out with an issue.
fn row_from_json(f: &Fields<'_>, line: usize, issues: &mut Issues) -> Option<CpuRow> {
    let cpu = match f.get("cpu")? {
        Scalar::Str(s) => cpu_id(s)?,
        Scalar::Num(n) if *n >= 0.0 && *n <= f64::from(u32::MAX) => CpuId::Cpu(*n as u32),
        _ => return None,
    };
    let mut row = CpuRow::empty(cpu, line);
    for (k, v) in &f.0 {
        let col = cpu_col(k);
        if let Some(slot) = row.slot(col) {
            let read = v.read(col.ceiling());
            if let Err(e @ NumError::Beyond(_)) = read {
                issues.push(line, || e.message(k, &v.text()));
            }
            *slot = read.ok();
        }
    }
    Some(row)
}

fn parse_json(text: &str) -> Result<Parsed<Mpstat>, ParseError> {
    let mut issues = Issues::default();
    let text = repaired(strip_bom(text), &mut issues);
    let mut cur = Cursor::new(&text);
    let mut host = HostFields::default();
    let mut intervals: Vec<MpstatInterval> = Vec::new();
    let walked = walk_sysstat(&mut cur, &mut host, |cur, host| {
        let mut clock = Clock::new(host.date);
        cur.array(|cur, _| {
            let mut iv = MpstatInterval {
                time: None,
                line: cur.line(),
                rows: Vec::new(),
            };
            let mut has_cpu = false;
            cur.object(|cur, key| match key {
                "timestamp" => {
                    let line = cur.line();
                    match cur.value::<Scalar>()? {
                        Some(Scalar::Str(s)) => {
                            iv.time = parse_timestamp_str(&s, None).map(|t| match t.date {
                                Some(_) => t,
                                None => clock.of_day(t.seconds_of_day),
                            });
                            if iv.time.is_none() {
                                issues.push(line, || {
                                    format!("unreadable timestamp `{}`", excerpt(&s))
                                });
                            }
                        }
                        Some(Scalar::Num(secs)) if (0.0..1e12).contains(&secs) => {
                            iv.time = clock.of_prefix(Prefix::Epoch(secs as u64));
                        }
                        _ => {}
                    }
                    Ok(())
                }
                "cpu-load" => {
                    has_cpu = true;
                    cur.array(|cur, _| {
                        let line = cur.line();
                        match cur
                            .value::<Fields>()?
                            .and_then(|f| row_from_json(&f, line, &mut issues))
                        {
                            Some(row) => iv.rows.push(row),
                            None => issues.push(line, || {
                                "expected a CPU object with a `cpu` member".to_string()
                            }),
                        }
                        Ok(())
                    })
                }
                _ => cur.skip(),
            })?;
            if has_cpu {
                intervals.push(iv);
            }
            Ok(())
        })
    });
    finish_walk(
        walked.err(),
        intervals.len(),
        "mpstat",
        "sysstat",
        "sample with `cpu-load`",
        &mut issues,
    )?;
    Ok(Parsed {
        value: Mpstat {
            header: host.into_header(),
            intervals,
            averages: Vec::new(),
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sar_headers_are_not_mpstat() {
        let sar_all = [
            "CPU", "%usr", "%nice", "%sys", "%iowait", "%steal", "%irq", "%idle",
        ];
        assert!(!is_mpstat_header(&sar_all));
        let sar_u = [
            "CPU", "%user", "%nice", "%system", "%iowait", "%steal", "%idle",
        ];
        assert!(!is_mpstat_header(&sar_u));
        assert!(!is_mpstat_header(&["CPU", "total/s", "dropd/s"]));
        assert!(is_mpstat_header(&["CPU", "intr/s"]));
        assert!(is_mpstat_header(&["CPU", "0/s", "8/s"]));
    }

    #[test]
    fn topology_columns_and_midnight() {
        // `mpstat -T`: the `all` row leaves CORE/SOCK/NODE blank. The second interval crosses
        // midnight.
        let text = "Linux 6.1.0 (db1) \t12/31/2023 \t_x86_64_\t(2 CPU)\n\n\
23:59:59     CPU CORE SOCK NODE    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
00:00:00     all                   1.00    0.00    1.00    0.00    0.00    0.00    0.00    0.00    0.00   98.00\n\
00:00:00       0    0    0    0    2.00    0.00    1.00    0.00    0.00    0.00    0.00    0.00    0.00   97.00\n";
        let p = parse(text).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let iv = &p.value.intervals[0];
        assert_eq!(iv.rows[0].idle_pct, Some(98.0));
        assert_eq!(iv.rows[1].usr_pct, Some(2.0));
        // The first row time is 00:00:00 on the banner date (the clock has not wrapped yet).
        assert_eq!(
            iv.time.and_then(|t| t.date),
            Some(Date {
                year: 2023,
                month: 12,
                day: 31
            })
        );
        let mut clock = Clock::new(Some(Date {
            year: 2023,
            month: 12,
            day: 31,
        }));
        clock.of_day(86_399);
        assert_eq!(
            clock.of_day(1).date,
            Some(Date {
                year: 2024,
                month: 1,
                day: 1
            })
        );
    }

    #[test]
    fn epoch_seconds_with_dash_u() {
        let text = "Linux 6.1.0 (db1) \t06/01/2020 \t_x86_64_\t(1 CPU)\n\n\
1590969600     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
1590969601     all    1.00    0.00    1.00    0.00    0.00    0.00    0.00    0.00    0.00   98.00\n";
        let p = parse(text).unwrap();
        assert_eq!(
            p.value.intervals[0].time,
            Some(Timestamp {
                date: Some(Date {
                    year: 2020,
                    month: 6,
                    day: 1
                }),
                seconds_of_day: 1
            })
        );
    }
}
