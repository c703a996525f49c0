//! Duplicate games: a fingerprint of each game, made during its replay,
//! and the groups of games whose fingerprints say they are the same game.
//!
//! Three criteria ([`Criterion`]):
//!
//! - **exact**: the same moves and the same tags;
//! - **moves**: the same moves, whatever the tags;
//! - **likely**: the same players and date with the moves of one game a
//!   prefix of the other's (a copy cut short, or continued), or the same
//!   players and the same final position.
//!
//! "The same moves" is the same start position and the same mainline moves
//! as played on the board (from, to, promotion), so the notation, the
//! comments, the variations and the move numbers do not matter. A game
//! whose mainline cannot be played to its end is compared by its movetext
//! instead, with runs of white space as one space. Tags are compared as a
//! set of pairs (the order does not matter), each value with its escapes
//! resolved, decoded as every output decodes it (UTF-8, else
//! Windows-1252: a Latin-1 copy of a game is the same game) and without
//! white space at its ends. Players are compared by
//! the letters and digits of their names, case ignored (`Carlsen, Magnus`
//! = `carlsen,magnus`), and only when both are known (not empty, not `?`);
//! dates only when their year is known.
//!
//! The first game of a group (in input order) is its original; every later
//! one is a duplicate. For **likely**, a game is a duplicate when it is
//! related to an earlier game that is not itself a duplicate of the same
//! kind.
//!
//! Memory is bounded: [`Finder`] keeps fixed-size keys (128-bit hashes)
//! in a [`sort::Sorter`], which spills sorted runs to disk past its limit,
//! and marks duplicates in a bit set of one bit per game.

pub mod sort;

use std::io;
use std::path::PathBuf;

use crate::pgn::{RawGame, Span, unescape};
use crate::position::Position;
use crate::replay::{MainlinePly, Observer, Played, ReplayOptions, Replayer};

use self::sort::{Record, Sorted, Sorter};

/// What makes two games the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Criterion {
    /// The same moves and the same tags.
    #[default]
    Exact,
    /// The same moves.
    Moves,
    /// The same players and date with one game's moves a prefix of the
    /// other's, or the same players and final position.
    Likely,
}

/// Why the games of a group are the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Reason {
    /// The same moves and tags.
    MovesAndTags,
    /// The same moves.
    Moves,
    /// The same players and date; the moves agree up to the shorter game.
    PlayersDatePrefix,
    /// The same players and final position.
    PlayersFinalPosition,
}

impl Reason {
    /// A few words for a report.
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::MovesAndTags => "same moves and tags",
            Reason::Moves => "same moves",
            Reason::PlayersDatePrefix => {
                "same players and date, moves agree up to the shorter game"
            }
            Reason::PlayersFinalPosition => "same players and final position",
        }
    }

    const fn code(self) -> u8 {
        self as u8
    }

    const fn from_code(code: u8) -> Option<Reason> {
        Some(match code {
            0 => Reason::MovesAndTags,
            1 => Reason::Moves,
            2 => Reason::PlayersDatePrefix,
            3 => Reason::PlayersFinalPosition,
            _ => return None,
        })
    }
}

/// What a game is compared by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// The start position and the mainline moves (or, for a game whose
    /// mainline cannot be played to its end, its movetext)
    /// ([`Criterion::Exact`] and [`Criterion::Moves`]; else 0).
    pub moves: u128,
    /// The tags, as a set ([`Criterion::Exact`]; else 0).
    pub tags: u128,
    /// White and Black, when both are known ([`Criterion::Likely`]).
    pub players: Option<u64>,
    /// The date, when its year is known ([`Criterion::Likely`]).
    pub date: Option<u64>,
    /// The final position's Zobrist key, when the mainline was played to
    /// its end.
    pub last: Option<u64>,
    /// The mainline moves, one number each (kept for
    /// [`Criterion::Likely`] when the players and the date are known).
    pub line: Vec<u16>,
}

