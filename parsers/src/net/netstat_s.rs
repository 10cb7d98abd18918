//! `netstat -s` (net-tools): the kernel's SNMP counters rendered as sentences.
//!
//! net-tools reads `/proc/net/snmp` and `/proc/net/netstat` and prints each group as a section
//! (`Ip:`, `Icmp:`, `IcmpMsg:`, `Tcp:`, `Udp:`, `UdpLite:`, `TcpExt:`, `IpExt:`, `MPTcpExt:`)
//! of indented lines in three shapes:
//! - a sentence with the number in it, usually first: `2886201 requests sent out`,
//!   `Quick ack mode was activated 9 times`;
//! - `Name: value` for counters net-tools has no sentence for: `TCPLossProbes: 12`,
//!   `InType3: 107`, `Forwarding: 2`;
//! - ICMP histograms: a title (`ICMP input histogram:`) then `destination unreachable: 107`.
//!
//! Each line is kept as (text, number); [`NetstatEntry::key`] gives the MIB counter name when
//! it is known: the `Name:` itself, or the sentence looked up in the table of net-tools'
//! `statistics.c` (with older spellings such as `segments send out` and `segments
//! retransmited`, and trailing periods ignored). `opt_number` counters are omitted by net-tools
//! when zero, so a missing line does not mean the counter is absent; prefer `/proc/net/netstat`
//! or `nstat -az` ([`crate::proc::snmp`]) when both were collected. Sentences are translated under
//! non-C locales; their keys are then unknown.
//!
//! Sample input (net-tools 2.10):
//! ```text
//! Ip:
//!     Forwarding: 2
//!     5865 total packets received
//! Tcp:
//!     44 active connection openings
//!     0 segments retransmitted
//! TcpExt:
//!     17 TCP sockets finished time wait in fast timer
//!     Quick ack mode was activated 1 times
//!     TCPTimeouts: 2
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A whole `netstat -s` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct NetstatS {
    /// Sections in input order.
    pub sections: Vec<NetstatSection>,
}

/// One section (`Tcp:`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetstatSection {
    /// Name without the colon (`TcpExt`).
    pub name: String,
    /// 1-based input line of the section title.
    pub line: usize,
    /// Lines with a number, in input order.
    pub entries: Vec<NetstatEntry>,
}

/// One line with a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetstatEntry {
    /// The line without its number, single-spaced, without a trailing `.` or `:`
    /// (`requests sent out`, `Quick ack mode was activated times`, `TCPLossProbes`,
    /// `destination unreachable`).
    pub text: String,
    /// The number.
    pub value: u64,
    /// MIB counter name when known (`OutRequests`, `DelayedACKLost`, `TCPLossProbes`,
    /// `OutDestUnreachs`).
    pub key: Option<String>,
    /// Title of the histogram the line belongs to (`ICMP output histogram`).
    pub histogram: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

impl NetstatS {
    /// The section named `name` (`Tcp`).
    pub fn section(&self, name: &str) -> Option<&NetstatSection> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// Value of MIB counter `key` in section `section`, e.g. `get("TcpExt",
    /// "ListenOverflows")`.
    pub fn get(&self, section: &str, key: &str) -> Option<u64> {
        self.section(section)?
            .entries
            .iter()
            .find(|e| e.key.as_deref() == Some(key))
            .map(|e| e.value)
    }

    /// Value of the line whose text is `text` in section `section`, e.g. `text("Ip",
    /// "requests sent out")`.
    pub fn text(&self, section: &str, text: &str) -> Option<u64> {
        self.section(section)?
            .entries
            .iter()
            .find(|e| e.text == text)
            .map(|e| e.value)
    }
}

