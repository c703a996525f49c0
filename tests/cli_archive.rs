//! The archive keeper's jobs on real data: `dedup`, `split` and the
//! selections of `filter`, each compared with pgn-extract where it does
//! the same job (`-D`, `-U`, `-#`, `--selectonly`, `--stopafter`).
//!
//! pgn-extract writes games in its own export format, so games are
//! compared by who played them, when, the result and the number of plies
//! (`pgnkit tags` read on both outputs), in order.

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{pgnkit, pgnkit_bytes};

/// Files of the corpus that pgn-extract and pgnkit read as the same games
/// (pgn-extract reads other files differently: variants it does not play,
/// games without tags, which it splits or drops).
const SAME_GAMES: &[&str] = &[
    "corpus/shakmaty-pgn-reader/twic1599_1000k.pgn",
    "corpus/shakmaty-pgn-reader/lichess_db_1000k.pgn",
    "corpus/mliebelt-pgn-parser/twic-01-232games.pgn",
    "corpus/pgn-extract/infiles/fischer.pgn",
    "corpus/pgn-extract/infiles/test-hash.pgn",
];

/// pgn-extract, if installed (Debian puts it in /usr/games); when it is
/// not, the test skips with a message, or fails where
/// `PGNKIT_REQUIRE_TOOLS=1` (`.ci/run`).
fn pgn_extract() -> Option<PathBuf> {
    let found = Command::new("sh")
        .args([
            "-c",
            "command -v pgn-extract || command -v /usr/games/pgn-extract",
        ])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
    if found.is_none() {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "pgn-extract is missing and PGNKIT_REQUIRE_TOOLS=1"
        );
        common::say_skipped("pgn-extract not found");
    }
    found
}

/// A fresh temporary directory for `test`.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-archive-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a temporary directory");
    dir
}

