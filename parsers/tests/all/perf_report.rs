//! `perf report --stdio` and `perf top --stdio` parser against real captures (perf 6.1 on this
//! project's development machine); see `fixtures/PROVENANCE.md`. The `perf script` of the same
//! recording (`perf6.1-script-callchains.txt`) cross-checks the overheads.

use crate::common::{fixture, fixture_path, head, XorShift, SNIFF_HEAD_BYTES};
use parsers::perf::script::DsoKind;
use parsers::perf::{
    self,
    report::{EventProfile, PerfReport, ReportEntry, ReportKind, SymbolLevel},
};
use parsers::{ParseError, Sniff};

const CHILDREN: &str = "perf/perf6.1-report-stdio-children.txt";
const NO_CHILDREN: &str = "perf/perf6.1-report-no-children-comm-dso-symbol.txt";
const SORT_DSO: &str = "perf/perf6.1-report-sort-dso.txt";
const SORT_PID: &str = "perf/perf6.1-report-sort-pid.txt";
const NO_CALLCHAIN: &str = "perf/perf6.1-report-no-callchain.txt";
const TWO_EVENTS: &str = "perf/perf6.1-report-two-events.txt";
const N_PERIOD: &str = "perf/perf6.1-report-n-show-total-period.txt";
const VERBOSE: &str = "perf/perf6.1-report-verbose.txt";
const QUIET: &str = "perf/perf6.1-report-quiet.txt";
const SORT_CPU_COMM: &str = "perf/perf6.1-report-sort-cpu-comm.txt";
const TOP: &str = "perf/perf6.1-top-stdio-E20.txt";
const CXX_N: &str = "perf/perf6.1-report-cxx-n.txt";
const CXX_CHILDREN: &str = "perf/perf6.1-report-cxx-children.txt";
const CXX_CHILDREN_N: &str = "perf/perf6.1-report-cxx-children-n-no-callchain.txt";
const CXX_SYM_DSO: &str = "perf/perf6.1-report-cxx-sort-sym-dso.txt";
const CXX_WIDE: &str = "perf/perf6.1-report-cxx-w-period-wider-than-ruler.txt";
/// The whole demangled name of `tmpl.cpp`'s hot function, as perf 6.1 prints it.
const AGGREGATOR: &str = "analytics::pipeline::Aggregator<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, unsigned long, std::less<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > >::reduce_all_buckets_with_weighted_average";

const ALL: [&str; 16] = [
    CXX_N,
    CXX_CHILDREN,
    CXX_CHILDREN_N,
    CXX_SYM_DSO,
    CXX_WIDE,
    CHILDREN,
    NO_CHILDREN,
    SORT_DSO,
    SORT_PID,
    NO_CALLCHAIN,
    TWO_EVENTS,
    N_PERIOD,
    VERBOSE,
    QUIET,
    SORT_CPU_COMM,
    TOP,
];

fn report(rel: &str) -> PerfReport {
    let parsed = perf::report::parse(&fixture(rel)).unwrap();
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn only_event(r: &PerfReport) -> &EventProfile {
    assert_eq!(r.events.len(), 1);
    &r.events[0]
}

#[track_caller]
fn entry<'a>(ev: &'a EventProfile, comm: Option<&str>, sym: &str) -> &'a ReportEntry {
    ev.entries
        .iter()
        .find(|e| e.symbol.as_deref() == Some(sym) && (comm.is_none() || e.comm.as_deref() == comm))
        .unwrap_or_else(|| panic!("no entry {comm:?} {sym}"))
}

/// The header every report of the main recording (perf.data of 397 samples) carries.
#[track_caller]
fn main_recording(ev: &EventProfile) {
    assert_eq!(ev.event.as_deref(), Some("cpu-clock:ppp"));
    assert_eq!(ev.samples, Some(397));
    assert!(ev.samples_exact);
    assert_eq!(ev.event_count, Some(4_010_100_970));
    assert_eq!(ev.line, 6);
}

