//! Builders for rule tests: facts with citations pointing at plausible artifact lines.

use crate::evidence::Cited;
use crate::facts::{HostFacts, ProcessInfo};

pub fn c<T>(v: T) -> Cited<T> {
    Cited::new(v, "test/artifact.txt", 7)
}

pub fn with_process(mut f: HostFacts, comm: &str) -> HostFacts {
    f.processes.list.push(c(ProcessInfo {
        pid: 4242,
        comm: comm.into(),
        args: comm.into(),
        elapsed_s: None,
    }));
    f
}

/// `with_process`, and the list marked complete (as a `ps -e` showing PID 1 would be).
pub fn with_complete_list(f: HostFacts, comm: &str) -> HostFacts {
    let mut f = with_process(f, comm);
    f.processes.listing = crate::facts::process::Listing::Complete;
    f
}

pub fn found(check: super::Check) -> Vec<super::Finding> {
    match check {
        super::Check::Found(v) => v,
        super::Check::Clear(s) => panic!("expected a finding, got clear: {s}"),
        super::Check::NotEvaluated(s) => panic!("expected a finding, got not evaluated: {s}"),
    }
}

pub fn is_clear(check: &super::Check) -> bool {
    matches!(check, super::Check::Clear(_))
}

pub fn is_not_evaluated(check: &super::Check) -> bool {
    matches!(check, super::Check::NotEvaluated(_))
}

/// Runs a rule as the registry does: not evaluated when a fact it needs is missing.
pub fn run(
    meta: &'static super::RuleMeta,
    check: fn(&HostFacts) -> super::Check,
    f: &HostFacts,
) -> super::Check {
    super::Rule { meta, check }.run(f)
}

/// Builders for the JVM rules' tests.
pub mod jvm {
    use crate::evidence::Cited;
    use crate::facts::jvm::{ClassShare, GcSeries, Jvm};
    use crate::facts::HostFacts;

    pub fn jvm_with_gc(after: &[f64], share: f64) -> HostFacts {
        let j = Jvm {
            pid: Some(7),
            dir: "jvm/7".into(),
            main: Some("com.example.Main".into()),
            gc: Some(GcSeries {
                artifact: "jvm/7/jstat-gcutil.txt".into(),
                samples: 31,
                window_s: Some(30.0),
                ygc: Some(4),
                fgc: Some(after.len() as u64),
                pause_s: Some(share * 0.3),
                pause_share_pct: Some(share),
                old_after_fgc: after
                    .iter()
                    .enumerate()
                    .map(|(i, &o)| Cited::new(o, "jvm/7/jstat-gcutil.txt", 3 + i * 5))
                    .collect(),
                span_lines: vec![2, 32],
                timestamped: true,
                ..Default::default()
            }),
            histogram_source: Some("jvm/7/class-histogram.txt".into()),
            top_classes: vec![Cited::new(
                ClassShare {
                    class_name: "java.util.HashMap$Node".into(),
                    instances: 9,
                    bytes: 900 << 20,
                    share_pct: 81.0,
                },
                "jvm/7/class-histogram.txt",
                4,
            )],
            ..Default::default()
        };
        HostFacts {
            jvms: vec![j],
            ..Default::default()
        }
    }
}

/// Builders for the network interface rules' tests.
pub mod nic {
    use crate::facts::{HostFacts, Nic};

    pub fn host(cpus: u32, nics: Vec<Nic>) -> HostFacts {
        let mut f = HostFacts {
            nics,
            ..Default::default()
        };
        f.identity.cpus = Some(cpus);
        f
    }

    pub fn nic(name: &str) -> Nic {
        Nic {
            name: name.into(),
            ..Default::default()
        }
    }

    /// `n` with two `ethtool -S` snapshots, `before` and `after` (texts as ethtool prints them),
    /// `seconds` apart.
    pub fn with_stats(mut n: Nic, before: &str, after: &str, seconds: Option<f64>) -> Nic {
        use parsers::net::ethtool::stats::parse_stats;
        let a = parse_stats(before).unwrap().value;
        let b = parse_stats(after).unwrap().value;
        let growth = b.since(&a).unwrap();
        let first_lines = b
            .keys()
            .into_iter()
            .zip(b.stats.iter().map(|s| s.line))
            .filter_map(|(k, l)| {
                let i = a.keys().iter().position(|x| *x == k)?;
                Some((l, a.stats[i].line))
            })
            .collect();
        n.ethtool_stats = Some(crate::facts::NicStats {
            snapshots: 2,
            latest: format!("net/ethtool/{}/ethtool-S.end", n.name),
            has_queues: b.has_queues(),
            window: Ok(crate::facts::StatsWindow {
                growth,
                seconds,
                first: format!("net/ethtool/{}/ethtool-S.start", n.name),
                last: format!("net/ethtool/{}/ethtool-S.end", n.name),
                first_lines,
            }),
        });
        n
    }
}

