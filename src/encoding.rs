//! Text encodings of PGN archives: UTF-8 (with or without a byte order mark)
//! and Windows-1252, the superset of Latin-1 that ChessBase and Scid write.
//!
//! PGN is specified as Latin-1, most modern archives are UTF-8, and nothing
//! in a file says which one it is. [`decode`] settles it the only reliable
//! way: bytes that are valid UTF-8 are UTF-8 (a Latin-1 text with accented
//! letters is practically never valid UTF-8 by accident); everything else is
//! read as Windows-1252, which maps every byte to a character and so never
//! fails.
//!
//! Decoding is meant for the places where text is shown or compared (tag
//! values, comments); the grammar itself works on raw bytes.

use std::borrow::Cow;

/// The UTF-8 encoding of U+FEFF, which some editors put at the start of a
/// file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Characters for the bytes 0x80 to 0x9F in Windows-1252.
///
/// The five bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90,
/// 0x9D) map to the C1 control with the same number, as in the WHATWG
/// Encoding Standard; the bytes 0xA0 to 0xFF are Latin-1 and need no table.
const WINDOWS_1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Decodes PGN text: UTF-8 if the bytes are valid UTF-8, Windows-1252
/// otherwise.
///
/// A leading UTF-8 byte order mark is dropped in both cases. Valid UTF-8 is
/// borrowed; only Windows-1252 text is copied. The choice is made for the
/// whole slice, never byte by byte, so pass a unit that has one encoding (a
/// file, a game, a tag value).
///
/// # Examples
/// ```
/// use std::borrow::Cow;
/// use pgnkit::encoding::decode;
///
/// assert!(matches!(decode(b"\xEF\xBB\xBF[Event \"?\"]"), Cow::Borrowed("[Event \"?\"]")));
/// assert_eq!(decode("Nüss".as_bytes()), "Nüss");
/// assert_eq!(decode(b"N\xFCss"), "Nüss");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = strip_bom(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(decode_windows_1252(bytes)),
    }
}

/// Whether `bytes` are valid UTF-8 (a byte order mark included).
///
/// # Examples
/// ```
/// use pgnkit::encoding::is_utf8;
///
/// assert!(is_utf8("Eröffnung".as_bytes()));
/// assert!(!is_utf8(b"Er\xF6ffnung"));
/// ```
#[inline]
pub fn is_utf8(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok()
}

/// `bytes` without the UTF-8 byte order marks that lead it, if any
/// (concatenated files can bring several).
///
/// # Examples
/// ```
/// use pgnkit::encoding::strip_bom;
///
/// assert_eq!(strip_bom(b"\xEF\xBB\xBF1. e4"), b"1. e4");
/// assert_eq!(strip_bom(b"\xEF\xBB\xBF\xEF\xBB\xBF1. e4"), b"1. e4");
/// assert_eq!(strip_bom(b"1. e4"), b"1. e4");
/// ```
#[inline]
pub fn strip_bom(mut bytes: &[u8]) -> &[u8] {
    while let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        bytes = rest;
    }
    bytes
}

/// The character a byte stands for in Windows-1252 (as the WHATWG Encoding
/// Standard defines it, so every byte has one).
///
/// # Examples
/// ```
/// use pgnkit::encoding::windows_1252_char;
///
/// assert_eq!(windows_1252_char(b'e'), 'e');
/// assert_eq!(windows_1252_char(0x80), '€');
/// assert_eq!(windows_1252_char(0xF6), 'ö');
/// assert_eq!(windows_1252_char(0x81), '\u{81}');
/// ```
#[inline]
pub const fn windows_1252_char(byte: u8) -> char {
    match byte {
        0x80..=0x9F => WINDOWS_1252_HIGH[(byte - 0x80) as usize],
        _ => byte as char,
    }
}

/// Decodes all of `bytes` as Windows-1252, copying ASCII runs in one go
/// (Latin-1 text is mostly ASCII with a few accented letters).
fn decode_windows_1252(bytes: &[u8]) -> String {
    // Every byte above 0x7F becomes two or three UTF-8 bytes: reserve three
    // so the string never grows again.
    let high = bytes.iter().filter(|b| !b.is_ascii()).count();
    let mut out = String::with_capacity(bytes.len() + 2 * high);
    // Each piece is a run of ASCII, ended by one byte above 0x7F except
    // perhaps the last.
    for piece in bytes.split_inclusive(|b| !b.is_ascii()) {
        match piece.split_last() {
            Some((&byte, ascii)) if !byte.is_ascii() => {
                push_ascii(&mut out, ascii);
                out.push(windows_1252_char(byte));
            }
            _ => push_ascii(&mut out, piece),
        }
    }
    out
}

/// Appends bytes known to be ASCII.
fn push_ascii(out: &mut String, ascii: &[u8]) {
    match std::str::from_utf8(ascii) {
        Ok(text) => out.push_str(text),
        // Not reached for ASCII input; decoding byte by byte is still right.
        Err(_) => out.extend(ascii.iter().map(|&b| windows_1252_char(b))),
    }
}

