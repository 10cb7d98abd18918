//! An artifact's text: decoded once from the entry's bytes, shared by every stage that reads it,
//! and addressable by line number through an index built on first use.
//!
//! Decoding never fails ([`Text::decode`]): bytes that are not UTF-8, and NUL bytes, become
//! U+FFFD. That replacement grows the text (one byte becomes three), so the decoded size is what
//! the entry size limit bounds; the text is built once at its final size, never copied again.
//!
//! A text is whole while its parser reads it, then packed for citing and viewing
//! ([`Text::pack`]): compressed with zstd (level 1) in chunks of [`CHUNK`] bytes, the whole text
//! released. A bundle's texts then take about a fifth to a tenth of their size, so that memory
//! is bounded by the largest artifact being parsed rather than by the bundle. Lines are copied
//! out of the chunk that holds them ([`Text::lines_at`] returns `Cow`s: borrowed from a whole
//! text, owned from a packed one); [`Text::contents`] decompresses a packed text whole, for the
//! few stages that read an artifact again whole (parsing it as another kind, splitting a
//! supportconfig file).
//!
//! The line index ([`Text::line`], [`Text::lines_at`], [`Text::headers_above`]) holds one count
//! per [`INDEX_BLOCK`] bytes of text (newlines before the block), whatever the shape of the
//! lines: 2 MiB for 1 GiB of text, be it one line or a billion. A line is found from its block in
//! at most [`INDEX_BLOCK`] bytes of scanning plus its own length, and ascending line numbers are
//! looked up in one forward pass, so that citing or viewing many lines of one artifact reads its
//! text about once ([`Text::scanned`] counts the bytes read).

use memchr::memmem;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Bytes of text per entry of the line index.
pub const INDEX_BLOCK: usize = 4096;

/// Bytes of text per compressed chunk of a packed text (a multiple of [`INDEX_BLOCK`]). A line
/// lookup decompresses the chunk that holds it (64 KiB: tens of microseconds), and ascending
/// lookups decompress each chunk once; zstd compresses chunks this long nearly as well as the
/// whole text, its level-1 window being of the same order.
pub const CHUNK: usize = 64 << 10;

/// Texts shorter than this are kept as they are by [`Text::pack`]: a compressor's frame and a
/// chunk table would save little on them, and a bundle of many small files would pay a
/// compression call per file.
pub const PACK_MIN: usize = 16 << 10;

/// zstd's level for packed chunks: its fastest regular level, which compresses text at several
/// hundred MB/s on one core and still shrinks tool output (columns of numbers, repeated stack
/// frames) about five- to tenfold.
const ZSTD_LEVEL: i32 = 1;

/// Text shared by every stage that reads it (cloning shares it), with its line index. Kept
/// whole while it is parsed ([`Text::decode`], `From<String>`), then packed ([`Text::pack`]):
/// compressed in chunks of [`CHUNK`] bytes, decompressed on demand by the line lookups, the
/// line iterator and [`Text::contents`].
#[derive(Clone, Default)]
pub struct Text(Arc<Inner>);

#[derive(Default)]
struct Inner {
    store: Store,
    index: OnceLock<Index>,
    /// Bytes read by the index and by line lookups.
    scanned: AtomicU64,
}

/// Where the text is.
enum Store {
    /// Whole, as decoded.
    Plain(String),
    /// Chunk `i` holds bytes `i * CHUNK ..` of the text, compressed with zstd; only the last
    /// is shorter. The text's own bytes are `len` long.
    Packed { len: usize, chunks: Vec<Box<[u8]>> },
}

impl Default for Store {
    fn default() -> Self {
        Store::Plain(String::new())
    }
}

/// Where the lines are: newlines before each block of [`INDEX_BLOCK`] bytes.
#[derive(Clone)]
struct Index {
    /// `before[i]`: newlines in the text's first `i * INDEX_BLOCK` bytes; one entry per block
    /// and one for the end (the total).
    before: Vec<u64>,
    /// Lines, as `str::lines` counts them.
    lines: usize,
}

/// An entry's bytes decode to more text than the entry size limit allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong {
    /// Bytes the decoded text would take.
    pub decoded: u64,
    /// Bytes replaced (undecodable sequences and NUL bytes), each by three.
    pub replaced: u64,
}

/// The decoded text of an entry and the 1-based line of its first replaced byte, if any.
pub type Decoded = (Text, Option<usize>);

