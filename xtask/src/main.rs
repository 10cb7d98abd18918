//! `cargo xtask dist`: the portable release tarball of `rca`.
//!
//! In: the workspace, `cargo-zigbuild` and zig (`pip install ziglang`). Out:
//! `<target dir>/dist/rca-<version>-<arch>-linux.tar.gz` and its `.sha256` beside it. The
//! tarball holds one folder, `rca-<version>-<arch>-linux/`, with the release `rca` binary,
//! `collector.sh`, `README.md`, `LICENSE` when the workspace has one, the completion scripts of
//! bash, zsh and fish (`completions/`), the manual pages (`man/rca.1` and one per subcommand)
//! and `SHA256SUMS` over every other file (`sha256sum -c SHA256SUMS` inside the folder).
//!
//! The binary is built by `cargo zigbuild --profile dist --target <arch>-unknown-linux-gnu.2.17`:
//! zig links it against glibc 2.17's symbol versions, so it runs on any glibc from 2.17 (RHEL
//! and CentOS 7, SLES 12, Kylin and EulerOS on Kunpeng) on. The completion scripts and manual
//! pages come from `rca::cli`, the clap command the binary parses with, generated here rather
//! than by running the binary, so a tarball for another architecture is made the same way.

use clap::{Parser, Subcommand};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The glibc whose symbol versions the release binary may need at most.
const GLIBC: &str = "2.17";

