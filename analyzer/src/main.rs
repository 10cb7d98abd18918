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
    }
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
