//! `ethtool` (ethtool 3.x–6.x): driver info (`-i`), channels (`-l`), features (`-k`), rings
//! (`-g`), coalescing (`-c`), NIC statistics (`-S`), time stamping (`-T`) and the plain
//! `ethtool IFACE` link settings.
//!
//! Each option prints its own layout, so each has its own sniffer and parser. All of them accept
//! what surrounds the output in practice: a `# ethtool -S eth0` comment line (kept as the command
//! and, for outputs without a header, the interface), and warnings ethtool prints when run
//! without privileges or on drivers that lack an operation (`Cannot get wake-on-lan settings:
//! Operation not permitted`, `netlink error: Operation not permitted`), kept as [`Note`]s.
//! The interface name comes from the header ethtool prints (`Features for bond0:`, `Ring
//! parameters for eth2:`, `Channel parameters for eth0:`, `Settings for enp0s3:`).
//! `n/a` (the driver does not report the value) is read as `None`, never as 0.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
//!
//! `ethtool -l eth0` (ethtool 6.1, virtio_net):
//! ```text
//! Channel parameters for eth0:
//! Pre-set maximums:
//! RX:             n/a
//! TX:             n/a
//! Other:          n/a
//! Combined:       1
//! Current hardware settings:
//! RX:             n/a
//! TX:             n/a
//! Other:          n/a
//! Combined:       1
//! ```
//! `ethtool -g` has the same two sections with `RX`, `RX Mini`, `RX Jumbo`, `TX` rows; ethtool 6
//! adds `RX Buf Len`, `CQE Size`, `TX Push`, `TCP data split` rows to the current settings.
//!
//! `ethtool -k bond0`:
//! ```text
//! Features for bond0:
//! rx-checksumming: off [fixed]
//! tx-checksumming: on
//!     tx-checksum-ipv4: off [fixed]
//! generic-segmentation-offload: off [requested on]
//! ```
//! `ethtool -i eth0`:
//! ```text
//! driver: virtio_net
//! version: 1.0.0
//! firmware-version:
//! bus-info: 0000:00:03.0
//! supports-statistics: no
//! ```
//! `ethtool -c eth2` (`Adaptive RX: off  TX: off` on one line, groups separated by blank lines):
//! ```text
//! Coalesce parameters for eth2:
//! Adaptive RX: off  TX: off
//! rx-usecs: 20
//! tx-frame-high: n/a
//! ```
//! `ethtool -S eth0` (names as the driver prints them, dotted or per queue):
//! ```text
//! NIC statistics:
//!      rx_packets: 1260062
//!      port.rx_dropped: 12028
//!      rx_queue_3_packets: 0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
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

/// Is this `ethtool -i` output? `Yes` when the first data line is `driver:` and `bus-info:`
/// follows.
pub fn sniff_driver(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Driver)
}
/// Is this `ethtool -l` output? `Yes` on a `Channel parameters for IFACE:` header.
pub fn sniff_channels(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Channels)
}
/// Is this `ethtool -k` output? `Yes` on a `Features for IFACE:` header.
pub fn sniff_features(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Features)
}
/// Is this `ethtool -g` output? `Yes` on a `Ring parameters for IFACE:` header.
pub fn sniff_rings(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Rings)
}
/// Is this `ethtool -c` output? `Yes` on a `Coalesce parameters for IFACE:` header.
pub fn sniff_coalesce(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Coalesce)
}
/// Is this `ethtool -S` output? `Yes` on a `NIC statistics:` header.
pub fn sniff_stats(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Stats)
}
/// Is this `ethtool -T` output? `Yes` on a `Time stamping parameters for IFACE:` header.
pub fn sniff_timestamping(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Timestamping)
}
/// Is this plain `ethtool IFACE` output? `Yes` on a `Settings for IFACE:` header.
pub fn sniff_settings(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Settings)
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

// ---------------------------------------------------------------------------------------------
// -i

