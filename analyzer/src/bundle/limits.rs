//! Size and count limits for reading untrusted bundles, and the bounded reads that enforce them.

use super::EntryContent;
use parsers::kind::StreamFn;
use serde::Serialize;
use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};

/// Limits applied while reading a bundle. Every one can be raised from the command line.
///
/// Defaults suit a collector bundle (≤ 200 MB) and sosreports with room to spare, while keeping
/// a hostile archive from exhausting memory: everything read is held in memory for analysis, so
/// `max_total_bytes` bounds the analyzer's footprint.
#[derive(Debug, Clone, Serialize)]
pub struct Limits {
    /// Largest single entry kept, uncompressed bytes (default 1 GiB; `--max-entry-size`).
    pub max_entry_bytes: u64,
    /// Largest total of all entries, uncompressed bytes (default 2 GiB; `--max-total-size`).
    /// Parsed records take about three times the space of their text, so this bounds the
    /// analyzer at roughly 8 GiB. It also bounds the output of every decoder together (kept,
    /// skipped or lost to an error), so that it bounds the work of decompressing too.
    pub max_total_bytes: u64,
    /// Most entries read, files and directories alike (default 100 000; `--max-entries`).
    pub max_entries: usize,
    /// Longest entry name, bytes (default 4096, Linux `PATH_MAX`).
    pub max_name_bytes: usize,
    /// Largest tar GNU long-name or PAX extended header, bytes (default 1 MiB). The `tar` crate
    /// would buffer these without limit; rca reads them itself.
    pub max_meta_bytes: u64,
    /// Compression-ratio alarm: reading stops when the output of every decoder (the input's and
    /// its compressed members', kept or skipped) exceeds this many times the input read so far
    /// (default 200; text bundles compress 5–20:1, while 1 GiB of zeros compresses 1030:1 with
    /// `gzip -9` 1.12, 6869:1 with `xz -9` 5.4.1, 32531:1 with `zstd -19` 1.5.4 and 1367823:1
    /// with `bzip2 -9` 1.0.8) ...
    pub max_ratio: u64,
    /// ... once at least this many uncompressed bytes have been produced (default 64 MiB), so
    /// that small, highly repetitive files never trip it.
    pub ratio_floor_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entry_bytes: 1 << 30,
            max_total_bytes: 2 << 30,
            max_entries: 100_000,
            max_name_bytes: 4096,
            max_meta_bytes: 1 << 20,
            max_ratio: 200,
            ratio_floor_bytes: 64 << 20,
        }
    }
}

/// Shared count of bytes consumed from the input (the compressed side of the decoders).
pub type Counter = Arc<AtomicU64>;

/// A reader that counts the bytes pulled through it (the compressed side of a decoder).
pub struct CountingReader<R> {
    inner: R,
    count: Counter,
}

impl<R> CountingReader<R> {
    /// Counts into `count`, shared with the other readers of the same input.
    pub fn sharing(inner: R, count: Counter) -> Self {
        CountingReader { inner, count }
    }
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Relaxed);
        Ok(n)
    }
}

impl<R: io::Seek> io::Seek for CountingReader<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// The decompression guard of one input (the compression-ratio alarm and the total size limit),
/// shared by every decoder that reads it.
///
/// The ratio's denominator is the compressed bytes of the input, each counted once
/// ([`Meter::input`]: counted by [`CountingReader`] for a stream, added per entry's byte range
/// for a zip); the numerator every byte any decoder produced, whether it was kept, skipped (the
/// data of a refused tar entry) or lost to an error such as a CRC mismatch ([`Inflating`]).
/// Once the numerator passes [`Limits::ratio_floor_bytes`] and exceeds [`Limits::max_ratio`]
/// times the denominator, or exceeds [`Limits::max_total_bytes`] on its own, every decoder fails
/// and [`Meter::stop`] says why.
#[derive(Clone)]
pub struct Meter(Arc<MeterState>);

