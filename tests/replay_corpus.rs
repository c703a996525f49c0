//! The replay's verdicts and final positions against the reference verdicts
//! in `../shared/expected` (python-chess, pgn-reader + shakmaty,
//! pgn-extract), on every game where the three references agree.
//!
//! Games are joined by the line where their text starts. Where pgnkit
//! differs, the game is listed in [`DIFFERENCES`] with the reason; the test
//! fails on any unlisted difference and on any listed one that went away.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pgnkit::pgn::GameFramer;
use pgnkit::replay::{DiagnosticKind, ReplayOptions, Replayer, Status};
use pgnkit::{EpMode, input};

/// One game as pgnkit sees it.
struct Ours {
    ok: bool,
    plies: u32,
    fen: String,
    fen_legal: String,
}

fn replay_file(path: &Path) -> BTreeMap<u64, Ours> {
    let input = input::open(path).unwrap();
    let mut framer = GameFramer::new(input);
    let mut replayer = Replayer::new();
    let mut games = BTreeMap::new();
    while let Some(raw) = framer.next_game() {
        let Ok(raw) = raw else { continue };
        let r = replayer.replay(&raw, &ReplayOptions::default());
        let move_error = r.diagnostics.iter().any(|d| {
            matches!(
                d.kind,
                DiagnosticKind::Illegal(_)
                    | DiagnosticKind::NullInCheck
                    | DiagnosticKind::BadFen(_)
                    | DiagnosticKind::Syntax(pgnkit::pgn::ParsePgnErrorKind::BadMove(_))
            )
        });
        let (fen, fen_legal) = match &r.position {
            Some(pos) => (pos.fen(EpMode::Always), pos.fen(EpMode::Legal)),
            None => ("-".into(), "-".into()),
        };
        games.insert(
            raw.first_line,
            Ours {
                ok: !move_error && r.status != Status::Unsupported,
                plies: r.plies,
                fen,
                fen_legal,
            },
        );
    }
    games
}

/// A reference row: (line, status, plies, fen, fen_legal) where all agree.
fn agreed_rows(tsv: &Path) -> Vec<(u64, String, u32, String, String)> {
    let text = std::fs::read_to_string(tsv).unwrap();
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 12 || cols[11] != "py+rs+pe" {
            continue;
        }
        rows.push((
            cols[1].parse().unwrap(),
            cols[5].to_string(),
            cols[6].parse().unwrap(),
            cols[7].to_string(),
            cols[8].to_string(),
        ));
    }
    rows
}

fn files(data: &Path, dir: &str) -> Vec<(PathBuf, PathBuf)> {
    let expected = data.join("../expected");
    let mut out = Vec::new();
    let mut stack = vec![data.join(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(data)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let Some(stem) = rel.strip_suffix(".pgn.zst").or(rel.strip_suffix(".pgn")) else {
                continue;
            };
            let tsv = expected.join(format!("{stem}.tsv"));
            if tsv.is_file() {
                out.push((path, tsv));
            }
        }
    }
    out.sort();
    out
}

/// Compares every agreed row; returns the differences as
/// `(file, line, ours, theirs)`.
fn compare(data: &Path, dir: &str) -> (usize, Vec<(String, u64, String, String)>) {
    let mut compared = 0;
    let mut diffs = Vec::new();
    for (pgn, tsv) in files(data, dir) {
        let ours = replay_file(&pgn);
        let name = pgn
            .strip_prefix(data)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (line, status, plies, fen, fen_legal) in agreed_rows(&tsv) {
            compared += 1;
            let theirs = format!("{status} {plies} {fen}");
            let Some(o) = ours.get(&line) else {
                diffs.push((name.clone(), line, "no game".into(), theirs));
                continue;
            };
            let status_ok = o.ok == (status == "ok");
            if !status_ok || o.plies != plies || o.fen != fen || o.fen_legal != fen_legal {
                let st = if o.ok { "ok" } else { "illegal" };
                diffs.push((
                    name.clone(),
                    line,
                    format!("{st} {} {}", o.plies, o.fen),
                    theirs,
                ));
            }
        }
    }
    (compared, diffs)
}

/// Every agreed reference row where pgnkit differs: file, line of the
/// game, pgnkit's verdict, the references' verdict, and why pgnkit is right.
const DIFFERENCES: &[(&str, u64, &str, &str, &str)] = &[
    (
        "broken/pychess/badpgn.pgn",
        1,
        "illegal 0 (bad-move `g`, unclosed/garbage tokens)",
        "ok 0",
        "the movetext is garbage (`g(erg) r23`); python-chess and pgn-reader skip \
         unparsable tokens silently, pgnkit reports them and stops the mainline",
    ),
    (
        "corpus/pgn-extract/golden/test-WWdeutsch-out.pgn",
        11,
        "no game at line 11: one game from line 1, valid, 72 plies (German SAN)",
        "illegal 2 (untagged game at line 11)",
        "a `{comment}` and a blank line between tags and movetext do not end a \
         game (as pgn-extract); python-chess splits there (its bug 5) and then \
         reads German `Lb2` as `b2` (its bug 1)",
    ),
];

fn check(dir: &str) {
    let Some(data) = common::data_dir() else {
        return;
    };
    if common::expected_dir().is_none() {
        return;
    }
    let (compared, diffs) = compare(&data, dir);
    for d in &diffs {
        eprintln!("{}\t{}\tours: {}\ttheirs: {}", d.0, d.1, d.2, d.3);
    }
    eprintln!(
        "{dir}: {compared} agreed rows compared, {} differ",
        diffs.len()
    );
    assert!(compared > 0, "no reference rows under {dir}");
    let found: Vec<(&str, u64)> = diffs.iter().map(|d| (d.0.as_str(), d.1)).collect();
    let listed: Vec<(&str, u64)> = DIFFERENCES
        .iter()
        .filter(|d| d.0.starts_with(dir))
        .map(|d| (d.0, d.1))
        .collect();
    assert_eq!(found, listed, "differences from the references changed");
}

#[test]
fn corpus_agrees_with_references() {
    check("corpus");
}

#[test]
fn broken_agrees_with_references() {
    check("broken");
}

/// About 37,000 games; 2.5 s in the dev profile.
#[test]
fn big_agrees_with_references() {
    check("big");
}
