//! What a valid move token does not write the standard SAN way: the
//! warnings of `pgnkit validate`.

use std::fmt;

use super::token::{Letters, MoveKind, MoveToken, Mover, Notation, Spelling, Suffix};
use super::write::disambiguation;
use crate::{moves::Move, position::Position, role::Role};

/// One way a token departs from standard SAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lint {
    /// The move gives check but no `+` is written.
    CheckMissing,
    /// `+` on a move that gives no check.
    CheckNotGiven,
    /// The move mates but no `#` is written.
    MateMissing,
    /// `#` on a move that does not mate.
    MateNotGiven,
    /// The move captures but no `x` is written.
    CaptureMissing,
    /// `x` on a move that does not capture.
    CaptureNotMade,
    /// More of the origin than SAN writes (`Ngf3` when `Nf3` suffices).
    OverSpecified,
    /// Castling written with zeros (`0-0`).
    ZeroCastling,
    /// Promotion without `=` (`e8Q`).
    PromotionBare,
    /// Promotion in parentheses (`e8(Q)`).
    PromotionParens,
    /// Promotion after a slash (`e8/Q`).
    PromotionSlash,
    /// A pawn named by a letter (`Pe4`, German `Be4`).
    PawnLetter,
    /// Check written `++`.
    DoublePlus,
    /// Capture written `:`.
    ColonCapture,
    /// An en-passant mark (`e.p.`).
    EpMark,
    /// An en-passant mark on a move that is no en-passant capture.
    EpNotMade,
    /// Long algebraic notation (`Ng1-f3`).
    LongNotation,
    /// UCI notation (`g1f3`).
    UciNotation,
    /// German piece letters (`Sf3`).
    GermanLetters,
    /// Figurines (`♘f3`).
    Figurines,
}

impl Lint {
    /// Every lint, in the order [`Lints::iter`] yields them.
    pub const ALL: [Lint; 20] = [
        Lint::CheckMissing,
        Lint::CheckNotGiven,
        Lint::MateMissing,
        Lint::MateNotGiven,
        Lint::CaptureMissing,
        Lint::CaptureNotMade,
        Lint::OverSpecified,
        Lint::ZeroCastling,
        Lint::PromotionBare,
        Lint::PromotionParens,
        Lint::PromotionSlash,
        Lint::PawnLetter,
        Lint::DoublePlus,
        Lint::ColonCapture,
        Lint::EpMark,
        Lint::EpNotMade,
        Lint::LongNotation,
        Lint::UciNotation,
        Lint::GermanLetters,
        Lint::Figurines,
    ];

    /// A short message for warnings.
    pub const fn message(self) -> &'static str {
        match self {
            Lint::CheckMissing => "check suffix + missing",
            Lint::CheckNotGiven => "check suffix + on a move that gives no check",
            Lint::MateMissing => "mate suffix # missing",
            Lint::MateNotGiven => "mate suffix # on a move that does not mate",
            Lint::CaptureMissing => "capture mark x missing",
            Lint::CaptureNotMade => "capture mark x on a move that captures nothing",
            Lint::OverSpecified => "over-specified origin (SAN writes less)",
            Lint::ZeroCastling => "castling written with zeros (SAN writes O-O, O-O-O)",
            Lint::PromotionBare => "promotion without = (SAN writes e8=Q, not e8Q)",
            Lint::PromotionParens => "promotion in parentheses (SAN writes e8=Q, not e8(Q))",
            Lint::PromotionSlash => "promotion after / (SAN writes e8=Q, not e8/Q)",
            Lint::PawnLetter => "pawn named by a letter",
            Lint::DoublePlus => "check written ++ (SAN writes +)",
            Lint::ColonCapture => "capture written : (SAN writes x)",
            Lint::EpMark => "en-passant mark (SAN writes none)",
            Lint::EpNotMade => "en-passant mark on a move that is no en-passant capture",
            Lint::LongNotation => "long algebraic notation, not SAN",
            Lint::UciNotation => "UCI notation, not SAN",
            Lint::GermanLetters => "German piece letters, not SAN",
            Lint::Figurines => "figurines, not SAN",
        }
    }

    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A set of [`Lint`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Lints(u32);

impl Lints {
    /// No lints.
    pub const EMPTY: Lints = Lints(0);

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `lint` is in the set.
    #[inline]
    pub const fn contains(self, lint: Lint) -> bool {
        self.0 & lint.bit() != 0
    }

    /// Adds `lint`.
    #[inline]
    pub fn insert(&mut self, lint: Lint) {
        self.0 |= lint.bit();
    }

    /// The number of lints in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lints in the set, in the order of [`Lint::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Lint> {
        Lint::ALL.into_iter().filter(move |&l| self.contains(l))
    }
}

impl FromIterator<Lint> for Lints {
    fn from_iter<I: IntoIterator<Item = Lint>>(iter: I) -> Lints {
        let mut set = Lints::EMPTY;
        for lint in iter {
            set.insert(lint);
        }
        set
    }
}

