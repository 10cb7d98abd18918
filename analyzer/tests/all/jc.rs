//! rca's parsers against jc's: the outputs jc's own tests parse (`tests/fixtures/<os>/*.out`,
//! copied with their expected `.json` into `tests/fixtures/jc/`, provenance in its
//! `PROVENANCE.md`) are read the way `rca parse` reads a file ([`read_one`]: the bundle reader,
//! then kind detection as for a loose file, then the kind's parser), the record serialised as
//! `rca parse` prints it, and every field both tools give is compared value by value with jc's.
//!
//! Names are mapped (jc `percent_util` is our `util_pct`); units are converted where the two
//! differ (said at each mapping). A field whose values differ on purpose is listed in
//! `docs/jc-comparison.md`; the test finds the differing fields and asserts that they are
//! exactly the ones that table lists, so a new divergence fails, and so does a listed one that
//! went away.

use rca::artifacts::single::read_one;
use rca::artifacts::Outcome;
use rca::bundle::Limits;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jc")
}

/// The comparison of one command's fixtures: how many values of each field were compared, and
/// the fields whose values differ (with the first difference, for the failure message).
#[derive(Default)]
struct Tally {
    compared: BTreeMap<(String, String), usize>,
    differ: BTreeMap<(String, String), String>,
}

/// Compares values of one fixture of one command.
struct Cmp<'a> {
    tally: &'a mut Tally,
    command: &'static str,
    fixture: &'static str,
}

/// Whether two JSON values mean the same: numbers equal as `f64` (jc writes `0.0` where rca
/// writes `0`), an absent jc key the same as `null`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

impl Cmp<'_> {
    /// Compares jc's `field` with rca's value `ours` (named `rca` in the table).
    fn eq(&mut self, field: &str, jc: &Value, ours: Value) {
        let key = (self.command.to_string(), field.to_string());
        *self.tally.compared.entry(key.clone()).or_default() += 1;
        if !same(jc, &ours) {
            self.tally
                .differ
                .entry(key)
                .or_insert_with(|| format!("{}: jc {jc}, rca {ours}", self.fixture));
        }
    }

    /// Compares every `(jc key, rca key)` of `map` between two objects, for the keys jc wrote
    /// (jc leaves out the columns a version of the tool does not print: `avgqu-sz` or
    /// `aqu-sz`).
    fn fields(&mut self, jc: &Value, ours: &Value, map: &[(&str, &str)]) {
        for (j, r) in map {
            if let Some(v) = jc.get(*j) {
                self.eq(j, v, ours[*r].clone());
            }
        }
    }

    /// Compares the number of rows.
    fn rows(&mut self, jc: usize, ours: usize) {
        self.eq("(rows)", &Value::from(jc), Value::from(ours));
    }
}

/// One jc fixture: the command jc names it by, its path under `fixtures/jc` without `.out`,
/// the kind rca must detect, and how the two records are compared.
struct Case {
    command: &'static str,
    fixture: &'static str,
    kind: &'static str,
    /// Whether the kind must be named (`rca parse --kind`): a file named `uptime` or `vmstat` is
    /// the command's output by the path table, and `/proc/loadavg` is known by its place only.
    forced: bool,
    compare: fn(&mut Cmp<'_>, &Value, &Value),
}

/// The `.out` file of a fixture (the `linux-proc` ones have no suffix).
fn input_of(fixture: &str) -> PathBuf {
    let out = fixtures().join(format!("{fixture}.out"));
    if out.exists() {
        out
    } else {
        fixtures().join(fixture)
    }
}

/// rca's record of `input` (read as `forced` if given), as `rca parse` prints it, and its kind.
fn ours(input: &Path, forced: Option<&str>) -> (String, Value) {
    let forced = forced.map(|k| parsers::kind::by_name(k).unwrap());
    let (a, _) = read_one(input, forced, &Limits::default()).unwrap();
    assert!(
        matches!(a.outcome, Outcome::Parsed | Outcome::Partial),
        "{}: {:?} {:?}",
        input.display(),
        a.outcome,
        a.issues
    );
    (
        a.kind_name().unwrap_or("").to_string(),
        serde_json::to_value(a.data.as_ref().unwrap()).unwrap(),
    )
}

// ---- free ----

fn free(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // Both in KiB: `free` prints KiB by default, jc keeps the number, rca names the unit.
    let rows = jc.as_array().unwrap();
    c.rows(
        rows.len(),
        ["mem", "swap"]
            .iter()
            .filter(|r| !ours[**r].is_null())
            .count(),
    );
    for row in rows {
        let ty = row["type"].as_str().unwrap();
        let o = &ours[ty.to_lowercase()];
        c.fields(
            row,
            o,
            &[
                ("total", "total_kib"),
                ("used", "used_kib"),
                ("free", "free_kib"),
                ("shared", "shared_kib"),
                ("buff_cache", "buff_cache_kib"),
                ("buffers", "buffers_kib"),
                ("cache", "cache_kib"),
                ("available", "available_kib"),
            ],
        );
    }
}

// ---- vmstat ----

fn vmstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let samples = ours["samples"].as_array().unwrap();
    c.rows(jc.len(), samples.len());
    for (j, o) in jc.iter().zip(samples) {
        c.fields(
            j,
            o,
            &[
                ("runnable_procs", "r"),
                ("uninterruptible_sleeping_procs", "b"),
                ("virtual_mem_used", "swpd"),
                ("free_mem", "free"),
                ("buffer_mem", "buff"),
                ("cache_mem", "cache"),
                ("inactive_mem", "inact"),
                ("active_mem", "active"),
                ("swap_in", "si"),
                ("swap_out", "so"),
                ("blocks_in", "bi"),
                ("blocks_out", "bo"),
                ("interrupts", "in_"),
                ("context_switches", "cs"),
                ("user_time", "us"),
                ("system_time", "sy"),
                ("idle_time", "id"),
                ("io_wait_time", "wa"),
                ("stolen_time", "st"),
            ],
        );
        // jc's `timestamp` is the printed `YYYY-MM-DD HH:MM:SS`; rca's the seconds of the day.
        let printed = j["timestamp"].as_str().map(|t| {
            let hms: Vec<u32> = t[t.len() - 8..]
                .split(':')
                .map(|x| x.parse().unwrap())
                .collect();
            Value::from(hms[0] * 3600 + hms[1] * 60 + hms[2])
        });
        c.eq(
            "timestamp",
            &printed.unwrap_or(Value::Null),
            o["time"]["seconds_of_day"].clone(),
        );
        c.eq("timezone", &j["timezone"], ours["timezone"].clone());
    }
}

// ---- mpstat ----

/// rca's CPU id as jc writes it (`all`, `0`).
fn cpu_id(v: &Value) -> Value {
    match v {
        Value::String(s) if s == "All" => Value::from("all"),
        Value::Object(m) => Value::from(m["Cpu"].to_string()),
        other => other.clone(),
    }
}

