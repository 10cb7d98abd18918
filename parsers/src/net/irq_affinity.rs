//! IRQ affinity listing written by `collector.sh`, and the kernel's CPU-list syntax.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
//!
//! One line per IRQ action (an IRQ shared by several handlers has several lines), tab-separated:
//! the IRQ number, the contents of `/proc/irq/N/smp_affinity_list` (a CPU list, or `?` when
//! the collector could not read it) and the action name (the handler directory under
//! `/proc/irq/N/`):
//! ```text
//! 38      0-1     virtio2-input.0
//! 45      0-3,8   mlx5_comp0@pci:0000:3b:00.0
//! ```
//!
//! A CPU list (`Documentation/admin-guide/kernel-parameters.rst`, "cpu lists") is a comma
//! separated list of CPU numbers and ranges: `0-3,8,10-11`; ranges may carry a stride
//! (`0-9:2`, every second CPU, as the kernel's `bitmap_parselist` accepts). [`parse_cpu_list`]
//! expands one, refusing more than [`MAX_CPUS`] CPUs so that `0-4294967295` cannot allocate
//! gigabytes.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Largest number of CPUs a list may expand to (the kernel's `NR_CPUS` maximum is 8192 on
/// x86_64; 65 536 leaves room for any real machine).
pub const MAX_CPUS: usize = 65_536;

