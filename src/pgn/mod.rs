//! PGN syntax: reading and writing games without knowing chess rules.
//!
//! - [`GameFramer`] splits a byte stream into games ([`RawGame`]) from a
//!   bounded buffer.
//! - [`parse_game`] reads one game into the model ([`Game`]): tags, the move
//!   tree with comments, NAGs and variations, the result, and every syntax
//!   error with its [`Span`]. Move tokens are classified by
//!   [`MoveToken::parse`](crate::notation::MoveToken::parse); legality is
//!   the replay engine's business.
//! - [`Reader`] walks a game's movetext once, owns its structural rules
//!   (where annotations, variations and the result may stand) and reports
//!   tokens and syntax errors to a [`Visitor`]. Every job that reads
//!   movetext is a visitor: the model builder, the syntax checker, the
//!   replay, the converter, the filter.
//! - [`visit_mainline`] is the reader with a visitor for jobs that only
//!   need the mainline's moves: no tree, no allocation.
//! - [`SyntaxChecker`] reports the same errors as [`parse_game`] without
//!   building the tree: the parse-only path.
//! - [`Command`] reads the `[%clk]`, `[%emt]` and `[%eval]` commands of
//!   comments.
//! - [`write_game`] writes the export format.
//!
//! # Examples
//! ```
//! use pgnkit::pgn::{GameFramer, parse_game};
//! let pgn = b"[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n";
//! let mut framer = GameFramer::new(&pgn[..]);
//! let mut plies = Vec::new();
//! while let Some(raw) = framer.next_game() {
//!     plies.push(parse_game(&raw?).mainline.moves.len());
//! }
//! assert_eq!(plies, [3, 1]);
//! # Ok::<(), pgnkit::pgn::ReadPgnError>(())
//! ```

mod buffer;
mod command;
mod error;
mod framer;
mod game;
mod grammar;
mod message;
mod pieces;
mod raw;
mod scan;
mod span;
mod tag;
mod visitor;
mod writer;

pub use self::{
    command::{Command, Eval, MATE_SCORE, commands},
    error::{ParsePgnError, ParsePgnErrorKind, ReadPgnError},
    framer::{DEFAULT_MAX_GAME_BYTES, GameFramer},
    game::{
        EpMark, Game, Line, Located, MAX_TREE_DEPTH, MainlineEvent, MoveNode, ParseOptions,
        ResultMarker, SyntaxChecker, SyntaxSummary, parse_game, parse_game_with, visit_mainline,
    },
    grammar::{
        GameLetters, Outcome, Token, TokenKind, Tokens, game_termination, glyph, move_number, nag,
        string, symbol, tag_name, tag_pair,
    },
    raw::{CommentIndex, Comments, GameInfo, Marks, RawGame},
    span::{LineIndex, Span},
    tag::{SpareTags, Tag, escape, unescape, value_text},
    visitor::{Comment, CommentKind, DEFAULT_MAX_DEPTH, Reader, Skip, Visitor},
    writer::{
        DRAW_OFFER, ExportTag, MoveTextFn, MovetextWriter, NoteFn, SEVEN_TAG_ROSTER, TagSelection,
        WriteOptions, export_tag_list, export_tags, result_text, start_ply, write_game,
        write_game_noted, write_game_with, write_tags,
    },
};

pub(crate) use self::grammar::fen_move_number;
pub use self::pieces::Link;
pub(crate) use self::pieces::{Chain, FramedPiece, bounded_cuts, frame_piece, game_after, game_at};
