//! What the replay reports: diagnostics with their severity, kind,
//! location and move.

use std::fmt;

use crate::{
    color::Color,
    fen::{EpMode, FenError},
    notation::{Lint, ResolveError},
    pgn::{Outcome, ParsePgnErrorKind, Span},
    position::Position,
    reachability::Unreachable,
    replay::Termination,
};

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

/// The move a diagnostic is about: its number and who played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ply {
    /// The full-move number (`23` in `23...Nf6`).
    pub fullmove: u64,
    /// The side that played (or tried to play) the move.
    pub color: Color,
}

impl Ply {
    /// The half-move number the move number implies: `2n - 1` for White's
    /// move `n`, `2n` for Black's (`23...Nf6` is ply 46).
    pub fn number(self) -> u64 {
        self.fullmove
            .saturating_mul(2)
            .saturating_sub(self.color.fold(1, 0))
    }

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

/// Why a castling right of a `[FEN]` tag is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DroppedRight {
    /// No king and rook on the back rank make the right.
    NoKingAndRook,
    /// Standard chess castles only from the standard squares (a Chess960
    /// game needs a Variant tag).
    NotStandard,
    /// The side has a right with a rook farther from the king.
    SecondOnSide,
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
    /// The `[FEN]` tag's position can be played but cannot arise in a
    /// game: every reason found.
    UnreachableFen(Vec<Unreachable>),
    /// The `[FEN]` tag's half-move clock counts more plies than the game
    /// has had (full-move number and side to move).
    FenClockTooLong {
        /// The half-move clock.
        halfmoves: u64,
        /// The plies played before the position.
        plies: u64,
    },
    /// A castling right of the `[FEN]` tag the game cannot use, dropped.
    CastlingRightDropped {
        /// Its letter in the tag.
        letter: char,
        /// Why.
        reason: DroppedRight,
    },
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
        expected: u64,
    },
    /// A move number written with Black's dots (`12...`) before White's
    /// move of that number.
    BlackDotsOnWhiteMove {
        /// The number written (and White's move's).
        number: u32,
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
    /// A result spelled as the reader takes it but export format does not
    /// write it (`1/2`, `½-½`), in the `Result` tag or the termination
    /// marker: read as that result.
    ResultSpelling {
        /// The text as written.
        value: String,
        /// The result it spells.
        outcome: Outcome,
        /// In the `Result` tag; else the termination marker.
        tag: bool,
    },
    /// No termination marker at the end of the movetext.
    MissingResult,
    /// No move and no termination marker: a tag section alone (a round
    /// published before its games were played, an export of games without
    /// moves), read as a game of its own.
    NoMoves,
    /// The recorded result contradicts how the game ended on the board.
    ResultContradicts {
        /// The recorded result (marker, else tag).
        recorded: Outcome,
        /// How the game ended on the board.
        termination: Termination,
    },
    /// `*` although the game is over on the board.
    UnknownResultOnFinishedBoard(Termination),
    /// A mainline move after the game ended by rule (fivefold repetition
    /// or the 75-move rule), reported at the first such move.
    MovesAfterGameOver(Termination),
    /// The `PlyCount` tag differs from the mainline's length.
    PlyCountMismatch {
        /// The tag's value.
        tag: u32,
        /// Plies in the mainline.
        plies: u32,
    },
    /// A tag name a second time in one tag section (the first value is
    /// the one used); reported at the second.
    DuplicateTag {
        /// The tag name.
        name: String,
        /// The line of the first one.
        first_line: u64,
    },
}

impl DiagnosticKind {
    /// A short stable name for machine-readable output (`syntax`,
    /// `illegal`, `ambiguous`, `null-in-check`, `null-move`, `bad-fen`,
    /// `impossible-fen`, `fen-clock`, `fen-castling`,
    /// `setup-without-fen`, `unsupported-variant`, `lint`, `move-number`,
    /// `result-mismatch`, `missing-result`, `result-contradicts`,
    /// `unknown-result`, `moves-after-end`, `plycount`, `duplicate-tag`).
    pub const fn name(&self) -> &'static str {
        match self {
            DiagnosticKind::Syntax(ParsePgnErrorKind::BadMove(_)) => "bad-move",
            DiagnosticKind::Syntax(ParsePgnErrorKind::UnescapedQuote) => "unescaped-quote",
            DiagnosticKind::Syntax(ParsePgnErrorKind::SkippedToken) => "skipped-token",
            DiagnosticKind::Syntax(ParsePgnErrorKind::GluedMove) => "glued-move",
            DiagnosticKind::Syntax(_) => "syntax",
            DiagnosticKind::Illegal(ResolveError::Ambiguous { .. }) => "ambiguous",
            DiagnosticKind::Illegal(_) => "illegal",
            DiagnosticKind::NullInCheck => "null-in-check",
            DiagnosticKind::NullMove => "null-move",
            DiagnosticKind::BadFen(_) => "bad-fen",
            DiagnosticKind::UnreachableFen(_) => "impossible-fen",
            DiagnosticKind::FenClockTooLong { .. } => "fen-clock",
            DiagnosticKind::CastlingRightDropped { .. } => "fen-castling",
            DiagnosticKind::SetUpWithoutFen => "setup-without-fen",
            DiagnosticKind::FullmoveZero => "fen-fullmove-zero",
            DiagnosticKind::UnsupportedVariant(_) => "unsupported-variant",
            DiagnosticKind::Lint { .. } => "lint",
            DiagnosticKind::MoveNumber { .. } | DiagnosticKind::BlackDotsOnWhiteMove { .. } => {
                "move-number"
            }
            DiagnosticKind::ResultMismatch { .. } => "result-mismatch",
            DiagnosticKind::BadResultTag(_) => "bad-result-tag",
            DiagnosticKind::ResultSpelling { .. } => "result-spelling",
            DiagnosticKind::MissingResult => "missing-result",
            DiagnosticKind::NoMoves => "no-moves",
            DiagnosticKind::ResultContradicts { .. } => "result-contradicts",
            DiagnosticKind::UnknownResultOnFinishedBoard(_) => "unknown-result",
            DiagnosticKind::MovesAfterGameOver(_) => "moves-after-end",
            DiagnosticKind::PlyCountMismatch { .. } => "plycount",
            DiagnosticKind::DuplicateTag { .. } => "duplicate-tag",
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
                | DiagnosticKind::UnreachableFen(_)
                | DiagnosticKind::Syntax(ParsePgnErrorKind::BadMove(_))
                | DiagnosticKind::ResultMismatch { .. }
                | DiagnosticKind::ResultContradicts { .. }
        )
    }
}

