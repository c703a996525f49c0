//! The game model and its builder: tags, the move tree with comments, NAGs
//! and variations, the result, and every syntax error with its span and,
//! for messages, its place in the input.

use std::fmt;

use crate::notation::{MoveToken, ParseMoveTokenError, Suffix};
use crate::pgn::error::{ParsePgnError, ParsePgnErrorKind};
use crate::pgn::grammar::Outcome;
use crate::pgn::raw::RawGame;
use crate::pgn::span::{LineIndex, Span};
use crate::pgn::tag::Tag;
use crate::pgn::visitor::{Comment, DEFAULT_MAX_DEPTH, Reader, Skip, Visitor};

/// A game termination marker and where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultMarker {
    /// Which result.
    pub outcome: Outcome,
    /// Where.
    pub span: Span,
}

/// A separate en-passant mark after a move (`exd6 e.p.`, `exd6 ep+`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EpMark {
    /// Where the mark was written.
    pub span: Span,
    /// The check or mate sign written after it (`e.p.+`): the move's own
    /// when its token has none.
    pub suffix: Option<Suffix>,
}

/// One move as written, with everything attached to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNode<'a> {
    /// The token as written, without move-quality glyphs.
    pub text: &'a [u8],
    /// Where the token was written.
    pub span: Span,
    /// The token read by [`MoveToken::parse`]; an error is also reported in
    /// [`Game::errors`].
    pub token: Result<MoveToken, ParseMoveTokenError>,
    /// A separate en-passant mark (`e.p.`) written after the move.
    pub ep_mark: Option<EpMark>,
    /// NAGs in the order written (glyphs as NAGs 1–6).
    pub nags: Vec<u8>,
    /// A draw offer `(=)` after the move.
    pub draw_offer: bool,
    /// Comments between the previous move (or its variations) and this one.
    pub comments_before: Vec<Comment<'a>>,
    /// Comments after this move, before its first variation.
    pub comments_after: Vec<Comment<'a>>,
    /// Alternatives to this move, in order.
    pub variations: Vec<Line<'a>>,
}

/// A sequence of moves: the mainline or a variation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line<'a> {
    /// The moves in order.
    pub moves: Vec<MoveNode<'a>>,
    /// Comments after the last move's variations (or in an empty line).
    pub trailing_comments: Vec<Comment<'a>>,
}

/// One parsed game. Borrows the game's text; nothing of it is dropped
/// without an entry in [`errors`](Game::errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game<'a> {
    /// 1-based game number in the input.
    pub number: u64,
    /// Absolute byte offset of the game's text.
    pub offset: u64,
    /// 1-based line of the game's text.
    pub first_line: u64,
    /// The game's text; spans index into it.
    pub source: &'a [u8],
    /// Tag pairs in input order, duplicates kept.
    pub tags: Vec<Tag<'a>>,
    /// The mainline and its variations.
    pub mainline: Line<'a>,
    /// The game termination marker, if one was written.
    pub result: Option<ResultMarker>,
    /// Syntax errors, in input order.
    pub errors: Vec<ParsePgnError>,
}

impl<'a> Game<'a> {
    /// The first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.is(name))
    }

    /// The 1-based line and column of `span` in the input.
    pub fn line_col(&self, span: Span) -> (u64, u64) {
        span.line_col(self.source, self.first_line)
    }
}

/// The deepest variation nesting a [`Game`] holds, whatever
/// [`ParseOptions::max_depth`] asks: writing, cloning, comparing and
/// dropping a game recurse once per level, and at this depth they need
/// less than a quarter of a thread's default 2 MiB stack (tested).
pub const MAX_TREE_DEPTH: usize = 512;

/// Options for [`parse_game_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Deepest variation nesting accepted; deeper variations are reported
    /// ([`ParsePgnErrorKind::TooDeep`]) and skipped. At most
    /// [`MAX_TREE_DEPTH`]: a larger value counts as that.
    pub max_depth: usize,
    /// Skip debris in the movetext with a warning ([`Reader::lenient`]).
    pub lenient: bool,
}

