//! `rca fleet` end to end: copies of the shipped healthy sample (a real collection) as peer hosts,
//! each with a little run-to-run variation, and one host with a planted difference.

use crate::common::{fixture, healthy_sample, unpack_sample};
use rca::bundle::Limits;
use rca::fleet::{self, FleetReport};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Unpacks the healthy sample as host `name` under `root`; returns the bundle directory.
fn host(root: &Path, name: &str) -> PathBuf {
    let top = unpack_sample(&healthy_sample(), root, name);
    rewrite(&top, "system/uname.txt", |t| {
        t.replacen(" vm ", &format!(" {name} "), 1)
    });
    top
}

pub(crate) fn rewrite(top: &Path, path: &str, f: impl Fn(&str) -> String) {
    let p = top.join(path);
    let t = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, f(&t)).unwrap();
}

/// Adds a file with its manifest record, as the collector would have.
fn add(top: &Path, path: &str, kind: &str, text: &str) {
    std::fs::write(top.join(path), text).unwrap();
    let m = top.join("manifest.tsv");
    let mut manifest = std::fs::read_to_string(&m).unwrap();
    manifest.push_str(&format!(
        "artifact\t{path}\t{kind}\t0\t0\t1796006929.98\t1796006929.98\t{}\t0\t\tcat /{path}\n",
        text.len()
    ));
    std::fs::write(m, manifest).unwrap();
}

