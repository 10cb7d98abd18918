//! What the suspect shows and the baseline does not: the symptoms a difference may explain.
//!
//! In: both sides' findings. Out: [`Symptoms`]: the suspect's findings whose rule did not fire
//! on the baseline, or fired less severely. Comparators ask for a symptom by rule id or area;
//! a difference that connects to one is linked (its score is boosted, its reason names it).
//!
//! Extension point for CPU profiles: when `perf` profiles become host facts, the suspect's hot
//! kernel modules and symbols (share of samples, by owning module) belong here, as a field next to
//! `suspect_only`, with a lookup such as `hot_module(name) -> Option<String>`. The kernel
//! comparator then links a module present only on the suspect to it ("module present only on the
//! slow host and hot in its profile", case S4), the same way it links to soft-IRQ saturation
//! today. Nothing else in the scoring needs to change.

use super::Side;
use crate::rules::{Area, Severity};
use serde::Serialize;

/// Rules whose findings mean trouble in the network receive or transmit path.
pub const NETWORK_PATH: &[&str] = &[
    "softirq.saturation",
    "net.rx-drops",
    "net.listen-overflow",
    "net.conntrack",
    "nic.queues",
    "nic.rx-ring",
    "nic.offloads",
    "nic.emulated",
    "nic.mtu-mismatch",
];

/// Rules whose findings mean kernel code or CPU time is the problem.
pub const KERNEL_OR_CPU: &[&str] = &["kernel.taint", "softirq.saturation", "cpu.iowait"];

/// Rules about memory pressure (swap, balloon, GC caused by it).
pub const MEMORY: &[&str] = &[
    "mem.swap",
    "mem.balloon",
    "jvm.gc-overhead",
    "jvm.heap-vs-memory",
];

/// Rules about storage.
pub const STORAGE: &[&str] = &["disk.saturation", "cpu.iowait"];

/// Rules about the clock.
pub const CLOCK: &[&str] = &["time.offset", "time.two-sources", "time.unsynchronised"];

/// One symptom: a finding on the suspect that the baseline does not have.
#[derive(Debug, Clone, Serialize)]
pub struct Symptom {
    /// Rule id.
    pub rule_id: &'static str,
    /// Rule area.
    pub area: Area,
    /// The finding's title.
    pub title: String,
    /// Its severity.
    pub severity: Severity,
}

/// The suspect's symptoms.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Symptoms {
    /// Findings of the suspect whose rule did not fire on the baseline at the same severity or
    /// above, most severe first.
    pub suspect_only: Vec<Symptom>,
}

impl Symptoms {
    /// The suspect's symptoms relative to the baseline.
    pub fn of(baseline: &Side, suspect: &Side) -> Symptoms {
        let base_sev = |id: &str| {
            baseline
                .findings()
                .iter()
                .filter(|f| f.rule_id == id)
                .map(|f| f.severity)
                .max()
        };
        let mut v: Vec<Symptom> = Vec::new();
        for f in suspect.findings() {
            if base_sev(f.rule_id).is_some_and(|b| b >= f.severity) {
                continue;
            }
            if v.iter().any(|s| s.rule_id == f.rule_id) {
                continue;
            }
            v.push(Symptom {
                rule_id: f.rule_id,
                area: f.area,
                title: f.title.clone(),
                severity: f.severity,
            });
        }
        v.sort_by_key(|s| std::cmp::Reverse(s.severity));
        Symptoms { suspect_only: v }
    }

    /// The first symptom raised by one of `rules`, as text for a reason.
    pub fn any(&self, rules: &[&str]) -> Option<String> {
        self.suspect_only
            .iter()
            .find(|s| rules.contains(&s.rule_id))
            .map(describe)
    }

    /// The first symptom in `area` (`network`, `memory`, `jvm`, …).
    pub fn in_area(&self, area: &str) -> Option<String> {
        self.suspect_only
            .iter()
            .find(|s| s.area.label() == area)
            .map(describe)
    }
}

fn describe(s: &Symptom) -> String {
    format!(
        "the suspect shows {} (`{}`, {})",
        s.title,
        s.rule_id,
        s.severity.label()
    )
}
