//! Candidates for address-shaped identifiers, found in one pass over an entry's bytes.
//!
//! In: an entry's text. Out: every candidate IPv4, IPv6 and MAC address and dashed host name
//! (`dhcp-192-168-0-66`), as its class and byte range, for discovery to validate
//! ([`super::scan::discover`]).
//!
//! Each class counts a match only where no letter or digit comes before it
//! ([`Class::bounded`]), so a candidate is looked for only at such a byte, and only when that
//! byte can begin one: a decimal digit (IPv4), a hex digit (MAC), a hex digit or `:` (IPv6), a
//! letter (dashed name), and only when the word it begins ends in a separator
//! ([`candidates`]). There, a hand check of the class's shape takes the match its regex
//! would take at that start (leftmost-first, greedy):
//!
//! | class       | regex                                                     |
//! |-------------|-----------------------------------------------------------|
//! | IPv4        | `[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}`          |
//! | IPv6        | `(?i)[0-9a-f]{0,4}:[0-9a-f]{0,4}:[0-9a-f:]{0,35}[0-9a-f]` |
//! | MAC         | `(?i)[0-9a-f]{2}(?::[0-9a-f]{2}){5}`                      |
//! | dashed name | `(?i)[a-z]+-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}`  |
//!
//! Validated, these candidates give what a search of each regex over the whole text gives: a
//! match such a search skips because it lies inside an earlier match of the same class has a
//! byte of that match before it (a digit, a letter, a `.` after a digit, or a `:` for the colon
//! forms), which its class rejects. Discovery's tests check this against the regexes.

use super::class::Class;

/// A decimal digit.
const DIGIT: u8 = 1;
/// A hexadecimal digit, either case.
const HEX: u8 = 2;
/// An ASCII letter.
const ALPHA: u8 = 4;
/// `:`.
const COLON: u8 = 8;

/// What each byte can be part of.
static FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut f = 0;
        if c.is_ascii_digit() {
            f |= DIGIT | HEX;
        }
        if c.is_ascii_alphabetic() {
            f |= ALPHA;
        }
        if matches!(c, b'a'..=b'f' | b'A'..=b'F') {
            f |= HEX;
        }
        if c == b':' {
            f |= COLON;
        }
        t[b] = f;
        b += 1;
    }
    t
};

/// Whether byte `b` has one of the flags `f`.
fn is(b: u8, f: u8) -> bool {
    FLAGS[usize::from(b)] & f != 0
}

/// Number of bytes from `i` that have one of the flags `f`, counting at most `max`.
fn run(text: &[u8], i: usize, f: u8, max: usize) -> usize {
    text.get(i..)
        .unwrap_or_default()
        .iter()
        .take(max)
        .take_while(|&&b| is(b, f))
        .count()
}

/// End of `[0-9]{1,3}` followed by `sep` at `i`: a run of one to three digits then `sep`.
fn group_then(text: &[u8], i: usize, sep: u8) -> Option<usize> {
    let r = run(text, i, DIGIT, 4);
    ((1..=3).contains(&r) && text.get(i + r) == Some(&sep)).then_some(i + r + 1)
}

/// End of the IPv4 candidate at `s`.
fn ipv4(text: &[u8], s: usize) -> Option<usize> {
    let mut i = s;
    for _ in 0..3 {
        i = group_then(text, i, b'.')?;
    }
    let r = run(text, i, DIGIT, 3);
    (r > 0).then_some(i + r)
}

/// End of the MAC candidate at `s`.
fn mac(text: &[u8], s: usize) -> Option<usize> {
    let m = text.get(s..s + 17)?;
    m.iter()
        .enumerate()
        .all(|(k, &b)| if k % 3 == 2 { b == b':' } else { is(b, HEX) })
        .then_some(s + 17)
}

