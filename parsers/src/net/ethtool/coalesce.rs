//! `ethtool -c IFACE`: interrupt coalescing parameters.
//!
//! `Adaptive RX: off  TX: off` on one line, groups separated by blank lines:
//! ```text
//! Coalesce parameters for eth2:
//! Adaptive RX: off  TX: off
//! rx-usecs: 20
//! tx-frame-high: n/a
//! ```

use super::{
    after_header, on_off, parse_u64_reading, sniff_kind, split_kv, EthtoolKind, Note, Prelude,
    Reading, COALESCE_HEADER,
};
use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -c` output? `Yes` on a `Coalesce parameters for IFACE:` header.
pub fn sniff_coalesce(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Coalesce)
}

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
