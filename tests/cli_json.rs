//! The JSON every command writes, read back with serde_json: numbers are
//! numbers, flags booleans, a missing value null (the schemas are in
//! `docs/validate.md`, `docs/convert.md` and `docs/filter.md`).

mod cli_support;
mod common;

use cli_support::{assert_documented_keys, pgnkit, pgnkit_in, validate_json_keys};
use serde_json::Value;

/// Every line of `text` as a JSON object.
fn objects(text: &str) -> Vec<serde_json::Map<String, Value>> {
    text.lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(Value::Object(map)) => map,
            other => panic!("not a JSON object: {line}: {other:?}"),
        })
        .collect()
}

/// Asserts that `key` of `object` is of the type `check` accepts.
fn typed(object: &serde_json::Map<String, Value>, key: &str, check: fn(&Value) -> bool) {
    let value = object
        .get(key)
        .unwrap_or_else(|| panic!("no `{key}` in {object:?}"));
    assert!(check(value), "`{key}` has the wrong type: {value}");
}

fn u64_or_null(v: &Value) -> bool {
    v.is_u64() || v.is_null()
}

fn string_or_null(v: &Value) -> bool {
    v.is_string() || v.is_null()
}

#[test]
fn validate_json_is_typed_on_broken_archives() {
    let Some(files) = common::pgn_files(&["broken"], false) else {
        return;
    };
    let mut args = vec!["validate", "--format", "json", "--jobs", "1"];
    let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let out = pgnkit(&args);
    let diagnostics = objects(&out.stdout);
    assert!(diagnostics.len() > 100, "{}", out.stderr);
    let mut about_moves = 0;
    for d in &diagnostics {
        for key in ["game", "offset", "line", "column"] {
            typed(d, key, Value::is_u64);
        }
        for key in ["file", "severity", "kind", "message"] {
            typed(d, key, Value::is_string);
        }
        if d["kind"] == "omitted" {
            continue;
        }
        typed(d, "ply", u64_or_null);
        typed(d, "move", string_or_null);
        typed(d, "fen", string_or_null);
        // The ply, the move and the position come together.
        assert_eq!(d["ply"].is_null(), d["fen"].is_null(), "{d:?}");
        if d["kind"] != "game-too-large" {
            typed(d, "variation", Value::is_boolean);
        }
        if let Some(ply) = d["ply"].as_u64() {
            about_moves += 1;
            // The side to move in the FEN is the side the ply's parity names.
            let fen = d["fen"].as_str().unwrap_or_default();
            let turn = fen.split(' ').nth(1).unwrap_or_default();
            assert_eq!(turn, if ply % 2 == 1 { "w" } else { "b" }, "{d:?}");
            // The full-move number of the FEN is the move the ply names.
            let fullmove: u64 = fen.split(' ').nth(5).unwrap_or("0").parse().unwrap_or(0);
            assert_eq!(fullmove.max(1), ply.div_ceil(2), "{d:?}");
        }
    }
    assert!(about_moves > 10, "{about_moves} diagnostics about moves");
}

/// Every object `validate --format json` writes has every key of the
/// table in `docs/validate.md`, of the type it gives: diagnostics about a
/// move and about none, syntax errors without a replay, and the count of
/// the diagnostics past the bound (which used to lack the move keys).
#[test]
fn validate_json_objects_have_every_documented_key() {
    let keys = validate_json_keys();
    let mut many = String::from("[White \"A\"]\n\n1. e4");
    for _ in 0..10_005 {
        many.push_str(" Zz9");
    }
    many.push_str(
        " *\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
                   1. e4 e5 (1... Ke7 2. Kf9) 2. Ke3 {x} ) 1-0\n\n1. f3 e5 2. g4 Qh4# *\n",
    );
    let mut kinds = std::collections::BTreeSet::new();
    for args in [
        &["validate", "--format", "json"][..],
        &["validate", "--format", "json", "--syntax-only"],
    ] {
        let out = pgnkit_in(args, many.as_bytes());
        assert_eq!(out.code, 1, "{}", out.stderr);
        for line in out.stdout.lines() {
            assert_documented_keys(line, &keys);
            let object: Value = serde_json::from_str(line).unwrap_or_default();
            kinds.insert(object["kind"].as_str().unwrap_or_default().to_string());
        }
    }
    for kind in [
        "omitted",
        "bad-move",
        "bad-fen",
        "illegal",
        "syntax",
        "unknown-result",
    ] {
        assert!(kinds.contains(kind), "no `{kind}` in {kinds:?}");
    }
    let Some(files) = common::pgn_files(&["broken"], false) else {
        return;
    };
    let mut args = vec!["validate", "--format", "json"];
    let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    for line in pgnkit(&args).stdout.lines() {
        assert_documented_keys(line, &keys);
    }
}

