//! `perf script` text: one record per sample with its call chain, read as a stream, and folded
//! into flame-graph stacks.
//!
//! Default output of perf 4.x–6.x (`perf record -g` then `perf script`): a header line per
//! sample, the call chain below it leaf first, one frame per line (indented by a tab, shown
//! here as 8 spaces), a blank line after each sample. perf 6.1, a system-wide recording:
//! ```text
//! worker thread 1 21564 [001]  9564.499294:   10101010 cpu-clock:ppp:
//!         ffffffff813a2413 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])
//!         ffffffff821f8914 __schedule+0x3d4 ([kernel.kallsyms])
//!         ffffffff821f94c3 schedule+0x23 ([kernel.kallsyms])
//!         ffffffff821f39f0 irqentry_exit_to_user_mode+0x110 ([kernel.kallsyms])
//!         ffffffff81000e46 asm_sysvec_reschedule_ipi+0x16 ([kernel.kallsyms])
//!                     12df (anonymous namespace)::churn+0x3f (/tmp/perfcap2/spin)
//!                     13a7 std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::{lambda()#1}> > >::_M_run+0x77 (/tmp/perfcap2/spin)
//!                    d44a3 [unknown] (/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)
//!
//! ```
//! The header is `COMM TID [CPU] SECONDS.FRACTION: PERIOD EVENT:`. The command name (up to 15
//! bytes, kernel `TASK_COMM_LEN`) may contain spaces and digits; the number is the thread id
//! (`PID/TID` with `-F +pid`); `[CPU]` is printed for system-wide recordings; the period column
//! is printed by perf ≥ 4.x. Without a call chain (`perf record` without `-g`) the command name is
//! right-aligned in 16 columns and the sample's single frame follows the event on the same line,
//! with no blank line between samples (perf 6.1):
//! ```text
//!               nc 21719 [000]  9568.439456:   10101010 cpu-clock:ppp:  ffffffff8201c6d1 tcp_ack+0x361 ([kernel.kallsyms])
//! ```
//! Also read: perf 3.x headers without period or time (`java 19983 cycles:`) and unindented
//! frames, the `# ========` block of `perf script --header`, tracepoint samples (the text after
//! the event name is kept in [`Sample::detail`]), module DSOs (`([nf_conntrack])`), JIT maps
//! (`(/tmp/perf-PID.map)`), `[unknown]` symbols and DSOs.
//!
//! Three ways in:
//! - [`for_each_sample`] streams any [`BufRead`] and calls back once per sample with a borrowed
//!   [`Sample`] whose buffers are reused: memory stays bounded whatever the input size (lines
//!   longer than [`MAX_LINE_BYTES`] are cut, samples keep at most [`MAX_FRAMES`] frames).
//! - [`collapse`] (or a [`Collapser`] fed from [`for_each_sample`]) folds the samples into
//!   `comm;root;…;leaf count` stacks, the format of Brendan Gregg's `stackcollapse-perf.pl` and
//!   inferno's `collapse-perf`, ready for a flame graph; the number of distinct stacks and their
//!   total size are capped.
//! - [`parse`] keeps every sample in memory, for small inputs.
//!
//! ```
//! let text = "dd 29776 [001] 666709.771979:   10101010 cpu-clock:\n\
//! \t          3d6b4c vfs_read+0x1c (/lib/modules/4.1.0-virtual/build/vmlinux)\n\
//! \t           e5f70 read (/lib/x86_64-linux-gnu/libc-2.15.so)\n\n";
//! let folded = parsers::perf::script::collapse(text.as_bytes(), Default::default()).unwrap();
//! assert_eq!(folded.value.stacks["dd;read;vfs_read"], 10101010);
//! ```

use crate::common::{excerpt, head_lines, strip_bom, Issues, LineIssue, ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, BufRead};

mod table;
use table::TableSink;
pub use table::{FrameRef, PerfScript, SampleRef};

/// Input lines longer than this many bytes are cut (with an issue) so that a line without end
/// cannot exhaust memory; perf prints nothing close to it.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// A sample keeps at most this many frames (leaf side); the rest are dropped with an issue. perf
/// records at most `kernel.perf_event_max_stack` frames (127 by default).
pub const MAX_FRAMES: usize = 4096;

/// At most this many distinct event names are tallied in [`Summary::events`].
const MAX_EVENTS: usize = 64;

/// At most this many `# key : value` lines of a `--header` block are kept.
const MAX_HEADER_FIELDS: usize = 256;

/// What kind of object a DSO name (as perf prints it in parentheses) designates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DsoKind {
    /// The kernel image: `[kernel.kallsyms]` (also with a section suffix such as
    /// `[kernel.kallsyms].init.text`), `[kernel]` (perf top), `[guest.kernel.kallsyms]`, or a
    /// `vmlinux` file.
    Kernel,
    /// A loadable kernel module: `[nf_conntrack]` or a `.ko` file; see [`module_name`].
    KernelModule,
    /// Code generated at run time and named through a perf map: `/tmp/perf-PID.map`,
    /// `[JIT] tid PID` (perf report), `jitted-PID-N.so` (jitdump).
    Jit,
    /// A special mapping: `[vdso]`, `[vsyscall]`, `[vectors]`, `[sigpage]`, `[uprobes]`,
    /// `[heap]`, `[stack]`, `[anon…]`.
    Special,
    /// A user-space executable or shared library (`/usr/lib/x86_64-linux-gnu/libc.so.6`,
    /// `libc.so.6`).
    User,
    /// perf could not tell: `[unknown]` or empty.
    Unknown,
}

/// Bracketed DSO names that are neither the kernel nor a module.
const SPECIAL_DSOS: &[&str] = &[
    "vdso", "vdso32", "vdsox32", "vsyscall", "vectors", "sigpage", "uprobes", "heap", "stack",
];

/// Classifies a DSO name as `perf script` prints it in parentheses (without them) or as `perf
/// report` prints it in its `Shared Object` column.
pub fn classify_dso(dso: &str) -> DsoKind {
    let dso = dso.trim();
    if dso.is_empty() || dso == "[unknown]" {
        return DsoKind::Unknown;
    }
    if let Some(inner) = dso.strip_prefix('[') {
        let name = inner.split(']').next().unwrap_or(inner);
        return match name {
            "kernel.kallsyms" | "kernel" | "guest.kernel.kallsyms" => DsoKind::Kernel,
            n if n.starts_with("guest.kernel") => DsoKind::Kernel,
            n if n.starts_with("JIT") => DsoKind::Jit,
            n if n.starts_with("anon") || SPECIAL_DSOS.contains(&n) => DsoKind::Special,
            n if is_module_name(n) => DsoKind::KernelModule,
            _ => DsoKind::Unknown,
        };
    }
    let base = dso.rsplit('/').next().unwrap_or(dso);
    if base.starts_with("vmlinux") {
        DsoKind::Kernel
    } else if ko_stem(base).is_some() {
        DsoKind::KernelModule
    } else if (base.starts_with("perf-") && base.ends_with(".map"))
        || (base.starts_with("jitted-") && base.ends_with(".so"))
    {
        DsoKind::Jit
    } else {
        DsoKind::User
    }
}

