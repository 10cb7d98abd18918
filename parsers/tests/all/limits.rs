//! `ulimit -a` and `/proc/<pid>/limits` parsers (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::Sniff;
use parsers::{
    proc::{
        self,
        limits::{LimitValue, Resource},
    },
    procs::{self, ulimit::UlimitFormat},
};

#[test]
fn proc_pid_limits_insights() {
    let p = proc::limits::parse_proc_limits(&fixture("ulimit/insights-core__proc-pid-limits.txt"))
        .unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.limits.len(), 16);
    let nproc = l.get(Resource::Nproc).unwrap();
    assert_eq!(nproc.name, "Max processes");
    assert_eq!(
        (nproc.soft, nproc.hard),
        (LimitValue::Value(9), LimitValue::Value(99))
    );
    assert_eq!(nproc.units.as_deref(), Some("processes"));
    let nofile = l.get(Resource::Nofile).unwrap();
    assert_eq!(
        (nofile.soft, nofile.hard),
        (LimitValue::Value(1024), LimitValue::Value(4096))
    );
    assert_eq!(nofile.units.as_deref(), Some("files"));
    assert_eq!(nofile.line, 9);
    let nice = l.by_name("Max nice priority").unwrap();
    assert_eq!(nice.hard, LimitValue::Value(0));
    assert_eq!(nice.units, None);
    let rt = l.get(Resource::Rttime).unwrap();
    assert_eq!(
        (rt.soft, rt.hard),
        (LimitValue::Unlimited, LimitValue::Unlimited)
    );
    assert_eq!(rt.units.as_deref(), Some("us"));
    assert!(l.limits.iter().all(|x| x.resource.is_some()));
}

#[test]
fn proc_1_limits_hotsos_and_captured() {
    for (rel, nofile, sigpending) in [
        ("ulimit/hotsos__proc-1-limits-systemd.txt", 1_048_576, 15592),
        ("captured-b/proc-self-limits.txt", 20000, 96365),
    ] {
        let p = proc::limits::parse_proc_limits(&fixture(rel)).unwrap();
        assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
        let l = p.value;
        assert_eq!(l.limits.len(), 16, "{rel}");
        assert_eq!(
            l.get(Resource::Nofile).unwrap().soft,
            LimitValue::Value(nofile)
        );
        assert_eq!(
            l.get(Resource::Sigpending).unwrap().soft.finite(),
            Some(sigpending)
        );
        assert_eq!(l.get(Resource::Stack).unwrap().hard, LimitValue::Unlimited);
    }
}

#[test]
fn ulimit_bash() {
    let p = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-bash.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let u = p.value;
    assert_eq!(u.format, UlimitFormat::Bash);
    assert_eq!(u.entries.len(), 17);
    let rt = &u.entries[0];
    assert_eq!(rt.name, "real-time non-blocking time");
    assert_eq!(
        (rt.flag, rt.unit.as_deref()),
        (Some('R'), Some("microseconds"))
    );
    assert_eq!(rt.resource, Some(Resource::Rttime));
    let nofile = u.get(Resource::Nofile).unwrap();
    assert_eq!(
        (nofile.name.as_str(), nofile.flag, nofile.unit.as_deref()),
        ("open files", Some('n'), None)
    );
    assert_eq!(nofile.value, LimitValue::Value(20000));
    assert_eq!(nofile.line, 9);
    let pipe = u.flag('p').unwrap();
    assert_eq!(pipe.unit.as_deref(), Some("512 bytes"));
    assert_eq!(pipe.resource, None);
    assert_eq!(
        u.get(Resource::Sigpending).unwrap().value,
        LimitValue::Value(96365)
    );
    assert_eq!(u.get(Resource::Cpu).unwrap().value, LimitValue::Unlimited);
}

