//! Links inside a bundle (sosreport trees hold many: `etc/os-release -> ../usr/lib/os-release`,
//! a top-level `free -> sos_commands/memory/free`): in a tar, a zip or a folder, a link whose
//! target stays inside the tree is delivered with its normalised target; one that escapes is
//! refused with where it leads; nothing is followed on disk. And a folder holding one bundle
//! archive is read as that archive.

use crate::common::{raw_entries, tar_bytes, SOFTIRQS};
use rca::bundle::{EntryContent, Limits, RawEntry, ReadSummary};
use std::io::Write;
use std::os::unix::fs::symlink;

/// The links a sosreport-like tree holds, relative to its top folder `t/`, with the bundle path
/// each resolves to (`None`: refused as escaping).
const LINKS: [(&str, &str, Option<&str>); 5] = [
    (
        "t/etc/os-release",
        "../usr/lib/os-release",
        Some("t/usr/lib/os-release"),
    ),
    (
        "t/free",
        "sos_commands/memory/free",
        Some("t/sos_commands/memory/free"),
    ),
    ("t/etc/up", "./../../other/x", Some("other/x")),
    ("t/etc/passwd", "../../../etc/passwd", None),
    ("t/etc/localtime", "/usr/share/zoneinfo/UTC", None),
];

fn target_of<'a>(entries: &'a [RawEntry], path: &str) -> Option<&'a str> {
    entries
        .iter()
        .find(|e| e.path == path)
        .map(|e| match &e.content {
            EntryContent::Link { target } => target.as_str(),
            other => panic!("{path}: {other:?}"),
        })
}

fn check(summary: &ReadSummary, entries: &[RawEntry], input: &str) {
    for (link, _, want) in LINKS {
        match want {
            Some(t) => assert_eq!(target_of(entries, link), Some(t), "{input}: {link}"),
            None => {
                assert!(target_of(entries, link).is_none(), "{input}: {link}");
                let r = summary
                    .refused
                    .iter()
                    .find(|r| r.path == link)
                    .unwrap_or_else(|| {
                        panic!("{input}: {link} not refused: {:?}", summary.refused)
                    });
                assert!(r.reason.contains("escapes the bundle"), "{}", r.reason);
            }
        }
    }
    let why = |p: &str| {
        summary
            .refused
            .iter()
            .find(|r| r.path == p)
            .map(|r| r.reason.clone())
            .unwrap_or_default()
    };
    assert!(
        why("t/etc/passwd").contains("to `../etc/passwd`"),
        "{input}: {}",
        why("t/etc/passwd")
    );
    assert!(
        why("t/etc/localtime").contains("`/usr/share/zoneinfo/UTC`")
            && why("t/etc/localtime").contains("absolute"),
        "{input}: {}",
        why("t/etc/localtime")
    );
    assert!(entries
        .iter()
        .any(|e| e.path == "t/proc/softirqs" && matches!(e.content, EntryContent::Bytes(_))));
}

#[test]
fn tar_links_inside_the_tree_are_delivered_and_escaping_ones_refused() {
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(SOFTIRQS.len() as u64);
    h.set_entry_type(tar::EntryType::Regular);
    b.append_data(&mut h, "t/proc/softirqs", SOFTIRQS.as_bytes())
        .unwrap();
    for (link, target, _) in LINKS {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        b.append_link(&mut h, link, target).unwrap();
    }
    // A hard link names another member from the archive's root.
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Link);
    h.set_size(0);
    b.append_link(&mut h, "t/proc/softirqs.copy", "t/proc/softirqs")
        .unwrap();
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Link);
    h.set_size(0);
    b.append_link(&mut h, "t/shadow", "../etc/shadow").unwrap();
    // A target past the 100-byte header field comes in a GNU long-link header.
    let long = format!("sos_commands/{}/out", "x".repeat(150));
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Symlink);
    h.set_size(0);
    b.append_link(&mut h, "t/long", &long).unwrap();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.tar");
    std::fs::write(&p, b.into_inner().unwrap()).unwrap();
    let (summary, entries) = raw_entries(&p, &Limits::default());
    check(&summary, &entries, "tar");
    assert_eq!(
        target_of(&entries, "t/proc/softirqs.copy"),
        Some("t/proc/softirqs")
    );
    assert_eq!(
        target_of(&entries, "t/long"),
        Some(format!("t/{long}").as_str())
    );
    let shadow = summary
        .refused
        .iter()
        .find(|r| r.path == "t/shadow")
        .unwrap();
    assert!(
        shadow
            .reason
            .starts_with("hard link to `../etc/shadow` escapes"),
        "{}",
        shadow.reason
    );
}

