//! `pgnkit fen`: the final position of each game's mainline.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use pgnkit::EpMode;
use pgnkit::replay::{ReplayOptions, Replayer, Severity};

use super::Exit;
use super::games::{Context, Done, Format, Item, Lang, Run, too_large, write_diagnostic};
use super::output::Output;
use super::progress::When;

/// Print the final FEN of each game's mainline, one line per game, in input
/// order.
///
/// A game with any error (illegal move, bad FEN tag, syntax error) prints
/// no line: its errors go to standard error and the exit status is 1. So
/// does a game in an unsupported variant. Exit status: 0 a line for every
/// game, 1 some game printed none, 2 usage or I/O error.
#[derive(Debug, Args)]
pub struct FenArgs {
    /// PGN files, plain or compressed (zstd, gzip, bzip2); `-` or none:
    /// standard input.
    files: Vec<PathBuf>,
    /// Which en-passant square to show: always (after every double step, as
    /// the PGN standard says) or legal (only when a capture is possible).
    #[arg(long, value_enum, default_value_t)]
    ep: Ep,
    /// Worker threads (0: one per core; 1: strictly sequential).
    #[arg(short, long, default_value_t = 0)]
    jobs: usize,
    /// When to show a progress bar on standard error.
    #[arg(long, value_enum, default_value_t)]
    progress: When,
    /// Piece-letter alphabet: auto, en, de (B = Bauer).
    #[arg(long, value_enum, default_value_t)]
    lang: Lang,
    /// Write to FILE instead of standard output (replaced only on success).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The en-passant field (`--ep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum Ep {
    /// After every double step.
    #[default]
    Always,
    /// Only when an en-passant capture is legal.
    Legal,
}

/// Runs `pgnkit fen`.
pub fn run(args: &FenArgs) -> anyhow::Result<Exit> {
    let mode = match args.ep {
        Ep::Always => EpMode::Always,
        Ep::Legal => EpMode::Legal,
    };
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: false,
    };
    let mut out = Output::open(args.output.as_deref(), &args.files)?;
    let work = |path: &str, text: &[u8], items: &[Item]| {
        let ctx = Context {
            path,
            format: Format::Text,
            strict: false,
        };
        let mut done = Done::default();
        let mut replayer = Replayer::new();
        for item in items {
            let (info, range) = match item {
                Item::Game(info, range) => (info, range.clone()),
                Item::TooLarge(err) => {
                    too_large(&ctx, err, &mut done);
                    continue;
                }
            };
            let Some(source) = text.get(range) else {
                continue;
            };
            let replay = replayer.replay(&info.with_bytes(source), &options);
            let printed = match &replay.position {
                Some(pos) if replay.status == pgnkit::Status::Valid => {
                    let _ = writeln!(done.stdout, "{}", pos.fen(mode));
                    true
                }
                _ => false,
            };
            if !printed {
                for d in &replay.diagnostics {
                    if d.severity != Severity::Warning {
                        write_diagnostic(&ctx, info, source, &replay, d, &mut done);
                    }
                }
            }
            done.stats.count(&replay, !printed, false);
        }
        done
    };
    let run = Run::execute(&args.files, args.jobs, args.progress, false, &mut out, work)?;
    out.finish()?;
    Ok(if run.io_error {
        Exit::Usage
    } else if run.stats.errors + run.stats.unsupported > 0 {
        Exit::Errors
    } else {
        Exit::Ok
    })
}
