//! Exact shards of a run's inputs (`--shard K/N`): which games each of `N`
//! runs reads, so that the `N` runs read every game exactly once.
//!
//! The inputs are taken as one text, file after file, each of its size on
//! disk; the text is cut into `N` byte ranges of nearly equal length,
//! `[⌈T·(K−1)/N⌉, ⌈T·K/N⌉)` for shard `K` of a text of `T` bytes. A plain
//! file that the engine reads in place is split: a game belongs to the
//! shard in which its first byte lies, as a framer over the whole file
//! finds it. A zstd file of several independent frames is split by its
//! frames: the shard reads the text of the frames that start in its range
//! ([`crate::input::zstd_shard_text`]), and a game belongs to the shard in
//! whose text its first byte lies. Any other input (compressed, UTF-16,
//! standard input, a pipe) is one unit, read whole by the shard in which
//! its first byte lies; an input of unknown size counts no bytes. So the shards' outputs, in shard
//! order, concatenate into the output of the one run over every input.
//!
//! # Examples
//! ```
//! use pgnkit::shard::Shard;
//!
//! let shards: Vec<Shard> = (1..=3).map(|k| Shard::new(k, 3)).collect::<Result<_, _>>()?;
//! let ranges: Vec<_> = shards.iter().map(|s| s.range(10)).collect();
//! assert_eq!(ranges, [0..4, 4..7, 7..10]);
//! // Two files of 6 and 4 bytes: the second file starts in shard 2.
//! let parts = shards[1].parts(&[6, 4]);
//! assert_eq!(parts[0].range, 4..6);
//! assert!(!parts[0].first);
//! assert_eq!(parts[1].range, 0..1);
//! assert!(parts[1].first);
//! assert_eq!("2/3".parse::<Shard>()?, shards[1]);
//! # Ok::<(), pgnkit::shard::ParseShardError>(())
//! ```

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

pub use self::index::{INDEX_STEP, ParseIndexError, Point, ShardIndex, Split, StaleIndex};

mod index;

/// Shard `index` of `count` (both from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard is not one: `K/N` with `1 ≤ K ≤ N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseShardError {
    /// Not two numbers with a `/` between them.
    #[error("expected K/N (two numbers, e.g. 3/8), not {0:?}")]
    Syntax(String),
    /// `K` is 0 or more than `N`.
    #[error("shard {index} of {count}: K must be 1 to N")]
    OutOfRange {
        /// `K`.
        index: u32,
        /// `N`.
        count: u32,
    },
}

/// What a shard reads of one input ([`Shard::parts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The bytes of the input whose games the shard reads, if the input is
    /// split: the games whose first byte lies in this range. The last
    /// shard's range of the last input with bytes runs to `u64::MAX`, so
    /// that a file grown since its size was taken loses no game.
    pub range: Range<u64>,
    /// Whether the input's first byte lies in the shard: the shard reads
    /// the input whole if it is one unit, and reports that it cannot be
    /// opened.
    pub first: bool,
}

