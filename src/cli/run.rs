//! Running the game engine for a subcommand: the sink that writes what
//! each batch of games made in input order, shows progress, and reports
//! inputs that cannot be read.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;

use anyhow::Context as _;
use pgnkit::engine::{self, EngineError, Failure, Item, NotPgn, Sink};
use pgnkit::input::InputError;
use pgnkit::pgn::ReadPgnError;

use super::args::Run;
use super::progress::{Progress, When};
use super::report::{Done, Merge, Stats};
use super::{message, to_stderr};

/// Writes the output of a run and keeps its totals.
pub struct Writer<'a, X = ()> {
    out: &'a mut (dyn Write + Send),
    when: When,
    quiet: bool,
    bar: Progress,
    /// Output records are counted and limited (`filter`).
    records: bool,
    limit: Option<u64>,
    /// Totals over all inputs.
    pub stats: Stats,
    /// Output records written.
    pub written: u64,
    /// Whether an input could not be read.
    pub io_error: bool,
    /// The command's own totals.
    pub extra: X,
    /// Called with the totals after each batch (Parquet writes its rows).
    batches: Option<&'a mut Batches<'a, X>>,
    /// A written output, cleared, for the next game ([`Sink::fresh`]).
    spare: Option<Done<X>>,
    /// Where the records go instead of the output, if the command sends
    /// each one itself.
    route: Option<&'a mut (dyn Route<X> + Send)>,
    /// Messages held for standard error when it is not a terminal, written
    /// in blocks as standard output is ([`Output`](super::output::Output)):
    /// one write per game would cost a system call each.
    held: Option<Vec<u8>>,
}

/// How many bytes of messages are held before they are written.
const HELD_MESSAGES: usize = 1 << 16;

/// Where a command that writes each output record itself (`dedup`,
/// `split`) sends them: called for every record, in input order.
pub trait Route<X> {
    /// Sends the `nth` record of a batch, whose totals are `extra`; returns
    /// whether it was written.
    ///
    /// # Errors
    /// The record cannot be written, which ends the run.
    fn route(&mut self, extra: &X, nth: usize, record: &[u8]) -> io::Result<bool>;
}

/// What [`Writer::on_batch`] calls: it may take what the totals hold.
pub type Batches<'a, X> = dyn FnMut(&mut X) -> io::Result<()> + Send + 'a;

impl<'a, X: Default> Writer<'a, X> {
    /// A writer to `out` for `run`.
    pub fn new(out: &'a mut (dyn Write + Send), run: &Run) -> Writer<'a, X> {
        Writer {
            out,
            when: run.progress,
            quiet: run.quiet,
            bar: Progress::new(When::Never, true, "", None),
            records: run.options.records,
            limit: None,
            stats: Stats::default(),
            written: 0,
            io_error: false,
            extra: X::default(),
            batches: None,
            spare: None,
            route: None,
            held: (!io::stderr().is_terminal()).then(Vec::new),
        }
    }

    /// Sends each output record to `route` instead of the output.
    pub fn route(self, route: &'a mut (dyn Route<X> + Send)) -> Writer<'a, X> {
        Writer {
            route: Some(route),
            ..self
        }
    }

    /// Calls `batches` with the command's totals after each batch has been
    /// merged into them, in input order.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub fn on_batch(self, batches: &'a mut Batches<'a, X>) -> Writer<'a, X> {
        Writer {
            batches: Some(batches),
            ..self
        }
    }

    /// Stops the run after `limit` output records.
    pub fn limit(self, limit: Option<u64>) -> Writer<'a, X> {
        Writer { limit, ..self }
    }
}

impl<X: Merge> Writer<'_, X> {
    /// Writes messages to standard error, or holds them until a block is
    /// full.
    fn report(&mut self, messages: &[u8]) {
        if messages.is_empty() {
            return;
        }
        match &mut self.held {
            Some(held) => {
                held.extend_from_slice(messages);
                if held.len() >= HELD_MESSAGES {
                    self.release();
                }
            }
            None => self.bar.suspend(|| to_stderr(messages)),
        }
    }

    /// Writes the messages held for standard error.
    fn release(&mut self) {
        if let Some(held) = self.held.as_mut().filter(|held| !held.is_empty()) {
            self.bar.suspend(|| to_stderr(held));
            held.clear();
        }
    }

    /// Writes the output records of `done` (up to the limit), and returns
    /// how many.
    fn write_records(&mut self, done: &Done<X>) -> io::Result<u64> {
        let room = self.limit.map_or(usize::MAX, |n| {
            usize::try_from(n.saturating_sub(self.written)).unwrap_or(usize::MAX)
        });
        let take = done.ends.len().min(room);
        let upto = take.checked_sub(1).map_or(0, |last| done.ends[last]);
        self.out.write_all(&done.stdout[..upto])?;
        Ok(take as u64)
    }
}

