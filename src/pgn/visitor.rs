//! The movetext reader: one walk over a game's tokens that owns the
//! structural rules of PGN, and the [`Visitor`] it reports to.
//!
//! The [`Reader`] knows what a game's text may contain and where: tag pairs
//! before the movetext, annotations only after a move, variations only as
//! alternatives to a move and nested no deeper than a bound, one
//! termination marker in the mainline and no move after it. It reports a
//! breach of these rules once, as a [`ParsePgnError`], and every token that
//! reads as something to the visitor. A visitor gives the tokens a meaning
//! (a tree, a replay, a conversion); it never checks structure itself, so
//! every job that reads movetext reports the same syntax errors.
//!
//! A lenient reader ([`Reader::lenient`]) salvages games with debris in
//! their movetext (mail headers, HTML tags, stray characters): a token in
//! move position that is no move, a character that starts no token and a
//! `$` without a number are skipped, each reported as a recovered
//! [`ParsePgnErrorKind::SkippedToken`], and the moves around them are read
//! as if it were not there. A move followed by debris in one token
//! (`e5<br>`) is read as the move, the rest skipped; moves glued together
//! (`B1d3d7-d5`) are read one by one, each glued one reported
//! ([`ParsePgnErrorKind::GluedMove`]). Structural errors stay errors.
//!
//! Visitors are monomorphised: the reader's loop is compiled once per
//! visitor with its callbacks in line, and a visitor that does not ask for
//! comments or move numbers gets the tokenizer's fast path, which passes
//! over them without making tokens.

use crate::notation::{MoveToken, ParseMoveTokenError, Suffix};
use crate::pgn::error::{ParsePgnError, ParsePgnErrorKind};
use crate::pgn::grammar::{Outcome, Token, TokenKind, Tokens, move_number};
use crate::pgn::raw::RawGame;
use crate::pgn::span::Span;

/// Whether to skip what a callback opens (the movetext, a variation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// How a comment was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{…}`.
    Brace,
    /// `;…` to the end of the line.
    Line,
}

/// A comment as written (text between the delimiters, not decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The comment's text.
    pub text: &'a [u8],
    /// How it was delimited.
    pub kind: CommentKind,
    /// Where it was written, delimiters included.
    pub span: Span,
}

/// What a [`Reader`] reports while it reads one game, in input order.
///
/// Every method but [`end_game`](Visitor::end_game) has a default that
/// ignores the event. Spans are relative to the game's text.
pub trait Visitor<'a> {
    /// What [`end_game`](Visitor::end_game) returns.
    type Output;

    /// Whether comments are reported. A visitor that leaves this `false`
    /// gets the tokenizer's fast path, which passes over comments without
    /// making tokens.
    const COMMENTS: bool = false;

    /// Whether move numbers are reported (they cost a token each).
    const MOVE_NUMBERS: bool = false;

    /// A tag pair: raw name and value (escapes unresolved).
    fn tag(&mut self, _name: &'a [u8], _value: &'a [u8], _span: Span) {}

    /// The tag section is over: called before the first token of the
    /// movetext, or at the end of a game that has none. `Skip(true)` ends
    /// the game here: nothing of the movetext is read or reported.
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    /// A move number indication (only with [`MOVE_NUMBERS`](Self::MOVE_NUMBERS)).
    fn move_number(&mut self, _number: u32, _span: Span) {}

    /// A move token, as written (move-quality glyphs split off) and as
    /// read. A token in move position that is no move is a syntax error
    /// ([`ParsePgnErrorKind::BadMove`]) instead; either way it is the
    /// current line's last move from here on.
    fn san(&mut self, _text: &'a [u8], _token: &MoveToken, _span: Span) {}

    /// A separate en-passant mark (`e.p.`) after the current line's last
    /// move (at most one per move), with the check or mate sign written
    /// after it (`e.p.+`), if any.
    fn ep_mark(&mut self, _span: Span, _suffix: Option<Suffix>) {}

    /// A NAG (glyphs as NAGs 1–6) after the current line's last move.
    fn nag(&mut self, _nag: u8, _span: Span) {}

    /// A draw offer `(=)` (or `{(=)}`, as pgnkit writes it) after the
    /// current line's last move.
    fn draw_offer(&mut self, _span: Span) {}

    /// A comment (only with [`COMMENTS`](Self::COMMENTS)).
    fn comment(&mut self, _comment: Comment<'a>) {}

    /// A variation opens: an alternative to the current line's last move.
    /// `Skip(true)` passes over it to its `)` without reporting anything.
    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(false)
    }

    /// The variation opened last ends (at its `)`, or at the end of the
    /// game's text when it was left open).
    fn end_variation(&mut self, _span: Span) {}

    /// The mainline's game termination marker.
    fn outcome(&mut self, _outcome: Outcome, _span: Span) {}

    /// A syntax error. A move token that is no move comes here as
    /// [`ParsePgnErrorKind::BadMove`] in place of [`san`](Self::san).
    fn syntax_error(&mut self, _error: ParsePgnError) {}

    /// The game is over.
    fn end_game(&mut self) -> Self::Output;
}

