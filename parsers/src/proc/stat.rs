//! `/proc/stat`: kernel activity counters since boot.
//!
//! Lines read (see proc(5)): `cpu` (all CPUs) and `cpuN` with times in USER_HZ ticks (1/100 s on
//! every common architecture) — `user nice system idle iowait irq softirq` on 2.6 kernels, plus
//! `steal` (2.6.11), `guest` (2.6.24) and `guest_nice` (2.6.33) on later ones; `intr` (total,
//! then one count per IRQ number), `ctxt`, `btime`, `processes`, `procs_running`,
//! `procs_blocked`, `softirq` (total, then one count per softirq type); other numeric lines
//! (`preempt`, `page`, `swap`) are kept in [`StatSnapshot::other`].
//!
//! Offline CPUs have no `cpuN` line. A file holding several snapshots one after the other (a new
//! snapshot starts at each `cpu ` line) gives several [`StatSnapshot`]s, in order.
//!
//! Sample input (Linux 5.x, 2 CPUs):
//! ```text
//! cpu  6002 152 8398 3444436 448 0 1174 0 0 0
//! cpu0 2784 137 4367 1732802 225 0 221 0 0 0
//! cpu1 3218 15 4031 1711634 223 0 953 0 0 0
//! intr 2496709 18 73 0 0 0
//! ctxt 4622716
//! btime 1662154781
//! processes 9831
//! procs_running 1
//! procs_blocked 0
//! softirq 3478985 35230 1252057 3467 128583 51014 0 171199 1241297 0 596138
//! ```

use crate::cells::{read_u64, Varints};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// A whole `/proc/stat` file: normally one snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ProcStat {
    /// Snapshots in input order.
    pub snapshots: Vec<StatSnapshot>,
}

impl ProcStat {
    /// The first snapshot.
    pub fn first(&self) -> Option<&StatSnapshot> {
        self.snapshots.first()
    }
}

/// One reading of `/proc/stat`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct StatSnapshot {
    /// 1-based input line of the snapshot's first line.
    pub line: usize,
    /// The `cpu` line: all CPUs together.
    pub total: Option<CpuTimes>,
    /// The `cpuN` lines, in input order (offline CPUs are absent).
    pub cpus: Vec<CpuTimes>,
    /// `intr` first number: interrupts serviced since boot (all IRQs, including unnumbered
    /// architecture ones).
    pub intr_total: Option<u64>,
    /// `intr` following numbers: count per IRQ number, from IRQ 0 (stored as varints: most
    /// are 0 and take one byte).
    pub intr: Varints,
    /// `ctxt`: context switches since boot.
    pub ctxt: Option<u64>,
    /// `btime`: boot time, seconds since the epoch.
    pub btime: Option<u64>,
    /// `processes`: forks since boot.
    pub processes: Option<u64>,
    /// `procs_running`: runnable tasks now.
    pub procs_running: Option<u64>,
    /// `procs_blocked`: tasks blocked on I/O now.
    pub procs_blocked: Option<u64>,
    /// `softirq` first number: softirqs since boot, all types.
    pub softirq_total: Option<u64>,
    /// `softirq` following numbers, per type in the kernel's order (see [`SOFTIRQ_NAMES`]).
    pub softirq: Vec<u64>,
    /// Other numeric lines by key (`preempt`, `page`, `swap`).
    pub other: BTreeMap<String, Vec<u64>>,
}

/// Softirq types in the order of the `softirq` line on Linux ≥ 2.6.37 (`BLOCK_IOPOLL` became
/// `IRQ_POLL` in 4.5, same position).
pub const SOFTIRQ_NAMES: [&str; 10] = [
    "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
];

impl StatSnapshot {
    /// Softirq count of type `name` (`NET_RX`) from the `softirq` line, when it has the
    /// 10-type layout of [`SOFTIRQ_NAMES`].
    pub fn softirq_count(&self, name: &str) -> Option<u64> {
        if self.softirq.len() != SOFTIRQ_NAMES.len() {
            return None;
        }
        let i = SOFTIRQ_NAMES.iter().position(|n| *n == name)?;
        self.softirq.get(i).copied()
    }

