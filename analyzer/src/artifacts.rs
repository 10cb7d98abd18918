//! From bundle entries to parsed artifacts, in parallel, each ending with exactly one outcome.
//!
//! In: the bundle path and [`Limits`]. Out: [`Collected`]: one [`Artifact`] per file (and per
//! manifest record whose file is missing), the manifest, refused entries and the read summary.
//!
//! Once the bundle's layout is known, some files give artifacts of their own ([`Origin`]): a
//! supportconfig file's entries, an OSWatcher tool's hours joined into one series.
//!
//! The archive is decompressed on one thread; every finished entry is handed to the rayon pool
//! and parsed while the next one is still being read. A panic inside a parser is caught and
//! becomes a "parser bug" outcome for that artifact alone, naming the input line it panicked at,
//! without the panic hook printing its message (which may quote the input).
//!
//! Each entry's bytes become its [`Text`] once (undecodable and NUL bytes shown as U+FFFD, the
//! decoded size bounded by the entry limit), shared by the parser, the findings' excerpts and the
//! report's viewer, which find lines through one line index per artifact.

mod derived;
pub mod single;
mod text;

use crate::bundle::{self, EntryContent, Limits, RawEntry, ReadSummary};
use crate::console;
use crate::layout;
use crate::manifest::{self, Manifest, ManifestRecord};
use parsers::kind::{self, Data, KindSpec, Record, Sniffed};
use parsers::{IssueKind, LineIssue};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The single outcome of one artifact.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Outcome {
    /// Parsed completely.
    Parsed,
    /// Parsed with issues (listed in [`Artifact::issues`] with input line numbers).
    Partial,
    /// Recognised, but nothing usable could be read.
    Unusable {
        /// Why.
        reason: String,
    },
    /// Kind unknown, or known but without a parser in this version.
    Unrecognised {
        /// Why, e.g. "no parser recognised the content".
        reason: String,
    },
    /// The collector could not produce it.
    NotCollected {
        /// The command's exit status, when it ran.
        exit: Option<i32>,
        /// Stopped by the collector's time budget.
        timed_out: bool,
        /// The collector's note (`not found`, `permission denied`, ...).
        note: String,
    },
    /// Larger than the entry or total size limit, or its text would be once decoded (an issue
    /// says how long); not read.
    TooLarge {
        /// The limit, bytes.
        limit: u64,
    },
    /// A symbolic or hard link inside the bundle: its file is read once, at the target's path.
    Link {
        /// The bundle path the link leads to (after following links to links).
        target: String,
    },
    /// The parser panicked: a defect in rca, not in the input.
    ParserBug {
        /// `parser bug in `iostat` at line 12 (panicked at parsers/src/…: <message>)`; the
        /// panic's own message is cleaned of control characters and cut short, as it may quote
        /// the input.
        message: String,
        /// The 1-based input line the parser panicked at: the first line whose addition to the
        /// text makes it panic, sought for texts up to [`PANIC_LINE_MAX_BYTES`].
        line: Option<usize>,
    },
}

impl Outcome {
    /// Label, as `status` in the JSON document (`parsed`, `not-collected`, ...).
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Parsed => "parsed",
            Outcome::Partial => "partial",
            Outcome::Unusable { .. } => "unusable",
            Outcome::Unrecognised { .. } => "unrecognised",
            Outcome::NotCollected { .. } => "not-collected",
            Outcome::TooLarge { .. } => "too-large",
            Outcome::Link { .. } => "link",
            Outcome::ParserBug { .. } => "parser-bug",
        }
    }
}

/// One file of the bundle after parsing.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Artifact {
    /// Path inside the bundle.
    pub path: String,
    /// Its kind, when resolved; serialised as the kind's name (`iostat`).
    #[serde(serialize_with = "kind_name")]
    #[schemars(with = "Option<String>")]
    pub kind: Option<&'static KindSpec>,
    /// How the kind was decided.
    pub kind_source: Option<KindSource>,
    /// Size, bytes.
    pub bytes: u64,
    /// The outcome.
    pub outcome: Outcome,
    /// Problems met, with 1-based input line numbers (0 = the whole artifact).
    pub issues: Vec<LineIssue>,
    /// The collector's record for this artifact, if the bundle has a manifest.
    pub record: Option<ManifestRecord>,
    /// The text (lossy UTF-8, see [`Text::decode`]), shared with the parser and kept for
    /// evidence excerpts and the report's viewer. For an artifact parsed while read
    /// (`kept_lines` set) only the lines kept for citing, one per text line.
    #[serde(skip)]
    pub text: Text,
    /// For an artifact parsed while read (a large `perf script`): the input line number of each
    /// line of `text`, ascending. `None`: `text` is the whole artifact.
    #[serde(skip)]
    pub kept_lines: Option<Arc<Vec<usize>>>,
    /// The parsed record; `None` in an analysis once its facts are built
    /// ([`Collected::drop_records`]).
    #[serde(skip)]
    pub data: Option<Data>,
    /// Where a virtual artifact comes from: an entry of one file (its lines numbered as in that
    /// file), or files joined in time order. `None` for a file of the bundle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

pub use derived::{Origin, Part};
pub use text::{Lines, Text, TooLong, INDEX_BLOCK};

/// Everything read from one bundle.
#[derive(Debug, Clone, Serialize)]
pub struct Collected {
    /// Artifacts sorted by path.
    pub artifacts: Vec<Artifact>,
    /// The collector's manifest, if present.
    pub manifest: Option<Manifest>,
    /// Path of the manifest inside the bundle.
    pub manifest_path: Option<String>,
    /// Format, refused entries, stop reason.
    pub summary: ReadSummary,
    /// The bundle's layout: which tool wrote it, from its marker paths.
    pub layout: layout::Detected,
    /// Why the collection is incomplete, if it is (empty when whole): what the collector's
    /// manifest says or shows ([`Manifest::gaps`]), and files it lists that the bundle lacks.
    /// Such a bundle is never called healthy.
    pub incomplete: Vec<String>,
    /// What `rca redact` did to the bundle, from its `redaction.json` (at the bundle's root or
    /// in its top folder), which is not an artifact.
    pub redaction: Option<crate::redact::Summary>,
}

