//! The same evidence as a directory of loose files with arbitrary names (no manifest), a `.zip`,
//! a plain `.tar` and a `.tar.gz`: every form gives the same kinds and the same findings.
//!
//! Inputs are real outputs from `parsers/tests/fixtures` (see its PROVENANCE.md). One is derived:
//! a captured sysstat 12.6 `iostat -x -t` whose `vda` rows are rewritten to a saturated device
//! (aqu-sz 12.50, r_await/w_await 85.00, %util 99.80), so the disk rule has something to find.

use rca::artifacts::KindSource;
use rca::artifacts::Outcome;
use rca::bundle::Limits;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../parsers/tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The captured iostat with every `vda` row rewritten to a saturated device, columns kept, and
/// its interval reports repeated three times (timestamps renumbered one second apart) so the
/// window holds 7 intervals after the since-boot report.
fn saturated_iostat() -> Vec<u8> {
    let text = String::from_utf8(fixture("captured/iostat-x-t-iso.txt")).unwrap();
    let first_report = text.find("\n20").expect("a -t timestamp line") + 1;
    let (banner, reports) = text.split_at(first_report);
    let second = reports[1..].find("\n20").expect("a second report") + 2;
    let (boot, intervals) = reports.split_at(second);
    let mut text = format!("{banner}{boot}{}", intervals.repeat(3));
    let mut k = 0;
    text = text
        .lines()
        .map(|l| {
            if l.len() > 19 && l.as_bytes()[10] == b'T' && l.starts_with("20") {
                k += 1;
                format!("{}{:02}:{:02}{}", &l[..14], k / 60, k % 60, &l[19..])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut header: Vec<&str> = Vec::new();
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("Device") {
            header = line.split_whitespace().collect();
        }
        if line.starts_with("vda ") {
            let mut fields: Vec<String> = line.split_whitespace().map(String::from).collect();
            for (i, name) in header.iter().enumerate() {
                let v = match *name {
                    "r_await" | "w_await" => "85.00",
                    "aqu-sz" => "12.50",
                    "%util" => "99.80",
                    "r/s" | "w/s" => "120.00",
                    _ => continue,
                };
                fields[i] = v.to_string();
            }
            out.push_str(&format!(
                "{:<10}{}\n",
                fields[0],
                fields[1..]
                    .iter()
                    .map(|f| format!("{f:>9}"))
                    .collect::<String>()
            ));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// Loose files with names that say nothing about their kind.
fn loose_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("iostat_node3.log", saturated_iostat()),
        ("cpu-dump.out", fixture("captured/mpstat-P-ALL.txt")),
        ("node3/irq-before", fixture("captured/softirqs-1.txt")),
        (
            "node3/modules-snapshot",
            fixture("proc-modules/hotsos__proc-modules-taint-PO-zfs.txt"),
        ),
        ("kernel-id", fixture("captured/uname-a.txt")),
        (
            "notes.md",
            b"# what we saw\nslow writes after 09:00\n".to_vec(),
        ),
    ]
}

fn make_dir(root: &Path) -> PathBuf {
    let d = root.join("loose");
    for (name, data) in loose_files() {
        let p = d.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    d
}

fn make_tar(root: &Path) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in loose_files() {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, format!("case-42/{name}"), data.as_slice())
            .unwrap();
    }
    let _ = root;
    b.into_inner().unwrap()
}

fn make_zip(path: &Path) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in loose_files() {
        z.start_file(format!("case-42/{name}"), opts).unwrap();
        z.write_all(&data).unwrap();
    }
    z.finish().unwrap();
}

fn check(path: &Path, expect_format: &str) {
    let r = rca::report::Report::analyze(path, &Limits::default()).unwrap();
    assert_eq!(r.bundle.format.map(|f| f.label()), Some(expect_format));
    let kind_of = |suffix: &str| {
        let a = r
            .artifacts
            .iter()
            .find(|a| a.path.ends_with(suffix))
            .unwrap_or_else(|| panic!("{suffix} missing"));
        (a.kind_name(), a.kind_source, a.outcome.clone())
    };
    assert_eq!(
        kind_of("iostat_node3.log"),
        (Some("iostat"), Some(KindSource::Content), Outcome::Parsed)
    );
    assert_eq!(
        kind_of("cpu-dump.out"),
        (Some("mpstat"), Some(KindSource::Content), Outcome::Parsed)
    );
    assert_eq!(
        kind_of("irq-before"),
        (Some("softirqs"), Some(KindSource::Content), Outcome::Parsed)
    );
    assert_eq!(
        kind_of("modules-snapshot"),
        (
            Some("proc-modules"),
            Some(KindSource::Content),
            Outcome::Parsed
        )
    );
    assert_eq!(
        kind_of("kernel-id"),
        (Some("uname"), Some(KindSource::Content), Outcome::Parsed)
    );
    assert!(matches!(
        kind_of("notes.md").2,
        Outcome::Unrecognised { .. }
    ));
    assert_eq!(r.host.kernel_release.as_deref(), Some("6.18.44-fc-v657"));

    let top = r.findings.first().expect("the saturated disk is found");
    assert_eq!(top.rule_id, "disk.saturation");
    assert!(top.title.contains("vda"), "{}", top.title);
    let ev = &top.evidence[0];
    assert!(ev.artifact.ends_with("iostat_node3.log"));
    // The excerpt cites the Device header and vda rows, verbatim, by input line number.
    let text = String::from_utf8(saturated_iostat()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(ev
        .excerpt
        .iter()
        .any(|l| l.line > 0 && l.text.starts_with("Device")));
    for l in ev.excerpt.iter().filter(|l| l.line > 0) {
        assert_eq!(
            l.text,
            lines[l.line - 1],
            "line {} is cited verbatim",
            l.line
        );
    }
    assert!(
        ev.excerpt
            .iter()
            .filter(|l| l.text.starts_with("vda"))
            .count()
            >= 2
    );
}

#[test]
fn directory_of_loose_files() {
    let t = tempfile::tempdir().unwrap();
    check(&make_dir(t.path()), "directory");
}

#[test]
fn plain_tar() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("case.tar");
    std::fs::write(&p, make_tar(t.path())).unwrap();
    check(&p, "tar");
}

#[test]
fn tar_gz_named_without_extension() {
    let t = tempfile::tempdir().unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&make_tar(t.path())).unwrap();
    let p = t.path().join("upload-7781");
    std::fs::write(&p, e.finish().unwrap()).unwrap();
    check(&p, "tar-gz");
}

