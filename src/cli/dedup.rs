//! `pgnkit dedup`: drop (or keep only) the duplicate games of any number
//! of files, and report every group of copies.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use pgnkit::dedup::{Criterion, Finder, Fingerprint, Found, Location, fingerprint};
use pgnkit::engine::{Item, PooledReplayer, display_name};
use pgnkit::replay::ReplayOptions;

use super::Exit;
use super::args::{Common, Inputs, Run, WORKERS};
use super::message;
use super::output::{Joined, Output, same_file};
use super::report::{Done, Merge};
use super::run::{Route, Writer, execute};

/// Drop duplicate games, or write only the duplicates, byte for byte.
///
/// Games are compared across all the files, in the order given; the first
/// game of each group of copies is kept and every later copy is a
/// duplicate. What is the same game (--by):
///   exact   the same moves and the same tags (default)
///   moves   the same moves, whatever the tags
///   likely  the same players and date with the moves of one game a prefix
///           of the other's (a copy cut short), or the same players and
///           final position
/// "The same moves" is the same start position and mainline moves as
/// played on the board: notation, comments, variations and move numbers do
/// not matter. Tags are compared as a set, values trimmed; players by the
/// letters and digits of their names, case ignored, and only when both are
/// known; dates only when the year is known.
///
/// Each game gets a 128-bit key, made in one replay, and the keys are
/// sorted in memory up to --memory, past it in runs on disk (--temp-dir)
/// that are merged at the end. With exact and moves the games are written
/// as they are read while the set of keys fits in --memory; the games
/// after that (and with likely, all games) are written by a second pass.
/// Memory stays flat whatever the number of games, beside one bit per
/// game.
///
/// The inputs are read twice, so they are files (plain or compressed),
/// not standard input, a pipe or a FIFO. A summary goes to standard
/// error. Exit status: 0 done, 2 usage or I/O error.
#[derive(Debug, Args)]
#[command(
    verbatim_doc_comment,
    after_help = "Examples:
  pgnkit dedup games.pgn games.pgn -o unique.pgn
  pgnkit dedup --by moves --report groups.txt games.pgn games.pgn > unique.pgn
  pgnkit dedup --only-duplicates --by likely games.pgn games.pgn > copies.pgn
  pgnkit dedup --memory 64K --temp-dir . games.pgn games.pgn > unique.pgn
  pgnkit dedup --lenient games.pgn games.pgn > unique.pgn",
    mut_arg("files", |a| a.help("PGN files, plain or compressed (read twice: not standard input or a pipe)")),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet for replayed games")),
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("index", |a| a.hide(true)),
)]
pub struct DedupArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// What is the same game.
    #[arg(long, value_enum, default_value_t)]
    by: By,
    /// Write only the duplicates (every copy after the first), not the
    /// games kept.
    #[arg(short = 'd', long)]
    only_duplicates: bool,
    /// Write each group of copies to FILE: every copy as file:line with its
    /// game number, the groups in the order of their first games. FILE is
    /// not the output of the games (-o).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write no games (with --report: only the report).
    #[arg(long)]
    no_games: bool,
    /// Memory for the keys before sorted runs go to disk: bytes, or with
    /// K, M or G (a number alone is megabytes).
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    memory: usize,
    /// Where the sorted runs go (default: the system's temporary
    /// directory).
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

/// `--by`.
#[derive(Debug, Clone, Copy, Default, ValueEnum)]
enum By {
    /// The same moves and tags.
    #[default]
    Exact,
    /// The same moves.
    Moves,
    /// The same players and date with one game's moves a prefix of the
    /// other's, or the same players and final position.
    Likely,
}

impl By {
    fn criterion(self) -> Criterion {
        match self {
            By::Exact => Criterion::Exact,
            By::Moves => Criterion::Moves,
            By::Likely => Criterion::Likely,
        }
    }
}

/// The games of a batch, with their fingerprints (none for a game that
/// could not be read); in the run's totals, the finder they go to.
#[derive(Default)]
struct Prints {
    games: Vec<(Location, Option<Fingerprint>)>,
    finder: Option<Finder>,
    /// Games added so far.
    added: u64,
    error: Option<io::Error>,
}

impl Merge for Prints {
    fn merge(&mut self, other: Prints) {
        let Some(finder) = &mut self.finder else {
            return;
        };
        for (mut at, print) in other.games {
            at.index = self.added;
            self.added += 1;
            if self.error.is_none()
                && let Err(err) = finder.add(at, print.as_ref())
            {
                self.error = Some(err);
            }
        }
    }
}