impl Collected {
    /// Drops every artifact's parsed record ([`Artifact::data`]). Records are read only to
    /// build the host's facts (rules read facts; citing, the report and its viewer read text),
    /// and they are most of an analysis's memory, about twice their text: once the facts are
    /// built, the rules, the citing and the report run without them.
    pub fn drop_records(&mut self) {
        use rayon::prelude::*;
        // Freed on every thread: millions of small allocations for a large bundle.
        self.artifacts.par_iter_mut().for_each(|a| a.data = None);
    }

    /// Every artifact that parsed (fully or partly) into a record of type `T`, in path order,
    /// with that record: `c.records::<Iostat>()`.
    pub fn records<T: Record>(&self) -> impl Iterator<Item = (&Artifact, &T)> + '_ {
        self.artifacts
            .iter()
            .filter_map(|a| a.data.as_ref().and_then(T::of).map(|d| (a, d)))
    }

    /// Like [`Collected::records`], for one of the kinds that share the record type `T`
    /// (`/proc/modules` and `lsmod` both give modules): `c.records_of::<Vec<Module>>(&kind::LSMOD)`.
    pub fn records_of<'a, T: Record>(
        &'a self,
        of: &'static KindSpec,
    ) -> impl Iterator<Item = (&'a Artifact, &'a T)> + 'a {
        self.records::<T>().filter(move |(a, _)| a.is(of))
    }
}

/// How an artifact's kind was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KindSource {
    /// From the collector's manifest.
    Manifest,
    /// From the layout's path table.
    Path,
    /// From the content.
    Content,
    /// From the path of a link that leads to it (`etc/os-release` → `usr/lib/…`).
    Link,
}

fn kind_name<S: serde::Serializer>(k: &Option<&'static KindSpec>, s: S) -> Result<S::Ok, S::Error> {
    k.map(|k| k.name).serialize(s)
}

/// The streaming parser for an entry at `path`: its kind's by the layout's path table, if that
/// kind has one (`perf script`).
fn stream_for(path: &str) -> Option<parsers::kind::StreamFn> {
    layout::by_path(path).and_then(|k| k.stream)
}

/// Reads and parses a bundle. Errors: the bundle could not be opened or is an unsupported format.
pub fn collect(path: &Path, limits: &Limits) -> Result<Collected, bundle::BundleError> {
    collect_until(path, limits, None)
}

/// Like [`collect`], parsing no entry once `deadline` passes: the entries read after it are
/// dropped, so the result is incomplete and only good for knowing that the deadline passed.
pub fn collect_until(
    path: &Path,
    limits: &Limits,
    deadline: Option<std::time::Instant>,
) -> Result<Collected, bundle::BundleError> {
    let past = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let results: Mutex<Vec<Artifact>> = Mutex::new(Vec::new());
    let manifest: Mutex<Option<(String, Text)>> = Mutex::new(None);
    let manifests: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let links: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    let redaction: Mutex<Option<crate::redact::Summary>> = Mutex::new(None);
    let queued = Queued::default();
    let queued = &queued;
    let mut summary = rayon::scope(|s| {
        bundle::read(path, limits, &stream_for, |entry: RawEntry| {
            if past() {
                return;
            }
            if crate::redact::is_summary(&entry.path) {
                if let EntryContent::Bytes(b) = &entry.content {
                    if let Ok(r) = serde_json::from_slice::<crate::redact::Summary>(b) {
                        *redaction.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                        return;
                    }
                }
            }
            let is_manifest = entry.path == manifest::FILE_NAME
                || entry.path.ends_with(&format!("/{}", manifest::FILE_NAME));
            if is_manifest {
                let folder = entry
                    .path
                    .strip_suffix(manifest::FILE_NAME)
                    .unwrap_or("")
                    .trim_end_matches('/');
                let folder = if folder.is_empty() { "." } else { folder };
                manifests
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(folder.to_string());
                let mut m = manifest.lock().unwrap_or_else(|e| e.into_inner());
                if m.is_none() && matches!(entry.content, EntryContent::Bytes(_)) {
                    if let EntryContent::Bytes(b) = entry.content {
                        let size = b.len() as u64;
                        match Text::decode(b, limits.max_entry_bytes) {
                            Ok((text, _)) => *m = Some((entry.path, text)),
                            Err(e) => results
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(too_long(entry.path, size, limits.max_entry_bytes, e)),
                        }
                    }
                    return;
                }
            }
            if let EntryContent::Link { target } = entry.content {
                links
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((entry.path, target));
                return;
            }
            let results = &results;
            let queued = queued.admit(&entry);
            s.spawn(move |_| {
                let _queued = queued;
                if past() {
                    return;
                }
                let a = process(entry, None, limits.max_entry_bytes);
                results.lock().unwrap_or_else(|e| e.into_inner()).push(a);
            });
        })
    })?;
    let mut folders = manifests.into_inner().unwrap_or_else(|e| e.into_inner());
    folders.sort();
    folders.dedup();
    if folders.len() > 1 {
        return Err(bundle::BundleError::SeveralBundles(folders));
    }
    let mut artifacts = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let manifest = manifest.into_inner().unwrap_or_else(|e| e.into_inner());
    resolve_links(
        &mut artifacts,
        links.into_inner().unwrap_or_else(|e| e.into_inner()),
        &mut summary.refused,
    );
    let detected = layout::detect(
        artifacts
            .iter()
            .map(|a| a.path.as_str())
            .chain(manifest.as_ref().map(|(p, _)| p.as_str())),
    );
    place_in_layout(&mut artifacts, &detected);
    derived::split_supportconfig(&mut artifacts, &detected);
    derived::join_oswatcher(&mut artifacts);
    let mut incomplete = Vec::new();
    let (manifest_path, manifest) = match manifest {
        Some((p, text)) => {
            let m = Manifest::parse(&text.contents(), limits.max_entries);
            let files = artifacts.len();
            let absent = reconcile(&mut artifacts, &p, &m, summary.stopped.as_deref());
            incomplete = m.gaps();
            incomplete.extend(absent.describe(summary.stopped.as_deref()));
            if m.meta.collector_version.is_some() {
                unlisted(&mut artifacts[..files]);
            }
            artifacts.push(Artifact {
                path: p.clone(),
                kind: Some(&kind::MANIFEST),
                kind_source: Some(KindSource::Path),
                bytes: text.len() as u64,
                outcome: if m.issues.is_empty() {
                    Outcome::Parsed
                } else {
                    Outcome::Partial
                },
                issues: m.issues.clone(),
                record: None,
                text: text.pack(),
                kept_lines: None,
                data: None,
                origin: None,
            });
            (Some(p), Some(m))
        }
        None => sos_manifest(
            &mut artifacts,
            &detected,
            limits.max_entries,
            summary.stopped.as_deref(),
        ),
    };
    artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Collected {
        artifacts,
        manifest,
        manifest_path,
        summary,
        layout: detected,
        incomplete,
        redaction: redaction.into_inner().unwrap_or_else(|e| e.into_inner()),
    })
}