#[test]
fn children_and_self() {
    let r = report(CHILDREN);
    assert_eq!(r.kind, ReportKind::Report);
    assert_eq!(r.lost_samples, Some(0));
    let ev = only_event(&r);
    main_recording(ev);
    assert_eq!(
        ev.columns,
        ["Children", "Self", "Command", "Shared Object", "Symbol"]
    );
    assert_eq!(ev.entries.len(), 552);
    let first = &ev.entries[0];
    assert_eq!(
        (first.children_pct, first.self_pct),
        (Some(16.37), Some(0.0))
    );
    assert_eq!(first.comm.as_deref(), Some("java"));
    assert_eq!(first.dso.as_deref(), Some("libc.so.6"));
    assert_eq!(first.symbol.as_deref(), Some("start_thread"));
    assert_eq!(first.level, Some(SymbolLevel::User));
    assert_eq!(first.line, 12);
    // Callers first under --children: the chain starts at the entry and descends to the leaf.
    let leaf = first.callchain.len() - 1;
    let chain = first.chain_symbols(leaf);
    assert_eq!(chain[0], "start_thread");
    assert!(chain.contains(&"long Busy.work(java.util.HashMap, int)"));
    let busy = entry(ev, Some("java"), "long Busy.work(java.util.HashMap, int)");
    assert_eq!(
        (busy.children_pct, busy.self_pct),
        (Some(16.12), Some(5.04))
    );
    assert_eq!(busy.dso.as_deref(), Some("[JIT] tid 21563"));
    assert_eq!(busy.dso_kind(), Some(DsoKind::Jit));
    assert_eq!(busy.line, 272);
    // A command name with spaces, a template with spaces, an unresolved address.
    let run = entry(
        ev,
        Some("worker thread 1"),
        "std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::{lambda()#1}> > >::_M_run",
    );
    assert_eq!(run.children_pct, Some(12.09));
    let raw = entry(ev, Some("worker thread 1"), "0x00007fda564d44a3");
    assert_eq!(raw.unresolved_address, Some(0x7fda_564d_44a3));
    assert_eq!(raw.dso.as_deref(), Some("libstdc++.so.6.0.30"));
    let self_sum: f64 = ev.entries.iter().filter_map(|e| e.self_pct).sum();
    assert!((self_sum - 100.0).abs() < 0.5, "{self_sum}");
}

#[test]
fn no_children_comm_dso_symbol() {
    let r = report(NO_CHILDREN);
    let ev = only_event(&r);
    main_recording(ev);
    // perf 6.1 adds the IPC columns when sorting by symbol; they are kept as other columns.
    assert_eq!(
        ev.columns,
        [
            "Overhead",
            "Command",
            "Shared Object",
            "Symbol",
            "IPC [IPC Coverage]"
        ]
    );
    assert_eq!(ev.entries.len(), 158);
    let top = &ev.entries[0];
    assert_eq!(top.self_pct, Some(13.10));
    assert_eq!(top.children_pct, None);
    assert_eq!(top.comm.as_deref(), Some("spin"));
    assert_eq!(top.dso.as_deref(), Some("spin"));
    assert_eq!(top.symbol.as_deref(), Some("Accumulator<double>::add"));
    assert_eq!(
        top.other,
        vec![("IPC [IPC Coverage]".to_string(), "-      -".to_string())]
    );
    // Callees first with --no-children: the leaf, then its callers.
    assert_eq!(
        top.chain_symbols(0),
        ["Accumulator<double>::add", "main", "__libc_start_call_main"]
    );
    let jit = &ev.entries[2];
    assert_eq!(
        jit.symbol.as_deref(),
        Some("java.lang.Object java.util.HashMap.merge(java.lang.Object, java.lang.Object, java.util.function.BiFunction)")
    );
    assert_eq!(jit.self_pct, Some(8.56));
    assert_eq!(jit.callchain[1].percent, Some(8.31));
    assert_eq!(jit.callchain[1].parent, Some(0));
    let raw = ev
        .entries
        .iter()
        .find(|e| e.unresolved_address == Some(0x593f))
        .unwrap();
    assert_eq!(
        (
            raw.comm.as_deref(),
            raw.dso.as_deref(),
            raw.self_pct,
            raw.line
        ),
        (Some("dd"), Some("dd"), Some(0.76), 158)
    );
    // A graph with two branches under its first chain.
    let spin_unlock = entry(ev, Some("nc"), "_raw_spin_unlock_irqrestore");
    assert_eq!(spin_unlock.level, Some(SymbolLevel::Kernel));
    assert!(spin_unlock.level.unwrap().is_kernel());
    assert_eq!(spin_unlock.dso_kind(), Some(DsoKind::Kernel));
    assert_eq!(spin_unlock.self_pct, Some(3.27));
    let nodes = &spin_unlock.callchain;
    assert_eq!(nodes.len(), 3);
    assert_eq!(
        (nodes[1].percent, nodes[1].line, nodes[1].symbols.len()),
        (Some(1.76), 63, 6)
    );
    assert_eq!(
        spin_unlock.chain_symbols(2),
        [
            "_raw_spin_unlock_irqrestore",
            "tcp_write_xmit",
            "__tcp_push_pending_frames",
            "tcp_sendmsg_locked",
            "tcp_sendmsg",
            "sock_write_iter",
            "vfs_write",
            "ksys_write",
            "do_syscall_64",
            "entry_SYSCALL_64_after_hwframe",
            "__GI___libc_write"
        ]
    );
    assert_eq!(nodes[2].percent, Some(0.50));
}

