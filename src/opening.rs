//! Opening names: the ECO code and name of a game, found from the
//! positions its mainline reaches.
//!
//! The table is lichess's `chess-openings` (CC0; `data/openings/`, compiled
//! into the library): 3,807 named lines of SAN from the standard start.
//! At first use each line is played out once (about 2.6 ms) and its
//! final position is indexed by its Zobrist key, which covers the piece
//! placement, the side to move, the castling rights and a legal en-passant
//! capture — the fields of lichess's own EPD keys.
//!
//! A game is classified by every mainline position it reaches up to ply
//! [`Openings::horizon`], so transpositions count: the opening is the
//! known position whose table line is the *deepest* (the most plies); of
//! two equally deep ones, the later in the game. When several table lines
//! end in the same position, the index keeps the shortest of them (the
//! first in table order among equals): the name that position is reached
//! by first.
//!
//! # Examples
//! ```
//! use pgnkit::opening::Classifier;
//! use pgnkit::pgn::RawGame;
//! use pgnkit::replay::{MainlinePly, ReplayOptions, Replayer};
//!
//! // The Najdorf, reached by a move order of the Open Sicilian.
//! let raw = RawGame::from_bytes(b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3 *");
//! let mut classifier = Classifier::new();
//! Replayer::new().replay_with(&raw, &ReplayOptions::default(), &mut |ply: MainlinePly<'_>| {
//!     classifier.push(ply.ply, ply.position)
//! });
//! let opening = classifier.opening().unwrap();
//! assert_eq!(opening.eco, "B90");
//! assert_eq!(opening.name, "Sicilian Defense: Najdorf Variation, Adams Attack");
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::LetterPolicy;
use crate::notation::MoveToken;
use crate::pgn::{Span, Tag};
use crate::position::Position;

/// The table as shipped, one TSV text per ECO volume.
const VOLUMES: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

/// Positions a game may go past the deepest table line and still reach a
/// table position: moves that lose tempi (a knight out and back) delay a
/// known position without changing it.
const HORIZON_MARGIN: u32 = 20;

/// One named line of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The name, e.g. `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
    /// The line's moves in SAN, as the table writes them.
    pub line: &'static str,
    /// Plies in the line: how deep the position is.
    pub plies: u32,
}

/// Zobrist keys are random already: they index a map as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The table, played out and indexed by position.
#[derive(Debug)]
pub struct Openings {
    entries: Vec<Opening>,
    /// Lines that did not play (none in the shipped table): line number
    /// in the concatenated volumes.
    unplayable: Vec<usize>,
    index: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    /// One bit per value of a key's top 16 bits, set for the keys of the
    /// index: most positions of a game are in no line, and one load of
    /// this 8 KiB set says so.
    present: Box<[u64; 1024]>,
    horizon: u32,
}

impl Openings {
    /// The shipped table, built at first use. Its volumes are played on
    /// the threads of rayon's pool that are free: a command that needs the
    /// table asks for it before its workers start, so that none of them
    /// waits on one thread's build.
    pub fn get() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| Openings::build(&VOLUMES))
    }

    /// The table of `volumes` (TSV: `eco`, `name`, `pgn`, a header line).
    fn build(volumes: &[&'static str]) -> Openings {
        let played: Vec<Volume> = volumes.par_iter().map(|v| Volume::play(v)).collect();
        let mut entries = Vec::new();
        let mut unplayable = Vec::new();
        let mut keys = Vec::new();
        let mut lines_before = 0;
        for volume in played {
            entries.extend(volume.entries);
            keys.extend(volume.keys);
            unplayable.extend(volume.unplayable.iter().map(|n| lines_before + n));
            lines_before += volume.lines;
        }
        let mut index: HashMap<u64, usize, _> = HashMap::default();
        for (i, key) in keys.into_iter().enumerate() {
            let kept = index.entry(key).or_insert(i);
            if entries[i].plies < entries[*kept].plies {
                *kept = i;
            }
        }
        let mut present = Box::new([0u64; 1024]);
        for &key in index.keys() {
            let bit = key >> 48;
            present[(bit >> 6) as usize] |= 1 << (bit & 63);
        }
        let deepest = entries.iter().map(|o| o.plies).max().unwrap_or(0);
        Openings {
            entries,
            unplayable,
            index,
            present,
            horizon: deepest + HORIZON_MARGIN,
        }
    }

    /// Every line of the table that plays, in table order.
    pub fn entries(&self) -> &[Opening] {
        &self.entries
    }

    /// Lines of the table that do not play (0-based, header lines not
    /// counted): none in the shipped table.
    pub fn unplayable(&self) -> &[usize] {
        &self.unplayable
    }

    /// The last ply at which a game's position is looked up: the deepest
    /// line's plies and a margin of 20 for lost tempi.
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// The opening whose line ends in the position of Zobrist key `key`
    /// ([`Position::zobrist_key`]).
    #[inline]
    pub fn by_key(&self, key: u64) -> Option<&Opening> {
        let bit = key >> 48;
        if self.present[(bit >> 6) as usize] & (1 << (bit & 63)) == 0 {
            return None;
        }
        self.index.get(&key).map(|&i| &self.entries[i])
    }
}

