//! PGN output is always UTF-8: the archives of the shared data that are not
//! UTF-8 (Latin-1 / Windows-1252 tags and comments) come out decoded from
//! every command that writes PGN of its own, and their diagnostics show the
//! decoded text; `filter` alone writes the input's bytes as they are.

mod cli_support;
mod common;

use cli_support::{pgnkit, pgnkit_bytes};
use pgnkit::encoding::is_utf8;

/// The archives of the corpus and of the broken files that are not UTF-8.
fn windows_1252_archives() -> Option<Vec<String>> {
    let files = common::pgn_files(&["corpus", "broken"], false)?;
    let found: Vec<String> = files
        .iter()
        .filter(|p| !is_utf8(&std::fs::read(p).expect("read")))
        .map(|p| p.display().to_string())
        .collect();
    let names = [
        "odds.pgn",
        "eco-de-latin1.pgn",
        "mate_in_2.pgn",
        "res_gameLatin1.pgn",
    ];
    for name in names {
        assert!(found.iter().any(|f| f.ends_with(name)), "{name}: {found:?}");
    }
    Some(found)
}

#[test]
fn every_pgn_output_is_utf8() {
    let Some(files) = windows_1252_archives() else {
        return;
    };
    for file in &files {
        let input = std::fs::read(file).expect("read");
        // A U+FFFD in a message must be the input's own (odds.pgn has one,
        // in UTF-8, among its Windows-1252 lines), never a byte lost.
        let text: String = input
            .split(|&b| b == b'\n')
            .map(|line| pgnkit::encoding::decode(line) + "\n")
            .collect();
        let own = |messages: &str| {
            messages
                .split_whitespace()
                .filter(|word| word.contains('\u{fffd}'))
                .all(|word| text.contains(word.trim_matches(|c: char| "(),:".contains(c))))
        };
        for args in [
            &["convert", "--keep-invalid"][..],
            &["convert", "--to", "lan"],
            &["convert", "--to", "figurine", "--keep-invalid"],
            &["filter", "--normalize", "-e", "true"],
        ] {
            let mut args = args.to_vec();
            args.push(file);
            let out = pgnkit_bytes(&args);
            assert!(!out.stdout.is_empty() || out.code != 0, "{args:?}");
            assert!(is_utf8(&out.stdout), "{args:?}");
            assert!(own(&out.stderr), "{args:?}: {}", out.stderr);
        }
        let out = pgnkit(&["validate", file]);
        assert!(own(&out.stderr), "{file}: {}", out.stderr);
        // filter writes the games as they are: the input's bytes.
        let out = pgnkit_bytes(&["filter", "-e", "true", file]);
        assert_eq!(out.stdout, input, "{file}");
    }
}

/// The decoded text is the text the archive means: the German ECO names of
/// pychess's Latin-1 file come out as in UTF-8, the same as `tags` shows.
#[test]
fn latin1_tags_and_comments_come_out_decoded() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("corpus/pychess/eco-de-latin1.pgn");
    let path = path.display().to_string();
    let pgn = pgnkit(&["convert", &path]);
    let tags = pgnkit(&["tags", "--fields", "Opening,valid", &path]);
    // One game of the file has an illegal castling: it is not written.
    assert_eq!(pgn.code, 1, "{}", pgn.stderr);
    let written: Vec<&str> = pgn
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("[Opening \"")?.strip_suffix("\"]"))
        .collect();
    let shown: Vec<&str> = tags
        .stdout
        .lines()
        .filter_map(|l| l.strip_suffix("\tvalid"))
        .collect();
    assert_eq!(written, shown);
    assert!(
        written.iter().any(|o| o.contains(['ä', 'ö', 'ü', 'ß'])),
        "{written:?}"
    );
}

/// A UTF-8 byte-order mark is white space wherever white space may stand:
/// at the start of a file, before a later game, at the start of each of
/// files written one after another, before a token and glued after one,
/// where it ends the token as a space would (docs/pgn-reader.md).
#[test]
fn byte_order_marks_are_white_space_between_tokens() {
    use cli_support::pgnkit_in;
    const BOM: &str = "\u{feff}";
    let game = |event: &str| format!("[Event \"{event}\"]\n\n1. e4 e5 *\n");
    for (text, events) in [
        (format!("{BOM}{}", game("a")), "a\n"),
        (format!("{}\n{BOM}{}", game("a"), game("b")), "a\nb\n"),
        (format!("{BOM}{}{BOM}{}", game("a"), game("b")), "a\nb\n"),
        (
            format!("[Event \"a\"]\n{BOM}[Site \"s\"]\n\n{BOM}1. {BOM}e4 e5 {BOM}*\n"),
            "a\n",
        ),
        (
            format!(
                "[Event \"a\"]\n\n1. e4{BOM}e5{BOM}{{c}}{BOM}2. Nf3{BOM}$1{BOM}(2. Nc3{BOM}){BOM}Nc6{BOM}*{BOM}\n\n{}",
                game("b")
            ),
            "a\nb\n",
        ),
        (
            format!("[Event \"a\"]\n\n1. e4 e5 2. Nf3{BOM}1-0{BOM}"),
            "a\n",
        ),
    ] {
        let out = pgnkit_in(&["validate", "-q"], text.as_bytes());
        assert_eq!(out.code, 0, "{text:?}: {}", out.stderr);
        let out = pgnkit_in(&["tags", "-f", "Event"], text.as_bytes());
        assert_eq!(out.stdout, events, "{text:?}");
    }
    let split = format!("[Event \"a\"]\n\n1. e{BOM}4 e5 *\n");
    let out = pgnkit_in(&["validate", "-q"], split.as_bytes());
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            "<stdin>:3:4: error: game 1 (? - ?), 1.e: not a move: `e` is incomplete\n"
        )
    );
    // Another character led by the mark's first byte stays in the token.
    let other = "[Event \"a\"]\n\n1. Nf3\u{ff01} *\n";
    let out = pgnkit_in(&["validate", "-q"], other.as_bytes());
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("after `Nf3` in `Nf3\u{ff01}`"),
        "{}",
        out.stderr
    );
}