struct MeterState {
    input: Counter,
    inflated: AtomicU64,
    max_ratio: u64,
    floor: u64,
    max_total: u64,
    total_reached: AtomicBool,
    stopped: AtomicBool,
    stop: Mutex<Option<String>>,
}

impl Meter {
    /// A meter for one input under `limits`.
    pub fn new(limits: &Limits) -> Self {
        Meter(Arc::new(MeterState {
            input: Arc::new(AtomicU64::new(0)),
            inflated: AtomicU64::new(0),
            max_ratio: limits.max_ratio,
            floor: limits.ratio_floor_bytes,
            max_total: limits.max_total_bytes,
            total_reached: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            stop: Mutex::new(None),
        }))
    }

    /// The count of input bytes, for the [`CountingReader`]s of this input.
    pub fn input(&self) -> Counter {
        self.0.input.clone()
    }

    /// Compressed bytes counted so far (the ratio's denominator).
    pub fn input_bytes(&self) -> u64 {
        self.0.input.load(Relaxed)
    }

    /// Bytes produced by every decoder so far: kept, skipped or lost to an error.
    pub fn decoded_bytes(&self) -> u64 {
        self.0.inflated.load(Relaxed)
    }

    /// `content` as the entry read when the decoders went past the total size limit:
    /// [`EntryContent::TooLarge`] for the entry that limit cut, instead of the read error every
    /// decoder returns from then on.
    pub fn cut_by_total(&self, content: EntryContent) -> EntryContent {
        match content {
            EntryContent::ReadError(_) if self.0.total_reached.load(Relaxed) => {
                EntryContent::TooLarge {
                    limit: self.0.max_total,
                }
            }
            other => other,
        }
    }

    /// Why every further read of this input must stop: the ratio alarm, or the failure of the
    /// input's own compressed stream (a member's corrupt data does not stop the input).
    pub fn stop(&self) -> Option<String> {
        self.0
            .stop
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Stops every decoder of this input with `why` (the first reason given is kept).
    pub fn fail(&self, why: String) {
        let mut s = self.0.stop.lock().unwrap_or_else(|e| e.into_inner());
        if s.is_none() {
            *s = Some(why);
            self.0.stopped.store(true, Relaxed);
        }
    }

    /// Counts `n` more decoded bytes; the reason to stop once the ratio or the total is
    /// exceeded.
    fn add(&self, n: u64) -> Result<(), String> {
        let total = self.0.inflated.fetch_add(n, Relaxed) + n;
        let input = self.0.input.load(Relaxed).max(1);
        let why = if total > self.0.floor && total / input > self.0.max_ratio {
            ratio_alarm(total, input, self.0.max_ratio)
        } else if total > self.0.max_total {
            self.0.total_reached.store(true, Relaxed);
            decoded_limit_reached(self.0.max_total)
        } else {
            return Ok(());
        };
        self.fail(why.clone());
        Err(why)
    }
}

/// The output side of a decoder: counts every byte it produces into a [`Meter`] and fails with
/// the ratio alarm once the meter trips. With `stops_input` (the decoder of the whole input, not
/// of one member or one zip entry) a decoding error also stops the input.
pub struct Inflating<R> {
    inner: R,
    meter: Meter,
    stops_input: bool,
}

impl<R> Inflating<R> {
    /// Wraps the decoder `inner`.
    pub fn new(inner: R, meter: Meter, stops_input: bool) -> Self {
        Inflating {
            inner,
            meter,
            stops_input,
        }
    }
}

impl<R: Read> Read for Inflating<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.meter.0.stopped.load(Relaxed) {
            return Err(described(
                io::ErrorKind::Other,
                self.meter.stop().unwrap_or_default(),
            ));
        }
        match self.inner.read(buf) {
            Ok(n) => match self.meter.add(n as u64) {
                Ok(()) => Ok(n),
                Err(alarm) => Err(described(io::ErrorKind::Other, alarm)),
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => {
                if self.stops_input {
                    self.meter.fail(describe_io(&e));
                }
                Err(e)
            }
        }
    }
}

