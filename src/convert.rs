//! Games written with their moves in another notation ([`crate::Style`]).
//!
//! [`Converter`] rides on the replay engine: as the replay plays each move
//! of the mainline and of its variations ([`Replayer::observe`]), the
//! converter writes it in the target notation, so a game is judged and
//! converted in one pass. [`play_game`] and [`write_pgn_tree`] work on the
//! game's tree ([`Game`]) instead: the JSON output, and the few layouts
//! the streaming writer hands over.
//!
//! # Examples
//! ```
//! use pgnkit::convert::play_game;
//! use pgnkit::replay::Played;
//! use pgnkit::pgn::{RawGame, parse_game};
//! use pgnkit::{LetterPolicy, Position, Style};
//!
//! let game = parse_game(&RawGame::from_bytes(b"1. e4 (1. d4 d5) e5 2. Nf3 *"));
//! let line = play_game(&game, &Position::startpos(), LetterPolicy::Auto, None)?;
//! let texts: Vec<String> = line.moves.iter().map(|m| m.text(Style::LAN)).collect();
//! assert_eq!(texts, ["e2-e4", "e7-e5", "Ng1-f3"]);
//! assert_eq!(line.moves[0].variations[0].moves[1].text(Style::UCI), "d7d5");
//! assert!(matches!(line.moves[0].played, Played::Move(_)));
//! # Ok::<_, pgnkit::convert::PlayError>(())
//! ```

use std::borrow::Cow;

use crate::fen::EpMode;
use crate::moves::Move;
use crate::notation::{
    LetterPolicy, MoveKind, MoveToken, Notation, ParseMoveTokenError, ResolveError, Resolved, Style,
};
use crate::opening::{Classifier, Opening, set_opening_tags};
use crate::pgn::{
    Comment, CommentKind, DRAW_OFFER, Game, GameLetters, Line, MoveNode, MovetextWriter, Outcome,
    ParseOptions, ParsePgnError, ParsePgnErrorKind, RawGame, Reader, Span, SpareTags, Tag, Visitor,
    WriteOptions, parse_game_with, result_text, start_ply, write_game_noted, write_game_with,
    write_tags,
};
use crate::position::Position;
use crate::replay::{
    DiagnosticKind, MainlinePly, Observer, Played, Replay, ReplayOptions, Replayer, Severity,
    Status, Termination,
};

/// A move node with the position it was played in.
#[derive(Debug, Clone)]
pub struct PlayedMove<'n, 'a> {
    /// The node as parsed (text, comments, NAGs …).
    pub node: &'n MoveNode<'a>,
    /// The position before the move.
    pub before: Position,
    /// The move.
    pub played: Played,
    /// Its variations, played from `before`.
    pub variations: Vec<PlayedLine<'n, 'a>>,
}

/// A line of played moves (the mainline or a variation).
#[derive(Debug, Clone)]
pub struct PlayedLine<'n, 'a> {
    /// The line as parsed (for its trailing comments).
    pub line: &'n Line<'a>,
    /// Its moves, in order.
    pub moves: Vec<PlayedMove<'n, 'a>>,
}

impl PlayedMove<'_, '_> {
    /// The move written in `style` (a null move as `--`, or `0000` in UCI).
    pub fn text(&self, style: Style) -> String {
        match self.played {
            Played::Move(m) => style.text(&self.before, m).as_str().to_string(),
            Played::Null => style.null().to_string(),
        }
    }

    /// The position after the move.
    pub fn after(&self) -> Position {
        let mut pos = self.before;
        match self.played {
            Played::Move(m) => pos.play_unchecked(m),
            Played::Null => pos.play_null(),
        }
        pos
    }
}

/// Why a move of the tree could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayErrorKind {
    /// The token is not a move.
    #[error("{0}")]
    Parse(ParseMoveTokenError),
    /// The move is illegal or ambiguous.
    #[error("{0}")]
    Illegal(ResolveError),
    /// A null move while in check.
    #[error("null move while in check")]
    NullInCheck,
    /// The game has more moves (mainline and variations) than a game tree
    /// may hold ([`check_tree_budget`]).
    #[error("more than {limit} moves (mainline and variations): too many to build the game's tree")]
    TooManyMoves {
        /// The bound.
        limit: usize,
    },
    /// The move is written in another notation than the one required.
    #[error("move written in {found}, expected {expected}")]
    Notation {
        /// The notation required.
        expected: &'static str,
        /// The notation found.
        found: &'static str,
    },
}

/// A move of the tree that could not be played, and where it was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct PlayError {
    /// Why.
    pub kind: PlayErrorKind,
    /// The move token.
    pub span: Span,
}

/// The most moves (mainline and variations) a game may have where its tree
/// is built ([`parse_game`](crate::pgn::parse_game) then [`play_game`]: `convert --to json`, and
/// [`Converter::convert`]'s tree fallback). The tree takes a few hundred
/// bytes per move (the node, and the position it was played in), so this
/// bounds it at about 100 MiB; a hostile 256 MiB single game would
/// otherwise need tens of GiB. Real games have at most a few thousand.
pub const MAX_TREE_MOVES: usize = 250_000;

