//! Service configuration files compared key by key: `zoo.cfg` and Hadoop `*-site.xml`.
//!
//! In: both sides' [`ConfigFile`]s, paired by file name. Out: one difference per key whose
//! normalised value differs or that one side sets and the other does not. Keys known to change
//! performance weigh more; the rest are low (case S2: configuration files were identical and
//! not the cause).

use super::score::{Weight, CONFIG_KEY};
use super::{Difference, Out, Pair, Which};
use crate::facts::config::ConfigFile;
use std::collections::BTreeSet;

/// Keys known to change performance, with why.
pub const KNOWN: &[(&str, &str)] = &[
    ("snapCount", "snapshot frequency under write load (case S3)"),
    ("dataLogDir", "the transaction log's device (case S3)"),
    ("tickTime", "session timeouts and heartbeats"),
    ("maxClientCnxns", "connections a client host may open"),
    (
        "globalOutstandingLimit",
        "queued requests before throttling",
    ),
    ("preAllocSize", "transaction log preallocation"),
    ("jute.maxbuffer", "largest znode payload"),
    (
        "yarn.nodemanager.vmem-check-enabled",
        "containers killed for virtual size (case S1)",
    ),
    (
        "yarn.nodemanager.vmem-pmem-ratio",
        "containers killed for virtual size (case S1)",
    ),
    (
        "yarn.nodemanager.resource.memory-mb",
        "memory YARN hands out",
    ),
    (
        "yarn.nodemanager.resource.cpu-vcores",
        "CPUs YARN hands out",
    ),
    ("dfs.datanode.handler.count", "DataNode RPC threads"),
    ("dfs.namenode.handler.count", "NameNode RPC threads"),
    ("dfs.blocksize", "block size"),
    ("dfs.replication", "write amplification"),
    ("io.file.buffer.size", "stream buffer size"),
    ("mapreduce.map.memory.mb", "container size"),
    ("mapreduce.reduce.memory.mb", "container size"),
];

/// Weight of a key known to matter.
const KNOWN_WEIGHT: f64 = 30.0;

/// Pushes configuration differences.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.configs, &p.suspect.facts.configs);
    if b.is_empty() && s.is_empty() {
        return;
    }
    let names: BTreeSet<&str> = b.iter().chain(s.iter()).map(|c| c.name.as_str()).collect();
    for name in names {
        let (x, y) = (
            b.iter().find(|c| c.name == name),
            s.iter().find(|c| c.name == name),
        );
        let (Some(x), Some(y)) = (x, y) else {
            out.both(
                "config",
                &format!("`{name}`"),
                b.iter().any(|c| c.name == name),
                s.iter().any(|c| c.name == name),
            );
            continue;
        };
        compare_file(out, x, y);
    }
}

fn compare_file(out: &mut Out, x: &ConfigFile, y: &ConfigFile) {
    let keys: BTreeSet<&String> = x.entries.keys().chain(y.entries.keys()).collect();
    for k in keys {
        let (a, c) = (x.entries.get(k), y.entries.get(k));
        if a.map(|v| v.value.as_str()) == c.map(|v| v.value.as_str()) {
            continue;
        }
        let known = KNOWN.iter().find(|(key, _)| key == k).map(|(_, why)| *why);
        let what = match (a, c) {
            (Some(_), Some(_)) => "another value",
            (Some(_), None) => "set on the baseline only (the other uses the default)",
            _ => "set on the suspect only (the other uses the default)",
        };
        let w: &'static Weight = &CONFIG_KEY;
        let mut d = Difference::new(w, format!("{}: {k}", x.name))
            .values(a.map(|v| v.value.clone()), c.map(|v| v.value.clone()))
            .reason(match known {
                Some(why) => format!("{what}; a key known to matter: {why}"),
                None => format!("{what}; configuration differences rarely explain large gaps (case S2: files identical)"),
            })
            .cite(Which::Baseline, a)
            .cite(Which::Suspect, c);
        if known.is_some() {
            d = d.weight(KNOWN_WEIGHT);
        }
        out.push(d);
    }
}