/// Release tasks of the rca workspace.
#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    /// The task.
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build the release binary with cargo-zigbuild and write the release tarball to
    /// `<target dir>/dist/`.
    Dist {
        /// The target triple, with the glibc version zig links against as its suffix [default:
        /// this machine's architecture, `-unknown-linux-gnu.2.17`]. A `-musl` triple gives a
        /// static binary instead.
        #[arg(long, value_name = "TRIPLE")]
        target: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Dist { target } => dist(target.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A target triple taken apart: `x86_64-unknown-linux-gnu.2.17` is built as itself, its binary
/// lands in `x86_64-unknown-linux-gnu/` (cargo-zigbuild drops the glibc suffix there), and the
/// tarball is named for `x86_64`.
#[derive(Debug, PartialEq)]
struct Target {
    /// As given to `cargo zigbuild --target`.
    triple: String,
    /// The triple without the glibc suffix: the folder of the build under the target dir.
    rust_triple: String,
    /// The first component: `x86_64`, `aarch64`.
    arch: String,
}

impl Target {
    fn parse(triple: &str) -> Result<Target, String> {
        let rust_triple = triple.split_once('.').map_or(triple, |(t, _)| t);
        let parts: Vec<&str> = rust_triple.split('-').collect();
        let linux = matches!(parts.as_slice(), [_, _, "linux", "gnu" | "musl"]);
        if !linux || parts[0].is_empty() {
            return Err(format!(
                "{triple}: not a Linux target; expected ARCH-unknown-linux-gnu.{GLIBC} \
                 (or ARCH-unknown-linux-musl)"
            ));
        }
        Ok(Target {
            triple: triple.to_string(),
            rust_triple: rust_triple.to_string(),
            arch: parts[0].to_string(),
        })
    }

    /// This machine's architecture, linked against glibc [`GLIBC`].
    fn host() -> Target {
        let triple = format!("{}-unknown-linux-gnu.{GLIBC}", std::env::consts::ARCH);
        Target::parse(&triple).expect("the host's triple is a Linux one")
    }
}

/// One file of the tarball: its path under the top folder, its mode and its bytes.
struct Entry {
    path: String,
    mode: u32,
    bytes: Vec<u8>,
}

fn dist(target: Option<&str>) -> Result<(), String> {
    let target = match target {
        Some(t) => Target::parse(t)?,
        None => Target::host(),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is inside the workspace")
        .to_path_buf();
    let target_dir = target_dir(&root)?;
    let cmd = rca::cli::command();
    let version = cmd.get_version().unwrap_or("0.0.0").to_string();
    let name = format!("rca-{version}-{}-linux", target.arch);

    let binary = build(&root, &target_dir, &target)?;
    let mut entries = vec![
        Entry {
            path: "rca".into(),
            mode: 0o755,
            bytes: read(&binary)?,
        },
        Entry {
            path: "collector.sh".into(),
            mode: 0o755,
            bytes: read(&root.join("collector.sh"))?,
        },
        Entry {
            path: "README.md".into(),
            mode: 0o644,
            bytes: read(&root.join("README.md"))?,
        },
    ];
    if root.join("LICENSE").is_file() {
        entries.push(Entry {
            path: "LICENSE".into(),
            mode: 0o644,
            bytes: read(&root.join("LICENSE"))?,
        });
    }
    for (shell, file) in [
        (rca::cli::Shell::Bash, "rca.bash"),
        (rca::cli::Shell::Zsh, "_rca"),
        (rca::cli::Shell::Fish, "rca.fish"),
    ] {
        entries.push(Entry {
            path: format!("completions/{file}"),
            mode: 0o644,
            bytes: rca::cli::completions(shell),
        });
    }
    for page in rca::cli::man_pages() {
        entries.push(Entry {
            path: format!("man/{}", page.file_name),
            mode: 0o644,
            bytes: page.roff,
        });
    }
    let sums = sha256sums(&entries);
    entries.push(Entry {
        path: "SHA256SUMS".into(),
        mode: 0o644,
        bytes: sums.into_bytes(),
    });

    let out_dir = target_dir.join("dist");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let tarball = out_dir.join(format!("{name}.tar.gz"));
    write_tarball(&tarball, &name, &entries)?;
    let digest = hex(&Sha256::digest(read(&tarball)?));
    let file_name = format!("{name}.tar.gz");
    let sidecar = out_dir.join(format!("{file_name}.sha256"));
    std::fs::write(&sidecar, format!("{digest}  {file_name}\n"))
        .map_err(|e| format!("{}: {e}", sidecar.display()))?;
    println!("{}", tarball.display());
    Ok(())
}

/// The workspace's target directory, as cargo reports it (`CARGO_TARGET_DIR` and
/// `build.target-dir` included).
fn target_dir(root: &Path) -> Result<PathBuf, String> {
    let o = Command::new(cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    doc["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata names no target_directory".to_string())
}

/// Cargo as it ran this task, else the one on the `PATH`.
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// `cargo zigbuild --profile dist -p rca --bin rca --target TRIPLE` (the release profile without
/// debug information, see the workspace's Cargo.toml); the binary's path.
fn build(root: &Path, target_dir: &Path, target: &Target) -> Result<PathBuf, String> {
    let status = Command::new(cargo())
        .args([
            "zigbuild",
            "--profile",
            "dist",
            "-p",
            "rca",
            "--bin",
            "rca",
            "--target",
        ])
        .arg(&target.triple)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo zigbuild: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo zigbuild --target {} failed ({status}); it needs `cargo install --locked \
             cargo-zigbuild`, zig (`pip install ziglang`) and `rustup target add {}`",
            target.triple, target.rust_triple
        ));
    }
    let binary = target_dir
        .join(&target.rust_triple)
        .join("dist")
        .join("rca");
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!("the build left no {}", binary.display()))
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `SHA256SUMS` in the format of GNU `sha256sum` (`HEX  PATH`, two blanks: text mode), one line
/// per entry, paths relative to the top folder.
fn sha256sums(entries: &[Entry]) -> String {
    entries.iter().fold(String::new(), |mut s, e| {
        let _ = writeln!(s, "{}  {}", hex(&Sha256::digest(&e.bytes)), e.path);
        s
    })
}

/// The tarball: the top folder `name/`, its subfolders, then every entry, owned by root, dated
/// `SOURCE_DATE_EPOCH` when set (a reproducible build), else now. Written beside its final name
/// and renamed, so a stopped run leaves no half tarball under that name.
fn write_tarball(path: &Path, name: &str, entries: &[Entry]) -> Result<(), String> {
    let mtime = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    let partial = path.with_extension("gz.partial");
    let file =
        std::fs::File::create(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    let header = |size: u64, mode: u32, kind: tar::EntryType| {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(size);
        h.set_mode(mode);
        h.set_mtime(mtime);
        h.set_uid(0);
        h.set_gid(0);
        let _ = h.set_username("root");
        let _ = h.set_groupname("root");
        h
    };
    let io = |e: std::io::Error| format!("{}: {e}", partial.display());
    let mut dirs = vec![String::new()];
    for e in entries {
        if let Some((dir, _)) = e.path.rsplit_once('/') {
            if !dirs.iter().any(|d| d == dir) {
                dirs.push(dir.to_string());
            }
        }
    }
    for d in &dirs {
        let path = if d.is_empty() {
            format!("{name}/")
        } else {
            format!("{name}/{d}/")
        };
        let mut h = header(0, 0o755, tar::EntryType::Directory);
        tar.append_data(&mut h, &path, std::io::empty())
            .map_err(io)?;
    }
    for e in entries {
        let mut h = header(e.bytes.len() as u64, e.mode, tar::EntryType::Regular);
        tar.append_data(&mut h, format!("{name}/{}", e.path), e.bytes.as_slice())
            .map_err(io)?;
    }
    tar.into_inner()
        .and_then(|gz| gz.finish())
        .and_then(|f| f.sync_all())
        .map_err(io)?;
    std::fs::rename(&partial, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triple_gives_the_build_folder_and_the_architecture() {
        let t = Target::parse("x86_64-unknown-linux-gnu.2.17").unwrap();
        assert_eq!(t.rust_triple, "x86_64-unknown-linux-gnu");
        assert_eq!(t.arch, "x86_64");
        let t = Target::parse("aarch64-unknown-linux-gnu.2.17").unwrap();
        assert_eq!(t.triple, "aarch64-unknown-linux-gnu.2.17");
        assert_eq!(t.rust_triple, "aarch64-unknown-linux-gnu");
        assert_eq!(t.arch, "aarch64");
        let t = Target::parse("x86_64-unknown-linux-musl").unwrap();
        assert_eq!(t.rust_triple, "x86_64-unknown-linux-musl");
        for bad in [
            "x86_64-apple-darwin",
            "x86_64-pc-windows-gnu",
            "-unknown-linux-gnu",
            "linux",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Target::host().arch, std::env::consts::ARCH);
    }

    #[test]
    fn sha256sums_reads_as_gnu_sha256sum_writes_it() {
        let sums = sha256sums(&[Entry {
            path: "completions/_rca".into(),
            mode: 0o644,
            bytes: b"abc".to_vec(),
        }]);
        // SHA-256 of "abc", FIPS 180-2 appendix B.1.
        assert_eq!(
            sums,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  completions/_rca\n"
        );
    }
}
