//! Writing a legal move in any notation, with check and mate marks
//! computed from the position.

use std::fmt;
use std::str::FromStr;

use super::token::{MoveKind, MoveToken, Notation};
use crate::{bitboard::Bitboard, moves::Move, position::Position, role::Role, square::Square};

/// How piece names are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Alphabet {
    /// `K Q R B N P`.
    English,
    /// `K D T L S B`.
    German,
    /// `♔ ♕ ♖ ♗ ♘ ♙` (the white figurines for both sides).
    Figurine,
    /// Any six ASCII letters, in the order of [`Role::ALL`] (pawn, knight,
    /// bishop, rook, queen, king: pgn-extract's `-Wsan` order), e.g.
    /// `*b"PSLTDK"`. For writing; [`Alphabet::letters`] checks them.
    Letters([u8; 6]),
}

impl Alphabet {
    /// The letter (or figurine) of `role`.
    #[inline]
    pub const fn char(self, role: Role) -> char {
        match self {
            Alphabet::English => role.upper_char(),
            Alphabet::German => role.german_char(),
            Alphabet::Figurine => role.figurine(),
            Alphabet::Letters(letters) => letters[role.index()] as char,
        }
    }

    /// The alphabet of six letters in the order of [`Role::ALL`]
    /// (`PNBRQK`), or why they cannot name pieces: each must be an ASCII
    /// upper-case letter (lower case reads as a file or a UCI promotion)
    /// and the six must differ.
    ///
    /// # Errors
    /// [`ParseLettersError`] when the text is not six distinct upper-case
    /// ASCII letters.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Alphabet, Role};
    ///
    /// let spanish = Alphabet::letters("PCARDR");
    /// assert!(spanish.is_err());
    /// let spanish = Alphabet::letters("PCATDR")?;
    /// assert_eq!(spanish.char(Role::Knight), 'C');
    /// # Ok::<_, pgnkit::ParseLettersError>(())
    /// ```
    pub fn letters(text: &str) -> Result<Alphabet, ParseLettersError> {
        let bytes = text.as_bytes();
        let letters: [u8; 6] = bytes.try_into().map_err(|_| ParseLettersError)?;
        let distinct = letters
            .iter()
            .enumerate()
            .all(|(i, b)| b.is_ascii_uppercase() && !letters[..i].contains(b));
        if distinct {
            Ok(Alphabet::Letters(letters))
        } else {
            Err(ParseLettersError)
        }
    }
}

/// Error of [`Alphabet::letters`]: not six distinct upper-case ASCII
/// letters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("piece letters must be six distinct upper-case ASCII letters in the order PNBRQK")]
pub struct ParseLettersError;

/// The forms of long algebraic notation: pgnkit's own and the four
/// pgn-extract writes (its `-W` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LongForm {
    /// `Ng1-f3 e4xd5 e7-e8=Q O-O` (pgn-extract `-Wxolalg`).
    #[default]
    Lan,
    /// No piece letters, no separator, castling as the king's move:
    /// `g1f3 e4d5 e7e8Q e1g1` (`-Wlalg`).
    Lalg,
    /// [`Lalg`](Self::Lalg) with a hyphen between the squares, captures
    /// too: `g1-f3 e4-d5 e7-e8Q e1-g1` (`-Whalg`).
    Halg,
    /// [`Lalg`](Self::Lalg) with piece letters, and `ep` after an
    /// en-passant capture: `Ng1f3 e4d5 e5d6ep e7e8Q e1g1` (`-Welalg`).
    Elalg,
    /// Piece letters, `-` or `x` between the squares, castling as the
    /// king's move: `Ng1-f3 e4xd5 e7-e8Q e1-g1` (`-Wxlalg`).
    Xlalg,
}

/// A way of writing moves: notation, alphabet and options.
///
/// The presets are [`Style::SAN`] (`Nbd7 exd6 e8=Q+ O-O-O#`), [`Style::LAN`]
/// (`Ng1-f3 e4xd5 e7-e8=Q O-O`), [`Style::UCI`] (`e1g1`, king takes rook in
/// Chess960 positions), [`Style::DE`] (`Sf3 Lb5 Dxd4 e8=D`),
/// [`Style::DE_LAN`] (`Dd1-f3 b7-b5 e4xd5 b2-b1=D`) and [`Style::FIGURINE`]
/// (`♘f3 e8=♕`); they parse from their names (`"de-lan"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Style {
    /// Short algebraic, long algebraic or UCI (which ignores the options
    /// below and writes no check marks).
    pub notation: Notation,
    /// How pieces are named.
    pub alphabet: Alphabet,
    /// Whether pawns get a letter too (`Pe4`, German `Be2-e4`).
    pub pawn_letter: bool,
    /// Whether en-passant captures get a separate ` e.p.` mark after the
    /// move (`e5xd6 e.p.`).
    pub ep_mark: bool,
    /// Whether check and mate marks (`+`, `#`) are written.
    pub check_marks: bool,
    /// The form of long algebraic notation (with [`Notation::Long`]).
    pub long_form: LongForm,
}

