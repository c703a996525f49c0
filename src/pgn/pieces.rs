//! Framing one mapped file on several threads: the file is cut into pieces
//! at likely game starts, each piece is framed on its own thread, and the
//! cuts are checked in order.
//!
//! A cut is a guess: a `[` at the start of a line after a line that is not
//! a tag line is where a game starts, unless it stands inside a multi-line
//! comment. [`GameFramer::piece`] frames from a cut up to the next one, and
//! stops where the next game after that cut starts. The cut after a piece
//! was right exactly when that is the cut itself; when it is not, the next
//! piece is framed again from where this one stopped ([`Chain`]). So the
//! pieces frame the same games as one framer over the whole file, and each
//! piece is numbered (games and lines) from the pieces before it.
//!
//! The engine drives it: each worker frames its piece with
//! [`frame_piece`] as if a game started at the cut, then waits for its
//! turn on the [`Chain`] and settles the piece ([`Turn::settle`]).

use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::input::Mapped;
use crate::pgn::framer::indent_len;
use crate::pgn::{CommentIndex, GameFramer, GameInfo, ReadPgnError};

/// The pieces of `bytes`, each about `size` bytes long (at least 1), cut
/// at likely game starts ([`next_cut`]).
#[cfg(test)]
fn cuts(bytes: &[u8], size: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    tapered_cuts(bytes, size, size, 1)
}

/// [`cuts`] that grow shorter toward the end of `bytes`: each piece about
/// `size` bytes, or a `2 * parts`-th of what is left after its start when
/// that is less, but not less than `min`. The workers that take the pieces
/// (`parts` of them) then finish at nearly the same time: with pieces of
/// one size, the last one took up to a piece's time alone.
#[cfg(test)]
fn tapered_cuts(
    bytes: &[u8],
    size: usize,
    min: usize,
    parts: usize,
) -> impl Iterator<Item = Range<usize>> + '_ {
    cuts_within(bytes, size, min, parts, None)
}

/// Pieces that grow shorter toward the end of `bytes` (`tapered_cuts`,
/// which the tests use alone), of about `max_lines` line ends at most
/// ([`line_ends_about`]), and cut within `size` bytes after their end.
/// Where no likely game start ([`next_cut`]) is that close, a piece ends
/// at the next line that is not blank: a guess that [`Chain`] checks like
/// any other. So neither text without tag lines nor a run of tiny games
/// makes a piece that holds the whole file; what bounds the games of a
/// piece is [`frame_piece`]'s `most`, which the lines keep it from
/// reaching.
pub(crate) fn bounded_cuts(
    bytes: &[u8],
    size: usize,
    min: usize,
    parts: usize,
    max_lines: usize,
) -> impl Iterator<Item = Range<usize>> + '_ {
    cuts_within(bytes, size, min, parts, Some(max_lines))
}

/// Pieces of about `size` bytes, or a `2 * parts`-th of what is left when
/// that is less but not less than `min`, cut at likely game starts; bounded
/// in lines and in bytes past their length when `max_lines` is given
/// ([`bounded_cuts`]).
fn cuts_within(
    bytes: &[u8],
    size: usize,
    min: usize,
    parts: usize,
    max_lines: Option<usize>,
) -> impl Iterator<Item = Range<usize>> + '_ {
    let size = size.max(1);
    let min = min.clamp(1, size);
    let share = 2 * parts.max(1);
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() && !(start == 0 && bytes.is_empty()) {
            return None;
        }
        let left = bytes.len() - start;
        let mut want = start + (left / share).clamp(min, size).min(left);
        let end = match max_lines {
            None => next_cut(bytes, want),
            Some(max_lines) => {
                let lines = line_ends_about(&bytes[start..want]);
                if lines > max_lines {
                    // As much of the text as holds `max_lines` at the
                    // density read.
                    let len = (want - start) as u64 * max_lines as u64 / lines as u64;
                    want = start + (len as usize).max(1);
                }
                let limit = want.saturating_add(size).min(bytes.len());
                match next_cut(&bytes[..limit], want) {
                    end if end == limit => next_line(bytes, want),
                    end => end,
                }
            }
        };
        let piece = start..end;
        start = end.max(start + 1);
        Some(piece)
    })
}

/// Bytes of each window [`line_ends_about`] counts in.
const WINDOW: usize = 4 << 10;

/// Windows [`line_ends_about`] counts in.
const WINDOWS: usize = 4;

