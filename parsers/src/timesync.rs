//! Time synchronisation: `chronyc tracking`, `chronyc sources [-v]`, `ntpq -p[n]`,
//! `timedatectl`, `timedatectl timesync-status` and `vmware-toolbox-cmd timesync status`.
//!
//! `chronyc tracking` (chrony 2.x–4.x; chrony 3+ prints the Reference ID in hex with the name
//! in parentheses, chrony 2 a dotted quad):
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
//!
//! `chronyc sources` (optionally after the `-v` legend; chrony 2/3 print `210 Number of sources
//! = N` first):
//! ```text
//! MS Name/IP address         Stratum Poll Reach LastRx Last sample
//! ===============================================================================
//! ^* 10.64.108.95                  2  10   377   371    -91us[ -128us] +/-   30ms
//! ```
//! `Last sample` is the adjusted offset, the measured offset in brackets and the estimated
//! error; offsets carry `ns`, `us`, `ms` or `s`, and are stored in seconds.
//!
//! `ntpq -pn` (ntp 4.2.x, ntpsec):
//! ```text
//!      remote           refid      st t when poll reach   delay   offset  jitter
//! ==============================================================================
//! *192.0.2.10      198.51.100.100   2 u   63   64  377   22.654    0.231   1.964
//!  0.ubuntu.pool.n .POOL.          16 p    -   64    0    0.000    0.000   0.000
//! ```
//! The first character is the tally code (`*` system peer, `+` candidate, `-` outlier, `x`
//! falseticker, `.` excess, `#` backup, `o` PPS peer, space: rejected); `when` may be `-` or
//! carry `m`/`h`/`d`; delay, offset and jitter are milliseconds. A remote too long for its
//! column is printed alone on its line and the numbers follow on the next line.
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

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
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
    let v: f64 = num.trim().parse().ok()?;
    v.is_finite().then_some(v / scale)
}

// ---------------------------------------------------------------------------------------------
// chronyc tracking

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
    let n: f64 = t.next()?.parse().ok()?;
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
                let v = t.next().and_then(|x| x.parse::<f64>().ok());
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

// ---------------------------------------------------------------------------------------------
// chronyc sources

/// One row of `chronyc sources`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// Mode: `^` server, `=` peer, `#` local reference clock.
    pub mode: char,
    /// State: `*` selected, `+` combined, `-` not combined, `?` unusable, `x` may be in error,
    /// `~` too variable.
    pub state: char,
    /// Name or address (`10.64.108.95`, `GPS0`).
    pub name: String,
    /// Stratum.
    pub stratum: u32,
    /// Polling interval as log2 seconds (may be negative).
    pub poll: i32,
    /// Reachability register as printed, octal (`377`).
    pub reach: String,
    /// `LastRx` as printed (`371`, `35m`, `-`).
    pub last_rx: String,
    /// `LastRx` in seconds; `None` for `-`.
    pub last_rx_s: Option<u64>,
    /// Adjusted offset (before the brackets), seconds.
    pub offset_s: Option<f64>,
    /// Measured offset (in the brackets), seconds.
    pub measured_offset_s: Option<f64>,
    /// Estimated error (after `+/-`), seconds.
    pub error_s: Option<f64>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `chronyc sources`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Sources {
    /// `210 Number of sources = N` (chrony 2/3), when printed.
    pub declared: Option<u32>,
    /// Rows in input order.
    pub sources: Vec<Source>,
}

impl Sources {
    /// The selected source (`*`).
    pub fn selected(&self) -> Option<&Source> {
        self.sources.iter().find(|s| s.state == '*')
    }
}

