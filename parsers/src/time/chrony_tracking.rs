//! `chronyc tracking`: the state of chrony's system clock.
//!
//! chrony 2.x–4.x; chrony 3+ prints the Reference ID in hex with the name in parentheses,
//! chrony 2 a dotted quad:
//! ```text
//! Reference ID    : 7F000002 (127.0.0.2)
//! Stratum         : 6
//! Ref time (UTC)  : Mon Nov 30 01:48:27 2026
//! System time     : 0.000001321 seconds fast of NTP time
//! Last offset     : +0.000000038 seconds
//! RMS offset      : 0.000001321 seconds
//! Frequency       : 0.010 ppm slow
//! Residual freq   : +0.000 ppm
//! Skew            : 0.021 ppm
//! Root delay      : 0.000007179 seconds
//! Root dispersion : 0.000003860 seconds
//! Update interval : 2.0 seconds
//! Leap status     : Normal
//! ```
//! Signs follow the Telegraf chrony plugin's reading: `fast` of NTP time is a positive system
//! time offset, `slow` a negative one; a frequency error `slow` is negative ppm.

use super::{field, Field};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Parsed `chronyc tracking`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Tracking {
    /// `Reference ID` as printed before the parentheses: hex (`7F000002`, chrony 3+) or a
    /// dotted quad (chrony 2). `00000000` when not synchronised.
    pub reference_id: Option<String>,
    /// Name or address in the parentheses (`ntp.example.com`, `127.0.0.2`); `None` when empty.
    pub reference_name: Option<String>,
    /// `Stratum` (0 when not synchronised).
    pub stratum: Option<u32>,
    /// `Ref time (UTC)` as printed.
    pub ref_time: Option<String>,
    /// `System time`: offset of the system clock from NTP time, seconds; positive when the
    /// system clock is `fast`, negative when `slow`.
    pub system_time_s: Option<f64>,
    /// `Last offset`, seconds (signed as printed).
    pub last_offset_s: Option<f64>,
    /// `RMS offset`, seconds.
    pub rms_offset_s: Option<f64>,
    /// `Frequency` error of the system clock, ppm; negative when `slow`.
    pub frequency_ppm: Option<f64>,
    /// `Residual freq`, ppm.
    pub residual_freq_ppm: Option<f64>,
    /// `Skew`, ppm.
    pub skew_ppm: Option<f64>,
    /// `Root delay`, seconds.
    pub root_delay_s: Option<f64>,
    /// `Root dispersion`, seconds.
    pub root_dispersion_s: Option<f64>,
    /// `Update interval`, seconds.
    pub update_interval_s: Option<f64>,
    /// `Leap status` as printed (`Normal`, `Insert second`, `Delete second`, `Not
    /// synchronised`; chrony 2 spelled it `Not synchronized`).
    pub leap_status: Option<String>,
    /// Every line, in input order.
    pub fields: Vec<Field>,
}

impl Tracking {
    /// Whether chrony considers the clock synchronised (leap status not `Not synchronised`).
    pub fn synchronised(&self) -> Option<bool> {
        let l = self.leap_status.as_deref()?;
        Some(!l.starts_with("Not synchroni"))
    }

    /// Line of a key (`System time`), for evidence.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        field(&self.fields, key).map(|f| f.line)
    }
}

/// `Key : value` with chrony's alignment (`Reference ID    : …`).
fn chrony_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line
        .split_once(" : ")
        .or_else(|| line.trim_end().strip_suffix(" :").map(|k| (k, "")))?;
    let k = k.trim();
    (!k.is_empty() && k.len() < 40).then_some((k, v.trim()))
}

/// `N seconds` → N.
fn seconds(v: &str) -> Option<f64> {
    v.strip_suffix("seconds")?.trim().parse().ok()
}

