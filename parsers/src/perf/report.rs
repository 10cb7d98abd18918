//! `perf report --stdio` text and `perf top --stdio` snapshots: per event, the profile entries
//! with their overheads and, when recorded with `-g`, their call graphs.
//!
//! `perf report --stdio` (perf 4.x–6.x) prints a block per event: a `# Samples:` line naming the
//! event, a column header whose names follow `--sort` (`Command`, `Shared Object`, `Symbol`,
//! `Pid:Command`, `CPU`…), a dotted rule giving each column's width, then one line per entry;
//! with call chains, a graph under each entry. perf 6.1, `perf report --stdio --no-children
//! --sort comm,dso,symbol` (wide columns shortened, padding trimmed, an entry and some graph lines
//! left out):
//! ```text
//! # Total Lost Samples: 0
//! #
//! # Samples: 397  of event 'cpu-clock:ppp'
//! # Event count (approx.): 4010100970
//! #
//! # Overhead  Command          Shared Object                        Symbol
//! # ........  ...............  ...................................  ..............................
//! #
//!     13.10%  spin             spin                                 [.] Accumulator<double>::add
//!             |
//!             ---Accumulator<double>::add
//!                main
//!                __libc_start_call_main
//!
//!      3.27%  nc               [kernel.kallsyms]                    [k] _raw_spin_unlock_irqrestore
//!             |
//!             ---_raw_spin_unlock_irqrestore
//!                |
//!                |--1.76%--anon_pipe_read
//!                |          vfs_read
//!                |          read
//!                |
//!                 --0.50%--tcp_write_xmit
//!                           __tcp_push_pending_frames
//! ```
//! By default (`--children`) two overhead columns precede the keys: `Children` (the entry and
//! everything it calls) and `Self`; `--no-children` prints one, `Overhead` (self). The sample
//! count is rounded down to thousands or millions above 1000 (`3K`); `Symbol` values start with
//! the level `[k]` (kernel), `[.]` (user), `[g]` (guest kernel), `[u]` (guest user), `[H]`
//! (hypervisor), and are a raw address (`[.] 0x0000000000163d47`) when unresolved. The column
//! names are read from the header over the dotted rule; the rows are then split by the header's
//! field structure, not at the rule's offsets, which perf does not keep: a number wider than its
//! column (`-w`, or a `Period` of ten digits under `......`) shifts the rest of the row. Numbers
//! are whitespace-delimited tokens, text values end at a run of two spaces (so `worker thread 1`
//! and `[JIT] tid 21563` stay whole), the symbol starts at its level marker and, last, runs to the
//! end of the line (C++ names such as `Aggregator<std::__cxx11::basic_string<char, …> >::reduce`
//! stay whole). Any `--sort` order, `-n`/`--show-nr-samples` (`Samples`), `--show-total-period`
//! (`Period`) and `--children` (`Children`, `Self`) are read by name; a row that does not fit the
//! header (an overhead that is no percentage, values left over) is a line issue and the rest is
//! read. perf 6.1 with `-w 1,1,1,7,13,60` (rule narrower than the `Period` values):
//! ```text
//! # Overhead  Samples  Period  Command  Shared Object  Symbol
//! # ........  .......  ......  .......  .............  ............................................................
//! #
//!    70.09%    24455    6113750000  tmpl     tmpl           [.] analytics::pipeline::Aggregator<std::__cxx11::basic_stri
//!    1.01%     351      87750000  tmpl     [kernel.kalls  [k] finish_task_switch.isra.0
//! ```
//!
//! `perf top --stdio` (and `-E N`) repeats, after an ANSI clear-screen, a header and rows without
//! column names (`Overhead  Shared Object  Symbol` by default), cut to 80 columns when the output
//! is not a terminal (perf 6.1, `perf top --stdio -d 3 -E 20`, one refresh, rows left out):
//! ```text
//!    PerfTop:     765 irqs/sec  kernel:25.8%  exact:  0.0% lost: 0/0 drop: 245/1162 [199Hz cpu-clock:ppp],  (all, 2 CPUs)
//! -------------------------------------------------------------------------------
//!
//!      6.37%  spin                                 [.] Accumulator<double>::add
//!      5.98%  spin                                 [.] (anonymous namespace)::ch
//!      5.03%  [kernel]                             [k] clear_page_erms
//! ```
//! Each refresh becomes one [`EventProfile`] (the last is the latest). Rows without a column
//! header (perf top, `perf report -q`) are split on runs of two spaces: the field starting with a
//! level marker is the symbol, one field before it is the DSO, two are command and DSO.
//!
//! Call graphs are read into a tree per entry ([`ChainNode`]), in the order perf prints them:
//! callers first under `--children` (perf's default `caller` order), callees first with
//! `--no-children`. Not modelled: `--header` fields (skipped), `-g folded`/`flat` chain layouts
//! (their lines are kept as issues), `--group` output.
//!
//! ```
//! let text = r"# Samples: 397  of event 'cpu-clock:ppp'
//! ## Overhead  Command          Symbol
//! ## ........  ...............  ..............................
//! ##
//!     13.10%  worker thread 1  [.] Accumulator<double>::add
//!      3.27%  nc               [k] _raw_spin_unlock_irqrestore
//! ";
//! let report = parsers::perf::report::parse(text).unwrap().value;
//! let top = &report.events[0].entries[0];
//! assert_eq!(top.self_pct, Some(13.10));
//! assert_eq!(top.comm.as_deref(), Some("worker thread 1"));
//! assert!(report.events[0].entries[1].level.unwrap().is_kernel());
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues, Name, Names};
use crate::common::{ParseError, Parsed, Sniff};
use crate::perf::script::{classify_dso, DsoKind};
use serde::Serialize;

