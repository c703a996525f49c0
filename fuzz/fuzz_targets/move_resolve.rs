//! Move resolution against random legal positions: the fuzzer's bytes pick
//! a start position and then move indices; in every position reached, each
//! legal move written in every style resolves back to that move.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::{EpMode, LetterPolicy, MoveToken, Position, Resolved, Style};

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2rkr3/5PP1/8/5Q2/5q2/8/5pp1/2RKR3 w CEce - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Styles and the letter policies their texts must resolve under.
const STYLES: &[(Style, &[LetterPolicy])] = &[
    (Style::SAN, &[LetterPolicy::Auto, LetterPolicy::English]),
    (Style::LAN, &[LetterPolicy::Auto, LetterPolicy::English]),
    (Style::UCI, &[LetterPolicy::Auto, LetterPolicy::English]),
    (Style::DE, &[LetterPolicy::Auto, LetterPolicy::German]),
    (Style::DE_LAN, &[LetterPolicy::Auto, LetterPolicy::German]),
    (Style::FIGURINE, &[LetterPolicy::Auto]),
];

fn check_position(pos: &Position) {
    let pawn_styles = [
        (Style::SAN.with_pawn_letter(true), LetterPolicy::English),
        (Style::DE.with_pawn_letter(true), LetterPolicy::German),
        (Style::DE_LAN.with_pawn_letter(true), LetterPolicy::German),
    ];
    for &m in pos.legal_moves().iter() {
        let all = STYLES
            .iter()
            .flat_map(|(style, policies)| policies.iter().map(move |p| (*style, *p)))
            .chain(pawn_styles);
        for (style, policy) in all {
            let text = style.text(pos, m);
            let token = MoveToken::parse(text.as_bytes())
                .unwrap_or_else(|e| panic!("{} in {pos:?}: {text}: {e}", pos.fen(EpMode::Always)));
            match token.resolve(pos, policy) {
                Ok(Resolved::Move(back)) => assert_eq!(
                    back,
                    m,
                    "{}: {text} ({policy:?}) resolved to another move",
                    pos.fen(EpMode::Always)
                ),
                other => panic!(
                    "{}: {text} ({policy:?}) did not resolve: {other:?}",
                    pos.fen(EpMode::Always)
                ),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, indices)) = data.split_first() else {
        return;
    };
    let start = STARTS[usize::from(first) % STARTS.len()];
    let mut pos = Position::from_fen(start).expect("fixed FEN");
    check_position(&pos);
    for &index in indices.iter().take(300) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(index) % moves.len()]);
        check_position(&pos);
        let fen = pos.fen(EpMode::Always);
        let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.fen(EpMode::Always), fen);
    }
});
