//! The PGN grammar: one small nom production per token, and a tokenizer
//! ([`Tokens`]) that dispatches on the first byte of each token.
//!
//! Productions take the remaining input and return it with what they read,
//! borrowing from the game's bytes. The tokenizer turns a game's text into a
//! flat stream of [`Token`]s with spans; [`parse_game`](crate::pgn::parse_game)
//! builds the game tree from it, and
//! [`visit_mainline`](crate::pgn::visit_mainline) skips variations quickly.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{digit1, multispace0},
    combinator::{peek, value},
    multi::many0_count,
};

use crate::notation::{LetterPolicy, Letters, MoveToken, Suffix, read_ep_mark};
use crate::pgn::error::ParsePgnErrorKind;
use crate::pgn::raw::{Comments, RawGame, TAG_ENTRY, unpack_tag_stops};
use crate::pgn::scan;
use crate::pgn::span::Span;
use crate::role::Role;

/// A game termination marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` (also read from `½-½` and `1/2`).
    Draw,
    /// `*`: unknown, ongoing or abandoned.
    Unknown,
}

impl Outcome {
    /// The marker in export format (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Reads a `Result` tag's value as written in the tag pair: a
    /// termination marker in any spelling [`game_termination`] reads,
    /// with blank space around it.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::Outcome;
    ///
    /// assert_eq!(Outcome::from_tag(b"1-0"), Some(Outcome::WhiteWins));
    /// assert_eq!(Outcome::from_tag(b"1/2"), Some(Outcome::Draw));
    /// assert_eq!(Outcome::from_tag(b"1-0 (time)"), None);
    /// ```
    pub fn from_tag(value: &[u8]) -> Option<Outcome> {
        // Export format's values first: a tag on every game.
        match value.trim_ascii() {
            b"1-0" => Some(Outcome::WhiteWins),
            b"0-1" => Some(Outcome::BlackWins),
            b"1/2-1/2" => Some(Outcome::Draw),
            b"*" => Some(Outcome::Unknown),
            other => match game_termination(other) {
                Ok((&[], outcome)) => Some(outcome),
                _ => None,
            },
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// A tag pair: raw name and value (escapes unresolved).
    Tag {
        /// The tag name.
        name: &'a [u8],
        /// The value between the quotes.
        value: &'a [u8],
    },
    /// A move number indication (`12.`, `12...`, `12…`, `12`).
    MoveNumber(u32),
    /// A token in move position, as written, without move-quality glyphs.
    /// Whether it is a move is decided by
    /// [`MoveToken::parse`](crate::notation::MoveToken::parse).
    Move(&'a [u8]),
    /// A separate en-passant mark (`e.p.`, `ep`) after a move, with the
    /// check or mate sign written after it (`e.p.+`), if any.
    EpMark(Option<Suffix>),
    /// A numeric annotation glyph: `$n`, or `!` `?` `!!` `??` `!?` `?!`
    /// (NAGs 1–6).
    Nag(u8),
    /// A `{…}` comment (the text between the braces).
    Comment(&'a [u8]),
    /// A `;` comment (the text after `;` up to the line end).
    LineComment(&'a [u8]),
    /// `(`: a variation begins.
    StartVariation,
    /// `)`: a variation ends.
    EndVariation,
    /// `(=)`: a draw offer.
    DrawOffer,
    /// A game termination marker.
    Result(Outcome),
    /// Bytes that form no valid token; they are reported, never dropped.
    Error(ParsePgnErrorKind),
}

/// The alphabet a game's piece letters are read in with `--lang auto`:
/// the one the game's letters show, `B` a bishop in English and a pawn
/// (Bauer) in German.
///
/// A token with letters only one alphabet has (`N R Q P`, `S L T D`)
/// settles it ([`LetterPolicy::settle`]). A token whose letters both
/// have (`B`, `K`) before any such token is read in the alphabet of the
/// game's next one, found by reading on: `1. Be4 Be5 2. Bc4 Sc6` is
/// German, `2. Bc4` a pawn's move. Reading on happens once a game at
/// most, and English games nearly always show `N`, `R` or `Q` first.
///
/// A game that shows neither alphabet lets the board decide each `B`:
/// the bishop where a bishop move fits. A `B` that only a pawn's move
/// fits is German's Bauer, and so is every later one
/// ([`played`](Self::played)): `1. Bb3 Bb6 2. Ba3` is `1. b3 b6 2. a3`,
/// not `2. Bc1-a3`. From the standard position a German game's first
/// `B` is always such a move, since no bishop can move before a pawn.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{GameLetters, Span};
/// use pgnkit::{LetterPolicy, MoveToken};
/// let text = b"1. Be4 Be5 2. Bc4 Sc6 *";
/// let mut letters = GameLetters::default();
/// let token = MoveToken::parse(b"Be4").unwrap();
/// assert_eq!(letters.read(&token, text, Span::new(3, 6)), LetterPolicy::German);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct GameLetters {
    alphabet: LetterPolicy,
    read_on: bool,
}

impl GameLetters {
    /// The alphabet to read `token`, written at `span` in the game's text
    /// `source`, in.
    #[inline]
    pub fn read(&mut self, token: &MoveToken, source: &[u8], span: Span) -> LetterPolicy {
        self.alphabet = self.alphabet.settle(token.letters);
        if self.alphabet == LetterPolicy::Auto {
            return self.undecided(token, source, span);
        }
        self.alphabet
    }

    /// Notes the role of the move the board found for `token`, read in
    /// the alphabet [`read`](Self::read) gave: when that was none, a `B`
    /// found to be a pawn settles the game's alphabet as German.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{GameLetters, Span};
    /// use pgnkit::{LetterPolicy, MoveToken, Role};
    /// let text = b"1. Bb3 Bb6 2. Ba3 *";
    /// let mut letters = GameLetters::default();
    /// let first = MoveToken::parse(b"Bb3").unwrap();
    /// assert_eq!(letters.read(&first, text, Span::new(3, 6)), LetterPolicy::Auto);
    /// letters.played(&first, Role::Pawn);
    /// let third = MoveToken::parse(b"Ba3").unwrap();
    /// assert_eq!(letters.read(&third, text, Span::new(14, 17)), LetterPolicy::German);
    /// ```
    #[inline]
    pub fn played(&mut self, token: &MoveToken, role: Role) {
        if self.alphabet == LetterPolicy::Auto
            && token.letters == Letters::Either
            && role == Role::Pawn
        {
            self.alphabet = LetterPolicy::German;
        }
    }

    /// [`read`](Self::read) before the game's letters have shown their
    /// alphabet: out of line, so that the replay's loop, where English
    /// games are settled from their first knight, stays as it was.
    #[cold]
    #[inline(never)]
    fn undecided(&mut self, token: &MoveToken, source: &[u8], span: Span) -> LetterPolicy {
        if token.letters == Letters::Either && !self.read_on {
            self.read_on = true;
            self.alphabet = letters_after(source, span.end);
        }
        self.alphabet
    }
}

/// The alphabet of the first move token in `source` from `pos` on whose
/// letters only one alphabet has; `Auto` when none has.
fn letters_after(source: &[u8], pos: usize) -> LetterPolicy {
    let mut tokens = Tokens::movetext_at(source, pos);
    while let Some(token) = tokens.next_significant() {
        if let TokenKind::Move(text) = token.kind
            && let Ok(token) = MoveToken::parse(text)
        {
            let settled = LetterPolicy::Auto.settle(token.letters);
            if settled != LetterPolicy::Auto {
                return settled;
            }
        }
    }
    LetterPolicy::Auto
}

/// One token and where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What was read.
    pub kind: TokenKind<'a>,
    /// Where, relative to the game's text.
    pub span: Span,
}

/// How many comments ahead of the one being passed the tokenizer asks for
/// the text after a comment ([`Tokens::comment_close`]): far enough for the
/// line to arrive, near enough to stay in the cache. 3, 4 and 7 measured the
/// same; see docs/pgn-reader.md.
const PREFETCH_AHEAD: usize = 4;

/// Byte classes for the hot loops: whitespace, delimiters, digits.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
const DIGIT: u8 = 4;
const TAG_NAME: u8 = 8;
const STRING_STOP: u8 = 16;

static CLASS: [u8; 256] = class_table();

/// [`CLASS`] with the delimiter bit also on `EF`, the first byte of a
/// byte-order mark, which ends a move token when the whole mark follows
/// ([`symbol_len`]).
static SYMBOL_END: [u8; 256] = {
    let mut table = class_table();
    table[0xEF] |= DELIMITER;
    table
};

const fn class_table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if is_space(byte) {
            table[b] |= SPACE;
        }
        if is_delimiter_slow(byte) {
            table[b] |= DELIMITER;
        }
        if byte.is_ascii_digit() {
            table[b] |= DIGIT;
        }
        if is_tag_name_byte(byte) {
            table[b] |= TAG_NAME;
        }
        if matches!(byte, b'"' | b'\\' | b'\n' | b'\r') {
            table[b] |= STRING_STOP;
        }
        b += 1;
    }
    table
}

/// Whether `b` ends a move token.
#[inline]
pub(crate) fn is_delimiter(b: u8) -> bool {
    CLASS[usize::from(b)] & DELIMITER != 0
}

/// A separate en-passant mark and its check sign (`e.p.`, `ep+`, see
/// [`read_ep_mark`]), told from a move by its length and first byte before
/// it is read.
#[inline(always)]
fn ep_mark_token(text: &[u8]) -> Option<Option<Suffix>> {
    if text.len() <= 5 && text.first() == Some(&b'e') {
        read_ep_mark(text)
    } else {
        None
    }
}

/// The length of the move token at the start of `input`: up to the first
/// delimiter or byte-order mark (white space, as between tokens), at least
/// one byte.
#[inline(always)]
fn symbol_len(input: &[u8]) -> usize {
    let len = symbol_stop(input);
    if input.get(len) == Some(&0xEF) {
        return symbol_len_past_ef(input, len);
    }
    len
}

/// [`symbol_len`] on from an `EF` at `len`: the token ends there if a
/// byte-order mark starts there, else it goes on (`EF` leads other
/// characters too).
#[cold]
#[inline(never)]
fn symbol_len_past_ef(input: &[u8], mut len: usize) -> usize {
    while input.get(len) == Some(&0xEF) && !input[len..].starts_with(BOM) {
        len += 1;
        len += input[len..]
            .iter()
            .position(|&b| SYMBOL_END[usize::from(b)] & DELIMITER != 0)
            .unwrap_or(input.len() - len);
    }
    len
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Up to the first delimiter or `EF`, at least one byte.
#[inline(always)]
fn symbol_stop(input: &[u8]) -> usize {
    // Move tokens are 2 to 7 bytes, most of them 2 to 4: look at bytes 1
    // to 4 at once, without a branch per byte, then at 5 to 7. The first
    // byte is part of the token whatever it is.
    if let Some(head) = input.first_chunk::<8>() {
        // Bit i is set if byte i is a delimiter (`DELIMITER` is bit 1);
        // bit 8 stands for the byte after the eight.
        let bit = |i: usize| u32::from(SYMBOL_END[usize::from(head[i])] & DELIMITER) << (i - 1);
        let mask = bit(1) | bit(2) | bit(3) | bit(4);
        if mask != 0 {
            return mask.trailing_zeros() as usize;
        }
        let len = (bit(5) | bit(6) | bit(7) | 1 << 8).trailing_zeros() as usize;
        if len < 8 {
            return len;
        }
    }
    input
        .iter()
        .position(|&b| SYMBOL_END[usize::from(b)] & DELIMITER != 0)
        .unwrap_or(input.len())
        .max(1)
}

const fn is_delimiter_slow(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | 0x0b
            | 0x0c
            | 0x1a
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'['
            | b']'
            | b';'
            | b'$'
            | b'"'
            | b'!'
            | b'?'
            | b'%'
    )
}

#[inline]
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1a)
}

