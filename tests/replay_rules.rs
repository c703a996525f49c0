//! Result rules on real games of the corpus (`corpus/pychess`), and the
//! fast path (no lints) giving the same verdicts as the full one.

mod common;

use std::path::Path;

use pgnkit::pgn::GameFramer;
use pgnkit::replay::{Replay, ReplayOptions, Replayer, Status, Termination};
use pgnkit::{Color, EpMode, LetterPolicy, input};

fn replays(path: &Path, lints: bool) -> Vec<Replay> {
    let mut framer = GameFramer::new(input::open(path).unwrap());
    let mut replayer = Replayer::new();
    let options = ReplayOptions {
        letters: LetterPolicy::Auto,
        lints,
        lenient: false,
    };
    let mut out = Vec::new();
    while let Some(raw) = framer.next_game() {
        out.push(replayer.replay(&raw.unwrap(), &options));
    }
    out
}

#[test]
fn corpus_games_reach_each_rule() {
    let Some(data) = common::data_dir() else {
        return;
    };
    use Termination::*;
    let cases: &[(&str, &[Termination])] = &[
        ("3fold.pgn", &[ThreefoldRepetition, ThreefoldRepetition]),
        ("threefold.pgn", &[ThreefoldRepetition]),
        ("50.pgn", &[FiftyMoves]),
        // 91 plies, the last capture 45 moves before the end: a draw agreed
        // on an unfinished board, which is fine.
        ("50halfmoves.pgn", &[Unfinished]),
        ("insufficient_material.pgn", &[InsufficientMaterial]),
        (
            "mate.pgn",
            &[Checkmate {
                winner: Color::Black,
            }],
        ),
    ];
    for &(file, expected) in cases {
        let games = replays(&data.join("corpus/pychess").join(file), true);
        let found: Vec<Termination> = games.iter().filter_map(|r| r.termination).collect();
        assert_eq!(found, expected, "{file}");
        for r in &games {
            assert_eq!(r.status, Status::Valid, "{file}: {:?}", r.diagnostics);
        }
    }
}

#[test]
fn lints_do_not_change_verdicts() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let mut stack = vec![data.join("corpus"), data.join("broken")];
    let mut games = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "pgn") {
                continue;
            }
            let fast = replays(&path, false);
            let full = replays(&path, true);
            assert_eq!(fast.len(), full.len());
            for (a, b) in fast.iter().zip(&full) {
                games += 1;
                let key = |r: &Replay| {
                    (
                        r.status,
                        r.plies,
                        r.termination,
                        r.position.as_ref().map(|p| p.fen(EpMode::Always)),
                        r.diagnostics
                            .iter()
                            .filter(|d| d.severity == pgnkit::replay::Severity::Error)
                            .map(|d| (d.kind.name(), d.span))
                            .collect::<Vec<_>>(),
                    )
                };
                assert_eq!(key(a), key(b), "{}", path.display());
            }
        }
    }
    assert!(games > 5000);
}

/// The claimable draws of pgn-extract's repetition test file, against
/// python-chess's claims (`../shared/expected`): every game it may claim as
/// a threefold repetition is one here, on the board or with the next move
/// (game 8, Kostic - Capablanca: 50...Kf7 would make the third occurrence).
#[test]
fn repetition_claims_with_the_next_move() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let Some(expected) = common::expected_dir() else {
        return;
    };
    use Termination::*;
    let path = data.join("corpus/pgn-extract/infiles/test-repetition.pgn");
    let found: Vec<Termination> = replays(&path, false)
        .iter()
        .map(|r| r.termination.unwrap())
        .collect();
    let (now, next) = (ThreefoldRepetition, ThreefoldRepetitionNextMove);
    let open = Unfinished;
    assert_eq!(
        found,
        [
            now, now, now, open, open, now, open, next, open, open, next, open
        ]
    );
    let tsv =
        std::fs::read_to_string(expected.join("corpus/pgn-extract/infiles/test-repetition.tsv"))
            .unwrap();
    let claims: Vec<bool> = tsv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').nth(9).unwrap().contains("claim:threefold"))
        .collect();
    let ours: Vec<bool> = found.iter().map(|t| t.is_claimable()).collect();
    assert_eq!(ours, claims);
}
