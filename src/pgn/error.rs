//! Errors of the PGN reader: syntax errors inside a game (with their span)
//! and errors of the framer (I/O, oversized games).

use std::io;

use crate::encoding;
use crate::notation::ParseMoveTokenError;
use crate::pgn::span::Span;
use crate::pgn::tag::{escape, unescape};

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

impl ParsePgnErrorKind {
    /// Whether the text was read as its writer meant it despite the fault
    /// (an unescaped quote inside a tag value): a warning, the game stays
    /// valid; every other kind is an error.
    pub const fn is_recovered(self) -> bool {
        matches!(self, ParsePgnErrorKind::UnescapedQuote)
    }

    /// The message for this error found at `token` (the bytes of its span):
    /// what [`Display`](std::fmt::Display) says, with the offending token
    /// and character named, invisible characters escaped
    /// ([`encoding::visible`]).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::ParseMoveTokenError;
    /// use pgnkit::pgn::ParsePgnErrorKind;
    ///
    /// let bad = ParsePgnErrorKind::BadMove(ParseMoveTokenError::Unexpected { offset: 0 });
    /// assert_eq!(
    ///     bad.message(b"\xEF\xBB\xBF1."),
    ///     "not a move: unexpected character U+FEFF (byte order mark) at the start of `\\u{feff}1.`"
    /// );
    /// assert_eq!(
    ///     ParsePgnErrorKind::UnescapedQuote.message(br#"[Event "The "Big" Open"]"#),
    ///     r#"unescaped quote in tag value, read as [Event "The \"Big\" Open"]"#
    /// );
    /// let bad = ParsePgnErrorKind::BadMove(ParseMoveTokenError::Unexpected { offset: 1 });
    /// assert_eq!(
    ///     bad.message(b"e\x075"),
    ///     "not a move: unexpected character `\\u{7}` after `e` in `e\\u{7}5`"
    /// );
    /// ```
    pub fn message(self, token: &[u8]) -> String {
        let quoted = || encoding::visible(token);
        let place = |offset: usize| match offset {
            0 => format!("at the start of `{}`", quoted()),
            _ => format!(
                "after `{}` in `{}`",
                encoding::visible(token.get(..offset).unwrap_or(token)),
                quoted()
            ),
        };
        let character = |offset: usize| {
            first_char(token.get(offset..).unwrap_or_default())
                .map_or_else(|| "character".to_string(), encoding::character_name)
        };
        match self {
            ParsePgnErrorKind::BadMove(error) => match error {
                ParseMoveTokenError::Unexpected { offset } => format!(
                    "not a move: unexpected character {} {}",
                    character(offset),
                    place(offset)
                ),
                ParseMoveTokenError::BadPromotion { offset } => {
                    format!("not a move: invalid promotion {}", place(offset))
                }
                ParseMoveTokenError::MixedLetters { offset } => format!(
                    "not a move: piece letters from two alphabets, {} {}",
                    character(offset),
                    place(offset)
                ),
                ParseMoveTokenError::Incomplete => {
                    format!("not a move: `{}` is incomplete", quoted())
                }
                _ => self.to_string(),
            },
            ParsePgnErrorKind::UnescapedQuote => {
                match crate::pgn::grammar::lenient_tag_pair(token) {
                    Some((name, value)) => format!(
                        "unescaped quote in tag value, read as [{} \"{}\"]",
                        encoding::visible(name),
                        encoding::visible(&escape(&unescape(value)))
                    ),
                    None => self.to_string(),
                }
            }
            ParsePgnErrorKind::UnexpectedByte => {
                format!("unexpected character {}", character(0))
            }
            _ => self.to_string(),
        }
    }
}

/// The first character of `bytes`: UTF-8 where they are, else the byte
/// read as Windows-1252.
fn first_char(bytes: &[u8]) -> Option<char> {
    let chunk = bytes.utf8_chunks().next()?;
    chunk.valid().chars().next().or_else(|| {
        chunk
            .invalid()
            .first()
            .map(|&b| encoding::windows_1252_char(b))
    })
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
