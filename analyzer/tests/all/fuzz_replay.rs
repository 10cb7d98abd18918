//! Replays the fuzz targets' stored corpus (`fuzz/corpus/<target>/`) and every input that once
//! broke a target (`fuzz/regressions/<target>/`) through the very function libFuzzer runs
//! (`fuzz/src/lib.rs`, included here), so that a regression fails here on stable. Each input must
//! not panic, must keep its record within the output budget (linear in the input), and must
//! finish: a replay that stops progressing for two minutes names the input it is stuck on.
//!
//! `seed_corpus` (ignored) writes the seeds the corpus grew from: every parser fixture with its
//! kind's name on a first line, every fixture as the sniffer sees it, and the analyzer's fixture
//! bundles and the sample bundles as tar, compressed tar, zip and compressed single files.

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod harness;

use crate::common::repo;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// How long one input may run before the replay counts it as a hang (a debug build on a loaded
/// machine; the slowest stored input takes well under a second there).
const STUCK: Duration = Duration::from_secs(120);

/// Every file of `fuzz/<folder>/<target>/`, sorted.
fn inputs(folder: &str, target: &str) -> Vec<PathBuf> {
    let dir = repo().join("fuzz").join(folder).join(target);
    let mut out: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

/// Runs `run` over every input on a worker thread; fails naming each input that panicked and
/// the one that hung, if any.
fn replay(inputs: Vec<PathBuf>, run: fn(&[u8])) {
    let (tx, rx) = mpsc::channel::<(PathBuf, Option<String>)>();
    let count = inputs.len();
    let worker = std::thread::spawn(move || {
        for p in inputs {
            let data = std::fs::read(&p).unwrap();
            let outcome = std::panic::catch_unwind(|| run(&data));
            let failure = outcome.err().map(|e| {
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            });
            if tx.send((p, failure)).is_err() {
                return;
            }
        }
    });
    let mut failures = Vec::new();
    for done in 0..count {
        match rx.recv_timeout(STUCK) {
            Ok((p, Some(why))) => failures.push(format!("{}: {why}", p.display())),
            Ok((_, None)) => {}
            Err(_) => panic!("input {} of {count} ran for over {STUCK:?}", done + 1),
        }
    }
    worker.join().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The stored corpus and regressions of `target`; the corpus must hold at least `least` inputs,
/// so that losing it fails too.
fn corpus(target: &str, least: usize) -> Vec<PathBuf> {
    let corpus = inputs("corpus", target);
    assert!(
        corpus.len() >= least,
        "fuzz/corpus/{target} holds {} inputs",
        corpus.len()
    );
    corpus
        .into_iter()
        .chain(inputs("regressions", target))
        .collect()
}

#[test]
fn parse_corpus_replays() {
    replay(corpus("parse", 500), |d| {
        harness::parse(d);
    });
}

#[test]
fn sniff_corpus_replays() {
    replay(corpus("sniff", 100), |d| {
        harness::sniff(d);
    });
}

#[test]
fn bundle_corpus_replays() {
    replay(corpus("bundle", 20), |d| {
        harness::bundle(d);
    });
}

/// A kind name on the first line selects that kind's parser; another first line picks a kind
/// by its bytes, the same one every time, and every kind with a parser can be picked.
#[test]
fn parse_target_selects_by_kind_name_else_by_bytes() {
    let iostat =
        std::fs::read_to_string(repo().join("parsers/tests/fixtures/captured/iostat-x-t-iso.txt"))
            .unwrap();
    let (kind, size) = harness::parse(format!("iostat\n{iostat}").as_bytes());
    assert_eq!(kind, "iostat");
    let parsed = parsers::sysstat::iostat::parse(&iostat).unwrap();
    assert_eq!(
        size,
        serde_json::to_string(&parsed.value).unwrap().len()
            + serde_json::to_string(&parsed.issues).unwrap().len()
            + "[]".len()
    );
    let e = parsers::sysstat::mpstat::parse(&iostat).unwrap_err();
    assert_eq!(
        harness::parse(format!("mpstat\n{iostat}").as_bytes()),
        ("mpstat", serde_json::to_string(&e).unwrap().len())
    );
    assert_eq!(
        harness::selected_kind(b"no kind").name,
        harness::selected_kind(b"kind on").name
    );
    let picked: std::collections::BTreeSet<&str> = (0..=255u8)
        .map(|b| harness::selected_kind(&[b, b'?']).name)
        .collect();
    let parseable = parsers::kind::KINDS
        .iter()
        .filter(|k| k.parse.is_some())
        .count();
    assert_eq!(picked.len(), parseable.min(256));
}

/// The analyzer's fixture bundles as the bundle target reads them.
#[test]
fn bundle_target_analyzes_a_fixture_bundle() {
    let tar = tar_of_dir(&repo().join("analyzer/tests/fixtures/incidents/runq"));
    assert!(harness::bundle(&tar) > 0);
}

/// Writes the seeds of every target under `$RCA_FUZZ_SEEDS` (default `fuzz/seeds`).
#[test]
#[ignore = "writes the fuzz seeds; run by fuzz/run.sh seed"]
fn seed_corpus() {
    let out = std::env::var_os("RCA_FUZZ_SEEDS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("fuzz/seeds"));
    let mut seeds = Seeds::new(&out);
    let root = repo();
    for dir in ["parsers/tests/fixtures", "analyzer/tests/fixtures"] {
        for f in files_under(&root.join(dir)) {
            let data = std::fs::read(&f).unwrap();
            if data.len() > MAX_TEXT_SEED {
                continue;
            }
            seeds.text(&f, &data);
        }
    }
    // Bundles: every fixture bundle folder as a tar and a tar.gz, the sample bundles as shipped.
    for group in ["incidents", "sosreport", "supportconfig"] {
        for d in subdirs(&root.join("analyzer/tests/fixtures").join(group)) {
            let tar = tar_of_dir(&d);
            let name = d.file_name().unwrap().to_string_lossy().into_owned();
            seeds.bundle(&format!("{group}-{name}.tar"), &tar);
            let gz = crate::compression::compress(rca::bundle::Compression::Gzip, &tar);
            seeds.bundle(&format!("{group}-{name}.tar.gz"), &gz);
        }
    }
    for f in files_under(&root.join("sample-bundles")) {
        if f.to_string_lossy().ends_with(".tar.gz") {
            seeds.bundle(
                &f.file_name().unwrap().to_string_lossy(),
                &std::fs::read(&f).unwrap(),
            );
        }
    }
    // Every compression and zip once, over a small bundle and a single file.
    let small = tar_of_dir(&root.join("analyzer/tests/fixtures/incidents/runq"));
    let file =
        std::fs::read(root.join("parsers/tests/fixtures/captured/iostat-x-t-iso.txt")).unwrap();
    for c in [
        rca::bundle::Compression::Xz,
        rca::bundle::Compression::Zstd,
        rca::bundle::Compression::Bzip2,
        rca::bundle::Compression::Gzip,
    ] {
        let label = c.label();
        seeds.bundle(
            &format!("runq.tar.{label}"),
            &crate::compression::compress(c, &small),
        );
        seeds.bundle(
            &format!("iostat.{label}"),
            &crate::compression::compress(c, &file),
        );
    }
    seeds.bundle(
        "runq.zip",
        &zip_of_dir(&root.join("analyzer/tests/fixtures/incidents/runq")),
    );
    seeds.bundle("iostat.txt", &file);
    eprintln!("{}", seeds.summary());
}

/// Largest fixture taken as a text seed, bytes: the fuzzer cuts longer inputs anyway.
const MAX_TEXT_SEED: usize = 64 * 1024;

/// Largest bundle seed, bytes.
const MAX_BUNDLE_SEED: usize = 256 * 1024;

struct Seeds {
    out: PathBuf,
    counts: [usize; 3],
}

impl Seeds {
    fn new(out: &Path) -> Seeds {
        for t in ["parse", "sniff", "bundle"] {
            std::fs::create_dir_all(out.join(t)).unwrap();
        }
        Seeds {
            out: out.to_path_buf(),
            counts: [0; 3],
        }
    }

    fn put(&mut self, target: usize, name: &str, data: &[u8]) {
        let t = ["parse", "sniff", "bundle"][target];
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        std::fs::write(self.out.join(t).join(name), data).unwrap();
        self.counts[target] += 1;
    }

    /// A fixture file: the sniffer's seed as it is; the parser's with the kind its folder is
    /// named after, else the kind it is sniffed as.
    fn text(&mut self, path: &Path, data: &[u8]) {
        let rel = path
            .strip_prefix(repo())
            .unwrap()
            .to_string_lossy()
            .replace('/', "_");
        self.put(1, &rel, data);
        if let Some(k) = kind_of_fixture(path, &String::from_utf8_lossy(data)) {
            let mut seed = format!("{}\n", k.name).into_bytes();
            seed.extend_from_slice(data);
            self.put(0, &format!("{}-{rel}", k.name), &seed);
        }
    }

    fn bundle(&mut self, name: &str, data: &[u8]) {
        if data.len() <= MAX_BUNDLE_SEED {
            self.put(2, name, data);
        }
    }

    fn summary(&self) -> String {
        format!(
            "seeds: parse {}, sniff {}, bundle {} in {}",
            self.counts[0],
            self.counts[1],
            self.counts[2],
            self.out.display()
        )
    }
}

/// The kind of a fixture file: the kind its folder is named after, else the kind it is sniffed
/// as (with a parser either way).
fn kind_of_fixture(path: &Path, text: &str) -> Option<&'static parsers::kind::KindSpec> {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parsers::kind::by_name(&folder)
        .filter(|k| k.parse.is_some())
        .or(match parsers::kind::sniff(text) {
            parsers::kind::Sniffed::Kind(k) if k.parse.is_some() => Some(k),
            _ => None,
        })
}

/// Prints, for the largest fixture of every kind repeated to ½, 1, 2 and 4 MiB, the parse time,
/// (fastest of three) the growth of the process's peak RSS and the record's JSON size, and the worst ratios of the
/// largest to the smallest size per byte (1.0 is linear). Run alone, in a release build:
/// `cargo test --release -p rca --test all fuzz_replay::scaling -- --ignored --nocapture
/// --test-threads=1`.
#[test]
#[ignore = "a measurement, printed; run by hand"]
fn scaling() {
    let mut largest: std::collections::BTreeMap<&str, (usize, PathBuf)> = Default::default();
    let root = repo();
    for dir in ["parsers/tests/fixtures", "analyzer/tests/fixtures"] {
        for f in files_under(&root.join(dir)) {
            let data = std::fs::read(&f).unwrap();
            if let Some(k) = kind_of_fixture(&f, &String::from_utf8_lossy(&data)) {
                let e = largest.entry(k.name).or_insert((0, f.clone()));
                if data.len() > e.0 {
                    *e = (data.len(), f);
                }
            }
        }
    }
    let mut worst_time = (0.0f64, "");
    let mut worst_rss = (0.0f64, "");
    let mut worst_json = (0.0f64, "");
    println!("kind\tfixture bytes\tKiB\tms\tpeak RSS growth MiB\tJSON MiB");
    for (name, (_, path)) in &largest {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let mut rows = Vec::new();
        for kib in [512usize, 1024, 2048, 4096] {
            let mut input = format!("{name}\n");
            while input.len() < kib << 10 {
                input.push_str(&text);
                if !text.ends_with('\n') {
                    input.push('\n');
                }
            }
            // The fastest of three runs, and the peak RSS growth of the first.
            let mut ms = f64::MAX;
            let mut grew = 0.0;
            let mut json = 0;
            for run in 0..3 {
                let before = rss_reset();
                let t = std::time::Instant::now();
                json = harness::parse(input.as_bytes()).1;
                ms = ms.min(t.elapsed().as_secs_f64() * 1000.0);
                if run == 0 {
                    grew = peak_rss().saturating_sub(before) as f64 / (1 << 20) as f64;
                }
            }
            let json = json as f64 / (1 << 20) as f64;
            println!(
                "{name}\t{}\t{kib}\t{ms:.1}\t{grew:.1}\t{json:.2}",
                text.len()
            );
            rows.push((input.len() as f64, ms, grew, json));
        }
        let (a, b) = (rows[0], rows[3]);
        let per = |x: f64, y: f64| (y / b.0) / (x / a.0).max(f64::MIN_POSITIVE);
        let t = per(a.1.max(0.05), b.1);
        if t > worst_time.0 {
            worst_time = (t, name);
        }
        let r = b.2 / (b.0 / (1 << 20) as f64);
        if r > worst_rss.0 {
            worst_rss = (r, name);
        }
        let j = b.3 / (b.0 / (1 << 20) as f64);
        if j > worst_json.0 {
            worst_json = (j, name);
        }
    }
    println!(
        "worst time per byte at 4 MiB over ½ MiB: {:.2} ({}); worst peak RSS growth per input byte at 4 MiB: {:.1} ({}); worst JSON per input byte: {:.1} ({})",
        worst_time.0, worst_time.1, worst_rss.0, worst_rss.1, worst_json.0, worst_json.1
    );
}

/// Resets this process's peak RSS to its current RSS (Linux `clear_refs` 5) and returns it.
fn rss_reset() -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    peak_rss()
}

/// This process's peak RSS, bytes (`VmHWM`).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let ft = std::fs::symlink_metadata(&p).unwrap().file_type();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// A tar of the regular files under `dir`, named from its root.
fn tar_of_dir(dir: &Path) -> Vec<u8> {
    let files = files_under(dir);
    let data: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            (
                f.strip_prefix(dir).unwrap().to_string_lossy().into_owned(),
                std::fs::read(f).unwrap(),
            )
        })
        .collect();
    let entries: Vec<(&str, &[u8])> = data
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    crate::common::tar_bytes(&entries)
}

/// A zip (deflated) of the regular files under `dir`.
fn zip_of_dir(dir: &Path) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for f in files_under(dir) {
        let name = f.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
        w.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut w, &std::fs::read(&f).unwrap()).unwrap();
    }
    w.finish().unwrap().into_inner()
}
