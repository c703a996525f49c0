//! Memory bounded by a constant, whatever the number of games: archives
//! of hundreds of thousands of one-move games, with and without tag
//! lines, read mapped and as a stream, stay under a fixed peak resident
//! size at every `--jobs`, with the same output as one job.

mod cli_support;

use std::path::Path;
use std::process::Command;

use cli_support::temp_file;

/// The peak a run may reach, in KiB. Before games per piece and per batch
/// were bounded, 400,000 one-move games took 71 MB mapped and 39 MB as a
/// stream with 2 jobs.
const PEAK_KIB: u64 = 32 << 10;

/// Runs `pgnkit validate --jobs JOBS path` under `/usr/bin/time`: exit
/// status, standard error without time's line, peak resident KiB. `None`
/// when `/usr/bin/time` is absent.
fn validate(path: &Path, jobs: &str, map: bool) -> Option<(i32, String, u64)> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let mut command = Command::new(time);
    command
        .args(["-f", "PEAK %M", env!("CARGO_BIN_EXE_pgnkit"), "validate"])
        .args(["--jobs", jobs])
        .arg(path);
    if !map {
        command.env("PGNKIT_NO_MMAP", "1");
    }
    let out = command.output().expect("run pgnkit under time");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (rest, peak) = stderr.trim_end().rsplit_once("PEAK ")?;
    Some((
        out.status.code().unwrap_or(-1),
        rest.to_string(),
        peak.parse().expect("peak KiB"),
    ))
}

#[test]
fn tiny_games_take_bounded_memory_at_every_jobs() {
    let games = 400_000;
    for (name, game) in [
        ("tagless.pgn", &b"1. e4 *\n\n"[..]),
        ("tagged.pgn", b"[E \"x\"]\n\n1. e4 *\n\n"),
    ] {
        let path = temp_file("bounded-memory", name, &game.repeat(games));
        for map in [true, false] {
            let Some(one) = validate(&path, "1", map) else {
                eprintln!("skipped: /usr/bin/time not found");
                return;
            };
            assert_eq!(one.0, 0, "{}", one.1);
            assert!(
                one.1.contains(&format!("{games} games: {games} valid")),
                "{}",
                one.1
            );
            for jobs in ["1", "2", "4"] {
                let run = validate(&path, jobs, map).expect("time");
                assert_eq!((run.0, &run.1), (one.0, &one.1), "{name} --jobs {jobs}");
                assert!(
                    run.2 <= PEAK_KIB,
                    "{name} --jobs {jobs} (mapped: {map}): peak {} KiB",
                    run.2
                );
            }
        }
    }
}
