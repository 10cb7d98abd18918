//! `/proc/meminfo`: memory usage, one `Name:  value kB` line per counter.
//!
//! Units: the kernel's `kB` is KiB (1024 bytes). The `HugePages_Total`, `HugePages_Free`,
//! `HugePages_Rsvd` and `HugePages_Surp` lines have no unit: they count huge pages (of
//! `Hugepagesize` each), they are not sizes. Fields absent on older kernels (`MemAvailable`
//! before 3.14, `KReclaimable` before 4.20) are `None`; every line, known or not, is also kept
//! in [`Meminfo::entries`].
//!
//! Sample input (RHEL 7):
//! ```text
//! MemTotal:        8009912 kB
//! MemFree:          538760 kB
//! MemAvailable:    6820236 kB
//! HugePages_Total:       0
//! Hugepagesize:       2048 kB
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One `/proc/meminfo` snapshot: the usual counters by name, and every line as printed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Meminfo {
    /// Every line in input order.
    pub entries: Vec<MeminfoEntry>,
    /// `MemTotal` (KiB): usable RAM (physical RAM minus reserved and kernel code).
    pub mem_total_kib: Option<u64>,
    /// `MemFree` (KiB): RAM left unused.
    pub mem_free_kib: Option<u64>,
    /// `MemAvailable` (KiB): estimate of memory available for new work without swapping (3.14+).
    pub mem_available_kib: Option<u64>,
    /// `Buffers` (KiB): block device buffers.
    pub buffers_kib: Option<u64>,
    /// `Cached` (KiB): page cache (excluding SwapCached).
    pub cached_kib: Option<u64>,
    /// `SwapCached` (KiB): swapped-out memory swapped back in and still in the swap file.
    pub swap_cached_kib: Option<u64>,
    /// `Active` (KiB): recently used memory.
    pub active_kib: Option<u64>,
    /// `Inactive` (KiB): memory not used recently, first candidate for reclaim.
    pub inactive_kib: Option<u64>,
    /// `Active(anon)` (KiB): `Active(anon)`.
    pub active_anon_kib: Option<u64>,
    /// `Inactive(anon)` (KiB): `Inactive(anon)`.
    pub inactive_anon_kib: Option<u64>,
    /// `Active(file)` (KiB): `Active(file)`.
    pub active_file_kib: Option<u64>,
    /// `Inactive(file)` (KiB): `Inactive(file)`.
    pub inactive_file_kib: Option<u64>,
    /// `Unevictable` (KiB): memory that cannot be reclaimed (mlocked, ramfs).
    pub unevictable_kib: Option<u64>,
    /// `Mlocked` (KiB): memory locked with mlock().
    pub mlocked_kib: Option<u64>,
    /// `SwapTotal` (KiB): swap space available.
    pub swap_total_kib: Option<u64>,
    /// `SwapFree` (KiB): swap space unused.
    pub swap_free_kib: Option<u64>,
    /// `Dirty` (KiB): memory waiting to be written back to disk.
    pub dirty_kib: Option<u64>,
    /// `Writeback` (KiB): memory being written back to disk.
    pub writeback_kib: Option<u64>,
    /// `AnonPages` (KiB): anonymous (non file-backed) pages mapped into user space.
    pub anon_pages_kib: Option<u64>,
    /// `Mapped` (KiB): files mapped into memory (mmap).
    pub mapped_kib: Option<u64>,
    /// `Shmem` (KiB): shared memory and tmpfs.
    pub shmem_kib: Option<u64>,
    /// `KReclaimable` (KiB): kernel allocations the kernel will reclaim under pressure (4.20+).
    pub k_reclaimable_kib: Option<u64>,
    /// `Slab` (KiB): kernel slab caches.
    pub slab_kib: Option<u64>,
    /// `SReclaimable` (KiB): reclaimable part of Slab.
    pub s_reclaimable_kib: Option<u64>,
    /// `SUnreclaim` (KiB): unreclaimable part of Slab.
    pub s_unreclaim_kib: Option<u64>,
    /// `KernelStack` (KiB): kernel stacks.
    pub kernel_stack_kib: Option<u64>,
    /// `PageTables` (KiB): page tables.
    pub page_tables_kib: Option<u64>,
    /// `CommitLimit` (KiB): allocation limit under strict overcommit (`vm.overcommit_memory=2`).
    pub commit_limit_kib: Option<u64>,
    /// `Committed_AS` (KiB): memory allocated by all processes, even if not yet used.
    pub committed_as_kib: Option<u64>,
    /// `VmallocTotal` (KiB): size of the vmalloc area.
    pub vmalloc_total_kib: Option<u64>,
    /// `VmallocUsed` (KiB): vmalloc area in use.
    pub vmalloc_used_kib: Option<u64>,
    /// `HardwareCorrupted` (KiB): memory the kernel identified as corrupted.
    pub hardware_corrupted_kib: Option<u64>,
    /// `AnonHugePages` (KiB): anonymous transparent huge pages.
    pub anon_huge_pages_kib: Option<u64>,
    /// `HugePages_Total`: size of the huge page pool, a **count of pages** (not kB).
    pub huge_pages_total: Option<u64>,
    /// `HugePages_Free`: huge pages not yet allocated, a count.
    pub huge_pages_free: Option<u64>,
    /// `HugePages_Rsvd`: huge pages reserved but not yet allocated, a count.
    pub huge_pages_rsvd: Option<u64>,
    /// `HugePages_Surp`: surplus huge pages above `vm.nr_hugepages`, a count.
    pub huge_pages_surp: Option<u64>,
    /// `Hugepagesize` (KiB): size of one huge page.
    pub hugepagesize_kib: Option<u64>,
    /// `Hugetlb` (KiB): memory used by huge pages of all sizes (4.16+).
    pub hugetlb_kib: Option<u64>,
}

