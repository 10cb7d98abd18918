//! Processes and their connections, compared by command name (never by PID).
//!
//! In: both sides' `ps` list and ESTABLISHED connections per command (`ss`/`netstat`). Out:
//! processes on one side only (those owning connections weigh most: case S2), connection counts
//! that changed, and instance counts that changed.

use super::score::{self, CONNECTIONS, PROCESS_COUNT, PROCESS_ONE_SIDE, PROCESS_WITH_CONNECTIONS};

/// A process without connections that started less than this many seconds before the collection
/// (`ps` `etimes`) is a passing command (a build, a shell tool), not a service of the host.
pub const TRANSIENT_S: u64 = 600;
/// Magnitude of such a process: its difference stays below the noise threshold.
pub const TRANSIENT_MAGNITUDE: f64 = 0.2;
use super::{num, Difference, Out, Pair, Which};
use crate::evidence::Cited;
use crate::facts::{ConnectionCount, ProcessInfo, Processes};
use std::collections::{BTreeMap, BTreeSet};

/// Commands never compared for presence: shells, interactive helpers and the collector's own
/// tools, which run on whichever host was being examined at that moment.
pub const TRANSIENT: &[&str] = &[
    "sh",
    "bash",
    "dash",
    "zsh",
    "ash",
    "busybox",
    "sudo",
    "su",
    "login",
    "sleep",
    "timeout",
    "ps",
    "top",
    "ss",
    "netstat",
    "iostat",
    "mpstat",
    "vmstat",
    "pidstat",
    "sar",
    "sadc",
    "sadf",
    "perf",
    "jstat",
    "jcmd",
    "jstack",
    "jmap",
    "tar",
    "gzip",
    "awk",
    "sed",
    "cat",
    "tee",
    "sort",
    "head",
    "tail",
    "grep",
    "collector.sh",
];

/// Owning command names of sockets without a visible owner.
const UNOWNED: &str = "-";

struct View<'a> {
    /// Instances per command (kernel threads and transient commands excluded).
    procs: BTreeMap<&'a str, Vec<&'a Cited<ProcessInfo>>>,
    /// Connections per command.
    conns: BTreeMap<&'a str, &'a Cited<ConnectionCount>>,
    /// Total ESTABLISHED connections.
    total: usize,
    has_ps: bool,
    has_conns: bool,
}

fn is_kernel_thread(p: &ProcessInfo) -> bool {
    let a = p.args.trim();
    a.starts_with('[') && a.ends_with(']')
}

fn view(p: &Processes) -> View<'_> {
    let mut procs: BTreeMap<&str, Vec<&Cited<ProcessInfo>>> = BTreeMap::new();
    for c in &p.list {
        if is_kernel_thread(&c.value) || TRANSIENT.contains(&c.value.comm.as_str()) {
            continue;
        }
        procs.entry(c.value.comm.as_str()).or_default().push(c);
    }
    let conns: BTreeMap<&str, &Cited<ConnectionCount>> = p
        .connections
        .iter()
        .map(|c| (c.value.comm.as_str(), c))
        .collect();
    View {
        total: p.connections.iter().map(|c| c.value.established).sum(),
        has_ps: !p.list.is_empty(),
        has_conns: !p.connections.is_empty(),
        procs,
        conns,
    }
}

fn cite_procs(
    mut d: Difference,
    side: Which,
    list: Option<&Vec<&Cited<ProcessInfo>>>,
) -> Difference {
    for c in list.into_iter().flatten().take(3) {
        d = d.cite_lines(side, &c.artifact, &c.lines);
    }
    d
}

fn conn_text(c: &ConnectionCount) -> String {
    format!(
        "{} ESTABLISHED to {} peer{}",
        c.established,
        c.peers,
        if c.peers == 1 { "" } else { "s" }
    )
}