/// The kernel module a DSO names: `nf_conntrack` for `[nf_conntrack]` or
/// `/lib/modules/6.1.0/kernel/net/netfilter/nf_conntrack.ko(.xz)`; `None` for anything else.
pub fn module_name(dso: &str) -> Option<&str> {
    if classify_dso(dso) != DsoKind::KernelModule {
        return None;
    }
    let dso = dso.trim();
    match dso.strip_prefix('[') {
        Some(inner) => inner.split(']').next(),
        None => ko_stem(dso.rsplit('/').next().unwrap_or(dso)),
    }
}

/// `nf_conntrack` for `nf_conntrack.ko`, `.ko.xz`, `.ko.gz`, `.ko.zst`.
fn ko_stem(base: &str) -> Option<&str> {
    let stem = [".ko", ".ko.xz", ".ko.gz", ".ko.zst"]
        .iter()
        .find_map(|suffix| base.strip_suffix(suffix))?;
    (!stem.is_empty()).then_some(stem)
}

/// A kernel module name as the kernel allows it.
fn is_module_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One call-chain frame: `ffffffff81ffcf8f ip_output+0x5f ([kernel.kallsyms])`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// Instruction address as printed (hexadecimal, without `0x`); `None` when it is not a
    /// hexadecimal number.
    pub address: Option<u64>,
    /// Symbol without its `+0x…` offset; `[unknown]` when perf could not resolve it, empty when
    /// perf printed none.
    pub symbol: String,
    /// Offset into the symbol, bytes (`+0x5f`).
    pub offset: Option<u64>,
    /// DSO without the parentheses: `[kernel.kallsyms]`, `[nf_conntrack]`,
    /// `/usr/lib/x86_64-linux-gnu/libc.so.6`, `[unknown]`.
    pub dso: String,
    /// 1-based input line.
    pub line: usize,
}

impl Frame {
    /// What the frame's DSO is (see [`classify_dso`]).
    pub fn dso_kind(&self) -> DsoKind {
        classify_dso(&self.dso)
    }

    /// The kernel module the frame runs in, if any (see [`module_name`]).
    pub fn module(&self) -> Option<&str> {
        module_name(&self.dso)
    }
}

/// One sample: the header line and its call chain.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Sample {
    /// Command name (thread name), as printed, spaces included; empty if not printed.
    pub comm: String,
    /// Process id: the first number of `PID/TID` (`-F +pid`); `None` when only one number is
    /// printed (perf's default prints the thread id alone) or it is `-1`.
    pub pid: Option<u32>,
    /// Thread id: the number after the command name (or after the `/`); `None` when `-1`.
    pub tid: Option<u32>,
    /// CPU from `[001]` (system-wide recordings).
    pub cpu: Option<u32>,
    /// Time stamp in nanoseconds (perf's clock, seconds since boot by default), from
    /// `9317.336128:` (microseconds) or `9317.336128512:` (nanoseconds, `--ns`).
    pub time_ns: Option<u64>,
    /// Sample period in the event's unit (ns of CPU time for `cpu-clock`, cycles for `cycles`);
    /// `None` when not printed (perf 3.x).
    pub period: Option<u64>,
    /// Event name with its modifiers, without the final colon: `cpu-clock:ppp`, `cycles:u`,
    /// `sched:sched_switch`; empty when not printed.
    pub event: String,
    /// Text after the event name that is not a frame, e.g. a tracepoint's fields; usually empty.
    pub detail: String,
    /// Call chain, leaf (the sampled instruction) first, as printed.
    pub frames: Vec<Frame>,
    /// 1-based input line of the header.
    pub line: usize,
}

/// One event name and how many samples carried it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventTally {
    /// Event name as in [`Sample::event`].
    pub name: String,
    /// Number of samples.
    pub samples: u64,
    /// Sum of the printed periods (0 when perf printed none).
    pub period: u64,
    /// 1-based input line of its first sample.
    pub first_line: usize,
}

/// One `# key : value` line of a `perf script --header` block (`# captured on: Thu Aug 17
/// 14:14:43 2017`, `# perf version : 4.13.0-rc1`, `# arch : x86_64`, `# nrcpus online : 8`,
/// `# cmdline : /usr/bin/perf record …`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeaderField {
    /// Key as printed (`perf version`).
    pub key: String,
    /// Value as printed.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

/// What a whole stream held.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Number of samples.
    pub samples: u64,
    /// Number of frames over all samples (after the [`MAX_FRAMES`] cap).
    pub frames: u64,
    /// Number of input lines.
    pub lines: usize,
    /// Samples per event name, in order of first appearance (at most 64 names).
    pub events: Vec<EventTally>,
    /// The `perf script --header` fields, when that block is present.
    pub header: Vec<HeaderField>,
}

/// Is this `perf script` output?
///
/// `Yes` when the first line that is neither blank nor a `#` comment is a sample header followed
/// by a frame (on the same line or the next); `Unsure` when a header with a time stamp is
/// followed by a blank line or another header (samples without call chains or addresses), or
/// when the head holds only a `perf … --header` comment block; `No` otherwise, and for the
/// comment lines `perf report` prints (`# Samples:`, `# Overhead`, `# Children`).
pub fn sniff(head: &str) -> Sniff {
    let lines: Vec<(&str, bool)> = head_lines(head).collect();
    let mut header_block = false;
    let mut first = None;
    for (i, (l, _)) in lines.iter().enumerate() {
        if let Some(c) = l.strip_prefix('#') {
            let c = c.trim_start();
            if ["Samples:", "Overhead", "Children", "Event count"]
                .iter()
                .any(|p| c.starts_with(p))
            {
                return Sniff::No;
            }
            header_block |= c.starts_with("captured on");
        } else if !l.trim().is_empty() {
            first = Some(i);
            break;
        }
    }
    let Some(i) = first else {
        return if header_block {
            Sniff::Unsure
        } else {
            Sniff::No
        };
    };
    let (line, complete) = lines[i];
    let Some(h) = parse_header(line) else {
        return Sniff::No;
    };
    if h.inline_frame.is_some() {
        return Sniff::Yes;
    }
    let timed = h.time_ns.is_some();
    if !complete {
        return if timed { Sniff::Unsure } else { Sniff::No };
    }
    match lines.get(i + 1) {
        Some((l, _)) if parse_frame(l).is_some() => Sniff::Yes,
        Some((l, true)) if !l.trim().is_empty() && parse_header(l).is_none() => Sniff::No,
        _ if timed => Sniff::Unsure,
        _ => Sniff::No,
    }
}

