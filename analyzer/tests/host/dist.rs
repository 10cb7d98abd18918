//! The release tarball of `cargo xtask dist`, checked as a user receives it: unpacked into a temp
//! folder, every file against `SHA256SUMS`, the binary's glibc symbol versions against 2.17, the
//! release binary against this build's debug one on every sample bundle (same exit status, same
//! findings), its completion scripts against the tarball's, and `collector.sh --help`.
//!
//! Needs the tarball for this machine's architecture in `<target dir>/dist/` (CI makes it with
//! `cargo xtask dist` before the tests; building a release here would take minutes); without it
//! the test is skipped with one line, unless `RCA_HOST_TESTS=1`, where it fails.

use super::{repo, Needs};
use object::read::elf::FileHeader;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The newest glibc whose symbol versions the release binary may need.
const MAX_GLIBC: (u32, u32) = (2, 17);

/// `<target dir>/dist/rca-<version>-<arch>-linux.tar.gz`, as `cargo xtask dist` names it.
fn tarball() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target dir>/tmp`, wherever the target dir is.
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("dist")
        .join(format!("{}.tar.gz", top_folder()))
}

fn top_folder() -> String {
    format!(
        "rca-{}-{}-linux",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH
    )
}

/// Every `GLIBC_x.y[.z]` version the ELF file needs (its `.gnu.version_r` section), as numbers;
/// other names (`GLIBC_PRIVATE`, other libraries' versions) are left out.
fn glibc_versions(elf: &[u8]) -> BTreeSet<Vec<u32>> {
    type Elf = object::elf::FileHeader64<object::Endianness>;
    let header = Elf::parse(elf).expect("an ELF64 file");
    let endian = header.endian().unwrap();
    let sections = header.sections(endian, elf).unwrap();
    let mut versions = BTreeSet::new();
    let Some((mut needs, link)) = sections.gnu_verneed(endian, elf).unwrap() else {
        return versions;
    };
    let strings = sections.strings(endian, elf, link).unwrap();
    while let Some((_, mut aux)) = needs.next().unwrap() {
        while let Some(a) = aux.next().unwrap() {
            let name = String::from_utf8_lossy(a.name(endian, strings).unwrap()).into_owned();
            if let Some(v) = name.strip_prefix("GLIBC_") {
                if let Ok(nums) = v
                    .split('.')
                    .map(str::parse)
                    .collect::<Result<Vec<u32>, _>>()
                {
                    versions.insert(nums);
                }
            }
        }
    }
    versions
}

/// The ELF machine the binary is for must be this machine's.
fn elf_machine(elf: &[u8]) -> object::elf::Machine {
    type Elf = object::elf::FileHeader64<object::Endianness>;
    let header = Elf::parse(elf).unwrap();
    header.e_machine(header.endian().unwrap())
}

/// The sample bundles: every `.tar.gz` under `sample-bundles/` and every folder holding a
/// collector's `manifest.tsv`.
fn sample_bundles() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                if p.join("manifest.tsv").is_file() {
                    out.push(p);
                } else {
                    walk(&p, out);
                }
            } else if p.to_string_lossy().ends_with(".tar.gz") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo().join("sample-bundles"), &mut out);
    out
}

/// `BIN analyze BUNDLE --json F`: the exit status and the findings' rule ids and severities.
fn analyze(bin: &Path, bundle: &Path) -> (Option<i32>, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("f.json");
    let o = Command::new(bin)
        .arg("analyze")
        .arg(bundle)
        .arg("--quiet")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc: serde_json::Value = std::fs::read_to_string(&json)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_else(|e| {
            panic!(
                "{} wrote no JSON for {} ({e}): {}",
                bin.display(),
                bundle.display(),
                String::from_utf8_lossy(&o.stderr)
            )
        });
    let findings = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap_or_default().to_string(),
                f["severity"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    (o.status.code(), findings)
}

#[test]
fn the_release_tarball_verifies_runs_on_glibc_2_17_and_agrees_with_the_debug_build() {
    let tarball = tarball();
    if !Needs::new("dist")
        .that(
            tarball.is_file(),
            &format!("{} (`cargo xtask dist`)", tarball.display()),
        )
        .met()
    {
        return;
    }
    let _machine = crate::exclusive();
    let dir = tempfile::tempdir().unwrap();
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(&tarball).unwrap());
    tar::Archive::new(gz).unpack(dir.path()).unwrap();
    let tops: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(tops, [top_folder()], "one top folder");
    let top = dir.path().join(top_folder());

    // Every file is listed in SHA256SUMS with its digest, and nothing else is listed.
    let sums = std::fs::read_to_string(top.join("SHA256SUMS")).unwrap();
    let mut listed = BTreeSet::new();
    for line in sums.lines() {
        let (digest, name) = line
            .split_once("  ")
            .unwrap_or_else(|| panic!("not a sha256sum line: {line}"));
        let bytes = std::fs::read(top.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let actual: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest, actual, "{name}");
        listed.insert(name.to_string());
    }
    let mut files = BTreeSet::new();
    let mut stack = vec![top.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(&top).unwrap().to_string_lossy().into_owned();
                if rel != "SHA256SUMS" {
                    files.insert(rel);
                }
            }
        }
    }
    assert_eq!(listed, files, "SHA256SUMS covers every file");
    for f in [
        "rca",
        "collector.sh",
        "README.md",
        "completions/rca.bash",
        "completions/_rca",
        "completions/rca.fish",
        "man/rca.1",
        "man/rca-analyze.1",
        "man/rca-completions.1",
    ] {
        assert!(files.contains(f), "{f} in {files:?}");
    }

    // The binary: this machine's architecture, no glibc symbol version past 2.17.
    let release = top.join("rca");
    let elf = std::fs::read(&release).unwrap();
    let machine = match std::env::consts::ARCH {
        "x86_64" => object::elf::EM_X86_64,
        "aarch64" => object::elf::EM_AARCH64,
        other => panic!("no ELF machine known for {other}"),
    };
    assert_eq!(elf_machine(&elf), machine);
    let versions = glibc_versions(&elf);
    let newest = versions
        .last()
        .unwrap_or_else(|| panic!("{} needs no GLIBC_ version at all", release.display()));
    let past: Vec<String> = versions
        .iter()
        .filter(|v| (v[0], v.get(1).copied().unwrap_or(0)) > MAX_GLIBC)
        .map(|v| {
            format!(
                "GLIBC_{}",
                v.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
            )
        })
        .collect();
    assert!(
        past.is_empty(),
        "the release binary needs glibc past 2.17: {past:?}"
    );
    assert!(newest.len() >= 2, "{newest:?}");

    let o = Command::new(&release).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        format!("rca {}", env!("CARGO_PKG_VERSION"))
    );

    // The completion scripts it prints are the ones shipped beside it.
    for (shell, file) in [("bash", "rca.bash"), ("zsh", "_rca"), ("fish", "rca.fish")] {
        let o = Command::new(&release)
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(o.status.success(), "completions {shell}");
        assert_eq!(
            o.stdout,
            std::fs::read(top.join("completions").join(file)).unwrap(),
            "{file}"
        );
    }

    // Every sample bundle: the same exit status and findings as the debug build.
    let samples = sample_bundles();
    assert!(samples.len() >= 7, "{samples:?}");
    let debug = Path::new(env!("CARGO_BIN_EXE_rca"));
    let mut codes = BTreeSet::new();
    for s in &samples {
        let (code, findings) = analyze(&release, s);
        let (debug_code, debug_findings) = analyze(debug, s);
        assert_eq!(code, debug_code, "exit status on {}", s.display());
        assert_eq!(findings, debug_findings, "findings on {}", s.display());
        assert!(matches!(code, Some(0 | 1)), "{}: {code:?}", s.display());
        codes.insert(code);
    }
    // The healthy sample exits 0, the case samples 1: both statuses were compared.
    assert_eq!(codes, BTreeSet::from([Some(0), Some(1)]));

    // The collector runs from the unpacked tarball.
    let o = Command::new("sh")
        .arg(top.join("collector.sh"))
        .arg("--help")
        .current_dir(&top)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("--duration"));
}
