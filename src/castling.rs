//! Castling: the two sides of the board a king can castle to, and the
//! rights to castle.

use std::fmt;

use crate::{
    attacks::between,
    bitboard::Bitboard,
    color::Color,
    square::{File, Rank, Square},
};

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

impl CastlingSide {
    /// The side a rook on `rook_file` castles to when its king stands on
    /// `king_file`: kingside if the rook is right of the king.
    #[inline]
    pub const fn from_files(king_file: File, rook_file: File) -> CastlingSide {
        if rook_file.index() > king_file.index() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// The file the king ends on: g or c.
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on: f or d.
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king of `color` ends on.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::FIRST.relative_to(color))
    }

    /// The square the rook of `color` ends on.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::FIRST.relative_to(color))
    }
}

/// Castling rights, stored per colour and side as the square of the rook
/// that may castle, so any Chess960 king and rook files work.
///
/// Alongside each right it keeps what move generation needs to test it
/// fast: the squares that must be empty and the squares the king crosses.
/// The rights say nothing about attacks; those depend on the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castles {
    rook: [[Option<Square>; 2]; 2],
    mask: Bitboard,
    path: [[Bitboard; 2]; 2],
    king_path: [[Bitboard; 2]; 2],
}

impl Default for Castles {
    fn default() -> Castles {
        Castles::EMPTY
    }
}

impl Castles {
    /// No castling rights.
    pub const EMPTY: Castles = Castles {
        rook: [[None; 2]; 2],
        mask: Bitboard::EMPTY,
        path: [[Bitboard::EMPTY; 2]; 2],
        king_path: [[Bitboard::EMPTY; 2]; 2],
    };

    /// The four rights of the standard start position.
    pub fn standard() -> Castles {
        let mut castles = Castles::EMPTY;
        for color in Color::ALL {
            let rank = Rank::FIRST.relative_to(color);
            let king = Square::from_coords(File::E, rank);
            castles.insert(color, king, Square::from_coords(File::H, rank));
            castles.insert(color, king, Square::from_coords(File::A, rank));
        }
        castles
    }

    /// Grants `color` the right to castle with the rook on `rook` while its
    /// king stands on `king` (both on the colour's back rank; the side
    /// follows from their files). Replaces an earlier right on that side.
    pub fn insert(&mut self, color: Color, king: Square, rook: Square) -> CastlingSide {
        let side = CastlingSide::from_files(king.file(), rook.file());
        if let Some(old) = self.rook[color.index()][side.index()] {
            self.mask = self.mask.without(old);
        }
        let king_to = side.king_to(color);
        let rook_to = side.rook_to(color);
        let king_path = between(king, king_to).with(king_to);
        let path = (king_path | between(rook, rook_to).with(rook_to))
            - Bitboard::from(king)
            - Bitboard::from(rook);
        self.rook[color.index()][side.index()] = Some(rook);
        self.mask = self.mask.with(rook);
        self.path[color.index()][side.index()] = path;
        self.king_path[color.index()][side.index()] = king_path;
        side
    }

    /// The square of the rook `color` may castle with on `side`, if any.
    #[inline]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rook[color.index()][side.index()]
    }

    /// Whether `color` may castle on `side`.
    #[inline]
    pub const fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rook(color, side).is_some()
    }

    /// The squares of all rooks that may still castle.
    #[inline]
    pub const fn mask(&self) -> Bitboard {
        self.mask
    }

    /// Whether there are no rights left.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.mask.is_empty()
    }

    /// Squares that must be empty (apart from the king and the rook
    /// themselves) to castle on `side`.
    #[inline]
    pub const fn path(&self, color: Color, side: CastlingSide) -> Bitboard {
        self.path[color.index()][side.index()]
    }

    /// Squares the king crosses or lands on when castling on `side`: none
    /// may be attacked once the castling rook has left. The start square is
    /// included only when the king does not move.
    #[inline]
    pub const fn king_path(&self, color: Color, side: CastlingSide) -> Bitboard {
        self.king_path[color.index()][side.index()]
    }

    /// Removes the right of a rook on `sq` (it moved or was captured).
    #[inline]
    pub fn discard_rook(&mut self, sq: Square) {
        if self.mask.contains(sq) {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if self.rook[color.index()][side.index()] == Some(sq) {
                        self.rook[color.index()][side.index()] = None;
                        self.path[color.index()][side.index()] = Bitboard::EMPTY;
                        self.king_path[color.index()][side.index()] = Bitboard::EMPTY;
                    }
                }
            }
            self.mask = self.mask.without(sq);
        }
    }

    /// Removes both rights of `color` (its king moved).
    #[inline]
    pub fn discard_color(&mut self, color: Color) {
        let rank = Bitboard::from_rank(Rank::FIRST.relative_to(color));
        if (self.mask & rank).is_empty() {
            return;
        }
        self.rook[color.index()] = [None; 2];
        self.path[color.index()] = [Bitboard::EMPTY; 2];
        self.king_path[color.index()] = [Bitboard::EMPTY; 2];
        self.mask = self.mask - rank;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_paths() {
        let castles = Castles::standard();
        let cases = [
            (Color::White, CastlingSide::KingSide, "f1 g1", "f1 g1"),
            (Color::White, CastlingSide::QueenSide, "b1 c1 d1", "c1 d1"),
            (Color::Black, CastlingSide::KingSide, "f8 g8", "f8 g8"),
            (Color::Black, CastlingSide::QueenSide, "b8 c8 d8", "c8 d8"),
        ];
        for (color, side, path, king_path) in cases {
            let squares = |s: &str| -> Bitboard {
                s.split(' ').map(|n| n.parse::<Square>().unwrap()).collect()
            };
            assert_eq!(castles.path(color, side), squares(path), "{color} {side}");
            assert_eq!(castles.king_path(color, side), squares(king_path));
        }
        assert_eq!(castles.mask().count(), 4);
    }

    #[test]
    fn chess960_paths_and_discards() {
        let mut castles = Castles::EMPTY;
        // King b1, rook a1: the king moves to c1, the rook jumps to d1.
        assert_eq!(
            castles.insert(Color::White, Square::B1, Square::A1),
            CastlingSide::QueenSide
        );
        assert_eq!(
            castles.path(Color::White, CastlingSide::QueenSide),
            [Square::C1, Square::D1].into_iter().collect()
        );
        // King g1, rook h1: the king does not move.
        castles.insert(Color::White, Square::G1, Square::H1);
        assert_eq!(
            castles.path(Color::White, CastlingSide::KingSide),
            Square::F1.into()
        );
        assert_eq!(
            castles.king_path(Color::White, CastlingSide::KingSide),
            Square::G1.into()
        );
        castles.discard_rook(Square::A1);
        assert!(!castles.has(Color::White, CastlingSide::QueenSide));
        assert!(castles.has(Color::White, CastlingSide::KingSide));
        castles.discard_color(Color::White);
        assert!(castles.is_empty());
    }
}
