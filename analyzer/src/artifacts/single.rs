//! One file read as one artifact, as `rca analyze` reads a loose file: `rca parse`.
//!
//! In: a path (a loose file, or one compressed with gzip, xz, zstd or bzip2), an optional
//! forced kind and [`Limits`]. Out: the file's [`Artifact`] (its kind, outcome, issues and
//! parsed record) and the reader's [`ReadSummary`]. Everything is the analysis's own path: the
//! bundle reader (decompression, size caps), then [`process`](super::process) (the layout's
//! path table, then content sniffing, then the kind's parser with panics caught). Folders and
//! archives, which hold many artifacts, are refused.
//!
//! Standard input (`rca parse -`) is read the same way: copied to a temporary file, at most one
//! entry's size cap ([`Limits::max_entry_bytes`]), then read as that file, decompressed when its
//! magic bytes say so; it has no name for the path table, so its kind is its content's (or the
//! one forced). Its name in messages and in the artifact is [`STDIN_NAME`].

use super::{process, Artifact};
use crate::bundle::{self, BundleError, Limits, RawEntry, ReadSummary};
use crate::layout;
use parsers::kind::KindSpec;
use std::io::Read;
use std::path::Path;

/// What standard input is called in messages and as the artifact's path: `<stdin>`.
pub const STDIN_NAME: &str = "<stdin>";

/// Why a file could not be read as one artifact.
#[derive(Debug, thiserror::Error)]
pub enum SingleError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Bundle(#[from] BundleError),
    /// The input holds several artifacts (a folder, a tar, a zip).
    #[error("{path} is {what}, which holds many artifacts: `rca parse` reads one file; analyze a bundle with `rca analyze`")]
    NotOneFile {
        /// The input path, as given.
        path: String,
        /// What it is (`a folder`, `a tar-gz archive`).
        what: String,
    },
    /// Reading stopped before the file's content was delivered (a corrupt compressed file, a
    /// size limit).
    #[error("{path}: nothing could be read: {why}")]
    Unread {
        /// The input path, as given.
        path: String,
        /// Why, as the bundle reader says it.
        why: String,
    },
    /// Standard input is longer than one entry may be.
    #[error("{STDIN_NAME}: longer than the {limit}-byte limit of one entry; if the input is trusted, raise it with --max-entry-size")]
    StdinTooLarge {
        /// The limit, bytes ([`Limits::max_entry_bytes`]).
        limit: u64,
    },
}

/// Reads `input` (standard input) as one artifact, as [`read_one`] reads a file: of kind
/// `forced`, else of its content's kind; gzip, xz, zstd or bzip2 is decompressed. The
/// artifact's path is [`STDIN_NAME`]. Errors: [`SingleError::StdinTooLarge`] past
/// [`Limits::max_entry_bytes`] bytes as read (compressed or not), the others as for a file.
pub fn read_stdin(
    input: impl Read,
    forced: Option<&'static KindSpec>,
    limits: &Limits,
) -> Result<(Artifact, ReadSummary), SingleError> {
    let io_err = |source| {
        SingleError::Bundle(BundleError::Io {
            path: STDIN_NAME.into(),
            source,
        })
    };
    let dir = tempfile::tempdir().map_err(io_err)?;
    // A name the path table does not know: the content decides the kind.
    let path = dir.path().join("standard-input");
    let mut file = std::fs::File::create(&path).map_err(io_err)?;
    let cap = limits.max_entry_bytes;
    let copied =
        std::io::copy(&mut input.take(cap.saturating_add(1)), &mut file).map_err(io_err)?;
    drop(file);
    if copied > cap {
        return Err(SingleError::StdinTooLarge { limit: cap });
    }
    let shown = path.display().to_string();
    let rename = |p: String| {
        if p == shown {
            STDIN_NAME.to_string()
        } else {
            p
        }
    };
    let (mut a, summary) = read_one(&path, forced, limits).map_err(|e| match e {
        SingleError::Bundle(BundleError::Io { path, source }) => {
            SingleError::Bundle(BundleError::Io {
                path: rename(path),
                source,
            })
        }
        SingleError::NotOneFile { path, what } => SingleError::NotOneFile {
            path: rename(path),
            what,
        },
        SingleError::Unread { path, why } => SingleError::Unread {
            path: rename(path),
            why,
        },
        e => e,
    })?;
    a.path = STDIN_NAME.to_string();
    Ok((a, summary))
}

