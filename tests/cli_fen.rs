//! `pgnkit fen` at any ply, run as a real binary: whole outputs, messages
//! and exit codes; the pgn-extract FEN-comment golden file ply by ply.

mod cli_support;
mod common;

use cli_support::{pgnkit, pgnkit_in};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
const E4E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
const NF3: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

const TWO: &[u8] = b"[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                     [White \"C\"]\n\n1. e4 *\n";

#[test]
fn ply_move_and_from_the_end() {
    let cases: &[(&[&str], &str)] = &[
        (&["fen", "--ply", "0"], &format!("{START}\n{START}\n")),
        (&["fen", "--ply", "1"], &format!("{E4}\n{E4}\n")),
        (&["fen", "--ply", "-1"], &format!("{NF3}\n{E4}\n")),
        (&["fen", "--ply", "-2"], &format!("{E4E5}\n{START}\n")),
        (&["fen", "--move", "1w"], &format!("{E4}\n{E4}\n")),
        (
            &["fen", "--move", "2w", "--skip-short"],
            &format!("{NF3}\n"),
        ),
        (
            &["fen", "--ply", "2", "--skip-short", "--epd"],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6\n",
        ),
        (
            &["fen", "--ply", "2", "--skip-short", "--ep", "legal"],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
        ),
        (
            &["fen", "--ply", "1", "--with", "White,Black,Result"],
            &format!("{E4}\tA\tB\t*\n{E4}\tC\t\t\n"),
        ),
    ];
    for (args, expected) in cases {
        let out = pgnkit_in(args, TWO);
        assert_eq!(out.stdout, *expected, "{args:?}");
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr, "", "{args:?}");
    }
}

#[test]
fn all_positions_with_game_and_ply() {
    let out = pgnkit_in(&["fen", "--all"], TWO);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        format!(
            "1\t0\t{START}\n1\t1\t{E4}\n1\t2\t{E4E5}\n1\t3\t{NF3}\n2\t0\t{START}\n2\t1\t{E4}\n"
        )
    );
}

#[test]
fn a_short_game_is_reported_not_printed() {
    let out = pgnkit_in(&["fen", "--ply", "2"], TWO);
    assert_eq!(out.stdout, format!("{E4E5}\n"));
    assert_eq!(
        out.stderr,
        "<stdin>:7:1: error: game 2: the game has 1 ply, fewer than asked\n"
    );
    assert_eq!(out.code, 1);
}

#[test]
fn a_move_before_the_start_is_named_so() {
    let game = b"[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"]\n\n2... Nc6 *\n";
    let out = pgnkit_in(&["fen", "--move", "1w"], game);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "<stdin>:1:1: error: game 1: move 1w comes before the game's first move, 2...\n"
    );
    assert_eq!(out.code, 1);
    // The start position is the one after White's move 2.
    let out = pgnkit_in(&["fen", "--move", "2w"], game);
    assert_eq!(
        out.stdout,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"
    );
}