#[test]
fn overheads_agree_with_perf_script() {
    // Same perf.data: each --no-children entry's overhead is the share of samples whose leaf
    // frame has that command, DSO and symbol.
    let script = perf::script::parse(&fixture("perf/perf6.1-script-callchains.txt"))
        .unwrap()
        .value;
    let r = report(NO_CHILDREN);
    let ev = only_event(&r);
    assert_eq!(Some(script.summary.samples), ev.samples);
    assert_eq!(Some(script.summary.events[0].period), ev.event_count);
    for e in ev.entries.iter().take(8) {
        let samples = script.to_samples();
        let n = samples
            .iter()
            .filter(|s| {
                let leaf = &s.frames[0];
                Some(s.comm.as_str()) == e.comm.as_deref()
                    && Some(leaf.symbol.as_str()) == e.symbol.as_deref()
            })
            .count();
        let pct = 100.0 * n as f64 / 397.0;
        assert!(
            (pct - e.self_pct.unwrap()).abs() < 0.006,
            "{:?} {:?}: {pct} vs {:?}",
            e.comm,
            e.symbol,
            e.self_pct
        );
    }
}

#[test]
fn sort_by_dso() {
    let r = report(SORT_DSO);
    let ev = only_event(&r);
    main_recording(ev);
    assert_eq!(ev.columns, ["Children", "Self", "Shared Object"]);
    assert_eq!(ev.entries.len(), 15);
    let dso = |name: &str| {
        ev.entries
            .iter()
            .find(|e| e.dso.as_deref() == Some(name))
            .unwrap()
    };
    let libc = dso("libc.so.6");
    assert_eq!(
        (libc.children_pct, libc.self_pct),
        (Some(60.45), Some(4.28))
    );
    assert!(libc.symbol.is_none() && libc.comm.is_none());
    let kernel = dso("[kernel.kallsyms]");
    assert_eq!(
        (kernel.children_pct, kernel.self_pct),
        (Some(30.23), Some(30.23))
    );
    assert_eq!(kernel.line, 186);
    assert_eq!(dso("[JIT] tid 21563").self_pct, Some(13.60));
    assert_eq!(dso("[unknown]").dso_kind(), Some(DsoKind::Unknown));
    // The graph starts with branches directly under the entry (no `---` chain).
    assert!(libc
        .callchain
        .iter()
        .any(|n| n.parent.is_none() && n.percent.is_some()));
    let self_sum: f64 = ev.entries.iter().filter_map(|e| e.self_pct).sum();
    assert!((self_sum - 100.0).abs() < 0.05, "{self_sum}");
}

#[test]
fn sort_by_pid() {
    let r = report(SORT_PID);
    let ev = only_event(&r);
    main_recording(ev);
    assert_eq!(ev.columns, ["Children", "Self", "Pid:Command"]);
    assert_eq!(ev.entries.len(), 17);
    let dd = &ev.entries[0];
    assert_eq!((dd.pid, dd.comm.as_deref()), (Some(21569), Some("dd")));
    assert_eq!(dd.self_pct, Some(19.40));
    let worker = &ev.entries[4];
    assert_eq!(
        (worker.pid, worker.comm.as_deref(), worker.self_pct),
        (Some(21564), Some("worker thread 1"), Some(12.09))
    );
    let kdamond = ev.entries.iter().find(|e| e.pid == Some(77)).unwrap();
    assert_eq!(kdamond.comm.as_deref(), Some("kdamond.0"));
}

#[test]
fn sort_by_cpu_and_comm() {
    let r = report(SORT_CPU_COMM);
    let ev = only_event(&r);
    assert_eq!(ev.columns, ["Overhead", "CPU", "Command"]);
    assert_eq!(ev.entries.len(), 21);
    let first = &ev.entries[0];
    assert_eq!(
        (first.self_pct, first.cpu, first.comm.as_deref()),
        (Some(12.34), Some(1), Some("spin"))
    );
    assert_eq!(ev.entries[3].comm.as_deref(), Some("worker thread 1"));
}