/// The default bound on variation nesting.
pub const DEFAULT_MAX_DEPTH: usize = 256;

/// The movetext reader, with its stack of open variations kept from game
/// to game.
///
/// # Examples
/// ```
/// use pgnkit::MoveToken;
/// use pgnkit::pgn::{RawGame, Reader, Span, Visitor};
///
/// /// Counts the moves of the mainline and of every variation.
/// struct Moves(usize);
///
/// impl<'a> Visitor<'a> for Moves {
///     type Output = usize;
///     fn san(&mut self, _text: &'a [u8], _token: &MoveToken, _span: Span) {
///         self.0 += 1;
///     }
///     fn end_game(&mut self) -> usize {
///         self.0
///     }
/// }
///
/// let raw = RawGame::from_bytes(b"1. e4 {best} (1. d4 d5) e5 2. Nf3 *");
/// assert_eq!(Reader::default().read(&raw, &mut Moves(0)), 5);
/// ```
#[derive(Debug, Clone)]
pub struct Reader {
    max_depth: usize,
    /// Skip debris instead of reporting it as errors.
    lenient: bool,
    /// Open variations: where each began, and whether the move it is an
    /// alternative to has an e.p. mark.
    stack: Vec<(Span, bool)>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new(DEFAULT_MAX_DEPTH)
    }
}

/// The reader's state in the current line.
struct Line {
    /// The line has a move (the one annotations and variations attach to).
    has_move: bool,
    /// That move has an e.p. mark.
    ep_mark: bool,
}

impl Line {
    /// Right after a move.
    const AFTER_MOVE: Line = Line {
        has_move: true,
        ep_mark: false,
    };
}

impl Reader {
    /// A reader that accepts variations nested `max_depth` deep; deeper
    /// ones are reported ([`ParsePgnErrorKind::TooDeep`]) and skipped.
    pub fn new(max_depth: usize) -> Reader {
        Reader {
            max_depth,
            lenient: false,
            stack: Vec::new(),
        }
    }

    /// The same reader, lenient or strict (the default). A lenient reader
    /// skips debris: a token in move position that is no move, a
    /// character that starts no token, a `$` without a number
    /// ([`ParsePgnErrorKind::SkippedToken`]); it reads a move with debris
    /// glued on as the move, and moves glued together one by one
    /// ([`ParsePgnErrorKind::GluedMove`]).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{ParsePgnError, ParsePgnErrorKind, RawGame, Reader, Visitor};
    ///
    /// /// The syntax errors of a game.
    /// struct Errors(Vec<ParsePgnErrorKind>);
    ///
    /// impl<'a> Visitor<'a> for Errors {
    ///     type Output = Vec<ParsePgnErrorKind>;
    ///     fn syntax_error(&mut self, error: ParsePgnError) {
    ///         self.0.push(error.kind);
    ///     }
    ///     fn end_game(&mut self) -> Vec<ParsePgnErrorKind> {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let raw = RawGame::from_bytes(b"1. e4 <br> e5 *");
    /// let strict = Reader::default().read(&raw, &mut Errors(Vec::new()));
    /// assert!(matches!(strict[..], [ParsePgnErrorKind::BadMove(_)]));
    /// let lenient = Reader::default().lenient(true).read(&raw, &mut Errors(Vec::new()));
    /// assert_eq!(lenient, [ParsePgnErrorKind::SkippedToken]);
    /// ```
    pub fn lenient(mut self, lenient: bool) -> Reader {
        self.lenient = lenient;
        self
    }

