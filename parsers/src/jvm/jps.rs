//! `jps` (JDK 8 to 25), with any of `-l`, `-m`, `-v` (kind `jps`; the collector runs
//! `jps -lv`): one line per JVM that publishes performance data (`hsperfdata`).
//!
//! In: `PID [MAIN [ARGS…]]`, where MAIN is the main class (`-l`: fully qualified, or with its
//! module, `jdk.jcmd/sun.tools.jps.Jps`) or the JAR (`-l`: its full path), and ARGS are the
//! `main` arguments (`-m`) followed by the JVM arguments (`-v`), joined by single spaces.
//! When jps cannot read a JVM it prints `PID -- process information unavailable` (or
//! `-- main class information unavailable`, `-- jvm args information unavailable`, …) after
//! whatever it had printed so far.
//!
//! Sample input (`jps -lv`, OpenJDK 17.0.15):
//! ```text
//! 14692 /tmp/rcacap/sleeper.jar -Xms32m -Xmx64m
//! 11925 org.apache.zookeeper.server.quorum.QuorumPeerMain -Dzookeeper.log.dir=/var/log/zookeeper -Xmx192m
//! 14928 -- process information unavailable
//! 14929 jdk.jcmd/sun.tools.jps.Jps -Dapplication.home=/usr/lib/jvm/java-17-openjdk-amd64 -Xms8m -Djdk.module.main=jdk.jcmd
//! ```
//!
//! Out: a [`Jps`] with one [`JpsEntry`] per line. jps loses the quoting of arguments: an
//! argument holding spaces (`-XX:OnOutOfMemoryError=kill -9 %p`) comes out as several words,
//! and main and JVM arguments cannot be told apart when both `-m` and `-v` were given.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One JVM listed by jps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JpsEntry {
    /// Process id (the local VM id).
    pub pid: u32,
    /// Main class or JAR as printed; `None` when jps could not tell.
    pub main: Option<String>,
    /// The words after MAIN, split on whitespace (`-Xmx64m`, `-Dkey=value` kept whole).
    pub args: Vec<String>,
    /// jps's message when it could not read the JVM (`process information unavailable`,
    /// `main class information unavailable`, …), without the leading `--`.
    pub unavailable: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

impl JpsEntry {
    /// Is this jps itself (`sun.tools.jps.Jps`, `jdk.jcmd/sun.tools.jps.Jps` or `Jps`)?
    pub fn is_jps(&self) -> bool {
        matches!(
            self.main.as_deref(),
            Some("Jps" | "sun.tools.jps.Jps" | "jdk.jcmd/sun.tools.jps.Jps")
        )
    }

    /// The main class without its module and package (`QuorumPeerMain`), or the JAR's file
    /// name (`sleeper.jar`).
    pub fn main_simple(&self) -> Option<&str> {
        let m = self.main.as_deref()?;
        let m = m.rsplit('/').next().unwrap_or(m);
        if m.ends_with(".jar") {
            Some(m)
        } else {
            Some(m.rsplit('.').next().unwrap_or(m))
        }
    }

    /// The value of the last `-Dkey=value` argument for `key`.
    pub fn system_property(&self, key: &str) -> Option<&str> {
        self.args.iter().rev().find_map(|a| {
            let (k, v) = a.strip_prefix("-D")?.split_once('=')?;
            (k == key).then_some(v)
        })
    }
}

/// Parsed `jps` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Jps {
    /// One entry per line, in input order.
    pub entries: Vec<JpsEntry>,
}

impl Jps {
    /// The entry of process `pid`.
    pub fn get(&self, pid: u32) -> Option<&JpsEntry> {
        self.entries.iter().find(|e| e.pid == pid)
    }

    /// Every entry except jps itself.
    pub fn jvms(&self) -> impl Iterator<Item = &JpsEntry> {
        self.entries.iter().filter(|e| !e.is_jps())
    }
}

