//! The game engine: reads inputs, frames their games, runs a per-game
//! function on the workers of the [`Pipeline`], and hands what it makes to
//! a [`Sink`] in input order.
//!
//! An input is read in one of three ways:
//!
//! - With one job, games are framed on the caller's thread and handed to
//!   the per-game function one at a time, straight from the framer's
//!   buffer: nothing is copied.
//! - A stream (standard input, a compressed or unmapped file) is framed on
//!   the pipeline's coordinating worker into batches of about
//!   [`Options::batch_bytes`] of game text, copied out of the framer.
//! - A mapped plain file is cut into pieces of a bounded number of lines
//!   that the workers frame themselves, so that framing runs in parallel
//!   and each piece's text is read on one core; the pieces are settled in
//!   order, which numbers their games and lines and corrects a wrong cut.
//!
//! With [`Options::records`], each game comes with its *record*: the
//! game's bytes exactly as in the input, with everything after it up to the
//! next game (blank lines, `%` lines, comments between games); the first
//! record also holds what precedes the first game. Concatenating all
//! records gives the input back byte for byte, which is what writing games
//! back unchanged needs. A stream is then read through a tee that keeps
//! every byte read since the last finished record; a mapped file's record
//! is the range from its game's first byte to the next game's.
//!
//! With [`Options::shard`], the run reads one shard of its inputs (see
//! [`crate::shard`]): a plain file read in place is split exactly where
//! a framer over the whole file finds its games (the games before the
//! shard's first byte are framed, not handed out), so games
//! keep their numbers and lines in the whole file. A zstd file of several
//! frames is read from its start, and the games before the text of the
//! shard's frames are framed, not handed out ([`GameFramer::window`]);
//! any other input is read whole by one shard.
//!
//! A game over the framer's size bound reaches the per-game function as an
//! error ([`Item::game`]); an input that cannot be opened, or not read to
//! its end, is reported to the sink ([`Sink::failed`]) and the run goes on
//! with the next one. A read error ends only its input, and only after
//! every game framed before it went through the per-game function and to
//! the sink: the same games for every number of jobs.
//!
//! # Examples
//! ```
//! use std::io;
//! use std::ops::ControlFlow;
//! use pgnkit::engine::{self, Failure, Options, Sink};
//!
//! /// Counts the games.
//! #[derive(Default)]
//! struct Count(u64);
//!
//! impl Sink<u64> for Count {
//!     fn write(&mut self, games: u64, _read: u64) -> io::Result<ControlFlow<()>> {
//!         self.0 += games;
//!         Ok(ControlFlow::Continue(()))
//!     }
//!     fn failed(&mut self, failure: Failure<'_>) {
//!         panic!("{failure:?}");
//!     }
//! }
//!
//! let dir = std::env::temp_dir().join(format!("pgnkit-engine-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("two.pgn");
//! std::fs::write(&path, "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n")?;
//! let mut sink = Count::default();
//! let options = Options { jobs: 2, ..Options::default() };
//! engine::run(&options, &[path], || (), |_, item, games: &mut u64| {
//!     *games += u64::from(item.game.is_ok());
//! }, &mut sink)?;
//! assert_eq!(sink.0, 2);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Read};
use std::ops::{ControlFlow, Range};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::input::{self, BytesRead, Compression, Input, Mapped};
use crate::pgn::{
    Chain, CommentIndex, FramedPiece, GameFramer, Link, RawGame, ReadPgnError, bounded_cuts,
    frame_piece, game_after, game_at,
};
use crate::pipeline::{Pipeline, PipelineError};
use crate::replay::Replayer;
use crate::shard::{Part, Shard, Split};

mod batches;
mod sharding;
mod sniff;

use batches::{Batch, Batches, Slot, Spares, Text, piece_batch};
use sharding::{Window, disk_sizes, load_index};
use sniff::{Sniffed, looks_like_pgn};

/// Bytes of game text per batch handed to a worker. Small enough that a
/// batch's text and output stay in the cache and that the last batches of
/// an input leave no core idle for long; large enough that the per-batch
/// overhead (a task, a channel message, two output writes) is negligible.
pub const BATCH_BYTES: usize = 512 << 10;

/// The most games in a batch of a stream. Each game of a batch costs
/// about a hundred bytes beside its text while the batch waits its turn,
/// so batches of tiny games are cut short: 512 KiB of one-move games are
/// 58,000 games. Real games (about 1 KiB) fill a batch long before.
pub const BATCH_GAMES: usize = 1 << 13;

