//! Forsyth–Edwards Notation: reading and writing all six fields.
//!
//! Reading is strict and in two steps, as elsewhere in the crate: syntax
//! first ([`Setup::from_fen`], errors name the field and the byte offset),
//! then meaning ([`Position::from_setup`], every problem at once).
//! [`Position::from_fen`] does both, and names the field each problem of
//! the position is in ([`FenField::from`] a [`PositionProblem`]).

use std::fmt;
use std::str::FromStr;

use crate::{
    bitboard::Bitboard,
    board::Board,
    castling::CastlingSide,
    color::Color,
    position::{Position, PositionError, PositionProblem},
    role::{Piece, Role},
    setup::Setup,
    square::{File, Rank, Square},
};

/// One of the six fields of a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant square.
    EnPassant,
    /// Half-move clock.
    HalfmoveClock,
    /// Full-move number.
    FullmoveNumber,
}

impl From<PositionProblem> for FenField {
    /// The field that a problem of a well-formed FEN is in.
    fn from(problem: PositionProblem) -> FenField {
        match problem {
            PositionProblem::KingCount { .. } | PositionProblem::PawnOnBackRank(_) => {
                FenField::Board
            }
            PositionProblem::OppositeCheck => FenField::Turn,
            PositionProblem::InvalidCastlingRight(_) | PositionProblem::SecondCastlingRight(_) => {
                FenField::Castling
            }
            PositionProblem::InvalidEpSquare(_) => FenField::EnPassant,
        }
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Turn => "side-to-move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en-passant",
            FenField::HalfmoveClock => "half-move clock",
            FenField::FullmoveNumber => "full-move number",
        })
    }
}

/// What is wrong in a FEN's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseFenErrorKind {
    /// A required field is missing (the text ends early).
    MissingField,
    /// A field is empty (two spaces in a row, or a leading space).
    EmptyField,
    /// More than eight ranks.
    TooManyRanks,
    /// Fewer than eight ranks.
    TooFewRanks,
    /// A rank describes more than eight squares.
    RankTooLong,
    /// A rank describes fewer than eight squares.
    RankTooShort,
    /// A digit outside 1–8, or two digits in a row.
    BadDigit(char),
    /// A character that is no piece letter, digit or `/`.
    UnknownPiece(char),
    /// The side to move is not `w` or `b`.
    BadTurn,
    /// A character not allowed in the castling field.
    BadCastling(char),
    /// A castling right given twice.
    DuplicateCastling(char),
    /// More than four castling rights.
    TooManyCastlingRights,
    /// `K`, `Q`, `k` or `q` without a king on its back rank and a rook on
    /// that side of it.
    NoCastlingRook(char),
    /// The en-passant field is not `-` or a square on the third or sixth
    /// rank.
    BadEpSquare,
    /// A counter is not a decimal number.
    NotANumber,
    /// A counter is too large, or the full-move number is 0.
    NumberOutOfRange,
    /// Text after the last field.
    TrailingGarbage,
}

impl fmt::Display for ParseFenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseFenErrorKind::MissingField => f.write_str("missing field"),
            ParseFenErrorKind::EmptyField => f.write_str("empty field (extra space?)"),
            ParseFenErrorKind::TooManyRanks => f.write_str("more than 8 ranks"),
            ParseFenErrorKind::TooFewRanks => f.write_str("fewer than 8 ranks"),
            ParseFenErrorKind::RankTooLong => f.write_str("rank longer than 8 squares"),
            ParseFenErrorKind::RankTooShort => f.write_str("rank shorter than 8 squares"),
            ParseFenErrorKind::BadDigit(c) => write!(f, "bad empty-square count {c:?}"),
            ParseFenErrorKind::UnknownPiece(c) => write!(f, "unknown piece letter {c:?}"),
            ParseFenErrorKind::BadTurn => f.write_str("expected 'w' or 'b'"),
            ParseFenErrorKind::BadCastling(c) => write!(f, "bad castling character {c:?}"),
            ParseFenErrorKind::DuplicateCastling(c) => {
                write!(f, "castling right {c:?} given twice")
            }
            ParseFenErrorKind::TooManyCastlingRights => {
                f.write_str("more than four castling rights")
            }
            ParseFenErrorKind::NoCastlingRook(c) => {
                write!(
                    f,
                    "castling right {c:?} without king and rook on the back rank"
                )
            }
            ParseFenErrorKind::BadEpSquare => {
                f.write_str("expected '-' or a square on the third or sixth rank")
            }
            ParseFenErrorKind::NotANumber => f.write_str("not a number"),
            ParseFenErrorKind::NumberOutOfRange => f.write_str("number out of range"),
            ParseFenErrorKind::TrailingGarbage => {
                f.write_str("unexpected text after the last field")
            }
        }
    }
}

