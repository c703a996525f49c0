//! Messages name the offending token and character, columns count
//! characters on every line, and a garbage token is reported once.

mod cli_support;
mod common;

use cli_support::{pgnkit, pgnkit_in};

/// The diagnostic lines of `validate` on `input` (the summary left out).
fn diagnostics(input: &[u8]) -> Vec<String> {
    let out = pgnkit_in(&["validate", "-q"], input);
    out.stderr.lines().map(str::to_string).collect()
}

#[test]
fn tokens_and_characters_are_named() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"[White \"A\"]\n\n\xEF\xBB\xBF1. e4 *\n",
            "<stdin>:3:1: error: game 1 (A - ?), 1.\\u{feff}1.: not a move: unexpected character \
             U+FEFF (byte order mark) at the start of `\\u{feff}1.`",
        ),
        (
            b"[White \"A\"]\n\n1. e4 e\x075 *\n",
            "<stdin>:3:7: error: game 1 (A - ?), 1...e\\u{7}5: not a move: unexpected character \
             `\\u{7}` after `e` in `e\\u{7}5`",
        ),
        (
            b"[White \"A\"]\n\n1. e4 Nf3zz *\n",
            "<stdin>:3:7: error: game 1 (A - ?), 1...Nf3zz: not a move: unexpected character `z` \
             after `Nf3` in `Nf3zz`",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(diagnostics(input), [*expected]);
    }
}

#[test]
fn columns_count_characters_on_every_line() {
    // The offending `Xe5` is at character 11 of its line in each case: after
    // multi-byte UTF-8, after Windows-1252 bytes, after tabs, with CRLF.
    let cases: &[&[u8]] = &[
        "[White \"Müller\"]\n\n1. e4 {é} Xe5 *\n".as_bytes(),
        b"[White \"M\xFCller\"]\n\n1. e4 {\xE9} Xe5 *\n",
        b"[White \"A\"]\n\n1.\te4\t{}\t\tXe5 *\n",
        b"[White \"A\"]\r\n\r\n1. e4 {\xE9} Xe5 *\r\n",
    ];
    for input in cases {
        let found = diagnostics(input);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("<stdin>:3:11: error:"), "{found:?}");
    }
    // On a tag line: the stray `]` is the 13th character.
    let found = diagnostics("[Event \"ü\"] ] \n\n1. e4 *\n".as_bytes());
    assert!(
        found[0].starts_with("<stdin>:1:13: error:")
            && found[0].ends_with("unexpected character `]`"),
        "{found:?}"
    );
}

/// `\$14` (an escaped NAG) inside variations of a real annotated game: each
/// `\` is reported once, and the variations after them are judged from the
/// right position (no illegal move follows).
#[test]
fn garbage_tokens_have_no_follow_on_errors() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("corpus/dartchess/wcc_2023.pgn");
    let out = pgnkit(&["validate", "-q", &path.display().to_string()]);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(lines.len() >= 8, "{}", out.stderr);
    for line in &lines {
        assert!(
            line.contains("not a move: unexpected character `\\` at the start of `\\`"),
            "{line}"
        );
    }
}
