//! Everything `rca` prints to the terminal, and the quiet catching of parser panics.
//!
//! Text from a bundle is hostile until shown otherwise, and it reaches the terminal in many
//! places: host names and paths in summaries, folder and file names in error messages, reasons
//! quoting entry names. A name holding `ESC [ 2 J` would clear the user's screen, an OSC 8
//! sequence would plant a hyperlink, a carriage return would overwrite the line with another,
//! and a right-to-left override (U+202E) would make `txt.exe` read as `exe.txt`. [`clean`] shows
//! every such character as a visible escape (`\x1b`, `\r`, `\u{202e}`), so the text stays
//! recognisable and inert: C0 and C1 controls (ESC among them, so no escape sequence survives),
//! DEL, and every invisible format character (Unicode category `Cf`: the bidirectional embeddings,
//! overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width characters
//! U+200B–U+200F, U+FEFF …) and the line and paragraph separators U+2028 and U+2029.
//!
//! [`out`] (standard output) and [`error`] (standard error) are the only ways the crate writes to
//! the terminal: both pass every line through [`clean`] (the crate denies the print macros, and
//! a test checks that no other module names `stdout` or `stderr`). A caller still cleans each
//! bundle value it puts into a multi-line text, so that a newline inside a name cannot forge a
//! line of its own; [`error`] takes one line and shows a newline inside it as `\n`.
//!
//! [`catch_quietly`] runs a parser so that a panic becomes a value, without the panic hook
//! printing its message (which may quote input text) to standard error. Panics elsewhere reach
//! the hook as usual; [`install_panic_hook`] (the binary calls it first thing) makes that hook
//! print them cleaned, as one `rca: internal error` line.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// True for the characters [`clean`] escapes: controls (C0, DEL, C1), invisible format
/// characters (category `Cf`, bidirectional controls among them) and the line and paragraph
/// separators.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c.general_category(),
            GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
}

fn escape(c: char, out: &mut String) {
    let _ = match c {
        '\t' => write!(out, "\\t"),
        '\n' => write!(out, "\\n"),
        '\r' => write!(out, "\\r"),
        c if c.is_ascii() => write!(out, "\\x{:02x}", c as u32),
        c => write!(out, "\\u{{{:x}}}", c as u32),
    };
}

fn escape_if(s: &str, unsafe_here: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&unsafe_here) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if unsafe_here(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` as one line safe to print: every [`is_unsafe`] character, newlines included, shown as a
/// visible escape (`\x1b`, `\t`, `\n`, `\r` for C0 controls and DEL; `\u{9b}`, `\u{202e}` for the
/// others). Text without such characters is returned as is.
pub fn clean(s: &str) -> Cow<'_, str> {
    escape_if(s, is_unsafe)
}

/// Like [`clean`], keeping the newlines that separate lines.
pub fn clean_lines(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| c != '\n' && is_unsafe(c))
}

/// A path for a message: its text, bytes that are not UTF-8 (a Linux file name may hold any)
/// shown as U+FFFD, as the report and the JSON documents show them, then [`clean`]ed.
pub fn path(p: &std::path::Path) -> String {
    clean(&p.to_string_lossy()).into_owned()
}

/// Writes `text` to standard output, each line [`clean_lines`]ed. A closed pipe (`rca analyze …
/// | head`) ends the output quietly instead of panicking: the files (`-o`, `--json`) were
/// already written and the exit status stays the analysis's.
pub fn out(text: &str) {
    #[allow(clippy::disallowed_methods)]
    let mut o = std::io::stdout().lock();
    let _ = o
        .write_all(clean_lines(text).as_bytes())
        .and_then(|()| o.flush());
}

/// Writes `bytes` to standard output as they are, for text rca generates from its own
/// definitions and nothing else: the shell completion scripts of `rca completions`, made by
/// `clap_complete` from the clap command in `cli` (option names and help texts written in rca's
/// source). No bundle byte can reach it, so there is nothing hostile to escape, and a script must
/// reach the shell byte for byte: [`out`] would turn any control character `clap_complete` ever
/// writes (none today) into a visible escape and break the script. A closed pipe ends the output
/// quietly, as with [`out`].
pub fn out_generated(bytes: &[u8]) {
    #[allow(clippy::disallowed_methods)]
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(bytes).and_then(|()| o.flush());
}

/// Writes `rca: <message>` to standard error as one line, the message [`clean`]ed.
pub fn error(message: &str) {
    to_stderr(&format!("rca: {}\n", clean(message)));
}

/// Writes text made of several lines to standard error, each line [`clean_lines`]ed (clap's
/// usage errors).
pub fn error_text(text: &str) {
    to_stderr(&clean_lines(text));
}

/// Whether standard error is a terminal (progress lines are written only then).
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    #[allow(clippy::disallowed_methods)]
    std::io::stderr().is_terminal()
}

