//! `pgnkit board`: a picture of one position, as text or SVG.

use std::collections::VecDeque;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};
use pgnkit::diagram::{self, View};
use pgnkit::engine::display_name;
use pgnkit::pgn::{GameFramer, ReadPgnError, Span};
use pgnkit::replay::{MainlinePly, Observer, Played, ReplayOptions, Replayer, Status};
use pgnkit::{Move, Position, Square};

use super::Exit;
use super::args::{ColorChoice, Letters, OutputFile};
use super::output::Output;
use super::report::{self, Context, Done};
use super::{message, open_input, to_stderr};

/// Draw a position: a diagram for the terminal, or an SVG image.
///
/// The position is a FEN (--fen), or a game of a PGN file (--game, the
/// first by default) at a ply (--ply; the final position by default), whose
/// last move is marked. The diagram shows the board from White's side
/// (--flip: from Black's), the coordinates and the side to move; on a
/// terminal its squares and pieces are coloured (--color).
///
/// As `fen`, a game's position is drawn only when the mainline reached it
/// legally, before the game's first error.
///
/// Exit status: 0 drawn, 1 the game has no such position (an error before
/// it: an illegal move, a syntax error, a bad FEN tag; or too few plies),
/// 2 usage or I/O error.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit board --fen 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'
  pgnkit board --game 4 games.pgn
  pgnkit board --game 1 --ply 20 --flip --letters games.pgn
  pgnkit board --game 4 --format svg -o mate.svg games.pgn")]
pub struct BoardArgs {
    /// A PGN file, plain or compressed (`-` or none: standard input).
    file: Option<PathBuf>,
    /// The position to draw, as FEN (instead of a game).
    #[arg(long, value_name = "FEN", conflicts_with_all = ["file", "game", "ply"])]
    fen: Option<String>,
    /// The game to draw, by its number in the file (from 1).
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: u64,
    /// The position after N plies of the mainline (0: the start; negative:
    /// from the end, -1: the final position, the default).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    ply: Option<i64>,
    /// What to draw: a text diagram or an SVG image.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Show the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Piece letters (K Q R B N P, lower case for Black) instead of
    /// figurines in the text diagram.
    #[arg(long)]
    letters: bool,
    /// Colour the text diagram: auto (on a terminal, unless NO_COLOR is
    /// set), always, never.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
    #[command(flatten)]
    lang: Letters,
    #[command(flatten)]
    output: OutputFile,
}

/// What `board` draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A text diagram.
    #[default]
    Text,
    /// An SVG image.
    Svg,
}

/// Which mainline position a game is drawn at.
#[derive(Debug, Clone, Copy)]
enum At {
    /// After this many plies.
    Ply(u32),
    /// This many plies before the final position.
    FromEnd(u32),
}

/// The replay's observer: the positions wanted of the mainline, each with
/// the squares of the move that reached it. Only the last few are kept
/// (at most as many as the position is from the end).
struct Positions {
    at: At,
    depth: u32,
    last_move: Option<(Square, Square)>,
    /// Where the first mainline move is written (the text's end when none
    /// was played).
    first_move: usize,
    /// The positions kept, each with where the move that reached it ends
    /// (`None` for the start position).
    kept: VecDeque<(Shown, Option<usize>)>,
}

/// A position with the squares of the move that reached it.
type Shown = (Position, Option<(Square, Square)>);

impl Observer<'_> for Positions {
    fn played(&mut self, _: &Position, played: Played, _: &pgnkit::MoveToken, _: Span) {
        if self.depth == 0 {
            self.last_move = match played {
                Played::Move(m) => Some(squares(m)),
                Played::Null => None,
            };
        }
    }

    fn begin_variation(&mut self, _: Span) {
        self.depth += 1;
    }

    fn end_variation(&mut self, _: Span) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn mainline_ply(&mut self, ply: MainlinePly<'_>) {
        let last_move = if ply.ply == 0 {
            None
        } else {
            self.last_move.take()
        };
        if ply.ply == 1 {
            self.first_move = ply.span.start;
        }
        let end = (ply.ply > 0).then_some(ply.span.end);
        let keep = match self.at {
            At::Ply(n) => ply.ply == n,
            At::FromEnd(_) => true,
        };
        if keep {
            self.kept.push_back(((*ply.position, last_move), end));
        }
        if let At::FromEnd(n) = self.at
            && self.kept.len() > n as usize + 1
        {
            self.kept.pop_front();
        }
    }
}

/// The squares a move is shown from and to: the king's for castling.
fn squares(m: Move) -> (Square, Square) {
    (m.from(), m.king_to())
}

