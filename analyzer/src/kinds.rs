//! Artifact kinds: how a file in a bundle is recognised and which parser reads it.
//!
//! Resolution order, first match wins:
//! 1. the kind the collector wrote in `manifest.tsv`;
//! 2. the known path table below (collector layout and sosreport paths), matched against the
//!    end of the entry's path so any top folder is allowed;
//! 3. content sniffing: every parser looks at the first lines and answers yes / no / unsure;
//!    a single "yes" wins, else a single "unsure", else the file is unrecognised.
//!
//! The table is declarative data: adding a kind means adding one [`KindSpec`].

use parsers::identity::{OsRelease, Uname};
use parsers::iostat::Iostat;
use parsers::modules::Module;
use parsers::mpstat::Mpstat;
use parsers::softirqs::Softirqs;
use parsers::{LineIssue, ParseError, Parsed, Sniff};
use regex::RegexSet;
use serde::Serialize;
use std::sync::LazyLock;

/// A parsed artifact, by kind.
#[derive(Debug, Clone)]
pub enum Data {
    /// `iostat -x` text or JSON.
    Iostat(Iostat),
    /// `mpstat -P ALL` text or JSON.
    Mpstat(Mpstat),
    /// One `/proc/softirqs` snapshot.
    Softirqs(Softirqs),
    /// `/proc/modules` (with taint letters).
    ProcModules(Vec<Module>),
    /// `lsmod`.
    Lsmod(Vec<Module>),
    /// `uname -a`.
    Uname(Uname),
    /// `/etc/os-release`.
    OsRelease(OsRelease),
    /// A text artifact kept as lines (the collector's own log).
    Text,
}

type ParseFn = fn(&str) -> Result<(Data, Vec<LineIssue>), ParseError>;

/// One artifact kind.
pub struct KindSpec {
    /// Stable kind name, as written in the manifest (`iostat`).
    pub name: &'static str,
    /// What produces it, for the report (`sysstat iostat -x`).
    pub source: &'static str,
    /// Path patterns (regular expressions matched against the whole bundle path).
    pub paths: &'static [&'static str],
    /// Content sniffer, if the format can be recognised from its first lines.
    pub sniff: Option<fn(&str) -> Sniff>,
    /// Parser; `None` for kinds collected but not analyzed in this version.
    pub parse: Option<ParseFn>,
}

fn wrap<T>(
    r: Result<Parsed<T>, ParseError>,
    f: fn(T) -> Data,
) -> Result<(Data, Vec<LineIssue>), ParseError> {
    r.map(|p| (f(p.value), p.issues))
}

