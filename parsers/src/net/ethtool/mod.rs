//! `ethtool` (ethtool 3.x–6.x): one module per option — driver info (`-i`), channels (`-l`),
//! rings (`-g`), features (`-k`), coalescing (`-c`), NIC statistics (`-S`), time stamping
//! (`-T`) and the plain `ethtool IFACE` link settings — and here what they share.
//!
//! Each option prints its own layout, so each has its own sniffer and parser; [`detect`] names
//! the option from the first lines. All of them accept what surrounds the output in practice: a
//! `# ethtool -S eth0` comment line (kept as the command and, for outputs without a header, the
//! interface), and warnings ethtool prints when run without privileges or on drivers that lack
//! an operation (`Cannot get wake-on-lan settings: Operation not permitted`, `netlink error:
//! Operation not permitted`), kept as [`Note`]s. The interface name comes from the header
//! ethtool prints (`Features for bond0:`, `Ring parameters for eth2:`, `Channel parameters for
//! eth0:`, `Settings for enp0s3:`). `n/a` (the driver does not report the value) is read as
//! `None`, never as 0.

pub mod channels;
pub mod coalesce;
pub mod driver;
pub mod features;
pub mod rings;
pub mod settings;
pub mod stats;
pub mod timestamping;

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Sniff};
use serde::Serialize;

/// A value printed on one input line. `value` is `None` when ethtool printed `n/a` (or another
/// non-number, reported as an issue).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reading<T> {
    /// The value; `None` for `n/a`.
    pub value: Option<T>,
    /// 1-based input line.
    pub line: usize,
}

/// A message ethtool printed besides the data (`Cannot get link status: Operation not
/// permitted`, `netlink error: Operation not permitted`) or a `# ethtool …` comment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// 1-based input line.
    pub line: usize,
    /// The line as printed, trimmed.
    pub text: String,
}

/// A `key: value` line kept as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// Key as printed, without the colon (`firmware-version`, `RX Buf Len`).
    pub key: String,
    /// Value as printed, trimmed; `None` when empty or `n/a`.
    pub value: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Which `ethtool` output a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EthtoolKind {
    /// `ethtool -i`.
    Driver,
    /// `ethtool -l`.
    Channels,
    /// `ethtool -k`.
    Features,
    /// `ethtool -g`.
    Rings,
    /// `ethtool -c`.
    Coalesce,
    /// `ethtool -S`.
    Stats,
    /// `ethtool -T`.
    Timestamping,
    /// Plain `ethtool IFACE`.
    Settings,
}

// ---------------------------------------------------------------------------------------------
// Shared line handling

/// A `# ethtool -S eth0` comment (node_exporter fixtures, hand-made captures).
fn comment(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix('#').map(str::trim)
}

/// Interface named by a `# ethtool [-x] IFACE` comment: its last word.
fn comment_interface(text: &str) -> Option<String> {
    let mut words = text.split_ascii_whitespace();
    if words.next()? != "ethtool" {
        return None;
    }
    let last = words.last()?;
    (!last.starts_with('-')).then(|| last.to_string())
}

/// Warnings ethtool prints to stderr that end up in captured output.
fn is_warning(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("Cannot ")
        || t.starts_with("netlink error:")
        || t.starts_with("netlink warning:")
        || t.starts_with("Operation not ")
        || t.starts_with("No data available")
        || t.starts_with("Could not ")
}

/// `<what> for IFACE:` header, e.g. `Ring parameters for eth2:` → `eth2`.
fn header_interface<'a>(line: &'a str, what: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix(what)?.strip_prefix(" for ")?;
    let name = rest.strip_suffix(':')?;
    (!name.is_empty() && !name.contains(char::is_whitespace)).then_some(name)
}

/// The headers of each kind.
const RINGS_HEADER: &str = "Ring parameters";
const CHANNELS_HEADER: &str = "Channel parameters";
const FEATURES_HEADER: &str = "Features";
const COALESCE_HEADER: &str = "Coalesce parameters";
const SETTINGS_HEADER: &str = "Settings";
const TIMESTAMPING_HEADER: &str = "Time stamping parameters";
const STATS_HEADER: &str = "NIC statistics:";

/// Splits `key: value` at the first `:`; the value is trimmed.
fn split_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    (!k.is_empty()).then_some((k, v.trim()))
}

/// `n/a` and the empty string are "no value".
fn opt_value(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty() && v != "n/a").then(|| v.to_string())
}

/// The common start of every ethtool output: comments and warnings before (and between) data.
#[derive(Default)]
struct Prelude {
    notes: Vec<Note>,
    command_interface: Option<String>,
}

impl Prelude {
    /// Consumes `line` when it is a comment or a warning.
    fn take(&mut self, n: usize, line: &str) -> bool {
        if let Some(c) = comment(line) {
            if self.command_interface.is_none() {
                self.command_interface = comment_interface(c);
            }
            self.notes.push(Note {
                line: n,
                text: line.trim().to_string(),
            });
            true
        } else if is_warning(line) {
            self.notes.push(Note {
                line: n,
                text: line.trim().to_string(),
            });
            true
        } else {
            false
        }
    }
}

