//! The streaming PGN converter ([`Converter::convert`], one pass riding on
//! the replay) against the tree writer ([`write_pgn_tree`]): byte for byte
//! the same output for every valid game of the corpus, in every notation
//! and with every option that changes the layout. Games converted one
//! after another into one output equal each converted alone, with the
//! options under which the replay changes the tags already written.

mod common;

use std::path::{Path, PathBuf};

use pgnkit::convert::{AddedTags, Converter, PgnOptions, Required, StreamError, write_pgn_tree};
use pgnkit::pgn::{GameFramer, RawGame, TagSelection, WriteOptions, parse_game};
use pgnkit::replay::{ReplayOptions, Replayer};
use pgnkit::{Alphabet, LetterPolicy, LongForm, Position, Style, replay::Status};

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn option_sets() -> Vec<PgnOptions> {
    let base = PgnOptions {
        style: Style::SAN,
        write: WriteOptions::default(),
        letters: LetterPolicy::Auto,
        required: None,
        openings: false,
        lenient: false,
        fix_result: false,
        added: AddedTags::default(),
        fen_comments: false,
    };
    let bare = WriteOptions {
        comments: false,
        variations: false,
        nags: false,
        tags: TagSelection::None,
        ..WriteOptions::default()
    };
    vec![
        base,
        PgnOptions {
            style: Style::UCI,
            ..base
        },
        PgnOptions {
            style: Style::DE_LAN.with_pawn_letter(true).with_ep_mark(true),
            write: WriteOptions {
                width: 30,
                ..WriteOptions::default()
            },
            ..base
        },
        PgnOptions {
            style: Style::FIGURINE,
            write: WriteOptions {
                variations: false,
                ..WriteOptions::default()
            },
            ..base
        },
        PgnOptions {
            style: Style::LAN,
            write: WriteOptions {
                comments: false,
                ..WriteOptions::default()
            },
            ..base
        },
        PgnOptions {
            style: Style::DE,
            write: WriteOptions {
                nags: false,
                tags: TagSelection::Roster,
                ..WriteOptions::default()
            },
            ..base
        },
        PgnOptions {
            write: bare,
            required: Some(Required::San),
            ..base
        },
        // `--bare`: the reader passes over comments.
        PgnOptions {
            style: Style::UCI,
            write: WriteOptions {
                move_numbers: false,
                result: false,
                ..bare
            },
            ..base
        },
        PgnOptions {
            style: Style::LAN
                .with_long_form(LongForm::Xlalg)
                .with_check_marks(false),
            write: WriteOptions {
                move_numbers: false,
                result: false,
                blank_line: false,
                width: usize::MAX,
                ..WriteOptions::default()
            },
            ..base
        },
        PgnOptions {
            style: Style::SAN.with_alphabet(Alphabet::letters("PCATDR").unwrap()),
            ..base
        },
        PgnOptions {
            fen_comments: true,
            write: WriteOptions {
                width: 60,
                ..WriteOptions::default()
            },
            ..base
        },
    ]
}

/// Asserts that every movetext line of `text` keeps within `width` bytes,
/// but for a line that cannot be broken: one token (a comment longer than
/// the line, parentheses glued to it), a line of a comment that holds line
/// breaks, or one that ends in a `;` comment.
fn assert_within_width(text: &[u8], width: usize, context: &dyn Fn() -> String) {
    let mut in_comment = false;
    for line in text.split(|&b| b == b'\n') {
        let starts_inside = in_comment;
        let (mut breaks, mut rest_of_line) = (false, false);
        for &b in line {
            match b {
                b'{' if !in_comment => in_comment = true,
                b'}' if in_comment => in_comment = false,
                b';' if !in_comment => {
                    rest_of_line = true;
                    break;
                }
                b' ' if !in_comment => breaks = true,
                _ => {}
            }
        }
        let exempt = starts_inside || in_comment || rest_of_line || line.first() == Some(&b'[');
        assert!(
            exempt || line.len() <= width || !breaks,
            "a line of {} bytes over {width} that could break: {}\n{}",
            line.len(),
            String::from_utf8_lossy(line),
            context()
        );
    }
}

