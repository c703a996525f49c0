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

/// The peak `fen --all` may reach on one game of a million plies, in KiB:
/// its 77 MB of positions once took 112 MB in memory.
const LONG_GAME_PEAK_KIB: u64 = 64 << 10;

#[test]
fn every_position_of_a_million_ply_game_takes_bounded_memory() {
    // Knights out and back: legal to the end (the 75-move rule ends the
    // game on the board, which is only a warning under `*`).
    let mut pgn = b"[Event \"long\"]\n\n".to_vec();
    for number in 1..=500_000u32 {
        let moves = if number % 2 == 1 {
            "Nf3 Nf6"
        } else {
            "Ng1 Ng8"
        };
        pgn.extend_from_slice(format!("{number}. {moves} ").as_bytes());
    }
    pgn.extend_from_slice(b"*\n");
    let path = temp_file("bounded-memory", "long.pgn", &pgn);
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        eprintln!("skipped: /usr/bin/time not found");
        return;
    }
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let out = Command::new(time)
            .args([
                "-f",
                "PEAK %M",
                env!("CARGO_BIN_EXE_pgnkit"),
                "fen",
                "--all",
            ])
            .args(["--jobs", jobs])
            .arg(&path)
            .output()
            .expect("run pgnkit under time");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let peak: u64 = stderr
            .trim_end()
            .rsplit_once("PEAK ")
            .and_then(|(_, peak)| peak.parse().ok())
            .expect("peak KiB");
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(
            peak <= LONG_GAME_PEAK_KIB,
            "fen --all --jobs {jobs}: peak {peak} KiB"
        );
        outputs.push(out.stdout);
    }
    let lines: Vec<&[u8]> = outputs[0].split(|&b| b == b'\n').collect();
    // Every position from the start to the last (and the empty rest).
    assert_eq!(lines.len(), 1_000_002);
    assert!(
        lines[0].starts_with(b"1\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    assert!(lines[1_000_000].starts_with(b"1\t1000000\trnbqkbnr/pppppppp/"));
    assert_eq!(outputs[0], outputs[1], "the output depends on --jobs");
}