/// About how many line ends (`\n` or `\r`, each one) `bytes` holds: the
/// count in the densest of four windows of 4 KiB spread over it, scaled to
/// its length; the exact count when it is no longer than the windows.
/// Counting every line end would be a pass over the whole file on the
/// thread that hands out the pieces: a sixth of `validate`'s time over
/// TCEC (long lines) with 2 threads. A text denser between the windows
/// than in them makes a piece of more lines than asked, whose games
/// [`frame_piece`] still bounds.
fn line_ends_about(bytes: &[u8]) -> usize {
    if bytes.len() <= WINDOWS * WINDOW {
        return line_ends(bytes);
    }
    let step = bytes.len() / WINDOWS;
    let densest = (0..WINDOWS)
        .map(|i| line_ends(&bytes[i * step..i * step + WINDOW]))
        .max()
        .unwrap_or(0);
    let lines = densest as u64 * bytes.len() as u64 / WINDOW as u64;
    usize::try_from(lines).unwrap_or(usize::MAX)
}

/// The line ends (`\n` or `\r`, each one) in `bytes`.
fn line_ends(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count()
}

/// The start of the first line after a line end at or after `from - 1`
/// that is not blank; the length of `bytes` when there is none.
fn next_line(bytes: &[u8], from: usize) -> usize {
    let at = from.saturating_sub(1);
    let Some(i) = bytes
        .get(at..)
        .and_then(|rest| memchr::memchr2(b'\n', b'\r', rest))
    else {
        return bytes.len();
    };
    let mut end = at + i + 1;
    while let Some(b'\n' | b'\r' | b' ' | b'\t') = bytes.get(end) {
        end += 1;
    }
    if end >= bytes.len() {
        return bytes.len();
    }
    // Back to the start of the line that is not blank.
    memchr::memrchr2(b'\n', b'\r', &bytes[..end]).map_or(0, |i| i + 1)
}

/// The first likely game start at or after `from`: a `[` that begins a
/// line (after a line end, so never 0), after a line whose first byte
/// other than white space is not `[` (blank, movetext, a result). The
/// length of `bytes` when there is none. A cut after a blank line inside
/// a tag section is a guess the framer may reject (the section goes on
/// when the tag name is new to the game).
fn next_cut(bytes: &[u8], from: usize) -> usize {
    // The line end before a cut at `from` itself counts.
    let search = from.saturating_sub(1);
    let Some(rest) = bytes.get(search..) else {
        return bytes.len();
    };
    for end in memchr::memchr2_iter(b'\n', b'\r', rest).map(|i| search + i) {
        if bytes.get(end + 1) != Some(&b'[') {
            continue;
        }
        // The line before: from the previous line end to `end`, without
        // the `\r` of a CRLF.
        let line_end = if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let line_start = memchr::memrchr2(b'\n', b'\r', &bytes[..line_end]).map_or(0, |i| i + 1);
        // Indentation as the framer reads it.
        let line = &bytes[line_start..line_end];
        if line.get(indent_len(line)) != Some(&b'[') {
            return end + 1;
        }
    }
    bytes.len()
}

/// The games of one piece, as [`GameFramer::piece`] framed them.
#[derive(Debug, Default)]
pub struct FramedPiece {
    /// Each game's place and its range in the file, or a game the framer
    /// skipped, in input order.
    pub games: Vec<Result<(GameInfo, Range<usize>), ReadPgnError>>,
    /// The games' comments.
    pub comments: CommentIndex,
    /// Where the framer started, with the games before it and its line.
    pub start: Link,
    /// Where it stopped (the first byte of the next piece's first game, or
    /// the end of the file), with the games up to there and its line.
    pub end: Link,
}

/// A place between games: its offset, the games before it, and its line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// Byte offset in the file.
    pub at: usize,
    /// Games before it.
    pub number: u64,
    /// Its 1-based line.
    pub line: u64,
}

impl FramedPiece {
    /// Renumbers the games as if the piece had been framed after `number`
    /// games, from line `line`.
    fn renumber(&mut self, number: u64, line: u64) {
        let games = number.wrapping_sub(self.start.number);
        let lines = line.wrapping_sub(self.start.line);
        for game in &mut self.games {
            let (n, l) = match game {
                Ok((info, _)) => (&mut info.number, &mut info.first_line),
                Err(ReadPgnError::GameTooLarge {
                    number, first_line, ..
                }) => (number, first_line),
                Err(_) => continue,
            };
            *n = n.wrapping_add(games);
            *l = l.wrapping_add(lines);
        }
        for link in [&mut self.start, &mut self.end] {
            link.number = link.number.wrapping_add(games);
            link.line = link.line.wrapping_add(lines);
        }
    }
}

