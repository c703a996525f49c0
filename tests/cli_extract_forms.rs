//! The repair and export forms of `convert` against pgn-extract on the
//! shared data: `--fix-result` (`--fixresulttags`), `--add-tags plycount`
//! (`--plycount`), the long algebraic forms (`-Wlalg`, `-Whalg`,
//! `-Welalg`, `-Wxlalg`), piece letters (`-Wsan<letters>`), `--bare`
//! (`-Wuci` without tags, numbers, results), `--fen-comments`
//! (`--fencomments`) and `fen --epd-ops` (`-Wepd`). The differences are
//! documented in docs/convert.md and asserted here, one by one.

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::pgnkit;

/// Runs pgn-extract quietly on `file` with `flags`; its standard output.
fn extract(tool: &Path, flags: &[&str], file: &Path) -> String {
    let out = Command::new(tool)
        .arg("-s")
        .args(flags)
        .arg(file)
        .output()
        .expect("run pgn-extract");
    assert!(out.status.success(), "pgn-extract {flags:?} {file:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `pgnkit convert` with `flags` on `file`: standard output and error.
fn convert(flags: &[&str], file: &Path) -> (String, String) {
    let mut args = vec!["convert"];
    args.extend_from_slice(flags);
    args.push(file.to_str().expect("path"));
    let out = pgnkit(&args);
    assert!(out.code <= 1, "{args:?}: {}", out.stderr);
    (out.stdout, out.stderr)
}

/// The values of the tag `name` in a PGN text, in order.
fn tag_values(pgn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|line| line.strip_prefix(&prefix)?.split_once("\"]"))
        .map(|(v, _)| v.to_string())
        .collect()
}

/// The games of a PGN text (each starting with its `Event` tag) as their
/// movetext tokens: no move numbers, no termination markers.
fn movetext_tokens(pgn: &str) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in pgn.lines() {
        if line.starts_with("[Event ") {
            games.push(Vec::new());
        }
        if line.starts_with('[') {
            continue;
        }
        let Some(game) = games.last_mut() else {
            continue;
        };
        for token in line.split_whitespace() {
            let number = token.ends_with('.') && token.starts_with(|c: char| c.is_ascii_digit());
            let result = matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*");
            if !number && !result {
                game.push(token.to_string());
            }
        }
    }
    games
}

