//! What a condition looks at: tags and pseudo-fields, their types and how
//! a name in an expression becomes a field.
//!
//! A name that is all lower case is a pseudo-field (`plies`, `status`, …).
//! A name with an upper-case letter is a tag: a listed tag has the type of
//! the list ([`KNOWN_TAGS`]), an unlisted tag whose name ends in `Date` is a
//! date and any other unlisted tag is a [`FieldType::Value`]. A name that
//! differs from a known field only in case (`white`, `Elo`), or an unlisted
//! tag one edit away from a listed one (`WhitElo`), is a mistake and is
//! reported with the field meant; `tag:Name` names the tag `Name` exactly,
//! whatever its spelling.

use std::borrow::Cow;
use std::fmt;

use super::{Facts, TimeControl};
use crate::color::Color;
use crate::replay::Status;

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
    /// Mainline moves: the full-move numbers its plies span
    /// ([`Replay::moves`](crate::replay::Replay::moves)).
    Moves,
    /// How the mainline ended on the board.
    Status,
    /// From the Result tag: white, black, draw, none.
    Winner,
    /// White or Black.
    Player,
    /// WhiteElo or BlackElo.
    Elo,
    /// The ECO code of the opening, found on the board
    /// ([`crate::opening`]).
    Eco,
    /// The name of the opening, found on the board.
    Opening,
    /// `valid` or `invalid` (the replay's verdict).
    Valid,
    /// A side's clock in seconds (`[%clk]`): after its last move that
    /// shows one, or after its move `n` (`clock.white.40`).
    Clock(Color, Option<u32>),
    /// The seconds a side's moves took in total ([`crate::timeline::Timeline::time_used`]).
    TimeUsed(Color),
    /// The seconds a side's longest move took.
    LongestMove(Color),
    /// The largest fall of the evaluation over one of a side's moves, in
    /// pawns ([`crate::timeline::Timeline::largest_drop`]).
    EvalDrop(Color),
    /// The last evaluation of the mainline, in pawns (a mate: 100 for
    /// the side that mates).
    FinalEval,
    /// The mainline plies with a clock.
    Clocks,
    /// The mainline plies with an evaluation.
    Evals,
}

/// What the values of a field are, which decides what they compare with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldType {
    /// A number: compares with numbers.
    Number,
    /// A PGN date, read as a range of days: compares with dates, years
    /// (`2020`) and months (`2020.06`).
    Date,
    /// Text: compares as text, in byte order.
    Text,
    /// An unlisted tag: compares as numbers when both sides are numbers,
    /// else as text.
    Value,
    /// The `TimeControl` tag: equal when the time controls are equal.
    TimeControl,
    /// The `Result` tag: 1-0, 0-1, 1/2-1/2 or *.
    Result,
    /// `winner`: white, black, draw or none.
    Winner,
    /// `status`: how the mainline ended.
    Status,
}

