//! Errors of the PGN reader: syntax errors inside a game (with their span)
//! and errors of the framer (I/O, oversized games).

use std::fmt;
use std::io;

use crate::notation::ParseMoveTokenError;
use crate::pgn::game::Game;
use crate::pgn::span::{LineIndex, Span};

/// What is wrong with a piece of PGN syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePgnErrorKind {
    /// The game contains NUL bytes: binary data, not PGN. Nothing is parsed.
    #[error("binary data (NUL byte) in the game")]
    BinaryData,
    /// A `[` that does not open a well-formed tag pair `[Name "value"]`.
    #[error("malformed tag pair")]
    MalformedTag,
    /// A tag value with an unescaped `"` inside (`[White ""Socrates""]`);
    /// the value runs to the last `"` before the `]`.
    #[error("unescaped quote in tag value")]
    UnescapedQuote,
    /// A tag pair after the movetext has begun on the same line.
    #[error("tag pair inside movetext")]
    TagInMovetext,
    /// A `{` comment without its `}`.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// A `(` variation still open at the end of the game.
    #[error("unclosed variation")]
    UnclosedVariation,
    /// A `)` without its `(`.
    #[error("unmatched `)`")]
    UnmatchedParen,
    /// Variations nested deeper than the configured bound.
    #[error("variations nested deeper than {0}")]
    TooDeep(usize),
    /// A variation before any move it could be an alternative to.
    #[error("variation before any move")]
    VariationWithoutMove,
    /// A NAG (`$n` or `!`…) before any move it could annotate.
    #[error("annotation before any move")]
    NagWithoutMove,
    /// `$` not followed by a number 0–255.
    #[error("invalid NAG")]
    BadNag,
    /// A token in move position that is not a move in any accepted spelling.
    #[error("not a move: {0}")]
    BadMove(ParseMoveTokenError),
    /// A game termination marker inside a variation.
    #[error("result inside a variation")]
    ResultInVariation,
    /// Movetext after the game termination marker.
    #[error("movetext after the result")]
    AfterResult,
    /// A second game termination marker.
    #[error("second result")]
    SecondResult,
    /// A byte that starts no PGN token (`]`, `"`, control characters …).
    #[error("unexpected character")]
    UnexpectedByte,
}

/// A syntax error in one game, with where it was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (bytes {}..{} of the game)", span.start, span.end)]
pub struct ParsePgnError {
    /// What is wrong.
    pub kind: ParsePgnErrorKind,
    /// The offending bytes, relative to the game's text.
    pub span: Span,
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
    /// assert_eq!(message, "2:7: game 1, at `]`: unexpected character");
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
    /// assert_eq!(messages[1], "2:12: game 1, at `]`: unexpected character");
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
            crate::encoding::decode(self.token).trim_end(),
            self.error.kind
        )
    }
}

/// Why the framer could not deliver a game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadPgnError {
    /// Reading the input failed; the framer delivers no further games.
    #[error("read error: {0}")]
    Io(#[from] io::Error),
    /// A game longer than the configured bound; it was skipped and reading
    /// goes on with the next game.
    #[error("game {number} (line {first_line}) is larger than {limit} bytes; skipped")]
    GameTooLarge {
        /// 1-based game number (the skipped game counts).
        number: u64,
        /// Absolute byte offset of the game's first byte.
        offset: u64,
        /// 1-based line of the game's first byte.
        first_line: u64,
        /// The bound that was exceeded.
        limit: usize,
    },
}
