//! `pgnkit tags` run as a real binary: whole tables in every format.

mod cli_support;
mod common;

use std::path::PathBuf;
use std::process::Command;

fn pgnkit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pgnkit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-cli-tags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn myschach_fixture_as_tsv_with_board_fields() {
    let (code, out, err) = pgnkit(&[
        "tags",
        "--header",
        "--fields",
        "game,White,WhiteDays,BlackmyELO,TimeControl.moves,plies,status,winner,Missing",
        "fixtures/myschach.pgn",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "game\tWhite\tWhiteDays\tBlackmyELO\tTimeControl.moves\tplies\tstatus\twinner\tMissing\n\
         1\tMustermann, Bernd\t31\t1361\t10\t30\tunfinished\tdraw\t\n\
         2\tMusterfrau, Karin\t12\t1544\t10\t24\tunfinished\tnone\t\n\
         3\tMustermann, Bernd\t9\t\t10\t13\tunfinished\tnone\t\n\
         4\tWeiss\t\t\t\t7\tcheckmate\twhite\t\n\
         5\t?\t\t\t\t19\tstalemate\tdraw\t\n"
    );
}

#[test]
fn csv_quotes_and_jsonl_keeps_field_order() {
    let pgn = temp_file(
        "q.pgn",
        "[White \"A, \\\"B\\\"\"]\n[Black \"C\tD\"]\n\n1. e4 *\n",
    );
    let path = pgn.to_str().unwrap();
    let (_, csv, _) = pgnkit(&["tags", "--format", "csv", "--fields", "White,Black", path]);
    assert_eq!(csv, "White,Black\n\"A, \"\"B\"\"\",C\tD\n");
    let (_, tsv, _) = pgnkit(&["tags", "--fields", "White,Black", path]);
    assert_eq!(tsv, "A, \"B\"\tC D\n");
    let (_, jsonl, _) = pgnkit(&[
        "tags",
        "--format",
        "jsonl",
        "--fields",
        "Black,White,plies",
        path,
    ]);
    assert_eq!(
        jsonl,
        "{\"Black\":\"C\\tD\",\"White\":\"A, \\\"B\\\"\",\"plies\":1}\n"
    );
    let (_, csv, _) = pgnkit(&[
        "tags",
        "--format",
        "csv",
        "--no-header",
        "--fields",
        "Black",
        path,
    ]);
    assert_eq!(csv, "C\tD\n");
}

#[test]
fn correspondence_archive_from_real_games() {
    let Some(archive) = common::correspondence_archive(6) else {
        return;
    };
    let path = temp_file("corr.pgn", &archive);
    let (code, out, err) = pgnkit(&[
        "tags",
        "--fields",
        "White,WhiteDays,BlackDays,WhitemyELO,TimeControl.base,mySchachNr",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Carlsen,M\t0\t30\t1500\t2592000\t1000\n\
         Aronian,L\t1\t29\t1550\t2592000\t1001\n\
         Ding Liren\t2\t28\t1600\t2592000\t1002\n\
         Nakamura,Hi\t3\t27\t1650\t2592000\t1003\n\
         Yu Yangyi\t4\t26\t1700\t2592000\t1004\n\
         Wei Yi\t5\t25\t1750\t2592000\t1005\n"
    );
}

/// A misspelt or wrongly-cased field is a usage error with the field
/// meant, not a column that is silently empty; `tag:Name` names any tag.
#[test]
fn unknown_fields_are_usage_errors() {
    let fixture = "fixtures/myschach.pgn";
    let (code, stdout, stderr) = pgnkit(&["tags", "--fields", "White,black", fixture]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("--fields: unknown field `black`: did you mean `Black`?"),
        "{stderr}"
    );
    let (code, _, stderr) = pgnkit(&["tags", "--fields", "game,mySchachNr", fixture]);
    assert_eq!(code, 0, "{stderr}");
}

/// The tags of every game as `--format jsonl --fields 'number,file,game,*'`
/// writes them: one object per game.
fn objects(files: &[&str], jobs: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let mut args = vec![
        "tags",
        "--format",
        "jsonl",
        "--jobs",
        jobs,
        "-f",
        "number,file,game,*",
    ];
    args.extend(files);
    let (code, out, err) = pgnkit(&args);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(serde_json::Value::Object(map)) => map,
            other => panic!("{line}: {other:?}"),
        })
        .collect()
}

