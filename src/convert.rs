//! A parsed game's moves played on the board: every move of the mainline
//! and of its variations resolved against its position, ready to be
//! written in another notation ([`crate::Style`]) or as JSON.
//!
//! The replay engine ([`crate::replay::Replayer`]) judges a game without building its
//! tree; this module works on the tree ([`Game`]) of a game already judged
//! valid, so it stops at the first move it cannot play and says why.
//!
//! # Examples
//! ```
//! use pgnkit::convert::{Played, play_game};
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

use crate::moves::Move;
use crate::notation::{LetterPolicy, Notation, ParseMoveTokenError, ResolveError, Resolved, Style};
use crate::pgn::{Game, Line, MoveNode, Span};
use crate::position::Position;

/// What a move node did on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// A legal move.
    Move(Move),
    /// A null move (the turn passed).
    Null,
}

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
        let mut pos = self.before.clone();
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

/// The notation every move must be written in (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Required {
    /// Short algebraic, English or German letters as the policy says.
    San,
    /// Long algebraic.
    Long,
    /// UCI.
    Uci,
}

impl Required {
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
        alphabet: LetterPolicy::Auto,
        required,
    };
    player.line(&game.mainline, start)
}

struct Player {
    policy: LetterPolicy,
    alphabet: LetterPolicy,
    required: Option<Required>,
}

impl Player {
    // Recursion is bounded by the parser's variation depth limit.
    fn line<'n, 'a>(
        &mut self,
        line: &'n Line<'a>,
        start: &Position,
    ) -> Result<PlayedLine<'n, 'a>, PlayError> {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(line.moves.len());
        for node in &line.moves {
            let error = |kind| PlayError {
                kind,
                span: node.span,
            };
            let token = node.token.map_err(|e| error(PlayErrorKind::Parse(e)))?;
            let letters = if self.policy == LetterPolicy::Auto {
                self.alphabet = self.alphabet.settle(token.letters);
                self.alphabet
            } else {
                self.policy
            };
            let resolved = token
                .resolve(&pos, letters)
                .map_err(|e| error(PlayErrorKind::Illegal(e)))?;
            let played = match resolved {
                Resolved::Move(m) => Played::Move(m),
                Resolved::Null if pos.is_check() => return Err(error(PlayErrorKind::NullInCheck)),
                Resolved::Null => Played::Null,
            };
            if let (Some(required), Played::Move(_)) = (self.required, played) {
                let ok = matches!(
                    (required, token.notation),
                    (Required::San, Notation::San)
                        | (Required::Long, Notation::Long)
                        | (Required::Uci, Notation::Uci)
                );
                if !ok {
                    return Err(error(PlayErrorKind::Notation {
                        expected: required.name(),
                        found: notation_name(token.notation),
                    }));
                }
            }
            let mut variations = Vec::with_capacity(node.variations.len());
            for variation in &node.variations {
                variations.push(self.line(variation, &pos)?);
            }
            let before = pos.clone();
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
