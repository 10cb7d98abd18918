//! `rca redact`: a copy of a bundle that identifies no host, network, user or secret, with a
//! leak scan that proves it.
//!
//! In: a bundle path (every input `rca analyze` reads: collector tarballs, zip, folders, single
//! compressed files, sosreport/supportconfig/OSWatcher layouts), read through the same bounded,
//! non-extracting readers ([`crate::bundle::read`]); a pseudonym [`Map`] (empty, or loaded from
//! `--map`); [`Options`]. Out: a `.tar.gz` at the output path holding every text entry
//! redacted under its redacted path, plus `redaction.json` ([`Summary`]: classes replaced,
//! counts, files dropped, which analyses this limits); the map, updated (the caller writes it
//! where the user said, never into the output).
//!
//! Two passes over the bundle, one entry in memory at a time:
//! 1. **Discovery** ([`scan::discover`]): the originals: host names, domains, IPv4/IPv6/MAC
//!    addresses, user names, the user's keywords and keyword regexes' matches.
//! 2. **Replacement**: per entry, secret values become [`secrets::MARKER`] ([`secrets::mask`]),
//!    then one Aho-Corasick pass replaces every original by its pseudonym
//!    ([`scan::Replacer`]); entry paths and link targets are replaced the same way.
//!
//! Entries: a compressed member (`messages-20240101.gz`) is decompressed, redacted and
//! compressed again in the same format under the same name. Binary entries (NUL or control
//! bytes, invalid UTF-8), key material by name (`*.keytab`, `*.jks`, `*.p12` …), entries too
//! large to read, unreadable ones and those the reader refused are dropped and listed in
//! `redaction.json`. Links are kept as links, their targets redacted.
//!
//! Writing: the archive is written with the `tar` and `flate2` crates to a temporary file in the
//! output's folder, renamed onto the output at the end; nothing else is written. An output inside
//! the input folder is refused (it would be read back).

pub mod class;
pub mod map;
pub mod procnet;
pub mod scan;
pub mod secrets;
pub mod tokens;
pub mod verify;

pub use map::Map;
pub use scan::{Class, Keywords};

use crate::bundle::{self, Compression, EntryContent, Format, Limits, RawEntry};
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Name of the summary written into the redacted bundle (beside the manifest, in the bundle's
/// top folder when it has one).
pub const SUMMARY_FILE: &str = "redaction.json";

/// Whether a bundle entry at `path` is a redaction's own summary: [`SUMMARY_FILE`] at the top of
/// the bundle or inside its one top folder (`rca-host-…/redaction.json`).
pub fn is_summary(path: &str) -> bool {
    path == SUMMARY_FILE
        || path
            .strip_suffix(SUMMARY_FILE)
            .and_then(|f| f.strip_suffix('/'))
            .is_some_and(|f| !f.is_empty() && !f.contains('/'))
}

/// How to redact.
#[derive(Debug, Default)]
pub struct Options {
    /// Keep the OUI (vendor) half of MAC addresses.
    pub keep_oui: bool,
    /// Reading limits (as `rca analyze`'s).
    pub limits: Limits,
    /// The user's keywords.
    pub keywords: Keywords,
}

/// One class of identifier replaced.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema, Deserialize, PartialEq)]
#[serde(default)]
pub struct ClassCount {
    /// Distinct originals found in this bundle.
    pub distinct: usize,
    /// Occurrences replaced.
    pub replaced: u64,
}

/// An entry not carried into the redacted bundle.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema, Deserialize, PartialEq)]
#[serde(default)]
pub struct Dropped {
    /// Its path (redacted).
    pub path: String,
    /// Why: `binary`, `key material`, `larger than the entry limit` …
    pub reason: String,
}

/// `redaction.json`: what was done to the bundle. Also read back by `rca analyze` (every field
/// defaults, as the file comes from an untrusted bundle).
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema, Deserialize, PartialEq)]
#[serde(default)]
pub struct Summary {
    /// The tool that redacted (`rca 0.1.0`).
    pub redacted_by: String,
    /// Identifier classes pseudonymised (`host-names`, `ipv4-addresses` …) with counts.
    pub classes: BTreeMap<String, ClassCount>,
    /// Secret values removed, per kind (`key-value`, `pem-private-key` …).
    pub secrets: BTreeMap<String, u64>,
    /// Entries written.
    pub entries: usize,
    /// Entries dropped, with the reason.
    pub dropped: Vec<Dropped>,
    /// Why reading the input stopped early, if it did: the output then lacks what followed.
    pub stopped: Option<String>,
    /// What the redaction changes for the analysis, one sentence each.
    pub limits: Vec<String>,
}