/// Compares processes and connections.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (
        view(&p.baseline.facts.processes),
        view(&p.suspect.facts.processes),
    );
    let ps_both = out.both("process", "process list (`ps`)", b.has_ps, s.has_ps);
    // An empty connection list is indistinguishable from a listing without ESTABLISHED
    // sockets; only a list on one side and none on the other is reported as a gap.
    out.both(
        "process",
        "ESTABLISHED connections (`ss -tanp`/`netstat -tanp`)",
        b.has_conns,
        s.has_conns,
    );
    let names: BTreeSet<&str> = b
        .procs
        .keys()
        .chain(s.procs.keys())
        .chain(b.conns.keys())
        .chain(s.conns.keys())
        .copied()
        .filter(|n| *n != UNOWNED && !TRANSIENT.contains(n))
        .collect();
    for name in names {
        // Present: listed by ps, or (without ps on that side) owning connections.
        let on =
            |v: &View, n: &str| v.procs.contains_key(n) || (!v.has_ps && v.conns.contains_key(n));
        let (in_b, in_s) = (on(&b, name), on(&s, name));
        if in_b != in_s {
            // Presence is only known where ps (or the connection list) was collected.
            if !(ps_both || (b.has_conns && s.has_conns)) {
                continue;
            }
            let (side, other, v) = if in_b {
                (Which::Baseline, Which::Suspect, &b)
            } else {
                (Which::Suspect, Which::Baseline, &s)
            };
            let instances = v.procs.get(name).map(Vec::len).unwrap_or(0);
            let shown = match v.conns.get(name) {
                Some(c) => format!("running, {}", conn_text(&c.value)),
                None if instances > 1 => format!("running ({instances} instances)"),
                None => "running".to_string(),
            };
            let (bv, sv) = if in_b {
                (Some(shown), None)
            } else {
                (None, Some(shown))
            };
            let d = match v.conns.get(name).filter(|c| c.value.established > 0) {
                Some(c) => {
                    let share = if v.total > 0 {
                        c.value.established as f64 / v.total as f64
                    } else {
                        0.0
                    };
                    let link = (share > 0.5).then(|| {
                        format!(
                            "it owns most of the {}'s ESTABLISHED connections ({:.0} %): the {} serves that load without it",
                            side.label(),
                            share * 100.0,
                            other.label()
                        )
                    });
                    Difference::new(&PROCESS_WITH_CONNECTIONS, format!("process `{name}`"))
                        .magnitude(0.5 + 0.5 * share)
                        .reason(format!(
                            "runs on the {} only and owns {} of its {} ESTABLISHED connections ({} peer{}): a co-located service changes the load path",
                            side.label(),
                            c.value.established,
                            v.total,
                            c.value.peers,
                            if c.value.peers == 1 { "" } else { "s" }
                        ))
                        .link(link)
                        .cite(side, Some(*c))
                }
                None => {
                    // Started shortly before the collection (all its instances): a command that
                    // came and went, not a service the host runs.
                    let youngest_old = v
                        .procs
                        .get(name)
                        .and_then(|ps| ps.iter().map(|p| p.value.elapsed_s).max().flatten());
                    let transient = youngest_old.is_some_and(|e| e < TRANSIENT_S);
                    Difference::new(&PROCESS_ONE_SIDE, format!("process `{name}`"))
                        .magnitude(if transient { TRANSIENT_MAGNITUDE } else { 1.0 })
                        .reason(format!(
                            "runs on the {} only{}{}",
                            side.label(),
                            if v.has_conns {
                                ", owning no ESTABLISHED connection"
                            } else {
                                " (no ESTABLISHED connection listed there)"
                            },
                            if transient {
                                format!(
                                    "; started {} s before the collection: a passing command",
                                    youngest_old.unwrap_or(0)
                                )
                            } else {
                                String::new()
                            }
                        ))
                }
            };
            let d = cite_procs(d.values(bv, sv), side, v.procs.get(name));
            out.push(d);
            continue;
        }
        if !in_b {
            continue;
        }
        // On both sides: connections, then instance counts.
        if b.has_conns && s.has_conns {
            let cb = b.conns.get(name).map(|c| &c.value);
            let cs = s.conns.get(name).map(|c| &c.value);
            let (nb, ns) = (
                cb.map(|c| c.established).unwrap_or(0),
                cs.map(|c| c.established).unwrap_or(0),
            );
            if nb != ns {
                let m = score::numeric_magnitude(nb as f64, ns as f64, score::CONNECTION_COUNT);
                let rel = score::relative_change(nb as f64, ns as f64);
                let reason = if m == 0.0 {
                    format!(
                        "{nb} vs {ns} ESTABLISHED: within the noise floor ({} connections, {:.0} %)",
                        num(score::CONNECTION_COUNT.abs),
                        score::CONNECTION_COUNT.rel * 100.0
                    )
                } else {
                    format!(
                        "{} ESTABLISHED connections on the suspect than on the baseline ({ns} vs {nb}, a {:.0} % change): its load or peers differ",
                        if ns > nb { "more" } else { "fewer" },
                        rel * 100.0
                    )
                };
                let d = Difference::new(&CONNECTIONS, format!("connections of `{name}`"))
                    .values(
                        Some(cb.map(conn_text).unwrap_or_else(|| "none".into())),
                        Some(cs.map(conn_text).unwrap_or_else(|| "none".into())),
                    )
                    .magnitude(m)
                    .reason(reason)
                    .cite(Which::Baseline, b.conns.get(name).copied())
                    .cite(Which::Suspect, s.conns.get(name).copied());
                out.push(d);
            }
        }
        let (ib, is) = (
            b.procs.get(name).map(Vec::len).unwrap_or(0),
            s.procs.get(name).map(Vec::len).unwrap_or(0),
        );
        if ib != is && ib > 0 && is > 0 {
            let m = score::numeric_magnitude(ib as f64, is as f64, score::COUNT);
            let d = Difference::new(&PROCESS_COUNT, format!("instances of `{name}`"))
                .values(Some(ib.to_string()), Some(is.to_string()))
                .magnitude(m)
                .reason(if m == 0.0 {
                    format!("{ib} vs {is} instances: within the noise floor")
                } else {
                    format!("{is} instances on the suspect vs {ib} on the baseline")
                });
            let d = cite_procs(d, Which::Baseline, b.procs.get(name));
            let d = cite_procs(d, Which::Suspect, s.procs.get(name));
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{Side, Symptoms};
    use crate::facts::HostFacts;

    fn side(procs: &[(&str, &str)], conns: &[(&str, usize)]) -> Side {
        let mut f = HostFacts::default();
        for (i, (comm, args)) in procs.iter().enumerate() {
            f.processes.list.push(Cited::new(
                ProcessInfo {
                    pid: 100 + i as u32,
                    comm: comm.to_string(),
                    args: args.to_string(),
                    elapsed_s: None,
                },
                "system/ps.txt",
                2 + i,
            ));
        }
        for (comm, n) in conns {
            f.processes.connections.push(Cited::lines(
                ConnectionCount {
                    comm: comm.to_string(),
                    established: *n,
                    peers: 2,
                },
                "net/ss-tanp.end",
                vec![1, 2],
            ));
        }
        Side::from_facts("x", f, Vec::new())
    }

    fn run(b: &Side, s: &Side) -> Vec<Difference> {
        let symptoms = Symptoms::default();
        let p = Pair {
            baseline: b,
            suspect: s,
            symptoms: &symptoms,
        };
        let mut out = Out::default();
        compare(&p, &mut out);
        out.diffs
    }

    #[test]
    fn a_process_owning_most_connections_on_one_side_scores_highest_and_is_linked() {
        let b = side(
            &[
                ("java", "java -jar app.jar"),
                ("bootstrap", "/opt/b/bootstrap"),
            ],
            &[("java", 60), ("bootstrap", 400)],
        );
        let s = side(&[("java", "java -jar app.jar")], &[("java", 60)]);
        let d = run(&b, &s);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].kind, "process-with-connections");
        assert!(d[0].link.is_some());
        assert!(d[0].score > score::PROCESS_WITH_CONNECTIONS.value);
    }

    #[test]
    fn a_process_started_minutes_before_the_collection_is_noise() {
        let b = side(&[("java", "java")], &[("java", 10)]);
        let mut s = side(
            &[("java", "java"), ("rustc", "rustc --crate-name x")],
            &[("java", 10)],
        );
        s.facts.processes.list[1].value.elapsed_s = Some(42);
        let d = run(&b, &s);
        let r = d.iter().find(|x| x.subject == "process `rustc`").unwrap();
        assert!(r.score < score::NOISE_SCORE, "{r:?}");
        assert!(r.reason.contains("started 42 s before"));
        // The same process running for hours is a service of the host: above noise.
        s.facts.processes.list[1].value.elapsed_s = Some(7200);
        let d = run(&b, &s);
        let r = d.iter().find(|x| x.subject == "process `rustc`").unwrap();
        assert!(r.score >= score::NOISE_SCORE, "{r:?}");
    }

    #[test]
    fn kernel_threads_and_transient_commands_are_not_compared() {
        let b = side(
            &[("kworker/0:1", "[kworker/0:1]"), ("sleep", "sleep 1")],
            &[],
        );
        let s = side(&[("kworker/3:2", "[kworker/3:2]"), ("bash", "-bash")], &[]);
        assert!(run(&b, &s).is_empty());
    }

    #[test]
    fn an_agent_without_connections_scores_low_and_connection_changes_need_a_real_change() {
        let b = side(&[("java", "java")], &[("java", 100)]);
        let s = side(
            &[("java", "java"), ("agentd", "/opt/agentd")],
            &[("java", 104)],
        );
        let d = run(&b, &s);
        let agent = d.iter().find(|x| x.subject == "process `agentd`").unwrap();
        assert_eq!(agent.score, score::PROCESS_ONE_SIDE.value);
        let conns = d.iter().find(|x| x.kind == "connections").unwrap();
        assert!(conns.noise, "100 vs 104 connections is noise");
    }
}
