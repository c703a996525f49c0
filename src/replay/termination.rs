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
    /// None of the above: the game could go on.
    Unfinished,
}

impl Termination {
    /// A lower-case name (`checkmate`, `stalemate`, `insufficient_material`,
    /// `fivefold_repetition`, `seventyfive_moves`, `threefold_repetition`,
    /// `fifty_moves`, `unfinished`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate { .. } => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::Unfinished => "unfinished",
        }
    }

    /// Whether the game is over by rule (no claim needed).
    pub const fn is_game_over(self) -> bool {
        !matches!(
            self,
            Termination::ThreefoldRepetition | Termination::FiftyMoves | Termination::Unfinished
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
}
