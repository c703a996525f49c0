//! Parquet from `tags --format parquet` and `convert --to parquet`, read
//! back by an independent reader (pyarrow) and compared with the JSON
//! Lines of the same commands, on the lichess sample and the pgnmentor
//! archive of the shared data.

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{pgnkit, pgnkit_envs};
use serde_json::Value;

/// The lichess sample: clocks in almost every game, evaluations in some.
const LICHESS: &str = "corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn";

/// A fresh temporary directory for `test`.
fn tempdir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-parquet-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a temporary directory");
    dir
}

/// Whether python3 with pyarrow is there; when it is not, the test skips
/// with a message, or fails where `PGNKIT_REQUIRE_TOOLS=1` (`.ci/run`
/// installs pyarrow).
fn have_pyarrow() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import pyarrow.parquet"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "python3 with pyarrow is missing and PGNKIT_REQUIRE_TOOLS=1"
        );
        common::say_skipped("python3 with pyarrow not found");
    }
    found
}

/// What pyarrow reads in `file`: `rows`, `row_groups`, `schema` (column
/// name to Arrow type) and `data`, the rows as objects after `script`
/// (Python, with `t` the table) has chosen their columns.
fn read_back(file: &Path, script: &str) -> Value {
    let program = format!(
        "import json, sys\n\
         import pyarrow.parquet as pq\n\
         f = pq.ParquetFile(sys.argv[1])\n\
         t = f.read()\n\
         meta = {{'rows': t.num_rows, 'row_groups': f.num_row_groups,\n\
                  'schema': {{field.name: str(field.type) for field in t.schema}}}}\n\
         {script}\n\
         meta['data'] = t.to_pylist()\n\
         json.dump(meta, sys.stdout)\n"
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg(program)
        .arg(file)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "pyarrow: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("pyarrow's JSON")
}

/// The JSON Lines of `out`, parsed.
fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The `[%clk]` seconds, centipawns of `[%eval]` and mates of each move of
/// a `convert --to json` game, as the Parquet lists hold them.
fn commands_of(game: &Value) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let moves = game["moves"].as_array().expect("moves");
    let find = |m: &Value, key: &str| -> Value {
        m.get("comments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get(key))
            .next_back()
            .cloned()
            .unwrap_or(Value::Null)
    };
    let clocks = moves.iter().map(|m| find(m, "clk")).collect();
    let evals = moves
        .iter()
        .map(|m| match find(m, "eval").as_f64() {
            Some(pawns) => Value::from((pawns * 100.0).round() as i64),
            None => Value::Null,
        })
        .collect();
    let mates = moves.iter().map(|m| find(m, "mate")).collect();
    (clocks, evals, mates)
}

#[test]
fn convert_parquet_of_the_lichess_sample_holds_what_json_says() {
    let Some(data) = common::data_dir() else {
        return;
    };
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("lichess");
    let input = data.join(LICHESS);
    let input = input.to_str().expect("a UTF-8 path");
    let file = dir.join("games.parquet");
    let out = pgnkit(&[
        "convert",
        "--to",
        "parquet",
        "-o",
        file.to_str().unwrap(),
        input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json = pgnkit(&["convert", "--to", "json", input]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let games = lines(&json.stdout);
    let back = read_back(&file, "");
    assert_eq!(back["rows"], games.len());
    assert!(games.len() >= 400, "{}", games.len());
    let schema = &back["schema"];
    for (column, ty) in [
        ("game", "int64"),
        ("WhiteElo", "int64"),
        ("White", "string"),
        ("plies", "int64"),
        ("san", "list<element: string>"),
        ("clock", "list<element: double>"),
        ("eval", "list<element: int64>"),
        ("mate", "list<element: int64>"),
    ] {
        assert_eq!(schema[column], ty, "{column}");
    }
    let rows = back["data"].as_array().expect("rows");
    let (mut clocked, mut evaluated) = (0, 0);
    for (row, game) in rows.iter().zip(&games) {
        let number = &game["game"];
        assert_eq!(row["game"], *number);
        let tags: Vec<(&str, &str)> = game["tags"]
            .as_array()
            .expect("tags")
            .iter()
            .map(|t| (t[0].as_str().expect("name"), t[1].as_str().expect("value")))
            .collect();
        let tag = |name: &str| tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        assert_eq!(row["White"].as_str(), tag("White"), "game {number}");
        assert_eq!(row["Site"].as_str(), tag("Site"), "game {number}");
        assert_eq!(
            row["WhiteElo"].as_i64(),
            tag("WhiteElo").and_then(|v| v.parse().ok()),
            "game {number}"
        );
        assert_eq!(row["result"], game["result"], "game {number}");
        assert_eq!(row["status"], game["termination"], "game {number}");
        assert_eq!(row["start"], game["start"], "game {number}");
        let moves = game["moves"].as_array().expect("moves");
        assert_eq!(row["plies"], moves.len(), "game {number}");
        let san: Vec<&Value> = moves.iter().map(|m| &m["san"]).collect();
        let uci: Vec<&Value> = moves.iter().map(|m| &m["uci"]).collect();
        assert_eq!(
            row["san"].as_array().unwrap().iter().collect::<Vec<_>>(),
            san
        );
        assert_eq!(
            row["uci"].as_array().unwrap().iter().collect::<Vec<_>>(),
            uci
        );
        let (clocks, evals, mates) = commands_of(game);
        assert_eq!(row["clock"].as_array().unwrap(), &clocks, "game {number}");
        assert_eq!(row["eval"].as_array().unwrap(), &evals, "game {number}");
        assert_eq!(row["mate"].as_array().unwrap(), &mates, "game {number}");
        clocked += usize::from(clocks.iter().any(|c| !c.is_null()));
        evaluated += usize::from(evals.iter().any(|e| !e.is_null()));
    }
    // The README of the data: 433 games with clocks, 37 with evaluations.
    assert!(clocked >= 400, "{clocked} games with clocks");
    assert!(evaluated >= 30, "{evaluated} games with evaluations");
    // The first game's clocks, as its text has them.
    let first = &rows[0];
    let clocks = first["clock"].as_array().unwrap();
    assert_eq!(clocks.len(), games[0]["moves"].as_array().unwrap().len());
    let text = std::fs::read_to_string(data.join(LICHESS)).expect("read the sample");
    let first_clk = text
        .split("[%clk ")
        .nth(1)
        .and_then(|rest| rest.split(']').next());
    let (h, m, s) = match first_clk
        .map(|c| c.split(':').collect::<Vec<_>>())
        .as_deref()
    {
        Some([h, m, s]) => (
            h.parse::<f64>().unwrap(),
            m.parse::<f64>().unwrap(),
            s.parse::<f64>().unwrap(),
        ),
        other => panic!("the first clock: {other:?}"),
    };
    assert_eq!(clocks[0].as_f64(), Some(h * 3600.0 + m * 60.0 + s));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tags_parquet_of_the_lichess_sample_types_the_jsonl_cells() {
    let Some(data) = common::data_dir() else {
        return;
    };
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("tags-lichess");
    let input = data.join(LICHESS);
    let input = input.to_str().expect("a UTF-8 path");
    let fields = "game,White,WhiteElo,elo,Date,plies,status,valid,clock.white,clock.black,\
                  clock.white.10,used.white,used.black.max,drop.white,drop.black,eval,clocks,evals,\
                  WhiteRatingDiff,BlackRatingDiff";
    let file = dir.join("tags.parquet");
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "--fields",
        fields,
        "-o",
        file.to_str().unwrap(),
        input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let jsonl = pgnkit(&["tags", "--format", "jsonl", "--fields", fields, input]);
    assert_eq!(jsonl.code, 0, "{}", jsonl.stderr);
    let expected = lines(&jsonl.stdout);
    let back = read_back(&file, "");
    assert_eq!(back["rows"], expected.len());
    let schema = &back["schema"];
    assert_eq!(schema["WhiteElo"], "int64");
    assert_eq!(schema["elo"], "list<element: int64>");
    assert_eq!(schema["valid"], "bool");
    assert_eq!(schema["clock.white"], "double");
    assert_eq!(schema["clocks"], "int64");
    assert_eq!(schema["Date"], "string");
    let rows = back["data"].as_array().expect("rows");
    let mut drops = 0;
    for (row, line) in rows.iter().zip(&expected) {
        for (name, want) in line.as_object().expect("an object") {
            let got = &row[name];
            // JSON writes a number with no fraction as an integer; Parquet's
            // doubles come back as floats.
            let same = match (got.as_f64(), want.as_f64()) {
                (Some(a), Some(b)) => a == b,
                _ => got == want,
            };
            assert!(same, "game {}: {name}: {got} vs {want}", line["game"]);
        }
        drops += usize::from(!row["drop.white"].is_null());
    }
    assert!(drops >= 30, "{drops} games with an evaluation drop");
    // Lichess writes a gain with its sign (`+5`): a number, as a loss is.
    let gains = expected
        .iter()
        .filter(|line| line["WhiteRatingDiff"].as_i64().is_some_and(|n| n > 0))
        .count();
    assert!(gains >= 200, "{gains} games with a gain for White");
    assert_eq!(schema["WhiteRatingDiff"], "int64");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_tag_column_holds_its_text_as_csv_does() {
    let Some(data) = common::data_dir() else {
        return;
    };
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("tags-star");
    // Ratings written `1500?` (Seirawan chess from pychess's corpus).
    let input = data.join("corpus/pychess/variants/schess.pgn");
    let input = input.to_str().expect("a UTF-8 path");
    let file = dir.join("star.parquet");
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "-f",
        "game,White,*",
        "-o",
        file.to_str().unwrap(),
        input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let csv = pgnkit(&["tags", "--format", "csv", "-f", "game,White,*", input]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let mut table = csv.stdout.lines();
    let header: Vec<&str> = table.next().expect("a header").split(',').collect();
    assert_eq!(header.iter().filter(|&&name| name == "White").count(), 1);
    let back = read_back(&file, "");
    let schema = back["schema"].as_object().expect("a schema");
    assert_eq!(schema.keys().collect::<Vec<_>>(), header);
    assert!(header[1..].iter().all(|name| schema[*name] == "string"));
    let rows = back["data"].as_array().expect("rows");
    let mut unrated = 0;
    for (row, line) in rows.iter().zip(table) {
        // The file's values hold no comma or quote: plain csv cells.
        let cells: Vec<&str> = line.split(',').collect();
        for (name, cell) in header.iter().zip(cells).skip(1) {
            let got = row[*name].as_str().unwrap_or("");
            assert_eq!(got, cell, "game {}: {name}", row["game"]);
        }
        unrated += usize::from(row["WhiteElo"] == "1500?");
    }
    assert_eq!(rows.len(), back["rows"].as_u64().unwrap() as usize);
    assert!(unrated >= 100, "{unrated} ratings `1500?`");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pgnmentor_as_parquet_matches_its_jsonl_whatever_the_jobs() {
    let Some(data) = common::data_dir() else {
        return;
    };
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("pgnmentor");
    // Decompressed, so that the file is mapped and cut into pieces.
    let pgn = dir.join("pgnmentor.pgn");
    let mut input = pgnkit::input::open(&data.join("big/pgnmentor-12-players.pgn.zst"))
        .expect("open the archive");
    let mut plain = std::fs::File::create(&pgn).expect("create the PGN");
    std::io::copy(&mut input, &mut plain).expect("decompress the archive");
    let pgn = pgn.to_str().expect("a UTF-8 path").to_string();

    let fields = "game,Event,Date,White,Black,Result,WhiteElo,BlackElo,ECO,plies,status";
    let file = |name: &str| dir.join(name).to_str().expect("a UTF-8 path").to_string();
    let (one, many) = (file("one.parquet"), file("many.parquet"));
    // Small row groups and batches: many of each, and many ways for the
    // workers to deliver them.
    let vars = [
        ("PGNKIT_PARQUET_ROWS", "1000"),
        ("PGNKIT_BATCH_BYTES", "65536"),
    ];
    for (out, jobs) in [(&one, "1"), (&many, "3")] {
        let run = pgnkit_envs(
            &[
                "tags", "--format", "parquet", "--fields", fields, "-j", jobs, "-o", out, &pgn,
            ],
            &vars,
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    assert!(
        std::fs::read(&one).unwrap() == std::fs::read(&many).unwrap(),
        "the Parquet file depends on --jobs"
    );
    let jsonl = pgnkit(&["tags", "--format", "jsonl", "--fields", fields, &pgn]);
    let expected = lines(&jsonl.stdout);
    let back = read_back(Path::new(&one), "");
    assert_eq!(back["rows"], expected.len());
    assert!(expected.len() > 30_000, "{}", expected.len());
    assert!(back["row_groups"].as_u64().unwrap() > 30);
    assert_eq!(back["schema"]["BlackElo"], "int64");
    let rows = back["data"].as_array().expect("rows");
    for (row, line) in rows.iter().zip(&expected) {
        for (name, want) in line.as_object().expect("an object") {
            // An Elo that is no number (`?`, empty) is a string in JSON
            // and null in the integer column.
            let want = match (name.ends_with("Elo"), want) {
                (true, Value::String(_)) => &Value::Null,
                _ => want,
            };
            assert_eq!(&row[name], want, "game {}: {name}", line["game"]);
        }
    }

    // convert: the same games, the same moves.
    let converted = file("games.parquet");
    let run = pgnkit_envs(
        &["convert", "--to", "parquet", "-o", &converted, &pgn],
        &vars,
    );
    assert!(run.code <= 1, "{}", run.stderr);
    let json = pgnkit(&["convert", "--to", "json", &pgn]);
    let games = lines(&json.stdout);
    let back = read_back(
        Path::new(&converted),
        "t = t.select(['game', 'plies', 'WhiteElo', 'san', 'uci'])\n\
         import pyarrow.compute as pc\n\
         t = t.set_column(3, 'san', pc.list_value_length(t['san']))\n\
         t = t.set_column(4, 'uci', pc.list_slice(t['uci'], 0, 1))",
    );
    assert_eq!(back["rows"], games.len());
    for (row, game) in back["data"].as_array().unwrap().iter().zip(&games) {
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(row["game"], game["game"]);
        assert_eq!(row["plies"], moves.len(), "game {}", game["game"]);
        assert_eq!(row["san"], moves.len(), "game {}", game["game"]);
        let first: Vec<&Value> = moves.iter().take(1).map(|m| &m["uci"]).collect();
        assert_eq!(
            row["uci"].as_array().unwrap().iter().collect::<Vec<_>>(),
            first
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_tag_and_the_opening_in_parquet_are_what_jsonl_and_json_say() {
    let Some(data) = common::data_dir() else {
        return;
    };
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("openings");
    let input = data.join(LICHESS);
    let input = input.to_str().expect("a UTF-8 path");
    // `*` is a column per tag name (`eco`, `opening` would clash with the
    // ECO and Opening tags, in a reader that ignores case).
    for (test, fields) in [
        ("every-tag", "file,game,*,plies"),
        ("opening", "game,eco,opening"),
    ] {
        let file = dir.join(format!("{test}.parquet"));
        let file = file.to_str().expect("a UTF-8 path");
        let out = pgnkit(&[
            "tags", "--format", "parquet", "--fields", fields, "-o", file, input,
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let jsonl = pgnkit(&["tags", "--format", "jsonl", "--fields", fields, input]);
        assert_eq!(jsonl.code, 0, "{}", jsonl.stderr);
        let expected = lines(&jsonl.stdout);
        let back = read_back(Path::new(file), "");
        assert_eq!(back["rows"], expected.len());
        let rows = back["data"].as_array().expect("rows");
        let mut present = 0;
        for (row, line) in rows.iter().zip(&expected) {
            let line = line.as_object().expect("an object");
            for (name, got) in row.as_object().expect("a row") {
                // A tag the game lacks is null. `*`'s columns hold text,
                // where JSON types the tags listed as numbers (`+5` is 5).
                let text = back["schema"][name] == "string";
                let same = match line.get(name) {
                    None => got.is_null(),
                    Some(Value::Number(n)) if text => {
                        got.as_str().and_then(|t| t.trim().parse::<i64>().ok()) == n.as_i64()
                    }
                    Some(want) => got == want,
                };
                assert!(same, "{test}: game {}: {name}: {got}", line["game"]);
            }
            let probe = if test == "opening" {
                "opening"
            } else {
                "WhiteElo"
            };
            present += usize::from(!row[probe].is_null());
        }
        assert!(rows.len() > 100, "{}", rows.len());
        assert!(
            present * 10 >= rows.len() * 9,
            "{test}: {present} of {}",
            rows.len()
        );
    }

    // convert --eco: the Parquet tag columns hold the tags the JSON has.
    let converted = dir.join("games.parquet");
    let converted = converted.to_str().expect("a UTF-8 path");
    let run = pgnkit(&[
        "convert", "--to", "parquet", "--eco", "-o", converted, input,
    ]);
    assert!(run.code <= 1, "{}", run.stderr);
    let json = pgnkit(&["convert", "--to", "json", "--eco", input]);
    let games = lines(&json.stdout);
    let back = read_back(
        Path::new(converted),
        "t = t.select(['game', 'ECO', 'Opening'])",
    );
    assert_eq!(back["rows"], games.len());
    for (row, game) in back["data"].as_array().unwrap().iter().zip(&games) {
        let tag = |name: &str| {
            game["tags"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t[0] == name)
                .map_or(Value::Null, |t| t[1].clone())
        };
        assert_eq!(row["game"], game["game"]);
        assert_eq!(row["ECO"], tag("ECO"), "game {}", game["game"]);
        assert_eq!(row["Opening"], tag("Opening"), "game {}", game["game"]);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn parquet_needs_a_file() {
    for args in [
        &["tags", "--format", "parquet", "fixtures/myschach.pgn"][..],
        &[
            "convert",
            "--to",
            "parquet",
            "-o",
            "-",
            "fixtures/myschach.pgn",
        ],
    ] {
        let out = pgnkit(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(
            out.stderr.contains("needs an output file (-o FILE)"),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "--fields",
        "game,White,White",
        "-o",
        "x.parquet",
        "fixtures/myschach.pgn",
    ]);
    assert_eq!(out.code, 2);
    // `number` counts across inputs, which Parquet rows do not; and the
    // ECO tag named beside `eco` clashes in a reader that ignores case.
    for (fields, message) in [
        (
            "number,White",
            "--fields number is not a column of --format parquet",
        ),
        ("game,ECO,eco", "`ECO` and `eco` differ only in case"),
        ("game,ECO,eco", "tag:ECO"),
    ] {
        let out = pgnkit(&[
            "tags",
            "--format",
            "parquet",
            "--fields",
            fields,
            "-o",
            "x.parquet",
            "fixtures/myschach.pgn",
        ]);
        assert_eq!(out.code, 2, "{fields}");
        assert!(out.stderr.contains(message), "{}", out.stderr);
        assert!(!Path::new("x.parquet").exists());
    }
}

/// A file of its own in `dir` holding `text`.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a test file");
    path.to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn mate_on_the_board_reads_as_mate_zero_in_json_parquet_and_tags() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("mate-zero");
    // `[%eval #0]` after the mating move: White mates in the first game,
    // Black in the second.
    let input = write(
        &dir,
        "mates.pgn",
        "[Event \"a\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {[%eval #0]} 1-0\n\n\
         [Event \"b\"]\n\n1. f3 e5 2. g4 {[%eval #-1]} Qh4# {[%eval #0]} 0-1\n",
    );
    let json = pgnkit(&["convert", "--to", "json", &input]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let games = lines(&json.stdout);
    let file = dir.join("mates.parquet");
    let out = pgnkit(&[
        "convert",
        "--to",
        "parquet",
        "-o",
        file.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let back = read_back(&file, "");
    let rows = back["data"].as_array().expect("rows");
    for (row, game) in rows.iter().zip(&games) {
        let (_, evals, mates) = commands_of(game);
        assert_eq!(row["mate"].as_array().unwrap(), &mates);
        assert_eq!(row["eval"].as_array().unwrap(), &evals);
        assert_eq!(mates.last(), Some(&Value::from(0)));
    }
    // The aggregates read it as the mover's mate: 100 pawns for the side
    // that mated, one evaluation more.
    let tags = pgnkit(&[
        "tags",
        "--format",
        "jsonl",
        "-f",
        "eval,evals,drop.black",
        &input,
    ]);
    assert_eq!(tags.code, 0, "{}", tags.stderr);
    assert_eq!(
        tags.stdout,
        "{\"eval\":100.0,\"evals\":1,\"drop.black\":null}\n\
         {\"eval\":-100.0,\"evals\":2,\"drop.black\":0.0}\n"
    );
    let filter = pgnkit(&["filter", "-c", "-e", "eval = 100", &input]);
    assert_eq!(filter.stdout.trim(), "1", "{}", filter.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tags_named_like_columns_and_tagless_games_keep_every_value_and_row() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("names");
    let input = write(
        &dir,
        "names.pgn",
        "[ECO \"C20\"]\n[file \"f\"]\n[Eco \"x\"]\n[WhiteElo \"2400.0\"]\n\n1. e4 e5 *\n",
    );
    let file = dir.join("names.parquet");
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "-f",
        "eco,file,*",
        "-o",
        file.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let back = read_back(&file, "");
    let schema = back["schema"].as_object().expect("a schema");
    assert_eq!(
        schema.keys().collect::<Vec<_>>(),
        [
            "eco",
            "file",
            "tag:ECO",
            "tag:file",
            "tag:Eco~2",
            "WhiteElo"
        ]
    );
    let row = &back["data"][0];
    assert_eq!(row["tag:ECO"], "C20");
    assert_eq!(row["tag:file"], "f");
    assert_eq!(row["tag:Eco~2"], "x");
    assert_eq!(row["file"], input.as_str());
    // A whole decimal is the integer in both tables.
    let out = pgnkit(&[
        "convert",
        "--to",
        "parquet",
        "-o",
        file.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(read_back(&file, "")["data"][0]["WhiteElo"], 2400);
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "-f",
        "WhiteElo",
        "-o",
        file.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(read_back(&file, "")["data"][0]["WhiteElo"], 2400);
    // Games without tags: `*` alone is no column, refused; with a field
    // beside it every game has its row; convert has its fixed columns.
    let tagless = write(&dir, "tagless.pgn", "1. e4 e5 *\n\n1. d4 *\n");
    let out = pgnkit(&[
        "tags",
        "--format",
        "parquet",
        "-f",
        "*",
        "-o",
        file.to_str().unwrap(),
        &tagless,
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("no column"), "{}", out.stderr);
    for args in [
        &["tags", "--format", "parquet", "-f", "game,*"][..],
        &["convert", "--to", "parquet"][..],
    ] {
        let mut args = args.to_vec();
        args.extend(["-o", file.to_str().unwrap(), &tagless]);
        let out = pgnkit(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(read_back(&file, "")["rows"], 2, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn with_file_names_each_games_input_in_json_and_parquet() {
    if !have_pyarrow() {
        return;
    }
    let dir = tempdir("with-file");
    let a = write(&dir, "a.pgn", "[Event \"a\"]\n\n1. e4 *\n");
    let b = write(&dir, "b.pgn", "[Event \"b\"]\n\n1. d4 *\n");
    let json = pgnkit(&["convert", "--to", "json", "--with-file", &a, &b]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let games = lines(&json.stdout);
    for (game, name) in games.iter().zip([&a, &b]) {
        let keys: Vec<&String> = game.as_object().unwrap().keys().collect();
        assert_eq!(keys[..3], ["game", "file", "tags"]);
        assert_eq!(
            (&game["game"], game["file"].as_str()),
            (&Value::from(1), Some(name.as_str()))
        );
    }
    // Without it, the objects are as they were.
    let plain = pgnkit(&["convert", "--to", "json", &a]);
    assert!(
        !lines(&plain.stdout)[0]
            .as_object()
            .unwrap()
            .contains_key("file")
    );
    let file = dir.join("both.parquet");
    let out = pgnkit(&[
        "convert",
        "--to",
        "parquet",
        "--with-file",
        "-o",
        file.to_str().unwrap(),
        &a,
        &b,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let back = read_back(&file, "t = t.select(['game', 'file'])");
    assert_eq!(back["schema"]["file"], "string");
    assert_eq!(
        back["data"],
        serde_json::json!([{"game": 1, "file": a}, {"game": 1, "file": b}])
    );
    // PGN output has no such field.
    let out = pgnkit(&["convert", "--with-file", &a]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let _ = std::fs::remove_dir_all(dir);
}