/// End of the IPv6 candidate at `s`. A group of `{0,4}` hex digits then `:` holds only when
/// the run of hex digits there is at most 4 long and a `:` follows it (a shorter take leaves a
/// hex digit where the `:` must be); the tail takes the [hex:] run up to its last hex digit
/// within 36 bytes.
fn ipv6(text: &[u8], s: usize) -> Option<usize> {
    let mut i = s;
    for _ in 0..2 {
        let r = run(text, i, HEX, 5);
        if r > 4 || text.get(i + r) != Some(&b':') {
            return None;
        }
        i += r + 1;
    }
    let r = run(text, i, HEX | COLON, 36);
    let last = text[i..i + r].iter().rposition(|&b| is(b, HEX))?;
    Some(i + last + 1)
}

/// End of the dashed host-name candidate at `s` (`dhcp-192-168-0-66`).
fn dashed(text: &[u8], s: usize) -> Option<usize> {
    let a = run(text, s, ALPHA, usize::MAX);
    if a == 0 || text.get(s + a) != Some(&b'-') {
        return None;
    }
    let mut i = s + a + 1;
    for _ in 0..3 {
        i = group_then(text, i, b'-')?;
    }
    let r = run(text, i, DIGIT, 3);
    (r > 0).then_some(i + r)
}

/// Calls `each(class, start, end)` for every candidate in `text`, by start (classes at one
/// start in the order IPv4, IPv6, MAC, host name). Candidates may overlap; work is linear in
/// the text's length.
///
/// Every shape begins with a word of letters and digits followed by `.`, `:` or `-` (`10.`,
/// `fe80:`, `52:`, `dhcp-`), or with a `:` (`::1`). So the text is searched for those three
/// bytes (`memchr3`), and the shapes are tried at the start of the word each one ends, or at
/// the `:` itself when no word comes before it: the words of a text that no separator follows
/// are never looked at.
pub fn candidates(text: &[u8], mut each: impl FnMut(Class, usize, usize)) {
    for p in memchr::memchr3_iter(b'.', b':', b'-', text) {
        // The start of the word before the separator: every byte is walked back over at most
        // once, as the walk stops at the separator or other byte that ends the word before.
        let mut s = p;
        while s > 0 && is(text[s - 1], DIGIT | ALPHA) {
            s -= 1;
        }
        if s == p {
            if text[p] == b':' {
                if let Some(e) = ipv6(text, p) {
                    each(Class::Ipv6, p, e);
                }
            }
            continue;
        }
        let f = FLAGS[usize::from(text[s])];
        if f & DIGIT != 0 {
            if let Some(e) = ipv4(text, s) {
                each(Class::Ipv4, s, e);
            }
        }
        if f & HEX != 0 {
            if let Some(e) = ipv6(text, s) {
                each(Class::Ipv6, s, e);
            }
            if let Some(e) = mac(text, s) {
                each(Class::Mac, s, e);
            }
        }
        if f & ALPHA != 0 {
            if let Some(e) = dashed(text, s) {
                each(Class::Host, s, e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<(Class, &str)> {
        let mut v = Vec::new();
        candidates(text.as_bytes(), |c, s, e| v.push((c, &text[s..e])));
        v
    }

    #[test]
    fn shapes_at_word_starts() {
        assert_eq!(
            all("10.1.2.3 1234.1.2.3 x10.1.2.3 10.1.2.3456"),
            [(Class::Ipv4, "10.1.2.3"), (Class::Ipv4, "10.1.2.345")]
        );
        assert_eq!(
            all("fe80::1: x ::1 12345::1"),
            [(Class::Ipv6, "fe80::1"), (Class::Ipv6, "::1")]
        );
        let v = all("AA:bb:cc:dd:ee:01 0aa:bb:cc:dd:ee:01");
        assert!(v.contains(&(Class::Ipv6, "AA:bb:cc:dd:ee:01")), "{v:?}");
        assert!(v.contains(&(Class::Ipv6, "0aa:bb:cc:dd:ee:01")), "{v:?}");
        let macs: Vec<_> = v.iter().filter(|(c, _)| *c == Class::Mac).collect();
        assert_eq!(macs, [&(Class::Mac, "AA:bb:cc:dd:ee:01")]);
        assert_eq!(
            all("ip-10-0-0-1 dhcp-1-2-3-4567 9ab-1-2-3-4 a-1-2-3"),
            [
                (Class::Host, "ip-10-0-0-1"),
                (Class::Host, "dhcp-1-2-3-456")
            ]
        );
    }
}
