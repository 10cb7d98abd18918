//! `/proc/cmdline`: the parameters the running kernel was booted with.
//!
//! One line of space-separated parameters; a value may be double-quoted to hold spaces
//! (`dyndbg="file x.c +p"`), and everything after a lone `--` is passed to init:
//! ```text
//! BOOT_IMAGE=/boot/vmlinuz-5.4.0-99-generic root=LABEL=cloudimg-rootfs ro console=tty1 console=ttyS0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One kernel parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Param {
    /// Name (`console`, `mitigations`, `ro`).
    pub key: String,
    /// Value after the first `=`, with surrounding double quotes removed; `None` for a flag.
    pub value: Option<String>,
}

/// Parsed `/proc/cmdline`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Cmdline {
    /// Parameters before `--`, in order (a key may repeat: `console=tty1 console=ttyS0`).
    pub params: Vec<Param>,
    /// Arguments after `--`, passed to init.
    pub init_args: Vec<String>,
    /// 1-based line of the command line.
    pub line: usize,
}

impl Cmdline {
    /// The last value of `key` (the one the kernel uses for most parameters).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|p| p.key == key)
            .and_then(|p| p.value.as_deref())
    }

    /// Whether `key` is present, with or without a value.
    pub fn has(&self, key: &str) -> bool {
        self.params.iter().any(|p| p.key == key)
    }

    /// Every value of `key`, in order (`console`).
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.params
            .iter()
            .filter(move |p| p.key == key)
            .filter_map(|p| p.value.as_deref())
    }
}

/// Splits a command line like the kernel's `next_arg`: spaces separate words except inside
/// double quotes.
fn cmdline_words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        if c.is_whitespace() && !quoted {
            if let Some(word) = start.take().and_then(|st| s.get(st..i)) {
                out.push(word);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(word) = start.and_then(|st| s.get(st..)) {
        out.push(word);
    }
    out
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(s)
}

fn is_param_word(w: &str) -> bool {
    let w = unquote(w);
    let key = w.split('=').next().unwrap_or("");
    let key = key.strip_prefix('"').unwrap_or(key);
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b','))
}

/// Is this `/proc/cmdline`? `Yes` for a single line whose words are all `key[=value]` and which
/// has `root=`, `BOOT_IMAGE=`, `console=` or `init=`/`rdinit=`; `No` otherwise: other lines of
/// `key=value` words (`id`'s `uid=… gid=…`, a shell assignment) are not a kernel command line.
pub fn sniff_cmdline(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((line, _)) = lines.next() else {
        return Sniff::No;
    };
    if lines.next().is_some() {
        return Sniff::No;
    }
    let words = cmdline_words(line);
    let params: Vec<&str> = words.iter().copied().take_while(|w| *w != "--").collect();
    if params.len() < 2 || !params.iter().all(|w| is_param_word(w)) {
        return Sniff::No;
    }
    if !params.iter().any(|w| w.contains('=')) {
        return Sniff::No;
    }
    let marker = params.iter().any(|w| {
        ["root=", "BOOT_IMAGE=", "console=", "init=", "rdinit="]
            .iter()
            .any(|m| w.starts_with(m))
    });
    if marker {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/cmdline`. Errors: [`ParseError::Unusable`] when empty.
pub fn parse_cmdline(text: &str) -> Result<Parsed<Cmdline>, ParseError> {
    let mut issues = Issues::default();
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    for (m, extra) in lines {
        issues.push(m, || {
            format!(
                "`/proc/cmdline` is one line; ignored another line `{}`",
                excerpt(extra)
            )
        });
    }
    let mut out = Cmdline {
        line: n,
        ..Default::default()
    };
    let mut after = false;
    for w in cmdline_words(line) {
        if after {
            out.init_args.push(w.to_string());
            continue;
        }
        if w == "--" {
            after = true;
            continue;
        }
        if !is_param_word(w) {
            issues.push(n, || {
                format!("`{}` is not a `key[=value]` parameter", excerpt(w))
            });
        }
        let w = if w.starts_with('"') && w.ends_with('"') && w.len() >= 2 {
            unquote(w)
        } else {
            w
        };
        let (key, value) = match w.split_once('=') {
            Some((k, v)) => (k, Some(unquote(v).to_string())),
            None => (w, None),
        };
        out.params.push(Param {
            key: key.to_string(),
            value,
        });
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
    fn cmdline_quotes() {
        let p = parse_cmdline("root=/dev/sda1 dyndbg=\"file x.c +p\" \"quiet\" -- a b\n").unwrap();
        let c = p.value;
        assert_eq!(c.get("dyndbg"), Some("file x.c +p"));
        assert!(c.has("quiet"));
        assert_eq!(c.init_args, ["a", "b"]);
        assert!(p.issues.is_empty());
    }
}
