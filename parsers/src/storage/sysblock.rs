//! The collector's listings of `/sys/block`: queue attributes and `slaves/` folders.
//!
//! Queue attributes come as `grep -H . /sys/block/*/queue/rotational …` prints them, one
//! `PATH:VALUE` line per file (`/sys/block/sda/queue/rotational:1`). The files are the kernel's
//! (`Documentation/ABI/stable/sysfs-block`, "queue/rotational", "queue/scheduler",
//! "queue/nr_requests"): `rotational` is 1 for a spinning disk and 0 for SSD/NVMe (virtual disks
//! report what the hypervisor says, often 1), `scheduler` lists the available schedulers with
//! the active one in brackets (`none [mq-deadline] kyber bfq`), `nr_requests` is the queue depth
//! the block layer allows. A file that cannot be read prints nothing, so its line is missing.
//!
//! Slaves come as `ls -1 /sys/block/*/slaves` prints them: a `FOLDER:` line, the names of the
//! devices under it one per line (the devices a device-mapper or md device is built on), and a
//! blank line. A folder with no slaves prints its line alone.
//!
//! Either listing may carry a prefix before `/sys/block/` (the collector's test root). Seen on
//! Linux 6.18 (Debian 12, GNU grep 3.8, coreutils `ls` 9.1).
//!
//! Sample input (queue attributes, Linux 6.18):
//! ```text
//! /sys/block/vda/queue/rotational:1
//! /sys/block/vda/queue/scheduler:none [mq-deadline] kyber bfq
//! /sys/block/vda/queue/nr_requests:256
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// What the `/sys/block` listings say about each device.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SysBlock {
    /// Queue attributes, in input order.
    pub queue: Vec<QueueAttr>,
    /// `(device, slave)` pairs: `slave` is a device `device` is built on.
    pub slaves: Vec<Slave>,
    /// Devices whose `slaves/` folder was listed (empty or not).
    pub listed: Vec<String>,
}

/// One `queue/<attr>` file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueAttr {
    /// 1-based input line.
    pub line: usize,
    /// Kernel device name (`sda`, `dm-0`, `nvme0n1`).
    pub device: String,
    /// File name under `queue/` (`rotational`, `scheduler`, `nr_requests`).
    pub attr: String,
    /// The file's content, trimmed.
    pub value: String,
}

/// One entry of a `slaves/` folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slave {
    /// 1-based input line.
    pub line: usize,
    /// The stacked device (`dm-0`, `md0`).
    pub device: String,
    /// A device under it (`sda`, `sdb1`).
    pub slave: String,
}

impl QueueAttr {
    /// `rotational`: `Some(true)` for 1, `Some(false)` for 0.
    pub fn rotational(&self) -> Option<bool> {
        if self.attr != "rotational" {
            return None;
        }
        match self.value.as_str() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }

    /// `scheduler`: the active scheduler (the bracketed word), if any.
    pub fn active_scheduler(&self) -> Option<&str> {
        if self.attr != "scheduler" {
            return None;
        }
        let (_, rest) = self.value.split_once('[')?;
        rest.split_once(']').map(|(s, _)| s)
    }
}

/// A device name as the kernel writes it: letters, digits, `-`, `_`, `.`, `:` and `!`.
fn device_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':' | b'!'))
}

/// `…/sys/block/<dev>/queue/<attr>:<value>` → its parts.
fn queue_line(line: &str) -> Option<(&str, &str, &str)> {
    let (_, rest) = line.split_once("/sys/block/")?;
    let (dev, rest) = rest.split_once("/queue/")?;
    let (attr, value) = rest.split_once(':')?;
    (device_name(dev)
        && !attr.is_empty()
        && attr.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
    .then_some((dev, attr, value.trim()))
}

/// `…/sys/block/<dev>/slaves:` (or `slaves/:`) → the device.
fn slaves_header(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("/sys/block/")?;
    let rest = rest.trim_end();
    let dev = rest
        .strip_suffix("/slaves:")
        .or_else(|| rest.strip_suffix("/slaves/:"))?;
    device_name(dev).then_some(dev)
}

/// A `grep -H` listing of `/sys/block/*/queue/*`? `Yes` when every complete non-blank line of
/// the head (at least one) is a `…/sys/block/<dev>/queue/<attr>:<value>` line.
pub fn sniff_queue(head: &str) -> Sniff {
    sniff_all(head, |l| queue_line(l).is_some())
}

/// An `ls -1 /sys/block/*/slaves` listing? `Yes` when the first non-blank line is a
/// `…/sys/block/<dev>/slaves:` line.
pub fn sniff_slaves(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if !complete {
            return if line.contains("/sys/block/") {
                Sniff::Unsure
            } else {
                Sniff::No
            };
        }
        return if slaves_header(line).is_some() {
            Sniff::Yes
        } else {
            Sniff::No
        };
    }
    Sniff::No
}

