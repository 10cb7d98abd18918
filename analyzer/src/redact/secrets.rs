//! Secrets removed: values replaced by [`MARKER`], never pseudonymised.
//!
//! In: an entry's bytes. Out: the bytes with every secret value replaced, and what kind of
//! secret each was ([`mask`]). The same recogniser is the leak scan's ([`find`]): text holds a
//! secret when masking it would change it.
//!
//! What counts as a secret (the collector's masking rules, in one place):
//! - the value of a key that names one: its letters hold `passw`, `passphrase`, `secret`,
//!   `token`, `credential`, `apikey`, `privatekey` or `accesskey`, or its last word is `pw`,
//!   `pwd`, `pass`, `auth`, or `key` after another word (`ssl.key`, `api_key`); not a setting
//!   about a secret (`token.ttl`, `keyStoreType`, `--tls-private-key-file`), and never the values
//!   `true`, `false` or the path of a key or configuration file. Written as `k=v`, `-Dk=v`,
//!   `k: v`, JSON `"k": "v"`, `--k v`, `k v` alone on a line, XML `<k>v</k>`, attributes
//!   (`name="k" value="v"`, `k="v"`), and Hadoop's `<property>` with `<name>` and `<value>`
//!   (on one line or several);
//! - by shape: PEM private-key blocks (multi-line; an unterminated one to the end), credential
//!   headers (`Authorization:`, `Proxy-Authorization:`, `Cookie:`, `X-Api-Key:` …), bearer
//!   tokens, JWTs, `scheme://user:password@`, Oracle JDBC `user/password@`, curl's
//!   `-u user:password`, AWS access key ids (`AKIA…`, `ASIA…`).

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};
use memchr::memmem::Finder;
use regex::bytes::{Captures, Regex};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// What replaces a secret value.
pub const MARKER: &str = "[REDACTED]";

/// Counts of secrets removed, per kind (`key-value`, `pem-private-key`, `url-password` …).
pub type SecretCounts = BTreeMap<&'static str, u64>;

/// Words whose presence (any case) makes a line worth the secret rules, lower case: searched in
/// a lower-cased copy of the text, so the automaton is case-sensitive and its SIMD prefilter
/// (Teddy) applies, which an ASCII-case-insensitive automaton's does not. (`pwd` needs no entry
/// of its own: `pw` finds its lines.)
static TRIGGERS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        .build([
            "pass",
            "pw",
            "secret",
            "token",
            "key",
            "auth",
            "credential",
            "cookie",
            "bearer",
            "://",
            "eyj",
            "akia",
            "asia",
            "--user",
            "-u ",
            "jdbc:oracle",
        ])
        .expect("static patterns")
});

/// Text is lower-cased and searched for [`TRIGGERS`] this many bytes at a time (then to the end
/// of the line), so the copy stays in cache.
const CHUNK: usize = 64 << 10;

/// Substring searchers built once (`memmem::find` builds one per call, which costs more than
/// the search on a short line).
struct Finders {
    auth: Finder<'static>,
    cookie: Finder<'static>,
    api_key: Finder<'static>,
    private_token: Finder<'static>,
    bearer: Finder<'static>,
    jdbc_oracle: Finder<'static>,
    eyj: Finder<'static>,
    scheme: Finder<'static>,
    dash_u: Finder<'static>,
    akia: Finder<'static>,
    asia: Finder<'static>,
    private_key: Finder<'static>,
    property: Finder<'static>,
}

static FIND: LazyLock<Finders> = LazyLock::new(|| Finders {
    auth: Finder::new(b"auth"),
    cookie: Finder::new(b"cookie"),
    api_key: Finder::new(b"api-key"),
    private_token: Finder::new(b"private-token"),
    bearer: Finder::new(b"bearer"),
    jdbc_oracle: Finder::new(b"jdbc:oracle"),
    eyj: Finder::new(b"eyJ"),
    scheme: Finder::new(b"://"),
    dash_u: Finder::new(b"-u"),
    akia: Finder::new(b"AKIA"),
    asia: Finder::new(b"ASIA"),
    private_key: Finder::new(b"PRIVATE KEY"),
    property: Finder::new(b"<property"),
});

static PEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s-u)(-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----)(.*?)(-----END [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----|\z)")
        .unwrap()
});
static PROPERTY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is-u)<property\b[^>]{0,200}>(.{0,4000}?)</property>").unwrap());
static PROP_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is-u)<name>\s*([^<]{1,300}?)\s*</name>").unwrap());
static PROP_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is-u)(<value>)([^<]*)(</value>)").unwrap());
static FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)(?:^|[ \t])(--?[A-Za-z0-9_.\-]{1,200})[ \t]+([^ \t\-][^ \t]*)").unwrap()
});
static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)<([A-Za-z0-9_.:\-]{1,200})>([^<]+)</").unwrap());
static ATTR_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i-u)<[a-z][^<>]*[ \t](?:name|key)[ \t]*=[ \t]*["']([^"']*)["'][^<>]*>"#)
        .unwrap()
});
static ATTR_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i-u)([ \t]value[ \t]*=[ \t]*["'])([^"']*)(["'])"#).unwrap());
static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i-u)(?:^|[^a-z0-9_.\-])((?:proxy-)?authorization|(?:set-)?cookie|x-api-key|x-auth-token|api-key|private-token)[ \t]*:[ \t]*"#).unwrap()
});
static BEARER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)(bearer[ \t]+)([a-z0-9._~+/=\-]{8,})").unwrap());
static JWT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*").unwrap()
});
static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)(://[^/ \t:@]*(?:\\?:))([^/ \t@]+)(@)").unwrap());
static ORACLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(jdbc:oracle:[a-z0-9]+:[^/ \t@:]+/)([^ \t@]+)(@)").unwrap()
});
static CURL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)((?:^|[ \t])(?:-u|--user|--proxy-user)[ \t]+[^ \t:]*:)([^ \t]+)").unwrap()
});
static AWS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)\b(?:AKIA|ASIA)[A-Z0-9]{16}\b").unwrap());

/// Whether the key name `k` names a secret (see the module docs).
pub fn secret_key(k: &[u8]) -> bool {
    let mut k = k;
    if let Some(r) = k.strip_prefix(b"-D") {
        k = r;
    }
    while let Some(r) = k.strip_prefix(b"-") {
        k = r;
    }
    // camelCase → camel.case, then lowercase; on the stack for keys of up to 256 bytes (every
    // key the line rules read), on the heap beyond.
    // (`w` takes at most 2 bytes per byte of `k`, its letters and digits one more.)
    let mut stack = [0u8; 768];
    let mut heap = Vec::new();
    let buf: &mut [u8] = if k.len() <= 256 {
        &mut stack
    } else {
        heap.resize(3 * k.len(), 0);
        &mut heap
    };
    let mut n = 0;
    let mut prev = 0u8;
    for &c in k {
        if c.is_ascii_uppercase() && (prev.is_ascii_lowercase() || prev.is_ascii_digit()) {
            buf[n] = b'.';
            n += 1;
        }
        buf[n] = c.to_ascii_lowercase();
        n += 1;
        prev = c;
    }
    let (w, rest) = buf.split_at_mut(n);
    let w: &[u8] = w;
    let last_start = w
        .iter()
        .rposition(|b| !b.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1);
    let last = &w[last_start..];
    let compound = last_start > 0;
    const ABOUT: &[&[u8]] = &[
        b"file",
        b"path",
        b"dir",
        b"directory",
        b"location",
        b"ttl",
        b"timeout",
        b"type",
        b"mode",
        b"enabled",
        b"enable",
        b"disabled",
        b"required",
        b"algorithm",
        b"length",
        b"size",
        b"format",
        b"expiry",
        b"expiration",
        b"lifetime",
        b"interval",
        b"method",
        b"webhook",
        b"provider",
        b"class",
        b"factory",
        b"encoder",
        b"policy",
        b"id",
        b"name",
        b"alias",
        b"store",
        b"url",
        b"uri",
        b"count",
        b"bits",
    ];
    if compound && ABOUT.contains(&last) {
        return false;
    }
    // The letters and digits of `w`, in the rest of the buffer (it holds at least `w.len()`).
    let mut cn = 0;
    for &b in w.iter().filter(|b| b.is_ascii_alphanumeric()) {
        rest[cn] = b;
        cn += 1;
    }
    let c = &rest[..cn];
    let has = |n: &[u8]| c.windows(n.len()).any(|w| w == n);
    if has(b"passw")
        || has(b"passphrase")
        || has(b"secret")
        || has(b"token")
        || has(b"credential")
        || has(b"apikey")
        || has(b"privatekey")
        || has(b"accesskey")
    {
        return true;
    }
    if matches!(
        w,
        b"authorization" | b"proxy-authorization" | b"cookie" | b"set-cookie"
    ) {
        return true;
    }
    if matches!(
        last,
        b"pw" | b"pwd" | b"pass" | b"auth" | b"requirepass" | b"masterauth"
    ) {
        return !(w.ends_with(b"_pass") && compound && w.len() > 5 && {
            let s = &w[..w.len() - 5];
            s.ends_with(b"proxy")
                || s.ends_with(b"fastcgi")
                || s.ends_with(b"uwsgi")
                || s.ends_with(b"scgi")
                || s.ends_with(b"grpc")
                || s.ends_with(b"memcached")
        });
    }
    last == b"key" && compound
}