/// An I/O error whose text is already written for the report (see [`describe_io`]).
#[derive(Debug)]
pub struct Described(pub String);

impl std::fmt::Display for Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Described {}

/// An I/O error of `kind` carrying the report's text `why`.
pub fn described(kind: io::ErrorKind, why: String) -> io::Error {
    io::Error::new(kind, Described(why))
}

/// Text of the ratio alarm, shared by the entry error and the stop reason.
pub fn ratio_alarm(uncompressed: u64, compressed: u64, max_ratio: u64) -> String {
    format!(
        "compression ratio alarm: {} uncompressed from {} compressed (more than {}:1) — possibly a \
         decompression bomb; if the bundle is trusted, raise the limit with --max-ratio",
        human_bytes(uncompressed),
        human_bytes(compressed),
        max_ratio
    )
}

/// Why reading stopped when the decoders produced more than the total size limit: kept,
/// skipped and failed bytes all count, so that data which is decompressed but never kept
/// (refused or skipped entries, entries failing their CRC check) is bounded too.
pub fn decoded_limit_reached(max_total: u64) -> String {
    format!(
        "total uncompressed size limit of {} reached: that much was decompressed (entries kept, \
         skipped or failing their integrity check all count); the rest was not read (raise with \
         --max-total-size)",
        human_bytes(max_total)
    )
}

/// Reads at most `max` bytes from `r`: the whole content, [`EntryContent::TooLarge`] if there is
/// more, or [`EntryContent::ReadError`] on an I/O error (a tripped ratio alarm among them: the
/// alarm lives in the decoders, see [`Inflating`]).
///
/// `size_hint` (an archive header's claimed size, untrusted) only pre-sizes the buffer, capped
/// at 64 MiB; reads go straight into the buffer in chunks of at most 8 MiB, each bounded by
/// `take`.
pub fn read_bounded(mut r: impl Read, max: u64, size_hint: u64) -> EntryContent {
    const CHUNK: u64 = 8 << 20;
    let mut out = Vec::with_capacity(size_hint.min(max.saturating_add(1)).min(64 << 20) as usize);
    loop {
        let room = (max + 1).saturating_sub(out.len() as u64);
        if room == 0 {
            return EntryContent::TooLarge { limit: max };
        }
        match (&mut r).take(room.min(CHUNK)).read_to_end(&mut out) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return EntryContent::ReadError(describe_io(&e)),
        }
        if out.len() as u64 > max {
            return EntryContent::TooLarge { limit: max };
        }
    }
    EntryContent::Bytes(out)
}

/// Entries of a streamed kind at least this large (by the archive's claimed size) are parsed
/// while they are read instead of being held in memory.
pub const STREAM_MIN_BYTES: u64 = 64 << 20;

/// Reads one entry: like [`read_bounded`], except that an entry with a streaming parser
/// (`stream`, from the caller's [`super::StreamFor`]) that claims at least [`STREAM_MIN_BYTES`]
/// is fed to that parser under `stream_max` (the remaining total budget: the per-entry limit
/// guards memory, which a streamed entry does not use).
///
/// The streaming parser runs on a thread of its own while this thread decompresses: the entry
/// is handed over in chunks of [`STREAM_CHUNK_BYTES`] through a channel holding at most
/// [`STREAM_CHUNKS_IN_FLIGHT`] of them, so that parsing overlaps decompression with at most
/// that many chunks (16 MiB) in memory. The bounds and the decoders' guards stay on this
/// thread; the parser only sees the bytes, an end of input where reading stopped.
pub fn read_entry(
    stream: Option<StreamFn>,
    r: impl Read,
    (max, stream_max): (u64, u64),
    size_hint: u64,
) -> EntryContent {
    match stream {
        Some(stream) if size_hint >= STREAM_MIN_BYTES && size_hint <= stream_max => {
            let max = stream_max;
            let mut guarded = Guarded {
                inner: r.take(max.saturating_add(1)),
                read: 0,
                max,
                stop: None,
            };
            let (bytes, out) = stream_beside(stream, &mut guarded);
            match (guarded.stop, out) {
                (Some(Stop::TooLarge), _) => EntryContent::TooLarge { limit: max },
                (Some(Stop::Error(e)), _) => EntryContent::ReadError(e),
                (None, Ok(out)) => EntryContent::Streamed {
                    bytes,
                    result: Box::new(out),
                },
                (None, Err(caught)) => EntryContent::StreamPanicked { bytes, caught },
            }
        }
        _ => read_bounded(r, max, size_hint),
    }
}