impl Text {
    /// Decodes `bytes` as UTF-8, undecodable sequences and NUL bytes replaced with U+FFFD (NUL
    /// is valid UTF-8, but no tool prints it in text output and it makes a page or a terminal
    /// unreadable). Returns the text, whole, and the line of the first replacement, if there
    /// was one. Valid text is kept in `bytes`' own buffer; replacement builds the text once, at
    /// its final size. Errors: the text would be longer than `max` bytes.
    pub fn decode(bytes: Vec<u8>, max: u64) -> Result<Decoded, TooLong> {
        let bytes = match String::from_utf8(bytes) {
            Ok(s) => match memchr::memchr(0, s.as_bytes()) {
                None => return Ok((Text::from(s), None)),
                Some(_) => s.into_bytes(),
            },
            Err(e) => e.into_bytes(),
        };
        // First pass: the size of the result, and where the first replacement is.
        let mut decoded = 0u64;
        let mut replaced = 0u64;
        let mut first: Option<usize> = None;
        pieces(&bytes, |at, piece| match piece {
            Piece::Text(t) => decoded += t.len() as u64,
            Piece::Replaced { bytes, chars } => {
                first.get_or_insert(at);
                replaced += bytes as u64;
                decoded += 3 * chars as u64;
            }
        });
        if decoded > max {
            return Err(TooLong { decoded, replaced });
        }
        let line = first.map(|p| memchr::memchr_iter(b'\n', &bytes[..p]).count() + 1);
        // Second pass: the text, in a buffer of its final size.
        let mut text = String::with_capacity(decoded as usize);
        let fill = "\u{FFFD}".repeat(1024);
        pieces(&bytes, |_, piece| match piece {
            Piece::Text(t) => text.push_str(t),
            Piece::Replaced { mut chars, .. } => {
                while chars > 0 {
                    let n = chars.min(1024);
                    text.push_str(fill.get(..3 * n).unwrap_or_default());
                    chars -= n;
                }
            }
        });
        Ok((Text::from(text), line))
    }

    /// The text packed: compressed in chunks of [`CHUNK`] bytes with its line index built, the
    /// whole text released once no other clone holds it. A text shorter than [`PACK_MIN`], or
    /// already packed, is returned as it is; so is one that fails to compress (it does not).
    pub fn pack(self) -> Text {
        let Store::Plain(s) = &self.0.store else {
            return self;
        };
        if s.len() < PACK_MIN {
            return self;
        }
        let mut chunks = Vec::with_capacity(s.len().div_ceil(CHUNK));
        for c in s.as_bytes().chunks(CHUNK) {
            match compress(c) {
                Some(z) => chunks.push(z),
                None => return self,
            }
        }
        let index = self.index().clone();
        Text(Arc::new(Inner {
            store: Store::Packed {
                len: s.len(),
                chunks,
            },
            index: OnceLock::from(index),
            scanned: AtomicU64::new(self.scanned()),
        }))
    }

    /// Whether the text is packed ([`Text::pack`]).
    pub fn is_packed(&self) -> bool {
        matches!(self.0.store, Store::Packed { .. })
    }

    /// Bytes the text takes where it is kept: its length when whole, its compressed chunks'
    /// when packed (the line index aside: 8 bytes per [`INDEX_BLOCK`]).
    pub fn stored_bytes(&self) -> usize {
        match &self.0.store {
            Store::Plain(s) => s.len(),
            Store::Packed { chunks, .. } => chunks.iter().map(|c| c.len()).sum(),
        }
    }

