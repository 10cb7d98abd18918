//! The four compressions rca removes, recognised by their magic bytes: gzip (RFC 1952), xz
//! (the `.xz` file format of XZ Utils), zstd (RFC 8878) and bzip2. One decoder type,
//! [`Members`], serves the whole input (a `.tar.xz`, a single `.gz` file) and the compressed
//! members inside a bundle (a rotated `messages-20240101.gz`).
//!
//! Decoding behaves like the tools' own `-d`: every gzip member, xz stream or bzip2 stream of a
//! concatenated file is read, xz stream padding (NUL bytes) is skipped, and other bytes after the
//! last member are ignored with a warning instead of failing; zstd frames (skippable ones
//! included) are followed by the zstd decoder itself. Errors name the compression and say
//! whether the data is truncated or corrupt.
//!
//! Memory is bounded by the decoders: xz by [`XZ_MEMORY_LIMIT`] (a larger dictionary is an error
//! with that reason), zstd by its default window limit (128 MiB; a frame written with
//! `zstd --long=31` is refused with a hint), bzip2 and gzip by their formats (900 kB blocks, 32
//! kB windows). Output is bounded by the callers ([`super::limits`]).

use super::limits::{self, describe_io, described, read_up_to, Inflating, Meter};
use super::EntryContent;
use parsers::kind::StreamFn;
use serde::Serialize;
use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

/// A compression removed while reading: of the whole input, or of one member of a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// gzip: `1f 8b 08` (deflate).
    Gzip,
    /// xz: `fd 37 7a 58 5a 00` (`\xfd7zXZ\0`).
    Xz,
    /// zstd: `28 b5 2f fd`.
    Zstd,
    /// bzip2: `BZh` and a block size digit `1`–`9`, then a block (`31 41 59 26 53 59`) or the
    /// end of the stream (`17 72 45 38 50 90`).
    Bzip2,
}

/// Largest memory the xz decoder may use, bytes (1 GiB). xz's own presets need at most 65 MiB to
/// decompress (`xz -9`); past this a header claiming a huge dictionary is an error, not an
/// allocation.
pub const XZ_MEMORY_LIMIT: u64 = 1 << 30;

/// Bytes of a member read before deciding whether it holds an archive (enough for one whole
/// bzip2 block, the largest unit any of the four decoders needs before its first output).
const PEEK_RAW: u64 = 1 << 20;

impl Compression {
    /// The compression whose magic bytes `b` starts with (at least 10 bytes are needed to
    /// recognise bzip2).
    pub fn sniff(b: &[u8]) -> Option<Compression> {
        if b.starts_with(&[0x1f, 0x8b, 0x08]) {
            Some(Compression::Gzip)
        } else if b.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else if b.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if b.len() >= 10
            && b.starts_with(b"BZh")
            && (b'1'..=b'9').contains(&b[3])
            && (b[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
                || b[4..10] == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
        {
            Some(Compression::Bzip2)
        } else {
            None
        }
    }

    /// The name used in messages and the JSON document (`gzip`, `xz`, `zstd`, `bzip2`).
    pub fn label(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// File-name suffixes this compression is usually given (only used to name the file inside
    /// a single compressed file: `iostat.txt.xz` holds `iostat.txt`).
    pub fn suffixes(self) -> &'static [&'static str] {
        match self {
            Compression::Gzip => &[".gz"],
            Compression::Xz => &[".xz"],
            Compression::Zstd => &[".zst", ".zstd"],
            Compression::Bzip2 => &[".bz2"],
        }
    }

    /// True when `b` (what follows a complete member) starts another member.
    fn starts_member(self, b: &[u8]) -> bool {
        match self {
            Compression::Gzip => b.starts_with(&[0x1f, 0x8b]),
            Compression::Xz => b.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]),
            Compression::Zstd => false,
            Compression::Bzip2 => b.starts_with(b"BZh"),
        }
    }
}

/// One member's decoder.
enum Dec<R: BufRead> {
    Gzip(flate2::bufread::GzDecoder<R>),
    Xz(liblzma::bufread::XzDecoder<R>),
    Zstd(zstd::stream::read::Decoder<'static, R>),
    Bzip2(bzip2::bufread::BzDecoder<R>),
}

impl<R: BufRead> Dec<R> {
    fn new(c: Compression, r: R, threads: u32) -> io::Result<Self> {
        Ok(match c {
            Compression::Gzip => Dec::Gzip(flate2::bufread::GzDecoder::new(r)),
            Compression::Xz => {
                let stream = if threads > 1 {
                    // liblzma decodes the blocks of a multi-block stream (`xz -T0`) in parallel
                    // when their sizes are in the block headers, and falls back to one thread
                    // for a single-block stream.
                    liblzma::stream::MtStreamBuilder::new()
                        .threads(threads)
                        .memlimit_threading(XZ_MEMORY_LIMIT)
                        .memlimit_stop(XZ_MEMORY_LIMIT)
                        .decoder()
                } else {
                    liblzma::stream::Stream::new_stream_decoder(XZ_MEMORY_LIMIT, 0)
                }
                .map_err(io::Error::from)?;
                Dec::Xz(liblzma::bufread::XzDecoder::new_stream(r, stream))
            }
            Compression::Zstd => Dec::Zstd(zstd::stream::read::Decoder::with_buffer(r)?),
            Compression::Bzip2 => Dec::Bzip2(bzip2::bufread::BzDecoder::new(r)),
        })
    }

