//! sysctl: every key of `sysctl -a`, compared by value.
//!
//! In: both sides' sysctl maps. Out: one difference per key whose value differs or that exists on
//! one side only. Counters and identifiers are not compared ([`VOLATILE`]); keys compared
//! elsewhere are skipped; per-interface and per-CPU keys of an interface or CPU that exists on
//! one side only are noise. Keys known to matter ([`KNOWN`]) weigh more, and are linked when the
//! suspect has a finding in the key's area. A key `sysctl -a` could not read on a side (permission
//! denied to an unprivileged collection, or a read error) is unknown there: it is not compared,
//! and the keys so left out are listed as not compared, with the count of each cause.

use super::score::SYSCTL;
use super::{Difference, Out, Pair, Which};
use crate::facts::kernel::SysctlError;
use crate::rules::Area;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Keys (or prefixes ending in `.`) that are counters, identifiers or state rather than settings.
pub const VOLATILE: &[&str] = &[
    "fs.dentry-state",
    "fs.file-nr",
    "fs.inode-nr",
    "fs.inode-state",
    "fs.aio-nr",
    "fs.quota.",
    "fs.binfmt_misc.",
    "kernel.ns_last_pid",
    "kernel.random.",
    "kernel.pty.nr",
    "kernel.perf_event_max_sample_rate",
    "kernel.hostname",
    "kernel.domainname",
    "net.netfilter.nf_conntrack_count",
    "net.netfilter.nf_conntrack_events",
    "dev.cdrom.info",
    "vm.stat_refresh",
    "vm.drop_caches",
    "kernel.sched_domain.",
];

/// Keys compared under another heading: the kernel release and taint.
const COMPARED_ELSEWHERE: &[&str] = &["kernel.tainted", "kernel.osrelease", "kernel.version"];

/// Weight of a key known to matter.
const KNOWN_WEIGHT: f64 = 20.0;

/// A subtree (first two components, `net.netfilter`) with at least this many keys, all on one
/// side only, is one difference: a module or feature present on that side (connection tracking),
/// not that many tunings.
const SUBTREE_MIN_KEYS: usize = 5;

/// Keys known to change performance, with the finding area they relate to.
pub const KNOWN: &[(&str, Area)] = &[
    ("net.core.somaxconn", Area::Network),
    ("net.core.netdev_max_backlog", Area::Network),
    ("net.core.netdev_budget", Area::Network),
    ("net.core.netdev_budget_usecs", Area::Network),
    ("net.core.dev_weight", Area::Network),
    ("net.core.rmem_max", Area::Network),
    ("net.core.wmem_max", Area::Network),
    ("net.core.rmem_default", Area::Network),
    ("net.core.wmem_default", Area::Network),
    ("net.core.optmem_max", Area::Network),
    ("net.core.busy_poll", Area::Network),
    ("net.core.busy_read", Area::Network),
    ("net.core.rps_sock_flow_entries", Area::Network),
    ("net.core.default_qdisc", Area::Network),
    ("net.ipv4.tcp_rmem", Area::Network),
    ("net.ipv4.tcp_wmem", Area::Network),
    ("net.ipv4.tcp_mem", Area::Network),
    ("net.ipv4.tcp_max_syn_backlog", Area::Network),
    ("net.ipv4.tcp_tw_reuse", Area::Network),
    ("net.ipv4.tcp_fin_timeout", Area::Network),
    ("net.ipv4.tcp_congestion_control", Area::Network),
    ("net.ipv4.tcp_limit_output_bytes", Area::Network),
    ("net.ipv4.tcp_slow_start_after_idle", Area::Network),
    ("net.ipv4.tcp_timestamps", Area::Network),
    ("net.ipv4.tcp_sack", Area::Network),
    ("net.ipv4.tcp_syncookies", Area::Network),
    ("net.ipv4.tcp_autocorking", Area::Network),
    ("net.ipv4.tcp_notsent_lowat", Area::Network),
    ("net.ipv4.ip_local_port_range", Area::Network),
    ("net.netfilter.nf_conntrack_max", Area::Network),
    ("net.nf_conntrack_max", Area::Network),
    ("vm.swappiness", Area::Memory),
    ("vm.zone_reclaim_mode", Area::Memory),
    ("vm.min_free_kbytes", Area::Memory),
    ("vm.overcommit_memory", Area::Memory),
    ("vm.overcommit_ratio", Area::Memory),
    ("vm.max_map_count", Area::Memory),
    ("vm.nr_hugepages", Area::Memory),
    ("vm.vfs_cache_pressure", Area::Memory),
    ("vm.watermark_scale_factor", Area::Memory),
    ("vm.dirty_ratio", Area::Disk),
    ("vm.dirty_background_ratio", Area::Disk),
    ("vm.dirty_bytes", Area::Disk),
    ("vm.dirty_background_bytes", Area::Disk),
    ("vm.dirty_expire_centisecs", Area::Disk),
    ("vm.dirty_writeback_centisecs", Area::Disk),
    ("kernel.numa_balancing", Area::Cpu),
    ("kernel.sched_migration_cost_ns", Area::Cpu),
    ("kernel.sched_min_granularity_ns", Area::Cpu),
    ("kernel.sched_wakeup_granularity_ns", Area::Cpu),
    ("kernel.sched_autogroup_enabled", Area::Cpu),
    ("kernel.sched_rt_runtime_us", Area::Cpu),
    ("kernel.timer_migration", Area::Cpu),
    ("kernel.pid_max", Area::Jvm),
    ("kernel.threads-max", Area::Jvm),
    ("fs.file-max", Area::Network),
    ("fs.nr_open", Area::Network),
];

