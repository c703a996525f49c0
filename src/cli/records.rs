//! Reading inputs as *records* for commands that write games back
//! unchanged: a record is a game's bytes exactly as in the input, with
//! everything after it up to the next game (blank lines, `%` lines,
//! comments between games); the first record also holds what precedes the
//! first game. Concatenating all records gives the input back byte for
//! byte.
//!
//! The framer returns games without what lies between them, so the reader
//! is wrapped in a tee that keeps every byte read since the last finished
//! record; a record is finished when the next game is framed. A mapped
//! file with more than one job is read in pieces instead, each framed by
//! a worker ([`run_pieces`]): a record is then the range from its game's
//! first byte to the next game's, and nothing is copied.

use std::io::{self, Read};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use pgnkit::input::{self, BytesRead, Mapped};
use pgnkit::pgn::{FramedPiece, GameFramer, GameInfo, ReadPgnError};
use pgnkit::pipeline::{Pipeline, PipelineError};

use super::games::{FreeTexts, batch_bytes, display_name, inputs, run_pieces};
use super::progress::{Progress, When};

/// The bytes read but not yet handed out, from absolute offset `base`.
#[derive(Default)]
struct Log {
    bytes: Vec<u8>,
    base: u64,
}

/// A reader that keeps a copy of what it reads in the shared log.
struct Tee<R> {
    inner: R,
    log: Arc<Mutex<Log>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        lock(&self.log).bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

fn lock(log: &Mutex<Log>) -> std::sync::MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a record holds.
pub enum Kind {
    /// A framed game.
    Game(GameInfo),
    /// A game over the size bound, skipped by the framer.
    TooLarge(ReadPgnError),
}

/// One record of a batch.
pub struct Record {
    /// A game or a skipped game.
    pub kind: Kind,
    /// The record's bytes in the batch text.
    pub record: Range<usize>,
    /// The game's framed text in the batch text (empty for a skipped game).
    pub game: Range<usize>,
}

/// The text a batch's record ranges point into.
pub enum RecordText {
    /// The records copied out of the input, one after another.
    Copied(Vec<u8>),
    /// A mapped file: the ranges are the records' places in the file.
    Mapped(Arc<Mapped>),
}

impl RecordText {
    /// The bytes the ranges point into.
    pub fn bytes(&self) -> &[u8] {
        match self {
            RecordText::Copied(text) => text,
            RecordText::Mapped(map) => map.bytes(),
        }
    }
}

/// Records for one worker.
pub struct RecordBatch {
    /// The records' bytes.
    pub text: RecordText,
    /// The records, in input order.
    pub items: Vec<Record>,
    /// Input bytes read when the batch was complete.
    pub bytes_read: u64,
}

/// A record whose end is not known yet.
struct Pending {
    start: u64,
    game_at: u64,
    game_len: usize,
    kind: Kind,
}

struct Records<R> {
    framer: GameFramer<Tee<R>>,
    limit: usize,
    /// Texts of written batches, to be filled again (fresh memory for every
    /// batch costs more in page faults than the copying).
    free: FreeTexts,
    log: Arc<Mutex<Log>>,
    pending: Option<Pending>,
    scratch: Vec<u8>,
    started: bool,
    done: bool,
    error: Option<ReadPgnError>,
    bytes_read: BytesRead,
}

impl<R: Read> Records<R> {
    /// Moves the pending record, ending at `end`, into the batch's `text`
    /// and `items`.
    fn complete(&mut self, end: Option<u64>, text: &mut Vec<u8>, items: &mut Vec<Record>) {
        let Some(p) = self.pending.take() else { return };
        let mut log = lock(&self.log);
        let end = end.unwrap_or(log.base + log.bytes.len() as u64);
        let from = (p.start - log.base) as usize;
        let to = ((end - log.base) as usize).min(log.bytes.len());
        let at = text.len();
        text.extend_from_slice(&log.bytes[from..to]);
        let game_from = at + (p.game_at - p.start) as usize;
        items.push(Record {
            kind: p.kind,
            record: at..text.len(),
            game: game_from..(game_from + p.game_len).min(text.len()),
        });
        // Drop handed-out bytes now and then, not per game: a drain moves
        // the rest of the log.
        if to > 1 << 20 && to * 2 > log.bytes.len() {
            log.bytes.drain(..to);
            log.base += to as u64;
        }
    }

