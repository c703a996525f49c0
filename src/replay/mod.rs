//! The replay engine: a framed game played through the rules core.
//!
//! [`Replayer::replay`] is a [`Visitor`] of the movetext [`Reader`]: it
//! reads one game without building the game tree, and judges moves while
//! the reader judges structure. Tags set up the
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

mod diagnostic;
mod history;
mod start;
mod termination;
mod verdict;

use self::history::History;
use self::start::{SeenTags, Tags};
pub use self::{
    diagnostic::{Diagnostic, DiagnosticKind, DroppedRight, Ply, Severity},
    termination::{
        ALIASES as TERMINATION_ALIASES, INCOMPLETE, NAMES as TERMINATION_NAMES, Termination,
        UNSUPPORTED, termination_index, termination_is, termination_name,
    },
};
use crate::{
    color::Color,
    encoding,
    moves::Move,
    notation::{
        LetterPolicy, Lint, Lints, MoveKind, MoveToken, Notation, ParseMoveTokenError, Resolved,
        Suffix, suffix_lint,
    },
    pgn::{
        Comment, GameLetters, Outcome, ParsePgnError, ParsePgnErrorKind, RawGame, Reader, Skip,
        Span, Visitor,
    },
    position::Position,
    role::Role,
};

/// The deepest variation nesting the replay follows; deeper variations are
/// reported and skipped.
pub const MAX_DEPTH: usize = crate::pgn::DEFAULT_MAX_DEPTH;

/// How to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReplayOptions {
    /// How to read the letter `B` (bishop or German Bauer).
    pub letters: LetterPolicy,
    /// Whether to compute lints (non-standard notation, wrong or missing
    /// `+`/`#`/`x`, move numbers). They cost a little time on every move;
    /// leave them off when warnings are not wanted.
    pub lints: bool,
    /// Read the movetext leniently: debris (a token in move position that
    /// is no move, a stray character) is skipped with a warning and the
    /// moves around it are played ([`Reader::lenient`]).
    pub lenient: bool,
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
    /// Whether the whole mainline was played without an error (no illegal
    /// or unreadable move, no syntax error in it): only then has it a
    /// [`termination`](Self::termination).
    pub complete: bool,
    /// The position after the legal mainline plies; `None` when no start
    /// position could be set up (bad FEN, unsupported variant).
    pub position: Option<Position>,
    /// How the game ended on the board, when the whole mainline was played
    /// without an error ([`complete`](Self::complete)).
    pub termination: Option<Termination>,
    /// The `Result` tag, if present and readable.
    pub result_tag: Option<Outcome>,
    /// The termination marker, if present.
    pub result_marker: Option<Outcome>,
    /// Where the `White` tag's value is, if present.
    pub white: Option<Span>,
    /// Where the `Black` tag's value is, if present.
    pub black: Option<Span>,
    /// The findings, in input order (result checks last): the first
    /// [`MAX_DIAGNOSTICS`].
    pub diagnostics: Vec<Diagnostic>,
    /// The findings past [`MAX_DIAGNOSTICS`], counted.
    pub omitted: Omitted,
}

/// The most diagnostics a replay keeps for one game. Past it they are
/// counted by severity ([`Replay::omitted`]): a hostile game with millions
/// of errors takes no more memory than one with ten thousand.
pub const MAX_DIAGNOSTICS: usize = 10_000;

/// Which mainline positions of a replayed game were reached legally
/// ([`Replay::reached`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reached {
    /// Where the mainline's first error starts.
    first_error: Option<usize>,
    /// Where the mainline's first move is written.
    first_move: usize,
}

impl Reached {
    /// Whether the position after the move that ends at `end` (`None`:
    /// the start position, reached when its first move is) came before
    /// the first error.
    pub fn before_errors(&self, end: Option<usize>) -> bool {
        let end = end.unwrap_or(self.first_move);
        self.first_error.is_none_or(|at| end <= at)
    }
}

/// Diagnostics of one game past [`MAX_DIAGNOSTICS`], by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Omitted {
    /// Errors.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Notes.
    pub notes: u64,
}

impl Omitted {
    /// Whether any diagnostic was omitted.
    pub fn is_empty(&self) -> bool {
        self.errors + self.warnings + self.notes == 0
    }
}

