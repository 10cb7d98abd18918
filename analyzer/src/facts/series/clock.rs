//! The host's clock against the collection window: where a host-clock timestamp falls on the
//! shared time axis.
//!
//! sysstat prints the host's local time of day (with a date when it has one); the manifest
//! records the window in UTC. The host's offset from UTC is taken from the first sample against
//! the window's start, rounded to a quarter hour.

use parsers::common::Date;
use parsers::common::Timestamp;
use serde::Serialize;

/// Maps host-clock timestamps and UTC epoch times onto the axis: seconds from the collection
/// window's start (or from the first sample when the manifest records no window).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Clock {
    /// Host-clock seconds (days since 1970 × 86400 + seconds of day) of axis 0.
    pub origin_local_s: f64,
    /// UTC epoch seconds of axis 0, when the manifest gives the window.
    pub origin_epoch: Option<f64>,
    /// Host clock minus UTC, seconds (a multiple of 900), when known.
    pub utc_offset_s: Option<i64>,
    /// Whether `origin_local_s` carries the real date (from the window or a dated sample);
    /// without it, only the time of day is known and the date part is day 0 (1970-01-01).
    pub dated: bool,
}

impl Clock {
    /// A clock for a window starting at `start` (UTC epoch) whose first host-clock sample is
    /// `first`. Without a window, time 0 is `first`; `None` without either.
    pub fn new(start: Option<f64>, first: Option<Timestamp>) -> Option<Clock> {
        match (start, first) {
            (Some(s), Some(t)) => {
                let sod_utc = s.rem_euclid(86_400.0);
                let offset = match t.date {
                    Some(_) => local_secs(&t, 0) - s,
                    None => {
                        let d = t.seconds_of_day as f64 - sod_utc;
                        (d + 43_200.0).rem_euclid(86_400.0) - 43_200.0
                    }
                };
                let offset = ((offset / 900.0).round() * 900.0) as i64;
                Some(Clock {
                    origin_local_s: s + offset as f64,
                    origin_epoch: Some(s),
                    utc_offset_s: Some(offset),
                    dated: true,
                })
            }
            (Some(s), None) => Some(Clock {
                origin_local_s: s,
                origin_epoch: Some(s),
                utc_offset_s: None,
                dated: true,
            }),
            (None, Some(t)) => Some(Clock {
                origin_local_s: local_secs(&t, 0),
                origin_epoch: None,
                utc_offset_s: None,
                dated: t.date.is_some(),
            }),
            (None, None) => None,
        }
    }

    /// Seconds on the axis of a host-clock timestamp; a time without a date is taken on the
    /// day that puts it nearest to time 0.
    pub fn at(&self, t: &Timestamp) -> f64 {
        match t.date {
            Some(_) => local_secs(t, 0) - self.origin_local_s,
            None => {
                let day = (self.origin_local_s / 86_400.0).floor() as i64;
                let x = local_secs(t, day) - self.origin_local_s;
                (x + 43_200.0).rem_euclid(86_400.0) - 43_200.0
            }
        }
    }

    /// Seconds on the axis of a UTC epoch time (manifest records); `None` without a window.
    pub fn at_epoch(&self, e: f64) -> Option<f64> {
        self.origin_epoch.map(|o| e - o)
    }

    /// Seconds on the axis of a series' timestamps, kept increasing across midnight when the
    /// timestamps carry no date; `None` where a sample has no time.
    pub fn map_times(&self, times: impl Iterator<Item = Option<Timestamp>>) -> Vec<Option<f64>> {
        let mut out = Vec::new();
        let mut prev: Option<f64> = None;
        let mut shift = 0.0;
        for t in times {
            let Some(t) = t else {
                out.push(None);
                continue;
            };
            let mut x = self.at(&t) + shift;
            if t.date.is_none() {
                if let Some(p) = prev {
                    if x < p - 43_200.0 {
                        shift += 86_400.0;
                        x += 86_400.0;
                    }
                }
            }
            prev = Some(x);
            out.push(Some(x));
        }
        out
    }

    /// `HH:MM:SS` in the host's clock of an axis time.
    pub fn label(&self, x: f64) -> String {
        let s = (self.origin_local_s + x).round() as i64;
        let s = s.rem_euclid(86_400);
        format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    }

    /// `YYYY-MM-DD` in the host's clock of an axis time, when the clock is dated.
    pub fn date(&self, x: f64) -> Option<String> {
        self.dated.then(|| {
            let s = (self.origin_local_s + x).round() as i64;
            let d = Date::from_days_since_epoch(s.div_euclid(86_400));
            format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
        })
    }

    /// UTC epoch seconds of an axis time, when the collection window is known.
    pub fn epoch(&self, x: f64) -> Option<f64> {
        self.origin_epoch.map(|o| o + x)
    }

    /// Which clock the labels read: `host clock, UTC+01:00`, `UTC (host clock)`, `UTC`.
    pub fn describe(&self) -> String {
        match self.utc_offset_s {
            Some(0) => "UTC (host clock)".into(),
            Some(o) => {
                let sign = if o < 0 { '−' } else { '+' };
                let a = o.abs();
                format!("host clock, UTC{sign}{:02}:{:02}", a / 3600, (a / 60) % 60)
            }
            None if self.origin_epoch.is_some() => "UTC".into(),
            None => "host clock (no collection window recorded)".into(),
        }
    }
}

/// Host-clock seconds of a timestamp: its date (else `day`, days since 1970) × 86400 + time.
fn local_secs(t: &Timestamp, day: i64) -> f64 {
    let d = t.date.map(Date::days_since_epoch).unwrap_or(day);
    (d * 86_400) as f64 + t.seconds_of_day as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(h: u32, m: u32, s: u32) -> Option<Timestamp> {
        Some(Timestamp {
            date: None,
            seconds_of_day: h * 3600 + m * 60 + s,
        })
    }

    #[test]
    fn host_offset_comes_from_the_first_sample_against_the_window() {
        // Window starts 10:00:00 UTC; the host prints 12:00:01 (UTC+2).
        let start = 20_000.0 * 86_400.0 + 36_000.0;
        let c = Clock::new(Some(start), ts(12, 0, 1)).unwrap();
        assert_eq!(c.utc_offset_s, Some(7200));
        assert_eq!(c.at(&ts(12, 0, 30).unwrap()), 30.0);
        assert_eq!(c.label(30.0), "12:00:30");
        assert_eq!(c.describe(), "host clock, UTC+02:00");
        assert_eq!(c.date(30.0).as_deref(), Some("2024-10-04"));
        assert_eq!(c.date(12.0 * 3600.0).as_deref(), Some("2024-10-05"));
        assert_eq!(c.epoch(30.0), Some(start + 30.0));
        // Across midnight without dates, times keep increasing.
        let c = Clock::new(None, ts(23, 59, 58)).unwrap();
        assert_eq!(c.date(0.0), None, "a time of day alone has no date");
        let t = c.map_times([ts(23, 59, 58), ts(23, 59, 59), ts(0, 0, 0), ts(0, 0, 1)].into_iter());
        assert_eq!(t, vec![Some(0.0), Some(1.0), Some(2.0), Some(3.0)]);
    }
}
