//! Time synchronisation: which daemons discipline the clock, VMware periodic sync, whether the
//! clock is synchronised, and the offset.
//!
//! In: both sides' [`TimeSync`](crate::facts::TimeSync). Out: a difference per differing aspect;
//! offset changes under [`score::OFFSET_S`] are noise.

use super::score::{self, TIME_SYNC};
use super::{numeric, Difference, Out, Pair, Which};
use crate::rules::SymptomGroup;
use std::collections::BTreeSet;

/// Compares time synchronisation.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.timesync, &p.suspect.facts.timesync);
    if !out.both(
        "time",
        "time synchronisation (`chronyc`, `ntpq`, `timedatectl`)",
        b.evidence_present,
        s.evidence_present,
    ) {
        return;
    }
    let link = p.symptoms.any(SymptomGroup::Clock);
    let db: BTreeSet<&str> = b.daemons.iter().map(|d| d.value.as_str()).collect();
    let ds: BTreeSet<&str> = s.daemons.iter().map(|d| d.value.as_str()).collect();
    if db != ds {
        let show = |v: &BTreeSet<&str>| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter().copied().collect::<Vec<_>>().join(", ")
            }
        };
        let mut d = Difference::new(&TIME_SYNC, "time-sync daemons")
            .values(Some(show(&db)), Some(show(&ds)))
            .reason("another clock discipline: offsets and steps behave differently")
            .link(link.clone());
        for x in &b.daemons {
            d = d.cite(Which::Baseline, Some(x));
        }
        for x in &s.daemons {
            d = d.cite(Which::Suspect, Some(x));
        }
        out.push(d);
    }
    for (what, x, y) in [
        ("clock synchronised", &b.synchronised, &s.synchronised),
        (
            "VMware Tools periodic time sync",
            &b.vmware_periodic_sync,
            &s.vmware_periodic_sync,
        ),
    ] {
        if let (Some(x), Some(y)) = (x, y) {
            if x.value != y.value {
                let yn = |v: bool| if v { "yes" } else { "no" }.to_string();
                out.push(
                    Difference::new(&TIME_SYNC, what)
                        .values(Some(yn(x.value)), Some(yn(y.value)))
                        .reason("the clock is disciplined differently")
                        .link(link.clone())
                        .cite(Which::Baseline, Some(x))
                        .cite(Which::Suspect, Some(y)),
                );
            }
        }
    }
    if let (Some(x), Some(y)) = (&b.offset_s, &s.offset_s) {
        numeric(
            out,
            &TIME_SYNC,
            "clock offset (absolute)".into(),
            (x.value.abs() * 1e6).round() / 1e6,
            (y.value.abs() * 1e6).round() / 1e6,
            score::OFFSET_S,
            "s",
            link,
            |d| {
                d.cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y))
            },
        );
    }
}