    fn start_of(&mut self, offset: u64) -> u64 {
        let start = if self.started { offset } else { 0 };
        self.started = true;
        start
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<RecordBatch, ReadPgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(err) = self.error.take() {
            return Some(Err(err));
        }
        if self.done {
            return None;
        }
        let mut text = self.free.take(self.limit);
        let mut items = Vec::new();
        while text.len() < self.limit {
            self.scratch.clear();
            match self.framer.next_game_into(&mut self.scratch) {
                Some(Ok(info)) => {
                    self.complete(Some(info.offset), &mut text, &mut items);
                    let start = self.start_of(info.offset);
                    self.pending = Some(Pending {
                        start,
                        game_at: info.offset,
                        game_len: self.scratch.len(),
                        kind: Kind::Game(info),
                    });
                }
                Some(Err(err @ ReadPgnError::GameTooLarge { offset, .. })) => {
                    self.complete(Some(offset), &mut text, &mut items);
                    let start = self.start_of(offset);
                    self.pending = Some(Pending {
                        start,
                        game_at: offset,
                        game_len: 0,
                        kind: Kind::TooLarge(err),
                    });
                }
                Some(Err(err)) => {
                    self.complete(None, &mut text, &mut items);
                    self.error = Some(err);
                    self.done = true;
                    break;
                }
                None => {
                    self.complete(None, &mut text, &mut items);
                    self.done = true;
                    break;
                }
            }
        }
        if items.is_empty() {
            return self.error.take().map(Err);
        }
        Some(Ok(RecordBatch {
            text: RecordText::Copied(text),
            items,
            bytes_read: self.bytes_read.get(),
        }))
    }
}

/// What a worker made of a batch.
#[derive(Default)]
pub struct RecordsDone {
    /// The output, record after record.
    pub stdout: Vec<u8>,
    /// Where each output record ends in `stdout` (for `--first`).
    pub ends: Vec<usize>,
    /// Messages for standard error.
    pub stderr: Vec<u8>,
    /// Records read.
    pub games: u64,
    /// Input bytes read when the batch was complete.
    pub bytes_read: u64,
}

/// Totals of a run.
#[derive(Debug, Default)]
pub struct RecordsRun {
    /// Records read.
    pub games: u64,
    /// Records written (or counted).
    pub written: u64,
    /// Whether an input could not be read.
    pub io_error: bool,
}

enum StopReason {
    Read(ReadPgnError),
    Write(io::Error),
    Pipeline(PipelineError),
    Enough,
}

impl From<PipelineError> for StopReason {
    fn from(err: PipelineError) -> StopReason {
        StopReason::Pipeline(err)
    }
}

/// Runs `work` over the records of every input in order, writing what it
/// returns; stops after `limit` output records.
///
/// # Errors
/// Writing the output or starting the workers; unreadable inputs are
/// reported and recorded in [`RecordsRun::io_error`].
pub fn execute<W>(
    files: &[PathBuf],
    jobs: usize,
    progress: When,
    limit: Option<u64>,
    out: &mut (dyn io::Write + Send),
    work: W,
) -> anyhow::Result<RecordsRun>
where
    W: Fn(&str, &RecordBatch) -> RecordsDone + Sync,
{
    let pipeline = Pipeline::new(jobs);
    // At most as many texts as batches in flight.
    let free = FreeTexts::default();
    let mut run = RecordsRun::default();
    // The last byte written: a file whose last game has no line break
    // must not run into the next file's first game (within a file, the
    // records are written as they are).
    let mut last = b'\n';
    for path in inputs(files) {
        if limit.is_some_and(|n| run.written >= n) {
            break;
        }
        let name = display_name(&path);
        let input = match super::open_input(&path) {
            Ok(input) => input,
            Err(err) => {
                eprintln!("pgnkit: {err}");
                run.io_error = true;
                continue;
            }
        };
        let mut bar = Progress::new(progress, false, input.total_len());
        let mut file_start = true;
        let mut write = |done: RecordsDone| {
            if !done.stderr.is_empty() {
                bar.suspend(|| eprint!("{}", String::from_utf8_lossy(&done.stderr)));
            }
            let room = limit.map_or(usize::MAX, |n| (n - run.written) as usize);
            let take = done.ends.len().min(room);
            let upto = if take == 0 { 0 } else { done.ends[take - 1] };
            if upto > 0 && file_start && !matches!(last, b'\n' | b'\r') {
                out.write_all(b"\n\n").map_err(StopReason::Write)?;
            }
            out.write_all(&done.stdout[..upto])
                .map_err(StopReason::Write)?;
            if upto > 0 {
                last = done.stdout[upto - 1];
                file_start = false;
            }
            run.written += take as u64;
            run.games += done.games;
            bar.advance(done.bytes_read, done.games, 0);
            if limit.is_some_and(|n| run.written >= n) {
                return Err(StopReason::Enough);
            }
            Ok(())
        };
        let mut input = input;
        let map = if pipeline.jobs() > 1 {
            input.take_mapped().map(Arc::new)
        } else {
            None
        };
        let result = match map {
            // A mapped file: each worker frames a piece of it itself.
            Some(map) => run_pieces(
                &pipeline,
                &map,
                |framed: FramedPiece| {
                    let batch = piece_records(&map, framed);
                    let mut done = work(&name, &batch);
                    done.bytes_read = batch.bytes_read;
                    done
                },
                &mut write,
            ),
            None => read_records(&pipeline, input, &name, &free, &work, &mut write),
        };
        bar.finish();
        match result {
            Ok(()) | Err(StopReason::Enough) => {}
            Err(StopReason::Read(err)) => {
                eprintln!("pgnkit: {name}: {err}");
                run.io_error = true;
            }
            Err(StopReason::Write(err)) => return Err(err).context("writing the output"),
            Err(StopReason::Pipeline(err)) => return Err(err.into()),
        }
    }
    out.flush().context("writing the output")?;
    Ok(run)
}

/// The records of a piece of a mapped file: each game up to the next
/// game, the file's first game from the start of the file.
fn piece_records(map: &Arc<Mapped>, framed: FramedPiece) -> RecordBatch {
    let starts: Vec<usize> = framed
        .games
        .iter()
        .scan(framed.start.at, |at, game| {
            match game {
                Ok((info, _)) => *at = info.offset as usize,
                Err(ReadPgnError::GameTooLarge { offset, .. }) => *at = *offset as usize,
                // Not from a mapped file: an empty record where it stands.
                Err(_) => {}
            }
            Some(*at)
        })
        .collect();
    let items = framed
        .games
        .into_iter()
        .enumerate()
        .map(|(i, game)| {
            let start = if i == 0 && framed.start.number == 0 {
                0
            } else {
                starts[i]
            };
            let end = starts.get(i + 1).copied().unwrap_or(framed.end.at);
            let (kind, game) = match game {
                Ok((info, range)) => (Kind::Game(info), range),
                Err(err) => (Kind::TooLarge(err), starts[i]..starts[i]),
            };
            Record {
                kind,
                record: start..end,
                game,
            }
        })
        .collect();
    RecordBatch {
        text: RecordText::Mapped(Arc::clone(map)),
        items,
        bytes_read: framed.end.at as u64,
    }
}

/// Reads `input` as records on this thread and runs `work` over them on
/// the pipeline.
fn read_records<W, K>(
    pipeline: &Pipeline,
    input: input::Input,
    name: &str,
    free: &FreeTexts,
    work: &W,
    mut write: K,
) -> Result<(), StopReason>
where
    W: Fn(&str, &RecordBatch) -> RecordsDone + Sync,
    K: FnMut(RecordsDone) -> Result<(), StopReason> + Send,
{
    let log = Arc::new(Mutex::new(Log::default()));
    let records = Records {
        bytes_read: input.bytes_read(),
        framer: GameFramer::new(Tee {
            inner: input,
            log: Arc::clone(&log),
        }),
        log,
        limit: batch_bytes(),
        free: free.clone(),
        pending: None,
        scratch: Vec::new(),
        started: false,
        done: false,
        error: None,
    };
    let source = records.map(|b| b.map_err(StopReason::Read));
    pipeline.run(
        source,
        |batch: RecordBatch| {
            let mut done = work(name, &batch);
            done.bytes_read = batch.bytes_read;
            (done, batch.text)
        },
        |(done, text): (RecordsDone, RecordText)| {
            if let RecordText::Copied(text) = text {
                free.give(text);
            }
            write(done)
        },
    )
}