impl Fingerprint {
    /// The one key that games equal by `criterion` share, and others do
    /// not but by a hash collision: for [`Criterion::Exact`] and
    /// [`Criterion::Moves`]; `None` for [`Criterion::Likely`], which is
    /// no equality of keys.
    pub fn key(&self, criterion: Criterion) -> Option<u128> {
        match criterion {
            Criterion::Exact => Some(self.moves ^ self.tags.rotate_left(64)),
            Criterion::Moves => Some(self.moves),
            Criterion::Likely => None,
        }
    }
}

/// A 128-bit hash of a sequence of words: two 64-bit lanes with different
/// multipliers, mixed at the end. Not cryptographic; collisions of
/// 10^8 games are a chance of about 10^-23.
#[derive(Debug, Clone, Copy)]
struct Hash128 {
    a: u64,
    b: u64,
    n: u64,
}

impl Hash128 {
    const fn new(seed: u64) -> Hash128 {
        Hash128 {
            a: seed ^ 0x243f_6a88_85a3_08d3,
            b: seed ^ 0x1319_8a2e_0370_7344,
            n: 0,
        }
    }

    fn word(&mut self, x: u64) {
        self.a = (self.a ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
        self.b = (self.b.wrapping_add(x) ^ (self.b >> 31))
            .wrapping_mul(0xd6e8_feb8_6659_fd93)
            .rotate_left(41);
        self.n += 1;
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        let mut last = [0; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.word(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }

    /// `bytes(&[b])`, in one word.
    #[inline]
    fn byte(&mut self, b: u8) {
        self.word(u64::from(b) ^ (1 << 56));
    }

    fn finish(self) -> u128 {
        let a = fmix(self.a ^ self.n);
        let b = fmix(self.b ^ a.rotate_left(17));
        (u128::from(a) << 64) | u128::from(b)
    }
}

/// The finaliser of MurmurHash3: every input bit flips about half the
/// output bits.
const fn fmix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// The first code of the line of a game that cannot be played to its
/// end (from and to the same square, as no move and no null move is).
const UNPLAYED: u16 = u16::MAX;

/// A move as one number: from, to and promotion (a null move is 0, which
/// no move is: from and to differ).
fn move_code(played: Played) -> u16 {
    match played {
        Played::Null => 0,
        Played::Move(m) => {
            let promotion = m.promotion().map_or(0, |r| r.index() + 1);
            (m.from().index() | (m.to().index() << 6) | (promotion << 12)) as u16
        }
    }
}

/// The observer that fingerprints a game during its replay: the tags as
/// an order-free sum of hashes of each pair, and the mainline moves.
struct Seen<'a> {
    /// Whether the tags are hashed ([`Criterion::Exact`]).
    hash_tags: bool,
    /// Whether the moves are hashed (not for [`Criterion::Likely`], which
    /// compares lines and final positions).
    hash_moves: bool,
    tags: u128,
    white: Option<&'a [u8]>,
    black: Option<&'a [u8]>,
    date: Option<&'a [u8]>,
    /// Where the tag section ends.
    tags_end: usize,
    /// Variation depth: moves at depth 0 are the mainline's.
    depth: u32,
    moves: Hash128,
    line: Vec<u16>,
    keep_line: bool,
}

impl<'a> Observer<'a> for Seen<'a> {
    #[inline]
    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        let value = trim(value);
        if self.hash_tags {
            let mut pair = Hash128::new(4);
            pair.bytes(name);
            // Decoded, so that a Latin-1 copy and a UTF-8 copy of a game
            // have the same tags.
            pair.bytes(crate::pgn::value_text(value).as_bytes());
            self.tags = self.tags.wrapping_add(pair.finish());
        }
        match name {
            b"White" => self.white = Some(value),
            b"Black" => self.black = Some(value),
            b"Date" => self.date = Some(value),
            _ => {}
        }
        self.tags_end = span.end;
    }

    #[inline]
    fn mainline_ply(&mut self, ply: MainlinePly<'_>) {
        if ply.ply == 0 && self.hash_moves {
            self.moves.word(ply.position.zobrist_key());
        }
    }

    #[inline]
    fn played(&mut self, _: &Position, played: Played, _: &crate::MoveToken, _: Span) {
        if self.depth == 0 {
            let code = move_code(played);
            if self.hash_moves {
                self.moves.word(u64::from(code));
            }
            if self.keep_line {
                self.line.push(code);
            }
        }
    }

