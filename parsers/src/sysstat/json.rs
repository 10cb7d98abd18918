//! A small streaming reader for sysstat `-o JSON` documents, and the repair of the invalid JSON
//! some sysstat releases write.
//!
//! sysstat writes `{"sysstat": {"hosts": [{…, "statistics": [sample, sample, …]}]}}` as it goes,
//! so a run killed by a timeout leaves a document cut in the middle of a sample. Instead of
//! deserializing the whole document (which fails on the first missing byte), [`Cursor`] walks
//! the structure level by level and hands each member or element to the caller as soon as it is
//! complete; everything read before the cut is kept. Scalars and flat objects are read with
//! `serde_json`'s [`StreamDeserializer`](serde_json::StreamDeserializer), which also reports the
//! byte offset where each value ends, so input line numbers can be given for every object.
//!
//! Before the walk, [`repair`] mends the defects released versions are known to print (sysstat
//! `CHANGES`, and the reports cited with each [`Repair`]): numbers with the locale's decimal comma,
//! a stray comma opening the `statistics` array, a comma missing between two members. It rewrites
//! a byte only where JSON's grammar admits no other reading, never inside a string, and never
//! adds or removes a newline, so line numbers stay those of the input; the JSON itself is still
//! read by `serde_json`. Defects not seen in any release (a trailing comma before `]` or `}`) are
//! not repaired: the walk stops there and keeps the samples before it.

use crate::common::{Issues, ParseError, Sniff};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// A defect of released sysstat JSON that [`repair`] mends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repair {
    /// `"user": 2,51` → `2.51`: a member's number printed with the locale's decimal comma
    /// (`de_DE`, `fr_FR`, `ru_RU` …). `sadf -j` 10.0.3–11.5.1 (also 11.2.0–11.2.7 and
    /// 11.4.0–11.4.1) and `iostat`/`mpstat -o JSON` 11.5.1 printed numbers with `printf` under
    /// the user's `LC_NUMERIC`; 11.5.2 set it to `C` (sysstat issue #128, commits 921a4acc,
    /// a12a567b). A comma followed by digits where a member name or `}` must follow can only be
    /// a decimal separator; in an array (`[1,5]`) a comma is a separator and is left alone.
    DecimalSeparator,
    /// `"statistics": [` followed by `,` on its own line: `iostat -y -o JSON` printed the
    /// separator of the report it skipped (sysstat 11.5.1–11.6.0, fixed in 11.6.1, issue #163;
    /// again in 12.0.4 and 12.1.4, fixed in 12.0.5 and 12.1.5, issue #222). Nothing may stand
    /// between `[` and the first element, so the comma is dropped.
    StrayComma,
    /// `"file-date": "2014-02-18"` and `"file-utc-time": …` on the next line without a comma
    /// between them (`sadf -j` 10.2.1, sysstat issue #12; `"fchosts"` after the previous
    /// activity in 11.1.5–11.2.x, issues #90 and #128). After a member's value only `,` or `}`
    /// may follow, so a member name there means a missing comma.
    MissingComma,
}

impl Repair {
    fn describe(self, n: usize) -> String {
        match self {
            Repair::DecimalSeparator => format!(
                "{n} {} with a decimal comma (`2,51`: sysstat before 11.5.2 under a locale such \
                 as de_DE) read as decimals",
                if n == 1 { "number" } else { "numbers" }
            ),
            Repair::StrayComma => "a stray `,` before the first element of an array \
                (`iostat -y -o JSON` of sysstat 11.5.1–11.6.0, 12.0.4, 12.1.4) ignored"
                .to_string(),
            Repair::MissingComma => format!(
                "{n} missing `,` between members (`sadf -j` of sysstat 10.2.1, 11.1.5–11.2.x) \
                 assumed"
            ),
        }
    }
}

/// A JSON text with the defects of [`Repair`] mended.
pub(crate) struct Repaired<'a> {
    /// The text to parse: the input itself when nothing was repaired.
    pub(crate) text: Cow<'a, str>,
    /// What was repaired, by input line (1-based), in input order.
    pub(crate) repairs: Vec<(usize, Repair)>,
}

