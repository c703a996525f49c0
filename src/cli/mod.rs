//! The command-line front end: argument parsing and one module per
//! subcommand. Only this side uses clap, anyhow and indicatif.

mod args;
mod board;
mod convert;
mod dedup;
mod fen;
mod filter;
mod index;
mod json;
mod output;
#[cfg(feature = "parquet")]
mod parquet;
mod perft;
mod progress;
mod report;
mod run;
mod shell;
mod split;
mod stats;
mod tags;
mod validate;

use std::ffi::OsString;
use std::io::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use clap::{Args, FromArgMatches, Parser, Subcommand};
use pgnkit::input::{Input, OpenOptions};

/// The environment variable that, set to anything but `0`, stops the
/// commands from mapping input files into memory (`OpenOptions::map`).
pub const NO_MAP_VAR: &str = "PGNKIT_NO_MMAP";

/// How a run ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything was valid.
    Ok = 0,
    /// The run finished, but some input had errors.
    Errors = 1,
    /// Usage or I/O error: the run could not do its job.
    Usage = 2,
}

impl Exit {
    /// The status of a run: [`Exit::Usage`] when an input could not be
    /// read (`io_error`), [`Exit::Errors`] when `failed` games could not
    /// be done, else [`Exit::Ok`].
    pub fn of(io_error: bool, failed: u64) -> Exit {
        if io_error {
            Exit::Usage
        } else if failed > 0 {
            Exit::Errors
        } else {
            Exit::Ok
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// Strict, fast toolkit for chess games in PGN and positions in FEN.
#[derive(Debug, Parser)]
#[command(name = "pgnkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Perft(perft::PerftArgs),
    Validate(validate::ValidateArgs),
    Fen(fen::FenArgs),
    Convert(convert::ConvertArgs),
    Tags(tags::TagsArgs),
    Filter(filter::FilterArgs),
    Stats(stats::StatsArgs),
    Dedup(dedup::DedupArgs),
    Split(split::SplitArgs),
    Index(index::IndexArgs),
    Board(board::BoardArgs),
    Completions(shell::CompletionsArgs),
    Man(shell::ManArgs),
}

impl Command {
    /// The input files of a subcommand that reads games.
    fn inputs(&self) -> Option<&args::Inputs> {
        Some(match self {
            Command::Validate(args) => &args.inputs,
            Command::Fen(args) => &args.inputs,
            Command::Convert(args) => &args.inputs,
            Command::Tags(args) => &args.inputs,
            Command::Filter(args) => &args.inputs,
            Command::Stats(args) => &args.inputs,
            Command::Dedup(args) => &args.inputs,
            Command::Split(args) => &args.inputs,
            Command::Perft(_)
            | Command::Index(_)
            | Command::Board(_)
            | Command::Completions(_)
            | Command::Man(_) => return None,
        })
    }
}

/// Parses the command line and runs the subcommand.
pub fn run() -> anyhow::Result<Exit> {
    let cli = parse(std::env::args_os().collect());
    if let Some(Err(why)) = cli.command.inputs().map(args::Inputs::check) {
        message!("pgnkit: {why}");
        return Ok(Exit::Usage);
    }
    match &cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Tags(args) => tags::run(args),
        Command::Filter(args) => filter::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Split(args) => split::run(args),
        Command::Index(args) => index::run(args),
        Command::Board(args) => board::run(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(args),
    }
}

/// Reads the command line `args` (the program's name first).
///
/// Building the whole command (seven subcommands and all their options)
/// took 0.3 ms of a run's start, as long as the rest of the start-up of
/// `validate` on an empty file. So the subcommand that the first argument
/// names is built alone and reads the rest; anything it does not accept
/// (help, the version, a mistake, a name that is not a subcommand's) is
/// read again by the whole command, whose help and errors are the ones
/// users see.
fn parse(args: Vec<OsString>) -> Cli {
    parse_alone(&args).unwrap_or_else(|| Cli::parse_from(args))
}

/// `args` read by their subcommand alone, if it accepts them.
fn parse_alone(args: &[OsString]) -> Option<Cli> {
    let sub = subcommand(args.get(1)?.to_str()?)?;
    let matches = clap::Command::new("pgnkit")
        .subcommand(sub)
        .try_get_matches_from(args)
        .ok()?;
    Cli::from_arg_matches(&matches).ok()
}

/// The subcommand `name` as the whole command builds it.
fn subcommand(name: &str) -> Option<clap::Command> {
    Some(match name {
        "perft" => perft::PerftArgs::augment_args(clap::Command::new("perft")),
        "validate" => validate::ValidateArgs::augment_args(clap::Command::new("validate")),
        "fen" => fen::FenArgs::augment_args(clap::Command::new("fen")),
        "convert" => convert::ConvertArgs::augment_args(clap::Command::new("convert")),
        "tags" => tags::TagsArgs::augment_args(clap::Command::new("tags")),
        "filter" => filter::FilterArgs::augment_args(clap::Command::new("filter")),
        "stats" => stats::StatsArgs::augment_args(clap::Command::new("stats")),
        "dedup" => dedup::DedupArgs::augment_args(clap::Command::new("dedup")),
        "split" => split::SplitArgs::augment_args(clap::Command::new("split")),
        "index" => index::IndexArgs::augment_args(clap::Command::new("index")),
        "board" => board::BoardArgs::augment_args(clap::Command::new("board")),
        "completions" => shell::CompletionsArgs::augment_args(clap::Command::new("completions")),
        "man" => shell::ManArgs::augment_args(clap::Command::new("man")),
        _ => return None,
    })
}

/// Whether plain files are mapped into memory: unless [`NO_MAP_VAR`] says
/// not to.
pub fn map_files() -> bool {
    std::env::var_os(NO_MAP_VAR).is_none_or(|v| v == "0")
}

/// Opens the input `path` (`-` is stdin), mapping it into memory unless
/// [`NO_MAP_VAR`] says not to.
pub fn open_input(path: &Path) -> io::Result<Input> {
    OpenOptions { map: map_files() }.open(path)
}

/// Writes a line to standard error, as `eprintln!` would, through
/// [`to_stderr`]: a standard error that cannot be written loses the line
/// and the run goes on to its own exit status.
macro_rules! message {
    ($($arg:tt)*) => {
        $crate::cli::to_stderr(format!("{}\n", format_args!($($arg)*)).as_bytes())
    };
}
pub(crate) use message;

/// Writes `bytes` to standard error, the one way that messages go there.
///
/// A failure to write (standard error closed, or a pipe whose reader has
/// gone) is ignored: messages are for a person, and losing them must
/// neither panic, as `eprintln!` does, nor change the exit status.
pub fn to_stderr(bytes: &[u8]) {
    let _ = io::stderr().lock().write_all(bytes);
}

/// Whether an error chain is, at bottom, a closed output pipe.
///
/// A failed write of serde_json is its own error, whose chain leaves out
/// the I/O error it wraps: it is asked for the kind of that error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let kind = match cause.downcast_ref::<serde_json::Error>() {
            Some(json) => json.io_error_kind(),
            None => cause.downcast_ref::<io::Error>().map(io::Error::kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Command lines for `sub`: each of its options alone (with each of
    /// its listed values, or a few plain ones), with and without a file,
    /// and some that `sub` may or may not accept.
    fn command_lines(sub: &clap::Command) -> Vec<Vec<String>> {
        let name = sub.get_name().to_string();
        let mut lines = vec![
            vec![],
            vec!["a.pgn".to_string()],
            vec!["a.pgn".to_string(), "b.pgn".to_string()],
            vec!["--no-such-option".to_string()],
            vec!["-h".to_string()],
            vec!["--help".to_string()],
            vec!["--version".to_string()],
            vec!["--".to_string(), "-a.pgn".to_string()],
            // A position and a depth (files to the others).
            vec!["startpos".to_string(), "2".to_string()],
            vec![
                "--divide".to_string(),
                "startpos".to_string(),
                "2".to_string(),
            ],
            vec![
                "startpos".to_string(),
                "2".to_string(),
                "--divide".to_string(),
            ],
            vec!["startpos".to_string(), "two".to_string()],
            // A directory (`man --dir`).
            vec!["--dir".to_string(), "man1".to_string()],
            vec!["--dir=man1".to_string()],
            // An output file and a file (`index`).
            vec!["-o".to_string(), "x.out".to_string(), "a.pgn".to_string()],
            vec!["a.pgn".to_string(), "-o".to_string(), "x.out".to_string()],
        ];
        for arg in sub.get_arguments() {
            let Some(long) = arg.get_long() else {
                // A positional argument with listed values (a shell name).
                for value in arg.get_possible_values() {
                    lines.push(vec![value.get_name().to_string()]);
                }
                continue;
            };
            let flag = format!("--{long}");
            let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
            let values: Vec<String> = if !takes_value {
                vec![]
            } else if arg.get_possible_values().is_empty() {
                ["1", "0", "x", "WhiteElo >= 2600", "-3"]
                    .map(String::from)
                    .to_vec()
            } else {
                arg.get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect()
            };
            if values.is_empty() {
                lines.push(vec![flag.clone(), "a.pgn".to_string()]);
                lines.push(vec![flag.clone(), flag.clone()]);
            }
            for value in values {
                lines.push(vec![flag.clone(), value.clone(), "a.pgn".to_string()]);
                lines.push(vec![format!("{flag}={value}")]);
                lines.push(vec!["a.pgn".to_string(), flag.clone(), value]);
            }
            lines.push(vec![flag]);
        }
        lines
            .into_iter()
            .map(|rest| {
                ["pgnkit".to_string(), name.clone()]
                    .into_iter()
                    .chain(rest)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_subcommand_alone_reads_its_command_lines_as_the_whole_command_does() {
        let whole = Cli::command();
        for sub in whole.get_subcommands() {
            let (mut accepted, mut refused) = (0, 0);
            assert!(
                subcommand(sub.get_name()).is_some(),
                "{} is not built alone",
                sub.get_name()
            );
            for line in command_lines(sub) {
                let args: Vec<OsString> = line.iter().map(OsString::from).collect();
                let full = Cli::try_parse_from(&args);
                let alone = parse_alone(&args);
                assert_eq!(
                    alone.as_ref().map(|cli| format!("{cli:?}")),
                    full.as_ref().ok().map(|cli| format!("{cli:?}")),
                    "{line:?}"
                );
                if alone.is_some() {
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
            // Both kinds were tried.
            assert!(
                accepted >= 3 && refused >= 3,
                "{}: {accepted} accepted, {refused} refused",
                sub.get_name()
            );
        }
    }

    #[test]
    fn broken_pipes_are_found_under_context_and_in_json_errors() {
        /// A writer that fails with `ErrorKind`.
        struct Failing(io::ErrorKind);
        impl io::Write for Failing {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(self.0.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let json = |kind| {
            let written = serde_json::to_writer(Failing(kind), &[1, 2, 3]);
            anyhow::Error::new(written.expect_err("a failed write"))
        };
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        for (err, broken) in [
            (anyhow::Error::new(pipe()), true),
            (
                anyhow::Error::new(pipe()).context("writing the output"),
                true,
            ),
            (json(io::ErrorKind::BrokenPipe), true),
            (json(io::ErrorKind::BrokenPipe).context("writing"), true),
            (anyhow::Error::new(io::Error::other("disk full")), false),
            (json(io::ErrorKind::StorageFull), false),
            (anyhow::anyhow!("Broken pipe"), false),
        ] {
            assert_eq!(is_broken_pipe(&err), broken, "{err:#}");
        }
    }

    #[test]
    fn other_first_arguments_go_to_the_whole_command() {
        for first in ["--help", "-V", "help", "valid", "", "VALIDATE"] {
            let args = [OsString::from("pgnkit"), OsString::from(first)];
            assert!(parse_alone(&args).is_none(), "{first}");
        }
        assert!(parse_alone(&[OsString::from("pgnkit")]).is_none());
    }
}
