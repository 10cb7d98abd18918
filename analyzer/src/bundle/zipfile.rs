//! zip reading: names checked on raw bytes, every entry read through a bound.
//!
//! `zip` is built without default features: only stored and deflate entries are read (its bzip2
//! support alone allows million-to-one bombs). Other methods give a per-entry error. Symbolic
//! links (unix mode `S_IFLNK`, the target stored as the entry's data) resolve from their own
//! folder; those that stay inside the archive are delivered as [`EntryContent::Link`], the
//! others refused. Compressed members are decompressed ([`compress::read_member`]).
//!
//! The central directory is walked entry by entry ([`zip::unstable::read::ZipIterable`]), so
//! that every record is seen: two records with one name are both listed (the zip crate's
//! by-name index would keep only the last), and like a tar's, the first is read and the later
//! ones are refused as duplicates.
//!
//! Sizes in a zip's directories are claims, and one stretch of the file can be claimed by
//! several entries: the overlapping-entry bomb (D. Fifield, "A better zip bomb", WOOT '19)
//! quotes every entry's local header inside the previous entry's stored deflate block, so that
//! a few MB decompress to terabytes through one shared kernel. Before anything is
//! decompressed, every entry's byte range (from its local header to the end of its data, as
//! the central directory gives them) is checked against the others' and against the central
//! directory: entries whose ranges overlap are refused, none of them read. The compression
//! ratio then compares the bytes inflated with the entries' ranges, each byte counted once.

use super::compress;
use super::limits::{self, Inflating};
use super::{names, Ctx, Deliver, EntryContent, RawEntry, ReadSummary, Refused};
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read};
use zip::read::{HasZipMetadata, ZipFileEntry};
use zip::unstable::read::ZipIterable;

/// One central-directory record, with where its bytes lie in the file.
struct Listed {
    entry: ZipFileEntry<'static>,
    /// `[local header, end of data)`, or why the local header could not be read.
    range: Result<std::ops::Range<u64>, String>,
    overlaps: bool,
}

/// Reads every file entry of a zip archive.
pub fn read(file: File, ctx: &Ctx<'_>, summary: &mut ReadSummary, deliver: &mut Deliver<'_>) {
    let limits = ctx.limits;
    let mut zip = match ZipIterable::try_new(BufReader::new(file), zip::read::Config::default()) {
        Ok(z) => z,
        Err(e) => {
            summary.stopped = Some(format!("not a readable zip archive: {e}"));
            return;
        }
    };
    if zip.len() > limits.max_entries {
        summary.stopped = Some(format!(
            "the zip archive lists {} entries, more than the limit of {}: only the first {} were read \
             (raise with --max-entries)",
            zip.len(),
            limits.max_entries,
            limits.max_entries
        ));
    }
    let files = match zip.files() {
        Ok(f) => f,
        Err(e) => {
            summary.stopped = Some(format!("not a readable zip archive: {e}"));
            return;
        }
    };
    let mut listed = Vec::new();
    while listed.len() < limits.max_entries {
        let Some(next) = files.next() else { break };
        let entry = match next {
            Ok(e) => e,
            Err(e) => {
                summary.stopped = Some(format!(
                    "the zip archive's central directory is unreadable after {} entries: {e}",
                    listed.len()
                ));
                break;
            }
        };
        let range = entry
            .get_metadata()
            .data_start(files.reader_mut())
            .map_err(|e| format!("unreadable local header: {e}"))
            .and_then(|start| {
                start
                    .checked_add(entry.compressed_size())
                    .map(|end| entry.header_start()..end)
                    .ok_or_else(|| "its data would end past 16 EiB".to_string())
            });
        listed.push(Listed {
            entry,
            range,
            overlaps: false,
        });
    }
    let central_directory = listed
        .iter()
        .map(|l| l.entry.central_header_start())
        .min()
        .unwrap_or(u64::MAX);
    let overlapping = mark_overlaps(&mut listed, central_directory);
    if overlapping > 0 {
        summary.warnings.push(format!(
            "{overlapping} zip entries claim bytes of the file that another entry (or the central \
             directory) also claims: the overlapping-entry zip bomb pattern; they were refused \
             without being decompressed"
        ));
    }
    let reader = files.reader_mut();
    let mut read_names = HashSet::new();
    for l in listed {
        let entry = l.entry;
        let raw = entry.name_raw().to_vec();
        if entry.is_dir() {
            continue;
        }
        let path = match names::check(&raw, limits.max_name_bytes) {
            Ok(p) => p,
            Err(reason) => {
                summary.refused.push(Refused {
                    path: names::display(&raw),
                    reason,
                });
                continue;
            }
        };
        let range = match l.range {
            Ok(r) => r,
            Err(reason) => {
                summary.refused.push(Refused { path, reason });
                continue;
            }
        };
        if l.overlaps {
            summary.refused.push(Refused {
                path,
                reason: format!(
                    "its bytes {}..{} overlap another entry's (overlapping entries, a zip-bomb \
                     pattern): not decompressed",
                    range.start, range.end
                ),
            });
            continue;
        }
        if read_names.contains(&path) {
            summary.refused.push(Refused {
                path,
                reason: "duplicate name: an earlier entry with this name was analyzed".into(),
            });
            continue;
        }
        read_names.insert(path.clone());
        // The ratio's denominator: this entry's bytes, which no other entry shares.
        let input = ctx.meter.input();
        input.set(input.get() + (range.end - range.start));
        let symlink = entry.is_symlink();
        let hint = entry.size();
        let mut f = match entry.with_reader(&mut *reader, zip::ZipReadOptions::new()) {
            Ok(f) => f,
            Err(e) => {
                summary.refused.push(Refused {
                    path,
                    reason: format!("unreadable: {e}"),
                });
                continue;
            }
        };
        let total_hit = if symlink {
            read_link(&mut f, path, ctx, summary, deliver);
            false
        } else {
            read_file(&mut f, path, hint, ctx, summary, deliver)
        };
        if let Some(stop) = ctx.meter.stop() {
            summary.stopped = Some(stop);
            return;
        }
        if total_hit {
            summary.stopped = Some(limits::total_limit_reached(limits));
            return;
        }
    }
}