    #[inline]
    fn begin_variation(&mut self, _: Span) {
        self.depth += 1;
    }

    #[inline]
    fn end_variation(&mut self, _: Span) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// A value without white space at its ends.
fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// Adds a player's name as compared to `hash`: its letters and digits,
/// lower case; `false` (and nothing added) when it has none or is `?`.
fn player(hash: &mut Hash128, value: &[u8]) -> bool {
    if !value.is_ascii() {
        return player_text(hash, value);
    }
    // ASCII, the common case, byte by byte: what `player_text` adds,
    // without unescaping (escapes are of `"` and `\`, neither a letter
    // nor a digit), decoding and a `bytes` call per character.
    let mut any = false;
    for &b in value {
        if b.is_ascii_alphanumeric() {
            hash.byte(b.to_ascii_lowercase());
            any = true;
        }
    }
    hash.word(u64::MAX);
    any
}

/// [`player`] for any text: escapes resolved, decoded, then every letter
/// and digit lower case.
fn player_text(hash: &mut Hash128, value: &[u8]) -> bool {
    let raw = unescape(value);
    let text = crate::encoding::decode(&raw);
    let mut any = false;
    let mut buf = [0; 4];
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        for lower in c.to_lowercase() {
            hash.bytes(lower.encode_utf8(&mut buf).as_bytes());
            any = true;
        }
    }
    hash.word(u64::MAX);
    any
}

/// Fingerprints `raw` by `criterion`, replaying it on `replayer`.
///
/// # Examples
/// ```
/// use pgnkit::dedup::{Criterion, fingerprint};
/// use pgnkit::pgn::RawGame;
/// use pgnkit::replay::{ReplayOptions, Replayer};
///
/// let mut replayer = Replayer::new();
/// let options = ReplayOptions::default();
/// let mut print = |text: &[u8]| fingerprint(&mut replayer, &RawGame::from_bytes(text), &options, Criterion::Exact);
/// let a = print(b"[White \"A\"]\n\n1. e4 {best} e5 (1... c5) 2. Nf3 *");
/// let b = print(b"[White \"A\"]\n\n1.e2-e4 e7-e5 2.Sg1-f3 *");
/// let c = print(b"[White \"B\"]\n\n1. e4 e5 2. Nf3 *");
/// assert_eq!((a.moves, a.tags), (b.moves, b.tags));
/// assert_eq!(a.moves, c.moves);
/// assert_ne!(a.tags, c.tags);
/// ```
pub fn fingerprint(
    replayer: &mut Replayer,
    raw: &RawGame<'_>,
    options: &ReplayOptions,
    criterion: Criterion,
) -> Fingerprint {
    let likely = criterion == Criterion::Likely;
    let mut seen = Seen {
        hash_tags: criterion == Criterion::Exact,
        hash_moves: !likely,
        tags: 0,
        white: None,
        black: None,
        date: None,
        tags_end: 0,
        depth: 0,
        moves: Hash128::new(1),
        // About one ply per four bytes of the game at most: grown once,
        // not doubled from empty on every game.
        line: match likely {
            true => Vec::with_capacity((raw.bytes.len() / 4).clamp(16, 512)),
            false => Vec::new(),
        },
        keep_line: likely,
    };
    let replay = replayer.observe(raw, options, &mut seen);
    let players = match (seen.white, seen.black) {
        (Some(white), Some(black)) if likely => {
            let mut hash = Hash128::new(2);
            (player(&mut hash, white) && player(&mut hash, black)).then(|| hash.finish() as u64)
        }
        _ => None,
    };
    let date = seen
        .date
        .filter(|d| likely && d.len() >= 4 && d[..4].iter().all(u8::is_ascii_digit))
        .map(|d| {
            let mut hash = Hash128::new(3);
            hash.bytes(d);
            hash.finish() as u64
        });
    let last = replay
        .position
        .as_ref()
        .filter(|_| replay.complete)
        .map(Position::zobrist_key);
    let movetext = || movetext_hash(raw.bytes.get(seen.tags_end..).unwrap_or_default());
    let moves = match last {
        _ if likely => 0,
        Some(_) => seen.moves.finish(),
        None => movetext(),
    };
    if last.is_none() {
        // Its movetext stands for its moves, behind a code no move has: it
        // agrees only with the same movetext, never with a played line.
        seen.line.clear();
        if likely {
            let hash = movetext();
            seen.line.push(UNPLAYED);
            seen.line.extend((0..8).map(|i| (hash >> (16 * i)) as u16));
        }
    }
    if !likely || players.is_none() || date.is_none() {
        seen.line = Vec::new();
    }
    Fingerprint {
        moves,
        tags: seen.tags,
        players,
        date,
        last,
        line: seen.line,
    }
}