/// Size of one chunk handed to a streaming parser, bytes (1 MiB).
pub const STREAM_CHUNK_BYTES: usize = 1 << 20;

/// Chunks read ahead of a streaming parser at most (besides the one it is parsing and the one
/// being filled).
pub const STREAM_CHUNKS_IN_FLIGHT: usize = 14;

/// Runs `stream` on a thread of its own over the bytes of `r`, read here in chunks; returns
/// the bytes handed to the parser and what it made of them (or its caught panic).
fn stream_beside(
    stream: StreamFn,
    r: &mut impl Read,
) -> (u64, Result<parsers::kind::Streamed, crate::console::Caught>) {
    let (full, chunks) = mpsc::sync_channel::<Vec<u8>>(STREAM_CHUNKS_IN_FLIGHT);
    let (spent, empties) = mpsc::channel::<Vec<u8>>();
    std::thread::scope(|s| {
        let parser = s.spawn(move || {
            let mut input = Chunks {
                chunks,
                spent,
                current: Vec::new(),
                pos: 0,
                handed: 0,
            };
            // A streaming parser meets the same untrusted text as any other: its panic (a
            // defect in rca) is this entry's outcome, printed nowhere.
            let (out, heap) =
                crate::memstat::held(|| crate::console::catch_quietly(|| stream(&mut input)));
            crate::memstat::record("(streamed)", input.handed, heap);
            (input.handed, out)
        });
        loop {
            let mut chunk = empties
                .try_recv()
                .unwrap_or_else(|_| Vec::with_capacity(STREAM_CHUNK_BYTES));
            chunk.resize(STREAM_CHUNK_BYTES, 0);
            // `Guarded` turns every error but an interruption into an end of input.
            let n = read_up_to(r, &mut chunk).unwrap_or(0);
            if n == 0 {
                break;
            }
            chunk.truncate(n);
            // The parser stopped reading (it is done, or it panicked): nothing more to hand.
            if full.send(chunk).is_err() {
                break;
            }
        }
        drop(full);
        match parser.join() {
            Ok(out) => out,
            // `catch_quietly` catches the parser's panics; this is only a safeguard.
            Err(_) => (
                0,
                Err(crate::console::Caught {
                    location: None,
                    message: "the streaming parser's thread panicked".into(),
                }),
            ),
        }
    })
}