/// A size in bytes: `512K`, `64M`, `2G`, or megabytes (`256`).
fn parse_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, "M"),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{unit}`: the unit is K, M or G")),
    };
    let n: usize = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size (512K, 64M, 2G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// The input names as the engine shows them.
fn names(run: &Run) -> Vec<String> {
    run.paths.iter().map(|p| display_name(p)).collect()
}

/// Bytes a key takes in the set of the first pass (with the set's own
/// room).
const SET_BYTES_PER_KEY: usize = 36;

/// A hasher for keys that are hashes already: their low 64 bits.
#[derive(Default)]
struct Identity(u64);

impl std::hash::Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().take(8) {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}

/// The first pass's writing, for criteria that are equal keys: a game is
/// a duplicate when its key was seen, decided as the games come while the
/// set of keys fits in its memory; past it, the games from the first one
/// not decided are left to a second pass.
struct Stream<W> {
    criterion: Criterion,
    seen: HashSet<u128, std::hash::BuildHasherDefault<Identity>>,
    /// The most keys the set holds.
    room: usize,
    duplicates: bool,
    index: u64,
    /// The first game not decided, once the set is full.
    stopped: Option<u64>,
    /// Where the games go (none with --no-games).
    out: Option<Joined<W>>,
}

impl<W: io::Write> Route<Prints> for Stream<W> {
    fn route(&mut self, prints: &Prints, nth: usize, record: &[u8]) -> io::Result<bool> {
        let index = self.index;
        self.index += 1;
        if self.stopped.is_some() {
            return Ok(false);
        }
        let key = prints
            .games
            .get(nth)
            .and_then(|(_, print)| print.as_ref()?.key(self.criterion));
        let duplicate = match key {
            Some(key) if self.seen.len() < self.room => !self.seen.insert(key),
            Some(key) if self.seen.contains(&key) => true,
            Some(_) => {
                self.stopped = Some(index);
                return Ok(false);
            }
            None => false,
        };
        let write = duplicate == self.duplicates;
        match &mut self.out {
            Some(out) if write => out.record(record)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The second pass: each game's record from `from` on is written, or not,
/// by its index.
struct Keep<'f, W> {
    found: &'f Found,
    duplicates: bool,
    from: u64,
    index: u64,
    out: Joined<W>,
}

impl<W: io::Write> Route<()> for Keep<'_, W> {
    fn route(&mut self, (): &(), _: usize, record: &[u8]) -> io::Result<bool> {
        let index = self.index;
        self.index += 1;
        let write = index >= self.from && self.found.is_duplicate(index) == self.duplicates;
        if write {
            self.out.record(record)?;
        }
        Ok(write)
    }
}

/// Runs `pgnkit dedup`.
pub fn run(args: &DedupArgs) -> anyhow::Result<Exit> {
    if args.report.as_deref() == Some(Path::new("-")) && !args.no_games {
        message!("pgnkit: --report - needs --no-games (both would go to standard output)");
        return Ok(Exit::Usage);
    }
    if args.inputs.shard.is_some() {
        message!(
            "pgnkit: dedup takes no --shard: a shard cannot find the copies in \
             other shards; dedup the whole input in one run"
        );
        return Ok(Exit::Usage);
    }
    let games_to = args.common.output.path().filter(|p| p.as_os_str() != "-");
    if let (Some(report), Some(games)) = (&args.report, games_to)
        && !args.no_games
        && same_file(report, games)
    {
        message!(
            "pgnkit: --report {} and -o {} are one file: the games would replace the report",
            report.display(),
            games.display()
        );
        return Ok(Exit::Usage);
    }
    let criterion = args.by.criterion();
    let options = ReplayOptions {
        letters: args.common.lang.policy(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    let dir = args.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    let limit = args.memory;
    let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
    if let Err(input) = run.files_read_twice() {
        message!("pgnkit: dedup reads the inputs twice, so they must be files: {input}");
        return Ok(Exit::Usage);
    }
    let names = names(&run);

    // Pass 1: a fingerprint of every game, in input order, to the finder;
    // where the criterion is an equal key, the games are written too, as
    // long as the set of keys fits in memory.
    let streaming = !args.no_games && criterion != Criterion::Likely;
    let output = match args.no_games {
        true => None,
        false => Some(Joined::new(Output::open(
            args.common.output.path(),
            &run.paths,
        )?)),
    };
    let mut stream = Stream {
        criterion,
        seen: HashSet::default(),
        room: limit / SET_BYTES_PER_KEY,
        duplicates: args.only_duplicates,
        index: 0,
        stopped: (!streaming).then_some(0),
        out: output,
    };
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Prints>| {
        done.stats.games += 1;
        let input = u32::try_from(item.input).unwrap_or(u32::MAX);
        let (at, print) = match item.game {
            Ok(raw) => (
                Location {
                    index: 0,
                    input,
                    number: raw.number,
                    line: raw.first_line,
                },
                Some(fingerprint(replayer, &raw, &options, criterion)),
            ),
            Err(err) => {
                super::report::skipped(item, err, done);
                let (number, line) = match err {
                    pgnkit::pgn::ReadPgnError::GameTooLarge {
                        number, first_line, ..
                    } => (*number, *first_line),
                    _ => (0, 0),
                };
                let at = Location {
                    index: 0,
                    input,
                    number,
                    line,
                };
                (at, None)
            }
        };
        done.extra.games.push((at, print));
        if streaming {
            done.stdout.extend_from_slice(item.record);
            done.ends.push(done.stdout.len());
        }
    };
    let first = match streaming {
        true => run.clone().records(),
        false => run.clone(),
    };
    let mut nowhere = io::sink();
    let mut writer: Writer<'_, Prints> = Writer::new(&mut nowhere, &first).route(&mut stream);
    writer.extra.finder = Some(Finder::new(criterion, limit, &dir));
    execute(&first, &mut writer, PooledReplayer::take, game)?;
    if writer.io_error {
        return Ok(Exit::Usage);
    }
    let games = writer.stats.games;
    let mut written = writer.written;
    let mut prints = std::mem::take(&mut writer.extra);
    if let Some(err) = prints.error.take() {
        return Err(err).with_context(|| format!("sorting keys in {}", dir.display()));
    }
    let finder = prints.finder.take().context("no finder")?;
    let mut found = finder
        .finish()
        .with_context(|| format!("sorting keys in {}", dir.display()))?;

    // The report.
    if let Some(path) = &args.report {
        let mut out = Output::open(Some(path), &run.paths)?;
        write_report(&mut out, &mut found, &names)
            .with_context(|| format!("writing {}", path.display()))?;
        out.finish()?;
    }

    // Pass 2: the games kept (or the duplicates) that pass 1 did not
    // decide, byte for byte.
    let pending = (stream.stopped, stream.out.take());
    if let (Some(from), Some(out)) = pending {
        let run = run.clone().records().quiet(true);
        let mut keep = Keep {
            found: &found,
            duplicates: args.only_duplicates,
            from,
            index: 0,
            out,
        };
        let copy = |(): &mut (), item: &Item<'_>, done: &mut Done| {
            done.stdout.extend_from_slice(item.record);
            done.ends.push(done.stdout.len());
        };
        let mut nowhere = io::sink();
        let mut writer: Writer<'_, ()> = Writer::new(&mut nowhere, &run).route(&mut keep);
        execute(&run, &mut writer, || (), copy)?;
        written += writer.written;
        let io_error = writer.io_error;
        keep.out
            .out
            .close(if io_error { Exit::Usage } else { Exit::Ok })?;
        if io_error {
            return Ok(Exit::Usage);
        }
    } else if let (None, Some(out)) = pending {
        out.out.finish()?;
    }
    if !run.quiet {
        message!(
            "pgnkit dedup: {games} games: {} duplicates in {} groups ({}), {written} written{}",
            found.duplicates(),
            found.groups(),
            match criterion {
                Criterion::Exact => "same moves and tags",
                Criterion::Moves => "same moves",
                Criterion::Likely => "likely",
            },
            match found.runs() {
                0 => String::new(),
                n => format!("; {n} sorted runs on disk"),
            }
        );
    }
    Ok(Exit::Ok)
}

/// Writes the groups: a line for each group, then each copy as
/// `file:line: game N` (the first marked `kept`).
fn write_report(out: &mut dyn io::Write, found: &mut Found, names: &[String]) -> io::Result<()> {
    let mut group = None;
    let mut n = 0u64;
    for member in found.members()? {
        let member = member?;
        if group != Some((member.first, member.reason)) {
            group = Some((member.first, member.reason));
            n += 1;
            writeln!(out, "group {n}: {}", member.reason.describe())?;
        }
        let at = member.at;
        let name = names.get(at.input as usize).map_or("?", String::as_str);
        let fate = if found.is_duplicate(at.index) {
            "duplicate"
        } else {
            "kept"
        };
        writeln!(out, "  {name}:{}: game {} ({fate})", at.line, at.number)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_units() {
        assert_eq!(parse_size("256"), Ok(256 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in ["", "M", "1T", "-1", "1.5M", "99999999999999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