/// Bytes of entries read but not yet parsed past which reading waits (parsing queued entries
/// itself meanwhile): an archive inflates faster than most kinds parse, and entries left to
/// queue would hold the bundle's whole text. An entry larger than this is let in alone.
pub const QUEUED_BYTES: u64 = 64 << 20;

/// The bytes of the entries handed to the pool and not yet parsed.
#[derive(Default)]
struct Queued(std::sync::atomic::AtomicU64);

/// One entry's share of [`Queued`], given back when dropped (its parse done, or skipped).
struct Admitted<'a> {
    queued: &'a Queued,
    bytes: u64,
}

impl Queued {
    /// Waits until `entry`'s bytes fit within [`QUEUED_BYTES`] with those queued (or nothing is
    /// queued), running queued parses on this thread meanwhile when it is one of the pool's,
    /// then counts them in.
    fn admit(&self, entry: &RawEntry) -> Admitted<'_> {
        use std::sync::atomic::Ordering::SeqCst;
        let bytes = match &entry.content {
            EntryContent::Bytes(b) => b.len() as u64,
            _ => 0,
        };
        loop {
            let now = self.0.load(SeqCst);
            if now == 0 || now + bytes <= QUEUED_BYTES {
                break;
            }
            if rayon::yield_now() != Some(rayon::Yield::Executed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        let now = self.0.fetch_add(bytes, SeqCst) + bytes;
        crate::memstat::high("read queue (entries read, not yet parsed)", now);
        Admitted {
            queued: self,
            bytes,
        }
    }
}

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.queued
            .0
            .fetch_sub(self.bytes, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The files a manifest lists with an output (its note begins neither with `not found` nor
/// with `skipped`) that the bundle does not hold, in manifest order.
#[derive(Debug, Default)]
struct Absent(Vec<String>);

impl Absent {
    /// The gap they make, if any: lost from the bundle, or not read because reading stopped
    /// early (`stopped`).
    fn describe(&self, stopped: Option<&str>) -> Option<String> {
        let first = self.0.first()?;
        let n = self.0.len();
        Some(match stopped {
            Some(why) => format!(
                "{n} file(s) the manifest lists were not read, reading having stopped early ({why}); first: {first}"
            ),
            None => format!(
                "{n} file(s) the manifest lists are missing from the bundle; first: {first}"
            ),
        })
    }
}

/// Marks the files of a collector bundle (`artifacts`, before the manifest's own artifacts
/// were added) that its manifest does not list: every file the collector writes has a record,
/// so such a file was added later, or the manifest is incomplete. Each becomes partial with an
/// issue saying so.
/// ([`reconcile`] has given every listed file its record.)
fn unlisted(artifacts: &mut [Artifact]) {
    for a in artifacts.iter_mut() {
        if a.record.is_some() || a.origin.is_some() || matches!(a.outcome, Outcome::Link { .. }) {
            continue;
        }
        a.issues.insert(
            0,
            LineIssue::of(
                IssueKind::Collection,
                0,
                "not listed in the collector's manifest: added to the bundle after the collection, or the manifest is incomplete",
            ),
        );
        if a.outcome == Outcome::Parsed {
            a.outcome = Outcome::Partial;
        }
    }
}

/// Most links followed from one link before it counts as a loop.
const MAX_LINK_HOPS: usize = 16;

/// Turns the bundle's links (`(link path, target path)`, both normalised bundle paths) into
/// artifacts of outcome [`Outcome::Link`], each naming the file (or folder) it finally leads to,
/// after links to links and links among its folders. The target is read once, under its own
/// path; when the link's place names a kind and the target's does not (a sosreport's
/// `etc/os-release` pointing at `usr/lib/os-release` elsewhere), the target is parsed as the
/// link's kind. A link that leads to no file (dangling, or to an empty folder, which archives
/// do not list) is an unusable artifact saying so; a loop is refused and listed in `refused`.
fn resolve_links(
    artifacts: &mut Vec<Artifact>,
    links: Vec<(String, String)>,
    refused: &mut Vec<bundle::Refused>,
) {
    if links.is_empty() {
        return;
    }
    let to: HashMap<&str, &str> = links
        .iter()
        .map(|(l, t)| (l.as_str(), t.as_str()))
        .collect();
    let mut index: HashMap<String, usize> = artifacts
        .iter()
        .enumerate()
        .map(|(i, a)| (a.path.clone(), i))
        .collect();
    let mut folders: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for a in artifacts.iter() {
        let mut p = a.path.as_str();
        while let Some((parent, _)) = p.rsplit_once('/') {
            folders.insert(parent);
            p = parent;
        }
    }
    let folders: std::collections::HashSet<String> =
        folders.into_iter().map(str::to_string).collect();
    let mut made = Vec::new();
    for (link, first) in &links {
        let Some(target) = follow(first, &to) else {
            refused.push(bundle::Refused {
                path: link.clone(),
                reason: format!("link loop: following `{first}` comes back round"),
            });
            continue;
        };
        let target = target.as_str();
        let Some(&i) = index.get(target) else {
            if folders.contains(target) {
                made.push(link_artifact(link, target));
            } else {
                let mut a = link_artifact(link, target);
                a.outcome = Outcome::Unusable {
                    reason: format!(
                        "a link to `{target}`, which leads to no file in the bundle (dangling, \
                         or an empty folder)"
                    ),
                };
                made.push(a);
            }
            continue;
        };
        // The target's own place says nothing, the link's does: read the target as that kind.
        if let (Some(spec), None) = (layout::by_path(link), layout::by_path(target)) {
            if artifacts[i].is(spec) {
                // Sniffed as the same kind: its kind now rests on the link's place.
                artifacts[i].kind_source = Some(KindSource::Link);
            }
            let t = &artifacts[i];
            if !t.is(spec) && t.kept_lines.is_none() && !read_failed(t) && t.origin.is_none() {
                let mut redone =
                    parse_with(spec, KindSource::Link, &t.path, t.text.clone(), t.bytes);
                redone.issues.insert(
                    0,
                    LineIssue::of(
                        IssueKind::Kind,
                        0,
                        format!("read as `{}` because `{link}` links to it", spec.name),
                    ),
                );
                if redone.outcome == Outcome::Parsed {
                    redone.outcome = Outcome::Partial;
                }
                artifacts[i] = redone;
            }
        }
        made.push(link_artifact(link, target));
    }
    for a in made {
        index.insert(a.path.clone(), artifacts.len());
        artifacts.push(a);
    }
}

/// Where `path` leads once every link among its leading folders (and itself) is followed, from
/// the top down (`proc/net/dev` with `proc/net → proc/self/net` and `proc/self → proc/4813`:
/// `proc/4813/net/dev`). `None` after [`MAX_LINK_HOPS`] links: a loop.
fn follow(path: &str, to: &HashMap<&str, &str>) -> Option<String> {
    let mut path = path.to_string();
    for _ in 0..MAX_LINK_HOPS {
        let ends = path
            .match_indices('/')
            .map(|(i, _)| i)
            .chain(std::iter::once(path.len()));
        let hit = ends
            .filter_map(|i| to.get(path.get(..i)?).map(|t| (i, *t)))
            .next();
        match hit {
            None => return Some(path),
            Some((i, t)) => path = format!("{t}{}", path.get(i..).unwrap_or("")),
        }
    }
    None
}

fn link_artifact(link: &str, target: &str) -> Artifact {
    Artifact::bare(
        link.to_string(),
        Outcome::Link {
            target: target.to_string(),
        },
    )
}

/// Applies the bundle's layout to kinds that were decided before it was known: a path the
/// layout names is read as its kind (parsed again where the first guess differed), and content
/// that was sniffed where the layout says what the file is, and that rca does not read, is
/// dropped with the layout's reason.
fn place_in_layout(artifacts: &mut [Artifact], d: &layout::Detected) {
    use rayon::prelude::*;
    artifacts.par_iter_mut().for_each(|a| {
        if matches!(a.outcome, Outcome::Link { .. }) {
            return;
        }
        let reparse = |a: &Artifact, spec| {
            let mut redone = parse_with(spec, KindSource::Path, &a.path, a.text.clone(), a.bytes);
            redone.issues.splice(
                0..0,
                a.issues
                    .iter()
                    .filter(|i| i.kind == IssueKind::Encoding)
                    .cloned(),
            );
            if redone.outcome == Outcome::Parsed && !redone.issues.is_empty() {
                redone.outcome = Outcome::Partial;
            }
            redone
        };
        match layout::place(d, &a.path) {
            layout::Place::Kind(spec)
                if !a.is(kind::refine(spec, &a.text.head(kind::SNIFF_HEAD_BYTES))) =>
            {
                if a.kept_lines.is_some()
                    || read_failed(a)
                    || matches!(a.outcome, Outcome::TooLarge { .. })
                {
                    a.kind = Some(spec);
                    a.kind_source = Some(KindSource::Path);
                } else {
                    *a = reparse(a, spec);
                }
            }
            // Sniffed as the kind the layout names: the path decided it.
            layout::Place::Kind(_) => a.kind_source = Some(KindSource::Path),
            layout::Place::NotRead(why)
                if matches!(a.kind_source, Some(KindSource::Content | KindSource::Path))
                    || (a.kind.is_none() && matches!(a.outcome, Outcome::Unrecognised { .. })) =>
            {
                a.kind = None;
                a.kind_source = None;
                a.data = None;
                a.issues.retain(|i| i.kind == IssueKind::Encoding);
                a.outcome = Outcome::Unrecognised { reason: why.into() };
            }
            _ => {}
        }
    });
}

/// Reads a sosreport's own manifest (`sos_reports/manifest.json`, sos ≥ 4.0) into rca's
/// manifest shape ([`layout::sosreport::manifest`]) and applies it as [`reconcile`] applies
/// rca's: each command's exit status and timeout reach its artifact, a command not found
/// becomes a "not collected" artifact, and the run's start and end date the bundle. The
/// manifest file itself becomes the bundle's `manifest` artifact; a plugin that sos stopped at
/// its time budget is noted on each of its artifacts. Returns the manifest's path and manifest,
/// `(None, None)` for other layouts or without one.
fn sos_manifest(
    artifacts: &mut Vec<Artifact>,
    d: &layout::Detected,
    max_records: usize,
    stopped: Option<&str>,
) -> (Option<String>, Option<Manifest>) {
    use layout::sosreport;
    if d.layout != layout::Layout::Sosreport {
        return (None, None);
    }
    let path = d.join(sosreport::MANIFEST);
    let Some(at) = artifacts.iter().position(|a| a.path == path) else {
        return (None, None);
    };
    let text_of = |rel: &str| {
        let p = d.join(rel);
        artifacts
            .iter()
            .find(|a| a.path == p)
            .map(|a| a.text.clone())
    };
    let read = {
        let dates = sosreport::DATES.map(text_of);
        let dates = dates.each_ref().map(|t| t.as_ref().map(Text::contents));
        sosreport::manifest(
            &artifacts[at].text.contents(),
            d,
            max_records,
            dates.each_ref().map(|t| t.as_deref()),
        )
    };
    let own = &mut artifacts[at];
    own.kind = Some(&kind::MANIFEST);
    own.kind_source = Some(KindSource::Path);
    own.data = None;
    let sos = match read {
        Ok(sos) => sos,
        Err(reason) => {
            own.outcome = Outcome::Unusable { reason };
            return (None, None);
        }
    };
    own.issues.retain(|i| i.kind == IssueKind::Encoding);
    own.issues.extend(sos.manifest.issues.iter().cloned());
    own.outcome = if own.issues.is_empty() {
        Outcome::Parsed
    } else {
        Outcome::Partial
    };
    // Record paths are bundle paths and the manifest is not named `manifest.tsv`: reconcile
    // matches them whole.
    let files = artifacts.len();
    // (A sosreport lists only its commands, and its own manifest says what sos skipped: the
    // files it lacks are its plugins' choice, not a gap.)
    reconcile(artifacts, &path, &sos.manifest, stopped);
    for a in artifacts[..files].iter_mut() {
        // The kind came from the layout's path table; the manifest only says how the run went.
        if a.record.is_some() && a.kind_source == Some(KindSource::Manifest) {
            a.kind_source = Some(KindSource::Path);
        }
    }
    for plugin in &sos.timed_out_plugins {
        let dir = d.join(&format!("sos_commands/{plugin}/"));
        for a in artifacts
            .iter_mut()
            .filter(|a| a.kind.is_some() && a.path.starts_with(&dir))
        {
            a.issues.insert(
                0,
                LineIssue::of(
                    IssueKind::Collection,
                    0,
                    format!("sos stopped its `{plugin}` plugin at its time budget: the plugin's later commands did not run, so an output missing from it says nothing about the host"),
                ),
            );
            if a.outcome == Outcome::Parsed {
                a.outcome = Outcome::Partial;
            }
        }
    }
    (Some(path), Some(sos.manifest))
}

/// Applies the manifest: its kinds take precedence (re-parsing where they differ from what the
/// path or content suggested), the collector's exit status and timeouts are attached, and records
/// without a file become "not collected" artifacts. Returns the listed files with an output that
/// the bundle lacks.
fn reconcile(
    artifacts: &mut Vec<Artifact>,
    manifest_path: &str,
    m: &Manifest,
    stopped: Option<&str>,
) -> Absent {
    let prefix = manifest_path
        .strip_suffix(manifest::FILE_NAME)
        .unwrap_or("");
    let index: HashMap<&str, usize> = m
        .artifacts
        .iter()
        .enumerate()
        .map(|(i, r)| (r.path.as_str(), i))
        .collect();
    let mut seen = vec![false; m.artifacts.len()];
    for a in artifacts.iter_mut() {
        let Some(rel) = a.path.strip_prefix(prefix) else {
            continue;
        };
        let Some(&idx) = index.get(rel) else { continue };
        seen[idx] = true;
        let rec = &m.artifacts[idx];
        match kind::by_name(&rec.kind) {
            // A streamed artifact keeps only some lines: it cannot be parsed again as another
            // kind, and keeps the kind its path gave it.
            Some(spec)
                if !a.is(spec)
                    && !matches!(a.outcome, Outcome::TooLarge { .. })
                    && a.kept_lines.is_none()
                    && !read_failed(a) =>
            {
                let looked_like = a.kind;
                let mut redone = parse_with(spec, KindSource::Manifest, &a.path, a.text.clone(), a.bytes);
                redone.issues.splice(0..0, a.issues.iter().filter(|i| i.kind == IssueKind::Encoding).cloned());
                // A kind this version does not analyze has no parser to contradict the content:
                // outputs that resemble another kind (`ip addr` and `ip link`) are not a conflict.
                if let Some(other) = looked_like.map(|k| k.name).filter(|_| spec.parse.is_some()) {
                    redone.issues.insert(
                        0,
                        LineIssue::of(
                            IssueKind::Kind,
                            0,
                            format!(
                                "the manifest says kind `{}`, but the path or content looks like `{other}`; read as `{}`",
                                spec.name, spec.name
                            ),
                        ),
                    );
                    if redone.outcome == Outcome::Parsed {
                        redone.outcome = Outcome::Partial;
                    }
                }
                *a = redone;
            }
            Some(_) => a.kind_source = Some(KindSource::Manifest),
            None => a.issues.insert(
                0,
                LineIssue::of(
                    IssueKind::Kind,
                    0,
                    format!(
                        "the manifest's kind `{}` is unknown to this version of rca; the kind was taken from the {}",
                        rec.kind,
                        if a.kind_source == Some(KindSource::Path) { "path" } else { "content" }
                    ),
                ),
            ),
        }
        a.record = Some(rec.clone());
        let failed = rec.timed_out
            || rec.exit.is_some_and(|e| {
                e != 0
                    && !a
                        .kind
                        .and_then(|k| k.answers_with_exit)
                        .is_some_and(|answers| answers(e, &a.text.contents()))
            });
        if failed && matches!(a.outcome, Outcome::Unusable { .. }) {
            // The command failed and printed only its complaint: that is the collector's
            // problem to report, not a parse failure.
            let said = a
                .text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default()
                .trim()
                .chars()
                .take(200)
                .collect::<String>();
            let note = match (rec.note.is_empty(), said.is_empty()) {
                (true, true) => String::new(),
                (true, false) => said,
                (false, true) => rec.note.clone(),
                (false, false) if rec.note.contains(&said) => rec.note.clone(),
                (false, false) => format!("{}; output: {said}", rec.note),
            };
            a.outcome = Outcome::NotCollected {
                exit: rec.exit,
                timed_out: rec.timed_out,
                note,
            };
            a.data = None;
        } else if failed && a.text.is_blank() {
            a.outcome = Outcome::NotCollected {
                exit: rec.exit,
                timed_out: rec.timed_out,
                note: rec.note.clone(),
            };
            a.data = None;
        } else if failed || rec.truncated || rec.write_failed().is_some() {
            let why = if let Some(w) = rec.write_failed() {
                format!("the collector could not write this output in full ({w}); it may end early")
            } else if rec.timed_out {
                "the collector stopped this command at its time budget; the output may end early"
                    .to_string()
            } else if rec.truncated {
                "the collector truncated this output at its size cap".to_string()
            } else {
                format!(
                    "the command exited with status {}; the output may be incomplete",
                    rec.exit.unwrap_or(-1)
                )
            };
            a.issues
                .insert(0, LineIssue::of(IssueKind::Collection, 0, why));
            if a.outcome == Outcome::Parsed {
                a.outcome = Outcome::Partial;
            }
        }
    }
    let mut absent = Absent::default();
    for (rec, seen) in m.artifacts.iter().zip(seen) {
        if seen {
            continue;
        }
        let has_output = !(rec.note.starts_with("not found") || rec.note.starts_with("skipped"));
        if has_output {
            absent.0.push(rec.path.clone());
        }
        let outcome = match stopped {
            // The file may well be in the bundle, after the point where reading stopped.
            Some(why) if has_output => Outcome::Unusable {
                reason: format!("not read: reading the bundle stopped early ({why})"),
            },
            _ => Outcome::NotCollected {
                exit: rec.exit,
                timed_out: rec.timed_out,
                note: if rec.note.is_empty() && rec.exit == Some(0) {
                    "listed in the manifest but absent from the bundle".to_string()
                } else {
                    rec.note.clone()
                },
            },
        };
        artifacts.push(Artifact {
            path: format!("{prefix}{}", rec.path),
            kind: kind::by_name(&rec.kind),
            kind_source: Some(KindSource::Manifest),
            bytes: 0,
            outcome,
            issues: Vec::new(),
            record: Some(rec.clone()),
            text: Text::default(),
            kept_lines: None,
            data: None,
            origin: None,
        });
    }
    absent
}

/// The issue recorded when an artifact's bytes were not all UTF-8.
const NON_UTF8: &str = "non-UTF-8 or NUL bytes were replaced with U+FFFD (first at this line)";

/// Decodes, recognises and parses one entry; its text may take at most `max_text` bytes once
/// decoded (the entry size limit: replacing undecodable bytes grows the text).
pub fn process(entry: RawEntry, forced: Option<&'static KindSpec>, max_text: u64) -> Artifact {
    let path = entry.path;
    let bytes = match entry.content {
        EntryContent::Bytes(b) => b,
        EntryContent::TooLarge { limit } => {
            return Artifact {
                kind: layout::by_path(&path),
                kind_source: layout::by_path(&path).map(|_| KindSource::Path),
                path,
                bytes: limit,
                outcome: Outcome::TooLarge { limit },
                issues: Vec::new(),
                record: None,
                text: Text::default(),
                kept_lines: None,
                data: None,
                origin: None,
            }
        }
        EntryContent::Streamed { bytes, result } => return streamed(path, bytes, *result),
        EntryContent::StreamPanicked { bytes, caught } => {
            let mut a = Artifact::bare(
                path,
                Outcome::ParserBug {
                    message: format!(
                    "parser bug in the streaming parser at an unknown line (panicked at {}: {})",
                    caught.location.as_deref().unwrap_or("an unknown place"),
                    caught.message
                ),
                    line: None,
                },
            );
            a.kind = layout::by_path(&a.path);
            a.kind_source = Some(KindSource::Path);
            a.bytes = bytes;
            return a;
        }
        // Links are resolved once the whole bundle is read (`resolve_links`); one reaching
        // here (a caller of `process` alone) has no bundle to resolve it in.
        EntryContent::Link { target } => return Artifact::bare(path, Outcome::Link { target }),
        EntryContent::ReadError(e) => {
            return Artifact::bare(
                path,
                Outcome::Unusable {
                    reason: format!("{UNREADABLE}: {e}"),
                },
            )
        }
    };
    let size = bytes.len() as u64;
    let (text, utf8_issue) = match Text::decode(bytes, max_text) {
        Ok((text, bad)) => (
            text,
            bad.map(|line| LineIssue::of(IssueKind::Encoding, line, NON_UTF8)),
        ),
        Err(e) => return too_long(path, size, max_text, e),
    };
    let (spec, source) = match forced {
        Some(k) => (Some(k), KindSource::Manifest),
        None => match layout::by_path(&path) {
            Some(k) => (Some(k), KindSource::Path),
            None => match kind::sniff(&text.head(kind::SNIFF_HEAD_BYTES)) {
                Sniffed::Kind(k) => (Some(k), KindSource::Content),
                Sniffed::Nothing => (None, KindSource::Content),
                Sniffed::Ambiguous(names) => {
                    let mut a = unrecognised(
                        path,
                        size,
                        text,
                        format!("could be any of: {}", names.join(", ")),
                    );
                    a.issues.extend(utf8_issue);
                    return a;
                }
            },
        },
    };
    let mut a = match spec {
        Some(spec) => parse_with(spec, source, &path, text, size),
        None => {
            let reason = match nested_archive(&text.head(512)) {
                Some(fmt) => format!("{fmt} data: archives inside a bundle are not unpacked; unpack it and analyze the result"),
                None => "no parser recognised the content".into(),
            };
            unrecognised(path, size, text, reason)
        }
    };
    if let Some(issue) = utf8_issue {
        a.issues.insert(0, issue);
        if a.outcome == Outcome::Parsed {
            a.outcome = Outcome::Partial;
        }
    }
    a
}

/// An entry of `size` bytes whose text would be longer than `limit` once decoded.
fn too_long(path: String, size: u64, limit: u64, e: TooLong) -> Artifact {
    let mut a = Artifact::bare(path, Outcome::TooLarge { limit });
    a.kind = layout::by_path(&a.path);
    a.kind_source = a.kind.map(|_| KindSource::Path);
    a.bytes = size;
    a.issues.push(LineIssue::of(
        IssueKind::Encoding,
        0,
        format!(
            "{} non-UTF-8 or NUL bytes, each shown as U+FFFD (3 bytes), would make its text {} \
             bytes long, over the {limit}-byte limit of one entry; if the bundle is trusted, \
             raise it with --max-entry-size",
            e.replaced, e.decoded
        ),
    ));
    a
}

/// How the outcome of an entry that could not be read from the archive begins.
const UNREADABLE: &str = "could not be read from the bundle";

/// The entry could not be read from the archive (its outcome says why): there is nothing to
/// parse again under the manifest's kind.
fn read_failed(a: &Artifact) -> bool {
    a.text.is_empty()
        && matches!(&a.outcome, Outcome::Unusable { reason } if reason.starts_with(UNREADABLE))
}

/// The artifact of an entry parsed while it was read: its kept lines stand in for the text.
fn streamed(path: String, bytes: u64, st: kind::Streamed) -> Artifact {
    let numbers: Vec<usize> = st.kept.iter().map(|(n, _)| *n).collect();
    let mut text = String::new();
    for (_, t) in &st.kept {
        text.push_str(t);
        text.push('\n');
    }
    let (outcome, issues, data) = match st.parsed {
        Ok((d, issues)) => (
            if issues.is_empty() {
                Outcome::Parsed
            } else {
                Outcome::Partial
            },
            issues,
            Some(d),
        ),
        Err(e) => (
            Outcome::Unusable {
                reason: e.to_string(),
            },
            Vec::new(),
            None,
        ),
    };
    Artifact {
        kind: layout::by_path(&path),
        path,
        kind_source: Some(KindSource::Path),
        bytes,
        outcome,
        issues,
        record: None,
        text: Text::from(text).pack(),
        kept_lines: Some(Arc::new(numbers)),
        data,
        origin: None,
    }
}

impl Artifact {
    /// An artifact of no kind with `outcome` and no text (a link, an unreadable entry, a
    /// command that left no file).
    pub fn bare(path: String, outcome: Outcome) -> Artifact {
        Artifact {
            path,
            kind: None,
            kind_source: None,
            bytes: 0,
            outcome,
            issues: Vec::new(),
            record: None,
            text: Text::default(),
            kept_lines: None,
            data: None,
            origin: None,
        }
    }

    /// Whether its kind is `k`.
    pub fn is(&self, k: &KindSpec) -> bool {
        self.kind.is_some_and(|own| std::ptr::eq(own, k))
    }

    /// Its kind's name (`iostat`), when resolved.
    pub fn kind_name(&self) -> Option<&'static str> {
        self.kind.map(|k| k.name)
    }

    /// Its lines, addressable by input line number.
    pub fn lines(&self) -> Lines<'_> {
        Lines::new(&self.text, self.kept_lines.as_deref().map(Vec::as_slice))
    }
}

/// Names a compressed or archive format from the magic bytes that survived lossy decoding.
fn nested_archive(text: &str) -> Option<&'static str> {
    let b = text.as_bytes();
    if b.starts_with(b"PK\x03\x04") {
        Some("zip")
    } else if b.starts_with(b"\x1f\xef\xbf\xbd") || b.starts_with(&[0x1f, 0x8b]) {
        Some("gzip")
    } else if b.starts_with(b"BZh") {
        Some("bzip2")
    } else if b.starts_with(b"\xef\xbf\xbd7zXZ") {
        Some("xz")
    } else if b.len() > 262 && &b[257..262] == b"ustar" {
        Some("tar")
    } else {
        None
    }
}

