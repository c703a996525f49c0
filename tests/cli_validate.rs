//! `pgnkit validate` and `pgnkit fen` run as a real binary: whole outputs,
//! exit codes, and identical output with one and two workers.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn pgnkit_in(args: &[&str], stdin: &[u8]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn pgnkit(args: &[&str]) -> Out {
    pgnkit_in(args, b"")
}

/// A file in a fresh temporary directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-cli-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const BAD: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n\
                   1. e4 e5 (1... Ke7) 2. Nf3+ *\n";

#[test]
fn seed_sequence_gives_the_seed_fens() {
    let out = pgnkit_in(&["fen"], b"1.e4 *\n\n1.e4 c5 *\n\n1.e4 c5 2.Nf3 *\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"
    );
    let out = pgnkit_in(&["fen", "--ep", "legal", "-"], b"1.e4 c5 *\n");
    assert_eq!(
        out.stdout,
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"
    );
}

#[test]
fn fen_prints_no_line_for_an_invalid_game() {
    let path = temp_file("fen-bad.pgn", &format!("1. d4 *\n\n{BAD}"));
    let path = path.to_str().unwrap();
    let out = pgnkit(&["fen", path]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1\n"
    );
    assert_eq!(
        out.stderr,
        format!(
            "{path}:7:13: error: game 2 (A - B), 2.Ke3: illegal move: no king can move to e3\n\
             {path}:9:16: error: game 3 (? - ?), 1...Ke7 (in a variation): illegal move: e7 holds a pawn of the side to move\n"
        )
    );
}

