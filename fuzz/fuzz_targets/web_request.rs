//! Fuzz target: see `npuzzle_fuzz::web_checks::web_request` for what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::web_checks::web_request(data));
