//! Clock synchronisation: chrony, ntpd, systemd-timesyncd and VMware Tools.
//!
//! In: the text of `chronyc tracking`, `chronyc sources [-v]`, `ntpq -p[n]`, `timedatectl`,
//! `timedatectl timesync-status` or `vmware-toolbox-cmd timesync status`. Out: one record per
//! output, offsets and delays in seconds (ntpq's in milliseconds, as printed); the `Key: value`
//! outputs also keep every line as a [`Field`].

pub mod chrony_sources;
pub mod chrony_tracking;
pub mod ntpq;
pub mod timedatectl;
pub mod vmware_timesync;

use serde::Serialize;

/// A `Key : value` line kept as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// Key as printed, trimmed (`System time`, `NTP service`).
    pub key: String,
    /// Value as printed, trimmed.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

fn field<'a>(fields: &'a [Field], key: &str) -> Option<&'a Field> {
    fields.iter().find(|f| f.key == key)
}

/// `123ns`, `-91us`, `+7161us`, `30ms`, `2s`, `-5.224ms`, `91us` → seconds.
pub fn duration_seconds(s: &str) -> Option<f64> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ns") {
        (n, 1e9)
    } else if let Some(n) = s.strip_suffix("us") {
        (n, 1e6)
    } else if let Some(n) = s.strip_suffix("µs") {
        (n, 1e6)
    } else if let Some(n) = s.strip_suffix("ms") {
        (n, 1e3)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        return None;
    };
    crate::common::parse_num(num).map(|v| v / scale)
}

/// `35`, `35m`, `2h`, `3d`, `4y` → seconds.
fn age_seconds(s: &str) -> Option<u64> {
    let (num, mult) = match crate::common::split_last(s)? {
        (n, 'm') => (n, 60),
        (n, 'h') => (n, 3600),
        (n, 'd') => (n, 86_400),
        (n, 'y') => (n, 31_536_000),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration_seconds("-91us"), Some(-91e-6));
        assert_eq!(duration_seconds("+7161us"), Some(7161e-6));
        assert_eq!(duration_seconds("30ms"), Some(0.03));
        assert_eq!(duration_seconds("-479ns"), Some(-479e-9));
        assert_eq!(duration_seconds("2s"), Some(2.0));
        assert_eq!(duration_seconds("ms"), None);
        assert_eq!(duration_seconds("12"), None);
    }

    #[test]
    fn ages() {
        assert_eq!(age_seconds("35m"), Some(2100));
        assert_eq!(age_seconds("2h"), Some(7200));
        assert_eq!(age_seconds("3d"), Some(259_200));
        assert_eq!(age_seconds("-"), None);
        assert_eq!(age_seconds("99999999999999999999d"), None);
    }
}