fn entity_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^net\.ipv[46]\.(?:conf|neigh)\.([^.]+)\.|\.(cpu\d+)(?:\.|$)")
            .expect("valid regex")
    })
}

/// The interface or CPU a key is specific to (`eth0` in `net.ipv4.conf.eth0.rp_filter`), not
/// counting `all` and `default`.
pub fn entity_of(key: &str) -> Option<&str> {
    let c = entity_re().captures(key)?;
    let e = c.get(1).or_else(|| c.get(2))?.as_str();
    (!matches!(e, "all" | "default")).then_some(e)
}

/// The first two components of a key (`net.netfilter`).
fn subtree(key: &str) -> &str {
    key.match_indices('.')
        .nth(1)
        .and_then(|(i, _)| key.get(..i))
        .unwrap_or(key)
}

fn matches(list: &[&str], key: &str) -> bool {
    list.iter()
        .any(|x| key == *x || (x.ends_with('.') && key.starts_with(x)))
}

/// Compares every sysctl key.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (
        &p.baseline.facts.kernel.sysctl,
        &p.suspect.facts.kernel.sysctl,
    );
    if !out.both(
        "sysctl",
        "sysctl (`sysctl -a`)",
        !b.is_empty(),
        !s.is_empty(),
    ) {
        return;
    }
    // Entities (interfaces, CPUs) each side has keys for.
    let ents = |m: &std::collections::BTreeMap<String, _>| -> BTreeSet<String> {
        m.keys()
            .filter_map(|k: &String| entity_of(k).map(str::to_string))
            .collect()
    };
    let (eb, es) = (ents(b), ents(s));
    let (ub, us) = (
        &p.baseline.facts.kernel.sysctl_unreadable,
        &p.suspect.facts.kernel.sysctl_unreadable,
    );
    for (side, unreadable, other) in [(Which::Baseline, ub, s), (Which::Suspect, us, b)] {
        unknown_gap(side, unreadable, other, out);
    }
    let keys: BTreeSet<&String> = b
        .keys()
        .chain(s.keys())
        .filter(|k| !matches(VOLATILE, k) && !COMPARED_ELSEWHERE.contains(&k.as_str()))
        .filter(|k| !ub.contains_key(*k) && !us.contains_key(*k))
        .collect();
    // Subtrees present on one side only.
    let mut subtrees: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for k in &keys {
        let e = subtrees.entry(subtree(k)).or_default();
        e.0 += usize::from(b.contains_key(*k));
        e.1 += usize::from(s.contains_key(*k));
    }
    subtrees.retain(|_, (nb, ns)| (*nb == 0) != (*ns == 0) && (*nb).max(*ns) >= SUBTREE_MIN_KEYS);
    for (t, (nb, _)) in &subtrees {
        let (side, m) = if *nb > 0 {
            (Which::Baseline, b)
        } else {
            (Which::Suspect, s)
        };
        let members: Vec<&String> = m.keys().filter(|k| subtree(k) == *t).collect();
        let known: Vec<(&str, Area)> = KNOWN
            .iter()
            .filter(|(k, _)| members.iter().any(|x| x == k))
            .copied()
            .collect();
        let shown = Some(format!("{} keys", members.len()));
        let (bv, sv) = match side {
            Which::Baseline => (shown, None),
            Which::Suspect => (None, shown),
        };
        let mut d = Difference::new(&SYSCTL, format!("sysctl {t}.*"))
            .values(bv, sv)
            .reason(format!(
                "the whole `{t}` subtree exists on the {} only: a module or feature is loaded there{}",
                side.label(),
                if known.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; includes {}, known to change performance",
                        known
                            .iter()
                            .map(|(k, _)| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ));
        if let Some((_, area)) = known.first() {
            d = d.weight(KNOWN_WEIGHT).link(p.symptoms.in_area(*area));
        }
        for k in members.iter().take(8) {
            d = d.cite(side, m.get(*k));
        }
        out.push(d);
    }
    for k in keys {
        if subtrees.contains_key(subtree(k)) {
            continue;
        }
        let (x, y) = (b.get(k), s.get(k));
        let norm = |v: &str| v.split_whitespace().collect::<Vec<_>>().join(" ");
        if x.map(|c| norm(&c.value)) == y.map(|c| norm(&c.value)) {
            continue;
        }
        let known = KNOWN.iter().find(|(key, _)| key == k).map(|(_, a)| *a);
        let one_sided_entity = entity_of(k).filter(|e| !(eb.contains(*e) && es.contains(*e)));
        let mut d = Difference::new(&SYSCTL, format!("sysctl {k}"))
            .values(x.map(|c| norm(&c.value)), y.map(|c| norm(&c.value)))
            .cite(Which::Baseline, x)
            .cite(Which::Suspect, y);
        if let Some(e) = one_sided_entity {
            d = d.magnitude(0.0).reason(format!(
                "a key of `{e}`, which exists on one side only: follows the hardware, not tuning"
            ));
        } else if let (Some(_), Some(_), Some(why)) = (x, y, super::sized_by_host(p, k)) {
            d = d.magnitude(0.0).reason(format!(
                "the kernel sizes this default from the host ({why}): a consequence, not tuning"
            ));
        } else {
            let what = match (x, y) {
                (Some(_), Some(_)) => "another value",
                (Some(_), None) => "set on the baseline only",
                _ => "set on the suspect only",
            };
            d = match known {
                Some(area) => d
                    .weight(KNOWN_WEIGHT)
                    .reason(format!("{what}; a {area} key known to change performance"))
                    .link(p.symptoms.in_area(area)),
                None => d.reason(format!("{what}; sysctl differences rarely explain large performance gaps (case S2: +0–8 %)")),
            };
        }
        out.push(d);
    }
}

