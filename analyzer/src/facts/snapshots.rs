//! Pairs of counter snapshots and the seconds between them.
//!
//! Snapshot times come from the manifest (each record's start time). Without them (a loose
//! bundle: `proc_vmstat.1` / `proc_vmstat.2`, `vmstat_before.txt` / `vmstat_after.txt`,
//! `proc/vmstat` / `after/proc/vmstat`), two snapshots of one kind are ordered by their counters,
//! which only grow between two reads on one boot: the snapshot whose counters are all at or below
//! the other's is the earlier ([`ordered`]). Names (`start`/`end`, `before`/`after`, `.1`/`.2`,
//! `t0`/`t1`) never decide against the counters. The interval is then known only when both names
//! carry a time (`…T101500Z`); else the increase is "between the two snapshots, interval
//! unknown", which is not "since boot".

use super::conflicts::Conflict;
use super::CounterChange;
use crate::artifacts::{Artifact, Collected};
use crate::evidence::Cited;
use parsers::kind::{KindSpec, Record};

/// The earliest and latest snapshot of one kind.
pub struct Pair<'a, T> {
    /// First snapshot's artifact and record.
    pub first: (&'a Artifact, &'a T),
    /// Last snapshot's artifact and record.
    pub last: (&'a Artifact, &'a T),
    /// Seconds between them (manifest start times).
    pub seconds: f64,
}

/// Finds the first and last timed snapshots of `of` whose record `pick` accepts.
/// Errors: why no pair with a positive interval exists.
pub fn pair<'a, R: Record, T>(
    c: &'a Collected,
    of: &'static KindSpec,
    pick: fn(&R) -> Option<&T>,
) -> Result<Pair<'a, T>, String> {
    let kind = of.name;
    let mut snaps: Vec<(&Artifact, &T, Option<f64>)> = c
        .records_of::<R>(of)
        .filter_map(|(a, d)| pick(d).map(|t| (a, t, a.record.as_ref().and_then(|r| r.start))))
        .collect();
    match snaps.len() {
        0 => return Err(format!("no `{kind}` snapshot was parsed")),
        1 => {
            return Err(format!(
                "only one `{kind}` snapshot ({}): a rate needs two",
                snaps[0].0.path
            ))
        }
        _ => {}
    }
    if snaps.iter().any(|s| s.2.is_none()) {
        return Err(format!("the `{kind}` snapshots carry no collection times (no manifest): a rate needs the interval"));
    }
    snaps.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal));
    let (a, ta, t0) = snaps[0];
    let (b, tb, t1) = snaps[snaps.len() - 1];
    let seconds = t1.unwrap_or(0.0) - t0.unwrap_or(0.0);
    if seconds <= 0.0 {
        return Err(format!(
            "the `{kind}` snapshots were taken at the same time"
        ));
    }
    Ok(Pair {
        first: (a, ta),
        last: (b, tb),
        seconds,
    })
}

/// Where a file name places a snapshot among two: `Some(0)` for the earlier (`start`, `before`,
/// `.1`, `_1`, `-1`, `t0`, a folder `before`), `Some(1)` for the later (`end`, `after`, `.2`,
/// `_2`, `-2`, `t1`, a folder `after`), `None` when it says nothing.
pub fn name_hint(path: &str) -> Option<u8> {
    let lower = path.to_ascii_lowercase();
    let mut parts = lower.split('/').rev();
    let file = parts.next().unwrap_or("");
    let words: Vec<&str> = file
        .split(['.', '_', '-'])
        .filter(|w| !w.is_empty())
        .collect();
    let tail = words
        .iter()
        .rev()
        .find(|w| !matches!(**w, "txt" | "out" | "log"))
        .copied();
    let of = |w: &str| match w {
        "start" | "before" | "1" | "t0" | "begin" | "first" | "pre" => Some(0),
        "end" | "after" | "2" | "t1" | "last" | "post" => Some(1),
        _ => None,
    };
    if let Some(h) = tail.and_then(of) {
        return Some(h);
    }
    if let Some(h) = words.iter().find_map(|w| {
        matches!(*w, "start" | "before" | "end" | "after")
            .then(|| of(w))
            .flatten()
    }) {
        return Some(h);
    }
    parts.find_map(|d| match d {
        "before" | "start" => Some(0),
        "after" | "end" => Some(1),
        _ => None,
    })
}

