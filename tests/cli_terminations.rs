//! One vocabulary of terminations: `validate`, `stats`, `tags`, `filter`
//! and `convert --to json` name how each game ended with the same words
//! (`pgnkit::replay::TERMINATION_NAMES`) and count the same games.

mod cli_support;
mod common;

use std::collections::BTreeMap;

use cli_support::pgnkit;
use pgnkit::replay::TERMINATION_NAMES;

/// The top-level files of every corpus directory: thousands of real games
/// that end in every way.
fn corpus_files() -> Option<Vec<String>> {
    let data = common::data_dir()?;
    let mut files = Vec::new();
    for dir in std::fs::read_dir(data.join("corpus")).expect("corpus") {
        let dir = dir.expect("entry").path();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path.display().to_string());
            }
        }
    }
    files.sort();
    Some(files)
}

fn run(command: &[&str], files: &[String]) -> cli_support::Out {
    let mut args: Vec<&str> = command.to_vec();
    args.extend(files.iter().map(String::as_str));
    pgnkit(&args)
}

#[test]
fn every_command_names_and_counts_terminations_alike() {
    let Some(files) = corpus_files() else {
        return;
    };
    let stats = run(&["stats", "--json"], &files);
    let stats: serde_json::Value = serde_json::from_str(&stats.stdout).expect("stats JSON");
    let counts: BTreeMap<String, u64> = stats["terminations"]
        .as_object()
        .expect("terminations")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("a count")))
        .collect();
    for name in counts.keys() {
        assert!(TERMINATION_NAMES.contains(&name.as_str()), "{name}");
    }
    // The corpus has the rarer ends too, so the test compares them.
    for name in [
        "checkmate",
        "stalemate",
        "insufficient_material",
        "incomplete",
    ] {
        assert!(
            counts.get(name).is_some_and(|&n| n > 0),
            "{name}: {counts:?}"
        );
    }

    let tags = run(&["tags", "--fields", "status"], &files);
    let mut by_tags = BTreeMap::<String, u64>::new();
    for line in tags.stdout.lines() {
        *by_tags.entry(line.to_string()).or_default() += 1;
    }
    assert_eq!(by_tags, counts);

    let validate = run(&["validate", "-j", "1"], &files);
    let summary = validate
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("pgnkit validate: on the board: "))
        .expect("a summary of terminations");
    let listed: BTreeMap<String, u64> = summary
        .split(", ")
        .map(|part| {
            let (n, name) = part.split_once(' ').expect("`N name`");
            (name.to_string(), n.parse().expect("a count"))
        })
        .collect();
    assert_eq!(listed, counts);

    for (word, names) in [
        ("insufficient_material", &["insufficient_material"][..]),
        ("insufficient", &["insufficient_material"]),
        ("stalemate", &["stalemate"]),
        (
            "repetition",
            &["threefold_repetition", "fivefold_repetition"],
        ),
    ] {
        let expr = format!("status = {word}");
        let filtered = run(&["filter", "--count", "-e", &expr], &files);
        let expected: u64 = names.iter().filter_map(|n| counts.get(*n)).sum();
        assert_eq!(filtered.stdout.trim(), expected.to_string(), "{word}");
    }

    let json = run(&["convert", "--to", "json"], &files);
    for line in json.stdout.lines() {
        let game: serde_json::Value = serde_json::from_str(line).expect("a game object");
        let name = game["termination"].as_str().expect("a termination");
        assert!(TERMINATION_NAMES.contains(&name), "{name}");
    }
}

/// A game in a variant pgnkit does not play is `unsupported` in every
/// output, never `incomplete` (which says the mainline has an error): the
/// crazyhouse games of the pychess corpus. They used to be `incomplete`
/// everywhere, and `board` said the position came after an error.
#[test]
fn regression_an_unsupported_variant_is_named_unsupported_everywhere() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("corpus/pychess/variants/zh.pgn");
    let files = vec![path.display().to_string()];
    let validate = run(&["validate", "-j", "1"], &files);
    let [games, .., unsupported] = cli_support::validate_counts(&validate.stderr);
    assert!(games > 10 && unsupported == games, "{}", validate.stderr);
    let board_line = format!("pgnkit validate: on the board: {games} unsupported\n");
    assert!(
        validate.stderr.ends_with(&board_line),
        "{}",
        validate.stderr
    );

    let stats = run(&["stats", "--json"], &files);
    let stats: serde_json::Value = serde_json::from_str(&stats.stdout).expect("stats JSON");
    assert_eq!(
        stats["terminations"],
        serde_json::json!({ "unsupported": games })
    );

    let tags = run(&["tags", "--fields", "status"], &files);
    assert_eq!(tags.stdout, "unsupported\n".repeat(games as usize));

    let counted = |expr: &str| run(&["filter", "--count", "-e", expr], &files).stdout;
    assert_eq!(counted("status = unsupported").trim(), games.to_string());
    assert_eq!(counted("status = incomplete").trim(), "0");

    let board = run(&["board", "--game", "1"], &files);
    let why = format!(
        "pgnkit board: game 1 of {}: the position was not reached: its variant is not played\n",
        files[0]
    );
    assert!(board.stderr.ends_with(&why), "{}", board.stderr);
}