impl ParseOptions {
    /// The nesting bound applied: [`max_depth`](Self::max_depth), at most
    /// [`MAX_TREE_DEPTH`].
    pub fn depth(&self) -> usize {
        self.max_depth.min(MAX_TREE_DEPTH)
    }
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            lenient: false,
        }
    }
}

/// Parses one framed game into the model, with default options.
///
/// Never fails: syntax errors are collected in [`Game::errors`] and parsing
/// resynchronises at the next token.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{Outcome, RawGame, parse_game};
/// let game = parse_game(&RawGame::from_bytes(b"[White \"Tal\"]\n1. e4 (1. d4) e5 {ok} 1-0"));
/// assert_eq!(game.tag("White").map(|t| t.value), Some(&b"Tal"[..]));
/// assert_eq!(game.mainline.moves.len(), 2);
/// assert_eq!(game.mainline.moves[0].variations[0].moves[0].text, b"d4");
/// assert_eq!(game.result.map(|r| r.outcome), Some(Outcome::WhiteWins));
/// ```
pub fn parse_game<'a>(raw: &RawGame<'a>) -> Game<'a> {
    parse_game_with(raw, &ParseOptions::default())
}

/// Parses one framed game into the model.
pub fn parse_game_with<'a>(raw: &RawGame<'a>, options: &ParseOptions) -> Game<'a> {
    let mut builder = Builder {
        game: Game {
            number: raw.number,
            offset: raw.offset,
            first_line: raw.first_line,
            source: raw.bytes,
            tags: Vec::new(),
            mainline: Line::default(),
            result: None,
            errors: Vec::new(),
        },
        stack: Vec::new(),
        pending: Vec::new(),
        saved: Vec::new(),
    };
    Reader::new(options.depth())
        .lenient(options.lenient)
        .read(raw, &mut builder)
}

/// Builds the tree from what the reader reports, with an explicit stack.
struct Builder<'a> {
    game: Game<'a>,
    /// Open variations; the mainline is `game.mainline`.
    stack: Vec<Line<'a>>,
    /// Comments waiting for the next move of the current line.
    pending: Vec<Comment<'a>>,
    /// The comments of each enclosing line waiting for its next move.
    saved: Vec<Vec<Comment<'a>>>,
}

impl<'a> Builder<'a> {
    fn line(&mut self) -> &mut Line<'a> {
        match self.stack.last_mut() {
            Some(line) => line,
            None => &mut self.game.mainline,
        }
    }

    /// The current line's last move: the reader reports annotations only
    /// where there is one.
    fn last_move(&mut self) -> Option<&mut MoveNode<'a>> {
        self.line().moves.last_mut()
    }

    fn push_move(
        &mut self,
        text: &'a [u8],
        span: Span,
        token: Result<MoveToken, ParseMoveTokenError>,
    ) {
        let comments_before = std::mem::take(&mut self.pending);
        self.line().moves.push(MoveNode {
            text,
            span,
            token,
            ep_mark: None,
            nags: Vec::new(),
            draw_offer: false,
            comments_before,
            comments_after: Vec::new(),
            variations: Vec::new(),
        });
    }

    /// Moves comments still waiting for a move to the current line's end.
    fn close_pending(&mut self) {
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            self.line().trailing_comments.extend(pending);
        }
    }
}

