//! `java -version`: which JVM runs (distribution, version, VM).
//!
//! What `java -version` prints on stderr: a version line (`openjdk version "17.0.9" 2023-10-17`,
//! `java version "1.8.0_131"`, or with `--version` `openjdk 17.0.12 2024-07-16`), a runtime line
//! and a VM line; the distribution shows in those two lines (`OpenJDK Runtime Environment
//! Temurin-17.0.9+9`, `(Alibaba Dragonwell 8.3.3)`, `Zulu11.56+19-CA`, `Java(TM) SE`…), OpenJ9
//! adds component lines (`OpenJ9 - …`, `OMR - …`, `JCL - … based on …)`), and JVM warnings or
//! `Picked up JAVA_TOOL_OPTIONS` lines may come first.
//!
//! Sample input (OpenJDK 17.0.15):
//! ```text
//! openjdk version "17.0.15" 2025-04-15
//! OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)
//! OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

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
            jv.vm_name = t
                .split_once(" VM")
                .map(|(name, _)| format!("{name} VM").trim().to_string());
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
