//! Shared helpers for integration tests: where the real data lives.
//!
//! Tests that need `../shared/data` (or `$PGNKIT_DATA`) call [`data_dir`]; when
//! the data is absent they skip with a message, unless `PGNKIT_REQUIRE_DATA=1`
//! (set by `.ci/run`), where a skip is a failure.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

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

/// Every `.pgn` file under `dirs` of the data directory (recursively,
/// sorted), e.g. `&["corpus", "broken"]`; `golden` says whether
/// pgn-extract's expected outputs (`corpus/pgn-extract/golden/`) are
/// included. `None` when the data is absent (see [`data_dir`]).
///
/// # Panics
/// When a directory cannot be read.
pub fn pgn_files(dirs: &[&str], golden: bool) -> Option<Vec<PathBuf>> {
    fn walk(dir: &Path, golden: bool, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                if golden || !path.ends_with("golden") {
                    walk(&path, golden, out);
                }
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(path);
            }
        }
    }
    let data = data_dir()?;
    let mut files = Vec::new();
    for dir in dirs {
        walk(&data.join(dir), golden, &mut files);
    }
    files.sort();
    Some(files)
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
    say_skipped(&format!(
        "{} not found (set PGNKIT_DATA to the shared data directory)",
        dir.display()
    ));
    None
}

/// pgn-extract, on PATH or where Debian puts it; `None` (after saying so)
/// when it is missing, a failure where `PGNKIT_REQUIRE_TOOLS=1`.
pub fn pgn_extract() -> Option<PathBuf> {
    let found = ["pgn-extract", "/usr/games/pgn-extract"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| std::process::Command::new(p).arg("-h").output().is_ok());
    if found.is_none() {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "pgn-extract is missing and PGNKIT_REQUIRE_TOOLS=1"
        );
        say_skipped("pgn-extract not found");
    }
    found
}

/// Prints that the running test skips, and why, where `cargo test` shows it
/// even for a passing test: straight to the standard error stream, which
/// the test harness captures only through `eprintln!`.
pub fn say_skipped(why: &str) {
    use std::io::Write as _;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A correspondence archive in the style of seed 001 (mySchach headers:
/// WhiteDays, BlackDays, WhitemyELO, BlackmyELO, TimeControl "10/2592000",
/// mySchachNr) built from the first `n` real games of the TWIC sample: each
/// keeps its players, date, result and moves. Game `i` (from 0) has
/// WhiteDays `i`, BlackDays `30 - i`, WhitemyELO `1500 + 50 i`,
/// BlackmyELO `2000 - 50 i`, mySchachNr `1000 + i`.
pub fn correspondence_archive(n: usize) -> Option<String> {
    let path = data_dir()?.join("corpus/mliebelt-pgn-parser/twic-01-232games.pgn");
    let bytes = std::fs::read(path).expect("read the TWIC sample");
    let mut framer = pgnkit::pgn::GameFramer::new(&bytes[..]);
    let mut out = String::new();
    let mut i = 0;
    while let Some(game) = framer.next_game() {
        if i == n {
            break;
        }
        let game = game.expect("frame the TWIC sample");
        let tags = pgnkit::filter::read_tags(game.bytes);
        let tag = |name: &str| {
            tags.iter()
                .find(|t| t.is(name))
                .map(|t| t.value_text().into_owned())
                .unwrap_or_else(|| "?".to_string())
        };
        let end = tags.last().map_or(0, |t| t.span.end);
        let movetext = String::from_utf8_lossy(&game.bytes[end..]);
        out.push_str(&format!(
            "[Event \"Fernturnier {i}\"]\n[Site \"www.mySchach.de\"]\n[Date \"{}\"]\n[Round \"?\"]\n\
             [White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n[WhitemyELO \"{}\"]\n[BlackmyELO \"{}\"]\n\
             [TimeControl \"10/2592000\"]\n[WhiteDays \"{i}\"]\n[BlackDays \"{}\"]\n[mySchachNr \"{}\"]\n\n{}\n\n",
            tag("Date"),
            tag("White"),
            tag("Black"),
            tag("Result"),
            1500 + 50 * i,
            2000 - 50 * i,
            30 - i,
            1000 + i,
            movetext.trim(),
        ));
        i += 1;
    }
    Some(out)
}

/// Peak resident memory of this process in KiB (`VmHWM`; Linux only).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
