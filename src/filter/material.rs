//! Material patterns as pgn-extract's `-z` reads them: `"q*r+l*p+
//! q=r1<=l2>=p1<"`, each side's pieces with counts, wildcards and counts
//! relative to the other side, matched for either side, and held for a
//! number of half-moves.

use std::fmt;

use crate::{board::Board, color::Color, role::Role};

/// How many half-moves a pattern must last when the text gives no number
/// (pgn-extract's default).
pub const DEFAULT_STABILITY: u32 = 2;

/// The kinds of pieces a side's text constrains: queen, rook, bishop,
/// knight, pawn, and `L`, a minor piece (bishop or knight).
const KINDS: [char; 6] = ['q', 'r', 'b', 'n', 'p', 'l'];
const MINOR: usize = 5;

/// A text after `material` that is no pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePatternError {
    /// Not two sides (and an optional number before them).
    Sides,
    /// A character that is no piece letter where one is due.
    NotAPiece(char),
    /// A piece letter given twice for one side.
    Repeated(char),
    /// `L` with `B` or `N` for one side.
    MinorMixed,
}

impl fmt::Display for ParsePatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePatternError::Sides => f.write_str(
                "a pattern is [HALF-MOVES] PIECES PIECES, e.g. \"rp nb\" or \"10 r2p+ r=p*\"",
            ),
            ParsePatternError::NotAPiece(c) => {
                write!(
                    f,
                    "`{c}` is no piece letter (K Q R B N P, L for a minor piece)"
                )
            }
            ParsePatternError::Repeated(c) => write!(f, "`{c}` is given twice for one side"),
            ParsePatternError::MinorMixed => {
                f.write_str("`L` (a minor piece) with `B` or `N` for one side")
            }
        }
    }
}

impl std::error::Error for ParsePatternError {}

/// What one kind of piece of a side must number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    /// Anything (`*`, or B and N of a side given as `L`).
    Any,
    /// At least this many (`+`, `d+`).
    AtLeast(u8),
    /// At most this many (`d-`).
    AtMost(u8),
    /// Exactly this many (no mark, `d`).
    Exactly(u8),
    /// The same as the other side (`=`).
    Same,
    /// Not the same as the other side (`#`).
    Different,
    /// At least this many more than the other side (`>`, `d>`).
    More(u8),
    /// At least this many fewer than the other side (`<`, `d<`).
    Fewer(u8),
    /// Exactly this many more than the other side (`>=`, `d>=`).
    ExactlyMore(u8),
    /// Exactly this many fewer than the other side (`<=`, `d<=`).
    ExactlyFewer(u8),
}

impl Count {
    fn holds(self, mine: u32, theirs: u32) -> bool {
        let (mine, theirs) = (i64::from(mine), i64::from(theirs));
        match self {
            Count::Any => true,
            Count::AtLeast(d) => mine >= i64::from(d),
            Count::AtMost(d) => mine <= i64::from(d),
            Count::Exactly(d) => mine == i64::from(d),
            Count::Same => mine == theirs,
            Count::Different => mine != theirs,
            Count::More(d) => mine - theirs >= i64::from(d),
            Count::Fewer(d) => theirs - mine >= i64::from(d),
            Count::ExactlyMore(d) => mine - theirs == i64::from(d),
            Count::ExactlyFewer(d) => theirs - mine == i64::from(d),
        }
    }
}

/// A material pattern: what each of two sides has, matched with either
/// side as the first, over a number of half-moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialPattern {
    sides: [[Count; 6]; 2],
    stability: u32,
}

/// One side's pieces, as counts of queens, rooks, bishops, knights, pawns
/// and minor pieces.
type Counts = [u32; 6];

fn counts(board: &Board, color: Color) -> Counts {
    let mine = board.by_color(color);
    let n = |role: Role| (board.by_role(role) & mine).count() as u32;
    let (b, kn) = (n(Role::Bishop), n(Role::Knight));
    [n(Role::Queen), n(Role::Rook), b, kn, n(Role::Pawn), b + kn]
}

impl MaterialPattern {
    /// Parses `[HALF-MOVES] PIECES PIECES` as pgn-extract's `-z` files
    /// write a line: each side is piece letters (case-insensitive; K may
    /// be left out; L is a bishop or knight), each followed by how many:
    /// nothing (one), `*` (any), `+` (one or more), `d`, `d+`, `d-`, or
    /// relative to the other side's number of the same piece: `=`, `#`,
    /// `>`/`d>` (at least d more), `<`/`d<`, `>=`/`d>=` (exactly d more),
    /// `<=`/`d<=`. A piece left out is absent.
    ///
    /// # Errors
    /// Anything else, with what is wrong.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::MaterialPattern;
    /// assert!("rp nb".parse::<MaterialPattern>().is_ok());
    /// assert!("10 r2p+ r=p*".parse::<MaterialPattern>().is_ok());
    /// assert!("q*r+l*p+ q=r1<=l2>=p1<".parse::<MaterialPattern>().is_ok());
    /// assert!("rx r".parse::<MaterialPattern>().is_err());
    /// ```
    pub fn parse(text: &str) -> Result<MaterialPattern, ParsePatternError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (stability, sides) = match words.as_slice() {
            [n, a, b] if n.bytes().all(|c| c.is_ascii_digit()) => {
                (n.parse().map_err(|_| ParsePatternError::Sides)?, [*a, *b])
            }
            [a, b] => (DEFAULT_STABILITY, [*a, *b]),
            _ => return Err(ParsePatternError::Sides),
        };
        Ok(MaterialPattern {
            sides: [side(sides[0])?, side(sides[1])?],
            stability,
        })
    }

    /// How many half-moves the material must last.
    pub fn stability(&self) -> u32 {
        self.stability
    }

    /// Whether `board` has the material, the first side being White's or
    /// Black's.
    pub fn matches(&self, board: &Board) -> bool {
        let [white, black] = Color::ALL.map(|c| counts(board, c));
        let fits = |first: &Counts, second: &Counts| {
            fits(&self.sides[0], first, second) && fits(&self.sides[1], second, first)
        };
        fits(&white, &black) || fits(&black, &white)
    }
}