/// Seconds since the epoch of a `YYYYMMDDTHHMMSS` stamp in a file name (`vmstat_20240101T101500Z`).
pub fn name_time(path: &str) -> Option<f64> {
    let b = path.as_bytes();
    (8..b.len().saturating_sub(6)).find_map(|i| {
        let digits = |r: std::ops::Range<usize>| {
            b.get(r.clone())
                .filter(|d| d.iter().all(u8::is_ascii_digit))
                .and_then(|_| path.get(r))
        };
        if b[i] != b'T' && b[i] != b't' {
            return None;
        }
        let date = digits(i - 8..i)?;
        let time = digits(i + 1..i + 7)?;
        let n = |s: &str| s.parse::<i64>().ok();
        let part = |s: &str, r: std::ops::Range<usize>| n(s.get(r)?);
        let (y, m, d) = (part(date, 0..4)?, part(date, 4..6)?, part(date, 6..8)?);
        let (hh, mm, ss) = (part(time, 0..2)?, part(time, 2..4)?, part(time, 4..6)?);
        if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
            return None;
        }
        // Days from civil (H. Hinnant's algorithm).
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        Some((days * 86_400 + hh * 3600 + mm * 60 + ss) as f64)
    })
}

/// A record's counters that only grow on one boot, by a name unique within the record (gauges
/// such as `nr_free_pages` or `CurrEstab` left out), for ordering snapshots.
pub trait Counters {
    /// `(name, value)` of each counter.
    fn counters(&self) -> Vec<(String, u64)>;
}

impl Counters for parsers::proc::vmstat::ProcVmstat {
    fn counters(&self) -> Vec<(String, u64)> {
        self.counters
            .iter()
            .filter(|c| !c.name.starts_with("nr_") && c.name != "workingset_nodes")
            .map(|c| (c.name.clone(), c.value))
            .collect()
    }
}

/// Counters of `netstat -s` / `nstat` / `/proc/net/snmp` that are gauges or settings.
const NOT_COUNTERS: &[&str] = &[
    "CurrEstab",
    "Forwarding",
    "DefaultTTL",
    "RtoAlgorithm",
    "RtoMin",
    "RtoMax",
    "MaxConn",
];

impl Counters for parsers::net::netstat_s::NetstatS {
    fn counters(&self) -> Vec<(String, u64)> {
        self.sections
            .iter()
            .flat_map(|s| s.entries.iter().map(move |e| (s, e)))
            .filter(|(_, e)| {
                !e.key.as_deref().is_some_and(|k| NOT_COUNTERS.contains(&k))
                    && !e.text.contains("established")
                    && !e.text.contains("orwarding")
            })
            .map(|(s, e)| {
                let h = e.histogram.as_deref().unwrap_or("");
                (format!("{} {h} {}", s.name, e.text), e.value)
            })
            .collect()
    }
}

impl Counters for parsers::proc::snmp::Snmp {
    fn counters(&self) -> Vec<(String, u64)> {
        self.groups
            .iter()
            .flat_map(|g| g.counters.iter().map(move |c| (g, c)))
            .filter(|(_, c)| c.value >= 0 && !NOT_COUNTERS.contains(&c.name.as_str()))
            .map(|(g, c)| (format!("{} {}", g.name, c.name), c.value as u64))
            .collect()
    }
}

impl Counters for parsers::proc::numastat::Numastat {
    fn counters(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let node = n.node.map_or(format!("#{i}"), |x| x.to_string());
            for (name, v) in [
                ("numa_hit", n.numa_hit),
                ("numa_miss", n.numa_miss),
                ("numa_foreign", n.numa_foreign),
                ("interleave_hit", n.interleave_hit),
                ("local_node", n.local_node),
                ("other_node", n.other_node),
            ] {
                if let Some(v) = v {
                    out.push((format!("node{node} {name}"), v));
                }
            }
        }
        out
    }
}

impl Counters for parsers::proc::softnet_stat::SoftnetStat {
    fn counters(&self) -> Vec<(String, u64)> {
        self.cpus
            .iter()
            .flat_map(|c| {
                [
                    (format!("{} processed", c.row), c.processed),
                    (format!("{} dropped", c.row), c.dropped),
                    (format!("{} time_squeeze", c.row), c.time_squeeze),
                ]
            })
            .collect()
    }
}

