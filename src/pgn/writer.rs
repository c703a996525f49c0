//! The PGN writer: export format (PGN standard, section 8), always in
//! UTF-8 (tag values and comments read as Windows-1252 are decoded).

use crate::encoding;
use std::borrow::Cow;
use std::io::{self, Write};

use crate::notation::{MoveText, Suffix};
use crate::pgn::game::{Game, Line, MoveNode};
use crate::pgn::grammar::Outcome;
use crate::pgn::grammar::fen_move_number;
use crate::pgn::scan::is_plain_line;
use crate::pgn::tag::Tag;
use crate::pgn::tag::{escape, unescape};
use crate::pgn::visitor::{Comment, CommentKind};

/// The seven tag roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Which tags [`write_game`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagSelection {
    /// The seven tag roster (missing ones filled in), then all other tags.
    All,
    /// Only the seven tag roster.
    Roster,
    /// No tags at all (movetext only).
    None,
}

/// What [`write_game`] writes and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Maximum line length of the movetext (a longer comment is not broken).
    pub width: usize,
    /// Which tags.
    pub tags: TagSelection,
    /// Write comments.
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
    /// Write NAGs (as `$n`) and draw offers.
    pub nags: bool,
    /// Write move numbers (`1.`, `1...`).
    pub move_numbers: bool,
    /// Write the termination marker (`1-0`, `*` …) after the movetext.
    pub result: bool,
    /// End each game with a blank line (otherwise with one line break:
    /// with no tags and an unbounded width, one line per game).
    pub blank_line: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            width: 80,
            tags: TagSelection::All,
            comments: true,
            variations: true,
            nags: true,
            move_numbers: true,
            result: true,
            blank_line: true,
        }
    }
}

/// A tag ready for export: name and unescaped value.
pub type ExportTag<'a> = (Cow<'a, [u8]>, Cow<'a, [u8]>);

/// The tags in export order: the seven tag roster (the first of each name;
/// `?`, `????.??.??` or the result for missing ones), then every other tag
/// in input order. Values are unescaped; a `Result` in a termination
/// marker's spelling (`1/2`) is written in export format (`1/2-1/2`).
pub fn export_tags<'a>(game: &Game<'a>, selection: TagSelection) -> Vec<ExportTag<'a>> {
    export_tag_list(&game.tags, game.result.map(|r| r.outcome), selection)
}

/// [`export_tags`] for a game known by its tags and its termination
/// marker only (as a streaming writer knows it).
pub fn export_tag_list<'a>(
    tags: &[Tag<'a>],
    result: Option<Outcome>,
    selection: TagSelection,
) -> Vec<ExportTag<'a>> {
    let mut out = Vec::new();
    if selection == TagSelection::None {
        return out;
    }
    let mut used = vec![false; tags.len()];
    for name in SEVEN_TAG_ROSTER {
        match tags.iter().position(|t| t.is(name)) {
            Some(i) => {
                used[i] = true;
                let result = (name == "Result").then(|| Outcome::from_tag(tags[i].value));
                let value = match result.flatten() {
                    Some(outcome) => Cow::Borrowed(outcome.as_str().as_bytes()),
                    None => tags[i].unescaped(),
                };
                out.push((Cow::Borrowed(tags[i].name), value));
            }
            None => {
                let value: &[u8] = match name {
                    "Date" => b"????.??.??",
                    "Result" => result.map_or("*", Outcome::as_str).as_bytes(),
                    _ => b"?",
                };
                out.push((Cow::Owned(name.as_bytes().to_vec()), Cow::Borrowed(value)));
            }
        }
    }
    if selection == TagSelection::All {
        for (tag, used) in tags.iter().zip(used) {
            if !used {
                out.push((Cow::Borrowed(tag.name), tag.unescaped()));
            }
        }
    }
    out
}

/// The draw-offer mark as pgnkit writes it: a comment, `{(=)}`. The mark
/// `(=)` as games are often written opens a variation in other readers
/// (python-chess drops it, others reject the game); as a comment every
/// reader keeps it, and pgnkit reads it back as the mark.
pub const DRAW_OFFER: &[u8] = b"{(=)}";