/// Error of [`Setup::from_fen`]: a syntax error, with the field and the
/// byte offset (from 0) where it was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid FEN: {field} field, offset {offset}: {kind}")]
#[non_exhaustive]
pub struct ParseFenError {
    /// The field the error is in.
    pub field: FenField,
    /// Byte offset of the offending character in the whole text.
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseFenErrorKind,
}

/// Error of [`Position::from_fen`]: bad syntax, or a well-formed FEN of an
/// illegal position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is not a well-formed FEN.
    Parse(ParseFenError),
    /// The FEN describes an illegal position: every problem, and for each
    /// the byte offset where it shows (the offending character, or the
    /// start of its field).
    Position {
        /// The problems found.
        error: PositionError,
        /// One offset per problem, in the same order.
        offsets: Vec<usize>,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(err) => err.fmt(f),
            FenError::Position { error, offsets } => {
                f.write_str("illegal position: ")?;
                for (i, (problem, offset)) in error.problems.iter().zip(offsets).enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    let field = FenField::from(*problem);
                    write!(f, "{problem} ({field} field, offset {offset})")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Parse(err) => Some(err),
            FenError::Position { error, .. } => Some(error),
        }
    }
}

impl From<ParseFenError> for FenError {
    fn from(err: ParseFenError) -> FenError {
        FenError::Parse(err)
    }
}

/// Which en-passant square a written FEN shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EpMode {
    /// After every double step, whether or not a capture is possible (the
    /// FEN and PGN standards).
    #[default]
    Always,
    /// Only when an en-passant capture is legal (python-chess, lichess).
    Legal,
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// The next space-separated field and its offset.
    fn field(&mut self, field: FenField) -> Result<(&'a str, usize), ParseFenError> {
        let err = |offset, kind| ParseFenError {
            field,
            offset,
            kind,
        };
        if self.pos > self.text.len() {
            return Err(err(self.text.len(), ParseFenErrorKind::MissingField));
        }
        let rest = &self.text[self.pos..];
        let len = rest.find(' ').unwrap_or(rest.len());
        let start = self.pos;
        if len == 0 {
            let kind = if rest.is_empty() {
                ParseFenErrorKind::MissingField
            } else {
                ParseFenErrorKind::EmptyField
            };
            return Err(err(start, kind));
        }
        self.pos += len + 1;
        Ok((&rest[..len], start))
    }

    fn at_end(&self) -> bool {
        self.pos > self.text.len()
    }
}