/// Scales the utilisation columns of `mpstat` by `f` (a run-to-run variation of a few %).
fn vary(top: &Path, f: f64) {
    rewrite(top, "sysstat/mpstat-P-ALL.txt", |t| {
        t.lines()
            .map(|l| {
                l.split(' ')
                    .map(|w| match w.parse::<f64>() {
                        Ok(v) if w.contains('.') && v < 60.0 => format!("{:.2}", v * f),
                        _ => w.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect()
    });
}

/// Five peers; `plant` changes host `node-3`.
pub(crate) fn fleet_of_five(root: &Path, plant: impl Fn(&Path)) -> Vec<PathBuf> {
    let factors = [0.97, 0.99, 1.0, 1.02, 1.03];
    (1..=5)
        .map(|i| {
            let top = host(root, &format!("node-{i}"));
            vary(&top, factors[i - 1]);
            add(
                &top,
                "proc/modules",
                "proc-modules",
                &fixture("proc-modules/jc__jc-proc-modules.txt"),
            );
            if i == 3 {
                plant(&top);
            }
            top
        })
        .collect()
}

fn run(paths: &[PathBuf]) -> FleetReport {
    run_jobs(paths, 0)
}

/// The fleet report of `paths`, `jobs` bundles analyzed at once (`0`: one per CPU).
fn run_jobs(paths: &[PathBuf], jobs: usize) -> FleetReport {
    let (hosts, failed) = fleet::load(
        paths,
        &Limits::default(),
        fleet::DEFAULT_BUNDLE_TIMEOUT,
        jobs,
    );
    fleet::compare(hosts, failed)
}

fn show(r: &FleetReport) -> String {
    r.hosts
        .iter()
        .map(|h| {
            format!(
                "#{} {} {}: {}",
                h.rank,
                h.label,
                h.deviation,
                h.reasons
                    .iter()
                    .take(3)
                    .map(|x| format!("{} ({}) {}", x.fact, x.score, x.reason))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_host_with_an_extra_tainting_module_ranks_first_with_that_reason() {
    let d = tempfile::tempdir().unwrap();
    let paths = fleet_of_five(d.path(), |top| {
        rewrite(top, "proc/modules", |t| {
            format!("resguard_linux 364544 2 - Live 0xffffffffc0b00000 (OE)\n{t}")
        });
        rewrite(top, "kernel/tainted", |_| "12288\n".into());
    });
    let r = run(&paths);
    println!("{}", show(&r));
    assert_eq!(r.hosts.len(), 5);
    assert!(r.failed.is_empty());
    assert_eq!(r.hosts[0].label, "node-3", "{}", show(&r));
    assert_eq!(
        r.hosts[0].reasons[0].fact,
        "module: resguard_linux",
        "{}",
        show(&r)
    );
    assert_eq!(r.hosts[0].reasons[0].kind, "module-tainting");
    assert_eq!(r.hosts[0].reasons[0].share, Some((1, 5)));
    assert!(r.hosts[0].reasons.iter().any(|x| x.fact == "kernel taint"));
    // The others vary by a few percent only: nothing sets them apart.
    for h in &r.hosts[1..] {
        assert!(h.reasons.is_empty(), "{}", show(&r));
    }
    assert_eq!(r.deviating, 1);
    assert!(r
        .categorical
        .iter()
        .any(|c| c.fact == "module: resguard_linux" && c.majority == "absent"));
    // One bundle at a time (`--jobs 1`, the least memory) ranks and explains the same.
    assert_eq!(show(&run_jobs(&paths, 1)), show(&r));
}

#[test]
fn a_single_queue_nic_among_four_queue_peers_ranks_first() {
    let d = tempfile::tempdir().unwrap();
    let paths = fleet_of_five(d.path(), |_| {});
    for (i, top) in paths.iter().enumerate() {
        let q = if i == 2 { 1 } else { 4 };
        rewrite(top, "net/ethtool/eth0/ethtool-l.txt", |t| {
            let (max, cur) = t.split_once("Current hardware settings:").unwrap();
            format!(
                "{}Current hardware settings:{}",
                max.replace("Combined:\t1", "Combined:\t4"),
                cur.replace("Combined:\t1", &format!("Combined:\t{q}"))
            )
        });
    }
    let r = run(&paths);
    println!("{}", show(&r));
    assert_eq!(r.hosts[0].label, "node-3", "{}", show(&r));
    let x = &r.hosts[0].reasons[0];
    assert_eq!(x.fact, "eth0: queues", "{}", show(&r));
    assert_eq!((x.value.as_str(), x.fleet.as_str()), ("1", "4"));
    assert!(x.artifact.as_deref().unwrap().ends_with("ethtool-l.txt"));
    assert_eq!(r.deviating, 1);
}

#[test]
fn a_directory_of_identical_peers_exits_0_and_a_planted_outlier_exits_1() {
    let d = tempfile::tempdir().unwrap();
    let same = d.path().join("same");
    std::fs::create_dir(&same).unwrap();
    for i in 1..=4 {
        std::fs::copy(healthy_sample(), same.join(format!("host-{i}.tar.gz"))).unwrap();
    }
    let out = d.path().join("f.json");
    let html = d.path().join("f.html");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("fleet")
        .arg(&same)
        .arg("--json")
        .arg(&out)
        .arg("-o")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 4);
    assert_eq!(doc["deviating"], 0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Content-Security-Policy"));
    assert!(!page.contains("http://") && !page.contains("https://"));

    // A directory mixing archives and unpacked bundles, one of them with a tainting module.
    let mixed = d.path().join("mixed");
    std::fs::create_dir(&mixed).unwrap();
    let paths = fleet_of_five(&d.path().join("work"), |top| {
        rewrite(top, "proc/modules", |t| {
            format!("resguard_linux 364544 2 - Live 0xffffffffc0b00000 (OE)\n{t}")
        });
    });
    for (i, p) in paths.iter().enumerate() {
        std::fs::rename(p, mixed.join(format!("node-{}", i + 1))).unwrap();
    }
    std::fs::copy(healthy_sample(), mixed.join("node-6.tar.gz")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("fleet")
        .arg(&mixed)
        .arg("--json")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 6);
    assert_eq!(doc["hosts"][0]["label"], "node-3");

    // An archive that cannot be read makes the fleet incomplete: exit 2, the rest still
    // compared. A file named like an archive whose content is not one is no bundle: skipped.
    std::fs::write(mixed.join("broken.zip"), b"PK\x03\x04 and then nothing").unwrap();
    std::fs::write(mixed.join("named.tar.gz"), b"not an archive").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("fleet")
        .arg(&mixed)
        .arg("--json")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["hosts"][0]["label"], "node-3");
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 7);
    let skipped = doc["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("named.tar.gz"));
    assert_eq!(
        skipped[0]["note"],
        "named like an archive, but its content is not one (neither tar, compressed tar, nor zip)"
    );
}

#[test]
fn a_fleet_folder_skips_links_and_opens_sample_folders() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    // A link to somewhere else on this machine: never analyzed.
    std::os::unix::fs::symlink("/etc", root.join("link")).unwrap();
    // A folder holding two bundles (a pair) and a folder holding one archive.
    for side in ["baseline", "suspect"] {
        std::fs::create_dir_all(root.join("pair").join(side)).unwrap();
        std::fs::write(
            root.join("pair").join(side).join("manifest.tsv"),
            "# rca-manifest 1\n",
        )
        .unwrap();
    }
    std::fs::create_dir_all(root.join("one")).unwrap();
    std::fs::copy(healthy_sample(), root.join("one/rca-x.tar.gz")).unwrap();
    std::fs::write(root.join("one/README.md"), b"# one host\n").unwrap();
    let got = rca::fleet::expand(&[root.to_path_buf()]).unwrap();
    let rel = |p: &str| {
        Path::new(p)
            .strip_prefix(root)
            .unwrap()
            .display()
            .to_string()
    };
    let names: Vec<String> = got
        .bundles
        .iter()
        .map(|p| rel(&p.display().to_string()))
        .collect();
    assert_eq!(names, ["one/rca-x.tar.gz", "pair/baseline", "pair/suspect"]);
    let skipped: Vec<(String, &str)> = got
        .skipped
        .iter()
        .map(|k| (rel(&k.path), k.note.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            (
                "link".to_string(),
                "symbolic link: not followed (it could lead anywhere on this machine)"
            ),
            (
                "one/README.md".to_string(),
                "not a bundle archive (neither tar, compressed tar, nor zip)"
            )
        ]
    );
}

/// The healthy sample's tar compressed with `c`.
fn repack(c: &str) -> Vec<u8> {
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(healthy_sample()).unwrap())
        .read_to_end(&mut tar)
        .unwrap();
    match c {
        "xz" => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(&tar).unwrap();
            e.finish().unwrap()
        }
        "zstd" => zstd::encode_all(&tar[..], 3).unwrap(),
        _ => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(&tar).unwrap();
            e.finish().unwrap()
        }
    }
}

#[test]
fn a_fleet_folder_takes_every_bundle_format_and_lists_what_it_skips() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    // Four hosts: the sample as collected and re-packed with xz, zstd and bzip2, named without
    // telling extensions; one of them in a ticket folder beside its checksum.
    std::fs::copy(healthy_sample(), root.join("host-1")).unwrap();
    std::fs::write(root.join("host-2.tar.xz"), repack("xz")).unwrap();
    std::fs::write(root.join("host-3.data"), repack("zstd")).unwrap();
    std::fs::create_dir(root.join("ticket-4")).unwrap();
    let bz = repack("bzip2");
    std::fs::write(root.join("ticket-4/host-4.tar.bz2"), &bz).unwrap();
    use sha2::Digest;
    std::fs::write(
        root.join("ticket-4/host-4.tar.bz2.sha256"),
        format!("{:x}  host-4.tar.bz2\n", sha2::Sha256::digest(&bz)),
    )
    .unwrap();
    // And what is not a bundle.
    std::fs::write(root.join("notes.txt"), "hosts of the cluster\n").unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"Jan  1 00:00:01 host kernel: x\n").unwrap();
    std::fs::write(root.join("messages.gz"), gz.finish().unwrap()).unwrap();
    std::fs::create_dir(root.join("screenshots")).unwrap();
    std::fs::write(root.join("screenshots/graph.txt"), "see graph\n").unwrap();
    std::fs::write(root.join(".DS_Store"), b"\0\0\0\x01Bud1").unwrap();

    let got = rca::fleet::expand(&[root.to_path_buf()]).unwrap();
    let name = |p: &str| {
        p.strip_prefix(&format!("{}/", root.display()))
            .unwrap()
            .to_string()
    };
    let bundles: Vec<String> = got
        .bundles
        .iter()
        .map(|p| name(&p.display().to_string()))
        .collect();
    assert_eq!(
        bundles,
        ["host-1", "host-2.tar.xz", "host-3.data", "ticket-4"]
    );
    let skipped: Vec<(String, String)> = got
        .skipped
        .iter()
        .map(|k| (name(&k.path), k.note.clone()))
        .collect();
    assert_eq!(
        skipped,
        [
            (".DS_Store".to_string(), "hidden entry".to_string()),
            (
                "messages.gz".to_string(),
                "a single gzip-compressed file, not a bundle archive".to_string()
            ),
            (
                "notes.txt".to_string(),
                "not a bundle archive (neither tar, compressed tar, nor zip)".to_string()
            ),
            (
                "screenshots".to_string(),
                "a folder with no bundle: no manifest.tsv, no archive, and no file at a place a \
                 bundle layout names"
                    .to_string()
            ),
        ]
    );

    let out = root.join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("fleet")
        .arg(root)
        .arg("--json")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("skipped: "), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 4);
    assert_eq!(doc["failed"].as_array().unwrap().len(), 0);
    assert_eq!(doc["skipped"].as_array().unwrap().len(), 4);
    assert_eq!(doc["skipped"][2]["note"], skipped[2].1);
}

