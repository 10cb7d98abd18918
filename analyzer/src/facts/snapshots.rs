//! Pairs of counter snapshots (`.start` / `.end`) and the seconds between them.
//!
//! Snapshot times come from the manifest (each record's start time). Without a manifest, two
//! artifacts named `*.start` and `*.end` are still paired, but no interval is known and rates are
//! not computed.

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

/// The latest snapshot of one kind whose record `pick` accepts, for a counter read once: the one
/// with the latest collection time, else one named `*.end`, else the last in path order. `None`
/// when the bundle has none.
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
        .find(|(a, _)| a.path.ends_with(".end"))
        .or(snaps.last())
        .copied()
}

/// A counter of one kind of snapshot: its increase between the first and last timed snapshots,
/// else its value in the latest snapshot, since boot (`seconds: None`). `read` gives the
/// counter and its 1-based line from one record. `None` when no snapshot carries the counter.
pub fn counter_change<R: Record>(
    c: &Collected,
    of: &'static KindSpec,
    read: fn(&R) -> Option<(u64, usize)>,
) -> Option<Cited<CounterChange>> {
    if let Ok(p) = pair(c, of, |x: &R| Some(x)) {
        if let (Some((a, _)), Some((b, line))) = (read(p.first.1), read(p.last.1)) {
            return Some(Cited::new(
                CounterChange {
                    delta: b.saturating_sub(a),
                    seconds: Some(p.seconds),
                },
                &p.last.0.path,
                line,
            ));
        }
    }
    let (a, x) = latest(c, of, |x: &R| Some(x))?;
    let (v, line) = read(x)?;
    Some(Cited::new(
        CounterChange {
            delta: v,
            seconds: None,
        },
        &a.path,
        line,
    ))
}