/// The fields of a sample header line, borrowed from the line.
#[derive(Debug)]
struct Header<'a> {
    comm: &'a str,
    pid: Option<u32>,
    tid: Option<u32>,
    cpu: Option<u32>,
    time_ns: Option<u64>,
    period: Option<u64>,
    event: &'a str,
    detail: &'a str,
    inline_frame: Option<FrameParts<'a>>,
}

/// The fields of a frame line, borrowed from the line.
#[derive(Debug)]
struct FrameParts<'a> {
    address: Option<u64>,
    symbol: &'a str,
    offset: Option<u64>,
    dso: &'a str,
}

/// Whitespace-separated tokens of `line` with their byte offsets.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_ascii_whitespace()
        .map(move |t| (t.as_ptr() as usize - base, t))
}

/// `123`, `123/456`, `-1` or `-1/-1`: the thread field of a header. Returns (pid, tid).
fn thread_field(t: &str) -> Option<(Option<u32>, Option<u32>)> {
    fn id(s: &str) -> Option<Option<u32>> {
        if s == "-1" {
            return Some(None);
        }
        if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok().map(Some)
    }
    match t.split_once('/') {
        Some((p, t)) => Some((id(p)?, id(t)?)),
        None => Some((None, id(t)?)),
    }
}

/// `[001]`: the CPU field.
fn cpu_field(t: &str) -> Option<u32> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    if inner.is_empty() || inner.len() > 6 || !inner.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    inner.parse().ok()
}

/// `9317.336128:` → nanoseconds.
fn time_field(t: &str) -> Option<u64> {
    let t = t.strip_suffix(':')?;
    let (secs, frac) = t.split_once('.')?;
    if secs.is_empty()
        || secs.len() > 12
        || frac.is_empty()
        || frac.len() > 9
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let frac_ns: u64 = frac.parse::<u64>().ok()? * 10u64.pow(9 - frac.len() as u32);
    secs.checked_mul(1_000_000_000)?.checked_add(frac_ns)
}

/// An all-digit token (a period).
fn number(t: &str) -> Option<u64> {
    if t.is_empty() || t.len() > 20 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// An event token: `cpu-clock:ppp:` → `cpu-clock:ppp`. Event names (`cycles:u`,
/// `sched:sched_switch`, `cpu/event=0x3c/`, `{cycles,instructions}`, `r003c`) start with a letter,
/// a digit, `_` or `{` and hold no parentheses or quotes.
fn event_field(t: &str) -> Option<&str> {
    let name = t.strip_suffix(':')?;
    let first = name.bytes().next()?;
    let ok = (first.is_ascii_alphanumeric() || first == b'_' || first == b'{')
        && !name.ends_with(':')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-:./,=@{}+*#[]!~".contains(&b));
    ok.then_some(name)
}

/// Parses a sample header line; `None` when `line` is not one.
///
/// With a time stamp, the fields are anchored on it: `[CPU]` and the thread field precede it,
/// everything before them is the command name (which may hold spaces and digits). Without one
/// (perf 3.x), the rightmost thread field followed by an optional `[CPU]`, an optional period
/// and an `EVENT:` token anchors the line.
fn parse_header(line: &str) -> Option<Header<'_>> {
    if line.starts_with('\t') {
        return None;
    }
    // Header lines have a handful of tokens; the first 32 are enough to find the fields.
    let mut buf = [(0usize, ""); 32];
    let mut count = 0;
    for t in tokens(line).take(buf.len()) {
        buf[count] = t;
        count += 1;
    }
    let toks = &buf[..count];
    let (thread_at, cpu, time_ns, after) =
        if let Some(t) = toks.iter().position(|(_, s)| time_field(s).is_some()) {
            let time_ns = time_field(toks[t].1);
            let (cpu, j) = match t.checked_sub(1).map(|j| (j, cpu_field(toks[j].1))) {
                Some((j, Some(c))) => (Some(c), j.checked_sub(1)?),
                Some((j, None)) => (None, j),
                None => return None,
            };
            thread_field(toks[j].1)?;
            (j, cpu, time_ns, t + 1)
        } else {
            // Rightmost `THREAD [CPU]? PERIOD? EVENT:` with a command name before it.
            let mut found = None;
            for j in (1..toks.len()).rev() {
                if thread_field(toks[j].1).is_none() {
                    continue;
                }
                let mut k = j + 1;
                let cpu = toks.get(k).and_then(|(_, s)| cpu_field(s));
                if cpu.is_some() {
                    k += 1;
                }
                if toks.get(k).is_some_and(|(_, s)| event_field(s).is_some()) {
                    found = Some((j, cpu, None, k));
                    break;
                }
            }
            found?
        };
    let (pid, tid) = thread_field(toks[thread_at].1)?;
    let comm = line.get(..toks[thread_at].0).unwrap_or("").trim();
    let mut k = after;
    let mut period = None;
    let mut event = "";
    if let Some((_, s)) = toks.get(k) {
        if let (Some(p), Some(e)) = (number(s), toks.get(k + 1).and_then(|t| event_field(t.1))) {
            period = Some(p);
            event = e;
            k += 2;
        } else if let Some(e) = event_field(s) {
            event = e;
            k += 1;
        }
    }
    let rest = match toks.get(k) {
        Some((at, _)) => line.get(*at..).unwrap_or("").trim_end(),
        None => "",
    };
    let inline_frame = if rest.is_empty() {
        None
    } else {
        parse_frame(rest)
    };
    let detail = if inline_frame.is_some() { "" } else { rest };
    Some(Header {
        comm,
        pid,
        tid,
        cpu,
        time_ns,
        period,
        event,
        detail,
        inline_frame,
    })
}

