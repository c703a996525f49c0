//! `pgnkit fen`: the position of each game's mainline at a chosen ply.

use std::collections::VecDeque;
use std::io::Write;

use clap::{Args, ValueEnum};
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::pgn::{Span, unescape};
use pgnkit::replay::{MainlinePly, ReplayOptions};
use pgnkit::{EpMode, encoding, replay::Status};

use super::Exit;
use super::args::{Colour, Inputs, Jobs, Letters, OutputFile, Run, ShowProgress};
use super::output::Output;
use super::report::{Context, Done, count, game_of, write_errors};
use super::run::{Writer, execute};

/// Print positions of each game's mainline as FEN (or EPD), one line per
/// position, in input order.
///
/// By default the final position; --ply N the position after N plies (0:
/// the start position; negative: counted back from the final position,
/// -1 is the final one); --move 12w|12b after White's or Black's 12th
/// move; --all every position, each line prefixed with the game number
/// and the ply (tab-separated).
///
/// A game with an error (illegal move, bad FEN tag, syntax error) is
/// reported on standard error, and a position is printed only when the
/// mainline reached it legally before the error (ply 10 of a game illegal
/// at ply 20 is printed; ply 25 is not; the final position is not). A game
/// shorter than the asked ply prints nothing and is reported (silently
/// skipped with --skip-short). Exit status: 0 every game valid and long
/// enough, 1 some game had errors or was too short, 2 usage or I/O error.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  pgnkit fen games.pgn
  pgnkit fen --ply 10 --with White,Black games.pgn
  pgnkit fen --move 5b --epd games.pgn
  pgnkit fen --all games.pgn | head -n 20
  pgnkit fen --epd --epd-ops id,c0,c1,hmvc,fmvn games.pgn
  pgnkit fen --shard 1/2 games.pgn > 1.fen && pgnkit fen --shard 2/2 games.pgn > 2.fen
  pgnkit fen --lenient games.pgn",
    mut_arg("lang", |a| a.help("Piece-letter alphabet: auto, en, de (B = Bauer)")),
)]
pub struct FenArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// The position after N plies (0: start; negative: from the end, -1:
    /// final).
    #[arg(long, value_name = "N", allow_hyphen_values = true, conflicts_with_all = ["moves", "all"])]
    ply: Option<i64>,
    /// The position after a move: `12w` (White's 12th) or `12b` (Black's).
    #[arg(long = "move", value_name = "NUMBER[w|b]", value_parser = parse_move_spec, conflicts_with = "all")]
    moves: Option<MoveSpec>,
    /// Every position of the mainline: `game<TAB>ply<TAB>fen`.
    #[arg(long)]
    all: bool,
    /// Skip games shorter than the asked ply without a message (they still
    /// do not change the exit status).
    #[arg(long)]
    skip_short: bool,
    /// Tag values to add as tab-separated columns after the FEN, e.g.
    /// `White,Black,Result` (a missing tag is an empty column).
    #[arg(long, value_name = "TAG,TAG…", value_delimiter = ',')]
    with: Vec<String>,
    /// Write EPD (the first four FEN fields) instead of FEN.
    #[arg(long)]
    epd: bool,
    /// EPD operations to append, in the order given (comma-separated):
    /// id (`id "GAME.PLY"`: the game's number and the ply), c0
    /// (`c0 "White-Black Event Site Date"`, as pgn-extract -Wepd), c1
    /// (`c1 "Result"`), hmvc and fmvn (the halfmove clock and fullmove
    /// number EPD leaves out of the position).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "OP,...",
        requires = "epd"
    )]
    epd_ops: Vec<EpdOp>,
    /// Which en-passant square to show: always (after every double step, as
    /// the PGN standard says) or legal (only when a capture is possible).
    #[arg(long, value_enum, default_value_t)]
    ep: Ep,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    progress: ShowProgress,
    #[command(flatten)]
    lang: Letters,
    #[command(flatten)]
    output: OutputFile,
    #[command(flatten)]
    color: Colour,
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

/// An EPD operation (`--epd-ops`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EpdOp {
    /// `id "GAME.PLY"`.
    Id,
    /// `c0 "White-Black Event Site Date"` (pgn-extract's c0).
    C0,
    /// `c1 "Result"`.
    C1,
    /// `hmvc N`: the halfmove clock.
    Hmvc,
    /// `fmvn N`: the fullmove number.
    Fmvn,
}

