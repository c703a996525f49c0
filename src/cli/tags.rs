//! `pgnkit tags`: a table of chosen tags and pseudo-fields, one row per game.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::Write as _;
use std::ops::ControlFlow;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use pgnkit::engine::{self, Failure, Item, PooledReplayer, Sink};
use pgnkit::filter::{self, Facts, Field, FieldType, integer};
use pgnkit::opening::{Classifier, Openings};
use pgnkit::pgn::{RawGame, ReadPgnError};
use pgnkit::replay::{MainlinePly, Replay, ReplayOptions};
use pgnkit::shard::Shard;
use pgnkit::timeline::Timeline;

use super::Exit;
use super::args::{Common, Inputs, PGN_FILES, Run, WORKERS};
use super::output::Output;
use super::report::{Done, Merge};
use super::run::{Writer, checked, execute};

/// Print chosen tags and pseudo-fields of every game as a table.
///
/// One row per game, in input order; a missing tag is an empty cell. Fields
/// are tag names (exact case: White, WhiteDays, ECO …), `*` (every tag not
/// named on its own: in tsv, csv and parquet a column per tag name seen in
/// the inputs, in the order first seen, which reads the inputs twice, so
/// they must be files, not standard input or a pipe; in jsonl each game's
/// own tags; a tag whose name another field has, such as file or game, or
/// in parquet the same name in other case, is named tag:NAME), or
/// pseudo-fields: game (number in its input), number (number over all the
/// inputs, counting on from file to file; not in parquet), file (the
/// input's name), winner, player (White and Black), elo (WhiteElo and
/// BlackElo), TimeControl.base, TimeControl.increment, TimeControl.moves;
/// from the board plies, moves, status, valid, eco and opening (the ECO
/// code and name of the opening the mainline reaches, by the lichess
/// opening table; the tags as written are ECO and Opening); and from the
/// clock and evaluation comments ([%clk], [%emt], [%eval]): clock.white,
/// clock.black (after the side's last move), clock.white.N (after its move
/// number N), used.white (seconds its moves took), used.white.max (its longest
/// move), drop.white (its largest evaluation drop in one move, in pawns),
/// the same for black, eval (the last evaluation), clocks and evals (plies
/// with them). Pseudo-fields from the board replay the game; clock fields
/// read the mainline's comments; tag fields only read its tags. Names are
/// read as filter expressions read them: a misspelt or wrongly-cased name
/// (white, Elo) is an error with the field meant, and tag:Name names any
/// tag exactly as spelt.
///
/// Formats: tsv (tab-separated; tabs and line breaks in values become
/// spaces; no header unless --header, so rows sort and cut cleanly),
/// csv (RFC 4180 quoting, LF line ends; header unless --no-header), jsonl (one JSON
/// object per game, keys in --fields order, values typed: numbers, valid
/// as a boolean, player and elo as [white, black], a missing tag null),
/// parquet (needs -o FILE; the jsonl values as typed columns, `*` a text
/// column per tag name as in csv; see docs/parquet.md).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  pgnkit tags --fields White,WhiteDays games.pgn | sort -t$'\\t' -k2n
  pgnkit tags --header --fields game,White,Black,Result,plies,status games.pgn
  pgnkit tags --format csv --fields Event,Date,White,Black games.pgn > games.csv
  pgnkit tags --header --fields game,ECO,eco,opening games.pgn
  pgnkit tags --format csv --fields 'number,file,*' games.pgn games.pgn > all-tags.csv
  pgnkit tags --format jsonl --fields 'file,game,*' games.pgn
  pgnkit tags --format jsonl --fields game,clock.white,clock.black,used.white,drop.black games.pgn
  pgnkit tags --format parquet -o games.parquet --fields game,White,Black,elo,plies,clock.white,eco games.pgn
  pgnkit tags --format csv --fields game,White --shard 1/2 games.pgn > a.csv && pgnkit tags --format csv --fields game,White --shard 2/2 games.pgn >> a.csv
  pgnkit tags --lenient --fields game,plies,status games.pgn",
    mut_arg("files", |a| a.help(PGN_FILES)),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet for replayed fields")),
)]
pub struct TagsArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
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

impl TableFormat {
    /// The format's name, as `--format` takes it.
    fn name(self) -> &'static str {
        match self {
            TableFormat::Tsv => "tsv",
            TableFormat::Csv => "csv",
            TableFormat::Jsonl => "jsonl",
            TableFormat::Parquet => "parquet",
        }
    }
}