/// Builders for the CPU profile rules' tests.
pub mod profile {
    use crate::facts::profile::{Category, ModuleHeat, Profile, ProfileSource, Share};
    use crate::facts::HostFacts;

    pub fn profile(module_pct: f64, lock_pct: f64) -> HostFacts {
        let busy = 1000u64;
        let n = |pct: f64| (pct * busy as f64 / 100.0) as u64;
        let p = Profile {
            artifact: "perf/perf-script.txt".into(),
            data: parsers::perf::profile::Profile {
                source_kind: ProfileSource::PerfScript,
                samples: busy,
                busy_samples: busy,
                modules: vec![ModuleHeat {
                    module: "resguard_linux".into(),
                    self_samples: n(module_pct / 4.0),
                    inclusive_samples: n(module_pct),
                    self_pct: module_pct / 4.0,
                    inclusive_pct: module_pct,
                    functions: vec!["net_asp_logic_access_check".into()],
                    called_from: vec!["ip_local_out".into()],
                    lines: vec![31, 33, 40],
                }],
                locks: Category {
                    samples: n(lock_pct),
                    pct: lock_pct,
                    lines: vec![50, 51],
                    by: vec![Share {
                        name: "net_asp_logic_access_check [resguard_linux]".into(),
                        samples: n(lock_pct),
                        pct: lock_pct,
                        ..Default::default()
                    }],
                },
                ..Default::default()
            },
        };
        HostFacts {
            profiles: vec![p],
            ..Default::default()
        }
    }
}

/// Builders for the clock rules' tests.
pub mod time {
    use super::c;
    use crate::facts::HostFacts;

    pub fn off(s: f64) -> HostFacts {
        let mut f = HostFacts::default();
        f.timesync.offset_s = Some(c(s));
        f.timesync.evidence_present = true;
        f
    }
}

/// Builders for the ZooKeeper rules' tests.
pub mod zk {
    use super::c;
    use crate::evidence::Cited;
    use crate::facts::jvm::ClassShare;
    use crate::facts::{HostFacts, Jvm, ZkServer};

    pub fn zk(watches: u64, manager: Option<&str>) -> HostFacts {
        let mut j = Jvm {
            pid: Some(4242),
            dir: "jvm/4242".into(),
            role: Some("ZooKeeper".into()),
            heap_max_bytes: Some(Cited::new(256 << 20, "jvm/4242/vm-flags.txt", 3)),
            properties_source: Some("jvm/4242/vm-system-properties.txt".into()),
            histogram_source: Some("jvm/4242/class-histogram.txt".into()),
            histogram_total_bytes: Some(Cited::new(200 << 20, "jvm/4242/class-histogram.txt", 900)),
            ..Default::default()
        };
        j.top_classes = vec![
            Cited::new(
                ClassShare {
                    class_name: "java.util.HashMap$Node".into(),
                    instances: 2_000_000,
                    bytes: 64 << 20,
                    share_pct: 32.0,
                },
                "jvm/4242/class-histogram.txt",
                4,
            ),
            Cited::new(
                ClassShare {
                    class_name: "[B".into(),
                    instances: 10,
                    bytes: 50 << 20,
                    share_pct: 25.0,
                },
                "jvm/4242/class-histogram.txt",
                5,
            ),
        ];
        if let Some(m) = manager {
            j.properties.insert(
                crate::rules::zk::default_watch_manager::WATCH_MANAGER_PROPERTY.into(),
                Cited::new(m.into(), "jvm/4242/vm-system-properties.txt", 12),
            );
        }
        let mut f = HostFacts::default();
        f.jvms.push(j);
        f.zookeeper.push(ZkServer {
            endpoint: "zk/127.0.0.1_2181".into(),
            watch_count: Some(Cited::new(watches, "zk/127.0.0.1_2181/mntr.txt", 9)),
            wchs_total: Some(Cited::new(watches, "zk/127.0.0.1_2181/wchs.txt", 2)),
            version: Some(c("3.8.4-abc, built on 2024".to_string())),
            jvm: Some(0),
            ..Default::default()
        });
        f
    }
}
