//! Regression tests for bugs found by fuzzing and the adversarial suite,
//! each named after its bug. The inputs are the minimised fuzzer finds.

use pgnkit::pgn::{MainlineEvent, RawGame, parse_game, visit_mainline};

/// Mainline move texts as the fast path and the model see them.
fn both_mainlines(text: &[u8]) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let raw = RawGame::from_bytes(text);
    let mut fast = Vec::new();
    visit_mainline(&raw, |event| {
        if let MainlineEvent::Move { text, .. } = event {
            fast.push(text.to_vec());
        }
    });
    let game = parse_game(&raw);
    let model = game
        .mainline
        .moves
        .iter()
        .map(|m| m.text.to_vec())
        .collect();
    (fast, model)
}

/// `Q([)-`: inside a variation a stray `[` runs to the line end for the
/// tokenizer (one `TagInMovetext` error, swallowing the `)`), but the fast
/// path's variation skipper counted that `)` and took `-` for a mainline
/// move. The skipper now passes over `[…]` extents and `%` escape lines
/// exactly as the tokenizer does.
#[test]
fn fast_path_counted_a_paren_inside_a_bracket_extent() {
    for text in [
        &b"Q([)-"[..],
        b"e4 (d4 [x \")\"] ) e5",
        b"e4 (d4\n%)\n) e5",
        b"e4 (d4 [ ) e5\n) Nf3",
    ] {
        let (fast, model) = both_mainlines(text);
        assert_eq!(fast, model, "{}", String::from_utf8_lossy(text));
    }
}
