//! `pgnkit board`: the SVG rendered to pixels (resvg) and checked square by
//! square against the position, and the text diagrams against snapshots.

mod cli_support;

use cli_support::{pgnkit, pgnkit_bytes};
use pgnkit::diagram::{MARGIN, SQUARE};
use pgnkit::{Color, EpMode, Position, Square};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};

const EXAMPLE: &str = "fixtures/myschach.pgn";

/// The SVG rendered at its own size.
fn render(svg: &[u8]) -> Pixmap {
    let tree = Tree::from_data(svg, &Options::default()).expect("a valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn rgb(pixmap: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let p = pixmap.pixel(x, y).expect("inside the image");
    (p.red(), p.green(), p.blue())
}

/// Checks every square of `pixmap`: its corner has the square's colour
/// (marked for `marked`), its centre that colour when empty, white or
/// near-black under a white or black piece.
fn assert_board(pixmap: &Pixmap, pos: &Position, flipped: bool, marked: &[Square]) {
    assert_eq!(pixmap.width(), 8 * SQUARE + 2 * MARGIN);
    for sq in Square::all() {
        let (column, row) = if flipped {
            (7 - sq.file().index(), sq.rank().index())
        } else {
            (sq.file().index(), 7 - sq.rank().index())
        };
        let x = MARGIN + SQUARE * column as u32;
        let y = MARGIN + SQUARE * row as u32;
        let square = pgnkit::diagram::square_rgb(sq, marked.contains(&sq));
        assert_eq!(rgb(pixmap, x + 2, y + 2), square, "corner of {sq}");
        let centre = rgb(pixmap, x + SQUARE / 2, y + SQUARE / 2);
        match pos.board().piece_at(sq) {
            None => assert_eq!(centre, square, "empty {sq}"),
            Some(p) if p.color == Color::White => {
                assert_eq!(centre, (255, 255, 255), "white piece on {sq}");
            }
            Some(_) => assert_eq!(centre, (32, 32, 32), "black piece on {sq}"),
        }
    }
}

#[test]
fn svg_of_a_game_shows_its_final_position_and_last_move() {
    // Game 4 of the example ends 4. Qh5xf7#.
    let out = pgnkit_bytes(&["board", "--game", "4", "--format", "svg", EXAMPLE]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let fen = pgnkit(&["fen", EXAMPLE]).stdout;
    let fen = fen.lines().nth(3).expect("a fourth game");
    let pos = Position::from_fen(fen).expect("pgnkit's own FEN");
    assert_board(&render(&out.stdout), &pos, false, &[Square::H5, Square::F7]);
}

#[test]
fn svg_of_a_fen_from_blacks_side() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let out = pgnkit_bytes(&["board", "--fen", fen, "--format", "svg", "--flip"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let pos = Position::from_fen(fen).expect("a legal position");
    let pixmap = render(&out.stdout);
    assert_board(&pixmap, &pos, true, &[]);
    // White to move, seen from Black's side: the disc is at the top right.
    let size = pixmap.width();
    assert_eq!(rgb(&pixmap, size - MARGIN / 2, MARGIN / 2), (255, 255, 255));
    assert_ne!(
        rgb(&pixmap, size - MARGIN / 2, size - MARGIN / 2),
        (255, 255, 255)
    );
}

#[test]
fn text_diagrams_match_their_snapshots() {
    let out = pgnkit(&["board", "--game", "4", EXAMPLE]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "8 ♜ · ♝ ♛ ♚ ♝ · ♜\n\
         7 ♟ ♟ ♟ ♟ · ♕ ♟ ♟\n\
         6 · · ♞ · · ♞ · ·\n\
         5 · · · · ♟ · · ·\n\
         4 · · ♗ · ♙ · · ·\n\
         3 · · · · · · · ·\n\
         2 ♙ ♙ ♙ ♙ · ♙ ♙ ♙\n\
         1 ♖ ♘ ♗ · ♔ · ♘ ♖\n\
         \x20 a b c d e f g h\n\
         Black to move\n"
    );
    let out = pgnkit(&["board", "--ply", "2", "--letters", "--flip", EXAMPLE]);
    assert_eq!(
        out.stdout,
        "1 R N B K Q B N R\n\
         2 P P P · P P P P\n\
         3 · · · · · · · ·\n\
         4 · · · P · · · ·\n\
         5 · · · · · p · ·\n\
         6 · · · · · · · ·\n\
         7 p p p p p · p p\n\
         8 r n b k q b n r\n\
         \x20 h g f e d c b a\n\
         White to move\n"
    );
    // Coloured on request; the marked squares of 1...c5 (c7 and c5, both
    // dark), and nothing else marked.
    let out = pgnkit(&["board", "--ply", "2", "--color", "always", EXAMPLE]);
    assert_eq!(
        out.stdout.matches("\x1b[48;2;170;162;58m   ").count(),
        1,
        "c7"
    );
    assert_eq!(
        out.stdout
            .matches("\x1b[48;2;170;162;58m\x1b[38;2;0;0;0m ♟ ")
            .count(),
        1,
        "c5"
    );
    assert!(
        !out.stdout.contains("\x1b[48;2;205;210;106m"),
        "no light square marked"
    );
    let plain = pgnkit(&["board", "--ply", "2", EXAMPLE]);
    assert!(!plain.stdout.contains('\x1b'), "no colour in a pipe");
}

#[test]
fn positions_that_are_not_there_are_errors() {
    let out = pgnkit(&["board", "--game", "9", EXAMPLE]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("fewer than 9 games"), "{}", out.stderr);
    let out = pgnkit(&["board", "--game", "4", "--ply", "40", EXAMPLE]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("has only 7 plies"), "{}", out.stderr);
    let out = pgnkit(&["board", "--fen", "8/8/8/8 w - -"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("not a position"), "{}", out.stderr);
    // The start position of every game is drawn.
    let start = pgnkit(&["board", "--ply", "0", EXAMPLE]).stdout;
    let fen = Position::startpos();
    assert_eq!(
        start,
        pgnkit(&["board", "--fen", &fen.fen(EpMode::Always)]).stdout
    );
}

#[test]
fn positions_after_an_error_are_not_drawn() {
    use cli_support::pgnkit_in;
    // (game, --ply or none, drawn)
    let syntax = b"1. d4 d5 2. c4 } e6 3. Nc3 *\n";
    let impossible = b"[SetUp \"1\"]\n[FEN \"1k6/8/8/8/4n1n1/8/5K2/8 w - - 0 1\"]\n\n1. Kf1 *\n";
    // The first error's place and text, as `fen` and `validate` write it.
    let syntax_error = "<stdin>:1:16: error: game 1 (? - ?): unexpected character `}`";
    let fen_error = "<stdin>:2:7: error: game 1 (? - ?): FEN tag: position cannot arise";
    let cases: [(&[u8], Option<&str>, Option<&str>); 6] = [
        (syntax, None, Some(syntax_error)),
        (syntax, Some("5"), Some(syntax_error)),
        (syntax, Some("4"), Some(syntax_error)),
        (syntax, Some("3"), None),
        (impossible, None, Some(fen_error)),
        (impossible, Some("0"), Some(fen_error)),
    ];
    for (game, ply, error) in cases {
        let mut args = vec!["board", "--letters"];
        if let Some(ply) = ply {
            args.extend(["--ply", ply]);
        }
        let out = pgnkit_in(&args, game);
        let context = format!("{ply:?}: {}", String::from_utf8_lossy(game));
        match error {
            None => {
                assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{context}");
                assert!(out.stdout.contains("a b c d e f g h"), "{context}");
            }
            Some(error) => {
                assert_eq!((out.code, out.stdout.as_str()), (1, ""), "{context}");
                let lines: Vec<&str> = out.stderr.lines().collect();
                assert!(lines[0].starts_with(error), "{context}: {}", out.stderr);
                assert!(
                    lines.last().is_some_and(|l| l.starts_with(
                        "pgnkit board: game 1 of <stdin>: the position was not reached"
                    )),
                    "{context}: {}",
                    out.stderr
                );
            }
        }
    }
}
