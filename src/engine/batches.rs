//! Games handed to the workers in batches: copied out of a stream's framer
//! (with their records, through a tee, when the run wants them), or taken
//! from a settled piece of a mapped file; and the buffers batches reuse.

use std::io::{self, Read};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use super::sharding::Window;
use super::sniff::Sniffed;
use super::{BATCH_GAMES, Options, ReadFailure};
use crate::input::{BytesRead, Input, Mapped};
use crate::pgn::{CommentIndex, FramedPiece, GameFramer, GameInfo, ReadPgnError};

/// A game of a batch: where it came from (or why it was skipped), its
/// text and its record in the batch's text.
pub(super) struct Slot {
    pub(super) game: Result<GameInfo, ReadPgnError>,
    pub(super) text: Range<usize>,
    pub(super) record: Range<usize>,
}

/// The bytes a batch's ranges point into.
pub(super) enum Text {
    /// Copied out of the input, one game (or record) after another.
    Copied(Vec<u8>),
    /// A mapped file: the ranges are places in the file.
    Mapped(Arc<Mapped>),
}

impl Text {
    pub(super) fn bytes(&self) -> &[u8] {
        match self {
            Text::Copied(text) => text,
            Text::Mapped(map) => map.bytes(),
        }
    }
}

/// Framed games for one worker.
pub(super) struct Batch {
    pub(super) text: Text,
    pub(super) comments: CommentIndex,
    pub(super) slots: Vec<Slot>,
    /// Input bytes read when the batch was complete.
    pub(super) read: u64,
}

/// Buffers of written batches for the next batches to fill: the texts the
/// reader copies games into, and the outputs the workers write. A fresh
/// vector per batch would be fresh memory from the system, and its page
/// faults cost more than the copying itself: 12,600 of them, a sixth of
/// the time of `convert` over TCEC with 2 threads. Clones share the
/// buffers. At most as many as there are batches in flight.
pub(super) struct Spares<T>(Arc<Mutex<Vec<T>>>);

impl<T> Default for Spares<T> {
    fn default() -> Spares<T> {
        Spares(Arc::default())
    }
}

impl<T> Clone for Spares<T> {
    fn clone(&self) -> Spares<T> {
        Spares(Arc::clone(&self.0))
    }
}

impl<T> Spares<T> {
    /// A spare buffer, or `make`'s.
    pub(super) fn take(&self, make: impl FnOnce() -> T) -> T {
        let spare = self.0.lock().unwrap_or_else(PoisonError::into_inner).pop();
        spare.unwrap_or_else(make)
    }

    /// Keeps a written batch's buffer for reuse.
    pub(super) fn give(&self, spare: T) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(spare);
    }
}

/// The bytes read but not yet handed out, from absolute offset `base`.
#[derive(Default)]
struct Log {
    bytes: Vec<u8>,
    base: u64,
}

/// A reader that keeps a copy of what it reads in the shared log, if it
/// has one, from the log's base on.
struct Tee<R> {
    inner: R,
    log: Option<Arc<Mutex<Log>>>,
    /// Bytes read so far.
    read: u64,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(log) = &self.log {
            let mut log = lock(log);
            // Nothing before the base: the text before a window.
            let skip = usize::try_from(log.base.saturating_sub(self.read)).map_or(n, |k| k.min(n));
            log.bytes.extend_from_slice(&buf[skip..n]);
        }
        self.read += n as u64;
        Ok(n)
    }
}

fn lock(log: &Mutex<Log>) -> std::sync::MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A record whose end is not known yet.
struct Pending {
    /// Where the record starts (the game, or the input's start for the
    /// first record).
    start: u64,
    game_at: u64,
    game_len: usize,
    game: Result<GameInfo, ReadPgnError>,
}