/// Compares both writers on one game; returns whether the streaming walk
/// wrote it itself (not through the tree fallback).
fn compare(
    raw: &RawGame<'_>,
    start: &Position,
    options: &PgnOptions,
    converter: &mut Converter,
    replayer: &mut Replayer,
) -> bool {
    let game = parse_game(raw);
    let mut tree = Vec::new();
    let tree_result = write_pgn_tree(&game, start, options, &mut tree);
    let mut stream = Vec::new();
    let streamed = converter
        .convert_streaming(replayer, raw, options, &mut stream)
        .written
        .expect("a valid game is converted");
    let context = || {
        format!(
            "game {} {:?}: {}",
            raw.number,
            options,
            String::from_utf8_lossy(raw.bytes)
        )
    };
    match (&tree_result, &streamed) {
        (Ok(()), Ok(())) => {
            assert_within_width(&stream, options.write.width, &context);
            assert_eq!(
                String::from_utf8_lossy(&stream),
                String::from_utf8_lossy(&tree),
                "{}",
                context()
            )
        }
        (Err(a), Err(StreamError::Play(b))) => assert_eq!(a, b, "{}", context()),
        (_, Err(StreamError::Layout(_))) => {}
        _ => panic!("{tree_result:?} vs {streamed:?}: {}", context()),
    }
    let mut with_fallback = Vec::new();
    let result = converter
        .convert(replayer, raw, options, &mut with_fallback)
        .written
        .expect("a valid game is converted");
    assert_eq!(result, tree_result, "{}", context());
    assert_eq!(with_fallback, tree, "{}", context());
    streamed.is_ok()
}

/// Replays `raw`; its start position when it is valid.
fn valid_start(replayer: &mut Replayer, raw: &RawGame<'_>) -> Option<Position> {
    let mut start = None;
    let replay = replayer.replay_with(raw, &ReplayOptions::default(), &mut |p| {
        if p.ply == 0 {
            start = Some(*p.position);
        }
    });
    (replay.status == Status::Valid).then_some(start).flatten()
}

#[test]
fn streaming_equals_the_tree_writer_over_the_corpus() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let files = corpus_files(&data.join("corpus"));
    assert!(files.len() > 100, "{}", files.len());
    let sets = option_sets();
    let mut replayer = Replayer::new();
    let mut converter = Converter::new();
    let (mut games, mut streamed, mut fallbacks) = (0, 0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut framer = GameFramer::new(&bytes[..]);
        while let Some(raw) = framer.next_game() {
            let Ok(raw) = raw else { continue };
            let Some(start) = valid_start(&mut replayer, &raw) else {
                continue;
            };
            games += 1;
            for options in &sets {
                if compare(&raw, &start, options, &mut converter, &mut replayer) {
                    streamed += 1;
                } else {
                    fallbacks += 1;
                }
            }
        }
    }
    assert!(games > 5000, "{games}");
    // The tree fallback is for rare layouts only.
    assert!(
        fallbacks * 100 < streamed,
        "{fallbacks} of {}",
        streamed + fallbacks
    );
    eprintln!("{games} games, {streamed} streamed, {fallbacks} through the tree");
}

/// Awkward placements of comments, NAGs, draw offers and variations.
#[test]
fn awkward_layouts_equal_the_tree_writer() {
    let cases: &[&[u8]] = &[
        b"{pre} 1. e4 {a} {b} (1. d4 {c} d5 (1... Nf6) {d}) {e} (1. c4) {f} 1... e5 $1 2. Nf3 {end} *",
        b"1. e4 {a} $1 e5 *",
        b"1. e4 (1. d4) $2 e5 *",
        b"1. e4 (=) $1 e5 (=) (=) 2. Nf3 *",
        b"1. e4 { (=) } $1 e5 {(=)} {c} 2. Nf3 (=) *",
        b"1. e4 (1. d4) {c} (1. c4) 1... e5 *",
        b"1. e4 (1. d4) {c} () 1... e5 *",
        b"1. e4 ; line\n e5 2. Nf3 e.p. Nc6 1-0 {after}",
        b"[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 23\"]\n\n23... Kd7 24. Kd2 (24. Ke2 Ke6 (24... Kd6)) Kc6 *",
        b"1. e4 e5 2. -- Nc6 (2... Nf6 3. -- --) 3. Nf3 *",
        b"1. e4 (1. d4 (1. c4 (1. Nf3 {deep} d5) e5) d5) e5 2. Nf3 $14 {x} 2... Nc6 *",
        b"1. e4 {a} (1. d4) e5 *",
        b"1. e4 e5 2. Ke3 *",
        b"1. e4 (1. d4 d5 2. Ke3) e5 *",
        b"1. e2-e4 e5 *",
        b"1. e4 (1. d4 [%bad]) e5 *",
        b"1. e4 (e5 *",
        b"1. e4 ) e5 *",
    ];
    let mut converter = Converter::new();
    let mut replayer = Replayer::new();
    for &text in cases {
        let raw = RawGame::from_bytes(text);
        let start = valid_start(&mut replayer, &raw);
        for options in &option_sets() {
            match &start {
                Some(start) => {
                    compare(&raw, start, options, &mut converter, &mut replayer);
                }
                None => {
                    // An invalid game is not written.
                    let mut out = Vec::new();
                    let done = converter.convert(&mut replayer, &raw, options, &mut out);
                    assert_eq!(done.written, None, "{}", String::from_utf8_lossy(text));
                    assert!(out.is_empty());
                }
            }
        }
    }
}