#[test]
fn without_call_chains() {
    let r = report(NO_CALLCHAIN);
    let ev = only_event(&r);
    assert_eq!(ev.samples, Some(204));
    assert_eq!(ev.event_count, Some(2_060_606_040));
    assert_eq!(ev.entries.len(), 108);
    assert!(ev.entries.iter().all(|e| e.callchain.is_empty()));
    assert_eq!(ev.entries[0].self_pct, Some(12.75));
    // `operator()` of a lambda, with spaces in its scope.
    let op = entry(
        ev,
        None,
        "lld::elf::postScanRelocations(lld::elf::Ctx&)::$_0::operator()",
    );
    assert_eq!(op.dso.as_deref(), Some("rust-lld"));
}

#[test]
fn samples_and_period_columns() {
    let r = report(N_PERIOD);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        [
            "Overhead",
            "Samples",
            "Period",
            "Command",
            "Shared Object",
            "Symbol"
        ]
    );
    let top = &ev.entries[0];
    assert_eq!(
        (top.self_pct, top.samples, top.period),
        (Some(13.10), Some(52), Some(525_252_520))
    );
    let samples: u64 = ev.entries.iter().filter_map(|e| e.samples).sum();
    assert_eq!(samples, 397);
    let period: u64 = ev.entries.iter().filter_map(|e| e.period).sum();
    assert_eq!(Some(period), ev.event_count);
}

#[test]
fn verbose_symbols_keep_their_signature() {
    // -v: full DSO paths, and `0x1593  B [.] name(args)` in the symbol column.
    let r = report(VERBOSE);
    let ev = only_event(&r);
    let churn = &ev.entries[1];
    assert_eq!(churn.dso.as_deref(), Some("/tmp/perfcap2/spin"));
    assert_eq!(
        churn.symbol.as_deref(),
        Some("(anonymous namespace)::churn(std::vector<int, std::allocator<int> >&, int)")
    );
    assert_eq!(churn.level, Some(SymbolLevel::User));
    assert_eq!(ev.entries[2].dso_kind(), Some(DsoKind::Jit));
}

#[test]
fn quiet_output_has_no_header() {
    let r = report(QUIET);
    let ev = only_event(&r);
    assert_eq!((ev.event.as_deref(), ev.samples), (None, None));
    assert!(ev.columns.is_empty());
    assert_eq!(ev.entries.len(), 158);
    let e = &ev.entries[1];
    assert_eq!(
        (
            e.self_pct,
            e.comm.as_deref(),
            e.dso.as_deref(),
            e.symbol.as_deref()
        ),
        (
            Some(11.84),
            Some("worker thread 1"),
            Some("spin"),
            Some("(anonymous namespace)::churn")
        )
    );
    assert_eq!(ev.entries[2].dso.as_deref(), Some("[JIT] tid 21563"));
    // Same entries as with the header.
    let full = report(NO_CALLCHAIN_SAME_DATA);
    for (a, b) in ev.entries.iter().zip(&only_event(&full).entries) {
        assert_eq!(
            (a.self_pct, &a.comm, &a.dso, &a.symbol),
            (b.self_pct, &b.comm, &b.dso, &b.symbol)
        );
    }
}

/// `-n --show-total-period -g none` of the same perf.data as the quiet output.
const NO_CALLCHAIN_SAME_DATA: &str = N_PERIOD;

#[test]
fn two_events_in_one_report() {
    let r = report(TWO_EVENTS);
    assert_eq!(r.events.len(), 2);
    let (clock, faults) = (&r.events[0], &r.events[1]);
    assert_eq!(
        (
            clock.event.as_deref(),
            clock.samples,
            clock.event_count,
            clock.line
        ),
        (Some("cpu-clock"), Some(198), Some(1_999_999_980), 6)
    );
    assert_eq!(
        (
            faults.event.as_deref(),
            faults.samples,
            faults.event_count,
            faults.line
        ),
        (Some("page-faults"), Some(12), Some(3_204_782), 999)
    );
    assert_eq!(clock.entries.len(), 104);
    assert_eq!(faults.entries.len(), 6);
    let top = &faults.entries[0];
    assert_eq!(
        (top.self_pct, top.comm.as_deref(), top.dso.as_deref()),
        (Some(89.15), Some("java"), Some("[JIT] tid 22252"))
    );
    assert_eq!(top.line, 1005);
}

