//! `/proc/uptime`: seconds since boot, and the idle time summed over CPUs.
//!
//! Format (`Documentation/filesystems/proc.rst`, table 1-5: "uptime — Wall clock since boot,
//! combined idle time of all cpus"; printed by `uptime_proc_show` in `fs/proc/uptime.c` as
//! `%lu.%02lu %lu.%02lu`): two decimals with two digits after the point. A file of two numbers
//! has no structure to recognise, so this kind comes from its path only (no sniffer).
//!
//! Sample input (Linux 6.18): `810.03 204.13`.

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use crate::procs::uptime::Uptime;

/// `digits.dd`.
fn seconds(t: &str) -> Option<f64> {
    let (i, f) = t.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(i) && f.len() == 2 && digits(f))
        .then(|| t.parse().ok())
        .flatten()
}

/// Parses `/proc/uptime` into an [`Uptime`] without time of day, users or load.
///
/// Errors: [`ParseError::Unusable`] unless the first non-blank line is two `N.NN` numbers.
pub fn parse(text: &str) -> Result<Parsed<Uptime>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "empty"));
    };
    let toks: Vec<&str> = line.split_whitespace().collect();
    match toks.as_slice() {
        [up, idle] if seconds(idle).is_some() => match seconds(up) {
            Some(s) => Ok(Parsed {
                value: Uptime {
                    line: n,
                    seconds: s,
                    time_of_day: None,
                    users: None,
                    load_average: None,
                },
                issues: Vec::new(),
            }),
            None => Err(ParseError::unusable(
                Some(n),
                format!("expected `N.NN N.NN`, found `{}`", excerpt(line)),
            )),
        },
        _ => Err(ParseError::unusable(
            Some(n),
            format!("expected `N.NN N.NN`, found `{}`", excerpt(line)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_on_linux_6_18() {
        let text = include_str!("../../tests/fixtures/proc-uptime/captured-linux-6.18.txt");
        assert_eq!(parse(text).unwrap().value.seconds, 810.03);
        for bad in ["", "810\n", "810.03\n", "abc def\n", "1.5 2.25\n"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
