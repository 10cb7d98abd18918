//! `perf script` parser and folding against real captures (perf 6.1 on this project's development
//! machine) and the shared corpus (FlameGraph test inputs, with FlameGraph's own expected folded
//! outputs); see `fixtures/PROVENANCE.md`.

use crate::common::{fixture, fixture_path, head, XorShift, SNIFF_HEAD_BYTES};
use parsers::perf::{
    self,
    script::{
        classify_dso, collapse, for_each_sample, module_name, CollapseOptions, DsoKind, Folded,
        Sample, Weight,
    },
};
use parsers::{ParseError, Sniff};
use std::io::{self, BufReader, Read};

const CALLCHAINS: &str = "perf/perf6.1-script-callchains.txt";
const NO_CALLCHAIN: &str = "perf/perf6.1-script-no-callchain.txt";
const TWO_EVENTS: &str = "perf/perf6.1-script-two-events.txt";
const LOOPBACK: &str = "perf/perf6.1-script-loopback-300.txt";
const RESGUARD: &str = "perf/perf6.1-script-loopback-300-resguard-derived.txt";
const DD: &str = "perf/flamegraph__perf-script-dd-cpu-clock.txt";
const CYCLES_INSTRUCTIONS: &str = "perf/flamegraph__perf-script-header-cycles-instructions.txt";
const JAVA_OLD: &str = "perf/flamegraph__perf-script-java-old-format.txt";
const NUMA: &str = "perf/flamegraph__perf-script-numa-java-perfmap.txt";

/// Every `perf script` fixture.
const ALL: [&str; 9] = [
    CALLCHAINS,
    NO_CALLCHAIN,
    TWO_EVENTS,
    LOOPBACK,
    RESGUARD,
    DD,
    CYCLES_INSTRUCTIONS,
    JAVA_OLD,
    NUMA,
];

fn samples(rel: &str) -> Vec<Sample> {
    let parsed = perf::script::parse(&fixture(rel)).unwrap();
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value.to_samples()
}

fn folded_with(text: &str, opts: CollapseOptions) -> Folded {
    let parsed = collapse(text.as_bytes(), opts).unwrap();
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    parsed.value
}

fn folded(rel: &str) -> Folded {
    folded_with(&fixture(rel), CollapseOptions::default())
}

