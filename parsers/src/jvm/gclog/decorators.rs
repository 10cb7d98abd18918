//! The decorators of a JDK 9+ unified-logging line, read with a nom grammar.
//!
//! In: one line of a `-Xlog` file. Out: a [`Deco`] (uptime, wall-clock time stamp, tag set and
//! the message after the decorators), or `None` when the line carries no decorator a GC log
//! has. `-Xlog:…::uptime,level,tags` and friends choose any subset of the decorators, in any
//! order, each in its own brackets, padded to a column width (OpenJDK 17.0.15, `-Xlog:gc*`):
//! ```text
//! [2024-01-01T00:00:00.123+0000][0.123s][1234][1240t][info][gc,start    ] GC(12) Pause Young (Normal) (G1 Evacuation Pause)
//! ```
//!
//! Grammar (each decorator is tried in this order on the group's text without its padding):
//! ```text
//! line       = group+ !"[" message
//! group      = "[" padding decorator padding "]"           ; at most 64 bytes between the padding
//! decorator  = level | uptime | time | tags | id
//! level      = "info" | "debug" | "trace" | "warning" | "error" | "develop"
//! uptime     = [0-9.,]+ ("ms" | "ns" | "s")                  ; uptime, uptimemillis, uptimenanos
//! time       = 19 bytes or more, "-" at offset 4, a "T"     ; time, utctime
//! tags       = [a-z] [a-z0-9+,_]*
//! id         = [0-9]* "t"*                                  ; pid, tid (not empty)
//! ```
//! A line whose groups are all time stamps or ids is not a unified-logging line (a level, an
//! uptime or a tag set must be there); a group that is none of these rejects the line.
//! `timemillis` / `timenanos` decorators (`[1704067200123ms]`) read as an uptime.
//!
//! The grammar replaced a scanner of `split_once(']')` calls. On the bench input
//! (`bench/parser-throughput.sh`, `gclog-unified`) the whole GC-log parse measured the figures
//! in the crate doc's "Parsing approach" section.

use crate::common::parse_num;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::character::complete::{char, satisfy};
use nom::combinator::{
    all_consuming, map, map_opt, map_parser, not, recognize, rest, value, verify,
};
use nom::multi::fold_many1;
use nom::sequence::{delimited, pair, terminated};
use nom::{IResult, Parser};

/// The decorations of a unified-logging line, borrowed from it.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Deco<'a> {
    /// Seconds since JVM start, from the first uptime decorator (`0.123s`, `233ms`, `123ns`).
    pub(super) uptime_s: Option<f64>,
    /// The last wall-clock decorator, as printed (`2024-01-01T00:00:00.123+0000`).
    pub(super) timestamp: Option<&'a str>,
    /// The last tag set, without padding (`gc,start`).
    pub(super) tags: Option<&'a str>,
    /// The message after the decorators, trimmed.
    pub(super) msg: &'a str,
}

/// One decorator, classified.
#[derive(Debug, Clone, Copy)]
enum Decorator<'a> {
    Level,
    Uptime(f64),
    Time(&'a str),
    Tags(&'a str),
    Id,
}

impl Decorator<'_> {
    /// A level, an uptime or a tag set marks a unified-logging line; a time stamp or a
    /// pid/tid alone does not.
    fn marks_unified(self) -> bool {
        matches!(
            self,
            Decorator::Level | Decorator::Uptime(_) | Decorator::Tags(_)
        )
    }
}

/// nom's unit error: a failed branch carries nothing, so trying alternatives costs no
/// allocation.
type Res<'a, O> = IResult<&'a str, O, ()>;

fn level(i: &str) -> Res<'_, Decorator<'_>> {
    value(
        Decorator::Level,
        alt((
            tag("info"),
            tag("debug"),
            tag("trace"),
            tag("warning"),
            tag("error"),
            tag("develop"),
        )),
    )
    .parse(i)
}

/// `0.123s`, `233ms`, `123456ns` → seconds (a decimal comma is read as well: `0,123s`).
fn uptime(i: &str) -> Res<'_, Decorator<'_>> {
    let number = take_while1(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    let unit = alt((
        value(1e-3, tag("ms")),
        value(1e-9, tag("ns")),
        value(1.0, tag("s")),
    ));
    map_opt(pair(number, unit), |(n, scale): (&str, f64)| {
        parse_num(n).map(|v| Decorator::Uptime(v * scale))
    })
    .parse(i)
}

/// `2024-01-01T00:00:00.123+0000` (`time`, `utctime`): read loosely, as the whole group.
fn time(i: &str) -> Res<'_, Decorator<'_>> {
    map(
        verify(rest, |c: &str| {
            c.len() >= 19 && c.as_bytes().get(4) == Some(&b'-') && c.contains('T')
        }),
        Decorator::Time,
    )
    .parse(i)
}

/// `gc`, `gc,start`, `gc,heap,exit`, `safepoint`.
fn tags(i: &str) -> Res<'_, Decorator<'_>> {
    let first = satisfy(|c| c.is_ascii_lowercase());
    let more = take_while(|c: char| {
        c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '+' | ',' | '_')
    });
    map(recognize(pair(first, more)), Decorator::Tags).parse(i)
}

/// `12345` (pid) or `12346t` (tid).
fn id(i: &str) -> Res<'_, Decorator<'_>> {
    let digits = take_while(|c: char| c.is_ascii_digit());
    let ts = take_while(|c: char| c == 't');
    value(
        Decorator::Id,
        verify(recognize(pair(digits, ts)), |s: &str| !s.is_empty()),
    )
    .parse(i)
}

