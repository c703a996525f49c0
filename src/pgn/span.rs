//! Byte spans: where a token came from.
//!
//! Spans are byte offsets into one game's text ([`RawGame::bytes`]); add the
//! game's [`RawGame::offset`] for a position in the file. Lines and columns
//! are computed only when a position is printed ([`Span::line_col`]).
//!
//! [`RawGame::bytes`]: crate::pgn::RawGame::bytes
//! [`RawGame::offset`]: crate::pgn::RawGame::offset

use std::cell::Cell;
use std::ops::Range;

/// A half-open byte range `start..end` inside one game's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span as a range, for slicing.
    #[inline]
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The bytes of `source` this span covers (empty if out of range).
    #[inline]
    pub fn slice(self, source: &[u8]) -> &[u8] {
        source.get(self.range()).unwrap_or_default()
    }

    /// The 1-based line and column of the span's start in `source`, whose
    /// first byte is on line `first_line`.
    ///
    /// Line ends are LF, CRLF and lone CR; columns count characters (see
    /// [`LineIndex::line_col`]). Each call
    /// scans `source` up to the span: to locate many spans of one game, use
    /// a [`LineIndex`].
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::Span;
    /// let text = b"[Event \"x\"]\r\n\r\n1. e4 *";
    /// assert_eq!(Span::new(18, 20).line_col(text, 1), (3, 4));
    /// ```
    pub fn line_col(self, source: &[u8], first_line: u64) -> (u64, u64) {
        let before = source.get(..self.start).unwrap_or(source);
        let mut line = first_line;
        let mut line_start = 0;
        let mut i = 0;
        while let Some(found) = memchr::memchr2(b'\n', b'\r', &before[i..]) {
            let at = i + found;
            let crlf = before[at] == b'\r' && source.get(at + 1) == Some(&b'\n');
            i = at + 1;
            if !crlf {
                line = line.saturating_add(1);
                line_start = i;
            }
        }
        (line, column(source, line_start, self.start))
    }
}

/// The 1-based column of `at` on the line that starts at `line_start`,
/// counted in characters: UTF-8 characters where the text before `at` on
/// that line is UTF-8, else one per byte (Windows-1252, as
/// [`crate::encoding::decode`] reads it). A tab counts as one.
fn column(source: &[u8], line_start: usize, at: usize) -> u64 {
    let before = source.get(line_start..at).unwrap_or_default();
    let chars = match std::str::from_utf8(before) {
        Ok(text) => text.chars().count(),
        Err(_) => before.len(),
    };
    chars as u64 + 1
}

/// The line starts of one game's text, for locating many spans: built in
/// one pass, then each [`line_col`](LineIndex::line_col) is a binary
/// search, and the columns of spans given in input order are counted in
/// one pass over each line. [`Span::line_col`] scans the text before the
/// span on every call, so locating every error of a game with it takes
/// time quadratic in the game's size; a game of a million bad tokens
/// would never finish.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{LineIndex, Span};
/// let text = b"[Event \"x\"]\r\n\r\n1. e4 *";
/// let index = LineIndex::new(text, 1);
/// assert_eq!(index.line_col(Span::new(18, 20)), (3, 4));
/// assert_eq!(index.line_col(Span::new(18, 20)), Span::new(18, 20).line_col(text, 1));
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    source: &'a [u8],
    first_line: u64,
    /// Columns of the first line start here (its indentation before the
    /// text).
    first_column: u64,
    /// Offset of the first byte after each line end (LF, CRLF, lone CR).
    starts: Vec<usize>,
    /// The last column counted: the next span on the same line, further
    /// on, is counted from there. Spans come in input order, so the
    /// columns of many spans on one long line take one pass over it.
    last: Cell<Counted>,
}

/// Characters counted on a line from its start up to `at`.
#[derive(Debug, Clone, Copy)]
struct Counted {
    line_start: usize,
    at: usize,
    chars: u64,
    /// Whether the text counted is UTF-8 (else a character is a byte).
    utf8: bool,
}

impl Counted {
    /// Nothing counted yet on the line that starts at `line_start`.
    fn start(line_start: usize) -> Counted {
        Counted {
            line_start,
            at: line_start,
            chars: 0,
            utf8: true,
        }
    }
}

impl PartialEq for LineIndex<'_> {
    fn eq(&self, other: &LineIndex<'_>) -> bool {
        (
            self.source,
            self.first_line,
            self.first_column,
            &self.starts,
        ) == (
            other.source,
            other.first_line,
            other.first_column,
            &other.starts,
        )
    }
}

impl Eq for LineIndex<'_> {}

