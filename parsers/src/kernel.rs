//! Kernel state: `/proc/cmdline`, `/proc/sys/kernel/tainted`, `modinfo` and `dmesg`.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
//!
//! `/proc/cmdline` is one line of space-separated parameters; a value may be double-quoted to
//! hold spaces (`dyndbg="file x.c +p"`), and everything after a lone `--` is passed to init:
//! ```text
//! BOOT_IMAGE=/boot/vmlinuz-5.4.0-99-generic root=LABEL=cloudimg-rootfs ro console=tty1 console=ttyS0
//! ```
//!
//! `/proc/sys/kernel/tainted` is one decimal number whose bits are decoded with the table of
//! `Documentation/admin-guide/tainted-kernels.rst` (`4097` = `P` proprietary module + `O`
//! out-of-tree module).
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
//!
//! `dmesg` (util-linux): one message per line, with a `[seconds.micros]` timestamp
//! (`dmesg`), a `[Mon Nov 30 01:09:57 2026]` one (`dmesg -T`), a `<level>` prefix (`dmesg
//! -r`), or none (old captures, `/var/log/dmesg`).

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

// ---------------------------------------------------------------------------------------------
// /proc/cmdline

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
            if let Some(st) = start.take() {
                out.push(&s[st..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(&s[st..]);
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
/// has `root=`, `BOOT_IMAGE=`, `console=` or `init=`/`rdinit=`; `Unsure` for other such lines
/// with at least one `key=value`; `No` otherwise.
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
        Sniff::Unsure
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

// ---------------------------------------------------------------------------------------------
// /proc/sys/kernel/tainted

/// One taint bit that is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaintFlag {
    /// Bit number (0–63).
    pub bit: u8,
    /// The letter the kernel prints for it (`P`, `O`, `E`); `?` for a bit the table does not
    /// know.
    pub letter: char,
    /// The table's reason (`proprietary module was loaded`).
    pub reason: &'static str,
}

/// Decoded `/proc/sys/kernel/tainted`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Taint {
    /// The value as read.
    pub value: u64,
    /// The bits that are set, lowest first.
    pub flags: Vec<TaintFlag>,
    /// 1-based input line.
    pub line: usize,
}

impl Taint {
    /// The letters of the set bits, in bit order (`PO` for 4097).
    pub fn letters(&self) -> String {
        self.flags.iter().map(|f| f.letter).collect()
    }
}

/// Bit → (letter, reason), from `Documentation/admin-guide/tainted-kernels.rst`.
pub const TAINT_BITS: [(char, &str); 20] = [
    ('P', "proprietary module was loaded"),
    ('F', "module was force loaded"),
    ('S', "kernel running on an out of specification system"),
    ('R', "module was force unloaded"),
    ('M', "processor reported a Machine Check Exception (MCE)"),
    ('B', "bad page referenced or some unexpected page flags"),
    ('U', "taint requested by userspace application"),
    ('D', "kernel died recently, i.e. there was an OOPS or BUG"),
    ('A', "ACPI table overridden by user"),
    ('W', "kernel issued warning"),
    ('C', "staging driver was loaded"),
    ('I', "workaround for bug in platform firmware applied"),
    ('O', "externally-built (\"out-of-tree\") module was loaded"),
    ('E', "unsigned module was loaded"),
    ('L', "soft lockup occurred"),
    ('K', "kernel has been live patched"),
    ('X', "auxiliary taint, defined for and used by distros"),
    ('T', "kernel was built with the struct randomization plugin"),
    ('N', "an in-kernel test has been run"),
    ('J', "userspace used a mutating debug operation in fwctl"),
];

/// Decodes a taint value into its set bits.
pub fn decode_taint(value: u64) -> Vec<TaintFlag> {
    (0..64u8)
        .filter(|b| value >> b & 1 == 1)
        .map(|bit| {
            let (letter, reason) = TAINT_BITS
                .get(usize::from(bit))
                .copied()
                .unwrap_or(('?', "bit not in the kernel's taint table"));
            TaintFlag {
                bit,
                letter,
                reason,
            }
        })
        .collect()
}

/// Is this `/proc/sys/kernel/tainted`? A lone integer cannot be told apart from other
/// one-number files (`/proc/sys/vm/swappiness`), so the answer is at best `Unsure`; the
/// artifact's path must decide. `No` for anything but one unsigned integer.
pub fn sniff_tainted(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match (lines.next(), lines.next()) {
        (Some((l, _)), None) if l.trim().parse::<u64>().is_ok() => Sniff::Unsure,
        _ => Sniff::No,
    }
}

/// Parses `/proc/sys/kernel/tainted`. Errors: [`ParseError::Unusable`] unless the first
/// non-blank line is an unsigned integer.
pub fn parse_tainted(text: &str) -> Result<Parsed<Taint>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let value: u64 = line.trim().parse().map_err(|_| {
        ParseError::unusable(
            Some(n),
            format!("expected one unsigned integer, found `{}`", excerpt(line)),
        )
    })?;
    let mut issues = Issues::default();
    for (m, extra) in lines {
        issues.push(m, || {
            format!("expected one line; ignored `{}`", excerpt(extra))
        });
    }
    Ok(Parsed {
        value: Taint {
            value,
            flags: decode_taint(value),
            line: n,
        },
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// modinfo

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
                        Some(body) => match body.rfind('(') {
                            Some(open) => (body[..open].trim(), Some(body[open + 1..].to_string())),
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

// ---------------------------------------------------------------------------------------------
// dmesg

/// One kernel log line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DmesgLine {
    /// Seconds since boot from `[    8.687252]`; `None` without one.
    pub timestamp: Option<f64>,
    /// Wall-clock time as printed by `dmesg -T` (`Mon Nov 30 01:09:57 2026`).
    pub time: Option<String>,
    /// Log level from a `<6>` prefix (`dmesg -r`): 0 emergency … 7 debug; facility bits
    /// removed.
    pub level: Option<u8>,
    /// The message after the prefixes.
    pub message: String,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `dmesg`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Dmesg {
    /// Messages in input order.
    pub lines: Vec<DmesgLine>,
}

impl Dmesg {
    /// Messages containing `needle`.
    pub fn find<'a>(&'a self, needle: &'a str) -> impl Iterator<Item = &'a DmesgLine> + 'a {
        self.lines
            .iter()
            .filter(move |l| l.message.contains(needle))
    }
}

/// `[    8.687252]` → seconds.
fn monotonic_stamp(s: &str) -> Option<(f64, &str)> {
    let rest = s.strip_prefix('[')?;
    let (inner, after) = rest.split_once(']')?;
    let t = inner.trim_start();
    let (secs, micros) = t.split_once('.')?;
    if secs.is_empty()
        || micros.is_empty()
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || !micros.bytes().all(|b| b.is_ascii_digit())
        || secs.len() > 12
    {
        return None;
    }
    Some((t.parse().ok()?, after))
}

/// `[Mon Nov 30 01:09:57 2026]` (dmesg -T).
fn wall_stamp(s: &str) -> Option<(&str, &str)> {
    let rest = s.strip_prefix('[')?;
    let (inner, after) = rest.split_once(']')?;
    let toks: Vec<&str> = inner.split_ascii_whitespace().collect();
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    (toks.len() == 5 && DAYS.contains(&toks[0]) && toks[3].matches(':').count() == 2)
        .then_some((inner, after))
}

/// `<6>` level prefix.
fn level_prefix(s: &str) -> Option<(u8, &str)> {
    let rest = s.strip_prefix('<')?;
    let (num, after) = rest.split_once('>')?;
    if num.is_empty() || num.len() > 4 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(((num.parse::<u16>().ok()? & 7) as u8, after))
}

fn dmesg_line(line: &str, n: usize) -> DmesgLine {
    let (level, rest) = match level_prefix(line) {
        Some((l, r)) => (Some(l), r),
        None => (None, line),
    };
    let (timestamp, time, rest) = if let Some((t, r)) = monotonic_stamp(rest) {
        (Some(t), None, r)
    } else if let Some((t, r)) = wall_stamp(rest) {
        (None, Some(t.to_string()), r)
    } else {
        (None, None, rest)
    };
    // One space separates a prefix from the message; unprefixed lines keep their indentation.
    let message = if timestamp.is_some() || time.is_some() || level.is_some() {
        rest.strip_prefix(' ').unwrap_or(rest)
    } else {
        rest
    };
    DmesgLine {
        timestamp,
        time,
        level,
        message: message.to_string(),
        line: n,
    }
}

/// Is this `dmesg` output? `Yes` when a complete line of the head starts with a dmesg timestamp
/// (`[    0.000000] `, `[Mon Nov 30 01:09:57 2026] `, optionally after `<6>`); `No` otherwise.
pub fn sniff_dmesg(head: &str) -> Sniff {
    let stamped = head_lines(head).filter(|(_, c)| *c).any(|(l, _)| {
        let rest = level_prefix(l).map_or(l, |(_, r)| r);
        monotonic_stamp(rest).is_some_and(|(_, after)| after.starts_with(' '))
            || wall_stamp(rest).is_some_and(|(_, after)| after.starts_with(' '))
    });
    if stamped {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `dmesg` output. Every non-blank line is a message; lines without a timestamp are
/// kept with `timestamp: None`.
///
/// Errors: [`ParseError::Unusable`] when the input is empty.
pub fn parse_dmesg(text: &str) -> Result<Parsed<Dmesg>, ParseError> {
    let lines: Vec<DmesgLine> = numbered_lines(strip_bom(text))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| dmesg_line(l, n))
        .collect();
    if lines.is_empty() {
        return Err(ParseError::unusable(None, "input is empty"));
    }
    Ok(Parsed::clean(Dmesg { lines }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taint_letters() {
        let t = decode_taint(4097);
        assert_eq!(
            t.iter().map(|f| f.letter).collect::<String>(),
            "PO".to_string()
        );
        assert_eq!(decode_taint(0), vec![]);
        assert_eq!(decode_taint(1 << 40)[0].letter, '?');
        assert_eq!(decode_taint(u64::MAX).len(), 64);
    }

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
