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

use std::borrow::Cow;

use crate::moves::Move;
use crate::notation::{
    LetterPolicy, MoveToken, Notation, ParseMoveTokenError, ResolveError, Resolved, Style,
};
use crate::pgn::{
    CommentKind, Comments, Game, Line, MoveNode, MovetextWriter, Outcome, RawGame, Span, Tag,
    TokenKind, Tokens, WriteOptions, parse_game, result_text, start_ply, write_game_with,
    write_tags,
};
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
/// is built ([`parse_game`] then [`play_game`]: `convert --to json`, and
/// [`Converter::write_pgn`]'s tree fallback). The tree takes a few hundred
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
    let mut moves = 0usize;
    for token in Tokens::new(raw.bytes) {
        if let TokenKind::Move(_) = token.kind {
            moves += 1;
            if moves > limit {
                return Err(PlayError {
                    kind: PlayErrorKind::TooManyMoves { limit },
                    span: token.span,
                });
            }
        }
    }
    Ok(())
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
    const fn accepts(self, notation: Notation) -> bool {
        matches!(
            (self, notation),
            (Required::San, Notation::San)
                | (Required::Long, Notation::Long)
                | (Required::Uci, Notation::Uci)
        )
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
        let mut pos = *start;
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
            if let (Some(required), Played::Move(_)) = (self.required, played)
                && !required.accepts(token.notation)
            {
                return Err(error(PlayErrorKind::Notation {
                    expected: required.name(),
                    found: notation_name(token.notation),
                }));
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

/// How [`Converter::write_pgn`] reads and writes a game.
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
}

/// Why the streaming converter ([`Converter::write_pgn_streaming`]) did
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

/// One line being converted: the mainline or an open variation.
#[derive(Debug, Clone)]
struct Frame {
    /// The position after the line's last move.
    pos: Position,
    /// The position before it (where a variation opened now starts).
    prev: Position,
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
}

/// The PGN converter, with buffers kept from game to game.
///
/// [`Converter::write_pgn`] writes a game in export format with its moves
/// in another notation in one walk over its tokens: each move (mainline
/// and variations, positions kept on a stack) is resolved, converted and
/// written as it is read, without building the game's tree. Its output is
/// byte for byte that of [`write_pgn_tree`] (which builds the tree).
///
/// # Examples
/// ```
/// use pgnkit::convert::{Converter, PgnOptions};
/// use pgnkit::pgn::{RawGame, TagSelection, WriteOptions};
/// use pgnkit::{LetterPolicy, Position, Style};
///
/// let options = PgnOptions {
///     style: Style::DE_LAN,
///     write: WriteOptions { tags: TagSelection::None, ..WriteOptions::default() },
///     letters: LetterPolicy::Auto,
///     required: None,
/// };
/// let raw = RawGame::from_bytes(b"1. e4 {best} (1. Nf3 $1 d5) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0");
/// let mut out = Vec::new();
/// Converter::new().write_pgn(&raw, &Position::startpos(), &options, &mut out)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "1. e2-e4 {best} (1. Sg1-f3 $1 d7-d5) 1... e7-e5 2. Dd1-h5 Sb8-c6 3. Lf1-c4\n\
///      Sg8-f6 4. Dh5xf7# 1-0\n\n"
/// );
/// # Ok::<_, pgnkit::convert::PlayError>(())
/// ```
#[derive(Debug, Default)]
pub struct Converter {
    stack: Vec<Frame>,
    /// Comments waiting for the next move (or the end of their line):
    /// offset, length, kind.
    pending: Vec<(usize, usize, CommentKind)>,
    movetext: Vec<u8>,
}

impl Converter {
    /// A converter with empty buffers.
    pub fn new() -> Converter {
        Converter::default()
    }

    /// Writes one game to `out` in export format, its moves converted to
    /// `options.style`, playing them from `start`. The streaming walk does
    /// the work; the few games it cannot lay out in order are written
    /// through the tree ([`write_pgn_tree`]), with the same result. On an
    /// error nothing is written.
    ///
    /// # Errors
    /// The first move (in the order written) that cannot be played, as
    /// [`play_game`] reports it.
    pub fn write_pgn(
        &mut self,
        raw: &RawGame<'_>,
        start: &Position,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), PlayError> {
        match self.write_pgn_streaming(raw, start, options, out) {
            Ok(()) => Ok(()),
            Err(StreamError::Play(err)) => Err(err),
            Err(StreamError::Layout(_)) => {
                check_tree_budget(raw, MAX_TREE_MOVES)?;
                write_pgn_tree(&parse_game(raw), start, options, out)
            }
        }
    }

    /// The streaming walk of [`Converter::write_pgn`], without the tree
    /// fallback. On an error nothing is written.
    ///
    /// # Errors
    /// [`StreamError::Play`]: a move that cannot be played;
    /// [`StreamError::Layout`]: the game needs the tree writer.
    pub fn write_pgn_streaming(
        &mut self,
        raw: &RawGame<'_>,
        start: &Position,
        options: &PgnOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), StreamError> {
        if raw.marks.first_nul().is_some() {
            return Err(StreamError::Layout(Span::default()));
        }
        let source = raw.bytes;
        let mut walk = Walk {
            source,
            comments: raw.comments,
            options,
            stack: &mut self.stack,
            pending: &mut self.pending,
            alphabet: LetterPolicy::Auto,
            keep_prev: raw.marks.has_paren(),
        };
        walk.stack.clear();
        walk.pending.clear();
        self.movetext.clear();
        let mut w = MovetextWriter::new(&mut self.movetext, options.write.width);
        let (tags, result) = walk.run(start, &mut w)?;
        w.finish(result_text(&tags, result));
        write_tags(&tags, result, options.write.tags, out);
        out.extend_from_slice(&self.movetext);
        Ok(())
    }
}

/// One game's walk.
struct Walk<'c, 'a> {
    source: &'a [u8],
    comments: Comments<'a>,
    options: &'c PgnOptions,
    stack: &'c mut Vec<Frame>,
    pending: &'c mut Vec<(usize, usize, CommentKind)>,
    alphabet: LetterPolicy,
    /// Whether each line keeps the position before its last move (only a
    /// game with a variation needs it).
    keep_prev: bool,
}

impl<'a> Walk<'_, 'a> {
    fn top(&mut self) -> &mut Frame {
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn run(
        &mut self,
        start: &Position,
        w: &mut MovetextWriter<'_>,
    ) -> Result<(Vec<Tag<'a>>, Option<Outcome>), StreamError> {
        let source = self.source;
        let mut tokens = Tokens::with_comments(source, self.comments);
        let mut tags = Vec::new();
        while let Some((name, value, span)) = tokens.next_plain_tag() {
            tags.push(Tag { name, value, span });
        }
        let mut result = None;
        let mut started = false;
        for token in tokens {
            let span = token.span;
            let layout = Err(StreamError::Layout(span));
            if let TokenKind::Tag { name, value } = token.kind {
                if started {
                    return layout;
                }
                tags.push(Tag { name, value, span });
                continue;
            }
            if !started {
                started = true;
                self.stack.push(Frame {
                    pos: *start,
                    prev: *start,
                    next_ply: start_ply(&tags),
                    has_move: false,
                    interrupted: true,
                    varied: false,
                    written_after: false,
                    draw_offer: false,
                    muted: false,
                });
            }
            let options = &self.options.write;
            match token.kind {
                TokenKind::Tag { .. } | TokenKind::Error(_) => return layout,
                TokenKind::MoveNumber(_) | TokenKind::EpMark => {}
                TokenKind::Move(text) => self.play(text, span, w)?,
                TokenKind::Comment(text) | TokenKind::LineComment(text) => {
                    let kind = match token.kind {
                        TokenKind::Comment(_) => CommentKind::Brace,
                        _ => CommentKind::Line,
                    };
                    let pending_empty = self.pending.is_empty();
                    let frame = self.top();
                    if frame.has_move && !frame.varied && pending_empty {
                        if !frame.muted && options.comments {
                            frame.interrupted = true;
                            frame.written_after = true;
                            w.comment(text, kind);
                        }
                    } else {
                        let at = offset_in(source, text);
                        self.pending.push((at, text.len(), kind));
                    }
                }
                TokenKind::Nag(nag) => {
                    let frame = self.top();
                    if !frame.has_move {
                        return layout;
                    }
                    if !frame.muted && options.nags {
                        if frame.written_after || frame.draw_offer {
                            return layout;
                        }
                        w.nag(nag);
                    }
                }
                TokenKind::DrawOffer => {
                    let frame = self.top();
                    if !frame.has_move {
                        return layout;
                    }
                    if !frame.draw_offer {
                        frame.draw_offer = true;
                        if !frame.muted && options.nags {
                            if frame.written_after {
                                return layout;
                            }
                            w.token(b"(=)");
                        }
                    }
                }
                TokenKind::StartVariation => {
                    if !self.keep_prev || self.stack.len() > crate::replay::MAX_DEPTH {
                        return layout;
                    }
                    let frame = self.top();
                    if !frame.has_move {
                        return layout;
                    }
                    frame.varied = true;
                    let written = !frame.muted && options.variations;
                    if written {
                        frame.interrupted = true;
                        frame.written_after = true;
                        w.open_variation();
                    }
                    let child = Frame {
                        pos: frame.prev,
                        prev: frame.prev,
                        next_ply: frame.next_ply - 1,
                        has_move: false,
                        interrupted: true,
                        varied: false,
                        written_after: false,
                        draw_offer: false,
                        muted: !written,
                    };
                    self.stack.push(child);
                }
                TokenKind::EndVariation => {
                    if self.stack.len() < 2 {
                        return layout;
                    }
                    let muted = self.top().muted;
                    self.flush_pending(muted, w);
                    if !muted {
                        w.close_variation();
                    }
                    self.stack.pop();
                }
                TokenKind::Result(outcome) => {
                    if self.stack.len() > 1 || result.is_some() {
                        return layout;
                    }
                    result = Some(outcome);
                }
            }
        }
        if self.stack.len() > 1 {
            return Err(StreamError::Layout(Span::new(source.len(), source.len())));
        }
        self.flush_pending(false, w);
        Ok((tags, result))
    }

    /// Writes the comments waiting for a move (unless `muted`); whether
    /// any was written.
    fn flush_pending(&mut self, muted: bool, w: &mut MovetextWriter<'_>) -> bool {
        let write = !muted && self.options.write.comments && !self.pending.is_empty();
        if write {
            for &(at, len, kind) in self.pending.iter() {
                w.comment(&self.source[at..at + len], kind);
            }
        }
        self.pending.clear();
        write
    }

    fn play(
        &mut self,
        text: &'a [u8],
        span: Span,
        w: &mut MovetextWriter<'_>,
    ) -> Result<(), StreamError> {
        let error = |kind| StreamError::Play(PlayError { kind, span });
        let token = MoveToken::parse(text).map_err(|e| error(PlayErrorKind::Parse(e)))?;
        let letters = if self.options.letters == LetterPolicy::Auto {
            self.alphabet = self.alphabet.settle(token.letters);
            self.alphabet
        } else {
            self.options.letters
        };
        let frame = self.top();
        let played = match token.resolve(&frame.pos, letters) {
            Ok(Resolved::Move(m)) => Played::Move(m),
            Ok(Resolved::Null) if frame.pos.is_check() => {
                return Err(error(PlayErrorKind::NullInCheck));
            }
            Ok(Resolved::Null) => Played::Null,
            Err(e) => return Err(error(PlayErrorKind::Illegal(e))),
        };
        if let (Some(required), Played::Move(_)) = (self.options.required, played)
            && !required.accepts(token.notation)
        {
            return Err(error(PlayErrorKind::Notation {
                expected: required.name(),
                found: notation_name(token.notation),
            }));
        }
        let muted = self.top().muted;
        let before_written = self.flush_pending(muted, w);
        let style = self.options.style;
        let keep_prev = self.keep_prev;
        let frame = self.top();
        if !muted {
            w.number(frame.next_ply, frame.interrupted || before_written);
            match played {
                Played::Move(m) => w.token(style.text(&frame.pos, m).as_bytes()),
                Played::Null => w.token(b"--"),
            }
        }
        if keep_prev {
            frame.prev.clone_from(&frame.pos);
        }
        match played {
            Played::Move(m) => frame.pos.play_unchecked(m),
            Played::Null => frame.pos.play_null(),
        }
        frame.next_ply += 1;
        frame.has_move = true;
        frame.interrupted = false;
        frame.varied = false;
        frame.written_after = false;
        frame.draw_offer = false;
        Ok(())
    }
}

/// The offset of `part` inside `whole`, when it is a sub-slice.
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// Writes a game in export format with its moves in `options.style`, from
/// its tree: [`play_game`], then [`write_game_with`]. What
/// [`Converter::write_pgn`] falls back to; it writes the same bytes. On an
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
    let _ = write_game_with(game, out, &options.write, &mut move_text);
    Ok(())
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