#[test]
fn ulimit_busybox() {
    let p = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-busybox.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let u = p.value;
    assert_eq!(u.format, UlimitFormat::Busybox);
    assert_eq!(u.entries.len(), 15);
    let core = u.get(Resource::Core).unwrap();
    assert_eq!(
        (core.name.as_str(), core.unit.as_deref(), core.flag),
        ("core file size", Some("blocks"), Some('c'))
    );
    assert_eq!(core.line, 1);
    assert_eq!(
        u.get(Resource::Nofile).unwrap().value,
        LimitValue::Value(20000)
    );
    assert_eq!(
        u.get(Resource::Memlock).unwrap().unit.as_deref(),
        Some("kb")
    );
    assert_eq!(u.flag('x').unwrap().resource, Some(Resource::Locks));
}

#[test]
fn ulimit_dash() {
    let p = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-dash.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let u = p.value;
    assert_eq!(u.format, UlimitFormat::Dash);
    assert_eq!(u.entries.len(), 12);
    let nofile = u.get(Resource::Nofile).unwrap();
    assert_eq!((nofile.name.as_str(), nofile.flag), ("nofiles", None));
    assert_eq!(nofile.value, LimitValue::Value(20000));
    assert_eq!(nofile.line, 9);
    let locked = u.get(Resource::Memlock).unwrap();
    assert_eq!(
        (locked.name.as_str(), locked.unit.as_deref()),
        ("locked memory", Some("kbytes"))
    );
    assert_eq!(
        u.get(Resource::Nproc).unwrap().value,
        LimitValue::Value(96365)
    );
    assert!(u.entries.iter().all(|e| e.resource.is_some()));
}

#[test]
fn the_same_limit_from_every_source() {
    let bash = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-bash.txt"))
        .unwrap()
        .value;
    let dash = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-dash.txt"))
        .unwrap()
        .value;
    let bb = procs::ulimit::parse_ulimit(&fixture("captured-b/ulimit-a-busybox.txt"))
        .unwrap()
        .value;
    let proc = proc::limits::parse_proc_limits(&fixture("captured-b/proc-self-limits.txt"))
        .unwrap()
        .value;
    for r in [Resource::Nofile, Resource::Nproc, Resource::Cpu] {
        let v = bash.get(r).unwrap().value;
        assert_eq!(dash.get(r).unwrap().value, v, "{r:?}");
        assert_eq!(bb.get(r).unwrap().value, v, "{r:?}");
        assert_eq!(proc.get(r).unwrap().soft, v, "{r:?}");
    }
}

#[test]
fn sniffers_and_malformed() {
    for rel in [
        "captured-b/ulimit-a-bash.txt",
        "captured-b/ulimit-a-dash.txt",
        "captured-b/ulimit-a-busybox.txt",
    ] {
        let t = fixture(rel);
        assert_eq!(procs::ulimit::sniff_ulimit(&t), Sniff::Yes, "{rel}");
        assert_eq!(proc::limits::sniff_proc_limits(&t), Sniff::No, "{rel}");
    }
    for rel in [
        "ulimit/insights-core__proc-pid-limits.txt",
        "captured-b/proc-self-limits.txt",
    ] {
        let t = fixture(rel);
        assert_eq!(procs::ulimit::sniff_ulimit(&t), Sniff::No, "{rel}");
        assert_eq!(proc::limits::sniff_proc_limits(&t), Sniff::Yes, "{rel}");
    }
    assert!(procs::ulimit::parse_ulimit("").is_err());
    assert!(proc::limits::parse_proc_limits("").is_err());
    assert!(procs::ulimit::parse_ulimit("hello world\n").is_err());
    let text = insert_line(
        &fixture("captured-b/ulimit-a-bash.txt"),
        3,
        "open files (-n) lots",
    );
    let p = procs::ulimit::parse_ulimit(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 3);
    assert!(p.issues[0].message.contains("`unlimited`"));
    let text = insert_line(
        &fixture("captured-b/proc-self-limits.txt"),
        4,
        "Max open files  10  x  files",
    );
    let p = proc::limits::parse_proc_limits(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    assert_eq!(p.value.limits.len(), 16);
    // Truncated mid-row.
    let t = fixture("ulimit/insights-core__proc-pid-limits.txt");
    let p = proc::limits::parse_proc_limits(&t[..t.len() - 20]).unwrap();
    assert_eq!(p.value.limits.len(), 15);
    assert_eq!(p.issues.len(), 1);
}
