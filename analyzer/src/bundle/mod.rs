//! Reading an evidence bundle: a `.tar.gz`/`.tgz`, a plain `.tar`, a `.zip`, a directory (an
//! unpacked bundle, a sosreport, or loose command outputs), or a single loose file.
//!
//! In: a path and [`Limits`]. Out: a stream of [`RawEntry`] (name + bytes, in archive order)
//! handed to a callback as soon as each is read, plus a [`ReadSummary`] listing refused entries
//! and the format. The format is chosen by magic bytes, not by the file name.
//!
//! Nothing is ever written to disk: entries are streamed into memory, and every read is bounded
//! by `take(limit + 1)` with an explicit error past the limit. Entries whose names are absolute,
//! contain `..`, or are symlinks, hardlinks, devices or sparse files are refused and listed,
//! never followed.

mod dir;
mod gzip;
mod limits;
mod names;
mod tarball;
mod zipfile;

pub use limits::{parse_size, Limits};

use parsers::kind::{StreamFn, Streamed};
use serde::Serialize;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// One file taken from a bundle.
#[derive(Debug)]
pub struct RawEntry {
    /// Path inside the bundle as stored (`/`-separated, without a leading `./`). Non-UTF-8 bytes
    /// in the name are replaced with U+FFFD.
    pub path: String,
    /// What was read: the bytes, or why they were not.
    pub content: EntryContent,
}

/// The payload of a [`RawEntry`].
#[derive(Debug)]
pub enum EntryContent {
    /// The whole entry, at most [`Limits::max_entry_bytes`] long.
    Bytes(Vec<u8>),
    /// The entry is larger than [`Limits::max_entry_bytes`]; nothing of it is kept.
    TooLarge {
        /// The limit that was exceeded, bytes.
        limit: u64,
    },
    /// Reading the entry failed part-way (corrupt or truncated archive).
    ReadError(String),
    /// A large entry of a kind that is parsed while it is read (the caller's [`StreamFor`]
    /// chose it): its text was never held whole.
    Streamed {
        /// Bytes read.
        bytes: u64,
        /// What the streaming parser made of them.
        result: Box<Streamed>,
    },
}

/// Which entries are parsed while they are read, and by what: the parser for an entry at a path,
/// if its kind has a streaming one. Given by the caller, since the bundle reader knows nothing
/// of kinds.
pub type StreamFor<'a> = &'a dyn Fn(&str) -> Option<StreamFn>;

/// Archive formats recognised by their magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// gzip-compressed tar (`1f 8b`, then a tar header).
    TarGz,
    /// gzip-compressed single file (`1f 8b` not followed by a tar header), e.g. `iostat.txt.gz`.
    Gzip,
    /// POSIX/GNU tar (`ustar` at offset 257, or a valid header checksum).
    Tar,
    /// zip (`PK\x03\x04` or an empty archive's `PK\x05\x06`).
    Zip,
    /// A directory tree.
    Directory,
    /// One loose file.
    File,
}

/// An entry that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// The entry's name as stored (lossy UTF-8, truncated to 512 characters for display).
    pub path: String,
    /// Why, e.g. "absolute path", "symbolic link to /etc", "`..` component".
    pub reason: String,
}

/// What reading the bundle produced besides the entries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReadSummary {
    /// Detected format (`None` only when the input could not be opened).
    pub format: Option<Format>,
    /// Entries refused for safety or by a limit, in archive order.
    pub refused: Vec<Refused>,
    /// Uncompressed bytes delivered to the callback.
    pub bytes_read: u64,
    /// Number of entries delivered to the callback.
    pub entries: usize,
    /// Set when reading stopped early (corrupt archive, a total limit reached); entries delivered
    /// before that are still analyzed.
    pub stopped: Option<String>,
    /// Oddities that did not stop reading (trailing bytes after a gzip stream).
    pub warnings: Vec<String>,
}

/// Errors that prevent reading the bundle at all.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The path could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The bundle path.
        path: String,
        /// The underlying error.
        source: io::Error,
    },
    /// The input is a format rca does not read.
    #[error("{0}")]
    Unsupported(String),
    /// The input holds several collector bundles (one manifest each), which would mix hosts.
    #[error(
        "this input holds {} bundles ({}): analyze each one, or compare them with `rca diff` or `rca fleet`",
        .0.len(),
        .0.join(", ")
    )]
    SeveralBundles(Vec<String>),
}

