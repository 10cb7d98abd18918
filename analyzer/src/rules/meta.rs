//! What a rule is, as data: [`RuleMeta`], with its [`Area`], the facts it [`needs`](RuleMeta::needs),
//! its [`Threshold`]s and their [`Source`]s, and the [`SymptomGroup`]s `rca diff` links
//! differences by.
//!
//! The report's rule reference, the README's rule table and `docs/rules.md` are rendered from
//! these values, so the documentation says what the code compares against.

use super::Severity;
use crate::facts::Fact;
use serde::{Serialize, Serializer};
use std::fmt;

/// Static documentation of a rule.
#[derive(Debug, Serialize)]
pub struct RuleMeta {
    /// Stable identifier (`disk.saturation`); never reused.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// Area its findings belong to.
    pub area: Area,
    /// Severity of a finding at the rule's first threshold; other thresholds raise or lower it
    /// (each says so).
    pub severity: Severity,
    /// Facts the check cannot run without. For those that carry an availability
    /// ([`crate::facts::Available`]) the registry answers "not evaluated" with the reason they
    /// are missing, before the check runs.
    pub needs: &'static [Fact],
    /// Further facts the check reads when they are present (to corroborate, to cite, to name).
    pub reads: &'static [Fact],
    /// The values it compares against, each with its source.
    pub thresholds: &'static [Threshold],
    /// Groups of symptoms its findings belong to: what `rca diff` links a difference to.
    pub groups: &'static [SymptomGroup],
    /// Rules whose findings its findings may account for ([`super::Finding::explains`]).
    pub explains: &'static [&'static str],
    /// One line: when it fires (the README's rule table).
    pub fires_when: &'static str,
    /// What it checks.
    pub checks: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// Known false positives.
    pub false_positives: &'static str,
    /// What to do about it.
    pub remedy: &'static str,
    /// The source file that defines it (`file!()`), where its tests live too.
    #[serde(skip)]
    pub file: &'static str,
}

/// Area a rule and its findings belong to; written as in the JSON documents (`disk`, `network`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    /// CPU time.
    Cpu,
    /// Block devices.
    Disk,
    /// Java virtual machines and the services that size them (YARN).
    Jvm,
    /// The kernel itself: taint, modules.
    Kernel,
    /// Memory and swap.
    Memory,
    /// NICs, the TCP stack, soft-IRQs of the network path.
    Network,
    /// CPU profiles.
    Profile,
    /// The clock.
    Time,
    /// ZooKeeper servers.
    Zookeeper,
}

impl Area {
    /// Every area, in alphabetical order of their names.
    pub const ALL: &'static [Area] = &[
        Area::Cpu,
        Area::Disk,
        Area::Jvm,
        Area::Kernel,
        Area::Memory,
        Area::Network,
        Area::Profile,
        Area::Time,
        Area::Zookeeper,
    ];

    /// The name as written in the documents (`network`).
    pub fn label(self) -> &'static str {
        match self {
            Area::Cpu => "cpu",
            Area::Disk => "disk",
            Area::Jvm => "jvm",
            Area::Kernel => "kernel",
            Area::Memory => "memory",
            Area::Network => "network",
            Area::Profile => "profile",
            Area::Time => "time",
            Area::Zookeeper => "zookeeper",
        }
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A group of symptoms: findings that a difference of one kind between two hosts may explain.
/// `rca diff` asks for the suspect's symptoms by group (a NIC difference for the network path,
/// a device difference for storage); every rule belongs to at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymptomGroup {
    /// Trouble in the network receive or transmit path (drops, queues, soft-IRQ load).
    NetworkPath,
    /// Kernel code or CPU time is the problem (taint, hot modules, locks, I/O wait).
    KernelCpu,
    /// Soft-IRQ processing (`%soft`, `NET_RX` stacks).
    Softirq,
    /// Memory pressure: swap, ballooning, heaps against RAM, containers killed for memory.
    Memory,
    /// Garbage collection: pauses, an old generation that stays full, heaps on swap.
    Gc,
    /// Thread counts and the switching they cause.
    Threads,
    /// Storage: queues, latency, fsyncs competing with other writes.
    Storage,
    /// The clock.
    Clock,
}

impl SymptomGroup {
    /// Every group.
    pub const ALL: &'static [SymptomGroup] = &[
        SymptomGroup::NetworkPath,
        SymptomGroup::KernelCpu,
        SymptomGroup::Softirq,
        SymptomGroup::Memory,
        SymptomGroup::Gc,
        SymptomGroup::Threads,
        SymptomGroup::Storage,
        SymptomGroup::Clock,
    ];

    /// Its name for readers (`network path`).
    pub fn label(self) -> &'static str {
        match self {
            SymptomGroup::NetworkPath => "network path",
            SymptomGroup::KernelCpu => "kernel and CPU",
            SymptomGroup::Softirq => "soft-IRQ",
            SymptomGroup::Memory => "memory",
            SymptomGroup::Gc => "garbage collection",
            SymptomGroup::Threads => "threads",
            SymptomGroup::Storage => "storage",
            SymptomGroup::Clock => "clock",
        }
    }
}

