//! What the suspect shows and the baseline does not: the symptoms a difference may explain.
//!
//! In: both sides' findings. Out: [`Symptoms`]: the suspect's findings whose rule did not fire
//! on the baseline, or fired less severely. Comparators ask for a symptom by [`SymptomGroup`]
//! (each rule's metadata names the groups it belongs to) or by area; a difference that connects
//! to one is linked (its score is boosted, its reason names it).
//!
//! Extension point for CPU profiles: when `perf` profiles become host facts, the suspect's hot
//! kernel modules and symbols (share of samples, by owning module) belong here, as a field next to
//! `suspect_only`, with a lookup such as `hot_module(name) -> Option<String>`. The kernel
//! comparator then links a module present only on the suspect to it ("module present only on the
//! slow host and hot in its profile", case S4), the same way it links to soft-IRQ saturation
//! today. Nothing else in the scoring needs to change.

use super::Side;
use crate::rules::{self, Area, Severity, SymptomGroup};
use serde::Serialize;

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

    /// The first symptom of `group`, as text for a reason.
    pub fn any(&self, group: SymptomGroup) -> Option<String> {
        self.suspect_only
            .iter()
            .find(|s| rules::in_group(s.rule_id, group))
            .map(describe)
    }

    /// The first symptom in `area`.
    pub fn in_area(&self, area: Area) -> Option<String> {
        self.suspect_only
            .iter()
            .find(|s| s.area == area)
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
