//! `pgnkit stats` run as a real binary: the whole summary of the fixture,
//! and summaries of two parts merging into the summary of the whole.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn pgnkit(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pgnkit");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-cli-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn fixture_summary() {
    let (code, out, err) = pgnkit(&["stats", "--top", "2", "fixtures/myschach.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        include_str!("cli_stats/myschach.txt")
    );
}

#[test]
fn merged_parts_give_the_whole() {
    let Some(data) = common::data_dir() else {
        return;
    };
    for file in [
        "corpus/mliebelt-pgn-parser/twic-01-232games.pgn",
        "corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn",
    ] {
        let whole = data.join(file);
        let whole = whole.to_str().unwrap();
        let split = "Round =~ /^1\\./ or WhiteElo > 2000";
        let (a, b) = (temp("a.pgn"), temp("b.pgn"));
        for (path, invert) in [(&a, false), (&b, true)] {
            let mut args = vec!["filter", "-e", split, "-o", path.to_str().unwrap(), whole];
            if invert {
                args.insert(1, "-v");
            }
            assert!(pgnkit(&args).0 <= 1);
        }
        let (ja, jb) = (temp("a.json"), temp("b.json"));
        for (pgn, json) in [(&a, &ja), (&b, &jb)] {
            let (code, _, err) = pgnkit(&[
                "stats",
                "--json",
                "-o",
                json.to_str().unwrap(),
                pgn.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
        }
        let merged = pgnkit(&[
            "stats",
            "--json",
            "--merge",
            ja.to_str().unwrap(),
            jb.to_str().unwrap(),
        ])
        .1;
        let direct = pgnkit(&["stats", "--json", whole]).1;
        assert_eq!(
            String::from_utf8(merged).unwrap(),
            String::from_utf8(direct).unwrap(),
            "{file}"
        );
        let merged = pgnkit(&[
            "stats",
            "--merge",
            ja.to_str().unwrap(),
            jb.to_str().unwrap(),
        ])
        .1;
        let direct = pgnkit(&["stats", whole]).1;
        assert_eq!(merged, direct, "{file}");
    }
}

/// A game with a NUL byte (binary data, not replayed) keeps its tags: its
/// date, player and event are counted as `tags` and `filter` read them.
#[test]
fn a_game_with_a_nul_byte_keeps_its_tags() {
    let pgn = temp("nul.pgn");
    std::fs::write(
        &pgn,
        "[Event \"A\"]\n[White \"Anna\"]\n[Date \"2020.01.01\"]\n\n1. e4 {a\0b} e5 *\n\n\
         [Event \"B\"]\n[White \"Bert\"]\n[Date \"2021.01.01\"]\n\n1. d4 {unclosed d5 *\n\n\
         [Event \"C\"]\n[White \"Carl\"]\n[Date \"2022.01.01\"]\n\n1. c4 c5 *\n",
    )
    .unwrap();
    let pgn = pgn.to_str().unwrap();
    for jobs in ["1", "2"] {
        let (code, out, err) = pgnkit(&["stats", "--json", "--jobs", jobs, pgn]);
        assert_eq!(code, 0, "{err}");
        let summary: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let counts = |key: &str| summary[key].to_string();
        assert_eq!(counts("games"), "3");
        assert_eq!(counts("syntax_errors"), "2");
        assert_eq!(counts("tags"), r#"{"Date":3,"Event":3,"White":3}"#);
        assert_eq!(counts("events"), r#"{"A":1,"B":1,"C":1}"#);
        assert_eq!(counts("players"), r#"{"Anna":1,"Bert":1,"Carl":1}"#);
        assert_eq!(counts("first_day"), "20200101");
    }
    let (_, rows, _) = pgnkit(&["tags", "-f", "game,Event,White,Date", pgn]);
    assert_eq!(
        String::from_utf8(rows).unwrap(),
        "1\tA\tAnna\t2020.01.01\n2\tB\tBert\t2021.01.01\n3\tC\tCarl\t2022.01.01\n"
    );
}

/// `stats` sorts result/board conflicts as `validate` does: a Result tag
/// that contradicts the board (`result-contradicts`, an error) is a
/// disagreement; `*` on a finished board (`unknown-result`, a warning) is
/// counted apart. The pychess puzzles are mates tagged `*`: they used to be
/// counted as disagreements, though validate finds them valid.
#[test]
fn regression_a_star_on_a_finished_board_is_no_disagreement() {
    let contradiction = temp("contradiction.pgn");
    std::fs::write(
        &contradiction,
        "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n",
    )
    .unwrap();
    let mut files = vec![contradiction.display().to_string()];
    if let Some(data) = common::data_dir() {
        files.push(
            data.join("corpus/pychess/learn/mate_in_2.pgn")
                .display()
                .to_string(),
        );
    } else {
        common::say_skipped("no shared data: the inline games only");
    }
    for file in &files {
        let (_, out, err) = pgnkit(&["validate", "--format", "json", file]);
        let kinds: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].to_string())
            .collect();
        let of = |kind: &str| {
            kinds
                .iter()
                .filter(|k| **k == format!("\"{kind}\""))
                .count() as u64
        };
        let (code, out, err2) = pgnkit(&["stats", "--json", file]);
        assert_eq!(code, 0, "{err2}");
        let stats: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            stats["disagreements"],
            of("result-contradicts"),
            "{file}: {err}"
        );
        assert_eq!(
            stats["unknown_results"],
            of("unknown-result"),
            "{file}: {err}"
        );
        assert!(of("unknown-result") > 0, "{file}: {err}");
    }
}
