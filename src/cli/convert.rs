//! `pgnkit convert`: games rewritten in another move notation.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use pgnkit::convert::{
    AddedTags, Converter, MAX_TREE_MOVES, PgnOptions, PlayError, PlayErrorKind, Required,
    ResultFix, check_tree_budget, play_game, result_fix,
};
use pgnkit::engine::{Item, PooledReplayer, display_name};
use pgnkit::opening::{Classifier, Openings, set_opening_tags};
use pgnkit::pgn::{
    LineIndex, Outcome, ParseOptions, ParsePgnErrorKind, RawGame, Span, TagSelection, WriteOptions,
    parse_game_with,
};
use pgnkit::replay::{DiagnosticKind, MainlinePly, Replay, ReplayOptions, Severity};
use pgnkit::{Alphabet, LetterPolicy, LongForm, Position, Style, encoding, replay::Status};

use super::Exit;
use super::args::{Colour, Inputs, Jobs, OutputFile, Run, ShowProgress};
use super::json;
use super::message;
use super::output::Output;
use super::report::{Context, Done, game_of, write_errors, write_game_warning};
use super::run::{Writer, execute};

/// Rewrite games with their moves in another notation, as PGN in export
/// format, as JSON lines, or as Parquet.
///
/// Every game is replayed first; a game with an error is reported on
/// standard error (as `pgnkit validate` does) and not written (with
/// --keep-invalid: written as read, in UTF-8). Moves of variations
/// are converted too; comments, NAGs and variations are kept unless
/// --no-comments, --no-nags, --no-variations. Check and mate marks are
/// computed from the board, never copied. The output is UTF-8: tag values
/// and comments read as Windows-1252 are decoded.
///
/// Exit status: 0 every game converted, 1 some game was not, 2 usage or
/// I/O error.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit convert --to uci --no-tags games.pgn
  pgnkit convert --to de-lan -o deutsch.pgn games.pgn
  pgnkit convert --to lan games.pgn | pgnkit convert --from lan --to san
  pgnkit convert --to json games.pgn > games.jsonl
  pgnkit convert --to json --shard 3/8 games.pgn > games-3.jsonl
  pgnkit convert --eco games.pgn > named.pgn
  pgnkit convert --to parquet --eco -o games.parquet games.pgn
  pgnkit convert --lenient -o salvaged.pgn games.pgn
  pgnkit convert --fix-result games.pgn
  pgnkit convert --to uci --bare games.pgn
  pgnkit convert --no-move-numbers --no-result --no-check-marks games.pgn
  pgnkit convert --to xlalg --no-tags games.pgn
  pgnkit convert --add-tags plycount,hash,fen games.pgn
  pgnkit convert --letters PCATDR --no-tags games.pgn
  pgnkit convert --fen-comments --no-tags games.pgn")]
