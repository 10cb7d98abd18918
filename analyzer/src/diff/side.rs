//! One host of a comparison, analyzed exactly as `rca analyze` does it.
//!
//! In: a bundle path and the reading limits. Out: [`Side`]: the host's facts, its cited
//! findings, a [`SideSummary`] for the report and, when asked, the artifact texts for evidence
//! excerpts (the fleet view drops them to keep memory to facts and findings).

use crate::analysis;
use crate::artifacts::{Lines, Text};
use crate::bundle::{BundleError, Limits};
use crate::evidence::ExcerptLine;
use crate::facts::HostFacts;
use crate::rules::profile::module_hot_path;
use crate::rules::{self, Finding};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Most lines of one artifact quoted for one difference.
pub const EXCERPT_MAX_LINES: usize = 12;

/// An analyzed host.
#[derive(Debug)]
pub struct Side {
    /// What the report shows about it.
    pub summary: SideSummary,
    /// Its facts.
    pub facts: HostFacts,
    /// Every artifact with its outcome, in the order of the analysis document's `artifacts`
    /// (the same list, without texts and records); empty for a side made of facts.
    pub artifacts: Vec<ArtifactOutcome>,
    /// The collector's `--label` text (its manifest's `meta label`), when set and not blank.
    pub collector_label: Option<String>,
    /// Artifact texts by bundle path, with the line numbers of a partly kept text; empty when
    /// not kept.
    texts: HashMap<String, KeptText>,
}

/// One artifact of an analyzed bundle and how reading it went, as `rca analyze --json` lists
/// it in `artifacts` (path, kind, bytes, outcome, issues), without its text.
#[derive(Debug, Clone)]
pub struct ArtifactOutcome {
    /// Path inside the bundle.
    pub path: String,
    /// Its kind's name (`iostat`), when resolved.
    pub kind: Option<&'static str>,
    /// Size, bytes.
    pub bytes: u64,
    /// The outcome.
    pub outcome: crate::artifacts::Outcome,
    /// Problems met.
    pub issues: usize,
    /// The first problem's message, if any.
    pub first_issue: Option<String>,
}

/// An artifact's text and, when only some lines were kept, their line numbers.
type KeptText = (Text, Option<Arc<Vec<usize>>>);

/// A host's identity, how its bundle read, and its findings.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SideSummary {
    /// The bundle path as given.
    pub path: String,
    /// Host name.
    pub hostname: Option<String>,
    /// Kernel release.
    pub kernel_release: Option<String>,
    /// OS name.
    pub os: Option<String>,
    /// Logical CPUs.
    pub cpus: Option<u32>,
    /// Bundle format (`tar-gz`, `directory`, …).
    pub format: Option<String>,
    /// The tool that wrote the bundle (`rca-collector`, `sosreport`, …): sides of different
    /// layouts are compared by their facts all the same.
    pub layout: &'static str,
    /// The folder inside the bundle where the layout's tree starts (`rca-host-2026…` of a
    /// collector tarball), `""` for the bundle's top: artifact paths without it name the same
    /// artifact in a tarball and in its unpacked folder.
    #[serde(skip)]
    pub root: String,
    /// Entries read.
    pub entries: usize,
    /// Artifacts per outcome (`parsed`, `partial`, …).
    pub outcome_counts: BTreeMap<&'static str, usize>,
    /// Why the bundle could not be analyzed, when it could not (as `analyze` exits 2).
    pub unanalyzable: Option<String>,
    /// Findings, ranked, with evidence excerpts.
    pub findings: Vec<Finding>,
    /// Time series for the page's charts (not in the JSON document: `rca analyze --json` has
    /// them per host).
    #[serde(skip)]
    pub charts: crate::report::charts::Charts,
}

impl SideSummary {
    /// Findings at warning or above.
    pub fn actionable(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity >= rules::Severity::Warning)
            .count()
    }

    /// A short label: the host name, else the bundle's file name.
    pub fn label(&self) -> String {
        self.hostname.clone().unwrap_or_else(|| {
            Path::new(&self.path)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.path.clone())
        })
    }
}

/// Reads, parses and analyzes the bundle at `path`. `keep_text` keeps the artifact texts for
/// [`Side::excerpt`]. Errors: the bundle cannot be opened or its format is not supported.
pub fn load(path: &Path, limits: &Limits, keep_text: bool) -> Result<Side, BundleError> {
    Ok(side(
        path,
        analysis::Analysis::run(path, limits)?,
        keep_text,
    ))
}

/// Like [`load`], giving up once `deadline` passes: `Ok(None)` then (see
/// [`analysis::Analysis::run_until`]).
pub fn load_until(
    path: &Path,
    limits: &Limits,
    keep_text: bool,
    deadline: Instant,
) -> Result<Option<Side>, BundleError> {
    Ok(analysis::Analysis::run_until(path, limits, deadline)?.map(|a| side(path, a, keep_text)))
}