#[test]
fn a_bundle_named_twice_counts_once() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a");
    std::fs::create_dir_all(&a).unwrap();
    let b = d.path().join("b");
    std::fs::create_dir_all(&b).unwrap();
    let got =
        rca::fleet::expand(&[a.clone(), b.clone(), a.clone(), d.path().join("a/../a")]).unwrap();
    assert_eq!(got.bundles, vec![a, b]);
    assert!(got.skipped.is_empty());
}

/// A folder of three copies of the shipped healthy sample, as three hosts' archives.
fn three_archives(root: &Path) -> PathBuf {
    let dir = root.join("fleet");
    std::fs::create_dir_all(&dir).unwrap();
    for n in ["a", "b", "c"] {
        std::fs::copy(healthy_sample(), dir.join(format!("{n}.tar.gz"))).unwrap();
    }
    dir
}

/// `rca fleet DIR --bundle-timeout TIMEOUT --json JSON`.
fn fleet_with_timeout(dir: &Path, timeout: &str, json: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("fleet")
        .arg(dir)
        .args(["--bundle-timeout", timeout, "--json"])
        .arg(json)
        .output()
        .unwrap()
}

#[test]
fn a_zero_bundle_timeout_lists_every_bundle_as_not_compared() {
    let d = tempfile::tempdir().unwrap();
    let dir = three_archives(d.path());
    let json = d.path().join("f.json");
    let o = fleet_with_timeout(&dir, "0s", &json);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stdout}{stderr}");
    for n in ["a", "b", "c"] {
        let line = format!(
            "not compared: {}: analysis exceeded 0 s",
            dir.join(format!("{n}.tar.gz")).display()
        );
        assert!(stdout.contains(&line), "{line}\n{stdout}");
    }
    assert!(
        stderr.starts_with("rca: not every bundle could be compared"),
        "{stderr}"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 0);
    let failed = doc["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 3);
    assert!(failed
        .iter()
        .all(|f| f["timed_out"] == true && f["error"] == "analysis exceeded 0 s"));
}

