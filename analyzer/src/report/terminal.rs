//! The short terminal summary printed after an analysis.
//!
//! Everything taken from the bundle (host names, paths, titles built from device names) passes
//! through [`clean`], so a hostile bundle cannot send escape sequences to the user's terminal,
//! nor forge a line with a newline in a name.

use super::Report;
use crate::console::{clean, Styled, Tone};
use crate::rules::RuleResult;
use std::fmt::Write;

fn or_unknown(s: Option<&str>) -> String {
    match s.map(str::trim) {
        Some(v) if !v.is_empty() => clean(v).into_owned(),
        _ => "?".into(),
    }
}

/// The summary as plain text (see [`styled`]).
pub fn summary(r: &Report) -> String {
    styled(r).to_string()
}

/// Renders the summary: host line, whether the collection is incomplete, findings with their
/// first evidence location, rule status counts (with the reasons rules could not run), artifact
/// outcome counts. Severities, warnings and the incomplete collection are painted in their
/// tones, evidence locations and rules not evaluated dimmed.
pub fn styled(r: &Report) -> Styled {
    let mut s = Styled::new();
    let h = &r.host;
    let _ = writeln!(
        s,
        "rca {} — {} ({}, {} entries)",
        r.tool.version,
        clean(&r.bundle.path),
        r.bundle.format.map(|f| f.label()).unwrap_or("unknown"),
        r.bundle.entries
    );
    let _ = writeln!(
        s,
        "host {} · {} · kernel {} · {} · {} CPU",
        or_unknown(h.hostname.as_deref()),
        or_unknown(h.os.as_deref()),
        or_unknown(h.kernel_release.as_deref()),
        or_unknown(h.machine.as_deref()),
        h.cpus.map(|c| c.to_string()).unwrap_or_else(|| "?".into())
    );
    if let Some(red) = &r.bundle.redaction {
        let _ = writeln!(s, "{}", clean(&red.headline()));
    }
    for w in &r.bundle.warnings {
        s.paint(Tone::Warning, "warning:");
        let _ = writeln!(s, " {}", clean(w));
    }
    if let Some(stop) = &r.bundle.stopped {
        s.paint(Tone::Warning, "warning: reading stopped early:");
        let _ = writeln!(s, " {}", clean(stop));
    }
    for why in &r.collection.incomplete {
        s.paint(Tone::Critical, "INCOMPLETE collection:");
        let _ = writeln!(s, " {}", clean(why));
    }
    if r.findings.is_empty() && !r.collection.incomplete.is_empty() {
        let _ = writeln!(
            s,
            "findings: none in what was collected; the collection is incomplete, so this is no clean bill of health"
        );
    } else if r.findings.is_empty() {
        s.paint(Tone::Ok, "findings: none");
        s.paint(Tone::Plain, "\n");
    } else {
        let _ = writeln!(s, "findings:");
        for f in &r.findings {
            let label = f.severity.label().to_uppercase();
            s.paint(Tone::Plain, "  ");
            s.paint(Tone::of_severity(&label), &label);
            let _ = writeln!(
                s,
                "{:pad$} [{}] {}",
                "",
                f.rule_id,
                clean(&f.title),
                pad = 8usize.saturating_sub(label.len())
            );
            if let Some(e) = f.evidence.first() {
                let span = match (e.lines.first(), e.lines.last()) {
                    (Some(a), Some(b)) if a != b => format!(":{a}-{b}"),
                    (Some(a), _) => format!(":{a}"),
                    _ => String::new(),
                };
                s.paint(Tone::Plain, "           ");
                s.paint(Tone::Dim, &format!("--> {}{span}", clean(&e.artifact)));
                s.paint(Tone::Plain, "\n");
            }
        }
    }
    let (mut fired, mut clear, mut skipped) = (0, 0, Vec::new());
    for rule in &r.rules {
        match &rule.result {
            RuleResult::Findings { .. } => fired += 1,
            RuleResult::Clear { .. } => clear += 1,
            RuleResult::NotEvaluated { reason } => skipped.push((rule.id, reason)),
        }
    }
    let _ = writeln!(
        s,
        "rules: {fired} with findings, {clear} clear, {} not evaluated",
        skipped.len()
    );
    for (id, reason) in skipped.iter().take(6) {
        s.paint(Tone::Plain, "  ");
        s.paint(
            Tone::Dim,
            &format!("not evaluated [{id}]: {}", clean(reason)),
        );
        s.paint(Tone::Plain, "\n");
    }
    if skipped.len() > 6 {
        let _ = writeln!(
            s,
            "  … {} more in the report's rules section",
            skipped.len() - 6
        );
    }
    let counts: Vec<String> = r
        .outcome_counts
        .iter()
        .map(|(k, v)| format!("{v} {}", k.replace('-', " ")))
        .collect();
    let _ = write!(s, "artifacts: {}", counts.join(", "));
    if !r.bundle.refused.is_empty() {
        let _ = write!(s, "; {} entries refused", r.bundle.refused.len());
    }
    s.paint(Tone::Plain, "\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_incomplete_collection_is_said_first_and_never_clear() {
        let mut r = crate::report::testkit::report(Vec::new());
        r.collection.incomplete =
            vec!["the collector says: deadline of 660 s reached\u{1b}[2J".into()];
        let s = super::summary(&r);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines[2],
            "INCOMPLETE collection: the collector says: deadline of 660 s reached\\x1b[2J"
        );
        assert!(lines[3]
            .starts_with("findings: none in what was collected; the collection is incomplete"));
        assert!(!s.contains("findings: none\n"));
    }

    #[test]
    fn severities_are_painted_and_bundle_text_cannot_colour() {
        use crate::console::Tone;
        let mut r = crate::report::testkit::report(Vec::new());
        r.bundle.warnings = vec!["odd \u{1b}[31mred".into()];
        let s = super::styled(&r);
        assert!(s
            .spans()
            .iter()
            .any(|(t, x)| *t == Tone::Warning && x == "warning:"));
        assert!(s
            .spans()
            .iter()
            .any(|(t, x)| *t == Tone::Ok && x == "findings: none"));
        let coloured = s.render(true);
        // Our codes are there; the bundle's ESC is shown escaped.
        assert!(
            coloured.contains("\u{1b}[33mwarning:\u{1b}[0m"),
            "{coloured:?}"
        );
        assert!(coloured.contains("odd \\x1b[31mred"), "{coloured:?}");
        assert!(!s.render(false).contains('\u{1b}'));
    }

    #[test]
    fn bundle_text_is_shown_escaped() {
        assert_eq!(super::or_unknown(Some("  ")), "?");
        assert_eq!(
            super::or_unknown(Some("h\u{1b}]0;PWNED\u{7}\u{202e}x\ny")),
            "h\\x1b]0;PWNED\\x07\\u{202e}x\\ny"
        );
    }
}