/// Options under which the replay changes a game's tags after they were
/// written: an opening found, a result fixed, tags added.
fn tag_changing_options() -> Vec<PgnOptions> {
    let base = option_sets()[0];
    vec![
        PgnOptions {
            openings: true,
            ..base
        },
        PgnOptions {
            fix_result: true,
            ..base
        },
        PgnOptions {
            style: Style::UCI,
            added: AddedTags {
                ply_count: true,
                hash: true,
                final_fen: true,
            },
            ..base
        },
        PgnOptions {
            openings: true,
            fix_result: true,
            added: AddedTags {
                ply_count: true,
                ..AddedTags::default()
            },
            write: WriteOptions {
                tags: TagSelection::Roster,
                ..WriteOptions::default()
            },
            ..base
        },
    ]
}

/// Converts the games of `text` one after another into one output, and
/// each into an output of its own; both must hold the same bytes, and a
/// game not written must leave no trace.
fn same_in_one_output(text: &[u8], options: &PgnOptions) -> usize {
    let mut converter = Converter::new();
    let mut replayer = Replayer::new();
    let (mut together, mut apart) = (Vec::new(), Vec::new());
    let mut framer = GameFramer::new(text);
    let mut written = 0;
    while let Some(raw) = framer.next_game() {
        let Ok(raw) = raw else { continue };
        let before = together.len();
        let done = converter.convert(&mut replayer, &raw, options, &mut together);
        let mut alone = Vec::new();
        converter.convert(&mut replayer, &raw, options, &mut alone);
        assert_eq!(
            String::from_utf8_lossy(&together[before..]),
            String::from_utf8_lossy(&alone),
            "game {} {options:?}",
            raw.number
        );
        if done.written == Some(Ok(())) {
            written += 1;
        } else {
            assert_eq!(together.len(), before, "game {}", raw.number);
        }
        apart.extend_from_slice(&alone);
    }
    assert_eq!(together, apart);
    written
}

/// Games whose tags the replay changes, between games that are and are
/// not written: each game's tags are rewritten in its own place.
#[test]
fn changed_tags_are_rewritten_in_place() {
    let text = b"[Event \"a\"]\n[White \"w\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
        [Event \"bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
        [Event \"b\"]\n[Result \"0-1\"]\n\n{c} 1. f3 e5 2. g4 Qh4# 0-1\n\n\
        1. d4 {x} (1. e4) d5 0-1\n";
    for options in option_sets().iter().chain(&tag_changing_options()) {
        assert_eq!(same_in_one_output(text, options), 3, "{options:?}");
    }
    // Without a `Result` tag, the tag section takes the result the
    // movetext ends with.
    let mut out = Vec::new();
    let raw = RawGame::from_bytes(b"[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let done = Converter::new().convert(&mut Replayer::new(), &raw, &option_sets()[0], &mut out);
    assert_eq!(done.written, Some(Ok(())));
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("[Result \"0-1\"]\n\n1. f3"), "{out}");
    // A fixed result goes to the tags and the movetext.
    let mut out = b"before\n\n".to_vec();
    let raw = RawGame::from_bytes(b"[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n");
    Converter::new().convert(
        &mut Replayer::new(),
        &raw,
        &tag_changing_options()[1],
        &mut out,
    );
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("before\n\n[Event \"?\"]"), "{out}");
    assert!(
        out.contains("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"),
        "{out}"
    );
}

/// The same over the corpus, with the options that change tags.
#[test]
fn corpus_games_in_one_output_equal_each_alone() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let files = corpus_files(&data.join("corpus"));
    let mut written = 0;
    for options in &tag_changing_options() {
        for path in &files {
            written += same_in_one_output(&std::fs::read(path).unwrap(), options);
        }
    }
    assert!(written > 4 * 5000, "{written}");
}