/// The hash of a game's movetext, with runs of white space as one space.
fn movetext_hash(text: &[u8]) -> u128 {
    let mut norm = Vec::with_capacity(text.len());
    for word in text
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
    {
        norm.extend_from_slice(word);
        norm.push(b' ');
    }
    let mut hash = Hash128::new(5);
    hash.bytes(&norm);
    hash.finish()
}

/// Where a game is: its index in the run (from 0, over all inputs), its
/// input, its number in that input and its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Location {
    /// Index over all inputs, from 0.
    pub index: u64,
    /// The input's index.
    pub input: u32,
    /// The game's 1-based number in its input.
    pub number: u64,
    /// The game's first line.
    pub line: u64,
}

impl Location {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.input.to_le_bytes());
        out.extend_from_slice(&self.number.to_le_bytes());
        out.extend_from_slice(&self.line.to_le_bytes());
    }

    const SIZE: usize = 28;

    fn decode(bytes: &[u8]) -> Option<Location> {
        let b = bytes.get(..Location::SIZE)?;
        Some(Location {
            index: u64::from_le_bytes(b[0..8].try_into().ok()?),
            input: u32::from_le_bytes(b[8..12].try_into().ok()?),
            number: u64::from_le_bytes(b[12..20].try_into().ok()?),
            line: u64::from_le_bytes(b[20..28].try_into().ok()?),
        })
    }
}

/// A game under a 128-bit key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Keyed {
    key: u128,
    at: Location,
}

impl Record for Keyed {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        self.at.encode(out);
    }

    fn decode(bytes: &[u8]) -> Option<Keyed> {
        let (key, rest) = bytes.split_at_checked(16)?;
        Some(Keyed {
            key: u128::from_le_bytes(key.try_into().ok()?),
            at: Location::decode(rest)?,
        })
    }
}

/// A game under its players and date, with its moves.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Lined {
    key: u64,
    at: Location,
    line: Vec<u16>,
}

impl Record for Lined {
    fn heap_bytes(&self) -> usize {
        self.line.len() * 2
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        self.at.encode(out);
        for code in &self.line {
            out.extend_from_slice(&code.to_le_bytes());
        }
    }

    fn decode(bytes: &[u8]) -> Option<Lined> {
        let (key, rest) = bytes.split_at_checked(8)?;
        let line = rest.get(Location::SIZE..)?;
        Some(Lined {
            key: u64::from_le_bytes(key.try_into().ok()?),
            at: Location::decode(rest)?,
            line: line
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        })
    }
}

/// One copy in a group of duplicates, as the report lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Member {
    /// The index of the group's first game.
    pub first: u64,
    /// Why the group's games are the same.
    pub reason: Reason,
    /// Where this copy is.
    pub at: Location,
}

impl Record for Member {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.first.to_le_bytes());
        out.push(self.reason.code());
        self.at.encode(out);
    }

    fn decode(bytes: &[u8]) -> Option<Member> {
        let (first, rest) = bytes.split_at_checked(8)?;
        let (&reason, rest) = rest.split_first()?;
        Some(Member {
            first: u64::from_le_bytes(first.try_into().ok()?),
            reason: Reason::from_code(reason)?,
            at: Location::decode(rest)?,
        })
    }
}

/// The most distinct earlier games of one players-and-date group that a
/// game is compared with ([`Criterion::Likely`]): a bound on the memory
/// of a group of thousands of games between the same players on one day.
pub const MAX_LINES_PER_GROUP: usize = 4096;

