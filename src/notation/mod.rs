//! Moves as text: every move notation pgnkit reads and writes.
//!
//! Three steps, one file each:
//! - parsing (`token.rs`): bytes to a [`MoveToken`], without a position;
//! - resolving ([`MoveToken::resolve`]): a token against a position gives
//!   exactly one legal [`Move`](crate::Move), or a [`ResolveError`] saying
//!   why not; [`MoveToken::lints`] lists what a valid token does not write
//!   the standard way;
//! - writing ([`write_move`], [`MoveText`]): a legal move in any [`Style`],
//!   with check and mate marks computed from the position.
//!
//! A [`MoveToken`] says *what* a token claims (which piece, from where, to
//! where, capture, promotion) and *how* it was spelled ([`Notation`],
//! [`Letters`], [`Spelling`] flags, [`Suffix`]). Whether the move is legal,
//! and which piece `B` means (bishop in English, Bauer in German), is
//! decided against a position ([`LetterPolicy`]).
//!
//! Accepted spellings:
//! - SAN: `e4`, `Nbd7`, `R1a3`, `Qh4xe1`, `exd6`, `e8=Q`, `O-O`, `O-O-O`;
//! - common variants: `0-0`, `0-0-0`, `e8Q`, `e8(Q)`, `e8/Q`, `Pe4`, `e:d5`,
//!   `exd6e.p.`/`exd6ep` (also after the sign: `exd6+e.p.`), `+`, `++`, `#`;
//! - long algebraic: `e2-e4`, `Ng1-f3`, `Ng1xf3`, `Ng1f3`, `e4xd5`,
//!   `e7-e8=Q`, `e7-e8Q`, and without piece letters `g1-f3`, `e1-g1`;
//!   an en-passant capture marked by `ep` alone (`e5d6ep`, pgn-extract's
//!   `-Welalg`);
//! - UCI: `e2e4`, `e7e8q` (or `e7e8Q`), `e1g1`;
//! - German letters `K D T L S B` (`Sf3`, `Lxb5`, `Dd1-f3`, `b2-b1=D`,
//!   `Be2-e4` with `B` for Bauer);
//! - figurines `♔♕♖♗♘♙` (and the black ones), also as promotion pieces;
//! - null moves: `--`, `Z0`, `0000`, `@@@@`.
//!
//! How a token is classified:
//! - A token with a whole origin square is [`Notation::Uci`] when it has no
//!   piece letter, no separator and at most a bare promotion (`e7e8q`), and
//!   [`Notation::Long`] otherwise. SAN's rare full-square disambiguation
//!   (`Qh4xe1`) is text of long algebraic too and reads as `Long`; only the
//!   position can tell whether the origin was needed
//!   ([`MoveToken::written_notation`]).
//! - A token without a piece letter names a pawn in SAN (`e4`, `exd5`). With
//!   a whole origin square (long algebraic `g1-f3`, `c1xb2`, `e1-g1`; UCI
//!   `g1f3`) it names the piece on that square, as UCI does, so the long
//!   algebraic other programs write without letters reads from the board;
//!   a promotion or an en-passant mark still names a pawn, and an empty
//!   origin is an error.
//! - [`Letters`]: `N R Q P` are English, `S L T D` German, `K` both. `B`
//!   naming the mover is both (bishop or Bauer) unless another letter
//!   settles it (`Bb7-b8=D` is a German pawn move); as a promotion piece `B`
//!   is English, since German never promotes to a Bauer. English and German
//!   letters in one token, or letters with figurines, are an error.
//! - Lower-case letters are never pieces: `bxc3` is a pawn capture and
//!   `nf3` an error. Lower-case promotion letters are UCI's only.
//! - The en-passant mark goes after the destination, before or after
//!   `+`/`#` (`exd6e.p.+`, `exd6+e.p.`), only on a pawn capture; a separate `e.p.` token (which may carry the
//!   move's `+`/`#`) is the grammar's business (see [`read_ep_mark`]).
//! - Null moves take no suffix.
//!
//! Parsing is a single left-to-right pass over the bytes without
//! allocation; errors carry the offset of the first byte that cannot belong
//! to any accepted spelling.
//!
//! Move-quality glyphs (`!`, `?`, `!?` …) are not part of a move token: the
//! PGN grammar splits them off before calling [`MoveToken::parse`].

mod lint;
mod resolve;
mod token;
mod write;

pub(crate) use self::lint::suffix_lint;
pub(crate) use self::token::parse_common;
pub use self::{
    lint::{Lint, Lints},
    resolve::{IllegalReason, LetterPolicy, ResolveError, Resolved},
    token::{
        Letters, MoveKind, MoveToken, Mover, Notation, ParseMoveTokenError, Spelling, Suffix,
        is_ep_mark, read_ep_mark,
    },
    write::{
        Alphabet, LongForm, MoveText, ParseLettersError, ParseStyleError, Style, write_move,
        write_played,
    },
};
