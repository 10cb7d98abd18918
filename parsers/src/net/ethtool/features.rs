//! `ethtool -k IFACE`: offload features, whether each is on and whether it can be changed.
//!
//! ```text
//! Features for bond0:
//! rx-checksumming: off [fixed]
//! tx-checksumming: on
//!     tx-checksum-ipv4: off [fixed]
//! generic-segmentation-offload: off [requested on]
//! ```

use super::{
    after_header, on_off, sniff_kind, split_kv, EthtoolKind, Note, Prelude, FEATURES_HEADER,
};
use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// Is this `ethtool -k` output? `Yes` on a `Features for IFACE:` header.
pub fn sniff_features(head: &str) -> Sniff {
    sniff_kind(head, EthtoolKind::Features)
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