impl Replay {
    /// How the mainline ended, by name ([`TERMINATION_NAMES`]): its
    /// [`termination`](Self::termination), [`UNSUPPORTED`] for a variant
    /// that is not played, else [`INCOMPLETE`] (an error in the mainline).
    /// What every command writes and `status` filters compare with.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::RawGame;
    /// use pgnkit::replay::{ReplayOptions, replay};
    /// let name = |text: &[u8]| {
    ///     replay(&RawGame::from_bytes(text), &ReplayOptions::default()).termination_name()
    /// };
    /// assert_eq!(name(b"1. f3 e5 2. g4 Qh4# 0-1"), "checkmate");
    /// assert_eq!(name(b"1. e5 *"), "incomplete");
    /// assert_eq!(name(b"[Variant \"Crazyhouse\"]\n\n1. e4 *"), "unsupported");
    /// ```
    pub fn termination_name(&self) -> &'static str {
        if self.status == Status::Unsupported {
            UNSUPPORTED
        } else {
            termination_name(self.termination)
        }
    }

    /// The full moves the mainline's [`plies`](Self::plies) span: how many
    /// move numbers they carry. A game from a position with Black to move
    /// starts with half a move: `10... e5 11. d4` is 2 plies over 2 moves.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::RawGame;
    /// use pgnkit::replay::{ReplayOptions, replay};
    /// let moves = |text: &[u8]| replay(&RawGame::from_bytes(text), &ReplayOptions::default()).moves();
    /// assert_eq!(moves(b"1. e4 e5 2. Nf3 *"), 2);
    /// let black = b"[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 10\"]\n\n";
    /// assert_eq!(moves(&[&black[..], b"10... e5 11. d4 *"].concat()), 2);
    /// assert_eq!(moves(&[&black[..], b"10... e5 *"].concat()), 1);
    /// assert_eq!(moves(&[&black[..], b"*"].concat()), 0);
    /// ```
    pub fn moves(&self) -> u32 {
        // The side to move at the start: the side at the end, turned back
        // once per ply.
        let black_started = self
            .position
            .as_ref()
            .is_some_and(|p| (p.turn() == Color::Black) == self.plies.is_multiple_of(2));
        match self.plies {
            0 => 0,
            plies => (plies + u32::from(black_started)).div_ceil(2),
        }
    }

    /// The place of [`termination_name`](Self::termination_name) in
    /// [`TERMINATION_NAMES`].
    pub fn termination_index(&self) -> usize {
        termination::name_index(self.termination_name())
    }

    /// Whether a word of a `status` filter (a name or an alias, lower case)
    /// names how the mainline ended.
    pub fn termination_is(&self, word: &str) -> bool {
        termination::name_is(self.termination_name(), word)
    }

    /// The mainline's first error (a bad `FEN` tag's, in the tag section,
    /// included), if it has one.
    pub fn first_mainline_error(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error && !d.in_variation)
            .min_by_key(|d| d.span.start)
    }

    /// Which mainline positions were reached legally, before the game's
    /// first error: what `fen` prints and `board` draws of a game with an
    /// error. `first_played` is where the first played move is written
    /// (the text's end when none was).
    pub fn reached(&self, first_played: usize) -> Reached {
        // A first move that was not played (illegal, or no move) is still
        // where the moves begin.
        let first_move = self
            .diagnostics
            .iter()
            .filter(|d| d.before.is_some() && !d.in_variation)
            .map(|d| d.span.start)
            .fold(first_played, usize::min);
        Reached {
            first_error: self.first_mainline_error().map(|d| d.span.start),
            first_move,
        }
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.omitted.errors > 0
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error)
    }

    /// Whether any diagnostic is a warning.
    pub fn has_warnings(&self) -> bool {
        self.omitted.warnings > 0
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Warning)
    }

    /// The syntax errors among the diagnostics, in input order: those
    /// [`SyntaxChecker`](crate::pgn::SyntaxChecker) reports for the same
    /// game, read the same way (up to where the replay stopped reading, for
    /// a game whose start position cannot be set up).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{ParsePgnError, RawGame, SyntaxChecker};
    /// use pgnkit::replay::{ReplayOptions, replay};
    ///
    /// let raw = RawGame::from_bytes(b"1. e4 ] e5 2. Ke3 *");
    /// let mut checked: Vec<ParsePgnError> = Vec::new();
    /// SyntaxChecker::default().check(&raw, |e| checked.push(e));
    /// let replay = replay(&raw, &ReplayOptions::default());
    /// assert_eq!(replay.syntax_errors().collect::<Vec<_>>(), checked);
    /// # assert_eq!(checked.len(), 1);
    /// ```
    pub fn syntax_errors(&self) -> impl Iterator<Item = ParsePgnError> + '_ {
        self.diagnostics.iter().filter_map(|d| match d.kind {
            DiagnosticKind::Syntax(kind) => Some(ParsePgnError { kind, span: d.span }),
            _ => None,
        })
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
    /// Whether the line stopped at an illegal move (or was opened where no
    /// start position is known).
    dead: bool,
    /// Move tokens seen since the line stopped.
    since_dead: u32,
    /// The line stopped at a token that is no attempt at a move: a
    /// variation right after it is an alternative to the line's last move.
    stopped_at_no_move: bool,
    /// Where the line's last move was written, when the line keeps the
    /// position before it (a separate `e.p.+` after it may give it its
    /// check sign); empty before the line's first move.
    last: Span,
}

/// A mainline position reached during [`Replayer::replay_with`].
#[derive(Debug, Clone, Copy)]
pub struct MainlinePly<'p> {
    /// Plies played from the start position (0: the start position).
    pub ply: u32,
    /// The move token that reached it (empty at ply 0).
    pub span: Span,
    /// The position.
    pub position: &'p Position,
}

/// What a move did on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// A legal move.
    Move(Move),
    /// A null move (the turn passed).
    Null,
}

