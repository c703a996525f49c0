//! Hostile input: each limit is a clear error for one game, never a crash,
//! and reading goes on with the next game.

use std::io::Read;

use pgnkit::pgn::{
    GameFramer, MainlineEvent, ParsePgnErrorKind, ReadPgnError, parse_game, visit_mainline,
};

/// A reader producing `head`, then `count` copies of `fill`, then `tail`,
/// without holding it all in memory.
struct Generated {
    head: Vec<u8>,
    fill: u8,
    count: usize,
    tail: Vec<u8>,
    pos: usize,
}

impl Read for Generated {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let total = self.head.len() + self.count + self.tail.len();
        let mut n = 0;
        while n < out.len() && self.pos < total {
            let p = self.pos;
            out[n] = if p < self.head.len() {
                self.head[p]
            } else if p < self.head.len() + self.count {
                self.fill
            } else {
                self.tail[p - self.head.len() - self.count]
            };
            n += 1;
            self.pos += 1;
        }
        Ok(n)
    }
}

#[test]
fn a_100_mb_comment_is_one_game() {
    let reader = Generated {
        head: b"[Event \"big\"]\n\n1. e4 {".to_vec(),
        fill: b'x',
        count: 100 << 20,
        tail: b"} e5 *\n\n[Event \"next\"]\n\n1. d4 *\n".to_vec(),
        pos: 0,
    };
    let mut framer = GameFramer::new(reader);
    let first = framer
        .next_game()
        .expect("a game")
        .expect("fits the default bound");
    assert!(first.bytes.len() > 100 << 20);
    let game = parse_game(&first);
    assert_eq!(game.mainline.moves.len(), 2);
    assert!(
        game.errors
            .iter()
            .all(|e| matches!(e.kind, ParsePgnErrorKind::BadMove(_)))
    );
    let second = framer.next_game().expect("a game").expect("ok");
    assert_eq!(second.number, 2);
    assert_eq!(second.first_line, 5);
    assert!(framer.next_game().is_none());
}

#[test]
fn a_game_over_the_bound_is_skipped_with_an_error() {
    let reader = Generated {
        head: b"[Event \"big\"]\n\n1. e4 {".to_vec(),
        fill: b'x',
        count: 3 << 20,
        tail: b"}\n e5 *\n\n[Event \"next\"]\n\n1. d4 *\n".to_vec(),
        pos: 0,
    };
    let mut framer = GameFramer::new(reader).with_max_game_bytes(1 << 20);
    match framer.next_game() {
        Some(Err(ReadPgnError::GameTooLarge {
            number: 1,
            first_line: 1,
            offset: 0,
            ..
        })) => {}
        other => panic!("expected GameTooLarge, got {other:?}"),
    }
    let next = framer.next_game().expect("a game").expect("ok");
    assert_eq!(
        (next.number, next.first_line, next.bytes),
        (2, 6, &b"[Event \"next\"]\n\n1. d4 *"[..])
    );
}

#[test]
fn binary_data_is_an_error_for_that_game_only() {
    let input = b"[Event \"a\"]\n\n1. e4 \x00\x01\x02 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    let mut framer = GameFramer::new(&input[..]);
    let game = parse_game(&framer.next_game().expect("game").expect("ok"));
    assert_eq!(game.errors[0].kind, ParsePgnErrorKind::BinaryData);
    assert!(game.mainline.moves.is_empty());
    let game = parse_game(&framer.next_game().expect("game").expect("ok"));
    assert_eq!(game.tags[0].value, b"b");
}

#[test]
fn a_million_open_parens_do_not_overflow_the_stack() {
    let mut text = b"[Event \"x\"]\n\n1. e4 ".to_vec();
    text.extend(std::iter::repeat_n(b'(', 1_000_000));
    let mut framer = GameFramer::new(&text[..]);
    let raw = framer.next_game().expect("game").expect("ok");
    let game = parse_game(&raw);
    let kinds: Vec<_> = game.errors.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&ParsePgnErrorKind::VariationWithoutMove));
    let mut closed = true;
    visit_mainline(&raw, |e| {
        if let MainlineEvent::Error(e) = e {
            closed &= e.kind != ParsePgnErrorKind::UnclosedVariation;
        }
    });
    assert!(!closed);
}

#[test]
fn unterminated_tokens_at_eof_are_errors() {
    let cases: &[(&[u8], ParsePgnErrorKind)] = &[
        (b"[Event \"open", ParsePgnErrorKind::MalformedTag),
        (b"1. e4 {open", ParsePgnErrorKind::UnterminatedComment),
        (b"1. e4 (e5", ParsePgnErrorKind::UnclosedVariation),
        (b"1. e4 $", ParsePgnErrorKind::BadNag),
    ];
    for &(text, kind) in cases {
        let mut framer = GameFramer::new(text);
        let game = parse_game(&framer.next_game().expect("game").expect("ok"));
        assert!(
            game.errors.iter().any(|e| e.kind == kind),
            "{:?}: {:?}",
            String::from_utf8_lossy(text),
            game.errors
        );
    }
}
