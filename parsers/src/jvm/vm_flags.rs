//! `jcmd PID VM.flags`: the `-XX` flags a running JVM was given or chose by ergonomics.
//!
//! jcmd prints the target PID alone first, then the flags on one line (OpenJDK 17.0.15, cut):
//! ```text
//! 24267:
//! -XX:CICompilerCount=2 -XX:ConcGCThreads=1 -XX:G1HeapRegionSize=1048576 -XX:InitialHeapSize=67108864 -XX:+UseG1GC
//! ```
//! Units: flag values are as HotSpot prints them: sizes (`MaxHeapSize`, `InitialHeapSize`,
//! `ReservedCodeCacheSize`…) in bytes, counts as plain numbers.
//!
//! Not handled: `VM.flags -all` (the table form).

use super::pid_line;
use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::BTreeMap;

/// A `-XX` flag value as `VM.flags` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum FlagValue {
    /// `-XX:+Name` (true) or `-XX:-Name` (false).
    Bool(bool),
    /// `-XX:Name=123`: a whole number (sizes in bytes).
    Number(u64),
    /// `-XX:Name=text` for anything else.
    Text(String),
}

/// One flag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VmFlag {
    /// The value.
    pub value: FlagValue,
    /// 1-based input line.
    pub line: usize,
}

/// `jcmd PID VM.flags` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmFlags {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// Flags by name (without `-XX:` and `+`/`-`); a later duplicate wins.
    pub flags: BTreeMap<String, VmFlag>,
}

impl VmFlags {
    /// A numeric flag's value, e.g. `number("MaxHeapSize")` in bytes.
    pub fn number(&self, name: &str) -> Option<u64> {
        match self.flags.get(name)?.value {
            FlagValue::Number(v) => Some(v),
            _ => None,
        }
    }

    /// A boolean flag's value, e.g. `enabled("UseG1GC")`.
    pub fn enabled(&self, name: &str) -> Option<bool> {
        match self.flags.get(name)?.value {
            FlagValue::Bool(v) => Some(v),
            _ => None,
        }
    }
}

fn parse_flag(tok: &str) -> Option<(String, FlagValue)> {
    let f = tok.strip_prefix("-XX:")?;
    if let Some(name) = f.strip_prefix('+') {
        return (!name.is_empty()).then(|| (name.to_string(), FlagValue::Bool(true)));
    }
    if let Some(name) = f.strip_prefix('-') {
        return (!name.is_empty()).then(|| (name.to_string(), FlagValue::Bool(false)));
    }
    let (name, value) = f.split_once('=')?;
    if name.is_empty() {
        return None;
    }
    let value = if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        value
            .parse()
            .map(FlagValue::Number)
            .unwrap_or_else(|_| FlagValue::Text(value.to_string()))
    } else {
        FlagValue::Text(value.to_string())
    };
    Some((name.to_string(), value))
}

/// Fewest flags on the line of `jcmd VM.flags` (it prints every flag set on the command line or
/// by ergonomics on one line: 25 on the JDK 17 capture).
const MIN_FLAGS: usize = 3;

/// `jcmd VM.flags` output?
///
/// `Yes` on a complete line of at least [`MIN_FLAGS`] `-XX:` flags and nothing else; `No`
/// otherwise: a `jvm.options` file holds one flag per line, which is configuration, not a JVM.
pub fn sniff_vm_flags(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if complete && toks.len() >= MIN_FLAGS && toks.iter().all(|t| parse_flag(t).is_some()) {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.flags` (one or several lines of `-XX:` flags).
///
/// Errors: [`ParseError::Unusable`] when no flag is found. Tokens that are not `-XX:` flags
/// become issues.
pub fn parse_vm_flags(text: &str) -> Result<Parsed<VmFlags>, ParseError> {
    let mut out = VmFlags::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.flags.is_empty() {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        // A text value may hold spaces (`-XX:OnOutOfMemoryError=kill -9 %p`): HotSpot prints it
        // raw, so words that are not flags continue the previous text flag.
        let mut last_text: Option<String> = None;
        for tok in t.split_ascii_whitespace() {
            if !tok.starts_with("-XX:") {
                if let Some(name) = &last_text {
                    if let Some(VmFlag {
                        value: FlagValue::Text(v),
                        ..
                    }) = out.flags.get_mut(name)
                    {
                        v.push(' ');
                        v.push_str(tok);
                        continue;
                    }
                }
            }
            match parse_flag(tok) {
                Some((name, value)) => {
                    last_text = matches!(value, FlagValue::Text(_)).then(|| name.clone());
                    out.flags.insert(name, VmFlag { value, line: n });
                }
                None => issues.push(n, || {
                    format!(
                        "expected `-XX:+Name`, `-XX:-Name` or `-XX:Name=value`, found `{}`",
                        excerpt(tok)
                    )
                }),
            }
        }
    }
    if out.flags.is_empty() {
        return Err(ParseError::unusable(None, "no `-XX:` flag found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