/// What a column shows.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// The game's number in its input.
    Game,
    /// The game's number over all the inputs.
    Number,
    /// The input's name.
    File,
    /// A tag or a pseudo-field.
    Field(Field),
    /// Every tag of the game, each under its name (`*` in jsonl).
    AllTags,
    /// One tag of `*` in a table: its text, whatever the tag's type.
    Tag(String),
}

/// A column: its name and what it shows.
struct Column {
    name: String,
    source: Source,
}

impl Column {
    fn field(&self) -> Option<&Field> {
        match &self.source {
            Source::Field(field) => Some(field),
            _ => None,
        }
    }
}

/// What decides the names of the tags of `*`: a few names each, looked
/// up for every tag of every game (a scan, where hashing cost 5 % of
/// `tags -f '*' --format jsonl`).
struct Star {
    /// The tags named as columns of their own, which `*` leaves out.
    named: Vec<String>,
    /// The names of the other columns (`file`, `game`, `plies` …).
    reserved: Vec<String>,
}

impl Star {
    fn new(columns: &[Column]) -> Star {
        let (mut named, mut reserved) = (Vec::new(), Vec::new());
        for column in columns {
            match &column.source {
                Source::Field(Field::Tag(name)) | Source::Tag(name) => named.push(name.clone()),
                Source::AllTags => {}
                _ => reserved.push(column.name.clone()),
            }
        }
        Star { named, reserved }
    }

    /// Whether the tag `name` has a column of its own.
    fn is_named(&self, name: &str) -> bool {
        self.named.iter().any(|n| n == name)
    }

    /// Whether another column is called `name`.
    fn is_reserved(&self, name: &str) -> bool {
        self.reserved.iter().any(|n| n == name)
    }
}

