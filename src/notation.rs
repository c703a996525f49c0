//! Move tokens as written: every move notation pgnkit reads, parsed without
//! a position.
//!
//! A [`MoveToken`] says *what* a token claims (which piece, from where, to
//! where, capture, promotion) and *how* it was spelled ([`Notation`],
//! [`Letters`], [`Spelling`] flags, [`Suffix`]). Whether the move is legal,
//! and which piece `B` means (bishop in English, Bauer in German), is
//! decided later against a position.
//!
//! Accepted spellings:
//! - SAN: `e4`, `Nbd7`, `R1a3`, `Qh4xe1`, `exd6`, `e8=Q`, `O-O`, `O-O-O`;
//! - common variants: `0-0`, `0-0-0`, `e8Q`, `e8(Q)`, `e8/Q`, `Pe4`,
//!   `exd6e.p.`/`exd6ep`, `+`, `++`, `#`;
//! - long algebraic: `e2-e4`, `Ng1-f3`, `Ng1xf3`, `e4xd5`, `e7-e8=Q`;
//! - UCI: `e2e4`, `e7e8q`, `e1g1`;
//! - German letters `K D T L S B` (`Sf3`, `Lxb5`, `Dd1-f3`, `b2-b1=D`,
//!   `Be2-e4` with `B` for Bauer);
//! - figurines `♔♕♖♗♘♙` (and the black ones);
//! - null moves: `--`, `Z0`, `0000`, `@@@@`.
//!
//! Move-quality glyphs (`!`, `?`, `!?` …) are not part of a move token: the
//! PGN grammar splits them off before calling [`MoveToken::parse`].

use crate::castling::CastlingSide;
use crate::role::Role;
use crate::square::{File, Rank, Square};

/// Which piece a token names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mover {
    /// No letter: a pawn in SAN and long algebraic, any piece in UCI.
    Unnamed,
    /// A letter or figurine that names exactly one role (`N`, `S`, `P`, `♘` …).
    Role(Role),
    /// `B`: bishop in English, pawn (Bauer) in German; the board decides.
    BishopOrPawn,
}

/// What a move token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move of one piece, in any notation.
    Normal {
        /// The piece named, if any.
        mover: Mover,
        /// Origin file, if written (disambiguation, pawn capture, long notation).
        from_file: Option<File>,
        /// Origin rank, if written.
        from_rank: Option<Rank>,
        /// Whether a capture was marked (`x` or `:`).
        capture: bool,
        /// Destination square.
        to: Square,
        /// Promotion piece, if written.
        promotion: Option<Role>,
    },
    /// Castling, written `O-O`/`O-O-O` (or with zeros).
    Castle(CastlingSide),
    /// A null move (`--`, `Z0`, `0000`, `@@@@`).
    Null,
}

/// The notation family a token is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Short algebraic: only as much of the origin as needed.
    San,
    /// Long algebraic: full origin square and a `-` or `x` (`Ng1-f3`, `e4xd5`).
    Long,
    /// UCI: origin and destination squares run together (`g1f3`, `e7e8q`).
    Uci,
}

/// The alphabet of the piece letters in a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Letters {
    /// No piece letter at all (`e4`, `e2-e4`, `g1f3`, `O-O`).
    None,
    /// Only English letters that are not also German (`N`, `R`, `Q`, `P`).
    English,
    /// At least one letter that only German uses (`S`, `L`, `T`, `D`).
    German,
    /// Only letters both alphabets share (`K`, `B`): the board decides.
    Either,
    /// Unicode figurines.
    Figurine,
}

/// How a token departs from standard SAN, as a set of flags; for lints and
/// faithful conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Spelling(pub u16);

impl Spelling {
    /// Castling written with zeros (`0-0`).
    pub const ZERO_CASTLING: Spelling = Spelling(1 << 0);
    /// Promotion without `=` (`e8Q`).
    pub const PROMOTION_BARE: Spelling = Spelling(1 << 1);
    /// Promotion in parentheses (`e8(Q)`).
    pub const PROMOTION_PARENS: Spelling = Spelling(1 << 2);
    /// Promotion after a slash (`e8/Q`).
    pub const PROMOTION_SLASH: Spelling = Spelling(1 << 3);
    /// A pawn named by a letter (`Pe4`, German `Be2-e4`).
    pub const PAWN_LETTER: Spelling = Spelling(1 << 4);
    /// An en-passant mark (`e.p.` or `ep`).
    pub const EP_MARK: Spelling = Spelling(1 << 5);
    /// Check written as `++`.
    pub const DOUBLE_PLUS: Spelling = Spelling(1 << 6);
    /// Capture written as `:` instead of `x`.
    pub const COLON_CAPTURE: Spelling = Spelling(1 << 7);

    /// No departures: standard SAN (or standard long/UCI form).
    pub const STANDARD: Spelling = Spelling(0);

    /// Whether every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: Spelling) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two flag sets.
    #[inline]
    #[must_use]
    pub const fn with(self, other: Spelling) -> Spelling {
        Spelling(self.0 | other.0)
    }
}

/// A check or mate mark written after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+` (or `++`).
    Check,
    /// `#`.
    Checkmate,
}

/// A parsed move token: what it says and how it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveToken {
    /// What the token claims.
    pub kind: MoveKind,
    /// Its notation family.
    pub notation: Notation,
    /// The alphabet of its piece letters.
    pub letters: Letters,
    /// Non-standard spellings it uses.
    pub spelling: Spelling,
    /// Check or mate mark, if written.
    pub suffix: Option<Suffix>,
}

/// Why a token is not a move, with the byte offset inside the token where
/// reading failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveTokenError {
    /// The token is empty.
    #[error("empty move")]
    Empty,
    /// A character that cannot start or continue a move here.
    #[error("unexpected character at offset {offset}")]
    Unexpected {
        /// Byte offset inside the token.
        offset: usize,
    },
    /// The token ends before a complete move was read (`Nf`, `e8=`).
    #[error("incomplete move")]
    Incomplete,
    /// A promotion to a king or pawn, or a promotion letter that is no piece.
    #[error("invalid promotion piece at offset {offset}")]
    BadPromotion {
        /// Byte offset inside the token.
        offset: usize,
    },
}

impl MoveToken {
    /// Parses one move token (without move-quality glyphs).
    ///
    /// # Errors
    /// [`ParseMoveTokenError`] when the bytes are not a move in any accepted
    /// spelling; the whole token must be used (`Nf3zzz` is an error).
    pub fn parse(token: &[u8]) -> Result<MoveToken, ParseMoveTokenError> {
        // Placeholder until the notation parser lands; see the module docs.
        if token.is_empty() {
            return Err(ParseMoveTokenError::Empty);
        }
        Err(ParseMoveTokenError::Unexpected { offset: 0 })
    }
}
