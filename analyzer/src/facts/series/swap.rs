//! Swap-in and swap-out on the time axis, from `vmstat` (`si`, `so`).

use super::{Clock, Points};
use crate::artifacts::Collected;
use parsers::procs::vmstat::Vmstat;
use parsers::procs::vmstat::VmstatSample;
use serde::Serialize;

/// Swap traffic of the `vmstat` output with the most samples.
#[derive(Debug, Clone, Serialize)]
pub struct SwapTimeline {
    /// The `vmstat` artifact.
    pub artifact: String,
    /// `si`, KiB/s.
    pub si: Points,
    /// `so`, KiB/s.
    pub so: Points,
}

/// The swap samples on the axis, the first report (averages since boot) left out; samples are
/// placed by their `-t` timestamps, else one per `interval_s` from the artifact's start time in
/// the manifest. Errors: no `vmstat` output, or no way to place its samples.
pub(super) fn build(
    c: &Collected,
    interval_s: Option<f64>,
    clock: &Clock,
) -> Result<SwapTimeline, String> {
    let best = c.records::<Vmstat>().max_by_key(|(_, v)| v.samples.len());
    let Some((art, vm)) = best else {
        return Err("no `vmstat` output was parsed".into());
    };
    // The first report covers the time since boot.
    let skip = usize::from(vm.samples.len() > 1);
    let samples = || vm.samples.iter().skip(skip);
    let timed = samples().any(|s| s.time.is_some());
    let times: Vec<Option<f64>> = if timed {
        clock.map_times(samples().map(|s| s.time))
    } else {
        let start = art
            .record
            .as_ref()
            .and_then(|r| r.start)
            .and_then(|s| clock.at_epoch(s));
        match (start, interval_s) {
            (Some(s), Some(i)) => (0..samples().len())
                .map(|k| Some(s + (k + 1) as f64 * i))
                .collect(),
            _ => {
                return Err(format!(
                    "{}: no timestamps (vmstat without -t) and no collection time",
                    art.path
                ))
            }
        }
    };
    let pts = |f: fn(&VmstatSample) -> Option<u64>| -> Points {
        samples()
            .zip(&times)
            .filter_map(|(s, t)| t.map(|t| (t, f(&s).map(|v| v as f64))))
            .collect()
    };
    Ok(SwapTimeline {
        artifact: art.path.clone(),
        si: pts(|s| s.si),
        so: pts(|s| s.so),
    })
}
