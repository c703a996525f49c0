//! How a game ended on the board.

use std::fmt;

use crate::{color::Color, pgn::Outcome};

/// How a game ended on the board (at the end of its mainline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate (dead position by material).
    InsufficientMaterial,
    /// The same position for the fifth time: the game is drawn.
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move: drawn.
    SeventyFiveMoves,
    /// The same position for the third time: a draw may be claimed.
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move: a draw may be
    /// claimed.
    FiftyMoves,
    /// The side to move has a move that makes the same position occur for
    /// the third time: a draw may be claimed with that move (FIDE Laws
    /// 9.2.1(a)).
    ThreefoldRepetitionNextMove,
    /// The side to move has a move (no capture, no pawn move) that completes
    /// 50 moves by each side without capture or pawn move: a draw may be
    /// claimed with that move (FIDE Laws 9.3.1(a)).
    FiftyMovesNextMove,
    /// None of the above: the game could go on.
    Unfinished,
}

impl Termination {
    /// Every name [`as_str`](Self::as_str) gives, in the order of the
    /// summaries: the game over by rule, then the claimable draws (claims of
    /// what happened before claims with the next move), then `unfinished`.
    pub const NAMES: [&'static str; 10] = [
        "checkmate",
        "stalemate",
        "insufficient_material",
        "fivefold_repetition",
        "seventyfive_moves",
        "threefold_repetition",
        "fifty_moves",
        "threefold_repetition_next_move",
        "fifty_moves_next_move",
        "unfinished",
    ];

    /// A lower-case name (`checkmate`, `stalemate`, `insufficient_material`,
    /// `fivefold_repetition`, `seventyfive_moves`, `threefold_repetition`,
    /// `fifty_moves`, `threefold_repetition_next_move`,
    /// `fifty_moves_next_move`, `unfinished`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate { .. } => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::ThreefoldRepetitionNextMove => "threefold_repetition_next_move",
            Termination::FiftyMovesNextMove => "fifty_moves_next_move",
            Termination::Unfinished => "unfinished",
        }
    }

    /// Whether the game is over by rule (no claim needed).
    pub const fn is_game_over(self) -> bool {
        !matches!(self, Termination::Unfinished) && !self.is_claimable()
    }

    /// Whether a draw may be claimed: by what happened (threefold
    /// repetition, 50 moves) or with the next move.
    pub const fn is_claimable(self) -> bool {
        matches!(
            self,
            Termination::ThreefoldRepetition
                | Termination::FiftyMoves
                | Termination::ThreefoldRepetitionNextMove
                | Termination::FiftyMovesNextMove
        )
    }

    /// Whether the draw may be claimed only with the next move (the claim
    /// names a move not yet played).
    pub const fn is_next_move_claim(self) -> bool {
        matches!(
            self,
            Termination::ThreefoldRepetitionNextMove | Termination::FiftyMovesNextMove
        )
    }

    /// The result the rules impose, if the game is over.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Termination::Checkmate {
                winner: Color::White,
            } => Some(Outcome::WhiteWins),
            Termination::Checkmate {
                winner: Color::Black,
            } => Some(Outcome::BlackWins),
            Termination::Stalemate
            | Termination::InsufficientMaterial
            | Termination::FivefoldRepetition
            | Termination::SeventyFiveMoves => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Checkmate { winner } => write!(f, "checkmate by {winner}"),
            Termination::Stalemate => f.write_str("stalemate"),
            Termination::InsufficientMaterial => {
                f.write_str("dead position (insufficient material)")
            }
            Termination::FivefoldRepetition => f.write_str("fivefold repetition"),
            Termination::SeventyFiveMoves => f.write_str("75-move rule"),
            Termination::ThreefoldRepetition => f.write_str("threefold repetition (claimable)"),
            Termination::FiftyMoves => f.write_str("50-move rule (claimable)"),
            Termination::ThreefoldRepetitionNextMove => {
                f.write_str("threefold repetition (claimable with the next move)")
            }
            Termination::FiftyMovesNextMove => {
                f.write_str("50-move rule (claimable with the next move)")
            }
            Termination::Unfinished => f.write_str("unfinished"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color::White;

    #[test]
    fn termination_names_round_trip() {
        for (t, name, white) in [
            (Termination::Checkmate { winner: White }, "checkmate", true),
            (Termination::Stalemate, "stalemate", false),
        ] {
            assert_eq!(t.as_str(), name);
            assert_eq!(t.outcome() == Some(Outcome::WhiteWins), white);
        }
    }

    #[test]
    fn every_name_is_listed_once_and_claims_are_told_apart() {
        use Termination::*;
        let all = [
            Checkmate { winner: White },
            Stalemate,
            InsufficientMaterial,
            FivefoldRepetition,
            SeventyFiveMoves,
            ThreefoldRepetition,
            FiftyMoves,
            ThreefoldRepetitionNextMove,
            FiftyMovesNextMove,
            Unfinished,
        ];
        let names: Vec<_> = all.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, Termination::NAMES);
        // (game over, claimable, with the next move, imposes a result)
        let kinds: Vec<_> = all
            .iter()
            .map(|t| {
                (
                    t.is_game_over(),
                    t.is_claimable(),
                    t.is_next_move_claim(),
                    t.outcome().is_some(),
                )
            })
            .collect();
        let over = (true, false, false, true);
        let claim = (false, true, false, false);
        let next = (false, true, true, false);
        let open = (false, false, false, false);
        assert_eq!(
            kinds,
            [over, over, over, over, over, claim, claim, next, next, open]
        );
        assert_eq!(
            ThreefoldRepetitionNextMove.to_string(),
            "threefold repetition (claimable with the next move)"
        );
        assert_eq!(
            FiftyMovesNextMove.to_string(),
            "50-move rule (claimable with the next move)"
        );
    }
}