    /// Makes this reader lenient or strict ([`lenient`](Self::lenient)).
    pub fn set_lenient(&mut self, lenient: bool) {
        self.lenient = lenient;
    }

    /// Whether this reader skips debris.
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// The bound on variation nesting.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Reads one framed game, reporting to `visitor`; returns what its
    /// [`end_game`](Visitor::end_game) returns.
    ///
    /// A game with a NUL byte is binary data: its tag pairs are reported
    /// as [`read_tags`](Self::read_tags) reads them, so that every reader
    /// of the game's tags sees the same ones, then that error alone,
    /// before `end_game` (no `end_tags`, no movetext).
    #[inline]
    pub fn read<'a, V: Visitor<'a>>(&mut self, raw: &RawGame<'a>, visitor: &mut V) -> V::Output {
        if let Some(at) = raw.marks.first_nul() {
            Reader::read_tags(raw.bytes, &mut TagsOnly(visitor));
            visitor.syntax_error(ParsePgnError {
                kind: ParsePgnErrorKind::BinaryData,
                span: Span::new(at, at + 1),
            });
            return visitor.end_game();
        }
        self.stack.clear();
        let mut tokens = Tokens::for_game(raw);
        let mut first = tag_section(&mut tokens, visitor, self.lenient);
        if visitor.end_tags().0 {
            return visitor.end_game();
        }
        let mut line = Line {
            has_move: false,
            ep_mark: false,
        };
        let mut after_result = false;
        let mut result = false;
        loop {
            let token = match first.take() {
                Some(token) => token,
                None => {
                    // Moves need no token on the fast path, nor comments
                    // and move numbers unless the visitor wants them.
                    if let Some((text, span)) = tokens.next_move_text(V::MOVE_NUMBERS, V::COMMENTS)
                    {
                        self.move_token(visitor, text, span, &mut line, &mut after_result);
                        continue;
                    }
                    if V::COMMENTS
                        && let Some((text, span)) = tokens.next_plain_comment()
                    {
                        visitor.comment(Comment {
                            text,
                            kind: CommentKind::Brace,
                            span,
                        });
                        continue;
                    }
                    match next_token::<V>(&mut tokens) {
                        Some(token) => token,
                        None => break,
                    }
                }
            };
            let span = token.span;
            match token.kind {
                // The grammar reports a misplaced tag pair itself.
                TokenKind::Tag { name, value } => visitor.tag(name, value, span),
                TokenKind::MoveNumber(n) => {
                    if V::MOVE_NUMBERS {
                        visitor.move_number(n, span);
                    }
                }
                TokenKind::Move(text) => {
                    self.move_token(visitor, text, span, &mut line, &mut after_result)
                }
                TokenKind::EpMark(suffix) => {
                    if line.has_move && !line.ep_mark {
                        line.ep_mark = true;
                        visitor.ep_mark(span, suffix);
                    } else {
                        error_token(
                            visitor,
                            ParsePgnErrorKind::UnexpectedByte,
                            span,
                            self.lenient,
                        );
                    }
                }
                TokenKind::Nag(nag) => {
                    if line.has_move {
                        visitor.nag(nag, span);
                    } else {
                        error(visitor, ParsePgnErrorKind::NagWithoutMove, span);
                    }
                }
                TokenKind::DrawOffer => {
                    if line.has_move {
                        visitor.draw_offer(span);
                    } else if let Some(text) = span
                        .slice(raw.bytes)
                        .strip_prefix(b"{")
                        .and_then(|t| t.strip_suffix(b"}"))
                    {
                        // `{(=)}` before any move offers nothing: a comment.
                        visitor.comment(Comment {
                            text,
                            kind: CommentKind::Brace,
                            span,
                        });
                    } else {
                        error(visitor, ParsePgnErrorKind::NagWithoutMove, span);
                    }
                }
                TokenKind::Comment(text) => visitor.comment(Comment {
                    text,
                    kind: CommentKind::Brace,
                    span,
                }),
                TokenKind::LineComment(text) => visitor.comment(Comment {
                    text,
                    kind: CommentKind::Line,
                    span,
                }),
                TokenKind::StartVariation => {
                    if !line.has_move {
                        error(visitor, ParsePgnErrorKind::VariationWithoutMove, span);
                        tokens.skip_variation();
                    } else if self.stack.len() >= self.max_depth {
                        error(visitor, ParsePgnErrorKind::TooDeep(self.max_depth), span);
                        tokens.skip_variation();
                    } else if visitor.begin_variation(span).0 {
                        if !tokens.skip_variation() {
                            error(visitor, ParsePgnErrorKind::UnclosedVariation, span);
                        }
                    } else {
                        self.stack.push((span, line.ep_mark));
                        line = Line {
                            has_move: false,
                            ep_mark: false,
                        };
                    }
                }
                TokenKind::EndVariation => match self.stack.pop() {
                    // The move the variation is an alternative to is again
                    // the last move of the current line.
                    Some((_, parent_ep)) => {
                        visitor.end_variation(span);
                        line = Line {
                            has_move: true,
                            ep_mark: parent_ep,
                        };
                    }
                    None => error(visitor, ParsePgnErrorKind::UnmatchedParen, span),
                },
                TokenKind::Result(outcome) => {
                    if !self.stack.is_empty() {
                        error(visitor, ParsePgnErrorKind::ResultInVariation, span);
                    } else if result {
                        error(visitor, ParsePgnErrorKind::SecondResult, span);
                    } else {
                        result = true;
                        after_result = true;
                        visitor.outcome(outcome, span);
                    }
                }
                TokenKind::Error(kind) => error_token(visitor, kind, span, self.lenient),
            }
        }
        let end = Span::new(raw.bytes.len(), raw.bytes.len());
        while let Some((open, _)) = self.stack.pop() {
            visitor.end_variation(end);
            error(visitor, ParsePgnErrorKind::UnclosedVariation, open);
        }
        visitor.end_game()
    }