impl<'a> LineIndex<'a> {
    /// Indexes `source`, whose first byte is on line `first_line`.
    pub fn new(source: &'a [u8], first_line: u64) -> LineIndex<'a> {
        let starts = memchr::memchr2_iter(b'\n', b'\r', source)
            .filter(|&at| source[at] == b'\n' || source.get(at + 1) != Some(&b'\n'))
            .map(|at| at + 1)
            .collect();
        LineIndex {
            source,
            first_line,
            first_column: 1,
            starts,
            last: Cell::new(Counted::start(0)),
        }
    }

    /// Indexes a game's text, whose first byte is at the game's line and
    /// column ([`RawGame::first_column`]: an indented first line).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{LineIndex, RawGame, Span};
    /// let raw = RawGame { first_line: 7, first_column: 3, ..RawGame::from_bytes(b"[A \"b\"] x\ny") };
    /// let index = LineIndex::of_game(&raw);
    /// assert_eq!(index.line_col(Span::new(8, 9)), (7, 11));
    /// assert_eq!(index.line_col(Span::new(10, 11)), (8, 1));
    /// ```
    ///
    /// [`RawGame::first_column`]: crate::pgn::RawGame::first_column
    pub fn of_game(raw: &crate::pgn::RawGame<'a>) -> LineIndex<'a> {
        LineIndex {
            first_column: raw.first_column.max(1),
            ..LineIndex::new(raw.bytes, raw.first_line)
        }
    }

    /// The 1-based line and column of `span`'s start, as
    /// [`Span::line_col`] computes them.
    ///
    /// Columns count characters, not bytes: UTF-8 characters where the
    /// line's text before the span is UTF-8, else one per byte (a
    /// Windows-1252 text); a tab counts as one.
    pub fn line_col(&self, span: Span) -> (u64, u64) {
        let before = self.starts.partition_point(|&s| s <= span.start);
        let line_start = before.checked_sub(1).map_or(0, |i| self.starts[i]);
        let indent = if before == 0 {
            self.first_column - 1
        } else {
            0
        };
        (
            self.first_line.saturating_add(before as u64),
            self.column(line_start, span.start) + indent,
        )
    }

    /// [`column`], from the last column counted when `at` is further on
    /// the same line.
    fn column(&self, line_start: usize, at: usize) -> u64 {
        let last = self.last.get();
        let from = if last.line_start == line_start && last.at <= at {
            last
        } else {
            Counted::start(line_start)
        };
        let text = self.source.get(from.at..at).unwrap_or_default();
        // Text after UTF-8 text starts at a character boundary, so the
        // whole is UTF-8 when both parts are.
        let now = match std::str::from_utf8(text) {
            Ok(text) if from.utf8 => Counted {
                at,
                chars: from.chars + text.chars().count() as u64,
                ..from
            },
            _ => Counted {
                at,
                chars: (at - line_start) as u64,
                utf8: false,
                ..from
            },
        };
        self.last.set(now);
        now.chars + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_handles_every_line_end() {
        let cases: &[(&[u8], usize, (u64, u64))] = &[
            (b"abc", 0, (1, 1)),
            (b"abc", 2, (1, 3)),
            (b"a\nb", 2, (2, 1)),
            (b"a\r\nb", 3, (2, 1)),
            (b"a\rb", 2, (2, 1)),
            (b"a\r\n\rb\nc", 6, (4, 1)),
            // Columns count characters: UTF-8, else one per byte.
            ("é{ü} X".as_bytes(), 7, (1, 6)),
            (b"\t\tX", 2, (1, 3)),
            ("x\r\n  {€} X".as_bytes(), 11, (2, 7)),
            (b"\xE9{\xFC} X", 5, (1, 6)),
        ];
        for &(text, start, expected) in cases {
            let span = Span::new(start, start);
            assert_eq!(span.line_col(text, 1), expected, "{text:?}");
            assert_eq!(LineIndex::new(text, 1).line_col(span), expected, "{text:?}");
        }
    }

    #[test]
    fn columns_counted_on_from_the_last_span_agree_with_a_fresh_count() {
        // Long lines of UTF-8 text, one with a Windows-1252 byte halfway:
        // its columns turn to bytes from there on.
        let mut text = "é ".repeat(300).into_bytes();
        text.extend_from_slice(b"\n");
        text.extend("ü ".repeat(100).bytes());
        text.push(0xE9);
        text.extend("€ x\r\n".repeat(100).bytes());
        let starts: Vec<usize> = (0..=text.len())
            .filter(|&i| std::str::from_utf8(&text[..i]).is_ok() || text[i - 1] == b' ')
            .collect();
        let index = LineIndex::new(&text, 5);
        // In input order (each column counted on from the last), then
        // backwards and by leaps (counted again from the line's start).
        let backwards = starts.iter().rev().copied();
        let leaps = starts
            .iter()
            .step_by(7)
            .chain(starts.iter().step_by(3))
            .copied();
        for start in starts.iter().copied().chain(backwards).chain(leaps) {
            let span = Span::new(start, start);
            assert_eq!(index.line_col(span), span.line_col(&text, 5), "at {start}");
        }
    }
}
