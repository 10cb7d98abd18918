//! Java thread dumps as `jstack [-l] <pid>` and `jcmd <pid> Thread.print` print them, HotSpot
//! JDK 8 to 26 (OpenJDK and Oracle builds).
//!
//! A dump is an optional `<pid>:` line (jcmd), a `2024-05-01 12:00:00` time stamp, the
//! `Full thread dump <VM name> (<version> <mode>):` header (JDK 26 drops the colon and adds a
//! `JDK version:` line), the `Threads class SMR info:` block (JDK 11+), then one block per
//! thread: a header line, `java.lang.Thread.State:`, `at` frames with `- locked`,
//! `- waiting to lock`, `- waiting on` and `- parking to wait for` lock lines, and with `-l` a
//! `Locked ownable synchronizers:` list. VM-internal threads (`"VM Thread"`, GC workers) have a
//! header only. The dump ends with `JNI global refs:` and, when the JVM found one, the
//! `Found one Java-level deadlock:` report closed by `Found N deadlock(s).`.
//!
//! Header variants: JDK 8 prints `#id` for Java threads only and no `cpu=`/`elapsed=`; JDK 11+
//! adds `cpu=12.34ms elapsed=100.5s`; JDK 19+ prints the OS thread id both as `[12345]` after
//! `#id` and as a decimal `nid=12345` (earlier JDKs print `nid=0x3039`); JDK 21+ carrier
//! threads of virtual threads are followed by `Carrying virtual thread #49`.
//!
//! Each lock line is also read into its verb ([`WaitVerb`]), object address and class
//! ([`LockRef`]): what a thread waits for ([`JavaThread::wait`]), the monitors it holds
//! ([`JavaThread::held`]) and, with `-l`, the ownable synchronizers it owns
//! ([`JavaThread::owned_synchronizers`]). Each deadlock report becomes a [`DeadlockReport`]: the
//! threads of the cycle, the lock each waits for (`monitor` or `ownable synchronizer`) and who
//! holds it. Not covered: OpenJ9 javacores (a different format, `1LKDEADLOCK` records).
//!
//! How lines are read: the lock lines (`- waiting to lock <0x…> (a java.lang.Object)`, the
//! `Locked ownable synchronizers` entries) with the nom grammar of the `grammar` submodule, a
//! cold path (a few lines per blocked thread); everything else, thread headers included, with
//! `strip_prefix` / `split_once` scanning. A nom grammar of the header (quoted name with inner
//! quotes, then attributes) gave the same results but measured 169 MB/s against 223 MB/s for
//! the scanner on the bench input (`bench/parser-throughput.sh`, `thread-dump`, where headers
//! are a tenth of the lines and a quarter of the bytes): the scanner was kept. With the lock
//! lines alone in nom the dump reads at 272 MB/s against 285 MB/s (median of 9 runs; lock lines
//! are a sixth of that input's lines).
//!
//! How lines are read: the lock lines (`- waiting to lock <0x…> (a java.lang.Object)`, the
//! `Locked ownable synchronizers` entries) with the nom grammar of the `grammar` submodule, a
//! cold path (a few lines per blocked thread); everything else, thread headers included, with
//! `strip_prefix` / `split_once` scanning. A nom grammar of the header (quoted name with inner
//! quotes, then attributes) gave the same results but measured 169 MB/s against 223 MB/s for
//! the scanner on the bench input (`bench/parser-throughput.sh`, `thread-dump`, where headers
//! are a tenth of the lines and a quarter of the bytes): the scanner was kept. With the lock
//! lines alone in nom the dump reads at 272 MB/s against 285 MB/s (median of 9 runs; lock lines
//! are a sixth of that input's lines).
//!
//! Units: `cpu_ms` milliseconds of CPU time consumed by the thread, `elapsed_s` seconds since it
//! started.
//!
//! Sample input (OpenJDK 17.0.15 `jstack <pid>`):
//! ```text
//! "lock-waiter" #20 prio=5 os_prio=0 cpu=0.76ms elapsed=12.97s tid=0x00007f0cbc4ebab0 nid=0x61b7 waiting for monitor entry  [0x00007f0c8cbfc000]
//!    java.lang.Thread.State: BLOCKED (on object monitor)
//!         at ZkClient.lambda$main$4(ZkClient.java:20)
//!         - waiting to lock <0x000000069e85ef58> (a java.lang.Object)
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed};
use crate::Sniff;
use serde::Serialize;
use std::collections::HashMap;

