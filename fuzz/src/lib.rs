//! What each fuzz target does with one input, shared by libFuzzer (`fuzz_targets/*.rs`) and by
//! the replay of the stored corpus and past crashes in `cargo test`
//! (`analyzer/tests/all/fuzz_replay.rs` includes this file), so that the replay runs exactly what
//! was fuzzed.
//!
//! Each function panics when an input breaks rca's budget for untrusted input: a parser or
//! sniffer panics, a parser is reported as panicking inside the analyzer, or a record is more
//! than [`OUTPUT_PER_BYTE`] times its input (output, and so memory, linear in the input). Hangs
//! and super-linear time are caught by libFuzzer's `-timeout` and by the replay's deadline.
//!
//! The three targets:
//!
//! - [`parse`]: one artifact kind's parser (and its sniffer and streaming parser), chosen by the
//!   kind's name on the input's first line (`iostat\n` then the text); an input whose first line
//!   names no kind with a parser is sniffed whole and parsed as what it is recognised as. One
//!   target covers every kind of the table, the fuzzer spending its time where new coverage is
//!   found, and a kind added to the table is fuzzed without a new target.
//! - [`sniff`]: every kind's sniffer over the input, then the content sniffing that picks a
//!   loose file's kind (`parsers::kind::sniff`).
//! - [`bundle`]: the input as a bundle file (tar, compressed tar, zip, a compressed or loose
//!   single file) read and analyzed the way `rca analyze` does (bundle reading, layout
//!   detection, kind resolution, parsing, facts and rules), under small limits so that they are
//!   reached.

use parsers::kind::{self, KindSpec, Sniffed, KINDS};
use std::io::Write;
use std::path::PathBuf;

/// Most bytes of JSON a parsed record (with its issues and kept lines) may take per input byte,
/// beyond [`OUTPUT_SLACK`]: a record is a bounded multiple of its text, never more.
pub const OUTPUT_PER_BYTE: usize = 64;

/// Bytes of JSON a record may take whatever its input (field names of an empty record).
pub const OUTPUT_SLACK: usize = 64 * 1024;

/// The parser of a kind, by name: `None` for names that are not a kind, or a kind without a
/// parser.
fn parser_kind(name: &[u8]) -> Option<&'static KindSpec> {
    let name = std::str::from_utf8(name).ok()?;
    kind::by_name(name).filter(|k| k.parse.is_some())
}

/// The text the analyzer makes of an entry's bytes: undecodable bytes and NUL bytes become
/// U+FFFD.
fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', "\u{FFFD}")
}

/// The `parse` target: `<kind name>\n<text>` runs that kind's sniffer, parser and streaming
/// parser over the text; any other input is sniffed whole and parsed as the kind it is
/// recognised as, if any. Returns the kind parsed and the JSON size of the largest record made.
///
/// Panics when a parser panics or a record exceeds the output budget.
pub fn parse(data: &[u8]) -> Option<(&'static str, usize)> {
    let selected = data
        .iter()
        .position(|&b| b == b'\n')
        .and_then(|nl| parser_kind(&data[..nl]).map(|k| (k, &data[nl + 1..])));
    let (spec, text) = match selected {
        Some((spec, rest)) => {
            let text = text_of(rest);
            if let Some(sniff) = spec.sniff {
                sniff(head(&text));
            }
            (spec, text)
        }
        None => {
            let text = text_of(data);
            match kind::sniff(&text) {
                Sniffed::Kind(k) if k.parse.is_some() => (k, text),
                _ => return None,
            }
        }
    };
    let mut largest = 0;
    if let Some(parse) = spec.parse {
        let out = parse(&text);
        largest = largest.max(check_output(spec, text.len(), &out, &[]));
    }
    if let Some(stream) = spec.stream {
        let mut reader = std::io::Cursor::new(text.as_bytes());
        let streamed = stream(&mut reader);
        largest = largest.max(check_output(
            spec,
            text.len(),
            &streamed.parsed,
            &streamed.kept,
        ));
    }
    Some((spec.name, largest))
}

/// The first [`kind::SNIFF_HEAD_BYTES`] of `text` (at a character boundary), as sniffers are
/// given it.
fn head(text: &str) -> &str {
    let mut end = text.len().min(kind::SNIFF_HEAD_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The JSON size of a parser's result, checked against the output budget for `input` bytes.
fn check_output(
    spec: &KindSpec,
    input: usize,
    out: &Result<(kind::Data, Vec<parsers::LineIssue>), parsers::ParseError>,
    kept: &[(usize, String)],
) -> usize {
    let size = match out {
        Ok((data, issues)) => json_len(data) + json_len(issues) + json_len(&kept),
        Err(e) => json_len(e),
    };
    let budget = OUTPUT_PER_BYTE * input + OUTPUT_SLACK;
    assert!(
        size <= budget,
        "the {} parser made {size} bytes of JSON from {input} bytes of text (budget {budget})",
        spec.name
    );
    size
}

fn json_len<T: serde::Serialize + ?Sized>(v: &T) -> usize {
    struct Count(usize);
    impl Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    // Serialising a record cannot fail: every map key is a string.
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// The `sniff` target: every kind's sniffer over the head of the text, then content sniffing
/// over the whole text as the analyzer runs it on a loose file. Returns the number of kinds that
/// answered yes or unsure.
///
/// Panics when a sniffer panics.
pub fn sniff(data: &[u8]) -> usize {
    let text = text_of(data);
    let head = head(&text);
    let claims = KINDS
        .iter()
        .filter_map(|k| k.sniff)
        .filter(|f| f(head) != parsers::Sniff::No)
        .count();
    match kind::sniff(&text) {
        Sniffed::Kind(k) => assert!(k.sniff.is_some(), "{} was sniffed without a sniffer", k.name),
        Sniffed::Ambiguous(names) => assert!(names.len() >= 2),
        Sniffed::Nothing => {}
    }
    claims
}

/// Limits for the `bundle` target: the defaults' shape, small enough that fuzzed inputs reach
/// every one of them.
pub fn bundle_limits() -> rca::bundle::Limits {
    rca::bundle::Limits {
        max_entry_bytes: 1 << 20,
        max_total_bytes: 4 << 20,
        max_entries: 64,
        max_name_bytes: 256,
        max_meta_bytes: 4096,
        max_ratio: 200,
        ratio_floor_bytes: 1 << 20,
    }
}

/// The `bundle` target: `data` as a bundle file, analyzed as `rca analyze` does under
/// [`bundle_limits`]. Returns the number of artifacts.
///
/// Panics when reading, analysis or a parser panics (the analyzer catches parser panics and
/// reports them as a parser bug, which counts here as the panic it is).
pub fn bundle(data: &[u8]) -> usize {
    let path = scratch_file();
    if std::fs::write(&path, data).is_err() {
        // A full or read-only temporary folder says nothing about rca.
        return 0;
    }
    let result = rca::analysis::Analysis::run(&path, &bundle_limits());
    let _ = std::fs::remove_file(&path);
    let Ok(analysis) = result else { return 0 };
    let artifacts = &analysis.collected.artifacts;
    for a in artifacts {
        if let rca::artifacts::Outcome::ParserBug { message } = &a.outcome {
            panic!("{}: {message}", a.path);
        }
    }
    artifacts.len()
}

/// A file of this process and thread under the temporary folder, for one input at a time.
fn scratch_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rca-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let thread = format!("{:?}", std::thread::current().id());
    let id: String = thread.chars().filter(char::is_ascii_digit).collect();
    dir.join(format!("bundle-{id}"))
}
