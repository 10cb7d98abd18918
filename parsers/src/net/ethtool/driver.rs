//! `ethtool -i IFACE`: the driver and firmware behind an interface.
//!
//! ```text
//! driver: virtio_net
//! version: 1.0.0
//! firmware-version:
//! bus-info: 0000:00:03.0
//! supports-statistics: no
//! ```

use super::{opt_value, sniff_kind, split_kv, unusable, yes_no, EthtoolKind, Field, Note, Prelude};
use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -i` output? `Yes` when the first data line is `driver:` and `bus-info:`
/// follows.
pub fn sniff_driver(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Driver)
}

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