mod grammar;
use grammar::LockLine;

/// A whole thread dump.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ThreadDump {
    /// Target process id from the `<pid>:` line jcmd prints first.
    pub pid: Option<u64>,
    /// Time stamp line as printed (`2020-10-19 14:12:11`, local time of the target).
    pub timestamp: Option<String>,
    /// What follows `Full thread dump `, e.g.
    /// `OpenJDK 64-Bit Server VM (17.0.9+9 mixed mode, sharing)`.
    pub jvm: Option<String>,
    /// JDK 26+: the `JDK version:` line's text.
    pub jdk_version: Option<String>,
    /// `length=` of the `Threads class SMR info` block (JDK 11+): Java threads at dump time.
    pub smr_length: Option<usize>,
    /// Threads in input order.
    pub threads: Vec<JavaThread>,
    /// `JNI global refs: N` / `JNI global references: N`.
    pub jni_global_refs: Option<u64>,
    /// Deadlocks the JVM reported (`Found N deadlock(s).`, or the number of
    /// `Found one Java-level deadlock:` sections when the count line is missing).
    pub deadlocks: usize,
    /// Names of the threads listed in the deadlock reports, each once, in report order.
    pub deadlocked_threads: Vec<String>,
    /// 1-based line of the first `Found one Java-level deadlock:`.
    pub deadlock_line: Option<usize>,
    /// The `Found one Java-level deadlock:` reports, in input order.
    pub deadlock_reports: Vec<DeadlockReport>,
}

/// One `Found one Java-level deadlock:` report: the cycle of threads, each waiting for a lock
/// the next one holds.
///
/// Sample (OpenJDK 17.0.15 `jstack -l`; a `ReentrantLock` prints `waiting for ownable
/// synchronizer 0x…, (a java.util.concurrent.locks.ReentrantLock$NonfairSync),` instead):
/// ```text
/// Found one Java-level deadlock:
/// =============================
/// "left":
///   waiting to lock monitor 0x00007f4bbc066000 (object 0x000000069ec1b1c0, a java.lang.Object),
///   which is held by "right"
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DeadlockReport {
    /// 1-based line of `Found one Java-level deadlock:`.
    pub line: usize,
    /// The threads of the cycle, in report order.
    pub edges: Vec<DeadlockEdge>,
}

/// One thread of a deadlock cycle.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DeadlockEdge {
    /// Thread name (the report's `"name":` line).
    pub thread: String,
    /// The lock it waits for: the object's address (`0x000000069ec1b1c0`; for a monitor the
    /// `object` address, which the thread's stack prints as `<0x…>`) and class.
    pub waits_for: Option<LockRef>,
    /// `monitor` (a `synchronized` object) or `ownable synchronizer` (a
    /// `java.util.concurrent` lock), as printed after `waiting to lock` / `waiting for`.
    pub lock_kind: Option<String>,
    /// The thread that holds it (`which is held by "name"`).
    pub held_by: Option<String>,
    /// 1-based lines of the entry: the name, the `waiting` and the `held by` lines.
    pub lines: Vec<usize>,
}

