//! The start of a replay: the tags it reads, and the start position they
//! set up (`[FEN]`, `[SetUp]`, `[Variant]`).

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::{
    DiagnosticKind, DroppedRight, Frame, MainlinePly, Observer, Run, Severity, Status, Termination,
    offset_in,
};
use crate::color::Color;
use crate::encoding;
use crate::fen::{FenError, FenField, ParseFenErrorKind};
use crate::pgn::{LineIndex, Outcome, Span, unescape};
use crate::position::{Position, PositionProblem};
use crate::role::Role;
use crate::setup::Setup;
use crate::square::{File, Rank, Square};

/// Tags the replay reads.
#[derive(Default, Clone, Copy)]
pub(super) struct Tags<'a> {
    pub(super) fen: Option<(&'a [u8], Span)>,
    pub(super) setup: Option<&'a [u8]>,
    pub(super) variant: Option<&'a [u8]>,
    pub(super) result: Option<(&'a [u8], Span)>,
    pub(super) ply_count: Option<(&'a [u8], Span)>,
}

/// The names of the tags read so far in a game, and where each pair is
/// (kept with lints only: for warnings). A game has a few tags, looked up
/// in a list; a hostile one has a million, looked up in a hash map.
#[derive(Default)]
pub(super) struct SeenTags<'a> {
    few: Vec<(&'a [u8], Span)>,
    /// The names once there are [`SeenTags::MANY`] (then `few` is empty).
    many: Option<HashMap<&'a [u8], Span>>,
    /// The game's lines, indexed at the first repeated tag.
    lines: Option<LineIndex<'a>>,
}

impl<'a> SeenTags<'a> {
    /// Past this many names, they move to the hash map.
    const MANY: usize = 32;

    /// Where the tag `name` was read first, if before; else `span` is now
    /// where it was.
    fn first(&mut self, name: &'a [u8], span: Span) -> Option<Span> {
        let Some(many) = &mut self.many else {
            if let Some(&(_, first)) = self.few.iter().find(|&&(seen, _)| seen == name) {
                return Some(first);
            }
            self.few.push((name, span));
            if self.few.len() == Self::MANY {
                self.many = Some(self.few.drain(..).collect());
            }
            return None;
        };
        match many.entry(name) {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(entry) => {
                entry.insert(span);
                None
            }
        }
    }

    /// The line of `span` in `source`, whose first line is `first_line`.
    fn line_of(&mut self, span: Span, source: &'a [u8], first_line: u64) -> u64 {
        let lines = self
            .lines
            .get_or_insert_with(|| LineIndex::new(source, first_line));
        lines.line_col(span).0
    }
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
        if let Some(first) = self.tags_seen.first(name, span) {
            let first_line = self.tags_seen.line_of(first, self.source, self.first_line);
            let name = String::from_utf8_lossy(name).into_owned();
            self.push(
                Severity::Warning,
                DiagnosticKind::DuplicateTag { name, first_line },
                span,
            );
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
                let name =
                    encoding::decode(&unescape(tags.variant.unwrap_or_default())).into_owned();
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
        let mut chess960 = chess960;
        let mut pos = match tags.fen {
            Some((value, span)) => {
                let text = encoding::decode(&unescape(value)).into_owned();
                let lead = text.len() - text.trim_start().len();
                let text = text.trim();
                let mut setup = SetUp::new(text, chess960);
                let parsed = match setup.position() {
                    Err(FenError::Parse(err)) if err.field == FenField::FullmoveNumber => {
                        // Full-move number 0 is a common slip of problem
                        // databases: read as 1, with a warning.
                        match text.strip_suffix(" 0") {
                            Some(head) => {
                                setup = SetUp::new(&format!("{head} 1"), chess960);
                                let fixed = setup.position();
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
                // Where a castling letter of the tag is, when the value
                // needs no unescaping (else the whole value).
                let escaped = value.contains(&b'\\');
                for &(letter, reason) in &setup.dropped {
                    let at = castling_field(text)
                        .and_then(|(start, field)| field.find(letter).map(|i| start + i))
                        .filter(|_| !escaped)
                        .map(|i| span.start + lead + i);
                    let located = at.map_or(span, |at| Span::new(at, at + 1));
                    self.push(
                        Severity::Warning,
                        DiagnosticKind::CastlingRightDropped { letter, reason },
                        located,
                    );
                }
                chess960 = setup.chess960;
                match parsed {
                    Ok(pos) => {
                        self.reachable(&pos, span);
                        pos
                    }
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
        if pos.halfmoves() >= 150 && !pos.is_checkmate() {
            // A FEN past the 75-move rule: the game is over before its
            // first move.
            self.over = Some(Termination::SeventyFiveMoves);
        }
        self.stack.push(Frame {
            prev: pos,
            pos,
            dead: false,
            since_dead: 0,
            stopped_at_no_move: false,
            last: Span::default(),
        });
        self.ready = true;
        self.observer.mainline_ply(MainlinePly {
            ply: 0,
            span: Span::default(),
            position: &self.stack[0].pos,
        });
        if let Some((value, span)) = tags.result {
            self.replay.result_tag = Outcome::from_tag(value);
            let kind = match self.replay.result_tag {
                None => Some(DiagnosticKind::BadResultTag(
                    encoding::decode(value).into_owned(),
                )),
                Some(outcome) if value.trim_ascii() != outcome.as_str().as_bytes() => {
                    Some(DiagnosticKind::ResultSpelling {
                        value: encoding::decode(value).into_owned(),
                        outcome,
                        tag: true,
                    })
                }
                Some(_) => None,
            };
            if let Some(kind) = kind {
                self.push(Severity::Warning, kind, span);
            }
        }
        true
    }
}

impl<'a, O: Observer<'a>> Run<'_, 'a, O> {
    /// Reports a `[FEN]` position that cannot arise in a game (an error:
    /// the game cannot have been played; its moves are still replayed) and
    /// a half-move clock longer than the game (a warning: the clock only
    /// bears on the 50- and 75-move rules).
    fn reachable(&mut self, pos: &Position, span: Span) {
        let reasons = pos.unreachable();
        if !reasons.is_empty() {
            self.push(
                Severity::Error,
                DiagnosticKind::UnreachableFen(reasons),
                span,
            );
        }
        if !pos.clock_fits() {
            self.push(
                Severity::Warning,
                DiagnosticKind::FenClockTooLong {
                    halfmoves: pos.halfmoves(),
                    plies: pos.plies_played(),
                },
                span,
            );
        }
    }
}

/// A `[FEN]` tag's position being set up, with the castling rights the
/// game cannot use taken out of the text one by one.
struct SetUp {
    text: String,
    /// Whether the game is Chess960: by its Variant tag, or by castling
    /// letters that name files (Shredder-FEN, X-FEN) of a position other
    /// than the standard one.
    chess960: bool,
    /// The rights taken out: the letter, and why.
    dropped: Vec<(char, DroppedRight)>,
}

impl SetUp {
    fn new(text: &str, chess960: bool) -> SetUp {
        SetUp {
            text: text.to_string(),
            chess960,
            dropped: Vec::new(),
        }
    }

    /// The position, once every right it cannot use is dropped.
    fn position(&mut self) -> Result<Position, FenError> {
        // Each round drops one of at most four letters.
        for _ in 0..=4 {
            let setup = match Setup::from_fen(&self.text) {
                Ok(setup) => setup,
                Err(err) => match (err.field, err.kind) {
                    (FenField::Castling, ParseFenErrorKind::NoCastlingRook(c)) => {
                        self.drop(err.offset, c, DroppedRight::NoKingAndRook);
                        continue;
                    }
                    _ => return Err(FenError::Parse(err)),
                },
            };
            if !self.chess960 && !self.standard_rights(&setup) {
                continue;
            }
            match Position::from_fen(&self.text) {
                Err(FenError::Position { error, offsets })
                    if error.problems.iter().all(|p| {
                        matches!(
                            p,
                            PositionProblem::InvalidCastlingRight(_)
                                | PositionProblem::SecondCastlingRight(_)
                        )
                    }) =>
                {
                    let at = offsets.first().copied().unwrap_or(0);
                    let reason = match error.problems.first() {
                        Some(PositionProblem::SecondCastlingRight(_)) => DroppedRight::SecondOnSide,
                        _ => DroppedRight::NoKingAndRook,
                    };
                    match self.text.get(at..).and_then(|t| t.chars().next()) {
                        Some(c) if c.is_ascii_alphabetic() => self.drop(at, c, reason),
                        _ => return Err(FenError::Position { error, offsets }),
                    }
                }
                Ok(mut pos) => {
                    if self.chess960 {
                        pos.set_chess960(true);
                    }
                    return Ok(pos);
                }
                Err(err) => return Err(err),
            }
        }
        Position::from_fen(&self.text)
    }

    /// Checks the castling letters of a standard game: `true` if every one
    /// has its king on e1/e8 and its rook on the a- or h-file corner, or
    /// if file letters name another position (the game is then Chess960);
    /// else drops the first other right and returns `false`.
    fn standard_rights(&mut self, setup: &Setup) -> bool {
        let Some((start, field)) = castling_field(&self.text) else {
            return true;
        };
        let mut odd = None;
        for (i, c) in field.char_indices() {
            if c == '-' || standard_right(setup, c) {
                continue;
            }
            if !matches!(c.to_ascii_lowercase(), 'k' | 'q') {
                // Shredder-FEN or X-FEN letters for a Chess960 position.
                self.chess960 = true;
                return true;
            }
            odd = odd.or(Some((start + i, c)));
        }
        match odd {
            Some((at, c)) => {
                self.drop(at, c, DroppedRight::NotStandard);
                false
            }
            None => true,
        }
    }

    /// Takes the letter at `at` out of the castling field (`-` if none is
    /// left).
    fn drop(&mut self, at: usize, letter: char, reason: DroppedRight) {
        self.dropped.push((letter, reason));
        let end = at + letter.len_utf8();
        let alone = self.text[..at].ends_with(' ')
            && self
                .text
                .get(end..)
                .is_none_or(|t| t.is_empty() || t.starts_with(' '));
        self.text
            .replace_range(at..end, if alone { "-" } else { "" });
    }
}

/// Whether castling letter `c` stands for a standard right: its king on
/// e1/e8 and its rook on the a- or h-file corner.
fn standard_right(setup: &Setup, c: char) -> bool {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let file = match c.to_ascii_lowercase() {
        'k' | 'h' => File::H,
        'q' | 'a' => File::A,
        _ => return false,
    };
    let rank = Rank::FIRST.relative_to(color);
    let board = &setup.board;
    board.king_of(color) == Some(Square::from_coords(File::E, rank))
        && board.piece_at(Square::from_coords(file, rank)) == Some(Role::Rook.of(color))
}

/// The castling field of a FEN and its offset.
fn castling_field(text: &str) -> Option<(usize, &str)> {
    let field = text.split(' ').filter(|f| !f.is_empty()).nth(2)?;
    Some((field.as_ptr() as usize - text.as_ptr() as usize, field))
}

#[cfg(test)]
mod tests {
    use crate::fen::EpMode;
    use crate::pgn::RawGame;
    use crate::replay::{ReplayOptions, Status, replay};

    /// (status, diagnostic kinds, final FEN) of a game.
    fn verdict(text: &str) -> (Status, Vec<&'static str>, Option<String>) {
        let r = replay(
            &RawGame::from_bytes(text.as_bytes()),
            &ReplayOptions::default(),
        );
        let kinds = r.diagnostics.iter().map(|d| d.kind.name()).collect();
        (r.status, kinds, r.position.map(|p| p.fen(EpMode::Always)))
    }

    /// A result in a spelling export format does not write (`1/2`,
    /// `½-½`), in the `Result` tag or the marker, is read as its result,
    /// with a warning, and checked like any other; a tag that spells no
    /// result is not checked.
    #[test]
    fn results_in_other_spellings_are_read_and_checked() {
        use Status::{Invalid, Valid};
        let mate = "1. f3 e5 2. g4 Qh4#";
        let cases: &[(&str, &str, Status, &[&str])] = &[
            ("1/2-1/2", "1/2-1/2", Valid, &[]),
            (" 1/2-1/2 ", "1/2-1/2", Valid, &[]),
            ("1/2", "1/2-1/2", Valid, &["result-spelling"]),
            (
                "\u{bd}-\u{bd}",
                "1/2",
                Valid,
                &["result-spelling", "result-spelling"],
            ),
            (
                "1-0",
                "1/2",
                Invalid,
                &["result-spelling", "result-mismatch"],
            ),
            (
                "1/2",
                "1-0",
                Invalid,
                &["result-spelling", "result-mismatch"],
            ),
            ("1/2-", "1-0", Valid, &["bad-result-tag"]),
            ("1/2 - 1/2", "1-0", Valid, &["bad-result-tag"]),
        ];
        for &(tag, marker, status, kinds) in cases {
            let text = format!("[Result \"{tag}\"]\n\n1. e4 e5 {marker}");
            let (got, got_kinds, _) = verdict(&text);
            assert_eq!((got, got_kinds.as_slice()), (status, kinds), "{text}");
        }
        let (status, kinds, _) = verdict(&format!("[Result \"1/2\"]\n\n{mate} 0-1"));
        assert_eq!(
            (status, kinds.as_slice()),
            (Invalid, &["result-spelling", "result-mismatch"][..])
        );
        let (status, kinds, _) = verdict(&format!("[Result \"1/2\"]\n\n{mate} 1/2"));
        assert_eq!(
            (status, kinds.as_slice()),
            (
                Invalid,
                &["result-spelling", "result-spelling", "result-contradicts"][..]
            )
        );
        let r = replay(
            &RawGame::from_bytes("[Result \"1/2\"]\n\n1. e4 \u{bd}-\u{bd}".as_bytes()),
            &ReplayOptions::default(),
        );
        let messages: Vec<String> = r.diagnostics.iter().map(|d| d.kind.to_string()).collect();
        assert_eq!(
            messages,
            [
                "Result tag \"1/2\" is written \"1/2-1/2\" in export format",
                "result \u{bd}-\u{bd} is written 1/2-1/2 in export format"
            ]
        );
    }

    #[test]
    fn castling_rights_standard_chess_and_chess960() {
        use Status::{Invalid, Valid};
        let cases: &[(&str, &str, Status, &[&str], &str)] = &[
            // Standard rights: castling as usual.
            (
                "",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                Valid,
                &[],
                "1. O-O O-O-O",
            ),
            // The king on d1: in standard chess no right, no castling.
            (
                "",
                "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
                Invalid,
                &["fen-castling", "illegal"],
                "1. O-O",
            ),
            // The same with a Variant tag: a Chess960 castle.
            (
                "[Variant \"Chess960\"]\n",
                "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
                Valid,
                &[],
                "1. O-O",
            ),
            // Shredder-FEN letters for a Chess960 position: Chess960.
            (
                "",
                "4k3/8/8/8/8/8/8/1R1K3R w HB - 0 1",
                Valid,
                &[],
                "1. O-O-O",
            ),
            // Shredder-FEN letters of the standard position: standard.
            (
                "",
                "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
                Valid,
                &[],
                "1. O-O O-O-O",
            ),
            // No rook for the right: dropped, the game replayed.
            (
                "",
                "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1",
                Valid,
                &["fen-castling"],
                "1. O-O-O",
            ),
            (
                "",
                "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
                Valid,
                &["fen-castling"],
                "1. Kd2",
            ),
            // A file letter without its rook, in Chess960: dropped.
            (
                "[Variant \"Chess960\"]\n",
                "4k3/8/8/8/8/8/8/1R1K4 w BG - 0 1",
                Valid,
                &["fen-castling"],
                "1. O-O-O",
            ),
            // Both rights of a side off the standard squares.
            (
                "",
                "r5kr/8/8/8/8/8/8/4K3 b kq - 0 1",
                Valid,
                &["fen-castling", "fen-castling"],
                "1... Kf8",
            ),
            // Two rights on one side: the outer rook's stands, the inner
            // one's goes, whichever the letters' order.
            (
                "[Variant \"Chess960\"]\n",
                "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1",
                Invalid,
                &["fen-castling", "illegal"],
                "1. O-O",
            ),
            (
                "[Variant \"Chess960\"]\n",
                "4k3/8/8/8/8/8/8/RR2K3 w BA - 0 1",
                Valid,
                &["fen-castling"],
                "1. Rb2 Kd8 2. O-O-O",
            ),
        ];
        for &(variant, fen, status, kinds, moves) in cases {
            let text = format!("{variant}[FEN \"{fen}\"]\n\n{moves} *");
            let (found, found_kinds, _) = verdict(&text);
            assert_eq!((found, found_kinds.as_slice()), (status, kinds), "{text}");
        }
        // The right dropped shows in the position: `-` when none is left.
        let (_, _, fen) = verdict("[FEN \"4k3/8/8/8/8/8/8/R3K3 w K - 0 1\"]\n\n*");
        assert_eq!(fen.as_deref(), Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
        let (_, _, fen) = verdict("[FEN \"r3k3/8/8/8/8/8/8/R3K3 w KQq - 0 1\"]\n\n*");
        assert_eq!(fen.as_deref(), Some("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1"));
        let (_, _, fen) = verdict("[FEN \"4k3/8/8/8/8/8/8/4K1RR w GH - 0 1\"]\n\n*");
        assert_eq!(fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K1RR w K - 0 1"));
    }
}
