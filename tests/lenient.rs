//! Lenient reading (`--lenient`): debris in the movetext is skipped with a
//! located warning and the game is replayed as if it were not there; where
//! a game has no debris, lenient and strict reading are the same. Checked
//! on hand-made debris of every kind, on the shared data, and against what
//! python-chess recovers from the same files.

mod cli_support;
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{pgnkit, temp_file};
use pgnkit::pgn::{GameFramer, ParsePgnErrorKind, RawGame};
use pgnkit::replay::{DiagnosticKind, Replay, ReplayOptions, Replayer, Severity, Status};

/// A game with one piece of debris of every kind the lenient reader
/// skips, each on a line of its own or glued to a move, and the same game
/// clean. The debris: (what, text as it stands, line, column); one is a
/// move glued to the one before it, read as a move.
const DEBRIS: &[(&str, &str, u64, u64)] = &[
    ("stray backslash", "\\", 8, 7),
    ("HTML tag", "<br>", 8, 15),
    ("HTML paragraph", "<p>", 9, 4),
    ("mail header", "From:", 10, 1),
    ("mail address", "joe@example.org", 10, 7),
    ("mail quote", ">", 11, 1),
    ("HTML glued to a move", "<br>", 11, 13),
    ("editor debris", "~~~", 12, 1),
    ("stray bracket", "]", 12, 5),
    ("glued move", "Be7", 12, 13),
    ("stray quote", "\"", 12, 17),
    ("dollar without a number", "$", 12, 19),
    ("HTML glued to a move number", "/>", 12, 31),
];

/// The tag section of both games.
macro_rules! tags {
    () => {
        "[Event \"Debris\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n\
         [White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    };
}

const DIRTY: &str = concat!(
    tags!(),
    "1. e4 \\ e5 2. <br> Nf3 Nc6\n\
     3. <p> Bb5 a6\n\
     From: joe@example.org\n\
     > 4. Ba4 Nf6<br>\n\
     ~~~ ] 5. O-OBe7 \" $ 6. Re1 b5 />7.Bb3 d6 1-0\n\n"
);

const CLEAN: &str = concat!(
    tags!(),
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0\n\n"
);

fn options(lenient: bool) -> ReplayOptions {
    ReplayOptions {
        lenient,
        ..ReplayOptions::default()
    }
}

/// The kind of a diagnostic of lenient reading, by its name.
fn kind(text: &str) -> DiagnosticKind {
    DiagnosticKind::Syntax(match text {
        "Be7" => ParsePgnErrorKind::GluedMove,
        _ => ParsePgnErrorKind::SkippedToken,
    })
}

/// The findings of lenient reading: skipped debris and glued moves.
fn skipped(replay: &Replay) -> usize {
    replay
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.kind,
                DiagnosticKind::Syntax(
                    ParsePgnErrorKind::SkippedToken | ParsePgnErrorKind::GluedMove
                )
            )
        })
        .count()
}

#[test]
fn debris_of_every_kind_is_skipped_and_the_game_replays() {
    let mut replayer = Replayer::new();
    let dirty = RawGame::from_bytes(DIRTY.as_bytes());
    let clean = replayer.replay(&RawGame::from_bytes(CLEAN.as_bytes()), &options(false));
    assert_eq!((clean.status, clean.plies), (Status::Valid, 14));

    let strict = replayer.replay(&dirty, &options(false));
    assert_ne!(strict.status, Status::Valid);
    assert!(strict.plies < 14, "strict stops at the first debris");

    let lenient = replayer.replay(&dirty, &options(true));
    assert_eq!(lenient.status, Status::Valid, "{:?}", lenient.diagnostics);
    assert_eq!(lenient.plies, clean.plies);
    assert_eq!(lenient.position, clean.position);
    assert_eq!(lenient.termination, clean.termination);
    let found: Vec<(&str, u64, u64)> = lenient
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning, "{d:?}");
            let text = std::str::from_utf8(d.span.slice(dirty.bytes)).expect("ASCII");
            assert_eq!(d.kind, kind(text));
            let (line, column) = d.span.line_col(dirty.bytes, 1);
            (text, line, column)
        })
        .collect();
    let expected: Vec<(&str, u64, u64)> = DEBRIS.iter().map(|&(_, t, l, c)| (t, l, c)).collect();
    assert_eq!(found, expected);
}

