//! Arguments that several subcommands share, and the one place where they
//! become the configuration of a run over games ([`Run`]).
//!
//! Each shared argument is defined once, as a small struct that a
//! subcommand flattens where its help lists it. A subcommand whose help
//! says more (or less) than the text here changes only the text, with
//! `#[command(mut_arg(...))]`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::io::IsTerminal as _;

use clap::{Args, ValueEnum};
use pgnkit::LetterPolicy;
use pgnkit::engine::{self, Options};
use pgnkit::pipeline::MAX_JOBS;
use pgnkit::shard::Shard;

use super::progress::When;

/// The environment variable that overrides the bytes of game text per
/// batch ([`engine::BATCH_BYTES`]) and per piece of a mapped file. Not an
/// option: tests set it to a few KiB so that small corpus files make many
/// batches and the ordering of the pipeline is really exercised.
pub const BATCH_BYTES_VAR: &str = "PGNKIT_BATCH_BYTES";

/// The environment variable that overrides the most games a piece of a
/// mapped file holds ([`engine::PIECE_GAMES`]). Not an option: tests set it
/// to a few games so that pieces stop early and the text after the last
/// one is cut again.
pub const PIECE_GAMES_VAR: &str = "PGNKIT_PIECE_GAMES";

/// The environment variable that overrides how long a worker waits for the
/// pieces before its own ([`engine::PATIENCE`]), in milliseconds. Not an
/// option: tests set it to 0 so that the writer's way is taken.
pub const PATIENCE_VAR: &str = "PGNKIT_PIECE_PATIENCE_MS";

/// The help of [`Inputs`] for commands that name no compressions.
pub const PGN_FILES: &str =
    "PGN files, plain or compressed; `-` (once at most) or none: standard input";

/// The help of [`Jobs`] for commands that make no point of one job.
pub const WORKERS: &str = "Worker threads (0: one per core; at most 1024)";

/// The alphabet of piece letters (`--lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Lang {
    /// English SAN unless a game's own letters show German (S, L, T, D,
    /// or a B that only a pawn's move fits).
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

/// The input files (`FILES`), and the shard of them to read (`--shard`).
#[derive(Debug, Args)]
pub struct Inputs {
    /// PGN files, plain or compressed (zstd, gzip, bzip2); `-` (once at
    /// most) or none: standard input.
    pub files: Vec<PathBuf>,
    /// Read shard K of N only: the N runs K = 1..N read every game once.
    ///
    /// The inputs, one after the other, are cut into N byte ranges of
    /// nearly equal size; a game belongs to the range in which its first
    /// byte lies. A plain file is split so (its games keep their numbers
    /// and lines in the whole file); so is a zstd file of several frames
    /// (as pzstd and seekable zstd write), by the frames that start in
    /// each range, a game belonging to the frame in which it starts. Any
    /// other compressed file, standard input or a pipe is read whole by
    /// the shard in which its first byte lies. The
    /// outputs of shards 1..N, concatenated in order, are the output of
    /// one run (a header only in shard 1); summaries and exit statuses are
    /// each shard's own. See docs/distributed.md.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Skip debris in the movetext (stray characters, HTML tags, mail
    /// headers) with a warning each, and read the moves around it.
    ///
    /// A token where a move belongs that is no move, a character that
    /// starts no PGN token and a `$` without a number are skipped, each
    /// reported as a `skipped-token` warning with its place; a move with
    /// debris glued on (`e5<br>`) is read as the move. Illegal moves and
    /// broken structure (unclosed variations, a tag pair inside the
    /// movetext) stay errors. See docs/validate.md, "Lenient reading".
    #[arg(long)]
    pub lenient: bool,
    /// With --shard, start the shard from the index of the one FILE
    /// (`pgnkit index FILE > FILE.idx`) instead of framing everything
    /// before its range: the same games, for less work.
    #[arg(long, value_name = "INDEX", requires = "shard")]
    pub index: Option<PathBuf>,
}

impl Inputs {
    /// Checks the inputs before any is read: standard input (`-`) is
    /// named once at most, for it gives its bytes once and a second `-`
    /// would read nothing.
    ///
    /// # Errors
    /// A usage error, the message without the `pgnkit: ` before it.
    pub fn check(&self) -> Result<(), String> {
        let stdin = self.files.iter().filter(|f| f.as_os_str() == "-").count();
        if stdin > 1 {
            return Err(format!(
                "`-` (standard input) is named {stdin} times among the inputs: \
                 standard input can be read once"
            ));
        }
        Ok(())
    }

    /// The shard to read (the whole inputs without `--shard`).
    pub fn shard(&self) -> Shard {
        self.shard.unwrap_or_default()
    }
}

/// The number of worker threads (`--jobs`).
#[derive(Debug, Args)]
pub struct Jobs {
    /// Worker threads (0: one per core; 1: strictly sequential; at most
    /// 1024).
    #[arg(short, long, default_value_t = 0, value_parser = jobs)]
    pub jobs: usize,
}

/// A number of workers: 0 to [`MAX_JOBS`].
fn jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= MAX_JOBS => Ok(n),
        _ => Err(format!(
            "expected 0 (one per core) to {MAX_JOBS} worker threads"
        )),
    }
}

/// When to show progress (`--progress`).
#[derive(Debug, Args)]
pub struct ShowProgress {
    /// When to show a progress bar on standard error.
    #[arg(long, value_enum, default_value_t)]
    pub progress: When,
}