    /// Reads only the tag section of a game's text (up to the first token
    /// of its movetext), reporting its tag pairs and syntax errors.
    ///
    /// Unlike [`read`](Self::read) it does not look for binary data, which
    /// is a property of the whole game.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Reader, Span, Visitor};
    ///
    /// struct Names<'a>(Vec<&'a [u8]>);
    ///
    /// impl<'a> Visitor<'a> for Names<'a> {
    ///     type Output = ();
    ///     fn tag(&mut self, name: &'a [u8], _value: &'a [u8], _span: Span) {
    ///         self.0.push(name);
    ///     }
    ///     fn end_game(&mut self) {}
    /// }
    ///
    /// let mut names = Names(Vec::new());
    /// Reader::read_tags(b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 [Late \"x\"] *", &mut names);
    /// assert_eq!(names.0, [&b"White"[..], b"Black"]);
    /// ```
    pub fn read_tags<'a, V: Visitor<'a>>(source: &'a [u8], visitor: &mut V) {
        tag_section(&mut Tokens::new(source), visitor, false);
    }

    /// A token in move position: read, and reported as a move or as no
    /// move (a lenient reader skips it instead).
    #[inline(always)]
    fn move_token<'a, V: Visitor<'a>>(
        &self,
        visitor: &mut V,
        text: &'a [u8],
        span: Span,
        line: &mut Line,
        after_result: &mut bool,
    ) {
        if *after_result && self.stack.is_empty() {
            if self.lenient && MoveToken::parse_general(text).is_err() {
                skipped(visitor, span);
                return;
            }
            error(visitor, ParsePgnErrorKind::AfterResult, span);
            *after_result = false;
        }
        // The token is read where the visitor uses it, not moved out of a
        // `Result`: copied through the stack in pieces and read back, it
        // stalled store forwarding on every move.
        if let Some(token) = crate::notation::parse_common(text) {
            *line = Line::AFTER_MOVE;
            visitor.san(text, &token, span);
        } else {
            general_move_token(visitor, text, span, line, self.lenient);
        }
    }
}

/// Passes on a visitor's tags, and nothing else.
struct TagsOnly<'v, V>(&'v mut V);

impl<'a, V: Visitor<'a>> Visitor<'a> for TagsOnly<'_, V> {
    type Output = ();

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.0.tag(name, value, span);
    }

    fn end_game(&mut self) {}
}

