//! Finding identifiers in bundle text (discovery) and replacing them (one literal-set pass).
//!
//! In: an entry's path and bytes. Out, for discovery: the originals it holds ([`Found`]): host
//! names from identity files (`hostname`, `uname`, `/etc/hosts`, the manifest's `meta hostname`,
//! `resolv.conf`'s domains), IPv4/IPv6/MAC addresses anywhere (regex candidates, validated),
//! user names (`/etc/passwd` accounts with a UID ≥ 1000, `ps`/`top` USER columns less system and
//! service accounts, `/home/NAME`), host names shaped like `dhcp-192-168-0-66`, and matches of the
//! user's keyword regexes. Out, for replacement: the text with every original replaced by its
//! pseudonym, found by one Aho-Corasick pass over all originals ([`Replacer`]).
//!
//! A match counts only at a token boundary, the same rule in discovery, replacement and the leak
//! scan ([`Class::bounded`]): `10.1.2.3` is not inside `110.1.2.30`, the host `vm` is not inside
//! `kvm` nor `vm.swappiness` (a dotted name), a user `hdfs` not inside `hadoop-hdfs`. A name under
//! a bundle's domain (`anything.bank.corp`) is replaced whole, label by label, wherever it is.

pub use super::class::Class;
use super::map::{dashed_ip, v4_special, v6_special, Map};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, Input, MatchKind};
use regex::bytes::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

/// Originals discovered in a bundle.
#[derive(Debug, Default)]
pub struct Found {
    /// Host names and FQDNs (lowercased).
    pub hosts: BTreeSet<String>,
    /// DNS domains (lowercased).
    pub domains: BTreeSet<String>,
    /// IPv4 addresses.
    pub ipv4: BTreeSet<Ipv4Addr>,
    /// IPv6 addresses: each text form seen (lowercased) with the address.
    pub ipv6: BTreeMap<String, Ipv6Addr>,
    /// MAC addresses (lowercased).
    pub macs: BTreeSet<String>,
    /// User names.
    pub users: BTreeSet<String>,
    /// Keywords: the user's literals and what the user's regexes matched.
    pub keywords: BTreeSet<String>,
}

/// The user's keywords (`--keywords FILE`): one a line, a literal, or `re:REGEX`; blank lines and
/// lines starting with `#` are skipped.
#[derive(Debug, Default)]
pub struct Keywords {
    /// Literal keywords.
    pub literals: Vec<String>,
    /// Regexes whose matches are keywords.
    pub regexes: Vec<Regex>,
}

impl Keywords {
    /// Parses a keywords file. Errors: a regex that does not compile, with its line number.
    pub fn parse(text: &str) -> Result<Keywords, String> {
        let mut k = Keywords::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(re) = line.strip_prefix("re:") {
                let r = regex::bytes::RegexBuilder::new(re)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|e| format!("line {}: {e}", i + 1))?;
                k.regexes.push(r);
            } else if line.trim().len() >= 2 {
                k.literals.push(line.trim().to_string());
            }
        }
        Ok(k)
    }
}

static IPV4: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}").unwrap());
static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)[0-9a-f]{0,4}:[0-9a-f]{0,4}:[0-9a-f:]{0,35}[0-9a-f]").unwrap()
});
static MAC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)[0-9a-f]{2}(?::[0-9a-f]{2}){5}").unwrap());
static HOME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/home/([a-z_][a-z0-9_.-]{1,31})").unwrap());
static DASHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)[a-z]+-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}").unwrap()
});

