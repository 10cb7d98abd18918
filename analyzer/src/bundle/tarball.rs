//! tar reading (plain or compressed) with every allocation bounded.
//!
//! The `tar` crate is used in raw mode, so that GNU long-name (`L`/`K`) and PAX (`x`/`g`)
//! headers come to us as entries and are read under [`Limits::max_meta_bytes`] instead of being
//! buffered whole by the crate. Sparse entries and devices are refused. Symbolic links resolve
//! from their own folder, hard links (which name another member) from the archive's root; those
//! that stay inside the archive are delivered as [`EntryContent::Link`], the others refused.
//! Compressed members are decompressed ([`compress::read_member`]).

use super::compress;
use super::limits::{self, describe_io, human_bytes};
#[cfg(doc)]
use super::Limits;
use super::{names, Ctx, Deliver, EntryContent, RawEntry, ReadSummary, Refused};
use std::io::Read;
use tar::EntryType;

/// Metadata carried from extension headers to the entry that follows them.
#[derive(Default)]
struct Pending {
    name: Option<Result<Vec<u8>, String>>,
    link: Option<Result<Vec<u8>, String>>,
    pax_size: Option<u64>,
}

/// What became of one tar entry's data.
enum Step {
    /// Read (delivered, or taken as metadata for the next entry).
    Read,
    /// Not read (a refused entry, a link, a directory): passing over its data still reads (or
    /// decompresses) it.
    Skipped,
    /// Reading must stop; [`ReadSummary::stopped`] says why.
    Stop,
}

/// The tar stream's reader, noting whether its end was reached: the `tar` crate ends the
/// archive quietly at an end of input where a header should start, as it does at the
/// end-of-archive marker.
struct EndSeen<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for EndSeen<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.ended = true;
        }
        Ok(n)
    }
}

/// Reads every entry of a tar stream, delivering regular files and links inside the tree and
/// recording refusals. `compressed`: the stream comes out of a decompressor; an oversize entry is
/// then not skipped (skipping costs its whole decompression), nor an entry that is not read
/// whose data would take the decompressed total past [`Limits::max_total_bytes`], and once the
/// archive's end is read the rest of the stream is decompressed too, so that its integrity check
/// (gzip CRC-32, xz check, zstd checksum, bzip2 CRC) is verified: a corrupt stream whose damage
/// decoded to plausible bytes is then still reported.
///
/// An archive is complete only with its end-of-archive marker (a zero block): a stream that
/// ends where a header should start is a truncated archive (a plain tar cut at a block
/// boundary, a compressed one cut between two gzip members or zstd frames), and an entry whose
/// data ends early is a read error, not a shorter file.
pub fn read<R: Read>(
    r: R,
    compressed: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
    let mut archive = tar::Archive::new(EndSeen {
        inner: r,
        ended: false,
    });
    let seen = read_entries(&mut archive, compressed, ctx, summary, deliver);
    let mut rest = archive.into_inner();
    if summary.stopped.is_none() && rest.ended {
        summary.stopped = Some(format!(
            "the tar archive ends after {seen} entries without its end-of-archive marker: the \
             file is truncated"
        ));
    }
    if compressed && summary.stopped.is_none() {
        if let Err(e) = std::io::copy(&mut rest, &mut std::io::sink()) {
            summary.stopped = Some(ctx.meter.stop().unwrap_or_else(|| describe_io(&e)));
        }
    }
}

/// Reads the entries; returns how many tar headers were read.
fn read_entries<R: Read>(
    archive: &mut tar::Archive<R>,
    compressed: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) -> usize {
    let limits = ctx.limits;
    let entries = match archive.entries() {
        Ok(e) => e.raw(true),
        Err(e) => {
            summary.stopped = Some(format!("not a readable tar archive: {}", describe_io(&e)));
            return 0;
        }
    };
    let mut pending = Pending::default();
    let mut seen = 0usize;
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                summary.stopped = Some(ctx.meter.stop().unwrap_or_else(|| {
                    format!(
                        "the tar archive is corrupt or truncated after {seen} entries: {}",
                        describe_io(&e)
                    )
                }));
                return seen;
            }
        };
        seen += 1;
        if seen > limits.max_entries {
            summary.stopped = Some(format!(
                "more than {} entries: the rest was not read (raise with --max-entries)",
                limits.max_entries
            ));
            return seen;
        }
        let claimed = entry.header().entry_size().unwrap_or(0);
        match one_entry(&mut entry, &mut pending, compressed, ctx, summary, deliver) {
            Step::Read => {}
            Step::Stop => return seen,
            Step::Skipped => {
                let decoded = ctx.meter.decoded_bytes();
                if compressed && decoded.saturating_add(claimed) > limits.max_total_bytes {
                    summary.stopped = Some(format!(
                        "`{}`, an entry that is not read, claims {} of data: passing over it \
                         would decompress more than the total size limit of {} (raise with \
                         --max-total-size); the rest of the archive was not read",
                        names::display(&entry.header().path_bytes()),
                        human_bytes(claimed),
                        human_bytes(limits.max_total_bytes)
                    ));
                    return seen;
                }
                summary.bytes_skipped = summary.bytes_skipped.saturating_add(claimed);
            }
        }
    }
    seen
}