fn parse_board(text: &str, base: usize) -> Result<Board, ParseFenError> {
    let err = |offset: usize, kind| ParseFenError {
        field: FenField::Board,
        offset: base + offset,
        kind,
    };
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    let mut last_digit = false;
    for (i, c) in text.char_indices() {
        match c {
            '/' => {
                if file < 8 {
                    return Err(err(i, ParseFenErrorKind::RankTooShort));
                }
                rank -= 1;
                if rank < 0 {
                    return Err(err(i, ParseFenErrorKind::TooManyRanks));
                }
                file = 0;
                last_digit = false;
            }
            '1'..='8' => {
                if last_digit {
                    return Err(err(i, ParseFenErrorKind::BadDigit(c)));
                }
                file += c as u32 - '0' as u32;
                if file > 8 {
                    return Err(err(i, ParseFenErrorKind::RankTooLong));
                }
                last_digit = true;
            }
            '0' | '9' => return Err(err(i, ParseFenErrorKind::BadDigit(c))),
            _ => {
                let piece =
                    Piece::from_char(c).ok_or(err(i, ParseFenErrorKind::UnknownPiece(c)))?;
                let (Some(f), Some(r)) = (File::new(file), Rank::new(rank as u32)) else {
                    return Err(err(i, ParseFenErrorKind::RankTooLong));
                };
                board.set(Square::from_coords(f, r), piece);
                file += 1;
                last_digit = false;
            }
        }
    }
    if file < 8 {
        return Err(err(text.len(), ParseFenErrorKind::RankTooShort));
    }
    if rank > 0 {
        return Err(err(text.len(), ParseFenErrorKind::TooFewRanks));
    }
    Ok(board)
}

fn parse_castling(text: &str, base: usize, board: &Board) -> Result<Bitboard, ParseFenError> {
    let err = |offset: usize, kind| ParseFenError {
        field: FenField::Castling,
        offset: base + offset,
        kind,
    };
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    let mut seen = ['-'; 4];
    for (n, (i, c)) in text.char_indices().enumerate() {
        let rook = castling_square(c, board).map_err(|kind| err(i, kind))?;
        if seen.contains(&c) || rights.contains(rook) {
            return Err(err(i, ParseFenErrorKind::DuplicateCastling(c)));
        }
        match seen.get_mut(n) {
            Some(slot) => *slot = c,
            None => return Err(err(i, ParseFenErrorKind::TooManyCastlingRights)),
        }
        rights = rights.with(rook);
    }
    Ok(rights)
}

/// The rook square a castling letter stands for on `board`.
fn castling_square(c: char, board: &Board) -> Result<Square, ParseFenErrorKind> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let rank = Rank::FIRST.relative_to(color);
    match c.to_ascii_lowercase() {
        'k' => outermost_rook(board, color, CastlingSide::KingSide)
            .ok_or(ParseFenErrorKind::NoCastlingRook(c)),
        'q' => outermost_rook(board, color, CastlingSide::QueenSide)
            .ok_or(ParseFenErrorKind::NoCastlingRook(c)),
        lower => File::from_char(lower)
            .map(|file| Square::from_coords(file, rank))
            .ok_or(ParseFenErrorKind::BadCastling(c)),
    }
}

/// Where in a well-formed FEN `problem` shows: the offending character
/// when there is one, else the start of its field.
fn locate(text: &str, setup: &Setup, problem: PositionProblem) -> usize {
    // The text parsed, so fields are separated by single spaces.
    let mut starts = [0; 6];
    let mut field = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b' ' {
            field += 1;
            if let Some(start) = starts.get_mut(field) {
                *start = i + 1;
            }
        }
    }
    let field_text = |n: usize| {
        let start = starts.get(n).copied().unwrap_or(0);
        let rest = text.get(start..).unwrap_or("");
        (start, rest.split(' ').next().unwrap_or(""))
    };
    let (_, board) = field_text(0);
    match problem {
        PositionProblem::KingCount { color, count } if count >= 2 => board
            .match_indices(Role::King.of(color).char())
            .nth(1)
            .map_or(0, |(i, _)| i),
        PositionProblem::KingCount { .. } => 0,
        PositionProblem::PawnOnBackRank(sq) => square_offset(board, sq).unwrap_or(0),
        PositionProblem::OppositeCheck => starts[1],
        PositionProblem::InvalidCastlingRight(sq) | PositionProblem::SecondCastlingRight(sq) => {
            let (start, castling) = field_text(2);
            castling
                .char_indices()
                .find(|&(_, c)| castling_square(c, &setup.board) == Ok(sq))
                .map_or(start, |(i, _)| start + i)
        }
        PositionProblem::InvalidEpSquare(_) => starts[3],
    }
}