/// Lists the keys `side` could not read that the other side has: not compared, with their count
/// by cause.
fn unknown_gap(
    side: Which,
    unreadable: &BTreeMap<String, crate::evidence::Cited<SysctlError>>,
    other: &BTreeMap<String, crate::evidence::Cited<String>>,
    out: &mut Out,
) {
    let keys: Vec<(&String, SysctlError)> = unreadable
        .iter()
        .filter(|(k, _)| other.contains_key(*k))
        .map(|(k, c)| (k, c.value))
        .collect();
    if keys.is_empty() {
        return;
    }
    let denied = keys
        .iter()
        .filter(|(_, e)| *e == SysctlError::Denied)
        .count();
    let shown: Vec<String> = keys.iter().take(6).map(|(k, _)| format!("`{k}`")).collect();
    out.gaps.push(super::Gap {
        area: "kernel",
        what: format!(
            "sysctl: {} {} unreadable on the {} ({denied} {}, {} {}), so not compared: {}{}",
            keys.len(),
            if keys.len() == 1 { "key" } else { "keys" },
            side.label(),
            SysctlError::Denied.label(),
            keys.len() - denied,
            if keys.len() - denied == 1 {
                "read error"
            } else {
                "read errors"
            },
            shown.join(", "),
            if keys.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        ),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_interface_and_per_cpu_keys_name_their_entity() {
        assert_eq!(entity_of("net.ipv4.conf.eth0.rp_filter"), Some("eth0"));
        assert_eq!(
            entity_of("net.ipv6.neigh.ens192.retrans_time"),
            Some("ens192")
        );
        assert_eq!(entity_of("net.ipv4.conf.all.rp_filter"), None);
        assert_eq!(entity_of("net.ipv4.conf.default.rp_filter"), None);
        assert_eq!(entity_of("net.core.somaxconn"), None);
    }

    #[test]
    fn subtrees_are_the_first_two_components() {
        assert_eq!(subtree("net.netfilter.nf_conntrack_max"), "net.netfilter");
        assert_eq!(subtree("vm.swappiness"), "vm.swappiness");
    }

    #[test]
    fn volatile_keys_match_by_prefix() {
        assert!(matches(VOLATILE, "kernel.random.uuid"));
        assert!(matches(VOLATILE, "fs.file-nr"));
        assert!(!matches(VOLATILE, "fs.file-max"));
    }
}