impl FieldType {
    /// The type as a noun phrase, for messages.
    pub const fn describe(self) -> &'static str {
        match self {
            FieldType::Number => "a number",
            FieldType::Date => "a date",
            FieldType::Text => "text",
            FieldType::Value => "a tag value",
            FieldType::TimeControl => "a time control",
            FieldType::Result => "a result",
            FieldType::Winner => "a winner",
            FieldType::Status => "a status",
        }
    }

    /// Whether values of the two types compare with each other.
    pub const fn compares_with(self, other: FieldType) -> bool {
        use FieldType as T;
        matches!(
            (self, other),
            (T::Number | T::Value, T::Number | T::Value)
                | (T::Text | T::Value, T::Text | T::Value)
                | (T::Date, T::Date)
                | (T::TimeControl, T::TimeControl)
                | (T::Result, T::Result)
                | (T::Winner, T::Winner)
                | (T::Status, T::Status)
        )
    }

    /// Whether `<`, `<=`, `>`, `>=` and `in` apply.
    pub const fn is_ordered(self) -> bool {
        matches!(
            self,
            FieldType::Number | FieldType::Date | FieldType::Text | FieldType::Value
        )
    }
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The tags whose type is known; every other tag is a date when its name
/// ends in `Date`, else a [`FieldType::Value`].
pub const KNOWN_TAGS: [(&str, FieldType); 50] = {
    use FieldType::{Date, Number, Result, Text, TimeControl, Value};
    [
        ("Event", Text),
        ("Site", Text),
        ("Date", Date),
        ("Round", Value),
        ("White", Text),
        ("Black", Text),
        ("Result", Result),
        ("WhiteTitle", Text),
        ("BlackTitle", Text),
        ("WhiteElo", Number),
        ("BlackElo", Number),
        ("WhiteUSCF", Number),
        ("BlackUSCF", Number),
        ("WhiteFideId", Number),
        ("BlackFideId", Number),
        ("WhiteRatingDiff", Number),
        ("BlackRatingDiff", Number),
        ("WhiteDays", Number),
        ("BlackDays", Number),
        ("WhiteNA", Text),
        ("BlackNA", Text),
        ("WhiteType", Text),
        ("BlackType", Text),
        ("WhiteTeam", Text),
        ("BlackTeam", Text),
        ("EventDate", Date),
        ("EventSponsor", Text),
        ("EventType", Text),
        ("EventRounds", Number),
        ("EventCountry", Text),
        ("Section", Text),
        ("Stage", Text),
        ("Board", Number),
        ("Opening", Text),
        ("Variation", Text),
        ("SubVariation", Text),
        ("ECO", Text),
        ("NIC", Text),
        ("Time", Text),
        ("UTCTime", Text),
        ("UTCDate", Date),
        ("TimeControl", TimeControl),
        ("SetUp", Text),
        ("FEN", Text),
        ("Termination", Text),
        ("Annotator", Text),
        ("Mode", Text),
        ("PlyCount", Number),
        ("Variant", Text),
        ("SourceDate", Date),
    ]
};

/// The pseudo-fields an expression may name, with their fields.
const PSEUDO_FIELDS: [(&str, Field); 19] = [
    ("plies", Field::Plies),
    ("moves", Field::Moves),
    ("status", Field::Status),
    ("winner", Field::Winner),
    ("player", Field::Player),
    ("elo", Field::Elo),
    ("eco", Field::Eco),
    ("opening", Field::Opening),
    ("clock.white", Field::Clock(Color::White, None)),
    ("clock.black", Field::Clock(Color::Black, None)),
    ("used.white", Field::TimeUsed(Color::White)),
    ("used.black", Field::TimeUsed(Color::Black)),
    ("used.white.max", Field::LongestMove(Color::White)),
    ("used.black.max", Field::LongestMove(Color::Black)),
    ("drop.white", Field::EvalDrop(Color::White)),
    ("drop.black", Field::EvalDrop(Color::Black)),
    ("eval", Field::FinalEval),
    ("clocks", Field::Clocks),
    ("evals", Field::Evals),
];

/// The pseudo-fields of the command comments, which read the movetext's
/// comments ([`Field::needs_timeline`]): the part of [`PSEUDO_FIELDS`]
/// from `clock.white` on.
const TIMELINE_FIELDS: usize = 8;

/// A side's clock after its move `n`: `clock.white.40`.
fn clock_at_move(name: &str) -> Option<Field> {
    let rest = name.strip_prefix("clock.")?;
    let (side, n) = rest.split_once('.')?;
    let side = match side {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return None,
    };
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = n.parse().ok().filter(|&n| n > 0)?;
    Some(Field::Clock(side, Some(n)))
}

/// The parts of `TimeControl` by name.
const TIME_CONTROL_PARTS: [(&str, TimeControlPart); 3] = [
    ("TimeControl.base", TimeControlPart::Base),
    ("TimeControl.increment", TimeControlPart::Increment),
    ("TimeControl.moves", TimeControlPart::Moves),
];

