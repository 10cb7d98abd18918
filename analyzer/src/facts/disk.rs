//! Per-device I/O series from `iostat -x`.

use crate::artifacts::Collected;
use parsers::common::Timestamp;
use parsers::kind;
use parsers::sysstat::iostat::Iostat;
use parsers::sysstat::sar::Sar;
use serde::Serialize;
use std::collections::HashMap;

/// One device over the collection window.
#[derive(Debug, Clone, Serialize)]
pub struct DiskSeries {
    /// Device name (`sda`, `nvme0n1`, `dm-0`).
    pub device: String,
    /// Artifact the series was read from.
    pub artifact: String,
    /// Interval samples in time order (the since-boot first report excluded).
    pub samples: Vec<DiskSample>,
}

/// One interval of one device.
#[derive(Debug, Clone, Serialize)]
pub struct DiskSample {
    /// Timestamp printed by `iostat -t`, when present.
    pub time: Option<Timestamp>,
    /// 1-based line of the device row in the artifact.
    pub line: usize,
    /// `await` (or the request-weighted `r_await`/`w_await`), ms.
    pub await_ms: Option<f64>,
    /// `aqu-sz` (`avgqu-sz`), requests.
    pub aqu_sz: Option<f64>,
    /// `%util`.
    pub util_pct: Option<f64>,
    /// `r/s` + `w/s` (+ `d/s`), requests per second.
    pub iops: Option<f64>,
}

/// Builds device series from the `iostat` artifact with the most reports (text preferred over
/// JSON on a tie: its rows are easier to cite).
pub fn build(c: &Collected) -> Result<Vec<DiskSeries>, String> {
    // Prefer the output that can feed the rules (extended statistics: await and aqu-sz), then
    // the one with most reports, then text (its rows are easier to cite), then the path.
    let best = c.records::<Iostat>().max_by_key(|(a, i)| {
        let extended = i.reports.iter().any(|r| {
            r.devices
                .iter()
                .any(|d| d.aqu_sz.is_some() && d.await_ms().is_some())
        });
        (
            extended,
            i.reports.len(),
            !a.path.ends_with(".json"),
            std::cmp::Reverse(a.path.clone()),
        )
    });
    let Some((art, io)) = best else {
        return from_sar(c).map_err(|why| format!("no `iostat -x` output was parsed; {why}"));
    };
    // Without -y the first report covers the time since boot: drop it when others follow.
    // OSWatcher keeps only an interval report of each run (its hours joined into one series).
    let since_boot_first = !art.is(&kind::OSWIOSTAT)
        && !art
            .record
            .as_ref()
            .is_some_and(|r| r.argv.iter().any(|w| w == "-y"));
    let skip = usize::from(since_boot_first && io.reports.len() > 1);
    let mut out: Vec<DiskSeries> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for rep in io.reports.iter().skip(skip) {
        for d in &rep.devices {
            let sample = DiskSample {
                time: rep.time,
                line: d.line,
                await_ms: d.await_ms(),
                aqu_sz: d.aqu_sz,
                util_pct: d.util_pct,
                iops: sum([d.r_per_s, d.w_per_s, d.d_per_s]).or(d.tps),
            };
            match index.get(d.device.as_str()) {
                Some(&i) => out[i].samples.push(sample),
                None => {
                    index.insert(&d.device, out.len());
                    out.push(DiskSeries {
                        device: d.device.clone(),
                        artifact: art.path.clone(),
                        samples: vec![sample],
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(format!(
            "{} has no device rows after the since-boot report",
            art.path
        ));
    }
    Ok(out)
}

fn sum(v: [Option<f64>; 3]) -> Option<f64> {
    v.iter().flatten().copied().reduce(|a, b| a + b)
}

/// Device series from `sar -d` (text or `sadf -j`) when no iostat was collected. sar reports
/// every interval (no since-boot report).
fn from_sar(c: &Collected) -> Result<Vec<DiskSeries>, String> {
    let best = c
        .records_of::<Sar>(&kind::SAR)
        .chain(c.records_of::<Sar>(&kind::SADF_JSON))
        .filter(|(_, s)| !s.disk.rows.is_empty())
        .max_by_key(|(_, s)| s.disk.rows.len());
    let Some((art, sar)) = best else {
        return Err("no `sar -d` either".into());
    };
    let mut out: Vec<DiskSeries> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for r in &sar.disk.rows {
        let sample = DiskSample {
            time: r.time,
            line: r.line,
            await_ms: r.await_ms,
            aqu_sz: r.aqu_sz,
            util_pct: r.util_pct,
            iops: r.tps,
        };
        match index.get(r.dev.as_str()) {
            Some(&i) => out[i].samples.push(sample),
            None => {
                index.insert(&r.dev, out.len());
                out.push(DiskSeries {
                    device: r.dev.clone(),
                    artifact: art.path.clone(),
                    samples: vec![sample],
                });
            }
        }
    }
    Ok(out)
}
