//! The raw game model: one game's text as the framer delivers it, with
//! what the framer learnt of it on the way (the index of its comments and
//! plain tag pairs, the marks of one pass over its text), and where a game
//! copied out of the framer came from.

/// One game's text as framed, borrowed from the framer's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawGame<'a> {
    /// 1-based number of the game in the input.
    pub number: u64,
    /// Absolute byte offset of the game's first byte in the input.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub first_line: u64,
    /// 1-based column of the game's first byte (1 unless its first line is
    /// indented), for columns of that line in messages.
    pub first_column: u64,
    /// The game's text, from its first line up to where it ended (see
    /// [`GameFramer`](crate::pgn::GameFramer)), without trailing white
    /// space.
    pub bytes: &'a [u8],
    /// Where the framer found the game's `{…}` comments (empty for text
    /// that did not come from a framer).
    pub comments: Comments<'a>,
    /// What one pass over `bytes` found ([`Marks::of`]); a game built
    /// around other bytes must carry their marks.
    pub marks: Marks,
}

impl<'a> RawGame<'a> {
    /// A game from text that did not come from a framer: number 1, line 1,
    /// column 1, offset 0.
    pub fn from_bytes(bytes: &'a [u8]) -> RawGame<'a> {
        RawGame {
            number: 1,
            offset: 0,
            first_line: 1,
            first_column: 1,
            bytes,
            comments: Comments::default(),
            marks: Marks::of(bytes),
        }
    }
}

/// The 1-based column of `buf[start]`: one more than the spaces and tabs
/// right before it on its line (a game's first line may be indented).
pub(crate) fn column_at(buf: &[u8], start: usize) -> u64 {
    let before = buf.get(..start).unwrap_or(buf);
    let indent = before
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    indent as u64 + 1
}

/// What one pass over a game's text finds, for the readers after the
/// framer: the first NUL byte (binary data: nothing is parsed) and whether
/// there is a `(` anywhere (a variation may start: the replay keeps the
/// position before each move).
///
/// The framer makes the pass as it ends each game, while the text is in
/// its core's cache; a worker thread that looked for itself would read the
/// whole game (comments included, which nothing else reads) from memory
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    nul: Option<u32>,
    paren: bool,
}

impl Marks {
    /// The marks of `bytes`.
    pub fn of(bytes: &[u8]) -> Marks {
        match memchr::memchr2(0, b'(', bytes) {
            Some(at) if bytes[at] == 0 => Marks {
                nul: Some(u32::try_from(at).unwrap_or(u32::MAX)),
                paren: memchr::memchr(b'(', &bytes[at..]).is_some(),
            },
            Some(at) => Marks {
                nul: memchr::memchr(0, &bytes[at..])
                    .map(|i| u32::try_from(at + i).unwrap_or(u32::MAX)),
                paren: true,
            },
            None => Marks {
                nul: None,
                paren: false,
            },
        }
    }

    /// The offset of the first NUL byte, if any (in a game over 4 GiB, far
    /// beyond the size bound, one past 4 GiB shows at 4 GiB - 1).
    pub fn first_nul(self) -> Option<usize> {
        self.nul.map(|at| at as usize)
    }

    /// Whether the text has a `(`, where a variation may start (or may
    /// not: it may be in a comment).
    pub fn has_paren(self) -> bool {
        self.paren
    }
}

/// The `{…}` comments of one game as the framer found them: the offsets of
/// each comment's `{` and of the first `}` after it, in the game's text;
/// and, before them, the stops of each tag pair of the common shape
/// `[Name "value"]` (as `scan::tag_stops` finds them).
///
/// The framer passes over every comment and tag line to find where games
/// end; with this index the tokenizer passes over them again without
/// searching. Only a framer makes one, so the offsets always hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Comments<'a>(pub(super) &'a [[u32; 2]]);

/// Marks an entry of a [`Comments`] index as a tag pair: its first word is
/// the offset of the `[` with this bit set, its second the stops packed
/// by [`pack_tag_stops`].
pub(crate) const TAG_ENTRY: u32 = 1 << 31;

/// The stops of a tag pair `[open, close, end]` (offsets from its `[`) in
/// one word, when they fit: `open` in 8 bits, `close` and `end` in 12.
#[inline]
pub(crate) fn pack_tag_stops([open, close, end]: [usize; 3]) -> Option<u32> {
    (open < 1 << 8 && close < 1 << 12 && end < 1 << 12)
        .then_some((open | close << 8 | end << 20) as u32)
}

