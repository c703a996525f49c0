//! The command-line front end: argument parsing and one module per
//! subcommand. Only this side uses clap, anyhow and indicatif.

mod convert;
mod fen;
mod filter;
mod games;
mod json;
mod output;
mod perft;
mod progress;
mod records;
mod stats;
mod tags;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

/// Parses the command line and runs the subcommand.
pub fn run() -> anyhow::Result<Exit> {
    let cli = Cli::parse();
    match &cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Tags(args) => tags::run(args),
        Command::Filter(args) => filter::run(args),
        Command::Stats(args) => stats::run(args),
    }
}

/// Whether an error chain is, at bottom, a closed output pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
