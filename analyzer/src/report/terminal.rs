//! The short terminal summary printed after an analysis.

use super::Report;
use std::fmt::Write;

/// Renders the summary as plain text: host line, findings with their first evidence location,
/// artifact outcome counts.
pub fn summary(r: &Report) -> String {
    let mut s = String::new();
    let h = &r.host;
    let _ = writeln!(
        s,
        "rca {} — {} ({}, {} entries)",
        r.tool.version,
        r.bundle.path,
        r.bundle.format.map(|f| f.label()).unwrap_or("unknown"),
        r.bundle.entries
    );
    let _ = writeln!(
        s,
        "host {} · {} · kernel {} · {} · {} CPU",
        h.hostname.as_deref().unwrap_or("?"),
        h.os.as_deref().unwrap_or("?"),
        h.kernel_release.as_deref().unwrap_or("?"),
        h.machine.as_deref().unwrap_or("?"),
        h.cpus.map(|c| c.to_string()).unwrap_or_else(|| "?".into())
    );
    if let Some(stop) = &r.bundle.stopped {
        let _ = writeln!(s, "warning: reading stopped early: {stop}");
    }
    if r.findings.is_empty() {
        let _ = writeln!(s, "findings: none");
    } else {
        let _ = writeln!(s, "findings:");
        for f in &r.findings {
            let _ = writeln!(
                s,
                "  {:<8} [{}] {}",
                f.severity.label().to_uppercase(),
                f.rule_id,
                f.title
            );
            if let Some(e) = f.evidence.first() {
                let span = match (e.lines.first(), e.lines.last()) {
                    (Some(a), Some(b)) if a != b => format!(":{a}-{b}"),
                    (Some(a), _) => format!(":{a}"),
                    _ => String::new(),
                };
                let _ = writeln!(s, "           --> {}{span}", e.artifact);
            }
        }
    }
    let counts: Vec<String> = r
        .outcome_counts
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect();
    let _ = write!(s, "artifacts: {}", counts.join(", "));
    if !r.bundle.refused.is_empty() {
        let _ = write!(s, "; {} entries refused", r.bundle.refused.len());
    }
    s.push('\n');
    s
}
