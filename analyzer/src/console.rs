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
//! Colour is added here, after cleaning: a [`Styled`] text is a list of spans each with a
//! [`Tone`] (a severity, or a quieter or stronger text); [`out_styled`] cleans every span, then
//! wraps it in the tone's SGR sequence (rendered by `anstyle`) when [`colour`] says so. Bundle
//! text can therefore never carry a colour code of its own. Whether to colour is decided once,
//! by [`set_colour`], from `--color` ([`ColorChoice`]), `NO_COLOR` and whether standard output is
//! a terminal ([`colour_wanted`]).
//!
//! [`progress`] shows a progress bar (indicatif) on standard error while bundles are read: only
//! when standard error is a terminal, only once the work has taken longer than
//! [`PROGRESS_DELAY`], and cleared when done. It shows the counts of [`READ`], which the bundle
//! reader adds to as it delivers entries; lines written meanwhile suspend the bar.
//!
//! [`catch_quietly`] runs a parser so that a panic becomes a value, without the panic hook
//! printing its message (which may quote input text) to standard error. Panics elsewhere reach
//! the hook as usual; [`install_panic_hook`] (the binary calls it first thing) makes that hook
//! print them cleaned, as one `rca: internal error` line.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ffi::OsStr;
use std::fmt::{self, Write as _};
use std::io::{IsTerminal, Write as _};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Once};
use std::time::Duration;
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
    to_stdout(&clean_lines(text));
}

fn to_stdout(text: &str) {
    suspending_progress(|| {
        #[allow(clippy::disallowed_methods)]
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(text.as_bytes()).and_then(|()| o.flush());
    });
}

/// Writes `text` to standard output like [`out`], each span [`clean_lines`]ed and then, when
/// [`colour`] is on, wrapped in its tone's colour.
pub fn out_styled(text: &Styled) {
    to_stdout(&text.render(colour()));
}

/// `--color`: when the terminal output is coloured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal, `NO_COLOR` is unset or empty and `TERM` is not
    /// `dumb`.
    #[default]
    Auto,
    /// Always, also into a pipe or a file, whatever `NO_COLOR` says (as ripgrep does).
    Always,
    /// Never.
    Never,
}

/// Whether to colour: `always` and `never` decide alone; `auto` colours a terminal
/// (`is_terminal`) unless `NO_COLOR` (`no_color`) is set to a non-empty value (no-color.org) or
/// `TERM` (`term`) is `dumb`.
pub fn colour_wanted(
    choice: ColorChoice,
    no_color: Option<&OsStr>,
    term: Option<&OsStr>,
    is_terminal: bool,
) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            is_terminal && no_color.is_none_or(OsStr::is_empty) && term.is_none_or(|t| t != "dumb")
        }
    }
}

static COLOUR: AtomicBool = AtomicBool::new(false);

/// Decides once whether [`out_styled`] colours, from `choice`, the environment (`NO_COLOR`,
/// `TERM`) and whether standard output is a terminal. Until it is called nothing is coloured.
pub fn set_colour(choice: ColorChoice) {
    #[allow(clippy::disallowed_methods)]
    let tty = std::io::stdout().is_terminal();
    let on = colour_wanted(
        choice,
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
        tty,
    );
    COLOUR.store(on, Ordering::Relaxed);
}

/// Whether [`out_styled`] colours (see [`set_colour`]).
pub fn colour() -> bool {
    COLOUR.load(Ordering::Relaxed)
}

/// Columns to wrap text for standard output to: the terminal's width, at most 100 (lines longer
/// than that read poorly); 100 when standard output is not a terminal.
pub fn text_width() -> usize {
    #[allow(clippy::disallowed_methods)]
    let tty = std::io::stdout().is_terminal();
    if tty {
        textwrap::termwidth().min(100)
    } else {
        100
    }
}

/// What a span of [`Styled`] text means, which gives its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary text: no colour.
    Plain,
    /// Critical severity, an error, a bundle that could not be analyzed: red, bold.
    Critical,
    /// Warning severity, a difference or a host above the noise: yellow.
    Warning,
    /// Information: cyan.
    Info,
    /// Nothing wrong: green.
    Ok,
    /// Secondary text (rules not evaluated, evidence locations, noise): dimmed.
    Dim,
    /// A heading: bold.
    Strong,
}

impl Tone {
    /// The tone of a severity label (`critical`, `warning`, `info`), any case; plain otherwise.
    pub fn of_severity(label: &str) -> Tone {
        match label.to_ascii_lowercase().as_str() {
            "critical" => Tone::Critical,
            "warning" => Tone::Warning,
            "info" => Tone::Info,
            _ => Tone::Plain,
        }
    }

    fn style(self) -> anstyle::Style {
        use anstyle::{AnsiColor, Effects, Style};
        match self {
            Tone::Plain => Style::new(),
            Tone::Critical => AnsiColor::Red.on_default().effects(Effects::BOLD),
            Tone::Warning => AnsiColor::Yellow.on_default(),
            Tone::Info => AnsiColor::Cyan.on_default(),
            Tone::Ok => AnsiColor::Green.on_default(),
            Tone::Dim => Style::new().effects(Effects::DIMMED),
            Tone::Strong => Style::new().effects(Effects::BOLD),
        }
    }
}

