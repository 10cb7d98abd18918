//! Per-JVM old generation, GC time and full collections on the time axis, from the `jstat`
//! output behind each JVM's GC facts ([`crate::facts::jvm::GcSeries`]), with the per-sample
//! arithmetic of [`crate::facts::jvm`].

use super::{Clock, Points};
use crate::artifacts::Collected;
use crate::facts::jvm::{self, Jvm};
use parsers::jvm::jstat::Jstat;
use parsers::kind::Record;
use serde::Serialize;

/// One JVM's GC over the window.
#[derive(Debug, Clone, Serialize)]
pub struct GcTimeline {
    /// Index of the JVM in [`crate::facts::HostFacts::jvms`].
    pub jvm: usize,
    /// The `jstat` artifact.
    pub artifact: String,
    /// Old generation (`O`, else `OU / OC`) at each sample, % of its capacity, as printed.
    pub old_pct: Points,
    /// Time in GC pauses (`YGCT + FGCT`) over each interval, % of it, at the interval's end.
    pub gc_time_pct: Points,
    /// Times of the samples at which `FGC` had grown.
    pub full_gcs: Vec<f64>,
}

/// The GC timelines of the JVMs with a GC series, and why JVMs have none (in JVM order, then
/// one overall reason when no JVM has one).
///
/// `jstat` samples are placed from the artifact's start time in the manifest: by their `-t`
/// timestamps, else one per `interval_s` (1 s when unknown).
pub(super) fn build(
    jvms: &[Jvm],
    c: &Collected,
    interval_s: Option<f64>,
    clock: &Clock,
) -> (Vec<GcTimeline>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for (index, j) in jvms.iter().enumerate() {
        let Some(g) = &j.gc else { continue };
        let Some((art, js)) = c
            .artifacts
            .iter()
            .find(|a| a.path == g.artifact)
            .and_then(|a| a.data.as_ref().and_then(Jstat::of).map(|d| (a, d)))
        else {
            continue;
        };
        let start = art.record.as_ref().and_then(|r| r.start);
        let Some(t0) = start.and_then(|s| clock.at_epoch(s)) else {
            missing.push(format!(
                "{}: the jstat samples cannot be placed in time (no collection time in the manifest)",
                j.label()
            ));
            continue;
        };
        let first_ts = js.samples.first().and_then(|s| s.timestamp_s);
        let step = interval_s.unwrap_or(1.0);
        let times: Vec<f64> = js
            .samples
            .iter()
            .enumerate()
            .map(|(i, s)| match (s.timestamp_s, first_ts) {
                (Some(t), Some(f)) => t0 + (t - f),
                _ => t0 + i as f64 * step,
            })
            .collect();
        let old_pct = js
            .samples
            .iter()
            .zip(&times)
            .map(|(s, t)| (*t, jvm::old_occupancy_pct(&s)))
            .collect();
        let mut gc_time_pct = Vec::new();
        let mut full_gcs = Vec::new();
        for ((a, b), t) in js.samples.pairs().zip(times.windows(2)) {
            gc_time_pct.push((t[1], jvm::gc_time_pct(&a, &b, t[1] - t[0])));
            if jvm::full_gc_between(&a, &b) {
                full_gcs.push(t[1]);
            }
        }
        out.push(GcTimeline {
            jvm: index,
            artifact: g.artifact.clone(),
            old_pct,
            gc_time_pct,
            full_gcs,
        });
    }
    if out.is_empty() && jvms.is_empty() {
        missing.push("no JVM in the bundle".into());
    } else if out.is_empty() {
        missing.push("no `jstat -gcutil` series with two samples or more".into());
    }
    (out, missing)
}
