//! `rca search`: the query language over the archive.
//!
//! In: a query such as `rule:mem.* severity:>=warning host:db* since:2026-01-01
//! fact:"eth0: queues"<2 label:acme`. Out: [`Hit`]s, the matching bundles, newest first.
//!
//! Grammar (parsed with nom; terms are separated by blanks and AND-ed):
//!
//! ```text
//! query    = term { blank term }
//! term     = key ":" value
//! rule:    GLOB                      rule id, `*` `?` `[…]` as in SQLite GLOB
//! severity:[OP] info|warning|critical   OP defaults to `>=`
//! host:    GLOB                      host name, case-insensitive
//! since:   YYYY-MM-DD                collection started on or after that day (UTC)
//! until:   YYYY-MM-DD                collection started on or before that day (UTC)
//! fact:    NAME OP VALUE             a stored feature (`"eth0: queues"<2`, `"kernel release"=5.10.0`)
//! label:   GLOB                      a label given to `rca index --label` or the collector's `--label`
//! artifact:OUTCOME                   an artifact with that outcome (`unusable`, `parser-bug`, …)
//! kind:    GLOB                      an artifact of that kind (`pidstat`, `jstat*`)
//! OP       = "<" | "<=" | ">" | ">=" | "=" | "!="
//! ```
//!
//! A value with blanks is written in double quotes. `rule:` and `severity:` terms hold for the
//! same finding (`rule:mem.swap severity:critical`: a critical swap finding), `artifact:` and
//! `kind:` for the same artifact (`kind:pidstat artifact:unusable`: an unusable `pidstat`). A `fact:` term
//! compares numbers when VALUE is a number, else the text of a categorical feature (`=` and
//! `!=` only); a bundle without the feature never matches it. Unknown keys are refused.

use rusqlite::types::Value;
use rusqlite::Connection;
use serde::Serialize;

use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, take_till1, take_while_m_n};
use nom::character::complete::{alpha1, char, multispace0, multispace1};
use nom::combinator::{all_consuming, map, opt, recognize, value};
use nom::multi::{many1, separated_list1};
use nom::sequence::{delimited, separated_pair, terminated};
use nom::{IResult, Parser};

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `=`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    fn sql(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
        }
    }
}

/// One term of a query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Term {
    /// `rule:GLOB`
    Rule(String),
    /// `severity:OP LEVEL` (0 info, 1 warning, 2 critical).
    Severity(Cmp, u8),
    /// `host:GLOB`
    Host(String),
    /// `since:DATE`
    Since(String),
    /// `until:DATE`
    Until(String),
    /// `fact:NAME OP VALUE`
    Fact {
        /// Feature name.
        name: String,
        /// Comparison.
        cmp: Cmp,
        /// Value as written.
        value: String,
    },
    /// `label:GLOB`
    Label(String),
    /// `artifact:OUTCOME`, one of [`OUTCOMES`].
    Artifact(String),
    /// `kind:GLOB`
    Kind(String),
}

/// The keys a term may have.
pub const KEYS: &[&str] = &[
    "rule", "severity", "host", "since", "until", "fact", "label", "artifact", "kind",
];

/// The values of `artifact:`: every artifact outcome's label
/// ([`crate::artifacts::Outcome::label`]).
pub const OUTCOMES: &[&str] = &[
    "parsed",
    "partial",
    "unusable",
    "unrecognised",
    "not-collected",
    "too-large",
    "link",
    "parser-bug",
];

type Res<'a, T> = IResult<&'a str, T>;

fn quoted(i: &str) -> Res<'_, &str> {
    delimited(char('"'), recognize(opt(is_not("\""))), char('"')).parse(i)
}

/// A term's raw value: quoted parts and unquoted characters up to a blank.
fn raw_value(i: &str) -> Res<'_, &str> {
    recognize(many1(alt((recognize(quoted), is_not(" \t\r\n\""))))).parse(i)
}

fn raw_term(i: &str) -> Res<'_, (&str, &str)> {
    separated_pair(alpha1, char(':'), raw_value).parse(i)
}

