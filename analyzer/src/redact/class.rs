//! The classes of identifier a bundle is redacted for, and where a match of each counts: only at
//! a token boundary, the same rule in discovery, replacement and the leak scan.
//!
//! In: a class and a match's byte range in its text. Out: its label in `redaction.json` and leak
//! reports, and whether the match stands alone as a token of the class.

/// A class of identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A host name or FQDN.
    Host,
    /// A DNS domain: every name under it is a host name.
    Domain,
    /// An IPv4 address.
    Ipv4,
    /// An IPv6 address.
    Ipv6,
    /// A MAC address.
    Mac,
    /// A user name.
    User,
    /// A keyword of the user's (`--keywords`).
    Keyword,
}

impl Class {
    /// Name in `redaction.json` and in leak reports.
    pub fn label(self) -> &'static str {
        match self {
            Class::Host => "host-names",
            Class::Domain => "domains",
            Class::Ipv4 => "ipv4-addresses",
            Class::Ipv6 => "ipv6-addresses",
            Class::Mac => "mac-addresses",
            Class::User => "user-names",
            Class::Keyword => "keywords",
        }
    }

    /// Whether the match `h[s..e]` stands alone as a token of this class.
    pub fn bounded(self, h: &[u8], s: usize, e: usize) -> bool {
        let before = s.checked_sub(1).map(|i| h[i]);
        let before2 = s.checked_sub(2).map(|i| h[i]);
        let after = h.get(e).copied();
        let after2 = h.get(e + 1).copied();
        let alnum = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
        let digit = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_digit());
        let is = |b: Option<u8>, c: u8| b == Some(c);
        match self {
            Class::Keyword => true,
            Class::Ipv4 => {
                let joined = alnum(before)
                    || alnum(after)
                    || (is(before, b'.') && digit(before2))
                    || (is(after, b'.') && digit(after2));
                !joined
            }
            Class::Ipv6 | Class::Mac => {
                // A colon joins a colon form to a longer one; a hex form of /proc/net
                // (`…0A000000:0050`) is followed by its port.
                let colon = h[s..e].contains(&b':');
                let joined = alnum(before)
                    || alnum(after)
                    || (colon && is(before, b':'))
                    || (colon && is(after, b':'))
                    || (is(after, b'.') && digit(after2));
                !joined
            }
            Class::Host | Class::User | Class::Domain => {
                // A single-label name (`vm`, `alice`) is a word: written in lower case, and not
                // part of a dashed word (`vm-version.txt`, `hadoop-hdfs`); an FQDN or a dashed
                // name (`dhcp-10-0-0-1`) may sit in one (`rca-dn01.bank.corp-2026…`).
                let m = &h[s..e];
                let single = self != Class::Domain && !m.contains(&b'.') && !m.contains(&b'-');
                if single && m.iter().any(u8::is_ascii_uppercase) {
                    return false;
                }
                let word = |b: Option<u8>| {
                    alnum(b) || is(b, b'_') || ((self == Class::User || single) && is(b, b'-'))
                };
                let dotted_before = self != Class::Domain && is(before, b'.') && alnum(before2);
                let joined = word(before)
                    || word(after)
                    || dotted_before
                    || (is(after, b'.') && alnum(after2));
                !joined
            }
        }
    }
}