/// The text of one game's `c0` and `c1` operations (each quoted; a
/// double quote in a tag value becomes a single one, EPD strings having
/// no escapes).
fn epd_game_texts(source: &[u8], ops: &[EpdOp]) -> [String; 2] {
    if !ops.iter().any(|op| matches!(op, EpdOp::C0 | EpdOp::C1)) {
        return [String::new(), String::new()];
    }
    let tags = pgnkit::filter::read_tags(source);
    let tag = |name: &str| -> String {
        let value = tags
            .iter()
            .find(|t| t.name == name.as_bytes())
            .map(|t| encoding::decode(&unescape(t.value)).into_owned())
            .unwrap_or_else(|| "?".to_string());
        value
            .chars()
            .map(|c| match c {
                '"' => '\'',
                c if c.is_control() => ' ',
                c => c,
            })
            .collect()
    };
    [
        format!(
            "{}-{} {} {} {}",
            tag("White"),
            tag("Black"),
            tag("Event"),
            tag("Site"),
            tag("Date")
        ),
        tag("Result"),
    ]
}

/// Appends the `--epd-ops` of a position to its EPD line.
fn push_epd_ops(
    line: &mut String,
    ops: &[EpdOp],
    pos: &pgnkit::Position,
    (game, ply): (u64, u32),
    texts: &[String; 2],
) {
    use std::fmt::Write as _;
    for op in ops {
        let _ = match op {
            EpdOp::Id => write!(line, " id \"{game}.{ply}\";"),
            EpdOp::C0 => write!(line, " c0 \"{}\";", texts[0]),
            EpdOp::C1 => write!(line, " c1 \"{}\";", texts[1]),
            EpdOp::Hmvc => write!(line, " hmvc {};", pos.halfmoves()),
            EpdOp::Fmvn => write!(line, " fmvn {};", pos.fullmoves()),
        };
    }
}

/// A move of `--move`: its number and whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MoveSpec {
    number: u32,
    black: bool,
}

fn parse_move_spec(s: &str) -> Result<MoveSpec, String> {
    let bad = || format!("expected a move number and w or b, like 12w or 12b, not {s:?}");
    let (digits, black) = match s.as_bytes().last() {
        Some(b'w' | b'W') => (&s[..s.len() - 1], false),
        Some(b'b' | b'B') => (&s[..s.len() - 1], true),
        _ => return Err(bad()),
    };
    match digits.parse::<u32>() {
        Ok(number) if number > 0 => Ok(MoveSpec { number, black }),
        _ => Err(bad()),
    }
}

/// Which positions to print.
#[derive(Debug, Clone, Copy)]
enum Which {
    /// The final position of a valid game.
    Final,
    /// After this many plies.
    Ply(u32),
    /// This many plies before the final position.
    FromEnd(u32),
    /// After a move, by number and color.
    Move(MoveSpec),
    /// Every position.
    All,
}

/// A recorded mainline position.
struct Seen {
    ply: u32,
    span: Span,
    fen: String,
}