/// Expands a CPU list (`0-3,8,10-11` → `[0, 1, 2, 3, 8, 10, 11]`), sorted and without
/// duplicates. An empty list (an IRQ with no CPU) is an empty vector.
///
/// Errors (in words fit for an issue): a malformed element, a range running backwards, or a
/// list of more than [`MAX_CPUS`] CPUs. Runs in time proportional to the number of CPUs
/// listed, which is bounded.
pub fn parse_cpu_list(s: &str) -> Result<Vec<u32>, String> {
    let s = s.trim();
    let mut out: Vec<u32> = Vec::new();
    if s.is_empty() {
        return Ok(out);
    }
    let num = |t: &str| -> Result<u32, String> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{}` is not a CPU number", excerpt(t)));
        }
        t.parse::<u32>()
            .map_err(|_| format!("CPU number `{}` is too large", excerpt(t)))
    };
    for part in s.split(',') {
        let part = part.trim();
        let (range, stride) = match part.split_once(':') {
            Some((r, st)) => {
                // `0-9:2` (every 2nd) and the kernel's `0-9:2/4` group syntax, of which only
                // the used count is honoured.
                let used = st.split('/').next().unwrap_or(st);
                (r, num(used)?.max(1))
            }
            None => (part, 1),
        };
        let (lo, hi) = match range.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => {
                let v = num(range)?;
                (v, v)
            }
        };
        if hi < lo {
            return Err(format!("range `{}` runs backwards", excerpt(part)));
        }
        let count = (u64::from(hi - lo) / u64::from(stride)) + 1;
        if count + out.len() as u64 > MAX_CPUS as u64 {
            return Err(format!(
                "`{}` lists more than {MAX_CPUS} CPUs; refused",
                excerpt(part)
            ));
        }
        let mut c = lo;
        loop {
            out.push(c);
            match c.checked_add(stride) {
                Some(next) if next <= hi => c = next,
                _ => break,
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// One IRQ of the listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IrqEntry {
    /// IRQ number.
    pub irq: u32,
    /// `smp_affinity_list` as printed (`0-3,8`).
    pub cpu_list: String,
    /// The expanded CPU list; empty when the list could not be read (an issue says why).
    pub cpus: Vec<u32>,
    /// Action name (`mlx5_comp0@pci:0000:3b:00.0`, `virtio2-input.0`); empty when none.
    pub name: String,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed IRQ affinity listing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct IrqAffinity {
    /// IRQs in input order.
    pub irqs: Vec<IrqEntry>,
}

impl IrqAffinity {
    /// IRQs whose name contains `part` (`virtio2-input`, `eth0`, `mlx5_comp`).
    pub fn named<'a>(&'a self, part: &'a str) -> impl Iterator<Item = &'a IrqEntry> + 'a {
        self.irqs.iter().filter(move |e| e.name.contains(part))
    }

    /// The distinct CPUs that IRQs whose name contains `part` may run on, sorted.
    pub fn cpus_for(&self, part: &str) -> Vec<u32> {
        let mut cpus: Vec<u32> = self
            .named(part)
            .flat_map(|e| e.cpus.iter().copied())
            .collect();
        cpus.sort_unstable();
        cpus.dedup();
        cpus
    }
}

/// `N<TAB>list<TAB>name`.
fn entry(line: &str, n: usize) -> Result<IrqEntry, String> {
    let mut parts = line.splitn(3, '\t');
    let (Some(irq), Some(list)) = (parts.next(), parts.next()) else {
        return Err(format!(
            "expected `IRQ<TAB>CPU-list<TAB>name`, found `{}`",
            excerpt(line)
        ));
    };
    let irq: u32 = irq
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not an IRQ number", excerpt(irq)))?;
    let name = parts.next().unwrap_or("").trim().to_string();
    Ok(IrqEntry {
        irq,
        cpu_list: list.trim().to_string(),
        cpus: Vec::new(),
        name,
        line: n,
    })
}

/// Is this the IRQ affinity listing? `Yes` when every complete non-blank line of the head is
/// `N<TAB>CPU-list<TAB>name` with a valid CPU list and an action name that is not a number, and
/// one name at least is there; `No` otherwise: tab-separated numbers alone
/// (`/proc/sys/net/ipv4/tcp_rmem`, `/proc/sys/kernel/printk`, `/proc/sys/fs/file-nr`) are other
/// files.
pub fn sniff(head: &str) -> Sniff {
    let mut named_lines = 0;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        let valid_list = |l: &str| {
            l == "?"
                || (!l.is_empty()
                    && l.bytes()
                        .all(|b| b.is_ascii_digit() || matches!(b, b',' | b'-' | b':' | b'/')))
        };
        let e = entry(line, 0)
            .ok()
            .filter(|e| line.matches('\t').count() == 2 && valid_list(&e.cpu_list));
        match e {
            Some(e) if e.name.bytes().any(|b| !b.is_ascii_digit()) => named_lines += 1,
            Some(e) if e.name.is_empty() => {}
            _ if complete => return Sniff::No,
            _ => {}
        }
    }
    if named_lines > 0 {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the IRQ affinity listing.
///
/// Errors: [`ParseError::Unusable`] when no line has the `IRQ<TAB>list<TAB>name` layout with a
/// readable CPU list. A bad CPU list keeps the entry with no CPUs and an issue.
pub fn parse(text: &str) -> Result<Parsed<IrqAffinity>, ParseError> {
    let mut out = IrqAffinity::default();
    let mut issues = Issues::default();
    let mut readable = 0;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match entry(line, n) {
            Ok(mut e) => {
                if e.cpu_list == "?" {
                    issues.push(n, || {
                        format!(
                            "IRQ {}: the collector could not read its smp_affinity_list (`?`)",
                            e.irq
                        )
                    });
                } else {
                    match parse_cpu_list(&e.cpu_list) {
                        Ok(c) => {
                            e.cpus = c;
                            readable += 1;
                        }
                        Err(msg) => issues.push(n, || format!("IRQ {}: {msg}", e.irq)),
                    }
                }
                out.irqs.push(e);
            }
            Err(msg) => issues.push(n, || msg),
        }
    }
    if readable == 0 {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `IRQ<TAB>CPU-list<TAB>name` line with a readable CPU list".to_string()
            },
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
    fn cpu_lists() {
        assert_eq!(
            parse_cpu_list("0-3,8,10-11"),
            Ok(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_cpu_list("3,1,1"), Ok(vec![1, 3]));
        assert_eq!(parse_cpu_list(""), Ok(vec![]));
        assert_eq!(parse_cpu_list("0-9:3"), Ok(vec![0, 3, 6, 9]));
        assert!(parse_cpu_list("0-4294967295")
            .unwrap_err()
            .contains("more than 65536"));
        assert!(parse_cpu_list("0-65535").is_ok());
        assert!(parse_cpu_list("0-65535,70000").is_err());
        assert!(parse_cpu_list("4294967295").is_ok());
        assert!(parse_cpu_list("4294967296")
            .unwrap_err()
            .contains("too large"));
        assert!(parse_cpu_list("3-1").unwrap_err().contains("backwards"));
        assert!(parse_cpu_list("a-b").is_err());
        assert!(parse_cpu_list("1,,2").is_err());
        assert_eq!(
            parse_cpu_list("4294967290-4294967295:4"),
            Ok(vec![4294967290, 4294967294])
        );
    }
}
