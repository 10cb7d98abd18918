//! libFuzzer target: [`rca_fuzz::sniff`] on each input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    rca_fuzz::sniff(data);
});