/// An object a lock line names: `<0x000000069ec1bc00> (a Locks$Inventory)`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct LockRef {
    /// Object address as printed, lower case (`0x000000069ec1bc00`).
    pub address: String,
    /// Class as printed after `a ` (`java.util.concurrent.locks.ReentrantLock$NonfairSync`;
    /// JDK 8 prints `java.lang.Class for com.foo.Bar` for a class's own monitor).
    pub class: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// How a thread waits, from the verb of its lock line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum WaitVerb {
    /// `- waiting to lock <…>`: entering a `synchronized` block or method (state `BLOCKED`).
    Enter,
    /// `- waiting to re-lock in wait() <…>`: returning from `Object.wait()` into the monitor
    /// (state `BLOCKED`).
    Relock,
    /// `- waiting on <…>`: inside `Object.wait()`, waiting for a `notify`.
    WaitOn,
    /// `- parking to wait for <…>`: `LockSupport.park` on a `java.util.concurrent` lock or
    /// condition.
    Park,
}

/// What a thread waits for: the verb and the object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LockWait {
    /// The verb.
    pub verb: WaitVerb,
    /// The object.
    pub lock: LockRef,
}

/// One code line of a stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The frame without `at `, e.g. `java.lang.Thread.sleep(java.base@17.0.15/Native Method)`.
    pub text: String,
    /// 1-based input line.
    pub line: usize,
}

/// One thread of the dump.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct JavaThread {
    /// Thread name without the quotes.
    pub name: String,
    /// `#N` Java thread id (absent for VM-internal threads, and on some JDK 8 threads).
    pub id: Option<u64>,
    /// `daemon` was printed.
    pub daemon: bool,
    /// `prio=`: Java priority.
    pub prio: Option<i32>,
    /// `os_prio=`: native priority.
    pub os_prio: Option<i32>,
    /// `cpu=`: CPU time consumed, ms (JDK 11+).
    pub cpu_ms: Option<f64>,
    /// `elapsed=`: wall time since the thread started, s (JDK 11+).
    pub elapsed_s: Option<f64>,
    /// `tid=`: address of the JVM's thread structure.
    pub tid: Option<u64>,
    /// `nid=`: native (OS) thread id, read from hex (`0x1f3a`) or decimal (JDK 19+); matches
    /// the TID in `top -H` / `/proc/<pid>/task`.
    pub nid: Option<u64>,
    /// Header text after `nid=`, e.g. `waiting on condition`, `runnable`, `in Object.wait()`.
    pub activity: Option<String>,
    /// `java.lang.Thread.State:` value, e.g. `RUNNABLE`, `TIMED_WAITING`, `BLOCKED`.
    pub state: Option<String>,
    /// The parenthesised part of the state, e.g. `sleeping`, `on object monitor`, `parking`.
    pub state_detail: Option<String>,
    /// Stack frames, innermost first.
    pub frames: Vec<Frame>,
    /// Monitors held (`- locked <0x…> (a …)`) and, with `jstack -l`, ownable synchronizers,
    /// as printed after the verb, e.g. `<0x000000076b9a5278> (a java.lang.Object)`.
    pub locks_held: Vec<String>,
    /// What the thread waits for (`- waiting to lock`, `- waiting on`, `- parking to wait
    /// for`), as printed after the verb; the innermost one when several are printed.
    pub waiting_on: Option<String>,
    /// [`JavaThread::waiting_on`] read: verb, object address and class (`None` when the line
    /// names no object, e.g. `<no object reference available>`).
    pub wait: Option<LockWait>,
    /// Monitors held (`- locked <…>`), read: each object once, innermost first.
    pub held: Vec<LockRef>,
    /// `jstack -l`: the `Locked ownable synchronizers` (`java.util.concurrent` locks), read.
    pub owned_synchronizers: Vec<LockRef>,
    /// JDK 21+: id of the virtual thread this carrier thread runs (`Carrying virtual thread #N`).
    pub carrying_virtual_thread: Option<u64>,
    /// 1-based line of the header.
    pub line: usize,
}

impl ThreadDump {
    /// Thread counts per pool ([`pool_name`]), largest first, ties by name.
    pub fn counts_by_pool(&self) -> Vec<(String, usize)> {
        let mut m: HashMap<&str, usize> = HashMap::new();
        for t in &self.threads {
            *m.entry(pool_name(&t.name)).or_default() += 1;
        }
        let mut v: Vec<(String, usize)> = m.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }

