//! Streaming game framer: finds where each game starts and ends in a byte
//! stream, from one bounded buffer, without parsing the games.
//!
//! See [`GameFramer`] for the rules.

use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;

use crate::input::{Input, Mapped};
use crate::pgn::buffer::Buffer;
use crate::pgn::error::ReadPgnError;
use crate::pgn::grammar::{TokenKind, Tokens, is_delimiter, tag_name, tag_value_close};
use crate::pgn::raw::{
    CommentIndex, Comments, GameInfo, Marks, RawGame, TAG_ENTRY, column_at, pack_tag_stops,
};
use crate::pgn::scan::{self, Simd};

/// The default bound on one game's size: 256 MiB.
pub const DEFAULT_MAX_GAME_BYTES: usize = 256 << 20;

const INITIAL_BUFFER: usize = 256 << 10;

/// The bytes the framer's movetext loop stops at: line ends, comments.
const MOVETEXT_STOPS: [u8; 4] = [b'\n', b'\r', b'{', b';'];

/// How far past a `{` the framer's movetext loop searches for its `}`.
const CLOSE_WINDOW: usize = 4 << 10;

/// Where the scanner is inside the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// Between games: nothing of a game seen yet.
    Between,
    /// Only tag pairs (and escape lines) so far.
    Tags,
    /// Tag pairs, then a blank line: a tag line starts the next game.
    TagsBlank,
    /// Only tags and comments so far.
    Prelude,
    /// Movetext has begun: a tag line ends the game, and so does a blank
    /// line after its termination marker.
    Movetext,
}

/// What the scanner does at the current position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// At the start of a line (after `indent` spaces or tabs already skipped).
    LineStart { indented: bool },
    /// Inside a tag line, in or out of a quoted value.
    Tag { in_string: bool },
    /// After a tag pair's `]`, on the same line.
    TagTail,
    /// Movetext, in the middle of a line.
    Text,
    /// Inside a `{…}` comment.
    Comment,
    /// Skipping to the end of the line (`;` comment, `%` escape).
    SkipLine,
}

enum Step {
    /// The game ends at `pos`.
    End,
    /// The buffer is exhausted before a decision.
    NeedMore,
    /// A game would start at `pos`, at or past the framer's stop
    /// ([`GameFramer::piece`]).
    Stop,
}

/// Splits a byte stream into games. Memory use is bounded by the largest
/// game (at most [`max_game_bytes`](GameFramer::with_max_game_bytes), and
/// an eighth more while a game near the bound is decided).
///
/// # Game boundaries
/// Lines end at LF, CRLF or a lone CR. White space is spaces, tabs, form
/// feeds, vertical tabs and byte-order marks (U+FEFF, `EF BB BF`); a blank
/// line holds nothing else. Outside `{…}` comments, `;` comments and tag
/// values:
/// - blank lines, `%` escape lines and lines starting with `;` between
///   games belong to no game;
/// - a game starts at its first other line: a tag line (first byte other
///   than white space `[`) or movetext without tags;
/// - a blank line ends the tag section: a tag line after it starts the
///   next game, so tags without movetext are a game of their own;
/// - after movetext or a comment, a tag line starts the next game, at any
///   nesting of variations (an unclosed `(` swallows no games);
/// - once movetext has begun (any token other than a comment), a blank line
///   ends the game only after its termination marker ([`game_termination`]:
///   `1-0`, `0-1`, `1/2-1/2`, `*`, the other draw spellings) outside
///   comments and variations; before it, blank lines are white space. Text
///   between the marker and that blank line stays in the game (the grammar
///   reports it as movetext after the result);
/// - a game over the size bound is not read: once its bytes so far are
///   over it, the game ends at the next tag line, not at a blank line after
///   its marker (whether read from a stream or a mapped file).
///
/// [`game_termination`]: crate::pgn::game_termination
///
/// A `[` at the start of a line inside a multi-line `{…}` comment starts
/// nothing, but after a blank line: a comment that runs over a blank line
/// into a tag line (`[`, a tag name, `"`) is a `{` left open, and the game
/// ends before that line (its reader reports the unterminated comment).
/// The standard reads such a comment on to its `}`, where one stray `{`
/// swallows every game up to the next comment. A `{` inside a `;` comment
/// or a tag value opens nothing.
///
/// # Examples
/// ```
/// use pgnkit::pgn::GameFramer;
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
/// let mut framer = GameFramer::new(&pgn[..]);
/// let mut lines = Vec::new();
/// while let Some(game) = framer.next_game() {
///     lines.push(game?.first_line);
/// }
/// assert_eq!(lines, [1, 5]);
/// # Ok::<(), pgnkit::pgn::ReadPgnError>(())
/// ```
#[derive(Debug)]
pub struct GameFramer<R> {
    reader: R,
    buf: Buffer,
    /// Scan position in `buf`.
    pos: usize,
    /// End of valid data in `buf`.
    filled: usize,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Line number at `pos`.
    line: u64,
    eof: bool,
    /// The error that ended the reading: the text read before it is all
    /// there is, framed as at the end of the input; the error comes after
    /// its games.
    error: Option<io::Error>,
    failed: bool,
    started: bool,
    section: Section,
    mode: Mode,
    game_start: usize,
    game_offset: u64,
    game_line: u64,
    number: u64,
    oversized: bool,
    max_game_bytes: usize,
    /// The current game's comments, relative to `game_start`.
    comments: Vec<[u32; 2]>,
    /// The `{` of the comment the `Comment` mode is in, relative to
    /// `game_start`.
    comment_open: usize,
    /// How far the search for the termination marker has read the
    /// movetext, relative to `game_start` ([`marker_seen`](Self::marker_seen)).
    marker_from: usize,
    /// The nesting of variations there.
    marker_depth: u32,
    /// Whether the pages of a mapped file behind the scan position are
    /// given back as it goes (not for a [`piece`](GameFramer::piece)).
    release_pages: bool,
    /// No game starts at or past this offset of the input
    /// ([`piece`](GameFramer::piece), [`window`](GameFramer::window));
    /// `u64::MAX` for a whole input.
    stop: u64,
    /// Where the framer stopped before a game ([`Step::Stop`]).
    stopped: Option<usize>,
    /// Which versions of the hot loops run.
    simd: Simd,
}

impl GameFramer<Input> {
    /// A framer that reads a mapped file in place ([`Input::take_mapped`]),
    /// or reads the input through its buffer.
    pub fn for_input(mut input: Input) -> GameFramer<Input> {
        let mapped = input.take_mapped();
        let mut framer = GameFramer::new(input);
        if let Some(mapped) = mapped {
            framer.filled = mapped.bytes().len();
            framer.buf = Buffer::Mapped(Arc::new(mapped));
            framer.release_pages = true;
        }
        framer
    }
}

impl GameFramer<io::Empty> {
    /// A framer over one piece of a mapped file, for framing the pieces of
    /// one file on several threads at once. It starts at `start`, which
    /// must be the first byte of a line or the first after its indentation
    /// (where another piece stopped), as between games; it frames every
    /// game that starts before `stop` (the last one may end past it) and
    /// stops where the next game would start ([`stopped_at`]).
    ///
    /// Its games are numbered on from `number` (the games before `start`)
    /// and its lines counted from `line` (the line of `start`). A framer
    /// over the whole file frames the same games from `start` on if a
    /// game of its own starts at `start`, and only then: a caller that
    /// cut the file at a guess checks each cut against where the piece
    /// before it stopped (the engine does, for the pieces of a mapped
    /// file).
    ///
    /// The framer gives no pages of the file back: the caller does, once
    /// the pieces before a point are done ([`Mapped::consumed`]).
    ///
    /// [`stopped_at`]: GameFramer::stopped_at
    pub fn piece(
        map: Arc<Mapped>,
        start: usize,
        stop: usize,
        number: u64,
        line: u64,
    ) -> GameFramer<io::Empty> {
        let mut framer = GameFramer::new(io::empty());
        framer.filled = map.bytes().len();
        framer.pos = start.min(framer.filled);
        // A piece may start after the indentation of its line (where the
        // piece before it stopped), which decides how `%` is read.
        let before = &map.bytes()[..framer.pos];
        let indented = before[indent_start(before)..]
            .iter()
            .any(|&b| matches!(b, b' ' | b'\t' | 0x0b | 0x0c | 0x1a));
        framer.mode = Mode::LineStart { indented };
        framer.buf = Buffer::Mapped(map);
        framer.stop = stop as u64;
        framer.number = number;
        framer.line = line;
        framer
    }
}

impl<R: Read> GameFramer<R> {
    /// Where a framer over a piece ([`GameFramer::piece`]) stopped: the
    /// first byte of the first game at or past its stop; `None` while it
    /// has not stopped, and when it ran to the end of the input. The line
    /// there is [`line`](Self::line).
    pub fn stopped_at(&self) -> Option<usize> {
        self.stopped
    }

    /// Where the framer stopped before a game at or past its stop, as an
    /// offset of the input's text ([`window`](Self::window)); `None` as
    /// for [`stopped_at`](Self::stopped_at).
    pub fn stopped_offset(&self) -> Option<u64> {
        self.stopped.map(|pos| self.base + pos as u64)
    }

    /// The line at the scan position (1-based, counted from the line given
    /// to [`GameFramer::piece`]).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The number of the last game framed (0 before the first, or the
    /// number given to [`GameFramer::piece`]).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Frames no game that starts after the scan position: after the game
    /// just framed, the framer stops where the next one starts
    /// ([`stopped_at`](Self::stopped_at)), as at the stop of a piece.
    pub fn stop_here(&mut self) {
        self.stop = self.stop.min(self.base + self.pos as u64);
    }

    /// Frames games without handing them out, until the framer stops
    /// ([`stopped_at`](Self::stopped_at)) or the input ends: the fast way
    /// to the games before a place in a file. They are counted in
    /// [`number`](Self::number), their lines in [`line`](Self::line).
    pub fn pass(&mut self) {
        loop {
            match self.frame() {
                Ok(Some(_)) | Err(ReadPgnError::GameTooLarge { .. }) => {}
                Ok(None) | Err(_) => return,
            }
        }
    }