/// System and service accounts, whose names identify no one and appear in paths and class
/// names that the analysis reads: never pseudonymised.
const SYSTEM_USERS: &[&str] = &[
    "root",
    "daemon",
    "bin",
    "sys",
    "sync",
    "games",
    "man",
    "lp",
    "mail",
    "news",
    "uucp",
    "proxy",
    "www-data",
    "backup",
    "list",
    "irc",
    "gnats",
    "nobody",
    "nfsnobody",
    "operator",
    "ftp",
    "adm",
    "halt",
    "shutdown",
    "dbus",
    "messagebus",
    "polkitd",
    "chrony",
    "ntp",
    "sshd",
    "postfix",
    "rpc",
    "rpcuser",
    "avahi",
    "colord",
    "gdm",
    "tss",
    "libstoragemgmt",
    "setroubleshoot",
    "unbound",
    "sssd",
    "pcp",
    "apache",
    "nginx",
    "mysql",
    "postgres",
    "oracle",
    "grid",
    "hdfs",
    "yarn",
    "mapred",
    "hadoop",
    "hbase",
    "hive",
    "zookeeper",
    "kafka",
    "spark",
    "elasticsearch",
    "redis",
    "mongod",
    "syslog",
    "uuidd",
    "tcpdump",
    "landscape",
    "pollinate",
    "lxd",
    "usbmux",
    "rtkit",
    "pulse",
    "saned",
    "geoclue",
    "dnsmasq",
    "nscd",
    "named",
    "smmsp",
    "_apt",
    "chronyd",
    "rngd",
    "cockpit-ws",
    "clevis",
    "dirsrv",
    "gluster",
    "qemu",
    "libvirt",
    "radvd",
    "rpm",
    "systemd-network",
    "systemd-resolve",
    "systemd-timesync",
    "systemd-coredump",
    "systemd-oom",
    "user",
    "admin",
    "nagios",
    "zabbix",
    "prometheus",
    "grafana",
    "telegraf",
    "tomcat",
    "jenkins",
    "git",
    "docker",
    "ceph",
    "etcd",
    "memcached",
    "rabbitmq",
    "haproxy",
    "keepalived",
    "squid",
    "USER",
    "UID",
];