/// One decorator: the whole (unpadded) text of a group.
fn decorator(i: &str) -> Res<'_, Decorator<'_>> {
    alt((
        all_consuming(level),
        all_consuming(uptime),
        all_consuming(time),
        all_consuming(tags),
        all_consuming(id),
    ))
    .parse(i)
}

/// `[…]`: the text up to the first `]`, without its padding, read as one decorator.
fn group(i: &str) -> Res<'_, Decorator<'_>> {
    let inner = verify(map(take_till(|c| c == ']'), str::trim), |c: &str| {
        c.len() <= 64 && !c.contains('[')
    });
    delimited(char('['), map_parser(inner, decorator), char(']')).parse(i)
}

/// Splits the `[..][..]` decorators off a unified-logging line.
pub(super) fn decorators(line: &str) -> Option<Deco<'_>> {
    let groups = fold_many1(
        group,
        || (Deco::default(), false),
        |(mut d, known), g| {
            match g {
                Decorator::Uptime(u) => {
                    d.uptime_s.get_or_insert(u);
                }
                Decorator::Time(t) => d.timestamp = Some(t),
                Decorator::Tags(t) => d.tags = Some(t),
                Decorator::Level | Decorator::Id => {}
            }
            (d, known || g.marks_unified())
        },
    );
    let (msg, (mut d, known)) = terminated(groups, not(char::<&str, ()>('[')))
        .parse(line)
        .ok()?;
    if !known {
        return None;
    }
    d.msg = msg.trim();
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::{fixture_lines, Rng};

    /// The `split_once(']')` scanner the grammar replaced, kept as the reference the grammar is
    /// checked against.
    fn scanner(line: &str) -> Option<Deco<'_>> {
        fn uptime(c: &str) -> Option<f64> {
            let (num, scale) = if let Some(x) = c.strip_suffix("ms") {
                (x, 1e-3)
            } else if let Some(x) = c.strip_suffix("ns") {
                (x, 1e-9)
            } else {
                (c.strip_suffix('s')?, 1.0)
            };
            if num.is_empty()
                || !num
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
            {
                return None;
            }
            Some(parse_num(num)? * scale)
        }
        let mut d = Deco::default();
        let mut rest = line;
        let mut known = false;
        let mut groups = 0;
        while let Some(r) = rest.strip_prefix('[') {
            let (c, after) = r.split_once(']')?;
            let c = c.trim();
            if c.contains('[') || c.len() > 64 {
                return None;
            }
            if matches!(
                c,
                "info" | "debug" | "trace" | "warning" | "error" | "develop"
            ) {
                known = true;
            } else if let Some(u) = uptime(c) {
                d.uptime_s.get_or_insert(u);
                known = true;
            } else if c.len() >= 19 && c.as_bytes().get(4) == Some(&b'-') && c.contains('T') {
                d.timestamp = Some(c);
            } else if !c.is_empty()
                && c.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+,_".contains(&b))
                && c.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            {
                d.tags = Some(c);
                known = true;
            } else if !c.is_empty() && c.trim_end_matches('t').bytes().all(|b| b.is_ascii_digit()) {
            } else {
                return None;
            }
            groups += 1;
            rest = after;
        }
        if groups == 0 || !known {
            return None;
        }
        d.msg = rest.trim();
        Some(d)
    }

    #[test]
    fn same_as_the_scanner_on_every_fixture_line() {
        let lines = fixture_lines();
        let mut unified = 0;
        for l in &lines {
            let new = decorators(l);
            assert_eq!(new, scanner(l), "line {l:?}");
            unified += usize::from(new.is_some());
        }
        // The GC-log fixtures hold thousands of decorated lines: the comparison covered them.
        assert!(unified > 1000, "only {unified} decorated lines");
    }

    #[test]
    fn same_as_the_scanner_on_mutated_lines() {
        let seeds: Vec<String> = fixture_lines()
            .into_iter()
            .filter(|l| l.starts_with('['))
            .collect();
        assert!(!seeds.is_empty());
        let alphabet = [
            '[', ']', ' ', '\t', '\u{a0}', 's', 'm', 'n', 't', 'T', '0', '9', '.', ',', '-', '+',
            '_', 'g', 'c', 'I', 'é', '(', ')',
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut agreed_some = 0;
        for _ in 0..60_000 {
            let seed = &seeds[rng.below(seeds.len())];
            let line = rng.mutate(seed, &alphabet);
            let new = decorators(&line);
            assert_eq!(new, scanner(&line), "line {line:?}");
            agreed_some += usize::from(new.is_some());
        }
        assert!(
            agreed_some > 3_000,
            "only {agreed_some} mutated lines kept decorators"
        );
    }

    #[test]
    fn decorators_in_any_order() {
        let d = decorators(
            "[2024-01-01T00:00:00.123+0000][0.123s][1234][1240t][info][gc,start    ] GC(12) Pause Young",
        )
        .unwrap();
        assert_eq!(d.timestamp, Some("2024-01-01T00:00:00.123+0000"));
        assert_eq!(d.uptime_s, Some(0.123));
        assert_eq!((d.tags, d.msg), (Some("gc,start"), "GC(12) Pause Young"));
        let d = decorators("[gc][233ms][debug] x").unwrap();
        assert_eq!((d.uptime_s, d.tags, d.msg), (Some(0.233), Some("gc"), "x"));
        // Time stamps and ids alone do not make a unified-logging line.
        assert_eq!(decorators("[2024-01-01T00:00:00.123+0000][1234] x"), None);
        // A group that is no decorator rejects the line, as does an unclosed one.
        assert_eq!(decorators("[0.1s][Info] x"), None);
        assert_eq!(decorators("[0.1s][gc x"), None);
        assert_eq!(decorators("[0.1s][] x"), None);
        assert_eq!(decorators("0.1s [info] x"), None);
    }
}
