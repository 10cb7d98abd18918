//! Control-group membership and limits of one process, as `collector.sh` writes them into
//! `cgroup.tsv` (kind `cgroup`), for cgroup v1, v2 and hybrid hosts.
//!
//! In: lines of two record types, fields separated by one TAB:
//!
//! - `cgroup<TAB>LINE`: one line of `/proc/PID/cgroup`, `hierarchy-id:controllers:path`
//!   (v1: `4:memory:/docker/3f1c…`, `2:cpu,cpuacct:/…`, `1:name=systemd:/…`; v2: `0::/path`);
//! - `limit<TAB>FILE<TAB>DIR<TAB>VALUE`: one line of the control file `FILE` in the cgroup
//!   directory `DIR`, for the process's own cgroup and every ancestor up to the hierarchy's
//!   mount point (a limit set on a parent applies too). A multi-line file (`memory.events`,
//!   `cpu.stat`) gives one record per line, each `key value`.
//!
//! Files read by the collector: v2 `memory.max`, `memory.high`, `memory.swap.max`,
//! `memory.current`, `memory.events`, `cpu.max`, `cpu.weight`, `cpu.stat`; v1
//! `memory.limit_in_bytes`, `memory.memsw.limit_in_bytes`, `memory.usage_in_bytes`,
//! `memory.max_usage_in_bytes`, `memory.failcnt`, `memory.oom_control`, `cpu.cfs_quota_us`,
//! `cpu.cfs_period_us`, `cpu.shares`, `cpu.stat`; and `memory.stat` (v1 and v2) of the
//! process's own cgroup only. The collector reads them at the window's start and end
//! (`cgroup.tsv.start`, `cgroup.tsv.end`), so counters can be compared. Their formats are those
//! of the kernel's `Documentation/admin-guide/cgroup-v2.rst`, `cgroup-v1/memory.rst` and
//! `scheduler/sched-bwc.rst`.
//!
//! Sample input (a v2 host, lines shortened; the tabs of the real output are shown as spaces):
//! ```text
//! cgroup  0::/system.slice/kafka.service
//! limit   memory.max     /sys/fs/cgroup/system.slice/kafka.service  4294967296
//! limit   memory.events  /sys/fs/cgroup/system.slice/kafka.service  oom_kill 2
//! limit   cpu.max        /sys/fs/cgroup/system.slice/kafka.service  200000 100000
//! limit   memory.max     /sys/fs/cgroup/system.slice                max
//! ```
//!
//! Out: a [`Cgroup`] with the memberships and every limit line, raw and typed; "no limit" is
//! [`CgroupValue::Unlimited`]: `max` in v2, `-1` for v1's CFS quota, and v1's page-rounded
//! `LONG_MAX` (`9223372036854771712` with 4 KiB pages). Units: bytes for `memory.*` sizes,
//! microseconds for CPU quota, period and `*_usec`, nanoseconds for v1's `throttled_time`.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A typed control-file value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CgroupValue {
    /// A number in the file's unit (bytes, microseconds, a count or a weight).
    Number(u64),
    /// No limit: `max` (v2), `-1` (v1 CFS quota), or v1's page-rounded `LONG_MAX`.
    Unlimited,
}

impl CgroupValue {
    /// The number, `None` when unlimited.
    pub fn finite(self) -> Option<u64> {
        match self {
            CgroupValue::Number(n) => Some(n),
            CgroupValue::Unlimited => None,
        }
    }
}

/// v1 memory limits are stored in pages and printed as bytes: "no limit" is
/// `LONG_MAX` rounded down to the page size (`9223372036854771712` with 4 KiB pages,
/// `9223372036854710272` with 64 KiB pages). Anything within 1 MiB of `LONG_MAX` or above
/// it is taken as no limit.
const V1_UNLIMITED_FLOOR: u64 = i64::MAX as u64 - (1 << 20);

