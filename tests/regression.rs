//! Regression tests for bugs found by fuzzing and the adversarial suite,
//! each named after its bug. The inputs are the minimised fuzzer finds.

use pgnkit::pgn::{LineIndex, MainlineEvent, RawGame, parse_game, visit_mainline};

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

/// A game of a million stray `]` on 200,000 lines: parsing is linear, but
/// locating each error with `Span::line_col` scans the game up to it, so
/// reporting them all took time quadratic in the game's size (hours for a
/// few MB). `LineIndex` locates them all in one pass plus a binary search
/// each, with the same answers.
#[test]
fn locating_every_error_of_a_huge_game_was_quadratic() {
    let text = b"] ] ] ] ]\n".repeat(200_000);
    let game = parse_game(&RawGame::from_bytes(&text));
    assert_eq!(game.errors.len(), 1_000_000);
    let start = std::time::Instant::now();
    let index = LineIndex::new(game.source, game.first_line);
    let mut last = (0, 0);
    for error in &game.errors {
        last = index.line_col(error.span);
    }
    assert_eq!(last, (200_000, 9));
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    for error in game.errors.iter().step_by(99_991) {
        assert_eq!(index.line_col(error.span), game.line_col(error.span));
        assert_eq!(
            error.located_with(&game, &index).to_string(),
            error.located(&game).to_string()
        );
    }
}

/// A line holding only a form feed (or vertical tab) between games started
/// a game whose text, trimmed, was empty: `[A "1"] * <FF> [A "2"] *` framed
/// as three games, the second one invented. Both bytes are whitespace to
/// the grammar; between games the framer now skips them like indentation.
#[test]
fn form_feed_line_between_games_invented_an_empty_game() {
    use pgnkit::pgn::GameFramer;
    let cases: &[(&[u8], &[&[u8]])] = &[
        (b"\x0c\n", &[]),
        (b"\x0b", &[]),
        (
            b"[A \"1\"]\n*\n\n\x0c\n\n[A \"2\"]\n*\n",
            &[b"[A \"1\"]\n*", b"[A \"2\"]\n*"],
        ),
        (b"\x0c\x0b [A \"1\"]\n1. e4 *", &[b"[A \"1\"]\n1. e4 *"]),
        (
            b"[A \"1\"]\n1. e4\n\x0c\ne5 *",
            &[b"[A \"1\"]\n1. e4\n\x0c\ne5 *"],
        ),
    ];
    for &(text, expected) in cases {
        let mut framer = GameFramer::new(text);
        let mut games = Vec::new();
        while let Some(game) = framer.next_game() {
            games.push(game.expect("framing").bytes.to_vec());
        }
        assert_eq!(games, expected, "{:?}", String::from_utf8_lossy(text));
    }
}

/// DOS text ends with SUB (Ctrl-Z, 0x1A), and `copy a.pgn+b.pgn` leaves
/// one between the files: the byte after the last game made it an error,
/// and the one before the second file's tags turned them into movetext
/// ("tag pair inside movetext"), the game losing its tags. SUB is white
/// space to the framer and the grammar.
#[test]
fn dos_end_of_file_marks_are_white_space() {
    use pgnkit::pgn::GameFramer;
    use pgnkit::replay::{ReplayOptions, Status, replay};
    let cases: &[(&[u8], &[&[u8]])] = &[
        (b"\x1a", &[]),
        (
            b"[A \"1\"]\r\n\r\n1. e4 *\r\n\x1a",
            &[b"[A \"1\"]\r\n\r\n1. e4 *"],
        ),
        (
            b"[A \"1\"]\r\n\r\n1. e4 *\r\n\r\n\x1a[A \"2\"]\r\n\r\n1. d4 *\r\n\x1a",
            &[b"[A \"1\"]\r\n\r\n1. e4 *", b"[A \"2\"]\r\n\r\n1. d4 *"],
        ),
        (
            b"[A \"1\"]\n1. e4\x1ae5\x1a*\n\x1a\n\n[A \"2\"]\n*",
            &[b"[A \"1\"]\n1. e4\x1ae5\x1a*", b"[A \"2\"]\n*"],
        ),
    ];
    for &(text, expected) in cases {
        let mut framer = GameFramer::new(text);
        let mut games = Vec::new();
        while let Some(game) = framer.next_game() {
            let game = game.expect("framing");
            let replayed = replay(&game, &ReplayOptions::default());
            assert_eq!(replayed.status, Status::Valid, "{:?}", replayed.diagnostics);
            assert!(
                replayed.diagnostics.is_empty(),
                "{:?}",
                replayed.diagnostics
            );
            games.push(game.bytes.to_vec());
        }
        assert_eq!(games, expected, "{:?}", String::from_utf8_lossy(text));
    }
}

/// Input ending inside a tag value with a backslash (`[R "x\`): the framer
/// looked at the byte after the backslash without checking that it had
/// been read, found a stale `"` left in its buffer by an earlier read, took
/// `\"` for an escape and let the last game end one byte past the input.
/// Found by the `pgn_reader` fuzz target reading in small chunks.
#[test]
fn escape_at_end_of_input_read_a_stale_buffer_byte() {
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
    let mut data = Vec::new();
    for i in 0..40 {
        data.extend_from_slice(format!("[Event \"{}\"]\n\n1. e4 *\n\n", "\"".repeat(i)).as_bytes());
    }
    data.extend_from_slice(b"[White \"x\\");
    for chunk in 1..=7 {
        let mut framer =
            pgnkit::pgn::GameFramer::new(Chunked { data: &data, chunk }).with_max_game_bytes(4096);
        while let Some(game) = framer.next_game() {
            let game = game.expect("no I/O errors");
            let start = usize::try_from(game.offset).unwrap();
            assert_eq!(
                data.get(start..start + game.bytes.len()),
                Some(game.bytes),
                "chunk {chunk}: game {} is not the input's bytes",
                game.number
            );
        }
    }
}