impl fmt::Display for SymptomGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A value a rule compares against.
#[derive(Debug, Serialize)]
pub struct Threshold {
    /// What is compared, as the tool prints it (`await`, `%soft`, `vm.swappiness`).
    pub name: &'static str,
    /// The value (the constant the check uses).
    pub value: Limit,
    /// Its unit (`ms`, `%`, `requests`); empty for a plain number.
    pub unit: &'static str,
    /// What reaching it means (`at or above, in a queued interval: slow`).
    pub meaning: &'static str,
    /// Where the value comes from; at least one.
    pub sources: &'static [Source],
}

/// A threshold's value.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    /// A measure (`20` ms, `0.25` of the maximum).
    Num(f64),
    /// A count (`1000000` watches).
    Count(u64),
    /// A vocabulary: any of these names (`e1000`, `e1000e`, …).
    OneOf(&'static [&'static str]),
    /// An expression of other values (`min(maximum, CPUs)`).
    Expr(&'static str),
    /// Any occurrence at all.
    Any,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Num(x) => {
                // Enough digits for every constant, none of a float's noise.
                let s = format!("{x:.6}");
                let s = s.trim_end_matches('0').trim_end_matches('.');
                f.write_str(s)
            }
            Limit::Count(n) => f.write_str(&grouped(*n)),
            Limit::OneOf(names) => write!(f, "one of {}", names.join(", ")),
            Limit::Expr(e) => f.write_str(e),
            Limit::Any => f.write_str("any"),
        }
    }
}

/// `1 000 000` from 1000000 (groups of three from 10 000 on, as the rules' texts write them).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    if n < 10_000 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// Where a threshold comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// A published document: a book, a vendor's guide, kernel documentation, an issue.
    Doc {
        /// Title or name (`Brendan Gregg, Systems Performance, 2nd ed.`, `ZOOKEEPER-1177`).
        document: &'static str,
        /// Section, chapter or article, when one is meant (`USE method`).
        section: Option<&'static str>,
        /// Where to read it, when it has a stable address.
        url: Option<&'static str>,
    },
    /// An incident reproduced by a sample bundle (`1` is case S1, `sample-bundles/s1-…`).
    Case(u8),
    /// No published source: a choice of rca's, with its reasoning.
    Rca(&'static str),
}

impl Source {
    /// A document without a section or address.
    pub const fn doc(document: &'static str) -> Source {
        Source::Doc {
            document,
            section: None,
            url: None,
        }
    }

    /// A document and its section.
    pub const fn section(document: &'static str, section: &'static str) -> Source {
        Source::Doc {
            document,
            section: Some(section),
            url: None,
        }
    }

    /// A document and its address.
    pub const fn url(document: &'static str, url: &'static str) -> Source {
        Source::Doc {
            document,
            section: None,
            url: Some(url),
        }
    }

    /// The citation as text: `document, section`, `case S1`, or `rca: reasoning`.
    pub fn citation(&self) -> String {
        match self {
            Source::Doc {
                document,
                section: Some(s),
                ..
            } => format!("{document}, {s}"),
            Source::Doc { document, .. } => document.to_string(),
            Source::Case(n) => format!("case S{n}"),
            Source::Rca(why) => format!("rca's own threshold: {why}"),
        }
    }

    /// Where to read it: the document's address, or the sample bundle of a case (relative to
    /// the repository root).
    pub fn address(&self) -> Option<&'static str> {
        match self {
            Source::Doc { url, .. } => *url,
            Source::Case(n) => CASES.iter().find(|c| c.0 == *n).map(|c| c.1),
            Source::Rca(_) => None,
        }
    }
}

/// The incident cases and the sample bundle that reproduces each.
pub const CASES: &[(u8, &str)] = &[
    (1, "sample-bundles/s1-hadoop-vmware/README.md"),
    (2, "sample-bundles/s2-bank-core/README.md"),
    (3, "sample-bundles/s3-zookeeper-watches/README.md"),
    (4, "sample-bundles/s4-oceanbase-softirq/README.md"),
];

impl Serialize for Source {
    /// `{citation, rca}`: the text to print, and whether it is rca's own choice. The address is
    /// left out: the report page names no URL.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Source", 2)?;
        st.serialize_field("citation", &self.citation())?;
        st.serialize_field("rca", &matches!(self, Source::Rca(_)))?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_print_as_the_rules_write_them() {
        assert_eq!(Limit::Num(20.0).to_string(), "20");
        assert_eq!(Limit::Num(0.01).to_string(), "0.01");
        assert_eq!(Limit::Num(2.1).to_string(), "2.1");
        assert_eq!(Limit::Num(0.8 * 100.0).to_string(), "80");
        assert_eq!(Limit::Count(5000).to_string(), "5000");
        assert_eq!(Limit::Count(1_000_000).to_string(), "1 000 000");
        assert_eq!(Limit::Count(100_000).to_string(), "100 000");
        assert_eq!(Limit::OneOf(&["a", "b"]).to_string(), "one of a, b");
    }

    #[test]
    fn areas_serialise_to_their_names_in_alphabetical_order() {
        for a in Area::ALL {
            assert_eq!(
                serde_json::to_string(a).unwrap(),
                format!("\"{}\"", a.label())
            );
        }
        let mut sorted = Area::ALL.to_vec();
        sorted.sort_by_key(|a| a.label());
        assert_eq!(sorted, Area::ALL);
    }

    #[test]
    fn cases_cite_their_sample_bundle() {
        assert_eq!(Source::Case(3).citation(), "case S3");
        assert_eq!(
            Source::Case(3).address(),
            Some("sample-bundles/s3-zookeeper-watches/README.md")
        );
    }
}