/// Parses a frame line `ADDRESS SYMBOL[+0xOFFSET] (DSO)`; `None` when `line` is not one.
///
/// The DSO is the last balanced parenthesised group, so symbols with spaces and parentheses
/// (`long Busy.work(java.util.HashMap, int)`, `(anonymous namespace)::churn`) stay whole.
fn parse_frame(line: &str) -> Option<FrameParts<'_>> {
    let s = line.trim_ascii();
    let body = s.strip_suffix(')')?;
    let mut depth = 0usize;
    let mut open = None;
    for (i, b) in body.bytes().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                open = Some(i);
                break;
            }
            b'(' => depth -= 1,
            _ => {}
        }
    }
    let open = open?;
    let (before, dso) = body.split_at_checked(open)?;
    let dso = dso.strip_prefix('(')?;
    // The DSO is separated from the symbol by a space.
    if !matches!(before.as_bytes().last(), Some(b' ' | b'\t')) {
        return None;
    }
    let before = before.trim_ascii();
    let (addr, symbol) = match before.split_once([' ', '\t']) {
        Some((addr, symbol)) => (addr, symbol.trim_ascii()),
        None => (before, ""),
    };
    // perf prints addresses with `%lx`: lowercase. `Feb 11 18:58:28 host kernel: … (…)`, a
    // syslog line, is not a frame.
    if addr.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let address = Some(hex_u64(addr.strip_prefix("0x").unwrap_or(addr))?);
    let (symbol, offset) = split_offset(symbol);
    Some(FrameParts {
        address,
        symbol,
        offset,
        dso,
    })
}

/// A hexadecimal number of 1 to 16 digits, without prefix.
fn hex_u64(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    let mut v: u64 = 0;
    for b in s.bytes() {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | u64::from(d);
    }
    Some(v)
}

/// `ip_output+0x5f` → (`ip_output`, 0x5f); a `+0x` not followed by hex digits only is kept.
fn split_offset(symbol: &str) -> (&str, Option<u64>) {
    if let Some((name, off)) = symbol.rsplit_once('+') {
        if let Some(off) = off.strip_prefix("0x").and_then(hex_u64) {
            return (name, Some(off));
        }
    }
    (symbol, None)
}

/// Copies borrowed frame fields into a reused [`Frame`].
fn fill_frame(frame: &mut Frame, parts: &FrameParts<'_>, line: usize) {
    frame.address = parts.address;
    frame.symbol.clear();
    frame.symbol.push_str(parts.symbol);
    frame.offset = parts.offset;
    frame.dso.clear();
    frame.dso.push_str(parts.dso);
    frame.line = line;
}

/// Calls `f(line, cut)` for each line of `reader`, without its line end (`\n`, or `\r\n`), in
/// order; a line longer than `cap` bytes is handed over cut to `cap` bytes with `cut` set.
/// Returns the bytes read and whether the last line ended with a newline.
///
/// Lines are found with `memchr` in the reader's own buffer and handed over from it without a
/// copy; only a line that straddles two buffer fills is gathered in a scratch buffer.
fn for_each_line<R: BufRead>(
    reader: &mut R,
    cap: usize,
    mut f: impl FnMut(&[u8], bool),
) -> io::Result<(u64, bool)> {
    let mut pending: Vec<u8> = Vec::new();
    let mut pending_len = 0usize;
    let mut bytes = 0u64;
    let mut last_complete = true;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if pending_len > 0 {
                f(&pending, pending_len > cap);
                last_complete = false;
            }
            return Ok((bytes, last_complete));
        }
        let (used, line_end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, Some(i)),
            None => (buf.len(), None),
        };
        match line_end {
            Some(i) if pending_len == 0 => {
                let line = &buf[..i];
                if line.len() > cap {
                    f(&line[..cap], true);
                } else {
                    f(line.strip_suffix(b"\r").unwrap_or(line), false);
                }
                last_complete = true;
            }
            _ => {
                let part = &buf[..line_end.unwrap_or(used)];
                let room = (cap + 1).saturating_sub(pending.len());
                pending.extend_from_slice(&part[..part.len().min(room)]);
                pending_len = pending_len.saturating_add(part.len());
                if line_end.is_some() {
                    if pending_len > cap {
                        pending.truncate(cap);
                        f(&pending, true);
                    } else {
                        let line = pending.strip_suffix(b"\r").unwrap_or(&pending);
                        f(line, false);
                    }
                    pending.clear();
                    pending_len = 0;
                    last_complete = true;
                } else {
                    last_complete = false;
                }
            }
        }
        reader.consume(used);
        bytes += used as u64;
    }
}