impl Summary {
    /// One line for a report header: which classes were pseudonymised, secrets and drops.
    pub fn headline(&self) -> String {
        let classes: Vec<&str> = self
            .classes
            .iter()
            .filter(|(_, c)| c.replaced > 0 || c.distinct > 0)
            .map(|(k, _)| k.as_str())
            .collect();
        let secrets: u64 = self.secrets.values().sum();
        format!(
            "redacted bundle ({}): {} pseudonymised; {secrets} secret value(s) removed; {} file(s) dropped",
            if self.redacted_by.is_empty() { "rca redact" } else { &self.redacted_by },
            if classes.is_empty() { "nothing".to_string() } else { classes.join(", ") },
            self.dropped.len()
        )
    }
}

/// Errors of `rca redact`.
#[derive(Debug, thiserror::Error)]
pub enum RedactError {
    /// The input could not be read at all.
    #[error(transparent)]
    Bundle(#[from] bundle::BundleError),
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The output path.
        path: String,
        /// The underlying error.
        source: io::Error,
    },
    /// A usage problem (output inside the input, output equal to the input).
    #[error("{0}")]
    Usage(String),
}

/// Key material recognised by its name: never copied, whatever its content.
fn key_material(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    [
        ".keytab",
        ".jks",
        ".p12",
        ".pfx",
        ".keystore",
        ".truststore",
        ".kdb",
        ".gpg",
        ".ppk",
    ]
    .iter()
    .any(|e| l.ends_with(e))
        || l.rsplit('/')
            .next()
            .is_some_and(|n| n == "krb5.keytab" || n.starts_with("id_rsa") && !n.ends_with(".pub"))
}

/// Whether `b` is binary rather than text: in its first 64 KiB, more than 5 % of bytes are
/// control characters (other than tab, line feed, carriage return, form feed, escape) or lie in
/// invalid UTF-8, or more than 30 % are NUL (a NUL-separated `/proc/PID/cmdline` is text).
pub fn binary(b: &[u8]) -> bool {
    let s = &b[..b.len().min(64 << 10)];
    if s.is_empty() {
        return false;
    }
    let nul = memchr::memchr_iter(0, s).count();
    let ctrl = s
        .iter()
        .filter(|&&c| c < 0x20 && c != 0 && !matches!(c, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    let mut bad = 0;
    for chunk in s.utf8_chunks() {
        bad += chunk.invalid().len();
    }
    // A multi-byte character cut at the sample's end is no sign of binary.
    if s.len() < b.len() {
        bad = bad.saturating_sub(3);
    }
    (ctrl + bad) * 20 > s.len() || nul * 10 > s.len() * 3
}

/// Compresses `data` in format `c` (the format a member came in).
fn compress(c: Compression, data: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 4 + 64);
    match c {
        Compression::Gzip => {
            let mut e = GzEncoder::new(&mut out, flate2::Compression::default());
            e.write_all(data)?;
            e.finish()?;
        }
        Compression::Xz => {
            let mut e = liblzma::write::XzEncoder::new(&mut out, 3);
            e.write_all(data)?;
            e.finish()?;
        }
        Compression::Zstd => {
            out = zstd::stream::encode_all(data, 3)?;
        }
        Compression::Bzip2 => {
            let mut e = bzip2::write::BzEncoder::new(&mut out, bzip2::Compression::default());
            e.write_all(data)?;
            e.finish()?;
        }
    }
    Ok(out)
}

/// The top folder every path shares, if any (`rca-host-2026…` of a collector tarball).
fn top_folder<'a>(paths: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut top: Option<&str> = None;
    let mut any = false;
    for p in paths {
        any = true;
        let (first, _) = p.split_once('/')?;
        match top {
            None => top = Some(first),
            Some(t) if t == first => {}
            Some(_) => return None,
        }
    }
    any.then_some(())?;
    top.map(str::to_string)
}

