//! The filter language's syntax: a hand-written recursive descent parser,
//! one function per production, over the expression's text. Errors carry
//! the byte offset of the mistake; the column is computed from it.
//!
//! The parser recurses once per `(` and per `not`, so their nesting is
//! capped at [`MAX_NESTING`]: past it the expression is refused, never
//! parsed into a stack overflow. Chains of `and` (or `or`) are read in a
//! loop and built as balanced trees, so a chain of n terms is log2(n)
//! deep for the evaluator and for `Drop`, not n.

use std::fmt;

use regex::Regex;

use super::{
    Expr, Field, FieldType, Literal, Op, Operand, TimeControl, TimeControlPart, UnknownField,
    date::PgnDate,
    material::{MaterialPattern, ParsePatternError},
    position::{ParseMaterialError, PositionTest},
};
use crate::fen::ParseFenError;

/// The deepest nesting of `(` and `not` that an expression may have; one
/// level more is [`ParseFilterErrorKind::TooDeep`].
const MAX_NESTING: usize = 256;

/// What is wrong with a filter expression.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseFilterErrorKind {
    /// Something else was expected here.
    Expected {
        /// What would have been correct.
        expected: &'static str,
        /// What was found (`end of expression` at the end).
        found: String,
    },
    /// A `"` string without its closing quote.
    UnterminatedString,
    /// A `/…/` regex without its closing slash.
    UnterminatedRegex,
    /// The regex does not compile.
    BadRegex(String),
    /// A `TimeControl.` part other than `base`, `increment`, `moves`.
    UnknownPart(String),
    /// A `status` value that no game can have.
    UnknownStatus(String),
    /// A `winner` value other than white, black, draw, none.
    UnknownWinner(String),
    /// A range (`in LOW..HIGH`) without `..`.
    BadRange(String),
    /// The FEN after `reaches` does not parse.
    BadFen(ParseFenError),
    /// The sides after `material` do not parse.
    BadMaterial(ParseMaterialError),
    /// The pattern after `material` does not parse.
    BadPattern(ParsePatternError),
    /// A value compared with a date that is no date.
    BadDate(String),
    /// A field name that names no field.
    UnknownField(UnknownField),
    /// Two sides whose types do not compare (`Date > Carlsen`,
    /// `White = WhiteElo`).
    Mismatch {
        /// The field on the left.
        left: String,
        /// Its type.
        left_type: FieldType,
        /// The field or value on the right, as written.
        right: String,
        /// Its type.
        right_type: FieldType,
    },
    /// An operator that the field's type does not have (`status > mate`,
    /// `plies ~ 3`).
    BadOperator {
        /// The operator as written.
        op: &'static str,
        /// The field.
        field: String,
        /// Its type.
        field_type: FieldType,
    },
    /// A value compared with `TimeControl` that is no time control.
    BadTimeControl(String),
    /// A `Result` value other than 1-0, 0-1, 1/2-1/2, *.
    UnknownResult(String),
    /// `(` and `not` nested deeper than `limit` levels.
    TooDeep {
        /// The deepest nesting allowed.
        limit: usize,
    },
}