/// The column, or JSON key, of the tag `name` of `*`: its name, or
/// `tag:NAME` when that is `taken` (by a field such as `file` or `game`),
/// then `tag:NAME~2`, `~3` … until one is free. A tag never loses its
/// value to a field of its name.
fn star_column(name: &str, taken: impl Fn(&str) -> bool) -> Cow<'_, str> {
    if !taken(name) {
        return Cow::Borrowed(name);
    }
    let mut column = format!("tag:{name}");
    let mut n = 2;
    while taken(&column) {
        column = format!("tag:{name}~{n}");
        n += 1;
    }
    Cow::Owned(column)
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
        let source = match name {
            "game" => Source::Game,
            "number" => Source::Number,
            "file" => Source::File,
            "*" => Source::AllTags,
            "valid" => Source::Field(Field::Valid),
            _ => Source::Field(
                Field::resolve(name).map_err(|err| anyhow::anyhow!("--fields: {err}"))?,
            ),
        };
        columns.push(Column {
            name: name.to_string(),
            source,
        });
    }
    anyhow::ensure!(!columns.is_empty(), "--fields names no field");
    let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
    if args.format != TableFormat::Jsonl && columns.iter().any(|c| c.source == Source::AllTags) {
        if let Err(input) = run.files_read_twice() {
            anyhow::bail!(
                "--fields '*' in {} reads the inputs twice (a column per tag name seen), \
                 so they must be files: {input} (--format jsonl reads them once)",
                args.format.name()
            );
        }
        let names = tag_names(&run)?;
        let star = Star::new(&columns);
        // Parquet readers (DuckDB) take column names without case.
        let clash = |a: &str, b: &str| match args.format {
            TableFormat::Parquet => a.eq_ignore_ascii_case(b),
            _ => a == b,
        };
        let mut taken: Vec<String> = columns
            .iter()
            .filter(|c| c.source != Source::AllTags)
            .map(|c| c.name.clone())
            .collect();
        columns = columns
            .into_iter()
            .flat_map(|c| match c.source {
                Source::AllTags => names
                    .iter()
                    .filter(|name| !star.is_named(name))
                    .map(|name| {
                        let column =
                            star_column(name, |n| taken.iter().any(|t| clash(t, n))).into_owned();
                        taken.push(column.clone());
                        Column {
                            name: column,
                            source: Source::Tag(name.clone()),
                        }
                    })
                    .collect(),
                _ => vec![c],
            })
            .collect();
        anyhow::ensure!(
            !columns.is_empty(),
            "--fields '*': the inputs have no tag, so the {} table would have no column \
             and lose its rows: name a field beside it (`game,*`)",
            args.format.name()
        );
    }
    let star = Star::new(&columns);
    let replay = columns
        .iter()
        .any(|c| c.field().is_some_and(Field::needs_replay));
    let opening = columns
        .iter()
        .any(|c| c.field().is_some_and(Field::needs_opening));
    if opening {
        // Built before the workers start, on every thread.
        Openings::get();
    }
    let commands = columns
        .iter()
        .any(|c| c.field().is_some_and(Field::needs_timeline));
    let options = ReplayOptions {
        letters: args.common.lang.policy(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    let read = Read {
        replay,
        opening,
        commands,
        options,
    };
    if args.format == TableFormat::Parquet {
        anyhow::ensure!(
            columns.iter().all(|c| c.source != Source::Number),
            "--fields number is not a column of --format parquet: \
             use file and game, or --format csv or jsonl"
        );
        return parquet_table(args, &run, &columns, &read);
    }
    // Only the first shard has a header: the shards' outputs concatenate
    // into the output of one run.
    let header = args.inputs.shard().is_first()
        && match args.format {
            TableFormat::Tsv => args.header,
            TableFormat::Csv => !args.no_header,
            TableFormat::Jsonl | TableFormat::Parquet => false,
        };
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    if header {
        let names: Vec<Cell<'_>> = columns
            .iter()
            .map(|c| Cell::Text(vec![Some(Cow::Borrowed(c.name.as_str()))]))
            .collect();
        let mut row = Vec::new();
        write_row(
            args.format,
            &columns,
            &star,
            &names,
            &mut row,
            &mut Vec::new(),
        )?;
        out.write_all(&row).context("writing the output")?;
    }
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Numbers>| {
        let raw = match item.game {
            Ok(raw) => raw,
            Err(err) => {
                super::report::skipped(item, err, done);
                // Counted, so that `number` counts on over it.
                if let ReadPgnError::GameTooLarge { number, .. } = *err {
                    done.extra.last = done.extra.last.max(number);
                }
                return;
            }
        };
        let (mut replayed, mut timeline) = (None, None);
        let facts = read.facts(replayer, &raw, &mut replayed, &mut timeline);
        let cells = cells(&columns, item.name, raw.number, &facts);
        // Writing into a Vec cannot fail.
        let _ = write_row(
            args.format,
            &columns,
            &star,
            &cells,
            &mut done.stdout,
            &mut done.extra.marks,
        );
        done.extra.last = done.extra.last.max(raw.number);
        done.stats.games += 1;
    };
    let mut writer = Writer::new(&mut out, &run);
    if columns.iter().any(|c| c.source == Source::Number) {
        let mut sink = Renumber {
            writer: &mut writer,
            before: 0,
            seen: 0,
        };
        checked(engine::run(
            &run.options,
            &run.paths,
            PooledReplayer::take,
            game,
            &mut sink,
        ))?;
    } else {
        execute(&run, &mut writer, PooledReplayer::take, game)?;
    }
    let io_error = writer.io_error;
    out.flush().context("writing the output")?;
    out.close(if io_error { Exit::Usage } else { Exit::Ok })
}

/// What the columns need read of a game besides its tags.
struct Read {
    replay: bool,
    opening: bool,
    commands: bool,
    options: ReplayOptions,
}

impl Read {
    /// The facts of `raw` that the columns show; `replayed` and
    /// `timeline` hold what they borrow.
    fn facts<'g>(
        &self,
        replayer: &mut PooledReplayer,
        raw: &RawGame<'g>,
        replayed: &'g mut Option<Replay>,
        timeline: &'g mut Option<Timeline>,
    ) -> Facts<'g> {
        let mut facts = Facts::new(raw.bytes);
        let mut classifier = self.opening.then(Classifier::new);
        *replayed = self.replay.then(|| {
            replayer.replay_with(raw, &self.options, &mut |ply: MainlinePly<'_>| {
                if let Some(classifier) = &mut classifier {
                    classifier.push(ply.ply, ply.position);
                }
            })
        });
        facts.replay = replayed.as_ref();
        facts.opening = classifier.and_then(|c| c.opening());
        *timeline = self.commands.then(|| Timeline::read(raw));
        facts.timeline = timeline.as_ref();
        facts
    }
}

