//! Read errors lose nothing: a compressed input cut short, or gzip with
//! garbage after its members, gives every game before the error, the same
//! output for every `--jobs`, a message with the file, the byte offset and
//! the last complete game, and the inputs after it are still read.

mod cli_support;

use std::io::Write;
use std::path::{Path, PathBuf};

use cli_support::{Out, pgnkit, temp_file, validate_counts};

/// `n` games of a few plies each, every 97th with an illegal move, about
/// 100 bytes a game: several batches of text for a few thousand games.
fn games(n: usize) -> Vec<u8> {
    const LINES: [&str; 4] = [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
        "1. c4 e5 2. Nc3 Nf6 3. g3 d5",
        "1. Nf3 d5 2. g3 c5 3. Bg2 Nc6",
    ];
    let mut text = Vec::new();
    for i in 0..n {
        let moves = if i % 97 == 96 {
            "1. e5 e4"
        } else {
            LINES[i % 4]
        };
        write!(text, "[Event \"g{i}\"]\n[Round \"{i}\"]\n\n{moves} *\n\n").expect("write");
    }
    text
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text).expect("gzip");
    encoder.finish().expect("gzip")
}

fn bzip2(text: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    encoder.write_all(text).expect("bzip2");
    encoder.finish().expect("bzip2")
}

fn zstd(text: &[u8]) -> Vec<u8> {
    zstd::encode_all(text, 3).expect("zstd")
}

/// Runs `args` on `paths` with 1, 2 and 4 jobs; asserts that the output is
/// the same and that every game is accounted for; returns the run with
/// one job.
fn same_for_every_jobs(args: &[&str], paths: &[&Path]) -> Out {
    let run = |jobs: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--jobs", jobs]);
        all.extend(paths.iter().map(|p| p.to_str().expect("UTF-8 path")));
        pgnkit(&all)
    };
    let one = run("1");
    for jobs in ["2", "4"] {
        let other = run(jobs);
        assert_eq!(other.code, one.code, "{args:?} --jobs {jobs}");
        assert!(other.stdout == one.stdout, "{args:?} --jobs {jobs}: stdout");
        assert_eq!(other.stderr, one.stderr, "{args:?} --jobs {jobs}: stderr");
    }
    if args[0] == "validate" {
        let [games, valid, _, errors, unsupported] = validate_counts(&one.stderr);
        assert_eq!(games, valid + errors + unsupported, "{}", one.stderr);
    }
    one
}

/// The one read error message of `stderr`, and the last complete game it
/// names.
fn read_error(stderr: &str, path: &Path) -> (String, u64) {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" (reading stopped at byte "))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let line = lines[0].to_string();
    assert!(
        line.starts_with(&format!("pgnkit: {}", path.display())),
        "{line}"
    );
    let last = line
        .rsplit_once(", after game ")
        .and_then(|(_, rest)| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no last game in {line}"));
    (line, last)
}

struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    /// What the message says went wrong.
    reason: &'static str,
}

fn cases(text: &[u8]) -> Vec<Case> {
    let half = |b: Vec<u8>| b[..b.len() / 2].to_vec();
    let mut garbage = gzip(&text[..text.len() / 2]);
    garbage.extend(gzip(&text[text.len() / 2..]));
    let members = garbage.len();
    garbage.extend(b"garbage after the last member\n");
    vec![
        Case {
            name: "cut.pgn.zst",
            bytes: half(zstd(text)),
            reason: "(zstd): incomplete frame (",
        },
        Case {
            name: "cut.pgn.gz",
            bytes: half(gzip(text)),
            reason: "(gzip): ",
        },
        Case {
            name: "cut.pgn.bz2",
            bytes: half(bzip2(text)),
            reason: "(bzip2): ",
        },
        Case {
            name: "garbage.pgn.gz",
            bytes: garbage,
            reason: Box::leak(
                format!("trailing garbage from byte {members} on: not a gzip member")
                    .into_boxed_str(),
            ),
        },
    ]
}