/// Which tool printed the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum ReportKind {
    /// `perf report --stdio`.
    #[default]
    Report,
    /// `perf top --stdio` snapshots.
    Top,
}

/// A whole `perf report` (or `perf top`) text.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PerfReport {
    /// Which tool printed it.
    pub kind: ReportKind,
    /// `# Total Lost Samples: N` (perf ≥ 4.7), samples the kernel could not hand to perf.
    pub lost_samples: Option<u64>,
    /// One profile per event (`perf report`) or per refresh (`perf top`), in input order.
    pub events: Vec<EventProfile>,
}

/// The `PerfTop:` header of one `perf top` refresh.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TopHeader {
    /// Samples per second over the last refresh interval (`irqs/sec`).
    pub irqs_per_sec: Option<u64>,
    /// Share of those samples in the kernel, % (`kernel:23.9%`).
    pub kernel_pct: Option<f64>,
    /// Share of precise samples, % (`exact:`).
    pub exact_pct: Option<f64>,
    /// `lost: A/B`: lost samples in the interval / in total.
    pub lost: Option<(u64, u64)>,
    /// `drop: A/B`: samples perf top dropped because it could not keep up (interval / total).
    pub drop: Option<(u64, u64)>,
    /// Sampling frequency, Hz (`[199Hz cpu-clock:ppp]`), when sampling by frequency.
    pub frequency_hz: Option<u64>,
    /// The CPUs profiled as printed (`all, 2 CPUs`).
    pub target: Option<String>,
}

/// The profile of one event.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EventProfile {
    /// Event name with modifiers (`cpu-clock:ppp`, `cycles`), from `of event '…'` or perf top's
    /// `[…Hz EVENT]`; `None` when the text does not name it.
    pub event: Option<String>,
    /// Number of samples, from `# Samples: 396` or `3K` (3 000; see `samples_exact`).
    pub samples: Option<u64>,
    /// `false` when perf rounded the count down to a `K`/`M`/`G` unit (it does above 1000).
    pub samples_exact: bool,
    /// `# Event count (approx.)`: sum of the sample periods (ns for `cpu-clock`, cycles for
    /// `cycles`).
    pub event_count: Option<u64>,
    /// Column names as printed (`Children`, `Self`, `Command`, `Shared Object`, `Symbol`,
    /// `Pid:Command`, `IPC [IPC Coverage]`…); empty when the text has no column header.
    pub columns: Vec<String>,
    /// The `perf top` header of this refresh.
    pub top: Option<TopHeader>,
    /// Entries in printed order (highest overhead first by default).
    pub entries: Vec<ReportEntry>,
    /// 1-based input line of the `# Samples:` or `PerfTop:` line (of the first entry when
    /// neither is present).
    pub line: usize,
}

/// The privilege level perf prints before a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SymbolLevel {
    /// `[k]`: kernel.
    Kernel,
    /// `[.]`: user space.
    User,
    /// `[g]`: guest kernel.
    GuestKernel,
    /// `[u]`: guest user space.
    GuestUser,
    /// `[H]`: hypervisor.
    Hypervisor,
    /// Any other letter, kept as printed.
    Other(char),
}

impl SymbolLevel {
    fn from_marker(c: char) -> SymbolLevel {
        match c {
            'k' => SymbolLevel::Kernel,
            '.' => SymbolLevel::User,
            'g' => SymbolLevel::GuestKernel,
            'u' => SymbolLevel::GuestUser,
            'H' => SymbolLevel::Hypervisor,
            c => SymbolLevel::Other(c),
        }
    }

    /// `true` for `[k]` and `[g]`.
    pub fn is_kernel(self) -> bool {
        matches!(self, SymbolLevel::Kernel | SymbolLevel::GuestKernel)
    }
}

