//! An index of one input's shard starts ([`ShardIndex`]): where games
//! start near regular places of the input, with the games and lines
//! before them, so that a shard starts from the nearest place instead of
//! framing everything before its range.
//!
//! An index holds for the file as it was indexed: it records the file's
//! size, modification time and a fingerprint of its bytes at a few
//! places, and [`ShardIndex::check`] refuses a file that differs in any.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

use crate::input::{self, OpenOptions};
use crate::pgn::{GameFramer, Link};

/// The bytes of text between the places of a plain file's index: a
/// shard frames at most this much before its range.
pub const INDEX_STEP: u64 = 1 << 20;

/// The first line of an index.
const HEADER: &str = "pgnkit shard index 2";

/// The first line of an index of an earlier format, which recorded no
/// modification time and no fingerprint.
const OLD_HEADER: &str = "pgnkit shard index 1";

/// The bytes of each place of a file that its fingerprint reads.
const SAMPLE_BYTES: u64 = 4096;

/// The places of a file that its fingerprint reads, beside its start:
/// the ends of its sixteenths.
const SAMPLES: u64 = 16;

/// Where the games of one input start near regular places, as one framer
/// over the whole input finds them: every [`INDEX_STEP`] bytes of a plain
/// file, at every frame of a zstd file of several frames. Written by
/// `pgnkit index`, read by `--shard K/N --index`.
///
/// Its text form is a header line, the input's size, its modification
/// time (whole seconds since 1970, or `unknown`), the fingerprint of its
/// bytes, how the input is split, then a line for each place: `point AT
/// TEXT GAME NUMBER LINE` (the place in the file, the same place in the
/// text, the first game at or after it, the games before that game and
/// its line).
///
/// # Examples
/// ```
/// use pgnkit::shard::ShardIndex;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/myschach.pgn");
/// let index = ShardIndex::build(path.as_ref())?;
/// let text = index.to_string();
/// assert!(text.starts_with("pgnkit shard index 2\nsize "));
/// assert_eq!(text.parse::<ShardIndex>(), Ok(index.clone()));
/// // The file is the one indexed.
/// assert_eq!(index.check(path.as_ref()), Ok(()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardIndex {
    size: u64,
    modified: Option<i64>,
    fingerprint: u64,
    split: Split,
    points: Vec<Point>,
}

/// How a shard reads an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// A plain file, split by bytes.
    Text,
    /// A zstd file of several frames, split by frames.
    Frames,
    /// One unit, read whole by one shard: nothing to index.
    Unit,
}

/// A place of an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The place in the input file: where a frame starts, for frames.
    pub at: u64,
    /// The same place in the text.
    pub text: u64,
    /// The first game at or after `text`, with the games before it and
    /// its line.
    pub game: Link,
}

/// Why an index does not serve a file ([`ShardIndex::check`]): the file
/// changed since it was indexed, or is another file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StaleIndex {
    /// The file's size is not the one indexed.
    #[error("an index of a file of {indexed} bytes, not of the input's {found}")]
    Size {
        /// The size indexed.
        indexed: u64,
        /// The file's size now.
        found: u64,
    },
    /// The file was modified at another time than the one indexed.
    #[error(
        "an index of a file modified at {indexed}, not of the input modified at {found} (seconds since 1970)"
    )]
    Modified {
        /// The time indexed, if known.
        indexed: String,
        /// The file's time now, if known.
        found: String,
    },
    /// The file's bytes at the places sampled are not the ones indexed.
    #[error("an index of other bytes than the input's")]
    Content,
    /// The file cannot be read.
    #[error("cannot read the input: {0}")]
    Unreadable(String),
}

/// Why a text is not an index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: not a pgnkit shard index: {reason}")]
pub struct ParseIndexError {
    line: usize,
    reason: &'static str,
}

impl ShardIndex {
    /// Frames the input at `path` once and notes its places.
    ///
    /// # Errors
    /// When the input cannot be read; the error names the path.
    pub fn build(path: &Path) -> io::Result<ShardIndex> {
        let meta = std::fs::metadata(path)?;
        let size = meta.len();
        let modified = modified(&meta);
        let (split, places): (Split, Vec<(u64, u64)>) = match input::zstd_frame_starts(path)? {
            Some(frames) => (Split::Frames, frames),
            None => {
                let plain = OpenOptions::default().open_in_place(path)?;
                match plain.mapped_bytes() {
                    Some(_) => {
                        let steps = (1..size.div_ceil(INDEX_STEP)).map(|k| k * INDEX_STEP);
                        (Split::Text, steps.map(|at| (at, at)).collect())
                    }
                    None => (Split::Unit, Vec::new()),
                }
            }
        };
        let mut points = Vec::with_capacity(places.len());
        if !places.is_empty() {
            let mut framer = GameFramer::for_input(input::open(path)?);
            for (at, text) in places {
                let found = framer.window(text..u64::MAX).map_err(|e| match e {
                    crate::pgn::ReadPgnError::Io(err) => err,
                    other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
                })?;
                let Some(game) = found else {
                    break;
                };
                let game = Link {
                    at: usize::try_from(game).map_err(|_| io::ErrorKind::InvalidData)?,
                    number: framer.number(),
                    line: framer.line(),
                };
                points.push(Point { at, text, game });
            }
        }
        // Taken after the input was opened as an input, whose errors name
        // it.
        let fingerprint = fingerprint(&mut File::open(path)?, size)?;
        Ok(ShardIndex {
            size,
            modified,
            fingerprint,
            split,
            points,
        })
    }

