//! A CPU profile folded from `perf script` (preferred) or summarised from `perf report`: what the
//! CPUs were doing.
//!
//! In: `perf script` text (Linux perf ≥ 4.8 layout, see [`crate::perf::script`]), read sample by
//! sample without keeping samples — from a string ([`from_script`]) or from any
//! [`BufRead`](std::io::BufRead) ([`from_reader`], which also keeps the input lines the profile
//! cites); or a parsed `perf report --stdio` ([`from_report`]). Out: [`Profile`]: busy and idle
//! samples, the kernel/user split, top symbols, DSOs and commands by self samples, per kernel
//! module its own and inclusive samples, spin-lock slow-path samples and the callers that take
//! the lock, scheduler and soft-IRQ samples, and the folded stacks a flame graph is drawn from.
//!
//! Shares are taken over busy samples: idle-loop samples of the `swapper` tasks (`perf record
//! -a` samples idle CPUs too) are counted apart, so a mostly idle host does not hide a hot path.

use crate::common::{clip, LineIssue, ParseError, Parsed};
use crate::perf::{
    self,
    script::{CollapseOptions, Collapser, DsoKind, Sample, Weight},
};
use serde::Serialize;
use std::collections::HashMap;

/// How many rows the top tables keep.
pub const TOP: usize = 25;
/// How many sample lines a category keeps for citing.
const CITE: usize = 5;
/// How many samples a module cites with their frames.
const CITE_SAMPLES: usize = 3;

/// One row of a top table: a name and its samples.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Share {
    /// Symbol, DSO or command.
    pub name: String,
    /// The DSO of a symbol (`[kernel.kallsyms]`, `[nf_conntrack]`, `libc.so.6`).
    pub dso: Option<String>,
    /// Samples.
    pub samples: u64,
    /// Share of busy samples, % (0–100).
    pub pct: f64,
    /// Input lines of the first samples (sample header lines), for citing.
    pub lines: Vec<usize>,
}

/// Samples in one kernel module.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ModuleHeat {
    /// Module name (`nf_conntrack`).
    pub module: String,
    /// Samples whose leaf frame is in the module (self).
    pub self_samples: u64,
    /// Samples with any frame in the module (its code is on the stack).
    pub inclusive_samples: u64,
    /// `self_samples` over busy samples, %.
    pub self_pct: f64,
    /// `inclusive_samples` over busy samples, %.
    pub inclusive_pct: f64,
    /// Its functions seen on stacks, most frequent first (at most 5).
    pub functions: Vec<String>,
    /// Kernel functions directly above it on the stacks (its callers), most frequent first.
    pub called_from: Vec<String>,
    /// First sample lines with a frame in the module.
    pub lines: Vec<usize>,
}

/// A category of samples (lock slow path, scheduler, soft-IRQ) with the lines of a few.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Category {
    /// Samples in the category.
    pub samples: u64,
    /// Share of busy samples, %.
    pub pct: f64,
    /// First sample lines.
    pub lines: Vec<usize>,
    /// Breakdown: for locks, the functions that take the lock (first frame above the lock
    /// functions); for soft-IRQs, the functions below `net_rx_action` (what the handler runs).
    pub by: Vec<Share>,
}

/// What a profile was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub enum ProfileSource {
    /// `perf script`: every sample with its call chain.
    #[default]
    #[serde(rename = "perf script")]
    PerfScript,
    /// `perf report --stdio`: shares per entry, no stacks.
    #[serde(rename = "perf report")]
    PerfReport,
}

impl ProfileSource {
    /// The tool's name as the report prints it (`perf script`).
    pub fn label(self) -> &'static str {
        match self {
            ProfileSource::PerfScript => "perf script",
            ProfileSource::PerfReport => "perf report",
        }
    }
}