#[test]
fn perf_top_snapshots() {
    let r = report(TOP);
    assert_eq!(r.kind, ReportKind::Top);
    assert_eq!(r.events.len(), 4);
    assert!(r.events[0].entries.is_empty());
    let last = r.events.last().unwrap();
    assert_eq!(last.event.as_deref(), Some("cpu-clock:ppp"));
    assert_eq!(last.line, 54);
    let top = last.top.as_ref().unwrap();
    assert_eq!(top.irqs_per_sec, Some(765));
    assert_eq!(top.kernel_pct, Some(25.8));
    assert_eq!(top.exact_pct, Some(0.0));
    assert_eq!(top.lost, Some((0, 0)));
    assert_eq!(top.drop, Some((245, 1162)));
    assert_eq!(top.frequency_hz, Some(199));
    assert_eq!(top.target.as_deref(), Some("all, 2 CPUs"));
    assert_eq!(last.entries.len(), 20);
    let first = &last.entries[0];
    assert_eq!(
        (
            first.self_pct,
            first.dso.as_deref(),
            first.symbol.as_deref(),
            first.line
        ),
        (
            Some(6.37),
            Some("spin"),
            Some("Accumulator<double>::add"),
            57
        )
    );
    assert!(first.comm.is_none());
    let kernel = &last.entries[2];
    assert_eq!(
        (
            kernel.dso.as_deref(),
            kernel.symbol.as_deref(),
            kernel.level
        ),
        (
            Some("[kernel]"),
            Some("clear_page_erms"),
            Some(SymbolLevel::Kernel)
        )
    );
    assert_eq!(kernel.dso_kind(), Some(DsoKind::Kernel));
    let jit = last
        .entries
        .iter()
        .find(|e| e.dso.as_deref() == Some("[JIT] tid 22441"))
        .unwrap();
    assert_eq!(jit.unresolved_address, Some(0x7ff3_ccec_d9de));
    assert_eq!(jit.self_pct, Some(1.01));
    // perf top cuts rows at 80 columns when not writing to a terminal.
    assert_eq!(
        last.entries[1].symbol.as_deref(),
        Some("(anonymous namespace)::ch")
    );
}

#[test]
fn inline_variants() {
    // A kernel module DSO, a guest-kernel marker, colours as perf top prints on a terminal.
    let row = |o: &str, c: &str, d: &str, s: &str| format!("{o:>10}  {c:<8}  {d:<23}  {s}\n");
    let text = String::from("# Samples: 2M of event 'cycles'\n")
        + "# Overhead  Command   Shared Object            Symbol\n"
        + "# ........  ........  .......................  ...............................\n#\n"
        + &row(
            "19.87%",
            "swapper",
            "[kernel.kallsyms]",
            "[k] finish_task_switch",
        )
        + &row("7.60%", "observer", "[resguard_linux]", "[k] asp_spin_lock")
        + &row(
            "0.76%",
            "qemu",
            "[guest.kernel.kallsyms]",
            "[g] net_ip_white_list_account",
        );
    let p = perf::report::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let ev = &p.value.events[0];
    assert_eq!((ev.samples, ev.samples_exact), (Some(2_000_000), false));
    assert_eq!(ev.entries.len(), 3);
    let m = &ev.entries[1];
    assert_eq!(m.dso_kind(), Some(DsoKind::KernelModule));
    assert_eq!(
        perf::script::module_name(m.dso.as_deref().unwrap()),
        Some("resguard_linux")
    );
    assert_eq!(m.symbol.as_deref(), Some("asp_spin_lock"));
    assert_eq!(ev.entries[2].level, Some(SymbolLevel::GuestKernel));

    let top = "\x1b[H\x1b[2J   PerfTop:   10001 irqs/sec  kernel:91.2%  exact:  0.0% lost: 0/0 drop: 0/0 [4000Hz cycles],  (all, 128 CPUs)\n\
-------------------------------------------------------------------------------\n\
\n\
\x1b[31m    19.87%\x1b[m  [kernel]                  [k] finish_task_switch\n\
\x1b[32m     7.60%\x1b[m  [kernel]                  [k] queued_spin_lock_slowpath\n\
     1.94%  [resguard_linux]          [k] asp_spin_lock\n";
    let p = perf::report::parse(top).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let ev = &p.value.events[0];
    assert_eq!(ev.top.as_ref().unwrap().irqs_per_sec, Some(10001));
    assert_eq!(
        ev.top.as_ref().unwrap().target.as_deref(),
        Some("all, 128 CPUs")
    );
    assert_eq!(ev.event.as_deref(), Some("cycles"));
    assert_eq!(
        ev.entries[1].symbol.as_deref(),
        Some("queued_spin_lock_slowpath")
    );
    assert_eq!(ev.entries[1].self_pct, Some(7.60));
    assert_eq!(ev.entries[2].dso.as_deref(), Some("[resguard_linux]"));
    assert_eq!(ev.entries[2].dso_kind(), Some(DsoKind::KernelModule));
    assert_eq!(perf::report::sniff(top), Sniff::Yes);
}