    /// Checks that the file at `path` is the file indexed, as it was: of
    /// the same size, modified at the same time (to the second) and with
    /// the same bytes at the places the fingerprint reads (the start of
    /// the file and the ends of its sixteenths, 4 KiB each).
    ///
    /// # Errors
    /// The first of these that differs, or the file cannot be read.
    pub fn check(&self, path: &Path) -> Result<(), StaleIndex> {
        let unreadable = |e: io::Error| StaleIndex::Unreadable(e.to_string());
        let meta = std::fs::metadata(path).map_err(unreadable)?;
        if meta.len() != self.size {
            return Err(StaleIndex::Size {
                indexed: self.size,
                found: meta.len(),
            });
        }
        let found = modified(&meta);
        if found != self.modified {
            let text = |t: Option<i64>| t.map_or("an unknown time".into(), |t| t.to_string());
            return Err(StaleIndex::Modified {
                indexed: text(self.modified),
                found: text(found),
            });
        }
        let mut file = File::open(path).map_err(unreadable)?;
        if fingerprint(&mut file, self.size).map_err(unreadable)? != self.fingerprint {
            return Err(StaleIndex::Content);
        }
        Ok(())
    }

    /// The size of the input file indexed.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// How a shard reads the input.
    pub fn split(&self) -> Split {
        self.split
    }

    /// The places, in order.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The nearest place at or before byte `text` of the text where a
    /// game starts, known with the games before it (the start of the
    /// text when there is none).
    pub fn before(&self, text: u64) -> Link {
        let i = self.points.partition_point(|p| p.text <= text);
        i.checked_sub(1).and_then(|i| self.points.get(i)).map_or(
            Link {
                at: 0,
                number: 0,
                line: 1,
            },
            |p| p.game,
        )
    }

    /// The first place at or after byte `range.start` of the file, if one
    /// lies in `range`, and the text of the first at or after its end
    /// (`u64::MAX` when none): the frames a shard reads.
    pub fn within(&self, range: Range<u64>) -> Option<(Point, u64)> {
        let first = self.points.partition_point(|p| p.at < range.start);
        let point = self.points.get(first).filter(|p| p.at < range.end)?;
        let end = self.points.partition_point(|p| p.at < range.end);
        let end = self.points.get(end).map_or(u64::MAX, |p| p.text);
        Some((*point, end))
    }
}

impl fmt::Display for ShardIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let split = match self.split {
            Split::Text => "text",
            Split::Frames => "frames",
            Split::Unit => "unit",
        };
        let modified = self.modified.map_or("unknown".into(), |t| t.to_string());
        writeln!(
            f,
            "{HEADER}\nsize {}\nmodified {modified}\nfingerprint {:016x}\nsplit {split}",
            self.size, self.fingerprint
        )?;
        for p in &self.points {
            let g = p.game;
            writeln!(
                f,
                "point {} {} {} {} {}",
                p.at, p.text, g.at, g.number, g.line
            )?;
        }
        Ok(())
    }
}

impl FromStr for ShardIndex {
    type Err = ParseIndexError;

