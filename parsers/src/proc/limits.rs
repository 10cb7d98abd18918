//! `/proc/<pid>/limits`: a process's resource limits as the kernel prints them.
//!
//! Kernel `proc_pid_limits`, `%-25s %-20s %-20s %-10s` (2.6.24 and later):
//! ```text
//! Limit                     Soft Limit           Hard Limit           Units
//! Max open files            1024                 4096                 files
//! Max nice priority         0                    0
//! ```
//! Every row is mapped to the kernel resource it shows ([`Resource`], `RLIMIT_*`); the shells'
//! `ulimit -a` ([`ulimit`](crate::procs::ulimit)) is read onto the same resources, so the two
//! can be compared.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A limit value: `unlimited` or a number in the row's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum LimitValue {
    /// A finite limit.
    Value(u64),
    /// `unlimited` (`RLIM_INFINITY`).
    Unlimited,
}

impl LimitValue {
    pub(crate) fn parse(s: &str) -> Option<LimitValue> {
        match s {
            "unlimited" => Some(LimitValue::Unlimited),
            _ => s.parse().ok().map(LimitValue::Value),
        }
    }

    /// The finite value, `None` when unlimited.
    pub fn finite(self) -> Option<u64> {
        match self {
            LimitValue::Value(v) => Some(v),
            LimitValue::Unlimited => None,
        }
    }
}

/// The kernel resource a row shows (`RLIMIT_*` in `include/uapi/asm-generic/resource.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Resource {
    /// `RLIMIT_CPU`: CPU time, seconds.
    Cpu,
    /// `RLIMIT_FSIZE`: file size.
    Fsize,
    /// `RLIMIT_DATA`: data segment size.
    Data,
    /// `RLIMIT_STACK`: stack size.
    Stack,
    /// `RLIMIT_CORE`: core file size.
    Core,
    /// `RLIMIT_RSS`: resident set size (not enforced by Linux).
    Rss,
    /// `RLIMIT_NPROC`: processes (threads) per user.
    Nproc,
    /// `RLIMIT_NOFILE`: open files.
    Nofile,
    /// `RLIMIT_MEMLOCK`: locked memory.
    Memlock,
    /// `RLIMIT_AS`: address space (virtual memory).
    As,
    /// `RLIMIT_LOCKS`: file locks.
    Locks,
    /// `RLIMIT_SIGPENDING`: pending signals.
    Sigpending,
    /// `RLIMIT_MSGQUEUE`: POSIX message queue bytes.
    Msgqueue,
    /// `RLIMIT_NICE`: nice ceiling.
    Nice,
    /// `RLIMIT_RTPRIO`: real-time priority ceiling.
    Rtprio,
    /// `RLIMIT_RTTIME`: real-time CPU time without blocking, microseconds.
    Rttime,
}

/// Resource of a `/proc/<pid>/limits` row name.
fn resource_of_proc(name: &str) -> Option<Resource> {
    Some(match name {
        "Max cpu time" => Resource::Cpu,
        "Max file size" => Resource::Fsize,
        "Max data size" => Resource::Data,
        "Max stack size" => Resource::Stack,
        "Max core file size" => Resource::Core,
        "Max resident set" => Resource::Rss,
        "Max processes" => Resource::Nproc,
        "Max open files" => Resource::Nofile,
        "Max locked memory" => Resource::Memlock,
        "Max address space" => Resource::As,
        "Max file locks" => Resource::Locks,
        "Max pending signals" => Resource::Sigpending,
        "Max msgqueue size" => Resource::Msgqueue,
        "Max nice priority" => Resource::Nice,
        "Max realtime priority" => Resource::Rtprio,
        "Max realtime timeout" => Resource::Rttime,
        _ => return None,
    })
}

/// One row of `/proc/<pid>/limits`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProcLimit {
    /// Name as printed (`Max open files`).
    pub name: String,
    /// The resource, when known.
    pub resource: Option<Resource>,
    /// Soft limit (the one enforced).
    pub soft: LimitValue,
    /// Hard limit (the ceiling for the soft limit).
    pub hard: LimitValue,
    /// Units as printed (`files`, `bytes`, `us`); `None` when blank (nice, rtprio).
    pub units: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `/proc/<pid>/limits`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ProcLimits {
    /// Rows in input order.
    pub limits: Vec<ProcLimit>,
}

impl ProcLimits {
    /// The row of a resource.
    pub fn get(&self, resource: Resource) -> Option<&ProcLimit> {
        self.limits.iter().find(|l| l.resource == Some(resource))
    }

    /// The row by its printed name (`Max open files`).
    pub fn by_name(&self, name: &str) -> Option<&ProcLimit> {
        self.limits.iter().find(|l| l.name == name)
    }
}

fn is_proc_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("Limit") && t.next() == Some("Soft") && t.next() == Some("Limit")
}

/// `Max open files  1024  4096  files`.
fn proc_line(line: &str, n: usize) -> Result<ProcLimit, String> {
    let toks: Vec<&str> = line.split_ascii_whitespace().collect();
    let expected = "expected `Max name  soft  hard  [units]`";
    let last = toks
        .last()
        .ok_or_else(|| format!("{expected}, found an empty line"))?;
    let units_present = LimitValue::parse(last).is_none();
    let k = toks.len();
    let need = if units_present { 4 } else { 3 };
    if k < need {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    }
    let (soft, hard, units) = if units_present {
        (toks[k - 3], toks[k - 2], Some(*last))
    } else {
        (toks[k - 2], toks[k - 1], None)
    };
    let name = toks[..k - need + 1].join(" ");
    let parse = |v: &str, which: &str| {
        LimitValue::parse(v).ok_or_else(|| {
            format!(
                "`{name}`: {which} limit `{}` is neither a number nor `unlimited`",
                excerpt(v)
            )
        })
    };
    Ok(ProcLimit {
        resource: resource_of_proc(&name),
        soft: parse(soft, "soft")?,
        hard: parse(hard, "hard")?,
        units: units.map(str::to_string),
        name,
        line: n,
    })
}

/// Is this `/proc/<pid>/limits`? `Yes` when the first non-blank line is the `Limit  Soft Limit
/// Hard Limit  Units` header; `No` otherwise.
pub fn sniff_proc_limits(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if is_proc_header(l) => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `/proc/<pid>/limits`.
///
/// Errors: [`ParseError::Unusable`] when the header is missing.
pub fn parse_proc_limits(text: &str) -> Result<Parsed<ProcLimits>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, l)) if is_proc_header(l) => {}
        Some((n, l)) => {
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the header `Limit  Soft Limit  Hard Limit  Units`, found `{}`",
                    excerpt(l)
                ),
            ))
        }
        None => return Err(ParseError::unusable(None, "input is empty")),
    }
    let mut out = ProcLimits::default();
    let mut issues = Issues::default();
    for (n, line) in lines {
        match proc_line(line, n) {
            Ok(l) => out.limits.push(l),
            Err(msg) => issues.push(n, || msg),
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
