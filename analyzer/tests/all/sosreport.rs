//! Real sosreport trees through the real pipeline (`rca::artifacts::collect`): the kinds their
//! files are given, measured against a map labelled by reading the files
//! (`analyzer/tests/fixtures/sosreport/labels.tsv`), and sos's own manifest applied to them.
//!
//! The trees are selections of sos 4.0 and 4.12 reports made on Debian 12 and of sos 4.2 and
//! 4.x reports from hotsos's test suite; `analyzer/tests/fixtures/sosreport/PROVENANCE.md` says
//! what each holds and what was left out.

use crate::common::repo;
use rca::artifacts::{collect, Artifact, Collected, KindSource, Outcome};
use rca::bundle::Limits;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const TREES: [&str; 7] = [
    "debian12-sos4.0",
    "debian12-sos4.12",
    "debian12-sos4.12-timeouts",
    "hotsos-kubernetes",
    "hotsos-openstack",
    "hotsos-sunbeam",
    "hotsos-vault",
];

fn fixtures() -> PathBuf {
    repo().join("analyzer/tests/fixtures/sosreport")
}

/// `labels.tsv`: tree → path → the kind rca should give it (`None`: not read).
fn labels() -> BTreeMap<String, BTreeMap<String, Option<String>>> {
    let text = std::fs::read_to_string(fixtures().join("labels.tsv")).unwrap();
    let mut out: BTreeMap<String, BTreeMap<String, Option<String>>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 3, "labels.tsv: {line}");
        let kind = (f[2] != "-").then(|| f[2].to_string());
        if let Some(k) = &kind {
            assert!(
                parsers::kind::by_name(k).is_some(),
                "labels.tsv names an unknown kind `{k}`"
            );
        }
        let old = out
            .entry(f[0].to_string())
            .or_default()
            .insert(f[1].to_string(), kind);
        assert!(old.is_none(), "labels.tsv: {} {} twice", f[0], f[1]);
    }
    out
}

/// Every file (not link) under `dir`, as `/`-separated paths relative to it.
fn files(dir: &Path, rel: &str, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir.join(rel)).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            files(dir, &child, out);
        } else if ft.is_file() {
            out.push(child);
        }
    }
}

/// The label a path of `tree` should be held to: its own, or for a link that a reader followed,
/// its target's.
fn expected<'a>(
    tree: &Path,
    labels: &'a BTreeMap<String, Option<String>>,
    path: &str,
) -> Option<&'a Option<String>> {
    if let Some(l) = labels.get(path) {
        return Some(l);
    }
    let target = std::fs::canonicalize(tree.join(path)).ok()?;
    let rel = target
        .strip_prefix(std::fs::canonicalize(tree).ok()?)
        .ok()?;
    labels.get(rel.to_str()?)
}

#[derive(Default, Debug, Clone, Copy)]
struct Score {
    given: usize,
    right: usize,
    parseable: usize,
    found: usize,
}

impl Score {
    fn add(&mut self, o: Score) {
        self.given += o.given;
        self.right += o.right;
        self.parseable += o.parseable;
        self.found += o.found;
    }
    fn precision(&self) -> f64 {
        100.0 * self.right as f64 / self.given.max(1) as f64
    }
    fn recall(&self) -> f64 {
        100.0 * self.found as f64 / self.parseable.max(1) as f64
    }
}

