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
            b"[White \"A\"]\n\n1. e\xE2\x80\x8B4 *\n",
            "<stdin>:3:4: error: game 1 (A - ?), 1.e\\u{200b}4: not a move: unexpected character \
             `\\u{200b}` after `e` in `e\\u{200b}4`",
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
    // Between tokens a byte-order mark is white space, as the game
    // boundaries have it, also glued after a token.
    assert!(diagnostics(b"[White \"A\"]\n\n\xEF\xBB\xBF1. \xEF\xBB\xBFe4 *\n").is_empty());
    assert!(diagnostics(b"[White \"A\"]\n\n1. e4\xEF\xBB\xBFe5\xEF\xBB\xBF*\n").is_empty());
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
    // An indented first line, in the first game and in a later one (read
    // from a file too: mapped, framed in place).
    let indented = b"  [Event \"x\"] Xe5 *\n\n\t [Event \"y\"] 1. Xe5 *\n";
    let expected = ["<stdin>:1:15: error:", "<stdin>:3:18: error:"];
    let found = diagnostics(indented);
    assert_eq!(found.len(), 2, "{found:?}");
    for (line, start) in found.iter().zip(expected) {
        assert!(line.starts_with(start), "{found:?}");
    }
    let path = cli_support::temp_file("messages", "indented.pgn", indented);
    let out = pgnkit(&["validate", "-q", "--jobs", "2", path.to_str().unwrap()]);
    let columns: Vec<&str> = out
        .stderr
        .lines()
        .map(|l| l.split(": ").next().unwrap_or_default())
        .map(|l| l.rsplit_once(".pgn:").map_or("", |(_, at)| at))
        .collect();
    assert_eq!(columns, ["1:15", "3:18"], "{}", out.stderr);
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

/// An unescaped quote inside a tag value (old archives) is read to the last
/// quote before `]`: a located warning with the value read, the game stays
/// valid, and it is written back with the quotes escaped.
#[test]
fn unescaped_quotes_in_tag_values_are_warnings() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("broken/pgn-read/calgames_06.pgn");
    let path = path.display().to_string();
    let warning = format!(
        "{path}:1:1: warning: game 1 (Anderson, DW. - Pridliam, JB.): unescaped quote in tag \
         value, read as [Event \"LA CC Handicap Tour \\\"C\\\"\"]"
    );
    let out = pgnkit(&["validate", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr.lines().next(), Some(warning.as_str()));
    let out = pgnkit(&["validate", "--syntax-only", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.starts_with(&warning), "{}", out.stderr);
    assert!(
        out.stderr.contains("1 game: 1 well-formed"),
        "{}",
        out.stderr
    );
    let out = pgnkit(&["validate", "--strict", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let out = pgnkit(&["convert", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .starts_with("[Event \"LA CC Handicap Tour \\\"C\\\"\"]\n"),
        "{}",
        out.stdout
    );
    // What pgnkit writes reads back without a finding.
    let again = pgnkit_in(&["validate", "--syntax-only", "-q"], out.stdout.as_bytes());
    assert_eq!((again.code, again.stderr.as_str()), (0, ""));
}
