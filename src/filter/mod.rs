//! Selecting games: a small expression language over tags, fields the
//! replay finds out (plies, status, …) and positions.
//!
//! ```text
//! filter    := or
//! or        := and ("or" and)*
//! and       := unary ("and" unary)*
//! unary     := "not" unary | primary
//! primary   := "(" or ")" | "valid" | "true"
//!            | "reaches" STRING | "material" PIECES "vs" PIECES
//!            | FIELD OP VALUE | FIELD "=~" REGEX | FIELD "in" LOW..HIGH
//! OP        := "=" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "=~" | "!~"
//! VALUE     := WORD | STRING           (STRING: "…" with \" and \\)
//! REGEX     := /…/ or /…/i             (\/ for a slash)
//! ```
//!
//! A `FIELD` is a tag name (`White`, `WhiteDays`, `ECO`, any other), a part
//! of the time control (`TimeControl.base`, `.increment`, `.moves`) or a
//! pseudo-field (lower case): `plies`, `moves`, `status`, `winner`,
//! `player` (White or Black), `elo` (WhiteElo or BlackElo), `eco`.
//!
//! Comparison rules:
//! - `~` is a case-insensitive substring test, `=~` a regex search.
//! - `=`, `!=` compare numbers when both sides are numbers, else text
//!   exactly; `<`, `<=`, `>`, `>=` compare numbers when both sides are
//!   numbers, text (byte order) when the value is not a number, and are
//!   false for a non-numeric tag against a number.
//! - Tags ending in `Date` compare as [`PgnDate`] ranges and hold only when
//!   they hold for *every* day the date allows: `Date >= 2020.01.01` holds
//!   for `2020.??.??` but not for `????.??.??`; `Date = 2019.??.??` holds
//!   for any date in 2019, including `2019.??.??`; `!=` means the ranges do
//!   not overlap.
//! - A missing tag (or field) makes every comparison on it false, `!=`
//!   included; use `not (…)` for the complement.
//! - `player`, `elo`: true when either side satisfies the comparison.
//! - `winner` is read from the Result tag: white, black, draw, none.
//! - `status` is how the mainline ended on the board: checkmate (mate),
//!   stalemate, insufficient, threefold / fivefold (both: repetition),
//!   fifty / seventyfive (both: fifty), unfinished, or incomplete when
//!   the mainline could not be played to its end.
//! - `reaches "FEN"` holds when the mainline (start position included)
//!   passes through the placement, with the side to move when given;
//!   `material KQ vs KR` when some mainline position has exactly these
//!   pieces, White's first.
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
//! ```

mod date;
mod parse;
mod position;
mod time_control;

use std::borrow::Cow;

use regex::Regex;

pub use self::{
    date::{ParseDateError, PgnDate},
    parse::{ParseFilterError, ParseFilterErrorKind, STATUSES},
    position::{ParseMaterialError, PositionTest},
    time_control::{ParseTimeControlError, Period, TimeControl},
};
use crate::{
    pgn::{Outcome, Reader, Span, Tag, Visitor},
    replay::{Replay, Status, Termination},
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

/// A part of the `TimeControl` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControlPart {
    /// The first period's seconds.
    Base,
    /// The first period's increment.
    Increment,
    /// The first period's number of moves.
    Moves,
}

/// What a condition looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A tag, by its exact name.
    Tag(String),
    /// A part of the `TimeControl` tag.
    TimeControl(TimeControlPart),
    /// Mainline plies played.
    Plies,
    /// Mainline moves (plies rounded up to full moves).
    Moves,
    /// How the mainline ended on the board.
    Status,
    /// From the Result tag: white, black, draw, none.
    Winner,
    /// White or Black.
    Player,
    /// WhiteElo or BlackElo.
    Elo,
    /// The ECO tag.
    Eco,
    /// `valid` or `invalid` (the replay's verdict).
    Valid,
}

impl Field {
    /// The field a name stands for: lower-case pseudo-field names, the
    /// parts of `TimeControl`, else a tag.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::Field;
    /// assert_eq!(Field::from_name("plies"), Field::Plies);
    /// assert_eq!(Field::from_name("WhiteDays"), Field::Tag("WhiteDays".into()));
    /// ```
    pub fn from_name(name: &str) -> Field {
        match name {
            "plies" => Field::Plies,
            "moves" => Field::Moves,
            "status" => Field::Status,
            "winner" => Field::Winner,
            "player" => Field::Player,
            "elo" => Field::Elo,
            "eco" => Field::Eco,
            "valid" => Field::Valid,
            "TimeControl.base" => Field::TimeControl(TimeControlPart::Base),
            "TimeControl.increment" => Field::TimeControl(TimeControlPart::Increment),
            "TimeControl.moves" => Field::TimeControl(TimeControlPart::Moves),
            _ => Field::Tag(name.to_string()),
        }
    }

