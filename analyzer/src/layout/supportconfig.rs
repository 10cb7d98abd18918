//! SUSE supportconfig: its text files are split into entries, each entry read as its kind.
//!
//! In: the text of a supportconfig file (`basic-environment.txt`, `memory.txt`, `network.txt`,
//! …). Out: its [`Section`]s, each with its command or file, its line range in the file and the
//! kind the command→kind table [`COMMANDS`] gives it ([`kind_of`]); and the issues of entry
//! headers that cannot be read.
//!
//! The format is that of supportutils' `bin/supportconfig.rc` (`_log_cmd`, `conf_files`,
//! `log_files`, `log_entry`, version 3.2.14; the same in the 3.0 output of SLES 12): every entry
//! starts with a header line `#==[ <Type> ]====…====#` (`Command`, `Configuration File`,
//! `Log File`, `Note`, `Summary`, `Verification`, `System`, `Plugin`, and a few one-off
//! titles; the run of `=` varies), then `# <command line>` with the command's resolved path
//! (`# /usr/bin/vmstat 1 4`) or `# <file>` (`# /proc/meminfo`, `# /etc/hosts - File not found`,
//! `# /var/log/warn - Last 500 Lines`), then the output and one or two blank lines.
//! Configuration files are copied without their comment and blank lines, then a blank line
//! is written: a `Configuration File` entry ends at its first blank line (what may follow, like
//! `basic-health-check.txt`'s `Kernel Status -- Not Tainted`, is supportconfig's own text),
//! any other entry at the next header, blank lines at its end left out.
//!
//! A section is named `<file>#<label>`, its label the command with its program's directory
//! left out (`network.txt#ip -stats link`, `memory.txt#vmstat 1 4`) or the file's path
//! (`memory.txt#/proc/meminfo`); a label that repeats within one file gets ` (2)`, ` (3)` ….
//!
//! ```text
//! #==[ Command ]======================================#
//! # /bin/uname -a
//! Linux node 4.4.121-92.85-default #1 SMP Tue Jun 19 07:41:16 UTC 2018 (1fb8a51) x86_64 x86_64 x86_64 GNU/Linux
//!
//! #==[ Configuration File ]===========================#
//! # /etc/os-release
//! NAME="SLES"
//! ```

use parsers::kind::{self, KindSpec};
use parsers::LineIssue;
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The command→kind table: `(entry type, label pattern, kind)`, the pattern a regular
/// expression over the whole label (the command without its program's directory, or the file's
/// path). Only commands supportconfig runs (supportutils 3.2.14 `bin/supportconfig`, the file
/// named in each comment) whose output rca's parser for the kind reads as printed; filtered
/// outputs (`sysctl -a | grep ^vm`, `lsmod | sort`, `dmesg -T | grep taint`) are not read.
pub static COMMANDS: &[(&str, &str, &KindSpec)] = &[
    // basic-environment.txt, boot.txt
    ("Command", r"^uname -a$", &kind::UNAME),
    (
        "Configuration File",
        r"^/etc/os-release$",
        &kind::OS_RELEASE,
    ),
    // basic-health-check.txt, memory.txt
    ("Command", r"^vmstat( [0-9]+)*$", &kind::VMSTAT),
    ("Command", r"^mpstat -P ALL( [0-9]+)*$", &kind::MPSTAT),
    ("Command", r"^free -k$", &kind::FREE),
    (
        "Configuration File",
        r"^/proc/sys/kernel/tainted$",
        &kind::TAINTED,
    ),
    ("Configuration File", r"^/proc/meminfo$", &kind::MEMINFO),
    ("Configuration File", r"^/proc/vmstat$", &kind::PROC_VMSTAT),
    // env.txt
    ("Command", r"^sysctl -a$", &kind::SYSCTL),
    // fs-diskio.txt
    ("Command", r"^iostat -x( [0-9]+)*$", &kind::IOSTAT),
    // hardware.txt, boot.txt
    ("Command", r"^lscpu$", &kind::LSCPU),
    ("Command", r"^dmidecode$", &kind::DMIDECODE),
    ("Configuration File", r"^/proc/cmdline$", &kind::CMDLINE),
    // modules.txt
    ("Command", r"^sort /proc/modules$", &kind::PROC_MODULES),
    // network.txt
    ("Command", r"^ip -stats link$", &kind::IP_LINK),
    ("Command", r"^nstat -az$", &kind::NSTAT),
    // ntp.txt, systemd.txt
    ("Command", r"^chronyc -n tracking$", &kind::CHRONYC_TRACKING),
    (
        "Command",
        r"^chronyc (-n )?sources -v$",
        &kind::CHRONYC_SOURCES,
    ),
    ("Command", r"^ntpq -p$", &kind::NTPQ),
    (
        "Command",
        r"^timedatectl( --no-pager status)?$",
        &kind::TIMEDATECTL,
    ),
    // proc.txt
    ("Configuration File", r"^/proc/softirqs$", &kind::SOFTIRQS),
    ("Configuration File", r"^/proc/net/dev$", &kind::NET_DEV),
    (
        "Configuration File",
        r"^/proc/net/(snmp|netstat)$",
        &kind::NET_SNMP,
    ),
];

