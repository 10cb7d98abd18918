//! Directory reading: an unpacked bundle, a sosreport tree, or a folder of loose outputs.
//!
//! Symbolic links are never followed on disk: a link's target is resolved by name from the
//! link's folder ([`names::resolve_link`]), against the folder given as the root; a target inside
//! it is delivered as [`EntryContent::Link`], one outside (absolute, or `..` above the root) is
//! refused. Special files are skipped; hidden version-control folders are ignored. Compressed
//! files are decompressed ([`compress::read_member`]). Entries are delivered in sorted path order
//! so runs are reproducible.
//!
//! A folder holding exactly one bundle archive (a compressed or plain tar, or a zip), alone or
//! beside checksum files, is that archive ([`single_archive`]).

use super::compress;
use super::limits::{self, CountingReader};
use super::{names, sniff_file, Ctx, Deliver, EntryContent, RawEntry, ReadSummary, Refused};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

const MAX_DEPTH: usize = 32;

/// What was found at a path of the tree.
enum Found {
    File,
    Link(Result<String, String>),
}

/// Reads every regular file and every link under `root`.
pub fn read(root: &Path, ctx: &Ctx<'_>, summary: &mut ReadSummary, deliver: &mut Deliver<'_>) {
    let limits = ctx.limits;
    let mut found = Vec::new();
    walk(root, "", 0, limits, summary, &mut found);
    found.sort_by(|a, b| a.0.cmp(&b.0));
    for (rel, what) in found {
        let target = match what {
            Found::File => None,
            Found::Link(Ok(t)) => Some(t),
            Found::Link(Err(reason)) => {
                summary.refused.push(Refused {
                    path: names::display(rel.as_bytes()),
                    reason,
                });
                continue;
            }
        };
        if let Some(target) = target {
            deliver(
                RawEntry {
                    path: rel,
                    content: EntryContent::Link { target },
                    compression: None,
                },
                summary,
            );
            continue;
        }
        let remaining_total = limits.max_total_bytes.saturating_sub(summary.bytes_read);
        let cap = limits.max_entry_bytes.min(remaining_total);
        let stream = (ctx.stream_for)(&rel);
        let (content, compression) = match fs::File::open(root.join(&rel)) {
            // The size is known before reading: an oversize file is refused without reading it.
            Ok(f) => match f.metadata().map(|m| m.len()) {
                Ok(len)
                    if len > cap
                        && !(stream.is_some()
                            && len <= remaining_total
                            && len >= limits::STREAM_MIN_BYTES) =>
                {
                    let limit = limits::reported_limit(cap, limits);
                    (EntryContent::TooLarge { limit }, None)
                }
                Ok(len) => compress::read_member(
                    CountingReader::sharing(f, ctx.meter.input()),
                    stream,
                    (cap, remaining_total),
                    len,
                    ctx.meter,
                ),
                Err(e) => (EntryContent::ReadError(e.to_string()), None),
            },
            Err(e) => (EntryContent::ReadError(e.to_string()), None),
        };
        let total_hit =
            matches!(content, EntryContent::TooLarge { .. }) && cap < limits.max_entry_bytes;
        deliver(
            RawEntry {
                path: rel,
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

fn walk(
    dir: &Path,
    rel: &str,
    depth: usize,
    limits: &limits::Limits,
    summary: &mut ReadSummary,
    out: &mut Vec<(String, Found)>,
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
            let what = "symbolic link";
            let resolved = match fs::read_link(ent.path()) {
                Ok(t) => names::resolve_link(
                    &child_rel,
                    what,
                    t.as_os_str().as_bytes(),
                    true,
                    limits.max_name_bytes,
                ),
                Err(e) => Err(format!("{what} whose target cannot be read: {e}")),
            };
            out.push((child_rel, Found::Link(resolved)));
        } else if ft.is_dir() {
            walk(&ent.path(), &child_rel, depth + 1, limits, summary, out);
        } else if ft.is_file() {
            out.push((child_rel, Found::File));
        } else {
            summary.refused.push(Refused {
                path: child_rel,
                reason: "device, socket or FIFO".into(),
            });
        }
    }
}

/// Largest checksum file accepted beside a single archive, bytes.
const MAX_CHECKSUM_FILE: u64 = 4096;

/// The archive a folder stands for, and how many checksum files lie beside it: `Some` when the
/// folder's entries are regular files only, exactly one of them is a bundle archive by its
/// content ([`sniff_file`]: a compressed or plain tar, or a zip), and every other one is a
/// checksum file (at most 4 KiB, starting with an MD5, SHA-1, SHA-256 or SHA-512 hex digest, as
/// `md5sum`/`sha256sum` and sosreport's `.sha256` files do).
pub fn single_archive(root: &Path) -> Option<(PathBuf, usize)> {
    let mut archive = None;
    let mut side = 0;
    for ent in fs::read_dir(root).ok()? {
        let ent = ent.ok()?;
        let meta = ent.path().symlink_metadata().ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        let p = ent.path();
        if meta.len() <= MAX_CHECKSUM_FILE && is_checksum_file(&p) {
            side += 1;
        } else if archive.is_none() && sniff_file(&p).is_ok_and(|f| f.is_archive()) {
            archive = Some(p);
        } else {
            return None;
        }
    }
    archive.map(|a| (a, side))
}

/// True when the file's first word is a hex digest of 32, 40, 64 or 128 digits.
fn is_checksum_file(p: &Path) -> bool {
    let Ok(text) = fs::read(p) else {
        return false;
    };
    let word = text
        .split(|b| b.is_ascii_whitespace())
        .find(|w| !w.is_empty())
        .unwrap_or_default();
    [32, 40, 64, 128].contains(&word.len()) && word.iter().all(|b| b.is_ascii_hexdigit())
}
