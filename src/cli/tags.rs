//! `pgnkit tags`: a table of chosen tags and pseudo-fields, one row per game.

use std::borrow::Cow;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::{Facts, Field, FieldType};
use pgnkit::replay::ReplayOptions;
use pgnkit::timeline::Timeline;

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
/// TimeControl.increment, TimeControl.moves, and from the clock and
/// evaluation comments ([%clk], [%emt], [%eval]): clock.white,
/// clock.black (after the side's last move), clock.white.N (after its Nth
/// move), used.white (seconds its moves took), used.white.max (its longest
/// move), drop.white (its largest evaluation drop in one move, in pawns),
/// the same for black, eval (the last evaluation), clocks and evals (plies
/// with them). Pseudo-fields from the board (plies, moves, status, valid)
/// replay the game; clock fields read the mainline's comments; tag fields
/// only read its tags. Names are read as filter expressions read them: a misspelt or
/// wrongly-cased name (white, Elo) is an error with the field meant, and
/// tag:Name names any tag exactly as spelt.
///
/// Formats: tsv (tab-separated; tabs and line breaks in values become
/// spaces; no header unless --header, so rows sort and cut cleanly),
/// csv (RFC 4180 quoting; header unless --no-header), jsonl (one JSON
/// object per game, keys in --fields order, values typed: numbers, valid
/// as a boolean, player and elo as [white, black], a missing tag null),
/// parquet (needs -o FILE; the jsonl values as typed columns, see
/// docs/parquet.md).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  pgnkit tags --fields White,WhiteDays games.pgn | sort -t$'\\t' -k2n
  pgnkit tags --header --fields game,White,Black,Result,plies,status games.pgn
  pgnkit tags --format csv --fields Event,Date,White,Black games.pgn > games.csv
  pgnkit tags --format jsonl --fields game,clock.white,clock.black,used.white,drop.black games.pgn
  pgnkit tags --format parquet -o games.parquet --fields game,White,Black,elo,plies,clock.white games.pgn",
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
    /// Parquet (needs -o FILE): typed columns, see docs/parquet.md.
    Parquet,
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
            "valid" => Some(Field::Valid),
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
    let commands = columns
        .iter()
        .any(|c| c.field.as_ref().is_some_and(Field::needs_timeline));
    let options = ReplayOptions {
        letters: args.common.lang.policy(),
        lints: false,
    };
    if args.format == TableFormat::Parquet {
        return parquet_table(args, &columns, replay, commands, &options);
    }
    let header = match args.format {
        TableFormat::Tsv => args.header,
        TableFormat::Csv => !args.no_header,
        TableFormat::Jsonl | TableFormat::Parquet => false,
    };
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    if header {
        let names: Vec<Vec<Option<Cow<'_, str>>>> = columns
            .iter()
            .map(|c| vec![Some(Cow::Borrowed(c.name.as_str()))])
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
        let timeline = commands.then(|| Timeline::read(&raw));
        facts.timeline = timeline.as_ref();
        let cells = cells(&columns, raw.number, &facts);
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

/// The cells of one game's row: the values of each column (none for a
/// missing tag; White's and Black's, either possibly missing, for
/// `player` and `elo`).
fn cells<'f>(
    columns: &[Column],
    number: u64,
    facts: &'f Facts<'_>,
) -> Vec<Vec<Option<Cow<'f, str>>>> {
    columns
        .iter()
        .map(|c| match &c.field {
            None => vec![Some(Cow::Owned(number.to_string()))],
            // Both sides, each in its place: JSON shows a missing one as null.
            Some(Field::Player) => vec![facts.tag("White"), facts.tag("Black")],
            Some(Field::Elo) => vec![facts.tag("WhiteElo"), facts.tag("BlackElo")],
            Some(field) => field.values(facts).into_iter().map(Some).collect(),
        })
        .collect()
}

/// `--format parquet`: the same cells, typed as `--format jsonl` types
/// them, one row group after another (docs/parquet.md).
#[cfg(feature = "parquet")]
fn parquet_table(
    args: &TagsArgs,
    columns: &[Column],
    replay: bool,
    commands: bool,
    options: &ReplayOptions,
) -> anyhow::Result<Exit> {
    use super::parquet::{File, Kind, Rows, Spec, Value};

    let kind = |column: &Column| match &column.field {
        None => Kind::Int,
        Some(Field::Valid) => Kind::Bool,
        Some(field) if field.is_fractional() => Kind::Real,
        Some(field) if field.field_type() == FieldType::Number => Kind::Int,
        Some(_) => Kind::Text,
    };
    let specs: Vec<Spec> = columns
        .iter()
        .map(|c| match c.field {
            Some(Field::Player | Field::Elo) => Spec::list(&c.name, kind(c)),
            _ => Spec::one(&c.name, kind(c)),
        })
        .collect();
    super::parquet::check(args.common.output.path(), &specs, "--format")?;
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    let mut file = File::create(&mut out, &specs)?;
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Rows>| {
        let Ok(raw) = item.game else {
            return;
        };
        let mut facts = Facts::new(raw.bytes);
        let replayed = replay.then(|| replayer.replay(&raw, options));
        facts.replay = replayed.as_ref();
        let timeline = commands.then(|| Timeline::read(&raw));
        facts.timeline = timeline.as_ref();
        let cells = cells(columns, raw.number, &facts);
        let mut row = done.extra.row(&specs);
        for (spec, cell) in specs.iter().zip(&cells) {
            if spec.list {
                row.list(Some(cell.iter().map(|text| typed(spec.kind, text))));
            } else {
                row.value(
                    cell.first()
                        .map_or(Value::Null, |text| typed(spec.kind, text)),
                );
            }
        }
        done.stats.games += 1;
    };
    let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
    let mut sink = std::io::sink();
    let mut batches = |rows: &mut Rows| file.write(rows, false);
    let mut writer = Writer::new(&mut sink, &run).on_batch(&mut batches);
    execute(&run, &mut writer, PooledReplayer::take, game)?;
    let (io_error, rows) = (writer.io_error, std::mem::take(&mut writer.extra));
    drop(writer);
    file.close(rows)?;
    out.close(if io_error { Exit::Usage } else { Exit::Ok })
}