/// One entry (one line with overheads) and its call graph.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ReportEntry {
    /// `Children` column, %: samples in this entry or anything it calls (`--children`, perf's
    /// default when call chains were recorded).
    pub children_pct: Option<f64>,
    /// `Self` column, or `Overhead` with `--no-children`, without call chains and in perf top,
    /// %: samples in this entry itself.
    pub self_pct: Option<f64>,
    /// `Samples` column (`-n`, `--show-nr-samples`).
    pub samples: Option<u64>,
    /// `Period` column (`--show-total-period`), in the event's unit.
    pub period: Option<u64>,
    /// Command name (`Command`, or the name in `Pid:Command`); shared by the entries that
    /// print the same one.
    pub comm: Option<Name>,
    /// Process id (`Pid:Command`, sort key `pid`).
    pub pid: Option<u32>,
    /// DSO (`Shared Object`): `[kernel.kallsyms]`, `[kernel]` (perf top), `[nf_conntrack]`,
    /// `libc.so.6`, `[JIT] tid 21563`; shared by the entries that print the same one.
    pub dso: Option<Name>,
    /// Symbol without its level marker; the raw address text when unresolved; shared with the
    /// entries and call graphs that print the same one.
    pub symbol: Option<Name>,
    /// Level marker of the symbol.
    pub level: Option<SymbolLevel>,
    /// The address perf printed instead of a symbol name (`[.] 0x0000000000163d47`).
    pub unresolved_address: Option<u64>,
    /// CPU (sort key `cpu`).
    pub cpu: Option<u32>,
    /// Columns not modelled above, as (column name, value) — `IPC [IPC Coverage]`, `Source:Line`,
    /// `Parent symbol`…
    pub other: Vec<(String, String)>,
    /// Call graph, as a flat tree (see [`ChainNode`]); empty without call chains.
    pub callchain: Vec<ChainNode>,
    /// 1-based input line.
    pub line: usize,
}

impl ReportEntry {
    /// What the entry's DSO is (see [`classify_dso`]).
    pub fn dso_kind(&self) -> Option<DsoKind> {
        self.dso.as_deref().map(classify_dso)
    }

    /// The symbols from the graph's top to `node`, inclusive: each ancestor's chain, then the
    /// node's own chain.
    pub fn chain_symbols(&self, node: usize) -> Vec<&str> {
        let mut path = Vec::new();
        let mut at = Some(node);
        while let Some(i) = at {
            let Some(n) = self.callchain.get(i) else {
                break;
            };
            path.push(n);
            at = n.parent.filter(|&p| p < i);
        }
        path.iter()
            .rev()
            .flat_map(|n| n.symbols.iter().map(Name::as_str))
            .collect()
    }
}

/// One chain of a call graph: the symbols printed one below the other after a `---` (the
/// graph's first chain) or a `--8.31%--` branch, until the graph forks again.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ChainNode {
    /// Index of the parent chain in [`ReportEntry::callchain`]; `None` at the top of the graph.
    pub parent: Option<usize>,
    /// The branch's share, % of all samples (`--8.31%--`); `None` for a `---` chain, which
    /// carries all of its parent's.
    pub percent: Option<f64>,
    /// The branch's value when printed as a count (`-g graph,0.5,caller,count`: `--1234--`).
    pub count: Option<u64>,
    /// Symbols in printed order (shared: a symbol appears in many graphs).
    pub symbols: Vec<Name>,
    /// 1-based input line of the chain's first symbol.
    pub line: usize,
}

/// What one column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Children,
    SelfPct,
    Samples,
    Period,
    Comm,
    PidComm,
    Dso,
    Symbol,
    Cpu,
    Other,
}

impl Key {
    fn of(name: &str) -> Key {
        match name {
            "Children" => Key::Children,
            "Self" | "Overhead" => Key::SelfPct,
            "Samples" => Key::Samples,
            "Period" => Key::Period,
            "Command" => Key::Comm,
            "Pid:Command" => Key::PidComm,
            "Shared Object" => Key::Dso,
            "Symbol" => Key::Symbol,
            "CPU" => Key::Cpu,
            _ => Key::Other,
        }
    }
}

/// A column of the header: its name and what it holds.
#[derive(Debug, Clone)]
struct Column {
    name: String,
    key: Key,
}