/// What a job riding on the replay is shown ([`Replayer::observe`]): the
/// moves as they are played, with the position before each, every
/// mainline position, and what the movetext holds around the moves. Every
/// method has a default that ignores the event.
///
/// A move is shown only where it is played: not a move of a line that
/// stopped at an illegal move. A game whose replay is
/// [`Status::Valid`] has had every move of every line shown.
pub trait Observer<'a> {
    /// Whether comments are shown (the replay reads them only then).
    const COMMENTS: bool = false;

    /// A tag pair (raw, escapes unresolved).
    fn tag(&mut self, _name: &'a [u8], _value: &'a [u8], _span: Span) {}

    /// A mainline position: the start position (ply 0), then the position
    /// after each mainline move played.
    fn mainline_ply(&mut self, _ply: MainlinePly<'_>) {}

    /// A move played in the current line, shown with the position it is
    /// played in, before the board changes: the replay keeps no copy of
    /// the position for its observers (an observer that wants the
    /// position after the move plays it on a copy of its own).
    fn played(&mut self, _before: &Position, _played: Played, _token: &MoveToken, _span: Span) {}

    /// A NAG after the current line's last move.
    fn nag(&mut self, _nag: u8, _span: Span) {}

    /// A draw offer after the current line's last move.
    fn draw_offer(&mut self, _span: Span) {}

    /// A comment (only with [`COMMENTS`](Self::COMMENTS)).
    fn comment(&mut self, _comment: Comment<'a>) {}

    /// A variation opens: an alternative to the current line's last move.
    fn begin_variation(&mut self, _span: Span) {}

    /// The variation opened last ends.
    fn end_variation(&mut self, _span: Span) {}

    /// The mainline's termination marker.
    fn outcome(&mut self, _outcome: Outcome, _span: Span) {}
}

/// Nothing to show: [`Replayer::replay`].
impl Observer<'_> for () {}

/// The observer behind [`Replayer::replay_with`].
struct OnPly<'f>(&'f mut dyn FnMut(MainlinePly<'_>));

impl Observer<'_> for OnPly<'_> {
    fn mainline_ply(&mut self, ply: MainlinePly<'_>) {
        (self.0)(ply);
    }
}

/// The replay engine, with buffers kept from game to game.
#[derive(Debug, Default)]
pub struct Replayer {
    stack: Vec<Frame>,
    /// The mainline's repetition history.
    history: History,
    /// The standard start position, computed once.
    startpos: Option<Position>,
    /// The movetext reader, with its own buffers.
    reader: Reader,
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
            | Lint::EpNotMade
            | Lint::OverSpecified
    )
}

/// Whether the move from `before` to `after` took en passant: the only
/// move that puts a pawn on the square `before` named for it (the square
/// behind a pawn that has just advanced two).
fn took_en_passant(before: &Position, after: &Position) -> bool {
    before.ep_square.is_some_and(|sq| {
        before.board.piece_at(sq).is_none()
            && after
                .board
                .piece_at(sq)
                .is_some_and(|p| p.role == Role::Pawn)
    })
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
struct Run<'r, 'a, O> {
    source: &'a [u8],
    /// The line of the game's first byte.
    first_line: u64,
    /// The names of the tags read so far (with lints only).
    tags_seen: SeenTags<'a>,
    options: ReplayOptions,
    /// The tags read so far.
    tags: Tags<'a>,
    /// The open lines, the mainline first: the replayer's buffer, owned
    /// while the game is replayed (one indirection less on every move).
    stack: Vec<Frame>,
    /// The mainline's repetition history (the replayer's).
    history: &'r mut History,
    startpos: &'r Position,
    replay: Replay,
    /// Per-game lints: index of their diagnostic, by lint.
    once: [Option<usize>; Lint::ALL.len()],
    /// Where the termination marker is.
    result_span: Span,
    /// The alphabet the game's letters show (for `--lang auto`).
    alphabet: GameLetters,
    /// Whether each line keeps the position before its last move.
    keep_prev: bool,
    /// The mainline's start position is set up.
    ready: bool,
    /// Shown every move played and what stands around it.
    observer: &'r mut O,
    /// The mainline reached a position where the game is over by rule
    /// (fivefold repetition, 75-move rule) and whether a move after it
    /// has been reported.
    over: Option<Termination>,
    over_reported: bool,
    /// A rules error was among the omitted diagnostics.
    omitted_rules: bool,
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
        self.observe(raw, options, &mut ())
    }

    /// Replays one framed game like [`Replayer::replay`], calling `on_ply`
    /// with the start position (ply 0) and with the position after every
    /// mainline move played (null moves included), in order. The mainline
    /// positions stop before its first illegal move.
    pub fn replay_with(
        &mut self,
        raw: &RawGame<'_>,
        options: &ReplayOptions,
        on_ply: &mut dyn FnMut(MainlinePly<'_>),
    ) -> Replay {
        self.observe(raw, options, &mut OnPly(on_ply))
    }

    /// Replays one framed game like [`Replayer::replay`], showing
    /// `observer` every move played on the board (in the mainline and in
    /// variations, in the order written), every mainline position, and
    /// the tags, annotations and variations around them.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::MoveToken;
    /// use pgnkit::pgn::{RawGame, Span};
    /// use pgnkit::replay::{Observer, Played, ReplayOptions, Replayer};
    /// use pgnkit::Position;
    ///
    /// /// Every move in UCI, variations included.
    /// struct Ucis(Vec<String>);
    ///
    /// impl Observer<'_> for Ucis {
    ///     fn played(&mut self, before: &Position, played: Played, _: &MoveToken, _: Span) {
    ///         if let Played::Move(m) = played {
    ///             self.0.push(m.uci(before.is_chess960()).to_string());
    ///         }
    ///     }
    /// }
    ///
    /// let raw = RawGame::from_bytes(b"1. e4 (1. d4 d5) e5 *");
    /// let mut ucis = Ucis(Vec::new());
    /// Replayer::new().observe(&raw, &ReplayOptions::default(), &mut ucis);
    /// assert_eq!(ucis.0, ["e2e4", "d2d4", "d7d5", "e7e5"]);
    /// ```
    pub fn observe<'a, O: Observer<'a>>(
        &mut self,
        raw: &RawGame<'a>,
        options: &ReplayOptions,
        observer: &mut O,
    ) -> Replay {
        self.stack.clear();
        self.history.clear();
        let startpos = self.startpos.get_or_insert_with(Position::startpos);
        let mut run = Run {
            source: raw.bytes,
            first_line: raw.first_line,
            tags_seen: SeenTags::default(),
            options: *options,
            tags: Tags::default(),
            stack: std::mem::take(&mut self.stack),
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
                omitted: Omitted::default(),
            },
            omitted_rules: false,
            once: [None; Lint::ALL.len()],
            result_span: Span::default(),
            ready: false,
            alphabet: GameLetters::default(),
            // The position before each move is kept only where it can be
            // used: for a variation (a game without `(` has none) or for
            // lints.
            keep_prev: options.lints || raw.marks.has_paren(),
            observer,
            over: None,
            over_reported: false,
        };
        self.reader.set_lenient(options.lenient);
        // The reader's loop twice over, with and without lints: see `play`.
        if options.lints {
            self.reader.read(raw, &mut Play::<_, true>(&mut run));
        } else {
            self.reader.read(raw, &mut Play::<_, false>(&mut run));
        }
        let (replay, stack) = run.finish();
        self.stack = stack;
        replay
    }
}

impl<'a, O: Observer<'a>> Run<'_, 'a, O> {
    /// Whether a diagnostic is kept: the first [`MAX_DIAGNOSTICS`] are,
    /// the rest are counted.
    fn keep(&mut self, severity: Severity, kind: &DiagnosticKind) -> bool {
        if self.replay.diagnostics.len() < MAX_DIAGNOSTICS {
            return true;
        }
        let omitted = &mut self.replay.omitted;
        match severity {
            Severity::Error => {
                omitted.errors += 1;
                self.omitted_rules |= kind.is_rules();
            }
            Severity::Warning => omitted.warnings += 1,
            Severity::Note => omitted.notes += 1,
        }
        false
    }

    /// Reports a termination marker spelled as export format does not
    /// write it (`1/2`, `½-½`).
    #[cold]
    #[inline(never)]
    fn marker_spelling(&mut self, outcome: Outcome, span: Span) {
        let text = self.source.get(span.start..span.end).unwrap_or_default();
        let kind = DiagnosticKind::ResultSpelling {
            value: encoding::decode(text).into_owned(),
            outcome,
            tag: false,
        };
        self.push(Severity::Warning, kind, span);
    }

    fn push(&mut self, severity: Severity, kind: DiagnosticKind, span: Span) {
        self.push_at(severity, kind, span, None);
    }

    fn push_move(
        &mut self,
        severity: Severity,
        kind: DiagnosticKind,
        span: Span,
        before: &Position,
    ) {
        self.push_at(severity, kind, span, Some(before));
    }

    /// A diagnostic, with the position of the move it is about if any.
    fn push_at(
        &mut self,
        severity: Severity,
        kind: DiagnosticKind,
        span: Span,
        before: Option<&Position>,
    ) {
        if !self.keep(severity, &kind) {
            return;
        }
        let in_variation = self.stack.len() > 1;
        self.replay.diagnostics.push(Diagnostic {
            severity,
            kind,
            span,
            ply: before.map(Ply::of),
            in_variation,
            before: before.map(|p| Box::new(*p)),
        });
    }

    fn syntax(&mut self, kind: ParsePgnErrorKind, span: Span) {
        let severity = if kind.is_recovered() {
            Severity::Warning
        } else {
            Severity::Error
        };
        self.push(severity, DiagnosticKind::Syntax(kind), span);
    }
}

/// The replay as the reader's visitor, with or without lints.
struct Play<'x, 'r, 'a, O, const LINTS: bool>(&'x mut Run<'r, 'a, O>);