pub struct ConvertArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// Notation to write: san (`Nf3`), lan (`Ng1-f3`), uci (`g1f3`), de
    /// (`Sf3`), de-lan (`Sg1-f3`), figurine (`♘f3`); pgn-extract's long
    /// algebraic forms lalg (`g1f3`), halg (`g1-f3`), elalg (`Ng1f3`),
    /// xlalg (`Ng1-f3`, castling `e1-g1`, see docs/convert.md); json (one object
    /// per game and line, moves in SAN and UCI), or parquet (needs -o FILE;
    /// one row per game: typed tags, result, plies, status, SAN, UCI,
    /// clocks and evaluations as lists; see docs/parquet.md).
    #[arg(long, value_enum, default_value_t)]
    to: To,
    /// Notation to read: auto (each move as the reader classifies it:
    /// SAN, long algebraic, UCI, English or German letters, figurines), or
    /// one notation that every move must be written in (a move written
    /// otherwise is an error of its game): san, lan (with or without piece
    /// letters: `Ng1-f3`, `g1-f3`), uci, de (SAN with German letters; B is
    /// a pawn), de-lan (long algebraic with German letters), figurine (SAN
    /// with figurines `♘f3`); or json (the JSON lines --to json writes,
    /// read back as games). Every --to output reads back with auto; san,
    /// lan, uci, de, de-lan, figurine and json with the --from of the same
    /// name too.
    #[arg(long, value_enum, default_value_t)]
    from: From,
    /// Give pawns a letter too (`Pe2-e4`, German `Be2-e4`, figurine `♙e4`);
    /// not with --to uci, lalg or halg, which write no piece letters.
    #[arg(long)]
    pawn_letter: bool,
    /// Append ` e.p.` to en-passant captures (elalg's own mark is `ep`;
    /// not with --to uci).
    #[arg(long)]
    ep_mark: bool,
    /// Leave out comments.
    #[arg(long)]
    no_comments: bool,
    /// Leave out variations.
    #[arg(long)]
    no_variations: bool,
    /// Leave out NAGs and draw offers.
    #[arg(long)]
    no_nags: bool,
    /// Leave out the tag pairs (movetext only).
    #[arg(long)]
    no_tags: bool,
    /// Maximum line length of the movetext.
    #[arg(long, value_name = "N", default_value_t = 80)]
    width: usize,
    /// Leave out move numbers (`1.`, `1...`).
    #[arg(long)]
    no_move_numbers: bool,
    /// Leave out the termination marker after the moves (the Result tag
    /// stays).
    #[arg(long)]
    no_result: bool,
    /// Leave out check and mate marks (`+`, `#`).
    #[arg(long)]
    no_check_marks: bool,
    /// Moves only, one game per line, for engines: no tags, move numbers,
    /// result, check marks, comments, NAGs or variations (with --to uci,
    /// what follows `position startpos moves`).
    #[arg(long)]
    bare: bool,
    /// Write piece letters of any language: six upper-case letters in the
    /// order pawn, knight, bishop, rook, queen, king (pgn-extract's
    /// `-Wsan` order, English `PNBRQK`, German `BSLTDK`); the pawn's
    /// letter shows with --pawn-letter. For SAN and long algebraic output.
    #[arg(long, value_name = "PNBRQK", value_parser = parse_letters)]
    letters: Option<Alphabet>,
    /// Correct the Result tag and the termination marker: to the result the
    /// board imposes (checkmate, stalemate, dead position, fivefold
    /// repetition, 75-move rule), else to the termination marker's. Each
    /// change is a warning on standard error; a game whose only errors
    /// are such results is written, corrected.
    #[arg(long)]
    fix_result: bool,
    /// Add tags (comma-separated): plycount (`PlyCount`), hash
    /// (`FinalHash`, the final position's 64-bit Zobrist key in hex), fen
    /// (`FinalFEN`, the final position). Each replaces a tag of its name.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "TAG,...")]
    add_tags: Vec<AddTag>,
    /// A comment with the FEN after every move (as pgn-extract
    /// --fencomments).
    #[arg(long)]
    fen_comments: bool,
    /// With --to json: the FEN after every move too.
    #[arg(long)]
    fens: bool,
    /// With --to json or parquet: a `file` field after `game`, the name of
    /// the game's input as messages show it (`<stdin>` for standard
    /// input), so that games of several inputs can be told apart.
    #[arg(long)]
    with_file: bool,
    /// Write games with errors unchanged instead of leaving them out (they
    /// are still reported and still set exit status 1).
    #[arg(long)]
    keep_invalid: bool,
    /// Add or correct the ECO and Opening tags: the opening the mainline
    /// reaches, by the lichess opening table (transpositions included, the
    /// deepest known position wins; see docs/openings.md). A game that
    /// reaches no known position keeps its tags.
    #[arg(long)]
    eco: bool,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    progress: ShowProgress,
    #[command(flatten)]
    output: OutputFile,
    #[command(flatten)]
    color: Colour,
}

/// A tag `--add-tags` adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AddTag {
    /// `PlyCount`: the plies of the mainline.
    Plycount,
    /// `FinalHash`: the final position's Zobrist key, 16 hex digits.
    Hash,
    /// `FinalFEN`: the final position.
    Fen,
}

/// Reads `--letters`.
fn parse_letters(text: &str) -> Result<Alphabet, String> {
    Alphabet::letters(text).map_err(|e| e.to_string())
}