/// The brace comments of a PGN text in order, whitespace collapsed.
fn comments(pgn: &str) -> Vec<String> {
    let text = pgn.replace('\n', " ");
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .map(|(comment, _)| comment.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The data's files `names`, or `None` when the data or pgn-extract is
/// missing (the test skips, or fails where the data or tools are required).
fn setup(names: &[&str]) -> Option<(PathBuf, Vec<PathBuf>)> {
    let data = common::data_dir()?;
    let tool = common::pgn_extract()?;
    Some((tool, names.iter().map(|name| data.join(name)).collect()))
}

/// Files with games whose results need fixing: pgn-extract's own test of
/// `--fixresulttags`, its results test (tags against markers), and lichess
/// studies whose puzzles end in mate, stalemate or a dead position with
/// `*`.
const RESULT_FILES: [&str; 6] = [
    "broken/pgn-extract/test-fixresulttags-in.pgn",
    "broken/pgn-extract/test-nobadresults.pgn",
    "corpus/pychess/learn/mate_in_2.pgn",
    "corpus/pychess/learn/lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn",
    "corpus/pychess/learn/lichess_study_beta-lichess-practice-queen-vs-7th-rank-pawn_by_arex_2018.04.02.pgn",
    "corpus/pgn-extract/infiles/test-stalemate.pgn",
];

#[test]
fn fixed_results_are_pgn_extracts_but_for_dead_positions() {
    let Some((tool, files)) = setup(&RESULT_FILES) else {
        return;
    };
    let (mut same, mut fixed, mut dead, mut conflicts) = (0, 0, 0, 0);
    for file in &files {
        let theirs = tag_values(&extract(&tool, &["--fixresulttags"], file), "Result");
        let (out, warnings) = convert(&["--fix-result"], file);
        let ours = tag_values(&out, "Result");
        let read = tag_values(
            &String::from_utf8_lossy(&std::fs::read(file).expect("read")),
            "Result",
        );
        assert_eq!(ours.len(), theirs.len(), "{file:?}: games written");
        // Each correction is reported once, with its place and reason.
        let reported: Vec<&str> = warnings
            .lines()
            .filter(|l| l.contains(": warning: game ") && l.contains("result corrected"))
            .collect();
        let changed = ours.iter().zip(&read).filter(|(a, b)| a != b).count();
        assert!(reported.len() >= changed, "{file:?}: {warnings}");
        fixed += reported.len();
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            if a == b {
                same += 1;
                continue;
            }
            let game = format!("game {} ", i + 1);
            let why = reported
                .iter()
                .find(|l| l.contains(&game))
                .unwrap_or_else(|| panic!("{file:?} {game}: {a} vs {b} unreported"));
            if why.contains("the termination marker") {
                // Two different decisive results (tag 1-0, marker 0-1):
                // pgn-extract reports them and leaves them; pgnkit takes
                // the marker's, as it does against `*`.
                assert_eq!(*b, read[i], "{file:?} {game}: pgn-extract kept the tag");
                conflicts += 1;
            } else {
                // pgn-extract does not end a game in a dead position:
                // pgnkit makes such a game a draw, pgn-extract keeps `*`.
                assert!(
                    a == "1/2-1/2" && b == "*" && why.contains("dead position"),
                    "{file:?} {game}: pgnkit {a}, pgn-extract {b}: {why}"
                );
                dead += 1;
            }
        }
    }
    // Measured: 260 games of 265 alike (221 corrected), 2 dead positions, 3
    // conflicting decisive results.
    assert!(same >= 250, "{same}");
    assert!(fixed >= 200, "{fixed}");
    assert_eq!((dead, conflicts), (2, 3));
}

#[test]
fn warnings_name_the_place_the_old_and_the_new_result() {
    let Some((_, files)) = setup(&["broken/pgn-extract/test-fixresulttags-in.pgn"]) else {
        return;
    };
    let (out, warnings) = convert(&["--fix-result", "--no-tags"], &files[0]);
    let first = warnings.lines().next().expect("a warning");
    assert!(
        first.contains("test-fixresulttags-in.pgn:13:60: warning: game 1 (Acosta,Florencia - Fernandez,Maria): result corrected: Result tag 1-0, marker 1-0 -> 0-1: checkmate by black"),
        "{first}"
    );
    // Without --fix-result the same games are errors and not written.
    let plain = pgnkit(&["convert", files[0].to_str().expect("path")]);
    assert_eq!(plain.code, 1);
    assert!(plain.stdout.len() < out.len());
}

#[test]
fn ply_counts_are_pgn_extracts() {
    let Some((tool, files)) = setup(&[
        "corpus/pgn-extract/infiles/fischer.pgn",
        "corpus/pgn-extract/infiles/test-plycount.pgn",
        "corpus/mliebelt-pgn-parser/twic-01-232games.pgn",
    ]) else {
        return;
    };
    let mut games = 0;
    for file in &files {
        let theirs = tag_values(&extract(&tool, &["--plycount"], file), "PlyCount");
        let (out, _) = convert(&["--add-tags", "plycount,hash,fen"], file);
        assert_eq!(tag_values(&out, "PlyCount"), theirs, "{file:?}");
        // The final position's FEN and key are there, one per game.
        assert_eq!(tag_values(&out, "FinalFEN").len(), theirs.len());
        let hashes = tag_values(&out, "FinalHash");
        assert!(hashes.iter().all(|h| h.len() == 16), "{hashes:?}");
        games += theirs.len();
    }
    // Measured: 267 games.
    assert!(games > 250, "{games}");
}

/// Files with captures, castling both ways, promotions and en-passant
/// captures.
const MOVE_FILES: [&str; 3] = [
    "corpus/pgn-extract/infiles/fischer.pgn",
    "corpus/mliebelt-pgn-parser/twic-01-232games.pgn",
    "broken/pgn-extract/test-promotion-in.pgn",
];

#[test]
fn long_algebraic_forms_are_pgn_extracts_move_by_move() {
    let Some((tool, files)) = setup(&MOVE_FILES) else {
        return;
    };
    let plain = ["--no-comments", "--no-nags", "--no-variations"];
    let mut moves = 0;
    for form in ["lalg", "halg", "elalg", "xlalg"] {
        let (mut promotions, mut ep) = (0, 0);
        for file in &files {
            let flag = format!("-W{form}");
            let theirs = movetext_tokens(&extract(&tool, &[&flag, "-C", "-N", "-V"], file));
            let mut flags = vec!["--to", form];
            flags.extend_from_slice(&plain);
            let ours = movetext_tokens(&convert(&flags, file).0);
            assert_eq!(ours.len(), theirs.len(), "{form} {file:?}: games");
            for (game, (a, b)) in ours.iter().zip(&theirs).enumerate() {
                assert_eq!(a.len(), b.len(), "{form} {file:?} game {}", game + 1);
                for (mine, their) in a.iter().zip(b) {
                    let promotion = mine
                        .trim_end_matches(['+', '#'])
                        .ends_with(|c: char| c.is_ascii_uppercase());
                    promotions += usize::from(promotion);
                    ep += usize::from(mine.contains("ep"));
                    // pgn-extract's -Whalg writes a promotion without its
                    // hyphen (`b7b8N`); pgnkit keeps it (`b7-b8N`).
                    if form == "halg" && promotion {
                        assert_eq!(mine.replace('-', ""), *their, "{file:?}");
                    } else {
                        assert_eq!(mine, their, "{form} {file:?} game {}", game + 1);
                    }
                    moves += 1;
                }
            }
        }
        assert!(promotions > 0, "{form}: no promotion compared");
        if form == "elalg" {
            assert!(ep > 0, "no en-passant capture compared");
        }
    }
    // Measured: 91,780 moves in the four forms.
    assert!(moves > 90_000, "{moves}");
}

#[test]
fn letters_are_pgn_extracts_and_the_german_preset() {
    let Some((tool, files)) = setup(&MOVE_FILES[..2]) else {
        return;
    };
    let plain = ["--no-comments", "--no-nags", "--no-variations"];
    for file in &files {
        for letters in ["BSLTDK", "PCATDR"] {
            let flag = format!("-Wsan{letters}");
            let theirs = movetext_tokens(&extract(&tool, &[&flag, "-C", "-N", "-V"], file));
            let mut flags = vec!["--letters", letters];
            flags.extend_from_slice(&plain);
            let ours = convert(&flags, file).0;
            assert_eq!(movetext_tokens(&ours), theirs, "{letters} {file:?}");
            if letters == "BSLTDK" {
                let mut flags = vec!["--to", "de"];
                flags.extend_from_slice(&plain);
                assert_eq!(ours, convert(&flags, file).0, "the German preset");
            }
        }
    }
}

#[test]
fn bare_uci_lists_are_pgn_extracts_moves() {
    let Some((tool, files)) = setup(&MOVE_FILES) else {
        return;
    };
    for file in &files {
        let theirs = movetext_tokens(&extract(&tool, &["-Wuci", "-C", "-N", "-V"], file));
        let (ours, _) = convert(&["--to", "uci", "--bare"], file);
        let lines: Vec<&str> = ours.lines().collect();
        assert_eq!(lines.len(), theirs.len(), "{file:?}: one line per game");
        for (line, their) in lines.iter().zip(&theirs) {
            // pgn-extract writes UCI promotions in upper case (`b7b8N`);
            // UCI's are lower case.
            let their: Vec<String> = their.iter().map(|m| m.to_ascii_lowercase()).collect();
            assert_eq!(line.split(' ').collect::<Vec<_>>(), their, "{file:?}");
        }
        // SAN without numbers, results and marks: pgn-extract's
        // --nomovenumbers --noresults --nochecks.
        let flags = [
            "--nomovenumbers",
            "--noresults",
            "--nochecks",
            "-C",
            "-N",
            "-V",
        ];
        let theirs = movetext_tokens(&extract(&tool, &flags, file));
        let (ours, _) = convert(&["--bare"], file);
        let ours: Vec<Vec<String>> = ours
            .lines()
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect();
        assert_eq!(ours, theirs, "{file:?}");
        assert!(!ours.iter().flatten().any(|m| m.contains(['+', '#'])));
    }
}

#[test]
fn fen_comments_are_pgn_extracts() {
    let Some((tool, files)) = setup(&[
        "corpus/pgn-extract/infiles/fischer.pgn",
        "corpus/pgn-extract/infiles/test-fencomments.pgn",
    ]) else {
        return;
    };
    let mut fens = 0;
    for file in &files {
        let theirs = comments(&extract(&tool, &["--fencomments", "-C", "-N", "-V"], file));
        let flags = [
            "--fen-comments",
            "--no-comments",
            "--no-nags",
            "--no-variations",
        ];
        let ours = comments(&convert(&flags, file).0);
        assert_eq!(ours, theirs, "{file:?}");
        fens += ours.len();
    }
    // Measured: 3,232 positions.
    assert!(fens > 3000, "{fens}");
}

#[test]
fn forms_do_not_depend_on_jobs() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/mliebelt-pgn-parser/twic-01-232games.pgn");
    let file = file.to_str().expect("path");
    let forms: [&[&str]; 4] = [
        &["--fix-result", "--add-tags", "plycount,hash,fen"],
        &["--to", "elalg", "--fen-comments", "--letters", "PCATDR"],
        &["--to", "uci", "--bare"],
        &["--no-move-numbers", "--no-result", "--no-check-marks"],
    ];
    for form in forms {
        let run = |jobs: &str| {
            let mut args = vec!["convert", "--jobs", jobs];
            args.extend_from_slice(form);
            args.push(file);
            let out = pgnkit(&args);
            assert!(out.code <= 1, "{args:?}: {}", out.stderr);
            (out.stdout, out.stderr)
        };
        let one = run("1");
        assert!(one.0.len() > 10_000, "{form:?}");
        assert_eq!(one, run("2"), "{form:?}");
    }
}