/// The cells of one game's row, of the input named `name`.
fn cells<'f>(
    columns: &[Column],
    name: &'f str,
    number: u64,
    facts: &'f Facts<'f>,
) -> Vec<Cell<'f>> {
    columns
        .iter()
        .map(|c| match &c.source {
            Source::Game => Cell::Text(vec![Some(Cow::Owned(number.to_string()))]),
            Source::Number => Cell::Number(number),
            Source::File => Cell::Text(vec![Some(Cow::Borrowed(name))]),
            Source::AllTags => Cell::Tags(facts),
            Source::Tag(name) => Cell::Text(vec![facts.tag(name)]),
            // Both sides, each in its place: JSON shows a missing one as null.
            Source::Field(Field::Player) => {
                Cell::Text(vec![facts.tag("White"), facts.tag("Black")])
            }
            Source::Field(Field::Elo) => {
                Cell::Text(vec![facts.tag("WhiteElo"), facts.tag("BlackElo")])
            }
            Source::Field(field) => Cell::Text(field.values(facts).into_iter().map(Some).collect()),
        })
        .collect()
}

/// `--format parquet`: the same cells, typed as `--format jsonl` types
/// them, one row group after another (docs/parquet.md). `*` is a column
/// per tag name by now, and `number` is not there.
#[cfg(feature = "parquet")]
fn parquet_table(
    args: &TagsArgs,
    run: &Run,
    columns: &[Column],
    read: &Read,
) -> anyhow::Result<Exit> {
    use super::parquet::{File, Kind, Rows, Spec, Value};

    let kind = |column: &Column| match &column.source {
        Source::Game | Source::Number => Kind::Int,
        Source::Field(Field::Valid) => Kind::Bool,
        Source::Field(field) if field.is_fractional() => Kind::Real,
        Source::Field(field) if field.field_type() == FieldType::Number => Kind::Int,
        Source::Field(_) | Source::File | Source::AllTags | Source::Tag(_) => Kind::Text,
    };
    let specs: Vec<Spec> = columns
        .iter()
        .map(|c| match c.source {
            Source::Field(Field::Player | Field::Elo) => Spec::list(&c.name, kind(c)),
            _ => Spec::one(&c.name, kind(c)),
        })
        .collect();
    // Names given in --fields that differ only in case: a tag can take
    // another name.
    for (i, column) in columns.iter().enumerate() {
        let Some(other) = columns[..i]
            .iter()
            .find(|o| o.name != column.name && o.name.eq_ignore_ascii_case(&column.name))
        else {
            continue;
        };
        let tag = [other, column].into_iter().find_map(|c| match &c.source {
            Source::Field(Field::Tag(tag)) if !c.name.starts_with("tag:") => Some(tag),
            _ => None,
        });
        if let Some(tag) = tag {
            anyhow::bail!(
                "the Parquet columns `{}` and `{}` differ only in case \
                 (DuckDB reads names without case): name the tag `tag:{tag}`",
                other.name,
                column.name
            );
        }
    }
    super::parquet::check(args.common.output.path(), &specs, "--format")?;
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    let mut file = File::create(&mut out, &specs)?;
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Rows>| {
        let raw = match item.game {
            Ok(raw) => raw,
            Err(err) => {
                super::report::skipped(item, err, done);
                return;
            }
        };
        let (mut replayed, mut timeline) = (None, None);
        let facts = read.facts(replayer, &raw, &mut replayed, &mut timeline);
        let cells = cells(columns, item.name, raw.number, &facts);
        let mut row = done.extra.row(&specs);
        for (spec, cell) in specs.iter().zip(&cells) {
            let Cell::Text(cell) = cell else {
                row.value(Value::Null);
                continue;
            };
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
    let mut sink = std::io::sink();
    let mut batches = |rows: &mut Rows| file.write(rows, false);
    let mut writer = Writer::new(&mut sink, run).on_batch(&mut batches);
    execute(run, &mut writer, PooledReplayer::take, game)?;
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
        Kind::Int => integer(text).map_or(Value::Null, Value::Int),
        Kind::Real => text.parse().map_or(Value::Null, Value::Real),
        Kind::Bool => Value::Bool(text == "valid"),
        Kind::Text => Value::Text(text),
    }
}

#[cfg(not(feature = "parquet"))]
fn parquet_table(_: &TagsArgs, _: &Run, _: &[Column], _: &Read) -> anyhow::Result<Exit> {
    anyhow::bail!("--format parquet: this pgnkit was built without the `parquet` feature")
}

/// The tag names of every game of `run`'s inputs, each once, in the order
/// first seen: the first pass of `--fields '*'` in tsv and csv. Memory
/// grows with the names, not with the games.
fn tag_names(run: &Run) -> anyhow::Result<Vec<String>> {
    let game = |(): &mut (), item: &Item<'_>, done: &mut Done<TagNames>| {
        if let Ok(raw) = item.game {
            for tag in Facts::new(raw.bytes).tags {
                done.extra.add(&tag.name_text());
            }
        }
    };
    // Every shard's columns are the whole input's: the shards' tables
    // concatenate into one run's.
    let mut quiet = run.clone().quiet(true);
    quiet.options.shard = Shard::whole();
    quiet.options.index = None;
    let mut sink = std::io::sink();
    let mut writer: Writer<'_, TagNames> = Writer::new(&mut sink, &quiet);
    execute(&quiet, &mut writer, || (), game)?;
    Ok(writer.extra.order)
}

