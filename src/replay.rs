//! The replay engine: a framed game played through the rules core.
//!
//! [`Replayer::replay`] reads one game's tokens straight from the PGN
//! grammar ([`Tokens`]), without building the game tree: tags set up the
//! start position (`[FEN]`, `[SetUp]`, `[Variant]`), every move token of
//! the mainline *and* of every variation is resolved against its position
//! and played, and at the end of the mainline the board's termination is
//! compared with the recorded result. Everything found goes into the
//! returned [`Replay`] as [`Diagnostic`]s with the span of the offending
//! token; nothing is printed here.
//!
//! Rules of the replay:
//! - The mainline stops at its first illegal (or unparsable) move; later
//!   mainline moves are not judged. A variation replaces the move it follows
//!   and is replayed from the position before that move; an error inside a
//!   variation ends that variation only.
//! - Null moves (`--`, `Z0`, …) are accepted in variations and are a
//!   warning in the mainline, which goes on after them. A null move while in
//!   check is illegal.
//! - Lints (optional, [`ReplayOptions::lints`]) are warnings. Spelling
//!   lints that concern the whole game's style (long algebraic, German
//!   letters, `0-0`, `e8Q`, `e.p.` …) are reported once per game, at their
//!   first occurrence, with a count; check, mate, capture and disambiguation
//!   marks are reported at every move; move numbers that do not match the
//!   move are reported too.
//! - Result checks (only when the whole mainline replayed): a `Result` tag
//!   that disagrees with the termination marker, a decisive result on a
//!   drawn board (stalemate, dead position, fivefold repetition, 75-move
//!   rule), a loss or a draw recorded on a board where the winner gave mate
//!   are errors; `*` on a finished board and a missing termination marker
//!   are warnings. A draw or a resignation on an unfinished board is fine,
//!   as is a decisive result where a draw could only be claimed.
//!
//! # Examples
//! ```
//! use pgnkit::pgn::RawGame;
//! use pgnkit::replay::{ReplayOptions, Status, Termination, replay};
//! use pgnkit::{Color, EpMode};
//!
//! let game = RawGame::from_bytes(b"1. f3 e5 2. g4 Qh4# 0-1");
//! let r = replay(&game, &ReplayOptions::default());
//! assert_eq!(r.status, Status::Valid);
//! assert_eq!(r.plies, 4);
//! assert_eq!(r.termination, Some(Termination::Checkmate { winner: Color::Black }));
//!
//! let game = RawGame::from_bytes(b"1. e4 e5 2. Ke3 *");
//! let r = replay(&game, &ReplayOptions::default());
//! assert_eq!(r.status, Status::Invalid);
//! assert_eq!(r.plies, 2); // 1. e4 e5 played; 2. Ke3 is not
//! assert_eq!(r.diagnostics[0].message(), "illegal move: no king can move to e3");
//! ```

use std::fmt;

use crate::{
    attacks,
    bitboard::Bitboard,
    color::Color,
    fen::{EpMode, FenError, FenField},
    moves::Move,
    notation::{
        LetterPolicy, Letters, Lint, Lints, MoveKind, MoveToken, Mover, Notation,
        ParseMoveTokenError, ResolveError, Resolved, Spelling, Suffix,
    },
    pgn::{Outcome, ParsePgnErrorKind, RawGame, Span, TokenKind, Tokens, unescape},
    position::Position,
    role::Role,
    square::{File, Rank, Square},
};

/// The deepest variation nesting the replay follows; deeper variations are
/// reported and skipped.
pub const MAX_DEPTH: usize = 256;

/// How to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReplayOptions {
    /// How to read the letter `B` (bishop or German Bauer).
    pub letters: LetterPolicy,
    /// Whether to compute lints (non-standard notation, wrong or missing
    /// `+`/`#`/`x`, move numbers). They cost a little time on every move;
    /// leave them off when warnings are not wanted.
    pub lints: bool,
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Information: the game was skipped (unsupported variant).
    Note,
    /// Legal, but not written the standard way, or a doubtful result.
    Warning,
    /// Not valid PGN or not legal chess.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended on the board (at the end of its mainline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate (dead position by material).
    InsufficientMaterial,
    /// The same position for the fifth time: the game is drawn.
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move: drawn.
    SeventyFiveMoves,
    /// The same position for the third time: a draw may be claimed.
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move: a draw may be
    /// claimed.
    FiftyMoves,
    /// None of the above: the game could go on.
    Unfinished,
}

impl Termination {
    /// A lower-case name (`checkmate`, `stalemate`, `insufficient_material`,
    /// `fivefold_repetition`, `seventyfive_moves`, `threefold_repetition`,
    /// `fifty_moves`, `unfinished`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate { .. } => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::Unfinished => "unfinished",
        }
    }

    /// Whether the game is over by rule (no claim needed).
    pub const fn is_game_over(self) -> bool {
        !matches!(
            self,
            Termination::ThreefoldRepetition | Termination::FiftyMoves | Termination::Unfinished
        )
    }

    /// The result the rules impose, if the game is over.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Termination::Checkmate {
                winner: Color::White,
            } => Some(Outcome::WhiteWins),
            Termination::Checkmate {
                winner: Color::Black,
            } => Some(Outcome::BlackWins),
            Termination::Stalemate
            | Termination::InsufficientMaterial
            | Termination::FivefoldRepetition
            | Termination::SeventyFiveMoves => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Checkmate { winner } => write!(f, "checkmate by {winner}"),
            Termination::Stalemate => f.write_str("stalemate"),
            Termination::InsufficientMaterial => {
                f.write_str("dead position (insufficient material)")
            }
            Termination::FivefoldRepetition => f.write_str("fivefold repetition"),
            Termination::SeventyFiveMoves => f.write_str("75-move rule"),
            Termination::ThreefoldRepetition => f.write_str("threefold repetition (claimable)"),
            Termination::FiftyMoves => f.write_str("50-move rule (claimable)"),
            Termination::Unfinished => f.write_str("unfinished"),
        }
    }
}

/// The move a diagnostic is about: its number and who played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ply {
    /// The full-move number (`23` in `23...Nf6`).
    pub fullmove: u32,
    /// The side that played (or tried to play) the move.
    pub color: Color,
}

impl Ply {
    /// The ply of the move about to be played in `pos`.
    pub fn of(pos: &Position) -> Ply {
        Ply {
            fullmove: pos.fullmoves(),
            color: pos.turn(),
        }
    }
}

impl fmt::Display for Ply {
    /// `23.` for White, `23...` for Black.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.fullmove, self.color.fold(".", "..."))
    }
}

