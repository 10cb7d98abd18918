//! zip reading: names checked on raw bytes, every entry read through a bound.
//!
//! `zip` is built without default features: only stored and deflate entries are read (its bzip2
//! support alone allows million-to-one bombs). Other methods give a per-entry error. Symbolic
//! links (unix mode `S_IFLNK`, the target stored as the entry's data) resolve from their own
//! folder; those that stay inside the archive are delivered as [`EntryContent::Link`], the
//! others refused. Compressed members are decompressed ([`compress::read_member`]).
//!
//! Sizes in a zip's directories are claims: the ratio alarm compares the bytes actually inflated
//! with the compressed bytes actually read from the file, while reading. Entries whose local
//! header another entry already used (the overlapping-entry bomb) are refused.

use super::compress;
use super::limits::{self, Inflating};
use super::{names, Ctx, Deliver, EntryContent, RawEntry, ReadSummary, Refused};
use std::collections::HashSet;
use std::fs::File;
use std::io::BufReader;

/// Reads every file entry of a zip archive.
pub fn read(file: File, ctx: &Ctx<'_>, summary: &mut ReadSummary, deliver: &mut Deliver<'_>) {
    let limits = ctx.limits;
    let counted = limits::CountingReader::sharing(file, ctx.meter.input());
    let mut headers = HashSet::new();
    let mut archive = match zip::ZipArchive::new(BufReader::new(counted)) {
        Ok(a) => a,
        Err(e) => {
            summary.stopped = Some(format!("not a readable zip archive: {e}"));
            return;
        }
    };
    if archive.len() > limits.max_entries {
        summary.stopped = Some(format!(
            "the zip archive lists {} entries, more than the limit of {}: only the first {} were read \
             (raise with --max-entries)",
            archive.len(),
            limits.max_entries,
            limits.max_entries
        ));
    }
    for i in 0..archive.len().min(limits.max_entries) {
        let mut f = match archive.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                summary.refused.push(Refused {
                    path: format!("entry #{i}"),
                    reason: format!("unreadable: {e}"),
                });
                continue;
            }
        };
        let raw = f.name_raw().to_vec();
        if f.is_dir() {
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
        if !headers.insert(f.header_start()) {
            summary.refused.push(Refused {
                path,
                reason: "shares its data with an earlier entry (overlapping entries, a zip-bomb pattern)".into(),
            });
            continue;
        }
        if f.is_symlink() {
            let what = "symbolic link";
            let target = Inflating::new(&mut f, ctx.meter.clone(), false);
            let outcome = match limits::read_bounded(target, limits.max_name_bytes as u64, 0) {
                EntryContent::Bytes(t) => {
                    names::resolve_link(&path, what, &t, true, limits.max_name_bytes)
                }
                EntryContent::ReadError(e) => {
                    Err(format!("{what} whose target is unreadable: {e}"))
                }
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
            if let Some(stop) = ctx.meter.stop() {
                summary.stopped = Some(stop);
                return;
            }
            continue;
        }
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let hint = f.size();
        let inflated = Inflating::new(&mut f, ctx.meter.clone(), false);
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