/// Refuses an output that is the input or lies inside the input folder.
fn check_paths(input: &Path, output: &Path) -> Result<(), RedactError> {
    let canon_in = std::fs::canonicalize(input).ok();
    let out_dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let canon_out_dir = std::fs::canonicalize(out_dir).map_err(|e| RedactError::Write {
        path: output.display().to_string(),
        source: e,
    })?;
    if let Some(ci) = canon_in {
        let out_full = canon_out_dir.join(output.file_name().unwrap_or_default());
        if out_full == ci || (ci.is_dir() && canon_out_dir.starts_with(&ci)) {
            return Err(RedactError::Usage(format!(
                "the output {} is the input or inside it: write it elsewhere",
                output.display()
            )));
        }
    }
    Ok(())
}

/// What the redaction limits, per class present.
fn limits_text(s: &Summary, keep_oui: bool) -> Vec<String> {
    let mut v = Vec::new();
    let has = |k: &str| {
        s.classes
            .get(k)
            .is_some_and(|c| c.distinct > 0 || c.replaced > 0)
    };
    if has("host-names") || has("domains") {
        v.push("host names pseudonymised label by label, consistently across bundles redacted with the same map: fleet grouping and diff pairing by name unaffected; names no longer resolve".into());
    }
    if has("ipv4-addresses") || has("ipv6-addresses") {
        v.push("IP addresses pseudonymised with their /8, /16, /24 (IPv6 /32, /48, /64) prefixes kept: subnet and peer grouping unaffected; loopback, link-local, multicast and documentation addresses kept; the hexadecimal addresses of /proc/net's socket and route tables are pseudonymised the same way".into());
    }
    if has("mac-addresses") {
        v.push(if keep_oui {
            "MAC addresses pseudonymised, vendor prefix (OUI) kept".into()
        } else {
            "MAC addresses pseudonymised with a locally administered prefix: the NIC vendor cannot be told from the MAC".into()
        });
    }
    if has("user-names") {
        v.push("user names pseudonymised (system and service accounts kept): per-user grouping unaffected".into());
    }
    if has("keywords") {
        v.push("the user's keywords replaced by kwNNNN pseudonyms".into());
    }
    if !s.secrets.is_empty() {
        v.push("secret values replaced by [REDACTED]: checks that need a secret's value cannot be made".into());
    }
    if !s.dropped.is_empty() {
        v.push(format!(
            "{} file(s) dropped (binary, key material, unreadable or too large): their evidence is missing",
            s.dropped.len()
        ));
    }
    v
}