/// Runs `pgnkit board`.
pub fn run(args: &BoardArgs) -> anyhow::Result<Exit> {
    let inputs: Vec<PathBuf> = args.file.iter().cloned().collect();
    let mut out = Output::open(args.output.path(), &inputs)?;
    let (pos, last_move) = match &args.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => (pos, None),
            Err(err) => bail!("not a position: {err}"),
        },
        None => match game_position(args)? {
            Ok(found) => found,
            Err(unreached) => {
                to_stderr(&unreached.diagnostics);
                message!("pgnkit board: {}", unreached.why);
                return out.close(Exit::Errors);
            }
        },
    };
    let view = View {
        flipped: args.flip,
        last_move,
        ansi: args.format == Format::Text
            && args
                .color
                .colour(args.output.path().is_none() && std::io::stdout().is_terminal()),
        letters: args.letters,
    };
    let picture = match args.format {
        Format::Text => diagram::text(&pos, &view),
        Format::Svg => diagram::svg(&pos, &view),
    };
    out.write_all(picture.as_bytes())?;
    out.close(Exit::Ok)
}

/// Why a game has no position to draw: the game's errors, as `fen` writes
/// them, and a line that says which position was asked for.
struct Unreached {
    /// The diagnostics (`file:line:column: error: game N …`), each on its
    /// line; none when the game is merely too short.
    diagnostics: Vec<u8>,
    why: String,
}

impl Unreached {
    fn because(why: String) -> Unreached {
        Unreached {
            diagnostics: Vec::new(),
            why,
        }
    }
}

/// The position of the asked game at the asked ply, or why there is none.
fn game_position(args: &BoardArgs) -> anyhow::Result<Result<Shown, Unreached>> {
    let path = args.file.clone().unwrap_or_else(|| PathBuf::from("-"));
    let name = display_name(&path);
    let input = open_input(&path).with_context(|| format!("cannot open {name}"))?;
    let mut games = GameFramer::for_input(input);
    let Some(wanted) = args.game.checked_sub(1) else {
        bail!("--game counts from 1");
    };
    for _ in 0..wanted {
        match games.next_game() {
            Some(Ok(_)) => {}
            // Reported as the commands that list games report it; the
            // framer goes on after it, and it counts as a game.
            Some(Err(err @ ReadPgnError::GameTooLarge { .. })) => {
                message!("pgnkit: {name}: {err}");
            }
            Some(Err(err)) => bail!("{name}: {err}"),
            None => {
                return Ok(Err(Unreached::because(format!(
                    "{name} has fewer than {} games",
                    args.game
                ))));
            }
        }
    }
    let game = args.game;
    let raw = match games.next_game() {
        Some(Ok(raw)) => raw,
        Some(Err(err @ ReadPgnError::GameTooLarge { .. })) => {
            let ctx = Context::text(&name, args.color.colour(std::io::stderr().is_terminal()));
            let mut done = Done::<()>::default();
            report::too_large(&ctx, &err, &mut done);
            return Ok(Err(Unreached {
                diagnostics: done.stderr,
                why: format!("game {game} of {name} is over the size bound: it is not read"),
            }));
        }
        Some(Err(err)) => bail!("{name}: {err}"),
        None => {
            return Ok(Err(Unreached::because(format!(
                "{name} has fewer than {} games",
                args.game
            ))));
        }
    };
    let at = match args.ply {
        Some(n) if n >= 0 => At::Ply(u32::try_from(n).unwrap_or(u32::MAX)),
        Some(n) => At::FromEnd(u32::try_from(-(n + 1)).unwrap_or(u32::MAX)),
        None => At::FromEnd(0),
    };
    let mut positions = Positions {
        at,
        depth: 0,
        last_move: None,
        first_move: raw.bytes.len(),
        kept: VecDeque::new(),
    };
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: false,
        lenient: false,
    };
    let replay = Replayer::new().observe(&raw, &options, &mut positions);
    // As `fen`: a position only when the mainline reached it before its
    // first error (an illegal move, a syntax error, a bad FEN tag).
    let reached = replay.reached(positions.first_move);
    let found = match at {
        At::Ply(_) => positions.kept.pop_back(),
        At::FromEnd(n) if replay.complete && positions.kept.len() == n as usize + 1 => {
            positions.kept.pop_front()
        }
        At::FromEnd(_) => None,
    };
    // The game's errors, where and what, as `fen` and `validate` name them.
    let diagnostics = || {
        let ctx = Context::text(&name, args.color.colour(std::io::stderr().is_terminal()));
        let mut done = Done::<()>::default();
        report::write_errors(&ctx, &raw, &replay, &mut done);
        done.stderr
    };
    Ok(match found {
        Some((shown, end)) if reached.before_errors(end) => Ok(shown),
        None if replay.complete => Err(Unreached::because(format!(
            "game {game} of {name} has only {} plies",
            replay.plies
        ))),
        _ => Err(Unreached {
            diagnostics: diagnostics(),
            why: format!(
                "game {game} of {name}: the position was not reached: {}",
                if replay.status == Status::Unsupported {
                    "its variant is not played"
                } else {
                    "it comes after an error"
                }
            ),
        }),
    })
}
