//! The move-token parser: bytes to [`MoveToken`], without a position.

use std::str::FromStr;

use crate::castling::CastlingSide;
use crate::role::Role;
use crate::square::{File, Rank, Square};

/// Which piece a token names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mover {
    /// No letter: a pawn in SAN; in long algebraic and UCI, which write the
    /// whole origin square, the piece standing there (a pawn when the token
    /// promotes or carries an en-passant mark).
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
///
/// Tokens are read left to right; the offset is that of the first byte no
/// accepted spelling can have there (`Nf3zzz` fails at 3, `e9` at 1, `O-0`
/// at 2). A token that is a correct beginning of a move is [`Incomplete`].
///
/// [`Incomplete`]: ParseMoveTokenError::Incomplete
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
    /// A promotion to a king or pawn, a promotion letter that is no piece
    /// (`e8=X`, `e8q` outside UCI), or a promotion by a piece that is not a
    /// pawn (`Nb8=Q`).
    #[error("invalid promotion at offset {offset}")]
    BadPromotion {
        /// Byte offset inside the token.
        offset: usize,
    },
    /// Letters that only English uses and letters that only German uses, or
    /// letters and figurines, in one token (`Sb7-b8=Q`).
    #[error("piece letters from two alphabets at offset {offset}")]
    MixedLetters {
        /// Byte offset of the letter that does not fit the earlier ones.
        offset: usize,
    },
}

impl MoveToken {
    /// Parses one move token (without move-quality glyphs).
    ///
    /// # Errors
    /// [`ParseMoveTokenError`] when the bytes are not a move in any accepted
    /// spelling; the whole token must be used (`Nf3zzz` is an error).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Letters, MoveKind, MoveToken, Mover, Notation, ParseMoveTokenError, Role, Square};
    ///
    /// let token = MoveToken::parse(b"Sxe5+")?;
    /// assert_eq!(token.letters, Letters::German);
    /// assert!(matches!(
    ///     token.kind,
    ///     MoveKind::Normal { mover: Mover::Role(Role::Knight), capture: true, to: Square::E5, .. }
    /// ));
    ///
    /// assert_eq!(MoveToken::parse(b"e7e8q")?.notation, Notation::Uci);
    /// assert_eq!(MoveToken::parse(b"Nf3zzz"), Err(ParseMoveTokenError::Unexpected { offset: 3 }));
    /// # Ok::<_, ParseMoveTokenError>(())
    /// ```
    #[inline]
    pub fn parse(token: &[u8]) -> Result<MoveToken, ParseMoveTokenError> {
        match parse_common(token) {
            Some(parsed) => Ok(parsed),
            None => MoveToken::parse_general(token),
        }
    }

    /// The general parser: every accepted spelling and every error. Kept
    /// out of line so that [`parse`](MoveToken::parse)'s fast path inlines
    /// into its callers.
    #[inline(never)]
    pub(crate) fn parse_general(token: &[u8]) -> Result<MoveToken, ParseMoveTokenError> {
        let reader = Reader {
            bytes: token,
            pos: 0,
        };
        match token {
            [] => Err(ParseMoveTokenError::Empty),
            [b'-', ..] => reader.null(b"--", Notation::San),
            [b'Z', ..] => reader.null(b"Z0", Notation::San),
            [b'@', ..] => reader.null(b"@@@@", Notation::Uci),
            [b'0', b'0', ..] => reader.null(b"0000", Notation::Uci),
            [c @ (b'O' | b'0'), ..] => reader.castle(*c),
            _ => reader.normal(),
        }
    }
}

impl FromStr for MoveToken {
    type Err = ParseMoveTokenError;

    /// Parses a move token; see [`MoveToken::parse`].
    fn from_str(s: &str) -> Result<MoveToken, ParseMoveTokenError> {
        MoveToken::parse(s.as_bytes())
    }
}

/// The piece letters [`parse_common`] reads, by byte: the mover each names
/// and its alphabet. `P` is left to the general parser (it is a
/// [`Spelling::PAWN_LETTER`]), and so are figurines.
static COMMON_PIECE: [Option<(Mover, Letters)>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some((Mover::Role(Role::Knight), Letters::English));
    table[b'B' as usize] = Some((Mover::BishopOrPawn, Letters::Either));
    table[b'R' as usize] = Some((Mover::Role(Role::Rook), Letters::English));
    table[b'Q' as usize] = Some((Mover::Role(Role::Queen), Letters::English));
    table[b'K' as usize] = Some((Mover::Role(Role::King), Letters::Either));
    table[b'S' as usize] = Some((Mover::Role(Role::Knight), Letters::German));
    table[b'L' as usize] = Some((Mover::Role(Role::Bishop), Letters::German));
    table[b'T' as usize] = Some((Mover::Role(Role::Rook), Letters::German));
    table[b'D' as usize] = Some((Mover::Role(Role::Queen), Letters::German));
    table
};

#[inline(always)]
fn common_file(b: u8) -> Option<File> {
    File::new(u32::from(b.wrapping_sub(b'a')))
}

#[inline(always)]
fn common_rank(b: u8) -> Option<Rank> {
    Rank::new(u32::from(b.wrapping_sub(b'1')))
}

