//! `pgnkit filter` run as a real binary: every kind of condition on real
//! games, identity and exact partitions on every corpus file, errors with
//! columns.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn pgnkit(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pgnkit");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-cli-filter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The given tag of each game `filter -e expr` selects from `file`.
fn selected(file: &Path, expr: &str, tag: &str) -> String {
    let out = pgnkit(&["filter", "-e", expr, file.to_str().unwrap()]);
    assert!(out.code <= 1, "{expr}: {}", out.stderr);
    let dir = temp_dir();
    let picked = dir.join(format!("picked-{}.pgn", expr.len()));
    std::fs::write(&picked, &out.stdout).unwrap();
    let tags = pgnkit(&["tags", "--fields", tag, picked.to_str().unwrap()]);
    String::from_utf8(tags.stdout)
        .unwrap()
        .replace('\n', " ")
        .trim()
        .to_string()
}

fn count(file: &Path, expr: &str) -> u64 {
    let out = pgnkit(&["filter", "--count", "-e", expr, file.to_str().unwrap()]);
    assert!(out.code <= 1, "{expr}: {}", out.stderr);
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn correspondence_conditions_on_real_games() {
    let Some(archive) = common::correspondence_archive(12) else {
        return;
    };
    let file = temp_dir().join("corr.pgn");
    std::fs::write(&file, archive).unwrap();
    let cases = [
        ("WhiteDays < 5", "1000 1001 1002 1003 1004"),
        ("BlackDays <= 20 and WhitemyELO >= 1950", "1010 1011"),
        (
            "WhitemyELO >= 1800 and BlackmyELO > 1500",
            "1006 1007 1008 1009",
        ),
        (
            "TimeControl.moves = 10 and TimeControl.base = 2592000 and mySchachNr = 1003",
            "1003",
        ),
        (
            "TimeControl.increment > 0 or TimeControl.base < 2592000",
            "",
        ),
        ("mySchachNr in 1002..1004", "1002 1003 1004"),
        (
            "Site = \"www.mySchach.de\" and Event ~ \"TURNIER 1\"",
            "1001 1010 1011",
        ),
        ("player ~ carlsen and not WhiteDays > 0", "1000"),
        ("NoSuchTag = 1 or NoSuchTag != 1", ""),
    ];
    for (expr, expected) in cases {
        assert_eq!(selected(&file, expr, "mySchachNr"), expected, "{expr}");
    }
}

#[test]
fn myschach_fixture_conditions() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/myschach.pgn");
    let cases = [
        ("WhiteDays < 10", "Mustermann, Bernd"),
        ("TimeControl.base = 864000", "Mustermann, Bernd"),
        ("Date = 2024.03.?? and winner = draw", "Mustermann, Bernd"),
        ("status = checkmate or status = stalemate", "Weiss ?"),
        ("plies > 20", "Mustermann, Bernd Musterfrau, Karin"),
        (
            "WhitemyELO >= 1500 or BlackmyELO >= 1500",
            "Mustermann, Bernd Musterfrau, Karin",
        ),
        ("eco in B20..B99", "Mustermann, Bernd"),
    ];
    for (expr, expected) in cases {
        assert_eq!(selected(&file, expr, "White"), expected, "{expr}");
    }
}

#[test]
fn board_and_position_conditions_on_real_games() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let corpus = data.join("corpus");
    let twic = corpus.join("mliebelt-pgn-parser/twic-01-232games.pgn");
    let ruy = "reaches \"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b\"";
    let repetition = corpus.join("pgn-extract/infiles/test-repetition.pgn");
    let cases: [(&Path, &str, u64); 21] = [
        (&twic, "status = checkmate", 26),
        (&twic, "valid", 232),
        (&twic, "plies < 40", 9),
        (&twic, ruy, 14),
        (&twic, "ECO in C60..C99", 14),
        (&twic, "material KR vs K or material K vs KR", 2),
        (&twic, "player ~ carlsen", 14),
        (&twic, "Round =~ /^1\\./", 35),
        (&twic, "Date >= 2020.05.21", 107),
        (&twic, "WhiteElo >= 2800 and winner = white", 4),
        (&corpus.join("pychess/3fold.pgn"), "status = repetition", 2),
        (
            &corpus.join("pychess/insufficient_material.pgn"),
            "status = insufficient",
            1,
        ),
        (&corpus.join("pychess/50.pgn"), "status = fifty", 1),
        (&repetition, "status = threefold", 4),
        (&repetition, "status = threefold_repetition_next_move", 2),
        (&repetition, "status = claimable", 6),
        // A threefold repetition anywhere: 4 at the end, 5 earlier.
        (&repetition, "threefold", 9),
        (&repetition, "threefold and not status = threefold", 5),
        (&corpus.join("pychess/50.pgn"), "fifty", 1),
        (
            &corpus.join("shakmaty-pgn-reader/lichess_db_1000k.pgn"),
            "underpromotion",
            1,
        ),
        (
            &corpus.join("shakmaty-pgn-reader/lichess_db_1000k.pgn"),
            "status = stalemate",
            4,
        ),
    ];
    for (file, expr, expected) in cases {
        assert_eq!(count(file, expr), expected, "{expr} on {}", file.display());
    }
}