    /// Number of threads in `state` (e.g. `BLOCKED`).
    pub fn count_in_state(&self, state: &str) -> usize {
        self.threads
            .iter()
            .filter(|t| t.state.as_deref() == Some(state))
            .count()
    }
}

/// The pool a thread belongs to: its name without the trailing number
/// (`XNIO-1 task-3` → `XNIO-1 task-`, `pool-2-thread-7` → `pool-2-thread-`, `G1 Conc#0` →
/// `G1 Conc#`); a name without a trailing number is its own pool (`main`).
pub fn pool_name(name: &str) -> &str {
    let stripped = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if stripped.is_empty() {
        name
    } else {
        stripped
    }
}

/// Splits a thread header into the name and the attribute text, or `None` if `line` is not a
/// header. The name ends at the first `"` followed by an attribute (names may contain `"`).
fn split_header(line: &str) -> Option<(Option<u64>, &str, &str)> {
    // JDK 21+ may print the id first: `#47 "ForkJoinPool-1-worker-1" …`.
    let (lead_id, rest) = match line.strip_prefix('#') {
        Some(r) => {
            let (id, r) = r.split_once(' ')?;
            (Some(id.parse::<u64>().ok()?), r)
        }
        None => (None, line),
    };
    let body = rest.strip_prefix('"')?;
    for (i, _) in body.match_indices('"') {
        let (name, after) = body.split_at_checked(i)?;
        let after = after.strip_prefix('"')?;
        let attr = after.trim_start();
        if (after.starts_with(' ') || after.is_empty())
            && (attr.is_empty()
                || [
                    "#", "[", "daemon", "prio=", "os_prio=", "tid=", "nid=", "cpu=", "Carrying",
                ]
                .iter()
                .any(|p| attr.starts_with(p)))
        {
            return Some((lead_id, name, attr));
        }
    }
    None
}

