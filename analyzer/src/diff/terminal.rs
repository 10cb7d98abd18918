//! The short terminal summary of a comparison: both hosts, the top differences with their
//! reasons, and how many more there are. Bundle text passes through [`crate::console::clean`].

use super::DiffReport;
use crate::console::clean;
use std::fmt::Write;

/// Renders the summary as plain text.
pub fn summary(r: &DiffReport) -> String {
    let mut s = String::new();
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
        let _ = writeln!(
            s,
            "{w}: {} finding(s) at warning or above{}",
            x.actionable(),
            x.unanalyzable
                .as_deref()
                .map(|u| format!(" — could not be analyzed: {}", clean(u)))
                .unwrap_or_default()
        );
    }
    if r.above_noise == 0 {
        let _ = writeln!(
            s,
            "no difference above the noise threshold ({} below it)",
            r.differences.len()
        );
    } else {
        let _ = writeln!(
            s,
            "{} difference(s) above the noise threshold (score ≥ {}), top {}:",
            r.above_noise,
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
            let _ = writeln!(s, "          {}", clean(&d.reason));
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
