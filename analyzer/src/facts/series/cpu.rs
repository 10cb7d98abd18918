//! Per-CPU utilisation on shared columns, from the per-CPU series of `mpstat -P ALL` (or
//! `sar -P ALL`).

use super::{median_step, Clock};
use crate::facts::CpuSeries;
use serde::Serialize;
use std::collections::BTreeMap;

/// Every CPU on the same columns: one per distinct sample time of any CPU.
#[derive(Debug, Clone, Serialize)]
pub struct CpuTimeline {
    /// Artifact the samples come from.
    pub artifact: String,
    /// Column times, seconds on the [`Clock`], increasing.
    pub times: Vec<f64>,
    /// Median gap between columns, seconds (1 with fewer than two columns).
    pub step_s: f64,
    /// One row per CPU, in CPU order.
    pub rows: Vec<CpuRow>,
}

/// One CPU's columns, % of its time (`None` = no sample).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CpuRow {
    /// CPU number.
    pub cpu: u32,
    /// `100 − %idle − %iowait`: running anything, soft-IRQs included.
    pub busy: Vec<Option<f64>>,
    /// `%soft`.
    pub soft: Vec<Option<f64>>,
    /// `%iowait`.
    pub iowait: Vec<Option<f64>>,
}

/// The CPUs' samples on shared columns. Errors: no CPU series (`why`, from the CPU facts), or
/// no sample carries a time.
pub(super) fn build(
    cpus: &[CpuSeries],
    why: Option<&str>,
    clock: &Clock,
) -> Result<CpuTimeline, String> {
    let Some(first) = cpus.first() else {
        return Err(why.unwrap_or("no per-CPU samples").to_string());
    };
    // Columns: every distinct sample time (to the millisecond), in order.
    let mut columns: BTreeMap<i64, usize> = BTreeMap::new();
    let mapped: Vec<Vec<Option<f64>>> = cpus
        .iter()
        .map(|c| clock.map_times(c.samples.iter().map(|s| s.time)))
        .collect();
    for t in mapped.iter().flatten().flatten() {
        columns.insert((t * 1000.0).round() as i64, 0);
    }
    if columns.is_empty() {
        return Err(format!("the samples of {} carry no time", first.artifact));
    }
    for (i, v) in columns.values_mut().enumerate() {
        *v = i;
    }
    let n = columns.len();
    let rows = cpus
        .iter()
        .zip(&mapped)
        .map(|(c, times)| {
            let mut row = CpuRow {
                cpu: c.cpu,
                busy: vec![None; n],
                soft: vec![None; n],
                iowait: vec![None; n],
            };
            for (s, t) in c.samples.iter().zip(times) {
                let Some(t) = t else { continue };
                let i = columns[&((t * 1000.0).round() as i64)];
                row.busy[i] = s.busy_pct();
                row.soft[i] = s.soft_pct;
                row.iowait[i] = s.iowait_pct;
            }
            row
        })
        .collect();
    let times: Vec<f64> = columns.keys().map(|k| *k as f64 / 1000.0).collect();
    Ok(CpuTimeline {
        artifact: first.artifact.clone(),
        step_s: median_step(&times),
        times,
        rows,
    })
}