/// Checks, in one pass over the game's tokens without allocating, that a
/// game has at most `limit` move tokens (mainline and variations): call it
/// before building the game's tree.
///
/// # Errors
/// [`PlayErrorKind::TooManyMoves`], at the first move beyond the limit.
///
/// # Examples
/// ```
/// use pgnkit::convert::{PlayErrorKind, check_tree_budget};
/// use pgnkit::pgn::{RawGame, Span};
///
/// let raw = RawGame::from_bytes(b"1. e4 (1. d4 d5) e5 *");
/// assert!(check_tree_budget(&raw, 4).is_ok());
/// let err = check_tree_budget(&raw, 3).unwrap_err();
/// assert_eq!(err.kind, PlayErrorKind::TooManyMoves { limit: 3 });
/// assert_eq!(err.span, Span::new(17, 19));
/// ```
pub fn check_tree_budget(raw: &RawGame<'_>, limit: usize) -> Result<(), PlayError> {
    let mut budget = Budget {
        limit,
        moves: 0,
        over: None,
    };
    match Reader::default().read(raw, &mut budget) {
        None => Ok(()),
        Some(span) => Err(PlayError {
            kind: PlayErrorKind::TooManyMoves { limit },
            span,
        }),
    }
}

/// The visitor behind [`check_tree_budget`]: counts move tokens.
struct Budget {
    limit: usize,
    moves: usize,
    /// The first move beyond the limit.
    over: Option<Span>,
}

impl Budget {
    fn count(&mut self, span: Span) {
        self.moves += 1;
        if self.moves > self.limit && self.over.is_none() {
            self.over = Some(span);
        }
    }
}

impl Visitor<'_> for Budget {
    type Output = Option<Span>;

    fn san(&mut self, _text: &[u8], _token: &MoveToken, span: Span) {
        self.count(span);
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        if let ParsePgnErrorKind::BadMove(_) = error.kind {
            self.count(error.span);
        }
    }

    fn end_game(&mut self) -> Option<Span> {
        self.over
    }
}

/// The notation every move must be written in (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Required {
    /// Short algebraic, English or German letters as the policy says. A
    /// piece move with a whole origin square (`Qh4xe1`) is short algebraic
    /// where SAN needs both file and rank ([`MoveToken::written_notation`]).
    San,
    /// Long algebraic, with or without piece letters (`Ng1-f3`, `g1-f3`);
    /// castling as `O-O`/`O-O-O` or as the king's move (`e1-g1`).
    Long,
    /// UCI (castling as the king's move, `e1g1`).
    Uci,
}

impl Required {
    /// Whether `token`, resolved to `m` in `before`, is written in this
    /// notation.
    fn accepts(self, token: &MoveToken, before: &Position, m: Move) -> bool {
        match (self, token.kind, token.notation) {
            // Long algebraic writes castling as SAN does.
            (Required::San | Required::Long, MoveKind::Castle(_), _)
            | (Required::Long, _, Notation::Long)
            | (Required::Uci, _, Notation::Uci)
            | (Required::San, _, Notation::San) => true,
            (Required::San, _, Notation::Long) => {
                token.written_notation(before, m) == Notation::San
            }
            _ => false,
        }
    }

    /// Checks that `token`, resolved to `m` in `before`, is written in this
    /// notation.
    fn check(self, token: &MoveToken, before: &Position, m: Move) -> Result<(), PlayErrorKind> {
        if self.accepts(token, before, m) {
            Ok(())
        } else {
            Err(PlayErrorKind::Notation {
                expected: self.name(),
                found: notation_name(token.notation),
            })
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Required::San => "short algebraic",
            Required::Long => "long algebraic",
            Required::Uci => "UCI",
        }
    }
}

const fn notation_name(n: Notation) -> &'static str {
    match n {
        Notation::San => "short algebraic",
        Notation::Long => "long algebraic",
        Notation::Uci => "UCI",
    }
}

/// Plays a game's mainline and variations from `start`, reading piece
/// letters with `letters` (with [`LetterPolicy::Auto`], settled by the
/// game's own letters in the order written, as the replay engine does).
/// With `required`, every move must be written in that notation (null
/// moves excepted).
///
/// # Errors
/// The first move (in the order written) that is not a move, not legal,
/// a null move in check, or in another notation than `required`.
pub fn play_game<'n, 'a>(
    game: &'n Game<'a>,
    start: &Position,
    letters: LetterPolicy,
    required: Option<Required>,
) -> Result<PlayedLine<'n, 'a>, PlayError> {
    let mut player = Player {
        policy: letters,
        alphabet: GameLetters::default(),
        source: game.source,
        required,
    };
    player.line(&game.mainline, start)
}

struct Player<'s> {
    policy: LetterPolicy,
    alphabet: GameLetters,
    /// The game's text, which the spans of its moves are in.
    source: &'s [u8],
    required: Option<Required>,
}

impl Player<'_> {
    // Recursion is bounded by the parser's variation depth limit.
    fn line<'n, 'a>(
        &mut self,
        line: &'n Line<'a>,
        start: &Position,
    ) -> Result<PlayedLine<'n, 'a>, PlayError> {
        let mut pos = *start;
        let mut moves = Vec::with_capacity(line.moves.len());
        for node in &line.moves {
            let error = |kind| PlayError {
                kind,
                span: node.span,
            };
            let token = node.token.map_err(|e| error(PlayErrorKind::Parse(e)))?;
            let letters = if self.policy == LetterPolicy::Auto {
                self.alphabet.read(&token, self.source, node.span)
            } else {
                self.policy
            };
            let resolved = token
                .resolve(&pos, letters)
                .map_err(|e| error(PlayErrorKind::Illegal(e)))?;
            let played = match resolved {
                Resolved::Move(m) => {
                    if letters == LetterPolicy::Auto {
                        self.alphabet.played(&token, m.role());
                    }
                    Played::Move(m)
                }
                Resolved::Null if pos.is_check() => return Err(error(PlayErrorKind::NullInCheck)),
                Resolved::Null => Played::Null,
            };
            if let (Some(required), Played::Move(m)) = (self.required, played) {
                required.check(&token, &pos, m).map_err(error)?;
            }
            let mut variations = Vec::with_capacity(node.variations.len());
            for variation in &node.variations {
                variations.push(self.line(variation, &pos)?);
            }
            let before = pos;
            match played {
                Played::Move(m) => pos.play_unchecked(m),
                Played::Null => pos.play_null(),
            }
            moves.push(PlayedMove {
                node,
                before,
                played,
                variations,
            });
        }
        Ok(PlayedLine { line, moves })
    }
}