/// Scores the kinds of one collected tree against its labels; wrong kinds and misses are listed.
fn score(
    tree: &Path,
    c: &Collected,
    labels: &BTreeMap<String, Option<String>>,
    wrong: &mut Vec<String>,
) -> Score {
    let mut s = Score::default();
    let by_path: BTreeMap<&str, &Artifact> =
        c.artifacts.iter().map(|a| (a.path.as_str(), a)).collect();
    for a in &c.artifacts {
        // Artifacts of files; not the "not collected" ones a manifest adds for commands sos
        // could not run, nor links (their target is scored under its own path).
        if !tree.join(&a.path).exists() || matches!(a.outcome, rca::artifacts::Outcome::Link { .. })
        {
            continue;
        }
        let want = expected(tree, labels, &a.path)
            .unwrap_or_else(|| panic!("{}: `{}` has no label", tree.display(), a.path));
        if let Some(k) = a.kind_name() {
            s.given += 1;
            if want.as_deref() == Some(k) {
                s.right += 1;
            } else {
                wrong.push(format!("{} given `{k}`, labelled {want:?}", a.path));
            }
        }
    }
    for (path, want) in labels {
        let Some(k) = want else { continue };
        if parsers::kind::by_name(k).and_then(|k| k.parse).is_none() {
            continue;
        }
        s.parseable += 1;
        match by_path.get(path.as_str()).and_then(|a| a.kind_name()) {
            Some(got) if got == k => s.found += 1,
            got => wrong.push(format!("{path} labelled `{k}`, given {got:?}")),
        }
    }
    s
}

#[test]
fn sosreport_trees_are_read_with_the_kinds_their_files_hold() {
    let labels = labels();
    let mut total = Score::default();
    let mut wrong = Vec::new();
    for tree in TREES {
        let dir = fixtures().join(tree);
        let own = &labels[tree];
        let mut on_disk = Vec::new();
        files(&dir, "", &mut on_disk);
        for f in &on_disk {
            assert!(own.contains_key(f), "{tree}: `{f}` is not labelled");
        }
        assert_eq!(on_disk.len(), own.len(), "{tree}: a label names no file");
        let c = collect(&dir, &Limits::default()).unwrap();
        assert_eq!(c.layout.layout.name(), "sosreport", "{tree}");
        let mut w = Vec::new();
        let s = score(&dir, &c, own, &mut w);
        println!(
            "{tree:28} precision {:>3}/{:<3} = {:6.2} %   recall {:>3}/{:<3} = {:6.2} %",
            s.right,
            s.given,
            s.precision(),
            s.found,
            s.parseable,
            s.recall()
        );
        wrong.extend(w.into_iter().map(|x| format!("{tree}: {x}")));
        total.add(s);
    }
    println!(
        "{:28} precision {:>3}/{:<3} = {:6.2} %   recall {:>3}/{:<3} = {:6.2} %",
        "all trees",
        total.right,
        total.given,
        total.precision(),
        total.found,
        total.parseable,
        total.recall()
    );
    for w in &wrong {
        println!("  {w}");
    }
    assert!(total.given > 400 && total.parseable > 350, "{total:?}");
    assert!(
        total.precision() >= 99.0,
        "precision {:.2} %",
        total.precision()
    );
    assert!(total.recall() >= 95.0, "recall {:.2} %", total.recall());
}