fn folded_text(f: &Folded) -> String {
    let mut out = Vec::new();
    f.write_folded(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The compact record of `parse` (interned strings, shared frames and call chains, derived frame
/// lines) gives back exactly the samples the streaming reader hands over, for every fixture and
/// for inputs whose frame lines have gaps (a comment or a bad line inside a call chain).
#[test]
fn compact_record_matches_the_stream() {
    let gappy = "a 1 [000] 1.000001: 1 cycles:\n\tffffffff81000001 f+0x1 ([kernel.kallsyms])\n# note\n\tffffffff81000002 g+0x2 ([kernel.kallsyms])\n\n\
                 a 1 [000] 1.000002: 1 cycles:\n\tffffffff81000001 f+0x1 ([kernel.kallsyms])\n\tffffffff81000002 g+0x2 ([kernel.kallsyms])\n\n";
    let mut texts: Vec<String> = ALL.iter().map(|rel| fixture(rel)).collect();
    texts.push(gappy.to_string());
    for text in &texts {
        let mut streamed = Vec::new();
        for_each_sample(text.as_bytes(), |s| streamed.push(s.clone())).unwrap();
        let p = perf::script::parse(text).unwrap().value;
        assert_eq!(p.len(), streamed.len());
        assert_eq!(p.to_samples(), streamed);
        assert_eq!(
            serde_json::to_value(&p).unwrap()["samples"],
            serde_json::to_value(&streamed).unwrap()
        );
    }
    let p = perf::script::parse(gappy).unwrap().value;
    let lines: Vec<usize> = p
        .iter()
        .flat_map(|s| s.frames().map(|f| f.line).collect::<Vec<_>>())
        .collect();
    assert_eq!(lines, [2, 4, 7, 8]);
    // Both samples share one call chain and its two frames.
    assert_eq!((p.distinct_stacks(), p.distinct_frames()), (1, 2));
}

#[test]
fn captured_call_chains() {
    let parsed = perf::script::parse(&fixture(CALLCHAINS)).unwrap();
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    let s = &parsed.value.summary;
    // `perf record` said "397 samples"; `perf report` on the same perf.data: `# Samples: 397`
    // and `# Event count (approx.): 4010100970` (the sum of the periods).
    assert_eq!(s.samples, 397);
    assert_eq!(s.events.len(), 1);
    assert_eq!(s.events[0].name, "cpu-clock:ppp");
    assert_eq!(s.events[0].samples, 397);
    assert_eq!(s.events[0].period, 4_010_100_970);
    assert_eq!(s.lines, 3166);
    let all = &parsed.value.to_samples();
    let first = &all[0];
    assert_eq!(first.comm, "java");
    assert_eq!(
        (first.pid, first.tid, first.cpu),
        (None, Some(21572), Some(0))
    );
    assert_eq!(first.time_ns, Some(9_563_222_858_000));
    assert_eq!(first.period, Some(10_101_010));
    assert_eq!(first.line, 1);
    assert_eq!(first.frames[0].symbol, "do_anonymous_page");
    assert_eq!(first.frames[0].offset, Some(0x122));
    assert_eq!(first.frames[0].dso, "[kernel.kallsyms]");
    assert_eq!(first.frames[0].dso_kind(), DsoKind::Kernel);
    assert_eq!(first.frames[0].line, 2);
    // A command name with spaces and a digit; a C++ symbol starting with a parenthesis.
    let worker: Vec<&Sample> = all.iter().filter(|s| s.comm == "worker thread 1").collect();
    assert_eq!(worker.len(), 48);
    let churn = worker
        .iter()
        .filter(|s| s.frames[0].symbol == "(anonymous namespace)::churn")
        .count();
    assert_eq!(churn, 47);
    assert_eq!(worker[0].frames[0].dso, "/tmp/perfcap2/spin");
    // JIT frames named through /tmp/perf-PID.map, symbols with spaces and parentheses.
    let jit = all
        .iter()
        .flat_map(|s| &s.frames)
        .find(|f| f.symbol == "long Busy.work(java.util.HashMap, int)")
        .unwrap();
    assert_eq!(jit.dso, "/tmp/perf-21563.map");
    assert_eq!(jit.dso_kind(), DsoKind::Jit);
    // Leaf symbols: the `Overhead` of `perf report --no-children` is their share (13.10 % of
    // 397 samples is 52).
    let leaf = |comm: &str, sym: &str| {
        all.iter()
            .filter(|s| s.comm == comm && s.frames[0].symbol == sym)
            .count()
    };
    assert_eq!(leaf("spin", "Accumulator<double>::add"), 52);
    assert_eq!(
        leaf(
            "java",
            "java.lang.Object java.util.HashMap.merge(java.lang.Object, java.lang.Object, java.util.function.BiFunction)"
        ),
        34
    );
    assert_eq!(leaf("dd", "do_syscall_64"), 19);
    let unknown = all
        .iter()
        .flat_map(|s| &s.frames)
        .filter(|f| f.symbol == "[unknown]" && f.dso == "[unknown]")
        .count();
    assert!(unknown > 100, "{unknown}");
}

#[test]
fn captured_folded_stacks() {
    let f = folded(CALLCHAINS);
    assert_eq!(f.event.as_deref(), Some("cpu-clock:ppp"));
    assert_eq!(f.samples, 397);
    assert_eq!(f.stacks.len(), 126);
    // Weighed by period (10101010 ns per sample at 99 Hz), root first, offsets removed.
    assert_eq!(
        f.stacks["spin;__libc_start_call_main;main;Accumulator<double>::add"],
        52 * 10_101_010
    );
    // Argument lists are removed, as inferno and stackcollapse-perf.pl do (`StubRoutines (1)`
    // keeps the space before its parenthesis).
    assert_eq!(
        f.stacks["java;start_thread;ThreadJavaMain;JavaMain;jni_CallStaticVoidMethod;jni_invoke_static;JavaCalls::call_helper;StubRoutines ;Interpreter;long Busy.work;java.lang.Object java.util.HashMap.merge"],
        33 * 10_101_010
    );
    // The command name keeps its digit (stackcollapse-perf.pl and inferno read
    // `worker thread 1  9965` as command `worker thread`, thread 1).
    assert_eq!(
        f.stacks["worker_thread_1;[libstdc++.so.6.0.30];std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::{lambda()#1}> > >::_M_run;(anonymous namespace)::churn"],
        47 * 10_101_010
    );
    // `[unknown]` symbols take their DSO's file name.
    assert_eq!(f.stacks["sh;[dash]"], 21 * 10_101_010);
    let total: u64 = f.stacks.values().sum();
    assert_eq!(total, 4_010_100_970);
    // One sample per stack weight with Weight::Samples.
    let by_samples = folded_with(
        &fixture(CALLCHAINS),
        CollapseOptions {
            weight: Weight::Samples,
            ..CollapseOptions::default()
        },
    );
    assert_eq!(by_samples.stacks.values().sum::<u64>(), 397);
    // Lines are sorted `stack count`.
    let text = folded_text(&f);
    assert_eq!(text.lines().count(), 126);
    assert!(text
        .lines()
        .all(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().is_ok()));
}

#[test]
fn samples_without_call_chains() {
    // `perf record` without `-g`: right-aligned command names, the frame on the header line,
    // no blank lines between samples.
    let all = samples(NO_CALLCHAIN);
    assert_eq!(all.len(), 204);
    assert!(all.iter().all(|s| s.frames.len() == 1));
    assert_eq!(all[0].comm, "spin");
    assert_eq!(all[0].frames[0].symbol, "Accumulator<double>::add");
    assert_eq!(all[0].frames[0].offset, Some(0x19));
    let worker = all.iter().find(|s| s.comm == "worker thread 1").unwrap();
    assert_eq!(worker.frames[0].symbol, "(anonymous namespace)::churn");
    let nc = all.iter().find(|s| s.comm == "nc").unwrap();
    assert_eq!(nc.frames[0].dso, "[kernel.kallsyms]");
    assert_eq!(nc.frames[0].line, nc.line);
    // C++ lambda call operator with spaces in the scope.
    assert!(all
        .iter()
        .any(|s| s.frames[0].symbol
            == "lld::elf::postScanRelocations(lld::elf::Ctx&)::$_0::operator()"));
    let f = folded(NO_CALLCHAIN);
    assert_eq!(f.samples, 204);
    assert_eq!(f.stacks["spin;Accumulator<double>::add"], 26 * 10_101_010);
}

#[test]
fn two_events_fold_the_first_unless_asked() {
    let parsed = perf::script::parse(&fixture(TWO_EVENTS)).unwrap();
    let ev = &parsed.value.summary.events;
    // Same counts and event counts as `perf report` prints for this perf.data.
    assert_eq!(
        ev.iter()
            .map(|e| (e.name.as_str(), e.samples, e.period))
            .collect::<Vec<_>>(),
        vec![
            ("page-faults", 12, 3_204_782),
            ("cpu-clock", 198, 1_999_999_980)
        ]
    );
    let f = folded(TWO_EVENTS);
    assert_eq!(f.event.as_deref(), Some("page-faults"));
    assert_eq!((f.samples, f.other_event_samples), (12, 198));
    let f = folded_with(
        &fixture(TWO_EVENTS),
        CollapseOptions {
            event: Some("cpu-clock".to_string()),
            ..CollapseOptions::default()
        },
    );
    assert_eq!((f.samples, f.other_event_samples), (198, 12));
    assert_eq!(f.stacks.values().sum::<u64>(), 1_999_999_980);
}

/// The documented derivation of the `resguard_linux` fixture from the real loopback capture.
fn derive_resguard(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1024);
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let renamed = [
            (" ip_output+0x", " net_asp_logic_access_check+0x"),
            (" ip_finish_output2+0x", " secmodel_check+0x"),
        ]
        .iter()
        .find_map(|(from, to)| {
            let at = body.find(from)?;
            let rest = body[at + from.len()..].strip_suffix(" ([kernel.kallsyms])")?;
            rest.bytes()
                .all(|b| b.is_ascii_hexdigit())
                .then(|| format!("{}{to}{rest} ([resguard_linux])", &body[..at]))
        });
        match renamed {
            Some(r) => {
                out.push_str(&r);
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

#[test]
fn third_party_module_frames_are_attributed() {
    let real = fixture(LOOPBACK);
    let derived = fixture(RESGUARD);
    assert_eq!(
        derive_resguard(&real),
        derived,
        "derivation in PROVENANCE.md"
    );
    let all = samples(RESGUARD);
    assert_eq!(all.len(), 300);
    let module_frames: Vec<_> = all
        .iter()
        .flat_map(|s| &s.frames)
        .filter(|f| f.module() == Some("resguard_linux"))
        .collect();
    assert_eq!(module_frames.len(), 104);
    assert!(module_frames
        .iter()
        .all(|f| f.dso_kind() == DsoKind::KernelModule && f.dso == "[resguard_linux]"));
    let hit = all
        .iter()
        .filter(|s| {
            s.frames
                .iter()
                .any(|f| f.module() == Some("resguard_linux"))
        })
        .count();
    assert_eq!(hit, 51);
    // The module sits right above `__ip_queue_xmit` (where `ip_local_out` is inlined).
    for s in &all {
        for w in s.frames.windows(2) {
            if w[0].symbol == "net_asp_logic_access_check" {
                assert_eq!(w[1].symbol, "__ip_queue_xmit", "line {}", w[1].line);
            }
        }
    }
    // The real capture has no module frame at all.
    assert!(samples(LOOPBACK)
        .iter()
        .flat_map(|s| &s.frames)
        .all(|f| f.module().is_none()));
    let f = folded(RESGUARD);
    let (stack, weight) = f
        .sorted()
        .into_iter()
        .filter(|(k, _)| k.contains("secmodel_check"))
        .max_by_key(|(_, w)| *w)
        .unwrap();
    assert_eq!(
        stack,
        "nc;__GI___libc_write;entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_write;vfs_write;sock_write_iter;tcp_sendmsg;tcp_sendmsg_locked;__tcp_push_pending_frames;tcp_write_xmit;__tcp_transmit_skb;__ip_queue_xmit;net_asp_logic_access_check;secmodel_check;__dev_queue_xmit;__local_bh_enable_ip;do_softirq.part.0;handle_softirqs;net_rx_action;__napi_poll;process_backlog;__netif_receive_skb_one_core;ip_local_deliver_finish;ip_protocol_deliver_rcu;tcp_v4_rcv;tcp_v4_do_rcv;tcp_rcv_established;tcp_data_queue;sock_def_readable;_raw_spin_unlock_irqrestore"
    );
    // 6 samples of 2004008 ns (499 Hz).
    assert_eq!(weight, 6 * 2_004_008);
    let through_module: u64 = f
        .stacks
        .iter()
        .filter(|(k, _)| k.split(';').any(|f| f == "secmodel_check"))
        .map(|(_, w)| w)
        .sum();
    assert_eq!(through_module, 49 * 2_004_008);
    // With kernel annotation, module frames are marked like kernel ones.
    let f = folded_with(
        &derived,
        CollapseOptions {
            annotate_kernel: true,
            ..CollapseOptions::default()
        },
    );
    assert!(f
        .stacks
        .keys()
        .any(|k| k
            .contains(";__ip_queue_xmit_[k];net_asp_logic_access_check_[k];secmodel_check_[k];")));
}

#[test]
fn dso_classes() {
    assert_eq!(classify_dso("[kernel.kallsyms]"), DsoKind::Kernel);
    assert_eq!(classify_dso("[kernel]"), DsoKind::Kernel);
    assert_eq!(
        classify_dso("/lib/modules/4.1.0-virtual/build/vmlinux"),
        DsoKind::Kernel
    );
    assert_eq!(classify_dso("[nf_conntrack]"), DsoKind::KernelModule);
    assert_eq!(module_name("[nf_conntrack]"), Some("nf_conntrack"));
    assert_eq!(
        module_name("/lib/modules/6.1.0-18-amd64/kernel/net/netfilter/nf_conntrack.ko"),
        Some("nf_conntrack")
    );
    assert_eq!(module_name("[kernel.kallsyms]"), None);
    assert_eq!(classify_dso("/tmp/perf-10939.map"), DsoKind::Jit);
    assert_eq!(classify_dso("[vdso]"), DsoKind::Special);
    assert_eq!(classify_dso("[unknown]"), DsoKind::Unknown);
    assert_eq!(
        classify_dso("/usr/lib/x86_64-linux-gnu/libc.so.6"),
        DsoKind::User
    );
    // Inferno's own example of a module frame.
    let text = "swapper 0 [000] 1.000001: 1 cycles:\n\t     7d8 ipv4_conntrack_local+0x7f8f80b8 ([nf_conntrack_ipv4])\n\tffffffff8103ce3b native_safe_halt ([kernel.kallsyms])\n\n";
    let p = perf::script::parse(text).unwrap();
    let f = &p.value.to_samples()[0].frames[0];
    assert_eq!(
        (f.address, f.symbol.as_str(), f.offset),
        (Some(0x7d8), "ipv4_conntrack_local", Some(0x7f8f80b8))
    );
    assert_eq!(f.module(), Some("nf_conntrack_ipv4"));
}

/// The FlameGraph expected output of `stackcollapse-perf.pl --OPT` for a corpus input.
fn flamegraph_result(name: &str, opt: &str) -> String {
    fixture(&format!(
        "perf/flamegraph-results/perf-{name}-collapsed-{opt}.txt"
    ))
}

fn options(opt: &str) -> CollapseOptions {
    let mut o = CollapseOptions::default();
    match opt {
        "pid" => o.include_pid = true,
        "tid" => o.include_tid = true,
        "kernel" => o.annotate_kernel = true,
        "jit" => o.annotate_jit = true,
        "all" => {
            o.annotate_kernel = true;
            o.annotate_jit = true;
        }
        "addrs" => o.include_addrs = true,
        _ => unreachable!(),
    }
    o
}

/// `text` without its last sample (stackcollapse-perf.pl only counts a sample when a blank line
/// follows it; two corpus files end without one).
fn without_last_sample(text: &str) -> String {
    let cut = text.trim_end().rfind("\n\n").unwrap();
    text[..cut + 2].to_string()
}

#[test]
fn folding_matches_stackcollapse_perf() {
    let inputs = [
        (DD, "dd-stacks-01"),
        (CYCLES_INSTRUCTIONS, "cycles-instructions-01"),
        (JAVA_OLD, "java-stacks-02"),
        (NUMA, "numa-stacks-01"),
    ];
    for (rel, name) in inputs {
        let text = fixture(rel);
        let unterminated = !text.ends_with("\n\n");
        let input = if unterminated {
            without_last_sample(&text)
        } else {
            text.clone()
        };
        for opt in ["pid", "tid", "kernel", "jit", "all", "addrs"] {
            let got = folded_text(&folded_with(&input, options(opt)));
            let mut want = flamegraph_result(name, opt);
            if name == "java-stacks-02" && (opt == "pid" || opt == "tid") {
                // Recorded before FlameGraph #147, which tidies Java names for `java-PID` roots
                // too (`$pname =~ m/^java/`), as inferno does.
                want = want.replace(";Ljava/io/", ";java/io/");
            }
            assert_eq!(got, want, "{rel} --{opt}");
        }
    }
}

#[test]
fn corpus_asserted_values() {
    let pid = |rel: &str| folded_with(&fixture(rel), options("pid"));
    let dd = pid(DD);
    assert_eq!(
        dd.stacks
            ["dd-?;[unknown];write;system_call;sys_write;vfs_write;fsnotify;__srcu_read_unlock"],
        20_202_020
    );
    // The last sample has no blank line after it: counted here, dropped by the Perl script.
    assert_eq!(dd.samples, 11);
    assert_eq!(dd.stacks["dd-?;[unknown];system_call"], 10_101_010);
    let ci = pid(CYCLES_INSTRUCTIONS);
    assert_eq!(ci.event.as_deref(), Some("instructions"));
    assert_eq!(ci.stacks["noploop-?;main"], 274);
    assert_eq!(ci.stacks["cksum-?;_start;__libc_start_main;main;cksum"], 31);
    let java = pid(JAVA_OLD);
    let (stack, count) = java.sorted()[0];
    assert!(
        stack.starts_with("java-?;start_thread;JavaMain;jni_CallStaticVoidMethod;"),
        "{stack}"
    );
    assert_eq!(count, 2);
    let numa = pid(NUMA);
    let swapper =
        "swapper-?;start_secondary;cpu_startup_entry;arch_cpu_idle;default_idle;native_safe_halt";
    assert_eq!(numa.stacks[swapper], 73);
    assert_eq!(
        folded_with(&without_last_sample(&fixture(NUMA)), options("pid")).stacks[swapper],
        72
    );
}

#[test]
fn header_block_fields() {
    let parsed = perf::script::parse(&fixture(CYCLES_INSTRUCTIONS)).unwrap();
    let s = &parsed.value.summary;
    let get = |k: &str| {
        s.header
            .iter()
            .find(|h| h.key == k)
            .map(|h| h.value.as_str())
    };
    assert_eq!(get("perf version"), Some("4.13.0-rc1"));
    assert_eq!(get("arch"), Some("x86_64"));
    assert_eq!(get("nrcpus online"), Some("8"));
    assert_eq!(s.header[0].key, "captured on");
    assert_eq!(s.header[0].line, 2);
    assert_eq!(get("hostname"), Some("example-host"));
    assert_eq!(
        s.events
            .iter()
            .map(|e| (e.name.as_str(), e.samples))
            .collect::<Vec<_>>(),
        vec![("instructions", 333), ("cycles", 111)]
    );
    // perf 4.13 prints no period: the sample count is the weight.
    assert!(parsed.value.iter().all(|s| s.period.is_none()));
}

#[test]
fn old_format_without_time() {
    let all = samples(JAVA_OLD);
    assert_eq!(all.len(), 2);
    assert_eq!((all[0].comm.as_str(), all[0].tid), ("java", Some(19983)));
    assert_eq!(all[0].event, "cycles");
    assert_eq!(all[0].time_ns, None);
    assert_eq!(all[0].frames.len(), 24);
    assert_eq!(all[0].frames[0].symbol, "native_write_msr_safe");
}

/// A reader that yields `text` `times` times, without holding the copies.
struct Repeat<'a> {
    text: &'a [u8],
    times: usize,
    at: usize,
}

impl Read for Repeat<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.times == 0 {
            return Ok(0);
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        if self.at == self.text.len() {
            self.at = 0;
            self.times -= 1;
        }
        Ok(n)
    }
}

#[test]
fn streaming_over_a_repeated_capture() {
    let text = fixture(CALLCHAINS);
    let times = 40;
    let reader = BufReader::with_capacity(
        8192,
        Repeat {
            text: text.as_bytes(),
            times,
            at: 0,
        },
    );
    let mut n = 0u64;
    let mut max_frames = 0;
    let summary = for_each_sample(reader, |s| {
        n += 1;
        max_frames = max_frames.max(s.frames.len());
    })
    .unwrap();
    assert!(summary.issues.is_empty(), "{:?}", summary.issues);
    assert_eq!(n, 397 * times as u64);
    assert_eq!(summary.value.samples, n);
    assert_eq!(summary.value.lines, 3166 * times);
    // perf's default `kernel.perf_event_max_stack`.
    assert_eq!(max_frames, 127);
    // Folding the repeated stream: same stacks, 40 times the weight.
    let reader = Repeat {
        text: text.as_bytes(),
        times,
        at: 0,
    };
    let f = collapse(BufReader::new(reader), CollapseOptions::default()).unwrap();
    assert_eq!(f.value.stacks.len(), 126);
    assert_eq!(
        f.value.stacks["spin;__libc_start_call_main;main;Accumulator<double>::add"],
        40 * 52 * 10_101_010
    );
}

#[test]
fn caps_bound_memory_and_are_reported_once() {
    let text = fixture(CALLCHAINS);
    let capped = collapse(
        text.as_bytes(),
        CollapseOptions {
            max_stacks: 10,
            ..CollapseOptions::default()
        },
    )
    .unwrap();
    assert_eq!(capped.value.stacks.len(), 10);
    assert_eq!(capped.value.samples + capped.value.dropped_samples, 397);
    assert!(capped.value.dropped_samples > 0);
    assert_eq!(capped.issues.len(), 1, "{:?}", capped.issues);
    assert!(capped.issues[0].message.contains("distinct stacks"));
    let shallow = collapse(
        text.as_bytes(),
        CollapseOptions {
            max_frames: 3,
            ..CollapseOptions::default()
        },
    )
    .unwrap();
    assert_eq!(shallow.issues.len(), 1);
    assert!(shallow
        .value
        .stacks
        .keys()
        .all(|k| k.split(';').count() <= 5));
    assert!(
        shallow
            .value
            .stacks
            .contains_key("spin;[truncated];__libc_start_call_main;main;Accumulator<double>::add")
            || shallow
                .value
                .stacks
                .contains_key("spin;__libc_start_call_main;main;Accumulator<double>::add")
    );
    assert!(shallow.value.truncated_samples > 0);

    // A line without end is cut at MAX_LINE_BYTES; a call chain deeper than MAX_FRAMES is cut.
    let mut long = String::from("x 1 [000] 1.000000: 1 cpu-clock:\n\t0 f (");
    long.push_str(&"a".repeat(3 * perf::script::MAX_LINE_BYTES));
    long.push_str(")\n\n");
    let p = perf::script::parse(&long).unwrap();
    assert_eq!(p.value.summary.samples, 1);
    assert!(
        p.issues[0].message.contains("line longer than"),
        "{:?}",
        p.issues
    );
    // The cap is exact: a line of MAX_LINE_BYTES bytes is whole, one more byte is cut.
    for (extra, cut) in [(0, false), (1, true)] {
        let frame_start = "\t0 f (";
        let fill = perf::script::MAX_LINE_BYTES + extra - frame_start.len() - 1;
        let text = format!(
            "x 1 [000] 1.000000: 1 cpu-clock:\n{frame_start}{})\n\n",
            "a".repeat(fill)
        );
        let p = perf::script::parse(&text).unwrap();
        assert_eq!(!p.issues.is_empty(), cut, "{:?}", p.issues);
        assert_eq!(p.value.get(0).unwrap().frame_count(), usize::from(!cut));
    }
    let mut deep = String::from("x 1 [000] 1.000000: 1 cpu-clock:\n");
    for _ in 0..perf::script::MAX_FRAMES + 10 {
        deep.push_str("\tffffffff81000000 f ([kernel.kallsyms])\n");
    }
    let p = perf::script::parse(&deep).unwrap();
    assert_eq!(
        p.value.get(0).unwrap().frame_count(),
        perf::script::MAX_FRAMES
    );
    assert_eq!(p.issues.len(), 1);
}

#[test]
fn cut_output_is_reported_and_read() {
    // The collector caps `perf script` with `head -c`: the last sample may stop mid-line.
    let text = fixture(CALLCHAINS);
    let cut = &text[..text.len() / 2];
    let p = perf::script::parse(cut).unwrap();
    let last = p.issues.last().unwrap();
    assert!(last.message.contains("no line end"), "{last:?}");
    assert_eq!(last.line, cut.lines().count());
    assert!(p.value.summary.samples > 150 && p.value.summary.samples < 250);
}

#[test]
fn garbage_lines_are_issues_with_their_line() {
    let text = fixture(CALLCHAINS);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(4, "this is not a frame");
    let text = lines.join("\n") + "\n";
    let p = perf::script::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 5);
    assert!(p.issues[0].message.contains("expected a sample header"));
    assert_eq!(p.value.summary.samples, 397);
}

#[test]
fn unusable_inputs() {
    for text in ["", "\n\n", "# only a comment\n"] {
        assert!(matches!(
            perf::script::parse(text),
            Err(ParseError::Unusable { .. })
        ));
    }
    let err = perf::script::parse("hello world\nfoo bar\n").unwrap_err();
    assert!(
        err.to_string().contains("no `perf script` sample header"),
        "{err}"
    );
    // perf report text is not perf script.
    let err = perf::script::parse(&fixture("perf/perf6.1-report-no-callchain.txt")).unwrap_err();
    assert!(err.to_string().contains("sample header"), "{err}");
}

#[test]
fn sniffing() {
    for rel in ALL {
        let text = fixture(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            assert_eq!(perf::script::sniff(sample), Sniff::Yes, "{rel}");
        }
    }
    for rel in perf_report_fixtures() {
        let text = fixture(&rel);
        assert_eq!(
            perf::script::sniff(head(&text, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
    }
    // A header-only head (`--header`, samples further down) is plausible, not certain.
    let text = fixture(NUMA);
    assert_eq!(perf::script::sniff(head(&text, 600)), Sniff::Unsure);
    // Samples without frames.
    assert_eq!(
        perf::script::sniff(
            "dd 1 [000] 1.000000: 1 cpu-clock:\ndd 1 [000] 1.000100: 1 cpu-clock:\n"
        ),
        Sniff::Unsure
    );
}

fn perf_report_fixtures() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(fixture_path("perf"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| format!("perf/{}", e.file_name().to_string_lossy()))
        .filter(|f| f.contains("-report-") || f.contains("-top-"))
        .collect();
    out.sort();
    assert_eq!(out.len(), 16);
    out
}

/// Every fixture file of the other kinds (all directories but `perf/`).
fn other_kinds_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir() && e.file_name() != "perf")
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    for d in dirs {
        for e in std::fs::read_dir(fixture_path(&d)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                out.push(format!("{d}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    out
}

#[test]
fn other_kinds_are_refused() {
    let mut failures = Vec::new();
    let others = other_kinds_fixtures();
    assert!(others.len() > 100, "{}", others.len());
    for rel in &others {
        let bytes = std::fs::read(fixture_path(rel)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for sample in [head(&text, SNIFF_HEAD_BYTES), &text] {
            let got = perf::script::sniff(sample);
            if got != Sniff::No {
                failures.push(format!("{rel}: sniff said {got:?}"));
            }
        }
        if let Ok(p) = perf::script::parse(&text) {
            failures.push(format!(
                "{rel}: parsed {} samples with {} issues",
                p.value.summary.samples,
                p.issues.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cut_and_random_inputs_never_panic() {
    let mut rng = XorShift(0x5eed_1234_abcd_0001);
    for rel in ALL {
        let text = fixture(rel);
        let lines = text.lines().count();
        for _ in 0..20 {
            let cut = head(&text, rng.below(text.len() + 1));
            if let Ok(p) = perf::script::parse(cut) {
                assert!(p.issues.iter().all(|i| i.line <= lines), "{rel}");
            }
            let _ = collapse(cut.as_bytes(), CollapseOptions::default());
            // Flip bytes in the middle.
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..8 {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next_u64() as u8;
            }
            let flipped = String::from_utf8_lossy(&bytes);
            let _ = perf::script::parse(&flipped);
            let _ = perf::script::sniff(head(&flipped, SNIFF_HEAD_BYTES));
            let _ = collapse(&bytes[..], CollapseOptions::default());
        }
    }
    for _ in 0..50 {
        let n = rng.below(5000);
        let bytes = rng.bytes(n);
        let _ = collapse(&bytes[..], CollapseOptions::default());
        let text = String::from_utf8_lossy(&bytes);
        let _ = perf::script::sniff(&text);
    }
    // Token soup built from perf script pieces.
    let pieces = [
        "java",
        "1234",
        "12/34",
        "[001]",
        "1.5:",
        "10101010",
        "cpu-clock:",
        "\t",
        "ffff",
        "sym",
        "+0x1f",
        "([kernel.kallsyms])",
        "(",
        ")",
        "[unknown]",
        "->",
        ";",
        "-1",
        "\n",
        "\n\n",
    ];
    for _ in 0..200 {
        let mut s = String::new();
        for _ in 0..rng.below(200) {
            s.push_str(pieces[rng.below(pieces.len())]);
            if rng.below(3) == 0 {
                s.push(' ');
            }
        }
        if let Ok(p) = perf::script::parse(&s) {
            let lines = s.lines().count().max(1);
            assert!(p.issues.iter().all(|i| i.line <= lines));
        }
        let _ = collapse(s.as_bytes(), CollapseOptions::default());
    }
}