/// Text for the terminal made of spans, each with its [`Tone`]. `write!` into it adds plain
/// text; [`Styled::paint`] adds a toned span. [`Display`](fmt::Display) gives the plain text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Styled {
    spans: Vec<(Tone, String)>,
}

impl Styled {
    /// Empty text.
    pub fn new() -> Styled {
        Styled::default()
    }

    /// Appends `text` in `tone`.
    pub fn paint(&mut self, tone: Tone, text: &str) -> &mut Styled {
        match self.spans.last_mut() {
            Some((t, s)) if *t == tone => s.push_str(text),
            _ => self.spans.push((tone, text.to_string())),
        }
        self
    }

    /// The spans, in order.
    pub fn spans(&self) -> &[(Tone, String)] {
        &self.spans
    }

    /// The text to write: every span [`clean_lines`]ed, then, with `colour`, each toned span
    /// wrapped line by line in its SGR sequence and a reset (so no colour runs past a newline).
    pub fn render(&self, colour: bool) -> String {
        let mut out = String::new();
        for (tone, text) in &self.spans {
            let text = clean_lines(text);
            let style = tone.style();
            if !colour || *tone == Tone::Plain {
                out.push_str(&text);
                continue;
            }
            for (i, line) in text.split('\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                if !line.is_empty() {
                    let _ = write!(out, "{}{line}{}", style.render(), style.render_reset());
                }
            }
        }
        out
    }
}

impl fmt::Write for Styled {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.paint(Tone::Plain, s);
        Ok(())
    }
}

impl fmt::Display for Styled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spans.iter().try_for_each(|(_, s)| f.write_str(s))
    }
}

/// Counts of what the bundle readers of this process have delivered, added to as each entry is
/// delivered (one atomic addition per entry, never per line); [`progress`] shows them.
pub struct ReadCounts {
    entries: AtomicU64,
    bytes: AtomicU64,
}

/// The counts of every bundle read in this process.
pub static READ: ReadCounts = ReadCounts {
    entries: AtomicU64::new(0),
    bytes: AtomicU64::new(0),
};

impl ReadCounts {
    /// One entry of `bytes` uncompressed bytes delivered.
    pub fn entry(&self, bytes: u64) {
        self.entries.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Entries and uncompressed bytes delivered so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.entries.load(Ordering::Relaxed),
            self.bytes.load(Ordering::Relaxed),
        )
    }
}

/// How long the work runs before [`progress`] shows its bar: quick runs never show one.
pub const PROGRESS_DELAY: Duration = Duration::from_secs(1);

/// The bar being drawn, if any: lines written meanwhile suspend it.
static BAR: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);

fn suspending_progress<R>(write: impl FnOnce() -> R) -> R {
    let bar = BAR.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match bar {
        Some(b) => b.suspend(write),
        None => write(),
    }
}

/// The progress bar of one command, from [`progress`]: dropping it stops the bar and clears it.
pub struct Progress {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Starts the progress bar of `what` (`analyze`): a spinner on standard error with the entries
/// and bytes read since ([`READ`]) and the time taken, redrawn ten times a second. It is created
/// hidden and drawn only after [`PROGRESS_DELAY`], and only when standard error is a terminal;
/// otherwise nothing is ever written.
pub fn progress(what: &str) -> Progress {
    let stop = Arc::new((Mutex::new(false), Condvar::new()));
    let thread = stderr_is_terminal().then(|| {
        let stop = stop.clone();
        let what = what.to_string();
        // The counts so far belong to earlier work: the bar shows what is read from now on.
        let base = READ.get();
        std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || draw_progress(&what, base, &stop))
            .ok()
    });
    Progress {
        stop,
        thread: thread.flatten(),
    }
}

/// Waits on `stop` up to `d`; true once it is set.
fn stopped_within(stop: &(Mutex<bool>, Condvar), d: Duration) -> bool {
    let (lock, cv) = stop;
    let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
    let (guard, _) = cv
        .wait_timeout_while(guard, d, |s| !*s)
        .unwrap_or_else(|e| e.into_inner());
    *guard
}

fn draw_progress(what: &str, (entries0, bytes0): (u64, u64), stop: &(Mutex<bool>, Condvar)) {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    // Made now, hidden, so that its elapsed time counts from the start of the work.
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix}: {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_prefix(clean(what).into_owned());
    if stopped_within(stop, PROGRESS_DELAY) {
        return;
    }
    #[allow(clippy::disallowed_methods)]
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
    *BAR.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.clone());
    loop {
        let (e, b) = READ.get();
        bar.set_message(format!(
            "{} entries, {} read",
            e.saturating_sub(entries0),
            indicatif::HumanBytes(b.saturating_sub(bytes0))
        ));
        bar.tick();
        if stopped_within(stop, Duration::from_millis(100)) {
            break;
        }
    }
    *BAR.lock().unwrap_or_else(|e| e.into_inner()) = None;
    bar.finish_and_clear();
}

