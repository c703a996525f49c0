//! The accounting invariant on real files: for every `.pgn` file of
//! `data/corpus` and `data/broken`, games framed = games parsed + games
//! reported too large, numbered 1..N without gaps, and game bytes plus the
//! bytes between games (blank, `%` and `;` lines only) add up to the file's
//! length. Checked with the default game bound and with a 4 KiB bound, so
//! that the skipping path is accounted for too. (The adversarial inputs are
//! checked the same way in `tests/adversarial.rs`.)

mod accounting;
mod common;

use pgnkit::pgn::{DEFAULT_MAX_GAME_BYTES, parse_game};

#[test]
fn every_corpus_game_is_accounted_for() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], true) else {
        return;
    };
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