#[test]
fn lenient_cli_warns_where_each_piece_of_debris_is() {
    let dirty = temp_file("lenient-cli", "dirty.pgn", DIRTY.as_bytes());
    let clean = temp_file("lenient-cli", "clean.pgn", CLEAN.as_bytes());
    let (dirty, clean) = (
        dirty.to_str().expect("utf-8"),
        clean.to_str().expect("utf-8"),
    );

    let strict = pgnkit(&["validate", dirty]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert!(strict.stderr.contains(": error: "), "{}", strict.stderr);

    let lenient = pgnkit(&["validate", "--lenient", dirty]);
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
    let warnings: Vec<&str> = lenient
        .stderr
        .lines()
        .filter(|l| l.contains(": warning: "))
        .collect();
    assert_eq!(warnings.len(), DEBRIS.len(), "{}", lenient.stderr);
    for (warning, (what, text, line, column)) in warnings.iter().zip(DEBRIS) {
        let message = match text {
            &"Be7" => "`Be7` glued to the move before it, read as a move".to_string(),
            _ => format!("skipped `{text}`"),
        };
        let at = format!("dirty.pgn:{line}:{column}: warning: game 1 (A - B): {message}");
        assert!(warning.ends_with(&at), "{what}: {warning} is not at {at}");
    }

    let json = pgnkit(&["validate", "--lenient", "--format", "json", dirty]);
    let kinds: Vec<String> = json
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            format!("{} {}:{}", v["kind"], v["line"], v["column"])
        })
        .collect();
    let expected: Vec<String> = DEBRIS
        .iter()
        .map(|(_, t, l, c)| format!("\"{}\" {l}:{c}", kind(t).name()))
        .collect();
    assert_eq!(kinds, expected);

    // Every command that reads PGN reads the dirty game as the clean one.
    for command in [
        &["fen"][..],
        &["convert"],
        &["convert", "--to", "json"],
        &["tags", "-f", "plies,status"],
        &["filter", "--normalize", "-e", "plies = 14"],
        &["stats"],
    ] {
        let run = |file: &str, lenient: bool| {
            let mut args = command.to_vec();
            if lenient {
                args.push("--lenient");
            }
            args.push(file);
            pgnkit(&args)
        };
        let (clean, dirty) = (run(clean, false), run(dirty, true));
        assert_eq!(clean.code, 0, "{command:?}: {}", clean.stderr);
        assert_eq!(
            clean.stdout.replace("clean.pgn", "dirty.pgn"),
            dirty.stdout,
            "{command:?}"
        );
    }
    let dir = Path::new(dirty).parent().expect("temp dir");
    let out = dir.join("split-{num}.pgn");
    let split = pgnkit(&[
        "split",
        "--lenient",
        "--every",
        "1",
        "-t",
        out.to_str().expect("utf-8"),
        dirty,
    ]);
    assert_eq!(split.code, 0, "{}", split.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.join("split-1.pgn")).expect("split output"),
        DIRTY,
        "split writes games byte for byte"
    );
    let dedup = pgnkit(&["dedup", "--lenient", "--by", "moves", dirty, clean]);
    assert_eq!(dedup.code, 0, "{}", dedup.stderr);
    assert_eq!(
        dedup.stdout, DIRTY,
        "the clean game is the dirty one's duplicate"
    );
}

/// The start line of every game of `bytes` and its strict and lenient
/// replays.
fn replays(bytes: &[u8]) -> Vec<(u64, Replay, Replay)> {
    let mut replayer = Replayer::new();
    let mut framer = GameFramer::new(bytes);
    let mut out = Vec::new();
    while let Some(game) = framer.next_game() {
        let Ok(raw) = game else { continue };
        // python-chess counts a game from its first line that is not
        // blank, nor a `%` or `;` line.
        let lead = raw
            .bytes
            .split_inclusive(|&b| b == b'\n')
            .take_while(|l| {
                let l = l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l);
                l.trim_ascii().is_empty() || l.starts_with(b"%") || l.starts_with(b";")
            })
            .count() as u64;
        let strict = replayer.replay(&raw, &options(false));
        let lenient = replayer.replay(&raw, &options(true));
        out.push((raw.first_line + lead, strict, lenient));
    }
    out
}

