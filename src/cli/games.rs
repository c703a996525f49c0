//! Shared machinery of the commands that replay games: reading each input
//! in batches of framed games (or a mapped file in pieces), replaying them
//! on the pipeline, and formatting diagnostics (text or JSON lines).

use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::Context as _;
use clap::ValueEnum;
use pgnkit::input::{self, BytesRead, Mapped};
use pgnkit::pgn::{
    Chain, CommentIndex, FramedPiece, GameFramer, GameInfo, LineIndex, ParsePgnError,
    ParsePgnErrorKind, RawGame, ReadPgnError, Span, SyntaxSummary, frame_piece, tapered_cuts,
    unescape,
};
use pgnkit::pipeline::{Pipeline, PipelineError};
use pgnkit::replay::{Diagnostic, Replay, Replayer, Severity};
use pgnkit::{LetterPolicy, encoding};

use super::progress::{Progress, When};

/// Bytes of game text per batch handed to a worker. Small enough that a
/// batch's text and output stay in the cache and that the last batches of
/// an input leave no core idle for long; large enough that the per-batch
/// overhead (a task, a channel message, two output writes) is negligible.
const BATCH_BYTES: usize = 512 << 10;

/// The environment variable that overrides [`BATCH_BYTES`] (for this file's
/// batches and for `filter`'s records). Not an option: tests set it to a
/// few KiB so that small corpus files make many batches and the ordering of
/// the pipeline is really exercised.
pub const BATCH_BYTES_VAR: &str = "PGNKIT_BATCH_BYTES";

/// Bytes of game text per batch: [`BATCH_BYTES`], or a positive number in
/// [`BATCH_BYTES_VAR`].
pub fn batch_bytes() -> usize {
    std::env::var(BATCH_BYTES_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(BATCH_BYTES)
}

/// Bytes per piece of a mapped file of `len` bytes read by `jobs`
/// workers: sixteen pieces a worker, so that the last pieces leave no
/// core idle for long, but at least a batch ([`BATCH_BYTES`]) and at most
/// four, which bounds the text in flight. Larger pieces of a large file
/// mean fewer tasks, wake-ups and page releases: on TCEC (131.6 MiB),
/// 2 MiB pieces took 6–10 % off the wall time of 2 threads. With
/// [`BATCH_BYTES_VAR`] set, its number.
pub fn piece_bytes(len: usize, jobs: usize) -> usize {
    if std::env::var_os(BATCH_BYTES_VAR).is_some() {
        return batch_bytes();
    }
    (len / (16 * jobs.max(1))).clamp(BATCH_BYTES, 4 * BATCH_BYTES)
}

thread_local! {
    /// Each thread's replayer between batches (see [`PooledReplayer`]).
    static REPLAYER: std::cell::Cell<Option<Replayer>> = const { std::cell::Cell::new(None) };
}

/// A [`Replayer`] kept by the thread between batches, so its buffers and
/// start position outlive a batch: with `--jobs 1` a batch is one game.
pub struct PooledReplayer(Option<Replayer>);

impl PooledReplayer {
    /// This thread's replayer (a new one the first time).
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

/// The alphabet of piece letters (`--lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Lang {
    /// English SAN unless a game's own letters show German (S, L, T, D).
    #[default]
    Auto,
    /// English: B is a bishop.
    En,
    /// German: B is a pawn (Bauer).
    De,
}

impl Lang {
    /// The letter policy for the replay.
    pub fn policy(self) -> LetterPolicy {
        match self {
            Lang::Auto => LetterPolicy::Auto,
            Lang::En => LetterPolicy::English,
            Lang::De => LetterPolicy::German,
        }
    }
}

/// How diagnostics are written (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// `path:line:col: severity: game N (White - Black), 23...Nf6: message`
    /// on standard error.
    #[default]
    Text,
    /// One JSON object per diagnostic and line, on standard output.
    Json,
}

