//! The command line of `rca`, as clap definitions: the binary parses its arguments with [`Cli`],
//! and the same [`command`] is the source of the shell completion scripts ([`completions`]) and
//! the manual pages ([`man_pages`]) shipped in the release tarball, so neither can drift from the
//! options the binary accepts.
//!
//! In: nothing but these definitions. Out: the parsed [`Cli`], a completion script for a shell,
//! roff manual pages.

use crate::bundle::{parse_size, Limits};
use clap::{Args, CommandFactory, Parser, Subcommand};
pub use clap_complete::Shell;
use std::path::PathBuf;
use std::time::Duration;

/// Offline root-cause analyzer for Linux and JVM performance incidents.
#[derive(Parser)]
// Plain: rca's help and errors are written through the console, which escapes every ESC.
#[command(name = "rca", version, about, long_about = None, styles = clap::builder::Styles::plain())]
pub struct Cli {
    /// When to colour the terminal output by severity: auto (when standard output is a
    /// terminal and NO_COLOR is unset or empty), always (also into a pipe, whatever NO_COLOR
    /// says), never.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = crate::console::ColorChoice::Auto)]
    pub color: crate::console::ColorChoice,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Analyze one bundle: a tar compressed with gzip, xz, zstd or bzip2 (.tar.gz, .tar.xz,
    /// .tar.zst, .tar.bz2), a plain .tar or a .zip (recognised by content), a directory (unpacked
    /// bundle, sosreport, loose command outputs, or a folder holding one archive) or a single
    /// file, compressed or not.
    Analyze {
        /// The bundle.
        bundle: PathBuf,
        /// Where the report goes.
        #[command(flatten)]
        out: Outputs,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Parse one file as `analyze` would and print its record as JSON: `{"kind", "source",
    /// "records", "issues": [{"line", "message"}]}`. The file may be compressed (gzip, xz, zstd,
    /// bzip2); its kind is found as for a loose file in a bundle (its name, then its content)
    /// unless --kind names it. `-` reads standard input.
    #[command(after_help = PARSE_HELP)]
    Parse {
        /// The file, or `-` for standard input (`<stdin>` in messages; read up to
        /// --max-entry-size, compressed or not; its kind is its content's unless --kind names it).
        file: PathBuf,
        /// Read the file as this kind (a name as the collector's manifest writes it: `iostat`,
        /// `proc-stat`, `jstat-gcutil`; an unknown name lists the valid ones).
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
        /// Indent the JSON document.
        #[arg(long)]
        pretty: bool,
        /// Limits for reading the file.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Compare a healthy baseline host with a suspect one: both bundles are analyzed, their facts
    /// compared, and every difference ranked by how likely it matters.
    #[command(after_help = DIFF_HELP)]
    Diff {
        /// The healthy reference host's bundle (any form `analyze` accepts).
        baseline: PathBuf,
        /// The suspect host's bundle.
        suspect: PathBuf,
        /// Where the comparison goes.
        #[command(flatten)]
        out: CompareOutputs,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Compare peer hosts that should look alike and rank them by how much each deviates.
    #[command(after_help = FLEET_HELP)]
    Fleet {
        /// The bundles (at least 3), or one directory: every bundle directly inside it (an
        /// archive of any format `analyze` reads, or a bundle folder); other entries are skipped
        /// and listed.
        #[arg(required = true, value_name = "BUNDLE|DIR")]
        bundles: Vec<PathBuf>,
        /// Where the comparison goes.
        #[command(flatten)]
        out: CompareOutputs,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
        /// How long one bundle's analysis may take (`90s`, `5m`, `1h`); a bundle not analyzed
        /// by then is listed as not compared and the others are compared without it. `0s` stops
        /// every analysis before it starts.
        #[arg(long, value_name = "DURATION", default_value = "300s",
              value_parser = humantime::parse_duration)]
        bundle_timeout: Duration,
        /// How many bundles are analyzed at once (default: one per CPU). Peak memory is about
        /// this many analyses, each bounded by its largest artifact, whatever the fleet's size.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Write a copy of a bundle that can leave the site: host names, domains, IP and MAC
    /// addresses, user names and keywords replaced by consistent pseudonyms, secret values
    /// removed, binary files dropped; `redaction.json` inside says what was done.
    #[command(after_help = REDACT_HELP)]
    Redact {
        /// The bundle (any form `analyze` accepts); with --verify-only, the redacted bundle.
        bundle: PathBuf,
        /// Write the redacted bundle here (a .tar.gz).
        #[arg(
            short = 'o',
            long = "output",
            value_name = "CLEAN.tar.gz",
            required_unless_present = "verify_only"
        )]
        output: Option<PathBuf>,
        /// Pseudonym map: read if it exists, updated and written back here (never into the
        /// output). Keep it at home: it turns pseudonyms back into names.
        #[arg(long, value_name = "MAP.json")]
        map: Option<PathBuf>,
        /// Further values to replace: one a line, a literal or `re:REGEX`.
        #[arg(long, value_name = "FILE")]
        keywords: Option<PathBuf>,
        /// Keep the vendor half (OUI) of MAC addresses.
        #[arg(long)]
        keep_oui: bool,
        /// Scan the output for every original value and secret once written.
        #[arg(long)]
        verify: bool,
        /// Only scan BUNDLE (a redacted bundle) for the originals of --map and for secrets.
        #[arg(long, conflicts_with_all = ["output", "keywords", "verify", "keep_oui"])]
        verify_only: bool,
        /// Do not print the summary.
        #[arg(short, long)]
        quiet: bool,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Analyze bundles and store them in the case archive (SQLite): identity, findings,
    /// features and artifact outcomes, one transaction per bundle. A bundle already stored is
    /// skipped by its content hash, so a stopped run resumes; one that fails is recorded with
    /// its error and the run goes on.
    #[command(after_help = INDEX_HELP)]
    Index {
        /// Bundles, or directories of bundles (as `fleet` reads them).
        #[arg(required = true, value_name = "BUNDLE|DIR")]
        bundles: Vec<PathBuf>,
        /// The case archive.
        #[command(flatten)]
        db: DbArg,
        /// Where the rows go: the SQLite archive (`--db`), a Parquet dataset partitioned by
        /// collection month (`--out DIR`), or JSON lines, one per bundle (`--out FILE`).
        #[arg(long, value_enum, default_value_t = IndexFormat::Sqlite)]
        format: IndexFormat,
        /// The Parquet dataset's folder, or the JSON lines file (with --format parquet|jsonl).
        #[arg(long, value_name = "DIR|FILE", conflicts_with = "db")]
        out: Option<PathBuf>,
        /// Label every bundle stored by this run (`customer=acme`); repeatable.
        #[arg(long = "label", value_name = "TEXT")]
        labels: Vec<String>,
        /// How many bundles are analyzed at once (default: one per CPU).
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// How long one bundle's analysis may take; past it the bundle is recorded as failed.
        #[arg(long, value_name = "DURATION", default_value = "300s",
              value_parser = humantime::parse_duration)]
        bundle_timeout: Duration,
        /// Do not print a line per bundle.
        #[arg(short, long)]
        quiet: bool,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Search the case archive: `rule:mem.* severity:>=warning host:db* since:2026-01-01
    /// until:2026-03-31 fact:"eth0: queues"<2 label:acme` (terms AND-ed).
    #[command(after_help = SEARCH_HELP)]
    Search {
        /// The query (one argument, or several joined by blanks).
        #[arg(required = true, value_name = "QUERY")]
        query: Vec<String>,
        /// The case archive.
        #[command(flatten)]
        db: DbArg,
        /// Most bundles listed (newest first).
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Print the result as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The archived bundles most like BUNDLE: weighted Jaccard over findings plus a robust
    /// distance over features, each with why and its notes.
    Similar {
        /// A bundle (analyzed if it is not in the archive), or a stored bundle's hash prefix.
        bundle: String,
        /// The case archive.
        #[command(flatten)]
        db: DbArg,
        /// How many bundles to list.
        #[arg(short, default_value_t = 10)]
        k: usize,
        /// Print the result as JSON instead of a list.
        #[arg(long)]
        json: bool,
        /// How long the analysis of a bundle not in the archive may take; past it nothing is
        /// compared and the exit status is 2.
        #[arg(long, value_name = "DURATION", default_value = "300s",
              value_parser = humantime::parse_duration)]
        bundle_timeout: Duration,
        /// Limits for reading the bundles.
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// One host's findings across its archived bundles, on a time axis.
    History {
        /// The host name (without regard to case).
        #[arg(long)]
        host: String,
        /// The case archive.
        #[command(flatten)]
        db: DbArg,
        /// Also write the history as an HTML page here.
        #[arg(long, value_name = "FILE.html")]
        html: Option<PathBuf>,
        /// Print the history as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Attach a note to an archived bundle (what fixed it, the ticket); `similar` and `history`
    /// show it.
    Note {
        /// The bundle's hash, or at least 6 characters of it.
        hash: String,
        /// The note.
        text: String,
        /// The case archive.
        #[command(flatten)]
        db: DbArg,
    },
    /// List every rule: id, area, default severity and title.
    Rules {
        /// Print the list as JSON (id, area, severity, title, when it fires) instead.
        #[arg(long)]
        json: bool,
    },
    /// Show a rule's full reference (as in docs/rules.md): what it checks, why it matters, its
    /// evidence, thresholds with their sources, known false positives and the remedy.
    Explain {
        /// The rule's id (`disk.saturation`; `rca rules` lists them).
        #[arg(value_name = "RULE")]
        id: String,
    },
    /// Print the completion script of a shell to standard output.
    ///
    /// Where each shell reads it: bash, a file `rca` in `/etc/bash_completion.d/` (or
    /// `~/.local/share/bash-completion/completions/`); zsh, a file `_rca` in a folder of
    /// `$fpath`; fish, `~/.config/fish/completions/rca.fish`. The release tarball ships all three
    /// in `completions/`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
}

const PARSE_HELP: &str = "\
`records` is the parsed record as the analysis holds it (units as its fields' names say: `_kib`,
`_pct`, `_per_s`); `issues` lists the input lines that could not be read, each with its 1-based
line number (0: the whole file).

`rca parse -` reads standard input, named `<stdin>` in messages (`source` stays the tool that
produces the kind). Standard input has no file name, so its kind is found by its content alone:
when the content is not enough, name the kind with --kind
(`cat /proc/uptime | rca parse - --kind proc-uptime`).
Input longer than --max-entry-size (default 1G) is refused.

Exit status: 0 parsed (issues may be listed), 2 the file could not be read, is a folder or an
archive, is of no kind rca recognises, could not be parsed as its kind, standard input is longer
than --max-entry-size, or a usage error (an unknown --kind lists the valid names).";

/// Where `rca index` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IndexFormat {
    /// The SQLite archive (`--db`), which search, similar and history read.
    Sqlite,
    /// A Parquet dataset (`--out DIR`) for Spark, Trino or DuckDB.
    Parquet,
    /// JSON lines (`--out FILE`), one bundle's rows per line.
    Jsonl,
}

const INDEX_HELP: &str = "\
The archive is SQLite in WAL mode; its schema is described in docs/archive.md. With --format
parquet, DIR/<table>/month=YYYY-MM/part-<run>.parquet holds the same tables: a run adds part
files and skips the bundles whose hash the dataset already holds.

Exit status: 0 every bundle stored (or already stored), 1 some bundle failed and was recorded
with its error (the others are stored), 2 the archive cannot be opened or written, or a usage
error.";

const SEARCH_HELP: &str = "\
Keys: rule:GLOB, severity:[<|<=|>|>=|=|!=]info|warning|critical (default >=), host:GLOB
(any case), since:YYYY-MM-DD, until:YYYY-MM-DD (collection start, UTC, inclusive),
fact:NAME OP VALUE (OP one of < <= > >= = !=; a name or value with blanks in double quotes),
label:GLOB. rule: and severity: hold for the same finding.

Exit status: 0 some bundle matches, 1 none does, 2 the query or the archive cannot be read.";

/// The archive file.
#[derive(Args)]
pub struct DbArg {
    /// The archive [default: $RCA_DB, else $XDG_DATA_HOME/rca/cases.db, else
    /// ~/.local/share/rca/cases.db].
    #[arg(long, value_name = "FILE.db")]
    pub db: Option<PathBuf>,
}

const REDACT_HELP: &str = "\
The same original always gets the same pseudonym within a bundle and across bundles redacted
with the same --map, so `rca diff` and `rca fleet` still line hosts up. IPv4 addresses keep their
/8, /16, /24 structure; loopback, link-local, multicast and documentation addresses are kept.

Exit status: 0 written (and, with --verify, no leak found), 1 the leak scan found originals or
secrets (listed as path:line), 2 the bundle could not be read, the output could not be written,
or a usage error.";

const DIFF_HELP: &str = "\
Each difference scores weight of its kind × size of the difference × 1.5 when it connects to a
symptom of the suspect; differences scoring under 5 are noise (listed, never in the top).

Exit status: 0 no difference above the noise threshold, 1 differences above it, 2 a bundle
could not be read or analyzed (the outputs are still written when both could be read), or a
usage error.";

const FLEET_HELP: &str = "\
Numbers: outliers by modified z-score > 3.5 (median and MAD, Iglewicz & Hoaglin). Categories
(kernel, modules, JDK, sysctl, NIC queues ...): hosts that differ from a strict majority.

Exit status: 0 no host deviates above the noise threshold, 1 some do, 2 a bundle could not be
read or analyzed, or not within --bundle-timeout (the others are still compared and the outputs
written), fewer than 3 hosts could be compared, or a usage error.";

/// Outputs of `diff` and `fleet`.
#[derive(Args)]
pub struct CompareOutputs {
    /// Write the HTML page here.
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Write the comparison as JSON here.
    #[arg(long = "json", value_name = "FILE.json")]
    pub json: Option<PathBuf>,
    /// Do not print the terminal summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Outputs of `analyze`.
#[derive(Args)]
pub struct Outputs {
    /// Write the HTML report here.
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Write the findings as JSON here.
    #[arg(long = "json", value_name = "FILE.json")]
    pub json: Option<PathBuf>,
    /// Do not print the terminal summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Limits for reading untrusted bundles (sizes accept K, M, G, T suffixes).
#[derive(Args)]
pub struct LimitArgs {
    /// Largest single entry read [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_entry_size: Option<u64>,
    /// Largest total uncompressed size read [default: 2G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_total_size: Option<u64>,
    /// Most entries read [default: 100000].
    #[arg(long, value_name = "N")]
    pub max_entries: Option<usize>,
    /// Compression-ratio alarm, uncompressed:compressed [default: 200].
    #[arg(long, value_name = "N")]
    pub max_ratio: Option<u64>,
    /// Uncompressed bytes produced before the ratio alarm applies [default: 64M].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub ratio_floor: Option<u64>,
}

impl LimitArgs {
    /// The reader's limits: the defaults, each replaced by its option when given.
    pub fn limits(&self) -> Limits {
        let mut l = Limits::default();
        if let Some(v) = self.max_entry_size {
            l.max_entry_bytes = v;
        }
        if let Some(v) = self.max_total_size {
            l.max_total_bytes = v;
        }
        if let Some(v) = self.max_entries {
            l.max_entries = v;
        }
        if let Some(v) = self.max_ratio {
            l.max_ratio = v;
        }
        if let Some(v) = self.ratio_floor {
            l.ratio_floor_bytes = v;
        }
        l
    }
}

/// The `clap` command of `rca`: every subcommand, option and help text the binary accepts.
pub fn command() -> clap::Command {
    Cli::command()
}

/// The completion script of `shell` for `rca`, as `clap_complete` writes it from [`command`]:
/// it completes every subcommand and option and, for path arguments, file names.
pub fn completions(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "rca", &mut script);
    script
}

/// One manual page in section 1.
pub struct ManPage {
    /// The file name: `rca.1`, `rca-analyze.1`.
    pub file_name: String,
    /// The page, roff (`man -l FILE` shows it).
    pub roff: Vec<u8>,
}

/// The manual pages of `rca`, as `clap_mangen` writes them from [`command`]: `rca.1` first (its
/// SUBCOMMANDS section lists them all), then one page per subcommand (`rca-analyze.1` …), each
/// with its options and the text of `rca help SUBCOMMAND`.
pub fn man_pages() -> Vec<ManPage> {
    fn add(cmd: clap::Command, source: &str, pages: &mut Vec<ManPage>) {
        let subs: Vec<clap::Command> = cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        // Every page's footer names rca and its version (clap_mangen would name the subcommand
        // alone, without a version).
        let man = clap_mangen::Man::new(cmd).source(source);
        let mut roff = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = man.render(&mut roff);
        pages.push(ManPage {
            file_name: man.get_filename(),
            roff,
        });
        for s in subs {
            add(s, source, pages);
        }
    }
    // Built first, as clap_mangen's own `generate_to` does, so that each subcommand's display
    // name is `rca-SUBCOMMAND`; `help` is no page of its own.
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    let source = format!("rca {}", cmd.get_version().unwrap_or_default());
    let mut pages = Vec::new();
    add(cmd, &source, &mut pages);
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subcommands a user reads about in the README, named here rather than taken from the
    /// command, so that one dropped from the command fails the test too.
    const SUBCOMMANDS: &[&str] = &[
        "analyze",
        "diff",
        "fleet",
        "redact",
        "index",
        "search",
        "similar",
        "history",
        "note",
        "completions",
    ];

    fn subcommands() -> Vec<String> {
        let names: Vec<String> = command()
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        for s in SUBCOMMANDS {
            assert!(names.iter().any(|n| n == s), "{s} in {names:?}");
        }
        names
    }

    #[test]
    fn the_definitions_hold_together() {
        command().debug_assert();
    }

    #[test]
    fn each_completion_script_names_every_subcommand() {
        for (shell, marker) in [
            (Shell::Bash, "complete -F _rca"),
            (Shell::Zsh, "#compdef rca"),
            (Shell::Fish, "complete -c rca"),
        ] {
            let script = String::from_utf8(completions(shell)).unwrap();
            assert!(script.contains(marker), "{shell}: {marker}");
            for name in subcommands() {
                // Each shell's own form of offering a subcommand, so that a name found only
                // inside some help text does not count.
                let offered = match shell {
                    Shell::Bash => format!("cmd=\"rca__subcmd__{name}\""),
                    Shell::Zsh => format!("'{name}:"),
                    _ => format!("-a \"{name}\""),
                };
                assert!(script.contains(&offered), "{shell} lacks {offered}");
            }
            // The options of a subcommand are completed too.
            let option = match shell {
                Shell::Fish => "-l max-entry-size",
                _ => "--max-entry-size",
            };
            assert!(script.contains(option), "{shell} lacks {option}");
        }
    }

    #[test]
    fn the_manual_has_a_page_per_subcommand_and_lists_them_all() {
        let pages = man_pages();
        assert_eq!(pages[0].file_name, "rca.1");
        let main = String::from_utf8(pages[0].roff.clone()).unwrap();
        assert!(
            main.starts_with(".ie \\n(.g .ds Aq"),
            "roff: {}",
            &main[..80]
        );
        assert!(main.contains(".TH rca 1"), "{main}");
        assert!(main.contains("SUBCOMMANDS"), "{main}");
        for name in subcommands() {
            if name == "help" {
                continue;
            }
            // clap_mangen names each subcommand by its page, `rca\-analyze(1)`.
            assert!(
                main.contains(&format!("rca\\-{}(1)", name.replace('-', "\\-"))),
                "rca.1 lacks {name}"
            );
            let page = pages
                .iter()
                .find(|p| p.file_name == format!("rca-{name}.1"))
                .unwrap_or_else(|| panic!("no page for {name}"));
            let roff = String::from_utf8(page.roff.clone()).unwrap();
            // The title, and the footer naming rca and its version.
            let title = format!(".TH rca-{name} 1  \"rca {}\"", env!("CARGO_PKG_VERSION"));
            assert!(roff.contains(&title), "{roff}");
        }
        let analyze = pages
            .iter()
            .find(|p| p.file_name == "rca-analyze.1")
            .unwrap();
        let roff = String::from_utf8_lossy(&analyze.roff);
        assert!(roff.contains("\\-\\-max\\-entry\\-size"), "{roff}");
        assert!(!pages.iter().any(|p| p.file_name == "rca-help.1"));
    }
}
