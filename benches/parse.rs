//! Parse-only throughput: frame + parse (a) into the full game model,
//! (b) through the fast mainline visitor and (c) through the syntax checker
//! (`validate --syntax-only`), on the two 1 MB real samples
//! (lichess + TWIC) repeated `PGNKIT_BENCH_REPS` times (default 32) in
//! memory, and on the big archives (`data/big/*.pgn.zst`, decompressed into
//! memory first), with game counts asserted. In the same run, pgn-reader's
//! tokenizer (`../shared/bench/rust-peer/target/release/parse-only`) reads
//! the same text from a file in the page cache, if it is built.
//!
//! `cargo bench --bench parse`

use std::io::Read;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use pgnkit::LetterPolicy;
use pgnkit::MoveToken;
use pgnkit::pgn::{GameFramer, MainlineEvent, RawGame, SyntaxChecker, parse_game, visit_mainline};
use pgnkit::replay::{ReplayOptions, Replayer};

const SAMPLES: [(&str, usize); 2] = [("lichess_db_1000k.pgn", 438), ("twic1599_1000k.pgn", 1110)];
/// The big archives with pgnkit's game counts (see `tests/pgn_big.rs`).
const BIG: [(&str, usize); 2] = [
    ("pgnmentor-12-players.pgn.zst", 31_990),
    ("tcec-seasons-01-14.pgn.zst", 4_922),
];

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PGNKIT_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

/// Runs `f` `runs` times; the fastest time. Rows whose name does not
/// contain one of the `|`-separated names in `PGNKIT_BENCH_ONLY` (if set)
/// are skipped (zero time).
fn best(runs: usize, mut f: impl FnMut() -> usize, expected: usize, what: &str) -> Duration {
    if std::env::var("PGNKIT_BENCH_ONLY")
        .is_ok_and(|only| !only.split('|').any(|name| what.contains(name)))
    {
        return Duration::ZERO;
    }
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let games = f();
        best = best.min(start.elapsed());
        assert_eq!(games, expected, "{what}: game count");
    }
    best
}

fn report(what: &str, bytes: usize, games: usize, time: Duration) {
    if time.is_zero() {
        return;
    }
    let secs = time.as_secs_f64();
    println!(
        "{what:<40} {:>8.3} s {:>9.1} MiB/s {:>11.0} games/s",
        secs,
        bytes as f64 / secs / (1 << 20) as f64,
        games as f64 / secs
    );
}