/// The streaming parser's side of [`stream_beside`]: the chunks as one buffered reader, which
/// ends where the chunks end. Finished chunks go back to be filled again.
struct Chunks {
    chunks: mpsc::Receiver<Vec<u8>>,
    spent: mpsc::Sender<Vec<u8>>,
    current: Vec<u8>,
    pos: usize,
    /// Bytes of the chunks received, as a buffered reader counts what it pulled.
    handed: u64,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(buf.len());
            buf[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Chunks {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.current.len() {
            let Ok(next) = self.chunks.recv() else {
                return Ok(&[]);
            };
            self.handed += next.len() as u64;
            let done = std::mem::replace(&mut self.current, next);
            self.pos = 0;
            if done.capacity() > 0 {
                // The reading side may be finished: then the chunk is simply dropped.
                let _ = self.spent.send(done);
            }
        }
        Ok(&self.current[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.current.len());
    }
}

enum Stop {
    TooLarge,
    Error(String),
}

/// A reader that enforces the entry bound and remembers why it stopped (the streaming parser
/// only sees an end of input or an I/O error).
struct Guarded<R> {
    inner: io::Take<R>,
    read: u64,
    max: u64,
    stop: Option<Stop>,
}

impl<R: Read> Read for Guarded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.is_some() {
            return Ok(0);
        }
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
            Err(e) => {
                self.stop = Some(Stop::Error(describe_io(&e)));
                return Ok(0);
            }
        };
        self.read += n as u64;
        if self.read > self.max {
            self.stop = Some(Stop::TooLarge);
            return Ok(0);
        }
        Ok(n)
    }
}

/// The limit to report for an entry cut at `cap`: the total limit when the remaining total
/// budget was the smaller bound, else the entry limit.
pub fn reported_limit(cap: u64, limits: &Limits) -> u64 {
    if cap < limits.max_entry_bytes {
        limits.max_total_bytes
    } else {
        limits.max_entry_bytes
    }
}

/// Why reading stopped at the total size limit (shared by every reader).
pub fn total_limit_reached(limits: &Limits) -> String {
    format!(
        "total uncompressed size limit of {} reached: the rest was not read (raise with --max-total-size)",
        human_bytes(limits.max_total_bytes)
    )
}

/// An I/O error in words: the text of a [`Described`] error as written, else a truncation
/// (`UnexpectedEof`) said plainly, else the error's own text.
pub fn describe_io(e: &io::Error) -> String {
    if let Some(d) = e.get_ref().and_then(|r| r.downcast_ref::<Described>()) {
        return d.0.clone();
    }
    match e.kind() {
        io::ErrorKind::UnexpectedEof => "unexpected end of data: the file is truncated".to_string(),
        _ => e.to_string(),
    }
}

/// `1.5 MiB`-style sizes for messages.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Parses a size given on the command line: `1048576`, `512K`, `64M`, `4G` (binary units).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m = match c.to_ascii_uppercase() {
                'K' => 1u64 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                'T' => 1 << 40,
                _ => return Err(format!("unknown size suffix in `{s}` (use K, M, G or T)")),
            };
            (s.get(..i).unwrap_or(s), m)
        }
        _ => (s, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("`{s}` is not a size (examples: 1048576, 512K, 64M, 4G)"))
}