/// Frames `piece` of the mapped file (see [`GameFramer::piece`]), as if
/// `number` games came before it and it started on line `line`, but
/// `most` games at most (at least one): the framed games wait in memory
/// for the pieces before, about a hundred bytes each beside the text, and
/// a piece of tiny games denser than its cut foresaw stops early, where
/// the next game starts. The piece after it is then framed again from
/// there ([`Turn::settle`]); the engine hands out no more pieces and cuts
/// the text after the last one written again, in shorter pieces.
pub fn frame_piece(
    map: &Arc<Mapped>,
    piece: Range<usize>,
    number: u64,
    line: u64,
    most: usize,
) -> FramedPiece {
    let mut framer = GameFramer::piece(Arc::clone(map), piece.start, piece.end, number, line);
    let mut framed = FramedPiece {
        start: Link {
            at: piece.start,
            number,
            line,
        },
        ..FramedPiece::default()
    };
    while let Some(game) = framer.next_game_range(&mut framed.comments) {
        framed.games.push(game);
        if framed.games.len() >= most {
            framer.stop_here();
        }
    }
    framed.end = Link {
        at: framer.stopped_at().unwrap_or(map.bytes().len()),
        number: framer.number(),
        line: framer.line(),
    };
    framed
}

/// Where the first game at or after byte `at` of the mapped file starts,
/// with the games before it and its line, as one framer over the whole
/// file finds them: the games before `at` are framed, not handed out
/// ([`GameFramer::pass`]). The end of the file when no game starts there.
///
/// A cut at a guess ([`next_cut`]) may be wrong; this place is exact, at
/// the cost of framing the file up to it.
pub fn game_at(map: &Arc<Mapped>, at: usize) -> Link {
    let start = Link {
        at: 0,
        number: 0,
        line: 1,
    };
    if at == 0 {
        return start;
    }
    game_after(map, start, at)
}

/// [`game_at`] from `from`, a place where a game starts (or the start
/// of the file), known with the games before it and its line: only the
/// text from there is framed.
pub fn game_after(map: &Arc<Mapped>, from: Link, at: usize) -> Link {
    if from.at >= at {
        return from;
    }
    let mut framer = GameFramer::piece(Arc::clone(map), from.at, at, from.number, from.line);
    framer.pass();
    Link {
        at: framer.stopped_at().unwrap_or(map.bytes().len()),
        number: framer.number(),
        line: framer.line(),
    }
}

/// The order in which pieces are settled: each piece's cut is checked
/// against where the piece before it stopped, and its games numbered on
/// from it. Shared by the threads that frame the pieces.
#[derive(Debug)]
pub struct Chain {
    /// The next piece to settle, and where its first game starts.
    next: Mutex<(u64, Link)>,
    settled: Condvar,
}

impl Default for Chain {
    fn default() -> Chain {
        Chain::new()
    }
}

impl Chain {
    /// A chain whose first piece starts the file.
    pub fn new() -> Chain {
        Chain::starting_at(Link {
            at: 0,
            number: 0,
            line: 1,
        })
    }

    /// A chain whose first piece starts at `start`, a place where a game
    /// starts ([`game_at`]).
    pub fn starting_at(start: Link) -> Chain {
        Chain {
            next: Mutex::new((0, start)),
            settled: Condvar::new(),
        }
    }

    /// Waits until every piece before piece `index` (0-based, in file
    /// order) is settled, for at most `patience` (`None`: as long as it
    /// takes), and gives the piece its turn to settle; `None` if the
    /// pieces before it took longer, or if it was settled already.
    pub fn turn(&self, index: u64, patience: Option<Duration>) -> Option<Turn<'_>> {
        let next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
        let waiting = |next: &mut (u64, Link)| next.0 < index;
        let next = match patience {
            None => self
                .settled
                .wait_while(next, waiting)
                .unwrap_or_else(PoisonError::into_inner),
            Some(patience) => {
                self.settled
                    .wait_timeout_while(next, patience, waiting)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        };
        (next.0 == index).then(|| Turn {
            chain: self,
            index,
            start: next.1,
        })
    }
}