impl Counters for parsers::net::conntrack_stat::ConntrackStats {
    fn counters(&self) -> Vec<(String, u64)> {
        self.cpus
            .iter()
            .flat_map(|c| c.counters.iter().map(move |(n, v)| (c.cpu, n, *v)))
            .filter(|(_, n, _)| n.as_str() != "entries")
            .map(|(cpu, n, v)| (format!("{cpu} {n}"), v))
            .collect()
    }
}

impl Counters for parsers::proc::net_dev::NetDev {
    fn counters(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for i in &self.interfaces {
            for (n, v) in [
                ("rx_bytes", i.rx_bytes),
                ("rx_packets", i.rx_packets),
                ("rx_errs", i.rx_errs),
                ("rx_drop", i.rx_drop),
                ("rx_fifo", i.rx_fifo),
                ("tx_bytes", i.tx_bytes),
                ("tx_packets", i.tx_packets),
                ("tx_errs", i.tx_errs),
                ("tx_drop", i.tx_drop),
            ] {
                if let Some(v) = v {
                    out.push((format!("{} {n}", i.name), v));
                }
            }
        }
        out
    }
}

impl Counters for parsers::net::ethtool::stats::Stats {
    fn counters(&self) -> Vec<(String, u64)> {
        use parsers::net::ethtool::stats::{is_packets, meaning, Meaning};
        // Packet, drop and error counters only: a driver's gauges may go either way.
        self.keys()
            .into_iter()
            .zip(&self.stats)
            .filter(|(_, s)| meaning(&s.counter) != Meaning::Other || is_packets(&s.counter))
            .map(|(k, s)| (format!("{k:?}"), s.value))
            .collect()
    }
}

/// Which of two records was read first, by their counters: `Ok(true)` when `a` is the earlier
/// (every counter of `a` at or below the same counter of `b`, one below), `Ok(false)` for the
/// reverse. Errors: why they cannot be ordered (no shared counter, identical, or some counters
/// grew while others shrank: a reboot between them, or files of different hosts).
pub fn earlier<R: Counters>(a: &R, b: &R) -> Result<bool, String> {
    let bs: std::collections::HashMap<String, u64> = b.counters().into_iter().collect();
    let (mut shared, mut grew, mut shrank) = (0usize, 0usize, 0usize);
    for (name, va) in a.counters() {
        let Some(&vb) = bs.get(&name) else { continue };
        shared += 1;
        if vb > va {
            grew += 1;
        } else if vb < va {
            shrank += 1;
        }
    }
    match (shared, grew, shrank) {
        (0, _, _) => Err("they share no counter".into()),
        (_, 0, 0) => Err("their counters are identical".into()),
        (_, g, 0) if g > 0 => Ok(true),
        (_, 0, s) if s > 0 => Ok(false),
        (_, g, s) => Err(format!(
            "{g} counters grew and {s} shrank between them (a reboot between the reads, or \
             files of different hosts)"
        )),
    }
}

/// Two snapshots of one kind in the order they were taken.
pub struct Ordered<'a, R> {
    /// Earlier snapshot's artifact and record.
    pub first: (&'a Artifact, &'a R),
    /// Later snapshot's artifact and record.
    pub last: (&'a Artifact, &'a R),
    /// Seconds between them, when the manifest or both file names give their times.
    pub seconds: Option<f64>,
}

