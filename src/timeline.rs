//! Clocks and evaluations of a game's mainline, ply by ply, from the
//! `[%clk]`, `[%emt]` and `[%eval]` commands of its comments
//! ([`Command`]), and what they add up to: the clock at a move, the time
//! used, the largest drop of the evaluation.
//!
//! A command belongs to the mainline move whose comments hold it (the
//! comments after the move, before the next one); commands in variations
//! and before the first move are not read. Reading needs no chess rules:
//! the side and the move number of a ply follow from the side that moves
//! first and its move number (those of the `FEN` tag, when it has them).

use crate::color::Color;
use crate::encoding;
use crate::notation::MoveToken;
use crate::pgn::{
    Command, Comment, Eval, MATE_SCORE, ParsePgnError, ParsePgnErrorKind, RawGame, Reader, Skip,
    Span, Visitor, fen_move_number, unescape,
};

/// What the comments of one mainline ply say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlyNotes {
    /// The mover's clock after the move (`[%clk]`), in milliseconds.
    pub clock: Option<u64>,
    /// The time the move took (`[%emt]`), in milliseconds.
    pub emt: Option<u64>,
    /// The evaluation after the move (`[%eval]`).
    pub eval: Option<Eval>,
}

/// The notes of every mainline ply of a game, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// The side that makes the first ply.
    pub first: Color,
    /// The move number of the first ply (the `FEN` tag's, else 1).
    pub first_move: u32,
    /// The notes after each mainline ply (one per move token, readable or
    /// not).
    pub plies: Vec<PlyNotes>,
}

impl Timeline {
    /// Reads the mainline commands of a game.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Eval, RawGame};
    /// use pgnkit::timeline::Timeline;
    /// use pgnkit::Color;
    /// let raw = RawGame::from_bytes(
    ///     b"1. e4 { [%eval 0.17] [%clk 0:03:00] } ( 1. d4 { [%clk 0:01:00] } ) \
    ///       1... e5 { [%eval 0.2] [%clk 0:02:58] } 2. Nf3 *",
    /// );
    /// let timeline = Timeline::read(&raw);
    /// assert_eq!(timeline.plies.len(), 3);
    /// assert_eq!(timeline.plies[0].clock, Some(180_000));
    /// assert_eq!(timeline.plies[1].eval, Some(Eval::Centipawns(20)));
    /// assert_eq!(timeline.last_clock(Color::Black), Some(178_000));
    /// assert_eq!(timeline.plies[2].clock, None);
    /// ```
    pub fn read(raw: &RawGame<'_>) -> Timeline {
        let mut notes = Notes {
            timeline: Timeline {
                first: Color::White,
                first_move: 1,
                plies: Vec::new(),
            },
            source: raw.bytes,
            fen_seen: false,
        };
        Reader::default().read(raw, &mut notes);
        notes.timeline
    }

    /// The side that makes ply `index` (0: the first ply).
    pub fn side(&self, index: usize) -> Color {
        if index.is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    /// The notes of `side`'s plies, in order, with their indices.
    fn of(&self, side: Color) -> impl Iterator<Item = (usize, &PlyNotes)> {
        let start = usize::from(self.first != side);
        self.plies.iter().enumerate().skip(start).step_by(2)
    }

    /// The plies with a clock.
    pub fn clocks(&self) -> usize {
        self.plies.iter().filter(|p| p.clock.is_some()).count()
    }

    /// The plies with an evaluation.
    pub fn evals(&self) -> usize {
        self.plies.iter().filter(|p| p.eval.is_some()).count()
    }

    /// `side`'s clock after its last move that shows one, in milliseconds.
    pub fn last_clock(&self, side: Color) -> Option<u64> {
        self.of(side).filter_map(|(_, p)| p.clock).last()
    }

    /// `side`'s clock after its move number `n`, as the game numbers its
    /// moves: from 1, or from the `FEN` tag's move number.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::RawGame;
    /// use pgnkit::timeline::Timeline;
    /// use pgnkit::Color;
    /// let raw = RawGame::from_bytes(b"1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:59]} 2. Nf3 {[%clk 0:02:55]} *");
    /// let timeline = Timeline::read(&raw);
    /// assert_eq!(timeline.clock_after(Color::White, 2), Some(175_000));
    /// assert_eq!(timeline.clock_after(Color::Black, 2), None);
    /// assert_eq!(timeline.clock_after(Color::White, 0), None);
    ///
    /// let raw = RawGame::from_bytes(
    ///     b"[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 30\"]\n\n30... Kd7 {[%clk 0:01:00]} 31. Ke2 {[%clk 0:00:50]} *",
    /// );
    /// let timeline = Timeline::read(&raw);
    /// assert_eq!(timeline.clock_after(Color::Black, 30), Some(60_000));
    /// assert_eq!(timeline.clock_after(Color::White, 31), Some(50_000));
    /// assert_eq!(timeline.clock_after(Color::White, 30), None);
    /// assert_eq!(timeline.clock_after(Color::Black, 1), None);
    /// ```
    pub fn clock_after(&self, side: Color, n: usize) -> Option<u64> {
        // White's first move after Black's first is one number on.
        let later = usize::from(self.first == Color::Black && side == Color::White);
        let first = usize::try_from(self.first_move).ok()?.checked_add(later)?;
        let index = n.checked_sub(first)?;
        self.of(side).nth(index).and_then(|(_, p)| p.clock)
    }

    /// The time each of `side`'s moves took, in milliseconds, where it is
    /// known: the `[%emt]` of the move, else the clock before it (the
    /// side's previous clock, or `base` before its first move) plus
    /// `increment`, less the clock after it (never below 0). All three
    /// are in milliseconds.
    pub fn move_times(
        &self,
        side: Color,
        base: Option<u64>,
        increment: u64,
    ) -> impl Iterator<Item = u64> + '_ {
        let mut before = base;
        self.of(side).filter_map(move |(_, p)| {
            let took = p.emt.or_else(|| {
                let (start, end) = (before?, p.clock?);
                Some(start.saturating_add(increment).saturating_sub(end))
            });
            before = p.clock;
            took
        })
    }