/// One item of a batch, in input order.
pub enum Item {
    /// A game: where it came from and its bytes in the batch's text.
    Game(GameInfo, Range<usize>),
    /// A game over the size bound, skipped by the framer.
    TooLarge(ReadPgnError),
}

/// Framed games for one worker.
pub struct Batch {
    /// The games' texts, copied out of the framer one after another.
    pub text: Vec<u8>,
    /// The games' comments, as the framer found them.
    pub comments: CommentIndex,
    /// The games and skipped games, in input order.
    pub items: Vec<Item>,
    /// Input bytes read when the batch was complete (for progress).
    pub bytes_read: u64,
}

/// Texts of written batches, for the next batches to fill: a fresh vector
/// per batch would be fresh memory from the system, and its page faults
/// cost the reading more than the copying itself. Clones share the texts
/// (the reader takes, the writer gives back; both on the pipeline's
/// coordinating worker, so the lock is never contended).
#[derive(Default, Clone)]
pub struct FreeTexts(Arc<Mutex<Vec<Vec<u8>>>>);

impl FreeTexts {
    /// An empty text with room for a batch of `limit` bytes.
    pub fn take(&self, limit: usize) -> Vec<u8> {
        let mut text = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(limit + (64 << 10)));
        text.clear();
        text
    }

    /// Returns a written batch's text for reuse.
    pub fn give(&self, text: Vec<u8>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(text);
    }
}

/// Reads one input as batches.
struct Batches<R> {
    framer: GameFramer<R>,
    limit: usize,
    free: FreeTexts,
    bytes_read: BytesRead,
    error: Option<ReadPgnError>,
    done: bool,
}

impl<R: io::Read> Iterator for Batches<R> {
    type Item = Result<Batch, ReadPgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(err) = self.error.take() {
            return Some(Err(err));
        }
        if self.done {
            return None;
        }
        let mut comments = CommentIndex::new();
        let mut items = Vec::new();
        let mut copied = self.free.take(self.limit);
        // Bytes of game text in the batch so far.
        let mut size = 0;
        while size < self.limit {
            let start = copied.len();
            let next = self
                .framer
                .next_game_indexed(&mut copied, &mut comments)
                .map(|g| g.map(|info| (info, start..copied.len())));
            match next {
                Some(Ok((info, range))) => {
                    size += range.len();
                    items.push(Item::Game(info, range));
                }
                Some(Err(err @ ReadPgnError::GameTooLarge { .. })) => {
                    items.push(Item::TooLarge(err))
                }
                Some(Err(err)) => {
                    self.error = Some(err);
                    self.done = true;
                    break;
                }
                None => {
                    self.done = true;
                    break;
                }
            }
        }
        if items.is_empty() {
            return self.error.take().map(Err);
        }
        Some(Ok(Batch {
            text: copied,
            comments,
            items,
            bytes_read: self.bytes_read.get(),
        }))
    }
}

/// What a batch produced.
#[derive(Default)]
pub struct Done {
    /// Bytes for standard output.
    pub stdout: Vec<u8>,
    /// Bytes for standard error.
    pub stderr: Vec<u8>,
    /// Counts.
    pub stats: Stats,
    /// Input bytes read when the batch was complete.
    pub bytes_read: u64,
}

/// Counts over games.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Games read.
    pub games: u64,
    /// Games without errors.
    pub valid: u64,
    /// Games with errors.
    pub errors: u64,
    /// Games with warnings (and no errors).
    pub warnings: u64,
    /// Games skipped: unsupported variants.
    pub unsupported: u64,
    /// Games by termination on the board, in the order of
    /// [`TERMINATIONS`]; the last entry counts games not replayed to the end.
    pub terminations: [u64; TERMINATIONS.len() + 1],
}

