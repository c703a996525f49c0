//! Positions that can be played but cannot arise in a game: a check no
//! move can have given, more men than a side has, a clock longer than the
//! game.
//!
//! [`Position::from_setup`] accepts every position the rules can be
//! applied to (perft suites hold impossible ones on purpose);
//! [`Position::unreachable`] names the reasons a position cannot have been
//! reached from the start position by legal moves, for the places where
//! that matters (a game's `[FEN]` tag).

use std::fmt;

use crate::{
    attacks, bitboard::Bitboard, color::Color, position::Position, role::Role, square::Square,
};

/// One reason a position cannot arise in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unreachable {
    /// More than two pieces give check: one move gives at most two
    /// checks (the piece moved and one it uncovers).
    TooManyCheckers(usize),
    /// Two pieces give check that no single move can have uncovered and
    /// made together: two of pawn and knight, two bishops, or two checkers
    /// on one line with the king.
    ImpossibleDoubleCheck(Square, Square),
    /// The last move was a double step (the en-passant square says so),
    /// but the check is not one it gave or uncovered.
    CheckNotByDoubleStep(Square),
    /// A side has more than 16 men.
    TooManyPieces {
        /// Whose men.
        color: Color,
        /// How many.
        count: usize,
    },
    /// A side has more than 8 pawns.
    TooManyPawns {
        /// Whose pawns.
        color: Color,
        /// How many.
        count: usize,
    },
    /// A side has more pawns and promoted pieces (pieces past the start
    /// set: a second queen, a third rook, a second bishop on squares of one
    /// colour …) than its 8 pawns.
    TooManyPromoted {
        /// Whose pieces.
        color: Color,
        /// Pawns on the board.
        pawns: usize,
        /// Pieces that must have been promoted.
        promoted: usize,
    },
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unreachable::TooManyCheckers(n) => write!(f, "{n} pieces give check"),
            Unreachable::ImpossibleDoubleCheck(a, b) => {
                write!(f, "no move gives double check from {a} and {b}")
            }
            Unreachable::CheckNotByDoubleStep(sq) => {
                write!(
                    f,
                    "the check from {sq} is not given by the double step the en-passant square shows"
                )
            }
            Unreachable::TooManyPieces { color, count } => {
                write!(f, "{count} {color} men (at most 16)")
            }
            Unreachable::TooManyPawns { color, count } => {
                write!(f, "{count} {color} pawns (at most 8)")
            }
            Unreachable::TooManyPromoted {
                color,
                pawns,
                promoted,
            } => write!(
                f,
                "{pawns} {color} pawns and {promoted} promoted pieces (at most 8 together)"
            ),
        }
    }
}

impl Position {
    /// Why this position cannot arise in a game from the start position;
    /// empty if no reason is found (not a proof that it can).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Position, Unreachable, Square};
    /// // Two knights give check: no move does that.
    /// let pos = Position::from_fen("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1").unwrap();
    /// assert_eq!(
    ///     pos.unreachable(),
    ///     [Unreachable::ImpossibleDoubleCheck(Square::D6, Square::F6)]
    /// );
    /// assert!(Position::startpos().unreachable().is_empty());
    /// ```
    pub fn unreachable(&self) -> Vec<Unreachable> {
        let mut found = Vec::new();
        self.check_reasons(&mut found);
        for color in Color::ALL {
            material_reasons(self, color, &mut found);
        }
        found
    }

    fn check_reasons(&self, found: &mut Vec<Unreachable>) {
        let checkers = self.checkers();
        let Some(king) = self.board.king_of(self.turn) else {
            return;
        };
        if checkers.count() > 2 {
            found.push(Unreachable::TooManyCheckers(checkers.count()));
            return;
        }
        if let Some(ep) = self.ep_square
            && checkers.any()
        {
            let up = self.turn.fold(1, -1);
            // The pawn that double-stepped, and where it came from.
            if let (Some(pushed), Some(from)) = (ep.offset(0, -up), ep.offset(0, up)) {
                let before = self.board.occupied().without(pushed).with(from);
                let given = checkers.single_square() == Some(pushed);
                let uncovered = self
                    .board
                    .attackers(king, !self.turn, before)
                    .without(pushed)
                    .is_empty();
                if checkers.more_than_one() || !(given || uncovered) {
                    found.extend(checkers.first().map(Unreachable::CheckNotByDoubleStep));
                    return;
                }
            }
        }
        if let (Some(a), Some(b)) = (checkers.first(), checkers.last())
            && a != b
        {
            let board = &self.board;
            let leapers = board.by_role(Role::Pawn) | board.by_role(Role::Knight);
            let bishops = board.by_role(Role::Bishop);
            let both = |set: Bitboard| set.contains(a) && set.contains(b);
            if both(leapers) || both(bishops) || attacks::aligned(a, b, king) {
                found.push(Unreachable::ImpossibleDoubleCheck(a, b));
            }
        }
    }

    /// The plies played before this position, as the full-move number
    /// and the side to move count them.
    pub fn plies_played(&self) -> u64 {
        (self.fullmoves.saturating_sub(1))
            .saturating_mul(2)
            .saturating_add(u64::from(self.turn == Color::Black))
    }