    /// The `cpuN` line of CPU `n`.
    pub fn cpu(&self, n: u32) -> Option<&CpuTimes> {
        self.cpus.iter().find(|c| c.cpu == Some(n))
    }

    /// CPU utilisation from `self` (earlier) to `later`: the `cpu` line first (when both have
    /// it), then every `cpuN` present in both, matched by number. A CPU whose counters went
    /// backwards in total or did not move is left out.
    pub fn utilisation_to(&self, later: &StatSnapshot) -> Vec<CpuUtil> {
        let mut out = Vec::with_capacity(self.cpus.len() + 1);
        if let (Some(a), Some(b)) = (&self.total, &later.total) {
            out.extend(a.utilisation_to(b));
        }
        let later_by_cpu: HashMap<Option<u32>, &CpuTimes> =
            later.cpus.iter().map(|c| (c.cpu, c)).collect();
        for a in &self.cpus {
            if let Some(b) = later_by_cpu.get(&a.cpu) {
                out.extend(a.utilisation_to(b));
            }
        }
        out
    }
}

/// Times of one `cpu`/`cpuN` line since boot, in USER_HZ ticks. Fields absent on older kernels
/// are `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CpuTimes {
    /// CPU number (`None` for the aggregate `cpu` line).
    pub cpu: Option<u32>,
    /// 1-based input line.
    pub line: usize,
    /// `user`: user mode, including guest time.
    pub user: u64,
    /// `nice`: niced user mode, including guest_nice time.
    pub nice: u64,
    /// `system`: kernel mode.
    pub system: u64,
    /// `idle`.
    pub idle: u64,
    /// `iowait` (2.5.41+).
    pub iowait: Option<u64>,
    /// `irq`: servicing hardware interrupts (2.6.0+).
    pub irq: Option<u64>,
    /// `softirq`: servicing softirqs (2.6.0+).
    pub softirq: Option<u64>,
    /// `steal`: stolen by the hypervisor (2.6.11+).
    pub steal: Option<u64>,
    /// `guest`: running a guest (2.6.24+), also counted in `user`.
    pub guest: Option<u64>,
    /// `guest_nice` (2.6.33+), also counted in `nice`.
    pub guest_nice: Option<u64>,
}

/// CPU utilisation over an interval, in % of the CPU's time (the fields add up to 100), computed
/// as mpstat does: guest time is taken out of `user` and `nice`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuUtil {
    /// CPU number (`None` for all CPUs together).
    pub cpu: Option<u32>,
    /// User time excluding guest (`%usr`).
    pub usr_pct: f64,
    /// Niced user time excluding guest_nice (`%nice`).
    pub nice_pct: f64,
    /// Kernel time (`%sys`).
    pub sys_pct: f64,
    /// `%iowait`.
    pub iowait_pct: f64,
    /// `%irq`.
    pub irq_pct: f64,
    /// `%soft`.
    pub soft_pct: f64,
    /// `%steal`.
    pub steal_pct: f64,
    /// `%guest`.
    pub guest_pct: f64,
    /// `%gnice`.
    pub gnice_pct: f64,
    /// `%idle`.
    pub idle_pct: f64,
    /// Ticks elapsed on this CPU (the 100 % base).
    pub ticks: u64,
}