/// How [`Converter::convert`] reads and writes a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PgnOptions {
    /// The notation the moves are written in.
    pub style: Style,
    /// Export format options (tags, comments, NAGs, variations, width).
    pub write: WriteOptions,
    /// How to read piece letters ([`play_game`]).
    pub letters: LetterPolicy,
    /// The notation every move must be written in, if any ([`play_game`]).
    pub required: Option<Required>,
    /// Set the `ECO` and `Opening` tags to the opening the mainline
    /// reaches ([`crate::opening`]), replacing the first of each name and
    /// dropping repeats; a game that reaches no known position keeps its
    /// tags.
    pub openings: bool,
    /// Read the movetext leniently ([`ReplayOptions::lenient`]).
    pub lenient: bool,
    /// Correct the `Result` tag and the termination marker
    /// ([`result_fix`]); a game whose only errors are results that
    /// contradict each other or the board is written, corrected.
    pub fix_result: bool,
    /// Tags to add, each replacing a tag of its name.
    pub added: AddedTags,
    /// A comment with the FEN after every move (mainline and variations).
    pub fen_comments: bool,
}

/// Tags [`Converter::convert`] adds to each game written (after the
/// others, replacing any tag of the same name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AddedTags {
    /// `PlyCount`: the plies of the mainline (as pgn-extract `--plycount`).
    pub ply_count: bool,
    /// `FinalHash`: the final position's 64-bit Zobrist key, 16 hex digits
    /// (pgnkit's own keys; pgn-extract's `HashCode` is a 32-bit hash of
    /// its own, so the name differs).
    pub hash: bool,
    /// `FinalFEN`: the final position's FEN (en-passant square after every
    /// double step, as [`EpMode::Always`]).
    pub final_fen: bool,
}

impl AddedTags {
    /// Whether any tag is added.
    pub const fn any(self) -> bool {
        self.ply_count || self.hash || self.final_fen
    }

    /// The added tags of a game, from its replay: name and value.
    pub fn values(self, replay: &Replay) -> Vec<(&'static str, String)> {
        let mut tags = Vec::new();
        if self.ply_count {
            tags.push(("PlyCount", replay.plies.to_string()));
        }
        if let Some(position) = &replay.position {
            if self.hash {
                tags.push(("FinalHash", format!("{:016x}", position.zobrist_key())));
            }
            if self.final_fen {
                tags.push(("FinalFEN", position.fen(EpMode::Always)));
            }
        }
        tags
    }
}

/// A game's corrected result ([`result_fix`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultFix {
    /// The `Result` tag as read (`None`: absent or not a result).
    pub tag: Option<Outcome>,
    /// The termination marker as read.
    pub marker: Option<Outcome>,
    /// The result written, in the tag and as the marker.
    pub result: Outcome,
    /// Why: the end of the game on the board, or `None` when the result
    /// is the termination marker's.
    pub termination: Option<Termination>,
}

/// The correction of a game's result, when it needs one: the result the
/// board imposes (checkmate, stalemate, dead position, fivefold
/// repetition, 75-move rule: [`Termination::outcome`]), or else the
/// termination marker's, written to the `Result` tag and as the marker.
/// A missing tag or marker takes the other's value and needs no
/// correction; `None` when both agree with the result, or the mainline
/// was not played to its end.
///
/// # Examples
/// ```
/// use pgnkit::convert::result_fix;
/// use pgnkit::pgn::{Outcome, RawGame};
/// use pgnkit::replay::{ReplayOptions, replay};
///
/// let raw = RawGame::from_bytes(b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0");
/// let fix = result_fix(&replay(&raw, &ReplayOptions::default())).unwrap();
/// assert_eq!((fix.tag, fix.result), (Some(Outcome::WhiteWins), Outcome::BlackWins));
/// let raw = RawGame::from_bytes(b"[Result \"*\"]\n\n1. e4 e5 1/2-1/2");
/// let fix = result_fix(&replay(&raw, &ReplayOptions::default())).unwrap();
/// assert_eq!((fix.result, fix.termination), (Outcome::Draw, None));
/// ```
pub fn result_fix(replay: &Replay) -> Option<ResultFix> {
    let ended = replay.termination?;
    let (tag, marker) = (replay.result_tag, replay.result_marker);
    let termination = ended.outcome().map(|_| ended);
    let result = ended.outcome().or(marker)?;
    let written_tag = tag.or(marker);
    let written_marker = marker.or(tag);
    (written_tag != Some(result) || written_marker != Some(result)).then_some(ResultFix {
        tag,
        marker,
        result,
        termination,
    })
}

/// Whether the replay's only errors are results that contradict each
/// other or the board: what [`PgnOptions::fix_result`] corrects.
fn only_result_errors(replay: &Replay) -> bool {
    replay.status == Status::Invalid
        && replay.complete
        && replay.omitted.errors == 0
        && replay.diagnostics.iter().all(|d| {
            d.severity != Severity::Error
                || matches!(
                    d.kind,
                    DiagnosticKind::ResultMismatch { .. }
                        | DiagnosticKind::ResultContradicts { .. }
                )
        })
}

