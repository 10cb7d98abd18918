//! `/proc/PID/status` (kind `proc-status`): the kernel's one-line-per-field summary of a
//! process (`fs/proc/array.c`, `task_mem` in `fs/proc/task_mmu.c`), Linux 2.6 to 6.x.
//!
//! In: `Key:<TAB>value` lines. Memory sizes are printed as `  37500 kB`, where kB means KiB
//! (1024 bytes). Fields come and go with kernel versions (`RssAnon`, `RssFile`, `RssShmem`
//! since 4.5; `NSpid` since 4.1; `Kthread` since 6.x; `THP_enabled`, `untag_mask`, …), so
//! every field is kept by name with its line, and the usual ones have typed accessors.
//!
//! Sample input (OpenJDK 17 on Linux 6.18, shortened):
//! ```text
//! Name:       java
//! State:      S (sleeping)
//! Tgid:       12887
//! Pid:        12887
//! PPid:       1
//! Uid:        0       0       0       0
//! VmPeak:      2701144 kB
//! VmRSS:         37500 kB
//! VmSwap:            0 kB
//! Threads:    23
//! Cpus_allowed_list:  0-1
//! voluntary_ctxt_switches:    1
//! nonvoluntary_ctxt_switches: 1
//! ```
//!
//! Out: a [`ProcStatus`]. A kernel thread has no `Vm*` lines: their accessors return `None`.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// One `Key:<TAB>value` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusField {
    /// The value as printed, surrounding whitespace removed (`S (sleeping)`, `37500 kB`,
    /// `0\t0\t0\t0`).
    pub value: String,
    /// For sizes printed as `N kB`: N, in KiB.
    pub kib: Option<u64>,
    /// 1-based input line.
    pub line: usize,
}

/// A parsed `/proc/PID/status`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ProcStatus {
    /// Every field by its key as printed (`VmRSS`, `voluntary_ctxt_switches`).
    pub fields: BTreeMap<String, StatusField>,
}

/// Fields printed as `N kB`.
const KIB_FIELDS: &[&str] = &[
    "VmPeak",
    "VmSize",
    "VmLck",
    "VmPin",
    "VmHWM",
    "VmRSS",
    "RssAnon",
    "RssFile",
    "RssShmem",
    "VmData",
    "VmStk",
    "VmExe",
    "VmLib",
    "VmPTE",
    "VmPMD",
    "VmSwap",
    "HugetlbPages",
];

/// Fields printed as one whole number.
const COUNT_FIELDS: &[&str] = &[
    "Tgid",
    "Ngid",
    "Pid",
    "PPid",
    "TracerPid",
    "FDSize",
    "Threads",
    "voluntary_ctxt_switches",
    "nonvoluntary_ctxt_switches",
];

/// The four ids of a `Uid:` or `Gid:` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ids {
    /// Real id.
    pub real: u32,
    /// Effective id (the one permission checks use).
    pub effective: u32,
    /// Saved set-id.
    pub saved: u32,
    /// File-system id.
    pub fs: u32,
}

fn ids(value: &str) -> Option<Ids> {
    let mut it = value.split_ascii_whitespace().map(|t| t.parse::<u32>());
    let ids = Ids {
        real: it.next()?.ok()?,
        effective: it.next()?.ok()?,
        saved: it.next()?.ok()?,
        fs: it.next()?.ok()?,
    };
    it.next().is_none().then_some(ids)
}

impl ProcStatus {
    /// The field `key` (as printed, e.g. `VmRSS`).
    pub fn get(&self, key: &str) -> Option<&StatusField> {
        self.fields.get(key)
    }