/// Sentences of net-tools `statistics.c` (`%llu` is the number) and their MIB names, per group:
/// the current table (net-tools 2.10) and the older one (1.60/2.0, RHEL 7: `active connections
/// openings`, `segments send out`, `segments retransmited`, `fragments received ok`, …).
/// Trailing periods are compared without.
const SENTENCES: &[(&str, &str, &str)] = &[
    ("Ip", "%llu total packets received", "InReceives"),
    ("Ip", "%llu forwarded", "ForwDatagrams"),
    ("Ip", "%llu incoming packets discarded", "InDiscards"),
    ("Ip", "%llu incoming packets delivered", "InDelivers"),
    ("Ip", "%llu requests sent out", "OutRequests"),
    ("Ip", "%llu outgoing packets dropped", "OutDiscards"),
    ("Ip", "%llu dropped because of missing route", "OutNoRoutes"),
    ("Ip", "%llu with invalid headers", "InHdrErrors"),
    ("Ip", "%llu with invalid addresses", "InAddrErrors"),
    ("Ip", "%llu with unknown protocol", "InUnknownProtos"),
    ("Ip", "%llu fragments dropped after timeout", "ReasmTimeout"),
    ("Ip", "%llu reassemblies required", "ReasmReqds"),
    ("Ip", "%llu packets reassembled ok", "ReasmOKs"),
    ("Ip", "%llu packet reassemblies failed", "ReasmFails"),
    ("Ip", "%llu packet reassembles failed", "ReasmFails"),
    ("Ip", "%llu fragments received ok", "FragOKs"),
    ("Ip", "%llu outgoing packets fragmented ok", "FragOKs"),
    ("Ip", "%llu fragments failed", "FragFails"),
    (
        "Ip",
        "%llu outgoing packets failed fragmentation",
        "FragFails",
    ),
    ("Ip", "%llu fragments created", "FragCreates"),
    ("Icmp", "%llu ICMP messages received", "InMsgs"),
    ("Icmp", "%llu input ICMP message failed", "InErrors"),
    ("Icmp", "%llu ICMP messages sent", "OutMsgs"),
    ("Icmp", "%llu ICMP messages failed", "OutErrors"),
    ("Tcp", "%llu active connections openings", "ActiveOpens"),
    ("Tcp", "%llu active connection openings", "ActiveOpens"),
    ("Tcp", "%llu passive connection openings", "PassiveOpens"),
    ("Tcp", "%llu failed connection attempts", "AttemptFails"),
    ("Tcp", "%llu connection resets received", "EstabResets"),
    ("Tcp", "%llu connections established", "CurrEstab"),
    ("Tcp", "%llu segments received", "InSegs"),
    ("Tcp", "%llu segments send out", "OutSegs"),
    ("Tcp", "%llu segments sent out", "OutSegs"),
    ("Tcp", "%llu segments retransmited", "RetransSegs"),
    ("Tcp", "%llu segments retransmitted", "RetransSegs"),
    ("Tcp", "%llu bad segments received", "InErrs"),
    ("Tcp", "%llu resets sent", "OutRsts"),
    ("Udp", "%llu packets received", "InDatagrams"),
    ("Udp", "%llu packets to unknown port received", "NoPorts"),
    ("Udp", "%llu packet receive errors", "InErrors"),
    ("Udp", "%llu packets sent", "OutDatagrams"),
    ("Udp", "%llu receive buffer errors", "RcvbufErrors"),
    ("Udp", "%llu send buffer errors", "SndbufErrors"),
    ("TcpExt", "%llu SYN cookies sent", "SyncookiesSent"),
    ("TcpExt", "%llu SYN cookies received", "SyncookiesRecv"),
    (
        "TcpExt",
        "%llu invalid SYN cookies received",
        "SyncookiesFailed",
    ),
    (
        "TcpExt",
        "%llu resets received for embryonic SYN_RECV sockets",
        "EmbryonicRsts",
    ),
    (
        "TcpExt",
        "%llu packets pruned from receive queue because of socket buffer overrun",
        "PruneCalled",
    ),
    (
        "TcpExt",
        "%llu packets pruned from receive queue",
        "RcvPruned",
    ),
    (
        "TcpExt",
        "%llu packets dropped from out-of-order queue because of socket buffer overrun",
        "OfoPruned",
    ),
    (
        "TcpExt",
        "%llu ICMP packets dropped because they were out-of-window",
        "OutOfWindowIcmps",
    ),
    (
        "TcpExt",
        "%llu ICMP packets dropped because socket was locked",
        "LockDroppedIcmps",
    ),
    (
        "TcpExt",
        "%llu TCP sockets finished time wait in fast timer",
        "TW",
    ),
    (
        "TcpExt",
        "%llu time wait sockets recycled by time stamp",
        "TWRecycled",
    ),
    (
        "TcpExt",
        "%llu TCP sockets finished time wait in slow timer",
        "TWKilled",
    ),
    (
        "TcpExt",
        "%llu passive connections rejected because of time stamp",
        "PAWSPassive",
    ),
    (
        "TcpExt",
        "%llu active connections rejected because of time stamp",
        "PAWSActive",
    ),
    (
        "TcpExt",
        "%llu packets rejects in established connections because of timestamp",
        "PAWSEstab",
    ),
    (
        "TcpExt",
        "%llu packetes rejected in established connections because of timestamp",
        "PAWSEstab",
    ),
    ("TcpExt", "%llu delayed acks sent", "DelayedACKs"),
    (
        "TcpExt",
        "%llu delayed acks further delayed because of locked socket",
        "DelayedACKLocked",
    ),
    (
        "TcpExt",
        "Quick ack mode was activated %llu times",
        "DelayedACKLost",
    ),
    (
        "TcpExt",
        "%llu times the listen queue of a socket overflowed",
        "ListenOverflows",
    ),
    (
        "TcpExt",
        "%llu SYNs to LISTEN sockets dropped",
        "ListenDrops",
    ),
    // Printed by some distributions' net-tools builds instead of "dropped".
    (
        "TcpExt",
        "%llu SYNs to LISTEN sockets ignored",
        "ListenDrops",
    ),
    (
        "TcpExt",
        "%llu packets directly queued to recvmsg prequeue",
        "TCPPrequeued",
    ),
    (
        "TcpExt",
        "%llu bytes directly in process context from backlog",
        "TCPDirectCopyFromBacklog",
    ),
    (
        "TcpExt",
        "%llu bytes directly received in process context from prequeue",
        "TCPDirectCopyFromPrequeue",
    ),
    (
        "TcpExt",
        "%llu packets dropped from prequeue",
        "TCPPrequeueDropped",
    ),
    ("TcpExt", "%llu packet headers predicted", "TCPHPHits"),
    (
        "TcpExt",
        "%llu packets header predicted and directly queued to user",
        "TCPHPHitsToUser",
    ),
    (
        "TcpExt",
        "%llu packet headers predicted and directly queued to user",
        "TCPHPHitsToUser",
    ),
    (
        "TcpExt",
        "%llu acknowledgments not containing data payload received",
        "TCPPureAcks",
    ),
    ("TcpExt", "%llu predicted acknowledgments", "TCPHPAcks"),
    (
        "TcpExt",
        "%llu times recovered from packet loss due to fast retransmit",
        "TCPRenoRecovery",
    ),
    (
        "TcpExt",
        "%llu times recovered from packet loss by selective acknowledgements",
        "TCPSackRecovery",
    ),
    ("TcpExt", "%llu bad SACK blocks received", "TCPSACKReneging"),
    (
        "TcpExt",
        "Detected reordering %llu times using FACK",
        "TCPFACKReorder",
    ),
    (
        "TcpExt",
        "Detected reordering %llu times using SACK",
        "TCPSACKReorder",
    ),
    (
        "TcpExt",
        "Detected reordering %llu times using time stamp",
        "TCPTSReorder",
    ),
    (
        "TcpExt",
        "Detected reordering %llu times using reno fast retransmit",
        "TCPRenoReorder",
    ),
    (
        "TcpExt",
        "%llu congestion windows fully recovered without slow start",
        "TCPFullUndo",
    ),
    (
        "TcpExt",
        "%llu congestion windows partially recovered using Hoe heuristic",
        "TCPPartialUndo",
    ),
    (
        "TcpExt",
        "%llu congestion windows recovered without slow start by DSACK",
        "TCPDSACKUndo",
    ),
    (
        "TcpExt",
        "%llu congestion windows recovered without slow start after partial ack",
        "TCPLossUndo",
    ),
    ("TcpExt", "%llu TCP data loss events", "TCPLoss"),
    ("TcpExt", "%llu retransmits lost", "TCPLostRetransmit"),
    (
        "TcpExt",
        "%llu timeouts after reno fast retransmit",
        "TCPRenoFailures",
    ),
    (
        "TcpExt",
        "%llu timeouts after SACK recovery",
        "TCPSackFailures",
    ),
    ("TcpExt", "%llu timeouts in loss state", "TCPLossFailures"),
    ("TcpExt", "%llu fast retransmits", "TCPFastRetrans"),
    ("TcpExt", "%llu forward retransmits", "TCPForwardRetrans"),
    (
        "TcpExt",
        "%llu retransmits in slow start",
        "TCPSlowStartRetrans",
    ),
    ("TcpExt", "%llu other TCP timeouts", "TCPTimeouts"),
    (
        "TcpExt",
        "%llu classic Reno fast retransmits failed",
        "TCPRenoRecoveryFail",
    ),
    (
        "TcpExt",
        "%llu reno fast retransmits failed",
        "TCPRenoRecoveryFailed",
    ),
    (
        "TcpExt",
        "Ran %llu times out of system memory during packet sending",
        "SockMallocOOM",
    ),
    (
        "TcpExt",
        "%llu congestion window recovered without slow start using DSACK",
        "TCPDSackUndo",
    ),
    (
        "TcpExt",
        "%llu SACK retransmits failed",
        "TCPSackRecoveryFail",
    ),
    (
        "TcpExt",
        "%llu times receiver scheduled too late for direct processing",
        "TCPSchedulerFailed",
    ),
    (
        "TcpExt",
        "%llu packets collapsed in receive queue due to low socket buffer",
        "TCPRcvCollapsed",
    ),
    (
        "TcpExt",
        "%llu DSACKs sent for old packets",
        "TCPDSACKOldSent",
    ),
    (
        "TcpExt",
        "%llu DSACKs sent for out of order packets",
        "TCPDSACKOfoSent",
    ),
    ("TcpExt", "%llu DSACKs received", "TCPDSACKRecv"),
    (
        "TcpExt",
        "%llu DSACKs for out of order packets received",
        "TCPDSACKOfoRecv",
    ),
    (
        "TcpExt",
        "%llu connections reset due to unexpected SYN",
        "TCPAbortOnSyn",
    ),
    (
        "TcpExt",
        "%llu connections reset due to unexpected data",
        "TCPAbortOnData",
    ),
    (
        "TcpExt",
        "%llu connections reset due to early user close",
        "TCPAbortOnClose",
    ),
    (
        "TcpExt",
        "%llu connections aborted due to memory pressure",
        "TCPAbortOnMemory",
    ),
    (
        "TcpExt",
        "%llu connections aborted due to timeout",
        "TCPAbortOnTimeout",
    ),
    (
        "TcpExt",
        "%llu connections aborted after user close in linger timeout",
        "TCPAbortOnLinger",
    ),
    (
        "TcpExt",
        "%llu times unable to send RST due to no memory",
        "TCPAbortFailed",
    ),
    (
        "TcpExt",
        "TCP ran low on memory %llu times",
        "TCPMemoryPressures",
    ),
];

