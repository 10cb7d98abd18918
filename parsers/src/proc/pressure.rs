//! Pressure stall information (PSI): `/proc/pressure/cpu`, `/proc/pressure/memory` and
//! `/proc/pressure/io` (Linux ≥ 4.20, with `CONFIG_PSI` and not booted with `psi=0`), and the
//! cgroup v2 `cpu.pressure`, `memory.pressure` and `io.pressure` files, which have the same
//! format.
//!
//! Format, as the kernel documents it (`Documentation/accounting/psi.rst`, "Pressure interface",
//! <https://www.kernel.org/doc/html/latest/accounting/psi.html>): one `some` line, the share of
//! time in which at least some tasks are stalled on the resource, then one `full` line, the share
//! of time in which all non-idle tasks are stalled at once (thrashing). Each has `avg10`, `avg60`
//! and `avg300`, the ratio in % over the last 10, 60 and 300 seconds (printed with two decimals),
//! and `total`, the absolute stall time since boot in µs. `/proc/pressure/cpu` has only the
//! `some` line before Linux 5.13; from 5.13 on it prints a `full` line too, which is undefined
//! at the system level and always zero (the document says so; a cgroup's `cpu.pressure` `full`
//! is meaningful). The file does not name its resource: which one it is comes from its path.
//!
//! Seen on Linux 6.18 (`6.18.44-fc-v1045`, Debian 12 guest): `some` then `full` in all three
//! files. Other keys than the four above are ignored, so that a later kernel adding one still
//! parses; each of the four is required on its line.
//!
//! Sample input (`/proc/pressure/io`, Linux 6.18):
//! ```text
//! some avg10=4.02 avg60=1.10 avg300=0.61 total=120349098
//! full avg10=4.02 avg60=1.07 avg300=0.44 total=44667247
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One read of a pressure file: its `some` and `full` lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pressure {
    /// The `some` line: time in which at least one task was stalled on the resource. `None` only
    /// when the file had no readable `some` line (an issue says so).
    pub some: Option<Stall>,
    /// The `full` line: time in which every non-idle task was stalled at once. `None` for
    /// `/proc/pressure/cpu` before Linux 5.13; always zero in `/proc/pressure/cpu` since.
    pub full: Option<Stall>,
}

/// The averages and total of one `some` or `full` line.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stall {
    /// 1-based input line.
    pub line: usize,
    /// `avg10` (%): share of the last 10 seconds spent stalled.
    pub avg10_pct: f64,
    /// `avg60` (%): share of the last 60 seconds spent stalled.
    pub avg60_pct: f64,
    /// `avg300` (%): share of the last 300 seconds spent stalled.
    pub avg300_pct: f64,
    /// `total` (µs): stall time since boot (cumulative; compare two reads for a rate).
    pub total_us: u64,
}

/// Which line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Some,
    Full,
}

/// An average as the kernel prints it (`%lu.%02lu`): digits, a dot, digits.
fn avg(v: &str) -> Option<f64> {
    let (int, frac) = v.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) {
        return None;
    }
    crate::common::parse_num(v)
}

/// A total as the kernel prints it (`%llu`).
fn total(v: &str) -> Option<u64> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
}

/// Reads one `some …`/`full …` line: which it is and its values, or why not.
fn read_line(n: usize, line: &str) -> Result<(Which, Stall), String> {
    let mut toks = line.split_ascii_whitespace();
    let which = match toks.next() {
        Some("some") => Which::Some,
        Some("full") => Which::Full,
        _ => {
            return Err(format!(
                "expected a `some` or `full` line, found `{}`",
                excerpt(line)
            ))
        }
    };
    let (mut a10, mut a60, mut a300, mut tot) = (None, None, None, None);
    for tok in toks {
        let Some((key, value)) = tok.split_once('=') else {
            return Err(format!("expected `key=value`, found `{}`", excerpt(tok)));
        };
        let bad = || format!("`{key}`: expected a number, found `{}`", excerpt(value));
        match key {
            "avg10" => a10 = Some(avg(value).ok_or_else(bad)?),
            "avg60" => a60 = Some(avg(value).ok_or_else(bad)?),
            "avg300" => a300 = Some(avg(value).ok_or_else(bad)?),
            "total" => tot = Some(total(value).ok_or_else(bad)?),
            _ => {}
        }
    }
    match (a10, a60, a300, tot) {
        (Some(avg10_pct), Some(avg60_pct), Some(avg300_pct), Some(total_us)) => Ok((
            which,
            Stall {
                line: n,
                avg10_pct,
                avg60_pct,
                avg300_pct,
                total_us,
            },
        )),
        _ => Err(format!(
            "expected `avg10=`, `avg60=`, `avg300=` and `total=`, found `{}`",
            excerpt(line)
        )),
    }
}

