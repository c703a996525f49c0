//! An unchecked description of a position, as written in a FEN.

use crate::{bitboard::Bitboard, board::Board, color::Color, square::Square};

/// A position as described, not yet checked against the rules: what a FEN
/// says, field by field. [`Position::from_setup`](crate::Position::from_setup)
/// is the one gate to a playable position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// The squares of the rooks that may still castle (both colours).
    pub castling_rights: Bitboard,
    /// The en-passant square as written (the square a pawn skipped).
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move. A FEN gives at most
    /// `u32::MAX`; the moves of a game may carry it past.
    pub halfmoves: u64,
    /// The number of the move about to be played, from 1 (a FEN gives at
    /// most `u32::MAX`).
    pub fullmoves: u64,
}

impl Setup {
    /// The standard start position.
    pub fn startpos() -> Setup {
        Setup {
            board: Board::startpos(),
            turn: Color::White,
            castling_rights: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, White to move, no rights, counters `0 1`.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}