/// Characters of a tag name: letters, digits and `_ + # = : -`.
#[inline]
const fn is_tag_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

/// `tag-name`: letters, digits and `_ + # = : -`.
pub fn tag_name(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| CLASS[usize::from(b)] & TAG_NAME != 0).parse(input)
}

/// `string`: `"…"` with `\"` and `\\` escapes, on one line; returns the raw
/// bytes between the quotes.
pub fn string(input: &[u8]) -> IResult<&[u8], &[u8]> {
    let (rest, _) = tag(&b"\""[..]).parse(input)?;
    let mut i = 0;
    while let Some(found) = rest[i..]
        .iter()
        .position(|&b| CLASS[usize::from(b)] & STRING_STOP != 0)
    {
        let at = i + found;
        match rest[at] {
            b'"' => return Ok((&rest[at + 1..], &rest[..at])),
            b'\\' if matches!(rest.get(at + 1), Some(b'"' | b'\\')) => i = at + 2,
            b'\\' => i = at + 1,
            _ => break,
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        input,
        nom::error::ErrorKind::Char,
    )))
}

/// `tag-pair`: `[ name "value" ]` with optional spaces.
pub fn tag_pair(input: &[u8]) -> IResult<&[u8], (&[u8], &[u8])> {
    let (input, _) = tag(&b"["[..]).parse(input)?;
    let (input, _) = take_while(|b| b == b' ' || b == b'\t').parse(input)?;
    let (input, name) = tag_name(input)?;
    let (input, _) = take_while(|b| b == b' ' || b == b'\t').parse(input)?;
    let (input, value) = string(input)?;
    let (input, _) = take_while(|b| b == b' ' || b == b'\t').parse(input)?;
    let (input, _) = tag(&b"]"[..]).parse(input)?;
    Ok((input, (name, value)))
}

/// [`tag_pair`] written out by hand for the common shape `[Name "value"]`
/// (no escapes, spaces or tabs only where `tag_pair` allows them): the
/// length read, name and value. `None` means "not the common shape", never
/// "not a tag pair": the caller then asks `tag_pair`, the grammar of record.
#[inline]
fn plain_tag_pair(input: &[u8]) -> Option<(usize, &[u8], &[u8])> {
    if input.first() != Some(&b'[') {
        return None;
    }
    plain_tag_with_stops(input, scan::tag_stops(input)?)
}

