//! The coverage section of the page: what became of every file of the bundle, bounded so that a
//! tree of a hundred thousand files still gives a page a browser opens at once.
//!
//! A bundle of at most [`LIST_ALL_UP_TO`] artifacts lists every one, as the JSON document does.
//! A larger one is summarised: a count of its artifacts per kind and outcome (the artifacts
//! without a kind also per folder, the numbers in a folder's name read as `*`:
//! `proc/*`, `sos_commands/process`), then a list of at most [`ROWS_RECOGNISED`] artifacts per
//! outcome for the outcomes of recognised artifacts (`parsed`, `partial`, `too-large`,
//! `parser-bug`) and [`ROWS_OTHER`] for the others (`unusable`, `unrecognised`,
//! `not-collected`), the cited ones first and then drawn from every group in turn, so each
//! folder shows examples. What is left out is counted; the JSON document (`--json`) always lists
//! every artifact.

use super::viewer::cited_lines;
use super::Report;
use crate::artifacts::{Artifact, Outcome};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Bundles with at most this many artifacts list every one.
pub const LIST_ALL_UP_TO: usize = 1_000;
/// In a larger bundle, most artifacts listed per outcome of a recognised artifact.
pub const ROWS_RECOGNISED: usize = 500;
/// In a larger bundle, most artifacts listed per other outcome (unusable, unrecognised,
/// not collected).
pub const ROWS_OTHER: usize = 200;
/// Most rows of the summary by kind and outcome; the smallest groups beyond it are counted
/// together.
pub const MAX_GROUPS: usize = 200;

/// One row of the summary: artifacts of one kind (or, without a kind, of one folder) with one
/// outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// Kind name; `None` for artifacts without a kind.
    pub kind: Option<&'static str>,
    /// For artifacts without a kind: their folder, numbers read as `*` (`proc/*`); `.` at the
    /// bundle's top.
    pub folder: Option<String>,
    /// Outcome label (`parsed`, `unrecognised` …).
    pub outcome: &'static str,
    /// Artifacts in the group.
    pub count: usize,
    /// Their bytes.
    pub bytes: u64,
}

/// The coverage section's content.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    /// Every artifact is listed (the bundle has at most [`LIST_ALL_UP_TO`]).
    pub complete: bool,
    /// Indexes (into the report's artifacts) of the artifacts listed, ascending.
    pub rows: Vec<usize>,
    /// The summary by kind and outcome, largest first within each outcome; empty when
    /// `complete`.
    pub groups: Vec<Group>,
    /// Groups beyond [`MAX_GROUPS`] not shown, and the artifacts in them.
    pub groups_omitted: (usize, usize),
    /// Per outcome label, the artifacts not listed.
    pub left_out: BTreeMap<&'static str, usize>,
}