/// The offset of the piece letter for `sq` in a FEN board field.
fn square_offset(board: &str, sq: Square) -> Option<usize> {
    let mut rank = 7;
    let mut file = 0;
    for (i, c) in board.char_indices() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='8' => file += c as usize - '0' as usize,
            _ => {
                if rank == sq.rank().index() && file == sq.file().index() {
                    return Some(i);
                }
                file += 1;
            }
        }
    }
    None
}

/// The rook of `color` furthest from its king on `side`, on the back rank.
fn outermost_rook(board: &Board, color: Color, side: CastlingSide) -> Option<Square> {
    let rank = Rank::FIRST.relative_to(color);
    let king = board.king_of(color).filter(|k| k.rank() == rank)?;
    let rooks = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(rank);
    match side {
        CastlingSide::KingSide => rooks.last().filter(|r| r.file() > king.file()),
        CastlingSide::QueenSide => rooks.first().filter(|r| r.file() < king.file()),
    }
}

fn parse_counter(text: &str, base: usize, field: FenField) -> Result<u64, ParseFenError> {
    let err = |offset: usize, kind| ParseFenError {
        field,
        offset: base + offset,
        kind,
    };
    if let Some(i) = text.find(|c: char| !c.is_ascii_digit()) {
        return Err(err(i, ParseFenErrorKind::NotANumber));
    }
    // Any counter a u64 holds, so that every FEN written reads back:
    // moves count on past u32::MAX, and stop at u64::MAX.
    let n: u64 = text
        .parse()
        .map_err(|_| err(0, ParseFenErrorKind::NumberOutOfRange))?;
    if field == FenField::FullmoveNumber && n == 0 {
        return Err(err(0, ParseFenErrorKind::NumberOutOfRange));
    }
    Ok(n)
}

impl Setup {
    /// Reads a FEN (six fields, or four with the counters `0 1` implied),
    /// checking syntax only. Fields are separated by single spaces; nothing
    /// may follow the last field.
    ///
    /// Castling rights may be `KQkq` (X-FEN: the outermost rook on that
    /// side), Shredder-FEN file letters (`HAha`) or X-FEN file letters for
    /// inner rooks.
    ///
    /// # Errors
    /// [`ParseFenError`] naming the field and the byte offset.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{FenField, ParseFenErrorKind, Setup};
    /// let err = Setup::from_fen("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
    /// assert_eq!((err.field, err.offset), (FenField::Board, 13));
    /// assert_eq!(err.kind, ParseFenErrorKind::UnknownPiece('x'));
    /// ```
    pub fn from_fen(text: &str) -> Result<Setup, ParseFenError> {
        let mut cur = Cursor { text, pos: 0 };
        let (board_text, at) = cur.field(FenField::Board)?;
        let board = parse_board(board_text, at)?;

        let (turn_text, at) = cur.field(FenField::Turn)?;
        let turn = match turn_text {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(ParseFenError {
                    field: FenField::Turn,
                    offset: at,
                    kind: ParseFenErrorKind::BadTurn,
                });
            }
        };

        let (castling_text, at) = cur.field(FenField::Castling)?;
        let castling_rights = parse_castling(castling_text, at, &board)?;

        let (ep_text, at) = cur.field(FenField::EnPassant)?;
        let ep_square = match ep_text {
            "-" => None,
            _ => match Square::from_ascii(ep_text.as_bytes()) {
                Some(sq) if sq.rank() == Rank::THIRD || sq.rank() == Rank::SIXTH => Some(sq),
                _ => {
                    return Err(ParseFenError {
                        field: FenField::EnPassant,
                        offset: at,
                        kind: ParseFenErrorKind::BadEpSquare,
                    });
                }
            },
        };