/// A name that names no field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownField {
    /// The name as written.
    pub name: String,
    /// The fields probably meant (empty when none is close).
    pub suggestions: Vec<&'static str>,
}

impl fmt::Display for UnknownField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown field `{}`", self.name)?;
        match self.suggestions.as_slice() {
            [] => write!(
                f,
                " (fields: tags such as White or WhiteElo, tag:Name, {}, \
                 clock.white/.black[.N], used.white/.black[.max], drop.white/.black, \
                 eval, clocks, evals, TimeControl.base, .increment, .moves)",
                PSEUDO_FIELDS[..TIMELINE_FIELDS]
                    .iter()
                    .map(|(name, _)| *name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [one] => write!(f, ": did you mean `{one}`?"),
            many => {
                let quoted: Vec<String> = many.iter().map(|s| format!("`{s}`")).collect();
                write!(f, ": did you mean {}?", quoted.join(" or "))
            }
        }?;
        if self.name.chars().any(char::is_uppercase) {
            write!(f, " (`tag:{}` names a tag of that name)", self.name)?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownField {}

/// Every name a field is known by, for suggestions.
fn known_names() -> impl Iterator<Item = &'static str> {
    KNOWN_TAGS
        .iter()
        .map(|(name, _)| *name)
        .chain(PSEUDO_FIELDS.iter().map(|(name, _)| *name))
        .chain(TIME_CONTROL_PARTS.iter().map(|(name, _)| *name))
}

/// The edit distance between two names (insertions, deletions,
/// substitutions and swaps of neighbours), given up above `limit`.
fn distance(a: &str, b: &str, limit: usize) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

impl Field {
    /// The field a name stands for, without checking: lower-case
    /// pseudo-field names, the parts of `TimeControl`, else a tag. This is
    /// how `pgnkit tags` reads its columns; expressions use
    /// [`Field::resolve`].
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::Field;
    /// assert_eq!(Field::from_name("plies"), Field::Plies);
    /// assert_eq!(Field::from_name("WhiteDays"), Field::Tag("WhiteDays".into()));
    /// ```
    pub fn from_name(name: &str) -> Field {
        if name == "valid" {
            return Field::Valid;
        }
        Field::known(name).unwrap_or_else(|| Field::Tag(name.to_string()))
    }

    /// The pseudo-field, `TimeControl` part or listed tag named exactly
    /// `name`, or a tag named by `tag:Name`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::Field;
    /// assert_eq!(Field::known("BlackElo"), Some(Field::Tag("BlackElo".into())));
    /// assert_eq!(Field::known("tag:clk"), Some(Field::Tag("clk".into())));
    /// assert_eq!(Field::known("Carlsen"), None);
    /// ```
    pub fn known(name: &str) -> Option<Field> {
        if let Some(tag) = name.strip_prefix("tag:")
            && !tag.is_empty()
        {
            return Some(Field::Tag(tag.to_string()));
        }
        if let Some((_, field)) = PSEUDO_FIELDS.iter().find(|(n, _)| *n == name) {
            return Some(field.clone());
        }
        if let Some(field) = clock_at_move(name) {
            return Some(field);
        }
        if let Some((_, part)) = TIME_CONTROL_PARTS.iter().find(|(n, _)| *n == name) {
            return Some(Field::TimeControl(*part));
        }
        KNOWN_TAGS
            .iter()
            .any(|(n, _)| *n == name)
            .then(|| Field::Tag(name.to_string()))
    }

    /// The field a name on the left of a condition stands for, checked.
    ///
    /// An all lower-case name is a pseudo-field; a name with an upper-case
    /// letter is a tag, typed by [`KNOWN_TAGS`] (unlisted: a date when the
    /// name ends in `Date`, else a [`FieldType::Value`]); `tag:Name` is the
    /// tag `Name` as spelt.
    ///
    /// # Errors
    /// A lower-case name that is no pseudo-field, a name that differs from
    /// a known field only in case, or an unlisted tag one edit away from a
    /// listed one; with the fields probably meant.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::Field;
    /// assert_eq!(Field::resolve("mySchachNr"), Ok(Field::Tag("mySchachNr".into())));
    /// let err = Field::resolve("white").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown field `white`: did you mean `White`?");
    /// ```
    pub fn resolve(name: &str) -> Result<Field, UnknownField> {
        if let Some(field) = Field::known(name) {
            return Ok(field);
        }
        let lower = name.to_lowercase();
        let mut suggestions: Vec<&'static str> = known_names()
            .filter(|known| known.to_lowercase() == lower)
            .collect();
        let tag_like = name.chars().any(char::is_uppercase) && !name.starts_with("tag:");
        if suggestions.is_empty() {
            // Unlisted tags are legitimate, so only a near miss of a
            // listed one is taken for a typo; a lower-case name must be a
            // pseudo-field, so any close one is suggested.
            suggestions = if tag_like {
                let limit = usize::from(name.chars().count() >= 5);
                known_names()
                    .filter(|known| distance(&lower, &known.to_lowercase(), limit) <= limit)
                    .collect()
            } else {
                PSEUDO_FIELDS
                    .iter()
                    .map(|(known, _)| *known)
                    .filter(|known| distance(&lower, known, 2) <= 2)
                    .collect()
            };
        }
        if tag_like && suggestions.is_empty() {
            return Ok(Field::Tag(name.to_string()));
        }
        Err(UnknownField {
            name: name.to_string(),
            suggestions,
        })
    }

    /// The type of the field's values.
    pub fn field_type(&self) -> FieldType {
        match self {
            Field::Tag(name) => KNOWN_TAGS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, ty)| *ty)
                .unwrap_or(if name.ends_with("Date") {
                    FieldType::Date
                } else {
                    FieldType::Value
                }),
            Field::TimeControl(_)
            | Field::Plies
            | Field::Moves
            | Field::Elo
            | Field::Clock(..)
            | Field::TimeUsed(_)
            | Field::LongestMove(_)
            | Field::EvalDrop(_)
            | Field::FinalEval
            | Field::Clocks
            | Field::Evals => FieldType::Number,
            Field::Status | Field::Valid => FieldType::Status,
            Field::Winner => FieldType::Winner,
            Field::Player | Field::Eco | Field::Opening => FieldType::Text,
        }
    }

    /// Whether the field's values are text (of tags, or an opening's code
    /// and name), which `~`, `=~` and `!~` search; the other fields are
    /// computed numbers and states.
    pub fn is_tag_text(&self) -> bool {
        matches!(
            self,
            Field::Tag(_) | Field::Player | Field::Elo | Field::Eco | Field::Opening
        )
    }

    /// The field's name as an expression writes it.
    pub fn name(&self) -> Cow<'_, str> {
        let name = match self {
            Field::Tag(name) => return Cow::Borrowed(name),
            Field::TimeControl(TimeControlPart::Base) => "TimeControl.base",
            Field::TimeControl(TimeControlPart::Increment) => "TimeControl.increment",
            Field::TimeControl(TimeControlPart::Moves) => "TimeControl.moves",
            Field::Plies => "plies",
            Field::Moves => "moves",
            Field::Status => "status",
            Field::Winner => "winner",
            Field::Player => "player",
            Field::Elo => "elo",
            Field::Eco => "eco",
            Field::Opening => "opening",
            Field::Valid => "valid",
            Field::Clock(side, Some(n)) => {
                return Cow::Owned(format!("clock.{}.{n}", side_name(*side)));
            }
            _ => PSEUDO_FIELDS
                .iter()
                .find(|(_, field)| field == self)
                .map_or("", |(name, _)| name),
        };
        Cow::Borrowed(name)
    }

    /// Whether the field needs the game replayed.
    pub fn needs_replay(&self) -> bool {
        matches!(
            self,
            Field::Plies
                | Field::Moves
                | Field::Status
                | Field::Valid
                | Field::Eco
                | Field::Opening
        )
    }

    /// Whether the field reads the command comments of the mainline
    /// ([`Facts::timeline`]).
    pub fn needs_timeline(&self) -> bool {
        matches!(self, Field::Clock(..))
            || PSEUDO_FIELDS[TIMELINE_FIELDS..]
                .iter()
                .any(|(_, field)| field == self)
    }

    /// Whether the field's values are fractional numbers (seconds of the
    /// clocks, pawns of the evaluations); the other number fields are
    /// integers.
    pub fn is_fractional(&self) -> bool {
        self.needs_timeline() && !matches!(self, Field::Clocks | Field::Evals)
    }

    /// Whether the field needs the game's opening ([`Facts::opening`]):
    /// its mainline positions shown to a [`crate::opening::Classifier`].
    pub fn needs_opening(&self) -> bool {
        matches!(self, Field::Eco | Field::Opening)
    }

    /// The field's values in a game (two for `player` and `elo`), as text.
    pub fn values<'f>(&self, facts: &'f Facts<'_>) -> Vec<Cow<'f, str>> {
        let tag = |name: &str| facts.tag(name);
        let one = |v: Option<Cow<'f, str>>| v.into_iter().collect();
        match self {
            Field::Tag(name) => one(tag(name)),
            Field::Eco => one(facts.opening.map(|o| Cow::Borrowed(o.eco))),
            Field::Opening => one(facts.opening.map(|o| Cow::Borrowed(o.name))),
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
            Field::Moves => one(facts.replay.map(|r| Cow::Owned(r.moves().to_string()))),
            Field::Status => one(facts.replay.map(|r| Cow::Borrowed(r.termination_name()))),
            Field::Clock(..)
            | Field::TimeUsed(_)
            | Field::LongestMove(_)
            | Field::EvalDrop(_)
            | Field::FinalEval
            | Field::Clocks
            | Field::Evals => one(self.timeline_value(facts).map(Cow::Owned)),
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

impl Field {
    /// The value of a command-comment field, as text: seconds and pawns
    /// as plain decimals (`179.5`, `-0.35`).
    fn timeline_value(&self, facts: &Facts<'_>) -> Option<String> {
        let timeline = facts.timeline?;
        let seconds = |ms: u64| (ms as f64 / 1000.0).to_string();
        let pawns = |cp: i32| (f64::from(cp) / 100.0).to_string();
        let clock_tag = || {
            let tc = facts
                .tag("TimeControl")
                .and_then(|v| v.parse::<TimeControl>().ok());
            let base = tc.as_ref().and_then(TimeControl::base);
            let increment = tc.as_ref().and_then(TimeControl::increment);
            (
                base.map(|s| s.saturating_mul(1000)),
                increment.unwrap_or(0).saturating_mul(1000),
            )
        };
        match self {
            Field::Clock(side, None) => timeline.last_clock(*side).map(seconds),
            Field::Clock(side, Some(n)) => timeline
                .clock_after(*side, usize::try_from(*n).ok()?)
                .map(seconds),
            Field::TimeUsed(side) => {
                let (base, increment) = clock_tag();
                timeline.time_used(*side, base, increment).map(seconds)
            }
            Field::LongestMove(side) => {
                let (base, increment) = clock_tag();
                timeline.longest_move(*side, base, increment).map(seconds)
            }
            Field::EvalDrop(side) => timeline.largest_drop(*side).map(pawns),
            Field::FinalEval => timeline.final_score().map(pawns),
            Field::Clocks => Some(timeline.clocks().to_string()),
            Field::Evals => Some(timeline.evals().to_string()),
            _ => None,
        }
    }
}

/// `white` or `black`.
fn side_name(side: Color) -> &'static str {
    side.fold("white", "black")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_typed_fields() {
        // (name, field, type)
        let cases = [
            ("White", Field::Tag("White".into()), FieldType::Text),
            ("WhiteElo", Field::Tag("WhiteElo".into()), FieldType::Number),
            ("Date", Field::Tag("Date".into()), FieldType::Date),
            ("UTCDate", Field::Tag("UTCDate".into()), FieldType::Date),
            ("MyOwnDate", Field::Tag("MyOwnDate".into()), FieldType::Date),
            ("Round", Field::Tag("Round".into()), FieldType::Value),
            (
                "mySchachNr",
                Field::Tag("mySchachNr".into()),
                FieldType::Value,
            ),
            (
                "WhitemyELO",
                Field::Tag("WhitemyELO".into()),
                FieldType::Value,
            ),
            ("tag:clk", Field::Tag("clk".into()), FieldType::Value),
            (
                "tag:WhiteELO",
                Field::Tag("WhiteELO".into()),
                FieldType::Value,
            ),
            (
                "tag:whiteelo",
                Field::Tag("whiteelo".into()),
                FieldType::Value,
            ),
            ("Result", Field::Tag("Result".into()), FieldType::Result),
            (
                "TimeControl",
                Field::Tag("TimeControl".into()),
                FieldType::TimeControl,
            ),
            (
                "TimeControl.base",
                Field::TimeControl(TimeControlPart::Base),
                FieldType::Number,
            ),
            ("plies", Field::Plies, FieldType::Number),
            ("elo", Field::Elo, FieldType::Number),
            ("player", Field::Player, FieldType::Text),
            ("eco", Field::Eco, FieldType::Text),
            ("opening", Field::Opening, FieldType::Text),
            ("status", Field::Status, FieldType::Status),
            ("winner", Field::Winner, FieldType::Winner),
        ];
        for (name, field, ty) in cases {
            let got = Field::resolve(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((&got, got.field_type()), (&field, ty), "{name}");
        }
    }

    #[test]
    fn unknown_names_have_suggestions() {
        let cases = [
            ("white", "unknown field `white`: did you mean `White`?"),
            (
                "whiteelo",
                "unknown field `whiteelo`: did you mean `WhiteElo`?",
            ),
            (
                "WhiteELO",
                "unknown field `WhiteELO`: did you mean `WhiteElo`? \
                 (`tag:WhiteELO` names a tag of that name)",
            ),
            (
                "Elo",
                "unknown field `Elo`: did you mean `elo`? (`tag:Elo` names a tag of that name)",
            ),
            (
                "Eco",
                "unknown field `Eco`: did you mean `ECO` or `eco`? \
                 (`tag:Eco` names a tag of that name)",
            ),
            (
                "WhitElo",
                "unknown field `WhitElo`: did you mean `WhiteElo`? \
                 (`tag:WhitElo` names a tag of that name)",
            ),
            (
                "Evnet",
                "unknown field `Evnet`: did you mean `Event`? \
                 (`tag:Evnet` names a tag of that name)",
            ),
            ("plys", "unknown field `plys`: did you mean `plies`?"),
            ("stauts", "unknown field `stauts`: did you mean `status`?"),
            (
                "timecontrol.base",
                "unknown field `timecontrol.base`: did you mean `TimeControl.base`?",
            ),
            (
                "game",
                "unknown field `game` (fields: tags such as White or WhiteElo, tag:Name, \
                 plies, moves, status, winner, player, elo, eco, opening, \
                 clock.white/.black[.N], used.white/.black[.max], drop.white/.black, \
                 eval, clocks, evals, TimeControl.base, .increment, .moves)",
            ),
        ];
        for (name, message) in cases {
            let err = Field::resolve(name)
                .err()
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(err.to_string(), message, "{name}");
        }
    }

    #[test]
    fn edit_distance() {
        let cases = [
            ("abc", "abc", 0),
            ("WhitElo", "WhiteElo", 1),
            ("Evnet", "Event", 1),
            ("plys", "plies", 2),
            ("Site", "Time", 2),
        ];
        for (a, b, d) in cases {
            assert_eq!(distance(a, b, 3), d, "{a} {b}");
        }
    }
}
