//! Bundles that aim at memory and time through the text of their artifacts: a gigabyte of
//! newlines (a line index of one entry per line would take 16 GiB), hundreds of megabytes of NUL
//! or `0xFF` bytes (each shown as U+FFFD, three bytes), and an `iostat -x` of 5 000 saturated
//! devices, each finding citing its rows.
//!
//! Every bundle is generated here from its recipe. Memory is checked by running `rca` under an
//! address-space limit (`setrlimit(RLIMIT_AS)` in the child), which holds however loaded the
//! machine is; citing is checked by the bytes of text its line lookups read, not by time. The
//! bounds are the ones README's "Untrusted bundles" states.

use flate2::write::GzEncoder;
use rca::bundle::Limits;
use rca::report::Report;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Command, Output};

/// Address space `rca analyze` is given for one 1 GiB entry: the entry's bytes, which become
/// its text as they are, plus the program (a debug build maps about 200 MiB).
const GIB_ENTRY_AS: u64 = 1536 << 20;

/// Address space for a 256 MiB entry of undecodable bytes: the bytes and their decoded text
/// (three times as long) are held together once, while decoding, plus the program.
const BINARY_256_MIB_AS: u64 = 1536 << 20;

/// A `.tgz` at `path` holding `bundle/blob.txt`: `len` bytes read from `data`. Compressed as
/// `gzip -1` would, so that the bundle is a few MB.
fn tgz_of(path: &Path, data: impl Read, len: u64) {
    let gz = GzEncoder::new(
        io::BufWriter::new(std::fs::File::create(path).unwrap()),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    let mut h = tar::Header::new_gnu();
    h.set_size(len);
    h.set_mode(0o644);
    h.set_mtime(1_700_000_000);
    tar.append_data(&mut h, "bundle/blob.txt", data).unwrap();
    tar.into_inner().unwrap().finish().unwrap().flush().unwrap();
}

/// `rca ARGS` with at most `limit` bytes of address space. Two worker threads and two malloc
/// arenas, so that the address space reserved around the data is the same on any machine.
/// The arguments of `rca analyze BUNDLE -o HTML --json JSON`.
fn analyze_args<'a>(bundle: &'a Path, html: &'a Path, json: &'a Path) -> Vec<&'a std::ffi::OsStr> {
    vec![
        "analyze".as_ref(),
        bundle.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]
}

