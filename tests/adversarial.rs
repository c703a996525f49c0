//! The adversarial suite: inputs built to hurt a PGN reader, generated here
//! (never stored), each giving a located error or correct processing,
//! within a memory bound and in time linear in its size.
//!
//! Memory: every case runs in a child process (this test binary re-run
//! with `PGNKIT_ADVERSARIAL_CASE` set), which reports its peak resident
//! size (`VmHWM` from `/proc/self/status`) and its time. The bound is a
//! small multiple of a normal run's peak plus, for inputs with one huge
//! game, a small multiple of that game's size (the framer must hold a game
//! whole). Time: the cases that scale are run at 1x, 4x and 16x and must
//! grow roughly linearly (a generous factor: CI machines are noisy).
//!
//! Every input also passes the accounting invariant (`tests/accounting`).

mod accounting;
mod common;

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use pgnkit::input::Input;
use pgnkit::pgn::{
    GameFramer, MainlineEvent, ParsePgnErrorKind, RawGame, ReadPgnError, WriteOptions, parse_game,
    visit_mainline, write_game,
};

const CHILD_ENV: &str = "PGNKIT_ADVERSARIAL_CASE";
const MIB: u64 = 1 << 20;

/// A reader over `parts`, each a pattern repeated a number of times,
/// without holding the expansion in memory.
struct Pieces {
    parts: Vec<(Vec<u8>, u64)>,
    part: usize,
    /// Bytes of the current part already read.
    done: u64,
}

impl Pieces {
    fn new(parts: Vec<(Vec<u8>, u64)>) -> Pieces {
        Pieces {
            parts,
            part: 0,
            done: 0,
        }
    }

    fn len(&self) -> u64 {
        self.parts.iter().map(|(p, n)| p.len() as u64 * n).sum()
    }
}

impl Read for Pieces {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let Some((pattern, count)) = self.parts.get(self.part) else {
                break;
            };
            let total = pattern.len() as u64 * count;
            if self.done >= total {
                self.part += 1;
                self.done = 0;
                continue;
            }
            let at = (self.done % pattern.len() as u64) as usize;
            let take = (pattern.len() - at)
                .min(out.len() - n)
                .min((total - self.done) as usize);
            out[n..n + take].copy_from_slice(&pattern[at..at + take]);
            n += take;
            self.done += take as u64;
        }
        Ok(n)
    }
}

fn once(bytes: &[u8]) -> (Vec<u8>, u64) {
    (bytes.to_vec(), 1)
}

fn repeat(bytes: &[u8], count: u64) -> (Vec<u8>, u64) {
    (bytes.to_vec(), count)
}

fn expand(parts: Vec<(Vec<u8>, u64)>) -> Vec<u8> {
    let mut out = Vec::new();
    Pieces::new(parts)
        .read_to_end(&mut out)
        .expect("in-memory read");
    out
}