/// ICMP histogram entries: (input?, text, MIB name).
const HISTOGRAM: &[(bool, &str, &str)] = &[
    (true, "destination unreachable", "InDestUnreachs"),
    (true, "timeout in transit", "InTimeExcds"),
    (true, "wrong parameters", "InParmProbs"),
    (true, "source quenches", "InSrcQuenchs"),
    (true, "redirects", "InRedirects"),
    (true, "echo requests", "InEchos"),
    (true, "echo replies", "InEchoReps"),
    (true, "timestamp request", "InTimestamps"),
    (true, "timestamp reply", "InTimestampReps"),
    (true, "address mask request", "InAddrMasks"),
    (true, "address mask replies", "InAddrMaskReps"),
    (false, "destination unreachable", "OutDestUnreachs"),
    (false, "time exceeded", "OutTimeExcds"),
    (false, "wrong parameters", "OutParmProbs"),
    (false, "source quench", "OutSrcQuenchs"),
    (false, "redirect", "OutRedirects"),
    (false, "echo request", "OutEchos"),
    (false, "echo requests", "OutEchos"),
    (false, "echo replies", "OutEchoReps"),
    (false, "timestamp requests", "OutTimestamps"),
    (false, "timestamp replies", "OutTimestampReps"),
    (false, "address mask requests", "OutAddrMasks"),
    (false, "address mask replies", "OutAddrMaskReps"),
];

