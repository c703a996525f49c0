//! Position conditions: `reaches "FEN"` and `material KQ vs KR`.

use crate::{board::Board, color::Color, position::Position, role::Role, setup::Setup};

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
    /// The FEN's error, as a message.
    pub fn reaches(fen: &str) -> Result<PositionTest, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let defaults = ["w", "-", "-", "0", "1"];
        let mut full: Vec<&str> = fields.clone();
        if fields.is_empty() {
            return Err("empty FEN".to_string());
        }
        full.extend(
            defaults
                .iter()
                .skip(fields.len() - 1)
                .take(6usize.saturating_sub(fields.len())),
        );
        let setup = Setup::from_fen(&full.join(" ")).map_err(|e| e.to_string())?;
        Ok(PositionTest::Reaches {
            board: setup.board,
            turn: (fields.len() >= 2).then_some(setup.turn),
        })
    }

    /// `material`: White's pieces, then Black's, as letters (`KQ`, `KRP`,
    /// `KBNPP`); each side needs exactly one king.
    ///
    /// # Errors
    /// Which side is malformed.
    pub fn material(white: &str, black: &str) -> Result<PositionTest, String> {
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [white, black].into_iter().enumerate() {
            for c in text.chars() {
                let role = Role::from_char(c.to_ascii_lowercase())
                    .ok_or_else(|| format!("`{c}` is no piece letter (K, Q, R, B, N, P)"))?;
                let n = &mut counts[side][role.index()];
                *n = n.saturating_add(1);
            }
            if counts[side][Role::King.index()] != 1 {
                return Err(format!("`{text}` needs exactly one K"));
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
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
                true,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b"),
                false,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
                true,
            ),
            (
                PositionTest::reaches("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                true,
            ),
            (PositionTest::reaches("8/8/8/8/8/8/8/K6k w"), false),
            (
                PositionTest::material("KQRRBBNNPPPPPPPP", "KQRRBBNNPPPPPPPP"),
                true,
            ),
            (PositionTest::material("KQ", "KR"), false),
        ];
        for (test, expected) in cases {
            assert_eq!(test.unwrap().matches(&start), expected);
        }
        assert!(PositionTest::reaches("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_err());
        assert!(PositionTest::material("Q", "K").is_err());
        assert!(PositionTest::material("KX", "K").is_err());
    }
}
