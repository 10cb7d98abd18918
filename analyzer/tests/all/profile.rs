//! CPU profiles end to end: real `perf script` and `perf report` captures (perf 6.1, see
//! `parsers/tests/fixtures/PROVENANCE.md`) read into profiles, the module rule, and the flame
//! graph in the HTML report.
//!
//! The third-party module case uses the capture in which the real `ip_output` and
//! `ip_finish_output2` frames were renamed into a module `resguard_linux` (the derivation is in
//! PROVENANCE.md); the same capture without the renaming is the control.

use crate::common::fixture;
use rca::bundle::Limits;
use rca::report::Report;
use rca::rules::Severity;

const DERIVED: &str = "perf/perf6.1-script-loopback-300-resguard-derived.txt";
const CONTROL: &str = "perf/perf6.1-script-loopback-300.txt";

fn analyze(entries: &[(&str, String)]) -> (Report, String) {
    let d = tempfile::tempdir().unwrap();
    for (path, text) in entries {
        let p = d.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    let r = rca::report::Report::analyze(d.path(), &Limits::default()).unwrap();
    let html = rca::report::html::render(&r).unwrap();
    (r, html)
}

/// A real `/proc/modules` (hotsos, a host with ZFS) plus one line for the module, out of tree and
/// unsigned, as the kernel prints it.
fn proc_modules_with_resguard() -> String {
    let mut m = fixture("proc-modules/jc__jc-proc-modules.txt");
    m.push_str("resguard_linux 405504 3 - Live 0xffffffffc1a00000 (OE)\n");
    m
}

#[test]
fn a_real_perf_script_becomes_a_profile_with_a_flame_graph() {
    let (r, html) = analyze(&[("perf/perf-script.txt", fixture(CONTROL))]);
    assert_eq!(r.profiles.len(), 1);
    let p = &r.profiles[0];
    assert_eq!(p.samples, 300);
    assert_eq!(p.event.as_deref(), Some("cpu-clock:ppp"));
    assert!(p.kernel_pct > 90.0, "{}", p.kernel_pct);
    assert!(p.modules.is_empty(), "{:?}", p.modules);
    assert!(!p.top_symbols.is_empty());
    // The flame graph is inline SVG, without inferno's script (the CSP allows none).
    let i = html
        .find("<div class=\"flame\"><svg")
        .expect("flame graph in the report");
    let flame = &html[i..i + html[i..].find("</svg></div>").expect("flame graph ends")];
    assert!(flame.contains("ip_output"));
    assert!(!flame.contains("<script"), "inferno's script is left out");
    // The control profile has no module: the rule runs and finds nothing.
    let st = r
        .rules
        .iter()
        .find(|x| x.id == "profile.module-hot-path")
        .unwrap();
    assert!(
        matches!(st.result, rca::rules::RuleResult::Clear { .. }),
        "{:?}",
        st.result
    );
}

#[test]
fn a_module_on_the_stacks_is_found_and_its_frames_cited() {
    let (r, _) = analyze(&[("perf/perf-script.txt", fixture(DERIVED))]);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "profile.module-hot-path")
        .expect("module finding");
    assert!(f.title.contains("resguard_linux"), "{}", f.title);
    // 51 of 300 samples carry resguard_linux frames (PROVENANCE.md).
    assert!(f.why.contains("51 of 300"), "{}", f.why);
    // Without a module list its provenance is unknown: a warning, not critical.
    assert_eq!(f.severity, Severity::Warning);
    let ev = &f.evidence[0];
    assert!(ev
        .excerpt
        .iter()
        .any(|l| l.text.contains("secmodel_check") && l.text.contains("[resguard_linux]")));
}

#[test]
fn a_tainting_third_party_module_is_critical() {
    let (r, _) = analyze(&[
        ("perf/perf-script.txt", fixture(DERIVED)),
        ("kernel/proc-modules.txt", proc_modules_with_resguard()),
    ]);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "profile.module-hot-path")
        .expect("module finding");
    assert_eq!(f.severity, Severity::Critical, "{}", f.title);
    assert!(f.title.contains("third-party"), "{}", f.title);
    assert!(f
        .evidence
        .iter()
        .any(|e| e.artifact.ends_with("proc-modules.txt")));
    // The module also taints the kernel; the module finding explains it and ranks above it.
    let taint = r.findings.iter().position(|f| f.rule_id == "kernel.taint");
    let module = r
        .findings
        .iter()
        .position(|f| f.rule_id == "profile.module-hot-path")
        .unwrap();
    if let Some(t) = taint {
        assert!(module < t, "{:#?}", r.findings);
    }
}

#[test]
fn perf_report_alone_still_gives_top_symbols_but_no_flame_graph() {
    let (r, html) = analyze(&[(
        "perf/perf-report-comm-dso-symbol.txt",
        fixture("perf/perf6.1-report-no-children-comm-dso-symbol.txt"),
    )]);
    assert_eq!(r.profiles.len(), 1);
    let p = &r.profiles[0];
    assert_eq!(p.source_kind.label(), "perf report");
    assert!(!p.top_symbols.is_empty());
    assert!(p.top_symbols[0].pct > 0.0);
    assert!(!html.contains("<div class=\"flame\">"));
    assert!(html.contains("no stacks in this profile"));
}

#[test]
fn a_large_perf_script_is_parsed_while_read_and_its_cited_lines_kept() {
    // Above the streaming threshold (64 MiB): the text is never held; only the cited samples'
    // lines are kept for excerpts, at their real line numbers.
    let one = fixture(DERIVED);
    let copies = (65 << 20) / one.len() + 1;
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("perf")).unwrap();
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(d.path().join("perf/perf-script.txt")).unwrap(),
        );
        for _ in 0..copies {
            f.write_all(one.as_bytes()).unwrap();
            if !one.ends_with("\n\n") {
                f.write_all(b"\n").unwrap();
            }
        }
    }
    let r = rca::report::Report::analyze(d.path(), &Limits::default()).unwrap();
    let a = &r.artifacts[0];
    assert_eq!(a.outcome.label(), "parsed", "{:?}", a.outcome);
    assert!(a.bytes >= 64 << 20);
    let kept = a.kept_lines.as_ref().expect("streamed, not held");
    assert!(
        kept.len() <= parsers::perf::profile::KEPT_LINES,
        "{} lines kept",
        kept.len()
    );
    assert!(a.text.len() < 1 << 20);
    let p = &r.profiles[0];
    assert_eq!(p.samples, 300 * copies as u64);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "profile.module-hot-path")
        .expect("module finding");
    // Excerpts come from the kept lines, with the numbers of the input.
    let ev = &f.evidence[0];
    assert!(ev
        .excerpt
        .iter()
        .any(|l| l.line > 0 && l.text.contains("[resguard_linux]")));
    assert_eq!(ev.excerpt[0].line, ev.lines[0]);
}
