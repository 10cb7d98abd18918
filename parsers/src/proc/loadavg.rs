//! `/proc/loadavg`: the load averages, the runnable and total scheduling entities, the last PID.
//!
//! Format (`Documentation/filesystems/proc.rst`, table 1-4 "Kernel info in /proc": "loadavg —
//! Load average of last 1, 5 & 15 minutes; number of processes currently runnable (running or on
//! ready queue); total number of processes in system; last pid created"; printed by
//! `loadavg_proc_show` in `fs/proc/loadavg.c` as `%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d`). On
//! Linux the load average counts tasks in uninterruptible sleep (`D`, mostly waiting for I/O)
//! as well as runnable ones, so a high load is not by itself CPU demand. One line of numbers has
//! no structure of its own to recognise: this kind comes from its path only (no sniffer).
//!
//! Seen on Linux 6.18 (`6.18.44-fc-v1098`, Debian 12 guest).
//!
//! Sample input (Linux 6.18, 2 CPUs under a build):
//! ```text
//! 4.19 2.32 1.26 7/190 23833
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// One read of `/proc/loadavg`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loadavg {
    /// 1-based input line.
    pub line: usize,
    /// Load averages over 1, 5 and 15 minutes (tasks runnable or in uninterruptible sleep).
    pub load_average: [f64; 3],
    /// Scheduling entities runnable at the time of the read (the `7` of `7/190`).
    pub runnable: u32,
    /// Scheduling entities (threads) that exist (the `190` of `7/190`).
    pub total: u32,
    /// PID most recently created.
    pub last_pid: u32,
}

/// `digits.dd`, as the kernel prints a load.
fn load(t: &str) -> Option<f64> {
    let (i, f) = t.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(i) && f.len() == 2 && digits(f))
        .then(|| t.parse().ok())
        .flatten()
}

fn count(t: &str) -> Option<u32> {
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// Parses `/proc/loadavg`.
///
/// Errors: [`ParseError::Unusable`] unless the first non-blank line is three `N.NN` loads, a
/// `R/T` pair and a PID.
pub fn parse(text: &str) -> Result<Parsed<Loadavg>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "empty"));
    };
    let bad = || {
        ParseError::unusable(
            Some(n),
            format!(
                "expected `L1 L5 L15 RUNNABLE/TOTAL LASTPID`, found `{}`",
                excerpt(line)
            ),
        )
    };
    let toks: Vec<&str> = line.split_whitespace().collect();
    let [l1, l5, l15, rt, pid] = toks.as_slice() else {
        return Err(bad());
    };
    let (r, t) = rt.split_once('/').ok_or_else(bad)?;
    match (
        load(l1),
        load(l5),
        load(l15),
        count(r),
        count(t),
        count(pid),
    ) {
        (Some(a), Some(b), Some(c), Some(runnable), Some(total), Some(last_pid)) => {
            Ok(Parsed::clean(Loadavg {
                line: n,
                load_average: [a, b, c],
                runnable,
                total,
                last_pid,
            }))
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOADED: &str = include_str!("../../tests/fixtures/loadavg/captured-loaded.txt");
    const OTHER: &str = include_str!("../../tests/fixtures/loadavg/captured.txt");

    #[test]
    fn reads_the_captures() {
        let p = parse(LOADED).unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(
            p.value,
            Loadavg {
                line: 1,
                load_average: [4.19, 2.32, 1.26],
                runnable: 7,
                total: 190,
                last_pid: 23833,
            }
        );
        let o = parse(OTHER).unwrap().value;
        assert_eq!(o.load_average, [4.39, 2.84, 1.52]);
        assert_eq!((o.runnable, o.total, o.last_pid), (6, 180, 27107));
    }

    #[test]
    fn refuses_other_shapes() {
        assert!(parse("").is_err());
        assert!(parse("810.03 204.13\n").is_err());
        assert!(parse("4.19 2.32 1.26 7-190 23833\n").is_err());
        assert!(parse("4.19 2.32 1.26 7/190\n").is_err());
        assert!(parse("4.1 2.32 1.26 7/190 1\n").is_err());
    }
}
