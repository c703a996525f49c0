//! Commands embedded in comments: `[%clk 0:03:00]`, `[%emt 0:00:05]`,
//! `[%eval 0.17]`, `[%eval #-3]`, as online servers and engines write them
//! (the PGN Specification Supplement's `[%name arg]` form).
//!
//! [`commands`] finds every `[%name arg]` of a comment's text;
//! [`Command::parse`] reads the ones pgnkit knows. Times are kept in whole
//! milliseconds and evaluations in centipawns, so sums and differences are
//! exact.

use std::fmt;

/// An engine evaluation, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (`[%eval 0.17]` is 17).
    Centipawns(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black does (`[%eval #-3]` is -3).
    Mate(i32),
}

/// What a mate score counts as, in centipawns, where evaluations are
/// compared or subtracted ([`Eval::score`]).
pub const MATE_SCORE: i32 = 10_000;

impl Eval {
    /// The evaluation in centipawns, a mate counting as [`MATE_SCORE`]
    /// for the side that mates; `None` for `#0`, which names no side.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Eval, MATE_SCORE};
    /// assert_eq!(Eval::Centipawns(-35).score(), Some(-35));
    /// assert_eq!(Eval::Mate(-3).score(), Some(-MATE_SCORE));
    /// assert_eq!(Eval::Mate(0).score(), None);
    /// ```
    pub fn score(self) -> Option<i32> {
        match self {
            Eval::Centipawns(cp) => Some(cp.clamp(-MATE_SCORE, MATE_SCORE)),
            Eval::Mate(0) => None,
            Eval::Mate(n) => Some(MATE_SCORE * n.signum()),
        }
    }
}

impl fmt::Display for Eval {
    /// As `[%eval]` writes it: pawns with two decimals, or `#n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Centipawns(cp) => {
                let sign = if *cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// A command that pgnkit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `[%clk H:MM:SS]`: the mover's clock after the move, in milliseconds.
    Clock(u64),
    /// `[%emt H:MM:SS]`: the time the move took, in milliseconds.
    Emt(u64),
    /// `[%eval 0.17]`, `[%eval #-3]`, optionally followed by `,depth`.
    Eval(Eval),
}

impl Command {
    /// The command `name` with argument `arg`, if pgnkit knows it and the
    /// argument reads.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Command, Eval};
    /// assert_eq!(Command::parse("clk", "1:02:03.5"), Some(Command::Clock(3_723_500)));
    /// assert_eq!(Command::parse("eval", "-0.5,20"), Some(Command::Eval(Eval::Centipawns(-50))));
    /// assert_eq!(Command::parse("eval", "#-3"), Some(Command::Eval(Eval::Mate(-3))));
    /// assert_eq!(Command::parse("clk", "soon"), None);
    /// assert_eq!(Command::parse("csl", "Ge4"), None);
    /// ```
    pub fn parse(name: &str, arg: &str) -> Option<Command> {
        match name {
            "clk" => duration(arg).map(Command::Clock),
            "emt" => duration(arg).map(Command::Emt),
            "eval" => eval(arg).map(Command::Eval),
            _ => None,
        }
    }

    /// The known commands of a comment's text, in order.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Command, Eval};
    /// let found: Vec<Command> = Command::all(" [%eval 0.17] [%clk 0:03:00] ").collect();
    /// assert_eq!(found, [Command::Eval(Eval::Centipawns(17)), Command::Clock(180_000)]);
    /// ```
    pub fn all(text: &str) -> impl Iterator<Item = Command> + '_ {
        commands(text).filter_map(|(name, arg)| Command::parse(name, arg))
    }
}

/// The `[%name arg]` commands of a comment's text, as `(name, arg)`
/// (both trimmed), known or not.
///
/// # Examples
/// ```
/// use pgnkit::pgn::commands;
/// let found: Vec<_> = commands("x [%clk 1:02:03] [%csl Ge4,Rd5] y").collect();
/// assert_eq!(found, [("clk", "1:02:03"), ("csl", "Ge4,Rd5")]);
/// ```
pub fn commands(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find("[%")?;
        let body = &rest[open + 2..];
        let Some(close) = body.find(']') else {
            rest = "";
            return None;
        };
        let command = body[..close].trim();
        rest = &body[close + 1..];
        let (name, arg) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        Some((name, arg.trim()))
    })
}

