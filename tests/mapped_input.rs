//! Plain files of at least `input::MAP_MIN_BYTES` are mapped into memory and
//! framed in place; everything else is read through the framer's buffer.
//! Both ways must give the same games, to the byte, with the same numbers,
//! offsets, lines and comment indexes, the same refusals of oversized
//! games, and the same command output; the engine gives them, and their
//! records, the same with every way of reading.

mod cli_support;

use std::fs::File;
use std::time::Duration;

use pgnkit::engine::{self, Item, Options};
use pgnkit::input::{self, MAP_MIN_BYTES, OpenOptions};

use pgnkit::pgn::{GameFramer, RawGame, ReadPgnError};

/// Games in every line-end style, with the framing traps: tag lines inside
/// multi-line comments, a `{` in a `;` comment and in a tag value, escape
/// lines, a game without tags, two games too large for a 64 KiB bound, and
/// the boundary traps of the import format (see below).
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
                match n {
                    54 => "x".repeat(200 << 10),
                    // Tag lines 1,500 bytes apart in one comment: cuts
                    // inside one game, pieces it covers whole.
                    59 => format!("{}\n[Event \"inside\"]\n", "y".repeat(1500)).repeat(20),
                    _ => "%clk 0:05:00".into(),
                }
            ),
        };
        text.extend_from_slice(game.as_bytes());
        if n == 54 {
            // After a game over the bound: movetext without tags, which
            // that game swallows (it ends at the next tag line).
            text.extend_from_slice(b"1. d4 d5 *\n\n");
        }
        // The boundary traps: tag sections without movetext (the second
        // repeats the first's names), blank lines and `%` lines inside
        // movetext with line ends converted twice, a blank line inside a
        // tag section, byte-order marks, form feeds and vertical tabs; a
        // `{` left open, over a blank line into the next game's tags, once
        // with a line long enough to hold cuts.
        let boundary: &[u8] = match n % 7 {
            1 => b"[Event \"round\"]\n[White \"a\"]\n\n[Event \"round\"]\n[White \"b\"]\n\n",
            2 => b"[Event \"c\"]\r\r\n\r\r\n1. e4 {a}\r\r\n\r\r\n% x\r\r\n\r\r\ne5 (1... c5\r\r\n\r\r\n*) 2. Nf3 1-0\r\r\n\r\r\n",
            3 => b"\xEF\xBB\xBF[Event \"b\"]\x0b\n\n\x0c[White \"f\"]\n\n1. d4 {f}\x0c\n\n\xEF\xBB\xBF d5 *\n\x0c\n",
            4 => b"[Event \"open\"]\r\n\r\n1. e4 {oops e5 *\r\n\r\n",
            5 if n % 3 == 0 || n == 40 => b"[Event \"long\"]\n\n1. d4 {",
            _ => b"",
        };
        text.extend_from_slice(boundary);
        if n % 7 == 5 && (n % 3 == 0 || n == 40) {
            // Lines that hold cuts, and blank lines too long to count as
            // such; game 40's is over the size bound.
            let line = format!("{}\n{}\n[Event \"x\"]\n", "z".repeat(1500), " ".repeat(300));
            text.extend(line.repeat(if n == 40 { 50 } else { 3 }).bytes());
            text.extend_from_slice(b"\n\n");
        }
    }
    text
}

type Framed = Result<(u64, u64, u64, Vec<u8>, usize), String>;

fn frame<R: std::io::Read>(mut framer: GameFramer<R>) -> Vec<Framed> {
    let mut games = Vec::new();
    while let Some(game) = framer.next_game() {
        games.push(summary(game));
    }
    games
}