/// One line of `/proc/meminfo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeminfoEntry {
    /// Name as printed, without the colon (`Active(anon)`, `HugePages_Total`).
    pub name: String,
    /// The number.
    pub value: u64,
    /// Whether the line carried `kB` (KiB); `false` for the `HugePages_*` page counts.
    pub kib: bool,
    /// 1-based input line.
    pub line: usize,
}

impl Meminfo {
    /// The value of line `name` (`"Active(anon)"`), in its own unit (see [`MeminfoEntry::kib`]).
    pub fn get(&self, name: &str) -> Option<u64> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.value)
    }

    /// Swap in use: `SwapTotal − SwapFree`, KiB (as `free` reports it).
    pub fn swap_used_kib(&self) -> Option<u64> {
        Some(self.swap_total_kib?.saturating_sub(self.swap_free_kib?))
    }

    /// Memory of the huge page pool, KiB: `HugePages_Total × Hugepagesize`.
    pub fn huge_pages_total_kib(&self) -> Option<u64> {
        self.huge_pages_total?.checked_mul(self.hugepagesize_kib?)
    }

    fn slot(&mut self, name: &str) -> Option<&mut Option<u64>> {
        Some(match name {
            "MemTotal" => &mut self.mem_total_kib,
            "MemFree" => &mut self.mem_free_kib,
            "MemAvailable" => &mut self.mem_available_kib,
            "Buffers" => &mut self.buffers_kib,
            "Cached" => &mut self.cached_kib,
            "SwapCached" => &mut self.swap_cached_kib,
            "Active" => &mut self.active_kib,
            "Inactive" => &mut self.inactive_kib,
            "Active(anon)" => &mut self.active_anon_kib,
            "Inactive(anon)" => &mut self.inactive_anon_kib,
            "Active(file)" => &mut self.active_file_kib,
            "Inactive(file)" => &mut self.inactive_file_kib,
            "Unevictable" => &mut self.unevictable_kib,
            "Mlocked" => &mut self.mlocked_kib,
            "SwapTotal" => &mut self.swap_total_kib,
            "SwapFree" => &mut self.swap_free_kib,
            "Dirty" => &mut self.dirty_kib,
            "Writeback" => &mut self.writeback_kib,
            "AnonPages" => &mut self.anon_pages_kib,
            "Mapped" => &mut self.mapped_kib,
            "Shmem" => &mut self.shmem_kib,
            "KReclaimable" => &mut self.k_reclaimable_kib,
            "Slab" => &mut self.slab_kib,
            "SReclaimable" => &mut self.s_reclaimable_kib,
            "SUnreclaim" => &mut self.s_unreclaim_kib,
            "KernelStack" => &mut self.kernel_stack_kib,
            "PageTables" => &mut self.page_tables_kib,
            "CommitLimit" => &mut self.commit_limit_kib,
            "Committed_AS" => &mut self.committed_as_kib,
            "VmallocTotal" => &mut self.vmalloc_total_kib,
            "VmallocUsed" => &mut self.vmalloc_used_kib,
            "HardwareCorrupted" => &mut self.hardware_corrupted_kib,
            "AnonHugePages" => &mut self.anon_huge_pages_kib,
            "HugePages_Total" => &mut self.huge_pages_total,
            "HugePages_Free" => &mut self.huge_pages_free,
            "HugePages_Rsvd" => &mut self.huge_pages_rsvd,
            "HugePages_Surp" => &mut self.huge_pages_surp,
            "Hugepagesize" => &mut self.hugepagesize_kib,
            "Hugetlb" => &mut self.hugetlb_kib,
            _ => return None,
        })
    }
}

/// `Name:` of a meminfo line: letters, digits, `_` and parentheses.
fn split_name(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.split_once(':')?;
    let name = name.trim();
    (!name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'(' | b')')))
    .then_some((name, rest))
}

/// `/proc/meminfo`?
///
/// `Yes` when the first line is `MemTotal: N kB` (every kernel prints it first), or the head is
/// made of `Name: N kB` lines including `MemTotal`/`MemFree`; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut seen = false;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        let Some((name, rest)) = split_name(line) else {
            return Sniff::No;
        };
        let mut toks = rest.split_ascii_whitespace();
        let num_ok = toks
            .next()
            .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit()));
        let unit = toks.next();
        if complete && (!num_ok || !matches!(unit, None | Some("kB")) || toks.next().is_some()) {
            return Sniff::No;
        }
        if matches!(name, "MemTotal" | "MemFree") && unit == Some("kB") {
            seen = true;
        }
    }
    if seen {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/meminfo`.
///
/// Errors: [`ParseError::Unusable`] when no `Name: value` line is found. Other lines become
/// issues.
pub fn parse(text: &str) -> Result<Parsed<Meminfo>, ParseError> {
    let mut out = Meminfo::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = split_name(line).and_then(|(name, rest)| {
            let mut toks = rest.split_ascii_whitespace();
            let value = toks.next()?.parse::<u64>().ok()?;
            let kib = match toks.next() {
                None => false,
                Some("kB") => true,
                Some(_) => return None,
            };
            toks.next().is_none().then_some((name, value, kib))
        });
        let Some((name, value, kib)) = parsed else {
            issues.push(n, || {
                format!(
                    "expected `Name: value` or `Name: value kB`, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        if let Some(slot) = out.slot(name) {
            *slot = Some(value);
        }
        out.entries.push(MeminfoEntry {
            name: name.to_string(),
            value,
            kib,
            line: n,
        });
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(None, "no `Name: value kB` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