/// The digits a move number indication starts with: a number past
/// u32::MAX, read as u32::MAX, is told by them.
pub(crate) fn written_digits(text: &[u8]) -> &[u8] {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    &text[..digits]
}

impl Diagnostic {
    /// The diagnostic's message for the game text `source`: the kind's
    /// [`Display`](fmt::Display), with a token that is no move (or a stray
    /// character) and its offending character named
    /// ([`ParsePgnErrorKind::message`]).
    pub fn message_in(&self, source: &[u8]) -> String {
        match &self.kind {
            DiagnosticKind::Syntax(kind) => kind.message(self.span.slice(source)),
            // A number past u32::MAX is read saturated: shown as written.
            DiagnosticKind::MoveNumber {
                written: u32::MAX,
                expected,
            } => match std::str::from_utf8(written_digits(self.span.slice(source))) {
                Ok(written) if !written.is_empty() => {
                    format!("move number {written} before move {expected}")
                }
                _ => self.kind.to_string(),
            },
            kind => kind.to_string(),
        }
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
            DiagnosticKind::UnreachableFen(reasons) => {
                f.write_str("FEN tag: position cannot arise in a game: ")?;
                for (i, reason) in reasons.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{reason}")?;
                }
                Ok(())
            }
            DiagnosticKind::FenClockTooLong { halfmoves, plies } => write!(
                f,
                "FEN tag: half-move clock {halfmoves} but only {plies} plies before this position"
            ),
            DiagnosticKind::CastlingRightDropped { letter, reason } => {
                write!(f, "FEN tag: castling right '{letter}' dropped: ")?;
                match reason {
                    DroppedRight::SecondOnSide => {
                        f.write_str("a second right on its side (the outer rook's right stands)")
                    }
                    DroppedRight::NotStandard => {
                        let (rank, file) = (
                            if letter.is_ascii_uppercase() { 1 } else { 8 },
                            if letter.eq_ignore_ascii_case(&'q') {
                                'a'
                            } else {
                                'h'
                            },
                        );
                        write!(
                            f,
                            "standard chess castles only with the king on e{rank} and a rook on {file}{rank} (Chess960 needs a Variant tag)"
                        )
                    }
                    DroppedRight::NoKingAndRook => {
                        f.write_str("no king and rook on the back rank that can castle with it")
                    }
                }
            }
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
            DiagnosticKind::BlackDotsOnWhiteMove { number } => {
                write!(f, "move number {number}... before White's move {number}.")
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
            DiagnosticKind::ResultSpelling {
                value,
                outcome,
                tag: true,
            } => write!(
                f,
                "Result tag \"{value}\" is written \"{outcome}\" in export format"
            ),
            DiagnosticKind::ResultSpelling {
                value,
                outcome,
                tag: false,
            } => write!(f, "result {value} is written {outcome} in export format"),
            DiagnosticKind::MissingResult => f.write_str("no game termination marker"),
            DiagnosticKind::NoMoves => f.write_str("no moves and no game termination marker"),
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
            DiagnosticKind::MovesAfterGameOver(termination) => {
                let rule = match termination {
                    Termination::SeventyFiveMoves => "the 75-move rule",
                    _ => "fivefold repetition",
                };
                write!(
                    f,
                    "the game was already drawn by {rule} before this move (FIDE Laws since 2014)"
                )
            }
            DiagnosticKind::PlyCountMismatch { tag, plies } => {
                let noun = if *tag == 1 { "ply" } else { "plies" };
                write!(
                    f,
                    "PlyCount tag says {tag} {noun}, the mainline has {plies}"
                )
            }
            DiagnosticKind::DuplicateTag { name, first_line } => {
                write!(
                    f,
                    "tag \"{name}\" again (first on line {first_line}); the first value is used"
                )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_and_names() {
        let cases = [
            (
                Ply {
                    fullmove: 23,
                    color: Color::Black,
                },
                "23...",
                46,
            ),
            (
                Ply {
                    fullmove: 1,
                    color: Color::White,
                },
                "1.",
                1,
            ),
            (
                Ply {
                    fullmove: 0,
                    color: Color::White,
                },
                "0.",
                0,
            ),
        ];
        for (ply, text, number) in cases {
            assert_eq!(ply.to_string(), text);
            assert_eq!(ply.number(), number);
        }
        assert_eq!(DiagnosticKind::MissingResult.name(), "missing-result");
        assert_eq!(Severity::Warning.as_str(), "warning");
        assert!(Severity::Note < Severity::Warning && Severity::Warning < Severity::Error);
    }
}