impl Drop for Progress {
    fn drop(&mut self) {
        let (lock, cv) = &*self.stop;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Writes `doc` to standard output as one JSON document and a newline (indented when
/// `pretty`). Strings keep their values: every [`is_unsafe`] character that JSON itself leaves
/// raw (DEL, C1 controls, invisible format characters, U+2028 and U+2029) is written as its
/// `\uXXXX` escape (a surrogate pair beyond the BMP), so the bytes reaching the terminal hold no
/// control and the document still parses to the same strings. A closed pipe ends the output
/// quietly, as [`out`]. Errors: `doc` cannot be serialised (a map with non-string keys).
pub fn json<T: serde::Serialize + ?Sized>(doc: &T, pretty: bool) -> serde_json::Result<()> {
    let text = if pretty {
        serde_json::to_string_pretty(doc)?
    } else {
        serde_json::to_string(doc)?
    };
    let mut safe = json_escaped(&text).into_owned();
    safe.push('\n');
    to_stdout(&safe);
    Ok(())
}

/// Serialised JSON `text` with every [`is_unsafe`] character but the newline written as a JSON
/// `\uXXXX` escape. serde_json escapes C0 controls inside strings itself; outside strings only
/// ASCII punctuation, blanks and (pretty) newlines occur, so a newline left raw is never inside
/// a string.
fn json_escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && is_unsafe(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{:04x}", u);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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
    #[allow(clippy::disallowed_methods)]
    std::io::stderr().is_terminal()
}

fn to_stderr(text: &str) {
    suspending_progress(|| {
        #[allow(clippy::disallowed_methods)]
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
    });
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
    fn colour_follows_the_flag_then_no_color_then_the_terminal() {
        use ColorChoice::{Always, Auto, Never};
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        let xterm = Some(OsStr::new("xterm-256color"));
        let dumb = Some(OsStr::new("dumb"));
        // (choice, NO_COLOR, TERM, is a terminal) → colour
        let cases = [
            (Auto, None, xterm, true, true),
            (Auto, None, None, true, true),
            (Auto, None, xterm, false, false),
            (Auto, set, xterm, true, false),
            // An empty NO_COLOR does not count (no-color.org).
            (Auto, empty, xterm, true, true),
            (Auto, None, dumb, true, false),
            (Always, None, xterm, false, true),
            (Always, set, xterm, true, true),
            (Always, set, dumb, false, true),
            (Never, None, xterm, true, false),
            (Never, None, xterm, false, false),
            (Never, empty, None, true, false),
        ];
        for (choice, no_color, term, tty, want) in cases {
            assert_eq!(
                colour_wanted(choice, no_color, term, tty),
                want,
                "{choice:?} NO_COLOR={no_color:?} TERM={term:?} terminal={tty}"
            );
        }
    }

    #[test]
    fn styled_text_is_cleaned_before_it_is_coloured() {
        let mut s = Styled::new();
        let _ = write!(s, "host \u{1b}]0;x\u{7} ");
        s.paint(Tone::Critical, "CRITICAL");
        s.paint(Tone::Warning, "w\u{1b}[32mx\nsecond");
        let _ = writeln!(s, " end");
        // The plain text is the spans' text as given (cleaning happens when it is rendered).
        assert_eq!(
            s.to_string(),
            "host \u{1b}]0;x\u{7} CRITICALw\u{1b}[32mx\nsecond end\n"
        );
        let plain = s.render(false);
        assert_eq!(
            plain,
            "host \\x1b]0;x\\x07 CRITICALw\\x1b[32mx\nsecond end\n"
        );
        let coloured = s.render(true);
        assert_eq!(
            coloured,
            "host \\x1b]0;x\\x07 \u{1b}[1m\u{1b}[31mCRITICAL\u{1b}[0m\
             \u{1b}[33mw\\x1b[32mx\u{1b}[0m\n\u{1b}[33msecond\u{1b}[0m end\n"
        );
        // Our sequences are the only ESC bytes: one per style and reset.
        assert_eq!(coloured.matches('\u{1b}').count(), 7);
        assert_eq!(Tone::of_severity("CRITICAL"), Tone::Critical);
        assert_eq!(Tone::of_severity("info"), Tone::Info);
        assert_eq!(Tone::of_severity("other"), Tone::Plain);
    }

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
    fn json_keeps_string_values_and_escapes_what_a_terminal_acts_on() {
        let v = serde_json::json!({"k": "a\u{1b}[2J\u{7f}\u{9b}\u{202e}\u{e0001}\u{2028}z\tü"});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let safe = json_escaped(&text);
        assert!(!safe.chars().any(|c| c != '\n' && is_unsafe(c)), "{safe}");
        assert!(
            safe.contains(r"a\u001b[2J\u007f\u009b\u202e\udb40\udc01\u2028z\tü"),
            "{safe}"
        );
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
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
