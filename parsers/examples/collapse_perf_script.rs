//! Streams `perf script` output and prints its folded stacks (`comm;root;…;leaf count`, sorted),
//! the input of inferno's `flamegraph` and of `flamegraph.pl`.
//!
//! ```sh
//! perf script | cargo run --release -p rca-parsers --example collapse_perf_script > out.folded
//! cargo run --release -p rca-parsers --example collapse_perf_script -- perf-script.txt --pid
//! ```
//! Options mirror inferno's `collapse-perf`: `--pid`, `--tid`, `--kernel`, `--jit`, `--addrs`,
//! `--all` (kernel and JIT annotations), `--event-filter EVENT`; `--samples` weighs each sample 1
//! instead of its period. A summary (samples, stacks, issues) goes to standard error.

use parsers::perf::script::{collapse, CollapseOptions, Weight};
use std::io::{self, BufReader, BufWriter, Read, Write};

fn main() {
    let mut opts = CollapseOptions::default();
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--pid" => opts.include_pid = true,
            "--tid" => opts.include_tid = true,
            "--kernel" => opts.annotate_kernel = true,
            "--jit" => opts.annotate_jit = true,
            "--all" => {
                opts.annotate_kernel = true;
                opts.annotate_jit = true;
            }
            "--addrs" => opts.include_addrs = true,
            "--samples" => opts.weight = Weight::Samples,
            "--event-filter" => opts.event = args.next(),
            "-h" | "--help" => {
                eprintln!("usage: collapse_perf_script [--pid|--tid|--kernel|--jit|--all|--addrs|--samples|--event-filter EVENT] [FILE]");
                return;
            }
            _ => path = Some(a),
        }
    }
    let input: Box<dyn Read> = match &path {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("{p}: {e}");
                std::process::exit(2);
            }
        },
        None => Box::new(io::stdin().lock()),
    };
    let parsed = match collapse(BufReader::with_capacity(1 << 20, input), opts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", path.as_deref().unwrap_or("stdin"));
            std::process::exit(2);
        }
    };
    let out = io::stdout().lock();
    let mut out = BufWriter::new(out);
    if let Err(e) = parsed
        .value
        .write_folded(&mut out)
        .and_then(|_| out.flush())
    {
        eprintln!("writing: {e}");
        std::process::exit(2);
    }
    let f = &parsed.value;
    eprintln!(
        "event {}: {} samples folded into {} stacks ({} of other events, {} without frames, {} dropped at the cap); {} issues",
        f.event.as_deref().unwrap_or("-"),
        f.samples,
        f.stacks.len(),
        f.other_event_samples,
        f.empty_samples,
        f.dropped_samples,
        parsed.issues.len()
    );
    for i in parsed.issues.iter().take(5) {
        eprintln!("  line {}: {}", i.line, i.message);
    }
}