/// Is this `perf report --stdio` or `perf top --stdio` text?
///
/// `Yes` for a `# Samples: … of event '…'` line, a column header followed by its dotted rule,
/// perf report's `# To display the perf.data header info` banner or a `PerfTop:` header;
/// `Unsure` when the first lines are entries (`13.10%  spin  spin  [.] main`) without any
/// header (`perf report -q`); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut prev_header = false;
    let mut entries = 0;
    let mut other = 0;
    for (line, complete) in head_lines(head) {
        let line = strip_ansi(line);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with("PerfTop:") {
            return Sniff::Yes;
        }
        if let Some(c) = t.strip_prefix('#') {
            let c = c.trim_start();
            if (c.starts_with("Samples:") && c.contains(" of event '"))
                || c.starts_with("To display the perf.data header info")
                || (prev_header && is_dots(c))
            {
                return Sniff::Yes;
            }
            prev_header = c.starts_with("Overhead") || c.starts_with("Children");
            continue;
        }
        prev_header = false;
        if leading_pcts(t).0 > 0 && split_fields(t).iter().any(|f| marker(f).is_some()) {
            entries += 1;
        } else if complete && !t.starts_with(['|', '-']) {
            other += 1;
        }
    }
    if entries > 0 && other == 0 {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// Removes ANSI escape sequences (colours, clear-screen) that perf top writes.
fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\x1b') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'[') {
            chars.next();
            // CSI: parameters and intermediates, then one final byte in @..~.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The dotted rule under a column header (`........  ......`), without the `#`.
fn is_dots(c: &str) -> bool {
    c.contains('.') && c.bytes().all(|b| b == b'.' || b == b' ')
}

/// Leading `12.34%` tokens: how many and their values (at most 2 are kept).
fn leading_pcts(t: &str) -> (usize, [Option<f64>; 2]) {
    let mut vals = [None, None];
    let mut n = 0;
    for tok in t.split_ascii_whitespace() {
        // An entry's shares print with two decimals (`%.2f%%`, tools/perf/ui/hist.c): another
        // fraction (`6.627416610717773% used`, `0.0% used` of a JVM heap summary) is another
        // tool's line.
        let two_decimals = tok
            .strip_suffix('%')
            .and_then(|n| n.split_once('.'))
            .is_some_and(|(_, frac)| frac.len() == 2);
        match pct(tok).filter(|_| two_decimals) {
            Some(v) => {
                if n < 2 {
                    vals[n] = Some(v);
                }
                n += 1;
            }
            None => break,
        }
    }
    (n, vals)
}

/// `12.34%` → 12.34.
fn pct(tok: &str) -> Option<f64> {
    let num = tok.strip_suffix('%')?;
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    num.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `s.trim()`, with the common all-ASCII case done byte-wise: [`str::trim_ascii`] first, then
/// the Unicode trim only when a non-ASCII byte or a vertical tab (which `trim_ascii` keeps) is
/// left at either end.
fn trim(s: &str) -> &str {
    let t = s.trim_ascii();
    let odd = |b: Option<&u8>| b.is_some_and(|&b| b >= 0x80 || b == 0x0b);
    if odd(t.as_bytes().first()) || odd(t.as_bytes().last()) {
        t.trim()
    } else {
        t
    }
}

/// Byte offset of the first run of two spaces in `s`.
fn two_spaces(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    memchr::memchr_iter(b' ', b).find(|&i| b.get(i + 1) == Some(&b' '))
}

/// Fields separated by runs of two or more spaces.
fn split_fields(t: &str) -> Vec<&str> {
    t.split("  ")
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .collect()
}

/// The level marker at the start of a symbol field (`[k] name`, or `[.]` alone), with the byte
/// offset just after it. perf -v prints an address and a binding letter before it
/// (`0x1593  B [.] name`); the marker is then found after them.
fn marker(field: &str) -> Option<(char, usize)> {
    let b = field.as_bytes();
    let mut i = 0;
    while i + 2 < b.len() && i < 64 {
        if b[i] == b'[' && b[i + 2] == b']' && (i + 3 == b.len() || b[i + 3] == b' ') {
            let at_boundary = i == 0 || b[i - 1] == b' ';
            if at_boundary {
                return Some((b[i + 1] as char, i + 3));
            }
        }
        i += 1;
    }
    None
}

/// Fills the symbol fields of `e` from a `Symbol` column value.
fn set_symbol(e: &mut ReportEntry, field: &str, names: &mut Names) {
    let field = field.trim();
    if field.is_empty() {
        return;
    }
    let sym = match marker(field) {
        Some((c, after)) => {
            e.level = Some(SymbolLevel::from_marker(c));
            field.get(after..).unwrap_or("").trim()
        }
        None => field,
    };
    if let Some(hex) = sym.strip_prefix("0x") {
        if !hex.is_empty() && hex.len() <= 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            e.unresolved_address = u64::from_str_radix(hex, 16).ok();
        }
    }
    e.symbol = Some(names.get(sym));
}

/// `  9855:C2 CompilerThre` → (9855, `C2 CompilerThre`).
fn pid_comm(v: &str) -> Option<(u32, &str)> {
    let (pid, comm) = v.trim().split_once(':')?;
    Some((pid.trim().parse().ok()?, comm))
}

/// A byte slice of `line` moved to character boundaries; empty when out of range.
fn slice(line: &str, start: usize, end: Option<usize>) -> &str {
    let mut s = start.min(line.len());
    while !line.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = end.unwrap_or(line.len()).clamp(s, line.len());
    while !line.is_char_boundary(e) {
        e += 1;
    }
    line.get(s..e).unwrap_or("")
}

/// Columns from a header line and its dotted rule (both with their `#`): the names are read
/// where the rule's dot runs are, since names hold spaces (`Shared Object`); entry rows are not
/// cut at these spans (see [`entry_by_header`]).
fn columns(header: &str, dots: &str) -> Vec<Column> {
    let mut spans = Vec::new();
    let b = dots.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' {
            let s = i;
            while i < b.len() && b[i] == b'.' {
                i += 1;
            }
            spans.push((s, i));
        } else {
            i += 1;
        }
    }
    let n = spans.len();
    spans
        .iter()
        .enumerate()
        .map(|(k, &(s, e))| {
            let end = (k + 1 < n).then_some(e);
            let name = slice(header, s, end)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            Column {
                key: Key::of(&name),
                name,
            }
        })
        .collect()
}

