//! `ulimit -a`: the shell's resource limits, as bash, dash and BusyBox `sh` print them.
//!
//! bash 5.2 (`(unit, -flag)` before the value; bash 4 lacks the `-R` line):
//! ```text
//! core file size              (blocks, -c) 0
//! open files                          (-n) 20000
//! pipe size                (512 bytes, -p) 8
//! ```
//! BusyBox 1.35 `sh` (unit inside the name, flag alone):
//! ```text
//! core file size (blocks)         (-c) 0
//! open files                      (-n) 20000
//! ```
//! dash 0.5.12 (no flags; the unit glued to the name):
//! ```text
//! time(seconds)        unlimited
//! locked memory(kbytes) 8192
//! nofiles              20000
//! ```
//! Every row is mapped to the kernel resource it shows ([`Resource`], `RLIMIT_*`), so the
//! three shells and [`/proc/<pid>/limits`](crate::proc::limits) can be compared.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use crate::proc::limits::{LimitValue, Resource};
use serde::Serialize;

/// Resource of a bash/BusyBox option letter (`-p`, the pipe size, is not a resource limit).
fn resource_of_flag(flag: char) -> Option<Resource> {
    Some(match flag {
        't' => Resource::Cpu,
        'f' => Resource::Fsize,
        'd' => Resource::Data,
        's' => Resource::Stack,
        'c' => Resource::Core,
        'm' => Resource::Rss,
        'u' => Resource::Nproc,
        'n' => Resource::Nofile,
        'l' => Resource::Memlock,
        'v' => Resource::As,
        'x' => Resource::Locks,
        'i' => Resource::Sigpending,
        'q' => Resource::Msgqueue,
        'e' => Resource::Nice,
        'r' => Resource::Rtprio,
        'R' => Resource::Rttime,
        _ => return None,
    })
}

/// Resource of a dash row name (as dash 0.5.12 prints them).
fn resource_of_dash(name: &str) -> Option<Resource> {
    Some(match name {
        "time" => Resource::Cpu,
        "file" => Resource::Fsize,
        "data" => Resource::Data,
        "stack" => Resource::Stack,
        "coredump" => Resource::Core,
        "memory" => Resource::Rss,
        "locked memory" => Resource::Memlock,
        "process" => Resource::Nproc,
        "nofiles" => Resource::Nofile,
        "vmemory" => Resource::As,
        "locks" => Resource::Locks,
        "rtprio" => Resource::Rtprio,
        _ => return None,
    })
}

/// Which shell printed a `ulimit -a`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum UlimitFormat {
    /// `name (unit, -f) value` (bash).
    Bash,
    /// `name (unit) (-f) value` (BusyBox `sh`; bash rows without a unit look the same).
    Busybox,
    /// `name(unit) value` without flags (dash).
    Dash,
}

