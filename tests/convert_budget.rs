//! The move budget of the commands that build a game's tree (`convert --to
//! json`): a hostile single game with millions of moves is refused with a
//! per-game error instead of taking gigabytes, in the style of
//! `tests/adversarial.rs` (the case runs in a child process that reports
//! its peak resident size).

mod cli_support;
mod common;

use cli_support::{pgnkit, temp_file};
use pgnkit::convert::{MAX_TREE_MOVES, PlayErrorKind, check_tree_budget};
use pgnkit::pgn::RawGame;
use pgnkit::replay::Status;
use pgnkit::replay::{ReplayOptions, Replayer};

const CHILD_ENV: &str = "PGNKIT_CONVERT_BUDGET_CASE";

/// One legal game of `plies` knight moves (a multiple of 4), result `*`.
fn knight_shuffle(plies: usize) -> Vec<u8> {
    let mut text = b"[Event \"budget\"]\n\n".to_vec();
    for _ in 0..plies / 4 {
        text.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    }
    text.extend_from_slice(b"*\n");
    text
}

/// The child side: what `convert --to json` does with one game of two
/// million plies before building its tree (replay, then the budget).
#[test]
fn budget_child() {
    if std::env::var(CHILD_ENV).is_err() {
        return;
    }
    let text = knight_shuffle(2_000_000);
    let raw = RawGame::from_bytes(&text);
    let replay = Replayer::new().replay(&raw, &ReplayOptions::default());
    assert_eq!(replay.status, Status::Valid);
    assert_eq!(replay.plies, 2_000_000);
    let err = check_tree_budget(&raw, MAX_TREE_MOVES).unwrap_err();
    assert_eq!(
        err.kind,
        PlayErrorKind::TooManyMoves {
            limit: MAX_TREE_MOVES
        }
    );
    // The first move beyond the budget: 16 bytes per four plies.
    assert_eq!(err.span.start, 18 + MAX_TREE_MOVES * 4);
    println!("BUDGET {}", common::peak_rss_kib().unwrap_or(0));
}

/// The tree of that game would take over 350 MiB (184 bytes per move
/// node alone); refusing it keeps the peak at the input and the replay.
#[test]
fn a_huge_game_is_refused_within_a_memory_bound() {
    let exe = std::env::current_exe().expect("test binary");
    let output = std::process::Command::new(exe)
        .args(["--exact", "budget_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .output()
        .expect("run child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let peak: u64 = stdout
        .lines()
        .find_map(|l| l.split_once("BUDGET ").map(|(_, rest)| rest))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("the child reported nothing:\n{stdout}"));
    eprintln!("peak {peak} KiB");
    assert!(peak < 96 * 1024, "peak {peak} KiB");
}

/// The command: the game is reported with its position and not written;
/// PGN output (streaming, no tree) still converts it.
#[test]
fn json_output_refuses_a_game_over_the_budget() {
    let path = temp_file(
        "convert-budget",
        "huge.pgn",
        &knight_shuffle(MAX_TREE_MOVES + 4),
    );
    let path = path.to_str().unwrap();
    let out = pgnkit(&["convert", "--to", "json", path]);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "{path}:3:{}: error: game 1, Nf3: more than {MAX_TREE_MOVES} moves (mainline and \
             variations): too many to build the game's tree\n",
            1 + MAX_TREE_MOVES * 4
        )
    );
    assert_eq!(out.code, 1);
    let out = pgnkit(&["convert", "--to", "uci", "--no-tags", path]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(out.stdout.starts_with("1. g1f3 g8f6 2. f3g1 f6g8 3. g1f3"));
}