/// Reads one line; `Err` with the reason when it is not a jps line.
fn entry(line: &str, n: usize) -> Result<JpsEntry, String> {
    let t = line.trim();
    let (pid, rest) = match t.split_once(char::is_whitespace) {
        Some((p, r)) => (p, r.trim_start()),
        None => (t, ""),
    };
    let pid: u32 = pid
        .parse()
        .map_err(|_| format!("expected `PID main-class …`, found `{}`", excerpt(t)))?;
    let (body, unavailable) = split_message(rest);
    let mut words = body.split_whitespace().peekable();
    let main = words.next_if(|w| !w.starts_with('-')).map(str::to_string);
    Ok(JpsEntry {
        pid,
        main,
        args: words.map(str::to_string).collect(),
        unavailable,
        line: n,
    })
}

/// What jps prints after ` -- ` when it cannot read a JVM (`Jps.java`, JDK 8 to 25).
const MESSAGES: &[&str] = &[
    "process information unavailable",
    "main class information unavailable",
    "main args information unavailable",
    "jvm args information unavailable",
    "jvm flags information unavailable",
    "detach failed",
    "vmid string invalid",
];

/// Splits off the ` -- <message>` that jps appends to what it had printed when it could not
/// read a JVM.
fn split_message(rest: &str) -> (&str, Option<String>) {
    let t = rest.trim_end();
    for msg in MESSAGES {
        if let Some(before) = t.strip_suffix(msg).and_then(|b| b.strip_suffix("-- ")) {
            if before.is_empty() || before.ends_with(' ') {
                return (before.trim_end(), Some((*msg).to_string()));
            }
        }
    }
    (rest, None)
}

/// Does a main token look like a Java class, a module/class or a JAR?
fn looks_like_main(m: &str) -> bool {
    if m.ends_with(".jar") {
        return true;
    }
    let class = m.rsplit('/').next().unwrap_or(m);
    !class.is_empty()
        && class.split('.').all(|seg| {
            let mut c = seg.chars();
            c.next()
                .is_some_and(|f| f.is_alphabetic() || f == '_' || f == '$')
                && c.all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
        })
}

/// Is this `jps` output?
///
/// `Yes` when every complete non-blank line of the head is `PID MAIN …` (MAIN a plausible
/// class, module/class or JAR name, words separated by spaces) or `PID -- … unavailable`, and
/// at least one line is jps itself, an "unavailable" line, a dotted class name or a JAR; `No`
/// otherwise (a bare `123 Foo` list is too weak to claim).
pub fn sniff(head: &str) -> Sniff {
    let mut strong = false;
    for (l, complete) in head_lines(head) {
        if l.trim().is_empty() {
            continue;
        }
        // jps separates with single spaces; a TAB is another format (the collector's
        // thread-count table, for one).
        if l.contains('\t') {
            if complete {
                return Sniff::No;
            }
            continue;
        }
        match entry(l, 0) {
            Ok(e) => {
                match e.main.as_deref() {
                    Some(m) if !looks_like_main(m) => {
                        if complete {
                            return Sniff::No;
                        }
                        continue;
                    }
                    Some(m) if e.is_jps() || m.contains('.') => strong = true,
                    None if e.unavailable.is_none() => {
                        if complete {
                            return Sniff::No;
                        }
                        continue;
                    }
                    _ => {}
                }
                if e.unavailable.is_some() {
                    strong = true;
                }
            }
            Err(_) if complete => return Sniff::No,
            Err(_) => {}
        }
    }
    if strong {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `jps`, `jps -l`, `jps -lv`, `jps -lmv` output.
///
/// Errors: [`ParseError::Unusable`] when no line starts with a process id. Other lines are
/// issues.
pub fn parse(text: &str) -> Result<Parsed<Jps>, ParseError> {
    let mut out = Jps::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match entry(line, n) {
            Ok(e) => out.entries.push(e),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `PID main-class …` line found".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