impl<'a> Visitor<'a> for Builder<'a> {
    type Output = Game<'a>;
    const COMMENTS: bool = true;

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.game.tags.push(Tag { name, value, span });
    }

    fn san(&mut self, text: &'a [u8], token: &MoveToken, span: Span) {
        self.push_move(text, span, Ok(*token));
    }

    fn ep_mark(&mut self, span: Span, suffix: Option<Suffix>) {
        if let Some(node) = self.last_move() {
            node.ep_mark = Some(EpMark { span, suffix });
        }
    }

    fn nag(&mut self, nag: u8, _span: Span) {
        if let Some(node) = self.last_move() {
            node.nags.push(nag);
        }
    }

    fn draw_offer(&mut self, _span: Span) {
        if let Some(node) = self.last_move() {
            node.draw_offer = true;
        }
    }

    fn comment(&mut self, comment: Comment<'a>) {
        let pending_empty = self.pending.is_empty();
        match self.line().moves.last_mut() {
            Some(node) if node.variations.is_empty() && pending_empty => {
                node.comments_after.push(comment)
            }
            _ => self.pending.push(comment),
        }
    }

    fn begin_variation(&mut self, _span: Span) -> Skip {
        // Comments waiting here (between two variations) wait for this
        // line's next move, not the variation's first.
        self.saved.push(std::mem::take(&mut self.pending));
        self.stack.push(Line::default());
        Skip(false)
    }

    fn end_variation(&mut self, _span: Span) {
        self.close_pending();
        if let Some(line) = self.stack.pop()
            && let Some(node) = self.line().moves.last_mut()
        {
            node.variations.push(line);
        }
        self.pending = self.saved.pop().unwrap_or_default();
    }

    fn outcome(&mut self, outcome: Outcome, span: Span) {
        self.game.result = Some(ResultMarker { outcome, span });
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        if let ParsePgnErrorKind::BadMove(err) = error.kind {
            self.push_move(error.span.slice(self.game.source), error.span, Err(err));
        }
        self.game.errors.push(error);
    }

    fn end_game(&mut self) -> Game<'a> {
        self.close_pending();
        std::mem::replace(
            &mut self.game,
            Game {
                number: 0,
                offset: 0,
                first_line: 0,
                source: &[],
                tags: Vec::new(),
                mainline: Line::default(),
                result: None,
                errors: Vec::new(),
            },
        )
    }
}

/// What [`visit_mainline`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MainlineEvent<'a> {
    /// A tag pair (raw bytes, escapes unresolved).
    Tag {
        /// The tag name.
        name: &'a [u8],
        /// The raw value.
        value: &'a [u8],
    },
    /// A mainline move token as written (glyphs split off); classify it
    /// with [`MoveToken::parse`].
    Move {
        /// The token.
        text: &'a [u8],
        /// Where it was written.
        span: Span,
    },
    /// The game termination marker.
    Result(Outcome),
    /// A syntax error outside variations and comments.
    Error(ParsePgnError),
}

/// Reports the tags, the mainline's moves and the result of one game,
/// passing over comments and variations without building anything: a
/// [`Reader`] with a visitor that skips variations.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{MainlineEvent, RawGame, visit_mainline};
/// let mut moves = Vec::new();
/// visit_mainline(&RawGame::from_bytes(b"1. e4 {x} (1. d4 d5) e5 2. Nf3 *"), |event| {
///     if let MainlineEvent::Move { text, .. } = event {
///         moves.push(text);
///     }
/// });
/// assert_eq!(moves, [&b"e4"[..], b"e5", b"Nf3"]);
/// ```
pub fn visit_mainline<'a>(raw: &RawGame<'a>, visit: impl FnMut(MainlineEvent<'a>)) {
    Reader::default().read(raw, &mut Mainline(visit, raw.bytes));
}

/// The visitor behind [`visit_mainline`]: the callback, and the game's text.
struct Mainline<'a, F>(F, &'a [u8]);

impl<'a, F: FnMut(MainlineEvent<'a>)> Visitor<'a> for Mainline<'a, F> {
    type Output = ();

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], _span: Span) {
        (self.0)(MainlineEvent::Tag { name, value });
    }

    fn san(&mut self, text: &'a [u8], _token: &MoveToken, span: Span) {
        (self.0)(MainlineEvent::Move { text, span });
    }

    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _span: Span) {
        (self.0)(MainlineEvent::Result(outcome));
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        (self.0)(match error.kind {
            // A token in move position is the mainline's move either way.
            ParsePgnErrorKind::BadMove(_) => MainlineEvent::Move {
                text: error.span.slice(self.1),
                span: error.span,
            },
            _ => MainlineEvent::Error(error),
        });
    }

    fn end_game(&mut self) {}
}

/// What [`SyntaxChecker::check`] counted in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SyntaxSummary {
    /// Tag pairs.
    pub tags: usize,
    /// Move tokens, in the mainline and in variations.
    pub moves: usize,
    /// Syntax errors reported.
    pub errors: usize,
    /// The game termination marker, if one was written.
    pub result: Option<Outcome>,
    /// Where the first `White` tag's value is (for messages).
    pub white: Option<Span>,
    /// Where the first `Black` tag's value is.
    pub black: Option<Span>,
}

