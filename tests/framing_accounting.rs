//! The accounting invariant on real files: for every `.pgn` file of
//! `data/corpus` and `data/broken`, games framed = games parsed + games
//! reported too large, numbered 1..N without gaps, and game bytes plus the
//! bytes between games (blank, `%` and `;` lines only) add up to the file's
//! length. Checked with the default game bound and with a 4 KiB bound, so
//! that the skipping path is accounted for too. (The adversarial inputs are
//! checked the same way in `tests/adversarial.rs`.)

mod accounting;
mod common;

use std::path::{Path, PathBuf};

use pgnkit::pgn::{DEFAULT_MAX_GAME_BYTES, parse_game};

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

#[test]
fn every_corpus_game_is_accounted_for() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let mut files = Vec::new();
    pgn_files(&data.join("corpus"), &mut files);
    pgn_files(&data.join("broken"), &mut files);
    files.sort();
    assert!(files.len() > 200, "found only {} files", files.len());
    let (mut games, mut skipped) = (0, 0);
    for path in &files {
        let text = std::fs::read(path).expect("read");
        let len = text.len() as u64;
        let mut parsed = 0u64;
        let whole =
            accounting::account(&text[..], Some(&text), len, DEFAULT_MAX_GAME_BYTES, |raw| {
                let game = parse_game(raw);
                assert_eq!(game.number, raw.number);
                parsed += 1;
            });
        assert_eq!(whole.too_large, 0, "{}", path.display());
        assert_eq!(whole.games(), parsed, "{}", path.display());
        let small = accounting::account(&text[..], Some(&text), len, 4096, |_| {});
        assert_eq!(
            small.games(),
            whole.games(),
            "{}: skipping large games changed the game count",
            path.display()
        );
        games += whole.games();
        skipped += small.too_large;
    }
    eprintln!(
        "{games} games in {} files accounted for ({skipped} skipped under a 4 KiB bound)",
        files.len()
    );
}
