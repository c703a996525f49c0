//! Pictures of a position: a text diagram for the terminal and an SVG
//! image for documents and web pages.
//!
//! Both show the board from White's side (or Black's, [`View::flipped`]),
//! with coordinates, the side to move and the squares of the last move.
//! The SVG draws its own pieces as plain shapes, so it renders the same
//! everywhere, with no font needed.

use std::fmt::Write as _;

use crate::color::Color;
use crate::position::Position;
use crate::role::{Piece, Role};
use crate::square::{File, Rank, Square};

/// How a position is shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct View {
    /// From Black's side: the eighth rank at the bottom.
    pub flipped: bool,
    /// The move that reached the position (origin, target): its squares are
    /// marked.
    pub last_move: Option<(Square, Square)>,
    /// Text: ANSI colours for the squares and pieces (a terminal); without
    /// them, white pieces are outlined figurines, black ones solid.
    pub ansi: bool,
    /// Text: letters (`K Q R B N P`, lower case for Black) instead of
    /// figurines, for terminals without chess glyphs.
    pub letters: bool,
}

/// The squares row by row as seen: the top row first, each left to right.
fn rows(view: &View) -> impl Iterator<Item = (Rank, [File; 8])> {
    let mut ranks = Rank::ALL;
    let mut files = File::ALL;
    if view.flipped {
        files.reverse();
    } else {
        ranks.reverse();
    }
    ranks.into_iter().map(move |rank| (rank, files))
}

fn marked(view: &View, sq: Square) -> bool {
    view.last_move
        .is_some_and(|(from, to)| sq == from || sq == to)
}

fn side_to_move(pos: &Position) -> &'static str {
    match pos.turn() {
        Color::White => "White to move",
        Color::Black => "Black to move",
    }
}

/// The glyph of `piece` in a text diagram.
fn glyph(piece: Piece, view: &View) -> char {
    if view.letters {
        return match piece.color {
            Color::White => piece.role.upper_char(),
            Color::Black => piece.role.char(),
        };
    }
    // With colours the pieces are told apart by colour: solid glyphs,
    // which fill better, for both sides.
    let solid = view.ansi || piece.color == Color::Black;
    match (piece.role, solid) {
        (role, false) => role.figurine(),
        (Role::Pawn, true) => '♟',
        (Role::Knight, true) => '♞',
        (Role::Bishop, true) => '♝',
        (Role::Rook, true) => '♜',
        (Role::Queen, true) => '♛',
        (Role::King, true) => '♚',
    }
}

