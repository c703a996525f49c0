//! Inputs named for what they are: UTF-16 text and zstd files that begin
//! with a skippable frame give, through `validate` and `fen`, exactly what
//! the same games in plain UTF-8 give.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit status, standard output and standard error of one run.
type Run = (i32, String, String);

/// Runs `pgnkit args games.pgn` in `dir`, so that messages name the file
/// the same way whatever directory it is in.
fn pgnkit(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .arg("games.pgn")
        .current_dir(dir)
        .output()
        .expect("run pgnkit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text` as UTF-16 in the given byte order, with or without a byte order
/// mark.
fn utf16(text: &[u8], little: bool, bom: bool) -> Vec<u8> {
    let text = std::str::from_utf8(text).expect("UTF-8 text");
    let bom = if bom { "\u{FEFF}" } else { "" };
    bom.encode_utf16()
        .chain(text.encode_utf16())
        .flat_map(|u| {
            if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            }
        })
        .collect()
}

/// A zstd skippable frame with the given magic nibble.
fn skippable(nibble: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = (0x184D_2A50 + u32::from(nibble)).to_le_bytes().to_vec();
    frame.extend((payload.len() as u32).to_le_bytes());
    frame.extend(payload);
    frame
}

/// `text` the way `pzstd` writes it: frames of at most `part` bytes of
/// text, each preceded by a skippable frame holding its compressed size.
fn pzstd(text: &[u8], part: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in text.chunks(part) {
        let frame = zstd::encode_all(piece, 3).expect("zstd");
        out.extend(skippable(0, &(frame.len() as u32).to_le_bytes()));
        out.extend(frame);
    }
    out
}

/// `text` in one zstd frame followed by a seek table in a skippable
/// frame, as the seekable format ends.
fn seekable(text: &[u8]) -> Vec<u8> {
    let mut out = zstd::encode_all(text, 3).expect("zstd");
    let mut table = (out.len() as u32).to_le_bytes().to_vec();
    table.extend((text.len() as u32).to_le_bytes());
    table.extend([1, 0, 0, 0, 0]);
    table.extend(0x8F92_EAB1u32.to_le_bytes());
    out.extend(skippable(0xE, &table));
    out
}

/// Every form of `text` that must read as it: name and bytes.
fn forms(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("utf16le-bom", utf16(text, true, true)),
        ("utf16be-bom", utf16(text, false, true)),
        ("utf16le", utf16(text, true, false)),
        ("utf16be", utf16(text, false, false)),
        (
            "utf16le-bom.zst",
            zstd::encode_all(&utf16(text, true, true)[..], 3).expect("zstd"),
        ),
        ("pzstd", pzstd(text, 1000)),
        ("seekable", seekable(text)),
    ]
}

/// A fresh directory holding `bytes` as `games.pgn`.
fn dir_with(test: &str, form: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pgnkit-input-formats-{}-{test}-{form}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("games.pgn"), bytes).expect("write");
    dir
}

/// `validate` and `fen`, one and two jobs, give the same for every form
/// of `text` as for `text` itself.
fn same_as_utf8(test: &str, text: &[u8]) {
    let plain = dir_with(test, "utf8", text);
    let commands: [&[&str]; 4] = [
        &["validate", "--jobs", "1"],
        &["validate", "--jobs", "2"],
        &["fen", "--jobs", "1"],
        &["fen", "--jobs", "2"],
    ];
    let expected: Vec<Run> = commands.iter().map(|args| pgnkit(&plain, args)).collect();
    for (code, out, err) in &expected {
        assert!(*code <= 1 && !(out.is_empty() && err.is_empty()), "{err}");
    }
    for (form, bytes) in forms(text) {
        let dir = dir_with(test, form, &bytes);
        for (args, expected) in commands.iter().zip(&expected) {
            let got = pgnkit(&dir, args);
            assert!(&got == expected, "{test} {form} {args:?}: {}", got.2);
        }
        std::fs::remove_dir_all(dir).expect("clean up");
    }
    std::fs::remove_dir_all(plain).expect("clean up");
}

#[test]
fn fixture_in_every_form() {
    let text = std::fs::read("fixtures/myschach.pgn").expect("fixture");
    same_as_utf8("fixture", &text);
}