#[test]
fn epd_operations_are_pgn_extracts_but_quoted() {
    let Some((tool, files)) = setup(&[
        "corpus/pgn-extract/infiles/barnes-horton.pgn",
        "corpus/pgn-extract/infiles/fischer.pgn",
    ]) else {
        return;
    };
    let mut positions = 0;
    for file in &files {
        let theirs = extract(&tool, &["-Wepd"], file);
        let path = file.to_str().expect("path");
        let out = pgnkit(&["fen", "--all", "--epd", "--epd-ops", "c0,c1", path]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let ours: Vec<String> = out
            .stdout
            .lines()
            // After the game and ply columns of --all; pgn-extract writes
            // the strings of c0 and c1 without the quotes EPD asks for.
            .map(|line| {
                line.splitn(3, '\t')
                    .nth(2)
                    .expect("a position")
                    .replace('"', "")
            })
            .collect();
        // pgn-extract ends each game's positions with an empty line.
        let theirs: Vec<&str> = theirs.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(ours, theirs, "{file:?}");
        positions += ours.len();
    }
    // Measured: 3,267 positions.
    assert!(positions > 3000, "{positions}");
    let out = pgnkit(&[
        "fen",
        "--epd",
        "--epd-ops",
        "id,hmvc,fmvn",
        files[0].to_str().expect("path"),
    ]);
    let fen = pgnkit(&["fen", files[0].to_str().expect("path")]).stdout;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let plies = (fields[5].parse::<u32>().unwrap() - 1) * 2 + u32::from(fields[1] == "b");
    assert_eq!(
        out.stdout.trim_end(),
        format!(
            "{} id \"1.{plies}\"; hmvc {}; fmvn {};",
            fields[..4].join(" "),
            fields[4],
            fields[5]
        )
    );
}

#[test]
fn long_forms_read_back() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/mliebelt-pgn-parser/twic-01-232games.pgn");
    let plain = ["--no-comments", "--no-nags", "--no-variations"];
    let (san, _) = convert(&plain, &file);
    for form in ["lalg", "halg", "elalg", "xlalg"] {
        let (written, _) = convert(&["--to", form], &file);
        let mut args = vec!["convert"];
        args.extend_from_slice(&plain);
        let back = cli_support::pgnkit_in(&args, written.as_bytes());
        assert_eq!(back.code, 0, "{form}: {}", back.stderr);
        assert!(back.stdout == san, "{form}: read back differs");
    }
}
