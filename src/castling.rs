//! Castling: the two sides of the board a king can castle to.

use std::fmt;

/// Kingside (`O-O`, towards the h-file) or queenside (`O-O-O`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// Towards the h-file: the king ends on g1/g8, the rook on f1/f8.
    KingSide = 0,
    /// Towards the a-file: the king ends on c1/c8, the rook on d1/d8.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, kingside first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Index for tables: kingside 0, queenside 1.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SAN spelling: `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

impl fmt::Display for CastlingSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.san())
    }
}