/// Orders the snapshots of `of` whose record `pick` accepts: by the manifest's times when all
/// carry one (as [`pair`]), else, for exactly two, by their counters ([`earlier`]), with the
/// interval from the times in their names when both carry one.
/// Errors: why no ordered pair exists.
pub fn ordered<'a, R: Record + Counters>(
    c: &'a Collected,
    of: &'static KindSpec,
    pick: fn(&R) -> Option<&R>,
) -> Result<Ordered<'a, R>, String> {
    let timed = pair(c, of, pick);
    if let Ok(p) = timed {
        return Ok(Ordered {
            first: p.first,
            last: p.last,
            seconds: Some(p.seconds),
        });
    }
    let kind = of.name;
    let snaps: Vec<(&Artifact, &R)> = c
        .records_of::<R>(of)
        .filter_map(|(a, d)| pick(d).map(|t| (a, t)))
        .collect();
    let [x, y] = snaps.as_slice() else {
        return Err(match timed {
            Err(e) if snaps.len() < 2 => e,
            _ => format!(
                "{} `{kind}` snapshots without collection times: only two can be ordered by \
                 their counters",
                snaps.len()
            ),
        });
    };
    let x_first = earlier(x.1, y.1).map_err(|why| {
        format!(
            "the {} snapshots {} and {} are not compared: {why}",
            of.source, x.0.path, y.0.path
        )
    })?;
    let (first, last) = if x_first { (*x, *y) } else { (*y, *x) };
    let seconds = match (name_time(&first.0.path), name_time(&last.0.path)) {
        (Some(t0), Some(t1)) if t1 > t0 => Some(t1 - t0),
        _ => None,
    };
    Ok(Ordered {
        first,
        last,
        seconds,
    })
}

/// Two untimed snapshots of one counter kind that [`ordered`] cannot order (a reboot between
/// them, files of different hosts): one [`Conflict`] each, naming the snapshot read alone (since
/// boot) and the one set aside, with the reason.
pub fn unpaired(c: &Collected, conflicts: &mut Vec<Conflict>) {
    use parsers::kind;
    use parsers::net::netstat_s::NetstatS;
    use parsers::proc::{net_dev::NetDev, numastat::Numastat, softnet_stat::SoftnetStat};
    use parsers::proc::{snmp::Snmp, vmstat::ProcVmstat};
    fn one<R: Record + Counters>(
        c: &Collected,
        of: &'static KindSpec,
        conflicts: &mut Vec<Conflict>,
    ) {
        let paths: Vec<&str> = c
            .records_of::<R>(of)
            .map(|(a, _)| a.path.as_str())
            .collect();
        if paths.len() != 2 || pair(c, of, |x: &R| Some(x)).is_ok() {
            return;
        }
        let Err(why) = ordered(c, of, |x: &R| Some(x)) else {
            return;
        };
        let Some((a, _)) = latest(c, of, |x: &R| Some(x)) else {
            return;
        };
        let Some(other) = paths.iter().find(|p| **p != a.path) else {
            return;
        };
        conflicts.push(Conflict {
            fact: "counter snapshots",
            taken: Cited::new(format!("read alone, since boot: {why}"), &a.path, 1),
            set_aside: vec![Cited::new("not paired".to_string(), other, 1)],
        });
    }
    one::<ProcVmstat>(c, &kind::PROC_VMSTAT, conflicts);
    one::<NetstatS>(c, &kind::NETSTAT_S, conflicts);
    one::<Snmp>(c, &kind::NSTAT, conflicts);
    one::<Numastat>(c, &kind::NUMASTAT, conflicts);
    one::<SoftnetStat>(c, &kind::SOFTNET_STAT, conflicts);
    one::<NetDev>(c, &kind::NET_DEV, conflicts);
}

/// The latest snapshot of a counter kind: the later of [`ordered`] when two can be ordered, else
/// [`latest`].
pub fn latest_counted<'a, R: Record + Counters>(
    c: &'a Collected,
    of: &'static KindSpec,
    pick: fn(&R) -> Option<&R>,
) -> Option<(&'a Artifact, &'a R)> {
    match ordered(c, of, pick) {
        Ok(o) => Some(o.last),
        Err(_) => latest(c, of, pick),
    }
}