/// The output notation (`--to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum To {
    /// Standard algebraic notation.
    #[default]
    San,
    /// Long algebraic notation.
    Lan,
    /// UCI.
    Uci,
    /// SAN with German letters.
    De,
    /// Long algebraic with German letters.
    DeLan,
    /// SAN with figurines.
    Figurine,
    /// Long algebraic, no piece letters, no separator (pgn-extract -Wlalg).
    Lalg,
    /// Long algebraic, no piece letters, hyphenated (pgn-extract -Whalg).
    Halg,
    /// Long algebraic, piece letters, no separator (pgn-extract -Welalg).
    Elalg,
    /// Long algebraic, piece letters, `-` or `x`, castling as the king's
    /// move (pgn-extract -Wxlalg).
    Xlalg,
    /// One JSON object per game and line (see docs/convert.md).
    Json,
    /// Parquet, one row per game (needs -o FILE; see docs/parquet.md).
    Parquet,
}

/// The input notation (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum From {
    /// Any notation, move by move; letters English unless the game's
    /// letters show German.
    #[default]
    Auto,
    /// SAN, English letters.
    San,
    /// Long algebraic.
    Lan,
    /// UCI.
    Uci,
    /// SAN, German letters.
    De,
    /// Long algebraic, German letters.
    DeLan,
    /// SAN with figurines.
    Figurine,
    /// JSON lines as `--to json` writes them (one game object per line).
    Json,
}

impl From {
    fn letters(self) -> LetterPolicy {
        match self {
            From::Auto | From::Lan | From::Uci => LetterPolicy::Auto,
            From::San | From::Figurine | From::Json => LetterPolicy::English,
            From::De | From::DeLan => LetterPolicy::German,
        }
    }

    fn required(self) -> Option<Required> {
        match self {
            From::Auto => None,
            From::San | From::De | From::Figurine | From::Json => Some(Required::San),
            From::Lan | From::DeLan => Some(Required::Long),
            From::Uci => Some(Required::Uci),
        }
    }
}

