//! Directory reading: an unpacked bundle, a sosreport tree, or a folder of loose outputs.
//!
//! Symbolic links are listed as refused and never followed (sosreports contain many, some
//! pointing outside the tree); special files are skipped; hidden version-control folders are
//! ignored. Entries are delivered in sorted path order so runs are reproducible.

use super::limits::{self, Limits};
use super::{names, EntryContent, RawEntry, ReadSummary, Refused, StreamFor};
use std::fs;
use std::path::Path;

const MAX_DEPTH: usize = 32;

/// Reads every regular file under `root`.
pub fn read(
    root: &Path,
    limits: &Limits,
    stream_for: StreamFor<'_>,
    summary: &mut ReadSummary,
    deliver: &mut dyn FnMut(RawEntry, &mut ReadSummary),
) {
    let mut files = Vec::new();
    walk(root, "", 0, limits, summary, &mut files);
    files.sort();
    for rel in files {
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let content = match fs::File::open(root.join(&rel)) {
            // The size is known before reading: an oversize file is refused without reading it.
            Ok(f) => match f.metadata().map(|m| m.len()) {
                Ok(len)
                    if len > cap
                        && !(stream_for(&rel).is_some()
                            && len <= remaining_total
                            && len >= limits::STREAM_MIN_BYTES) =>
                {
                    EntryContent::TooLarge {
                        limit: if cap < limits.max_entry_bytes {
                            limits.max_total_bytes
                        } else {
                            cap
                        },
                    }
                }
                Ok(len) => {
                    limits::read_entry(stream_for(&rel), f, (cap, remaining_total), len, None)
                }
                Err(e) => EntryContent::ReadError(e.to_string()),
            },
            Err(e) => EntryContent::ReadError(e.to_string()),
        };
        let total_hit =
            matches!(content, EntryContent::TooLarge { .. }) && cap < limits.max_entry_bytes;
        deliver(RawEntry { path: rel, content }, summary);
        if total_hit {
            summary.stopped = Some(limits::total_limit_reached(limits));
            return;
        }
    }
}

fn walk(
    dir: &Path,
    rel: &str,
    depth: usize,
    limits: &Limits,
    summary: &mut ReadSummary,
    out: &mut Vec<String>,
) {
    if depth > MAX_DEPTH {
        summary.refused.push(Refused {
            path: rel.to_string(),
            reason: format!("nested deeper than {MAX_DEPTH} levels"),
        });
        return;
    }
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            summary.refused.push(Refused {
                path: rel.to_string(),
                reason: format!("cannot list: {e}"),
            });
            return;
        }
    };
    for ent in rd.flatten() {
        let name = ent.file_name();
        let name = name.to_string_lossy();
        if depth == 0 && (name == ".git" || name == ".svn") {
            continue;
        }
        let child_rel = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        if out.len() + summary.refused.len() >= limits.max_entries {
            summary.stopped = Some(format!(
                "more than {} files: the rest was not read (raise with --max-entries)",
                limits.max_entries
            ));
            return;
        }
        let Ok(meta) = ent.path().symlink_metadata() else {
            continue;
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = fs::read_link(ent.path())
                .map(|t| t.display().to_string())
                .unwrap_or_default();
            summary.refused.push(Refused {
                path: names::display(child_rel.as_bytes()),
                reason: format!("symbolic link to `{target}`: links are never followed"),
            });
        } else if ft.is_dir() {
            walk(&ent.path(), &child_rel, depth + 1, limits, summary, out);
        } else if ft.is_file() {
            out.push(child_rel);
        } else {
            summary.refused.push(Refused {
                path: child_rel,
                reason: "device, socket or FIFO".into(),
            });
        }
    }
}
