//! Clocks and evaluations on the lichess sample: `filter` selects the
//! games whose `tags` values satisfy its condition, and the values agree
//! with the `[%clk]` and `[%eval]` commands `convert --to json` reads.

mod cli_support;
mod common;

use cli_support::pgnkit;
use serde_json::Value;

const LICHESS: &str = "corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn";

const FIELDS: &str = "game,clock.white,clock.black,clock.white.20,clock.black.30,used.white,\
                      used.black,used.white.max,used.black.max,drop.white,drop.black,eval,clocks,evals";

#[test]
fn filter_selects_the_games_whose_tags_values_hold() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let input = data.join(LICHESS);
    let input = input.to_str().expect("a UTF-8 path");
    let table = pgnkit(&["tags", "--format", "jsonl", "--fields", FIELDS, input]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let rows: Vec<Value> = table
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let all_sites = pgnkit(&["tags", "--fields", "Site", input]);
    let all_sites: Vec<&str> = all_sites.stdout.lines().collect();
    let cases: [(&str, &str, f64); 12] = [
        ("clock.white", "<", 10.0),
        ("clock.black", ">=", 60.0),
        ("clock.white.20", "<", 30.0),
        ("clock.black.30", ">", 120.0),
        ("used.white", ">", 200.0),
        ("used.black", "<=", 60.0),
        ("used.white.max", ">=", 30.0),
        ("used.black.max", "<", 5.0),
        ("drop.white", ">", 3.0),
        ("drop.black", ">=", 1.5),
        ("eval", "<", -2.0),
        ("evals", ">", 0.0),
    ];
    for (field, op, value) in cases {
        let holds = |x: f64| match op {
            "<" => x < value,
            "<=" => x <= value,
            ">" => x > value,
            ">=" => x >= value,
            _ => unreachable!(),
        };
        let expected: Vec<u64> = rows
            .iter()
            .filter(|row| row[field].as_f64().is_some_and(holds))
            .map(|row| row["game"].as_u64().expect("game"))
            .collect();
        assert!(!expected.is_empty(), "{field} {op} {value} selects nothing");
        let expr = format!("{field} {op} {value}");
        let selected = pgnkit(&["filter", "-e", &expr, input]);
        assert_eq!(selected.code, 0, "{expr}: {}", selected.stderr);
        // The selected games, by their Site (each game's own URL).
        let sites =
            cli_support::pgnkit_in(&["tags", "--fields", "Site"], selected.stdout.as_bytes());
        let sites: Vec<&str> = sites.stdout.lines().collect();
        let expected_sites: Vec<&str> = expected
            .iter()
            .map(|&n| all_sites[usize::try_from(n).expect("a game number") - 1])
            .collect();
        assert_eq!(sites, expected_sites, "{expr}");
    }
    // Nearly every game of the sample has clocks; some have evaluations.
    let clocked = rows
        .iter()
        .filter(|r| r["clocks"].as_u64() > Some(0))
        .count();
    let evaluated = rows
        .iter()
        .filter(|r| r["evals"].as_u64() > Some(0))
        .count();
    assert!(clocked >= 400 && evaluated >= 30, "{clocked} {evaluated}");
}

#[test]
fn the_last_clocks_are_the_last_clk_commands() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let input = data.join(LICHESS);
    let input = input.to_str().expect("a UTF-8 path");
    let table = pgnkit(&["tags", "--format", "jsonl", "--fields", FIELDS, input]);
    let json = pgnkit(&["convert", "--to", "json", input]);
    let rows: Vec<Value> = table
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let mut compared = 0;
    for line in json.stdout.lines() {
        let game: Value = serde_json::from_str(line).expect("a JSON line");
        let row = &rows[usize::try_from(game["game"].as_u64().expect("game")).unwrap() - 1];
        let moves = game["moves"].as_array().expect("moves");
        let command = |m: &Value, key: &str| {
            m.get("comments")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| c.get(key).and_then(Value::as_f64))
                .next_back()
        };
        // White's plies are the even ones (no game of the sample starts
        // from a position with Black to move).
        for (side, start) in [("white", 0), ("black", 1)] {
            let last = moves
                .iter()
                .skip(start)
                .step_by(2)
                .filter_map(|m| command(m, "clk"))
                .next_back();
            assert_eq!(
                row[format!("clock.{side}")].as_f64(),
                last,
                "game {}",
                game["game"]
            );
        }
        // A mate counts as 100 pawns; `#0` names no side and is no value.
        let eval = moves
            .iter()
            .filter_map(|m| {
                command(m, "eval")
                    .map(Some)
                    .or_else(|| command(m, "mate").map(|n| (n != 0.0).then(|| 100.0 * n.signum())))
            })
            .next_back()
            .flatten();
        assert_eq!(row["eval"].as_f64(), eval, "game {}", game["game"]);
        compared += 1;
    }
    assert!(compared >= 400, "{compared}");
}
