//! Reading an evidence bundle: a tar compressed with gzip, xz, zstd or bzip2 (`.tar.gz`,
//! `.tar.xz`/`.txz` as `sos report` and SUSE supportconfig write them, `.tar.zst`, `.tar.bz2`), a
//! plain `.tar`, a `.zip`, a directory (an unpacked bundle, a sosreport, loose command outputs,
//! or a folder holding one bundle archive), a single compressed file, or a single loose file.
//!
//! In: a path and [`Limits`]. Out: a stream of [`RawEntry`] (name + content, in archive order)
//! handed to a callback as soon as each is read, plus a [`ReadSummary`] listing refused entries,
//! the format and why reading stopped early, if it did. Formats and compressions are chosen by
//! magic bytes ([`sniff_file`], [`Compression::sniff`]), never by the file name.
//!
//! - **Compression.** One decoder path ([`Compression`]) serves the whole input and the members
//!   of a bundle: a member whose content starts with gzip, xz, zstd or bzip2 magic (a rotated
//!   `messages-20240101.gz`, an OSWatcher `*.dat.gz`) is delivered decompressed under its own
//!   path, with [`RawEntry::compression`] saying what was removed. A member that decompresses to
//!   a tar is an archive inside the bundle: delivered as stored, not unpacked. xz's
//!   multi-threaded decoder decodes the blocks of a multi-block stream (`xz -T0`) in parallel.
//! - **Limits.** Every read is bounded by `take(limit + 1)` with an explicit error past the
//!   limit: per entry, in total (decompressed members count), in entries. Every byte any decoder
//!   produced (kept, skipped or failed) counts against the total too, and the compression-ratio
//!   alarm compares it with the compressed bytes of the input, each counted once. Zip entries
//!   whose bytes overlap are refused before anything is inflated (the overlapping-entry bomb).
//! - **Partial input.** A truncated or corrupt stream stops reading with the reason, and what
//!   was read before, in [`ReadSummary::stopped`]; entries delivered before are kept. A tar
//!   without its end-of-archive marker (cut at a block boundary, or between two compressed
//!   members) and an entry whose data ends early are truncation too. The end of a compressed tar
//!   is decompressed, so that the stream's integrity check is verified.
//! - **Names and links.** Entries whose names are absolute or contain `..`, devices, FIFOs and
//!   sparse files are refused and listed. A symbolic link (tar, zip's unix mode, a folder's) or
//!   a tar hard link whose target stays inside the bundle's tree is delivered as
//!   [`EntryContent::Link`] with the target's normalised bundle path; one whose target is
//!   absolute or climbs above the root is refused, the reason saying where it leads. The root is
//!   the folder given, or the archive's root (a top folder that every entry shares is inside
//!   it). Links are resolved by name only: nothing is ever followed on disk.
//!
//! Nothing is ever written to disk: entries are streamed into memory.

mod compress;
mod dir;
mod limits;
mod names;
mod sniff;
mod tarball;
mod zipfile;

pub use compress::{Compression, XZ_MEMORY_LIMIT};
pub use dir::single_archive;
pub use limits::{parse_size, Limits};

use compress::Members;
use limits::read_up_to;
use limits::{Inflating, Meter};
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
    /// The compression removed from this entry's content: a compressed member of the bundle
    /// (`messages-20240101.gz`, delivered decompressed under its own name), or the whole input
    /// when it is a single compressed file. `None` when the content is as stored.
    pub compression: Option<Compression>,
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
    /// A large entry whose streaming parser panicked (a defect in rca), caught without printing.
    StreamPanicked {
        /// Bytes read before the panic.
        bytes: u64,
        /// Where it panicked and its cleaned message.
        caught: crate::console::Caught,
    },
    /// A symbolic link (or a tar hard link) whose target stays inside the bundle's tree. Nothing
    /// was followed: resolving the target among the bundle's entries (chains, loops, dangling
    /// targets) is the caller's.
    Link {
        /// The target's bundle path: `/`-separated, normalised (no `.` or `..`, no leading `/`),
        /// resolved from the link's folder (from the root for a tar hard link).
        target: String,
    },
}

/// Which entries are parsed while they are read, and by what: the parser for an entry at a path,
/// if its kind has a streaming one. Given by the caller, since the bundle reader knows nothing
/// of kinds.
pub type StreamFor<'a> = &'a dyn Fn(&str) -> Option<StreamFn>;