#[test]
fn tags_jsonl_is_typed() {
    let out = pgnkit(&[
        "tags",
        "--format",
        "jsonl",
        "--fields",
        "game,White,WhiteDays,BlackmyELO,TimeControl.moves,plies,moves,status,valid,winner,player,elo,Missing",
        "fixtures/myschach.pgn",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = objects(&out.stdout);
    assert_eq!(rows.len(), 5);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["game"], i as u64 + 1);
        typed(row, "White", Value::is_string);
        typed(row, "WhiteDays", u64_or_null);
        // An unlisted tag has no known type: its text.
        typed(row, "BlackmyELO", string_or_null);
        typed(row, "TimeControl.moves", u64_or_null);
        typed(row, "plies", Value::is_u64);
        assert_eq!(row["moves"], row["plies"].as_u64().unwrap_or(0).div_ceil(2));
        typed(row, "status", Value::is_string);
        assert_eq!(row["valid"], true);
        let player = row["player"].as_array().expect("player is an array");
        assert_eq!(player.len(), 2);
        assert_eq!(player[0], row["White"]);
        assert_eq!(row["elo"], serde_json::json!([null, null]));
        assert_eq!(row["Missing"], Value::Null);
    }
    assert_eq!(rows[0]["WhiteDays"], 31);
    assert_eq!(rows[0]["plies"], 30);
    assert_eq!(rows[3]["WhiteDays"], Value::Null);
    assert_eq!(rows[3]["status"], "checkmate");
}

#[test]
fn tags_jsonl_types_elo_on_real_games() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("corpus/python-chess/nepomniachtchi-liren-game1.pgn");
    let out = pgnkit(&[
        "tags",
        "--format",
        "jsonl",
        "--fields",
        "WhiteElo,elo,Round,valid",
        &path.display().to_string(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = objects(&out.stdout);
    assert!(!rows.is_empty());
    for row in rows {
        let white = row["WhiteElo"].as_u64().expect("WhiteElo is a number");
        assert!((2000..3000).contains(&white), "{row:?}");
        assert_eq!(row["elo"][0], row["WhiteElo"]);
        assert!(row["elo"][1].is_u64(), "{row:?}");
        // Round is a tag value (`1`, `1.2`, `?`): text, whatever it holds.
        typed(&row, "Round", Value::is_string);
        typed(&row, "valid", Value::is_boolean);
    }
}

#[test]
fn stats_and_convert_json_are_typed() {
    let out = pgnkit(&["stats", "--json", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stats = &objects(&out.stdout)[0];
    for key in ["games", "valid", "invalid", "syntax_errors", "unsupported"] {
        typed(stats, key, Value::is_u64);
    }
    assert_eq!(stats["games"], 5);
    for map in ["results", "terminations", "plies", "players", "tags"] {
        let counts = stats[map].as_object().expect("an object of counts");
        assert!(counts.values().all(Value::is_u64), "{map}: {counts:?}");
    }
    let out = pgnkit(&["convert", "--to", "json", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for game in objects(&out.stdout) {
        typed(&game, "game", Value::is_u64);
        typed(&game, "result", string_or_null);
        typed(&game, "termination", Value::is_string);
        for m in game["moves"].as_array().expect("moves") {
            assert!(m["san"].is_string() && m["uci"].is_string(), "{m}");
            if let Some(nags) = m.get("nags") {
                assert!(nags.as_array().is_some_and(|n| n.iter().all(Value::is_u64)));
            }
        }
    }
}

#[test]
fn options_that_shape_pgn_text_are_refused_for_json_and_parquet() {
    use cli_support::pgnkit_in;
    // A valid game and one with an illegal move: JSON Lines hold the first
    // and nothing else, whatever the options.
    let games = b"[Event \"ok\"]\n\n1. e4 e5 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n";
    let out = pgnkit_in(&["convert", "--to", "json"], games);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(objects(&out.stdout).len(), 1);
    let options: [&[&str]; 7] = [
        &["--keep-invalid"],
        &["--no-comments"],
        &["--no-tags", "--no-nags"],
        &["--no-variations"],
        &["--pawn-letter"],
        &["--ep-mark"],
        &["--bare"],
    ];
    for to in ["json", "parquet"] {
        for option in options {
            let mut args = vec!["convert", "--to", to, "-o", "never-written"];
            args.extend(option);
            let out = pgnkit_in(&args, games);
            assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{args:?}");
            let named = option.join(", ");
            assert!(
                out.stderr.contains(&format!("{named} shape")),
                "{args:?}: {}",
                out.stderr
            );
        }
    }
    assert!(!std::path::Path::new("never-written").exists());
}
