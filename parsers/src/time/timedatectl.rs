//! `timedatectl` and `timedatectl timesync-status` (systemd).
//!
//! `timedatectl` (systemd 219 prints `NTP enabled` / `NTP synchronized`; 237+ `System clock
//! synchronized` and `NTP service` or `systemd-timesyncd.service active`):
//! ```text
//!                Local time: Fri 2022-02-11 19:24:03 UTC
//!            Universal time: Fri 2022-02-11 19:24:03 UTC
//!                  RTC time: Fri 2022-02-11 19:24:04
//!                 Time zone: Etc/UTC (UTC, +0000)
//! System clock synchronized: yes
//!               NTP service: active
//!           RTC in local TZ: no
//! ```
//! `timedatectl timesync-status` (systemd 239+, systemd-timesyncd's view of its server):
//! ```text
//!        Server: 203.0.113.10 (time.google.com)
//! Poll interval: 8min 32s (min: 32s; max 34min 8s)
//!          Leap: normal
//!       Version: 4
//!       Stratum: 1
//!     Reference: GOOG
//!     Precision: 1us (-20)
//! Root distance: 91us (max: 5s)
//!        Offset: -5.224ms
//!         Delay: 65.884ms
//!        Jitter: 5.386ms
//!  Packet count: 5
//!     Frequency: +27.071ppm
//! ```

use super::{duration_seconds, field, Field};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Parsed `timedatectl` (status).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Timedatectl {
    /// `Local time` as printed.
    pub local_time: Option<String>,
    /// `Universal time` as printed.
    pub universal_time: Option<String>,
    /// `RTC time` as printed.
    pub rtc_time: Option<String>,
    /// `Time zone` as printed (`America/New_York (EST, -0500)`).
    pub time_zone: Option<String>,
    /// Whether the system clock is synchronised: `System clock synchronized` (systemd 237+) or
    /// `NTP synchronized` (systemd 219).
    pub synchronized: Option<bool>,
    /// Whether an NTP service is enabled and running: `NTP service: active` (systemd 239+),
    /// `systemd-timesyncd.service active` (237) or `NTP enabled` (219). `None` when `n/a` or
    /// not printed.
    pub ntp_service_active: Option<bool>,
    /// `RTC in local TZ`.
    pub rtc_in_local_tz: Option<bool>,
    /// `DST active` (systemd 219).
    pub dst_active: Option<bool>,
    /// `Last DST change` with its continuation lines joined by spaces.
    pub last_dst_change: Option<String>,
    /// `Next DST change` with its continuation lines joined by spaces.
    pub next_dst_change: Option<String>,
    /// `Warning:` blocks, each joined into one string.
    pub warnings: Vec<(usize, String)>,
    /// Every `Key: value` line (continuations joined), in input order.
    pub fields: Vec<Field>,
}

impl Timedatectl {
    /// Line of a key (`NTP service`), for evidence.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        field(&self.fields, key).map(|f| f.line)
    }
}