/// Pseudo-random bytes (xorshift), the same on every run.
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.extend_from_slice(&seed.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// What reading a whole input found.
#[derive(Debug, Default)]
struct Summary {
    ledger: accounting::Ledger,
    parsed: u64,
    /// Kinds of every syntax error, in order, over all games.
    errors: Vec<ParsePgnErrorKind>,
    /// The first located error message.
    first_message: Option<String>,
    mainline_moves: u64,
    max_game_bytes: usize,
}

/// Frames, parses and checks every game: accounting, fast path against
/// the model, located error messages.
fn read_all(reader: impl Read, data: Option<&[u8]>, len: u64, max_game: usize) -> Summary {
    let mut summary = Summary::default();
    let ledger = accounting::account(reader, data, len, max_game, |raw| {
        summary.parsed += 1;
        summary.max_game_bytes = summary.max_game_bytes.max(raw.bytes.len());
        let game = parse_game(raw);
        assert_eq!(game.number, raw.number);
        let mut fast = 0u64;
        visit_mainline(raw, |event| {
            if let MainlineEvent::Move { .. } = event {
                fast += 1;
            }
        });
        assert_eq!(
            fast,
            game.mainline.moves.len() as u64,
            "game {}",
            raw.number
        );
        summary.mainline_moves += fast;
        if summary.first_message.is_none()
            && let Some(error) = game.errors.first()
        {
            summary.first_message = Some(error.located(&game).to_string());
        }
        summary.errors.extend(game.errors.iter().map(|e| e.kind));
    });
    assert_eq!(ledger.framed, summary.parsed);
    summary.ledger = ledger;
    summary
}

fn read_pieces(parts: Vec<(Vec<u8>, u64)>, max_game: usize) -> Summary {
    let reader = Pieces::new(parts);
    let len = reader.len();
    read_all(reader, None, len, max_game)
}

fn read_bytes(data: &[u8]) -> Summary {
    read_all(
        data,
        Some(data),
        data.len() as u64,
        pgnkit::pgn::DEFAULT_MAX_GAME_BYTES,
    )
}

fn has(summary: &Summary, kind: ParsePgnErrorKind) -> bool {
    summary.errors.contains(&kind)
}

const GAME: &[u8] =
    b"[Event \"normal\"]\n[Site \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Morphy} 4. Ba4 Nf6 5. O-O Be7 (5... b5 6. Bb3) 6. Re1 b5\n\
7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n\n";

/// One adversarial case: what it does, run inside the child process.
struct Case {
    name: &'static str,
    /// Bytes of the largest game the framer must hold whole (0: none).
    big_game: u64,
    run: fn(),
}

const CASES: &[Case] = &[
    Case {
        name: "normal",
        big_game: 0,
        run: || {
            let s = read_pieces(vec![repeat(GAME, 4000)], usize::MAX);
            assert_eq!(s.parsed, 4000);
            assert!(s.errors.is_empty());
        },
    },
    Case {
        name: "nesting_1e6_open_parens",
        big_game: 2 * MIB,
        run: || {
            let s = read_pieces(
                vec![once(b"[Event \"deep\"]\n\n1. e4 "), repeat(b"(", 1_000_000)],
                usize::MAX,
            );
            assert_eq!(s.parsed, 1);
            assert!(
                has(&s, ParsePgnErrorKind::VariationWithoutMove),
                "{:?}",
                s.errors
            );
            assert!(has(&s, ParsePgnErrorKind::UnclosedVariation));
        },
    },
    Case {
        name: "nesting_1e6_variations_with_moves",
        big_game: 8 * MIB,
        run: || {
            let s = read_pieces(
                vec![
                    once(b"[Event \"deep\"]\n\n1. e4 "),
                    repeat(b"(1. d4 ", 1_000_000),
                    repeat(b")", 1_000_000),
                    once(b" e5 *\n"),
                ],
                usize::MAX,
            );
            assert_eq!(s.parsed, 1);
            assert_eq!(s.mainline_moves, 2);
            assert!(has(&s, ParsePgnErrorKind::TooDeep(256)));
            let message = s.first_message.expect("an error");
            assert!(message.starts_with("3:"), "{message}");
        },
    },
    Case {
        name: "comment_100_mb",
        big_game: 100 * MIB,
        run: || {
            let s = read_pieces(
                vec![
                    once(b"[Event \"c\"]\n\n1. e4 {"),
                    repeat(b"all work and no play ", 5 * MIB),
                    once(b"} e5 *\n\n"),
                    once(GAME),
                ],
                usize::MAX,
            );
            assert_eq!(s.parsed, 2);
            assert_eq!(s.mainline_moves, 2 + 20);
        },
    },
    Case {
        name: "tag_value_10_mb",
        big_game: 10 * MIB,
        run: || {
            let s = read_pieces(
                vec![
                    once(b"[Event \""),
                    repeat(b"x", 10 * MIB),
                    once(b"\"]\n\n1. e4 *\n\n"),
                    once(GAME),
                ],
                usize::MAX,
            );
            assert_eq!(s.parsed, 2);
            assert!(s.errors.is_empty(), "{:?}", s.errors);
        },
    },
    Case {
        name: "games_1e6_one_move",
        big_game: 0,
        run: || {
            let s = read_pieces(
                vec![repeat(b"[Event \"g\"]\n\n1. e4 *\n\n", 1_000_000)],
                usize::MAX,
            );
            assert_eq!(s.parsed, 1_000_000);
            assert_eq!(s.mainline_moves, 1_000_000);
        },
    },
    Case {
        name: "game_1e5_moves_null_moves_in_variations",
        // The game model, not the text, dominates: two trees of 150,000
        // nodes (the game and its re-parse) are alive at once, and their
        // vectors grow by doubling.
        big_game: 3 * 150_000 * std::mem::size_of::<pgnkit::pgn::MoveNode<'static>>() as u64,
        run: || {
            let text = expand(vec![
                once(b"[Event \"long\"]\n\n"),
                repeat(b"Nf3 Nf6 (-- Nc6 Z0) Ng1 Ng8 {back}\n", 25_000),
                once(b"1/2-1/2\n"),
            ]);
            let game = parse_game(&RawGame::from_bytes(&text));
            assert_eq!(game.mainline.moves.len(), 100_000);
            assert!(game.errors.is_empty(), "{:?}", &game.errors[..1]);
            let mut out = Vec::new();
            write_game(&game, &mut out, &WriteOptions::default()).expect("write");
            let again = parse_game(&RawGame::from_bytes(&out));
            assert_eq!(again.mainline.moves.len(), 100_000);
            let texts = |g: &pgnkit::pgn::Game<'_>| -> Vec<Vec<u8>> {
                g.mainline.moves.iter().map(|m| m.text.to_vec()).collect()
            };
            assert_eq!(texts(&again), texts(&game));
            let variations = |g: &pgnkit::pgn::Game<'_>| -> usize {
                g.mainline.moves.iter().map(|m| m.variations.len()).sum()
            };
            assert_eq!(variations(&again), 25_000);
            assert_eq!(variations(&game), 25_000);
            let s = read_bytes(&text);
            assert_eq!(s.parsed, 1);
        },
    },
    Case {
        name: "unterminated_at_eof",
        big_game: 0,
        run: || {
            let cases: &[(&[u8], ParsePgnErrorKind)] = &[
                (
                    b"[Event \"a\"]\n\n1. e4 {never closed",
                    ParsePgnErrorKind::UnterminatedComment,
                ),
                (
                    b"[Event \"a\"]\n\n1. e4 (1. d4 d5",
                    ParsePgnErrorKind::UnclosedVariation,
                ),
                (
                    b"[Event \"a\"]\n[White \"never closed",
                    ParsePgnErrorKind::MalformedTag,
                ),
            ];
            for &(text, kind) in cases {
                let s = read_bytes(text);
                assert_eq!(s.parsed, 1);
                assert!(has(&s, kind), "{kind:?}: {:?}", s.errors);
                let message = s.first_message.expect("located");
                assert!(message.contains("game 1"), "{message}");
            }
        },
    },
    Case {
        name: "nul_bytes",
        big_game: 0,
        run: || {
            let mut text = GAME.to_vec();
            text.extend_from_slice(b"[Event \"bin\"]\n\n1. e4 \0\0\0 e5 *\n\n");
            text.extend_from_slice(GAME);
            let s = read_bytes(&text);
            assert_eq!(s.parsed, 3);
            assert_eq!(s.errors, [ParsePgnErrorKind::BinaryData]);
            assert_eq!(s.mainline_moves, 40);
        },
    },
    Case {
        name: "random_binary_16_mb",
        big_game: 16 * MIB,
        run: || {
            let data = random_bytes(16 << 20, 0x9E37_79B9_7F4A_7C15);
            let s = read_bytes(&data);
            assert!(s.parsed > 0);
        },
    },
    Case {
        name: "invalid_utf8_in_tags",
        big_game: 0,
        run: || {
            let text = b"[White \"M\xfcller\"]\n[Black \"\xff\xfe\x80\"]\n\n1. e4 *\n";
            let game = parse_game(&RawGame::from_bytes(text));
            assert!(game.errors.is_empty());
            let white = game.tag("White").expect("tag").value_text();
            assert_eq!(white, "M\u{fc}ller");
            let _ = game.tag("Black").expect("tag").value_text();
            assert_eq!(read_bytes(text).parsed, 1);
        },
    },
    Case {
        name: "cr_only_line_ends",
        big_game: 0,
        run: || {
            let game = String::from_utf8_lossy(GAME).replace('\n', "\r");
            let text = game.repeat(1000);
            let s = read_bytes(text.as_bytes());
            assert_eq!(s.parsed, 1000);
            assert_eq!(s.mainline_moves, 20_000);
            assert!(s.errors.is_empty());
        },
    },
    Case {
        name: "truncated_zst_and_gz",
        big_game: 0,
        run: || {
            let text = GAME.repeat(2000);
            let zst = zstd::encode_all(&text[..], 3).expect("zstd");
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&text).expect("gzip");
            let gz = gz.finish().expect("gzip");
            for (name, compressed) in [("zst", zst), ("gz", gz)] {
                let cut = compressed[..compressed.len() / 2].to_vec();
                let input = Input::from_reader(name, io::Cursor::new(cut), None).expect("open");
                let mut framer = GameFramer::new(input);
                let mut games = 0;
                let mut failed = None;
                while let Some(game) = framer.next_game() {
                    match game {
                        Ok(_) => games += 1,
                        Err(err) => failed = Some(err),
                    }
                }
                let Some(ReadPgnError::Io(err)) = failed else {
                    panic!("{name}: a truncated stream must be an I/O error");
                };
                assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{name}: {err}");
                assert!(err.to_string().starts_with(name), "{err}");
                assert!(games < 2000, "{name}: {games}");
            }
        },
    },
    Case {
        name: "zst_bomb_512_mb",
        big_game: 16 * MIB,
        run: || {
            // 512 MiB of one token without a delimiter, and a game after it.
            let mut source = Pieces::new(vec![
                once(b"[Event \"bomb\"]\n\n1. e4 "),
                repeat(&[b'a'; 4096], 128 * 1024),
                once(b" *\n\n"),
                once(GAME),
            ]);
            let expanded = source.len();
            let mut encoder = zstd::Encoder::new(Vec::new(), 1).expect("zstd");
            io::copy(&mut source, &mut encoder).expect("compress");
            let bomb = encoder.finish().expect("zstd");
            assert!(
                (bomb.len() as u64) < expanded / 1000,
                "{} bytes",
                bomb.len()
            );
            let input = Input::from_reader("bomb.zst", io::Cursor::new(bomb), None).expect("open");
            let s = read_all(input, None, expanded, 16 << 20);
            assert_eq!(s.ledger.too_large, 1);
            assert_eq!(s.parsed, 1);
            assert_eq!(s.mainline_moves, 20);
        },
    },
];

