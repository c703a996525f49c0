//! Game boundaries as in the PGN standard's import format, on archives the
//! tests generate: tag sections without movetext, blank lines inside
//! movetext (engine annotations, `%` lines, line ends converted twice),
//! byte-order marks of concatenated exports, form feeds and vertical tabs.
//! Each archive is validated by the real binary with one and with two
//! workers; the outputs are the same and every game is accounted for.

mod cli_support;

use cli_support::{Out, pgnkit, temp_file, validate_counts};

/// `validate` of `text` (written to a file of the test `test`) with one
/// and with two workers: the outputs must be the same.
fn validate(test: &str, text: &[u8], extra: &[&str]) -> Out {
    let path = temp_file(test, "games.pgn", text);
    let path = path.to_str().expect("utf-8 path");
    let run = |jobs: &str| {
        let mut args = vec!["validate", "--progress", "never", "--jobs", jobs];
        args.extend_from_slice(extra);
        args.push(path);
        pgnkit(&args)
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.code, two.code, "{test}: exit status by --jobs");
    assert_eq!(one.stdout, two.stdout, "{test}: output by --jobs");
    assert_eq!(one.stderr, two.stderr, "{test}: diagnostics by --jobs");
    one
}

/// A tag section of seven tags for game `i`, ending in a blank line.
fn tag_section(i: usize, result: &str) -> String {
    format!(
        "[Event \"Open\"]\n[Site \"Town\"]\n[Date \"2024.05.01\"]\n[Round \"1.{i}\"]\n\
         [White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"{result}\"]\n\n"
    )
}

/// A round published before its games are played: tag sections without
/// movetext, one after another; every fifth game has its moves.
#[test]
fn tag_sections_without_movetext_are_games() {
    let mut text = String::new();
    for i in 0..605 {
        if i % 5 == 4 {
            text.push_str(&tag_section(i, "1-0"));
            text.push_str("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
        } else {
            text.push_str(&tag_section(i, "*"));
        }
    }
    let out = validate("tag-sections", text.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(validate_counts(&out.stderr), [605, 605, 484, 0, 0]);
    // Each game has its own tags: the names are those of its section.
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains(": warning: "))
        .collect();
    assert_eq!(warnings.len(), 484);
    // Each is said to be a tag section alone.
    assert!(
        warnings
            .iter()
            .all(|w| w.ends_with("): no moves and no game termination marker")),
        "{warnings:?}"
    );
    assert!(warnings[0].contains(": game 1 (W0 - B0): "));
    assert!(warnings[483].contains(": game 604 (W603 - B603): "));
    assert!(!out.stderr.contains("again"), "no tag is repeated");
}

/// ChessBase writes a blank line after `[Event]`: a tag line after a blank
/// line whose name is new to the game goes on with its tag section.
#[test]
fn a_blank_line_inside_a_tag_section_keeps_one_game() {
    let mut text = String::new();
    for i in 0..50 {
        text.push_str(&format!(
            "[Event \"E{i}\"]\n\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        ));
    }
    let out = validate("chessbase-blank", text.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        validate_counts(&out.stderr),
        [50, 50, 0, 0, 0],
        "{}",
        out.stderr
    );
}

/// A tag name repeated in one section: a warning at the second, naming the
/// line of the first.
#[test]
fn a_repeated_tag_is_reported_with_both_lines() {
    let text = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n\n[Date \"2024.01.01\"]\n\
                [White \"C\"]\n\n1. e4 e5 *\n";
    let out = validate("repeated-tag", text.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let path = cli_support::temp_file("repeated-tag", "games.pgn", text.as_bytes());
    assert_eq!(
        out.stderr.lines().next(),
        Some(
            format!(
                "{}:6:1: warning: game 1 (A - B): tag \"White\" again (first on line 2); \
                 the first value is used",
                path.display()
            )
            .as_str()
        )
    );
    assert_eq!(validate_counts(&out.stderr), [1, 1, 1, 0, 0]);
}

/// Annotated engine output: paragraphs of movetext apart by blank lines,
/// `%` lines between them, and the same with every line end converted twice
/// (`\r\r\n`). Each game runs to its termination marker.
#[test]
fn blank_lines_inside_movetext_are_white_space() {
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!(
            "[Event \"Crafty {i}\"]\n[White \"Crafty\"]\n[Black \"W{i}\"]\n[Result \"1-0\"]\n\n\
             1. e4 {{book}}\n\n1... e5 2. Qh5\n\n% engine notes\n\n2... Nc6\n\n\n\
             3. Bc4 Nf6 {{eval +9.1}}\n\n4. Qxf7# 1-0\n\n"
        ));
    }
    let doubled = text.replace('\n', "\r\r\n");
    for (name, text) in [("crafty", text), ("crafty-crcrlf", doubled)] {
        let out = validate(name, text.as_bytes(), &[]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert_eq!(
            validate_counts(&out.stderr),
            [40, 40, 0, 0, 0],
            "{name}: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains("40 checkmate"),
            "{name}: {}",
            out.stderr
        );
    }
}

/// Two exports written one after the other (`cat a.pgn b.pgn`), each with
/// its byte-order mark; form feeds and vertical tabs at the starts and ends
/// of lines. All are white space: no game is invented, no tag lost.
#[test]
fn byte_order_marks_and_form_feeds_are_white_space() {
    let export = |first: usize| {
        let mut text = b"\xEF\xBB\xBF".to_vec();
        for i in first..first + 3 {
            text.extend_from_slice(
                format!(
                    "[Event \"E\"]\x0b\n\x0c[White \"W{i}\"]\n[Black \"B{i}\"]\x0c\n\
                     [Result \"1-0\"]\n\x0c\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6\x0b\n4. Qxf7# 1-0\n\x0c\n"
                )
                .as_bytes(),
            );
        }
        text
    };
    let mut text = export(0);
    text.extend(export(3));
    let out = validate("bom-ff", &text, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        validate_counts(&out.stderr),
        [6, 6, 0, 0, 0],
        "{}",
        out.stderr
    );
    let json = validate("bom-ff-json", &text, &["--format", "json", "--strict"]);
    assert_eq!(json.stdout, "", "no diagnostics");
}
