//! `modinfo`: what a kernel module file declares (version, license, parameters, signature).
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! `modinfo` (kmod 30) prints `key:` padded to 16 columns, then the value; `signature:`
//! continues on tab-indented lines; several modules are simply concatenated, and a built-in
//! module starts with `name:` and has `filename: (builtin)`:
//! ```text
//! filename:       /lib/modules/6.1.0-57-cloud-amd64/kernel/drivers/net/vmxnet3/vmxnet3.ko
//! version:        1.7.0.0-k
//! license:        GPL v2
//! description:    VMware vmxnet3 virtual NIC driver
//! depends:
//! retpoline:      Y
//! intree:         Y
//! name:           vmxnet3
//! vermagic:       6.1.0-57-cloud-amd64 SMP preempt mod_unload modversions
//! signature:      C7:E0:A2:45:72:FD:E8:F0:AF:CB:74:22:F6:E4:E6:7C:B3:87:EA:65:
//!                 74:BC:92:9B:CA:50:B0:1D:96:58:03:90:67:A2:FF:B3:25:6E:68:C7:
//! parm:           max_bonds:Max number of bonded devices (int)
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A module parameter (`parm:` line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModParam {
    /// Parameter name (`max_bonds`).
    pub name: String,
    /// Description without the type (`Max number of bonded devices`).
    pub description: String,
    /// Type from the trailing parentheses (`int`, `charp`, `uint`), when printed.
    pub kind: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// One module of `modinfo` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ModInfo {
    /// `filename` (`(builtin)` for a built-in module).
    pub filename: Option<String>,
    /// `name`.
    pub name: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `license`.
    pub license: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `author` lines.
    pub authors: Vec<String>,
    /// `srcversion`.
    pub srcversion: Option<String>,
    /// `alias` lines.
    pub aliases: Vec<String>,
    /// `depends`, split on commas (empty when printed empty).
    pub depends: Vec<String>,
    /// `retpoline` (`Y`).
    pub retpoline: Option<bool>,
    /// `intree` (`Y` for modules built with the kernel tree; absent for out-of-tree ones).
    pub intree: Option<bool>,
    /// `vermagic`.
    pub vermagic: Option<String>,
    /// `signer`.
    pub signer: Option<String>,
    /// `sig_key`.
    pub sig_key: Option<String>,
    /// `sig_hashalgo`.
    pub sig_hashalgo: Option<String>,
    /// `signature`, all continuation lines joined without whitespace.
    pub signature: Option<String>,
    /// `parm` lines.
    pub params: Vec<ModParam>,
    /// Every `key: value` line as printed (continuations joined), in input order.
    pub fields: Vec<(String, String, usize)>,
    /// 1-based line where this module's block starts.
    pub line: usize,
}

impl ModInfo {
    /// Whether the module is built-in (`filename: (builtin)`).
    pub fn is_builtin(&self) -> bool {
        self.filename.as_deref() == Some("(builtin)")
    }

    /// A field's value by key (first occurrence).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v.as_str())
    }
}

/// `key:   value` of modinfo; keys are lower-case identifiers.
fn modinfo_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    (!k.is_empty()
        && k.len() <= 32
        && k.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
    .then_some((k, v.trim()))
}

/// Is this `modinfo` output? `Yes` when the first non-blank line is `filename:` or `name:` and
/// a `vermagic:`, `license:`, `depends:` or `intree:` line follows in the head; `No`
/// otherwise.
pub fn sniff_modinfo(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next().and_then(|(l, _)| modinfo_kv(l)) {
        Some(("filename" | "name", v)) if !v.is_empty() => {}
        _ => return Sniff::No,
    }
    for (l, _) in lines {
        if let Some((k, _)) = modinfo_kv(l) {
            if matches!(
                k,
                "vermagic" | "license" | "depends" | "intree" | "srcversion"
            ) {
                return Sniff::Yes;
            }
        }
    }
    Sniff::No
}

/// Parses `modinfo` output for one or several modules.
///
/// Errors: [`ParseError::Unusable`] when no `filename:` or `name:` line is found. A line that is
/// neither `key: value` nor a tab-indented continuation is an issue.
pub fn parse_modinfo(text: &str) -> Result<Parsed<Vec<ModInfo>>, ParseError> {
    let mut out: Vec<ModInfo> = Vec::new();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            // Continuation of the previous value (the signature's hex lines).
            match out.last_mut().and_then(|m| m.fields.last_mut()) {
                Some((_, v, _)) => v.push_str(line.trim()),
                None => issues.push(n, || {
                    format!(
                        "continuation line before any `key:` line: `{}`",
                        excerpt(line)
                    )
                }),
            }
            continue;
        }
        let Some((key, value)) = modinfo_kv(line) else {
            issues.push(n, || {
                format!("expected `key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let starts_new = match out.last() {
            None => true,
            Some(m) => match key {
                "filename" => m.filename.is_some(),
                "name" => m.name.is_some(),
                _ => false,
            },
        };
        if starts_new {
            if !matches!(key, "filename" | "name") {
                issues.push(n, || {
                    format!("`{key}:` before any `filename:` or `name:` line")
                });
                continue;
            }
            out.push(ModInfo {
                line: n,
                ..Default::default()
            });
        }
        let Some(m) = out.last_mut() else { continue };
        match key {
            "filename" => m.filename = Some(value.to_string()),
            "name" => m.name = Some(value.to_string()),
            _ => {}
        }
        m.fields.push((key.to_string(), value.to_string(), n));
    }
    if out.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `filename:` or `name:` line (expected modinfo output)".to_string()
            },
        ));
    }
    for m in &mut out {
        let fields = std::mem::take(&mut m.fields);
        for (key, value, line) in &fields {
            let v = value.as_str();
            let opt = || (!v.is_empty()).then(|| v.to_string());
            match key.as_str() {
                "version" => m.version = opt(),
                "license" => m.license = opt(),
                "description" => m.description = opt(),
                "author" => m.authors.push(v.to_string()),
                "srcversion" => m.srcversion = opt(),
                "alias" => m.aliases.push(v.to_string()),
                "depends" => {
                    m.depends = v
                        .split(',')
                        .filter(|d| !d.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                "retpoline" => m.retpoline = Some(v == "Y"),
                "intree" => m.intree = Some(v == "Y"),
                "vermagic" => m.vermagic = opt(),
                "signer" => m.signer = opt(),
                "sig_key" => m.sig_key = opt(),
                "sig_hashalgo" => m.sig_hashalgo = opt(),
                "signature" => m.signature = opt(),
                "parm" => {
                    let (name, rest) = v.split_once(':').unwrap_or((v, ""));
                    let rest = rest.trim();
                    let (description, kind) = match rest.strip_suffix(')') {
                        Some(body) => match body.rsplit_once('(') {
                            Some((desc, kind)) => (desc.trim(), Some(kind.to_string())),
                            None => (rest, None),
                        },
                        None => (rest, None),
                    };
                    m.params.push(ModParam {
                        name: name.trim().to_string(),
                        description: description.to_string(),
                        kind,
                        line: *line,
                    });
                }
                _ => {}
            }
        }
        m.fields = fields;
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