/// Runs `pgnkit convert`.
pub fn run(args: &ConvertArgs) -> anyhow::Result<Exit> {
    let colour = args.color.stderr();
    if args.eco {
        // Built before the workers start, on every thread.
        Openings::get();
    }
    let style = match args.to {
        To::San => Style::SAN,
        To::Lan => Style::LAN,
        To::Uci => Style::UCI,
        To::De => Style::DE,
        To::DeLan => Style::DE_LAN,
        To::Figurine => Style::FIGURINE,
        To::Lalg => Style::LAN.with_long_form(LongForm::Lalg),
        To::Halg => Style::LAN.with_long_form(LongForm::Halg),
        To::Elalg => Style::LAN.with_long_form(LongForm::Elalg),
        To::Xlalg => Style::LAN.with_long_form(LongForm::Xlalg),
        To::Json | To::Parquet => Style::SAN,
    }
    .with_pawn_letter(args.pawn_letter)
    .with_ep_mark(args.ep_mark)
    .with_check_marks(!(args.no_check_marks || args.bare));
    // Letter options on a notation without letters would be dropped
    // silently; figurines are the letters of `--to figurine`.
    let letterless = match args.to {
        To::Uci => Some("uci"),
        To::Lalg => Some("lalg"),
        To::Halg => Some("halg"),
        _ => None,
    };
    if let Some(to) = letterless {
        anyhow::ensure!(
            args.letters.is_none() && !args.pawn_letter,
            "--to {to} writes no piece letters: --letters and --pawn-letter do not apply"
        );
    }
    anyhow::ensure!(
        !(args.ep_mark && args.to == To::Uci),
        "--to uci writes no en-passant mark: --ep-mark does not apply"
    );
    let style = match args.letters {
        Some(letters) => {
            anyhow::ensure!(
                !matches!(args.to, To::Figurine | To::Json | To::Parquet),
                "--letters is for SAN and long algebraic with letters, not --to figurine, json or parquet"
            );
            style.with_alphabet(letters)
        }
        None => style,
    };
    if matches!(args.to, To::Json | To::Parquet) {
        // Options that shape PGN text: JSON and Parquet have fields of their
        // own (every tag, comment, NAG and variation; SAN and UCI moves).
        let pgn_only = [
            ("--bare", args.bare),
            ("--no-move-numbers", args.no_move_numbers),
            ("--no-result", args.no_result),
            ("--no-check-marks", args.no_check_marks),
            ("--no-tags", args.no_tags),
            ("--no-comments", args.no_comments),
            ("--no-nags", args.no_nags),
            ("--no-variations", args.no_variations),
            ("--pawn-letter", args.pawn_letter),
            ("--ep-mark", args.ep_mark),
            ("--fix-result", args.fix_result),
            ("--add-tags", !args.add_tags.is_empty()),
            ("--fen-comments", args.fen_comments),
            ("--keep-invalid", args.keep_invalid),
        ];
        let given: Vec<&str> = pgn_only
            .iter()
            .filter(|(_, given)| *given)
            .map(|(name, _)| *name)
            .collect();
        anyhow::ensure!(
            given.is_empty(),
            "{} shape{} PGN output, not --to json or parquet",
            given.join(", "),
            if given.len() == 1 { "s" } else { "" }
        );
    }
    let write_options = WriteOptions {
        width: if args.bare { usize::MAX } else { args.width },
        tags: if args.no_tags || args.bare {
            TagSelection::None
        } else {
            TagSelection::All
        },
        comments: !(args.no_comments || args.bare),
        variations: !(args.no_variations || args.bare),
        nags: !(args.no_nags || args.bare),
        move_numbers: !(args.no_move_numbers || args.bare),
        result: !(args.no_result || args.bare),
        blank_line: !args.bare,
    };
    let pgn_options = PgnOptions {
        style,
        write: write_options,
        letters: args.from.letters(),
        required: args.from.required(),
        openings: args.eco,
        lenient: args.inputs.lenient,
        fix_result: args.fix_result,
        added: AddedTags {
            ply_count: args.add_tags.contains(&AddTag::Plycount),
            hash: args.add_tags.contains(&AddTag::Hash),
            final_fen: args.add_tags.contains(&AddTag::Fen),
        },
        fen_comments: args.fen_comments,
    };
    let options = ReplayOptions {
        letters: args.from.letters(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    anyhow::ensure!(
        args.from != From::Json || args.inputs.shard.is_none(),
        "--shard reads PGN, not --from json lines"
    );
    anyhow::ensure!(
        !args.with_file || matches!(args.to, To::Json | To::Parquet),
        "--with-file adds a field to --to json or parquet; PGN output has no such field"
    );
    if args.to == To::Parquet {
        anyhow::ensure!(
            args.from != From::Json,
            "--to parquet reads PGN, not --from json"
        );
        check_parquet(args.output.path(), args.with_file)?;
    }
    let mut out = Output::open(args.output.path(), &args.inputs.files)?;
    if args.from == From::Json {
        let errors = from_json(args, &pgn_options, &options, &mut out)?;
        return out.close(if errors { Exit::Errors } else { Exit::Ok });
    }
    let parse = ParseOptions {
        lenient: args.inputs.lenient,
        ..ParseOptions::default()
    };
    let game = |(replayer, converter): &mut (PooledReplayer, Converter),
                item: &Item<'_>,
                done: &mut Done<Rows>| {
        let ctx = Context::text(item.name, colour);
        let Some(raw) = game_of(&ctx, item, done) else {
            return;
        };
        let source = raw.bytes;
        let (replay, converted) = if matches!(args.to, To::Json | To::Parquet) {
            let mut start: Option<Position> = None;
            let mut classifier = args.eco.then(Classifier::new);
            let mut on_ply = |p: MainlinePly<'_>| {
                if p.ply == 0 {
                    start = Some(*p.position);
                }
                if let Some(classifier) = &mut classifier {
                    classifier.push(p.ply, p.position);
                }
            };
            let replay = replayer.replay_with(&raw, &options, &mut on_ply);
            let opening = classifier.and_then(|c| c.opening());
            let converted = match (replay.status, &start) {
                (Status::Valid, Some(start)) => {
                    Some(check_tree_budget(&raw, MAX_TREE_MOVES).and_then(|()| {
                        let mut game = parse_game_with(&raw, &parse);
                        if let Some(found) = opening {
                            set_opening_tags(&mut game.tags, found);
                        }
                        play_game(&game, start, args.from.letters(), args.from.required()).map(
                            |line| {
                                if args.to == To::Parquet {
                                    parquet_row(
                                        &mut done.extra,
                                        args.with_file.then_some(item.name),
                                        &raw,
                                        &game,
                                        &line,
                                        &replay,
                                        start,
                                    );
                                    return;
                                }
                                let value = json::game(
                                    raw.number,
                                    args.with_file.then_some(item.name),
                                    &game,
                                    &line,
                                    &replay,
                                    start,
                                    args.fens,
                                );
                                let _ = serde_json::to_writer(&mut done.stdout, &value);
                                done.stdout.push(b'\n');
                            },
                        )
                    }))
                }
                _ => None,
            };
            (replay, converted)
        } else {
            let c = converter.convert(replayer, &raw, &pgn_options, &mut done.stdout);
            if args.fix_result && matches!(c.written, Some(Ok(()))) {
                report_fix(&ctx, &raw, &c.replay, done);
            }
            (c.replay, c.written)
        };
        let mut errored = converted.is_none();
        if errored {
            write_errors(&ctx, &raw, &replay, done);
        }
        if let Some(Err(err)) = converted {
            play_error(&ctx, &raw, &err, done);
            errored = true;
        }
        if errored && args.keep_invalid {
            write_raw(source, &mut done.stdout);
        }
        done.stats.count(&replay, errored, false);
    };
    let run = Run::new(&args.inputs, &args.jobs, &args.progress);
    let init = || (PooledReplayer::take(), Converter::new());
    let (stats, io_error) = if args.to == To::Parquet {
        parquet_run(&run, &mut out, args.with_file, init, game)?
    } else {
        let mut writer = Writer::new(&mut out, &run);
        execute(&run, &mut writer, init, game)?;
        (writer.stats, writer.io_error)
    };
    out.close(Exit::of(io_error, stats.errors + stats.unsupported))
}

#[cfg(feature = "parquet")]
use super::parquet::Rows;

/// Without Parquet, the rows are nothing.
#[cfg(not(feature = "parquet"))]
type Rows = ();

/// The columns of `--to parquet`, in order (docs/parquet.md), with
/// `file` or without.
#[cfg(feature = "parquet")]
fn parquet_columns(file: bool) -> Vec<super::parquet::Spec> {
    use super::parquet::{Kind, Spec};
    let mut specs = vec![Spec::one("game", Kind::Int)];
    if file {
        specs.push(Spec::one("file", Kind::Text));
    }
    specs.extend(
        PARQUET_TAGS
            .iter()
            .map(|&(name, int)| Spec::one(name, if int { Kind::Int } else { Kind::Text })),
    );
    specs.extend([
        Spec::one("start", Kind::Text),
        Spec::one("result", Kind::Text),
        Spec::one("plies", Kind::Int),
        Spec::one("status", Kind::Text),
        Spec::list("san", Kind::Text),
        Spec::list("uci", Kind::Text),
        Spec::list("clock", Kind::Real),
        Spec::list("emt", Kind::Real),
        Spec::list("eval", Kind::Int),
        Spec::list("mate", Kind::Int),
    ]);
    specs
}

/// The columns of `--to parquet`, made once: without `file`, and with.
#[cfg(feature = "parquet")]
static PARQUET_COLUMNS: std::sync::LazyLock<[Vec<super::parquet::Spec>; 2]> =
    std::sync::LazyLock::new(|| [parquet_columns(false), parquet_columns(true)]);

/// The columns of `--to parquet`, with `file` or without.
#[cfg(feature = "parquet")]
fn columns(file: bool) -> &'static [super::parquet::Spec] {
    &PARQUET_COLUMNS[usize::from(file)]
}

