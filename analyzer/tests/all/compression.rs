//! Bundles compressed with gzip, xz, zstd or bzip2, recognised by content: whole inputs (a
//! compressed tar, a single compressed file) and compressed members inside a bundle, under the
//! same entry, total and ratio limits; bombs, truncated and corrupt streams; and the shipped
//! ZooKeeper sample re-packed in every compression giving the findings of the original.
//!
//! Archives are built here with the crates' encoders; nothing outside Rust is needed.

use crate::common::{raw_entries, repo, tar_bytes, SOFTIRQS};
use rca::artifacts::Outcome;
use rca::bundle::{Compression, EntryContent, Limits};
use rca::report::Report;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

const ALL: [Compression; 4] = [
    Compression::Gzip,
    Compression::Xz,
    Compression::Zstd,
    Compression::Bzip2,
];

/// `data` compressed with `c`, with the format's integrity check (gzip CRC-32, xz CRC-64, zstd
/// content checksum, bzip2 block CRC).
pub fn compress(c: Compression, data: &[u8]) -> Vec<u8> {
    match c {
        Compression::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        Compression::Xz => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        Compression::Zstd => {
            let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
            e.include_checksum(true).unwrap();
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        Compression::Bzip2 => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
    }
}

fn tar_label(c: Compression) -> &'static str {
    match c {
        Compression::Gzip => "tar-gz",
        Compression::Xz => "tar-xz",
        Compression::Zstd => "tar-zst",
        Compression::Bzip2 => "tar-bz2",
    }
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

fn analyze(path: &Path, limits: &Limits) -> Report {
    Report::analyze(path, limits).expect("the bundle is readable")
}

fn outcome(r: &Report, suffix: &str) -> Outcome {
    r.artifacts
        .iter()
        .find(|a| a.path.ends_with(suffix))
        .unwrap_or_else(|| panic!("no artifact ending in {suffix}"))
        .outcome
        .clone()
}

/// Text that compresses about 3:1, so a few MiB of it do not trip the ratio alarm.
fn filler(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 32);
    let mut i = 0u32;
    while out.len() < bytes {
        out.extend(format!("{i} {}\n", i.wrapping_mul(2654435761)).bytes());
        i += 1;
    }
    out
}

#[test]
fn a_compressed_tar_is_read_by_content_whatever_its_name() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/notes.txt", b"slow since 09:00\n"),
    ]);
    for c in ALL {
        let p = write(
            d.path(),
            &format!("upload-{}", c.label()),
            &compress(c, &tar),
        );
        let r = analyze(&p, &Limits::default());
        assert_eq!(r.bundle.format.map(|f| f.label()), Some(tar_label(c)));
        assert_eq!(r.bundle.stopped, None, "{c:?}");
        assert_eq!(outcome(&r, "b/proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
}

#[test]
fn a_single_compressed_file_is_its_content_under_its_name_without_the_suffix() {
    let d = tempfile::tempdir().unwrap();
    for (c, name) in [
        (Compression::Xz, "softirqs.xz"),
        (Compression::Zstd, "softirqs.zst"),
        (Compression::Bzip2, "softirqs.bz2"),
        (Compression::Gzip, "softirqs.gz"),
    ] {
        let p = write(d.path(), name, &compress(c, SOFTIRQS.as_bytes()));
        let (summary, entries) = raw_entries(&p, &Limits::default());
        assert_eq!(summary.format.map(|f| f.label()), Some(c.label()));
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].path, "softirqs");
        assert_eq!(entries[0].compression, Some(c));
        match &entries[0].content {
            EntryContent::Bytes(b) => assert_eq!(b, SOFTIRQS.as_bytes()),
            other => panic!("{c:?}: {other:?}"),
        }
    }
}

#[test]
fn a_multi_block_xz_stream_is_decoded_whole() {
    // `xz -T2` writes several blocks with their sizes in the headers, which liblzma's
    // multi-threaded decoder spreads over threads.
    let files: Vec<(String, Vec<u8>)> = (0..6)
        .map(|i| (format!("b/logs/part-{i}.log"), filler(700_000)))
        .collect();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    let tar = tar_bytes(&refs);
    let stream = liblzma::stream::MtStreamBuilder::new()
        .threads(2)
        .block_size(1 << 20)
        .preset(1)
        .encoder()
        .unwrap();
    let mut e = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
    e.write_all(&tar).unwrap();
    let xz = e.finish().unwrap();
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "multi.tar.xz", &xz);
    let (summary, entries) = raw_entries(&p, &Limits::default());
    assert_eq!(summary.stopped, None);
    assert_eq!(entries.len(), 6);
    for (e, (name, data)) in entries.iter().zip(&files) {
        assert_eq!(&e.path, name);
        assert!(
            matches!(&e.content, EntryContent::Bytes(b) if b == data),
            "{name}"
        );
    }
}

