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

use clap::Parser;
use rca::bundle::Limits;
use rca::cli::{Cli, Command, CompareOutputs, DbArg, IndexFormat, Outputs};
use rca::console;
use rca::report::{html, terminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

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
    console::set_colour(cli.color);
    match cli.command {
        Command::Rules { json } => {
            if json {
                console::out(&rca::report::explain::list_json());
            } else {
                console::out_styled(&rca::report::explain::list());
            }
            ExitCode::SUCCESS
        }
        Command::Explain { id } => explain(&id),
        Command::Analyze {
            bundle,
            out,
            limits,
        } => analyze(&bundle, &out, &limits.limits()),
        Command::Parse {
            file,
            kind,
            pretty,
            limits,
        } => parse(&file, kind.as_deref(), pretty, &limits.limits()),
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
            bundle_timeout,
            limits,
        } => similar(&bundle, &db, k, json, bundle_timeout, &limits.limits()),
        Command::History {
            host,
            db,
            html,
            json,
        } => history(&host, &db, html.as_deref(), json),
        Command::Note { hash, text, db } => note(&hash, &text, &db),
        Command::Completions { shell } => {
            console::out_generated(&rca::cli::completions(shell));
            ExitCode::SUCCESS
        }
    }
}

/// The archive of `--db` opened on the current schema, its folder created; `None` after printing why.
fn open_db(db: &DbArg) -> Option<rusqlite::Connection> {
    let p = db.db.clone().unwrap_or_else(rca::archive::default_db);
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

/// `rca explain`: the rule's reference, or exit 2 naming the nearest ids.
fn explain(id: &str) -> ExitCode {
    use rca::report::explain;
    match explain::find(id) {
        Some(m) => {
            console::out_styled(&explain::explain(m, console::text_width()));
            ExitCode::SUCCESS
        }
        None => {
            let near = explain::nearest(id, 3);
            console::error(&if near.is_empty() {
                format!("no rule `{id}`; `rca rules` lists them")
            } else {
                format!(
                    "no rule `{id}`; nearest: {}; `rca rules` lists them all",
                    near.join(", ")
                )
            });
            ExitCode::from(2)
        }
    }
}

/// The document `rca parse` prints.
#[derive(serde::Serialize)]
struct ParseDoc<'a> {
    /// The kind's name (`iostat`).
    kind: &'static str,
    /// What produces it (`sysstat iostat -x`).
    source: &'static str,
    /// The parsed record, as [`parsers::kind::Data`] serialises it.
    records: Option<&'a parsers::kind::Data>,
    /// Lines that could not be read, `{line, message}`.
    issues: &'a [parsers::LineIssue],
}

