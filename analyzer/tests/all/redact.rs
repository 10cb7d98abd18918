//! `rca redact` run as a user runs it: a bundle planted with identifiers and secrets of every
//! class (generated here from a recipe, on top of the S1 sample's real artifacts) comes out with
//! none left, the leak scan catches one put back, and the analysis of every sample bundle and
//! incident fixture is the same before and after redaction (rule ids, severities, ranks, each
//! artifact's kind and outcome), as are `rca diff`'s top differences of the sample pairs.

use flate2::read::GzDecoder;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(super) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs `rca` with `args`: exit code, stdout, stderr (never a panic).
pub(super) fn rca(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .output()
        .expect("rca runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "rca {args:?} panicked:\n{stderr}"
    );
    (
        out.status.code().expect("rca exits, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

/// `rca redact IN -o OUT --map MAP [extra]`, asserting success.
pub(super) fn redact(input: &Path, out: &Path, map: &Path, extra: &[&str]) -> String {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "redact".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--map".as_ref(),
        map.as_os_str(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let (code, stdout, stderr) = rca(&args);
    assert_eq!(
        code,
        0,
        "rca redact {}:\n{stdout}\n{stderr}",
        input.display()
    );
    stdout
}

/// Every entry of a `.tar.gz`, compressed members decompressed: (path, bytes).
pub(super) fn entries(tgz: &Path) -> Vec<(String, Vec<u8>)> {
    let f = std::fs::File::open(tgz).unwrap();
    let mut a = tar::Archive::new(GzDecoder::new(f));
    let mut v = Vec::new();
    for e in a.entries().unwrap() {
        let mut e = e.unwrap();
        let p = e.path().unwrap().to_string_lossy().into_owned();
        let mut b = Vec::new();
        e.read_to_end(&mut b).unwrap();
        let b = if b.starts_with(&[0x1f, 0x8b]) {
            let mut o = Vec::new();
            GzDecoder::new(&b[..]).read_to_end(&mut o).unwrap();
            o
        } else if b.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            let mut o = Vec::new();
            liblzma::read::XzDecoder::new(&b[..])
                .read_to_end(&mut o)
                .unwrap();
            o
        } else if b.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            zstd::stream::decode_all(&b[..]).unwrap()
        } else if b.starts_with(b"BZh") {
            let mut o = Vec::new();
            bzip2::read::BzDecoder::new(&b[..])
                .read_to_end(&mut o)
                .unwrap();
            o
        } else {
            b
        };
        v.push((p, b));
    }
    v
}

/// Where `needle` occurs in `hay` as a token (case-insensitive; not inside a longer run of
/// letters, digits, dots or colons on either side).
fn token_at(hay: &[u8], needle: &str) -> Option<usize> {
    let h = hay.to_ascii_lowercase();
    let n = needle.to_ascii_lowercase();
    let tok = |b: u8| b.is_ascii_alphanumeric();
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&h[from..], n.as_bytes()).map(|i| i + from) {
        let e = i + n.len();
        let before = i.checked_sub(1).map(|j| h[j]);
        let after = h.get(e).copied();
        let cont = |b: Option<u8>, next: Option<u8>| {
            b.is_some_and(tok) || (matches!(b, Some(b'.' | b':')) && next.is_some_and(tok))
        };
        if !cont(before, i.checked_sub(2).map(|j| h[j])) && !cont(after, h.get(e + 1).copied()) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The planted bundle: the S1 sample's artifacts with identifiers and secrets planted in every
/// file, in compressed members, across lines, near the entry size limit, plus key material.
/// Returns the values that must not survive.
fn plant(dir: &Path) -> Vec<String> {
    let src = repo().join("sample-bundles/s1-hadoop-vmware/rca-dn01.example-20261130T043135Z");
    copy_dir(&src, dir);
    let mut must_go: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let mut hosts = String::from("127.0.0.1 localhost\n");
    for i in 0..40 {
        let ip = format!("10.77.{}.{}", i / 10, 10 + i);
        let host = format!("zq{i:02}node.acmebank.corp");
        hosts.push_str(&format!("{ip} {host} zq{i:02}node\n"));
        must_go.extend([ip.clone(), host.clone(), format!("zq{i:02}node")]);
        let ext = format!("ext{i:02}.acmebank.corp");
        let v6 = format!("2a01:4f8:77:{i:x}::10");
        let mac = format!("5c:26:0a:3b:{i:02x}:7f");
        let dhcp = format!("dhcp-172-20-5-{}", 20 + i);
        let acct = format!("ACME-ACCT-{:08}", 1000 + i * 7);
        must_go.extend([
            ext.clone(),
            v6.clone(),
            mac.clone(),
            dhcp.clone(),
            acct.clone(),
        ]);
        lines.push(format!(
            "peer {host} ({ip}) via {ext} [{v6}] lladdr {} from {dhcp} account {acct} and zq{i:02}node; 172.21.{i}.9:8020",
            mac.to_uppercase()
        ));
        must_go.push(format!("172.21.{i}.9"));
    }
    let mut passwd = String::from(
        "root:x:0:0:root:/root:/bin/bash\nhdfs:x:990:990::/var/lib/hadoop-hdfs:/bin/bash\n",
    );
    let mut ps =
        String::from("USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n");
    for i in 0..12 {
        let u = format!("jdoe{i:02}");
        passwd.push_str(&format!(
            "{u}:x:{}:{}:J Doe:/home/{u}:/bin/bash\n",
            1001 + i,
            1001 + i
        ));
        ps.push_str(&format!(
            "{u}     {} 0.0 0.1 1000 100 pts/0 S 10:00 0:00 java -Dspring.datasource.password=JvmPw{i}Zx -Dlog.dir=/home/{u}/logs Main\n",
            2000 + i
        ));
        must_go.extend([u.clone(), format!("JvmPw{i}Zx")]);
    }
    let mut secrets = String::new();
    for i in 0..16 {
        let v = [
            format!("Pw{i}PropSecret"),
            format!("YamlPw{i}x"),
            format!("XmlSecret{i}v"),
            format!("AttrKey{i}v"),
            format!("JdbcPw{i}v"),
            format!("Tok{i}abcdefgh"),
            format!("AKIAZQ{i:02}ABCDEFGHIJKL"),
            format!("wJalrXUtnFEMIK7MDENGbPxRfiCY{i:02}"),
        ];
        secrets.push_str(&format!(
            "db.password={}\nspring:\n  datasource:\n    password: {}\n<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{}</value>\n</property>\n<add key=\"ApiKey\" value=\"{}\"/>\nurl=jdbc:postgresql://app:{}@zq01node.acmebank.corp:5432/x\ncurl -H \"Authorization: Bearer {}\" http://x\nAWS_ACCESS_KEY_ID={}\naws_secret_access_key = {}\n",
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
        ));
        must_go.extend(v);
    }
    let pem_lines: Vec<String> = (0..6)
        .map(|i| format!("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{i}PemBody"))
        .collect();
    secrets.push_str(&format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
        pem_lines.join("\n")
    ));
    must_go.extend(pem_lines);
    let w = |rel: &str, b: &[u8]| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b).unwrap();
    };
    w("etc/hosts", hosts.as_bytes());
    w("etc/passwd", passwd.as_bytes());
    w("system/ps-users.txt", ps.as_bytes());
    w("config/app/application.properties", secrets.as_bytes());
    // One planted line appended to every text file of the sample: every artifact kind.
    let mut files = Vec::new();
    walk(dir, &mut files);
    for (n, f) in files.iter().enumerate() {
        let mut t = std::fs::OpenOptions::new().append(true).open(f).unwrap();
        writeln!(t, "{}", lines[n % lines.len()]).unwrap();
    }
    // Compressed members of each format.
    let log = format!("{}\n{secrets}", lines.join("\n"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(log.as_bytes()).unwrap();
    w("logs/messages-1.gz", &gz.finish().unwrap());
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
    xz.write_all(log.as_bytes()).unwrap();
    w("logs/messages-2.xz", &xz.finish().unwrap());
    w(
        "logs/messages-3.zst",
        &zstd::stream::encode_all(log.as_bytes(), 1).unwrap(),
    );
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(log.as_bytes()).unwrap();
    w("logs/messages-4.bz2", &bz.finish().unwrap());
    // Near the entry size limit (1 MiB in the test): values at both ends.
    let mut big = format!("{}\n", lines[1]);
    while big.len() < (1 << 20) - 4096 {
        big.push_str("Nov 30 04:31:35 kernel: nothing to see here, just filler text\n");
    }
    big.push_str(&format!("{}\n", lines[2]));
    w("logs/big.log", big.as_bytes());
    // Key material: binary, dropped.
    w(
        "etc/krb5.keytab",
        b"\x05\x02\x00\x00\x00\x4aACMEBANK.CORP\x00\x01KeytabSecretBytes\x00\x00\xff\xfe",
    );
    must_go.push("KeytabSecretBytes".into());
    must_go.sort();
    must_go.dedup();
    must_go
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap();
        }
    }
}