fn mpstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // jc lists the CPU rows of every interval (`type: cpu`), then the interrupt tables of
    // `-A` (`type: interrupts`, `soft_interrupts`), which rca does not read; averages are
    // `time: null`... compared where both have them.
    let jc_rows: Vec<&Value> = jc
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["type"] == "cpu")
        .collect();
    let mut ours_rows: Vec<&Value> = Vec::new();
    for i in ours["intervals"].as_array().unwrap() {
        ours_rows.extend(i["rows"].as_array().unwrap());
    }
    ours_rows.extend(ours["averages"].as_array().unwrap());
    c.rows(jc_rows.len(), ours_rows.len());
    for (j, o) in jc_rows.iter().zip(ours_rows) {
        c.eq("cpu", &j["cpu"], cpu_id(&o["cpu"]));
        c.fields(
            j,
            o,
            &[
                ("percent_usr", "usr_pct"),
                ("percent_nice", "nice_pct"),
                ("percent_sys", "sys_pct"),
                ("percent_iowait", "iowait_pct"),
                ("percent_irq", "irq_pct"),
                ("percent_soft", "soft_pct"),
                ("percent_steal", "steal_pct"),
                ("percent_guest", "guest_pct"),
                ("percent_gnice", "gnice_pct"),
                ("percent_idle", "idle_pct"),
            ],
        );
    }
}

// ---- iostat ----

fn iostat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let jc_cpu: Vec<&Value> = jc.iter().filter(|r| r["type"] == "cpu").collect();
    let jc_dev: Vec<&Value> = jc.iter().filter(|r| r["type"] == "device").collect();
    let reports = ours["reports"].as_array().unwrap();
    let our_cpu: Vec<&Value> = reports
        .iter()
        .map(|r| &r["avg_cpu"])
        .filter(|c| !c.is_null())
        .collect();
    let our_dev: Vec<&Value> = reports
        .iter()
        .flat_map(|r| r["devices"].as_array().unwrap())
        .collect();
    c.rows(jc_cpu.len() + jc_dev.len(), our_cpu.len() + our_dev.len());
    for (j, o) in jc_cpu.iter().zip(our_cpu) {
        c.fields(
            j,
            o,
            &[
                ("percent_user", "user_pct"),
                ("percent_nice", "nice_pct"),
                ("percent_system", "system_pct"),
                ("percent_iowait", "iowait_pct"),
                ("percent_steal", "steal_pct"),
                ("percent_idle", "idle_pct"),
            ],
        );
    }
    for (j, o) in jc_dev.iter().zip(our_dev) {
        c.eq("device", &j["device"], o["device"].clone());
        c.fields(
            j,
            o,
            &[
                ("tps", "tps"),
                ("kb_read_s", "rkb_per_s"),
                ("kb_wrtn_s", "wkb_per_s"),
                ("rrqm_s", "rrqm_per_s"),
                ("wrqm_s", "wrqm_per_s"),
                ("r_s", "r_per_s"),
                ("w_s", "w_per_s"),
                ("rkb_s", "rkb_per_s"),
                ("wkb_s", "wkb_per_s"),
                ("avgqu_sz", "aqu_sz"),
                ("aqu_sz", "aqu_sz"),
                ("await", "await_col_ms"),
                ("r_await", "r_await_ms"),
                ("w_await", "w_await_ms"),
                ("svctm", "svctm_ms"),
                ("percent_util", "util_pct"),
                ("rareq_sz", "rareq_sz_kb"),
                ("wareq_sz", "wareq_sz_kb"),
                ("percent_rrqm", "rrqm_pct"),
                ("percent_wrqm", "wrqm_pct"),
            ],
        );
        // `-m`: jc keeps MB/s, rca converts to kB/s (× 1024).
        for (jk, rk) in [("mb_read_s", "rkb_per_s"), ("mb_wrtn_s", "wkb_per_s")]
            .into_iter()
            .chain([("rmb_s", "rkb_per_s"), ("wmb_s", "wkb_per_s")])
        {
            if !j[jk].is_null() {
                let kb = o[rk].as_f64().map(|v| Value::from(v / 1024.0));
                c.eq(jk, &j[jk], kb.unwrap_or(Value::Null));
            }
        }
        // `avgrq-sz` (before sysstat 11.5.7) is in 512-byte sectors; rca's areq_sz in kB.
        if !j["avgrq_sz"].is_null() {
            let sectors = o["areq_sz_kb"].as_f64().map(|v| Value::from(v * 2.0));
            c.eq("avgrq_sz", &j["avgrq_sz"], sectors.unwrap_or(Value::Null));
        }
    }
}

// ---- uname ----

fn uname(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    c.fields(
        jc,
        ours,
        &[
            ("kernel_name", "kernel_name"),
            ("node_name", "nodename"),
            ("kernel_release", "release"),
            ("kernel_version", "version"),
            ("machine", "machine"),
            ("operating_system", "os"),
        ],
    );
}

// ---- lsmod and /proc/modules ----

fn modules(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let ours = ours.as_array().unwrap();
    c.rows(jc.len(), ours.len());
    for (j, o) in jc.iter().zip(ours) {
        c.fields(
            j,
            o,
            &[
                ("module", "name"),
                ("size", "size_bytes"),
                ("used", "refcount"),
            ],
        );
        // lsmod's `by` (absent when empty), /proc/modules' `used_by` (always there).
        let by = if j.get("used_by").is_some() {
            j["used_by"].clone()
        } else {
            j.get("by").cloned().unwrap_or(Value::Array(Vec::new()))
        };
        c.eq("used_by", &by, o["used_by"].clone());
        if j.get("status").is_some() {
            c.eq("status", &j["status"], o["state"].clone());
            // jc keeps the address as printed, rca the number.
            let addr = j["location"]
                .as_str()
                .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok());
            c.eq("location", &Value::from(addr), o["address"].clone());
        }
    }
}

// ---- uptime ----

fn uptime(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    c.eq("time", &jc["time"], ours["time_of_day"].clone());
    c.eq("users", &jc["users"], ours["users"].clone());
    c.eq(
        "uptime_total_seconds",
        &jc["uptime_total_seconds"],
        ours["seconds"].clone(),
    );
    for (i, k) in ["load_1m", "load_5m", "load_15m"].iter().enumerate() {
        c.eq(k, &jc[*k], ours["load_average"][i].clone());
    }
}

// ---- pidstat ----

fn pidstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let mut rows: Vec<&Value> = ours["rows"].as_array().unwrap().iter().collect();
    rows.extend(ours["averages"].as_array().unwrap());
    c.rows(jc.len(), rows.len());
    for (j, o) in jc.iter().zip(rows) {
        // `-h`: jc's `time` is the epoch seconds printed.
        c.eq("time", &j["time"], o["epoch"].clone());
        c.fields(
            j,
            o,
            &[
                ("uid", "uid"),
                ("pid", "pid"),
                ("tgid", "tgid"),
                ("tid", "tid"),
                ("percent_usr", "usr_pct"),
                ("percent_system", "system_pct"),
                ("percent_guest", "guest_pct"),
                ("percent_wait", "wait_pct"),
                ("percent_cpu", "cpu_pct"),
                ("cpu", "cpu"),
                ("minflt_s", "minflt_per_s"),
                ("majflt_s", "majflt_per_s"),
                ("vsz", "vsz_kb"),
                ("rss", "rss_kb"),
                ("percent_mem", "mem_pct"),
                ("stksize", "stksize_kb"),
                ("stkref", "stkref_kb"),
                ("kb_rd_s", "kb_rd_per_s"),
                ("kb_wr_s", "kb_wr_per_s"),
                ("kb_ccwr_s", "kb_ccwr_per_s"),
                ("iodelay", "iodelay"),
                ("cswch_s", "cswch_per_s"),
                ("nvcswch_s", "nvcswch_per_s"),
                ("command", "command"),
            ],
        );
    }
}