/// Input formats recognised by their magic bytes (see [`Compression`] for the compressions').
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// gzip-compressed tar (gzip magic, then a tar header once decompressed).
    TarGz,
    /// xz-compressed tar: `sos report`'s default and SUSE supportconfig's.
    TarXz,
    /// zstd-compressed tar.
    TarZst,
    /// bzip2-compressed tar.
    TarBz2,
    /// gzip-compressed single file (no tar header inside), e.g. `iostat.txt.gz`.
    Gzip,
    /// xz-compressed single file.
    Xz,
    /// zstd-compressed single file.
    Zstd,
    /// bzip2-compressed single file.
    Bzip2,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    /// Compressed bytes of the input taken into account by the ratio alarm, each counted once
    /// (0 when nothing was decompressed).
    pub bytes_input: u64,
    /// Bytes produced by every decoder (the input's, its compressed members', zip entries'),
    /// whether kept, skipped or lost to an error: what the ratio alarm and the total size limit
    /// bounded.
    pub bytes_decoded: u64,
    /// Data of entries that were not read (refused entries, links and directories that carry
    /// data), which still had to be read or decompressed to reach the next entry.
    pub bytes_skipped: u64,
    /// Set when reading stopped early (a truncated or corrupt archive, a limit reached): the
    /// input was read only in part. It ends by saying how much was read before; entries
    /// delivered before that are still analyzed.
    pub stopped: Option<String>,
    /// Oddities that did not stop reading (trailing bytes after a gzip stream), and how the
    /// input was taken (a folder holding one archive is read as that archive).
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

/// Reads the bundle at `path`, calling `on_entry` for every regular file and every link that
/// stays inside the tree, in archive order (sorted path order for a folder).
///
/// The callback runs on the reading thread; hand the entry to other threads to parse while the
/// archive is still being decompressed. Errors: [`BundleError`] when the input cannot be opened
/// or is not a file or folder. Problems inside the archive (a corrupt entry, a limit reached) do
/// not fail the read: they are recorded in [`ReadSummary`] and in the affected entries.
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
        let bytes = match &e.content {
            EntryContent::Bytes(b) => b.len() as u64,
            EntryContent::Streamed { bytes, .. } | EntryContent::StreamPanicked { bytes, .. } => {
                *bytes
            }
            _ => 0,
        };
        s.bytes_read += bytes;
        s.entries += 1;
        // What the progress bar shows: one addition per entry.
        crate::console::READ.entry(bytes);
        on_entry(e)
    };
    let meter = Meter::new(limits);
    let ctx = Ctx {
        limits,
        stream_for,
        meter: &meter,
    };
    let result = read_input(path, meta.is_dir(), &ctx, &mut summary, &mut deliver);
    summary.bytes_input = meter.input_bytes();
    summary.bytes_decoded = meter.decoded_bytes();
    if summary.bytes_skipped > 0 {
        summary.warnings.push(format!(
            "{} of data in entries that were not read (refused entries, links or directories \
             carrying data) had to be {} to be skipped",
            limits::human_bytes(summary.bytes_skipped),
            match summary.format {
                Some(Format::TarGz | Format::TarXz | Format::TarZst | Format::TarBz2) => {
                    "decompressed"
                }
                _ => "read",
            }
        ));
    }
    if let Some(why) = &mut summary.stopped {
        why.push_str(&format!(
            "; read before that: {} entries, {}",
            summary.entries,
            limits::human_bytes(summary.bytes_read)
        ));
    }
    result.map(|()| summary)
}

/// Reads the input at `path` (a folder when `is_dir`) into `summary` and `deliver`.
fn read_input(
    path: &Path,
    is_dir: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) -> Result<(), BundleError> {
    let io_err = |source| BundleError::Io {
        path: path.display().to_string(),
        source,
    };
    if is_dir {
        if let Some((archive, side_files)) = dir::single_archive(path) {
            summary.warnings.push(format!(
                "the folder holds one bundle archive, `{}`{}: it was read as that archive",
                names::display(
                    archive
                        .file_name()
                        .map(|n| n.as_encoded_bytes())
                        .unwrap_or_default()
                ),
                if side_files > 0 {
                    " beside its checksum file(s), which were not checked"
                } else {
                    ""
                }
            ));
            let io_err = |source| BundleError::Io {
                path: archive.display().to_string(),
                source,
            };
            return read_file(&archive, ctx, summary, deliver).map_err(io_err);
        }
        summary.format = Some(Format::Directory);
        dir::read(path, ctx, summary, deliver);
        return Ok(());
    }
    read_file(path, ctx, summary, deliver).map_err(io_err)
}

/// What every reader is given besides the input.
pub(crate) struct Ctx<'a> {
    limits: &'a Limits,
    stream_for: StreamFor<'a>,
    meter: &'a Meter,
}

/// The delivery of one entry (checks duplicates and counts).
type Deliver<'a> = dyn FnMut(RawEntry, &mut ReadSummary) + 'a;

/// Reads one input file: an archive, a compressed file, or a loose file.
fn read_file(
    path: &Path,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) -> io::Result<()> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut magic = [0u8; 512];
    let n = read_up_to(&mut file, &mut magic)?;
    let magic = &magic[..n];
    let rewind = io::Cursor::new(magic.to_vec()).chain(file);
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if sniff::is_zip(magic) {
        summary.format = Some(Format::Zip);
        zipfile::read(path, File::open(path)?, ctx, summary, deliver);
    } else if sniff::is_tar(magic) {
        summary.format = Some(Format::Tar);
        let counted = limits::CountingReader::sharing(rewind, ctx.meter.input());
        tarball::read(counted, false, ctx, summary, deliver);
    } else if let Some(c) = Compression::sniff(magic) {
        read_compressed(c, rewind, &file_name, ctx, summary, deliver);
    } else {
        summary.format = Some(Format::File);
        let content = limits::read_bounded(rewind, ctx.limits.max_entry_bytes, len);
        deliver(
            RawEntry {
                path: file_name,
                content,
                compression: None,
            },
            summary,
        );
    }
    Ok(())
}