    /// Frames only the games of the input that start within `text` (byte
    /// offsets of the text read): the games before it are framed without
    /// being handed out ([`pass`](Self::pass)), so that the games handed
    /// out keep their numbers and lines in the whole input, and the
    /// framer stops before the first game that starts at or past its end.
    /// The last game handed out may end past it.
    ///
    /// Returns where the first game at or after the start of `text`
    /// starts (the games before it are [`number`](Self::number), its line
    /// is [`line`](Self::line)); `None` when no game starts there.
    ///
    /// # Errors
    /// A read error while the games before `text` are framed.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::GameFramer;
    /// let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n";
    /// let mut framer = GameFramer::new(&pgn[..]);
    /// // From the middle of game 1 to the middle of game 2.
    /// assert_eq!(framer.window(5..30)?, Some(22));
    /// assert_eq!((framer.number(), framer.line()), (1, 5));
    /// let game = framer.next_game().expect("game 2")?;
    /// assert_eq!((game.number, game.first_line), (2, 5));
    /// assert!(framer.next_game().is_none());
    /// # Ok::<(), pgnkit::pgn::ReadPgnError>(())
    /// ```
    pub fn window(&mut self, text: Range<u64>) -> Result<Option<u64>, ReadPgnError> {
        let mut first = Some(self.base);
        if text.start > self.base {
            self.stop = text.start;
            loop {
                match self.frame() {
                    Ok(Some(_)) | Err(ReadPgnError::GameTooLarge { .. }) => {}
                    Ok(None) => break,
                    Err(err) => return Err(err),
                }
            }
            first = self.stopped_offset();
            if self.stopped.take().is_some() {
                self.failed = false;
            }
        }
        self.stop = text.end;
        Ok(first)
    }

    /// A framer over `reader`, the text of an input from byte `offset` on,
    /// where a game starts (as [`window`](Self::window) finds it): its
    /// games numbered on from `number`, its lines counted from `line`, as
    /// if the text before had been framed.
    pub fn resume(reader: R, offset: u64, number: u64, line: u64) -> GameFramer<R> {
        GameFramer {
            base: offset,
            number,
            line,
            started: true,
            ..GameFramer::new(reader)
        }
    }

    /// Whether a game starting at the scan position would start at or
    /// past the stop.
    #[inline]
    fn at_stop(&self) -> bool {
        self.base + self.pos as u64 >= self.stop
    }

    /// A framer over `reader` with the default game size bound
    /// ([`DEFAULT_MAX_GAME_BYTES`]).
    pub fn new(reader: R) -> GameFramer<R> {
        GameFramer {
            reader,
            buf: Buffer::Owned(Vec::new()),
            pos: 0,
            filled: 0,
            base: 0,
            line: 1,
            eof: false,
            error: None,
            failed: false,
            started: false,
            section: Section::Between,
            mode: Mode::LineStart { indented: false },
            game_start: 0,
            game_offset: 0,
            game_line: 1,
            number: 0,
            oversized: false,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            comments: Vec::new(),
            comment_open: 0,
            marker_from: 0,
            marker_depth: 0,
            release_pages: false,
            stop: u64::MAX,
            stopped: None,
            simd: Simd::detect(),
        }
    }

    /// This framer with the portable versions of its hot loops, for the
    /// tests that hold them equal to the AVX2 ones.
    #[cfg(test)]
    fn portable(mut self) -> GameFramer<R> {
        self.simd = Simd::Portable;
        self
    }

    /// Sets the bound on one game's size in bytes (at least 1 KiB); a larger
    /// game is reported as [`ReadPgnError::GameTooLarge`] and skipped.
    pub fn with_max_game_bytes(mut self, max: usize) -> GameFramer<R> {
        self.max_game_bytes = max.max(1024);
        self
    }

