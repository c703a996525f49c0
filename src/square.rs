//! Files, ranks and squares.
//!
//! Squares are numbered a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63, so
//! that bit `i` of a [`Bitboard`](crate::Bitboard) is square `i`.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;

/// A file (column), `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), `1` to `8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! files {
    ($($name:ident = $i:expr),*) => {
        impl File { $(#[doc = concat!("The ", stringify!($name), "-file.")] pub const $name: File = File($i);)* }
    };
}
files!(A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6, H = 7);

macro_rules! ranks {
    ($($name:ident = $i:expr),*) => {
        impl Rank { $(#[doc = concat!("The rank with index ", stringify!($i), " (0-based).")] pub const $name: Rank = Rank($i);)* }
    };
}
ranks!(
    FIRST = 0,
    SECOND = 1,
    THIRD = 2,
    FOURTH = 3,
    FIFTH = 4,
    SIXTH = 5,
    SEVENTH = 6,
    EIGHTH = 7
);

impl File {
    /// All files, `a` first.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// The file with index `i` (0 = `a`), if `i < 8`.
    #[inline]
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 { Some(File(i as u8)) } else { None }
    }

    /// Index 0 (`a`) to 7 (`h`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter, `a` to `h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The upper-case letter, as in Shredder-FEN castling rights.
    pub const fn upper_char(self) -> char {
        (b'A' + self.0) as char
    }

    /// Reads a lower-case file letter.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The file `delta` files to the right, if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<File> {
        // Checked: a `delta` near `i32::MAX` is off the board, not a wrap.
        let Some(i) = (self.0 as i32).checked_add(delta) else {
            return None;
        };
        if 0 <= i && i < 8 {
            Some(File(i as u8))
        } else {
            None
        }
    }
}

impl Rank {
    /// All ranks, the first rank first.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    /// The rank with index `i` (0 = first rank), if `i < 8`.
    #[inline]
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 { Some(Rank(i as u8)) } else { None }
    }

    /// Index 0 (first rank) to 7 (eighth rank).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit, `1` to `8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// Reads a rank digit.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// This rank as seen from `color`'s side: `Rank::FIRST.relative_to(Black)`
    /// is the eighth rank.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }

    /// The rank `delta` ranks up, if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        // Checked: a `delta` near `i32::MAX` is off the board, not a wrap.
        let Some(i) = (self.0 as i32).checked_add(delta) else {
            return None;
        };
        if 0 <= i && i < 8 {
            Some(Rank(i as u8))
        } else {
            None
        }
    }
}

macro_rules! squares {
    ($($name:ident),*) => {
        impl Square {
            squares!(@consts 0u8, $($name),*);
        }
    };
    (@consts $i:expr, $name:ident $(, $rest:ident)*) => {
        #[doc = concat!("The square ", stringify!($name), ".")]
        pub const $name: Square = Square($i);
        squares!(@consts $i + 1, $($rest),*);
    };
    (@consts $i:expr,) => {};
    (@consts $i:expr) => {};
}
squares!(
    A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2, A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4, A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8
);

impl Square {
    /// The square with index `i` (a1 = 0, h8 = 63), if `i < 64`.
    #[inline]
    pub const fn new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }

    /// The square with index `i & 63`: for indices known to be in range,
    /// such as a bit of a non-empty bitboard.
    #[inline]
    pub const fn from_index_masked(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Index 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        match (self.file().offset(df), self.rank().offset(dr)) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }

    /// The same square seen from Black's side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Whether the square is a light square (h1 is light).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file().0 + self.rank().0) % 2 == 1
    }

    /// Chebyshev (king-move) distance between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file().0 as i32 - other.file().0 as i32).unsigned_abs();
        let dr = (self.rank().0 as i32 - other.rank().0 as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// Reads a square from the first two bytes of `s`, which must be exactly
    /// two bytes long.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Square;
    /// assert_eq!(Square::from_ascii(b"e4"), Some(Square::E4));
    /// assert_eq!(Square::from_ascii(b"e9"), None);
    /// assert_eq!(Square::from_ascii(b"e44"), None);
    /// ```
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        match (File::from_char(s[0] as char), Rank::from_char(s[1] as char)) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0u8..64).map(Square)
    }
}

/// Error of [`Square::from_str`]: the text is not a square name like `e4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square name (expected a1 to h8)")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or(ParseSquareError)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The squares' names, by index.
const NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

impl Square {
    /// The square's name: `a1` … `h8`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Square;
    /// assert_eq!(Square::E4.name(), "e4");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        NAMES[self.index() & 63]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A name from the table, not two formatted `char`s: move text is
        // written square by square, millions of times in a conversion.
        f.pad(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        assert_eq!(Square::H8.index(), 63);
        assert_eq!(Square::E4.to_string(), "e4");
    }

    #[test]
    fn offsets_far_off_the_board_are_none() {
        for (up, down) in [(i32::MAX, i32::MIN), (1, -1)] {
            assert_eq!(File::H.offset(up), None);
            assert_eq!(File::A.offset(down), None);
            assert_eq!(Rank::EIGHTH.offset(up), None);
            assert_eq!(Rank::FIRST.offset(down), None);
            assert_eq!(Square::H8.offset(up, 0), None);
            assert_eq!(Square::A1.offset(0, down), None);
        }
        assert_eq!(File::A.offset(7), Some(File::H));
        assert_eq!(Rank::FIRST.offset(7), Some(Rank::EIGHTH));
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "e", "i1", "a0", "a9", "E4", "e4 ", "4e"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad:?}");
        }
    }

    #[test]
    fn geometry() {
        assert_eq!(Square::E2.offset(0, 2), Some(Square::E4));
        assert_eq!(Square::H1.offset(1, 0), None);
        assert_eq!(Square::A1.flip_vertical(), Square::A8);
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Rank::FIRST.relative_to(Color::Black), Rank::EIGHTH);
    }
}