fn cmp(i: &str) -> Res<'_, Cmp> {
    alt((
        value(Cmp::Le, tag("<=")),
        value(Cmp::Ge, tag(">=")),
        value(Cmp::Ne, tag("!=")),
        value(Cmp::Lt, tag("<")),
        value(Cmp::Gt, tag(">")),
        value(Cmp::Eq, tag("=")),
    ))
    .parse(i)
}

fn level(i: &str) -> Res<'_, u8> {
    alt((
        value(0, tag("info")),
        value(1, tag("warning")),
        value(2, tag("critical")),
    ))
    .parse(i)
}

fn date(i: &str) -> Res<'_, &str> {
    let digits = |n| take_while_m_n(n, n, |c: char| c.is_ascii_digit());
    recognize((digits(4), char('-'), digits(2), char('-'), digits(2))).parse(i)
}

fn unquote(s: &str) -> String {
    s.replace('"', "")
}

fn fact(i: &str) -> Res<'_, (String, Cmp, String)> {
    let name = alt((
        map(quoted, str::to_string),
        map(take_till1(|c: char| "<>=!\"".contains(c)), |s: &str| {
            s.trim().to_string()
        }),
    ));
    (name, cmp, map(raw_value, unquote)).parse(i)
}

/// Parses a query. Errors: a message naming the term that is wrong and what is expected.
pub fn parse(q: &str) -> Result<Vec<Term>, String> {
    let terms: Res<'_, Vec<(&str, &str)>> = all_consuming(delimited(
        multispace0,
        separated_list1(multispace1, raw_term),
        multispace0,
    ))
    .parse(q);
    let terms = match terms {
        Ok((_, t)) => t,
        Err(_) => {
            return Err(format!(
                "cannot read the query `{q}`: it is terms `key:value` separated by blanks, a \
                 value with blanks in double quotes (keys: {})",
                KEYS.join(", ")
            ))
        }
    };
    terms.into_iter().map(|(k, v)| term(k, v)).collect()
}

fn term(key: &str, v: &str) -> Result<Term, String> {
    let bad = |what: &str| format!("`{key}:{v}`: {what}");
    match key {
        "rule" => Ok(Term::Rule(unquote(v))),
        "host" => Ok(Term::Host(unquote(v))),
        "label" => Ok(Term::Label(unquote(v))),
        "kind" => Ok(Term::Kind(unquote(v))),
        "artifact" => {
            let o = unquote(v);
            if OUTCOMES.contains(&o.as_str()) {
                Ok(Term::Artifact(o))
            } else {
                Err(bad(&format!(
                    "expected an outcome: {}",
                    OUTCOMES.join(", ")
                )))
            }
        }
        "severity" => all_consuming((opt(cmp), level))
            .parse(v)
            .map(|(_, (c, l))| Term::Severity(c.unwrap_or(Cmp::Ge), l))
            .map_err(|_| {
                bad("expected a level, optionally after a comparison: `>=warning`, `critical`")
            }),
        "since" | "until" => all_consuming(date)
            .parse(v)
            .map(|(_, d)| {
                if key == "since" {
                    Term::Since(d.to_string())
                } else {
                    Term::Until(d.to_string())
                }
            })
            .map_err(|_| bad("expected a date YYYY-MM-DD")),
        "fact" => {
            let (_, (name, cmp, value)) = all_consuming(terminated(fact, multispace0))
                .parse(v)
                .map_err(|_| {
                    bad("expected NAME OP VALUE, OP one of < <= > >= = != (`fact:\"eth0: queues\"<2`)")
                })?;
            if value.parse::<f64>().is_err() && !matches!(cmp, Cmp::Eq | Cmp::Ne) {
                return Err(bad("a text value is compared with `=` or `!=` only"));
            }
            Ok(Term::Fact { name, cmp, value })
        }
        _ => Err(format!(
            "unknown key `{key}` in `{key}:{v}`; the keys are: {}",
            KEYS.join(", ")
        )),
    }
}

