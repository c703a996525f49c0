//! The framer's accounting invariant, shared by the tests and the fuzz
//! targets: nothing lost, nothing invented.
//!
//! For every input, the games a [`GameFramer`] reports (framed or skipped as
//! too large) are numbered 1..N without gaps, start at increasing offsets on
//! the line the framer says, hold exactly the input's bytes, and the bytes
//! between them are only what belongs to no game: blank lines, `%` escape
//! lines, `;` comment lines, a BOM. Game bytes plus gap bytes add up to the
//! input's length.

#![allow(dead_code)]

use std::io::Read;

use pgnkit::pgn::{GameFramer, RawGame, ReadPgnError, Span};

/// What one pass over an input counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ledger {
    /// Games framed and delivered.
    pub framed: u64,
    /// Games reported as too large (skipped).
    pub too_large: u64,
    /// Bytes inside delivered games.
    pub game_bytes: u64,
    /// Bytes between games (and inside skipped games).
    pub other_bytes: u64,
}

impl Ledger {
    /// Games the framer numbered.
    pub fn games(&self) -> u64 {
        self.framed + self.too_large
    }
}

/// Frames `reader` (whose bytes are `data`, when the caller has them in
/// memory) with `max_game_bytes`, checks the invariant and calls `each` on
/// every delivered game. `len` is the input's length.
///
/// # Panics
/// When the invariant does not hold; the message says where.
pub fn account<R: Read>(
    reader: R,
    data: Option<&[u8]>,
    len: u64,
    max_game_bytes: usize,
    mut each: impl FnMut(&RawGame<'_>),
) -> Ledger {
    let mut framer = GameFramer::new(reader).with_max_game_bytes(max_game_bytes);
    let mut ledger = Ledger::default();
    // End of the last delivered game, and where its line count stands.
    let mut covered = 0u64;
    let mut line_at = (0u64, 1u64);
    // After a skipped game its end is unknown: the next gap holds it.
    let mut after_skip = false;
    while let Some(next) = framer.next_game() {
        let number = ledger.games() + 1;
        match next {
            Ok(raw) => {
                assert_eq!(raw.number, number, "game numbers must have no gaps");
                assert!(
                    raw.offset >= covered,
                    "game {number} at {} overlaps the previous game (ends at {covered})",
                    raw.offset
                );
                let end = raw.offset + raw.bytes.len() as u64;
                assert!(end <= len, "game {number} ends past the input");
                assert!(!raw.bytes.is_empty(), "game {number} is empty");
                if let Some(data) = data {
                    let (start, stop) = (raw.offset as usize, end as usize);
                    assert_eq!(
                        &data[start..stop],
                        raw.bytes,
                        "game {number}: bytes differ from the input"
                    );
                    if !after_skip {
                        let gap = &data[covered as usize..start];
                        assert_gap_is_ignorable(gap, number);
                    }
                    let line = first_line(data, line_at, start);
                    assert_eq!(raw.first_line, line, "game {number}: wrong first line");
                    line_at = (raw.offset, line);
                }
                ledger.other_bytes += raw.offset - covered;
                ledger.framed += 1;
                ledger.game_bytes += raw.bytes.len() as u64;
                covered = end;
                after_skip = false;
                each(&raw);
            }
            Err(ReadPgnError::GameTooLarge {
                number: n, offset, ..
            }) => {
                assert_eq!(n, number, "game numbers must have no gaps");
                assert!(offset >= covered, "skipped game {n} overlaps");
                ledger.too_large += 1;
                // The skipped game's text counts as not delivered; the next
                // game may start only after it.
                ledger.other_bytes += offset - covered;
                covered = offset;
                after_skip = true;
                if let Some(data) = data {
                    line_at = (offset, first_line(data, line_at, offset as usize));
                }
            }
            Err(err) => panic!("unexpected framer error: {err}"),
        }
    }
    assert!(covered <= len);
    ledger.other_bytes += len - covered;
    if let (Some(data), false) = (data, after_skip) {
        assert!(
            ignorable(&data[covered as usize..]),
            "text after the last game is lost"
        );
    }
    assert_eq!(ledger.game_bytes + ledger.other_bytes, len);
    ledger
}

/// The line of byte `at`, counting on from a known `(offset, line)` at a
/// line start.
fn first_line(data: &[u8], (from, line): (u64, u64), at: usize) -> u64 {
    let from = from as usize;
    Span::new(at - from, at - from)
        .line_col(&data[from..], line)
        .0
}

/// Whether `gap` holds nothing a game could own: blank lines (white space
/// includes byte-order marks, which concatenated files bring anywhere),
/// `;` lines and `%` lines (the `%` first, after byte-order marks only).
fn ignorable(gap: &[u8]) -> bool {
    gap.split(|&b| b == b'\n' || b == b'\r').all(|line| {
        let mut rest = line;
        let mut indented = false;
        loop {
            match rest {
                [b' ' | b'\t' | 0x0b | 0x0c | 0x1a, tail @ ..] => {
                    rest = tail;
                    indented = true;
                }
                [0xEF, 0xBB, 0xBF, tail @ ..] => rest = tail,
                _ => break,
            }
        }
        rest.is_empty() || rest.starts_with(b";") || (!indented && rest.starts_with(b"%"))
    })
}

fn assert_gap_is_ignorable(gap: &[u8], number: u64) {
    assert!(
        ignorable(gap),
        "bytes before game {number} belong to no game: {:?}",
        String::from_utf8_lossy(&gap[..gap.len().min(200)])
    );
}
