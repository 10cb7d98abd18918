//! Syslog-format logs: `journalctl` (with or without `-k`), `/var/log/messages`,
//! `/var/log/kern.log`, `/var/log/syslog`.
//!
//! One line per message: a time, the host, the program (`kernel`, `systemd[1]`) and the message.
//! The shapes read, each seen in real output (`parsers/tests/fixtures/syslog/PROVENANCE.md`):
//!
//! - RFC 3164 (rsyslog's default file format on RHEL 7/8/9 and SUSE, Ubuntu's `kern.log`;
//!   `journalctl`'s default `-o short`), no year and no zone; the day space-padded by rsyslog
//!   (`Jun  8`), zero-padded by journalctl (`Feb 09`); journalctl `-o short-precise` adds
//!   microseconds (`Feb 09 22:38:11.123456`):
//!   ```text
//!   Feb 11 19:23:37 juju-110cc2-k8stest-4 kernel: [ 1530.811848] blk_update_request: I/O error, dev loop11, sector 0 op 0x1:(WRITE) flags 0x800 phys_seg 0 prio class 0
//!   Feb 09 22:38:11 compute4 kernel: Linux version 5.4.0-97-generic (buildd@lcy02-amd64-032) …
//!   May 18 15:13:36 lxc-rhel68-sat56 wrapper[11375]: Launching a JVM...
//!   ```
//! - RFC 3339 (rsyslog's `RSYSLOG_FileFormat`, high-precision; `journalctl -o short-iso`
//!   prints `+0000` without a colon, `-o short-iso-precise` adds microseconds), optionally after a
//!   `<N>` priority:
//!   ```text
//!   <6>2024-04-17T00:26:33.540821+05:30 host-name kernel: [   29.751657] i40e 0000:5d:00.0 eth5: Changing Rx descriptor count from 512 to 4096
//!   ```
//! - `journalctl -o short-monotonic`: seconds since boot instead of a time of day
//!   (`[    8.687252] host kernel: …`).
//!
//! `journalctl` also prints markers: `-- Logs begin at Fri 2022-02-04 09:34:04 UTC, end at Thu
//! 2022-02-10 16:19:19 UTC. --` (systemd < 248; later `-- Journal begins at …, ends at … --`),
//! `-- Boot 90e9d5de… --` and `-- Reboot --` between boots, `-- No entries --`. The date in the
//! first kind dates the year-less lines; the boot markers number the boots. A kernel message
//! that rsyslog wrote with the kernel's own `[seconds]` stamp (Ubuntu, SUSE) keeps it as
//! [`SyslogLine::kernel_stamp`]. Lines that start with blanks continue the message above
//! (multi-line kernel reports) and are skipped; other lines of no known shape are issues.

use crate::common::{
    head_lines, numbered_lines, strip_bom, Date, LineIssue, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A time as a syslog line prints it: a date without a year (RFC 3164) or with one and a zone
/// (RFC 3339).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SyslogTime {
    /// Year, when the line prints one (RFC 3339); RFC 3164 lines have none.
    pub year: Option<i32>,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
    /// Seconds since midnight, with the fraction the line prints (`.123456`).
    pub seconds_of_day: f64,
    /// Offset from UTC in seconds (`+05:30` → 19800), when the line prints one.
    pub utc_offset_s: Option<i32>,
}

/// One message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyslogLine {
    /// Time of day and date; `None` for `journalctl -o short-monotonic` lines.
    pub time: Option<SyslogTime>,
    /// Seconds since boot, `journalctl -o short-monotonic`.
    pub monotonic: Option<f64>,
    /// Severity from a `<N>` priority prefix (rsyslog templates that print `%PRI%`): 0 emergency …
    /// 7 debug, facility bits removed.
    pub level: Option<u8>,
    /// Host name as logged.
    pub host: String,
    /// The program (`kernel`, `systemd`, `jabberd/sm`); empty when the line names none.
    pub ident: String,
    /// Process id from `ident[pid]`.
    pub pid: Option<u32>,
    /// The kernel's own `[seconds.micros]` stamp at the start of a kernel message, seconds since
    /// boot.
    pub kernel_stamp: Option<f64>,
    /// The message after the program (and after the kernel's stamp).
    pub message: String,
    /// Which boot, counted from 0 at the top of the file, by `journalctl`'s `-- Boot … --` and
    /// `-- Reboot --` markers (always 0 in syslog files).
    pub boot: usize,
    /// 1-based input line.
    pub line: usize,
}

impl SyslogLine {
    /// Is this the kernel's line (`kernel:`)?
    pub fn is_kernel(&self) -> bool {
        self.ident == "kernel"
    }
}

