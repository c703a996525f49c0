//! Every notation reads back what pgnkit writes in it: for each `--to X`,
//! `convert --to X | convert --from X --to san` gives, byte for byte, what
//! `convert --to san` gives, over the whole corpus and the first megabytes
//! of the big archives. The real binary runs; outputs stay bytes, and
//! every one is UTF-8 (a Windows-1252 comment of the input comes out
//! decoded, the same in every notation and in JSON).

mod cli_support;
mod common;

use cli_support::pgnkit_bytes;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Every notation `--to` writes, with the `--from` that reads it back.
const NOTATIONS: [&str; 7] = ["san", "lan", "uci", "de", "de-lan", "figurine", "json"];

/// Moves the corpus has few or none of: SAN that needs the origin's file
/// and rank (three queens), castling on both sides, en passant, a null
/// move, every promotion piece of both colours, in mainlines and
/// variations.
const AWKWARD: &str = r#"[Event "Three queens"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "4k3/8/8/8/8/Q1n5/8/Q1Q1K3 w - - 0 1"]
[SetUp "1"]

1. Qa1xc3 Kf7 2. Qc3a1 Ke8 3. Qa1c3 (3. Q3c3 Kf7) 3... Kf7 4. Q1b2 *

[Event "Castling, en passant, null move"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. e4 Nf6 2. e5 d5 3. exd6 Qxd6 4. d4 Bf5 5. Nc3 Nc6 6. Be3 O-O-O 7. Qd2 e5
8. O-O-O -- 9. Nf3 exd4 10. Nxd4 Nxd4 11. Bxd4 Qxd4 12. Qxd4 Rxd4 13. Rxd4 *

[Event "Promotions"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "1n5k/P1PP4/8/8/8/8/5ppp/K5N1 w - - 0 1"]
[SetUp "1"]

1. axb8=N f1=Q+ (1... hxg1=R+ 2. Ka2 f1=B) 2. Ka2 hxg1=N 3. c8=R+ Kg7 4. d8=B
Kh6 *
"#;

/// How much of each big archive is read, decompressed.
const BIG_PREFIX: usize = 6 << 20;

/// A fresh temporary directory for this test process.
fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-notation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The first [`BIG_PREFIX`] bytes of each `big/*.pgn.zst`, cut before the
/// last game that does not fit whole, each written to `dir`.
fn big_prefixes(data: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut archives: Vec<PathBuf> = std::fs::read_dir(data.join("big"))
        .expect("read big/")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
        .collect();
    archives.sort();
    let mut out = Vec::new();
    for archive in archives {
        let file = std::fs::File::open(&archive).expect("open archive");
        let mut text = Vec::with_capacity(BIG_PREFIX);
        zstd::stream::read::Decoder::new(file)
            .expect("zstd decoder")
            .take(BIG_PREFIX as u64)
            .read_to_end(&mut text)
            .expect("decompress");
        let cut = text
            .windows(8)
            .rposition(|w| w == b"\n[Event ")
            .expect("a game starts in the prefix");
        text.truncate(cut + 1);
        let name = archive.file_name().expect("file name").to_string_lossy();
        let path = dir.join(name.replace(".pgn.zst", "-prefix.pgn"));
        std::fs::write(&path, &text).expect("write prefix");
        out.push(path);
    }
    out
}

/// The first line where two outputs differ, for the failure message.
fn first_difference(back: &[u8], san: &[u8]) -> String {
    let line = back
        .split(|&b| b == b'\n')
        .zip(san.split(|&b| b == b'\n'))
        .enumerate()
        .find(|(_, (a, b))| a != b);
    match line {
        Some((n, (a, b))) => format!(
            "line {}: read back {:?}, --to san {:?}",
            n + 1,
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        ),
        None => format!("lengths {} and {}", back.len(), san.len()),
    }
}

#[test]
fn every_notation_reads_back_what_pgnkit_writes() {
    let (Some(data), Some(corpus)) = (common::data_dir(), common::pgn_files(&["corpus"], true))
    else {
        return;
    };
    assert!(corpus.len() > 100, "{}", corpus.len());
    let dir = temp_dir();
    let mut files = corpus;
    files.extend(big_prefixes(&data, &dir));
    let awkward = dir.join("awkward.pgn");
    std::fs::write(&awkward, AWKWARD).expect("write the awkward games");
    files.push(awkward);
    let files: Vec<&str> = files
        .iter()
        .map(|p| p.to_str().expect("UTF-8 path"))
        .collect();
    let with_files = |head: &[&'static str]| -> Vec<&str> {
        head.iter().copied().chain(files.iter().copied()).collect()
    };

    let san = pgnkit_bytes(&with_files(&["convert", "--to", "san"]));
    assert_eq!(san.code, 1, "the corpus has invalid games");
    let games = san.stdout.windows(8).filter(|w| w == b"\n[Event ").count();
    assert!(games > 8000, "{games}");

    // The corpus has Windows-1252 archives; the output is UTF-8 all the same.
    assert!(pgnkit::encoding::is_utf8(&san.stdout));

    for to in NOTATIONS {
        let there = pgnkit_bytes(&with_files(&["convert", "--to", to]));
        assert_eq!(there.code, san.code, "--to {to}");
        let path = dir.join(format!("there.{to}"));
        std::fs::write(&path, &there.stdout).expect("write the output");
        let path = path.to_str().expect("UTF-8 path");
        let back = pgnkit_bytes(&["convert", "--from", to, "--to", "san", path]);
        assert_eq!(
            (back.code, back.stderr.as_str()),
            (0, ""),
            "--from {to} of --to {to}"
        );
        let expected = &san.stdout;
        assert!(
            back.stdout == *expected,
            "--to {to} | --from {to}: {}",
            first_difference(&back.stdout, expected)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// pgn-extract's long algebraic outputs of one annotated game (golden
/// files) read back under `--from lan` (hyphenated squares `c1-b2` and
/// castling `e1-g1`; letters with `-`/`x`), `--from uci` (`c1b2`) and, for
/// letters with squares run together (`Bc1b2`, pawns `b2b3`), auto: the
/// same moves as the original game. Comments are left out: pgn-extract
/// re-wraps their text.
#[test]
fn pgn_extract_long_algebraic_reads_back() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let dir = data.join("corpus/pgn-extract");
    let convert = |from: &str, path: PathBuf| {
        let out = pgnkit_bytes(&[
            "convert",
            "--from",
            from,
            "--no-comments",
            path.to_str().expect("UTF-8 path"),
        ]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{from}");
        out.stdout
    };
    let original = convert("san", dir.join("infiles/test-ucW.pgn"));
    assert!(original.len() > 500, "{}", original.len());
    for (from, golden) in [
        ("lan", "test-WWhalg-out.pgn"),
        ("lan", "test-WWxlalg-out.pgn"),
        // Pawns without letter and squares run together (`b2b3`) are UCI.
        ("auto", "test-WWelalg-out.pgn"),
        ("uci", "test-WWlalg-out.pgn"),
        ("de", "test-WWdeutsch-out.pgn"),
        ("auto", "test-WWhalg-out.pgn"),
    ] {
        let back = convert(from, dir.join("golden").join(golden));
        assert!(
            back == original,
            "{golden} --from {from}: {}",
            first_difference(&back, &original)
        );
    }
}