    fn from_str(s: &str) -> Result<ShardIndex, ParseIndexError> {
        let mut lines = s.lines().enumerate().map(|(i, l)| (i + 1, l));
        let bad = |line, reason| ParseIndexError { line, reason };
        let mut next = |what: &'static str| lines.next().ok_or(bad(0, what));
        let (n, header) = next("no header")?;
        if header == OLD_HEADER {
            return Err(bad(
                n,
                "an index of an earlier format, which cannot tell whether the file changed: run `pgnkit index` again",
            ));
        }
        if header != HEADER {
            return Err(bad(n, "the header is not `pgnkit shard index 2`"));
        }
        let (n, size) = next("no size")?;
        let size = size
            .strip_prefix("size ")
            .and_then(|v| v.parse().ok())
            .ok_or(bad(n, "expected `size BYTES`"))?;
        let (n, modified) = next("no modification time")?;
        let modified = match modified.strip_prefix("modified ") {
            Some("unknown") => None,
            Some(t) => Some(
                t.parse()
                    .map_err(|_| bad(n, "expected `modified SECONDS|unknown`"))?,
            ),
            None => return Err(bad(n, "expected `modified SECONDS|unknown`")),
        };
        let (n, fingerprint) = next("no fingerprint")?;
        let fingerprint = fingerprint
            .strip_prefix("fingerprint ")
            .filter(|v| v.len() == 16)
            .and_then(|v| u64::from_str_radix(v, 16).ok())
            .ok_or(bad(n, "expected `fingerprint HEX` (16 digits)"))?;
        let (n, split) = next("no split")?;
        let split = match split {
            "split text" => Split::Text,
            "split frames" => Split::Frames,
            "split unit" => Split::Unit,
            _ => return Err(bad(n, "expected `split text|frames|unit`")),
        };
        let mut points: Vec<Point> = Vec::new();
        for (n, line) in lines {
            let point = "expected `point AT TEXT GAME NUMBER LINE`";
            let fields: Vec<u64> = line
                .strip_prefix("point ")
                .and_then(|rest| rest.split(' ').map(|v| v.parse().ok()).collect())
                .ok_or(bad(n, point))?;
            let [at, text, game, number, first] = fields[..] else {
                return Err(bad(n, point));
            };
            let game = usize::try_from(game).map_err(|_| bad(n, "a place past memory"))?;
            let ordered = points.last().is_none_or(|p| p.at < at && p.text <= text);
            if !ordered || (game as u64) < text || first == 0 {
                return Err(bad(n, "places out of order"));
            }
            points.push(Point {
                at,
                text,
                game: Link {
                    at: game,
                    number,
                    line: first,
                },
            });
        }
        Ok(ShardIndex {
            size,
            modified,
            fingerprint,
            split,
            points,
        })
    }
}

/// The modification time of a file, in whole seconds since 1970: whole
/// seconds, for a copy that keeps the time (`cp -p`, `rsync -t`) onto a
/// file system of coarser times.
fn modified(meta: &std::fs::Metadata) -> Option<i64> {
    let time = meta.modified().ok()?;
    match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).ok(),
        Err(before) => i64::try_from(before.duration().as_secs()).ok().map(|s| -s),
    }
}