#[test]
fn readme_example_validates_cleanly() {
    let out = pgnkit(&["validate", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "fixtures/myschach.pgn:37:4: warning: game 2 (Musterfrau, Karin - Mustermann, Bernd), 1.e2-e4: long algebraic notation, not SAN (first of 22 moves)\n\
         fixtures/myschach.pgn:37:19: warning: game 2 (Musterfrau, Karin - Mustermann, Bernd), 2.Sg1-f3: German piece letters, not SAN (first of 14 moves)\n\
         fixtures/myschach.pgn:54:4: warning: game 3 (Mustermann, Bernd - Beispiel, Anna), 1.e2-e4: long algebraic notation, not SAN (first of 13 moves)\n\
         fixtures/myschach.pgn:54:10: warning: game 3 (Mustermann, Bernd - Beispiel, Anna), 1...Sg8-f6: German piece letters, not SAN (first of 6 moves)\n\
         fixtures/myschach.pgn:54:35: warning: game 3 (Mustermann, Bernd - Beispiel, Anna), 3.e5xd6 e.p.: en-passant mark (SAN writes none)\n\
         pgnkit validate: 5 games: 5 valid (2 with warnings), 0 with errors, 0 unsupported (skipped)\n\
         pgnkit validate: on the board: 1 checkmate, 1 stalemate, 3 unfinished\n"
    );
    let out = pgnkit(&["validate", "--quiet", "fixtures/myschach.pgn"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    let out = pgnkit(&["validate", "--strict", "--quiet", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr.lines().count(), 5);
    assert!(out.stderr.lines().all(|l| l.contains(": error: ")));
}

#[test]
fn exit_codes() {
    let bad = temp_file("bad.pgn", BAD);
    let bad = bad.to_str().unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["validate", "fixtures/myschach.pgn"], 0),
        (&["validate", bad], 1),
        (&["validate", "fixtures/myschach.pgn", bad], 1),
        (&["validate", "no/such/file.pgn"], 2),
        // An unreadable file is reported; the others are still checked.
        (&["validate", "no/such/file.pgn", bad], 2),
        (&["validate", "--jobs", "x"], 2),
        (&["validate", "--lang", "fr"], 2),
        (&["fen", "fixtures/myschach.pgn"], 0),
        (&["fen", bad], 1),
        (&["fen", "no/such/file.pgn"], 2),
    ];
    for &(args, code) in cases {
        let out = pgnkit(args);
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
    }
    let out = pgnkit(&["validate", "-q", "no/such/file.pgn", bad]);
    assert!(out.stderr.contains("no/such/file.pgn"), "{}", out.stderr);
    assert!(out.stderr.contains("2.Ke3: illegal move"), "{}", out.stderr);
}

#[test]
fn json_lines_on_stdout() {
    let out = pgnkit_in(&["validate", "--format", "json", "-q"], BAD.as_bytes());
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.stdout,
        "{\"file\":\"<stdin>\",\"game\":1,\"offset\":52,\"line\":5,\"column\":13,\"white\":\"A\",\"black\":\"B\",\
         \"ply\":3,\"move\":\"Ke3\",\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\",\
         \"variation\":false,\"severity\":\"error\",\"kind\":\"illegal\",\"message\":\"illegal move: no king can move to e3\"}\n\
         {\"file\":\"<stdin>\",\"game\":2,\"offset\":76,\"line\":7,\"column\":16,\"white\":\"?\",\"black\":\"?\",\
         \"ply\":2,\"move\":\"Ke7\",\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\",\
         \"variation\":true,\"severity\":\"error\",\"kind\":\"illegal\",\"message\":\"illegal move: e7 holds a pawn of the side to move\"}\n"
    );
}

/// Every PGN file under `dir` (plain or zstd).
fn pgn_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.to_string_lossy().into_owned();
                if name.ends_with(".pgn") || name.ends_with(".pgn.zst") {
                    out.push(name);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn one_and_two_jobs_write_the_same_bytes() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let mut files = pgn_files(&data.join("corpus"));
    files.extend(pgn_files(&data.join("broken")));
    // The big archives make several batches, so the workers really overlap.
    files.extend(pgn_files(&data.join("big")));
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    for command in [
        &["validate", "--progress", "never"][..],
        &["validate", "--progress", "never", "--format", "json"],
        &["fen", "--progress", "never"],
    ] {
        let run = |jobs: &str| {
            let mut args = command.to_vec();
            args.extend(["--jobs", jobs]);
            args.extend(&files);
            pgnkit(&args)
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one.code, two.code, "{command:?}");
        assert!(one.stdout == two.stdout, "{command:?}: stdout differs");
        assert!(one.stderr == two.stderr, "{command:?}: stderr differs");
        assert!(!one.stdout.is_empty() || !one.stderr.is_empty());
    }
}

/// The syntax-relevant fields of one JSON diagnostic line.
fn syntax_rows(stdout: &str) -> Vec<(String, u64, u64, u64, String, String)> {
    stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"))
        .filter(|v| matches!(v["kind"].as_str(), Some("syntax" | "bad-move")))
        .map(|v| {
            let text = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
            let number = |k: &str| v[k].as_u64().unwrap_or_default();
            (
                text("file"),
                number("game"),
                number("line"),
                number("column"),
                text("kind"),
                text("message"),
            )
        })
        .collect()
}

/// `--syntax-only` reports exactly the syntax diagnostics of the full
/// validate (same places, kinds and messages) on every broken and corpus
/// file, except in games the replay does not read to the end.
#[test]
fn syntax_only_reports_the_syntax_diagnostics_of_validate() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let mut files = pgn_files(&data.join("broken"));
    files.extend(pgn_files(&data.join("corpus")));
    let run = |extra: &[&str]| {
        // Not --quiet: the notes on skipped games (variants) are needed.
        let mut args = vec!["validate", "--format", "json", "--jobs", "2"];
        args.extend_from_slice(extra);
        args.extend(files.iter().map(String::as_str));
        pgnkit(&args)
    };
    let full = run(&[]);
    let syntax = run(&["--syntax-only"]);
    assert_eq!(
        syntax.code, 1,
        "the broken files have errors: {}",
        syntax.stderr
    );
    // Games a replay stops reading early: an unusable FEN or a variant.
    let unread: std::collections::HashSet<(String, u64)> = full
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| matches!(v["kind"].as_str(), Some("bad-fen" | "unsupported-variant")))
        .map(|v| {
            (
                v["file"].as_str().unwrap_or_default().to_owned(),
                v["game"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let ours: Vec<_> = syntax_rows(&syntax.stdout)
        .into_iter()
        .filter(|r| !unread.contains(&(r.0.clone(), r.1)))
        .collect();
    let theirs: Vec<_> = syntax_rows(&full.stdout)
        .into_iter()
        .filter(|r| !unread.contains(&(r.0.clone(), r.1)))
        .collect();
    assert!(ours.len() > 100, "only {} syntax errors", ours.len());
    let missing: Vec<_> = theirs.iter().filter(|r| !ours.contains(r)).collect();
    let extra: Vec<_> = ours.iter().filter(|r| !theirs.contains(r)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:#?}\nextra {extra:#?}"
    );
    assert_eq!(ours, theirs);
}

#[test]
fn syntax_only_text_output_and_summary() {
    let path = temp_file(
        "syntax.pgn",
        // The `*` in the unclosed variation is not the game's marker: the
        // game ends at the next tag line.
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 Zz9 (3. d4 *\n\n[White \"C\"]\n1. e4 *\n",
    );
    let out = pgnkit(&["validate", "--syntax-only", path.to_str().unwrap()]);
    let name = path.to_str().unwrap();
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        format!(
            "{name}:4:17: error: game 1 (A - B): not a move: unexpected character `z` after `Z` in `Zz9`\n\
             {name}:4:28: error: game 1 (A - B): result inside a variation\n\
             {name}:4:21: error: game 1 (A - B): unclosed variation\n\
             pgnkit validate: 2 games: 1 well-formed, 1 with syntax errors (syntax only: moves not replayed)\n",
        )
    );
}

/// A game with more diagnostics than a replay keeps: the first ones are
/// shown, the rest counted in one line (exact counts in JSON), and the
/// verdict still counts them.
#[test]
fn diagnostics_past_the_cap_are_counted_not_kept() {
    let n = 12_000;
    let mut pgn = String::from("[White \"A\"]\n[Black \"B\"]\n\n1. e4 ");
    for _ in 0..n {
        pgn.push_str("(1. Ke2) ");
    }
    pgn.push_str("e5 *\n");
    let kept = pgnkit::replay::MAX_DIAGNOSTICS;
    let more = n - kept;
    let out = pgnkit_in(&["validate"], pgn.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.contains("illegal move")).count(),
        kept
    );
    assert!(
        out.stderr.contains(&format!(
            "<stdin>:1:1: note: game 1 (A - B): … and {more} more errors in this game, not shown"
        )),
        "{}",
        lines.last().unwrap_or(&"")
    );
    let out = pgnkit_in(&["validate", "--format", "json"], pgn.as_bytes());
    let last = out.stdout.lines().last().unwrap_or_default();
    assert!(
        last.contains(&format!(
            "\"kind\":\"omitted\",\"errors\":{more},\"warnings\":0"
        )),
        "{last}"
    );
}

/// `--syntax-only` keeps and counts syntax errors as the replay does: the
/// same first errors, the same line for the rest, and no memory for them.
#[test]
fn syntax_errors_past_the_cap_are_counted_as_by_the_replay() {
    let n = 10_005;
    let pgn = format!(
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {}e5 *\n",
        "] ".repeat(n)
    );
    let more = n - pgnkit::replay::MAX_DIAGNOSTICS;
    let note = format!(
        "<stdin>:1:1: note: game 1 (A - B): … and {more} more errors in this game, not shown \
         (at most 10000 are kept per game)\n"
    );
    let replay = pgnkit_in(&["validate"], pgn.as_bytes());
    let syntax = pgnkit_in(&["validate", "--syntax-only"], pgn.as_bytes());
    assert_eq!((replay.code, syntax.code), (1, 1), "{}", syntax.stderr);
    let shown = |out: &Out| -> String {
        out.stderr
            .lines()
            .filter(|l| !l.starts_with("pgnkit validate:"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert!(shown(&syntax).ends_with(&note), "{}", syntax.stderr);
    assert_eq!(shown(&replay), shown(&syntax));
    let json = pgnkit_in(
        &["validate", "--syntax-only", "--format", "json"],
        pgn.as_bytes(),
    );
    let last = json.stdout.lines().last().unwrap_or_default();
    let counts = format!("\"kind\":\"omitted\",\"errors\":{more},\"warnings\":0");
    assert!(last.contains(&counts), "{last}");
}

/// Games built to make reports slow (very many tags, very many errors on
/// one line) are reported in time linear in their size: 16x the input
/// may take at most 64x the time (a quadratic report would take 256x).
#[test]
fn reports_of_hostile_games_take_time_linear_in_their_size() {
    type Make = fn(usize) -> String;
    let shapes: &[(&str, &[&str], Make)] = &[
        ("distinct tags, each twice", &["validate"], |n| {
            let tags: String = (0..n * 2_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
            format!("{tags}{tags}\n1. e4 *\n")
        }),
        ("distinct tags", &["stats"], |n| {
            let tags: String = (0..n * 4_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
            format!("{tags}\n1. e4 *\n")
        }),
        ("errors on one line", &["validate", "--syntax-only"], |n| {
            format!("1. e4 {}*\n", "] ".repeat(n * 10_000))
        }),
        (
            "UTF-8 errors on one line",
            &["validate", "--syntax-only"],
            |n| format!("1. e4 {}*\n", "é ".repeat(n * 4_000)),
        ),
    ];
    let time = |args: &[&str], pgn: &str| {
        (0..3)
            .map(|_| {
                let start = std::time::Instant::now();
                pgnkit_in(args, pgn.as_bytes());
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let mut failures = Vec::new();
    for &(name, args, make) in shapes {
        let (small, large) = (time(args, &make(1)), time(args, &make(16)));
        // A floor keeps the noise of starting a process from failing it.
        let floor = std::time::Duration::from_millis(20);
        let ratio = large.as_secs_f64() / small.max(floor).as_secs_f64();
        eprintln!("{name:<26} {small:?} {large:?} 16x/1x = {ratio:.1}");
        if ratio > 64.0 {
            failures.push(format!("{name}: {small:?}, {large:?}"));
        }
    }
    assert!(failures.is_empty(), "not linear: {failures:?}");
}

#[test]
fn claimable_draws_are_counted_by_kind() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("corpus/pgn-extract/infiles/test-repetition.pgn");
    let path = path.to_str().unwrap();
    let out = pgnkit(&["validate", path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "pgnkit validate: 12 games: 12 valid (0 with warnings), 0 with errors, 0 unsupported (skipped)\n\
         pgnkit validate: on the board: 4 threefold_repetition, 2 threefold_repetition_next_move, 6 unfinished\n"
    );
    let stats = pgnkit(&["stats", path]);
    assert!(
        stats.stdout.contains(
            "\non the board: threefold_repetition 4, threefold_repetition_next_move 2, unfinished 6\n"
        ),
        "{}",
        stats.stdout
    );
}

#[test]
fn impossible_fen_positions_are_errors_and_still_replayed() {
    let games = "[FEN \"4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1\"]\n\n1... Ke7 *\n\n\
                 [FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 7 1\"]\n\n1. Ra8+ Ke7 *\n\n\
                 [FEN \"QQQ5/8/8/7k/8/8/PPPPPPP1/4K3 w - - 0 1\"]\n\n1. Kd1 *\n";
    let out = pgnkit_in(&["validate", "-"], games.as_bytes());
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "<stdin>:1:7: error: game 1 (? - ?): FEN tag: position cannot arise in a game: no move gives double check from d6 and f6\n\
         <stdin>:5:7: warning: game 2 (? - ?): FEN tag: half-move clock 7 but only 0 plies before this position\n\
         <stdin>:9:7: error: game 3 (? - ?): FEN tag: position cannot arise in a game: 7 white pawns and 2 promoted pieces (at most 8 together)\n\
         pgnkit validate: 3 games: 1 valid (1 with warnings), 2 with errors, 0 unsupported (skipped)\n\
         pgnkit validate: on the board: 1 unfinished, 2 incomplete\n"
    );
    // perft plays the same positions: perft suites hold impossible ones.
    let out = pgnkit(&["perft", "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "1"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "3\n"));
}

/// A lichess study puzzle (standard chess) whose FEN gives White the right
/// `K` with the king on c1 and Black `q` with the king on g8: the rights
/// are dropped with a warning at their letters, and the game is replayed.
#[test]
fn castling_rights_off_the_standard_squares_are_dropped() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join(
        "corpus/pychess/learn/lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_Francesco_Super_2018.01.03.pgn",
    );
    let path = path.to_str().unwrap();
    let out = pgnkit(&["validate", "--format", "json", path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let castling: Vec<(u64, u64, String)> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|d| d["kind"] == "fen-castling")
        .map(|d| {
            (
                d["game"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let message = |right: &str, squares: &str| {
        format!(
            "FEN tag: castling right '{right}' dropped: standard chess castles only with the king on {squares} (Chess960 needs a Variant tag)"
        )
    };
    assert_eq!(
        castling,
        [
            (15, 61, message("K", "e1 and a rook on h1")),
            (15, 62, message("q", "e8 and a rook on a8")),
        ]
    );
    let fens = pgnkit(&["fen", path]).stdout;
    assert_eq!(
        fens.lines().nth(14),
        Some("1rr3k1/p3pp1p/3pbnp1/7P/qP1BP1P1/3B1P2/1PPb4/1NKR3R w - - 0 3")
    );
}

/// A `{` left open ends its game at a blank line and a tag line: the games
/// after it are read, at every `--jobs`, and the error names the brace.
#[test]
fn an_unterminated_comment_swallows_no_game() {
    let text = "[Event \"a\"]\n\n1. e4 {oops e5 *\n\n[Event \"b\"]\n\n1. d4 {c} *\r\n\r\n[Event \"c\"]\n\n1. c4 *\n";
    let path = temp_file("open.pgn", text);
    for jobs in ["1", "2"] {
        let out = pgnkit(&["validate", "--jobs", jobs, path.to_str().expect("path")]);
        assert_eq!(out.code, 1);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert!(
            lines[0].ends_with("open.pgn:3:7: error: game 1 (? - ?): unterminated comment"),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.ends_with(
                "3 games: 2 valid (0 with warnings), 1 with errors, 0 unsupported (skipped)"
            )),
            "{lines:?}"
        );
    }
    let out = pgnkit_in(&["tags", "--fields", "Event"], text.as_bytes());
    assert_eq!(out.stdout, "a\nb\nc\n");
    // Without a blank line, a tag line inside a comment is comment text.
    let out = pgnkit_in(&["validate", "--quiet"], b"1. e4 {oops\n[Event \"b\"]\n*\n");
    assert_eq!(
        out.stderr,
        "<stdin>:1:7: error: game 1 (? - ?): unterminated comment\n"
    );
}

/// Messages reach standard error in input order whether it takes them
/// game by game or in blocks (not a terminal): past a block's size, and
/// around an input that cannot be opened.
#[test]
fn messages_keep_input_order_in_blocks_and_around_failures() {
    let game = "[Event \"e\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let many = temp_file("many.pgn", &game.repeat(3000));
    let one = temp_file("one.pgn", game);
    let missing = one.with_file_name("missing.pgn");
    let paths = [&many, &missing, &one].map(|p| p.to_str().expect("path"));
    for jobs in ["1", "2"] {
        let out = pgnkit(&["validate", "--jobs", jobs, paths[0], paths[1], paths[2]]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert_eq!(lines.len(), 3000 + 1 + 1 + 2, "jobs {jobs}");
        assert!(out.stderr.len() > 1 << 16, "more than one block");
        for (n, line) in lines[..3000].iter().enumerate() {
            let want = format!(
                "many.pgn:{}:13: error: game {} (? - ?), 2.Ke3: illegal move: no king can move to e3",
                4 * n + 3,
                n + 1
            );
            assert!(line.ends_with(&want), "jobs {jobs}: {line} / {want}");
        }
        assert!(lines[3000].contains("missing.pgn"), "{}", lines[3000]);
        assert!(lines[3001].contains("one.pgn:"), "{}", lines[3001]);
        assert!(
            lines[3002].starts_with("pgnkit validate: 3001 games"),
            "{}",
            lines[3002]
        );
    }
}

/// A tag value wrapped onto the next line is one malformed tag pair of its
/// game, not movetext that splits the game in two: the game's other tags
/// stay with it, at every `--jobs`.
#[test]
fn a_tag_value_over_a_line_end_splits_no_game() {
    let text = "[Event \"A very long\r\nevent name\"]\r\n[White \"x\"]\r\n\r\n1. e4 *\r\n\r\n\
                [Event \"b\"]\r\n\r\n1. d4 *\r\n";
    let path = temp_file("wrapped.pgn", text);
    for jobs in ["1", "2"] {
        let out = pgnkit(&["validate", "--jobs", jobs, path.to_str().expect("path")]);
        assert_eq!(out.code, 1);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert!(
            lines[0].ends_with(
                "wrapped.pgn:1:1: error: game 1 (x - ?): tag value runs over a line end"
            ),
            "{lines:?}"
        );
        assert!(
            lines[1].ends_with(
                "2 games: 1 valid (0 with warnings), 1 with errors, 0 unsupported (skipped)"
            ),
            "{lines:?}"
        );
    }
    let out = pgnkit_in(&["tags", "--fields", "White,Event"], text.as_bytes());
    assert_eq!(out.stdout, "x\t\n\tb\n");
}

/// A game with a NUL byte is named by its players, whose tags are read as
/// `tags` and `filter` read them, by the replay and the syntax check.
#[test]
fn a_game_with_a_nul_byte_is_named_by_its_tags() {
    let path = temp_file(
        "nul.pgn",
        "[Event \"A\"]\n[White \"Anna\"]\n\n1. e4 {a\0b} e5 *\n",
    );
    let path = path.to_str().unwrap();
    let text =
        format!("{path}:4:9: error: game 1 (Anna - ?): binary data (NUL byte) in the game\n");
    for args in [
        &["validate", "-q"][..],
        &["validate", "-q", "--syntax-only"],
    ] {
        let out = pgnkit(&[args, &[path]].concat());
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr, text, "{args:?}");
    }
    let out = pgnkit(&["validate", "-q", "--format", "json", path]);
    assert_eq!(
        out.stdout,
        format!(
            "{{\"file\":\"{path}\",\"game\":1,\"offset\":36,\"line\":4,\"column\":9,\
             \"white\":\"Anna\",\"black\":\"?\",\"ply\":null,\"move\":null,\"fen\":null,\
             \"variation\":false,\"severity\":\"error\",\"kind\":\"syntax\",\
             \"message\":\"binary data (NUL byte) in the game\"}}\n"
        )
    );
}

/// The Result tag and the termination marker are compared as written:
/// an illegal move or a skipped token between them hides no disagreement.
#[test]
fn a_result_tag_against_its_marker_is_checked_in_every_game() {
    for movetext in ["1. e4 e5 2. Kf3 *", "1. e4 e5 2. Nf3 } Nc6 *", "1. e4 e5 *"] {
        let out = pgnkit_in(
            &["validate", "--format", "json"],
            format!("[Result \"1-0\"]\n\n{movetext}\n").as_bytes(),
        );
        let mismatches: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| l.contains("\"kind\":\"result-mismatch\""))
            .collect();
        assert_eq!(mismatches.len(), 1, "{movetext}: {}", out.stdout);
        assert!(
            mismatches[0].contains("Result tag \\\"1-0\\\" but the movetext ends with *"),
            "{}",
            mismatches[0]
        );
        assert_eq!(out.code, 1, "{movetext}");
    }
}