impl Style {
    /// Standard algebraic notation: `Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`.
    pub const SAN: Style = Style::new(Notation::San, Alphabet::English);
    /// Long algebraic notation: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`.
    pub const LAN: Style = Style::new(Notation::Long, Alphabet::English);
    /// UCI: `e2e4`, `e7e8q`, `e1g1` (`e1h1` in Chess960 positions).
    pub const UCI: Style = Style::new(Notation::Uci, Alphabet::English);
    /// SAN with German letters: `Sf3`, `Lb5`, `Dxd4`, `e8=D`.
    pub const DE: Style = Style::new(Notation::San, Alphabet::German);
    /// Long algebraic with German letters: `Dd1-f3`, `b7-b5`, `b2-b1=D`.
    pub const DE_LAN: Style = Style::new(Notation::Long, Alphabet::German);
    /// SAN with figurines: `♘f3`, `e8=♕`.
    pub const FIGURINE: Style = Style::new(Notation::San, Alphabet::Figurine);

    /// A style without pawn letters and en-passant marks.
    pub const fn new(notation: Notation, alphabet: Alphabet) -> Style {
        Style {
            notation,
            alphabet,
            pawn_letter: false,
            ep_mark: false,
            check_marks: true,
            long_form: LongForm::Lan,
        }
    }

    /// This style with check and mate marks on or off.
    #[must_use]
    pub const fn with_check_marks(mut self, on: bool) -> Style {
        self.check_marks = on;
        self
    }

    /// This style in long algebraic `form` (notation [`Notation::Long`]).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, LongForm, MoveToken, Position, Style};
    ///
    /// let pos = Position::startpos();
    /// let m = MoveToken::parse(b"Nf3")?.resolve(&pos, LetterPolicy::Auto)?.as_move().unwrap();
    /// assert_eq!(Style::LAN.with_long_form(LongForm::Halg).text(&pos, m).as_str(), "g1-f3");
    /// assert_eq!(Style::LAN.with_long_form(LongForm::Elalg).text(&pos, m).as_str(), "Ng1f3");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn with_long_form(mut self, form: LongForm) -> Style {
        self.notation = Notation::Long;
        self.long_form = form;
        self
    }

    /// This style with another alphabet.
    #[must_use]
    pub const fn with_alphabet(mut self, alphabet: Alphabet) -> Style {
        self.alphabet = alphabet;
        self
    }

    /// This style with pawn letters on or off.
    #[must_use]
    pub const fn with_pawn_letter(mut self, on: bool) -> Style {
        self.pawn_letter = on;
        self
    }

    /// This style with ` e.p.` marks on or off.
    #[must_use]
    pub const fn with_ep_mark(mut self, on: bool) -> Style {
        self.ep_mark = on;
        self
    }

    /// The text of `m`, a legal move in `pos`, in this style.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, MoveToken, Position, Style};
    ///
    /// let pos = Position::startpos();
    /// let m = MoveToken::parse(b"Nf3")?.resolve(&pos, LetterPolicy::Auto)?.as_move().unwrap();
    /// assert_eq!(Style::DE_LAN.text(&pos, m).as_str(), "Sg1-f3");
    /// assert_eq!(Style::FIGURINE.text(&pos, m).as_str(), "♘f3");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn text(self, pos: &Position, m: Move) -> MoveText {
        MoveText::of(pos, m, self, false)
    }

    /// The text of `m`, the move `token` resolved to in `pos`: [`text`](Self::text)
    /// without looking for other moves of the piece's role to its target
    /// square when the token names no origin, as the resolver accepts such
    /// a token only when the move is the one legal move of its kind.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, MoveToken, Position, Style};
    ///
    /// let pos = Position::startpos();
    /// let token = MoveToken::parse(b"Ng1f3")?;
    /// let m = token.resolve(&pos, LetterPolicy::Auto)?.as_move().unwrap();
    /// assert_eq!(Style::SAN.text_resolved(&pos, m, &token).as_str(), "Nf3");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn text_resolved(self, pos: &Position, m: Move, token: &MoveToken) -> MoveText {
        let unique = matches!(
            token.kind,
            MoveKind::Normal {
                from_file: None,
                from_rank: None,
                ..
            }
        );
        MoveText::of(pos, m, self, unique)
    }

    /// The text of `m` played from `before` to `after`: [`text`](Self::text)
    /// with the check and mate marks read from `after` ([`write_played`]).
    #[inline(always)]
    pub fn text_played(self, before: &Position, m: Move, after: &Position) -> MoveText {
        MoveText::played(before, m, after, self)
    }

    /// How this style writes a null move: `0000` in UCI, `--` otherwise.
    pub const fn null(self) -> &'static str {
        match self.notation {
            Notation::Uci => "0000",
            _ => "--",
        }
    }
}