#[test]
fn every_tag_of_every_game_across_files() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let paths = [
        data.join("corpus/pgn-extract/infiles/fischer.pgn"),
        data.join("corpus/pychess/eco-de-latin1.pgn"),
        data.join("corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn"),
    ];
    let files: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    let games = objects(&files, "3");
    assert_eq!(objects(&files, "1"), games);
    // As many rows as validate counts games.
    let mut args = vec!["validate"];
    args.extend(&files);
    let (_, _, err) = pgnkit(&args);
    assert_eq!(games.len() as u64, cli_support::validate_counts(&err)[0]);
    // `number` counts on over the files; `game` starts again in each.
    let mut names: Vec<String> = Vec::new();
    let mut first_of_file = 0;
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game["number"], serde_json::json!(i + 1));
        let file = game["file"].as_str().unwrap();
        if i > 0 && games[i - 1]["file"].as_str() != Some(file) {
            first_of_file = i;
        }
        assert_eq!(
            game["game"],
            serde_json::json!(i - first_of_file + 1),
            "{file}"
        );
        for name in game.keys().skip(3) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    assert!(files.iter().all(|f| games.iter().any(|g| g["file"] == *f)));
    // The tsv table: a column per tag name seen, in the order first seen,
    // each game's values in their columns.
    let mut args = vec!["tags", "--header", "-f", "number,file,*"];
    args.extend(&files);
    let (code, tsv, err) = pgnkit(&args);
    assert_eq!(code, 0, "{err}");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(header[..2], ["number", "file"]);
    assert_eq!(
        header[2..],
        names.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    for (line, game) in lines.zip(&games) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), header.len());
        for (name, cell) in header.iter().zip(&cells).skip(2) {
            // JSON types the tags listed as numbers (`+5` is 5).
            let same = match game.get(*name) {
                Some(serde_json::Value::String(s)) => *cell == s.replace(['\t', '\n', '\r'], " "),
                Some(serde_json::Value::Number(n)) => cell.trim().parse::<i64>().ok() == n.as_i64(),
                Some(value) => panic!("{name}: {value}"),
                None => cell.is_empty(),
            };
            assert!(same, "{name} of {line}");
        }
    }
    // Standard input cannot be read twice.
    let (code, _, err) = pgnkit(&["tags", "-f", "*", "-"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--format jsonl"), "{err}");
}

#[test]
fn every_shard_has_the_whole_inputs_tag_columns() {
    let Some(data) = common::data_dir() else {
        return;
    };
    // Tags that only some games have (lichess: titles, rating changes).
    let path = data.join("corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn");
    let input = path.to_str().unwrap();
    for format in ["csv", "tsv"] {
        let (code, whole, err) = pgnkit(&["tags", "--format", format, "-f", "game,*", input]);
        assert_eq!(code, 0, "{err}");
        for n in 2..=5 {
            let mut joined = String::new();
            for k in 1..=n {
                let shard = format!("{k}/{n}");
                let args = [
                    "tags", "--format", format, "-f", "game,*", "--shard", &shard, input,
                ];
                let (code, part, err) = pgnkit(&args);
                assert_eq!(code, 0, "{shard}: {err}");
                joined.push_str(&part);
            }
            assert!(joined == whole, "{format}: {n} shards differ from one run");
        }
    }
}

#[test]
fn tables_keep_each_side_in_its_place() {
    let games = "[White \"A\"]\n[WhiteElo \"2000\"]\n\n*\n\n\
                 [Black \"B\"]\n[BlackElo \"2100\"]\n\n*\n\n\
                 [White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2100\"]\n\n*\n\n\
                 [Event \"none\"]\n\n*\n";
    let file = temp_file("sides.pgn", games);
    let file = file.to_str().unwrap();
    let (code, csv, err) = pgnkit(&["tags", "--format", "csv", "-f", "player,elo,WhiteElo", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        csv,
        "player,elo,WhiteElo\nA;,2000;,2000\n;B,;2100,\nA;B,2000;2100,2000\n,,\n"
    );
    let (code, tsv, err) = pgnkit(&["tags", "-f", "player,elo", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tsv, "A;\t2000;\n;B\t;2100\nA;B\t2000;2100\n\t\n");
}

#[test]
fn numbers_read_alike_in_every_table_and_in_filter() {
    // One reading of a number: a plain decimal. `2400.0` is the integer
    // 2400, `2.5` a number with a fraction; `1e3` and `inf` are text.
    let game = "[WhiteElo \"02400\"]\n[BlackElo \" 2300\"]\n[WhiteRatingDiff \"+5\"]\n\
                [BlackRatingDiff \"-5\"]\n[PlyCount \"2400.0\"]\n[Board \"?\"]\n\
                [WhiteDays \"1e3\"]\n[BlackDays \"2.5\"]\n[EventRounds \"inf\"]\n\n*\n";
    let file = temp_file("integers.pgn", game);
    let file = file.to_str().unwrap();
    let fields = "WhiteElo,BlackElo,WhiteRatingDiff,BlackRatingDiff,PlyCount,Board,elo,\
                  WhiteDays,BlackDays,EventRounds";
    let (code, jsonl, err) = pgnkit(&["tags", "--format", "jsonl", "-f", fields, file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        jsonl,
        "{\"WhiteElo\":2400,\"BlackElo\":2300,\"WhiteRatingDiff\":5,\"BlackRatingDiff\":-5,\
         \"PlyCount\":2400,\"Board\":\"?\",\"elo\":[2400,2300],\
         \"WhiteDays\":\"1e3\",\"BlackDays\":2.5,\"EventRounds\":\"inf\"}\n"
    );
    for (expression, matches) in [
        ("PlyCount = 2400", true),
        ("PlyCount > 2399.5", true),
        ("BlackDays > 2", true),
        ("BlackDays = 2.5", true),
        ("WhiteDays = 1000", false),
        ("WhiteDays > 0", false),
        ("EventRounds > 0", false),
        ("WhiteElo = 2400.0", true),
    ] {
        let (code, count, err) = pgnkit(&["filter", "-c", "-e", expression, file]);
        assert_eq!(code, if matches { 0 } else { 1 }, "{expression}: {err}");
        assert_eq!(
            count.trim(),
            if matches { "1" } else { "0" },
            "{expression}"
        );
    }
    // A number with an exponent is no number on the right either.
    let (code, _, err) = pgnkit(&["filter", "-c", "-e", "WhiteElo < 1e4", file]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_tag_named_like_a_field_is_kept_as_tag_name() {
    // Real tags named `file` and `game` (and `plies`) beside the fields of
    // those names: `*` keeps them as `tag:file`, `tag:game`, whichever side
    // of `*` the fields stand.
    let game = "[Event \"E\"]\n[file \"real file\"]\n[game \"7\"]\n[plies \"x\"]\n\n1. e4 *\n";
    let file = temp_file("clash.pgn", game);
    let file = file.to_str().unwrap();
    for fields in ["file,game,*", "*,file,game"] {
        let (code, jsonl, err) = pgnkit(&["tags", "--format", "jsonl", "-f", fields, file]);
        assert_eq!(code, 0, "{err}");
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(jsonl.trim_end()).unwrap();
        assert_eq!(object["file"], file, "{fields}");
        assert_eq!(object["game"], 1, "{fields}");
        assert_eq!(object["tag:file"], "real file", "{fields}");
        assert_eq!(object["tag:game"], "7", "{fields}");
        // A tag no field is named after keeps its name.
        assert_eq!(object["plies"], "x", "{fields}");
        assert_eq!(object.len(), 6, "{fields}: {jsonl}");
    }
    let (code, csv, err) = pgnkit(&["tags", "--format", "csv", "-f", "file,game,*", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        csv,
        format!("file,game,Event,tag:file,tag:game,plies\n{file},1,E,real file,7,x\n")
    );
    let (code, tsv, err) = pgnkit(&["tags", "--header", "-f", "*,plies", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        tsv,
        "Event\tfile\tgame\ttag:plies\tplies\nE\treal file\t7\tx\t1\n"
    );
}

#[test]
fn every_tag_of_tagless_games_is_no_table() {
    // Games without tags: `*` finds no column, and a table of no column
    // would lose its rows; jsonl has an object per game.
    let file = temp_file("tagless.pgn", "1. e4 e5 *\n\n1. d4 *\n");
    let file = file.to_str().unwrap();
    for format in ["csv", "tsv"] {
        let (code, out, err) = pgnkit(&["tags", "--format", format, "-f", "*", file]);
        assert_eq!(code, 2, "{format}: {out}");
        assert!(err.contains("no tag") && err.contains("no column"), "{err}");
    }
    let (code, out, err) = pgnkit(&["tags", "--format", "csv", "-f", "game,*", file]);
    assert_eq!((code, out.as_str()), (0, "game\n1\n2\n"), "{err}");
    let (code, out, err) = pgnkit(&["tags", "--format", "jsonl", "-f", "*", file]);
    assert_eq!((code, out.as_str()), (0, "{}\n{}\n"), "{err}");
}

/// `moves` counts the full moves the mainline spans: from a FEN with Black
/// to move the first is half a move (`10... e5 11. d4` is 2 plies over
/// moves 10 and 11). It used to be the plies halved and rounded up, one
/// short for an even count from Black. Checked on the pychess studies
/// (positions with either side to move) against the FEN tag's side and
/// full-move number, and `filter` agrees.
#[test]
fn regression_moves_from_a_fen_with_black_to_move() {
    let inline = temp_file(
        "black.pgn",
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 10\"]\n\
         [SetUp \"1\"]\n\n10... e5 11. d4 *\n",
    );
    let inline = inline.to_str().unwrap();
    let (code, out, err) = pgnkit(&["tags", "-f", "plies,moves", inline]);
    assert_eq!((code, out.as_str()), (0, "2\t2\n"), "{err}");
    let (_, out, _) = pgnkit(&["filter", "--count", "-e", "moves = 2", inline]);
    assert_eq!(out, "1\n");

    let Some(data) = common::data_dir() else {
        return;
    };
    let learn = data.join("corpus/pychess/learn");
    let mut files: Vec<String> = std::fs::read_dir(&learn)
        .expect("pychess studies")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".pgn"))
        .collect();
    files.sort();
    let mut args = vec!["tags", "-f", "FEN,plies,moves,valid"];
    args.extend(files.iter().map(String::as_str));
    let (_, out, err) = pgnkit(&args);
    let mut from_black = 0;
    let mut by_moves = std::collections::BTreeMap::<u64, u64>::new();
    for row in out.lines() {
        let [fen, plies, moves, valid] = row.split('\t').collect::<Vec<_>>()[..] else {
            panic!("row {row}");
        };
        let (plies, moves): (u64, u64) = (plies.parse().unwrap(), moves.parse().unwrap());
        *by_moves.entry(moves).or_default() += 1;
        if valid != "valid" || plies == 0 {
            continue;
        }
        let fields: Vec<&str> = fen.split(' ').collect();
        let (black, first) = match fields[..] {
            [.., side, _, _, _, full] => (side == "b", full.parse::<u64>().unwrap_or(1).max(1)),
            _ => (false, 1),
        };
        from_black += u64::from(black);
        // The move number of the last ply, less the first's, plus one.
        let first_ply = 2 * first - 1 + u64::from(black);
        let last = (first_ply + plies - 1).div_ceil(2);
        assert_eq!(moves, last - first + 1, "{row}: {err}");
    }
    assert!(from_black > 10, "{from_black} games from Black");
    for (moves, n) in by_moves {
        let expr = format!("moves = {moves}");
        let mut args = vec!["filter", "--count", "-e", &expr];
        args.extend(files.iter().map(String::as_str));
        assert_eq!(pgnkit(&args).1, format!("{n}\n"), "{expr}");
    }
}

/// FIDE writes an increment inside a `moves/seconds` period
/// (`40/5400+30:1800+30`); its parts are read, not left null.
#[test]
fn time_control_with_increment_in_a_moves_period() {
    let game = |n: u32, tc: &str| {
        format!(
            "[Event \"e{n}\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n[TimeControl \"{tc}\"]\n\n1. e4 *\n\n"
        )
    };
    let text = [
        game(1, "40/5400+30:1800+30"),
        game(2, "40/7200:3600"),
        game(3, "40/5400+30:20/3000+30:900+30"),
        game(4, "40/+30"),
    ]
    .concat();
    let file = temp_file("fide-time-controls.pgn", &text);
    let file = file.to_str().unwrap();
    let (code, out, err) = pgnkit(&[
        "tags",
        "--fields",
        "Event,TimeControl.moves,TimeControl.base,TimeControl.increment",
        "--format",
        "jsonl",
        file,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "{\"Event\":\"e1\",\"TimeControl.moves\":40,\"TimeControl.base\":5400,\"TimeControl.increment\":30}\n\
         {\"Event\":\"e2\",\"TimeControl.moves\":40,\"TimeControl.base\":7200,\"TimeControl.increment\":0}\n\
         {\"Event\":\"e3\",\"TimeControl.moves\":40,\"TimeControl.base\":5400,\"TimeControl.increment\":30}\n\
         {\"Event\":\"e4\",\"TimeControl.moves\":null,\"TimeControl.base\":null,\"TimeControl.increment\":null}\n"
    );
    let (code, out, err) = pgnkit(&[
        "filter",
        "-e",
        "TimeControl.increment = 30 or TimeControl = 40/5400+30:1800+30",
        file,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        [
            game(1, "40/5400+30:1800+30"),
            game(3, "40/5400+30:20/3000+30:900+30")
        ]
        .concat()
    );
}
