//! Command line of `rca`. Exit status: 0 = no finding at warning or above, 1 = findings,
//! 2 = the bundle could not be analyzed (unreadable, unsupported, nothing parseable, no rule
//! could be evaluated) or a usage error.

use clap::{Args, Parser, Subcommand};
use rca::bundle::parse_size;
use rca::bundle::Limits;
use rca::report::{html, terminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Offline root-cause analyzer for Linux and JVM performance incidents.
#[derive(Parser)]
#[command(name = "rca", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze one bundle: a .tar.gz/.tgz, .tar, .zip, a directory (unpacked bundle, sosreport or
    /// loose command outputs) or a single file.
    Analyze {
        /// The bundle.
        bundle: PathBuf,
        #[command(flatten)]
        out: Outputs,
        #[command(flatten)]
        limits: LimitArgs,
    },
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
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze {
            bundle,
            out,
            limits,
        } => analyze(&bundle, &out, &limits.limits()),
    }
}

fn analyze(bundle: &Path, out: &Outputs, limits: &Limits) -> ExitCode {
    let report = match rca::analysis::analyze(bundle, limits) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rca: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &out.json {
        let json = serde_json::to_string_pretty(&report).expect("the report serialises");
        if let Err(e) = std::fs::write(path, json + "\n") {
            eprintln!("rca: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if let Some(path) = &out.html {
        let page = match html::render(&report) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("rca: internal error rendering the report (please report it): {e:#}");
                return ExitCode::from(2);
            }
        };
        if let Err(e) = std::fs::write(path, page) {
            eprintln!("rca: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if !out.quiet {
        print!("{}", terminal::summary(&report));
        for (what, p) in [("report", &out.html), ("json", &out.json)] {
            if let Some(p) = p {
                println!("{what}: {}", p.display());
            }
        }
    }
    if let Some(why) = rca::analysis::unanalyzable(&report) {
        eprintln!("rca: {} could not be analyzed: {why}", bundle.display());
        return ExitCode::from(2);
    }
    if report.actionable() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
