//! `pgnkit tags`: a table of chosen tags and pseudo-fields, one row per game.

use std::borrow::Cow;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::{Facts, Field};
use pgnkit::replay::ReplayOptions;

use super::Exit;
use super::args::{Common, Inputs, PGN_FILES, Run, WORKERS};
use super::output::Output;
use super::report::Done;
use super::run::{Writer, execute};

/// Print chosen tags and pseudo-fields of every game as a table.
///
/// One row per game, in input order; a missing tag is an empty cell. Fields
/// are tag names (exact case: White, WhiteDays, ECO …) or pseudo-fields:
/// game (number in its input), plies, moves, status, valid, winner, player
/// (White and Black), elo (WhiteElo and BlackElo), eco, TimeControl.base,
/// TimeControl.increment, TimeControl.moves. Pseudo-fields from the board
/// (plies, moves, status, valid) replay the game; tag fields only read its
/// tags. Names are read as filter expressions read them: a misspelt or
/// wrongly-cased name (white, Elo) is an error with the field meant, and
/// tag:Name names any tag exactly as spelt.
///
/// Formats: tsv (tab-separated; tabs and line breaks in values become
/// spaces; no header unless --header, so rows sort and cut cleanly),
/// csv (RFC 4180 quoting; header unless --no-header), jsonl (one JSON
/// object per game, keys in --fields order).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  pgnkit tags --fields White,WhiteDays games.pgn | sort -t$'\\t' -k2n
  pgnkit tags --header --fields game,White,Black,Result,plies,status games.pgn
  pgnkit tags --format csv --fields Event,Date,White,Black games.pgn > games.csv",
    mut_arg("files", |a| a.help(PGN_FILES)),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet for replayed fields")),
)]
pub struct TagsArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// Comma-separated fields.
    #[arg(
        short,
        long,
        value_delimiter = ',',
        default_value = "Event,Site,Date,Round,White,Black,Result"
    )]
    fields: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: TableFormat,
    /// Write a header row (default for csv).
    #[arg(long, overrides_with = "no_header")]
    header: bool,
    /// Write no header row (default for tsv).
    #[arg(long)]
    no_header: bool,
    #[command(flatten)]
    common: Common,
}

/// Table formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum TableFormat {
    /// Tab-separated values.
    #[default]
    Tsv,
    /// Comma-separated values (RFC 4180).
    Csv,
    /// JSON Lines.
    Jsonl,
}

/// A column: its name and what it shows.
struct Column {
    name: String,
    field: Option<Field>,
}

/// Runs `pgnkit tags`.
pub fn run(args: &TagsArgs) -> anyhow::Result<Exit> {
    // Field names are read as filter expressions read them: a misspelt or
    // wrongly-cased one is a usage error, not a silently empty column.
    let mut columns = Vec::new();
    for name in args.fields.iter().map(|name| name.trim()) {
        if name.is_empty() {
            continue;
        }
        let field = match name {
            "game" => None,
            _ => Some(Field::resolve(name).map_err(|err| anyhow::anyhow!("--fields: {err}"))?),
        };
        columns.push(Column {
            name: name.to_string(),
            field,
        });
    }
    anyhow::ensure!(!columns.is_empty(), "--fields names no field");
    let replay = columns
        .iter()
        .any(|c| c.field.as_ref().is_some_and(Field::needs_replay));
    let options = ReplayOptions {
        letters: args.common.lang.policy(),
        lints: false,
    };
    let header = match args.format {
        TableFormat::Tsv => args.header,
        TableFormat::Csv => !args.no_header,
        TableFormat::Jsonl => false,
    };
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    if header {
        let names: Vec<Cow<'_, str>> = columns
            .iter()
            .map(|c| Cow::Borrowed(c.name.as_str()))
            .collect();
        let mut row = Vec::new();
        write_row(args.format, &columns, &names, &mut row)?;
        std::io::Write::write_all(&mut out, &row).context("writing the output")?;
    }
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done| {
        let Ok(raw) = item.game else {
            return;
        };
        let mut facts = Facts::new(raw.bytes);
        let replayed = replay.then(|| replayer.replay(&raw, &options));
        facts.replay = replayed.as_ref();
        let cells: Vec<Cow<'_, str>> = columns
            .iter()
            .map(|c| match &c.field {
                None => Cow::Owned(raw.number.to_string()),
                Some(field) => {
                    let values = field.values(&facts);
                    match values.len() {
                        0 => Cow::Borrowed(""),
                        1 => values.into_iter().next().unwrap_or_default(),
                        _ => Cow::Owned(values.join(";")),
                    }
                }
            })
            .collect();
        // Writing into a Vec cannot fail.
        let _ = write_row(args.format, &columns, &cells, &mut done.stdout);
        done.stats.games += 1;
    };
    let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
    let mut writer = Writer::new(&mut out, &run);
    execute(&run, &mut writer, PooledReplayer::take, game)?;
    let io_error = writer.io_error;
    out.close(if io_error { Exit::Usage } else { Exit::Ok })
}

/// Appends one row in the chosen format.
fn write_row(
    format: TableFormat,
    columns: &[Column],
    cells: &[Cow<'_, str>],
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    match format {
        TableFormat::Tsv => {
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(b'\t');
                }
                out.extend(cell.bytes().map(|b| {
                    if matches!(b, b'\t' | b'\n' | b'\r') {
                        b' '
                    } else {
                        b
                    }
                }));
            }
            out.push(b'\n');
        }
        TableFormat::Csv => {
            let mut writer = csv::WriterBuilder::new()
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(out);
            writer.write_record(cells.iter().map(|c| c.as_bytes()))?;
            writer.flush()?;
        }
        TableFormat::Jsonl => {
            out.push(b'{');
            for (i, (column, cell)) in columns.iter().zip(cells).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, &column.name)?;
                out.push(b':');
                serde_json::to_writer(&mut *out, cell.as_ref())?;
            }
            out.extend_from_slice(b"}\n");
        }
    }
    Ok(())
}
