//! Errors of the PGN reader: syntax errors inside a game (with their span)
//! and errors of the framer (I/O, oversized games).

use std::io;

use crate::notation::ParseMoveTokenError;
use crate::pgn::span::Span;

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
    /// the value runs to the last `"` before the `]`. The tag is read: a
    /// recovered finding ([`is_recovered`](Self::is_recovered)).
    #[error("unescaped quote in tag value")]
    UnescapedQuote,
    /// A tag value that runs over a line end into the next line, which
    /// closes it and its tag pair (`[Event "A long` / `name"]`): a PGN
    /// string holds no line break. The tag section goes on after it.
    #[error("tag value runs over a line end")]
    TagOverLines,
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
    /// Debris a lenient reader skipped: a token in move position that is
    /// no move, a character that starts no token, a `$` without a number
    /// ([`Reader::lenient`](crate::pgn::Reader::lenient)). A recovered
    /// finding ([`is_recovered`](Self::is_recovered)).
    #[error("skipped token")]
    SkippedToken,
    /// A move written right after the one before it in one token
    /// (`B1d3d7-d5`), read as a move of its own by a lenient reader. A
    /// recovered finding ([`is_recovered`](Self::is_recovered)).
    #[error("move glued to the one before it")]
    GluedMove,
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