/// Stores one column value into `e`; `Err` when a number column does not hold a number.
fn set_column(
    e: &mut ReportEntry,
    key: Key,
    name: &str,
    v: &str,
    names: &mut Names,
) -> Result<(), String> {
    let v = v.trim();
    let bad = || format!("`{}` column: `{}` is not a number", name, excerpt(v));
    match key {
        Key::Children => e.children_pct = Some(pct(v).ok_or_else(bad)?),
        Key::SelfPct => e.self_pct = Some(pct(v).ok_or_else(bad)?),
        Key::Samples => e.samples = Some(v.parse().map_err(|_| bad())?),
        Key::Period => e.period = Some(v.parse().map_err(|_| bad())?),
        Key::Comm => e.comm = Some(names.get(v)),
        Key::PidComm => match pid_comm(v) {
            Some((pid, comm)) => {
                e.pid = Some(pid);
                e.comm = Some(names.get(comm));
            }
            None => {
                return Err(format!(
                    "`Pid:Command` value `{}` is not PID:COMM",
                    excerpt(v)
                ))
            }
        },
        Key::Dso => e.dso = Some(names.get(v)),
        Key::Symbol => set_symbol(e, v, names),
        Key::Cpu => e.cpu = Some(v.parse().map_err(|_| bad())?),
        Key::Other => e.other.push((name.to_string(), v.to_string())),
    }
    Ok(())
}

/// An entry line read by the header's field structure, with the problems met in columns other
/// than the overheads (the entry is kept without those values). `Err` when the row does not fit
/// the header: an overhead column that does not hold a percentage, or values left over.
///
/// The ruler's column widths are not trusted: a number wider than its column (`-w`, a
/// `Period` of ten digits under a six-dot rule) pushes the rest of the row right. Number columns
/// (`Children`, `Self`/`Overhead`, `Samples`, `Period`, `CPU`) are whitespace-delimited tokens;
/// text columns (`Command`, `Shared Object`, `Pid:Command`…) end at the next run of two spaces
/// (perf separates columns by two, and values such as `worker thread 1` or `[JIT] tid 21563` hold
/// single ones); the `Symbol` column starts at its level marker (`[.]`, `[k]`, after `-v`'s
/// address and binding letter) and, as the last column, is the rest of the line, so a long C++
/// name stays whole; the last text column is the rest of the line.
fn entry_by_header(
    line: &str,
    cols: &[Column],
    n: usize,
    names: &mut Names,
) -> Result<(ReportEntry, Vec<String>), String> {
    let mut e = ReportEntry {
        line: n,
        ..ReportEntry::default()
    };
    let mut problems = Vec::new();
    let mut rest = trim(line);
    for (k, c) in cols.iter().enumerate() {
        let last = k + 1 == cols.len();
        rest = rest.trim_start();
        let end = match c.key {
            Key::Children | Key::SelfPct | Key::Samples | Key::Period | Key::Cpu => rest
                .find(|ch: char| ch.is_ascii_whitespace())
                .unwrap_or(rest.len()),
            _ if last => rest.len(),
            Key::Symbol => {
                let from = marker(rest).map_or(0, |(_, after)| after);
                rest.get(from..)
                    .and_then(two_spaces)
                    .map_or(rest.len(), |i| from + i)
            }
            _ => two_spaces(rest).unwrap_or(rest.len()),
        };
        let (value, after) = rest.split_at_checked(end).unwrap_or((rest, ""));
        rest = after;
        if value.is_empty() {
            let msg = format!("no value for the `{}` column", c.name);
            if matches!(c.key, Key::Children | Key::SelfPct) {
                return Err(msg);
            }
            problems.push(msg);
            continue;
        }
        if let Err(msg) = set_column(&mut e, c.key, &c.name, value, names) {
            if matches!(c.key, Key::Children | Key::SelfPct) {
                return Err(msg);
            }
            problems.push(msg);
        }
    }
    let left = rest.trim();
    if !left.is_empty() {
        return Err(format!(
            "`{}` left over after the {} columns of the header",
            excerpt(left),
            cols.len()
        ));
    }
    if e.self_pct.is_none() && e.children_pct.is_none() {
        return Err("no overhead column".to_string());
    }
    Ok((e, problems))
}

