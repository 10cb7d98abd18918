//! The lock lines of a thread dump, read with a nom grammar: a verb, then the object's address
//! in angle brackets and its class in parentheses.
//!
//! In: a lock line of a stack, trimmed and without its `- ` (OpenJDK 17.0.15 `jstack -l`):
//! ```text
//! waiting to lock <0x000000069e85ef58> (a java.lang.Object)
//! parking to wait for  <0x000000069ec1d0f8> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)
//! ```
//! Out: a [`LockLine`] (held, waited for with its [`WaitVerb`], or another `- ` line) and, from
//! the text after the verb, the object's address and class ([`lock_object`]).
//!
//! ```text
//! lock      = "locked " object | verb object | other
//! verb      = "waiting to lock " | "waiting on " | "parking to wait for "
//!           | "waiting to re-lock in wait() "
//! object    = blank* "<0x" hex+ ">" [blank* "(a " class ")" blank*]
//! class     = text up to the line's last ")"    ; `java.lang.Class for com.foo.Bar`
//! ```
//! The object's text after the verb is kept as printed by the caller; a line that names no
//! object (`<no object reference available>`, `- eliminated <owner is scalar replaced>`) reads
//! as no object.

use super::WaitVerb;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while};
use nom::character::complete::{char, hex_digit1};
use nom::combinator::{map, map_opt, opt, recognize, rest, value};
use nom::sequence::{delimited, pair, preceded};
use nom::{IResult, Parser};

/// nom's unit error: a failed branch carries nothing, so trying alternatives allocates
/// nothing.
type Res<'a, O> = IResult<&'a str, O, ()>;

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