/// One CPU profile.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Profile {
    /// `perf script` or `perf report`.
    pub source_kind: ProfileSource,
    /// Event sampled (`cpu-clock:ppp`, `cycles`).
    pub event: Option<String>,
    /// Samples of that event.
    pub samples: u64,
    /// Idle-loop samples of the `swapper` tasks.
    pub idle_samples: u64,
    /// `samples − idle_samples`.
    pub busy_samples: u64,
    /// Busy samples whose leaf is in the kernel or a module, %.
    pub kernel_pct: f64,
    /// Busy samples whose leaf is in user space, %.
    pub user_pct: f64,
    /// Leaf symbols by samples.
    pub top_symbols: Vec<Share>,
    /// Leaf DSOs by samples.
    pub top_dsos: Vec<Share>,
    /// Commands by samples.
    pub top_comms: Vec<Share>,
    /// Kernel modules seen on stacks, by inclusive samples.
    pub modules: Vec<ModuleHeat>,
    /// Spin-lock slow paths (leaf), with the callers that take the lock.
    pub locks: Category,
    /// Scheduler context-switch paths (leaf).
    pub sched: Category,
    /// Stacks under `net_rx_action` / `__do_softirq` (`handle_softirqs` on Linux ≥ 6.8).
    pub softirq: Category,
    /// Folded stacks (`comm;root;…;leaf` → samples), sorted, for the flame graph. Not in the
    /// JSON report (its size).
    #[serde(skip)]
    pub folded: Vec<(String, u64)>,
    /// Samples dropped by the folding's caps.
    pub folded_dropped: u64,
}

/// Spin-lock slow paths: a CPU spinning or queueing for a contended lock (the qspinlock fast
/// path is one inlined compare-and-swap: Linux `Documentation/locking`, `kernel/locking/
/// qspinlock.c`).
pub const LOCK_FUNCTIONS: &[&str] = &[
    "native_queued_spin_lock_slowpath",
    "queued_spin_lock_slowpath",
    "__pv_queued_spin_lock_slowpath",
    "pv_queued_spin_lock_slowpath",
    "_raw_spin_lock",
    "_raw_spin_lock_bh",
    "_raw_spin_lock_irq",
    "_raw_spin_lock_irqsave",
    "osq_lock",
    "queued_read_lock_slowpath",
    "queued_write_lock_slowpath",
];

/// Context-switch paths.
pub const SCHED_FUNCTIONS: &[&str] = &[
    "finish_task_switch",
    "__schedule",
    "schedule",
    "__switch_to",
    "__switch_to_asm",
    "context_switch",
];

/// Soft-IRQ entry points.
pub const SOFTIRQ_FUNCTIONS: &[&str] = &["net_rx_action", "__do_softirq", "handle_softirqs"];

/// `finish_task_switch.isra.0` → `finish_task_switch`.
pub fn base_symbol(s: &str) -> &str {
    let s = s.split("+0x").next().unwrap_or(s);
    match s.split_once('.') {
        Some((base, _)) if !base.is_empty() => base,
        _ => s,
    }
}

fn is_idle_leaf(sym: &str) -> bool {
    let s = base_symbol(sym);
    s.contains("idle")
        || s.contains("safe_halt")
        || s.contains("mwait")
        || s == "cpu_do_idle"
        || s == "arch_cpu_idle"
        || s == "poll_idle"
}

fn is_kernel(k: DsoKind) -> bool {
    matches!(k, DsoKind::Kernel | DsoKind::KernelModule)
}

#[derive(Default)]
struct Tally {
    samples: u64,
    lines: Vec<usize>,
    dso: Option<String>,
}

impl Tally {
    /// Counts a sample; true when its line was kept for citing.
    fn add(&mut self, line: usize) -> bool {
        self.samples += 1;
        if self.lines.len() < CITE {
            self.lines.push(line);
            true
        } else {
            false
        }
    }
}

#[derive(Default)]
struct ModTally {
    cited: usize,
    own: u64,
    incl: u64,
    functions: HashMap<String, u64>,
    callers: HashMap<String, u64>,
    lines: Vec<usize>,
}

