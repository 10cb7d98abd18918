//! Finding identifiers in bundle text (discovery) and replacing them (one literal-set pass).
//!
//! In: an entry's path and bytes. Out, for discovery: the originals it holds ([`Found`]): host
//! names from identity files (`hostname`, `uname`, `/etc/hosts`, the manifest's `meta hostname`,
//! `resolv.conf`'s domains), IPv4/IPv6/MAC addresses anywhere (candidates of one pass over the bytes, [`super::tokens`],
//! validated),
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
use super::map::{dashed_ip, mac_text, mac_value, v4_special, v6_special, Map};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, Input, MatchKind};
use regex::bytes::Regex;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
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
    /// MAC addresses, as 48-bit values ([`super::map::mac_value`]).
    pub macs: BTreeSet<u64>,
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

static HOME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/home/([a-z_][a-z0-9_.-]{1,31})").unwrap());

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

/// Whether `u` is a user name worth pseudonymising. Not a system account: one of
/// [`SYSTEM_USERS`], `systemd-*`, a name with a leading `_` (Debian's convention for system
/// accounts: `_apt`, `_chrony`), nor such a name as `top` and `ps` cut it to fit their USER
/// column (`messageb` of `messagebus` in `top`, `message+` in `ps`, the `+` already removed).
fn personal(u: &str) -> bool {
    let cut_system = u.len() >= 7
        && SYSTEM_USERS
            .iter()
            .any(|s| s.len() > u.len() && s.starts_with(u));
    u.len() >= 3
        && u.len() <= 32
        && !SYSTEM_USERS.contains(&u)
        && !u.starts_with("systemd")
        && !u.starts_with('_')
        && !cut_system
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
    super::tokens::candidates(text, |c, s, e| add_candidate(text, c, s, e, f));
    if memchr::memmem::find(text, b"/home/").is_some() {
        for c in HOME.captures_iter(text) {
            let u = String::from_utf8_lossy(&c[1]);
            let u = u.trim_end_matches(['.', '-']);
            if personal(u) {
                f.users.insert(u.to_string());
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

/// Validates the candidate `text[s..e]` of class `c` (an address, or a dashed host name for
/// [`Class::Host`]) and adds it to `f` when it stands alone and is not a special address.
fn add_candidate(text: &[u8], c: Class, s: usize, e: usize, f: &mut Found) {
    match c {
        Class::Ipv4 => {
            if !Class::Ipv4.bounded(text, s, e) {
                return;
            }
            if let Some(a) = std::str::from_utf8(&text[s..e])
                .ok()
                .and_then(|s| s.parse::<Ipv4Addr>().ok())
            {
                if !v4_special(a) {
                    f.ipv4.insert(a);
                }
            }
        }
        Class::Ipv6 => {
            if let Some((s, a)) = ipv6_at(text, s, e) {
                f.ipv6.insert(s, a);
            }
        }
        Class::Mac => {
            if !Class::Mac.bounded(text, s, e) {
                return;
            }
            let m = std::str::from_utf8(&text[s..e]).ok().and_then(mac_value);
            if let Some(m) = m.filter(|&m| m != 0 && m != 0xffff_ffff_ffff) {
                f.macs.insert(m);
            }
        }
        Class::Host => {
            if Class::Host.bounded(text, s, e) {
                let s = String::from_utf8_lossy(&text[s..e]).to_ascii_lowercase();
                if dashed_ip(&s).is_some() {
                    f.hosts.insert(s);
                }
            }
        }
        Class::Domain | Class::User | Class::Keyword => {}
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

/// Every original with its class and pseudonym, found leftmost-longest in one pass.
///
/// The originals are split in two sets searched side by side: address-shaped ones (IPv4, IPv6
/// and MAC text, [`address_shaped`]) in a hash table probed at each position of the runs of
/// `[0-9a-fA-F:.]` that hold a `:` or a `.`, and all others (names, users, keywords, other
/// forms) in an Aho-Corasick automaton. Leftmost-longest over a union of sets is the leftmost of
/// the sets' leftmost-longest matches, the longer at equal starts, so the matches are those of one
/// automaton over every original (which a DFA cannot hold for hundreds of thousands of MACs, and
/// a contiguous NFA walks several times slower).
pub struct Replacer {
    /// Automaton over the originals that are not address-shaped.
    ac: Option<AhoCorasick>,
    /// Index in `pats` of each automaton pattern.
    ac_ids: Vec<u32>,
    /// The address-shaped originals.
    addrs: Addresses,
    /// Class and pseudonym of every original.
    pats: Vec<(Class, String)>,
}

/// Address-shaped originals, looked up by a hash of their lower-case text.
#[derive(Default)]
struct Addresses {
    /// Hash of an original's lower-case text → (its index in `Replacer::pats`, where its text
    /// starts in `text`, its length).
    by_hash: HashMap<u64, (u32, u32, u8), BuildHasherDefault<Prehashed>>,
    /// The lower-case originals, one after the other, for `by_hash`'s hits to be checked.
    text: Vec<u8>,
    /// Bit `n`: some original is `n` bytes long.
    lens: u64,
    /// Length of the shortest original (0: none).
    min: usize,
    /// Length of the longest original.
    max: usize,
    /// Whether a match may start right after a letter or digit. Only a keyword's may
    /// ([`Class::bounded`]); without keywords, starts inside a word are not tried.
    inside_words: bool,
}

/// Longest address-shaped original: an IPv6 address written in full is 39 bytes.
const ADDR_MAX_LEN: usize = 45;

/// Whether `o` is an address-shaped original, searched in the hash table: 2 to
/// [`ADDR_MAX_LEN`] bytes of `[0-9a-fA-F:.]` holding a `:` or a `.`.
fn address_shaped(o: &[u8]) -> bool {
    (2..=ADDR_MAX_LEN).contains(&o.len())
        && o.iter().all(|&b| addr_byte(b))
        && o.iter().any(|&b| b == b':' || b == b'.')
}

/// Whether `b` may be part of an address-shaped original.
fn addr_byte(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b':' || b == b'.'
}

/// One step of the hash of lower-case address text (FNV-1a, 64 bits); hits are checked against
/// the text, so collisions cost a comparison, never a wrong match.
fn hash_step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The FNV offset basis.
const HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A hasher for keys that are hashes already: mixes the 64 bits once.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = hash_step(self.0, b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n);
    }
}

impl Addresses {
    /// Adds original `o` (address-shaped) as pattern `i`; false when its hash is taken.
    fn add(&mut self, o: &[u8], i: u32) -> bool {
        let h = o.iter().fold(HASH_START, |h, &b| hash_step(h, b));
        if self.by_hash.contains_key(&h) {
            return false;
        }
        let start = self.text.len() as u32;
        self.by_hash.insert(h, (i, start, o.len() as u8));
        self.text.extend(o.iter().map(u8::to_ascii_lowercase));
        self.lens |= 1 << o.len();
        self.min = if self.min == 0 {
            o.len()
        } else {
            self.min.min(o.len())
        };
        self.max = self.max.max(o.len());
        true
    }

    /// The leftmost-longest occurrence of an original starting at or after `pos` (and, unless
    /// [`Addresses::inside_words`], not right after a letter or digit): (start, end, pattern
    /// index). Work is bounded by [`ADDR_MAX_LEN`] hash steps per byte of the runs of
    /// `[0-9a-fA-F:.]` that hold a separator.
    fn find(&self, text: &[u8], pos: usize) -> Option<(usize, usize, usize)> {
        if self.min == 0 {
            return None;
        }
        let mut i = pos;
        while i < text.len() {
            let c = i + memchr::memchr2(b':', b'.', &text[i..])?;
            let mut r0 = c;
            while r0 > i && addr_byte(text[r0 - 1]) {
                r0 -= 1;
            }
            let mut r1 = c + 1;
            while r1 < text.len() && addr_byte(text[r1]) {
                r1 += 1;
            }
            if r1 - r0 >= self.min {
                for s in r0..=r1 - self.min {
                    if !self.inside_words && s > 0 && text[s - 1].is_ascii_alphanumeric() {
                        continue;
                    }
                    if let Some(m) = self.longest_at(text, s, r1) {
                        return Some(m);
                    }
                }
            }
            i = r1;
        }
        None
    }

    /// The longest original at `s`, ending at or before `r1`.
    fn longest_at(&self, text: &[u8], s: usize, r1: usize) -> Option<(usize, usize, usize)> {
        let mut h = HASH_START;
        let mut best = None;
        let top = (r1 - s).min(self.max);
        for (n, &b) in text[s..s + top].iter().enumerate() {
            h = hash_step(h, b);
            let len = n + 1;
            if self.lens & (1 << len) == 0 {
                continue;
            }
            if let Some(&(i, at, l)) = self.by_hash.get(&h) {
                let o = &self.text[at as usize..at as usize + l as usize];
                if usize::from(l) == len && text[s..s + len].eq_ignore_ascii_case(o) {
                    best = Some((s, s + len, i as usize));
                }
            }
        }
        best
    }
}

impl Replacer {
    /// Builds the replacer for `found` (plus the map's own originals, so that values from
    /// earlier bundles are replaced too), giving every original its pseudonym in `map`.
    pub fn new(found: &Found, map: &mut Map, keep_oui: bool) -> Replacer {
        map.reserve(found.hosts.iter().map(String::as_str));
        map.reserve(found.users.iter().map(String::as_str));
        map.reserve_macs(found.macs.iter().copied());
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
        for &m in &found.macs {
            let p = map.mac_value(m, keep_oui);
            pats.insert(mac_text(m), (Class::Mac, mac_text(p)));
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
        // Originals of earlier bundles that this one did not show in discovery, class by class
        // in the order of `Map::originals` (the first class of an original wins); a domain's
        // pseudonym is its host-name one.
        let mut earlier = |o: &str, c: Class, p: Option<&str>| {
            if let Some(p) = p.filter(|&p| p != o && !pats.contains_key(o)) {
                pats.insert(o.to_string(), (c, p.to_string()));
            }
        };
        for (o, p) in &map.hosts {
            earlier(o, Class::Host, Some(p));
        }
        for o in &map.domains {
            earlier(o, Class::Domain, map.hosts.get(o).map(String::as_str));
        }
        for (o, p) in &map.ipv4 {
            earlier(o, Class::Ipv4, Some(p));
        }
        for (o, p) in &map.ipv6 {
            earlier(o, Class::Ipv6, Some(p));
        }
        for (&o, &p) in &map.macs {
            earlier(&mac_text(o), Class::Mac, Some(&mac_text(p)));
        }
        for (o, p) in &map.users {
            earlier(o, Class::User, Some(p));
        }
        for (o, p) in &map.keywords {
            earlier(o, Class::Keyword, Some(p));
        }
        Replacer::from_patterns(pats.into_iter().filter(|(o, (_, p))| o != p).collect())
    }

    /// A replacer over `(original, (class, pseudonym))`. When two originals are equal but for
    /// ASCII case, the earlier one wins (as in one leftmost-longest automaton).
    pub fn from_patterns(pats: Vec<(String, (Class, String))>) -> Replacer {
        // A match that no class takes (one inside a word) is skipped whichever set finds it:
        // the address set need not report it unless a keyword, taken anywhere, could lose to it
        // at the same start.
        let mut addrs = Addresses {
            inside_words: pats.iter().any(|(_, (c, _))| *c == Class::Keyword),
            ..Addresses::default()
        };
        let mut rest: Vec<&[u8]> = Vec::new();
        let mut ac_ids = Vec::new();
        for (i, (o, _)) in pats.iter().enumerate() {
            let o = o.as_bytes();
            if !(address_shaped(o) && addrs.add(o, i as u32)) {
                rest.push(o);
                ac_ids.push(i as u32);
            }
        }
        // A DFA is the fastest automaton (one table lookup per byte) but takes about
        // states × byte classes × 4 bytes, states being at most the originals' total length: it
        // is built while that stays within `DFA_MAX_PATTERN_BYTES`, else the contiguous NFA
        // (about 10-20 bytes per state). The kind changes the speed, never the matches. The DFA
        // runs without a prefilter: one that picks bytes common in the text (digits in `perf
        // script`, `me` of a user `messagebus`) made the search about twice as slow as the DFA
        // alone, which walks a few hundred MB/s whatever the text.
        let total: usize = rest.iter().map(|o| o.len()).sum();
        let kind = (total <= DFA_MAX_PATTERN_BYTES).then_some(AhoCorasickKind::DFA);
        let build = |kind| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .ascii_case_insensitive(true)
                .prefilter(kind != Some(AhoCorasickKind::DFA))
                .kind(kind)
                .build(&rest)
        };
        let ac = (!rest.is_empty()).then(|| {
            build(kind)
                // A DFA over its size limit: the NFA always fits.
                .or_else(|_| build(Some(AhoCorasickKind::ContiguousNFA)))
                .expect("the originals fit an automaton")
        });
        Replacer {
            ac,
            ac_ids,
            addrs,
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

    /// The leftmost-longest occurrence of any original at or after `pos` in the automaton.
    fn find_ac(&self, text: &[u8], pos: usize) -> Option<(usize, usize, usize)> {
        let m = self
            .ac
            .as_ref()?
            .find(Input::new(text).span(pos..text.len()))?;
        let i = self.ac_ids[m.pattern().as_usize()] as usize;
        Some((m.start(), m.end(), i))
    }

    /// Every bounded match in `text`: (start, end, pattern index), leftmost-longest; after a
    /// match that is not bounded, the search goes on one byte after its start.
    /// A domain match is widened left over the labels of the name it ends (`x.bank.corp`).
    pub fn matches<'a>(
        &'a self,
        text: &'a [u8],
    ) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        let mut pos = 0;
        // The last answer of each set and the position it was asked at: still the answer for a
        // later position as long as it starts there or after (or there was none).
        type Cached = Option<Option<(usize, usize, usize)>>;
        let mut ac: Cached = None;
        let mut ad: Cached = None;
        std::iter::from_fn(move || {
            while pos < text.len() {
                let fresh = |c: &Cached| match c {
                    Some(Some((s, _, _))) => *s >= pos,
                    Some(None) => true,
                    None => false,
                };
                if !fresh(&ac) {
                    ac = Some(self.find_ac(text, pos));
                }
                if !fresh(&ad) {
                    ad = Some(self.addrs.find(text, pos));
                }
                let (a, d) = (ac.flatten(), ad.flatten());
                let (s, e, i) = match (a, d) {
                    (None, None) => {
                        pos = text.len();
                        return None;
                    }
                    (Some(m), None) | (None, Some(m)) => m,
                    (Some(a), Some(d)) => {
                        let d_first =
                            d.0 < a.0 || (d.0 == a.0 && (d.1 > a.1 || d.1 == a.1 && d.2 < a.2));
                        if d_first {
                            d
                        } else {
                            a
                        }
                    }
                };
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

    /// Appends to `out` the text with every original replaced, when it holds one; returns
    /// whether it did (`out` is left as it was otherwise). Counts per class.
    pub fn replace_into(
        &self,
        text: &[u8],
        out: &mut Vec<u8>,
        map: &mut Map,
        counts: &mut Counts,
    ) -> bool {
        let mut last = 0;
        let mut any = false;
        let mut n = [0u64; 7];
        for (s, e, i) in self.matches(text) {
            let (class, pseudo) = &self.pats[i];
            let s = s.max(last);
            if !any {
                out.reserve(text.len() + 64);
                any = true;
            }
            out.extend_from_slice(&text[last..s]);
            let orig = &text[s..e];
            if *class == Class::Domain {
                let name = String::from_utf8_lossy(orig);
                let p = map.host(&name);
                out.extend_from_slice(p.as_bytes());
                n[Class::Host as usize] += 1;
            } else {
                let upper = *class == Class::Mac && orig.iter().any(|b| b.is_ascii_uppercase());
                if upper {
                    out.extend(pseudo.bytes().map(|b| b.to_ascii_uppercase()));
                } else {
                    out.extend_from_slice(pseudo.as_bytes());
                }
                n[*class as usize] += 1;
            }
            last = e;
        }
        if !any {
            return false;
        }
        out.extend_from_slice(&text[last..]);
        for c in [
            Class::Host,
            Class::Domain,
            Class::Ipv4,
            Class::Ipv6,
            Class::Mac,
            Class::User,
            Class::Keyword,
        ] {
            if n[c as usize] > 0 {
                *counts.entry(c).or_default() += n[c as usize];
            }
        }
        true
    }

    /// `text` with every original replaced, or `None` when it holds none; counts per class.
    pub fn replace(&self, text: &[u8], map: &mut Map, counts: &mut Counts) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.replace_into(text, &mut out, map, counts)
            .then_some(out)
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

    #[test]
    fn system_accounts_are_no_users() {
        // USER columns: the s1 sample's `top -b` (Debian's chrony runs as `_chrony`, `top` cut
        // `messagebus` to 8 columns), and `top -b`/`ps` of procps-ng 4.0.2, which cut a longer
        // name to 7 characters and a `+` (`roberts+` captured for `robertsonlong`,
        // `message+` as `messagebus` is cut).
        let top =
            b"    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n\
            502 _chrony   20   0   18916   3380   3380 S   0.0   0.0   0:00.00 chronyd\n\
            514 messageb  20   0    9128   4312   4312 S   0.0   0.0   0:00.00 dbus-daem+\n\
          15168 roberts+  20   0    2920   1884   1776 S   0.0   0.0   0:00.00 sleep\n";
        let ps = b"  PID  PPID USER     NLWP %CPU COMMAND\n\
              514     1 message+    1  0.0 dbus-daemon\n\
              733     1 systemd+    1  0.0 systemd-timesyn\n\
             4242     1 alice       1  0.0 java\n";
        let mut f = Found::default();
        discover("system/top.txt", top, &Keywords::default(), &mut f);
        discover("system/ps.txt", ps, &Keywords::default(), &mut f);
        let users: Vec<&str> = f.users.iter().map(String::as_str).collect();
        assert_eq!(users, ["alice", "roberts"]);
    }

    /// Discovery of addresses and dashed host names as one search of each class's regex over
    /// the whole text, each match validated: the reference for the one-pass candidates.
    fn regex_discovery(text: &[u8]) -> Found {
        static IPV4: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?-u)[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}").unwrap()
        });
        static IPV6: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i-u)[0-9a-f]{0,4}:[0-9a-f]{0,4}:[0-9a-f:]{0,35}[0-9a-f]").unwrap()
        });
        static MAC: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"(?i-u)[0-9a-f]{2}(?::[0-9a-f]{2}){5}").unwrap());
        static DASHED: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i-u)[a-z]+-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}").unwrap()
        });
        let mut f = Found::default();
        for (re, c) in [
            (&IPV4, Class::Ipv4),
            (&IPV6, Class::Ipv6),
            (&MAC, Class::Mac),
            (&DASHED, Class::Host),
        ] {
            for m in re.find_iter(text) {
                add_candidate(text, c, m.start(), m.end(), &mut f);
            }
        }
        f
    }

    /// The same from the one-pass candidates.
    fn token_discovery(text: &[u8]) -> Found {
        let mut f = Found::default();
        super::super::tokens::candidates(text, |c, s, e| add_candidate(text, c, s, e, &mut f));
        f
    }

    /// Asserts that both discoveries find the same originals in `text`, and that the
    /// replacers built from them write the same text and the same map.
    fn same_discovery(text: &[u8], replace: bool) {
        let (want, got) = (regex_discovery(text), token_discovery(text));
        let show = || String::from_utf8_lossy(text).into_owned();
        assert_eq!(got.ipv4, want.ipv4, "IPv4 in {:?}", show());
        assert_eq!(got.ipv6, want.ipv6, "IPv6 in {:?}", show());
        assert_eq!(got.macs, want.macs, "MACs in {:?}", show());
        assert_eq!(got.hosts, want.hosts, "host names in {:?}", show());
        if replace {
            let (mut m1, mut m2) = (Map::default(), Map::default());
            let r1 = Replacer::new(&want, &mut m1, false);
            let r2 = Replacer::new(&got, &mut m2, false);
            let o1 = r1.replace(text, &mut m1, &mut Counts::new());
            let o2 = r2.replace(text, &mut m2, &mut Counts::new());
            assert_eq!(o2, o1, "output of {:?}", show());
            let j = |m: &Map| serde_json::to_string(m).unwrap();
            assert_eq!(j(&m2), j(&m1), "map of {:?}", show());
        }
    }

    #[test]
    fn one_pass_discovery_finds_what_the_regexes_find() {
        let fixed: &[&str] = &[
            "10.1.2.3 110.1.2.30 10.1.2.3. 10.1.2.3.4 x10.1.2.3 1234.1.2.3 10.1.2.3456 010.1.2.3",
            "1.2.3.4.5.6.7.8 9.1.2.3:80 [10.0.0.5] 10.0.0.5/24 10.0.0.256 0.0.0.0 8.8.8.8",
            "fe80::1 2a01:4f8::10 2A01:4F8::AB ::ffff:10.0.0.5 ::1 fd00:1:2:3:4:5:6:7 1::2::3",
            "2a01:4f8:1:2:3:4:5:6:7:8 12:30:00 std::vector abc::def 12345::1 :::1 2a01:4f8::10:",
            "aa:bb:cc:dd:ee:01 AA:BB:CC:DD:EE:0F 00:00:00:00:00:00 ff:ff:ff:ff:ff:ff",
            "52:54:00:12:34:56:78 0aa:bb:cc:dd:ee:01 aa:bb:cc:dd:ee:01.5 aa:bb:cc:dd:ee:0g",
            "dhcp-192-168-0-66 ip-10-0-0-1 IP-10-0-0-1 x-dhcp-1-2-3-4 dhcp-1-2-3-4567 9ab-1-2-3-4",
            "dhcp-10-0-0-1.bank.corp a_ip-10-0-0-1 ip-10-0-0-1-x ip-127-0-0-1 ip-10-0-0-1_",
            "",
            ":",
            "a",
            "1.2.3.4",
            "a:b:c:d:e:f:1",
        ];
        for t in fixed {
            same_discovery(t.as_bytes(), true);
        }
        // Pieces joined by `|`: addresses, near-addresses, words, separators.
        let pieces: Vec<&str> = concat!(
            "10.0.0.5|192.168.0.66|1.2.3.4|255.255.255.255|127.0.0.1|10.0.0.256|010.1.2.3|",
            "1234.5.6.7|8.8.8.8.8|10.20.|fe80::1|2a01:4f8::10|2a01:4f8:1:2:3:4:5:6|2A01:4F8::AB|",
            "::ffff:10.0.0.5|::1|12:30:00|std::vector|abc::def|1::2::3|2001:db8::1|fd00:1:2:3::1|",
            "aa:bb:cc:dd:ee:01|AA:BB:CC:DD:EE:0F|00:00:00:00:00:00|ff:ff:ff:ff:ff:ff|",
            "52:54:00:12:34:56:78|0a:1b:2c:3d:4e|dhcp-192-168-0-66|ip-10-0-0-1|IP-10-0-0-1|",
            "x-1-2-3-4567|a1-2-3-4-5|deadbeef|cafe|0x1f|123|4567|abc|xyz|a|f|0|9| |.|:|-|_|/|::|",
            "\n|[|]|=|,|@|%|..|:::|é"
        )
        .split('|')
        .collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for k in 0..5000 {
            let mut t = String::new();
            for _ in 0..1 + next(16) {
                t.push_str(pieces[next(pieces.len())]);
            }
            same_discovery(t.as_bytes(), k % 10 == 0);
        }
        // Real text: the sample bundles' and the parsers' fixtures' text files.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut dirs = vec![
            root.join("sample-bundles"),
            root.join("parsers/tests/fixtures"),
        ];
        let mut files = 0;
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if let Ok(b) = std::fs::read(&p) {
                    if !super::super::binary(&b) && b.len() < 4 << 20 {
                        same_discovery(&b, false);
                        files += 1;
                    }
                }
            }
        }
        assert!(files > 100, "{files} text files compared");
    }

    /// What one leftmost-longest automaton over every original replaces: the reference the
    /// replacer must match byte for byte.
    fn reference(pats: &[(String, (Class, String))], text: &[u8], map: &mut Map) -> Vec<u8> {
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(true)
            .build(pats.iter().map(|(o, _)| o.as_bytes()))
            .unwrap();
        let (mut out, mut last, mut pos) = (Vec::new(), 0, 0);
        while pos < text.len() {
            let Some(m) = ac.find(Input::new(text).span(pos..text.len())) else {
                break;
            };
            let (class, pseudo) = &pats[m.pattern().as_usize()].1;
            if !class.bounded(text, m.start(), m.end()) {
                pos = m.start() + 1;
                continue;
            }
            let s = if *class == Class::Domain {
                widen(text, m.start())
            } else {
                m.start()
            }
            .max(last);
            out.extend_from_slice(&text[last..s]);
            let orig = &text[s..m.end()];
            if *class == Class::Domain {
                out.extend_from_slice(map.host(&String::from_utf8_lossy(orig)).as_bytes());
            } else if *class == Class::Mac && orig.iter().any(u8::is_ascii_uppercase) {
                out.extend_from_slice(pseudo.to_ascii_uppercase().as_bytes());
            } else {
                out.extend_from_slice(pseudo.as_bytes());
            }
            last = m.end();
            pos = m.end();
        }
        out.extend_from_slice(&text[last..]);
        out
    }

    /// Originals that overlap each other in every way the classes allow.
    fn overlapping() -> Vec<(String, (Class, String))> {
        let p = |o: &str, c: Class, ps: &str| (o.to_string(), (c, ps.to_string()));
        vec![
            p("10.0.0.5", Class::Ipv4, "11.0.0.1"),
            p("10.0.0.50", Class::Ipv4, "11.0.0.2"),
            p("192.168.0.66", Class::Ipv4, "11.1.0.1"),
            p("aa:bb:cc:dd:ee:01", Class::Mac, "02:00:00:00:00:01"),
            p("bb:cc:dd:ee:01:02", Class::Mac, "02:00:00:00:00:02"),
            p("2a01:4f8::10", Class::Ipv6, "fd00:1::1"),
            p("2a01:4f8::1", Class::Ipv6, "fd00:1::2"),
            p("2a01:4f8::10:1", Class::Ipv6, "fd00:1::3"),
            p("::ffff:a00:5", Class::Ipv6, "fd00:2::1"),
            p("dhcp-192-168-0-66", Class::Host, "dhcp-11-1-0-1"),
            p("nn01", Class::Host, "h0001"),
            p("nn01.bank.corp", Class::Host, "h0001.d0002.corp"),
            p("nn0", Class::Host, "h0003"),
            p("bank.corp", Class::Domain, "d0002.corp"),
            p("alice", Class::User, "u0001"),
            p("Alice", Class::User, "u0002"),
            p("ee:01 and", Class::Keyword, "kw0001"),
            p("acct-10.0.0.5-x", Class::Keyword, "kw0002"),
            p("0.0.5:80", Class::Keyword, "kw0003"),
            p("cc:dd", Class::Keyword, "kw0004"),
            p("4f8::", Class::Keyword, "kw0005"),
            p("5.1", Class::Keyword, "kw0006"),
        ]
    }

    #[test]
    fn replaces_as_one_leftmost_longest_automaton() {
        let pats = overlapping();
        let r = Replacer::from_patterns(pats.clone());
        let cases: &[&[u8]] = &[
            b"from 10.0.0.5 and 10.0.0.50, 10.0.0.5:80 and 10.0.0.500",
            b"dhcp-192-168-0-66 at 192.168.0.66 or x-dhcp-192-168-0-66.bank.corp",
            b"lladdr aa:bb:cc:dd:ee:01, AA:BB:CC:DD:EE:01 aa:bb:cc:dd:ee:01:02 0aa:bb:cc:dd:ee:01",
            b"peer ::ffff:10.0.0.5 ::ffff:a00:5 2a01:4f8::10 2a01:4f8::10:1 2a01:4f8::1 2a01:4f8::100",
            b"nn01 nn01.bank.corp nn0 nn012 dn07.bank.corp NN01.BANK.CORP nn01-x",
            b"/home/alice/nn01/10.0.0.5/aa:bb:cc:dd:ee:01/Alice/x.log",
            b"acct-10.0.0.5-x ee:01 and aa:bb:cc:dd:ee:01 and 10.0.0.5.1 4f8::10 cc:dd:ee",
            b"",
            b"nothing to see",
        ];
        for t in cases {
            let (mut m1, mut m2) = (Map::default(), Map::default());
            let want = reference(&pats, t, &mut m1);
            let got = r.replace(t, &mut m2, &mut Counts::new());
            let got = got.unwrap_or_else(|| t.to_vec());
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "on {:?}",
                String::from_utf8_lossy(t)
            );
        }
        // Random texts built from pieces of the originals and the bytes around them.
        let pieces: Vec<String> = pats
            .iter()
            .flat_map(|(o, _)| {
                let n = o.len();
                [
                    o.clone(),
                    o[..n / 2].to_string(),
                    o[n / 2..].to_string(),
                    o.to_uppercase(),
                ]
            })
            .chain(
                [" ", ".", ":", "-", "_", "/", "0", "1", "a", "x", "::", "\n"]
                    .iter()
                    .map(|s| s.to_string()),
            )
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..3000 {
            let mut t = String::new();
            for _ in 0..1 + next(12) {
                t.push_str(&pieces[next(pieces.len())]);
            }
            let (mut m1, mut m2) = (Map::default(), Map::default());
            let want = reference(&pats, t.as_bytes(), &mut m1);
            let got = r
                .replace(t.as_bytes(), &mut m2, &mut Counts::new())
                .unwrap_or_else(|| t.as_bytes().to_vec());
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "on {t:?}"
            );
        }
    }
}