/// One volume of the table, played: its lines that play, their final
/// positions' keys, and the numbers of the lines that do not.
struct Volume {
    entries: Vec<Opening>,
    keys: Vec<u64>,
    unplayable: Vec<usize>,
    lines: usize,
}

impl Volume {
    /// Plays the lines of `volume` (TSV with a header line) in order.
    fn play(volume: &'static str) -> Volume {
        let mut played = Volume {
            entries: Vec::new(),
            keys: Vec::new(),
            unplayable: Vec::new(),
            lines: 0,
        };
        let mut player = LinePlayer::default();
        for (number, line) in volume.lines().skip(1).enumerate() {
            played.lines += 1;
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                played.unplayable.push(number);
                continue;
            };
            match player.play(moves) {
                Some((plies, key)) if plies > 0 => {
                    played.keys.push(key);
                    played.entries.push(Opening {
                        eco,
                        name,
                        line: moves,
                        plies,
                    });
                }
                _ => played.unplayable.push(number),
            }
        }
        played
    }
}

/// Plays the table's lines, each from the longest run of moves it shares
/// with the line before: in ECO order most lines extend or branch off
/// their predecessor, so building the table plays a fraction of its moves.
#[derive(Default)]
struct LinePlayer<'t> {
    /// The moves of the line played last.
    moves: Vec<&'t str>,
    /// The positions of that line: the start position, then after each
    /// move.
    positions: Vec<Position>,
}

impl<'t> LinePlayer<'t> {
    /// The plies and the final position's key of `line` (SAN from the
    /// standard start, with move numbers); `None` when a token is neither
    /// a move number nor a legal move.
    fn play(&mut self, line: &'t str) -> Option<(u32, u64)> {
        if self.positions.is_empty() {
            self.positions.push(Position::startpos());
        }
        let mut plies = 0;
        let mut shared = true;
        for word in line.split_ascii_whitespace() {
            if word.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                continue;
            }
            if shared && self.moves.get(plies) == Some(&word) {
                plies += 1;
                continue;
            }
            if shared {
                shared = false;
                self.moves.truncate(plies);
                self.positions.truncate(plies + 1);
            }
            let before = *self.positions.last()?;
            let token = MoveToken::parse(word.as_bytes()).ok()?;
            let m = token.resolve(&before, LetterPolicy::Auto).ok()?.as_move()?;
            let mut after = before;
            after.play_unchecked(m);
            self.moves.push(word);
            self.positions.push(after);
            plies += 1;
        }
        let key = self.positions.get(plies)?.zobrist_key();
        Some((u32::try_from(plies).ok()?, key))
    }
}

/// Classifies one game: shown its mainline positions in order, it keeps
/// the deepest known one.
#[derive(Debug, Clone, Copy)]
pub struct Classifier {
    table: &'static Openings,
    best: Option<&'static Opening>,
}

impl Default for Classifier {
    fn default() -> Classifier {
        Classifier::new()
    }
}

impl Classifier {
    /// A classifier for one game, on the shipped table.
    pub fn new() -> Classifier {
        Classifier {
            table: Openings::get(),
            best: None,
        }
    }

    /// Shows the mainline position after `ply` plies (the start position
    /// is ply 0 and never named).
    #[inline]
    pub fn push(&mut self, ply: u32, position: &Position) {
        if ply == 0 || ply > self.table.horizon {
            return;
        }
        if let Some(found) = self.table.by_key(position.zobrist_key())
            && self.best.is_none_or(|best| found.plies >= best.plies)
        {
            self.best = Some(found);
        }
    }

    /// The opening of the positions shown so far: the deepest known one.
    pub fn opening(&self) -> Option<&'static Opening> {
        self.best
    }
}