/// Finds the duplicates among games added in input order.
///
/// # Examples
/// ```
/// use pgnkit::dedup::{Criterion, Finder, Location, fingerprint};
/// use pgnkit::pgn::RawGame;
/// use pgnkit::replay::{ReplayOptions, Replayer};
///
/// let games: [&[u8]; 3] = [b"1. e4 e5 *", b"1. d4 *", b"1. e4 e5 *"];
/// let mut finder = Finder::new(Criterion::Moves, 1 << 20, std::env::temp_dir());
/// let mut replayer = Replayer::new();
/// for (i, text) in games.iter().enumerate() {
///     let print = fingerprint(&mut replayer, &RawGame::from_bytes(text), &ReplayOptions::default(), Criterion::Moves);
///     finder.add(Location { index: i as u64, input: 0, number: i as u64 + 1, line: 1 }, Some(&print))?;
/// }
/// let found = finder.finish()?;
/// assert_eq!((0..3).map(|i| found.is_duplicate(i)).collect::<Vec<_>>(), [false, false, true]);
/// assert_eq!(found.duplicates(), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Finder {
    criterion: Criterion,
    limit: usize,
    dir: PathBuf,
    keyed: Sorter<Keyed>,
    lined: Sorter<Lined>,
    games: u64,
}

impl Finder {
    /// A finder by `criterion` that keeps about `limit` bytes in memory and
    /// spills to `dir` past it.
    pub fn new(criterion: Criterion, limit: usize, dir: impl Into<PathBuf>) -> Finder {
        let dir = dir.into();
        let share = match criterion {
            Criterion::Likely => limit / 2,
            _ => limit,
        };
        Finder {
            criterion,
            limit,
            keyed: Sorter::new(share, dir.clone()),
            lined: Sorter::new(share, dir.clone()),
            dir,
            games: 0,
        }
    }

    /// Adds the next game, at `at` (whose index must be the number of
    /// games added before), with its fingerprint; `None` for a game that
    /// could not be read, which is no duplicate.
    ///
    /// # Errors
    /// A run cannot be written to disk.
    pub fn add(&mut self, at: Location, print: Option<&Fingerprint>) -> io::Result<()> {
        self.games = self.games.max(at.index + 1);
        let Some(print) = print else {
            return Ok(());
        };
        match self.criterion {
            Criterion::Exact | Criterion::Moves => self.keyed.push(Keyed {
                key: print.key(self.criterion).unwrap_or(print.moves),
                at,
            }),
            Criterion::Likely => {
                if let (Some(players), Some(last)) = (print.players, print.last) {
                    self.keyed.push(Keyed {
                        key: (u128::from(players) << 64) | u128::from(last),
                        at,
                    })?;
                }
                if let (Some(players), Some(date), false) =
                    (print.players, print.date, print.line.is_empty())
                {
                    self.lined.push(Lined {
                        key: fmix(players ^ date.rotate_left(32)),
                        at,
                        line: print.line.clone(),
                    })?;
                }
                Ok(())
            }
        }
    }

    /// Runs written to disk so far.
    pub fn runs(&self) -> usize {
        self.keyed.runs() + self.lined.runs()
    }

    /// Decides which games are duplicates.
    ///
    /// # Errors
    /// A run cannot be written or read back.
    pub fn finish(self) -> io::Result<Found> {
        let mut found = Found {
            marks: vec![0; self.games.div_ceil(64) as usize],
            duplicates: 0,
            groups: 0,
            members: Sorter::new(self.limit / 2, self.dir.clone()),
            runs: 0,
        };
        let reason = match self.criterion {
            Criterion::Exact => Reason::MovesAndTags,
            Criterion::Moves => Reason::Moves,
            Criterion::Likely => Reason::PlayersFinalPosition,
        };
        found.runs += self.keyed.runs() + self.lined.runs();
        found.keyed(self.keyed.finish()?, reason)?;
        found.lined(self.lined.finish()?)?;
        Ok(found)
    }
}

/// The duplicates found: which games are, and the groups.
#[derive(Debug)]
pub struct Found {
    marks: Vec<u64>,
    duplicates: u64,
    groups: u64,
    members: Sorter<Member>,
    runs: usize,
}

