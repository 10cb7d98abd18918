//! Hadoop configuration files: `core-site.xml`, `hdfs-site.xml`, `yarn-site.xml`,
//! `mapred-site.xml` (and every other file in the same format, such as `hbase-site.xml` or
//! `hive-site.xml`), as read by `org.apache.hadoop.conf.Configuration` in Hadoop 2.x and 3.x.
//!
//! In: the XML text of one file. Out: a [`HadoopConf`] with every property (name → value, the
//! `final` flag, the description and the input lines it came from) and every `xi:include`
//! (recorded, never followed: the included file is another artifact, if it was collected).
//!
//! Sample input (a `yarn-site.xml`):
//! ```text
//! <?xml version="1.0"?>
//! <configuration xmlns:xi="http://www.w3.org/2001/XInclude">
//!   <xi:include href="yarn-rm-ha.xml"/>
//!   <property>
//!     <name>yarn.nodemanager.vmem-check-enabled</name>
//!     <value>false</value>
//!     <final>true</final>
//!   </property>
//!   <property name="yarn.nodemanager.vmem-pmem-ratio" value="2.1"/>
//! </configuration>
//! ```
//!
//! The file is read with a real XML parser (`roxmltree`) and the rules of Hadoop's own reader:
//!
//! - the root element must be `<configuration>`;
//! - a `<property>` takes its name, value and final flag from `<name>`, `<value>` and `<final>`
//!   children, or from `name`, `value` and `final` attributes (the short form Hadoop 3 reads);
//!   the name is trimmed; the value is kept trimmed here (Hadoop's typed getters trim it);
//! - `final` is set only by the exact text `true`;
//! - a property without a name, or whose value is absent or empty, is ignored by Hadoop (its
//!   default stays in force): it is left out here too, with an issue;
//! - a property defined twice keeps the later definition, unless the earlier one is final,
//!   in which case Hadoop ignores the later one ("an attempt to override final parameter");
//!   both cases are issues;
//! - comments, processing instructions and unknown elements are ignored.
//!
//! Untrusted input: a document type declaration (`<!DOCTYPE …>`) is refused, so no entity is
//! ever defined or expanded (a "billion laughs" file is unusable at once); the number of XML
//! nodes is capped at [`MAX_NODES`] so a huge file cannot exhaust memory; line numbers are
//! looked up in a precomputed table, so a file with many properties is read in linear time.

use crate::common::{excerpt, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::BTreeMap;

/// At most this many XML nodes (elements, text, comments) are read. A large Hadoop file
/// (`yarn-default.xml`, about 600 properties) has a few thousand.
pub const MAX_NODES: u32 = 1_000_000;

/// One property of a Hadoop configuration file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HadoopProperty {
    /// The value with surrounding whitespace removed (a comma list may span lines).
    pub value: String,
    /// `<final>true</final>` (or `final="true"`): a later resource cannot override it.
    pub final_: bool,
    /// The `<description>` text, trimmed, when present.
    pub description: Option<String>,
    /// 1-based input line of the `<name>` element (of the `<property>` element when the name is
    /// an attribute).
    pub line: usize,
    /// 1-based input line of the `<property>` element's start tag.
    pub start_line: usize,
    /// 1-based input line where the `<property>` element ends.
    pub end_line: usize,
}

/// One `<xi:include href="…"/>` element (XInclude, `http://www.w3.org/2001/XInclude`): another
/// file Hadoop reads in its place. Like Hadoop, any element named `include` is taken, whatever
/// its namespace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Include {
    /// The `href` attribute as written (a path relative to this file, an absolute path or a
    /// URL).
    pub href: String,
    /// 1-based input line of the element.
    pub line: usize,
}

/// A parsed Hadoop configuration file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct HadoopConf {
    /// Properties by name, as Hadoop would hold them after reading this one file.
    pub properties: BTreeMap<String, HadoopProperty>,
    /// `xi:include` elements in input order (not followed).
    pub includes: Vec<Include>,
}

impl HadoopConf {
    /// The property `key`, if this file sets it.
    pub fn property(&self, key: &str) -> Option<&HadoopProperty> {
        self.properties.get(key)
    }

    /// The (trimmed) value of `key`, if this file sets it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(|p| p.value.as_str())
    }

    /// `key` as a boolean the way Hadoop's `getBoolean` reads it: `true` or `false` in any
    /// case; `None` when unset or anything else (Hadoop then uses the default).
    pub fn bool(&self, key: &str) -> Option<bool> {
        let v = self.get(key)?;
        if v.eq_ignore_ascii_case("true") {
            Some(true)
        } else if v.eq_ignore_ascii_case("false") {
            Some(false)
        } else {
            None
        }
    }

    /// `key` as a number (`getFloat` / `getDouble`), e.g. `yarn.nodemanager.vmem-pmem-ratio`;
    /// `None` when unset, not a number, or not finite.
    pub fn f64(&self, key: &str) -> Option<f64> {
        let v: f64 = self.get(key)?.parse().ok()?;
        v.is_finite().then_some(v)
    }

    /// `key` as a whole number (`getLong`): decimal, or hexadecimal with a `0x` prefix;
    /// `None` when unset or not a whole number.
    pub fn i64(&self, key: &str) -> Option<i64> {
        let v = self.get(key)?;
        let (neg, digits) = match v.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, v),
        };
        if digits.starts_with(['+', '-']) {
            return None;
        }
        let n = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) if !hex.starts_with(['+', '-']) => i64::from_str_radix(hex, 16).ok()?,
            Some(_) => return None,
            None => digits.parse::<i64>().ok()?,
        };
        if neg {
            n.checked_neg()
        } else {
            Some(n)
        }
    }
}