        let (halfmoves, fullmoves) = if cur.at_end() {
            (0, 1)
        } else {
            let (text, at) = cur.field(FenField::HalfmoveClock)?;
            let halfmoves = parse_counter(text, at, FenField::HalfmoveClock)?;
            let (text, at) = cur.field(FenField::FullmoveNumber)?;
            (
                halfmoves,
                parse_counter(text, at, FenField::FullmoveNumber)?,
            )
        };
        if !cur.at_end() {
            return Err(ParseFenError {
                field: FenField::FullmoveNumber,
                offset: cur.pos - 1,
                kind: ParseFenErrorKind::TrailingGarbage,
            });
        }
        Ok(Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }

    /// The setup as a FEN, showing the en-passant square as stored.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        write_fen(self, &mut s).ok();
        s
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_fen(s)
    }
}

fn write_fen(setup: &Setup, f: &mut impl fmt::Write) -> fmt::Result {
    f.write_str(FenText::of(setup, true).as_str())
}

/// The first four fields of the FEN: board, turn, castling, en passant.
fn write_epd(setup: &Setup, f: &mut impl fmt::Write) -> fmt::Result {
    f.write_str(FenText::of(setup, false).as_str())
}

/// A FEN built in place and written in one piece: through the formatter,
/// each field and each counter is a call of its own, and `fen` writes a
/// FEN for every game (`fen --all` for every ply).
struct FenText {
    buf: [u8; 128],
    len: usize,
}

impl FenText {
    /// The FEN of `setup`, with the move counters or without (EPD). The
    /// longest is 123 bytes: a board of 71, two counters of 20 digits.
    fn of(setup: &Setup, counters: bool) -> FenText {
        let mut text = FenText {
            buf: [0; 128],
            len: 0,
        };
        text.len = setup.board.write_field(&mut text.buf);
        text.push(b' ');
        text.push(setup.turn.char() as u8);
        text.push(b' ');
        text.push_castling(setup);
        text.push(b' ');
        for b in setup.ep_square.map_or("-", Square::name).bytes() {
            text.push(b);
        }
        if counters {
            text.push(b' ');
            text.push_number(setup.halfmoves);
            text.push(b' ');
            text.push_number(setup.fullmoves);
        }
        text
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_number(&mut self, n: u64) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut n = n;
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[i..] {
            self.push(d);
        }
    }