/// `N ppm`, `N ppm fast|slow` → signed ppm.
fn ppm(v: &str) -> Option<f64> {
    let mut t = v.split_ascii_whitespace();
    let n = crate::common::parse_num(t.next()?)?;
    if t.next()? != "ppm" {
        return None;
    }
    match t.next() {
        None | Some("fast") => Some(n),
        Some("slow") => Some(-n),
        Some(_) => None,
    }
}

/// Is this `chronyc tracking`? `Yes` when the first non-blank line is `Reference ID : …` and
/// `Stratum :` follows; `No` otherwise.
pub fn sniff_tracking(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next().and_then(|(l, _)| chrony_kv(l)) {
        Some(("Reference ID", _)) => {}
        _ => return Sniff::No,
    }
    match lines.next() {
        Some((l, _)) if chrony_kv(l).is_some_and(|(k, _)| k == "Stratum") => Sniff::Yes,
        Some(_) => Sniff::No,
        None => Sniff::Unsure,
    }
}

/// Parses `chronyc tracking`.
///
/// Errors: [`ParseError::Unusable`] without a `Reference ID` line. A value that cannot be read
/// is an issue naming the expected form.
pub fn parse_tracking(text: &str) -> Result<Parsed<Tracking>, ParseError> {
    let mut out = Tracking::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = chrony_kv(line) else {
            issues.push(n, || {
                format!("expected `Key : value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let bad = |issues: &mut Issues, what: &str| {
            issues.push(n, || {
                format!("`{key}`: expected {what}, found `{}`", excerpt(value))
            })
        };
        match key {
            "Reference ID" => {
                let (id, name) = match value.split_once('(') {
                    Some((id, name)) => (id.trim(), name.trim_end_matches(')').trim()),
                    None => (value, ""),
                };
                out.reference_id = (!id.is_empty()).then(|| id.to_string());
                out.reference_name = (!name.is_empty()).then(|| name.to_string());
            }
            "Stratum" => match value.parse() {
                Ok(v) => out.stratum = Some(v),
                Err(_) => bad(&mut issues, "an integer"),
            },
            "Ref time (UTC)" => out.ref_time = Some(value.to_string()),
            "System time" => {
                // `0.000020390 seconds fast of NTP time`
                let mut t = value.split_ascii_whitespace();
                let v = t.next().and_then(crate::common::parse_num);
                let unit = t.next();
                let dir = t.next();
                match (v, unit, dir) {
                    (Some(v), Some("seconds"), Some("fast")) => out.system_time_s = Some(v),
                    (Some(v), Some("seconds"), Some("slow")) => out.system_time_s = Some(-v),
                    _ => bad(&mut issues, "`N seconds fast|slow of NTP time`"),
                }
            }
            "Last offset" | "RMS offset" | "Root delay" | "Root dispersion" | "Update interval" => {
                match seconds(value) {
                    Some(v) => {
                        let slot = match key {
                            "Last offset" => &mut out.last_offset_s,
                            "RMS offset" => &mut out.rms_offset_s,
                            "Root delay" => &mut out.root_delay_s,
                            "Root dispersion" => &mut out.root_dispersion_s,
                            _ => &mut out.update_interval_s,
                        };
                        *slot = Some(v);
                    }
                    None => bad(&mut issues, "`N seconds`"),
                }
            }
            "Frequency" | "Residual freq" | "Skew" => match ppm(value) {
                Some(v) => {
                    let slot = match key {
                        "Frequency" => &mut out.frequency_ppm,
                        "Residual freq" => &mut out.residual_freq_ppm,
                        _ => &mut out.skew_ppm,
                    };
                    *slot = Some(v);
                }
                None => bad(&mut issues, "`N ppm [fast|slow]`"),
            },
            "Leap status" => out.leap_status = Some(value.to_string()),
            // Keys of other chrony versions are kept as fields.
            _ => {}
        }
        out.fields.push(Field {
            key: key.to_string(),
            value: value.to_string(),
            line: n,
        });
    }
    if field(&out.fields, "Reference ID").is_none() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `Reference ID : …` line (expected chronyc tracking output)".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
