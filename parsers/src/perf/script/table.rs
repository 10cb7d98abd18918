//! The samples of a whole `perf script` text held compactly ([`PerfScript`], what
//! [`parse`](super::parse) returns).
//!
//! In: the header fields and frames [`Stream`](super::Stream) reads. Out: every sample in input
//! order, with each distinct string (command, event, symbol, DSO, tracepoint detail) kept once,
//! each distinct frame (address, symbol, offset, DSO) kept once and referred to by a `u32`
//! index, each distinct call chain kept once as a list of frame indices, and frame line numbers
//! derived from the first frame's line (frames follow their header line by line; a sample
//! whose frame lines have gaps keeps its own list). A sample costs 64 bytes whatever its depth;
//! a repeated call chain costs nothing more. [`SampleRef`] and [`FrameRef`] are borrowed views;
//! the record serialises exactly as a list of [`Sample`]s with their [`Frame`]s would.

use super::{classify_dso, module_name, DsoKind, Frame, FrameParts, Header, Sample, Sink, Summary};
use hashbrown::HashTable;
use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

/// One sample: indices into the tables of its [`PerfScript`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SampleRec {
    time_ns: Option<u64>,
    period: Option<u64>,
    pid: Option<u32>,
    tid: Option<u32>,
    cpu: Option<u32>,
    comm: u32,
    event: u32,
    detail: u32,
    /// Index of its call chain in `stack_starts`.
    stack: u32,
    /// 1-based input line of the header.
    line: u32,
    /// 1-based input line of the first frame, the others following line by line; 0 when the
    /// lines are irregular (then in `odd_lines`) or there is no frame.
    frame_line: u32,
}

/// One distinct frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct FrameRec {
    address: Option<u64>,
    offset: Option<u64>,
    symbol: u32,
    dso: u32,
}

/// Every sample of a `perf script` text, in input order, and the summary.
///
/// Built by [`parse`](super::parse); read with [`PerfScript::iter`], [`PerfScript::get`] or
/// [`PerfScript::to_samples`]. Serialises as `{"samples": [Sample…], "summary": Summary}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerfScript {
    /// Counts over the input.
    pub summary: Summary,
    samples: Vec<SampleRec>,
    frames: Vec<FrameRec>,
    /// Call chain `k` is `stack_frames[stack_starts[k]..stack_starts[k + 1]]`, leaf first.
    stack_starts: Vec<u32>,
    stack_frames: Vec<u32>,
    strings: Vec<Box<str>>,
    /// Frame lines of the samples whose frames are not on consecutive lines, by sample index
    /// (ascending).
    odd_lines: Vec<(u32, Box<[u32]>)>,
}

/// A sample of a [`PerfScript`], borrowed; the fields are those of [`Sample`].
#[derive(Debug, Clone, Copy)]
pub struct SampleRef<'a> {
    /// Command name, as in [`Sample::comm`].
    pub comm: &'a str,
    /// Process id, as in [`Sample::pid`].
    pub pid: Option<u32>,
    /// Thread id, as in [`Sample::tid`].
    pub tid: Option<u32>,
    /// CPU, as in [`Sample::cpu`].
    pub cpu: Option<u32>,
    /// Time stamp, ns, as in [`Sample::time_ns`].
    pub time_ns: Option<u64>,
    /// Sample period, as in [`Sample::period`].
    pub period: Option<u64>,
    /// Event name, as in [`Sample::event`].
    pub event: &'a str,
    /// Text after the event name, as in [`Sample::detail`].
    pub detail: &'a str,
    /// 1-based input line of the header.
    pub line: usize,
    table: &'a PerfScript,
    index: usize,
    stack: usize,
    frame_line: usize,
}

/// A frame of a [`SampleRef`], borrowed; the fields are those of [`Frame`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRef<'a> {
    /// Instruction address, as in [`Frame::address`].
    pub address: Option<u64>,
    /// Symbol without offset, as in [`Frame::symbol`].
    pub symbol: &'a str,
    /// Offset into the symbol, bytes, as in [`Frame::offset`].
    pub offset: Option<u64>,
    /// DSO without the parentheses, as in [`Frame::dso`].
    pub dso: &'a str,
    /// 1-based input line.
    pub line: usize,
}

