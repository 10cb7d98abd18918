//! libFuzzer target: [`rca_fuzz::bundle`] on each input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    rca_fuzz::bundle(data);
});
