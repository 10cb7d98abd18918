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
//!   input's first line: a kind's name (`iostat\n` then the text), else the kind that the line's
//!   bytes pick among those with a parser, so that a mutated first line moves the input to
//!   another parser. One target covers every kind of the table, the fuzzer spending its time
//!   where new coverage is found, and a kind added to the table is fuzzed without a new target.
//!   Stored regressions name their kind, which keeps them on their parser whatever the table.
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

/// Every kind with a parser, in table order.
fn parseable() -> impl Iterator<Item = &'static KindSpec> + Clone {
    KINDS.iter().copied().filter(|k| k.parse.is_some())
}

/// The kind a `parse` input's first line selects: the kind it names, else the one its bytes
/// pick (their sum, modulo the number of kinds with a parser).
pub fn selected_kind(line: &[u8]) -> &'static KindSpec {
    let named = std::str::from_utf8(line)
        .ok()
        .and_then(kind::by_name)
        .filter(|k| k.parse.is_some());
    named.unwrap_or_else(|| {
        let kinds = parseable();
        let n = kinds.clone().count();
        let pick = line.iter().map(|&b| b as usize).sum::<usize>() % n;
        // `pick` < n, the number of items of `kinds`.
        kinds.clone().nth(pick).unwrap_or(&kind::IOSTAT)
    })
}

/// The text the analyzer makes of an entry's bytes: undecodable bytes and NUL bytes become
/// U+FFFD.
fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', "\u{FFFD}")
}

/// The `parse` target: the kind [`selected_kind`] picks from the first line, its sniffer,
/// parser and streaming parser over the rest. Returns the kind and the JSON size of the largest
/// record or error made.
///
/// Panics when a parser panics or a record exceeds the output budget.
pub fn parse(data: &[u8]) -> (&'static str, usize) {
    let nl = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let spec = selected_kind(&data[..nl]);
    let text = text_of(data.get(nl + 1..).unwrap_or_default());
    if let Some(sniff) = spec.sniff {
        sniff(head(&text));
    }
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
    (spec.name, largest)
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
        Sniffed::Kind(k) => assert!(
            k.sniff.is_some(),
            "{} was sniffed without a sniffer",
            k.name
        ),
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
        if let rca::artifacts::Outcome::ParserBug { message, .. } = &a.outcome {
            panic!("{}: {message}", a.path);
        }
    }
    artifacts.len()
}

/// A file of this process and thread in the temporary folder, for one input at a time (removed
/// after each). Not in a folder of its own: one left there by another user would refuse this
/// one's files.
fn scratch_file() -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let id: String = thread.chars().filter(char::is_ascii_digit).collect();
    std::env::temp_dir().join(format!("rca-fuzz-bundle-{}-{id}", std::process::id()))
}
