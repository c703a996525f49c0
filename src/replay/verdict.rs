//! The verdict at the end of the mainline: how the game ended on the
//! board, and whether the recorded result and ply count agree with it.

use super::{DiagnosticKind, Frame, Observer, Replay, Run, Severity, Status, Termination};
use crate::pgn::{Outcome, Span};
use crate::position::Position;
use crate::role::Role;

impl<'a, O: Observer<'a>> Run<'_, 'a, O> {
    /// How the game ended on the board.
    pub(super) fn termination(&self, pos: &Position) -> Termination {
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
        let repetitions = self.history.repetitions();
        if repetitions >= 5 {
            Termination::FivefoldRepetition
        } else if repetitions >= 3 {
            Termination::ThreefoldRepetition
        } else if pos.halfmoves() >= 100 {
            Termination::FiftyMoves
        } else {
            self.next_move_claim(pos)
        }
    }

    /// A draw the side to move may claim with its next move (FIDE Laws
    /// 9.2.1(a), 9.3.1(a)), else [`Termination::Unfinished`]. Moves are
    /// generated only when a claim is possible at all: a position with the
    /// opponent to move occurred twice, or the clock stands at 99.
    fn next_move_claim(&self, pos: &Position) -> Termination {
        let threefold = self.history.has_twice_with_other_to_move();
        let fifty = pos.halfmoves() == 99;
        if !threefold && !fifty {
            return Termination::Unfinished;
        }
        let mut fifty_claim = false;
        for &m in pos.legal_moves().as_slice() {
            // A capture or pawn move leads to no earlier position and
            // starts the count again.
            if m.is_capture() || m.role() == Role::Pawn {
                continue;
            }
            let mut next = *pos;
            next.play_unchecked(m);
            if threefold
                && self
                    .history
                    .occurrences_with_other_to_move(next.zobrist_key())
                    >= 2
            {
                return Termination::ThreefoldRepetitionNextMove;
            }
            // A move that mates ends the game: no claim is made with it.
            fifty_claim |= fifty && !fifty_claim && next.has_legal_moves();
        }
        if fifty_claim {
            Termination::FiftyMovesNextMove
        } else {
            Termination::Unfinished
        }
    }

    pub(super) fn end_of_mainline(&mut self) {
        let tags = self.tags;
        let Some(dead) = self.stack.first().map(|main| main.dead) else {
            return;
        };
        // A mainline with an error (an unreadable token skipped, an
        // illegal move) has no final position to judge: the positions
        // after its first error are not known to be the game's.
        let errored = self.replay.first_mainline_error().is_some();
        // The tag and the marker are compared as written, whatever the
        // moves between them.
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
        self.replay.complete = !dead && !errored;
        if !self.replay.complete {
            return;
        }
        let main = &self.stack[0];
        let termination = self.termination(&main.pos);
        self.replay.termination = Some(termination);
        if let Some((value, span)) = tags.ply_count {
            let plies = self.replay.plies;
            match std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.trim().parse::<u32>().ok())
            {
                Some(tag) if tag != plies => self.push(
                    Severity::Warning,
                    DiagnosticKind::PlyCountMismatch { tag, plies },
                    span,
                ),
                _ => {}
            }
        }
        if marker.is_none() && self.options.lints {
            // A tag section alone is said to be one.
            let played_none = self.replay.plies == 0
                && !self
                    .replay
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Error);
            let kind = if played_none {
                DiagnosticKind::NoMoves
            } else {
                DiagnosticKind::MissingResult
            };
            self.push(
                Severity::Warning,
                kind,
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

    /// The replay, and the stack to give back to the replayer.
    pub(super) fn finish(mut self) -> (Replay, Vec<Frame>) {
        if self.ready {
            self.replay.position = self.stack.first().map(|f| f.pos);
        }
        let mut rules = self.omitted_rules;
        let mut errors = self.replay.omitted.errors > 0;
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
        (self.replay, self.stack)
    }
}
