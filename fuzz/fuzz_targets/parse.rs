//! libFuzzer target: [`rca_fuzz::parse`] on each input. With `RCA_FUZZ_KIND_COUNTS=<file>`, the
//! number of inputs each kind's parser ran on is appended to that file (`kind\tcount` lines)
//! when the process ends: one block per process, as `-fork` runs several.
#![no_main]

use std::collections::BTreeMap;
use std::sync::{Mutex, Once};

static COUNTS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());
static AT_EXIT: Once = Once::new();

extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

extern "C" fn write_counts() {
    let Some(path) = std::env::var_os("RCA_FUZZ_KIND_COUNTS") else {
        return;
    };
    let counts = COUNTS.lock().unwrap_or_else(|e| e.into_inner());
    let text: String = counts.iter().map(|(k, n)| format!("{k}\t{n}\n")).collect();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    if let Ok(mut f) = file {
        let _ = std::io::Write::write_all(&mut f, text.as_bytes());
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    AT_EXIT.call_once(|| {
        // SAFETY: registers a plain function with no arguments, as atexit(3) requires.
        unsafe { atexit(write_counts) };
    });
    let (kind, _) = rca_fuzz::parse(data);
    *COUNTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(kind)
        .or_default() += 1;
});