/// The latest snapshot of one kind whose record `pick` accepts, for a counter read once: the one
/// with the latest collection time, else the last in path order among those whose name does not
/// mark them as the earlier of two (`.start`, `before`, `.1`: [`name_hint`]). `None` when the
/// bundle has none.
pub fn latest<'a, R: Record, T>(
    c: &'a Collected,
    of: &'static KindSpec,
    pick: fn(&R) -> Option<&T>,
) -> Option<(&'a Artifact, &'a T)> {
    let snaps: Vec<(&Artifact, &T)> = c
        .records_of::<R>(of)
        .filter_map(|(a, d)| pick(d).map(|t| (a, t)))
        .collect();
    let start = |a: &Artifact| a.record.as_ref().and_then(|r| r.start);
    if let Some(timed) = snaps
        .iter()
        .filter(|(a, _)| start(a).is_some())
        .max_by(|x, y| {
            start(x.0)
                .partial_cmp(&start(y.0))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    {
        return Some(*timed);
    }
    snaps
        .iter()
        .rev()
        .find(|(a, _)| name_hint(&a.path) == Some(1))
        .or_else(|| {
            snaps
                .iter()
                .rev()
                .find(|(a, _)| name_hint(&a.path) != Some(0))
        })
        .or(snaps.last())
        .copied()
}

/// A counter of one kind of snapshot: its increase between the two [`ordered`] snapshots
/// (`between` set; `seconds` when the interval is known), else its value in the latest snapshot,
/// since boot. `read` gives the counter and its 1-based line from one record. `None` when no
/// snapshot carries the counter.
pub fn counter_change<R: Record + Counters>(
    c: &Collected,
    of: &'static KindSpec,
    read: fn(&R) -> Option<(u64, usize)>,
) -> Option<Cited<CounterChange>> {
    if let Ok(p) = ordered(c, of, |x: &R| Some(x)) {
        if let (Some((a, _)), Some((b, line))) = (read(p.first.1), read(p.last.1)) {
            return Some(Cited::new(
                CounterChange {
                    delta: b.saturating_sub(a),
                    seconds: p.seconds,
                    between: Some(of.source),
                },
                &p.last.0.path,
                line,
            ));
        }
    }
    let (a, x) = latest(c, of, |x: &R| Some(x))?;
    let (v, line) = read(x)?;
    Some(Cited::new(CounterChange::since_boot(v), &a.path, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsers::proc::vmstat::{parse, ProcVmstat};

    fn vmstat(text: &str) -> ProcVmstat {
        parse(text).map(|p| p.value).unwrap_or_default()
    }

    #[test]
    fn the_snapshot_whose_counters_are_all_lower_is_the_earlier() {
        // Gauges (`nr_*`) may go either way; counters only grow.
        let a = vmstat("nr_free_pages 1653775\npgfault 207871213\ncompact_stall 11\n");
        let b = vmstat("nr_free_pages 1442407\npgfault 211738712\ncompact_stall 911\n");
        assert_eq!(earlier(&a, &b), Ok(true));
        assert_eq!(earlier(&b, &a), Ok(false));
    }

    #[test]
    fn counters_that_grow_and_shrink_are_not_ordered_and_say_why() {
        let a = vmstat("pgfault 207871213\ncompact_stall 11\n");
        let b = vmstat("pgfault 1000\ncompact_stall 911\n");
        assert_eq!(
            earlier(&a, &b),
            Err(
                "1 counters grew and 1 shrank between them (a reboot between the reads, or \
                 files of different hosts)"
                    .into()
            )
        );
        assert_eq!(earlier(&a, &a), Err("their counters are identical".into()));
        let c = vmstat("nr_free_pages 5\n");
        assert_eq!(earlier(&a, &c), Err("they share no counter".into()));
    }

    #[test]
    fn names_hint_which_snapshot_is_which() {
        for (path, hint) in [
            ("proc_vmstat.1", Some(0)),
            ("proc_vmstat.2", Some(1)),
            ("vmstat_before.txt", Some(0)),
            ("vmstat_after.txt", Some(1)),
            ("netstat-s_1.txt", Some(0)),
            ("netstat-s-2.txt", Some(1)),
            ("numastat_t0.out", Some(0)),
            ("rca-h/proc/vmstat.start", Some(0)),
            ("rca-h/proc/vmstat.end", Some(1)),
            ("after/proc/vmstat", Some(1)),
            ("before/proc/vmstat", Some(0)),
            ("proc/vmstat", None),
            ("vmstat.txt", None),
        ] {
            assert_eq!(name_hint(path), hint, "{path}");
        }
    }

    #[test]
    fn times_in_names_give_the_interval() {
        let t0 = name_time("vmstat_20240101T101500Z.txt");
        let t1 = name_time("vmstat_20240101T102000Z.txt");
        assert_eq!(t1.zip(t0).map(|(b, a)| b - a), Some(300.0));
        assert_eq!(t0, Some(1_704_104_100.0));
        assert_eq!(name_time("proc_vmstat.1"), None);
        assert_eq!(name_time("T"), None);
    }
}
