//! Fuzz target: the command line. The input, split at NUL bytes, is the argument list; parsing
//! it (clap, and every value parser and validator of `crates/cli/src/args.rs`) must never
//! panic, whatever the arguments.
#![no_main]

#[path = "../../crates/cli/src/args.rs"]
#[allow(dead_code, reason = "only parsing is fuzzed; the commands are not run")]
mod args;

use clap::Parser;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let argv = std::iter::once("npuzzle").chain(text.split('\0'));
    let _ = args::Cli::try_parse_from(argv);
});