impl<X: Merge + Default> Sink<Done<X>> for Writer<'_, X> {
    fn begin(&mut self, name: &str, total: Option<u64>) {
        self.bar = Progress::new(self.when, self.quiet, name, total);
    }

    fn write(&mut self, mut done: Done<X>, read: u64) -> io::Result<ControlFlow<()>> {
        if self.records {
            self.report(&done.stderr);
            match self.route.as_mut() {
                Some(route) => {
                    let mut start = 0;
                    for (nth, &end) in done.ends.iter().enumerate() {
                        let record = done.stdout.get(start..end).unwrap_or_default();
                        self.written += u64::from(route.route(&done.extra, nth, record)?);
                        start = end;
                    }
                }
                None => self.written += self.write_records(&done)?,
            }
        } else {
            done.write_spilled(self.out)?;
            self.out.write_all(&done.stdout)?;
            self.report(&done.stderr);
        }
        self.bar.advance(read, done.stats.games, done.stats.errors);
        self.stats.add(&done.stats);
        self.extra.merge_from(&mut done.extra);
        if let Some(batches) = &mut self.batches {
            batches(&mut self.extra)?;
        }
        done.clear();
        self.spare = Some(done);
        Ok(if self.limit.is_some_and(|n| self.written >= n) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    }

    fn fresh(&mut self) -> Done<X> {
        self.spare.take().unwrap_or_default()
    }

    fn end(&mut self) {
        self.release();
        self.bar.finish();
    }

    fn failed(&mut self, failure: Failure<'_>) {
        self.release();
        match failure {
            Failure::Open(err) => message!("pgnkit: {err}"),
            Failure::Read {
                name,
                error,
                last_game,
                at,
            } => message!("pgnkit: {}", read_failure(name, &error, last_game, at)),
        }
        self.io_error = true;
    }
}

/// The message for an input not read to its end: why, where reading
/// stopped in the file and the last game read whole, e.g. `games.pgn.gz
/// (gzip): corrupt deflate stream (reading stopped at byte 4096 of the
/// file, after game 12 on line 160)`.
fn read_failure(
    name: &str,
    error: &ReadPgnError,
    last_game: Option<(u64, u64)>,
    at: u64,
) -> String {
    let inner = match error {
        ReadPgnError::Io(err) => err.get_ref(),
        _ => None,
    };
    let reason = match inner {
        Some(inner) if inner.is::<InputError>() || inner.is::<NotPgn>() => inner.to_string(),
        _ => format!("{name}: {error}"),
    };
    let reason = match inner.is_some_and(|e| e.is::<NotPgn>()) {
        true => format!("{name}: {reason}"),
        false => reason,
    };
    let after = match last_game {
        Some((number, line)) => format!("after game {number} on line {line}"),
        None => "before the first game".to_string(),
    };
    format!("{reason} (reading stopped at byte {at} of the file, {after})")
}

/// Runs `game` over every game of `run`'s inputs on the engine, each batch
/// of games with a fresh state from `init`, and writes what it makes with
/// `writer`.
///
/// # Errors
/// Only a failure to write the output (or to start the workers); an
/// unreadable input is reported on standard error and recorded in
/// [`Writer::io_error`].
pub fn execute<S, X, I, G>(
    run: &Run,
    writer: &mut Writer<'_, X>,
    init: I,
    game: G,
) -> anyhow::Result<()>
where
    X: Merge + Default + Send,
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut Done<X>) + Sync,
{
    checked(engine::run(&run.options, &run.paths, init, game, writer))?;
    writer.out.flush().context("writing the output")
}

/// The end of an engine run as the commands report it: a failure to write
/// the output, or to start the workers.
///
/// # Errors
/// Those failures, with their context.
pub fn checked(result: Result<(), EngineError>) -> anyhow::Result<()> {
    match result {
        Ok(()) => Ok(()),
        Err(EngineError::Write(err)) => Err(err).context("writing the output"),
        Err(EngineError::Pipeline(err)) => Err(err.into()),
        Err(err) => Err(err.into()),
    }
}
