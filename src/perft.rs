//! Perft: counting the leaf nodes of the legal move tree, the standard
//! exactness and speed test of a move generator.

use crate::{
    moves::{Move, MoveList},
    position::Position,
};

/// The number of legal move sequences of length `depth` from `pos` (bulk
/// counting: the last ply counts moves without playing them).
///
/// # Examples
/// ```
/// use pgnkit::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            let mut nodes = 0;
            for &m in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the node count below it,
/// in generation order. The counts sum to [`perft`] (for `depth >= 1`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