#[test]
fn garbage_lines_are_issues_with_their_line() {
    let text = fixture(NO_CHILDREN);
    let mut lines: Vec<&str> = text.lines().collect();
    // Between two entries (after the blank line that ends the first graph).
    lines.insert(17, "this is not a profile line");
    let text = lines.join("\n") + "\n";
    let p = perf::report::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 18);
    assert!(p.issues[0].message.contains("expected a profile entry"));
    assert_eq!(p.value.events[0].entries.len(), 158);
    // A bad number in a known column.
    let text = fixture(N_PERIOD).replacen("            52", "           5x2", 1);
    let p = perf::report::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert!(
        p.issues[0].message.contains("`Samples` column"),
        "{:?}",
        p.issues
    );
    assert_eq!(p.issues[0].line, 12);
    // The row is kept without that value.
    let ev = &p.value.events[0];
    assert_eq!(ev.entries.len(), 158);
    let e = &ev.entries[0];
    assert_eq!(
        (e.self_pct, e.samples, e.period, e.comm.as_deref()),
        (Some(13.10), None, Some(525_252_520), Some("spin"))
    );
    // A row shifted off the rule's columns still has the header's structure: read whole.
    let text = fixture(N_PERIOD).replacen("    13.10%            52", "13.10%  52", 1);
    let p = perf::report::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let e = &p.value.events[0].entries[0];
    assert_eq!(
        (
            e.self_pct,
            e.samples,
            e.period,
            e.comm.as_deref(),
            e.dso.as_deref()
        ),
        (
            Some(13.10),
            Some(52),
            Some(525_252_520),
            Some("spin"),
            Some("spin")
        )
    );
    assert_eq!(e.symbol.as_deref(), Some("Accumulator<double>::add"));
}

#[test]
fn unusable_inputs() {
    for text in ["", "\n \n"] {
        let err = perf::report::parse(text).unwrap_err();
        assert!(err.to_string().contains("empty"), "{err}");
    }
    let err = perf::report::parse("hello\nworld\n").unwrap_err();
    assert!(matches!(err, ParseError::Unusable { .. }));
    let err = perf::report::parse(&fixture("perf/perf6.1-script-callchains.txt")).unwrap_err();
    assert!(err.to_string().contains("# Samples"), "{err}");
}