impl Found {
    /// Whether the game with index `index` is a duplicate of an earlier one.
    pub fn is_duplicate(&self, index: u64) -> bool {
        self.marks
            .get((index / 64) as usize)
            .is_some_and(|w| w >> (index % 64) & 1 == 1)
    }

    /// How many games are duplicates.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    /// How many groups of copies there are.
    pub fn groups(&self) -> u64 {
        self.groups
    }

    /// How many sorted runs were written to disk (0: everything fitted in
    /// memory).
    pub fn runs(&self) -> usize {
        self.runs + self.members.runs()
    }

    fn mark(&mut self, index: u64) {
        if let Some(word) = self.marks.get_mut((index / 64) as usize) {
            let bit = 1 << (index % 64);
            if *word & bit == 0 {
                self.duplicates += 1;
            }
            *word |= bit;
        }
    }

    /// Groups of equal keys: every game after a key's first is a duplicate.
    fn keyed(&mut self, sorted: Sorted<Keyed>, reason: Reason) -> io::Result<()> {
        let mut first: Option<(Keyed, bool)> = None;
        for item in sorted {
            let item = item?;
            match &mut first {
                Some((head, listed)) if head.key == item.key => {
                    let group = head.at.index;
                    if !*listed {
                        *listed = true;
                        self.groups += 1;
                        let at = head.at;
                        self.members.push(Member {
                            first: group,
                            reason,
                            at,
                        })?;
                    }
                    self.mark(item.at.index);
                    self.members.push(Member {
                        first: group,
                        reason,
                        at: item.at,
                    })?;
                }
                _ => first = Some((item, false)),
            }
        }
        Ok(())
    }

