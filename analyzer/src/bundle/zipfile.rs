//! zip reading: names checked on raw bytes, symlinks refused, every entry read through a bound.
//!
//! `zip` is built without default features: only stored and deflate entries are read (its bzip2
//! support alone allows million-to-one bombs). Other methods give a per-entry error.

use super::limits::{self, human_bytes, Limits};
use super::{names, EntryContent, RawEntry, ReadSummary, Refused};
use std::fs::File;
use std::io::BufReader;

/// Reads every file entry of a zip archive.
pub fn read(
    file: File,
    limits: &Limits,
    summary: &mut ReadSummary,
    deliver: &mut dyn FnMut(RawEntry, &mut ReadSummary),
) {
    let mut archive = match zip::ZipArchive::new(BufReader::new(file)) {
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
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let compressed = f.compressed_size().max(1);
        let hint = f.size();
        let mut content = limits::read_bounded(&mut f, cap, hint, None);
        if let EntryContent::Bytes(b) = &content {
            let n = b.len() as u64;
            if n > limits.ratio_floor_bytes && n / compressed > limits.max_ratio {
                content = EntryContent::ReadError(limits::ratio_alarm(n, compressed, limits));
            }
        }
        let total_hit =
            matches!(content, EntryContent::TooLarge { .. }) && cap < limits.max_entry_bytes;
        deliver(RawEntry { path, content }, summary);
        if total_hit {
            summary.stopped = Some(format!(
                "total uncompressed size limit of {} reached: the rest was not read (raise with --max-total-size)",
                human_bytes(limits.max_total_bytes)
            ));
            return;
        }
    }
}
