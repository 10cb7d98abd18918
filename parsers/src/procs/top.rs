//! `top -b`: batch-mode frames of the system summary and the task list.
//!
//! procps-ng 3.3.10 prints `KiB Mem :`, 3.3.16+ `MiB Mem :`; one frame per iteration:
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

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, split_last, strip_bom, Issues, ParseError,
    Parsed, Sniff,
};
use serde::Serialize;

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
    /// `TIME+` as printed (`TIME` when only that column is shown).
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
    let (num, mult) = match split_last(s)? {
        (n, 'k' | 'K') => (n, 1.0),
        (n, 'm' | 'M') => (n, 1024.0),
        (n, 'g' | 'G') => (n, 1024.0 * 1024.0),
        (n, 't' | 'T') => (n, 1024.0_f64.powi(3)),
        (n, 'p' | 'P') => (n, 1024.0_f64.powi(4)),
        (n, 'e' | 'E') => (n, 1024.0_f64.powi(5)),
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
        // A comma followed by a digit is a decimal comma (`50,0 us` in `de_DE`), not a separator.
        let end = i == b.len()
            || (b[i] == b',' && !b.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
            || (b[i] == b'.'
                && b.get(i + 1).is_some_and(|c| c.is_ascii_whitespace())
                && i > 0
                && b[i - 1].is_ascii_alphabetic());
        if end {
            let part = s.get(start..i).unwrap_or("").trim();
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
        // `Spch` (Speicher) in `de_DE`.
        "Mem" | "Spch" => false,
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
                // `0.23, 0.22, 0.09`, or with decimal commas (`de_DE`) `1,68, 1,20, 3,66`.
                let mut loads: Vec<f64> = load.split(", ").filter_map(parse_num).collect();
                if loads.len() != 3 {
                    loads = load.split(',').filter_map(parse_num).collect();
                }
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
        // `%CPU(s)` in `de_DE`.
        if t.starts_with("%Cpu(s)") || t.starts_with("Cpu(s)") || t.starts_with("%CPU(s)") {
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
                    "avail Mem" | "avail Spch" => m.avail_kib = kib,
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
            // procps translates some column names (`de_DE`: `ZEIT+`, `BEFEHL`).
            header = Some(
                toks.iter()
                    .map(|s| match *s {
                        "ZEIT+" => "TIME+".to_string(),
                        "BEFEHL" => "COMMAND".to_string(),
                        other => other.to_string(),
                    })
                    .collect(),
            );
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
                "TIME+" => p.time = Some(value.to_string()),
                // With both columns (`top -b` with every field shown), `TIME+` is kept.
                "TIME" if p.time.is_none() => p.time = Some(value.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled() {
        assert_eq!(scaled_kib("104364"), Some(104_364));
        assert_eq!(scaled_kib("236m"), Some(236 * 1024));
        assert_eq!(scaled_kib("1.5g"), Some(1_572_864));
        assert_eq!(scaled_kib("2t"), Some(2 * 1024 * 1024 * 1024));
        assert_eq!(scaled_kib("x"), None);
    }

    #[test]
    fn reads_a_german_top_with_decimal_commas_and_translated_names() {
        let Parsed { value: t, issues } = parse_top(include_str!(
            "../../tests/fixtures/top/captured-top-b-n1-de_DE-procps4.0.2.txt"
        ))
        .unwrap();
        assert!(issues.is_empty(), "{issues:?}");
        let f = &t.frames[0];
        assert_eq!(f.load, Some([1.68, 1.20, 3.66]));
        let cpu = f.cpu.unwrap();
        assert_eq!(
            (cpu.us, cpu.sy, cpu.st),
            (Some(50.0), Some(50.0), Some(0.0))
        );
        assert_eq!(f.mem.unwrap().total_kib, Some(24105.0 * 1024.0));
        assert_eq!(f.swap.unwrap().avail_kib, Some(22832.1 * 1024.0));
        assert_eq!(f.processes[0].command.as_deref(), Some("yes"));
        assert_eq!(f.processes[0].cpu_pct, Some(93.8));
        assert_eq!(f.processes[0].time.as_deref(), Some("0:01.06"));
    }

    #[test]
    fn keeps_time_plus_when_every_field_is_shown() {
        // `TIME+` comes before `TIME` in the table; the hundredths are kept.
        let Parsed { value: t, .. } = parse_top(include_str!(
            "../../tests/fixtures/top/jc__top-b-allfields-ubuntu2010.txt"
        ))
        .unwrap();
        let p = &t.frames[0].processes[0];
        assert_eq!((p.pid, p.time.as_deref()), (4810, Some("0:00.02")));
        assert_eq!(p.command.as_deref(), Some("top"));
    }
}
