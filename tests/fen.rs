//! FEN reading and writing: seed examples, round trips, and a table of
//! malformed FENs with the error each must give.

use pgnkit::{
    Bitboard, EpMode, FenError, FenField, Move, ParseFenErrorKind, Position, PositionProblem, Role,
    Setup, Square,
};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn seed_examples_round_trip() {
    for fen in [
        START,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
    ] {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(EpMode::Always), fen);
        assert_eq!(pos.to_string(), fen);
        assert_eq!(Setup::from_fen(fen).unwrap().to_fen(), fen);
    }
    assert_eq!(Position::startpos().to_string(), START);
    // Counters of any size are written whole.
    let big = "4k3/8/8/8/8/8/4P3/4K3 w - - 4294967295 4294967295";
    assert_eq!(Setup::from_fen(big).unwrap().to_fen(), big);
}

#[test]
fn seed_game_replayed() {
    let mut pos = Position::startpos();
    let steps = [
        (
            Role::Pawn,
            Square::E2,
            Square::E4,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ),
        (
            Role::Pawn,
            Square::C7,
            Square::C5,
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        ),
        (
            Role::Knight,
            Square::G1,
            Square::F3,
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        ),
    ];
    for (role, from, to, fen) in steps {
        pos.play(Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        })
        .unwrap();
        assert_eq!(pos.to_string(), fen);
        assert_eq!(Position::from_fen(fen).unwrap(), pos, "{fen}");
    }
    // In legal mode the e.p. squares disappear: nobody can capture.
    let legal = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let after_c5 = Position::from_fen(steps[1].3).unwrap();
    assert_eq!(after_c5.fen(EpMode::Legal), legal);
}

#[test]
fn four_fields_and_castling_notations() {
    let cases = [
        // (input, written back)
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            START,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            START,
        ),
        (
            "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
            "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w Qk - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1",
        ),
    ];
    for (input, output) in cases {
        match Position::from_fen(input) {
            Ok(pos) => assert_eq!(pos.to_string(), output, "{input}"),
            Err(e) => {
                // `k` without a black rook is a syntax error.
                assert!(input.contains("Qk"), "{input}: {e}");
            }
        }
    }
    let pos = Position::from_fen(cases[3].0).unwrap();
    assert!(pos.is_chess960());
    assert!(!Position::startpos().is_chess960());
}

fn parse_error(fen: &str) -> (FenField, usize, ParseFenErrorKind) {
    match Position::from_fen(fen) {
        Err(FenError::Parse(e)) => (e.field, e.offset, e.kind),
        other => panic!("{fen:?}: expected a syntax error, got {other:?}"),
    }
}

#[test]
fn malformed_syntax() {
    use FenField::*;
    use ParseFenErrorKind as K;
    #[rustfmt::skip]
    let cases: &[(&str, FenField, usize, ParseFenErrorKind)] = &[
        ("", Board, 0, K::MissingField),
        (" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 0, K::EmptyField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Turn, 43, K::MissingField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", Castling, 45, K::MissingField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", EnPassant, 50, K::MissingField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", FullmoveNumber, 54, K::MissingField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", Turn, 44, K::EmptyField),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", Board, 34, K::TooFewRanks),
        ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 36, K::TooManyRanks),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 18, K::BadDigit('9')),
        ("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 18, K::BadDigit('0')),
        ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 19, K::BadDigit('4')),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 17, K::RankTooLong),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 16, K::RankTooShort),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", Board, 42, K::RankTooShort),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 19, K::RankTooShort),
        ("rnbqkbnr/pppppppp/8/8/3x4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Board, 23, K::UnknownPiece('x')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBSKBNR w KQkq - 0 1", Board, 38, K::UnknownPiece('S')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", Turn, 44, K::BadTurn),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", Turn, 44, K::BadTurn),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", Castling, 49, K::BadCastling('x')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", Castling, 47, K::DuplicateCastling('K')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHkq - 0 1", Castling, 47, K::DuplicateCastling('H')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", Castling, 50, K::DuplicateCastling('K')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxkq - 0 1", Castling, 48, K::BadCastling('x')),
        ("1r2k2r/8/8/8/8/8/8/RR2K2R w KQkqB - 0 1", Castling, 32, K::TooManyCastlingRights),
        ("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Castling, 48, K::NoCastlingRook('k')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", Castling, 46, K::NoCastlingRook('K')),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", EnPassant, 51, K::BadEpSquare),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", EnPassant, 51, K::BadEpSquare),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1", EnPassant, 51, K::BadEpSquare),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", HalfmoveClock, 53, K::NotANumber),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", HalfmoveClock, 53, K::NotANumber),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", FullmoveNumber, 56, K::NotANumber),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 18446744073709551616 1", HalfmoveClock, 53, K::NumberOutOfRange),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", FullmoveNumber, 55, K::NumberOutOfRange),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", FullmoveNumber, 56, K::TrailingGarbage),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ", FullmoveNumber, 56, K::TrailingGarbage),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  0 1", HalfmoveClock, 53, K::EmptyField),
    ];
    assert!(cases.len() >= 30);
    let mismatches: Vec<String> = cases
        .iter()
        .filter(|&&(fen, field, offset, kind)| parse_error(fen) != (field, offset, kind))
        .map(|&(fen, ..)| format!("{fen:?}: got {:?}", parse_error(fen)))
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