/// The stops that [`pack_tag_stops`] packed.
#[inline]
pub(crate) fn unpack_tag_stops(word: u32) -> [usize; 3] {
    let word = word as usize;
    [word & 0xff, (word >> 8) & 0xfff, word >> 20]
}

impl<'a> Comments<'a> {
    /// How many comments the index holds.
    pub fn len(self) -> usize {
        self.comment_spans().count()
    }

    /// Whether the index holds no comment.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The comments as `[open, close]` offsets, in order.
    pub fn comment_spans(self) -> impl Iterator<Item = [u32; 2]> + 'a {
        self.0
            .iter()
            .copied()
            .filter(|[open, _]| open & TAG_ENTRY == 0)
    }

    /// An index of these entries, for tests of its readers.
    #[cfg(test)]
    pub(crate) fn from_spans(spans: &'a [[u32; 2]]) -> Comments<'a> {
        Comments(spans)
    }

    /// The index's entries, tag pairs and comments, in order.
    pub(crate) fn spans(self) -> &'a [[u32; 2]] {
        self.0
    }
}

/// Comment indexes of many copied games ([`GameFramer::next_game_indexed`](crate::pgn::GameFramer::next_game_indexed)),
/// kept for reuse across batches.
#[derive(Debug)]
pub struct CommentIndex {
    spans: Vec<[u32; 2]>,
    /// Tells this index's ranges from another's (and from this one's
    /// before [`clear`](Self::clear)).
    generation: u64,
}

impl Default for CommentIndex {
    fn default() -> CommentIndex {
        CommentIndex::new()
    }
}

impl CommentIndex {
    /// An empty index.
    pub fn new() -> CommentIndex {
        CommentIndex {
            spans: Vec::new(),
            generation: next_generation(),
        }
    }

    /// Empties the index; games indexed before no longer find their
    /// comments in it.
    pub fn clear(&mut self) {
        self.spans.clear();
        self.generation = next_generation();
    }

    /// Appends a game's comments, and returns where the game came from,
    /// with its comments in this index.
    pub fn add(&mut self, game: &RawGame<'_>) -> GameInfo {
        let mut info = GameInfo::new(game.number, game.offset, game.first_line);
        info.first_column = game.first_column;
        info.marks = Some(game.marks);
        let spans = game.comments.spans();
        let start = self.spans.len();
        if let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(start + spans.len())) {
            self.spans.extend_from_slice(spans);
            info.comments = (self.generation, start, end);
        }
        info
    }
}

fn next_generation() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Where a game came from, for a game copied out of the framer
/// ([`GameFramer::next_game_into`](crate::pgn::GameFramer::next_game_into)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// 1-based number of the game in the input.
    pub number: u64,
    /// Absolute byte offset of the game's first byte in the input.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub first_line: u64,
    /// 1-based column of the game's first byte.
    pub first_column: u64,
    /// The game's comments in a [`CommentIndex`]: its generation and range.
    pub(super) comments: (u64, u32, u32),
    /// The marks of its text, where the framer made them.
    pub(super) marks: Option<Marks>,
}

impl GameInfo {
    /// Where a game came from, with no comment index.
    pub fn new(number: u64, offset: u64, first_line: u64) -> GameInfo {
        GameInfo {
            number,
            offset,
            first_line,
            first_column: 1,
            comments: (0, 0, 0),
            marks: None,
        }
    }

    /// The game as a [`RawGame`] over its copied text.
    pub fn with_bytes(self, bytes: &[u8]) -> RawGame<'_> {
        RawGame {
            number: self.number,
            offset: self.offset,
            first_line: self.first_line,
            first_column: self.first_column,
            bytes,
            comments: Comments::default(),
            marks: self.marks.unwrap_or_else(|| Marks::of(bytes)),
        }
    }

    /// The game as a [`RawGame`] over its copied text, with its comments
    /// from the index that [`GameFramer::next_game_indexed`](crate::pgn::GameFramer::next_game_indexed) filled (any
    /// other index, or this one after a clear, gives none).
    pub fn with_text<'a>(self, bytes: &'a [u8], index: &'a CommentIndex) -> RawGame<'a> {
        let (generation, start, end) = self.comments;
        let spans = match index.spans.get(start as usize..end as usize) {
            Some(spans) if generation == index.generation => spans,
            _ => &[],
        };
        RawGame {
            comments: Comments(spans),
            ..self.with_bytes(bytes)
        }
    }
}