/// Runs `pgnkit fen`.
pub fn run(args: &FenArgs) -> anyhow::Result<Exit> {
    let colour = args.color.stderr();
    let mode = match args.ep {
        Ep::Always => EpMode::Always,
        Ep::Legal => EpMode::Legal,
    };
    let which = match (args.ply, args.moves, args.all) {
        (_, _, true) => Which::All,
        (_, Some(spec), _) => Which::Move(spec),
        (Some(n), _, _) if n >= 0 => Which::Ply(u32::try_from(n).unwrap_or(u32::MAX)),
        (Some(n), _, _) => Which::FromEnd(u32::try_from(-(n + 1)).unwrap_or(u32::MAX)),
        (None, None, false) => Which::Final,
    };
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    let epd = args.epd;
    let ops = &args.epd_ops[..];
    // Each position written into one buffer, reused line after line.
    let show =
        move |pos: &pgnkit::Position, at: (u64, u32), texts: &[String; 2], line: &mut String| {
            line.clear();
            // Writing to a string does not fail.
            if epd {
                let _ = pos.write_epd(mode, line);
                push_epd_ops(line, ops, pos, at, texts);
            } else {
                let _ = pos.write_fen(mode, line);
            }
        };
    let mut out = Output::open(args.output.path(), &args.inputs.files)?;
    // Per worker: the replayer, the positions kept, and the line a position
    // is written into, reused game after game.
    let game = |(replayer, seen, line): &mut (PooledReplayer, VecDeque<Seen>, String),
                item: &Item<'_>,
                done: &mut Done| {
        let ctx = Context::text(item.name, colour);
        let Some(raw) = game_of(&ctx, item, done) else {
            return;
        };
        let source = raw.bytes;
        seen.clear();
        let columns = tag_columns(source, &args.with);
        let texts = epd_game_texts(source, ops);
        // --all writes each position as it comes, remembering where its
        // line starts and where its move ends: the lines from the
        // first untrusted position on are cut off after the replay.
        // The lines go out of memory as they pile up ([`Done::spill`]).
        let mut lines_at: Vec<(u64, Option<usize>)> = Vec::new();
        let mut spill_error = None;
        // In u64: a FEN tag's move number may be near u32::MAX.
        let mut target: Option<u64> = match which {
            Which::Ply(n) => Some(u64::from(n)),
            _ => None,
        };
        // Where the first mainline move was written (the start
        // position is trusted only when no error comes before it).
        let mut first_move = source.len();
        // The start position's move number and side, when --move asks
        // for a move before it.
        let mut asked_before_start: Option<(u64, bool)> = None;
        let mut on_ply = |p: MainlinePly<'_>| {
            if p.ply == 1 {
                first_move = p.span.start;
            }
            // The ply of --move is known once the start position is.
            if p.ply == 0
                && let Which::Move(spec) = which
            {
                let start = p.position.plies_played();
                let wanted = (u64::from(spec.number) - 1) * 2 + u64::from(spec.black) + 1;
                target = wanted.checked_sub(start);
                if target.is_none() {
                    asked_before_start = Some((
                        p.position.fullmoves(),
                        p.position.turn() == pgnkit::Color::Black,
                    ));
                }
            }
            if let Which::All = which {
                // The start position's "move" ends where the first
                // move is written, known after the replay.
                let end = (p.ply > 0).then_some(p.span.end);
                lines_at.push((done.stdout_len(), end));
                show(p.position, (raw.number, p.ply), &texts, line);
                push_line(&mut done.stdout, Some((raw.number, p.ply)), line, &columns);
                if let Err(err) = done.spill() {
                    spill_error.get_or_insert(err);
                }
                return;
            }
            let keep = match which {
                Which::FromEnd(_) => true,
                Which::All | Which::Final => false,
                Which::Ply(_) | Which::Move(_) => target == Some(u64::from(p.ply)),
            };
            if keep {
                // From the end, only the last positions can be asked
                // for: a long game keeps no more of them.
                if let Which::FromEnd(back) = which
                    && seen.len() > back as usize
                {
                    seen.pop_front();
                }
                show(p.position, (raw.number, p.ply), &texts, line);
                seen.push_back(Seen {
                    ply: p.ply,
                    span: p.span,
                    fen: line.clone(),
                });
            }
        };
        // The final position needs no look at the others.
        let replay = match which {
            Which::Final => replayer.replay(&raw, &options),
            _ => replayer.replay_with(&raw, &options, &mut on_ply),
        };
        // Positions from the first mainline error on are not printed.
        let reached = replay.reached(first_move);
        let trusted = |s: &Seen| reached.before_errors((s.ply > 0).then_some(s.span.end));
        let mut printed = false;
        let mut short = false;
        match which {
            Which::Final => {
                if let Some(pos) = &replay.position
                    && replay.status == Status::Valid
                {
                    show(pos, (raw.number, replay.plies), &texts, line);
                    push_line(&mut done.stdout, None, line, &columns);
                    printed = true;
                }
            }
            Which::All => {
                // Positions come in order, their moves' ends increasing
                // (the start position's "move" is the first move): the
                // trusted ones are the first lines.
                let trusted_lines = lines_at
                    .iter()
                    .position(|&(_, end)| !reached.before_errors(end))
                    .unwrap_or(lines_at.len());
                if let Some(&(cut, _)) = lines_at.get(trusted_lines)
                    && let Err(err) = done.truncate_stdout(cut)
                {
                    spill_error.get_or_insert(err);
                }
                printed = trusted_lines > 0;
            }
            Which::FromEnd(back) => {
                if replay.status == Status::Valid {
                    match seen.len().checked_sub(1 + back as usize) {
                        Some(i) => {
                            push_line(&mut done.stdout, None, &seen[i].fen, &columns);
                            printed = true;
                        }
                        None => short = true,
                    }
                }
            }
            Which::Ply(_) | Which::Move(_) => match seen.front() {
                Some(s) if trusted(s) => {
                    push_line(&mut done.stdout, None, &s.fen, &columns);
                    printed = true;
                }
                Some(_) => {}
                None => short = replay.complete && replay.status == Status::Valid,
            },
        }
        let spilled_badly = spill_error.is_some();
        if let Some(err) = spill_error {
            let _ = writeln!(
                done.stderr,
                "{}:{}:1: error: game {}: cannot keep its positions in a temporary file: {err}",
                ctx.path, raw.first_line, raw.number
            );
        }
        let errored = replay.status != Status::Valid;
        if errored {
            write_errors(&ctx, &raw, &replay, done);
        } else if let (true, Some((number, black)), Which::Move(spec)) =
            (short && !args.skip_short, asked_before_start, which)
        {
            let _ = writeln!(
                done.stderr,
                "{}:{}:1: error: game {}: move {}{} comes before the game's first move, {number}{}",
                ctx.path,
                raw.first_line,
                raw.number,
                spec.number,
                if spec.black { 'b' } else { 'w' },
                if black { "..." } else { "." },
            );
        } else if short && !args.skip_short {
            let _ = writeln!(
                done.stderr,
                "{}:{}:1: error: game {}: the game has {}, fewer than asked",
                ctx.path,
                raw.first_line,
                raw.number,
                count(replay.plies.into(), "ply", "plies")
            );
        }
        let failed = errored || (short && !args.skip_short) || spilled_badly;
        done.stats
            .count(&replay, failed || (!printed && !short), false);
    };
    let run = Run::new(&args.inputs, &args.jobs, &args.progress);
    let mut writer = Writer::new(&mut out, &run);
    execute(
        &run,
        &mut writer,
        || (PooledReplayer::take(), VecDeque::new(), String::new()),
        game,
    )?;
    let (stats, io_error) = (writer.stats, writer.io_error);
    out.close(Exit::of(io_error, stats.errors + stats.unsupported))
}

