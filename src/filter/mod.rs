//! Selecting games: a small typed expression language over tags, fields
//! the replay finds out (plies, status, …) and positions.
//!
//! ```text
//! filter    := or
//! or        := and ("or" and)*
//! and       := unary ("and" unary)*
//! unary     := "not" unary | primary
//! primary   := "(" or ")" | "valid" | "true"
//!            | "reaches" STRING | "material" PIECES "vs" PIECES
//!            | "material" STRING
//!            | FIELD OP (VALUE | FIELD) | FIELD ("=~" | "!~") REGEX
//!            | FIELD "in" LOW..HIGH
//! OP        := "=" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "~"
//! VALUE     := WORD | STRING           (STRING: "…" with \" and \\)
//! REGEX     := /…/ or /…/i             (\/ for a slash)
//! ```
//!
//! A `FIELD` is a tag (a name with an upper-case letter: `White`,
//! `WhiteDays`, `mySchachNr`; or `tag:Name` for any spelling), a part of
//! the time control (`TimeControl.base`, `.increment`, `.moves`) or a
//! pseudo-field (lower case): `plies`, `moves`, `status`, `winner`,
//! `player` (White or Black), `elo` (WhiteElo or BlackElo), and from the
//! board `eco` and `opening` (the code and name of the opening the mainline
//! reaches, [`crate::opening`]; the tags as written are `ECO` and
//! `Opening`). How a name becomes a field, and which names are mistakes, is
//! [`Field::resolve`].
//!
//! Every field has a [`FieldType`]; the value (or field) on the right is
//! read as that type, and one that cannot be is a
//! [`ParseFilterErrorKind::Mismatch`]: `Date > Carlsen`, `WhiteElo > abc`,
//! `White = WhiteElo`, `status > 3`. Operators a type lacks are
//! [`ParseFilterErrorKind::BadOperator`]: `status > mate`, `plies ~ 3`.
//!
//! Comparison rules:
//! - A bare word on the right that names a known field ([`Field::known`])
//!   of a type that compares with the left one is that field of the same
//!   game: `WhiteElo > BlackElo`. A quoted string is always a value.
//! - Numbers compare as numbers, text exactly and in byte order. Unlisted
//!   tags ([`FieldType::Value`]) compare as numbers when both sides are
//!   numbers, else as text, and are false for `<`, `<=`, `>`, `>=` when the
//!   value is a number and the tag is not.
//! - `~` is a case-insensitive substring test, `=~` a regex search; both
//!   read the text of tags (and of `player`, `elo`, `eco`, `opening`) whatever their
//!   type.
//! - Dates compare as [`PgnDate`] ranges with dates, months (`2020.06`)
//!   and years (`2020`), and hold only when they hold for *every* day the
//!   game's date allows: `Date >= 2020` holds for `2020.??.??` but not for
//!   `????.??.??`; `Date = 2019` (or `2019.??.??`) holds for any date in
//!   2019, including `2019.??.??`; `!=` means the ranges do not overlap.
//!   Against another date field, the right side is the period.
//! - A missing tag (or field), or a value that is not of its field's type
//!   (`WhiteElo "?"`), makes every comparison on it false, `!=` included;
//!   use `not (…)` for the complement.
//! - `player`, `elo`: true when either side satisfies the comparison.
//! - `TimeControl = 300+2` compares time controls (`300` equals `300+0`).
//! - `winner` is read from the Result tag: white, black, draw, none.
//! - `status` is how the mainline ended on the board, a name of
//!   [`crate::replay::TERMINATION_NAMES`] (`incomplete` when the mainline
//!   could not be played to its end, `unsupported` for a variant not
//!   played) or an alias of
//!   [`crate::replay::TERMINATION_ALIASES`] (`mate`, `insufficient`,
//!   `repetition` for threefold or fivefold, `fifty` for fifty or
//!   seventy-five moves …).
//! - `reaches "FEN"` holds when the mainline (start position included)
//!   passes through the placement, with the side to move when given;
//!   `material KQ vs KR` when some mainline position has exactly these
//!   pieces, White's first; `material "rp nb"` is a [`MaterialPattern`]
//!   as pgn-extract's `-z` reads it (either side, wildcards, counts
//!   relative to the other side, lasting 2 half-moves unless a number
//!   before the sides says otherwise).
//! - `threefold`, `fifty` and `underpromotion` hold when somewhere in the
//!   mainline a position occurs a third time, 50 moves by each side pass
//!   without capture or pawn move, or a pawn is promoted to a rook, bishop
//!   or knight.
//!
//! # Examples
//! ```
//! use pgnkit::filter::{Facts, Filter};
//! let filter = Filter::parse(r#"WhiteDays < 5 and TimeControl.moves = 10"#).unwrap();
//! assert!(!filter.needs_replay());
//! let game = b"[WhiteDays \"3\"]\n[TimeControl \"10/2592000\"]\n\n1. e4 *";
//! assert!(filter.matches(&Facts::new(game)));
//! let err = Filter::parse("WhiteDays << 5").unwrap_err();
//! assert_eq!(err.column, 12);
//!
//! let filter = Filter::parse("WhiteElo > BlackElo and Date >= 2020").unwrap();
//! let game = b"[Date \"2020.??.??\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n\n*";
//! assert!(filter.matches(&Facts::new(game)));
//! let err = Filter::parse("Date > Carlsen").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "column 8: `Date` is a date and `Carlsen` is text: they do not compare"
//! );
//! ```