    /// The next game, borrowed from the framer's buffer until the next call.
    ///
    /// Returns `None` at the end of the input (and after an I/O error).
    ///
    /// # Errors
    /// [`ReadPgnError::Io`] when reading fails, after the games whose text
    /// was read whole before the error: those that ended before it, and
    /// the one it cut if that one's termination marker had been read (a
    /// game cut before its marker is left out). No games follow;
    /// [`ReadPgnError::GameTooLarge`] for a game over the size bound (the
    /// next call goes on after it).
    pub fn next_game(&mut self) -> Option<Result<RawGame<'_>, ReadPgnError>> {
        match self.frame() {
            Ok(Some((start, end))) => Some(Ok(self.raw(start..end))),
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        }
    }

    /// Like [`next_game`](Self::next_game), but appends the game's text to
    /// `out` (for batching owned games to worker threads) and returns where
    /// it came from.
    ///
    /// # Errors
    /// As [`next_game`](Self::next_game).
    pub fn next_game_into(&mut self, out: &mut Vec<u8>) -> Option<Result<GameInfo, ReadPgnError>> {
        match self.frame() {
            Ok(Some((start, end))) => {
                out.extend_from_slice(&self.buf[start..end]);
                let mut info = GameInfo::new(self.number, self.game_offset, self.game_line);
                info.first_column = column_at(&self.buf[..], start);
                Some(Ok(info))
            }
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        }
    }

    /// The next game of a mapped file as its byte range in the file
    /// ([`piece`](GameFramer::piece)), with its comments appended to
    /// `index`. For a framer over a reader the range is in a buffer
    /// that the next call changes: use
    /// [`next_game_indexed`](Self::next_game_indexed) there.
    ///
    /// # Errors
    /// As [`next_game`](Self::next_game).
    pub fn next_game_range(
        &mut self,
        index: &mut CommentIndex,
    ) -> Option<Result<(GameInfo, Range<usize>), ReadPgnError>> {
        match self.frame() {
            Ok(Some((start, end))) => Some(Ok((index.add(&self.raw(start..end)), start..end))),
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        }
    }

    /// Like [`next_game_into`](Self::next_game_into), and appends the
    /// game's comments to `index`, where [`GameInfo::with_text`] finds them.
    ///
    /// # Errors
    /// As [`next_game`](Self::next_game).
    pub fn next_game_indexed(
        &mut self,
        out: &mut Vec<u8>,
        index: &mut CommentIndex,
    ) -> Option<Result<GameInfo, ReadPgnError>> {
        let game = self.next_game_range(index)?;
        Some(game.map(|(info, range)| {
            out.extend_from_slice(&self.buf[range]);
            info
        }))
    }

    /// The game just framed, at `range` in `buf`.
    fn raw(&self, range: Range<usize>) -> RawGame<'_> {
        let first_column = column_at(&self.buf[..], range.start);
        let bytes = &self.buf[range];
        RawGame {
            number: self.number,
            offset: self.game_offset,
            first_line: self.game_line,
            first_column,
            bytes,
            comments: Comments(&self.comments),
            marks: Marks::of(bytes),
        }
    }

    /// Frames the next game: its byte range in `buf`.
    fn frame(&mut self) -> Result<Option<(usize, usize)>, ReadPgnError> {
        if self.failed {
            return Ok(None);
        }
        self.section = Section::Between;
        self.oversized = false;
        self.release();
        loop {
            match self.scan() {
                Step::End => {
                    if self.section == Section::Between {
                        self.release();
                        return self.read_error().map_or(Ok(None), Err);
                    }
                    if self.error.is_some()
                        && self.pos >= self.filled
                        && !self.over_bound()
                        && !self.holds_marker()
                    {
                        // The error cut the game before its marker: more
                        // of it may have followed.
                        self.section = Section::Between;
                        return self.read_error().map_or(Ok(None), Err);
                    }
                    return self.finish_game();
                }
                Step::Stop => {
                    self.stopped = Some(self.pos);
                    self.failed = true;
                    return Ok(None);
                }
                Step::NeedMore => self.fill(),
            }
        }
    }

    /// The error that ended the reading, once: the framer frames nothing
    /// after it.
    fn read_error(&mut self) -> Option<ReadPgnError> {
        let err = self.error.take()?;
        self.failed = true;
        Some(err.into())
    }

    /// Whether the game up to the scan position holds its termination
    /// marker outside comments and variations.
    fn holds_marker(&mut self) -> bool {
        matches!(self.section, Section::Prelude | Section::Movetext) && self.marker_seen()
    }

    /// Tells a mapped file that the text before the scan position is read
    /// (not for a piece: see [`GameFramer::piece`]).
    fn release(&self) {
        if let Buffer::Mapped(mapped) = &self.buf
            && self.release_pages
        {
            mapped.consumed(self.pos, 0);
        }
    }

    fn finish_game(&mut self) -> Result<Option<(usize, usize)>, ReadPgnError> {
        self.number += 1;
        self.section = Section::Between;
        if self.over_bound() {
            return Err(ReadPgnError::GameTooLarge {
                number: self.number,
                offset: self.game_offset,
                first_line: self.game_line,
                limit: self.max_game_bytes,
            });
        }
        let end = trim_line_end(&self.buf[self.game_start..self.pos]) + self.game_start;
        Ok(Some((self.game_start, end)))
    }

    /// Makes room and reads more input; sets `eof` at the end, and after a
    /// read error, which it keeps for [`frame`](Self::frame) to report.
    fn fill(&mut self) {
        let over_bound = self.section != Section::Between && self.over_bound();
        let buf = match &mut self.buf {
            Buffer::Owned(buf) => buf,
            Buffer::Mapped(_) => {
                // All of the file is there from the start.
                self.eof = true;
                self.started = true;
                if self.buf[..self.filled].starts_with(b"\xEF\xBB\xBF") && self.pos == 0 {
                    self.pos = 3;
                }
                return;
            }
        };
        let keep = if self.section == Section::Between {
            self.pos
        } else if self.oversized {
            // With the byte before `pos` (see below).
            self.pos.saturating_sub(1)
        } else {
            self.game_start
        };
        // Compact only when the free tail is short: each byte is then
        // moved at most about once.
        if keep > 0 && (keep == self.filled || buf.len() - self.filled < buf.len() / 4) {
            buf.copy_within(keep..self.filled, 0);
            self.filled -= keep;
            self.pos -= keep;
            self.game_start = self.game_start.saturating_sub(keep);
            self.base += keep as u64;
        }
        if self.filled == buf.len() {
            let len = buf.len();
            if len >= self.max_game_bytes && over_bound {
                // The game does not fit: keep scanning for its end, dropping
                // its bytes as they are passed.
                self.oversized = true;
                // The byte before `pos` stays: a line end there decides
                // whether one at `pos` makes a blank line.
                let drop = self.pos.saturating_sub(1);
                buf.copy_within(drop..self.filled, 0);
                self.filled -= drop;
                self.pos -= drop;
                self.game_start = 0;
                self.base += drop as u64;
                if self.filled == buf.len() {
                    // A single undecidable unit filled the buffer (endless
                    // indentation): let the buffer grow a little.
                    buf.resize(len + (len / 4).max(1024), 0);
                }
            } else {
                if len == 0 {
                    // Zeroed by the allocator, page by page as the reads
                    // reach them: a short input touches one page, not
                    // 256 KiB of `resize`'s zeroing.
                    *buf = vec![0; INITIAL_BUFFER.min(self.max_game_bytes)];
                } else if len >= self.max_game_bytes {
                    // The game is not over the bound up to the scan
                    // position, which decides (`over_bound`).
                    buf.resize(len + (len / 8).max(64 << 10), 0);
                } else {
                    buf.resize((len * 2).min(self.max_game_bytes), 0);
                }
            }
        }
        loop {
            match self.reader.read(&mut buf[self.filled..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.filled += n;
                    break;
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.eof = true;
                    self.error = Some(err);
                    break;
                }
            }
        }
        if !self.started && (self.filled >= 3 || self.eof) {
            self.started = true;
            if buf[..self.filled].starts_with(b"\xEF\xBB\xBF") {
                self.pos = 3;
            }
        }
    }

    /// Whether the game, up to the scan position, is over the size bound:
    /// it is not read, and ends at the next tag line. Decided on the scan
    /// position, so that a framer over a stream (which drops the game's
    /// bytes once it is over) and one over a mapped file (which keeps them)
    /// frame alike.
    #[inline]
    fn over_bound(&self) -> bool {
        self.oversized
            || self.base + self.pos as u64 - self.game_offset > self.max_game_bytes as u64
    }

    /// Starts a game at `pos` if none is open.
    #[inline]
    fn open_game(&mut self, section: Section) {
        if self.section == Section::Between {
            self.comments.clear();
            self.game_start = self.pos;
            self.game_offset = self.base + self.pos as u64;
            self.game_line = self.line;
            self.marker_depth = 0;
        }
        self.section = section;
    }

    /// Leaves the tag section at `pos`: the search for the termination
    /// marker starts there.
    #[inline]
    fn end_tags(&mut self) {
        self.section = Section::Prelude;
        self.marker_from = self.pos - self.game_start;
    }

    /// Whether the game's text up to `pos`, the start of a blank line,
    /// holds its termination marker outside comments and variations. Reads
    /// each byte once over the game's blank lines: the text from the last
    /// one on, where it stopped, with the nesting of variations there.
    ///
    /// Nearly always the marker is the last token, and no `(` comes after
    /// the last blank line: then the last token decides. Otherwise the
    /// grammar's tokenizer reads the text, so that the framer and the
    /// grammar see the same marker.
    #[cold]
    fn marker_seen(&mut self) -> bool {
        let game = &self.buf[self.game_start..self.pos];
        let from = self.marker_from.min(game.len());
        let text = &game[from..];
        self.marker_from = game.len();
        // Past the last `{…}` comment, relative to `text`: all comments are
        // in the index while their offsets fit it.
        let after_comments = self
            .comments
            .iter()
            .rev()
            .find(|e| e[0] & TAG_ENTRY == 0)
            .map_or(0, |e| (e[1] as usize + 1).saturating_sub(from));
        if self.marker_depth == 0
            && u32::try_from(game.len()).is_ok()
            && !paren_outside_comments(text, &self.comments, from)
            && ends_with_marker(text, after_comments, &self.comments, from)
        {
            return true;
        }
        let mut depth = self.marker_depth;
        for token in Tokens::new(text) {
            match token.kind {
                TokenKind::StartVariation => depth = depth.saturating_add(1),
                TokenKind::EndVariation => depth = depth.saturating_sub(1),
                TokenKind::Result(_) if depth == 0 => return true,
                _ => {}
            }
        }
        self.marker_depth = depth;
        false
    }

    /// A line that is neither blank nor a tag or escape line begins at
    /// `pos`: a game without tags, or the end of the tag section.
    #[inline]
    fn text_line(&mut self) {
        match self.section {
            Section::Between => {
                self.open_game(Section::Prelude);
                self.marker_from = 0;
            }
            Section::Tags | Section::TagsBlank => self.end_tags(),
            Section::Prelude | Section::Movetext => {}
        }
        self.mode = Mode::Text;
    }

    /// At a tag line at `pos` after a blank line in the tag section:
    /// whether its tag name is one of the game's tags already, which makes
    /// it the start of the next game (a tag section without movetext is a
    /// game of its own); `None` if the buffer ends before the name does.
    /// A tag line without a name, and any tag line of a game over the size
    /// bound, starts the next game.
    #[cold]
    fn repeats_a_tag(&self) -> Option<bool> {
        if self.over_bound() {
            return Some(true);
        }
        let rest = &self.buf[self.pos + 1..self.filled];
        let rest = &rest[rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()..];
        let Ok((after, name)) = tag_name(rest) else {
            return (!rest.is_empty() || self.eof).then_some(true);
        };
        if after.is_empty() && !self.eof {
            return None;
        }
        let mut tags = Tokens::new(&self.buf[self.game_start..self.pos]);
        Some(
            tags.any(
                |token| matches!(token.kind, TokenKind::Tag { name: seen, .. } if seen == name),
            ),
        )
    }

    /// At a line end at `pos` that starts a line: whether it is the CRLF
    /// of a `\r\r\n`, a line end converted twice (CRLF to CR CR LF), which
    /// makes no blank line; `None` if the buffer ends before that is known.
    #[inline]
    fn doubled_line_end(&self) -> Option<bool> {
        let buf = &self.buf[..self.filled];
        if buf[self.pos] != b'\r' || self.pos <= self.game_start || buf[self.pos - 1] != b'\r' {
            return Some(false);
        }
        match buf.get(self.pos + 1) {
            Some(&b) => Some(b == b'\n'),
            None if self.eof => Some(false),
            None => None,
        }
    }

    /// Whether a byte-order mark (white space) stands at `pos`, or may:
    /// the buffer ends in its first bytes before the end of the input.
    #[cold]
    fn at_bom(&self) -> bool {
        let rest = &self.buf[self.pos..self.filled];
        let have = rest.len().min(3);
        rest[..have] == b"\xEF\xBB\xBF"[..have] && (have == 3 || !self.eof)
    }

    /// At a line end inside a tag's value: whether the next line closes
    /// the value and its tag pair ([`tag_value_close`]); `None` when more
    /// input is needed to tell.
    fn tag_value_closed(&self) -> Option<bool> {
        let buf = &self.buf[..self.filled];
        let next = match (buf[self.pos], buf.get(self.pos + 1)) {
            (b'\r', Some(b'\n')) => self.pos + 2,
            (b'\r', None) if !self.eof => return None,
            _ => self.pos + 1,
        };
        tag_value_close(&buf[next..], self.eof).map(|close| close.is_some())
    }

    /// Consumes the line end at `pos` (`\n`, `\r\n` or `\r`).
    #[inline]
    fn line_end(&mut self) -> Option<Step> {
        let buf = &self.buf[..self.filled];
        let len = if buf[self.pos] == b'\r' {
            match buf.get(self.pos + 1) {
                Some(b'\n') => 2,
                Some(_) => 1,
                None if self.eof => 1,
                None => return Some(Step::NeedMore),
            }
        } else {
            1
        };
        self.pos += len;
        self.line += 1;
        self.mode = Mode::LineStart { indented: false };
        None
    }

    /// The hot loop: skips movetext and complete `{…}` comments up to the
    /// next line end, `;`, unterminated `{` or the end of the buffer, and
    /// over line ends into lines that continue the movetext.
    #[inline]
    fn skip_movetext(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if self.simd == Simd::Avx2 {
            // SAFETY: `Simd::detect` found AVX2 on this CPU.
            return unsafe { self.skip_movetext_avx2() };
        }
        self.skip_movetext_by(
            |hay| scan::find4(hay, MOVETEXT_STOPS).map(|i| (i, 1)),
            scan::find_close_narrow,
        );
    }

    /// [`skip_movetext`](Self::skip_movetext) compiled for AVX2, so that
    /// the comment search is in line in its loop (as for the tag lines).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn skip_movetext_avx2(&mut self) {
        self.skip_movetext_by(
            |hay| scan::stops_avx2(hay, MOVETEXT_STOPS),
            |buf, from| scan::find_close(buf, from),
        );
    }

    /// The loop of [`skip_movetext`](Self::skip_movetext). `stops` finds
    /// the next stretch of text holding a stop ([`MOVETEXT_STOPS`]): its
    /// offset and a bit for each stop in it, the first stop at the lowest
    /// bit. After a line end that the loop passes over, the stops that
    /// follow come from the same bits: on engine games, whose lines end
    /// two blanks after a comment and whose next comment opens a move
    /// later, that is one search a move instead of two (TCEC
    /// `validate --jobs 1`: 72.6 → 70.3 ms, minimum of 15 interleaved runs;
    /// pgnmentor unchanged).
    #[inline(always)]
    fn skip_movetext_by(
        &mut self,
        stops: impl Fn(&[u8]) -> Option<(usize, u32)>,
        find_close: impl Fn(&[u8], usize) -> Option<(usize, u64)>,
    ) {
        let buf = &self.buf[..self.filled];
        let mut pos = self.pos;
        'window: loop {
            let Some((base, mut mask)) = stops(&buf[pos..]).map(|(i, mask)| (pos + i, mask)) else {
                pos = buf.len();
                break;
            };
            loop {
                let at = base + mask.trailing_zeros() as usize;
                match buf[at] {
                    // The comment to the end of the line may hold a `{` that
                    // opens nothing: the `SkipLine` mode reads it.
                    b';' => {
                        pos = at;
                        break 'window;
                    }
                    // The search stops a window past the `{`: one with no
                    // `}` near (left open) goes to the `Comment` mode, which
                    // reads no further than the game it ends.
                    b'{' => match find_close(&buf[..buf.len().min(at + CLOSE_WINDOW)], at + 1) {
                        // A comment over a blank line may hold a tag line
                        // that ends it: the `Comment` mode decides.
                        Some((close, lines))
                            if lines < 2
                                || matches!(
                                    comment_end(buf, at + 1, true),
                                    CommentEnd::Close(_)
                                ) =>
                        {
                            self.line += lines;
                            pos = close + 1;
                            if !self.oversized {
                                let start = self.game_start;
                                record_comment(&mut self.comments, at - start, close - start);
                            }
                            continue 'window;
                        }
                        _ => {
                            pos = at;
                            break 'window;
                        }
                    },
                    _ => {
                        // A line end. When the next line starts with a byte
                        // that the line-start and text modes would pass
                        // straight back here (no blank, indentation, tag,
                        // escape or comment line), go on without the round
                        // trip through `scan`.
                        let next = match (buf[at], buf.get(at + 1)) {
                            (b'\r', Some(b'\n')) => at + 2,
                            (b'\r', None) => {
                                pos = at;
                                break 'window;
                            }
                            _ => at + 1,
                        };
                        match buf.get(next) {
                            Some(
                                b' ' | b'\t' | b'\n' | b'\r' | b'%' | b';' | b'[' | b'{' | 0x0b
                                | 0x0c | 0x1a | 0xEF,
                            )
                            | None => {
                                pos = at;
                                break 'window;
                            }
                            Some(_) => {
                                self.line += 1;
                                pos = next;
                            }
                        }
                        // The window's stops from the next line on.
                        let skip = next - base;
                        mask = if skip < 32 {
                            mask & (u32::MAX << skip)
                        } else {
                            0
                        };
                        if mask == 0 {
                            continue 'window;
                        }
                    }
                }
            }
        }
        self.pos = pos;
    }

    /// Passes over the common tag lines that follow a tag pair's `]` at
    /// once: `\n` or `\r\n`, then a pair [`scan::tag_stops`] reads, as many
    /// times as they come. What the `TagTail` and `LineStart` modes would do
    /// byte by byte; anything else is left to them.
    #[inline]
    fn plain_tag_lines(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if self.simd == Simd::Avx2 {
            // SAFETY: `Simd::detect` found AVX2 on this CPU.
            return unsafe { self.plain_tag_lines_avx2() };
        }
        self.plain_tag_lines_by(scan::tag_stops);
    }

    /// [`plain_tag_lines`](Self::plain_tag_lines) compiled for AVX2, so
    /// that [`scan::tag_stops_avx2`] is in line in its loop: called
    /// through a function, the stops went through memory and took back
    /// most of what the wider loads save.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn plain_tag_lines_avx2(&mut self) {
        self.plain_tag_lines_by(|bytes| scan::tag_stops_avx2(bytes));
    }

    #[inline(always)]
    fn plain_tag_lines_by(&mut self, tag_stops: impl Fn(&[u8]) -> Option<[usize; 3]>) {
        let buf = &self.buf[..self.filled];
        loop {
            let rest = &buf[self.pos..];
            let line_end = match rest {
                [b'\n', b'[', ..] => 1,
                [b'\r', b'\n', b'[', ..] => 2,
                _ => return,
            };
            let Some(stops) = tag_stops(&rest[line_end..]) else {
                return;
            };
            if !self.oversized {
                let at = self.pos + line_end - self.game_start;
                record_tag(&mut self.comments, at, stops);
            }
            self.pos += line_end + stops[2] + 1;
            self.line += 1;
        }
    }

    /// Advances until the current game ends or more input is needed.
    fn scan(&mut self) -> Step {
        if !self.started {
            return Step::NeedMore;
        }
        loop {
            if self.pos >= self.filled {
                if self.eof {
                    return Step::End;
                }
                return Step::NeedMore;
            }
            match self.mode {
                Mode::LineStart { indented } => {
                    let b = self.buf[self.pos];
                    match b {
                        b' ' | b'\t' | 0x0b | 0x0c | 0x1a => {
                            self.pos += 1;
                            self.mode = Mode::LineStart { indented: true };
                        }
                        0xEF if self.at_bom() => {
                            if self.filled - self.pos < 3 {
                                return Step::NeedMore;
                            }
                            self.pos += 3;
                        }
                        b'\n' | b'\r' => {
                            if matches!(self.section, Section::Tags | Section::Movetext) {
                                match self.doubled_line_end() {
                                    None => return Step::NeedMore,
                                    Some(true) => {}
                                    Some(false) if self.section == Section::Tags => {
                                        self.section = Section::TagsBlank;
                                    }
                                    Some(false) => {
                                        if !self.over_bound() && self.marker_seen() {
                                            return Step::End;
                                        }
                                    }
                                }
                            }
                            if let Some(step) = self.line_end() {
                                return step;
                            }
                        }
                        b'%' if !indented => self.mode = Mode::SkipLine,
                        b';' if self.section == Section::Between => self.mode = Mode::SkipLine,
                        b'[' => match self.section {
                            Section::Between if self.at_stop() => return Step::Stop,
                            Section::TagsBlank => match self.repeats_a_tag() {
                                None => return Step::NeedMore,
                                Some(true) => return Step::End,
                                // The tag section goes on after its blank line.
                                Some(false) => self.section = Section::Tags,
                            },
                            Section::Between | Section::Tags => {
                                self.open_game(Section::Tags);
                                // The common pair `[Name "value"]`, up to
                                // its `]`: what the `Tag` mode would pass
                                // over when the value holds no escape and
                                // no line end comes first. Anything else
                                // the `Tag` mode reads byte by byte.
                                match scan::tag_stops(&self.buf[self.pos..self.filled]) {
                                    Some(stops) => {
                                        if !self.oversized {
                                            let at = self.pos - self.game_start;
                                            record_tag(&mut self.comments, at, stops);
                                        }
                                        self.pos += stops[2] + 1;
                                        self.mode = Mode::TagTail;
                                        self.plain_tag_lines();
                                    }
                                    None => {
                                        self.pos += 1;
                                        self.mode = Mode::Tag { in_string: false };
                                    }
                                }
                            }
                            Section::Prelude | Section::Movetext => return Step::End,
                        },
                        _ => {
                            if self.section == Section::Between && self.at_stop() {
                                return Step::Stop;
                            }
                            self.text_line();
                        }
                    }
                }
                Mode::Tag { in_string } => {
                    let rest = &self.buf[self.pos..self.filled];
                    let stops = &TAG_STOPS[usize::from(in_string)];
                    let found = rest.iter().position(|&b| stops[usize::from(b)]);
                    let Some(i) = found else {
                        self.pos = self.filled;
                        continue;
                    };
                    self.pos += i;
                    match self.buf[self.pos] {
                        b'\n' | b'\r' => {
                            // A value that the next line closes goes on
                            // there (the reader reports it).
                            let closed = match in_string {
                                true => match self.tag_value_closed() {
                                    None => return Step::NeedMore,
                                    Some(closed) => closed,
                                },
                                false => false,
                            };
                            if let Some(step) = self.line_end() {
                                return step;
                            }
                            if closed {
                                self.mode = Mode::Tag { in_string: true };
                            }
                        }
                        b'\\' => {
                            if self.pos + 1 >= self.filled && !self.eof {
                                return Step::NeedMore;
                            }
                            // Only the filled part: bytes past it are stale
                            // input from earlier reads.
                            match self.buf[..self.filled].get(self.pos + 1) {
                                Some(b'"' | b'\\') => self.pos += 2,
                                _ => self.pos += 1,
                            }
                        }
                        b'"' => {
                            self.pos += 1;
                            self.mode = Mode::Tag {
                                in_string: !in_string,
                            };
                        }
                        _ => {
                            self.pos += 1;
                            self.mode = Mode::TagTail;
                        }
                    }
                }
                Mode::TagTail => match self.buf[self.pos] {
                    b' ' | b'\t' | 0x0b | 0x0c | 0x1a => self.pos += 1,
                    0xEF if self.at_bom() => {
                        if self.filled - self.pos < 3 {
                            return Step::NeedMore;
                        }
                        self.pos += 3;
                    }
                    b'\n' | b'\r' => {
                        if let Some(step) = self.line_end() {
                            return step;
                        }
                    }
                    b'[' => {
                        self.pos += 1;
                        self.mode = Mode::Tag { in_string: false };
                    }
                    _ => {
                        self.end_tags();
                        self.mode = Mode::Text;
                    }
                },
                Mode::Text => {
                    let b = self.buf[self.pos];
                    match b {
                        b'\n' | b'\r' => {
                            if let Some(step) = self.line_end() {
                                return step;
                            }
                        }
                        b'{' => {
                            self.comment_open = self.pos - self.game_start;
                            self.pos += 1;
                            self.mode = Mode::Comment;
                        }
                        b';' => self.mode = Mode::SkipLine,
                        b' ' | b'\t' | 0x0b | 0x0c | 0x1a => self.pos += 1,
                        0xEF if self.at_bom() => {
                            if self.filled - self.pos < 3 {
                                return Step::NeedMore;
                            }
                            self.pos += 3;
                        }
                        _ => {
                            self.section = Section::Movetext;
                            self.pos += 1;
                            self.skip_movetext();
                        }
                    }
                }
                Mode::Comment => {
                    let buf = &self.buf[..self.filled];
                    let (stop, close) = match comment_end(buf, self.pos, self.eof) {
                        CommentEnd::Close(at) => (at, true),
                        CommentEnd::LeftOpen(start) => {
                            // The game ends before the tag line.
                            self.line += count_lines(&buf[self.pos..start], true).0;
                            self.pos = start;
                            self.mode = Mode::LineStart { indented: false };
                            continue;
                        }
                        CommentEnd::ReadOn(at) => (at, false),
                    };
                    let (lines, pending_cr) = count_lines(&buf[self.pos..stop], close || self.eof);
                    self.line += lines;
                    if close {
                        if !self.oversized {
                            let close = stop - self.game_start;
                            record_comment(&mut self.comments, self.comment_open, close);
                        }
                        self.pos = stop + 1;
                        self.mode = Mode::Text;
                    } else {
                        self.pos = stop - usize::from(pending_cr);
                        return if self.eof { Step::End } else { Step::NeedMore };
                    }
                }
                Mode::SkipLine => {
                    let rest = &self.buf[self.pos..self.filled];
                    match memchr::memchr2(b'\n', b'\r', rest) {
                        Some(i) => {
                            self.pos += i;
                            if let Some(step) = self.line_end() {
                                return step;
                            }
                        }
                        None => self.pos = self.filled,
                    }
                }
            }
        }
    }
}

