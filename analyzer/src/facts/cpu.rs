//! Per-CPU utilisation series from `mpstat -P ALL`.

use crate::artifacts::Collected;
use parsers::common::Timestamp;
use parsers::kind;
use parsers::proc::stat::ProcStat;
use parsers::sysstat::mpstat::CpuId;
use parsers::sysstat::mpstat::Mpstat;
use parsers::sysstat::sar::Sar;
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

impl CpuSample {
    /// `100 − %idle − %iowait` (clamped to 0–100): running anything, soft-IRQs included.
    pub fn busy_pct(&self) -> Option<f64> {
        self.idle_pct
            .map(|idle| (100.0 - idle - self.iowait_pct.unwrap_or(0.0)).clamp(0.0, 100.0))
    }
}

/// Builds per-CPU series from the `mpstat` artifact with the most intervals (text preferred).
pub fn build(c: &Collected) -> Result<Vec<CpuSeries>, String> {
    // Prefer output with per-CPU %soft values, then most intervals, then text, then the path.
    let best = c.records::<Mpstat>().max_by_key(|(a, m)| {
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
        return from_sar(c)
            .or_else(|_| from_proc_stat(c))
            .map_err(|why| format!("no `mpstat -P ALL` output was parsed; {why}"));
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

/// Per-CPU series from `sar -u -P ALL` (text or `sadf -j`), when no mpstat was collected. The
/// default report's `%user`/`%system` include guest and interrupt time; `-u ALL`'s `%usr`/`%sys`
/// are preferred when printed.
fn from_sar(c: &Collected) -> Result<Vec<CpuSeries>, String> {
    let best = c
        .records_of::<Sar>(&kind::SAR)
        .chain(c.records_of::<Sar>(&kind::SADF_JSON))
        .filter(|(_, s)| s.cpu.rows.iter().any(|r| matches!(r.cpu, CpuId::Cpu(_))))
        .max_by_key(|(_, s)| s.cpu.rows.len());
    let Some((art, sar)) = best else {
        return Err("no per-CPU `sar -P ALL` either".into());
    };
    let mut out: Vec<CpuSeries> = Vec::new();
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut header_line = 0;
    for r in &sar.cpu.rows {
        let CpuId::Cpu(n) = r.cpu else {
            header_line = r.line.saturating_sub(1);
            continue;
        };
        let s = CpuSample {
            time: r.time,
            line: r.line,
            header_line,
            user_pct: r
                .usr_pct
                .or(r.user_pct)
                .map(|u| u + r.nice_pct.unwrap_or(0.0)),
            sys_pct: r.sys_pct.or(r.system_pct),
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
    out.sort_by_key(|c| c.cpu);
    Ok(out)
}

/// One interval per CPU from the two `/proc/stat` snapshots of the window.
fn from_proc_stat(c: &Collected) -> Result<Vec<CpuSeries>, String> {
    let p = super::snapshots::pair(c, &kind::PROC_STAT, |s: &ProcStat| s.snapshots.last())
        .map_err(|why| format!("and {why}"))?;
    let (_, s0) = p.first;
    let (b, s1) = p.last;
    let mut out = Vec::new();
    for t0 in &s0.cpus {
        let Some(n) = t0.cpu else { continue };
        let Some(t1) = s1.cpus.iter().find(|x| x.cpu == Some(n)) else {
            continue;
        };
        let Some(u) = t0.utilisation_to(t1) else {
            continue;
        };
        out.push(CpuSeries {
            cpu: n,
            artifact: b.path.clone(),
            samples: vec![CpuSample {
                time: None,
                line: t1.line,
                header_line: s1.line,
                user_pct: Some(u.usr_pct + u.nice_pct),
                sys_pct: Some(u.sys_pct),
                iowait_pct: Some(u.iowait_pct),
                irq_pct: Some(u.irq_pct),
                soft_pct: Some(u.soft_pct),
                steal_pct: Some(u.steal_pct),
                idle_pct: Some(u.idle_pct),
            }],
        });
    }
    if out.is_empty() {
        return Err("the `/proc/stat` snapshots have no per-CPU lines in common".into());
    }
    Ok(out)
}
