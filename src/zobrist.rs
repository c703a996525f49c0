//! Zobrist hashing: random 64-bit keys, one per feature of a position, that
//! are combined by XOR and updated incrementally as moves are played.
//!
//! The keys come from a fixed splitmix64 sequence computed at compile time,
//! so hashes are stable across runs and builds.

use crate::{color::Color, role::Piece, square::Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// 12 × 64 piece keys, 64 castling-rook keys, 8 en-passant file keys and
/// one side-to-move key.
const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1;

const fn build() -> [u64; KEY_COUNT] {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x7a6f_6272_6973_7421; // "zobrist!"
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

static KEYS: [u64; KEY_COUNT] = build();

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.role.index() * 2 + piece.color.index()) * 64 + (sq.index() & 63)]
}

/// The key of a castling right held by the rook on `sq`.
#[inline]
pub fn castling_rook(sq: Square) -> u64 {
    KEYS[12 * 64 + (sq.index() & 63)]
}

/// The key of a legal en-passant capture onto the file of `sq`.
#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS[13 * 64 + (sq.file().index() & 7)]
}

/// The key XORed in when `color` is to move (Black; White adds nothing).
#[inline]
pub fn turn(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS[KEY_COUNT - 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEY_COUNT);
        assert!(keys.iter().all(|&k| k != 0));
    }
}