/// Lichess study games with emoji in their tags (surrogate pairs in
/// UTF-16) and non-ASCII comments.
#[test]
fn study_with_emoji_in_every_form() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let path = dir.join(
        "corpus/pychess/learn/lichess_study_game-puzzles-with-interactive-lessons_by_Francesco_Super_2017.08.27.pgn",
    );
    let text = std::fs::read(path).expect("study");
    assert!(text.windows(4).any(|w| w == "💎".as_bytes()));
    same_as_utf8("study", &text);
}

/// A UTF-16 file big enough to be mapped in place is read through the
/// transcoder instead, in one job and in several.
#[test]
fn big_utf16_file() {
    let game = std::fs::read("fixtures/myschach.pgn").expect("fixture");
    let text = game.repeat((1 << 20) / game.len() + 1);
    same_as_utf8("big", &text);
}

#[test]
fn lone_surrogate_is_an_error_after_the_games_before_it() {
    let text = std::fs::read("fixtures/myschach.pgn").expect("fixture");
    let mut bytes = utf16(&text, true, true);
    let at = bytes.len();
    bytes.extend([0x3D, 0xD8, b'\n', 0]);
    let dir = dir_with("lone", "utf16le-bom", &bytes);
    let (code, stdout, stderr) = pgnkit(&dir, &["fen", "--jobs", "1"]);
    assert_eq!(code, 2, "{stderr}");
    let plain = dir_with("lone", "utf8", &text);
    assert_eq!(stdout, pgnkit(&plain, &["fen"]).1);
    assert!(
        stderr.contains(&format!(
            "games.pgn: UTF-16 little-endian input: unpaired surrogate 0xD83D at byte {at}"
        )),
        "{stderr}"
    );
    for dir in [dir, plain] {
        std::fs::remove_dir_all(dir).expect("clean up");
    }
}

/// Runs `pgnkit args` with `stdin` (a pipe), killed after 20 s: exit
/// status (`None` when killed) and standard error.
fn pgnkit_within(args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    // A command that refuses its inputs does not read them.
    std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    (code, stderr)
}

/// The commands that read their inputs twice (`tags -f '*'` in a table
/// format, `dedup`) refuse an input that gives its bytes once: standard
/// input, a pipe named by a path, a FIFO, or anything but a regular file,
/// instead of reading it once and giving short results, or waiting on a
/// FIFO for ever. Files, plain or compressed, are read.
#[test]
fn inputs_read_twice_are_files() {
    let text = std::fs::read("fixtures/myschach.pgn").expect("fixture");
    let dir = dir_with("read-twice", "games.pgn", &text);
    let plain = dir.join("games.pgn");
    let gz = dir.join("games.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, &text).expect("gzip");
    std::fs::write(&gz, encoder.finish().expect("gzip")).expect("write");
    let fifo = dir.join("games.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let parquet = dir.join("tags.parquet");
    let parquet = parquet.to_str().expect("UTF-8 path");
    let commands: [&[&str]; 5] = [
        &["tags", "-f", "game,*"],
        &["tags", "--format", "csv", "-f", "*"],
        &["tags", "--format", "parquet", "-o", parquet, "-f", "*"],
        &["dedup"],
        &["dedup", "--by", "likely", "--no-games"],
    ];
    let path = |p: &Path| p.to_str().expect("UTF-8 path").to_owned();
    let refused = [
        ("-".to_owned(), "<stdin> is standard input".to_owned()),
        ("/dev/stdin".to_owned(), "/dev/stdin is a pipe".to_owned()),
        (path(&fifo), format!("{} is a pipe", fifo.display())),
        (path(&dir), format!("{} is a directory", dir.display())),
    ];
    let plain = path(&plain);
    for args in commands {
        for (input, why) in &refused {
            // A file first: the input after it is refused all the same.
            let all = [args, &[&plain, input]].concat();
            let (code, stderr) = pgnkit_within(&all, &text);
            assert_eq!(code, Some(2), "{all:?}: {stderr}");
            assert!(
                stderr.contains("reads the inputs twice"),
                "{all:?}: {stderr}"
            );
            assert!(stderr.contains(why.as_str()), "{all:?}: {stderr}");
        }
        for input in [&plain, &path(&gz)] {
            let all = [args, &[input.as_str()]].concat();
            let (code, stderr) = pgnkit_within(&all, b"");
            assert_eq!(code, Some(0), "{all:?}: {stderr}");
        }
    }
}
