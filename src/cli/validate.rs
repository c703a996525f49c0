//! `pgnkit validate`: replay every game and report what is wrong.

use std::io::Write;

use anstyle::AnsiColor;
use clap::Args;
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::pgn::{LineIndex, ParseOptions, ParsePgnError, SyntaxChecker};
use pgnkit::replay::{MAX_DIAGNOSTICS, Omitted, ReplayOptions, Severity, TERMINATION_NAMES};

use super::Exit;
use super::args::{Colour, Inputs, Jobs, Letters, Run, ShowProgress};
use super::output::Output;
use super::report::{
    Context, Done, Format, Stats, count, game_of, paint, shown, write_diagnostic, write_omitted,
    write_syntax_error,
};
use super::run::{Writer, execute};
use super::{message, to_stderr};

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
#[command(after_help = "Examples:
  pgnkit validate games.pgn
  pgnkit validate --quiet --strict games.pgn
  pgnkit validate --format json games.pgn > diagnostics.jsonl
  pgnkit validate --format json --shard 2/4 games.pgn > diagnostics-2.jsonl
  cat games.pgn | pgnkit validate --syntax-only -
  pgnkit validate --lenient games.pgn")]
pub struct ValidateArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    progress: ShowProgress,
    /// Print errors only: no warnings, no summary, no progress.
    #[arg(short, long)]
    quiet: bool,
    /// Treat warnings (notation lints, doubtful results) as errors.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    lang: Letters,
    /// Diagnostic format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Check PGN syntax only, no chess rules: tag pairs, comments,
    /// variations, results, and every move token's notation (not whether the
    /// move is legal). Reports the same syntax errors as a full validate,
    /// without move numbers or positions; no warnings.
    #[arg(long, conflicts_with_all = ["strict", "lang"])]
    syntax_only: bool,
    #[command(flatten)]
    color: Colour,
}

/// Runs `pgnkit validate`.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Exit> {
    if args.syntax_only {
        return run_syntax_only(args);
    }
    let colour = args.color.stderr();
    // Warnings cost lint work on every move: skip it when none are shown.
    let warnings = !args.quiet || args.strict;
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: warnings,
        lenient: args.inputs.lenient,
    };
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done| {
        let ctx = Context {
            path: item.name,
            format: args.format,
            strict: args.strict,
            colour,
        };
        let Some(raw) = game_of(&ctx, item, done) else {
            return;
        };
        let replay = replayer.replay(&raw, &options);
        let mut errored = false;
        let mut warned = false;
        let mut lines = None;
        for d in &replay.diagnostics {
            let severity = shown(d.severity, args.strict);
            errored |= severity == Severity::Error;
            warned |= severity == Severity::Warning;
            if severity == Severity::Error || !args.quiet {
                let lines = lines.get_or_insert_with(|| LineIndex::of_game(&raw));
                write_diagnostic(&ctx, &raw, lines, &replay, d, done);
            }
        }
        let omitted = replay.omitted;
        errored |= omitted.errors > 0 || (args.strict && omitted.warnings > 0);
        warned |= omitted.warnings > 0;
        if omitted.errors > 0 || !args.quiet {
            let players = (replay.white, replay.black);
            write_omitted(&ctx, &raw, omitted, players, done);
        }
        done.stats.count(&replay, errored, warned);
    };
    validate(args, PooledReplayer::take, game, |stats| {
        summary(stats, colour)
    })
}

/// `validate --syntax-only`: every game through the syntax checker, no
/// replay.
fn run_syntax_only(args: &ValidateArgs) -> anyhow::Result<Exit> {
    let colour = args.color.stderr();
    let game =
        |(checker, errors): &mut (SyntaxChecker, Vec<_>), item: &Item<'_>, done: &mut Done| {
            let ctx = Context {
                path: item.name,
                format: args.format,
                strict: false,
                colour,
            };
            let Some(raw) = game_of(&ctx, item, done) else {
                return;
            };
            // The first errors are kept, the rest counted, as the replay
            // does: a game of millions of errors takes no more memory.
            errors.clear();
            let mut omitted = Omitted::default();
            let summary = checker.check(&raw, |e| {
                if errors.len() < MAX_DIAGNOSTICS {
                    errors.push(e);
                } else if e.kind.is_recovered() {
                    omitted.warnings += u64::from(!args.quiet);
                } else {
                    omitted.errors += 1;
                }
            });
            done.stats.games += 1;
            // A recovered finding (an unescaped quote in a tag value) is a
            // warning: the game is well-formed.
            if omitted.errors > 0 || errors.iter().any(|e| !e.kind.is_recovered()) {
                done.stats.errors += 1;
            } else {
                done.stats.valid += 1;
            }
            let shown = |e: &&ParsePgnError| !(args.quiet && e.kind.is_recovered());
            if !errors.iter().any(|e| shown(&e)) && omitted.is_empty() {
                return;
            }
            let lines = LineIndex::of_game(&raw);
            for error in errors.iter().filter(shown) {
                write_syntax_error(&ctx, &raw, &lines, &summary, error, done);
            }
            let players = (summary.white, summary.black);
            write_omitted(&ctx, &raw, omitted, players, done);
        };
    let options = ParseOptions {
        lenient: args.inputs.lenient,
        ..ParseOptions::default()
    };
    let init = || (SyntaxChecker::new(options), Vec::new());
    validate(args, init, game, |stats| {
        let errors = format!("{} with syntax errors", stats.errors);
        message!(
            "pgnkit validate: {}: {} well-formed, {} (syntax only: moves not replayed)",
            count(stats.games, "game", "games"),
            stats.valid,
            paint(
                colour && stats.errors > 0,
                AnsiColor::Red.on_default().bold(),
                errors
            ),
        );
    })
}

/// Runs `game` over every game, then prints the summary (unless quiet)
/// and maps the counts to the exit status.
fn validate<S, I, G>(
    args: &ValidateArgs,
    init: I,
    game: G,
    summary: impl Fn(&Stats),
) -> anyhow::Result<Exit>
where
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut Done) + Sync,
{
    let run = Run::new(&args.inputs, &args.jobs, &args.progress).quiet(args.quiet);
    let mut out = Output::open(None, &[])?;
    let mut writer = Writer::new(&mut out, &run);
    execute(&run, &mut writer, init, game)?;
    let (stats, io_error) = (writer.stats, writer.io_error);
    out.finish()?;
    if !args.quiet {
        summary(&stats);
    }
    Ok(Exit::of(io_error, stats.errors))
}

/// The summary: counts of games, and of terminations on the board. When
/// coloured, games with errors are red and games with warnings yellow
/// (when there are any).
fn summary(stats: &Stats, colour: bool) {
    let mut err = Vec::new();
    let shade = |n: u64, colour_of_some: AnsiColor, text: String| {
        paint(colour && n > 0, colour_of_some.on_default().bold(), text)
    };
    let _ = writeln!(
        err,
        "pgnkit validate: {}: {} valid ({}), {}, {} unsupported (skipped)",
        count(stats.games, "game", "games"),
        stats.valid,
        shade(
            stats.warnings,
            AnsiColor::Yellow,
            format!("{} with warnings", stats.warnings)
        ),
        shade(
            stats.errors,
            AnsiColor::Red,
            format!("{} with errors", stats.errors)
        ),
        stats.unsupported
    );
    let parts: Vec<String> = TERMINATION_NAMES
        .iter()
        .zip(stats.terminations)
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    if !parts.is_empty() {
        let _ = writeln!(err, "pgnkit validate: on the board: {}", parts.join(", "));
    }
    to_stderr(&err);
}