/// Move numbers are counted without overflow, whatever the FEN tag's move
/// number: from move 2^31 + 1, twice the number wraps a u32, and a move
/// after 4294967295 is 4294967296.
#[test]
fn moves_are_found_from_a_start_near_the_largest_move_number() {
    for start in [2_147_483_649u64, 4_294_967_295] {
        let game = format!(
            "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 {start}\"]\n\n{start}. Kf1 Kd7 *\n"
        );
        let out = pgnkit_in(&["fen", "--move", "1w"], game.as_bytes());
        assert_eq!(out.stdout, "", "{start}");
        assert_eq!(
            out.stderr,
            format!(
                "<stdin>:1:1: error: game 1: move 1w comes before the game's first move, {start}.\n"
            )
        );
        assert_eq!(out.code, 1);
        let out = pgnkit_in(&["fen", "--move", &format!("{start}w")], game.as_bytes());
        assert_eq!(
            out.stdout,
            format!("4k3/8/8/8/8/8/8/5K1R b - - 1 {start}\n"),
            "{start}"
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        // The final position's move number counts on past u32::MAX.
        let out = pgnkit_in(&["fen"], game.as_bytes());
        assert_eq!(
            out.stdout,
            format!("8/3k4/8/8/8/8/8/5K1R w - - 2 {}\n", start + 1),
        );
    }
}

#[test]
fn an_invalid_game_prints_only_positions_before_its_error() {
    let game = b"1. e4 e5 2. Nf3 Ke7 3. Ke3 *\n";
    let error =
        "<stdin>:1:24: error: game 1 (? - ?), 3.Ke3: illegal move: no king can move to e3\n";
    let after_ke7 = "rnbq1bnr/ppppkppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQ - 2 3";
    let cases: &[(&[&str], String)] = &[
        (&["fen", "--ply", "1"], format!("{E4}\n")),
        (&["fen", "--ply", "4"], format!("{after_ke7}\n")),
        (&["fen", "--ply", "5"], String::new()),
        (&["fen", "--ply", "9"], String::new()),
        (&["fen", "--ply", "-1"], String::new()),
        (&["fen"], String::new()),
        (
            &["fen", "--all"],
            format!("1\t0\t{START}\n1\t1\t{E4}\n1\t2\t{E4E5}\n1\t3\t{NF3}\n1\t4\t{after_ke7}\n"),
        ),
    ];
    for (args, expected) in cases {
        let out = pgnkit_in(args, game);
        assert_eq!(out.stdout, *expected, "{args:?}");
        assert_eq!(out.stderr, error, "{args:?}");
        assert_eq!(out.code, 1, "{args:?}");
    }
}

#[test]
fn usage_errors() {
    for args in [
        &["fen", "--move", "12"][..],
        &["fen", "--move", "0w"],
        &["fen", "--ply", "1", "--all"],
        &["fen", "--ply", "x"],
    ] {
        let out = pgnkit(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
    }
}

/// The FEN comments pgn-extract wrote after every mainline move
/// (`--fencomments`); comments inside variations are left out.
fn golden_fens(text: &str) -> Vec<String> {
    let mut fens = Vec::new();
    let mut depth = 0usize;
    let mut comment: Option<String> = None;
    for c in text.chars() {
        match (&mut comment, c) {
            (Some(body), '}') => {
                let fields = body.split_whitespace().collect::<Vec<_>>();
                if depth == 0 && fields.len() == 6 && fields[0].matches('/').count() == 7 {
                    fens.push(fields.join(" "));
                }
                comment = None;
            }
            (Some(body), c) => body.push(c),
            (None, '{') => comment = Some(String::new()),
            (None, '(') => depth += 1,
            (None, ')') => depth = depth.saturating_sub(1),
            (None, _) => {}
        }
    }
    fens
}

#[test]
fn every_ply_matches_pgn_extract_fen_comments() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let dir = data.join("corpus/pgn-extract");
    let golden = std::fs::read_to_string(dir.join("golden/test-fencomments-out.pgn")).unwrap();
    let input = dir.join("infiles/test-fencomments.pgn");
    let input = input.to_str().unwrap();
    let mut expected = vec![START.to_string()];
    expected.extend(golden_fens(&golden));
    assert!(expected.len() == 73, "{}", expected.len());
    let all = pgnkit(&["fen", "--all", input]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let got: Vec<&str> = all
        .stdout
        .lines()
        .map(|l| l.splitn(3, '\t').nth(2).unwrap())
        .collect();
    assert_eq!(got, expected);
    for (ply, fen) in expected.iter().enumerate() {
        let out = pgnkit(&["fen", "--ply", &ply.to_string(), input]);
        assert_eq!(out.code, 0, "ply {ply}: {}", out.stderr);
        assert_eq!(out.stdout, format!("{fen}\n"), "ply {ply}");
    }
}

/// The start position is reached legally even when the first move is
/// illegal: `--ply 0` and `--all` print it (and report the error).
#[test]
fn regression_start_position_before_an_illegal_first_move_was_not_printed() {
    let illegal_first = b"[White \"A\"]\n\n1. Ke2 e5 *\n";
    let out = pgnkit_in(&["fen", "--ply", "0"], illegal_first);
    assert_eq!(out.stdout, format!("{START}\n"));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("illegal move"), "{}", out.stderr);
    let out = pgnkit_in(&["fen", "--all"], illegal_first);
    assert_eq!(out.stdout, format!("1\t0\t{START}\n"));
    assert_eq!(out.code, 1);
    // An error before the first move (here a malformed tag) still makes
    // the start position untrusted.
    let broken_tags = b"[White \"A\"]\n[FEN \"bad\n\n1. e4 *\n";
    let out = pgnkit_in(&["fen", "--ply", "0"], broken_tags);
    assert_eq!(out.stdout, "", "{}", out.stderr);
    assert_eq!(out.code, 1);
}