fn problems(fen: &str) -> Vec<PositionProblem> {
    match Position::from_fen(fen) {
        Err(FenError::Position { error, offsets }) => {
            assert_eq!(error.problems.len(), offsets.len());
            error.problems
        }
        other => panic!("{fen:?}: expected a position error, got {other:?}"),
    }
}

#[test]
fn illegal_positions_report_every_problem() {
    use PositionProblem as P;
    use pgnkit::Color::{Black, White};
    let cases: &[(&str, &[PositionProblem])] = &[
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            &[P::KingCount {
                color: Black,
                count: 0,
            }],
        ),
        (
            "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
            &[P::KingCount {
                color: White,
                count: 2,
            }],
        ),
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            &[
                P::KingCount {
                    color: White,
                    count: 0,
                },
                P::KingCount {
                    color: Black,
                    count: 0,
                },
            ],
        ),
        (
            "4k2P/8/8/8/8/8/8/p3K3 w - - 0 1",
            &[P::PawnOnBackRank(Square::A1), P::PawnOnBackRank(Square::H8)],
        ),
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", &[]),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", &[P::OppositeCheck]),
        (
            "4k3/8/8/8/8/8/8/4K1R1 w H - 0 1",
            &[P::InvalidCastlingRight(Square::H1)],
        ),
        ("4k3/8/8/8/8/8/8/R3K2R w KQK - 0 1", &[]),
        (
            "4k3/8/8/8/8/8/8/RR2K3 w BA - 0 1",
            &[P::SecondCastlingRight(Square::B1)],
        ),
        (
            "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1",
            &[P::SecondCastlingRight(Square::G1)],
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w HA - 0 1",
            &[
                P::InvalidCastlingRight(Square::A1),
                P::InvalidCastlingRight(Square::H1),
            ],
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            &[P::InvalidEpSquare(Square::E6)],
        ),
        ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", &[]),
        (
            "4k3/4r3/8/4p3/8/8/8/4K3 w - e6 0 1",
            &[P::InvalidEpSquare(Square::E6)],
        ),
        (
            "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
            &[P::InvalidEpSquare(Square::E6)],
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
            &[P::InvalidEpSquare(Square::E3)],
        ),
        (
            "4k3/8/8/8/8/8/8/8 b - e3 0 1",
            &[
                P::KingCount {
                    color: White,
                    count: 0,
                },
                P::InvalidEpSquare(Square::E3),
            ],
        ),
    ];
    for &(fen, expected) in cases {
        if expected.is_empty() {
            // Syntax errors are covered above; these are legal or syntax errors.
            continue;
        }
        assert_eq!(problems(fen), expected, "{fen}");
    }
    // Each problem is located in the text.
    let cases = [
        ("4k2P/8/8/8/8/8/8/p3K3 w - - 0 1", vec![17, 3]),
        ("4k3/8/8/8/8/8/8/4K1K1 w - - 0 1", vec![19]),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", vec![22]),
        ("4k3/8/8/8/8/8/8/R3K1R1 w KB - 0 1", vec![26]),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", vec![24]),
    ];
    for (fen, expected) in cases {
        match Position::from_fen(fen) {
            Err(FenError::Position { offsets, .. }) => assert_eq!(offsets, expected, "{fen}"),
            other => panic!("{fen}: {other:?}"),
        }
    }
    let err = Position::from_fen("4k2P/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal position: pawn on back rank (h8) (board field, offset 3)"
    );
    let err = pgnkit::Position::from_setup(&Setup::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal position: no white king; no black king"
    );
    assert_eq!(Bitboard::EMPTY.count(), 0);
}