/// Whether `v` is no secret whatever its key: empty, already masked, `true`/`false`, or the
/// path of a key, certificate or configuration file.
fn plain(v: &[u8]) -> bool {
    if v.is_empty() || v == MARKER.as_bytes() || v.iter().all(|&b| b == b'*') {
        return true;
    }
    let is = |w: &[u8]| v.eq_ignore_ascii_case(w);
    if is(b"true") || is(b"false") || is(b"null") || is(b"none") {
        return true;
    }
    let l = v;
    const EXT: &[&str] = &[
        "pem",
        "key",
        "crt",
        "cer",
        "der",
        "jks",
        "p12",
        "pfx",
        "keystore",
        "truststore",
        "keytab",
        "pub",
        "csr",
        "conf",
        "cfg",
        "json",
        "yaml",
        "yml",
        "properties",
        "xml",
        "txt",
    ];
    l.starts_with(b"/")
        && !l.contains(&b' ')
        && EXT.iter().any(|e| {
            l.len() > e.len() + 1
                && l[l.len() - e.len()..].eq_ignore_ascii_case(e.as_bytes())
                && l[l.len() - e.len() - 1] == b'.'
        })
}

/// Collects the edits of one text: byte ranges replaced by [`MARKER`], with the kind.
struct Edits {
    v: Vec<(usize, usize, &'static str)>,
}

impl Edits {
    fn add(&mut self, s: usize, e: usize, kind: &'static str) {
        if e > s {
            self.v.push((s, e, kind));
        }
    }
}

/// The value at `line[at..]` for a secret key: a quoted value to its closing quote (to the end
/// of the line when unclosed), else the longest run of bytes not in `stop`. Returns its range.
fn value_at(line: &[u8], at: usize, stop: &[u8]) -> Option<(usize, usize)> {
    let rest = line.get(at..)?;
    let q = *rest.first()?;
    if q == b'"' || q == b'\'' {
        let mut i = 1;
        while i < rest.len() {
            if rest[i] == b'\\' {
                i += 2;
                continue;
            }
            if rest[i] == q {
                return Some((at + 1, at + i));
            }
            i += 1;
        }
        return Some((at + 1, line.len()));
    }
    let n = rest
        .iter()
        .position(|b| stop.contains(b))
        .unwrap_or(rest.len());
    Some((at, at + n))
}

/// Whether `b` may be part of a key name in `k=v` and `k: v`.
fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The next `k=v` / `k: v` separator of `line` at or after `pos`: the first match of
/// `["']?([A-Za-z0-9_.\-]{1,200})["']?[ \t]*(\\?=|:)[ \t]*` there (as a regex's leftmost-first
/// search would find it), read byte by byte. Returns the key's range, whether the separator is
/// `:`, and the end of the match (after the blanks that follow the separator).
///
/// Why byte by byte gives the regex's match: a key ends where its run of key bytes ends (a key
/// byte is neither quote, blank, `\` nor separator), so each match is found from its separator
/// by walking back over blanks, an optional quote and the run (its last 200 bytes when longer);
/// and an earlier separator's match starts before a later one's.
fn kv_next(line: &[u8], pos: usize) -> Option<(usize, usize, bool, usize)> {
    let mut from = pos;
    while let Some(i) = memchr::memchr2(b'=', b':', line.get(from..)?) {
        let s = from + i;
        from = s + 1;
        let mut j = if line[s] == b'=' && s > pos && line[s - 1] == b'\\' {
            s - 1
        } else {
            s
        };
        while j > pos && blank(line[j - 1]) {
            j -= 1;
        }
        if j > pos && matches!(line[j - 1], b'"' | b'\'') {
            j -= 1;
        }
        let e = j;
        while j > pos && key_byte(line[j - 1]) {
            j -= 1;
        }
        if j == e {
            continue;
        }
        let ks = j.max(e.saturating_sub(200));
        let mut end = s + 1;
        while end < line.len() && blank(line[end]) {
            end += 1;
        }
        return Some((ks, e, line[s] == b':', end));
    }
    None
}

/// Whether `line` may hold a match of [`FLAG`]: a `-` at its start or after a blank, then an
/// optional second `-` and a key byte.
fn flag_candidate(line: &[u8]) -> bool {
    memchr::memchr_iter(b'-', line).any(|i| {
        (i == 0 || blank(line[i - 1])) && {
            let k = if line.get(i + 1) == Some(&b'-') {
                i + 2
            } else {
                i + 1
            };
            line.get(k).is_some_and(|&b| key_byte(b))
        }
    })
}

/// A key alone on a line with its value: `^[ \t]*([A-Za-z0-9_.\-]{1,200})[ \t]+([^ \t]+)[ \t]*$`,
/// read byte by byte. Returns the key's and the value's ranges.
fn bare(line: &[u8]) -> Option<((usize, usize), (usize, usize))> {
    let ks = line.iter().position(|&b| !blank(b))?;
    let ke = ks + line[ks..].iter().position(|&b| !key_byte(b))?;
    if ke == ks || ke - ks > 200 || !blank(line[ke]) {
        return None;
    }
    let vs = ke + line[ke..].iter().position(|&b| !blank(b))?;
    let ve = line[vs..]
        .iter()
        .position(|&b| blank(b))
        .map_or(line.len(), |n| vs + n);
    line[ve..]
        .iter()
        .all(|&b| blank(b))
        .then_some(((ks, ke), (vs, ve)))
}

/// The rules of one line (`base` = its offset in the text; `low` = the line lower-cased). Each
/// rule runs only when the line holds a literal that every match of the rule holds (`-u` for
/// curl's user, `AKIA`/`ASIA` for an AWS key id …), so most lines cost one literal search per
/// rule, not one regex search; the frequent shapes (`k=v`, a key alone on a line) are read byte
/// by byte, and the regexes report matches only (no capture groups: each group's bounds are
/// read off the match).
fn line_rules(line: &[u8], low: &[u8], base: usize, ed: &mut Edits) {
    let f = &*FIND;
    let add = |ed: &mut Edits, s: usize, e: usize, kind| {
        if !plain(&line[s..e]) {
            ed.add(base + s, base + e, kind);
        }
    };
    let mut pos = 0;
    while let Some((ks, ke, colon, end)) = kv_next(line, pos) {
        pos = end;
        if !secret_key(&line[ks..ke]) {
            continue;
        }
        let stop: &[u8] = if colon { b",}\r" } else { b" \t&;,\"'<>)\r" };
        if let Some((s, mut e)) = value_at(line, end, stop) {
            while e > s && line[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            add(ed, s, e, "key-value");
        }
    }
    if flag_candidate(line) {
        for c in FLAG.captures_iter(line) {
            let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
                continue;
            };
            if secret_key(k.as_bytes()) && !k.as_bytes().contains(&b'=') {
                let (s, e) = value_at(line, v.start(), b" \t\r").unwrap_or((v.start(), v.end()));
                add(ed, s, e, "key-value");
            }
        }
    }
    if let Some(((ks, ke), (vs, ve))) = bare(line) {
        if secret_key(&line[ks..ke]) && !line[ks..ke].ends_with(b":") {
            add(ed, vs, ve, "key-value");
        }
    }
    if memchr::memchr(b'<', line).is_some() {
        if memchr::memmem::find(line, b"</").is_some() {
            for c in TAG.captures_iter(line) {
                let (Some(t), Some(v)) = (c.get(1), c.get(2)) else {
                    continue;
                };
                let t = t.as_bytes();
                if t != b"name" && t != b"value" && secret_key(t) {
                    add(ed, v.start(), v.end(), "xml");
                }
            }
        }
        for c in ATTR_TAG.captures_iter(line) {
            let (Some(k), Some(tag)) = (c.get(1), c.get(0)) else {
                continue;
            };
            if !secret_key(k.as_bytes()) {
                continue;
            }
            if let Some(v) = ATTR_VALUE.captures(tag.as_bytes()).and_then(|a| a.get(2)) {
                add(ed, tag.start() + v.start(), tag.start() + v.end(), "xml");
            }
            if !tag.as_bytes().ends_with(b"/>") {
                let rest = &line[tag.end()..];
                let n = rest.iter().position(|&b| b == b'<').unwrap_or(rest.len());
                if n > 0 && !rest[..n].iter().all(u8::is_ascii_whitespace) {
                    add(ed, tag.end(), tag.end() + n, "xml");
                }
            }
        }
    }
    let header = f.auth.find(low).is_some()
        || f.cookie.find(low).is_some()
        || f.api_key.find(low).is_some()
        || f.private_token.find(low).is_some();
    if header {
        for all in HEADER.find_iter(line) {
            // The name (group 1) starts at the match unless a byte before it opened the match.
            let h = if all.start() == 0 && line[0].is_ascii_alphabetic() {
                0
            } else {
                all.start() + 1
            };
            let q = h.checked_sub(1).map(|i| line[i]);
            let end = match q {
                Some(q @ (b'"' | b'\'')) => line[all.end()..]
                    .iter()
                    .position(|&b| b == q)
                    .map_or(line.len(), |n| all.end() + n),
                _ => line.len(),
            };
            let mut e = end;
            while e > all.end() && line[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            add(ed, all.end(), e, "header");
        }
    }
    if f.bearer.find(low).is_some() {
        for m in BEARER.find_iter(line) {
            // `bearer`, blanks, then the token.
            let s = m.start() + 6;
            let s = s + line[s..].iter().take_while(|&&b| blank(b)).count();
            add(ed, s, m.end(), "bearer-token");
        }
    }
    if f.eyj.find(line).is_some() {
        for m in JWT.find_iter(line) {
            if m.len() >= 20 {
                add(ed, m.start(), m.end(), "jwt");
            }
        }
    }
    if f.scheme.find(line).is_some() {
        for m in URL.find_iter(line) {
            // `://`, the user (no `:`), `:` or `\:`, the password, `@`.
            let s = m.start() + 3;
            let s = s + memchr::memchr(b':', &line[s..m.end()]).map_or(0, |n| n + 1);
            add(ed, s, m.end() - 1, "url-password");
        }
    }
    if f.jdbc_oracle.find(low).is_some() {
        for m in ORACLE.find_iter(line) {
            // `jdbc:oracle:DRIVER:user/` (the match's first `/`), the password, `@`.
            let s = m.start() + memchr::memchr(b'/', m.as_bytes()).map_or(0, |n| n + 1);
            add(ed, s, m.end() - 1, "jdbc-password");
        }
    }
    if f.dash_u.find(line).is_some() {
        for m in CURL.find_iter(line) {
            // The flag, blanks and the user hold no `:`; the password follows the first one.
            let s = m.start() + memchr::memchr(b':', m.as_bytes()).map_or(0, |n| n + 1);
            add(ed, s, m.end(), "curl-user");
        }
    }
    if f.akia.find(line).is_some() || f.asia.find(line).is_some() {
        for m in AWS.find_iter(line) {
            add(ed, m.start(), m.end(), "aws-access-key");
        }
    }
}

/// The secret values in `text`: ranges and kinds, sorted and without overlaps.
pub fn find(text: &[u8]) -> Vec<(usize, usize, &'static str)> {
    let mut ed = Edits { v: Vec::new() };
    if FIND.private_key.find(text).is_some() {
        for c in PEM.captures_iter(text) {
            if let Some(body) = c.get(2) {
                pem_body(text, body.start(), body.end(), &mut ed);
            }
        }
    }
    if FIND.property.find(text).is_some() {
        property_rules(text, &mut ed);
    }
    // Lines holding a trigger word go to the line rules: the text is lower-cased a chunk of
    // whole lines at a time and searched once per chunk; after a hit the search goes on from
    // the end of its line.
    let mut low = Vec::with_capacity(CHUNK.min(text.len()) + 256);
    let mut cs = 0;
    while cs < text.len() {
        let want = (cs + CHUNK).min(text.len());
        let ce = memchr::memchr(b'\n', &text[want..]).map_or(text.len(), |i| want + i + 1);
        let chunk = &text[cs..ce];
        low.clear();
        low.extend_from_slice(chunk);
        low.make_ascii_lowercase();
        let mut at = 0;
        while at < low.len() {
            let Some(m) = TRIGGERS.find(Input::new(&low).span(at..low.len())) else {
                break;
            };
            let ls = memchr::memrchr(b'\n', &chunk[..m.start()]).map_or(0, |i| i + 1);
            let le =
                memchr::memchr(b'\n', &chunk[m.start()..]).map_or(chunk.len(), |i| m.start() + i);
            line_rules(&chunk[ls..le], &low[ls..le], cs + ls, &mut ed);
            at = le + 1;
        }
        cs = ce;
    }
    let mut v = ed.v;
    v.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
    let mut out: Vec<(usize, usize, &'static str)> = Vec::with_capacity(v.len());
    for (s, e, k) in v {
        match out.last_mut() {
            Some(l) if s < l.1 => l.1 = l.1.max(e),
            _ => out.push((s, e, k)),
        }
    }
    out
}

/// Each line of a PEM body (between BEGIN and END) becomes one marker, keeping the line count.
fn pem_body(text: &[u8], s: usize, e: usize, ed: &mut Edits) {
    let mut i = s;
    while i < e {
        let le = memchr::memchr(b'\n', &text[i..e]).map_or(e, |n| i + n);
        let line = &text[i..le];
        let t = line
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |n| n + 1);
        let lead = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(t);
        if t > lead && &line[lead..t] != MARKER.as_bytes() {
            ed.add(i + lead, i + t, "pem-private-key");
        }
        i = le + 1;
    }
}

/// Hadoop-style `<property>` blocks: `<name>` naming a secret and its `<value>`, on any lines.
fn property_rules(text: &[u8], ed: &mut Edits) {
    for c in PROPERTY.captures_iter(text) {
        let Some(body) = c.get(1) else { continue };
        let b = body.as_bytes();
        let Some(name) = PROP_NAME.captures(b).and_then(|n: Captures<'_>| n.get(1)) else {
            continue;
        };
        if !secret_key(name.as_bytes()) {
            continue;
        }
        if let Some(v) = PROP_VALUE.captures(b).and_then(|v| v.get(2)) {
            let raw = v.as_bytes();
            let lead = raw
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(raw.len());
            let t = raw
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(lead, |n| n + 1);
            if t > lead && !plain(&raw[lead..t]) {
                let s = body.start() + v.start();
                ed.add(s + lead, s + t, "xml");
            }
        }
    }
}

/// `text` with every secret value replaced by [`MARKER`] (`None` when it holds none), counting
/// each by kind into `counts`.
pub fn mask(text: &[u8], counts: &mut SecretCounts) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    mask_into(text, &mut out, counts).then_some(out)
}

/// Appends to `out` the text with every secret value replaced by [`MARKER`], when it holds one;
/// returns whether it did (`out` is left as it was otherwise). Counts each by kind into
/// `counts`. The caller keeps `out`'s allocation from one entry to the next.
pub fn mask_into(text: &[u8], out: &mut Vec<u8>, counts: &mut SecretCounts) -> bool {
    let found = find(text);
    if found.is_empty() {
        return false;
    }
    out.reserve(text.len());
    let mut last = 0;
    for (s, e, kind) in found {
        out.extend_from_slice(&text[last..s]);
        out.extend_from_slice(MARKER.as_bytes());
        last = e;
        *counts.entry(kind).or_default() += 1;
    }
    out.extend_from_slice(&text[last..]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> String {
        String::from_utf8(mask(s.as_bytes(), &mut SecretCounts::new()).unwrap_or(s.into())).unwrap()
    }

    /// The byte-level readers of `k=v` and of a bare key find what the regexes they stand for
    /// find (the regexes written in their docs), on the shapes where the two could part.
    #[test]
    fn byte_readers_match_their_regexes() {
        let kv =
            Regex::new(r#"(?-u)["']?([A-Za-z0-9_.\-]{1,200})["']?[ \t]*(\\?=|:)[ \t]*"#).unwrap();
        let bare_re =
            Regex::new(r"(?-u)^[ \t]*([A-Za-z0-9_.\-]{1,200})[ \t]+([^ \t]+)[ \t]*$").unwrap();
        let long = format!("{}=v x{}: y", "k".repeat(250), "q".repeat(200));
        let lines = [
            "a=b",
            "'a'=b c=d",
            "\"k\" :  v, \"n\":1",
            "a\\=b",
            "a\\\\=b",
            "x==y =z",
            "a '=b=c",
            "k:v:w",
            "04:31:35 host app[1]: db.password=S3cret pool.size=20",
            "--x=1 -Dp.secret=2",
            "\"'q=1",
            long.as_str(),
            "  requirepass  foobared  ",
            "key value x",
            "\tk\tv",
            "k v:",
            "",
            "=",
            ":",
            " ",
        ];
        for line in lines {
            let l = line.as_bytes();
            let want: Vec<(usize, usize, bool, usize)> = kv
                .captures_iter(l)
                .map(|c| {
                    let (k, sep, all) = (c.get(1).unwrap(), c.get(2).unwrap(), c.get(0).unwrap());
                    (k.start(), k.end(), sep.as_bytes() == b":", all.end())
                })
                .collect();
            let mut got = Vec::new();
            let mut pos = 0;
            while let Some(m) = kv_next(l, pos) {
                got.push(m);
                pos = m.3;
            }
            assert_eq!(got, want, "{line:?}");
            let want = bare_re.captures(l).map(|c| {
                let (k, v) = (c.get(1).unwrap(), c.get(2).unwrap());
                ((k.start(), k.end()), (v.start(), v.end()))
            });
            assert_eq!(bare(l), want, "{line:?}");
        }
    }

    #[test]
    fn keys() {
        for k in [
            "password",
            "db.pwd",
            "smtp.pw",
            "--db-pass",
            "MYSQL_PWD",
            "apiKey",
            "ssl.key",
            "-Djavax.net.ssl.keyStorePassword",
            "aws_secret_access_key",
            "client_secret",
        ] {
            assert!(secret_key(k.as_bytes()), "{k}");
        }
        for k in [
            "token.ttl",
            "keyStoreType",
            "--tls-private-key-file",
            "key",
            "proxy_pass",
            "vm.swappiness",
            "user",
        ] {
            assert!(!secret_key(k.as_bytes()), "{k}");
        }
    }

    #[test]
    fn shapes() {
        assert_eq!(m("db.password=hunter2 x=1"), "db.password=[REDACTED] x=1");
        assert_eq!(
            m("java -Dapp.secret=abc -Xmx1g"),
            "java -Dapp.secret=[REDACTED] -Xmx1g"
        );
        assert_eq!(
            m("  password: \"s3cr\\\"et\""),
            "  password: \"[REDACTED]\""
        );
        assert_eq!(
            m(r#"{"apiKey": "k1", "n": 1}"#),
            r#"{"apiKey": "[REDACTED]", "n": 1}"#
        );
        assert_eq!(m("--password hunter2"), "--password [REDACTED]");
        assert_eq!(m("requirepass foobared"), "requirepass [REDACTED]");
        assert_eq!(
            m("jdbc:mysql://app:pw1@db:3306/x"),
            "jdbc:mysql://app:[REDACTED]@db:3306/x"
        );
        assert_eq!(
            m("Authorization: Basic dXNlcjpwYXNz"),
            "Authorization: [REDACTED]"
        );
        assert_eq!(m("key AKIAIOSFODNN7EXAMPLE here"), "key [REDACTED] here");
        assert_eq!(
            m("<password>x1</password>"),
            "<password>[REDACTED]</password>"
        );
        assert_eq!(
            m(r#"<entry key="db.password">v1</entry>"#),
            r#"<entry key="db.password">[REDACTED]</entry>"#
        );
        assert_eq!(
            m("<property>\n <name>fs.s3a.secret.key</name>\n <value>\n  abc\n </value>\n</property>"),
            "<property>\n <name>fs.s3a.secret.key</name>\n <value>\n  [REDACTED]\n </value>\n</property>"
        );
        assert_eq!(
            m("-----BEGIN RSA PRIVATE KEY-----\nMIIB\nAAAA\n-----END RSA PRIVATE KEY-----\n"),
            "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n[REDACTED]\n-----END RSA PRIVATE KEY-----\n"
        );
        assert_eq!(
            m("keystore=/etc/ssl/k.jks ssl.key=/etc/x.pem"),
            "keystore=/etc/ssl/k.jks ssl.key=/etc/x.pem"
        );
        // Masking is idempotent: a masked text holds no secret.
        let once = m("db.password=hunter2 Authorization: Bearer abcdefghijk");
        assert!(find(once.as_bytes()).is_empty(), "{once}");
    }
}