    fn into_inner(self) -> R {
        match self {
            Dec::Gzip(d) => d.into_inner(),
            Dec::Xz(d) => d.into_inner(),
            Dec::Zstd(d) => d.into_inner(),
            Dec::Bzip2(d) => d.into_inner(),
        }
    }
}

impl<R: BufRead> Read for Dec<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Dec::Gzip(d) => d.read(buf),
            Dec::Xz(d) => d.read(buf),
            Dec::Zstd(d) => d.read(buf),
            Dec::Bzip2(d) => d.read(buf),
        }
    }
}

/// The longest magic [`Compression::starts_member`] looks at (xz's six bytes).
const MAGIC_LEN: usize = 6;

/// A buffered reader with the few bytes read ahead to recognise the next member put back in
/// front of it. A member can end anywhere in the inner reader's buffer, where `fill_buf` may
/// return a single byte; the magic is therefore read whole with [`read_up_to`], then handed back
/// to the next member's decoder from here.
struct Rewound<R> {
    head: [u8; MAGIC_LEN],
    pos: usize,
    len: usize,
    inner: R,
}

impl<R: BufRead> Rewound<R> {
    fn new(inner: R) -> Self {
        Rewound {
            head: [0; MAGIC_LEN],
            pos: 0,
            len: 0,
            inner,
        }
    }

    /// Reads up to [`MAGIC_LEN`] bytes (fewer only at the end of the input) and puts them back:
    /// the bytes that follow a complete member, to be matched against a member's magic.
    fn peek_magic(mut self) -> io::Result<Self> {
        let mut head = [0u8; MAGIC_LEN];
        let len = read_up_to(&mut self, &mut head)?;
        Ok(Rewound {
            head,
            pos: 0,
            len,
            inner: self.inner,
        })
    }

    fn peeked(&self) -> &[u8] {
        &self.head[self.pos..self.len]
    }
}

impl<R: BufRead> Read for Rewound<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos < self.len {
            let n = buf.len().min(self.len - self.pos);
            buf[..n].copy_from_slice(&self.head[self.pos..self.pos + n]);
            self.pos += n;
            return Ok(n);
        }
        self.inner.read(buf)
    }
}

impl<R: BufRead> BufRead for Rewound<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.len {
            return Ok(&self.head[self.pos..self.len]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if self.pos < self.len {
            self.pos = (self.pos + amt).min(self.len);
        } else {
            self.inner.consume(amt);
        }
    }
}

/// Decodes the members of a compressed stream one after the other (see the module docs).
pub struct Members<R: BufRead> {
    c: Compression,
    dec: Option<Dec<Rewound<R>>>,
    threads: u32,
    trailing: Rc<Cell<bool>>,
    failed: Option<io::ErrorKind>,
}

impl<R: BufRead> Members<R> {
    /// Starts at the first member. `threads` above 1 lets xz decode blocks in parallel.
    pub fn new(c: Compression, r: R, threads: u32) -> Self {
        let (dec, failed) = match Dec::new(c, Rewound::new(r), threads) {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(e.kind())),
        };
        Members {
            c,
            dec,
            threads,
            trailing: Rc::new(Cell::new(false)),
            failed,
        }
    }

    /// Set once bytes that are not a member were found after the last member.
    pub fn trailing_flag(&self) -> Rc<Cell<bool>> {
        self.trailing.clone()
    }

    /// The error every read returns once decoding failed, in the report's words.
    fn error(&self, kind: io::ErrorKind, e: Option<&io::Error>) -> io::Error {
        let name = self.c.label();
        let why = match (kind, e) {
            (io::ErrorKind::UnexpectedEof, _) => {
                format!("the {name} data ends early: the file is truncated")
            }
            (_, Some(e)) => {
                let text = describe_io(e);
                let hint = if text.contains("memory limit") {
                    format!(
                        " (the data needs more than {} to decode: it was compressed with an \
                         unusually large dictionary)",
                        limits::human_bytes(XZ_MEMORY_LIMIT)
                    )
                } else if text.contains("too much memory") {
                    " (a window over 128 MiB, as `zstd --long=31` writes: decompress it with \
                     `zstd -d --long=31` first)"
                        .to_string()
                } else {
                    String::new()
                };
                format!("the {name} data is corrupt: {text}{hint}")
            }
            (_, None) => format!("the {name} data could not be decoded"),
        };
        described(kind, why)
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(kind) = self.failed {
            return Err(self.error(kind, None));
        }
        loop {
            let Some(d) = self.dec.as_mut() else {
                return Ok(0);
            };
            let n = match d.read(buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
                Err(e) => {
                    self.failed = Some(e.kind());
                    return Err(self.error(e.kind(), Some(&e)));
                }
            };
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // This member is complete: another one, padding, trailing bytes, or the end.
            let inner = match self.dec.take() {
                Some(d) => d.into_inner(),
                None => return Ok(0),
            };
            let inner = match self.next_member(inner) {
                Ok(Some(inner)) => inner,
                Ok(None) => return Ok(0),
                Err(e) => {
                    self.failed = Some(e.kind());
                    return Err(self.error(e.kind(), Some(&e)));
                }
            };
            match Dec::new(self.c, inner, self.threads) {
                Ok(d) => self.dec = Some(d),
                Err(e) => {
                    self.failed = Some(e.kind());
                    return Err(self.error(e.kind(), Some(&e)));
                }
            }
        }
    }
}