impl CpuTimes {
    /// Utilisation from `self` to `later` (same CPU), `None` when no tick elapsed or a counter
    /// total went backwards. A single counter that went backwards (iowait can, on some kernels)
    /// counts as 0.
    pub fn utilisation_to(&self, later: &CpuTimes) -> Option<CpuUtil> {
        let d = |a: u64, b: u64| b.saturating_sub(a);
        let o = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => 0,
        };
        let guest = o(self.guest, later.guest);
        let gnice = o(self.guest_nice, later.guest_nice);
        let user = d(self.user, later.user);
        let nice = d(self.nice, later.nice);
        let parts = [
            user.saturating_sub(guest),
            nice.saturating_sub(gnice),
            d(self.system, later.system),
            o(self.iowait, later.iowait),
            o(self.irq, later.irq),
            o(self.softirq, later.softirq),
            o(self.steal, later.steal),
            guest.min(user),
            gnice.min(nice),
            d(self.idle, later.idle),
        ];
        let total: u64 = parts.iter().fold(0u64, |a, p| a.saturating_add(*p));
        if total == 0 || later.sum() < self.sum() {
            return None;
        }
        let pct = |v: u64| v as f64 * 100.0 / total as f64;
        Some(CpuUtil {
            cpu: self.cpu,
            usr_pct: pct(parts[0]),
            nice_pct: pct(parts[1]),
            sys_pct: pct(parts[2]),
            iowait_pct: pct(parts[3]),
            irq_pct: pct(parts[4]),
            soft_pct: pct(parts[5]),
            steal_pct: pct(parts[6]),
            guest_pct: pct(parts[7]),
            gnice_pct: pct(parts[8]),
            idle_pct: pct(parts[9]),
            ticks: total,
        })
    }

    /// Sum of the counters that partition CPU time (guest ones are inside user and nice).
    fn sum(&self) -> u64 {
        [
            self.user,
            self.nice,
            self.system,
            self.idle,
            self.iowait.unwrap_or(0),
            self.irq.unwrap_or(0),
            self.softirq.unwrap_or(0),
            self.steal.unwrap_or(0),
        ]
        .iter()
        .fold(0u64, |a, v| a.saturating_add(*v))
    }
}

/// `cpu` → `Some(None)`, `cpu12` → `Some(Some(12))`.
fn cpu_label(key: &str) -> Option<Option<u32>> {
    let n = key.strip_prefix("cpu")?;
    if n.is_empty() {
        return Some(None);
    }
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok().map(Some)
}

