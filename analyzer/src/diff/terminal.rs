//! The short terminal summary of a comparison: both hosts, the top differences with their
//! reasons, and how many more there are. Bundle text passes through [`crate::console::clean`].
//! A side that could not be analyzed is painted critical, differences above the noise warning,
//! no difference above it ok.

use super::DiffReport;
use crate::console::{clean, Styled, Tone};
use std::fmt::Write;

/// The summary as plain text (see [`styled`]).
pub fn summary(r: &DiffReport) -> String {
    styled(r).to_string()
}

/// Renders the summary.
pub fn styled(r: &DiffReport) -> Styled {
    let mut s = Styled::new();
    let name = |x: &super::SideSummary| clean(&x.label()).into_owned();
    let _ = writeln!(
        s,
        "rca {} — baseline {} ({}) vs suspect {} ({})",
        r.tool.version,
        name(&r.baseline),
        clean(&r.baseline.path),
        name(&r.suspect),
        clean(&r.suspect.path)
    );
    for (w, x) in [("baseline", &r.baseline), ("suspect", &r.suspect)] {
        let _ = write!(s, "{w}: {} finding(s) at warning or above", x.actionable());
        if let Some(u) = x.unanalyzable.as_deref() {
            s.paint(Tone::Plain, " — ");
            s.paint(
                Tone::Critical,
                &format!("could not be analyzed: {}", clean(u)),
            );
        }
        s.paint(Tone::Plain, "\n");
    }
    if r.above_noise == 0 {
        s.paint(Tone::Ok, "no difference above the noise threshold");
        let _ = writeln!(s, " ({} below it)", r.differences.len());
    } else {
        s.paint(
            Tone::Warning,
            &format!("{} difference(s) above the noise threshold", r.above_noise),
        );
        let _ = writeln!(
            s,
            " (score ≥ {}), top {}:",
            r.noise_threshold,
            r.above_noise.min(super::TOP)
        );
        for d in r.top() {
            let v = |x: &Option<String>| clean(x.as_deref().unwrap_or("absent")).into_owned();
            let _ = writeln!(
                s,
                "  {:>6.1}  [{}] {}: {} → {}",
                d.score,
                d.area,
                clean(&d.subject),
                v(&d.baseline),
                v(&d.suspect)
            );
            s.paint(Tone::Plain, "          ");
            s.paint(Tone::Dim, &clean(&d.reason));
            s.paint(Tone::Plain, "\n");
        }
    }
    if !r.not_compared.is_empty() {
        let _ = writeln!(
            s,
            "not compared (evidence on one side only): {}",
            r.not_compared.len()
        );
    }
    s
}
