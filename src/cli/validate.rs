//! `pgnkit validate`: replay every game and report what is wrong.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use pgnkit::pgn::{LineIndex, SyntaxChecker};
use pgnkit::replay::{ReplayOptions, Severity};

use super::Exit;
use super::games::{
    Context, Done, Format, Games, Lang, PooledReplayer, Run, Stats, TERMINATIONS, game_of, shown,
    write_diagnostic, write_syntax_error,
};
use super::output::Output;
use super::progress::When;

/// Check that every game is legal chess and its result agrees with the board.
///
/// Each game's moves (mainline and variations) are replayed from its start
/// position; the mainline stops at its first illegal move. Diagnostics go
/// to standard error as
/// `path:line:col: error|warning|note: game N (White - Black), 23...Nf6: message`
/// (with --format json: one JSON object per line on standard output). A
/// summary follows on standard error.
///
/// With --syntax-only, only the PGN syntax is checked (tags, comments,
/// variations, move tokens as notation, results), not the chess rules: a
/// fast well-formedness check of archives.
///
/// Exit status: 0 every game valid, 1 some game has an error (with
/// --strict: or a warning), 2 usage or I/O error (an unreadable input is
/// reported and the other inputs are still checked).
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// PGN files, plain or compressed (zstd, gzip, bzip2); `-` or none:
    /// standard input.
    files: Vec<PathBuf>,
    /// Worker threads (0: one per core; 1: strictly sequential).
    #[arg(short, long, default_value_t = 0)]
    jobs: usize,
    /// When to show a progress bar on standard error.
    #[arg(long, value_enum, default_value_t)]
    progress: When,
    /// Print errors only: no warnings, no summary, no progress.
    #[arg(short, long)]
    quiet: bool,
    /// Treat warnings (notation lints, doubtful results) as errors.
    #[arg(long)]
    strict: bool,
    /// Piece-letter alphabet: auto (English unless a game's letters are
    /// German), en, de (B = Bauer).
    #[arg(long, value_enum, default_value_t)]
    lang: Lang,
    /// Diagnostic format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Check PGN syntax only, no chess rules: tag pairs, comments,
    /// variations, results, and every move token's notation (not whether the
    /// move is legal). Reports the same syntax errors as a full validate,
    /// without move numbers or positions; no warnings.
    #[arg(long, conflicts_with_all = ["strict", "lang"])]
    syntax_only: bool,
}

/// Runs `pgnkit validate`.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Exit> {
    if args.syntax_only {
        return run_syntax_only(args);
    }
    // Warnings cost lint work on every move: skip it when none are shown.
    let warnings = !args.quiet || args.strict;
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: warnings,
    };
    let work = |path: &str, games: &Games<'_>| {
        let ctx = Context {
            path,
            format: args.format,
            strict: args.strict,
        };
        let mut done = Done::default();
        let mut replayer = PooledReplayer::take();
        for item in games.items {
            let Some((info, raw)) = game_of(&ctx, item, games, &mut done) else {
                continue;
            };
            let source = raw.bytes;
            let replay = replayer.replay(&raw, &options);
            let mut errored = false;
            let mut warned = false;
            let mut lines = None;
            for d in &replay.diagnostics {
                let severity = shown(d.severity, args.strict);
                errored |= severity == Severity::Error;
                warned |= severity == Severity::Warning;
                if severity == Severity::Error || !args.quiet {
                    let lines =
                        lines.get_or_insert_with(|| LineIndex::new(source, info.first_line));
                    write_diagnostic(&ctx, info, source, lines, &replay, d, &mut done);
                }
            }
            done.stats.count(&replay, errored, warned);
        }
        done
    };
    execute(args, work, summary)
}

/// `validate --syntax-only`: every game through the syntax checker, no
/// replay.
fn run_syntax_only(args: &ValidateArgs) -> anyhow::Result<Exit> {
    let work = |path: &str, games: &Games<'_>| {
        let ctx = Context {
            path,
            format: args.format,
            strict: false,
        };
        let mut done = Done::default();
        let mut checker = SyntaxChecker::default();
        let mut errors = Vec::new();
        for item in games.items {
            let Some((info, raw)) = game_of(&ctx, item, games, &mut done) else {
                continue;
            };
            let source = raw.bytes;
            errors.clear();
            let summary = checker.check(&raw, |e| errors.push(e));
            done.stats.games += 1;
            if errors.is_empty() {
                done.stats.valid += 1;
                continue;
            }
            done.stats.errors += 1;
            let lines = LineIndex::new(source, info.first_line);
            for error in &errors {
                write_syntax_error(&ctx, info, source, &lines, &summary, error, &mut done);
            }
        }
        done
    };
    execute(args, work, |stats| {
        eprintln!(
            "pgnkit validate: {} games: {} well-formed, {} with syntax errors (syntax only: moves not replayed)",
            stats.games, stats.valid, stats.errors
        );
    })
}

/// Runs `work` over every batch, then prints the summary (unless quiet)
/// and maps the counts to the exit status.
fn execute<W>(args: &ValidateArgs, work: W, summary: impl Fn(&Stats)) -> anyhow::Result<Exit>
where
    W: Fn(&str, &Games<'_>) -> Done + Sync,
{
    let mut out = Output::open(None, &[])?;
    let run = Run::execute(
        &args.files,
        args.jobs,
        args.progress,
        args.quiet,
        &mut out,
        work,
    )?;
    out.finish()?;
    if !args.quiet {
        summary(&run.stats);
    }
    Ok(if run.io_error {
        Exit::Usage
    } else if run.stats.errors > 0 {
        Exit::Errors
    } else {
        Exit::Ok
    })
}

fn summary(stats: &Stats) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pgnkit validate: {} games: {} valid ({} with warnings), {} with errors, {} unsupported (skipped)",
        stats.games, stats.valid, stats.warnings, stats.errors, stats.unsupported
    );
    let mut parts: Vec<String> = TERMINATIONS
        .iter()
        .zip(stats.terminations)
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    let not_replayed = stats.terminations[TERMINATIONS.len()];
    if not_replayed > 0 {
        parts.push(format!("{not_replayed} not replayed to the end"));
    }
    if !parts.is_empty() {
        let _ = writeln!(err, "pgnkit validate: on the board: {}", parts.join(", "));
    }
}