/// What a diagnostic says.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// PGN syntax (including a token that is no move in any spelling).
    Syntax(ParsePgnErrorKind),
    /// A move token that is not a legal move (or is ambiguous).
    Illegal(ResolveError),
    /// A null move while in check.
    NullInCheck,
    /// A null move in the mainline (the game goes on after it).
    NullMove,
    /// The `[FEN]` tag is not a usable position.
    BadFen(FenError),
    /// The `[FEN]` tag's full-move number is 0; read as 1.
    FullmoveZero,
    /// `[SetUp "1"]` without a `[FEN]` tag: replayed from the start position.
    SetUpWithoutFen,
    /// A `[Variant]` pgnkit does not play: the game is skipped.
    UnsupportedVariant(String),
    /// A notation lint. `count` is the number of moves of the game with
    /// this lint, for lints reported once per game (else 1).
    Lint {
        /// Which lint.
        lint: Lint,
        /// How many moves of the game have it.
        count: u32,
    },
    /// A move number that does not match the move it precedes.
    MoveNumber {
        /// The number written.
        written: u32,
        /// The full-move number of the move.
        expected: u32,
    },
    /// The `Result` tag and the termination marker disagree.
    ResultMismatch {
        /// The `Result` tag.
        tag: Outcome,
        /// The termination marker.
        marker: Outcome,
    },
    /// A `Result` tag whose value is no result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    BadResultTag(String),
    /// No termination marker at the end of the movetext.
    MissingResult,
    /// The recorded result contradicts how the game ended on the board.
    ResultContradicts {
        /// The recorded result (marker, else tag).
        recorded: Outcome,
        /// How the game ended on the board.
        termination: Termination,
    },
    /// `*` although the game is over on the board.
    UnknownResultOnFinishedBoard(Termination),
}

impl DiagnosticKind {
    /// A short stable name for machine-readable output (`syntax`,
    /// `illegal`, `ambiguous`, `null-in-check`, `null-move`, `bad-fen`,
    /// `setup-without-fen`, `unsupported-variant`, `lint`, `move-number`,
    /// `result-mismatch`, `missing-result`, `result-contradicts`,
    /// `unknown-result`).
    pub const fn name(&self) -> &'static str {
        match self {
            DiagnosticKind::Syntax(ParsePgnErrorKind::BadMove(_)) => "bad-move",
            DiagnosticKind::Syntax(_) => "syntax",
            DiagnosticKind::Illegal(ResolveError::Ambiguous { .. }) => "ambiguous",
            DiagnosticKind::Illegal(_) => "illegal",
            DiagnosticKind::NullInCheck => "null-in-check",
            DiagnosticKind::NullMove => "null-move",
            DiagnosticKind::BadFen(_) => "bad-fen",
            DiagnosticKind::SetUpWithoutFen => "setup-without-fen",
            DiagnosticKind::FullmoveZero => "fen-fullmove-zero",
            DiagnosticKind::UnsupportedVariant(_) => "unsupported-variant",
            DiagnosticKind::Lint { .. } => "lint",
            DiagnosticKind::MoveNumber { .. } => "move-number",
            DiagnosticKind::ResultMismatch { .. } => "result-mismatch",
            DiagnosticKind::BadResultTag(_) => "bad-result-tag",
            DiagnosticKind::MissingResult => "missing-result",
            DiagnosticKind::ResultContradicts { .. } => "result-contradicts",
            DiagnosticKind::UnknownResultOnFinishedBoard(_) => "unknown-result",
        }
    }

    /// Whether this kind is about the rules (moves, positions, results)
    /// rather than PGN syntax or style.
    pub const fn is_rules(&self) -> bool {
        matches!(
            self,
            DiagnosticKind::Illegal(_)
                | DiagnosticKind::NullInCheck
                | DiagnosticKind::BadFen(_)
                | DiagnosticKind::Syntax(ParsePgnErrorKind::BadMove(_))
                | DiagnosticKind::ResultMismatch { .. }
                | DiagnosticKind::ResultContradicts { .. }
        )
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagnosticKind::Syntax(kind) => kind.fmt(f),
            DiagnosticKind::Illegal(err) => err.fmt(f),
            DiagnosticKind::NullInCheck => f.write_str("illegal move: null move while in check"),
            DiagnosticKind::NullMove => f.write_str("null move in the mainline"),
            DiagnosticKind::BadFen(err) => write!(f, "FEN tag: {err}"),
            DiagnosticKind::FullmoveZero => f.write_str("FEN tag: full-move number 0, read as 1"),
            DiagnosticKind::SetUpWithoutFen => {
                f.write_str("SetUp \"1\" without a FEN tag; replayed from the start position")
            }
            DiagnosticKind::UnsupportedVariant(name) => {
                write!(f, "unsupported variant \"{name}\"; game skipped")
            }
            DiagnosticKind::Lint { lint, count } if *count > 1 => {
                write!(f, "{lint} (first of {count} moves)")
            }
            DiagnosticKind::Lint { lint, .. } => lint.fmt(f),
            DiagnosticKind::MoveNumber { written, expected } => {
                write!(f, "move number {written} before move {expected}")
            }
            DiagnosticKind::ResultMismatch { tag, marker } => {
                write!(
                    f,
                    "Result tag \"{tag}\" but the movetext ends with {marker}"
                )
            }
            DiagnosticKind::BadResultTag(value) => {
                write!(
                    f,
                    "Result tag \"{value}\" is not a result (1-0, 0-1, 1/2-1/2, *)"
                )
            }
            DiagnosticKind::MissingResult => f.write_str("no game termination marker"),
            DiagnosticKind::ResultContradicts {
                recorded,
                termination: Termination::Checkmate { winner },
            } => write!(
                f,
                "result {recorded} contradicts the board: {winner} gave checkmate"
            ),
            DiagnosticKind::ResultContradicts {
                recorded,
                termination,
            } => write!(
                f,
                "result {recorded} contradicts the board: the game is drawn by {termination}"
            ),
            DiagnosticKind::UnknownResultOnFinishedBoard(termination) => {
                write!(f, "result * but the game is over: {termination}")
            }
        }
    }
}

/// One finding in a game, with where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// What.
    pub kind: DiagnosticKind,
    /// The offending token (a move, a tag pair, the result marker …),
    /// relative to the game's text.
    pub span: Span,
    /// The move concerned, if any.
    pub ply: Option<Ply>,
    /// Whether the token is inside a variation.
    pub in_variation: bool,
    /// The position before the move concerned, if any.
    pub before: Option<Box<Position>>,
}

impl Diagnostic {
    /// The message (without location).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }

    /// The FEN of the position before the move, if the diagnostic is about
    /// a move.
    pub fn fen_before(&self) -> Option<String> {
        self.before.as_ref().map(|pos| pos.fen(EpMode::Always))
    }
}

/// The verdict on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// No errors (warnings allowed).
    Valid,
    /// An illegal move, an unusable FEN tag or a result that contradicts
    /// the board or itself.
    Invalid,
    /// PGN syntax errors, but every move that could be read is legal.
    SyntaxError,
    /// A variant pgnkit does not play; the moves were not checked.
    Unsupported,
}

impl Status {
    /// `valid`, `invalid`, `syntax-error` or `unsupported`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Invalid => "invalid",
            Status::SyntaxError => "syntax-error",
            Status::Unsupported => "unsupported",
        }
    }
}

/// Everything the replay found out about one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The verdict.
    pub status: Status,
    /// Mainline plies played (null moves included), up to the first
    /// illegal one.
    pub plies: u32,
    /// Whether the whole mainline was played (no illegal or unreadable
    /// move in it).
    pub complete: bool,
    /// The position after the legal mainline plies; `None` when no start
    /// position could be set up (bad FEN, unsupported variant).
    pub position: Option<Position>,
    /// How the game ended on the board, when the whole mainline was played.
    pub termination: Option<Termination>,
    /// The `Result` tag, if present and readable.
    pub result_tag: Option<Outcome>,
    /// The termination marker, if present.
    pub result_marker: Option<Outcome>,
    /// Where the `White` tag's value is, if present.
    pub white: Option<Span>,
    /// Where the `Black` tag's value is, if present.
    pub black: Option<Span>,
    /// Every finding, in input order (result checks last).
    pub diagnostics: Vec<Diagnostic>,
}