/// The conditions of `host:GLOB`, on `lower(b.host)` so that the index `bundles_host_lc` (schema
/// version 3) answers them: a glob without `*`, `?` or `[` is an equality, one with a literal
/// prefix a range scan over the prefix (`host:db*`: `>= 'db' AND < 'dc'`) checked by the glob.
/// Case is folded as SQLite's `lower` folds it: ASCII letters only.
fn host_terms(glob: &str, wh: &mut Vec<String>, args: &mut Vec<Value>) {
    let g = glob.to_ascii_lowercase();
    let prefix: String = g
        .chars()
        .take_while(|c| !matches!(c, '*' | '?' | '['))
        .collect();
    if prefix.len() == g.len() {
        wh.push("lower(b.host) = ?".into());
        args.push(Value::Text(g));
        return;
    }
    if !prefix.is_empty() {
        if let Some(up) = after_prefix(&prefix) {
            wh.push("lower(b.host) < ?".into());
            args.push(Value::Text(up));
        }
        wh.push("lower(b.host) >= ?".into());
        args.push(Value::Text(prefix));
    }
    wh.push("lower(b.host) GLOB ?".into());
    args.push(Value::Text(g));
}

/// The least string above every string that starts with `p` (its last character that can be
/// raised, raised; in UTF-8 byte order, which is SQLite's for text), or `None` when there is
/// none (every character is U+10FFFF).
fn after_prefix(p: &str) -> Option<String> {
    let mut cs: Vec<char> = p.chars().collect();
    while let Some(c) = cs.pop() {
        let next = match c as u32 + 1 {
            0xD800 => Some('\u{E000}'),
            n => char::from_u32(n),
        };
        if let Some(n) = next {
            cs.push(n);
            return Some(cs.into_iter().collect());
        }
    }
    None
}

/// One matching bundle.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Content hash.
    pub hash: String,
    /// Host name.
    pub host: Option<String>,
    /// Collection start, UTC (`2026-01-05 10:00:00`).
    pub collected: Option<String>,
    /// Bundle path when indexed.
    pub path: String,
    /// Its findings matching the query's `rule:`/`severity:` terms (all at warning or above
    /// when the query has none): `(rule, severity)`.
    pub findings: Vec<(String, String)>,
}