// ---- sysctl, os-release ----

/// jc turns a value that reads as a number into one; rca keeps the text.
fn as_text(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::from(n.to_string()),
        other => other.clone(),
    }
}

fn sysctl(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // A value printed over several lines (`dev.cdrom.info`) is one `key = line` per line: rca
    // keeps an entry per line, jc one value of the lines joined by newlines; joined here the
    // same way.
    let mut values: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in ours["entries"].as_array().unwrap() {
        values
            .entry(e["key"].as_str().unwrap())
            .or_default()
            .push(e["value"].as_str().unwrap());
    }
    let jc = jc.as_object().unwrap();
    c.rows(jc.len(), values.len());
    for (key, lines) in values {
        c.eq(
            "<value>",
            &as_text(jc.get(key).unwrap_or(&Value::Null)),
            Value::from(lines.join("\n")),
        );
    }
}

fn os_release(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_object().unwrap();
    let fields = ours["fields"].as_object().unwrap();
    c.rows(jc.len(), fields.len());
    for (k, v) in jc {
        c.eq("<key>", v, fields.get(k).cloned().unwrap_or(Value::Null));
    }
}

// ---- df, mount, swapon ----

fn df(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let rows = ours["rows"].as_array().unwrap();
    c.rows(jc.len(), rows.len());
    // jc keeps 1K-blocks, rca converts to bytes (÷ 1024 here).
    let kib = |v: &Value| v.as_f64().map_or(Value::Null, |b| Value::from(b / 1024.0));
    for (j, o) in jc.iter().zip(rows) {
        c.fields(
            j,
            o,
            &[
                ("filesystem", "filesystem"),
                ("use_percent", "use_pct"),
                ("mounted_on", "mount"),
            ],
        );
        c.eq("1k_blocks", &j["1k_blocks"], kib(&o["total"]));
        c.eq("used", &j["used"], kib(&o["used"]));
        c.eq("available", &j["available"], kib(&o["avail"]));
    }
}

fn mount(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let rows = ours["entries"].as_array().unwrap();
    c.rows(jc.len(), rows.len());
    for (j, o) in jc.iter().zip(rows) {
        c.fields(
            j,
            o,
            &[
                ("filesystem", "source"),
                ("mount_point", "mount_point"),
                ("type", "fstype"),
                ("options", "options"),
            ],
        );
    }
}

fn swapon(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let areas = ours["areas"].as_array().unwrap();
    c.rows(jc.len(), areas.len());
    // jc gives bytes, rca KiB (× 1024 here).
    let bytes = |v: &Value| v.as_f64().map_or(Value::Null, |k| Value::from(k * 1024.0));
    for (j, o) in jc.iter().zip(areas) {
        c.fields(
            j,
            o,
            &[
                ("name", "name"),
                ("type", "kind"),
                ("priority", "priority"),
                ("uuid", "uuid"),
            ],
        );
        c.eq("size", &j["size"], bytes(&o["size_kib"]));
        c.eq("used", &j["used"], bytes(&o["used_kib"]));
    }
}

// ---- ntpq ----

fn ntpq(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let peers = ours["peers"].as_array().unwrap();
    c.rows(jc.len(), peers.len());
    for (j, o) in jc.iter().zip(peers) {
        c.fields(
            j,
            o,
            &[
                ("state", "tally"),
                ("remote", "remote"),
                ("refid", "refid"),
                ("st", "stratum"),
                ("t", "kind"),
                ("when", "when_s"),
                ("poll", "poll_s"),
                ("delay", "delay_ms"),
                ("offset", "offset_ms"),
                ("jitter", "jitter_ms"),
            ],
        );
        // `reach` is octal as printed: jc reads the digits as a decimal number, rca keeps them.
        c.eq("reach", &as_text(&j["reach"]), o["reach"].clone());
    }
}

// ---- ss, netstat ----

fn ss(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let socks = ours["sockets"].as_array().unwrap();
    c.rows(jc.len(), socks.len());
    for (j, o) in jc.iter().zip(socks) {
        c.fields(
            j,
            o,
            &[
                ("netid", "netid"),
                ("state", "state"),
                ("recv_q", "recv_q"),
                ("send_q", "send_q"),
            ],
        );
        for (side, ours_side) in [("local", "local"), ("peer", "peer")] {
            let addr = format!("{side}_address");
            if j.get(&addr).is_some() {
                c.eq(&addr, &j[&addr], o[ours_side]["host"].clone());
            }
            let port = format!("{side}_port");
            if j.get(&port).is_some() {
                c.eq(&port, &j[&port], o[ours_side]["port"].clone());
            }
        }
    }
}

fn netstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc: Vec<&Value> = jc
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "network")
        .collect();
    let inet = ours["inet"].as_array().unwrap();
    c.rows(jc.len(), inet.len());
    for (j, o) in jc.iter().zip(inet) {
        c.fields(
            j,
            o,
            &[
                ("proto", "proto"),
                ("recv_q", "recv_q"),
                ("send_q", "send_q"),
                ("state", "state"),
                ("user", "user"),
                ("inode", "inode"),
            ],
        );
        c.eq(
            "local_address",
            &j["local_address"],
            o["local"]["host"].clone(),
        );
        c.eq("local_port", &j["local_port"], o["local"]["port"].clone());
        c.eq(
            "foreign_address",
            &j["foreign_address"],
            o["foreign"]["host"].clone(),
        );
        c.eq(
            "foreign_port",
            &j["foreign_port"],
            o["foreign"]["port"].clone(),
        );
    }
}

// ---- ps, timedatectl ----

fn ps(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // `ps aux` (jc `user`, `cpu_percent`, `command`) and `ps -ef` (`uid`, `c`, `cmd`): the same
    // rca fields. VSZ and RSS are KiB in both; `ps -ef`'s `C` is the CPU percentage as an
    // integer (ps(1)).
    let jc = jc.as_array().unwrap();
    let procs = ours["processes"].as_array().unwrap();
    c.rows(jc.len(), procs.len());
    for (j, o) in jc.iter().zip(procs) {
        c.fields(
            j,
            o,
            &[
                ("user", "user"),
                ("uid", "user"),
                ("pid", "pid"),
                ("ppid", "ppid"),
                ("cpu_percent", "cpu_pct"),
                ("c", "cpu_pct"),
                ("mem_percent", "mem_pct"),
                ("vsz", "vsz_kib"),
                ("rss", "rss_kib"),
                ("tty", "tty"),
                ("stat", "stat"),
                ("start", "start"),
                ("stime", "start"),
                ("time", "time"),
                ("command", "args"),
                ("cmd", "args"),
            ],
        );
    }
}