    /// The total time `side`'s moves took ([`move_times`](Self::move_times)),
    /// when some move's time is known.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::RawGame;
    /// use pgnkit::timeline::Timeline;
    /// use pgnkit::Color;
    /// let raw = RawGame::from_bytes(b"1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:59]} 2. Nf3 {[%clk 0:02:55]} *");
    /// let timeline = Timeline::read(&raw);
    /// // 180 + 2 - 180, then 180 + 2 - 175.
    /// assert_eq!(timeline.time_used(Color::White, Some(180_000), 2_000), Some(9_000));
    /// assert_eq!(timeline.longest_move(Color::White, Some(180_000), 2_000), Some(7_000));
    /// // Without the base, the first move's time is not known.
    /// assert_eq!(timeline.time_used(Color::White, None, 0), Some(5_000));
    /// ```
    pub fn time_used(&self, side: Color, base: Option<u64>, increment: u64) -> Option<u64> {
        self.move_times(side, base, increment)
            .fold(None, |sum, t| Some(sum.unwrap_or(0u64).saturating_add(t)))
    }

    /// The longest time one of `side`'s moves took
    /// ([`move_times`](Self::move_times)).
    pub fn longest_move(&self, side: Color, base: Option<u64>, increment: u64) -> Option<u64> {
        self.move_times(side, base, increment).max()
    }

    /// The largest fall of the evaluation over one of `side`'s moves, in
    /// centipawns from `side`'s point of view (0 when no move lost
    /// anything): the evaluation after the opponent's ply before it less
    /// the one after it. Only moves with an evaluation before and after
    /// count; a mate counts as [`MATE_SCORE`].
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::RawGame;
    /// use pgnkit::timeline::Timeline;
    /// use pgnkit::Color;
    /// let raw = RawGame::from_bytes(
    ///     b"1. e4 {[%eval 0.3]} e5 {[%eval 0.4]} 2. Qh5 {[%eval -1.2]} Nc6 {[%eval 3.5]} *",
    /// );
    /// let timeline = Timeline::read(&raw);
    /// assert_eq!(timeline.largest_drop(Color::White), Some(160));
    /// assert_eq!(timeline.largest_drop(Color::Black), Some(470));
    /// ```
    pub fn largest_drop(&self, side: Color) -> Option<i32> {
        self.of(side)
            .filter_map(|(i, _)| {
                let (before, after) = (self.score(i.checked_sub(1)?)?, self.score(i)?);
                Some(side.fold(before - after, after - before).max(0))
            })
            .max()
    }

    /// The last evaluation of the mainline.
    pub fn final_eval(&self) -> Option<Eval> {
        self.plies.iter().filter_map(|p| p.eval).next_back()
    }

    /// The evaluation after ply `index` in centipawns, from White's point
    /// of view ([`Eval::score`]). `[%eval #0]`, mate on the board, counts
    /// as [`MATE_SCORE`] for the side that made the ply: the side to move
    /// is mated, as python-chess reads it.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{MATE_SCORE, RawGame};
    /// use pgnkit::timeline::Timeline;
    /// let raw = RawGame::from_bytes(b"1. f3 e5 2. g4 {[%eval #-1]} Qh4# {[%eval #0]} 0-1");
    /// let timeline = Timeline::read(&raw);
    /// assert_eq!(timeline.score(2), Some(-MATE_SCORE));
    /// assert_eq!(timeline.score(3), Some(-MATE_SCORE));
    /// assert_eq!(timeline.score(0), None);
    /// ```
    pub fn score(&self, index: usize) -> Option<i32> {
        match self.plies.get(index)?.eval? {
            Eval::Mate(0) => Some(self.side(index).fold(MATE_SCORE, -MATE_SCORE)),
            eval => eval.score(),
        }
    }