impl Repaired<'_> {
    /// One issue per repaired line, naming what was repaired there.
    pub(crate) fn report(&self, issues: &mut Issues) {
        let mut rest = self.repairs.as_slice();
        while let Some(&(line, _)) = rest.first() {
            let n = rest.iter().take_while(|(l, _)| *l == line).count();
            let (here, after) = rest.split_at(n);
            issues.push(line, || {
                let mut parts: Vec<String> = Vec::new();
                for kind in [
                    Repair::StrayComma,
                    Repair::MissingComma,
                    Repair::DecimalSeparator,
                ] {
                    let k = here.iter().filter(|(_, r)| *r == kind).count();
                    if k > 0 {
                        parts.push(kind.describe(k));
                    }
                }
                format!("invalid JSON repaired: {}", parts.join("; "))
            });
            rest = after;
        }
    }
}

/// What the grammar allows next while [`repair`] scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value (top level, after `:` or after `,` in an array).
    Value,
    /// A value or `]` (after `[`).
    ValueOrEnd,
    /// A member name or `}` (after `{`).
    KeyOrEnd,
    /// A member name (after `,` in an object).
    Key,
    /// `:` after a member name.
    Colon,
    /// `,` or the container's end, after a value.
    After,
}

/// One edit of [`repair`], at a byte offset of the input.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// The byte becomes `.`.
    Point,
    /// The byte becomes a space.
    Blank,
    /// A `,` goes before the byte.
    InsertComma,
}