/// Reads until `buf` is full or the reader is exhausted; returns the count.
pub fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panicking_stream(_: &mut dyn io::BufRead) -> parsers::kind::Streamed {
        panic!("streaming parser defect on line: \u{1b}[2J")
    }

    #[test]
    fn a_streaming_parser_that_panics_is_the_entry_outcome() {
        let text = vec![b'x'; 1 << 10];
        let got = read_entry(
            Some(panicking_stream),
            &text[..],
            (1 << 20, 1 << 30),
            STREAM_MIN_BYTES,
        );
        match got {
            EntryContent::StreamPanicked { caught, .. } => {
                assert!(
                    caught.message.starts_with("streaming parser defect"),
                    "{caught:?}"
                );
                assert!(!caught.message.contains('\u{1b}'), "{caught:?}");
                assert!(caught.location.is_some_and(|l| l.contains("limits.rs")));
            }
            other => panic!("expected a caught panic, got {other:?}"),
        }
    }

    /// Reports what it read: `kept` holds (bytes, sum of the bytes) and the first line.
    fn summing_stream(r: &mut dyn io::BufRead) -> parsers::kind::Streamed {
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        let sum: u64 = all.iter().map(|&b| u64::from(b)).sum();
        let first = all.split(|&b| b == b'\n').next().unwrap_or_default();
        parsers::kind::Streamed {
            parsed: Err(parsers::ParseError::Unusable {
                line: None,
                reason: "test".into(),
            }),
            kept: vec![
                (all.len(), sum.to_string()),
                (0, String::from_utf8_lossy(first).into_owned()),
            ],
        }
    }

    /// Reads one line and stops.
    fn one_line_stream(r: &mut dyn io::BufRead) -> parsers::kind::Streamed {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        parsers::kind::Streamed {
            parsed: Err(parsers::ParseError::Unusable {
                line: Some(1),
                reason: line,
            }),
            kept: Vec::new(),
        }
    }

    #[test]
    fn a_streamed_entry_reaches_its_parser_whole_across_chunks() {
        // More chunks than the channel holds at once, the last one partly filled.
        let len = STREAM_CHUNK_BYTES * (STREAM_CHUNKS_IN_FLIGHT + 3) + STREAM_CHUNK_BYTES / 2;
        let text: Vec<u8> = (0..len).map(|i| b"first line\nabc"[i % 14]).collect();
        let sum: u64 = text.iter().map(|&b| u64::from(b)).sum();
        match read_entry(
            Some(summing_stream),
            &text[..],
            (1 << 20, 1 << 30),
            STREAM_MIN_BYTES,
        ) {
            EntryContent::Streamed { bytes, result } => {
                assert_eq!(bytes, len as u64);
                assert_eq!(result.kept[0], (len, sum.to_string()));
                assert_eq!(result.kept[1].1, "first line");
            }
            other => panic!("expected a streamed entry, got {other:?}"),
        }
        // Longer than its claim and past the budget: too large, whatever the parser made of
        // the part it saw.
        let long = vec![b'x'; STREAM_MIN_BYTES as usize + 3 * STREAM_CHUNK_BYTES];
        match read_entry(
            Some(summing_stream),
            &long[..],
            (1 << 20, STREAM_MIN_BYTES),
            STREAM_MIN_BYTES,
        ) {
            EntryContent::TooLarge { limit } => assert_eq!(limit, STREAM_MIN_BYTES),
            other => panic!("expected too large, got {other:?}"),
        }
        // A parser that stops early ends the entry (the reading side does not wait on it).
        match read_entry(
            Some(one_line_stream),
            &text[..],
            (1 << 20, 1 << 30),
            STREAM_MIN_BYTES,
        ) {
            EntryContent::Streamed { bytes, result } => {
                assert!(bytes < len as u64, "{bytes}");
                assert!(
                    matches!(&result.parsed, Err(parsers::ParseError::Unusable { reason, .. }) if reason == "first line\n")
                );
            }
            other => panic!("expected a streamed entry, got {other:?}"),
        }
    }

    #[test]
    fn a_read_error_in_a_streamed_entry_is_the_entry_outcome() {
        let text = vec![b'x'; 3 * STREAM_CHUNK_BYTES];
        let failing = (&text[..]).chain(FailingReader);
        match read_entry(
            Some(summing_stream),
            failing,
            (1 << 20, 1 << 30),
            STREAM_MIN_BYTES,
        ) {
            EntryContent::ReadError(e) => assert!(e.contains("broken"), "{e}"),
            other => panic!("expected a read error, got {other:?}"),
        }
    }

    struct FailingReader;

    impl Read for FailingReader {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("broken input"))
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("12X").is_err());
        assert!(parse_size("99999999999999T").is_err());
    }

    #[test]
    fn bounded_read_stops_past_limit() {
        match read_bounded(&b"0123456789"[..], 4, 0) {
            EntryContent::TooLarge { limit } => assert_eq!(limit, 4),
            other => panic!("expected TooLarge, got {other:?}"),
        }
        match read_bounded(&b"0123"[..], 4, 4) {
            EntryContent::Bytes(b) => assert_eq!(b, b"0123"),
            other => panic!("expected bytes, got {other:?}"),
        }
    }
}