/// Start offsets of every line, for byte offset → 1-based line in O(log n).
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex(starts)
    }

    /// 1-based line of byte offset `pos` (counting `\n` as `Document::text_pos_at` does).
    fn line(&self, pos: usize) -> usize {
        self.0.partition_point(|&s| s <= pos).max(1)
    }
}

/// Is this a Hadoop configuration file?
///
/// `Yes` when the head holds a `<configuration` start tag and either a `<property>` element or
/// the `configuration.xsl` stylesheet reference that Hadoop's shipped files carry (an empty
/// `*-site.xml` has only that); `No` otherwise. Logback's `<configuration>` files use
/// `<property name=…>` attributes only and are not claimed.
pub fn sniff(head: &str) -> Sniff {
    let has_root = head.contains("<configuration>") || head.contains("<configuration ");
    if has_root && (head.contains("<property>") || head.contains("configuration.xsl")) {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// The character data directly inside an element (text and CDATA), concatenated. Elements
/// nested inside `<name>` or `<value>` (never written by Hadoop) are skipped, so every node is
/// visited once and deeply nested input stays linear.
fn text_of(node: roxmltree::Node) -> String {
    let mut s = String::new();
    for d in node.children().filter(|d| d.is_text()) {
        s.push_str(d.text().unwrap_or(""));
    }
    s
}

/// A property as read, before it is merged into the map.
struct Raw {
    name: Option<String>,
    value: Option<String>,
    final_: bool,
    final_text: Option<String>,
    description: Option<String>,
    name_line: Option<usize>,
}

fn read_property(node: roxmltree::Node, lines: &LineIndex) -> Raw {
    let mut raw = Raw {
        name: None,
        value: None,
        final_: false,
        final_text: None,
        description: None,
        name_line: None,
    };
    for a in node.attributes() {
        match a.name() {
            "name" => raw.name = Some(a.value().trim().to_string()),
            "value" => raw.value = Some(a.value().to_string()),
            "final" => {
                raw.final_ = a.value() == "true";
                raw.final_text = Some(a.value().to_string());
            }
            _ => {}
        }
    }
    for c in node.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "name" => {
                let t = text_of(c);
                // Hadoop keeps the attribute name when the element is empty.
                if !t.is_empty() {
                    raw.name = Some(t.trim().to_string());
                    raw.name_line = Some(lines.line(c.range().start));
                }
            }
            "value" => {
                let t = text_of(c);
                if !t.is_empty() {
                    raw.value = Some(t);
                }
            }
            "final" => {
                let t = text_of(c);
                raw.final_ = t == "true";
                raw.final_text = Some(t);
            }
            "description" => {
                let t = text_of(c);
                let t = t.trim();
                if !t.is_empty() {
                    raw.description = Some(t.to_string());
                }
            }
            _ => {}
        }
    }
    raw
}

/// Why roxmltree refused the text, in words a user can act on.
fn xml_error(text: &str, e: &roxmltree::Error) -> ParseError {
    use roxmltree::Error as E;
    match e {
        E::DtdDetected => {
            let line = text.find("<!DOCTYPE").map(|p| LineIndex::new(text).line(p));
            ParseError::unusable(
                line,
                "the file has a document type declaration (`<!DOCTYPE …>`); Hadoop \
                 configuration files have none, and its entities are not expanded",
            )
        }
        E::NodesLimitReached => ParseError::unusable(
            None,
            format!(
                "more than {MAX_NODES} XML nodes; a Hadoop configuration file has a few thousand"
            ),
        ),
        // These carry no position: the file ends too early, or has no element at all.
        E::UnclosedRootNode | E::UnexpectedEndOfStream => ParseError::unusable(
            Some(LineIndex::new(text).line(text.len().saturating_sub(1))),
            format!("not well-formed XML (the file ends too early, cut?): {e}"),
        ),
        E::NoRootNode | E::AttributesLimitReached | E::NamespacesLimitReached => {
            ParseError::unusable(None, format!("not well-formed XML: {e}"))
        }
        _ => {
            let pos = e.pos();
            ParseError::unusable(Some(pos.row as usize), format!("not well-formed XML: {e}"))
        }
    }
}

