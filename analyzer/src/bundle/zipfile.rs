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
//!
//! Entries are inflated in parallel, in batches (at most [`BATCH_ENTRIES`] entries or
//! [`BATCH_BYTES`] claimed), each worker reading the archive through a file handle of its own;
//! every batch is delivered in archive order, and the limits hold as if the entries had been
//! read one after the other: the total budget is checked again in that order, and an entry cut
//! by the ratio alarm or the total size limit is the last one delivered. Every decoder counts
//! into one shared [`Meter`], so that the alarm and the decoded total bound the batch as a whole.

use super::compress;
use super::limits::{self, Inflating, Meter};
use super::{names, Ctx, Deliver, EntryContent, Limits, RawEntry, ReadSummary, Refused};
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::atomic::Ordering;
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
pub fn read(
    path: &Path,
    file: File,
    ctx: &Ctx<'_>,
    summary: &mut ReadSummary,
    deliver: &mut Deliver<'_>,
) {
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
    drop(zip);
    let mut read_names = HashSet::new();
    let mut plans = Vec::new();
    for l in listed {
        let entry = l.entry;
        let raw = entry.name_raw().to_vec();
        if entry.is_dir() {
            continue;
        }
        let path = match names::check(&raw, limits.max_name_bytes) {
            Ok(p) => p,
            Err(reason) => {
                plans.push(Plan::Refuse(Refused {
                    path: names::display(&raw),
                    reason,
                }));
                continue;
            }
        };
        let range = match l.range {
            Ok(r) => r,
            Err(reason) => {
                plans.push(Plan::Refuse(Refused { path, reason }));
                continue;
            }
        };
        if l.overlaps {
            plans.push(Plan::Refuse(Refused {
                path,
                reason: format!(
                    "its bytes {}..{} overlap another entry's (overlapping entries, a zip-bomb \
                     pattern): not decompressed",
                    range.start, range.end
                ),
            }));
            continue;
        }
        if read_names.contains(&path) {
            plans.push(Plan::Refuse(Refused {
                path,
                reason: "duplicate name: an earlier entry with this name was analyzed".into(),
            }));
            continue;
        }
        read_names.insert(path.clone());
        let stream = (ctx.stream_for)(&path);
        plans.push(Plan::Read(Job {
            entry,
            path,
            stream,
            range,
        }));
    }
    let mut plans = plans.into_iter().peekable();
    while plans.peek().is_some() {
        // One batch: entries up to BATCH_ENTRIES or BATCH_BYTES claimed, at least one.
        let mut batch = Vec::new();
        let mut claimed = 0u64;
        while let Some(p) = plans.next_if(|_| batch.len() < BATCH_ENTRIES && claimed < BATCH_BYTES)
        {
            if let Plan::Read(j) = &p {
                claimed = claimed.saturating_add(j.entry.size());
            }
            batch.push(p);
        }
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let done = inflate_batch(path, batch, limits, ctx.meter, remaining_total);
        for d in done {
            let mut entry = match d {
                Done::Refused(r) => {
                    summary.refused.push(r);
                    continue;
                }
                Done::Entry(e) => e,
            };
            // The total budget, as if the batch's entries had been read one after the other.
            let room = limits.max_total_bytes.saturating_sub(summary.bytes_read);
            let cap = limits.max_entry_bytes.min(room);
            let len = match &mut entry.content {
                EntryContent::Bytes(b) => b.len() as u64,
                EntryContent::TooLarge { limit } => {
                    *limit = limits::reported_limit(cap, limits);
                    0
                }
                _ => 0,
            };
            let mut total_hit = matches!(entry.content, EntryContent::TooLarge { .. })
                && cap < limits.max_entry_bytes;
            if len > cap {
                entry.content = EntryContent::TooLarge {
                    limit: limits::reported_limit(cap, limits),
                };
                total_hit = cap < limits.max_entry_bytes;
            }
            // The entry the ratio alarm or the decoded total cut (and any entry of the batch
            // still inflating then) is the last one read: the batch's later entries would not
            // have been read one after the other. Entries failing on their own (a CRC error)
            // are delivered and reading goes on.
            let stop = ctx.meter.stop();
            let cut = stop.is_some()
                && match &entry.content {
                    EntryContent::TooLarge { .. } => true,
                    EntryContent::ReadError(e) => stop.as_deref() == Some(e.as_str()),
                    _ => false,
                };
            deliver(entry, summary);
            if cut {
                summary.stopped = stop;
                return;
            }
            if total_hit {
                summary.stopped = Some(limits::total_limit_reached(limits));
                return;
            }
        }
        if let Some(stop) = ctx.meter.stop() {
            summary.stopped = Some(stop);
            return;
        }
    }
}