/// Mends the defects of [`Repair`] in a sysstat JSON text, in one pass over its bytes.
///
/// The scan follows JSON's punctuation (strings are skipped whole, escapes included) only to
/// know what may come next; at the first byte that is neither valid JSON nor a known defect it
/// stops and leaves the rest as it is, for `serde_json` to report.
pub(crate) fn repair(text: &str) -> Repaired<'_> {
    let b = text.as_bytes();
    let mut edits: Vec<(usize, Edit)> = Vec::new();
    let mut repairs: Vec<(usize, Repair)> = Vec::new();
    // `true` for an object, `false` for an array.
    let mut stack: Vec<bool> = Vec::new();
    let mut expect = Expect::Value;
    let mut line = 1usize;
    let mut i = 0usize;
    loop {
        while let Some(&c) = b.get(i) {
            match c {
                b'\n' => line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&c) = b.get(i) else { break };
        let in_object = stack.last().copied();
        match (expect, c) {
            (_, b'"') => {
                let Some(end) = string_end(b, i) else { break };
                expect = match expect {
                    Expect::KeyOrEnd | Expect::Key => Expect::Colon,
                    Expect::Value | Expect::ValueOrEnd => Expect::After,
                    Expect::After if in_object == Some(true) => {
                        edits.push((i, Edit::InsertComma));
                        repairs.push((line, Repair::MissingComma));
                        Expect::Colon
                    }
                    _ => break,
                };
                line += b
                    .get(i..end)
                    .map_or(0, |s| s.iter().filter(|&&x| x == b'\n').count());
                i = end;
            }
            (Expect::Colon, b':') => {
                expect = Expect::Value;
                i += 1;
            }
            (Expect::Value | Expect::ValueOrEnd, b'{') => {
                stack.push(true);
                expect = Expect::KeyOrEnd;
                i += 1;
            }
            (Expect::Value | Expect::ValueOrEnd, b'[') => {
                stack.push(false);
                expect = Expect::ValueOrEnd;
                i += 1;
            }
            (Expect::KeyOrEnd | Expect::After, b'}') if in_object == Some(true) => {
                stack.pop();
                expect = Expect::After;
                i += 1;
            }
            (Expect::ValueOrEnd | Expect::After, b']') if in_object == Some(false) => {
                stack.pop();
                expect = Expect::After;
                i += 1;
            }
            (Expect::After, b',') if in_object.is_some() => {
                expect = if in_object == Some(true) {
                    Expect::Key
                } else {
                    Expect::Value
                };
                i += 1;
            }
            (Expect::ValueOrEnd, b',') => {
                edits.push((i, Edit::Blank));
                repairs.push((line, Repair::StrayComma));
                i += 1;
            }
            (Expect::Value | Expect::ValueOrEnd, b'-' | b'0'..=b'9') => {
                let end = i + b
                    .get(i..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|&&x| matches!(x, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .count();
                expect = Expect::After;
                if in_object == Some(true) {
                    if let Some(after) = decimal_comma(b, i, end) {
                        edits.push((end, Edit::Point));
                        repairs.push((line, Repair::DecimalSeparator));
                        i = after;
                        continue;
                    }
                }
                i = end;
            }
            (Expect::Value | Expect::ValueOrEnd, b't' | b'f' | b'n') => {
                i += b
                    .get(i..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|x| x.is_ascii_lowercase())
                    .count();
                expect = Expect::After;
            }
            _ => break,
        }
        if stack.is_empty() && expect == Expect::After {
            break;
        }
    }
    if edits.is_empty() {
        return Repaired {
            text: Cow::Borrowed(text),
            repairs,
        };
    }
    let mut out = String::with_capacity(text.len() + edits.len());
    let mut copied = 0usize;
    for (at, edit) in edits {
        out.push_str(text.get(copied..at).unwrap_or_default());
        match edit {
            Edit::Point => {
                out.push('.');
                copied = at + 1;
            }
            Edit::Blank => {
                out.push(' ');
                copied = at + 1;
            }
            Edit::InsertComma => {
                out.push(',');
                copied = at;
            }
        }
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Repaired {
        text: Cow::Owned(out),
        repairs,
    }
}

/// Repairs `text` ([`repair`]) and reports each repaired line in `issues`.
pub(crate) fn repaired<'a>(text: &'a str, issues: &mut Issues) -> Cow<'a, str> {
    let r = repair(text);
    r.report(issues);
    r.text
}

/// The offset just past the closing quote of the string opening at `start`; `None` when the
/// text ends first.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// When the number `b[start..end]` is a bare integer (`2`, `-0`) followed by `,digits` and then
/// by `,` or `}` (what must follow a member's value), the offset after those digits: the comma
/// is the number's decimal separator.
fn decimal_comma(b: &[u8], start: usize, end: usize) -> Option<usize> {
    let int = b.get(start..end)?;
    let digits = int.strip_prefix(b"-").unwrap_or(int);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || b.get(end) != Some(&b',') {
        return None;
    }
    let frac = b
        .get(end + 1..)?
        .iter()
        .take_while(|x| x.is_ascii_digit())
        .count();
    if frac == 0 {
        return None;
    }
    let after = end + 1 + frac;
    let next = b
        .get(after..)?
        .iter()
        .find(|&&x| !matches!(x, b' ' | b'\t' | b'\r' | b'\n'))
        .copied();
    matches!(next, Some(b',' | b'}')).then_some(after)
}

/// Why the walk stopped.
#[derive(Debug)]
pub(crate) enum JsonStop {
    /// The document ends before the structure is closed (cut short).
    Eof { line: usize },
    /// The text is not the expected JSON.
    Syntax { line: usize, message: String },
}

/// Ends a sample-by-sample walk of a sysstat JSON document: an early stop becomes one issue
/// (the `kept` complete samples before it stay), and a document with no complete sample is
/// unusable. `tool` names the document in messages (`iostat`), `dialect` the JSON in the issue
/// (`sysstat`), `no_sample` says what a sample needs (`a sample with \`disk\``).
pub(crate) fn finish_walk(
    stop: Option<JsonStop>,
    kept: usize,
    tool: &str,
    dialect: &str,
    no_sample: &str,
    issues: &mut Issues,
) -> Result<(), ParseError> {
    if let Some(stop) = &stop {
        match stop {
            JsonStop::Eof { line } => issues.push(*line, || {
                format!(
                    "JSON document ends early (output cut short?); kept the {kept} complete \
                     samples before this line"
                )
            }),
            JsonStop::Syntax { line, message } => issues.push(*line, || {
                format!("invalid {dialect} JSON ({message}); kept the {kept} complete samples before this line")
            }),
        }
    }
    if kept > 0 {
        return Ok(());
    }
    let reason = match &stop {
        Some(JsonStop::Syntax { message, .. }) => {
            format!("not {} {tool} JSON document: {message}", article(tool))
        }
        Some(JsonStop::Eof { .. }) => {
            format!("{tool} JSON document ends before its first complete sample")
        }
        None => format!("{tool} JSON document has no {no_sample}"),
    };
    Err(ParseError::unusable(stop.map(|s| s.line()), reason))
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

impl JsonStop {
    /// Input line where the walk stopped.
    pub(crate) fn line(&self) -> usize {
        match self {
            JsonStop::Eof { line } | JsonStop::Syntax { line, .. } => *line,
        }
    }
}

/// A position in a JSON text, with an incrementally maintained line number.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    /// 1-based line number of `counted`.
    line: usize,
    /// Byte offset up to which newlines have been counted (always ≤ `pos`).
    counted: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Cursor {
            text,
            pos: 0,
            line: 1,
            counted: 0,
        }
    }

    /// 1-based line of the next non-blank byte. Linear over the whole walk: newlines are
    /// counted once, from the last counted offset.
    pub(crate) fn line(&mut self) -> usize {
        self.skip_ws();
        let upto = self.pos.min(self.text.len());
        if upto > self.counted {
            let newlines = self.text.as_bytes()[self.counted..upto]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.line += newlines;
            self.counted = upto;
        }
        self.line
    }

    fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b) = bytes.get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// The stop to report when `what` was expected at the cursor.
    fn expected(&mut self, what: &str) -> JsonStop {
        let line = self.line();
        match self.peek() {
            None => JsonStop::Eof { line },
            Some(_) => {
                let rest = self.text.get(self.pos..).unwrap_or("");
                let found: String = rest.chars().take(20).collect();
                JsonStop::Syntax {
                    line,
                    message: format!("expected {what}, found `{found}`"),
                }
            }
        }
    }

    /// Reads one complete value of type `T` at the cursor.
    ///
    /// `Ok(None)` means the value is well-formed JSON but not a `T` (it has been skipped);
    /// errors mean the text is cut short or is not JSON.
    pub(crate) fn value<T: Deserialize<'a>>(&mut self) -> Result<Option<T>, JsonStop> {
        self.skip_ws();
        let line = self.line();
        let rest = self.text.get(self.pos..).unwrap_or("");
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<T>();
        match stream.next() {
            Some(Ok(v)) => {
                self.pos += stream.byte_offset();
                Ok(Some(v))
            }
            Some(Err(e)) if e.is_data() => {
                // Well-formed but of another shape: skip it and let the caller decide.
                let mut skip = serde_json::Deserializer::from_str(rest).into_iter::<IgnoredAny>();
                match skip.next() {
                    Some(Ok(_)) => {
                        self.pos += skip.byte_offset();
                        Ok(None)
                    }
                    Some(Err(e)) => Err(stop_from(e, line)),
                    None => Err(JsonStop::Eof { line }),
                }
            }
            Some(Err(e)) => Err(stop_from(e, line)),
            None => Err(JsonStop::Eof { line }),
        }
    }

    /// Skips one complete value.
    pub(crate) fn skip(&mut self) -> Result<(), JsonStop> {
        self.value::<IgnoredAny>().map(|_| ())
    }

    /// Walks the object at the cursor, calling `f(cursor, key)` with the cursor on each member's
    /// value; `f` must consume the value (e.g. with [`Cursor::value`] or [`Cursor::skip`]).
    pub(crate) fn object(
        &mut self,
        mut f: impl FnMut(&mut Cursor<'a>, &str) -> Result<(), JsonStop>,
    ) -> Result<(), JsonStop> {
        if !self.eat(b'{') {
            return Err(self.expected("`{`"));
        }
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.expected("a quoted member name"));
            }
            let key: Cow<'a, str> = match self.value::<Key<'a>>()? {
                Some(Key(k)) => k,
                None => return Err(self.expected("a member name")),
            };
            if !self.eat(b':') {
                return Err(self.expected("`:`"));
            }
            f(self, &key)?;
            if self.eat(b',') {
                continue;
            }
            if self.eat(b'}') {
                return Ok(());
            }
            return Err(self.expected("`,` or `}`"));
        }
    }

    /// Walks the array at the cursor, calling `f(cursor, index)` with the cursor on each element;
    /// `f` must consume the element.
    pub(crate) fn array(
        &mut self,
        mut f: impl FnMut(&mut Cursor<'a>, usize) -> Result<(), JsonStop>,
    ) -> Result<(), JsonStop> {
        if !self.eat(b'[') {
            return Err(self.expected("`[`"));
        }
        if self.eat(b']') {
            return Ok(());
        }
        let mut index = 0;
        loop {
            f(self, index)?;
            index += 1;
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Ok(());
            }
            return Err(self.expected("`,` or `]`"));
        }
    }
}

