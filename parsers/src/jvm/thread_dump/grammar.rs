//! The nested line grammars of a thread dump, read with nom: the thread header (a quoted name
//! that may itself hold quotes, then attributes) and the lock lines (`- verb <0x…> (a Class)`).
//!
//! In: one line (the header as printed, a lock line trimmed and without its `- `). Out: the
//! header's name and its attributes one by one ([`Attr`]), or a lock line's verb and object.
//! The stack's `at` lines, which are most of a dump, are matched by their prefix in the parent
//! module; these grammars run once per thread and once per lock line.
//!
//! ```text
//! header    = ["#" id " "] '"' name '"' [" " attrs]      ; JDK 21+ may print the id first
//! name      = text up to the first '"' followed by the end of the line or by " " and an
//!             attribute ("#", "[", "daemon", "prio=", "os_prio=", "tid=", "nid=", "cpu=",
//!             "Carrying"): `"pool "A" #1"` keeps its quotes
//! attrs     = attr (ascii-space attr)*
//! attr      = "#" id | "daemon" | "prio=" int | "os_prio=" int | "cpu=" millis
//!           | "elapsed=" secs "s" | "tid=" address | "nid=" address | "[" … "]"
//!           | key "=" value | word                      ; words make the activity text
//! lock      = verb object | "locked " object | other    ; after "- "
//! verb      = "waiting to lock " | "waiting on " | "parking to wait for "
//!           | "waiting to re-lock in wait() "
//! object    = "<0x" hex+ ">" [" (a " class ")"]
//! ```
//! Numbers inside a token are converted with the standard library's parsers, as before the
//! grammar (`prio=+5` reads 5); a token whose value does not convert is reported by the caller.

use super::WaitVerb;
use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, take_till, take_till1, take_while};
use nom::character::complete::{char, hex_digit1};
use nom::combinator::{
    eof, map, map_opt, map_parser, map_res, not, opt, peek, recognize, rest, value, verify,
};
use nom::multi::fold_many0;
use nom::sequence::{delimited, pair, preceded, terminated};
use nom::{IResult, Parser};

/// nom's unit error: a failed branch carries nothing.
type Res<'a, O> = IResult<&'a str, O, ()>;

/// One attribute of a thread header, its value read (`None`: the value did not convert).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Attr<'a> {
    /// `#12`: the Java thread id.
    Id(Option<u64>),
    /// `daemon`.
    Daemon,
    /// `prio=5`.
    Prio(Option<i32>),
    /// `os_prio=0`.
    OsPrio(Option<i32>),
    /// `cpu=12.34ms`, in ms.
    CpuMs(Option<f64>),
    /// `elapsed=100.5s`, in s.
    ElapsedS(Option<f64>),
    /// `tid=0x…`.
    Tid(Option<u64>),
    /// `nid=0x…` or `nid=12345`.
    Nid(Option<u64>),
    /// `[12345]` (the OS thread id, JDK 19+) or `[0x…]` (the stack address).
    Bracketed,
    /// Another `key=value` (`allocated=`, `defined_classes=` of JDK 25+).
    Setting(&'a str),
    /// A word of the activity (`waiting on condition`).
    Word(&'a str),
}

/// The first words of the attributes that end a thread name.
fn attr_start(i: &str) -> Res<'_, &str> {
    alt((
        tag("#"),
        tag("["),
        tag("daemon"),
        tag("prio="),
        tag("os_prio="),
        tag("tid="),
        tag("nid="),
        tag("cpu="),
        tag("Carrying"),
    ))
    .parse(i)
}

/// The `"` that closes a thread name: followed by the end of the line, or by a space and
/// (after any blanks) the end of the line or an attribute.
fn name_end(i: &str) -> Res<'_, ()> {
    let blanks = take_while(char::is_whitespace);
    value(
        (),
        pair(
            char('"'),
            alt((
                eof,
                preceded(pair(char(' '), blanks), alt((eof, peek(attr_start)))),
            )),
        ),
    )
    .parse(i)
}

/// The thread name: everything up to the closing `"` ([`name_end`]), inner quotes kept.
fn name(i: &str) -> Res<'_, &str> {
    let piece = preceded(not(name_end), alt((is_not("\""), tag("\""))));
    recognize(fold_many0(piece, || (), |(), _| ())).parse(i)
}

/// `#47 ` before the name (JDK 21+).
fn lead_id(i: &str) -> Res<'_, u64> {
    delimited(
        char('#'),
        map_res(take_till(|c| c == ' '), str::parse::<u64>),
        char(' '),
    )
    .parse(i)
}

