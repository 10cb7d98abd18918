//! Helpers shared by the integration tests: fixture loading, float comparison, the sniffers of
//! every kind, and a deterministic byte generator for robustness tests.

use parsers::{
    host, kernel,
    proc::softirqs,
    sysstat::{iostat, mpstat},
    Sniff,
};
use std::path::PathBuf;

/// Path of a fixture under `tests/fixtures/`.
pub fn fixture_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Text of a fixture under `tests/fixtures/`.
pub fn fixture(rel: &str) -> String {
    let path = fixture_path(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fixture file directly inside a fixture directory, sorted, as `dir/name` (for "no other
/// kind's fixture is claimed" checks).
pub fn all_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(fixture_path("")).unwrap() {
        let d = d.unwrap();
        if !d.file_type().unwrap().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap() {
            let f = f.unwrap();
            if f.file_type().unwrap().is_file() {
                out.push(format!(
                    "{}/{}",
                    d.file_name().to_string_lossy(),
                    f.file_name().to_string_lossy()
                ));
            }
        }
    }
    out.sort();
    out
}

/// Every file of one fixture directory, sorted, as `dir/name`.
pub fn fixtures_in(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(fixture_path(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {dir}");
    out
}

/// Asserts that `actual` is `Some(expected)` within rounding of the printed values.
#[track_caller]
pub fn assert_close(actual: Option<f64>, expected: f64) {
    match actual {
        Some(a) if (a - expected).abs() <= 1e-9 * expected.abs().max(1.0) => {}
        other => panic!("expected Some({expected}), got {other:?}"),
    }
}

/// The first `n` bytes of `text`, cut back to a character boundary (what the analyzer hands a
/// sniffer: it may end mid-line).
pub fn head(text: &str, n: usize) -> &str {
    let mut end = n.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The size of the head the analyzer passes to sniffers.
pub const SNIFF_HEAD_BYTES: usize = 4096;

/// Artifact kinds with a sniffer in this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Iostat,
    Mpstat,
    Softirqs,
    ProcModules,
    Lsmod,
    Uname,
    OsRelease,
}

pub const ALL_KINDS: [Kind; 7] = [
    Kind::Iostat,
    Kind::Mpstat,
    Kind::Softirqs,
    Kind::ProcModules,
    Kind::Lsmod,
    Kind::Uname,
    Kind::OsRelease,
];

impl Kind {
    pub fn sniff(self, head: &str) -> Sniff {
        match self {
            Kind::Iostat => iostat::sniff(head),
            Kind::Mpstat => mpstat::sniff(head),
            Kind::Softirqs => softirqs::sniff(head),
            Kind::ProcModules => kernel::modules::sniff_proc_modules(head),
            Kind::Lsmod => kernel::lsmod::sniff_lsmod(head),
            Kind::Uname => host::uname::sniff_uname(head),
            Kind::OsRelease => host::os_release::sniff_os_release(head),
        }
    }

    /// Runs the parser; returns whether it produced a record and how many issues.
    pub fn parse(self, text: &str) -> Result<usize, parsers::ParseError> {
        match self {
            Kind::Iostat => iostat::parse(text).map(|p| p.issues.len()),
            Kind::Mpstat => mpstat::parse(text).map(|p| p.issues.len()),
            Kind::Softirqs => softirqs::parse(text).map(|p| p.issues.len()),
            Kind::ProcModules => kernel::modules::parse_proc_modules(text).map(|p| p.issues.len()),
            Kind::Lsmod => kernel::lsmod::parse_lsmod(text).map(|p| p.issues.len()),
            Kind::Uname => host::uname::parse_uname(text).map(|p| p.issues.len()),
            Kind::OsRelease => host::os_release::parse_os_release(text).map(|p| p.issues.len()),
        }
    }
}

/// A small deterministic pseudo-random generator (xorshift64*), so that robustness tests are
/// reproducible without extra dependencies.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Inserts `line` before 1-based line `at` of `text`.
pub fn insert_line(text: &str, at: usize, line: &str) -> String {
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == at {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(l);
    }
    out
}

/// Derived decimal-comma variant: every `.` between two digits becomes `,`, except on the
/// sysstat banner (first line), whose kernel release keeps its dots in every locale. This is
/// how sysstat prints numbers under a locale such as `LC_NUMERIC=de_DE.UTF-8`.
pub fn decimal_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == 0 && line.starts_with("Linux") {
            out.push_str(line);
            continue;
        }
        let b = line.as_bytes();
        for (j, c) in line.char_indices() {
            let between_digits = c == '.'
                && j > 0
                && b[j - 1].is_ascii_digit()
                && b.get(j + 1).is_some_and(|n| n.is_ascii_digit());
            out.push(if between_digits { ',' } else { c });
        }
    }
    out
}