impl Replay {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Whether any diagnostic is a warning.
    pub fn has_warnings(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning)
    }
}

/// Replays one game with fresh buffers (see [`Replayer`] to reuse them).
pub fn replay(raw: &RawGame<'_>, options: &ReplayOptions) -> Replay {
    Replayer::new().replay(raw, options)
}

/// One line being replayed: the mainline or an open variation.
#[derive(Debug, Clone)]
struct Frame {
    /// The position now.
    pos: Position,
    /// The position before the line's last move (a variation opened now
    /// starts there).
    prev: Position,
    /// Whether the line has a move yet.
    has_move: bool,
    /// Whether the line stopped at an illegal move (or was opened where no
    /// start position is known).
    dead: bool,
    /// Move tokens seen since the line stopped.
    since_dead: u32,
    /// Where the variation was opened.
    open: Span,
}

/// The replay engine, with buffers kept from game to game.
#[derive(Debug, Default)]
pub struct Replayer {
    stack: Vec<Frame>,
    /// Keys of the mainline positions since the last irreversible move.
    history: Vec<u64>,
    /// The standard start position, computed once.
    startpos: Option<Position>,
}

/// Tags the replay reads.
#[derive(Default)]
struct Tags<'a> {
    fen: Option<(&'a [u8], Span)>,
    setup: Option<&'a [u8]>,
    variant: Option<&'a [u8]>,
    result: Option<(&'a [u8], Span)>,
}

/// What a variant tag asks for.
enum Variant {
    Standard,
    Chess960,
    Unsupported,
}

fn variant(value: &[u8]) -> Variant {
    let v = value.trim_ascii().to_ascii_lowercase();
    match &v[..] {
        b"" | b"standard" | b"chess" | b"classical" | b"normal" | b"from position" => {
            Variant::Standard
        }
        b"chess960" | b"chess 960" | b"fischerandom" | b"fischerrandom" | b"fischer random"
        | b"960" => Variant::Chess960,
        _ if v.starts_with(b"wild/") => Variant::Standard,
        _ => Variant::Unsupported,
    }
}

/// The offset of `part` inside `whole`, when it is a sub-slice.
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// Spelling lints reported once per game.
const fn once_per_game(lint: Lint) -> bool {
    !matches!(
        lint,
        Lint::CheckMissing
            | Lint::CheckNotGiven
            | Lint::MateMissing
            | Lint::MateNotGiven
            | Lint::CaptureMissing
            | Lint::CaptureNotMade
            | Lint::OverSpecified
    )
}

/// A position with the move passed to the opponent, or `None` when the
/// side to move is in check.
fn null_move(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let mut setup = pos.to_setup();
    setup.turn = !setup.turn;
    setup.ep_square = None;
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if setup.turn == Color::White {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    let mut next = Position::from_setup(&setup).ok()?;
    next.set_chess960(pos.is_chess960());
    Some(next)
}

/// The replay of one game in progress.
struct Run<'r, 'a> {
    source: &'a [u8],
    options: ReplayOptions,
    stack: &'r mut Vec<Frame>,
    history: &'r mut Vec<u64>,
    startpos: &'r Position,
    replay: Replay,
    /// Per-game lints: index of their diagnostic, by lint.
    once: [Option<usize>; Lint::ALL.len()],
    /// Where the termination marker is.
    result_span: Span,
    /// The alphabet the game's tokens have shown so far (for `--lang auto`).
    alphabet: LetterPolicy,
    /// Whether each line keeps the position before its last move.
    keep_prev: bool,
    /// The mainline's start position is set up.
    ready: bool,
    /// Called with every mainline position (start position included).
    visit: Option<&'r mut dyn FnMut(&Position)>,
}

impl Replayer {
    /// A replayer with empty buffers.
    pub fn new() -> Replayer {
        Replayer::default()
    }

    /// Replays one framed game.
    ///
    /// Never fails: every problem is a [`Diagnostic`] in the result.
    pub fn replay(&mut self, raw: &RawGame<'_>, options: &ReplayOptions) -> Replay {
        self.replay_inner(raw, options, None)
    }

    /// Like [`replay`](Self::replay), and calls `visit` with every mainline
    /// position reached: the start position, then the position after each
    /// legal mainline ply.
    pub fn replay_visiting(
        &mut self,
        raw: &RawGame<'_>,
        options: &ReplayOptions,
        visit: &mut dyn FnMut(&Position),
    ) -> Replay {
        self.replay_inner(raw, options, Some(visit))
    }

    fn replay_inner<'r>(
        &'r mut self,
        raw: &RawGame<'_>,
        options: &ReplayOptions,
        visit: Option<&'r mut dyn FnMut(&Position)>,
    ) -> Replay {
        self.stack.clear();
        self.history.clear();
        let startpos = self.startpos.get_or_insert_with(Position::startpos);
        let mut run = Run {
            source: raw.bytes,
            options: *options,
            stack: &mut self.stack,
            history: &mut self.history,
            startpos,
            replay: Replay {
                status: Status::Valid,
                plies: 0,
                complete: false,
                position: None,
                termination: None,
                result_tag: None,
                result_marker: None,
                white: None,
                black: None,
                diagnostics: Vec::new(),
            },
            once: [None; Lint::ALL.len()],
            result_span: Span::default(),
            ready: false,
            alphabet: LetterPolicy::Auto,
            keep_prev: true,
            visit,
        };
        run.run();
        run.finish()
    }
}

impl<'a> Run<'_, 'a> {
    fn push(&mut self, severity: Severity, kind: DiagnosticKind, span: Span) {
        let in_variation = self.stack.len() > 1;
        self.replay.diagnostics.push(Diagnostic {
            severity,
            kind,
            span,
            ply: None,
            in_variation,
            before: None,
        });
    }

    fn push_move(
        &mut self,
        severity: Severity,
        kind: DiagnosticKind,
        span: Span,
        before: &Position,
    ) {
        let in_variation = self.stack.len() > 1;
        self.replay.diagnostics.push(Diagnostic {
            severity,
            kind,
            span,
            ply: Some(Ply::of(before)),
            in_variation,
            before: Some(Box::new(before.clone())),
        });
    }

    fn syntax(&mut self, kind: ParsePgnErrorKind, span: Span) {
        self.push(Severity::Error, DiagnosticKind::Syntax(kind), span);
    }

    fn run(&mut self) {
        let source = self.source;
        if let Some(at) = memchr::memchr(0, source) {
            self.syntax(ParsePgnErrorKind::BinaryData, Span::new(at, at + 1));
            return;
        }
        let mut tokens = Tokens::new(source);
        let mut tags = Tags::default();
        let mut started = false;
        let mut after_result = false;
        // Without lints, move numbers need no look and comments no token.
        let lints = self.options.lints;
        // The position before each move is kept only where it can be used:
        // for a variation (a game without `(` has none) or for lints.
        self.keep_prev = lints || memchr::memchr(b'(', source).is_some();
        loop {
            let token = if lints {
                tokens.next()
            } else {
                tokens.next_significant()
            };
            let Some(token) = token else { break };
            let span = token.span;
            if !started {
                match token.kind {
                    TokenKind::Tag { name, value } => {
                        self.tag(&mut tags, name, value, span);
                        continue;
                    }
                    TokenKind::Error(kind) => {
                        self.syntax(kind, span);
                        continue;
                    }
                    _ => {}
                }
                started = true;
                if !self.start(&tags) {
                    return;
                }
            }
            match token.kind {
                // The grammar reports a misplaced tag pair itself.
                TokenKind::Tag { name, value } => self.tag(&mut tags, name, value, span),
                TokenKind::MoveNumber(n) => self.move_number(n, span),
                TokenKind::Move(text) => {
                    if self.stack.len() == 1 && after_result {
                        self.syntax(ParsePgnErrorKind::AfterResult, span);
                        after_result = false;
                    }
                    self.play(text, span);
                }
                TokenKind::EpMark => {
                    if self.top().has_move {
                        self.lint(Lint::EpMark, span, None);
                    } else {
                        self.syntax(ParsePgnErrorKind::UnexpectedByte, span);
                    }
                }
                TokenKind::Nag(_) | TokenKind::DrawOffer => {
                    if !self.top().has_move {
                        self.syntax(ParsePgnErrorKind::NagWithoutMove, span);
                    }
                }
                TokenKind::Comment(_) | TokenKind::LineComment(_) => {}
                TokenKind::StartVariation => {
                    if !self.top().has_move {
                        self.syntax(ParsePgnErrorKind::VariationWithoutMove, span);
                        tokens.skip_variation();
                    } else if self.stack.len() > MAX_DEPTH {
                        self.syntax(ParsePgnErrorKind::TooDeep(MAX_DEPTH), span);
                        tokens.skip_variation();
                    } else {
                        self.open_variation(span);
                    }
                }
                TokenKind::EndVariation => {
                    if self.stack.len() > 1 {
                        self.stack.pop();
                    } else {
                        self.syntax(ParsePgnErrorKind::UnmatchedParen, span);
                    }
                }
                TokenKind::Result(outcome) => {
                    if self.stack.len() > 1 {
                        self.syntax(ParsePgnErrorKind::ResultInVariation, span);
                    } else if self.replay.result_marker.is_some() {
                        self.syntax(ParsePgnErrorKind::SecondResult, span);
                    } else {
                        self.replay.result_marker = Some(outcome);
                        after_result = true;
                        self.result_span = span;
                    }
                }
                TokenKind::Error(kind) => self.syntax(kind, span),
            }
        }
        if !started && !self.start(&tags) {
            return;
        }
        while self.stack.len() > 1 {
            if let Some(frame) = self.stack.pop() {
                self.syntax(ParsePgnErrorKind::UnclosedVariation, frame.open);
            }
        }
        self.end_of_mainline(&tags);
    }
}

