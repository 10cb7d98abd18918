//! The HTML pages opened in a real browser: headless Chromium, driven over the DevTools
//! protocol (`--remote-debugging-pipe`), with the network emulated offline.
//!
//! Every sample under `sample-bundles/` is rendered as a user would (`rca analyze` for a folder
//! holding bundles, `rca diff` for a folder with `baseline/` and `suspect/`), plus a generated
//! large bundle (256 CPUs, an artifact of 100 000 lines, findings with time ranges), a folder of
//! loose outputs captured years apart (one axis each) and a tree of 3 000 small files (the
//! coverage counted by kind and outcome). Each page
//! must load with no console error, no uncaught exception, no Content-Security-Policy violation
//! and no request beyond the file itself; its findings and charts must be visible, with the
//! script (filters, search, evidence links) and without it; and opening every artifact must not
//! widen the page.
//!
//! Chromium is Debian's `chromium` (`/usr/bin/chromium`, or `$RCA_CHROMIUM`). Without it each
//! test is skipped with one line, unless `RCA_HOST_TESTS=1` (CI), where a missing browser fails.
//! `RCA_SCREENSHOTS=DIR` also writes a screenshot of each sample's page to DIR (the README's
//! pictures: `RCA_SCREENSHOTS=docs cargo test -p rca --test host report_browser`).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The browser binary for `test`, or `None` (after its skip line) when it is missing.
fn chromium(test: &'static str) -> Option<PathBuf> {
    let p = std::env::var_os("RCA_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let what = format!("{} (Debian package chromium)", p.display());
    super::Needs::new(test)
        .that(p.exists(), &what)
        .met()
        .then_some(p)
}

/// A headless Chromium spoken to over the DevTools protocol on a pipe.
struct Browser {
    child: Child,
    input: ChildStdin,
    events: Receiver<Value>,
    next_id: u64,
    _profile: tempfile::TempDir,
    log: PathBuf,
}

impl Browser {
    fn launch(bin: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let log = profile.path().join("stderr.log");
        // The protocol runs on fds 3 (to the browser) and 4 (from it): the shell moves our
        // pipes there before starting the browser.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec 3<&0 4>&1 0</dev/null 1>&2; exec \"$0\" \"$@\"")
            .arg(bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-pipe",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--mute-audio",
                // No name resolves: nothing can leave the machine even if a request were made.
                "--host-resolver-rules=MAP * ~NOTFOUND",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start chromium");
        let input = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut buf = Vec::new();
            while r.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                if buf.last() == Some(&0) {
                    buf.pop();
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
                buf.clear();
            }
        });
        Browser {
            child,
            input,
            events: rx,
            next_id: 0,
            _profile: profile,
            log,
        }
    }

    /// Sends a command and waits for its result; events met meanwhile go to `seen`.
    fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        seen: &mut Vec<Value>,
    ) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).unwrap();
        self.input.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.events.recv_timeout(left).unwrap_or_else(|_| {
                panic!(
                    "no answer to {method} within 60 s; browser log:\n{}",
                    self.log_tail()
                )
            });
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method} failed: {}", v["error"]);
                return v["result"].clone();
            }
            seen.push(v);
        }
    }

    /// Waits for an event named `method` of `session`, collecting the others.
    fn wait_for(&mut self, session: &str, method: &str, seen: &mut Vec<Value>) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .events
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {method} within 60 s"));
            let hit = v["method"] == json!(method) && v["sessionId"] == json!(session);
            seen.push(v);
            if hit {
                return;
            }
        }
    }

    /// Events already queued, without waiting.
    fn drain(&mut self, seen: &mut Vec<Value>) {
        while let Ok(v) = self.events.try_recv() {
            seen.push(v);
        }
    }

    fn log_tail(&self) -> String {
        let t = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = t.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// Opens `file` in a new tab, offline, with or without scripts; returns the session id
    /// and the events of the load.
    fn open(&mut self, file: &Path, scripts: bool) -> (String, Vec<Value>) {
        let mut seen = Vec::new();
        let t = self.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank"}),
            &mut seen,
        );
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            &mut seen,
        );
        let s = a["sessionId"].as_str().unwrap().to_string();
        let sid = Some(s.as_str());
        for m in [
            "Page.enable",
            "Runtime.enable",
            "Log.enable",
            "Network.enable",
        ] {
            self.call(sid, m, json!({}), &mut seen);
        }
        self.call(
            sid,
            "Network.emulateNetworkConditions",
            json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
            &mut seen,
        );
        self.call(
            sid,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 1600, "deviceScaleFactor": 1, "mobile": false}),
            &mut seen,
        );
        if !scripts {
            // Without scripts, and in the dark theme: both must read.
            self.call(
                sid,
                "Emulation.setScriptExecutionDisabled",
                json!({"value": true}),
                &mut seen,
            );
            self.call(
                sid,
                "Emulation.setEmulatedMedia",
                json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
                &mut seen,
            );
        }
        // Records CSP violations from the first moment of the document (a script injected by
        // the protocol is not subject to the page's policy).
        self.call(
            sid,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": "window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"}),
            &mut seen,
        );
        let url = format!("file://{}", file.display());
        self.call(sid, "Page.navigate", json!({"url": url}), &mut seen);
        self.wait_for(&s, "Page.loadEventFired", &mut seen);
        (s, seen)
    }

    /// Evaluates `expr` (a promise is awaited) and returns its value.
    fn eval(&mut self, session: &str, expr: &str, seen: &mut Vec<Value>) -> Value {
        let r = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            seen,
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "evaluation failed: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    fn screenshot(&mut self, session: &str, to: &Path, seen: &mut Vec<Value>) {
        let r = self.call(
            Some(session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
            seen,
        );
        use base64::Engine as _;
        let png = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(to, png).unwrap();
    }

    fn close(&mut self, session: &str) {
        let mut seen = Vec::new();
        let _ = self.call(Some(session), "Page.close", json!({}), &mut seen);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What went wrong in the page, from the protocol's events: console errors, uncaught
/// exceptions, log entries at error level (CSP violations land there), requests for anything
/// but the page itself and failed loads.
fn problems(page: &Path, seen: &[Value]) -> Vec<String> {
    let me = format!("file://{}", page.display());
    let mut out = Vec::new();
    for e in seen {
        let p = &e["params"];
        match e["method"].as_str().unwrap_or("") {
            "Runtime.exceptionThrown" => out.push(format!(
                "uncaught: {}",
                p["exceptionDetails"]["exception"]["description"]
                    .as_str()
                    .or(p["exceptionDetails"]["text"].as_str())
                    .unwrap_or("?")
            )),
            "Runtime.consoleAPICalled"
                if matches!(p["type"].as_str(), Some("error" | "warning" | "assert")) =>
            {
                out.push(format!("console.{}: {}", p["type"], p["args"]))
            }
            "Log.entryAdded"
                if matches!(p["entry"]["level"].as_str(), Some("error" | "warning")) =>
            {
                out.push(format!(
                    "log {}: {}",
                    p["entry"]["source"], p["entry"]["text"]
                ))
            }
            "Network.requestWillBeSent" => {
                let url = p["request"]["url"].as_str().unwrap_or("");
                if url != me && !url.starts_with("data:") && url != "about:blank" {
                    out.push(format!("request: {url}"));
                }
            }
            "Network.loadingFailed" => out.push(format!("failed load: {}", p["errorText"])),
            _ => {}
        }
    }
    out
}

/// What the test reads from the page.
const CHECKS: &str = r#"(async () => {
  const vis = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const all = s => Array.from(document.querySelectorAll(s));
  const r = {
    js: document.documentElement.classList.contains('js'),
    violations: window.__violations || [],
    findings: all('article.finding').length,
    findings_visible: all('article.finding').filter(vis).length,
    cards_visible: all('article.card').filter(vis).length,
    charts: all('figure.chart').length,
    charts_visible: all('figure.chart svg').filter(e => vis(e) && e.getBoundingClientRect().height > 40).length,
    summary_visible: vis(document.getElementById('summary') || document.querySelector('header')),
    scripts: all('script').length,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    background: getComputedStyle(document.body).backgroundColor,
    axis_color: (() => { const t = document.querySelector('figure.chart svg text'); return t ? getComputedStyle(t).fill : null; })(),
  };
  // A link from evidence into the artifact viewer unfolds the artifact.
  const link = document.querySelector('a.open');
  if (link && r.js) {
    location.hash = link.getAttribute('href');
    await new Promise(f => setTimeout(f, 100));
    const t = document.getElementById(link.getAttribute('href').slice(1));
    r.link_opens = !!t && !!t.closest('details') && t.closest('details').open && vis(t);
  }
  // The severity filter hides what is unchecked.
  const box = document.querySelector('[data-filter] input[data-key=severity]');
  if (box && r.js) {
    box.click();
    r.filter_hides = all('article.finding[data-severity="' + box.value + '"]').every(e => !vis(e));
    box.click();
    r.filter_restores = all('article.finding').filter(vis).length === r.findings;
  }
  // The artifact search keeps matching rows only.
  const search = document.querySelector('[data-search-box] input[type=search]');
  if (search && r.js) {
    const rows = all('tr[data-search]');
    const want = rows[rows.length - 1].getAttribute('data-search').split(' ')[0];
    search.value = want;
    search.dispatchEvent(new Event('input'));
    await new Promise(f => setTimeout(f, 300));
    r.search_ok = rows.filter(vis).length >= 1 && rows.filter(vis).every(e => e.getAttribute('data-search').toLowerCase().includes(want.toLowerCase()));
    r.search_narrows = rows.length < 2 || rows.filter(vis).length < rows.length;
    search.value = '';
    search.dispatchEvent(new Event('input'));
    await new Promise(f => setTimeout(f, 300));
  }
  // Opening every fold, artifacts included, must not widen the page.
  // (Reading the sizes forces layout: no timer needed, and timers do not run with scripts off.)
  all('details').forEach(d => d.open = true);
  r.scroll_width = document.documentElement.scrollWidth;
  r.inner_width = window.innerWidth;
  r.height = document.documentElement.scrollHeight;
  all('details').forEach(d => d.open = false);
  window.scrollTo(0, 0);
  return r;
})()"#;