    /// The value of `key` as printed.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.get(key).map(|f| f.value.as_str())
    }

    /// A size field in KiB (`VmRSS` → 37500).
    pub fn kib(&self, key: &str) -> Option<u64> {
        self.get(key)?.kib
    }

    /// A whole-number field (`Threads`, `FDSize`, …).
    pub fn count(&self, key: &str) -> Option<u64> {
        self.value(key)?.parse().ok()
    }

    /// `Name`: the command name (`comm`, at most 15 bytes, escaped by the kernel).
    pub fn name(&self) -> Option<&str> {
        self.value("Name")
    }

    /// `State` as printed (`S (sleeping)`).
    pub fn state(&self) -> Option<&str> {
        self.value("State")
    }

    /// The one-letter state code (`R`, `S`, `D`, `Z`, `T`, `t`, `X`, `I`).
    pub fn state_code(&self) -> Option<char> {
        self.state()?.chars().next()
    }

    /// `Pid`: the thread id (the process id for the main thread).
    pub fn pid(&self) -> Option<u32> {
        self.value("Pid")?.parse().ok()
    }

    /// `Tgid`: the process id.
    pub fn tgid(&self) -> Option<u32> {
        self.value("Tgid")?.parse().ok()
    }

    /// `PPid`: the parent's process id.
    pub fn ppid(&self) -> Option<u32> {
        self.value("PPid")?.parse().ok()
    }

    /// `Uid`: real, effective, saved and file-system user ids.
    pub fn uid(&self) -> Option<Ids> {
        ids(self.value("Uid")?)
    }

    /// `Gid`: real, effective, saved and file-system group ids.
    pub fn gid(&self) -> Option<Ids> {
        ids(self.value("Gid")?)
    }

    /// `Threads`: number of threads.
    pub fn threads(&self) -> Option<u64> {
        self.count("Threads")
    }

    /// `VmPeak`: peak virtual memory size, KiB.
    pub fn vm_peak_kib(&self) -> Option<u64> {
        self.kib("VmPeak")
    }

    /// `VmSize`: virtual memory size, KiB.
    pub fn vm_size_kib(&self) -> Option<u64> {
        self.kib("VmSize")
    }

    /// `VmHWM`: peak resident set size ("high water mark"), KiB.
    pub fn vm_hwm_kib(&self) -> Option<u64> {
        self.kib("VmHWM")
    }

    /// `VmRSS`: resident set size (`RssAnon + RssFile + RssShmem`), KiB.
    pub fn vm_rss_kib(&self) -> Option<u64> {
        self.kib("VmRSS")
    }

    /// `RssAnon`: resident anonymous memory (heap, stacks), KiB. Linux ≥ 4.5.
    pub fn rss_anon_kib(&self) -> Option<u64> {
        self.kib("RssAnon")
    }

    /// `RssFile`: resident file mappings, KiB. Linux ≥ 4.5.
    pub fn rss_file_kib(&self) -> Option<u64> {
        self.kib("RssFile")
    }

    /// `VmData`: size of data segments (private writable mappings), KiB.
    pub fn vm_data_kib(&self) -> Option<u64> {
        self.kib("VmData")
    }

    /// `VmSwap`: anonymous memory swapped out, KiB.
    pub fn vm_swap_kib(&self) -> Option<u64> {
        self.kib("VmSwap")
    }

    /// `voluntary_ctxt_switches`: times the process gave up the CPU (blocked, slept).
    pub fn voluntary_ctxt_switches(&self) -> Option<u64> {
        self.count("voluntary_ctxt_switches")
    }

    /// `nonvoluntary_ctxt_switches`: times the process was preempted.
    pub fn nonvoluntary_ctxt_switches(&self) -> Option<u64> {
        self.count("nonvoluntary_ctxt_switches")
    }

    /// `Cpus_allowed_list`: the CPUs the process may run on (`0-1`).
    pub fn cpus_allowed_list(&self) -> Option<&str> {
        self.value("Cpus_allowed_list")
    }

    /// Number of CPUs in `Cpus_allowed_list` (read with
    /// [`parse_cpu_list`](crate::net::irq_affinity::parse_cpu_list)); `None` when it is not a CPU
    /// list.
    pub fn cpus_allowed_count(&self) -> Option<usize> {
        crate::net::irq_affinity::parse_cpu_list(self.cpus_allowed_list()?)
            .ok()
            .map(|cpus| cpus.len())
    }
}

/// Keys that only `/proc/PID/status` prints; one of them must be present.
const IDENTITY_KEYS: &[&str] = &["Name", "Pid", "Tgid", "State"];

fn is_key(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Reads `Key:<TAB>value`.
fn field(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    is_key(k).then_some((k, v.trim()))
}

/// `N kB` → N.
fn kib_of(v: &str) -> Option<u64> {
    v.strip_suffix("kB")?.trim().parse().ok()
}

/// Is this `/proc/PID/status`?
///
/// `Yes` when the first non-blank line is `Name:<TAB>…` and a complete `State:`, `Tgid:` or
/// `Pid:` line follows in the head; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next() {
        Some((l, _)) if l.starts_with("Name:\t") => {}
        _ => return Sniff::No,
    }
    let follows = lines.any(|(l, complete)| {
        complete
            && ["State:\t", "Tgid:\t", "Pid:\t"]
                .iter()
                .any(|p| l.starts_with(p))
    });
    if follows {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/PID/status`.
///
/// Errors: [`ParseError::Unusable`] when none of `Name`, `Pid`, `Tgid`, `State` is present.
/// Lines that are not `Key: value`, and known numeric fields that do not hold a number, are
/// issues; a repeated key keeps its last value, with an issue.
pub fn parse(text: &str) -> Result<Parsed<ProcStatus>, ParseError> {
    let mut out = ProcStatus::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = field(line) else {
            issues.push(n, || {
                format!("expected `Key:<TAB>value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let kib = kib_of(value);
        if KIB_FIELDS.contains(&key) && kib.is_none() {
            issues.push(n, || {
                format!("`{key}`: expected `N kB`, found `{}`", excerpt(value))
            });
        }
        if COUNT_FIELDS.contains(&key) && value.parse::<u64>().is_err() {
            issues.push(n, || {
                format!(
                    "`{key}`: expected a whole number, found `{}`",
                    excerpt(value)
                )
            });
        }
        if (key == "Uid" || key == "Gid") && ids(value).is_none() {
            issues.push(n, || {
                format!("`{key}`: expected four ids, found `{}`", excerpt(value))
            });
        }
        let f = StatusField {
            value: value.to_string(),
            kib,
            line: n,
        };
        if let Some(prev) = out.fields.insert(key.to_string(), f) {
            issues.push(n, || {
                format!(
                    "`{key}` is repeated (first on line {}); the last value is kept",
                    prev.line
                )
            });
        }
    }
    if !IDENTITY_KEYS.iter().any(|k| out.fields.contains_key(*k)) {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `Name:`, `Pid:`, `Tgid:` or `State:` line: not a /proc/PID/status".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
