//! zip reading: names checked on raw bytes, symlinks refused, every entry read through a bound.
//!
//! `zip` is built without default features: only stored and deflate entries are read (its bzip2
//! support alone allows million-to-one bombs). Other methods give a per-entry error.
//!
//! Sizes in a zip's directories are claims: the ratio alarm compares the bytes actually inflated
//! with the compressed bytes actually read from the file, while reading. Entries whose local
//! header another entry already used (the overlapping-entry bomb) are refused.

use super::limits::{self, Limits};
use super::{names, EntryContent, RawEntry, ReadSummary, Refused, StreamFor};
use std::collections::HashSet;
use std::fs::File;
use std::io::BufReader;

/// Reads every file entry of a zip archive.
pub fn read(
    file: File,
    limits: &Limits,
    stream_for: StreamFor<'_>,
    summary: &mut ReadSummary,
    deliver: &mut dyn FnMut(RawEntry, &mut ReadSummary),
) {
    let counted = limits::CountingReader::new(file);
    let compressed = counted.counter();
    let mut headers = HashSet::new();
    let mut inflated = 0u64;
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
        if f.is_symlink() {
            summary.refused.push(Refused {
                path: names::display(&raw),
                reason: "symbolic link: links are never followed".into(),
            });
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
        let remaining_total = limits.max_total_bytes.saturating_sub(inflated);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let hint = f.size();
        let ratio = limits::RatioCheck {
            compressed: &compressed,
            limits,
            before: inflated,
        };
        let mut content = limits::read_entry(
            stream_for(&path),
            &mut f,
            (cap, remaining_total),
            hint,
            Some(ratio),
        );
        inflated += match &content {
            EntryContent::Bytes(b) => b.len() as u64,
            EntryContent::Streamed { bytes, .. } => *bytes,
            EntryContent::TooLarge { .. } => cap,
            EntryContent::ReadError(_) => 0,
        };
        let alarm = matches!(&content, EntryContent::ReadError(e) if e.contains("ratio alarm"));
        if let EntryContent::TooLarge { limit } = &mut content {
            *limit = limits::reported_limit(cap, limits);
        }
        let total_hit =
            matches!(content, EntryContent::TooLarge { .. }) && cap < limits.max_entry_bytes;
        let stop = if alarm {
            if let EntryContent::ReadError(e) = &content {
                Some(e.clone())
            } else {
                None
            }
        } else {
            None
        };
        deliver(RawEntry { path, content }, summary);
        if stop.is_some() {
            summary.stopped = stop;
            return;
        }
        if total_hit {
            summary.stopped = Some(limits::total_limit_reached(limits));
            return;
        }
    }
}