#[test]
fn a_bundle_timeout_that_is_not_reached_changes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let dir = three_archives(d.path());
    let json = d.path().join("f.json");
    let o = fleet_with_timeout(&dir, "1h", &json);
    let stdout = String::from_utf8_lossy(&o.stdout);
    // Three identical hosts: nothing deviates.
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("not compared"), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 3);
    assert_eq!(doc["failed"].as_array().unwrap().len(), 0);
}

#[test]
fn sysctl_keys_one_host_could_not_read_are_unknown_there_not_absent() {
    // node-3's `sysctl -a` ran unprivileged: three keys printed as procps-ng prints a refusal.
    let d = tempfile::tempdir().unwrap();
    let paths = fleet_of_five(d.path(), |top| {
        rewrite(top, "kernel/sysctl-a.txt", |t| {
            t.lines()
                .map(|l| {
                    let key = l.split(" = ").next().unwrap_or("");
                    if matches!(
                        key,
                        "kernel.cad_pid" | "net.core.bpf_jit_harden" | "net.ipv4.tcp_fastopen_key"
                    ) {
                        format!("sysctl: permission denied on key '{key}'\n")
                    } else {
                        format!("{l}\n")
                    }
                })
                .collect()
        })
    });
    let r = run(&paths);
    let reasons: Vec<&str> = r
        .hosts
        .iter()
        .flat_map(|h| h.reasons.iter().map(|x| x.fact.as_str()))
        .collect();
    assert!(
        reasons.iter().all(|f| !f.starts_with("sysctl: ")),
        "{}",
        show(&r)
    );
}