fn timedatectl(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // systemd 219 (CentOS 7) prints `NTP enabled` / `NTP synchronized`, 237 (Ubuntu 18.04)
    // `systemd-timesyncd.service active` / `System clock synchronized`, later ones `NTP
    // service: active`; jc keeps each name, rca reads them as `ntp_service_active` and
    // `synchronized`.
    c.fields(
        jc,
        ours,
        &[
            ("local_time", "local_time"),
            ("universal_time", "universal_time"),
            ("rtc_time", "rtc_time"),
            ("time_zone", "time_zone"),
            ("ntp_enabled", "ntp_service_active"),
            ("systemd-timesyncd.service_active", "ntp_service_active"),
            ("ntp_synchronized", "synchronized"),
            ("system_clock_synchronized", "synchronized"),
            ("rtc_in_local_tz", "rtc_in_local_tz"),
            ("dst_active", "dst_active"),
        ],
    );
    if let Some(v) = jc["ntp_service"].as_str() {
        c.eq(
            "ntp_service",
            &Value::from(v == "active"),
            ours["ntp_service_active"].clone(),
        );
    }
}

// ---- top ----

/// KiB per unit of the memory values a `top -b` output prints: the summary's (`KiB Mem`,
/// `MiB Mem`, `GiB Mem`) and the process table's (a `m` or `g` after `VIRT`'s number, or
/// none). jc keeps the printed numbers without their unit, rca converts them to KiB.
fn top_units(fixture: &str) -> (f64, f64) {
    let text = std::fs::read_to_string(input_of(fixture)).unwrap();
    let scale = |u: &str| match u {
        "m" | "MiB" => 1024.0,
        "g" | "GiB" => 1024.0 * 1024.0,
        _ => 1.0,
    };
    let summary = text
        .lines()
        .find_map(|l| l.split_once(" Mem :").map(|(u, _)| u))
        .map_or(1.0, scale);
    let mut lines = text.lines();
    lines.find(|l| l.trim_start().starts_with("PID USER"));
    let virt = lines.next().unwrap().split_whitespace().nth(4).unwrap();
    let suffix = virt.trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    (summary, scale(suffix))
}

/// A KiB value in the unit top printed, rounded to the one decimal it prints.
fn in_unit(kib: &Value, unit: f64) -> Value {
    kib.as_f64().map_or(Value::Null, |v| {
        Value::from((v / unit * 10.0).round() / 10.0)
    })
}

/// Minutes of an uptime as top prints it: `2 min`, `1:08` (hours and minutes), `3 days,  1:08`.
fn uptime_minutes(printed: &str) -> Option<u64> {
    let mut minutes = 0;
    for part in printed.split(',').map(str::trim) {
        if let Some(d) = part.strip_suffix(" days").or(part.strip_suffix(" day")) {
            minutes += d.parse::<u64>().ok()? * 24 * 60;
        } else if let Some(m) = part.strip_suffix(" min") {
            minutes += m.parse::<u64>().ok()?;
        } else {
            let (h, m) = part.split_once(':')?;
            minutes += h.parse::<u64>().ok()? * 60 + m.parse::<u64>().ok()?;
        }
    }
    Some(minutes)
}

fn top(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let (summary_unit, proc_unit) = top_units(c.fixture);
    let jc = jc.as_array().unwrap();
    let frames = ours["frames"].as_array().unwrap();
    c.rows(jc.len(), frames.len());
    for (j, f) in jc.iter().zip(frames) {
        c.eq("time", &j["time"], f["time"].clone());
        // jc's `uptime` is an integer; rca keeps the text, read here as minutes.
        let minutes = f["uptime"].as_str().and_then(uptime_minutes);
        c.eq("uptime", &j["uptime"], Value::from(minutes));
        c.eq("users", &j["users"], f["users"].clone());
        for (i, k) in ["load_1m", "load_5m", "load_15m"].iter().enumerate() {
            c.eq(k, &j[*k], f["load"][i].clone());
        }
        for k in ["total", "running", "sleeping", "stopped", "zombie"] {
            let jk = format!("tasks_{k}");
            c.eq(&jk, &j[&jk], f["tasks"][k].clone());
        }
        c.fields(
            j,
            &f["cpu"],
            &[
                ("cpu_user", "us"),
                ("cpu_sys", "sy"),
                ("cpu_nice", "ni"),
                ("cpu_idle", "id"),
                ("cpu_wait", "wa"),
                ("cpu_hardware", "hi"),
                ("cpu_software", "si"),
                ("cpu_steal", "st"),
            ],
        );
        for (jk, section, rk) in [
            ("mem_total", "mem", "total_kib"),
            ("mem_free", "mem", "free_kib"),
            ("mem_used", "mem", "used_kib"),
            ("mem_buff_cache", "mem", "buff_cache_kib"),
            ("swap_total", "swap", "total_kib"),
            ("swap_free", "swap", "free_kib"),
            ("swap_used", "swap", "used_kib"),
            ("mem_available", "swap", "avail_kib"),
        ] {
            c.eq(jk, &j[jk], in_unit(&f[section][rk], summary_unit));
        }
        let jp = j["processes"].as_array().unwrap();
        let procs = f["processes"].as_array().unwrap();
        c.rows(jp.len(), procs.len());
        for (jp, o) in jp.iter().zip(procs) {
            c.fields(
                jp,
                o,
                &[
                    ("pid", "pid"),
                    ("user", "user"),
                    ("nice", "ni"),
                    ("percent_cpu", "cpu_pct"),
                    ("percent_mem", "mem_pct"),
                    ("time_hundredths", "time"),
                    ("command", "command"),
                ],
            );
            // jc makes `PR` a number (`rt` is none); rca keeps it as printed.
            let pr = o["pr"].as_str().and_then(|p| p.parse::<i64>().ok());
            c.eq("priority", &jp["priority"], Value::from(pr));
            for (jk, rk) in [
                ("virtual_mem", "virt_kib"),
                ("resident_mem", "res_kib"),
                ("shared_mem", "shr_kib"),
            ] {
                c.eq(jk, &jp[jk], in_unit(&o[rk], proc_unit));
            }
            // jc names the state (top(1)'s words), rca keeps top's letter.
            let state = match o["state"].as_str() {
                Some("D") => "uninterruptible sleep",
                Some("I") => "idle",
                Some("R") => "running",
                Some("S") => "sleeping",
                Some("T") => "stopped by job control signal",
                Some("t") => "stopped by debugger during trace",
                Some("Z") => "zombie",
                _ => "",
            };
            c.eq("status", &jp["status"], Value::from(state));
        }
    }
}

// ---- lsblk ----

