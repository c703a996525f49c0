//! Shared helpers for integration tests: where the real data lives.
//!
//! Tests that need `../shared/data` (or `$PGNKIT_DATA`) call [`data_dir`]; when
//! the data is absent they skip with a message, unless `PGNKIT_REQUIRE_DATA=1`
//! (set by `.ci/run`), where a skip is a failure.

#![allow(dead_code)]

use std::path::PathBuf;

/// The shared data directory, or `None` (after printing why) when absent.
///
/// # Panics
/// When the data is absent and `PGNKIT_REQUIRE_DATA=1`.
pub fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PGNKIT_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    present_or_skip(dir)
}

/// The reference verdicts beside the data (`../shared/expected`).
pub fn expected_dir() -> Option<PathBuf> {
    let data = data_dir()?;
    present_or_skip(data.join("../expected"))
}

fn present_or_skip(dir: PathBuf) -> Option<PathBuf> {
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("PGNKIT_REQUIRE_DATA").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{} is missing and PGNKIT_REQUIRE_DATA=1",
        dir.display()
    );
    eprintln!(
        "skipped: {} not found (set PGNKIT_DATA to the shared data directory)",
        dir.display()
    );
    None
}