/// A parsed syslog-format log.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Syslog {
    /// Messages in input order.
    pub lines: Vec<SyslogLine>,
    /// The last date `journalctl`'s `-- Logs begin at …, end at … --` header names: the year of
    /// the year-less lines.
    pub header_date: Option<Date>,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `HH:MM:SS[.ffffff]` → seconds since midnight.
fn clock(s: &str) -> Option<f64> {
    let (hms, frac) = match s.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let mut p = hms.split(':');
    let (h, m, sec) = (p.next()?, p.next()?, p.next()?);
    if p.next().is_some() || h.len() != 2 || m.len() != 2 || sec.len() != 2 {
        return None;
    }
    let (h, m, sec) = (digits(h)?, digits(m)?, digits(sec)?);
    if h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let f = match frac {
        Some(f) => format!("0.{f}")
            .parse::<f64>()
            .ok()
            .filter(|_| digits(f).is_some())?,
        None => 0.0,
    };
    Some(f64::from(h * 3600 + m * 60 + sec) + f)
}

/// `Feb 11 18:58:28 rest` or `Jun  8 10:48:13.123456 rest`.
fn rfc3164(s: &str) -> Option<(SyslogTime, &str)> {
    let month = MONTHS.iter().position(|m| s.starts_with(m))? as u32 + 1;
    let rest = s.get(3..)?.strip_prefix(' ')?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let (day, rest) = rest.split_once(' ')?;
    let day = digits(day).filter(|d| (1..=31).contains(d) && day.len() <= 2)?;
    let (t, rest) = rest.split_once(' ')?;
    let seconds_of_day = clock(t)?;
    Some((
        SyslogTime {
            year: None,
            month,
            day,
            seconds_of_day,
            utc_offset_s: None,
        },
        rest,
    ))
}

/// `2026-11-30T01:09:57.123456+00:00 rest` (also `+0000` and `Z`).
fn rfc3339(s: &str) -> Option<(SyslogTime, &str)> {
    let (stamp, rest) = s.split_once(' ')?;
    let (date, time) = stamp.split_once('T')?;
    let mut d = date.split('-');
    let (y, mo, da) = (d.next()?, d.next()?, d.next()?);
    if d.next().is_some() || y.len() != 4 || mo.len() != 2 || da.len() != 2 {
        return None;
    }
    let (year, month, day) = (digits(y)? as i32, digits(mo)?, digits(da)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock_part, offset) = if let Some(t) = time.strip_suffix('Z') {
        (t, Some(0))
    } else {
        let at = time.rfind(['+', '-'])?;
        let (t, z) = time.split_at(at);
        let sign = if z.starts_with('-') { -1 } else { 1 };
        let z = z.get(1..)?.replace(':', "");
        if z.len() != 4 || !z.is_ascii() {
            return None;
        }
        let (hh, mm) = z.split_at_checked(2)?;
        let (hh, mm) = (digits(hh)?, digits(mm)?);
        (t, Some(sign * (hh * 3600 + mm * 60) as i32))
    };
    Some((
        SyslogTime {
            year: Some(year),
            month,
            day,
            seconds_of_day: clock(clock_part)?,
            utc_offset_s: offset,
        },
        rest,
    ))
}

/// `[    8.687252] rest` → seconds.
fn bracket_stamp(s: &str) -> Option<(f64, &str)> {
    let (inner, rest) = s.strip_prefix('[')?.split_once(']')?;
    let t = inner.trim_start();
    let (a, b) = t.split_once('.')?;
    if a.is_empty() || a.len() > 12 || !a.bytes().all(|c| c.is_ascii_digit()) || digits(b).is_none()
    {
        return None;
    }
    Some((t.parse().ok()?, rest))
}

/// `<6>` → level.
fn priority(s: &str) -> Option<(u8, &str)> {
    let (n, rest) = s.strip_prefix('<')?.split_once('>')?;
    (n.len() <= 3).then_some(())?;
    Some(((digits(n)? & 7) as u8, rest))
}

/// A program and its pid: `systemd[1]` → (`systemd`, `Some(1)`).
type Ident<'a> = (&'a str, Option<u32>);

/// `host ident[pid]: message` → (host, ident, message); the ident is `None` when the second
/// word is not one.
fn host_ident(s: &str) -> Option<(&str, Option<Ident<'_>>, &str)> {
    let (host, rest) = s.split_once(' ')?;
    // A host name or address (RFC 1123 letters, digits, `-`, `.`; `_` as some sites use it):
    // not a separator such as multipath's `Feb 10 16:19:25 | bcache0: …`.
    if !host.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
    {
        return None;
    }
    let ident = rest.split_once(' ').map_or(rest, |(w, _)| w);
    let Some(tag) = ident.strip_suffix(':') else {
        return Some((host, None, rest));
    };
    let (name, pid) = match tag.strip_suffix(']').and_then(|t| t.split_once('[')) {
        Some((n, p)) => (n, Some(digits(p)?)),
        None => (tag, None),
    };
    if name.is_empty() || name.contains([':', '[', ']']) {
        return Some((host, None, rest));
    }
    let msg = rest.strip_prefix(ident)?;
    Some((
        host,
        Some((name, pid)),
        msg.strip_prefix(' ').unwrap_or(msg),
    ))
}