fn lsblk(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // Both turn the printed size (`1.4M`, `0B`) into bytes; jc keeps the printed text too
    // (`size`, `disc_gran`), which rca does not. `RA` is KiB in both. rca keeps a list of mount
    // points (one here), jc the one printed. A blank cell is `null` in both.
    let jc = jc.as_array().unwrap();
    let devices = ours["devices"].as_array().unwrap();
    c.rows(jc.len(), devices.len());
    for (j, o) in jc.iter().zip(devices) {
        c.fields(
            j,
            o,
            &[
                ("name", "name"),
                ("kname", "kname"),
                ("pkname", "pkname"),
                ("maj_min", "maj_min"),
                ("type", "dev_type"),
                ("size_bytes", "size_bytes"),
                ("rm", "rm"),
                ("ro", "ro"),
                ("rota", "rota"),
                ("sched", "sched"),
                ("rq_size", "rq_size"),
                ("ra", "ra_kib"),
                ("min_io", "min_io"),
                ("opt_io", "opt_io"),
                ("phy_sec", "phy_sec"),
                ("log_sec", "log_sec"),
                ("disc_gran_bytes", "disc_gran_bytes"),
                ("disc_max_bytes", "disc_max_bytes"),
                ("fstype", "fstype"),
                ("label", "label"),
                ("uuid", "uuid"),
                ("model", "model"),
                ("serial", "serial"),
                ("vendor", "vendor"),
                ("rev", "rev"),
                ("state", "state"),
                ("tran", "tran"),
                ("hctl", "hctl"),
            ],
        );
        if let Some(jm) = j.get("mountpoint") {
            let mount = o["mountpoints"].get(0).cloned().unwrap_or(Value::Null);
            c.eq("mountpoint", jm, mount);
        }
    }
}

// ---- dmidecode ----

fn dmidecode(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // Structures are matched by handle (jc gives each `On Board Device N Information` block of
    // a DMI type 10 structure a row of its own, under the same handle; rca one structure whose
    // later blocks' names are fields without a value). jc names a key in snake case
    // (`Release Date` is `release_date`) and makes an indented list a list; rca keeps the key
    // as printed and the list's items joined by `; `.
    let jc = jc.as_array().unwrap();
    let handles = ours["handles"].as_array().unwrap();
    c.rows(jc.len(), handles.len());
    for o in handles {
        let Some(j) = jc.iter().find(|j| j["handle"] == o["handle"]) else {
            c.eq("handle", &Value::Null, o["handle"].clone());
            continue;
        };
        c.eq("type", &j["type"], o["dmi_type"].clone());
        c.eq("description", &j["description"], o["name"].clone());
        let fields = o["fields"].as_array().unwrap();
        let Some(values) = j["values"].as_object() else {
            continue;
        };
        for (k, v) in values {
            let printed = fields
                .iter()
                .find(|f| f["key"].as_str().unwrap().to_lowercase().replace(' ', "_") == *k)
                .map_or(Value::Null, |f| f["value"].clone());
            let v = match v {
                Value::Array(items) => Value::from(
                    items
                        .iter()
                        .map(|i| i.as_str().unwrap_or_default())
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
                other => other.clone(),
            };
            c.eq(k, &v, printed);
        }
    }
}

// ---- /proc files ----

fn proc_meminfo(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // Both keep the kernel's names and its numbers (KiB, or pages for HugePages_*).
    let entries = ours["entries"].as_array().unwrap();
    let jc = jc.as_object().unwrap();
    c.rows(jc.len(), entries.len());
    for e in entries {
        let name = e["name"].as_str().unwrap();
        c.eq(
            name,
            jc.get(name).unwrap_or(&Value::Null),
            e["value"].clone(),
        );
    }
}

fn proc_loadavg(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    for (i, k) in ["load_1m", "load_5m", "load_15m"].iter().enumerate() {
        c.eq(k, &jc[*k], ours["load_average"][i].clone());
    }
    c.fields(
        jc,
        ours,
        &[
            ("running", "runnable"),
            ("available", "total"),
            ("last_pid", "last_pid"),
        ],
    );
}

fn proc_uptime(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    c.eq("up_time", &jc["up_time"], ours["seconds"].clone());
}

fn proc_swaps(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let areas = ours["areas"].as_array().unwrap();
    c.rows(jc.len(), areas.len());
    for (j, o) in jc.iter().zip(areas) {
        // `/proc/swaps` sizes are KiB in both.
        c.fields(
            j,
            o,
            &[
                ("filename", "name"),
                ("type", "kind"),
                ("size", "size_kib"),
                ("used", "used_kib"),
                ("priority", "priority"),
            ],
        );
    }
}

fn proc_diskstats(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let devs = ours["devices"].as_array().unwrap();
    c.rows(jc.len(), devs.len());
    for (j, o) in jc.iter().zip(devs) {
        c.fields(
            j,
            o,
            &[
                ("maj", "major"),
                ("min", "minor"),
                ("device", "name"),
                ("reads_completed", "reads_completed"),
                ("reads_merged", "reads_merged"),
                ("sectors_read", "sectors_read"),
                ("read_time_ms", "read_time_ms"),
                ("writes_completed", "writes_completed"),
                ("writes_merged", "writes_merged"),
                ("sectors_written", "sectors_written"),
                ("write_time_ms", "write_time_ms"),
                ("io_in_progress", "in_flight"),
                ("io_time_ms", "io_time_ms"),
                ("weighted_io_time_ms", "weighted_io_time_ms"),
                ("discards_completed_successfully", "discards_completed"),
                ("discards_merged", "discards_merged"),
                ("sectors_discarded", "sectors_discarded"),
                ("discarding_time_ms", "discard_time_ms"),
                ("flush_requests_completed_successfully", "flushes_completed"),
                ("flushing_time_ms", "flush_time_ms"),
            ],
        );
    }
}

fn proc_net_dev(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let ifs = ours["interfaces"].as_array().unwrap();
    c.rows(jc.len(), ifs.len());
    for (j, o) in jc.iter().zip(ifs) {
        c.eq("interface", &j["interface"], o["name"].clone());
        for (jk, rk) in [("r_", "rx_"), ("t_", "tx_")] {
            for f in [
                "bytes",
                "packets",
                "errs",
                "drop",
                "fifo",
                "frame",
                "compressed",
                "multicast",
                "colls",
                "carrier",
            ] {
                let jkey = format!("{jk}{f}");
                if j.get(&jkey).is_some() {
                    c.eq(&jkey, &j[&jkey], o[format!("{rk}{f}")].clone());
                }
            }
        }
    }
}

fn proc_softirqs(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let rows = ours["rows"].as_array().unwrap();
    let cpus = ours["cpus"].as_array().unwrap();
    c.rows(jc.len(), rows.len());
    for (j, o) in jc.iter().zip(rows) {
        c.eq("counter", &j["counter"], o["name"].clone());
        for (i, cpu) in cpus.iter().enumerate() {
            let k = format!("CPU{cpu}");
            c.eq("CPU<n>", &j[&k], o["counts"][i].clone());
        }
    }
}

fn proc_interrupts(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let jc = jc.as_array().unwrap();
    let rows = ours["rows"].as_array().unwrap();
    c.rows(jc.len(), rows.len());
    for (j, o) in jc.iter().zip(rows) {
        c.eq("irq", &j["irq"], o["irq"].clone());
        c.eq(
            "cpu_num",
            &j["cpu_num"],
            Value::from(ours["cpus"].as_array().unwrap().len()),
        );
        // A line of one count (`ERR:`, `MIS:`) is one number for both.
        let counts = match &o["single_count"] {
            Value::Null => o["counts"].clone(),
            one => Value::Array(vec![one.clone()]),
        };
        c.eq("interrupts", &j["interrupts"], counts);
        // jc's `type` is the chip of a numbered line, the description of a named one (`NMI`);
        // its `device` is the hardware IRQ and trigger (`2-edge`) then the devices, which rca
        // keeps apart.
        let ty = match &o["chip"] {
            Value::Null if o["description"] != "" => o["description"].clone(),
            chip => chip.clone(),
        };
        c.eq("type", &j["type"], ty);
        let device = match (&o["hwirq"], &o["trigger"]) {
            (Value::String(h), Value::String(t)) => {
                let mut d = vec![Value::from(format!("{h}-{t}"))];
                d.extend(col_values(&o["devices"]));
                Value::Array(d)
            }
            _ if o["devices"].as_array().is_some_and(|d| !d.is_empty()) => o["devices"].clone(),
            _ => Value::Null,
        };
        c.eq("device", &j["device"], device);
    }
}

fn proc_stat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // A file of several snapshots (jc's `stat2` holds two): jc keeps the values of the last
    // line of each name, so the last snapshot is compared.
    let snaps = ours["snapshots"].as_array().unwrap();
    c.rows(1, snaps.len());
    let s = snaps.last().unwrap();
    let times = [
        "user",
        "nice",
        "system",
        "idle",
        "iowait",
        "irq",
        "softirq",
        "steal",
        "guest",
        "guest_nice",
    ];
    let mut cpus = vec![("cpu".to_string(), &s["total"])];
    for cpu in s["cpus"].as_array().unwrap() {
        cpus.push((format!("cpu{}", cpu["cpu"]), cpu));
    }
    for (name, o) in cpus {
        for t in times {
            c.eq(&format!("cpu*.{t}"), &jc[&name][t], o[t].clone());
        }
    }
    // jc's `interrupts` is the whole `intr` line: the total first, then each number.
    let mut intr = vec![s["intr_total"].clone()];
    intr.extend(col_values(&s["intr"]));
    c.eq("interrupts", &jc["interrupts"], Value::Array(intr));
    c.fields(
        jc,
        s,
        &[
            ("context_switches", "ctxt"),
            ("boot_time", "btime"),
            ("processes", "processes"),
            ("processes_running", "procs_running"),
            ("processes_blocked", "procs_blocked"),
        ],
    );
    let soft = if s["softirq_total"].is_null() {
        Value::Null
    } else {
        let mut soft = vec![s["softirq_total"].clone()];
        soft.extend(col_values(&s["softirq"]));
        Value::Array(soft)
    };
    let jsoft = &jc["softirq"];
    c.eq("softirq", jsoft, soft);
}