static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    COMMANDS
        .iter()
        .map(|(_, p, _)| Regex::new(p).expect("the command patterns are valid"))
        .collect()
});

/// The kind of an entry of type `entry` (`Command`) whose label is `label` (`vmstat 1 4`).
pub fn kind_of(entry: &str, label: &str) -> Option<&'static KindSpec> {
    COMMANDS
        .iter()
        .zip(PATTERNS.iter())
        .find(|((e, _, _), re)| *e == entry && re.is_match(label))
        .map(|((_, _, k), _)| *k)
}

/// The entry header line: `#==[ Command ]======#`.
static HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^#==\[ (\S.*?) \]=+#\s*$").expect("valid regular expression"));

/// One entry of a supportconfig file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The entry's type, from its header (`Command`, `Configuration File`).
    pub entry: String,
    /// The command without its program's directory (`ip -stats link`), or the file's path
    /// (`/proc/meminfo`), without supportconfig's ` - File not found` / ` - Last N Lines`.
    pub label: String,
    /// The name of the section within its file: the label, with ` (2)` … when it repeats.
    pub name: String,
    /// The `# …` line as written, without `# `.
    pub command: String,
    /// 1-based line of the `#==[ … ]==#` header.
    pub header_line: usize,
    /// 1-based line of the first line of output (the one after `# …`).
    pub first_line: usize,
    /// 1-based line of the last line of output, blank lines at the end left out; `first_line -
    /// 1` when the entry has no output.
    pub last_line: usize,
    /// Byte range of the output lines in the file's text.
    pub bytes: std::ops::Range<usize>,
    /// supportconfig wrote that the file does not exist or the command could not be run.
    pub missing: Option<String>,
}

/// A file split into its entries, with the issues of the lines that look like entry headers
/// and are not.
#[derive(Debug, Default)]
pub struct Split {
    /// Entries in file order.
    pub sections: Vec<Section>,
    /// Unreadable headers (the lines up to the next header are skipped).
    pub issues: Vec<LineIssue>,
}