#[test]
fn identity_and_exact_partition_on_every_corpus_file() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], true) else {
        return;
    };
    assert!(files.len() > 50);
    for file in &files {
        let path = file.to_str().unwrap();
        let input = std::fs::read(file).unwrap();
        let all = pgnkit(&["filter", "-e", "true", path]);
        assert_eq!(all.stdout, input, "identity on {path}");
        let total = count(file, "true");
        for expr in [
            "White ~ a or Date < 2000.01.01",
            "plies >= 40 or status = checkmate",
        ] {
            let yes = pgnkit(&["filter", "-e", expr, path]).stdout;
            let no = pgnkit(&["filter", "-v", "-e", expr, path]).stdout;
            let n_yes = count(file, expr);
            let n_no = pgnkit(&["filter", "-v", "--count", "-e", expr, path]).stdout;
            let n_no: u64 = String::from_utf8(n_no).unwrap().trim().parse().unwrap();
            assert_eq!(n_yes + n_no, total, "{expr} on {path}");
            assert_eq!(yes.len() + no.len(), input.len(), "{expr} on {path}");
            // Nothing lost, nothing duplicated: the lines of both sides
            // are the lines of the input.
            assert_eq!(lines(&[&yes, &no]), lines(&[&input]), "{expr} on {path}");
        }
    }
}

fn lines(parts: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = parts
        .iter()
        .flat_map(|p| p.split(|&b| b == b'\n').map(<[u8]>::to_vec))
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort();
    lines
}