    /// Games of one players-and-date key: each is compared with the first
    /// game of every earlier cluster, and joins the first cluster whose
    /// moves agree with its own up to the shorter game.
    fn lined(&mut self, sorted: Sorted<Lined>) -> io::Result<()> {
        let reason = Reason::PlayersDatePrefix;
        let mut key = None;
        // The first game of each cluster, its moves, and whether it is
        // listed in the report.
        let mut clusters: Vec<(Location, Vec<u16>, bool)> = Vec::new();
        for item in sorted {
            let item = item?;
            if key != Some(item.key) {
                key = Some(item.key);
                clusters.clear();
            }
            let agrees = |line: &[u16]| {
                let n = line.len().min(item.line.len());
                line[..n] == item.line[..n]
            };
            match clusters.iter().position(|(_, line, _)| agrees(line)) {
                Some(i) => {
                    let (head, _, listed) = &mut clusters[i];
                    if !*listed {
                        *listed = true;
                        self.groups += 1;
                        let at = *head;
                        self.members.push(Member {
                            first: at.index,
                            reason,
                            at,
                        })?;
                    }
                    self.mark(item.at.index);
                    self.members.push(Member {
                        first: head.index,
                        reason,
                        at: item.at,
                    })?;
                }
                None if clusters.len() < MAX_LINES_PER_GROUP => {
                    clusters.push((item.at, item.line, false));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// The copies of every group: the groups in the order of their first
    /// games, each game of a group in input order.
    ///
    /// # Errors
    /// A run of the report cannot be written or read back.
    pub fn members(&mut self) -> io::Result<Sorted<Member>> {
        let members = std::mem::replace(&mut self.members, Sorter::new(0, PathBuf::new()));
        members.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_names_hash_as_text_does() {
        for name in [
            "Carlsen, Magnus",
            "carlsen,magnus",
            "?",
            "",
            "  Kasparov, G.  ",
            r#"O\"Kelly de Galway, A."#,
            r"back\\slash 2",
            "NN",
            "!!!",
        ] {
            let (mut fast, mut text) = (Hash128::new(2), Hash128::new(2));
            let any = player(&mut fast, name.as_bytes());
            assert_eq!(any, player_text(&mut text, name.as_bytes()), "{name}");
            assert_eq!(fast.finish(), text.finish(), "{name}");
        }
    }

    fn prints(criterion: Criterion, games: &[&str]) -> Vec<Fingerprint> {
        let mut replayer = Replayer::new();
        games
            .iter()
            .map(|text| {
                fingerprint(
                    &mut replayer,
                    &RawGame::from_bytes(text.as_bytes()),
                    &ReplayOptions::default(),
                    criterion,
                )
            })
            .collect()
    }

    fn duplicates(criterion: Criterion, limit: usize, games: &[&str]) -> Vec<bool> {
        let mut finder = Finder::new(criterion, limit, std::env::temp_dir());
        for (i, print) in prints(criterion, games).iter().enumerate() {
            let at = Location {
                index: i as u64,
                input: 0,
                number: i as u64 + 1,
                line: 1,
            };
            finder.add(at, Some(print)).unwrap();
        }
        let found = finder.finish().unwrap();
        (0..games.len() as u64)
            .map(|i| found.is_duplicate(i))
            .collect()
    }

    const GAMES: &[&str] = &[
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n[Date \"2020.01.02\"]\n\n1. e4 e5 2. Nf3 Nc6 *",
        // The same, other spelling and notation, tags reordered.
        "[Date \"2020.01.02\"]\n[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n\n1.e2-e4 e7-e5 {x} 2.Ng1-f3 (2. d4) Nb8-c6 *",
        // Cut short, players written otherwise.
        "[White \"carlsen,magnus\"]\n[Black \"So Wesley\"]\n[Date \"2020.01.02\"]\n\n1. e4 e5 *",
        // Another game of the same players that day.
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n[Date \"2020.01.02\"]\n\n1. d4 d5 *",
        // The first game's moves, other players.
        "[White \"A\"]\n[Black \"B\"]\n[Date \"2020.01.02\"]\n\n1. e4 e5 2. Nf3 Nc6 *",
        // The same final position by another order, same players, no date.
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n\n1. Nf3 Nc6 2. e4 e5 *",
        // An illegal move: compared by its movetext.
        "1. e4 e5 2. Ke3 *",
        "1.  e4\ne5 2. Ke3  *",
        // The same, with players and date; then written otherwise, which
        // `likely` finds as `exact` does; then other moves after the
        // illegal one. None joins the first game, whose line the moves
        // played before the illegal one start.
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n[Date \"2020.01.02\"]\n\n1. e4 e5 2. Ke3 *",
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n[Date \"2020.01.02\"]\n\n1. e4  e5\n2. Ke3 *",
        "[White \"Carlsen, Magnus\"]\n[Black \"So, Wesley\"]\n[Date \"2020.01.02\"]\n\n1. e4 e5 2. Ke3 Nc6 *",
    ];

    #[test]
    fn criteria_find_their_duplicates() {
        assert_eq!(
            duplicates(Criterion::Exact, 1 << 20, GAMES),
            [
                false, true, false, false, false, false, false, true, false, true, false
            ]
        );
        assert_eq!(
            duplicates(Criterion::Moves, 1 << 20, GAMES),
            [
                false, true, false, false, true, false, false, true, true, true, false
            ]
        );
        assert_eq!(
            duplicates(Criterion::Likely, 1 << 20, GAMES),
            [
                false, true, true, false, false, true, false, false, false, true, false
            ]
        );
    }

    #[test]
    fn spilling_gives_the_same_answer() {
        let many: Vec<&str> = GAMES
            .iter()
            .cycle()
            .take(GAMES.len() * 9)
            .copied()
            .collect();
        for criterion in [Criterion::Exact, Criterion::Moves, Criterion::Likely] {
            assert_eq!(
                duplicates(criterion, 1, &many),
                duplicates(criterion, 1 << 30, &many),
                "{criterion:?}"
            );
        }
    }

    #[test]
    fn records_round_trip() {
        let at = Location {
            index: 7,
            input: 2,
            number: 3,
            line: 99,
        };
        let lined = Lined {
            key: 5,
            at,
            line: vec![1, 2, 65535],
        };
        let mut bytes = Vec::new();
        lined.encode(&mut bytes);
        assert_eq!(Lined::decode(&bytes), Some(lined));
        let member = Member {
            first: 1,
            reason: Reason::PlayersFinalPosition,
            at,
        };
        bytes.clear();
        member.encode(&mut bytes);
        assert_eq!(Member::decode(&bytes), Some(member));
        assert_eq!(Member::decode(&bytes[..10]), None);
    }
}