/// `ethtool -i`: driver information.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct DriverInfo {
    /// Interface from a `# ethtool -i eth0` comment, when present (`-i` prints no header).
    pub interface: Option<String>,
    /// `driver` (`virtio_net`, `vmxnet3`, `e1000e`).
    pub driver: Option<String>,
    /// `version` of the driver.
    pub version: Option<String>,
    /// `firmware-version`; `None` when printed empty.
    pub firmware_version: Option<String>,
    /// `expansion-rom-version`; `None` when printed empty.
    pub expansion_rom_version: Option<String>,
    /// `bus-info` (PCI address such as `0000:00:03.0`).
    pub bus_info: Option<String>,
    /// `supports-statistics`.
    pub supports_statistics: Option<bool>,
    /// `supports-test`.
    pub supports_test: Option<bool>,
    /// `supports-eeprom-access`.
    pub supports_eeprom_access: Option<bool>,
    /// `supports-register-dump`.
    pub supports_register_dump: Option<bool>,
    /// `supports-priv-flags`.
    pub supports_priv_flags: Option<bool>,
    /// Every `key: value` line, in input order.
    pub fields: Vec<Field>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

impl DriverInfo {
    /// Line of a key (`driver`), for evidence.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        self.fields.iter().find(|f| f.key == key).map(|f| f.line)
    }
}

