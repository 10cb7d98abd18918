//! The pseudonym map: every original value met and the pseudonym it was given, so that the same
//! original always gets the same pseudonym, in every artifact and in every bundle redacted with
//! the same map file.
//!
//! In: originals as found (host names, addresses, MACs, user names, keywords). Out: pseudonyms
//! that are valid where the original was (an IPv4 address stays a dotted quad, a host name a host
//! name, a user name a `[a-z][a-z0-9]*` name) and never equal to an original the map knows.
//! Structure is kept: IPv4 addresses sharing a /8, /16 or /24 share the pseudo prefix; IPv6
//! addresses sharing a /32, /48 or /64 likewise; host names are mapped label by label, their
//! top-level domain kept when it is a well-known one (`com`, `local`, two-letter country codes).
//!
//! The map is JSON ([`Map`], serde); it is read from and written to the path the user gives and
//! never goes into a redacted bundle.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::{Ipv4Addr, Ipv6Addr};

/// The pseudonym map (`--map MAP.json`). Keys are originals (lowercased where the class is
/// case-insensitive), values their pseudonyms.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Map {
    /// Format version (1).
    pub version: u32,
    /// Host names and FQDNs, lowercased → pseudonym (`dn01.bank.corp` → `h0001.d0002.corp`).
    pub hosts: BTreeMap<String, String>,
    /// DNS domains the bundles belong to (originals, lowercased); every name under them is a host
    /// name to pseudonymise.
    pub domains: BTreeSet<String>,
    /// Host-name labels → pseudo labels: how [`Map::hosts`] entries are built.
    pub labels: BTreeMap<String, String>,
    /// IPv4 addresses → pseudo addresses.
    pub ipv4: BTreeMap<String, String>,
    /// IPv6 addresses (canonical text) → pseudo addresses.
    pub ipv6: BTreeMap<String, String>,
    /// Address prefixes → pseudo prefixes (`4:10.1` → `11.0`, `6:2a01:4f8` → `fd00:1`): what
    /// keeps subnets together.
    pub prefixes: BTreeMap<String, String>,
    /// MAC addresses → pseudo MACs, as 48-bit values ([`mac_value`]): 16 bytes an entry
    /// instead of two strings. Written as lower-case `aa:bb:cc:dd:ee:ff` text ([`mac_text`]),
    /// in the same order (the text's order is the value's).
    #[serde(with = "mac_table")]
    pub macs: BTreeMap<u64, u64>,
    /// User names → pseudo user names.
    pub users: BTreeMap<String, String>,
    /// The user's keywords (literals and what their regexes matched) → pseudonyms.
    pub keywords: BTreeMap<String, String>,
    /// Pseudo prefixes already handed out below each pseudo parent (rebuilt on load).
    #[serde(skip)]
    used: HashMap<String, HashSet<u32>>,
    /// Pseudo labels already handed out (rebuilt on load).
    #[serde(skip)]
    used_labels: HashSet<String>,
    /// Originals met in the bundle being redacted (lowercased): no pseudonym may equal one.
    #[serde(skip)]
    reserved: HashSet<String>,
    /// MAC addresses met in the bundle being redacted: no pseudo MAC may equal one.
    #[serde(skip)]
    reserved_macs: HashSet<u64>,
}

/// A MAC address written `aa:bb:cc:dd:ee:ff` (either case) as its 48-bit value; `None` for
/// any other text.
pub fn mac_value(m: &str) -> Option<u64> {
    let b = m.as_bytes();
    if b.len() != 17 {
        return None;
    }
    let mut v = 0u64;
    for (k, &c) in b.iter().enumerate() {
        if k % 3 == 2 {
            if c != b':' {
                return None;
            }
        } else {
            v = v << 4 | u64::from(char::from(c).to_digit(16)?);
        }
    }
    Some(v)
}

/// The 48-bit MAC address `v` written `aa:bb:cc:dd:ee:ff` (lower case).
pub fn mac_text(v: u64) -> String {
    MacText(v).to_string()
}

/// Writes a 48-bit MAC address as `aa:bb:cc:dd:ee:ff`.
struct MacText(u64);

impl std::fmt::Display for MacText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let b = self.0.to_be_bytes();
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            b[2], b[3], b[4], b[5], b[6], b[7]
        )
    }
}