/// The termination names, in the order of [`Stats::terminations`].
pub const TERMINATIONS: [&str; 8] = [
    "checkmate",
    "stalemate",
    "insufficient_material",
    "fivefold_repetition",
    "seventyfive_moves",
    "threefold_repetition",
    "fifty_moves",
    "unfinished",
];

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.games += other.games;
        self.valid += other.valid;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.unsupported += other.unsupported;
        for (a, b) in self.terminations.iter_mut().zip(other.terminations) {
            *a += b;
        }
    }

    /// Counts one replayed game; `errored` says whether it counts as a game
    /// with errors.
    pub fn count(&mut self, replay: &Replay, errored: bool, warned: bool) {
        self.games += 1;
        if replay.status == pgnkit::Status::Unsupported {
            self.unsupported += 1;
        } else if errored {
            self.errors += 1;
        } else {
            self.valid += 1;
            if warned {
                self.warnings += 1;
            }
        }
        let index = replay
            .termination
            .and_then(|t| TERMINATIONS.iter().position(|&n| n == t.as_str()))
            .unwrap_or(TERMINATIONS.len());
        self.terminations[index] += 1;
    }
}

/// What the per-game work needs to know about the run.
pub struct Context<'a> {
    /// The input's name in messages.
    pub path: &'a str,
    /// Diagnostic format.
    pub format: Format,
    /// Warnings are errors.
    pub strict: bool,
}

/// The ordered run over many inputs: frames each input on this thread,
/// hands batches to `work` on the pipeline, writes what comes back in
/// input order.
pub struct Run {
    /// Totals over all inputs.
    pub stats: Stats,
    /// Whether an input could not be read.
    pub io_error: bool,
}