#[derive(Default)]
struct Acc {
    /// Bumped whenever this sample's lines are cited somewhere (streamed reads keep them).
    cited: u64,
    event: Option<String>,
    samples: u64,
    idle: u64,
    kernel: u64,
    user: u64,
    symbols: HashMap<String, Tally>,
    dsos: HashMap<String, Tally>,
    comms: HashMap<String, Tally>,
    modules: HashMap<String, ModTally>,
    locks: Tally,
    lock_callers: HashMap<String, Tally>,
    sched: Tally,
    softirq: Tally,
    softirq_work: HashMap<String, Tally>,
}

/// The tally for `k`, created on first use (no allocation when it exists: `entry` would need
/// an owned key for every sample).
// The key is inserted just above when absent, so the lookup cannot fail; the borrow checker
// does not accept returning the first lookup's borrow instead.
#[allow(clippy::expect_used)]
fn slot<'a>(m: &'a mut HashMap<String, Tally>, k: &str) -> &'a mut Tally {
    if !m.contains_key(k) {
        m.insert(k.to_string(), Tally::default());
    }
    m.get_mut(k).expect("inserted above")
}

impl Acc {
    fn add(&mut self, s: &Sample) {
        match &self.event {
            Some(e) if *e != s.event => return,
            None => self.event = Some(s.event.clone()),
            _ => {}
        }
        let Some(leaf) = s.frames.first() else {
            return;
        };
        self.samples += 1;
        if s.comm.starts_with("swapper") && is_idle_leaf(&leaf.symbol) {
            self.idle += 1;
            return;
        }
        let leaf_sym = base_symbol(&leaf.symbol);
        if is_kernel(leaf.dso_kind()) {
            self.kernel += 1;
        } else {
            self.user += 1;
        }
        let t = slot(&mut self.symbols, leaf_sym);
        self.cited += u64::from(t.add(s.line));
        if t.dso.is_none() {
            t.dso = Some(leaf.dso.clone());
        }
        self.cited += u64::from(slot(&mut self.dsos, &leaf.dso).add(s.line));
        self.cited += u64::from(slot(&mut self.comms, &s.comm).add(s.line));
        // Modules: own (leaf) and inclusive (anywhere on the stack, once per sample).
        let mut seen: Vec<&str> = Vec::new();
        for (i, f) in s.frames.iter().enumerate() {
            // Most frames are in the kernel image or a user DSO path: skip them cheaply.
            if !f.dso.starts_with('[') && !f.dso.contains(".ko") || f.dso == "[kernel.kallsyms]" {
                continue;
            }
            let Some(m) = f.module() else { continue };
            let mt = self.modules.entry(m.to_string()).or_default();
            *mt.functions
                .entry(base_symbol(&f.symbol).to_string())
                .or_default() += 1;
            // The caller: the next frame towards the root that is not in this module.
            if let Some(up) = s.frames[i + 1..].iter().find(|u| u.module() != Some(m)) {
                *mt.callers
                    .entry(base_symbol(&up.symbol).to_string())
                    .or_default() += 1;
            }
            if !seen.contains(&m) {
                seen.push(m);
                mt.incl += 1;
                // Cite the first samples whole enough to read: their header, the module's
                // frames and the frame that called into it.
                if mt.cited < CITE_SAMPLES {
                    mt.cited += 1;
                    self.cited += 1;
                    mt.lines.push(s.line);
                    let mut last_in = 0;
                    for (j, g) in s.frames.iter().enumerate() {
                        if g.module() == Some(m) {
                            mt.lines.push(g.line);
                            last_in = j;
                        }
                    }
                    if let Some(up) = s.frames.get(last_in + 1) {
                        mt.lines.push(up.line);
                    }
                }
                if i == 0 {
                    mt.own += 1;
                }
            }
        }
        if LOCK_FUNCTIONS.contains(&leaf_sym) {
            if self.locks.samples < CITE_SAMPLES as u64 {
                // Header and the frames up to the lock's caller.
                self.cited += 1;
                self.locks.lines.push(s.line);
                for g in &s.frames {
                    self.locks.lines.push(g.line);
                    if !LOCK_FUNCTIONS.contains(&base_symbol(&g.symbol)) {
                        break;
                    }
                }
            }
            self.locks.samples += 1;
            let caller = s
                .frames
                .iter()
                .find(|f| !LOCK_FUNCTIONS.contains(&base_symbol(&f.symbol)));
            if let Some(c) = caller {
                let name = match c.module() {
                    Some(m) => format!("{} [{m}]", base_symbol(&c.symbol)),
                    None => base_symbol(&c.symbol).to_string(),
                };
                self.cited += u64::from(self.lock_callers.entry(name).or_default().add(s.line));
            }
        }
        if SCHED_FUNCTIONS.contains(&leaf_sym) {
            self.cited += u64::from(self.sched.add(s.line));
        }
        if let Some(pos) = s
            .frames
            .iter()
            .position(|f| SOFTIRQ_FUNCTIONS.contains(&base_symbol(&f.symbol)))
        {
            self.cited += u64::from(self.softirq.add(s.line));
            // What the soft-IRQ runs: the frame right below the entry point (leaf side).
            if pos > 0 {
                let below = &s.frames[pos - 1];
                let name = match below.module() {
                    Some(m) => format!("{} [{m}]", base_symbol(&below.symbol)),
                    None => base_symbol(&below.symbol).to_string(),
                };
                self.cited += u64::from(self.softirq_work.entry(name).or_default().add(s.line));
            }
        }
    }