pub(super) fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    let mut v: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn planted_values_do_not_survive_and_a_put_back_one_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp
        .path()
        .join("rca-zq00node.acmebank.corp-20261130T043135Z");
    let planted = plant(&bundle);
    assert!(planted.len() >= 200, "{} planted values", planted.len());
    let kw = tmp.path().join("keywords.txt");
    std::fs::write(
        &kw,
        "# account numbers\nre:ACME-ACCT-[0-9]{8}\nAcmeBankInternal\n",
    )
    .unwrap();
    let out = tmp.path().join("clean.tar.gz");
    let map = tmp.path().join("map.json");
    let stdout = redact(
        &bundle,
        &out,
        &map,
        &[
            "--keywords",
            kw.to_str().unwrap(),
            "--verify",
            "--max-entry-size",
            "1M",
        ],
    );
    assert!(stdout.contains("verified: no original value"), "{stdout}");
    let got = entries(&out);
    let mut survivors = Vec::new();
    for v in &planted {
        for (p, b) in &got {
            if token_at(b, v).is_some() || token_at(p.as_bytes(), v).is_some() {
                survivors.push(format!("{v} in {p}"));
            }
        }
    }
    assert!(
        survivors.is_empty(),
        "{} survived:\n{}",
        survivors.len(),
        survivors.join("\n")
    );
    // Every member is still in its format, and the big entry is still there.
    let names: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
    for m in [
        "messages-1.gz",
        "messages-2.xz",
        "messages-3.zst",
        "messages-4.bz2",
        "big.log",
    ] {
        assert!(
            names.iter().any(|n| n.ends_with(m)),
            "{m} missing: {names:?}"
        );
    }
    assert!(!names.iter().any(|n| n.ends_with("krb5.keytab")));
    // redaction.json says what was done.
    let (_, summary) = got
        .iter()
        .find(|(p, _)| p == "redaction.json" || p.ends_with("/redaction.json"))
        .expect("redaction.json");
    let summary: Value = serde_json::from_slice(summary).unwrap();
    for c in [
        "host-names",
        "ipv4-addresses",
        "ipv6-addresses",
        "mac-addresses",
        "user-names",
        "keywords",
    ] {
        assert!(
            summary["classes"][c]["replaced"].as_u64().unwrap_or(0) > 0,
            "{c}: {summary}"
        );
    }
    assert!(
        summary["secrets"]["pem-private-key"].as_u64().unwrap() >= 6,
        "{summary}"
    );
    assert!(
        summary["dropped"].to_string().contains("krb5.keytab"),
        "{summary}"
    );
    // The map stays out of the bundle and holds the originals.
    let m = std::fs::read_to_string(&map).unwrap();
    assert!(m.contains("zq00node.acmebank.corp") && m.contains("10.77.0.10"));
    assert!(!got
        .iter()
        .any(|(_, b)| memchr::memmem::find(b, b"\"prefixes\"").is_some()));

    // Put one original back: the leak scan lists where, and fails.
    let unpacked = tmp.path().join("unpacked");
    tar::Archive::new(GzDecoder::new(std::fs::File::open(&out).unwrap()))
        .unpack(&unpacked)
        .unwrap();
    let (code, _, _) = rca(&[
        "redact".as_ref(),
        "--verify-only".as_ref(),
        unpacked.as_os_str(),
        "--map".as_ref(),
        map.as_os_str(),
    ]);
    assert_eq!(code, 0, "the unpacked clean bundle verifies");
    let mut files = Vec::new();
    walk(&unpacked, &mut files);
    let victim = files
        .iter()
        .find(|f| f.ends_with("system/uname.txt"))
        .unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(victim)
        .unwrap();
    writeln!(f, "reached zq07node.acmebank.corp at 10.77.0.17").unwrap();
    let (code, _, stderr) = rca(&[
        "redact".as_ref(),
        "--verify-only".as_ref(),
        unpacked.as_os_str(),
        "--map".as_ref(),
        map.as_os_str(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("system/uname.txt:") && stderr.contains("10.77.0.17"),
        "{stderr}"
    );
    // And a secret, found without the map.
    writeln!(f, "db.password=hunter22").unwrap();
    let (code, _, stderr) = rca(&[
        "redact".as_ref(),
        "--verify-only".as_ref(),
        unpacked.as_os_str(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("secret:key-value"), "{stderr}");
}

/// What must not change with redaction: findings (rule, severity, in rank order) and the
/// multiset of artifact kinds with their outcomes.
fn essence(doc: &Value) -> (Vec<String>, Vec<String>) {
    let findings = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["rule_id"], f["severity"]))
        .collect();
    let mut arts: Vec<String> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{} {}", a["kind"], a["outcome"]["status"]))
        .collect();
    arts.sort();
    (findings, arts)
}

fn analyze(p: &Path) -> Value {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("f.json");
    rca(&[
        "analyze".as_ref(),
        "-q".as_ref(),
        p.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    serde_json::from_slice(&std::fs::read(&json).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap()
}

/// Analyzes `bundle` before and after redaction (with `map`) and compares.
fn same_analysis(bundle: &Path, map: &Path, out: &Path) {
    redact(bundle, out, map, &[]);
    let before = analyze(bundle);
    let after = analyze(out);
    assert!(
        after["bundle"]["redaction"].is_object(),
        "{}: the report says it is redacted",
        bundle.display()
    );
    assert_eq!(essence(&before), essence(&after), "{}", bundle.display());
}

#[test]
fn analysis_of_every_sample_bundle_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("map.json");
    let s = repo().join("sample-bundles");
    let bundles = [
        s.join("healthy/rca-vm-20261130T024849Z.tar.gz"),
        s.join("s1-hadoop-vmware/rca-dn01.example-20261130T043135Z"),
        s.join("s2-bank-core/baseline"),
        s.join("s2-bank-core/suspect"),
        s.join("s3-zookeeper-watches/rca-vm-20261130T042816Z.tar.gz"),
        s.join("s4-oceanbase-softirq/baseline"),
        s.join("s4-oceanbase-softirq/suspect"),
    ];
    for (i, b) in bundles.iter().enumerate() {
        same_analysis(b, &map, &tmp.path().join(format!("{i}.tar.gz")));
    }
}

#[test]
fn analysis_of_every_incident_fixture_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("map.json");
    let dir = repo().join("analyzer/tests/fixtures/incidents");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|d| {
            // A case kept as one collector tarball beside its README is that tarball.
            let tarballs: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().ends_with(".tar.gz"))
                .collect();
            match &tarballs[..] {
                [one] => one.clone(),
                _ => d,
            }
        })
        .collect();
    cases.sort();
    assert!(cases.len() > 20);
    for (i, c) in cases.iter().enumerate() {
        same_analysis(c, &map, &tmp.path().join(format!("{i}.tar.gz")));
    }
}

