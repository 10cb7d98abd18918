//! `java -version` and `jcmd VM.*` parsers: captures from the development machine (OpenJDK
//! 17.0.15) and other distributions' `java -version` texts quoted in public GitHub issues (see
//! `fixtures/PROVENANCE.md`).

use crate::common;
use crate::common::{fixture, fixture_path, head, insert_line, XorShift};
use parsers::jvm::{self, java_version::JavaVendor, vm_flags::FlagValue};
use parsers::Sniff;

#[track_caller]
fn version(rel: &str) -> jvm::java_version::JavaVersion {
    let p = jvm::java_version::parse_java_version(&fixture(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
    p.value
}

#[test]
fn captured_java_version_debian_openjdk17() {
    let v = version("captured-jvm/java-version-jdk17.txt");
    assert_eq!(v.version, "17.0.15");
    assert_eq!(v.feature, Some(17));
    assert_eq!(v.version_date.as_deref(), Some("2025-04-15"));
    assert_eq!(v.vendor, JavaVendor::OpenJdk);
    assert_eq!(v.build.as_deref(), Some("17.0.15+6-Debian-1deb12u1"));
    assert_eq!(v.vm_name.as_deref(), Some("OpenJDK 64-Bit Server VM"));
    assert_eq!(
        v.runtime_line.as_deref(),
        Some("OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)")
    );
    assert_eq!(
        (v.lines.version, v.lines.runtime, v.lines.vm),
        (1, Some(2), Some(3))
    );
    assert!(v.preamble.is_empty());
}

#[test]
fn other_distributions() {
    let cases: [(&str, &str, u32, JavaVendor, &str, &str); 8] = [
        (
            "java-version/temurin-build-2730__temurin-11.0.13-beta.txt",
            "11.0.13-beta",
            11,
            JavaVendor::Temurin,
            "11.0.13-beta+6-202109281808",
            "OpenJDK 64-Bit Server VM",
        ),
        (
            "java-version/liberica-68__temurin-8u312.txt",
            "1.8.0_312",
            8,
            JavaVendor::Temurin,
            "1.8.0_312-b07",
            "OpenJDK 64-Bit Server VM",
        ),
        (
            "java-version/zulu-openjdk-151__zulu-11.0.15.txt",
            "11.0.15",
            11,
            JavaVendor::AzulZulu,
            "11.0.15+10-LTS",
            "OpenJDK 64-Bit Server VM",
        ),
        (
            "java-version/corretto-jdk-13__corretto-15.0.1.txt",
            "15.0.1",
            15,
            JavaVendor::AmazonCorretto,
            "15.0.1+9-version-opt",
            "OpenJDK 64-Bit Server VM",
        ),
        (
            "java-version/dragonwell8-685__dragonwell-extended-8.20.21-warning.txt",
            "1.8.0_422",
            8,
            JavaVendor::AlibabaDragonwell,
            "1.8.0_422-b01",
            "OpenJDK 64-Bit Server VM",
        ),
        (
            "java-version/javamonitor-6__oracle-8u131.txt",
            "1.8.0_131",
            8,
            JavaVendor::Oracle,
            "1.8.0_131-b11",
            "Java HotSpot(TM) 64-Bit Server VM",
        ),
        (
            "java-version/openj9-18952__semeru-11.0.21.txt",
            "11.0.21",
            11,
            JavaVendor::OpenJ9,
            "11.0.21+9",
            "Eclipse OpenJ9 VM",
        ),
        (
            "java-version/semeru-runtimes-94__semeru-17-dash-dash-version.txt",
            "17.0.12",
            17,
            JavaVendor::OpenJ9,
            "17.0.12+7",
            "Eclipse OpenJ9 VM",
        ),
    ];
    for (rel, ver, feature, vendor, build, vm) in cases {
        let v = version(rel);
        assert_eq!(v.version, ver, "{rel}");
        assert_eq!(v.feature, Some(feature), "{rel}");
        assert_eq!(v.vendor, vendor, "{rel}");
        assert_eq!(v.build.as_deref(), Some(build), "{rel}");
        assert_eq!(v.vm_name.as_deref(), Some(vm), "{rel}");
    }
    let v = version("java-version/dragonwell8-685__dragonwell-extended-8.20.21-warning.txt");
    assert_eq!(v.preamble.len(), 1);
    assert!(v.preamble[0].contains("warning: Deactivate UseIOPrioritySizePolicy"));
    assert_eq!((v.lines.version, v.lines.vm), (2, Some(4)));
    assert_eq!(v.version_date, None);
    let v = version("java-version/zulu-openjdk-151__zulu-11.0.15.txt");
    assert_eq!(v.version_date.as_deref(), Some("2022-04-19"));
    // Vendor keywords without a stored sample: only the naming rule is checked.
    assert_eq!(
        jvm::java_version::vendor_of("OpenJDK Runtime Environment BiSheng (build x)", ""),
        JavaVendor::BiSheng
    );
    assert_eq!(
        jvm::java_version::vendor_of("OpenJDK Runtime Environment TencentKonaJDK (build x)", ""),
        JavaVendor::TencentKona
    );
    assert_eq!(
        jvm::java_version::vendor_of("Some Runtime (build 1)", "Some VM (build 1)"),
        JavaVendor::Other("Some Runtime".into())
    );
    assert_eq!(jvm::java_version::feature_of("8.0_372"), Some(8));
    assert_eq!(jvm::java_version::feature_of("21"), Some(21));
    assert_eq!(jvm::java_version::feature_of("x"), None);
}

#[test]
fn captured_jcmd_vm_version_flags_command_line() {
    let p = jvm::vm_version::parse_vm_version(&fixture("captured-jvm/jcmd-VM.version-jdk17.txt"))
        .unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let v = p.value;
    assert_eq!(v.pid, Some(24267));
    assert_eq!(v.vm_name, "OpenJDK 64-Bit Server VM");
    assert_eq!(v.vm_version, "17.0.15+6-Debian-1deb12u1");
    assert_eq!(v.vm_line, 2);
    assert_eq!(v.jdk_version.as_deref(), Some("17.0.15"));
    assert_eq!((v.feature, v.jdk_line), (Some(17), Some(3)));

    let p =
        jvm::vm_flags::parse_vm_flags(&fixture("captured-jvm/jcmd-VM.flags-jdk17.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let f = p.value;
    assert_eq!(f.pid, Some(24267));
    assert_eq!(f.flags.len(), 22);
    assert_eq!(f.number("MaxHeapSize"), Some(268_435_456));
    assert_eq!(f.number("InitialHeapSize"), Some(67_108_864));
    assert_eq!(f.number("CICompilerCount"), Some(2));
    assert_eq!(f.number("G1HeapRegionSize"), Some(1_048_576));
    assert_eq!(f.enabled("UseG1GC"), Some(true));
    assert_eq!(f.enabled("SegmentedCodeCache"), Some(true));
    assert_eq!(f.enabled("THPStackMitigation"), Some(false));
    assert_eq!(f.enabled("MaxHeapSize"), None);
    assert_eq!(f.flags["UseCompressedOops"].line, 2);

    let p = jvm::vm_command_line::parse_vm_command_line(&fixture(
        "captured-jvm/jcmd-VM.command_line-jdk17.txt",
    ))
    .unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.pid, Some(24267));
    assert_eq!(c.jvm_args, ["-Xmx256m", "-Xms64m", "-XX:+UseG1GC"]);
    assert_eq!(c.java_command.as_deref(), Some("Alloc"));
    assert_eq!(c.class_path.as_deref(), Some("/tmp/jvmcap"));
    assert_eq!(c.launcher_type.as_deref(), Some("SUN_STANDARD"));
    assert_eq!(c.entries.len(), 4);
    assert_eq!(c.entries[0].2, 3);
}

#[test]
fn captured_system_properties() {
    let p = jvm::vm_system_properties::parse_system_properties(&fixture(
        "captured-jvm/key-value/jcmd-VM.system_properties-jdk17.txt",
    ))
    .unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let s = p.value;
    assert_eq!(s.pid, Some(24267));
    assert_eq!(s.comment.as_deref(), Some("Mon Nov 30 02:56:11 UTC 2026"));
    assert_eq!(s.properties.len(), 45);
    assert_eq!(s.get("java.version"), Some("17.0.15"));
    assert_eq!(s.get("java.vm.vendor"), Some("Debian"));
    assert_eq!(s.get("path.separator"), Some(":"));
    assert_eq!(
        s.get("java.vendor.url"),
        Some("https://tracker.debian.org/openjdk-17")
    );
    assert_eq!(s.get("line.separator"), Some("\n"));
    assert_eq!(
        s.get("java.home"),
        Some("/usr/lib/jvm/java-17-openjdk-amd64")
    );
    assert_eq!(s.properties["java.specification.version"].1, 3);
    // Escapes in keys and `\u` sequences.
    let p = jvm::vm_system_properties::parse_system_properties("a\\=b=c\\u00e9\\ d\nx=\\u12\n")
        .unwrap();
    assert_eq!(p.value.get("a=b"), Some("cé d"));
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 2);
}

#[test]
fn damaged_inputs() {
    let text = fixture("captured-jvm/java-version-jdk17.txt");
    let p = jvm::java_version::parse_java_version(&format!("{text}garbage line\n")).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    // Cut after the runtime line: the VM line is missing.
    let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let p = jvm::java_version::parse_java_version(&cut).unwrap();
    assert_eq!(p.value.vm_line, None);
    assert_eq!(p.issues.len(), 1);
    assert!(jvm::java_version::parse_java_version("").is_err());
    assert!(jvm::java_version::parse_java_version("Error: could not find java\n").is_err());

    let text = fixture("captured-jvm/jcmd-VM.flags-jdk17.txt");
    let p = jvm::vm_flags::parse_vm_flags(&insert_line(&text, 2, "-XX:Foo bogus")).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 2]);
    assert_eq!(p.value.flags.len(), 22);
    let p =
        jvm::vm_flags::parse_vm_flags("-XX:Name=abc -XX:Big=99999999999999999999999\n").unwrap();
    assert_eq!(p.value.flags["Name"].value, FlagValue::Text("abc".into()));
    assert!(matches!(p.value.flags["Big"].value, FlagValue::Text(_)));
    assert!(jvm::vm_flags::parse_vm_flags("1234:\n").is_err());

    let text = fixture("captured-jvm/jcmd-VM.version-jdk17.txt");
    let p = jvm::vm_version::parse_vm_version(&insert_line(&text, 3, "garbage")).unwrap();
    assert_eq!(p.issues[0].line, 3);
    assert_eq!(p.value.jdk_line, Some(4));
    assert!(jvm::vm_version::parse_vm_version("24267:\n").is_err());

    let text = fixture("captured-jvm/jcmd-VM.command_line-jdk17.txt");
    let p = jvm::vm_command_line::parse_vm_command_line(&insert_line(&text, 4, "garbage")).unwrap();
    assert_eq!(p.issues[0].line, 4);
    assert_eq!(p.value.java_command.as_deref(), Some("Alloc"));
    assert!(jvm::vm_command_line::parse_vm_command_line("").is_err());
    assert!(jvm::vm_system_properties::parse_system_properties("#only a comment\n").is_err());
}