#[test]
fn bombs_stop_at_the_entry_cap_in_every_compression() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/bomb.txt", &vec![0u8; 64 << 20]),
    ]);
    let limits = Limits {
        max_entry_bytes: 1 << 20,
        ..Limits::default()
    };
    for c in ALL {
        let data = compress(c, &tar);
        assert!(data.len() < 1 << 20, "{c:?}: {} bytes", data.len());
        let p = write(d.path(), &format!("bomb-{}", c.label()), &data);
        let r = analyze(&p, &limits);
        assert_eq!(
            outcome(&r, "bomb.txt"),
            Outcome::TooLarge { limit: 1 << 20 },
            "{c:?}"
        );
        let stop = r.bundle.stopped.clone().unwrap_or_default();
        assert!(stop.contains("oversize entry"), "{c:?}: {stop}");
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
}

#[test]
fn bombs_stop_at_the_total_limit_in_every_compression() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/a.txt", &vec![b'a'; 3 << 20]),
        ("b/b.txt", &vec![b'b'; 3 << 20]),
    ]);
    let limits = Limits {
        max_total_bytes: 4 << 20,
        ..Limits::default()
    };
    for c in ALL {
        let p = write(
            d.path(),
            &format!("total-{}", c.label()),
            &compress(c, &tar),
        );
        let r = analyze(&p, &limits);
        assert!(
            matches!(outcome(&r, "a.txt"), Outcome::Unrecognised { .. }),
            "{c:?}"
        );
        assert_eq!(
            outcome(&r, "b.txt"),
            Outcome::TooLarge { limit: 4 << 20 },
            "{c:?}"
        );
        let stop = r.bundle.stopped.clone().unwrap_or_default();
        assert!(
            stop.contains("total uncompressed size limit"),
            "{c:?}: {stop}"
        );
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
}

#[test]
fn bombs_trip_the_ratio_alarm_in_every_compression() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/bomb.txt", &vec![0u8; 32 << 20]),
    ]);
    let limits = Limits {
        max_ratio: 100,
        ratio_floor_bytes: 1 << 20,
        ..Limits::default()
    };
    for c in ALL {
        let p = write(
            d.path(),
            &format!("ratio-{}", c.label()),
            &compress(c, &tar),
        );
        let r = analyze(&p, &limits);
        match outcome(&r, "bomb.txt") {
            Outcome::Unusable { reason } => {
                assert!(
                    reason.contains("compression ratio alarm"),
                    "{c:?}: {reason}"
                )
            }
            other => panic!("{c:?}: expected the ratio alarm, got {other:?}"),
        }
        let stop = r.bundle.stopped.clone().unwrap_or_default();
        assert!(stop.contains("--max-ratio"), "{c:?}: {stop}");
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
}

#[test]
fn the_ratio_counts_the_data_of_refused_entries_too() {
    // A device entry is refused, but its data still has to be decompressed to skip it: those
    // bytes count, so a bomb hidden there trips the alarm instead of being skipped for free.
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(SOFTIRQS.len() as u64);
    h.set_entry_type(tar::EntryType::Regular);
    b.append_data(&mut h, "b/proc/softirqs", SOFTIRQS.as_bytes())
        .unwrap();
    let mut h = tar::Header::new_gnu();
    h.set_size(32 << 20);
    h.set_entry_type(tar::EntryType::Fifo);
    b.append_data(&mut h, "b/fifo", &vec![0u8; 32 << 20][..])
        .unwrap();
    let tar = b.into_inner().unwrap();
    let limits = Limits {
        max_ratio: 100,
        ratio_floor_bytes: 1 << 20,
        ..Limits::default()
    };
    let d = tempfile::tempdir().unwrap();
    for c in [Compression::Xz, Compression::Zstd] {
        let p = write(d.path(), &format!("skip-{}", c.label()), &compress(c, &tar));
        let r = analyze(&p, &limits);
        let stop = r.bundle.stopped.clone().unwrap_or_default();
        assert!(stop.contains("compression ratio alarm"), "{c:?}: {stop}");
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
}

#[test]
fn truncated_streams_keep_what_was_read() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/big.log", &filler(3 << 20)),
    ]);
    for c in ALL {
        let data = compress(c, &tar);
        let p = write(
            d.path(),
            &format!("cut-{}", c.label()),
            &data[..data.len() / 2],
        );
        let r = analyze(&p, &Limits::default());
        let stop = r.bundle.stopped.clone().expect("reading stopped early");
        assert!(
            stop.starts_with(&format!(
                "the {} data ends early: the file is truncated; read before that: ",
                c.label()
            )),
            "{c:?}: {stop}"
        );
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
        match outcome(&r, "big.log") {
            Outcome::Unusable { reason } => assert!(reason.contains("truncated"), "{reason}"),
            other => panic!("{c:?}: {other:?}"),
        }
    }
}

