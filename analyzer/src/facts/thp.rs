//! Transparent huge page and memory compaction facts: the THP settings in force and the
//! compaction and THP allocation counters of `/proc/vmstat`.
//!
//! In: the `thp` artifact (`enabled`, `defrag`) and the `/proc/vmstat` snapshots. Out: [`Thp`].
//! Counters change over the window when two timed snapshots exist, else they count since boot
//! (`seconds: None`). Their meaning is the kernel's `Documentation/admin-guide/mm/transhuge.rst`
//! ("Monitoring usage") and `mm/vmstat.c`: `compact_stall` counts allocations that entered
//! direct compaction (the allocating task does the work, in its page fault or system call),
//! `compact_fail` / `compact_success` how those ended, `thp_fault_alloc` huge pages a fault got,
//! `thp_fault_fallback` faults that fell back to small pages, `thp_collapse_alloc` huge pages
//! khugepaged built.

use super::snapshots::counter_change;
use super::CounterChange;
use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::host::thp::{Thp as ThpSettings, ThpChoice};
use parsers::kind;
use parsers::proc::vmstat::ProcVmstat;
use serde::Serialize;

/// THP settings and compaction counters of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Thp {
    /// `transparent_hugepage/enabled` in force: `always`, `madvise` or `never`.
    pub enabled: Option<Cited<String>>,
    /// `transparent_hugepage/defrag` in force: `always`, `defer`, `defer+madvise`, `madvise`
    /// or `never`.
    pub defrag: Option<Cited<String>>,
    /// `compact_stall`: allocations that stalled in direct compaction.
    pub compact_stall: Option<Cited<CounterChange>>,
    /// `compact_fail`: direct compactions that freed no suitable block.
    pub compact_fail: Option<Cited<CounterChange>>,
    /// `compact_success`: direct compactions that did.
    pub compact_success: Option<Cited<CounterChange>>,
    /// `thp_fault_alloc`: huge pages allocated at a page fault.
    pub thp_fault_alloc: Option<Cited<CounterChange>>,
    /// `thp_fault_fallback`: page faults that wanted a huge page and fell back to small pages.
    pub thp_fault_fallback: Option<Cited<CounterChange>>,
    /// `thp_collapse_alloc`: huge pages allocated by khugepaged to collapse small ones.
    pub thp_collapse_alloc: Option<Cited<CounterChange>>,
}

/// One `/proc/vmstat` counter over the window, else since boot.
fn vm(
    c: &Collected,
    read: fn(&ProcVmstat) -> Option<(u64, usize)>,
) -> Option<Cited<CounterChange>> {
    counter_change::<ProcVmstat>(c, &kind::PROC_VMSTAT, read)
}

/// `name`'s value and line in one snapshot.
fn get(v: &ProcVmstat, name: &str) -> Option<(u64, usize)> {
    v.counters
        .iter()
        .find(|c| c.name == name)
        .map(|c| (c.value, c.line))
}

/// Builds the THP facts.
pub fn build(c: &Collected) -> Thp {
    let mut t = Thp::default();
    if let Some((a, s)) = c.records::<ThpSettings>().next() {
        t.enabled = s
            .enabled
            .as_ref()
            .map(|e| Cited::new(e.selected.clone(), &a.path, e.line));
        t.defrag = s
            .defrag
            .as_ref()
            .map(|e| Cited::new(e.selected.clone(), &a.path, e.line));
    }
    // Else the settings files copied alone (sosreport), each named by its path.
    for (a, ch) in c.records::<ThpChoice>() {
        let cited = Some(Cited::new(ch.selected.clone(), &a.path, ch.line));
        // The layout placed it by a name ending in `enabled` or `defrag`
        // (`…/transparent_hugepage/enabled`, `thp_defrag.txt`).
        let name = a.path.trim_end_matches(".txt");
        if name.ends_with("enabled") && t.enabled.is_none() {
            t.enabled = cited;
        } else if name.ends_with("defrag") && t.defrag.is_none() {
            t.defrag = cited;
        }
    }
    t.compact_stall = vm(c, |v| get(v, "compact_stall"));
    t.compact_fail = vm(c, |v| get(v, "compact_fail"));
    t.compact_success = vm(c, |v| get(v, "compact_success"));
    t.thp_fault_alloc = vm(c, |v| get(v, "thp_fault_alloc"));
    t.thp_fault_fallback = vm(c, |v| get(v, "thp_fault_fallback"));
    t.thp_collapse_alloc = vm(c, |v| get(v, "thp_collapse_alloc"));
    t
}