fn rca_within(limit: u64, args: &[&std::ffi::OsStr]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rca"));
    cmd.args(args)
        .env("RAYON_NUM_THREADS", "2")
        .env("MALLOC_ARENA_MAX", "2");
    // SAFETY: `setrlimit` is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

/// Analyzes the one-entry bundle at `bundle` within `limit` bytes of address space, writing
/// the page and the JSON document; returns both. Panics when rca did not finish on its own.
fn analyze_within(limit: u64, bundle: &Path) -> (String, serde_json::Value) {
    let dir = bundle.parent().unwrap();
    let (html, json) = (dir.join("out.html"), dir.join("out.json"));
    // The ratio alarm would stop these bundles early: what is measured is what happens to
    // their text once read.
    let mut args = analyze_args(bundle, &html, &json);
    args.extend([
        std::ffi::OsStr::new("--max-ratio"),
        std::ffi::OsStr::new("1000000"),
    ]);
    let o = rca_within(limit, &args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    // Nothing in these bundles parses: exit 2, said, and both documents written.
    assert_eq!(
        o.status.code(),
        Some(2),
        "rca did not finish within {} MiB: {}\n{stderr}",
        limit >> 20,
        o.status
    );
    assert!(stderr.contains("no artifact could be parsed"), "{stderr}");
    let page = std::fs::read_to_string(html).unwrap();
    let doc = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (page, doc)
}

/// The JSON document's record of `bundle/blob.txt`.
fn blob(doc: &serde_json::Value) -> &serde_json::Value {
    doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"] == "bundle/blob.txt")
        .expect("the entry is listed")
}

#[test]
fn a_gigabyte_of_newlines_is_viewed_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("newlines.tgz");
    let len = 1u64 << 30;
    tgz_of(&bundle, io::repeat(b'\n').take(len), len);
    let (page, doc) = analyze_within(GIB_ENTRY_AS, &bundle);
    assert_eq!(blob(&doc)["bytes"], len);
    // The viewer embeds the first lines it can and says how many there are.
    assert!(
        page.contains("lines embedded") && page.contains(&format!(" of {len} lines")),
        "no cut note for {len} lines"
    );
}

#[test]
fn hundreds_of_megabytes_of_nul_or_ff_bytes_decode_within_bounded_memory() {
    for byte in [0u8, 0xff] {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("binary.tgz");
        let len = 256u64 << 20;
        tgz_of(&bundle, io::repeat(byte).take(len), len);
        let (_, doc) = analyze_within(BINARY_256_MIB_AS, &bundle);
        let a = blob(&doc);
        assert_eq!(a["bytes"], len, "{byte:#x}");
        assert_eq!(a["outcome"]["status"], "unrecognised", "{byte:#x}");
        let issue = &a["issues"][0];
        assert_eq!(issue["line"], 1, "{byte:#x}: {issue}");
        assert!(
            issue["message"].as_str().unwrap().contains("U+FFFD"),
            "{issue}"
        );
    }
}

#[test]
fn text_that_decoding_grows_past_the_entry_limit_is_too_large() {
    // 512 KiB of `0xFF` is 1.5 MiB of U+FFFD: over a 1 MiB entry limit, under 2 MiB.
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("ff.tgz");
    tgz_of(&bundle, io::repeat(0xff).take(512 << 10), 512 << 10);
    for (max, too_large) in [(1u64 << 20, true), (2 << 20, false)] {
        let limits = Limits {
            max_entry_bytes: max,
            ..Limits::default()
        };
        let r = Report::analyze(&bundle, &limits).unwrap();
        let a = r
            .artifacts
            .iter()
            .find(|a| a.path == "bundle/blob.txt")
            .unwrap();
        assert_eq!(a.bytes, 512 << 10);
        if too_large {
            assert_eq!(a.outcome, rca::artifacts::Outcome::TooLarge { limit: max });
            assert!(a.text.is_empty());
            assert!(
                a.issues[0]
                    .message
                    .contains("would make its text 1572864 bytes long"),
                "{:?}",
                a.issues
            );
        } else {
            assert_eq!(a.text.len(), 3 * (512 << 10));
        }
    }
}

/// `iostat -x` (sysstat 12) of `devices` devices over `reports` reports, every device queueing
/// and waiting in every one: the header and the `sda` row of a real capture
/// (`iostat/jc__iostat-x-sysstat12-ubuntu2010.txt`), the row repeated under other names with
/// saturated `r_await`, `w_await`, `aqu-sz` and `%util`.
fn saturated_iostat(devices: usize, reports: usize) -> String {
    let real = crate::common::fixture("iostat/jc__iostat-x-sysstat12-ubuntu2010.txt");
    let lines: Vec<&str> = real.lines().collect();
    let header = lines.iter().find(|l| l.starts_with("Device")).unwrap();
    let row = lines.iter().find(|l| l.starts_with("sda ")).unwrap();
    let names: Vec<&str> = header.split_whitespace().collect();
    let mut values: Vec<String> = row.split_whitespace().map(str::to_string).collect();
    for (col, v) in [
        ("r_await", "45.00"),
        ("w_await", "60.00"),
        ("aqu-sz", "8.50"),
        ("%util", "99.80"),
    ] {
        values[names.iter().position(|n| *n == col).unwrap()] = v.to_string();
    }
    let mut out = format!("{}\n\n", lines[0]);
    for _ in 0..reports {
        out.push_str(&format!("{}\n{}\n\n{header}\n", lines[2], lines[3]));
        for d in 0..devices {
            out.push_str(&format!("sd{d:<14}"));
            for v in &values[1..] {
                out.push_str(&format!("{v:>10}"));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[test]
fn citing_thousands_of_saturated_devices_reads_their_iostat_about_once() {
    const DEVICES: usize = 5_000;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iostat.txt");
    std::fs::write(&path, saturated_iostat(DEVICES, 4)).unwrap();
    let r = Report::analyze(&path, &Limits::default()).unwrap();
    let saturated: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule_id == "disk.saturation")
        .collect();
    assert_eq!(saturated.len(), DEVICES);
    // Every finding cites its rows and the table header above them.
    for f in &saturated {
        let e = &f.evidence[0];
        assert!(e.excerpt.len() >= 3, "{:?}", e.excerpt);
        assert!(
            e.excerpt[0].text.starts_with("Device"),
            "{:?}",
            e.excerpt[0]
        );
        let device = f.title.split_whitespace().nth(1).unwrap();
        assert!(
            e.excerpt[1..]
                .iter()
                .all(|l| l.line == 0 || l.text.starts_with(&format!("{device} "))),
            "{device}: {:?}",
            e.excerpt
        );
    }
    // 5 000 findings, five rows and a header each, read from one line index in one pass (and
    // one more for the headers), not one split of the whole text per finding.
    let text = &r
        .artifacts
        .iter()
        .find(|a| a.path.ends_with("iostat.txt"))
        .unwrap()
        .text;
    let once = text.len() as u64;
    assert!(
        text.scanned() <= 3 * once,
        "{} bytes read of {once}",
        text.scanned()
    );
    // The viewer shares that index: embedding the cited rows reads little more.
    let before = text.scanned();
    let views = rca::report::viewer::build(&r);
    assert!(views.views[0].cited.len() > 1000);
    assert!(
        text.scanned() - before <= once,
        "{} bytes read of {once} by the viewer",
        text.scanned() - before
    );
}

/// Address space for a bundle of many small artifacts whose text, together, is three times as
/// large (`many_logs_bundle`): the program (a debug build maps about 200 MiB; `MALLOC_ARENA_MAX`
/// and two workers keep what it reserves around the data the same on any machine), the entries
/// read ahead of the parsers (`rca::artifacts::QUEUED_BYTES`, 64 MiB), the artifacts being
/// parsed and the packed texts of all (about a sixth of their size for these logs). Measured
/// on a debug build: it finishes within 256 MiB, with 210 MiB resident; keeping every
/// artifact's text whole took 830 MiB resident and failed within 512 MiB. Twice what is
/// needed, well under the text.
const MANY_LOGS_AS: u64 = 512 << 20;

/// Bytes of text of the logs added by `many_logs_bundle`.
const MANY_LOGS_TEXT: u64 = 768 << 20;

/// A `.tgz` at `path` holding the `java-contention` incident (a lock held by one thread, and
/// the others blocked on it: findings that cite thread dumps) and [`MANY_LOGS_TEXT`] bytes of
/// application logs in files of 2 MiB, which no parser reads: lines of an order service's log
/// with varying threads, ids and durations, so that they compress as real logs do, not to
/// nothing.
fn many_logs_bundle(path: &Path) {
    const FILE: usize = 2 << 20;
    let gz = GzEncoder::new(
        io::BufWriter::new(std::fs::File::create(path).unwrap()),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    let mut add = |name: &str, data: &[u8]| {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        tar.append_data(&mut h, format!("bundle/{name}"), data)
            .unwrap();
    };
    let incident = crate::common::incident("java-contention");
    let mut files: Vec<_> = std::fs::read_dir(&incident)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        add(&name, &std::fs::read(&f).unwrap());
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let verbs = ["accepted", "priced", "reserved", "shipped", "settled"];
    for i in 0..MANY_LOGS_TEXT as usize / FILE {
        let mut log = String::with_capacity(FILE + 200);
        let mut ms = 0u64;
        while log.len() < FILE {
            let r = next();
            ms += r % 40;
            log.push_str(&format!(
                "2024-03-0{} {:02}:{:02}:{:02},{:03} INFO  [order-worker-{}] OrderService - order {} {} in {} ms (queue {})\n",
                1 + i % 9,
                ms / 3_600_000 % 24,
                ms / 60_000 % 60,
                ms / 1000 % 60,
                ms % 1000,
                r % 64,
                100_000 + (r >> 8) % 900_000,
                verbs[(r >> 32) as usize % verbs.len()],
                (r >> 40) % 500,
                (r >> 50) % 16,
            ));
        }
        add(&format!("logs/orders-{i:03}.log"), log.as_bytes());
    }
    tar.into_inner().unwrap().finish().unwrap().flush().unwrap();
}

#[test]
fn memory_is_bounded_by_the_largest_artifact_not_by_the_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("many-logs.tgz");
    many_logs_bundle(&bundle);
    let run = |limit: Option<u64>| {
        let (html, json) = (dir.path().join("out.html"), dir.path().join("out.json"));
        let args = analyze_args(&bundle, &html, &json);
        let o = match limit {
            Some(l) => rca_within(l, &args),
            None => Command::new(env!("CARGO_BIN_EXE_rca"))
                .args(args)
                .output()
                .unwrap(),
        };
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap_or_else(|e| {
                panic!(
                    "no document within {limit:?} bytes ({e}): {}\n{}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                )
            }))
            .unwrap();
        (o.status.code(), doc)
    };
    let (free_status, free) = run(None);
    let (status, bounded) = run(Some(MANY_LOGS_AS));
    assert_eq!(status, free_status);
    let logs = bounded["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["path"].as_str().unwrap().starts_with("bundle/logs/"))
        .map(|a| a["bytes"].as_u64().unwrap())
        .collect::<Vec<_>>();
    assert!(logs.iter().sum::<u64>() >= MANY_LOGS_TEXT);
    assert!(logs.iter().all(|&b| b < 3 << 20));
    const { assert!(MANY_LOGS_TEXT > MANY_LOGS_AS) };
    // The same findings, citing the same lines with the same text.
    let findings = crate::common::findings(&bounded);
    assert!(
        findings
            .iter()
            .any(|f| !crate::common::cited_lines(f).is_empty()),
        "{findings:?}"
    );
    assert_eq!(findings, crate::common::findings(&free));
}

/// Address space `rca fleet --jobs 1` is given for bundles each holding [`FLEET_BLOB`] bytes of
/// text: what one analysis of one of them needs (the text, its index and packed copy, the
/// program, two workers), never two of them at once.
const FLEET_ONE_ANALYSIS_AS: u64 = 1024 << 20;

/// The large entry of each fleet bundle: 384 MiB, so that two analyses' texts at once (768 MiB)
/// and the program do not fit in [`FLEET_ONE_ANALYSIS_AS`] (`--jobs 2` over these bundles aborts
/// there: an allocation fails).
const FLEET_BLOB: u64 = 384 << 20;

#[test]
fn a_fleet_is_analyzed_one_bundle_at_a_time_in_the_memory_of_one_analysis() {
    // The healthy sample (a real collection) with a large file added: five such hosts.
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("host-1.tgz");
    {
        let f = std::fs::File::open(crate::common::healthy_sample()).unwrap();
        let mut sample = tar::Archive::new(flate2::read::GzDecoder::new(f));
        let gz = GzEncoder::new(
            io::BufWriter::new(std::fs::File::create(&one).unwrap()),
            flate2::Compression::fast(),
        );
        let mut tar = tar::Builder::new(gz);
        let mut top = String::new();
        for e in sample.entries().unwrap() {
            let mut e = e.unwrap();
            let path = e.path().unwrap().to_string_lossy().into_owned();
            if top.is_empty() {
                top = path.split('/').next().unwrap().to_string();
            }
            let mut h = e.header().clone();
            let mut data = Vec::new();
            e.read_to_end(&mut data).unwrap();
            tar.append_data(&mut h, &path, &data[..]).unwrap();
        }
        let mut h = tar::Header::new_gnu();
        h.set_size(FLEET_BLOB);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        tar.append_data(
            &mut h,
            format!("{top}/extra/blob.txt"),
            io::repeat(b'\n').take(FLEET_BLOB),
        )
        .unwrap();
        tar.into_inner().unwrap().finish().unwrap().flush().unwrap();
    }
    let mut bundles = vec![one.clone()];
    for i in 2..=5 {
        let p = dir.path().join(format!("host-{i}.tgz"));
        std::fs::copy(&one, &p).unwrap();
        bundles.push(p);
    }
    let json = dir.path().join("fleet.json");
    let mut args: Vec<&std::ffi::OsStr> = vec!["fleet".as_ref()];
    args.extend(bundles.iter().map(|p| p.as_os_str()));
    args.extend([
        "--jobs".as_ref(),
        "1".as_ref(),
        "--json".as_ref(),
        json.as_os_str(),
        "--max-ratio".as_ref(),
        "1000000".as_ref(),
    ]);
    let o = rca_within(FLEET_ONE_ANALYSIS_AS, &args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    // Identical hosts: nothing deviates (exit 0); a host that ran out of memory would abort
    // the process, or be listed as not compared.
    assert_eq!(
        o.status.code(),
        Some(0),
        "rca fleet did not finish within {} MiB: {}\n{stderr}",
        FLEET_ONE_ANALYSIS_AS >> 20,
        o.status
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let hosts = doc["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 5, "{stderr}");
    assert!(
        doc["failed"].as_array().is_none_or(|f| f.is_empty()),
        "{}",
        doc["failed"]
    );
    for h in hosts {
        assert!(h["summary"]["unanalyzable"].is_null(), "{h}");
        assert!(h["summary"]["entries"].as_u64().unwrap() > 10, "{h}");
    }
}