/// A piece's turn to settle ([`Chain::turn`]): every piece before it is
/// settled. The chain waits until [`settle`](Turn::settle) is called.
#[derive(Debug)]
#[must_use = "the pieces after this one wait until it is settled"]
pub struct Turn<'a> {
    chain: &'a Chain,
    index: u64,
    start: Link,
}

impl Turn<'_> {
    /// Where the piece's first game starts, with the games before it and
    /// its line: where the piece before it stopped.
    #[cfg(test)]
    fn start(&self) -> Link {
        self.start
    }

    /// Settles the piece: `guess`, framed from the piece's cut, if the
    /// piece before it stopped right at the cut; nothing, if that piece
    /// ran past this one's end; otherwise the piece framed again from
    /// where the piece before it stopped, `most` games at most
    /// ([`frame_piece`]). The games come numbered on from the pieces
    /// before, and the next piece gets its turn.
    pub fn settle(
        self,
        map: &Arc<Mapped>,
        piece: Range<usize>,
        mut guess: FramedPiece,
        most: usize,
    ) -> FramedPiece {
        let start = self.start;
        let framed = if start.at == piece.start {
            guess.renumber(start.number, start.line);
            guess
        } else if start.at >= piece.end {
            FramedPiece {
                start,
                end: start,
                ..FramedPiece::default()
            }
        } else {
            frame_piece(map, start.at..piece.end, start.number, start.line, most)
        };
        let mut next = self
            .chain
            .next
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *next = (self.index + 1, framed.end);
        drop(next);
        self.chain.settled.notify_all();
        framed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_counted_in_short_texts_and_read_from_windows_in_long_ones() {
        let count = |text: &[u8]| memchr::memchr2_iter(b'\n', b'\r', text).count();
        for text in [
            Vec::new(),
            b"a\r\nb\rc\n".to_vec(),
            b"x\n".repeat(WINDOWS * WINDOW / 2),
        ] {
            assert_eq!(line_ends_about(&text), count(&text));
        }
        // A text of one kind of line throughout: about its count.
        let text = b"1. e4 *\r\n\r\n".repeat(100_000);
        let (about, exact) = (line_ends_about(&text), count(&text));
        assert!(about.abs_diff(exact) < exact / 100, "{about} for {exact}");
        // Long lines with a dense stretch where a window falls: the
        // densest window speaks for the whole text.
        let mut text = b"x".repeat(1 << 20);
        let step = text.len() / WINDOWS;
        text[2 * step..2 * step + WINDOW].fill(b'\n');
        assert_eq!(line_ends_about(&text), text.len());
    }

    /// A framed game as the piece tests compare it: its number, offset,
    /// first line, text and comment count; or the refusal of an oversized
    /// game.
    type Summary = Result<(u64, u64, u64, Vec<u8>, usize), String>;

    fn summary(game: Result<crate::pgn::RawGame<'_>, ReadPgnError>) -> Summary {
        game.map(|g| {
            let comments = g.comments.len();
            (g.number, g.offset, g.first_line, g.bytes.to_vec(), comments)
        })
        .map_err(|err| err.to_string())
    }

    /// Frames `text` in pieces of each of `sizes`, settled in order, and
    /// as a whole: the same games, numbers, offsets, lines and comments.
    /// Gives, for each size, how many pieces were framed again and how
    /// many dropped (their cut was wrong).
    fn frame_in_pieces(text: &[u8], sizes: &[usize]) -> Vec<(usize, usize, usize)> {
        sizes
            .iter()
            .map(|&size| frame_in_pieces_of(text, size, usize::MAX))
            .collect()
    }

    /// [`frame_in_pieces`] with pieces of `size` bytes framed `most` games
    /// at a time: after the last piece, the text after where it stopped is
    /// cut again, as the engine cuts the text after the last piece it
    /// wrote.
    fn frame_in_pieces_of(text: &[u8], size: usize, most: usize) -> (usize, usize, usize) {
        let mut framer = GameFramer::new(text);
        let mut whole = Vec::new();
        while let Some(game) = framer.next_game() {
            whole.push(summary(game));
        }
        let map = Arc::new(Mapped::from_bytes(text));
        let (mut games, mut reframed, mut dropped) = (Vec::new(), 0, 0);
        let mut start = Link {
            at: 0,
            number: 0,
            line: 1,
        };
        loop {
            let chain = Chain::starting_at(start);
            for (index, piece) in cuts(&text[start.at..], size).enumerate() {
                let piece = start.at + piece.start..start.at + piece.end;
                let guess = frame_piece(&map, piece.clone(), 0, 1, most);
                let turn = chain.turn(index as u64, None).expect("its turn");
                let at = turn.start().at;
                if at >= piece.end {
                    dropped += 1;
                } else if at != piece.start {
                    reframed += 1;
                }
                let framed = turn.settle(&map, piece, guess, most);
                assert!(framed.games.len() <= most);
                for game in framed.games {
                    games.push(summary(game.map(|(info, range)| {
                        info.with_text(&text[range], &framed.comments)
                    })));
                }
            }
            let end = chain.next.lock().unwrap_or_else(PoisonError::into_inner).1;
            if end.at >= text.len() || end.at == start.at {
                break;
            }
            start = end;
        }
        let differs = (0..games.len().max(whole.len())).find(|&i| games.get(i) != whole.get(i));
        assert_eq!(differs, None, "pieces of {size}, {most} games at most");
        (size, reframed, dropped)
    }

    /// Cut traps: a tag line inside a multi-line comment (a wrong cut,
    /// framed again), a game longer than many pieces (cuts inside it,
    /// dropped).
    #[test]
    fn pieces_frame_like_one_framer() {
        let mut text = Vec::new();
        for n in 0..400 {
            let comment = match n {
                50 => "x".repeat(100 << 10),
                90 => "y\n[Event \"inside\"]\n".repeat(2000),
                _ if n % 3 == 0 => "multi\r\n[Event \"no\"]\r\nline".into(),
                _ => "%clk 0:05:00".into(),
            };
            text.extend_from_slice(
                format!("[Event \"g{n}\"]\r\n\r\n1. e4 {{{comment}}} e5 (1... c5) *\r\n\r\n")
                    .as_bytes(),
            );
        }
        for (size, reframed, dropped) in
            frame_in_pieces(&text, &[1, 100, 997, 4096, 65_536, 1 << 20])
        {
            if (100..=4096).contains(&size) {
                assert!(
                    reframed > 0 && dropped > 0,
                    "pieces of {size}: {reframed} framed again, {dropped} dropped"
                );
            }
        }
        // Pieces that stop after a few games.
        for (size, most) in [(100, 1), (4096, 2), (1 << 20, 7)] {
            frame_in_pieces_of(&text, size, most);
        }
    }

    /// As [`pieces_frame_like_one_framer`], on random soups of the bytes
    /// and lines that decide game boundaries: tag sections with and
    /// without movetext, blank lines inside movetext and tag sections,
    /// markers in comments and variations, byte-order marks, form feeds,
    /// `\r\r\n`.
    #[test]
    fn soup_pieces_frame_like_one_framer() {
        const PARTS: &[&[u8]] = &[
            b"[Event \"x\"]\n",
            b"[Site \"y\"]\n",
            b"[Event \"x\"]",
            b"\n",
            b"\n\n",
            b"\r\n",
            b"\r\r\n",
            b"\r",
            b"1. e4 ",
            b"e5 ",
            b"1-0",
            b"0-1 ",
            b"*",
            b"1/2-1/2\n",
            b"{",
            b"}",
            b"{c * 1-0}",
            b"(",
            b")",
            b"; x\n",
            b"% y\n",
            b"\xEF\xBB\xBF",
            b"\x0c",
            b"\x0b",
            b" ",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut text = Vec::new();
        while text.len() < 300_000 {
            // A run of parts, and now and then a game whose marker ends it.
            for _ in 0..next() % 40 {
                text.extend_from_slice(PARTS[next() as usize % PARTS.len()]);
            }
            if next() % 3 == 0 {
                text.extend_from_slice(b" *\n\n[Event \"z\"]\n");
            }
        }
        let sizes = frame_in_pieces(&text, &[100, 997, 4096, 65_536]);
        let reframed: usize = sizes.iter().map(|s| s.1).sum();
        assert!(reframed > 0, "the soup makes wrong cuts: {sizes:?}");
        for (size, most) in [(997, 1), (4096, 3), (65_536, 50)] {
            frame_in_pieces_of(&text, size, most);
        }
    }

    #[test]
    fn cuts_fall_on_tag_lines_after_other_lines() {
        let text = b"[A \"1\"]\n\x0c\xEF\xBB\xBF [B \"2\"]\n[F \"6\"]\n\n1. e4 *\n[C \"3\"]\r\n\r\n1. d4 *\r\n\r\n[D \"4\"]\r[E \"5\"]\r\r1. c4 *";
        let starts: Vec<usize> = [b"[C", b"[D"]
            .iter()
            .map(|pat| text.windows(2).position(|w| w == *pat).expect("in text"))
            .collect();
        // Not after a tag line ([A], [B] indented, [D]), nor inside the
        // first line.
        assert_eq!(next_cut(text, 0), starts[0]);
        assert_eq!(next_cut(text, starts[0]), starts[0]);
        assert_eq!(next_cut(text, starts[0] + 1), starts[1]);
        assert_eq!(next_cut(text, starts[1] + 1), text.len());
        assert_eq!(next_cut(text, text.len() + 5), text.len());
        // Pieces cover the text, in order, without gaps.
        for size in [1, 2, 10, 1000] {
            let pieces: Vec<_> = cuts(text, size).collect();
            assert_eq!(pieces.first().map(|p| p.start), Some(0));
            assert_eq!(pieces.last().map(|p| p.end), Some(text.len()));
            assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
            assert!(pieces.iter().all(|p| p.start < p.end));
        }
        assert_eq!(cuts(b"", 10).collect::<Vec<_>>(), vec![0..0]);
    }

    #[test]
    fn tapered_cuts_shorten_toward_the_end() {
        let game = b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n";
        let text: Vec<u8> = game
            .iter()
            .copied()
            .cycle()
            .take(game.len() * 2000)
            .collect();
        let starts: Vec<usize> = (0..2000).map(|i| i * game.len()).collect();
        let (size, min) = (4000, 500);
        let pieces: Vec<_> = tapered_cuts(&text, size, min, 2).collect();
        assert_eq!(pieces.first().map(|p| p.start), Some(0));
        assert_eq!(pieces.last().map(|p| p.end), Some(text.len()));
        assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
        // Each cut is a game start, where `cuts` would put one.
        assert!(
            pieces
                .iter()
                .all(|p| starts.binary_search(&p.start).is_ok())
        );
        assert!(
            pieces[1..]
                .iter()
                .all(|p| next_cut(&text, p.start) == p.start)
        );
        let lens: Vec<usize> = pieces.iter().map(|p| p.end - p.start).collect();
        let last = lens.len() - 1;
        // Full pieces first, then shorter ones, none under the minimum but
        // the last.
        assert!(lens[0] >= size && lens[0] < size + game.len());
        assert!(lens[..last].iter().all(|&n| n >= min));
        assert!(lens[last - 3] < size / 2, "{lens:?}");
        assert!(
            lens.windows(2).all(|w| w[1] <= w[0] + game.len()),
            "{lens:?}"
        );
        // No taper: the cuts of one size.
        let plain: Vec<_> = cuts(&text, size).collect();
        assert_eq!(
            tapered_cuts(&text, size, size, 2).collect::<Vec<_>>(),
            plain
        );
        assert_eq!(tapered_cuts(b"", 10, 1, 2).collect::<Vec<_>>(), vec![0..0]);
    }

    #[test]
    fn turns_come_in_order() {
        let chain = Chain::new();
        assert!(
            chain.turn(1, Some(Duration::ZERO)).is_none(),
            "piece 0 first"
        );
        let turn = chain.turn(0, Some(Duration::ZERO)).expect("piece 0's turn");
        assert_eq!(
            turn.start(),
            Link {
                at: 0,
                number: 0,
                line: 1
            }
        );
        // Settling needs a map; advance the chain as `settle` does.
        let next = Link {
            at: 10,
            number: 2,
            line: 5,
        };
        *chain.next.lock().unwrap_or_else(PoisonError::into_inner) = (1, next);
        chain.settled.notify_all();
        assert!(
            chain.turn(0, Some(Duration::ZERO)).is_none(),
            "settled already"
        );
        let waiter = std::thread::scope(|s| {
            let waiter = s.spawn(|| chain.turn(2, None).map(|t| t.start()));
            std::thread::sleep(Duration::from_millis(20));
            let turn = chain.turn(1, None).expect("piece 1's turn");
            assert_eq!(turn.start(), next);
            *chain.next.lock().unwrap_or_else(PoisonError::into_inner) = (
                2,
                Link {
                    at: 20,
                    number: 3,
                    line: 9,
                },
            );
            chain.settled.notify_all();
            waiter.join()
        });
        assert_eq!(waiter.ok().flatten().map(|l| l.at), Some(20));
    }
}
