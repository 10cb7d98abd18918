//! Pairs of counter snapshots (`.start` / `.end`) and the seconds between them.
//!
//! Snapshot times come from the manifest (each record's start time). Without a manifest, two
//! artifacts named `*.start` and `*.end` are still paired, but no interval is known and rates are
//! not computed.

use crate::artifacts::{Artifact, Collected};
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