/// Bytes that need a decision in a tag line, outside and inside a quoted
/// value.
static TAG_STOPS: [[bool; 256]; 2] = {
    let mut tables = [[false; 256]; 2];
    let mut t = 0;
    while t < 2 {
        tables[t][b'\n' as usize] = true;
        tables[t][b'\r' as usize] = true;
        tables[t][b'"' as usize] = true;
        t += 1;
    }
    tables[0][b']' as usize] = true;
    tables[1][b'\\' as usize] = true;
    tables
};

/// Records a tag pair of the current game by its `[` (relative to the
/// game's start) and its stops; none where they do not fit the index.
#[inline]
fn record_tag(comments: &mut Vec<[u32; 2]>, at: usize, stops: [usize; 3]) {
    if let (Ok(at), Some(stops)) = (u32::try_from(at), pack_tag_stops(stops))
        && at & TAG_ENTRY == 0
    {
        comments.push([at | TAG_ENTRY, stops]);
    }
}

/// Records a complete comment of the current game by its `{` and `}`
/// relative to the game's start (none where an offset needs more than 32
/// bits: the tokenizer then searches for that comment's end itself).
#[inline]
fn record_comment(comments: &mut Vec<[u32; 2]>, open: usize, close: usize) {
    if let (Ok(open), Ok(close)) = (u32::try_from(open), u32::try_from(close)) {
        comments.push([open, close]);
    }
}