mod date;
mod field;
mod material;
mod parse;
mod position;
mod time_control;

use std::borrow::Cow;

use regex::Regex;

pub use self::{
    date::{ParseDateError, PgnDate},
    field::{Field, FieldType, KNOWN_TAGS, TimeControlPart, UnknownField},
    material::{DEFAULT_STABILITY, MaterialPattern, ParsePatternError},
    parse::{ParseFilterError, ParseFilterErrorKind, statuses},
    position::{Line, ParseMaterialError, PositionTest},
    time_control::{ParseTimeControlError, Period, TimeControl},
};
use crate::{
    opening::Opening,
    pgn::{Outcome, Reader, Span, Tag, Visitor, value_text},
    replay::{Replay, Status},
    timeline::Timeline,
};

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=` or `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `~`: case-insensitive substring.
    Contains,
    /// `=~`: regex search.
    Matches,
    /// `!~`: no regex match.
    NotMatches,
}

impl Op {
    /// The operator as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Contains => "~",
            Op::Matches => "=~",
            Op::NotMatches => "!~",
        }
    }
}

/// A value written in a condition, read as the type of the field it is
/// compared with.
#[derive(Debug, Clone)]
pub struct Literal {
    /// As written.
    pub text: String,
    /// Lower case, for `~`, `status` and `winner`.
    pub lower: String,
    /// As a number, if it is one.
    pub number: Option<f64>,
    /// As a date, if it is one: a year (`2020`), a month (`2020.06`) or a
    /// PGN date, each the range of days it names.
    pub date: Option<PgnDate>,
    /// As a time control, if it is one.
    pub time_control: Option<TimeControl>,
    /// The compiled regex, for `=~` and `!~`.
    pub regex: Option<Regex>,
}

impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        self.text == other.text && self.regex.is_some() == other.regex.is_some()
    }
}

/// The right side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A value written in the expression.
    Value(Literal),
    /// Another field of the same game (`WhiteElo > BlackElo`).
    Field(Field),
}

/// A parsed filter expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Matches every game.
    True,
    /// Both hold.
    And(Box<Expr>, Box<Expr>),
    /// Either holds.
    Or(Box<Expr>, Box<Expr>),
    /// Does not hold.
    Not(Box<Expr>),
    /// `FIELD OP VALUE` or `FIELD OP FIELD`.
    Compare {
        /// What is compared.
        field: Field,
        /// How.
        op: Op,
        /// With what.
        value: Operand,
    },
    /// `FIELD in LOW..HIGH` (inclusive; numbers, dates or text).
    In {
        /// What is compared.
        field: Field,
        /// The lower bound.
        low: Literal,
        /// The upper bound.
        high: Literal,
    },
    /// `valid`: the game replays without errors.
    Valid,
    /// A position condition, by its index in [`Filter::positions`].
    Position(usize),
}

/// A compiled filter: the expression and its position conditions.
#[derive(Debug, Clone)]
pub struct Filter {
    expr: Expr,
    positions: Vec<PositionTest>,
    needs_replay: bool,
    needs_timeline: bool,
    needs_opening: bool,
}

impl Filter {
    /// Parses an expression.
    ///
    /// # Errors
    /// The first mistake, with its column.
    pub fn parse(text: &str) -> Result<Filter, ParseFilterError> {
        let mut parser = parse::Parser::new(text);
        let expr = parser.filter()?;
        Ok(Filter::from_parts(expr, parser.positions))
    }

    /// A filter from an expression and the position tests it refers to.
    pub fn from_parts(expr: Expr, positions: Vec<PositionTest>) -> Filter {
        let needs_replay = !positions.is_empty() || expr_needs(&expr, &Field::needs_replay);
        let needs_timeline = expr_needs(&expr, &Field::needs_timeline);
        let needs_opening = expr_needs(&expr, &Field::needs_opening);
        Filter {
            expr,
            positions,
            needs_replay,
            needs_timeline,
            needs_opening,
        }
    }

    /// The expression.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// The position conditions, to be tested on every mainline position.
    pub fn positions(&self) -> &[PositionTest] {
        &self.positions
    }

    /// Whether the game must be replayed (a pseudo-field or a position
    /// condition); tag-only filters read the tags alone.
    pub fn needs_replay(&self) -> bool {
        self.needs_replay
    }

