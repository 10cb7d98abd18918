//! Artifacts derived from the bundle's files, once its layout is known: the entries of a
//! supportconfig file, each read as its kind, and an OSWatcher tool's hourly files joined into
//! one series.
//!
//! An entry (`scc_db1_240101_1200/memory.txt#/proc/meminfo`) is parsed as if it stood at its
//! place in its file, so every line number of its record, its issues and its evidence is the
//! file's; its [`Origin::Entry`] names the file and the lines. Joined hours
//! (`oswbb/archive/oswmpstat/db1_mpstat_24.01.15.1300..24.01.15.1400.dat#joined`) number their
//! lines through the joined text; [`Origin::Joined`] maps them back to each file, and findings
//! cite the files themselves (`crate::analysis::cite`).

use super::{parse_with, Artifact, KindSource, Outcome, Text};
use crate::layout::{self, supportconfig};
use parsers::kind::{self, KindSpec};
use parsers::{IssueKind, LineIssue};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a derived artifact's text comes from.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum Origin {
    /// One entry of a file: the artifact's line numbers are the file's.
    Entry {
        /// Bundle path of the file (`scc_db1_240101_1200/network.txt`).
        file: String,
        /// The entry's type (`Command`, `Configuration File`).
        entry: String,
        /// The entry's `# …` line as written (`/usr/sbin/ip -stats link`).
        command: String,
        /// 1-based line of the entry's header in the file.
        header_line: usize,
        /// 1-based lines of the entry's output in the file, first and last.
        lines: (usize, usize),
    },
    /// Files of one kind joined in time order (an OSWatcher tool's hours): lines are numbered
    /// through the joined text, and each part says which of them come from which file.
    Joined {
        /// The files, in time order.
        parts: Vec<Part>,
    },
}

/// One file of a joined artifact.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Part {
    /// Bundle path of the file.
    pub file: String,
    /// 1-based line of the joined text where the file's first line is.
    pub first_line: usize,
    /// Number of lines of the file.
    pub lines: usize,
}

impl Part {
    /// The file's own line number of joined line `n`, when `n` is one of this file's.
    pub fn line_of(&self, n: usize) -> Option<usize> {
        (n >= self.first_line && n < self.first_line + self.lines).then(|| n - self.first_line + 1)
    }
}

/// At most this many entries of one supportconfig file are read as artifacts: each is parsed
/// with blank lines standing for the lines above it, so that its line numbers are the file's.
const MAX_ENTRIES_PER_FILE: usize = 64;

/// Reads the entries of every supportconfig file (`layout::supportconfig_file`) whose
/// command or file the command→kind table knows as artifacts of their own; the file itself is
/// then "unrecognised" with a reason that says so, and keeps the issues of its unreadable entry
/// headers.
pub(super) fn split_supportconfig(artifacts: &mut Vec<Artifact>, d: &layout::Detected) {
    let mut derived = Vec::new();
    for a in artifacts.iter_mut() {
        if !layout::supportconfig_file(d, &a.path)
            || a.kept_lines.is_some()
            || !matches!(
                a.outcome,
                Outcome::Parsed
                    | Outcome::Partial
                    | Outcome::Unusable { .. }
                    | Outcome::Unrecognised { .. }
            )
            || super::read_failed(a)
        {
            continue;
        }
        // The file is read whole once, decompressed, while its entries are parsed.
        let text = a.text.clone();
        let whole = text.contents();
        let split = supportconfig::split(&whole);
        let mut read = 0usize;
        let mut issues: Vec<LineIssue> = a
            .issues
            .iter()
            .filter(|i| i.kind == IssueKind::Encoding)
            .cloned()
            .collect();
        issues.extend(split.issues);
        for s in &split.sections {
            let Some(spec) = supportconfig::kind_of(&s.entry, &s.label) else {
                continue;
            };
            if read == MAX_ENTRIES_PER_FILE {
                issues.push(LineIssue::of(
                    IssueKind::Capped,
                    s.header_line,
                    format!("more than {MAX_ENTRIES_PER_FILE} entries of kinds rca reads: this one and the ones after it are not read"),
                ));
                break;
            }
            read += 1;
            derived.push(entry(a, &whole, s, spec));
        }
        a.kind = None;
        a.kind_source = None;
        a.data = None;
        a.issues = issues;
        a.outcome = Outcome::Unrecognised {
            reason: format!(
                "a supportconfig file of {} entries; the {read} of kinds rca reads are artifacts of their own (`{}#<command or file>`)",
                split.sections.len(),
                a.path
            ),
        };
    }
    artifacts.extend(derived);
}