/// The tags that `--to parquet` has a column for, and whether the column
/// holds integers (null when the tag's value is not one). The Result tag
/// has none: `result` is the game's termination marker, as in JSON.
#[cfg(feature = "parquet")]
const PARQUET_TAGS: [(&str, bool); 16] = [
    ("Event", false),
    ("Site", false),
    ("Date", false),
    ("Round", false),
    ("White", false),
    ("Black", false),
    ("WhiteElo", true),
    ("BlackElo", true),
    ("WhiteTitle", false),
    ("BlackTitle", false),
    ("ECO", false),
    ("Opening", false),
    ("TimeControl", false),
    ("Termination", false),
    ("UTCDate", false),
    ("UTCTime", false),
];

/// Refuses `--to parquet` without an output file.
#[cfg(feature = "parquet")]
fn check_parquet(path: Option<&std::path::Path>, file: bool) -> anyhow::Result<()> {
    super::parquet::check(path, columns(file), "--to")
}

#[cfg(not(feature = "parquet"))]
fn check_parquet(_: Option<&std::path::Path>, _: bool) -> anyhow::Result<()> {
    anyhow::bail!("--to parquet: this pgnkit was built without the `parquet` feature")
}

/// The row of one valid game.
#[cfg(feature = "parquet")]
fn parquet_row(
    rows: &mut Rows,
    file: Option<&str>,
    raw: &RawGame<'_>,
    game: &pgnkit::pgn::Game<'_>,
    line: &pgnkit::convert::PlayedLine<'_, '_>,
    replay: &pgnkit::replay::Replay,
    start: &Position,
) {
    use super::parquet::Value;
    use pgnkit::pgn::{Eval, unescape};
    use pgnkit::timeline::Timeline;

    let specs = columns(file.is_some());
    let timeline = Timeline::read(raw);
    let notes = |i: usize| timeline.plies.get(i).copied().unwrap_or_default();
    let tags: Vec<Option<String>> = PARQUET_TAGS
        .iter()
        .map(|(name, _)| {
            game.tag(name)
                .map(|t| encoding::decode(&unescape(t.value)).into_owned())
        })
        .collect();
    let fen = start.fen(pgnkit::EpMode::Always);
    let san: Vec<String> = line.moves.iter().map(|m| m.text(Style::SAN)).collect();
    let uci: Vec<String> = line.moves.iter().map(|m| m.text(Style::UCI)).collect();
    let plies = 0..line.moves.len();
    let seconds = |ms: Option<u64>| ms.map_or(Value::Null, |ms| Value::Real(json::seconds(ms)));
    let mut row = rows.row(specs);
    row.value(Value::Int(i64::try_from(raw.number).unwrap_or(i64::MAX)));
    if let Some(file) = file {
        row.value(Value::Text(file));
    }
    for ((_, int), tag) in PARQUET_TAGS.iter().zip(&tags) {
        row.value(match (tag, int) {
            (None, _) => Value::Null,
            (Some(text), true) => pgnkit::filter::integer(text).map_or(Value::Null, Value::Int),
            (Some(text), false) => Value::Text(text),
        });
    }
    row.value(Value::Text(&fen))
        .value(
            game.result
                .map_or(Value::Null, |r| Value::Text(r.outcome.as_str())),
        )
        .value(Value::Int(i64::from(replay.plies)))
        .value(Value::Text(replay.termination_name()))
        .list(Some(san.iter().map(|s| Value::Text(s))))
        .list(Some(uci.iter().map(|s| Value::Text(s))))
        .list(Some(plies.clone().map(|i| seconds(notes(i).clock))))
        .list(Some(plies.clone().map(|i| seconds(notes(i).emt))))
        .list(Some(plies.clone().map(|i| match notes(i).eval {
            Some(Eval::Centipawns(cp)) => Value::Int(i64::from(cp)),
            _ => Value::Null,
        })))
        .list(Some(plies.map(|i| match notes(i).eval {
            Some(Eval::Mate(n)) => Value::Int(i64::from(n)),
            _ => Value::Null,
        })));
}