#[test]
fn sniffing() {
    for rel in ALL {
        let text = fixture(rel);
        let want = if rel == QUIET {
            Sniff::Unsure
        } else {
            Sniff::Yes
        };
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            assert_eq!(perf::report::sniff(sample), want, "{rel}");
        }
    }
    for rel in [
        "perf/perf6.1-script-callchains.txt",
        "perf/perf6.1-script-no-callchain.txt",
        "perf/flamegraph__perf-script-header-cycles-instructions.txt",
    ] {
        let text = fixture(rel);
        assert_eq!(
            perf::report::sniff(head(&text, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
    }
}

#[test]
fn other_kinds_are_refused() {
    let mut failures = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir() && e.file_name() != "perf")
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut seen = 0;
    for d in dirs {
        for e in std::fs::read_dir(fixture_path(&d)).unwrap() {
            let e = e.unwrap();
            if !e.file_type().unwrap().is_file() {
                continue;
            }
            seen += 1;
            let rel = format!("{d}/{}", e.file_name().to_string_lossy());
            let bytes = std::fs::read(e.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            for sample in [head(&text, SNIFF_HEAD_BYTES), &text] {
                let got = perf::report::sniff(sample);
                if got != Sniff::No {
                    failures.push(format!("{rel}: sniff said {got:?}"));
                }
            }
            if let Ok(p) = perf::report::parse(&text) {
                let entries: usize = p.value.events.iter().map(|e| e.entries.len()).sum();
                failures.push(format!(
                    "{rel}: parsed {entries} entries, {} issues",
                    p.issues.len()
                ));
            }
        }
    }
    assert!(seen > 100, "{seen}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cut_and_random_inputs_never_panic() {
    let mut rng = XorShift(0x0bad_cafe_f00d_0002);
    for rel in ALL {
        let text = fixture(rel);
        let lines = text.lines().count();
        for _ in 0..20 {
            let cut = head(&text, rng.below(text.len() + 1));
            if let Ok(p) = perf::report::parse(cut) {
                assert!(p.issues.iter().all(|i| i.line <= lines), "{rel}");
            }
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..8 {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next_u64() as u8;
            }
            let flipped = String::from_utf8_lossy(&bytes);
            let _ = perf::report::parse(&flipped);
            let _ = perf::report::sniff(head(&flipped, SNIFF_HEAD_BYTES));
        }
    }
    let pieces = [
        "#",
        " Samples: 3K of event 'x'",
        "........",
        "  ",
        "12.5%",
        "[k]",
        "[.]",
        "|",
        "---",
        "--1.5%--",
        "--",
        "sym",
        "\x1b[31m",
        "PerfTop:",
        "\n",
        "é",
        "0x12",
        ":",
    ];
    for _ in 0..300 {
        let mut s = String::new();
        for _ in 0..rng.below(200) {
            s.push_str(pieces[rng.below(pieces.len())]);
            if rng.below(3) == 0 {
                s.push(' ');
            }
        }
        if let Ok(p) = perf::report::parse(&s) {
            let lines = s.lines().count().max(1);
            assert!(p.issues.iter().all(|i| i.line <= lines));
        }
        let _ = perf::report::sniff(&s);
    }
    // A 200 000-column line and a deep graph.
    let wide = format!(
        "# Overhead  Symbol\n# ........  ......\n    1.00%  [k] {}\n",
        "x".repeat(200_000)
    );
    assert!(perf::report::parse(&wide).is_ok());
    let mut deep = String::from("    1.00%  a  b  [k] f\n            |\n            ---f\n");
    for d in 0..2000 {
        deep.push_str(&" ".repeat(15 + 11 * d));
        deep.push_str("|--1.00%--g\n");
    }
    let p = perf::report::parse(&deep).unwrap();
    assert_eq!(p.value.events[0].entries[0].callchain.len(), 2001);
    let leaf = 2000;
    assert_eq!(p.value.events[0].entries[0].chain_symbols(leaf).len(), 2001);
}

#[test]
fn long_cxx_template_symbols_stay_whole_with_sample_counts() {
    let r = report(CXX_N);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        ["Overhead", "Samples", "Command", "Shared Object", "Symbol"]
    );
    assert_eq!((ev.samples, ev.samples_exact), (Some(34_000), false));
    let e = &ev.entries[0];
    assert_eq!(
        (
            e.line,
            e.self_pct,
            e.samples,
            e.comm.as_deref(),
            e.dso.as_deref()
        ),
        (12, Some(70.09), Some(24_455), Some("tmpl"), Some("tmpl"))
    );
    assert_eq!(e.symbol.as_deref(), Some(AGGREGATOR));
    assert_eq!(e.level, Some(SymbolLevel::User));
    assert_eq!(e.callchain[0].symbols[0], AGGREGATOR);
    let k = &ev.entries[2];
    assert_eq!(
        (k.self_pct, k.samples, k.dso.as_deref(), k.symbol.as_deref()),
        (
            Some(1.01),
            Some(351),
            Some("[kernel.kallsyms]"),
            Some("finish_task_switch.isra.0")
        )
    );
    assert_eq!(k.level, Some(SymbolLevel::Kernel));
    // `perf record` wrote 34 892 samples; `-n` lists every one of them.
    let total: u64 = ev.entries.iter().filter_map(|e| e.samples).sum();
    assert_eq!(total, 34_892);
}

#[test]
fn children_and_self_columns_with_and_without_sample_counts() {
    let r = report(CXX_CHILDREN);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        ["Children", "Self", "Command", "Shared Object", "Symbol"]
    );
    let e = &ev.entries[0];
    assert_eq!(
        (
            e.line,
            e.children_pct,
            e.self_pct,
            e.dso.as_deref(),
            e.symbol.as_deref()
        ),
        (
            12,
            Some(99.97),
            Some(0.0),
            Some("libc.so.6"),
            Some("__libc_start_call_main")
        )
    );
    let hot = ev.entries.iter().find(|e| e.line == 52).unwrap();
    assert_eq!((hot.children_pct, hot.self_pct), (Some(71.67), Some(70.09)));
    assert_eq!(hot.symbol.as_deref(), Some(AGGREGATOR));
    let r = report(CXX_CHILDREN_N);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        [
            "Children",
            "Self",
            "Samples",
            "Command",
            "Shared Object",
            "Symbol"
        ]
    );
    let rows: Vec<_> = ev.entries[..3]
        .iter()
        .map(|e| (e.children_pct, e.self_pct, e.samples, e.symbol.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                Some(99.97),
                Some(0.0),
                Some(0),
                Some("__libc_start_call_main")
            ),
            (Some(72.55), Some(0.02), Some(6), Some("main")),
            (Some(71.67), Some(70.09), Some(24_455), Some(AGGREGATOR)),
        ]
    );
    // Samples count self samples: they add up to the recording's 34 892.
    let total: u64 = ev.entries.iter().filter_map(|e| e.samples).sum();
    assert_eq!(total, 34_892);
}