    /// Whether the half-move clock fits in the game so far: it counts
    /// plies, and no more plies were played than [`plies_played`]
    /// (FIDE Laws 9.3, the clock of the PGN standard's FEN).
    ///
    /// [`plies_played`]: Position::plies_played
    pub fn clock_fits(&self) -> bool {
        self.halfmoves <= self.plies_played()
    }
}

/// Too many men, pawns, or pawns and promoted pieces of `color`.
fn material_reasons(pos: &Position, color: Color, found: &mut Vec<Unreachable>) {
    let board = &pos.board;
    let ours = board.by_color(color);
    let count = ours.count();
    if count > 16 {
        found.push(Unreachable::TooManyPieces { color, count });
    }
    let pawns = (ours & board.by_role(Role::Pawn)).count();
    if pawns > 8 {
        found.push(Unreachable::TooManyPawns {
            color,
            count: pawns,
        });
        return;
    }
    let extra =
        |role: Role, start: usize| (ours & board.by_role(role)).count().saturating_sub(start);
    let bishops = ours & board.by_role(Role::Bishop);
    let promoted = extra(Role::Queen, 1)
        + extra(Role::Rook, 2)
        + extra(Role::Knight, 2)
        + (bishops & Bitboard::LIGHT_SQUARES)
            .count()
            .saturating_sub(1)
        + (bishops & Bitboard::DARK_SQUARES).count().saturating_sub(1);
    if pawns + promoted > 8 {
        found.push(Unreachable::TooManyPromoted {
            color,
            pawns,
            promoted,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::{Black, White};
    use crate::square::Square as S;

    #[test]
    fn each_reason() {
        use Unreachable::*;
        let cases: &[(&str, &[Unreachable])] = &[
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                &[],
            ),
            // Three checkers.
            ("4k3/8/3N1N2/8/8/8/4R3/4K3 b - - 0 1", &[TooManyCheckers(3)]),
            // Two knights, two pawns, pawn and knight, two bishops.
            (
                "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1",
                &[ImpossibleDoubleCheck(S::D6, S::F6)],
            ),
            (
                "4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1",
                &[ImpossibleDoubleCheck(S::D7, S::F7)],
            ),
            (
                "4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1",
                &[ImpossibleDoubleCheck(S::F6, S::D7)],
            ),
            (
                "4k3/8/8/1B5B/8/8/8/4K3 b - - 0 1",
                &[ImpossibleDoubleCheck(S::B5, S::H5)],
            ),
            // Possible double checks: rook and bishop, knight and rook,
            // two rooks (exd8=R with a rook on h7).
            ("8/8/8/B7/8/8/4R3/4k1K1 b - - 0 1", &[]),
            ("4k3/8/3N4/8/8/8/4R3/4K3 b - - 0 1", &[]),
            ("3R4/3k3R/8/8/8/8/8/4K3 b - - 0 1", &[]),
            // Two rooks on one line with the king, from both sides.
            (
                "4r3/8/8/8/4K3/8/8/4r2k w - - 0 1",
                &[ImpossibleDoubleCheck(S::E1, S::E8)],
            ),
            // After e2-e4: the pawn gives check, or uncovers one; a check
            // from elsewhere is impossible.
            ("8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1", &[]),
            ("8/8/8/8/4P3/8/k6R/4K3 b - e3 0 1", &[]),
            (
                "8/8/8/8/4P3/k6R/8/4K3 b - e3 0 1",
                &[CheckNotByDoubleStep(S::H3)],
            ),
            (
                "k7/8/8/8/4P3/8/8/R3K3 b - e3 0 1",
                &[CheckNotByDoubleStep(S::A1)],
            ),
            // Material.
            (
                "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
                &[TooManyPawns {
                    color: Black,
                    count: 9,
                }],
            ),
            (
                "QQQ5/8/8/7k/8/8/PPPPPPP1/4K3 w - - 0 1",
                &[TooManyPromoted {
                    color: White,
                    pawns: 7,
                    promoted: 2,
                }],
            ),
            ("4k3/8/8/8/8/8/PPPPPPPP/BB2K3 w - - 0 1", &[]),
            (
                "4k3/8/8/8/8/8/PPPPPPPP/B1B1K3 w - - 0 1",
                &[TooManyPromoted {
                    color: White,
                    pawns: 8,
                    promoted: 1,
                }],
            ),
            (
                "QQQQ4/QQQQ4/8/7k/8/8/PPPPPPPP/NNNNKNNN w - - 0 1",
                &[
                    TooManyPieces {
                        color: White,
                        count: 24,
                    },
                    TooManyPromoted {
                        color: White,
                        pawns: 8,
                        promoted: 12,
                    },
                ],
            ),
        ];
        for &(fen, expected) in cases {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.unreachable(), expected, "{fen}");
        }
    }

    #[test]
    fn clock_fits_the_plies_played() {
        for (fen, fits) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 1 1", false),
            ("4k3/8/8/8/8/8/8/R3K3 b - - 1 1", true),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 98 50", true),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 99 50", false),
            ("4k3/8/8/8/8/8/8/R3K3 b - - 99 50", true),
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().clock_fits(), fits, "{fen}");
        }
    }
}
