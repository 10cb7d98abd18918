//! A collection that did not finish is never called healthy. Each case edits the shipped healthy
//! sample (a real collection that exits 0) the way a failed run leaves a bundle: an empty
//! manifest (the collector of 0.2.0 whose temp folder filled up), a manifest that says the run
//! is incomplete, one cut short, a listed file missing from the tarball; and the two marks that
//! are no gap: a file the manifest does not list, an output the collector could not write in
//! full. Beside them, what the manifest says of the collector's own run (its CPU time over the
//! sampling window) reaches the JSON document and the page's collection section.

use crate::common::{healthy_sample, tar_bytes};
use serde_json::Value;
use std::io::Read;

/// The healthy sample's regular files, in archive order.
fn entries() -> Vec<(String, Vec<u8>)> {
    let f = std::fs::File::open(healthy_sample()).unwrap();
    let mut a = tar::Archive::new(flate2::read::GzDecoder::new(f));
    let mut out = Vec::new();
    for e in a.entries().unwrap() {
        let mut e = e.unwrap();
        if e.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let path = e.path().unwrap().to_string_lossy().into_owned();
        let mut data = Vec::new();
        e.read_to_end(&mut data).unwrap();
        out.push((path, data));
    }
    out
}

/// The manifest's text among `entries`, for editing.
fn manifest(entries: &mut [(String, Vec<u8>)]) -> &mut Vec<u8> {
    &mut entries
        .iter_mut()
        .find(|(p, _)| p.ends_with("/manifest.tsv"))
        .expect("the sample has a manifest")
        .1
}

/// Edits the manifest's text with `f`.
fn edit_manifest(entries: &mut [(String, Vec<u8>)], f: impl FnOnce(&str) -> String) {
    let m = manifest(entries);
    *m = f(&String::from_utf8_lossy(m)).into_bytes();
}

/// What `rca analyze` says of the healthy sample after `edit`.
struct Analyzed {
    code: Option<i32>,
    doc: Value,
    stdout: String,
    stderr: String,
    page: String,
}

