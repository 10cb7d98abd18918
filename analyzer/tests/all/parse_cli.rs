//! `rca parse FILE [--kind K]`: one file's record as one JSON document, its kind found as for a
//! loose file of a bundle or named; the errors (unknown kind, unrecognised content, a bundle
//! given instead of a file) exit 2 with a line saying what to do. `rca parse -` reads standard
//! input the same way (compressed or not, by content, capped by --max-entry-size).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn jc(fixture: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jc")
        .join(fixture)
}

/// Runs `rca parse args…`: exit code, stdout, stderr.
fn parse(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("parse")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn a_file_prints_its_kind_source_record_and_issues() {
    let (code, out, err) = parse(&[jc("centos-7.7/free.out").as_os_str()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "one line unless --pretty: {out}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["kind"], "free");
    assert_eq!(doc["source"], parsers::kind::FREE.source);
    assert_eq!(doc["records"]["mem"]["total_kib"], 3861332.0);
    assert_eq!(doc["records"]["swap"]["free_kib"], 2097148.0);
    assert_eq!(doc["issues"], serde_json::json!([]));
}

#[test]
fn a_named_kind_is_used_and_an_unknown_one_lists_the_valid_names() {
    let up = jc("linux-proc/uptime");
    // By its name the file is `uptime`'s output, which it is not: exit 2, saying why.
    let (code, out, err) = parse(&[up.as_os_str()]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("could not be parsed as `uptime`"), "{err}");
    let (code, out, err) = parse(&[up.as_os_str(), "--kind".as_ref(), "proc-uptime".as_ref()]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (doc["kind"].as_str(), doc["records"]["seconds"].as_f64()),
        (Some("proc-uptime"), Some(46901.13))
    );
    let (code, _, err) = parse(&[up.as_os_str(), "--kind".as_ref(), "uptimes".as_ref()]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("rca: unknown kind `uptimes`; the kinds rca parses: iostat, ")
            && err.contains(", proc-uptime, "),
        "{err}"
    );
}

#[test]
fn unrecognised_content_and_bundles_exit_2_with_the_remedy() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "nothing rca knows\nat all\n").unwrap();
    let (code, out, err) = parse(&[junk.as_os_str()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("no parser recognised the content; name its kind with --kind"),
        "{err}"
    );
    let (code, _, err) = parse(&[dir.path().as_os_str()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is a folder") && err.contains("rca analyze"),
        "{err}"
    );
}

#[test]
fn a_compressed_file_is_read_and_hostile_text_stays_inert_json() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("release.gz");
    // A distribution name holding an escape sequence and a right-to-left override.
    let text = "NAME=\"Rocky\u{1b}[2J\u{202e}Linux\"\nVERSION=\"9.3 (Blue Onyx)\"\nID=\"rocky\"\n\
                VERSION_ID=\"9.3\"\nPRETTY_NAME=\"Rocky Linux 9.3 (Blue Onyx)\"\n";
    let mut z = flate2::write::GzEncoder::new(
        std::fs::File::create(&p).unwrap(),
        flate2::Compression::default(),
    );
    z.write_all(text.as_bytes()).unwrap();
    z.finish().unwrap();
    let (code, out, err) = parse(&[p.as_os_str(), "--pretty".as_ref()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().count() > 3, "indented: {out}");
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{202e}'),
        "{out}"
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["kind"], "os-release");
    assert_eq!(
        doc["records"]["fields"]["NAME"],
        "Rocky\u{1b}[2J\u{202e}Linux"
    );
}

/// Runs `rca parse args…` with `input` on standard input: exit code, stdout, stderr.
fn parse_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("parse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: rca may stop reading (a cap) before the input ends.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn standard_input_is_read_by_its_content_without_a_kind() {
    let text = std::fs::read(jc("centos-7.7/lsblk-allcols.out")).unwrap();
    let (code, out, err) = parse_stdin(&["-"], &text);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["kind"], "lsblk");
    assert_eq!(doc["source"], parsers::kind::LSBLK.source);
    let devices = doc["records"]["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 6);
    assert_eq!(devices[1]["name"], "sda1");
    assert_eq!(devices[1]["mountpoints"], serde_json::json!(["/boot"]));
    assert_eq!(devices[1]["model"], Value::Null);
}

#[test]
fn compressed_standard_input_is_read_decompressed() {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&std::fs::read(jc("centos-7.7/free.out")).unwrap())
        .unwrap();
    let gz = z.finish().unwrap();
    let (code, out, err) = parse_stdin(&["-"], &gz);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["kind"], "free");
    assert_eq!(doc["records"]["mem"]["total_kib"], 3861332.0);
}

#[test]
fn standard_input_of_no_telling_content_asks_for_kind_and_over_the_cap_is_refused() {
    // `/proc/uptime` is known by its place only: from standard input it needs --kind.
    let up = std::fs::read(jc("linux-proc/uptime")).unwrap();
    let (code, out, err) = parse_stdin(&["-"], &up);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.starts_with("rca: <stdin>: ")
            && err.contains("standard input has no file name")
            && err.contains("name its kind with --kind"),
        "{err}"
    );
    let (code, out, err) = parse_stdin(&["-", "--kind", "proc-uptime"], &up);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["records"]["seconds"].as_f64(), Some(46901.13));
    // Longer than --max-entry-size: refused, exit 2, saying which option raises it.
    let free = std::fs::read(jc("centos-7.7/free.out")).unwrap();
    assert!(free.len() > 100);
    let (code, out, err) = parse_stdin(&["-", "--max-entry-size", "100"], &free);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("<stdin>: longer than the 100-byte limit") && err.contains("--max-entry-size"),
        "{err}"
    );
    // At the cap exactly it is read.
    let cap = free.len().to_string();
    let (code, _, err) = parse_stdin(&["-", "--max-entry-size", &cap], &free);
    assert_eq!(code, 0, "{err}");
}
