//! `ethtool IFACE`: link settings (speed, duplex, link modes, auto-negotiation, link state).
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! ethtool 6.1, virtio_net:
//! ```text
//! Settings for eth0:
//!         Supported ports: [  ]
//!         Supported link modes:   Not reported
//!         Supports auto-negotiation: No
//!         Speed: Unknown!
//!         Duplex: Unknown! (255)
//!         Auto-negotiation: off
//!         Port: Other
//! ```

use super::{
    after_header, on_off, sniff_kind, split_kv, yes_no, EthtoolKind, Note, Prelude, Reading,
    SETTINGS_HEADER,
};
use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this plain `ethtool IFACE` output? `Yes` on a `Settings for IFACE:` header.
pub fn sniff_settings(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Settings)
}

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