/// The side of an analysis: only what a comparison reads is kept (facts, findings, the charts'
/// series, and with `keep_text` the artifact texts, packed); the parsed records and everything
/// else of the analysis are released here, before the other side is analyzed.
fn side(path: &Path, a: analysis::Analysis, keep_text: bool) -> Side {
    let analysis::Analysis {
        collected,
        facts,
        eval,
    } = a;
    // The page's document is not built: its parts are taken straight from the analysis, so that
    // the facts are not copied (a report takes some of them by value). A rule without a result
    // counts as not evaluated, as on the page.
    let results = rules::RULES
        .iter()
        .filter_map(|r| eval.results.iter().find(|(id, _)| *id == r.meta.id))
        .map(|(_, res)| res);
    let unanalyzable = crate::report::unanalyzable(&collected.artifacts, results);
    let mut outcome_counts = BTreeMap::new();
    for a in &collected.artifacts {
        *outcome_counts.entry(a.outcome.label()).or_insert(0) += 1;
    }
    let charts = crate::report::charts::Charts::build(&facts, &eval.findings);
    let artifacts = collected
        .artifacts
        .iter()
        .map(|a| ArtifactOutcome {
            path: a.path.clone(),
            kind: a.kind_name(),
            bytes: a.bytes,
            outcome: a.outcome.clone(),
            issues: a.issues.len(),
            first_issue: a.issues.first().map(|i| i.message.clone()),
        })
        .collect();
    let collector_label = collected
        .manifest
        .as_ref()
        .and_then(|m| m.meta.raw.get("label"))
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    let texts = if keep_text {
        collected
            .artifacts
            .iter()
            .map(|a| (a.path.clone(), (a.text.clone(), a.kept_lines.clone())))
            .collect()
    } else {
        HashMap::new()
    };
    let summary = SideSummary {
        path: path.display().to_string(),
        hostname: facts.identity.hostname.clone(),
        kernel_release: facts.identity.kernel_release.clone(),
        os: facts.identity.os.clone(),
        cpus: facts.identity.cpus,
        format: collected.summary.format.map(|f| f.label().to_string()),
        layout: collected.layout.layout.name(),
        root: collected.layout.root.clone(),
        entries: collected.summary.entries,
        outcome_counts,
        unanalyzable,
        findings: eval.findings,
        charts,
    };
    Side {
        summary,
        facts,
        artifacts,
        collector_label,
        texts,
    }
}

impl Side {
    /// A side made of facts alone (tests, and callers that built facts themselves).
    pub fn from_facts(path: &str, facts: HostFacts, findings: Vec<Finding>) -> Side {
        Side {
            summary: SideSummary {
                path: path.to_string(),
                hostname: facts.identity.hostname.clone(),
                kernel_release: facts.identity.kernel_release.clone(),
                os: facts.identity.os.clone(),
                cpus: facts.identity.cpus,
                format: None,
                layout: crate::layout::Layout::Loose.name(),
                root: String::new(),
                entries: 0,
                outcome_counts: BTreeMap::new(),
                unanalyzable: None,
                findings,
                charts: Default::default(),
            },
            facts,
            artifacts: Vec::new(),
            collector_label: None,
            texts: HashMap::new(),
        }
    }

    /// Drops the artifact texts.
    pub fn drop_texts(&mut self) {
        self.texts = HashMap::new();
    }

    /// The findings.
    pub fn findings(&self) -> &[Finding] {
        &self.summary.findings
    }

    /// This side's `profile.module-hot-path` finding for kernel module `module`, if it has one.
    pub fn hot_module(&self, module: &str) -> Option<&Finding> {
        let named = format!("`{module}`");
        self.findings()
            .iter()
            .find(|f| f.rule_id == module_hot_path::META.id && f.title.contains(&named))
    }

    /// The cited lines of `artifact` with their text (1-based; 0 marks an elision). At most
    /// [`EXCERPT_MAX_LINES`] lines; empty when the text was not kept.
    pub fn excerpt(&self, artifact: &str, lines: &[usize]) -> Vec<ExcerptLine> {
        let Some((text, numbers)) = self.texts.get(artifact) else {
            return Vec::new();
        };
        let all = Lines::new(text, numbers.as_deref().map(Vec::as_slice));
        let wanted = &lines[..lines.len().min(EXCERPT_MAX_LINES)];
        let found: HashMap<usize, std::borrow::Cow<'_, str>> = wanted
            .iter()
            .zip(all.get_many(wanted))
            .filter_map(|(&l, t)| Some((l, t?)))
            .collect();
        let mut out = analysis::excerpt(wanted, |l| found.get(&l).map(|t| t.as_ref()));
        if lines.len() > EXCERPT_MAX_LINES {
            out.push(ExcerptLine {
                line: 0,
                text: format!("… {} more lines", lines.len() - EXCERPT_MAX_LINES),
            });
        }
        out
    }
}