/// Runs pgn-extract quietly in `dir` with `args`.
fn run_pgn_extract(tool: &Path, dir: &Path, args: &[&str]) {
    let out = Command::new(tool)
        .arg("-s")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run pgn-extract");
    assert!(
        out.status.success(),
        "pgn-extract {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The games of `path`, one line each: players, date, round, result and
/// plies.
fn identities(path: &Path) -> Vec<String> {
    let out = pgnkit(&[
        "tags",
        "--fields",
        "White,Black,Date,Round,Result,plies",
        path.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.lines().map(String::from).collect()
}

/// The number after `prefix` in `text` (`"34 duplicates"` → 34).
fn count_before(text: &str, word: &str) -> u64 {
    let at = text
        .find(word)
        .unwrap_or_else(|| panic!("no `{word}` in {text}"));
    text[..at]
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number before `{word}` in {text}"))
}

#[test]
fn dedup_by_moves_keeps_and_drops_the_games_pgn_extract_does() {
    let (Some(data), Some(tool)) = (common::data_dir(), pgn_extract()) else {
        return;
    };
    let dir = scratch("dedup");
    for name in SAME_GAMES {
        let file = data.join(name);
        let file = file.to_str().expect("a UTF-8 path");
        // The file twice: every game has a copy; some files hold copies
        // of their own (the lichess sample: six games of the same moves).
        let (kept, copies) = (dir.join("kept.pgn"), dir.join("copies.pgn"));
        let (pe_kept, pe_copies) = (dir.join("pe-kept.pgn"), dir.join("pe-copies.pgn"));
        let out = pgnkit(&[
            "dedup",
            "--by",
            "moves",
            file,
            file,
            "-o",
            kept.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let games = count_before(&out.stderr, "games");
        let duplicates = count_before(&out.stderr, "duplicates");
        let out = pgnkit(&[
            "dedup",
            "--by",
            "moves",
            "-d",
            file,
            file,
            "-o",
            copies.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        run_pgn_extract(&tool, &dir, &["-D", file, file, "-o", "pe-kept.pgn"]);
        run_pgn_extract(&tool, &dir, &["-U", file, file, "-o", "pe-copies.pgn"]);
        let (ours, theirs) = (identities(&kept), identities(&pe_kept));
        assert_eq!(ours, theirs, "{name}: the games kept");
        assert_eq!(ours.len() as u64, games - duplicates, "{name}");
        assert!(duplicates >= games / 2, "{name}: {duplicates} of {games}");
        let (ours, theirs) = (identities(&copies), identities(&pe_copies));
        assert_eq!(ours, theirs, "{name}: the duplicates");
        assert_eq!(ours.len() as u64, duplicates, "{name}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dedup_exact_of_a_file_and_its_copy_gives_the_file_back() {
    let Some(data) = common::data_dir() else {
        return;
    };
    for name in SAME_GAMES {
        let file = data.join(name);
        let path = file.to_str().unwrap();
        let out = pgnkit_bytes(&["dedup", path, path]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let original = std::fs::read(&file).unwrap();
        // Byte for byte, but a file without a final line break is kept
        // apart from the next one's first game.
        assert_eq!(
            out.stdout.trim_ascii_end(),
            original.trim_ascii_end(),
            "{name}"
        );
        // Exact copies are a subset of copies of the moves.
        let exact = count_before(&out.stderr, "duplicates");
        let moves = count_before(
            &pgnkit(&["dedup", "--by", "moves", "--no-games", path]).stderr,
            "duplicates",
        );
        let exact_alone =
            count_before(&pgnkit(&["dedup", "--no-games", path]).stderr, "duplicates");
        assert!(exact_alone <= moves, "{name}");
        let games = count_before(&out.stderr, "games");
        assert_eq!(exact, games / 2 + exact_alone, "{name}");
    }
}

#[test]
fn dedup_spilling_to_disk_gives_the_same_answer_for_any_jobs() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("big/pgnmentor-12-players.pgn.zst");
    let path = file.to_str().unwrap();
    let dir = scratch("spill");
    let report = |tag: &str| dir.join(format!("report-{tag}.txt"));
    let in_memory = pgnkit_bytes(&[
        "dedup",
        "--by",
        "likely",
        "--report",
        report("memory").to_str().unwrap(),
        path,
        path,
    ]);
    assert_eq!(in_memory.code, 0, "{}", in_memory.stderr);
    assert!(
        !in_memory.stderr.contains("runs on disk"),
        "{}",
        in_memory.stderr
    );
    assert!(count_before(&in_memory.stderr, "games") >= 2 * 31_990);
    for jobs in ["1", "2"] {
        let spilled = pgnkit_bytes(&[
            "dedup",
            "--by",
            "likely",
            "--memory",
            "64K",
            "--temp-dir",
            dir.to_str().unwrap(),
            "-j",
            jobs,
            "--report",
            report(jobs).to_str().unwrap(),
            path,
            path,
        ]);
        assert_eq!(spilled.code, 0, "{}", spilled.stderr);
        assert!(
            spilled.stderr.contains("runs on disk"),
            "{}",
            spilled.stderr
        );
        assert!(
            spilled.stdout == in_memory.stdout,
            "-j {jobs}: other games written"
        );
        assert_eq!(
            std::fs::read_to_string(report(jobs)).unwrap(),
            std::fs::read_to_string(report("memory")).unwrap(),
            "-j {jobs}"
        );
    }
    // The runs are gone.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("sort"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dedup_report_names_every_copy_by_file_line_and_number() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/pgn-extract/infiles/fischer.pgn");
    let path = file.to_str().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let out = pgnkit(&["dedup", "--no-games", "--report", "-", path, path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games = identities(&file).len();
    let heads: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("group "))
        .collect();
    assert_eq!(heads.len(), games, "{}", out.stdout);
    let copies: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(copies.len(), 2 * games);
    for (i, pair) in copies.chunks(2).enumerate() {
        let number = i + 1;
        assert!(
            pair[0].ends_with(&format!(": game {number} (kept)")),
            "{pair:?}"
        );
        assert!(
            pair[1].ends_with(&format!(": game {number} (duplicate)")),
            "{pair:?}"
        );
        // file:line: points at the game's first line, in both copies.
        let line: usize = pair[0]
            .trim()
            .strip_prefix(&format!("{path}:"))
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{pair:?}"));
        assert!(lines[line - 1].starts_with("[Event "), "{pair:?}");
        assert_eq!(pair[0], pair[1].replace("(duplicate)", "(kept)"));
    }
}

#[test]
fn dedup_refuses_a_report_that_is_the_output_before_writing_either() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/pgn-extract/infiles/fischer.pgn");
    let path = file.to_str().unwrap();
    let dir = scratch("report-is-output");
    std::fs::create_dir(dir.join("sub")).unwrap();
    let old = b"an existing file\n";
    std::fs::write(dir.join("same.txt"), old).unwrap();
    std::fs::hard_link(dir.join("same.txt"), dir.join("link.txt")).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .arg("dedup")
            .args(args)
            .args([path, path])
            .current_dir(&dir)
            .output()
            .expect("run pgnkit")
    };
    for (report, games) in [
        ("same.txt", "same.txt"),
        ("same.txt", "./same.txt"),
        ("sub/../same.txt", "same.txt"),
        ("link.txt", "same.txt"),
        ("new.txt", "sub/../new.txt"),
    ] {
        let out = run(&["--report", report, "-o", games]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{report} {games}: {stderr}");
        assert_eq!(
            stderr,
            format!(
                "pgnkit: --report {report} and -o {games} are one file: \
                 the games would replace the report\n"
            )
        );
        assert_eq!(std::fs::read(dir.join("same.txt")).unwrap(), old);
        assert!(!dir.join("new.txt").exists(), "{report} {games}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "a file left");
    // Without games, -o writes nothing: the report is all there is.
    let out = run(&["--report", "new.txt", "-o", "new.txt", "--no-games"]);
    assert_eq!(out.status.code(), Some(0));
    let report = std::fs::read_to_string(dir.join("new.txt")).unwrap();
    assert!(report.starts_with("group 1: "), "{report}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dedup_and_split_refuse_shards_whose_outputs_would_not_make_one_run() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/pgn-extract/infiles/fischer.pgn");
    let path = file.to_str().unwrap();
    let dir = scratch("shards");
    let template = dir.join("{num}.pgn");
    let template = template.to_str().unwrap();
    for (args, why) in [
        (
            &["dedup", "--shard", "1/2", path, path][..],
            "a shard cannot find the copies in other shards",
        ),
        (
            &[
                "split", "--every", "10", "-t", template, "--shard", "2/3", path,
            ],
            "the shards would number and replace the same files",
        ),
    ] {
        let out = pgnkit(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains("takes no --shard"), "{}", out.stderr);
        assert!(out.stderr.contains(why), "{}", out.stderr);
        assert!(out.stderr.contains("in one run\n"), "{}", out.stderr);
        let help = pgnkit(&[args[0], "--help"]).stdout;
        assert!(!help.contains("--shard"), "{}", args[0]);
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a file written"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn split_by_a_tag_without_a_name_is_refused() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/pgn-extract/infiles/fischer.pgn");
    let dir = scratch("split-no-tag");
    let template = dir.join("{tag}.pgn");
    let out = pgnkit(&[
        "split",
        "--by-tag",
        "",
        "-t",
        template.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("a value is required for '--by-tag <NAME>'"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a file written"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dedup_likely_finds_copies_in_another_notation_and_no_other_games() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/mliebelt-pgn-parser/twic-01-232games.pgn");
    let path = file.to_str().unwrap();
    let dir = scratch("likely");
    let lan = dir.join("lan.pgn");
    let out = pgnkit(&["convert", "--to", "lan", path, "-o", lan.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games = identities(&file).len() as u64;
    for by in ["exact", "moves", "likely"] {
        let out = pgnkit(&[
            "dedup",
            "--by",
            by,
            "--no-games",
            path,
            lan.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(count_before(&out.stderr, "games"), 2 * games, "{by}");
        // Each game of the copy, and no game of the original.
        let alone = pgnkit(&["dedup", "--by", by, "--no-games", path]);
        assert_eq!(count_before(&alone.stderr, "duplicates"), 0, "{by}");
        assert_eq!(count_before(&out.stderr, "duplicates"), games, "{by}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn split_every_n_writes_the_files_pgn_extract_does() {
    let (Some(data), Some(tool)) = (common::data_dir(), pgn_extract()) else {
        return;
    };
    for name in SAME_GAMES {
        let file = data.join(name);
        let dir = scratch("split-every");
        let ours = dir.join("ours");
        let theirs = dir.join("theirs");
        std::fs::create_dir_all(&theirs).unwrap();
        let template = format!("{}/{{num}}.pgn", ours.display());
        let out = pgnkit(&[
            "split",
            "--every",
            "100",
            "-t",
            &template,
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        run_pgn_extract(&tool, &theirs, &["-#100", file.to_str().unwrap()]);
        let mut names: Vec<String> = std::fs::read_dir(&theirs)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            out.stdout.lines().count(),
            names.len(),
            "{name}: {}",
            out.stdout
        );
        let mut together = Vec::new();
        for n in 1..=names.len() {
            let part = format!("{n}.pgn");
            assert_eq!(
                identities(&ours.join(&part)),
                identities(&theirs.join(&part)),
                "{name}: {part}"
            );
            together.extend(std::fs::read(ours.join(&part)).unwrap());
        }
        // The parts are the file, cut between games.
        assert_eq!(together, std::fs::read(&file).unwrap(), "{name}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn split_by_tag_and_by_expression_part_every_game_once() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let file = data.join("corpus/shakmaty-pgn-reader/twic1599_1000k.pgn");
    let path = file.to_str().unwrap();
    let dir = scratch("split-parts");
    let all = identities(&file);
    let template = format!("{}/result-{{tag}}.pgn", dir.display());
    let out = pgnkit(&["split", "--by-tag", "Result", "-t", &template, path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut total = 0;
    for line in out.stdout.lines() {
        let (part, n) = line.split_once('\t').unwrap();
        let games = identities(Path::new(part));
        assert_eq!(games.len(), n.parse::<usize>().unwrap(), "{line}");
        let result = part
            .rsplit_once("result-")
            .unwrap()
            .1
            .trim_end_matches(".pgn");
        for game in &games {
            let tag = game.split('\t').nth(4).unwrap();
            assert_eq!(tag.replace('/', "_"), result, "{game}");
        }
        total += games.len();
    }
    assert_eq!(total, all.len());
    assert!(out.stdout.lines().count() >= 3, "{}", out.stdout);

    let template = format!("{}/{{match}}.pgn", dir.display());
    let expr = "WhiteElo > BlackElo and winner = white";
    let out = pgnkit(&["split", "-e", expr, "-t", &template, path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (part, invert) in [("matches", false), ("rest", true)] {
        let mut args = vec!["filter", "-e", expr, path];
        if invert {
            args.push("-v");
        }
        let filtered = pgnkit_bytes(&args);
        let written = std::fs::read(dir.join(format!("{part}.pgn"))).unwrap();
        assert!(filtered.stdout == written, "{part}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn filter_games_limit_and_append_select_what_pgn_extract_selects() {
    let (Some(data), Some(tool)) = (common::data_dir(), pgn_extract()) else {
        return;
    };
    let file = data.join("corpus/mliebelt-pgn-parser/twic-01-232games.pgn");
    let path = file.to_str().unwrap();
    let dir = scratch("select");
    // Without an expression every game matches, so pgn-extract's numbers
    // of matches are game numbers.
    for (ours, theirs) in [
        (vec!["--games", "5..10,20"], vec!["--selectonly", "5:10,20"]),
        (vec!["--games", "200.."], vec!["--selectonly", "200:232"]),
        (vec!["--limit", "7"], vec!["--stopafter", "7"]),
    ] {
        let out_path = dir.join("ours.pgn");
        let mut args = vec!["filter", path, "-o", out_path.to_str().unwrap()];
        args.extend(&ours);
        let out = pgnkit(&args);
        assert_eq!(out.code, 0, "{ours:?}: {}", out.stderr);
        let mut args = theirs.clone();
        args.extend([path, "-o", "theirs.pgn"]);
        run_pgn_extract(&tool, &dir, &args);
        let selected = identities(&out_path);
        assert!(!selected.is_empty(), "{ours:?}");
        assert_eq!(selected, identities(&dir.join("theirs.pgn")), "{ours:?}");
    }
    // Appending twice gives the selection twice.
    let appended = dir.join("appended.pgn");
    for _ in 0..2 {
        let out = pgnkit(&[
            "filter",
            "--games",
            "3",
            "--append",
            appended.to_str().unwrap(),
            path,
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let games = identities(&appended);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], games[1]);
    assert_eq!(games[0], identities(&file)[2]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn games_appended_to_a_file_without_a_last_line_break_stay_apart() {
    let dir = scratch("append-apart");
    let game = "[Event \"one\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 *";
    let input = dir.join("in.pgn");
    std::fs::write(&input, game).unwrap();
    let input = input.to_str().unwrap();
    let apart = format!("{game}\n\n{game}");
    // filter --append: the second run adds to the file the first wrote.
    let filtered = dir.join("filtered.pgn");
    for _ in 0..2 {
        let out = pgnkit(&["filter", "--append", filtered.to_str().unwrap(), input]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    assert_eq!(std::fs::read_to_string(&filtered).unwrap(), apart);
    // split --append, into a file that holds the game already.
    let template = dir.join("split-{num}.pgn");
    std::fs::write(dir.join("split-1.pgn"), game).unwrap();
    let out = pgnkit(&[
        "split",
        "--every",
        "5",
        "--append",
        "-t",
        template.to_str().unwrap(),
        input,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let split = dir.join("split-1.pgn");
    assert_eq!(std::fs::read_to_string(&split).unwrap(), apart);
    for file in [&filtered, &split] {
        let out = pgnkit(&["validate", file.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}: {}", file.display(), out.stderr);
        assert!(out.stderr.contains("2 games: 2 valid"), "{}", out.stderr);
    }
    // A match of nothing adds nothing, not even the blank line.
    let out = pgnkit(&[
        "filter",
        "-e",
        "White = nobody",
        "--append",
        filtered.to_str().unwrap(),
        input,
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&filtered).unwrap(), apart);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn one_part_of_every_corpus_file_is_the_file() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], false) else {
        return;
    };
    let dir = scratch("split-whole");
    let template = format!("{}/{{num}}.pgn", dir.display());
    let mut checked = 0;
    for file in &files {
        let path = file.to_str().unwrap();
        // What `filter` writes of every game: the input, byte for byte.
        let whole = pgnkit_bytes(&["filter", "-e", "true", path]);
        if whole.code != 0 {
            continue;
        }
        let out = pgnkit(&["split", "--every", "100000000", "-t", &template, path]);
        assert_eq!(out.code, 0, "{path}: {}", out.stderr);
        let part = dir.join("1.pgn");
        let written = std::fs::read(&part).unwrap_or_default();
        assert!(written == whole.stdout, "{path}: split differs from filter");
        let _ = std::fs::remove_file(part);
        // dedup with nothing to drop writes every game as filter does.
        let dedup = pgnkit_bytes(&["dedup", "--by", "exact", path]);
        if dedup.stderr.contains(" 0 duplicates") {
            assert!(
                dedup.stdout == whole.stdout,
                "{path}: dedup differs from filter"
            );
        }
        checked += 1;
    }
    assert!(checked > 150, "{checked} files");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dedup_exact_finds_a_latin1_copy_in_utf8() {
    let Some(data) = common::data_dir() else {
        return;
    };
    // German opening names in Latin-1, and the same bytes in UTF-8: the
    // same tags, as every output of pgnkit decodes them.
    let latin1 = data.join("corpus/pychess/eco-de-latin1.pgn");
    let bytes = std::fs::read(&latin1).expect("read the Latin-1 file");
    assert!(!bytes.is_ascii() && std::str::from_utf8(&bytes).is_err());
    let utf8: String = bytes.iter().map(|&b| char::from(b)).collect();
    let dir = scratch("dedup-latin1");
    let copy = dir.join("eco-de-utf8.pgn");
    std::fs::write(&copy, utf8).expect("write the UTF-8 copy");
    let out = pgnkit(&[
        "dedup",
        "--no-games",
        latin1.to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games = count_before(&out.stderr, "games");
    assert_eq!(
        count_before(&out.stderr, "duplicates"),
        games / 2,
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}
