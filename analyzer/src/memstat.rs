//! Heap accounting of one analysis, for measuring where its memory goes: built only with the
//! cargo feature `mem-stats` (`cargo build --release -p rca --features mem-stats`); without it
//! every function here is an empty inline call.
//!
//! In: the stages of the analysis marking their ends ([`stage`]), parsers' allocations measured
//! on their own thread ([`held`]) and attributed to a kind ([`record`]). Out, on standard error
//! when `RCA_MEM_STATS` is set: one line per stage with the heap live at its end and the
//! highest heap seen during it, then a table of the records' heap per kind beside the size of
//! their text. All sizes are bytes of heap requested from the allocator (what the program asked
//! for, not the allocator's own overhead nor the pages it keeps: RSS is larger).

#[cfg(feature = "mem-stats")]
mod imp {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;
    use std::collections::BTreeMap;
    use std::fmt::Write;
    use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};
    use std::sync::Mutex;

    /// The system allocator, counting what it hands out.
    pub struct Counting;

    static LIVE: AtomicIsize = AtomicIsize::new(0);
    static PEAK: AtomicIsize = AtomicIsize::new(0);

    thread_local! {
        /// Bytes allocated minus bytes freed by this thread.
        static NET: Cell<isize> = const { Cell::new(0) };
    }

    fn count(n: isize) {
        let live = LIVE.fetch_add(n, Relaxed) + n;
        if n > 0 {
            PEAK.fetch_max(live, Relaxed);
        }
        let _ = NET.try_with(|c| c.set(c.get() + n));
    }

    // SAFETY: every call is forwarded to `System` unchanged; only counters are updated.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            count(l.size() as isize);
            // SAFETY: the caller's contract is `System`'s.
            unsafe { System.alloc(l) }
        }
        unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
            count(l.size() as isize);
            // SAFETY: as above.
            unsafe { System.alloc_zeroed(l) }
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            count(-(l.size() as isize));
            // SAFETY: as above.
            unsafe { System.dealloc(p, l) }
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            count(new as isize - l.size() as isize);
            // SAFETY: as above.
            unsafe { System.realloc(p, l, new) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    fn on() -> bool {
        std::env::var_os("RCA_MEM_STATS").is_some()
    }

    fn mib(n: isize) -> f64 {
        n as f64 / (1 << 20) as f64
    }

    /// Per kind: (artifacts, text bytes, record heap bytes).
    static KINDS: Mutex<BTreeMap<&'static str, (usize, u64, isize)>> = Mutex::new(BTreeMap::new());
    /// Named high-water marks.
    static MAXES: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

    /// Marks the end of stage `name` (see the module docs).
    pub fn stage(name: &str) {
        if !on() {
            return;
        }
        let live = LIVE.load(Relaxed);
        let peak = PEAK.swap(live, Relaxed);
        crate::console::error_text(&format!(
            "mem-stats stage {name:<10} live {:>9.1} MiB  peak during {:>9.1} MiB\n",
            mib(live),
            mib(peak)
        ));
    }

    /// `f`'s result and the bytes this thread allocated in it and did not free.
    pub fn held<T>(f: impl FnOnce() -> T) -> (T, isize) {
        let before = NET.with(Cell::get);
        let out = f();
        (out, NET.with(Cell::get) - before)
    }

    /// Counts one artifact of `kind`: its text and record sizes.
    pub fn record(kind: &'static str, text: u64, heap: isize) {
        let mut k = KINDS.lock().unwrap_or_else(|e| e.into_inner());
        let e = k.entry(kind).or_default();
        e.0 += 1;
        e.1 += text;
        e.2 += heap;
    }

    /// Raises the high-water mark `name` to `v` if higher.
    pub fn high(name: &'static str, v: u64) {
        let mut m = MAXES.lock().unwrap_or_else(|e| e.into_inner());
        let e = m.entry(name).or_default();
        *e = (*e).max(v);
    }

    /// Prints the per-kind table and the high-water marks.
    pub fn table() {
        if !on() {
            return;
        }
        let mut err = String::new();
        let kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(
            err,
            "mem-stats {:<22} {:>6} {:>10} {:>11} {:>6}",
            "kind", "files", "text MiB", "record MiB", "ratio"
        );
        let mut rows: Vec<_> = kinds.iter().collect();
        rows.sort_by_key(|(_, v)| -v.2);
        let (mut t, mut h) = (0u64, 0isize);
        for (k, (n, text, heap)) in rows {
            t += text;
            h += heap;
            let _ = writeln!(
                err,
                "mem-stats {k:<22} {n:>6} {:>10.1} {:>11.1} {:>6.2}",
                mib(*text as isize),
                mib(*heap),
                *heap as f64 / (*text).max(1) as f64
            );
        }
        let _ = writeln!(
            err,
            "mem-stats {:<22} {:>6} {:>10.1} {:>11.1} {:>6.2}",
            "all",
            "",
            mib(t as isize),
            mib(h),
            h as f64 / t.max(1) as f64
        );
        for (name, v) in MAXES.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(err, "mem-stats max {name}: {:.1} MiB", mib(*v as isize));
        }
        crate::console::error_text(&err);
    }
}

#[cfg(feature = "mem-stats")]
pub use imp::{held, high, record, stage, table};

/// Marks the end of stage `name`: prints the heap live now and the highest since the last mark.
#[cfg(not(feature = "mem-stats"))]
#[inline(always)]
pub fn stage(_name: &str) {}

/// Runs `f`, returning its result and the bytes this thread allocated in it and did not free.
#[cfg(not(feature = "mem-stats"))]
#[inline(always)]
pub fn held<T>(f: impl FnOnce() -> T) -> (T, isize) {
    (f(), 0)
}

/// Counts one artifact of `kind` with `text` bytes of text whose record holds `heap` bytes.
#[cfg(not(feature = "mem-stats"))]
#[inline(always)]
pub fn record(_kind: &'static str, _text: u64, _heap: isize) {}

/// Raises the high-water mark `name` to `v` bytes if higher.
#[cfg(not(feature = "mem-stats"))]
#[inline(always)]
pub fn high(_name: &'static str, _v: u64) {}

/// Prints the per-kind record table and the high-water marks.
#[cfg(not(feature = "mem-stats"))]
#[inline(always)]
pub fn table() {}