/// Every kind rca knows, in sniffing precedence order.
pub static KINDS: &[KindSpec] = &[
    KindSpec {
        name: "iostat",
        source: "sysstat `iostat -x` (text or -o JSON)",
        paths: &[
            r"(^|/)sysstat/iostat[^/]*$",
            r"(^|/)iostat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        ],
        sniff: Some(parsers::iostat::sniff),
        parse: Some(|t| wrap(parsers::iostat::parse(t), Data::Iostat)),
    },
    KindSpec {
        name: "mpstat",
        source: "sysstat `mpstat -P ALL` (text or -o JSON)",
        paths: &[
            r"(^|/)sysstat/mpstat[^/]*$",
            r"(^|/)mpstat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        ],
        sniff: Some(parsers::mpstat::sniff),
        parse: Some(|t| wrap(parsers::mpstat::parse(t), Data::Mpstat)),
    },
    KindSpec {
        name: "softirqs",
        source: "`/proc/softirqs`",
        paths: &[r"(^|/)proc/softirqs(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::softirqs::sniff),
        parse: Some(|t| wrap(parsers::softirqs::parse(t), Data::Softirqs)),
    },
    KindSpec {
        name: "proc-modules",
        source: "`/proc/modules`",
        paths: &[r"(^|/)proc/modules$"],
        sniff: Some(parsers::modules::sniff_proc_modules),
        parse: Some(|t| wrap(parsers::modules::parse_proc_modules(t), Data::ProcModules)),
    },
    KindSpec {
        name: "lsmod",
        source: "kmod `lsmod`",
        paths: &[r"(^|/)lsmod(\.txt)?$"],
        sniff: Some(parsers::modules::sniff_lsmod),
        parse: Some(|t| wrap(parsers::modules::parse_lsmod(t), Data::Lsmod)),
    },
    KindSpec {
        name: "uname",
        source: "`uname -a`",
        paths: &[r"(^|/)uname(_-a)?(\.txt)?$"],
        sniff: Some(parsers::identity::sniff_uname),
        parse: Some(|t| wrap(parsers::identity::parse_uname(t), Data::Uname)),
    },
    KindSpec {
        name: "os-release",
        source: "`/etc/os-release`",
        paths: &[r"(^|/)os-release$"],
        sniff: Some(parsers::identity::sniff_os_release),
        parse: Some(|t| wrap(parsers::identity::parse_os_release(t), Data::OsRelease)),
    },
    KindSpec {
        name: "collector-log",
        source: "collector.sh's own log",
        paths: &[r"(^|/)collector\.log$"],
        sniff: None,
        parse: Some(|_| Ok((Data::Text, Vec::new()))),
    },
    KindSpec {
        name: "diskstats",
        source: "`/proc/diskstats`",
        paths: &[r"(^|/)proc/diskstats$"],
        sniff: None,
        parse: None,
    },
];

static PATH_SET: LazyLock<(RegexSet, Vec<usize>)> = LazyLock::new(|| {
    let mut pats = Vec::new();
    let mut owners = Vec::new();
    for (i, k) in KINDS.iter().enumerate() {
        for p in k.paths {
            pats.push(*p);
            owners.push(i);
        }
    }
    (
        RegexSet::new(pats).expect("kind path patterns are valid"),
        owners,
    )
});

/// How an artifact's kind was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KindSource {
    /// From the collector's manifest.
    Manifest,
    /// From the known path table.
    Path,
    /// From the content.
    Content,
}

/// The kind spec for a manifest kind name.
pub fn by_name(name: &str) -> Option<&'static KindSpec> {
    KINDS.iter().find(|k| k.name == name)
}

/// The kind for a bundle path from the known path table.
pub fn by_path(path: &str) -> Option<&'static KindSpec> {
    let (set, owners) = &*PATH_SET;
    set.matches(path).iter().next().map(|i| &KINDS[owners[i]])
}

/// Outcome of content sniffing.
pub enum Sniffed {
    /// One kind claims the text.
    Kind(&'static KindSpec),
    /// Nothing claims it.
    Nothing,
    /// Several kinds are unsure and none is sure.
    Ambiguous(Vec<&'static str>),
}

/// Sniffs the first lines of `text` (up to 4 KiB) against every kind.
pub fn sniff(text: &str) -> Sniffed {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let mut unsure = Vec::new();
    for k in KINDS {
        let Some(f) = k.sniff else { continue };
        match f(head) {
            Sniff::Yes => return Sniffed::Kind(k),
            Sniff::Unsure => unsure.push(k),
            Sniff::No => {}
        }
    }
    match unsure.len() {
        0 => Sniffed::Nothing,
        1 => Sniffed::Kind(unsure[0]),
        _ => Sniffed::Ambiguous(unsure.iter().map(|k| k.name).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_table_matches_collector_and_loose_names() {
        assert_eq!(
            by_path("rca-db1-20240101T000000Z/sysstat/iostat-x.txt")
                .unwrap()
                .name,
            "iostat"
        );
        assert_eq!(by_path("x/proc/softirqs.end").unwrap().name, "softirqs");
        assert_eq!(
            by_path("sosreport-h/proc/modules").unwrap().name,
            "proc-modules"
        );
        assert_eq!(by_path("sos_commands/kernel/lsmod").unwrap().name, "lsmod");
        assert!(by_path("notes/iostat_node3.log.bak").is_none());
    }
}