impl PerfScript {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// `true` when there is no sample.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The `i`-th sample (0-based, input order).
    pub fn get(&self, i: usize) -> Option<SampleRef<'_>> {
        Some(self.view(i, self.samples.get(i)?))
    }

    fn view<'a>(&'a self, i: usize, r: &SampleRec) -> SampleRef<'a> {
        let s = |id: u32| self.str(id);
        SampleRef {
            comm: s(r.comm),
            pid: r.pid,
            tid: r.tid,
            cpu: r.cpu,
            time_ns: r.time_ns,
            period: r.period,
            event: s(r.event),
            detail: s(r.detail),
            line: r.line as usize,
            table: self,
            index: i,
            stack: r.stack as usize,
            frame_line: r.frame_line as usize,
        }
    }

    /// Every sample in input order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = SampleRef<'_>> + '_ {
        self.samples
            .iter()
            .enumerate()
            .map(|(i, r)| self.view(i, r))
    }

    /// Every sample as an owned [`Sample`] (one `String` per field and frame: for small inputs
    /// and tests).
    pub fn to_samples(&self) -> Vec<Sample> {
        self.iter().map(|s| s.to_sample()).collect()
    }

    /// Number of distinct frames (address, symbol, offset, DSO) over all samples.
    pub fn distinct_frames(&self) -> usize {
        self.frames.len()
    }

    /// Number of distinct call chains over all samples.
    pub fn distinct_stacks(&self) -> usize {
        self.stack_starts.len().saturating_sub(1)
    }

    fn stack(&self, k: usize) -> &[u32] {
        let (Some(&a), Some(&b)) = (self.stack_starts.get(k), self.stack_starts.get(k + 1)) else {
            return &[];
        };
        self.stack_frames.get(a as usize..b as usize).unwrap_or(&[])
    }

    fn str(&self, id: u32) -> &str {
        self.strings.get(id as usize).map_or("", |t| t)
    }
}

impl<'a> SampleRef<'a> {
    /// Number of frames of the call chain.
    pub fn frame_count(&self) -> usize {
        self.table.stack(self.stack).len()
    }

    /// The `i`-th frame, leaf (the sampled instruction) first.
    pub fn frame(&self, i: usize) -> Option<FrameRef<'a>> {
        let id = *self.table.stack(self.stack).get(i)?;
        self.frame_at(i, id, self.odd_lines())
    }

    /// The frame lines of a sample whose frames are not on consecutive lines.
    fn odd_lines(&self) -> Option<&'a [u32]> {
        if self.frame_line > 0 {
            return None;
        }
        let odd = &self.table.odd_lines;
        let at = odd
            .binary_search_by_key(&self.index, |(k, _)| *k as usize)
            .ok()?;
        odd.get(at).map(|(_, l)| &**l)
    }

    fn frame_at(&self, i: usize, id: u32, odd: Option<&[u32]>) -> Option<FrameRef<'a>> {
        let t = self.table;
        let f = t.frames.get(id as usize)?;
        let line = match odd {
            Some(lines) => *lines.get(i)? as usize,
            None => self.frame_line + i,
        };
        Some(FrameRef {
            address: f.address,
            symbol: t.str(f.symbol),
            offset: f.offset,
            dso: t.str(f.dso),
            line,
        })
    }

    /// The call chain, leaf first.
    pub fn frames(&self) -> impl Iterator<Item = FrameRef<'a>> + 'a {
        let this = *self;
        let odd = self.odd_lines();
        self.table
            .stack(self.stack)
            .iter()
            .enumerate()
            .filter_map(move |(i, &id)| this.frame_at(i, id, odd))
    }

    /// The sample as an owned [`Sample`].
    pub fn to_sample(&self) -> Sample {
        Sample {
            comm: self.comm.to_string(),
            pid: self.pid,
            tid: self.tid,
            cpu: self.cpu,
            time_ns: self.time_ns,
            period: self.period,
            event: self.event.to_string(),
            detail: self.detail.to_string(),
            frames: self.frames().map(|f| f.to_frame()).collect(),
            line: self.line,
        }
    }
}

