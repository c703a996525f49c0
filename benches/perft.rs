//! Move-generator speed: perft from the start position (depth 6) and
//! Kiwipete (depth 5), asserting the node counts. `cargo bench --bench perft`.

use std::time::Instant;

use pgnkit::{Position, perft};

const CASES: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
];

fn main() {
    let runs: usize = std::env::var("PERFT_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    for (name, fen, depth, expected) in CASES {
        let pos = Position::from_fen(fen).expect("benchmark FEN is valid");
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let start = Instant::now();
            let nodes = perft(&pos, depth);
            let secs = start.elapsed().as_secs_f64();
            assert_eq!(nodes, expected, "{name} depth {depth}");
            best = best.min(secs);
        }
        println!(
            "{name:<9} depth {depth}: {expected} nodes, best of {runs}: {best:.3} s, {:.1} Mnodes/s",
            expected as f64 / best / 1e6
        );
    }
}