/// Whether `u` is a user name worth pseudonymising.
fn personal(u: &str) -> bool {
    u.len() >= 3
        && u.len() <= 32
        && !SYSTEM_USERS.contains(&u)
        && !u.starts_with("systemd-")
        && u.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && u.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && !u.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `h` is a syntactically valid host name worth pseudonymising.
pub fn host_name(h: &str) -> bool {
    let l = h.to_ascii_lowercase();
    !h.is_empty()
        && h.len() <= 253
        && !matches!(
            l.as_str(),
            "localhost"
                | "localhost.localdomain"
                | "localhost4"
                | "localhost6"
                | "(none)"
                | "unknown"
        )
        && !l.starts_with("localhost")
        && !l.starts_with("ip6-")
        && h.split('.').all(|p| {
            !p.is_empty()
                && p.len() <= 63
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !p.starts_with('-')
        })
        && h.bytes().any(|b| b.is_ascii_alphabetic())
        && h.parse::<Ipv4Addr>().is_err()
}

/// Adds a host name and, for an FQDN, its domain.
fn add_host(f: &mut Found, h: &str) {
    let h = h.trim().trim_end_matches('.');
    if !host_name(h) {
        return;
    }
    let h = h.to_ascii_lowercase();
    if let Some((_, dom)) = h.split_once('.') {
        add_domain(f, dom);
    }
    f.hosts.insert(h);
}

/// Adds a DNS domain, unless it is a bare well-known top-level one.
fn add_domain(f: &mut Found, d: &str) {
    let d = d.trim().trim_end_matches('.').to_ascii_lowercase();
    if !host_name(&d) || (!d.contains('.') && super::map::keep_tld(&d)) {
        return;
    }
    f.domains.insert(d);
}

/// The file name of a bundle path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Discovery over one entry: what it holds, added to `f`.
pub fn discover(path: &str, text: &[u8], kw: &Keywords, f: &mut Found) {
    let name = file_name(path);
    let lossy = || String::from_utf8_lossy(text);
    if name.starts_with("hostname") {
        if let Some(h) = lossy().split_whitespace().next() {
            add_host(f, h);
        }
    }
    if name.starts_with("uname") {
        for line in lossy().lines().take(4) {
            let mut w = line.split_whitespace();
            if w.next() == Some("Linux") {
                if let Some(h) = w.next() {
                    add_host(f, h);
                }
            }
        }
    }
    if name == "manifest.tsv" {
        for line in lossy().lines() {
            if let Some(h) = line.strip_prefix("meta\thostname\t") {
                add_host(f, h);
            }
        }
    }
    if name == "hosts" || path.ends_with("etc/hosts") {
        for line in lossy().lines() {
            let line = line.split('#').next().unwrap_or("");
            let mut w = line.split_whitespace();
            if w.next()
                .is_some_and(|ip| ip.parse::<std::net::IpAddr>().is_ok())
            {
                for h in w {
                    add_host(f, h);
                }
            }
        }
    }
    if name.starts_with("resolv.conf") {
        for line in lossy().lines() {
            let mut w = line.split_whitespace();
            if matches!(w.next(), Some("search" | "domain")) {
                for d in w {
                    add_domain(f, d);
                }
            }
        }
    }
    if name == "passwd" || name == "getent-passwd.txt" {
        for line in lossy().lines() {
            let p: Vec<&str> = line.split(':').collect();
            if p.len() >= 7 {
                let uid: u64 = p[2].parse().unwrap_or(0);
                if (1000..65534).contains(&uid) && personal(p[0]) {
                    f.users.insert(p[0].to_string());
                }
            }
        }
    }
    if name.starts_with("ps") || name.starts_with("top") {
        ps_users(&lossy(), f);
    }
    for m in IPV4.find_iter(text) {
        if !Class::Ipv4.bounded(text, m.start(), m.end()) {
            continue;
        }
        if let Some(a) = std::str::from_utf8(m.as_bytes())
            .ok()
            .and_then(|s| s.parse::<Ipv4Addr>().ok())
        {
            if !v4_special(a) {
                f.ipv4.insert(a);
            }
        }
    }
    if memchr::memmem::find(text, b"::").is_some() || memchr::memchr(b':', text).is_some() {
        for m in IPV6.find_iter(text) {
            if let Some((s, a)) = ipv6_at(text, m.start(), m.end()) {
                f.ipv6.insert(s, a);
            }
        }
        for m in MAC.find_iter(text) {
            if !Class::Mac.bounded(text, m.start(), m.end()) {
                continue;
            }
            let s = String::from_utf8_lossy(m.as_bytes()).to_ascii_lowercase();
            if s != "00:00:00:00:00:00" && s != "ff:ff:ff:ff:ff:ff" {
                f.macs.insert(s);
            }
        }
    }
    if memchr::memmem::find(text, b"/home/").is_some() {
        for c in HOME.captures_iter(text) {
            let u = String::from_utf8_lossy(&c[1]);
            let u = u.trim_end_matches(['.', '-']);
            if personal(u) {
                f.users.insert(u.to_string());
            }
        }
    }
    for m in DASHED.find_iter(text) {
        if Class::Host.bounded(text, m.start(), m.end()) {
            let s = String::from_utf8_lossy(m.as_bytes()).to_ascii_lowercase();
            if dashed_ip(&s).is_some() {
                f.hosts.insert(s);
            }
        }
    }
    for r in &kw.regexes {
        for m in r.find_iter(text) {
            if m.len() >= 2 {
                f.keywords
                    .insert(String::from_utf8_lossy(m.as_bytes()).to_ascii_lowercase());
            }
        }
    }
}

/// A validated IPv6 address at `text[s..e]` (a regex candidate): its lowercased text and value,
/// when it stands alone, is no special address, and is shaped like an address rather than a
/// C++ scope (`abc::def`) or a time (`12:30:00`).
pub fn ipv6_at(text: &[u8], s: usize, e: usize) -> Option<(String, Ipv6Addr)> {
    let cand = text.get(s..e)?;
    if !Class::Ipv6.bounded(text, s, e) {
        return None;
    }
    let colons = cand.iter().filter(|&&b| b == b':').count();
    let hex = cand.iter().filter(|b| b.is_ascii_hexdigit()).count();
    let shaped = cand.iter().any(|b| b.is_ascii_digit())
        && (colons == 7 || (memchr::memmem::find(cand, b"::").is_some() && hex >= 5));
    if !shaped {
        return None;
    }
    let st = std::str::from_utf8(cand).ok()?.to_ascii_lowercase();
    let a: Ipv6Addr = st.parse().ok()?;
    (!v6_special(a)).then_some((st, a))
}

/// User names in a `ps`/`top` table's USER column.
fn ps_users(text: &str, f: &mut Found) {
    let mut col = None;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match col {
            None => col = w.iter().position(|c| *c == "USER"),
            Some(c) => {
                if w.contains(&"USER") {
                    col = w.iter().position(|c| *c == "USER");
                    continue;
                }
                if let Some(u) = w.get(c) {
                    let u = u.trim_end_matches('+');
                    if personal(u) {
                        f.users.insert(u.to_string());
                    }
                }
            }
        }
    }
}

/// Total length of the originals up to which the replacer uses a DFA: 64 KiB of originals
/// (about 4 000 host names or 5 000 IPv4 addresses) make at most 64 Ki states of 64 byte
/// classes × 4 bytes, 16 MiB.
pub const DFA_MAX_PATTERN_BYTES: usize = 64 << 10;

/// Counts of replacements, per class.
pub type Counts = BTreeMap<Class, u64>;

/// One Aho-Corasick automaton over every original, with each one's class and pseudonym.
pub struct Replacer {
    ac: Option<AhoCorasick>,
    pats: Vec<(Class, String)>,
}

