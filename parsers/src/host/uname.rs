//! `uname -a`: the kernel and machine the host runs.
//!
//! coreutils 8/9; BusyBox prints the same order:
//! ```text
//! Linux db1 5.14.0-362.el9.x86_64 #1 SMP PREEMPT_DYNAMIC Thu Oct 26 10:12:55 UTC 2023 x86_64 x86_64 x86_64 GNU/Linux
//! ```
//! kernel name, node name, kernel release, kernel version (spaces inside), machine, processor and
//! hardware platform (omitted by coreutils when `unknown`), operating system.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Parsed `uname -a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Uname {
    /// `Linux`.
    pub kernel_name: String,
    /// Host name.
    pub nodename: String,
    /// Kernel release (`uname -r`).
    pub release: String,
    /// Kernel version string (`uname -v`), e.g. `#1 SMP PREEMPT_DYNAMIC Thu Oct 26 …`.
    pub version: String,
    /// Machine hardware name (`uname -m`): `x86_64`, `aarch64`.
    pub machine: Option<String>,
    /// Operating system (`GNU/Linux`), when printed.
    pub os: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Operating system names `uname -o` prints (coreutils, BusyBox, toybox).
const OS_NAMES: &[&str] = &[
    "GNU/Linux",
    "Linux",
    "Android",
    "Toybox",
    "GNU/Hurd",
    "GNU/kFreeBSD",
    "FreeBSD",
    "Cygwin",
    "Msys",
];

/// Machine, processor and platform names `uname -m`/`-p`/`-i` print (and `unknown`).
fn is_arch(t: &str) -> bool {
    const ARCHES: &[&str] = &[
        "x86_64",
        "amd64",
        "i386",
        "i486",
        "i586",
        "i686",
        "athlon",
        "aarch64",
        "aarch64_be",
        "arm64",
        "arm",
        "armv5tel",
        "armv6l",
        "armv7l",
        "armv8l",
        "ppc",
        "ppc64",
        "ppc64le",
        "s390",
        "s390x",
        "mips",
        "mips64",
        "mipsel",
        "mips64el",
        "riscv32",
        "riscv64",
        "loongarch64",
        "sparc",
        "sparc64",
        "ia64",
        "alpha",
        "parisc",
        "parisc64",
        "sh4",
        "m68k",
        "unknown",
    ];
    ARCHES.contains(&t)
}

/// Is this `uname -a` output?
///
/// `Yes` when the first non-blank line is `Linux <host> <release> #<n> …` (the kernel version
/// starts with `#` and the build number, which Ubuntu follows with `-Ubuntu`); `Unsure` for `Linux <host> <release> …` without it;
/// `No` otherwise (the sysstat banner has `(host)` in the third place, `/proc/version` says
/// `Linux version`).
pub fn sniff_uname(head: &str) -> Sniff {
    let Some((line, _)) = head_lines(head).find(|(l, _)| !l.trim().is_empty()) else {
        return Sniff::No;
    };
    let toks: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
    match toks.as_slice() {
        [kernel, host, release, rest @ ..]
            if *kernel == "Linux"
                && *host != "version"
                && !host.starts_with('(')
                && release.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            let build = rest
                .first()
                .and_then(|v| v.strip_prefix('#'))
                .map(|n| n.split_once('-').map_or(n, |(number, _)| number))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if build {
                Sniff::Yes
            } else {
                Sniff::Unsure
            }
        }
        _ => Sniff::No,
    }
}