/// The fast path of [`MoveToken::parse`]: the shapes nearly every real
/// token has (`e4`, `Nf3`, `exd5`, `Nxe5`, `Nbd7`, `R1a3`, `Nbxd7`, `R1xa3`,
/// each with an optional `+` or `#`), or `None` for the general parser to
/// decide. Whatever it accepts, the general parser reads the same way (a
/// test compares the two).
#[inline(always)]
pub(crate) fn parse_common(token: &[u8]) -> Option<MoveToken> {
    let (body, suffix) = match token {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (token, None),
    };
    let [head @ .., file, rank] = body else {
        return None;
    };
    let to = Square::from_coords(common_file(*file)?, common_rank(*rank)?);
    let origin = |b: u8| match (common_file(b), common_rank(b)) {
        (Some(file), _) => Some((Some(file), None)),
        (None, Some(rank)) => Some((None, Some(rank))),
        (None, None) => None,
    };
    // Conditional branches by shape, not a jump table on the length: the
    // shapes follow each other in no order a target predictor learns.
    let capture = head.last() == Some(&b'x');
    let head = &head[..head.len() - usize::from(capture)];
    let (mover, letters, (from_file, from_rank)) = if let [first, rest @ ..] = head {
        let (mover, letters, origin) = match COMMON_PIECE[usize::from(*first)] {
            Some((mover, letters)) => match rest {
                [] => (mover, letters, (None, None)),
                [from] => (mover, letters, origin(*from)?),
                _ => return None,
            },
            // A pawn capture names its file.
            None if capture && rest.is_empty() => (
                Mover::Unnamed,
                Letters::None,
                (Some(common_file(*first)?), None),
            ),
            None => return None,
        };
        (mover, letters, origin)
    } else if capture {
        return None;
    } else {
        (Mover::Unnamed, Letters::None, (None, None))
    };
    Some(MoveToken {
        kind: MoveKind::Normal {
            mover,
            from_file,
            from_rank,
            capture,
            to,
            promotion: None,
        },
        notation: Notation::San,
        letters,
        spelling: Spelling::STANDARD,
        suffix,
    })
}

/// Whether `token` is an en-passant mark written as a token of its own
/// (`exd6 e.p.`): `e.p.`, `e.p` or `ep`, with or without a check or mate
/// sign (`exd6 e.p.+`, see [`read_ep_mark`]).
///
/// The PGN grammar attaches such a mark to the move before it and sets
/// [`Spelling::EP_MARK`]; [`MoveToken::parse`] itself reads the mark only
/// when it is glued to the move (`exd6e.p.`).
///
/// # Examples
/// ```
/// use pgnkit::is_ep_mark;
///
/// assert!(is_ep_mark(b"e.p."));
/// assert!(is_ep_mark(b"e.p.+"));
/// assert!(!is_ep_mark(b"e.p.x"));
/// ```
pub fn is_ep_mark(token: &[u8]) -> bool {
    read_ep_mark(token).is_some()
}

/// An en-passant mark written as a token of its own, and the check or
/// mate sign that follows it: the sign of the move the mark belongs to
/// when the move's own token has none (`exd6 e.p.+`). `None` when `token`
/// is no such mark.
///
/// # Examples
/// ```
/// use pgnkit::{read_ep_mark, Suffix};
///
/// assert_eq!(read_ep_mark(b"ep"), Some(None));
/// assert_eq!(read_ep_mark(b"e.p.#"), Some(Some(Suffix::Checkmate)));
/// assert_eq!(read_ep_mark(b"e.p.++"), None);
/// ```
pub fn read_ep_mark(token: &[u8]) -> Option<Option<Suffix>> {
    let (mark, suffix) = match token.split_last() {
        Some((b'+', mark)) => (mark, Some(Suffix::Check)),
        Some((b'#', mark)) => (mark, Some(Suffix::Checkmate)),
        _ => (token, None),
    };
    matches!(mark, b"e.p." | b"e.p" | b"ep").then_some(suffix)
}

/// The alphabet a piece letter belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alphabet {
    /// `N R Q P`, and `B` as a promotion (German has no promotion to `B`).
    English,
    /// `S L T D`.
    German,
    /// `K`, and `B` naming the piece that moves.
    Shared,
    /// `♔♕♖♗♘♙♚♛♜♝♞♟`.
    Figurine,
}

/// The alphabets of the letters read so far in one token.
#[derive(Debug, Clone, Copy, Default)]
struct Alphabets {
    english: bool,
    german: bool,
    shared: bool,
    figurine: bool,
}

impl Alphabets {
    /// Records a letter at `offset`, failing if it does not fit the others.
    fn add(&mut self, alphabet: Alphabet, offset: usize) -> Result<(), ParseMoveTokenError> {
        match alphabet {
            Alphabet::English => self.english = true,
            Alphabet::German => self.german = true,
            Alphabet::Shared => self.shared = true,
            Alphabet::Figurine => self.figurine = true,
        }
        let letters = self.english || self.german || self.shared;
        if (self.english && self.german) || (self.figurine && letters) {
            return Err(ParseMoveTokenError::MixedLetters { offset });
        }
        Ok(())
    }

    fn letters(self) -> Letters {
        if self.figurine {
            Letters::Figurine
        } else if self.english {
            Letters::English
        } else if self.german {
            Letters::German
        } else if self.shared {
            Letters::Either
        } else {
            Letters::None
        }
    }
}

/// How a promotion piece is introduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PromotionStyle {
    /// `e8=Q`.
    Equals,
    /// `e8(Q)`.
    Parens,
    /// `e8/Q`.
    Slash,
    /// `e8Q`, and UCI `e7e8q`.
    Bare,
}

/// A promotion letter as read.
enum PromotionLetter {
    /// Not a letter at all: there is no bare promotion here.
    Absent,
    /// A letter (or figurine) of `len` bytes naming a role.
    Role(Role, Alphabet, usize),
    /// A letter that cannot be promoted to here.
    Bad,
}

