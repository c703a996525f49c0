//! The accounting invariant on real files: for every `.pgn` file of
//! `data/corpus` and `data/broken`, games framed = games parsed + games
//! reported too large, numbered 1..N without gaps, and game bytes plus the
//! bytes between games (blank, `%` and `;` lines only) add up to the file's
//! length. Checked with the default game bound and with a 4 KiB bound, so
//! that the skipping path is accounted for too. (The adversarial inputs are
//! checked the same way in `tests/adversarial.rs`.)

mod accounting;
mod cli_support;
mod common;

use cli_support::validate_counts;
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

/// Files concatenated with their byte-order marks (`cat a.pgn b.pgn`),
/// one before a `%` line and one on an indented blank line: the marks
/// between games belong to no game, and every game is framed whole.
#[test]
fn byte_order_marks_between_games_belong_to_no_game() {
    let text = b"\xEF\xBB\xBF[Event \"a\"]\n\n1. e4 *\n\
                 \xEF\xBB\xBF[Event \"b\"]\n\n1. d4 *\n\n\
                 \xEF\xBB\xBF% escape\n \xEF\xBB\xBF\n\xEF\xBB\xBF\xEF\xBB\xBF;\n\
                 [Event \"c\"]\n\n1. c4 *\n";
    let mut events = Vec::new();
    let ledger = accounting::account(&text[..], Some(text), text.len() as u64, 4096, |raw| {
        events.push(parse_game(raw).tags[0].value.to_vec());
    });
    assert_eq!(ledger.games(), 3);
    assert_eq!(events, [b"a", b"b", b"c"]);
}

/// `validate` over every file of the shared data (the corpus and broken
/// files in one run, each big archive in its own): games = valid + with
/// errors + unsupported, and one job and two give the same output, read
/// errors included.
#[test]
fn validate_accounts_for_every_game_at_every_jobs() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], true) else {
        return;
    };
    let Some(data) = common::data_dir() else {
        return;
    };
    let small: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let mut runs = vec![small];
    for name in ["pgnmentor-12-players.pgn.zst", "tcec-seasons-01-14.pgn.zst"] {
        runs.push(vec![data.join("big").join(name).display().to_string()]);
    }
    for paths in runs {
        let run = |jobs: &str| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_pgnkit"))
                .args(["validate", "--jobs", jobs])
                .args(&paths)
                .output()
                .expect("run pgnkit");
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            (out.status.code(), out.stdout, stderr)
        };
        let one = run("1");
        let two = run("2");
        assert!(one == two, "{paths:?}: --jobs 1 and 2 differ");
        let [games, valid, _, errors, unsupported] = validate_counts(&one.2);
        assert!(games > 0, "{paths:?}");
        assert_eq!(games, valid + errors + unsupported, "{paths:?}");
        eprintln!("{games} games in {} files accounted for", paths.len());
    }
}