/// A section title: `Name:` alone, not indented.
fn section_title(line: &str) -> Option<&str> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let name = line.trim_end().strip_suffix(':')?;
    (!name.is_empty() && name.len() <= 32 && name.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then_some(name)
}

/// `netstat -s` output?
///
/// `Yes` when the first line is a section title (`Ip:`, `Icmp:`, `Tcp:`, `Udp:`, `TcpExt:`)
/// and the next one an indented line with a number; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, true)) = lines.next() else {
        return Sniff::No;
    };
    if !matches!(
        section_title(first),
        Some("Ip" | "Icmp" | "IcmpMsg" | "Tcp" | "Udp" | "UdpLite" | "TcpExt" | "IpExt" | "Ip6")
    ) {
        return Sniff::No;
    }
    match lines.next() {
        None => Sniff::Unsure,
        Some((second, _)) => {
            let indented = second.starts_with(char::is_whitespace);
            let number = second
                .split_ascii_whitespace()
                .any(|t| t.bytes().all(|b| b.is_ascii_digit()));
            if indented && number {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
    }
}

/// Reads one indented line: `(text, value, key-like)`; `key-like` is true for `Name: value`.
fn entry_of(line: &str) -> Option<(String, u64, bool)> {
    let t = line.trim();
    if let Some((name, v)) = t.rsplit_once(':') {
        let v = v.trim();
        if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
            let name = name.trim();
            let keylike = !name.contains(' ');
            return Some((name.to_string(), v.parse().ok()?, keylike));
        }
    }
    let toks: Vec<&str> = t.split_ascii_whitespace().collect();
    let i = toks
        .iter()
        .position(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))?;
    let value = toks[i].parse().ok()?;
    let mut text = String::with_capacity(t.len());
    for (j, w) in toks.iter().enumerate() {
        if j == i {
            continue;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(w);
    }
    let text = text.trim_end_matches(['.', ':']).to_string();
    Some((text, value, false))
}