/// One syslog line, or `None` when it is of no known shape.
fn syslog_line(line: &str, n: usize, boot: usize) -> Option<SyslogLine> {
    let (level, rest) = match priority(line) {
        Some((l, r)) => (Some(l), r),
        None => (None, line),
    };
    let (time, monotonic, rest) = if let Some((t, r)) = rfc3164(rest) {
        (Some(t), None, r)
    } else if let Some((t, r)) = rfc3339(rest) {
        (Some(t), None, r)
    } else {
        let (m, r) = bracket_stamp(rest)?;
        (None, Some(m), r.strip_prefix(' ')?)
    };
    let (host, ident, msg) = host_ident(rest)?;
    // A short-monotonic line without a program is a `dmesg` line, not this format.
    if monotonic.is_some() && ident.is_none() {
        return None;
    }
    let (ident, pid) = ident.unwrap_or(("", None));
    let (kernel_stamp, msg) = match (ident == "kernel").then(|| bracket_stamp(msg)).flatten() {
        Some((t, r)) => (Some(t), r.strip_prefix(' ').unwrap_or(r)),
        None => (None, msg),
    };
    Some(SyslogLine {
        time,
        monotonic,
        level,
        host: host.to_string(),
        ident: ident.to_string(),
        pid,
        kernel_stamp,
        message: msg.to_string(),
        boot,
        line: n,
    })
}

/// A `journalctl` marker line (`-- Boot … --`, `-- Logs begin at … --`, `-- No entries --`).
fn marker(line: &str) -> Option<&str> {
    line.strip_prefix("-- ")?.strip_suffix(" --")
}

/// The last `YYYY-MM-DD` in a marker.
fn marker_date(m: &str) -> Option<Date> {
    m.split([' ', ',', '.'])
        .filter_map(|w| {
            let mut p = w.split('-');
            let (y, mo, d) = (p.next()?, p.next()?, p.next()?);
            (p.next().is_none() && y.len() == 4 && mo.len() == 2 && d.len() == 2).then_some(())?;
            Some(Date {
                year: digits(y)? as i32,
                month: digits(mo).filter(|m| (1..=12).contains(m))?,
                day: digits(d).filter(|d| (1..=31).contains(d))?,
            })
        })
        .next_back()
}

/// A line of the full shape: time, host and a program (`ident:` or `ident[pid]:`).
fn full_shape(line: &str) -> bool {
    syslog_line(line, 0, 0).is_some_and(|l| !l.ident.is_empty())
}