/// `35`, `35m`, `2h`, `3d`, `4y` → seconds.
fn age_seconds(s: &str) -> Option<u64> {
    let (num, mult) = match s.as_bytes().last()? {
        b'm' => (&s[..s.len() - 1], 60),
        b'h' => (&s[..s.len() - 1], 3600),
        b'd' => (&s[..s.len() - 1], 86_400),
        b'y' => (&s[..s.len() - 1], 31_536_000),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

fn is_sources_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("MS Name/IP address") && t.contains("Stratum")
}

/// One chronyc sources row.
fn source_row(line: &str, n: usize) -> Result<Source, String> {
    let expected = "expected `MS Name Stratum Poll Reach LastRx Last sample`";
    let mut chars = line.chars();
    let (Some(mode), Some(state)) = (chars.next(), chars.next()) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    if !"^=#".contains(mode) || !"*+-?x~ ".contains(state) {
        return Err(format!(
            "{expected}: `{}` is not a mode and state",
            excerpt(&line[..line.len().min(2)])
        ));
    }
    let rest = &line[mode.len_utf8() + state.len_utf8()..];
    let mut toks = rest.split_ascii_whitespace();
    let (Some(name), Some(stratum), Some(poll), Some(reach), Some(last_rx)) = (
        toks.next(),
        toks.next(),
        toks.next(),
        toks.next(),
        toks.next(),
    ) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let stratum = stratum
        .parse()
        .map_err(|_| format!("{expected}: stratum `{}` is not a number", excerpt(stratum)))?;
    let poll = poll
        .parse()
        .map_err(|_| format!("{expected}: poll `{}` is not a number", excerpt(poll)))?;
    if reach.is_empty() || !reach.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(format!(
            "{expected}: reach `{}` is not octal",
            excerpt(reach)
        ));
    }
    // The sample: `-91us[ -128us] +/-   30ms` (spaces inside the brackets vary).
    let sample: String = toks.collect::<Vec<_>>().join(" ");
    let (offset, after) = sample
        .split_once('[')
        .ok_or_else(|| format!("{expected}: no `[measured]` in `{}`", excerpt(&sample)))?;
    let (measured, after) = after
        .split_once(']')
        .ok_or_else(|| format!("{expected}: unclosed `[` in `{}`", excerpt(&sample)))?;
    let error = after.trim().strip_prefix("+/-").map(str::trim);
    let dur = |s: &str, what: &str| {
        duration_seconds(s).ok_or_else(|| {
            format!(
                "{expected}: {what} `{}` is not a duration with ns/us/ms/s",
                excerpt(s)
            )
        })
    };
    Ok(Source {
        mode,
        state,
        name: name.to_string(),
        stratum,
        poll,
        reach: reach.to_string(),
        last_rx: last_rx.to_string(),
        last_rx_s: age_seconds(last_rx),
        offset_s: Some(dur(offset, "offset")?),
        measured_offset_s: Some(dur(measured, "measured offset")?),
        error_s: match error {
            Some(e) => Some(dur(e, "error")?),
            None => None,
        },
        line: n,
    })
}

/// Is this `chronyc sources`? `Yes` when the head has the `MS Name/IP address … Stratum`
/// header (after an optional `210 Number of sources` line and `-v` legend); `No` otherwise.
pub fn sniff_sources(head: &str) -> Sniff {
    for (line, _) in head_lines(head) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("210 Number of sources") || is_legend(line) {
            continue;
        }
        return if is_sources_header(line) {
            Sniff::Yes
        } else {
            Sniff::No
        };
    }
    Sniff::No
}

/// Lines of the `-v` legend: they start with `.`, `/`, `|` or `||` drawings.
fn is_legend(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(".--") || t.starts_with("/ .-") || t.starts_with('|')
}

