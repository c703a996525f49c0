//! The messages of syntax errors: what an error found at a token says,
//! with the offending token and character named. Apart from the error
//! types, since a message reads the token again (the tag pair an
//! unescaped quote was recovered from) with the grammar.

use crate::encoding;
use crate::notation::ParseMoveTokenError;
use crate::pgn::error::ParsePgnErrorKind;
use crate::pgn::tag::{escape, unescape};

impl ParsePgnErrorKind {
    /// Whether the text was read despite the fault (an unescaped quote
    /// inside a tag value, debris a lenient reader skipped, a glued move it
    /// read): a warning,
    /// the game stays valid; every other kind is an error.
    pub const fn is_recovered(self) -> bool {
        matches!(
            self,
            ParsePgnErrorKind::UnescapedQuote
                | ParsePgnErrorKind::SkippedToken
                | ParsePgnErrorKind::GluedMove
        )
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
            ParsePgnErrorKind::SkippedToken => format!("skipped `{}`", quoted()),
            ParsePgnErrorKind::GluedMove => {
                format!("`{}` glued to the move before it, read as a move", quoted())
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