/// Error of [`Style::from_str`]: not a style name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown move style (expected san, lan, uci, de, de-lan or figurine)")]
pub struct ParseStyleError;

impl FromStr for Style {
    type Err = ParseStyleError;

    /// Reads a preset by name: `san`, `lan`, `uci`, `de`, `de-lan`,
    /// `figurine`.
    fn from_str(s: &str) -> Result<Style, ParseStyleError> {
        Ok(match s {
            "san" => Style::SAN,
            "lan" => Style::LAN,
            "uci" => Style::UCI,
            "de" => Style::DE,
            "de-lan" => Style::DE_LAN,
            "figurine" => Style::FIGURINE,
            _ => return Err(ParseStyleError),
        })
    }
}

/// Writes `m`, a legal move in `pos`, in `style` to `out`. Check (`+`) and
/// mate (`#`) marks come from playing the move; SAN disambiguates by file if
/// that suffices, else by rank, else by both, looking only at legal moves.
///
/// # Errors
/// Only the errors of `out`.
///
/// # Examples
/// ```
/// use pgnkit::{Move, Position, Role, Square, Style, write_move};
///
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
/// let m = Move::Normal { role: Role::Knight, from: Square::B1, capture: None, to: Square::D2, promotion: None };
/// let mut s = String::new();
/// write_move(&mut s, &pos, m, Style::SAN)?;
/// assert_eq!(s, "Nbd2");
/// # Ok::<_, std::fmt::Error>(())
/// ```
pub fn write_move<W: fmt::Write>(
    out: &mut W,
    pos: &Position,
    m: Move,
    style: Style,
) -> fmt::Result {
    out.write_str(MoveText::of(pos, m, style, false).as_str())
}

/// [`write_move`] for a move already played: `after` is `before` with `m`
/// played, and gives the check and mate marks. Saves playing the move a
/// second time where the caller has played it.
///
/// # Errors
/// Only the errors of `out`.
///
/// # Examples
/// ```
/// use pgnkit::{Move, Position, Role, Square, Style, write_played};
///
/// let before = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
/// let m = Move::Normal { role: Role::Rook, from: Square::A1, capture: None, to: Square::A8, promotion: None };
/// let mut after = before;
/// after.play_unchecked(m);
/// let mut s = String::new();
/// write_played(&mut s, &before, m, &after, Style::SAN)?;
/// assert_eq!(s, "Ra8+");
/// # Ok::<_, std::fmt::Error>(())
/// ```
pub fn write_played<W: fmt::Write>(
    out: &mut W,
    before: &Position,
    m: Move,
    after: &Position,
    style: Style,
) -> fmt::Result {
    out.write_str(MoveText::played(before, m, after, style).as_str())
}