/// Bundles matching `terms`, newest collection first, at most `limit`; with the number of all
/// matching bundles. Errors: a date SQLite cannot read (`2026-02-30`), or the archive cannot
/// be read.
pub fn search(
    conn: &Connection,
    terms: &[Term],
    limit: usize,
) -> Result<(Vec<Hit>, usize), String> {
    let mut wh = vec!["b.status = 'ok'".to_string()];
    let mut args: Vec<Value> = Vec::new();
    let mut finding = vec!["1".to_string()];
    let mut fargs: Vec<Value> = Vec::new();
    let mut artifact = Vec::new();
    let mut aargs: Vec<Value> = Vec::new();
    for t in terms {
        match t {
            Term::Rule(g) => {
                finding.push("f.rule GLOB ?".into());
                fargs.push(Value::Text(g.clone()));
            }
            Term::Severity(c, l) => {
                finding.push(format!("f.severity {} ?", c.sql()));
                fargs.push(Value::Integer(*l as i64));
            }
            Term::Host(g) => host_terms(g, &mut wh, &mut args),
            Term::Since(d) | Term::Until(d) => {
                // SQLite normalises `2026-02-30` to March 2: a day that does not exist reads back
                // as another.
                let ok: bool = conn
                    .query_row("SELECT date(?1) IS ?1", [d], |r| r.get(0))
                    .map_err(|e| e.to_string())?;
                if !ok {
                    return Err(format!("`{d}` is not a date"));
                }
                if matches!(t, Term::Since(_)) {
                    wh.push("b.window_start >= unixepoch(?)".into());
                } else {
                    wh.push("b.window_start < unixepoch(?, '+1 day')".into());
                }
                args.push(Value::Text(d.clone()));
            }
            Term::Fact { name, cmp, value } => {
                let col = match value.parse::<f64>() {
                    Ok(n) => {
                        args.push(Value::Text(name.clone()));
                        args.push(Value::Real(n));
                        "num"
                    }
                    Err(_) => {
                        args.push(Value::Text(name.clone()));
                        args.push(Value::Text(value.clone()));
                        "text"
                    }
                };
                wh.push(format!(
                    "b.id IN (SELECT bundle_id FROM features WHERE name = ? AND {col} {} ?)",
                    cmp.sql()
                ));
            }
            Term::Label(g) => {
                wh.push("b.id IN (SELECT bundle_id FROM labels WHERE label GLOB ?)".into());
                args.push(Value::Text(g.clone()));
            }
            Term::Artifact(o) => {
                artifact.push("a.outcome = ?");
                aargs.push(Value::Text(o.clone()));
            }
            Term::Kind(g) => {
                // Without a wildcard an equality, so that the index on (kind, outcome) seeks
                // both columns of `kind:pidstat artifact:unusable`.
                artifact.push(if g.contains(['*', '?', '[']) {
                    "a.kind GLOB ?"
                } else {
                    "a.kind = ?"
                });
                aargs.push(Value::Text(g.clone()));
            }
        }
    }
    if !artifact.is_empty() {
        wh.push(format!(
            "b.id IN (SELECT a.bundle_id FROM artifacts a WHERE {})",
            artifact.join(" AND ")
        ));
        args.extend(aargs);
    }
    let has_finding_terms = finding.len() > 1;
    if has_finding_terms {
        wh.push(format!(
            "b.id IN (SELECT f.bundle_id FROM findings f WHERE {})",
            finding.join(" AND ")
        ));
        args.extend(fargs.iter().cloned());
    }
    let cond = wh.join(" AND ");
    let err = |e: rusqlite::Error| e.to_string();
    let total: i64 = conn
        .query_row(
            &format!("SELECT count(*) FROM bundles b WHERE {cond}"),
            rusqlite::params_from_iter(args.iter()),
            |r| r.get(0),
        )
        .map_err(err)?;
    let mut st = conn
        .prepare(&format!(
            "SELECT b.id, b.hash, b.host, datetime(b.window_start, 'unixepoch'), b.path
             FROM bundles b WHERE {cond}
             ORDER BY b.window_start DESC NULLS LAST, b.id DESC LIMIT {limit}"
        ))
        .map_err(err)?;
    let rows: Vec<(i64, Hit)> = st
        .query_map(rusqlite::params_from_iter(args.iter()), |r| {
            Ok((
                r.get(0)?,
                Hit {
                    hash: r.get(1)?,
                    host: r.get(2)?,
                    collected: r.get(3)?,
                    path: r.get(4)?,
                    findings: Vec::new(),
                },
            ))
        })
        .map_err(err)?
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let fcond = if has_finding_terms {
        finding.join(" AND ")
    } else {
        "f.severity >= 1".to_string()
    };
    let mut fst = conn
        .prepare(&format!(
            "SELECT f.rule, f.severity FROM findings f WHERE f.bundle_id = ? AND {fcond}
             ORDER BY f.rank"
        ))
        .map_err(err)?;
    let mut hits = Vec::with_capacity(rows.len());
    for (id, mut h) in rows {
        let mut a: Vec<Value> = vec![Value::Integer(id)];
        if has_finding_terms {
            a.extend(fargs.iter().cloned());
        }
        h.findings = fst
            .query_map(rusqlite::params_from_iter(a.iter()), |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, u8>(1)?))
            })
            .map_err(err)?
            .map(|x| x.map(|(rule, s)| (rule, super::severity_label(s).to_string())))
            .collect::<Result<_, _>>()
            .map_err(err)?;
        hits.push(h);
    }
    Ok((hits, total as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_and_operator_parses() {
        let t = parse(
            r#" rule:mem.* severity:>=warning host:db* since:2026-01-01 until:2026-03-31 fact:"eth0: queues"<2 label:acme "#,
        )
        .unwrap();
        assert_eq!(
            t,
            [
                Term::Rule("mem.*".into()),
                Term::Severity(Cmp::Ge, 1),
                Term::Host("db*".into()),
                Term::Since("2026-01-01".into()),
                Term::Until("2026-03-31".into()),
                Term::Fact {
                    name: "eth0: queues".into(),
                    cmp: Cmp::Lt,
                    value: "2".into()
                },
                Term::Label("acme".into()),
            ]
        );
        for (op, c) in [
            ("<", Cmp::Lt),
            ("<=", Cmp::Le),
            (">", Cmp::Gt),
            (">=", Cmp::Ge),
            ("=", Cmp::Eq),
            ("!=", Cmp::Ne),
        ] {
            let t = parse(&format!("fact:nic.combined{op}2")).unwrap();
            assert_eq!(
                t,
                [Term::Fact {
                    name: "nic.combined".into(),
                    cmp: c,
                    value: "2".into()
                }]
            );
        }
        assert_eq!(
            parse("severity:critical").unwrap(),
            [Term::Severity(Cmp::Ge, 2)]
        );
        assert_eq!(
            parse(r#"fact:"kernel release"="5.10.0 x""#).unwrap(),
            [Term::Fact {
                name: "kernel release".into(),
                cmp: Cmp::Eq,
                value: "5.10.0 x".into()
            }]
        );
    }

    #[test]
    fn artifact_terms_name_every_outcome_and_a_kind() {
        use crate::artifacts::Outcome;
        let every = [
            Outcome::Parsed,
            Outcome::Partial,
            Outcome::Unusable { reason: "x".into() },
            Outcome::Unrecognised { reason: "x".into() },
            Outcome::NotCollected {
                exit: None,
                timed_out: false,
                note: String::new(),
            },
            Outcome::TooLarge { limit: 1 },
            Outcome::Link { target: "x".into() },
            Outcome::ParserBug {
                message: "x".into(),
                line: None,
            },
        ];
        let labels: Vec<&str> = every.iter().map(Outcome::label).collect();
        assert_eq!(labels, OUTCOMES);
        assert_eq!(
            parse("kind:pidstat artifact:not-collected").unwrap(),
            [
                Term::Kind("pidstat".into()),
                Term::Artifact("not-collected".into())
            ]
        );
    }

    #[test]
    fn a_host_prefix_bounds_a_range_that_holds_exactly_its_names() {
        assert_eq!(after_prefix("db").as_deref(), Some("dc"));
        assert_eq!(after_prefix("d\u{10FFFF}").as_deref(), Some("e"));
        assert_eq!(after_prefix("a\u{D7FF}").as_deref(), Some("a\u{E000}"));
        assert_eq!(after_prefix("\u{10FFFF}"), None);
        let (mut wh, mut args) = (Vec::new(), Vec::new());
        host_terms("DB0[12]*", &mut wh, &mut args);
        assert_eq!(
            wh,
            [
                "lower(b.host) < ?",
                "lower(b.host) >= ?",
                "lower(b.host) GLOB ?"
            ]
        );
        assert_eq!(
            args,
            [
                Value::Text("db1".into()),
                Value::Text("db0".into()),
                Value::Text("db0[12]*".into())
            ]
        );
        let (mut wh, mut args) = (Vec::new(), Vec::new());
        host_terms("Web0042", &mut wh, &mut args);
        assert_eq!(wh, ["lower(b.host) = ?"]);
        assert_eq!(args, [Value::Text("web0042".into())]);
        let (mut wh, mut args) = (Vec::new(), Vec::new());
        host_terms("*01", &mut wh, &mut args);
        assert_eq!(wh, ["lower(b.host) GLOB ?"]);
    }

    #[test]
    fn wrong_terms_are_refused_with_what_is_expected() {
        let e = parse("color:red").unwrap_err();
        assert!(
            e.contains("unknown key `color`") && e.contains("rule, severity"),
            "{e}"
        );
        let e = parse("severity:bad").unwrap_err();
        assert!(e.contains("expected a level"), "{e}");
        let e = parse("artifact:broken").unwrap_err();
        assert!(e.contains("expected an outcome: parsed, partial"), "{e}");
        let e = parse("since:2026-1-1").unwrap_err();
        assert!(e.contains("YYYY-MM-DD"), "{e}");
        let e = parse("fact:x<abc").unwrap_err();
        assert!(e.contains("`=` or `!=`"), "{e}");
        let e = parse("rule").unwrap_err();
        assert!(e.contains("key:value"), "{e}");
        assert!(parse("").is_err());
        assert!(parse("rule:\"unclosed").is_err());
    }
}
