//! Command line of `rca`. Exit status: 0 = no finding at warning or above, 1 = findings,
//! 2 = the bundle could not be analyzed (unreadable, unsupported, nothing parseable, no rule
//! could be evaluated), or holds too little evidence to call the host healthy (no finding, and
//! no rule could judge one of CPU, memory, disk and network, or the collection is incomplete:
//! the collector says so, its manifest is empty or truncated, or files it lists are missing),
//! or a usage error. `diff` and `fleet` follow the same convention: 0 = no
//! difference (or deviating host) above the noise threshold, 1 = some, 2 = a bundle could not be
//! read or analyzed (for `fleet`, also within `--bundle-timeout`), or a usage error.
//!
//! Everything printed goes through [`rca::console`], which shows control and invisible
//! characters of bundle text as visible escapes.

#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]

use clap::{Args, Parser, Subcommand};
use rca::bundle::parse_size;
use rca::bundle::Limits;
use rca::console;
use rca::report::{html, terminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Offline root-cause analyzer for Linux and JVM performance incidents.
#[derive(Parser)]
// Plain: rca's help and errors are written through the console, which escapes every ESC.
#[command(name = "rca", version, about, long_about = None, styles = clap::builder::Styles::plain())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze one bundle: a tar compressed with gzip, xz, zstd or bzip2 (.tar.gz, .tar.xz,
    /// .tar.zst, .tar.bz2), a plain .tar or a .zip (recognised by content), a directory (unpacked
    /// bundle, sosreport, loose command outputs, or a folder holding one archive) or a single
    /// file, compressed or not.
    Analyze {
        /// The bundle.
        bundle: PathBuf,
        #[command(flatten)]
        out: Outputs,
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
        #[command(flatten)]
        out: CompareOutputs,
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
        #[command(flatten)]
        out: CompareOutputs,
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
        #[command(flatten)]
        db: DbArg,
        /// How many bundles to list.
        #[arg(short, default_value_t = 10)]
        k: usize,
        /// Print the result as JSON instead of a list.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// One host's findings across its archived bundles, on a time axis.
    History {
        /// The host name (without regard to case).
        #[arg(long)]
        host: String,
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
        #[command(flatten)]
        db: DbArg,
    },
}

/// Where `rca index` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum IndexFormat {
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
struct DbArg {
    /// The archive [default: $RCA_DB, else $XDG_DATA_HOME/rca/cases.db, else
    /// ~/.local/share/rca/cases.db].
    #[arg(long, value_name = "FILE.db")]
    db: Option<PathBuf>,
}

impl DbArg {
    /// The archive opened on the current schema, its folder created; `None` after printing why.
    fn open(&self) -> Option<rusqlite::Connection> {
        let p = self.db.clone().unwrap_or_else(rca::archive::default_db);
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                console::error(&format!("cannot create {}: {e}", dir.display()));
                return None;
            }
        }
        match rca::archive::schema::open(&p) {
            Ok(c) => Some(c),
            Err(e) => {
                console::error(&e);
                None
            }
        }
    }
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
struct CompareOutputs {
    /// Write the HTML page here.
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    html: Option<PathBuf>,
    /// Write the comparison as JSON here.
    #[arg(long = "json", value_name = "FILE.json")]
    json: Option<PathBuf>,
    /// Do not print the terminal summary.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Args)]
struct Outputs {
    /// Write the HTML report here.
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    html: Option<PathBuf>,
    /// Write the findings as JSON here.
    #[arg(long = "json", value_name = "FILE.json")]
    json: Option<PathBuf>,
    /// Do not print the terminal summary.
    #[arg(short, long)]
    quiet: bool,
}

/// Limits for reading untrusted bundles (sizes accept K, M, G, T suffixes).
#[derive(Args)]
struct LimitArgs {
    /// Largest single entry read [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_entry_size: Option<u64>,
    /// Largest total uncompressed size read [default: 2G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_total_size: Option<u64>,
    /// Most entries read [default: 100000].
    #[arg(long, value_name = "N")]
    max_entries: Option<usize>,
    /// Compression-ratio alarm, uncompressed:compressed [default: 200].
    #[arg(long, value_name = "N")]
    max_ratio: Option<u64>,
    /// Uncompressed bytes produced before the ratio alarm applies [default: 64M].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    ratio_floor: Option<u64>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
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

fn main() -> ExitCode {
    console::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Through the console: an argument quoted in the error may be a hostile file name.
            let text = e.render().ansi().to_string();
            if e.use_stderr() {
                console::error_text(&text);
            } else {
                console::out(&text);
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match cli.command {
        Command::Analyze {
            bundle,
            out,
            limits,
        } => analyze(&bundle, &out, &limits.limits()),
        Command::Diff {
            baseline,
            suspect,
            out,
            limits,
        } => diff(&baseline, &suspect, &out, &limits.limits()),
        Command::Fleet {
            bundles,
            out,
            limits,
            bundle_timeout,
            jobs,
        } => fleet(
            &bundles,
            &out,
            &limits.limits(),
            bundle_timeout,
            jobs.map_or(0, usize::from),
        ),
        Command::Redact {
            bundle,
            output,
            map,
            keywords,
            keep_oui,
            verify,
            verify_only,
            quiet,
            limits,
        } => redact(
            &bundle,
            output.as_deref(),
            map.as_deref(),
            keywords.as_deref(),
            (keep_oui, verify, verify_only, quiet),
            &limits.limits(),
        ),
        Command::Index {
            bundles,
            db,
            format,
            out,
            labels,
            jobs,
            bundle_timeout,
            quiet,
            limits,
        } => index(
            &bundles,
            (&db, format, out.as_deref()),
            rca::archive::index::Options {
                limits: limits.limits(),
                jobs: jobs.map_or(0, usize::from),
                timeout: bundle_timeout,
                labels,
            },
            quiet,
        ),
        Command::Search {
            query,
            db,
            limit,
            json,
        } => search(&query.join(" "), &db, limit, json),
        Command::Similar {
            bundle,
            db,
            k,
            json,
            limits,
        } => similar(&bundle, &db, k, json, &limits.limits()),
        Command::History {
            host,
            db,
            html,
            json,
        } => history(&host, &db, html.as_deref(), json),
        Command::Note { hash, text, db } => note(&hash, &text, &db),
    }
}

/// `rca index`: the bundles analyzed and stored; a line per bundle on a terminal.
fn index(
    args: &[PathBuf],
    (db, format, out): (&DbArg, IndexFormat, Option<&Path>),
    opts: rca::archive::index::Options,
    quiet: bool,
) -> ExitCode {
    use rca::archive::{index::Sink, jsonl, parquet};
    let out = match (format, out) {
        (IndexFormat::Sqlite, Some(_)) => {
            console::error("--out is for --format parquet or jsonl; the SQLite archive is --db");
            return ExitCode::from(2);
        }
        (IndexFormat::Sqlite, None) => None,
        (_, Some(o)) => Some(o),
        (_, None) => {
            console::error("--format parquet and jsonl write to --out DIR|FILE: give it");
            return ExitCode::from(2);
        }
    };
    // Each argument on its own: a folder of bundles contributes its bundles, whatever else is
    // named beside it.
    let mut expanded = rca::fleet::Expanded::default();
    for a in args {
        match rca::fleet::expand(std::slice::from_ref(a)) {
            Ok(x) => {
                expanded.bundles.extend(x.bundles);
                expanded.skipped.extend(x.skipped);
            }
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        }
    }
    let mut conn = None;
    let mut sink: Box<dyn Sink + '_> = match (format, out) {
        (IndexFormat::Parquet, Some(dir)) => match parquet::Dataset::create(dir) {
            Ok(d) => Box::new(d),
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        },
        (IndexFormat::Jsonl, Some(file)) => match jsonl::Lines::create(file) {
            Ok(l) => Box::new(l),
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        },
        _ => {
            let Some(c) = db.open() else {
                return ExitCode::from(2);
            };
            Box::new(rca::archive::index::Archive(conn.insert(c)))
        }
    };
    for k in &expanded.skipped {
        console::error(&format!("skipped: {}: {}", k.path, k.note));
    }
    let lines = !quiet && console::stderr_is_terminal();
    let r = rca::archive::index::run(sink.as_mut(), &expanded.bundles, &opts, |p, what, i, n| {
        if lines {
            console::error_text(&format!("[{i}/{n}] {}: {what}\n", console::path(p)));
        }
    });
    drop(sink);
    let done = match r {
        Ok(d) => d,
        Err(e) => {
            console::error(&e);
            return ExitCode::from(2);
        }
    };
    if let Some(conn) = &conn {
        if let Err(e) = rca::archive::similar::refresh_spreads(conn) {
            console::error(&format!("cannot update the feature spreads: {e}"));
            return ExitCode::from(2);
        }
    }
    for (p, e) in &done.failed {
        console::error(&format!("{p}: {e}"));
    }
    if !quiet {
        console::out(&format!(
            "{} stored, {} already stored, {} failed\n",
            done.stored,
            done.already,
            done.failed.len()
        ));
    }
    if done.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `rca search`.
fn search(query: &str, db: &DbArg, limit: usize, json: bool) -> ExitCode {
    let terms = match rca::archive::query::parse(query) {
        Ok(t) => t,
        Err(e) => {
            console::error(&e);
            return ExitCode::from(2);
        }
    };
    let Some(conn) = db.open() else {
        return ExitCode::from(2);
    };
    let (hits, total) = match rca::archive::query::search(&conn, &terms, limit) {
        Ok(x) => x,
        Err(e) => {
            console::error(&e);
            return ExitCode::from(2);
        }
    };
    if json {
        let doc = serde_json::json!({"total": total, "bundles": hits});
        console::out(&(serde_json::to_string_pretty(&doc).expect("serialises") + "\n"));
    } else {
        let mut s = format!(
            "{total} bundle(s){}\n",
            if total > hits.len() {
                format!(", the newest {} listed", hits.len())
            } else {
                String::new()
            }
        );
        if !hits.is_empty() {
            s.push_str(&format!(
                "{:<12}  {:<19}  {:<20}  findings\n",
                "hash", "collected", "host"
            ));
        }
        for h in &hits {
            let f: Vec<String> = h
                .findings
                .iter()
                .map(|(r, sev)| format!("{r} ({sev})"))
                .collect();
            s.push_str(&format!(
                "{:<12}  {:<19}  {:<20}  {}\n",
                h.hash.get(..12).unwrap_or(&h.hash),
                h.collected.as_deref().unwrap_or("-"),
                h.host.as_deref().unwrap_or("-"),
                f.join(", ")
            ));
        }
        console::out(&s);
    }
    if total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `rca similar`: a stored bundle's hash (prefix), a stored bundle's path, or a new bundle.
fn similar(bundle: &str, db: &DbArg, k: usize, json: bool, limits: &Limits) -> ExitCode {
    use rca::archive::{index, similar::Probe};
    let Some(conn) = db.open() else {
        return ExitCode::from(2);
    };
    let path = Path::new(bundle);
    let probe = if path.exists() {
        let hash = match index::content_hash(path) {
            Ok(h) => h,
            Err(e) => {
                console::error(&format!("{bundle}: {e}"));
                return ExitCode::from(2);
            }
        };
        match Probe::stored(&conn, &hash) {
            Ok(Some(p)) => p,
            Ok(None) => {
                let deadline = std::time::Instant::now() + Duration::from_secs(300);
                match index::analyze(path, limits, deadline) {
                    Ok(a) => Probe::from_analyzed(Some(hash), &a),
                    Err(e) => {
                        console::error(&format!("{bundle}: {e}"));
                        return ExitCode::from(2);
                    }
                }
            }
            Err(e) => {
                console::error(&e.to_string());
                return ExitCode::from(2);
            }
        }
    } else {
        let hash = match rca::archive::resolve(&conn, bundle) {
            Ok(h) => h,
            Err(e) => {
                console::error(&format!("{bundle}: no such file, and {e}"));
                return ExitCode::from(2);
            }
        };
        match Probe::stored(&conn, &hash) {
            Ok(Some(p)) => p,
            Ok(None) => {
                console::error(&format!("{hash} is stored as failed: nothing to compare"));
                return ExitCode::from(2);
            }
            Err(e) => {
                console::error(&e.to_string());
                return ExitCode::from(2);
            }
        }
    };
    let found = match rca::archive::similar::similar(&conn, &probe, k) {
        Ok(f) => f,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    if json {
        console::out(&(serde_json::to_string_pretty(&found).expect("serialises") + "\n"));
    } else {
        let mut s = format!("{} similar bundle(s)\n", found.len());
        for (i, f) in found.iter().enumerate() {
            s.push_str(&format!(
                "#{:<2} {:.3}  {}  {}  {}  (findings {:.3}, features {:.3})\n",
                i + 1,
                f.score,
                f.hash.get(..12).unwrap_or(&f.hash),
                f.collected.as_deref().unwrap_or("-"),
                f.host.as_deref().unwrap_or("-"),
                f.findings_similarity,
                f.features_similarity
            ));
            if !f.shared.is_empty() {
                s.push_str(&format!("     shared: {}\n", f.shared.join(", ")));
            }
            if !f.missing.is_empty() {
                s.push_str(&format!("     not there: {}\n", f.missing.join(", ")));
            }
            if !f.closest.is_empty() {
                s.push_str(&format!("     closest: {}\n", f.closest.join("; ")));
            }
            for n in &f.notes {
                s.push_str(&format!("     note: {n}\n"));
            }
        }
        console::out(&s);
    }
    ExitCode::SUCCESS
}

/// `rca history`.
fn history(host: &str, db: &DbArg, html: Option<&Path>, json: bool) -> ExitCode {
    let Some(conn) = db.open() else {
        return ExitCode::from(2);
    };
    let h = match rca::archive::history::history(&conn, host) {
        Ok(h) => h,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    if let Some(p) = html {
        let page = match rca::archive::history::html(&h) {
            Ok(p) => p,
            Err(e) => {
                console::error(&format!(
                    "internal error rendering the page (please report it): {e:#}"
                ));
                return ExitCode::from(2);
            }
        };
        if let Err(e) = std::fs::write(p, page) {
            console::error(&format!("cannot write {}: {e}", p.display()));
            return ExitCode::from(2);
        }
    }
    if json {
        console::out(&(serde_json::to_string_pretty(&h).expect("serialises") + "\n"));
    } else {
        console::out(&rca::archive::history::terminal(&h));
    }
    if h.visits.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `rca note`.
fn note(hash: &str, text: &str, db: &DbArg) -> ExitCode {
    let Some(conn) = db.open() else {
        return ExitCode::from(2);
    };
    let full = match rca::archive::resolve(&conn, hash) {
        Ok(h) => h,
        Err(e) => {
            console::error(&e);
            return ExitCode::from(2);
        }
    };
    if let Err(e) = rca::archive::add_note(&conn, &full, text) {
        console::error(&format!("cannot write the note: {e}"));
        return ExitCode::from(2);
    }
    console::out(&format!("noted on {full}\n"));
    ExitCode::SUCCESS
}

/// Writes the JSON and HTML outputs; `false` (after printing why) when one cannot be written.
fn write_outputs<T: serde::Serialize>(
    doc: &T,
    out: &CompareOutputs,
    render: impl FnOnce(&T) -> Result<String, minijinja::Error>,
) -> bool {
    if let Some(path) = &out.json {
        let json = serde_json::to_string_pretty(doc).expect("the document serialises");
        if let Err(e) = std::fs::write(path, json + "\n") {
            console::error(&format!("cannot write {}: {e}", path.display()));
            return false;
        }
    }
    if let Some(path) = &out.html {
        let page = match render(doc) {
            Ok(p) => p,
            Err(e) => {
                console::error(&format!(
                    "internal error rendering the page (please report it): {e:#}"
                ));
                return false;
            }
        };
        if let Err(e) = std::fs::write(path, page) {
            console::error(&format!("cannot write {}: {e}", path.display()));
            return false;
        }
    }
    if !out.quiet {
        for (what, p) in [("report", &out.html), ("json", &out.json)] {
            if let Some(p) = p {
                console::out(&format!("{what}: {}\n", console::path(p)));
            }
        }
    }
    true
}

/// `rca diff`: the two bundles are analyzed one after the other, each analysis with every CPU,
/// and each side keeps only what the comparison reads once analyzed ([`rca::diff::load`]): peak
/// memory is that of one analysis plus one side's facts and packed texts, not two analyses.
fn diff(baseline: &Path, suspect: &Path, out: &CompareOutputs, limits: &Limits) -> ExitCode {
    let b = rca::diff::load(baseline, limits, true);
    // A baseline that cannot be read is said together with the suspect's state, as before.
    let s = rca::diff::load(suspect, limits, true);
    let (b, s) = match (b, s) {
        (Ok(b), Ok(s)) => (b, s),
        (b, s) => {
            for (p, r) in [(baseline, b.err()), (suspect, s.err())] {
                if let Some(e) = r {
                    console::error(&format!("{}: {e}", p.display()));
                }
            }
            return ExitCode::from(2);
        }
    };
    let report = rca::diff::compare(&b, &s);
    drop((b, s));
    if !out.quiet {
        console::out(&rca::diff::terminal(&report));
    }
    if !write_outputs(&report, out, rca::diff::html::render) {
        return ExitCode::from(2);
    }
    if let Some(why) = report.unanalyzable() {
        console::error(&format!("could not be analyzed: {why}"));
        return ExitCode::from(2);
    }
    if report.above_noise > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `rca fleet`: `jobs` bundles analyzed at once (`0`: one per CPU).
fn fleet(
    args: &[PathBuf],
    out: &CompareOutputs,
    limits: &Limits,
    timeout: Duration,
    jobs: usize,
) -> ExitCode {
    let expanded = match rca::fleet::expand(args) {
        Ok(p) => p,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let (hosts, failed) = rca::fleet::load(&expanded.bundles, limits, timeout, jobs);
    let mut report = rca::fleet::compare(hosts, failed);
    report.skipped = expanded.skipped;
    if !out.quiet {
        console::out(&rca::fleet::terminal(&report));
    }
    if !write_outputs(&report, out, rca::fleet::render) {
        return ExitCode::from(2);
    }
    let compared = report
        .hosts
        .iter()
        .filter(|h| h.summary.unanalyzable.is_none())
        .count();
    if let Some(why) = report.incomplete() {
        console::error(&format!("not every bundle could be compared: {why}"));
        return ExitCode::from(2);
    }
    if compared < rca::fleet::robust::MIN_HOSTS {
        console::error(&format!(
            "a fleet needs at least {} hosts to compare; {compared} could be analyzed",
            rca::fleet::robust::MIN_HOSTS
        ));
        return ExitCode::from(2);
    }
    if report.deviating > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn analyze(bundle: &Path, out: &Outputs, limits: &Limits) -> ExitCode {
    let report = match rca::report::Report::analyze(bundle, limits) {
        Ok(r) => r,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    rca::memstat::stage("report");
    if let Some(path) = &out.json {
        let json = serde_json::to_string_pretty(&report).expect("the report serialises");
        if let Err(e) = std::fs::write(path, json + "\n") {
            console::error(&format!("cannot write {}: {e}", path.display()));
            return ExitCode::from(2);
        }
    }
    if let Some(path) = &out.html {
        let page = match html::render(&report) {
            Ok(p) => p,
            Err(e) => {
                console::error(&format!(
                    "internal error rendering the report (please report it): {e:#}"
                ));
                return ExitCode::from(2);
            }
        };
        if let Err(e) = std::fs::write(path, page) {
            console::error(&format!("cannot write {}: {e}", path.display()));
            return ExitCode::from(2);
        }
    }
    rca::memstat::stage("render");
    rca::memstat::table();
    if !out.quiet {
        console::out(&terminal::summary(&report));
        for (what, p) in [("report", &out.html), ("json", &out.json)] {
            if let Some(p) = p {
                console::out(&format!("{what}: {}\n", console::path(p)));
            }
        }
    }
    if let Some(why) = report.unanalyzable() {
        console::error(&format!(
            "{} could not be analyzed: {why}",
            bundle.display()
        ));
        return ExitCode::from(2);
    }
    if report.actionable() > 0 {
        return ExitCode::from(1);
    }
    let incomplete = report.incomplete();
    if let Some(why) = &incomplete {
        console::error(&format!(
            "the collection in {} is incomplete, so no finding is no clean bill of health: {why}",
            bundle.display()
        ));
    }
    let gap = report.evidence_gap();
    if let Some(gap) = &gap {
        console::error(&format!(
            "too little evidence in {} to call the host healthy: {gap}",
            bundle.display()
        ));
    }
    if incomplete.is_some() || gap.is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `rca redact`: writes the redacted bundle (and the map), then scans it when asked.
fn redact(
    bundle: &Path,
    output: Option<&Path>,
    map_path: Option<&Path>,
    keywords: Option<&Path>,
    (keep_oui, verify, verify_only, quiet): (bool, bool, bool, bool),
    limits: &Limits,
) -> ExitCode {
    use rca::redact;
    let mut map = match map_path {
        Some(p) => match redact::load_map(p) {
            Ok(m) => m,
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        },
        None => redact::Map::default(),
    };
    if verify_only {
        return leak_scan(bundle, map_path.map(|_| &map), limits, quiet);
    }
    let Some(output) = output else {
        console::error("--output is required");
        return ExitCode::from(2);
    };
    if map_path.is_some_and(|m| m == output) {
        console::error("the map must not be the output: keep it apart from the bundle");
        return ExitCode::from(2);
    }
    let keywords = match keywords {
        None => redact::Keywords::default(),
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| redact::Keywords::parse(&t))
        {
            Ok(k) => k,
            Err(e) => {
                console::error(&format!("{}: {e}", p.display()));
                return ExitCode::from(2);
            }
        },
    };
    let opts = redact::Options {
        keep_oui,
        limits: limits.clone(),
        keywords,
    };
    let summary = match redact::redact(bundle, output, &opts, &mut map) {
        Ok(s) => s,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    if let Some(p) = map_path {
        if let Err(e) = redact::save_map(&map, p) {
            console::error(&format!("cannot write the map {}: {e}", p.display()));
            return ExitCode::from(2);
        }
    }
    if !quiet {
        let mut s = format!("{}\n", summary.headline());
        for (class, c) in &summary.classes {
            s.push_str(&format!(
                "  {class}: {} distinct, {} replaced\n",
                c.distinct, c.replaced
            ));
        }
        for (kind, n) in &summary.secrets {
            s.push_str(&format!("  secret {kind}: {n} removed\n"));
        }
        for d in &summary.dropped {
            s.push_str(&format!("  dropped {}: {}\n", d.path, d.reason));
        }
        if let Some(why) = &summary.stopped {
            s.push_str(&format!("warning: reading stopped early: {why}\n"));
        }
        s.push_str(&format!("written: {}\n", output.display()));
        console::out(&s);
    }
    if verify {
        return leak_scan(output, Some(&map), limits, quiet);
    }
    ExitCode::SUCCESS
}

/// The leak scan of a redacted bundle: 0 clean, 1 leaks (listed), 2 unreadable.
fn leak_scan(
    bundle: &Path,
    map: Option<&rca::redact::Map>,
    limits: &Limits,
    quiet: bool,
) -> ExitCode {
    let scanned = match rca::redact::verify::verify(bundle, map, limits) {
        Ok(s) => s,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let mut s = String::new();
    for l in &scanned.leaks {
        if l.value.is_empty() {
            s.push_str(&format!("{}:{}: {}\n", l.path, l.line, l.what));
        } else {
            s.push_str(&format!("{}:{}: {} {}\n", l.path, l.line, l.what, l.value));
        }
    }
    if !scanned.leaks.is_empty() {
        console::error_text(&s);
        console::error(&format!(
            "{} leak(s) in {}",
            scanned.leaks.len(),
            bundle.display()
        ));
        return ExitCode::from(1);
    }
    if !quiet {
        console::out(&format!(
            "verified: no original value{} and no secret in {} entries ({} bytes){}\n",
            if map.is_some() {
                ""
            } else {
                " (no --map: originals not sought)"
            },
            scanned.entries,
            scanned.bytes,
            if scanned.unscanned.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} entries not scanned (binary or unreadable)",
                    scanned.unscanned.len()
                )
            }
        ));
    }
    ExitCode::SUCCESS
}
