//! pgnkit at the end of a pipe that closes: a closed output pipe ends a
//! run quietly with status 0, and a closed standard error leaves the exit
//! status the run's own.
//!
//! The pipes are closed before pgnkit starts, so every write to them
//! fails: `| head` shows the same, but only when it wins the race.

mod common;

use std::process::{Command, Stdio};

/// How a run at a closed pipe ended: its status (none for a signal) and
/// what it wrote to the other stream.
struct Ended {
    code: Option<i32>,
    other: String,
}

/// `pgnkit args` in the crate's directory, with no standard input.
fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null());
    command
}

/// Runs `pgnkit args` with standard output on a pipe whose reader is
/// gone; `other` is standard error.
fn closed_stdout(args: &[&str]) -> Ended {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = command(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run pgnkit");
    Ended {
        code: out.status.code(),
        other: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `pgnkit args` with standard error on a pipe whose reader is gone;
/// `other` is standard output.
fn closed_stderr(args: &[&str]) -> Ended {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = command(args)
        .stdout(Stdio::piped())
        .stderr(writer)
        .output()
        .expect("run pgnkit");
    Ended {
        code: out.status.code(),
        other: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}

#[test]
fn completions_and_manual_pages_end_quietly_at_a_closed_pipe() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["completions", "fish"],
        &["completions", "elvish"],
        &["completions", "powershell"],
        &["man"],
    ] {
        let ended = closed_stdout(args);
        assert_eq!(ended.code, Some(0), "{args:?}: {}", ended.other);
        assert_eq!(ended.other, "", "{args:?}");
    }
}

#[test]
fn a_large_json_summary_ends_quietly_at_a_closed_pipe() {
    let Some(data) = common::data_dir() else {
        return;
    };
    // The summary of eco.pgn is over 100 KB: more than the output's
    // buffer, so it is written while serde_json makes it.
    let eco = data.join("corpus/pgn-extract/eco.pgn");
    let eco = eco.to_str().expect("a UTF-8 path");
    let whole = command(&["stats", "--json", eco])
        .output()
        .expect("run pgnkit");
    assert_eq!(whole.status.code(), Some(0));
    assert!(whole.stdout.len() > 1 << 16, "{}", whole.stdout.len());
    let part = std::env::temp_dir().join(format!("pgnkit-pipes-{}.json", std::process::id()));
    std::fs::write(&part, &whole.stdout).expect("write the summary");
    let part = part.to_str().expect("a UTF-8 path");
    for args in [
        &["stats", "--json", eco][..],
        &["stats", "--json", "--shard", "1/1", eco],
        &["stats", "--json", "--merge", part, part],
    ] {
        let ended = closed_stdout(args);
        assert_eq!(ended.code, Some(0), "{args:?}: {}", ended.other);
        assert_eq!(ended.other, "", "{args:?}");
    }
    let _ = std::fs::remove_file(part);
}

#[test]
fn a_closed_standard_error_leaves_the_exit_status_the_runs_own() {
    let dir = std::env::temp_dir().join(format!("pgnkit-pipes-stderr-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let parts = dir.join("{num}.pgn");
    let parts = parts.to_str().expect("a UTF-8 path");
    let games = "fixtures/myschach.pgn";
    for (args, code) in [
        // Errors of every kind: a missing input, a bad argument.
        (&["validate", "missing.pgn"][..], 2),
        (&["fen", "missing.pgn"], 2),
        (&["convert", "missing.pgn"], 2),
        (&["filter", "-e", "WhiteElo >", games], 2),
        (&["filter", "--games", "x", games], 2),
        (&["dedup", "-"], 2),
        (
            &["split", "--template", "one.pgn", "--every", "2", games],
            2,
        ),
        (&["perft", "not a position", "1"], 2),
        (&["board", "--ply", "999", games], 1),
        // Summaries.
        (&["validate", games], 0),
        (&["dedup", games, games], 0),
        (&["split", "--every", "4", "--template", parts, games], 0),
        (&["perft", "startpos", "2"], 0),
    ] {
        let ended = closed_stderr(args);
        assert_eq!(ended.code, Some(code), "{args:?}: {}", ended.other);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
