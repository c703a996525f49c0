//! The replay and the syntax-only check report the same syntax errors:
//! both are visitors of one movetext reader, which owns the structural
//! rules. Checked on every game of the shared data and on random soups of
//! PGN tokens.

mod common;

use pgnkit::pgn::{ParseOptions, ParsePgnError, ParsePgnErrorKind, SyntaxChecker, parse_game_with};
use pgnkit::replay::{ReplayOptions, Replayer};
use pgnkit::{
    LetterPolicy,
    pgn::{GameFramer, RawGame},
};

/// The syntax errors of one game as the replay, the syntax checker and
/// the model builder report them, reading strictly and leniently; panics
/// where they disagree.
fn agree(
    raw: &RawGame<'_>,
    replayer: &mut Replayer,
    checkers: &mut [SyntaxChecker; 2],
    what: &str,
) {
    for (lenient, checker) in [false, true].into_iter().zip(checkers) {
        let mut checked: Vec<ParsePgnError> = Vec::new();
        checker.check(raw, |e| checked.push(e));
        let parse = ParseOptions {
            lenient,
            ..ParseOptions::default()
        };
        let what = format!("{what} (lenient {lenient})");
        assert_eq!(
            parse_game_with(raw, &parse).errors,
            checked,
            "{what}: model and checker"
        );
        for lints in [false, true] {
            let options = ReplayOptions {
                letters: LetterPolicy::Auto,
                lints,
                lenient,
            };
            let replay = replayer.replay(raw, &options);
            let replayed: Vec<ParsePgnError> = replay.syntax_errors().collect();
            if replay.position.is_some() {
                assert_eq!(replayed, checked, "{what} (lints {lints})");
            } else {
                // A game whose start position cannot be set up (an
                // unreadable FEN, an unsupported variant) is not read past
                // its tags.
                assert!(
                    checked.starts_with(&replayed),
                    "{what} (lints {lints}): {replayed:?} is not a prefix of {checked:?}"
                );
            }
        }
    }
}

/// Syntax checkers reading strictly and leniently, as [`agree`] takes them.
fn checkers() -> [SyntaxChecker; 2] {
    [false, true].map(|lenient| {
        SyntaxChecker::new(ParseOptions {
            lenient,
            ..ParseOptions::default()
        })
    })
}

fn agree_on_text(text: &[u8], what: &str) -> usize {
    let mut replayer = Replayer::new();
    let mut checkers = checkers();
    let mut framer = GameFramer::new(text);
    let mut games = 0;
    while let Some(game) = framer.next_game() {
        let Ok(raw) = game else { continue };
        games += 1;
        agree(
            &raw,
            &mut replayer,
            &mut checkers,
            &format!("{what}, game {games}"),
        );
    }
    games
}

#[test]
fn replay_and_syntax_check_agree_on_the_shared_data() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], true) else {
        return;
    };
    let mut games = 0;
    for path in &files {
        let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        games += agree_on_text(&text, &path.display().to_string());
    }
    assert!(games > 5_000, "only {games} games read");
}

#[test]
fn replay_and_syntax_check_agree_on_the_big_corpora() {
    let Some(data) = common::data_dir() else {
        return;
    };
    for name in ["pgnmentor-12-players.pgn.zst", "tcec-seasons-01-14.pgn.zst"] {
        let path = data.join("big").join(name);
        let mut input = pgnkit::input::open(&path).expect("open a big corpus");
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut input, &mut text).expect("read a big corpus");
        assert!(agree_on_text(&text, name) > 4_000);
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'t>(&mut self, items: &[&'t [u8]]) -> &'t [u8] {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Tokens that stress the structural rules: variations, annotations in
/// every place, results, e.p. marks, tags in movetext, bad tokens.
const TOKENS: &[&[u8]] = &[
    b"e4",
    b"e5",
    b"Nf3",
    b"Nc6",
    b"d4",
    b"exd4",
    b"exd6",
    b"Zz9",
    b"Qb2c3",
    b"O-O",
    b"--",
    b"1.",
    b"2...",
    b"3",
    b"(",
    b"(",
    b")",
    b")",
    b"(=)",
    b"$1",
    b"$",
    b"!",
    b"?!",
    b"e.p.",
    b"ep",
    b"{c}",
    b"{",
    b"}",
    b";x\n",
    b"\n%esc\n",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"[A \"b\"]",
    b"[Bad",
    b"\"",
    b"\x01",
    b"\n\n",
];

#[test]
fn replay_and_syntax_check_agree_on_token_soups() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..3_000 {
        let mut text = Vec::new();
        if rng.next().is_multiple_of(2) {
            text.extend_from_slice(b"[White \"A\"]\n[Black \"B\"]\n\n");
        }
        let n = 1 + rng.next() % 40;
        for _ in 0..n {
            text.extend_from_slice(rng.pick(TOKENS));
            text.extend_from_slice(rng.pick(&[b" ", b"", b"\n"]));
        }
        let raw = RawGame::from_bytes(&text);
        agree(
            &raw,
            &mut Replayer::new(),
            &mut checkers(),
            &format!("soup {round}: {}", String::from_utf8_lossy(&text)),
        );
    }
}

/// A second e.p. mark after one move is one error for every job.
#[test]
fn a_second_ep_mark_is_a_syntax_error_for_every_job() {
    let text = b"[FEN \"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3\"]\n\n\
                 3. exf6 e.p. e.p. Nxf6 *";
    let raw = RawGame::from_bytes(text);
    agree(&raw, &mut Replayer::new(), &mut checkers(), "e.p. e.p.");
    let mut kinds = Vec::new();
    SyntaxChecker::default().check(&raw, |e| kinds.push(e.kind));
    assert_eq!(kinds, [ParsePgnErrorKind::UnexpectedByte]);
}