/// Checks games' syntax without building the model: the parse-only path.
///
/// It reports exactly the errors [`parse_game_with`] collects in
/// [`Game::errors`], in the same order, for every token (variations
/// included; every move token is read): both are the [`Reader`]'s.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{ParsePgnErrorKind, RawGame, SyntaxChecker};
/// let mut checker = SyntaxChecker::default();
/// let mut errors = Vec::new();
/// let raw = RawGame::from_bytes(b"1. e4 (1. d4 Zz9) e5 )");
/// let summary = checker.check(&raw, |e| errors.push(e.kind));
/// assert_eq!(summary.moves, 4);
/// assert!(matches!(errors[0], ParsePgnErrorKind::BadMove(_)));
/// assert_eq!(errors[1], ParsePgnErrorKind::UnmatchedParen);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SyntaxChecker {
    reader: Reader,
}

impl SyntaxChecker {
    /// A checker with `options` (the variation depth bound).
    pub fn new(options: ParseOptions) -> SyntaxChecker {
        SyntaxChecker {
            reader: Reader::new(options.depth()).lenient(options.lenient),
        }
    }

    /// Checks one game, passing each syntax error to `report` in input
    /// order; returns what it counted.
    pub fn check(&mut self, raw: &RawGame<'_>, report: impl FnMut(ParsePgnError)) -> SyntaxSummary {
        let mut counter = Counter {
            source: raw.bytes,
            summary: SyntaxSummary::default(),
            report,
        };
        self.reader.read(raw, &mut counter)
    }
}

/// The visitor behind [`SyntaxChecker::check`].
struct Counter<'a, F> {
    source: &'a [u8],
    summary: SyntaxSummary,
    report: F,
}

impl<'a, F: FnMut(ParsePgnError)> Visitor<'a> for Counter<'a, F> {
    type Output = SyntaxSummary;

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], _span: Span) {
        self.summary.tags += 1;
        let slot = match name {
            b"White" => &mut self.summary.white,
            b"Black" => &mut self.summary.black,
            _ => return,
        };
        if slot.is_none() {
            // The value is a part of the game's text.
            let start = (value.as_ptr() as usize).saturating_sub(self.source.as_ptr() as usize);
            *slot = Some(Span::new(start, start + value.len()));
        }
    }

    #[inline(always)]
    fn san(&mut self, _text: &'a [u8], _token: &MoveToken, _span: Span) {
        self.summary.moves += 1;
    }

    fn outcome(&mut self, outcome: Outcome, _span: Span) {
        self.summary.result = Some(outcome);
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        if matches!(error.kind, ParsePgnErrorKind::BadMove(_)) {
            self.summary.moves += 1;
        }
        self.summary.errors += 1;
        (self.report)(error);
    }

    fn end_game(&mut self) -> SyntaxSummary {
        self.summary
    }
}

impl ParsePgnError {
    /// The error with its position in the input, for messages of the shape
    /// `line:col: game N, at `token`: reason`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{RawGame, parse_game};
    /// let game = parse_game(&RawGame::from_bytes(b"[Event \"x\"]\n1. e4 ] e5 *"));
    /// let message = game.errors[0].located(&game).to_string();
    /// assert_eq!(message, "2:7: game 1, at `]`: unexpected character `]`");
    /// ```
    pub fn located<'e>(&'e self, game: &'e Game<'_>) -> Located<'e> {
        let (line, column) = game.line_col(self.span);
        self.located_at(game, line, column)
    }

    /// Like [`located`](Self::located), with the line and column from an
    /// `index` of the game's text: for reporting many errors of one game in
    /// time linear in its size.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{LineIndex, RawGame, parse_game};
    /// let game = parse_game(&RawGame::from_bytes(b"[Event \"x\"]\n1. e4 ] e5 ] *"));
    /// let index = LineIndex::new(game.source, game.first_line);
    /// let messages: Vec<String> =
    ///     game.errors.iter().map(|e| e.located_with(&game, &index).to_string()).collect();
    /// assert_eq!(messages[1], "2:12: game 1, at `]`: unexpected character `]`");
    /// ```
    pub fn located_with<'e>(&'e self, game: &'e Game<'_>, index: &LineIndex) -> Located<'e> {
        let (line, column) = index.line_col(self.span);
        self.located_at(game, line, column)
    }

    fn located_at<'e>(&'e self, game: &'e Game<'_>, line: u64, column: u64) -> Located<'e> {
        let token = self.span.slice(game.source);
        Located {
            error: self,
            number: game.number,
            line,
            column,
            token: &token[..token.len().min(40)],
        }
    }
}

