//! `pgnkit filter`: write the games that match an expression, unchanged.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::{Facts, Filter, Line, ParseFilterError, PositionTest};
use pgnkit::opening::{Classifier, Openings};
use pgnkit::pgn::{ParseOptions, RawGame, WriteOptions, parse_game_with, write_game};
use pgnkit::replay::{MainlinePly, ReplayOptions, Replayer};
use pgnkit::timeline::Timeline;

use super::Exit;
use super::args::{Common, Inputs, PGN_FILES, Run, WORKERS};
use super::message;
use super::output::{Output, gap_after, last_mark};
use super::report::Done;
use super::run::{Writer, execute};

/// Write the games that match an expression, byte for byte as in the input.
///
/// Matching games are written unchanged (with the blank lines and anything
/// else up to the next game) and in input order, so a filter matching
/// everything reproduces its input, and `filter` and `filter --invert`
/// split it exactly. Tag-only expressions read just the tags; board
/// fields and positions replay the mainline.
///
/// Expression language (-e):
///   FIELD OP VALUE or FIELD OP FIELD with  =  !=  <  <=  >  >=,  ~ TEXT
///   (case-insensitive substring),  =~ /regex/  or  =~ /regex/i,  !~ /regex/,
///   in LOW..HIGH (inclusive). Values: a word (Carlsen, 2400, B20, 2020.06)
///   or a "quoted string" (\" and \\ escape).
///   Every field has a type, and a value or field of another type is an
///   error: numbers (WhiteElo, BlackElo, WhiteDays, BlackDays, PlyCount,
///   elo, plies, moves, TimeControl.base/.increment/.moves), dates (Date,
///   EventDate, UTCDate, any *Date tag), text (White, Black, Event, Site,
///   ECO, eco, opening, player, …), Result (1-0 0-1 1/2-1/2 *), TimeControl (= and
///   != only: TimeControl = 300+2), winner (white, black, draw, none; from
///   Result) and status (= and != only). Unlisted tags (Round, WhitemyELO,
///   mySchachNr) compare as numbers when both sides are numbers, else text.
///   ~ =~ !~ search the text of tags, player, elo, eco and opening only.
///   Names: a lower-case name is a pseudo-field, a name with a capital a
///   tag; one that differs from a known field only in case (white, Elo) or
///   by one letter (WhitElo) is an error naming the field meant; tag:Name
///   is the tag Name, spelt exactly so.
///   A bare word on the right that names a known field of a comparable
///   type is that field: WhiteElo > BlackElo, Date < EventDate; quote it to
///   compare with the text ("Black").
///   Dates compare with dates, months and years as day ranges and hold only
///   if they hold for every day the date allows: Date >= 2020 is from
///   2020.01.01, Date < 2020 before it, Date = 2019 any day of 2019,
///   Date >= 2020.06 from June; 2020.??.?? >= 2020.01.01, but ????.??.?? is
///   neither before nor after anything.
///   A missing tag, or a value not of its field's type (WhiteElo "?"),
///   makes every comparison on it false (!= too).
///   TimeControl.base, .increment, .moves: the first period of the
///   TimeControl tag (40/7200:3600, 300+2, *60, 10/2592000, FIDE's
///   40/5400+30:1800+30; - and ? have none).
///   Pseudo-fields: player (White or Black), elo (WhiteElo or BlackElo),
///   winner; from the board: eco and opening (ECO code and name of the
///   opening the mainline reaches, by the lichess opening table; the tags
///   as written are ECO and Opening), plies, moves, valid, status
///   (checkmate, stalemate, insufficient_material, threefold_repetition,
///   fivefold_repetition, fifty_moves, seventyfive_moves, unfinished,
///   incomplete = mainline not playable to its end, unsupported = a variant
///   not played; or mate, insufficient,
///   repetition, threefold, fivefold, fifty, seventyfive).
///   Clocks and evaluations, from the mainline's [%clk], [%emt] and [%eval]
///   comments (numbers; seconds and pawns): clock.white, clock.black (after
///   the side's last move), clock.white.N (after its move number N), used.white
///   (time its moves took: [%emt], else the clocks with TimeControl's
///   increment), used.white.max (its longest move), drop.white (its largest
///   evaluation drop in one move; a mate counts as 100), the same for
///   black, eval (the last evaluation), clocks, evals (plies with them).
///   Positions (some mainline position, the start included):
///   reaches "FEN" (placement and side to move; the side may be left out),
///   material KQ vs KR (exactly these pieces, White's first);
///   material "PATTERN" as pgn-extract -z reads a line: [HALF-MOVES]
///   PIECES PIECES, either side first, K optional, L a minor piece; after
///   a letter * any, + one or more, d, d+, d-, or against the other side
///   = # > < d> d< >= <= d>= d<=; a letter left out is absent; the material
///   lasts HALF-MOVES (2) moves: material "rp nb", "10 r2p+ r=p*".
///   Combine with and, or, not and parentheses; true matches everything.
///
/// Exit status: 0 some game matched, 1 none matched, 2 usage or I/O error
/// (a mistake in the expression is reported with its column). With
/// --shard, a shard's own: one run's is 0 when any shard's is 0 and none
/// is 2.
#[derive(Debug, Args)]
#[command(
    verbatim_doc_comment,
    after_help = "Examples:
  pgnkit filter -e 'WhiteDays < 5' games.pgn
  pgnkit filter -e 'eco in B20..B99 and winner = black and elo >= 2400 and Date >= 2020' games.pgn
  pgnkit filter -e 'WhiteElo < BlackElo and winner = white' games.pgn
  pgnkit filter -e 'opening ~ sicilian and eco in B80..B99' games.pgn
  pgnkit filter -e 'status = stalemate' --count games.pgn
  pgnkit filter -e 'drop.white > 3 or clock.black.40 < 10' games.pgn
  pgnkit filter -e 'material \"q*r+l*p+ q=r1<=l2>=p1<\"' games.pgn
  pgnkit filter -e 'reaches \"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w\"' games.pgn
  pgnkit filter --player Carlsen --result 1-0 --min-plies 60 games.pgn
  pgnkit filter -e 'plies > 40' --shard 2/2 games.pgn > long-2.pgn
  pgnkit filter --games 2..3,5 games.pgn
  pgnkit filter --result 1/2-1/2 --limit 1 --append draws.pgn games.pgn
  pgnkit filter --lenient -e 'plies > 40' games.pgn",
    mut_arg("files", |a| a.help(PGN_FILES)),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet for replayed games")),
)]
pub struct FilterArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// The expression (see above); the flags below are joined to it with `and`.
    #[arg(short, long, value_name = "EXPR")]
    expr: Option<String>,
    /// White or Black contains TEXT (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    player: Option<String>,
    /// The Result tag is RESULT (1-0, 0-1, 1/2-1/2, *).
    #[arg(long)]
    result: Option<String>,
    /// The ECO code of the opening found on the board is CODE, or in
    /// LOW..HIGH (B20..B99).
    #[arg(long, value_name = "CODE")]
    eco: Option<String>,
    /// At least N mainline plies.
    #[arg(long, value_name = "N")]
    min_plies: Option<u32>,
    /// How the game ended on the board (checkmate, stalemate, …).
    #[arg(long)]
    status: Option<String>,
    /// Write the games that do not match.
    #[arg(short = 'v', long)]
    invert: bool,
    /// Print only the number of matching games.
    #[arg(short, long)]
    count: bool,
    /// Stop after N matching games.
    #[arg(long, visible_alias = "limit", value_name = "N")]
    first: Option<u64>,
    /// Only the games with these numbers in their input: numbers and
    /// ranges, inclusive, e.g. 5..10,20,100.. (open at the end).
    #[arg(long, value_name = "RANGES")]
    games: Option<String>,
    /// Add the games to the end of FILE (created if missing) instead of
    /// writing them to standard output or -o.
    #[arg(short, long, value_name = "FILE", conflicts_with = "output")]
    append: Option<PathBuf>,
    /// Write matching games in export format (UTF-8) instead of unchanged.
    #[arg(long)]
    normalize: bool,
    #[command(flatten)]
    common: Common,
}