#[test]
fn corrupt_streams_stop_with_the_reason_and_keep_what_was_read() {
    let d = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/big.log", &filler(3 << 20)),
    ]);
    for c in ALL {
        let mut data = compress(c, &tar);
        let mid = data.len() / 2;
        data[mid..mid + 64].fill(0xff);
        let p = write(d.path(), &format!("bad-{}", c.label()), &data);
        let r = analyze(&p, &Limits::default());
        let stop = r.bundle.stopped.clone().expect("reading stopped early");
        assert!(
            stop.starts_with(&format!("the {} data is corrupt", c.label())),
            "{c:?}: {stop}"
        );
        assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed, "{c:?}");
    }
    // A stream whose header is already wrong: nothing is read, and the reason says so.
    let p = write(d.path(), "sosreport.tar.xz", b"\xfd7zXZ\0\0\0rest");
    let r = analyze(&p, &Limits::default());
    assert_eq!(r.bundle.format.map(|f| f.label()), Some("xz"));
    let stop = r.bundle.stopped.clone().unwrap_or_default();
    assert!(stop.starts_with("the xz data is corrupt"), "{stop}");
}

#[test]
fn compressed_members_are_delivered_decompressed_under_their_own_names() {
    let messages = b"Jan  1 00:00:01 host kernel: hello\n".repeat(100);
    let mut members = vec![
        ("b/proc/softirqs".to_string(), SOFTIRQS.as_bytes().to_vec()),
        ("b/plain.txt".to_string(), b"as stored\n".to_vec()),
    ];
    for c in ALL {
        members.push((
            format!("b/var/log/messages-{}", c.label()),
            compress(c, &messages),
        ));
    }
    let refs: Vec<(&str, &[u8])> = members
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    let tar = tar_bytes(&refs);
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("tree");
    for (name, data) in &members {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let zip = d.path().join("b.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in &members {
            z.start_file(name.as_str(), opts).unwrap();
            z.write_all(data).unwrap();
        }
        z.finish().unwrap();
    }
    for input in [
        write(d.path(), "b.tar", &tar),
        write(d.path(), "b.tar.xz", &compress(Compression::Xz, &tar)),
        zip,
        dir,
    ] {
        let (summary, entries) = raw_entries(&input, &Limits::default());
        assert_eq!(summary.stopped, None, "{}", input.display());
        assert_eq!(entries.len(), 6, "{}", input.display());
        for c in ALL {
            let name = format!("b/var/log/messages-{}", c.label());
            let e = entries
                .iter()
                .find(|e| e.path == name)
                .unwrap_or_else(|| panic!("{name} in {}", input.display()));
            assert_eq!(e.compression, Some(c));
            assert!(matches!(&e.content, EntryContent::Bytes(b) if *b == messages));
        }
        let plain = entries.iter().find(|e| e.path == "b/plain.txt").unwrap();
        assert_eq!(plain.compression, None);
    }
}

