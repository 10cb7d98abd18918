//! Which JVM runs, and how it was started: `java -version` (what it prints on stderr), and the
//! `jcmd PID` commands `VM.version`, `VM.flags`, `VM.command_line` and `VM.system_properties`.
//!
//! `java -version` prints a version line (`openjdk version "17.0.9" 2023-10-17`, `java version
//! "1.8.0_131"`, or with `--version` `openjdk 17.0.12 2024-07-16`), a runtime line and a VM line;
//! the distribution shows in those two lines (`OpenJDK Runtime Environment Temurin-17.0.9+9`,
//! `(Alibaba Dragonwell 8.3.3)`, `Zulu11.56+19-CA`, `Java(TM) SE`…), OpenJ9 adds component
//! lines (`OpenJ9 - …`, `OMR - …`, `JCL - … based on …)`), and JVM warnings or `Picked up
//! JAVA_TOOL_OPTIONS` lines may come first. jcmd prints the target PID alone first (`24267:`).
//!
//! Units: flag values are as HotSpot prints them: sizes (`MaxHeapSize`, `InitialHeapSize`,
//! `ReservedCodeCacheSize`…) in bytes, counts as plain numbers.
//!
//! Not handled: `VM.flags -all` (the table form), quoting inside `jvm_args` (split on whitespace).
//!
//! Sample input (OpenJDK 17.0.15, `jcmd PID VM.version`, then `java -version`):
//! ```text
//! 24267:
//! OpenJDK 64-Bit Server VM version 17.0.15+6-Debian-1deb12u1
//! JDK 17.0.15
//! openjdk version "17.0.15" 2025-04-15
//! OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)
//! OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::BTreeMap;

/// The distribution a JVM comes from, as named in `java -version`'s runtime and VM lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum JavaVendor {
    /// Oracle JDK (`Java(TM) SE Runtime Environment`).
    Oracle,
    /// Eclipse Temurin (`Temurin-17.0.9+9`, JDK 8: `(Temurin)`).
    Temurin,
    /// AdoptOpenJDK, Temurin's predecessor (`(AdoptOpenJDK)`).
    AdoptOpenJdk,
    /// Azul Zulu (`Zulu11.56+19-CA`).
    AzulZulu,
    /// Amazon Corretto (`Corretto-15.0.1.9.1`).
    AmazonCorretto,
    /// Alibaba Dragonwell (`(Alibaba Dragonwell 8.3.3)`).
    AlibabaDragonwell,
    /// Tencent Kona (`Kona` in the runtime line).
    TencentKona,
    /// Huawei BiSheng (`BiSheng` in the runtime line).
    BiSheng,
    /// A JVM running Eclipse OpenJ9 (`Eclipse OpenJ9 VM`), including IBM Semeru.
    OpenJ9,
    /// An OpenJDK build without a distribution name (e.g. Debian's, Red Hat's packages).
    OpenJdk,
    /// Anything else: the runtime line's name.
    Other(String),
}

/// Derives the vendor from the runtime and VM lines.
pub fn vendor_of(runtime_line: &str, vm_line: &str) -> JavaVendor {
    let both = format!("{runtime_line} {vm_line}");
    let has = |s: &str| both.contains(s);
    if has("Temurin") {
        JavaVendor::Temurin
    } else if has("AdoptOpenJDK") {
        JavaVendor::AdoptOpenJdk
    } else if has("Zulu") {
        JavaVendor::AzulZulu
    } else if has("Corretto") {
        JavaVendor::AmazonCorretto
    } else if has("Dragonwell") {
        JavaVendor::AlibabaDragonwell
    } else if has("Kona") {
        JavaVendor::TencentKona
    } else if has("BiSheng") || has("Bisheng") {
        JavaVendor::BiSheng
    } else if has("OpenJ9") {
        JavaVendor::OpenJ9
    } else if has("Java(TM) SE") || has("HotSpot(TM)") {
        JavaVendor::Oracle
    } else if has("OpenJDK") {
        JavaVendor::OpenJdk
    } else {
        let name = runtime_line
            .split(" (")
            .next()
            .unwrap_or(runtime_line)
            .trim();
        JavaVendor::Other(name.to_string())
    }
}

