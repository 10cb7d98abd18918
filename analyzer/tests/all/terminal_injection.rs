//! Folder and file names from a bundle cannot drive the user's terminal: `rca analyze`, `diff`,
//! `fleet` and their error paths print them with every control, bidirectional and invisible
//! format character shown as a visible escape, and the name stays recognisable.
//!
//! The names are made here: an erase-display sequence, an OSC 8 hyperlink, a right-to-left
//! override and an isolate, a carriage return, the single-byte CSI of C1, zero-width characters,
//! a line separator; and a name that is not UTF-8, as Linux allows.

use crate::common::{healthy_sample, SOFTIRQS};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A file name (no `/`) holding every kind of character a terminal would act on.
const HOSTILE: &str = "evil\u{1b}[2J\u{1b}]8;;https:x.invalid\u{7}link\u{1b}]8;;\u{7}\
                       \u{202e}txt.exe\u{2066}\r\u{9b}31m\u{200b}\u{feff}\u{2028}end";

/// How `HOSTILE` reads on the terminal.
const SHOWN: &str = "evil\\x1b[2J\\x1b]8;;https:x.invalid\\x07link\\x1b]8;;\\x07\
                     \\u{202e}txt.exe\\u{2066}\\r\\u{9b}31m\\u{200b}\\u{feff}\\u{2028}end";

/// A name that is not UTF-8, with an escape sequence after the bad bytes.
fn not_utf8() -> OsString {
    OsStr::from_bytes(b"bad\xff\xfe\x1b[2Jname").to_owned()
}

/// How [`not_utf8`] reads: the bad bytes as U+FFFD (as in the report), the escape shown.
const NOT_UTF8_SHOWN: &str = "bad\u{fffd}\u{fffd}\\x1b[2Jname";

/// A loose bundle folder `root/name` holding one `/proc/softirqs` (a real capture's shape).
fn loose(root: &Path, name: &OsStr) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("proc")).unwrap();
    std::fs::write(dir.join("proc/softirqs"), SOFTIRQS).unwrap();
    dir
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `rca` and checks that nothing it printed can act on a terminal.
fn rca<I: AsRef<OsStr>>(args: impl IntoIterator<Item = I>) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .output()
        .unwrap();
    let stdout = inert(&o.stdout, "stdout");
    let stderr = inert(&o.stderr, "stderr");
    Run {
        code: o.status.code(),
        stdout,
        stderr,
    }
}

/// The output as text, after checking it holds no ESC byte, no C0 control but the newline, no
/// DEL or C1 control, no bidirectional control and no invisible format character.
fn inert(bytes: &[u8], which: &str) -> String {
    assert!(
        !bytes.contains(&0x1b),
        "{which} holds ESC: {}",
        String::from_utf8_lossy(bytes)
    );
    let text =
        String::from_utf8(bytes.to_vec()).unwrap_or_else(|e| panic!("{which} is not UTF-8: {e}"));
    for c in text.chars() {
        let bad = (c.is_control() && c != '\n')
            || matches!(c,
                '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}'
                | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{ad}' | '\u{61c}');
        assert!(!bad, "{which} holds U+{:04X}: {text}", c as u32);
    }
    text
}

#[test]
fn analyze_shows_a_hostile_folder_name_escaped() {
    let d = tempfile::tempdir().unwrap();
    let hostile = loose(d.path(), HOSTILE.as_ref());
    let r = rca([OsStr::new("analyze"), hostile.as_os_str()]);
    // One artifact gives no rule its evidence: the summary, then why it could not be analyzed.
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stdout.lines().next().unwrap().contains(SHOWN),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains(&format!("{SHOWN} could not be analyzed")),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);

    let bad = loose(d.path(), &not_utf8());
    let r = rca([OsStr::new("analyze"), bad.as_os_str()]);
    assert!(r.stdout.contains(NOT_UTF8_SHOWN), "{}", r.stdout);
    assert!(r.stderr.contains(NOT_UTF8_SHOWN), "{}", r.stderr);
}

