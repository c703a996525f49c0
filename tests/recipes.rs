//! The recipes for running pgnkit on many cores or machines
//! (`examples/parallel`, `examples/spark`) find exactly the games and
//! counts of one run, on the shared data. They need GNU parallel, and
//! Python with pyspark and a Java runtime: without them the tests skip,
//! and fail where `PGNKIT_REQUIRE_TOOLS=1` (`.ci/run` installs them).

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cli_support::pgnkit_bytes;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PGNKIT: &str = env!("CARGO_BIN_EXE_pgnkit");

/// Whether `check` (a shell command) succeeds; when it does not, the test
/// skips with a message, or fails where `PGNKIT_REQUIRE_TOOLS=1`.
fn have(what: &str, check: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", check])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(!required, "{what} is missing and PGNKIT_REQUIRE_TOOLS=1");
        common::say_skipped(&format!("{what} not found"));
    }
    found
}

/// The corpus files, as strings.
fn corpus() -> Option<Vec<String>> {
    let files = common::pgn_files(&["corpus"], false)?;
    Some(
        files
            .iter()
            .map(|f| f.to_str().expect("a UTF-8 path").to_string())
            .collect(),
    )
}

#[test]
fn gnu_parallel_shards_give_the_output_and_status_of_one_run() {
    let Some(files) = corpus() else {
        return;
    };
    if !have("GNU parallel", "command -v parallel") {
        return;
    }
    let script = Path::new(ROOT).join("examples/parallel/pgnkit-shards");
    for args in [
        &["validate", "--format", "json"][..],
        &[
            "tags",
            "--format",
            "csv",
            "--fields",
            "game,White,Black,Result",
        ],
        &["filter", "-e", "WhiteElo > 2000 or plies < 30"],
        // Games of the 19th century, in some of the shards only: the
        // others match nothing (status 1), and one run matched (0).
        &["filter", "-e", "Date < 1900"],
    ] {
        let mut whole_args = args.to_vec();
        whole_args.extend(files.iter().map(String::as_str));
        let whole = pgnkit_bytes(&whole_args);
        for n in [3, 8] {
            let out = Command::new(&script)
                .arg("-n")
                .arg(n.to_string())
                .arg("--")
                .args(&whole_args)
                .env("PGNKIT", PGNKIT)
                .output()
                .expect("run the script");
            assert_eq!(
                out.status.code(),
                Some(whole.code),
                "{args:?} in {n} shards: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(whole.stdout.len() > 1000, "{args:?}");
            assert!(whole.stdout == out.stdout, "{args:?} in {n} shards");
        }
    }
}

/// A decompressed big corpus in a temporary directory.
fn decompressed(name: &str) -> Option<PathBuf> {
    let data = common::data_dir()?;
    let dir = std::env::temp_dir().join(format!("pgnkit-recipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.pgn"));
    let source = std::fs::File::open(data.join(format!("big/{name}.pgn.zst"))).expect("a corpus");
    let mut out = std::fs::File::create(&path).expect("a temp file");
    zstd::stream::copy_decode(source, &mut out).expect("decompress");
    Some(path)
}

#[test]
fn the_spark_recipe_in_local_mode_finds_the_games_of_one_run() {
    let Some(corpus) = corpus() else {
        return;
    };
    if !have("Java", "java -version") || !have("pyspark", "python3 -c 'import pyspark'") {
        return;
    }
    // A Spark task costs about half a second: every eighth corpus file.
    let mut files: Vec<String> = corpus.into_iter().step_by(8).collect();
    let data = common::data_dir().expect("the data");
    // A plain file of several tasks, and compressed files of one each.
    let big = decompressed("pgnmentor-12-players").expect("the data");
    files.push(big.to_str().expect("a UTF-8 path").to_string());
    for name in ["pgnmentor-12-players", "tcec-seasons-01-14"] {
        let zst = data.join(format!("big/{name}.pgn.zst"));
        files.push(zst.to_str().expect("a UTF-8 path").to_string());
    }
    let started = Instant::now();
    let out = Command::new("python3")
        .arg(Path::new(ROOT).join("examples/spark/check_local.py"))
        .args(["--pgnkit", PGNKIT, "--shard-bytes", "4194304"])
        .args(&files)
        .output()
        .expect("run python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("check: "))
        .unwrap_or_else(|| panic!("no result in {stderr}"));
    eprintln!("{line} ({:.1} s in all)", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(big.parent().expect("the temp dir"));
}