impl Serialize for MacText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// [`Map::macs`] in JSON: an object of MAC text → MAC text.
mod mac_table {
    use super::{mac_value, MacText};
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(m: &BTreeMap<u64, u64>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(m.iter().map(|(&k, &v)| (MacText(k), MacText(v))))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<u64, u64>, D::Error> {
        let text = BTreeMap::<String, String>::deserialize(d)?;
        text.iter()
            .map(|(k, v)| match (mac_value(k), mac_value(v)) {
                (Some(k), Some(v)) => Ok((k, v)),
                _ => Err(serde::de::Error::custom(format!(
                    "\"{k}\": \"{v}\" is not a pair of MAC addresses"
                ))),
            })
            .collect()
    }
}

/// Top-level domains kept as they are: they name no site.
const KEEP_TLDS: &[&str] = &[
    "com",
    "net",
    "org",
    "edu",
    "gov",
    "mil",
    "int",
    "info",
    "biz",
    "io",
    "local",
    "localdomain",
    "lan",
    "internal",
    "intranet",
    "corp",
    "home",
    "example",
    "test",
    "invalid",
    "localhost",
    "arpa",
];

/// Whether a top-level label is kept as is.
pub fn keep_tld(l: &str) -> bool {
    KEEP_TLDS.contains(&l) || (l.len() == 2 && l.bytes().all(|b| b.is_ascii_lowercase()))
}

/// Whether an IPv4 address is left as it is: unspecified, loopback, link-local, broadcast,
/// multicast and reserved, documentation (RFC 5737), and the "this network" block.
pub fn v4_special(a: Ipv4Addr) -> bool {
    let o = a.octets();
    a.is_unspecified()
        || a.is_loopback()
        || a.is_link_local()
        || a.is_broadcast()
        || a.is_multicast()
        || o[0] == 0
        || o[0] >= 240
        || a.is_documentation()
        || (o[0] == 255)
}

/// Whether an IPv6 address is left as it is: unspecified, loopback, link-local (fe80::/10),
/// multicast, documentation (2001:db8::/32, RFC 3849), and IPv4-mapped or -compatible forms.
pub fn v6_special(a: Ipv6Addr) -> bool {
    let s = a.segments();
    a.is_unspecified()
        || a.is_loopback()
        || a.is_multicast()
        || (s[0] & 0xffc0) == 0xfe80
        || (s[0] == 0x2001 && s[1] == 0x0db8)
        || s[..5].iter().all(|&g| g == 0)
}

impl Map {
    /// A map read back from JSON: rebuilds what is not stored.
    pub fn loaded(mut self) -> Map {
        self.version = 1;
        self.used.clear();
        for (k, v) in &self.prefixes {
            let (fam, _) = k.split_once(':').unwrap_or(("4", ""));
            let (parent, last) = split_last(fam, v);
            if let Some(n) = parse_part(fam, last) {
                self.used
                    .entry(format!("{fam}:{parent}"))
                    .or_default()
                    .insert(n);
            }
        }
        self.used_labels = self.labels.values().cloned().collect();
        self
    }

    /// Notes originals met in the bundle, so that no pseudonym handed out later equals one.
    pub fn reserve<'a>(&mut self, originals: impl IntoIterator<Item = &'a str>) {
        self.reserved
            .extend(originals.into_iter().map(|s| s.to_ascii_lowercase()));
    }

    /// Whether `c` may not be a pseudonym: an original met or known.
    fn taken(&self, c: &str) -> bool {
        self.reserved.contains(c)
    }

    /// Every original the map holds with its class, for the leak scan: host names, domains,
    /// addresses, MACs, user names and keywords.
    pub fn originals(&self) -> Vec<(String, super::class::Class)> {
        use super::class::Class;
        let mut v = Vec::new();
        v.extend(self.hosts.keys().map(|k| (k.clone(), Class::Host)));
        v.extend(self.domains.iter().map(|k| (k.clone(), Class::Domain)));
        v.extend(self.ipv4.keys().map(|k| (k.clone(), Class::Ipv4)));
        v.extend(self.ipv6.keys().map(|k| (k.clone(), Class::Ipv6)));
        v.extend(self.macs.keys().map(|&k| (mac_text(k), Class::Mac)));
        v.extend(self.users.keys().map(|k| (k.clone(), Class::User)));
        v.extend(self.keywords.keys().map(|k| (k.clone(), Class::Keyword)));
        v
    }