impl<'a> Run<'_, 'a> {
    fn tag(&mut self, tags: &mut Tags<'a>, name: &'a [u8], value: &'a [u8], span: Span) {
        let value_span = {
            let start = offset_in(self.source, value);
            Span::new(start, start + value.len())
        };
        match name {
            b"FEN" if tags.fen.is_none() => tags.fen = Some((value, value_span)),
            b"SetUp" if tags.setup.is_none() => tags.setup = Some(value),
            b"Variant" if tags.variant.is_none() => tags.variant = Some(value),
            b"Result" if tags.result.is_none() => tags.result = Some((value, span)),
            b"White" if self.replay.white.is_none() => self.replay.white = Some(value_span),
            b"Black" if self.replay.black.is_none() => self.replay.black = Some(value_span),
            _ => {}
        }
    }

    /// Sets up the mainline's start position from the tags; `false` when
    /// the game cannot be replayed.
    fn start(&mut self, tags: &Tags<'a>) -> bool {
        let chess960 = match tags.variant.map(variant) {
            None | Some(Variant::Standard) => false,
            Some(Variant::Chess960) => true,
            Some(Variant::Unsupported) => {
                let name = String::from_utf8_lossy(&unescape(tags.variant.unwrap_or_default()))
                    .into_owned();
                let span = tags.fen.map(|(_, s)| s).unwrap_or_default();
                self.push(
                    Severity::Note,
                    DiagnosticKind::UnsupportedVariant(name),
                    span,
                );
                self.replay.status = Status::Unsupported;
                return false;
            }
        };
        let mut pos = match tags.fen {
            Some((value, span)) => {
                let text = String::from_utf8_lossy(&unescape(value)).into_owned();
                let text = text.trim();
                let parsed = match Position::from_fen(text) {
                    Err(FenError::Parse(err)) if err.field == FenField::FullmoveNumber => {
                        // Full-move number 0 is a common slip of problem
                        // databases: read as 1, with a warning.
                        match text.strip_suffix(" 0") {
                            Some(head) => {
                                let fixed = Position::from_fen(&format!("{head} 1"));
                                if fixed.is_ok() {
                                    self.push(
                                        Severity::Warning,
                                        DiagnosticKind::FullmoveZero,
                                        span,
                                    );
                                }
                                fixed
                            }
                            None => Err(FenError::Parse(err)),
                        }
                    }
                    parsed => parsed,
                };
                match parsed {
                    Ok(pos) => pos,
                    Err(err) => {
                        self.push(Severity::Error, DiagnosticKind::BadFen(err), span);
                        return false;
                    }
                }
            }
            None => {
                if tags.setup.is_some_and(|v| v.trim_ascii() == b"1") && self.options.lints {
                    self.push(
                        Severity::Warning,
                        DiagnosticKind::SetUpWithoutFen,
                        Span::default(),
                    );
                }
                self.startpos.clone()
            }
        };
        if chess960 {
            pos.set_chess960(true);
        }
        self.history.push(pos.zobrist_key());
        if let Some(visit) = self.visit.as_mut() {
            visit(&pos);
        }
        self.stack.push(Frame {
            prev: pos.clone(),
            pos,
            has_move: false,
            dead: false,
            since_dead: 0,
            open: Span::default(),
        });
        self.ready = true;
        if let Some((value, span)) = tags.result {
            self.replay.result_tag = outcome(value);
            if self.replay.result_tag.is_none() {
                let text = String::from_utf8_lossy(value).into_owned();
                self.push(Severity::Warning, DiagnosticKind::BadResultTag(text), span);
            }
        }
        true
    }

    #[inline]
    fn top(&mut self) -> &mut Frame {
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn move_number(&mut self, written: u32, span: Span) {
        if !self.options.lints {
            return;
        }
        let frame = self.top();
        if frame.dead {
            return;
        }
        let expected = frame.pos.fullmoves();
        if written != expected {
            self.push(
                Severity::Warning,
                DiagnosticKind::MoveNumber { written, expected },
                span,
            );
        }
    }

    /// Records a lint at `span`; per-game lints only once, counted.
    fn lint(&mut self, lint: Lint, span: Span, before: Option<&Position>) {
        if !self.options.lints {
            return;
        }
        let index = lint as usize;
        if once_per_game(lint) {
            if let Some(at) = self.once[index] {
                if let Some(DiagnosticKind::Lint { count, .. }) =
                    self.replay.diagnostics.get_mut(at).map(|d| &mut d.kind)
                {
                    *count += 1;
                }
                return;
            }
            self.once[index] = Some(self.replay.diagnostics.len());
        }
        let kind = DiagnosticKind::Lint { lint, count: 1 };
        match before {
            Some(before) => self.push_move(Severity::Warning, kind, span, before),
            None => self.push(Severity::Warning, kind, span),
        }
    }

    fn lints(&mut self, lints: Lints, span: Span) {
        let before = self.top().prev.clone();
        for lint in lints.iter() {
            self.lint(lint, span, Some(&before));
        }
    }

    /// Stops the current line (the mainline: the replay's verdict).
    fn kill(&mut self) {
        let mainline = self.stack.len() == 1;
        let frame = self.top();
        frame.dead = true;
        frame.since_dead = 0;
        if mainline {
            self.replay.complete = false;
        }
    }

    fn play(&mut self, text: &'a [u8], span: Span) {
        let token = parse_move(text);
        let frame = self.top();
        frame.has_move = true;
        if frame.dead {
            frame.since_dead += 1;
            if let Err(err) = token {
                self.syntax(ParsePgnErrorKind::BadMove(err), span);
            }
            return;
        }
        let token = match token {
            Ok(token) => token,
            Err(err) => {
                let before = self.top().pos.clone();
                self.push_move(
                    Severity::Error,
                    DiagnosticKind::Syntax(ParsePgnErrorKind::BadMove(err)),
                    span,
                    &before,
                );
                self.kill();
                return;
            }
        };
        let mainline = self.stack.len() == 1;
        let keep_prev = self.keep_prev;
        let letters = self.letters(&token);
        let frame = self.top();
        let resolved = match quick_resolve(&frame.pos, &token, letters) {
            Some(m) => {
                debug_assert_eq!(Ok(Resolved::Move(m)), token.resolve(&frame.pos, letters));
                Ok(Resolved::Move(m))
            }
            None => token.resolve(&frame.pos, letters),
        };
        match resolved {
            Ok(Resolved::Move(m)) => {
                if keep_prev {
                    frame.prev.clone_from(&frame.pos);
                }
                frame.pos.play_unchecked(m);
                if mainline {
                    self.mainline_played();
                }
                if self.options.lints {
                    self.move_lints(&token, m, span);
                }
            }
            Ok(Resolved::Null) => match null_move(&frame.pos) {
                Some(next) => {
                    frame.prev = std::mem::replace(&mut frame.pos, next);
                    if mainline {
                        let before = self.top().prev.clone();
                        self.push_move(Severity::Warning, DiagnosticKind::NullMove, span, &before);
                        self.mainline_played();
                    }
                }
                None => {
                    let before = frame.pos.clone();
                    self.push_move(Severity::Error, DiagnosticKind::NullInCheck, span, &before);
                    self.kill();
                }
            },
            Err(err) => {
                let before = frame.pos.clone();
                self.push_move(Severity::Error, DiagnosticKind::Illegal(err), span, &before);
                self.kill();
            }
        }
    }

    /// How to read `B` in `token`: as `--lang` says, or with `--lang auto`
    /// in the alphabet the game's letters have shown so far.
    #[inline]
    fn letters(&mut self, token: &MoveToken) -> LetterPolicy {
        if self.options.letters != LetterPolicy::Auto {
            return self.options.letters;
        }
        self.alphabet = self.alphabet.settle(token.letters);
        self.alphabet
    }

    #[inline]
    fn move_lints(&mut self, token: &MoveToken, m: Move, span: Span) {
        let frame = self.top();
        let lints = token.lints(&frame.prev, m, &frame.pos);
        if !lints.is_empty() {
            self.lints(lints, span);
        }
    }

    #[inline]
    fn mainline_played(&mut self) {
        self.replay.plies += 1;
        let pos = &self.stack[0].pos;
        if pos.halfmoves() == 0 {
            self.history.clear();
        }
        self.history.push(pos.zobrist_key());
        if let Some(visit) = self.visit.as_mut() {
            visit(pos);
        }
    }

    fn open_variation(&mut self, open: Span) {
        let frame = self.top();
        let (start, dead) = if !frame.dead {
            (frame.prev.clone(), false)
        } else if frame.since_dead == 0 {
            // The variation replaces the illegal move: it starts where that
            // move was tried.
            (frame.pos.clone(), false)
        } else {
            // Its start position is unknown: its moves are not judged.
            (frame.pos.clone(), true)
        };
        self.stack.push(Frame {
            prev: start.clone(),
            pos: start,
            has_move: false,
            dead,
            since_dead: 1,
            open,
        });
    }

    /// How the game ended on the board.
    fn termination(&self, pos: &Position) -> Termination {
        if !pos.has_legal_moves() {
            return if pos.is_check() {
                Termination::Checkmate {
                    winner: !pos.turn(),
                }
            } else {
                Termination::Stalemate
            };
        }
        if pos.has_insufficient_material() {
            return Termination::InsufficientMaterial;
        }
        if pos.halfmoves() >= 150 {
            return Termination::SeventyFiveMoves;
        }
        let repetitions = match self.history.split_last() {
            Some((last, earlier)) => {
                1 + earlier
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .filter(|k| *k == last)
                    .count()
            }
            None => 1,
        };
        if repetitions >= 5 {
            Termination::FivefoldRepetition
        } else if repetitions >= 3 {
            Termination::ThreefoldRepetition
        } else if pos.halfmoves() >= 100 {
            Termination::FiftyMoves
        } else {
            Termination::Unfinished
        }
    }

    fn end_of_mainline(&mut self, tags: &Tags<'a>) {
        let Some(main) = self.stack.first() else {
            return;
        };
        self.replay.complete = !main.dead;
        if main.dead {
            return;
        }
        let termination = self.termination(&main.pos);
        self.replay.termination = Some(termination);
        let tag = self.replay.result_tag;
        let marker = self.replay.result_marker;
        let result_span = self.result_span;
        let tag_span = tags.result.map(|(_, s)| s).unwrap_or_default();
        if let (Some(tag), Some(marker)) = (tag, marker)
            && tag != marker
        {
            self.push(
                Severity::Error,
                DiagnosticKind::ResultMismatch { tag, marker },
                result_span,
            );
        }
        if marker.is_none() && self.options.lints {
            self.push(
                Severity::Warning,
                DiagnosticKind::MissingResult,
                Span::new(self.source.len(), self.source.len()),
            );
        }
        let (recorded, span) = match (marker, tag) {
            (Some(marker), _) => (marker, result_span),
            (None, Some(tag)) => (tag, tag_span),
            (None, None) => return,
        };
        match (termination.outcome(), recorded) {
            (None, _) => {}
            (Some(_), Outcome::Unknown) => self.push(
                Severity::Warning,
                DiagnosticKind::UnknownResultOnFinishedBoard(termination),
                span,
            ),
            (Some(imposed), recorded) if imposed != recorded => self.push(
                Severity::Error,
                DiagnosticKind::ResultContradicts {
                    recorded,
                    termination,
                },
                span,
            ),
            _ => {}
        }
    }

    fn finish(mut self) -> Replay {
        if self.ready {
            self.replay.position = self.stack.first().map(|f| f.pos.clone());
        }
        let mut rules = false;
        let mut errors = false;
        for d in &self.replay.diagnostics {
            if d.severity == Severity::Error {
                errors = true;
                rules |= d.kind.is_rules();
            }
        }
        if self.replay.status != Status::Unsupported {
            self.replay.status = if rules {
                Status::Invalid
            } else if errors {
                Status::SyntaxError
            } else {
                Status::Valid
            };
        }
        self.replay
    }
}

