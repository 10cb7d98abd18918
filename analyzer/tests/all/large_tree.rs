//! A very large tree (a sosreport of tens of thousands of files) gives a light page: the
//! coverage section counts the artifacts by kind and outcome and lists a bounded number of them,
//! the artifact viewer keeps to its budget, while the JSON document still lists every artifact.
//! (How fast the page opens in a browser is measured by `bench/report-scale.sh`, not here.)

use crate::common::fixture;
use rca::bundle::Limits;
use rca::report::{coverage, html, viewer, Report};
use std::collections::BTreeSet;

/// Files in the generated tree.
const FILES: usize = 20_000;
/// The page's bound, bytes: the product's target for a tree five times larger.
const PAGE_BYTES: usize = 5_000_000;

#[test]
fn a_tree_of_20000_files_gives_a_light_page_and_a_complete_json_document() {
    let d = tempfile::tempdir().unwrap();
    let top = d.path().join("sosreport-big-2024-06-15-abcdefg");
    let mut written: BTreeSet<String> = BTreeSet::new();
    let write = |written: &mut BTreeSet<String>, rel: String, text: &str| {
        let p = top.join(&rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        written.insert(format!("sosreport-big-2024-06-15-abcdefg/{rel}"));
    };
    // Real outputs where sosreport puts them, then small filler files (no tool's format) in
    // per-process, command and configuration folders.
    write(
        &mut written,
        "proc/meminfo".into(),
        &fixture("proc-meminfo/insights-core__proc-meminfo-rhel7.txt"),
    );
    write(
        &mut written,
        "sos_commands/kernel/uname_-a".into(),
        &fixture("captured/uname-a.txt"),
    );
    write(
        &mut written,
        "sos_commands/sysstat/iostat_-x".into(),
        &fixture("iostat/jc__iostat-x-sysstat12-ubuntu2010.txt"),
    );
    let mut i = 0;
    while written.len() < FILES {
        let rel = match i % 4 {
            0 => format!("proc/{}/wchan", 100 + i),
            1 => format!("sos_commands/process/lsof_{i:05}"),
            2 => format!("etc/sysconfig/item-{i:05}"),
            _ => format!("sys/devices/node{}/value{i:05}", i % 7),
        };
        write(
            &mut written,
            rel.clone(),
            &format!("test filler for {rel}\nsecond line <&>\n"),
        );
        i += 1;
    }
    let r = Report::analyze(d.path(), &Limits::default()).unwrap();
    let page = html::render(&r).unwrap();

    // The JSON document lists every file.
    let doc = serde_json::to_value(&r).unwrap();
    let listed: BTreeSet<String> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, written);
    assert_eq!(doc["outcome_counts"]["parsed"], 3);

    // The page is light, and says where the full list is.
    assert!(page.len() < PAGE_BYTES, "{} bytes", page.len());
    assert!(page.contains("id=\"coverage-summary\""));
    assert!(page.contains("<code>rca analyze --json FILE</code>"));
    let rows = page.matches("<tr data-search=").count();
    assert!(
        rows <= coverage::ROWS_RECOGNISED + coverage::ROWS_OTHER,
        "{rows} rows"
    );
    assert!(page.contains(&format!(
        "Not listed here: {} unrecognised.",
        FILES - 3 - coverage::ROWS_OTHER
    )));
    // (The page escapes `/` as `&#x2f;`.)
    let esc = |s: &str| s.replace('/', "&#x2f;");
    for parsed in [
        "proc/meminfo",
        "sos_commands/kernel/uname_-a",
        "sos_commands/sysstat/iostat_-x",
    ] {
        let link = format!("-abcdefg{}</a></code>", esc(&format!("/{parsed}")));
        assert!(
            page.contains(&link),
            "{parsed} is listed with a link to its text"
        );
    }
    // The folders are counted, the per-process ones together.
    for folder in [
        "proc/*",
        "sos_commands/process",
        "etc/sysconfig",
        "sys/devices",
    ] {
        let cell = format!("<code>{}/</code>", esc(folder));
        assert!(page.contains(&cell), "{folder}");
    }
    // The artifact viewer keeps to its budget and its count.
    let views = page.matches("<details class=\"artifact\"").count();
    assert_eq!(views, viewer::MAX_VIEWS);
    let a = page.find("<section id=\"artifacts\">").unwrap();
    let b = page.find("<section id=\"collection\">").unwrap();
    assert!(
        b - a < viewer::TOTAL_BYTES,
        "{} bytes of artifact text",
        b - a
    );
}