    /// The castling field: `KQkq`, Shredder-FEN file letters for a rook
    /// that is not the outermost on its side (Chess960), `-` for none.
    fn push_castling(&mut self, setup: &Setup) {
        if setup.castling_rights.is_empty() {
            return self.push(b'-');
        }
        for color in Color::ALL {
            let rank = Rank::FIRST.relative_to(color);
            let king = setup.board.king_of(color);
            // From the h-file down: kingside rights first, then queenside.
            for file in File::ALL.into_iter().rev() {
                let rook = Square::from_coords(file, rank);
                if !setup.castling_rights.contains(rook) {
                    continue;
                }
                let side = king.map(|k| CastlingSide::from_files(k.file(), file));
                let letter = match side {
                    Some(side) if outermost_rook(&setup.board, color, side) == Some(rook) => {
                        match side {
                            CastlingSide::KingSide => b'k',
                            CastlingSide::QueenSide => b'q',
                        }
                    }
                    _ => file.char() as u8,
                };
                self.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
    }

    fn as_str(&self) -> &str {
        // Letters, digits, slashes and spaces: ASCII.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

impl Position {
    /// Reads a FEN and checks that it describes a legal position.
    ///
    /// # Errors
    /// [`FenError::Parse`] for bad syntax, [`FenError::Position`] with every
    /// problem of a well-formed FEN.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{EpMode, Position};
    /// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    /// let pos = Position::from_fen(fen)?;
    /// assert_eq!(pos.fen(EpMode::Always), fen);
    /// assert_eq!(pos.fen(EpMode::Legal), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// # Ok::<(), pgnkit::FenError>(())
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let setup = Setup::from_fen(text).map_err(FenError::Parse)?;
        Position::from_setup(&setup).map_err(|error| {
            let offsets = error
                .problems
                .iter()
                .map(|&p| locate(text, &setup, p))
                .collect();
            FenError::Position { error, offsets }
        })
    }

    /// The position as a FEN, with the en-passant square shown as `mode`
    /// says.
    pub fn fen(&self, mode: EpMode) -> String {
        let mut fen = String::new();
        // Writing to a string does not fail.
        let _ = self.write_fen(mode, &mut fen);
        fen
    }

    /// Writes [`fen`](Self::fen) to `out`: no allocation where `out` has
    /// room (a buffer reused for position after position).
    ///
    /// # Errors
    /// Only those of `out`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{EpMode, Position};
    /// let mut line = String::new();
    /// Position::startpos().write_fen(EpMode::Legal, &mut line)?;
    /// line.push('\n');
    /// Position::startpos().write_epd(EpMode::Legal, &mut line)?;
    /// assert_eq!(line, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
    ///                   rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    pub fn write_fen(&self, mode: EpMode, out: &mut impl fmt::Write) -> fmt::Result {
        write_fen(&self.setup_for(mode), out)
    }

    /// Writes the position as the four fields of an EPD record without
    /// operations (board, turn, castling, en passant): [`fen`](Self::fen)
    /// without the move counters.
    ///
    /// # Errors
    /// Only those of `out`.
    pub fn write_epd(&self, mode: EpMode, out: &mut impl fmt::Write) -> fmt::Result {
        write_epd(&self.setup_for(mode), out)
    }

    /// The setup as FEN shows it, the en-passant square as `mode` says.
    fn setup_for(&self, mode: EpMode) -> Setup {
        let mut setup = self.to_setup();
        if mode == EpMode::Legal {
            setup.ep_square = self.legal_ep_square();
        }
        setup
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The FEN, en-passant square after every double step.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fen(&self.to_setup(), f)
    }
}

impl fmt::Display for Setup {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fen(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_problems_belong_to_fields() {
        let cases = [
            (
                PositionProblem::KingCount {
                    color: Color::White,
                    count: 0,
                },
                FenField::Board,
            ),
            (PositionProblem::PawnOnBackRank(Square::A1), FenField::Board),
            (PositionProblem::OppositeCheck, FenField::Turn),
            (
                PositionProblem::InvalidCastlingRight(Square::H1),
                FenField::Castling,
            ),
            (
                PositionProblem::InvalidEpSquare(Square::E6),
                FenField::EnPassant,
            ),
        ];
        for (problem, field) in cases {
            assert_eq!(FenField::from(problem), field, "{problem}");
        }
    }

    #[test]
    fn castling_field_written_back() {
        // (input castling field on a board, written field)
        let cases = [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "KQkq"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "KQkq"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "kq"),
            ("1r2k1rr/8/8/8/8/8/8/RR2K2R w BHgb - 0 1", "KBgq"),
            ("4k3/8/8/8/8/8/8/R3K1RR w KG - 0 1", "KG"),
            ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "KQkq"),
        ];
        for (fen, field) in cases {
            let setup = Setup::from_fen(fen).unwrap();
            let written = setup.to_fen();
            assert_eq!(written.split(' ').nth(2), Some(field), "{fen}");
            assert_eq!(Setup::from_fen(&written).unwrap(), setup, "{fen}");
        }
    }

    #[test]
    fn display_of_errors() {
        let err = Setup::from_fen("8/8/8/8/8/8/8/8 x - - 0 1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid FEN: side-to-move field, offset 16: expected 'w' or 'b'"
        );
        assert_eq!(
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
                .parse::<Setup>()
                .map(|s| s.halfmoves),
            Ok(0)
        );
    }
}