/// How far into an input a tag or a move must show ([`NotPgn`]).
pub const NOT_PGN_BYTES: u64 = 64 << 20;

/// The error that ends an input with neither a tag nor a move in its first
/// [`NOT_PGN_BYTES`] (`/dev/zero`, an image, a database file): reading it
/// to its end would find no game, or never end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not PGN: no tag and no move in the first {} MiB", NOT_PGN_BYTES >> 20)]
pub struct NotPgn;

/// How long a worker waits for the pieces before its own to be settled.
/// They were handed out before its own and are framed
/// in about the time its own took, so the wait is short; if they take
/// longer (a worker descheduled on a busy machine), the writer settles the
/// piece and does its work when its turn to be written comes.
pub const PATIENCE: Duration = Duration::from_millis(100);

/// How much shorter than the others the last pieces of a mapped file may
/// be ([`bounded_cuts`]). With pieces of one size the last one often ran
/// alone: on pgnmentor (pieces of 685 KiB, 3–4 ms of work each) one
/// worker finished up to 4 ms after the other (1.3 ms on average over six
/// runs); with pieces down to an eighth, within 0.2 ms.
const TAPER: usize = 8;

/// The most games a piece of a mapped file holds: a piece stops after
/// them, and the next is framed from there. A piece's games wait in
/// memory, framed, for the pieces before it, at about a hundred bytes each
/// beside the text: on an archive of one-move games (9 bytes each), pieces
/// of 2 MiB would hold twenty times their size.
pub const PIECE_GAMES: usize = 1 << 16;

/// About the most lines a piece of a mapped file holds, as its cut reads
/// them ([`bounded_cuts`]). Games have a line at least, so pieces of tiny
/// games are cut short of [`PIECE_GAMES`]; real archives (pgnmentor: 38
/// bytes a line) have pieces of their usual size.
const PIECE_LINES: usize = PIECE_GAMES / 2;

/// How a run reads its inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Worker threads (0: one per core; 1: everything on the caller's
    /// thread, in order).
    pub jobs: usize,
    /// Bytes of game text per batch of a stream (at least 1).
    pub batch_bytes: usize,
    /// Bytes per piece of a mapped file; `None`: sixteen pieces a worker,
    /// but at least [`BATCH_BYTES`] and at most four times that
    /// ([`piece_bytes`]).
    pub piece_bytes: Option<usize>,
    /// The most games a piece of a mapped file holds ([`PIECE_GAMES`]; at
    /// least 1).
    pub piece_games: usize,
    /// How long a worker waits for the pieces before its own ([`PATIENCE`]).
    pub patience: Duration,
    /// Whether a plain file mapped into memory is read in place (in pieces,
    /// with more than one job); otherwise it is read as a stream.
    pub map: bool,
    /// Whether each game comes with its record, the bytes up to the next
    /// game ([`Item::record`]).
    pub records: bool,
    /// The shard of the inputs to read ([`crate::shard`]); all of them by
    /// default. A plain file is split only when it is read in place
    /// ([`Options::map`]).
    pub shard: Shard,
    /// The index of the one input ([`ShardIndex`](crate::shard::ShardIndex)), from which a shard
    /// starts instead of framing everything before its range.
    pub index: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            jobs: 0,
            batch_bytes: BATCH_BYTES,
            piece_bytes: None,
            piece_games: PIECE_GAMES,
            patience: PATIENCE,
            map: true,
            records: false,
            shard: Shard::whole(),
            index: None,
        }
    }
}

/// Bytes per piece of a mapped file of `len` bytes read by `jobs`
/// workers: sixteen pieces a worker, so that the last pieces leave no
/// core idle for long, but at least a batch ([`BATCH_BYTES`]) and at most
/// four, which bounds the text in flight. Larger pieces of a large file
/// mean fewer tasks, wake-ups and page releases: on TCEC (131.6 MiB),
/// 2 MiB pieces took 6–10 % off the wall time of 2 threads.
pub fn piece_bytes(len: usize, jobs: usize) -> usize {
    (len / (16 * jobs.max(1))).clamp(BATCH_BYTES, 4 * BATCH_BYTES)
}