impl<R: BufRead> Members<R> {
    /// What follows a complete member: the input positioned at the next member, or `None` at
    /// the end (or before trailing bytes that are no member, which sets the trailing flag).
    fn next_member(&mut self, mut inner: Rewound<R>) -> io::Result<Option<Rewound<R>>> {
        if self.c == Compression::Xz {
            // Stream padding: NUL bytes between and after xz streams.
            loop {
                let rest = inner.fill_buf()?;
                let zeros = rest.iter().take_while(|&&b| b == 0).count();
                if zeros == 0 {
                    break;
                }
                inner.consume(zeros);
            }
        }
        let inner = inner.peek_magic()?;
        let rest = inner.peeked();
        if rest.is_empty() {
            return Ok(None);
        }
        if self.c.starts_member(rest) {
            return Ok(Some(inner));
        }
        self.trailing.set(true);
        Ok(None)
    }
}

/// The first `n` bytes (at most) that the compressed `prefix` decodes to: fewer when the prefix
/// ends or fails first.
pub fn decode_head(c: Compression, prefix: &[u8], n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    let mut m = Members::new(c, prefix, 1);
    let mut got = 0;
    while got < n {
        match m.read(&mut out[got..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => got += k,
        }
    }
    out.truncate(got);
    out
}

/// Reads one member of a bundle (a tar or zip entry, a file of a folder) from `r`: when its
/// content starts with the magic bytes of a [`Compression`], the decompressed content, counted by
/// `meter`, and the compression removed; else the content as it is.
///
/// The bounds are those of [`limits::read_entry`] and apply to the decompressed bytes. A member
/// whose decompressed start is a tar header is an archive inside the bundle: it is read as stored
/// (compressed) and not unpacked, like any other archive inside a bundle. A member whose
/// compressed data is corrupt is a [`EntryContent::ReadError`] naming the compression; reading
/// of the bundle goes on unless `meter` says otherwise. A member cut by the total size limit
/// of `meter` (every decoder's output counts) is [`EntryContent::TooLarge`].
pub fn read_member(
    mut r: impl Read,
    stream: Option<StreamFn>,
    bounds: (u64, u64),
    size_hint: u64,
    meter: &Meter,
) -> (EntryContent, Option<Compression>) {
    let mut head = [0u8; 16];
    let (content, compression) = 'read: {
        let n = match read_up_to(&mut r, &mut head) {
            Ok(n) => n,
            Err(e) => break 'read (EntryContent::ReadError(describe_io(&e)), None),
        };
        let Some(c) = Compression::sniff(&head[..n]) else {
            let all = io::Cursor::new(head[..n].to_vec()).chain(r);
            break 'read (limits::read_entry(stream, all, bounds, size_hint), None);
        };
        let mut prefix = head[..n].to_vec();
        if let Err(e) = (&mut r).take(PEEK_RAW).read_to_end(&mut prefix) {
            break 'read (EntryContent::ReadError(describe_io(&e)), None);
        }
        let inner = decode_head(c, &prefix, 512);
        let raw = io::Cursor::new(prefix).chain(r);
        if inner.len() == 512 && super::sniff::looks_like_tar(&inner) {
            break 'read (limits::read_entry(stream, raw, bounds, size_hint), None);
        }
        let members = Members::new(c, BufReader::with_capacity(64 << 10, raw), 1);
        let decoded = Inflating::new(members, meter.clone(), false);
        (
            limits::read_entry(stream, decoded, bounds, size_hint),
            Some(c),
        )
    };
    (meter.cut_by_total(content), compression)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn xz(data: &[u8]) -> Vec<u8> {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn bz2(data: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn decode(c: Compression, data: &[u8]) -> (io::Result<String>, bool) {
        let mut m = Members::new(c, data, 2);
        let flag = m.trailing_flag();
        let mut out = String::new();
        let r = m.read_to_string(&mut out).map(|_| out);
        (r, flag.get())
    }

    #[test]
    fn members_and_trailing_bytes() {
        for (c, enc) in [
            (Compression::Gzip, gz as fn(&[u8]) -> Vec<u8>),
            (Compression::Xz, xz),
            (Compression::Bzip2, bz2),
        ] {
            let mut two = enc(b"hello ");
            two.extend(enc(b"world"));
            assert_eq!(decode(c, &two).0.unwrap(), "hello world", "{c:?}");

            let mut garbage = enc(b"data");
            garbage.extend(b"not a member");
            let (out, trailing) = decode(c, &garbage);
            assert_eq!(out.unwrap(), "data", "{c:?}");
            assert!(trailing, "{c:?}");

            let cut = enc(b"0123456789abcdef0123456789");
            let err = decode(c, &cut[..cut.len() - 6]).0.unwrap_err();
            assert_eq!(
                describe_io(&err),
                format!("the {} data ends early: the file is truncated", c.label())
            );
        }
        // xz stream padding is part of the format, not trailing bytes.
        let mut padded = xz(b"data");
        padded.extend([0u8; 8]);
        let (out, trailing) = decode(Compression::Xz, &padded);
        assert_eq!(out.unwrap(), "data");
        assert!(!trailing);
        // gzip has no padding: NUL bytes after it are noted.
        let mut padded = gz(b"data");
        padded.extend([0u8; 1000]);
        let (out, trailing) = decode(Compression::Gzip, &padded);
        assert_eq!(out.unwrap(), "data");
        assert!(trailing);
    }

    #[test]
    fn a_member_ending_anywhere_in_the_read_buffer_is_followed() {
        // The input is read through a buffer of every capacity from 1 to past the first
        // member's length, so that the first member ends at every position in it, one byte
        // before the buffer's end included (where `fill_buf` holds a single byte of the next
        // member's magic).
        for (c, enc) in [
            (Compression::Gzip, gz as fn(&[u8]) -> Vec<u8>),
            (Compression::Xz, xz),
            (Compression::Bzip2, bz2),
        ] {
            let first = enc(b"hello ");
            let mut two = first.clone();
            two.extend(enc(b"world"));
            for cap in 1..first.len() + 8 {
                let mut m = Members::new(c, BufReader::with_capacity(cap, &two[..]), 1);
                let flag = m.trailing_flag();
                let mut out = String::new();
                m.read_to_string(&mut out).unwrap();
                assert_eq!(out, "hello world", "{c:?}, buffer of {cap}");
                assert!(!flag.get(), "{c:?}, buffer of {cap}");
            }
            // Trailing bytes shorter than a magic are still noticed.
            let mut short = first.clone();
            short.push(0x1f);
            let mut m = Members::new(c, BufReader::with_capacity(first.len() + 1, &short[..]), 1);
            let flag = m.trailing_flag();
            let mut out = String::new();
            m.read_to_string(&mut out).unwrap();
            assert_eq!(out, "hello ");
            assert!(flag.get(), "{c:?}");
        }
    }

    #[test]
    fn zstd_frames_and_errors() {
        let mut two = zstd::encode_all(&b"hello "[..], 1).unwrap();
        two.extend(zstd::encode_all(&b"world"[..], 1).unwrap());
        assert_eq!(decode(Compression::Zstd, &two).0.unwrap(), "hello world");
        let one = zstd::encode_all(&b"0123456789abcdef0123456789"[..], 1).unwrap();
        let err = decode(Compression::Zstd, &one[..one.len() - 4])
            .0
            .unwrap_err();
        assert!(describe_io(&err).starts_with("the zstd data"), "{err}");
    }

    #[test]
    fn sniffing_needs_the_whole_magic() {
        assert_eq!(Compression::sniff(&gz(b"x")), Some(Compression::Gzip));
        assert_eq!(Compression::sniff(&xz(b"x")), Some(Compression::Xz));
        assert_eq!(Compression::sniff(&bz2(b"x")), Some(Compression::Bzip2));
        assert_eq!(Compression::sniff(&bz2(b"")), Some(Compression::Bzip2));
        assert_eq!(
            Compression::sniff(&zstd::encode_all(&b"x"[..], 1).unwrap()),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::sniff(b"BZh9 is how this line starts"), None);
        assert_eq!(Compression::sniff(b"\x1f\x8b"), None);
        assert_eq!(Compression::sniff(b"\xfd7zX"), None);
    }
}
