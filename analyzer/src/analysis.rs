//! One host's analysis end to end: read and parse the bundle, build facts, run rules, cite
//! evidence.
//!
//! In: a bundle path and [`Limits`]. Out: [`Analysis`]: the artifacts read, the host's facts and
//! the rules' conclusions with every finding's evidence lines filled in. The report
//! (`crate::report::Report`) is built from it.

use crate::artifacts::{self, Collected, Origin};
use crate::bundle::{BundleError, Limits};
use crate::evidence::ExcerptLine;
use crate::facts::HostFacts;
use crate::rules::{self, Evaluation, Finding};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::time::Instant;

/// Longest excerpt line kept, characters.
pub const EXCERPT_LINE_CHARS: usize = 400;

/// One bundle, analyzed. Its artifacts keep their outcomes, issues and text, not their parsed
/// records: those are dropped once the facts are built ([`Collected::drop_records`]).
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
        let mut collected = artifacts::collect(path, limits)?;
        crate::memstat::stage("collect");
        let facts = HostFacts::from_collected(&collected);
        collected.drop_records();
        crate::memstat::stage("facts");
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
        let mut collected = artifacts::collect_until(path, limits, Some(deadline))?;
        if past() {
            return Ok(None);
        }
        let facts = HostFacts::from_collected(&collected);
        collected.drop_records();
        if past() {
            return Ok(None);
        }
        Ok(Some(Analysis::conclude(collected, facts)))
    }

    /// Runs the rules over the facts and cites each finding's evidence.
    fn conclude(collected: Collected, facts: HostFacts) -> Analysis {
        let mut eval = rules::evaluate(&facts);
        crate::memstat::stage("rules");
        cite(&mut eval.findings, &collected);
        crate::memstat::stage("cite");
        Analysis {
            collected,
            facts,
            eval,
        }
    }
}

/// Fills each evidence's excerpt from the artifact text (line numbers are 1-based), first adding
/// the table header an evidence asks for ([`crate::evidence::Evidence::with_header`]). Evidence
/// on joined files ([`Origin::Joined`]) becomes one evidence per file its lines come from, citing
/// that file with its own line numbers.
///
/// The lines of one artifact are looked up together, in one pass over its text whatever the
/// number of findings and evidence that cite it (one line index per artifact, shared with the
/// report's viewer): citing stays linear in the bundle's size.
pub fn cite(findings: &mut [Finding], c: &Collected) {
    let by_path: HashMap<&str, usize> = c
        .artifacts
        .iter()
        .enumerate()
        .map(|(i, a)| (a.path.as_str(), i))
        .collect();
    let at = |artifact: &str| by_path.get(artifact).copied();
    // The headers asked for, per artifact and prefix: (first cited line, finding, evidence).
    type Asks = Vec<(usize, usize, usize)>;
    let mut asked: BTreeMap<(usize, &'static str), Asks> = BTreeMap::new();
    for (fi, f) in findings.iter().enumerate() {
        for (ei, ev) in f.evidence.iter().enumerate() {
            if let (Some(prefix), Some(&first), Some(i)) =
                (ev.header_prefix, ev.lines.first(), at(&ev.artifact))
            {
                asked.entry((i, prefix)).or_default().push((first, fi, ei));
            }
        }
    }
    for ((i, prefix), mut asks) in asked {
        asks.sort_unstable();
        let queries: Vec<usize> = asks.iter().map(|a| a.0).collect();
        let headers = c.artifacts[i].lines().headers_above(&queries, prefix);
        for ((_, fi, ei), h) in asks.into_iter().zip(headers) {
            if let Some(h) = h {
                let ev = &mut findings[fi].evidence[ei];
                ev.lines.insert(0, h);
                ev.lines.sort_unstable();
                ev.lines.dedup();
            }
        }
    }
    // Every cited line of each artifact, looked up in one pass.
    let mut wanted: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for ev in findings.iter().flat_map(|f| &f.evidence) {
        if let Some(i) = at(&ev.artifact) {
            wanted.entry(i).or_default().extend(&ev.lines);
        }
    }
    let texts: HashMap<usize, HashMap<usize, std::borrow::Cow<'_, str>>> = wanted
        .into_iter()
        .map(|(i, lines)| {
            let lines: Vec<usize> = lines.into_iter().collect();
            let found = c.artifacts[i].lines().get_many(&lines);
            let found = lines
                .into_iter()
                .zip(found)
                .filter_map(|(l, t)| Some((l, t?)))
                .collect();
            (i, found)
        })
        .collect();
    for f in findings.iter_mut() {
        let mut out = Vec::with_capacity(f.evidence.len());
        for mut ev in std::mem::take(&mut f.evidence) {
            let Some(i) = at(&ev.artifact) else {
                out.push(ev);
                continue;
            };
            let text = |l: usize| texts.get(&i).and_then(|t| t.get(&l)).map(|t| t.as_ref());
            match &c.artifacts[i].origin {
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
                        e.excerpt = excerpt(&own, text);
                        for x in &mut e.excerpt {
                            x.line = p.line_of(x.line).unwrap_or(0);
                        }
                        e.lines = own.iter().filter_map(|&l| p.line_of(l)).collect();
                        out.push(e);
                    }
                }
                _ => {
                    ev.excerpt = excerpt(&ev.lines, text);
                    out.push(ev);
                }
            }
        }
        f.evidence = out;
    }
}

/// The text of lines `wanted` (1-based, ascending) of an artifact, as `text` gives each, long
/// lines shortened to [`EXCERPT_LINE_CHARS`], with a line 0 (`…`) wherever lines are skipped;
/// lines the artifact does not have (or did not keep) are left out.
pub fn excerpt<'a>(wanted: &[usize], text: impl Fn(usize) -> Option<&'a str>) -> Vec<ExcerptLine> {
    let mut out = Vec::new();
    let mut prev = 0;
    for &l in wanted {
        let Some(text) = text(l) else {
            continue;
        };
        if prev != 0 && l > prev + 1 {
            out.push(ExcerptLine {
                line: 0,
                text: "…".into(),
            });
        }
        let text = text.strip_suffix('\r').unwrap_or(text);
        let text = match text.char_indices().nth(EXCERPT_LINE_CHARS) {
            Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or(text)),
            None => text.to_string(),
        };
        out.push(ExcerptLine { line: l, text });
        prev = l;
    }
    out
}