/// [`plain_tag_pair`] with the stops of [`scan::tag_stops`] already found
/// (by the framer). Stops that do not stand on a `"`, `"` and `]` in order
/// (another text's) give `None`.
#[inline]
fn plain_tag_with_stops(
    input: &[u8],
    [open, close, end]: [usize; 3],
) -> Option<(usize, &[u8], &[u8])> {
    if !(0 < open && open < close && close < end)
        || input.get(end) != Some(&b']')
        || input[open] != b'"'
        || input[close] != b'"'
    {
        return None;
    }
    let is_blank = |b: &u8| matches!(b, b' ' | b'\t');
    let is_name = |name: &[u8]| name.iter().all(|&b| CLASS[usize::from(b)] & TAG_NAME != 0);
    let name = match &input[1..open] {
        // The common spelling: the name, one space.
        [name @ .., b' '] if !name.is_empty() && is_name(name) => name,
        head => {
            let first = head.iter().position(|b| !is_blank(b))?;
            let last = head.iter().rposition(|b| !is_blank(b))?;
            let name = &head[first..=last];
            if !is_name(name) {
                return None;
            }
            name
        }
    };
    if !input[close + 1..end].iter().all(is_blank) {
        return None;
    }
    Some((end + 1, name, &input[open + 1..close]))
}

/// `nag`: `$` and a number 0–255.
pub fn nag(input: &[u8]) -> IResult<&[u8], Option<u8>> {
    let (rest, digits) = (tag(&b"$"[..]), digit1)
        .parse(input)
        .map(|(r, (_, d))| (r, d))?;
    let n = std::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse::<u8>().ok());
    Ok((rest, n))
}

/// `glyph`: a move-quality suffix, as its NAG (`!` 1, `?` 2, `!!` 3, `??` 4,
/// `!?` 5, `?!` 6).
pub fn glyph(input: &[u8]) -> IResult<&[u8], u8> {
    alt((
        value(3, tag(&b"!!"[..])),
        value(4, tag(&b"??"[..])),
        value(5, tag(&b"!?"[..])),
        value(6, tag(&b"?!"[..])),
        value(1, tag(&b"!"[..])),
        value(2, tag(&b"?"[..])),
    ))
    .parse(input)
}

/// `ellipsis`: `.` or the UTF-8 `…`.
fn ellipsis(input: &[u8]) -> IResult<&[u8], ()> {
    value((), alt((tag(&b"."[..]), tag("\u{2026}".as_bytes())))).parse(input)
}

/// `move-number-indication`: digits followed by periods (or `…`), or by a
/// delimiter.
pub fn move_number(input: &[u8]) -> IResult<&[u8], u32> {
    let (rest, digits) = digit1(input)?;
    let (rest, dots) = many0_count(ellipsis).parse(rest)?;
    if dots == 0 {
        peek_delimiter(rest)?;
    }
    let n = digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    });
    Ok((rest, n))
}

/// Succeeds at the end of input or before a delimiter or a byte-order
/// mark (white space, which ends a move token too: [`symbol_len`]).
fn peek_delimiter(input: &[u8]) -> IResult<&[u8], ()> {
    match input.first() {
        None => Ok((input, ())),
        Some(&b) if is_delimiter(b) || input.starts_with(BOM) => Ok((input, ())),
        Some(_) => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// `game-termination`: `1-0`, `0-1`, `1/2-1/2`, `*`, and the spellings
/// `½-½` (UTF-8 or Windows-1252) and `1/2`; it must end at a delimiter.
pub fn game_termination(input: &[u8]) -> IResult<&[u8], Outcome> {
    let (rest, outcome) = alt((
        value(Outcome::WhiteWins, tag(&b"1-0"[..])),
        value(Outcome::BlackWins, tag(&b"0-1"[..])),
        value(Outcome::Draw, tag(&b"1/2-1/2"[..])),
        value(Outcome::Draw, tag("\u{bd}-\u{bd}".as_bytes())),
        value(Outcome::Draw, tag(&b"\xbd-\xbd"[..])),
        value(Outcome::Draw, tag(&b"1/2"[..])),
        value(Outcome::Unknown, tag(&b"*"[..])),
    ))
    .parse(input)?;
    let (rest, ()) = peek(peek_delimiter).parse(rest)?;
    Ok((rest, outcome))
}

/// `symbol`: a move token up to the next delimiter or byte-order mark.
pub fn symbol(input: &[u8]) -> IResult<&[u8], &[u8]> {
    match input.first() {
        Some(&b) if !is_delimiter(b) && !input.starts_with(BOM) => {
            let len = symbol_len(input);
            Ok((&input[len..], &input[..len]))
        }
        _ => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::TakeWhile1,
        ))),
    }
}

/// `brace-comment`: `{…}`; `Err` carries the unterminated text.
fn brace_comment(input: &[u8]) -> (usize, Result<&[u8], &[u8]>) {
    let body = input.get(1..).unwrap_or_default();
    match memchr::memchr(b'}', body) {
        Some(i) => (i + 2, Ok(&body[..i])),
        None => (input.len(), Err(body)),
    }
}

/// `rest-of-line`: up to (not including) the line end.
fn rest_of_line(input: &[u8]) -> &[u8] {
    let end = memchr::memchr2(b'\n', b'\r', input).unwrap_or(input.len());
    &input[..end]
}

/// The common move number `12.` or `12...` (no `…`), without nom: its
/// length and value.
#[inline]
fn plain_move_number(input: &[u8]) -> Option<(usize, u32)> {
    let digits = input
        .iter()
        .position(|&b| CLASS[usize::from(b)] & DIGIT == 0)
        .unwrap_or(input.len());
    if digits > 9 || input.get(digits) != Some(&b'.') {
        return None;
    }
    let dots = input[digits..]
        .iter()
        .position(|&b| b != b'.')
        .unwrap_or(input.len() - digits);
    if input.get(digits + dots) == Some(&0xE2) {
        return None;
    }
    let n = input[..digits]
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    Some((digits + dots, n))
}

/// The extent of a tag line's `[…]`: up to the first `]` outside a quoted
/// value, or the line end (the framer's rule); and whether that line end
/// is inside the value.
fn tag_extent(input: &[u8]) -> (usize, bool) {
    let mut in_string = false;
    let mut i = 1;
    while let Some(&b) = input.get(i) {
        match b {
            b'\n' | b'\r' => return (i, in_string),
            b'\\' if in_string => {
                if matches!(input.get(i + 1), Some(b'"' | b'\\')) {
                    i += 1;
                }
            }
            b'"' => in_string = !in_string,
            b']' if !in_string => return (i + 1, false),
            _ => {}
        }
        i += 1;
    }
    (input.len(), false)
}

/// How many bytes of the line after a line end inside a tag's value are
/// read to tell whether it closes the value ([`tag_value_close`]): a
/// framer over a stream reads no line twice for more than this.
const TAG_CLOSE_PROBE: usize = 256;