/// Reads the tag section: the tag pairs (the common ones without a token
/// each) and syntax errors before the movetext; returns the movetext's
/// first token.
#[inline(always)]
fn tag_section<'a, V: Visitor<'a>>(
    tokens: &mut Tokens<'a>,
    visitor: &mut V,
    lenient: bool,
) -> Option<Token<'a>> {
    while let Some((name, value, span)) = tokens.next_plain_tag() {
        visitor.tag(name, value, span);
    }
    while let Some(token) = next_token::<V>(tokens) {
        match token.kind {
            TokenKind::Tag { name, value } => visitor.tag(name, value, token.span),
            TokenKind::Error(kind) => error_token(visitor, kind, token.span, lenient),
            _ => return Some(token),
        }
    }
    None
}

/// The next token the visitor needs, past what it does not.
#[inline(always)]
fn next_token<'a, V: Visitor<'a>>(tokens: &mut Tokens<'a>) -> Option<Token<'a>> {
    if V::COMMENTS {
        tokens.next()
    } else if V::MOVE_NUMBERS {
        tokens.next_significant_with_numbers()
    } else {
        tokens.next_significant()
    }
}

/// A move token outside the common shapes: read by the general parser.
/// Either way it is the current line's last move from here on, unless a
/// lenient reader skips it.
#[inline(never)]
fn general_move_token<'a, V: Visitor<'a>>(
    visitor: &mut V,
    text: &'a [u8],
    span: Span,
    line: &mut Line,
    lenient: bool,
) {
    match MoveToken::parse_general(text) {
        Ok(token) => {
            *line = Line::AFTER_MOVE;
            visitor.san(text, &token, span);
        }
        Err(err) if lenient => {
            if salvage(visitor, text, span, err) {
                *line = Line::AFTER_MOVE;
            }
        }
        Err(err) => {
            *line = Line::AFTER_MOVE;
            bad_move(visitor, err, span);
        }
    }
}

#[cold]
fn bad_move<'a, V: Visitor<'a>>(visitor: &mut V, err: ParseMoveTokenError, span: Span) {
    error(visitor, ParsePgnErrorKind::BadMove(err), span);
}

/// A lenient reader's way with a token in move position that is no move,
/// piece by piece from its start: a move followed by more (`e5<br>`,
/// `B1d3d7-d5`) is read as the move and the rest goes on; punctuation
/// before a move (`.O-O`) is skipped; a move glued to the one before it is
/// reported ([`ParsePgnErrorKind::GluedMove`]) and read; what is left
/// that starts no move is skipped whole. Returns whether a move was read.
#[cold]
fn salvage<'a, V: Visitor<'a>>(
    visitor: &mut V,
    text: &'a [u8],
    span: Span,
    err: ParseMoveTokenError,
) -> bool {
    // The length of the move at the start of `piece`, if one is there.
    let head = |piece: &'a [u8], err: ParseMoveTokenError| match err {
        ParseMoveTokenError::Unexpected { offset } if offset > 0 => piece
            .get(..offset)
            .and_then(|head| MoveToken::parse_general(head).ok())
            .map(|token| (offset, token)),
        _ => None,
    };
    let mut at = 0;
    let mut after_move = false;
    let mut moved = false;
    let mut read = Err(err);
    loop {
        let piece = &text[at..];
        let piece_span = Span::new(span.start + at, span.end);
        let (len, token) = match read {
            Ok(token) => (piece.len(), token),
            Err(err) => match head(piece, err) {
                Some(found) => found,
                None => {
                    let junk = piece
                        .iter()
                        .take_while(|b| b.is_ascii_punctuation())
                        .count();
                    // After the punctuation, a move number may come before
                    // the move (`/>3.Bb5`): it is read as one. Without
                    // its dots the grammar takes a number only before a
                    // delimiter, which leaves no move in this token.
                    let (number, n) = match move_number(&piece[junk..]) {
                        Ok((rest, n)) => (piece.len() - junk - rest.len(), n),
                        Err(_) => (0, 0),
                    };
                    let next = &piece[junk + number..];
                    let starts_move = junk > 0
                        && !next.is_empty()
                        && match MoveToken::parse_general(next) {
                            Ok(_) => true,
                            Err(err) => head(next, err).is_some(),
                        };
                    if !starts_move {
                        skipped(visitor, piece_span);
                        return moved;
                    }
                    let number_at = piece_span.start + junk;
                    skipped(visitor, Span::new(piece_span.start, number_at));
                    if number > 0 && V::MOVE_NUMBERS {
                        visitor.move_number(n, Span::new(number_at, number_at + number));
                    }
                    at += junk + number;
                    after_move = false;
                    read = MoveToken::parse_general(next);
                    continue;
                }
            },
        };
        let move_span = Span::new(piece_span.start, piece_span.start + len);
        if after_move {
            error(visitor, ParsePgnErrorKind::GluedMove, move_span);
        }
        visitor.san(&piece[..len], &token, move_span);
        moved = true;
        at += len;
        if at == text.len() {
            return true;
        }
        after_move = true;
        read = MoveToken::parse_general(&text[at..]);
    }
}

