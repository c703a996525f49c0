//! PGN dates (`2020.01.31`, `2019.??.??`) as the range of days they allow.

use std::fmt;

/// The latest day a PGN date can name.
const LAST_DAY: u32 = 99_991_231;

/// A PGN date read as the range of days it allows: `2019.??.??` is every
/// day of 2019, `????.??.??` every day at all.
///
/// Days are encoded as `year * 10000 + month * 100 + day`, so ranges compare
/// as numbers. An unknown day spans the days its month has (Gregorian
/// calendar, leap years counted); a day the month does not have
/// (`2019.02.29`) is no date.
///
/// # Examples
/// ```
/// use pgnkit::filter::PgnDate;
/// let d: PgnDate = "2019.??.??".parse().unwrap();
/// assert_eq!((d.first, d.last), (20190101, 20191231));
/// let d: PgnDate = "2019.02.??".parse().unwrap();
/// assert_eq!((d.first, d.last), (20190201, 20190228));
/// assert!("2019.13.01".parse::<PgnDate>().is_err());
/// assert!("2019.04.31".parse::<PgnDate>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PgnDate {
    /// The earliest day the date allows.
    pub first: u32,
    /// The latest day the date allows.
    pub last: u32,
}

/// A text that is not a PGN date (`YYYY.MM.DD`, each part digits or `?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseDateError;

impl fmt::Display for ParseDateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a PGN date (YYYY.MM.DD, unknown parts as ?)")
    }
}

impl std::error::Error for ParseDateError {}

/// One part of a date: `Some(n)`, or `None` when all question marks.
fn part(
    text: &str,
    len: usize,
    range: std::ops::RangeInclusive<u32>,
) -> Result<Option<u32>, ParseDateError> {
    if text.len() != len {
        return Err(ParseDateError);
    }
    if text.bytes().all(|b| b == b'?') {
        return Ok(None);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseDateError);
    }
    let n: u32 = text.parse().map_err(|_| ParseDateError)?;
    if range.contains(&n) {
        Ok(Some(n))
    } else {
        Err(ParseDateError)
    }
}

impl std::str::FromStr for PgnDate {
    type Err = ParseDateError;

    fn from_str(text: &str) -> Result<PgnDate, ParseDateError> {
        let mut parts = text.trim().split('.');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(ParseDateError);
        };
        let year = part(y, 4, 0..=9999)?;
        let month = part(m, 2, 1..=12)?;
        let day = part(d, 2, 1..=31)?;
        let (y0, y1) = year.map_or((0, 9999), |y| (y, y));
        // A known day or month under an unknown year (`????.03.??`) still
        // narrows nothing we can compare by: treat the whole date as open.
        if year.is_none() {
            return Ok(PgnDate {
                first: 0,
                last: LAST_DAY,
            });
        }
        let (m0, m1) = month.map_or((1, 12), |m| (m, m));
        let (d0, d1) = match (month, day) {
            (Some(m), Some(d)) if d > days_in_month(y0, m) => return Err(ParseDateError),
            (Some(_), Some(d)) => (d, d),
            (Some(m), None) => (1, days_in_month(y0, m)),
            // A day under an unknown month (`2019.??.15`) narrows nothing
            // a range can say: the whole year.
            (None, _) => (1, 31),
        };
        Ok(PgnDate {
            first: y0 * 10000 + m0 * 100 + d0,
            last: y1 * 10000 + m1 * 100 + d1,
        })
    }
}

/// The days of `month` (1 to 12) in `year`, by the Gregorian calendar.
const fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl PgnDate {
    /// A date or the start of one, as a filter writes it: a year (`2020`),
    /// a month (`2020.06`) or a PGN date (`2020.06.15`, `2020.??.??`), each
    /// the range of days it names.
    ///
    /// # Errors
    /// A text in none of these forms.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::filter::PgnDate;
    /// let year = PgnDate::from_period("2020").unwrap();
    /// assert_eq!((year.first, year.last), (20200101, 20201231));
    /// let month = PgnDate::from_period("2020.06").unwrap();
    /// assert_eq!((month.first, month.last), (20200601, 20200630));
    /// assert!(PgnDate::from_period("20200").is_err());
    /// ```
    pub fn from_period(text: &str) -> Result<PgnDate, ParseDateError> {
        let text = text.trim();
        match text.bytes().filter(|&b| b == b'.').count() {
            0 => format!("{text}.??.??").parse(),
            1 => format!("{text}.??").parse(),
            _ => text.parse(),
        }
    }

    /// Whether the date is fully unknown.
    pub fn is_unknown(&self) -> bool {
        self.first == 0 && self.last == LAST_DAY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_day_ranges() {
        let cases = [
            ("2020.01.31", Some((20200131, 20200131))),
            ("2020.02.??", Some((20200201, 20200229))),
            ("2019.02.??", Some((20190201, 20190228))),
            ("1900.02.??", Some((19000201, 19000228))),
            ("2000.02.??", Some((20000201, 20000229))),
            ("2019.04.??", Some((20190401, 20190430))),
            ("2019.12.??", Some((20191201, 20191231))),
            ("2020.02.29", Some((20200229, 20200229))),
            ("2019.02.29", None),
            ("2019.04.31", None),
            ("2019.01.32", None),
            ("2020.??.??", Some((20200101, 20201231))),
            ("????.??.??", Some((0, 99991231))),
            ("2020.??.15", Some((20200101, 20201231))),
            (" 1999.12.01 ", Some((19991201, 19991201))),
            ("2020.1.31", None),
            ("2020.00.01", None),
            ("2020-01-01", None),
            ("2020.01.01.01", None),
            ("20?0.01.01", None),
        ];
        for (text, expected) in cases {
            let got = text.parse::<PgnDate>().ok().map(|d| (d.first, d.last));
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn periods_are_years_months_or_dates() {
        let cases = [
            ("2020", Some((20200101, 20201231))),
            ("2020.06", Some((20200601, 20200630))),
            ("2021.02", Some((20210201, 20210228))),
            ("2019.02.30", None),
            ("2020.??", Some((20200101, 20201231))),
            ("2020.06.15", Some((20200615, 20200615))),
            ("2020.??.??", Some((20200101, 20201231))),
            ("????", Some((0, 99991231))),
            ("0999", Some((9990101, 9991231))),
            ("999", None),
            ("20200", None),
            ("2020.6", None),
            ("2020.13", None),
            ("2020.06.15.", None),
            ("2020-06", None),
            ("", None),
        ];
        for (text, expected) in cases {
            let got = PgnDate::from_period(text).ok().map(|d| (d.first, d.last));
            assert_eq!(got, expected, "{text}");
        }
    }
}