/// The child side: runs the case named in the environment, if any.
#[test]
fn adversarial_child() {
    let Ok(name) = std::env::var(CHILD_ENV) else {
        return;
    };
    let case = CASES.iter().find(|c| c.name == name).expect("known case");
    let start = Instant::now();
    (case.run)();
    let elapsed = start.elapsed();
    println!(
        "ADVERSARIAL {} {} {}",
        case.name,
        common::peak_rss_kib().unwrap_or(0),
        elapsed.as_millis()
    );
}

/// Runs a case in a child process: its peak memory (KiB) and time.
fn run_child(name: &str) -> (u64, Duration) {
    let exe = std::env::current_exe().expect("test binary");
    let output = std::process::Command::new(exe)
        .args([
            "--exact",
            "adversarial_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, name)
        .output()
        .expect("run child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "case {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("ADVERSARIAL ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("case {name} reported nothing:\n{stdout}"));
    let fields: Vec<u64> = line
        .split(' ')
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    (fields[0], Duration::from_millis(fields[1]))
}

/// The suite: memory first, then time, one after the other so that the
/// child processes do not disturb the timings.
#[test]
fn adversarial_suite() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    adversarial_inputs_are_handled_within_memory_bounds();
    time_is_linear_in_the_size();
}

/// Every case, each in its own process: correct results, and peak memory
/// within `3 x normal + 2.5 x the largest game (or model) it must hold`.
fn adversarial_inputs_are_handled_within_memory_bounds() {
    let (normal, _) = run_child("normal");
    let mut report = Vec::new();
    let mut over = Vec::new();
    for case in CASES {
        let (peak, time) = run_child(case.name);
        let bound = 3 * normal + case.big_game * 5 / 2 / 1024;
        report.push(format!(
            "{:<42} peak {:>7} KiB  bound {:>7} KiB  {:>6} ms",
            case.name,
            peak,
            bound,
            time.as_millis()
        ));
        if peak > bound {
            over.push(case.name);
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(over.is_empty(), "over the memory bound: {over:?}");
}

/// Time of reading `data` (framing, parsing, fast path), best of three.
fn time_read(data: &[u8]) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            read_all(data, None, data.len() as u64, usize::MAX);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Inputs of 1x, 4x and 16x the size take roughly 1x, 4x and 16x the time:
/// 16x may take at most 64x (a quadratic reader would take 256x).
fn time_is_linear_in_the_size() {
    type Make = fn(u64) -> Vec<u8>;
    let shapes: &[(&str, Make)] = &[
        ("open parens", |n| {
            expand(vec![once(b"1. e4 "), repeat(b"(", n * 50_000)])
        }),
        ("nested variations", |n| {
            expand(vec![
                once(b"1. e4 "),
                repeat(b"(1. d4 ", n * 10_000),
                repeat(b")", n * 10_000),
            ])
        }),
        ("one-move games", |n| {
            expand(vec![repeat(b"[Event \"g\"]\n\n1. e4 *\n\n", n * 5_000)])
        }),
        ("long game", |n| {
            expand(vec![repeat(b"Nf3 Nf6 (-- Nc6) Ng1 Ng8 {x}\n", n * 2_500)])
        }),
        ("unterminated comment", |n| {
            expand(vec![
                once(b"1. e4 {"),
                repeat(b"x (\n[A \"b\"]\n", n * 20_000),
            ])
        }),
        ("comment over blank lines and tag lines", |n| {
            expand(vec![
                once(b"1. e4 {"),
                repeat(b"x\n \n[A \"b\"]\n1. d4 {", n * 20_000),
            ])
        }),
        ("comment of blank lines", |n| {
            let line = [b"\n".as_slice(), &[b' '; 200]].concat();
            expand(vec![once(b"1. e4 {"), repeat(&line, n * 5_000)])
        }),
        ("random binary", |n| random_bytes(n as usize * 100_000, 7)),
    ];
    let mut failures = Vec::new();
    for (name, make) in shapes {
        let times: Vec<Duration> = [1, 4, 16].iter().map(|&n| time_read(&make(n))).collect();
        // A floor keeps timer noise on tiny inputs from failing the test.
        let floor = Duration::from_millis(5);
        let ratio = times[2].as_secs_f64() / times[0].max(floor).as_secs_f64();
        eprintln!("{name:<22} {times:?} 16x/1x = {ratio:.1}");
        if ratio > 64.0 {
            failures.push(format!("{name}: {times:?}"));
        }
    }
    assert!(failures.is_empty(), "not linear: {failures:?}");
}