/// `rca parse`: one file's kind, record and issues as one JSON document on standard output.
fn parse(file: &Path, kind: Option<&str>, pretty: bool, limits: &Limits) -> ExitCode {
    use parsers::kind::{by_name, KINDS};
    use rca::artifacts::{single, Outcome};
    let forced = match kind {
        None => None,
        Some(name) => match by_name(name) {
            Some(k) => Some(k),
            None => {
                let names: Vec<&str> = KINDS
                    .iter()
                    .filter(|k| k.parse.is_some())
                    .map(|k| k.name)
                    .collect();
                console::error(&format!(
                    "unknown kind `{name}`; the kinds rca parses: {}",
                    names.join(", ")
                ));
                return ExitCode::from(2);
            }
        },
    };
    let stdin = file == Path::new("-");
    let read = if stdin {
        single::read_stdin(std::io::stdin().lock(), forced, limits)
    } else {
        single::read_one(file, forced, limits)
    };
    let (a, summary) = match read {
        Ok(x) => x,
        Err(e) => {
            console::error(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let name = if stdin {
        single::STDIN_NAME.to_string()
    } else {
        file.display().to_string()
    };
    for w in &summary.warnings {
        console::error(&format!("{name}: {w}"));
    }
    if let Some(why) = &summary.stopped {
        console::error(&format!("{name}: reading stopped early: {why}"));
    }
    let failed = |why: &str| {
        console::error(&format!("{name}: {why}"));
        ExitCode::from(2)
    };
    let spec = match (&a.outcome, a.kind) {
        (Outcome::Parsed | Outcome::Partial, Some(k)) => k,
        (Outcome::Unrecognised { reason }, _) => {
            let no_name = if stdin {
                " (standard input has no file name to tell its kind by, only its content)"
            } else {
                ""
            };
            return failed(&format!(
                "{reason}{no_name}; name its kind with --kind (an unknown name lists the valid ones)"
            ));
        }
        (Outcome::Unusable { reason }, k) => {
            let what = k.map_or(String::new(), |k| format!(" as `{}`", k.name));
            return failed(&format!("could not be parsed{what}: {reason}"));
        }
        (Outcome::TooLarge { limit }, _) => {
            return failed(&format!(
                "larger than the {limit}-byte limit of one entry; if the file is trusted, raise it with --max-entry-size"
            ))
        }
        (Outcome::ParserBug { message, .. }, _) => return failed(message),
        (other, _) => return failed(&format!("not parsed ({})", other.label())),
    };
    let doc = ParseDoc {
        kind: spec.name,
        source: spec.source,
        records: a.data.as_ref(),
        issues: &a.issues,
    };
    if let Err(e) = console::json(&doc, pretty) {
        return failed(&format!(
            "internal error writing the record (please report it): {e}"
        ));
    }
    ExitCode::SUCCESS
}

/// `rca index`: the bundles analyzed and stored; a line per bundle on a terminal.
fn index(
    args: &[PathBuf],
    (db, format, out): (&DbArg, IndexFormat, Option<&Path>),
    opts: rca::archive::index::Options,
    quiet: bool,
) -> ExitCode {
    use rca::archive::{index::Sink, jsonl};
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
        #[cfg(feature = "parquet")]
        (IndexFormat::Parquet, Some(dir)) => match rca::archive::parquet::Dataset::create(dir) {
            Ok(d) => Box::new(d),
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        },
        #[cfg(not(feature = "parquet"))]
        (IndexFormat::Parquet, Some(_)) => {
            console::error("--format parquet: this rca was built without the Parquet writer (cargo feature `parquet`)");
            return ExitCode::from(2);
        }
        (IndexFormat::Jsonl, Some(file)) => match jsonl::Lines::create(file) {
            Ok(l) => Box::new(l),
            Err(e) => {
                console::error(&e);
                return ExitCode::from(2);
            }
        },
        _ => {
            let Some(c) = open_db(db) else {
                return ExitCode::from(2);
            };
            Box::new(rca::archive::index::Archive::new(conn.insert(c)))
        }
    };
    for k in &expanded.skipped {
        console::error(&format!("skipped: {}: {}", k.path, k.note));
    }
    let lines = !quiet && console::stderr_is_terminal();
    let bar = console::progress("index");
    let r = rca::archive::index::run(sink.as_mut(), &expanded.bundles, &opts, |p, what, i, n| {
        if lines {
            console::error_text(&format!("[{i}/{n}] {}: {what}\n", console::path(p)));
        }
    });
    drop(sink);
    drop(bar);
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
    let Some(conn) = open_db(db) else {
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
        console::json(&doc, true).expect("serialises");
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
fn similar(
    bundle: &str,
    db: &DbArg,
    k: usize,
    json: bool,
    timeout: Duration,
    limits: &Limits,
) -> ExitCode {
    use rca::archive::{index, similar::Probe};
    let Some(conn) = open_db(db) else {
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
                let deadline = rca::fleet::deadline_after(timeout);
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
        console::json(&found, true).expect("serialises");
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
    let Some(conn) = open_db(db) else {
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
        console::json(&h, true).expect("serialises");
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
    let Some(conn) = open_db(db) else {
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
    let bar = console::progress("diff");
    let b = rca::diff::load(baseline, limits, true);
    // A baseline that cannot be read is said together with the suspect's state, as before.
    let s = rca::diff::load(suspect, limits, true);
    drop(bar);
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
        console::out_styled(&rca::diff::terminal_styled(&report));
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
    let bar = console::progress("fleet");
    let (hosts, failed) = rca::fleet::load(&expanded.bundles, limits, timeout, jobs);
    drop(bar);
    let mut report = rca::fleet::compare(hosts, failed);
    report.skipped = expanded.skipped;
    if !out.quiet {
        console::out_styled(&rca::fleet::terminal_styled(&report));
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
    let bar = console::progress("analyze");
    let report = rca::report::Report::analyze(bundle, limits);
    drop(bar);
    let report = match report {
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
        console::out_styled(&terminal::styled(&report));
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
    let bar = console::progress("redact");
    let summary = redact::redact(bundle, output, &opts, &mut map);
    drop(bar);
    let summary = match summary {
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