/// One line of `/proc/PID/cgroup`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Membership {
    /// Hierarchy id: `0` for the v2 unified hierarchy, ≥ 1 for a v1 hierarchy.
    pub hierarchy_id: u32,
    /// The v1 controllers of that hierarchy (`cpu`, `cpuacct`, `name=systemd`); empty for v2.
    pub controllers: Vec<String>,
    /// The cgroup path relative to the hierarchy's root (`/system.slice/kafka.service`).
    pub path: String,
    /// 1-based input line.
    pub line: usize,
}

impl Membership {
    /// Is this the v2 (unified) hierarchy line `0::/…`?
    pub fn is_v2(&self) -> bool {
        self.hierarchy_id == 0 && self.controllers.is_empty()
    }
}

/// One line of one control file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CgroupFile {
    /// The control file name (`memory.max`, `cpu.cfs_quota_us`).
    pub file: String,
    /// The cgroup directory it was read in (`/sys/fs/cgroup/system.slice`), mount point
    /// included.
    pub dir: String,
    /// The line as read.
    pub raw: String,
    /// For `key value` lines (`memory.events`, `cpu.stat`): the key (`oom_kill`,
    /// `nr_throttled`).
    pub key: Option<String>,
    /// The typed value: the whole line for one-value files, the number after the key for
    /// `key value` lines, the quota for `cpu.max`. `None` when it could not be read (an
    /// issue says why).
    pub value: Option<CgroupValue>,
    /// `cpu.max` only: the period, microseconds.
    pub period_us: Option<u64>,
    /// 1-based input line.
    pub line: usize,
}

impl CgroupFile {
    /// Number of `/`-separated components of [`dir`](Self::dir) (deeper cgroups have more).
    pub fn depth(&self) -> usize {
        self.dir.split('/').filter(|c| !c.is_empty()).count()
    }
}

/// The tightest CPU quota over the process's cgroup and its ancestors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuQuota {
    /// CPUs' worth of time per period (`quota / period`), e.g. `1.5`.
    pub cores: f64,
    /// Quota, microseconds per period.
    pub quota_us: u64,
    /// Period, microseconds.
    pub period_us: u64,
    /// The cgroup directory that sets it.
    pub dir: String,
    /// 1-based input line of the quota (`cpu.max` or `cpu.cfs_quota_us`).
    pub line: usize,
}

/// A parsed `cgroup.tsv`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Cgroup {
    /// The `/proc/PID/cgroup` lines in input order.
    pub memberships: Vec<Membership>,
    /// Every control-file line in input order: for each hierarchy, the process's own cgroup
    /// first, then each ancestor.
    pub files: Vec<CgroupFile>,
}