/// A [`ParsePgnError`] with its line, column, game number and token; see
/// [`ParsePgnError::located`].
#[derive(Debug, Clone, Copy)]
pub struct Located<'e> {
    error: &'e ParsePgnError,
    number: u64,
    line: u64,
    column: u64,
    token: &'e [u8],
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: game {}, at `{}`: {}",
            self.line,
            self.column,
            self.number,
            crate::encoding::visible(self.token).trim_end(),
            self.error.kind.message(self.token)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Game<'_> {
        parse_game(&RawGame::from_bytes(text))
    }

    fn texts<'a>(line: &Line<'a>) -> Vec<&'a [u8]> {
        line.moves.iter().map(|m| m.text).collect()
    }

    #[test]
    fn tree_shape() {
        let game =
            parse(b"{pre} 1.e4 {a} (1.d4 {b} d5 (1...Nf6) {c}) {d} e5 $1 ! (=) 2.Nf3 {end} *");
        let main = &game.mainline;
        assert_eq!(texts(main), [&b"e4"[..], b"e5", b"Nf3"]);
        assert_eq!(main.moves[0].comments_before[0].text, b"pre");
        assert_eq!(main.moves[0].comments_after[0].text, b"a");
        let var = &main.moves[0].variations[0];
        assert_eq!(texts(var), [&b"d4"[..], b"d5"]);
        assert_eq!(var.moves[0].comments_after[0].text, b"b");
        assert_eq!(texts(&var.moves[1].variations[0]), [&b"Nf6"[..]]);
        assert_eq!(var.trailing_comments[0].text, b"c");
        assert_eq!(main.moves[1].comments_before[0].text, b"d");
        assert_eq!(main.moves[1].nags, [1, 1]);
        assert!(main.moves[1].draw_offer);
        assert_eq!(main.moves[2].comments_after[0].text, b"end");
        assert_eq!(game.result.map(|r| r.outcome), Some(Outcome::Unknown));
    }

    #[test]
    fn comments_between_variations_wait_for_their_lines_next_move() {
        let game = parse(
            b"1. e4 e5 2. Nf3 (2. f4) {between} (2. Bc4 {in} (2. d4) {inner}) {after} 2... Nc6 *",
        );
        let main = &game.mainline;
        let texts_of = |comments: &[Comment<'static>]| -> Vec<&'static [u8]> {
            comments.iter().map(|c| c.text).collect()
        };
        assert_eq!(
            texts_of(&main.moves[3].comments_before),
            [&b"between"[..], b"after"]
        );
        let second = &main.moves[2].variations[1];
        assert!(second.moves[0].comments_before.is_empty());
        assert_eq!(texts_of(&second.moves[0].comments_after), [&b"in"[..]]);
        assert_eq!(texts_of(&second.trailing_comments), [&b"inner"[..]]);
    }

    #[test]
    fn errors_are_reported_with_spans() {
        use ParsePgnErrorKind as E;
        let cases: &[(&[u8], &[E])] = &[
            (b"1. e4 (", &[E::UnclosedVariation]),
            (b"1. e4 )", &[E::UnmatchedParen]),
            (b"(1. e4) 1. d4", &[E::VariationWithoutMove]),
            (b"$1 e4", &[E::NagWithoutMove]),
            (b"e4 {open", &[E::UnterminatedComment]),
            (b"e4 1-0 e5", &[E::AfterResult]),
            (b"e4 1-0 0-1", &[E::SecondResult]),
            (b"e4 (e5 1-0)", &[E::ResultInVariation]),
            (b"e4\x00", &[E::BinaryData]),
            (b"e4 ((((e5))))", &[E::VariationWithoutMove]),
            (
                b"exd6 e.p. (e4) e.p. e.p.",
                &[E::UnexpectedByte, E::UnexpectedByte],
            ),
            (
                b"e.p. e4 (d4 (c4 (b4))) (d4 e.p.",
                &[E::UnexpectedByte, E::UnclosedVariation],
            ),
        ];
        for &(text, expected) in cases {
            let game = parse(text);
            let kinds: Vec<E> = game
                .errors
                .iter()
                .map(|e| e.kind)
                .filter(|k| !matches!(k, E::BadMove(_)))
                .collect();
            assert_eq!(kinds, expected, "{}", String::from_utf8_lossy(text));
        }
        let mut checker = SyntaxChecker::new(ParseOptions {
            max_depth: 2,
            ..ParseOptions::default()
        });
        for &(text, _) in cases {
            let raw = RawGame::from_bytes(text);
            let mut checked = Vec::new();
            checker.check(&raw, |e| checked.push(e));
            let expected = parse_game_with(
                &raw,
                &ParseOptions {
                    max_depth: 2,
                    ..ParseOptions::default()
                },
            )
            .errors;
            assert_eq!(checked, expected, "{}", String::from_utf8_lossy(text));
        }
        let game = parse(b"[A \"1\"]\n1. e4 (");
        let error = game.errors.iter().find(|e| e.kind == E::UnclosedVariation);
        assert_eq!(error.map(|e| game.line_col(e.span)), Some((2, 7)));
    }

    /// Any `max_depth` is safe: the tree is capped at [`MAX_TREE_DEPTH`],
    /// and at that depth a game is written, cloned, compared and dropped
    /// on a thread with a quarter of the default 2 MiB stack. `usize::MAX`
    /// and 50,000 nested variations used to overflow the stack in the
    /// writer.
    #[test]
    fn regression_any_max_depth_gives_a_tree_that_can_be_written() {
        use crate::pgn::{TagSelection, WriteOptions, write_game};
        const NESTED: usize = 50_000;
        let mut text = b"1. e4 ".to_vec();
        for _ in 0..NESTED {
            text.extend_from_slice(b"(1. d4 ");
        }
        text.extend(std::iter::repeat_n(b')', NESTED));
        text.extend_from_slice(b" *");
        let run = move || {
            let raw = RawGame::from_bytes(&text);
            let game = parse_game_with(
                &raw,
                &ParseOptions {
                    max_depth: usize::MAX,
                    ..ParseOptions::default()
                },
            );
            let too_deep = ParsePgnErrorKind::TooDeep(MAX_TREE_DEPTH);
            assert!(game.errors.iter().any(|e| e.kind == too_deep));
            let mut depth = 0;
            let mut line = &game.mainline;
            while let Some(inner) = line.moves.first().and_then(|m| m.variations.first()) {
                depth += 1;
                line = inner;
            }
            assert_eq!(depth, MAX_TREE_DEPTH);
            let options = WriteOptions {
                tags: TagSelection::None,
                ..WriteOptions::default()
            };
            let mut out = Vec::new();
            write_game(&game, &mut out, &options).expect("written to memory");
            let opened = out.iter().filter(|&&b| b == b'(').count();
            assert_eq!(opened, MAX_TREE_DEPTH);
            let copy = game.clone();
            assert!(copy == game);
            drop(copy);
        };
        std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(run)
            .expect("a thread")
            .join()
            .expect("no overflow at the bound");
    }

    #[test]
    fn deep_nesting_is_bounded_not_recursive() {
        let mut text = b"e4 ".to_vec();
        for _ in 0..100_000 {
            text.extend_from_slice(b"(e4 ");
        }
        let game = parse_game_with(
            &RawGame::from_bytes(&text),
            &ParseOptions {
                max_depth: 64,
                ..ParseOptions::default()
            },
        );
        assert!(
            game.errors
                .iter()
                .any(|e| e.kind == ParsePgnErrorKind::TooDeep(64))
        );
        let mut moves = 0;
        visit_mainline(&RawGame::from_bytes(&text), |event| {
            if let MainlineEvent::Move { .. } = event {
                moves += 1;
            }
        });
        assert_eq!(moves, 1);
    }
}