/// Tag names, each once, in the order first seen.
#[derive(Debug, Default)]
struct TagNames {
    order: Vec<String>,
    seen: HashSet<String>,
}

impl TagNames {
    fn add(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.order.push(name.to_string());
        }
    }
}

impl Merge for TagNames {
    fn merge(&mut self, other: TagNames) {
        for name in &other.order {
            self.add(name);
        }
    }
}

/// Where a batch's rows hold game numbers of their input (`number`), for
/// the sink to count on across inputs: (start, end, number) in `stdout`.
#[derive(Debug, Default)]
struct Numbers {
    marks: Vec<(usize, usize, u64)>,
    /// The highest game number of the batch.
    last: u64,
}

impl Merge for Numbers {
    fn merge(&mut self, other: Numbers) {
        self.last = other.last;
    }
}

/// The sink of a table with `number`: each game number in its input
/// becomes its number over all the inputs, then the rows go to `writer`.
struct Renumber<'w, 'o> {
    writer: &'w mut Writer<'o, Numbers>,
    /// Games of the inputs before the current one.
    before: u64,
    /// Games of the current input so far.
    seen: u64,
}

impl Sink<Done<Numbers>> for Renumber<'_, '_> {
    fn begin(&mut self, name: &str, total: Option<u64>) {
        self.before += self.seen;
        self.seen = 0;
        self.writer.begin(name, total);
    }

    fn write(&mut self, mut done: Done<Numbers>, read: u64) -> std::io::Result<ControlFlow<()>> {
        let marks = std::mem::take(&mut done.extra.marks);
        if !marks.is_empty() {
            let mut out = Vec::with_capacity(done.stdout.len() + 8 * marks.len());
            let mut at = 0;
            for (start, end, number) in marks {
                out.extend_from_slice(&done.stdout[at..start]);
                let _ = write!(out, "{}", self.before + number);
                at = end;
            }
            out.extend_from_slice(&done.stdout[at..]);
            done.stdout = out;
        }
        self.seen = self.seen.max(done.extra.last);
        self.writer.write(done, read)
    }

    fn end(&mut self) {
        self.writer.end();
    }

    fn failed(&mut self, failure: Failure<'_>) {
        self.writer.failed(failure);
    }
}

/// What a row shows in one column.
enum Cell<'f> {
    /// The column's values (none for a missing tag; White's and Black's,
    /// either possibly missing, for `player` and `elo`).
    Text(Vec<Option<Cow<'f, str>>>),
    /// A game number in its input, made a number over all inputs later.
    Number(u64),
    /// Every tag of a game (jsonl).
    Tags(&'f Facts<'f>),
}