/// The elements of an array value.
fn col_values(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

fn proc_vmstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    let counters = ours["counters"].as_array().unwrap();
    c.rows(jc.as_object().unwrap().len(), counters.len());
    for k in counters {
        let name = k["name"].as_str().unwrap();
        c.eq("<counter>", &jc[name], k["value"].clone());
    }
}

fn proc_cpuinfo(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // rca keeps the processor number, model name and clock (`[MHz, line]`).
    let jc = jc.as_array().unwrap();
    let procs = ours["processors"].as_array().unwrap();
    c.rows(jc.len(), procs.len());
    for (j, o) in jc.iter().zip(procs) {
        c.eq("processor", &j["processor"], o["processor"].clone());
        c.eq("model name", &j["model name"], o["model_name"].clone());
        c.eq("cpu MHz", &j["cpu MHz"], o["mhz"][0].clone());
    }
}

fn proc_pid_status(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // rca keeps every line's text and, for `kB` lines, the KiB; jc turns numbers into numbers,
    // splits `Uid`/`Gid` at blanks and the masks at commas, and keeps `State`'s letter (the
    // word in `State_pretty`). Keys jc derives (`SigQ_current`, `SigQ_limit`) are not lines.
    let fields = ours["fields"].as_object().unwrap();
    let jc = jc.as_object().unwrap();
    let derived = ["State_pretty", "SigQ_current", "SigQ_limit"];
    c.rows(
        jc.keys().filter(|k| !derived.contains(&k.as_str())).count(),
        fields.len(),
    );
    for (name, f) in fields {
        let text = f["value"].as_str().unwrap();
        let j = jc.get(name).unwrap_or(&Value::Null);
        let ours = match j {
            _ if !f["kib"].is_null() => f["kib"].clone(),
            _ if name == "State" => Value::from(text.split(' ').next().unwrap()),
            Value::Number(_) => text.parse::<f64>().map_or(Value::from(text), Value::from),
            Value::Array(a) => Value::Array(
                text.split(|ch: char| ch == ',' || ch.is_whitespace())
                    .map(|w| match (a.first(), w.parse::<u64>()) {
                        (Some(Value::Number(_)), Ok(n)) => Value::from(n),
                        _ => Value::from(w),
                    })
                    .collect(),
            ),
            _ => Value::from(text),
        };
        c.eq("<line>", j, ours);
    }
    let pretty = fields["State"]["value"]
        .as_str()
        .and_then(|s| s.split_once('('))
        .map(|(_, w)| Value::from(w.trim_end_matches(')')));
    c.eq(
        "State_pretty",
        &jc["State_pretty"],
        pretty.unwrap_or(Value::Null),
    );
}

fn proc_net_netstat(c: &mut Cmp<'_>, jc: &Value, ours: &Value) {
    // One jc object per group (`type`: `TcpExt`, `IpExt`, …), one rca group of counters.
    let jc = jc.as_array().unwrap();
    let groups = ours["groups"].as_array().unwrap();
    c.rows(jc.len(), groups.len());
    for (j, g) in jc.iter().zip(groups) {
        c.eq("type", &j["type"], g["name"].clone());
        let counters = g["counters"].as_array().unwrap();
        c.rows(j.as_object().unwrap().len() - 1, counters.len());
        for k in counters {
            let name = k["name"].as_str().unwrap();
            c.eq("<counter>", &j[name], k["value"].clone());
        }
    }
}

