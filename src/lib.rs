//! pgnkit: a strict, fast toolkit for chess games in PGN and positions in FEN.
//!
//! The library is layered; each layer depends only on the ones above it:
//!
//! 1. **Rules core** — [`Color`], [`Role`], [`Square`], [`Bitboard`], attack
//!    tables, positions, legal move generation, FEN.
//! 2. **Notation** — move tokens as written (SAN, long algebraic, UCI, German,
//!    figurines), parsed without a position.
//! 3. **PGN syntax** — a streaming nom grammar that knows no chess rules.
//! 4. **Replay** — games played through the rules core.
//! 5. **Timeline** — clocks and evaluations of the mainline from the
//!    `[%clk]`, `[%emt]` and `[%eval]` commands of comments ([`timeline`]).
//! 6. **Openings** — the ECO code and name of a game from the positions
//!    it reaches ([`opening`]).
//! 7. **Filter** — an expression language selecting games by tags, replay
//!    results, clocks, evaluations, openings and positions ([`filter`]).
//! 8. **Engine** — inputs framed into games, a per-game function run on the
//!    worker threads of the [`pipeline`], results in input order
//!    ([`engine`]); with the bytes between games, for writing them back
//!    unchanged; or one exact shard of the inputs ([`shard`]), for runs
//!    spread over many cores or machines.
//!
//! Beside the layers, [`input`] opens files and stdin, plain or compressed
//! (zstd, gzip, bzip2), as bounded streams, [`encoding`] decodes archive
//! text (UTF-8 or Windows-1252), and [`dedup`] fingerprints games during
//! their replay and finds duplicates in bounded memory.
//!
//! # Example
//!
//! Read a PGN file (plain, zstd, gzip or bzip2), replay every game and print
//! its final position as FEN:
//!
//! ```
//! use pgnkit::pgn::GameFramer;
//! use pgnkit::replay::{ReplayOptions, Replayer, Status};
//! use pgnkit::{EpMode, input};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/myschach.pgn");
//! # let mut fens = Vec::new();
//! let mut games = GameFramer::for_input(input::open(path.as_ref())?);
//! let mut replayer = Replayer::new();
//! while let Some(game) = games.next_game() {
//!     let replay = replayer.replay(&game?, &ReplayOptions::default());
//!     if let (Status::Valid, Some(position)) = (replay.status, replay.position) {
//!         println!("{}", position.fen(EpMode::Always));
//! #       fens.push(position.fen(EpMode::Always));
//!     }
//! }
//! # assert_eq!(fens.len(), 5);
//! # assert_eq!(fens[3], "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The command-line front end lives in the binary (`src/main.rs`, `src/cli/`),
//! built with the default feature `cli`: it parses arguments and gives the
//! engine each command's per-game work. The library needs none of its
//! dependencies (`default-features = false`).

#![warn(missing_docs)]

mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
pub mod convert;
pub mod dedup;
pub mod diagram;
pub mod encoding;
pub mod engine;
mod fen;
pub mod filter;
pub mod input;
mod movegen;
mod moves;
mod notation;
pub mod opening;
mod perft;
pub mod pgn;
pub mod pipeline;
mod position;
mod reachability;
pub mod replay;
mod role;
mod setup;
pub mod shard;
mod square;
pub mod timeline;
mod zobrist;

pub use crate::{
    bitboard::Bitboard,
    board::Board,
    castling::{Castles, CastlingSide},
    color::Color,
    fen::{EpMode, FenError, FenField, ParseFenError, ParseFenErrorKind},
    moves::{MOVE_LIST_CAPACITY, Move, MoveList, Uci},
    notation::{
        Alphabet, IllegalReason, LetterPolicy, Letters, Lint, Lints, LongForm, MoveKind, MoveText,
        MoveToken, Mover, Notation, ParseLettersError, ParseMoveTokenError, ParseStyleError,
        ResolveError, Resolved, Spelling, Style, Suffix, is_ep_mark, read_ep_mark, write_move,
        write_played,
    },
    perft::{divide, perft},
    position::{IllegalMove, Position, PositionError, PositionProblem},
    reachability::Unreachable,
    role::{Piece, Role},
    setup::Setup,
    square::{File, ParseSquareError, Rank, Square},
};