/// Marks the entries whose byte range overlaps another's or runs into the central directory
/// (at `central_directory`); returns how many were marked.
fn mark_overlaps(listed: &mut [Listed], central_directory: u64) -> usize {
    let mut order: Vec<(u64, u64, usize)> = listed
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.range.as_ref().ok().map(|r| (r.start, r.end, i)))
        .collect();
    order.sort_unstable();
    // Sweep by start: an entry starting before the furthest end seen so far overlaps the entry
    // that reaches that end (and possibly others, which the sweep marks in turn).
    let mut furthest: Option<(u64, usize)> = None;
    for &(start, end, i) in &order {
        if end > central_directory {
            listed[i].overlaps = true;
        }
        match furthest {
            Some((reach, j)) if start < reach => {
                listed[i].overlaps = true;
                listed[j].overlaps = true;
                if end > reach {
                    furthest = Some((end, i));
                }
            }
            _ => furthest = Some((end, i)),
        }
    }
    listed.iter().filter(|l| l.overlaps).count()
}

/// Reads a symbolic link's target and delivers the link, or refuses it.
fn read_link(
    f: &mut impl Read,
    path: String,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
    let limits = ctx.limits;
    let what = "symbolic link";
    let target = Inflating::new(f, ctx.meter.clone(), false);
    let outcome = match limits::read_bounded(target, limits.max_name_bytes as u64, 0) {
        EntryContent::Bytes(t) => names::resolve_link(&path, what, &t, true, limits.max_name_bytes),
        EntryContent::ReadError(e) => Err(format!("{what} whose target is unreadable: {e}")),
        _ => Err(format!(
            "{what} whose target is longer than {} bytes",
            limits.max_name_bytes
        )),
    };
    match outcome {
        Ok(target) => deliver(
            RawEntry {
                path,
                content: EntryContent::Link { target },
                compression: None,
            },
            summary,
        ),
        Err(reason) => summary.refused.push(Refused { path, reason }),
    }
}

/// Reads a file entry and delivers it; true when it reached the total size limit.
fn read_file(
    f: &mut impl Read,
    path: String,
    hint: u64,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) -> bool {
    let limits = ctx.limits;
    let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
    let cap = limits.max_entry_bytes.min(remaining_total);
    let inflated = Inflating::new(f, ctx.meter.clone(), false);
    let (mut content, compression) = compress::read_member(
        inflated,
        (ctx.stream_for)(&path),
        (cap, remaining_total),
        hint,
        ctx.meter,
    );
    if let EntryContent::TooLarge { limit } = &mut content {
        *limit = limits::reported_limit(cap, limits);
    }
    let total_hit =
        matches!(content, EntryContent::TooLarge { .. }) && cap < limits.max_entry_bytes;
    deliver(
        RawEntry {
            path,
            content,
            compression,
        },
        summary,
    );
    total_hit
}