/// The Java feature release of a version string: `1.8.0_372` → 8, `17.0.9` → 17, `21` → 21,
/// `11.0.13-beta` → 11, `8.0_372` (jcmd on JDK 8) → 8.
pub fn feature_of(version: &str) -> Option<u32> {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        parts.next()?.parse().ok()
    } else {
        Some(first)
    }
}

/// `java -version` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JavaVersion {
    /// Version in quotes (or after `openjdk ` with `--version`): `1.8.0_372`, `17.0.9`.
    pub version: String,
    /// Feature release: 8, 11, 17…
    pub feature: Option<u32>,
    /// Release date printed after the version (JDK 10+), e.g. `2025-04-15`.
    pub version_date: Option<String>,
    /// Distribution, from the runtime and VM lines.
    pub vendor: JavaVendor,
    /// The runtime line, e.g. `OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)`.
    pub runtime_line: Option<String>,
    /// The VM line, e.g. `OpenJDK 64-Bit Server VM (build 17.0.15+…, mixed mode, sharing)`.
    pub vm_line: Option<String>,
    /// VM name: the VM line up to `VM`, e.g. `OpenJDK 64-Bit Server VM`, `Eclipse OpenJ9 VM`.
    pub vm_name: Option<String>,
    /// Build from the runtime line's `(build …)`, e.g. `17.0.15+6-Debian-1deb12u1`.
    pub build: Option<String>,
    /// Lines printed before the version line (JVM warnings, `Picked up JAVA_TOOL_OPTIONS`).
    pub preamble: Vec<String>,
    /// 1-based input lines of the version, runtime and VM lines.
    pub lines: JavaVersionLines,
}

/// Where the parts of `java -version` were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct JavaVersionLines {
    /// The version line.
    pub version: usize,
    /// The runtime line, when present.
    pub runtime: Option<usize>,
    /// The VM line, when present.
    pub vm: Option<usize>,
}

/// Reads a version line: `(version, date)`.
fn version_line(line: &str) -> Option<(String, Option<String>)> {
    let t = line.trim();
    for prefix in ["openjdk version \"", "java version \""] {
        if let Some(rest) = t.strip_prefix(prefix) {
            let (v, after) = rest.split_once('"')?;
            let date = after.split_ascii_whitespace().next().map(str::to_string);
            return (!v.is_empty()).then(|| (v.to_string(), date));
        }
    }
    // `java --version`: `openjdk 17.0.12 2024-07-16` / `java 21.0.1 2023-10-17 LTS`.
    let mut it = t.split_ascii_whitespace();
    let word = it.next()?;
    if word != "openjdk" && word != "java" {
        return None;
    }
    let v = it.next()?;
    if !v.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    // `--version` always prints the release date next (`2024-07-16`); this keeps a `perf script`
    // sample header (`java 21572 [000] 9563.22: …`) from passing for a version line.
    let date = it.next()?;
    let b = date.as_bytes();
    let is_date = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    is_date.then(|| (v.to_string(), Some(date.to_string())))
}

fn is_vm_line(line: &str) -> bool {
    line.contains(" VM") && line.contains("(build")
}