/// Splits a thread header into its leading id, the name and the attribute text, or `None` if
/// `line` is not a header.
pub(super) fn split_header(line: &str) -> Option<(Option<u64>, &str, &str)> {
    let mut header = (
        opt(lead_id),
        delimited(char('"'), name, char('"')),
        map(rest, str::trim_start),
    );
    let parsed: Res<'_, _> = header.parse(line);
    parsed.ok().map(|(_, parts)| parts)
}

/// One attribute: the whole text of a blank-separated token.
fn attr(i: &str) -> Res<'_, Attr<'_>> {
    alt((
        preceded(char('#'), map(rest, |v: &str| Attr::Id(v.parse().ok()))),
        value(Attr::Daemon, terminated(tag("daemon"), eof)),
        preceded(
            tag("prio="),
            map(rest, |v: &str| Attr::Prio(v.parse().ok())),
        ),
        preceded(
            tag("os_prio="),
            map(rest, |v: &str| Attr::OsPrio(v.parse().ok())),
        ),
        preceded(tag("cpu="), map(rest, |v| Attr::CpuMs(super::millis(v)))),
        preceded(
            tag("elapsed="),
            map(rest, |v: &str| {
                Attr::ElapsedS(v.strip_suffix('s').and_then(|v| v.parse().ok()))
            }),
        ),
        preceded(tag("tid="), map(rest, |v| Attr::Tid(super::hex_or_dec(v)))),
        preceded(tag("nid="), map(rest, |v| Attr::Nid(super::hex_or_dec(v)))),
        value(
            Attr::Bracketed,
            verify(recognize(pair(char('['), rest)), |t: &str| t.ends_with(']')),
        ),
        map(verify(rest, |t: &str| t.contains('=')), Attr::Setting),
        map(rest, Attr::Word),
    ))
    .parse(i)
}

/// Reads the attribute text of a header (the third part of [`split_header`]) one attribute at
/// a time, in order, into `f`.
pub(super) fn for_each_attr<'a>(attrs: &'a str, mut f: impl FnMut(&'a str, Attr<'a>)) {
    let blanks = || take_while(|c: char| c.is_ascii_whitespace());
    let token = take_till1(|c: char| c.is_ascii_whitespace());
    let one = preceded(blanks(), map_parser(token, (peek(rest), attr)));
    let mut all = terminated(fold_many0(one, || (), |(), (tok, a)| f(tok, a)), blanks());
    // `attr` accepts any token, so the fold stops only at the end of the text.
    let _: Res<'_, ()> = all.parse(attrs);
}

/// An object a lock line names: its address as printed (`0x000000069ec1bc00`) and its class
/// (`Locks$Inventory`), from `<0x000000069ec1bc00> (a Locks$Inventory)`.
pub(super) fn lock_object(text: &str) -> Option<(&str, Option<&str>)> {
    let address = delimited(char('<'), recognize(pair(tag("0x"), hex_digit1)), char('>'));
    let class = map_opt(rest, |r: &str| {
        r.trim().strip_prefix("(a ")?.strip_suffix(')')
    });
    let mut object = (
        preceded(take_while(char::is_whitespace), address),
        opt(class),
    );
    let parsed: Res<'_, _> = object.parse(text);
    parsed.ok().map(|(_, parts)| parts)
}

/// A stack's lock line, after its `- `.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum LockLine<'a> {
    /// `locked <…>`: a monitor the thread holds; the text after the verb.
    Locked(&'a str),
    /// `waiting to lock <…>`, `waiting on <…>`, `parking to wait for <…>`, `waiting to
    /// re-lock in wait() <…>`: what the thread waits for; the text after the verb.
    Waiting(WaitVerb, &'a str),
    /// Another `- ` line (`- eliminated <owner is scalar replaced>`).
    Other,
}

/// Reads a lock line (trimmed, without its `- `).
pub(super) fn lock_line(l: &str) -> LockLine<'_> {
    let verb = alt((
        value(WaitVerb::Enter, tag("waiting to lock ")),
        value(WaitVerb::WaitOn, tag("waiting on ")),
        value(WaitVerb::Park, tag("parking to wait for ")),
        value(WaitVerb::Relock, tag("waiting to re-lock in wait() ")),
    ));
    let mut line = alt((
        map(preceded(tag("locked "), rest), LockLine::Locked),
        map(pair(verb, rest), |(v, r)| LockLine::Waiting(v, r)),
        value(LockLine::Other, rest),
    ));
    let parsed: Res<'_, LockLine<'_>> = line.parse(l);
    parsed.map_or(LockLine::Other, |(_, l)| l)
}
