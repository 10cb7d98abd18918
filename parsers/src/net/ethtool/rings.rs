//! `ethtool -g IFACE`: ring buffer sizes, their maximum and current setting.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! The same two sections as `ethtool -l`, with `RX`, `RX Mini`, `RX Jumbo`, `TX` rows; ethtool 6
//! adds `RX Buf Len`, `CQE Size`, `TX Push`, `TCP data split` rows to the current settings
//! (ethtool 6.1, virtio_net):
//! ```text
//! Ring parameters for eth0:
//! Pre-set maximums:
//! RX:             256
//! RX Mini:        n/a
//! RX Jumbo:       n/a
//! TX:             256
//! Current hardware settings:
//! RX:             256
//! RX Mini:        n/a
//! RX Jumbo:       n/a
//! TX:             256
//! RX Buf Len:             n/a
//! ```

use super::{
    after_header, opt_value, parse_u64_reading, sniff_kind, two_sections, EthtoolKind, Field, Note,
    Prelude, Reading, Section, RINGS_HEADER,
};
use crate::common::{Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -g` output? `Yes` on a `Ring parameters for IFACE:` header.
pub fn sniff_rings(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Rings)
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