/// `/proc/stat`?
///
/// `Yes` when the first line is a `cpu` line of at least 4 numbers and a `cpuN`, `intr`, `ctxt`
/// or `btime` line follows; `Unsure` when the head stops after the `cpu` line; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, first_complete)) = lines.next() else {
        return Sniff::No;
    };
    let mut toks = first.split_ascii_whitespace();
    if toks.next() != Some("cpu") {
        return Sniff::No;
    }
    let nums: Vec<&str> = toks.collect();
    if nums.iter().any(|t| !t.bytes().all(|b| b.is_ascii_digit()))
        || (first_complete && nums.len() < 4)
    {
        return Sniff::No;
    }
    let Some((line, _)) = lines.next() else {
        return Sniff::Unsure;
    };
    let key = line.split_ascii_whitespace().next().unwrap_or("");
    if matches!(cpu_label(key), Some(Some(_)))
        || matches!(key, "intr" | "ctxt" | "btime" | "processes")
    {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/stat`.
///
/// Errors: [`ParseError::Unusable`] when no `cpu` line is found. Unreadable lines become
/// issues; a `cpu` line with fewer than 4 numbers is dropped with an issue.
pub fn parse(text: &str) -> Result<Parsed<ProcStat>, ParseError> {
    let mut out = ProcStat::default();
    let mut issues = Issues::default();
    let mut cur: Option<StatSnapshot> = None;
    let mut nums: Vec<u64> = Vec::with_capacity(16);
    for (n, line) in numbered_lines(strip_bom(text)) {
        let mut toks = line.split_ascii_whitespace();
        let Some(key) = toks.next() else {
            continue;
        };
        nums.clear();
        let mut bad = None;
        for t in toks {
            match read_u64(t) {
                Some(v) => nums.push(v),
                None => {
                    bad = Some(t);
                    break;
                }
            }
        }
        if let Some(tok) = bad {
            issues.push(n, || {
                format!(
                    "`{}`: expected whole numbers, found `{}`",
                    excerpt(key),
                    excerpt(tok)
                )
            });
            continue;
        }
        if key == "cpu" {
            if let Some(done) = cur.take() {
                out.snapshots.push(done);
            }
        }
        let snap = cur.get_or_insert_with(|| StatSnapshot {
            line: n,
            ..StatSnapshot::default()
        });
        if let Some(cpu) = cpu_label(key) {
            if nums.len() < 4 {
                let found = nums.len();
                issues.push(n, || {
                    format!(
                        "`{key}`: expected at least 4 times (user nice system idle), found {found}"
                    )
                });
                continue;
            }
            let g = |i: usize| nums.get(i).copied();
            let times = CpuTimes {
                cpu,
                line: n,
                user: nums[0],
                nice: nums[1],
                system: nums[2],
                idle: nums[3],
                iowait: g(4),
                irq: g(5),
                softirq: g(6),
                steal: g(7),
                guest: g(8),
                guest_nice: g(9),
            };
            match cpu {
                None => snap.total = Some(times),
                Some(_) => snap.cpus.push(times),
            }
            continue;
        }
        if key.starts_with("cpu") {
            issues.push(n, || {
                format!(
                    "`{}`: expected `cpu` or `cpuN` with a CPU number",
                    excerpt(key)
                )
            });
            continue;
        }
        let single = |issues: &mut Issues| {
            if nums.len() != 1 {
                let found = nums.len();
                issues.push(n, || format!("`{key}`: expected one number, found {found}"));
            }
            nums.first().copied()
        };
        match key {
            "intr" => {
                snap.intr_total = nums.first().copied();
                snap.intr = nums.get(1..).unwrap_or(&[]).iter().copied().collect();
            }
            "softirq" => {
                snap.softirq_total = nums.first().copied();
                snap.softirq = nums.get(1..).unwrap_or(&[]).to_vec();
            }
            "ctxt" => snap.ctxt = single(&mut issues),
            "btime" => snap.btime = single(&mut issues),
            "processes" => snap.processes = single(&mut issues),
            "procs_running" => snap.procs_running = single(&mut issues),
            "procs_blocked" => snap.procs_blocked = single(&mut issues),
            _ if !nums.is_empty()
                && key.len() <= 64
                && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
            {
                snap.other.insert(key.to_string(), nums.clone());
            }
            _ => issues.push(n, || {
                format!("expected `key number …`, found `{}`", excerpt(line))
            }),
        }
    }
    if let Some(done) = cur.take() {
        out.snapshots.push(done);
    }
    out.snapshots
        .retain(|s| s.total.is_some() || !s.cpus.is_empty());
    if out.snapshots.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `cpu` line found (expected `cpu  user nice system idle …`)",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times(v: [u64; 10]) -> CpuTimes {
        CpuTimes {
            cpu: Some(0),
            line: 1,
            user: v[0],
            nice: v[1],
            system: v[2],
            idle: v[3],
            iowait: Some(v[4]),
            irq: Some(v[5]),
            softirq: Some(v[6]),
            steal: Some(v[7]),
            guest: Some(v[8]),
            guest_nice: Some(v[9]),
        }
    }

    #[test]
    fn utilisation_takes_guest_out_of_user() {
        let a = times([0; 10]);
        // 100 ticks: user 30 (of which guest 10), system 20, softirq 10, idle 40.
        let b = times([30, 0, 20, 40, 0, 0, 10, 0, 10, 0]);
        let u = a.utilisation_to(&b).unwrap();
        assert_eq!(u.ticks, 100);
        assert_eq!(u.usr_pct, 20.0);
        assert_eq!(u.guest_pct, 10.0);
        assert_eq!(u.sys_pct, 20.0);
        assert_eq!(u.soft_pct, 10.0);
        assert_eq!(u.idle_pct, 40.0);
        assert!(a.utilisation_to(&a).is_none(), "no tick elapsed");
        assert!(b.utilisation_to(&a).is_none(), "counters went backwards");
    }
}