impl Cgroup {
    /// Every line of control file `file`, in input order (deepest cgroup first).
    pub fn file<'a>(&'a self, file: &'a str) -> impl Iterator<Item = &'a CgroupFile> + 'a {
        self.files.iter().filter(move |f| f.file == file)
    }

    /// The smallest finite value of one-value files `names` over all directories, with its
    /// line.
    fn tightest(&self, names: &[&str]) -> Option<(u64, usize)> {
        self.files
            .iter()
            .filter(|f| names.contains(&f.file.as_str()) && f.key.is_none())
            .filter_map(|f| Some((f.value?.finite()?, f.line)))
            .min_by_key(|&(v, line)| (v, line))
    }

    /// The first (deepest) value of a one-value file, with its line.
    fn deepest(&self, name: &str) -> Option<(CgroupValue, usize)> {
        self.file(name)
            .filter(|f| f.key.is_none())
            .find_map(|f| Some((f.value?, f.line)))
    }

    /// The tightest memory limit in bytes over the process's cgroup and its ancestors (v2
    /// `memory.max`, v1 `memory.limit_in_bytes`), with its input line; `None` when every
    /// level is unlimited or nothing was read.
    pub fn memory_limit_bytes(&self) -> Option<(u64, usize)> {
        self.tightest(&["memory.max", "memory.limit_in_bytes"])
    }

    /// The tightest v2 `memory.high` (throttling, not OOM-killing, threshold) in bytes, with
    /// its line.
    pub fn memory_high_bytes(&self) -> Option<(u64, usize)> {
        self.tightest(&["memory.high"])
    }

    /// How much swap the process may use, in bytes, with the line it rests on.
    ///
    /// v2: the tightest `memory.swap.max` (swap alone). v1: the tightest
    /// `memory.memsw.limit_in_bytes` (memory + swap) minus the tightest memory limit, 0 when
    /// they are equal (no swap allowed). `None` when unlimited or not read.
    pub fn swap_limit_bytes(&self) -> Option<(u64, usize)> {
        if let Some(v2) = self.tightest(&["memory.swap.max"]) {
            return Some(v2);
        }
        let (memsw, line) = self.tightest(&["memory.memsw.limit_in_bytes"])?;
        let mem = self
            .tightest(&["memory.limit_in_bytes"])
            .map_or(memsw, |(m, _)| m);
        Some((memsw.saturating_sub(mem), line))
    }

    /// Memory in use by the process's own cgroup, bytes (v2 `memory.current`, v1
    /// `memory.usage_in_bytes`; the deepest level read), with its line.
    pub fn memory_usage_bytes(&self) -> Option<(u64, usize)> {
        ["memory.current", "memory.usage_in_bytes"]
            .iter()
            .find_map(|f| {
                let (v, line) = self.deepest(f)?;
                Some((v.finite()?, line))
            })
    }

    /// A counter of a `key value` file (`memory.events`, `cpu.stat`) in the deepest cgroup
    /// that has it, with its line. v2 `memory.events` counts are hierarchical (they include
    /// descendants), so the deepest level is the process's own.
    pub fn keyed(&self, file: &str, key: &str) -> Option<(u64, usize)> {
        self.file(file)
            .filter(|f| f.key.as_deref() == Some(key))
            .find_map(|f| Some((f.value?.finite()?, f.line)))
    }

    /// The line of a `key value` file (`memory.events`, `cpu.stat`) in the deepest cgroup that
    /// has it, with a number: the process's own cgroup when it was readable.
    pub fn keyed_entry(&self, file: &str, key: &str) -> Option<&CgroupFile> {
        self.files.iter().find(|f| {
            f.file == file
                && f.key.as_deref() == Some(key)
                && f.value.and_then(CgroupValue::finite).is_some()
        })
    }

    /// OOM kills in the process's cgroup, with its line: v2 `memory.events` `oom_kill`, else
    /// v1 `memory.oom_control` `oom_kill` (Linux ≥ 4.13).
    pub fn oom_kills(&self) -> Option<(u64, usize)> {
        self.keyed("memory.events", "oom_kill")
            .or_else(|| self.keyed("memory.oom_control", "oom_kill"))
    }

    /// The cgroup path of the hierarchy that holds `controller` (`memory`, `cpu`): the v1
    /// membership that lists it, else the v2 membership (`0::/path`).
    pub fn path_of(&self, controller: &str) -> Option<&Membership> {
        self.memberships
            .iter()
            .find(|m| m.controllers.iter().any(|c| c == controller))
            .or_else(|| self.memberships.iter().find(|m| m.is_v2()))
    }

    /// v1 `memory.failcnt` of the process's own cgroup: how often usage hit the limit.
    pub fn memory_failcnt(&self) -> Option<(u64, usize)> {
        let (v, line) = self.deepest("memory.failcnt")?;
        Some((v.finite()?, line))
    }

    /// The tightest CPU quota over the process's cgroup and its ancestors (v2 `cpu.max`
    /// `quota period`; v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` of the same directory).
    /// `None` when no level sets a quota.
    pub fn cpu_quota(&self) -> Option<CpuQuota> {
        let mut best: Option<CpuQuota> = None;
        let mut consider = |q: CpuQuota| {
            if best.as_ref().is_none_or(|b| q.cores < b.cores) {
                best = Some(q);
            }
        };
        for f in self.file("cpu.max") {
            if let (Some(CgroupValue::Number(quota)), Some(period)) = (f.value, f.period_us) {
                if period > 0 {
                    consider(CpuQuota {
                        cores: quota as f64 / period as f64,
                        quota_us: quota,
                        period_us: period,
                        dir: f.dir.clone(),
                        line: f.line,
                    });
                }
            }
        }
        // The first period read in each directory.
        let mut periods: BTreeMap<&str, Option<u64>> = BTreeMap::new();
        for p in self.file("cpu.cfs_period_us") {
            periods
                .entry(p.dir.as_str())
                .or_insert_with(|| p.value.and_then(CgroupValue::finite));
        }
        for f in self.file("cpu.cfs_quota_us") {
            let Some(CgroupValue::Number(quota)) = f.value else {
                continue;
            };
            let period = periods.get(f.dir.as_str()).copied().flatten();
            if let Some(period) = period.filter(|&p| p > 0) {
                consider(CpuQuota {
                    cores: quota as f64 / period as f64,
                    quota_us: quota,
                    period_us: period,
                    dir: f.dir.clone(),
                    line: f.line,
                });
            }
        }
        best
    }

    /// [`cpu_quota`](Self::cpu_quota) in CPUs (`1.5` = one and a half CPUs per period).
    pub fn cpu_quota_cores(&self) -> Option<f64> {
        self.cpu_quota().map(|q| q.cores)
    }
}