/// A cursor over one token.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `byte` if it comes next.
    #[inline]
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.pos += usize::from(found);
        found
    }

    /// The error for a token that cannot go on at the cursor.
    #[inline]
    fn fail(&self) -> ParseMoveTokenError {
        if self.pos >= self.bytes.len() {
            ParseMoveTokenError::Incomplete
        } else {
            ParseMoveTokenError::Unexpected { offset: self.pos }
        }
    }

    /// Succeeds if the whole token has been read.
    #[inline]
    fn finish(&self) -> Result<(), ParseMoveTokenError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(ParseMoveTokenError::Unexpected { offset: self.pos })
        }
    }

    #[inline]
    fn file(&mut self) -> Option<File> {
        let file = File::from_char(char::from(self.peek()?))?;
        self.pos += 1;
        Some(file)
    }

    #[inline]
    fn rank(&mut self) -> Option<Rank> {
        let rank = Rank::from_char(char::from(self.peek()?))?;
        self.pos += 1;
        Some(rank)
    }

    /// The figurine at the cursor, if any, without consuming it. Figurines
    /// are U+2654 to U+265F, three bytes `E2 99 94` to `E2 99 9F` in UTF-8.
    #[inline]
    fn figurine(&self) -> Option<Role> {
        match self.bytes.get(self.pos..self.pos + 3)? {
            &[0xE2, 0x99, last @ 0x94..=0x9F] => {
                Role::from_figurine(char::from_u32(0x2640 + u32::from(last & 0x3F))?)
            }
            _ => None,
        }
    }

    /// A null move spelled exactly `text`.
    fn null(mut self, text: &[u8], notation: Notation) -> Result<MoveToken, ParseMoveTokenError> {
        for &byte in text {
            if !self.eat(byte) {
                return Err(self.fail());
            }
        }
        self.finish()?;
        Ok(MoveToken {
            kind: MoveKind::Null,
            notation,
            letters: Letters::None,
            spelling: Spelling::STANDARD,
            suffix: None,
        })
    }

    /// `O-O` or `O-O-O`, written with `c` (`O` or `0`).
    fn castle(mut self, c: u8) -> Result<MoveToken, ParseMoveTokenError> {
        self.pos = 1;
        if !(self.eat(b'-') && self.eat(c)) {
            return Err(self.fail());
        }
        let side = if self.eat(b'-') {
            if !self.eat(c) {
                return Err(self.fail());
            }
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        let mut spelling = if c == b'0' {
            Spelling::ZERO_CASTLING
        } else {
            Spelling::STANDARD
        };
        let suffix = self.suffix(&mut spelling);
        self.finish()?;
        Ok(MoveToken {
            kind: MoveKind::Castle(side),
            notation: Notation::San,
            letters: Letters::None,
            spelling,
            suffix,
        })
    }

    /// `+`, `++` or `#`, if present.
    #[inline]
    fn suffix(&mut self, spelling: &mut Spelling) -> Option<Suffix> {
        if self.eat(b'#') {
            Some(Suffix::Checkmate)
        } else if self.eat(b'+') {
            if self.eat(b'+') {
                *spelling = spelling.with(Spelling::DOUBLE_PLUS);
            }
            Some(Suffix::Check)
        } else {
            None
        }
    }

    /// The piece letter or figurine at the start of a normal move: `None`
    /// for a move that starts with its file (a pawn, or any piece in UCI).
    fn mover(&mut self) -> Result<Option<(Mover, Alphabet)>, ParseMoveTokenError> {
        use Alphabet::{English, German, Shared};
        let named = match self.peek() {
            Some(b'a'..=b'h') => return Ok(None),
            Some(b'N') => (Mover::Role(Role::Knight), English),
            Some(b'R') => (Mover::Role(Role::Rook), English),
            Some(b'Q') => (Mover::Role(Role::Queen), English),
            Some(b'P') => (Mover::Role(Role::Pawn), English),
            Some(b'S') => (Mover::Role(Role::Knight), German),
            Some(b'L') => (Mover::Role(Role::Bishop), German),
            Some(b'T') => (Mover::Role(Role::Rook), German),
            Some(b'D') => (Mover::Role(Role::Queen), German),
            Some(b'K') => (Mover::Role(Role::King), Shared),
            Some(b'B') => (Mover::BishopOrPawn, Shared),
            _ => match self.figurine() {
                Some(role) => {
                    self.pos += 3;
                    return Ok(Some((Mover::Role(role), Alphabet::Figurine)));
                }
                None => return Err(self.fail()),
            },
        };
        self.pos += 1;
        Ok(Some(named))
    }

    /// The letter of a promotion piece at the cursor, not consumed.
    /// Lower-case letters are UCI's and accepted only in UCI shape.
    fn promotion_letter(&self, uci: bool) -> PromotionLetter {
        use Alphabet::{English, German};
        let (role, alphabet) = match self.peek() {
            Some(b'Q') => (Role::Queen, English),
            Some(b'R') => (Role::Rook, English),
            Some(b'B') => (Role::Bishop, English),
            Some(b'N') => (Role::Knight, English),
            Some(b'D') => (Role::Queen, German),
            Some(b'T') => (Role::Rook, German),
            Some(b'L') => (Role::Bishop, German),
            Some(b'S') => (Role::Knight, German),
            Some(b'q') if uci => (Role::Queen, English),
            Some(b'r') if uci => (Role::Rook, English),
            Some(b'b') if uci => (Role::Bishop, English),
            Some(b'n') if uci => (Role::Knight, English),
            Some(b'K' | b'P' | b'q' | b'r' | b'b' | b'n' | b'k' | b'p') => {
                return PromotionLetter::Bad;
            }
            _ => {
                return match self.figurine() {
                    Some(Role::King | Role::Pawn) => PromotionLetter::Bad,
                    Some(role) => PromotionLetter::Role(role, Alphabet::Figurine, 3),
                    None => PromotionLetter::Absent,
                };
            }
        };
        PromotionLetter::Role(role, alphabet, 1)
    }

    /// A promotion after the destination square, if any.
    fn promotion(
        &mut self,
        uci: bool,
        alphabets: &mut Alphabets,
    ) -> Result<Option<(Role, PromotionStyle)>, ParseMoveTokenError> {
        let style = if self.eat(b'=') {
            PromotionStyle::Equals
        } else if self.eat(b'(') {
            PromotionStyle::Parens
        } else if self.eat(b'/') {
            PromotionStyle::Slash
        } else {
            PromotionStyle::Bare
        };
        let at = self.pos;
        let role = match self.promotion_letter(uci) {
            PromotionLetter::Role(role, alphabet, len) => {
                alphabets.add(alphabet, at)?;
                self.pos += len;
                role
            }
            PromotionLetter::Absent if style == PromotionStyle::Bare => return Ok(None),
            PromotionLetter::Absent if at >= self.bytes.len() => {
                return Err(ParseMoveTokenError::Incomplete);
            }
            PromotionLetter::Absent | PromotionLetter::Bad => {
                return Err(ParseMoveTokenError::BadPromotion { offset: at });
            }
        };
        if style == PromotionStyle::Parens && !self.eat(b')') {
            return Err(self.fail());
        }
        Ok(Some((role, style)))
    }

    /// `e.p.`, `e.p` or `ep` glued to the move, if present.
    fn ep_mark(&mut self) -> Result<bool, ParseMoveTokenError> {
        if !self.eat(b'e') {
            return Ok(false);
        }
        let complete = if self.eat(b'.') {
            let p = self.eat(b'p');
            self.eat(b'.');
            p
        } else {
            self.eat(b'p')
        };
        if complete { Ok(true) } else { Err(self.fail()) }
    }

    /// Every move that is not castling or a null move.
    fn normal(mut self) -> Result<MoveToken, ParseMoveTokenError> {
        let mut alphabets = Alphabets::default();
        let mut spelling = Spelling::STANDARD;

        let named = self.mover()?;
        if let Some((_, alphabet)) = named {
            alphabets.add(alphabet, 0)?;
        }

        // Origin (as much as written), separator, destination.
        let mut from_file = self.file();
        let mut from_rank = self.rank();
        let separator_at = self.pos;
        let separator = match self.peek() {
            Some(b @ (b'x' | b':' | b'-')) => {
                self.pos += 1;
                Some(b)
            }
            _ => None,
        };
        let full_origin = from_file.is_some() && from_rank.is_some();
        if separator == Some(b'-') && !full_origin {
            // `-` belongs to long algebraic, which writes the whole origin.
            return Err(ParseMoveTokenError::Unexpected {
                offset: separator_at,
            });
        }
        if named.is_none() && from_rank.is_none() && separator.is_none() {
            // A pawn names its file only when it captures (`exd5`, not `ed5`).
            return Err(self.fail());
        }
        let to = if separator.is_some() || matches!(self.peek(), Some(b'a'..=b'h')) {
            let file = self.file().ok_or_else(|| self.fail())?;
            let rank = self.rank().ok_or_else(|| self.fail())?;
            Square::from_coords(file, rank)
        } else {
            match (from_file.take(), from_rank.take()) {
                (Some(file), Some(rank)) => Square::from_coords(file, rank),
                _ => return Err(self.fail()),
            }
        };
        let capture = matches!(separator, Some(b'x' | b':'));
        if separator == Some(b':') {
            spelling = spelling.with(Spelling::COLON_CAPTURE);
        }
        let full_origin = from_file.is_some() && from_rank.is_some();
        let uci = named.is_none() && separator.is_none() && full_origin;

        let promotion_at = self.pos;
        let promotion = self.promotion(uci, &mut alphabets)?;
        let letters = alphabets.letters();
        let mover = match named {
            None => Mover::Unnamed,
            Some((Mover::BishopOrPawn, _)) => match letters {
                Letters::English => Mover::Role(Role::Bishop),
                Letters::German => Mover::Role(Role::Pawn),
                _ => Mover::BishopOrPawn,
            },
            Some((mover, _)) => mover,
        };
        if named.is_some() && mover == Mover::Role(Role::Pawn) {
            spelling = spelling.with(Spelling::PAWN_LETTER);
        }
        if promotion.is_some() && matches!(mover, Mover::Role(role) if role != Role::Pawn) {
            return Err(ParseMoveTokenError::BadPromotion {
                offset: promotion_at,
            });
        }
        if let Some((_, style)) = promotion {
            spelling = spelling.with(match style {
                PromotionStyle::Equals => Spelling::STANDARD,
                PromotionStyle::Parens => Spelling::PROMOTION_PARENS,
                PromotionStyle::Slash => Spelling::PROMOTION_SLASH,
                PromotionStyle::Bare if uci => Spelling::STANDARD,
                PromotionStyle::Bare => Spelling::PROMOTION_BARE,
            });
        }

        let mut ep_at = self.pos;
        let mut ep = self.ep_mark()?;
        let suffix = self.suffix(&mut spelling);
        if !ep && suffix.is_some() {
            // The mark after the sign (`exd6+e.p.`): the order the separate
            // token has (`exd6+ e.p.`), which the writer uses.
            ep_at = self.pos;
            ep = self.ep_mark()?;
        }
        if ep {
            let pawn = matches!(
                mover,
                Mover::Unnamed | Mover::BishopOrPawn | Mover::Role(Role::Pawn)
            );
            // pgn-extract's -Welalg marks the capture by the mark alone
            // (`e5d6ep`): a move between files.
            let diagonal = separator.is_none() && full_origin && from_file != Some(to.file());
            if !(capture || diagonal) || promotion.is_some() || !pawn {
                return Err(ParseMoveTokenError::Unexpected { offset: ep_at });
            }
            spelling = spelling.with(Spelling::EP_MARK);
        }
        self.finish()?;

        let notation = match promotion {
            _ if !full_origin => Notation::San,
            None | Some((_, PromotionStyle::Bare)) if uci && !ep => Notation::Uci,
            _ => Notation::Long,
        };
        Ok(MoveToken {
            kind: MoveKind::Normal {
                mover,
                from_file,
                from_rank,
                capture,
                to,
                promotion: promotion.map(|(role, _)| role),
            },
            notation,
            letters,
            spelling,
            suffix,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Letters as L;
    use Mover::{BishopOrPawn, Unnamed};
    use Notation::{Long, San, Uci};
    use ParseMoveTokenError::{BadPromotion, Empty, Incomplete, MixedLetters, Unexpected};
    use Role::{Bishop, King, Knight, Pawn, Queen, Rook};

    const STD: Spelling = Spelling::STANDARD;
    const CHECK: Option<Suffix> = Some(Suffix::Check);
    const MATE: Option<Suffix> = Some(Suffix::Checkmate);

    fn role(role: Role) -> Mover {
        Mover::Role(role)
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    /// A normal move; `from` is `""`, a file, a rank or a square.
    fn normal(
        mover: Mover,
        from: &str,
        capture: bool,
        to: &str,
        promotion: Option<Role>,
    ) -> MoveKind {
        let mut from_file = None;
        let mut from_rank = None;
        for c in from.chars() {
            from_file = from_file.or(File::from_char(c));
            from_rank = from_rank.or(Rank::from_char(c));
        }
        MoveKind::Normal {
            mover,
            from_file,
            from_rank,
            capture,
            to: sq(to),
            promotion,
        }
    }

    fn token(
        kind: MoveKind,
        notation: Notation,
        letters: Letters,
        spelling: Spelling,
        suffix: Option<Suffix>,
    ) -> Result<MoveToken, ParseMoveTokenError> {
        Ok(MoveToken {
            kind,
            notation,
            letters,
            spelling,
            suffix,
        })
    }

    fn castle(
        side: CastlingSide,
        spelling: Spelling,
        suffix: Option<Suffix>,
    ) -> Result<MoveToken, ParseMoveTokenError> {
        token(MoveKind::Castle(side), San, L::None, spelling, suffix)
    }

    fn null(notation: Notation) -> Result<MoveToken, ParseMoveTokenError> {
        token(MoveKind::Null, notation, L::None, STD, None)
    }

    fn unexpected(offset: usize) -> Result<MoveToken, ParseMoveTokenError> {
        Err(Unexpected { offset })
    }

    #[test]
    fn parses_every_spelling() {
        use CastlingSide::{KingSide, QueenSide};
        const ZERO: Spelling = Spelling::ZERO_CASTLING;
        const BARE: Spelling = Spelling::PROMOTION_BARE;
        const PARENS: Spelling = Spelling::PROMOTION_PARENS;
        const SLASH: Spelling = Spelling::PROMOTION_SLASH;
        const PAWN: Spelling = Spelling::PAWN_LETTER;
        const EP: Spelling = Spelling::EP_MARK;
        const PLUS2: Spelling = Spelling::DOUBLE_PLUS;
        const COLON: Spelling = Spelling::COLON_CAPTURE;
        let u = Unnamed;

        #[rustfmt::skip]
        let cases: Vec<(&str, Result<MoveToken, ParseMoveTokenError>)> = vec![
            // SAN
            ("e4", token(normal(u, "", false, "e4", None), San, L::None, STD, None)),
            ("exd5", token(normal(u, "e", true, "d5", None), San, L::None, STD, None)),
            ("bxc3", token(normal(u, "b", true, "c3", None), San, L::None, STD, None)),
            ("Nf3", token(normal(role(Knight), "", false, "f3", None), San, L::English, STD, None)),
            ("Nbd7", token(normal(role(Knight), "b", false, "d7", None), San, L::English, STD, None)),
            ("R1a3", token(normal(role(Rook), "1", false, "a3", None), San, L::English, STD, None)),
            ("Rxa3", token(normal(role(Rook), "", true, "a3", None), San, L::English, STD, None)),
            ("R1xa3", token(normal(role(Rook), "1", true, "a3", None), San, L::English, STD, None)),
            ("Qh4xe1", token(normal(role(Queen), "h4", true, "e1", None), Long, L::English, STD, None)),
            ("Bb5", token(normal(BishopOrPawn, "", false, "b5", None), San, L::Either, STD, None)),
            ("Kg1", token(normal(role(King), "", false, "g1", None), San, L::Either, STD, None)),
            ("e8=Q", token(normal(u, "", false, "e8", Some(Queen)), San, L::English, STD, None)),
            ("exd8=N", token(normal(u, "e", true, "d8", Some(Knight)), San, L::English, STD, None)),
            ("a1=B", token(normal(u, "", false, "a1", Some(Bishop)), San, L::English, STD, None)),
            ("gxh1=R#", token(normal(u, "g", true, "h1", Some(Rook)), San, L::English, STD, MATE)),
            ("O-O", castle(KingSide, STD, None)),
            ("O-O-O", castle(QueenSide, STD, None)),
            ("O-O+", castle(KingSide, STD, CHECK)),
            ("O-O-O#", castle(QueenSide, STD, MATE)),
            ("Qh5#", token(normal(role(Queen), "", false, "h5", None), San, L::English, STD, MATE)),
            ("Bb5+", token(normal(BishopOrPawn, "", false, "b5", None), San, L::Either, STD, CHECK)),
            ("e4++", token(normal(u, "", false, "e4", None), San, L::None, PLUS2, CHECK)),
            // Common variants
            ("0-0", castle(KingSide, ZERO, None)),
            ("0-0-0+", castle(QueenSide, ZERO, CHECK)),
            ("0-0++", castle(KingSide, ZERO.with(PLUS2), CHECK)),
            ("e:d5", token(normal(u, "e", true, "d5", None), San, L::None, COLON, None)),
            ("N:f3", token(normal(role(Knight), "", true, "f3", None), San, L::English, COLON, None)),
            ("e8Q", token(normal(u, "", false, "e8", Some(Queen)), San, L::English, BARE, None)),
            ("e8(Q)", token(normal(u, "", false, "e8", Some(Queen)), San, L::English, PARENS, None)),
            ("e8/Q", token(normal(u, "", false, "e8", Some(Queen)), San, L::English, SLASH, None)),
            ("dxe8N+", token(normal(u, "d", true, "e8", Some(Knight)), San, L::English, BARE, CHECK)),
            ("Pe4", token(normal(role(Pawn), "", false, "e4", None), San, L::English, PAWN, None)),
            ("Pxd5", token(normal(role(Pawn), "", true, "d5", None), San, L::English, PAWN, None)),
            ("exd6e.p.", token(normal(u, "e", true, "d6", None), San, L::None, EP, None)),
            ("exd6ep", token(normal(u, "e", true, "d6", None), San, L::None, EP, None)),
            ("exd6e.p", token(normal(u, "e", true, "d6", None), San, L::None, EP, None)),
            ("exd6e.p.+", token(normal(u, "e", true, "d6", None), San, L::None, EP, CHECK)),
            ("exd6+e.p.", token(normal(u, "e", true, "d6", None), San, L::None, EP, CHECK)),
            ("exd6#ep", token(normal(u, "e", true, "d6", None), San, L::None, EP, MATE)),
            ("e5xd6+e.p.", token(normal(u, "e5", true, "d6", None), Long, L::None, EP, CHECK)),
            ("e5xd6ep", token(normal(u, "e5", true, "d6", None), Long, L::None, EP, None)),
            ("e5d6ep", token(normal(u, "e5", false, "d6", None), Long, L::None, EP, None)),
            ("e5d6ep+", token(normal(u, "e5", false, "d6", None), Long, L::None, EP, CHECK)),
            ("e5e6ep", unexpected(4)),
            // Long algebraic
            ("e2-e4", token(normal(u, "e2", false, "e4", None), Long, L::None, STD, None)),
            ("e2xe4", token(normal(u, "e2", true, "e4", None), Long, L::None, STD, None)),
            ("e4xd5", token(normal(u, "e4", true, "d5", None), Long, L::None, STD, None)),
            ("Ng1-f3", token(normal(role(Knight), "g1", false, "f3", None), Long, L::English, STD, None)),
            ("Ng1xf3", token(normal(role(Knight), "g1", true, "f3", None), Long, L::English, STD, None)),
            ("Ng1f3", token(normal(role(Knight), "g1", false, "f3", None), Long, L::English, STD, None)),
            ("e7-e8=Q", token(normal(u, "e7", false, "e8", Some(Queen)), Long, L::English, STD, None)),
            ("e7-e8Q", token(normal(u, "e7", false, "e8", Some(Queen)), Long, L::English, BARE, None)),
            ("e7e8=Q", token(normal(u, "e7", false, "e8", Some(Queen)), Long, L::English, STD, None)),
            ("e1-c1", token(normal(u, "e1", false, "c1", None), Long, L::None, STD, None)),
            ("g1-f3", token(normal(u, "g1", false, "f3", None), Long, L::None, STD, None)),
            ("c1xb2+", token(normal(u, "c1", true, "b2", None), Long, L::None, STD, CHECK)),
            ("Qb2c3", token(normal(role(Queen), "b2", false, "c3", None), Long, L::English, STD, None)),
            ("Db2xc3", token(normal(role(Queen), "b2", true, "c3", None), Long, L::German, STD, None)),
            ("Pe2-e4+", token(normal(role(Pawn), "e2", false, "e4", None), Long, L::English, PAWN, CHECK)),
            // UCI
            ("e2e4", token(normal(u, "e2", false, "e4", None), Uci, L::None, STD, None)),
            ("e7e8q", token(normal(u, "e7", false, "e8", Some(Queen)), Uci, L::English, STD, None)),
            ("e7e8Q", token(normal(u, "e7", false, "e8", Some(Queen)), Uci, L::English, STD, None)),
            ("b2a1n", token(normal(u, "b2", false, "a1", Some(Knight)), Uci, L::English, STD, None)),
            ("a7a8b", token(normal(u, "a7", false, "a8", Some(Bishop)), Uci, L::English, STD, None)),
            ("e1g1", token(normal(u, "e1", false, "g1", None), Uci, L::None, STD, None)),
            ("e4e4", token(normal(u, "e4", false, "e4", None), Uci, L::None, STD, None)),
            // German
            ("Sf3", token(normal(role(Knight), "", false, "f3", None), San, L::German, STD, None)),
            ("Lxb5", token(normal(role(Bishop), "", true, "b5", None), San, L::German, STD, None)),
            ("Dd1-f3", token(normal(role(Queen), "d1", false, "f3", None), Long, L::German, STD, None)),
            ("Tfe1", token(normal(role(Rook), "f", false, "e1", None), San, L::German, STD, None)),
            ("b2-b1=D", token(normal(u, "b2", false, "b1", Some(Queen)), Long, L::German, STD, None)),
            ("e8=S", token(normal(u, "", false, "e8", Some(Knight)), San, L::German, STD, None)),
            ("e8L", token(normal(u, "", false, "e8", Some(Bishop)), San, L::German, BARE, None)),
            ("Be2-e4", token(normal(BishopOrPawn, "e2", false, "e4", None), Long, L::Either, STD, None)),
            ("Bb7-b8=D", token(normal(role(Pawn), "b7", false, "b8", Some(Queen)), Long, L::German, PAWN, None)),
            ("Bb7-b8=T+", token(normal(role(Pawn), "b7", false, "b8", Some(Rook)), Long, L::German, PAWN, CHECK)),
            ("Kxg1", token(normal(role(King), "", true, "g1", None), San, L::Either, STD, None)),
            // Figurines
            ("♘f3", token(normal(role(Knight), "", false, "f3", None), San, L::Figurine, STD, None)),
            ("♞xf6+", token(normal(role(Knight), "", true, "f6", None), San, L::Figurine, STD, CHECK)),
            ("♗b5", token(normal(role(Bishop), "", false, "b5", None), San, L::Figurine, STD, None)),
            ("♔e2", token(normal(role(King), "", false, "e2", None), San, L::Figurine, STD, None)),
            ("♚d7", token(normal(role(King), "", false, "d7", None), San, L::Figurine, STD, None)),
            ("♕b2c3", token(normal(role(Queen), "b2", false, "c3", None), Long, L::Figurine, STD, None)),
            ("♛d1-h5", token(normal(role(Queen), "d1", false, "h5", None), Long, L::Figurine, STD, None)),
            ("♙e4", token(normal(role(Pawn), "", false, "e4", None), San, L::Figurine, PAWN, None)),
            ("e8=♕", token(normal(u, "", false, "e8", Some(Queen)), San, L::Figurine, STD, None)),
            ("e1♜", token(normal(u, "", false, "e1", Some(Rook)), San, L::Figurine, BARE, None)),
            // Null moves
            ("--", null(San)),
            ("Z0", null(San)),
            ("0000", null(Uci)),
            ("@@@@", null(Uci)),
            // Errors
            ("", Err(Empty)),
            ("nf3", unexpected(0)),
            ("Nf3zzz", unexpected(3)),
            ("e9", unexpected(1)),
            ("i4", unexpected(0)),
            ("Kx", Err(Incomplete)),
            ("N", Err(Incomplete)),
            ("Nf", Err(Incomplete)),
            ("e", Err(Incomplete)),
            ("e4d", Err(Incomplete)),
            ("e8=", Err(Incomplete)),
            ("e8(Q", Err(Incomplete)),
            ("e8(Q]", unexpected(4)),
            ("e8=K", Err(BadPromotion { offset: 3 })),
            ("e8=P", Err(BadPromotion { offset: 3 })),
            ("e8=X", Err(BadPromotion { offset: 3 })),
            ("e8=♔", Err(BadPromotion { offset: 3 })),
            ("e8=q", Err(BadPromotion { offset: 3 })),
            ("e8q", Err(BadPromotion { offset: 2 })),
            ("e7e8k", Err(BadPromotion { offset: 4 })),
            ("Nb8=Q", Err(BadPromotion { offset: 3 })),
            ("Bb7-b8=Q", Err(BadPromotion { offset: 6 })),
            ("Sb7-b8=Q", Err(MixedLetters { offset: 7 })),
            ("Pe8=D", Err(MixedLetters { offset: 4 })),
            ("♘e8=Q", Err(MixedLetters { offset: 6 })),
            ("O-O-O-O", unexpected(5)),
            ("0-0-0-0", unexpected(5)),
            ("O-0", unexpected(2)),
            ("0-O", unexpected(2)),
            ("O-O-", Err(Incomplete)),
            ("OO", unexpected(1)),
            ("O-O-x", unexpected(4)),
            ("x", unexpected(0)),
            ("xd5", unexpected(0)),
            ("Nf3+#", unexpected(4)),
            ("e4+++", unexpected(4)),
            ("e4#+", unexpected(3)),
            ("e4!", unexpected(2)),
            ("N-f3", unexpected(1)),
            ("Ng-f3", unexpected(2)),
            ("e-e4", unexpected(1)),
            ("ed5", unexpected(1)),
            ("4e", unexpected(0)),
            ("E4", unexpected(0)),
            ("Xe4", unexpected(0)),
            ("d6ep", unexpected(3)),
            ("Nxd6ep", unexpected(4)),
            ("exd8=Qep", unexpected(6)),
            ("exd6+e.p.x", unexpected(9)),
            ("exd6e.p.+e.p.", unexpected(9)),
            ("Nxd6+ep", unexpected(5)),
            ("exd6e", Err(Incomplete)),
            ("exd6e.x", unexpected(6)),
            ("--+", unexpected(2)),
            ("Z0+", unexpected(2)),
            ("000", Err(Incomplete)),
            ("00000", unexpected(4)),
            ("@@@", Err(Incomplete)),
            ("e4 ", unexpected(2)),
            ("\u{2654}", Err(Incomplete)),
            ("\u{2600}e4", unexpected(0)),
            ("é4", unexpected(0)),
        ];
        assert!(cases.len() >= 60);
        for (text, expected) in cases {
            assert_eq!(MoveToken::parse(text.as_bytes()), expected, "{text:?}");
        }
    }

    /// The fast path agrees with the general parser on every token it
    /// takes, and declines nothing it should parse the same way.
    fn same_as_general(token: &[u8]) {
        let general = MoveToken::parse_general(token);
        if let Some(fast) = parse_common(token) {
            assert_eq!(Ok(fast), general, "{:?}", String::from_utf8_lossy(token));
        }
        assert_eq!(
            MoveToken::parse(token),
            general,
            "{:?}",
            String::from_utf8_lossy(token)
        );
    }

    /// Every string of up to four bytes over the bytes moves are made of,
    /// and up to six over the fast path's own.
    #[test]
    fn fast_path_matches_general_parser_on_generated_tokens() {
        fn all(alphabet: &[u8], max: usize, check: &mut impl FnMut(&[u8])) {
            let mut text = Vec::new();
            fn go(alphabet: &[u8], max: usize, text: &mut Vec<u8>, check: &mut impl FnMut(&[u8])) {
                check(text);
                if text.len() == max {
                    return;
                }
                for &b in alphabet {
                    text.push(b);
                    go(alphabet, max, text, check);
                    text.pop();
                }
            }
            go(alphabet, max, &mut text, check);
        }
        let mut count = 0usize;
        let mut check = |token: &[u8]| {
            same_as_general(token);
            count += 1;
        };
        all(b"abeh0189NBRQKPSLTDxX:-=+#O(/)pi.\xE2", 4, &mut check);
        all(b"ah18NBPKx+#=", 6, &mut check);
        assert!(count > 3_000_000, "{count}");
    }

    /// Every whitespace-separated word of the shared corpus (moves, move
    /// numbers, comment words, garbage) parses the same both ways.
    #[test]
    fn fast_path_matches_general_parser_on_corpus_words() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/corpus");
        let mut stack = vec![dir];
        let mut words = 0usize;
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "pgn") {
                    let text = std::fs::read(&path).expect("read corpus file");
                    let delimiter = |b: &u8| b.is_ascii_whitespace() || b"{}()[];$\"!?".contains(b);
                    for word in text.split(delimiter).filter(|w| !w.is_empty()) {
                        same_as_general(word);
                        words += 1;
                    }
                }
            }
        }
        eprintln!("{words} corpus words");
    }

    #[test]
    fn ep_marks() {
        for (token, is_mark) in [
            ("e.p.", true),
            ("e.p", true),
            ("ep", true),
            ("e.p.+", true),
            ("ep#", true),
            ("e.p.++", false),
            ("e.p.+#", false),
            ("+", false),
            ("ep.", false),
            ("E.P.", false),
            ("", false),
        ] {
            assert_eq!(is_ep_mark(token.as_bytes()), is_mark, "{token:?}");
        }
    }

    /// The alphabets a round trip writes pieces in.
    #[derive(Debug, Clone, Copy)]
    enum Script {
        English,
        German,
        Figurine,
    }

    impl Script {
        fn letter(self, role: Role) -> String {
            match self {
                Script::English => role.upper_char().to_string(),
                Script::German => role.german_char().to_string(),
                Script::Figurine => role.figurine().to_string(),
            }
        }

        /// The letters classification of a token whose only letters are
        /// `role` written in this script.
        fn letters(self, role: Role) -> Letters {
            match (self, role) {
                (Script::Figurine, _) => L::Figurine,
                (_, King) | (Script::English, Bishop) | (Script::German, Pawn) => L::Either,
                (Script::English, _) => L::English,
                (Script::German, _) => L::German,
            }
        }

        /// The mover of a token naming `role` in this script, no other letter.
        fn mover(self, role: Role) -> Mover {
            match (self, role) {
                (Script::English, Bishop) | (Script::German, Pawn) => BishopOrPawn,
                _ => Mover::Role(role),
            }
        }
    }

    const SCRIPTS: [Script; 3] = [Script::English, Script::German, Script::Figurine];
    const SUFFIXES: [(&str, Option<Suffix>, Spelling); 4] = [
        ("", None, STD),
        ("+", CHECK, STD),
        ("#", MATE, STD),
        ("++", CHECK, Spelling::DOUBLE_PLUS),
    ];

    /// Writes every origin/destination pair for every role in SAN, long
    /// algebraic, UCI, German and figurines, and parses it back.
    #[test]
    fn round_trip() {
        let mut count = 0usize;
        let mut check = |text: String, kind: MoveKind, notation, letters, spelling: Spelling| {
            let (mark, suffix, extra) = SUFFIXES[count % SUFFIXES.len()];
            let text = text + mark;
            let expected = MoveToken {
                kind,
                notation,
                letters,
                spelling: spelling.with(extra),
                suffix,
            };
            assert_eq!(MoveToken::parse(text.as_bytes()), Ok(expected), "{text:?}");
            count += 1;
        };
        for from in Square::all() {
            for to in Square::all() {
                let (ff, fr) = (from.file(), from.rank());
                let kind = |mover, from_file, from_rank, capture, promotion| MoveKind::Normal {
                    mover,
                    from_file,
                    from_rank,
                    capture,
                    to,
                    promotion,
                };
                for script in SCRIPTS {
                    for r in Role::ALL {
                        let m = script.letter(r);
                        let mover = script.mover(r);
                        let letters = script.letters(r);
                        let pawn = if mover == Mover::Role(Pawn) {
                            Spelling::PAWN_LETTER
                        } else {
                            STD
                        };
                        let forms = [
                            (format!("{m}{to}"), None, None, false, San),
                            (format!("{m}{ff}{to}"), Some(ff), None, false, San),
                            (format!("{m}{fr}x{to}"), None, Some(fr), true, San),
                            (format!("{m}{from}-{to}"), Some(ff), Some(fr), false, Long),
                            (format!("{m}{from}x{to}"), Some(ff), Some(fr), true, Long),
                            (format!("{m}{from}{to}"), Some(ff), Some(fr), false, Long),
                        ];
                        for (text, f, r, capture, notation) in forms {
                            check(
                                text,
                                kind(mover, f, r, capture, None),
                                notation,
                                letters,
                                pawn,
                            );
                        }
                    }
                    // Pawn moves without a letter, with every promotion.
                    for promotion in Role::PROMOTIONS {
                        let p = script.letter(promotion);
                        let letters = match script {
                            Script::English => L::English,
                            Script::German => L::German,
                            Script::Figurine => L::Figurine,
                        };
                        let bare = Spelling::PROMOTION_BARE;
                        let some = Some(promotion);
                        let forms = [
                            (format!("{to}={p}"), None, None, false, San, STD),
                            (format!("{to}{p}"), None, None, false, San, bare),
                            (
                                format!("{to}({p})"),
                                None,
                                None,
                                false,
                                San,
                                Spelling::PROMOTION_PARENS,
                            ),
                            (
                                format!("{to}/{p}"),
                                None,
                                None,
                                false,
                                San,
                                Spelling::PROMOTION_SLASH,
                            ),
                            (format!("{ff}x{to}={p}"), Some(ff), None, true, San, STD),
                            (
                                format!("{from}-{to}={p}"),
                                Some(ff),
                                Some(fr),
                                false,
                                Long,
                                STD,
                            ),
                            (
                                format!("{from}x{to}{p}"),
                                Some(ff),
                                Some(fr),
                                true,
                                Long,
                                bare,
                            ),
                            (
                                format!("{from}{to}{p}"),
                                Some(ff),
                                Some(fr),
                                false,
                                Uci,
                                STD,
                            ),
                        ];
                        for (text, f, r, capture, notation, spelling) in forms {
                            check(
                                text,
                                kind(Unnamed, f, r, capture, some),
                                notation,
                                letters,
                                spelling,
                            );
                        }
                        if let Script::English = script {
                            let p = promotion.char();
                            check(
                                format!("{from}{to}{p}"),
                                kind(Unnamed, Some(ff), Some(fr), false, some),
                                Uci,
                                letters,
                                STD,
                            );
                        }
                    }
                    // A named pawn that promotes: `B` is settled by a German
                    // promotion letter.
                    let m = script.letter(Pawn);
                    let p = script.letter(Queen);
                    let letters = match script {
                        Script::Figurine => L::Figurine,
                        Script::English => L::English,
                        Script::German => L::German,
                    };
                    let pawn = Spelling::PAWN_LETTER;
                    check(
                        format!("{m}{from}-{to}={p}"),
                        kind(role(Pawn), Some(ff), Some(fr), false, Some(Queen)),
                        Long,
                        letters,
                        pawn,
                    );
                }
                check(
                    format!("{from}{to}"),
                    kind(Unnamed, Some(ff), Some(fr), false, None),
                    Uci,
                    L::None,
                    STD,
                );
                check(
                    format!("{from}-{to}"),
                    kind(Unnamed, Some(ff), Some(fr), false, None),
                    Long,
                    L::None,
                    STD,
                );
                check(
                    format!("{from}x{to}"),
                    kind(Unnamed, Some(ff), Some(fr), true, None),
                    Long,
                    L::None,
                    STD,
                );
                check(
                    format!("{from}:{to}"),
                    kind(Unnamed, Some(ff), Some(fr), true, None),
                    Long,
                    L::None,
                    Spelling::COLON_CAPTURE,
                );
                check(
                    format!("{ff}x{to}"),
                    kind(Unnamed, Some(ff), None, true, None),
                    San,
                    L::None,
                    STD,
                );
                check(
                    format!("{ff}x{to}e.p."),
                    kind(Unnamed, Some(ff), None, true, None),
                    San,
                    L::None,
                    Spelling::EP_MARK,
                );
            }
            check(
                format!("{from}"),
                normal(Unnamed, "", false, &from.to_string(), None),
                San,
                L::None,
                STD,
            );
        }
        assert!(count > 500_000, "{count}");
    }
}