const SPELLINGS: [(Spelling, Lint); 8] = [
    (Spelling::ZERO_CASTLING, Lint::ZeroCastling),
    (Spelling::PROMOTION_BARE, Lint::PromotionBare),
    (Spelling::PROMOTION_PARENS, Lint::PromotionParens),
    (Spelling::PROMOTION_SLASH, Lint::PromotionSlash),
    (Spelling::PAWN_LETTER, Lint::PawnLetter),
    (Spelling::DOUBLE_PLUS, Lint::DoublePlus),
    (Spelling::COLON_CAPTURE, Lint::ColonCapture),
    (Spelling::EP_MARK, Lint::EpMark),
];

impl MoveToken {
    /// The notation this token is written in, knowing the move `m` it
    /// resolved to in `before`: its [`notation`](MoveToken::notation),
    /// except that a piece move with a whole origin square (`Qh4xe1`,
    /// `Qh4e1`) is SAN when SAN needs both the origin's file and rank (three
    /// queens can reach `e1`), and long algebraic otherwise. The token does
    /// not keep its separator, so `Qh4-e1` counts as `Qh4e1`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, MoveToken, Notation, Position};
    ///
    /// let queens = Position::from_fen("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1")?;
    /// for (text, notation) in [("Qa1c3", Notation::San), ("Qa3b3", Notation::Long)] {
    ///     let token = MoveToken::parse(text.as_bytes())?;
    ///     let m = token.resolve(&queens, LetterPolicy::Auto)?.as_move().unwrap();
    ///     assert_eq!(token.notation, Notation::Long);
    ///     assert_eq!(token.written_notation(&queens, m), notation, "{text}");
    /// }
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn written_notation(&self, before: &Position, m: Move) -> Notation {
        match self.kind {
            MoveKind::Normal {
                mover: Mover::Role(_) | Mover::BishopOrPawn,
                ..
            } if self.notation == Notation::Long
                && m.role() != Role::Pawn
                && disambiguation(before, m) == (true, true) =>
            {
                Notation::San
            }
            _ => self.notation,
        }
    }

    /// How this token departs from standard SAN, given the position
    /// `before` it, the move `m` it resolved to and the position `after`
    /// (which the caller has anyway, having played `m`).
    ///
    /// Check and mate marks are compared with the position after the move
    /// (UCI writes none, so missing marks are not reported for UCI). SAN's
    /// full-square disambiguation (`Qh4xe1`) is standard when SAN needs it
    /// and long algebraic otherwise.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, Lint, MoveToken, Position};
    ///
    /// let pos = Position::startpos();
    /// let token = MoveToken::parse(b"Ngf3+")?;
    /// let m = token.resolve(&pos, LetterPolicy::Auto)?.as_move().unwrap();
    /// let mut after = pos.clone();
    /// after.play_unchecked(m);
    /// let lints: Vec<Lint> = token.lints(&pos, m, &after).iter().collect();
    /// assert_eq!(lints, [Lint::CheckNotGiven, Lint::OverSpecified]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn lints(&self, before: &Position, m: Move, after: &Position) -> Lints {
        let mut lints = Lints::EMPTY;
        // Most tokens are spelt as the standard says: no flag to look at.
        if self.spelling != Spelling::default() {
            for (flag, lint) in SPELLINGS {
                if self.spelling.contains(flag) {
                    // A mark on a move that takes no pawn in passing is
                    // wrong, not only non-standard.
                    let wrong = lint == Lint::EpMark && !m.is_en_passant();
                    lints.insert(if wrong { Lint::EpNotMade } else { lint });
                }
            }
        }
        let mut letters = self.letters;
        if let MoveKind::Normal {
            mover,
            from_file,
            from_rank,
            capture,
            ..
        } = self.kind
        {
            if mover == Mover::BishopOrPawn && m.role() == Role::Pawn {
                lints.insert(Lint::PawnLetter);
                letters = Letters::German;
            }
            if self.notation != Notation::Uci && m.castling_side().is_none() {
                match (capture, m.is_capture()) {
                    (false, true) => lints.insert(Lint::CaptureMissing),
                    (true, false) => lints.insert(Lint::CaptureNotMade),
                    _ => {}
                }
            }
            match self.notation {
                Notation::San if from_file.is_some() || from_rank.is_some() => {
                    let (file, rank) = disambiguation(before, m);
                    if (from_file.is_some() && !file) || (from_rank.is_some() && !rank) {
                        lints.insert(Lint::OverSpecified);
                    }
                }
                Notation::San => {}
                Notation::Long => {
                    if self.written_notation(before, m) == Notation::Long {
                        lints.insert(Lint::LongNotation);
                    }
                }
                Notation::Uci => lints.insert(Lint::UciNotation),
            }
        } else if self.notation == Notation::Uci {
            lints.insert(Lint::UciNotation);
        }
        match letters {
            Letters::German => lints.insert(Lint::GermanLetters),
            Letters::Figurine => lints.insert(Lint::Figurines),
            _ => {}
        }
        if self.kind != MoveKind::Null
            && let Some(lint) = suffix_lint(self.suffix, self.notation, after)
        {
            lints.insert(lint);
        }
        lints
    }
}