/// The value of `tok` when it is `key=value`.
fn value_of<'a>(tok: &'a str, key: &str) -> Option<&'a str> {
    tok.strip_prefix(key)?.strip_prefix('=')
}

/// Whether `line` is exactly `<which> avg10=N.NN avg60=N.NN avg300=N.NN total=N`, in that order.
fn exact_shape(line: &str, which: &str) -> bool {
    let toks: Vec<&str> = line.split_ascii_whitespace().collect();
    let [w, a10, a60, a300, tot] = toks.as_slice() else {
        return false;
    };
    *w == which
        && value_of(a10, "avg10").and_then(avg).is_some()
        && value_of(a60, "avg60").and_then(avg).is_some()
        && value_of(a300, "avg300").and_then(avg).is_some()
        && value_of(tot, "total").and_then(total).is_some()
}

/// A pressure file (the host's or a cgroup's: the text is the same)?
///
/// The kind table does not sniff with it: a loose PSI text may be any cgroup's, and the host's
/// `/proc/pressure/*` is known by its place only.
///
/// `Yes` when the first non-blank line is a complete `some avg10=… avg60=… avg300=… total=…`
/// line (five tokens, these four keys in this order, numbers as the kernel prints them) and
/// what follows is at most one `full` line of the same shape; `Unsure` when the head ends
/// inside a first line that starts `some avg10=`; `No` otherwise (a `cat` of several pressure
/// files, with a second `some` line, included).
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, complete)) = lines.next() else {
        return Sniff::No;
    };
    if !complete {
        return if first.trim_start().starts_with("some avg10=") {
            Sniff::Unsure
        } else {
            Sniff::No
        };
    }
    if !exact_shape(first, "some") {
        return Sniff::No;
    }
    match lines.next() {
        None => Sniff::Yes,
        Some((second, true)) if exact_shape(second, "full") => match lines.next() {
            None => Sniff::Yes,
            Some(_) => Sniff::No,
        },
        // A head cut inside the `full` line.
        Some((second, false))
            if "full".starts_with(second.trim()) || second.starts_with("full ") =>
        {
            Sniff::Yes
        }
        Some(_) => Sniff::No,
    }
}

