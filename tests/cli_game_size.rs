//! A game over the size bound (256 MiB) is reported by every command that
//! reads games, mapped, in pieces and as a stream, and the games around it
//! are read: never dropped silently.

mod cli_support;

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use cli_support::{Out, assert_documented_keys, pgnkit, pgnkit_envs, validate_json_keys};

/// The bound's default, [`pgnkit::pgn::DEFAULT_MAX_GAME_BYTES`].
const BOUND: u64 = 256 << 20;

/// A file of `head`, a comment of zeros just over the bound (a hole of a
/// sparse file: nothing is written), and `tail`.
fn sparse_game(name: &str, head: &str, tail: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-game-size-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).expect("create");
    file.write_all(head.as_bytes()).expect("write");
    file.seek(SeekFrom::Current((BOUND + (1 << 20)) as i64))
        .expect("seek");
    file.write_all(tail.as_bytes()).expect("write");
    path
}

/// Removes a file of [`sparse_game`]: a copy of the temporary directory
/// would hold its whole length.
fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// Game 2 of three is over the bound; a file of its own for each test
/// (one mapped by a test is not truncated by another).
fn middle(name: &str) -> PathBuf {
    sparse_game(
        name,
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"big\"]\n\n1. e4 {",
        "} e5 *\n\n[Event \"c\"]\n\n1. d4 d5 *\n",
    )
}

/// The message for game 2 of `path`.
fn message(path: &Path) -> String {
    format!(
        "pgnkit: {}: game 2 (line 5) is larger than {BOUND} bytes; skipped\n",
        path.display()
    )
}

/// `args` then `path`, mapped with 1 and 2 jobs, and read as a stream.
fn runs(args: &[&str], path: &Path) -> Vec<(String, Out)> {
    let path = path.to_str().expect("UTF-8 path");
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        let mut all = args.to_vec();
        all.extend(["--jobs", jobs, path]);
        outs.push((format!("{args:?} --jobs {jobs}"), pgnkit(&all)));
        if jobs == "2" {
            let stream = pgnkit_envs(&all, &[("PGNKIT_NO_MMAP", "1")]);
            outs.push((format!("{args:?} --jobs {jobs}, stream"), stream));
        }
    }
    outs
}

#[test]
fn tags_reports_a_game_over_the_size_bound() {
    let path = middle("tags.pgn");
    let expected = message(&path);
    for (args, stdout) in [
        (&["tags", "-f", "game,Event"][..], "1\ta\n3\tc\n"),
        (
            &["tags", "--format", "jsonl", "-f", "game,Event"],
            "{\"game\":1,\"Event\":\"a\"}\n{\"game\":3,\"Event\":\"c\"}\n",
        ),
        // The first pass, for the column names, reports nothing.
        (
            &["tags", "--format", "csv", "-f", "game,*"],
            "game,Event\n1,a\n3,c\n",
        ),
    ] {
        for (run, out) in runs(args, &path) {
            assert_eq!(
                (out.code, out.stdout.as_str(), out.stderr.as_str()),
                (0, stdout, expected.as_str()),
                "{run}"
            );
        }
    }
    let parquet = path.with_extension("parquet");
    let parquet = parquet.to_str().expect("UTF-8 path");
    let args = [
        "tags",
        "--format",
        "parquet",
        "-o",
        parquet,
        "-f",
        "game,Event",
    ];
    for (run, out) in runs(&args, &path) {
        assert_eq!(
            (out.code, out.stderr.as_str()),
            (0, expected.as_str()),
            "{run}"
        );
    }
    remove(&path);
}