/// How a move's check or mate sign `suffix`, in a token of `notation`,
/// departs from the position `after` the move (UCI writes no signs, so
/// none is missing there).
pub(crate) fn suffix_lint(
    suffix: Option<Suffix>,
    notation: Notation,
    after: &Position,
) -> Option<Lint> {
    let check = after.is_check();
    let mate = check && !after.has_legal_moves();
    match suffix {
        None if notation == Notation::Uci => None,
        None if mate => Some(Lint::MateMissing),
        None if check => Some(Lint::CheckMissing),
        Some(Suffix::Check) if mate => Some(Lint::MateMissing),
        Some(Suffix::Check) if !check => Some(Lint::CheckNotGiven),
        Some(Suffix::Checkmate) if !mate => Some(Lint::MateNotGiven),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::LetterPolicy;
    use Lint::*;

    fn lints(fen: &str, token: &str) -> Vec<Lint> {
        let pos = Position::from_fen(fen).unwrap();
        let token = MoveToken::parse(token.as_bytes()).unwrap();
        let m = token
            .resolve(&pos, LetterPolicy::Auto)
            .unwrap()
            .as_move()
            .unwrap();
        let mut after = pos;
        after.play_unchecked(m);
        token.lints(&pos, m, &after).iter().collect()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const MATE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    const CHECK: &str = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    const TAKE: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    const TWO: &str = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    const PROMO: &str = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";

    #[test]
    fn table() {
        #[rustfmt::skip]
        let cases: [(&str, &str, &[Lint]); 35] = [
            (START, "Nf3", &[]),
            (START, "Nf3+", &[CheckNotGiven]),
            (START, "Nf3#", &[MateNotGiven]),
            (START, "Ngf3", &[OverSpecified]),
            (START, "N1f3", &[OverSpecified]),
            (START, "Nxf3", &[CaptureNotMade]),
            (START, "Ng1-f3", &[LongNotation]),
            (START, "g1f3", &[UciNotation]),
            (START, "Sf3", &[GermanLetters]),
            (START, "♘f3", &[Figurines]),
            (START, "Pe4", &[PawnLetter]),
            (START, "Be4", &[PawnLetter, GermanLetters]),
            (START, "Be2-e4", &[PawnLetter, LongNotation, GermanLetters]),
            (START, "e2-e4", &[LongNotation]),
            (START, "g1-f3", &[LongNotation]),
            (START, "g1xf3", &[CaptureNotMade, LongNotation]),
            (TAKE, "e4d5", &[UciNotation]),
            (MATE, "Ra8#", &[]),
            (MATE, "Ra8", &[MateMissing]),
            (MATE, "Ra8+", &[MateMissing]),
            (MATE, "Ra8++", &[MateMissing, DoublePlus]),
            (CHECK, "Ra8", &[CheckMissing]),
            (CHECK, "Ra8#", &[MateNotGiven]),
            (CHECK, "0-0-0", &[ZeroCastling]),
            (TAKE, "exd5", &[]),
            (TAKE, "e:d5", &[ColonCapture]),
            (TAKE, "e4-d5", &[CaptureMissing, LongNotation]),
            (TWO, "Nbd2", &[]),
            (TWO, "Nb1d2", &[LongNotation]),
            (EP, "exd6e.p.", &[EpMark]),
            (TAKE, "exd5e.p.", &[EpNotMade]),
            (TAKE, "exd5ep+", &[CheckNotGiven, EpNotMade]),
            (PROMO, "a8Q+", &[PromotionBare]),
            (PROMO, "a8(Q)+", &[PromotionParens]),
            (PROMO, "a8/Q+", &[PromotionSlash]),
        ];
        for (fen, token, expected) in cases {
            assert_eq!(lints(fen, token), expected, "{fen} {token}");
        }
        // Full-square disambiguation is SAN when it is needed.
        let queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        assert_eq!(lints(queens, "Qa1c3"), []);
        // The token does not keep its separator: `Qa1-c3` reads like `Qa1c3`.
        assert_eq!(lints(queens, "Qa1-c3"), []);
        assert_eq!(lints(queens, "Qa3b3"), [LongNotation]);
    }

    #[test]
    fn set() {
        let set: Lints = [MateMissing, CheckMissing].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert!(set.contains(CheckMissing) && !set.contains(EpMark));
        assert_eq!(set.iter().collect::<Vec<_>>(), [CheckMissing, MateMissing]);
        assert!(Lints::EMPTY.is_empty());
        for lint in Lint::ALL {
            assert!(!lint.to_string().is_empty());
        }
    }
}