    /// The whole text: borrowed when whole, decompressed when packed (it is then as long as
    /// the text: for reading an artifact whole once, not for looking up lines).
    pub fn contents(&self) -> Cow<'_, str> {
        match &self.0.store {
            Store::Plain(s) => Cow::Borrowed(s),
            Store::Packed { len, .. } => {
                let mut src = self.source();
                src.slice(0, *len)
            }
        }
    }

    /// The text's first `max` bytes at most, cut back to a character boundary (for sniffing
    /// its kind); decompresses only the chunks they lie in.
    pub fn head(&self, max: usize) -> Cow<'_, str> {
        let mut end = self.len().min(max);
        match &self.0.store {
            Store::Plain(s) => {
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                Cow::Borrowed(s.get(..end).unwrap_or_default())
            }
            Store::Packed { .. } => {
                let mut src = self.source();
                let mut bytes = src.bytes(0, end);
                end = end.min(bytes.len());
                // Cut a character the limit splits.
                while end > 0 && std::str::from_utf8(&bytes[..end]).is_err() {
                    end -= 1;
                }
                bytes.truncate(end);
                Cow::Owned(String::from_utf8(bytes).unwrap_or_default())
            }
        }
    }

    /// Bytes of text.
    pub fn len(&self) -> usize {
        match &self.0.store {
            Store::Plain(s) => s.len(),
            Store::Packed { len, .. } => *len,
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the text is empty or white space only.
    pub fn is_blank(&self) -> bool {
        match &self.0.store {
            Store::Plain(s) => s.trim().is_empty(),
            Store::Packed { .. } => self.lines().all(|l| l.trim().is_empty()),
        }
    }

    /// The lines, as `str::lines` gives them, in order; a packed text is decompressed a chunk
    /// at a time as they are read.
    pub fn lines(&self) -> Box<dyn Iterator<Item = Cow<'_, str>> + '_> {
        match &self.0.store {
            Store::Plain(s) => Box::new(s.lines().map(Cow::Borrowed)),
            Store::Packed { .. } => Box::new(PackedLines {
                src: self.source(),
                at: 0,
            }),
        }
    }

    /// Lines, as `str::lines` counts them (a last line without its newline counts; an empty
    /// text has none).
    pub fn line_count(&self) -> usize {
        self.index().lines
    }

    /// Line `n` (1-based) without its line ending (`\n` or `\r\n`), as `str::lines` gives it;
    /// `None` past the end or for 0.
    pub fn line(&self, n: usize) -> Option<Cow<'_, str>> {
        self.lines_at([n]).pop().flatten()
    }

    /// Lines `wanted` (1-based, ascending for one forward pass; any order works), each as
    /// [`Text::line`] gives it, in the order asked. Borrowed from a whole text; copied out of
    /// a packed one, whose chunks are each decompressed once for ascending lines.
    pub fn lines_at(&self, wanted: impl IntoIterator<Item = usize>) -> Vec<Option<Cow<'_, str>>> {
        let ix = self.index();
        let len = self.len();
        let mut src = self.source();
        let mut out = Vec::new();
        // Where the pass stands: `seen` newlines lie before byte `at`, which starts a line.
        let (mut seen, mut at) = (0u64, 0usize);
        let mut scanned = 0u64;
        for n in wanted {
            if n == 0 || n > ix.lines {
                out.push(None);
                continue;
            }
            let k = (n - 1) as u64; // newlines before line `n`
            if k < seen {
                (seen, at) = (0, 0);
            }
            // Start from the block holding the k-th newline when it lies past where the pass
            // stands.
            let (mut from_seen, mut from) = (seen, at);
            if k > seen {
                let block = ix.before.partition_point(|&c| c < k).saturating_sub(1);
                if block * INDEX_BLOCK > at {
                    (from_seen, from) = (ix.before[block], block * INDEX_BLOCK);
                }
            }
            let start = if k == from_seen {
                from
            } else {
                match src.nth_newline(from, (k - from_seen - 1) as usize) {
                    Some(p) => p + 1,
                    None => {
                        out.push(None);
                        continue;
                    }
                }
            };
            let end = src.nth_newline(start, 0).unwrap_or(len);
            scanned += (end - from) as u64;
            let mut line = src.slice(start, end);
            if end < len {
                line = strip_cr(line);
            }
            out.push(Some(line));
            // The pass goes on after this line.
            (seen, at) = if end < len {
                (k + 1, end + 1)
            } else {
                (k, start)
            };
        }
        self.0.scanned.fetch_add(scanned, Ordering::Relaxed);
        out
    }

    /// For each line of `queries` (1-based, ascending), the nearest line above it whose text,
    /// leading blanks aside, starts with `prefix` (a table's header: `Device`); one forward
    /// pass over the text up to the last query.
    pub fn headers_above(&self, queries: &[usize], prefix: &str) -> Vec<Option<usize>> {
        let mut out = vec![None; queries.len()];
        if prefix.is_empty() {
            for (o, &n) in out.iter_mut().zip(queries) {
                *o = (n > 1).then(|| (n - 1).min(self.line_count()));
            }
            return out;
        }
        let text = match &self.0.store {
            Store::Plain(s) => s.as_str(),
            Store::Packed { .. } => {
                // Line by line, as decompressed.
                let mut header: Option<usize> = None;
                let mut q = 0usize;
                let mut read = 0u64;
                for (i, l) in self.lines().enumerate() {
                    let line = i + 1;
                    while q < queries.len() && queries[q] <= line {
                        out[q] = header;
                        q += 1;
                    }
                    if q == queries.len() {
                        break;
                    }
                    read += l.len() as u64 + 1;
                    if l.trim_start().starts_with(prefix) {
                        header = Some(line);
                    }
                }
                for o in &mut out[q..] {
                    *o = header;
                }
                self.0.scanned.fetch_add(read, Ordering::Relaxed);
                return out;
            }
        };
        let bytes = text.as_bytes();
        let mut header: Option<usize> = None;
        let mut q = 0usize;
        // The pass: `line` is the line of byte `at`, which starts at `line_start`; `solid`, once
        // known, is where its first character other than a blank is.
        let (mut line, mut at, mut line_start) = (1usize, 0usize, 0usize);
        let mut solid: Option<usize> = None;
        for p in memmem::find_iter(bytes, prefix.as_bytes()) {
            let between = &bytes[at..p];
            let newlines = memchr::memchr_iter(b'\n', between).count();
            if newlines > 0 {
                line += newlines;
                line_start = at + memchr::memrchr(b'\n', between).map_or(0, |i| i + 1);
                solid = None;
            }
            at = p;
            while q < queries.len() && queries[q] <= line {
                out[q] = header;
                q += 1;
            }
            if q == queries.len() {
                break;
            }
            let first = *solid.get_or_insert_with(|| {
                let lead = text.get(line_start..p).unwrap_or_default();
                line_start + lead.len() - lead.trim_start().len()
            });
            if first == p {
                header = Some(line);
            }
        }
        for o in &mut out[q..] {
            *o = header;
        }
        self.0.scanned.fetch_add(at as u64, Ordering::Relaxed);
        out
    }

    /// Bytes of the text read so far by the line index and by line lookups: about the text's
    /// length once its index is built, growing by the lines looked up (and by at most
    /// [`INDEX_BLOCK`] per lookup).
    pub fn scanned(&self) -> u64 {
        self.0.scanned.load(Ordering::Relaxed)
    }

    /// A reader of the text's bytes.
    fn source(&self) -> Source<'_> {
        match &self.0.store {
            Store::Plain(s) => Source::Plain(s),
            Store::Packed { len, chunks } => Source::Packed(Chunks {
                chunks,
                len: *len,
                loaded: None,
                buf: Vec::new(),
            }),
        }
    }

    fn index(&self) -> &Index {
        self.0.index.get_or_init(|| {
            let mut before = Vec::with_capacity(self.len() / INDEX_BLOCK + 2);
            let mut seen = 0u64;
            before.push(0);
            let mut last = None;
            let mut count = |piece: &[u8]| {
                for block in piece.chunks(INDEX_BLOCK) {
                    seen += memchr::memchr_iter(b'\n', block).count() as u64;
                    before.push(seen);
                }
                if let Some(&b) = piece.last() {
                    last = Some(b);
                }
            };
            match &self.0.store {
                Store::Plain(s) => count(s.as_bytes()),
                // (Packed texts get their index when packed; this is for completeness.)
                Store::Packed { chunks, .. } => {
                    let mut src = self.source();
                    for c in 0..chunks.len() {
                        count(src.chunk(c));
                    }
                }
            }
            self.0
                .scanned
                .fetch_add(self.len() as u64, Ordering::Relaxed);
            let open = last.is_some_and(|b| b != b'\n');
            Index {
                before,
                lines: seen as usize + usize::from(open),
            }
        })
    }
}

