//! The whole validate path on arbitrary bytes: framing, replay of the
//! mainline and every variation, result checks, lints and diagnostics.
//! Beyond "never panics", it checks what the CLI relies on:
//!
//! - a [`Replayer`] reused for the next game gives the same verdict as a
//!   fresh one (no state leaks between games);
//! - `replay_with` reports the start position and one position per ply
//!   played, the last one being the final position;
//! - every diagnostic's span lies inside the game, its message and FEN
//!   are printable, and the FEN reads back;
//! - the final FEN reads back as the same position;
//! - the replay reports exactly the syntax errors the syntax-only check
//!   reports (both read through one movetext reader);
//! - a valid, complete game from the standard start plays the same way in
//!   the tree-based converter (`convert`), to the same final position.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::convert::play_game;
use pgnkit::pgn::{ParseOptions, ParsePgnError, SyntaxChecker, parse_game_with};
use pgnkit::replay::Played;
use pgnkit::{EpMode, LetterPolicy, Position, pgn::{GameFramer, RawGame}, replay::{ReplayOptions, Replayer, Status}};

/// Small enough that fuzz inputs reach the too-large path.
const MAX_GAME: usize = 4096;

fn check_game(raw: &RawGame<'_>, options: &ReplayOptions, reused: &mut Replayer) {
    let replay = reused.replay(raw, options);
    let fresh = Replayer::new().replay(raw, options);
    assert_eq!(replay, fresh, "a reused replayer changed the verdict");

    let mut seen: Vec<(u32, Position)> = Vec::new();
    let again = Replayer::new().replay_with(raw, options, &mut |ply| {
        seen.push((ply.ply, ply.position.clone()));
    });
    assert_eq!(again, replay, "replay_with changed the verdict");
    match &replay.position {
        Some(position) => {
            let plies: Vec<u32> = seen.iter().map(|(ply, _)| *ply).collect();
            let expected: Vec<u32> = (0..=replay.plies).collect();
            assert_eq!(plies, expected, "mainline plies reported");
            assert_eq!(seen.last().map(|(_, p)| p), Some(position), "last ply");
            let fen = position.fen(EpMode::Always);
            let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(back.fen(EpMode::Always), fen, "final FEN");
        }
        None => assert!(seen.is_empty(), "plies without a start position"),
    }

    let mut checked: Vec<ParsePgnError> = Vec::new();
    // Read as the replay reads: lenient or not.
    let parse = ParseOptions {
        lenient: options.lenient,
        ..ParseOptions::default()
    };
    SyntaxChecker::new(parse).check(raw, |e| checked.push(e));
    let replayed: Vec<ParsePgnError> = replay.syntax_errors().collect();
    if replay.position.is_some() {
        assert_eq!(replayed, checked, "replay and syntax check disagree");
    } else {
        // Not read past the tags: no start position.
        assert!(checked.starts_with(&replayed), "replay and syntax check disagree");
    }

    for d in &replay.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= raw.bytes.len(),
            "diagnostic span {:?} outside the game ({} bytes)",
            d.span,
            raw.bytes.len()
        );
        assert!(!d.message().is_empty());
        if let Some(fen) = d.fen_before() {
            Position::from_fen(&fen).unwrap_or_else(|e| panic!("diagnostic FEN {fen}: {e}"));
        }
    }

    // The converter agrees with the replay on plain valid games.
    if replay.status != Status::Valid || !replay.complete {
        return;
    }
    let game = parse_game_with(
        raw,
        &ParseOptions {
            lenient: options.lenient,
            ..ParseOptions::default()
        },
    );
    let special = ["FEN", "SetUp", "Variant"];
    if game.tags.iter().any(|t| special.iter().any(|s| t.is(s))) {
        return;
    }
    let Some(position) = &replay.position else {
        return;
    };
    let line = play_game(&game, &Position::startpos(), options.letters, None)
        .unwrap_or_else(|e| panic!("valid game does not convert: {e:?}"));
    let mut pos = Position::startpos();
    for m in &line.moves {
        match m.played {
            Played::Move(mv) => pos.play_unchecked(mv),
            Played::Null => pos.play_null(),
        }
    }
    assert_eq!(&pos, position, "converter and replay end apart");
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, pgn)) = data.split_first() else {
        return;
    };
    let options = ReplayOptions {
        letters: match flags % 3 {
            0 => LetterPolicy::Auto,
            1 => LetterPolicy::English,
            _ => LetterPolicy::German,
        },
        lints: flags & 4 != 0,
        lenient: flags & 8 != 0,
    };
    let mut replayer = Replayer::new();
    let mut framer = GameFramer::new(pgn).with_max_game_bytes(MAX_GAME);
    while let Some(game) = framer.next_game() {
        match game {
            Ok(raw) => check_game(&raw, &options, &mut replayer),
            Err(err) => {
                let _ = err.to_string();
            }
        }
    }
});