/// A cell's value as the column's kind: null when it is missing or does
/// not read as one (`WhiteElo "?"`).
#[cfg(feature = "parquet")]
fn typed<'t>(
    kind: super::parquet::Kind,
    text: &'t Option<Cow<'_, str>>,
) -> super::parquet::Value<'t> {
    use super::parquet::{Kind, Value};
    let Some(text) = text.as_deref() else {
        return Value::Null;
    };
    match kind {
        Kind::Int => text.parse().map_or(Value::Null, Value::Int),
        Kind::Real => text.parse().map_or(Value::Null, Value::Real),
        Kind::Bool => Value::Bool(text == "valid"),
        Kind::Text => Value::Text(text),
    }
}

#[cfg(not(feature = "parquet"))]
fn parquet_table(
    _: &TagsArgs,
    _: &[Column],
    _: bool,
    _: bool,
    _: &ReplayOptions,
) -> anyhow::Result<Exit> {
    anyhow::bail!("--format parquet: this pgnkit was built without the `parquet` feature")
}

/// Appends one row in the chosen format; each cell holds the values of
/// its column (none for a missing tag; White's and Black's, either
/// possibly missing, for `player` and `elo`).
fn write_row(
    format: TableFormat,
    columns: &[Column],
    cells: &[Vec<Option<Cow<'_, str>>>],
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    match format {
        TableFormat::Tsv => {
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(b'\t');
                }
                out.extend(joined(cell).bytes().map(|b| {
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
            writer.write_record(cells.iter().map(|c| joined(c).into_owned()))?;
            writer.flush()?;
        }
        TableFormat::Parquet => {}
        TableFormat::Jsonl => {
            let mut object = serde_json::Map::new();
            for (column, cell) in columns.iter().zip(cells) {
                object.insert(column.name.clone(), json_cell(column, cell));
            }
            serde_json::to_writer(&mut *out, &object)?;
            out.push(b'\n');
        }
    }
    Ok(())
}

/// A cell as text: its values joined by `;`, empty when there is none.
fn joined<'c>(cell: &'c [Option<Cow<'_, str>>]) -> Cow<'c, str> {
    let mut values = cell.iter().flatten();
    match (values.next(), values.next()) {
        (None, _) => Cow::Borrowed(""),
        (Some(one), None) => Cow::Borrowed(one.as_ref()),
        _ => Cow::Owned(
            cell.iter()
                .flatten()
                .map(Cow::as_ref)
                .collect::<Vec<_>>()
                .join(";"),
        ),
    }
}

/// A cell as a typed JSON value (the schema is in `docs/filter.md`): `game`
/// and number fields as numbers, `valid` as a boolean, `player` and `elo`
/// as `[white, black]`, a missing value as `null`.
fn json_cell(column: &Column, cell: &[Option<Cow<'_, str>>]) -> serde_json::Value {
    use serde_json::Value;
    let number = matches!(
        column.field.as_ref().map(Field::field_type),
        None | Some(FieldType::Number)
    );
    let value = |text: &Option<Cow<'_, str>>| -> Value {
        match (text, &column.field) {
            (None, _) => Value::Null,
            (Some(text), Some(Field::Valid)) => Value::Bool(text == "valid"),
            (Some(text), _) if number => json_number(text),
            (Some(text), _) => Value::String(text.to_string()),
        }
    };
    match (&column.field, cell) {
        (Some(Field::Player | Field::Elo), _) => Value::Array(cell.iter().map(value).collect()),
        (_, [one]) => value(one),
        (_, _) => Value::Null,
    }
}

/// A number field's value: a JSON number when the text is an integer or
/// a decimal (seconds, pawns) written plainly (so that nothing is lost),
/// else the text (`?`, `-`).
fn json_number(text: &str) -> serde_json::Value {
    if let Ok(n) = text.parse::<i64>()
        && n.to_string() == text
    {
        return n.into();
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x.to_string() == text => x.into(),
        _ => serde_json::Value::String(text.to_string()),
    }
}