/// Reads a move token: SAN's everyday shapes (`e4`, `exd5`, `Nf3`, `Ngf3`,
/// `R1e2`, `Bxc6+`, `Qh4#`) directly, everything else with
/// [`MoveToken::parse`]. The result is exactly what `MoveToken::parse`
/// gives (tested over every token of those shapes).
#[inline]
fn parse_move(text: &[u8]) -> Result<MoveToken, ParseMoveTokenError> {
    match plain_san(text) {
        Some(token) => Ok(token),
        None => MoveToken::parse(text),
    }
}

/// The fast path of [`parse_move`]: `[piece][file|rank][x]square[+|#]` and
/// `file[x file]rank` pawn moves without promotion.
#[inline]
fn plain_san(text: &[u8]) -> Option<MoveToken> {
    let file = |b: u8| File::new(u32::from(b.wrapping_sub(b'a')));
    let rank = |b: u8| Rank::new(u32::from(b.wrapping_sub(b'1')));
    let (body, suffix) = match text.split_last()? {
        (b'+', body) => (body, Some(Suffix::Check)),
        (b'#', body) => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let (&to_rank, rest) = body.split_last()?;
    let (&to_file, rest) = rest.split_last()?;
    let to = Square::from_coords(file(to_file)?, rank(to_rank)?);
    let (capture, rest) = match rest.split_last() {
        Some((b'x', rest)) => (true, rest),
        _ => (false, rest),
    };
    let (mover, letters, from_file, from_rank) = match *rest {
        [] if !capture => (Mover::Unnamed, Letters::None, None, None),
        [f] if capture && f.is_ascii_lowercase() => {
            (Mover::Unnamed, Letters::None, Some(file(f)?), None)
        }
        [p] => piece(p)?.with(None, None),
        [p, d] => match (file(d), rank(d)) {
            (Some(f), _) => piece(p)?.with(Some(f), None),
            (_, Some(r)) => piece(p)?.with(None, Some(r)),
            _ => return None,
        },
        _ => return None,
    };
    Some(MoveToken {
        kind: MoveKind::Normal {
            mover,
            from_file,
            from_rank,
            capture,
            to,
            promotion: None,
        },
        notation: Notation::San,
        letters,
        spelling: Spelling::STANDARD,
        suffix,
    })
}

/// An English SAN piece letter.
#[derive(Clone, Copy)]
struct PieceLetter(Mover, Letters);

impl PieceLetter {
    #[inline]
    fn with(
        self,
        from_file: Option<File>,
        from_rank: Option<Rank>,
    ) -> (Mover, Letters, Option<File>, Option<Rank>) {
        (self.0, self.1, from_file, from_rank)
    }
}

#[inline]
fn piece(letter: u8) -> Option<PieceLetter> {
    Some(match letter {
        b'N' => PieceLetter(Mover::Role(Role::Knight), Letters::English),
        b'R' => PieceLetter(Mover::Role(Role::Rook), Letters::English),
        b'Q' => PieceLetter(Mover::Role(Role::Queen), Letters::English),
        b'K' => PieceLetter(Mover::Role(Role::King), Letters::Either),
        b'B' => PieceLetter(Mover::BishopOrPawn, Letters::Either),
        _ => return None,
    })
}

/// The everyday case of [`MoveToken::resolve`] without the move generator:
/// a SAN piece move or pawn push/capture (no promotion) with exactly one
/// pseudo-legal origin, whose legality is one attack test on the king.
/// `None` sends the token to `MoveToken::resolve`, which also explains
/// every failure; when `Some`, the move is the one `resolve` gives (checked
/// in debug builds).
#[inline]
fn quick_resolve(pos: &Position, token: &MoveToken, letters: LetterPolicy) -> Option<Move> {
    let MoveKind::Normal {
        mover,
        from_file,
        from_rank,
        capture,
        to,
        promotion: None,
    } = token.kind
    else {
        return None;
    };
    if token.notation != Notation::San {
        return None;
    }
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let occupied = board.occupied();
    let king = board.king_of(us)?;
    let role = match mover {
        Mover::Role(role) => role,
        // `B` is the bishop whenever a bishop move fits, unless German.
        Mover::BishopOrPawn if letters != LetterPolicy::German => Role::Bishop,
        Mover::Unnamed => Role::Pawn,
        Mover::BishopOrPawn => return None,
    };
    let from = match role {
        Role::Pawn => {
            let back = us.fold(-1, 1);
            if to.rank() == Rank::EIGHTH.relative_to(us) {
                return None;
            }
            let from = match (capture, from_file) {
                (true, Some(file)) => {
                    if !board.by_color(!us).contains(to) {
                        return None;
                    }
                    Square::from_coords(file, to.rank().offset(back)?)
                }
                (false, None) => {
                    if occupied.contains(to) {
                        return None;
                    }
                    let one = to.offset(0, back)?;
                    if occupied.contains(one) {
                        one
                    } else if to.rank() == Rank::FOURTH.relative_to(us) {
                        to.offset(0, 2 * back)?
                    } else {
                        return None;
                    }
                }
                _ => return None,
            };
            if from_rank.is_some()
                || board.piece_at(from) != Some(Role::Pawn.of(us))
                || (capture && !attacks::pawn_attacks(us, from).contains(to))
            {
                return None;
            }
            from
        }
        Role::King => {
            if from_file.is_some()
                || from_rank.is_some()
                || !attacks::king_attacks(to).contains(king)
            {
                return None;
            }
            return board
                .attackers(to, !us, occupied.without(king))
                .is_empty()
                .then(|| Move::Normal {
                    role,
                    from: king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
        }
        _ => {
            let mut from =
                board.by_piece(role.of(us)) & attacks::attacks(role.of(us), to, occupied);
            if let Some(file) = from_file {
                from &= Bitboard::from_file(file);
            }
            if let Some(rank) = from_rank {
                from &= Bitboard::from_rank(rank);
            }
            from.single_square()?
        }
    };
    // Legal unless the king is attacked once the piece has moved (a piece
    // standing on `to` is captured and attacks nothing).
    let after = occupied.without(from).with(to);
    let checkers = board.attackers(king, !us, after).without(to);
    checkers.is_empty().then(|| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion: None,
    })
}

/// Reads a `Result` tag value.
fn outcome(value: &[u8]) -> Option<Outcome> {
    match value.trim_ascii() {
        b"1-0" => Some(Outcome::WhiteWins),
        b"0-1" => Some(Outcome::BlackWins),
        b"1/2-1/2" => Some(Outcome::Draw),
        b"*" => Some(Outcome::Unknown),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color::{Black, White};

    fn run(text: &str) -> Replay {
        let options = ReplayOptions {
            letters: LetterPolicy::Auto,
            lints: true,
        };
        replay(&RawGame::from_bytes(text.as_bytes()), &options)
    }

    /// `(severity, kind name, message)` of every diagnostic.
    fn found(r: &Replay) -> Vec<(Severity, &'static str, String)> {
        r.diagnostics
            .iter()
            .map(|d| (d.severity, d.kind.name(), d.message()))
            .collect()
    }

    fn kinds(r: &Replay) -> Vec<&'static str> {
        r.diagnostics.iter().map(|d| d.kind.name()).collect()
    }

    const KNIGHTS_TWICE: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";

    #[test]
    fn each_result_rule() {
        use Termination::*;
        let fivefold = format!("{KNIGHTS_TWICE} 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8");
        let cases: Vec<(String, Termination, &[&str])> = vec![
            // Mate, and the results recorded on it.
            (
                "1. f3 e5 2. g4 Qh4# 0-1".into(),
                Checkmate { winner: Black },
                &[],
            ),
            (
                "1. f3 e5 2. g4 Qh4# 1-0".into(),
                Checkmate { winner: Black },
                &["result-contradicts"],
            ),
            (
                "1. f3 e5 2. g4 Qh4# 1/2-1/2".into(),
                Checkmate { winner: Black },
                &["result-contradicts"],
            ),
            (
                "1. f3 e5 2. g4 Qh4# *".into(),
                Checkmate { winner: Black },
                &["unknown-result"],
            ),
            // Stalemate: drawn; a decisive result contradicts it.
            (
                "[FEN \"7k/8/8/5Q2/8/8/8/K7 w - - 0 1\"]\n1. Qg6 1/2-1/2".into(),
                Stalemate,
                &[],
            ),
            (
                "[FEN \"7k/8/8/5Q2/8/8/8/K7 w - - 0 1\"]\n1. Qg6 1-0".into(),
                Stalemate,
                &["result-contradicts"],
            ),
            // Each dead position by material.
            (
                "[FEN \"8/8/4k3/8/8/8/8/4K3 w - - 0 1\"]\n1/2-1/2".into(),
                InsufficientMaterial,
                &[],
            ),
            (
                "[FEN \"8/8/4k3/8/8/2N5/8/4K3 w - - 0 1\"]\n1/2-1/2".into(),
                InsufficientMaterial,
                &[],
            ),
            (
                "[FEN \"8/8/4k3/8/8/2B5/8/4K3 w - - 0 1\"]\n1/2-1/2".into(),
                InsufficientMaterial,
                &[],
            ),
            (
                "[FEN \"8/8/4kb2/8/8/2B5/8/4K3 w - - 0 1\"]\n1/2-1/2".into(),
                InsufficientMaterial,
                &[],
            ),
            (
                "[FEN \"8/8/4kb2/8/8/2B5/8/4K3 w - - 0 1\"]\n0-1".into(),
                InsufficientMaterial,
                &["result-contradicts"],
            ),
            (
                "[FEN \"8/8/4k3/8/8/2B5/8/4K3 w - - 0 1\"]\n*".into(),
                InsufficientMaterial,
                &["unknown-result"],
            ),
            // Bishops on squares of both colours, or a knight and a pawn: not dead.
            (
                "[FEN \"8/3b4/4k3/8/8/2B5/8/4K3 w - - 0 1\"]\n1-0".into(),
                Unfinished,
                &[],
            ),
            (
                "[FEN \"8/8/4k3/p7/8/2N5/8/4K3 w - - 0 1\"]\n1-0".into(),
                Unfinished,
                &[],
            ),
            // Threefold is claimable (any result), fivefold is a draw.
            (format!("{KNIGHTS_TWICE} 1-0"), ThreefoldRepetition, &[]),
            (format!("{KNIGHTS_TWICE} *"), ThreefoldRepetition, &[]),
            (format!("{fivefold} 1/2-1/2"), FivefoldRepetition, &[]),
            (
                format!("{fivefold} 1-0"),
                FivefoldRepetition,
                &["result-contradicts"],
            ),
            (
                format!("{fivefold} *"),
                FivefoldRepetition,
                &["unknown-result"],
            ),
            // 50 moves are claimable, 75 moves end the game.
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 99 60\"]\n60. Ra3 0-1".into(),
                FiftyMoves,
                &[],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 98 60\"]\n60. Ra3 *".into(),
                Unfinished,
                &[],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 149 60\"]\n60. Ra3 1/2-1/2".into(),
                SeventyFiveMoves,
                &[],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 149 60\"]\n60. Ra3 1-0".into(),
                SeventyFiveMoves,
                &["result-contradicts"],
            ),
            // A draw or a resignation on an unfinished board is fine.
            ("1. e4 e5 1/2-1/2".into(), Unfinished, &[]),
            ("1. e4 e5 0-1".into(), Unfinished, &[]),
        ];
        for (text, termination, expected) in cases {
            let r = run(&text);
            assert_eq!(r.termination, Some(termination), "{text}");
            assert_eq!(kinds(&r), expected, "{text}");
        }
    }

    #[test]
    fn en_passant_right_makes_positions_differ() {
        // After 1.d4 Black may take en passant: that position is not the one
        // after 3.Ke1 and 5.Ke1 (same placement, no capture possible).
        let moves = "1. d4 Kd8 2. Ke2 Ke8 3. Ke1 Kd8 4. Ke2 Ke8 5. Ke1 *";
        let with_ep = run(&format!(
            "[FEN \"4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1\"]\n{moves}"
        ));
        assert_eq!(with_ep.termination, Some(Termination::Unfinished));
        // The same moves with the black pawn far away: threefold.
        let without = run(&format!(
            "[FEN \"4k3/8/8/8/p7/8/3P4/4K3 w - - 0 1\"]\n{moves}"
        ));
        assert_eq!(without.termination, Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn mainline_stops_at_the_first_illegal_move() {
        let r = run("1. e4 e5 2. Ke3 Nc6 3. Nf3 *");
        assert_eq!(r.status, Status::Invalid);
        assert_eq!((r.plies, r.complete, r.termination), (2, false, None));
        let d = &r.diagnostics[0];
        assert_eq!(d.ply.map(|p| p.to_string()), Some("2.".into()));
        assert_eq!(d.span, Span::new(12, 15));
        assert_eq!(
            d.fen_before().as_deref(),
            Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
        );
        assert_eq!(r.diagnostics.len(), 1, "nothing judged after the stop");
    }

    #[test]
    fn variations_start_before_the_move_they_replace() {
        let cases: &[(&str, &[&str], u32)] = &[
            ("1. e4 (1. d4 d5) e5 (1... c5 2. Nf3) 2. Nf3 *", &[], 3),
            ("1. e4 (1. d4 d5 (1... Nf6 2. c4)) e5 *", &[], 2),
            ("1. e4 (1. e5) e5 2. Nf3 *", &["illegal"], 3),
            // An illegal move in a variation leaves the mainline alone.
            ("1. e4 e5 (1... Ke7 2. Ke2) 2. Nf3 *", &["illegal"], 3),
            // A variation after an illegal mainline move replaces it.
            ("1. e4 e5 2. Ke3 (2. Nf3 Nc6) *", &["illegal"], 2),
            // Null moves: fine in a variation, a warning in the mainline.
            ("1. e4 (1. -- e5) e5 *", &[], 2),
            ("1. e4 -- 2. d4 *", &["null-move"], 3),
            ("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- *", &["null-in-check"], 5),
        ];
        for &(text, expected, plies) in cases {
            let r = run(text);
            assert_eq!(kinds(&r), expected, "{text}");
            assert_eq!(r.plies, plies, "{text}");
        }
        let r = run("1. e4 e5 (1... Ke7 2. Ke2) 2. Nf3 *");
        assert!(r.diagnostics[0].in_variation);
        assert_eq!(
            r.diagnostics[0].ply.map(|p| p.to_string()),
            Some("1...".into())
        );
    }

    #[test]
    fn syntax_and_tag_problems() {
        type Expected<'a> = &'a [(Severity, &'a str, &'a str)];
        let cases: &[(&str, Expected<'_>)] = &[
            (
                "[Result \"1-0\"]\n1. e4 e5 0-1",
                &[(
                    Severity::Error,
                    "result-mismatch",
                    "Result tag \"1-0\" but the movetext ends with 0-1",
                )],
            ),
            (
                "1. e4 e5",
                &[(
                    Severity::Warning,
                    "missing-result",
                    "no game termination marker",
                )],
            ),
            (
                "1. e4 e5 (1... c5 2. Nf3",
                &[
                    (Severity::Error, "syntax", "unclosed variation"),
                    (
                        Severity::Warning,
                        "missing-result",
                        "no game termination marker",
                    ),
                ],
            ),
            (
                "1. e4 Xe5 *",
                &[(
                    Severity::Error,
                    "bad-move",
                    "not a move: unexpected character at offset 0",
                )],
            ),
            (
                "[Variant \"Atomic\"]\n1. e4 *",
                &[(
                    Severity::Note,
                    "unsupported-variant",
                    "unsupported variant \"Atomic\"; game skipped",
                )],
            ),
            (
                "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*",
                &[(
                    Severity::Error,
                    "bad-fen",
                    "FEN tag: illegal position: no white king (board field, offset 0); no black king (board field, offset 0)",
                )],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 0\"]\n1. Kd2 *",
                &[(
                    Severity::Warning,
                    "fen-fullmove-zero",
                    "FEN tag: full-move number 0, read as 1",
                )],
            ),
            (
                "1. e4 e5 3. Nf3 *",
                &[(
                    Severity::Warning,
                    "move-number",
                    "move number 3 before move 2",
                )],
            ),
            (
                "1. e4 e5 2. Nf3+ *",
                &[(
                    Severity::Warning,
                    "lint",
                    "check suffix + on a move that gives no check",
                )],
            ),
        ];
        for &(text, expected) in cases {
            let r = run(text);
            let expected: Vec<_> = expected
                .iter()
                .map(|&(s, k, m)| (s, k, m.to_string()))
                .collect();
            assert_eq!(found(&r), expected, "{text}");
        }
    }

    #[test]
    fn variants_and_chess960() {
        let cases = [
            ("Standard", Status::Valid),
            ("chess 960", Status::Valid),
            ("Fischerandom", Status::Valid),
            ("wild/0", Status::Valid),
            ("From Position", Status::Valid),
            ("Crazyhouse", Status::Unsupported),
            ("Seirawan", Status::Unsupported),
        ];
        for (variant, status) in cases {
            let r = run(&format!("[Variant \"{variant}\"]\n1. e4 *"));
            assert_eq!(r.status, status, "{variant}");
        }
        // Chess960 castling: king b1, rooks a1 and h1.
        for (castle, fen) in [
            ("O-O-O", "4k3/8/8/8/8/8/8/2KR3R b - - 1 1"),
            ("O-O", "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"),
        ] {
            let r = run(&format!(
                "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/RK5R w HA - 0 1\"]\n1. {castle} *"
            ));
            assert_eq!(r.status, Status::Valid, "{:?}", r.diagnostics);
            assert_eq!(
                r.position.map(|p| p.fen(EpMode::Always)).as_deref(),
                Some(fen)
            );
        }
    }

    #[test]
    fn german_letters_by_the_game() {
        let r = run("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 *");
        assert_eq!(r.status, Status::Valid);
        // English by default: B is a bishop.
        let r = run("1. e4 e5 2. Bc4 *");
        assert_eq!(r.status, Status::Valid);
        assert_eq!(r.plies, 3);
    }

    #[test]
    fn fast_san_reads_like_the_parser() {
        let mut fast = 0;
        for piece in ["", "N", "B", "R", "Q", "K", "P", "S"] {
            for from in ["", "a", "h", "1", "8", "i", "0", "e2"] {
                for capture in ["", "x", ":"] {
                    for to in (0..64).filter_map(Square::new) {
                        for suffix in ["", "+", "#", "++", "=Q", "e.p."] {
                            let text = format!("{piece}{from}{capture}{to}{suffix}");
                            if let Some(token) = plain_san(text.as_bytes()) {
                                fast += 1;
                                assert_eq!(Ok(token), MoveToken::parse(text.as_bytes()), "{text}");
                            }
                        }
                    }
                }
            }
        }
        // Pawn pushes and captures, pieces with and without disambiguation.
        // Pawns: a push and two captures; five pieces: five origins (none,
        // two files, two ranks), with and without `x`; three suffixes.
        assert_eq!(fast, 64 * 3 * (3 + 5 * 5 * 2));
        for text in ["e4", "exd5", "Nf3", "Ngf3", "R1e2", "Bxc6+", "Qh4#", "Kxe2"] {
            assert!(plain_san(text.as_bytes()).is_some(), "{text}");
        }
        for text in [
            "e8=Q", "Pe4", "Sf3", "0-0", "Ng1f3", "e2e4", "x", "", "+", "exd6e.p.",
        ] {
            assert!(plain_san(text.as_bytes()).is_none(), "{text}");
        }
    }

    #[test]
    fn quick_resolve_agrees_with_resolve() {
        // (FEN, token, whether the quick path decides it)
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "e4",
                true,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "e3",
                true,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "e5",
                false,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
                "e4",
                false,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "Nf3",
                true,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "Nd2",
                false,
            ),
            // Two knights reach d2: ambiguous without the origin.
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", false),
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nbd2", true),
            // Pinned knight; the other one is the move.
            ("4k3/4r3/8/8/8/2N5/4N3/4K3 w - - 0 1", "Nd4", false),
            ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", false),
            ("4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1", "Nb1", true),
            ("4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1", "Nd1", true),
            ("4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1", "Ne2", false),
            // Captures, en passant (left to resolve), king moves.
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", true),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", false),
            ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kxd2", true),
            ("4k3/8/8/8/8/8/3r4/3RK3 w - - 0 1", "Kf1", true),
            ("4k3/8/8/8/8/8/3r4/3RK3 w - - 0 1", "Kf2", false),
            ("3rk3/8/8/8/8/8/8/4K3 w - - 0 1", "Kd2", false),
            ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Kg1", false),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", false),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Bd2", true),
        ];
        for (fen, text, decided) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let token = MoveToken::parse(text.as_bytes()).unwrap();
            let quick = quick_resolve(&pos, &token, LetterPolicy::Auto);
            assert_eq!(quick.is_some(), decided, "{fen} {text}");
            if let Some(m) = quick {
                assert_eq!(
                    token.resolve(&pos, LetterPolicy::Auto),
                    Ok(Resolved::Move(m)),
                    "{fen} {text}"
                );
            }
        }
    }

    #[test]
    fn termination_names_round_trip() {
        for (t, name, white) in [
            (Termination::Checkmate { winner: White }, "checkmate", true),
            (Termination::Stalemate, "stalemate", false),
        ] {
            assert_eq!(t.as_str(), name);
            assert_eq!(t.outcome() == Some(Outcome::WhiteWins), white);
        }
    }
}