/// One game of an input, as the per-game function sees it.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    /// The input's name in messages (`<stdin>` for standard input).
    pub name: &'a str,
    /// The input's place among the paths given to [`run`] (0: the first).
    pub input: usize,
    /// The game, or the error of a game the framer skipped because it is
    /// over the size bound ([`ReadPgnError::GameTooLarge`]).
    pub game: Result<RawGame<'a>, &'a ReadPgnError>,
    /// The game's record ([`Options::records`]); empty without.
    pub record: &'a [u8],
}

/// Why an input was not read to its end.
#[derive(Debug)]
pub enum Failure<'a> {
    /// The input could not be opened; the error names its path.
    Open(io::Error),
    /// Reading failed after some games (which were handed on).
    Read {
        /// The input's name in messages.
        name: &'a str,
        /// What went wrong.
        error: ReadPgnError,
        /// The last game framed whole before the error: its number and
        /// first line; `None` if there was none.
        last_game: Option<(u64, u64)>,
        /// Bytes of the file (compressed bytes, if it is compressed) read
        /// when the error came.
        at: u64,
    },
}

/// A read error of an input, with what was read before it.
#[derive(Debug)]
struct ReadFailure {
    error: ReadPgnError,
    last_game: Option<(u64, u64)>,
    at: u64,
}

/// Where the results of a run go, in input order, and where it tells of
/// its progress. Called on one thread at a time (not always the caller's).
pub trait Sink<T> {
    /// The input `name` was opened; `total` is its size in bytes, if known.
    fn begin(&mut self, name: &str, total: Option<u64>) {
        let _ = (name, total);
    }

    /// What the per-game function made of the next games, and how many
    /// bytes of the input had been read when they were framed.
    ///
    /// # Errors
    /// A failure to write, which ends the run.
    fn write(&mut self, out: T, read: u64) -> io::Result<ControlFlow<()>>;

    /// An output for the per-game function to fill next, called after
    /// each [`write`](Self::write): a sink that keeps a written output's
    /// buffers hands them back here, cleared, so that the next game (one
    /// job) or batch grows no new buffer. A new `T` by default.
    fn fresh(&mut self) -> T
    where
        T: Default,
    {
        T::default()
    }

    /// The input that [`begin`](Self::begin) announced is done with (read
    /// to its end, stopped, or failed).
    fn end(&mut self) {}

