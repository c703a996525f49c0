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
                let mut child = *pos;
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
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_counts() {
        let cases: [(&str, &[u64]); 3] = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                &[1, 20, 400, 8_902, 197_281],
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                &[1, 48, 2_039, 97_862],
            ),
            // Chess960, Shredder castling letters.
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                &[1, 21, 528, 12_189],
            ),
        ];
        for (fen, counts) in cases {
            let pos = Position::from_fen(fen).unwrap();
            for (depth, &expected) in counts.iter().enumerate() {
                assert_eq!(perft(&pos, depth as u32), expected, "{fen} depth {depth}");
            }
            let total: u64 = divide(&pos, 3).iter().map(|&(_, n)| n).sum();
            assert_eq!(total, counts[3]);
        }
    }
}
