//! Shared by the PGN integration tests: a comparable view of a game model,
//! and the parse → write → parse check.

#![allow(dead_code)]

use pgnkit::pgn::{
    CommentKind, Comments, Game, GameFramer, Line, Outcome, RawGame, SyntaxChecker, TagSelection,
    Tokens, WriteOptions, export_tags, parse_game, write_game,
};
use pgnkit::replay::{ReplayOptions, replay};

/// A comparable view of a game: what must survive parse → write → parse.
#[derive(Debug, PartialEq, Eq)]
struct Model {
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    mainline: LineModel,
    result: Outcome,
}

#[derive(Debug, PartialEq, Eq)]
struct LineModel {
    moves: Vec<MoveModel>,
    trailing: Vec<(CommentKind, Vec<u8>)>,
}

#[derive(Debug, PartialEq, Eq)]
struct MoveModel {
    text: Vec<u8>,
    ep_mark: bool,
    nags: Vec<u8>,
    draw_offer: bool,
    before: Vec<(CommentKind, Vec<u8>)>,
    after: Vec<(CommentKind, Vec<u8>)>,
    variations: Vec<LineModel>,
}

fn line_model(line: &Line<'_>) -> LineModel {
    let comments = |cs: &[pgnkit::pgn::Comment<'_>]| -> Vec<(CommentKind, Vec<u8>)> {
        // The writer writes UTF-8: a comment read as Windows-1252 is the
        // same comment decoded.
        cs.iter()
            .map(|c| (c.kind, pgnkit::encoding::decode(c.text).as_bytes().to_vec()))
            .collect()
    };
    LineModel {
        moves: line
            .moves
            .iter()
            .map(|m| MoveModel {
                text: m.text.to_vec(),
                ep_mark: m.ep_mark.is_some(),
                nags: m.nags.clone(),
                draw_offer: m.draw_offer,
                before: comments(&m.comments_before),
                after: comments(&m.comments_after),
                variations: m.variations.iter().map(line_model).collect(),
            })
            .collect(),
        trailing: comments(&line.trailing_comments),
    }
}

/// The model of the first parse, as the export format states it: tags in
/// export order with the roster filled in, the result always present, the
/// text decoded to UTF-8.
fn exported_model(game: &Game<'_>) -> Model {
    Model {
        tags: export_tags(game, TagSelection::All)
            .into_iter()
            .map(|(n, v)| {
                let value = pgnkit::encoding::decode(&v).as_bytes().to_vec();
                (n.into_owned(), value)
            })
            .collect(),
        mainline: line_model(&game.mainline),
        result: result_of(game),
    }
}

/// The game's result: its marker, else its Result tag, read as the
/// writer reads it.
fn result_of(game: &Game<'_>) -> Outcome {
    let tag_result = game.tag("Result").and_then(|t| Outcome::from_tag(t.value));
    game.result
        .map(|r| r.outcome)
        .or(tag_result)
        .unwrap_or(Outcome::Unknown)
}

fn reparsed_model(game: &Game<'_>) -> Model {
    Model {
        tags: game
            .tags
            .iter()
            .map(|t| (t.name.to_vec(), t.unescaped().into_owned()))
            .collect(),
        mainline: line_model(&game.mainline),
        // A game with a NUL byte in a tag value is binary data again: its
        // movetext, marker included, is not read.
        result: result_of(game),
    }
}

/// The framer's index of a game's comments changes nothing: the tokens,
/// the syntax checker's findings and the replay are those of the same text
/// without the index (where the tokenizer searches for each `}`).
/// Returns how many comments the index held.
pub fn assert_comment_index(raw: &RawGame<'_>, name: &str) -> usize {
    let bare = RawGame {
        comments: Comments::default(),
        ..*raw
    };
    let context = || format!("{name} game {} (line {})", raw.number, raw.first_line);
    let indexed: Vec<_> = Tokens::for_game(raw).collect();
    let searched: Vec<_> = Tokens::for_game(&bare).collect();
    assert!(indexed == searched, "{}: tokens differ", context());
    let mut checker = SyntaxChecker::default();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let summary = checker.check(raw, |e| a.push(e));
    assert_eq!(
        summary,
        checker.check(&bare, |e| b.push(e)),
        "{}",
        context()
    );
    assert_eq!(a, b, "{}: syntax errors differ", context());
    let options = ReplayOptions::default();
    assert!(
        replay(raw, &options) == replay(&bare, &options),
        "{}: replays differ",
        context()
    );
    raw.comments.len()
}

/// Parses `raw`, writes it in export format, parses that again and asserts
/// the same model; `written` is a reusable buffer.
pub fn assert_round_trip(raw: &RawGame<'_>, name: &str, written: &mut Vec<u8>) {
    let first = parse_game(raw);
    written.clear();
    write_game(&first, written, &WriteOptions::default()).expect("write to vec");
    let mut again = GameFramer::new(&written[..]);
    let raw2 = again.next_game().expect("one game").expect("framing");
    let second = parse_game(&RawGame {
        number: raw.number,
        ..raw2
    });
    let (expected, actual) = (exported_model(&first), reparsed_model(&second));
    assert!(
        expected == actual,
        "{name} game {} (line {}) changed in the round trip:\n{}",
        raw.number,
        raw.first_line,
        String::from_utf8_lossy(written)
    );
    let leftover = again.next_game().is_some();
    assert!(
        !leftover,
        "{name} game {}: the writer's output frames as two games",
        raw.number
    );
}