/// `line` without a last `\r` (its line ended with `\r\n`).
fn strip_cr(line: Cow<'_, str>) -> Cow<'_, str> {
    match line {
        Cow::Borrowed(s) => Cow::Borrowed(s.strip_suffix('\r').unwrap_or(s)),
        Cow::Owned(mut s) => {
            if s.ends_with('\r') {
                s.pop();
            }
            Cow::Owned(s)
        }
    }
}

/// Compresses one chunk with this thread's zstd context. `None`: zstd failed.
fn compress(chunk: &[u8]) -> Option<Box<[u8]>> {
    thread_local! {
        static CTX: RefCell<Option<(zstd::bulk::Compressor<'static>, Vec<u8>)>> =
            const { RefCell::new(None) };
    }
    CTX.with(|ctx| {
        let mut ctx = ctx.borrow_mut();
        if ctx.is_none() {
            let c = zstd::bulk::Compressor::new(ZSTD_LEVEL).ok()?;
            *ctx = Some((
                c,
                Vec::with_capacity(zstd::zstd_safe::compress_bound(CHUNK)),
            ));
        }
        let (c, buf) = ctx.as_mut()?;
        buf.clear();
        buf.reserve(zstd::zstd_safe::compress_bound(chunk.len()));
        c.compress_to_buffer(chunk, buf).ok()?;
        Some(Box::from(buf.as_slice()))
    })
}

/// Decompresses one chunk into `out` (cleared first) with this thread's zstd context; `false`
/// when zstd fails or the chunk is not `len` bytes long.
fn decompress(chunk: &[u8], len: usize, out: &mut Vec<u8>) -> bool {
    thread_local! {
        static CTX: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
    }
    out.clear();
    out.reserve(len);
    CTX.with(|ctx| {
        let mut ctx = ctx.borrow_mut();
        if ctx.is_none() {
            *ctx = zstd::bulk::Decompressor::new().ok();
        }
        let Some(d) = ctx.as_mut() else {
            return false;
        };
        d.decompress_to_buffer(chunk, out).ok() == Some(len)
    })
}

/// A packed text's chunks, the last one read kept decompressed.
struct Chunks<'a> {
    chunks: &'a [Box<[u8]>],
    len: usize,
    loaded: Option<usize>,
    buf: Vec<u8>,
}

/// The bytes of a text, whole or packed, for the line lookups.
enum Source<'a> {
    Plain(&'a str),
    Packed(Chunks<'a>),
}

impl<'a> Source<'a> {
    /// Chunk `c` of a packed text, decompressed (a whole text is one chunk). A chunk that does
    /// not decompress (it always does) reads as blanks, so that offsets stay right.
    fn chunk(&mut self, c: usize) -> &[u8] {
        match self {
            Source::Plain(s) => {
                if c == 0 {
                    s.as_bytes()
                } else {
                    &[]
                }
            }
            Source::Packed(p) => {
                if p.loaded != Some(c) {
                    let want = CHUNK.min(p.len.saturating_sub(c * CHUNK));
                    let ok = p
                        .chunks
                        .get(c)
                        .is_some_and(|z| decompress(z, want, &mut p.buf));
                    if !ok {
                        p.buf.clear();
                        p.buf.resize(want, b' ');
                    }
                    p.loaded = Some(c);
                }
                &p.buf
            }
        }
    }

    /// Bytes per chunk.
    fn chunk_len(&self) -> usize {
        match self {
            Source::Plain(s) => s.len().max(1),
            Source::Packed(_) => CHUNK,
        }
    }

    fn len(&self) -> usize {
        match self {
            Source::Plain(s) => s.len(),
            Source::Packed(p) => p.len,
        }
    }

    /// Offset of the newline after `skip` others at or after byte `from`, if there is one.
    fn nth_newline(&mut self, from: usize, mut skip: usize) -> Option<usize> {
        if let Source::Plain(s) = self {
            let bytes = s.as_bytes().get(from..)?;
            return memchr::memchr_iter(b'\n', bytes)
                .nth(skip)
                .map(|p| from + p);
        }
        let (size, len) = (self.chunk_len(), self.len());
        let mut at = from;
        while at < len {
            let c = at / size;
            let base = c * size;
            let part = self.chunk(c).get(at - base..).unwrap_or_default();
            for p in memchr::memchr_iter(b'\n', part) {
                if skip == 0 {
                    return Some(at + p);
                }
                skip -= 1;
            }
            at = base + size;
        }
        None
    }

    /// Bytes `start..end`.
    fn bytes(&mut self, start: usize, end: usize) -> Vec<u8> {
        let size = self.chunk_len();
        let mut out = Vec::with_capacity(end.saturating_sub(start));
        let mut at = start;
        while at < end {
            let c = at / size;
            let base = c * size;
            let chunk = self.chunk(c);
            let to = (end - base).min(chunk.len());
            match chunk.get(at - base..to) {
                Some(part) if !part.is_empty() => out.extend_from_slice(part),
                _ => break,
            }
            at = base + to;
        }
        out
    }

    /// Text `start..end` (both on line boundaries): borrowed from a whole text, copied from a
    /// packed one.
    fn slice(&mut self, start: usize, end: usize) -> Cow<'a, str> {
        if let Source::Plain(s) = self {
            let s: &'a str = s;
            return Cow::Borrowed(s.get(start..end).unwrap_or_default());
        }
        match String::from_utf8(self.bytes(start, end)) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        }
    }
}