/// `java -version` output?
///
/// `Yes` on a complete version line (`openjdk version "…"`, `java version "…"`, `openjdk
/// 17.0.12 2024-07-16`); `No` otherwise.
pub fn sniff_java_version(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if complete && version_line(line).is_some() {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `java -version` (or `java --version`) output.
///
/// Errors: [`ParseError::Unusable`] without a version line. Unexpected lines after the VM line
/// become issues (OpenJ9's component lines are expected).
pub fn parse_java_version(text: &str) -> Result<Parsed<JavaVersion>, ParseError> {
    let mut issues = Issues::default();
    let mut preamble = Vec::new();
    let mut found: Option<JavaVersion> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(jv) = found.as_mut() else {
            match version_line(t) {
                Some((version, version_date)) => {
                    found = Some(JavaVersion {
                        feature: feature_of(&version),
                        version,
                        version_date,
                        vendor: JavaVendor::OpenJdk,
                        runtime_line: None,
                        vm_line: None,
                        vm_name: None,
                        build: None,
                        preamble: std::mem::take(&mut preamble),
                        lines: JavaVersionLines {
                            version: n,
                            runtime: None,
                            vm: None,
                        },
                    })
                }
                None => preamble.push(t.to_string()),
            }
            continue;
        };
        if jv.runtime_line.is_none() && jv.vm_line.is_none() && !is_vm_line(t) {
            jv.build = t
                .split_once("(build ")
                .and_then(|(_, b)| b.split([')', ',']).next())
                .map(|b| b.trim().to_string());
            jv.runtime_line = Some(t.to_string());
            jv.lines.runtime = Some(n);
        } else if jv.vm_line.is_none() && is_vm_line(t) {
            jv.vm_name = t.find(" VM").map(|i| t[..i + 3].trim().to_string());
            jv.vm_line = Some(t.to_string());
            jv.lines.vm = Some(n);
        } else if jv.vm_line.as_deref().is_some_and(|v| v.contains("OpenJ9")) {
            // OpenJ9 component lines (`OpenJ9 - …`, `OMR - …`, `JCL - … based on …)`).
        } else {
            issues.push(n, || {
                format!(
                    "expected nothing after the runtime and VM lines, found `{}`",
                    excerpt(line)
                )
            });
        }
    }
    let Some(mut jv) = found else {
        return Err(ParseError::unusable(
            None,
            "no `java -version` line (`openjdk version \"…\"`) found",
        ));
    };
    jv.vendor = vendor_of(
        jv.runtime_line.as_deref().unwrap_or(""),
        jv.vm_line.as_deref().unwrap_or(""),
    );
    if jv.vm_line.is_none() {
        issues.push(0, || {
            "expected a VM line (`… VM (build …)`), none found".into()
        });
    }
    Ok(Parsed {
        value: jv,
        issues: issues.into_vec(),
    })
}

/// Reads jcmd's first line, `24267:`.
fn pid_line(t: &str) -> Option<u32> {
    t.strip_suffix(':')?.parse().ok()
}

/// `jcmd PID VM.version` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmVersion {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// VM name, e.g. `OpenJDK 64-Bit Server VM`.
    pub vm_name: String,
    /// VM version after `version`, e.g. `17.0.15+6-Debian-1deb12u1` (JDK 8: `25.372-b07`).
    pub vm_version: String,
    /// 1-based input line of the VM line.
    pub vm_line: usize,
    /// JDK version from the `JDK …` line, e.g. `17.0.15` (JDK 8: `8.0_372`).
    pub jdk_version: Option<String>,
    /// Feature release from `jdk_version`.
    pub feature: Option<u32>,
    /// 1-based input line of the `JDK` line.
    pub jdk_line: Option<usize>,
}