#[test]
fn zip_links_inside_the_tree_are_delivered_and_escaping_ones_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    z.start_file("t/proc/softirqs", opts).unwrap();
    z.write_all(SOFTIRQS.as_bytes()).unwrap();
    for (link, target, _) in LINKS {
        z.add_symlink(link, target, opts).unwrap();
    }
    z.finish().unwrap();
    let (summary, entries) = raw_entries(&p, &Limits::default());
    check(&summary, &entries, "zip");
}

#[test]
fn folder_links_resolve_by_name_and_are_never_followed() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("bundle");
    std::fs::create_dir_all(root.join("t/proc")).unwrap();
    std::fs::create_dir_all(root.join("t/etc")).unwrap();
    std::fs::write(root.join("t/proc/softirqs"), SOFTIRQS).unwrap();
    for (link, target, _) in LINKS {
        symlink(target, root.join(link)).unwrap();
    }
    // A link to a real file outside the folder: refused, its content never read.
    std::fs::write(d.path().join("secret"), "outside\n").unwrap();
    symlink("../../secret", root.join("t/secret")).unwrap();
    let (summary, entries) = raw_entries(&root, &Limits::default());
    check(&summary, &entries, "folder");
    assert!(summary
        .refused
        .iter()
        .any(|r| r.path == "t/secret" && r.reason.contains("to `../secret`")));
    assert!(!entries
        .iter()
        .any(|e| matches!(&e.content, EntryContent::Bytes(b) if b == b"outside\n")));
    // Links count as entries, with no bytes.
    assert_eq!(summary.entries, entries.len());
    assert_eq!(summary.bytes_read, SOFTIRQS.len() as u64);
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_folder_holding_one_archive_is_read_as_that_archive() {
    let d = tempfile::tempdir().unwrap();
    let ticket = d.path().join("case-1234");
    std::fs::create_dir(&ticket).unwrap();
    let archive = xz(&tar_bytes(&[(
        "sosreport-db1-2024/proc/softirqs",
        SOFTIRQS.as_bytes(),
    )]));
    std::fs::write(ticket.join("sosreport-db1-2024.tar.xz"), &archive).unwrap();
    // A checksum file beside it, in `sha256sum`'s output format (GNU coreutils 9.1: the digest,
    // two spaces, the name).
    use sha2::Digest;
    std::fs::write(
        ticket.join("sosreport-db1-2024.tar.xz.sha256"),
        format!(
            "{:x}  sosreport-db1-2024.tar.xz\n",
            sha2::Sha256::digest(&archive)
        ),
    )
    .unwrap();
    let (summary, entries) = raw_entries(&ticket, &Limits::default());
    assert_eq!(summary.format.map(|f| f.label()), Some("tar-xz"));
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].path, "sosreport-db1-2024/proc/softirqs");
    assert_eq!(summary.warnings.len(), 1, "{:?}", summary.warnings);
    assert!(
        summary.warnings[0].contains("one bundle archive, `sosreport-db1-2024.tar.xz`"),
        "{}",
        summary.warnings[0]
    );

    // Anything else beside it: read as a folder, as any other.
    std::fs::write(
        ticket.join("notes.txt"),
        "customer says slow since Monday\n",
    )
    .unwrap();
    let (summary, entries) = raw_entries(&ticket, &Limits::default());
    assert_eq!(summary.format.map(|f| f.label()), Some("directory"));
    assert!(summary.warnings.is_empty());
    assert_eq!(entries.len(), 3);

    // A single compressed file is not a bundle archive: the folder stays a folder.
    let logs = d.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    std::fs::write(
        logs.join("messages.xz"),
        xz(b"Jan  1 00:00:01 host kernel: x\n"),
    )
    .unwrap();
    let (summary, entries) = raw_entries(&logs, &Limits::default());
    assert_eq!(summary.format.map(|f| f.label()), Some("directory"));
    assert_eq!(entries[0].path, "messages.xz");
    assert_eq!(entries[0].compression, Some(rca::bundle::Compression::Xz));
}