/// What the tests compare of a framed game: where it came from, its text
/// and its comment count; or the refusal of an oversized game.
fn summary(game: Result<RawGame<'_>, ReadPgnError>) -> Framed {
    match game {
        Ok(g) => Ok(summary_of(&g)),
        Err(err @ ReadPgnError::GameTooLarge { .. }) => Err(err.to_string()),
        Err(err) => panic!("{err}"),
    }
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
    for (a, b) in mapped.iter().zip(&read) {
        assert!(a == b, "mapped {a:?}\nread {b:?}");
    }
    assert_eq!(mapped.len(), read.len());
    // A `{` left open ends its game before the next one's tags.
    let open = |g: &&(u64, u64, u64, Vec<u8>, usize)| g.3.ends_with(b"{oops e5 *");
    assert!(read.iter().flatten().filter(open).count() > 10);
    let long = |g: &&(u64, u64, u64, Vec<u8>, usize)| g.3.ends_with(b"[Event \"x\"]");
    assert!(read.iter().flatten().filter(long).count() > 2);
    let refused = mapped.iter().filter(|g| g.is_err()).count();
    assert_eq!(refused, 2, "the two oversized games");
    assert!(
        mapped
            .iter()
            .flatten()
            .filter(|g| g.3.contains(&b'}'))
            .all(|g| g.4 > 0),
        "every game with a comment has indexed comments"
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
    // With mapping off, a file that would be mapped is read.
    let mut read = OpenOptions { map: false }.open(&path).expect("open");
    assert!(read.take_mapped().is_none());
    let mut all = Vec::new();
    std::io::Read::read_to_end(&mut read, &mut all).expect("read");
    assert_eq!(all, text);
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
        &["filter", "--jobs", "2", "-e", "plies >= 3"],
        &[
            "filter",
            "--jobs",
            "2",
            "-v",
            "--first",
            "40",
            "-e",
            "plies >= 3",
        ],
        &["filter", "--jobs", "2", "-e", "plies >= 0"],
    ] {
        let mapped = cli_support::pgnkit(&[args, &[path]].concat());
        // In pieces of a few KiB, each framed by a worker of its own.
        let pieces =
            cli_support::pgnkit_envs(&[args, &[path]].concat(), &[("PGNKIT_BATCH_BYTES", "3000")]);
        assert!(pieces.stdout == mapped.stdout, "{args:?}: pieces");
        assert!(pieces.stderr == mapped.stderr, "{args:?}: pieces");
        // And with workers that never wait for the pieces before theirs:
        // the writer settles those pieces and does their work.
        let impatient = cli_support::pgnkit_envs(
            &[args, &[path]].concat(),
            &[
                ("PGNKIT_BATCH_BYTES", "3000"),
                ("PGNKIT_PIECE_PATIENCE_MS", "0"),
            ],
        );
        assert!(impatient.stdout == mapped.stdout, "{args:?}: impatient");
        assert!(impatient.stderr == mapped.stderr, "{args:?}: impatient");
        // And with pieces that stop after a few games: each piece after
        // one that stopped early is framed again from there, and the text
        // after the last piece is cut again.
        let short = cli_support::pgnkit_envs(
            &[args, &[path]].concat(),
            &[("PGNKIT_BATCH_BYTES", "3000"), ("PGNKIT_PIECE_GAMES", "2")],
        );
        assert!(short.stdout == mapped.stdout, "{args:?}: short pieces");
        assert!(short.stderr == mapped.stderr, "{args:?}: short pieces");
        if args.contains(&"plies >= 0") {
            // Every record, byte for byte: the file itself.
            assert!(
                mapped.stdout.as_bytes() == text,
                "filter gives the file back"
            );
        }
        let unmapped =
            cli_support::pgnkit_envs(&[args, &[path]].concat(), &[("PGNKIT_NO_MMAP", "1")]);
        assert!(unmapped.stdout == mapped.stdout, "{args:?}: not mapped");
        assert!(unmapped.stderr == mapped.stderr, "{args:?}: not mapped");
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

/// Where a game came from, its text and its comment count.
fn summary_of(g: &RawGame<'_>) -> (u64, u64, u64, Vec<u8>, usize) {
    (
        g.number,
        g.offset,
        g.first_line,
        g.bytes.to_vec(),
        g.comments.len(),
    )
}

/// A framed game without its text, for messages.
fn place(game: &Framed) -> Result<(u64, u64, u64, usize, usize), String> {
    game.clone()
        .map(|(n, o, l, text, c)| (n, o, l, text.len(), c))
}

/// What the engine hands the per-game function: the game as [`summary`]
/// has it, and its record.
type Handed = (Framed, Vec<u8>);

/// What the engine hands on, collected.
type Collect = cli_support::Collect<Handed>;

fn through_engine(path: &std::path::Path, options: &Options) -> Vec<Handed> {
    let mut sink = Collect::default();
    let game = |(): &mut (), item: &Item<'_>, out: &mut Vec<Handed>| {
        let game = item.game.map(|g| summary_of(&g));
        out.push((game.map_err(ToString::to_string), item.record.to_vec()));
    };
    engine::run(options, &[path.to_path_buf()], || (), game, &mut sink).expect("the run");
    assert_eq!(sink.failures, Vec::<String>::new());
    sink.games
}

/// Each game names its input by its place among the paths, also when a
/// path is given twice, one job or several, mapped or read.
#[test]
fn items_name_their_input_by_place() {
    let one = cli_support::temp_file("mapped-places", "one.pgn", b"1. e4 *\n\n1. d4 *\n");
    let two = cli_support::temp_file("mapped-places", "two.pgn", b"1. c4 *\n");
    let paths = [one.clone(), two.clone(), one.clone()];
    let (one, two) = (one.display().to_string(), two.display().to_string());
    let expected = [
        (0, &one, 1),
        (0, &one, 2),
        (1, &two, 1),
        (2, &one, 1),
        (2, &one, 2),
    ]
    .map(|(input, name, number)| (input, name.clone(), number));
    for (jobs, map) in [(1, true), (1, false), (2, true), (2, false)] {
        let options = Options {
            jobs,
            map,
            piece_bytes: Some(1),
            ..Options::default()
        };
        let mut sink = cli_support::Collect::default();
        let game = |(): &mut (), item: &Item<'_>, out: &mut Vec<(usize, String, u64)>| {
            let number = item.game.map_or(0, |g| g.number);
            out.push((item.input, item.name.to_string(), number));
        };
        engine::run(&options, &paths, || (), game, &mut sink).expect("the run");
        assert_eq!(sink.games, expected, "jobs {jobs}, map {map}");
    }
}