/// Writes the tag section of a game in export format ([`export_tag_list`]
/// order, escapes restored), then the blank line before the movetext; with
/// no tag selected, nothing.
pub fn write_tags(
    tags: &[Tag<'_>],
    result: Option<Outcome>,
    selection: TagSelection,
    out: &mut Vec<u8>,
) {
    if selection == TagSelection::None {
        return;
    }
    // In place, the order of [`export_tag_list`]: a conversion writes a
    // dozen tags a game, and lists, escapes and decoding made for each
    // would cost more than the game's moves.
    // The first tag of each roster name, found in one pass over the tags.
    let mut roster = [usize::MAX; SEVEN_TAG_ROSTER.len()];
    for (i, tag) in tags.iter().enumerate() {
        if let Some(slot) = roster_slot(tag.name)
            && roster[slot] == usize::MAX
        {
            roster[slot] = i;
        }
    }
    for (&i, name) in roster.iter().zip(SEVEN_TAG_ROSTER) {
        match tags.get(i) {
            // A result in a marker's spelling (`1/2`) is written as export
            // format writes it, as its marker is.
            Some(tag) if name == "Result" => {
                let value =
                    Outcome::from_tag(tag.value).map_or(tag.value, |o| o.as_str().as_bytes());
                write_tag(tag.name, value, out);
            }
            Some(tag) => write_tag(tag.name, tag.value, out),
            None => {
                let value: &[u8] = match name {
                    "Date" => b"????.??.??",
                    "Result" => result.map_or("*", Outcome::as_str).as_bytes(),
                    _ => b"?",
                };
                write_tag(name.as_bytes(), value, out);
            }
        }
    }
    if selection == TagSelection::All {
        for (i, tag) in tags.iter().enumerate() {
            if roster_slot(tag.name).is_none_or(|slot| roster[slot] != i) {
                write_tag(tag.name, tag.value, out);
            }
        }
    }
    out.push(b'\n');
}

/// The place of a tag name in [`SEVEN_TAG_ROSTER`], if it is one.
#[inline]
fn roster_slot(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        _ => return None,
    })
}

/// Writes one tag pair, its value (escaped as read) in UTF-8 and escaped
/// for export.
#[inline]
fn write_tag(name: &[u8], value: &[u8], out: &mut Vec<u8>) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    // Values are short: one loop costs less than the calls of a search.
    if value
        .iter()
        .all(|&b| b.is_ascii() && b != b'\\' && b != b'"')
    {
        // Nearly every value: written as read.
        out.extend_from_slice(value);
    } else {
        let value = unescape(value);
        out.extend_from_slice(&escape(encoding::decode(&value).as_bytes()));
    }
    out.extend_from_slice(b"\"]\n");
}