#[test]
fn zip_archive() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("case.zip");
    make_zip(&p);
    check(&p, "zip");
}

#[test]
fn findings_set_the_exit_status_and_json() {
    let t = tempfile::tempdir().unwrap();
    let dir = make_dir(t.path());
    let json = t.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&dir)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "findings at warning or above give exit 1"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("[disk.saturation]") && stdout.contains("--> loose/iostat_node3.log:")
            || stdout.contains("--> iostat_node3.log:"),
        "{stdout}"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["findings"][0]["rule_id"], "disk.saturation");
    assert_eq!(doc["findings"][0]["severity"], "critical");
    assert!(
        doc["findings"][0]["evidence"][0]["excerpt"]
            .as_array()
            .unwrap()
            .len()
            >= 3
    );
}

#[test]
fn a_folder_holding_two_bundles_is_refused_rather_than_mixed() {
    let d = tempfile::tempdir().unwrap();
    for host in ["a", "b"] {
        let top = d.path().join(host);
        std::fs::create_dir_all(top.join("proc")).unwrap();
        std::fs::write(
            top.join("manifest.tsv"),
            "# rca-manifest 1\nmeta\tstarted\t1796000000\nmeta\tended\t1796000001\n",
        )
        .unwrap();
        std::fs::write(top.join("proc/loadavg"), "0.00 0.01 0.05 1/100 42\n").unwrap();
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(d.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("holds 2 bundles (a, b)"), "{err}");
}