    /// The score ([`score`](Self::score)) of the last evaluation of the
    /// mainline.
    pub fn final_score(&self) -> Option<i32> {
        let last = self.plies.iter().rposition(|p| p.eval.is_some())?;
        self.score(last)
    }
}

/// The visitor behind [`Timeline::read`].
struct Notes<'a> {
    timeline: Timeline,
    source: &'a [u8],
    /// Whether a `FEN` tag was read (the first one counts, as for the
    /// replay).
    fen_seen: bool,
}

impl<'a> Visitor<'a> for Notes<'a> {
    type Output = ();
    const COMMENTS: bool = true;

    fn tag(&mut self, name: &'a [u8], value: &'a [u8], _span: Span) {
        // The side to move first and its move number, read as the
        // writer numbers the moves ([`crate::pgn::start_ply`]).
        if name == b"FEN" && !self.fen_seen {
            self.fen_seen = true;
            if let Some((fullmove, black)) = fen_move_number(&unescape(value)) {
                self.timeline.first = if black { Color::Black } else { Color::White };
                self.timeline.first_move = fullmove;
            }
        }
    }

    fn san(&mut self, _text: &'a [u8], _token: &MoveToken, _span: Span) {
        self.timeline.plies.push(PlyNotes::default());
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        // A token in move position is the mainline's move either way.
        if matches!(error.kind, ParsePgnErrorKind::BadMove(_))
            && !error.span.slice(self.source).is_empty()
        {
            self.timeline.plies.push(PlyNotes::default());
        }
    }

    fn comment(&mut self, comment: Comment<'a>) {
        let Some(notes) = self.timeline.plies.last_mut() else {
            return;
        };
        for command in Command::all(&encoding::decode(comment.text)) {
            match command {
                Command::Clock(ms) => notes.clock = Some(ms),
                Command::Emt(ms) => notes.emt = Some(ms),
                Command::Eval(eval) => notes.eval = Some(eval),
            }
        }
    }

    fn begin_variation(&mut self, _span: Span) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeline(text: &str) -> Timeline {
        Timeline::read(&RawGame::from_bytes(text.as_bytes()))
    }

    #[test]
    fn black_moves_first_after_a_fen_saying_so() {
        let t = timeline(
            "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n\n1... Kd7 {[%clk 0:01:00]} 2. Ke2 {[%clk 0:00:50]} *",
        );
        assert_eq!(t.first, Color::Black);
        assert_eq!(t.last_clock(Color::Black), Some(60_000));
        assert_eq!(t.last_clock(Color::White), Some(50_000));
        assert_eq!(t.side(1), Color::White);
    }

    #[test]
    fn emt_wins_over_clocks_and_gaps_are_skipped() {
        let t = timeline(
            "1. e4 {[%clk 0:01:00]} e5 2. d4 {[%emt 0:00:07] [%clk 0:00:40]} d5 3. c4 {[%clk 0:00:39]} \
             c6 4. Nc3 5. Nf3 {[%clk 0:00:10]} *",
        );
        let times: Vec<u64> = t.move_times(Color::White, Some(60_000), 0).collect();
        // Move 4 has no clock, so move 5's time is not known.
        assert_eq!(times, [0, 7_000, 1_000]);
        assert_eq!(t.time_used(Color::Black, None, 0), None);
        assert_eq!(t.clocks(), 4);
        assert_eq!(t.evals(), 0);
        assert_eq!(t.final_eval(), None);
        assert_eq!(t.largest_drop(Color::White), None);
    }

    #[test]
    fn mates_and_the_last_of_repeated_commands() {
        let t = timeline(
            "1. f3 {[%eval -0.5]} e5 {[%eval -0.4]} 2. g4 {[%eval #-1] [%eval #-1]} Qh4# {[%eval #0]} 0-1",
        );
        assert_eq!(t.largest_drop(Color::White), Some(10_000 - 40));
        assert_eq!(t.largest_drop(Color::Black), Some(10));
        // `#0`, mate on the board, is the mover's mate.
        assert_eq!(t.final_eval(), Some(Eval::Mate(0)));
        assert_eq!(t.final_score(), Some(-MATE_SCORE));
        assert_eq!(t.evals(), 4);
        // The last command of a comment wins.
        let t = timeline("1. e4 {[%eval 0.3] [%eval #0]} *");
        assert_eq!(t.final_eval(), Some(Eval::Mate(0)));
        assert_eq!(t.final_score(), Some(MATE_SCORE));
        let t = timeline("1. e4 {[%eval #0] [%eval 0.3]} *");
        assert_eq!(t.final_score(), Some(30));
    }

    #[test]
    fn comments_before_the_first_move_and_in_variations_are_not_read() {
        let t = timeline("{[%clk 1:00:00]} 1. e4 ({[%clk 0:00:01]} 1. d4 {[%clk 0:00:02]}) *");
        assert_eq!(t.plies, [PlyNotes::default()]);
        let t = timeline("1. e4 zz9 {[%clk 0:00:03]} *");
        assert_eq!(t.plies.len(), 2);
        assert_eq!(t.plies[1].clock, Some(3_000));
    }
}
