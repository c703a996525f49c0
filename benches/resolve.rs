//! Move-text speed: parse + resolve + play the SAN mainlines of generated
//! games, also with lints, and write them back in SAN. `cargo bench --bench resolve`.
//!
//! Until the PGN reader exists, games are pseudo-random legal games from a
//! fixed seed (up to 80 plies), written in SAN by the writer under test.
//! Tokens are read with `LetterPolicy::English` (under `Auto`, `Bh3` with a
//! pawn on h2 and a bishop that reaches h3 is ambiguous by design).
//! The benchmark asserts that every token resolves and that replaying ends
//! in the positions the games were generated to.

use std::hint::black_box;
use std::time::Instant;

use pgnkit::{LetterPolicy, MoveToken, Position, Style};

const GAMES: usize = 4_000;
const PLIES: usize = 80;

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// A game's SAN mainline and the Zobrist key of its final position.
struct Game {
    san: String,
    moves: usize,
    final_key: u64,
}

fn generate() -> Vec<Game> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..GAMES)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut san = String::new();
            let mut moves = 0;
            for _ in 0..PLIES {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                if !san.is_empty() {
                    san.push(' ');
                }
                san.push_str(&Style::SAN.text(&pos, m));
                pos.play_unchecked(m);
                moves += 1;
            }
            Game {
                san,
                moves,
                final_key: pos.zobrist_key(),
            }
        })
        .collect()
}

/// Parses, resolves and plays every game; returns the number of moves.
fn replay(games: &[Game]) -> usize {
    let mut total = 0;
    for game in games {
        let mut pos = Position::startpos();
        for text in game.san.split(' ') {
            let token = MoveToken::parse(text.as_bytes()).expect("generated SAN parses");
            let m = token
                .resolve(&pos, LetterPolicy::English)
                .expect("generated SAN resolves")
                .as_move()
                .expect("no null moves");
            pos.play_unchecked(m);
            total += 1;
        }
        assert_eq!(pos.zobrist_key(), game.final_key, "replay reaches the end");
    }
    total
}

/// Replays every game like `validate`: parse, resolve, play, lint (the
/// generated SAN must have no lint); returns the number of moves.
fn validate(games: &[Game]) -> usize {
    let mut total = 0;
    for game in games {
        let mut pos = Position::startpos();
        for text in game.san.split(' ') {
            let token = MoveToken::parse(text.as_bytes()).expect("generated SAN parses");
            let m = token
                .resolve(&pos, LetterPolicy::English)
                .expect("generated SAN resolves")
                .as_move()
                .expect("no null moves");
            let before = pos;
            pos.play_unchecked(m);
            assert!(token.lints(&before, m, &pos).is_empty(), "{text}");
            total += 1;
        }
    }
    total
}

/// Replays every game writing each move in SAN; returns the bytes written.
fn write(games: &[Game]) -> usize {
    let mut bytes = 0;
    for game in games {
        let mut pos = Position::startpos();
        for text in game.san.split(' ') {
            let m = MoveToken::parse(text.as_bytes())
                .ok()
                .and_then(|t| t.resolve(&pos, LetterPolicy::English).ok())
                .and_then(|r| r.as_move())
                .expect("generated SAN resolves");
            let written = Style::SAN.text(&pos, m);
            assert_eq!(&*written, text);
            bytes += black_box(written).len();
            pos.play_unchecked(m);
        }
    }
    bytes
}

fn main() {
    let runs: usize = std::env::var("RESOLVE_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let games = generate();
    let expected: usize = games.iter().map(|g| g.moves).sum();
    println!("{GAMES} games, {expected} moves");

    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let moves = replay(black_box(&games));
        best = best.min(start.elapsed().as_secs_f64());
        assert_eq!(moves, expected);
    }
    println!(
        "parse + resolve + play: best of {runs}: {best:.3} s, {:.2} M moves/s",
        expected as f64 / best / 1e6
    );

    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let moves = validate(black_box(&games));
        best = best.min(start.elapsed().as_secs_f64());
        assert_eq!(moves, expected);
    }
    println!(
        "parse + resolve + play + lint: best of {runs}: {best:.3} s, {:.2} M moves/s",
        expected as f64 / best / 1e6
    );

    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        black_box(write(black_box(&games)));
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "parse + resolve + write SAN + play: best of {runs}: {best:.3} s, {:.2} M moves/s",
        expected as f64 / best / 1e6
    );
}
