//! Resource limits: the shell's `ulimit -a`, and `/proc/<pid>/limits` of processes examined on
//! both sides (paired by command name).
//!
//! In: both sides' [`Limits`](crate::facts::limits::Limits). Out: one difference per limit that
//! differs. Low weight (case S2: pending signals 2088097 vs 254060 had no effect); open files and
//! processes weigh a little more.

use super::score::{self, ULIMIT};
use super::{Difference, Out, Pair, Which};
use crate::evidence::Cited;
use crate::facts::limits::Limit;
use parsers::proc::limits::LimitValue;
use std::collections::{BTreeMap, BTreeSet};

/// Limits that servers with many connections or threads actually reach: weight 18.
pub const KNOWN: &[&str] = &["RLIMIT_NOFILE", "RLIMIT_NPROC"];

/// Weight of a known limit.
const KNOWN_WEIGHT: f64 = 18.0;

fn magnitude(a: LimitValue, b: LimitValue) -> f64 {
    match (a.finite(), b.finite()) {
        (Some(x), Some(y)) => score::numeric_magnitude(x as f64, y as f64, score::SETTING),
        (None, None) => 0.0,
        _ => 1.0,
    }
}

fn compare_maps(
    out: &mut Out,
    sized: &std::collections::HashMap<&str, Option<String>>,
    what: &str,
    b: &BTreeMap<String, Cited<Limit>>,
    s: &BTreeMap<String, Cited<Limit>>,
) {
    let keys: BTreeSet<&String> = b.keys().chain(s.keys()).collect();
    for k in keys {
        let (Some(x), Some(y)) = (b.get(k), s.get(k)) else {
            continue;
        };
        if x.value.soft == y.value.soft && x.value.hard == y.value.hard {
            continue;
        }
        let m = if x.value.soft != y.value.soft {
            magnitude(x.value.soft, y.value.soft)
        } else {
            // Hard limits only: a ceiling, not what is enforced.
            0.5 * magnitude(
                x.value.hard.unwrap_or(x.value.soft),
                y.value.hard.unwrap_or(y.value.soft),
            )
        };
        let known = KNOWN.contains(&k.as_str());
        let sized = sized.get(k.as_str()).cloned().flatten();
        let m = if sized.is_some() { 0.0 } else { m };
        let mut d = Difference::new(&ULIMIT, format!("{what} {} ({k})", x.value.name))
            .values(Some(x.value.display()), Some(y.value.display()))
            .magnitude(m)
            .reason(if let Some(why) = &sized {
                format!("the kernel sizes this default from the host ({why}): a consequence, not tuning")
            } else if m == 0.0 {
                "within 5 %: the same setting".to_string()
            } else if known {
                "a limit that servers with many connections or threads reach".to_string()
            } else {
                "limits rarely matter until reached (case S2: pending signals differed 8×, no effect)".to_string()
            })
            .cite(Which::Baseline, Some(x))
            .cite(Which::Suspect, Some(y));
        if known {
            d = d.weight(KNOWN_WEIGHT);
        }
        out.push(d);
    }
}

/// Compares the shell's limits and per-process limits.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.limits, &p.suspect.facts.limits);
    // Limits whose defaults the kernel derives from RAM (`max_threads / 2`, from `threads-max`).
    let sized: std::collections::HashMap<&str, Option<String>> =
        ["RLIMIT_SIGPENDING", "RLIMIT_NPROC"]
            .into_iter()
            .map(|k| (k, super::sized_by_host(p, "kernel.threads-max")))
            .collect();
    if out.both(
        "limits",
        "shell limits (`ulimit -a`)",
        !b.shell.is_empty(),
        !s.shell.is_empty(),
    ) {
        compare_maps(out, &sized, "ulimit", &b.shell, &s.shell);
    }
    if out.both(
        "limits",
        "process limits (`/proc/<pid>/limits`)",
        !b.processes.is_empty(),
        !s.processes.is_empty(),
    ) {
        for pb in &b.processes {
            let Some(comm) = &pb.comm else { continue };
            if let Some(ps) = s.processes.iter().find(|x| x.comm.as_ref() == Some(comm)) {
                compare_maps(out, &sized, &format!("`{comm}`"), &pb.limits, &ps.limits);
            }
        }
    }
}