/// An entry line without a column header (perf top, `perf report -q`).
fn entry_by_fields(line: &str, n: usize, names: &mut Names) -> Result<ReportEntry, String> {
    let t = line.trim();
    let (count, vals) = leading_pcts(t);
    let mut e = ReportEntry {
        line: n,
        ..ReportEntry::default()
    };
    match count {
        1 => e.self_pct = vals[0],
        2 => {
            e.children_pct = vals[0];
            e.self_pct = vals[1];
        }
        _ => {
            return Err(format!(
                "expected one or two overhead percentages, found {count}"
            ))
        }
    }
    // Skip the percentages.
    let mut rest = t;
    for _ in 0..count {
        rest = rest.trim_start();
        rest = rest.find(' ').and_then(|i| rest.get(i..)).unwrap_or("");
    }
    let rest = rest.trim();
    let mut before = Vec::new();
    let mut remaining = rest;
    while !remaining.is_empty() {
        if marker(remaining).is_some_and(|(_, after)| after <= 3 || remaining.starts_with("0x")) {
            set_symbol(&mut e, remaining, names);
            break;
        }
        match remaining.split_once("  ") {
            Some((head, tail)) => {
                before.push(head);
                remaining = tail.trim_start();
            }
            None => {
                before.push(remaining);
                remaining = "";
            }
        }
    }
    match before.as_slice() {
        [] => {}
        [dso] => e.dso = Some(names.get(dso)),
        [comm, dso, more @ ..] => {
            e.comm = Some(names.get(comm));
            e.dso = Some(names.get(dso));
            for (i, v) in more.iter().enumerate() {
                e.other.push((format!("column {}", i + 3), v.to_string()));
            }
        }
    }
    Ok(e)
}

/// Builds the call-graph tree of one entry from its graph lines.
#[derive(Debug, Default)]
struct Graph {
    /// Open chains: (column of their symbols, node index).
    stack: Vec<(usize, usize)>,
    /// Column of the graph's top (the first `|` or `---`).
    root_col: Option<usize>,
}

/// Parses `--8.31%--` / `--1234--` at the start of `s`: (percent, count, length).
fn branch_marker(s: &str) -> Option<(Option<f64>, Option<u64>, usize)> {
    let inner = s.strip_prefix("--")?;
    let (v, _) = inner.split_once("--")?;
    let len = 2 + v.len() + 2;
    if let Some(p) = pct(v) {
        return Some((Some(p), None, len));
    }
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        return Some((None, v.parse().ok(), len));
    }
    None
}

impl Graph {
    /// One graph line of `e`; `Err` with a message when it does not fit the tree.
    fn line(
        &mut self,
        e: &mut ReportEntry,
        line: &str,
        n: usize,
        names: &mut Names,
    ) -> Result<(), String> {
        let b = line.as_bytes();
        let Some(p) = b.iter().position(|&c| c != b' ' && c != b'|') else {
            // Only bars: a spacer; the first one marks the top of the graph.
            if self.root_col.is_none() {
                self.root_col = b.iter().position(|&c| c == b'|');
            }
            return Ok(());
        };
        let rest = line.get(p..).unwrap_or("").trim_end();
        if let Some(sym) = rest.strip_prefix("---") {
            self.root_col.get_or_insert(p);
            self.stack.clear();
            let idx = push_node(e, None, None, None, sym, n, names);
            self.stack.push((p + 3, idx));
            return Ok(());
        }
        if let Some((percent, count, len)) = branch_marker(rest) {
            let parent_col = p
                .checked_sub(1)
                .ok_or("graph branch at the start of the line")?;
            while self.stack.last().is_some_and(|&(c, _)| c > parent_col) {
                self.stack.pop();
            }
            let parent = match self.stack.last() {
                Some(&(c, idx)) if c == parent_col => Some(idx),
                _ => {
                    let root = *self.root_col.get_or_insert(parent_col);
                    if root != parent_col || !self.stack.is_empty() {
                        return Err(format!(
                            "graph branch at column {} has no parent chain above it",
                            p + 1
                        ));
                    }
                    None
                }
            };
            let at = rest.get(len..).unwrap_or("");
            let idx = push_node(e, parent, percent, count, at, n, names);
            // The chain's next symbols sit one graph level (11 columns) right of the bar.
            self.stack.push((parent_col + 11, idx));
            return Ok(());
        }
        while self.stack.last().is_some_and(|&(c, _)| c > p) {
            self.stack.pop();
        }
        match self.stack.last() {
            Some(&(c, idx)) if c == p => {
                e.callchain[idx].symbols.push(names.get(rest));
                Ok(())
            }
            _ => Err(format!(
                "graph symbol `{}` at column {} continues no chain above it",
                excerpt(rest),
                p + 1
            )),
        }
    }
}

fn push_node(
    e: &mut ReportEntry,
    parent: Option<usize>,
    percent: Option<f64>,
    count: Option<u64>,
    sym: &str,
    n: usize,
    names: &mut Names,
) -> usize {
    let sym = trim(sym);
    e.callchain.push(ChainNode {
        parent,
        percent,
        count,
        symbols: if sym.is_empty() {
            Vec::new()
        } else {
            vec![names.get(sym)]
        },
        line: n,
    });
    e.callchain.len() - 1
}