/// Reads a compressed input: a compressed tar, or a single compressed file named after the input
/// without its compression's suffix.
fn read_compressed(
    c: Compression,
    input: impl Read,
    file_name: &str,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
    let counted = limits::CountingReader::sharing(input, ctx.meter.input());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(16) as u32);
    let members = Members::new(
        c,
        io::BufReader::with_capacity(256 * 1024, counted),
        threads,
    );
    let trailing = members.trailing_flag();
    let inflating = Inflating::new(members, ctx.meter.clone(), true);
    let mut data = io::BufReader::with_capacity(256 * 1024, inflating);
    let mut head = [0u8; 512];
    let n = match read_up_to(&mut data, &mut head) {
        Ok(n) => n,
        Err(e) => {
            summary.format = Some(Format::single(c));
            summary.stopped = Some(limits::describe_io(&e));
            return;
        }
    };
    let inner = io::Cursor::new(head[..n].to_vec()).chain(data);
    if n == 512 && sniff::looks_like_tar(&head) {
        summary.format = Some(Format::tar(c));
        tarball::read(inner, true, ctx, summary, deliver);
    } else {
        summary.format = Some(Format::single(c));
        let name = c
            .suffixes()
            .iter()
            .find_map(|s| file_name.strip_suffix(s))
            .filter(|n| !n.is_empty())
            .unwrap_or(file_name)
            .to_string();
        let content =
            ctx.meter
                .cut_by_total(limits::read_bounded(inner, ctx.limits.max_entry_bytes, 0));
        if let Some(why) = ctx.meter.stop() {
            summary.stopped = Some(why);
        } else if let EntryContent::ReadError(e) = &content {
            summary.stopped = Some(e.clone());
        }
        deliver(
            RawEntry {
                path: name,
                content,
                compression: Some(c),
            },
            summary,
        );
    }
    if trailing.get() {
        summary.warnings.push(format!(
            "bytes after the end of the {} data were ignored (padding or garbage appended to the file)",
            c.label()
        ));
    }
}

impl Format {
    /// The name used in the JSON document and the report (`tar-gz`).
    pub fn label(self) -> &'static str {
        match self {
            Format::TarGz => "tar-gz",
            Format::TarXz => "tar-xz",
            Format::TarZst => "tar-zst",
            Format::TarBz2 => "tar-bz2",
            Format::Gzip => "gzip",
            Format::Xz => "xz",
            Format::Zstd => "zstd",
            Format::Bzip2 => "bzip2",
            Format::Tar => "tar",
            Format::Zip => "zip",
            Format::Directory => "directory",
            Format::File => "file",
        }
    }

    /// True for the formats that hold a bundle: tar (compressed or not) and zip.
    pub fn is_archive(self) -> bool {
        matches!(
            self,
            Format::TarGz
                | Format::TarXz
                | Format::TarZst
                | Format::TarBz2
                | Format::Tar
                | Format::Zip
        )
    }

    /// The tar format compressed with `c`.
    fn tar(c: Compression) -> Format {
        match c {
            Compression::Gzip => Format::TarGz,
            Compression::Xz => Format::TarXz,
            Compression::Zstd => Format::TarZst,
            Compression::Bzip2 => Format::TarBz2,
        }
    }

    /// A single file compressed with `c`.
    fn single(c: Compression) -> Format {
        match c {
            Compression::Gzip => Format::Gzip,
            Compression::Xz => Format::Xz,
            Compression::Zstd => Format::Zstd,
            Compression::Bzip2 => Format::Bzip2,
        }
    }
}

/// The format of the file at `path`, from its content: its first 512 bytes, and for a compressed
/// file the first 512 bytes they decompress to (a compressed tar, or a single compressed file).
/// Errors: the file cannot be opened or read.
pub fn sniff_file(path: &Path) -> io::Result<Format> {
    let mut file = File::open(path)?;
    let mut magic = [0u8; 512];
    let n = read_up_to(&mut file, &mut magic)?;
    let magic = &magic[..n];
    if sniff::is_zip(magic) {
        return Ok(Format::Zip);
    }
    if sniff::is_tar(magic) {
        return Ok(Format::Tar);
    }
    let Some(c) = Compression::sniff(magic) else {
        return Ok(Format::File);
    };
    let mut prefix = magic.to_vec();
    (&mut file).take(1 << 20).read_to_end(&mut prefix)?;
    let head = compress::decode_head(c, &prefix, 512);
    Ok(if head.len() == 512 && sniff::looks_like_tar(&head) {
        Format::tar(c)
    } else {
        Format::single(c)
    })
}