/// One page to check: its file and what it must show.
struct Page {
    name: String,
    html: PathBuf,
    /// Findings (analyze) the page must show; `None` for a diff page.
    findings: Option<usize>,
    /// At least this many drawn charts.
    charts: usize,
}

/// Runs `rca` from the repository's folder, sample paths relative to it (as the pages show them).
fn rca(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let args: Vec<&std::ffi::OsStr> = args
        .iter()
        .map(|a| {
            Path::new(a)
                .strip_prefix(repo())
                .map_or(*a, |p| p.as_os_str())
        })
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .current_dir(repo())
        .args(&args)
        .arg("-q")
        .output()
        .unwrap();
    // 2 only for the generated trees, whose few loose files are too thin to judge the host
    // (the page is still written and is what these tests open).
    let err = String::from_utf8_lossy(&o.stderr);
    let thin = o.status.code() == Some(2)
        && (err.contains("too little evidence") || err.contains("no rule could be evaluated"));
    assert!(
        matches!(o.status.code(), Some(0 | 1)) || thin,
        "rca {:?}: exit {:?}\n{}",
        args,
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Renders `rca analyze` of `bundle` into `out`.
fn analyze(name: &str, bundle: &Path, out: &Path) -> Page {
    let html = out.join(format!("{name}.html"));
    let json = out.join(format!("{name}.json"));
    rca(&[
        "analyze".as_ref(),
        bundle.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let c = &doc["charts"];
    let drawn_kinds = ["cpu", "disk", "nic", "swap"]
        .iter()
        .filter(|k| !c[**k].is_null())
        .count();
    Page {
        name: name.to_string(),
        html,
        findings: Some(doc["findings"].as_array().map_or(0, Vec::len)),
        charts: usize::from(drawn_kinds > 0),
    }
}

/// Renders `rca diff` of a pair folder into `out`.
fn diff(name: &str, baseline: &Path, suspect: &Path, out: &Path) -> Page {
    let html = out.join(format!("{name}.html"));
    rca(&[
        "diff".as_ref(),
        baseline.as_os_str(),
        suspect.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
    ]);
    Page {
        name: name.to_string(),
        html,
        findings: None,
        charts: 0,
    }
}

fn is_archive(p: &Path) -> bool {
    let n = p.file_name().unwrap_or_default().to_string_lossy();
    [".tar.gz", ".tgz", ".tar", ".zip"]
        .iter()
        .any(|e| n.ends_with(e))
}

/// The bundle a side folder holds: its only archive, else the folder itself.
fn side_bundle(dir: &Path) -> PathBuf {
    let archives: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && is_archive(p))
        .collect();
    match archives.as_slice() {
        [one] => one.clone(),
        _ => dir.to_path_buf(),
    }
}

/// Renders `rca fleet` of `bundles` into `out`.
fn fleet(bundles: &[PathBuf], out: &Path) -> Page {
    let html = out.join("fleet.html");
    let mut args: Vec<&std::ffi::OsStr> = vec!["fleet".as_ref()];
    args.extend(bundles.iter().map(|b| b.as_os_str()));
    args.extend(["-o".as_ref(), html.as_os_str()]);
    rca(&args);
    Page {
        name: "fleet".into(),
        html,
        findings: None,
        charts: 0,
    }
}

/// Every sample folder, rendered: a pair folder (`baseline/`, `suspect/`) as a diff, any other
/// folder's bundles each as an analysis, and, with three bundles or more, a fleet of them all.
fn sample_pages(out: &Path) -> Vec<Page> {
    let root = repo().join("sample-bundles");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut pages = Vec::new();
    let mut singles = Vec::new();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        let (b, s) = (d.join("baseline"), d.join("suspect"));
        if b.is_dir() && s.is_dir() {
            let (b, s) = (side_bundle(&b), side_bundle(&s));
            pages.push(diff(&name, &b, &s, out));
            singles.extend([b, s]);
            continue;
        }
        // Bundles: archives, and unpacked bundles (a folder with a collector manifest): the
        // sample folder itself or one of its subfolders.
        let mut archives: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                (p.is_file() && is_archive(p)) || (p.is_dir() && p.join("manifest.tsv").is_file())
            })
            .collect();
        if d.join("manifest.tsv").is_file() {
            archives.push(d.clone());
        }
        archives.sort();
        let many = archives.len() > 1;
        for (i, a) in archives.iter().enumerate() {
            let n = if many {
                format!("{name}-{}", i + 1)
            } else {
                name.clone()
            };
            pages.push(analyze(&n, a, out));
            singles.push(a.clone());
        }
    }
    if singles.len() >= 3 {
        pages.push(fleet(&singles, out));
    }
    pages
}