    /// Whether the expression reads the clocks and evaluations of the
    /// mainline's comments ([`Facts::timeline`]).
    pub fn needs_timeline(&self) -> bool {
        self.needs_timeline
    }

    /// Whether the filter names the opening (`eco`, `opening`): the
    /// mainline positions must be shown to a
    /// [`Classifier`](crate::opening::Classifier) and its finding set in
    /// [`Facts::opening`].
    pub fn needs_opening(&self) -> bool {
        self.needs_opening
    }

    /// Whether a game matches.
    pub fn matches(&self, facts: &Facts<'_>) -> bool {
        eval(&self.expr, facts)
    }
}

/// Whether some field of `expr` satisfies `needs` (`valid` and the
/// position conditions need the replay, and count as such).
fn expr_needs(expr: &Expr, needs: &dyn Fn(&Field) -> bool) -> bool {
    match expr {
        Expr::True => false,
        Expr::And(a, b) | Expr::Or(a, b) => expr_needs(a, needs) || expr_needs(b, needs),
        Expr::Not(a) => expr_needs(a, needs),
        Expr::Compare {
            field,
            value: Operand::Field(right),
            ..
        } => needs(field) || needs(right),
        Expr::Compare { field, .. } | Expr::In { field, .. } => needs(field),
        Expr::Valid | Expr::Position(_) => needs(&Field::Valid),
    }
}

/// What a filter can know about one game: its tags and, when replayed,
/// the replay and which position conditions some mainline position met.
#[derive(Debug)]
pub struct Facts<'g> {
    /// The game's tags, in order.
    pub tags: Vec<Tag<'g>>,
    /// The replay, if the game was replayed.
    pub replay: Option<&'g Replay>,
    /// For each of [`Filter::positions`], whether it was met.
    pub hits: Vec<bool>,
    /// The clocks and evaluations of the mainline, if they were read.
    pub timeline: Option<&'g Timeline>,
    /// The opening the mainline reaches, if it was looked for and found.
    pub opening: Option<&'static Opening>,
}

impl<'g> Facts<'g> {
    /// The tags of a game's text (the tag section only; the movetext is
    /// not read).
    pub fn new(game: &'g [u8]) -> Facts<'g> {
        Facts {
            tags: read_tags(game),
            replay: None,
            hits: Vec::new(),
            timeline: None,
            opening: None,
        }
    }

    /// The first tag named `name`, as text.
    pub fn tag(&self, name: &str) -> Option<Cow<'g, str>> {
        self.tag_written(name).map(value_text)
    }

    /// The value of the first tag named `name` as written: escapes and
    /// encoding as in the input ([`value_text`] reads it).
    pub fn tag_written(&self, name: &str) -> Option<&'g [u8]> {
        self.tags.iter().find(|t| t.is(name)).map(|t| t.value)
    }

    /// `white`, `black`, `draw` or `none`, from the Result tag.
    pub fn winner(&self) -> &'static str {
        match self.result() {
            Some(Outcome::WhiteWins) => "white",
            Some(Outcome::BlackWins) => "black",
            Some(Outcome::Draw) => "draw",
            Some(Outcome::Unknown) | None => "none",
        }
    }

    /// The Result tag as an outcome ([`Outcome::from_tag`]).
    pub fn result(&self) -> Option<Outcome> {
        Outcome::from_tag(self.tags.iter().find(|t| t.is("Result"))?.value)
    }
}

/// The tag pairs at the start of a game's text, stopping at the first
/// token that is not one.
pub fn read_tags(game: &[u8]) -> Vec<Tag<'_>> {
    let mut tags = TagList(Vec::new());
    Reader::read_tags(game, &mut tags);
    tags.0
}

/// The visitor behind [`read_tags`].
struct TagList<'a>(Vec<Tag<'a>>);

impl<'a> Visitor<'a> for TagList<'a> {
    type Output = ();

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.0.push(Tag { name, value, span });
    }

    fn end_game(&mut self) {}
}