/// Reads one input as batches of games, copied out of the framer, or of
/// records ([`Options::records`]). For records the framer reads through a
/// tee that keeps every byte read since the last finished record; a record
/// is finished when the next game is framed.
pub(super) struct Batches<R> {
    framer: GameFramer<Tee<R>>,
    /// Bytes of text per batch.
    limit: usize,
    free: Spares<Vec<u8>>,
    /// The tee's log, for records.
    log: Option<Arc<Mutex<Log>>>,
    pending: Option<Pending>,
    /// The comments of the pending game, and of the game framed after it:
    /// a record may be finished in the batch after the one its game was
    /// framed in, whose index its comments are then copied into.
    held: CommentIndex,
    incoming: CommentIndex,
    started: bool,
    done: bool,
    error: Option<ReadFailure>,
    /// The number and first line of the last game framed.
    last_game: Option<(u64, u64)>,
    bytes_read: BytesRead,
}

impl Batches<Sniffed<Input>> {
    /// Batches of the games of `input`; with `window`, of those that start
    /// in its text ([`GameFramer::window`]), each record from its game on.
    pub(super) fn new(
        input: Input,
        options: &Options,
        window: Option<Window>,
        free: Spares<Vec<u8>>,
    ) -> Batches<Sniffed<Input>> {
        let from = window.as_ref().map_or(0, |w| w.text.start.max(w.from()));
        let log = options.records.then(|| {
            Arc::new(Mutex::new(Log {
                bytes: Vec::new(),
                base: from,
            }))
        });
        let bytes_read = input.bytes_read();
        let tee = Tee {
            inner: Sniffed::new(input),
            log: log.clone(),
            read: window.as_ref().map_or(0, Window::from),
        };
        let (framer, started) = match &window {
            Some(window) => window.framer(tee),
            None => (GameFramer::new(tee), Ok(())),
        };
        let error = started.err().map(|error| ReadFailure {
            error,
            last_game: None,
            at: bytes_read.get(),
        });
        Batches {
            bytes_read,
            framer,
            limit: options.batch_bytes.max(1),
            free,
            log,
            pending: None,
            held: CommentIndex::new(),
            incoming: CommentIndex::new(),
            started: from > 0,
            done: error.is_some(),
            error,
            last_game: None,
        }
    }
}

impl<R: Read> Batches<R> {
    /// The next game (or skipped game) appended to the batch: its text
    /// copied into `text`, or, for records, the record before it finished
    /// and the game's own pending.
    fn push(
        &mut self,
        game: Result<GameInfo, ReadPgnError>,
        (at, len): (u64, usize),
        text: &mut Vec<u8>,
        comments: &mut CommentIndex,
        slots: &mut Vec<Slot>,
    ) {
        if self.log.is_none() {
            let range = if game.is_ok() {
                text.len() - len..text.len()
            } else {
                0..0
            };
            slots.push(Slot {
                game,
                text: range,
                record: 0..0,
            });
            return;
        }
        self.complete(Some(at), text, comments, slots);
        std::mem::swap(&mut self.held, &mut self.incoming);
        let start = if self.started { at } else { 0 };
        self.started = true;
        self.pending = Some(Pending {
            start,
            game_at: at,
            game_len: len,
            game,
        });
    }

    /// Moves the pending record, ending at `end` (the end of what was read
    /// when `None`), into the batch's `text` and `slots`.
    fn complete(
        &mut self,
        end: Option<u64>,
        text: &mut Vec<u8>,
        comments: &mut CommentIndex,
        slots: &mut Vec<Slot>,
    ) {
        let (Some(p), Some(log)) = (self.pending.take(), &self.log) else {
            return;
        };
        let mut log = lock(log);
        let end = end.unwrap_or(log.base + log.bytes.len() as u64);
        let from = (p.start - log.base) as usize;
        let to = ((end - log.base) as usize).min(log.bytes.len());
        let at = text.len();
        text.extend_from_slice(&log.bytes[from..to]);
        let game_from = at + (p.game_at - p.start) as usize;
        slots.push(Slot {
            game: p
                .game
                .map(|info| comments.add(&info.with_text(&[], &self.held))),
            text: game_from..(game_from + p.game_len).min(text.len()),
            record: at..text.len(),
        });
        // Drop handed-out bytes now and then, not per game: a drain moves
        // the rest of the log.
        if to > 1 << 20 && to * 2 > log.bytes.len() {
            log.bytes.drain(..to);
            log.base += to as u64;
        }
    }
}

