//! One host's analysis end to end: read and parse the bundle, build facts, run rules, cite
//! evidence.
//!
//! In: a bundle path and [`Limits`]. Out: [`Analysis`]: the artifacts read, the host's facts and
//! the rules' conclusions with every finding's evidence lines filled in. The report
//! (`crate::report::Report`) is built from it.

use crate::artifacts::{self, Collected, Lines, Origin};
use crate::bundle::{BundleError, Limits};
use crate::evidence::ExcerptLine;
use crate::facts::HostFacts;
use crate::rules::{self, Evaluation, Finding};
use std::path::Path;
use std::time::Instant;

/// Longest excerpt line kept, characters.
pub const EXCERPT_LINE_CHARS: usize = 400;

/// One bundle, analyzed.
#[derive(Debug)]
pub struct Analysis {
    /// Every artifact read, with its outcome.
    pub collected: Collected,
    /// The host's facts.
    pub facts: HostFacts,
    /// What every rule concluded; findings ranked, their excerpts filled in.
    pub eval: Evaluation,
}

impl Analysis {
    /// Analyzes the bundle at `path`. Errors: the bundle cannot be opened or is in an
    /// unsupported format; everything else (bad entries, unparseable artifacts) is reported
    /// inside the result.
    pub fn run(path: &Path, limits: &Limits) -> Result<Analysis, BundleError> {
        let collected = artifacts::collect(path, limits)?;
        let facts = HostFacts::from_collected(&collected);
        Ok(Analysis::conclude(collected, facts))
    }

    /// Like [`Analysis::run`], giving up once `deadline` passes: `Ok(None)` then. The deadline
    /// is checked before reading, between entries (no entry is parsed after it), and between the
    /// stages; one parse already under way runs to its end. A deadline already past stops the
    /// analysis before it opens the bundle.
    pub fn run_until(
        path: &Path,
        limits: &Limits,
        deadline: Instant,
    ) -> Result<Option<Analysis>, BundleError> {
        let past = || Instant::now() >= deadline;
        if past() {
            return Ok(None);
        }
        let collected = artifacts::collect_until(path, limits, Some(deadline))?;
        if past() {
            return Ok(None);
        }
        let facts = HostFacts::from_collected(&collected);
        if past() {
            return Ok(None);
        }
        Ok(Some(Analysis::conclude(collected, facts)))
    }

    /// Runs the rules over the facts and cites each finding's evidence.
    fn conclude(collected: Collected, facts: HostFacts) -> Analysis {
        let mut eval = rules::evaluate(&facts);
        for f in &mut eval.findings {
            cite(f, &collected);
        }
        Analysis {
            collected,
            facts,
            eval,
        }
    }
}

/// Fills each evidence's excerpt from the artifact text (line numbers are 1-based). Evidence on
/// joined files ([`Origin::Joined`]) becomes one evidence per file its lines come from, citing
/// that file with its own line numbers.
pub fn cite(f: &mut Finding, c: &Collected) {
    let mut out = Vec::with_capacity(f.evidence.len());
    for mut ev in std::mem::take(&mut f.evidence) {
        let Some(a) = c.artifacts.iter().find(|a| a.path == ev.artifact) else {
            out.push(ev);
            continue;
        };
        let lines = a.lines();
        if let (Some(prefix), Some(&first)) = (ev.header_prefix, ev.lines.first()) {
            if let Some(h) = lines.header_above(first, prefix) {
                ev.lines.insert(0, h);
                ev.lines.sort_unstable();
                ev.lines.dedup();
            }
        }
        match &a.origin {
            Some(Origin::Joined { parts }) => {
                for p in parts {
                    let own: Vec<usize> = ev
                        .lines
                        .iter()
                        .copied()
                        .filter(|&l| p.line_of(l).is_some())
                        .collect();
                    if own.is_empty() {
                        continue;
                    }
                    let mut e = ev.clone();
                    e.artifact = p.file.clone();
                    e.excerpt = excerpt(&lines, &own);
                    for x in &mut e.excerpt {
                        x.line = p.line_of(x.line).unwrap_or(0);
                    }
                    e.lines = own.iter().filter_map(|&l| p.line_of(l)).collect();
                    out.push(e);
                }
            }
            _ => {
                ev.excerpt = excerpt(&lines, &ev.lines);
                out.push(ev);
            }
        }
    }
    f.evidence = out;
}

/// The text of lines `wanted` (1-based, ascending) of an artifact, long lines shortened to
/// [`EXCERPT_LINE_CHARS`], with a line 0 (`…`) wherever lines are skipped; lines the artifact
/// does not have (or did not keep) are left out.
pub fn excerpt(lines: &Lines, wanted: &[usize]) -> Vec<ExcerptLine> {
    let mut out = Vec::new();
    let mut prev = 0;
    for &l in wanted {
        let Some(text) = lines.get(l) else {
            continue;
        };
        if prev != 0 && l > prev + 1 {
            out.push(ExcerptLine {
                line: 0,
                text: "…".into(),
            });
        }
        let text = text.strip_suffix('\r').unwrap_or(text);
        let text = if text.chars().count() > EXCERPT_LINE_CHARS {
            let mut t: String = text.chars().take(EXCERPT_LINE_CHARS).collect();
            t.push('…');
            t
        } else {
            text.to_string()
        };
        out.push(ExcerptLine { line: l, text });
        prev = l;
    }
    out
}