impl<'a, O: Observer<'a>, const LINTS: bool> Visitor<'a> for Play<'_, '_, 'a, O, LINTS> {
    type Output = ();
    const MOVE_NUMBERS: bool = LINTS;
    const COMMENTS: bool = O::COMMENTS;

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.0.tag(name, value, span);
        self.0.observer.tag(name, value, span);
    }

    fn end_tags(&mut self) -> Skip {
        Skip(!self.0.start())
    }

    fn move_number(&mut self, number: u32, span: Span) {
        self.0.move_number(number, span);
    }

    #[inline(always)]
    fn san(&mut self, _text: &'a [u8], token: &MoveToken, span: Span) {
        if LINTS {
            self.0.play_with_lints(token, span);
        } else {
            self.0.play::<false>(token, span);
        }
    }

    fn ep_mark(&mut self, span: Span, suffix: Option<Suffix>) {
        self.0.ep_mark(span, suffix);
    }

    fn nag(&mut self, nag: u8, span: Span) {
        self.0.observer.nag(nag, span);
    }

    fn draw_offer(&mut self, span: Span) {
        self.0.observer.draw_offer(span);
    }

    fn comment(&mut self, comment: Comment<'a>) {
        self.0.observer.comment(comment);
    }

    fn begin_variation(&mut self, span: Span) -> Skip {
        debug_assert!(
            self.0.keep_prev,
            "the game's marks are not those of its text"
        );
        self.0.open_variation();
        self.0.observer.begin_variation(span);
        Skip(false)
    }

    fn end_variation(&mut self, span: Span) {
        self.0.stack.pop();
        self.0.observer.end_variation(span);
    }

    fn outcome(&mut self, outcome: Outcome, span: Span) {
        self.0.replay.result_marker = Some(outcome);
        self.0.result_span = span;
        if span.end - span.start != outcome.as_str().len() {
            self.0.marker_spelling(outcome, span);
        }
        self.0.observer.outcome(outcome, span);
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        match error.kind {
            ParsePgnErrorKind::BadMove(err) if self.0.ready => self.0.bad_move(err, error.span),
            kind => self.0.syntax(kind, error.span),
        }
    }

    fn end_game(&mut self) {
        if self.0.ready {
            self.0.end_of_mainline();
        }
    }
}