/// The inputs named on the command line (`-` when none).
pub fn inputs(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

/// The name of an input in messages.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

impl Run {
    /// Runs `work` over every game batch of every input.
    ///
    /// # Errors
    /// Only a failure to write the output (or to start the workers); an
    /// unreadable input is reported on standard error and recorded in
    /// [`Run::io_error`].
    pub fn execute<W>(
        files: &[PathBuf],
        jobs: usize,
        progress: When,
        quiet: bool,
        out: &mut (dyn Write + Send),
        work: W,
    ) -> anyhow::Result<Run>
    where
        W: Fn(&str, &Games<'_>) -> Done + Sync,
    {
        let pipeline = Pipeline::new(jobs);
        // At most as many texts as batches in flight.
        let free = FreeTexts::default();
        let mut run = Run {
            stats: Stats::default(),
            io_error: false,
        };
        for path in inputs(files) {
            let name = display_name(&path);
            let input = match super::open_input(&path) {
                Ok(input) => input,
                Err(err) => {
                    eprintln!("pgnkit: {err}");
                    run.io_error = true;
                    continue;
                }
            };
            let mut bar = Progress::new(progress, quiet, input.total_len());
            let mut write = |done: Done| {
                out.write_all(&done.stdout).map_err(RunError::Write)?;
                if !done.stderr.is_empty() {
                    bar.suspend(|| {
                        let _ = io::stderr().lock().write_all(&done.stderr);
                    });
                }
                bar.advance(done.bytes_read, done.stats.games, done.stats.errors);
                run.stats.add(&done.stats);
                Ok(())
            };
            let mut input = input;
            let map = match pipeline.jobs() {
                1 => None,
                _ => input.take_mapped().map(Arc::new),
            };
            let result = match map {
                None if pipeline.jobs() == 1 => one_job(input, &name, &work, &mut write),
                // A mapped file: each worker frames a piece of it itself.
                Some(map) => run_pieces(
                    &pipeline,
                    &map,
                    |framed: FramedPiece| {
                        let items: Vec<Item> = framed
                            .games
                            .into_iter()
                            .map(|game| match game {
                                Ok((info, range)) => Item::Game(info, range),
                                Err(err) => Item::TooLarge(err),
                            })
                            .collect();
                        let mut done =
                            work(&name, &Games::new(map.bytes(), &framed.comments, &items));
                        done.bytes_read = framed.end.at as u64;
                        done
                    },
                    &mut write,
                ),
                None => {
                    let batches = Batches {
                        bytes_read: input.bytes_read(),
                        framer: GameFramer::for_input(input),
                        limit: batch_bytes(),
                        free: free.clone(),
                        error: None,
                        done: false,
                    };
                    pipeline.run(
                        batches.map(|b| b.map_err(RunError::Read)),
                        |batch: Batch| {
                            let games = Games::new(&batch.text, &batch.comments, &batch.items);
                            let mut done = work(&name, &games);
                            done.bytes_read = batch.bytes_read;
                            (done, batch.text)
                        },
                        |(done, text): (Done, Vec<u8>)| {
                            free.give(text);
                            write(done)
                        },
                    )
                }
            };
            bar.finish();
            match result {
                Ok(()) => {}
                Err(RunError::Read(err)) => {
                    eprintln!("pgnkit: {name}: {err}");
                    run.io_error = true;
                }
                Err(RunError::Write(err)) => return Err(err).context("writing the output"),
                Err(RunError::Pipeline(err)) => return Err(err.into()),
            }
        }
        out.flush().context("writing the output")?;
        Ok(run)
    }
}

/// Runs `work` over one input with one job: games straight from the
/// framer's buffer, one at a time, no batches to copy into.
fn one_job<W, K>(input: input::Input, name: &str, work: &W, mut write: K) -> Result<(), RunError>
where
    W: Fn(&str, &Games<'_>) -> Done,
    K: FnMut(Done) -> Result<(), RunError>,
{
    let bytes_read = input.bytes_read();
    let mut framer = GameFramer::for_input(input);
    let mut items = Vec::with_capacity(1);
    let mut comments = CommentIndex::new();
    while let Some(raw) = framer.next_game() {
        items.clear();
        let mut done = match raw {
            Ok(raw) => {
                comments.clear();
                let info = comments.add(&raw);
                items.push(Item::Game(info, 0..raw.bytes.len()));
                work(name, &Games::new(raw.bytes, &comments, &items))
            }
            Err(err @ ReadPgnError::GameTooLarge { .. }) => {
                items.push(Item::TooLarge(err));
                work(name, &Games::new(&[], &comments, &items))
            }
            Err(err) => return Err(RunError::Read(err)),
        };
        done.bytes_read = bytes_read.get();
        write(done)?;
    }
    Ok(())
}

/// How long a worker waits for the pieces before its own to be settled
/// ([`Chain::turn`]). They were handed out before its own and are framed
/// in about the time its own took, so the wait is short; if they take
/// longer (a worker descheduled on a busy machine), the writer settles the
/// piece and does its work when its turn to be written comes.
const PATIENCE: Duration = Duration::from_millis(100);

/// How much shorter than the others the last pieces of a mapped file may
/// be ([`tapered_cuts`]). With pieces of one size the last one often ran
/// alone: on pgnmentor (pieces of 685 KiB, 3–4 ms of work each) one
/// worker finished up to 4 ms after the other (1.3 ms on average over six
/// runs); with pieces down to an eighth, within 0.2 ms.
const TAPER: usize = 8;

/// The environment variable that overrides [`PATIENCE`], in milliseconds.
/// Not an option: tests set it to 0 so that the writer's way is taken.
pub const PATIENCE_VAR: &str = "PGNKIT_PIECE_PATIENCE_MS";

fn patience() -> Duration {
    std::env::var(PATIENCE_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(PATIENCE, Duration::from_millis)
}

/// A piece of a mapped file after a worker had it.
enum PieceOut<T> {
    /// Settled and done, with the piece's end.
    Done(T, usize),
    /// Framed, but the pieces before it were not settled in time: its
    /// index, its range and its games as framed from its cut.
    Unsettled(u64, Range<usize>, FramedPiece),
}

/// Runs `work` over a mapped file on the pipeline and passes what it makes
/// of each piece to `sink`, in order. The file is cut into pieces of
/// [`piece_bytes`] each, shorter toward the end ([`tapered_cuts`], down to
/// an eighth: [`TAPER`]), and each worker frames its own piece, so that
/// framing runs in parallel and each piece's text is read on one core. The
/// pieces are settled in order ([`Chain`]), which numbers their games and
/// lines and corrects a wrong cut. The writer gives back the pages of the
/// file before each piece it has passed to `sink`.
///
/// # Errors
/// The first error of `sink`; [`PipelineError`]s converted into `E`.
pub fn run_pieces<T, E, W, K>(
    pipeline: &Pipeline,
    map: &Arc<Mapped>,
    work: W,
    mut sink: K,
) -> Result<(), E>
where
    T: Send,
    E: From<PipelineError> + Send,
    W: Fn(FramedPiece) -> T + Sync,
    K: FnMut(T) -> Result<(), E> + Send,
{
    let chain = Chain::new();
    let patience = patience();
    let finish = |framed: FramedPiece| {
        let end = framed.end.at;
        (work(framed), end)
    };
    let size = piece_bytes(map.bytes().len(), pipeline.jobs());
    // Larger pieces, fewer of them in flight: about the text the
    // pipeline's batches would hold, but two pieces a worker at least.
    let in_flight = (pipeline.in_flight() * BATCH_BYTES / size)
        .max(2 * pipeline.jobs())
        .min(pipeline.in_flight());
    let pipeline = pipeline.with_in_flight(in_flight);
    let pieces = tapered_cuts(map.bytes(), size, size / TAPER, pipeline.jobs())
        .enumerate()
        .map(|(index, piece)| Ok((index as u64, piece)));
    pipeline.run(
        pieces,
        |(index, piece): (u64, Range<usize>)| {
            let guess = frame_piece(map, piece.clone(), 0, 1);
            match chain.turn(index, Some(patience)) {
                Some(turn) => {
                    let (done, end) = finish(turn.settle(map, piece, guess));
                    PieceOut::Done(done, end)
                }
                None => PieceOut::Unsettled(index, piece, guess),
            }
        },
        |out| {
            let (done, end) = match out {
                PieceOut::Done(done, end) => (done, end),
                PieceOut::Unsettled(index, piece, guess) => {
                    // Every piece before it was written, and so settled.
                    let turn = chain
                        .turn(index, Some(Duration::ZERO))
                        .ok_or(PipelineError::WorkerLost)?;
                    finish(turn.settle(map, piece, guess))
                }
            };
            // The text before the piece's end is done with.
            map.consumed(end, 0);
            sink(done)
        },
    )
}

/// Why a run over one input stopped.
enum RunError {
    Read(ReadPgnError),
    Write(io::Error),
    Pipeline(PipelineError),
}

impl From<PipelineError> for RunError {
    fn from(err: PipelineError) -> RunError {
        RunError::Pipeline(err)
    }
}

/// A batch's games as the per-game work sees them: borrowed from a
/// [`Batch`], or from the framer's buffer with one job.
pub struct Games<'a> {
    /// The games' texts, one after another.
    pub text: &'a [u8],
    /// The games' comments.
    pub comments: &'a CommentIndex,
    /// The games and skipped games, in input order.
    pub items: &'a [Item],
}

impl<'a> Games<'a> {
    /// The view of a batch.
    pub fn new(text: &'a [u8], comments: &'a CommentIndex, items: &'a [Item]) -> Games<'a> {
        Games {
            text,
            comments,
            items,
        }
    }

    /// A game of the batch with its text and comments.
    pub fn raw(&self, info: &GameInfo, range: &Range<usize>) -> Option<RawGame<'a>> {
        Some(info.with_text(self.text.get(range.clone())?, self.comments))
    }
}

/// The game of a batch item; a game the framer skipped (too large) is
/// reported as an error instead, and gives `None`.
pub fn game_of<'t>(
    ctx: &Context<'_>,
    item: &'t Item,
    games: &Games<'t>,
    done: &mut Done,
) -> Option<(&'t GameInfo, RawGame<'t>)> {
    match item {
        Item::Game(info, range) => Some((info, games.raw(info, range)?)),
        Item::TooLarge(err) => {
            too_large(ctx, err, done);
            None
        }
    }
}

/// Writes a game skipped by the framer (too large) as an error.
pub fn too_large(ctx: &Context<'_>, err: &ReadPgnError, done: &mut Done) {
    let (number, offset, line) = match *err {
        ReadPgnError::GameTooLarge {
            number,
            offset,
            first_line,
            ..
        } => (number, offset, first_line),
        _ => (0, 0, 0),
    };
    done.stats.games += 1;
    done.stats.errors += 1;
    done.stats.terminations[TERMINATIONS.len()] += 1;
    let message = err.to_string();
    match ctx.format {
        Format::Text => {
            let _ = writeln!(
                done.stderr,
                "{}:{line}:1: error: game {number}: {message}",
                ctx.path
            );
        }
        Format::Json => {
            let mut s = String::new();
            s.push('{');
            json_field(&mut s, "file", Some(ctx.path));
            let _ = write!(
                s,
                ",\"game\":{number},\"offset\":{offset},\"line\":{line},\"column\":1"
            );
            s.push_str(",\"ply\":null,\"move\":null,\"fen\":null");
            s.push(',');
            json_field(&mut s, "severity", Some("error"));
            s.push(',');
            json_field(&mut s, "kind", Some("game-too-large"));
            s.push(',');
            json_field(&mut s, "message", Some(&message));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// The severity a diagnostic is shown with.
pub fn shown(severity: Severity, strict: bool) -> Severity {
    if strict && severity == Severity::Warning {
        Severity::Error
    } else {
        severity
    }
}

/// A tag value for messages.
fn tag_text(source: &[u8], span: Option<Span>) -> String {
    match span {
        Some(span) => encoding::decode(&unescape(span.slice(source))).into_owned(),
        None => "?".to_string(),
    }
}

/// Writes one diagnostic of a game.
///
/// `lines` is the game's line index, built once by the caller for all of
/// its diagnostics (a game can have very many).
pub fn write_diagnostic(
    ctx: &Context<'_>,
    info: &GameInfo,
    source: &[u8],
    lines: &LineIndex,
    replay: &Replay,
    d: &Diagnostic,
    done: &mut Done,
) {
    let severity = shown(d.severity, ctx.strict);
    let (line, column) = lines.line_col(d.span);
    let text = encoding::decode(d.span.slice(source));
    let ply = d.ply.map(|p| format!("{p}{text}"));
    match ctx.format {
        Format::Text => {
            let mut s = format!(
                "{}:{line}:{column}: {severity}: game {} ({} - {})",
                ctx.path,
                info.number,
                tag_text(source, replay.white),
                tag_text(source, replay.black),
            );
            if let Some(ply) = &ply {
                let _ = write!(s, ", {ply}");
            }
            if d.in_variation {
                s.push_str(" (in a variation)");
            }
            let _ = writeln!(s, ": {}", d.kind);
            done.stderr.extend_from_slice(s.as_bytes());
        }
        Format::Json => {
            let white = tag_text(source, replay.white);
            let black = tag_text(source, replay.black);
            let mut s = json_head(ctx, info, d.span.start, (line, column), &white, &black);
            json_field(&mut s, "ply", d.ply.map(|p| p.to_string()).as_deref());
            s.push(',');
            json_field(&mut s, "move", d.ply.map(|_| &*text));
            s.push(',');
            json_field(&mut s, "fen", d.fen_before().as_deref());
            let _ = write!(s, ",\"variation\":{},", d.in_variation);
            json_field(&mut s, "severity", Some(severity.as_str()));
            s.push(',');
            json_field(&mut s, "kind", Some(d.kind.name()));
            s.push(',');
            json_field(&mut s, "message", Some(&d.kind.to_string()));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// Writes one syntax error found without a replay (`validate
/// --syntax-only`): the shape of [`write_diagnostic`], without the move
/// number, the position and the variation flag, which only a replay knows.
pub fn write_syntax_error(
    ctx: &Context<'_>,
    info: &GameInfo,
    source: &[u8],
    lines: &LineIndex,
    summary: &SyntaxSummary,
    error: &ParsePgnError,
    done: &mut Done,
) {
    let (line, column) = lines.line_col(error.span);
    let white = tag_text(source, summary.white);
    let black = tag_text(source, summary.black);
    match ctx.format {
        Format::Text => {
            let _ = writeln!(
                done.stderr,
                "{}:{line}:{column}: error: game {} ({white} - {black}): {}",
                ctx.path, info.number, error.kind
            );
        }
        Format::Json => {
            let kind = match error.kind {
                ParsePgnErrorKind::BadMove(_) => "bad-move",
                _ => "syntax",
            };
            let mut s = json_head(ctx, info, error.span.start, (line, column), &white, &black);
            s.push_str("\"ply\":null,");
            let token = encoding::decode(error.span.slice(source));
            let bad_move = matches!(error.kind, ParsePgnErrorKind::BadMove(_));
            json_field(&mut s, "move", bad_move.then_some(&*token));
            s.push_str(",\"fen\":null,\"variation\":null,");
            json_field(&mut s, "severity", Some("error"));
            s.push(',');
            json_field(&mut s, "kind", Some(kind));
            s.push(',');
            json_field(&mut s, "message", Some(&error.kind.to_string()));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// Starts a diagnostic's JSON object: file, game, offset, line, column,
/// white and black, each followed by a comma.
fn json_head(
    ctx: &Context<'_>,
    info: &GameInfo,
    at: usize,
    (line, column): (u64, u64),
    white: &str,
    black: &str,
) -> String {
    let mut s = String::with_capacity(256);
    s.push('{');
    json_field(&mut s, "file", Some(ctx.path));
    let _ = write!(
        s,
        ",\"game\":{},\"offset\":{},\"line\":{line},\"column\":{column},",
        info.number,
        info.offset + at as u64,
    );
    json_field(&mut s, "white", Some(white));
    s.push(',');
    json_field(&mut s, "black", Some(black));
    s.push(',');
    s
}

/// Appends `"name":value` with the value as a JSON string (or `null`).
/// Hand-written: JSON string escaping is all we need, not a dependency.
pub fn json_field(out: &mut String, name: &str, value: Option<&str>) {
    let _ = write!(out, "\"{name}\":");
    let Some(value) = value else {
        out.push_str("null");
        return;
    };
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_a_sixteenth_of_a_workers_share_within_bounds() {
        if std::env::var_os(BATCH_BYTES_VAR).is_some() {
            eprintln!("skipped: {BATCH_BYTES_VAR} is set");
            return;
        }
        let mib = 1 << 20;
        assert_eq!(piece_bytes(0, 2), BATCH_BYTES);
        assert_eq!(piece_bytes(22 * mib, 2), 22 * mib / 32);
        assert_eq!(piece_bytes(22 * mib, 8), BATCH_BYTES);
        assert_eq!(piece_bytes(132 * mib, 2), 4 * BATCH_BYTES);
        assert_eq!(piece_bytes(10 << 30, 0), 4 * BATCH_BYTES);
    }

    #[test]
    fn json_strings_are_escaped() {
        let cases = [
            (Some("plain"), "\"k\":\"plain\""),
            (Some("a\"b\\c"), "\"k\":\"a\\\"b\\\\c\""),
            (Some("x\ny\u{1}"), "\"k\":\"x\\ny\\u0001\""),
            (Some("Müller"), "\"k\":\"Müller\""),
            (None, "\"k\":null"),
        ];
        for (value, expected) in cases {
            let mut s = String::new();
            json_field(&mut s, "k", value);
            assert_eq!(s, expected);
        }
    }
}