/// Where the samples a [`Stream`] reads go: a reused [`Sample`] handed to a callback
/// ([`for_each_sample`]), or the interned tables of a [`PerfScript`] ([`parse`]).
trait Sink {
    /// A sample header starts a new sample.
    fn start(&mut self, h: &Header<'_>, line: usize);
    /// One frame of the current sample.
    fn frame(&mut self, parts: &FrameParts<'_>, line: usize);
    /// A frame line (trimmed) that was read before: `true` when the sink took it as the current
    /// sample's next frame without it being parsed again.
    fn known_frame(&mut self, _trimmed: &str, _line: usize) -> bool {
        false
    }
    /// The current sample is complete and counted.
    fn emit(&mut self);
    /// The current sample is not one (a tentative header without frames).
    fn discard(&mut self);
}

/// The [`Sink`] of [`for_each_sample`]: one reused sample, its frames recycled.
struct Each<F> {
    sample: Sample,
    spare: Vec<Frame>,
    f: F,
}

impl<F: FnMut(&Sample)> Sink for Each<F> {
    fn start(&mut self, h: &Header<'_>, line: usize) {
        let s = &mut self.sample;
        s.comm.clear();
        s.comm.push_str(h.comm);
        s.pid = h.pid;
        s.tid = h.tid;
        s.cpu = h.cpu;
        s.time_ns = h.time_ns;
        s.period = h.period;
        s.event.clear();
        s.event.push_str(h.event);
        s.detail.clear();
        s.detail.push_str(h.detail);
        s.line = line;
    }

    fn frame(&mut self, parts: &FrameParts<'_>, line: usize) {
        let mut frame = self.spare.pop().unwrap_or_default();
        fill_frame(&mut frame, parts, line);
        self.sample.frames.push(frame);
    }

    fn emit(&mut self) {
        (self.f)(&self.sample);
        self.spare.append(&mut self.sample.frames);
    }

    fn discard(&mut self) {
        self.spare.append(&mut self.sample.frames);
    }
}

/// Stream state: the current sample's header values the tallies need, tallies and issues.
struct Stream<S> {
    sink: S,
    in_sample: bool,
    /// The current sample's event, period, header line and frame count.
    event: String,
    period: Option<u64>,
    line: usize,
    frames: usize,
    summary: Summary,
    issues: Issues,
    frames_capped: u64,
    events_capped: u64,
    in_header_block: bool,
    saw_content: bool,
    blank_lines: usize,
    /// The current sample's header has neither a time stamp nor a frame yet (perf 3.x layout,
    /// or a line of another format that happens to look like one): it only counts once a frame
    /// follows.
    tentative: bool,
}

impl<S: Sink> Stream<S> {
    fn new(sink: S) -> Self {
        Stream {
            sink,
            in_sample: false,
            event: String::new(),
            period: None,
            line: 0,
            frames: 0,
            summary: Summary::default(),
            issues: Issues::default(),
            frames_capped: 0,
            events_capped: 0,
            in_header_block: false,
            saw_content: false,
            blank_lines: 0,
            tentative: false,
        }
    }

    /// Hands the current sample to the sink and tallies it.
    fn emit(&mut self) {
        if !self.in_sample {
            return;
        }
        self.in_sample = false;
        if self.tentative {
            let line = self.line;
            self.issues.push(line, || {
                "a line shaped like an old (perf 3.x) sample header `COMM TID EVENT:` but without time stamp or call-chain frame: not read as a sample".to_string()
            });
            self.sink.discard();
            return;
        }
        self.summary.samples += 1;
        self.summary.frames += self.frames as u64;
        let known = self.summary.events.len();
        match self
            .summary
            .events
            .iter_mut()
            .find(|e| e.name == self.event)
        {
            Some(e) => {
                e.samples += 1;
                e.period = e.period.saturating_add(self.period.unwrap_or(0));
            }
            None if known < MAX_EVENTS => self.summary.events.push(EventTally {
                name: self.event.clone(),
                samples: 1,
                period: self.period.unwrap_or(0),
                first_line: self.line,
            }),
            None => {
                if self.events_capped == 0 {
                    let (line, name) = (self.line, excerpt(&self.event));
                    self.issues.push(line, || {
                        format!("more than {MAX_EVENTS} event names; `{name}` and later new names are not tallied")
                    });
                }
                self.events_capped += 1;
            }
        }
        self.sink.emit();
    }

    /// `false` (with an issue the first time) when the current sample has [`MAX_FRAMES`].
    fn frame_room(&mut self, line: usize) -> bool {
        if self.frames >= MAX_FRAMES {
            if self.frames_capped == 0 {
                self.issues.push(line, || {
                    format!("the call chain has more than {MAX_FRAMES} frames; the rest of it is dropped")
                });
            }
            self.frames_capped += 1;
            return false;
        }
        true
    }

    fn push_frame(&mut self, parts: &FrameParts<'_>, line: usize) {
        if self.frame_room(line) {
            self.tentative = false;
            self.frames += 1;
            self.sink.frame(parts, line);
        }
    }

    fn start(&mut self, h: &Header<'_>, line: usize) {
        self.event.clear();
        self.event.push_str(h.event);
        self.period = h.period;
        self.line = line;
        self.frames = 0;
        self.in_sample = true;
        self.tentative = h.time_ns.is_none();
        self.sink.start(h, line);
        if let Some(parts) = &h.inline_frame {
            self.push_frame(parts, line);
        }
    }

    /// A `#` line outside a sample: the `--header` block's `# key : value` fields.
    fn comment(&mut self, line: &str, n: usize) {
        if line.starts_with("# ========") {
            self.in_header_block = !self.in_header_block;
            return;
        }
        if !self.in_header_block || self.summary.header.len() >= MAX_HEADER_FIELDS {
            return;
        }
        if let Some((k, v)) = line.get(1..).and_then(|l| l.split_once(':')) {
            let (k, v) = (k.trim(), v.trim());
            if !k.is_empty() {
                self.summary.header.push(HeaderField {
                    key: k.to_string(),
                    value: v.chars().take(4096).collect(),
                    line: n,
                });
            }
        }
    }

    fn line(&mut self, line: &str, n: usize) {
        if line.bytes().all(|b| b.is_ascii_whitespace()) {
            self.blank_lines += 1;
            self.emit();
            return;
        }
        if line.starts_with('#') {
            if !self.in_sample {
                self.comment(line, n);
            }
            return;
        }
        self.saw_content = true;
        if line.starts_with('\t') {
            if self.in_sample
                && self.frames < MAX_FRAMES
                && self.sink.known_frame(line.trim_ascii(), n)
            {
                self.tentative = false;
                self.frames += 1;
                return;
            }
            if let Some(parts) = parse_frame(line) {
                if self.in_sample {
                    self.push_frame(&parts, n);
                } else {
                    self.issues.push(n, || {
                        "a call-chain frame outside any sample (no sample header line above it)"
                            .to_string()
                    });
                }
                return;
            }
        } else if let Some(h) = parse_header(line) {
            self.emit();
            self.start(&h, n);
            return;
        } else if let Some(parts) = parse_frame(line) {
            if self.in_sample {
                self.push_frame(&parts, n);
                return;
            }
        }
        self.issues.push(n, || {
            format!(
                "expected a sample header `COMM TID [CPU] TIME: PERIOD EVENT:` or a call-chain frame `ADDRESS SYMBOL (DSO)`, found `{}`",
                excerpt(line)
            )
        });
    }
}

/// Reads every line of `reader` into `st`; the summary and issues, or why nothing was read.
fn run<R: BufRead, S: Sink>(
    mut reader: R,
    st: &mut Stream<S>,
) -> Result<Vec<LineIssue>, ParseError> {
    let mut owned = String::new();
    let mut n = 0usize;
    let (bytes, last_complete) = for_each_line(&mut reader, MAX_LINE_BYTES, |buf, cut| {
        n += 1;
        let mut text = match std::str::from_utf8(buf) {
            Ok(s) => s,
            Err(_) => {
                owned.clear();
                owned.push_str(&String::from_utf8_lossy(buf));
                &owned
            }
        };
        if n == 1 {
            text = strip_bom(text);
        }
        if cut {
            st.issues.push(n, || {
                format!("line longer than {MAX_LINE_BYTES} bytes; the rest of it is ignored")
            });
        }
        st.line(text, n);
    })
    .map_err(|e| {
        ParseError::unusable(
            Some(n + 1),
            format!("reading the input failed after line {n}: {e}"),
        )
    })?;
    st.emit();
    st.summary.lines = n;
    if !last_complete && n > 0 {
        st.issues.push(n, || {
            "the last line has no line end: the output was probably cut (the last sample may be incomplete)".to_string()
        });
    }
    if st.summary.samples == 0 && st.summary.header.is_empty() {
        let reason = if bytes == 0 || n == st.blank_lines {
            "input is empty".to_string()
        } else if !st.saw_content {
            "only comment lines, no `perf script` sample".to_string()
        } else {
            "no `perf script` sample header (`COMM TID [CPU] TIME: PERIOD EVENT:`) found"
                .to_string()
        };
        return Err(ParseError::unusable(None, reason));
    }
    Ok(std::mem::take(&mut st.issues).into_vec())
}

/// Reads `perf script` output from `reader` and calls `f` once per sample, in input order.
///
/// The [`Sample`] passed to `f` is reused for the next one (clone it to keep it). Memory stays
/// bounded: one line of at most [`MAX_LINE_BYTES`] and one sample of at most [`MAX_FRAMES`]
/// frames are held at a time. Bad lines become issues (at most 1000 listed) and reading goes
/// on; a last line without a newline is reported (the output was probably cut).
///
/// Errors: [`ParseError::Unusable`] when reading fails, when the input is empty, or when no
/// sample header is found (a `--header` block with no samples is a valid empty result).
pub fn for_each_sample<R: BufRead>(
    reader: R,
    f: impl FnMut(&Sample),
) -> Result<Parsed<Summary>, ParseError> {
    let mut st = Stream::new(Each {
        sample: Sample::default(),
        spare: Vec::new(),
        f,
    });
    let issues = run(reader, &mut st)?;
    Ok(Parsed {
        value: st.summary,
        issues,
    })
}

/// Parses a whole `perf script` output held in memory, keeping every sample in a compact
/// [`PerfScript`] (use [`for_each_sample`] or [`collapse`] for inputs too large to hold).
///
/// Errors: as [`for_each_sample`]; also [`ParseError::Unusable`] for a text of 4 GiB or more
/// (its line numbers and table indices are kept in 32 bits).
pub fn parse(text: &str) -> Result<Parsed<PerfScript>, ParseError> {
    if u32::try_from(text.len()).is_err() {
        return Err(ParseError::unusable(
            None,
            "a `perf script` text of 4 GiB or more is read as a stream, not held in memory",
        ));
    }
    let mut st = Stream::new(TableSink::default());
    let issues = run(text.as_bytes(), &mut st)?;
    Ok(Parsed {
        value: st.sink.finish(st.summary),
        issues,
    })
}

/// How samples are weighed in folded stacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Weight {
    /// The sample's period when printed, else 1 (what `stackcollapse-perf.pl` and inferno do):
    /// nanoseconds of CPU time for `cpu-clock`, cycles for `cycles`.
    #[default]
    Period,
    /// 1 per sample.
    Samples,
}

/// Options of the folding, named after inferno's `collapse::perf::Options` (same defaults).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollapseOptions {
    /// Append `_[k]` to kernel and kernel-module frames (inferno `annotate_kernel`,
    /// stackcollapse-perf `--kernel`).
    pub annotate_kernel: bool,
    /// Append `_[j]` to JIT frames (`/tmp/perf-PID.map`, `jitted-*.so`; `--jit`).
    pub annotate_jit: bool,
    /// Name unresolved frames with their address: `[libc.so.6 <7f1e2215d058>]`,
    /// `[unknown <0>]` (`--addrs`).
    pub include_addrs: bool,
    /// Root frame `comm-PID` instead of `comm` (`?` when the PID is not printed; `--pid`).
    pub include_pid: bool,
    /// Root frame `comm-PID/TID` (`--tid`; implies `include_pid`).
    pub include_tid: bool,
    /// Fold only samples of this event (as in [`Sample::event`], e.g. `cpu-clock:ppp`);
    /// `None`: the event of the first sample, as inferno does (mixing events would be
    /// misleading).
    pub event: Option<String>,
    /// How samples are weighed.
    pub weight: Weight,
    /// At most this many distinct stacks are kept; samples of new stacks beyond it are counted
    /// in [`Folded::dropped_samples`].
    pub max_stacks: usize,
    /// At most this many bytes of stack text are kept (same effect as `max_stacks`).
    pub max_bytes: usize,
    /// A stack keeps at most this many frames, the leaf side; the dropped root side is replaced
    /// by one `[truncated]` frame.
    pub max_frames: usize,
}