#[cfg(not(feature = "parquet"))]
fn parquet_row(
    _: &mut Rows,
    _: Option<&str>,
    _: &RawGame<'_>,
    _: &pgnkit::pgn::Game<'_>,
    _: &pgnkit::convert::PlayedLine<'_, '_>,
    _: &pgnkit::replay::Replay,
    _: &Position,
) {
}

/// Runs the conversion into a Parquet file on `out`, one row group after
/// another; returns the totals and whether an input could not be read.
#[cfg(feature = "parquet")]
fn parquet_run<S, I, G>(
    run: &Run,
    out: &mut Output,
    with_file: bool,
    init: I,
    game: G,
) -> anyhow::Result<(super::report::Stats, bool)>
where
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut Done<Rows>) + Sync,
{
    let mut file = super::parquet::File::create(out, columns(with_file))?;
    let mut sink = std::io::sink();
    let mut batches = |rows: &mut Rows| file.write(rows, false);
    let mut writer = Writer::new(&mut sink, run).on_batch(&mut batches);
    execute(run, &mut writer, init, game)?;
    let (stats, io_error) = (writer.stats.clone(), writer.io_error);
    let rows = std::mem::take(&mut writer.extra);
    drop(writer);
    file.close(rows)?;
    Ok((stats, io_error))
}