impl Part {
    /// Whether the shard has nothing to do with the input.
    pub fn is_none(&self) -> bool {
        !self.first && self.range.is_empty()
    }
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// Unless `1 ≤ index ≤ count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ParseShardError> {
        if index == 0 || index > count {
            return Err(ParseShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The one shard of one: the whole text.
    pub fn whole() -> Shard {
        Shard { index: 1, count: 1 }
    }

    /// `K`, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// `N`.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the first shard (which writes headers).
    pub fn is_first(self) -> bool {
        self.index == 1
    }

    /// The shard's bytes of a text of `total` bytes.
    pub fn range(self, total: u64) -> Range<u64> {
        let at = |k: u32| {
            let bytes = u128::from(total) * u128::from(k);
            // At most `total`: fits.
            bytes.div_ceil(u128::from(self.count)) as u64
        };
        at(self.index - 1)..at(self.index)
    }

    /// Whether the byte at `at` of a text of `total` bytes lies in the
    /// shard; a place at the end (`at ≥ total`) lies in the last shard,
    /// and in the first when the text is empty.
    pub fn holds(self, at: u64, total: u64) -> bool {
        if total == 0 {
            return self.index == 1;
        }
        if at >= total {
            return self.index == self.count;
        }
        self.range(total).contains(&at)
    }

    /// What the shard reads of each input, given their sizes in bytes
    /// (0 for an input of unknown size), in the order they are read.
    pub fn parts(self, sizes: &[u64]) -> Vec<Part> {
        let total = sizes.iter().fold(0u64, |sum, &n| sum.saturating_add(n));
        let range = self.range(total);
        let last = self.index == self.count;
        let mut start = 0u64;
        sizes
            .iter()
            .map(|&size| {
                let end = start.saturating_add(size);
                let from = range.start.clamp(start, end) - start;
                let to = if last && end == total && size > 0 {
                    u64::MAX
                } else {
                    range.end.clamp(start, end) - start
                };
                let part = Part {
                    range: from..to.max(from),
                    first: self.holds(start, total),
                };
                start = end;
                part
            })
            .collect()
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::whole()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(s: &str) -> Result<Shard, ParseShardError> {
        let syntax = || ParseShardError::Syntax(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(syntax)?;
        let number = |t: &str| {
            t.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| t.parse::<u32>().ok())
                .flatten()
                .ok_or_else(syntax)
        };
        Shard::new(number(k)?, number(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_text_in_order() {
        for total in [0u64, 1, 2, 7, 100, 1001, u64::MAX] {
            for count in 1..=9 {
                let ranges: Vec<_> = (1..=count)
                    .map(|k| Shard::new(k, count).map(|s| s.range(total)))
                    .collect::<Result<_, _>>()
                    .unwrap_or_default();
                assert_eq!(ranges.first().map(|r| r.start), Some(0));
                assert_eq!(ranges.last().map(|r| r.end), Some(total));
                assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
                // Nearly equal: within a byte of each other.
                let lens: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
                let (min, max) = (lens.iter().min(), lens.iter().max());
                assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "{lens:?}");
            }
        }
    }

    #[test]
    fn each_place_lies_in_one_shard() {
        for total in [0u64, 1, 5, 64] {
            for count in 1..=8 {
                for at in 0..=total + 1 {
                    let holders = (1..=count)
                        .filter(|&k| Shard::new(k, count).is_ok_and(|s| s.holds(at, total)))
                        .count();
                    assert_eq!(holders, 1, "{at} of {total}, {count} shards");
                }
            }
        }
    }

    #[test]
    fn parts_split_files_and_place_units() {
        // Files of 10, 0 (a pipe) and 5 bytes in 3 shards of 5 bytes; the
        // pipe stands at byte 10, which lies in shard 3.
        let sizes = [10, 0, 5];
        let expected = [
            [(0..5, true), (0..0, false), (0..0, false)],
            [(5..10, false), (0..0, false), (0..0, false)],
            [(10..10, false), (0..0, true), (0..u64::MAX, true)],
        ];
        for (k, parts) in (1..=3).zip(expected) {
            let parts: Vec<Part> = parts
                .into_iter()
                .map(|(range, first)| Part { range, first })
                .collect();
            assert_eq!(Shard::new(k, 3).map(|s| s.parts(&sizes)), Ok(parts), "{k}");
        }
        // One shard: everything.
        let whole = Shard::whole().parts(&sizes);
        assert!(whole.iter().all(|p| p.first));
        // Only pipes: shard 1 reads them.
        assert!(Shard::new(1, 2).is_ok_and(|s| s.parts(&[0])[0].first));
        assert!(Shard::new(2, 2).is_ok_and(|s| s.parts(&[0])[0].is_none()));
    }

    #[test]
    fn shards_parse_and_print() {
        for (text, shard) in [("1/1", Shard::new(1, 1)), ("3/8", Shard::new(3, 8))] {
            assert_eq!(text.parse::<Shard>(), shard);
            assert_eq!(shard.map(|s| s.to_string()).as_deref(), Ok(text));
        }
        for bad in [
            "", "1", "1/", "/2", "0/2", "3/2", "1/0", "+1/2", "1 /2", "a/b", "1/2/3",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
