//! The end-to-end tests, one module a file, built as one test binary (`cargo test --test e2e`).
//!
//! One binary, not one per file: each binary is compiled and linked with the whole tool,
//! tantivy and the browser driver, and the 22 of them took 128 s of a fresh machine's compile
//! (processor time; about 40 s as one). The harness also ran them one after another, each
//! waiting for its slowest test, where one binary shares its threads among all the tests. Run
//! one file's tests with `cargo test --release --test e2e browser_search::`. A new file here
//! must be added to the list below: `Cargo.toml` turns off finding test files by themselves
//! (`autotests = false`), so one not listed is not compiled.

mod common;

mod analyzer_agreement;
mod bad_input;
mod browser_core;
mod browser_hostile;
mod browser_layout;
mod browser_print;
mod browser_reading;
mod browser_search;
mod build;
mod check;
mod determinism;
mod fuzz_regressions;
mod init;
mod never_lose_work;
mod print;
mod publish;
mod search_cli;
mod search_quality;
mod section_refs_props;
mod seeds_preserved;
mod serve;
mod static_server;