fn yes_no(v: &str) -> Option<bool> {
    match v {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// `Key: value` of timedatectl (right-aligned keys).
fn timedatectl_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line
        .split_once(": ")
        .or_else(|| line.trim_end().strip_suffix(':').map(|k| (k, "")))?;
    let k = k.trim();
    (!k.is_empty() && k.len() <= 40).then_some((k, v.trim()))
}

/// Is this `timedatectl` output? `Yes` when the first non-blank line is `Local time: …`; `No`
/// otherwise.
pub fn sniff_timedatectl(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if timedatectl_kv(l).is_some_and(|(k, _)| k == "Local time") => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `timedatectl` (status).
///
/// Errors: [`ParseError::Unusable`] without a `Local time` line, with systemd's message when
/// the capture holds one (`System has not been booted with systemd as init system (PID 1).
/// Can't operate.`).
pub fn parse_timedatectl(text: &str) -> Result<Parsed<Timedatectl>, ParseError> {
    let mut out = Timedatectl::default();
    let mut issues = Issues::default();
    // Whether the last field may take continuation lines (DST blocks), or a warning.
    #[derive(PartialEq)]
    enum Cont {
        None,
        Field,
        Warning,
    }
    let mut cont = Cont::None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            cont = Cont::None;
            continue;
        }
        if let Some(w) = t.strip_prefix("Warning:") {
            out.warnings.push((n, w.trim().to_string()));
            cont = Cont::Warning;
            continue;
        }
        let kv = timedatectl_kv(line).filter(|(k, _)| !k.contains("  "));
        let continuation =
            line.starts_with(' ') && (kv.is_none() || cont == Cont::Warning) && cont != Cont::None;
        if continuation {
            let target = match cont {
                Cont::Warning => out.warnings.last_mut().map(|(_, w)| w),
                _ => out.fields.last_mut().map(|f| &mut f.value),
            };
            if let Some(v) = target {
                if !v.is_empty() {
                    v.push(' ');
                }
                v.push_str(t);
            }
            continue;
        }
        let Some((key, value)) = kv else {
            issues.push(n, || {
                format!("expected `Key: value`, found `{}`", excerpt(t))
            });
            cont = Cont::None;
            continue;
        };
        cont = if key.ends_with("DST change") {
            Cont::Field
        } else {
            Cont::None
        };
        out.fields.push(Field {
            key: key.to_string(),
            value: value.to_string(),
            line: n,
        });
    }
    for f in &out.fields {
        let v = f.value.as_str();
        let s = || Some(v.to_string());
        match f.key.as_str() {
            "Local time" => out.local_time = s(),
            "Universal time" => out.universal_time = s(),
            "RTC time" => out.rtc_time = s(),
            "Time zone" => out.time_zone = s(),
            "System clock synchronized" | "NTP synchronized" => out.synchronized = yes_no(v),
            "NTP service" => {
                out.ntp_service_active = match v {
                    "active" => Some(true),
                    "inactive" => Some(false),
                    _ => None,
                }
            }
            "NTP enabled" | "systemd-timesyncd.service active" | "Network time on" => {
                out.ntp_service_active = yes_no(v)
            }
            "RTC in local TZ" => out.rtc_in_local_tz = yes_no(v),
            "DST active" => out.dst_active = yes_no(v),
            "Last DST change" => out.last_dst_change = s(),
            "Next DST change" => out.next_dst_change = s(),
            _ => {}
        }
    }
    if out.local_time.is_none() {
        let msg = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|l| format!("no `Local time:` line; the capture says `{}`", excerpt(l)))
            .unwrap_or_else(|| "input is empty".to_string());
        return Err(ParseError::unusable(None, msg));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Parsed `timedatectl timesync-status` (systemd-timesyncd).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TimesyncStatus {
    /// `Server` as printed (`203.0.113.10 (time.google.com)`).
    pub server: Option<String>,
    /// `Stratum`.
    pub stratum: Option<u32>,
    /// `Leap` (`normal`).
    pub leap: Option<String>,
    /// `Offset`, seconds.
    pub offset_s: Option<f64>,
    /// `Delay`, seconds.
    pub delay_s: Option<f64>,
    /// `Jitter`, seconds.
    pub jitter_s: Option<f64>,
    /// `Frequency`, ppm.
    pub frequency_ppm: Option<f64>,
    /// Every `Key: value` line.
    pub fields: Vec<Field>,
}

impl TimesyncStatus {
    /// A field's value by key (`Reference`, `Precision`).
    pub fn get(&self, key: &str) -> Option<&str> {
        field(&self.fields, key).map(|f| f.value.as_str())
    }
}

/// Is this `timedatectl timesync-status`? `Yes` when the first non-blank line is `Server: …`
/// and `Poll interval:` follows; `No` otherwise.
pub fn sniff_timesync_status(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next().and_then(|(l, _)| timedatectl_kv(l)) {
        Some(("Server", _)) => {}
        _ => return Sniff::No,
    }
    match lines.next().and_then(|(l, _)| timedatectl_kv(l)) {
        Some(("Poll interval", _)) => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `timedatectl timesync-status`. Errors: [`ParseError::Unusable`] without `Server:`.
pub fn parse_timesync_status(text: &str) -> Result<Parsed<TimesyncStatus>, ParseError> {
    let mut out = TimesyncStatus::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = timedatectl_kv(line) else {
            issues.push(n, || {
                format!("expected `Key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let dur = |issues: &mut Issues| {
            let d = duration_seconds(value);
            if d.is_none() {
                issues.push(n, || {
                    format!(
                        "`{key}`: expected a duration such as `-5.224ms`, found `{}`",
                        excerpt(value)
                    )
                });
            }
            d
        };
        match key {
            "Server" => out.server = Some(value.to_string()),
            "Stratum" => out.stratum = value.parse().ok(),
            "Leap" => out.leap = Some(value.to_string()),
            "Offset" => out.offset_s = dur(&mut issues),
            "Delay" => out.delay_s = dur(&mut issues),
            "Jitter" => out.jitter_s = dur(&mut issues),
            "Frequency" => {
                out.frequency_ppm = value
                    .strip_suffix("ppm")
                    .and_then(|v| v.trim().parse().ok())
            }
            _ => {}
        }
        out.fields.push(Field {
            key: key.to_string(),
            value: value.to_string(),
            line: n,
        });
    }
    if out.server.is_none() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `Server:` line (expected timedatectl timesync-status output)"
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
