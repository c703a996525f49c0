//! The pipeline at scale, on every corpus and broken file: output in input
//! order (`--jobs 1` and `--jobs 2` write the same bytes) and nothing lost
//! (every game is either written or reported). The parallel runs use
//! batches of a few KiB (`PGNKIT_BATCH_BYTES`), so that even the small
//! corpus files make many batches and the workers finish them out of order.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use pgnkit::pgn::{GameFramer, ReadPgnError};

/// Batch size of the parallel runs: far below the default, so that a 100 KB
/// file is split into a few dozen batches.
const SMALL_BATCH: &str = "4096";

struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs `pgnkit args --jobs jobs files`, with small batches.
fn pgnkit(args: &[&str], jobs: &str, files: &[PathBuf]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .args(["--progress", "never", "--jobs", jobs])
        .args(files)
        .env("PGNKIT_BATCH_BYTES", SMALL_BATCH)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pgnkit");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

fn all_files() -> Option<Vec<PathBuf>> {
    let files = common::pgn_files(&["corpus", "broken"], true)?;
    assert!(files.len() > 200, "found only {} files", files.len());
    Some(files)
}

#[test]
fn one_and_two_jobs_write_the_same_bytes_in_small_batches() {
    let Some(files) = all_files() else {
        return;
    };
    let commands: &[&[&str]] = &[
        &["validate"],
        &["validate", "--format", "json", "--strict"],
        &["fen"],
        &["fen", "--all", "--epd"],
        &["convert", "--to", "uci"],
        &["convert", "--to", "json"],
        &["filter", "-e", "plies >= 40 or status = checkmate"],
        &["filter", "-v", "-e", "plies >= 40 or status = checkmate"],
        &["tags", "--fields", "White,Black,Result"],
    ];
    for command in commands {
        let one = pgnkit(command, "1", &files);
        let two = pgnkit(command, "2", &files);
        assert_eq!(one.code, two.code, "{command:?}");
        assert!(one.stdout == two.stdout, "{command:?}: stdout differs");
        assert!(one.stderr == two.stderr, "{command:?}: stderr differs");
        assert!(
            one.stdout.len() > 100_000 || one.stderr.len() > 100_000,
            "{command:?}: too little output to test the order"
        );
    }
}

/// The games the framer finds in `bytes` (skipped oversized ones included),
/// numbered 1..=N.
fn games_in(bytes: &[u8]) -> u64 {
    let mut framer = GameFramer::new(bytes);
    let mut n = 0;
    while let Some(game) = framer.next_game() {
        match game {
            Ok(_) | Err(ReadPgnError::GameTooLarge { .. }) => n += 1,
            Err(err) => panic!("framing a file in memory: {err}"),
        }
    }
    n
}

/// The game numbers named by `error:` and `note:` lines of `stderr` (a game
/// can have several; it is counted once).
fn reported(stderr: &[u8]) -> BTreeSet<u64> {
    let stderr = String::from_utf8_lossy(stderr);
    let mut games = BTreeSet::new();
    for line in stderr.lines() {
        for mark in [": error: game ", ": note: game "] {
            if let Some((_, rest)) = line.split_once(mark) {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                games.insert(digits.parse().expect("a game number"));
            }
        }
    }
    games
}

fn count(args: &[&str], file: &Path) -> u64 {
    let out = pgnkit(args, "2", &[file.to_path_buf()]);
    assert!(out.code <= 1, "{args:?} {}", file.display());
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a count")
}

/// Games in = games written + games reported, for `convert` and `filter`,
/// on every file: `convert` writes each valid game once and reports each
/// invalid one, never both; `--keep-invalid` writes every game; `filter`
/// and `filter -v` split the games between them.
#[test]
fn every_game_is_written_or_reported() {
    let Some(files) = all_files() else {
        return;
    };
    let (mut total, mut total_reported) = (0, 0);
    for file in &files {
        let name = file.display();
        let n = games_in(&std::fs::read(file).expect("read"));
        let all: BTreeSet<u64> = (1..=n).collect();

        let json = pgnkit(
            &["convert", "--to", "json"],
            "2",
            std::slice::from_ref(file),
        );
        assert!(
            json.code <= 1,
            "{name}: {}",
            String::from_utf8_lossy(&json.stderr)
        );
        let written: Vec<u64> = String::from_utf8_lossy(&json.stdout)
            .lines()
            .map(|line| {
                let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                game["game"].as_u64().expect("a game number")
            })
            .collect();
        let written_set: BTreeSet<u64> = written.iter().copied().collect();
        assert_eq!(
            written.len(),
            written_set.len(),
            "{name}: a game written twice"
        );
        let bad = reported(&json.stderr);
        assert!(
            written_set.is_disjoint(&bad),
            "{name}: written and reported: {:?}",
            written_set.intersection(&bad).collect::<Vec<_>>()
        );
        let union: BTreeSet<u64> = written_set.union(&bad).copied().collect();
        assert_eq!(union, all, "{name}: games lost or invented by convert");
        assert_eq!(json.code, i32::from(!bad.is_empty()), "{name}");

        let uci = pgnkit(&["convert", "--to", "uci"], "2", std::slice::from_ref(file));
        assert_eq!(
            games_in(&uci.stdout),
            written_set.len() as u64,
            "{name}: uci"
        );
        assert_eq!(reported(&uci.stderr), bad, "{name}: uci");
        let kept = pgnkit(
            &["convert", "--to", "uci", "--keep-invalid"],
            "2",
            std::slice::from_ref(file),
        );
        assert_eq!(games_in(&kept.stdout), n, "{name}: --keep-invalid");

        let yes = count(&["filter", "--count", "-e", "status = incomplete"], file);
        let no = count(
            &["filter", "--count", "-v", "-e", "status = incomplete"],
            file,
        );
        assert_eq!(yes + no, n, "{name}: filter and filter -v");
        assert_eq!(
            count(&["filter", "--count", "-e", "true"], file),
            n,
            "{name}"
        );
        total += n;
        total_reported += bad.len();
    }
    assert!(total > 5_000, "{total}");
    assert!(total_reported > 100, "{total_reported}");
    eprintln!(
        "{total} games in {} files: {total_reported} reported by convert",
        files.len()
    );
}