/// Reads `0x1f3a` or `12345`.
fn hex_or_dec(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Reads `12.34ms` (or `1.2s`) as milliseconds.
fn millis(s: &str) -> Option<f64> {
    if let Some(v) = s.strip_suffix("ms") {
        crate::common::parse_num(v)
    } else {
        crate::common::parse_num(s.strip_suffix('s')?).map(|v| v * 1000.0)
    }
}

/// Parses a header line; `Err` names the attribute that could not be read.
fn parse_header(line: &str, n: usize) -> Option<Result<JavaThread, String>> {
    let (lead_id, name, attrs) = split_header(line)?;
    let mut t = JavaThread {
        name: name.to_string(),
        id: lead_id,
        line: n,
        ..JavaThread::default()
    };
    let mut activity: Vec<&str> = Vec::new();
    let mut bad: Option<String> = None;
    for tok in attrs.split_ascii_whitespace() {
        let mut ok = true;
        if let Some(v) = tok.strip_prefix('#') {
            match v.parse() {
                Ok(v) => t.id = Some(v),
                Err(_) => ok = false,
            }
        } else if tok == "daemon" {
            t.daemon = true;
        } else if let Some(v) = tok.strip_prefix("prio=") {
            t.prio = v.parse().ok();
            ok = t.prio.is_some();
        } else if let Some(v) = tok.strip_prefix("os_prio=") {
            t.os_prio = v.parse().ok();
            ok = t.os_prio.is_some();
        } else if let Some(v) = tok.strip_prefix("cpu=") {
            t.cpu_ms = millis(v);
            ok = t.cpu_ms.is_some();
        } else if let Some(v) = tok.strip_prefix("elapsed=") {
            t.elapsed_s = v.strip_suffix('s').and_then(|v| v.parse().ok());
            ok = t.elapsed_s.is_some();
        } else if let Some(v) = tok.strip_prefix("tid=") {
            t.tid = hex_or_dec(v);
            ok = t.tid.is_some();
        } else if let Some(v) = tok.strip_prefix("nid=") {
            t.nid = hex_or_dec(v);
            ok = t.nid.is_some();
        } else if tok.starts_with('[') && tok.ends_with(']') {
            // `[12345]` OS thread id (JDK 19+, same as nid) or the `[0x…]` stack address.
        } else if tok.contains('=') && activity.is_empty() {
            // allocated=, defined_classes= (JDK 25+) and future attributes.
        } else {
            activity.push(tok);
        }
        if !ok && bad.is_none() {
            bad = Some(tok.to_string());
        }
    }
    if !activity.is_empty() {
        t.activity = Some(activity.join(" "));
    }
    Some(match bad {
        Some(b) => Err(format!(
            "unreadable thread header attribute `{}`",
            excerpt(&b)
        )),
        None => Ok(t),
    })
}

/// Thread dump?
///
/// `Yes` on `Full thread dump `, a `java.lang.Thread.State:` line or a quoted thread header
/// carrying `nid=`; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    for (l, complete) in head_lines(head) {
        let t = l.trim_start();
        if t.starts_with("Full thread dump ") || t.starts_with("java.lang.Thread.State:") {
            return Sniff::Yes;
        }
        if complete && l.contains(" nid=") && split_header(l).is_some() {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Where the parser is.
#[derive(PartialEq)]
enum Section {
    Top,
    Smr,
    Thread,
    Deadlock,
}

/// Parses a `jstack` / `jcmd Thread.print` dump.
///
/// Errors: [`ParseError::Unusable`] when neither a `Full thread dump` line nor a thread header
/// is found. Unreadable lines become issues and parsing goes on.
pub fn parse(text: &str) -> Result<Parsed<ThreadDump>, ParseError> {
    let mut out = ThreadDump::default();
    let mut issues = Issues::default();
    let mut section = Section::Top;
    let mut cur: Option<JavaThread> = None;
    let mut ownable = false;
    let mut deadlock_sections = 0usize;
    let mut deadlock_count: Option<usize> = None;
    let mut deadlock_stacks = false;
    let mut first_line = true;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        let was_first = first_line;
        first_line &= t.is_empty();
        if t.is_empty() {
            continue;
        }
        if section == Section::Smr {
            if let Some(rest) = t.strip_prefix("_java_thread_list=") {
                out.smr_length = smr_len(rest);
            }
            if t.ends_with('}') {
                section = Section::Top;
            }
            continue;
        }
        if t.starts_with("Found one Java-level deadlock") {
            out.threads.extend(cur.take());
            section = Section::Deadlock;
            deadlock_sections += 1;
            deadlock_stacks = false;
            out.deadlock_line.get_or_insert(n);
            out.deadlock_reports.push(DeadlockReport {
                line: n,
                edges: Vec::new(),
            });
            continue;
        }
        if section == Section::Deadlock {
            if let Some(rest) = t.strip_prefix("Found ") {
                let num = rest.split_whitespace().next().unwrap_or("");
                if rest.contains("deadlock") {
                    deadlock_count = num.parse().ok();
                    section = Section::Top;
                    continue;
                }
            }
            if t.starts_with("Java stack information") {
                deadlock_stacks = true;
            } else if let Some(name) = (!deadlock_stacks && line.starts_with('"'))
                .then(|| t.strip_prefix('"')?.strip_suffix("\":"))
                .flatten()
            {
                if !out.deadlocked_threads.iter().any(|d| d == name) {
                    out.deadlocked_threads.push(name.to_string());
                }
                if let Some(r) = out.deadlock_reports.last_mut() {
                    r.edges.push(DeadlockEdge {
                        thread: name.to_string(),
                        lines: vec![n],
                        ..DeadlockEdge::default()
                    });
                }
            } else if !deadlock_stacks {
                if let Some(e) = out
                    .deadlock_reports
                    .last_mut()
                    .and_then(|r| r.edges.last_mut())
                {
                    deadlock_line(e, t, n);
                }
            }
            continue;
        }
        if let Some(h) = parse_header(line, n) {
            out.threads.extend(cur.take());
            ownable = false;
            match h {
                Ok(th) => {
                    cur = Some(th);
                    section = Section::Thread;
                }
                Err(msg) => {
                    issues.push(n, || msg);
                    section = Section::Top;
                }
            }
            continue;
        }
        if section == Section::Thread {
            if let Some(th) = cur.as_mut() {
                if thread_line(th, t, n, &mut ownable) {
                    continue;
                }
            }
        }
        // Top-level lines.
        if let Some(pid) = t
            .strip_suffix(':')
            .filter(|p| was_first && p.bytes().all(|b| b.is_ascii_digit()))
        {
            out.pid = pid.parse().ok();
            continue;
        }
        if let Some(j) = t.strip_prefix("Full thread dump ") {
            out.jvm = Some(j.trim_end_matches(':').to_string());
            continue;
        }
        if let Some(v) = t.strip_prefix("JDK version:") {
            out.jdk_version = Some(v.trim().to_string());
            continue;
        }
        if t.starts_with("Threads class SMR info") {
            out.threads.extend(cur.take());
            section = Section::Smr;
            continue;
        }
        if t.starts_with("_to_delete_list=") {
            // JDK 17+: a second list of the SMR block, of threads being deleted.
            if !t.ends_with('}') {
                section = Section::Smr;
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("_java_thread_list=") {
            // SMR block without its title line (cut input).
            out.smr_length = smr_len(rest);
            section = if t.ends_with('}') {
                Section::Top
            } else {
                Section::Smr
            };
            continue;
        }
        if let Some(v) = t
            .strip_prefix("JNI global refs:")
            .or_else(|| t.strip_prefix("JNI global references:"))
        {
            out.threads.extend(cur.take());
            section = Section::Top;
            out.jni_global_refs = v.split(',').next().and_then(|v| v.trim().parse().ok());
            continue;
        }
        if out.timestamp.is_none() && is_timestamp(t) {
            out.timestamp = Some(t.to_string());
            continue;
        }
        issues.push(n, || {
            format!(
                "expected a thread header, stack line or dump section, found `{}`",
                excerpt(line)
            )
        });
    }
    out.threads.extend(cur.take());
    out.deadlocks = deadlock_count.unwrap_or(deadlock_sections);
    if out.jvm.is_none() && out.threads.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `Full thread dump` line or thread header found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// The SMR block's `length=N` is on the `_java_thread_list=` line.
fn smr_len(rest: &str) -> Option<usize> {
    let after = rest.split_once("length=")?.1;
    after
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// `2020-10-19 14:12:11`.
fn is_timestamp(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 19
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b' ',
            13 | 16 => *c == b':',
            _ => c.is_ascii_digit(),
        })
}

/// Adds a held object once (a re-entered monitor is printed at every frame that locked it).
fn hold(th: &mut JavaThread, r: Option<LockRef>) {
    if let Some(r) = r {
        if !th.held.iter().any(|h| h.address == r.address) {
            th.held.push(r);
        }
    }
}

/// Reads `<0x000000069ec1bc00> (a Locks$Inventory)`; `None` without a `<0x…>` address.
fn lock_ref(text: &str, n: usize) -> Option<LockRef> {
    let (address, class) = grammar::lock_object(text)?;
    Some(LockRef {
        address: address.to_ascii_lowercase(),
        class: class.map(str::to_string),
        line: n,
    })
}

/// Applies one line of a deadlock report's entry: `waiting to lock monitor 0x… (object 0x…, a
/// C),`, `waiting for ownable synchronizer 0x…, (a C),`, `which is held by "name"`.
fn deadlock_line(e: &mut DeadlockEdge, t: &str, n: usize) {
    if let Some(rest) = t.strip_prefix("which is held by ") {
        e.lines.push(n);
        let rest = rest.trim().trim_end_matches(',');
        e.held_by = Some(
            rest.strip_prefix('"')
                .and_then(|r| r.strip_suffix('"'))
                .unwrap_or(rest)
                .to_string(),
        );
        return;
    }
    let (kind, rest) = if let Some(r) = t.strip_prefix("waiting to lock monitor ") {
        ("monitor", r)
    } else if let Some(r) = t.strip_prefix("waiting for ownable synchronizer ") {
        ("ownable synchronizer", r)
    } else {
        return;
    };
    e.lines.push(n);
    e.lock_kind = Some(kind.to_string());
    let rest = rest.trim().trim_end_matches(',');
    // Monitor: `0x…(monitor) (object 0x…, a C)`; synchronizer: `0x…, (a C)`.
    let (addr, class) = match rest.split_once("(object ") {
        Some((_, obj)) => {
            let obj = obj.trim_end_matches(')');
            match obj.split_once(", a ") {
                Some((a, c)) => (a.trim(), Some(c.trim())),
                None => (obj.trim(), None),
            }
        }
        None => {
            let (a, c) = rest.split_once(',').unwrap_or((rest, ""));
            let c = c
                .trim()
                .strip_prefix("(a ")
                .map(|c| c.trim_end_matches(')'));
            (a.trim(), c)
        }
    };
    if addr.starts_with("0x") {
        e.waits_for = Some(LockRef {
            address: addr.to_ascii_lowercase(),
            class: class.map(str::to_string),
            line: n,
        });
    }
}

/// Applies one line of a thread block; `false` if it is not a thread line.
fn thread_line(th: &mut JavaThread, t: &str, n: usize, ownable: &mut bool) -> bool {
    if let Some(s) = t.strip_prefix("java.lang.Thread.State:") {
        let s = s.trim();
        match s.split_once(" (") {
            Some((st, d)) => {
                th.state = Some(st.to_string());
                th.state_detail = Some(d.trim_end_matches(')').to_string());
            }
            None => th.state = Some(s.to_string()),
        }
    } else if let Some(f) = t.strip_prefix("at ") {
        th.frames.push(Frame {
            text: f.to_string(),
            line: n,
        });
    } else if t == "Locked ownable synchronizers:" {
        *ownable = true;
    } else if let Some(l) = t.strip_prefix("- ") {
        if *ownable {
            if l != "None" {
                th.locks_held.push(l.to_string());
                th.owned_synchronizers.extend(lock_ref(l, n));
            }
        } else {
            match grammar::lock_line(l) {
                LockLine::Locked(v) => {
                    th.locks_held.push(v.trim().to_string());
                    hold(th, lock_ref(v, n));
                }
                LockLine::Waiting(verb, v) => {
                    if th.waiting_on.is_none() {
                        th.waiting_on = Some(v.trim().to_string());
                        th.wait = lock_ref(v, n).map(|lock| LockWait { verb, lock });
                    }
                }
                // `- eliminated <owner is scalar replaced>` carries nothing more.
                LockLine::Other => {}
            }
        }
    } else if let Some(v) = t.strip_prefix("Carrying virtual thread #") {
        th.carrying_virtual_thread = v.split_whitespace().next().and_then(|v| v.parse().ok());
    } else if t == "No compile task" || t.starts_with("Compiling:") {
        // Compiler threads name their current compile task.
    } else {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::{fixture_lines, Rng};

    /// The `split_once` / `strip_prefix` scanner the lock-line grammar replaced, kept as the
    /// reference the grammar is checked against.
    mod scanner {
        use super::super::{LockRef, WaitVerb};

        pub(super) fn lock_ref(text: &str, n: usize) -> Option<LockRef> {
            let t = text.trim();
            let rest = t.strip_prefix('<')?;
            let (addr, after) = rest.split_once('>')?;
            if !addr
                .strip_prefix("0x")
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
            {
                return None;
            }
            let class = after
                .trim()
                .strip_prefix("(a ")
                .and_then(|c| c.strip_suffix(')'))
                .map(str::to_string);
            Some(LockRef {
                address: addr.to_ascii_lowercase(),
                class,
                line: n,
            })
        }

        /// `(held, waiting verb, text after the verb)` of a lock line without its `- `.
        pub(super) fn lock_line(l: &str) -> Option<(Option<WaitVerb>, &str)> {
            if let Some(v) = l.strip_prefix("locked ") {
                return Some((None, v));
            }
            [
                ("waiting to lock ", WaitVerb::Enter),
                ("waiting on ", WaitVerb::WaitOn),
                ("parking to wait for ", WaitVerb::Park),
                ("waiting to re-lock in wait() ", WaitVerb::Relock),
            ]
            .iter()
            .find_map(|(p, verb)| l.strip_prefix(p).map(|v| (Some(*verb), v)))
        }
    }

    fn lock_line_of(l: &str) -> Option<(Option<WaitVerb>, &str)> {
        match grammar::lock_line(l) {
            LockLine::Locked(v) => Some((None, v)),
            LockLine::Waiting(verb, v) => Some((Some(verb), v)),
            LockLine::Other => None,
        }
    }

    /// Compares grammar and scanner on one line read as a lock line; `true` when the scanner
    /// reads a verb and an object in it.
    fn same(line: &str) -> bool {
        let t = line.trim();
        let l = t.strip_prefix("- ").unwrap_or(t);
        let verb = scanner::lock_line(l);
        assert_eq!(lock_line_of(l), verb, "lock line {line:?}");
        assert_eq!(
            lock_ref(l, 1),
            scanner::lock_ref(l, 1),
            "lock object {line:?}"
        );
        let Some((_, v)) = verb else {
            return false;
        };
        let object = lock_ref(v, 1);
        assert_eq!(object, scanner::lock_ref(v, 1), "lock object {line:?}");
        object.is_some()
    }

    #[test]
    fn same_as_the_scanner_on_every_fixture_line() {
        let mut locks = 0;
        for l in fixture_lines() {
            locks += usize::from(same(&l));
        }
        assert!(
            locks > 200,
            "only {locks} lock lines with an object in the fixtures"
        );
    }

    #[test]
    fn same_as_the_scanner_on_mutated_lines() {
        let seeds: Vec<String> = fixture_lines()
            .into_iter()
            .filter(|l| l.trim_start().starts_with("- "))
            .collect();
        assert!(seeds.len() > 100);
        let alphabet = [
            ' ', '\t', '\u{a0}', '<', '>', '(', ')', '0', 'x', 'X', 'f', 'g', 'a', 'é', '-',
        ];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut locks = 0;
        for _ in 0..50_000 {
            let seed = &seeds[rng.below(seeds.len())];
            locks += usize::from(same(&rng.mutate(seed, &alphabet)));
        }
        assert!(
            locks > 5_000,
            "only {locks} mutated lines read as lock lines"
        );
    }

    #[test]
    fn lock_lines() {
        assert_eq!(
            grammar::lock_line("waiting to lock <0x000000069e85ef58> (a java.lang.Object)"),
            LockLine::Waiting(WaitVerb::Enter, "<0x000000069e85ef58> (a java.lang.Object)")
        );
        assert_eq!(
            grammar::lock_line("waiting to re-lock in wait() <0x1> (a Q)"),
            LockLine::Waiting(WaitVerb::Relock, "<0x1> (a Q)")
        );
        assert_eq!(
            grammar::lock_line("eliminated <owner is scalar replaced>"),
            LockLine::Other
        );
        let r = lock_ref(" <0x00000007ABCD> (a java.lang.Class for com.foo.Bar)", 3).unwrap();
        assert_eq!(r.address, "0x00000007abcd");
        assert_eq!(r.class.as_deref(), Some("java.lang.Class for com.foo.Bar"));
        assert_eq!(lock_ref("<no object reference available>", 1), None);
        assert_eq!(lock_ref("<0x> (a X)", 1), None);
        assert_eq!(lock_ref("<0x12>", 1).and_then(|r| r.class), None);
    }
}
