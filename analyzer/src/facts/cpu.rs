//! Per-CPU utilisation series from `mpstat -P ALL`.

use crate::artifacts::Collected;
use crate::kinds::Data;
use parsers::iostat::Timestamp;
use parsers::mpstat::CpuId;
use serde::Serialize;
use std::collections::HashMap;

/// One logical CPU over the collection window.
#[derive(Debug, Clone, Serialize)]
pub struct CpuSeries {
    /// CPU number.
    pub cpu: u32,
    /// Artifact the series was read from.
    pub artifact: String,
    /// One sample per interval, in time order.
    pub samples: Vec<CpuSample>,
}

/// One CPU over one interval, % of its time.
#[derive(Debug, Clone, Serialize)]
pub struct CpuSample {
    /// End of the interval.
    pub time: Option<Timestamp>,
    /// 1-based line of the row.
    pub line: usize,
    /// 1-based line of the table header the row belongs to.
    pub header_line: usize,
    /// `%usr` + `%nice`.
    pub user_pct: Option<f64>,
    /// `%sys`.
    pub sys_pct: Option<f64>,
    /// `%iowait`.
    pub iowait_pct: Option<f64>,
    /// `%irq`.
    pub irq_pct: Option<f64>,
    /// `%soft`.
    pub soft_pct: Option<f64>,
    /// `%steal`.
    pub steal_pct: Option<f64>,
    /// `%idle`.
    pub idle_pct: Option<f64>,
}

/// Builds per-CPU series from the `mpstat` artifact with the most intervals (text preferred).
pub fn build(c: &Collected) -> Result<Vec<CpuSeries>, String> {
    // Prefer output with per-CPU %soft values, then most intervals, then text, then the path.
    let best = c
        .parsed("mpstat")
        .filter_map(|(a, d)| match d {
            Data::Mpstat(m) => Some((a, m)),
            _ => None,
        })
        .max_by_key(|(a, m)| {
            let per_cpu = m.intervals.iter().any(|iv| {
                iv.rows
                    .iter()
                    .any(|r| matches!(r.cpu, CpuId::Cpu(_)) && r.soft_pct.is_some())
            });
            (
                per_cpu,
                m.intervals.len(),
                !a.path.ends_with(".json"),
                std::cmp::Reverse(a.path.clone()),
            )
        });
    let Some((art, mp)) = best else {
        return Err("no `mpstat -P ALL` output was parsed".into());
    };
    let mut out: Vec<CpuSeries> = Vec::new();
    let mut index: HashMap<u32, usize> = HashMap::new();
    for iv in &mp.intervals {
        for r in &iv.rows {
            let CpuId::Cpu(n) = r.cpu else { continue };
            let s = CpuSample {
                time: iv.time,
                line: r.line,
                header_line: iv.line,
                user_pct: match (r.usr_pct, r.nice_pct) {
                    (Some(u), n) => Some(u + n.unwrap_or(0.0)),
                    (None, n) => n,
                },
                sys_pct: r.sys_pct,
                iowait_pct: r.iowait_pct,
                irq_pct: r.irq_pct,
                soft_pct: r.soft_pct,
                steal_pct: r.steal_pct,
                idle_pct: r.idle_pct,
            };
            match index.get(&n) {
                Some(&i) => out[i].samples.push(s),
                None => {
                    index.insert(n, out.len());
                    out.push(CpuSeries {
                        cpu: n,
                        artifact: art.path.clone(),
                        samples: vec![s],
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(format!(
            "{} has no per-CPU rows (was it run without -P ALL?)",
            art.path
        ));
    }
    out.sort_by_key(|c| c.cpu);
    Ok(out)
}