#[test]
fn first_count_output_and_flags() {
    let fixture = "fixtures/myschach.pgn";
    let out = pgnkit(&["filter", "--first", "2", "-e", "true", fixture]);
    let tags = String::from_utf8_lossy(&out.stdout)
        .matches("[Event ")
        .count();
    assert_eq!(tags, 2);
    let out = pgnkit(&[
        "filter",
        "--count",
        "--player",
        "mustermann",
        "--result",
        "*",
        fixture,
    ]);
    assert_eq!(
        (out.code, String::from_utf8_lossy(&out.stdout).as_ref()),
        (0, "2\n")
    );
    let out = pgnkit(&[
        "filter",
        "--count",
        "--status",
        "checkmate",
        "--min-plies",
        "7",
        fixture,
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let out = pgnkit(&["filter", "--count", "--eco", "C90..C99", fixture]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let none = pgnkit(&["filter", "-e", "White = Nobody", fixture]);
    assert_eq!((none.code, none.stdout.len()), (1, 0));
    let target = temp_dir().join("out.pgn");
    let out = pgnkit(&[
        "filter",
        "-e",
        "true",
        "-o",
        target.to_str().unwrap(),
        fixture,
    ]);
    assert_eq!(out.code, 0);
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(fixture).unwrap()
    );
    let out = pgnkit(&[
        "filter",
        "-e",
        "true",
        "-o",
        target.to_str().unwrap(),
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("one of the inputs"), "{}", out.stderr);
}

#[test]
fn an_input_under_another_name_is_no_output() {
    let dir = temp_dir().join("same-file");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    let text = "[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n";
    std::fs::write(&input, text).unwrap();
    // Hard links: as the file itself (split's first parts are links too).
    for name in ["link.pgn", "part1.pgn", "partmatches.pgn"] {
        let _ = std::fs::remove_file(dir.join(name));
        std::fs::hard_link(&input, dir.join(name)).unwrap();
    }
    let link = dir.join("link.pgn");
    let parts = dir.join("part{num}.pgn");
    let matches = dir.join("part{match}.pgn");
    let (input, link) = (input.to_str().unwrap(), link.to_str().unwrap());
    let (parts, matches) = (parts.to_str().unwrap(), matches.to_str().unwrap());
    for args in [
        vec!["filter", "-o", link, input],
        vec!["filter", "--append", link, input],
        vec!["split", "--every", "1", "--template", parts, input],
        vec!["split", "-e", "true", "--template", matches, input],
    ] {
        let out = pgnkit(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("one of the inputs"),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(input).unwrap(), text, "{args:?}");
    }
    // Standard input redirected from the file: appending to it would read
    // the games written for ever.
    for args in [["filter", "--append", input], ["filter", "-o", link]] {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args(args)
            .stdin(std::fs::File::open(input).unwrap())
            .output()
            .expect("run pgnkit");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("standard input reads it"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(input).unwrap(), text, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn regression_files_without_final_line_break_do_not_run_together() {
    let dir = temp_dir();
    let (a, b) = (dir.join("nolf-a.pgn"), dir.join("nolf-b.pgn"));
    std::fs::write(&a, "[White \"A\"]\n\n1. e4 *").unwrap();
    std::fs::write(&b, "[White \"B\"]\n\n1. d4 *\n").unwrap();
    let out = pgnkit(&[
        "filter",
        "-e",
        "true",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n"
    );
}

#[test]
fn normalize_writes_export_format() {
    let file = temp_dir().join("loose.pgn");
    std::fs::write(
        &file,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1.e4   {hi}   e5 *\n",
    )
    .unwrap();
    let out = pgnkit(&[
        "filter",
        "--normalize",
        "-e",
        "true",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
         [Black \"B\"]\n[Result \"*\"]\n\n1. e4 {hi} 1... e5 *\n\n"
    );
}

#[test]
fn mistakes_are_reported_with_their_column() {
    let out = pgnkit(&["filter", "-e", "WhiteDays << 5", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "pgnkit: filter expression, column 12: expected a value (a word, a number or a \"string\"), found `<`\n  WhiteDays << 5\n             ^\n"
    );
    let out = pgnkit(&["filter", "--status", "stalmate", "fixtures/myschach.pgn"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("unknown status `stalmate`"),
        "{}",
        out.stderr
    );
}

/// `(` and `not` nested past the limit are a usage error at the first token
/// too deep, not a stack overflow. One argument holds at most 128 KiB on
/// Linux, which bounds the `not`s; the library's tests go to 100,000 of
/// each.
#[test]
fn regression_deep_nesting_overflowed_the_stack() {
    let cases = [
        (
            format!("{}White = x{}", "(".repeat(50_000), ")".repeat(50_000)),
            257,
        ),
        ("(".repeat(100_000), 257),
        (format!("{}White = x", "not ".repeat(30_000)), 1025),
    ];
    for (expr, column) in cases {
        let out = pgnkit(&["filter", "-e", &expr, "fixtures/myschach.pgn"]);
        assert_eq!(out.code, 2, "{}", &out.stderr[..out.stderr.len().min(200)]);
        let first = out.stderr.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!(
                "pgnkit: filter expression, column {column}: `(` and `not` nested deeper than 256 levels"
            )
        );
        assert!(out.stdout.is_empty());
    }
    let chain = vec!["White = x"; 10_000].join(" or ");
    let out = pgnkit(&["filter", "--count", "-e", &chain, "fixtures/myschach.pgn"]);
    assert!(out.code <= 1, "{}", out.stderr);
}

/// A `Result` tag in a termination marker's spelling (`1/2`) is the
/// result it spells for `Result` and `winner`, and for `stats`.
#[test]
fn result_tags_in_a_markers_spelling_compare_as_their_result() {
    let file = temp_dir().join("spelled-results.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n[Result \"1/2\"]\n\n1. e4 1/2\n\n\
         [Event \"b\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n\
         [Event \"c\"]\n[Result \"1-0\"]\n\n1. c4 1-0\n",
    )
    .unwrap();
    assert_eq!(selected(&file, "Result == \"1/2-1/2\"", "Event"), "a b");
    assert_eq!(selected(&file, "winner == \"draw\"", "Event"), "a b");
    assert_eq!(selected(&file, "Result != \"1/2-1/2\"", "Event"), "c");
    let stats = pgnkit(&["stats", file.to_str().unwrap()]);
    let stdout = String::from_utf8(stats.stdout).unwrap();
    assert!(
        stdout.lines().any(|l| l == "results: 1-0 1, 1/2-1/2 2"),
        "{stdout}"
    );
}