impl fmt::Display for ParseFilterErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            Self::UnterminatedString => f.write_str("string without its closing \""),
            Self::UnterminatedRegex => f.write_str("regex without its closing /"),
            Self::BadRegex(e) => write!(f, "bad regex: {e}"),
            Self::UnknownPart(p) => {
                write!(
                    f,
                    "unknown part `{p}` (TimeControl.base, .increment, .moves)"
                )
            }
            Self::UnknownStatus(s) => {
                write!(
                    f,
                    "unknown status `{s}` (one of: {})",
                    statuses().collect::<Vec<_>>().join(", ")
                )
            }
            Self::UnknownWinner(w) => write!(f, "unknown winner `{w}` (white, black, draw, none)"),
            Self::BadRange(r) => write!(f, "`{r}` is no range (LOW..HIGH)"),
            Self::BadFen(e) => write!(f, "{e}"),
            Self::BadMaterial(e) => write!(f, "bad material: {e}"),
            Self::BadPattern(e) => write!(f, "bad material pattern: {e}"),
            Self::BadDate(d) => write!(
                f,
                "`{d}` is no date (YYYY, YYYY.MM or YYYY.MM.DD; unknown parts ??)"
            ),
            Self::UnknownField(e) => write!(f, "{e}"),
            Self::Mismatch {
                left,
                left_type,
                right,
                right_type,
            } => write!(
                f,
                "`{left}` is {left_type} and `{right}` is {right_type}: they do not compare"
            ),
            Self::BadOperator {
                op,
                field,
                field_type,
            } => match *op {
                "~" | "=~" | "!~" => write!(
                    f,
                    "`{op}` does not apply to `{field}` ({field_type} computed from the game): \
                     ~, =~ and !~ search the text of tags"
                ),
                _ => write!(
                    f,
                    "`{op}` does not apply to `{field}` ({field_type}): use = or !="
                ),
            },
            Self::BadTimeControl(t) => write!(
                f,
                "`{t}` is no time control (?, -, 40/7200, 300+2, *60, periods joined by :)"
            ),
            Self::UnknownResult(r) => write!(f, "unknown result `{r}` (1-0, 0-1, 1/2-1/2, *)"),
            Self::TooDeep { limit } => {
                write!(f, "`(` and `not` nested deeper than {limit} levels")
            }
        }
    }
}

/// A filter expression that does not parse, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFilterError {
    /// Byte offset of the mistake in the expression.
    pub offset: usize,
    /// 1-based column (in characters) of the mistake.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseFilterErrorKind,
}

impl fmt::Display for ParseFilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.kind)
    }
}

impl std::error::Error for ParseFilterError {}

/// The values `status` can be compared with: the termination names, then
/// their aliases ([`crate::replay::TERMINATION_NAMES`],
/// [`crate::replay::TERMINATION_ALIASES`]).
pub fn statuses() -> impl Iterator<Item = &'static str> {
    let names = crate::replay::TERMINATION_NAMES.iter().copied();
    names.chain(
        crate::replay::TERMINATION_ALIASES
            .iter()
            .map(|(alias, _)| *alias),
    )
}

/// A token of the language.
#[derive(Debug, Clone, PartialEq)]
enum Tok<'s> {
    Word(&'s str),
    Str(String),
    Op(Op),
    Open,
    Close,
    End,
}

impl Tok<'_> {
    fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Op(op) => format!("`{}`", op.as_str()),
            Tok::Open => "`(`".to_string(),
            Tok::Close => "`)`".to_string(),
            Tok::End => "end of expression".to_string(),
        }
    }
}

fn is_word_byte(b: u8, first: bool) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'_' | b'.' | b'?' | b'+' | b'-' | b'*' | b':')
        || (b == b'/' && !first)
        || b >= 0x80
}

/// The parser: the text, where it is, how deep in `(` and `not`, and the
/// position tests found.
pub(super) struct Parser<'s> {
    src: &'s str,
    pos: usize,
    depth: usize,
    pub(super) positions: Vec<PositionTest>,
}

type Result<T> = std::result::Result<T, ParseFilterError>;

