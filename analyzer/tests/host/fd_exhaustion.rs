//! Descriptor exhaustion for real: a Python process under `ulimit -n 256` opens loopback
//! connections until `socket()` fails with EMFILE, `collector.sh --pid` collects it, and `rca
//! analyze` must name it first (`proc.fd-exhaustion`, critical) with the counts it cited.
//!
//! Needs `python3` and `sh`; without them the test is skipped with one line, unless
//! `RCA_HOST_TESTS=1` (CI), where it fails.
//! Traffic stays on 127.0.0.1; the process exits by itself after 120 s and is killed when the
//! test ends.

use super::{analyze, repo, Needs, Reaped};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Opens connection pairs to its own loopback listener until EMFILE, then holds them.
const FDHOG: &str = r#"
import errno, socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(128)
port = srv.getsockname()[1]
socks = []
while True:
    try:
        c = socket.create_connection(("127.0.0.1", port))
        socks.append(c)
        a, _ = srv.accept()
        socks.append(a)
    except OSError as e:
        if e.errno != errno.EMFILE:
            raise
        break
print("READY", len(socks), flush=True)
time.sleep(120)
"#;

#[test]
fn a_process_at_its_descriptor_limit_is_named_first() {
    if !Needs::new("fd_exhaustion")
        .commands("python3", &["python3"])
        .met()
    {
        return;
    }
    let _machine = crate::exclusive();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 256 && exec python3 -c \"$0\"")
        .arg(FDHOG)
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let stdout = child.stdout.take().expect("piped");
    let pid = child.id();
    let child = Reaped(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    assert!(line.starts_with("READY"), "{line:?}");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args(["--duration", "2", "--interval", "1", "--no-perf", "--pid"])
        .arg(pid.to_string())
        .arg("--output")
        .arg(dir.path())
        .output()
        .expect("sh runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tarball = String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    drop(child);
    let (code, doc, stdout) = analyze(std::path::Path::new(&tarball));
    assert_eq!(code, Some(1), "{stdout}");
    let top = &doc["findings"][0];
    assert_eq!(
        top["rule_id"], "proc.fd-exhaustion",
        "{:#}",
        doc["findings"]
    );
    assert_eq!(top["severity"], "critical");
    assert_eq!(
        top["title"],
        format!("PID {pid} (python3) at its open-file limit: 256 descriptors open, soft limit 256")
    );
    let cited: Vec<String> = top["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["excerpt"].as_array().unwrap().iter())
        .map(|x| x["text"].as_str().unwrap().to_string())
        .collect();
    assert!(cited.iter().any(|t| t == "256"), "{cited:?}");
    assert!(
        cited.iter().any(|t| t.starts_with("Max open files")),
        "{cited:?}"
    );
}
