//! The PGN writer: export format (PGN standard, section 8).

use std::borrow::Cow;
use std::io::{self, Write};

use crate::pgn::game::{CommentKind, Game, Line, MoveNode};
use crate::pgn::grammar::fen_move_number;
use crate::pgn::tag::{escape, unescape};

/// The seven tag roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Which tags [`write_game`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagSelection {
    /// The seven tag roster (missing ones filled in), then all other tags.
    All,
    /// Only the seven tag roster.
    Roster,
    /// No tags at all (movetext only).
    None,
}

/// What [`write_game`] writes and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Maximum line length of the movetext (a longer comment is not broken).
    pub width: usize,
    /// Which tags.
    pub tags: TagSelection,
    /// Write comments.
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
    /// Write NAGs (as `$n`) and draw offers.
    pub nags: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            width: 80,
            tags: TagSelection::All,
            comments: true,
            variations: true,
            nags: true,
        }
    }
}

/// A tag ready for export: name and unescaped value.
pub type ExportTag<'a> = (Cow<'a, [u8]>, Cow<'a, [u8]>);

/// The tags in export order: the seven tag roster (the first of each name;
/// `?`, `????.??.??` or the result for missing ones), then every other tag
/// in input order. Values are unescaped.
pub fn export_tags<'a>(game: &Game<'a>, selection: TagSelection) -> Vec<ExportTag<'a>> {
    let mut out = Vec::new();
    if selection == TagSelection::None {
        return out;
    }
    let mut used = vec![false; game.tags.len()];
    for name in SEVEN_TAG_ROSTER {
        match game.tags.iter().position(|t| t.is(name)) {
            Some(i) => {
                used[i] = true;
                out.push((Cow::Borrowed(game.tags[i].name), game.tags[i].unescaped()));
            }
            None => {
                let value: &[u8] = match name {
                    "Date" => b"????.??.??",
                    "Result" => game.result.map_or("*", |r| r.outcome.as_str()).as_bytes(),
                    _ => b"?",
                };
                out.push((Cow::Owned(name.as_bytes().to_vec()), Cow::Borrowed(value)));
            }
        }
    }
    if selection == TagSelection::All {
        for (tag, used) in game.tags.iter().zip(used) {
            if !used {
                out.push((Cow::Borrowed(tag.name), tag.unescaped()));
            }
        }
    }
    out
}

/// Writes one game in export format, followed by a blank line.
///
/// # Errors
/// The writer's I/O errors.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{RawGame, WriteOptions, TagSelection, parse_game, write_game};
/// let game = parse_game(&RawGame::from_bytes(b"1.e4 {hi} e5 (1...c5) 2.Nf3 1-0"));
/// let mut out = Vec::new();
/// let options = WriteOptions { tags: TagSelection::None, ..WriteOptions::default() };
/// write_game(&game, &mut out, &options)?;
/// assert_eq!(out, b"1. e4 {hi} 1... e5 (1... c5) 2. Nf3 1-0\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_game(game: &Game<'_>, out: &mut impl Write, options: &WriteOptions) -> io::Result<()> {
    emit(game, out, options, None)
}

/// Gives the text to write for a move node ([`write_game_with`]).
pub type MoveTextFn<'f> = dyn FnMut(&MoveNode<'_>) -> Cow<'static, [u8]> + 'f;

/// Writes one game like [`write_game`], with each move's text given by
/// `move_text` (called once per written move, in the order written). A
/// separate `e.p.` mark of the input is not written: the text says it all.
///
/// # Errors
/// The writer's I/O errors.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{RawGame, WriteOptions, TagSelection, parse_game, write_game_with};
/// let game = parse_game(&RawGame::from_bytes(b"1.e4 e5 *"));
/// let mut out = Vec::new();
/// let options = WriteOptions { tags: TagSelection::None, ..WriteOptions::default() };
/// write_game_with(&game, &mut out, &options, &mut |node| node.text.to_ascii_uppercase().into())?;
/// assert_eq!(out, b"1. E4 E5 *\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_game_with(
    game: &Game<'_>,
    out: &mut impl Write,
    options: &WriteOptions,
    move_text: &mut MoveTextFn<'_>,
) -> io::Result<()> {
    emit(game, out, options, Some(move_text))
}

fn emit<'f>(
    game: &Game<'_>,
    out: &mut impl Write,
    options: &WriteOptions,
    move_text: Option<&'f mut MoveTextFn<'f>>,
) -> io::Result<()> {
    let mut text = Vec::with_capacity(game.source.len() + 256);
    let tags = export_tags(game, options.tags);
    for (name, value) in &tags {
        text.push(b'[');
        text.extend_from_slice(name);
        text.extend_from_slice(b" \"");
        text.extend_from_slice(&escape(value));
        text.extend_from_slice(b"\"]\n");
    }
    if !tags.is_empty() {
        text.push(b'\n');
    }
    let start_ply = game
        .tag("FEN")
        .and_then(|t| fen_move_number(&unescape(t.value)))
        .map_or(0, |(fullmove, black)| {
            (u64::from(fullmove) - 1) * 2 + u64::from(black)
        });
    let mut emitter = Emitter {
        line_start: text.len(),
        out: text,
        width: options.width.max(1),
        glue: false,
        move_text,
    };
    emitter.line(&game.mainline, start_ply, options);
    let result = game
        .result
        .map(|r| r.outcome.as_str())
        .or_else(|| {
            let tag = game.tag("Result")?;
            matches!(tag.value, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
                .then(|| std::str::from_utf8(tag.value).ok())
                .flatten()
        })
        .unwrap_or("*");
    emitter.token(result.as_bytes());
    emitter.out.extend_from_slice(b"\n\n");
    out.write_all(&emitter.out)
}

/// Movetext tokens into lines of at most `width` bytes.
struct Emitter<'f> {
    /// Replaces the moves' texts (and their separate `e.p.` marks).
    move_text: Option<&'f mut MoveTextFn<'f>>,
    out: Vec<u8>,
    line_start: usize,
    width: usize,
    /// The next token follows without a space (after `(`).
    glue: bool,
}

