//! Position conditions: `reaches "FEN"` and `material KQ vs KR`.

use std::fmt;

use crate::{
    board::Board, color::Color, fen::ParseFenError, position::Position, role::Role, setup::Setup,
};

/// Pieces after `material` that are no side's material.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMaterialError {
    /// A letter that names no piece.
    NotAPiece(char),
    /// A side without exactly one king.
    Kings(String),
}

impl fmt::Display for ParseMaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMaterialError::NotAPiece(c) => {
                write!(f, "`{c}` is no piece letter (K, Q, R, B, N, P)")
            }
            ParseMaterialError::Kings(side) => write!(f, "`{side}` needs exactly one K"),
        }
    }
}

impl std::error::Error for ParseMaterialError {}

/// A condition on one position of a game's mainline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionTest {
    /// The piece placement, and the side to move when given.
    Reaches {
        /// The placement to find.
        board: Board,
        /// The side to move, if the FEN named it.
        turn: Option<Color>,
    },
    /// Exactly these pieces: counts by role (pawn to king) for White, then
    /// Black.
    Material([[u8; 6]; 2]),
}

impl PositionTest {
    /// `reaches`: a FEN with at least the placement; the side to move is
    /// compared when given, further fields are checked but not compared.
    ///
    /// # Errors
    /// The FEN's syntax error.
    pub fn reaches(fen: &str) -> Result<PositionTest, ParseFenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        // Fields left out get neutral values, so the FEN's syntax is still
        // checked by the one FEN reader.
        let defaults = ["w", "-", "-", "0", "1"];
        let mut full = fields.clone();
        full.extend(defaults.iter().skip(fields.len().saturating_sub(1)));
        if fields.is_empty() {
            full.clear();
        }
        let setup = Setup::from_fen(&full.join(" "))?;
        Ok(PositionTest::Reaches {
            board: setup.board,
            turn: (fields.len() >= 2).then_some(setup.turn),
        })
    }

    /// `material`: White's pieces, then Black's, as letters (`KQ`, `KRP`,
    /// `KBNPP`); each side needs exactly one king.
    ///
    /// # Errors
    /// A letter that is no piece, or a side without exactly one king.
    pub fn material(white: &str, black: &str) -> Result<PositionTest, ParseMaterialError> {
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [white, black].into_iter().enumerate() {
            for c in text.chars() {
                let role = Role::from_char(c.to_ascii_lowercase())
                    .ok_or(ParseMaterialError::NotAPiece(c))?;
                let n = &mut counts[side][role.index()];
                *n = n.saturating_add(1);
            }
            if counts[side][Role::King.index()] != 1 {
                return Err(ParseMaterialError::Kings(text.to_string()));
            }
        }
        Ok(PositionTest::Material(counts))
    }

    /// Whether `pos` satisfies the condition.
    pub fn matches(&self, pos: &Position) -> bool {
        match self {
            PositionTest::Reaches { board, turn } => {
                turn.is_none_or(|t| t == pos.turn()) && pos.board() == board
            }
            PositionTest::Material(counts) => {
                let board = pos.board();
                Color::ALL.into_iter().all(|color| {
                    let mine = board.by_color(color);
                    Role::ALL.into_iter().all(|role| {
                        (board.by_role(role) & mine).count()
                            == usize::from(counts[color.index()][role.index()])
                    })
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_tests() {
        let start = Position::startpos();
        let cases = [
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").ok(),
                true,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b").ok(),
                false,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").ok(),
                true,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                    .ok(),
                true,
            ),
            (PositionTest::reaches("8/8/8/8/8/8/8/K6k w").ok(), false),
            (
                PositionTest::material("KQRRBBNNPPPPPPPP", "KQRRBBNNPPPPPPPP").ok(),
                true,
            ),
            (PositionTest::material("KQ", "KR").ok(), false),
        ];
        for (test, expected) in cases {
            assert_eq!(test.map(|t| t.matches(&start)), Some(expected));
        }
        assert!(PositionTest::reaches("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_err());
        assert!(PositionTest::reaches("").is_err());
        assert!(PositionTest::reaches("   ").is_err());
        assert!(PositionTest::material("Q", "K").is_err());
        assert!(PositionTest::material("KX", "K").is_err());
    }
}