/// `number` counts on over a game over the bound that ends an input.
#[test]
fn tags_numbers_count_a_last_game_over_the_size_bound() {
    let last = sparse_game(
        "last.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"big\"]\n\n1. e4 {",
        "} e5 *\n",
    );
    let next = cli_support::temp_file("game-size", "next.pgn", b"[Event \"n\"]\n\n1. d4 *\n");
    let paths = [last.to_str().expect("path"), next.to_str().expect("path")];
    for jobs in ["1", "2"] {
        let mut args = vec!["tags", "-f", "number,game,Event", "--jobs", jobs];
        args.extend(paths);
        let out = pgnkit(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(out.stdout, "1\t1\ta\n3\t1\tn\n", "--jobs {jobs}");
        assert_eq!(out.stderr, message(&last), "--jobs {jobs}");
    }
    remove(&last);
}

#[test]
fn stats_reports_a_game_over_the_size_bound() {
    let path = middle("stats.pgn");
    let expected = message(&path);
    for (run, out) in runs(&["stats", "--json"], &path) {
        assert_eq!(
            (out.code, out.stderr.as_str()),
            (0, expected.as_str()),
            "{run}"
        );
        let summary: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        assert_eq!(summary["games"], 3, "{run}");
        assert_eq!(
            summary["events"],
            serde_json::json!({"a": 1, "c": 1}),
            "{run}"
        );
    }
    remove(&path);
}

/// In `validate --format json` the game over the bound is an object with
/// every documented key: the players and the move keys null (it used to
/// lack `white`, `black` and `variation`).
#[test]
fn validate_json_of_a_game_over_the_size_bound_has_every_key() {
    let path = middle("json.pgn");
    let keys = validate_json_keys();
    for (run, out) in runs(&["validate", "--format", "json"], &path) {
        assert_eq!(out.code, 1, "{run}: {}", out.stderr);
        let line = out.stdout.lines().next().unwrap_or_default();
        assert!(
            line.contains("\"kind\":\"game-too-large\""),
            "{run}: {line}"
        );
        assert!(
            line.contains("\"white\":null,\"black\":null"),
            "{run}: {line}"
        );
        assert_documented_keys(line, &keys);
    }
    remove(&path);
}

/// The other commands, as they report it.
#[test]
fn every_command_reports_a_game_over_the_size_bound() {
    let path = middle("every.pgn");
    let located = format!(
        "{}:5:1: error: game 2: game 2 (line 5) is larger than {BOUND} bytes; skipped",
        path.display()
    );
    // The commands that write games byte for byte are asked for none of
    // it (`split` writes it; the message is `filter`'s).
    let cases: &[(&[&str], i32, &str)] = &[
        (&["validate"], 1, &located),
        (&["fen"], 1, &located),
        (&["convert"], 1, &located),
        (&["filter", "-e", "Event = c"], 0, &message(&path)),
        (&["dedup", "--no-games"], 0, &message(&path)),
    ];
    for &(args, code, expected) in cases {
        for (run, out) in runs(args, &path) {
            assert_eq!(out.code, code, "{run}: {}", out.stderr);
            assert!(out.stderr.contains(expected), "{run}: {}", out.stderr);
        }
    }
    remove(&path);
}

/// `board --game N` after a game over the bound reports it, as `filter`
/// does, counts it as a game and draws game N; asked for that game, it
/// reports it as an error. It used to stop at the game with status 2.
#[test]
fn regression_board_draws_the_game_after_one_over_the_size_bound() {
    let path = middle("board.pgn");
    let file = path.to_str().expect("UTF-8 path");
    let drawn = "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n7 ♟ ♟ ♟ · ♟ ♟ ♟ ♟\n";
    for vars in [&[][..], &[("PGNKIT_NO_MMAP", "1")]] {
        let out = pgnkit_envs(&["board", "--game", "3", "--letters", file], vars);
        let out_figurines = pgnkit_envs(&["board", "--game", "3", file], vars);
        assert_eq!(out.code, 0, "{vars:?}: {}", out.stderr);
        assert_eq!(out.stderr, message(&path), "{vars:?}");
        assert!(out.stdout.contains("r n b q k b n r"), "{}", out.stdout);
        assert!(
            out_figurines.stdout.starts_with(drawn),
            "{}",
            out_figurines.stdout
        );
        let out = pgnkit_envs(&["board", "--game", "2", file], vars);
        assert_eq!(out.code, 1, "{vars:?}: {}", out.stderr);
        assert_eq!(
            out.stderr,
            format!(
                "{file}:5:1: error: game 2: game 2 (line 5) is larger than {BOUND} bytes; skipped\n\
                 pgnkit board: game 2 of {file} is over the size bound: it is not read\n"
            ),
            "{vars:?}"
        );
        assert_eq!(out.stdout, "");
    }
    remove(&path);
}