static CASES: &[Case] = &[
    Case {
        command: "free",
        fixture: "centos-7.7/free",
        kind: "free",
        forced: false,
        compare: free,
    },
    Case {
        command: "free",
        fixture: "centos-7.7/free-w",
        kind: "free",
        forced: false,
        compare: free,
    },
    Case {
        command: "free",
        fixture: "ubuntu-18.04/free",
        kind: "free",
        forced: false,
        compare: free,
    },
    Case {
        command: "free",
        fixture: "ubuntu-18.04/free-w",
        kind: "free",
        forced: false,
        compare: free,
    },
    Case {
        command: "vmstat",
        fixture: "centos-7.7/vmstat",
        kind: "vmstat",
        forced: false,
        compare: vmstat,
    },
    Case {
        command: "vmstat",
        fixture: "centos-7.7/vmstat-a",
        kind: "vmstat",
        forced: false,
        compare: vmstat,
    },
    Case {
        command: "vmstat",
        fixture: "centos-7.7/vmstat-w",
        kind: "vmstat",
        forced: false,
        compare: vmstat,
    },
    Case {
        command: "vmstat",
        fixture: "centos-7.7/vmstat-at-5-10",
        kind: "vmstat",
        forced: false,
        compare: vmstat,
    },
    Case {
        command: "vmstat",
        fixture: "ubuntu-18.04/vmstat-1-long",
        kind: "vmstat",
        forced: false,
        compare: vmstat,
    },
    Case {
        command: "mpstat",
        fixture: "centos-7.7/mpstat",
        kind: "mpstat",
        forced: false,
        compare: mpstat,
    },
    Case {
        command: "mpstat",
        fixture: "centos-7.7/mpstat-A",
        kind: "mpstat",
        forced: false,
        compare: mpstat,
    },
    Case {
        command: "iostat",
        fixture: "centos-7.7/iostat",
        kind: "iostat",
        forced: false,
        compare: iostat,
    },
    Case {
        command: "iostat",
        fixture: "centos-7.7/iostat-x",
        kind: "iostat",
        forced: false,
        compare: iostat,
    },
    Case {
        command: "iostat",
        fixture: "centos-7.7/iostat-mx",
        kind: "iostat",
        forced: false,
        compare: iostat,
    },
    Case {
        command: "iostat",
        fixture: "ubuntu-18.04/iostat-x",
        kind: "iostat",
        forced: false,
        compare: iostat,
    },
    Case {
        command: "uname",
        fixture: "centos-7.7/uname-a",
        kind: "uname",
        forced: false,
        compare: uname,
    },
    Case {
        command: "uname",
        fixture: "ubuntu-18.04/uname-a",
        kind: "uname",
        forced: false,
        compare: uname,
    },
    Case {
        command: "uname",
        fixture: "debian10/uname-a",
        kind: "uname",
        forced: false,
        compare: uname,
    },
    Case {
        command: "uname",
        fixture: "generic/uname-a",
        kind: "uname",
        forced: false,
        compare: uname,
    },
    Case {
        command: "uname",
        fixture: "generic/uname-a-different-proc",
        kind: "uname",
        forced: false,
        compare: uname,
    },
    Case {
        command: "lsmod",
        fixture: "centos-7.7/lsmod",
        kind: "lsmod",
        forced: false,
        compare: modules,
    },
    Case {
        command: "lsmod",
        fixture: "ubuntu-18.04/lsmod",
        kind: "lsmod",
        forced: false,
        compare: modules,
    },
    Case {
        command: "uptime",
        fixture: "centos-7.7/uptime",
        kind: "uptime",
        forced: false,
        compare: uptime,
    },
    Case {
        command: "uptime",
        fixture: "ubuntu-18.04/uptime",
        kind: "uptime",
        forced: false,
        compare: uptime,
    },
    Case {
        command: "pidstat",
        fixture: "centos-7.7/pidstat-hl",
        kind: "pidstat",
        forced: false,
        compare: pidstat,
    },
    Case {
        command: "pidstat",
        fixture: "centos-7.7/pidstat-hdlrsuw",
        kind: "pidstat",
        forced: false,
        compare: pidstat,
    },
    Case {
        command: "sysctl",
        fixture: "centos-7.7/sysctl-a",
        kind: "sysctl",
        forced: false,
        compare: sysctl,
    },
    Case {
        command: "os_release",
        fixture: "generic/os-release-centos",
        kind: "os-release",
        forced: false,
        compare: os_release,
    },
    Case {
        command: "os_release",
        fixture: "generic/os-release-ubuntu",
        kind: "os-release",
        forced: false,
        compare: os_release,
    },
    Case {
        command: "df",
        fixture: "centos-7.7/df",
        kind: "df",
        forced: false,
        compare: df,
    },
    Case {
        command: "df",
        fixture: "ubuntu-18.04/df",
        kind: "df",
        forced: false,
        compare: df,
    },
    Case {
        command: "mount",
        fixture: "centos-7.7/mount",
        kind: "mounts",
        forced: false,
        compare: mount,
    },
    Case {
        command: "mount",
        fixture: "ubuntu-18.04/mount",
        kind: "mounts",
        forced: false,
        compare: mount,
    },
    Case {
        command: "swapon",
        fixture: "generic/swapon-all-v1",
        kind: "swaps",
        forced: false,
        compare: swapon,
    },
    Case {
        command: "swapon",
        fixture: "generic/swapon-all-v2",
        kind: "swaps",
        forced: false,
        compare: swapon,
    },
    Case {
        command: "ntpq",
        fixture: "centos-7.7/ntpq-pn",
        kind: "ntpq",
        forced: false,
        compare: ntpq,
    },
    Case {
        command: "ntpq",
        fixture: "ubuntu-18.04/ntpq-pn",
        kind: "ntpq",
        forced: false,
        compare: ntpq,
    },
    Case {
        command: "ss",
        fixture: "centos-7.7/ss-sudo-a",
        kind: "ss",
        forced: false,
        compare: ss,
    },
    Case {
        command: "ss",
        fixture: "ubuntu-18.04/ss-sudo-tulpen",
        kind: "ss",
        forced: false,
        compare: ss,
    },
    Case {
        command: "netstat",
        fixture: "centos-7.7/netstat-sudo-aeep",
        kind: "netstat-tanp",
        forced: false,
        compare: netstat,
    },
    Case {
        command: "netstat",
        fixture: "ubuntu-18.04/netstat",
        kind: "netstat-tanp",
        forced: false,
        compare: netstat,
    },
    Case {
        command: "proc_meminfo",
        fixture: "linux-proc/meminfo",
        kind: "meminfo",
        forced: false,
        compare: proc_meminfo,
    },
    Case {
        command: "proc_modules",
        fixture: "linux-proc/modules",
        kind: "proc-modules",
        forced: false,
        compare: modules,
    },
    Case {
        command: "proc_loadavg",
        fixture: "linux-proc/loadavg",
        kind: "loadavg",
        forced: true,
        compare: proc_loadavg,
    },
    Case {
        command: "proc_uptime",
        fixture: "linux-proc/uptime",
        kind: "proc-uptime",
        forced: true,
        compare: proc_uptime,
    },
    Case {
        command: "proc_swaps",
        fixture: "linux-proc/swaps",
        kind: "swaps",
        forced: false,
        compare: proc_swaps,
    },
    Case {
        command: "proc_diskstats",
        fixture: "linux-proc/diskstats",
        kind: "diskstats",
        forced: false,
        compare: proc_diskstats,
    },
    Case {
        command: "proc_net_dev",
        fixture: "linux-proc/net_dev",
        kind: "net-dev",
        forced: false,
        compare: proc_net_dev,
    },
    Case {
        command: "proc_softirqs",
        fixture: "linux-proc/softirqs",
        kind: "softirqs",
        forced: false,
        compare: proc_softirqs,
    },
    Case {
        command: "proc_interrupts",
        fixture: "linux-proc/interrupts",
        kind: "interrupts",
        forced: false,
        compare: proc_interrupts,
    },
    Case {
        command: "proc_stat",
        fixture: "linux-proc/stat",
        kind: "proc-stat",
        forced: false,
        compare: proc_stat,
    },
    Case {
        command: "proc_stat",
        fixture: "linux-proc/stat2",
        kind: "proc-stat",
        forced: false,
        compare: proc_stat,
    },
    Case {
        command: "proc_vmstat",
        fixture: "linux-proc/vmstat",
        kind: "proc-vmstat",
        forced: true,
        compare: proc_vmstat,
    },
    Case {
        command: "ps",
        fixture: "centos-7.7/ps-axu",
        kind: "ps",
        forced: false,
        compare: ps,
    },
    Case {
        command: "ps",
        fixture: "centos-7.7/ps-ef",
        kind: "ps",
        forced: false,
        compare: ps,
    },
    Case {
        command: "ps",
        fixture: "ubuntu-18.04/ps-axu",
        kind: "ps",
        forced: false,
        compare: ps,
    },
    Case {
        command: "ps",
        fixture: "ubuntu-18.04/ps-ef",
        kind: "ps",
        forced: false,
        compare: ps,
    },
    Case {
        command: "timedatectl",
        fixture: "centos-7.7/timedatectl",
        kind: "timedatectl",
        forced: false,
        compare: timedatectl,
    },
    Case {
        command: "timedatectl",
        fixture: "ubuntu-18.04/timedatectl",
        kind: "timedatectl",
        forced: false,
        compare: timedatectl,
    },
    Case {
        command: "timedatectl",
        fixture: "generic/timedatectl-rtc-local",
        kind: "timedatectl",
        forced: false,
        compare: timedatectl,
    },
    Case {
        command: "proc_cpuinfo",
        fixture: "linux-proc/cpuinfo",
        kind: "cpuinfo",
        forced: false,
        compare: proc_cpuinfo,
    },
    Case {
        command: "proc_cpuinfo",
        fixture: "linux-proc/cpuinfo2",
        kind: "cpuinfo",
        forced: false,
        compare: proc_cpuinfo,
    },
    Case {
        command: "proc_pid_status",
        fixture: "linux-proc/pid_status",
        kind: "proc-status",
        forced: false,
        compare: proc_pid_status,
    },
    Case {
        command: "proc_net_netstat",
        fixture: "linux-proc/net_netstat",
        kind: "net-snmp",
        forced: false,
        compare: proc_net_netstat,
    },
    Case {
        command: "top",
        fixture: "centos-7.7/top-b-n3",
        kind: "top",
        forced: false,
        compare: top,
    },
    Case {
        command: "top",
        fixture: "centos-7.7/top-b-n1-gib",
        kind: "top",
        forced: false,
        compare: top,
    },
    Case {
        command: "top",
        fixture: "centos-7.7/top-b-n1-gib-allfields-w",
        kind: "top",
        forced: false,
        compare: top,
    },
    Case {
        command: "top",
        fixture: "ubuntu-20.10/top-b-n1",
        kind: "top",
        forced: false,
        compare: top,
    },
    Case {
        command: "top",
        fixture: "ubuntu-20.10/top-b-allfields",
        kind: "top",
        forced: false,
        compare: top,
    },
    Case {
        command: "lsblk",
        fixture: "centos-7.7/lsblk",
        kind: "lsblk",
        forced: false,
        compare: lsblk,
    },
    Case {
        command: "lsblk",
        fixture: "ubuntu-18.04/lsblk",
        kind: "lsblk",
        forced: false,
        compare: lsblk,
    },
    Case {
        command: "lsblk",
        fixture: "centos-7.7/lsblk-allcols",
        kind: "lsblk",
        forced: false,
        compare: lsblk,
    },
    Case {
        command: "lsblk",
        fixture: "ubuntu-18.04/lsblk-allcols",
        kind: "lsblk",
        forced: false,
        compare: lsblk,
    },
    Case {
        command: "dmidecode",
        fixture: "centos-7.7/dmidecode",
        kind: "dmidecode",
        forced: false,
        compare: dmidecode,
    },
    Case {
        command: "dmidecode",
        fixture: "ubuntu-18.04/dmidecode",
        kind: "dmidecode",
        forced: false,
        compare: dmidecode,
    },
    Case {
        command: "dmidecode",
        fixture: "fedora32/dmidecode",
        kind: "dmidecode",
        forced: false,
        compare: dmidecode,
    },
];

