//! `ethtool -l IFACE`: the number of queues (channels), their maximum and current setting.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! ethtool 6.1, virtio_net:
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

use super::{
    after_header, parse_u64_reading, sniff_kind, two_sections, EthtoolKind, Note, Prelude, Reading,
    Section, CHANNELS_HEADER,
};
use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -l` output? `Yes` on a `Channel parameters for IFACE:` header.
pub fn sniff_channels(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Channels)
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
