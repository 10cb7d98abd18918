//! Block devices: mean `await` and `%util` over the window, per device present on both sides.
//!
//! In: both sides' [`DiskSeries`]. Out: a difference per device and metric beyond the noise
//! floors ([`score::LATENCY_MS`], [`score::UTIL_PCT`]). Devices idle on both sides are skipped.

use super::score::{self, DISK};
use super::{numeric, Out, Pair, Which};
use crate::facts::{DiskSample, DiskSeries};
use crate::rules::SymptomGroup;

/// Reads one metric of a sample.
type Get = fn(&DiskSample) -> Option<f64>;

/// Mean of a metric over the samples that have it, and the lines of its three highest samples.
fn mean(d: &DiskSeries, get: Get) -> Option<(f64, Vec<usize>)> {
    let mut v: Vec<(f64, usize)> = d
        .samples
        .iter()
        .filter_map(|s| get(s).map(|x| (x, s.line)))
        .collect();
    if v.is_empty() {
        return None;
    }
    let m = v.iter().map(|x| x.0).sum::<f64>() / v.len() as f64;
    v.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    Some((m, v.iter().take(3).map(|x| x.1).collect()))
}

fn idle(d: &DiskSeries) -> bool {
    d.samples.iter().all(|s| s.iops.unwrap_or(0.0) == 0.0)
}

/// Compares devices present on both sides.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.disks, &p.suspect.facts.disks);
    if !out.both(
        "disk",
        "device I/O series (`iostat -x`, `sar -d`)",
        !b.is_empty(),
        !s.is_empty(),
    ) {
        return;
    }
    let link = p.symptoms.any(SymptomGroup::Storage);
    for x in b {
        let Some(y) = s.iter().find(|d| d.device == x.device) else {
            continue;
        };
        if idle(x) && idle(y) {
            continue;
        }
        let metrics: [(&str, Get, score::Floor, &str); 2] = [
            ("mean await", |d| d.await_ms, score::LATENCY_MS, "ms"),
            ("mean %util", |d| d.util_pct, score::UTIL_PCT, "%"),
        ];
        for (what, get, floor, unit) in metrics {
            let (Some((mx, lx)), Some((my, ly))) = (mean(x, get), mean(y, get)) else {
                continue;
            };
            numeric(
                out,
                &DISK,
                format!("{}: {what}", x.device),
                (mx * 100.0).round() / 100.0,
                (my * 100.0).round() / 100.0,
                floor,
                unit,
                link.clone(),
                |d| {
                    d.cite_lines(Which::Baseline, &x.artifact, &lx).cite_lines(
                        Which::Suspect,
                        &y.artifact,
                        &ly,
                    )
                },
            );
        }
    }
}
