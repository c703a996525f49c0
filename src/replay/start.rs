//! The start of a replay: the tags it reads, and the start position they
//! set up (`[FEN]`, `[SetUp]`, `[Variant]`).

use super::{DiagnosticKind, Frame, MainlinePly, Observer, Run, Severity, Status, offset_in};
use crate::fen::{FenError, FenField};
use crate::pgn::{Outcome, Span, unescape};
use crate::position::Position;

/// Tags the replay reads.
#[derive(Default, Clone, Copy)]
pub(super) struct Tags<'a> {
    pub(super) fen: Option<(&'a [u8], Span)>,
    pub(super) setup: Option<&'a [u8]>,
    pub(super) variant: Option<&'a [u8]>,
    pub(super) result: Option<(&'a [u8], Span)>,
    pub(super) ply_count: Option<(&'a [u8], Span)>,
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

impl<'a, O: Observer<'a>> Run<'_, 'a, O> {
    pub(super) fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        if self.options.lints {
            self.repeated_tag(name, span);
        }
        let tags = &mut self.tags;
        let value_span = {
            let start = offset_in(self.source, value);
            Span::new(start, start + value.len())
        };
        match name {
            b"FEN" if tags.fen.is_none() => tags.fen = Some((value, value_span)),
            b"SetUp" if tags.setup.is_none() => tags.setup = Some(value),
            b"Variant" if tags.variant.is_none() => tags.variant = Some(value),
            b"Result" if tags.result.is_none() => tags.result = Some((value, span)),
            b"PlyCount" if tags.ply_count.is_none() => tags.ply_count = Some((value, span)),
            b"White" if self.replay.white.is_none() => self.replay.white = Some(value_span),
            b"Black" if self.replay.black.is_none() => self.replay.black = Some(value_span),
            _ => {}
        }
    }

    /// Reports a tag name seen before in the game.
    fn repeated_tag(&mut self, name: &'a [u8], span: Span) {
        if let Some(&(_, first)) = self.tags_seen.iter().find(|&&(seen, _)| seen == name) {
            let (first_line, _) = first.line_col(self.source, self.first_line);
            let name = String::from_utf8_lossy(name).into_owned();
            self.push(
                Severity::Warning,
                DiagnosticKind::DuplicateTag { name, first_line },
                span,
            );
        } else {
            self.tags_seen.push((name, span));
        }
    }

    /// Sets up the mainline's start position from the tags; `false` when
    /// the game cannot be replayed.
    pub(super) fn start(&mut self) -> bool {
        let tags = self.tags;
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
                *self.startpos
            }
        };
        if chess960 {
            pos.set_chess960(true);
        }
        self.history.push(pos.zobrist_key());
        self.stack.push(Frame {
            prev: pos,
            pos,
            dead: false,
            since_dead: 0,
        });
        self.ready = true;
        self.observer.mainline_ply(MainlinePly {
            ply: 0,
            span: Span::default(),
            position: &self.stack[0].pos,
        });
        if let Some((value, span)) = tags.result {
            self.replay.result_tag = outcome(value);
            if self.replay.result_tag.is_none() {
                let text = String::from_utf8_lossy(value).into_owned();
                self.push(Severity::Warning, DiagnosticKind::BadResultTag(text), span);
            }
        }
        true
    }
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