/// Sets the `Result` tag (the first; one is added when there is none)
/// to `result`.
fn set_result_tag(tags: &mut Vec<Tag<'_>>, result: Outcome) {
    let value = result.as_str().as_bytes();
    match tags.iter_mut().find(|t| t.is("Result")) {
        Some(tag) => tag.value = value,
        None => tags.push(Tag {
            name: b"Result",
            value,
            span: Span::default(),
        }),
    }
}

/// Replaces the tags named as an added tag by the added ones, which go
/// after the others.
fn add_tags<'t>(tags: &mut Vec<Tag<'t>>, added: &'t [(&'static str, String)]) {
    if added.is_empty() {
        return;
    }
    tags.retain(|t| !added.iter().any(|(name, _)| t.is(name)));
    tags.extend(added.iter().map(|(name, value)| Tag {
        name: name.as_bytes(),
        value: value.as_bytes(),
        span: Span::default(),
    }));
}

/// The added tags of a game, as `options` ask.
fn added_values(options: &PgnOptions, replay: &Replay) -> Vec<(&'static str, String)> {
    if options.added.any() {
        options.added.values(replay)
    } else {
        Vec::new()
    }
}

/// The correction of a game's result, if `options` ask for one.
fn fixed_result(options: &PgnOptions, replay: &Replay) -> Option<ResultFix> {
    if options.fix_result {
        result_fix(replay)
    } else {
        None
    }
}

/// Why the streaming converter ([`Converter::convert_streaming`]) did
/// not write a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// A move could not be played.
    #[error("{0}")]
    Play(PlayError),
    /// Export format writes something at another place than the input has
    /// it (a NAG or draw offer after a comment or variation of its move,
    /// which export format writes right after the move), or the game has a
    /// syntax error: written in order, the output would differ from the
    /// tree writer's. The span is the token.
    #[error("the game needs the tree writer")]
    Layout(Span),
}

/// One line being written: the mainline or an open variation.
#[derive(Debug, Clone)]
struct Frame {
    /// The ply of the line's next move, counted as move numbers count.
    next_ply: u64,
    /// Whether the line has a move yet.
    has_move: bool,
    /// Whether the next move number takes `...` (start of line, after a
    /// comment or variation written).
    interrupted: bool,
    /// Whether the last move has a variation (comments go to the next
    /// move then, not to this one).
    varied: bool,
    /// Whether a comment or variation was written after the last move.
    written_after: bool,
    /// Whether the last move has a draw offer.
    draw_offer: bool,
    /// Nothing of this line is written (a variation with `--no-variations`).
    muted: bool,
    /// Where this line's comments waiting for its next move start in the
    /// writer's list: those before are the enclosing lines'.
    pending_from: usize,
}

impl Frame {
    fn new(next_ply: u64, muted: bool, pending_from: usize) -> Frame {
        Frame {
            next_ply,
            has_move: false,
            interrupted: true,
            varied: false,
            written_after: false,
            draw_offer: false,
            muted,
            pending_from,
        }
    }
}

/// What [`Converter::convert`] made of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion<E = PlayError> {
    /// The game's replay: its verdict and diagnostics.
    pub replay: Replay,
    /// `None` when the replay found the game invalid (nothing was
    /// written); otherwise whether it was written.
    pub written: Option<Result<(), E>>,
}

/// The PGN converter, with buffers kept from game to game.
///
/// [`Converter::convert`] replays a game and writes it in export format
/// with its moves in another notation in the same pass: the replay
/// ([`Replayer::observe`]) shows it each move with the position it is
/// played in, and it writes the move as it is shown, without building the
/// game's tree. Its output is byte for byte that of [`write_pgn_tree`]
/// (which builds the tree).
///
/// # Examples
/// ```
/// use pgnkit::convert::{Converter, PgnOptions};
/// use pgnkit::pgn::{RawGame, TagSelection, WriteOptions};
/// use pgnkit::replay::Replayer;
/// use pgnkit::{LetterPolicy, Style};
///
/// let options = PgnOptions {
///     style: Style::DE_LAN,
///     write: WriteOptions { tags: TagSelection::None, ..WriteOptions::default() },
///     letters: LetterPolicy::Auto,
///     required: None,
///     openings: false,
///     lenient: false,
///     fix_result: false,
///     added: Default::default(),
///     fen_comments: false,
/// };
/// let raw = RawGame::from_bytes(b"1. e4 {best} (1. Nf3 $1 d5) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0");
/// let mut out = Vec::new();
/// let done = Converter::new().convert(&mut Replayer::new(), &raw, &options, &mut out);
/// assert_eq!(done.written, Some(Ok(())));
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "1. e2-e4 {best} (1. Sg1-f3 $1 d7-d5) 1... e7-e5 2. Dd1-h5 Sb8-c6 3. Lf1-c4\n\
///      Sg8-f6 4. Dh5xf7# 1-0\n\n"
/// );
/// ```
#[derive(Debug, Default)]
pub struct Converter {
    stack: Vec<Frame>,
    /// Comments waiting for the next move (or the end of their line):
    /// offset, length, kind.
    pending: Vec<(usize, usize, CommentKind)>,
    tags: SpareTags,
}

impl Converter {
    /// A converter with empty buffers.
    pub fn new() -> Converter {
        Converter::default()
    }