/// A text diagram of `pos`: eight rows of squares with the rank on the
/// left, the files below, and the side to move.
///
/// # Examples
/// ```
/// use pgnkit::Position;
/// use pgnkit::diagram::{self, View};
///
/// let text = diagram::text(&Position::startpos(), &View::default());
/// assert_eq!(text.lines().next(), Some("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"));
/// assert_eq!(text.lines().nth(8), Some("  a b c d e f g h"));
/// assert!(text.ends_with("White to move\n"));
/// ```
pub fn text(pos: &Position, view: &View) -> String {
    let board = pos.board();
    let mut out = String::new();
    for (rank, files) in rows(view) {
        out.push(rank.char());
        for file in files {
            let sq = Square::from_coords(file, rank);
            let piece = board.piece_at(sq);
            if view.ansi {
                // Squares as the SVG colours them, three cells wide.
                let (r, g, b) = square_rgb(sq, marked(view, sq));
                let _ = write!(out, "\x1b[48;2;{r};{g};{b}m");
                match piece {
                    Some(p) => {
                        let fg = match p.color {
                            Color::White => "255;255;255",
                            Color::Black => "0;0;0",
                        };
                        let _ = write!(out, "\x1b[38;2;{fg}m {} ", glyph(p, view));
                    }
                    None => out.push_str("   "),
                }
            } else {
                out.push(' ');
                out.push(piece.map_or('·', |p| glyph(p, view)));
            }
        }
        if view.ansi {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    let (_, files) = rows(view).next().unwrap_or((Rank::FIRST, File::ALL));
    out.push(' ');
    for file in files {
        if view.ansi {
            let _ = write!(out, " {} ", file.char());
        } else {
            out.push(' ');
            out.push(file.char());
        }
    }
    out.push('\n');
    out.push_str(side_to_move(pos));
    out.push('\n');
    out
}

/// Side of a square in the SVG, in its units.
pub const SQUARE: u32 = 45;
/// The margin around the board that holds the coordinates.
pub const MARGIN: u32 = 20;

/// The colour of `sq` (light or dark, marked or not), as RGB.
pub const fn square_rgb(sq: Square, marked: bool) -> (u8, u8, u8) {
    match (sq.is_light(), marked) {
        (true, false) => (240, 217, 181),
        (false, false) => (181, 136, 99),
        (true, true) => (205, 210, 106),
        (false, true) => (170, 162, 58),
    }
}

/// The outline of each piece in a square of [`SQUARE`] units, as SVG
/// path data. Every outline covers the square's centre.
const fn outline(role: Role) -> &'static str {
    match role {
        Role::Pawn => {
            "M22.5 8a5.5 5.5 0 1 1 0 11a5.5 5.5 0 1 1 0-11z\
             M19.5 19h6l3.5 15h-13z M12 34h21v4h-21z"
        }
        Role::Knight => "M13 38h20l-2-13l-3-11l-6-6l-2 3l-8 8v5l4 1l4-4l-1 6l-6 6z",
        Role::Bishop => {
            "M22.5 5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 1 1 0-5z\
             M22.5 10c5 3 8 7 8 12c0 5-3 8-8 9c-5-1-8-4-8-9c0-5 3-9 8-12z\
             M13 31h19v3h-19z M10 35h25v3h-25z"
        }
        Role::Rook => "M11 8h5v3h4v-3h5v3h4v-3h5v7l-3 3v15h-17v-15l-3-3z M9 33h27v5h-27z",
        Role::Queen => {
            "M11 36h23l2-23l-7 10l-2-13l-4.5 11l-4.5-11l-2 13l-7-10z\
             M9 13a2 2 0 1 1 0.1 0z M18 10a2 2 0 1 1 0.1 0z\
             M27 10a2 2 0 1 1 0.1 0z M36 13a2 2 0 1 1 0.1 0z"
        }
        Role::King => {
            "M21 4h3v4h3v3h-3v6h-3v-6h-3v-3h3z\
             M11 36h23l2-14l-6-4l-7.5 3l-7.5-3l-6 4z"
        }
    }
}

/// An SVG image of `pos`: the board with its coordinates, the squares of
/// the last move marked, and a disc beside the board on the side of the
/// player to move.
///
/// # Examples
/// ```
/// use pgnkit::Position;
/// use pgnkit::diagram::{self, View};
///
/// let svg = diagram::svg(&Position::startpos(), &View::default());
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<path").count(), 32);
/// ```
pub fn svg(pos: &Position, view: &View) -> String {
    let size = 8 * SQUARE + 2 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" \
         width=\"{size}\" height=\"{size}\">"
    );
    let _ = writeln!(out, "<title>{}</title>", side_to_move(pos));
    let _ = writeln!(
        out,
        "<rect width=\"{size}\" height=\"{size}\" fill=\"rgb(64,61,57)\"/>"
    );
    let board = pos.board();
    for (row, (rank, files)) in rows(view).enumerate() {
        let y = MARGIN + SQUARE * row as u32;
        for (column, file) in files.into_iter().enumerate() {
            let x = MARGIN + SQUARE * column as u32;
            let sq = Square::from_coords(file, rank);
            let (r, g, b) = square_rgb(sq, marked(view, sq));
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
                 fill=\"rgb({r},{g},{b})\"/>"
            );
            if let Some(piece) = board.piece_at(sq) {
                let (fill, stroke) = match piece.color {
                    Color::White => ("#ffffff", "#000000"),
                    Color::Black => ("#202020", "#000000"),
                };
                let _ = writeln!(
                    out,
                    "<path transform=\"translate({x} {y})\" d=\"{}\" fill=\"{fill}\" \
                     stroke=\"{stroke}\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>",
                    outline(piece.role)
                );
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"13\" \
             fill=\"#ffffff\" text-anchor=\"middle\">{}</text>",
            MARGIN / 2,
            y + SQUARE / 2 + 5,
            rank.char()
        );
    }
    let (_, files) = rows(view).next().unwrap_or((Rank::FIRST, File::ALL));
    for (column, file) in files.into_iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"13\" \
             fill=\"#ffffff\" text-anchor=\"middle\">{}</text>",
            MARGIN + SQUARE * column as u32 + SQUARE / 2,
            size - MARGIN / 2 + 5,
            file.char()
        );
    }
    // The disc of the side to move, beside its own back rank.
    let bottom = (pos.turn() == Color::White) != view.flipped;
    let cy = if bottom {
        size - MARGIN / 2
    } else {
        MARGIN / 2
    };
    let fill = match pos.turn() {
        Color::White => "#ffffff",
        Color::Black => "#202020",
    };
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{cy}\" r=\"6\" fill=\"{fill}\" stroke=\"#ffffff\"/>",
        size - MARGIN / 2
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_diagram_of_a_position_after_a_move() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .expect("a legal position");
        let view = View {
            last_move: Some((Square::E2, Square::E4)),
            ..View::default()
        };
        assert_eq!(
            text(&pos, &view),
            "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n\
             7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟\n\
             6 · · · · · · · ·\n\
             5 · · · · · · · ·\n\
             4 · · · · ♙ · · ·\n\
             3 · · · · · · · ·\n\
             2 ♙ ♙ ♙ ♙ · ♙ ♙ ♙\n\
             1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n\
             \x20 a b c d e f g h\n\
             Black to move\n"
        );
        let flipped = View {
            flipped: true,
            letters: true,
            ..view
        };
        assert_eq!(
            text(&pos, &flipped),
            "1 R N B K Q B N R\n\
             2 P P P · P P P P\n\
             3 · · · · · · · ·\n\
             4 · · · P · · · ·\n\
             5 · · · · · · · ·\n\
             6 · · · · · · · ·\n\
             7 p p p p p p p p\n\
             8 r n b k q b n r\n\
             \x20 h g f e d c b a\n\
             Black to move\n"
        );
    }

    #[test]
    fn ansi_diagram_marks_the_last_move() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("a legal position");
        let view = View {
            ansi: true,
            last_move: Some((Square::H2, Square::H1)),
            ..View::default()
        };
        let text = text(&pos, &view);
        let first = text.lines().next().expect("a first row");
        assert!(first.starts_with("8\x1b[48;2;240;217;181m   \x1b[48;2;181;136;99m   "));
        let last = text.lines().nth(7).expect("the first rank");
        // h1 is light and marked, and holds a white rook.
        assert!(last.ends_with("\x1b[48;2;205;210;106m\x1b[38;2;255;255;255m ♜ \x1b[0m"));
        assert!(text.ends_with("  a  b  c  d  e  f  g  h \nWhite to move\n"));
    }
}