/// The most milliseconds a clock may show: a thousand hours, far beyond
/// any game, so that sums over a game cannot overflow.
const MAX_MILLIS: u64 = 1000 * 3600 * 1000;

/// `H:MM:SS(.fff)`, `MM:SS` or `SS` in whole milliseconds (rounded).
fn duration(text: &str) -> Option<u64> {
    let mut parts = text.split(':');
    let seconds = parts.next_back()?;
    let mut minutes = 0u64;
    for part in parts {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) || part.len() > 6 {
            return None;
        }
        minutes = minutes.checked_mul(60)?.checked_add(part.parse().ok()?)?;
    }
    if seconds.is_empty()
        || !seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || seconds.len() > 16
    {
        return None;
    }
    let seconds: f64 = seconds.parse().ok()?;
    // `as` saturates: a huge number of seconds fails the bound below.
    let millis = minutes
        .checked_mul(60_000)?
        .checked_add((seconds * 1000.0).round() as u64)?;
    (millis <= MAX_MILLIS).then_some(millis)
}

/// `0.17`, `-3.05`, `#4`, `#-3`, each optionally followed by `,depth`.
fn eval(text: &str) -> Option<Eval> {
    let value = text.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        return mate.parse::<i32>().ok().map(Eval::Mate);
    }
    if value.is_empty()
        || !value
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+'))
    {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    let cp = (pawns * 100.0).round();
    (cp.is_finite() && cp.abs() <= f64::from(i32::MAX / 2)).then_some(Eval::Centipawns(cp as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let cases = [
            ("1:02:03", Some(3_723_000)),
            ("1:02:03.5", Some(3_723_500)),
            ("0:00:00.05", Some(50)),
            ("0:59", Some(59_000)),
            ("7", Some(7_000)),
            ("00:03:00", Some(180_000)),
            ("", None),
            ("x", None),
            ("1::00", None),
            ("-1:00", None),
            ("0:-5", None),
            ("1e9", None),
            ("NaN", None),
            ("inf", None),
            ("1:00:00:00", Some(216_000_000)),
            ("999999:00:00", None),
            ("1001:00:00", None),
            ("999999:999999:999999:999999:999999:0", None),
            ("1:9999999999999999", None),
            ("9999999999999999", None),
        ];
        for (text, millis) in cases {
            assert_eq!(duration(text), millis, "{text:?}");
        }
    }

    #[test]
    fn evals() {
        let cases = [
            ("0.17", Some(Eval::Centipawns(17))),
            ("-0.5,20", Some(Eval::Centipawns(-50))),
            ("+1.25", Some(Eval::Centipawns(125))),
            ("#3", Some(Eval::Mate(3))),
            ("#-3", Some(Eval::Mate(-3))),
            ("#0", Some(Eval::Mate(0))),
            ("#", None),
            ("#x", None),
            ("", None),
            ("NaN", None),
            ("inf", None),
            ("1e400", None),
            ("99999999999", None),
        ];
        for (text, value) in cases {
            assert_eq!(eval(text), value, "{text:?}");
        }
    }

    #[test]
    fn evals_display_as_written() {
        for text in ["0.17", "-0.50", "12.00", "-0.05", "#4", "#-3"] {
            let value = eval(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(value.to_string(), text);
        }
    }

    #[test]
    fn commands_of_awkward_comments() {
        let found: Vec<_> = commands("[%clk 0:01] [%eval] [%").collect();
        assert_eq!(found, [("clk", "0:01"), ("eval", "")]);
        let found: Vec<_> = commands("[%  clk   0:01  ]]").collect();
        assert_eq!(found, [("clk", "0:01")]);
        assert_eq!(commands("no commands [here]").count(), 0);
        let known: Vec<_> = Command::all("[%emt 0:00:05][%eval #-2][%clk x]").collect();
        assert_eq!(known, [Command::Emt(5_000), Command::Eval(Eval::Mate(-2))]);
    }
}