/// Reason for an unusable input: empty, only warnings, or something else.
fn unusable(text: &str, notes: &[Note], what: &str) -> ParseError {
    if text.trim().is_empty() {
        ParseError::unusable(None, "input is empty")
    } else if let Some(n) = notes.iter().find(|n| !n.text.starts_with('#')) {
        ParseError::unusable(
            Some(n.line),
            format!(
                "no {what} in the input, only the ethtool message `{}`",
                excerpt(&n.text)
            ),
        )
    } else {
        ParseError::unusable(None, format!("no {what} found"))
    }
}

/// First non-blank, non-comment, non-warning line of a sniff head.
fn first_data_line(head: &str) -> Option<(&str, bool)> {
    head_lines(head).find(|(l, _)| !l.trim().is_empty() && comment(l).is_none() && !is_warning(l))
}

/// Which ethtool output this head is, if any.
pub fn detect(head: &str) -> Option<EthtoolKind> {
    let (first, complete) = first_data_line(head)?;
    let t = first.trim();
    if !complete {
        return None;
    }
    let kind = if header_interface(t, RINGS_HEADER).is_some() {
        EthtoolKind::Rings
    } else if header_interface(t, CHANNELS_HEADER).is_some() {
        EthtoolKind::Channels
    } else if header_interface(t, FEATURES_HEADER).is_some() {
        EthtoolKind::Features
    } else if header_interface(t, COALESCE_HEADER).is_some() {
        EthtoolKind::Coalesce
    } else if header_interface(t, SETTINGS_HEADER).is_some() {
        EthtoolKind::Settings
    } else if header_interface(t, TIMESTAMPING_HEADER).is_some() {
        EthtoolKind::Timestamping
    } else if t == STATS_HEADER {
        EthtoolKind::Stats
    } else if t.strip_prefix("driver:").is_some() {
        // `-i` always starts with the driver and has `bus-info:` a few lines later.
        let has_bus = head_lines(head).any(|(l, c)| c && l.starts_with("bus-info:"));
        if !has_bus {
            return None;
        }
        EthtoolKind::Driver
    } else {
        return None;
    };
    Some(kind)
}

fn sniff_kind(head: &str, kind: EthtoolKind) -> Sniff {
    match detect(head) {
        Some(k) if k == kind => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// The interface from a header, the header's line, and the numbered lines after it.
type AfterHeader<'a> = (Option<String>, usize, Vec<(usize, &'a str)>);

/// Lines of `text` after the header of `what` (`Ring parameters`), with the interface. Comments
/// and warnings before the header go to `prelude`.
fn after_header<'a>(
    text: &'a str,
    what: &str,
    prelude: &mut Prelude,
) -> Result<AfterHeader<'a>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text));
    for (n, line) in lines.by_ref() {
        if line.trim().is_empty() || prelude.take(n, line) {
            continue;
        }
        if let Some(iface) = header_interface(line, what) {
            return Ok((Some(iface.to_string()), n, lines.collect()));
        }
        return Err(ParseError::unusable(
            Some(n),
            format!(
                "expected the header `{what} for IFACE:`, found `{}`",
                excerpt(line)
            ),
        ));
    }
    Err(unusable(
        text,
        &prelude.notes,
        &format!("`{what} for IFACE:` header"),
    ))
}

fn parse_u64_reading(v: &str, n: usize, key: &str, issues: &mut Issues) -> Reading<u64> {
    let value = match v {
        "n/a" | "" => None,
        _ => match v.parse::<u64>() {
            Ok(x) => Some(x),
            Err(_) => {
                issues.push(n, || {
                    format!(
                        "`{key}`: expected a number or `n/a`, found `{}`",
                        excerpt(v)
                    )
                });
                None
            }
        },
    };
    Reading { value, line: n }
}

/// `on`/`off`/`n/a` as ethtool prints booleans.
fn on_off(v: &str) -> Option<bool> {
    match v {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// `yes`/`no` (`supports-*`, `Link detected`).
fn yes_no(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Which of the two sections a row was printed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Max,
    Current,
}

/// Reads the `Pre-set maximums:` / `Current hardware settings:` sections and hands every
/// `name: value` row to `row`.
fn two_sections<'a>(
    lines: &[(usize, &'a str)],
    prelude: &mut Prelude,
    issues: &mut Issues,
    mut row: impl FnMut(Section, usize, &'a str, &'a str, &mut Issues),
) -> bool {
    let mut section = None;
    let mut any = false;
    for &(n, line) in lines {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        match t {
            "Pre-set maximums:" => section = Some(Section::Max),
            "Current hardware settings:" => section = Some(Section::Current),
            _ => {
                let Some((key, value)) = split_kv(t) else {
                    issues.push(n, || {
                        format!("expected `NAME: value`, found `{}`", excerpt(line))
                    });
                    continue;
                };
                match section {
                    Some(s) => {
                        any = true;
                        row(s, n, key, value, issues)
                    }
                    None => issues.push(n, || {
                        format!(
                            "`{}` before `Pre-set maximums:` or `Current hardware settings:`",
                            excerpt(line)
                        )
                    }),
                }
            }
        }
    }
    any
}
