//! A full accept queue for real: a Python server listens with a backlog of 1 on 127.0.0.1 and
//! never accepts while 40 clients connect; `collector.sh` runs meanwhile, and `rca analyze` must
//! report the listener's full queue and the overflows counted during the window
//! (`net.listen-overflow`).
//!
//! Needs `python3`, `ss` (iproute2) and `netstat` (net-tools); without them the test is skipped
//! with one line, unless `RCA_HOST_TESTS=1` (CI), where it fails. Traffic stays on 127.0.0.1; the process exits by itself after 60 s
//! and is killed when the test ends.

use super::{analyze, repo, Needs, Reaped};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Listens with backlog 1 and never accepts; 40 non-blocking clients connect.
const LQFULL: &str = r#"
import socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]
clients = []
for _ in range(40):
    c = socket.socket()
    c.setblocking(False)
    c.connect_ex(("127.0.0.1", port))
    clients.append(c)
print("READY", port, flush=True)
time.sleep(60)
"#;

#[test]
fn a_listener_that_never_accepts_overflows_its_queue() {
    let ready = Needs::new("listen_overflow")
        .commands("python3", &["python3"])
        .commands("iproute2", &["ss"])
        .commands("net-tools", &["netstat"])
        .met();
    if !ready {
        return;
    }
    let _machine = crate::exclusive();
    let dir = tempfile::tempdir().unwrap();
    // The collector first, so that the clients' SYN retransmissions overflow the queue between
    // its start and end snapshots.
    // Not reaped on a panic: it stops by itself after its 6 s window.
    let collector = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args([
            "--duration",
            "6",
            "--interval",
            "1",
            "--no-perf",
            "--output",
        ])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(LQFULL)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let stdout = child.stdout.take().expect("piped");
    let server = Reaped(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let port: u16 = line
        .strip_prefix("READY ")
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line:?}"));
    let o = collector.wait_with_output().unwrap();
    assert!(o.status.success());
    drop(server);
    let tarball = String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    let (code, doc, stdout) = analyze(std::path::Path::new(&tarball));
    assert_eq!(code, Some(1), "{stdout}");
    let ours: Vec<&serde_json::Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "net.listen-overflow")
        .collect();
    let full = format!("Accept queue of 127.0.0.1:{port} (python3) full: ");
    assert!(
        ours.iter()
            .any(|f| f["title"].as_str().unwrap().starts_with(&full)),
        "{ours:#?}"
    );
    assert!(
        ours.iter().any(|f| f["severity"] == "warning"
            && f["title"]
                .as_str()
                .unwrap()
                .contains(" listen-queue overflows during the ")),
        "{ours:#?}"
    );
}