/// Every fixture file, `dir/name`, including one level of subdirectories (`dir/sub/name`).
fn all_fixtures() -> Vec<String> {
    fn walk(rel: &str, depth: usize, out: &mut Vec<String>) {
        for e in std::fs::read_dir(fixture_path(rel)).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let child = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if e.file_type().unwrap().is_dir() {
                if depth < 2 {
                    walk(&child, depth + 1, out);
                }
            } else if !rel.is_empty() {
                out.push(child);
            }
        }
    }
    let mut out = Vec::new();
    walk("", 0, &mut out);
    out.sort();
    out
}

type Sniffer = fn(&str) -> Sniff;
type Case = (&'static str, Sniffer, fn(&str) -> bool, usize);

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let sniffers: [Case; 5] = [
        (
            "java -version",
            jvm::java_version::sniff_java_version,
            |r| r.starts_with("java-version/") || r == "captured-jvm/java-version-jdk17.txt",
            9,
        ),
        (
            "VM.version",
            jvm::vm_version::sniff_vm_version,
            |r| r == "captured-jvm/jcmd-VM.version-jdk17.txt",
            1,
        ),
        (
            "VM.flags",
            jvm::vm_flags::sniff_vm_flags,
            |r| r == "captured-jvm/jcmd-VM.flags-jdk17.txt",
            1,
        ),
        (
            "VM.command_line",
            jvm::vm_command_line::sniff_vm_command_line,
            |r| r == "captured-jvm/jcmd-VM.command_line-jdk17.txt",
            1,
        ),
        (
            "VM.system_properties",
            jvm::vm_system_properties::sniff_system_properties,
            |r| r == "captured-jvm/key-value/jcmd-VM.system_properties-jdk17.txt",
            1,
        ),
    ];
    let mut failures = Vec::new();
    for (what, sniff, own, expected) in sniffers {
        let mut owned = 0;
        for rel in all_fixtures() {
            let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
                continue;
            };
            let want = if own(&rel) {
                owned += 1;
                Sniff::Yes
            } else {
                Sniff::No
            };
            for sample in [head(&text, common::SNIFF_HEAD_BYTES), text.as_str()] {
                let got = sniff(sample);
                if got != want {
                    failures.push(format!("{what}: {rel} ({} bytes): {got:?}", sample.len()));
                }
            }
        }
        assert_eq!(owned, expected, "{what}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    let mut rng = XorShift(0x0bad_cafe_1234_5678);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(jvm::java_version::parse_java_version(&text).is_err());
        assert!(jvm::vm_version::parse_vm_version(&text).is_err());
        assert!(jvm::vm_flags::parse_vm_flags(&text).is_err());
        let _ = jvm::vm_command_line::parse_vm_command_line(&text);
        let _ = jvm::vm_system_properties::parse_system_properties(&text);
        assert_eq!(jvm::java_version::sniff_java_version(&text), Sniff::No);
        assert_eq!(jvm::vm_version::sniff_vm_version(&text), Sniff::No);
        assert_eq!(jvm::vm_flags::sniff_vm_flags(&text), Sniff::No);
        assert_eq!(
            jvm::vm_command_line::sniff_vm_command_line(&text),
            Sniff::No
        );
        assert_eq!(
            jvm::vm_system_properties::sniff_system_properties(&text),
            Sniff::No
        );
    }
    for rel in [
        "captured-jvm/key-value/jcmd-VM.system_properties-jdk17.txt",
        "java-version/openj9-18952__semeru-11.0.21.txt",
    ] {
        let base = fixture(rel).into_bytes();
        for _ in 0..200 {
            let mut b = base.clone();
            for _ in 0..4 {
                let i = rng.below(b.len());
                b[i] = rng.next_u64() as u8;
            }
            let t = String::from_utf8_lossy(&b);
            let _ = jvm::java_version::parse_java_version(&t);
            let _ = jvm::vm_system_properties::parse_system_properties(&t);
            let _ = jvm::vm_command_line::parse_vm_command_line(&t);
        }
    }
    for t in [
        "\\",
        "a=\\",
        "a=\\u",
        "a=\\uzzzz",
        "=",
        "\\==é",
        "openjdk version \"",
    ] {
        let _ = jvm::vm_system_properties::parse_system_properties(t);
        let _ = jvm::java_version::parse_java_version(t);
    }
}

#[test]
fn a_text_flag_value_with_spaces_stays_one_value() {
    // jcmd prints ccstr values raw (JDK 17, zkServer.sh's OnOutOfMemoryError).
    let t = "14335:\n-XX:+HeapDumpOnOutOfMemoryError -XX:OnOutOfMemoryError=kill -9 %p -XX:MaxHeapSize=251658240 -XX:+UseParallelGC \n";
    let p = parsers::jvm::vm_flags::parse_vm_flags(t).expect("parses");
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(
        p.value.flags["OnOutOfMemoryError"].value,
        parsers::jvm::vm_flags::FlagValue::Text("kill -9 %p".into())
    );
    assert_eq!(p.value.number("MaxHeapSize"), Some(251_658_240));
    assert_eq!(p.value.enabled("UseParallelGC"), Some(true));
}