fn analyze_edited(edit: impl FnOnce(&mut Vec<(String, Vec<u8>)>)) -> Analyzed {
    let mut e = entries();
    edit(&mut e);
    let refs: Vec<(&str, &[u8])> = e.iter().map(|(p, d)| (p.as_str(), d.as_slice())).collect();
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle.tar");
    std::fs::write(&bundle, tar_bytes(&refs)).unwrap();
    let (json, html) = (dir.path().join("f.json"), dir.path().join("r.html"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&bundle)
        .arg("--json")
        .arg(&json)
        .arg("-o")
        .arg(&html)
        .output()
        .unwrap();
    Analyzed {
        code: o.status.code(),
        doc: serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        page: std::fs::read_to_string(&html).unwrap(),
    }
}

impl Analyzed {
    fn incomplete(&self) -> Vec<&str> {
        self.doc["collection"]["incomplete"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect()
    }

    fn artifact(&self, suffix: &str) -> &Value {
        self.doc["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["path"].as_str().unwrap().ends_with(suffix))
            .unwrap_or_else(|| panic!("no artifact {suffix}"))
    }

    /// Not called healthy anywhere: exit 2, the terminal and the page lead with the reason,
    /// neither says the bundle is clear.
    fn assert_never_healthy(&self, reason: &str) {
        assert_eq!(self.code, Some(2), "{}\n{}", self.stdout, self.stderr);
        let said = self.incomplete();
        assert!(said.iter().any(|w| w.contains(reason)), "{said:?}");
        let line = self.stdout.lines().nth(2).unwrap_or_default();
        assert!(
            line.starts_with("INCOMPLETE collection: ") && line.contains(reason),
            "{}",
            self.stdout
        );
        assert!(!self.stdout.contains("findings: none\n"), "{}", self.stdout);
        assert!(
            self.stderr
                .contains("is incomplete, so no finding is no clean bill of health"),
            "{}",
            self.stderr
        );
        assert!(self
            .page
            .contains(r#"<div class="card warning" id="incomplete">"#));
        assert!(self
            .page
            .contains(r#"<span class="badge warning">incomplete</span>"#));
        assert!(!self
            .page
            .contains("No rule found a problem in this bundle."));
    }
}

#[test]
fn the_unedited_sample_is_whole_and_healthy() {
    let a = analyze_edited(|_| {});
    assert_eq!(a.code, Some(0), "{}\n{}", a.stdout, a.stderr);
    assert!(a.incomplete().is_empty());
    assert!(a.stdout.contains("findings: none\n"));
    assert!(a.page.contains("No rule found a problem in this bundle."));
    assert!(!a.page.contains(r#"id="incomplete""#));
}

#[test]
fn an_empty_manifest_is_never_healthy() {
    // What collector 0.2.0 left when its temp folder filled: every file, an empty manifest.
    let a = analyze_edited(|e| manifest(e).clear());
    a.assert_never_healthy("the manifest is empty");
}

#[test]
fn a_run_the_collector_marks_incomplete_is_never_healthy() {
    let why = "no space left on device while writing sysstat/iostat-x.txt: 3 output(s) may be cut, 40 step(s) skipped";
    let a = analyze_edited(|e| {
        edit_manifest(e, |m| {
            m.replace(
                "meta\tcomplete\t1\n",
                &format!("meta\tcomplete\t0\nmeta\tincomplete\t{why}\n"),
            )
        })
    });
    a.assert_never_healthy(&format!("the collector says: {why}"));
    assert_eq!(a.doc["collection"]["meta"]["incomplete"], why);
}

#[test]
fn a_manifest_cut_short_is_never_healthy_and_the_files_past_the_cut_are_partial() {
    // Cut in the middle of a record line, as a write that ran out of space leaves it.
    let a = analyze_edited(|e| {
        edit_manifest(e, |m| {
            let at = m.find("artifact\tmem/meminfo\t").unwrap() + 20;
            m[..at].to_string()
        })
    });
    a.assert_never_healthy("the manifest's last record is not `collector.log`'s");
    let log = a.artifact("/collector.log");
    assert_eq!(log["outcome"]["status"], "partial", "{log}");
    assert!(log["issues"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("not listed in the collector's manifest"));
}

#[test]
fn a_listed_file_missing_from_the_bundle_is_never_healthy() {
    let a = analyze_edited(|e| e.retain(|(p, _)| !p.ends_with("/mem/meminfo")));
    a.assert_never_healthy(
        "1 file(s) the manifest lists are missing from the bundle; first: mem/meminfo",
    );
    assert_eq!(
        a.artifact("/mem/meminfo")["outcome"]["status"],
        "not-collected"
    );
}

#[test]
fn a_file_the_manifest_does_not_list_is_partial_but_no_gap() {
    let a = analyze_edited(|e| {
        let top = e[0].0.split('/').next().unwrap().to_string();
        e.push((
            format!("{top}/proc/loadavg.extra"),
            b"0.00 0.01 0.05 1/100 42\n".to_vec(),
        ));
    });
    assert_eq!(a.code, Some(0), "{}\n{}", a.stdout, a.stderr);
    assert!(a.incomplete().is_empty());
    let x = a.artifact("/proc/loadavg.extra");
    assert_eq!(x["outcome"]["status"], "partial", "{x}");
    assert!(x["issues"][0]["message"]
        .as_str()
        .unwrap()
        .contains("added to the bundle after the collection, or the manifest is incomplete"));
}

#[test]
fn an_output_the_collector_could_not_write_in_full_is_partial() {
    let why = "cat: write error: No space left on device; a later note";
    let a = analyze_edited(|e| {
        edit_manifest(e, |m| {
            m.replace(
                "\t12116\t0\t\tmpstat -P ALL 1 30",
                &format!("\t12116\t0\twrite failed: {why}\tmpstat -P ALL 1 30"),
            )
        })
    });
    let x = a.artifact("/sysstat/mpstat-P-ALL.txt");
    assert_eq!(x["outcome"]["status"], "partial", "{x}");
    assert_eq!(
        x["issues"][0]["message"],
        format!("the collector could not write this output in full ({why}); it may end early")
    );
}

#[test]
fn the_collectors_own_cpu_time_reaches_the_json_and_the_collection_section() {
    let a = analyze_edited(|e| {
        edit_manifest(e, |m| {
            m.replace(
                "meta\tcomplete\t1\n",
                "meta\tcomplete\t1\nmeta\tcpu_window\t61.37\nmeta\tcollector_cpu_seconds\t0.52\nmeta\tcollector_cpu_percent\t0.84\nmeta\tsamplers_cpu_seconds\t1.90\nmeta\tperf_record_cpu_seconds\t\n",
            )
        })
    });
    assert_eq!(a.code, Some(0), "{}\n{}", a.stdout, a.stderr);
    let cpu = &a.doc["collection"]["collector_cpu"];
    assert_eq!(cpu["window_s"], 61.37);
    assert_eq!(cpu["collector_s"], 0.52);
    assert_eq!(cpu["collector_pct"], 0.84);
    assert_eq!(cpu["samplers_s"], 1.9);
    assert!(cpu["perf_record_s"].is_null());
    assert!(
        a.page
            .contains("sampling window: <strong>0.52 s, 0.84 % of one CPU</strong>"),
        "collection section without the collector's CPU time"
    );
    // The unedited sample (collector 0.2.0) has none, and the page says nothing of it.
    let b = analyze_edited(|_| {});
    assert!(b.doc["collection"]["collector_cpu"].is_null());
    assert!(!b.page.contains("The collector's own CPU time"));
}