impl std::str::FromStr for MaterialPattern {
    type Err = ParsePatternError;

    fn from_str(text: &str) -> Result<MaterialPattern, ParsePatternError> {
        MaterialPattern::parse(text)
    }
}

/// Whether a side with `mine` fits `spec` against `theirs`.
fn fits(spec: &[Count; 6], mine: &Counts, theirs: &Counts) -> bool {
    spec.iter()
        .zip(mine.iter().zip(theirs))
        .all(|(count, (&m, &t))| count.holds(m, t))
}

/// One side's text.
fn side(text: &str) -> Result<[Count; 6], ParsePatternError> {
    let mut spec = [Count::Exactly(0); 6];
    let mut given = [false; 6];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let letter = c.to_ascii_lowercase();
        let count = {
            let digit = chars.peek().and_then(|c| c.to_digit(10));
            if digit.is_some() {
                chars.next();
            }
            let d = digit.and_then(|d| u8::try_from(d).ok());
            let mut next = |want: char| chars.next_if_eq(&want).is_some();
            if next('*') {
                Count::Any
            } else if next('+') {
                Count::AtLeast(d.unwrap_or(1))
            } else if next('-') {
                Count::AtMost(d.unwrap_or(0))
            } else if next('=') {
                Count::Same
            } else if next('#') {
                Count::Different
            } else if next('>') {
                if next('=') {
                    Count::ExactlyMore(d.unwrap_or(1))
                } else {
                    Count::More(d.unwrap_or(1))
                }
            } else if next('<') {
                if next('=') {
                    Count::ExactlyFewer(d.unwrap_or(1))
                } else {
                    Count::Fewer(d.unwrap_or(1))
                }
            } else {
                Count::Exactly(d.unwrap_or(1))
            }
        };
        if letter == 'k' {
            continue;
        }
        let kind = KINDS
            .iter()
            .position(|&k| k == letter)
            .ok_or(ParsePatternError::NotAPiece(c))?;
        if given[kind] {
            return Err(ParsePatternError::Repeated(c));
        }
        given[kind] = true;
        spec[kind] = count;
    }
    // A side given by minor pieces leaves bishops and knights apart free;
    // one given by bishops and knights leaves their sum free.
    if given[MINOR] {
        if given[2] || given[3] {
            return Err(ParsePatternError::MinorMixed);
        }
        spec[2] = Count::Any;
        spec[3] = Count::Any;
    } else {
        spec[MINOR] = Count::Any;
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;

    fn board(fen: &str) -> Board {
        Setup::from_fen(fen).map(|s| s.board).expect("a FEN")
    }

    #[test]
    fn patterns_on_positions() {
        // White: K, 2 R, 3 P; Black: K, R, B, N, 2 P.
        let b = board("4k3/pp6/2bn4/8/8/8/PPP5/R2RK2r w - - 0 1");
        let cases = [
            ("r2p3 rbnp2", true),
            ("rbnp2 r2p3", true),
            ("r2p+ r=p#", false),
            ("r2p+ r<p#", false),
            ("r2p+ r<p#bn", true),
            ("r2p* rl2p*", true),
            ("r2p* rlp*", false),
            ("r2p* rl2-p*", true),
            ("r>p1>= r1<=l2p1<=", true),
            ("r>p1>= r1<=l2p2<=", false),
            ("r* r*", false),
            ("r*p* r*p*b*n*", true),
            ("kr2p3 krbnp2", true),
            ("q*r2p3 rbnp2", true),
            ("q+r2p3 rbnp2", false),
        ];
        for (text, expected) in cases {
            let pattern = MaterialPattern::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(pattern.matches(&b), expected, "{text}");
            assert_eq!(pattern.stability(), DEFAULT_STABILITY);
        }
    }

    #[test]
    fn mistakes() {
        let cases = [
            ("r", ParsePatternError::Sides),
            ("1 2 r r", ParsePatternError::Sides),
            ("rx r", ParsePatternError::NotAPiece('x')),
            ("rr r", ParsePatternError::Repeated('r')),
            ("lb r", ParsePatternError::MinorMixed),
        ];
        for (text, err) in cases {
            assert_eq!(MaterialPattern::parse(text), Err(err), "{text}");
        }
        assert_eq!(
            MaterialPattern::parse("10 r r").map(|p| p.stability()),
            Ok(10)
        );
    }
}