/// Whether SAN writes the origin file and rank of `m`: pawn captures the
/// file; pieces as little as tells `m` apart from the other legal moves of
/// the same role to the same square (file first, then rank, then both).
pub(super) fn disambiguation(pos: &Position, m: Move) -> (bool, bool) {
    let role = m.role();
    match role {
        Role::Pawn => return (m.is_capture(), false),
        Role::King => return (false, false),
        _ => {}
    }
    let from = m.from();
    // Most moves have no rival: no other piece of the role reaches the
    // target square even ignoring pins. The legal moves below are a subset
    // of those reaches, so the answer is the same without the move list.
    let board = pos.board();
    let ours = board.by_role(role) & board.by_color(pos.turn());
    // The pieces of the role that attack the target square (sliders by
    // the between-squares table, not the magic tables).
    let to = m.to();
    let occupied = board.occupied();
    let rivals = board.attackers_by_rays(to, pos.turn(), occupied) & ours.without(from);
    if rivals.is_empty() {
        return (false, false);
    }
    // A rival's move to the same square is legal unless it leaves the
    // king attacked (a piece on `to` is captured and attacks nothing).
    let others: Bitboard = match board.king_of(pos.turn()) {
        Some(king) => rivals
            .filter(|&rival| {
                !board.attacked_after(king, !pos.turn(), occupied.without(rival).with(to), to)
            })
            .collect(),
        None => rivals,
    };
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::from_file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::from_rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// Whether the side to move after `m`, a legal move in `pos`, has a legal
/// move: whether a check by `m` is no mate. Out of line: few moves check.
#[inline(never)]
fn after_has_legal_moves(pos: &Position, m: Move) -> bool {
    let mut after = *pos;
    after.play_unchecked(m);
    after.has_legal_moves()
}

/// A move's text held inline (no heap allocation): what [`Style::text`]
/// returns. Dereferences to `str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    buf: [u8; MoveText::CAPACITY],
    len: u8,
}

impl MoveText {
    /// The most bytes a text holds; the longest move text any style writes
    /// (figurine long algebraic, `♙e5xd6+ e.p.` or `♙b7xa8=♕#`) needs 14.
    pub const CAPACITY: usize = 31;