/// Attributes one element may have; Hadoop's elements have none or one (`xi:include href`).
pub const MAX_ATTRIBUTES: usize = 1000;

/// The first element with more than [`MAX_ATTRIBUTES`] attributes, as `(1-based line, count)`,
/// found in one pass: an `=` outside quotes inside a tag counts one attribute.
fn crowded_element(text: &str) -> Option<(usize, usize)> {
    let (mut in_tag, mut quote, mut n, mut line, mut tag_line) = (false, None::<u8>, 0, 1, 1);
    for &b in text.as_bytes() {
        if b == b'\n' {
            line += 1;
        }
        match (in_tag, quote, b) {
            (_, Some(q), c) if c == q => quote = None,
            (_, Some(_), _) => {}
            (false, None, b'<') => {
                in_tag = true;
                n = 0;
                tag_line = line;
            }
            (true, None, b'"' | b'\'') => quote = Some(b),
            (true, None, b'=') => {
                n += 1;
                if n > MAX_ATTRIBUTES {
                    return Some((tag_line, n));
                }
            }
            (true, None, b'>') => in_tag = false,
            _ => {}
        }
    }
    None
}

/// Parses one Hadoop configuration file.
///
/// Errors: [`ParseError::Unusable`] when the text is empty, is not well-formed XML (with the
/// line the XML parser stopped at), has a `<!DOCTYPE>`, or its root element is not
/// `<configuration>`. Properties Hadoop would ignore or override are issues (see the module
/// documentation).
pub fn parse(text: &str) -> Result<Parsed<HadoopConf>, ParseError> {
    let text = crate::common::strip_bom(text);
    if text.trim().is_empty() {
        return Err(ParseError::unusable(None, "input is empty"));
    }
    if let Some((line, n)) = crowded_element(text) {
        return Err(ParseError::unusable(
            Some(line),
            format!(
                "an element with {n} attributes (over {MAX_ATTRIBUTES}): not a Hadoop configuration, \
                 and checking that many attributes for duplicates is quadratic"
            ),
        ));
    }
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let doc =
        roxmltree::Document::parse_with_options(text, opts).map_err(|e| xml_error(text, &e))?;
    let lines = LineIndex::new(text);
    let root = doc.root_element();
    if root.tag_name().name() != "configuration" {
        return Err(ParseError::unusable(
            Some(lines.line(root.range().start)),
            format!(
                "the root element is `<{}>`, not `<configuration>`",
                excerpt(root.tag_name().name())
            ),
        ));
    }
    let mut out = HadoopConf::default();
    let mut issues = Issues::default();
    for node in root.descendants().filter(|n| n.is_element()) {
        let start_line = lines.line(node.range().start);
        match node.tag_name().name() {
            "include" => match node.attribute("href") {
                Some(href) => out.includes.push(Include {
                    href: href.to_string(),
                    line: start_line,
                }),
                None => issues.push(start_line, || {
                    "`include` element without `href`: Hadoop ignores it".to_string()
                }),
            },
            "property" => {
                let raw = read_property(node, &lines);
                let end_line = lines.line(node.range().end.saturating_sub(1));
                let Some(name) = raw.name.filter(|n| !n.is_empty()) else {
                    issues.push(start_line, || {
                        "`<property>` without a `<name>`: Hadoop ignores it".to_string()
                    });
                    continue;
                };
                let line = raw.name_line.unwrap_or(start_line);
                let Some(value) = raw.value else {
                    issues.push(line, || {
                        format!(
                            "`{}` has no value (absent or empty `<value>`): Hadoop ignores it \
                             and keeps the default",
                            excerpt(&name)
                        )
                    });
                    continue;
                };
                if let Some(t) = &raw.final_text {
                    let t = t.trim();
                    if !raw.final_ && t.eq_ignore_ascii_case("true") {
                        issues.push(line, || {
                            format!(
                                "`{}`: final is `{}`; Hadoop reads only the exact text `true` \
                                 as final, so it is not final",
                                excerpt(&name),
                                excerpt(t)
                            )
                        });
                    }
                }
                let prop = HadoopProperty {
                    value: value.trim().to_string(),
                    final_: raw.final_,
                    description: raw.description,
                    line,
                    start_line,
                    end_line,
                };
                match out.properties.get(&name) {
                    Some(prev) if prev.final_ => {
                        let prev_line = prev.line;
                        issues.push(line, || {
                            format!(
                                "`{}` is defined again, but the definition on line {prev_line} \
                                 is final: Hadoop ignores this one",
                                excerpt(&name)
                            )
                        });
                    }
                    Some(prev) => {
                        let prev_line = prev.line;
                        issues.push(line, || {
                            format!(
                                "`{}` is defined again; this definition replaces the one on \
                                 line {prev_line}",
                                excerpt(&name)
                            )
                        });
                        out.properties.insert(name, prop);
                    }
                    None => {
                        out.properties.insert(name, prop);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