    /// The pseudonym of a host name (any number of labels), label by label; the top-level
    /// label is kept when [`keep_tld`] says so and the name has more than one label.
    pub fn host(&mut self, name: &str) -> String {
        let key = name.to_ascii_lowercase();
        if let Some(p) = self.hosts.get(&key) {
            return p.clone();
        }
        let labels: Vec<&str> = key.split('.').collect();
        let n = labels.len();
        let mut out = Vec::with_capacity(n);
        for (i, l) in labels.iter().enumerate() {
            if i + 1 == n && n > 1 && keep_tld(l) {
                out.push(l.to_string());
            } else {
                out.push(self.label(l, i == 0));
            }
        }
        let p = out.join(".");
        self.hosts.insert(key, p.clone());
        p
    }

    /// The pseudo label of one host-name label: `h0001` for a host's first label, `d0001` for a
    /// domain's; a label shaped like `dhcp-192-168-0-66` (a word, then an IPv4 address written
    /// with dashes) keeps its shape with the address pseudonymised.
    fn label(&mut self, l: &str, first: bool) -> String {
        if let Some(p) = self.labels.get(l) {
            return p.clone();
        }
        let p = if let Some((word, ip)) = dashed_ip(l) {
            let pseudo = self.ipv4(ip);
            format!("{word}-{}", pseudo.replace('.', "-"))
        } else {
            let stem = if first { "h" } else { "d" };
            let mut i = self.used_labels.len() + 1;
            loop {
                let c = format!("{stem}{i:04}");
                if !self.used_labels.contains(&c)
                    && !self.labels.contains_key(&c)
                    && !self.taken(&c)
                {
                    break c;
                }
                i += 1;
            }
        };
        self.used_labels.insert(p.clone());
        self.labels.insert(l.to_string(), p.clone());
        p
    }

    /// The pseudonym of an IPv4 address (special addresses are returned as they are).
    pub fn ipv4(&mut self, a: Ipv4Addr) -> String {
        let key = a.to_string();
        if v4_special(a) {
            return key;
        }
        if let Some(p) = self.ipv4.get(&key) {
            return p.clone();
        }
        let o = a.octets();
        let p1 = self.child("4", "", &o[0].to_string(), 11..=126, &[127]);
        let p2 = self.child(
            "4",
            &p1.to_string(),
            &format!("{}.{}", o[0], o[1]),
            0..=255,
            &[],
        );
        let p3 = self.child(
            "4",
            &format!("{p1}.{p2}"),
            &format!("{}.{}.{}", o[0], o[1], o[2]),
            0..=255,
            &[],
        );
        let prefix = format!("{p1}.{p2}.{p3}");
        // The network and broadcast ends of a /24 stay what they are.
        let p = if o[3] == 0 || o[3] == 255 {
            format!("{prefix}.{}", o[3])
        } else {
            let mut last = self.child("4", &prefix, &key, 1..=254, &[]);
            // Never the original of another address the map knows.
            while self.ipv4.contains_key(&format!("{prefix}.{last}"))
                || self.taken(&format!("{prefix}.{last}"))
            {
                last = self.child("4", &prefix, &format!("{key}#{last}"), 1..=254, &[]);
            }
            format!("{prefix}.{last}")
        };
        self.ipv4.insert(key, p.clone());
        p
    }

    /// The pseudonym of an IPv6 address: its /32 → `fd00:N`, then the third and fourth groups
    /// under that, then the interface identifier.
    pub fn ipv6(&mut self, a: Ipv6Addr) -> String {
        let key = a.to_string();
        if v6_special(a) {
            return key;
        }
        if let Some(p) = self.ipv6.get(&key) {
            return p.clone();
        }
        let s = a.segments();
        let h = |n: usize| {
            s[..n]
                .iter()
                .map(|g| format!("{g:x}"))
                .collect::<Vec<_>>()
                .join(":")
        };
        let g01 = self.child("6", "", &h(2), 1..=0xffff, &[]);
        let g2 = self.child("6", &format!("{g01:x}"), &h(3), 0..=0xffff, &[]);
        let g3 = self.child("6", &format!("{g01:x}:{g2:x}"), &h(4), 0..=0xffff, &[]);
        let parent = format!("{g01:x}:{g2:x}:{g3:x}");
        let iid = self.child("6", &parent, &key, 1..=0xffff, &[]);
        let p = Ipv6Addr::new(
            0xfd00, g01 as u16, g2 as u16, g3 as u16, 0, 0, 0, iid as u16,
        );
        let p = p.to_string();
        self.ipv6.insert(key, p.clone());
        p
    }