    /// An input could not be opened, or not read to its end.
    fn failed(&mut self, failure: Failure<'_>);
}

/// Why a run stopped before its end.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The sink could not write.
    #[error("writing the output: {0}")]
    Write(#[source] io::Error),
    /// The workers could not be started, or one of them died.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// The index of [`Options::index`] cannot be read, or is not the
    /// index of the one input.
    #[error("{}: {reason}", path.display())]
    Index {
        /// The index's path.
        path: PathBuf,
        /// Why it cannot serve.
        reason: String,
    },
}

/// Runs `game` over every game of every input in `paths` (`-` is standard
/// input), and passes what it makes to `sink` in input order.
///
/// The games are handed to the workers in batches; for each batch a
/// worker makes a fresh state with `init` (a replayer, buffers) and takes
/// an output (one that [`Sink::fresh`] handed back, else `T::default()`),
/// passes both to `game` for each of its games in order, and the output
/// goes to [`Sink::write`]. With one job the games are handed over one at
/// a time: one state from `init` serves the whole input, and each game
/// fills an output from [`Sink::fresh`].
///
/// A [`ControlFlow::Break`] from the sink ends the run (the input it came
/// from is ended, the inputs after it are not opened).
///
/// # Errors
/// A failure of the sink to write, or of the worker pool; an input that
/// cannot be read is reported to the sink instead ([`Sink::failed`]).
pub fn run<S, T, I, G, K>(
    options: &Options,
    paths: &[PathBuf],
    init: I,
    game: G,
    sink: &mut K,
) -> Result<(), EngineError>
where
    T: Default + Send,
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut T) + Sync,
    K: Sink<T> + Send,
{
    let pipeline = Pipeline::new(options.jobs);
    let texts = Spares::default();
    let outputs = Spares::default();
    let sizes = disk_sizes(paths);
    let parts = (options.shard.count() > 1).then(|| options.shard.parts(&sizes));
    let index = match &options.index {
        Some(path) => Some(load_index(path, paths)?),
        None => None,
    };
    for (i, path) in paths.iter().enumerate() {
        let part = parts.as_ref().and_then(|parts| parts.get(i));
        if part.is_some_and(Part::is_none) {
            continue;
        }
        // Whether this run reports the input's failures (only one shard
        // does), and reads it if it is one unit.
        let first = part.is_none_or(|part| part.first);
        let name = display_name(path);
        let open = input::OpenOptions { map: options.map };
        let opened = match part {
            Some(_) => open.open_in_place(path),
            None => open.open(path),
        };
        let mut input = match opened {
            Ok(input) => input,
            Err(err) => {
                if first {
                    sink.failed(Failure::Open(err));
                }
                continue;
            }
        };
        let split = part
            .filter(|_| input.mapped_bytes().is_some())
            .map(|part| part.range.clone());
        // The text of a zstd file of several frames that the shard reads.
        let mut window = None;
        if let Some(part) = part
            && split.is_none()
            && input.compression() == Compression::Zstd
        {
            let found = match &index {
                Some(index) if index.split() == Split::Frames => {
                    Ok(Some(Window::indexed(index, part.range.clone())))
                }
                _ => input::zstd_shard_text(path, part.range.clone())
                    .map(|text| text.map(|text| Window { text, start: None })),
            };
            let reopened = match found {
                Ok(None) => Ok(input),
                Ok(Some(w)) if w.text.is_empty() => continue,
                Ok(Some(w)) => {
                    let reopened = w.reopen(path, input);
                    window = Some(w);
                    reopened
                }
                Err(err) => Err(err),
            };
            input = match reopened {
                Ok(input) => input,
                Err(err) => {
                    if first {
                        sink.failed(Failure::Open(err));
                    }
                    continue;
                }
            };
        }
        if part.is_some() && split.is_none() && window.is_none() && !first {
            // One unit, read by another shard.
            continue;
        }
        if let Some(bytes) = input.mapped_bytes()
            && !looks_like_pgn(
                bytes.get(..NOT_PGN_BYTES as usize).unwrap_or(bytes),
                bytes.len(),
            )
        {
            if !first {
                continue;
            }
            sink.begin(&name, input.total_len());
            sink.end();
            sink.failed(Failure::Read {
                name: &name,
                error: ReadPgnError::Io(io::Error::new(io::ErrorKind::InvalidData, NotPgn)),
                last_game: None,
                at: NOT_PGN_BYTES,
            });
            continue;
        }
        sink.begin(&name, input.total_len());
        let work = Work {
            name: &name,
            input: i,
            init: &init,
            game: &game,
            outputs: &outputs,
        };
        let map = if options.map && (pipeline.jobs() > 1 || split.is_some()) {
            input.take_mapped().map(Arc::new)
        } else {
            None
        };
        let result = {
            let mut write = |out: T, read: u64| match sink.write(out, read) {
                Ok(ControlFlow::Continue(())) => Ok(sink.fresh()),
                Ok(ControlFlow::Break(())) => Err(Stop::Enough),
                Err(err) => Err(Stop::Write(err)),
            };
            match map {
                Some(map) => {
                    let len = map.bytes().len();
                    let (start, stop) = match split {
                        Some(range) => {
                            let at = usize::try_from(range.start).unwrap_or(len).min(len);
                            let start = match &index {
                                Some(index) if index.split() == Split::Text => {
                                    game_after(&map, index.before(at as u64), at)
                                }
                                _ => game_at(&map, at),
                            };
                            (start, usize::try_from(range.end).unwrap_or(len).min(len))
                        }
                        None => (game_at(&map, 0), len),
                    };
                    work.pieces(&pipeline, options, &map, start, stop, &mut write)
                }
                None if pipeline.jobs() == 1 && !options.records => {
                    work.one_job(input, options.map, window, &mut write)
                }
                None => work.stream(&pipeline, options, input, window, &texts, &mut write),
            }
        };
        sink.end();
        match result {
            Ok(()) => {}
            Err(Stop::Enough) => return Ok(()),
            Err(Stop::Read(failure)) => sink.failed(Failure::Read {
                name: &name,
                error: failure.error,
                last_game: failure.last_game,
                at: failure.at,
            }),
            Err(Stop::Write(err)) => return Err(EngineError::Write(err)),
            Err(Stop::Pipeline(err)) => return Err(err.into()),
        }
    }
    Ok(())
}

/// The name of an input in messages: `<stdin>` for `-`, else the path.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Why the reading of one input stopped.
enum Stop {
    Read(ReadFailure),
    Write(io::Error),
    Pipeline(PipelineError),
    /// The sink has all it wants.
    Enough,
}