#[test]
fn a_link_to_a_file_outside_is_refused_in_the_analysis_too() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("b");
    std::fs::create_dir_all(root.join("proc")).unwrap();
    std::fs::write(root.join("proc/softirqs"), SOFTIRQS).unwrap();
    symlink("/etc/passwd", root.join("passwd")).unwrap();
    let r = rca::report::Report::analyze(&root, &Limits::default()).unwrap();
    assert!(r
        .bundle
        .refused
        .iter()
        .any(|x| x.path == "passwd" && x.reason.contains("escapes the bundle")));
    assert!(!r.artifacts.iter().any(|a| a.path == "passwd"));
}

/// A sosreport keeps `etc/os-release` as a link to `../usr/lib/os-release`: the host's OS is
/// read through it; a link to a folder, through links among its folders, is kept as a link; a
/// dangling link is listed as unusable and a loop refused, each saying which it is.
#[test]
fn links_in_the_analysis_lead_to_their_file_through_links_and_dangling_or_looping_ones_say_so() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("sosreport-h");
    for dir in ["etc", "usr/lib", "sos_commands/kernel", "proc/1/net"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    // A file whose own name says nothing, reached only through a link named `os-release`.
    std::fs::write(
        root.join("usr/lib/release-info"),
        crate::common::fixture("captured/os-release.txt"),
    )
    .unwrap();
    symlink("../usr/lib/release-info", root.join("etc/os-release")).unwrap();
    std::fs::write(root.join("proc/1/net/dev"), "x\n").unwrap();
    // sos's chain: `proc/net → self/net`, `proc/self → 1`.
    symlink("1", root.join("proc/self")).unwrap();
    symlink("self/net", root.join("proc/net")).unwrap();
    symlink("../../nowhere", root.join("sos_commands/kernel/gone")).unwrap();
    symlink("b", root.join("sos_commands/kernel/a")).unwrap();
    symlink("a", root.join("sos_commands/kernel/b")).unwrap();
    let c = rca::artifacts::collect(&root, &Limits::default()).unwrap();
    let by = |p: &str| c.artifacts.iter().find(|a| a.path == p);
    let link = by("etc/os-release").expect("the link is an artifact");
    assert_eq!(
        link.outcome,
        rca::artifacts::Outcome::Link {
            target: "usr/lib/release-info".into()
        }
    );
    let target = by("usr/lib/release-info").unwrap();
    assert_eq!(target.kind_name(), Some("os-release"));
    let facts = rca::facts::HostFacts::from_collected(&c);
    assert!(
        facts
            .identity
            .os
            .as_deref()
            .is_some_and(|os| os.contains("Debian")),
        "{:?}",
        facts.identity.os
    );
    assert_eq!(
        by("proc/net").unwrap().outcome,
        rca::artifacts::Outcome::Link {
            target: "proc/1/net".into()
        }
    );
    let refused = |p: &str| {
        c.summary
            .refused
            .iter()
            .find(|r| r.path == p)
            .map(|r| r.reason.clone())
            .unwrap_or_default()
    };
    let gone = by("sos_commands/kernel/gone").expect("a dangling link is listed");
    assert!(
        matches!(&gone.outcome, rca::artifacts::Outcome::Unusable { reason } if reason.contains("dangling")),
        "{:?}",
        gone.outcome
    );
    assert!(
        refused("sos_commands/kernel/gone").is_empty(),
        "not a refusal for safety"
    );
    assert!(
        refused("sos_commands/kernel/a").contains("loop"),
        "{:?}",
        c.summary.refused
    );
    assert!(refused("sos_commands/kernel/b").contains("loop"));
}
