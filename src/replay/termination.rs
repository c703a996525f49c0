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

/// The vocabulary of terminations: every name [`Termination::as_str`]
/// gives, in the order summaries list them, then [`INCOMPLETE`] and
/// [`UNSUPPORTED`]. Every
/// command writes these names (text summaries, JSON, `stats`) and `status`
/// filters compare with them; a new termination is one line here and its
/// arm in [`Termination::as_str`].
pub const NAMES: &[&str] = &[
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
    INCOMPLETE,
    UNSUPPORTED,
];

/// The name of a mainline with an error (an illegal or unreadable move, a
/// syntax error): no termination.
pub const INCOMPLETE: &str = "incomplete";

/// The name of a game in a variant pgnkit does not play: its moves were
/// not replayed ([`crate::replay::Replay::termination_name`]).
pub const UNSUPPORTED: &str = "unsupported";

/// Shorter words a `status` filter accepts, each with the names it stands
/// for.
pub const ALIASES: &[(&str, &[&str])] = &[
    ("mate", &["checkmate"]),
    ("insufficient", &["insufficient_material"]),
    (
        "repetition",
        &["threefold_repetition", "fivefold_repetition"],
    ),
    ("threefold", &["threefold_repetition"]),
    ("fivefold", &["fivefold_repetition"]),
    ("fifty", &["fifty_moves", "seventyfive_moves"]),
    ("seventyfive", &["seventyfive_moves"]),
    (
        "claimable",
        &[
            "threefold_repetition",
            "fifty_moves",
            "threefold_repetition_next_move",
            "fifty_moves_next_move",
        ],
    ),
];

/// The name of a mainline's termination; [`INCOMPLETE`] for none.
///
/// # Examples
/// ```
/// use pgnkit::replay::{Termination, termination_name};
/// assert_eq!(termination_name(Some(Termination::Stalemate)), "stalemate");
/// assert_eq!(termination_name(None), "incomplete");
/// ```
pub fn termination_name(termination: Option<Termination>) -> &'static str {
    termination.map_or(INCOMPLETE, Termination::as_str)
}

/// The place of a mainline's termination in [`NAMES`].
pub fn termination_index(termination: Option<Termination>) -> usize {
    name_index(termination_name(termination))
}

/// The place of a name in [`NAMES`] (that of [`INCOMPLETE`] for another).
pub(super) fn name_index(name: &str) -> usize {
    let incomplete = NAMES.iter().position(|&n| n == INCOMPLETE);
    NAMES
        .iter()
        .position(|&n| n == name)
        .or(incomplete)
        .unwrap_or(0)
}

/// Whether a word of a `status` filter (a name or an alias, lower case)
/// names a mainline's termination.
///
/// # Examples
/// ```
/// use pgnkit::replay::{Termination, termination_is};
/// assert!(termination_is(Some(Termination::SeventyFiveMoves), "fifty"));
/// assert!(termination_is(Some(Termination::InsufficientMaterial), "insufficient_material"));
/// assert!(!termination_is(None, "unfinished"));
/// ```
pub fn termination_is(termination: Option<Termination>, word: &str) -> bool {
    name_is(termination_name(termination), word)
}

/// Whether a word of a `status` filter names the termination `name`.
pub(super) fn name_is(name: &str, word: &str) -> bool {
    name == word
        || ALIASES
            .iter()
            .any(|(alias, names)| *alias == word && names.contains(&name))
}

impl Termination {
    /// Its name in [`NAMES`] (`checkmate`, `insufficient_material` …).
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
    use crate::color::Color::White;

    #[test]
    fn every_name_is_in_the_vocabulary_once() {
        use crate::color::Color::Black;
        let all = [
            Termination::Checkmate { winner: White },
            Termination::Checkmate { winner: Black },
            Termination::Stalemate,
            Termination::InsufficientMaterial,
            Termination::FivefoldRepetition,
            Termination::SeventyFiveMoves,
            Termination::ThreefoldRepetition,
            Termination::FiftyMoves,
            Termination::Unfinished,
        ];
        for t in all {
            assert_eq!(NAMES[termination_index(Some(t))], t.as_str());
            assert!(termination_is(Some(t), t.as_str()));
        }
        assert_eq!(NAMES[termination_index(None)], INCOMPLETE);
        assert_eq!(NAMES[name_index(UNSUPPORTED)], UNSUPPORTED);
        assert!(name_is(UNSUPPORTED, "unsupported") && !name_is(UNSUPPORTED, INCOMPLETE));
        for (i, name) in NAMES.iter().enumerate() {
            assert!(!NAMES[..i].contains(name), "{name} twice");
        }
        for (alias, names) in ALIASES {
            assert!(!NAMES.contains(alias), "{alias} is a name");
            assert!(names.iter().all(|n| NAMES.contains(n)), "{alias}");
        }
    }

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
        assert_eq!(names, NAMES[..NAMES.len() - 2]);
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