/// Whether `line`, the line after a line end inside a tag's quoted value,
/// closes that value and its tag pair: the value's closing `"` (`\"` and
/// `\\` are escapes) before another line end and within the first
/// [`TAG_CLOSE_PROBE`] bytes, then spaces or tabs and the `]`. If so, the
/// length up to that `]` (included); `None` when `line` ends before that
/// is decided and more input may come (not `complete`).
pub(crate) fn tag_value_close(line: &[u8], complete: bool) -> Option<Option<usize>> {
    let probe = &line[..line.len().min(TAG_CLOSE_PROBE)];
    // Decided when nothing more can come within the probe.
    let decided = complete || line.len() > TAG_CLOSE_PROBE;
    let mut i = 0;
    while let Some(&b) = probe.get(i) {
        match b {
            b'\n' | b'\r' => return Some(None),
            b'\\' if matches!(probe.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            b'"' => {
                let after = &probe[i + 1..];
                let blanks = after
                    .iter()
                    .take_while(|&&b| b == b' ' || b == b'\t')
                    .count();
                return match after.get(blanks) {
                    Some(b']') => Some(Some(i + blanks + 2)),
                    Some(_) => Some(None),
                    None => decided.then_some(None),
                };
            }
            _ => i += 1,
        }
    }
    decided.then_some(None)
}

/// After a tag line that ends inside its value, at `rest` (its line end):
/// the length up to the `]` of the next line, when that line closes the
/// value and its tag pair ([`tag_value_close`]).
#[cold]
#[inline(never)]
fn value_closed_on_next_line(rest: &[u8]) -> Option<usize> {
    let next = if rest.starts_with(b"\r\n") { 2 } else { 1 };
    let len = tag_value_close(rest.get(next..)?, true)??;
    Some(next + len)
}

/// A tag whose value holds unescaped quotes (`[White ""Socrates""]`): the
/// value runs from the first `"` to the last `"` before the `]`.
pub(super) fn lenient_tag_pair(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let (rest, _) = (
        tag::<_, _, nom::error::Error<&[u8]>>(&b"["[..]),
        multispace0,
    )
        .parse(text)
        .ok()?;
    let (rest, name) = tag_name(rest).ok()?;
    let body = rest.strip_suffix(b"]")?;
    let first = memchr::memchr(b'"', body)?;
    let last = memchr::memrchr(b'"', body)?;
    let ok = last > first
        && body[..first].iter().all(|&b| b == b' ' || b == b'\t')
        && body[last + 1..].iter().all(|&b| b == b' ' || b == b'\t');
    ok.then(|| (name, &body[first + 1..last]))
}

/// The tokenizer over one game's text.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{Outcome, TokenKind, Tokens};
/// let kinds: Vec<_> = Tokens::new(b"1.e4!? *").map(|t| t.kind).collect();
/// assert_eq!(
///     kinds,
///     [
///         TokenKind::MoveNumber(1),
///         TokenKind::Move(b"e4"),
///         TokenKind::Nag(5),
///         TokenKind::Result(Outcome::Unknown),
///     ]
/// );
/// ```
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    source: &'a [u8],
    pos: usize,
    in_tags: bool,
    pending: Option<Token<'a>>,
    /// The comments the framer found and the tokenizer has not reached.
    comments: &'a [[u32; 2]],
}