/// A string as a quoted literal of the language.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The expression and the flags, joined with `and`.
fn expression(args: &FilterArgs) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(expr) = &args.expr {
        parts.push(format!("({expr})"));
    }
    if let Some(player) = &args.player {
        parts.push(format!("player ~ {}", quote(player)));
    }
    if let Some(result) = &args.result {
        parts.push(format!("Result = {}", quote(result)));
    }
    if let Some(eco) = &args.eco {
        if eco.contains("..") {
            parts.push(format!("eco in {}", quote(eco)));
        } else {
            parts.push(format!("eco = {}", quote(eco)));
        }
    }
    if let Some(n) = args.min_plies {
        parts.push(format!("plies >= {n}"));
    }
    if let Some(status) = &args.status {
        parts.push(format!("status = {}", quote(status)));
    }
    if parts.is_empty() {
        return "true".to_string();
    }
    parts.join(" and ")
}

/// The expression with a caret under the mistake.
fn explain(text: &str, err: &ParseFilterError) -> String {
    format!(
        "pgnkit: filter expression, {err}\n  {text}\n  {}^",
        " ".repeat(err.column - 1)
    )
}

/// A parsed expression and what matching it needs.
pub struct Matcher {
    filter: Filter,
    options: ReplayOptions,
    needs_line: bool,
}