impl FrameRef<'_> {
    /// What the frame's DSO is (see [`classify_dso`]).
    pub fn dso_kind(&self) -> DsoKind {
        classify_dso(self.dso)
    }

    /// The kernel module the frame runs in, if any (see [`module_name`]).
    pub fn module(&self) -> Option<&str> {
        module_name(self.dso)
    }

    /// The frame as an owned [`Frame`].
    pub fn to_frame(&self) -> Frame {
        Frame {
            address: self.address,
            symbol: self.symbol.to_string(),
            offset: self.offset,
            dso: self.dso.to_string(),
            line: self.line,
        }
    }
}

impl Serialize for FrameRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Frame", 5)?;
        st.serialize_field("address", &self.address)?;
        st.serialize_field("symbol", self.symbol)?;
        st.serialize_field("offset", &self.offset)?;
        st.serialize_field("dso", self.dso)?;
        st.serialize_field("line", &self.line)?;
        st.end()
    }
}

/// The frames of one sample, serialised as a sequence.
struct FramesOf<'a>(SampleRef<'a>);

impl Serialize for FramesOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.frame_count()))?;
        for f in self.0.frames() {
            seq.serialize_element(&f)?;
        }
        seq.end()
    }
}

impl Serialize for SampleRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Sample", 10)?;
        st.serialize_field("comm", self.comm)?;
        st.serialize_field("pid", &self.pid)?;
        st.serialize_field("tid", &self.tid)?;
        st.serialize_field("cpu", &self.cpu)?;
        st.serialize_field("time_ns", &self.time_ns)?;
        st.serialize_field("period", &self.period)?;
        st.serialize_field("event", self.event)?;
        st.serialize_field("detail", self.detail)?;
        st.serialize_field("frames", &FramesOf(*self))?;
        st.serialize_field("line", &self.line)?;
        st.end()
    }
}

/// The samples, serialised as a sequence.
struct SamplesOf<'a>(&'a PerfScript);

impl Serialize for SamplesOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for smp in self.0.iter() {
            seq.serialize_element(&smp)?;
        }
        seq.end()
    }
}

impl Serialize for PerfScript {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("PerfScript", 2)?;
        st.serialize_field("samples", &SamplesOf(self))?;
        st.serialize_field("summary", &self.summary)?;
        st.end()
    }
}

/// A table index: the inputs [`parse`](super::parse) accepts (under 4 GiB) never need more than
/// 32 bits; the conversion saturates rather than fail.
fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Builds a [`PerfScript`] from the stream of headers and frames.
#[derive(Default)]
pub(super) struct TableSink {
    out: PerfScript,
    hasher: ahash::RandomState,
    /// Interned strings, by text.
    string_index: HashTable<u32>,
    /// Distinct frames, by value.
    frame_index: HashTable<u32>,
    /// Frame lines already read (trimmed text) → frame index.
    line_index: HashTable<(u32, u32)>,
    line_texts: Vec<Box<str>>,
    /// Distinct call chains, by their frame indices.
    stack_index: HashTable<u32>,
    /// A frame line that `known_frame` did not know, kept to be learnt when it is parsed.
    missed: Option<(usize, u64, Box<str>)>,
    /// The current sample.
    cur: Option<SampleRec>,
    cur_frames: Vec<u32>,
    cur_lines: Vec<u32>,
}

impl TableSink {
    fn string(&mut self, s: &str) -> u32 {
        let h = self.hasher.hash_one(s);
        let texts = &mut self.out.strings;
        if let Some(&id) = self.string_index.find(h, |&id| &*texts[id as usize] == s) {
            return id;
        }
        let id = idx(texts.len());
        texts.push(s.into());
        let hasher = &self.hasher;
        self.string_index
            .insert_unique(h, id, |&id| hasher.hash_one(&*texts[id as usize]));
        id
    }

    fn frame_id(&mut self, parts: &FrameParts<'_>) -> u32 {
        let rec = FrameRec {
            address: parts.address,
            offset: parts.offset,
            symbol: self.string(parts.symbol),
            dso: self.string(parts.dso),
        };
        let h = self.hasher.hash_one(rec);
        let frames = &mut self.out.frames;
        if let Some(&id) = self.frame_index.find(h, |&id| frames[id as usize] == rec) {
            return id;
        }
        let id = idx(frames.len());
        frames.push(rec);
        let hasher = &self.hasher;
        self.frame_index
            .insert_unique(h, id, |&id| hasher.hash_one(frames[id as usize]));
        id
    }