fn unrecognised(path: String, bytes: u64, text: Text, reason: String) -> Artifact {
    Artifact {
        path,
        kind: None,
        kind_source: None,
        bytes,
        outcome: Outcome::Unrecognised { reason },
        issues: Vec::new(),
        record: None,
        text: text.pack(),
        kept_lines: None,
        data: None,
        origin: None,
    }
}

/// Parses `text` as `spec`, catching parser panics.
fn parse_with(
    spec: &'static KindSpec,
    source: KindSource,
    path: &str,
    text: Text,
    bytes: u64,
) -> Artifact {
    // Parsed whole: a packed text (read again as another kind) is decompressed for the parse,
    // and the text kept is packed once the parser is done with it.
    let mut a = parse_whole(spec, source, path, &text.contents(), bytes);
    a.text = text.pack();
    a
}

/// [`parse_with`] on the whole text; the artifact's text is left empty.
fn parse_whole(
    spec: &'static KindSpec,
    source: KindSource,
    path: &str,
    text: &str,
    bytes: u64,
) -> Artifact {
    // A file named as one kind may hold another that carries it (a GC log with histograms).
    let named = spec;
    let spec = kind::refine(named, text);
    let source = if std::ptr::eq(spec, named) {
        source
    } else {
        KindSource::Content
    };
    let mut a = Artifact {
        path: path.to_string(),
        kind: Some(spec),
        kind_source: Some(source),
        bytes,
        outcome: Outcome::Parsed,
        issues: Vec::new(),
        record: None,
        text: Text::default(),
        kept_lines: None,
        data: None,
        origin: None,
    };
    let Some(parse) = spec.parse else {
        a.outcome = Outcome::Unrecognised {
            reason: format!(
                "kind `{}` is collected but not analyzed in this version",
                spec.name
            ),
        };
        return a;
    };
    let (parsed, heap) = crate::memstat::held(|| console::catch_quietly(|| parse(text)));
    crate::memstat::record(spec.name, text.len() as u64, heap);
    match parsed {
        Ok(Ok((data, issues))) => {
            a.outcome = if issues.is_empty() {
                Outcome::Parsed
            } else {
                Outcome::Partial
            };
            a.issues = issues;
            a.data = Some(data);
        }
        Ok(Err(e)) => {
            a.outcome = Outcome::Unusable {
                reason: e.to_string(),
            }
        }
        Err(caught) => {
            let line = panic_line(parse, text);
            a.outcome = Outcome::ParserBug {
                message: format!(
                    "parser bug in `{}` at {} (panicked at {}: {})",
                    spec.name,
                    line.map(|l| format!("line {l}"))
                        .unwrap_or_else(|| "an unknown line".into()),
                    caught.location.as_deref().unwrap_or("an unknown place"),
                    caught.message
                ),
                line,
            };
        }
    }
    a
}