    /// Whether the field needs the game replayed.
    pub fn needs_replay(&self) -> bool {
        matches!(
            self,
            Field::Plies | Field::Moves | Field::Status | Field::Valid
        )
    }

    /// The field's values in a game (two for `player` and `elo`), as text.
    pub fn values<'f>(&self, facts: &'f Facts<'_>) -> Vec<Cow<'f, str>> {
        let tag = |name: &str| facts.tag(name);
        let one = |v: Option<Cow<'f, str>>| v.into_iter().collect();
        match self {
            Field::Tag(name) => one(tag(name)),
            Field::Eco => one(tag("ECO")),
            Field::Player => tag("White").into_iter().chain(tag("Black")).collect(),
            Field::Elo => tag("WhiteElo").into_iter().chain(tag("BlackElo")).collect(),
            Field::TimeControl(part) => {
                let tc = tag("TimeControl").and_then(|v| v.parse::<TimeControl>().ok());
                let n = tc.and_then(|tc| match part {
                    TimeControlPart::Base => tc.base(),
                    TimeControlPart::Increment => tc.increment(),
                    TimeControlPart::Moves => tc.moves(),
                });
                one(n.map(|n| Cow::Owned(n.to_string())))
            }
            Field::Winner => one(Some(Cow::Borrowed(facts.winner()))),
            Field::Plies => one(facts.replay.map(|r| Cow::Owned(r.plies.to_string()))),
            Field::Moves => one(facts
                .replay
                .map(|r| Cow::Owned(r.plies.div_ceil(2).to_string()))),
            Field::Status => one(facts
                .replay
                .map(|r| Cow::Borrowed(status_name(r.termination)))),
            Field::Valid => one(facts.replay.map(|r| {
                Cow::Borrowed(if r.status == Status::Valid {
                    "valid"
                } else {
                    "invalid"
                })
            })),
        }
    }
}

/// The name `status` shows for a termination (`None`: incomplete).
pub fn status_name(termination: Option<Termination>) -> &'static str {
    termination.map_or("incomplete", Termination::as_str)
}

/// Whether a termination answers to a `status` value (see [`STATUSES`]).
fn status_is(termination: Option<Termination>, value: &str) -> bool {
    use Termination as T;
    let aliases: &[&str] = match termination {
        None => &["incomplete"],
        Some(T::Checkmate { .. }) => &["checkmate", "mate"],
        Some(T::Stalemate) => &["stalemate"],
        Some(T::InsufficientMaterial) => &["insufficient", "insufficient_material"],
        Some(T::ThreefoldRepetition) => &["threefold", "threefold_repetition", "repetition"],
        Some(T::FivefoldRepetition) => &["fivefold", "fivefold_repetition", "repetition"],
        Some(T::FiftyMoves) => &["fifty", "fifty_moves"],
        Some(T::SeventyFiveMoves) => &["seventyfive", "seventyfive_moves", "fifty"],
        Some(T::Unfinished) => &["unfinished"],
    };
    aliases.contains(&value)
}

/// A value in a condition, read every way it may be compared.
#[derive(Debug, Clone)]
pub struct Literal {
    /// As written.
    pub text: String,
    /// Lower case, for `~`.
    pub lower: String,
    /// As a number, if it is one.
    pub number: Option<f64>,
    /// As a PGN date, if it is one.
    pub date: Option<PgnDate>,
    /// The compiled regex, for `=~` and `!~`.
    pub regex: Option<Regex>,
}

impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        self.text == other.text && self.regex.is_some() == other.regex.is_some()
    }
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
    /// `FIELD OP VALUE`.
    Compare {
        /// What is compared.
        field: Field,
        /// How.
        op: Op,
        /// With what.
        value: Literal,
    },
    /// `FIELD in LOW..HIGH` (inclusive; numbers or text).
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
        let needs_replay = !positions.is_empty() || expr_needs_replay(&expr);
        Filter {
            expr,
            positions,
            needs_replay,
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

    /// Whether a game matches.
    pub fn matches(&self, facts: &Facts<'_>) -> bool {
        eval(&self.expr, facts)
    }
}