/// The 4.0 report's manifest: commands not found and failed reach their artifacts, the run is
/// dated by `date` beside `date --utc` (the manifest's own times have no zone).
#[test]
fn sos_4_0_manifest_dates_the_run_and_marks_failed_commands() {
    let c = collect(&fixtures().join("debian12-sos4.0"), &Limits::default()).unwrap();
    assert_eq!(
        c.manifest_path.as_deref(),
        Some("sos_reports/manifest.json")
    );
    let m = c.manifest.as_ref().unwrap();
    // 2026-12-02 04:57:33.906813 and 04:57:44.199416, local time; `date` and `date --utc`
    // both print 04:57:35 UTC: the offset is 0.
    assert_eq!(m.meta.started, Some(1_796_187_453.906_813));
    assert_eq!(m.meta.ended, Some(1_796_187_464.199_416));
    assert_eq!(m.meta.raw["sos_version"], "4.0");
    let a = |p: &str| c.artifacts.iter().find(|a| a.path == p).unwrap();
    // `lsmod` was not installed: no file, a "not collected" artifact of its kind.
    let lsmod = a("sos_commands/kernel/lsmod");
    assert_eq!(lsmod.kind_name(), Some("lsmod"));
    assert_eq!(
        lsmod.outcome,
        Outcome::NotCollected {
            exit: Some(127),
            timed_out: false,
            note: "not found (sos exit status 127)".into()
        }
    );
    // `timedatectl` ran and failed (no systemd): its complaint is the note.
    match &a("sos_commands/systemd/timedatectl").outcome {
        Outcome::NotCollected { exit, note, .. } => {
            assert_eq!(*exit, Some(1));
            assert!(
                note.starts_with("System has not been booted with systemd"),
                "{note}"
            );
        }
        o => panic!("timedatectl: {o:?}"),
    }
    // `ethtool -c lo` printed its refusal with status 1.
    assert!(matches!(
        a("sos_commands/networking/ethtool_-c_lo").outcome,
        Outcome::NotCollected { exit: Some(1), .. }
    ));
    let uname = a("sos_commands/kernel/uname_-a");
    assert_eq!(uname.outcome, Outcome::Parsed);
    assert_eq!(uname.kind_source, Some(KindSource::Path));
    let rec = uname.record.as_ref().unwrap();
    assert_eq!((rec.exit, rec.argv_text().as_str()), (Some(0), "uname -a"));
    assert_eq!(rec.start, None, "sos 4.0 records no command times");
    let own = a("sos_reports/manifest.json");
    assert_eq!(own.kind_name(), Some("manifest"));
    assert_eq!(own.outcome, Outcome::Parsed);
}

/// The 4.12 reports: command records carry their epoch times; a plugin sos stopped at its time
/// budget is noted on its outputs.
#[test]
fn sos_4_12_manifest_records_times_and_plugin_timeouts() {
    let c = collect(&fixtures().join("debian12-sos4.12"), &Limits::default()).unwrap();
    let m = c.manifest.as_ref().unwrap();
    assert_eq!(m.meta.started, Some(1_796_187_470.048_762));
    assert_eq!(m.meta.ended, Some(1_796_187_479.272_478));
    let netstat = c
        .artifacts
        .iter()
        .find(|a| a.path == "sos_commands/networking/netstat_-s")
        .unwrap();
    let rec = netstat.record.as_ref().unwrap();
    assert!(rec
        .start
        .is_some_and(|s| (m.meta.started.unwrap()..m.meta.ended.unwrap()).contains(&s)));
    assert!(!netstat
        .issues
        .iter()
        .any(|i| i.message.contains("time budget")));

    let c = collect(
        &fixtures().join("debian12-sos4.12-timeouts"),
        &Limits::default(),
    )
    .unwrap();
    let m = c.manifest.as_ref().unwrap();
    assert_eq!(m.meta.raw["sos_plugins_timed_out"], "networking");
    for a in c.artifacts.iter().filter(|a| a.kind.is_some()) {
        let noted = a
            .issues
            .iter()
            .any(|i| i.message.contains("`networking` plugin at its time budget"));
        assert_eq!(
            noted,
            a.path.starts_with("sos_commands/networking/"),
            "{}",
            a.path
        );
    }
    let nstat = c
        .artifacts
        .iter()
        .find(|a| a.path == "sos_commands/networking/nstat_-zas")
        .unwrap();
    assert_eq!(nstat.outcome, Outcome::Partial);
}