impl Replacer {
    /// Builds the replacer for `found` (plus the map's own originals, so that values from
    /// earlier bundles are replaced too), giving every original its pseudonym in `map`.
    pub fn new(found: &Found, map: &mut Map, keep_oui: bool) -> Replacer {
        map.reserve(found.hosts.iter().map(String::as_str));
        map.reserve(found.users.iter().map(String::as_str));
        map.reserve(found.macs.iter().map(String::as_str));
        let v4: Vec<String> = found.ipv4.iter().map(|a| a.to_string()).collect();
        map.reserve(v4.iter().map(String::as_str));
        let mut pats: BTreeMap<String, (Class, String)> = BTreeMap::new();
        for a in &found.ipv4 {
            let p = map.ipv4(*a);
            pats.insert(a.to_string(), (Class::Ipv4, p));
        }
        for (s, a) in &found.ipv6 {
            let p = map.ipv6(*a);
            pats.insert(s.clone(), (Class::Ipv6, p));
        }
        for m in &found.macs {
            let p = map.mac(m, keep_oui);
            pats.insert(m.clone(), (Class::Mac, p));
        }
        for d in &found.domains {
            map.domains.insert(d.clone());
        }
        for d in map.domains.clone() {
            let p = map.host(&d);
            pats.insert(d, (Class::Domain, p));
        }
        for h in &found.hosts {
            let p = map.host(h);
            pats.insert(h.clone(), (Class::Host, p));
        }
        for u in &found.users {
            let p = map.user(u);
            pats.insert(u.clone(), (Class::User, p));
        }
        for k in &found.keywords {
            let p = map.keyword(k);
            pats.insert(k.clone(), (Class::Keyword, p));
        }
        // Originals of earlier bundles that this one did not show in discovery.
        for (o, c) in map.originals() {
            if pats.contains_key(&o) {
                continue;
            }
            let p = match c {
                Class::Host | Class::Domain => map.hosts.get(&o).cloned(),
                Class::Ipv4 => map.ipv4.get(&o).cloned(),
                Class::Ipv6 => map.ipv6.get(&o).cloned(),
                Class::Mac => map.macs.get(&o).cloned(),
                Class::User => map.users.get(&o).cloned(),
                Class::Keyword => map.keywords.get(&o).cloned(),
            };
            if let Some(p) = p {
                if p != o {
                    pats.insert(o, (c, p));
                }
            }
        }
        Replacer::from_patterns(pats.into_iter().filter(|(o, (_, p))| o != p).collect())
    }

    /// A replacer over `(original, (class, pseudonym))`.
    pub fn from_patterns(pats: Vec<(String, (Class, String))>) -> Replacer {
        // A DFA is the fastest automaton (one table lookup per byte) but takes about
        // states × byte classes × 4 bytes, states being at most the originals' total length: it
        // is built while that stays within `DFA_MAX_PATTERN_BYTES`, else the contiguous NFA
        // (about 10-20 bytes per state). The kind changes the speed, never the matches.
        let total: usize = pats.iter().map(|(o, _)| o.len()).sum();
        let kind = (total <= DFA_MAX_PATTERN_BYTES).then_some(AhoCorasickKind::DFA);
        let build = |kind| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .ascii_case_insensitive(true)
                .kind(kind)
                .build(pats.iter().map(|(o, _)| o.as_bytes()))
        };
        let ac = (!pats.is_empty()).then(|| {
            build(kind)
                // A DFA over its size limit: the NFA always fits.
                .or_else(|_| build(Some(AhoCorasickKind::ContiguousNFA)))
                .expect("the originals fit an automaton")
        });
        Replacer {
            ac,
            pats: pats.into_iter().map(|(_, cp)| cp).collect(),
        }
    }

    /// Number of originals.
    pub fn len(&self) -> usize {
        self.pats.len()
    }

    /// Whether there is no original at all.
    pub fn is_empty(&self) -> bool {
        self.pats.is_empty()
    }

    /// Every bounded match in `text`: (start, end, class, pseudonym index), leftmost-longest.
    /// A domain match is widened left over the labels of the name it ends (`x.bank.corp`).
    pub fn matches<'a>(
        &'a self,
        text: &'a [u8],
    ) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        let mut pos = 0;
        std::iter::from_fn(move || {
            let ac = self.ac.as_ref()?;
            while pos < text.len() {
                let m = ac.find(Input::new(text).span(pos..text.len()))?;
                let (s, e, i) = (m.start(), m.end(), m.pattern().as_usize());
                let class = self.pats[i].0;
                if class.bounded(text, s, e) {
                    pos = e;
                    let s = if class == Class::Domain {
                        widen(text, s)
                    } else {
                        s
                    };
                    return Some((s, e, i));
                }
                pos = s + 1;
            }
            None
        })
    }

    /// `text` with every original replaced, or `None` when it holds none; counts per class.
    pub fn replace(&self, text: &[u8], map: &mut Map, counts: &mut Counts) -> Option<Vec<u8>> {
        let mut out: Option<Vec<u8>> = None;
        let mut last = 0;
        for (s, e, i) in self.matches(text) {
            let (class, pseudo) = &self.pats[i];
            let s = s.max(last);
            let o = out.get_or_insert_with(|| Vec::with_capacity(text.len() + 64));
            o.extend_from_slice(&text[last..s]);
            let orig = &text[s..e];
            if *class == Class::Domain {
                let name = String::from_utf8_lossy(orig);
                let p = map.host(&name);
                o.extend_from_slice(p.as_bytes());
                *counts.entry(Class::Host).or_default() += 1;
            } else {
                let upper = *class == Class::Mac && orig.iter().any(|b| b.is_ascii_uppercase());
                if upper {
                    o.extend_from_slice(pseudo.to_ascii_uppercase().as_bytes());
                } else {
                    o.extend_from_slice(pseudo.as_bytes());
                }
                *counts.entry(*class).or_default() += 1;
            }
            last = e;
        }
        let mut o = out?;
        o.extend_from_slice(&text[last..]);
        Some(o)
    }

    /// The class of pattern `i`.
    pub fn class(&self, i: usize) -> Class {
        self.pats[i].0
    }
}