/// Reads the file at `path` as one artifact of kind `forced`, or of the kind the analysis would
/// give it as a loose file (its name in the layout's path table, else its content). The
/// artifact's path is the file's name (without a compression suffix). Errors: [`SingleError`].
pub fn read_one(
    path: &Path,
    forced: Option<&'static KindSpec>,
    limits: &Limits,
) -> Result<(Artifact, ReadSummary), SingleError> {
    let shown = || path.display().to_string();
    let is_dir = std::fs::metadata(path)
        .map_err(|source| BundleError::Io {
            path: shown(),
            source,
        })?
        .is_dir();
    if is_dir {
        return Err(SingleError::NotOneFile {
            path: shown(),
            what: "a folder".into(),
        });
    }
    let format = bundle::sniff_file(path).map_err(|source| BundleError::Io {
        path: shown(),
        source,
    })?;
    if format.is_archive() {
        return Err(SingleError::NotOneFile {
            path: shown(),
            what: format!("a {} archive", format.label()),
        });
    }
    let stream_for = |p: &str| forced.or_else(|| layout::by_path(p)).and_then(|k| k.stream);
    let mut entry: Option<RawEntry> = None;
    let summary = bundle::read(path, limits, &stream_for, |e| {
        if entry.is_none() {
            entry = Some(e);
        }
    })?;
    let Some(entry) = entry else {
        return Err(SingleError::Unread {
            path: shown(),
            why: summary
                .stopped
                .clone()
                .unwrap_or_else(|| "the reader delivered no content".into()),
        });
    };
    Ok((process(entry, forced, limits.max_entry_bytes), summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::Outcome;

    const MPSTAT: &str = "Linux 6.1.0 (db1) \t2024-05-01 \t_x86_64_\t(2 CPU)\n\n\
12:00:01     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
12:00:02     all    1.00    0.00    1.00    0.00    0.00   48.00    0.00    0.00    0.00   50.00\n";

    #[test]
    fn a_loose_file_is_sniffed_and_a_forced_kind_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("capture.txt");
        std::fs::write(&p, MPSTAT).unwrap();
        let (a, _) = read_one(&p, None, &Limits::default()).unwrap();
        assert_eq!(a.kind_name(), Some("mpstat"));
        assert_eq!(a.outcome, Outcome::Parsed);
        assert!(a.data.is_some());
        // Forced as a kind whose parser cannot read it: unusable, never another kind.
        let (a, _) = read_one(&p, Some(&parsers::kind::VMSTAT), &Limits::default()).unwrap();
        assert_eq!(a.kind_name(), Some("vmstat"));
        assert!(
            matches!(a.outcome, Outcome::Unusable { .. }),
            "{:?}",
            a.outcome
        );
    }

    #[test]
    fn folders_and_archives_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_one(dir.path(), None, &Limits::default()).unwrap_err();
        assert!(matches!(e, SingleError::NotOneFile { .. }), "{e}");
        let tar = dir.path().join("b.tar");
        let mut b = tar::Builder::new(std::fs::File::create(&tar).unwrap());
        let mut h = tar::Header::new_gnu();
        h.set_size(MPSTAT.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, "mpstat.txt", MPSTAT.as_bytes())
            .unwrap();
        b.into_inner().unwrap();
        let e = read_one(&tar, None, &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("a tar archive"), "{e}");
    }

    #[test]
    fn standard_input_is_read_by_content_capped_and_named() {
        let (a, _) = read_stdin(MPSTAT.as_bytes(), None, &Limits::default()).unwrap();
        assert_eq!(
            (a.path.as_str(), a.kind_name()),
            (STDIN_NAME, Some("mpstat"))
        );
        assert_eq!(a.outcome, Outcome::Parsed);
        let small = Limits {
            max_entry_bytes: MPSTAT.len() as u64 - 1,
            ..Limits::default()
        };
        let e = read_stdin(MPSTAT.as_bytes(), None, &small).unwrap_err();
        assert!(matches!(e, SingleError::StdinTooLarge { .. }), "{e}");
        assert!(e.to_string().contains("--max-entry-size"), "{e}");
        let exact = Limits {
            max_entry_bytes: MPSTAT.len() as u64,
            ..Limits::default()
        };
        assert!(read_stdin(MPSTAT.as_bytes(), None, &exact).is_ok());
        let e = read_stdin(&b""[..], None, &Limits::default());
        assert!(
            e.is_ok()
                || matches!(e, Err(SingleError::Unread { ref path, .. }) if path == STDIN_NAME)
        );
    }

    #[test]
    fn a_compressed_file_is_read_decompressed() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.gz");
        let mut z = flate2::write::GzEncoder::new(
            std::fs::File::create(&p).unwrap(),
            flate2::Compression::default(),
        );
        z.write_all(MPSTAT.as_bytes()).unwrap();
        z.finish().unwrap();
        let (a, s) = read_one(&p, None, &Limits::default()).unwrap();
        assert_eq!((a.path.as_str(), a.kind_name()), ("m", Some("mpstat")));
        assert_eq!(s.format, Some(bundle::Format::Gzip));
    }
}