/// The ply count before a game's first move, from its `FEN` tag's side to
/// move and fullmove number (0 without one): what move numbers count from.
pub fn start_ply(tags: &[Tag<'_>]) -> u64 {
    tags.iter()
        .find(|t| t.is("FEN"))
        .and_then(|t| fen_move_number(&unescape(t.value)))
        .map_or(0, |(fullmove, black)| {
            (u64::from(fullmove) - 1) * 2 + u64::from(black)
        })
}

/// The game termination marker export format ends the movetext with: the
/// one written, else the result a `Result` tag spells
/// ([`Outcome::from_tag`]), else `*`.
pub fn result_text(tags: &[Tag<'_>], result: Option<Outcome>) -> &'static str {
    result
        .or_else(|| Outcome::from_tag(tags.iter().find(|t| t.is("Result"))?.value))
        .map_or("*", Outcome::as_str)
}

/// Writes one game in export format, followed by a blank line.
///
/// # Errors
/// The writer's I/O errors.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{RawGame, WriteOptions, TagSelection, parse_game, write_game};
/// let game = parse_game(&RawGame::from_bytes(b"1.e4 {hi} e5 (1...c5) 2.Nf3 1-0"));
/// let mut out = Vec::new();
/// let options = WriteOptions { tags: TagSelection::None, ..WriteOptions::default() };
/// write_game(&game, &mut out, &options)?;
/// assert_eq!(out, b"1. e4 {hi} 1... e5 (1... c5) 2. Nf3 1-0\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_game(game: &Game<'_>, out: &mut impl Write, options: &WriteOptions) -> io::Result<()> {
    emit(game, out, options, None, None)
}

/// Gives the text to write for a move node ([`write_game_with`]).
pub type MoveTextFn<'f> = dyn FnMut(&MoveNode<'_>) -> Cow<'static, [u8]> + 'f;

/// Writes one game like [`write_game`], with each move's text given by
/// `move_text` (called once per written move, in the order written). A
/// separate `e.p.` mark of the input is not written: the text says it all.
///
/// # Errors
/// The writer's I/O errors.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{RawGame, WriteOptions, TagSelection, parse_game, write_game_with};
/// let game = parse_game(&RawGame::from_bytes(b"1.e4 e5 *"));
/// let mut out = Vec::new();
/// let options = WriteOptions { tags: TagSelection::None, ..WriteOptions::default() };
/// write_game_with(&game, &mut out, &options, &mut |node| node.text.to_ascii_uppercase().into())?;
/// assert_eq!(out, b"1. E4 E5 *\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_game_with(
    game: &Game<'_>,
    out: &mut impl Write,
    options: &WriteOptions,
    move_text: &mut MoveTextFn<'_>,
) -> io::Result<()> {
    emit(game, out, options, Some(move_text), None)
}

/// Gives a comment to write after a move node and its own comments
/// ([`write_game_noted`]).
pub type NoteFn<'f> = dyn FnMut(&MoveNode<'_>) -> Option<Cow<'static, [u8]>> + 'f;

/// Writes one game like [`write_game_with`], with a comment `note` gives
/// after each written move, its NAGs and its own comments (before its
/// variations).
///
/// # Errors
/// The writer's I/O errors.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{RawGame, WriteOptions, TagSelection, parse_game, write_game_noted};
/// let game = parse_game(&RawGame::from_bytes(b"1.e4 {a} e5 *"));
/// let mut out = Vec::new();
/// let options = WriteOptions { tags: TagSelection::None, ..WriteOptions::default() };
/// let mut text = |node: &pgnkit::pgn::MoveNode<'_>| node.text.to_vec().into();
/// let mut note = |node: &pgnkit::pgn::MoveNode<'_>| Some(node.text.to_ascii_uppercase().into());
/// write_game_noted(&game, &mut out, &options, &mut text, &mut note)?;
/// assert_eq!(out, b"1. e4 {a} {E4} 1... e5 {E5} *\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_game_noted(
    game: &Game<'_>,
    out: &mut impl Write,
    options: &WriteOptions,
    move_text: &mut MoveTextFn<'_>,
    note: &mut NoteFn<'_>,
) -> io::Result<()> {
    emit(game, out, options, Some(move_text), Some(note))
}

fn emit<'f>(
    game: &Game<'_>,
    out: &mut impl Write,
    options: &WriteOptions,
    move_text: Option<&'f mut MoveTextFn<'f>>,
    note: Option<&'f mut NoteFn<'f>>,
) -> io::Result<()> {
    let mut text = Vec::with_capacity(game.source.len() + 256);
    let result = game.result.map(|r| r.outcome);
    write_tags(&game.tags, result, options.tags, &mut text);
    let start_ply = start_ply(&game.tags);
    let mut emitter = Emitter {
        w: MovetextWriter::new(&mut text, options.width),
        move_text,
        note,
    };
    emitter.line(&game.mainline, start_ply, options);
    emitter.w.finish_with(
        options.result.then(|| result_text(&game.tags, result)),
        options.blank_line,
    );
    out.write_all(&text)
}