/// Largest text whose panic line is sought: finding it parses prefixes of the text about
/// log2(lines) times.
pub const PANIC_LINE_MAX_BYTES: usize = 4 << 20;

/// The input line at which `parse`, which panicked on `text`, starts to panic: the smallest
/// number of leading lines found (by bisection) to make it panic when one fewer does not. `None`
/// for a text over [`PANIC_LINE_MAX_BYTES`] or a parser that panics on empty input.
fn panic_line(parse: kind::ParseFn, text: &str) -> Option<usize> {
    if text.len() > PANIC_LINE_MAX_BYTES {
        return None;
    }
    let ends: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain((!text.ends_with('\n') && !text.is_empty()).then_some(text.len()))
        .collect();
    let panics = |lines: usize| {
        let end = if lines == 0 { 0 } else { ends[lines - 1] };
        console::catch_quietly(|| parse(text.get(..end).unwrap_or(text))).is_err()
    };
    if panics(0) {
        return None;
    }
    // `lo` lines parse, `hi` lines panic (the whole text did).
    let (mut lo, mut hi) = (0, ends.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if panics(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi).filter(|&l| l > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    static PANICKY: KindSpec = KindSpec::new("panicky", "a parser with a defect").parse(|t| {
        let v: Vec<&str> = t.lines().collect();
        let _ = v[99];
        unreachable!()
    });

    /// Panics on its fourth line, quoting it.
    static QUOTING: KindSpec = KindSpec::new("quoting", "a parser with a defect").parse(|t| {
        for (i, l) in t.lines().enumerate() {
            if i == 3 {
                panic!("cannot read {l}");
            }
        }
        Err(parsers::ParseError::unusable(None, "nothing"))
    });

    #[test]
    fn a_parser_panic_is_a_parser_bug_outcome_at_its_line() {
        let a = parse_with(
            &PANICKY,
            KindSource::Path,
            "x/panicky.txt",
            Text::from("one line\n"),
            9,
        );
        match a.outcome {
            Outcome::ParserBug { message, line } => {
                assert!(
                    message.starts_with("parser bug in `panicky` at an unknown line (panicked at ")
                        && message.contains("artifacts.rs:")
                        && message.contains("index out of bounds"),
                    "{message}"
                );
                // It panics on empty input too: no line to blame.
                assert_eq!(line, None);
            }
            other => panic!("expected a parser bug, got {other:?}"),
        }
        assert!(a.data.is_none());

        let text = "a\nb\nc\n\u{1b}]8;;http://x\u{7}d\u{202e}\ne\n";
        let a = parse_with(&QUOTING, KindSource::Path, "q", Text::from(text), 9);
        match a.outcome {
            Outcome::ParserBug { message, line } => {
                assert_eq!(line, Some(4), "{message}");
                assert!(
                    message.starts_with("parser bug in `quoting` at line 4 "),
                    "{message}"
                );
                assert!(
                    message.ends_with(": cannot read \\x1b]8;;http://x\\x07d\\u{202e})"),
                    "{message}"
                );
            }
            other => panic!("expected a parser bug, got {other:?}"),
        }
    }
}