    fn finish(self, folded: Vec<(String, u64)>, dropped: u64) -> Profile {
        let busy = self.samples - self.idle;
        let pct = |n: u64| {
            if busy == 0 {
                0.0
            } else {
                n as f64 * 100.0 / busy as f64
            }
        };
        let top = |m: HashMap<String, Tally>| -> Vec<Share> {
            let mut v: Vec<Share> = m
                .into_iter()
                .map(|(name, t)| Share {
                    name: clip(&name),
                    dso: t.dso.as_deref().map(clip),
                    samples: t.samples,
                    pct: pct(t.samples),
                    lines: t.lines,
                })
                .collect();
            v.sort_by(|a, b| b.samples.cmp(&a.samples).then_with(|| a.name.cmp(&b.name)));
            v.truncate(TOP);
            v
        };
        let ranked = |m: HashMap<String, u64>| -> Vec<String> {
            let mut v: Vec<(String, u64)> = m.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            v.into_iter().take(5).map(|(k, _)| clip(&k)).collect()
        };
        let mut modules: Vec<ModuleHeat> = self
            .modules
            .into_iter()
            .map(|(module, t)| ModuleHeat {
                module: clip(&module),
                self_samples: t.own,
                inclusive_samples: t.incl,
                self_pct: pct(t.own),
                inclusive_pct: pct(t.incl),
                functions: ranked(t.functions),
                called_from: ranked(t.callers),
                lines: t.lines,
            })
            .collect();
        modules.sort_by(|a, b| {
            b.inclusive_samples
                .cmp(&a.inclusive_samples)
                .then_with(|| a.module.cmp(&b.module))
        });
        let cat = |t: Tally, by: Vec<Share>| Category {
            samples: t.samples,
            pct: pct(t.samples),
            lines: t.lines,
            by,
        };
        Profile {
            source_kind: ProfileSource::PerfScript,
            event: self.event,
            samples: self.samples,
            idle_samples: self.idle,
            busy_samples: busy,
            kernel_pct: pct(self.kernel),
            user_pct: pct(self.user),
            top_symbols: top(self.symbols),
            top_dsos: top(self.dsos),
            top_comms: top(self.comms),
            modules,
            locks: cat(self.locks, top(self.lock_callers)),
            sched: cat(self.sched, Vec::new()),
            softirq: cat(self.softirq, top(self.softirq_work)),
            folded,
            folded_dropped: dropped,
        }
    }
}