impl<'a> Tokens<'a> {
    /// A tokenizer at the start of a game's text.
    pub fn new(source: &'a [u8]) -> Tokens<'a> {
        Tokens {
            source,
            pos: 0,
            in_tags: true,
            pending: None,
            comments: &[],
        }
    }

    /// A tokenizer in a game's movetext at byte `pos` (comments found by
    /// searching, not from the framer's index).
    pub(crate) fn movetext_at(source: &'a [u8], pos: usize) -> Tokens<'a> {
        Tokens {
            pos: pos.min(source.len()),
            in_tags: false,
            ..Tokens::new(source)
        }
    }

    /// A tokenizer over a framed game, which passes over the comments the
    /// framer found without searching for their ends again.
    pub fn for_game(game: &RawGame<'a>) -> Tokens<'a> {
        Tokens::with_comments(game.bytes, game.comments)
    }

    /// A tokenizer over a game's text with the framer's index of its
    /// comments (see [`for_game`](Self::for_game)). The index must be the
    /// one framed with this text: another game's sends the tokenizer to
    /// the wrong `}` (never out of the text).
    pub fn with_comments(source: &'a [u8], comments: Comments<'a>) -> Tokens<'a> {
        Tokens {
            comments: comments.spans(),
            ..Tokens::new(source)
        }
    }

    /// [`plain_tag_pair`] of the text at `pos`, with the stops from the
    /// framer's index when it holds that tag pair.
    #[inline(always)]
    fn plain_tag_at(&mut self, pos: usize) -> Option<(usize, &'a [u8], &'a [u8])> {
        let input = &self.source[pos..];
        while let Some((&[at, stops], rest)) = self.comments.split_first() {
            if at & TAG_ENTRY == 0 {
                // Comments: the tag pairs are behind.
                break;
            }
            let at = (at & !TAG_ENTRY) as usize;
            if at > pos {
                break;
            }
            self.comments = rest;
            if at == pos {
                return plain_tag_with_stops(input, unpack_tag_stops(stops));
            }
        }
        plain_tag_pair(input)
    }

    /// [`Tokens::comment_close`] when the index's next entry is the
    /// comment at `open` (nearly always, in movetext), in line; the
    /// general lookup otherwise.
    #[inline(always)]
    fn next_comment_close(&mut self, open: usize) -> Option<usize> {
        if let Some((&[o, c], rest)) = self.comments.split_first()
            && o as usize == open
        {
            self.comments = rest;
            if let Some(close) = self.indexed_close(o as usize, c as usize) {
                return Some(close);
            }
        }
        self.comment_close(open)
    }

    /// The `}` of the index entry just taken, `[open, close]`, when it
    /// holds one in the text, and a prefetch of the text after the comment
    /// [`PREFETCH_AHEAD`] entries on: with more than one worker, the game
    /// text was last touched by the framer on another core, and each move
    /// between long comments would be a cache miss.
    #[inline(always)]
    fn indexed_close(&self, open: usize, close: usize) -> Option<usize> {
        if close <= open || close >= self.source.len() {
            return None;
        }
        if let Some(&[_, ahead]) = self.comments.get(PREFETCH_AHEAD) {
            scan::prefetch(self.source, ahead as usize + 1);
        }
        Some(close)
    }

    /// The `}` of the comment whose `{` is at `open`: from the framer's
    /// index when it holds that comment, else by searching.
    #[inline(never)]
    fn comment_close(&mut self, open: usize) -> Option<usize> {
        while let Some((&[o, c], rest)) = self.comments.split_first() {
            if o & TAG_ENTRY != 0 {
                // A tag pair the tag reader passed by.
                self.comments = rest;
                continue;
            }
            let o = o as usize;
            if o > open {
                break;
            }
            self.comments = rest;
            if o == open
                && let Some(close) = self.indexed_close(o, c as usize)
            {
                return Some(close);
            }
        }
        memchr::memchr(b'}', &self.source[open + 1..]).map(|i| open + 1 + i)
    }

    /// The current byte offset.
    pub fn position(&self) -> usize {
        self.pos
    }

    #[inline]
    fn token(&self, kind: TokenKind<'a>, start: usize) -> Token<'a> {
        Token {
            kind,
            span: Span::new(start, self.pos),
        }
    }

    /// Skips the rest of the current variation, just after a
    /// [`TokenKind::StartVariation`]: everything up to and including the
    /// matching `)`, without tokenizing. Returns `false` if the text ends
    /// before the variation is closed.
    ///
    /// Parentheses count only where the tokenizer would read them: not in
    /// comments, `%` escape lines, or the extent of a `[…]` (which runs to
    /// its `]` or the line end).
    pub fn skip_variation(&mut self) -> bool {
        let mut depth = 1usize;
        let src = self.source;
        while let Some(i) = src[self.pos..]
            .iter()
            .position(|&b| matches!(b, b'(' | b')' | b'{' | b';' | b'[' | b'%'))
        {
            self.pos += i;
            match src[self.pos] {
                b'(' => {
                    depth += 1;
                    self.pos += 1;
                }
                b')' => {
                    depth -= 1;
                    self.pos += 1;
                    if depth == 0 {
                        return true;
                    }
                }
                b'{' => match self.comment_close(self.pos) {
                    Some(close) => self.pos = close + 1,
                    None => break,
                },
                b'[' => self.pos += tag_extent(&src[self.pos..]).0,
                b'%' if self.pos > 0 && !matches!(src[self.pos - 1], b'\n' | b'\r') => {
                    self.pos += 1;
                }
                _ => self.pos += rest_of_line(&src[self.pos..]).len(),
            }
        }
        self.pos = src.len();
        false
    }

    /// The next tag pair, when it is in the tag section and has the common
    /// shape `[Name "value"]`: its name, value and span, as
    /// [`next`](Iterator::next) would give them in a [`TokenKind::Tag`].
    /// `None` leaves the rest (after whitespace) to `next`.
    #[inline]
    pub(crate) fn next_plain_tag(&mut self) -> Option<(&'a [u8], &'a [u8], Span)> {
        if !self.in_tags || self.pending.is_some() {
            return None;
        }
        let src = self.source;
        let pos = self.pass_whitespace();
        if src.get(pos) != Some(&b'[') {
            return None;
        }
        let (len, name, value) = self.plain_tag_at(pos)?;
        self.pos = pos + len;
        Some((name, value, Span::new(pos, pos + len)))
    }

    /// The fast path's step: like [`next`](Iterator::next), but passes over
    /// whitespace, plain move numbers and complete comments without
    /// producing tokens.
    #[inline(always)]
    pub(crate) fn next_significant(&mut self) -> Option<Token<'a>> {
        self.next_fast::<false>()
    }

    /// [`next_significant`](Self::next_significant), but plain move numbers
    /// come out as tokens (for the move-number lint).
    #[inline(always)]
    pub(crate) fn next_significant_with_numbers(&mut self) -> Option<Token<'a>> {
        self.next_fast::<true>()
    }

    #[inline(always)]
    fn next_fast<const NUMBERS: bool>(&mut self) -> Option<Token<'a>> {
        if self.pending.is_some() {
            return self.next();
        }
        let src = self.source;
        loop {
            let pos = self.pass_whitespace();
            let &b = src.get(pos)?;
            match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.in_tags = false;
                    return Some(self.symbol_token(pos));
                }
                b'0'..=b'9' => match plain_move_number(&src[pos..]) {
                    Some((len, n)) => {
                        self.in_tags = false;
                        self.pos = pos + len;
                        if NUMBERS {
                            return Some(self.token(TokenKind::MoveNumber(n), pos));
                        }
                    }
                    None => return self.next(),
                },
                b'{' => match self.comment_close(pos) {
                    Some(close) => {
                        self.in_tags = false;
                        self.pos = close + 1;
                    }
                    None => return self.next(),
                },
                _ => return self.next(),
            }
        }
    }

    /// The next move's text and span, when the next token (past whitespace,
    /// unless `comments` indexed comments, and unless `numbers` plain move
    /// numbers) is a symbol in move position; `None`, having consumed only
    /// those, when it is anything else (an en-passant mark too), for
    /// [`next_significant`](Self::next_significant) (or, with `comments`,
    /// [`next`](Iterator::next)) to read. The movetext reader's way
    /// through a line: no [`Token`] per move.
    ///
    /// Its walk is `next_fast`'s, written twice on purpose: one walk shared
    /// by both (returning what stands next) cost 1-3 % more instructions
    /// in `validate`, `fen`, `filter` and `--syntax-only`, and `next_fast`
    /// as this plus `next` 8 % more with lints on (docs/pgn-reader.md).
    #[inline(always)]
    pub(crate) fn next_move_text(
        &mut self,
        numbers: bool,
        comments: bool,
    ) -> Option<(&'a [u8], Span)> {
        if self.pending.is_some() {
            return None;
        }
        let src = self.source;
        loop {
            let pos = self.pass_whitespace();
            let &b = src.get(pos)?;
            match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let len = symbol_len(&src[pos..]);
                    let text = &src[pos..pos + len];
                    if ep_mark_token(text).is_some() {
                        return None;
                    }
                    self.in_tags = false;
                    self.pos = pos + len;
                    return Some((text, Span::new(pos, pos + len)));
                }
                b'0'..=b'9' if !numbers => {
                    let (len, _) = plain_move_number(&src[pos..])?;
                    self.in_tags = false;
                    self.pos = pos + len;
                }
                b'{' if !comments => {
                    let close = self.next_comment_close(pos)?;
                    self.in_tags = false;
                    self.pos = close + 1;
                }
                _ => return None,
            }
        }
    }

    /// With the position at a `{` comment (where
    /// [`next_move_text`](Self::next_move_text) stopped) that is closed
    /// and no draw offer: its text and span, the comment passed. For
    /// readers that report comments, without a [`Token`] for each; any
    /// other comment is left to [`next`](Iterator::next).
    #[inline(always)]
    pub(crate) fn next_plain_comment(&mut self) -> Option<(&'a [u8], Span)> {
        let open = self.pos;
        if self.pending.is_some() || self.source.get(open) != Some(&b'{') {
            return None;
        }
        let close = self.next_comment_close(open)?;
        let text = &self.source[open + 1..close];
        if is_draw_offer(text) {
            return None;
        }
        self.in_tags = false;
        self.pos = close + 1;
        Some((text, Span::new(open, close + 1)))
    }

    /// Passes over whitespace (`%` escape lines are left to
    /// [`skip_space`](Self::skip_space)); the position after it.
    #[inline(always)]
    fn pass_whitespace(&mut self) -> usize {
        let src = self.source;
        let mut pos = self.pos;
        while let Some(&b) = src.get(pos) {
            if CLASS[usize::from(b)] & SPACE == 0 {
                break;
            }
            pos += 1;
        }
        self.pos = pos;
        pos
    }

    /// Skips whitespace (byte-order marks too) and `%` escape lines.
    #[inline]
    fn skip_space(&mut self) {
        let src = self.source;
        while let Some(&b) = src.get(self.pos) {
            if CLASS[usize::from(b)] & SPACE != 0 {
                self.pos += 1;
            } else if b == b'%' && (self.pos == 0 || matches!(src[self.pos - 1], b'\n' | b'\r')) {
                self.pos += rest_of_line(&src[self.pos..]).len();
            } else if b == 0xEF && src[self.pos..].starts_with(b"\xEF\xBB\xBF") {
                self.pos += 3;
            } else {
                break;
            }
        }
    }

    /// Reads a tag line's `[…]` at `pos`.
    fn tag_token(&mut self, start: usize) -> Token<'a> {
        let input = &self.source[start..];
        if self.in_tags
            && let Some((len, name, value)) = self.plain_tag_at(start)
        {
            self.pos = start + len;
            return self.token(TokenKind::Tag { name, value }, start);
        }
        if self.in_tags
            && let Ok((rest, (name, value))) = tag_pair(input)
        {
            // A well-formed tag pair ends where the framer's rule ends it.
            self.pos = self.source.len() - rest.len();
            return self.token(TokenKind::Tag { name, value }, start);
        }
        let (extent, open) = tag_extent(input);
        if self.in_tags
            && open
            && let Some(len) = value_closed_on_next_line(&input[extent..])
        {
            self.pos = start + extent + len;
            return self.token(TokenKind::Error(ParsePgnErrorKind::TagOverLines), start);
        }
        let text = &input[..extent];
        self.pos = start + extent;
        if !self.in_tags {
            return self.token(TokenKind::Error(ParsePgnErrorKind::TagInMovetext), start);
        }
        if let Some((name, value)) = lenient_tag_pair(text) {
            self.pending =
                Some(self.token(TokenKind::Error(ParsePgnErrorKind::UnescapedQuote), start));
            return self.token(TokenKind::Tag { name, value }, start);
        }
        self.token(TokenKind::Error(ParsePgnErrorKind::MalformedTag), start)
    }

    /// Reads a token that starts with a digit.
    fn digit_token(&mut self, start: usize) -> Token<'a> {
        let input = &self.source[start..];
        if let Some((len, n)) = plain_move_number(input) {
            self.pos = start + len;
            return self.token(TokenKind::MoveNumber(n), start);
        }
        // Move numbers first: results never contain periods, and a bare
        // number (`1` in `1/2`) is not taken before a non-delimiter.
        if let Ok((rest, n)) = move_number(input) {
            self.pos = self.source.len() - rest.len();
            return self.token(TokenKind::MoveNumber(n), start);
        }
        if let Ok((rest, outcome)) = game_termination(input) {
            self.pos = self.source.len() - rest.len();
            return self.token(TokenKind::Result(outcome), start);
        }
        self.symbol_token(start)
    }

    /// Reads a move token (or a separate e.p. mark) at `start`.
    #[inline(always)]
    fn symbol_token(&mut self, start: usize) -> Token<'a> {
        let input = &self.source[start..];
        let len = symbol_len(input);
        let text = &input[..len];
        self.pos = start + len;
        if let Some(suffix) = ep_mark_token(text) {
            return self.token(TokenKind::EpMark(suffix), start);
        }
        self.token(TokenKind::Move(text), start)
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if let Some(token) = self.pending.take() {
            return Some(token);
        }
        self.skip_space();
        let src = self.source;
        let start = self.pos;
        let &first = src.get(start)?;
        if first != b'[' {
            self.in_tags = false;
        }
        let token = match first {
            b'[' => self.tag_token(start),
            b'{' => {
                let (len, body) = match self.comment_close(start) {
                    Some(close) => (close + 1 - start, Ok(&src[start + 1..close])),
                    None => brace_comment(&src[start..]),
                };
                self.pos = start + len;
                match body {
                    Ok(text) if is_draw_offer(text) => self.token(TokenKind::DrawOffer, start),
                    Ok(text) => self.token(TokenKind::Comment(text), start),
                    Err(text) => {
                        self.pending = Some(self.token(
                            TokenKind::Error(ParsePgnErrorKind::UnterminatedComment),
                            start,
                        ));
                        // Read as the same comment closed is read.
                        if is_draw_offer(text) {
                            self.token(TokenKind::DrawOffer, start)
                        } else {
                            self.token(TokenKind::Comment(text), start)
                        }
                    }
                }
            }
            b';' => {
                let text = rest_of_line(&src[start + 1..]);
                self.pos = start + 1 + text.len();
                self.token(TokenKind::LineComment(text), start)
            }
            b'(' => {
                if src[start..].starts_with(b"(=)") {
                    self.pos = start + 3;
                    self.token(TokenKind::DrawOffer, start)
                } else {
                    self.pos = start + 1;
                    self.token(TokenKind::StartVariation, start)
                }
            }
            b')' => {
                self.pos = start + 1;
                self.token(TokenKind::EndVariation, start)
            }
            b'$' => {
                let (kind, len) = match nag(&src[start..]) {
                    Ok((rest, Some(n))) => (TokenKind::Nag(n), src.len() - start - rest.len()),
                    Ok((rest, None)) => (
                        TokenKind::Error(ParsePgnErrorKind::BadNag),
                        src.len() - start - rest.len(),
                    ),
                    Err(_) => (TokenKind::Error(ParsePgnErrorKind::BadNag), 1),
                };
                self.pos = start + len;
                self.token(kind, start)
            }
            b'!' | b'?' => {
                let (kind, len) = match glyph(&src[start..]) {
                    Ok((rest, n)) => (TokenKind::Nag(n), src.len() - start - rest.len()),
                    Err(_) => (TokenKind::Error(ParsePgnErrorKind::UnexpectedByte), 1),
                };
                self.pos = start + len;
                self.token(kind, start)
            }
            b'*' => {
                self.pos = start + 1;
                self.token(TokenKind::Result(Outcome::Unknown), start)
            }
            b'0'..=b'9' => self.digit_token(start),
            b'.' | 0xE2 if ellipsis(&src[start..]).is_ok() => {
                // Periods after a move number written apart (`12. ...`):
                // part of the move number indication.
                let (rest, _) = many0_count(ellipsis)
                    .parse(&src[start..])
                    .unwrap_or((&src[start..], 0));
                self.pos = src.len() - rest.len();
                return self.next();
            }
            0xC2 | 0xBD => match game_termination(&src[start..]) {
                Ok((rest, outcome)) => {
                    self.pos = src.len() - rest.len();
                    self.token(TokenKind::Result(outcome), start)
                }
                Err(_) => self.symbol_token(start),
            },
            // `%` starts an escape line only in column 0 (see `skip_space`).
            b']' | b'}' | b'"' | b'%' | 0x00..=0x1f | 0x7f => {
                self.pos = start + 1;
                self.token(TokenKind::Error(ParsePgnErrorKind::UnexpectedByte), start)
            }
            _ => self.symbol_token(start),
        };
        Some(token)
    }
}

