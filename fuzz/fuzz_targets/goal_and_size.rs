//! Fuzz target: see `npuzzle_fuzz::checks::goal_and_size` for what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::checks::goal_and_size(data));