impl Emitter<'_> {
    fn column(&self) -> usize {
        self.out.len() - self.line_start
    }

    fn newline(&mut self) {
        self.out.push(b'\n');
        self.line_start = self.out.len();
    }

    fn token(&mut self, token: &[u8]) {
        let column = self.column();
        if column > 0 && !self.glue {
            if column + 1 + token.len() > self.width {
                self.newline();
            } else {
                self.out.push(b' ');
            }
        }
        self.glue = false;
        self.out.extend_from_slice(token);
        if let Some(i) = memchr::memrchr(b'\n', token) {
            self.line_start = self.out.len() - (token.len() - i - 1);
        }
    }

    fn comments(
        &mut self,
        comments: &[crate::pgn::game::Comment<'_>],
        options: &WriteOptions,
    ) -> bool {
        if !options.comments || comments.is_empty() {
            return false;
        }
        for comment in comments {
            match comment.kind {
                CommentKind::Brace => {
                    let mut text = Vec::with_capacity(comment.text.len() + 2);
                    text.push(b'{');
                    text.extend_from_slice(comment.text);
                    text.push(b'}');
                    self.token(&text);
                }
                CommentKind::Line => {
                    let mut text = Vec::with_capacity(comment.text.len() + 1);
                    text.push(b';');
                    text.extend_from_slice(comment.text);
                    self.token(&text);
                    self.newline();
                }
            }
        }
        true
    }

    fn number(&mut self, ply: u64, black_dots: bool) {
        let mut text = (ply / 2 + 1).to_string().into_bytes();
        text.extend_from_slice(if ply.is_multiple_of(2) {
            b"."
        } else if black_dots {
            b"..."
        } else {
            return;
        });
        self.token(&text);
    }

    fn line(&mut self, line: &Line<'_>, start_ply: u64, options: &WriteOptions) {
        let mut interrupted = true;
        for (i, node) in line.moves.iter().enumerate() {
            let ply = start_ply + i as u64;
            interrupted |= self.comments(&node.comments_before, options);
            self.number(ply, interrupted);
            match self.move_text.as_mut() {
                Some(move_text) => {
                    let text = move_text(node);
                    self.token(&text);
                }
                None => {
                    self.token(node.text);
                    if node.ep_mark.is_some() {
                        self.token(b"e.p.");
                    }
                }
            }
            if options.nags {
                for nag in &node.nags {
                    self.token(format!("${nag}").as_bytes());
                }
                if node.draw_offer {
                    self.token(b"(=)");
                }
            }
            interrupted = self.comments(&node.comments_after, options);
            if options.variations {
                for variation in &node.variations {
                    self.token(b"(");
                    self.glue = true;
                    self.line(variation, ply, options);
                    self.out.push(b')');
                    interrupted = true;
                }
            }
        }
        self.comments(&line.trailing_comments, options);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{RawGame, parse_game};

    fn write(text: &[u8], options: &WriteOptions) -> String {
        let game = parse_game(&RawGame::from_bytes(text));
        let mut out = Vec::new();
        write_game(&game, &mut out, options).expect("vec write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn export_format() {
        let bare = WriteOptions {
            tags: TagSelection::None,
            ..WriteOptions::default()
        };
        let cases: &[(&[u8], WriteOptions, &str)] = &[
            (
                b"[White \"A \\\"B\\\"\"] [ECO \"C20\"] 1.e4 e5 *",
                WriteOptions::default(),
                "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                 [White \"A \\\"B\\\"\"]\n[Black \"?\"]\n[Result \"*\"]\n[ECO \"C20\"]\n\n1. e4 e5 *\n\n",
            ),
            (
                b"1.e4 e5 2.Nf3 {a} (2.f4 (2.d4 d5) exf4) 2...Nc6 $1 (=) ; line\n3.Bb5 1-0",
                bare,
                "1. e4 e5 2. Nf3 {a} (2. f4 (2. d4 d5) 2... exf4) 2... Nc6 $1 (=) ; line\n3. Bb5 1-0\n\n",
            ),
            (
                b"[FEN \"8/8/8/8/8/8/8/8 b - - 0 23\"] Kd2 Ke2 Kd1",
                WriteOptions { tags: TagSelection::None, ..bare },
                "23... Kd2 24. Ke2 Kd1 *\n\n",
            ),
            (
                b"[FEN \"8/8/8/8/8/8/8/8 b - - 0 4294967295\"] Kd2 Ke2",
                bare,
                "4294967295... Kd2 4294967296. Ke2 *\n\n",
            ),
            (
                b"1.e4 {a} (1.d4) $2 e5 *",
                WriteOptions { comments: false, variations: false, nags: false, ..bare },
                "1. e4 e5 *\n\n",
            ),
            (
                b"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 *",
                WriteOptions { width: 40, ..bare },
                "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\n5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O\n9. h3 Nb8 *\n\n",
            ),
        ];
        for (input, options, expected) in cases {
            assert_eq!(
                write(input, options),
                *expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