impl<R: Read> Iterator for Batches<R> {
    type Item = Result<Batch, ReadFailure>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(err) = self.error.take() {
            return Some(Err(err));
        }
        if self.done {
            return None;
        }
        let limit = self.limit;
        let mut text = self.free.take(|| Vec::with_capacity(limit + (64 << 10)));
        text.clear();
        let mut comments = CommentIndex::new();
        let mut slots = Vec::new();
        while text.len() < self.limit && slots.len() < BATCH_GAMES {
            let start = text.len();
            let next = if self.log.is_some() {
                // The game's text comes with its record, from the log.
                self.incoming.clear();
                self.framer
                    .next_game_range(&mut self.incoming)
                    .map(|game| game.map(|(info, range)| (info, range.len())))
            } else {
                self.framer
                    .next_game_indexed(&mut text, &mut comments)
                    .map(|game| game.map(|info| (info, text.len() - start)))
            };
            match next {
                Some(Ok((info, len))) => {
                    self.last_game = Some((info.number, info.first_line));
                    self.push(
                        Ok(info),
                        (info.offset, len),
                        &mut text,
                        &mut comments,
                        &mut slots,
                    );
                }
                Some(Err(err @ ReadPgnError::GameTooLarge { offset, .. })) => {
                    self.push(Err(err), (offset, 0), &mut text, &mut comments, &mut slots);
                }
                Some(Err(error)) => {
                    self.complete(None, &mut text, &mut comments, &mut slots);
                    self.error = Some(ReadFailure {
                        error,
                        last_game: self.last_game,
                        at: self.bytes_read.get(),
                    });
                    self.done = true;
                    break;
                }
                None => {
                    // The last record ends where the next game starts,
                    // when the framer stopped before it (a window).
                    let end = self.framer.stopped_offset();
                    self.complete(end, &mut text, &mut comments, &mut slots);
                    self.done = true;
                    break;
                }
            }
        }
        if slots.is_empty() {
            return self.error.take().map(Err);
        }
        Some(Ok(Batch {
            text: Text::Copied(text),
            comments,
            slots,
            read: self.bytes_read.get(),
        }))
    }
}

/// The games of a settled piece of a mapped file as a batch; with
/// `records`, each game's record runs up to the next game, the file's
/// first from the start of the file.
pub(super) fn piece_batch(map: &Arc<Mapped>, framed: FramedPiece, records: bool) -> Batch {
    let FramedPiece {
        games,
        comments,
        start,
        end,
    } = framed;
    let slots = if records {
        let starts: Vec<usize> = games
            .iter()
            .scan(start.at, |at, game| {
                match game {
                    Ok((info, _)) => *at = info.offset as usize,
                    Err(ReadPgnError::GameTooLarge { offset, .. }) => *at = *offset as usize,
                    // Not from a mapped file: an empty record where it stands.
                    Err(_) => {}
                }
                Some(*at)
            })
            .collect();
        games
            .into_iter()
            .enumerate()
            .map(|(i, game)| {
                let from = if i == 0 && start.number == 0 {
                    0
                } else {
                    starts[i]
                };
                let to = starts.get(i + 1).copied().unwrap_or(end.at);
                let (game, text) = match game {
                    Ok((info, range)) => (Ok(info), range),
                    Err(err) => (Err(err), starts[i]..starts[i]),
                };
                Slot {
                    game,
                    text,
                    record: from..to,
                }
            })
            .collect()
    } else {
        games
            .into_iter()
            .map(|game| match game {
                Ok((info, range)) => Slot {
                    game: Ok(info),
                    text: range,
                    record: 0..0,
                },
                Err(err) => Slot {
                    game: Err(err),
                    text: 0..0,
                    record: 0..0,
                },
            })
            .collect()
    };
    Batch {
        text: Text::Mapped(Arc::clone(map)),
        comments,
        slots,
        read: end.at as u64,
    }
}