impl<'a, O: Observer<'a>> Run<'_, 'a, O> {
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
        let white = frame.pos.turn() == Color::White;
        // A number past u32 is read as u32::MAX: its digits say which.
        let right = if written == u32::MAX {
            let digits = diagnostic::written_digits(span.slice(self.source));
            std::str::from_utf8(digits)
                .ok()
                .and_then(|n| n.parse().ok())
                == Some(expected)
        } else {
            u64::from(written) == expected
        };
        if !right {
            self.push(
                Severity::Warning,
                DiagnosticKind::MoveNumber { written, expected },
                span,
            );
        } else if white && span.slice(self.source).ends_with(b"...") {
            self.push(
                Severity::Warning,
                DiagnosticKind::BlackDotsOnWhiteMove { number: written },
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
        let before = self.top().prev;
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
        frame.stopped_at_no_move = false;
        if mainline {
            self.replay.complete = false;
        }
    }

    /// [`play`](Run::play) with lints, as a call: in line, the lint code
    /// took registers the token loop needs.
    #[inline(never)]
    fn play_with_lints(&mut self, token: &MoveToken, span: Span) {
        self.play::<true>(token, span);
    }

    /// Resolves and plays one move, and with `LINTS` (what
    /// [`ReplayOptions::lints`] says) looks for lints. In line in the
    /// reader's loop without lints: with the call's saves and restores and
    /// the lint branches gone, `validate --quiet` ran 4 % fewer
    /// instructions.
    #[inline(always)]
    fn play<const LINTS: bool>(&mut self, token: &MoveToken, span: Span) {
        let frame = self.top();
        if frame.dead {
            frame.since_dead += 1;
            return;
        }
        let mainline = self.stack.len() == 1;
        if mainline && self.over.is_some() && !self.over_reported {
            self.moves_after_game_over(span);
        }
        let keep_prev = self.keep_prev;
        let letters = self.letters(token, span);
        let frame = self.top();
        // The quick path first, by hand: through `resolve`'s `Result` the
        // move went via the stack in two stores and a wider load, which
        // stalled store forwarding on every move.
        let m = match token.quick(&frame.pos, letters) {
            Some(m) => {
                debug_assert_eq!(
                    token.resolve_general(&frame.pos, letters),
                    Ok(Resolved::Move(m)),
                    "the quick path disagrees with the general one"
                );
                m
            }
            None => match token.resolve_general(&frame.pos, letters) {
                Ok(Resolved::Move(m)) => m,
                Ok(Resolved::Null) => return self.null_move(mainline, token, span),
                Err(err) => {
                    let before = frame.pos;
                    self.push_move(Severity::Error, DiagnosticKind::Illegal(err), span, &before);
                    self.kill();
                    return;
                }
            },
        };
        if letters == LetterPolicy::Auto {
            self.alphabet.played(token, m.role());
        }
        let last = self.stack.len() - 1;
        let frame = &mut self.stack[last];
        if keep_prev {
            frame.prev.clone_from(&frame.pos);
            frame.last = span;
        }
        self.observer
            .played(&frame.pos, Played::Move(m), token, span);
        frame.pos.play_unchecked(m);
        if mainline {
            self.mainline_played(span);
        }
        if LINTS {
            self.move_lints(token, m, span);
        }
    }

    /// A null move (`--`) in the current line.
    fn null_move(&mut self, mainline: bool, token: &MoveToken, span: Span) {
        let last = self.stack.len() - 1;
        match null_move(&self.stack[last].pos) {
            Some(next) => {
                self.observer
                    .played(&self.stack[last].pos, Played::Null, token, span);
                let frame = self.top();
                frame.prev = std::mem::replace(&mut frame.pos, next);
                frame.last = span;
                if mainline {
                    let before = self.top().prev;
                    self.push_move(Severity::Warning, DiagnosticKind::NullMove, span, &before);
                    self.mainline_played(span);
                }
            }
            None => {
                let before = self.stack[last].pos;
                self.push_move(Severity::Error, DiagnosticKind::NullInCheck, span, &before);
                self.kill();
            }
        }
    }

    /// A token in move position that is no move.
    #[cold]
    fn bad_move(&mut self, err: ParseMoveTokenError, span: Span) {
        let frame = self.top();
        let kind = ParsePgnErrorKind::BadMove(err);
        if frame.dead {
            frame.since_dead += 1;
            self.syntax(kind, span);
            return;
        }
        let before = frame.pos;
        self.push_move(Severity::Error, DiagnosticKind::Syntax(kind), span, &before);
        self.kill();
        // A token that does not even start like a move (`\` of `\$14`, a
        // stray mark) is no attempt at one: a variation after it is an
        // alternative to the line's last move, as if the token were not
        // there, not to it (that would judge its moves for the wrong side).
        // The line's position stays that of its last legal move.
        let attempt = span
            .slice(self.source)
            .first()
            .is_some_and(u8::is_ascii_alphanumeric);
        if !attempt && matches!(err, ParseMoveTokenError::Unexpected { offset: 0 }) {
            self.top().stopped_at_no_move = true;
        }
    }

    /// How to read `B` in `token`, written at `span`: as `--lang` says,
    /// or with `--lang auto` in the alphabet the game's letters show
    /// ([`GameLetters`]).
    #[inline]
    fn letters(&mut self, token: &MoveToken, span: Span) -> LetterPolicy {
        if self.options.letters != LetterPolicy::Auto {
            return self.options.letters;
        }
        self.alphabet.read(token, self.source, span)
    }

    #[inline]
    fn move_lints(&mut self, token: &MoveToken, m: Move, span: Span) {
        let frame = self.top();
        let lints = token.lints(&frame.prev, m, &frame.pos);
        if !lints.is_empty() {
            self.lints(lints, span);
        }
    }

    #[inline(always)]
    fn mainline_played(&mut self, span: Span) {
        self.replay.plies += 1;
        let pos = &self.stack[0].pos;
        self.observer.mainline_ply(MainlinePly {
            ply: self.replay.plies,
            span,
            position: pos,
        });
        let (halfmoves, key) = (pos.halfmoves(), pos.zobrist_key());
        if halfmoves == 0 {
            self.history.irreversible();
        }
        let seen = self.history.push(key);
        if self.over.is_none() {
            // Bounded: after 150 plies without a capture or pawn move the
            // 75-move rule ends the game and the history is not scanned.
            if halfmoves >= 150 {
                self.over = Some(Termination::SeventyFiveMoves);
            } else if self.history.is_fivefold(seen) {
                self.over = Some(Termination::FivefoldRepetition);
            }
        }
    }

    /// A mainline move after the game ended by rule: reported once. A
    /// warning, not an error: both rules date from 2014 (FIDE Laws 9.6),
    /// and older games legally went on.
    #[cold]
    fn moves_after_game_over(&mut self, span: Span) {
        let Some(termination) = self.over else {
            return;
        };
        self.over_reported = true;
        let before = self.stack[0].pos;
        self.push_move(
            Severity::Warning,
            DiagnosticKind::MovesAfterGameOver(termination),
            span,
            &before,
        );
    }

    fn open_variation(&mut self) {
        let frame = self.top();
        let (start, dead) = if !frame.dead {
            (frame.prev, false)
        } else if frame.since_dead == 0 && frame.stopped_at_no_move {
            // The token it follows is no move: it replaces the move before.
            (frame.prev, false)
        } else if frame.since_dead == 0 {
            // The variation replaces the illegal move: it starts where that
            // move was tried.
            (frame.pos, false)
        } else {
            // Its start position is unknown: its moves are not judged.
            (frame.pos, true)
        };
        self.stack.push(Frame {
            prev: start,
            pos: start,
            dead,
            since_dead: 1,
            stopped_at_no_move: false,
            last: Span::default(),
        });
    }

    /// A separate en-passant mark after the line's last move: a lint that
    /// names the move (its label runs from the move to the mark), and a
    /// check or mate sign on the mark judged as the move's, in place of
    /// the missing sign reported for a move token without one.
    #[cold]
    #[inline(never)]
    fn ep_mark(&mut self, span: Span, suffix: Option<Suffix>) {
        if !self.options.lints {
            return;
        }
        let frame = self.top();
        let move_span = frame.last;
        if frame.dead || move_span == Span::default() {
            // After an illegal move: its mark is not judged.
            return self.lint(Lint::EpMark, span, None);
        }
        let (before, after) = (frame.prev, frame.pos);
        let marked = Span::new(move_span.start, span.end);
        let lint = if took_en_passant(&before, &after) {
            Lint::EpMark
        } else {
            Lint::EpNotMade
        };
        self.lint(lint, marked, Some(&before));
        let Some(suffix) = suffix else {
            return;
        };
        if let Ok(token) = MoveToken::parse(move_span.slice(self.source))
            && token.kind != MoveKind::Null
            && token.suffix.is_none()
            && let Some(missing) = suffix_lint(None, token.notation, &after)
        {
            self.retract(missing, move_span);
        }
        if let Some(lint) = suffix_lint(Some(suffix), Notation::San, &after) {
            self.lint(lint, marked, Some(&before));
        }
    }

    /// Takes back a per-move lint reported at `span`: kept, or counted
    /// among the omitted when the game had too many diagnostics.
    #[cold]
    fn retract(&mut self, lint: Lint, span: Span) {
        debug_assert!(!once_per_game(lint));
        let diagnostics = &mut self.replay.diagnostics;
        let at = diagnostics.iter().rposition(|d| {
            d.span == span && matches!(d.kind, DiagnosticKind::Lint { lint: l, .. } if l == lint)
        });
        match at {
            Some(at) => {
                diagnostics.remove(at);
                for slot in self.once.iter_mut().flatten() {
                    if *slot > at {
                        *slot -= 1;
                    }
                }
            }
            None if diagnostics.len() >= MAX_DIAGNOSTICS => {
                let omitted = &mut self.replay.omitted.warnings;
                *omitted = omitted.saturating_sub(1);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color::Black;
    use crate::fen::EpMode;

    fn run(text: &str) -> Replay {
        let options = ReplayOptions {
            letters: LetterPolicy::Auto,
            lints: true,
            lenient: false,
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

    /// Every repeated tag is found, with the line of its first pair, in
    /// games of few tags and of more than the list holds.
    #[test]
    fn repeated_tags_name_their_first_line() {
        for names in [3, 31, 32, 33, 100] {
            let tags: String = (0..names).map(|i| format!("[T{i} \"v\"]\n")).collect();
            // Every name again, backwards, then the first once more.
            let again: String = (0..names)
                .rev()
                .map(|i| format!("[T{i} \"w\"]\n"))
                .collect();
            let r = run(&format!("{tags}{again}[T0 \"x\"]\n\n1. e4 *"));
            let expected: Vec<String> = (0..names)
                .rev()
                .chain([0])
                .map(|i| {
                    let line = i + 1;
                    format!("tag \"T{i}\" again (first on line {line}); the first value is used")
                })
                .collect();
            let messages: Vec<String> = found(&r).into_iter().map(|(_, _, m)| m).collect();
            assert_eq!(messages, expected, "{names} names");
        }
    }

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
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 97 60\"]\n60. Ra3 *".into(),
                Unfinished,
                &[],
            ),
            // Claimable with the next move: any result, nothing reported.
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 98 60\"]\n60. Ra3 1-0".into(),
                FiftyMovesNextMove,
                &[],
            ),
            // At 99 with only a pawn move to make: no claim.
            (
                "[FEN \"7k/5Q1p/8/8/8/8/8/K7 b - - 99 80\"]\n*".into(),
                Unfinished,
                &[],
            ),
            // 4...Ng8 would be the start position a third time.
            (
                "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2".into(),
                ThreefoldRepetitionNextMove,
                &[],
            ),
            // The start position twice, but Black cannot reach it now.
            ("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *".into(), Unfinished, &[]),
            // A third occurrence already on the board comes first.
            (
                format!("{KNIGHTS_TWICE} 5. Nf3 Nf6 6. Ng1 0-1"),
                ThreefoldRepetition,
                &[],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 149 80\"]\n80. Ra3 1/2-1/2".into(),
                SeventyFiveMoves,
                &[],
            ),
            (
                "[FEN \"4k3/8/8/8/8/8/R7/4K3 w - - 149 80\"]\n80. Ra3 1-0".into(),
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
    fn moves_after_a_game_over_by_rule_are_reported_once() {
        // Fivefold after 8...Ng8 (the start position for the fifth time).
        let fivefold = format!("{KNIGHTS_TWICE} 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8");
        let r = run(&format!("{fivefold} 9. e4 e5 10. d4 1/2-1/2"));
        assert_eq!(kinds(&r), ["moves-after-end"]);
        let d = &r.diagnostics[0];
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.ply.map(|p| p.to_string()).as_deref(), Some("9."));
        assert_eq!(
            d.message(),
            "the game was already drawn by fivefold repetition before this move (FIDE Laws since 2014)"
        );
        assert_eq!(r.termination, Some(Termination::Unfinished));
        // Four times is not over: no warning.
        let fourfold = format!("{KNIGHTS_TWICE} 5. Nf3 Nf6 6. Ng1 Ng8 7. e4 *");
        assert_eq!(kinds(&run(&fourfold)), Vec::<&str>::new());
        // The 75-move rule, reached after 60...Rh2 (150 half-moves).
        let r = run("[FEN \"k7/8/8/8/8/8/r7/4K3 w - - 148 80\"]\n80. Kd1 Rh2 81. Kc1 1/2-1/2");
        assert_eq!(kinds(&r), ["moves-after-end"]);
        assert!(r.diagnostics[0].message().contains("75-move rule"));
        assert_eq!(
            r.diagnostics[0].ply.map(|p| p.to_string()).as_deref(),
            Some("81.")
        );
        // A FEN already past the rule: its first move comes after the end.
        let r = run("[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 150 80\"]\n80. Ra2 Kd7 1/2-1/2");
        assert_eq!(kinds(&r), ["moves-after-end"]);
        assert_eq!(
            r.diagnostics[0].ply.map(|p| p.to_string()).as_deref(),
            Some("80.")
        );
        // A variation after the end is not a move of the game.
        let r = run(&format!("{fivefold} (8... e5) 1/2-1/2"));
        assert_eq!(kinds(&r), Vec::<&str>::new());
    }

    #[test]
    fn fivefold_counts_positions_since_the_last_irreversible_move() {
        // The bucket counts that spare the history scan must forget the
        // positions before a pawn move: four times the start position, then
        // 1.e4 and the knights again: the game goes on.
        let shuffle = "Nf3 Nf6 Ng1 Ng8";
        let before = format!("{KNIGHTS_TWICE} 5. Nf3 Nf6 6. Ng1 Ng8 7. e4 e5");
        let r = run(&format!("{before} 8. Nf3 Nf6 9. Ng1 Ng8 10. Nc3 *"));
        assert_eq!(kinds(&r), Vec::<&str>::new());
        // After 1.e4 e5, the same shuffle four more times is the fifth
        // occurrence of the position after 7...e5, found at the last move.
        let after = format!("{shuffle} {shuffle} {shuffle} {shuffle}");
        let r = run(&format!("{before} {after} *"));
        assert_eq!(r.termination, Some(Termination::FivefoldRepetition));
        let r = run(&format!("{before} {after} Nc3 *"));
        assert_eq!(kinds(&r), ["moves-after-end"]);
    }

    #[test]
    fn ply_count_tag_is_checked() {
        let r = run("[PlyCount \"3\"]\n1. e4 e5 2. Nf3 *");
        assert_eq!(kinds(&r), Vec::<&str>::new());
        let r = run("[PlyCount \"4\"]\n1. e4 e5 2. Nf3 *");
        assert_eq!(kinds(&r), ["plycount"]);
        assert_eq!(
            r.diagnostics[0].message(),
            "PlyCount tag says 4 plies, the mainline has 3"
        );
        // Not a number: nothing to compare; an illegal game: no count.
        assert_eq!(kinds(&run("[PlyCount \"?\"]\n1. e4 *")), Vec::<&str>::new());
        assert_eq!(kinds(&run("[PlyCount \"9\"]\n1. e5 *")), ["illegal"]);
    }

    #[test]
    fn en_passant_right_makes_positions_differ() {
        // After 1.d4 Black may take en passant: that position is not the one
        // after 3.Ke1 and 5.Ke1 (same placement, no capture possible).
        let moves = "1. d4 Kd8 2. Ke2 Ke8 3. Ke1 Kd8 4. Ke2 Ke8 5. Ke1 *";
        let with_ep = run(&format!(
            "[FEN \"4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1\"]\n{moves}"
        ));
        // Not a third occurrence; 5...Kd8 would make one (after 1...Kd8,
        // 3...Kd8).
        assert_eq!(
            with_ep.termination,
            Some(Termination::ThreefoldRepetitionNextMove)
        );
        // The same moves with the black pawn far away: threefold.
        let without = run(&format!(
            "[FEN \"4k3/8/8/8/p7/8/3P4/4K3 w - - 0 1\"]\n{moves}"
        ));
        assert_eq!(without.termination, Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn a_mainline_with_a_syntax_error_has_no_end_to_judge() {
        // Fool's mate, with a stray brace before the mating move: the
        // moves after it are played, but the end is not the game's.
        let r = run("1. f3 e5 2. g4 } Qh4# 0-1");
        assert_eq!(r.status, Status::SyntaxError);
        assert_eq!((r.plies, r.complete, r.termination), (4, false, None));
        assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
        // In a variation, the error leaves the mainline's end judged.
        let r = run("1. f3 e5 (1... d5 } 2. e4) 2. g4 Qh4# 0-1");
        assert_eq!(r.status, Status::SyntaxError);
        assert!(r.complete);
        assert_eq!(
            r.termination,
            Some(Termination::Checkmate {
                winner: Color::Black
            })
        );
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
                "[White \"A\"]\n[Black \"B\"]\r\n\r\n[White \"C\"] [Black \"D\"]\n1. e4 *",
                &[
                    (
                        Severity::Warning,
                        "duplicate-tag",
                        "tag \"White\" again (first on line 1); the first value is used",
                    ),
                    (
                        Severity::Warning,
                        "duplicate-tag",
                        "tag \"Black\" again (first on line 2); the first value is used",
                    ),
                ],
            ),
            (
                // The mainline's end is not judged after an error: no
                // word on its missing result.
                "1. e4 e5 (1... c5 2. Nf3",
                &[(Severity::Error, "syntax", "unclosed variation")],
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
                "1. e4 e5 2... Nf3 Nc6 3.. d4 *",
                &[(
                    Severity::Warning,
                    "move-number",
                    "move number 2... before White's move 2.",
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
            (
                "1. e4 a6 2. e5 d5 3. exd6 ep *",
                &[(
                    Severity::Warning,
                    "lint",
                    "en-passant mark (SAN writes none)",
                )],
            ),
            (
                "1. e4 d5 2. exd5 e.p. (2. Nf3 ep) *",
                &[
                    (
                        Severity::Warning,
                        "lint",
                        "en-passant mark on a move that is no en-passant capture",
                    ),
                    (
                        Severity::Warning,
                        "lint",
                        "en-passant mark on a move that is no en-passant capture",
                    ),
                ],
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

    /// A separate e.p. mark is reported with its move (the span runs from
    /// the move to the mark), and a check or mate sign on it stands for
    /// the move's own when the move's token has none.
    #[test]
    fn a_separate_ep_mark_names_its_move_and_may_carry_its_check_sign() {
        // cxd6 takes en passant and gives check (the pawn on d6 attacks e7).
        const HEAD: &str = "[SetUp \"1\"]\n[FEN \"8/4k3/8/2Pp4/8/8/8/4K2R w K d6 0 3\"]\n\n";
        const EP: &str = "en-passant mark (SAN writes none)";
        const NOT_EP: &str = "en-passant mark on a move that is no en-passant capture";
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("3. cxd6 e.p.+ Ke6 *", &[("cxd6 e.p.+", EP)]),
            ("3. cxd6 ep+ Ke6 *", &[("cxd6 ep+", EP)]),
            (
                "3. cxd6 e.p. Ke6 *",
                &[("cxd6", "check suffix + missing"), ("cxd6 e.p.", EP)],
            ),
            (
                "3. cxd6 e.p.# Ke6 *",
                &[
                    ("cxd6 e.p.#", EP),
                    ("cxd6 e.p.#", "mate suffix # on a move that does not mate"),
                ],
            ),
            // The move's own sign is judged, and so is the mark's.
            ("3. cxd6+ e.p.+ Ke6 *", &[("cxd6+ e.p.+", EP)]),
            (
                "3. cxd6+ e.p.# Ke6 *",
                &[
                    ("cxd6+ e.p.#", EP),
                    ("cxd6+ e.p.#", "mate suffix # on a move that does not mate"),
                ],
            ),
            ("3. cxd6 {takes} e.p.+ Ke6 *", &[("cxd6 {takes} e.p.+", EP)]),
            // A per-game lint reported after the sign taken back still
            // counts its later moves.
            (
                "3. c5xd6 e.p.+ Ke6 4. Rh1-h2 *",
                &[
                    (
                        "c5xd6",
                        "long algebraic notation, not SAN (first of 2 moves)",
                    ),
                    ("c5xd6 e.p.+", EP),
                ],
            ),
            ("3. Rh7+ ep+ Ke6 *", &[("Rh7+ ep+", NOT_EP)]),
            (
                "3. Kd2 e.p.+ Ke6 *",
                &[
                    ("Kd2 e.p.+", NOT_EP),
                    ("Kd2 e.p.+", "check suffix + on a move that gives no check"),
                ],
            ),
            // In a variation, the alternative's mark is its own.
            (
                "3. cxd6 e.p.+ (3. cxd6 ep) 3... Ke6 *",
                &[
                    (
                        "cxd6 e.p.+",
                        "en-passant mark (SAN writes none) (first of 2 moves)",
                    ),
                    ("cxd6", "check suffix + missing"),
                ],
            ),
        ];
        for &(movetext, expected) in cases {
            let text = format!("{HEAD}{movetext}");
            let r = run(&text);
            let got: Vec<_> = r
                .diagnostics
                .iter()
                .map(|d| (d.span.slice(text.as_bytes()), d.kind.to_string()))
                .collect();
            let expected: Vec<_> = expected
                .iter()
                .map(|&(label, message)| (label.as_bytes(), message.to_string()))
                .collect();
            assert_eq!(got, expected, "{movetext}");
            assert!(r.diagnostics.iter().all(|d| d.ply.is_some()), "{movetext}");
        }
        // A mark after an illegal move is not judged.
        let text = format!("{HEAD}3. Kd7 e.p.+ *");
        assert_eq!(kinds(&run(&text)), ["illegal", "lint"]);
    }

    #[test]
    fn move_numbers_past_u32_are_named_as_written() {
        let text = "1. e4 99999999999. e5 *";
        let r = run(text);
        let d = &r.diagnostics[0];
        assert_eq!(
            d.kind,
            DiagnosticKind::MoveNumber {
                written: u32::MAX,
                expected: 1
            }
        );
        assert_eq!(
            d.message_in(text.as_bytes()),
            "move number 99999999999 before move 1"
        );
        // The moves of a game count past u32::MAX, and so do its numbers.
        let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295\"]\n\n\
                    4294967295. Kf1 Kd7 4294967296. Kg1 Kd6 4294967298. Kh2 Ke5 *";
        let r = run(text);
        let found: Vec<_> = r
            .diagnostics
            .iter()
            .map(|d| {
                let ply = d.ply.map(|p| p.to_string());
                (ply, d.message_in(text.as_bytes()))
            })
            .collect();
        assert_eq!(
            found,
            [(
                None,
                "move number 4294967298 before move 4294967297".to_string()
            )]
        );
        assert_eq!(r.status, Status::Valid);
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

    /// A token that is no move attempt (`\` of `\$14`) is reported once: a
    /// variation after it is an alternative to the move before it, and is
    /// judged from there. A mangled move (`Xe5`) is still replaced by the
    /// variation after it.
    #[test]
    fn no_follow_on_error_after_a_garbage_token() {
        let cases = [
            "1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4 \\$14 (3. Bc4 Be7) 3... exd4) 3. Bb5 *",
            "1. e4 e5 2. Nf3 \\ (2. Nc3 Nf6) 2... Nc6 *",
            "1. e4 Xe5 (1... e5 2. Nf3) *",
        ];
        for text in cases {
            let r = run(text);
            let errors: Vec<_> = r
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| (d.kind.name(), d.message_in(text.as_bytes())))
                .collect();
            assert_eq!(errors.len(), 1, "{text}: {errors:?}");
            assert_eq!(errors[0].0, "bad-move", "{text}");
        }
        let text = "1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4 \\$14 (3. Bc4 Be7) 3... exd4) 3. Bb5 *";
        assert_eq!(
            run(text).diagnostics[0].message_in(text.as_bytes()),
            "not a move: unexpected character `\\` at the start of `\\`"
        );
        // The mainline's position stays that of its last legal move.
        let r = run(r"1. e4 e5 \ (1... c5 2. Nf3) *");
        assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
        assert_eq!(
            r.position.map(|p| p.fen(EpMode::Always)).as_deref(),
            Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
        );
    }
}
