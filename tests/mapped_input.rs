//! Plain files of at least `input::MAP_MIN_BYTES` are mapped into memory and
//! framed in place; everything else is read through the framer's buffer.
//! Both ways must give the same games, to the byte, with the same numbers,
//! offsets, lines and comment indexes, the same refusals of oversized
//! games, and the same command output.

mod cli_support;

use std::fs::File;

use pgnkit::input::{self, MAP_MIN_BYTES};
use pgnkit::pgn::{GameFramer, ReadPgnError};

/// Games in every line-end style, with the framing traps: a tag line inside
/// a multi-line comment, a `{` in a `;` comment and in a tag value, escape
/// lines, a game without tags, and a game too large for a 64 KiB bound.
fn archive() -> Vec<u8> {
    let mut text = b"\xEF\xBB\xBF".to_vec();
    let mut n = 0;
    while (text.len() as u64) < MAP_MIN_BYTES + (MAP_MIN_BYTES >> 2) {
        n += 1;
        let game = match n % 5 {
            0 => format!(
                "[Event \"g{n} {{\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 {{multi\r\n[Event \"no\"]\r\nline}} e5 ; {{x\r\n2. Nf3 {{a}}{{b}} (2. d4 {{c}}) Nc6 1-0\r\n\r\n"
            ),
            1 => format!("[Event \"g{n}\"]\n\n1. d4 {{lf}} d5\n2. c4 $1 {{q\nr}} *\n\n"),
            2 => format!("% escape {n}\r[Event \"g{n}\"]\r\r1. c4 {{cr\r}} e5 *\r\r"),
            3 => format!("1. e4 {{no tags {n}}} c5 2. Nf3 *\n\n"),
            _ => format!(
                "[Event \"g{n}\"]\n\n1. e4 {{{}}} e5 *\n\n",
                if n == 54 {
                    "x".repeat(200 << 10)
                } else {
                    "%clk 0:05:00".into()
                }
            ),
        };
        text.extend_from_slice(game.as_bytes());
    }
    text
}

type Framed = Result<(u64, u64, u64, Vec<u8>, usize), String>;

fn frame<R: std::io::Read>(mut framer: GameFramer<R>) -> Vec<Framed> {
    let mut games = Vec::new();
    while let Some(game) = framer.next_game() {
        games.push(match game {
            Ok(g) => Ok((
                g.number,
                g.offset,
                g.first_line,
                g.bytes.to_vec(),
                g.comments.len(),
            )),
            Err(err @ ReadPgnError::GameTooLarge { .. }) => Err(err.to_string()),
            Err(err) => panic!("{err}"),
        });
    }
    games
}

#[test]
fn mapped_files_frame_like_read_ones() {
    let text = archive();
    let path = cli_support::temp_file("mapped", "archive.pgn", &text);
    let mut input = input::open(&path).expect("open");
    assert!(
        input.take_mapped().is_some(),
        "a plain file this size is mapped"
    );

    let input = input::open(&path).expect("open");
    let progress = input.bytes_read();
    let mapped = frame(GameFramer::for_input(input).with_max_game_bytes(64 << 10));
    assert_eq!(
        progress.get(),
        text.len() as u64,
        "progress reaches the end"
    );
    let read =
        frame(GameFramer::new(File::open(&path).expect("open")).with_max_game_bytes(64 << 10));
    assert_eq!(mapped.len(), read.len());
    for (a, b) in mapped.iter().zip(&read) {
        assert!(a == b, "mapped {a:?}\nread {b:?}");
    }
    let refused = mapped.iter().filter(|g| g.is_err()).count();
    assert_eq!(refused, 1, "the one oversized game");
    assert!(
        mapped.iter().flatten().all(|g| g.4 > 0),
        "every game has indexed comments"
    );
}

#[test]
fn small_and_compressed_files_are_read() {
    let small = cli_support::temp_file("mapped-small", "small.pgn", b"1. e4 *\n");
    assert!(input::open(&small).expect("open").take_mapped().is_none());
    // Reading a mapped input through `Read` gives its bytes; the map can
    // then no longer be taken.
    let text = archive();
    let path = cli_support::temp_file("mapped-read", "archive.pgn", &text);
    let mut input = input::open(&path).expect("open");
    let mut first = [0; 5];
    std::io::Read::read_exact(&mut input, &mut first).expect("read");
    assert_eq!(&first, &text[..5]);
    assert!(input.take_mapped().is_none());
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut input, &mut rest).expect("read");
    assert_eq!(rest, &text[5..]);
}

#[test]
fn commands_give_the_same_output_mapped_and_read() {
    let text = archive();
    let path = cli_support::temp_file("mapped-cli", "archive.pgn", &text);
    let path = path.to_str().expect("utf-8 path");
    for args in [
        &["fen", "--jobs", "1"][..],
        &["fen", "--jobs", "2"],
        &["convert", "--to", "uci", "--jobs", "2"],
        &["validate", "--jobs", "1", "--format", "json"],
        &["validate", "--jobs", "2", "--strict"],
    ] {
        let mapped = cli_support::pgnkit(&[args, &[path]].concat());
        let read = cli_support::pgnkit_in(&[args, &["-"]].concat(), &text);
        assert_eq!(mapped.code, read.code, "{args:?}");
        assert!(
            !(mapped.stdout.is_empty() && mapped.stderr.is_empty()),
            "{args:?}"
        );
        assert_eq!(
            mapped.stdout.replace(path, "<stdin>"),
            read.stdout,
            "{args:?}"
        );
        assert_eq!(
            mapped.stderr.replace(path, "<stdin>"),
            read.stderr,
            "{args:?}"
        );
    }
}