#[test]
fn a_read_error_keeps_the_games_before_it_for_every_jobs() {
    let text = games(30_000);
    let whole = temp_file("read-errors", "whole.pgn", &text);
    for case in cases(&text) {
        let path: PathBuf = temp_file("read-errors", case.name, &case.bytes);
        let out = same_for_every_jobs(&["validate"], &[&path]);
        assert_eq!(out.code, 2, "{}: {}", case.name, out.stderr);
        let (line, last) = read_error(&out.stderr, &path);
        assert!(line.contains(case.reason), "{line}");
        let [games, valid, ..] = validate_counts(&out.stderr);
        assert_eq!(games, last, "{}: {}", case.name, line);
        let expected = if case.name.starts_with("garbage") {
            30_000
        } else {
            // Half the compressed bytes hold some of the games, not none.
            assert!((1_000..30_000).contains(&games), "{}: {games}", case.name);
            games
        };
        assert_eq!(games, expected, "{}", case.name);

        // The games read are those of the text, converted the same (the
        // games with an illegal move are left out).
        let converted = same_for_every_jobs(&["convert", "--to", "uci"], &[&path]);
        let full = pgnkit(&["convert", "--to", "uci", whole.to_str().expect("path")]);
        let events = converted.stdout.matches("[Event ").count() as u64;
        assert_eq!(events, valid, "{}", case.name);
        assert!(
            full.stdout.starts_with(&converted.stdout),
            "{}: the games read differ from the text's",
            case.name
        );

        // The input after a failed one is read.
        let out = same_for_every_jobs(&["validate"], &[&path, &whole]);
        let [both, ..] = validate_counts(&out.stderr);
        assert_eq!(both, games + 30_000, "{}", case.name);
    }
}

/// A read error after the last game's text keeps that game, though no
/// blank line after its marker ended it: gzip with bytes after its member,
/// gzip without its 8-byte trailer, and UTF-16 with an odd last byte give
/// both games of a text that ends in one line end, then the error.
#[test]
fn a_read_error_after_the_last_marker_keeps_the_last_game() {
    let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    let mut garbage = gzip(text.as_bytes());
    garbage.extend(b"junk");
    let mut no_trailer = gzip(text.as_bytes());
    no_trailer.truncate(no_trailer.len() - 8);
    let mut odd = vec![0xFF, 0xFE];
    odd.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    odd.push(b'x');
    for (name, bytes) in [
        ("junk.pgn.gz", garbage),
        ("no-trailer.pgn.gz", no_trailer),
        ("odd.pgn", odd),
    ] {
        let path = temp_file("read-errors-last", name, &bytes);
        let out = same_for_every_jobs(&["validate"], &[&path]);
        assert_eq!(out.code, 2, "{name}: {}", out.stderr);
        let (line, last) = read_error(&out.stderr, &path);
        assert_eq!(last, 2, "{line}");
        assert!(line.ends_with(", after game 2 on line 5)"), "{line}");
        assert_eq!(validate_counts(&out.stderr)[..2], [2, 2], "{name}");

        let out = same_for_every_jobs(&["tags", "-f", "game,Event"], &[&path]);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (2, "1\ta\n2\tb\n"),
            "{name}"
        );
        read_error(&out.stderr, &path);

        let out = same_for_every_jobs(&["filter", "-e", "true"], &[&path]);
        assert_eq!((out.code, out.stdout.as_str()), (2, text), "{name}");
        read_error(&out.stderr, &path);
    }
}

/// An input with neither a tag nor a move in its first 64 MiB (here zeros,
/// as `/dev/zero` gives) is not read on forever: it is "not PGN", named,
/// for every `--jobs`, read as a stream or mapped.
#[test]
fn no_pgn_in_a_large_prefix_is_not_pgn() {
    let zeros = vec![0u8; (64 << 20) + 4096];
    let expected = "pgnkit: <stdin>: not PGN: no tag and no move in the first 64 MiB \
                    (reading stopped at byte 67108864 of the file, before the first game)";
    let mut first = None;
    for jobs in ["1", "2"] {
        let out = cli_support::pgnkit_in(&["validate", "--jobs", jobs], &zeros);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains(expected), "{}", out.stderr);
        assert_eq!(*first.get_or_insert(out.stderr.clone()), out.stderr);
    }
    // A sparse file of zeros: mapped, checked before any game is framed.
    let path = temp_file("read-errors", "zeros.pgn", b"");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(zeros.len() as u64))
        .expect("sparse file");
    let out = same_for_every_jobs(&["validate"], &[&path]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "pgnkit: {}: not PGN: no tag and no move in the first 64 MiB",
            path.display()
        )),
        "{}",
        out.stderr
    );
    assert_eq!(validate_counts(&out.stderr)[0], 0);
}