/// Parses one pressure file.
///
/// Errors: [`ParseError::Unusable`] when no `some` or `full` line can be read (an empty file
/// included). Unreadable lines, a second `some` or `full` line, and a missing `some` line
/// become issues.
pub fn parse(text: &str) -> Result<Parsed<Pressure>, ParseError> {
    let mut issues = Issues::default();
    let mut out = Pressure {
        some: None,
        full: None,
    };
    let mut first_bad = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match read_line(n, line) {
            Ok((which, stall)) => {
                let (slot, name) = match which {
                    Which::Some => (&mut out.some, "some"),
                    Which::Full => (&mut out.full, "full"),
                };
                if let Some(prev) = slot {
                    let at = prev.line;
                    issues.push(n, || {
                        format!("a second `{name}` line (the first is line {at}): ignored")
                    });
                } else {
                    *slot = Some(stall);
                }
            }
            Err(why) => {
                first_bad.get_or_insert(n);
                issues.push(n, || why);
            }
        }
    }
    if out.some.is_none() && out.full.is_none() {
        return Err(ParseError::unusable(
            first_bad,
            "no `some avg10=… avg60=… avg300=… total=…` or `full …` line",
        ));
    }
    if out.some.is_none() {
        issues.push(0, || {
            "no `some` line (the kernel always prints one)".to_string()
        });
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPU: &str = include_str!("../../tests/fixtures/pressure/captured-cpu.txt");
    const CPU_LOADED: &str = include_str!("../../tests/fixtures/pressure/captured-cpu-loaded.txt");
    const MEMORY: &str = include_str!("../../tests/fixtures/pressure/captured-memory.txt");
    const IO: &str = include_str!("../../tests/fixtures/pressure/captured-io.txt");
    const CPU_SOME_ONLY: &str =
        include_str!("../../tests/fixtures/pressure/procfs__pressure-cpu-some-only.txt");

    fn stall(line: usize, a10: f64, a60: f64, a300: f64, total_us: u64) -> Stall {
        Stall {
            line,
            avg10_pct: a10,
            avg60_pct: a60,
            avg300_pct: a300,
            total_us,
        }
    }

    #[test]
    fn captured_files_on_linux_6_18() {
        let cpu = parse(CPU).unwrap();
        assert!(cpu.issues.is_empty());
        assert_eq!(
            cpu.value.some,
            Some(stall(1, 0.0, 0.0, 0.94, 1_954_144_499))
        );
        // Linux ≥ 5.13 prints a `full` line for the CPU, always zero at the system level.
        assert_eq!(cpu.value.full, Some(stall(2, 0.0, 0.0, 0.0, 0)));

        let loaded = parse(CPU_LOADED).unwrap().value;
        assert_eq!(
            loaded.some,
            Some(stall(1, 32.99, 8.24, 2.72, 1_959_690_227))
        );
        assert_eq!(loaded.full, Some(stall(2, 0.0, 0.0, 0.0, 0)));

        let io = parse(IO).unwrap();
        assert!(io.issues.is_empty());
        assert_eq!(io.value.some, Some(stall(1, 0.0, 0.0, 0.08, 121_251_827)));
        assert_eq!(io.value.full, Some(stall(2, 0.0, 0.0, 0.06, 45_535_933)));

        let memory = parse(MEMORY).unwrap().value;
        assert_eq!(memory.some, Some(stall(1, 0.0, 0.0, 0.0, 0)));
        assert_eq!(memory.full, Some(stall(2, 0.0, 0.0, 0.0, 0)));
    }

    #[test]
    fn cpu_before_linux_5_13_has_no_full_line() {
        // prometheus/procfs's `TestPSIStats/cpu`: Avg10 0.1, Avg60 2.0, Avg300 3.85, Total 15,
        // and no `full` stats.
        let p = parse(CPU_SOME_ONLY).unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(p.value.some, Some(stall(1, 0.1, 2.0, 3.85, 15)));
        assert_eq!(p.value.full, None);
    }

    #[test]
    fn the_sniffer_wants_the_whole_shape() {
        for f in [CPU, CPU_LOADED, MEMORY, IO, CPU_SOME_ONLY] {
            assert_eq!(sniff(f), Sniff::Yes, "{f}");
        }
        assert_eq!(sniff(&CPU[..30]), Sniff::Unsure);
        assert_eq!(sniff(&IO[..70]), Sniff::Yes);
        for text in [
            "",
            "some\n",
            "some avg10=0.00\n",
            "some avg10=0.00 avg60=0.00 avg300=0.00\n",
            "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
            "some avg10=0,00 avg60=0.00 avg300=0.00 total=0\n",
            "some avg60=0.00 avg10=0.00 avg300=0.00 total=0\n",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0 extra=1\n",
            // `cat /proc/pressure/*`: three files in one.
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\
             full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\
             some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nMemTotal: 1 kB\n",
        ] {
            assert_eq!(sniff(text), Sniff::No, "{text:?}");
        }
    }

    #[test]
    fn the_kind_table_claims_no_pressure_text() {
        // A cgroup's `cpu.pressure` holds the same text as `/proc/pressure/cpu`: only the place
        // says it is the host's, so no kind claims it by content.
        for f in [CPU, CPU_LOADED, MEMORY, IO, CPU_SOME_ONLY] {
            assert!(
                matches!(crate::kind::sniff(f), crate::kind::Sniffed::Nothing),
                "{f}: {:?}",
                crate::kind::sniff(f)
            );
        }
    }

    #[test]
    fn unreadable_lines_are_issues() {
        let text = "some avg10=0.00 avg60=x avg300=0.00 total=0\n\
                    full avg10=1.00 avg60=2.00 avg300=3.00 total=4\n\
                    full avg10=1.00 avg60=2.00 avg300=3.00 total=5\n\
                    garbage\n";
        let p = parse(text).unwrap();
        assert_eq!(p.value.some, None);
        assert_eq!(p.value.full, Some(stall(2, 1.0, 2.0, 3.0, 4)));
        let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
        assert_eq!(lines, [1, 3, 4, 0], "{:?}", p.issues);
        assert!(p.issues[0].message.contains("`avg60`"), "{:?}", p.issues);
    }

    #[test]
    fn unknown_keys_are_ignored_and_missing_keys_are_not() {
        let p = parse("some avg10=1.00 avg60=2.00 avg300=3.00 avg900=4.00 total=5\n").unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(p.value.some, Some(stall(1, 1.0, 2.0, 3.0, 5)));
        let e = parse("some avg10=1.00 avg60=2.00 total=5\n").unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
    }

    #[test]
    fn nothing_usable_is_an_error() {
        for text in ["", "\n", "MemTotal: 1 kB\n", "some\nfull\n"] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
