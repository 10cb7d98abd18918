//! A small streaming reader for sysstat `-o JSON` documents.
//!
//! sysstat writes `{"sysstat": {"hosts": [{…, "statistics": [sample, sample, …]}]}}` as it goes,
//! so a run killed by a timeout leaves a document cut in the middle of a sample. Instead of
//! deserializing the whole document (which fails on the first missing byte), [`Cursor`] walks
//! the structure level by level and hands each member or element to the caller as soon as it is
//! complete; everything read before the cut is kept. Scalars and flat objects are read with
//! `serde_json`'s [`StreamDeserializer`](serde_json::StreamDeserializer), which also reports the
//! byte offset where each value ends, so input line numbers can be given for every object.

use crate::common::{Issues, ParseError, Sniff};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
}