/// The lines of a packed text, as `str::lines` gives them.
struct PackedLines<'a> {
    src: Source<'a>,
    /// Offset of the next line.
    at: usize,
}

impl<'a> Iterator for PackedLines<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        let len = self.src.len();
        if self.at >= len {
            return None;
        }
        let start = self.at;
        let end = self.src.nth_newline(start, 0);
        self.at = end.map_or(len, |e| e + 1);
        let line = self.src.slice(start, end.unwrap_or(len));
        Some(if end.is_some() { strip_cr(line) } else { line })
    }
}

/// A stretch of an entry's bytes, as decoding sees it.
enum Piece<'a> {
    /// Text kept as it is.
    Text(&'a str),
    /// `bytes` bytes (undecodable sequences or NULs), replaced by `chars` U+FFFD.
    Replaced { bytes: usize, chars: usize },
}

/// Walks `bytes` as decoding sees them, calling `f` with each piece and its offset. Undecodable
/// sequences become one U+FFFD each, as in `String::from_utf8_lossy`, and so does each NUL. A run
/// of bytes that are undecodable one by one (`0xFF` …) or of NULs is one piece, so that binary
/// data costs a pass per run rather than per byte.
fn pieces<'a>(bytes: &'a [u8], mut f: impl FnMut(usize, Piece<'a>)) {
    // Bytes that never begin or continue a sequence where they stand after an undecodable one:
    // stray continuation bytes, overlong leads and leads past U+10FFFF.
    let lone = |b: u8| matches!(b, 0x80..=0xC1 | 0xF5..=0xFF);
    let mut at = 0usize;
    while at < bytes.len() {
        let (valid, bad) = match std::str::from_utf8(&bytes[at..]) {
            Ok(s) => (s, 0),
            Err(e) => {
                let up_to = e.valid_up_to();
                let valid = std::str::from_utf8(&bytes[at..at + up_to]).unwrap_or_default();
                (valid, e.error_len().unwrap_or(bytes.len() - at - up_to))
            }
        };
        // The valid part, NULs replaced.
        let mut rest = valid;
        let mut here = at;
        while let Some(p) = memchr::memchr(0, rest.as_bytes()) {
            if p > 0 {
                f(here, Piece::Text(rest.get(..p).unwrap_or_default()));
            }
            let run = run_len(&rest.as_bytes()[p..], |b| b == 0);
            f(
                here + p,
                Piece::Replaced {
                    bytes: run,
                    chars: run,
                },
            );
            rest = rest.get(p + run..).unwrap_or_default();
            here += p + run;
        }
        if !rest.is_empty() {
            f(here, Piece::Text(rest));
        }
        at += valid.len();
        if bad == 0 {
            continue;
        }
        // The undecodable sequence, and the lone bytes after it.
        let run = run_len(&bytes[at + bad..], lone);
        f(
            at,
            Piece::Replaced {
                bytes: bad + run,
                chars: 1 + run,
            },
        );
        at += bad + run;
    }
}