    /// Replays one game (without lints, reading piece letters as
    /// `options.letters` says) and, when it is valid, writes it to `out`
    /// in export format with its moves in `options.style`. The few games
    /// whose annotations the streaming writer cannot lay out in order are
    /// written through the tree ([`write_pgn_tree`]), with the same
    /// result. On an error nothing is written.
    ///
    /// The conversion's error is the first move (in the order written) in
    /// another notation than `options.required`, or a game too large for
    /// its tree ([`check_tree_budget`]).
    pub fn convert(
        &mut self,
        replayer: &mut Replayer,
        raw: &RawGame<'_>,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Conversion {
        let (done, start, opening) = self.stream(replayer, raw, options, out);
        let written = done.written.map(|written| match written {
            Ok(()) => Ok(()),
            Err(StreamError::Play(err)) => Err(err),
            Err(StreamError::Layout(_)) => {
                let start = start.unwrap_or_else(Position::startpos);
                check_tree_budget(raw, MAX_TREE_MOVES).and_then(|()| {
                    let added = added_values(options, &done.replay);
                    let parse = ParseOptions {
                        lenient: options.lenient,
                        ..ParseOptions::default()
                    };
                    let mut game = parse_game_with(raw, &parse);
                    if let Some(found) = opening {
                        set_opening_tags(&mut game.tags, found);
                    }
                    if let Some(fix) = fixed_result(options, &done.replay) {
                        set_result_tag(&mut game.tags, fix.result);
                        if let Some(marker) = &mut game.result {
                            marker.outcome = fix.result;
                        } else {
                            game.result = Some(crate::pgn::ResultMarker {
                                outcome: fix.result,
                                span: Span::default(),
                            });
                        }
                    }
                    add_tags(&mut game.tags, &added);
                    write_pgn_tree(&game, &start, options, out)
                })
            }
        });
        Conversion {
            replay: done.replay,
            written,
        }
    }

    /// The streaming pass of [`Converter::convert`], without the tree
    /// fallback: [`StreamError::Layout`] where the game needs it. On an
    /// error nothing is written.
    pub fn convert_streaming(
        &mut self,
        replayer: &mut Replayer,
        raw: &RawGame<'_>,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Conversion<StreamError> {
        self.stream(replayer, raw, options, out).0
    }

    fn stream(
        &mut self,
        replayer: &mut Replayer,
        raw: &RawGame<'_>,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Streamed {
        // The forms that cost a test per move (move numbers off, FEN
        // comments) have their own writer: the others' moves pay nothing.
        let forms = options.fen_comments || !options.write.move_numbers;
        // Without comments and NAGs written (`--bare`), the reader passes
        // over comments as `validate`'s does. NAGs keep them read: a draw
        // offer written as a comment, `{(=)}`, is written with the NAGs.
        let comments = options.write.comments || options.write.nags;
        match (forms, comments) {
            (true, true) => self.stream_with::<true, true>(replayer, raw, options, out),
            (true, false) => self.stream_with::<true, false>(replayer, raw, options, out),
            (false, true) => self.stream_with::<false, true>(replayer, raw, options, out),
            (false, false) => self.stream_with::<false, false>(replayer, raw, options, out),
        }
    }

    /// [`stream`](Self::stream) with a writer that has the per-move forms
    /// (`FORMS`) or not, and reads comments (`COMMENTS`) or not.
    fn stream_with<const FORMS: bool, const COMMENTS: bool>(
        &mut self,
        replayer: &mut Replayer,
        raw: &RawGame<'_>,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Streamed {
        self.stack.clear();
        self.pending.clear();
        let mut tags = self.tags.take();
        let base = out.len();
        let mut writer = Writer::<FORMS, COMMENTS> {
            source: raw.bytes,
            options,
            stack: &mut self.stack,
            pending: &mut self.pending,
            w: MovetextWriter::new(out, options.write.width),
            base,
            tags_end: base,
            tags: &mut tags,
            result: None,
            start: None,
            stopped: None,
            classifier: options.openings.then(Classifier::new),
            fen_after: None,
            fen_text: String::new(),
        };
        let replay_options = ReplayOptions {
            letters: options.letters,
            lints: false,
            lenient: options.lenient,
        };
        let replay = replayer.observe(raw, &replay_options, &mut writer);
        let writable =
            replay.status == Status::Valid || (options.fix_result && only_result_errors(&replay));
        let valid = writable && writer.start.is_some();
        let start = writer.start;
        let opening = writer.classifier.and_then(|c| c.opening());
        let written = valid.then(|| {
            let added = added_values(options, &replay);
            writer.finish(fixed_result(options, &replay), &added)
        });
        if written != Some(Ok(())) {
            out.truncate(base);
        }
        self.tags.keep(tags);
        (Conversion { replay, written }, start, opening)
    }
}

/// What the streaming pass made of a game: the conversion, the mainline's
/// start position and the opening found (for the tree writer's fallback).
type Streamed = (
    Conversion<StreamError>,
    Option<Position>,
    Option<&'static Opening>,
);

/// The converter's observer of one game's replay: writes each move shown
/// in the target notation, with what the options keep around it.
struct Writer<'c, 'a, const FORMS: bool, const COMMENTS: bool> {
    source: &'a [u8],
    options: &'c PgnOptions,
    stack: &'c mut Vec<Frame>,
    pending: &'c mut Vec<(usize, usize, CommentKind)>,
    /// Writes to the output, where the game starts at `base`: its tags as
    /// read, up to `tags_end` (written with the start position), then its
    /// movetext.
    w: MovetextWriter<'c>,
    base: usize,
    tags_end: usize,
    tags: &'c mut Vec<Tag<'a>>,
    result: Option<Outcome>,
    /// The mainline's start position, once set up.
    start: Option<Position>,
    /// Why the game cannot be written in order, once known.
    stopped: Option<StreamError>,
    /// Finds the opening, with [`PgnOptions::openings`].
    classifier: Option<Classifier>,
    /// The position after the last move written, whose FEN comment is
    /// still to be written ([`PgnOptions::fen_comments`]): after the
    /// move's NAGs and comments.
    fen_after: Option<Position>,
    /// The text of a FEN comment, one buffer for all of the game's.
    fen_text: String,
}

