//! A number near `f64::MAX` in a real sysstat output (one cell of a parser fixture edited):
//! `rca analyze -o` and `rca diff -o` finish, and the value is reported as dropped on its line.
//! Before values were held to their ceiling and chart axes kept finite, a chart's axis padded to
//! infinity and the page never finished.

use crate::common::fixture;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Far beyond the page's render time on a loaded machine: only a hang reaches it.
const DEADLINE: Duration = Duration::from_secs(120);

/// `rca ARGS`, killed and failed when it has not finished within [`DEADLINE`].
fn rca_bounded(args: &[&std::ffi::OsStr]) -> ExitStatus {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("rca {args:?} did not finish within {DEADLINE:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `text` with the `nth` (0-based) row holding the word `row` under a header holding `header`
/// given `value` in column `col`, the rest of the line unchanged; and that row's 1-based line.
fn set_cell(
    text: &str,
    header: &str,
    row: &str,
    nth: usize,
    col: &str,
    value: &str,
) -> (String, usize) {
    let mut index = None;
    let mut seen = 0;
    let mut out = String::new();
    let mut edited = None;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.contains(&header) {
            index = words.iter().position(|w| *w == col);
        } else if let (Some(k), None, true) = (index, edited, words.contains(&row)) {
            if seen == nth {
                let word = words[k];
                let start = word.as_ptr() as usize - line.as_ptr() as usize;
                let (before, after) = line.split_at(start);
                out.push_str(before);
                out.push_str(value);
                out.push_str(after.get(word.len()..).unwrap_or(""));
                edited = Some(i + 1);
                continue;
            }
            seen += 1;
        }
        out.push_str(line);
    }
    (out, edited.expect("the row to edit"))
}

/// Writes `files` into a new folder under `root`.
fn bundle(root: &Path, name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = root.join(name);
    std::fs::create_dir(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// The artifact whose path ends with `suffix` in an analysis document.
fn artifact<'a>(doc: &'a serde_json::Value, suffix: &str) -> &'a serde_json::Value {
    doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"].as_str().unwrap().ends_with(suffix))
        .unwrap_or_else(|| panic!("no artifact {suffix}"))
}

/// Analyzes `dir` to a page and a document within the deadline; asserts the page was written
/// and `file` is partial with one issue at `line` saying `col`'s value was dropped, also listed
/// on the page.
fn analyze_reports_the_drop(dir: &Path, file: &str, line: usize, col: &str) {
    let out = tempfile::tempdir().unwrap();
    let (html, json) = (out.path().join("r.html"), out.path().join("r.json"));
    rca_bounded(&[
        "analyze".as_ref(),
        dir.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let page = std::fs::read_to_string(&html).expect("the page is written");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let a = artifact(&doc, file);
    assert_eq!(a["outcome"]["status"], "partial", "{a}");
    let issues = a["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0]["line"], line);
    let message = issues[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("`{col}`")) && message.contains("dropped"),
        "{message}"
    );
    assert!(
        page.contains("dropped: beyond ±1.8e19"),
        "the page lists the dropped value"
    );
}

#[test]
fn iostat_aqu_sz_near_f64_max_renders_and_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let clean = fixture("captured/iostat-x-t-C.txt");
    let (hostile, line) = set_cell(&clean, "aqu-sz", "vda", 1, "aqu-sz", "1.7e308");
    let mpstat = fixture("captured/mpstat-P-ALL.txt");
    let suspect = bundle(
        d.path(),
        "suspect",
        &[("iostat_x.txt", &hostile), ("mpstat.txt", &mpstat)],
    );
    analyze_reports_the_drop(&suspect, "iostat_x.txt", line, "aqu-sz");

    // The comparison page draws both hosts' charts on one scale.
    let baseline = bundle(
        d.path(),
        "baseline",
        &[("iostat_x.txt", &clean), ("mpstat.txt", &mpstat)],
    );
    let json = d.path().join("diff.json");
    let html = d.path().join("diff.html");
    rca_bounded(&[
        "diff".as_ref(),
        baseline.as_os_str(),
        suspect.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    assert!(html.exists(), "the comparison page is written");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["suspect"]["outcome_counts"]["partial"], 1, "{doc}");
    assert!(doc["baseline"]["outcome_counts"].get("partial").is_none());
}

#[test]
fn sar_edev_drop_rate_near_f64_max_renders_and_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let clean = fixture("sar/sysstat-tests__sar-n-DEV-EDEV.txt");
    let (hostile, line) = set_cell(&clean, "rxerr/s", "enp6s0", 1, "rxdrop/s", "1.7e308");
    let suspect = bundle(d.path(), "suspect", &[("sar_n_edev.txt", &hostile)]);
    analyze_reports_the_drop(&suspect, "sar_n_edev.txt", line, "rxdrop/s");

    let baseline = bundle(d.path(), "baseline", &[("sar_n_edev.txt", &clean)]);
    let html = d.path().join("diff.html");
    rca_bounded(&[
        "diff".as_ref(),
        baseline.as_os_str(),
        suspect.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
    ]);
    assert!(html.exists(), "the comparison page is written");
}

/// `text` with every number a tool prints in its columns replaced: whole numbers by `int`,
/// decimals by `dec`. Numbers inside words, times, dates, paths and versions (`12:00:01`,
/// `sda1`, `5.15.0-91`) are left alone so that every format still reads as itself.
fn every_number(text: &str, int: &str, dec: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let mut out = String::with_capacity(text.len() * 2);
    let mut rest = text;
    let mut prev: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() && !prev.is_some_and(word) {
            let len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let (num, after) = rest.split_at(len);
            let next = after.chars().next();
            let dots = num.matches('.').count();
            let whole = dots == 0 && !prev.is_some_and(|p| ":/-".contains(p));
            let decimal = dots == 1 && !num.ends_with('.');
            if !next.is_some_and(|n| word(n) || (whole && ":/-".contains(n))) && (whole || decimal)
            {
                out.push_str(if whole { int } else { dec });
            } else {
                out.push_str(num);
            }
            prev = num.chars().next_back();
            rest = after;
            continue;
        }
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Copies the bundle at `src` (a folder, or a `.tar.gz`) into `dst` with [`every_number`]
/// applied to each text file but the collector's manifest.
fn copy_with_numbers(src: &Path, dst: &Path, int: &str, dec: &str) {
    let write = |rel: &Path, data: Vec<u8>| {
        let to = dst.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let keep = rel.file_name().is_some_and(|n| n == "manifest.tsv");
        let data = match String::from_utf8(data) {
            Ok(t) if !keep => every_number(&t, int, dec).into_bytes(),
            Ok(t) => t.into_bytes(),
            Err(e) => e.into_bytes(),
        };
        std::fs::write(to, data).unwrap();
    };
    if src.is_dir() {
        let mut stack = vec![src.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                let meta = std::fs::symlink_metadata(&p).unwrap();
                if meta.is_dir() {
                    stack.push(p);
                } else if meta.is_file() {
                    write(p.strip_prefix(src).unwrap(), std::fs::read(&p).unwrap());
                }
            }
        }
    } else {
        let gz = flate2::read::GzDecoder::new(std::fs::File::open(src).unwrap());
        let mut tar = tar::Archive::new(gz);
        for e in tar.entries().unwrap() {
            let mut e = e.unwrap();
            if e.header().entry_type().is_file() {
                let rel = e.path().unwrap().into_owned();
                let mut data = Vec::new();
                std::io::Read::read_to_end(&mut e, &mut data).unwrap();
                write(&rel, data);
            }
        }
    }
}

#[test]
fn the_edit_keeps_formats_readable() {
    let text = "12:00:01     all    0.50   99.50\nsda1 5.15.0-91 06/01/20 17 1.7e308\n";
    assert_eq!(
        every_number(text, "U", "D"),
        "12:00:01     all    D   D\nsda1 5.15.0-91 06/01/20 U 1.7e308\n"
    );
}

#[test]
fn every_number_at_its_ceiling_is_analyzed_and_rendered() {
    // The largest values a parser keeps (u64::MAX, and its negative for the signed fields):
    // every sum, product and conversion on the way to the page must hold them. Every sample
    // bundle and incident bundle, rewritten, is analyzed and its page and document written.
    let repo = crate::common::repo();
    let mut bundles: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["sample-bundles", "analyzer/tests/fixtures/incidents"] {
        for e in std::fs::read_dir(repo.join(dir)).unwrap() {
            let p = e.unwrap().path();
            for sub in ["", "baseline", "suspect"] {
                let p = p.join(sub);
                if !p.is_dir() {
                    continue;
                }
                let tarball = std::fs::read_dir(&p).unwrap().find_map(|e| {
                    let f = e.unwrap().path();
                    f.to_string_lossy().ends_with(".tar.gz").then_some(f)
                });
                let has_bundle = std::fs::read_dir(&p)
                    .unwrap()
                    .any(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".md"));
                match tarball {
                    Some(t) => bundles.push(t),
                    None if has_bundle && sub.is_empty() && !p.join("baseline").is_dir() => {
                        bundles.push(p)
                    }
                    None if !sub.is_empty() => bundles.push(p),
                    None => {}
                }
            }
        }
    }
    assert!(bundles.len() > 40, "{bundles:?}");
    let limits = rca::bundle::Limits::default();
    for (int, dec) in [
        ("18446744073709551615", "18446744073709551615.00"),
        ("-9223372036854775808", "-18446744073709551615.00"),
    ] {
        for src in &bundles {
            let d = tempfile::tempdir().unwrap();
            copy_with_numbers(src, d.path(), int, dec);
            let what = format!("{} with every number {int}", src.display());
            let Ok(report) = rca::report::Report::analyze(d.path(), &limits) else {
                continue;
            };
            let page = rca::report::html::render(&report).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(!page.contains("NaN"), "{what}: NaN on the page");
            serde_json::to_string(&report).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}
