//! Decoding real Latin-1/Windows-1252 archives.

mod common;

use std::borrow::Cow;
use std::fs;

use pgnkit::encoding::{decode, is_utf8};

/// The `(name, value)` pairs of every `[Name "value"]` tag in `text`, in
/// order. Good enough for these files: no value contains `"` or `]`.
fn tags(text: &str) -> Vec<(&str, &str)> {
    text.split('[')
        .skip(1)
        .filter_map(|rest| {
            let (name, rest) = rest.split_once(" \"")?;
            let (value, _) = rest.split_once("\"]")?;
            Some((name, value))
        })
        .collect()
}

#[test]
fn german_opening_names() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let bytes = fs::read(dir.join("corpus/pychess/eco-de-latin1.pgn")).expect("read");
    assert!(!is_utf8(&bytes));
    let text = decode(&bytes);
    assert!(matches!(text, Cow::Owned(_)));

    let openings: Vec<&str> = tags(&text)
        .into_iter()
        .filter(|(name, _)| *name == "Opening")
        .map(|(_, value)| value)
        .collect();
    assert_eq!(openings.len(), 500);
    assert_eq!(openings[0], "seltene Eröffnungen wieOrang-Utan");
    assert_eq!(openings[1], "Larsen-Eröffnung");
    assert_eq!(openings[5], "Übergang in verschiedene Eröffnungen");
    assert!(openings.contains(&"Holländisches System"));
    // No replacement characters, no mojibake from a wrong guess.
    assert!(!text.contains('\u{FFFD}') && !text.contains("Ã"));
}

/// Scid's own test: `res_gameLatin1.pgn` is one Latin-1 line; scid's UTF-8
/// conversion `res_gameLatin1expected.pgn` holds the same game, re-wrapped
/// into lines of about 80 characters. So we assert (1) the tag pairs are
/// equal, names and values, in order, and (2) the whole texts are equal
/// once all whitespace is removed (line breaks moved, text unchanged).
#[test]
fn scid_latin1_matches_scid_utf8_conversion() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let latin1 = fs::read(dir.join("broken/scid/res_gameLatin1.pgn")).expect("read");
    let expected = fs::read(dir.join("broken/scid/res_gameLatin1expected.pgn")).expect("read");
    assert!(!is_utf8(&latin1));
    assert!(is_utf8(&expected));

    let decoded = decode(&latin1);
    let expected = decode(&expected);
    assert!(matches!(expected, Cow::Borrowed(_)));

    let decoded_tags = tags(&decoded);
    assert_eq!(decoded_tags.len(), 13);
    assert_eq!(decoded_tags, tags(&expected));
    assert!(decoded_tags.contains(&("White", "Kràmnìk, VlãÚdimir")));
    assert!(decoded_tags.contains(&("Black", "Topälov, Vèsélin")));

    let squeeze = |text: &str| text.split_whitespace().collect::<String>();
    assert_eq!(squeeze(&decoded), squeeze(&expected));
}