/// Redacts the bundle at `input` into a `.tar.gz` at `output`, using and extending `map`.
///
/// Errors: the input cannot be read at all, the output cannot be written, or the output would
/// be inside the input. Problems inside the bundle do not fail: the entries concerned are
/// dropped and listed in the returned [`Summary`] (also written as `redaction.json`).
pub fn redact(
    input: &Path,
    output: &Path,
    opts: &Options,
    map: &mut Map,
) -> Result<Summary, RedactError> {
    check_paths(input, output)?;
    let no_stream = |_: &str| None;
    // Pass 1: discovery.
    let mut found = scan::Found::default();
    let mut paths = Vec::new();
    let first = bundle::read(input, &opts.limits, &no_stream, |e: RawEntry| {
        paths.push(e.path.clone());
        if let EntryContent::Bytes(b) = &e.content {
            if !binary(b) {
                scan::discover(&e.path, b, &opts.keywords, &mut found);
                procnet::discover(&e.path, b, &mut found);
            }
        }
    })?;
    for k in &opts.keywords.literals {
        found.keywords.insert(k.to_ascii_lowercase());
    }
    let top = top_folder(paths.iter().map(String::as_str));
    drop(paths);
    let whole_input_compressed = matches!(
        first.format,
        Some(Format::Gzip | Format::Xz | Format::Zstd | Format::Bzip2)
    );
    let replacer = scan::Replacer::new(&found, map, opts.keep_oui);

    // Pass 2: replacement, straight into the archive.
    let out_dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let werr = |source: io::Error| RedactError::Write {
        path: output.display().to_string(),
        source,
    };
    let tmp = tempfile::Builder::new()
        .prefix(".rca-redact-")
        .suffix(".tmp")
        .tempfile_in(&out_dir)
        .map_err(werr)?;
    let file = io::BufWriter::with_capacity(1 << 20, tmp.as_file().try_clone().map_err(werr)?);
    let gz = GzEncoder::new(file, flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    let mut counts = scan::Counts::new();
    let mut secret_counts = secrets::SecretCounts::new();
    let mut summary = Summary {
        redacted_by: format!("rca {}", env!("CARGO_PKG_VERSION")),
        ..Summary::default()
    };
    let mut write_err: Option<io::Error> = None;
    // The masked and the replaced text of the entry at hand, their allocations kept from entry
    // to entry.
    let mut masked = Vec::new();
    let mut replaced = Vec::new();
    // Single-label host names inside the collector's, sos report's and supportconfig's folder
    // names (`rca-vm-20261130T…`, `sosreport-vm-…`, `scc_vm_…`), where a dash or an underscore
    // joins them to other words.
    let short_hosts: Vec<(String, String)> = found
        .hosts
        .iter()
        .filter(|h| !h.contains('.') && !h.contains('-'))
        .map(|h| (h.clone(), map.host(h)))
        .collect();
    let redact_path = |p: &str, map: &mut Map, counts: &mut scan::Counts| -> String {
        let mut out = match replacer.replace(p.as_bytes(), map, counts) {
            Some(b) => String::from_utf8_lossy(&b).into_owned(),
            None => p.to_string(),
        };
        let (first, rest) = match out.split_once('/') {
            Some((f, r)) => (f.to_string(), Some(r.to_string())),
            None => (out.clone(), None),
        };
        if ["rca-", "sosreport-", "scc_"]
            .iter()
            .any(|t| first.starts_with(t))
        {
            let mut f = first;
            for (h, ps) in &short_hosts {
                for sep in ['-', '_'] {
                    f = f.replace(&format!("{sep}{h}{sep}"), &format!("{sep}{ps}{sep}"));
                }
            }
            out = match rest {
                Some(r) => format!("{f}/{r}"),
                None => f,
            };
        }
        out
    };
    let second = bundle::read(input, &opts.limits, &no_stream, |e: RawEntry| {
        if write_err.is_some() {
            return;
        }
        let path = redact_path(&e.path, map, &mut counts);
        let skip = |reason: String, s: &mut Summary| {
            s.dropped.push(Dropped {
                path: path.clone(),
                reason,
            })
        };
        match e.content {
            EntryContent::Bytes(b) => {
                if key_material(&e.path) {
                    skip("key material (by its name)".into(), &mut summary);
                    return;
                }
                if binary(&b) {
                    skip("binary".into(), &mut summary);
                    return;
                }
                masked.clear();
                let text = if secrets::mask_into(&b, &mut masked, &mut secret_counts) {
                    &masked[..]
                } else {
                    &b[..]
                };
                let hexed = procnet::replace(&e.path, text, map, &mut counts);
                let text = hexed.as_deref().unwrap_or(text);
                replaced.clear();
                let text = if replacer.replace_into(text, &mut replaced, map, &mut counts) {
                    &replaced[..]
                } else {
                    text
                };
                let data = match e.compression {
                    Some(c) if !whole_input_compressed => match compress(c, text) {
                        Ok(d) => std::borrow::Cow::Owned(d),
                        Err(err) => {
                            skip(
                                format!("could not be compressed again ({err})"),
                                &mut summary,
                            );
                            return;
                        }
                    },
                    _ => std::borrow::Cow::Borrowed(text),
                };
                let mut h = tar::Header::new_gnu();
                h.set_size(data.len() as u64);
                h.set_mode(0o644);
                h.set_entry_type(tar::EntryType::Regular);
                if let Err(err) = tar.append_data(&mut h, &path, &data[..]) {
                    write_err = Some(err);
                    return;
                }
                summary.entries += 1;
            }
            EntryContent::Link { target } => {
                let target = redact_path(&target, map, &mut counts);
                let depth = path.matches('/').count();
                let rel = format!("{}{target}", "../".repeat(depth));
                let mut h = tar::Header::new_gnu();
                h.set_entry_type(tar::EntryType::Symlink);
                h.set_size(0);
                h.set_mode(0o777);
                if let Err(err) = tar.append_link(&mut h, &path, &rel) {
                    write_err = Some(err);
                    return;
                }
                summary.entries += 1;
            }
            EntryContent::TooLarge { limit } => skip(
                format!("larger than the entry limit ({limit} bytes): not read, so not redacted"),
                &mut summary,
            ),
            EntryContent::ReadError(why) => skip(format!("unreadable: {why}"), &mut summary),
            EntryContent::Streamed { .. } | EntryContent::StreamPanicked { .. } => {
                skip("not read whole".into(), &mut summary)
            }
        }
    })?;
    if let Some(e) = write_err {
        return Err(werr(e));
    }
    for r in &second.refused {
        let p = redact_path(&r.path, map, &mut counts);
        summary.dropped.push(Dropped {
            path: p,
            reason: format!("refused by the reader: {}", r.reason),
        });
    }
    summary.stopped = second.stopped.clone();
    let distinct = [
        (Class::Host, found.hosts.len()),
        (Class::Domain, found.domains.len()),
        (Class::Ipv4, found.ipv4.len()),
        (Class::Ipv6, found.ipv6.len()),
        (Class::Mac, found.macs.len()),
        (Class::User, found.users.len()),
        (Class::Keyword, found.keywords.len()),
    ];
    for (c, n) in distinct {
        let replaced = counts.get(&c).copied().unwrap_or(0);
        if n > 0 || replaced > 0 {
            summary.classes.insert(
                c.label().to_string(),
                ClassCount {
                    distinct: n,
                    replaced,
                },
            );
        }
    }
    summary.secrets = secret_counts
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    summary.limits = limits_text(&summary, opts.keep_oui);
    let json = serde_json::to_vec_pretty(&summary).expect("the summary serialises");
    let name = match &top {
        Some(t) => format!("{}/{SUMMARY_FILE}", redact_path(t, map, &mut counts)),
        None => SUMMARY_FILE.to_string(),
    };
    let mut h = tar::Header::new_gnu();
    h.set_size(json.len() as u64);
    h.set_mode(0o644);
    tar.append_data(&mut h, &name, &json[..]).map_err(werr)?;
    let gz = tar.into_inner().map_err(werr)?;
    let mut file = gz.finish().map_err(werr)?;
    file.flush().map_err(werr)?;
    file.get_ref().sync_all().map_err(werr)?;
    drop(file);
    tmp.persist(output).map_err(|e| werr(e.error))?;
    Ok(summary)
}

/// Reads a map file: an empty map when it does not exist. Errors: unreadable or not a map.
pub fn load_map(path: &Path) -> Result<Map, String> {
    match std::fs::read(path) {
        Ok(b) => serde_json::from_slice::<Map>(&b)
            .map(Map::loaded)
            .map_err(|e| format!("{} is not a pseudonym map: {e}", path.display())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Map::default().loaded()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Writes a map file (through a temporary file beside it, renamed at the end).
pub fn save_map(map: &Map, path: &Path) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".rca-map-")
        .tempfile_in(dir)?;
    // Buffered: serde_json writes each key and value separately, one system call each otherwise.
    let mut w = io::BufWriter::with_capacity(1 << 20, tmp);
    serde_json::to_writer_pretty(&mut w, map).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_or_text() {
        assert!(!binary(b"hello\nworld\n"));
        assert!(!binary("中文日志\n".as_bytes()));
        assert!(!binary(b"java\0-Xmx1g\0-jar\0app.jar\0"));
        assert!(binary(&[
            0x05, 0x02, 0, 0, 0, 0x4a, 0x01, 0x02, 0x03, 0xff, 0xfe, 0x10
        ]));
    }

    #[test]
    fn top_folders() {
        assert_eq!(top_folder(["a/x", "a/y/z"].into_iter()), Some("a".into()));
        assert_eq!(top_folder(["a/x", "b"].into_iter()), None);
    }
}