#[test]
fn a_bundle_that_cannot_be_read_is_named_escaped() {
    let d = tempfile::tempdir().unwrap();
    for (name, shown) in [
        (OsString::from(HOSTILE), SHOWN),
        (not_utf8(), NOT_UTF8_SHOWN),
    ] {
        let missing = d.path().join(&name);
        let r = rca([OsStr::new("analyze"), missing.as_os_str()]);
        assert_eq!(r.code, Some(2));
        assert!(
            r.stderr.starts_with("rca: cannot read ") && r.stderr.contains(shown),
            "{}",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
}

#[test]
fn the_several_bundles_error_names_the_folders_escaped() {
    let d = tempfile::tempdir().unwrap();
    for name in [OsString::from(HOSTILE), not_utf8()] {
        let dir = d.path().join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("manifest.tsv"), "").unwrap();
    }
    let r = rca([OsStr::new("analyze"), d.path().as_os_str()]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("holds 2 bundles"), "{}", r.stderr);
    assert!(
        r.stderr.contains(SHOWN) && r.stderr.contains(NOT_UTF8_SHOWN),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn diff_shows_hostile_names_escaped() {
    let d = tempfile::tempdir().unwrap();
    let a = loose(d.path(), HOSTILE.as_ref());
    let b = loose(d.path(), &not_utf8());
    let r = rca([OsStr::new("diff"), a.as_os_str(), b.as_os_str()]);
    assert!(r.stdout.contains(SHOWN), "{}", r.stdout);
    assert!(r.stdout.contains(NOT_UTF8_SHOWN), "{}", r.stdout);

    let missing = d.path().join(format!("{HOSTILE}-missing"));
    let r = rca([OsStr::new("diff"), a.as_os_str(), missing.as_os_str()]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(&format!("{SHOWN}-missing")),
        "{}",
        r.stderr
    );
}

#[test]
fn fleet_shows_hostile_names_escaped_also_when_not_compared() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("fleet");
    loose(&root, HOSTILE.as_ref());
    loose(&root, &not_utf8());
    loose(&root, "node-c".as_ref());
    // Not a bundle: listed as skipped under its name.
    std::fs::write(root.join(format!("{HOSTILE}.txt")), "notes\n").unwrap();

    let r = rca([OsStr::new("fleet"), root.as_os_str()]);
    assert!(
        r.stdout
            .contains(&format!("skipped: {}", root.join(SHOWN).display())),
        "{}",
        r.stdout
    );
    // Hosts without a name are labelled by their folder.
    assert!(r.stdout.contains(&format!("  {SHOWN}")), "{}", r.stdout);
    assert!(r.stdout.contains(NOT_UTF8_SHOWN), "{}", r.stdout);

    let r = rca([
        OsStr::new("fleet"),
        root.as_os_str(),
        OsStr::new("--bundle-timeout"),
        OsStr::new("0s"),
    ]);
    assert_eq!(r.code, Some(2));
    for shown in [SHOWN, NOT_UTF8_SHOWN] {
        let line = format!(
            "not compared: {}: analysis exceeded 0 s",
            root.join(shown).display()
        );
        assert!(r.stdout.contains(&line), "{line}\n{}", r.stdout);
    }
    assert!(r.stderr.contains(SHOWN), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn a_usage_error_quoting_a_hostile_argument_is_escaped() {
    // `rca analyze *` in a folder of hostile names: clap's error quotes the extra argument.
    let r = rca([
        OsStr::new("analyze"),
        healthy_sample().as_os_str(),
        OsStr::new(HOSTILE),
    ]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains(SHOWN), "{}", r.stderr);
    assert!(r.stdout.is_empty());

    let r = rca(["fleet", "--help"]);
    assert_eq!(r.code, Some(0));
    assert!(
        r.stdout.contains("--bundle-timeout <DURATION>"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[default: 300s]"), "{}", r.stdout);
}

#[test]
fn no_module_writes_to_the_terminal_but_the_console() {
    // The crate denies the print macros; this holds the direct handles to one module too.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") || p.ends_with("src/console.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for needle in [
                "io::stdout",
                "io::stderr",
                "println!",
                "eprintln!",
                "print!(",
                "eprint!(",
                "dbg!(",
                "set_hook",
                "take_hook",
            ] {
                if text.contains(needle) {
                    offenders.push(format!("{}: {needle}", p.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
