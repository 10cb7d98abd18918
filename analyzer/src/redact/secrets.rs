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

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::{Captures, Regex};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// What replaces a secret value.
pub const MARKER: &str = "[REDACTED]";

/// Counts of secrets removed, per kind (`key-value`, `pem-private-key`, `url-password` …).
pub type SecretCounts = BTreeMap<&'static str, u64>;

/// Words whose presence (any case) makes a line worth the secret rules.
static TRIGGERS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostFirst)
        .build([
            "pass",
            "pwd",
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
static KV: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u)["']?([A-Za-z0-9_.\-]{1,200})["']?[ \t]*(\\?=|:)[ \t]*"#).unwrap()
});
static FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)(?:^|[ \t])(--?[A-Za-z0-9_.\-]{1,200})[ \t]+([^ \t\-][^ \t]*)").unwrap()
});
static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^[ \t]*([A-Za-z0-9_.\-]{1,200})[ \t]+([^ \t]+)[ \t]*$").unwrap()
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
    // camelCase → camel.case, then lowercase.
    let mut w = Vec::with_capacity(k.len() + 4);
    let mut prev = 0u8;
    for &c in k {
        if c.is_ascii_uppercase() && (prev.is_ascii_lowercase() || prev.is_ascii_digit()) {
            w.push(b'.');
        }
        w.push(c.to_ascii_lowercase());
        prev = c;
    }
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
    let c: Vec<u8> = w
        .iter()
        .copied()
        .filter(u8::is_ascii_alphanumeric)
        .collect();
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
        &w[..],
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
    let l = v.to_ascii_lowercase();
    if l.is_empty() || v == MARKER.as_bytes() || v.iter().all(|&b| b == b'*') {
        return true;
    }
    if l == b"true" || l == b"false" || l == b"null" || l == b"none" {
        return true;
    }
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
            l.len() > e.len() + 1 && l.ends_with(e.as_bytes()) && l[l.len() - e.len() - 1] == b'.'
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