/// Parses `uname -a`. Errors: [`ParseError::Unusable`] when the first non-blank line has fewer
/// than three fields.
///
/// The machine is the first of the trailing architecture names (`x86_64 x86_64 x86_64` or
/// `i686 i686 i386`: machine, processor, platform) before the operating system; the version is
/// everything between the release and those. Lines after the first are reported as issues.
pub fn parse_uname(text: &str) -> Result<Parsed<Uname>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let toks: Vec<&str> = line.split_ascii_whitespace().collect();
    let [kernel_name, nodename, release, rest @ ..] = toks.as_slice() else {
        return Err(ParseError::unusable(
            Some(n),
            format!(
                "expected `uname -a` (kernel name, host name, release, version …), found `{}`",
                excerpt(line)
            ),
        ));
    };
    // A kernel name is a word (`Linux`), a release starts with a digit (`5.14.0-362.el9`): binary
    // garbage or another tool's output fails here instead of becoming a host name.
    let word = |t: &str| t.bytes().all(|b| b.is_ascii_graphic());
    if !kernel_name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        || !release.bytes().next().is_some_and(|b| b.is_ascii_digit())
        || !word(nodename)
        || !word(release)
    {
        return Err(ParseError::unusable(
            Some(n),
            format!(
                "expected `uname -a`: a kernel name such as `Linux`, a host name and a release starting with a digit, found `{}`",
                excerpt(line)
            ),
        ));
    }
    let (os, rest) = match rest.split_last() {
        Some((last, init)) if OS_NAMES.contains(last) => (Some(last.to_string()), init),
        _ => (None, rest),
    };
    // Trailing architecture names: machine [processor [platform]].
    let arch_run = rest.iter().rev().take(3).take_while(|t| is_arch(t)).count();
    let (version, machine) = if arch_run > 0 {
        let start = rest.len() - arch_run;
        (&rest[..start], Some(rest[start].to_string()))
    } else if os.is_some() && rest.len() > 1 {
        // An architecture this parser does not list, just before the OS name (unless it is the
        // year that ends the version).
        let (last, init) = rest.split_last().unwrap_or((&"", rest));
        if last.bytes().all(|b| b.is_ascii_digit()) {
            (rest, None)
        } else {
            (init, Some(last.to_string()))
        }
    } else {
        (rest, None)
    };
    let mut issues = Issues::default();
    for (m, l) in lines {
        issues.push(m, || {
            format!(
                "expected a single `uname -a` line, ignored `{}`",
                excerpt(l)
            )
        });
    }
    Ok(Parsed {
        value: Uname {
            kernel_name: kernel_name.to_string(),
            nodename: nodename.to_string(),
            release: release.to_string(),
            version: version.join(" "),
            machine,
            os,
            line: n,
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uname(s: &str) -> Uname {
        parse_uname(s).unwrap().value
    }

    #[test]
    fn uname_variants() {
        let u = uname("Linux db1 5.14.0-362.el9.x86_64 #1 SMP PREEMPT_DYNAMIC Thu Oct 26 10:12:55 UTC 2023 x86_64 x86_64 x86_64 GNU/Linux\n");
        assert_eq!(u.machine.as_deref(), Some("x86_64"));
        assert_eq!(u.os.as_deref(), Some("GNU/Linux"));
        assert_eq!(
            u.version,
            "#1 SMP PREEMPT_DYNAMIC Thu Oct 26 10:12:55 UTC 2023"
        );

        let u = uname(
            "Linux old 2.6.18-398.el5 #1 SMP Tue Sep 16 20:51:48 EDT 2014 i686 i686 i386 GNU/Linux",
        );
        assert_eq!(u.machine.as_deref(), Some("i686"));
        assert_eq!(u.version, "#1 SMP Tue Sep 16 20:51:48 EDT 2014");

        // coreutils ≥ 9 omits unknown processor/platform.
        let u = uname(
            "Linux pi 6.1.21-v8+ #1642 SMP PREEMPT Mon Apr  3 17:24:16 BST 2023 aarch64 GNU/Linux",
        );
        assert_eq!(u.machine.as_deref(), Some("aarch64"));

        // BusyBox without the OS name.
        let u = uname("Linux host 5.10.0 #1 SMP Mon Jan 1 00:00:00 UTC 2024 aarch64");
        assert_eq!(
            (u.machine.as_deref(), u.os.as_deref()),
            (Some("aarch64"), None)
        );
        assert_eq!(u.version, "#1 SMP Mon Jan 1 00:00:00 UTC 2024");

        // Older coreutils print `unknown`.
        let u = uname(
            "Linux h 4.4.0 #1 SMP Thu Jan 1 00:00:00 UTC 2016 x86_64 unknown unknown GNU/Linux",
        );
        assert_eq!(u.machine.as_deref(), Some("x86_64"));
        assert_eq!(u.version, "#1 SMP Thu Jan 1 00:00:00 UTC 2016");

        // An architecture not in the list, before the OS name.
        let u = uname("Linux h 6.1.0 #1 SMP Thu Jan 1 00:00:00 UTC 2024 e2k GNU/Linux");
        assert_eq!(u.machine.as_deref(), Some("e2k"));
    }
}