impl<'s> Parser<'s> {
    pub(super) fn new(src: &'s str) -> Parser<'s> {
        Parser {
            src,
            pos: 0,
            depth: 0,
            positions: Vec::new(),
        }
    }

    fn error(&self, offset: usize, kind: ParseFilterErrorKind) -> ParseFilterError {
        let column = self.src[..offset.min(self.src.len())].chars().count() + 1;
        ParseFilterError {
            offset,
            column,
            kind,
        }
    }

    fn skip_space(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The next token and where it starts, without consuming it.
    fn peek(&mut self) -> Result<(Tok<'s>, usize, usize)> {
        self.skip_space();
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let Some(&b) = bytes.get(start) else {
            return Ok((Tok::End, start, start));
        };
        let two = bytes.get(start..start + 2).unwrap_or_default();
        let (tok, len) = match (b, two) {
            (b'(', _) => (Tok::Open, 1),
            (b')', _) => (Tok::Close, 1),
            (_, b"=~") => (Tok::Op(Op::Matches), 2),
            (_, b"!~") => (Tok::Op(Op::NotMatches), 2),
            (_, b"==") => (Tok::Op(Op::Eq), 2),
            (_, b"!=") => (Tok::Op(Op::Ne), 2),
            (_, b"<=") => (Tok::Op(Op::Le), 2),
            (_, b">=") => (Tok::Op(Op::Ge), 2),
            (b'=', _) => (Tok::Op(Op::Eq), 1),
            (b'<', _) => (Tok::Op(Op::Lt), 1),
            (b'>', _) => (Tok::Op(Op::Gt), 1),
            (b'~', _) => (Tok::Op(Op::Contains), 1),
            (b'"', _) => {
                let mut text = String::new();
                let mut chars = self.src[start + 1..].char_indices();
                loop {
                    match chars.next() {
                        None => {
                            return Err(self.error(start, ParseFilterErrorKind::UnterminatedString));
                        }
                        Some((i, '"')) => return Ok((Tok::Str(text), start, start + 1 + i + 1)),
                        Some((_, '\\')) => match chars.next() {
                            Some((_, c)) => text.push(c),
                            None => {
                                return Err(
                                    self.error(start, ParseFilterErrorKind::UnterminatedString)
                                );
                            }
                        },
                        Some((_, c)) => text.push(c),
                    }
                }
            }
            _ if is_word_byte(b, true) => {
                let len = bytes[start..]
                    .iter()
                    .enumerate()
                    .take_while(|&(i, &b)| is_word_byte(b, i == 0))
                    .count();
                (Tok::Word(&self.src[start..start + len]), len)
            }
            _ => {
                let c = self.src[start..].chars().next().unwrap_or(' ');
                return Err(self.error(
                    start,
                    ParseFilterErrorKind::Expected {
                        expected: "a condition, an operator or a value",
                        found: format!("`{c}`"),
                    },
                ));
            }
        };
        Ok((tok, start, start + len))
    }

    fn next(&mut self) -> Result<(Tok<'s>, usize)> {
        let (tok, start, end) = self.peek()?;
        self.pos = end;
        Ok((tok, start))
    }

    fn expected<T>(&self, expected: &'static str, tok: &Tok<'_>, at: usize) -> Result<T> {
        Err(self.error(
            at,
            ParseFilterErrorKind::Expected {
                expected,
                found: tok.describe(),
            },
        ))
    }

    fn is_keyword(&mut self, keyword: &str) -> Result<bool> {
        let (tok, _, end) = self.peek()?;
        if tok == Tok::Word(keyword) {
            self.pos = end;
            return Ok(true);
        }
        Ok(false)
    }

    /// `filter := or END`
    pub(super) fn filter(&mut self) -> Result<Expr> {
        let expr = self.or()?;
        match self.next()? {
            (Tok::End, _) => Ok(expr),
            (tok, at) => self.expected("`and`, `or` or the end", &tok, at),
        }
    }

    /// `or := and ("or" and)*`
    fn or(&mut self) -> Result<Expr> {
        let first = self.and()?;
        let mut rest = Vec::new();
        while self.is_keyword("or")? {
            rest.push(self.and()?);
        }
        Ok(balanced(first, rest, Expr::Or))
    }

    /// `and := unary ("and" unary)*`
    fn and(&mut self) -> Result<Expr> {
        let first = self.unary()?;
        let mut rest = Vec::new();
        while self.is_keyword("and")? {
            rest.push(self.unary()?);
        }
        Ok(balanced(first, rest, Expr::And))
    }

    /// `unary := "not" unary | primary`, with the `not`s counted in a loop.
    fn unary(&mut self) -> Result<Expr> {
        let outer = self.depth;
        let mut nots = 0;
        loop {
            let (tok, at, end) = self.peek()?;
            if tok != Tok::Word("not") {
                break;
            }
            self.enter(at)?;
            self.pos = end;
            nots += 1;
        }
        let primary = self.primary();
        self.depth = outer;
        let mut expr = primary?;
        for _ in 0..nots {
            expr = Expr::Not(Box::new(expr));
        }
        Ok(expr)
    }

    /// One level deeper in `(` or `not`, the token at `at`; an error past
    /// [`MAX_NESTING`].
    fn enter(&mut self, at: usize) -> Result<()> {
        if self.depth == MAX_NESTING {
            return Err(self.error(at, ParseFilterErrorKind::TooDeep { limit: MAX_NESTING }));
        }
        self.depth += 1;
        Ok(())
    }

    /// `primary := "(" or ")" | "valid" | "true" | "threefold" | "fifty" |
    /// "underpromotion" | reaches | material | condition`
    fn primary(&mut self) -> Result<Expr> {
        let (tok, at) = self.next()?;
        match tok {
            Tok::Open => {
                self.enter(at)?;
                let expr = self.or();
                self.depth -= 1;
                let expr = expr?;
                match self.next()? {
                    (Tok::Close, _) => Ok(expr),
                    (tok, at) => self.expected("`)`", &tok, at),
                }
            }
            Tok::Word("valid") => Ok(Expr::Valid),
            Tok::Word("true") => Ok(Expr::True),
            Tok::Word("reaches") => self.reaches(),
            Tok::Word("material") => self.material(),
            Tok::Word(word @ ("threefold" | "fifty" | "underpromotion")) => {
                self.positions.push(match word {
                    "threefold" => PositionTest::Threefold,
                    "fifty" => PositionTest::FiftyMoves,
                    _ => PositionTest::Underpromotion,
                });
                Ok(Expr::Position(self.positions.len() - 1))
            }
            Tok::Word(name) if name.as_bytes()[0].is_ascii_alphabetic() && !is_reserved(name) => {
                self.condition(name, at)
            }
            tok => self.expected("a condition (a tag or field name, `not`, `(`)", &tok, at),
        }
    }

    /// `reaches := "reaches" STRING`
    fn reaches(&mut self) -> Result<Expr> {
        let (tok, at) = self.next()?;
        let Tok::Str(fen) = tok else {
            return self.expected("a quoted FEN", &tok, at);
        };
        let test = PositionTest::reaches(&fen)
            .map_err(|e| self.error(at, ParseFilterErrorKind::BadFen(e)))?;
        self.positions.push(test);
        Ok(Expr::Position(self.positions.len() - 1))
    }

    /// `material := "material" WORD "vs" WORD | "material" STRING`
    fn material(&mut self) -> Result<Expr> {
        let (white, at) = self.next()?;
        if let Tok::Str(text) = &white {
            let pattern = MaterialPattern::parse(text)
                .map_err(|e| self.error(at, ParseFilterErrorKind::BadPattern(e)))?;
            self.positions.push(PositionTest::Pattern(pattern));
            return Ok(Expr::Position(self.positions.len() - 1));
        }
        let Tok::Word(white) = white else {
            return self.expected("White's pieces (e.g. KQ)", &white, at);
        };
        let (vs, vs_at) = self.next()?;
        if vs != Tok::Word("vs") {
            return self.expected("`vs`", &vs, vs_at);
        }
        let (black, black_at) = self.next()?;
        let Tok::Word(black) = black else {
            return self.expected("Black's pieces (e.g. KR)", &black, black_at);
        };
        let test = PositionTest::material(white, black)
            .map_err(|e| self.error(at, ParseFilterErrorKind::BadMaterial(e)))?;
        self.positions.push(test);
        Ok(Expr::Position(self.positions.len() - 1))
    }

    /// `condition := FIELD OP (value | FIELD) | FIELD "in" WORD..WORD`
    fn condition(&mut self, name: &'s str, name_at: usize) -> Result<Expr> {
        let field = match name.split_once('.') {
            Some(("TimeControl", part)) => Field::TimeControl(match part {
                "base" => TimeControlPart::Base,
                "increment" => TimeControlPart::Increment,
                "moves" => TimeControlPart::Moves,
                _ => {
                    return Err(self.error(
                        name_at + "TimeControl.".len(),
                        ParseFilterErrorKind::UnknownPart(part.to_string()),
                    ));
                }
            }),
            _ => Field::resolve(name)
                .map_err(|e| self.error(name_at, ParseFilterErrorKind::UnknownField(e)))?,
        };
        let (tok, at) = self.next()?;
        if tok == Tok::Word("in") {
            self.check_operator(&field, "in", at)?;
            let (range, range_at) = self.next()?;
            let text = match &range {
                Tok::Word(text) => *text,
                Tok::Str(text) => text.as_str(),
                _ => return self.expected("a range LOW..HIGH", &range, range_at),
            };
            let Some((low, high)) = text.split_once("..") else {
                return Err(self.error(range_at, ParseFilterErrorKind::BadRange(text.to_string())));
            };
            let low_at = range_at + usize::from(matches!(range, Tok::Str(_)));
            return Ok(Expr::In {
                low: self.literal(&field, low, low_at)?,
                high: self.literal(&field, high, low_at + low.len() + 2)?,
                field,
            });
        }
        let Tok::Op(op) = tok else {
            return self.expected("an operator (= != < <= > >= ~ =~ !~ in)", &tok, at);
        };
        if matches!(op, Op::Matches | Op::NotMatches) {
            self.check_operator(&field, op.as_str(), at)?;
            let regex = self.regex()?;
            let mut literal = Literal::new(regex.as_str());
            literal.regex = Some(regex);
            return Ok(Expr::Compare {
                field,
                op,
                value: Operand::Value(literal),
            });
        }
        let op_at = at;
        let (tok, at) = self.next()?;
        let value = match tok {
            Tok::Word(w) => match Field::known(w) {
                Some(right) if op == Op::Contains && right.is_tag_text() => Operand::Field(right),
                _ if op == Op::Contains => Operand::Value(Literal::new(w)),
                Some(right) if field.field_type().compares_with(right.field_type()) => {
                    Operand::Field(right)
                }
                Some(right) => match self.literal(&field, w, at) {
                    Ok(value) => Operand::Value(value),
                    Err(_) => {
                        return Err(self.error(
                            at,
                            ParseFilterErrorKind::Mismatch {
                                left: field.name().into_owned(),
                                left_type: field.field_type(),
                                right: w.to_string(),
                                right_type: right.field_type(),
                            },
                        ));
                    }
                },
                None => Operand::Value(self.literal(&field, w, at)?),
            },
            Tok::Str(s) if op == Op::Contains => Operand::Value(Literal::new(&s)),
            Tok::Str(s) => Operand::Value(self.literal(&field, &s, at)?),
            tok => return self.expected("a value (a word, a number or a \"string\")", &tok, at),
        };
        self.check_operator(&field, op.as_str(), op_at)?;
        Ok(Expr::Compare { field, op, value })
    }

    /// Whether the field's type has the operator `op`.
    fn check_operator(&self, field: &Field, op: &'static str, at: usize) -> Result<()> {
        let ty = field.field_type();
        let allowed = match op {
            "=" | "!=" => true,
            "~" | "=~" | "!~" => field.is_tag_text(),
            _ => ty.is_ordered(),
        };
        if allowed {
            return Ok(());
        }
        Err(self.error(
            at,
            ParseFilterErrorKind::BadOperator {
                op,
                field: field.name().into_owned(),
                field_type: ty,
            },
        ))
    }

    /// A value compared with `field`, read as the field's type; a value
    /// that no game can have there is reported.
    fn literal(&self, field: &Field, text: &str, at: usize) -> Result<Literal> {
        let mut value = Literal::new(text);
        let ty = field.field_type();
        let mismatch = |value: &Literal| {
            let right_type = if value.number.is_some() {
                FieldType::Number
            } else if value.date.is_some() {
                FieldType::Date
            } else {
                FieldType::Text
            };
            self.error(
                at,
                ParseFilterErrorKind::Mismatch {
                    left: field.name().into_owned(),
                    left_type: ty,
                    right: text.to_string(),
                    right_type,
                },
            )
        };
        let lower = value.lower.as_str();
        match ty {
            FieldType::Number if value.number.is_none() => return Err(mismatch(&value)),
            FieldType::Date if value.date.is_none() => {
                if text
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '?')
                {
                    return Err(self.error(at, ParseFilterErrorKind::BadDate(text.to_string())));
                }
                return Err(mismatch(&value));
            }
            FieldType::TimeControl => match text.parse::<TimeControl>() {
                Ok(tc) => value.time_control = Some(tc),
                Err(_) => {
                    return Err(
                        self.error(at, ParseFilterErrorKind::BadTimeControl(text.to_string()))
                    );
                }
            },
            FieldType::Result if !["1-0", "0-1", "1/2-1/2", "*"].contains(&text) => {
                if value.number.is_some() {
                    return Err(mismatch(&value));
                }
                return Err(self.error(at, ParseFilterErrorKind::UnknownResult(text.to_string())));
            }
            FieldType::Winner if !["white", "black", "draw", "none"].contains(&lower) => {
                if value.number.is_some() {
                    return Err(mismatch(&value));
                }
                return Err(self.error(at, ParseFilterErrorKind::UnknownWinner(text.to_string())));
            }
            FieldType::Status if !statuses().any(|s| s == lower) => {
                if value.number.is_some() {
                    return Err(mismatch(&value));
                }
                return Err(self.error(at, ParseFilterErrorKind::UnknownStatus(text.to_string())));
            }
            _ => {}
        }
        Ok(value)
    }

    /// `regex := "/" (any but "/" | "\/")* "/" "i"?`
    fn regex(&mut self) -> Result<Regex> {
        self.skip_space();
        let start = self.pos;
        let rest = &self.src[start..];
        if !rest.starts_with('/') {
            let (tok, at) = self.next()?;
            return self.expected("a /regex/", &tok, at);
        }
        let mut pattern = String::new();
        let mut chars = rest[1..].char_indices();
        let end = loop {
            match chars.next() {
                None => return Err(self.error(start, ParseFilterErrorKind::UnterminatedRegex)),
                Some((i, '/')) => break start + 1 + i + 1,
                Some((_, '\\')) => match chars.next() {
                    Some((_, '/')) => pattern.push('/'),
                    Some((_, c)) => {
                        pattern.push('\\');
                        pattern.push(c);
                    }
                    None => return Err(self.error(start, ParseFilterErrorKind::UnterminatedRegex)),
                },
                Some((_, c)) => pattern.push(c),
            }
        };
        self.pos = end;
        if self.src[end..].starts_with('i')
            && !self.src[end + 1..].starts_with(|c: char| c.is_alphanumeric())
        {
            self.pos += 1;
            pattern.insert_str(0, "(?i)");
        }
        Regex::new(&pattern)
            .map_err(|e| self.error(start, ParseFilterErrorKind::BadRegex(e.to_string())))
    }
}

/// `first` and `rest` joined by `join` into a tree of depth log2(n), the
/// terms in their order: `a and b and c and d` is `(a and b) and (c and
/// d)`. Both operators are associative and evaluate left to right, so the
/// shape changes no result.
fn balanced(first: Expr, mut rest: Vec<Expr>, join: fn(Box<Expr>, Box<Expr>) -> Expr) -> Expr {
    if rest.is_empty() {
        return first;
    }
    let mut right = rest.split_off(rest.len() / 2);
    let right_first = right.remove(0);
    join(
        Box::new(balanced(first, rest, join)),
        Box::new(balanced(right_first, right, join)),
    )
}

fn is_reserved(word: &str) -> bool {
    matches!(word, "and" | "or" | "not" | "in" | "vs")
}

impl Literal {
    fn new(text: &str) -> Literal {
        Literal {
            text: text.to_string(),
            lower: text.to_lowercase(),
            number: super::number(text),
            date: PgnDate::from_period(text).ok(),
            time_control: None,
            regex: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Facts, Filter};
    use super::*;

    fn too_deep(text: &str) -> ParseFilterError {
        match Filter::parse(text) {
            Err(err) => err,
            Ok(_) => panic!("{} bytes parsed", text.len()),
        }
    }

    #[test]
    fn nesting_is_capped() {
        // (expression, byte offset of the token one level too deep)
        let n = 100_000;
        let cases = [
            (
                format!("{}White = x{}", "(".repeat(n), ")".repeat(n)),
                MAX_NESTING,
            ),
            (format!("{}White = x", "not ".repeat(n)), 4 * MAX_NESTING),
            (
                format!("{}White = x", "not (".repeat(n)),
                5 * MAX_NESTING / 2,
            ),
            ("(".repeat(n), MAX_NESTING),
        ];
        for (text, offset) in cases {
            let err = too_deep(&text);
            assert_eq!(
                err.kind,
                ParseFilterErrorKind::TooDeep { limit: MAX_NESTING }
            );
            assert_eq!((err.offset, err.column), (offset, offset + 1));
            assert_eq!(
                err.to_string(),
                format!(
                    "column {}: `(` and `not` nested deeper than 256 levels",
                    offset + 1
                )
            );
        }
    }

    #[test]
    fn nesting_up_to_the_cap_parses_and_evaluates() {
        let facts = Facts::new(b"[White \"x\"]\n\n*");
        let half = MAX_NESTING / 2;
        let cases = [
            (
                format!(
                    "{}White = x{}",
                    "(".repeat(MAX_NESTING),
                    ")".repeat(MAX_NESTING)
                ),
                true,
            ),
            (format!("{}White = x", "not ".repeat(MAX_NESTING)), true),
            (
                format!("{}White = x{}", "not (".repeat(half), ")".repeat(half)),
                true,
            ),
            (
                format!(
                    "{}White = x{}",
                    "(White = y or not ".repeat(half),
                    ")".repeat(half)
                ),
                true,
            ),
            // Depth counts nesting, not how many parentheses there are.
            ("(White = x) and ".repeat(10_000) + "true", true),
        ];
        for (text, expected) in cases {
            let filter = Filter::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(filter.matches(&facts), expected, "{}", &text[..40]);
        }
        let err = too_deep(&format!("({}", "not ".repeat(MAX_NESTING)));
        assert_eq!(err.offset, 1 + 4 * (MAX_NESTING - 1));
    }

    #[test]
    fn long_chains_are_shallow() {
        let facts = Facts::new(b"[White \"x\"]\n\n*");
        let n = 100_000;
        let all = vec!["White = x"; n].join(" and ");
        let any = [vec!["White = y"; n - 1], vec!["White = x"]]
            .concat()
            .join(" or ");
        for (text, expected) in [(all, true), (any, true)] {
            let filter = Filter::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            assert!(depth(filter.expr()) <= 18);
            assert_eq!(filter.matches(&facts), expected);
        }
    }

    fn depth(expr: &Expr) -> usize {
        match expr {
            Expr::And(a, b) | Expr::Or(a, b) => 1 + depth(a).max(depth(b)),
            Expr::Not(a) => 1 + depth(a),
            _ => 0,
        }
    }

    /// Every chain of `and` and `or` over four tags, against every
    /// assignment of the tags: the balanced trees give what precedence
    /// (`and` before `or`) and left-to-right reading say.
    #[test]
    fn balanced_chains_keep_their_meaning() {
        for ops in 0..8u8 {
            let op = |i: u8| if ops >> i & 1 == 1 { "and" } else { "or" };
            let text = format!("A = 1 {} B = 1 {} C = 1 {} D = 1", op(0), op(1), op(2));
            let filter = Filter::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            for values in 0..16u8 {
                let v = |i: u8| values >> i & 1 == 1;
                let game = format!(
                    "[A \"{}\"]\n[B \"{}\"]\n[C \"{}\"]\n[D \"{}\"]\n\n*",
                    u8::from(v(0)),
                    u8::from(v(1)),
                    u8::from(v(2)),
                    u8::from(v(3))
                );
                // Sum of products: `or` splits, `and` multiplies.
                let mut sum = false;
                let mut product = v(0);
                for i in 0..3 {
                    if op(i) == "and" {
                        product = product && v(i + 1);
                    } else {
                        sum = sum || product;
                        product = v(i + 1);
                    }
                }
                let expected = sum || product;
                assert_eq!(
                    filter.matches(&Facts::new(game.as_bytes())),
                    expected,
                    "{text} with {values:04b}"
                );
            }
        }
    }
}
