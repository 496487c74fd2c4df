//! Fuzz target: see `npuzzle_fuzz::checks::board_text` for what must hold.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::checks::board_text(data));