/// A 64-bit FNV-1a hash of `file`'s bytes (of `size` bytes) at its start
/// and the ends of its sixteenths, [`SAMPLE_BYTES`] each: a few reads
/// whatever the file's size, which find a file rewritten with other
/// bytes of the same size.
fn fingerprint(file: &mut File, size: u64) -> io::Result<u64> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut sample = Vec::with_capacity(SAMPLE_BYTES as usize);
    for k in 0..=SAMPLES {
        let end = size / SAMPLES * k + size % SAMPLES * k / SAMPLES;
        let start = end.saturating_sub(SAMPLE_BYTES);
        let end = end.max(SAMPLE_BYTES.min(size));
        file.seek(SeekFrom::Start(start))?;
        sample.clear();
        file.by_ref().take(end - start).read_to_end(&mut sample)?;
        for &b in &sample {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_indexes_are_refused() {
        const HEAD: &str = "pgnkit shard index 2\nsize 10\nmodified 1700000000\n\
                            fingerprint 0123456789abcdef\n";
        let good = format!("{HEAD}split text\npoint 4 4 6 1 3\n");
        assert!(good.parse::<ShardIndex>().is_ok());
        let unknown = good.replace("1700000000", "unknown");
        assert!(unknown.parse::<ShardIndex>().is_ok());
        for (bad, line) in [
            (String::new(), 0),
            ("pgnkit shard index 3\n".into(), 1),
            // The earlier format, without a time or a fingerprint.
            ("pgnkit shard index 1\nsize 10\nsplit text\n".into(), 1),
            ("pgnkit shard index 2\nsize x\n".into(), 2),
            ("pgnkit shard index 2\nsize 1\nmodified x\n".into(), 3),
            ("pgnkit shard index 2\nsize 1\nsplit text\n".into(), 3),
            (
                good.replace("fingerprint 0123456789abcdef", "fingerprint 12"),
                4,
            ),
            (format!("{HEAD}split bytes\n"), 5),
            (format!("{HEAD}split text\npoint 1 1 1 0\n"), 6),
            (format!("{HEAD}split text\npoint 4 4 3 0 1\n"), 6),
            (
                format!("{HEAD}split text\npoint 4 4 4 0 1\npoint 4 4 4 0 1\n"),
                7,
            ),
        ] {
            assert_eq!(
                bad.parse::<ShardIndex>().map_err(|e| e.line),
                Err(line),
                "{bad:?}"
            );
        }
    }

    /// Each place of an index of a plain file is where a framer over the
    /// whole file finds the next game, with the games and lines before it,
    /// whatever the places fall into: tag sections without movetext, games
    /// longer than a step, comments holding tag lines, `\r` line ends.
    #[test]
    fn places_are_where_the_framer_finds_games() {
        let mut text = Vec::new();
        let mut n = 0;
        while text.len() < 3 * INDEX_STEP as usize + 1000 {
            n += 1;
            let game = match n % 4 {
                0 => format!("[Event \"e{n}\"]\n[White \"w\"]\n\n"),
                1 => format!("[Event \"{n}\"]\r\r1. e4 {{c\r[Event \"no\"]\r}} e5 *\r\r"),
                2 if n % 40 == 2 => format!("1. d4 {{{}}} d5 *\n\n", "x".repeat(1 << 19)),
                _ => format!("[Event \"{n}\"]\n\n1. c4 (1. d4 d5) c5 1-0\n\n"),
            };
            text.extend_from_slice(game.as_bytes());
        }
        let path = std::env::temp_dir().join(format!("pgnkit-index-{}.pgn", std::process::id()));
        std::fs::write(&path, &text).expect("a temp file");
        let index = ShardIndex::build(&path);
        let _ = std::fs::remove_file(&path);
        let index = index.expect("an index");
        assert_eq!(index.split(), Split::Text);
        assert!(index.points().len() >= 2, "{:?}", index.points());
        let map = std::sync::Arc::new(crate::input::Mapped::from_bytes(&text));
        for point in index.points() {
            let at = usize::try_from(point.text).expect("small");
            assert_eq!(point.game, crate::pgn::game_at(&map, at), "at {at}");
        }
    }

    #[test]
    fn places_are_found() {
        let index: ShardIndex = "pgnkit shard index 2\nsize 100\nmodified unknown\n\
             fingerprint 0000000000000000\nsplit frames\n\
             point 0 0 0 0 1\npoint 30 200 210 5 40\npoint 60 400 400 9 80\n"
            .parse()
            .expect("an index");
        assert_eq!(index.before(199).at, 0);
        assert_eq!(index.before(200).at, 210);
        assert_eq!(index.before(1000).number, 9);
        let within = |r: Range<u64>| index.within(r).map(|(p, end)| (p.at, end));
        assert_eq!(within(0..30), Some((0, 200)));
        assert_eq!(within(1..60), Some((30, 400)));
        assert_eq!(within(31..60), None);
        assert_eq!(within(31..u64::MAX), Some((60, u64::MAX)));
    }

    /// A file rewritten with other bytes of its size, or touched, or
    /// grown, no longer takes its index.
    #[test]
    fn a_changed_file_is_found() {
        let path = std::env::temp_dir().join(format!("pgnkit-stale-{}.pgn", std::process::id()));
        let game = |n: usize| format!("[Event \"{n:05}\"]\n\n1. e4 e5 *\n\n");
        let text: String = (0..2000).map(game).collect();
        std::fs::write(&path, &text).expect("a temp file");
        let index = ShardIndex::build(&path).expect("an index");
        let file = || File::options().write(true).open(&path).expect("the file");
        let touch = |secs: u64| {
            let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
            file().set_modified(at).expect("a time");
        };
        let indexed = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .expect("a time");
        let back = || file().set_modified(indexed).expect("a time");
        let mut results = vec![index.check(&path)];
        // The same size, other bytes (games in another order), the time
        // set back as it was: the fingerprint finds it.
        let rotated = format!("{}{}", &text[text.len() / 3..], &text[..text.len() / 3]);
        std::fs::write(&path, &rotated).expect("a rewrite");
        back();
        results.push(index.check(&path));
        std::fs::write(&path, &text).expect("a rewrite");
        touch(1);
        results.push(index.check(&path));
        back();
        results.push(index.check(&path));
        std::fs::write(&path, format!("{text} ")).expect("a rewrite");
        results.push(index.check(&path));
        let _ = std::fs::remove_file(&path);
        let found = |r: &Result<(), StaleIndex>| match r {
            Ok(()) => "ok",
            Err(StaleIndex::Size { .. }) => "size",
            Err(StaleIndex::Modified { .. }) => "modified",
            Err(StaleIndex::Content) => "content",
            Err(_) => "other",
        };
        let found: Vec<&str> = results.iter().map(found).collect();
        assert_eq!(found, ["ok", "content", "modified", "ok", "size"]);
    }
}