/// A large bundle made here: 256 CPUs (heatmaps) with soft-IRQ-saturated CPUs, a saturated
/// disk (a finding with a time range), and a log of 100 000 lines.
fn large_bundle(dir: &Path) -> PathBuf {
    let b = dir.join("large");
    std::fs::create_dir_all(b.join("sysstat")).unwrap();
    let steps = 60;
    let mut mp =
        String::from("Linux 6.1.0-18-amd64 (bighost) \t2026-01-02 \t_x86_64_\t(256 CPU)\n\n");
    for t in 0..steps {
        let ts = format!("10:00:{:02}", t);
        mp.push_str(&format!("{ts}     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"));
        for c in 0..256 {
            let soft = if c < 4 && t > 20 { 95.0 } else { 1.0 };
            let iow = if (t / 10) % 2 == 1 && c % 7 == 0 {
                30.0
            } else {
                0.0
            };
            let usr = (c % 13) as f64 * 2.0;
            let idle = 100.0 - soft - iow - usr - 2.0;
            mp.push_str(&format!("{ts}     {c:>3} {usr:7.2}    0.00    2.00 {iow:7.2}    0.00 {soft:7.2}    0.00    0.00    0.00 {idle:7.2}\n"));
        }
        mp.push('\n');
    }
    std::fs::write(b.join("sysstat/mpstat-P-ALL.txt"), mp).unwrap();
    let hdr = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util";
    let mut io =
        String::from("Linux 6.1.0-18-amd64 (bighost) \t2026-01-02 \t_x86_64_\t(256 CPU)\n\n");
    for t in 0..=steps {
        io.push_str(&format!("2026-01-02T10:00:{:02}+0000\navg-cpu:  %user   %nice %system %iowait  %steal   %idle\n          10.00    0.00    2.00    3.00    0.00   85.00\n\n{hdr}\n", t.min(59)));
        for d in ["sda", "sdb"] {
            let hot = d == "sdb" && t >= 15;
            let (aw, q, u) = if hot {
                (80.0, 12.5, 99.0)
            } else {
                (1.2, 0.1, 5.0)
            };
            io.push_str(&format!("{d:<12} 100.00 4000.00 0.00 0.00 {aw:7.2} 40.00 50.00 2000.00 0.00 0.00 {aw:7.2} 40.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 {q:7.2} {u:6.2}\n"));
        }
        io.push_str("\n\n");
    }
    std::fs::write(b.join("sysstat/iostat-x.txt"), io).unwrap();
    let log: String = (1..=100_000)
        .map(|i| {
            format!(
                "2026-01-02T10:00:00 app[{i}]: request {i} served in {} ms <b>&amp;</b>\n",
                i % 97
            )
        })
        .collect();
    std::fs::write(b.join("app.log"), log).unwrap();
    b
}