/// Entries inflated together at most (in parallel, then delivered in archive order).
const BATCH_ENTRIES: usize = 64;

/// Uncompressed bytes a batch claims before it is closed (64 MiB): bounds the entries held
/// between their inflating and their delivery.
const BATCH_BYTES: u64 = 64 << 20;

/// What becomes of one listed entry, decided before anything is inflated.
enum Plan {
    /// Refused by its name, its range, an overlap or a duplicate name.
    Refuse(Refused),
    /// To be read.
    Read(Job),
}

/// An entry to read.
struct Job {
    entry: ZipFileEntry<'static>,
    path: String,
    stream: Option<parsers::kind::StreamFn>,
    range: std::ops::Range<u64>,
}

/// What reading one entry gave.
enum Done {
    Refused(Refused),
    /// The entry: a file or a link.
    Entry(RawEntry),
}

/// Inflates the entries of `batch` in parallel, each worker reading the archive at `path`
/// through a file handle of its own; the outcomes come back in the batch's order.
fn inflate_batch(
    path: &Path,
    batch: Vec<Plan>,
    limits: &Limits,
    meter: &Meter,
    remaining_total: u64,
) -> Vec<Done> {
    use rayon::prelude::*;
    batch
        .into_par_iter()
        .map_init(
            || File::open(path).map(BufReader::new),
            |reader, plan| {
                let job = match plan {
                    Plan::Refuse(r) => return Done::Refused(r),
                    Plan::Read(j) => j,
                };
                let reader = match reader {
                    Ok(r) => r,
                    Err(e) => {
                        return Done::Refused(Refused {
                            path: job.path,
                            reason: format!("unreadable: {e}"),
                        })
                    }
                };
                read_one(job, reader, limits, meter, remaining_total)
            },
        )
        .collect()
}

/// Reads one entry (a file or a symbolic link) from `reader`.
fn read_one(
    job: Job,
    reader: &mut BufReader<File>,
    limits: &Limits,
    meter: &Meter,
    remaining_total: u64,
) -> Done {
    // The ratio's denominator: this entry's bytes, which no other entry shares.
    meter
        .input()
        .fetch_add(job.range.end - job.range.start, Ordering::Relaxed);
    let symlink = job.entry.is_symlink();
    let hint = job.entry.size();
    let path = job.path;
    let mut f = match job.entry.with_reader(reader, zip::ZipReadOptions::new()) {
        Ok(f) => f,
        Err(e) => {
            return Done::Refused(Refused {
                path,
                reason: format!("unreadable: {e}"),
            })
        }
    };
    if symlink {
        return read_link(&mut f, path, limits, meter);
    }
    let cap = limits.max_entry_bytes.min(remaining_total);
    let inflated = Inflating::new(f, meter.clone(), false);
    let (mut content, compression) =
        compress::read_member(inflated, job.stream, (cap, remaining_total), hint, meter);
    if let EntryContent::TooLarge { limit } = &mut content {
        *limit = limits::reported_limit(cap, limits);
    }
    Done::Entry(RawEntry {
        path,
        content,
        compression,
    })
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

/// Reads a symbolic link's target: the link, or why it is refused.
fn read_link(f: &mut impl Read, path: String, limits: &Limits, meter: &Meter) -> Done {
    let what = "symbolic link";
    let target = Inflating::new(f, meter.clone(), false);
    let outcome = match limits::read_bounded(target, limits.max_name_bytes as u64, 0) {
        EntryContent::Bytes(t) => names::resolve_link(&path, what, &t, true, limits.max_name_bytes),
        EntryContent::ReadError(e) => Err(format!("{what} whose target is unreadable: {e}")),
        _ => Err(format!(
            "{what} whose target is longer than {} bytes",
            limits.max_name_bytes
        )),
    };
    match outcome {
        Ok(target) => Done::Entry(RawEntry {
            path,
            content: EntryContent::Link { target },
            compression: None,
        }),
        Err(reason) => Done::Refused(Refused { path, reason }),
    }
}