#[cfg(not(feature = "parquet"))]
fn parquet_run<S, I, G>(
    _: &Run,
    _: &mut Output,
    _: bool,
    _: I,
    _: G,
) -> anyhow::Result<(super::report::Stats, bool)>
where
    I: Fn() -> S + Sync,
    G: Fn(&mut S, &Item<'_>, &mut Done<Rows>) + Sync,
{
    anyhow::bail!("--to parquet: this pgnkit was built without the `parquet` feature")
}

/// `--from json`: each line of the inputs is a game object as `--to json`
/// writes it; it is rebuilt as PGN, replayed and converted like a game
/// read from PGN, sequentially. A line that is not a game object, or a
/// game that is not valid, is reported (`path:line: error: …`) and
/// skipped. Returns whether any was.
fn from_json(
    args: &ConvertArgs,
    pgn_options: &PgnOptions,
    options: &ReplayOptions,
    out: &mut Output,
) -> anyhow::Result<bool> {
    let stdin = [PathBuf::from("-")];
    let files = if args.inputs.files.is_empty() {
        &stdin[..]
    } else {
        &args.inputs.files[..]
    };
    let mut errors = false;
    let mut replayer = pgnkit::replay::Replayer::new();
    let mut converter = Converter::new();
    let mut buf = Vec::new();
    let mut text = Vec::new();
    for file in files {
        let shown = display_name(file);
        let mut input = std::io::BufReader::new(super::open_input(file)?);
        let mut number = 0u64;
        for line_number in 1u64.. {
            text.clear();
            if std::io::BufRead::read_until(&mut input, b'\n', &mut text)? == 0 {
                break;
            }
            if text.trim_ascii().is_empty() {
                continue;
            }
            number += 1;
            let report = |message: &dyn std::fmt::Display| {
                message!("{shown}:{line_number}: error: game {number}: {message}");
            };
            let pgn = match serde_json::from_slice::<serde_json::Value>(&text)
                .map_err(anyhow::Error::from)
                .and_then(|v| json::pgn_of_game(&v))
            {
                Ok(pgn) => pgn,
                Err(err) => {
                    report(&format_args!("not a game object: {err}"));
                    errors = true;
                    continue;
                }
            };
            let raw = pgnkit::pgn::RawGame {
                number,
                ..pgnkit::pgn::RawGame::from_bytes(pgn.as_bytes())
            };
            buf.clear();
            let mut start = None;
            let (replay, converted) = if matches!(args.to, To::Json | To::Parquet) {
                let mut classifier = args.eco.then(Classifier::new);
                let replay = replayer.replay_with(&raw, options, &mut |p: MainlinePly<'_>| {
                    if p.ply == 0 {
                        start = Some(*p.position);
                    }
                    if let Some(classifier) = &mut classifier {
                        classifier.push(p.ply, p.position);
                    }
                });
                let opening = classifier.and_then(|c| c.opening());
                let converted = match (replay.status, start) {
                    (Status::Valid, Some(start)) => {
                        Some(check_tree_budget(&raw, MAX_TREE_MOVES).and_then(|()| {
                            let parse = ParseOptions {
                                lenient: pgn_options.lenient,
                                ..ParseOptions::default()
                            };
                            let mut game = parse_game_with(&raw, &parse);
                            if let Some(found) = opening {
                                set_opening_tags(&mut game.tags, found);
                            }
                            play_game(&game, &start, pgn_options.letters, pgn_options.required).map(
                                |line| {
                                    let value = json::game(
                                        number,
                                        args.with_file.then_some(shown.as_ref()),
                                        &game,
                                        &line,
                                        &replay,
                                        &start,
                                        args.fens,
                                    );
                                    let _ = serde_json::to_writer(&mut buf, &value);
                                    buf.push(b'\n');
                                },
                            )
                        }))
                    }
                    _ => None,
                };
                (replay, converted)
            } else {
                let c = converter.convert(&mut replayer, &raw, pgn_options, &mut buf);
                (c.replay, c.written)
            };
            let first_error = replay
                .diagnostics
                .iter()
                .find(|d| d.severity != Severity::Warning);
            let Some(converted) = converted else {
                match first_error {
                    Some(d) if d.span.end > d.span.start => report(&format_args!(
                        "{}: {}",
                        encoding::visible(d.span.slice(raw.bytes)),
                        d.message_in(raw.bytes)
                    )),
                    Some(d) => report(&format_args!("{}", d.message_in(raw.bytes))),
                    None => report(&"the game cannot be replayed"),
                }
                errors = true;
                continue;
            };
            match converted {
                Ok(()) => {
                    if let Some(fix) = result_fix(&replay).filter(|_| args.fix_result) {
                        message!(
                            "{shown}:{line_number}: warning: game {number}: {}",
                            fix_message(&fix)
                        );
                    }
                    out.write_all(&buf)?;
                }
                Err(err) => {
                    report(&format_args!(
                        "{}: {err}",
                        encoding::decode(err.span.slice(raw.bytes))
                    ));
                    errors = true;
                }
            }
        }
    }
    Ok(errors)
}