    /// An empty text.
    pub const fn new() -> MoveText {
        MoveText {
            buf: [0; MoveText::CAPACITY],
            len: 0,
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only whole `str`s are ever appended, so the bytes are UTF-8.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The text's bytes, without the UTF-8 check of [`as_str`](Self::as_str).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first 16 bytes of the buffer when they hold the whole text (all
    /// but the longest figurine texts): for writers that copy a fixed size
    /// and cut back, a copy no call to memcpy makes.
    #[inline]
    pub(crate) fn head(&self) -> Option<&[u8; 16]> {
        if self.len <= 16 {
            self.buf.first_chunk()
        } else {
            None
        }
    }

    /// The text of `m` played from `before` to `after` in `style`, built
    /// byte by byte: a conversion writes millions of moves, and formatting
    /// machinery would cost more than the move's replay.
    #[inline]
    fn played(before: &Position, m: Move, after: &Position, style: Style) -> MoveText {
        if style.notation == Notation::Uci {
            return Packed::uci(m, before.is_chess960()).text();
        }
        MoveText::algebraic(before, m, style, false, || {
            after.is_check().then(|| after.has_legal_moves())
        })
    }

    /// The text of `m` played in `pos` in `style`, the check and mate marks
    /// found without playing the move unless it checks
    /// ([`Position::gives_check`]). With `unique`, no other legal move of
    /// the piece's role reaches its target square.
    #[inline(always)]
    fn of(pos: &Position, m: Move, style: Style, unique: bool) -> MoveText {
        if style.notation == Notation::Uci {
            Packed::uci(m, pos.is_chess960()).text()
        } else {
            MoveText::algebraic_of(pos, m, style, unique)
        }
    }

    /// [`of`](Self::of) in SAN or long algebraic: out of line, where the
    /// UCI text is a few instructions in line.
    #[inline(never)]
    fn algebraic_of(pos: &Position, m: Move, style: Style, unique: bool) -> MoveText {
        MoveText::algebraic(pos, m, style, unique, || {
            pos.gives_check(m).then(|| after_has_legal_moves(pos, m))
        })
    }

    /// The SAN or long algebraic text of `m` with its marks; `check` says,
    /// when the style writes check marks, whether `m` checks and then
    /// whether the side in check has a legal move.
    #[inline(always)]
    fn algebraic(
        before: &Position,
        m: Move,
        style: Style,
        unique: bool,
        check: impl FnOnce() -> Option<bool>,
    ) -> MoveText {
        let mut text = Packed::algebraic(before, m, style, unique);
        if style.check_marks
            && let Some(legal_moves) = check()
        {
            text.push_check(legal_moves);
        }
        text.push_ep_mark(m, style);
        text.text()
    }
}

/// A square's name in the low two bytes of a word: file, then rank.
#[inline]
const fn square_word(sq: Square) -> u64 {
    (b'a' + sq.file().index() as u8) as u64 | ((b'1' + sq.rank().index() as u8) as u64) << 8
}

/// A move's text while it is built, in a register: each byte goes in by
/// a shift, and the text leaves in one 16-byte store. Bytes stored one by
/// one and read back as a word (by the copy of the finished text) stall
/// the load until the stores retire; this way no move pays for that.
///
/// Two words, each shifted in by single instructions: nearly every text
/// fits in the first.
#[derive(Clone, Copy)]
struct Packed {
    lo: u64,
    hi: u64,
    len: u32,
}

impl Packed {
    /// The most bytes a built text holds: the longest needs 14
    /// ([`MoveText::CAPACITY`]).
    const CAPACITY: u32 = 16;

    const fn new() -> Packed {
        Packed {
            lo: 0,
            hi: 0,
            len: 0,
        }
    }

    /// The text built.
    #[inline]
    fn text(self) -> MoveText {
        let mut buf = [0; MoveText::CAPACITY];
        let bits = u128::from(self.hi) << 64 | u128::from(self.lo);
        buf[..16].copy_from_slice(&bits.to_le_bytes());
        MoveText {
            buf,
            len: self.len as u8,
        }
    }

    /// Appends a byte; a byte past the capacity (which no move text
    /// reaches) is dropped.
    #[inline]
    fn push(&mut self, b: u8) {
        if self.len < 8 {
            self.lo |= u64::from(b) << (8 * self.len);
        } else if self.len < Packed::CAPACITY {
            self.hi |= u64::from(b) << (8 * (self.len - 8));
        } else {
            return;
        }
        self.len += 1;
    }

    /// Appends a square's name.
    #[inline]
    fn push_square(&mut self, square: Square) {
        let word = square_word(square);
        self.push(word as u8);
        self.push((word >> 8) as u8);
    }

    /// Appends a letter or figurine.
    #[inline]
    fn push_char(&mut self, c: char) {
        if c.is_ascii() {
            self.push(c as u8);
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }

    /// Appends whole characters.
    #[inline]
    fn push_str(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.push(b);
        }
    }

    /// The UCI text of `m`.
    #[inline]
    fn uci(m: Move, chess960: bool) -> Packed {
        let to = if chess960 { m.to() } else { m.king_to() };
        let squares = square_word(m.from()) | square_word(to) << 16;
        let (lo, len) = match m.promotion() {
            Some(p) => (squares | u64::from(p.char() as u8) << 32, 5),
            None => (squares, 4),
        };
        Packed { lo, hi: 0, len }
    }

    /// The SAN or long algebraic text of `m`, without the marks that
    /// follow it (check or mate, ` e.p.`).
    #[inline(always)]
    fn algebraic(before: &Position, m: Move, style: Style, unique: bool) -> Packed {
        if style.notation == Notation::San
            && style.alphabet == Alphabet::English
            && !style.pawn_letter
        {
            return Packed::san(before, m, unique);
        }
        Packed::algebraic_styled(before, m, style, unique)
    }

    /// The SAN text of `m` with English letters and without pawn letters
    /// (nearly every text written), in one word: at most `exd8=Q` or
    /// `Qh4xe1`, six bytes, before the check mark.
    #[inline(always)]
    fn san(before: &Position, m: Move, unique: bool) -> Packed {
        const LETTERS: [u8; 6] = *b"PNBRQK";
        let (role, from, to, capture, promotion) = match m {
            Move::Normal {
                role,
                from,
                to,
                capture,
                promotion,
            } => (role, from, to, capture.is_some(), promotion),
            Move::EnPassant { from, to } => (Role::Pawn, from, to, true, None),
            Move::Castle { king, rook } => {
                return if rook.file() > king.file() {
                    Packed {
                        lo: u64::from_le_bytes(*b"O-O\0\0\0\0\0"),
                        hi: 0,
                        len: 3,
                    }
                } else {
                    Packed {
                        lo: u64::from_le_bytes(*b"O-O-O\0\0\0"),
                        hi: 0,
                        len: 5,
                    }
                };
            }
        };
        let file = |sq: Square| square_word(sq) & 0xFF;
        let rank = |sq: Square| square_word(sq) >> 8;
        let (mut lo, mut len) = (0u64, 0u32);
        if role != Role::Pawn {
            lo = u64::from(LETTERS[role.index()]);
            len = 1;
            if !unique {
                let (by_file, by_rank) = disambiguation(before, m);
                if by_file {
                    lo |= file(from) << 8;
                    len += 1;
                }
                if by_rank {
                    lo |= rank(from) << (8 * len);
                    len += 1;
                }
            }
        } else if capture {
            lo = file(from);
            len = 1;
        }
        if capture {
            lo |= u64::from(b'x') << (8 * len);
            len += 1;
        }
        lo |= square_word(to) << (8 * len);
        len += 2;
        if let Some(promotion) = promotion {
            lo |= (u64::from(b'=') | u64::from(LETTERS[promotion.index()]) << 8) << (8 * len);
            len += 2;
        }
        Packed { lo, hi: 0, len }
    }

    /// [`algebraic`](Self::algebraic) in any other style, byte by byte.
    fn algebraic_styled(before: &Position, m: Move, style: Style, unique: bool) -> Packed {
        if style.long_form != LongForm::Lan && style.notation == Notation::Long {
            return Packed::long_form(m, style, before.is_chess960());
        }
        let mut text = Packed::new();
        if let Some(side) = m.castling_side() {
            text.push_str(side.san());
        } else {
            let role = m.role();
            let from = m.from();
            if role != Role::Pawn || style.pawn_letter {
                text.push_char(style.alphabet.char(role));
            }
            if style.notation == Notation::Long {
                text.push_square(from);
                text.push(if m.is_capture() { b'x' } else { b'-' });
            } else {
                let (file, rank) = if unique && role != Role::Pawn {
                    (false, false)
                } else {
                    disambiguation(before, m)
                };
                if file {
                    text.push(b'a' + from.file().index() as u8);
                }
                if rank {
                    text.push(b'1' + from.rank().index() as u8);
                }
                if m.is_capture() {
                    text.push(b'x');
                }
            }
            text.push_square(m.to());
            if let Some(promotion) = m.promotion() {
                text.push(b'=');
                text.push_char(style.alphabet.char(promotion));
            }
        }
        text
    }

    /// The check mark, or the mate mark when the side in check has no
    /// `legal_moves`.
    #[inline]
    fn push_check(&mut self, legal_moves: bool) {
        self.push(if legal_moves { b'+' } else { b'#' });
    }

    /// The ` e.p.` mark, as `style` says; pgn-extract's `elalg` has its
    /// own (`e5d6ep`) and takes no second.
    #[inline]
    fn push_ep_mark(&mut self, m: Move, style: Style) {
        if style.ep_mark && m.is_en_passant() && style.long_form != LongForm::Elalg {
            self.push_str(" e.p.");
        }
    }

    /// The text of `m` in one of pgn-extract's long algebraic forms
    /// ([`LongForm`]): castling is the king's move (in Chess960, as in
    /// UCI, onto its rook: the king's square may be its own, or one a
    /// plain king move reaches), a promotion its piece's letter without
    /// `=`.
    #[cold]
    fn long_form(m: Move, style: Style, chess960: bool) -> Packed {
        let form = style.long_form;
        let mut text = Packed::new();
        let role = m.role();
        let castle = m.castling_side().is_some();
        let letters = matches!(form, LongForm::Elalg | LongForm::Xlalg);
        if letters && !castle && (role != Role::Pawn || style.pawn_letter) {
            text.push_char(style.alphabet.char(role));
        }
        text.push_square(m.from());
        match form {
            LongForm::Halg => text.push(b'-'),
            LongForm::Xlalg => text.push(if m.is_capture() { b'x' } else { b'-' }),
            _ => {}
        }
        text.push_square(if chess960 { m.to() } else { m.king_to() });
        if let Some(promotion) = m.promotion() {
            text.push_char(style.alphabet.char(promotion));
        }
        if form == LongForm::Elalg && m.is_en_passant() {
            text.push_str("ep");
        }
        text
    }
}

impl Default for MoveText {
    fn default() -> MoveText {
        MoveText::new()
    }
}

impl fmt::Write for MoveText {
    /// Appends `s`, or fails (appending nothing) when it does not fit.
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let start = usize::from(self.len);
        let end = start + s.len();
        let slot = self.buf.get_mut(start..end).ok_or(fmt::Error)?;
        // A move's pieces are a few bytes: a loop, not a call to memcpy.
        for (to, &b) in slot.iter_mut().zip(s.as_bytes()) {
            *to = b;
        }
        self.len = u8::try_from(end).map_err(|_| fmt::Error)?;
        Ok(())
    }

    /// Appends `c`; an ASCII letter without encoding it first.
    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        if c.is_ascii() {
            let slot = self.buf.get_mut(usize::from(self.len)).ok_or(fmt::Error)?;
            *slot = c as u8;
            self.len += 1;
            Ok(())
        } else {
            self.write_str(c.encode_utf8(&mut [0; 4]))
        }
    }
}