impl Default for CollapseOptions {
    fn default() -> Self {
        CollapseOptions {
            annotate_kernel: false,
            annotate_jit: false,
            include_addrs: false,
            include_pid: false,
            include_tid: false,
            event: None,
            weight: Weight::Period,
            max_stacks: 200_000,
            max_bytes: 64 << 20,
            max_frames: 1024,
        }
    }
}

/// Folded stacks: `comm;root;…;leaf` → weight, as `stackcollapse-perf.pl` writes them one per
/// line (`stack count`; see [`Folded::write_folded`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Folded {
    /// Stack text → summed weight (period or sample count, see [`Weight`]).
    pub stacks: HashMap<String, u64>,
    /// The event that was folded (`None` when no sample was seen).
    pub event: Option<String>,
    /// Samples folded into `stacks`.
    pub samples: u64,
    /// Samples of other events, skipped.
    pub other_event_samples: u64,
    /// Samples without any frame, skipped (as inferno does).
    pub empty_samples: u64,
    /// Samples of new stacks not kept because a cap was reached.
    pub dropped_samples: u64,
    /// Their summed weight.
    pub dropped_weight: u64,
    /// Samples whose stack was cut to `max_frames`.
    pub truncated_samples: u64,
}

impl Folded {
    /// The stacks sorted by stack text, as `stackcollapse-perf.pl` and inferno print them.
    pub fn sorted(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.stacks.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        v.sort_unstable();
        v
    }

    /// Writes `stack count` lines, sorted, to `w`: the input inferno's `flamegraph` reads.
    pub fn write_folded<W: io::Write>(&self, mut w: W) -> io::Result<()> {
        for (stack, count) in self.sorted() {
            writeln!(w, "{stack} {count}")?;
        }
        Ok(())
    }
}