/// Length of the run of bytes `is` holds for at the start of `bytes`. A run of one repeated
/// byte (a zeroed or erased region) is compared a block at a time.
fn run_len(bytes: &[u8], is: impl Fn(u8) -> bool) -> usize {
    const BLOCK: usize = 256;
    let Some(&b) = bytes.first() else {
        return 0;
    };
    if !is(b) {
        return 0;
    }
    let same = [b; BLOCK];
    let mut n = 0;
    while bytes.len() - n >= BLOCK && bytes[n..n + BLOCK] == same {
        n += BLOCK;
    }
    n + bytes[n..]
        .iter()
        .position(|&c| !is(c))
        .unwrap_or(bytes.len() - n)
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text(Arc::new(Inner {
            store: Store::Plain(text),
            ..Inner::default()
        }))
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text::from(text.to_string())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.store {
            Store::Plain(s) => fmt::Debug::fmt(s, f),
            Store::Packed { len, .. } => write!(f, "<{len} bytes of text, packed>"),
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.contents() == other.contents()
    }
}

/// Lines of an artifact by their 1-based input number, whether its whole text was kept or only
/// some lines of it.
pub struct Lines<'a> {
    text: &'a Text,
    numbers: Option<&'a [usize]>,
}

impl<'a> Lines<'a> {
    /// The lines of `text`: all of them (`numbers` `None`), or the kept input lines `numbers`
    /// (ascending), one per line of `text`.
    pub fn new(text: &'a Text, numbers: Option<&'a [usize]>) -> Lines<'a> {
        Lines { text, numbers }
    }

    /// Line `n` (1-based), if kept.
    pub fn get(&self, n: usize) -> Option<Cow<'a, str>> {
        self.get_many(&[n]).pop().flatten()
    }

    /// Lines `wanted` (1-based, ascending), each if kept, in one forward pass.
    pub fn get_many(&self, wanted: &[usize]) -> Vec<Option<Cow<'a, str>>> {
        match self.numbers {
            None => self.text.lines_at(wanted.iter().copied()),
            Some(nums) => {
                // The kept lines' places in the text; those not kept ask for line 0 (none).
                let at = wanted
                    .iter()
                    .map(|n| nums.binary_search(n).map_or(0, |i| i + 1));
                self.text.lines_at(at)
            }
        }
    }

    /// For each of `queries` (1-based, ascending), the nearest line above it whose text, without
    /// leading blanks, starts with `prefix`; one pass for all of them.
    pub fn headers_above(&self, queries: &[usize], prefix: &str) -> Vec<Option<usize>> {
        match self.numbers {
            None => self.text.headers_above(queries, prefix),
            Some(nums) => {
                // The kept line just below each query's place in the text: lines above it are
                // the kept lines above the query.
                let below: Vec<usize> = queries
                    .iter()
                    .map(|n| nums.partition_point(|k| k < n) + 1)
                    .collect();
                self.text
                    .headers_above(&below, prefix)
                    .into_iter()
                    .map(|h| h.and_then(|i| nums.get(i - 1).copied()))
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `str::lines` gives, each looked up by number, one by one and in one pass.
    /// Both whole and packed (in chunks of [`CHUNK`], padded past [`PACK_MIN`] with lines of
    /// its own when short, so that a packed text is always looked at).
    fn agrees_with_std(text: &str) {
        let padded;
        let text = if text.len() < PACK_MIN {
            padded = format!("{text}\n{}", "pad\r\n".repeat(PACK_MIN / 5));
            padded.as_str()
        } else {
            text
        };
        let std: Vec<&str> = text.lines().collect();
        for t in [Text::from(text), Text::from(text).pack()] {
            same_lines(&t, &std, text);
            assert_eq!(t.line(0), None);
            let got: Vec<Option<String>> = t
                .lines_at(1..=std.len())
                .into_iter()
                .map(|l| l.map(Cow::into_owned))
                .collect();
            let all: Vec<Option<String>> = std.iter().map(|l| Some(l.to_string())).collect();
            assert_eq!(got, all);
            let iterated: Vec<Cow<'_, str>> = t.lines().collect();
            assert_eq!(iterated, std);
            assert_eq!(t.contents(), text);
            assert_eq!(t.len(), text.len());
        }
    }

    /// Whole texts too: the lookups of a short text without padding.
    fn agrees_with_std_whole(text: &str) {
        let std: Vec<&str> = text.lines().collect();
        same_lines(&Text::from(text), &std, text);
    }

    /// `t` holds the lines `std` of `text`, one by one, and none past them.
    fn same_lines(t: &Text, std: &[&str], text: &str) {
        assert_eq!(t.line_count(), std.len(), "{text:?}");
        for (i, l) in std.iter().enumerate() {
            assert_eq!(
                t.line(i + 1).as_deref(),
                Some(*l),
                "line {} of {text:?}",
                i + 1
            );
        }
        assert_eq!(t.line(std.len() + 1), None);
    }

    #[test]
    fn lines_are_those_std_gives() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "\n\n\n",
            "x\r\r\ny",
            "é\nü\n",
        ] {
            agrees_with_std_whole(text);
            agrees_with_std(text);
        }
        // Lines across many index blocks, some longer than a block.
        let mut long = String::new();
        for i in 0..20_000 {
            long.push_str(&"x".repeat(i % 7 * (i % 5) * 200));
            long.push_str(&format!(" {i}\n"));
        }
        agrees_with_std(&long);
        agrees_with_std(&"\n".repeat(3 * INDEX_BLOCK + 5));
    }

    #[test]
    fn any_order_works() {
        let text = format!("a\nb\nc\n{}", "x\n".repeat(PACK_MIN));
        for t in [Text::from(text.as_str()), Text::from(text.as_str()).pack()] {
            let got: Vec<Option<String>> = t
                .lines_at([3, 1, 2, 2, 9, 0, 2 * PACK_MIN + 9])
                .into_iter()
                .map(|l| l.map(Cow::into_owned))
                .collect();
            let want = [
                Some("c"),
                Some("a"),
                Some("b"),
                Some("b"),
                Some("x"),
                None,
                None,
            ];
            assert_eq!(got, want.map(|w| w.map(str::to_string)));
        }
    }

    #[test]
    fn ascending_lookups_read_the_text_about_once() {
        // 100 000 lines, 20 000 of them looked up: the index's pass and one more.
        let text: String = (0..100_000).map(|i| format!("row {i:>10}\n")).collect();
        let t = Text::from(text.as_str());
        for t in [t.clone(), Text::from(text.as_str()).pack()] {
            let got = t.lines_at((1..=100_000).step_by(5));
            assert_eq!(got[1].as_deref(), Some("row          5"));
            assert!(t.scanned() <= 2 * text.len() as u64, "{}", t.scanned());
            // A lookup far down reads its block, not the text above it.
            let before = t.scanned();
            assert_eq!(t.line(99_999).as_deref(), Some("row      99998"));
            assert!(t.scanned() - before <= 2 * INDEX_BLOCK as u64);
        }
    }

    #[test]
    fn the_index_is_small_whatever_the_lines() {
        let t = Text::from("\n".repeat(1 << 20).as_str());
        assert_eq!(t.line_count(), 1 << 20);
        let ix = t.index();
        assert_eq!(ix.before.len(), (1 << 20) / INDEX_BLOCK + 1);
        assert_eq!(t.line(1 << 19).as_deref(), Some(""));
    }

    #[test]
    fn headers_above_each_query() {
        let text = "Device a\nx\n  Device b\ny\nz Device\nDevice c\nw\n";
        let t = Text::from(text);
        let long = format!("{text}{}", "w\n".repeat(PACK_MIN));
        let packed = Text::from(long.as_str()).pack();
        assert!(packed.is_packed());
        // Lines 1..=8, then a line far past the headers (under the last one).
        let want = [
            None,
            Some(1),
            Some(1),
            Some(3),
            Some(3),
            Some(3),
            Some(6),
            Some(6),
            Some(6),
        ];
        let asked = [1, 2, 3, 4, 5, 6, 7, 8, 9_999];
        assert_eq!(packed.headers_above(&asked, "Device"), want);
        assert_eq!(t.headers_above(&asked[..8], "Device"), want[..8]);
        assert_eq!(t.headers_above(&[4], "nothing"), [None]);
        // Over kept lines: input lines 10, 11, 20 and 30 kept.
        let kept = Text::from("Device\nx\nDevice\ny\n");
        let nums = [10, 11, 20, 30];
        let lines = Lines::new(&kept, Some(&nums));
        assert_eq!(
            lines.headers_above(&[5, 10, 11, 25, 31], "Device"),
            [None, None, Some(10), Some(20), Some(20)]
        );
        assert_eq!(
            lines.get_many(&[10, 12, 30]),
            [Some("Device".into()), None, Some("y".into())]
        );
    }

    #[test]
    fn decoding_agrees_with_from_utf8_lossy() {
        // Bytes drawn from a small alphabet of ASCII, NUL, lone and partial sequences.
        let alphabet: [&[u8]; 10] = [
            b"a",
            b"\n",
            b"\0",
            b"\xff",
            b"\x80",
            b"\xc0",
            b"\xe2\x82",
            b"\xe2\x82\xac",
            b"\xf0\x9f",
            b"\xc3\xa9",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..2000 {
            let mut bytes = Vec::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.extend_from_slice(alphabet[(seed % 10) as usize]);
            }
            let want = String::from_utf8_lossy(&bytes).replace('\0', "\u{FFFD}");
            let (got, line) = Text::decode(bytes.clone(), u64::MAX).unwrap();
            assert_eq!(got.contents(), want, "{bytes:?}");
            assert_eq!(line.is_some(), want.contains('\u{FFFD}'), "{bytes:?}");
            assert!(Text::decode(bytes, want.len() as u64).is_ok());
        }
    }

    #[test]
    fn decoding_replaces_bad_and_nul_bytes() {
        let (t, line) = Text::decode(b"a\nb\n\xff\xfe c\0\n".to_vec(), 100).unwrap();
        assert_eq!(t.contents(), "a\nb\n\u{fffd}\u{fffd} c\u{fffd}\n");
        assert_eq!(line, Some(3));
        let (t, line) = Text::decode(b"x\n\0y".to_vec(), 100).unwrap();
        assert_eq!((t.contents().as_ref(), line), ("x\n\u{fffd}y", Some(2)));
        let (t, line) = Text::decode(b"fine\n".to_vec(), 5).unwrap();
        assert_eq!((t.contents().as_ref(), line), ("fine\n", None));
        // Each replaced byte takes three: the decoded size is what the limit bounds.
        assert_eq!(Text::decode(vec![0xff; 4], 12).unwrap().0.len(), 12);
        assert_eq!(
            Text::decode(vec![0xff; 4], 11),
            Err(TooLong {
                decoded: 12,
                replaced: 4
            })
        );
        assert!(Text::decode(vec![0; 4], 11).is_err());
    }
    #[test]
    fn a_packed_text_is_small_and_reads_back_whole() {
        // 200 000 lines of a `pidstat`-like table: packing keeps a fraction of it.
        let text: String = (0..200_000)
            .map(|i| {
                format!(
                    "12:00:{:02} {:>6} {:>6.2} {:>6.2} java\n",
                    i % 60,
                    i % 977,
                    i as f64 / 7.0,
                    0.5
                )
            })
            .collect();
        let t = Text::from(text.as_str()).pack();
        assert!(t.is_packed());
        assert!(
            t.stored_bytes() * 4 < text.len(),
            "{} of {}",
            t.stored_bytes(),
            text.len()
        );
        assert_eq!(t.contents(), text);
        // A head cut inside a character keeps the characters whole.
        let wide = format!("{}\n", "é".repeat(CHUNK));
        let w = Text::from(wide.as_str()).pack();
        assert_eq!(w.head(5), "éé");
        assert_eq!(w.head(CHUNK + 1).len(), CHUNK);
        assert_eq!(w.head(usize::MAX), wide);
        // Short texts stay whole.
        assert!(!Text::from("short\n").pack().is_packed());
        assert!(Text::from(" \n\t\r\n".repeat(PACK_MIN).as_str())
            .pack()
            .is_blank());
        assert!(!Text::from(format!("{}x", " \n".repeat(PACK_MIN)).as_str())
            .pack()
            .is_blank());
    }
}
