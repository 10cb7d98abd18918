//! `ethtool -T IFACE`: time stamping capabilities and the PTP hardware clock.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! ethtool 6.1, virtio_net:
//! ```text
//! Time stamping parameters for eth0:
//! Capabilities:
//!         software-transmit
//!         software-receive
//!         software-system-clock
//! PTP Hardware Clock: none
//! Hardware Transmit Timestamp Modes: none
//! Hardware Receive Filter Modes: none
//! ```

use super::{
    after_header, opt_value, sniff_kind, split_kv, EthtoolKind, Note, Prelude, Reading,
    TIMESTAMPING_HEADER,
};
use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -T` output? `Yes` on a `Time stamping parameters for IFACE:` header.
pub fn sniff_timestamping(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Timestamping)
}

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