/// Sets the `ECO` and `Opening` tags of `tags` to `opening`: the first
/// tag of each name gets the new value (later ones are dropped), a missing
/// one is added at the end.
pub fn set_opening_tags<'a>(tags: &mut Vec<Tag<'a>>, opening: &'static Opening) {
    for (name, value) in [("ECO", opening.eco), ("Opening", opening.name)] {
        let mut seen = false;
        tags.retain_mut(|tag| {
            if !tag.is(name) {
                return true;
            }
            let first = !seen;
            tag.value = value.as_bytes();
            seen = true;
            first
        });
        if !seen {
            tags.push(Tag {
                name: name.as_bytes(),
                value: value.as_bytes(),
                span: Span::default(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::RawGame;
    use crate::replay::{MainlinePly, ReplayOptions, Replayer, Status};

    /// Each line, played on from the line before it, ends where the
    /// replay engine, playing it from the start, ends it.
    #[test]
    fn lines_played_from_shared_moves_end_as_replayed() {
        let mut replayer = Replayer::new();
        for entry in Openings::get().entries() {
            let raw = RawGame::from_bytes(entry.line.as_bytes());
            let mut last = None;
            let mut on_ply = |p: MainlinePly<'_>| last = Some((p.ply, p.position.zobrist_key()));
            let replay = replayer.replay_with(&raw, &ReplayOptions::default(), &mut on_ply);
            assert_eq!(replay.status, Status::Valid, "{}", entry.line);
            let (plies, key) = last.unwrap_or_else(|| panic!("{}", entry.line));
            assert_eq!(plies, entry.plies, "{}", entry.line);
            let found = Openings::get()
                .by_key(key)
                .unwrap_or_else(|| panic!("{}", entry.line));
            assert!(found.plies <= entry.plies, "{}", entry.line);
        }
    }

    /// A line that is no line of moves does not play.
    #[test]
    fn lines_with_debris_do_not_play() {
        let mut player = LinePlayer::default();
        assert_eq!(player.play("1. e4 e5 2. Nf3").map(|p| p.0), Some(3));
        assert_eq!(player.play("1. e4 e5 2. Ke3"), None);
        assert_eq!(player.play("1. e4 {x} e5"), None);
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let key = Position::from_fen(after_e4).unwrap().zobrist_key();
        assert_eq!(player.play("1. e4"), Some((1, key)));
    }

    /// The opening of a line of SAN.
    fn classify(moves: &str) -> Option<&'static Opening> {
        let raw = RawGame::from_bytes(moves.as_bytes());
        let mut classifier = Classifier::new();
        Replayer::new().replay_with(&raw, &ReplayOptions::default(), &mut |p: MainlinePly<
            '_,
        >| {
            classifier.push(p.ply, p.position)
        });
        classifier.opening()
    }

    #[test]
    fn every_line_of_the_table_plays() {
        let table = Openings::get();
        assert_eq!(table.unplayable(), &[] as &[usize]);
        let lines: usize = VOLUMES.iter().map(|v| v.lines().count() - 1).sum();
        assert_eq!(table.entries().len(), lines);
        assert!(table.horizon() > HORIZON_MARGIN);
    }

    #[test]
    fn every_line_is_classified_as_itself_or_a_tie() {
        // A line is named by itself, or by a line of the table ending in
        // the same position (a tie the index settles for the shortest).
        let table = Openings::get();
        let (mut itself, mut ties) = (0, 0);
        for entry in table.entries() {
            let found = classify(entry.line).unwrap_or_else(|| panic!("{}", entry.line));
            if found == entry {
                itself += 1;
            } else {
                let same = classify(found.line).map(|o| o.line);
                assert_eq!(same, Some(found.line), "{} vs {}", entry.line, found.line);
                assert!(found.plies <= entry.plies, "{}", entry.line);
                ties += 1;
            }
        }
        assert!(itself > 0 && itself + ties == table.entries().len());
    }

    #[test]
    fn names_need_no_escapes() {
        // Tag values are written as they are: no quote or backslash.
        for entry in Openings::get().entries() {
            assert!(!entry.name.contains(['"', '\\']), "{}", entry.name);
            assert!(
                entry.eco.len() == 3
                    && ('A'..='E').contains(&entry.eco.chars().next().unwrap_or('?'))
            );
        }
    }

    #[test]
    fn opening_tags_are_set() {
        let tag = |name: &'static str, value: &'static str| Tag {
            name: name.as_bytes(),
            value: value.as_bytes(),
            span: Span::default(),
        };
        let mut tags = vec![tag("Event", "x"), tag("ECO", "A00"), tag("ECO", "A01")];
        let found = classify("1. e4").expect("known");
        set_opening_tags(&mut tags, found);
        let written: Vec<(&[u8], &[u8])> = tags.iter().map(|t| (t.name, t.value)).collect();
        assert_eq!(
            written,
            [
                (&b"Event"[..], &b"x"[..]),
                (b"ECO", b"B00"),
                (b"Opening", b"King's Pawn Game")
            ]
        );
    }

    #[test]
    fn transpositions_and_depth() {
        // (moves, eco, name)
        let cases = [
            ("1. e4", "B00", "King's Pawn Game"),
            // The Queen's Gambit Declined by way of 1. Nf3.
            (
                "1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3",
                "D37",
                "Queen's Gambit Declined: Three Knights Variation",
            ),
            // Out of the book, the last known position stays.
            ("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8", "C20", "Bongcloud Attack"),
        ];
        for (moves, eco, name) in cases {
            let found = classify(moves).unwrap_or_else(|| panic!("{moves}"));
            assert_eq!((found.eco, found.name), (eco, name), "{moves}");
        }
        assert_eq!(classify("*"), None);
    }
}