/// Reads the bundle at `path`, calling `on_entry` for every regular file in archive order.
///
/// The callback runs on the reading thread; hand the entry to other threads to parse while the
/// archive is still being decompressed. Errors: [`BundleError`] when the input cannot be opened
/// or is not a supported format. Problems inside the archive (a corrupt entry, a limit reached)
/// do not fail the read: they are recorded in [`ReadSummary`] and in the affected entries.
pub fn read(
    path: &Path,
    limits: &Limits,
    stream_for: StreamFor<'_>,
    mut on_entry: impl FnMut(RawEntry),
) -> Result<ReadSummary, BundleError> {
    let io_err = |source| BundleError::Io {
        path: path.display().to_string(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io_err)?;
    if !meta.is_dir() && !meta.is_file() {
        return Err(BundleError::Unsupported(format!(
            "{} is neither a regular file nor a directory (a device, FIFO or socket): copy the \
             bundle to a file first",
            path.display()
        )));
    }
    let mut summary = ReadSummary::default();
    let mut seen = std::collections::HashSet::new();
    let mut deliver = |e: RawEntry, s: &mut ReadSummary| {
        // Later entries with a name already read would make two artifacts with one path (tar
        // lets a later copy replace an earlier one); the first is analyzed, later ones listed.
        if !seen.insert(e.path.clone()) {
            s.refused.push(Refused {
                path: names::display(e.path.as_bytes()),
                reason: "duplicate name: an earlier entry with this name was analyzed".into(),
            });
            return;
        }
        match &e.content {
            EntryContent::Bytes(b) => s.bytes_read += b.len() as u64,
            EntryContent::Streamed { bytes, .. } => s.bytes_read += *bytes,
            _ => {}
        }
        s.entries += 1;
        on_entry(e)
    };
    if meta.is_dir() {
        summary.format = Some(Format::Directory);
        dir::read(path, limits, stream_for, &mut summary, &mut deliver);
        return Ok(summary);
    }
    let mut file = File::open(path).map_err(io_err)?;
    let mut magic = [0u8; 512];
    let n = read_up_to(&mut file, &mut magic).map_err(io_err)?;
    let magic = &magic[..n];
    let rewind = io::Cursor::new(magic.to_vec()).chain(file);
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match sniff_format(magic) {
        Some(Format::Zip) => {
            summary.format = Some(Format::Zip);
            let file = File::open(path).map_err(io_err)?;
            zipfile::read(file, limits, stream_for, &mut summary, &mut deliver);
        }
        Some(Format::TarGz) | Some(Format::Gzip) => {
            let counted = limits::CountingReader::new(rewind);
            let compressed = counted.counter();
            let members = gzip::Members::new(io::BufReader::with_capacity(256 * 1024, counted));
            let trailing = members.trailing_flag();
            let mut gz = io::BufReader::with_capacity(256 * 1024, members);
            let mut head = [0u8; 512];
            let n = match read_up_to(&mut gz, &mut head) {
                Ok(n) => n,
                Err(e) => {
                    summary.format = Some(Format::Gzip);
                    summary.stopped = Some(format!("gzip stream is corrupt or truncated: {e}"));
                    return Ok(summary);
                }
            };
            let inner = io::Cursor::new(head[..n].to_vec()).chain(gz);
            if n == 512 && tarball::looks_like_tar(&head) {
                summary.format = Some(Format::TarGz);
                tarball::read(
                    inner,
                    Some(compressed),
                    limits,
                    stream_for,
                    &mut summary,
                    &mut deliver,
                );
            } else {
                summary.format = Some(Format::Gzip);
                let name = file_name
                    .strip_suffix(".gz")
                    .unwrap_or(&file_name)
                    .to_string();
                let content = limits::read_bounded(
                    inner,
                    limits.max_entry_bytes,
                    0,
                    Some(limits::RatioCheck {
                        compressed: &compressed,
                        limits,
                        before: 0,
                    }),
                );
                deliver(
                    RawEntry {
                        path: name,
                        content,
                    },
                    &mut summary,
                );
            }
            if trailing.get() {
                summary.warnings.push(
                    "bytes after the end of the gzip data were ignored (padding or garbage appended to the file)".into(),
                );
            }
        }
        Some(Format::Tar) => {
            summary.format = Some(Format::Tar);
            tarball::read(rewind, None, limits, stream_for, &mut summary, &mut deliver);
        }
        _ if is_unsupported_compression(magic).is_some() => {
            return Err(BundleError::Unsupported(format!(
                "{} is {}-compressed, which rca does not read yet: decompress it first (e.g. `{}`) \
                 and pass the resulting .tar",
                path.display(),
                is_unsupported_compression(magic).unwrap_or_default(),
                match is_unsupported_compression(magic) {
                    Some("xz") => "xz -dk FILE",
                    Some("bzip2") => "bzip2 -dk FILE",
                    _ => "zstd -d FILE",
                }
            )));
        }
        _ => {
            summary.format = Some(Format::File);
            let content = limits::read_bounded(rewind, limits.max_entry_bytes, meta.len(), None);
            deliver(
                RawEntry {
                    path: file_name,
                    content,
                },
                &mut summary,
            );
        }
    }
    Ok(summary)
}

impl Format {
    /// The name used in the JSON document and the report (`tar-gz`).
    pub fn label(self) -> &'static str {
        match self {
            Format::TarGz => "tar-gz",
            Format::Gzip => "gzip",
            Format::Tar => "tar",
            Format::Zip => "zip",
            Format::Directory => "directory",
            Format::File => "file",
        }
    }
}

/// Recognises an archive format from its first bytes (up to 512).
pub fn sniff_format(magic: &[u8]) -> Option<Format> {
    if magic.starts_with(&[0x1f, 0x8b]) {
        Some(Format::TarGz)
    } else if magic.starts_with(b"PK\x03\x04") || magic.starts_with(b"PK\x05\x06") {
        Some(Format::Zip)
    } else if magic.len() == 512
        && (tarball::looks_like_tar(magic) || magic.iter().all(|&b| b == 0))
    {
        // An all-zero first block is a tar end-of-archive marker: an empty tar.
        Some(Format::Tar)
    } else {
        None
    }
}

fn is_unsupported_compression(magic: &[u8]) -> Option<&'static str> {
    if magic.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Some("xz")
    } else if magic.starts_with(b"BZh") && magic.len() > 3 && magic[3].is_ascii_digit() {
        Some("bzip2")
    } else if magic.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Some("zstd")
    } else {
        None
    }
}

/// Reads until `buf` is full or the reader is exhausted; returns the count.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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