/// Parses `chronyc sources` with or without `-v`.
///
/// Errors: [`ParseError::Unusable`] without the `MS Name/IP address` header. A row that cannot
/// be read is an issue; an empty table (no sources configured) is not an error.
pub fn parse_sources(text: &str) -> Result<Parsed<Sources>, ParseError> {
    let mut out = Sources::default();
    let mut issues = Issues::default();
    let mut header = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("210 Number of sources") {
            out.declared = rest.trim_start_matches([' ', '=']).trim().parse().ok();
            continue;
        }
        if !header {
            if is_sources_header(line) {
                header = true;
            } else if !is_legend(line) {
                return Err(ParseError::unusable(
                    Some(n),
                    format!(
                        "expected the `MS Name/IP address Stratum Poll …` header, found `{}`",
                        excerpt(line)
                    ),
                ));
            }
            continue;
        }
        if t.bytes().all(|b| b == b'=') {
            continue;
        }
        match source_row(line, n) {
            Ok(s) => out.sources.push(s),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if !header {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `MS Name/IP address` header"
            },
        ));
    }
    if let Some(d) = out.declared {
        if d as usize != out.sources.len() {
            let found = out.sources.len();
            issues.push(0, || {
                format!("`210 Number of sources = {d}` but {found} rows were read")
            });
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// ntpq -p

/// One peer of `ntpq -p`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peer {
    /// Tally code (`*`, `+`, `-`, `x`, `.`, `#`, `o`, or `' '` for none).
    pub tally: char,
    /// Remote as printed (IPv6 and names may be cut to the column width).
    pub remote: String,
    /// Reference id (`.POOL.`, `.GPS.`, an address).
    pub refid: String,
    /// Stratum (16 = unsynchronised).
    pub stratum: u32,
    /// Type: `u` unicast, `b` broadcast, `m` multicast, `l` local, `s` symmetric, `p` pool,
    /// `A`/`B`/`M` manycast…
    pub kind: String,
    /// Seconds since the last packet; `None` for `-`.
    pub when_s: Option<u64>,
    /// Poll interval, seconds.
    pub poll_s: Option<u64>,
    /// Reachability register as printed, octal.
    pub reach: String,
    /// Round-trip delay, milliseconds.
    pub delay_ms: Option<f64>,
    /// Offset of the peer's clock, milliseconds.
    pub offset_ms: Option<f64>,
    /// Jitter, milliseconds.
    pub jitter_ms: Option<f64>,
    /// 1-based input line (of the remote when wrapped onto two lines).
    pub line: usize,
}

/// Parsed `ntpq -p`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Peers {
    /// Peers in input order.
    pub peers: Vec<Peer>,
}

impl Peers {
    /// The system peer (`*`).
    pub fn system_peer(&self) -> Option<&Peer> {
        self.peers.iter().find(|p| p.tally == '*')
    }
}

fn is_ntpq_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("remote") && t.next() == Some("refid") && t.next() == Some("st")
}

const TALLY: &str = "*+-x.#o ";

/// The nine columns after the remote: refid st t when poll reach delay offset jitter.
fn peer_numbers(tally: char, remote: &str, cols: &[&str], n: usize) -> Result<Peer, String> {
    let expected = "expected `remote refid st t when poll reach delay offset jitter`";
    let [refid, st, t, when, poll, reach, delay, offset, jitter] = cols else {
        return Err(format!(
            "{expected}: found {} columns after the remote",
            cols.len()
        ));
    };
    let stratum = st
        .parse()
        .map_err(|_| format!("{expected}: st `{}` is not a number", excerpt(st)))?;
    let when_s = match *when {
        "-" => None,
        w => Some(age_seconds(w).ok_or_else(|| {
            format!(
                "{expected}: when `{}` is not `-`, N, Nm, Nh or Nd",
                excerpt(w)
            )
        })?),
    };
    let num = |s: &str, what: &str| -> Result<Option<f64>, String> {
        match s {
            "-" => Ok(None),
            _ => s
                .parse::<f64>()
                .map(Some)
                .map_err(|_| format!("{expected}: {what} `{}` is not a number", excerpt(s))),
        }
    };
    Ok(Peer {
        tally,
        remote: remote.to_string(),
        refid: refid.to_string(),
        stratum,
        kind: t.to_string(),
        when_s,
        poll_s: age_seconds(poll),
        reach: reach.to_string(),
        delay_ms: num(delay, "delay")?,
        offset_ms: num(offset, "offset")?,
        jitter_ms: num(jitter, "jitter")?,
        line: n,
    })
}