/// The start of the dotted name ending at a domain match starting at `s`: the labels before it.
fn widen(text: &[u8], mut s: usize) -> usize {
    let label = |b: u8| b.is_ascii_alphanumeric() || b == b'-';
    while s >= 2 && text[s - 1] == b'.' && label(text[s - 2]) {
        let mut t = s - 1;
        while t > 0 && label(text[t - 1]) && s - t < 64 {
            t -= 1;
        }
        if text[t] == b'-' {
            break;
        }
        s = t;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        let h = b"vm.swappiness kvm vm rca-vm-2026 110.1.2.30 10.1.2.3. hadoop-hdfs";
        let at = |n: &[u8]| {
            let s = memchr::memmem::find_iter(h, n).collect::<Vec<_>>();
            s
        };
        let vm: Vec<bool> = at(b"vm")
            .into_iter()
            .map(|s| Class::Host.bounded(h, s, s + 2))
            .collect();
        assert_eq!(vm, [false, false, true, false]);
        assert!(!Class::Host.bounded(b"Server VM", 7, 9));
        let s = at(b"10.1.2.3")[0];
        assert!(!Class::Ipv4.bounded(h, s, s + 8));
        let s = at(b"10.1.2.3")[1];
        assert!(Class::Ipv4.bounded(h, s, s + 8));
        let s = at(b"hdfs")[0];
        assert!(!Class::User.bounded(h, s, s + 4));
    }

    #[test]
    fn discovery_and_replacement() {
        let mut f = Found::default();
        let kw = Keywords::parse("acme\nre:ACCT[0-9]{6}\n").unwrap();
        discover("etc/hosts", b"10.0.0.5 nn01.bank.corp nn01\n", &kw, &mut f);
        discover(
            "x/log",
            b"from dhcp-192-168-0-66 and fe80::1 and 2a01:4f8::10 at aa:bb:cc:dd:ee:01 ACCT123456 std::vector 12:30:00\n/home/alice/x\n",
            &kw,
            &mut f,
        );
        assert!(f.hosts.contains("nn01.bank.corp") && f.hosts.contains("nn01"));
        assert!(f.domains.contains("bank.corp"));
        assert!(f.hosts.contains("dhcp-192-168-0-66"));
        assert_eq!(f.ipv6.len(), 1, "{:?}", f.ipv6);
        assert!(f.users.contains("alice"));
        assert!(f.keywords.contains("acct123456"));
        let mut map = Map::default();
        let r = Replacer::new(&f, &mut map, false);
        let mut c = Counts::new();
        let text = b"nn01 dn07.bank.corp 10.0.0.5:80 ACCT123456 /home/alice AA:BB:CC:DD:EE:01";
        let out = r.replace(text, &mut map, &mut c).unwrap();
        let out = String::from_utf8(out).unwrap();
        for o in ["nn01", "bank", "10.0.0.5", "ACCT123456", "alice", "AA:BB"] {
            assert!(!out.contains(o), "{o} in {out}");
        }
        assert!(map.hosts.contains_key("dn07.bank.corp"), "{out}");
    }
}