/// Input lines kept for citing: `(1-based line, text)`, ascending.
pub type KeptLines = Vec<(usize, String)>;

/// Lines of a streamed `perf script` kept for citing, at most.
pub const KEPT_LINES: usize = 20_000;
/// Bytes of recent input a streamed read remembers (a whole sample is always among them); it
/// holds up to twice that between trims.
const RECENT_BYTES: usize = 4 << 20;
/// A remembered line is cut to this many bytes.
const LINE_BYTES: usize = 4096;

/// What the streamed read remembers: the most recent input bytes with their line starts, the
/// kept lines, and the line ranges of cited samples still to copy.
#[derive(Default)]
struct Memory {
    /// Recent input, whole lines (plus the line being read at the end).
    bytes: Vec<u8>,
    /// `(line number, offset in bytes)` of each complete line in `bytes`.
    starts: std::collections::VecDeque<(usize, usize)>,
    /// Lines seen so far.
    line: usize,
    /// Offset in `bytes` where the line being read starts.
    open: usize,
    kept: std::collections::BTreeMap<usize, String>,
    pending: Vec<(usize, usize)>,
}

impl Memory {
    /// Appends input and numbers its lines, keeping at most [`LINE_BYTES`] of each line (a line
    /// without an end cannot grow the memory); drops the oldest lines beyond [`RECENT_BYTES`].
    fn push(&mut self, chunk: &[u8]) {
        for piece in chunk.split_inclusive(|&b| b == b'\n') {
            let ends = piece.last() == Some(&b'\n');
            let body = if ends {
                &piece[..piece.len() - 1]
            } else {
                piece
            };
            let room = LINE_BYTES.saturating_sub(self.bytes.len() - self.open);
            self.bytes.extend_from_slice(&body[..body.len().min(room)]);
            if ends {
                self.bytes.push(b'\n');
                self.line += 1;
                self.starts.push_back((self.line, self.open));
                self.open = self.bytes.len();
            }
        }
        if self.bytes.len() > 2 * RECENT_BYTES {
            self.settle();
            // Keep the last RECENT_BYTES worth of whole lines and the open line.
            let cut = self
                .starts
                .iter()
                .map(|&(_, o)| o)
                .find(|&o| self.bytes.len() - o <= RECENT_BYTES)
                .unwrap_or(self.open);
            self.bytes.drain(..cut);
            self.open -= cut;
            while self.starts.front().is_some_and(|&(_, o)| o < cut) {
                self.starts.pop_front();
            }
            for s in self.starts.iter_mut() {
                s.1 -= cut;
            }
        }
    }

    /// The text of a remembered complete line.
    fn text(&self, idx: usize) -> Option<String> {
        let (_, from) = *self.starts.get(idx)?;
        let to = self
            .starts
            .get(idx + 1)
            .map(|&(_, o)| o)
            .unwrap_or(self.open);
        let raw = &self.bytes[from..to.min(self.bytes.len())];
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let raw = &raw[..raw.len().min(LINE_BYTES)];
        Some(String::from_utf8_lossy(raw).replace('\0', "\u{FFFD}"))
    }

    /// Copies the pending ranges' lines into the kept ones.
    fn settle(&mut self) {
        for (from, to) in std::mem::take(&mut self.pending) {
            let Some(first) = self.starts.front().map(|&(n, _)| n) else {
                continue;
            };
            for n in from.max(first)..=to {
                if self.kept.len() >= KEPT_LINES {
                    return;
                }
                if self.kept.contains_key(&n) {
                    continue;
                }
                if let Some(t) = self.text(n - first) {
                    self.kept.insert(n, t);
                }
            }
        }
    }
}