/// The piece letters of the games (`--lang`).
#[derive(Debug, Args)]
pub struct Letters {
    /// Piece-letter alphabet: auto (English unless a game's letters are
    /// German), en, de (B = Bauer).
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
}

impl Letters {
    /// The letter policy for the replay.
    pub fn policy(&self) -> LetterPolicy {
        self.lang.policy()
    }
}

/// Where the output goes (`-o`).
#[derive(Debug, Args)]
pub struct OutputFile {
    /// Write to FILE instead of standard output; FILE is replaced only if
    /// every input was read.
    ///
    /// The output goes to a temporary file beside FILE, moved into place
    /// when the run has read every input: exit status 0, or 1 (some game
    /// had an error; the output is complete for what was valid). A missing
    /// or unreadable input (status 2), any other error, or SIGINT, SIGTERM
    /// or SIGHUP removes the temporary file and leaves an existing FILE as
    /// it was. FILE is neither a directory nor one of the inputs. A FILE
    /// that is a symbolic link stays one (the file it names is replaced),
    /// and an existing file keeps its permissions.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl OutputFile {
    /// The file, if one is named.
    pub fn path(&self) -> Option<&Path> {
        self.output.as_deref()
    }
}

/// The arguments that the commands writing one table or selection of the
/// games (`tags`, `filter`, `stats`) list after their own.
#[derive(Debug, Args)]
pub struct Common {
    #[command(flatten)]
    pub output: OutputFile,
    #[command(flatten)]
    pub jobs: Jobs,
    #[command(flatten)]
    pub lang: Letters,
    #[command(flatten)]
    pub progress: ShowProgress,
}

/// A run over the games of the inputs, checked and complete: what the
/// engine reads and how, and how progress is shown.
#[derive(Debug, Clone)]
pub struct Run {
    /// The inputs, `-` for standard input.
    pub paths: Vec<PathBuf>,
    /// How the engine reads them.
    pub options: Options,
    /// When to show progress.
    pub progress: When,
    /// No progress at all.
    pub quiet: bool,
}

impl Run {
    /// The run over `inputs` (standard input when none) with `jobs`
    /// workers; batch sizes and mapping as the environment says.
    pub fn new(inputs: &Inputs, jobs: &Jobs, progress: &ShowProgress) -> Run {
        let paths = if inputs.files.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            inputs.files.clone()
        };
        let batch_bytes = env_count(BATCH_BYTES_VAR).unwrap_or(engine::BATCH_BYTES);
        let piece_bytes = std::env::var_os(BATCH_BYTES_VAR).map(|_| batch_bytes);
        let piece_games = env_count(PIECE_GAMES_VAR).unwrap_or(engine::PIECE_GAMES);
        let patience = std::env::var(PATIENCE_VAR)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(engine::PATIENCE, Duration::from_millis);
        let map = super::map_files();
        Run {
            paths,
            options: Options {
                jobs: jobs.jobs,
                batch_bytes,
                piece_bytes,
                piece_games,
                patience,
                map,
                records: false,
                shard: inputs.shard(),
                index: inputs.index.clone(),
            },
            progress: progress.progress,
            quiet: false,
        }
    }

    /// The same run without progress when `quiet`.
    pub fn quiet(self, quiet: bool) -> Run {
        Run { quiet, ..self }
    }

    /// The same run with each game's record ([`Options::records`]).
    pub fn records(mut self) -> Run {
        self.options.records = true;
        self
    }

    /// Checks that every input can be read twice, for the commands that
    /// do: each is a regular file, plain or compressed. Standard input, a
    /// pipe or FIFO named by a path (`<(…)`, `/dev/stdin`) and a device
    /// give their bytes once, so a second pass would read nothing, or wait
    /// for a writer for ever. An input that cannot be looked at is left
    /// to the reading, which reports it.
    ///
    /// # Errors
    /// The first input that is not a regular file.
    pub fn files_read_twice(&self) -> Result<(), ReadOnce> {
        for path in &self.paths {
            let what = if path.as_os_str() == "-" {
                "standard input"
            } else {
                match std::fs::metadata(path) {
                    Ok(meta) if !meta.is_file() => file_kind(meta.file_type()),
                    _ => continue,
                }
            };
            return Err(ReadOnce {
                name: engine::display_name(path),
                what,
            });
        }
        Ok(())
    }
}

/// An input that is not a regular file ([`Run::files_read_twice`]): its
/// name in messages and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOnce {
    name: String,
    what: &'static str,
}

impl std::fmt::Display for ReadOnce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is {}", self.name, self.what)
    }
}

/// What a file that is not a regular file is, in a message.
fn file_kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a pipe";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// A count set by the environment variable `var` (a test knob): `None`
/// when it is unset, not a number, or 0.
fn env_count(var: &str) -> Option<usize> {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
}

/// When to colour output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the environment variable NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn colour(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
            ColorChoice::Always => true,
            ColorChoice::Never => false,
        }
    }
}

/// When to colour diagnostics and summaries (`--color`).
#[derive(Debug, Args)]
pub struct Colour {
    /// Colour diagnostics and summaries: auto (when standard error is a
    /// terminal and NO_COLOR is not set), always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

impl Colour {
    /// Whether what goes to standard error is coloured.
    pub fn stderr(&self) -> bool {
        self.color.colour(std::io::stderr().is_terminal())
    }
}
