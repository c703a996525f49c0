//! Kinds of pieces ([`Role`]) and coloured pieces ([`Piece`]).

use std::fmt;

use crate::color::Color;

/// A kind of piece, without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn (German: Bauer).
    Pawn = 0,
    /// Knight (German: Springer).
    Knight = 1,
    /// Bishop (German: Läufer).
    Bishop = 2,
    /// Rook (German: Turm).
    Rook = 3,
    /// Queen (German: Dame).
    Queen = 4,
    /// King (German: König).
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Index for tables: pawn 0 … king 5.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The English upper-case letter (`P N B R Q K`), as in SAN and FEN.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The English lower-case letter (`p n b r q k`), as in UCI promotions.
    pub const fn char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The German upper-case letter (`B S L T D K`).
    pub const fn german_char(self) -> char {
        match self {
            Role::Pawn => 'B',
            Role::Knight => 'S',
            Role::Bishop => 'L',
            Role::Rook => 'T',
            Role::Queen => 'D',
            Role::King => 'K',
        }
    }

    /// The figurine of the white piece (`♙ ♘ ♗ ♖ ♕ ♔`).
    pub const fn figurine(self) -> char {
        match self {
            Role::Pawn => '♙',
            Role::Knight => '♘',
            Role::Bishop => '♗',
            Role::Rook => '♖',
            Role::Queen => '♕',
            Role::King => '♔',
        }
    }

    /// Reads an English letter of either case.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Role;
    /// assert_eq!(Role::from_char('n'), Some(Role::Knight));
    /// assert_eq!(Role::from_char('S'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }

    /// Reads a German upper-case letter (`B S L T D K`).
    pub const fn from_german_char(c: char) -> Option<Role> {
        match c {
            'B' => Some(Role::Pawn),
            'S' => Some(Role::Knight),
            'L' => Some(Role::Bishop),
            'T' => Some(Role::Rook),
            'D' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }

    /// Reads a figurine of either colour.
    pub const fn from_figurine(c: char) -> Option<Role> {
        match c {
            '♙' | '♟' => Some(Role::Pawn),
            '♘' | '♞' => Some(Role::Knight),
            '♗' | '♝' => Some(Role::Bishop),
            '♖' | '♜' => Some(Role::Rook),
            '♕' | '♛' => Some(Role::Queen),
            '♔' | '♚' => Some(Role::King),
            _ => None,
        }
    }

    /// This role in the given colour.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A piece: a role and a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Reads a FEN letter.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Color, Piece, Role};
    /// assert_eq!(Piece::from_char('q'), Some(Role::Queen.of(Color::Black)));
    /// assert_eq!(Piece::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::from_char(role.upper_char()), Some(role));
            assert_eq!(Role::from_char(role.char()), Some(role));
            assert_eq!(Role::from_german_char(role.german_char()), Some(role));
            assert_eq!(Role::from_figurine(role.figurine()), Some(role));
            for color in Color::ALL {
                let piece = role.of(color);
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
            }
        }
    }

    #[test]
    fn german_letters() {
        let german: String = Role::ALL.iter().map(|r| r.german_char()).collect();
        assert_eq!(german, "BSLTDK");
    }
}