/// The same report packed as sos packs it, under its own top folder, reads as the tree: the
/// layout's root is found and every path keeps its place.
#[test]
fn a_sosreport_tarball_reads_as_its_tree() {
    let dir = fixtures().join("debian12-sos4.12");
    let tmp = tempfile::tempdir().unwrap();
    let top = "sosreport-vm-2026-12-02-kyvukga";
    let tgz = tmp.path().join(format!("{top}.tar.gz"));
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&tgz).unwrap(),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    tar.follow_symlinks(false);
    tar.append_dir_all(top, &dir).unwrap();
    tar.into_inner().unwrap().finish().unwrap();

    let from_dir = collect(&dir, &Limits::default()).unwrap();
    let from_tgz = collect(&tgz, &Limits::default()).unwrap();
    assert_eq!(from_tgz.layout.root, top);
    let view = |c: &Collected, prefix: &str| -> Vec<(String, Option<&'static str>, &'static str)> {
        c.artifacts
            .iter()
            .map(|a| {
                (
                    a.path.strip_prefix(prefix).unwrap_or(&a.path).to_string(),
                    a.kind_name(),
                    a.outcome.label(),
                )
            })
            .collect()
    };
    assert_eq!(view(&from_tgz, &format!("{top}/")), view(&from_dir, ""));
    let m = from_tgz.manifest.as_ref().unwrap();
    assert_eq!(
        m.meta.started,
        from_dir.manifest.as_ref().unwrap().meta.started
    );
    assert_eq!(
        from_tgz.manifest_path.as_deref(),
        Some(format!("{top}/sos_reports/manifest.json").as_str())
    );
}

fn result_of<'a>(e: &'a rca::rules::Evaluation, id: &str) -> &'a rca::rules::RuleResult {
    &e.results.iter().find(|(r, _)| *r == id).unwrap().1
}

/// A plugin sos stopped at its time budget is a gap, not silence: the rules that read its
/// outputs are not evaluated, for that reason, instead of finding nothing.
#[test]
fn a_timed_out_plugin_leaves_its_rules_not_evaluated() {
    use rca::rules::RuleResult;
    let c = collect(
        &fixtures().join("debian12-sos4.12-timeouts"),
        &Limits::default(),
    )
    .unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    assert_eq!(f.gaps.len(), 1, "{:?}", f.gaps);
    assert!(f.gaps[0].kinds.contains(&"ethtool-S"));
    let e = rca::rules::evaluate(&f);
    for id in ["nic.queues", "nic.rx-ring", "net.rx-drops"] {
        match result_of(&e, id) {
            RuleResult::NotEvaluated { reason } => assert!(
                reason.starts_with("sos plugin `networking` timed out"),
                "{id}: {reason}"
            ),
            other => panic!("{id}: {other:?}"),
        }
    }
    // A rule whose inputs come from other plugins is judged as before.
    assert!(!matches!(
        result_of(&e, "fs.full"),
        RuleResult::NotEvaluated { reason } if reason.contains("timed out")
    ));
}

/// sos's own log names the timed-out plugins and commands even without a manifest (sos 3.x):
/// the real log of a run with `--plugin-timeout 6 --cmd-timeout 2` (the parser's fixture).
#[test]
fn the_sos_log_names_the_gaps_without_a_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("sos_logs")).unwrap();
    std::fs::create_dir_all(root.join("sos_commands/kernel")).unwrap();
    std::fs::copy(
        repo().join("parsers/tests/fixtures/sos-log/sos4.12-debian12-timeouts-sos.log"),
        root.join("sos_logs/sos.log"),
    )
    .unwrap();
    std::fs::copy(
        fixtures().join("debian12-sos4.12-timeouts/sos_commands/kernel/uname_-a"),
        root.join("sos_commands/kernel/uname_-a"),
    )
    .unwrap();
    let c = collect(root, &Limits::default()).unwrap();
    let log = c
        .artifacts
        .iter()
        .find(|a| a.path == "sos_logs/sos.log")
        .unwrap();
    assert_eq!(log.kind.map(|k| k.name), Some("sos-log"));
    let f = rca::facts::HostFacts::from_collected(&c);
    let what: Vec<&str> = f.gaps.iter().map(|g| g.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "sos plugin `networking` timed out",
            "sos plugin `process` timed out"
        ],
        "{what:?}"
    );
    assert_eq!(f.gaps[1].evidence.as_ref().unwrap().lines, [585]);
    let e = rca::rules::evaluate(&f);
    match result_of(&e, "nic.queues") {
        rca::rules::RuleResult::NotEvaluated { reason } => {
            assert!(reason.contains("`networking` timed out"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}
