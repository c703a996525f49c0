//! Random PGN-like byte soup: nothing panics, framing does not depend on how
//! the input is split into reads, and the writer's output reads back.

mod pgn_support;

use std::io::Read;

use pgnkit::pgn::{GameFramer, RawGame, WriteOptions, parse_game, visit_mainline, write_game};

const PIECES: &[&[u8]] = &[
    b"[Event \"x\"]",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"(",
    b")",
    b"(=)",
    b";",
    b"%",
    b"\n",
    b"\r\n",
    b"\r",
    b"\n\n",
    b" ",
    b"\t",
    b"1.",
    b"12...",
    "…".as_bytes(),
    b"e4",
    b"Nf3",
    b"O-O",
    b"0-0",
    b"exd6",
    b"e.p.",
    b"!?",
    b"??",
    b"$1",
    b"$999",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    "½-½".as_bytes(),
    b"\xbd",
    b"\x00",
    b"\xff",
    b"xyz",
    b"--",
    b"\xEF\xBB\xBF",
    b"\x0c",
    b"\x0b",
    b"\x1a",
    b"\r\r\n",
    b"[Site \"y\"]\n\n",
    b"\n\n[Event \"x\"]\n",
    b"{*}",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Hands out reads of random sizes.
struct Chunks<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for Chunks<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = (self.rng.next() as usize % 7 + 1)
            .min(out.len())
            .min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn frames(reader: impl Read) -> Vec<(u64, u64, u64, Vec<u8>)> {
    let mut framer = GameFramer::new(reader).with_max_game_bytes(4096);
    let mut out = Vec::new();
    while let Some(game) = framer.next_game() {
        match game {
            Ok(g) => out.push((g.number, g.offset, g.first_line, g.bytes.to_vec())),
            Err(e) => out.push((0, 0, 0, e.to_string().into_bytes())),
        }
    }
    out
}

#[test]
fn byte_soup() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1000 {
        let mut text = Vec::new();
        for _ in 0..rng.next() % 300 {
            text.extend_from_slice(PIECES[rng.next() as usize % PIECES.len()]);
        }
        let whole = frames(&text[..]);
        let chunked = frames(Chunks {
            data: &text,
            rng: Rng(rng.next() | 1),
        });
        assert_eq!(whole, chunked, "{:?}", String::from_utf8_lossy(&text));
        for (number, offset, first_line, bytes) in &whole {
            let raw = RawGame {
                number: *number,
                offset: *offset,
                first_line: *first_line,
                ..RawGame::from_bytes(bytes)
            };
            let game = parse_game(&raw);
            visit_mainline(&raw, |_| {});
            let mut out = Vec::new();
            write_game(&game, &mut out, &WriteOptions::default()).expect("vec");
            let again = parse_game(&RawGame::from_bytes(&out));
            let texts = |g: &pgnkit::pgn::Game<'_>| -> Vec<Vec<u8>> {
                g.mainline.moves.iter().map(|m| m.text.to_vec()).collect()
            };
            if !game
                .errors
                .iter()
                .any(|e| e.kind == pgnkit::pgn::ParsePgnErrorKind::BinaryData)
            {
                pgn_support::assert_round_trip(&raw, "soup", &mut Vec::new());
                assert_eq!(
                    texts(&game),
                    texts(&again),
                    "{:?}",
                    String::from_utf8_lossy(bytes)
                );
            }
            for error in &game.errors {
                let _ = game.line_col(error.span);
            }
        }
    }
}

/// Debris of the kinds a lenient reader skips, beside the PGN pieces.
const DEBRIS: &[&[u8]] = &[
    b"<br>",
    b"e5<br>",
    b"</p>",
    b"&nbsp;",
    b"From: joe@example.org",
    b"\n> ",
    b"\\",
    b"~~~",
    b"]",
    b"$",
    b"Nf3zzz",
    b"B1d3d7-d5",
    b"\x07",
];

/// Lenient reading of random soups with debris: nothing panics, no
/// token is left as a syntax error of the kinds it skips, every skip is
/// inside the game's text, and what it read writes out as a game that
/// strict reading reads without those errors.
#[test]
fn lenient_soup() {
    use pgnkit::pgn::{ParseOptions, ParsePgnErrorKind as E, parse_game_with};
    use pgnkit::replay::{ReplayOptions, Replayer};

    let lenient = ParseOptions {
        lenient: true,
        ..ParseOptions::default()
    };
    let replay_options = ReplayOptions {
        lenient: true,
        ..ReplayOptions::default()
    };
    let debris = |kind: E| matches!(kind, E::BadMove(_) | E::UnexpectedByte | E::BadNag);
    let mut replayer = Replayer::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut skipped = 0;
    for _ in 0..1000 {
        let mut text = Vec::new();
        for _ in 0..rng.next() % 300 {
            let r = rng.next() as usize;
            let piece = match r % 4 {
                0 => DEBRIS[r / 4 % DEBRIS.len()],
                _ => PIECES[r / 4 % PIECES.len()],
            };
            text.extend_from_slice(piece);
        }
        for (number, offset, first_line, bytes) in frames(&text[..]) {
            let raw = RawGame {
                number,
                offset,
                first_line,
                ..RawGame::from_bytes(&bytes)
            };
            let what = String::from_utf8_lossy(&bytes);
            let game = parse_game_with(&raw, &lenient);
            for error in &game.errors {
                assert!(!debris(error.kind), "{error:?} in {what:?}");
                assert!(error.span.end <= bytes.len(), "{error:?} in {what:?}");
                skipped += usize::from(error.kind == E::SkippedToken);
            }
            let replay = replayer.replay(&raw, &replay_options);
            for d in &replay.diagnostics {
                assert!(d.span.end <= bytes.len(), "{d:?} in {what:?}");
            }
            if game.errors.iter().any(|e| e.kind == E::BinaryData) {
                continue;
            }
            let mut out = Vec::new();
            write_game(&game, &mut out, &WriteOptions::default()).expect("vec");
            let again = parse_game(&RawGame::from_bytes(&out));
            assert!(
                !again.errors.iter().any(|e| debris(e.kind)),
                "{:?} from {what:?} wrote {:?}",
                again.errors,
                String::from_utf8_lossy(&out)
            );
        }
    }
    assert!(skipped > 1000, "the soups had little debris: {skipped}");
}

/// A Result tag with blanks around its value is the result it names, on
/// the way out as on the way in.
#[test]
fn result_tags_with_blanks_round_trip() {
    let mut written = Vec::new();
    for text in [
        &b"[Result \"0-1 \"]\n\n1. e4 *\n"[..],
        b"[Result \" 1/2-1/2\"]\n\n1. e4\n",
        b"[Result\"0-1 \"]",
    ] {
        let raw = RawGame::from_bytes(text);
        pgn_support::assert_round_trip(&raw, "blanks", &mut written);
    }
}