/// How a `{…}` comment read from `from` in `buf` ends.
enum CommentEnd {
    /// At its `}`.
    Close(usize),
    /// It runs over a blank line into a tag line, which starts here: the
    /// comment is taken to be left open, and the game ends (see the
    /// framing rules of [`GameFramer`]).
    LeftOpen(usize),
    /// Not in `buf`: read on from here once more input has come (the end
    /// of `buf`, or a line end whose next line is not there yet).
    ReadOn(usize),
}

/// How the comment read from `from` ends: each line end up to its `}` is
/// looked at, so that a comment left open costs no search beyond the game
/// it ends.
fn comment_end(buf: &[u8], from: usize, complete: bool) -> CommentEnd {
    for at in memchr::memchr3_iter(b'}', b'\n', b'\r', &buf[from..]).map(|i| from + i) {
        if buf[at] == b'}' {
            return CommentEnd::Close(at);
        }
        match after_line_end(buf, at, complete) {
            None => {}
            Some(Ok(start)) => return CommentEnd::LeftOpen(start),
            Some(Err(keep)) => return CommentEnd::ReadOn(keep.max(from)),
        }
    }
    CommentEnd::ReadOn(buf.len())
}

/// After the line end at `end` inside a comment: where the tag line that
/// follows a blank line starts, if one does (the line before is read back
/// from `buf`). `Err` when the next line runs to the end of `buf` before
/// that is decided and the input is not `complete`: the place to read on
/// from, `end` or, after a blank line, the line end before it (a framer
/// over an oversized game keeps only the bytes from there).
fn after_line_end(buf: &[u8], end: usize, complete: bool) -> Option<Result<usize, usize>> {
    let start = end + 1;
    let decided = match (buf[end], buf.get(start)) {
        // Read at the `\n` of the CRLF.
        (b'\r', Some(b'\n')) => return None,
        (_, None) => None,
        _ => starts_tag_pair(&buf[start..]),
    };
    match decided {
        Some(true) => blank_line_before(&buf[..start]).map(|_| Ok(start)),
        Some(false) => None,
        None if complete => None,
        None => Some(Err(blank_line_before(&buf[..start]).unwrap_or(end))),
    }
}

/// How many bytes of a line inside a comment are read to tell a tag line
/// ([`starts_tag_pair`]) or a blank line ([`blank_line_before`]): a framer
/// over a stream then reads no line twice for more than this, however long
/// it is, and one over an oversized game keeps no more of it.
const COMMENT_LINE_PROBE: usize = 256;

/// Whether `line` starts as a tag line of a tag section does, within its
/// first [`COMMENT_LINE_PROBE`] bytes: indentation, `[`, a tag name and its
/// quoted value's opening `"`, with spaces or tabs between. `None` when
/// `line` ends before that is decided.
fn starts_tag_pair(line: &[u8]) -> Option<bool> {
    if line.len() > COMMENT_LINE_PROBE {
        return Some(starts_tag_pair(&line[..COMMENT_LINE_PROBE]).unwrap_or(false));
    }
    let rest = match &line[indent_len(line)..] {
        // The buffer may end within a byte-order mark.
        [] | [0xEF] | [0xEF, 0xBB] => return None,
        [b'[', rest @ ..] => rest,
        _ => return Some(false),
    };
    let blanks = |bytes: &[u8]| {
        bytes
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let rest = &rest[blanks(rest)..];
    let Ok((after, _)) = tag_name(rest) else {
        return (!rest.is_empty()).then_some(false);
    };
    let after = &after[blanks(after)..];
    after.first().map(|&b| b == b'"')
}

/// Where the line end before a blank line is, when the line that ends
/// where `before` ends (in its line end; `\r\r\n`, a line end converted
/// twice, is one) holds only white space, at most [`COMMENT_LINE_PROBE`]
/// bytes of it. None when it holds more, or when `before` starts within it
/// (the buffer of an oversized game starts at the byte before the scan
/// position).
fn blank_line_before(before: &[u8]) -> Option<usize> {
    let line = match before {
        [rest @ .., b'\r', b'\r', b'\n'] | [rest @ .., b'\r', b'\n'] => rest,
        [rest @ .., b'\n' | b'\r'] => rest,
        _ => return None,
    };
    let from = line.len().saturating_sub(COMMENT_LINE_PROBE + 1);
    let len = indent_start(&line[from..]);
    matches!(line[from..from + len].last(), Some(b'\n' | b'\r')).then(|| from + len - 1)
}

/// Counts line ends in `bytes`; with `complete == false` a final `\r` is
/// left out (its `\n` may follow) and reported as pending.
fn count_lines(bytes: &[u8], complete: bool) -> (u64, bool) {
    let mut lines = 0;
    let mut pending = false;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[i] == b'\n' {
            lines += 1;
        } else {
            match bytes.get(i + 1) {
                Some(b'\n') => {}
                Some(_) => lines += 1,
                None if complete => lines += 1,
                None => pending = true,
            }
        }
    }
    (lines, pending)
}

/// Length of the indentation that starts `bytes` (spaces, tabs, form
/// feeds, vertical tabs, byte-order marks).
pub(crate) fn indent_len(bytes: &[u8]) -> usize {
    let mut rest = bytes;
    while let [b' ' | b'\t' | 0x0b | 0x0c | 0x1a, tail @ ..] | [0xEF, 0xBB, 0xBF, tail @ ..] = rest
    {
        rest = tail;
    }
    bytes.len() - rest.len()
}

/// Length of `bytes` without the indentation that ends it (spaces, tabs,
/// form feeds, vertical tabs, byte-order marks).
fn indent_start(mut bytes: &[u8]) -> usize {
    loop {
        match bytes {
            [rest @ .., b' ' | b'\t' | 0x0b | 0x0c | 0x1a] => bytes = rest,
            [rest @ .., 0xEF, 0xBB, 0xBF] => bytes = rest,
            _ => return bytes.len(),
        }
    }
}

/// Length of `bytes` without trailing white space (the line ends and
/// indentation before the line that ended the game).
fn trim_line_end(mut bytes: &[u8]) -> usize {
    loop {
        match bytes {
            [rest @ .., b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1a] => bytes = rest,
            [rest @ .., 0xEF, 0xBB, 0xBF] => bytes = rest,
            _ => return bytes.len(),
        }
    }
}

/// Whether `text` (of a game, from its offset `from`) holds a `(` outside
/// the game's indexed `{…}` comments (`comments`, relative to the game):
/// a variation may hide the marker. Engine output writes parentheses in
/// its comments (`pv=c3d4 f3e4 (1.4)`), which open none.
fn paren_outside_comments(text: &[u8], comments: &[[u32; 2]], from: usize) -> bool {
    let mut comments = comments
        .iter()
        .filter(|e| e[0] & TAG_ENTRY == 0)
        .map(|e| (e[0] as usize, e[1] as usize))
        .skip_while(|&(_, close)| close < from)
        .peekable();
    memchr::memchr_iter(b'(', text).any(|at| {
        let at = at + from;
        while comments.next_if(|&(_, close)| close < at).is_some() {}
        comments.peek().is_none_or(|&(open, _)| open >= at)
    })
}