fn to_stderr(text: &str) {
    #[allow(clippy::disallowed_methods)]
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
}

thread_local! {
    /// Set while [`catch_quietly`] runs its function on this thread.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quietly caught panic of this thread happened (a source location of rca).
    static CAUGHT_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();
static SANITISE: AtomicBool = AtomicBool::new(false);

/// A panic caught by [`catch_quietly`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caught {
    /// Where in rca's source it happened (`parsers/src/…/iostat.rs:88:17`), when known.
    pub location: Option<String>,
    /// The panic message, [`clean`]ed and cut to [`CAUGHT_MESSAGE_CHARS`] characters: it may
    /// quote input text.
    pub message: String,
}

/// Longest panic message kept in a [`Caught`], characters.
pub const CAUGHT_MESSAGE_CHARS: usize = 200;

/// Runs `f`, turning a panic into a [`Caught`] without printing anything: the panic hook stays
/// silent for panics on this thread while `f` runs, and behaves as before for every other panic.
pub fn catch_quietly<R>(f: impl FnOnce() -> R) -> Result<R, Caught> {
    install_layer();
    let was = QUIET.with(|q| q.replace(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r.map_err(|payload| {
        let text = payload_text(payload.as_ref());
        let mut message: String = text.chars().take(CAUGHT_MESSAGE_CHARS).collect();
        if text.chars().count() > CAUGHT_MESSAGE_CHARS {
            message.push('…');
        }
        Caught {
            location: CAUGHT_AT.with(|c| c.borrow_mut().take()),
            message: clean(&message).into_owned(),
        }
    })
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// Makes every panic outside [`catch_quietly`] print as one cleaned line, `rca: internal error
/// (please report it): thread 'main' panicked at src/…: <message>`, with the backtrace when
/// `RUST_BACKTRACE` asks for one. The binary calls it before anything else; without it (tests,
/// other users of the library) such panics print as Rust prints them.
pub fn install_panic_hook() {
    SANITISE.store(true, Ordering::Relaxed);
    install_layer();
}

/// Wraps the current panic hook once: quiet on a thread inside [`catch_quietly`], cleaned when
/// [`install_panic_hook`] asked for it, the previous hook otherwise.
fn install_layer() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let quiet = QUIET.try_with(Cell::get).unwrap_or(false);
            if quiet {
                let at = info.location().map(|l| l.to_string());
                let _ = CAUGHT_AT.try_with(|c| *c.borrow_mut() = at);
            } else if SANITISE.load(Ordering::Relaxed) {
                let thread = std::thread::current();
                let mut text = format!(
                    "internal error (please report it): thread '{}' panicked at {}: {}",
                    thread.name().unwrap_or("<unnamed>"),
                    info.location()
                        .map(|l| l.to_string())
                        .unwrap_or_else(|| "an unknown place".into()),
                    payload_text(info.payload())
                );
                let trace = std::backtrace::Backtrace::capture();
                if trace.status() == std::backtrace::BacktraceStatus::Captured {
                    error(&text);
                    text = format!("{trace}");
                    error_text(&text);
                } else {
                    error(&text);
                }
            } else {
                previous(info)
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_controls_are_shown_escaped() {
        assert_eq!(
            clean("h\u{1b}]0;PWNED\u{7}\u{1b}[2J\nx\ty\r\u{7f}"),
            "h\\x1b]0;PWNED\\x07\\x1b[2J\\nx\\ty\\r\\x7f"
        );
        // C1: the single-byte CSI and OSC, and NEL.
        assert_eq!(
            clean("a\u{9b}2Jb\u{9d}c\u{85}"),
            "a\\u{9b}2Jb\\u{9d}c\\u{85}"
        );
        assert_eq!(clean_lines("one\u{1b}\ntwo\n"), "one\\x1b\ntwo\n");
    }

    #[test]
    fn bidi_and_invisible_format_characters_are_shown_escaped() {
        for c in ('\u{202a}'..='\u{202e}')
            .chain('\u{2066}'..='\u{2069}')
            .chain('\u{200b}'..='\u{200f}')
            .chain([
                '\u{2028}',
                '\u{2029}',
                '\u{feff}',
                '\u{ad}',
                '\u{61c}',
                '\u{e0001}',
            ])
        {
            assert!(is_unsafe(c), "U+{:04X}", c as u32);
            let shown = clean(&format!("a{c}b")).into_owned();
            assert_eq!(shown, format!("a\\u{{{:x}}}b", c as u32));
        }
        // Names a person reads are left alone.
        for s in ["node-3.example", "Zürich–01", "主机", "שרת", "sdb1 · 5 %"] {
            assert!(matches!(clean(s), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn a_path_that_is_not_utf8_is_shown_with_replacement_characters() {
        use std::os::unix::ffi::OsStrExt;
        let p = std::path::Path::new(std::ffi::OsStr::from_bytes(b"/b/x\xff\x1b[2J"));
        assert_eq!(path(p), "/b/x\u{fffd}\\x1b[2J");
    }

    /// Runs the test `name` of this binary in a child process with `RCA_CONSOLE_CHILD` set,
    /// its output not captured by the test harness; returns its stderr.
    fn child_stderr(name: &str) -> Vec<u8> {
        let o = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name, "--nocapture", "--test-threads=1"])
            .env("RCA_CONSOLE_CHILD", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stderr
    }

    fn in_child() -> bool {
        std::env::var_os("RCA_CONSOLE_CHILD").is_some()
    }

    #[test]
    fn quiet_child() {
        if !in_child() {
            return;
        }
        assert!(catch_quietly(|| panic!("QUIET-MARKER \u{1b}[2J")).is_err());
        // A panic outside the guard, on another thread, prints as Rust prints it.
        assert!(std::thread::spawn(|| panic!("LOUD-MARKER")).join().is_err());
    }

    #[test]
    fn a_caught_panic_prints_nothing_and_others_print_as_before() {
        let stderr =
            String::from_utf8_lossy(&child_stderr("console::tests::quiet_child")).into_owned();
        assert!(!stderr.contains("QUIET-MARKER"), "{stderr}");
        assert!(
            stderr.contains("panicked at") && stderr.contains("LOUD-MARKER"),
            "{stderr}"
        );
    }

    #[test]
    fn sanitising_child() {
        if !in_child() {
            return;
        }
        install_panic_hook();
        assert!(std::thread::Builder::new()
            .name("worker".into())
            .spawn(|| panic!("input \u{1b}]0;PWNED\u{7}\u{202e}x"))
            .unwrap()
            .join()
            .is_err());
        assert!(catch_quietly(|| panic!("QUIET-MARKER")).is_err());
    }

    #[test]
    fn with_the_binary_hook_other_panics_print_one_clean_line() {
        let stderr = child_stderr("console::tests::sanitising_child");
        assert!(!stderr.contains(&0x1b));
        let stderr = String::from_utf8_lossy(&stderr);
        let line = stderr
            .lines()
            .find(|l| l.starts_with("rca: internal error"))
            .unwrap_or_else(|| panic!("{stderr}"));
        assert!(
            line.starts_with(
                "rca: internal error (please report it): thread 'worker' panicked at "
            ) && line.ends_with(": input \\x1b]0;PWNED\\x07\\u{202e}x"),
            "{line}"
        );
        assert!(!stderr.contains("QUIET-MARKER"), "{stderr}");
    }

    #[test]
    fn a_caught_panic_says_where_without_printing() {
        let r = catch_quietly(|| {
            let v: Vec<u8> = Vec::new();
            let i = v.len() + 3;
            v[i]
        });
        let c = r.unwrap_err();
        assert!(c.message.contains("index out of bounds"), "{c:?}");
        assert!(
            c.location.as_deref().unwrap().contains("console.rs"),
            "{c:?}"
        );
        assert_eq!(catch_quietly(|| 7), Ok(7));
        let long = catch_quietly(|| panic!("{}\u{1b}[2J", "x".repeat(500))).unwrap_err();
        assert_eq!(long.message.chars().count(), CAUGHT_MESSAGE_CHARS + 1);
        let esc = catch_quietly(|| panic!("bad line \u{1b}[2J")).unwrap_err();
        assert_eq!(esc.message, "bad line \\x1b[2J");
    }
}