#[test]
fn the_engine_reads_the_same_games_every_way() {
    let text = archive();
    let path = cli_support::temp_file("mapped-engine", "archive.pgn", &text);
    let expected = frame(GameFramer::new(&text[..]));
    let ways = [
        // One job, framed in place; a stream of small batches; pieces,
        // settled by the workers or, with no patience, by the writer.
        (1, true, None, Duration::from_millis(100)),
        (2, false, None, Duration::from_millis(100)),
        (2, true, Some(3000), Duration::from_millis(100)),
        (2, true, Some(3000), Duration::ZERO),
        (3, true, None, Duration::from_millis(100)),
        // Pieces of every size, down to one byte (a cut at each likely
        // game start): the archive's traps make wrong cuts, framed again
        // or dropped (src/pgn/pieces.rs tests that they occur).
        (2, true, Some(1), Duration::from_millis(100)),
        (2, true, Some(997), Duration::ZERO),
        (3, true, Some(65_536), Duration::from_millis(100)),
    ]
    .map(|(jobs, map, piece_bytes, patience)| (jobs, map, piece_bytes, patience, None));
    // Pieces that stop after a few games, framed again from there.
    let short = [
        (2, true, Some(3000), Duration::from_millis(100), Some(1)),
        (2, true, Some(65_536), Duration::ZERO, Some(3)),
        (3, true, None, Duration::from_millis(100), Some(2)),
    ];
    for records in [false, true] {
        for (jobs, map, piece_bytes, patience, piece_games) in ways.into_iter().chain(short) {
            let options = Options {
                jobs,
                batch_bytes: 3000,
                piece_bytes,
                piece_games: piece_games.unwrap_or(engine::PIECE_GAMES),
                patience,
                map,
                records,
                ..Options::default()
            };
            let handed = through_engine(&path, &options);
            let games: Vec<Framed> = handed.iter().map(|(game, _)| game.clone()).collect();
            // The first game that differs, where they differ.
            let differs = (0..games.len().max(expected.len()))
                .find(|&i| games.get(i) != expected.get(i))
                .map(|i| (i, games.get(i).map(place), expected.get(i).map(place)));
            assert_eq!(differs, None, "{options:?}");
            let joined: Vec<u8> = handed.iter().flat_map(|(_, r)| r.clone()).collect();
            if records {
                assert!(joined == text, "records of {options:?}");
            } else {
                assert!(joined.is_empty(), "{options:?}");
            }
        }
    }
}