#[test]
fn symbol_before_another_column_ends_at_the_column_gap() {
    // `--sort sym,dso`: the symbol is not the last column.
    let r = report(CXX_SYM_DSO);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        ["Overhead", "Samples", "Symbol", "Shared Object"]
    );
    let got: Vec<_> = ev.entries[..3]
        .iter()
        .map(|e| (e.self_pct, e.samples, e.symbol.as_deref(), e.dso.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(70.09), Some(24_455), Some(AGGREGATOR), Some("tmpl")),
            (
                Some(26.76),
                Some(9336),
                Some("analytics::pipeline::short_spin<double>"),
                Some("tmpl")
            ),
            (
                Some(1.01),
                Some(351),
                Some("finish_task_switch.isra.0"),
                Some("[kernel.kallsyms]")
            ),
        ]
    );
}

#[test]
fn numbers_wider_than_the_rule_keep_every_digit() {
    // `-w 1,1,1,7,13,60`: `Period` has a six-dot rule and ten-digit values, so every row is
    // shifted right of the rule; perf cuts the DSO and symbol values to their widths itself.
    let r = report(CXX_WIDE);
    let ev = only_event(&r);
    assert_eq!(
        ev.columns,
        [
            "Overhead",
            "Samples",
            "Period",
            "Command",
            "Shared Object",
            "Symbol"
        ]
    );
    let got: Vec<_> = ev.entries[..4]
        .iter()
        .map(|e| {
            (
                e.line,
                e.self_pct,
                e.samples,
                e.period,
                e.comm.as_deref(),
                e.dso.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                12,
                Some(70.09),
                Some(24_455),
                Some(6_113_750_000),
                Some("tmpl"),
                Some("tmpl")
            ),
            (
                13,
                Some(26.76),
                Some(9336),
                Some(2_334_000_000),
                Some("tmpl"),
                Some("tmpl")
            ),
            (
                14,
                Some(1.01),
                Some(351),
                Some(87_750_000),
                Some("tmpl"),
                Some("[kernel.kalls")
            ),
            (
                15,
                Some(0.82),
                Some(287),
                Some(71_750_000),
                Some("tmpl"),
                Some("libstdc++.so.")
            ),
        ]
    );
    assert_eq!(
        ev.entries[0].symbol.as_deref(),
        Some("analytics::pipeline::Aggregator<std::__cxx11::basic_stri")
    );
    // The periods add up to the event count perf printed.
    let total: u64 = ev.entries.iter().filter_map(|e| e.period).sum();
    assert_eq!(Some(total), ev.event_count);
    assert_eq!(ev.event_count, Some(8_723_000_000));
}

#[test]
fn a_row_that_does_not_fit_the_header_is_an_issue_and_the_rest_is_read() {
    // A `--children` row whose `Self` value is missing: the command falls in its place.
    let text = fixture(CXX_CHILDREN_N);
    let full = only_event(&report(CXX_CHILDREN_N)).entries.len();
    let bad = text.replacen("    72.55%     0.02%", "    72.55%", 1);
    let p = perf::report::parse(&bad).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 13);
    assert!(
        p.issues[0].message.contains("`Self` column"),
        "{:?}",
        p.issues
    );
    let ev = &p.value.events[0];
    assert_eq!(ev.entries.len(), full - 1);
    assert!(ev.entries.iter().all(|e| e.line != 13));
    assert_eq!(ev.entries[1].samples, Some(24_455));
    assert_eq!(ev.entries[1].symbol.as_deref(), Some(AGGREGATOR));
    // Values left over after the header's last (number) column.
    let text = "# Overhead  Samples\n# ........  .......\n#\n     5.00%       12  stray\n     4.00%        9\n";
    let p = perf::report::parse(text).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 4);
    assert!(p.issues[0].message.contains("left over"), "{:?}", p.issues);
    let e = &p.value.events[0].entries;
    assert_eq!(
        (e.len(), e[0].self_pct, e[0].samples),
        (1, Some(4.0), Some(9))
    );
}