impl From<PipelineError> for Stop {
    fn from(err: PipelineError) -> Stop {
        Stop::Pipeline(err)
    }
}

/// Where the reading of an input passes what the per-game function made
/// of its next games, in order, with the input bytes read by then; it
/// gives back an output to fill next ([`Sink::fresh`]).
type Write<'a, T> = dyn FnMut(T, u64) -> Result<T, Stop> + Send + 'a;

/// The per-game function of a run over one input, making `T`s.
struct Work<'a, I, G, T> {
    name: &'a str,
    /// The input's place among the paths.
    input: usize,
    init: &'a I,
    game: &'a G,
    /// Outputs the sink has written, for the next batches.
    outputs: &'a Spares<T>,
}

impl<S, T, I, G> Work<'_, I, G, T>
where
    T: Default + Send,
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut T) + Sync,
{
    /// Runs the per-game function over the games of a batch.
    fn batch(&self, text: &[u8], comments: &CommentIndex, slots: &[Slot]) -> T {
        let mut state = (self.init)();
        let mut out = self.outputs.take(T::default);
        for slot in slots {
            let game = match &slot.game {
                Ok(info) => {
                    let bytes = text.get(slot.text.clone()).unwrap_or_default();
                    Ok(info.with_text(bytes, comments))
                }
                Err(err) => Err(err),
            };
            let item = Item {
                name: self.name,
                input: self.input,
                game,
                record: text.get(slot.record.clone()).unwrap_or_default(),
            };
            (self.game)(&mut state, &item, &mut out);
        }
        out
    }

    /// Runs the per-game function over one input with one job: games
    /// straight from the framer's buffer, one at a time, no batches to copy
    /// into.
    /// With `window`, only the games that start in its text
    /// ([`GameFramer::window`]).
    fn one_job(
        &self,
        input: Input,
        map: bool,
        window: Option<Window>,
        write: &mut Write<'_, T>,
    ) -> Result<(), Stop> {
        let read = input.bytes_read();
        if map && input.mapped_bytes().is_some() {
            // Checked before ([`looks_like_pgn`]).
            self.framed_one_job(GameFramer::for_input(input), read, write)
        } else if let Some(window) = window {
            let (framer, started) = window.framer(Sniffed::new(input));
            started.map_err(|error| {
                Stop::Read(ReadFailure {
                    error,
                    last_game: None,
                    at: read.get(),
                })
            })?;
            self.framed_one_job(framer, read, write)
        } else {
            self.framed_one_job(GameFramer::new(Sniffed::new(input)), read, write)
        }
    }

    /// The loop of [`one_job`](Self::one_job) over its framer.
    fn framed_one_job<R: Read>(
        &self,
        mut framer: GameFramer<R>,
        read: BytesRead,
        write: &mut Write<'_, T>,
    ) -> Result<(), Stop> {
        let mut last_game = None;
        // One state for the whole input, and outputs the sink hands back:
        // a game's buffers are those of the game before.
        let mut state = (self.init)();
        let mut out = T::default();
        while let Some(raw) = framer.next_game() {
            let raw = match raw {
                Err(err @ ReadPgnError::GameTooLarge { .. }) => Err(err),
                Err(error) => {
                    return Err(Stop::Read(ReadFailure {
                        error,
                        last_game,
                        at: read.get(),
                    }));
                }
                Ok(raw) => {
                    last_game = Some((raw.number, raw.first_line));
                    Ok(raw)
                }
            };
            let item = Item {
                name: self.name,
                input: self.input,
                game: raw.as_ref().copied(),
                record: &[],
            };
            (self.game)(&mut state, &item, &mut out);
            out = write(out, read.get())?;
        }
        Ok(())
    }

    /// Runs the per-game function over a stream on the pipeline: batches
    /// framed on the coordinating worker, of games or of records; with
    /// `window`, of the games that start in its text.
    fn stream(
        &self,
        pipeline: &Pipeline,
        options: &Options,
        input: Input,
        window: Option<Window>,
        texts: &Spares<Vec<u8>>,
        write: &mut Write<'_, T>,
    ) -> Result<(), Stop> {
        let batches = Batches::new(input, options, window, texts.clone());
        pipeline.run(
            batches.map(|batch| batch.map_err(Stop::Read)),
            |batch: Batch| {
                let out = self.batch(batch.text.bytes(), &batch.comments, &batch.slots);
                (out, batch.read, batch.text)
            },
            |(out, read, text): (T, u64, Text)| {
                if let Text::Copied(text) = text {
                    texts.give(text);
                }
                write(out, read).map(|spare| self.outputs.give(spare))
            },
        )
    }

    /// Runs the per-game function over the games of a mapped file that
    /// start at or after `start` (where a game starts) and before `stop`,
    /// on the pipeline, in pieces ([`round`](Self::round)). A piece holds
    /// [`Options::piece_games`] at most ([`frame_piece`]); when one stops
    /// before its end (its text denser than its cut read), no more pieces
    /// are handed out, and the text after the last one written is cut
    /// again, in pieces half as long.
    fn pieces(
        &self,
        pipeline: &Pipeline,
        options: &Options,
        map: &Arc<Mapped>,
        mut start: Link,
        stop: usize,
        write: &mut Write<'_, T>,
    ) -> Result<(), Stop> {
        let mut size = options
            .piece_bytes
            .unwrap_or_else(|| piece_bytes(stop.saturating_sub(start.at), pipeline.jobs()))
            .max(1);
        loop {
            if start.at >= stop && stop > 0 {
                return Ok(());
            }
            let (last, short) = self.round(pipeline, options, map, (start, stop), size, write)?;
            if last.at >= stop || last.at <= start.at {
                return Ok(());
            }
            if short {
                size = (size / 2).max(1);
            }
            start = last;
        }
    }

    /// One round of [`pieces`](Self::pieces): the text from `start` to
    /// `stop` cut into pieces of `size` bytes, shorter toward the end
    /// ([`bounded_cuts`], down to an eighth: [`TAPER`]), each framed by a
    /// worker of its own. The pieces are settled in order ([`Chain`]); a
    /// piece whose turn does not come within [`Options::patience`] is
    /// settled by the writer. The writer gives back the pages of the file
    /// before each piece it has passed on. Gives where the last piece
    /// written stopped, and whether a piece stopped before its end (no
    /// piece is handed out once one did).
    fn round(
        &self,
        pipeline: &Pipeline,
        options: &Options,
        map: &Arc<Mapped>,
        (start, stop): (Link, usize),
        size: usize,
        write: &mut Write<'_, T>,
    ) -> Result<(Link, bool), Stop> {
        let chain = Chain::starting_at(start);
        let patience = options.patience;
        let most = options.piece_games.max(1);
        let short = AtomicBool::new(false);
        let finish = |framed: FramedPiece, piece: &Range<usize>| {
            let end = framed.end;
            if end.at < piece.end {
                short.store(true, Ordering::Relaxed);
            }
            let batch = piece_batch(map, framed, options.records);
            let out = self.batch(batch.text.bytes(), &batch.comments, &batch.slots);
            (out, end)
        };
        // Larger pieces, fewer of them in flight: about the text the
        // pipeline's batches would hold, but two pieces a worker at least.
        let in_flight = (pipeline.in_flight() * BATCH_BYTES / size)
            .max(2 * pipeline.jobs())
            .min(pipeline.in_flight());
        let in_pieces = pipeline.with_in_flight(in_flight);
        let pieces = bounded_cuts(
            &map.bytes()[start.at..stop],
            size,
            size / TAPER,
            in_pieces.jobs(),
            PIECE_LINES,
        )
        .take_while(|_| !short.load(Ordering::Relaxed))
        .enumerate()
        .map(|(index, piece)| Ok((index as u64, start.at + piece.start..start.at + piece.end)));
        let mut last = start;
        in_pieces.run(
            pieces,
            |(index, piece): (u64, Range<usize>)| {
                let guess = frame_piece(map, piece.clone(), 0, 1, most);
                match chain.turn(index, Some(patience)) {
                    Some(turn) => {
                        let (out, end) =
                            finish(turn.settle(map, piece.clone(), guess, most), &piece);
                        PieceOut::Done(out, end)
                    }
                    None => PieceOut::Unsettled(index, piece, guess),
                }
            },
            |out| {
                let (out, end) = match out {
                    PieceOut::Done(out, end) => (out, end),
                    PieceOut::Unsettled(index, piece, guess) => {
                        // Every piece before it was written, and so settled.
                        let turn = chain
                            .turn(index, Some(Duration::ZERO))
                            .ok_or(PipelineError::WorkerLost)?;
                        finish(turn.settle(map, piece.clone(), guess, most), &piece)
                    }
                };
                last = end;
                // The text before the piece's end is done with.
                map.consumed(end.at, 0);
                write(out, end.at as u64).map(|spare| self.outputs.give(spare))
            },
        )?;
        Ok((last, short.load(Ordering::Relaxed)))
    }
}