/// Folds samples one at a time (feed it from [`for_each_sample`]); [`collapse`] does both.
///
/// Frame names follow inferno's `collapse-perf`: offsets removed; `[unknown]` symbols named
/// after their DSO's file name (`[libc.so.6]`); `;` replaced by `:`; argument lists removed
/// (`HashMap.merge(java.lang.Object, …)` → `HashMap.merge`, keeping Go's `.(*T)` and C++
/// `(anonymous namespace)`); Java `Lpkg/Class;::m` → `pkg/Class:::m` for commands starting with
/// `java`; Java inlined frames (`a->b`) split with `_[i]` on the inlined ones; spaces in the
/// command name replaced by `_`. One deviation: frames whose symbol starts with `(` (C++
/// `(anonymous namespace)::f`) are kept, where stackcollapse-perf.pl and inferno drop them.
#[derive(Debug)]
pub struct Collapser {
    opts: CollapseOptions,
    folded: Folded,
    bytes: usize,
    key: String,
    issues: Issues,
}

impl Collapser {
    /// A collapser with these options.
    pub fn new(mut opts: CollapseOptions) -> Self {
        opts.include_pid |= opts.include_tid;
        opts.max_frames = opts.max_frames.max(1);
        Collapser {
            folded: Folded {
                event: opts.event.clone(),
                ..Folded::default()
            },
            opts,
            bytes: 0,
            key: String::new(),
            issues: Issues::default(),
        }
    }

    /// Folds one sample.
    pub fn add(&mut self, s: &Sample) {
        match &self.folded.event {
            Some(e) if *e != s.event => {
                self.folded.other_event_samples += 1;
                return;
            }
            Some(_) => {}
            None => self.folded.event = Some(s.event.clone()),
        }
        if s.frames.is_empty() {
            self.folded.empty_samples += 1;
            return;
        }
        let weight = match self.opts.weight {
            Weight::Period => s.period.unwrap_or(1),
            Weight::Samples => 1,
        };
        let key = &mut self.key;
        key.clear();
        push_comm(key, s, &self.opts);
        let keep = s.frames.len().min(self.opts.max_frames);
        if keep < s.frames.len() {
            key.push_str(";[truncated]");
            if self.folded.truncated_samples == 0 {
                let (line, max) = (s.line, self.opts.max_frames);
                self.issues.push(line, || {
                    format!("the call chain is deeper than {max} frames; its root side is folded into `[truncated]`")
                });
            }
            self.folded.truncated_samples += 1;
        }
        let java = s.comm.starts_with("java");
        for frame in s.frames[..keep].iter().rev() {
            push_frame_names(key, frame, java, &self.opts);
        }
        if let Some(w) = self.folded.stacks.get_mut(key.as_str()) {
            *w = w.saturating_add(weight);
            self.folded.samples += 1;
            return;
        }
        if self.folded.stacks.len() >= self.opts.max_stacks
            || self.bytes + key.len() > self.opts.max_bytes
        {
            if self.folded.dropped_samples == 0 {
                let (line, n, b) = (s.line, self.opts.max_stacks, self.opts.max_bytes);
                self.issues.push(line, || {
                    format!("more distinct stacks than the cap ({n} stacks, {b} bytes); samples of new stacks from here on are counted as dropped")
                });
            }
            self.folded.dropped_samples += 1;
            self.folded.dropped_weight = self.folded.dropped_weight.saturating_add(weight);
            return;
        }
        self.bytes += key.len();
        self.folded.stacks.insert(key.clone(), weight);
        self.folded.samples += 1;
    }

    /// The folded stacks and the issues met while folding.
    pub fn finish(self) -> Parsed<Folded> {
        Parsed {
            value: self.folded,
            issues: self.issues.into_vec(),
        }
    }
}

/// The root frame: the command name with spaces as `_`, and `-PID` or `-PID/TID`.
fn push_comm(key: &mut String, s: &Sample, opts: &CollapseOptions) {
    for c in s.comm.chars() {
        key.push(match c {
            ' ' => '_',
            ';' => ':',
            c => c,
        });
    }
    if opts.include_pid {
        key.push('-');
        push_id(key, s.pid);
        if opts.include_tid {
            key.push('/');
            push_id(key, s.tid);
        }
    }
}

fn push_id(key: &mut String, id: Option<u32>) {
    use std::fmt::Write;
    match id {
        Some(id) => {
            let _ = write!(key, "{id}");
        }
        None => key.push('?'),
    }
}

/// Appends `;name` for the frame (several names for Java inlined frames `a->b`).
fn push_frame_names(key: &mut String, frame: &Frame, java: bool, opts: &CollapseOptions) {
    let kind = if opts.annotate_kernel || opts.annotate_jit {
        frame.dso_kind()
    } else {
        DsoKind::User
    };
    for (i, part) in java_inlined(&frame.symbol).enumerate() {
        key.push(';');
        let start = key.len();
        if part == "[unknown]" {
            push_unknown(key, frame, opts.include_addrs);
        } else {
            push_tidy(key, part);
        }
        let pushed_has = |key: &str, s: &str| key.get(start..).is_some_and(|p| p.contains(s));
        if java && key.get(start..).is_some_and(|p| p.starts_with('L')) && pushed_has(key, "/") {
            key.remove(start);
        }
        if i > 0 {
            if !pushed_has(key, "_[i]") {
                key.push_str("_[i]");
            }
        } else if opts.annotate_kernel && matches!(kind, DsoKind::Kernel | DsoKind::KernelModule) {
            key.push_str("_[k]");
        } else if opts.annotate_jit && kind == DsoKind::Jit && !pushed_has(key, "_[j]") {
            key.push_str("_[j]");
        }
    }
}

/// The parts of a symbol split on `->` (Java frames with their inlined callees, as perf-map-agent
/// names them).
fn java_inlined(sym: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(sym);
    std::iter::from_fn(move || {
        let s = rest?;
        match s.split_once("->") {
            Some((part, inlined)) => {
                rest = Some(inlined);
                Some(part)
            }
            None => {
                rest = None;
                Some(s)
            }
        }
    })
}

/// `[unknown]` symbol: `[file name of the DSO]`, or `[unknown]` when the DSO is unknown too;
/// with addresses `[libc.so.6 <7f1e2215d058>]` / `[unknown <0>]`.
fn push_unknown(key: &mut String, frame: &Frame, addrs: bool) {
    use std::fmt::Write;
    let name = if frame.dso == "[unknown]" || frame.dso.is_empty() {
        if !addrs {
            key.push_str("[unknown]");
            return;
        }
        "unknown"
    } else {
        frame.dso.rsplit('/').next().unwrap_or(&frame.dso)
    };
    key.push('[');
    key.push_str(name);
    if addrs {
        let _ = write!(key, " <{:x}>", frame.address.unwrap_or(0));
    }
    key.push(']');
}