/// Is this `ntpq -p` output? `Yes` when the first non-blank line is the `remote refid st t when
/// poll reach …` header; `No` otherwise.
pub fn sniff_ntpq(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if is_ntpq_header(l) => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `ntpq -p` / `ntpq -pn` (also `-w` wrapped remotes).
///
/// Errors: [`ParseError::Unusable`] without the header. A row that cannot be read is an issue.
pub fn parse_ntpq(text: &str) -> Result<Parsed<Peers>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, l)) if is_ntpq_header(l) => {}
        Some((n, l)) => {
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the header `remote refid st t when poll reach delay offset jitter`, found `{}`",
                    excerpt(l)
                ),
            ))
        }
        None => return Err(ParseError::unusable(None, "input is empty")),
    }
    let mut out = Peers::default();
    let mut issues = Issues::default();
    // A remote printed alone on its line, waiting for its numbers.
    let mut wrapped: Option<(char, String, usize)> = None;
    for (n, line) in lines {
        if line.trim().bytes().all(|b| b == b'=') {
            continue;
        }
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if let Some((tally, remote, at)) = wrapped.take() {
            if line.starts_with(' ') && toks.len() == 9 {
                match peer_numbers(tally, &remote, &toks, at) {
                    Ok(p) => out.peers.push(p),
                    Err(msg) => issues.push(n, || msg),
                }
                continue;
            }
            issues.push(at, || {
                format!(
                    "remote `{}` is not followed by its numbers",
                    excerpt(&remote)
                )
            });
        }
        let mut chars = line.chars();
        let tally = chars.next().unwrap_or(' ');
        if !TALLY.contains(tally) {
            issues.push(n, || {
                format!("`{tally}` is not an ntpq tally code (one of `*+-x.#o` or space)")
            });
            continue;
        }
        let rest = chars.as_str();
        let toks: Vec<&str> = rest.split_ascii_whitespace().collect();
        match toks.as_slice() {
            [remote] if !rest.starts_with(' ') => {
                wrapped = Some((tally, remote.to_string(), n));
            }
            [remote, cols @ ..] if !rest.starts_with(' ') => {
                match peer_numbers(tally, remote, cols, n) {
                    Ok(p) => out.peers.push(p),
                    Err(msg) => issues.push(n, || msg),
                }
            }
            _ => issues.push(n, || {
                format!(
                    "expected `remote refid st t when poll reach delay offset jitter`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if let Some((_, remote, at)) = wrapped {
        issues.push(at, || {
            format!(
                "remote `{}` is not followed by its numbers",
                excerpt(&remote)
            )
        });
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// timedatectl

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

// ---------------------------------------------------------------------------------------------
// timedatectl timesync-status

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

// ---------------------------------------------------------------------------------------------
// vmware-toolbox-cmd timesync status

/// Parsed `vmware-toolbox-cmd timesync status`: whether VMware Tools periodically sets the
/// guest clock from the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VmwareTimesync {
    /// `Enabled` (true) or `Disabled` (false).
    pub enabled: bool,
    /// 1-based input line.
    pub line: usize,
}

fn vmware_word(t: &str) -> Option<bool> {
    match t.trim() {
        "Enabled" => Some(true),
        "Disabled" => Some(false),
        _ => None,
    }
}

/// Is this `vmware-toolbox-cmd timesync status`? `Yes` for a single line `Enabled` or
/// `Disabled`; `No` otherwise.
pub fn sniff_vmware_timesync(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match (lines.next(), lines.next()) {
        (Some((l, true)), None) if vmware_word(l).is_some() => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `vmware-toolbox-cmd timesync status`. Errors: [`ParseError::Unusable`] unless the
/// first non-blank line is `Enabled` or `Disabled`.
pub fn parse_vmware_timesync(text: &str) -> Result<Parsed<VmwareTimesync>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let enabled = vmware_word(line).ok_or_else(|| {
        ParseError::unusable(
            Some(n),
            format!(
                "expected `Enabled` or `Disabled`, found `{}`",
                excerpt(line)
            ),
        )
    })?;
    let mut issues = Issues::default();
    for (m, extra) in lines {
        issues.push(m, || {
            format!("expected one line; ignored `{}`", excerpt(extra))
        });
    }
    Ok(Parsed {
        value: VmwareTimesync { enabled, line: n },
        issues: issues.into_vec(),
    })
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