fn stop_from(e: serde_json::Error, start_line: usize) -> JsonStop {
    let line = start_line + e.line().saturating_sub(1);
    if e.is_eof() {
        JsonStop::Eof { line }
    } else {
        JsonStop::Syntax {
            line,
            message: e.to_string(),
        }
    }
}

/// A member name, borrowed from the input unless it contains escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// A scalar member value; nested arrays and objects are skipped and read as `Other`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar<'a> {
    Num(f64),
    Str(Cow<'a, str>),
    Other,
}

impl Scalar<'_> {
    /// The number, or a string holding a number (`"cpu": "3"`), within
    /// [`Ceiling::Counter`](crate::common::Ceiling::Counter).
    pub(crate) fn as_f64(&self) -> Option<f64> {
        self.read(crate::common::Ceiling::Counter).ok()
    }

    /// The number, or a string holding a number, held to `ceiling`.
    pub(crate) fn read(
        &self,
        ceiling: crate::common::Ceiling,
    ) -> Result<f64, crate::common::NumError> {
        match self {
            Scalar::Num(n) => ceiling.check(*n),
            Scalar::Str(s) => crate::common::read_num(s, ceiling),
            Scalar::Other => Err(crate::common::NumError::NotANumber),
        }
    }

    /// The value as the document writes it, for an issue message (`1.7e308`, not 309 digits).
    pub(crate) fn text(&self) -> String {
        match self {
            Scalar::Num(n) if n.abs() >= 1e15 => format!("{n:e}"),
            Scalar::Num(n) => n.to_string(),
            Scalar::Str(s) => s.to_string(),
            Scalar::Other => "…".to_string(),
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v as f64))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Scalar::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Scalar::Other)
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(v.to_string())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// The members of a flat JSON object, in document order (a disk or CPU record).
#[derive(Debug, Default)]
pub(crate) struct Fields<'a>(pub(crate) Vec<(Cow<'a, str>, Scalar<'a>)>);