/// Appends a symbol tidied as inferno's `tidy_generic` does: `;` → `:`, the top-level argument
/// list removed unless it is Go's `.(` or C++ `(anonymous namespace)`.
fn push_tidy(key: &mut String, sym: &str) {
    // The delimiters are ASCII, which never occurs inside a multi-byte UTF-8 character.
    let b = sym.as_bytes();
    let mut depth: i32 = 0;
    let mut last_dot_next: Option<usize> = None;
    let mut end = b.len();
    let mut semicolon = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' | b'{' | b'[' => depth += 1,
            b'>' | b'}' | b']' | b')' => depth -= 1,
            b'(' => {
                if depth == 0
                    && last_dot_next != Some(i)
                    && !sym
                        .get(i..)
                        .is_some_and(|r| r.starts_with("(anonymous namespace)"))
                {
                    end = i;
                    break;
                }
                depth += 1;
            }
            b'.' => last_dot_next = Some(i + 1),
            b';' => semicolon = true,
            _ => {}
        }
    }
    let head = sym.get(..end).unwrap_or(sym);
    if semicolon {
        key.extend(head.chars().map(|c| if c == ';' { ':' } else { c }));
    } else {
        key.push_str(head);
    }
}

/// Streams `perf script` output from `reader` and folds it (see [`Collapser`]). The issues are
/// those of reading and of folding, in that order.
pub fn collapse<R: BufRead>(
    reader: R,
    opts: CollapseOptions,
) -> Result<Parsed<Folded>, ParseError> {
    let mut c = Collapser::new(opts);
    let read = for_each_sample(reader, |s| c.add(s))?;
    let mut folded = c.finish();
    let mut issues: Vec<LineIssue> = read.issues;
    issues.append(&mut folded.issues);
    Ok(Parsed {
        value: folded.value,
        issues,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_every_layout() {
        let h =
            parse_header("worker thread 1  9965 [001]  9317.336128:    2004008 cpu-clock:ppp: ")
                .unwrap();
        assert_eq!(h.comm, "worker thread 1");
        assert_eq!((h.pid, h.tid, h.cpu), (None, Some(9965), Some(1)));
        assert_eq!(h.time_ns, Some(9_317_336_128_000));
        assert_eq!((h.period, h.event), (Some(2004008), "cpu-clock:ppp"));
        let h = parse_header("java 19983 cycles:").unwrap();
        assert_eq!((h.comm, h.tid, h.event), ("java", Some(19983), "cycles"));
        let h = parse_header("V8 WorkerThread 24636/25607 [000] 94564.109216123: cycles:").unwrap();
        assert_eq!(h.comm, "V8 WorkerThread");
        assert_eq!((h.pid, h.tid), (Some(24636), Some(25607)));
        assert_eq!(h.time_ns, Some(94_564_109_216_123));
        assert_eq!(h.period, None);
        let h = parse_header(
            "  swapper     0 [002]  1.5: sched:sched_switch: prev_comm=swapper/2 prev_pid=0",
        )
        .unwrap();
        assert_eq!(
            (h.comm, h.tid, h.event),
            ("swapper", Some(0), "sched:sched_switch")
        );
        assert_eq!(h.detail, "prev_comm=swapper/2 prev_pid=0");
        let h = parse_header(
            "false 64414 20110.539270:      34467 cycles:u:  ffffffff9aa3c8de [unknown] ([unknown])",
        )
        .unwrap();
        let f = h.inline_frame.unwrap();
        assert_eq!(
            (f.address, f.symbol, f.dso),
            (Some(0xffffffff9aa3c8de), "[unknown]", "[unknown]")
        );
        assert!(parse_header("\tffffffff81ffcf8f ip_output+0x5f ([kernel.kallsyms])").is_none());
        assert!(parse_header("    13.10%  spin  spin  [.] Accumulator<double>::add").is_none());
    }

    #[test]
    fn frames() {
        let f = parse_frame(
            "\t    7f8740ed0d64 long Busy.work(java.util.HashMap, int)+0x44 (/tmp/perf-16876.map)",
        )
        .unwrap();
        assert_eq!(f.symbol, "long Busy.work(java.util.HashMap, int)");
        assert_eq!((f.offset, f.dso), (Some(0x44), "/tmp/perf-16876.map"));
        let f = parse_frame("7d8 ipv4_conntrack_local+0x7f8f80b8 ([nf_conntrack_ipv4])").unwrap();
        assert_eq!(module_name(f.dso), Some("nf_conntrack_ipv4"));
        let f = parse_frame("    7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)").unwrap();
        assert_eq!(f.symbol, "");
        assert!(parse_frame("not a frame (x)").is_none());
        assert!(parse_frame("abc def").is_none());
    }

    #[test]
    fn dso_kinds() {
        assert_eq!(classify_dso("[kernel.kallsyms]"), DsoKind::Kernel);
        assert_eq!(classify_dso("[kernel.kallsyms].init.text"), DsoKind::Kernel);
        assert_eq!(
            classify_dso("/lib/modules/4.1.0-virtual/build/vmlinux"),
            DsoKind::Kernel
        );
        assert_eq!(classify_dso("[nf_conntrack]"), DsoKind::KernelModule);
        assert_eq!(
            module_name("/lib/modules/6.1/kernel/x/resguard_linux.ko.xz"),
            Some("resguard_linux")
        );
        assert_eq!(classify_dso("[JIT] tid 21563"), DsoKind::Jit);
        assert_eq!(classify_dso("/tmp/perf-21563.map"), DsoKind::Jit);
        assert_eq!(classify_dso("[vdso]"), DsoKind::Special);
        assert_eq!(classify_dso("[unknown]"), DsoKind::Unknown);
        assert_eq!(classify_dso("libc.so.6"), DsoKind::User);
    }

    #[test]
    fn tidy_like_inferno() {
        let tidy = |s: &str| {
            let mut k = String::new();
            push_tidy(&mut k, s);
            k
        };
        assert_eq!(
            tidy("go/build.(*importReader).readByte"),
            "go/build.(*importReader).readByte"
        );
        assert_eq!(tidy("foo<Vec::<usize>>(Vec<usize>)"), "foo<Vec::<usize>>");
        assert_eq!(tidy(".run()V"), ".run");
        assert_eq!(
            tidy("std::function<void (int, int)>::operator(int, int)"),
            "std::function<void (int, int)>::operator"
        );
        assert_eq!(
            tidy("{lambda(int, int)#2}::operator()"),
            "{lambda(int, int)#2}::operator"
        );
        assert_eq!(
            tidy("(anonymous namespace)::myBar()"),
            "(anonymous namespace)::myBar"
        );
        assert_eq!(tidy("LBusy;::main"), "LBusy:::main");
    }
}