/// Reads one control-file value: a number, `max`, or v1's `-1` / page-rounded `LONG_MAX`.
fn value_of(s: &str) -> Option<CgroupValue> {
    if s == "max" || s == "-1" {
        return Some(CgroupValue::Unlimited);
    }
    let n: u64 = s.parse().ok()?;
    Some(if n >= V1_UNLIMITED_FLOOR {
        CgroupValue::Unlimited
    } else {
        CgroupValue::Number(n)
    })
}

/// `hierarchy-id:controllers:path`.
fn membership(rest: &str, n: usize) -> Result<Membership, String> {
    let mut parts = rest.splitn(3, ':');
    let (Some(id), Some(ctl), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "expected `cgroup<TAB>id:controllers:path`, found `{}`",
            excerpt(rest)
        ));
    };
    let hierarchy_id = id
        .parse()
        .map_err(|_| format!("hierarchy id `{}` is not a number", excerpt(id)))?;
    Ok(Membership {
        hierarchy_id,
        controllers: ctl
            .split(',')
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect(),
        path: path.to_string(),
        line: n,
    })
}

/// `FILE<TAB>DIR<TAB>VALUE`; a value that cannot be typed is kept raw, with an issue message.
fn limit(rest: &str, n: usize) -> Result<(CgroupFile, Option<String>), String> {
    let mut parts = rest.splitn(3, '\t');
    let (Some(file), Some(dir), Some(raw)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "expected `limit<TAB>file<TAB>directory<TAB>value`, found `{}`",
            excerpt(rest)
        ));
    };
    if file.is_empty() || dir.is_empty() {
        return Err(format!(
            "empty file or directory name in `{}`",
            excerpt(rest)
        ));
    }
    let toks: Vec<&str> = raw.split_ascii_whitespace().collect();
    let mut entry = CgroupFile {
        file: file.to_string(),
        dir: dir.to_string(),
        raw: raw.to_string(),
        key: None,
        value: None,
        period_us: None,
        line: n,
    };
    let problem = match (file, toks.as_slice()) {
        ("cpu.max", [quota, period]) => {
            entry.value = value_of(quota);
            entry.period_us = period.parse().ok();
            (entry.value.is_none() || entry.period_us.is_none()).then(|| {
                format!(
                    "`cpu.max`: expected `quota period`, found `{}`",
                    excerpt(raw)
                )
            })
        }
        (_, [v]) => {
            entry.value = value_of(v);
            entry.value.is_none().then(|| {
                format!(
                    "`{}`: expected a number or `max`, found `{}`",
                    excerpt(file),
                    excerpt(v)
                )
            })
        }
        (_, [k, v]) => {
            entry.key = Some((*k).to_string());
            entry.value = v.parse().ok().map(CgroupValue::Number);
            entry.value.is_none().then(|| {
                format!(
                    "`{}`: expected `key number`, found `{}`",
                    excerpt(file),
                    excerpt(raw)
                )
            })
        }
        // Files read whole but not typed here (e.g. an empty `memory.events` line).
        _ => Some(format!(
            "`{}`: unrecognised value `{}`",
            excerpt(file),
            excerpt(raw)
        )),
    };
    Ok((entry, problem))
}