/// A [`BufRead`](std::io::BufRead) that remembers the most recent input it passes on, so that
/// the lines of a sample can be kept after the sample was parsed.
struct Recorder<'a> {
    inner: &'a mut dyn std::io::BufRead,
    mem: std::rc::Rc<std::cell::RefCell<Memory>>,
}

impl std::io::Read for Recorder<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl std::io::BufRead for Recorder<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        {
            let mut mem = self.mem.borrow_mut();
            if !mem.pending.is_empty() {
                mem.settle();
            }
            if let Ok(b) = self.inner.fill_buf() {
                mem.push(&b[..amt.min(b.len())]);
            }
        }
        self.inner.consume(amt);
    }
}

/// Reads a `perf script` output from a stream into a [`Profile`] without holding it: memory
/// stays bounded by the folding caps and the 8 MiB of recent lines kept to copy cited samples
/// from. Returns the profile and the input lines its citations point at (`(line, text)`,
/// ascending, at most [`KEPT_LINES`]), which stand in for the text in evidence excerpts.
///
/// Errors: as [`from_script`].
pub fn from_reader(
    r: &mut dyn std::io::BufRead,
) -> Result<(Parsed<Profile>, KeptLines), ParseError> {
    let mem = std::rc::Rc::new(std::cell::RefCell::new(Memory::default()));
    let mut rec = Recorder {
        inner: r,
        mem: mem.clone(),
    };
    let mut acc = Acc::default();
    let mut collapser = collapser();
    let summary = perf::script::for_each_sample(&mut rec, |smp| {
        let before = acc.cited;
        acc.add(smp);
        collapser.add(smp);
        if acc.cited > before {
            let last = smp.frames.last().map(|f| f.line).unwrap_or(smp.line);
            mem.borrow_mut().pending.push((smp.line, last));
        }
    })?;
    drop(rec);
    let kept: Vec<(usize, String)> = {
        let mut m = mem.borrow_mut();
        // The last line may lack its newline.
        if m.open < m.bytes.len() {
            m.push(b"\n");
        }
        m.settle();
        std::mem::take(&mut m.kept).into_iter().collect()
    };
    let p = finish_parse(acc, collapser, summary)?;
    Ok((p, kept))
}

/// Reads a `perf script` output into a [`Profile`], one sample at a time.
///
/// Errors: [`ParseError::Unusable`] when no sample is found. Lines the reader skips and folding
/// caps become issues.
pub fn from_script(text: &str) -> Result<Parsed<Profile>, ParseError> {
    let mut acc = Acc::default();
    let mut collapser = collapser();
    let summary = perf::script::for_each_sample(text.as_bytes(), |s| {
        acc.add(s);
        collapser.add(s);
    })?;
    finish_parse(acc, collapser, summary)
}

/// The folding the flame graph is drawn from: one count per sample, kernel frames marked `_[k]`.
fn collapser() -> Collapser {
    Collapser::new(CollapseOptions {
        weight: Weight::Samples,
        annotate_kernel: true,
        ..Default::default()
    })
}

fn finish_parse(
    acc: Acc,
    collapser: Collapser,
    summary: Parsed<perf::script::Summary>,
) -> Result<Parsed<Profile>, ParseError> {
    let folded = collapser.finish();
    if acc.samples == 0 {
        return Err(ParseError::unusable(
            None,
            "no sample with a call chain or a leaf frame",
        ));
    }
    let mut issues: Vec<LineIssue> = summary.issues;
    issues.extend(folded.issues);
    let dropped = folded.value.dropped_samples;
    let stacks = folded
        .value
        .sorted()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    Ok(Parsed {
        value: acc.finish(stacks, dropped),
        issues,
    })
}

