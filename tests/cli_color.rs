//! Colour in diagnostics and summaries: on request, never in a pipe by
//! default, and the same text without it.

mod cli_support;

use cli_support::{pgnkit, pgnkit_envs, temp_file};

const ILLEGAL: &[u8] = b"[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Ke3 *\n";

#[test]
fn diagnostics_are_coloured_on_request() {
    let path = temp_file("color", "illegal.pgn", ILLEGAL);
    let path = path.to_str().expect("a UTF-8 path");
    let out = pgnkit(&["validate", "--color", "always", path]);
    assert_eq!(out.code, 1);
    let first = out.stderr.lines().next().expect("a diagnostic");
    assert_eq!(
        first,
        format!(
            "\x1b[1m{path}:4:13:\x1b[0m \x1b[1m\x1b[31merror\x1b[0m: game 1 (a - b), \
             \x1b[1m2.Ke3\x1b[0m: illegal move: no king can move to e3"
        )
    );
    assert!(
        out.stderr.contains("\x1b[1m\x1b[31m1 with errors\x1b[0m"),
        "{}",
        out.stderr
    );
    // Without colour, the same text.
    let plain = pgnkit(&["validate", "--color", "never", path]);
    let stripped = out
        .stderr
        .replace("\x1b[1m", "")
        .replace("\x1b[31m", "")
        .replace("\x1b[0m", "");
    assert_eq!(stripped, plain.stderr);
    // fen and convert colour their diagnostics too.
    for command in ["fen", "convert"] {
        let out = pgnkit(&[command, "--color", "always", path]);
        assert!(
            out.stderr.contains("\x1b[1m\x1b[31merror\x1b[0m"),
            "{command}"
        );
    }
}

#[test]
fn pipes_and_no_color_get_plain_text() {
    let path = temp_file("color", "plain.pgn", ILLEGAL);
    let path = path.to_str().expect("a UTF-8 path");
    // Standard error is a pipe here: auto means no colour.
    let out = pgnkit(&["validate", path]);
    assert!(!out.stderr.contains('\x1b'), "{}", out.stderr);
    let out = pgnkit_envs(&["validate", "--color", "auto", path], &[("NO_COLOR", "1")]);
    assert!(!out.stderr.contains('\x1b'), "{}", out.stderr);
    // A warning is yellow in the summary.
    let out = pgnkit(&["validate", "--color", "always", "fixtures/myschach.pgn"]);
    assert!(
        out.stderr
            .contains("(\x1b[1m\x1b[33m2 with warnings\x1b[0m)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("\x1b[1m\x1b[33mwarning\x1b[0m:"),
        "{}",
        out.stderr
    );
}