fn eval(expr: &Expr, facts: &Facts<'_>) -> bool {
    match expr {
        Expr::True => true,
        Expr::And(a, b) => eval(a, facts) && eval(b, facts),
        Expr::Or(a, b) => eval(a, facts) || eval(b, facts),
        Expr::Not(a) => !eval(a, facts),
        Expr::Valid => facts.replay.is_some_and(|r| r.status == Status::Valid),
        Expr::Position(i) => facts.hits.get(*i).copied().unwrap_or(false),
        Expr::Compare {
            field,
            op,
            value: Operand::Value(value),
        } => {
            let ty = field.field_type();
            match (ty, op) {
                (_, Op::Contains | Op::Matches | Op::NotMatches) => {
                    field.values(facts).iter().any(|v| search(v, *op, value))
                }
                (FieldType::Status, Op::Eq | Op::Ne) => facts
                    .replay
                    .is_some_and(|r| r.termination_is(&value.lower) == (*op == Op::Eq)),
                _ => field
                    .values(facts)
                    .iter()
                    .any(|v| compare_literal(v, ty, *op, value)),
            }
        }
        Expr::Compare {
            field,
            op,
            value: Operand::Field(right),
        } => {
            let (left_type, right_type) = (field.field_type(), right.field_type());
            let right = right.values(facts);
            field.values(facts).iter().any(|a| {
                right
                    .iter()
                    .any(|b| compare_fields(a, left_type, *op, b, right_type))
            })
        }
        Expr::In { field, low, high } => {
            let ty = field.field_type();
            field.values(facts).iter().any(|v| match ty {
                FieldType::Date => v.parse::<PgnDate>().is_ok_and(|have| {
                    date_holds(have, Op::Ge, low.date) && date_holds(have, Op::Le, high.date)
                }),
                _ => compare_literal(v, ty, Op::Ge, low) && compare_literal(v, ty, Op::Le, high),
            })
        }
    }
}

/// `~`, `=~` or `!~` on a field's text.
fn search(text: &str, op: Op, value: &Literal) -> bool {
    match op {
        Op::Contains => text.to_lowercase().contains(&value.lower),
        Op::Matches => value.regex.as_ref().is_some_and(|r| r.is_match(text)),
        Op::NotMatches => value.regex.as_ref().is_some_and(|r| !r.is_match(text)),
        _ => false,
    }
}

/// A value as a number, if it is one: a plain decimal, an optional sign
/// then digits with an optional fraction (`2400`, `+5`, `-0.35`,
/// `2400.0`, `.5`), with spaces around it. No exponent, digit grouping,
/// `inf` or `nan`: `1e3` is text. The one reading of a number: how
/// `filter` compares numbers (tags, fields and the values in the
/// expression) and how the tables type them ([`integer`]).
///
/// # Examples
/// ```
/// use pgnkit::filter::number;
/// assert_eq!(number(" 2400.0 "), Some(2400.0));
/// assert_eq!(number("-.5"), Some(-0.5));
/// assert_eq!(number("1e3"), None);
/// assert_eq!(number("inf"), None);
/// assert_eq!(number("?"), None);
/// ```
pub fn number(text: &str) -> Option<f64> {
    decimal(text)?;
    // Hundreds of digits overflow to infinity, which is no number.
    text.trim().parse().ok().filter(|x: &f64| x.is_finite())
}

/// A value as an integer, if it is one: a [`number`] without a fraction,
/// or with a fraction of zeros (`02400`, `+5`, `2400.0` is 2400), within
/// `i64`. How the tables (`tags --format jsonl` and parquet, `convert --to
/// parquet`) give the tags listed as numbers as integers.
///
/// # Examples
/// ```
/// use pgnkit::filter::integer;
/// assert_eq!(integer("+5"), Some(5));
/// assert_eq!(integer("2400.0"), Some(2400));
/// assert_eq!(integer("2400.5"), None);
/// assert_eq!(integer("1e3"), None);
/// ```
pub fn integer(text: &str) -> Option<i64> {
    let (whole, fraction) = decimal(text)?;
    if !fraction.bytes().all(|b| b == b'0') {
        return None;
    }
    match whole.trim_start_matches(['+', '-']) {
        "" => Some(0),
        _ => whole.parse().ok(),
    }
}

/// A plain decimal's whole part (with its sign) and fraction digits.
fn decimal(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = whole.strip_prefix(['+', '-']).unwrap_or(whole);
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (all_digits(digits) && all_digits(fraction) && !(digits.is_empty() && fraction.is_empty()))
        .then_some((whole, fraction))
}

/// Whether an ordering satisfies an ordering operator.
fn holds(ordering: Option<std::cmp::Ordering>, op: Op) -> bool {
    use std::cmp::Ordering;
    let Some(ordering) = ordering else {
        return false;
    };
    match op {
        Op::Eq => ordering == Ordering::Equal,
        Op::Ne => ordering != Ordering::Equal,
        Op::Lt => ordering == Ordering::Less,
        Op::Le => ordering != Ordering::Greater,
        Op::Gt => ordering == Ordering::Greater,
        Op::Ge => ordering != Ordering::Less,
        _ => false,
    }
}

/// A game's date against a period (a year, a month, a date): holds only
/// when it holds for every day the game's date allows; `=` means inside
/// the period, `!=` outside it.
fn date_holds(have: PgnDate, op: Op, want: Option<PgnDate>) -> bool {
    let Some(want) = want else {
        return false;
    };
    match op {
        Op::Eq => have.first >= want.first && have.last <= want.last,
        Op::Ne => have.last < want.first || have.first > want.last,
        Op::Lt => have.last < want.first,
        Op::Le => have.last <= want.last,
        Op::Gt => have.first > want.last,
        Op::Ge => have.first >= want.first,
        _ => false,
    }
}