/// One row of `ulimit -a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UlimitEntry {
    /// Name as printed, without unit and flag (`open files`, `nofiles`).
    pub name: String,
    /// The `ulimit` option letter (`n`); `None` for dash.
    pub flag: Option<char>,
    /// Unit as printed (`blocks`, `kbytes`, `kb`, `512 bytes`, `seconds`, `microseconds`).
    pub unit: Option<String>,
    /// The resource, when known.
    pub resource: Option<Resource>,
    /// The (soft) limit.
    pub value: LimitValue,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `ulimit -a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ulimit {
    /// Layout of the first row read.
    pub format: UlimitFormat,
    /// Rows in input order.
    pub entries: Vec<UlimitEntry>,
}

impl Ulimit {
    /// The row of a resource.
    pub fn get(&self, resource: Resource) -> Option<&UlimitEntry> {
        self.entries.iter().find(|e| e.resource == Some(resource))
    }

    /// The row of an option letter (`'n'`).
    pub fn flag(&self, flag: char) -> Option<&UlimitEntry> {
        self.entries.iter().find(|e| e.flag == Some(flag))
    }
}

/// `name(unit)` → (`name`, `unit`).
fn split_unit(name: &str) -> (&str, Option<&str>) {
    let t = name.trim_end();
    if let Some((name, unit)) = t.strip_suffix(')').and_then(|b| b.rsplit_once('(')) {
        return (name.trim_end(), Some(unit.trim()));
    }
    (t, None)
}

/// One `ulimit -a` row in any of the three layouts.
fn ulimit_line(line: &str, n: usize) -> Result<(UlimitEntry, UlimitFormat), String> {
    let t = line.trim();
    let (head, value) = t
        .rsplit_once([' ', '\t'])
        .ok_or_else(|| format!("expected `name … value`, found `{}`", excerpt(t)))?;
    let value = LimitValue::parse(value).ok_or_else(|| {
        format!(
            "expected a number or `unlimited` at the end, found `{}`",
            excerpt(value)
        )
    })?;
    let head = head.trim_end();
    // bash/BusyBox: a trailing `(…-x)` group holds the flag.
    if let Some(body) = head.strip_suffix(')') {
        if let Some((name_part, inner)) = body.rsplit_once('(') {
            let (unit, flag) = match inner.rsplit_once(',') {
                Some((u, f)) => (Some(u.trim()), f.trim()),
                None => (None, inner.trim()),
            };
            if let Some(f) = flag.strip_prefix('-') {
                let mut chars = f.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    let name_part = name_part.trim_end();
                    let (name, unit, format) = match unit {
                        Some(u) => (name_part, Some(u), UlimitFormat::Bash),
                        None => {
                            let (name, u) = split_unit(name_part);
                            (name, u, UlimitFormat::Busybox)
                        }
                    };
                    if name.is_empty() {
                        return Err(format!("no limit name in `{}`", excerpt(t)));
                    }
                    return Ok((
                        UlimitEntry {
                            name: name.to_string(),
                            flag: Some(c),
                            unit: unit.map(str::to_string),
                            resource: resource_of_flag(c),
                            value,
                            line: n,
                        },
                        format,
                    ));
                }
            }
        }
    }
    // dash: `name(unit)` or `name`.
    let (name, unit) = split_unit(head);
    let resource = resource_of_dash(name);
    if name.is_empty() || (resource.is_none() && unit.is_none()) {
        return Err(format!(
            "expected `name (unit, -flag) value` (bash), `name (-flag) value` (BusyBox) or \
             `name(unit) value` (dash), found `{}`",
            excerpt(t)
        ));
    }
    Ok((
        UlimitEntry {
            name: name.to_string(),
            flag: None,
            unit: unit.map(str::to_string),
            resource,
            value,
            line: n,
        },
        UlimitFormat::Dash,
    ))
}

/// Is this `ulimit -a` output? `Yes` when at least three complete non-blank lines of the head
/// are rows with a known resource and none is something else; `No` otherwise.
pub fn sniff_ulimit(head: &str) -> Sniff {
    let mut known = 0;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        match ulimit_line(line, 0) {
            Ok((e, _)) if e.resource.is_some() => known += 1,
            Ok(_) => {}
            Err(_) if complete => return Sniff::No,
            Err(_) => {}
        }
    }
    if known >= 3 {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `ulimit -a` from bash, BusyBox `sh` or dash.
///
/// Errors: [`ParseError::Unusable`] when no row is recognised.
pub fn parse_ulimit(text: &str) -> Result<Parsed<Ulimit>, ParseError> {
    let mut entries = Vec::new();
    let mut format = None;
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match ulimit_line(line, n) {
            Ok((e, f)) => {
                format.get_or_insert(f);
                entries.push(e);
            }
            Err(msg) => issues.push(n, || msg),
        }
    }
    let Some(format) = format else {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `ulimit -a` row (e.g. `open files (-n) 1024`)".to_string()
            },
        ));
    };
    Ok(Parsed {
        value: Ulimit { format, entries },
        issues: issues.into_vec(),
    })
}