    fn push(&mut self, id: u32, line: usize) {
        self.cur_frames.push(id);
        self.cur_lines.push(idx(line));
    }

    /// The [`PerfScript`] with the summary of the stream.
    pub(super) fn finish(mut self, summary: Summary) -> PerfScript {
        self.out.summary = summary;
        if self.out.stack_starts.is_empty() {
            self.out.stack_starts.push(0);
        }
        let out = &mut self.out;
        out.samples.shrink_to_fit();
        out.frames.shrink_to_fit();
        out.stack_starts.shrink_to_fit();
        out.stack_frames.shrink_to_fit();
        out.strings.shrink_to_fit();
        self.out
    }
}

impl Sink for TableSink {
    fn start(&mut self, h: &Header<'_>, line: usize) {
        let rec = SampleRec {
            time_ns: h.time_ns,
            period: h.period,
            pid: h.pid,
            tid: h.tid,
            cpu: h.cpu,
            comm: self.string(h.comm),
            event: self.string(h.event),
            detail: self.string(h.detail),
            stack: 0,
            line: idx(line),
            frame_line: 0,
        };
        self.cur = Some(rec);
        self.cur_frames.clear();
        self.cur_lines.clear();
        self.missed = None;
    }

    fn frame(&mut self, parts: &FrameParts<'_>, line: usize) {
        let id = self.frame_id(parts);
        if let Some((at, h, text)) = self.missed.take() {
            if at == line {
                let key = idx(self.line_texts.len());
                self.line_texts.push(text);
                let (texts, hasher) = (&self.line_texts, &self.hasher);
                self.line_index
                    .insert_unique(h, (key, id), |&(k, _)| hasher.hash_one(&*texts[k as usize]));
            }
        }
        self.push(id, line);
    }

    fn known_frame(&mut self, trimmed: &str, line: usize) -> bool {
        let h = self.hasher.hash_one(trimmed);
        let texts = &self.line_texts;
        match self
            .line_index
            .find(h, |&(k, _)| &*texts[k as usize] == trimmed)
        {
            Some(&(_, id)) => {
                self.push(id, line);
                true
            }
            None => {
                self.missed = Some((line, h, trimmed.into()));
                false
            }
        }
    }

    fn emit(&mut self) {
        let Some(mut rec) = self.cur.take() else {
            return;
        };
        let cur = &self.cur_frames;
        let h = self.hasher.hash_one(cur.as_slice());
        let out = &mut self.out;
        if out.stack_starts.is_empty() {
            out.stack_starts.push(0);
        }
        let stack_of = |starts: &[u32], k: u32| -> std::ops::Range<usize> {
            let k = k as usize;
            starts[k] as usize..starts[k + 1] as usize
        };
        let found = self.stack_index.find(h, |&k| {
            out.stack_frames[stack_of(&out.stack_starts, k)] == cur[..]
        });
        rec.stack = match found {
            Some(&k) => k,
            None => {
                let k = idx(out.stack_starts.len() - 1);
                out.stack_frames.extend_from_slice(cur);
                out.stack_starts.push(idx(out.stack_frames.len()));
                let (hasher, starts, frames) = (&self.hasher, &out.stack_starts, &out.stack_frames);
                self.stack_index
                    .insert_unique(h, k, |&k| hasher.hash_one(&frames[stack_of(starts, k)]));
                k
            }
        };
        if let Some(&first) = self.cur_lines.first() {
            let regular = first > 0
                && self
                    .cur_lines
                    .iter()
                    .enumerate()
                    .all(|(i, &l)| u64::from(l) == u64::from(first) + i as u64);
            if regular {
                rec.frame_line = first;
            } else {
                let i = idx(out.samples.len());
                out.odd_lines.push((i, self.cur_lines.as_slice().into()));
            }
        }
        out.samples.push(rec);
    }

    fn discard(&mut self) {
        self.cur = None;
        self.cur_frames.clear();
        self.cur_lines.clear();
    }
}