/// Parses `ethtool -i`. Errors: [`ParseError::Unusable`] without a `driver:` line.
pub fn parse_driver(text: &str) -> Result<Parsed<DriverInfo>, ParseError> {
    let mut out = DriverInfo::default();
    let mut prelude = Prelude::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() || prelude.take(n, line) {
            continue;
        }
        let Some((key, value)) = split_kv(line) else {
            issues.push(n, || {
                format!("expected `key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let v = opt_value(value);
        let boolean = |n: usize, issues: &mut Issues| {
            let b = yes_no(value);
            if b.is_none() {
                issues.push(n, || {
                    format!(
                        "`{key}`: expected `yes` or `no`, found `{}`",
                        excerpt(value)
                    )
                });
            }
            b
        };
        match key {
            "driver" => out.driver = v.clone(),
            "version" => out.version = v.clone(),
            "firmware-version" => out.firmware_version = v.clone(),
            "expansion-rom-version" => out.expansion_rom_version = v.clone(),
            "bus-info" => out.bus_info = v.clone(),
            "supports-statistics" => out.supports_statistics = boolean(n, &mut issues),
            "supports-test" => out.supports_test = boolean(n, &mut issues),
            "supports-eeprom-access" => out.supports_eeprom_access = boolean(n, &mut issues),
            "supports-register-dump" => out.supports_register_dump = boolean(n, &mut issues),
            "supports-priv-flags" => out.supports_priv_flags = boolean(n, &mut issues),
            _ => {}
        }
        out.fields.push(Field {
            key: key.to_string(),
            value: v,
            line: n,
        });
    }
    out.notes = prelude.notes;
    out.interface = prelude.command_interface;
    if out.driver.is_none() {
        return Err(unusable(text, &out.notes, "`driver:` line"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// -l and -g: two sections of limits

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

/// Channel counts of one section of `ethtool -l`. `None` for a row not printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ChannelCounts {
    /// `RX`: receive-only channels.
    pub rx: Option<Reading<u64>>,
    /// `TX`: transmit-only channels.
    pub tx: Option<Reading<u64>>,
    /// `Other`: channels for link interrupts or SR-IOV coordination.
    pub other: Option<Reading<u64>>,
    /// `Combined`: channels with both an RX and a TX queue (one interrupt each).
    pub combined: Option<Reading<u64>>,
}

/// `ethtool -l`: number of channels (queues with their interrupts).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Channels {
    /// Interface from the `Channel parameters for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// `Pre-set maximums`.
    pub max: ChannelCounts,
    /// `Current hardware settings`.
    pub current: ChannelCounts,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

/// Parses `ethtool -l`. Errors: [`ParseError::Unusable`] without the header (e.g. only
/// `netlink error: Operation not supported`).
pub fn parse_channels(text: &str) -> Result<Parsed<Channels>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, CHANNELS_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Channels {
        interface,
        line: header,
        ..Default::default()
    };
    let any = two_sections(&lines, &mut prelude, &mut issues, |s, n, k, v, issues| {
        let counts = match s {
            Section::Max => &mut out.max,
            Section::Current => &mut out.current,
        };
        let slot = match k {
            "RX" => &mut counts.rx,
            "TX" => &mut counts.tx,
            "Other" => &mut counts.other,
            "Combined" => &mut counts.combined,
            _ => {
                issues.push(n, || {
                    format!(
                        "unknown channel type `{}` (expected RX, TX, Other, Combined)",
                        excerpt(k)
                    )
                });
                return;
            }
        };
        *slot = Some(parse_u64_reading(v, n, k, issues));
    });
    out.notes = prelude.notes;
    if !any {
        return Err(ParseError::unusable(
            Some(header),
            "no channel counts after the `Channel parameters` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Ring sizes of one section of `ethtool -g` (descriptors per ring).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct RingSizes {
    /// `RX`.
    pub rx: Option<Reading<u64>>,
    /// `RX Mini`.
    pub rx_mini: Option<Reading<u64>>,
    /// `RX Jumbo`.
    pub rx_jumbo: Option<Reading<u64>>,
    /// `TX`.
    pub tx: Option<Reading<u64>>,
}

/// `ethtool -g`: ring buffer sizes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Rings {
    /// Interface from the `Ring parameters for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// `Pre-set maximums`.
    pub max: RingSizes,
    /// `Current hardware settings`.
    pub current: RingSizes,
    /// Other rows of the current settings, as printed (ethtool 6: `RX Buf Len`, `CQE Size`,
    /// `TX Push`, `TCP data split`); `n/a` is `None`.
    pub extra: Vec<Field>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

/// Parses `ethtool -g`. Errors: [`ParseError::Unusable`] without the header.
pub fn parse_rings(text: &str) -> Result<Parsed<Rings>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, RINGS_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Rings {
        interface,
        line: header,
        ..Default::default()
    };
    let any = two_sections(&lines, &mut prelude, &mut issues, |s, n, k, v, issues| {
        let sizes = match s {
            Section::Max => &mut out.max,
            Section::Current => &mut out.current,
        };
        let slot = match k {
            "RX" => &mut sizes.rx,
            "RX Mini" => &mut sizes.rx_mini,
            "RX Jumbo" => &mut sizes.rx_jumbo,
            "TX" => &mut sizes.tx,
            _ => {
                out.extra.push(Field {
                    key: k.to_string(),
                    value: opt_value(v),
                    line: n,
                });
                return;
            }
        };
        *slot = Some(parse_u64_reading(v, n, k, issues));
    });
    out.notes = prelude.notes;
    if !any {
        return Err(ParseError::unusable(
            Some(header),
            "no ring sizes after the `Ring parameters` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// -k

/// One offload feature of `ethtool -k`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feature {
    /// Feature name (`generic-segmentation-offload`, `tx-checksum-ipv4`).
    pub name: String,
    /// `on` (true) or `off` (false).
    pub on: bool,
    /// `[fixed]`: the driver does not let it change.
    pub fixed: bool,
    /// `[requested on]` / `[requested off]`: what was asked for when it differs from the
    /// state.
    pub requested: Option<bool>,
    /// The feature this one is indented under (`tx-checksumming` for `tx-checksum-ipv4`).
    pub parent: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// `ethtool -k`: offload features.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Features {
    /// Interface from the `Features for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// Features in input order.
    pub features: Vec<Feature>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

impl Features {
    /// Feature by name.
    pub fn get(&self, name: &str) -> Option<&Feature> {
        self.features.iter().find(|f| f.name == name)
    }

    /// Whether a feature is on, by name.
    pub fn is_on(&self, name: &str) -> Option<bool> {
        self.get(name).map(|f| f.on)
    }
}

/// `on [fixed]`, `off [requested on]` → (on, fixed, requested).
fn feature_state(v: &str) -> Result<(bool, bool, Option<bool>), String> {
    let (state, mut rest) = match v.split_once(' ') {
        Some((s, r)) => (s, r.trim()),
        None => (v, ""),
    };
    let on = on_off(state)
        .ok_or_else(|| format!("expected `on` or `off`, found `{}`", excerpt(state)))?;
    let mut fixed = false;
    let mut requested = None;
    while let Some(r) = rest.strip_prefix('[') {
        let Some((inner, after)) = r.split_once(']') else {
            return Err(format!("unclosed `[` in `{}`", excerpt(v)));
        };
        match inner.trim() {
            "fixed" => fixed = true,
            "requested on" => requested = Some(true),
            "requested off" => requested = Some(false),
            other => return Err(format!("unknown marker `[{}]`", excerpt(other))),
        }
        rest = after.trim_start();
    }
    if !rest.is_empty() {
        return Err(format!("unexpected `{}` after the state", excerpt(rest)));
    }
    Ok((on, fixed, requested))
}

/// Parses `ethtool -k`. Errors: [`ParseError::Unusable`] without the header.
pub fn parse_features(text: &str) -> Result<Parsed<Features>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, FEATURES_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Features {
        interface,
        line: header,
        ..Default::default()
    };
    let mut parent: Option<String> = None;
    for (n, line) in lines {
        if line.trim().is_empty() || prelude.take(n, line) {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        let Some((name, value)) = split_kv(line) else {
            issues.push(n, || {
                format!("expected `feature: on|off`, found `{}`", excerpt(line))
            });
            continue;
        };
        match feature_state(value) {
            Ok((on, fixed, requested)) => {
                out.features.push(Feature {
                    name: name.to_string(),
                    on,
                    fixed,
                    requested,
                    parent: if indented { parent.clone() } else { None },
                    line: n,
                });
                if !indented {
                    parent = Some(name.to_string());
                }
            }
            Err(msg) => issues.push(n, || format!("`{name}`: {msg}")),
        }
    }
    out.notes = prelude.notes;
    if out.features.is_empty() {
        return Err(ParseError::unusable(
            Some(header),
            "no `feature: on|off` line after the `Features for` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// -c

/// One numeric coalescing parameter (`rx-usecs: 20`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoalesceParam {
    /// Name as printed (`rx-usecs`, `tx-frames-irq`).
    pub name: String,
    /// Value (microseconds for `*-usecs*`, frames for `*-frame*`); `None` for `n/a`.
    pub value: Option<u64>,
    /// 1-based input line.
    pub line: usize,
}

/// `ethtool -c`: interrupt coalescing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Coalesce {
    /// Interface from the `Coalesce parameters for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// `Adaptive RX`: on/off; `None` for `n/a`.
    pub adaptive_rx: Option<Reading<bool>>,
    /// `Adaptive TX` (printed on the same line as RX).
    pub adaptive_tx: Option<Reading<bool>>,
    /// `CQE mode RX` (ethtool 6).
    pub cqe_mode_rx: Option<Reading<bool>>,
    /// `CQE mode TX` (ethtool 6).
    pub cqe_mode_tx: Option<Reading<bool>>,
    /// Every `name: value` parameter, in input order.
    pub params: Vec<CoalesceParam>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

impl Coalesce {
    /// A parameter by name (`rx-usecs`); `None` when absent or `n/a`.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.params.iter().find(|p| p.name == name)?.value
    }
}

/// `Adaptive RX: off  TX: off` / `CQE mode RX: n/a  TX: n/a`.
fn rx_tx_pair(v: &str) -> Option<(&str, &str)> {
    // v is what follows `RX:`.
    let (rx, tx) = v.split_once("TX:")?;
    Some((rx.trim(), tx.trim()))
}

/// Parses `ethtool -c`. Errors: [`ParseError::Unusable`] without the header.
pub fn parse_coalesce(text: &str) -> Result<Parsed<Coalesce>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, COALESCE_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Coalesce {
        interface,
        line: header,
        ..Default::default()
    };
    for (n, line) in lines {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        let pair = t
            .strip_prefix("Adaptive RX:")
            .map(|r| (true, r))
            .or_else(|| t.strip_prefix("CQE mode RX:").map(|r| (false, r)));
        if let Some((adaptive, rest)) = pair {
            let Some((rx, tx)) = rx_tx_pair(rest) else {
                issues.push(n, || {
                    format!(
                        "expected `… RX: on|off  TX: on|off`, found `{}`",
                        excerpt(t)
                    )
                });
                continue;
            };
            let rx = Some(Reading {
                value: on_off(rx),
                line: n,
            });
            let tx = Some(Reading {
                value: on_off(tx),
                line: n,
            });
            if adaptive {
                (out.adaptive_rx, out.adaptive_tx) = (rx, tx);
            } else {
                (out.cqe_mode_rx, out.cqe_mode_tx) = (rx, tx);
            }
            continue;
        }
        let Some((name, value)) = split_kv(t) else {
            issues.push(n, || {
                format!("expected `parameter: value`, found `{}`", excerpt(t))
            });
            continue;
        };
        let r = parse_u64_reading(value, n, name, &mut issues);
        out.params.push(CoalesceParam {
            name: name.to_string(),
            value: r.value,
            line: n,
        });
    }
    out.notes = prelude.notes;
    if out.params.is_empty() && out.adaptive_rx.is_none() {
        return Err(ParseError::unusable(
            Some(header),
            "no coalescing parameter after the `Coalesce parameters` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// -S

/// One NIC statistic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// Name as the driver prints it (`rx_packets`, `port.rx_dropped`, `rx_queue_3_packets`).
    pub name: String,
    /// Counter value since the driver was loaded.
    pub value: u64,
    /// 1-based input line.
    pub line: usize,
}

/// A per-queue statistic name split into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueueStat<'a> {
    /// `rx` or `tx`.
    pub direction: &'a str,
    /// Queue number.
    pub queue: u32,
    /// The rest of the name (`packets`, `drops`, `xdp_tx`).
    pub metric: &'a str,
}

/// Splits per-queue names as drivers print them: `rx_queue_3_packets` (igb, ixgbe, ena),
/// `tx_queue_0_bytes`, `rx0_drops` / `tx0_kicks` (virtio_net, mlx5). `None` for other names.
pub fn queue_stat(name: &str) -> Option<QueueStat<'_>> {
    let (direction, rest) = if let Some(r) = name.strip_prefix("rx") {
        ("rx", r)
    } else if let Some(r) = name.strip_prefix("tx") {
        ("tx", r)
    } else {
        return None;
    };
    let rest = rest.strip_prefix("_queue_").unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let queue = rest[..digits].parse().ok()?;
    let metric = rest[digits..].strip_prefix('_')?;
    (!metric.is_empty()).then_some(QueueStat {
        direction,
        queue,
        metric,
    })
}

/// `ethtool -S`: NIC statistics.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Stats {
    /// Interface from a `# ethtool -S eth0` comment, when present.
    pub interface: Option<String>,
    /// 1-based line of `NIC statistics:`.
    pub line: usize,
    /// Counters in input order (a driver may print a name twice; both are kept).
    pub stats: Vec<Stat>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

impl Stats {
    /// First counter with this name.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.stats.iter().find(|s| s.name == name).map(|s| s.value)
    }

    /// Counters whose name contains `part` (`rx_queue_3`), in input order.
    pub fn matching<'a>(&'a self, part: &'a str) -> impl Iterator<Item = &'a Stat> + 'a {
        self.stats.iter().filter(move |s| s.name.contains(part))
    }

    /// Per-queue values of one metric and direction (`("rx", "packets")`), by queue number.
    pub fn per_queue(&self, direction: &str, metric: &str) -> Vec<(u32, u64)> {
        let mut out: Vec<(u32, u64)> = self
            .stats
            .iter()
            .filter_map(|s| {
                let q = queue_stat(&s.name)?;
                (q.direction == direction && q.metric == metric).then_some((q.queue, s.value))
            })
            .collect();
        out.sort_by_key(|(q, _)| *q);
        out
    }
}

/// Parses `ethtool -S`. Errors: [`ParseError::Unusable`] without `NIC statistics:`.
///
/// A name may contain spaces (`duplicate metric: 1`); the value follows the last `: `.
pub fn parse_stats(text: &str) -> Result<Parsed<Stats>, ParseError> {
    let mut prelude = Prelude::default();
    let mut out = Stats::default();
    let mut issues = Issues::default();
    let mut started = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        if !started {
            if t == STATS_HEADER {
                started = true;
                out.line = n;
                continue;
            }
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the header `NIC statistics:`, found `{}`",
                    excerpt(line)
                ),
            ));
        }
        let Some((name, value)) = t.rsplit_once(':') else {
            issues.push(n, || {
                format!("expected `name: value`, found `{}`", excerpt(t))
            });
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        match value.parse::<u64>() {
            Ok(v) if !name.is_empty() => out.stats.push(Stat {
                name: name.to_string(),
                value: v,
                line: n,
            }),
            _ => issues.push(n, || {
                format!("expected `name: counter`, found `{}`", excerpt(t))
            }),
        }
    }
    out.notes = prelude.notes;
    out.interface = prelude.command_interface;
    if !started {
        return Err(unusable(text, &out.notes, "`NIC statistics:` header"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// -T

/// One capability or mode line of `ethtool -T` (`hardware-transmit (SOF_TIMESTAMPING_TX_HARDWARE)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimestampingMode {
    /// Short name (`hardware-transmit`, `off`, `all`).
    pub name: String,
    /// Kernel flag in parentheses, when printed (`SOF_TIMESTAMPING_TX_HARDWARE`).
    pub flag: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// `ethtool -T`: time stamping capabilities.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Timestamping {
    /// Interface from the `Time stamping parameters for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// `Capabilities:` list.
    pub capabilities: Vec<TimestampingMode>,
    /// `PTP Hardware Clock:` value as printed (`0`, `none`).
    pub ptp_hardware_clock: Option<Reading<String>>,
    /// `Hardware Transmit Timestamp Modes:` list (empty when printed `none`).
    pub tx_modes: Vec<TimestampingMode>,
    /// `Hardware Receive Filter Modes:` list (empty when printed `none`).
    pub rx_filters: Vec<TimestampingMode>,
    /// Comments and warnings.
    pub notes: Vec<Note>,
}

/// Parses `ethtool -T`. Errors: [`ParseError::Unusable`] without the header.
pub fn parse_timestamping(text: &str) -> Result<Parsed<Timestamping>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, TIMESTAMPING_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Timestamping {
        interface,
        line: header,
        ..Default::default()
    };
    #[derive(Clone, Copy)]
    enum List {
        None,
        Caps,
        Tx,
        Rx,
    }
    let mut list = List::None;
    let mut any = false;
    for (n, line) in lines {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            let Some((key, value)) = split_kv(t) else {
                issues.push(n, || format!("expected `Heading:`, found `{}`", excerpt(t)));
                continue;
            };
            any = true;
            list = match key {
                "Capabilities" => List::Caps,
                "Hardware Transmit Timestamp Modes" => List::Tx,
                "Hardware Receive Filter Modes" => List::Rx,
                "PTP Hardware Clock" => {
                    out.ptp_hardware_clock = Some(Reading {
                        value: opt_value(value),
                        line: n,
                    });
                    List::None
                }
                _ => {
                    issues.push(n, || format!("unknown heading `{}`", excerpt(key)));
                    List::None
                }
            };
            continue;
        }
        let (name, flag) = match t.split_once('(') {
            Some((name, flag)) => (
                name.trim(),
                Some(flag.trim_end_matches(')').trim().to_string()),
            ),
            None => (t, None),
        };
        let mode = TimestampingMode {
            name: name.to_string(),
            flag,
            line: n,
        };
        match list {
            List::Caps => out.capabilities.push(mode),
            List::Tx => out.tx_modes.push(mode),
            List::Rx => out.rx_filters.push(mode),
            List::None => issues.push(n, || {
                format!("`{}` is not under a list heading", excerpt(t))
            }),
        }
    }
    out.notes = prelude.notes;
    if !any {
        return Err(ParseError::unusable(
            Some(header),
            "nothing after the `Time stamping parameters` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// plain `ethtool IFACE`

/// A settings line with its continuation lines (link mode lists, message level names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingsField {
    /// Key as printed (`Supported link modes`, `Speed`).
    pub key: String,
    /// Value, with continuation lines joined by single spaces.
    pub value: String,
    /// 1-based input line of the key.
    pub line: usize,
}

/// Plain `ethtool IFACE`: link settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Settings {
    /// Interface from the `Settings for IFACE:` header.
    pub interface: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// `Speed` in Mb/s; `None` when `Unknown!`.
    pub speed_mbps: Option<Reading<u64>>,
    /// `Duplex` as printed (`Full`, `Half`, `Unknown! (255)`).
    pub duplex: Option<Reading<String>>,
    /// `Port` (`Twisted Pair`, `FIBRE`, `Other`).
    pub port: Option<Reading<String>>,
    /// `Auto-negotiation` (on/off).
    pub auto_negotiation: Option<Reading<bool>>,
    /// `Link detected` (yes/no).
    pub link_detected: Option<Reading<bool>>,
    /// `Supported ports` without brackets (`TP`, `MII`).
    pub supported_ports: Vec<String>,
    /// `Supported link modes` (`1000baseT/Full`); empty when `Not reported`.
    pub supported_link_modes: Vec<String>,
    /// `Advertised link modes`; empty when `Not reported`.
    pub advertised_link_modes: Vec<String>,
    /// Every field, in input order.
    pub fields: Vec<SettingsField>,
    /// Comments and warnings (`Cannot get wake-on-lan settings: Operation not permitted`).
    pub notes: Vec<Note>,
}

impl Settings {
    /// A field's value by key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.value.as_str())
    }
}

fn link_modes(v: &str) -> Vec<String> {
    if v == "Not reported" {
        return Vec::new();
    }
    v.split_ascii_whitespace().map(str::to_string).collect()
}

/// Parses plain `ethtool IFACE`. Errors: [`ParseError::Unusable`] without the `Settings for`
/// header.
pub fn parse_settings(text: &str) -> Result<Parsed<Settings>, ParseError> {
    let mut prelude = Prelude::default();
    let (interface, header, lines) = after_header(text, SETTINGS_HEADER, &mut prelude)?;
    let mut issues = Issues::default();
    let mut out = Settings {
        interface,
        line: header,
        ..Default::default()
    };
    for (n, line) in lines {
        let t = line.trim();
        if t.is_empty() || prelude.take(n, line) {
            continue;
        }
        match split_kv(t) {
            Some((key, value)) => out.fields.push(SettingsField {
                key: key.to_string(),
                value: value.split_ascii_whitespace().collect::<Vec<_>>().join(" "),
                line: n,
            }),
            None if line.starts_with([' ', '\t']) && !out.fields.is_empty() => {
                // Continuation of the previous field (more link modes, message level names).
                if let Some(last) = out.fields.last_mut() {
                    for w in t.split_ascii_whitespace() {
                        if !last.value.is_empty() {
                            last.value.push(' ');
                        }
                        last.value.push_str(w);
                    }
                }
            }
            None => issues.push(n, || {
                format!("expected `Key: value`, found `{}`", excerpt(t))
            }),
        }
    }
    for f in &out.fields {
        let n = f.line;
        let v = f.value.as_str();
        match f.key.as_str() {
            "Speed" => {
                let value = v.strip_suffix("Mb/s").and_then(|s| s.parse().ok());
                if value.is_none() && !v.starts_with("Unknown") {
                    issues.push(n, || {
                        format!(
                            "`Speed`: expected `NMb/s` or `Unknown!`, found `{}`",
                            excerpt(v)
                        )
                    });
                }
                out.speed_mbps = Some(Reading { value, line: n });
            }
            "Duplex" => {
                out.duplex = Some(Reading {
                    value: Some(v.to_string()),
                    line: n,
                })
            }
            "Port" => {
                out.port = Some(Reading {
                    value: Some(v.to_string()),
                    line: n,
                })
            }
            "Auto-negotiation" => {
                out.auto_negotiation = Some(Reading {
                    value: on_off(v),
                    line: n,
                })
            }
            "Link detected" => {
                out.link_detected = Some(Reading {
                    value: yes_no(v),
                    line: n,
                })
            }
            "Supported ports" => {
                out.supported_ports = v
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .split_ascii_whitespace()
                    .map(str::to_string)
                    .collect()
            }
            "Supported link modes" => out.supported_link_modes = link_modes(v),
            "Advertised link modes" => out.advertised_link_modes = link_modes(v),
            _ => {}
        }
    }
    out.notes = prelude.notes;
    if out.fields.is_empty() {
        return Err(ParseError::unusable(
            Some(header),
            "no `Key: value` line after the `Settings for` header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_names() {
        let q = queue_stat("rx_queue_3_packets").unwrap();
        assert_eq!((q.direction, q.queue, q.metric), ("rx", 3, "packets"));
        let q = queue_stat("tx0_kicks").unwrap();
        assert_eq!((q.direction, q.queue, q.metric), ("tx", 0, "kicks"));
        assert!(queue_stat("rx_packets").is_none());
        assert!(queue_stat("rx_queue_").is_none());
        assert!(queue_stat("rx99999999999_x").is_none());
    }

    #[test]
    fn feature_states() {
        assert_eq!(feature_state("on"), Ok((true, false, None)));
        assert_eq!(feature_state("off [fixed]"), Ok((false, true, None)));
        assert_eq!(
            feature_state("off [requested on]"),
            Ok((false, false, Some(true)))
        );
        assert!(feature_state("maybe").is_err());
        assert!(feature_state("on [fixed").is_err());
        assert!(feature_state("on [weird]").is_err());
    }
}