fn expr_needs_replay(expr: &Expr) -> bool {
    match expr {
        Expr::True => false,
        Expr::And(a, b) | Expr::Or(a, b) => expr_needs_replay(a) || expr_needs_replay(b),
        Expr::Not(a) => expr_needs_replay(a),
        Expr::Compare { field, .. } | Expr::In { field, .. } => field.needs_replay(),
        Expr::Valid | Expr::Position(_) => true,
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
}

impl<'g> Facts<'g> {
    /// The tags of a game's text (the tag section only; the movetext is
    /// not read).
    pub fn new(game: &'g [u8]) -> Facts<'g> {
        Facts {
            tags: read_tags(game),
            replay: None,
            hits: Vec::new(),
        }
    }

    /// The first tag named `name`, as text.
    pub fn tag(&self, name: &str) -> Option<Cow<'g, str>> {
        self.tags.iter().find(|t| t.is(name)).map(Tag::value_text)
    }

    /// `white`, `black`, `draw` or `none`, from the Result tag.
    pub fn winner(&self) -> &'static str {
        match self
            .tags
            .iter()
            .find(|t| t.is("Result"))
            .map(|t| t.value.trim_ascii())
        {
            Some(b"1-0") => "white",
            Some(b"0-1") => "black",
            Some(b"1/2-1/2") => "draw",
            _ => "none",
        }
    }

    /// The Result tag as an outcome.
    pub fn result(&self) -> Option<Outcome> {
        match self
            .tags
            .iter()
            .find(|t| t.is("Result"))
            .map(|t| t.value.trim_ascii())
        {
            Some(b"1-0") => Some(Outcome::WhiteWins),
            Some(b"0-1") => Some(Outcome::BlackWins),
            Some(b"1/2-1/2") => Some(Outcome::Draw),
            Some(b"*") => Some(Outcome::Unknown),
            _ => None,
        }
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
            field: Field::Status,
            op,
            value,
        } => {
            let Some(replay) = facts.replay else {
                return false;
            };
            match op {
                Op::Eq => status_is(replay.termination, &value.lower),
                Op::Ne => !status_is(replay.termination, &value.lower),
                _ => compare(status_name(replay.termination), *op, value, false),
            }
        }
        Expr::Compare { field, op, value } => {
            let dated = matches!(field, Field::Tag(name) if name.ends_with("Date"));
            field
                .values(facts)
                .iter()
                .any(|v| compare(v, *op, value, dated))
        }
        Expr::In { field, low, high } => field
            .values(facts)
            .iter()
            .any(|v| compare(v, Op::Ge, low, false) && compare(v, Op::Le, high, false)),
    }
}

/// One comparison of a field's text with a literal.
fn compare(text: &str, op: Op, value: &Literal, dated: bool) -> bool {
    use std::cmp::Ordering;
    match op {
        Op::Contains => return text.to_lowercase().contains(&value.lower),
        Op::Matches => return value.regex.as_ref().is_some_and(|r| r.is_match(text)),
        Op::NotMatches => return value.regex.as_ref().is_some_and(|r| !r.is_match(text)),
        _ => {}
    }
    if dated && let Some(want) = value.date {
        let Ok(have) = text.parse::<PgnDate>() else {
            return false;
        };
        return match op {
            Op::Eq => have.first >= want.first && have.last <= want.last,
            Op::Ne => have.last < want.first || have.first > want.last,
            Op::Lt => have.last < want.first,
            Op::Le => have.last <= want.last,
            Op::Gt => have.first > want.last,
            Op::Ge => have.first >= want.first,
            _ => false,
        };
    }
    let ordering = match (
        value.number,
        text.trim().parse::<f64>().ok().filter(|n| n.is_finite()),
    ) {
        (Some(want), Some(have)) => have.partial_cmp(&want),
        (Some(_), None) if !matches!(op, Op::Eq | Op::Ne) => return false,
        _ => Some(text.cmp(&value.text)),
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &[u8] = b"[Event \"Corr \\\"A\\\"\"]\n[Date \"2019.??.??\"]\n[White \"Carlsen, Magnus\"]\n[Black \"Doe, J\"]\n[Result \"0-1\"]\n[WhiteDays \"4\"]\n[BlackDays \"12\"]\n[WhitemyELO \"1850\"]\n[WhiteElo \"2830\"]\n[BlackElo \"?\"]\n[ECO \"B33\"]\n[TimeControl \"10/2592000\"]\n\n1. e4 c5 0-1";

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
            ("eco in B20..B99", true),
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
        ] {
            assert!(Filter::parse(text).unwrap().needs_replay(), "{text}");
        }
    }
}