/// Text for a message that quotes input: decoded like [`decode`] (a byte
/// order mark kept, since it may be the fault), with every invisible
/// character escaped as Rust writes it (`\u{7}`, `\u{feff}`), so that what
/// the reader sees is what the input holds.
///
/// # Examples
/// ```
/// use pgnkit::encoding::visible;
///
/// assert_eq!(visible(b"\xEF\xBB\xBF1."), "\\u{feff}1.");
/// assert_eq!(visible(b"e\x075"), "e\\u{7}5");
/// assert_eq!(visible(b"M\xFCller"), "Müller");
/// ```
pub fn visible(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(decode_windows_1252(bytes)),
    };
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_invisible(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// One character named for a message: `` `X` ``, an invisible one escaped
/// (`` `\u{7}` ``), and the byte order mark by its name.
///
/// # Examples
/// ```
/// use pgnkit::encoding::character_name;
///
/// assert_eq!(character_name('X'), "`X`");
/// assert_eq!(character_name('\u{7}'), "`\\u{7}`");
/// assert_eq!(character_name('\u{feff}'), "U+FEFF (byte order mark)");
/// ```
pub fn character_name(c: char) -> String {
    match c {
        '\u{feff}' => "U+FEFF (byte order mark)".to_string(),
        '\u{a0}' => "U+00A0 (no-break space)".to_string(),
        c if is_invisible(c) => format!("`{}`", c.escape_unicode()),
        c => format!("`{c}`"),
    }
}

/// Characters a terminal shows as nothing (or as a plain space): controls,
/// the byte order mark and the other zero-width and format characters.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{a0}' | '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}' | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes() {
        let cases: &[(&[u8], &str, bool)] = &[
            // (input, text, borrowed)
            (b"", "", true),
            (b"1. e4 e5", "1. e4 e5", true),
            ("Nüss".as_bytes(), "Nüss", true),
            (b"\xEF\xBB\xBF[Event \"x\"]", "[Event \"x\"]", true),
            (b"\xEF\xBB\xBF", "", true),
            (b"N\xFCss", "Nüss", false),
            (b"Er\xF6ffnung", "Eröffnung", false),
            (b"\x80", "€", false),
            (b"\x80 100", "€ 100", false),
            (b"\x93quoted\x94", "\u{201C}quoted\u{201D}", false),
            (
                b"\x81\x8D\x8F\x90\x9D",
                "\u{81}\u{8D}\u{8F}\u{90}\u{9D}",
                false,
            ),
            (b"\xA0\xFF", "\u{A0}ÿ", false),
            // A BOM before invalid UTF-8 is still dropped.
            (b"\xEF\xBB\xBFK\xF6nig", "König", false),
            // Valid UTF-8 before the first Latin-1 byte is not kept as UTF-8:
            // the whole slice is read in one encoding.
            ("ü".as_bytes(), "ü", true),
            (b"\xC3\xBC \xFC", "Ã¼ ü", false),
            // A UTF-8 sequence cut short is not UTF-8.
            (b"ab\xC3", "abÃ", false),
        ];
        for &(input, text, borrowed) in cases {
            let decoded = decode(input);
            assert_eq!(decoded, text, "{input:?}");
            assert_eq!(matches!(decoded, Cow::Borrowed(_)), borrowed, "{input:?}");
            assert_eq!(is_utf8(strip_bom(input)), borrowed, "{input:?}");
        }
    }

    #[test]
    fn windows_1252_table() {
        let cases = [
            (0x00, '\0'),
            (0x7F, '\u{7F}'),
            (0x80, '€'),
            (0x82, '‚'),
            (0x83, 'ƒ'),
            (0x85, '…'),
            (0x8A, 'Š'),
            (0x8C, 'Œ'),
            (0x8E, 'Ž'),
            (0x91, '‘'),
            (0x96, '–'),
            (0x97, '—'),
            (0x99, '™'),
            (0x9F, 'Ÿ'),
            (0xA0, '\u{A0}'),
            (0xDF, 'ß'),
            (0xFC, 'ü'),
        ];
        for (byte, c) in cases {
            assert_eq!(windows_1252_char(byte), c, "{byte:#04x}");
        }
        // Every byte decodes to exactly one character.
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&all).chars().count(), 256);
    }

    #[test]
    fn strips_only_leading_boms() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"\xEF\xBB\xBFx", b"x"),
            (b"x\xEF\xBB\xBF", b"x\xEF\xBB\xBF"),
            (b"\xEF\xBB", b"\xEF\xBB"),
            // Concatenated files bring several: each one a decoded text
            // loses (writing it) would be lost the next time it is read.
            (b"\xEF\xBB\xBF\xEF\xBB\xBFx", b"x"),
        ];
        for &(input, expected) in cases {
            assert_eq!(strip_bom(input), expected, "{input:?}");
        }
    }
}