/// Appends one row in the chosen format, and where its `number` cells are
/// to `marks`.
fn write_row(
    format: TableFormat,
    columns: &[Column],
    star: &Star,
    cells: &[Cell<'_>],
    out: &mut Vec<u8>,
    marks: &mut Vec<(usize, usize, u64)>,
) -> anyhow::Result<()> {
    let mut number = |n: u64, out: &mut Vec<u8>| {
        let start = out.len();
        let _ = write!(out, "{n}");
        marks.push((start, out.len(), n));
    };
    match format {
        TableFormat::Tsv => {
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(b'\t');
                }
                match cell {
                    Cell::Number(n) => number(*n, out),
                    Cell::Text(values) => out.extend(joined(values).bytes().map(|b| {
                        if matches!(b, b'\t' | b'\n' | b'\r') {
                            b' '
                        } else {
                            b
                        }
                    })),
                    Cell::Tags(_) => {}
                }
            }
            out.push(b'\n');
        }
        TableFormat::Csv => {
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                match cell {
                    // Digits need no quotes.
                    Cell::Number(n) => number(*n, out),
                    // A row of one empty cell is `""`, not an empty line.
                    Cell::Text(values) if joined(values).is_empty() => {
                        if cells.len() == 1 {
                            out.extend_from_slice(b"\"\"");
                        }
                    }
                    // Quoted as the csv crate quotes a record of this one field.
                    Cell::Text(values) => {
                        let mut writer = csv::WriterBuilder::new()
                            .terminator(csv::Terminator::Any(b'\n'))
                            .from_writer(Vec::new());
                        writer.write_record([joined(values).as_ref()])?;
                        let field = writer.into_inner().map_err(|e| e.into_error())?;
                        out.extend_from_slice(field.strip_suffix(b"\n").unwrap_or(&field));
                    }
                    Cell::Tags(_) => {}
                }
            }
            out.push(b'\n');
        }
        TableFormat::Parquet => {}
        TableFormat::Jsonl => {
            let mut keys: HashSet<String> = HashSet::new();
            out.push(b'{');
            let mut key = |name: &str, out: &mut Vec<u8>| -> anyhow::Result<bool> {
                if keys.contains(name) {
                    return Ok(false);
                }
                keys.insert(name.to_string());
                if keys.len() > 1 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, name)?;
                out.push(b':');
                Ok(true)
            };
            for (column, cell) in columns.iter().zip(cells) {
                match cell {
                    Cell::Number(n) => {
                        if key(&column.name, out)? {
                            number(*n, out);
                        }
                    }
                    Cell::Text(values) => {
                        if key(&column.name, out)? {
                            serde_json::to_writer(&mut *out, &json_cell(&column.source, values))?;
                        }
                    }
                    Cell::Tags(facts) => {
                        for tag in &facts.tags {
                            let name = tag.name_text();
                            if star.is_named(&name) {
                                continue;
                            }
                            let column = star_column(&name, |n| star.is_reserved(n));
                            let source = Source::Field(Field::Tag(name.to_string()));
                            if key(&column, out)? {
                                let value = json_cell(&source, &[Some(tag.value_text())]);
                                serde_json::to_writer(&mut *out, &value)?;
                            }
                        }
                    }
                }
            }
            out.extend_from_slice(b"}\n");
        }
    }
    Ok(())
}

/// A cell as text: its value, or both sides' (`player`, `elo`) joined by
/// `;`, each in its place (`;2000` when only Black's is there); empty when
/// there is none.
fn joined<'c>(cell: &'c [Option<Cow<'_, str>>]) -> Cow<'c, str> {
    match cell {
        [] => Cow::Borrowed(""),
        [one] => Cow::Borrowed(one.as_deref().unwrap_or("")),
        _ if cell.iter().all(Option::is_none) => Cow::Borrowed(""),
        _ => Cow::Owned(
            cell.iter()
                .map(|value| value.as_deref().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(";"),
        ),
    }
}

/// A cell as a typed JSON value (the schema is in `docs/filter.md`): `game`
/// and number fields as numbers, `valid` as a boolean, `player` and `elo`
/// as `[white, black]`, a missing value as `null`.
fn json_cell(source: &Source, cell: &[Option<Cow<'_, str>>]) -> serde_json::Value {
    use serde_json::Value;
    let field = match source {
        Source::Field(field) => Some(field),
        _ => None,
    };
    let number = match source {
        Source::Game | Source::Number => true,
        Source::Field(field) => field.field_type() == FieldType::Number,
        Source::File | Source::AllTags | Source::Tag(_) => false,
    };
    let value = |text: &Option<Cow<'_, str>>| -> Value {
        match (text, field) {
            (None, _) => Value::Null,
            (Some(text), Some(Field::Valid)) => Value::Bool(text == "valid"),
            (Some(text), Some(field)) if number && field.is_fractional() => json_decimal(text),
            (Some(text), _) if number => integer(text)
                .map(Value::from)
                .or_else(|| filter::number(text).map(Value::from))
                .unwrap_or_else(|| Value::String(text.to_string())),
            (Some(text), _) => Value::String(text.to_string()),
        }
    };
    match (field, cell) {
        (Some(Field::Player | Field::Elo), _) => Value::Array(cell.iter().map(value).collect()),
        (_, [one]) => value(one),
        (_, _) => Value::Null,
    }
}

/// A clock or evaluation field's value: a JSON number when the text is a
/// decimal written plainly (as pgnkit writes them), else the text.
fn json_decimal(text: &str) -> serde_json::Value {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x.to_string() == text => x.into(),
        _ => serde_json::Value::String(text.to_string()),
    }
}