/// The differences `docs/jc-comparison.md` lists: `(command, jc field)` from the rows of its
/// table (`| command | field | jc | rca | why |`).
fn documented() -> BTreeSet<(String, String)> {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/jc-comparison.md"),
    )
    .unwrap();
    let start = doc
        .find("## Differences kept")
        .expect("docs/jc-comparison.md has a `## Differences kept` section");
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(|c| c.trim().trim_matches('`')).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn rca_reads_jc_fixtures_as_jc_does_but_for_the_documented_differences() {
    let mut tally = Tally::default();
    for case in CASES {
        let input = input_of(case.fixture);
        let (kind, ours) = ours(&input, case.forced.then_some(case.kind));
        assert_eq!(kind, case.kind, "{}: detected kind", case.fixture);
        let jc: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(format!("{}.json", case.fixture))).unwrap(),
        )
        .unwrap();
        let mut c = Cmp {
            tally: &mut tally,
            command: case.command,
            fixture: case.fixture,
        };
        (case.compare)(&mut c, &jc, &ours);
    }
    let found: BTreeSet<(String, String)> = tally.differ.keys().cloned().collect();
    let listed = documented();
    let new: Vec<String> = found
        .difference(&listed)
        .map(|k| format!("{} {}: {}", k.0, k.1, tally.differ[k]))
        .collect();
    let gone: Vec<&(String, String)> = listed.difference(&found).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "differences not in docs/jc-comparison.md:\n{}\nlisted there but no longer found: {gone:?}",
        new.join("\n")
    );
    // Every listed field was compared, and every command at least one value.
    for (cmd, field) in &listed {
        assert!(
            tally.compared.contains_key(&(cmd.clone(), field.clone())),
            "{cmd} {field} is listed but never compared"
        );
    }
    let mut per_command: BTreeMap<&str, usize> = BTreeMap::new();
    for ((cmd, _), n) in &tally.compared {
        *per_command.entry(cmd.as_str()).or_default() += n;
    }
    for case in CASES {
        assert!(per_command[case.command] >= 1, "{}", case.command);
    }
}

#[test]
fn jc_fixture_values_are_compared_as_numbers() {
    assert!(same(&serde_json::json!(0.0), &serde_json::json!(0)));
    assert!(!same(&serde_json::json!(0.01), &serde_json::json!(0.02)));
    assert!(!same(&serde_json::json!(null), &serde_json::json!(0)));
    assert!(same(
        &serde_json::json!([1, 2.0]),
        &serde_json::json!([1.0, 2])
    ));
    assert!(!same(&serde_json::json!([1]), &serde_json::json!([1, 2])));
}