/// A token the grammar could not read: an error, or with a lenient
/// reader debris skipped.
#[inline]
fn error_token<'a, V: Visitor<'a>>(
    visitor: &mut V,
    kind: ParsePgnErrorKind,
    span: Span,
    lenient: bool,
) {
    match kind {
        ParsePgnErrorKind::UnexpectedByte | ParsePgnErrorKind::BadNag if lenient => {
            skipped(visitor, span)
        }
        kind => error(visitor, kind, span),
    }
}

/// Debris a lenient reader passes over.
#[cold]
fn skipped<'a, V: Visitor<'a>>(visitor: &mut V, span: Span) {
    error(visitor, ParsePgnErrorKind::SkippedToken, span);
}

#[inline]
fn error<'a, V: Visitor<'a>>(visitor: &mut V, kind: ParsePgnErrorKind, span: Span) {
    visitor.syntax_error(ParsePgnError { kind, span });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a reader reports, as text.
    #[derive(Default)]
    struct Events(Vec<String>);

    impl<'a> Visitor<'a> for Events {
        type Output = Vec<String>;

        fn tag(&mut self, name: &'a [u8], value: &'a [u8], _span: Span) {
            let (name, value) = (
                String::from_utf8_lossy(name),
                String::from_utf8_lossy(value),
            );
            self.0.push(format!("tag {name}={value}"));
        }

        fn end_tags(&mut self) -> Skip {
            self.0.push("end tags".to_owned());
            Skip(false)
        }

        fn san(&mut self, text: &'a [u8], _token: &MoveToken, _span: Span) {
            self.0
                .push(format!("move {}", String::from_utf8_lossy(text)));
        }

        fn syntax_error(&mut self, error: ParsePgnError) {
            self.0
                .push(format!("error {} at {}", error.kind, error.span.start));
        }

        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    /// A game with a NUL byte reports the tags `read_tags` reads, then the
    /// binary data alone: the tags are the game's for every reader.
    #[test]
    fn binary_data_comes_after_the_tags_read_tags_reads() {
        let cases: &[(&[u8], &[&str])] = &[
            (
                b"[Event \"A\"]\n[White \"Anna\"]\n\n1. e4 {a\0b} e5 *",
                &[
                    "tag Event=A",
                    "tag White=Anna",
                    "error binary data (NUL byte) in the game at 36",
                ],
            ),
            (
                b"[Event \"A\0\"] [White \"Anna\"]\n1. e4 *",
                &[
                    "tag Event=A\0",
                    "tag White=Anna",
                    "error binary data (NUL byte) in the game at 9",
                ],
            ),
            (
                // The NUL starts the movetext.
                b"[Event \"A\"]\n\0 [White \"Anna\"]\n1. e4 *",
                &[
                    "tag Event=A",
                    "error binary data (NUL byte) in the game at 12",
                ],
            ),
            (
                b"1. e4\0 *",
                &["error binary data (NUL byte) in the game at 5"],
            ),
        ];
        for &(text, expected) in cases {
            let raw = RawGame::from_bytes(text);
            let events = Reader::default().read(&raw, &mut Events::default());
            assert_eq!(events, expected, "{}", String::from_utf8_lossy(text));
            let mut tags = Events::default();
            Reader::read_tags(text, &mut tags);
            tags.0.retain(|event| event.starts_with("tag "));
            let n = expected.len() - 1;
            assert_eq!(tags.0, expected[..n], "{}", String::from_utf8_lossy(text));
        }
    }
}