impl std::ops::Deref for MoveText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::notation::{LetterPolicy, MoveToken};

    /// Resolves `token` in `fen` and writes it in `style`.
    fn rewrite(fen: &str, token: &str, style: Style) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let m = MoveToken::parse(token.as_bytes())
            .unwrap()
            .resolve(&pos, LetterPolicy::Auto)
            .unwrap()
            .as_move()
            .unwrap();
        style.text(&pos, m).to_string()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The German long examples, each in a position where it is legal.
    #[test]
    fn german_long() {
        let de_lan = Style::DE_LAN;
        #[rustfmt::skip]
        let cases = [
            ("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Qf3", de_lan, "Dd1-f3"),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "b5", de_lan, "b7-b5"),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "exd5", de_lan, "e4xd5"),
            ("rnbqkbnr/pp2pppp/8/8/8/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 3", "Qa5", de_lan, "Dd8-a5"),
            ("rnbqkbnr/pp2pppp/8/8/8/8/PP3PPP/RNBQKBNR b KQkq - 0 3", "Qa5", de_lan, "Dd8-a5+"),
            ("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1", "b1=Q", de_lan, "b2-b1=D+"),
            ("4k3/8/8/8/8/8/1p5K/8 b - - 0 1", "b1=Q", de_lan, "b2-b1=D"),
            (START, "e4", de_lan.with_pawn_letter(true), "Be2-e4"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", de_lan, "O-O"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", de_lan, "O-O-O"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", de_lan.with_ep_mark(true), "e5xd6 e.p."),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", Style::SAN.with_ep_mark(true), "exd6 e.p."),
        ];
        for (fen, token, style, expected) in cases {
            assert_eq!(rewrite(fen, token, style), expected, "{fen} {token}");
        }
    }

    #[test]
    fn every_style() {
        #[rustfmt::skip]
        let cases = [
            (START, "Nf3", ["Nf3", "Ng1-f3", "g1f3", "Sf3", "Sg1-f3", "♘f3"]),
            (START, "e4", ["e4", "e2-e4", "e2e4", "e4", "e2-e4", "e4"]),
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nbd2", ["Nbd2", "Nb1-d2", "b1d2", "Sbd2", "Sb1-d2", "♘bd2"]),
            ("4k3/8/8/N7/8/8/8/N3K3 w - - 0 1", "N1b3", ["N1b3", "Na1-b3", "a1b3", "S1b3", "Sa1-b3", "♘1b3"]),
            ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "Qa1c3", ["Qa1c3", "Qa1-c3", "a1c3", "Da1c3", "Da1-c3", "♕a1c3"]),
            ("3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q+", ["exd8=Q+", "e7xd8=Q+", "e7d8q", "exd8=D+", "e7xd8=D+", "exd8=♕+"]),
            ("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", "Rxa8+", ["Rxa8+", "Ra1xa8+", "a1a8", "Txa8+", "Ta1xa8+", "♖xa8+"]),
            ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", ["O-O-O", "O-O-O", "e1c1", "O-O-O", "O-O-O", "O-O-O"]),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#", ["Ra8#", "Ra1-a8#", "a1a8", "Ta8#", "Ta1-a8#", "♖a8#"]),
            // A pinned knight does not force disambiguation.
            ("4k3/8/8/8/8/8/8/1N2KN1r w - - 0 1", "Nd2", ["Nd2", "Nb1-d2", "b1d2", "Sd2", "Sb1-d2", "♘d2"]),
            // Chess960: king b1 castles with the rook on a1.
            ("1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1", "O-O-O", ["O-O-O", "O-O-O", "b1a1", "O-O-O", "O-O-O", "O-O-O"]),
        ];
        let styles = [
            Style::SAN,
            Style::LAN,
            Style::UCI,
            Style::DE,
            Style::DE_LAN,
            Style::FIGURINE,
        ];
        for (fen, token, expected) in cases {
            for (style, want) in styles.into_iter().zip(expected) {
                assert_eq!(rewrite(fen, token, style), want, "{fen} {token} {style:?}");
            }
        }
    }

    /// pgn-extract's long algebraic forms, check marks off, letters of
    /// choice: (position, move, style, text).
    #[test]
    fn forms_and_letters() {
        const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        const PROMOTE: &str = "3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1";
        const CASTLE: &str = "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1";
        const C960: &str = "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1";
        let lan = Style::LAN;
        let spanish = Alphabet::letters("PCATDR").unwrap();
        #[rustfmt::skip]
        let cases = [
            (START, "Nf3", lan.with_long_form(LongForm::Lalg), "g1f3"),
            (START, "Nf3", lan.with_long_form(LongForm::Halg), "g1-f3"),
            (START, "Nf3", lan.with_long_form(LongForm::Elalg), "Ng1f3"),
            (START, "Nf3", lan.with_long_form(LongForm::Xlalg), "Ng1-f3"),
            (EP, "exd6", lan.with_long_form(LongForm::Lalg), "e5d6"),
            (EP, "exd6", lan.with_long_form(LongForm::Halg), "e5-d6"),
            (EP, "exd6", lan.with_long_form(LongForm::Elalg), "e5d6ep"),
            (EP, "exd6", lan.with_long_form(LongForm::Elalg).with_ep_mark(true), "e5d6ep"),
            (EP, "exd6", lan.with_long_form(LongForm::Halg).with_ep_mark(true), "e5-d6 e.p."),
            (EP, "exd6", lan.with_long_form(LongForm::Xlalg), "e5xd6"),
            (PROMOTE, "exd8=Q+", lan.with_long_form(LongForm::Lalg), "e7d8Q+"),
            (PROMOTE, "exd8=Q+", lan.with_long_form(LongForm::Halg), "e7-d8Q+"),
            (PROMOTE, "exd8=Q+", lan.with_long_form(LongForm::Xlalg), "e7xd8Q+"),
            (PROMOTE, "exd8=Q+", lan.with_long_form(LongForm::Xlalg).with_check_marks(false), "e7xd8Q"),
            (CASTLE, "O-O", lan.with_long_form(LongForm::Elalg), "e1g1"),
            (CASTLE, "O-O-O", lan.with_long_form(LongForm::Xlalg), "e1-c1"),
            (CASTLE, "Rxa8+", lan.with_long_form(LongForm::Elalg), "Ra1a8+"),
            // Chess960: the king takes its rook, as in UCI.
            (C960, "O-O-O", lan.with_long_form(LongForm::Halg), "b1-a1"),
            (C960, "O-O", lan.with_long_form(LongForm::Xlalg), "b1-g1"),
            (CASTLE, "Rxa8+", Style::SAN.with_check_marks(false), "Rxa8"),
            (START, "Nf3", Style::SAN.with_alphabet(spanish), "Cf3"),
            (START, "e4", Style::SAN.with_alphabet(spanish).with_pawn_letter(true), "Pe4"),
            (PROMOTE, "exd8=Q+", Style::SAN.with_alphabet(spanish), "exd8=D+"),
            (CASTLE, "Kf1", Style::LAN.with_alphabet(spanish), "Re1-f1"),
        ];
        for (fen, token, style, expected) in cases {
            assert_eq!(
                rewrite(fen, token, style),
                expected,
                "{fen} {token} {style:?}"
            );
        }
        for bad in ["PNBRQ", "PNBRQKX", "pnbrqk", "PNBRQQ", "PNBRQ\u{c4}"] {
            assert_eq!(Alphabet::letters(bad), Err(ParseLettersError), "{bad}");
        }
    }

    #[test]
    fn names_and_text() {
        for (name, style) in [
            ("san", Style::SAN),
            ("lan", Style::LAN),
            ("uci", Style::UCI),
            ("de", Style::DE),
            ("de-lan", Style::DE_LAN),
            ("figurine", Style::FIGURINE),
        ] {
            assert_eq!(name.parse::<Style>(), Ok(style));
        }
        assert_eq!("SAN".parse::<Style>(), Err(ParseStyleError));
        let mut text = MoveText::new();
        assert!(text.write_str(&"x".repeat(MoveText::CAPACITY + 1)).is_err());
        assert_eq!(text.as_str(), "");
        assert!(text.write_str("♘f3").is_ok());
        assert_eq!(&*text, "♘f3");
        assert_eq!(Style::UCI.null(), "0000");
        assert_eq!(Style::DE.null(), "--");
    }
}