/// One output line: optional `game<TAB>ply<TAB>`, the FEN, tag columns.
fn push_line(out: &mut Vec<u8>, prefix: Option<(u64, u32)>, fen: &str, columns: &str) {
    if let Some((game, ply)) = prefix {
        let _ = write!(out, "{game}\t{ply}\t");
    }
    out.extend_from_slice(fen.as_bytes());
    out.extend_from_slice(columns.as_bytes());
    out.push(b'\n');
}

/// The values of the `--with` tags, each after a tab (tabs and newlines
/// in values become spaces).
fn tag_columns(source: &[u8], names: &[String]) -> String {
    let mut out = String::new();
    if names.is_empty() {
        return out;
    }
    let tags = pgnkit::filter::read_tags(source);
    let values = names.iter().map(|wanted| {
        tags.iter()
            .find(|t| t.name == wanted.as_bytes())
            .map(|t| encoding::decode(&unescape(t.value)).into_owned())
    });
    for value in values {
        out.push('\t');
        if let Some(value) = value {
            out.extend(value.chars().map(|c| {
                if c == '\t' || c == '\n' || c == '\r' {
                    ' '
                } else {
                    c
                }
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_specs() {
        assert_eq!(
            parse_move_spec("12w"),
            Ok(MoveSpec {
                number: 12,
                black: false
            })
        );
        assert_eq!(
            parse_move_spec("3b"),
            Ok(MoveSpec {
                number: 3,
                black: true
            })
        );
        for bad in ["12", "w", "0w", "-1b", "12x", ""] {
            assert!(parse_move_spec(bad).is_err(), "{bad}");
        }
    }
}