/// One value of a field of type `ty` against a literal of that type; a
/// value that is not of the type satisfies nothing.
fn compare_literal(text: &str, ty: FieldType, op: Op, value: &Literal) -> bool {
    match ty {
        FieldType::Number => number(text)
            .is_some_and(|have| holds(value.number.and_then(|w| have.partial_cmp(&w)), op)),
        FieldType::Date => text
            .parse::<PgnDate>()
            .is_ok_and(|have| date_holds(have, op, value.date)),
        FieldType::Text => holds(Some(text.cmp(&value.text)), op),
        FieldType::Value => match (value.number, number(text)) {
            (Some(want), Some(have)) => holds(have.partial_cmp(&want), op),
            (Some(_), None) if !matches!(op, Op::Eq | Op::Ne) => false,
            _ => holds(Some(text.cmp(&value.text)), op),
        },
        FieldType::TimeControl => text
            .parse::<TimeControl>()
            .ok()
            .is_some_and(|have| match op {
                Op::Eq => value.time_control.as_ref() == Some(&have),
                Op::Ne => value
                    .time_control
                    .as_ref()
                    .is_some_and(|want| *want != have),
                _ => false,
            }),
        // A value that is no result (`?`, `draw`, empty) is missing, as a
        // number field's `?` is: it satisfies neither `=` nor `!=`.
        FieldType::Result => Outcome::from_tag(text.as_bytes())
            .is_some_and(|have| holds(Some(have.as_str().cmp(&value.text)), op)),
        FieldType::Winner | FieldType::Status => holds(Some(text.cmp(&value.lower)), op),
    }
}