fn main() {
    let Some(data) = data_dir() else {
        eprintln!("skipped: no shared data (set PGNKIT_DATA)");
        return;
    };
    let reps: usize = std::env::var("PGNKIT_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(32);
    let dir = data.join("corpus/shakmaty-pgn-reader");
    let mut text = Vec::new();
    let mut games = 0;
    for _ in 0..reps {
        for (name, count) in SAMPLES {
            text.extend_from_slice(&std::fs::read(dir.join(name)).expect("sample"));
            text.extend_from_slice(b"\n\n");
            games += count;
        }
    }
    run_set(
        &format!("lichess + TWIC samples x{reps}"),
        &text,
        games,
        "sample",
    );
    for (name, count) in BIG {
        let path = data.join("big").join(name);
        if !path.is_file() {
            continue;
        }
        let mut big = Vec::new();
        pgnkit::input::open(&path)
            .and_then(|mut input| input.read_to_end(&mut big))
            .expect("decompress");
        run_set(name, &big, count, "big");
    }
}

/// Frames every game of `text` and hands it to `f`; the number of games.
fn each_game(text: &[u8], mut f: impl FnMut(&RawGame<'_>)) -> usize {
    let mut framer = GameFramer::new(text);
    let mut n = 0;
    while let Some(game) = framer.next_game() {
        f(&game.expect("frame"));
        n += 1;
    }
    n
}

/// Frames and parses `text` three ways, then runs the peer on the same text.
fn run_set(label: &str, text: &[u8], games: usize, tag: &str) {
    let runs = std::env::var("PGNKIT_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    println!(
        "\n{label}: {:.1} MiB, {games} games; best of {runs}",
        text.len() as f64 / (1 << 20) as f64
    );

    let frame_only = best(
        runs,
        || {
            let mut framer = GameFramer::new(text);
            let mut n = 0;
            while let Some(game) = framer.next_game() {
                game.expect("frame");
                n += 1;
            }
            n
        },
        games,
        "frame only",
    );
    report("pgnkit frame only", text.len(), games, frame_only);

    let mut moves = 0usize;
    let tokens_only = best(
        runs,
        || {
            let mut framer = GameFramer::new(text);
            let mut n = 0;
            while let Some(game) = framer.next_game() {
                visit_mainline(&game.expect("frame"), |event| {
                    if let MainlineEvent::Move { text, .. } = event {
                        moves += text.len();
                    }
                });
                n += 1;
            }
            n
        },
        games,
        "fast path, tokens only",
    );
    std::hint::black_box(moves);
    report(
        "pgnkit fast path (mainline tokens only)",
        text.len(),
        games,
        tokens_only,
    );

    let mut plies = 0;
    let fast = best(
        runs,
        || {
            plies = 0;
            each_game(text, |game| {
                visit_mainline(game, |event| {
                    if let MainlineEvent::Move { text, .. } = event {
                        plies += usize::from(MoveToken::parse(text).is_ok()) + 1;
                    }
                });
            })
        },
        games,
        "fast path",
    );
    report(
        "pgnkit fast path (mainline + MoveToken)",
        text.len(),
        games,
        fast,
    );

    // The parse-only path of `validate --syntax-only`: every token,
    // variations included, every move token classified.
    let mut moves = 0;
    let checked = best(
        runs,
        || {
            let mut framer = GameFramer::new(text);
            let mut checker = SyntaxChecker::default();
            let mut n = 0;
            moves = 0;
            while let Some(game) = framer.next_game() {
                let summary = checker.check(&game.expect("frame"), |e| {
                    std::hint::black_box(e);
                });
                moves += summary.moves;
                n += 1;
            }
            n
        },
        games,
        "syntax check",
    );
    std::hint::black_box(moves);
    report(
        "pgnkit syntax check (SyntaxChecker)",
        text.len(),
        games,
        checked,
    );

    // The parser alone, on the mainline tokens copied out of the games.
    let mut bytes = Vec::new();
    let mut ends = Vec::new();
    let mut framer = GameFramer::new(text);
    while let Some(game) = framer.next_game() {
        visit_mainline(&game.expect("frame"), |event| {
            if let MainlineEvent::Move { text, .. } = event {
                bytes.extend_from_slice(text);
                ends.push(bytes.len());
            }
        });
    }
    let tokens: Vec<&[u8]> = ends
        .iter()
        .scan(0, |start, &end| {
            let token = &bytes[*start..end];
            *start = end;
            Some(token)
        })
        .collect();
    let valid = tokens
        .iter()
        .filter(|t| MoveToken::parse(t).is_ok())
        .count();
    let parse_only = best(
        runs,
        || {
            let ok = tokens
                .iter()
                .filter(|token| MoveToken::parse(std::hint::black_box(token)).is_ok())
                .count();
            assert_eq!(ok, valid, "valid tokens");
            games
        },
        games,
        "MoveToken::parse alone",
    );
    if !parse_only.is_zero() {
        println!(
            "{:<40} {:>8.3} s {:>9.1} ns/token ({} tokens)",
            "MoveToken::parse alone",
            parse_only.as_secs_f64(),
            parse_only.as_secs_f64() * 1e9 / tokens.len() as f64,
            tokens.len()
        );
    }

    // What `validate --jobs 1 --quiet` does per game, in memory: frame,
    // then replay (tokens, resolve, play, result), no lints.
    let options = ReplayOptions {
        letters: LetterPolicy::Auto,
        lints: false,
        lenient: false,
    };
    let mut replayer = Replayer::new();
    let mut plies = 0;
    let replayed = best(
        runs,
        || {
            plies = 0;
            each_game(text, |game| {
                plies += replayer.replay(game, &options).plies as usize;
            })
        },
        games,
        "replay",
    );
    if !replayed.is_zero() {
        report("pgnkit frame + replay", text.len(), games, replayed);
        // Per ply without the framing, when "frame only" ran too.
        if !frame_only.is_zero() {
            println!(
                "{:<40} {:>8.1} ns/ply ({plies} plies)",
                "replay alone (frame + replay - frame)",
                (replayed.saturating_sub(frame_only)).as_secs_f64() * 1e9 / plies as f64,
            );
        }
    }

    let full = best(
        runs,
        || {
            let mut framer = GameFramer::new(text);
            let mut n = 0;
            while let Some(game) = framer.next_game() {
                let game = parse_game(&game.expect("frame"));
                std::hint::black_box(&game);
                n += 1;
            }
            n
        },
        games,
        "full model",
    );
    report("pgnkit full model (parse_game)", text.len(), games, full);

    let peer = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench/rust-peer/target/release/parse-only");
    if !peer.is_file() {
        println!("pgn-reader parse-only not built (../shared/bench/setup.sh); no comparison");
        return;
    }
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("target/bench-parse-input-{tag}.pgn"));
    std::fs::write(&file, text).expect("write bench input");
    for (label, args) in [
        (
            "pgn-reader parse-only --skip-variations",
            &["--skip-variations"][..],
        ),
        ("pgn-reader parse-only", &[][..]),
    ] {
        let time = best(
            runs,
            || {
                let out = Command::new(&peer)
                    .args(args)
                    .arg(&file)
                    .output()
                    .expect("run peer");
                assert!(out.status.success(), "peer failed");
                games
            },
            games,
            label,
        );
        report(label, text.len(), games, time);
    }
    let _ = std::fs::remove_file(&file);
}
