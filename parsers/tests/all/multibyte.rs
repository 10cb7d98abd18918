//! Multi-byte characters where the formats print ASCII: a parser that slices a line at a byte
//! index (`&line[..2]`) panics when a character straddles it. Every real fixture, with a 2-, 3-
//! or 4-byte character inserted at each position of the first columns of its lines, goes through
//! every parser that reads the fixture; none may panic.
//!
//! The crate denies `clippy::string_slice`, so such slicing cannot come back unnoticed; this test
//! checks the behaviour, including slices of `&[u8]` turned back into text.

use crate::common::{all_fixtures, fixture, head};
use parsers::kind::{KindSpec, KINDS};
use parsers::Sniff;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One character of each UTF-8 length above 1: `é` (2 bytes), U+FFFD (3 bytes, what the
/// analyzer puts in place of bytes that are not UTF-8), `𝄞` (4 bytes).
const WIDE: [char; 3] = ['é', '\u{FFFD}', '𝄞'];

/// The lines of each fixture a document holds: enough for every header and a few rows.
const LINES: usize = 20;
/// Lines edited one at a time (with the others intact) per fixture.
const SINGLE_LINES: usize = 8;

/// Character positions of `line` to insert at: every position up to the end of its fourth
/// word, at most 32.
fn positions(line: &str) -> Vec<usize> {
    let chars: Vec<char> = line.chars().collect();
    let mut words = 0;
    let mut end = chars.len();
    for i in 1..=chars.len() {
        let ends_word =
            !chars[i - 1].is_whitespace() && chars.get(i).is_none_or(|c| c.is_whitespace());
        if ends_word {
            words += 1;
            if words == 4 {
                end = i;
                break;
            }
        }
    }
    (0..=end.min(32)).collect()
}

/// `line` with `c` inserted before its `at`-th character (or at its end).
fn insert(line: &str, at: usize, c: char) -> String {
    let mut out = String::with_capacity(line.len() + 4);
    let mut done = false;
    for (i, ch) in line.chars().enumerate() {
        if i == at {
            out.push(c);
            done = true;
        }
        out.push(ch);
    }
    if !done {
        out.push(c);
    }
    out
}

/// The parsers a bundle would hand `text`: the kinds whose sniffer does not rule it out and
/// whose parser reads it; when no sniffer claims it, the kinds known by their place alone (a
/// collector log, a cgroup file) whose parser reads it.
fn readers(text: &str) -> Vec<&'static KindSpec> {
    let reads = |k: &&KindSpec| k.parse.is_some_and(|parse| parse(text).is_ok());
    let sniffed: Vec<&KindSpec> = KINDS
        .iter()
        .copied()
        .filter(|k| k.sniff.is_some_and(|sniff| sniff(text) != Sniff::No))
        .filter(reads)
        .collect();
    if !sniffed.is_empty() {
        return sniffed;
    }
    KINDS
        .iter()
        .copied()
        .filter(|k| k.sniff.is_none())
        .filter(reads)
        .collect()
}

/// Runs `kind`'s parser on `text`; a panic is recorded with `what` produced the input.
fn run(kind: &KindSpec, text: &str, what: impl FnOnce() -> String, panics: &mut Vec<String>) {
    let Some(parse) = kind.parse else { return };
    if catch_unwind(AssertUnwindSafe(|| parse(text))).is_err() {
        panics.push(format!("{}: {}", kind.name, what()));
    }
}

#[test]
fn multi_byte_characters_in_the_first_columns_never_panic() {
    let mut panics = Vec::new();
    let mut runs = 0usize;
    for rel in all_fixtures() {
        let whole = fixture(&rel);
        let cut = head(&whole, 16 << 10);
        let lines: Vec<&str> = cut.lines().take(LINES).collect();
        let doc = lines.join("\n") + "\n";
        let kinds = readers(&doc);
        if kinds.is_empty() {
            continue;
        }
        // Every line edited at once, at the same position, with each width of character.
        let longest = lines.iter().map(|l| positions(l).len()).max().unwrap_or(0);
        for at in 0..longest {
            for c in WIDE {
                let text: String = lines
                    .iter()
                    .map(|l| {
                        if positions(l).contains(&at) {
                            insert(l, at, c) + "\n"
                        } else {
                            format!("{l}\n")
                        }
                    })
                    .collect();
                for k in &kinds {
                    runs += 1;
                    run(
                        k,
                        &text,
                        || format!("{rel}, every line, {c:?} at {at}"),
                        &mut panics,
                    );
                }
            }
        }
        // One line at a time, the rest intact: with its header unbroken, a row is read in full.
        for (i, line) in lines.iter().enumerate().take(SINGLE_LINES) {
            for at in positions(line) {
                let mut text = String::with_capacity(doc.len() + 4);
                for (j, l) in lines.iter().enumerate() {
                    if i == j {
                        text.push_str(&insert(l, at, '𝄞'));
                    } else {
                        text.push_str(l);
                    }
                    text.push('\n');
                }
                for k in &kinds {
                    runs += 1;
                    run(
                        k,
                        &text,
                        || format!("{rel}, line {}, '𝄞' at {at}", i + 1),
                        &mut panics,
                    );
                }
            }
        }
    }
    assert!(
        runs > 10_000,
        "only {runs} runs: the fixtures were not found"
    );
    assert!(
        panics.is_empty(),
        "{} of {runs} runs panicked, e.g.:\n{}",
        panics.len(),
        panics
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_chrony_source_whose_state_is_multi_byte_is_an_issue() {
    let text = "MS Name/IP address         Stratum Poll Reach LastRx Last sample\n\
                ===============================================================================\n\
                ^* ntp1.example.net              2   6   377    35   +120us[ +150us] +/-   12ms\n\
                ^é ntp2.example.net              2   6   377    35   +120us[ +150us] +/-   12ms\n";
    let p = parsers::time::chrony_sources::parse_sources(text).unwrap();
    assert_eq!(p.value.sources.len(), 1);
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 4);
    assert!(
        p.issues[0].message.contains("`^é`"),
        "{}",
        p.issues[0].message
    );
}