/// A piece of a mapped file after a worker had it.
enum PieceOut<T> {
    /// Settled and done, with where the piece stopped.
    Done(T, Link),
    /// Framed, but the pieces before it were not settled in time: its
    /// index, its range and its games as framed from its cut.
    Unsettled(u64, Range<usize>, FramedPiece),
}

thread_local! {
    /// Each thread's replayer between batches (see [`PooledReplayer`]).
    static REPLAYER: std::cell::Cell<Option<Replayer>> = const { std::cell::Cell::new(None) };
}

/// A [`Replayer`] kept by the thread between batches, so that its buffers
/// and start position outlive a batch: the state a per-game function
/// makes for each batch.
pub struct PooledReplayer(Option<Replayer>);

impl PooledReplayer {
    /// This thread's replayer (a new one the first time); it goes back to
    /// the thread when dropped.
    pub fn take() -> PooledReplayer {
        PooledReplayer(Some(REPLAYER.take().unwrap_or_default()))
    }
}

impl std::ops::Deref for PooledReplayer {
    type Target = Replayer;

    fn deref(&self) -> &Replayer {
        self.0
            .as_ref()
            .unwrap_or_else(|| unreachable!("taken only on drop"))
    }
}

impl std::ops::DerefMut for PooledReplayer {
    fn deref_mut(&mut self) -> &mut Replayer {
        self.0
            .as_mut()
            .unwrap_or_else(|| unreachable!("taken only on drop"))
    }
}

