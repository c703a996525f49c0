//! Property tests on random legal games: the notation and PGN layers agree
//! with the rules core.
//!
//! Games are random move indices played from the start position, with a
//! bias towards promotions, castling and en passant so that they occur (a
//! deterministic test checks they do).

use pgnkit::pgn::{RawGame, parse_game};
use pgnkit::{EpMode, LetterPolicy, Move, MoveToken, Position, Resolved, Style, write_move};
use proptest::prelude::*;

/// How often each special kind of move was played.
#[derive(Debug, Default)]
struct Played {
    promotions: usize,
    castles: usize,
    en_passant: usize,
}

/// Plays one move per choice from the start position: a choice picks a
/// special move (promotion, castling, en passant) when one is legal and
/// its low bits say so, else a move by index.
fn random_game(choices: &[u16], played: &mut Played) -> (Vec<Move>, Vec<Position>) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut positions = vec![pos];
    for &choice in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.is_promotion() || m.castling_side().is_some() || m.is_en_passant())
            .collect();
        let index = usize::from(choice >> 2);
        let m = if choice & 3 == 0 && !special.is_empty() {
            special[index % special.len()]
        } else {
            legal[index % legal.len()]
        };
        played.promotions += usize::from(m.is_promotion());
        played.castles += usize::from(m.castling_side().is_some());
        played.en_passant += usize::from(m.is_en_passant());
        pos.play_unchecked(m);
        moves.push(m);
        positions.push(pos);
    }
    (moves, positions)
}

/// The game as PGN: tags, SAN with move numbers, the result.
fn write_pgn(moves: &[Move]) -> String {
    let mut pos = Position::startpos();
    let mut pgn = String::from("[Event \"property\"]\n[Result \"*\"]\n\n");
    for (ply, &m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            pgn.push_str(&format!("{}. ", ply / 2 + 1));
        }
        write_move(&mut pgn, &pos, m, Style::SAN).expect("write to string");
        pgn.push(if ply % 8 == 7 { '\n' } else { ' ' });
        pos.play_unchecked(m);
    }
    pgn.push_str("*\n");
    pgn
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    proptest::collection::vec(any::<u16>(), 0..200)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random game → PGN with SAN and move numbers → parse_game → resolve
    /// and replay: the same moves and the same final position.
    #[test]
    fn written_games_replay_to_the_same_moves(choices in choices()) {
        let (moves, positions) = random_game(&choices, &mut Played::default());
        let pgn = write_pgn(&moves);
        let game = parse_game(&RawGame::from_bytes(pgn.as_bytes()));
        prop_assert!(game.errors.is_empty(), "{:?}\n{pgn}", game.errors);
        prop_assert_eq!(game.mainline.moves.len(), moves.len());
        let mut pos = Position::startpos();
        for (node, &expected) in game.mainline.moves.iter().zip(&moves) {
            let token = node.token.as_ref().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let resolved = token
                .resolve(&pos, LetterPolicy::Auto)
                .map_err(|e| TestCaseError::fail(format!("{e}\n{pgn}")))?;
            prop_assert_eq!(resolved, Resolved::Move(expected));
            pos.play_unchecked(expected);
        }
        let last = positions.last().expect("start position");
        prop_assert_eq!(pos.fen(EpMode::Always), last.fen(EpMode::Always));
    }

    /// In every position of a random game, every legal move written in
    /// SAN, long algebraic, UCI and German resolves back to it.
    #[test]
    fn every_legal_move_resolves_back(choices in proptest::collection::vec(any::<u16>(), 0..80)) {
        let (_, positions) = random_game(&choices, &mut Played::default());
        let styles = [
            (Style::SAN, LetterPolicy::Auto),
            (Style::LAN, LetterPolicy::Auto),
            (Style::UCI, LetterPolicy::Auto),
            (Style::DE, LetterPolicy::German),
            (Style::FIGURINE, LetterPolicy::Auto),
        ];
        for pos in &positions {
            for &m in pos.legal_moves().iter() {
                for (style, policy) in styles {
                    let text = style.text(pos, m);
                    let token = MoveToken::parse(text.as_bytes())
                        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
                    let back = token.resolve(pos, policy);
                    prop_assert_eq!(back, Ok(Resolved::Move(m)), "{} in {}", text, pos.fen(EpMode::Always));
                }
            }
        }
    }

    /// FEN write → read is the identity on reachable positions.
    #[test]
    fn fen_round_trips_on_reachable_positions(choices in choices()) {
        let (_, positions) = random_game(&choices, &mut Played::default());
        for pos in &positions {
            for mode in [EpMode::Always, EpMode::Legal] {
                let fen = pos.fen(mode);
                let again = Position::from_fen(&fen)
                    .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
                prop_assert_eq!(again.fen(mode), fen.clone());
                if mode == EpMode::Always {
                    prop_assert!(&again == pos, "{} reads as another position", fen);
                }
            }
        }
    }
}

/// The generator reaches the moves the properties are about.
#[test]
fn random_games_include_promotions_castling_and_en_passant() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut played = Played::default();
    for _ in 0..96 {
        let choices = choices().new_tree(&mut runner).expect("a value").current();
        random_game(&choices, &mut played);
    }
    assert!(
        played.promotions > 0 && played.castles > 0 && played.en_passant > 0,
        "{played:?}"
    );
}