/// Handles one entry: extension headers fill `pending`, regular files and links are delivered,
/// everything else is refused.
fn one_entry<R: Read>(
    entry: &mut tar::Entry<'_, R>,
    pending: &mut Pending,
    compressed: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) -> Step {
    let limits = ctx.limits;
    let header = entry.header().clone();
    let ty = header.entry_type();
    let claimed = header.entry_size().unwrap_or(0);
    let raw_name = header.path_bytes().into_owned();
    match ty {
        EntryType::GNULongName
        | EntryType::XHeader
        | EntryType::XGlobalHeader
        | EntryType::GNULongLink => {
            let (meta, step) = if claimed > limits.max_meta_bytes {
                // Listed now: a header this large is usually followed by a truncated stream,
                // so the entry it names may never arrive.
                summary.refused.push(Refused {
                    path: names::display(&raw_name),
                    reason: format!(
                        "tar {} header claims {}, over the {} limit for metadata",
                        ext_name(ty),
                        human_bytes(claimed),
                        human_bytes(limits.max_meta_bytes)
                    ),
                });
                let why = format!(
                    "its name or attributes are in an oversize tar {} header",
                    ext_name(ty)
                );
                (Err(why), Step::Skipped)
            } else {
                match limits::read_bounded(&mut *entry, limits.max_meta_bytes, claimed) {
                    EntryContent::Bytes(b) if (b.len() as u64) < claimed => {
                        summary.stopped = Some(truncated_in(&raw_name, b.len() as u64, claimed));
                        return Step::Stop;
                    }
                    EntryContent::Bytes(b) => (Ok(b), Step::Read),
                    EntryContent::ReadError(e) => {
                        summary.stopped = Some(
                            ctx.meter
                                .stop()
                                .unwrap_or_else(|| format!("the tar archive is truncated: {e}")),
                        );
                        return Step::Stop;
                    }
                    _ => (Err("tar metadata header over the limit".into()), Step::Read),
                }
            };
            let strip = |mut b: Vec<u8>| {
                while b.last() == Some(&0) {
                    b.pop();
                }
                b
            };
            match ty {
                EntryType::GNULongName => pending.name = Some(meta.map(strip)),
                EntryType::GNULongLink => pending.link = Some(meta.map(strip)),
                EntryType::XHeader => match meta {
                    Ok(b) => {
                        for ext in tar::PaxExtensions::new(&b).flatten() {
                            match ext.key_bytes() {
                                b"path" => pending.name = Some(Ok(ext.value_bytes().to_vec())),
                                b"linkpath" => pending.link = Some(Ok(ext.value_bytes().to_vec())),
                                b"size" => {
                                    pending.pax_size = ext.value().ok().and_then(|v| v.parse().ok())
                                }
                                _ => {}
                            }
                        }
                    }
                    Err(reason) => pending.name = Some(Err(reason)),
                },
                _ => {}
            }
            return step;
        }
        _ => {}
    }
    let p = std::mem::take(pending);
    let name_bytes = match p.name {
        Some(Ok(n)) => n,
        Some(Err(reason)) => {
            summary.refused.push(Refused {
                path: names::display(&raw_name),
                reason,
            });
            return Step::Skipped;
        }
        None => raw_name,
    };
    let refuse = |summary: &mut ReadSummary, reason: String| {
        summary.refused.push(Refused {
            path: names::display(&name_bytes),
            reason,
        });
        Step::Skipped
    };
    match ty {
        EntryType::Regular | EntryType::Continuous => {}
        EntryType::Directory => return Step::Skipped,
        EntryType::Symlink | EntryType::Link => {
            let path = match names::check(&name_bytes, limits.max_name_bytes) {
                Ok(p) => p,
                Err(reason) => return refuse(summary, reason),
            };
            let target = match p.link {
                Some(Ok(t)) => t,
                Some(Err(reason)) => return refuse(summary, reason),
                None => header
                    .link_name_bytes()
                    .map(|t| t.into_owned())
                    .unwrap_or_default(),
            };
            let symbolic = ty == EntryType::Symlink;
            let what = if symbolic {
                "symbolic link"
            } else {
                "hard link"
            };
            return match names::resolve_link(&path, what, &target, symbolic, limits.max_name_bytes)
            {
                Ok(target) => {
                    deliver(
                        RawEntry {
                            path,
                            content: EntryContent::Link { target },
                            compression: None,
                        },
                        summary,
                    );
                    Step::Skipped
                }
                Err(reason) => refuse(summary, reason),
            };
        }
        EntryType::GNUSparse => {
            return refuse(
                summary,
                format!(
                    "sparse file claiming {}: sparse entries are not read",
                    human_bytes(claimed)
                ),
            );
        }
        EntryType::Char | EntryType::Block | EntryType::Fifo => {
            return refuse(summary, "device or FIFO entry".into());
        }
        other => {
            return refuse(
                summary,
                format!("unsupported tar entry type {:?}", other.as_byte() as char),
            );
        }
    }
    if p.pax_size.is_some_and(|s| s != claimed) {
        refuse(
            summary,
            "PAX size record differs from the header size: entry not read".into(),
        );
        summary.stopped =
            Some("a PAX size override was met; the rest of the archive was not read".into());
        return Step::Stop;
    }
    let path = match names::check(&name_bytes, limits.max_name_bytes) {
        Ok(p) => p,
        Err(reason) => return refuse(summary, reason),
    };
    let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
    let cap = limits.max_entry_bytes.min(remaining_total);
    let (mut content, compression) = compress::read_member(
        &mut *entry,
        (ctx.stream_for)(&path),
        (cap, remaining_total),
        claimed,
        ctx.meter,
    );
    // The tar crate ends an entry quietly where the input ends: a shorter entry is a cut one.
    let got = match &content {
        EntryContent::Bytes(b) if compression.is_none() => Some(b.len() as u64),
        EntryContent::Streamed { bytes, .. } if compression.is_none() => Some(*bytes),
        _ => None,
    };
    if let Some(got) = got.filter(|&g| g < claimed) {
        content = EntryContent::ReadError(truncated_in(&name_bytes, got, claimed));
    }
    if let EntryContent::TooLarge { limit } = &mut content {
        *limit = limits::reported_limit(cap, limits);
    }
    let stop = match &content {
        _ if ctx.meter.stop().is_some() => ctx.meter.stop(),
        EntryContent::TooLarge { .. } if cap < limits.max_entry_bytes => {
            Some(limits::total_limit_reached(limits))
        }
        // A compressed member's own corrupt data spoils that member only.
        EntryContent::ReadError(e) if compression.is_none() => Some(e.clone()),
        _ => None,
    };
    let skip_too_long = matches!(content, EntryContent::TooLarge { .. })
        && compressed
        && claimed.saturating_sub(cap) > limits.max_entry_bytes;
    deliver(
        RawEntry {
            path,
            content,
            compression,
        },
        summary,
    );
    let stop = stop.or_else(|| {
        skip_too_long.then(|| {
            format!(
                "an oversize entry claims {}: decompressing past it would cost more than reading \
                 another whole entry, so the rest of the archive was not read",
                human_bytes(claimed)
            )
        })
    });
    match stop {
        Some(why) => {
            summary.stopped = Some(why);
            Step::Stop
        }
        None => Step::Read,
    }
}

/// Why an entry whose data ends early stops reading.
fn truncated_in(name: &[u8], got: u64, claimed: u64) -> String {
    format!(
        "the tar archive is truncated: `{}` ends after {} of its {}",
        names::display(name),
        human_bytes(got),
        human_bytes(claimed)
    )
}

fn ext_name(ty: EntryType) -> &'static str {
    match ty {
        EntryType::GNULongName => "GNU long-name",
        EntryType::GNULongLink => "GNU long-link",
        EntryType::XHeader => "PAX",
        _ => "PAX global",
    }
}