/// The folder an artifact without a kind is counted in: its first two folders below the
/// bundle's top folder `top` (when every path shares one), numbers read as `*`.
fn folder(path: &str, top: &str) -> String {
    let rel = path.strip_prefix(top).unwrap_or(path);
    let mut parts: Vec<&str> = rel.split('/').collect();
    parts.pop();
    if parts.is_empty() {
        return ".".into();
    }
    parts
        .iter()
        .take(2)
        .map(|p| {
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                p
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The top folder every path shares (`sosreport-host-2024…/`), or "".
fn common_top(artifacts: &[Artifact]) -> String {
    let Some(first) = artifacts.first() else {
        return String::new();
    };
    let Some((top, _)) = first.path.split_once('/') else {
        return String::new();
    };
    let top = format!("{top}/");
    if artifacts.iter().all(|a| a.path.starts_with(&top)) {
        top
    } else {
        String::new()
    }
}

fn recognised(o: &Outcome) -> bool {
    matches!(
        o,
        Outcome::Parsed | Outcome::Partial | Outcome::TooLarge { .. } | Outcome::ParserBug { .. }
    )
}

/// The coverage section of `report`.
pub fn build(report: &Report) -> Coverage {
    build_with(report, LIST_ALL_UP_TO)
}

/// [`build`] listing every artifact up to `list_all_up_to` (tests).
pub fn build_with(report: &Report, list_all_up_to: usize) -> Coverage {
    let arts = &report.artifacts;
    if arts.len() <= list_all_up_to {
        return Coverage {
            complete: true,
            rows: (0..arts.len()).collect(),
            groups: Vec::new(),
            groups_omitted: (0, 0),
            left_out: BTreeMap::new(),
        };
    }
    let top = common_top(arts);
    let cited = cited_lines(report);
    // Artifacts per (outcome, kind, folder), in path order.
    type Key = (&'static str, Option<&'static str>, Option<String>);
    let mut members: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, a) in arts.iter().enumerate() {
        let kind = a.kind.map(|k| k.name);
        let dir = kind.is_none().then(|| folder(&a.path, &top));
        members
            .entry((a.outcome.label(), kind, dir))
            .or_default()
            .push(i);
    }
    // The listed rows: per outcome, cited first, then one from each group in turn.
    let mut rows: BTreeSet<usize> = BTreeSet::new();
    let mut left_out: BTreeMap<&'static str, usize> = BTreeMap::new();
    let outcomes: BTreeSet<&'static str> = members.keys().map(|k| k.0).collect();
    for outcome in outcomes {
        let groups: Vec<&Vec<usize>> = members
            .iter()
            .filter(|(k, _)| k.0 == outcome)
            .map(|(_, v)| v)
            .collect();
        let total: usize = groups.iter().map(|g| g.len()).sum();
        let first = groups[0][0];
        let cap = if recognised(&arts[first].outcome) {
            ROWS_RECOGNISED
        } else {
            ROWS_OTHER
        };
        let mut taken = 0;
        for i in groups.iter().flat_map(|g| g.iter()) {
            if taken < cap && cited.contains_key(arts[*i].path.as_str()) && rows.insert(*i) {
                taken += 1;
            }
        }
        let mut depth = 0;
        while taken < cap.min(total) {
            for g in &groups {
                if taken == cap {
                    break;
                }
                if let Some(i) = g.get(depth) {
                    if rows.insert(*i) {
                        taken += 1;
                    }
                }
            }
            depth += 1;
        }
        if total > taken {
            left_out.insert(outcome, total - taken);
        }
    }
    // The summary: by outcome (in the label order of `outcome_counts`), largest group first.
    let mut groups: Vec<Group> = members
        .into_iter()
        .map(|((outcome, kind, folder), v)| Group {
            kind,
            folder,
            outcome,
            count: v.len(),
            bytes: v.iter().map(|i| arts[*i].bytes).sum(),
        })
        .collect();
    groups.sort_by(|a, b| {
        a.outcome
            .cmp(b.outcome)
            .then(b.count.cmp(&a.count))
            .then(a.kind.cmp(&b.kind))
            .then(a.folder.cmp(&b.folder))
    });
    let mut groups_omitted = (0, 0);
    if groups.len() > MAX_GROUPS {
        // Keep the largest groups, in the same order.
        let mut by_size: Vec<usize> = (0..groups.len()).collect();
        by_size.sort_by(|a, b| groups[*b].count.cmp(&groups[*a].count).then(a.cmp(b)));
        let keep: BTreeSet<usize> = by_size.into_iter().take(MAX_GROUPS).collect();
        let mut kept = Vec::with_capacity(MAX_GROUPS);
        for (i, g) in groups.into_iter().enumerate() {
            if keep.contains(&i) {
                kept.push(g);
            } else {
                groups_omitted.0 += 1;
                groups_omitted.1 += g.count;
            }
        }
        groups = kept;
    }
    Coverage {
        complete: false,
        rows: rows.into_iter().collect(),
        groups,
        groups_omitted,
        left_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::Text;
    use crate::report::testkit::{artifact, report, unrecognised};
    use parsers::kind;

    /// A sosreport-like tree: `n` unrecognised files spread over `proc/<pid>/`, `etc/` and
    /// `sos_commands/process/`, five parsed artifacts and three unusable ones.
    fn tree(n: usize) -> Report {
        let t: Text = "x\n".into();
        let mut a: Vec<Artifact> = (0..n)
            .map(|i| {
                let p = match i % 3 {
                    0 => format!("sos-h/proc/{}/status", 1000 + i),
                    1 => format!("sos-h/etc/conf-{i:06}"),
                    _ => format!("sos-h/sos_commands/process/cmd_{i:06}"),
                };
                unrecognised(&p, &t)
            })
            .collect();
        for i in 0..5 {
            a.push(artifact(
                &format!("sos-h/proc/net/dev.{i}"),
                Some(&kind::NET_DEV),
                Outcome::Parsed,
                &t,
            ));
        }
        for i in 0..3 {
            let o = Outcome::Unusable {
                reason: "nothing readable".into(),
            };
            a.push(artifact(
                &format!("sos-h/sos_commands/networking/ethtool_-i_e{i}"),
                Some(&kind::ETHTOOL_I),
                o,
                &t,
            ));
        }
        report(a)
    }

    #[test]
    fn a_small_bundle_lists_every_artifact() {
        let c = build(&tree(30));
        assert!(c.complete);
        assert_eq!(c.rows, (0..38).collect::<Vec<_>>());
        assert!(c.groups.is_empty() && c.left_out.is_empty());
    }

    #[test]
    fn a_large_bundle_is_counted_by_kind_and_outcome_with_capped_lists() {
        let r = tree(30_000);
        let c = build(&r);
        assert!(!c.complete);
        let g: Vec<(Option<&str>, Option<&str>, &str, usize)> = c
            .groups
            .iter()
            .map(|g| (g.kind, g.folder.as_deref(), g.outcome, g.count))
            .collect();
        assert_eq!(
            g,
            vec![
                (Some("net-dev"), None, "parsed", 5),
                (None, Some("etc"), "unrecognised", 10_000),
                (None, Some("proc/*"), "unrecognised", 10_000),
                (None, Some("sos_commands/process"), "unrecognised", 10_000),
                (Some("ethtool-i"), None, "unusable", 3),
            ]
        );
        assert_eq!(c.groups[1].bytes, 20_000);
        // Every parsed and unusable artifact is listed; unrecognised ones up to the cap, drawn
        // from every folder.
        let listed = |o: &str| {
            c.rows
                .iter()
                .filter(|i| r.artifacts[**i].outcome.label() == o)
                .count()
        };
        assert_eq!((listed("parsed"), listed("unusable")), (5, 3));
        assert_eq!(listed("unrecognised"), ROWS_OTHER);
        for dir in ["sos-h/etc/", "sos-h/proc/1", "sos-h/sos_commands/process/"] {
            let n = c
                .rows
                .iter()
                .filter(|i| r.artifacts[**i].path.starts_with(dir))
                .count();
            assert!(n >= ROWS_OTHER / 3 - 1, "{dir}: {n}");
        }
        assert_eq!(c.left_out.get("unrecognised"), Some(&(30_000 - ROWS_OTHER)));
        assert_eq!(c.left_out.len(), 1);
        assert!(c.rows.windows(2).all(|w| w[0] < w[1]), "in artifact order");
    }

    #[test]
    fn folders_read_numbers_as_stars_below_the_common_top() {
        assert_eq!(folder("sos-h/proc/1234/status", "sos-h/"), "proc/*");
        assert_eq!(
            folder("sos-h/sos_commands/process/ps_auxwww", "sos-h/"),
            "sos_commands/process"
        );
        assert_eq!(
            folder("sos-h/etc/systemd/system/a.service", "sos-h/"),
            "etc/systemd"
        );
        assert_eq!(folder("sos-h/version.txt", "sos-h/"), ".");
        assert_eq!(folder("loose.txt", ""), ".");
    }
}