/// One value of a field against one value of another (types already
/// checked to compare): numbers when both are numbers, dates as day
/// ranges (the right side's as the period), else text. A value that is
/// not of its field's type, or a wholly unknown date on the right,
/// satisfies nothing.
fn compare_fields(a: &str, a_type: FieldType, op: Op, b: &str, b_type: FieldType) -> bool {
    use FieldType as T;
    if op == Op::Contains {
        return a.to_lowercase().contains(&b.to_lowercase());
    }
    match (a_type, b_type) {
        (T::Date, T::Date) => match (a.parse::<PgnDate>(), b.parse::<PgnDate>()) {
            (Ok(a), Ok(b)) if !b.is_unknown() => date_holds(a, op, Some(b)),
            _ => false,
        },
        (T::TimeControl, T::TimeControl) => {
            match (a.parse::<TimeControl>(), b.parse::<TimeControl>()) {
                (Ok(a), Ok(b)) => holds(
                    Some(if a == b {
                        std::cmp::Ordering::Equal
                    } else {
                        std::cmp::Ordering::Less
                    }),
                    op,
                ),
                _ => false,
            }
        }
        _ => match (number(a), number(b)) {
            (Some(a), Some(b)) => holds(a.partial_cmp(&b), op),
            _ if a_type == T::Number || b_type == T::Number => false,
            _ => holds(Some(a.cmp(b)), op),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &[u8] = b"[Event \"Corr \\\"A\\\"\"]\n[Date \"2019.??.??\"]\n[White \"Carlsen, Magnus\"]\n[Black \"Doe, J\"]\n[Result \"0-1\"]\n[WhiteDays \"4\"]\n[BlackDays \"12\"]\n[WhitemyELO \"1850\"]\n[WhiteElo \"2830\"]\n[BlackElo \"?\"]\n[ECO \"B33\"]\n[TimeControl \"10/2592000\"]\n\n1. e4 c5 0-1";

    #[test]
    fn clock_and_evaluation_conditions() {
        let game = b"[TimeControl \"180+2\"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } \
            1... e5 { [%eval 0.3] [%clk 0:02:58.5] } 2. Qh5 { [%eval -1.5] [%clk 0:02:40] } \
            2... Nc6 { [%eval 0.1] [%clk 0:02:59] } 3. Bc4 { [%clk 0:02:41] [%eval 0.2] } \
            3... Nf6 { [%eval #3] [%emt 0:00:30] [%clk 0:02:31] } *";
        let raw = crate::pgn::RawGame::from_bytes(game);
        let timeline = Timeline::read(&raw);
        let mut facts = Facts::new(game);
        facts.timeline = Some(&timeline);
        let cases = [
            ("clock.white = 161", true),
            ("clock.black = 151", true),
            ("clock.white.1 = 180", true),
            ("clock.black.1 = 178.5", true),
            ("clock.white.2 = 160", true),
            ("clock.white.4 > 0", false),
            ("clock.white > clock.black", true),
            // White: 180 + 2 - 180, 180 + 2 - 160, 160 + 2 - 161.
            ("used.white = 25", true),
            ("used.white.max = 22", true),
            // Black: 180 + 2 - 178.5, 178.5 + 2 - 179, then the [%emt] 30.
            ("used.black = 35", true),
            ("used.black.max >= 30", true),
            // Qh5: 0.3 to -1.5; Black's Nf6: 0.2 to a mate for White.
            ("drop.white = 1.8", true),
            ("drop.black = 99.8", true),
            ("eval = -100", false),
            ("eval = 100", true),
            ("clocks = 6 and evals = 6", true),
            ("drop.white in 1..2", true),
        ];
        for (text, expected) in cases {
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(filter.needs_timeline() && !filter.needs_replay(), "{text}");
            assert_eq!(filter.matches(&facts), expected, "{text}");
        }
        // Without the timeline, no value: every comparison is false.
        let without = Facts::new(game);
        let filter =
            Filter::parse("clocks >= 0 or not eval != 0").unwrap_or_else(|e| panic!("{e}"));
        assert!(!Filter::parse("clocks >= 0").unwrap().matches(&without));
        assert!(filter.matches(&without));
        for (text, message) in [
            ("clock.white.0 < 5", "unknown field `clock.white.0`"),
            ("clock.grey < 5", "unknown field `clock.grey`"),
            ("drop.white ~ 3", "does not apply"),
            ("eval = Carlsen", "do not compare"),
        ] {
            let err = Filter::parse(text)
                .err()
                .unwrap_or_else(|| panic!("{text}"));
            assert!(err.to_string().contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn tag_conditions() {
        let facts = Facts::new(GAME);
        let cases = [
            (r#"White = "Carlsen, Magnus""#, true),
            (r#"White == "carlsen, magnus""#, false),
            ("White ~ carlsen", true),
            ("White =~ /^Carl/", true),
            ("White =~ /^carl/i", true),
            ("White !~ /^carl/", true),
            ("WhiteDays < 5", true),
            ("WhiteDays < 4", false),
            ("WhiteDays <= 4 and BlackDays > 10", true),
            ("WhitemyELO >= 1800", true),
            ("WhiteElo >= 2400", true),
            ("BlackElo >= 0", false),
            ("elo >= 2800", true),
            ("elo < 1000", false),
            ("player ~ doe", true),
            ("player = Nobody", false),
            ("winner = black", true),
            ("winner = white or winner = draw", false),
            ("Date = 2019.??.??", true),
            ("Date >= 2019.01.01", true),
            ("Date > 2019.06.01", false),
            ("Date < 2020.01.01", true),
            ("Date != 2018.??.??", true),
            ("TimeControl.moves = 10", true),
            ("TimeControl.base = 2592000", true),
            ("TimeControl.increment = 0", true),
            ("ECO in B20..B99", true),
            ("ECO in A00..B19", false),
            ("NoSuchTag = x", false),
            ("NoSuchTag != x", false),
            ("not NoSuchTag = x", true),
            ("Event = \"Corr \\\"A\\\"\"", true),
            ("(White ~ x or Black ~ doe) and not WhiteDays > 5", true),
            ("true", true),
        ];
        for (text, expected) in cases {
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(!filter.needs_replay(), "{text}");
            assert_eq!(filter.matches(&facts), expected, "{text}");
        }
    }

    #[test]
    fn typed_conditions() {
        let facts = Facts::new(GAME);
        let cases = [
            // Dates against years, months and dates: every day must agree.
            ("Date = 2019", true),
            ("Date >= 2019", true),
            ("Date > 2018", true),
            ("Date < 2020", true),
            ("Date <= 2019", true),
            ("Date < 2019", false),
            ("Date > 2019", false),
            ("Date != 2019", false),
            ("Date != 2018", true),
            ("Date >= 2019.06", false),
            ("Date <= 2019.12", true),
            ("Date in 2018..2019", true),
            ("Date in 2019.02..2020", false),
            ("Date = \"2019\"", true),
            // Field against field; a value not of its type satisfies nothing.
            ("WhiteDays < BlackDays", true),
            ("WhiteDays >= BlackDays", false),
            ("WhiteElo > BlackElo", false),
            ("WhiteElo != BlackElo", false),
            ("elo > WhiteDays", true),
            ("WhitemyELO > tag:WhiteDays", true),
            ("White = Black", false),
            ("White != Black", true),
            ("White = \"Black\"", false),
            ("White ~ player", true),
            ("White ~ status", false),
            ("winner = Black", true),
            ("BlackElo != 2400", false),
            ("BlackElo =~ /^\\?$/", true),
            // Numbers, text, results, time controls.
            ("WhiteElo = 2830.0", true),
            ("WhiteElo = \"2830\"", true),
            ("White > Carlsen", true),
            ("White < 2000", false),
            ("Result = 0-1", true),
            ("Result != 1-0", true),
            ("TimeControl = 10/2592000", true),
            ("TimeControl != 300+2", true),
            ("WhiteElo =~ /^28/", true),
            ("Date =~ /^2019/", true),
            ("winner = Black", true),
            ("tag:whitedays = 4", false),
        ];
        for (text, expected) in cases {
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(filter.matches(&facts), expected, "{text}");
        }
    }

    #[test]
    fn field_to_field_dates() {
        // (Date, EventDate, condition, holds)
        let cases = [
            ("2020.05.17", "2020.05.01", "Date > EventDate", true),
            ("2020.05.17", "2020.05.??", "Date = EventDate", true),
            ("2020.05.??", "2020.05.17", "Date = EventDate", false),
            ("2020.05.17", "????.??.??", "Date = EventDate", false),
            ("????.??.??", "2020.05.17", "Date < EventDate", false),
            ("2019.12.31", "2020.??.??", "Date < EventDate", true),
        ];
        for (date, event_date, text, expected) in cases {
            let game = format!("[Date \"{date}\"]\n[EventDate \"{event_date}\"]\n\n*");
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(
                filter.matches(&Facts::new(game.as_bytes())),
                expected,
                "{date} {event_date} {text}"
            );
        }
    }

    /// Checks conditions on games that hold one tag: (its value, the
    /// condition, whether it holds).
    fn one_tag_conditions(name: &str, cases: &[(&str, &str, bool)]) {
        for &(value, text, expected) in cases {
            let game = format!("[{name} \"{value}\"]\n\n*");
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(
                filter.matches(&Facts::new(game.as_bytes())),
                expected,
                "{value:?} {text}"
            );
        }
    }

    #[test]
    fn a_result_tag_that_is_no_result_is_missing() {
        one_tag_conditions(
            "Result",
            &[
                ("?", "Result = 1-0", false),
                ("?", "Result != 1-0", false),
                ("", "Result != *", false),
                ("draw", "Result != 1/2-1/2", false),
                ("draw", "not (Result = 1-0)", true),
                ("1/2", "Result = 1/2-1/2", true),
                (" 0-1 ", "Result != 1-0", true),
                ("*", "Result != 1-0", true),
            ],
        );
    }

    #[test]
    fn dates_of_unknown_days_end_with_their_month() {
        one_tag_conditions(
            "Date",
            &[
                ("2019.04.??", "Date <= 2019.04.30", true),
                ("2019.04.??", "Date < 2019.05.01", true),
                ("2019.02.??", "Date in 2019.02.01..2019.02.28", true),
                ("2020.02.??", "Date <= 2020.02.28", false),
                ("2020.02.??", "Date = 2020.02", true),
                ("2019.02.29", "Date = 2019", false),
                ("2019.02.29", "Date != 2019", false),
            ],
        );
        assert!(Filter::parse("Date = 2019.02.30").is_err());
    }

    #[test]
    fn typing_mistakes_have_messages() {
        // (expression, column, message)
        let cases = [
            (
                "Date > Carlsen",
                8,
                "`Date` is a date and `Carlsen` is text: they do not compare",
            ),
            (
                "Date >= 20200101",
                9,
                "`20200101` is no date (YYYY, YYYY.MM or YYYY.MM.DD; unknown parts ??)",
            ),
            (
                "WhiteElo > abc",
                12,
                "`WhiteElo` is a number and `abc` is text: they do not compare",
            ),
            (
                "WhiteElo > \"?\"",
                12,
                "`WhiteElo` is a number and `?` is text: they do not compare",
            ),
            (
                "WhiteElo > White",
                12,
                "`WhiteElo` is a number and `White` is text: they do not compare",
            ),
            (
                "Date < WhiteDays",
                8,
                "`Date` is a date and `WhiteDays` is a number: they do not compare",
            ),
            (
                "status > 3",
                10,
                "`status` is a status and `3` is a number: they do not compare",
            ),
            (
                "winner = 1",
                10,
                "`winner` is a winner and `1` is a number: they do not compare",
            ),
            (
                "status > mate",
                8,
                "`>` does not apply to `status` (a status): use = or !=",
            ),
            (
                "Result < 1-0",
                8,
                "`<` does not apply to `Result` (a result): use = or !=",
            ),
            (
                "TimeControl in 1..2",
                13,
                "`in` does not apply to `TimeControl` (a time control): use = or !=",
            ),
            (
                "plies ~ 3",
                7,
                "`~` does not apply to `plies` (a number computed from the game): \
                 ~, =~ and !~ search the text of tags",
            ),
            (
                "Result = 1/2",
                10,
                "unknown result `1/2` (1-0, 0-1, 1/2-1/2, *)",
            ),
            (
                "TimeControl = blitz",
                15,
                "`blitz` is no time control (?, -, 40/7200, 300+2, *60, periods joined by :)",
            ),
            (
                "white = x",
                1,
                "unknown field `white`: did you mean `White`?",
            ),
            (
                "x and whiteelo > 2000",
                1,
                "unknown field `x` (fields: tags such as White or WhiteElo, tag:Name, \
                 plies, moves, status, winner, player, elo, eco, opening, \
                 clock.white/.black[.N], used.white/.black[.max], drop.white/.black, \
                 eval, clocks, evals, TimeControl.base, .increment, .moves)",
            ),
            (
                "White = x and whiteelo > 2000",
                15,
                "unknown field `whiteelo`: did you mean `WhiteElo`?",
            ),
            (
                "Elo > 2000",
                1,
                "unknown field `Elo`: did you mean `elo`? (`tag:Elo` names a tag of that name)",
            ),
            ("plys > 2", 1, "unknown field `plys`: did you mean `plies`?"),
            (
                "Date in 2019..2020.13",
                15,
                "`2020.13` is no date (YYYY, YYYY.MM or YYYY.MM.DD; unknown parts ??)",
            ),
            (
                "WhiteElo in \"2400..x\"",
                20,
                "`WhiteElo` is a number and `x` is text: they do not compare",
            ),
            (
                "status in a..b",
                8,
                "`in` does not apply to `status` (a status): use = or !=",
            ),
        ];
        for (text, column, message) in cases {
            let err = Filter::parse(text)
                .err()
                .unwrap_or_else(|| panic!("{text} parsed"));
            assert_eq!(
                (err.column, err.kind.to_string()),
                (column, message.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn dates_with_unknown_parts() {
        // (game date, condition, holds)
        let cases = [
            ("2020.??.??", "Date >= 2020.01.01", true),
            ("????.??.??", "Date >= 2020.01.01", false),
            ("????.??.??", "Date < 2020.01.01", false),
            ("2020.05.??", "Date = 2020.??.??", true),
            ("2020.??.??", "Date = 2020.05.??", false),
            ("2020.05.17", "Date = 2020.05.17", true),
            ("2020.05.??", "Date < 2020.06.01", true),
            ("2020.05.??", "Date <= 2020.05.31", true),
            ("garbage", "Date >= 1900.01.01", false),
        ];
        for (date, text, expected) in cases {
            let game = format!("[Date \"{date}\"]\n\n*");
            let filter = Filter::parse(text).unwrap();
            assert_eq!(
                filter.matches(&Facts::new(game.as_bytes())),
                expected,
                "{date} {text}"
            );
        }
    }

    #[test]
    fn mistakes_have_columns() {
        let cases = [
            ("WhiteDays << 5", 12),
            ("WhiteDays 5", 11),
            ("White = ", 9),
            ("(White = x", 11),
            ("White = \"x", 9),
            ("White =~ /(/", 10),
            ("White =~ /x", 10),
            ("status = stalmate", 10),
            ("winner = whit", 10),
            ("TimeControl.bse = 3", 13),
            ("Date >= 2020.13.01", 9),
            ("reaches \"8/8/8 w\"", 9),
            ("material KQ vs", 15),
            ("White = x and", 14),
            ("White = x y", 11),
            ("and = 1", 1),
            ("Spieler = \"Müller\" && x", 20),
            ("eco in B20", 8),
        ];
        for (text, column) in cases {
            let err = Filter::parse(text)
                .err()
                .unwrap_or_else(|| panic!("{text} parsed"));
            assert_eq!(err.column, column, "{text}: {err}");
        }
    }

    #[test]
    fn board_conditions_need_replay() {
        for text in [
            "plies > 10",
            "status = mate",
            "valid",
            "not moves < 3",
            "reaches \"8/8/8/8/8/8/8/K6k\"",
            "material KQ vs KR",
            "eco = B20",
            "opening ~ sicilian",
        ] {
            assert!(Filter::parse(text).unwrap().needs_replay(), "{text}");
        }
        for (text, opening) in [
            ("eco = B20", true),
            ("not opening = x", true),
            ("ECO = B20 or plies > 3", false),
            ("White ~ \"eco\"", false),
            ("White ~ eco", true),
        ] {
            assert_eq!(
                Filter::parse(text).unwrap().needs_opening(),
                opening,
                "{text}"
            );
        }
    }

    #[test]
    fn opening_conditions() {
        let table = crate::opening::Openings::get();
        let najdorf = table
            .entries()
            .iter()
            .find(|o| o.name == "Sicilian Defense: Najdorf Variation")
            .expect("in the table");
        let mut facts = Facts::new(GAME);
        facts.opening = Some(najdorf);
        let cases = [
            ("eco = B90", true),
            ("eco in B20..B99", true),
            ("eco >= C00", false),
            ("ECO = B33", true),
            ("opening ~ najdorf", true),
            ("opening =~ /^Sicilian Defense: Najdorf/", true),
            ("opening = \"Sicilian Defense\"", false),
            ("eco = ECO", false),
        ];
        for (text, expected) in cases {
            let filter = Filter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(filter.matches(&facts), expected, "{text}");
        }
        // No opening found: every comparison on it is false.
        facts.opening = None;
        assert!(!Filter::parse("eco != B90").unwrap().matches(&facts));
    }
}