#[test]
fn without_debris_lenient_reading_is_strict_reading() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], true) else {
        return;
    };
    let (mut games, mut with_debris) = (0, 0);
    for file in &files {
        let bytes = std::fs::read(file).expect("read");
        for (line, strict, lenient) in replays(&bytes) {
            games += 1;
            let what = format!("{}:{line}", file.display());
            if skipped(&lenient) == 0 {
                assert_eq!(strict, lenient, "{what}");
                continue;
            }
            with_debris += 1;
            assert!(lenient.plies >= strict.plies, "{what}: fewer moves");
            assert!(
                !strict
                    .diagnostics
                    .iter()
                    .all(|d| d.severity != Severity::Error),
                "{what}: lenient skipped debris in a game strict reading finds no error in"
            );
        }
    }
    eprintln!("{games} games, {with_debris} with debris");
    assert!(with_debris > 0 && with_debris < games);
}

/// python3 with python-chess, or `None` (after saying so) when missing;
/// a failure where `PGNKIT_REQUIRE_TOOLS=1`.
fn python_chess() -> Option<PathBuf> {
    let python = PathBuf::from("python3");
    let found = Command::new(&python)
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "python-chess is missing and PGNKIT_REQUIRE_TOOLS=1"
        );
        common::say_skipped("python3 with python-chess not found");
    }
    found.then_some(python)
}

/// What python-chess recovers from `files`: (moves, errors) by (file,
/// start line).
fn python_chess_games(python: &Path, files: &[PathBuf]) -> HashMap<(PathBuf, u64), (i64, bool)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lenient/python_chess.py");
    let out = Command::new(python)
        .arg(script)
        .args(files)
        .output()
        .expect("run python-chess");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = HashMap::new();
    for row in String::from_utf8(out.stdout).expect("UTF-8").lines() {
        let cells: Vec<&str> = row.split('\t').collect();
        let [file, line, moves, errors] = cells[..] else {
            panic!("row {row}");
        };
        let line: u64 = line.parse().unwrap_or(0);
        let moves: i64 = moves.parse().expect("moves");
        games.insert((PathBuf::from(file), line), (moves, errors == "1"));
    }
    games
}

/// Per game read by both, the mainline moves python-chess recovers
/// against those of pgnkit's strict and lenient reading.
#[test]
fn lenient_reading_recovers_what_python_chess_recovers() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], false) else {
        return;
    };
    let Some(python) = python_chess() else {
        return;
    };
    let theirs = python_chess_games(&python, &files);
    // Games where python-chess reads the same number of moves as strict
    // reading, as lenient reading; games with debris; of those, where
    // lenient reading agrees.
    let (mut both, mut strict_agree, mut lenient_agree) = (0, 0, 0);
    let (mut debris, mut debris_agree) = (0, 0);
    let mut apart = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).expect("read");
        for (line, strict, lenient) in replays(&bytes) {
            let Some(&(moves, errors)) = theirs.get(&(file.clone(), line)) else {
                continue;
            };
            // Variants pgnkit does not play (crazyhouse, antichess …).
            if strict.status == Status::Unsupported {
                continue;
            }
            both += 1;
            let agrees = |r: &Replay| i64::from(r.plies) == moves;
            strict_agree += usize::from(agrees(&strict));
            lenient_agree += usize::from(agrees(&lenient));
            if skipped(&lenient) > 0 {
                debris += 1;
                debris_agree += usize::from(agrees(&lenient));
            }
            if !agrees(&lenient) {
                apart.push(format!(
                    "{}:{line}: python-chess {moves}{}, strict {} ({}), lenient {} ({})",
                    file.strip_prefix(common::data_dir().expect("data"))
                        .unwrap_or(file)
                        .display(),
                    if errors { " with errors" } else { "" },
                    strict.plies,
                    strict.status.as_str(),
                    lenient.plies,
                    lenient.status.as_str(),
                ));
            }
        }
    }
    eprintln!(
        "{both} games read by both: the same mainline moves as python-chess in \
         {strict_agree} strictly, {lenient_agree} leniently; {debris} with debris, \
         {debris_agree} of them the same as python-chess"
    );
    for line in &apart {
        eprintln!("  {line}");
    }
    assert!(both > 1000, "too few games matched: {both}");
    assert!(lenient_agree > strict_agree);
    // The games with debris python-chess reads differently are cut into
    // games apart by the framer (debris after a tag pair) or hold words
    // of which python-chess reads the squares (docs/validate.md).
    assert!(
        debris > 0 && debris_agree * 3 >= debris * 2,
        "{debris_agree} of {debris}"
    );
}