impl<'a, const FORMS: bool, const COMMENTS: bool> Writer<'_, 'a, FORMS, COMMENTS> {
    fn top(&mut self) -> &mut Frame {
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    /// The game needs the tree writer: export format writes the token at
    /// `span` at another place than the input has it.
    fn layout(&mut self, span: Span) {
        self.stopped.get_or_insert(StreamError::Layout(span));
    }

    /// Writes the FEN comment of the last move written, if one is due.
    #[inline]
    fn flush_fen(&mut self) {
        if FORMS {
            self.write_fen();
        }
    }

    fn write_fen(&mut self) {
        let Some(after) = self.fen_after.take() else {
            return;
        };
        self.fen_text.clear();
        // Writing to a string does not fail.
        let _ = after.write_fen(EpMode::Always, &mut self.fen_text);
        self.w.comment(self.fen_text.as_bytes(), CommentKind::Brace);
        if let Some(frame) = self.stack.last_mut() {
            frame.interrupted = true;
        }
    }

    /// Writes the comments waiting for a move (unless `muted`); whether
    /// any was written.
    #[inline]
    fn flush_pending(&mut self, muted: bool) -> bool {
        let from = self.stack.last().map_or(0, |frame| frame.pending_from);
        if self.pending.len() <= from {
            return false;
        }
        self.write_pending(from, muted)
    }

    /// [`flush_pending`](Self::flush_pending) with comments of the current
    /// line waiting, from `from` on.
    #[cold]
    fn write_pending(&mut self, from: usize, muted: bool) -> bool {
        let write = !muted && self.options.write.comments;
        if write {
            for &(at, len, kind) in &self.pending[from..] {
                self.w.comment(&self.source[at..at + len], kind);
            }
        }
        self.pending.truncate(from);
        write
    }

    /// Starts the mainline at `start`: the tag section is read, and is
    /// written before the movetext.
    #[inline(never)]
    fn begin(&mut self, start: &Position) {
        self.start = Some(*start);
        self.stack.push(Frame::new(start_ply(self.tags), false, 0));
        let tags = &*self.tags;
        let selection = self.options.write.tags;
        self.tags_end = self.w.lines(|out| write_tags(tags, None, selection, out));
    }

    /// Ends the movetext and rewrites the tags if the replay changed them;
    /// or why the game is not written.
    fn finish(
        mut self,
        fix: Option<ResultFix>,
        added: &[(&'static str, String)],
    ) -> Result<(), StreamError> {
        if let Some(err) = self.stopped.take() {
            return Err(err);
        }
        self.flush_fen();
        self.flush_pending(false);
        // The tags were written as read, and with no result to fill in a
        // missing `Result` tag: they change with an opening found, a
        // result fixed or tags added, and a missing `Result` tag changes
        // with the result the movetext ends with.
        let mut changed = !added.is_empty()
            || (self.result.is_some() && !self.tags.iter().any(|t| t.is("Result")));
        if let Some(found) = self.classifier.and_then(|c| c.opening()) {
            set_opening_tags(self.tags, found);
            changed = true;
        }
        if let Some(fix) = fix {
            set_result_tag(self.tags, fix.result);
            self.result = Some(fix.result);
            changed = true;
        }
        // Added tags live no longer than this call: the list with them is
        // a copy (the game's own list goes back to the spare room).
        let mut with_added: Vec<Tag<'_>>;
        let tags: &[Tag<'_>] = if added.is_empty() {
            self.tags
        } else {
            with_added = self.tags.clone();
            add_tags(&mut with_added, added);
            &with_added
        };
        let write = &self.options.write;
        let out = self.w.finish_with(
            write.result.then(|| result_text(tags, self.result)),
            write.blank_line,
        );
        if changed {
            let mut text = Vec::new();
            write_tags(tags, self.result, write.tags, &mut text);
            out.splice(self.base..self.tags_end, text);
        }
        Ok(())
    }
}

impl<'a, const FORMS: bool, const COMMENTS: bool> Observer<'a> for Writer<'_, 'a, FORMS, COMMENTS> {
    const COMMENTS: bool = COMMENTS;

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.tags.push(Tag { name, value, span });
    }

    fn mainline_ply(&mut self, ply: MainlinePly<'_>) {
        if let Some(classifier) = &mut self.classifier {
            classifier.push(ply.ply, ply.position);
        }
        if ply.ply == 0 {
            self.begin(ply.position);
        }
    }

    fn played(&mut self, before: &Position, played: Played, token: &MoveToken, span: Span) {
        if self.stopped.is_some() || self.stack.is_empty() {
            return;
        }
        if let (Some(required), Played::Move(m)) = (self.options.required, played)
            && let Err(kind) = required.check(token, before, m)
        {
            self.stopped = Some(StreamError::Play(PlayError { kind, span }));
            return;
        }
        self.flush_fen();
        let muted = self.top().muted;
        let before_written = self.flush_pending(muted);
        let style = self.options.style;
        let last = self.stack.len() - 1;
        let frame = &mut self.stack[last];
        if !muted {
            if !FORMS || self.options.write.move_numbers {
                self.w
                    .number(frame.next_ply, frame.interrupted || before_written);
            }
            match played {
                Played::Move(m) => self.w.move_text(&style.text_resolved(before, m, token)),
                Played::Null => self.w.token(b"--"),
            }
            if FORMS && self.options.fen_comments {
                let mut after = *before;
                match played {
                    Played::Move(m) => after.play_unchecked(m),
                    Played::Null => after.play_null(),
                }
                self.fen_after = Some(after);
            }
        }
        frame.next_ply += 1;
        frame.has_move = true;
        frame.interrupted = false;
        frame.varied = false;
        frame.written_after = false;
        frame.draw_offer = false;
    }

    fn nag(&mut self, nag: u8, span: Span) {
        if self.stack.is_empty() {
            return;
        }
        let nags = self.options.write.nags;
        let frame = self.top();
        if !frame.muted && nags {
            if frame.written_after || frame.draw_offer {
                return self.layout(span);
            }
            self.w.nag(nag);
        }
    }

    fn draw_offer(&mut self, span: Span) {
        if self.stack.is_empty() {
            return;
        }
        let nags = self.options.write.nags;
        let frame = self.top();
        if !frame.draw_offer {
            frame.draw_offer = true;
            if !frame.muted && nags {
                if frame.written_after {
                    return self.layout(span);
                }
                self.w.token(DRAW_OFFER);
            }
        }
    }

    fn comment(&mut self, comment: Comment<'a>) {
        let comments = self.options.write.comments;
        let pending = self.pending.len();
        if let Some(frame) = self.stack.last_mut()
            && frame.has_move
            && !frame.varied
            && pending == frame.pending_from
        {
            if !frame.muted && comments {
                frame.interrupted = true;
                frame.written_after = true;
                self.w.comment(comment.text, comment.kind);
            }
        } else {
            let at = offset_in(self.source, comment.text);
            self.pending.push((at, comment.text.len(), comment.kind));
        }
    }

    fn begin_variation(&mut self, span: Span) {
        if self.stack.is_empty() {
            return;
        }
        if !self.top().has_move {
            // The move it is an alternative to was not played (an invalid
            // game, which is not written).
            self.layout(span);
        }
        self.flush_fen();
        let variations = self.options.write.variations;
        let frame = self.top();
        frame.varied = true;
        let written = !frame.muted && variations;
        if written {
            frame.interrupted = true;
            frame.written_after = true;
        }
        // Comments waiting for this line's next move (between two of its
        // variations) stay its own.
        let child = Frame::new(
            frame.next_ply.saturating_sub(1),
            !written,
            self.pending.len(),
        );
        if written {
            self.w.open_variation();
        }
        self.stack.push(child);
    }

    fn end_variation(&mut self, _span: Span) {
        if self.stack.len() < 2 {
            return;
        }
        self.flush_fen();
        let muted = self.top().muted;
        self.flush_pending(muted);
        if !muted {
            self.w.close_variation();
        }
        self.stack.pop();
    }

    fn outcome(&mut self, outcome: Outcome, _span: Span) {
        self.result = Some(outcome);
    }
}

/// The offset of `part` inside `whole`, when it is a sub-slice.
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// Writes a game in export format with its moves in `options.style`, from
/// its tree: [`play_game`], then [`write_game_with`]. What
/// [`Converter::convert`] falls back to; it writes the same bytes. On an
/// error nothing is written.
///
/// # Errors
/// The first move that cannot be played ([`play_game`]).
pub fn write_pgn_tree(
    game: &Game<'_>,
    start: &Position,
    options: &PgnOptions,
    out: &mut Vec<u8>,
) -> Result<(), PlayError> {
    let line = play_game(game, start, options.letters, options.required)?;
    // Texts in the order written: the tree walk's order.
    let mut texts: Vec<(usize, Vec<u8>)> = Vec::new();
    collect(&line, options.style, &mut texts);
    let mut move_text = |node: &MoveNode<'_>| -> Cow<'static, [u8]> {
        match texts.binary_search_by_key(&node.span.start, |(at, _)| *at) {
            Ok(i) => Cow::Owned(std::mem::take(&mut texts[i].1)),
            Err(_) => Cow::Owned(node.text.to_vec()),
        }
    };
    // Writing to a Vec cannot fail.
    if options.fen_comments {
        let mut fens: Vec<(usize, Vec<u8>)> = Vec::new();
        collect_fens(&line, &mut fens);
        let mut note = |node: &MoveNode<'_>| -> Option<Cow<'static, [u8]>> {
            let i = fens
                .binary_search_by_key(&node.span.start, |(at, _)| *at)
                .ok()?;
            Some(Cow::Owned(std::mem::take(&mut fens[i].1)))
        };
        let _ = write_game_noted(game, out, &options.write, &mut move_text, &mut note);
    } else {
        let _ = write_game_with(game, out, &options.write, &mut move_text);
    }
    Ok(())
}

/// The FEN after each move of a line and its variations, by token
/// offset ([`PgnOptions::fen_comments`]).
fn collect_fens(line: &PlayedLine<'_, '_>, out: &mut Vec<(usize, Vec<u8>)>) {
    for m in &line.moves {
        out.push((
            m.node.span.start,
            m.after().fen(EpMode::Always).into_bytes(),
        ));
        for variation in &m.variations {
            collect_fens(variation, out);
        }
    }
}

/// The converted texts of a line and its variations, by token offset.
/// Null moves are `--` in every notation: UCI's `0000` would read as a
/// move number in PGN.
fn collect(line: &PlayedLine<'_, '_>, style: Style, out: &mut Vec<(usize, Vec<u8>)>) {
    for m in &line.moves {
        let text = match m.played {
            Played::Move(_) => m.text(style).into_bytes(),
            Played::Null => b"--".to_vec(),
        };
        out.push((m.node.span.start, text));
        for variation in &m.variations {
            collect(variation, style, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{RawGame, parse_game};

    fn texts(pgn: &[u8], style: Style, required: Option<Required>) -> Result<String, PlayError> {
        let game = parse_game(&RawGame::from_bytes(pgn));
        let line = play_game(&game, &Position::startpos(), LetterPolicy::Auto, required)?;
        Ok(line
            .moves
            .iter()
            .map(|m| m.text(style))
            .collect::<Vec<_>>()
            .join(" "))
    }

    #[test]
    fn every_notation_is_read_and_written() {
        let cases: &[(&[u8], Style, &str)] = &[
            (
                b"e4 d5 exd5 Qxd5 Nc3 Qa5 d4",
                Style::DE_LAN,
                "e2-e4 d7-d5 e4xd5 Dd8xd5 Sb1-c3 Dd5-a5 d2-d4",
            ),
            (
                b"e2-e4 d7-d5 e4xd5 Dd8xd5 Sb1-c3 Dd5-a5",
                Style::SAN,
                "e4 d5 exd5 Qxd5 Nc3 Qa5",
            ),
            (
                b"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
                Style::SAN,
                "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O",
            ),
            (
                b"e4 e5 Nf3 Nc6 Bc4 Nf6 O-O",
                Style::UCI,
                "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
            ),
            (b"f3 e5 g4 Qh4", Style::SAN, "f3 e5 g4 Qh4#"),
            (b"Sf3 Sf6 g3 --", Style::FIGURINE, "♘f3 ♘f6 g3 --"),
        ];
        for &(pgn, style, expected) in cases {
            assert_eq!(
                texts(pgn, style, None).as_deref(),
                Ok(expected),
                "{}",
                String::from_utf8_lossy(pgn)
            );
        }
    }

    /// Each required notation reads what pgnkit writes in it, and the long
    /// algebraic of other programs: (start, moves, required, SAN or error).
    #[test]
    fn required_notation_reads_what_is_written_in_it() {
        const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        const QUEENS: &str = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        const LONG: &str = "move written in long algebraic, expected short algebraic";
        const SHORT_NOT_UCI: &str = "move written in short algebraic, expected UCI";
        const LONG_NOT_UCI: &str = "move written in long algebraic, expected UCI";
        const OPENING: &str = "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O";
        use Required::{Long, San, Uci};
        #[rustfmt::skip]
        let cases: &[(&str, &str, Required, Result<&str, &str>)] = &[
            (START, "e2-e4 e7-e5 Ng1-f3 Nb8-c6 Bf1-c4 Ng8-f6 O-O", Long, Ok(OPENING)),
            (START, "e2-e4 e7-e5 Sg1-f3 Sb8-c6 Lf1-c4 Sg8-f6 0-0", Long, Ok(OPENING)),
            (START, "e2-e4 e7-e5 g1-f3 b8-c6 f1-c4 g8-f6 e1-g1", Long, Ok(OPENING)),
            (START, "e2xe4 e7-e5 Ng1f3 b8xc6 Bf1-c4 g8-f6 Ke1-g1", Long, Ok(OPENING)),
            (START, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", Uci, Ok(OPENING)),
            (START, "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O", San, Ok(OPENING)),
            (START, "e4 e5 \u{2658}f3 \u{265e}c6 \u{2657}c4 \u{265e}f6 O-O", San, Ok(OPENING)),
            (START, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 O-O", Uci, Err(SHORT_NOT_UCI)),
            (START, "e2-e4", Uci, Err(LONG_NOT_UCI)),
            (START, "e4 e5 g1-f3", San, Err(LONG)),
            (START, "e4 e5 Ng1f3", San, Err(LONG)),
            // Full-square disambiguation is SAN where SAN needs it.
            (QUEENS, "Qa1c3 Kd7 Q1b2", San, Ok("Qa1c3 Kd7 Q1b2")),
            (QUEENS, "Qa1xc3 Kd7", San, Ok("Qa1c3 Kd7")),
            (QUEENS, "Da1c3 Kd7 D1b2", San, Ok("Qa1c3 Kd7 Q1b2")),
            (QUEENS, "\u{2655}a1c3 \u{265a}d7", San, Ok("Qa1c3 Kd7")),
            (QUEENS, "Qa1-c3 Ke8-d7 Qc1-b2", Long, Ok("Qa1c3 Kd7 Q1b2")),
            (QUEENS, "Qa1c3 Kd7 Qc1b2", San, Err(LONG)),
            (QUEENS, "Qa3b3", San, Err(LONG)),
        ];
        for &(fen, pgn, required, expected) in cases {
            let game = parse_game(&RawGame::from_bytes(pgn.as_bytes()));
            let start = Position::from_fen(fen).unwrap();
            let got = play_game(&game, &start, LetterPolicy::Auto, Some(required))
                .map(|line| {
                    let texts: Vec<String> =
                        line.moves.iter().map(|m| m.text(Style::SAN)).collect();
                    texts.join(" ")
                })
                .map_err(|e| e.to_string());
            assert_eq!(got.as_deref().map_err(String::as_str), expected, "{pgn}");
        }
    }

    #[test]
    fn errors_name_the_move() {
        let err = texts(b"e4 e5 Ke3", Style::SAN, None).unwrap_err();
        assert_eq!(err.span, Span::new(6, 9));
        assert!(matches!(err.kind, PlayErrorKind::Illegal(_)));
        let err = texts(b"e4 e7-e5", Style::SAN, Some(Required::San)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move written in long algebraic, expected short algebraic"
        );
        assert_eq!(
            texts(b"e2e4 e7e5", Style::SAN, Some(Required::Uci)).as_deref(),
            Ok("e4 e5")
        );
    }
}