impl<'a> Fields<'a> {
    pub(crate) fn get(&self, key: &str) -> Option<&Scalar<'a>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    let v = map.next_value::<Scalar<'de>>()?;
                    out.push((k, v));
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The host record of a sysstat JSON document, collected member by member.
#[derive(Debug, Default)]
pub(crate) struct HostFields {
    pub(crate) line: usize,
    pub(crate) nodename: Option<String>,
    pub(crate) sysname: Option<String>,
    pub(crate) release: Option<String>,
    pub(crate) machine: Option<String>,
    pub(crate) cpus: Option<u32>,
    pub(crate) date: Option<crate::common::Date>,
}

impl HostFields {
    /// Reads one scalar member of the host record; returns `false` for other keys (not consumed).
    pub(crate) fn read_member(
        &mut self,
        cur: &mut Cursor<'_>,
        key: &str,
    ) -> Result<bool, JsonStop> {
        let slot = match key {
            "nodename" => &mut self.nodename,
            "sysname" => &mut self.sysname,
            "release" => &mut self.release,
            "machine" => &mut self.machine,
            "number-of-cpus" | "date" | "file-date" => {
                let v = cur.value::<Scalar>()?;
                if let Some(v) = v {
                    if key == "number-of-cpus" {
                        self.cpus = v
                            .as_f64()
                            .filter(|n| *n >= 0.0 && *n <= f64::from(u32::MAX))
                            .map(|n| n as u32);
                    } else if self.date.is_none() {
                        self.date = v.as_str().and_then(crate::common::parse_date);
                    }
                }
                return Ok(true);
            }
            _ => return Ok(false),
        };
        if let Some(Scalar::Str(s)) = cur.value::<Scalar>()? {
            *slot = Some(s.into_owned());
        }
        Ok(true)
    }