/// The sentence of an entry with its number as `%llu`, as net-tools' table spells it.
fn template(line: &str) -> String {
    let t = line.trim().trim_end_matches('.');
    let mut out = String::with_capacity(t.len());
    let mut replaced = false;
    for w in t.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if !replaced && w.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str("%llu");
            replaced = true;
        } else {
            out.push_str(w);
        }
    }
    out
}

/// Parses `netstat -s` output.
///
/// Errors: [`ParseError::Unusable`] when no section title is found. Indented lines without a
/// number (other than histogram titles and `… is …` settings) and lines before the first
/// section become issues.
pub fn parse(text: &str) -> Result<Parsed<NetstatS>, ParseError> {
    let mut out = NetstatS::default();
    let mut issues = Issues::default();
    let mut histogram: Option<(String, bool)> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(name) = section_title(line) {
            out.sections.push(NetstatSection {
                name: name.to_string(),
                line: n,
                entries: Vec::new(),
            });
            histogram = None;
            continue;
        }
        let Some(section) = out.sections.last_mut() else {
            issues.push(n, || {
                format!(
                    "expected a section title (`Ip:`, `Tcp:` …), found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let t = line.trim();
        if let Some(title) = t.strip_suffix(':') {
            if title.ends_with("histogram") {
                let input = title.contains("input");
                histogram = Some((title.to_string(), input));
                continue;
            }
        }
        let Some((text, value, keylike)) = entry_of(line) else {
            if !t.contains(" is ") {
                issues.push(n, || {
                    format!("expected a line with a number, found `{}`", excerpt(line))
                });
            }
            continue;
        };
        // A histogram ends at the first line not indented deeper than its title's section.
        let deep = line.len() - line.trim_start().len() >= 8;
        let in_hist = histogram.as_ref().filter(|_| deep && !keylike);
        let key = if keylike {
            Some(text.clone())
        } else if let Some((_, input)) = in_hist {
            HISTOGRAM
                .iter()
                .find(|(i, h, _)| i == input && *h == text)
                .map(|(_, _, k)| k.to_string())
        } else {
            let tpl = template(line);
            let group = match section.name.as_str() {
                "UdpLite" => "Udp",
                g => g,
            };
            SENTENCES
                .iter()
                .find(|(g, s, _)| *g == group && *s == tpl)
                .map(|(_, _, k)| k.to_string())
        };
        let hist_title = in_hist.map(|(t, _)| t.clone());
        if !deep {
            histogram = None;
        }
        section.entries.push(NetstatEntry {
            text,
            value,
            key,
            histogram: hist_title,
            line: n,
        });
    }
    if out.sections.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `netstat -s` section title (`Ip:`, `Tcp:` …) found",
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
    fn lines_of_every_shape() {
        assert_eq!(
            entry_of("    2886201 requests sent out"),
            Some(("requests sent out".into(), 2886201, false))
        );
        assert_eq!(
            entry_of("    0 bad segments received."),
            Some(("bad segments received".into(), 0, false))
        );
        assert_eq!(
            entry_of("    Quick ack mode was activated 9 times"),
            Some(("Quick ack mode was activated times".into(), 9, false))
        );
        assert_eq!(
            entry_of("    TCPLossProbes: 12"),
            Some(("TCPLossProbes".into(), 12, true))
        );
        assert_eq!(
            entry_of("        destination unreachable: 254"),
            Some(("destination unreachable".into(), 254, false))
        );
        assert_eq!(
            template("    Quick ack mode was activated 9 times"),
            "Quick ack mode was activated %llu times"
        );
        assert_eq!(entry_of("    ICMP input histogram:"), None);
    }
}