/// The label of a `# …` line: the command with its program's directory left out, or the file
/// path; supportconfig's ` - File not found` and ` - Last N Lines` suffixes removed.
fn label_of(entry: &str, command: &str) -> String {
    let c = command.trim();
    let c = c.strip_suffix(" - File not found").unwrap_or(c);
    let c = match c.rfind(" - Last ") {
        Some(i) if c.ends_with(" Lines") => c.get(..i).unwrap_or(c),
        _ => c,
    };
    if entry != "Command" {
        return c.to_string();
    }
    let mut toks = c.split_ascii_whitespace();
    let Some(first) = toks.next() else {
        return String::new();
    };
    let prog = first.rsplit('/').next().unwrap_or(first);
    std::iter::once(prog)
        .chain(toks)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Splits a supportconfig file into its entries. Text before the first header (the banner) is
/// no entry. A line that starts like a header (`#==[`) but is not one, and a header not
/// followed by its `# …` line, are issues; the lines after them, up to the next header, belong
/// to no entry.
pub fn split(text: &str) -> Split {
    let mut out = Split::default();
    // Lines with their byte ranges (without the line break).
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut pos = 0;
    for raw in text.split_inclusive('\n') {
        let body = raw.trim_end_matches(['\n', '\r']);
        lines.push((pos, pos + body.len()));
        pos += raw.len();
    }
    let line = |i: usize| {
        lines
            .get(i)
            .map_or("", |&(a, b)| text.get(a..b).unwrap_or(""))
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    // (entry, command, header index) of the open section; its output starts at header + 2.
    let mut open: Option<(String, String, usize)> = None;
    let mut close = |open: &mut Option<(String, String, usize)>, end: usize, out: &mut Split| {
        let Some((entry, command, h)) = open.take() else {
            return;
        };
        let first = h + 2;
        let mut last = end;
        if entry == "Configuration File" {
            // The file was copied without its blank lines, then a blank line written: what
            // follows that is supportconfig's own text.
            if let Some(b) = (first..end).find(|&i| line(i).trim().is_empty()) {
                last = b;
            }
        }
        while last > first && line(last - 1).trim().is_empty() {
            last -= 1;
        }
        let label = label_of(&entry, &command);
        let n = seen.entry(label.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            label.clone()
        } else {
            format!("{label} ({n})")
        };
        let body_first = (first < last).then(|| line(first).trim().to_string());
        let missing = if command.trim_end().ends_with(" - File not found") {
            Some("supportconfig: file not found".to_string())
        } else if body_first.as_deref() == Some("ERROR: Command not found or not executable") {
            Some("supportconfig: command not found or not executable".to_string())
        } else {
            None
        };
        let bytes = if first < last {
            lines[first].0..lines[last - 1].1
        } else {
            0..0
        };
        out.sections.push(Section {
            entry,
            label,
            name,
            command,
            header_line: h + 1,
            first_line: first + 1,
            last_line: last,
            bytes,
            missing,
        });
    };
    let mut i = 0;
    while i < lines.len() {
        let l = line(i);
        if !l.starts_with("#==[") {
            i += 1;
            continue;
        }
        close(&mut open, i, &mut out);
        let Some(c) = HEADER.captures(l) else {
            out.issues.push(LineIssue::new(
                i + 1,
                format!(
                    "unreadable supportconfig entry header `{}` (expected `#==[ <Type> ]===…#`); the lines up to the next header are skipped",
                    parsers::common::clip(l)
                ),
            ));
            i += 1;
            continue;
        };
        let entry = c[1].to_string();
        match line(i + 1).strip_prefix("# ") {
            Some(command) if !command.starts_with("==[") => {
                open = Some((entry, command.to_string(), i));
                i += 2;
            }
            _ => {
                out.issues.push(LineIssue::new(
                    i + 2,
                    format!(
                        "the supportconfig `{entry}` header on line {} is not followed by its `# <command or file>` line; the lines up to the next header are skipped",
                        i + 1
                    ),
                ));
                i += 1;
            }
        }
    }
    close(&mut open, lines.len(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_resolve_to_kinds_by_program_and_arguments() {
        let k = |e, c: &str| kind_of(e, &label_of(e, c)).map(|k| k.name);
        assert_eq!(k("Command", "/bin/uname -a"), Some("uname"));
        assert_eq!(k("Command", "/usr/bin/free -k"), Some("free"));
        assert_eq!(k("Command", "/usr/bin/free -h"), None);
        assert_eq!(k("Command", "/sbin/sysctl -a"), Some("sysctl"));
        assert_eq!(
            k("Command", "/usr/sbin/sysctl -a 2>/dev/null | grep ^vm"),
            None
        );
        assert_eq!(k("Command", "/usr/bin/vmstat 1 4"), Some("vmstat"));
        assert_eq!(k("Command", "/usr/bin/mpstat -P ALL 1 3"), Some("mpstat"));
        assert_eq!(k("Command", "/usr/sbin/ip -stats link"), Some("ip-link"));
        assert_eq!(k("Command", "/usr/sbin/ip -stats neighbor"), None);
        assert_eq!(
            k("Configuration File", "/etc/os-release"),
            Some("os-release")
        );
        assert_eq!(k("Configuration File", "/proc/meminfo"), Some("meminfo"));
        assert_eq!(
            k("Configuration File", "/proc/meminfo - File not found"),
            Some("meminfo")
        );
        // The entry type matters: a log file or a command named like a file is not the file.
        assert_eq!(k("Log File", "/proc/meminfo"), None);
        assert_eq!(k("Command", "/proc/meminfo"), None);
        // Every kind of the table is one rca parses.
        for (_, _, spec) in COMMANDS {
            assert!(spec.parse.is_some(), "{}", spec.name);
        }
    }

    #[test]
    fn entries_with_their_line_ranges() {
        let text = "===\n banner\n===\n\n#==[ Command ]======================================#\n# /bin/uname -a\nLinux node 4.4 #1 SMP x86_64 GNU/Linux\n\n#==[ Configuration File ]===========================#\n# /etc/HOSTNAME - File not found\n\n#==[ Command ]=====#\n# /bin/uname -a\nLinux node 4.4 #1 SMP x86_64 GNU/Linux\n\n\n";
        let s = split(text);
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        assert_eq!(s.sections.len(), 3);
        let u = &s.sections[0];
        assert_eq!(
            (u.entry.as_str(), u.label.as_str(), u.header_line),
            ("Command", "uname -a", 5)
        );
        assert_eq!((u.first_line, u.last_line), (7, 7));
        assert_eq!(
            &text[u.bytes.clone()],
            "Linux node 4.4 #1 SMP x86_64 GNU/Linux"
        );
        let h = &s.sections[1];
        assert_eq!(h.label, "/etc/HOSTNAME");
        assert!(h.missing.is_some());
        assert_eq!(h.last_line + 1, h.first_line);
        assert_eq!(s.sections[2].name, "uname -a (2)");
        assert_eq!(
            (s.sections[2].first_line, s.sections[2].last_line),
            (14, 14)
        );
    }

    #[test]
    fn malformed_headers_are_issues_never_panics() {
        let text =
            "#==[ Command ]===\nno hash line\n#==[ broken\n# /bin/uname -a\nx\n#==[ Command ]==#\n";
        let s = split(text);
        assert!(s.sections.is_empty());
        let lines: Vec<usize> = s.issues.iter().map(|i| i.line).collect();
        assert_eq!(lines, vec![1, 3, 7]);
        for t in ["", "#==[", "#==[ ]=#\n# x", "\n\n#==[ A ]=#\n# \n"] {
            let _ = split(t);
        }
    }
}