    /// The banner equivalent, when the host record named at least the host or the kernel.
    pub(crate) fn into_header(self) -> Option<crate::common::SysstatHeader> {
        if self.nodename.is_none() && self.release.is_none() && self.sysname.is_none() {
            return None;
        }
        Some(crate::common::SysstatHeader {
            sysname: self.sysname.unwrap_or_default(),
            release: self.release.unwrap_or_default(),
            nodename: self.nodename.unwrap_or_default(),
            date: self.date,
            machine: self.machine,
            cpus: self.cpus,
            line: self.line,
        })
    }
}

/// Walks `{"sysstat": {"hosts": [host, …]}}` and calls `on_host(cursor, host)` with the cursor on
/// the first host's `statistics` array (other members of the host are read into `host`). Other
/// hosts are skipped.
pub(crate) fn walk_sysstat<'a>(
    cur: &mut Cursor<'a>,
    host: &mut HostFields,
    mut on_statistics: impl FnMut(&mut Cursor<'a>, &HostFields) -> Result<(), JsonStop>,
) -> Result<(), JsonStop> {
    let mut seen_sysstat = false;
    cur.object(|cur, key| {
        if key != "sysstat" {
            return cur.skip();
        }
        seen_sysstat = true;
        cur.object(|cur, key| {
            if key != "hosts" {
                return cur.skip();
            }
            cur.array(|cur, index| {
                if index > 0 {
                    return cur.skip();
                }
                host.line = cur.line();
                cur.object(|cur, key| {
                    if key == "statistics" {
                        on_statistics(cur, host)
                    } else if host.read_member(cur, key)? {
                        Ok(())
                    } else {
                        cur.skip()
                    }
                })
            })
        })
    })?;
    if seen_sysstat {
        Ok(())
    } else {
        Err(JsonStop::Syntax {
            line: 1,
            message: "expected a `sysstat` member at the top level".to_string(),
        })
    }
}

/// Shared by the iostat and mpstat sniffers: `Yes` when the head of a sysstat JSON document has
/// one of `keys`, `Unsure` when it is cut before the first sample, `No` otherwise (another tool's
/// document, or sadf's, whose samples carry a `timestamp` object and the host a `file-date`).
pub(crate) fn sniff_json(head: &str, keys: &[&str]) -> Sniff {
    if !head.contains("\"sysstat\"") || head.contains("\"file-date\"") {
        return Sniff::No;
    }
    if keys.iter().any(|k| head.contains(k)) {
        return Sniff::Yes;
    }
    match head.find("\"statistics\"") {
        None => Sniff::Unsure,
        Some(i) => {
            // Nothing but the opening of the first sample after `"statistics"`?
            let rest = head.get(i + "\"statistics\"".len()..).unwrap_or("");
            if rest
                .bytes()
                .all(|b| b.is_ascii_whitespace() || matches!(b, b':' | b'[' | b'{'))
            {
                Sniff::Unsure
            } else {
                Sniff::No
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_and_stops_at_the_cut() {
        let text = "{\"a\": [\n{\"x\": 1},\n{\"x\": 2},\n{\"x\": 3";
        let mut cur = Cursor::new(text);
        let mut seen = Vec::new();
        let r = cur.object(|cur, key| {
            assert_eq!(key, "a");
            cur.array(|cur, _| {
                let line = cur.line();
                let f = cur.value::<Fields>()?.unwrap_or_default();
                seen.push((line, f.get("x").and_then(Scalar::as_f64)));
                Ok(())
            })
        });
        assert!(matches!(r, Err(JsonStop::Eof { line: 4 })), "{r:?}");
        assert_eq!(seen, vec![(2, Some(1.0)), (3, Some(2.0))]);
    }

    #[test]
    fn syntax_error_is_not_eof() {
        let mut cur = Cursor::new("{\"a\" 1}");
        let r = cur.object(|cur, _| cur.skip());
        assert!(matches!(r, Err(JsonStop::Syntax { .. })), "{r:?}");
    }

    #[test]
    fn escaped_keys_and_nested_values() {
        let mut cur = Cursor::new(r#"{"k\u0065y": "v", "n": {"deep": [1, 2]}, "s": "12,5"}"#);
        let f = cur.value::<Fields>().unwrap().unwrap();
        assert_eq!(f.get("key").and_then(Scalar::as_str), Some("v"));
        assert_eq!(f.get("n"), Some(&Scalar::Other));
        assert_eq!(f.get("s").and_then(Scalar::as_f64), Some(12.5));
    }

    fn fixed(text: &str) -> (String, Vec<(usize, Repair)>) {
        let r = repair(text);
        (r.text.into_owned(), r.repairs)
    }

    #[test]
    fn decimal_commas_of_member_values_only() {
        let (t, r) = fixed("{\"a\": 2,51, \"b\": -0,50,\n\"c\": 7,00\n}");
        assert_eq!(t, "{\"a\": 2.51, \"b\": -0.50,\n\"c\": 7.00\n}");
        assert_eq!(
            r,
            vec![
                (1, Repair::DecimalSeparator),
                (1, Repair::DecimalSeparator),
                (2, Repair::DecimalSeparator)
            ]
        );
        // Arrays separate with commas; strings are data; a comma followed by a name is a
        // separator; a number that already has a point is not touched.
        for ok in [
            "{\"a\": [1,5]}",
            "{\"s\": \"2,51,\\\"x\\\": 3,4}\", \"n\": 1}",
            "{\"a\": 1,\"b\": 2}",
            "{\"a\": 1.5,2}",
            "{\"a\": 1,2 3}",
        ] {
            let (t, r) = fixed(ok);
            assert_eq!((t.as_str(), r.len()), (ok, 0), "{ok}");
        }
    }

    #[test]
    fn leading_and_missing_commas() {
        let (t, r) = fixed("{\"s\": [\n,\n{\"x\": 1}]}");
        assert_eq!(t, "{\"s\": [\n \n{\"x\": 1}]}");
        assert_eq!(r, vec![(2, Repair::StrayComma)]);
        let (t, r) = fixed("{\"a\": \"d\"\n\"b\": {}\t\"c\": []}");
        assert_eq!(t, "{\"a\": \"d\"\n,\"b\": {}\t,\"c\": []}");
        assert_eq!(
            r,
            vec![(2, Repair::MissingComma), (2, Repair::MissingComma)]
        );
        serde_json::from_str::<serde_json::Value>(&t).unwrap();
        // A trailing comma is no known defect: left for the parser to report.
        let (t, r) = fixed("{\"a\": [1,]}");
        assert_eq!((t.as_str(), r.len()), ("{\"a\": [1,]}", 0));
    }

    #[test]
    fn repair_stops_at_what_it_does_not_know() {
        for text in [
            "",
            "{",
            "{\"a",
            "{\"a\": 1,2",
            "]]]",
            "{\"a\": 1} 2,5",
            "{\"a\" 2,5}",
        ] {
            let (t, r) = fixed(text);
            assert_eq!((t.as_str(), r.len()), (text, 0), "{text:?}");
        }
    }
}