/// Reports the correction `--fix-result` made to a game's result, at its
/// result marker (or its Result tag, or its start).
fn report_fix<X>(ctx: &Context<'_>, raw: &RawGame<'_>, replay: &Replay, done: &mut Done<X>) {
    let Some(fix) = result_fix(replay) else {
        return;
    };
    let span = replay
        .diagnostics
        .iter()
        .find(|d| {
            matches!(
                d.kind,
                DiagnosticKind::ResultMismatch { .. }
                    | DiagnosticKind::ResultContradicts { .. }
                    | DiagnosticKind::UnknownResultOnFinishedBoard(_)
            )
        })
        .map_or_else(Span::default, |d| d.span);
    write_game_warning(ctx, raw, replay, span, &fix_message(&fix), done);
}

/// What `--fix-result` changed, and why.
fn fix_message(fix: &ResultFix) -> String {
    let shown = |o: Option<Outcome>| o.map_or("none", Outcome::as_str);
    let why = match fix.termination {
        Some(termination) => termination.to_string(),
        None => "the termination marker".to_string(),
    };
    format!(
        "result corrected: Result tag {}, marker {} -> {}: {why}",
        shown(fix.tag),
        shown(fix.marker),
        fix.result.as_str()
    )
}

/// A game written as read, then a blank line; in UTF-8 like every PGN
/// this command writes (a game read as Windows-1252 is decoded, a UTF-8
/// game keeps its bytes).
fn write_raw(source: &[u8], out: &mut Vec<u8>) {
    let text = encoding::decode(source.trim_ascii_end());
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(b"\n\n");
}

/// Reports a move the conversion could not read (e.g. one in another
/// notation than `--from`).
fn play_error<X>(ctx: &Context<'_>, raw: &RawGame<'_>, err: &PlayError, done: &mut Done<X>) {
    let source = raw.bytes;
    let (line, column) = LineIndex::of_game(raw).line_col(err.span);
    let token = err.span.slice(source);
    let text = encoding::visible(token);
    let message = match err.kind {
        PlayErrorKind::Parse(e) => ParsePgnErrorKind::BadMove(e).message(token),
        _ => err.to_string(),
    };
    let _ = writeln!(
        done.stderr,
        "{}:{line}:{column}: error: game {}, {text}: {message}",
        ctx.path, raw.number
    );
}