/// One record: its type and the rest of the line.
fn record(line: &str) -> Option<(&str, &str)> {
    line.split_once('\t')
        .filter(|(t, _)| *t == "cgroup" || *t == "limit")
}

/// Is this the collector's `cgroup.tsv`?
///
/// `Yes` when every complete non-blank line of the head is a `cgroup<TAB>id:controllers:path`
/// or a `limit<TAB>file<TAB>directory<TAB>value` record, and there is at least one; `No`
/// otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut seen = false;
    for (l, complete) in head_lines(head) {
        if l.trim().is_empty() {
            continue;
        }
        let ok = match record(l) {
            Some(("cgroup", rest)) => membership(rest, 0).is_ok(),
            Some((_, rest)) => limit(rest, 0).is_ok(),
            None => false,
        };
        if !ok {
            if complete {
                return Sniff::No;
            }
            continue;
        }
        seen = true;
    }
    if seen {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the collector's `cgroup.tsv`.
///
/// Errors: [`ParseError::Unusable`] when no `cgroup` or `limit` record is found. Other lines
/// and values that cannot be typed are issues.
pub fn parse(text: &str) -> Result<Parsed<Cgroup>, ParseError> {
    let mut out = Cgroup::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match record(line) {
            Some(("cgroup", rest)) => match membership(rest, n) {
                Ok(m) => out.memberships.push(m),
                Err(msg) => issues.push(n, || msg),
            },
            Some((_, rest)) => match limit(rest, n) {
                Ok((f, problem)) => {
                    if let Some(msg) = problem {
                        issues.push(n, || msg);
                    }
                    out.files.push(f);
                }
                Err(msg) => issues.push(n, || msg),
            },
            None => issues.push(n, || {
                format!(
                    "expected a `cgroup<TAB>…` or `limit<TAB>…` record, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if out.memberships.is_empty() && out.files.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `cgroup<TAB>…` or `limit<TAB>…` record found".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Keys of v2 `memory.events` (kernel `Documentation/admin-guide/cgroup-v2.rst`, Linux ≥ 4.13
/// for `oom_kill`, ≥ 5.17 for `oom_group_kill`, ≥ 6.11 for `sock_throttled`).
const MEMORY_EVENTS_KEYS: &[&str] = &[
    "low",
    "high",
    "max",
    "oom",
    "oom_kill",
    "oom_group_kill",
    "sock_throttled",
];

/// The `key number` lines of a head, `None` when a complete non-blank line is not one (a last,
/// cut line is skipped).
fn keyed_lines(head: &str) -> Option<Vec<&str>> {
    let mut keys = Vec::new();
    for (l, complete) in head_lines(head) {
        if l.trim().is_empty() {
            continue;
        }
        let toks: Vec<&str> = l.split_ascii_whitespace().collect();
        match toks.as_slice() {
            [k, v] if v.parse::<u64>().is_ok() && !k.is_empty() => keys.push(*k),
            _ if !complete => {}
            _ => return None,
        }
    }
    Some(keys)
}

/// Is this a cgroup v2 `memory.events` file? `Yes` when every line is `key number`, every key
/// is one of the file's (`low`, `high`, `max`, `oom`, `oom_kill`, `oom_group_kill`,
/// `sock_throttled`) and `low`, `high`, `max` and `oom` are all there; `No` otherwise.
pub fn sniff_memory_events(head: &str) -> Sniff {
    let Some(keys) = keyed_lines(head) else {
        return Sniff::No;
    };
    let only_its_keys = keys.iter().all(|k| MEMORY_EVENTS_KEYS.contains(k));
    let all_four = ["low", "high", "max", "oom"]
        .iter()
        .all(|k| keys.contains(k));
    if only_its_keys && all_four {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Is this a `cpu.stat` file of the CPU controller (v2, or v1 with CFS bandwidth)? `Yes` when
/// every line is `key number` and `nr_periods`, `nr_throttled` and `throttled_usec` (v2) or
/// `throttled_time` (v1) are there (kernel `Documentation/scheduler/sched-bwc.rst`); `No`
/// otherwise.
pub fn sniff_cpu_stat(head: &str) -> Sniff {
    let Some(keys) = keyed_lines(head) else {
        return Sniff::No;
    };
    let has = |k: &str| keys.contains(&k);
    if has("nr_periods") && has("nr_throttled") && (has("throttled_usec") || has("throttled_time"))
    {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Is this a cgroup v1 `memory.oom_control` file? `Yes` when every line is `key number` and
/// `oom_kill_disable` and `under_oom` are there (kernel `Documentation/admin-guide/cgroup-v1/
/// memory.rst`, section 10); `No` otherwise.
pub fn sniff_oom_control(head: &str) -> Sniff {
    match keyed_lines(head) {
        Some(keys) if keys.contains(&"oom_kill_disable") && keys.contains(&"under_oom") => {
            Sniff::Yes
        }
        _ => Sniff::No,
    }
}

/// Parses one cgroup control file handed over as it is (`memory.events`, `cpu.stat`,
/// `memory.oom_control`, `memory.max`, `memory.failcnt`, `cpu.max` …), read whole from the
/// cgroup's directory, as the [`Cgroup`] record of the collector's `cgroup.tsv` would hold it:
/// one [`CgroupFile`] per line, named `file`, with directory `.` (the bundle path says which
/// cgroup, when it does) and no memberships.
///
/// Errors: [`ParseError::Unusable`] when no line, or no more lines than not, hold a value.
/// Lines that cannot be typed are issues.
pub fn parse_file(file: &str, text: &str) -> Result<Parsed<Cgroup>, ParseError> {
    let mut out = Cgroup::default();
    let mut issues = Issues::default();
    let mut bad = 0usize;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match limit(&format!("{file}\t.\t{}", line.trim()), n) {
            Ok((f, problem)) => {
                if let Some(msg) = problem {
                    bad += 1;
                    issues.push(n, || msg);
                }
                out.files.push(f);
            }
            Err(msg) => {
                bad += 1;
                issues.push(n, || msg);
            }
        }
    }
    // A control file is short and regular: most of its lines must read.
    let typed = out.files.iter().filter(|f| f.value.is_some()).count();
    if typed == 0 || typed <= bad {
        return Err(ParseError::unusable(
            None,
            format!("most lines of `{}` hold no value", excerpt(file)),
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Parses `/proc/PID/cgroup` (`hierarchy-id:controllers:path` lines, `proc(5)`) into the
/// memberships of a [`Cgroup`] with no control files.
///
/// Errors: [`ParseError::Unusable`] when no line is a membership. Other lines are issues.
pub fn parse_proc_cgroup(text: &str) -> Result<Parsed<Cgroup>, ParseError> {
    let mut out = Cgroup::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match membership(line.trim_end(), n) {
            Ok(m) => out.memberships.push(m),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if out.memberships.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `hierarchy-id:controllers:path` line found".to_string(),
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
