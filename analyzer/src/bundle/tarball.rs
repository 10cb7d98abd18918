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

/// Reads every entry of a tar stream, delivering regular files and links inside the tree and
/// recording refusals. `compressed`: the stream comes out of a decompressor; an oversize entry is
/// then not skipped (skipping costs its whole decompression), and once the archive's end is read
/// the rest of the stream is decompressed too, so that its integrity check (gzip CRC-32, xz
/// check, zstd checksum, bzip2 CRC) is verified: a corrupt stream whose damage decoded to
/// plausible bytes is then still reported.
pub fn read<R: Read>(
    r: R,
    compressed: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
    let mut archive = tar::Archive::new(r);
    read_entries(&mut archive, compressed, ctx, summary, deliver);
    if compressed && summary.stopped.is_none() {
        if let Err(e) = std::io::copy(&mut archive.into_inner(), &mut std::io::sink()) {
            summary.stopped = Some(ctx.meter.stop().unwrap_or_else(|| describe_io(&e)));
        }
    }
}

fn read_entries<R: Read>(
    archive: &mut tar::Archive<R>,
    compressed: bool,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
    let limits = ctx.limits;
    let entries = match archive.entries() {
        Ok(e) => e.raw(true),
        Err(e) => {
            summary.stopped = Some(format!("not a readable tar archive: {}", describe_io(&e)));
            return;
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
                return;
            }
        };
        seen += 1;
        if seen > limits.max_entries {
            summary.stopped = Some(format!(
                "more than {} entries: the rest was not read (raise with --max-entries)",
                limits.max_entries
            ));
            return;
        }
        let header = entry.header().clone();
        let ty = header.entry_type();
        let claimed = header.entry_size().unwrap_or(0);
        let raw_name = header.path_bytes().into_owned();
        match ty {
            EntryType::GNULongName
            | EntryType::XHeader
            | EntryType::XGlobalHeader
            | EntryType::GNULongLink => {
                let meta = if claimed > limits.max_meta_bytes {
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
                    Err(format!(
                        "its name or attributes are in an oversize tar {} header",
                        ext_name(ty)
                    ))
                } else {
                    match limits::read_bounded(&mut entry, limits.max_meta_bytes, claimed) {
                        EntryContent::Bytes(b) => Ok(b),
                        EntryContent::ReadError(e) => {
                            summary.stopped =
                                Some(ctx.meter.stop().unwrap_or_else(|| {
                                    format!("the tar archive is truncated: {e}")
                                }));
                            return;
                        }
                        _ => Err("tar metadata header over the limit".into()),
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
                                    b"linkpath" => {
                                        pending.link = Some(Ok(ext.value_bytes().to_vec()))
                                    }
                                    b"size" => {
                                        pending.pax_size =
                                            ext.value().ok().and_then(|v| v.parse().ok())
                                    }
                                    _ => {}
                                }
                            }
                        }
                        Err(reason) => pending.name = Some(Err(reason)),
                    },
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        let p = std::mem::take(&mut pending);
        let name_bytes = match p.name {
            Some(Ok(n)) => n,
            Some(Err(reason)) => {
                summary.refused.push(Refused {
                    path: names::display(&raw_name),
                    reason,
                });
                continue;
            }
            None => raw_name,
        };
        let refuse = |summary: &mut ReadSummary, reason: String| {
            summary.refused.push(Refused {
                path: names::display(&name_bytes),
                reason,
            });
        };
        match ty {
            EntryType::Regular | EntryType::Continuous => {}
            EntryType::Directory => continue,
            EntryType::Symlink | EntryType::Link => {
                let path = match names::check(&name_bytes, limits.max_name_bytes) {
                    Ok(p) => p,
                    Err(reason) => {
                        refuse(summary, reason);
                        continue;
                    }
                };
                let target = match p.link {
                    Some(Ok(t)) => t,
                    Some(Err(reason)) => {
                        refuse(summary, reason);
                        continue;
                    }
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
                match names::resolve_link(&path, what, &target, symbolic, limits.max_name_bytes) {
                    Ok(target) => deliver(
                        RawEntry {
                            path,
                            content: EntryContent::Link { target },
                            compression: None,
                        },
                        summary,
                    ),
                    Err(reason) => refuse(summary, reason),
                }
                continue;
            }
            EntryType::GNUSparse => {
                refuse(
                    summary,
                    format!(
                        "sparse file claiming {}: sparse entries are not read",
                        human_bytes(claimed)
                    ),
                );
                continue;
            }
            EntryType::Char | EntryType::Block | EntryType::Fifo => {
                refuse(summary, "device or FIFO entry".into());
                continue;
            }
            other => {
                refuse(
                    summary,
                    format!("unsupported tar entry type {:?}", other.as_byte() as char),
                );
                continue;
            }
        }
        if p.pax_size.is_some_and(|s| s != claimed) {
            refuse(
                summary,
                "PAX size record differs from the header size: entry not read".into(),
            );
            summary.stopped =
                Some("a PAX size override was met; the rest of the archive was not read".into());
            return;
        }
        let path = match names::check(&name_bytes, limits.max_name_bytes) {
            Ok(p) => p,
            Err(reason) => {
                refuse(summary, reason);
                continue;
            }
        };
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let (mut content, compression) = compress::read_member(
            &mut entry,
            (ctx.stream_for)(&path),
            (cap, remaining_total),
            claimed,
            ctx.meter,
        );
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
        if stop.is_some() {
            summary.stopped = stop;
            return;
        }
    }
}

fn ext_name(ty: EntryType) -> &'static str {
    match ty {
        EntryType::GNULongName => "GNU long-name",
        EntryType::GNULongLink => "GNU long-link",
        EntryType::XHeader => "PAX",
        _ => "PAX global",
    }
}
