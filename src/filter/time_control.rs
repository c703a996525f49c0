//! The `TimeControl` tag in all its PGN forms.

use std::fmt;

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// `moves/seconds` or `moves/seconds+increment`: so many moves in so
    /// many seconds (FIDE writes an increment there too: `40/5400+30`).
    Moves {
        /// Moves to play in the period.
        moves: u64,
        /// Seconds for them.
        seconds: u64,
        /// Seconds added after each move (0 when none is written).
        increment: u64,
    },
    /// `seconds` or `seconds+increment`: the rest of the game.
    SuddenDeath {
        /// Base time in seconds.
        seconds: u64,
        /// Seconds added after each move.
        increment: u64,
    },
    /// `*seconds`: a sandclock (hourglass).
    Sandclock {
        /// Seconds in the glass.
        seconds: u64,
    },
}

/// A parsed `TimeControl` value (PGN standard 9.6.1).
///
/// # Examples
/// ```
/// use pgnkit::filter::{Period, TimeControl};
/// let tc: TimeControl = "40/7200:3600".parse().unwrap();
/// assert_eq!(tc.base(), Some(7200));
/// assert_eq!(tc.moves(), Some(40));
/// let tc: TimeControl = "300+2".parse().unwrap();
/// assert_eq!((tc.base(), tc.increment()), (Some(300), Some(2)));
/// let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
/// assert_eq!((tc.moves(), tc.base(), tc.increment()), (Some(40), Some(5400), Some(30)));
/// assert_eq!("-".parse::<TimeControl>().unwrap(), TimeControl::None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: not known.
    Unknown,
    /// `-`: no time control.
    None,
    /// Periods separated by `:`.
    Periods(Vec<Period>),
}

/// A `TimeControl` value in none of the PGN forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseTimeControlError;

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a PGN time control (?, -, moves/seconds[+increment], seconds[+increment], *seconds, joined by :)")
    }
}

impl std::error::Error for ParseTimeControlError {}

fn number(text: &str) -> Result<u64, ParseTimeControlError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseTimeControlError);
    }
    text.parse().map_err(|_| ParseTimeControlError)
}

impl std::str::FromStr for Period {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<Period, ParseTimeControlError> {
        if let Some(seconds) = text.strip_prefix('*') {
            return Ok(Period::Sandclock {
                seconds: number(seconds)?,
            });
        }
        if let Some((moves, rest)) = text.split_once('/') {
            let (seconds, increment) = seconds_increment(rest)?;
            return Ok(Period::Moves {
                moves: number(moves)?,
                seconds,
                increment,
            });
        }
        let (seconds, increment) = seconds_increment(text)?;
        Ok(Period::SuddenDeath { seconds, increment })
    }
}

/// `seconds` or `seconds+increment`.
fn seconds_increment(text: &str) -> Result<(u64, u64), ParseTimeControlError> {
    match text.split_once('+') {
        Some((s, i)) => Ok((number(s)?, number(i)?)),
        None => Ok((number(text)?, 0)),
    }
}

impl std::str::FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        match text.trim() {
            "?" => Ok(TimeControl::Unknown),
            "-" => Ok(TimeControl::None),
            text => text
                .split(':')
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map(TimeControl::Periods),
        }
    }
}

impl TimeControl {
    fn first(&self) -> Option<&Period> {
        match self {
            TimeControl::Periods(periods) => periods.first(),
            _ => None,
        }
    }

    /// The first period's seconds.
    pub fn base(&self) -> Option<u64> {
        self.first().map(|p| match *p {
            Period::Moves { seconds, .. }
            | Period::SuddenDeath { seconds, .. }
            | Period::Sandclock { seconds } => seconds,
        })
    }

    /// The first period's increment per move (0 when it has none).
    pub fn increment(&self) -> Option<u64> {
        self.first().map(|p| match *p {
            Period::Moves { increment, .. } | Period::SuddenDeath { increment, .. } => increment,
            Period::Sandclock { .. } => 0,
        })
    }

    /// The first period's number of moves, if it is `moves/seconds`.
    pub fn moves(&self) -> Option<u64> {
        match self.first() {
            Some(Period::Moves { moves, .. }) => Some(*moves),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pgn_form() {
        // (text, base, increment, moves)
        let cases = [
            ("40/7200:3600", Some((Some(7200), Some(0), Some(40)))),
            ("300+2", Some((Some(300), Some(2), None))),
            ("*60", Some((Some(60), Some(0), None))),
            ("10/2592000", Some((Some(2592000), Some(0), Some(10)))),
            ("5400+30", Some((Some(5400), Some(30), None))),
            (
                "40/7200:20/3600:900+30",
                Some((Some(7200), Some(0), Some(40))),
            ),
            ("40/5400+30:1800+30", Some((Some(5400), Some(30), Some(40)))),
            (
                "40/5400+30:20/3000+30:900+30",
                Some((Some(5400), Some(30), Some(40))),
            ),
            ("40/7200+0:3600", Some((Some(7200), Some(0), Some(40)))),
            ("-", Some((None, None, None))),
            ("?", Some((None, None, None))),
            ("", None),
            ("40/", None),
            ("5+", None),
            ("abc", None),
            ("40/7200:", None),
            ("40/5400+", None),
            ("40/+30", None),
            ("40/5400+30+30", None),
            ("/5400+30", None),
        ];
        for (text, expected) in cases {
            let got = text
                .parse::<TimeControl>()
                .ok()
                .map(|tc| (tc.base(), tc.increment(), tc.moves()));
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn a_written_zero_increment_is_the_same_control() {
        let parse = |t: &str| t.parse::<TimeControl>().ok();
        assert_eq!(parse("40/7200:3600"), parse("40/7200+0:3600+0"));
        assert_ne!(parse("40/5400+30:1800+30"), parse("40/5400:1800+30"));
    }
}