/// The top differences of `rca diff`, without the values (which name hosts and addresses).
fn top_differences(baseline: &Path, suspect: &Path) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("d.json");
    rca(&[
        "diff".as_ref(),
        "-q".as_ref(),
        baseline.as_os_str(),
        suspect.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let d: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    d["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["noise"] == Value::Bool(false))
        .take(10)
        .map(|d| format!("{} {} {}", d["area"], d["kind"], d["score"]))
        .collect()
}

#[test]
fn diff_of_redacted_sample_pairs_ranks_the_same() {
    for case in ["s2-bank-core", "s4-oceanbase-softirq"] {
        let tmp = tempfile::tempdir().unwrap();
        let map = tmp.path().join("map.json");
        let dir = repo().join("sample-bundles").join(case);
        let (b, s) = (tmp.path().join("b.tar.gz"), tmp.path().join("s.tar.gz"));
        redact(&dir.join("baseline"), &b, &map, &[]);
        redact(&dir.join("suspect"), &s, &map, &[]);
        let before = top_differences(&dir.join("baseline"), &dir.join("suspect"));
        assert!(!before.is_empty());
        assert_eq!(before, top_differences(&b, &s), "{case}");
    }
}

#[test]
fn output_inside_the_input_is_refused_and_nothing_is_left_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("b");
    copy_dir(
        &repo().join("sample-bundles/s2-bank-core/baseline"),
        &bundle,
    );
    let inside = bundle.join("clean.tar.gz");
    let (code, _, stderr) = rca(&[
        "redact".as_ref(),
        bundle.as_os_str(),
        "-o".as_ref(),
        inside.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!inside.exists());
    let out = tmp.path().join("clean.tar.gz");
    let (code, _, _) = rca(&[
        "redact".as_ref(),
        "-q".as_ref(),
        bundle.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, 0);
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "only the bundle and the output: {left:?}");
}

#[test]
fn analysis_of_sosreport_and_supportconfig_fixtures_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("map.json");
    let mut cases = Vec::new();
    for layout in ["sosreport", "supportconfig"] {
        let dir = repo().join("analyzer/tests/fixtures").join(layout);
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                cases.push(p);
            }
        }
    }
    cases.sort();
    assert!(cases.len() >= 5);
    for (i, c) in cases.iter().enumerate() {
        let out = tmp.path().join(format!("{i}.tar.gz"));
        redact(c, &out, &map, &[]);
        let (before, after) = (analyze(c), analyze(&out));
        let (f0, mut a0) = essence(&before);
        let (f1, a1) = essence(&after);
        assert_eq!(f0, f1, "{}", c.display());
        // Binary files (sysstat's binary `sa` files, /proc/net/rt_acct) are dropped: they were
        // unrecognised artifacts; everything else keeps its kind and outcome.
        let dropped = after["bundle"]["redaction"]["dropped"]
            .as_array()
            .unwrap()
            .len();
        let unrecognised = "null \"unrecognised\"";
        for _ in 0..dropped {
            let at = a0.iter().position(|a| a == unrecognised);
            assert!(
                at.is_some(),
                "{}: a dropped file was recognised",
                c.display()
            );
            a0.remove(at.unwrap());
        }
        assert_eq!(a0, a1, "{}", c.display());
    }
}