impl Matcher {
    /// The matcher of `text`, an expression the user wrote, and of the
    /// flags joined to it (`full`); a mistake is reported on standard error
    /// with a caret under it, and is `None`.
    pub fn parse(text: Option<&str>, full: &str, options: ReplayOptions) -> Option<Matcher> {
        // The user's own expression first, so a mistake's column is its own.
        for text in text.into_iter().chain([full]) {
            if let Err(err) = Filter::parse(text) {
                message!("{}", explain(text, &err));
                return None;
            }
        }
        let filter = Filter::parse(full).ok()?;
        let needs_line = filter.positions().iter().any(PositionTest::needs_line);
        Some(Matcher {
            filter,
            options,
            needs_line,
        })
    }

    /// Whether `raw` matches, replaying it on `replayer` if it must.
    pub fn matches(&self, replayer: &mut Replayer, raw: &RawGame<'_>) -> bool {
        let mut facts = Facts::new(raw.bytes);
        let timeline = self.filter.needs_timeline().then(|| Timeline::read(raw));
        facts.timeline = timeline.as_ref();
        let replay;
        if self.filter.needs_replay() {
            let positions = self.filter.positions();
            let mut hits = vec![false; positions.len()];
            let mut line = Line::default();
            let mut classifier = self.filter.needs_opening().then(Classifier::new);
            let mut visit = |ply: MainlinePly<'_>| {
                if self.needs_line {
                    line.push(ply.position);
                }
                if let Some(classifier) = &mut classifier {
                    classifier.push(ply.ply, ply.position);
                }
                line.test(positions, ply.position, &mut hits);
            };
            replay = replayer.replay_with(raw, &self.options, &mut visit);
            facts.replay = Some(&replay);
            facts.hits = hits;
            facts.opening = classifier.and_then(|c| c.opening());
        }
        self.filter.matches(&facts)
    }
}

