//! `rca` on a real terminal: each command runs in a tmux pane (a pseudo-terminal, as a person's
//! shell), the screen is read back with `tmux capture-pane -e -p` (which keeps the colours as
//! SGR sequences) and every byte written to the pane is kept with `tmux pipe-pane` (so a
//! progress bar that was drawn and then cleared is still seen).
//!
//! Checked: the summary of `rca analyze` on a sample with findings is coloured on the terminal;
//! not with `NO_COLOR=1`, not with `--color never`, not into a pipe; `--color always` colours a
//! pipe too. The progress bar appears on the terminal for a bundle that takes seconds to
//! analyze (one made by `bench/gen-mixed-bundle.py`) and is cleared when done, and never into a
//! pipe.
//!
//! Needs tmux (Debian package `tmux`) and Python 3 (the generator); without them the test is
//! skipped with one line, unless `RCA_HOST_TESTS=1` (set by CI, which installs them), where it
//! fails.

use super::{repo, Needs};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The sample with critical and warning findings (case S3).
const SAMPLE: &str = "sample-bundles/s3-zookeeper-watches/rca-vm-20261130T042816Z.tar.gz";

/// How long one command may take in its pane: generous, for a loaded machine.
const DEADLINE: Duration = Duration::from_secs(300);

/// A tmux server of the test's own (its socket in a temporary folder, no configuration read).
struct Tmux {
    dir: tempfile::TempDir,
}

/// What one command left: the screen with its colours, every byte written to the pane, and the
/// exit status the pane's shell printed.
struct Pane {
    screen: String,
    written: String,
    exit: Option<i32>,
}

impl Tmux {
    fn new() -> Tmux {
        Tmux {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("tmux.sock")
    }

    fn tmux(&self, args: &[&str]) -> String {
        let o = Command::new("tmux")
            .arg("-S")
            .arg(self.socket())
            .args(["-f", "/dev/null"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Runs the shell command `cmd` in a new pane 200 columns wide and returns what it left.
    /// The pane waits for the test to record its output before it starts `cmd`.
    fn run(&self, name: &str, cmd: &str) -> Pane {
        let log = self.dir.path().join(format!("{name}.log"));
        let sock = self.socket().display().to_string();
        let script =
            format!("tmux -S '{sock}' wait-for go-{name}; {cmd}; echo rca-exit:$?; exec sleep 600");
        self.tmux(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "200",
            "-y",
            "60",
            &script,
        ]);
        self.tmux(&[
            "pipe-pane",
            "-o",
            "-t",
            name,
            &format!("cat > '{}'", log.display()),
        ]);
        self.tmux(&["wait-for", "-S", &format!("go-{name}")]);
        let start = Instant::now();
        let plain = loop {
            let p = self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", name]);
            if p.contains("rca-exit:") {
                break p;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "`{cmd}` did not finish within {DEADLINE:?}:\n{p}"
            );
            std::thread::sleep(Duration::from_millis(200));
        };
        let screen = self.tmux(&["capture-pane", "-e", "-p", "-J", "-S", "-", "-t", name]);
        self.tmux(&["kill-session", "-t", name]);
        let exit = plain
            .lines()
            .find_map(|l| l.trim().strip_prefix("rca-exit:"))
            .and_then(|c| c.trim().parse().ok());
        // The pipe's `cat` may still be writing the last bytes when the pane closes.
        std::thread::sleep(Duration::from_millis(300));
        let written =
            String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
        Pane {
            screen,
            written,
            exit,
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(self.socket())
            .arg("kill-server")
            .output();
    }
}

/// The foreground colours (SGR 30–37, 90–97, 38;…) set in `text`, as their parameter lists.
fn colours(text: &str) -> Vec<String> {
    let sgr = Regex::new(r"\x1b\[([0-9;:]*)m").unwrap();
    sgr.captures_iter(text)
        .map(|c| c[1].to_string())
        .filter(|p| {
            p.split([';', ':'])
                .any(|n| matches!(n.parse::<u32>(), Ok(30..=38 | 90..=97)))
        })
        .collect()
}

/// Whether an SGR sequence in `text` sets the foreground to ANSI colour `n` (31 red, 33 yellow).
fn has_colour(text: &str, n: u32) -> bool {
    colours(text)
        .iter()
        .any(|p| p.split([';', ':']).any(|x| x == n.to_string()))
}

fn quoted(p: &Path) -> String {
    format!("'{}'", p.display())
}

#[test]
fn colours_and_the_progress_bar_on_a_real_terminal() {
    if !Needs::new("terminal")
        .commands("tmux", &["tmux"])
        .commands("python3", &["python3"])
        .met()
    {
        return;
    }
    let rca = quoted(Path::new(env!("CARGO_BIN_EXE_rca")));
    let sample = quoted(&repo().join(SAMPLE));
    let t = Tmux::new();

    // On the terminal: critical in red, warning in yellow, the text itself intact.
    let tty = t.run("tty", &format!("env -u NO_COLOR {rca} analyze {sample}"));
    assert_eq!(tty.exit, Some(1), "{}", tty.screen);
    assert!(
        has_colour(&tty.screen, 31) && has_colour(&tty.screen, 33),
        "no red and yellow on the terminal: {:?}",
        tty.screen
    );
    assert!(
        tty.screen.contains("[zk.default-watch-manager]"),
        "{}",
        tty.screen
    );

    for (name, cmd) in [
        ("no_color", format!("NO_COLOR=1 {rca} analyze {sample}")),
        (
            "never",
            format!("env -u NO_COLOR {rca} --color never analyze {sample}"),
        ),
        (
            "pipe",
            format!("env -u NO_COLOR {rca} analyze {sample} 2>&1 | cat"),
        ),
    ] {
        let p = t.run(name, &cmd);
        assert!(
            p.screen.contains("[zk.default-watch-manager]"),
            "{name}: {}",
            p.screen
        );
        assert!(
            colours(&p.screen).is_empty(),
            "{name}: coloured: {:?}",
            p.screen
        );
    }

    // `always` beats a pipe and NO_COLOR.
    let always = t.run(
        "always",
        &format!("NO_COLOR=1 {rca} analyze --color always {sample} | cat"),
    );
    assert!(
        has_colour(&always.screen, 31) && has_colour(&always.screen, 33),
        "--color always into a pipe: {:?}",
        always.screen
    );

    // The progress bar: a bundle that takes seconds to analyze (32 MB of text, about 3 s of CPU
    // in a debug build, far past the bar's one-second delay).
    let big = t.dir.path().join("mixed.tar.gz");
    let o = Command::new("python3")
        .arg(repo().join("bench/gen-mixed-bundle.py"))
        .arg(&big)
        .args(["--size-mb", "32", "--format", "tar.gz", "--seed", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let big = quoted(&big);
    let bar = t.run("bar", &format!("{rca} analyze -q {big}"));
    assert!(
        bar.written.contains("analyze: ") && bar.written.contains(" entries, "),
        "no progress bar was drawn: {:?}",
        bar.written
    );
    // Cleared when done: not on the final screen.
    assert!(!bar.screen.contains(" entries, "), "{}", bar.screen);
    let piped = t.run("bar_pipe", &format!("{rca} analyze -q {big} 2>&1 | cat"));
    assert!(piped.written.contains("rca-exit:"), "{:?}", piped.written);
    assert!(
        !piped.written.contains(" entries, ") && !piped.written.contains("analyze: "),
        "a progress bar into a pipe: {:?}",
        piped.written
    );
}
