//! `uptime` (procps-ng, BusyBox) and the first line of `top`/`w`: the time of day, how long the
//! host has been up, the number of users and the load averages.
//!
//! Format, as procps-ng's `sprint_uptime` prints it: the time of day `HH:MM:SS`, `up`, then the
//! time up — `N day[s], ` when a day has passed, then `H:MM` or `M min` —, `N user[s]` (procps-ng
//! 4.0 prints `0 user`), and `load average: 1m, 5m, 15m`. Seen in procps-ng 3.3 (CentOS 7.7 and
//! Ubuntu 18.04 captures in kellyjonbrazil/jc's test suite, Ubuntu captures in canonical/hotsos's)
//! and 4.0.2 (Debian 12, captured). The label is translated in other locales, which this parser
//! does not claim. Time up is only as precise as printed: minutes.
//!
//! `/proc/uptime` gives the same quantity to the hundredth of a second: see
//! [`crate::proc::uptime`].
//!
//! Sample input (procps-ng 3.3.12):
//! ```text
//!  19:43:06 up 2 days, 19:32,  2 users,  load average: 0.00, 0.00, 0.00
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, ParseError, Parsed, Sniff};
use serde::Serialize;

/// How long the host had been up when the output was taken.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Uptime {
    /// 1-based input line.
    pub line: usize,
    /// Time up, seconds (to the minute for `uptime`, to the hundredth for `/proc/uptime`).
    pub seconds: f64,
    /// Time of day printed (`19:43:06`), host local time; `None` for `/proc/uptime`.
    pub time_of_day: Option<String>,
    /// Users logged in, when printed.
    pub users: Option<u32>,
    /// Load averages over 1, 5 and 15 minutes, when printed.
    pub load_average: Option<[f64; 3]>,
}

/// `H:MM:SS` or `HH:MM:SS`.
fn is_time_of_day(t: &str) -> bool {
    let parts: Vec<&str> = t.split(':').collect();
    parts.len() == 3
        && (1..=2).contains(&parts[0].len())
        && parts[1..].iter().all(|p| p.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn number(t: &str) -> Option<u64> {
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// Reads one line: `Ok` with the record, or why it is not an uptime line.
fn read(n: usize, line: &str) -> Result<Uptime, String> {
    let bad = || {
        format!(
            "expected `HH:MM:SS up …, load average: …`, found `{}`",
            excerpt(line)
        )
    };
    let line = line.trim();
    // `top - 12:00:01 up …` (the first line of top) carries the same fields.
    let line = line.strip_prefix("top - ").unwrap_or(line);
    let (clock, rest) = line.split_once(' ').ok_or_else(bad)?;
    if !is_time_of_day(clock) {
        return Err(bad());
    }
    let rest = rest.trim_start().strip_prefix("up ").ok_or_else(bad)?;
    let (head, loads) = rest.split_once("load average:").ok_or_else(bad)?;
    let mut seconds = 0u64;
    let mut users = None;
    let mut duration_seen = false;
    // `count` units of `unit` seconds added to the uptime; an uptime beyond u64 seconds is no
    // uptime.
    let add = |seconds: u64, count: &str, unit: u64| {
        number(count)
            .and_then(|c| c.checked_mul(unit))
            .and_then(|s| seconds.checked_add(s))
            .ok_or_else(bad)
    };
    for part in head.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let words: Vec<&str> = part.split_whitespace().collect();
        match words.as_slice() {
            [d, "day" | "days"] => seconds = add(seconds, d, 86_400)?,
            [m, "min" | "mins"] => {
                seconds = add(seconds, m, 60)?;
                duration_seen = true;
            }
            [u, "user" | "users"] => {
                users = Some(u32::try_from(number(u).ok_or_else(bad)?).map_err(|_| bad())?)
            }
            [hm] if hm.contains(':') => {
                let (h, m) = hm.split_once(':').ok_or_else(bad)?;
                if m.len() != 2 {
                    return Err(bad());
                }
                seconds = add(add(seconds, h, 3600)?, m, 60)?;
                duration_seen = true;
            }
            _ => return Err(bad()),
        }
    }
    if !duration_seen && seconds == 0 {
        return Err(bad());
    }
    let loads: Vec<f64> = loads
        .split(", ")
        .map(crate::common::parse_num)
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let [a, b, c] = loads.as_slice() else {
        return Err(bad());
    };
    if ![a, b, c].iter().all(|x| x.is_finite() && **x >= 0.0) {
        return Err(bad());
    }
    Ok(Uptime {
        line: n,
        seconds: seconds as f64,
        time_of_day: Some(clock.to_string()),
        users,
        load_average: Some([*a, *b, *c]),
    })
}

/// An `uptime` output?
///
/// `Yes` when the first non-blank line is a whole `HH:MM:SS up …, load average: a, b, c` line
/// (time of day, a duration, three load averages) and nothing else follows; `No` otherwise (a
/// `top` or `w` output has more lines and is not this kind).
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match (lines.next(), lines.next()) {
        (Some((first, true)), None) if !first.trim_start().starts_with("top - ") => {
            if read(1, first).is_ok() {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
        _ => Sniff::No,
    }
}

/// Parses an `uptime` output.
///
/// Errors: [`ParseError::Unusable`] when its first non-blank line is not an uptime line (an
/// empty input included). Further lines are ignored.
pub fn parse(text: &str) -> Result<Parsed<Uptime>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "empty"));
    };
    let value = read(n, line).map_err(|why| ParseError::unusable(Some(n), why))?;
    Ok(Parsed {
        value,
        issues: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/uptime/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn every_duration_form() {
        for (file, seconds, users, load) in [
            (
                "captured-procps-debian12-minutes.txt",
                13 * 60,
                0,
                [3.94, 4.63, 2.58],
            ),
            (
                "hotsos__kubernetes-sos_commands-host-uptime.txt",
                25 * 60,
                1,
                [0.83, 0.73, 0.76],
            ),
            (
                "hotsos__openstack-sos_commands-host-uptime.txt",
                17 * 3600 + 41 * 60,
                2,
                [3.58, 3.27, 2.58],
            ),
            (
                "jc__centos-7.7-uptime.out",
                16 * 3600 + 3 * 60,
                2,
                [0.00, 0.01, 0.05],
            ),
            (
                "jc__ubuntu-18.04-uptime.out",
                2 * 86_400 + 19 * 3600 + 32 * 60,
                2,
                [0.0, 0.0, 0.0],
            ),
        ] {
            let text = fixture(file);
            assert_eq!(sniff(&text), Sniff::Yes, "{file}");
            let u = parse(&text).unwrap().value;
            assert_eq!(u.seconds, seconds as f64, "{file}");
            assert_eq!(u.users, Some(users), "{file}");
            assert_eq!(u.load_average, Some(load), "{file}");
        }
    }

    #[test]
    fn other_text_is_refused() {
        for t in [
            "",
            "12345\n",
            "up 3 days\n",
            "10:00:00 up 3 days, load average: 1, 2\n",
        ] {
            assert_eq!(sniff(t), Sniff::No, "{t:?}");
            assert!(parse(t).is_err(), "{t:?}");
        }
        // A `top` batch output starts with the same line but is not an `uptime` output.
        let top =
            "top - 10:25:20 up 16:03,  2 users,  load average: 0.00, 0.01, 0.05\nTasks: 1 total\n";
        assert_eq!(sniff(top), Sniff::No);
        assert_eq!(
            parse(top).unwrap().value.seconds,
            (16 * 3600 + 3 * 60) as f64
        );
    }
}