    /// The pseudo value of the prefix `orig` (family `fam`) below the pseudo parent `parent`:
    /// the next free one in `range`, skipping `avoid`; remembered in [`Map::prefixes`].
    fn child(
        &mut self,
        fam: &str,
        parent: &str,
        orig: &str,
        range: std::ops::RangeInclusive<u32>,
        avoid: &[u32],
    ) -> u32 {
        let key = format!("{fam}:{orig}");
        if let Some(v) = self.prefixes.get(&key) {
            let (_, last) = split_last(fam, v);
            if let Some(n) = parse_part(fam, last) {
                return n;
            }
        }
        let used = self.used.entry(format!("{fam}:{parent}")).or_default();
        // Dense ranges are walked from their start; when one fills up, values are reused
        // (structure is then approximate, never wrong).
        let n = range
            .clone()
            .find(|n| !used.contains(n) && !avoid.contains(n))
            .unwrap_or(*range.start());
        used.insert(n);
        let text = if fam == "6" {
            format!("{n:x}")
        } else {
            n.to_string()
        };
        let full = if parent.is_empty() {
            text
        } else {
            format!("{parent}{}{text}", if fam == "6" { ":" } else { "." })
        };
        self.prefixes.insert(key, full);
        n
    }

    /// Notes MAC addresses met in the bundle, so that no pseudo MAC handed out later equals one.
    pub fn reserve_macs(&mut self, macs: impl IntoIterator<Item = u64>) {
        self.reserved_macs.extend(macs);
    }

    /// The pseudonym of a MAC address (`aa:bb:cc:dd:ee:ff`, any case); the OUI (first three
    /// bytes) is kept when `keep_oui`, else replaced by a locally administered `02:00:00`.
    /// Text that is no MAC address is returned as it is.
    pub fn mac(&mut self, m: &str, keep_oui: bool) -> String {
        match mac_value(m) {
            Some(v) => mac_text(self.mac_value(v, keep_oui)),
            None => m.to_string(),
        }
    }

    /// The pseudonym of the 48-bit MAC address `v`, as [`Map::mac`] gives it.
    pub fn mac_value(&mut self, v: u64, keep_oui: bool) -> u64 {
        if let Some(&p) = self.macs.get(&v) {
            return p;
        }
        let oui = if keep_oui {
            v & 0xffff_ff00_0000
        } else {
            0x0200_0000_0000
        };
        let mut i = self.macs.len() as u32 + 1;
        let p = loop {
            let c = oui | u64::from(i & 0xff_ffff);
            if !self.macs.contains_key(&c) && !self.reserved_macs.contains(&c) {
                break c;
            }
            i += 1;
        };
        self.macs.insert(v, p);
        p
    }

    /// The pseudonym of a user name: `u0001`, `u0002` …
    pub fn user(&mut self, u: &str) -> String {
        if let Some(p) = self.users.get(u) {
            return p.clone();
        }
        let mut i = self.users.len() + 1;
        let p = loop {
            let c = format!("u{i:04}");
            if !self.users.contains_key(&c) && !self.taken(&c) {
                break c;
            }
            i += 1;
        };
        self.users.insert(u.to_string(), p.clone());
        p
    }

    /// The pseudonym of a keyword: `kw0001` …
    pub fn keyword(&mut self, k: &str) -> String {
        let key = k.to_ascii_lowercase();
        if let Some(p) = self.keywords.get(&key) {
            return p.clone();
        }
        let p = format!("kw{:04}", self.keywords.len() + 1);
        self.keywords.insert(key, p.clone());
        p
    }
}

/// Splits a pseudo prefix into its parent and its last part.
fn split_last<'a>(fam: &str, v: &'a str) -> (&'a str, &'a str) {
    let sep = if fam == "6" { ':' } else { '.' };
    v.rsplit_once(sep).unwrap_or(("", v))
}