/// Reads an optional `FEN` tag's side to move and fullmove number (fields 2
/// and 6) for move numbering: `(fullmove, black_to_move)`.
pub(crate) fn fen_move_number(fen: &[u8]) -> Option<(u32, bool)> {
    let mut fields = fen.split(|&b| b == b' ').filter(|f| !f.is_empty());
    let black = match fields.nth(1)? {
        b"w" | b"W" => false,
        b"b" | b"B" => true,
        _ => return None,
    };
    let fullmove = fields
        .nth(3)
        .and_then(|f| std::str::from_utf8(f).ok()?.parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    Some((fullmove, black))
}

/// Whether a `{…}` comment is the draw-offer mark as pgnkit writes it,
/// `{(=)}` (spaces around allowed: python-chess writes `{ (=) }`): the mark
/// `(=)` itself opens a variation in other readers.
#[inline]
fn is_draw_offer(comment: &[u8]) -> bool {
    // Told by the first byte for nearly every comment, without trimming
    // its end. Leading byte-order marks are passed over as the writer
    // drops them ([`crate::encoding::decode`]).
    let mut text = comment;
    loop {
        match text {
            [b'(', ..] => return text.trim_ascii_end() == b"(=)",
            [b' ' | b'\t' | b'\n' | b'\r' | 0x0c, rest @ ..] | [0xEF, 0xBB, 0xBF, rest @ ..] => {
                text = rest;
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParsePgnErrorKind as E;
    use TokenKind as T;

    fn kinds(input: &[u8]) -> Vec<TokenKind<'_>> {
        Tokens::new(input).map(|t| t.kind).collect()
    }

    #[test]
    fn draw_offer_comments_are_the_mark() {
        use TokenKind as T;
        assert_eq!(
            kinds(b"e4 {(=)} { (=) } {(=) x} (=)"),
            [
                T::Move(b"e4"),
                T::DrawOffer,
                T::DrawOffer,
                T::Comment(b"(=) x"),
                T::DrawOffer
            ]
        );
        // A byte-order mark before the mark, which writing drops; a
        // comment the input leaves open.
        assert_eq!(
            kinds(b"e4 {\xEF\xBB\xBF (=)} {\xEF\xBB\xBFx} { (=)"),
            [
                T::Move(b"e4"),
                T::DrawOffer,
                T::Comment(b"\xEF\xBB\xBFx"),
                T::DrawOffer,
                T::Error(ParsePgnErrorKind::UnterminatedComment)
            ]
        );
    }

    #[test]
    fn productions() {
        assert_eq!(move_number(b"12."), Ok((&b""[..], 12)));
        assert_eq!(move_number(b"12...Nf6"), Ok((&b"Nf6"[..], 12)));
        assert_eq!(
            move_number("12\u{2026}Nf6".as_bytes()),
            Ok((&b"Nf6"[..], 12))
        );
        assert_eq!(move_number(b"12 e4"), Ok((&b" e4"[..], 12)));
        assert!(move_number(b"0-0").is_err());
        assert_eq!(nag(b"$255"), Ok((&b""[..], Some(255))));
        assert_eq!(nag(b"$256"), Ok((&b""[..], None)));
        assert_eq!(glyph(b"!?x"), Ok((&b"x"[..], 5)));
        assert_eq!(glyph(b"??"), Ok((&b""[..], 4)));
        assert_eq!(
            game_termination(b"1-0 "),
            Ok((&b" "[..], Outcome::WhiteWins))
        );
        assert!(game_termination(b"1-0-0").is_err());
        assert_eq!(
            tag_pair(br#"[ Event  "a \"b\"" ]"#),
            Ok((&b""[..], (&b"Event"[..], &br#"a \"b\""#[..])))
        );
        assert!(tag_pair(br#"[Event "open"#).is_err());
        assert_eq!(
            fen_move_number(b"8/8/8/8/8/8/8/8 b - - 0 23"),
            Some((23, true))
        );
    }

    /// `plain_tag_pair` as it was before it took its stops from
    /// `scan::tag_stops`: a byte at a time.
    fn plain_tag_pair_by_bytes(input: &[u8]) -> Option<(usize, &[u8], &[u8])> {
        let skip_blanks = |mut i: usize| {
            while matches!(input.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            i
        };
        if input.first() != Some(&b'[') {
            return None;
        }
        let name_start = skip_blanks(1);
        let name_len = input[name_start..]
            .iter()
            .position(|&b| CLASS[usize::from(b)] & TAG_NAME == 0)?;
        if name_len == 0 {
            return None;
        }
        let name = &input[name_start..name_start + name_len];
        let quote = skip_blanks(name_start + name_len);
        if input.get(quote) != Some(&b'"') {
            return None;
        }
        let value_start = quote + 1;
        let value_len = input[value_start..]
            .iter()
            .position(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))?;
        let close = value_start + value_len;
        if input[close] != b'"' {
            return None;
        }
        let end = skip_blanks(close + 1);
        if input.get(end) != Some(&b']') {
            return None;
        }
        Some((end + 1, name, &input[value_start..close]))
    }

    #[test]
    fn plain_tag_pairs_read_like_the_grammar() {
        let mut plain = 0;
        for round in 0..20_000 {
            let mut line = scan::soup(round as u64, round % 90, b"\"\"\"]]\\\n\rab Nx\t[-_");
            if round % 3 != 0 {
                // Mostly well-formed lines, with a random tail.
                let mut good = br#"[ White_Elo "a b" ]"#.to_vec();
                good.truncate(round % (good.len() + 1));
                good.extend_from_slice(&line);
                line = good;
            }
            if let Some(first) = line.first_mut() {
                *first = b'[';
            }
            let fast = plain_tag_pair(&line);
            assert_eq!(
                fast,
                plain_tag_pair_by_bytes(&line),
                "{}",
                line.escape_ascii()
            );
            if let Some((len, name, value)) = fast {
                plain += 1;
                let (rest, (n, v)) = tag_pair(&line).expect("a plain pair is a tag pair");
                assert_eq!((line.len() - rest.len(), n, v), (len, name, value));
            }
        }
        assert!(plain > 1000, "{plain}");
    }

    #[test]
    fn framer_index_changes_no_token_and_a_wrong_one_stays_in_the_text() {
        let input: &[u8] =
            b"[Event \"A\"]\n[Site  \"x]{y\" ]\n[Round \"1\\\"\"]\n\n1. e4 {a} e5 {b\n[c]} *\n\n\
            [White \"Nuss\"] [Black \"B\"]\n[Result \"1-0\"]\n1. d4 {long comment here} d5 1-0\n\n\
            [X \"\"]\n{pre} 1. c4 *\n";
        let mut framer = crate::pgn::GameFramer::new(input);
        let mut games = Vec::new();
        while let Some(game) = framer.next_game() {
            let game = game.expect("no error");
            let (bytes, comments) = (game.bytes.to_vec(), game.comments.spans().to_vec());
            games.push((bytes, comments));
        }
        assert_eq!(games.len(), 3);
        let tags = games
            .iter()
            .flat_map(|(_, c)| c)
            .filter(|[at, _]| at & TAG_ENTRY != 0);
        // Not indexed: the pair with an escape, and the second pair on a
        // line (read byte by byte by the framer).
        assert_eq!(tags.count(), 5);
        for (bytes, own) in &games {
            let bare: Vec<_> = Tokens::new(bytes).collect();
            let indexed: Vec<_> = Tokens::with_comments(bytes, Comments::from_spans(own)).collect();
            assert_eq!(indexed, bare);
            for (_, other) in &games {
                // Another game's index: wrong tokens may come out, but
                // nothing outside the text and no panic.
                for token in Tokens::with_comments(bytes, Comments::from_spans(other)) {
                    assert!(token.span.end <= bytes.len());
                }
            }
        }
    }

    /// The tokens of `input` (with the framer's index when it has one)
    /// as the movetext reader reads them: moves by `next_move_text` where
    /// it takes them, everything else by `next_significant`, or with
    /// `comments` by `next` (move numbers then left out: the lane passes
    /// over the plain ones).
    fn through_move_lane<'a>(
        input: &'a [u8],
        index: Comments<'a>,
        numbers: bool,
        comments: bool,
    ) -> Vec<Token<'a>> {
        let mut tokens = Tokens::with_comments(input, index);
        let mut out = Vec::new();
        loop {
            if let Some((text, span)) = tokens.next_move_text(numbers, comments) {
                out.push(Token {
                    kind: TokenKind::Move(text),
                    span,
                });
                continue;
            }
            let next = if comments {
                tokens.next()
            } else if numbers {
                tokens.next_significant_with_numbers()
            } else {
                tokens.next_significant()
            };
            match next {
                Some(token) if comments && matches!(token.kind, TokenKind::MoveNumber(_)) => {}
                Some(token) => out.push(token),
                None => return out,
            }
        }
    }

    #[test]
    fn the_move_lane_with_comments_reads_every_token_next_reads() {
        let alphabet = b"1. e4Nxf3O-O e.p {}()$!?;\n%[]\"*0-1\xe2\x80\xa6 ";
        let mut comments = 0;
        for numbers in [false, true] {
            for round in 0..4000u64 {
                let soup = scan::soup(round, (round % 70) as usize, alphabet);
                let lane = through_move_lane(&soup, Comments::default(), numbers, true);
                let all: Vec<Token<'_>> = Tokens::new(&soup)
                    .filter(|t| !matches!(t.kind, TokenKind::MoveNumber(_)))
                    .collect();
                comments += all
                    .iter()
                    .filter(|t| matches!(t.kind, TokenKind::Comment(_)))
                    .count();
                assert_eq!(lane, all, "{}", soup.escape_ascii());
            }
        }
        assert!(comments > 1_000, "{comments}");
    }

    fn significant<'a>(input: &'a [u8], comments: Comments<'a>, numbers: bool) -> Vec<Token<'a>> {
        let mut tokens = Tokens::with_comments(input, comments);
        std::iter::from_fn(|| {
            if numbers {
                tokens.next_significant_with_numbers()
            } else {
                tokens.next_significant()
            }
        })
        .collect()
    }

    #[test]
    fn the_move_lane_reads_the_tokens_next_significant_reads() {
        let framed: &[u8] =
            b"[Event \"A\"]\n\n1. e4 {a} e5 2.Nf3 exd6 e.p. 3... Nc6 4\xe2\x80\xa6 Bb5\n\
            {multi\nline} 5. O-O (5. d4 ep) 12 Nbd7+ $1 Qxe8# !? e.p {unterminated";
        let mut framer = crate::pgn::GameFramer::new(framed);
        let game = framer.next_game().expect("a game").expect("no error");
        let mut lanes = 0;
        for numbers in [false, true] {
            let index = Comments::from_spans(game.comments.spans());
            let lane = through_move_lane(game.bytes, index, numbers, false);
            assert_eq!(lane, significant(game.bytes, index, numbers));
            assert!(lane.iter().any(|t| matches!(t.kind, TokenKind::EpMark(_))));
            for round in 0..4000u64 {
                let soup = scan::soup(
                    round,
                    (round % 70) as usize,
                    b"1. e4Nxf3O-O e.p {}()$!?;\n%[]\"*0-1\xe2\x80\xa6 ",
                );
                let lane = through_move_lane(&soup, Comments::default(), numbers, false);
                lanes += lane
                    .iter()
                    .filter(|t| matches!(t.kind, TokenKind::Move(_)))
                    .count();
                assert_eq!(
                    lane,
                    significant(&soup, Comments::default(), numbers),
                    "{}",
                    soup.escape_ascii()
                );
            }
        }
        assert!(lanes > 10_000, "{lanes}");
    }

    #[test]
    fn dense_one_liners() {
        let cases: &[(&[u8], &[TokenKind])] = &[
            (
                b"1.e4!?$1{c}(1.d4)e5",
                &[
                    T::MoveNumber(1),
                    T::Move(b"e4"),
                    T::Nag(5),
                    T::Nag(1),
                    T::Comment(b"c"),
                    T::StartVariation,
                    T::MoveNumber(1),
                    T::Move(b"d4"),
                    T::EndVariation,
                    T::Move(b"e5"),
                ],
            ),
            (
                b"1.e4 e5 2.Nf3 {a [b] c} (2.f4 (2.d4 d5) exf4) 2...Nc6 1-0",
                &[
                    T::MoveNumber(1),
                    T::Move(b"e4"),
                    T::Move(b"e5"),
                    T::MoveNumber(2),
                    T::Move(b"Nf3"),
                    T::Comment(b"a [b] c"),
                    T::StartVariation,
                    T::MoveNumber(2),
                    T::Move(b"f4"),
                    T::StartVariation,
                    T::MoveNumber(2),
                    T::Move(b"d4"),
                    T::Move(b"d5"),
                    T::EndVariation,
                    T::Move(b"exf4"),
                    T::EndVariation,
                    T::MoveNumber(2),
                    T::Move(b"Nc6"),
                    T::Result(Outcome::WhiteWins),
                ],
            ),
            (
                b"[A \"1\"][B \"x\\\\y\"]  [C \"q\\\"\"]\r1.e4\re5\r1/2-1/2",
                &[
                    T::Tag {
                        name: b"A",
                        value: b"1",
                    },
                    T::Tag {
                        name: b"B",
                        value: b"x\\\\y",
                    },
                    T::Tag {
                        name: b"C",
                        value: b"q\\\"",
                    },
                    T::MoveNumber(1),
                    T::Move(b"e4"),
                    T::Move(b"e5"),
                    T::Result(Outcome::Draw),
                ],
            ),
            (
                "12\u{2026}Nf6 13. ... Nd5 14 e4 ½-½".as_bytes(),
                &[
                    T::MoveNumber(12),
                    T::Move(b"Nf6"),
                    T::MoveNumber(13),
                    T::Move(b"Nd5"),
                    T::MoveNumber(14),
                    T::Move(b"e4"),
                    T::Result(Outcome::Draw),
                ],
            ),
            (
                b"e4{glued}e5;rest {\n(=) exd6 e.p. Qh4#?? 0-0-0+ exd6 ep# 0-1",
                &[
                    T::Move(b"e4"),
                    T::Comment(b"glued"),
                    T::Move(b"e5"),
                    T::LineComment(b"rest {"),
                    T::DrawOffer,
                    T::Move(b"exd6"),
                    T::EpMark(None),
                    T::Move(b"Qh4#"),
                    T::Nag(4),
                    T::Move(b"0-0-0+"),
                    T::Move(b"exd6"),
                    T::EpMark(Some(Suffix::Checkmate)),
                    T::Result(Outcome::BlackWins),
                ],
            ),
            (
                b"1. e4 $300 ] xyz\" {open",
                &[
                    T::MoveNumber(1),
                    T::Move(b"e4"),
                    T::Error(E::BadNag),
                    T::Error(E::UnexpectedByte),
                    T::Move(b"xyz"),
                    T::Error(E::UnexpectedByte),
                    T::Comment(b"open"),
                    T::Error(E::UnterminatedComment),
                ],
            ),
            (
                b"[White \"\"Socrates\"\"]\n[Bad]\n%escape\n1. e4 [Event \"x\"] *",
                &[
                    T::Tag {
                        name: b"White",
                        value: b"\"Socrates\"",
                    },
                    T::Error(E::UnescapedQuote),
                    T::Error(E::MalformedTag),
                    T::MoveNumber(1),
                    T::Move(b"e4"),
                    T::Error(E::TagInMovetext),
                    T::Result(Outcome::Unknown),
                ],
            ),
            (
                b"[TimeControl \"10/2592000\"] [mySchachNr \"7\"] [Whitemy_ELO+#=:- \"?\"]",
                &[
                    T::Tag {
                        name: b"TimeControl",
                        value: b"10/2592000",
                    },
                    T::Tag {
                        name: b"mySchachNr",
                        value: b"7",
                    },
                    T::Tag {
                        name: b"Whitemy_ELO+#=:-",
                        value: b"?",
                    },
                ],
            ),
        ];
        for &(input, expected) in cases {
            assert_eq!(kinds(input), expected, "{}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn spans_point_at_the_tokens() {
        let text = b"1.e4!? {c} *";
        let spans: Vec<(usize, usize)> = Tokens::new(text)
            .map(|t| (t.span.start, t.span.end))
            .collect();
        assert_eq!(spans, [(0, 2), (2, 4), (4, 6), (7, 10), (11, 12)]);
    }

    #[test]
    fn skip_variation_honours_comments() {
        let text = b"(a {)} ; )\n (b) c) d";
        let mut tokens = Tokens::new(text);
        assert_eq!(tokens.next().map(|t| t.kind), Some(T::StartVariation));
        assert!(tokens.skip_variation());
        assert_eq!(tokens.next().map(|t| t.kind), Some(T::Move(b"d")));
    }
}
