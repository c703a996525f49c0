//! Move-token parsing on arbitrary bytes: never panics; a parsed token
//! resolves (or fails cleanly) against a few fixed positions under every
//! letter policy, and a resolved move's lints and text are computed.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use pgnkit::{LetterPolicy, MoveToken, Position, Resolved, Style};

static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "2rkr3/5PP1/8/5Q2/5q2/8/5pp1/2RKR3 w CEce - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
    ]
    .iter()
    .map(|fen| Position::from_fen(fen).expect("fixed FEN"))
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(token) = MoveToken::parse(data) else {
        return;
    };
    for pos in POSITIONS.iter() {
        for policy in [
            LetterPolicy::Auto,
            LetterPolicy::English,
            LetterPolicy::German,
        ] {
            match token.resolve(pos, policy) {
                Ok(Resolved::Move(m)) => {
                    assert!(pos.is_legal(m), "resolved to an illegal move");
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    let _ = token.lints(pos, m, &after);
                    let _ = Style::SAN.text(pos, m);
                }
                Ok(Resolved::Null) => {}
                Err(err) => {
                    let _ = err.to_string();
                }
            }
        }
    }
});