#[test]
fn compressed_members_count_towards_the_limits() {
    let d = tempfile::tempdir().unwrap();
    let bomb = compress(Compression::Gzip, &vec![0u8; 32 << 20]);
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/var/log/messages.1.gz", &bomb),
        ("b/after.txt", b"still read\n"),
    ]);
    let p = write(d.path(), "members.tar", &tar);

    // Over the entry limit once decompressed: that member only.
    let limits = Limits {
        max_entry_bytes: 1 << 20,
        ..Limits::default()
    };
    let (summary, entries) = raw_entries(&p, &limits);
    assert_eq!(summary.stopped, None);
    let m = entries.iter().find(|e| e.path.ends_with(".gz")).unwrap();
    assert!(matches!(m.content, EntryContent::TooLarge { limit } if limit == 1 << 20));
    assert!(entries.iter().any(|e| e.path == "b/after.txt"));

    // Over the total limit: reading stops there.
    let limits = Limits {
        max_total_bytes: 4 << 20,
        ..Limits::default()
    };
    let (summary, entries) = raw_entries(&p, &limits);
    let stop = summary.stopped.unwrap_or_default();
    assert!(stop.contains("total uncompressed size limit"), "{stop}");
    assert!(!entries.iter().any(|e| e.path == "b/after.txt"));

    // Over the ratio: the alarm stops the bundle, in a plain tar as in a folder.
    let limits = Limits {
        max_ratio: 100,
        ratio_floor_bytes: 1 << 20,
        ..Limits::default()
    };
    let dir = d.path().join("tree");
    std::fs::create_dir_all(dir.join("var/log")).unwrap();
    std::fs::write(dir.join("var/log/messages.1.gz"), &bomb).unwrap();
    for input in [p.clone(), dir] {
        let (summary, entries) = raw_entries(&input, &limits);
        let stop = summary.stopped.unwrap_or_default();
        assert!(stop.contains("compression ratio alarm"), "{stop}");
        let m = entries.iter().find(|e| e.path.ends_with(".gz")).unwrap();
        assert!(
            matches!(&m.content, EntryContent::ReadError(e) if e.contains("ratio alarm")),
            "{:?}",
            m.content
        );
    }
}

#[test]
fn a_corrupt_member_spoils_itself_only() {
    let d = tempfile::tempdir().unwrap();
    let mut bad = compress(Compression::Bzip2, &filler(200_000));
    let mid = bad.len() / 2;
    bad[mid..mid + 64].fill(0xff);
    let tar = tar_bytes(&[
        ("b/logs/old.bz2", &bad),
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
    ]);
    let p = write(d.path(), "b.tar.zst", &compress(Compression::Zstd, &tar));
    let r = analyze(&p, &Limits::default());
    assert_eq!(r.bundle.stopped, None);
    match outcome(&r, "logs/old.bz2") {
        Outcome::Unusable { reason } => {
            assert!(reason.contains("the bzip2 data is corrupt"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(outcome(&r, "proc/softirqs"), Outcome::Parsed);
}

#[test]
fn a_compressed_archive_inside_a_bundle_is_not_unpacked() {
    let d = tempfile::tempdir().unwrap();
    let inner = compress(
        Compression::Xz,
        &tar_bytes(&[("x/proc/softirqs", SOFTIRQS.as_bytes())]),
    );
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/other-host.tar.xz", &inner),
    ]);
    let p = write(d.path(), "b.tar", &tar);
    let (_, entries) = raw_entries(&p, &Limits::default());
    let nested = entries
        .iter()
        .find(|e| e.path.ends_with(".tar.xz"))
        .unwrap();
    assert_eq!(nested.compression, None);
    assert!(matches!(&nested.content, EntryContent::Bytes(b) if *b == inner));
    let r = analyze(&p, &Limits::default());
    match outcome(&r, "other-host.tar.xz") {
        Outcome::Unrecognised { reason } => assert!(reason.contains("not unpacked"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(!r.artifacts.iter().any(|a| a.path.starts_with("x/")));
}

/// The shipped ZooKeeper sample's tar, re-packed in every compression, gives the findings of the
/// original `.tar.gz`.
#[test]
fn the_zookeeper_sample_repacked_in_every_compression_gives_the_same_findings() {
    let dir = repo().join("sample-bundles/s3-zookeeper-watches");
    let original = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("the sample is shipped");
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&original).unwrap())
        .read_to_end(&mut tar)
        .unwrap();
    let d = tempfile::tempdir().unwrap();
    let run = |bundle: &Path| -> serde_json::Value {
        let json = d.path().join("out.json");
        let o = Command::new(env!("CARGO_BIN_EXE_rca"))
            .args(["analyze", "-q", "--json"])
            .arg(&json)
            .arg(bundle)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", bundle.display());
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
    };
    let want = run(&original);
    assert!(!want["findings"].as_array().unwrap().is_empty());
    for c in [Compression::Xz, Compression::Zstd, Compression::Bzip2] {
        let p = write(
            d.path(),
            &format!("sample.{}", c.label()),
            &compress(c, &tar),
        );
        let got = run(&p);
        assert_eq!(got["bundle"]["format"], tar_label(c));
        assert_eq!(got["bundle"]["entries"], want["bundle"]["entries"], "{c:?}");
        assert_eq!(got["findings"], want["findings"], "{c:?}");
        assert_eq!(got["rules"], want["rules"], "{c:?}");
    }
}