fn sniff_all(head: &str, ok: impl Fn(&str) -> bool) -> Sniff {
    let mut seen = 0;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() || !complete {
            continue;
        }
        if !ok(line) {
            return Sniff::No;
        }
        seen += 1;
    }
    if seen > 0 {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the queue-attribute listing.
///
/// Errors: [`ParseError::Unusable`] when no line reads as `…/sys/block/<dev>/queue/<attr>:…`.
pub fn parse_queue(text: &str) -> Result<Parsed<SysBlock>, ParseError> {
    let mut issues = Issues::default();
    let mut out = SysBlock::default();
    for (n, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        match queue_line(line) {
            Some((device, attr, value)) => out.queue.push(QueueAttr {
                line: n,
                device: device.to_string(),
                attr: attr.to_string(),
                value: value.to_string(),
            }),
            None => issues.push(n, || {
                format!(
                    "expected `/sys/block/DEV/queue/ATTR:VALUE`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if out.queue.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `/sys/block/DEV/queue/ATTR:VALUE` line",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Parses the `slaves/` listing.
///
/// Errors: [`ParseError::Unusable`] when no `…/sys/block/<dev>/slaves:` line is found.
pub fn parse_slaves(text: &str) -> Result<Parsed<SysBlock>, ParseError> {
    let mut issues = Issues::default();
    let mut out = SysBlock::default();
    let mut current: Option<String> = None;
    for (n, line) in numbered_lines(text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(dev) = slaves_header(line) {
            out.listed.push(dev.to_string());
            current = Some(dev.to_string());
            continue;
        }
        match &current {
            Some(dev) if device_name(t) => out.slaves.push(Slave {
                line: n,
                device: dev.clone(),
                slave: t.to_string(),
            }),
            _ => issues.push(n, || {
                format!(
                    "expected a device name under a `/sys/block/DEV/slaves:` line, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if out.listed.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `/sys/block/DEV/slaves:` line",
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
    fn reads_queue_attributes_of_linux_6_18() {
        let p = parse_queue(include_str!(
            "../../tests/fixtures/sys-block-queue/grep-H-queue.linux-6.18.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let vda: Vec<_> = p.value.queue.iter().filter(|q| q.device == "vda").collect();
        assert_eq!(vda.len(), 3);
        assert_eq!(vda.iter().find_map(|q| q.rotational()), Some(true));
        assert_eq!(
            vda.iter().find_map(|q| q.active_scheduler()),
            Some("mq-deadline")
        );
        assert_eq!(
            vda.iter().find(|q| q.attr == "nr_requests").unwrap().value,
            "256"
        );
        let loop4 = p
            .value
            .queue
            .iter()
            .find(|q| q.device == "loop4" && q.attr == "rotational")
            .unwrap();
        assert_eq!(loop4.rotational(), Some(false));
    }

    #[test]
    fn reads_slaves_listing() {
        let p = parse_slaves(include_str!(
            "../../tests/fixtures/sys-block-slaves/ls-1-slaves.linux-6.18.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert!(p.value.listed.contains(&"vda".to_string()));
        assert!(
            p.value.slaves.is_empty(),
            "no stacked device on the capture host"
        );
        let p = parse_slaves("/sys/block/dm-0/slaves:\nsda2\nsdb1\n\n/sys/block/sda/slaves:\n")
            .unwrap();
        let pairs: Vec<_> = p
            .value
            .slaves
            .iter()
            .map(|s| (s.device.as_str(), s.slave.as_str()))
            .collect();
        assert_eq!(pairs, [("dm-0", "sda2"), ("dm-0", "sdb1")]);
        assert_eq!(p.value.listed, ["dm-0", "sda"]);
    }

    #[test]
    fn sniffs_by_exact_shape() {
        assert_eq!(
            sniff_queue("/sys/block/sda/queue/rotational:1\n"),
            Sniff::Yes
        );
        assert_eq!(sniff_queue("rotational:1\n"), Sniff::No);
        assert_eq!(sniff_slaves("/sys/block/sda/slaves:\n"), Sniff::Yes);
        assert_eq!(sniff_slaves("sda\n"), Sniff::No);
    }
}
