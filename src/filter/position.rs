//! Position conditions: `reaches "FEN"`, `material KQ vs KR`, material
//! patterns (`material "rp nb"`), and the conditions on the mainline so far
//! (`threefold`, `fifty`, `underpromotion`).

use std::fmt;

use super::material::MaterialPattern;
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
    /// A material pattern as pgn-extract's `-z` reads it, held by
    /// positions from which more than [`MaterialPattern::stability`]
    /// mainline moves are played in a row.
    Pattern(MaterialPattern),
    /// The position occurs for the third time (or more) since the last
    /// capture or pawn move: a threefold repetition.
    Threefold,
    /// 50 moves by each side without capture or pawn move (the half-move
    /// clock at 100 or more).
    FiftyMoves,
    /// The move that reached the position promoted a pawn to a rook,
    /// bishop or knight.
    Underpromotion,
}

/// The mainline up to the position being tested, as the conditions on the
/// whole line need it: feed every mainline position to [`Line::push`],
/// in order, before testing it.
#[derive(Debug, Clone, Default)]
pub struct Line {
    /// Keys of the positions since the last capture or pawn move.
    keys: Vec<u64>,
    /// How often the last position occurred.
    repetitions: usize,
    /// Rooks, bishops and knights of each side in the position before.
    officers: Option<[usize; 2]>,
    /// Whether the last move was an underpromotion.
    underpromoted: bool,
    /// For each test of [`Line::test`], how many positions in a row up to
    /// the one before held its material pattern.
    runs: Vec<u32>,
}

impl Line {
    /// Adds the next mainline position.
    pub fn push(&mut self, pos: &Position) {
        if pos.halfmoves() == 0 {
            self.keys.clear();
        }
        let key = pos.zobrist_key();
        self.keys.push(key);
        self.repetitions = self.keys.iter().filter(|&&k| k == key).count();
        let officers = Color::ALL.map(|color| {
            let b = pos.board();
            let minor_major =
                b.by_role(Role::Rook) | b.by_role(Role::Bishop) | b.by_role(Role::Knight);
            (minor_major & b.by_color(color)).count()
        });
        // Only a promotion adds a rook, bishop or knight to the side that
        // moved.
        let mover = (!pos.turn()).index();
        self.underpromoted = self
            .officers
            .is_some_and(|before| officers[mover] > before[mover]);
        self.officers = Some(officers);
    }
}

impl Line {
    /// Tests `tests` on `pos`, the mainline position pushed last, and
    /// marks in `hits` (one per test) those it meets.
    pub fn test(&mut self, tests: &[PositionTest], pos: &Position, hits: &mut [bool]) {
        if self.runs.len() < tests.len() {
            self.runs.resize(tests.len(), 0);
        }
        for (i, (test, hit)) in tests.iter().zip(hits).enumerate() {
            if let PositionTest::Pattern(pattern) = test {
                // A position counts once a move is played from it: the run
                // up to the position before is complete now.
                let run = &mut self.runs[i];
                *hit = *hit || *run > pattern.stability();
                *run = if pattern.matches(pos.board()) {
                    *run + 1
                } else {
                    0
                };
            } else {
                *hit = *hit || test.matches(pos, self);
            }
        }
    }
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

    /// Whether the condition needs the [`Line`] (else any line will do).
    pub const fn needs_line(&self) -> bool {
        matches!(
            self,
            PositionTest::Threefold | PositionTest::Underpromotion | PositionTest::Pattern(_)
        )
    }

    /// Whether `pos`, the last position of `line`, satisfies the condition
    /// (a material pattern: has its material; [`Line::test`] also counts
    /// how long it lasts).
    pub fn matches(&self, pos: &Position, line: &Line) -> bool {
        match self {
            PositionTest::Pattern(pattern) => pattern.matches(pos.board()),
            PositionTest::Threefold => line.repetitions >= 3,
            PositionTest::FiftyMoves => pos.halfmoves() >= 100,
            PositionTest::Underpromotion => line.underpromoted,
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
        let mut line = Line::default();
        line.push(&start);
        for (test, expected) in cases {
            assert_eq!(test.map(|t| t.matches(&start, &line)), Some(expected));
        }
        assert!(PositionTest::reaches("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_err());
        assert!(PositionTest::reaches("").is_err());
        assert!(PositionTest::reaches("   ").is_err());
        assert!(PositionTest::material("Q", "K").is_err());
        assert!(PositionTest::material("KX", "K").is_err());
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;
    use crate::moves::Move;

    /// Which of the line conditions each position of a line meets, from
    /// `fen` with the UCI moves `ucis`.
    fn met(fen: &str, ucis: &str) -> Vec<[bool; 3]> {
        let tests = [
            PositionTest::Threefold,
            PositionTest::FiftyMoves,
            PositionTest::Underpromotion,
        ];
        let mut pos = Position::from_fen(fen).unwrap();
        let mut line = Line::default();
        let mut out = Vec::new();
        let mut step = |pos: &Position, line: &mut Line| {
            line.push(pos);
            out.push(std::array::from_fn(|i| tests[i].matches(pos, line)));
        };
        step(&pos, &mut line);
        for uci in ucis.split_whitespace() {
            let m: Move = pos
                .legal_moves()
                .as_slice()
                .iter()
                .copied()
                .find(|m| m.uci(false).to_string() == uci)
                .unwrap_or_else(|| panic!("{uci} in {pos}"));
            pos.play_unchecked(m);
            step(&pos, &mut line);
        }
        out
    }

    #[test]
    fn each_line_condition() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let knights = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
        let found = met(start, knights);
        let threefold: Vec<bool> = found.iter().map(|m| m[0]).collect();
        // The start position again after 4 and 8 plies: third time at 8.
        assert_eq!(
            threefold,
            [false, false, false, false, false, false, false, false, true]
        );
        // A pawn move in between starts the count again.
        let found = met(start, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
        assert!(found.iter().all(|m| !m[0]));
        // The clock reaches 100 with the second move.
        let found = met("4k3/8/8/8/8/8/R7/4K3 w - - 98 80", "a2a3 e8e7");
        assert_eq!(
            found.iter().map(|m| m[1]).collect::<Vec<_>>(),
            [false, false, true]
        );
        // Promotions: to a knight (under), to a queen (not), a capture that
        // takes a knight (not).
        let found = met("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n e8e7");
        assert_eq!(
            found.iter().map(|m| m[2]).collect::<Vec<_>>(),
            [false, true, false]
        );
        let found = met("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q");
        assert_eq!(
            found.iter().map(|m| m[2]).collect::<Vec<_>>(),
            [false, false]
        );
        let found = met("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2b1r");
        assert_eq!(
            found.iter().map(|m| m[2]).collect::<Vec<_>>(),
            [false, true]
        );
    }
}