impl Drop for PooledReplayer {
    fn drop(&mut self) {
        REPLAYER.set(self.0.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_are_bounded_without_tag_lines_and_in_lines() {
        let size = 64 << 10;
        for (text, at_tag) in [
            (b"1. e4 *\n\n".repeat(100_000), false),
            (b"\n1. e4 e5\n  2. Nf3 *\n\n".repeat(30_000), false),
            (b"[E \"x\"]\n\n1. e4 *\n\n".repeat(100_000), true),
        ] {
            let pieces: Vec<_> = bounded_cuts(&text, size, size / TAPER, 2, PIECE_LINES).collect();
            assert!(pieces.len() > 10, "{} pieces", pieces.len());
            assert_eq!(pieces.first().map(|p| p.start), Some(0));
            assert_eq!(pieces.last().map(|p| p.end), Some(text.len()));
            assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
            for piece in &pieces[1..] {
                let line = &text[piece.start..];
                assert!(matches!(text[piece.start - 1], b'\n' | b'\r'));
                if at_tag {
                    assert!(line.starts_with(b"["), "{piece:?}");
                } else {
                    assert!(!matches!(line[0], b'\n' | b'\r'), "{piece:?}");
                }
                assert!(piece.len() <= 2 * size, "{piece:?}");
                let lines = memchr::memchr2_iter(b'\n', b'\r', &text[piece.clone()]).count();
                assert!(lines <= PIECE_LINES + 8, "{lines} lines");
            }
        }
        assert_eq!(
            bounded_cuts(b"", 10, 1, 2, PIECE_LINES).collect::<Vec<_>>(),
            vec![0..0]
        );
        let one_line = vec![b'x'; 1000];
        assert_eq!(
            bounded_cuts(&one_line, 10, 1, 2, PIECE_LINES).collect::<Vec<_>>(),
            vec![0..1000]
        );
    }

    #[test]
    fn pieces_are_a_sixteenth_of_a_workers_share_within_bounds() {
        let mib = 1 << 20;
        assert_eq!(piece_bytes(0, 2), BATCH_BYTES);
        assert_eq!(piece_bytes(22 * mib, 2), 22 * mib / 32);
        assert_eq!(piece_bytes(22 * mib, 8), BATCH_BYTES);
        assert_eq!(piece_bytes(132 * mib, 2), 4 * BATCH_BYTES);
        assert_eq!(piece_bytes(10 << 30, 0), 4 * BATCH_BYTES);
    }
}
