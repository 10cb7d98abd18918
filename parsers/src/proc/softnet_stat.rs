//! `/proc/net/softnet_stat`: the network receive path's per-CPU counters since boot.
//!
//! Format, as the kernel prints it (`softnet_seq_show` in `net/core/net-procfs.c`): one line
//! per online CPU, each field an unsigned 32-bit counter printed as exactly eight hexadecimal
//! digits (`%08x`), separated by one space. The first three fields are stable since Linux 2.6:
//! `processed` (packets taken from the backlog), `dropped` (packets dropped because the per-CPU
//! input queue held `net.core.netdev_max_backlog` packets) and `time_squeeze` (times
//! `net_rx_action` stopped with work left because it used up `net.core.netdev_budget` packets or
//! `netdev_budget_usecs`). Fields 4–8 are always zero, field 9 was `cpu_collision`, 10 is
//! `received_rps`, 11 `flow_limit_count` (Linux ≥ 3.11); later kernels append the backlog
//! length, the CPU's index and the input and process queue lengths. Their meanings are the
//! kernel's `Documentation/admin-guide/sysctl/net.rst` (`netdev_max_backlog`, `netdev_budget`).
//!
//! Seen with 11 fields (Ubuntu kernels in canonical/hotsos test data) and 15 fields (Linux 6.18,
//! x86_64). The counters wrap at 2³²; the file carries no time, so they count since boot (or
//! since the last wrap).
//!
//! Sample input (Linux 6.18, two CPUs):
//! ```text
//! 00000011 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
//! 00001474 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001 00000000 00000000
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Fewest fields a line has (Linux 2.6.x printed nine; every kernel since prints more).
const MIN_FIELDS: usize = 9;

/// One CPU's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftnetCpu {
    /// 1-based input line.
    pub line: usize,
    /// The row's position (0-based): the CPU, when every CPU is online (the kernel skips offline
    /// ones, so on a host with offline CPUs the position is not the CPU number).
    pub row: usize,
    /// Packets processed from the backlog.
    pub processed: u64,
    /// Packets dropped because the input queue was full (`netdev_max_backlog`).
    pub dropped: u64,
    /// Times the receive soft-IRQ ran out of budget with work left (`netdev_budget`).
    pub time_squeeze: u64,
    /// Number of fields on the line (11 on older kernels, 13–15 on newer ones).
    pub fields: usize,
}

/// The whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftnetStat {
    /// One entry per line, in input order.
    pub cpus: Vec<SoftnetCpu>,
}

impl SoftnetStat {
    /// Σ `dropped` over CPUs.
    pub fn dropped(&self) -> u64 {
        self.cpus.iter().map(|c| c.dropped).sum()
    }

    /// Σ `time_squeeze` over CPUs.
    pub fn time_squeeze(&self) -> u64 {
        self.cpus.iter().map(|c| c.time_squeeze).sum()
    }
}

/// The fields of a line when every one is exactly eight hex digits and there are enough of them.
fn fields(line: &str) -> Option<Vec<u64>> {
    let toks: Vec<&str> = line.split(' ').filter(|t| !t.is_empty()).collect();
    if toks.len() < MIN_FIELDS {
        return None;
    }
    toks.iter()
        .map(|t| {
            (t.len() == 8 && t.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u64::from_str_radix(t, 16).ok())
                .flatten()
        })
        .collect()
}

/// A softnet_stat file?
///
/// `Yes` when every complete non-blank line of the head has at least nine fields of exactly
/// eight hexadecimal digits and they all have the same number of fields (the one CPU of a
/// single-CPU host included: nine or more `%08x` fields in a row is a shape no other text
/// has); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut width = None;
    let mut seen = 0;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() || !complete {
            continue;
        }
        let Some(f) = fields(line) else {
            return Sniff::No;
        };
        if *width.get_or_insert(f.len()) != f.len() {
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

/// Parses `/proc/net/softnet_stat`.
///
/// Errors: [`ParseError::Unusable`] when no line has the shape (an empty file included).
/// Lines of another shape become issues.
pub fn parse(text: &str) -> Result<Parsed<SoftnetStat>, ParseError> {
    let mut issues = Issues::default();
    let mut cpus = Vec::new();
    let mut first_bad = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match fields(line) {
            Some(f) => cpus.push(SoftnetCpu {
                line: n,
                row: cpus.len(),
                processed: f[0],
                dropped: f[1],
                time_squeeze: f[2],
                fields: f.len(),
            }),
            None => {
                first_bad.get_or_insert(n);
                issues.push(n, || {
                    format!(
                        "expected at least {MIN_FIELDS} eight-digit hexadecimal counters, found `{}`",
                        excerpt(line)
                    )
                });
            }
        }
    }
    if cpus.is_empty() {
        return Err(ParseError::unusable(
            first_bad,
            "no line of eight-digit hexadecimal counters",
        ));
    }
    Ok(Parsed {
        value: SoftnetStat { cpus },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPTURED: &str =
        include_str!("../../tests/fixtures/softnet-stat/captured-linux-6.18-x86_64.txt");
    const VAULT: &str = include_str!(
        "../../tests/fixtures/softnet-stat/hotsos__vault-proc-282492-net-softnet_stat.txt"
    );

    #[test]
    fn captured_on_linux_6_18_has_fifteen_fields() {
        let p = parse(CAPTURED).unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(p.value.cpus.len(), 2);
        assert_eq!(p.value.cpus[0].fields, 15);
        assert_eq!(p.value.cpus[0].processed, 0x11);
        assert_eq!(p.value.cpus[1].processed, 0x1474);
        assert_eq!(p.value.dropped(), 0);
        assert_eq!(sniff(CAPTURED), Sniff::Yes);
    }

    #[test]
    fn eleven_field_lines_with_time_squeeze() {
        let p = parse(VAULT).unwrap();
        assert_eq!(p.value.cpus[0].fields, 11);
        assert_eq!(p.value.cpus[0].processed, 0x04ae30cc);
        assert_eq!(p.value.cpus[0].time_squeeze, 0x28);
        assert_eq!(p.value.cpus[1].time_squeeze, 0x55);
        assert_eq!(p.value.time_squeeze(), 0x28 + 0x55);
        assert_eq!(p.value.dropped(), 0);
    }

    #[test]
    fn other_text_is_not_softnet_stat() {
        assert_eq!(sniff("12345\n"), Sniff::No);
        assert_eq!(sniff("00000001 00000002 00000003\n"), Sniff::No);
        assert_eq!(sniff(""), Sniff::No);
        assert!(parse("hello\n").is_err());
        let p = parse(&format!("{CAPTURED}garbage line\n")).unwrap();
        assert_eq!(p.issues.len(), 1);
        assert_eq!(p.issues[0].line, 3);
    }
}