/// One part of a prefix: decimal for IPv4, hexadecimal for IPv6.
fn parse_part(fam: &str, s: &str) -> Option<u32> {
    if fam == "6" {
        u32::from_str_radix(s, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// `dhcp-192-168-0-66` → (`dhcp`, 192.168.0.66): a word and an IPv4 address written with dashes
/// (`ip-10-0-0-1` on EC2), when the address is not a special one.
pub fn dashed_ip(l: &str) -> Option<(&str, Ipv4Addr)> {
    let (word, rest) = l.split_once('-')?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let parts: Vec<&str> = rest.split('-').collect();
    if parts.len() != 4 || parts.iter().any(|p| p.is_empty() || p.len() > 3) {
        return None;
    }
    let ip: Ipv4Addr = parts.join(".").parse().ok()?;
    (!v4_special(ip)).then_some((word, ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_keeps_subnets_and_specials() {
        let mut m = Map::default();
        let a = m.ipv4("10.1.2.3".parse().unwrap());
        let b = m.ipv4("10.1.2.4".parse().unwrap());
        let c = m.ipv4("10.1.9.4".parse().unwrap());
        let d = m.ipv4("10.7.2.3".parse().unwrap());
        assert_ne!(a, b);
        let p = |s: &str, n: usize| s.split('.').take(n).collect::<Vec<_>>().join(".");
        assert_eq!(p(&a, 3), p(&b, 3));
        assert_eq!(p(&a, 2), p(&c, 2));
        assert_ne!(p(&a, 3), p(&c, 3));
        assert_eq!(p(&a, 1), p(&d, 1));
        assert_ne!(p(&a, 2), p(&d, 2));
        for s in [
            "127.0.0.1",
            "169.254.1.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "192.0.2.5",
        ] {
            assert_eq!(m.ipv4(s.parse().unwrap()), s);
        }
        assert!(a.parse::<Ipv4Addr>().is_ok());
        // Reloaded from JSON, the same map gives the same answers and new ones stay apart.
        let mut m2: Map = serde_json::from_str::<Map>(&serde_json::to_string(&m).unwrap())
            .unwrap()
            .loaded();
        assert_eq!(m2.ipv4("10.1.2.3".parse().unwrap()), a);
        let e = m2.ipv4("10.1.2.5".parse().unwrap());
        assert!(e != a && e != b && p(&e, 3) == p(&a, 3));
    }

    #[test]
    fn hosts_map_label_by_label() {
        let mut m = Map::default();
        let a = m.host("dn01.bank.corp");
        let b = m.host("dn02.bank.corp");
        assert_eq!(a, "h0001.d0002.corp");
        assert_eq!(b, "h0003.d0002.corp");
        assert_eq!(m.host("DN01.bank.corp"), a);
        assert_eq!(m.host("dn01"), "h0001");
        let d = m.host("dhcp-192-168-0-66");
        assert!(d.starts_with("dhcp-") && !d.contains("192-168-0-66"), "{d}");
    }

    #[test]
    fn ipv6_and_macs() {
        let mut m = Map::default();
        let a = m.ipv6("2a01:4f8:1:2::10".parse().unwrap());
        let b = m.ipv6("2a01:4f8:1:2::11".parse().unwrap());
        assert!(a.parse::<Ipv6Addr>().is_ok() && a != b);
        assert_eq!(m.ipv6("fe80::1".parse().unwrap()), "fe80::1");
        assert_eq!(m.ipv6("2001:db8::1".parse().unwrap()), "2001:db8::1");
        let mac = m.mac("FA:16:3E:5D:0B:11", true);
        assert!(mac.starts_with("fa:16:3e:") && mac != "fa:16:3e:5d:0b:11");
        assert!(m.mac("00:50:56:aa:bb:cc", false).starts_with("02:00:00:"));
        assert_eq!(mac_value("FA:16:3e:5d:0b:11"), Some(0xfa16_3e5d_0b11));
        assert_eq!(mac_text(0xfa16_3e5d_0b11), "fa:16:3e:5d:0b:11");
        for bad in [
            "fa:16:3e:5d:0b",
            "fa:16:3e:5d:0b:1g",
            "fa-16-3e-5d-0b-11",
            "+a:16:3e:5d:0b:11",
        ] {
            assert_eq!(mac_value(bad), None, "{bad}");
        }
        // Written as text, in the text's order, and read back.
        let json = serde_json::to_string(&m).unwrap();
        assert!(json.contains(r#""macs":{"00:50:56:aa:bb:cc":"02:00:00:00:00:02","fa:16:3e:5d:0b:11":"fa:16:3e:00:00:01"}"#), "{json}");
        let back: Map = serde_json::from_str(&json).unwrap();
        assert_eq!(back.macs, m.macs);
        assert!(serde_json::from_str::<Map>(r#"{"macs":{"x":"y"}}"#).is_err());
    }
}