/// Is this a syslog-format log? `Yes` when, past `journalctl`'s `-- … --` markers, the first
/// line is of the full shape (a time, a host, a program and a colon), and the head holds at
/// least two complete lines of that shape, at least half of its complete lines that do not
/// start with a blank; `No` otherwise. A `dmesg` (no host, no program) or an application log (a
/// time and a level) has no such lines.
pub fn sniff(head: &str) -> Sniff {
    let (mut with, mut without) = (0usize, 0usize);
    for (l, complete) in head_lines(head) {
        if !complete || l.trim().is_empty() || l.starts_with("--") || l.starts_with([' ', '\t']) {
            continue;
        }
        // The first line says what the file is: `systemctl status` prints its journal lines
        // under the unit's state.
        if with + without == 0 && !full_shape(l) {
            return Sniff::No;
        }
        if full_shape(l) {
            with += 1;
        } else {
            without += 1;
        }
    }
    if with >= 2 && with >= without {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses a syslog-format log.
///
/// Errors: [`ParseError::Unusable`] when no line is of the shape and no `journalctl` marker
/// (`-- No entries --`) says the log is empty.
pub fn parse(text: &str) -> Result<Parsed<Syslog>, ParseError> {
    let mut out = Syslog::default();
    let mut issues = Vec::new();
    let mut boot = 0usize;
    let mut seen_line = false;
    let mut journal = false;
    for (n, l) in numbered_lines(strip_bom(text)) {
        if l.trim().is_empty() || l.starts_with([' ', '\t']) {
            continue;
        }
        if let Some(m) = marker(l) {
            journal = true;
            if m.starts_with("Logs begin at") || m.starts_with("Journal begins at") {
                out.header_date = marker_date(m).or(out.header_date);
            } else if (m.starts_with("Boot ") || m == "Reboot") && seen_line {
                boot += 1;
            }
            continue;
        }
        // `journalctl --catalog` explains some messages in `-- `-prefixed lines.
        if l.starts_with("-- ") || l == "--" {
            continue;
        }
        match syslog_line(l, n, boot) {
            Some(s) => {
                seen_line = true;
                out.lines.push(s);
            }
            None => issues.push(LineIssue::new(n, "not a syslog line (time, host, program)")),
        }
    }
    // `-- No entries --` (or a header and nothing else) is journalctl's answer of no message.
    if out.lines.is_empty() && !journal {
        return Err(ParseError::unusable(
            None,
            "no syslog line (time, host, program: message)",
        ));
    }
    Ok(Parsed { value: out, issues })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERN_LOG: &str = include_str!("../../tests/fixtures/syslog/hotsos__kern.log-ubuntu2004");
    const JOURNAL: &str =
        include_str!("../../tests/fixtures/syslog/hotsos__journalctl_--no-pager_--catalog_--boot");
    const RFC3339: &str = include_str!("../../tests/fixtures/syslog/hotsos__kern.log-rfc3339-pri");
    const MESSAGES: &str =
        include_str!("../../tests/fixtures/syslog/insights-core__journalctl-all");

    #[test]
    fn reads_ubuntu_kern_log_with_the_kernel_stamp() {
        let p = parse(KERN_LOG).unwrap();
        let io = p
            .value
            .lines
            .iter()
            .find(|l| l.message.starts_with("blk_update_request: I/O error"))
            .unwrap();
        assert_eq!(io.host, "juju-110cc2-k8stest-4");
        assert!(io.is_kernel());
        assert_eq!(io.kernel_stamp, Some(1530.811848));
        let t = io.time.unwrap();
        assert_eq!((t.year, t.month, t.day), (None, 2, 11));
        assert_eq!(t.seconds_of_day, f64::from(19 * 3600 + 23 * 60 + 37));
        assert_eq!(sniff(KERN_LOG), Sniff::Yes);
    }

    #[test]
    fn reads_journalctl_with_its_header_year_and_other_programs() {
        let p = parse(JOURNAL).unwrap();
        assert_eq!(
            p.value.header_date,
            Some(Date {
                year: 2022,
                month: 2,
                day: 10
            })
        );
        let first = &p.value.lines[0];
        assert_eq!((first.ident.as_str(), first.kernel_stamp), ("kernel", None));
        assert!(first.message.starts_with("Linux version 5.4.0-97-generic"));
        assert!(p
            .value
            .lines
            .iter()
            .any(|l| l.ident == "systemd" && l.pid == Some(1)));
        assert_eq!(sniff(JOURNAL), Sniff::Yes);
    }

    #[test]
    fn reads_rfc3339_lines_with_a_priority() {
        let p = parse(RFC3339).unwrap();
        let l = &p.value.lines[0];
        assert_eq!(l.level, Some(6));
        let t = l.time.unwrap();
        assert_eq!(
            (t.year, t.month, t.day, t.utc_offset_s),
            (Some(2024), 4, 17, Some(19800))
        );
        assert!((t.seconds_of_day - (26.0 * 60.0 + 33.540821)).abs() < 1e-6);
        assert_eq!(l.kernel_stamp, Some(29.751657));
        assert!(p.issues.is_empty());
    }

    #[test]
    fn reads_messages_lines_of_daemons() {
        let p = parse(MESSAGES).unwrap();
        let l = &p.value.lines[1];
        assert_eq!(
            (l.host.as_str(), l.ident.as_str(), l.pid),
            ("lxc-rhel68-sat56", "wrapper", Some(11375))
        );
        assert_eq!(l.message, "--> Wrapper Started as Daemon");
    }

    #[test]
    fn reads_short_iso_and_monotonic_and_counts_boots() {
        let text = "-- Logs begin at Fri 2022-02-04 09:34:04 UTC, end at Thu 2022-02-10 16:19:19 UTC. --\n\
                    2022-02-09T22:38:11+0000 compute4 kernel: Linux version 5.4.0-97-generic\n\
                    -- Boot 90e9d5de6b2143fa93fd5dba0a409c69 --\n\
                    [    8.687252] compute4 kernel: e1000e: eth0 NIC Link is Up\n";
        let p = parse(text).unwrap();
        assert_eq!(p.value.lines[0].time.unwrap().utc_offset_s, Some(0));
        assert_eq!(
            (p.value.lines[1].monotonic, p.value.lines[1].boot),
            (Some(8.687252), 1)
        );
    }

    #[test]
    fn dmesg_and_garbage_are_not_syslog() {
        assert_eq!(
            sniff("[    0.000000] Linux version 5.4\n[    0.000000] ACPI Error: x\n[    1.0] RAS: y\n"),
            Sniff::No
        );
        assert!(parse("hello\nworld\n").is_err());
        assert!(parse("-- No entries --\n").unwrap().value.lines.is_empty());
    }
}