/// The artifact of entry `s` of the supportconfig file `file`, whose whole text is `text`.
fn entry(
    file: &Artifact,
    text: &str,
    s: &supportconfig::Section,
    spec: &'static KindSpec,
) -> Artifact {
    let path = format!("{}#{}", file.path, s.name);
    let origin = Origin::Entry {
        file: file.path.clone(),
        entry: s.entry.clone(),
        command: s.command.clone(),
        header_line: s.header_line,
        lines: (s.first_line, s.last_line),
    };
    let body = text.get(s.bytes.clone()).unwrap_or("");
    let mut a = match &s.missing {
        Some(note) => Artifact {
            path,
            kind: Some(spec),
            kind_source: Some(KindSource::Path),
            bytes: 0,
            outcome: Outcome::NotCollected {
                exit: None,
                timed_out: false,
                note: note.clone(),
            },
            issues: Vec::new(),
            record: None,
            text: Text::default(),
            kept_lines: None,
            data: None,
            origin: None,
        },
        None => {
            // Blank lines stand for the file's lines above the entry: the parser numbers every
            // line as the file does.
            let mut padded = "\n".repeat(s.first_line.saturating_sub(1));
            padded.push_str(body);
            padded.push('\n');
            let mut a = parse_with(
                spec,
                KindSource::Path,
                &path,
                Text::from(padded),
                body.len() as u64,
            );
            let mut text = body.to_string();
            text.push('\n');
            let numbers: Vec<usize> = (s.first_line..=s.last_line).collect();
            a.kept_lines = (!body.is_empty()).then(|| Arc::new(numbers));
            a.text = Text::from(text).pack();
            a
        }
    };
    a.origin = Some(origin);
    a
}

/// The OSWatcher kinds whose hourly files are joined.
fn joinable(k: &KindSpec) -> bool {
    [&kind::OSWVMSTAT, &kind::OSWIOSTAT, &kind::OSWMPSTAT]
        .iter()
        .any(|j| std::ptr::eq(*j, k))
}

/// Joins the hourly files of each OSWatcher tool and host (`<folder>/<host>_<tool>_YY.MM.DD.HHMM.dat`)
/// that parsed, two or more, into one artifact read as one series: the files in name order,
/// which is time order (OSWatcher names them by the hour they start). The files stay listed
/// with their own outcomes and issues; the joined artifact adds none of its own.
pub(super) fn join_oswatcher(artifacts: &mut Vec<Artifact>) {
    let mut groups: BTreeMap<(&'static str, String, String), Vec<usize>> = BTreeMap::new();
    for (i, a) in artifacts.iter().enumerate() {
        let Some(k) = a.kind.filter(|k| joinable(k)) else {
            continue;
        };
        if a.data.is_none() || a.kept_lines.is_some() || a.origin.is_some() {
            continue;
        }
        let tool = k.name.trim_start_matches("osw");
        let (folder, name) = a.path.rsplit_once('/').unwrap_or(("", &a.path));
        let Some(host) = name.rsplit_once(&format!("_{tool}_")).map(|(h, _)| h) else {
            continue;
        };
        groups
            .entry((k.name, folder.to_string(), host.to_string()))
            .or_default()
            .push(i);
    }
    let mut joined = Vec::new();
    for ((name, folder, host), mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        members.sort_by(|a, b| artifacts[*a].path.cmp(&artifacts[*b].path));
        let Some(spec) = kind::by_name(name) else {
            continue;
        };
        let tool = name.trim_start_matches("osw");
        let stamp = |i: usize| {
            let p = &artifacts[i].path;
            let file = p.rsplit('/').next().unwrap_or(p);
            let rest = file
                .rsplit_once(&format!("_{tool}_"))
                .map_or(file, |(_, r)| r);
            rest.split(".dat").next().unwrap_or(rest).to_string()
        };
        let (first, last) = (stamp(members[0]), stamp(members[members.len() - 1]));
        let path = if folder.is_empty() {
            format!("{host}_{tool}_{first}..{last}.dat#joined")
        } else {
            format!("{folder}/{host}_{tool}_{first}..{last}.dat#joined")
        };
        let mut text = String::new();
        let mut parts = Vec::new();
        let mut line = 1;
        let mut bytes = 0;
        for &m in &members {
            let a = &artifacts[m];
            let lines = a.text.line_count();
            parts.push(Part {
                file: a.path.clone(),
                first_line: line,
                lines,
            });
            line += lines;
            bytes += a.bytes;
            text.push_str(&a.text.contents());
            if !text.ends_with('\n') {
                text.push('\n');
            }
        }
        let mut a = parse_with(spec, KindSource::Path, &path, Text::from(text), bytes);
        if a.data.is_none() {
            continue;
        }
        a.issues.clear();
        a.outcome = Outcome::Parsed;
        a.origin = Some(Origin::Joined { parts });
        joined.push(a);
    }
    artifacts.extend(joined);
}