/// A [`Profile`] from `perf report --stdio` when there is no `perf script`: top symbols, DSOs
/// and commands from the first event's entries (self %), module self shares, and the lock
/// slow-path share. No stacks: no callers, no flame graph, no inclusive module share.
pub fn from_report(r: &crate::perf::report::PerfReport) -> Option<Profile> {
    let ev = r.events.first()?;
    let total = ev.samples.unwrap_or(0);
    let mut p = Profile {
        source_kind: ProfileSource::PerfReport,
        event: ev.event.clone(),
        samples: total,
        busy_samples: total,
        ..Default::default()
    };
    let mut syms: HashMap<String, Share> = HashMap::new();
    let mut dsos: HashMap<String, Share> = HashMap::new();
    let mut comms: HashMap<String, Share> = HashMap::new();
    let mut mods: HashMap<String, ModuleHeat> = HashMap::new();
    for e in &ev.entries {
        let pct = e.self_pct.or(e.children_pct).unwrap_or(0.0);
        // A share outside 0–100 % is a corrupt row, not a measurement.
        if !(0.0..=100.01).contains(&pct) {
            continue;
        }
        let add = |m: &mut HashMap<String, Share>, k: &str, dso: Option<&str>| {
            let s = m.entry(k.to_string()).or_insert_with(|| Share {
                name: clip(k),
                dso: dso.map(clip),
                ..Default::default()
            });
            s.pct += pct;
            if s.lines.len() < CITE {
                s.lines.push(e.line);
            }
        };
        if let Some(sym) = &e.symbol {
            let b = base_symbol(sym);
            add(&mut syms, b, e.dso.as_deref());
            if LOCK_FUNCTIONS.contains(&b) {
                p.locks.pct += pct;
                if p.locks.lines.len() < CITE {
                    p.locks.lines.push(e.line);
                }
            }
            if SCHED_FUNCTIONS.contains(&b) {
                p.sched.pct += pct;
                if p.sched.lines.len() < CITE {
                    p.sched.lines.push(e.line);
                }
            }
        }
        if let Some(d) = &e.dso {
            add(&mut dsos, d, None);
            if e.dso_kind().is_some_and(is_kernel) {
                p.kernel_pct += pct;
            } else {
                p.user_pct += pct;
            }
            if let Some(m) = perf::script::module_name(d) {
                let h = mods.entry(m.to_string()).or_insert_with(|| ModuleHeat {
                    module: m.to_string(),
                    ..Default::default()
                });
                h.self_pct += pct;
                h.inclusive_pct += pct;
                if let Some(sym) = &e.symbol {
                    if h.functions.len() < 5 {
                        h.functions.push(base_symbol(sym).to_string());
                    }
                }
                if h.lines.len() < CITE {
                    h.lines.push(e.line);
                }
            }
        }
        if let Some(c) = &e.comm {
            add(&mut comms, c, None);
        }
    }
    let finish = |m: HashMap<String, Share>| {
        let mut v: Vec<Share> = m
            .into_values()
            .map(|mut s| {
                s.samples = (s.pct * total as f64 / 100.0).round() as u64;
                s
            })
            .collect();
        v.sort_by(|a, b| b.pct.total_cmp(&a.pct).then_with(|| a.name.cmp(&b.name)));
        v.truncate(TOP);
        v
    };
    p.top_symbols = finish(syms);
    p.top_dsos = finish(dsos);
    p.top_comms = finish(comms);
    let mut modules: Vec<ModuleHeat> = mods.into_values().collect();
    modules.sort_by(|a, b| b.self_pct.total_cmp(&a.self_pct));
    p.modules = modules;
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_suffixes_are_dropped_for_matching() {
        assert_eq!(
            base_symbol("finish_task_switch.isra.0"),
            "finish_task_switch"
        );
        assert_eq!(base_symbol("_raw_spin_lock+0x1a"), "_raw_spin_lock");
        assert_eq!(base_symbol("[unknown]"), "[unknown]");
        assert_eq!(base_symbol(".hidden"), ".hidden");
    }

    #[test]
    fn garbage_is_unusable_not_a_panic() {
        assert!(from_script("").is_err());
        assert!(from_script("hello\nworld\n").is_err());
    }
}