/// Whether `h` holds `n` (ASCII letters in any case).
fn has_ci(h: &[u8], n: &[u8]) -> bool {
    h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// Whether `b` may be part of a key name in `k=v` and `k: v`.
fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// The rules of one line (`base` = its offset in the text). Each rule runs only when the line
/// holds a literal that every match of the rule holds (`-u` for curl's user, `AKIA`/`ASIA` for
/// an AWS key id …), so most lines cost one literal search per rule, not one regex search.
fn line_rules(line: &[u8], base: usize, ed: &mut Edits) {
    let add = |ed: &mut Edits, s: usize, e: usize, kind| {
        if !plain(&line[s..e]) {
            ed.add(base + s, base + e, kind);
        }
    };
    for all in KV.find_iter(line) {
        // The regex's groups, read off the match: an optional quote, the key (the run of key
        // bytes after it: a key byte never ends the key part of a match), an optional quote,
        // blanks, the separator (the last byte that is not a blank), blanks.
        let m = all.as_bytes();
        let ks = usize::from(matches!(m.first(), Some(b'"' | b'\'')));
        let kl = m[ks..]
            .iter()
            .position(|&b| !key_byte(b))
            .unwrap_or(m.len() - ks);
        if !secret_key(&m[ks..ks + kl]) {
            continue;
        }
        let colon = m
            .iter()
            .rposition(|&b| b != b' ' && b != b'\t')
            .is_some_and(|i| m[i] == b':');
        let stop: &[u8] = if colon { b",}\r" } else { b" \t&;,\"'<>)\r" };
        if let Some((s, mut e)) = value_at(line, all.end(), stop) {
            while e > s && line[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            add(ed, s, e, "key-value");
        }
    }
    let flag = line.first() == Some(&b'-')
        || memchr::memmem::find(line, b" -").is_some()
        || memchr::memmem::find(line, b"\t-").is_some();
    let flags = if flag {
        Some(FLAG.captures_iter(line))
    } else {
        None
    };
    for c in flags.into_iter().flatten() {
        let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
            continue;
        };
        if secret_key(k.as_bytes()) && !k.as_bytes().contains(&b'=') {
            let (s, e) = value_at(line, v.start(), b" \t\r").unwrap_or((v.start(), v.end()));
            add(ed, s, e, "key-value");
        }
    }
    if let Some(c) = BARE.captures(line) {
        if let (Some(k), Some(v)) = (c.get(1), c.get(2)) {
            if secret_key(k.as_bytes()) && !k.as_bytes().ends_with(b":") {
                add(ed, v.start(), v.end(), "key-value");
            }
        }
    }
    if line.contains(&b'<') {
        for c in TAG.captures_iter(line) {
            let (Some(t), Some(v)) = (c.get(1), c.get(2)) else {
                continue;
            };
            let t = t.as_bytes();
            if t != b"name" && t != b"value" && secret_key(t) {
                add(ed, v.start(), v.end(), "xml");
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
    let header = has_ci(line, b"auth")
        || has_ci(line, b"cookie")
        || has_ci(line, b"api-key")
        || has_ci(line, b"private-token");
    let headers = if header {
        Some(HEADER.captures_iter(line))
    } else {
        None
    };
    for c in headers.into_iter().flatten() {
        let Some(all) = c.get(0) else { continue };
        let h = c.get(1).map_or(0, |h| h.start());
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
    if has_ci(line, b"bearer") {
        for c in BEARER.captures_iter(line) {
            if let Some(v) = c.get(2) {
                add(ed, v.start(), v.end(), "bearer-token");
            }
        }
    }
    if memchr::memmem::find(line, b"eyJ").is_some() {
        for m in JWT.find_iter(line) {
            if m.len() >= 20 {
                add(ed, m.start(), m.end(), "jwt");
            }
        }
    }
    if memchr::memmem::find(line, b"://").is_some() {
        for c in URL.captures_iter(line) {
            if let Some(v) = c.get(2) {
                add(ed, v.start(), v.end(), "url-password");
            }
        }
    }
    if has_ci(line, b"jdbc:oracle") {
        for c in ORACLE.captures_iter(line) {
            if let Some(v) = c.get(2) {
                add(ed, v.start(), v.end(), "jdbc-password");
            }
        }
    }
    let curl = memchr::memmem::find(line, b"-u").is_some();
    let curls = if curl {
        Some(CURL.captures_iter(line))
    } else {
        None
    };
    for c in curls.into_iter().flatten() {
        if let Some(v) = c.get(2) {
            add(ed, v.start(), v.end(), "curl-user");
        }
    }
    let aws = memchr::memmem::find(line, b"AKIA").is_some()
        || memchr::memmem::find(line, b"ASIA").is_some();
    let keys = if aws { Some(AWS.find_iter(line)) } else { None };
    for m in keys.into_iter().flatten() {
        add(ed, m.start(), m.end(), "aws-access-key");
    }
}

/// The secret values in `text`: ranges and kinds, sorted and without overlaps.
pub fn find(text: &[u8]) -> Vec<(usize, usize, &'static str)> {
    let mut ed = Edits { v: Vec::new() };
    if memchr::memmem::find(text, b"PRIVATE KEY").is_some() {
        for c in PEM.captures_iter(text) {
            if let Some(body) = c.get(2) {
                pem_body(text, body.start(), body.end(), &mut ed);
            }
        }
    }
    if memchr::memmem::find(text, b"<property").is_some() {
        property_rules(text, &mut ed);
    }
    let mut done_line = usize::MAX;
    for m in TRIGGERS.find_iter(text) {
        let ls = memchr::memrchr(b'\n', &text[..m.start()]).map_or(0, |i| i + 1);
        if ls == done_line {
            continue;
        }
        done_line = ls;
        let le = memchr::memchr(b'\n', &text[m.start()..]).map_or(text.len(), |i| m.start() + i);
        line_rules(&text[ls..le], ls, &mut ed);
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
    let found = find(text);
    if found.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    let mut last = 0;
    for (s, e, kind) in found {
        out.extend_from_slice(&text[last..s]);
        out.extend_from_slice(MARKER.as_bytes());
        last = e;
        *counts.entry(kind).or_default() += 1;
    }
    out.extend_from_slice(&text[last..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> String {
        String::from_utf8(mask(s.as_bytes(), &mut SecretCounts::new()).unwrap_or(s.into())).unwrap()
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