/// Opens each page with and without scripts and checks it.
fn check_pages(pages: &[Page]) {
    let Some(bin) = chromium("report_browser (harness)") else {
        return;
    };
    let shots = std::env::var_os("RCA_SCREENSHOTS").map(PathBuf::from);
    let mut browser = Browser::launch(&bin);
    let mut failures = Vec::new();
    for p in pages {
        for scripts in [true, false] {
            let what = format!(
                "{} ({})",
                p.name,
                if scripts { "script on" } else { "script off" }
            );
            let (s, mut seen) = browser.open(&p.html, scripts);
            let r = browser.eval(&s, CHECKS, &mut seen);
            // Pictures of the shipped samples only (the README shows them).
            if scripts && p.name != "large" {
                if let Some(dir) = &shots {
                    std::fs::create_dir_all(dir).unwrap();
                    let to = dir.join(format!("report-{}.png", p.name));
                    browser.screenshot(&s, &to, &mut seen);
                }
            }
            browser.drain(&mut seen);
            let mut bad = problems(&p.html, &seen);
            if let Some(v) = r["violations"].as_array().filter(|v| !v.is_empty()) {
                bad.push(format!("CSP violations: {v:?}"));
            }
            if r["scripts"] != json!(1) {
                bad.push(format!(
                    "{} script elements, expected the page's one",
                    r["scripts"]
                ));
            }
            if r["js"] != json!(scripts) {
                bad.push(format!("script ran: {}, expected {scripts}", r["js"]));
            }
            // The theme follows the system: a dark page, chart labels in its light text colour.
            let dark_bg = r["background"] == json!("rgb(20, 23, 26)");
            if r["dark"] == json!(!scripts) && dark_bg == scripts {
                bad.push(format!(
                    "background {} with dark = {}",
                    r["background"], r["dark"]
                ));
            }
            if !scripts
                && !r["axis_color"].is_null()
                && r["axis_color"] != json!("rgb(227, 230, 233)")
            {
                bad.push(format!("chart labels {} on the dark page", r["axis_color"]));
            }
            if !r["summary_visible"].as_bool().unwrap_or(false) {
                bad.push("summary not visible".into());
            }
            if let Some(n) = p.findings {
                if r["findings"] != json!(n) || r["findings_visible"] != json!(n) {
                    bad.push(format!(
                        "{n} findings expected, {} in the page, {} visible",
                        r["findings"], r["findings_visible"]
                    ));
                }
            } else if r["cards_visible"].as_u64().unwrap_or(0) == 0 {
                bad.push("no card visible".into());
            }
            if r["charts_visible"].as_u64().unwrap_or(0) < p.charts as u64 {
                bad.push(format!(
                    "{} chart(s) visible of {}, at least {} expected",
                    r["charts_visible"], r["charts"], p.charts
                ));
            }
            if scripts {
                for k in [
                    "link_opens",
                    "filter_hides",
                    "filter_restores",
                    "search_ok",
                    "search_narrows",
                ] {
                    if r.get(k).is_some_and(|v| v != &json!(true)) {
                        bad.push(format!("{k}: {}", r[k]));
                    }
                }
            }
            let (sw, iw) = (
                r["scroll_width"].as_u64().unwrap_or(0),
                r["inner_width"].as_u64().unwrap_or(0),
            );
            if sw > iw {
                bad.push(format!(
                    "page wider than the window with every fold open: {sw} > {iw} px"
                ));
            }
            if !bad.is_empty() {
                failures.push(format!("{what}:\n  {}", bad.join("\n  ")));
            }
            browser.close(&s);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sample_reports_open_cleanly_in_a_browser() {
    let _machine = crate::exclusive();
    if chromium("report_browser (samples)").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let pages = sample_pages(out.path());
    assert!(!pages.is_empty(), "no sample bundle under sample-bundles/");
    check_pages(&pages);
}

#[test]
fn large_report_opens_cleanly_in_a_browser() {
    let _machine = crate::exclusive();
    if chromium("report_browser (large)").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bundle = large_bundle(dir.path());
    let page = analyze("large", &bundle, dir.path());
    assert!(
        page.findings.unwrap_or(0) >= 2,
        "the large bundle has findings"
    );
    let html = std::fs::read_to_string(&page.html).unwrap();
    assert!(
        html.contains("chart-cpu-busy") && html.contains("chart-cpu-soft"),
        "heatmaps"
    );
    assert!(
        html.contains("Cut to fit the page"),
        "the long log is cut, with a note"
    );
    check_pages(&[Page { charts: 3, ..page }]);
}

/// A folder of loose outputs captured years apart (`iostat -x -t` of 2026-11-30 and sysstat's
/// own `sar -n DEV -n EDEV` test output of 2019-04-18, see `parsers/tests/fixtures/`), with the
/// kernel taint: two captures, each on its own axis.
fn captures_bundle(dir: &Path) -> PathBuf {
    let b = dir.join("captures");
    std::fs::create_dir_all(&b).unwrap();
    let fx = repo().join("parsers/tests/fixtures");
    std::fs::copy(fx.join("captured/iostat-x-t-iso.txt"), b.join("iostat.txt")).unwrap();
    std::fs::copy(
        fx.join("sar/sysstat-tests__sar-n-DEV-EDEV.txt"),
        b.join("sar_-n_DEV.txt"),
    )
    .unwrap();
    // A rule to evaluate, so that `rca` has something to conclude.
    std::fs::copy(
        fx.join("tainted/hotsos__proc-sys-kernel-tainted-4097.txt"),
        b.join("tainted"),
    )
    .unwrap();
    b
}

/// A sosreport-shaped tree of 3 000 small files beside a real `iostat -x` and kernel taint: past
/// the coverage section's full listing, so the page counts them by kind and outcome.
fn many_files_bundle(dir: &Path) -> PathBuf {
    let b = dir.join("many");
    let fx = repo().join("parsers/tests/fixtures");
    std::fs::create_dir_all(b.join("sos_commands/sysstat")).unwrap();
    std::fs::copy(
        fx.join("captured/iostat-x-t-iso.txt"),
        b.join("sos_commands/sysstat/iostat_-x"),
    )
    .unwrap();
    std::fs::copy(
        fx.join("tainted/hotsos__proc-sys-kernel-tainted-4097.txt"),
        b.join("tainted"),
    )
    .unwrap();
    for i in 0..3000 {
        let rel = match i % 3 {
            0 => format!("proc/{}/wchan", 100 + i),
            1 => format!("sos_commands/process/lsof_{i:05}"),
            _ => format!("etc/sysconfig/item-{i:05}"),
        };
        let p = b.join(&rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, format!("test filler for {rel} <&>\n")).unwrap();
    }
    b
}

#[test]
fn captures_far_apart_and_many_files_open_cleanly_in_a_browser() {
    let _machine = crate::exclusive();
    if chromium("report_browser (captures, many files)").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let captures = analyze("captures", &captures_bundle(dir.path()), dir.path());
    let html = std::fs::read_to_string(&captures.html).unwrap();
    assert!(html.contains("id=\"capture-2\"") && html.contains("id=\"chart-disk-await-s2\""));
    let many = analyze("many", &many_files_bundle(dir.path()), dir.path());
    let html = std::fs::read_to_string(&many.html).unwrap();
    assert!(html.contains("id=\"coverage-summary\""));
    check_pages(&[
        Page {
            charts: 2,
            ..captures
        },
        Page { charts: 1, ..many },
    ]);
}

#[test]
fn the_harness_sees_violations() {
    let _machine = crate::exclusive();
    let Some(bin) = chromium("report_browser (harness)") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">\
         <p>x</p><img src=\"http://example.invalid/x.png\"><script>console.error('boom')</script>",
    )
    .unwrap();
    let mut b = Browser::launch(&bin);
    let (s, mut seen) = b.open(&page, true);
    let r = b.eval(&s, "window.__violations", &mut seen);
    b.drain(&mut seen);
    let bad = problems(&page, &seen);
    assert!(
        r.as_array().is_some_and(|v| v.len() >= 2),
        "both the image and the script are reported as violations: {r}"
    );
    assert!(
        bad.iter().any(|p| p.contains("Content Security Policy")),
        "the console error of a violation is seen: {bad:?}"
    );
}