/// Whether the last token of `text` (movetext from the start of a line),
/// before any lines of `;` comments or `%` escapes, is a termination
/// marker in one of its usual spellings, on a line without `;`, `%` or
/// `[…]` that could hide it. `false` says nothing: the tokenizer decides.
///
/// The comment lines passed over start at or after `after_comments`, past
/// the last `{…}` comment: they are not inside one. The game's `{…}`
/// comments (`comments`, relative to the game, whose text starts at
/// `from`) do not count on the marker's line: what is inside them hides
/// nothing.
fn ends_with_marker(
    text: &[u8],
    after_comments: usize,
    comments: &[[u32; 2]],
    from: usize,
) -> bool {
    let mut text = &text[..trim_line_end(text)];
    let line_start = loop {
        let start = memchr::memrchr2(b'\n', b'\r', text).map_or(0, |i| i + 1);
        let line = &text[start..];
        let comment = match line.iter().find(|&&b| !matches!(b, b' ' | b'\t')) {
            Some(b';') => true,
            Some(b'%') => line[0] == b'%',
            _ => false,
        };
        if !comment {
            break start;
        }
        if start == 0 || start < after_comments {
            return false;
        }
        text = &text[..trim_line_end(&text[..start])];
    };
    let start = text
        .iter()
        .rposition(|&b| is_delimiter(b))
        .map_or(0, |i| i + 1);
    if start < line_start || !matches!(&text[start..], b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
        return false;
    }
    if text.get(line_start) == Some(&b'%') {
        return false;
    }
    // The line before the marker, but for its `{…}` comments (from the
    // last back): lichess puts `{ [%clk 0:00:09] }` before every result.
    // The gaps between comments are a move or two: a loop beats memchr3.
    let hides = |gap: &[u8]| gap.iter().any(|b| matches!(b, b';' | b'[' | b'"'));
    let mut end = start;
    for entry in comments.iter().rev().filter(|e| e[0] & TAG_ENTRY == 0) {
        let open = (entry[0] as usize).saturating_sub(from);
        let after = (entry[1] as usize + 1).saturating_sub(from);
        if after <= line_start {
            break;
        }
        if hides(&text[after.min(end)..end]) {
            return false;
        }
        end = open.max(line_start).min(end);
    }
    !hides(&text[line_start..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::raw::unpack_tag_stops;

    #[test]
    fn parentheses_in_comments_open_no_variation() {
        let game = b"1. e4 {pv=e4 (1.4)} e5 {(=)} 1-0";
        let comments = [[6, 18], [23, 27]];
        assert!(!paren_outside_comments(game, &comments, 0));
        assert!(!paren_outside_comments(&game[10..], &comments, 10));
        let game = b"1. e4 {pv (1.4)} (1. d4) e5 1-0";
        assert!(paren_outside_comments(game, &[[6, 15]], 0));
        assert!(paren_outside_comments(b"1. e4 (1. d4) 1-0", &[], 0));
    }

    fn frame(input: &[u8]) -> Vec<(u64, String)> {
        frame_with(input, DEFAULT_MAX_GAME_BYTES)
    }

    /// Each game's first line, offset and text, as `framer` frames them.
    fn games_of<R: Read>(mut framer: GameFramer<R>) -> Vec<(u64, u64, Vec<u8>)> {
        let mut games = Vec::new();
        while let Some(game) = framer.next_game() {
            let game = game.expect("no error");
            games.push((game.first_line, game.offset, game.bytes.to_vec()));
        }
        games
    }

    fn frame_with(input: &[u8], max: usize) -> Vec<(u64, String)> {
        let mut framer = GameFramer::new(input).with_max_game_bytes(max);
        let mut games = Vec::new();
        while let Some(game) = framer.next_game() {
            match game {
                Ok(game) => games.push((
                    game.first_line,
                    String::from_utf8_lossy(game.bytes).into_owned(),
                )),
                Err(ReadPgnError::GameTooLarge { first_line, .. }) => {
                    games.push((first_line, "<too large>".to_owned()))
                }
                Err(err) => panic!("{err}"),
            }
        }
        games
    }

    #[test]
    fn boundaries() {
        type Case<'a> = (&'a str, &'a [u8], &'a [(u64, &'a str)]);
        let cases: &[Case] = &[
            ("empty", b"", &[]),
            ("only blank", b"\n\n  \n", &[]),
            (
                "one game",
                b"[A \"1\"]\n\n1. e4 *\n",
                &[(1, "[A \"1\"]\n\n1. e4 *")],
            ),
            (
                "two games",
                b"[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n1. d4 *",
                &[(1, "[A \"1\"]\n\n1. e4 *"), (5, "[A \"2\"]\n1. d4 *")],
            ),
            (
                "tags right after movetext",
                b"[A \"1\"]\n1. e4 *\n[A \"2\"]\n1. d4 *\n",
                &[(1, "[A \"1\"]\n1. e4 *"), (3, "[A \"2\"]\n1. d4 *")],
            ),
            (
                "tag sections apart are games of their own",
                b"[A \"1\"]\n[B \"1\"]\n\n[A \"2\"]\n\n\n1. e4 *\n",
                &[(1, "[A \"1\"]\n[B \"1\"]"), (4, "[A \"2\"]\n\n\n1. e4 *")],
            ),
            (
                "a blank line inside one tag section",
                b"[A \"1\"]\n\n[B \"1\"]\n \n[C\"1\"]\n\n1. e4 *\n\n[ A \"2\"]\n\n[B \"2\"]",
                &[
                    (1, "[A \"1\"]\n\n[B \"1\"]\n \n[C\"1\"]\n\n1. e4 *"),
                    (9, "[ A \"2\"]\n\n[B \"2\"]"),
                ],
            ),
            (
                "tags, a comment, tags",
                b"[A \"1\"]\n{c}\n\n[A \"2\"]\n*",
                &[(1, "[A \"1\"]\n{c}"), (4, "[A \"2\"]\n*")],
            ),
            (
                "blank lines in movetext",
                b"[A \"1\"]\n\n1. e4\n\n\ne5 2. Nf3\n\n% x\n\n*\n\n[A \"2\"]\n*",
                &[
                    (1, "[A \"1\"]\n\n1. e4\n\n\ne5 2. Nf3\n\n% x\n\n*"),
                    (12, "[A \"2\"]\n*"),
                ],
            ),
            (
                "untagged games end at their markers",
                b"1. e4\n\ne5 1-0\n\n1. d4 0-1\n\n1. c4 1/2-1/2\n\n1. f4\n\n",
                &[
                    (1, "1. e4\n\ne5 1-0"),
                    (5, "1. d4 0-1"),
                    (7, "1. c4 1/2-1/2"),
                    (9, "1. f4"),
                ],
            ),
            (
                "markers in comments and variations",
                b"1. e4 {*}\n\ne5 ; *\n\n(1... c5 *\n\n) 1/2\n\n1. d4 *",
                &[
                    (1, "1. e4 {*}\n\ne5 ; *\n\n(1... c5 *\n\n) 1/2"),
                    (9, "1. d4 *"),
                ],
            ),
            (
                "movetext after the marker",
                b"1. e4 * e5\n\n1. d4 *",
                &[(1, "1. e4 * e5"), (3, "1. d4 *")],
            ),
            (
                "a tag line ends an unclosed variation",
                b"[A \"1\"]\n1. e4 (1. d4 *\n\n[A \"2\"]\n*",
                &[(1, "[A \"1\"]\n1. e4 (1. d4 *"), (4, "[A \"2\"]\n*")],
            ),
            (
                "line ends converted twice",
                b"[A \"1\"]\r\r\n[B \"1\"]\r\r\n\r\r\n1. e4\r\r\ne5 *\r\r\n\r\r\n[A \"2\"]\r\r\n*",
                &[
                    (
                        1,
                        "[A \"1\"]\r\r\n[B \"1\"]\r\r\n\r\r\n1. e4\r\r\ne5 *",
                    ),
                    (13, "[A \"2\"]\r\r\n*"),
                ],
            ),
            (
                "byte-order mark before a later game",
                b"[A \"1\"]\n*\n\xEF\xBB\xBF\n\xEF\xBB\xBF[A \"2\"]\xEF\xBB\xBF\n\xEF\xBB\xBF1. e4\xEF\xBB\xBF\n\n*",
                &[
                    (1, "[A \"1\"]\n*"),
                    (4, "[A \"2\"]\u{feff}\n\u{feff}1. e4\u{feff}\n\n*"),
                ],
            ),
            (
                "form feeds and vertical tabs",
                b"[A \"1\"]\x0c\n\x0b[B \"1\"]\x0b\n\x0c\n1. e4 *\x0c\n\x0b\n\x0c[A \"2\"]\n*\x0b",
                &[
                    (1, "[A \"1\"]\x0c\n\x0b[B \"1\"]\x0b\n\x0c\n1. e4 *"),
                    (6, "[A \"2\"]\n*"),
                ],
            ),
            (
                "comment then blank line before the moves",
                b"[A \"1\"]\n\n{ intro }\n\n1. e4 *\n",
                &[(1, "[A \"1\"]\n\n{ intro }\n\n1. e4 *")],
            ),
            (
                "tag line inside a comment",
                b"[A \"1\"]\n1. e4 {see\n[A \"x\"]\n\nhere} e5 *\n",
                &[(1, "[A \"1\"]\n1. e4 {see\n[A \"x\"]\n\nhere} e5 *")],
            ),
            (
                "brace in a line comment",
                b"[A \"1\"]\n1. e4 ; {\n[A \"2\"]\n1. d4 *\n",
                &[(1, "[A \"1\"]\n1. e4 ; {"), (3, "[A \"2\"]\n1. d4 *")],
            ),
            (
                "brace in a tag value",
                b"[A \"{\"]\n1. e4 *\n[A \"2\"]\n*\n",
                &[(1, "[A \"{\"]\n1. e4 *"), (3, "[A \"2\"]\n*")],
            ),
            (
                "bracket in a tag value",
                b"[A \"]\n[\"]\n1. e4 *\n[A \"2\"]\n*\n",
                &[(1, "[A \"]\n[\"]\n1. e4 *"), (4, "[A \"2\"]\n*")],
            ),
            (
                "bracket and brace in tag values",
                b"[A \"x]y\"] [B \"{\"]\n1. e4 *\n[A \"2\"]\n*\n",
                &[(1, "[A \"x]y\"] [B \"{\"]\n1. e4 *"), (3, "[A \"2\"]\n*")],
            ),
            (
                "escaped quote in a tag value",
                b"[A \"x\\\"{\"]\n1. e4 *\n[A \"2\"]\n*\n",
                &[(1, "[A \"x\\\"{\"]\n1. e4 *"), (3, "[A \"2\"]\n*")],
            ),
            (
                "untagged games",
                b"1. e4 *\n\n1. d4 *\n",
                &[(1, "1. e4 *"), (3, "1. d4 *")],
            ),
            (
                "text before the first game",
                b"Some notes\n\n[A \"1\"]\n*\n",
                &[(1, "Some notes"), (3, "[A \"1\"]\n*")],
            ),
            (
                "escape and comment lines between games",
                b"% escape\n; comment {\n[A \"1\"]\n*\n",
                &[(3, "[A \"1\"]\n*")],
            ),
            (
                "crlf",
                b"[A \"1\"]\r\n\r\n1. e4 *\r\n\r\n[A \"2\"]\r\n*\r\n",
                &[(1, "[A \"1\"]\r\n\r\n1. e4 *"), (5, "[A \"2\"]\r\n*")],
            ),
            (
                "lone cr",
                b"[A \"1\"]\r\r1. e4 *\r\r[A \"2\"]\r*\r",
                &[(1, "[A \"1\"]\r\r1. e4 *"), (5, "[A \"2\"]\r*")],
            ),
            ("bom", b"\xEF\xBB\xBF[A \"1\"]\n*\n", &[(1, "[A \"1\"]\n*")]),
            (
                "tags and moves on one line",
                b"[A \"1\"] 1. e4 {x\ny} *\n\n[A \"2\"]\n*",
                &[(1, "[A \"1\"] 1. e4 {x\ny} *"), (4, "[A \"2\"]\n*")],
            ),
            (
                "indented tag line",
                b"  [A \"1\"]\n1. e4\n  [A \"2\"]\n*",
                &[(1, "[A \"1\"]\n1. e4"), (3, "[A \"2\"]\n*")],
            ),
            (
                "comment left open before a tag section",
                b"[A \"1\"]\n1. e4 { open\n\n[A \"2\"]\n",
                &[(1, "[A \"1\"]\n1. e4 { open"), (4, "[A \"2\"]")],
            ),
            (
                "comment closed in a later game",
                b"1. e4 { open\r\n \t\r\n\r\n  [A \"2\"]\r\n\r\n1. d4 {c} *\r\n",
                &[(1, "1. e4 { open"), (4, "[A \"2\"]\r\n\r\n1. d4 {c} *")],
            ),
            (
                "comment left open in the tag section's prelude",
                b"[A \"1\"]\n\n{ intro\n\n[B \"2\"]\n*\n",
                &[(1, "[A \"1\"]\n\n{ intro"), (5, "[B \"2\"]\n*")],
            ),
            (
                "comment over a blank line and a line that is no tag pair",
                b"1. e4 {a\n\n[%clk 0:01]\n\n[A]\n\n[A x]\n\nz} *\n\n[A \"2\"]\n*\n",
                &[
                    (1, "1. e4 {a\n\n[%clk 0:01]\n\n[A]\n\n[A x]\n\nz} *"),
                    (11, "[A \"2\"]\n*"),
                ],
            ),
            (
                "comment over a line end converted twice",
                b"1. e4 {a\r\r\n[A \"x\"] b} *\n",
                &[(1, "1. e4 {a\r\r\n[A \"x\"] b} *")],
            ),
            (
                "percent escape inside movetext",
                b"[A \"1\"]\n1. e4\n% [A \"x\"]\ne5 *\n",
                &[(1, "[A \"1\"]\n1. e4\n% [A \"x\"]\ne5 *")],
            ),
            (
                "tag value over a line end that the next line closes",
                b"[A \"a long\nvalue\\\"s\" ]\r\n[B \"x\r\ny\"]\n1. e4 *\n[A \"2\"]\n*\n",
                &[
                    (1, "[A \"a long\nvalue\\\"s\" ]\r\n[B \"x\r\ny\"]\n1. e4 *"),
                    (6, "[A \"2\"]\n*"),
                ],
            ),
            (
                "tag value left open: the next line does not close it",
                b"[A \"open\ny z\n[B \"2\"]\n*\n[C \"x\n\"y\"]\n*\n",
                &[
                    (1, "[A \"open\ny z"),
                    (3, "[B \"2\"]\n*"),
                    (5, "[C \"x\n\"y\"]\n*"),
                ],
            ),
            (
                "tag value left open before a tag line",
                b"[A \"open\n[B \"2\"]\n\n1. e4 *\n",
                &[(1, "[A \"open\n[B \"2\"]\n\n1. e4 *")],
            ),
        ];
        for (name, input, expected) in cases {
            let expected: Vec<(u64, String)> =
                expected.iter().map(|&(l, s)| (l, s.to_owned())).collect();
            assert_eq!(frame(input), expected, "{name}");
        }
    }

    #[test]
    fn oversized_game_is_skipped() {
        let mut input = b"[A \"1\"]\n1. e4 {".to_vec();
        input.extend(std::iter::repeat_n(b'x', 5000));
        input.extend_from_slice(b"} *\n\n[A \"2\"]\n*\n");
        let games = frame_with(&input, 1024);
        assert_eq!(
            games,
            [
                (1, "<too large>".to_owned()),
                (4, "[A \"2\"]\n*".to_owned())
            ]
        );
    }

    /// A reader that hands out one byte at a time: every resumption point.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    /// A reader that hands out its text, then fails.
    struct FailAfter<R>(R);

    impl<R: Read> Read for FailAfter<R> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match self.0.read(out)? {
                0 => Err(io::Error::new(io::ErrorKind::InvalidData, "cut")),
                n => Ok(n),
            }
        }
    }

    /// Each game's text, then `Err` with the error's text, as `framer`
    /// frames them.
    fn framed_to_error<R: Read>(mut framer: GameFramer<R>) -> Vec<Result<String, String>> {
        let mut out = Vec::new();
        while let Some(game) = framer.next_game() {
            out.push(
                game.map(|game| String::from_utf8_lossy(game.bytes).into_owned())
                    .map_err(|err| err.to_string()),
            );
        }
        out
    }

    #[test]
    fn a_read_error_comes_after_the_games_read_whole_before_it() {
        let two = "[A \"1\"]\n1. e4 *\n\n[A \"2\"]\n1. d4 *";
        let cases: &[(&str, &str, &[&str])] = &[
            ("nothing read", "", &[]),
            ("blank line after the last marker", "\n\n", &["1", "2"]),
            ("line end after the last marker", "\n", &["1", "2"]),
            ("marker last", "", &["1", "2"]),
            ("movetext after the marker", " e5", &["1", "2"]),
            ("comment cut after the marker", " {cut", &["1", "2"]),
            ("tag line cut", "\n[A \"3", &["1", "2"]),
            (
                "game cut before its marker",
                "\n[A \"3\"]\n1. c4",
                &["1", "2"],
            ),
            ("tag section cut", "\n\n[A \"3\"]\n", &["1", "2"]),
            (
                "marker in a variation",
                "\n[A \"3\"]\n1. c4 (1. d4 *",
                &["1", "2"],
            ),
        ];
        for &(name, tail, games) in cases {
            let text = if name == "nothing read" {
                String::new()
            } else {
                format!("{two}{tail}")
            };
            let mut expected: Vec<Result<String, String>> = Vec::new();
            for &n in games {
                let moves = if n == "1" { "1. e4 *" } else { "1. d4 *" };
                let mut game = format!("[A \"{n}\"]\n{moves}");
                if n == "2" && !tail.starts_with('\n') {
                    game.push_str(tail);
                }
                expected.push(Ok(game));
            }
            expected.push(Err("read error: cut".to_owned()));
            let whole = framed_to_error(GameFramer::new(FailAfter(text.as_bytes())));
            assert_eq!(whole, expected, "{name}");
            let trickled = framed_to_error(GameFramer::new(FailAfter(Trickle(text.as_bytes()))));
            assert_eq!(trickled, expected, "{name}, byte at a time");
        }
    }

    #[test]
    fn byte_at_a_time_reads_frame_the_same() {
        let input: &[u8] =
            b"\xEF\xBB\xBF[A \"x\\\"{\"]\r\n\r\n{c\r\n[B]}\r1. e4 ;{\r\n\r\n[A \"2\"] *\r\r1. d4";
        let trickled = games_of(GameFramer::new(Trickle(input)));
        let whole = games_of(GameFramer::new(input));
        assert_eq!(trickled, whole);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[1].0, 7);
        assert_eq!(whole[2].0, 9);
    }

    #[test]
    fn comments_left_open_end_alike_read_whole_or_byte_at_a_time() {
        // A blank line ends the comment only when it is at most the probe
        // long, and the tag line only when its `"` is within the probe.
        for blank in [0, 1, 255, 256, 257, 300] {
            for indent in [0, 1, 251, 252, 253, 300] {
                let mut input = b"1. e4 {a\r\n".to_vec();
                input.extend(std::iter::repeat_n(b' ', blank));
                input.extend(b"\n");
                input.extend(std::iter::repeat_n(b'\t', indent));
                input.extend(b"[A \"x\"]\nb} *\n");
                let whole = games_of(GameFramer::new(&input[..]));
                let trickled = games_of(GameFramer::new(Trickle(&input)));
                assert_eq!(trickled, whole, "blank {blank}, indent {indent}");
                let ends = blank <= COMMENT_LINE_PROBE && indent + 4 <= COMMENT_LINE_PROBE;
                assert_eq!(
                    whole.len(),
                    1 + usize::from(ends),
                    "blank {blank}, indent {indent}"
                );
            }
        }
    }

    #[test]
    fn tag_values_over_a_line_end_frame_alike_read_whole_or_byte_at_a_time() {
        // The next line closes the value only when its `"` and `]` are
        // within the probe.
        for len in [0, 1, 250, 252, 253, 254, 255, 256, 300] {
            for line_end in ["\n", "\r\n", "\r"] {
                let mut input = format!("[A \"x{line_end}").into_bytes();
                input.extend(std::iter::repeat_n(b'y', len));
                input.extend(b"\"]\n[C \"c\"]\n\n1. e4 *\n[B \"2\"]\n*\n");
                let whole = games_of(GameFramer::new(&input[..]));
                let trickled = games_of(GameFramer::new(Trickle(&input)));
                assert_eq!(trickled, whole, "len {len} {line_end:?}");
                let closes = len + 2 <= 256;
                assert_eq!(whole.len(), 3 - usize::from(closes), "len {len}");
                // The reader takes the tag pair where the framer does.
                let kinds: Vec<TokenKind<'_>> =
                    Tokens::new(&whole[0].2).take(2).map(|t| t.kind).collect();
                let first = match closes {
                    true => crate::pgn::ParsePgnErrorKind::TagOverLines,
                    false => crate::pgn::ParsePgnErrorKind::MalformedTag,
                };
                assert_eq!(kinds[0], TokenKind::Error(first), "len {len}");
                if closes {
                    assert!(matches!(kinds[1], TokenKind::Tag { name: b"C", .. }));
                }
            }
        }
    }

    #[test]
    fn runs_of_tag_lines_frame_as_byte_at_a_time_reads_do() {
        // Read whole, tag lines after a pair pass in runs; read a byte at a
        // time, never (the next line is not there yet).
        let pieces: [&[u8]; 19] = [
            b"[A \"1\"]",
            b"[B \"x]y\"]",
            b"[C \"a\\\"b\"]",
            b"[D \"{\"]",
            b" [E \"e\"]",
            b"[F \"f\"] [G \"g\"]",
            b"[H\"h\"",
            b"\n",
            b"\r\n",
            b"\r",
            b"\n\n",
            b"1. e4 *",
            b"{c\n[I \"i\"]}",
            b"% x\n",
            b"{c\n\n[J \"j\"]}",
            b"{c\r\n \r\n",
            b"[K \"k",
            b"v\"]",
            b"w\\\"x\" ]",
        ];
        let which: Vec<u8> = (0..19).collect();
        for seed in 1..3000 {
            let input: Vec<u8> = scan::soup(seed, 12, &which)
                .iter()
                .flat_map(|&i| pieces[usize::from(i)])
                .copied()
                .collect();
            let whole = games_of(GameFramer::new(&input[..]));
            assert_eq!(
                whole,
                games_of(GameFramer::new(Trickle(&input))),
                "{}",
                input.escape_ascii()
            );
            assert_eq!(
                whole,
                games_of(GameFramer::new(&input[..]).portable()),
                "portable: {}",
                input.escape_ascii()
            );
        }
    }

    #[test]
    fn movetext_soups_frame_whole_as_byte_at_a_time() {
        // Movetext of line ends, comments, `;` and the bytes that start a
        // line, several to a 32-byte window: read whole, the movetext loop
        // takes the stops after a line end from the window it classified;
        // read a byte at a time, it never has more than one byte.
        /// A game's first line, offset, text and comment index.
        type Framed = (u64, u64, Vec<u8>, Vec<[u32; 2]>);
        fn frames<R: Read>(mut framer: GameFramer<R>) -> Vec<Framed> {
            let mut out = Vec::new();
            while let Some(game) = framer.next_game() {
                let game = game.expect("no error");
                // The tag pairs' entries are made on the fast path only.
                let comments = game.comments.0.iter().filter(|e| e[0] & TAG_ENTRY == 0);
                let comments = comments.copied().collect();
                out.push((game.first_line, game.offset, game.bytes.to_vec(), comments));
            }
            out
        }
        let (mut games, mut comments) = (0, 0);
        for seed in 1..300 {
            let mut input = b"[Event \"x\"]\n\n1.".to_vec();
            input.extend(scan::soup(
                seed,
                40 + (seed as usize * 13) % 200,
                b"\n\n\r{}};ab1. [ %",
            ));
            let whole = frames(GameFramer::new(&input[..]));
            let trickled = frames(GameFramer::new(Trickle(&input)));
            assert_eq!(trickled, whole, "seed {seed}: {input:?}");
            let portable = frames(GameFramer::new(&input[..]).portable());
            assert_eq!(portable, whole, "portable, seed {seed}: {input:?}");
            games += whole.len();
            comments += whole.iter().map(|g| g.3.len()).sum::<usize>();
        }
        // The soups made many games and comments.
        assert!(
            games > 300 && comments > 1000,
            "{games} games, {comments} comments"
        );
    }

    #[test]
    fn a_marker_found_past_comments_is_one_the_tokenizer_finds() {
        // Movetext soups of comments holding `[`, `"` and `;`, and of those
        // bytes outside comments, each ending in a result: where the fast
        // path finds the marker, the tokenizer finds it too.
        let (mut hits, mut past_comments, mut misses) = (0, 0, 0);
        for seed in 1..2000 {
            let mut text = b"1. e4 ".to_vec();
            text.extend(scan::soup(
                seed,
                10 + (seed as usize * 7) % 60,
                b"{}};[\"e5 { [%clk 0:01] } 2.",
            ));
            text.extend(b" 1-0");
            let mut framer = GameFramer::new(&text[..]);
            let Some(Ok(game)) = framer.next_game() else {
                continue;
            };
            let comments: Vec<[u32; 2]> = game.comments.0.to_vec();
            let after = comments
                .iter()
                .rev()
                .find(|e| e[0] & TAG_ENTRY == 0)
                .map_or(0, |e| e[1] as usize + 1);
            let bytes = game.bytes;
            // The framer asks only outside comments and variations: not
            // after an unclosed `{`, not with a `(`.
            let open_comment = memchr::memchr(b'{', &bytes[after.min(bytes.len())..]).is_some();
            if open_comment || memchr::memchr(b'(', bytes).is_some() {
                continue;
            }
            let tokenized = Tokens::new(bytes).any(|t| matches!(t.kind, TokenKind::Result(_)));
            if ends_with_marker(bytes, after, &comments, 0) {
                assert!(
                    tokenized,
                    "seed {seed}: {:?}",
                    String::from_utf8_lossy(bytes)
                );
                hits += 1;
                // Found only past the comments: one of those bytes is in one.
                past_comments += usize::from(memchr::memchr3(b';', b'[', b'"', bytes).is_some());
            } else {
                misses += 1;
            }
        }
        assert!(
            hits > 50 && past_comments > 20 && misses > 100,
            "{hits} found ({past_comments} past comments), {misses} left to the tokenizer"
        );
    }

    /// Bytes from a small alphabet of the bytes that matter.
    fn soup(seed: u64, len: usize) -> Vec<u8> {
        scan::soup(seed, len, b"}}{;\n\r\r\nab  ")
    }

    /// Both comment searches find the first `}` after `from` and the line
    /// ends before it, as a byte-by-byte search does.
    fn assert_closes_as_a_plain_search(buf: &[u8], from: usize) {
        let close = buf[from..].iter().position(|&b| b == b'}').map(|i| {
            let (lines, _) = count_lines(&buf[from..from + i], true);
            (from + i, lines)
        });
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            let wide = unsafe { scan::find_close(buf, from) };
            assert_eq!(wide, close, "{buf:?} from {from}");
        }
        assert_eq!(
            scan::find_close_narrow(buf, from),
            close,
            "{buf:?} from {from}"
        );
    }

    #[test]
    fn block_searches_agree_with_plain_ones() {
        for seed in 1..400 {
            let buf = soup(seed, (seed as usize * 7) % 130);
            for from in 0..=buf.len() {
                let text = buf[from..]
                    .iter()
                    .position(|b| matches!(b, b'\n' | b'\r' | b'{' | b';'))
                    .map(|i| from + i);
                assert_eq!(
                    scan::find4(&buf[from..], [b'\n', b'\r', b'{', b';']).map(|i| from + i),
                    text,
                    "{buf:?} from {from}"
                );
                assert_closes_as_a_plain_search(&buf, from);
            }
        }
    }

    #[test]
    fn long_comments_are_closed_as_a_plain_search_closes_them() {
        // Few stops among many plain bytes: the blocked searches run over
        // several blocks, and a stop falls at every place of a block.
        let mut alphabet = vec![b'x'; 90];
        alphabet.extend_from_slice(b"}\n\r\r\n");
        for seed in 1..300 {
            let buf = scan::soup(seed, 64 + (seed as usize * 13) % 400, &alphabet);
            for from in 0..=buf.len() {
                assert_closes_as_a_plain_search(&buf, from);
            }
        }
    }

    #[test]
    fn comment_index_holds_each_comment_and_its_first_close() {
        let input: &[u8] = b"[A \"{x}\"]\n{pre\n[B]} 1. e4 {a}{b\r\n} e5 ; {no}\n2. Nf3 {c} (2. d4 {d}) *\n\n1. c4 {e} *";
        let mut framer = GameFramer::new(input);
        let mut found = Vec::new();
        while let Some(game) = framer.next_game() {
            let game = game.expect("no error");
            for [open, close] in game.comments.comment_spans() {
                let (open, close) = (open as usize, close as usize);
                assert_eq!(game.bytes[open], b'{');
                assert_eq!(
                    memchr::memchr(b'}', &game.bytes[open..]),
                    Some(close - open)
                );
                found.push(String::from_utf8_lossy(&game.bytes[open..=close]).into_owned());
            }
        }
        assert_eq!(found, ["{pre\n[B]}", "{a}", "{b\r\n}", "{c}", "{d}", "{e}"]);
    }

    #[test]
    fn tag_index_holds_the_stops_of_each_plain_tag_pair() {
        // Plain pairs, on their own lines and after one another; a pair
        // with an escape and one too long for the packed stops are read
        // byte by byte, and not indexed.
        let long = format!("[Long \"{}\"]", "x".repeat(5000));
        let input = format!(
            "[A \"1\"]\r\n[Bb  \"x]y\" ]\n[C \"a\\\"b\"]\n{long}\n[D \"\"]\n\n1. e4 {{c}} *\n[E \"2\"] *"
        );
        let mut framer = GameFramer::new(input.as_bytes());
        let mut found = Vec::new();
        while let Some(game) = framer.next_game() {
            let game = game.expect("no error");
            for &[at, stops] in game.comments.spans() {
                if at & TAG_ENTRY == 0 {
                    continue;
                }
                let at = (at & !TAG_ENTRY) as usize;
                let text = &game.bytes[at..];
                assert_eq!(Some(unpack_tag_stops(stops)), scan::tag_stops(text));
                let end = unpack_tag_stops(stops)[2];
                found.push(String::from_utf8_lossy(&text[..=end]).into_owned());
            }
            assert_eq!(game.comments.len(), usize::from(game.number == 1));
        }
        assert_eq!(
            found,
            ["[A \"1\"]", "[Bb  \"x]y\" ]", "[D \"\"]", "[E \"2\"]"]
        );
        assert_eq!(pack_tag_stops([255, 4095, 4095]), Some(0xffff_ffff));
        assert_eq!(unpack_tag_stops(0xffff_ffff), [255, 4095, 4095]);
        assert_eq!(pack_tag_stops([256, 300, 301]), None);
        assert_eq!(pack_tag_stops([1, 4096, 4097]), None);
    }

    #[test]
    fn marks_follow_each_game_through_every_framing_call() {
        let input: &[u8] = b"1. e4 {(} *\n\n1. d4 {\0} (1. c4) *\n\n1. f4 *\n";
        let expected = [(None, true), (Some(7), true), (None, false)];
        let seen = |marks: Marks| (marks.first_nul(), marks.has_paren());
        let mut framer = GameFramer::new(input);
        for want in expected {
            let raw = framer.next_game().expect("a game").expect("no error");
            assert_eq!(seen(raw.marks), want);
        }
        let (mut framer, mut text) = (GameFramer::new(input), Vec::new());
        let mut index = CommentIndex::new();
        for want in expected {
            text.clear();
            let info = framer.next_game_indexed(&mut text, &mut index);
            let info = info.expect("a game").expect("no error");
            assert_eq!(seen(info.with_text(&text, &index).marks), want);
            assert_eq!(seen(info.with_bytes(&text).marks), want);
        }
        let mut framer = GameFramer::new(input);
        for want in expected {
            text.clear();
            let info = framer.next_game_into(&mut text);
            let info = info.expect("a game").expect("no error");
            assert_eq!(seen(info.with_bytes(&text).marks), want);
        }
    }

    #[test]
    fn an_index_gives_comments_only_to_its_own_games() {
        let input: &[u8] = b"1. e4 {a} *\n\n1. d4 {b} {c} *\n";
        let mut framer = GameFramer::new(input);
        let (mut text, mut index) = (Vec::new(), CommentIndex::new());
        let first = framer.next_game_indexed(&mut text, &mut index);
        let first = first.expect("a game").expect("no error");
        let end = text.len();
        let second = framer.next_game_indexed(&mut text, &mut index);
        let second = second.expect("a game").expect("no error");
        assert_eq!(first.with_text(&text[..end], &index).comments.len(), 1);
        assert_eq!(second.with_text(&text[end..], &index).comments.len(), 2);
        assert!(first.with_bytes(&text[..end]).comments.is_empty());
        let other = CommentIndex::new();
        assert!(second.with_text(&text[end..], &other).comments.is_empty());
        index.clear();
        assert!(second.with_text(&text[end..], &index).comments.is_empty());
    }
}