/// `# Samples: 3K of event 'cpu-clock:ppp'` → (3000, exact = false, event).
fn samples_line(c: &str) -> Option<(Option<u64>, bool, Option<String>)> {
    let rest = c.strip_prefix("Samples:")?.trim_start();
    let (count, after) = rest.split_once(" of event")?;
    let count = count.trim();
    let (digits, mult) = match crate::common::split_last(count) {
        Some((d, 'K')) => (d, 1_000),
        Some((d, 'M')) => (d, 1_000_000),
        Some((d, 'G')) => (d, 1_000_000_000),
        _ => (count, 1),
    };
    let samples = digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(mult));
    let event = after
        .trim()
        .strip_prefix('\'')
        .and_then(|s| s.rsplit_once('\''))
        .map(|(e, _)| e.to_string());
    Some((samples, mult == 1, event))
}

/// `PerfTop:     393 irqs/sec  kernel:23.9%  exact:  0.0% lost: 0/0 drop: 0/538 [199Hz
/// cpu-clock:ppp],  (all, 2 CPUs)` → header and event.
fn top_line(t: &str) -> (TopHeader, Option<String>) {
    let mut h = TopHeader::default();
    let body = t.trim_start_matches("PerfTop:");
    let (stats, bracket) = match body.split_once('[') {
        Some((s, b)) => (s, Some(b)),
        None => (body, None),
    };
    // `kernel:23.9%` may be glued: split on `:` into separate tokens.
    let spaced = stats.replace(':', ": ");
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let ratio = |v: &str| -> Option<(u64, u64)> {
        let (a, b) = v.split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    for (i, tok) in toks.iter().enumerate() {
        let next = toks.get(i + 1).copied().unwrap_or("");
        match *tok {
            "irqs/sec" if i > 0 => h.irqs_per_sec = toks[i - 1].parse().ok(),
            "kernel:" => h.kernel_pct = pct(next),
            "exact:" => h.exact_pct = pct(next),
            "lost:" => h.lost = ratio(next),
            "drop:" => h.drop = ratio(next),
            _ => {}
        }
    }
    let mut event = None;
    if let Some(b) = bracket {
        let (inside, after) = b.split_once(']').unwrap_or((b, ""));
        let mut words = inside.split_whitespace();
        let first = words.next().unwrap_or("");
        let ev = match first.strip_suffix("Hz").and_then(|f| f.parse().ok()) {
            Some(hz) => {
                h.frequency_hz = Some(hz);
                words.next()
            }
            None => Some(first),
        };
        event = ev.filter(|e| !e.is_empty()).map(str::to_string);
        if let (Some(o), Some(c)) = (after.find('('), after.rfind(')')) {
            if let Some(target) = after.get(o + 1..c) {
                h.target = Some(target.to_string());
            }
        }
    }
    (h, event)
}

/// Parses `perf report --stdio` or `perf top --stdio` text.
///
/// Errors: [`ParseError::Unusable`] when the input is empty or holds no entry and no
/// `# Samples:` / `PerfTop:` header (a profile with zero entries is a valid result).
pub fn parse(text: &str) -> Result<Parsed<PerfReport>, ParseError> {
    let mut report = PerfReport::default();
    let mut issues = Issues::default();
    let mut cols: Vec<Column> = Vec::new();
    let mut prev_comment: Option<String> = None;
    let mut graph = Graph::default();
    let mut names = Names::default();
    let mut in_graph = false;
    // perf report prints no escape sequences: the per-line check is done only when perf top's
    // are present somewhere.
    let ansi = memchr::memchr(0x1b, text.as_bytes()).is_some();
    for (n, raw) in numbered_lines(strip_bom(text)) {
        let clean = if ansi {
            strip_ansi(raw)
        } else {
            std::borrow::Cow::Borrowed(raw)
        };
        let line: &str = &clean;
        let t = trim(line);
        if t.is_empty() {
            in_graph = false;
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            let c = c.trim_start();
            in_graph = false;
            if let Some(v) = c.strip_prefix("Total Lost Samples:") {
                report.lost_samples = v.trim().parse().ok();
            } else if let Some((samples, exact, event)) = samples_line(c) {
                report.events.push(EventProfile {
                    event,
                    samples,
                    samples_exact: exact,
                    line: n,
                    ..EventProfile::default()
                });
                cols.clear();
            } else if let Some(v) = c.strip_prefix("Event count (approx.):") {
                if let Some(ev) = report.events.last_mut() {
                    ev.event_count = v.trim().parse().ok();
                }
            } else if is_dots(c) {
                if let Some(h) = prev_comment.take() {
                    cols = columns(&h, line);
                    let names: Vec<String> = cols.iter().map(|c| c.name.clone()).collect();
                    match report.events.last_mut() {
                        Some(ev) if ev.entries.is_empty() => ev.columns = names,
                        _ => report.events.push(EventProfile {
                            columns: names,
                            line: n,
                            ..EventProfile::default()
                        }),
                    }
                }
            }
            prev_comment = Some(line.to_string());
            continue;
        }
        prev_comment = None;
        if t.starts_with("PerfTop:") {
            report.kind = ReportKind::Top;
            let (top, event) = top_line(t);
            report.events.push(EventProfile {
                event,
                top: Some(top),
                line: n,
                ..EventProfile::default()
            });
            cols.clear();
            in_graph = false;
            continue;
        }
        if report.kind == ReportKind::Top && t.bytes().all(|b| b == b'-') {
            continue;
        }
        // Only an entry starts with a share (`12.34%`); graph lines start with `|`, `-` or a name.
        let pcts = match t.as_bytes().first() {
            Some(b'0'..=b'9' | b'.') => leading_pcts(t).0,
            _ => 0,
        };
        if pcts > 0 {
            // A row that does not fit the header's structure (a bad overhead, values left
            // over) is reported and left out; the rows around it are read.
            let entry = if cols.is_empty() {
                entry_by_fields(line, n, &mut names)
            } else {
                entry_by_header(line, &cols, n, &mut names).map(|(e, problems)| {
                    for msg in problems {
                        issues.push(n, || format!("{msg} in `{}`", excerpt(line)));
                    }
                    e
                })
            };
            match entry {
                Ok(e) => {
                    if report.events.is_empty() {
                        report.events.push(EventProfile {
                            line: n,
                            ..EventProfile::default()
                        });
                    }
                    if let Some(ev) = report.events.last_mut() {
                        ev.entries.push(e);
                    }
                    graph = Graph::default();
                    in_graph = true;
                }
                Err(msg) => {
                    in_graph = false;
                    issues.push(n, || format!("{msg} in `{}`", excerpt(line)));
                }
            }
            continue;
        }
        let entry = report
            .events
            .last_mut()
            .and_then(|ev| ev.entries.last_mut());
        match entry {
            // Graph lines follow their entry without a blank line in between.
            Some(e) if in_graph => {
                if let Err(msg) = graph.line(e, line, n, &mut names) {
                    issues.push(n, || msg);
                }
            }
            _ => issues.push(n, || {
                format!(
                    "expected a profile entry (`12.34%  …`), a call-graph line or a `#` comment, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if report.events.is_empty() {
        let reason = if text.trim().is_empty() {
            "input is empty"
        } else {
            "no `# Samples: … of event` header, `PerfTop:` header or profile entry (`12.34%  …`) found"
        };
        return Err(ParseError::unusable(None, reason));
    }
    // Growth slack of the vectors is returned: the record is kept for the whole analysis.
    report.events.shrink_to_fit();
    for ev in &mut report.events {
        ev.entries.shrink_to_fit();
        for e in &mut ev.entries {
            e.callchain.shrink_to_fit();
            for node in &mut e.callchain {
                node.symbols.shrink_to_fit();
            }
        }
    }
    Ok(Parsed {
        value: report,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_counts_with_units() {
        assert_eq!(
            samples_line("Samples: 3K of event 'cpu-clock:ppp'"),
            Some((Some(3000), false, Some("cpu-clock:ppp".to_string())))
        );
        assert_eq!(
            samples_line("Samples: 195  of event 'cpu-clock'"),
            Some((Some(195), true, Some("cpu-clock".to_string())))
        );
    }

    #[test]
    fn markers() {
        assert_eq!(marker("[k] do_syscall_64"), Some(('k', 3)));
        assert_eq!(marker("0x1593             B [.] main"), Some(('.', 24)));
        assert_eq!(marker("[.]"), Some(('.', 3)));
        assert_eq!(marker("[kernel.kallsyms]"), None);
    }

    #[test]
    fn graph_with_branches() {
        let mut e = ReportEntry::default();
        let mut g = Graph::default();
        let lines = [
            "            |",
            "            ---_raw_spin_unlock_irqrestore",
            "               |          ",
            "               |--1.76%--anon_pipe_read",
            "               |          vfs_read",
            "               |          ",
            "                --0.50%--tcp_write_xmit",
            "                          __tcp_push_pending_frames",
        ];
        let mut names = Names::default();
        for (i, l) in lines.iter().enumerate() {
            g.line(&mut e, l, i + 1, &mut names).unwrap();
        }
        assert_eq!(e.callchain.len(), 3);
        assert_eq!(e.callchain[1].parent, Some(0));
        assert_eq!(e.callchain[2].percent, Some(0.5));
        assert_eq!(
            e.chain_symbols(2),
            vec![
                "_raw_spin_unlock_irqrestore",
                "tcp_write_xmit",
                "__tcp_push_pending_frames"
            ]
        );
    }
}
