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
//!
//! Beside the layers, [`input`] opens files and stdin, plain or compressed
//! (zstd, gzip, bzip2), as bounded streams, and [`encoding`] decodes archive
//! text (UTF-8 or Windows-1252).
//!
//! The command-line front end lives in the binary (`src/main.rs`, `src/cli/`).

pub mod bitboard;
pub mod castling;
pub mod color;
pub mod encoding;
pub mod input;
pub mod notation;
pub mod pgn;
pub mod pipeline;
pub mod role;
pub mod square;

pub use crate::{
    bitboard::Bitboard,
    castling::CastlingSide,
    color::Color,
    input::{Compression, Input, InputError},
    notation::{
        Letters, MoveKind, MoveToken, Mover, Notation, ParseMoveTokenError, Spelling, Suffix,
    },
    pgn::{
        Game, GameFramer, ParsePgnError, RawGame, ReadPgnError, WriteOptions, parse_game,
        visit_mainline, write_game,
    },
    role::{Piece, Role},
    square::{File, ParseSquareError, Rank, Square},
};
