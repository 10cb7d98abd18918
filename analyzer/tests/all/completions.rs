//! `rca completions SHELL` through the binary: the script it prints is `rca::cli::completions`'s
//! byte for byte, an unknown shell is a usage error, and bash, given the script, completes
//! subcommands, options and a subcommand's values as a user typing TAB would see them.

use rca::cli::Shell;
use std::process::Command;

fn rca(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_binary_prints_each_script_as_generated() {
    for (name, shell) in [
        ("bash", Shell::Bash),
        ("zsh", Shell::Zsh),
        ("fish", Shell::Fish),
    ] {
        let o = rca(&["completions", name]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.stdout, rca::cli::completions(shell), "{name}");
    }
    let o = rca(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid value 'tcsh'"));
}

/// Candidates bash offers for the words typed so far (the last one being completed), from the
/// script `rca completions bash` prints, sourced into a fresh bash.
fn bash_candidates(script: &str, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let driver = format!(
        "{script}\ncomplete -p rca >/dev/null || exit 9\n\
         COMP_WORDS=({words}); COMP_CWORD={cword}\n\
         _rca rca '{cur}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = quoted.join(" "),
        cur = words[cword],
    );
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &driver])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_subcommands_options_and_values() {
    let o = rca(&["completions", "bash"]);
    let script = String::from_utf8(o.stdout).unwrap();
    let first = bash_candidates(&script, &["rca", ""]);
    for sub in ["analyze", "diff", "fleet", "redact", "completions"] {
        assert!(first.iter().any(|c| c == sub), "{sub} in {first:?}");
    }
    assert_eq!(bash_candidates(&script, &["rca", "an"]), ["analyze"]);
    assert_eq!(
        bash_candidates(&script, &["rca", "analyze", "--max-e"]),
        ["--max-entry-size", "--max-entries"]
    );
    let shells = bash_candidates(&script, &["rca", "completions", ""]);
    for s in ["bash", "zsh", "fish"] {
        assert!(shells.iter().any(|c| c == s), "{s} in {shells:?}");
    }
}