/// `jcmd VM.version` output?
///
/// `Yes` on a complete `… VM version …` line; `No` otherwise.
pub fn sniff_vm_version(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if complete && line.contains(" VM version ") {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.version`.
///
/// Errors: [`ParseError::Unusable`] without a `… VM version …` line. Other unexpected lines
/// become issues.
pub fn parse_vm_version(text: &str) -> Result<Parsed<VmVersion>, ParseError> {
    let mut out = VmVersion::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.vm_line == 0 {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        if let Some((name, version)) = t.split_once(" version ") {
            if out.vm_line == 0 && name.ends_with("VM") {
                out.vm_name = name.to_string();
                out.vm_version = version.trim().to_string();
                out.vm_line = n;
                continue;
            }
        }
        if let Some(v) = t.strip_prefix("JDK ") {
            out.jdk_version = Some(v.trim().to_string());
            out.feature = feature_of(v.trim());
            out.jdk_line = Some(n);
            continue;
        }
        issues.push(n, || {
            format!(
                "expected `… VM version …` or `JDK …`, found `{}`",
                excerpt(line)
            )
        });
    }
    if out.vm_line == 0 {
        return Err(ParseError::unusable(None, "no `… VM version …` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// A `-XX` flag value as `VM.flags` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum FlagValue {
    /// `-XX:+Name` (true) or `-XX:-Name` (false).
    Bool(bool),
    /// `-XX:Name=123`: a whole number (sizes in bytes).
    Number(u64),
    /// `-XX:Name=text` for anything else.
    Text(String),
}

/// One flag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VmFlag {
    /// The value.
    pub value: FlagValue,
    /// 1-based input line.
    pub line: usize,
}

/// `jcmd PID VM.flags` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmFlags {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// Flags by name (without `-XX:` and `+`/`-`); a later duplicate wins.
    pub flags: BTreeMap<String, VmFlag>,
}

impl VmFlags {
    /// A numeric flag's value, e.g. `number("MaxHeapSize")` in bytes.
    pub fn number(&self, name: &str) -> Option<u64> {
        match self.flags.get(name)?.value {
            FlagValue::Number(v) => Some(v),
            _ => None,
        }
    }

    /// A boolean flag's value, e.g. `enabled("UseG1GC")`.
    pub fn enabled(&self, name: &str) -> Option<bool> {
        match self.flags.get(name)?.value {
            FlagValue::Bool(v) => Some(v),
            _ => None,
        }
    }
}

fn parse_flag(tok: &str) -> Option<(String, FlagValue)> {
    let f = tok.strip_prefix("-XX:")?;
    if let Some(name) = f.strip_prefix('+') {
        return (!name.is_empty()).then(|| (name.to_string(), FlagValue::Bool(true)));
    }
    if let Some(name) = f.strip_prefix('-') {
        return (!name.is_empty()).then(|| (name.to_string(), FlagValue::Bool(false)));
    }
    let (name, value) = f.split_once('=')?;
    if name.is_empty() {
        return None;
    }
    let value = if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        value
            .parse()
            .map(FlagValue::Number)
            .unwrap_or_else(|_| FlagValue::Text(value.to_string()))
    } else {
        FlagValue::Text(value.to_string())
    };
    Some((name.to_string(), value))
}

/// `jcmd VM.flags` output?
///
/// `Yes` on a complete line of `-XX:` flags only; `No` otherwise.
pub fn sniff_vm_flags(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let mut toks = line.split_ascii_whitespace().peekable();
        if complete && toks.peek().is_some() && toks.all(|t| parse_flag(t).is_some()) {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.flags` (one or several lines of `-XX:` flags).
///
/// Errors: [`ParseError::Unusable`] when no flag is found. Tokens that are not `-XX:` flags
/// become issues.
pub fn parse_vm_flags(text: &str) -> Result<Parsed<VmFlags>, ParseError> {
    let mut out = VmFlags::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.flags.is_empty() {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        // A text value may hold spaces (`-XX:OnOutOfMemoryError=kill -9 %p`): HotSpot prints it
        // raw, so words that are not flags continue the previous text flag.
        let mut last_text: Option<String> = None;
        for tok in t.split_ascii_whitespace() {
            if !tok.starts_with("-XX:") {
                if let Some(name) = &last_text {
                    if let Some(VmFlag {
                        value: FlagValue::Text(v),
                        ..
                    }) = out.flags.get_mut(name)
                    {
                        v.push(' ');
                        v.push_str(tok);
                        continue;
                    }
                }
            }
            match parse_flag(tok) {
                Some((name, value)) => {
                    last_text = matches!(value, FlagValue::Text(_)).then(|| name.clone());
                    out.flags.insert(name, VmFlag { value, line: n });
                }
                None => issues.push(n, || {
                    format!(
                        "expected `-XX:+Name`, `-XX:-Name` or `-XX:Name=value`, found `{}`",
                        excerpt(tok)
                    )
                }),
            }
        }
    }
    if out.flags.is_empty() {
        return Err(ParseError::unusable(None, "no `-XX:` flag found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// `jcmd PID VM.command_line` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmCommandLine {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// `jvm_args:` split on whitespace, e.g. `["-Xmx256m", "-XX:+UseG1GC"]`.
    pub jvm_args: Vec<String>,
    /// `jvm_flags:` (flags from a `.hotspotrc` / `-XX:Flags=` file), split on whitespace.
    pub jvm_flags: Vec<String>,
    /// `java_command:` main class or `-jar` file and its arguments.
    pub java_command: Option<String>,
    /// `java_class_path (initial):`.
    pub class_path: Option<String>,
    /// `Launcher Type:`, e.g. `SUN_STANDARD`.
    pub launcher_type: Option<String>,
    /// Every `key: value` line in input order, with its 1-based line.
    pub entries: Vec<(String, String, usize)>,
}

/// `jcmd VM.command_line` output?
///
/// `Yes` on a complete `VM Arguments:`, `jvm_args:` or `java_command:` line; `No` otherwise.
pub fn sniff_vm_command_line(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let t = line.trim_start();
        if complete
            && (t == "VM Arguments:"
                || t.starts_with("jvm_args:")
                || t.starts_with("java_command:"))
        {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.command_line`.
///
/// Errors: [`ParseError::Unusable`] when no `key: value` line is found. Lines without `:` become
/// issues.
pub fn parse_vm_command_line(text: &str) -> Result<Parsed<VmCommandLine>, ParseError> {
    let mut out = VmCommandLine::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t == "VM Arguments:" {
            continue;
        }
        if out.pid.is_none() && out.entries.is_empty() {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        let Some((k, v)) = t.split_once(':') else {
            issues.push(n, || {
                format!("expected `key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "jvm_args" => out.jvm_args = v.split_ascii_whitespace().map(str::to_string).collect(),
            "jvm_flags" => out.jvm_flags = v.split_ascii_whitespace().map(str::to_string).collect(),
            "java_command" => out.java_command = Some(v.to_string()),
            "java_class_path (initial)" => out.class_path = Some(v.to_string()),
            "Launcher Type" => out.launcher_type = Some(v.to_string()),
            _ => {}
        }
        out.entries.push((k.to_string(), v.to_string(), n));
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(None, "no `key: value` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// `jcmd PID VM.system_properties` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SystemProperties {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// The `#…` comment line (the time the properties were written), without `#`.
    pub comment: Option<String>,
    /// Properties by key, unescaped, with their 1-based input lines.
    pub properties: BTreeMap<String, (String, usize)>,
}

impl SystemProperties {
    /// A property's value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(|(v, _)| v.as_str())
    }
}

/// Undoes `java.util.Properties.store` escaping: `\:` `\=` `\ ` `\\` `\t` `\n` `\r` `\f` and
/// `\uXXXX`. Returns `None` on a malformed `\u` escape.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                if hex.len() != 4 {
                    return None;
                }
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    Some(out)
}

/// Byte index of the first `=` not escaped by a backslash.
fn separator(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'=' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// `jcmd VM.system_properties` output?
///
/// `Yes` on a complete `java.…=…` line (`java.version=17.0.15`); `No` otherwise.
pub fn sniff_system_properties(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if complete && line.starts_with("java.") {
            if let Some(i) = separator(line) {
                if !line[..i].contains(' ') {
                    return Sniff::Yes;
                }
            }
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.system_properties`.
///
/// Errors: [`ParseError::Unusable`] when no `key=value` line is found. Other lines become issues.
pub fn parse_system_properties(text: &str) -> Result<Parsed<SystemProperties>, ParseError> {
    let mut out = SystemProperties::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.properties.is_empty() && out.comment.is_none() {
            if let Some(pid) = pid_line(t.trim_end()) {
                out.pid = Some(pid);
                continue;
            }
        }
        if let Some(c) = t.strip_prefix('#') {
            if out.comment.is_none() {
                out.comment = Some(c.trim().to_string());
            }
            continue;
        }
        let parsed = separator(t).and_then(|i| Some((unescape(&t[..i])?, unescape(&t[i + 1..])?)));
        match parsed {
            Some((k, v)) if !k.is_empty() => {
                out.properties.insert(k, (v, n));
            }
            _ => issues.push(n, || {
                format!("expected `key=value`, found `{}`", excerpt(line))
            }),
        }
    }
    if out.properties.is_empty() {
        return Err(ParseError::unusable(None, "no `key=value` property found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