/// Runs `pgnkit filter`.
pub fn run(args: &FilterArgs) -> anyhow::Result<Exit> {
    let options = ReplayOptions {
        letters: args.common.lang.policy(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    let Some(matcher) = Matcher::parse(args.expr.as_deref(), &expression(args), options) else {
        return Ok(Exit::Usage);
    };
    if matcher.filter.needs_opening() {
        // Built before the workers start, on every thread.
        Openings::get();
    }
    let games = match args.games.as_deref().map(Ranges::parse).transpose() {
        Ok(games) => games,
        Err(err) => {
            message!(
                "pgnkit: --games {}: {err}",
                args.games.as_deref().unwrap_or("")
            );
            return Ok(Exit::Usage);
        }
    };
    let mut out = match &args.append {
        Some(path) => Output::append(path, &args.inputs.files)?,
        None => Output::open(args.common.output.path(), &args.inputs.files)?,
    };
    let parse = ParseOptions {
        lenient: args.inputs.lenient,
        ..ParseOptions::default()
    };
    let inputs = args.inputs.files.len().max(1);
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done| {
        done.stats.games += 1;
        let matched = match item.game {
            Err(err) => {
                super::report::skipped(item, err, done);
                false
            }
            Ok(raw) => {
                games.as_ref().is_none_or(|g| g.contains(raw.number))
                    && matcher.matches(replayer, &raw)
            }
        };
        if matched == args.invert {
            return;
        }
        if !args.count {
            let start = done.stdout.len();
            match (item.game, args.normalize) {
                (Ok(raw), true) => {
                    let game = parse_game_with(&raw, &parse);
                    let _ = write_game(&game, &mut done.stdout, &WriteOptions::default());
                }
                _ => done.stdout.extend_from_slice(item.record),
            }
            // The last game of an input that ends without a line break is
            // kept apart from the games of the inputs after it by a blank
            // line after it: written with the game, so that every shard
            // writes it alike, whichever shard writes the next game.
            if item.input + 1 < inputs {
                let record = done.stdout.get(start..).unwrap_or_default();
                done.stdout
                    .extend_from_slice(gap_after(last_mark(record, b'\n')));
            }
        }
        done.ends.push(done.stdout.len());
    };
    let mut run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress).records();
    if args.first == Some(0) {
        // Nothing to write: no input is read.
        run.paths.clear();
    }
    let mut writer = Writer::new(&mut out, &run).limit(args.first);
    execute(&run, &mut writer, PooledReplayer::take, game)?;
    let (written, io_error) = (writer.written, writer.io_error);
    if args.count {
        writeln!(out, "{}", written)?;
    }
    // No game matched: status 1, as grep's.
    out.close(Exit::of(io_error, u64::from(written == 0)))
}

/// Game numbers: single numbers and inclusive ranges (`5..10,20,100..`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranges(Vec<(u64, u64)>);

impl Ranges {
    /// Reads `5..10,20,100..`.
    ///
    /// # Errors
    /// A part that is neither a number nor a range of numbers, or a range
    /// that ends before it starts.
    pub fn parse(text: &str) -> Result<Ranges, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{}` is not a game number", t.trim()))
        };
        let mut ranges = Vec::new();
        for part in text.split(',') {
            let (low, high) = match part.split_once("..") {
                Some((low, "")) => (number(low)?, u64::MAX),
                Some((low, high)) => (number(low)?, number(high)?),
                None => (number(part)?, number(part)?),
            };
            if low > high {
                return Err(format!("`{}` ends before it starts", part.trim()));
            }
            ranges.push((low, high));
        }
        Ok(Ranges(ranges))
    }

    /// Whether `n` is in one of the ranges.
    pub fn contains(&self, n: u64) -> bool {
        self.0.iter().any(|&(low, high)| (low..=high).contains(&n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_numbers_and_inclusive_ranges() {
        let ranges = Ranges::parse("5..7,20, 30..").unwrap();
        let hits: Vec<u64> = (0..40).filter(|&n| ranges.contains(n)).collect();
        assert_eq!(hits, [5, 6, 7, 20, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
        for bad in ["", "x", "3..1", "1,,2", "-1", "1..2..3"] {
            assert!(Ranges::parse(bad).is_err(), "{bad}");
        }
    }
}
