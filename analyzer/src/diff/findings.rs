//! Findings: rules that fired on one side only, or more severely on one side.
//!
//! In: both sides' ranked findings. Out: one difference per rule id whose worst severity
//! differs, magnitude by severity (critical 1, warning 0.6, info 0.2), citing the finding's
//! first evidence on each side.

use super::score::FINDING;
use super::{Difference, Out, Pair, Which};
use crate::rules::{Finding, Severity};
use std::collections::BTreeSet;

/// Magnitude of a finding of this severity.
pub fn severity_magnitude(s: Severity) -> f64 {
    match s {
        Severity::Critical => 1.0,
        Severity::Warning => 0.6,
        Severity::Info => 0.2,
    }
}

fn worst<'a>(v: &'a [Finding], id: &str) -> Option<&'a Finding> {
    v.iter()
        .filter(|f| f.rule_id == id)
        .max_by_key(|f| f.severity)
}

fn cite(mut d: Difference, side: Which, f: Option<&Finding>) -> Difference {
    if let Some(e) = f.and_then(|f| f.evidence.first()) {
        d = d.cite_lines(side, &e.artifact, &e.lines);
    }
    d
}

/// Compares the findings of both sides.
pub fn compare(p: &Pair, out: &mut Out) {
    let (fb, fs) = (p.baseline.findings(), p.suspect.findings());
    let ids: BTreeSet<&str> = fb.iter().chain(fs.iter()).map(|f| f.rule_id).collect();
    for id in ids {
        let (x, y) = (worst(fb, id), worst(fs, id));
        let (sx, sy) = (x.map(|f| f.severity), y.map(|f| f.severity));
        if sx == sy {
            continue;
        }
        let mag = |s: Option<Severity>| s.map(severity_magnitude).unwrap_or(0.0);
        let m = (mag(sy) - mag(sx)).abs();
        let show = |f: Option<&Finding>| f.map(|f| format!("{}: {}", f.severity.label(), f.title));
        let reason = match (x, y) {
            (None, Some(f)) => format!("`{id}` fired on the suspect only ({})", f.severity.label()),
            (Some(f), None) => {
                format!("`{id}` fired on the baseline only ({})", f.severity.label())
            }
            _ => format!(
                "`{id}` is {} on the suspect, {} on the baseline",
                sy.map(Severity::label).unwrap_or("absent"),
                sx.map(Severity::label).unwrap_or("absent")
            ),
        };
        let d = Difference::new(&FINDING, format!("finding `{id}`"))
            .values(show(x), show(y))
            .magnitude(m)
            .reason(reason);
        let d = cite(d, Which::Baseline, x);
        out.push(cite(d, Which::Suspect, y));
    }
}
