//! The PGN reader on arbitrary bytes: framing accounts for every byte
//! (whole-buffer and trickled reads agree), every game parses, writes and
//! re-parses to the same model, and the fast path sees the same mainline.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::pgn::{LineIndex, MainlineEvent, RawGame, parse_game, visit_mainline};

#[path = "../../tests/accounting/mod.rs"]
mod accounting;
#[path = "../../tests/pgn_support/mod.rs"]
mod pgn_support;

/// Small enough that fuzz inputs reach the too-large path.
const MAX_GAME: usize = 4096;

/// A reader handing out `chunk` bytes at a time.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl std::io::Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

type Framed = (u64, u64, u64, Vec<u8>);

fn check_game(raw: &RawGame<'_>, written: &mut Vec<u8>) {
    let game = parse_game(raw);
    let mut moves = Vec::new();
    visit_mainline(raw, |event| {
        if let MainlineEvent::Move { text, .. } = event {
            moves.push(text);
        }
    });
    let model: Vec<&[u8]> = game.mainline.moves.iter().map(|m| m.text).collect();
    assert_eq!(moves, model, "fast path and model disagree");
    // Locating with `located` costs a pass over the game; a few errors
    // are enough to compare it with the index.
    let index = LineIndex::new(game.source, game.first_line);
    for error in game.errors.iter().take(8) {
        let message = error.located(&game).to_string();
        assert_eq!(message, error.located_with(&game, &index).to_string());
    }
    pgn_support::assert_round_trip(raw, "fuzz", written);
    pgn_support::assert_comment_index(raw, "fuzz");
}

fuzz_target!(|data: &[u8]| {
    let len = data.len() as u64;
    let mut whole: Vec<Framed> = Vec::new();
    let mut written = Vec::new();
    let ledger = accounting::account(data, Some(data), len, MAX_GAME, |raw| {
        check_game(raw, &mut written);
        whole.push((raw.number, raw.offset, raw.first_line, raw.bytes.to_vec()));
    });
    let chunk = 1 + data.len() % 7;
    let mut trickled: Vec<Framed> = Vec::new();
    let ledger2 = accounting::account(Chunked { data, chunk }, Some(data), len, MAX_GAME, |raw| {
        trickled.push((raw.number, raw.offset, raw.first_line, raw.bytes.to_vec()));
    });
    assert_eq!(ledger, ledger2, "read size changed the framing");
    assert_eq!(whole, trickled, "read size changed the framing");
});