/// Movetext tokens into lines of at most `width` bytes, as export format
/// lays them out: what [`write_game`] uses, for writers that produce the
/// movetext as they go (e.g. [`crate::convert`]'s streaming converter).
///
/// # Examples
/// ```
/// use pgnkit::pgn::MovetextWriter;
/// let mut out = Vec::new();
/// let mut w = MovetextWriter::new(&mut out, 80);
/// w.number(0, true);
/// w.token(b"e4");
/// w.number(1, false);
/// w.token(b"e5");
/// w.open_variation();
/// w.number(1, true);
/// w.token(b"c5");
/// w.close_variation();
/// w.finish("*");
/// assert_eq!(out, b"1. e4 e5 (1... c5) *\n\n");
/// ```
#[derive(Debug)]
pub struct MovetextWriter<'o> {
    out: &'o mut Vec<u8>,
    line_start: usize,
    width: usize,
    /// Variations opened whose `(` waits for the next token, to go on its
    /// line glued to it.
    opens: usize,
    /// Where the last token starts (after its space or line break): a `)`
    /// that does not fit takes it to the next line.
    last_start: usize,
}

impl<'o> MovetextWriter<'o> {
    /// A writer appending to `out`, which must be empty or end with a line
    /// break (the movetext starts a line).
    pub fn new(out: &'o mut Vec<u8>, width: usize) -> MovetextWriter<'o> {
        MovetextWriter {
            line_start: out.len(),
            out,
            width: width.max(1),
            opens: 0,
            last_start: 0,
        }
    }

    fn column(&self) -> usize {
        self.out.len() - self.line_start
    }

    /// Writes whole lines before the movetext (a tag section) with
    /// `write`, which must leave the output empty or ending with a line
    /// break; the movetext starts after them, at the offset returned.
    pub fn lines(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> usize {
        write(self.out);
        self.line_start = self.out.len();
        self.line_start
    }

    fn newline(&mut self) {
        self.out.push(b'\n');
        self.line_start = self.out.len();
    }

    /// Writes one token, after a space or a line break (none after `(`).
    /// A token holds no line break (moves, numbers, NAGs, markers).
    #[inline]
    pub fn token(&mut self, token: &[u8]) {
        self.space_for(token.len());
        self.out.extend_from_slice(token);
    }

    /// Writes a move's text as a token ([`token`](Self::token)).
    #[inline(always)]
    pub fn move_text(&mut self, text: &MoveText) {
        match text.head() {
            Some(head) => self.token_padded(head, text.len()),
            None => self.token(text.as_bytes()),
        }
    }

    /// Writes the first `len` bytes of `padded` as a token. Moves and
    /// numbers are a few bytes: copying the whole fixed-size buffer and
    /// cutting it back is a few vector moves, where a copy of `len` bytes
    /// is a call to memcpy.
    #[inline(always)]
    fn token_padded<const N: usize>(&mut self, padded: &[u8; N], len: usize) {
        self.space_for(len);
        let end = self.out.len() + len.min(N);
        self.out.extend_from_slice(padded);
        self.out.truncate(end);
    }

    /// The space or line break before a token of `len` bytes (none at
    /// the start of a line), and the `(` of variations opened before it.
    #[inline]
    fn space_for(&mut self, len: usize) {
        if self.opens > 0 {
            return self.open_before(len);
        }
        self.separate(len);
    }

    /// The space, or the line break when `len` more bytes would pass the
    /// width (nothing at the start of a line); the next token starts
    /// after it.
    #[inline(always)]
    fn separate(&mut self, len: usize) {
        let column = self.column();
        if column > 0 {
            if column + 1 + len > self.width {
                self.newline();
            } else {
                self.out.push(b' ');
            }
        }
        self.last_start = self.out.len();
    }

    /// [`space_for`](Self::space_for) a token that opens variations: the
    /// `(`s count on its line.
    #[cold]
    fn open_before(&mut self, len: usize) {
        let opens = std::mem::take(&mut self.opens);
        self.separate(opens + len);
        self.out.resize(self.out.len() + opens, b'(');
    }

    /// Writes a comment with its delimiters (a `;` comment ends its line),
    /// its text in UTF-8 ([`encoding::decode`]: Windows-1252 text is
    /// decoded).
    pub fn comment(&mut self, text: &[u8], kind: CommentKind) {
        if kind == CommentKind::Brace && is_plain_line(text) {
            // Nearly every comment (engine output, clocks): ASCII and one
            // line, written as read.
            self.space_for(text.len() + 2);
            self.out.push(b'{');
            self.out.extend_from_slice(text);
            self.out.push(b'}');
            return;
        }
        let text = encoding::decode(text);
        let text = text.as_bytes();
        match kind {
            CommentKind::Brace => self.token_of(b"{", text, b"}"),
            CommentKind::Line => {
                self.token_of(b";", text, b"");
                self.newline();
            }
        }
    }

    /// Writes the token `open`, `text`, `close` (the delimiters hold no
    /// line break), in place: no buffer per comment.
    fn token_of(&mut self, open: &[u8], text: &[u8], close: &[u8]) {
        self.space_for(open.len() + text.len() + close.len());
        self.out.extend_from_slice(open);
        self.out.extend_from_slice(text);
        self.out.extend_from_slice(close);
        // Moves and numbers are a few bytes: a plain loop costs less than
        // setting up the vector search, which pays off for long comments.
        let newline = if text.len() < 32 {
            text.iter().rposition(|&b| b == b'\n')
        } else {
            memchr::memrchr(b'\n', text)
        };
        if let Some(i) = newline {
            self.line_start = self.out.len() - close.len() - (text.len() - i - 1);
        }
    }

    /// Writes the move number of the move at `ply` (0: White's first):
    /// `12.` before White's moves, `12...` before Black's when
    /// `black_dots` (after an interruption), nothing otherwise.
    #[inline(always)]
    pub fn number(&mut self, ply: u64, black_dots: bool) {
        let dots = if ply.is_multiple_of(2) {
            1
        } else if black_dots {
            3
        } else {
            return;
        };
        let number = ply / 2 + 1;
        if number >= 100 {
            return self.long_number(number, dots);
        }
        // Nearly every move number: two digits at most, in one word.
        let (tens, ones) = (b'0' + (number / 10) as u8, b'0' + (number % 10) as u8);
        let (buf, len) = if number < 10 {
            ([ones, b'.', b'.', b'.', 0, 0, 0, 0], 1 + dots)
        } else {
            ([tens, ones, b'.', b'.', b'.', 0, 0, 0], 2 + dots)
        };
        self.token_padded(&buf, len);
    }

    /// [`number`](Self::number) from 100 on.
    #[cold]
    fn long_number(&mut self, number: u64, dots: usize) {
        let mut buf = [0u8; 24];
        let len = decimal(number, dots, &mut buf);
        self.token_padded(&buf, len);
    }

    /// Writes a NAG as `$n`.
    pub fn nag(&mut self, nag: u8) {
        let mut buf = [0; 24];
        let len = decimal(u64::from(nag), 0, &mut buf);
        self.token_of(b"$", &buf[..len], b"");
    }

    /// Opens a variation: `(`, written glued to the next token.
    pub fn open_variation(&mut self) {
        self.opens += 1;
    }

    /// Closes a variation: `)` right after its last token (or its `(`,
    /// if it is empty). When the `)` would pass the width, the last token
    /// goes to the next line with it (unless it starts its line).
    pub fn close_variation(&mut self) {
        if self.opens > 0 {
            self.space_for(1);
        } else if self.column() >= self.width
            && self.last_start > self.line_start
            && self.out.get(self.last_start - 1) == Some(&b' ')
        {
            self.out[self.last_start - 1] = b'\n';
            self.line_start = self.last_start;
        }
        self.out.push(b')');
    }

    /// Writes the termination marker and the blank line that ends a game.
    pub fn finish(self, result: &str) {
        self.finish_with(Some(result), true);
    }

    /// Ends a game: the termination marker if any, a line break, and a
    /// blank line if `blank_line`. A game with no movetext written is an
    /// empty line. Gives back the output.
    pub fn finish_with(mut self, result: Option<&str>, blank_line: bool) -> &'o mut Vec<u8> {
        if let Some(result) = result {
            self.token(result.as_bytes());
        }
        self.out.push(b'\n');
        if blank_line {
            self.out.push(b'\n');
        }
        self.out
    }
}

/// Writes `n` in decimal to the front of `buf`, then `dots` full stops
/// (at most 3); returns the length.
fn decimal(n: u64, dots: usize, buf: &mut [u8; 24]) -> usize {
    let mut len = 1;
    let mut rest = n / 10;
    while rest > 0 {
        len += 1;
        rest /= 10;
    }
    // In place, byte by byte: the copies of a few bytes would be calls to
    // memcpy.
    let mut rest = n;
    for slot in buf[..len].iter_mut().rev() {
        *slot = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    // Three stops always, cut back to `dots`: a loop of `dots` bytes
    // would become a call to memcpy.
    buf[len] = b'.';
    buf[len + 1] = b'.';
    buf[len + 2] = b'.';
    len + dots.min(3)
}

/// The tree walk of [`write_game`] over a [`MovetextWriter`].
struct Emitter<'o, 'f> {
    w: MovetextWriter<'o>,
    /// Replaces the moves' texts (and their separate `e.p.` marks).
    move_text: Option<&'f mut MoveTextFn<'f>>,
    /// Gives a comment after each move ([`write_game_noted`]).
    note: Option<&'f mut NoteFn<'f>>,
}

impl Emitter<'_, '_> {
    fn comments(&mut self, comments: &[Comment<'_>], options: &WriteOptions) -> bool {
        if !options.comments || comments.is_empty() {
            return false;
        }
        for comment in comments {
            self.w.comment(comment.text, comment.kind);
        }
        true
    }

    fn line(&mut self, line: &Line<'_>, start_ply: u64, options: &WriteOptions) {
        let mut interrupted = true;
        for (i, node) in line.moves.iter().enumerate() {
            let ply = start_ply + i as u64;
            interrupted |= self.comments(&node.comments_before, options);
            if options.move_numbers {
                self.w.number(ply, interrupted);
            }
            match self.move_text.as_mut() {
                Some(move_text) => {
                    // A caller's text may hold a line break.
                    let text = move_text(node);
                    self.w.token_of(b"", &text, b"");
                }
                None => {
                    self.w.token(node.text);
                    if let Some(mark) = node.ep_mark {
                        self.w.token(match mark.suffix {
                            None => b"e.p.",
                            Some(Suffix::Check) => b"e.p.+",
                            Some(Suffix::Checkmate) => b"e.p.#",
                        });
                    }
                }
            }
            if options.nags {
                for &nag in &node.nags {
                    self.w.nag(nag);
                }
                if node.draw_offer {
                    self.w.token(DRAW_OFFER);
                }
            }
            interrupted = self.comments(&node.comments_after, options);
            if let Some(note) = self.note.as_mut()
                && let Some(text) = note(node)
            {
                self.w.comment(&text, CommentKind::Brace);
                interrupted = true;
            }
            if options.variations {
                for variation in &node.variations {
                    self.w.open_variation();
                    self.line(variation, ply, options);
                    self.w.close_variation();
                    interrupted = true;
                }
            }
        }
        self.comments(&line.trailing_comments, options);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{RawGame, Span, parse_game};

    /// The tag section as the export tag list gives it, each value
    /// unescaped, decoded and escaped again: what [`write_tags`] writes
    /// in place.
    fn tags_by_the_list(tags: &[Tag<'_>], result: Option<Outcome>) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, value) in export_tag_list(tags, result, TagSelection::All) {
            out.extend_from_slice(b"[");
            out.extend_from_slice(&name);
            out.extend_from_slice(b" \"");
            out.extend_from_slice(&escape(encoding::decode(&value).as_bytes()));
            out.extend_from_slice(b"\"]\n");
        }
        out.push(b'\n');
        out
    }

    #[test]
    fn tags_written_in_place_are_those_of_the_export_list() {
        let values: [&[u8]; 10] = [
            b"plain",
            b"",
            br#"say \"hi\""#,
            br"back\\slash",
            b"Stra\xdfe",
            "Müller".as_bytes(),
            b"odd \\ and \" mixed",
            b"1/2",
            b" 1-0 ",
            "½-½".as_bytes(),
        ];
        let names: [&[u8]; 5] = [b"White", b"Event", b"Result", b"WhiteDays", b"Event"];
        for value in values {
            for count in 0..=names.len() {
                let tags: Vec<Tag<'_>> = names[..count]
                    .iter()
                    .map(|name| Tag {
                        name,
                        value,
                        span: Span::default(),
                    })
                    .collect();
                for result in [None, Some(Outcome::Draw)] {
                    let mut out = Vec::new();
                    write_tags(&tags, result, TagSelection::All, &mut out);
                    assert_eq!(
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&tags_by_the_list(&tags, result)),
                        "{:?}",
                        String::from_utf8_lossy(value)
                    );
                }
            }
        }
    }

    fn write(text: &[u8], options: &WriteOptions) -> String {
        let game = parse_game(&RawGame::from_bytes(text));
        let mut out = Vec::new();
        write_game(&game, &mut out, options).expect("vec write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn export_format() {
        let bare = WriteOptions {
            tags: TagSelection::None,
            ..WriteOptions::default()
        };
        let cases: &[(&[u8], WriteOptions, &str)] = &[
            (
                b"[White \"A \\\"B\\\"\"] [ECO \"C20\"] 1.e4 e5 *",
                WriteOptions::default(),
                "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                 [White \"A \\\"B\\\"\"]\n[Black \"?\"]\n[Result \"*\"]\n[ECO \"C20\"]\n\n1. e4 e5 *\n\n",
            ),
            (
                b"1.e4 e5 2.Nf3 {a} (2.f4 (2.d4 d5) exf4) 2...Nc6 $1 (=) ; line\n3.Bb5 1-0",
                bare,
                "1. e4 e5 2. Nf3 {a} (2. f4 (2. d4 d5) 2... exf4) 2... Nc6 $1 {(=)} ; line\n3. Bb5 1-0\n\n",
            ),
            (
                b"[FEN \"8/8/8/8/8/8/8/8 b - - 0 23\"] Kd2 Ke2 Kd1",
                WriteOptions { tags: TagSelection::None, ..bare },
                "23... Kd2 24. Ke2 Kd1 *\n\n",
            ),
            (
                b"[FEN \"8/8/8/8/8/8/8/8 b - - 0 4294967295\"] Kd2 Ke2",
                bare,
                "4294967295... Kd2 4294967296. Ke2 *\n\n",
            ),
            (
                b"1.e4 a6 2.e5 d5 3.exd6 ep (3.exd6e.p. Kh8) 3...c5 4.dxc6 e.p.+ *",
                bare,
                "1. e4 a6 2. e5 d5 3. exd6 e.p. (3. exd6e.p. Kh8) 3... c5 4. dxc6 e.p.+ *\n\n",
            ),
            (
                b"1.e4 ()() e5 () 2.Nf3 *",
                bare,
                "1. e4 () () 1... e5 () 2. Nf3 *\n\n",
            ),
            (
                b"1.e4 {a} (1.d4) $2 e5 *",
                WriteOptions { comments: false, variations: false, nags: false, ..bare },
                "1. e4 e5 *\n\n",
            ),
            (
                b"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 *",
                WriteOptions { width: 40, ..bare },
                "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\n5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O\n9. h3 Nb8 *\n\n",
            ),
        ];
        for (input, options, expected) in cases {
            assert_eq!(
                write(input, options),
                *expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
