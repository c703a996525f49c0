//! Resolving a [`MoveToken`] against a position: exactly one legal move, or
//! an error that says precisely why not.
//!
//! The hot path asks the rules core only for the moves that fit the token
//! (role, origin mask, destination) with the filtered generator. Working out
//! *why* a token fits no legal move costs more and runs only on errors.

use std::fmt;

use super::token::{Letters, MoveKind, MoveToken, Mover, Notation, Spelling};
use crate::{
    attacks,
    bitboard::Bitboard,
    castling::CastlingSide,
    moves::{Move, MoveList},
    position::Position,
    role::Role,
    square::{Rank, Square},
};

/// Which alphabet piece letters are read in, for the letter `B` (bishop in
/// English, Bauer = pawn in German); the command line's `--lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LetterPolicy {
    /// Decide by the token's other letters, then by the board: `B` is the
    /// bishop when a bishop move fits (the PGN standard's letters are
    /// English), a pawn (Bauer) only when no bishop move fits but a pawn
    /// move does.
    #[default]
    Auto,
    /// `B` is a bishop.
    English,
    /// `B` is a pawn (Bauer).
    German,
}

impl LetterPolicy {
    /// The policy after reading a token with `letters`: `Auto` becomes
    /// `English` or `German` once a token uses letters of one alphabet only
    /// (`N R Q P` or `S L T D`), so a game's later `B`s are read in the
    /// alphabet it has shown. Other policies stay as they are.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, Letters};
    /// assert_eq!(LetterPolicy::Auto.settle(Letters::German), LetterPolicy::German);
    /// assert_eq!(LetterPolicy::Auto.settle(Letters::Either), LetterPolicy::Auto);
    /// assert_eq!(LetterPolicy::English.settle(Letters::German), LetterPolicy::English);
    /// ```
    #[inline]
    #[must_use]
    pub const fn settle(self, letters: Letters) -> LetterPolicy {
        match (self, letters) {
            (LetterPolicy::Auto, Letters::English) => LetterPolicy::English,
            (LetterPolicy::Auto, Letters::German) => LetterPolicy::German,
            (policy, _) => policy,
        }
    }
}

/// What a token resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resolved {
    /// The one legal move the token describes.
    Move(Move),
    /// A null move (`--`, `Z0`, `0000`); whether it is allowed is the
    /// caller's decision ([`Position::play_null`] plays it).
    Null,
}

impl Resolved {
    /// The move, unless this is a null move.
    #[inline]
    pub const fn as_move(self) -> Option<Move> {
        match self {
            Resolved::Move(m) => Some(m),
            Resolved::Null => None,
        }
    }
}

/// Why a token is not a legal move in a position.
///
/// `role: None` in [`Unreachable`](IllegalReason::Unreachable) and
/// [`WrongPiece`](IllegalReason::WrongPiece) stands for the letter `B` read
/// as bishop or pawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No piece of the named role can move to the square, even ignoring
    /// checks and pins.
    Unreachable {
        /// The role named (`None`: bishop or pawn).
        role: Option<Role>,
        /// The destination.
        to: Square,
    },
    /// A pawn capture to an empty square that is no en-passant square.
    NothingToCapture {
        /// The destination.
        to: Square,
    },
    /// An en-passant capture while none is available: the enemy pawn beside
    /// did not make a double step just before.
    NoEnPassant {
        /// The destination.
        to: Square,
    },
    /// The piece could move there but is pinned to its king.
    Pinned {
        /// The pinned piece's role.
        role: Role,
        /// Where it stands.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// The piece could move there, but that leaves its king in check (it
    /// does not answer a check, or an en-passant capture uncovers one).
    LeavesKingInCheck {
        /// The moving piece's role.
        role: Role,
        /// Where it stands.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// The king would move onto an attacked square.
    KingIntoCheck {
        /// The destination.
        to: Square,
    },
    /// The destination holds a piece of the side to move.
    CaptureOwn {
        /// The destination.
        to: Square,
        /// The role of the piece standing there.
        role: Role,
    },
    /// The origin square is empty.
    EmptyOrigin {
        /// The origin written.
        from: Square,
    },
    /// The origin square holds a piece of the opponent.
    OpponentPiece {
        /// The origin written.
        from: Square,
        /// The role of the piece standing there.
        role: Role,
    },
    /// The origin square holds a piece of another role than the token names.
    WrongPiece {
        /// The origin written.
        from: Square,
        /// The role named (`None`: bishop or pawn).
        named: Option<Role>,
        /// The role standing there.
        found: Role,
    },
    /// A pawn move to the last rank without a promotion piece.
    PromotionMissing {
        /// The destination.
        to: Square,
    },
    /// A promotion piece on a move that does not promote.
    PromotionNotAllowed {
        /// The destination.
        to: Square,
        /// The promotion piece written.
        promotion: Role,
    },
    /// Castling without the right to castle on that side.
    NoCastlingRight {
        /// The side.
        side: CastlingSide,
    },
    /// Castling with a piece between king and rook or on their targets.
    CastlingBlocked {
        /// The side.
        side: CastlingSide,
        /// The first square in the way.
        square: Square,
    },
    /// Castling while in check.
    CastlingInCheck {
        /// The side.
        side: CastlingSide,
    },
    /// Castling through or onto an attacked square.
    CastlingThroughCheck {
        /// The side.
        side: CastlingSide,
        /// The first attacked square on the king's path.
        square: Square,
    },
}

/// A role written for messages; `None` is the letter `B` as bishop or pawn.
struct Named(Option<Role>);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(role) => write!(f, "{role}"),
            None => f.write_str("bishop or pawn"),
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason::*;
        match *self {
            Unreachable { role, to } => write!(f, "no {} can move to {to}", Named(role)),
            NothingToCapture { to } => write!(f, "pawn capture to {to}, which is empty"),
            NoEnPassant { to } => write!(
                f,
                "en passant to {to} not available: the pawn did not just make a double step"
            ),
            Pinned { role, from, to } => {
                write!(f, "the {role} on {from} is pinned and cannot move to {to}")
            }
            LeavesKingInCheck { role, from, to } => write!(
                f,
                "the {role} on {from} moving to {to} leaves the king in check"
            ),
            KingIntoCheck { to } => write!(f, "the king would be in check on {to}"),
            CaptureOwn { to, role } => write!(f, "{to} holds a {role} of the side to move"),
            EmptyOrigin { from } => write!(f, "no piece on {from}"),
            OpponentPiece { from, role } => write!(f, "{from} holds the opponent's {role}"),
            WrongPiece { from, named, found } => {
                write!(f, "{from} holds a {found}, not a {}", Named(named))
            }
            PromotionMissing { to } => {
                write!(
                    f,
                    "a pawn moving to {to} must promote: promotion piece missing"
                )
            }
            PromotionNotAllowed { to, promotion } => {
                write!(f, "promotion to {promotion} not allowed on a move to {to}")
            }
            NoCastlingRight { side } => write!(f, "no right to castle {}", side_name(side)),
            CastlingBlocked { side, square } => {
                write!(f, "cannot castle {}: {square} is occupied", side_name(side))
            }
            CastlingInCheck { side } => {
                write!(f, "cannot castle {} out of check", side_name(side))
            }
            CastlingThroughCheck { side, square } => write!(
                f,
                "cannot castle {}: the king would pass or land on {square}, which is attacked",
                side_name(side)
            ),
        }
    }
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside (O-O)",
        CastlingSide::QueenSide => "queenside (O-O-O)",
    }
}

/// Error of [`MoveToken::resolve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// No legal move fits the token.
    #[error("illegal move: {0}")]
    Illegal(IllegalReason),
    /// Several legal moves fit the token.
    #[error("ambiguous move: {}", Ambiguity { role: *role, to: *to, from: *from })]
    Ambiguous {
        /// The role of the candidates.
        role: Role,
        /// The destination.
        to: Square,
        /// The origins of the candidate moves.
        from: Bitboard,
    },
}

impl From<IllegalReason> for ResolveError {
    fn from(reason: IllegalReason) -> ResolveError {
        ResolveError::Illegal(reason)
    }
}

/// The message of [`ResolveError::Ambiguous`].
struct Ambiguity {
    role: Role,
    to: Square,
    from: Bitboard,
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s on ", self.role)?;
        for (i, sq) in self.from.enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{sq}")?;
        }
        write!(f, " can move to {}", self.to)
    }
}

impl MoveToken {
    /// The one legal move in `pos` this token describes.
    ///
    /// A token without a letter names a pawn in SAN. With a whole origin
    /// square (long algebraic `g1-f3`, UCI `g1f3`) it names the piece on
    /// that square, or a pawn when it promotes or carries an en-passant
    /// mark. A written origin square must hold a piece of the
    /// side to move and of the role named. A king moving onto its own
    /// castling rook, or two files along its back rank onto a castling
    /// target, castles. `letters` says how to read `B` ([`LetterPolicy`]).
    ///
    /// # Errors
    /// [`ResolveError::Illegal`] with the reason when no legal move fits,
    /// [`ResolveError::Ambiguous`] with the candidates when several do.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{IllegalReason, LetterPolicy, MoveToken, Position, ResolveError, Resolved, Square};
    ///
    /// let pos = Position::startpos();
    /// let nf3 = MoveToken::parse(b"Nf3")?.resolve(&pos, LetterPolicy::Auto)?;
    /// assert_eq!(nf3.as_move().map(|m| m.from()), Some(Square::G1));
    ///
    /// let err = MoveToken::parse(b"Nd4")?.resolve(&pos, LetterPolicy::Auto).unwrap_err();
    /// assert_eq!(err.to_string(), "illegal move: no knight can move to d4");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn resolve(&self, pos: &Position, letters: LetterPolicy) -> Result<Resolved, ResolveError> {
        if let Some(m) = self.quick(pos, letters) {
            debug_assert_eq!(
                self.resolve_general(pos, letters),
                Ok(Resolved::Move(m)),
                "the quick path disagrees with the general one"
            );
            return Ok(Resolved::Move(m));
        }
        self.resolve_general(pos, letters)
    }

    /// The everyday case of [`MoveToken::resolve`] without the move
    /// generator: a SAN piece move or pawn push/capture (no promotion) with
    /// exactly one pseudo-legal origin, whose legality is one attack test on
    /// the king. `None` leaves the token to the general path, which also
    /// explains every failure.
    ///
    /// In line: the replay's token loop, specialised by lints, has the
    /// registers to spare, and the call's set-up, saves and restores were
    /// 2 % of `validate --quiet`.
    #[inline(always)]
    pub(crate) fn quick(&self, pos: &Position, letters: LetterPolicy) -> Option<Move> {
        let token = self;
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
                    || !board.by_piece(Role::Pawn.of(us)).contains(from)
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
                // No piece attacks its own square, so the one taken on `to`
                // (if any) changes nothing.
                return (!board.attacked_after(to, !us, occupied.without(king), to)).then(|| {
                    Move::Normal {
                        role,
                        from: king,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    }
                });
            }
            _ => {
                let mut pieces = board.by_piece(role.of(us));
                if let Some(file) = from_file {
                    pieces &= Bitboard::from_file(file);
                }
                if let Some(rank) = from_rank {
                    pieces &= Bitboard::from_rank(rank);
                }
                let from = match role {
                    Role::Knight => pieces & attacks::knight_attacks(to),
                    _ => {
                        let lines = match role {
                            Role::Bishop => attacks::bishop_rays(to),
                            Role::Rook => attacks::rook_rays(to),
                            _ => attacks::rook_rays(to) | attacks::bishop_rays(to),
                        };
                        attacks::sliders_seeing(to, pieces & lines, occupied)
                    }
                };
                from.single_square()?
            }
        };
        // Legal unless the king is attacked once the piece has moved (a piece
        // standing on `to` is captured and attacks nothing).
        let after = occupied.without(from).with(to);
        (!board.attacked_after(king, !us, after, to)).then(|| Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion: None,
        })
    }

    /// [`MoveToken::resolve`] by the filtered move generator: every token
    /// shape, and the reason of every failure. Out of line, so that the
    /// quick path stays small where it is inlined.
    #[inline(never)]
    pub(crate) fn resolve_general(
        &self,
        pos: &Position,
        letters: LetterPolicy,
    ) -> Result<Resolved, ResolveError> {
        match self.kind {
            MoveKind::Null => Ok(Resolved::Null),
            MoveKind::Castle(side) => castle(pos, side).map(Resolved::Move),
            MoveKind::Normal {
                mover,
                from_file,
                from_rank,
                capture,
                to,
                promotion,
            } => {
                let query = Query { to, promotion };
                let m = match (from_file, from_rank) {
                    (Some(file), Some(rank)) => {
                        let from = Square::from_coords(file, rank);
                        self.resolve_from(pos, letters, mover, from, query)?
                    }
                    _ => {
                        let mut from = Bitboard::FULL;
                        if let Some(file) = from_file {
                            from &= Bitboard::from_file(file);
                        }
                        if let Some(rank) = from_rank {
                            from &= Bitboard::from_rank(rank);
                        }
                        let pawn_from = pawn_origins(from, from_file.is_some(), capture, to);
                        match self.bishop_or_pawn(mover, letters) {
                            Some(Role::Pawn) => query.find(pos, Role::Pawn, pawn_from)?,
                            Some(role) => query.find(pos, role, from)?,
                            None => query.find_bishop_or_pawn(pos, from, pawn_from)?,
                        }
                    }
                };
                Ok(Resolved::Move(m))
            }
        }
    }

    /// The role a mover names, `None` if the board must decide between
    /// bishop and pawn.
    #[inline]
    fn bishop_or_pawn(&self, mover: Mover, letters: LetterPolicy) -> Option<Role> {
        match mover {
            Mover::Unnamed => Some(Role::Pawn),
            Mover::Role(role) => Some(role),
            Mover::BishopOrPawn => match (letters, self.letters) {
                (LetterPolicy::English, _) | (LetterPolicy::Auto, Letters::English) => {
                    Some(Role::Bishop)
                }
                (LetterPolicy::German, _) | (LetterPolicy::Auto, Letters::German) => {
                    Some(Role::Pawn)
                }
                (LetterPolicy::Auto, _) => None,
            },
        }
    }

    /// Resolves a token with a whole origin square (long algebraic, UCI).
    fn resolve_from(
        &self,
        pos: &Position,
        letters: LetterPolicy,
        mover: Mover,
        from: Square,
        query: Query,
    ) -> Result<Move, ResolveError> {
        let board = pos.board();
        let us = pos.turn();
        let Some(piece) = board.piece_at(from) else {
            return Err(IllegalReason::EmptyOrigin { from }.into());
        };
        if piece.color != us {
            return Err(IllegalReason::OpponentPiece {
                from,
                role: piece.role,
            }
            .into());
        }
        let found = piece.role;
        let named = match mover {
            // Long algebraic without letters (pgn-extract's `-Whalg`, FIDE's
            // long notation written without them) reads the board as UCI
            // does; only a promotion or an e.p. mark says "pawn".
            Mover::Unnamed => {
                let pawn = query.promotion.is_some() || self.spelling.contains(Spelling::EP_MARK);
                Some(if pawn { Role::Pawn } else { found })
            }
            Mover::BishopOrPawn if matches!(found, Role::Bishop | Role::Pawn) => {
                match self.bishop_or_pawn(mover, letters) {
                    None => Some(found),
                    named => named,
                }
            }
            _ => self.bishop_or_pawn(mover, letters),
        };
        if named != Some(found) {
            return Err(IllegalReason::WrongPiece { from, named, found }.into());
        }
        let to = query.to;
        if found == Role::King && query.promotion.is_none() {
            let back = Rank::FIRST.relative_to(us);
            let on_back_rank = from.rank() == back && to.rank() == back;
            if on_back_rank && board.by_piece(Role::Rook.of(us)).contains(to) {
                let side = CastlingSide::from_files(from.file(), to.file());
                if pos.castles().rook(us, side) != Some(to) {
                    return Err(IllegalReason::NoCastlingRight { side }.into());
                }
                return castle(pos, side);
            }
            if on_back_rank && from.file().index().abs_diff(to.file().index()) == 2 {
                let side = CastlingSide::from_files(from.file(), to.file());
                if side.king_to(us) == to {
                    return castle(pos, side);
                }
            }
        }
        query.find(pos, found, Bitboard::from(from))
    }
}

/// The origins a pawn move in SAN may come from: without a file, a push
/// comes from the destination's file.
#[inline]
fn pawn_origins(from: Bitboard, has_file: bool, capture: bool, to: Square) -> Bitboard {
    if has_file || capture {
        from
    } else {
        from & Bitboard::from_file(to.file())
    }
}

/// What a normal move token asks for beyond role and origin.
#[derive(Clone, Copy)]
struct Query {
    to: Square,
    promotion: Option<Role>,
}

impl Query {
    /// The legal non-castling moves of `role` from `from` that fit.
    #[inline]
    fn candidates(self, pos: &Position, role: Role, from: Bitboard, out: &mut MoveList) {
        pos.legal_moves_filtered(Some(role), from, Bitboard::from(self.to), out);
        let promotion = self.promotion;
        out.retain(|m| !matches!(m, Move::Castle { .. }) && m.promotion() == promotion);
    }

    /// The one legal move of `role` from `from` that fits.
    #[inline]
    fn find(self, pos: &Position, role: Role, from: Bitboard) -> Result<Move, ResolveError> {
        let mut list = MoveList::new();
        self.candidates(pos, role, from, &mut list);
        match *list {
            [m] => Ok(m),
            [] => Err(self.diagnose(pos, role, from).into()),
            _ => Err(self.ambiguous(role, &list)),
        }
    }

    /// `B` read by the board: a bishop move or a pawn move, whichever fits.
    fn find_bishop_or_pawn(
        self,
        pos: &Position,
        from: Bitboard,
        pawn_from: Bitboard,
    ) -> Result<Move, ResolveError> {
        let mut bishops = MoveList::new();
        self.candidates(pos, Role::Bishop, from, &mut bishops);
        let mut pawns = MoveList::new();
        self.candidates(pos, Role::Pawn, pawn_from, &mut pawns);
        match (&*bishops, &*pawns) {
            // The standard's letters are English: when a bishop move fits,
            // `B` is the bishop, whatever a pawn could do.
            ([m], _) | ([], [m]) => Ok(*m),
            ([], []) => {
                let bishop = self.diagnose(pos, Role::Bishop, from);
                let pawn = self.diagnose(pos, Role::Pawn, pawn_from);
                Err(match (bishop, pawn) {
                    (IllegalReason::Unreachable { .. }, IllegalReason::Unreachable { .. }) => {
                        IllegalReason::Unreachable {
                            role: None,
                            to: self.to,
                        }
                    }
                    (IllegalReason::Unreachable { .. }, reason) | (reason, _) => reason,
                }
                .into())
            }
            ([], _) => Err(self.ambiguous(Role::Pawn, &pawns)),
            (_, _) => Err(self.ambiguous(Role::Bishop, &bishops)),
        }
    }

    fn ambiguous(self, role: Role, moves: &[Move]) -> ResolveError {
        ResolveError::Ambiguous {
            role,
            to: self.to,
            from: moves.iter().map(|m| m.from()).collect(),
        }
    }

    /// Why no legal move of `role` from `from` fits. Runs only on errors:
    /// looks at moves ignoring checks and pins to tell "cannot get there"
    /// from "may not go there".
    fn diagnose(self, pos: &Position, role: Role, from: Bitboard) -> IllegalReason {
        let board = pos.board();
        let us = pos.turn();
        let to = self.to;
        let occupied = board.occupied();
        if board.by_color(us).contains(to)
            && let Some(role) = board.role_at(to)
        {
            return IllegalReason::CaptureOwn { to, role };
        }
        let pieces = board.by_piece(role.of(us)) & from;
        let mut reach = Bitboard::EMPTY;
        let mut diagonal = Bitboard::EMPTY;
        for sq in pieces {
            let can = match role {
                Role::Pawn => {
                    let up = if us == crate::color::Color::White {
                        1
                    } else {
                        -1
                    };
                    if attacks::pawn_attacks(us, sq).contains(to) {
                        diagonal = diagonal.with(sq);
                        board.by_color(!us).contains(to) || pos.ep_square() == Some(to)
                    } else if !occupied.contains(to) && sq.file() == to.file() {
                        let one = sq.offset(0, up);
                        one == Some(to)
                            || (sq.rank() == Rank::SECOND.relative_to(us)
                                && one.is_some_and(|one| !occupied.contains(one))
                                && sq.offset(0, 2 * up) == Some(to))
                    } else {
                        false
                    }
                }
                _ => attacks::attacks(role.of(us), sq, occupied).contains(to),
            };
            if can {
                reach = reach.with(sq);
            }
        }
        let Some(mover) = reach.first() else {
            if diagonal.any() {
                let behind = Square::from_coords(to.file(), Rank::FIFTH.relative_to(us));
                let double_step = to.rank() == Rank::SIXTH.relative_to(us)
                    && board.piece_at(behind) == Some(Role::Pawn.of(!us));
                return if double_step {
                    IllegalReason::NoEnPassant { to }
                } else {
                    IllegalReason::NothingToCapture { to }
                };
            }
            return IllegalReason::Unreachable {
                role: Some(role),
                to,
            };
        };
        let last_rank = Bitboard::BACKRANKS.contains(to);
        match self.promotion {
            Some(promotion) if role != Role::Pawn || !last_rank => {
                return IllegalReason::PromotionNotAllowed { to, promotion };
            }
            None if role == Role::Pawn && last_rank => {
                return IllegalReason::PromotionMissing { to };
            }
            _ => {}
        }
        if role == Role::King {
            return IllegalReason::KingIntoCheck { to };
        }
        let pinned = board
            .king_of(us)
            .map_or(Bitboard::EMPTY, |king| board.pinned(king, us));
        if pinned.contains(mover) {
            IllegalReason::Pinned {
                role,
                from: mover,
                to,
            }
        } else {
            IllegalReason::LeavesKingInCheck {
                role,
                from: mover,
                to,
            }
        }
    }
}

/// The castling move on `side`, or why it is not legal.
fn castle(pos: &Position, side: CastlingSide) -> Result<Move, ResolveError> {
    let us = pos.turn();
    let board = pos.board();
    let (Some(rook), Some(king)) = (pos.castles().rook(us, side), board.king_of(us)) else {
        return Err(IllegalReason::NoCastlingRight { side }.into());
    };
    // The rules in the order a player checks them: not in check, nothing
    // between king and rook and their squares, no attacked square on the
    // king's way once the rook has left it (Chess960).
    if pos.is_check() {
        return Err(IllegalReason::CastlingInCheck { side }.into());
    }
    let occupied = board.occupied();
    if let Some(square) = (pos.castles().path(us, side) & occupied).first() {
        return Err(IllegalReason::CastlingBlocked { side, square }.into());
    }
    let without = occupied.without(king).without(rook);
    let attacked = pos
        .castles()
        .king_path(us, side)
        .find(|&sq| board.attackers_by_rays(sq, !us, without).any());
    match attacked {
        Some(square) => Err(IllegalReason::CastlingThroughCheck { side, square }.into()),
        None => Ok(Move::Castle { king, rook }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use IllegalReason::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn bb(s: &str) -> Bitboard {
        s.split(' ').map(sq).collect()
    }

    fn resolve(fen: &str, token: &str, letters: LetterPolicy) -> Result<Resolved, ResolveError> {
        let pos = Position::from_fen(fen).unwrap();
        MoveToken::parse(token.as_bytes())
            .unwrap()
            .resolve(&pos, letters)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn errors() {
        use CastlingSide::*;
        use LetterPolicy::{Auto, English, German};
        use Role::*;
        let illegal = |r: IllegalReason| Err(ResolveError::Illegal(r));
        let ambiguous = |role, to: &str, from: &str| {
            Err(ResolveError::Ambiguous {
                role,
                to: sq(to),
                from: bb(from),
            })
        };
        #[rustfmt::skip]
        let cases: Vec<(&str, &str, LetterPolicy, Result<(), ResolveError>)> = vec![
            (START, "Nd4", Auto, illegal(Unreachable { role: Some(Knight), to: sq("d4") })),
            (START, "Qh5", Auto, illegal(Unreachable { role: Some(Queen), to: sq("h5") })),
            (START, "e5", Auto, illegal(Unreachable { role: Some(Pawn), to: sq("e5") })),
            (START, "Nd2", Auto, illegal(CaptureOwn { to: sq("d2"), role: Pawn })),
            (START, "e3e4", Auto, illegal(EmptyOrigin { from: sq("e3") })),
            (START, "e7e5", Auto, illegal(OpponentPiece { from: sq("e7"), role: Pawn })),
            (START, "g1-f3=Q", Auto, illegal(WrongPiece { from: sq("g1"), named: Some(Pawn), found: Knight })),
            (START, "b1xc3ep", Auto, illegal(WrongPiece { from: sq("b1"), named: Some(Pawn), found: Knight })),
            (START, "Bg1-f3", Auto, illegal(WrongPiece { from: sq("g1"), named: None, found: Knight })),
            (START, "Qg1-f3", Auto, illegal(WrongPiece { from: sq("g1"), named: Some(Queen), found: Knight })),
            (START, "O-O", Auto, illegal(CastlingBlocked { side: KingSide, square: sq("f1") })),
            (START, "Bb5", Auto, illegal(Unreachable { role: None, to: sq("b5") })),
            (START, "Bd4", Auto, Ok(())),
            (START, "exd3", Auto, illegal(NothingToCapture { to: sq("d3") })),
            // Pinned pieces; a move that ignores a check (Bb5+).
            ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nf4", Auto,
                illegal(Pinned { role: Knight, from: sq("e2"), to: sq("f4") })),
            ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3", Auto,
                illegal(Pinned { role: Bishop, from: sq("e2"), to: sq("d3") })),
            ("rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", "Nc6", Auto, Ok(())),
            ("rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", "Nf6", Auto,
                illegal(LeavesKingInCheck { role: Knight, from: sq("g8"), to: sq("f6") })),
            ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kxe2", Auto, Ok(())),
            ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kf2", Auto, illegal(KingIntoCheck { to: sq("f2") })),
            ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Ke2", Auto,
                illegal(KingIntoCheck { to: sq("e2") })),
            ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kd1", Auto,
                illegal(KingIntoCheck { to: sq("d1") })),
            // Castling.
            ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", Auto, illegal(NoCastlingRight { side: QueenSide })),
            ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "e1c1", Auto, illegal(NoCastlingRight { side: QueenSide })),
            ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "e1a1", Auto, illegal(NoCastlingRight { side: QueenSide })),
            ("4k3/8/8/8/4K2R/8/8/8 w - - 0 1", "e4h4", Auto, illegal(CaptureOwn { to: sq("h4"), role: Rook })),
            ("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O", Auto, illegal(CastlingInCheck { side: KingSide })),
            ("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", Auto,
                illegal(CastlingThroughCheck { side: KingSide, square: sq("f1") })),
            ("r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "O-O", Auto,
                illegal(CastlingThroughCheck { side: KingSide, square: sq("g1") })),
            ("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", "O-O-O", Auto, Ok(())),
            ("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", Auto,
                illegal(CastlingBlocked { side: QueenSide, square: sq("b1") })),
            // En passant.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "exd6", Auto, illegal(NoEnPassant { to: sq("d6") })),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", Auto, Ok(())),
            ("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "exd6", Auto,
                illegal(LeavesKingInCheck { role: Pawn, from: sq("e5"), to: sq("d6") })),
            ("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "exf6", Auto, illegal(NothingToCapture { to: sq("f6") })),
            // Promotion.
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", Auto, illegal(PromotionMissing { to: sq("a8") })),
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", Auto, illegal(PromotionMissing { to: sq("a8") })),
            ("4k3/8/P7/8/8/8/8/4K3 w - - 0 1", "a7=Q", Auto,
                illegal(PromotionNotAllowed { to: sq("a7"), promotion: Queen })),
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q", Auto, Ok(())),
            // Ambiguity.
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", Auto, ambiguous(Knight, "d2", "b1 f1")),
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nbd2", Auto, Ok(())),
            ("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1", Auto, ambiguous(Rook, "d1", "a1 f1")),
            // `B` as bishop or pawn.
            ("4k3/8/8/8/8/1P6/8/4KB2 w - - 0 1", "Bc4", Auto, Ok(())),
            ("4k3/8/8/8/8/2P5/8/4KB2 w - - 0 1", "Bc4", Auto, Ok(())),
            ("4k3/8/8/8/8/2P5/8/4KB2 w - - 0 1", "Bc4", English, Ok(())),
            ("4k3/8/8/8/8/2P5/8/4KB2 w - - 0 1", "Bc4", German, Ok(())),
            ("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", "Bc4", English, illegal(Unreachable { role: Some(Bishop), to: sq("c4") })),
        ];
        assert!(cases.len() >= 25);
        for (fen, token, letters, expected) in cases {
            let got = resolve(fen, token, letters).map(|_| ());
            assert_eq!(got, expected, "{fen} {token}");
            if let Err(e) = got {
                assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn messages() {
        let cases = [
            (START, "Nd4", "illegal move: no knight can move to d4"),
            (
                START,
                "Bb5",
                "illegal move: no bishop or pawn can move to b5",
            ),
            (
                START,
                "Nd2",
                "illegal move: d2 holds a pawn of the side to move",
            ),
            (
                START,
                "g1-f3=Q",
                "illegal move: g1 holds a knight, not a pawn",
            ),
            (START, "e3-e4", "illegal move: no piece on e3"),
            (START, "e7e5", "illegal move: e7 holds the opponent's pawn"),
            (
                START,
                "O-O",
                "illegal move: cannot castle kingside (O-O): f1 is occupied",
            ),
            (
                "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
                "Nf4",
                "illegal move: the knight on e2 is pinned and cannot move to f4",
            ),
            (
                "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
                "exd6",
                "illegal move: en passant to d6 not available: the pawn did not just make a double step",
            ),
            (
                "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
                "Nd2",
                "ambiguous move: knights on b1, f1 can move to d2",
            ),
            (
                "4k3/8/8/8/8/8/8/1B2KB2 w - - 0 1",
                "Bd3",
                "ambiguous move: bishops on b1, f1 can move to d3",
            ),
        ];
        for (fen, token, message) in cases {
            let err = resolve(fen, token, LetterPolicy::Auto).unwrap_err();
            assert_eq!(err.to_string(), message, "{fen} {token}");
        }
    }

    /// The move in UCI, or the error.
    type Expected = Result<&'static str, ResolveError>;

    /// Every spelling pgnkit writes, and the long algebraic of other
    /// programs, read back: (FEN, token, notation as parsed, policy, the
    /// move in UCI or the error).
    #[test]
    fn long_tokens_without_letters_and_full_disambiguation() {
        use LetterPolicy::{Auto, English, German};
        use Notation::{Long, San, Uci};
        use Role::*;
        const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        const BISHOP: &str = "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1";
        const PROMOTE: &str = "3nk3/4P3/8/8/8/8/8/4K3 w - - 0 1";
        const QUEENS: &str = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        const CHESS960: &str = "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1";
        let illegal = |r: IllegalReason| Err(ResolveError::Illegal(r));
        #[rustfmt::skip]
        let cases: Vec<(&str, &str, Notation, LetterPolicy, Expected)> = vec![
            // Hyphenated squares: the piece on the origin moves.
            (START, "g1-f3", Long, Auto, Ok("g1f3")),
            (START, "g1-f3", Long, German, Ok("g1f3")),
            (START, "g1-f3+", Long, English, Ok("g1f3")),
            (START, "e2-e4", Long, Auto, Ok("e2e4")),
            (START, "g1f3", Uci, Auto, Ok("g1f3")),
            (BISHOP, "c1-b2", Long, Auto, Ok("c1b2")),
            (BISHOP, "c1b2", Uci, Auto, Ok("c1b2")),
            (PROMOTE, "e1-d2", Long, Auto, Ok("e1d2")),
            // A capture mark is read; lints compare it with the board.
            (PROMOTE, "e7xd8=Q", Long, Auto, Ok("e7d8q")),
            (PROMOTE, "e7-e8=Q", Long, Auto, illegal(Unreachable { role: Some(Pawn), to: sq("e8") })),
            (PROMOTE, "e7-d8", Long, Auto, illegal(PromotionMissing { to: sq("d8") })),
            (PROMOTE, "e7-d8Q", Long, Auto, Ok("e7d8q")),
            (PROMOTE, "e7d8n", Uci, Auto, Ok("e7d8n")),
            (EP, "e5xd6", Long, Auto, Ok("e5d6")),
            (EP, "e5xd6ep", Long, Auto, Ok("e5d6")),
            // Castling as the king's move, or king takes rook.
            (CASTLE, "e1-g1", Long, Auto, Ok("e1g1")),
            (CASTLE, "e1-c1", Long, Auto, Ok("e1c1")),
            (CASTLE, "e1xh1", Long, Auto, Ok("e1g1")),
            (CASTLE, "e1g1", Uci, Auto, Ok("e1g1")),
            (CASTLE, "O-O-O", San, Auto, Ok("e1c1")),
            (CASTLE, "e1-f1", Long, Auto, Ok("e1f1")),
            (CHESS960, "b1-a1", Long, Auto, Ok("b1a1")),
            // Strict: the origin must hold a piece of the side to move, a
            // promotion or an e.p. mark names a pawn, the rest as usual.
            (START, "e3-e4", Long, Auto, illegal(EmptyOrigin { from: sq("e3") })),
            (START, "g8-f6", Long, Auto, illegal(OpponentPiece { from: sq("g8"), role: Knight })),
            (START, "d1-d3", Long, Auto, illegal(Unreachable { role: Some(Queen), to: sq("d3") })),
            (START, "g1-e2", Long, Auto, illegal(CaptureOwn { to: sq("e2"), role: Pawn })),
            (PROMOTE, "e1-e2=Q", Long, Auto, illegal(WrongPiece { from: sq("e1"), named: Some(Pawn), found: King })),
            (PROMOTE, "e1d1q", Uci, Auto, illegal(WrongPiece { from: sq("e1"), named: Some(Pawn), found: King })),
            (EP, "e1xd2ep", Long, Auto, illegal(WrongPiece { from: sq("e1"), named: Some(Pawn), found: King })),
            (CASTLE, "e1-b1", Long, Auto, illegal(Unreachable { role: Some(King), to: sq("b1") })),
            // SAN's full-square disambiguation, with and without `x`.
            (QUEENS, "Qa1c3", Long, Auto, Ok("a1c3")),
            (QUEENS, "Qa1xc3", Long, English, Ok("a1c3")),
            (QUEENS, "Da1c3", Long, German, Ok("a1c3")),
            (QUEENS, "\u{2655}a1c3", Long, Auto, Ok("a1c3")),
            (QUEENS, "Qc3", San, Auto, Err(ResolveError::Ambiguous { role: Queen, to: sq("c3"), from: bb("a1 a3 c1") })),
            (QUEENS, "Q1c3", San, Auto, Err(ResolveError::Ambiguous { role: Queen, to: sq("c3"), from: bb("a1 c1") })),
            (QUEENS, "Qac3", San, Auto, Err(ResolveError::Ambiguous { role: Queen, to: sq("c3"), from: bb("a1 a3") })),
            (QUEENS, "Qa2c3", Long, Auto, illegal(EmptyOrigin { from: sq("a2") })),
        ];
        for (fen, text, notation, letters, expected) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let token = MoveToken::parse(text.as_bytes()).unwrap();
            assert_eq!(token.notation, notation, "{text}");
            let got = token.resolve(&pos, letters).map(|r| {
                let m = r.as_move().unwrap();
                crate::notation::Style::UCI.text(&pos, m).to_string()
            });
            assert_eq!(got.as_deref().map_err(|e| *e), expected, "{fen} {text}");
        }
    }

    #[test]
    fn bishop_or_pawn_by_board_and_origin() {
        let fen = "4k3/8/8/8/8/2P5/8/4KB2 w - - 0 1";
        let pawn = Move::Normal {
            role: Role::Pawn,
            from: sq("c3"),
            capture: None,
            to: sq("c4"),
            promotion: None,
        };
        assert_eq!(
            resolve(fen, "Bc4", LetterPolicy::German),
            Ok(Resolved::Move(pawn))
        );
        assert_eq!(
            resolve(fen, "Bc3-c4", LetterPolicy::Auto),
            Ok(Resolved::Move(pawn))
        );
        let got = resolve(fen, "Bf1-c4", LetterPolicy::Auto).unwrap();
        assert_eq!(got.as_move().map(|m| m.role()), Some(Role::Bishop));
        // Only the pawn fits.
        let got = resolve("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", "Bc4", LetterPolicy::Auto);
        assert_eq!(got, Ok(Resolved::Move(pawn)));
    }

    #[test]
    fn castling_spellings() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let ks = Resolved::Move(Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        });
        for token in ["O-O", "0-0", "e1g1", "e1h1", "Ke1-g1", "Ke1xh1"] {
            assert_eq!(resolve(fen, token, LetterPolicy::Auto), Ok(ks), "{token}");
        }
        // Chess960: king b1, rooks a1 and g1 (king-takes-rook).
        let fen = "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1";
        let qs = Move::Castle {
            king: Square::B1,
            rook: Square::A1,
        };
        assert_eq!(
            resolve(fen, "O-O-O", LetterPolicy::Auto),
            Ok(Resolved::Move(qs))
        );
        assert_eq!(
            resolve(fen, "b1a1", LetterPolicy::Auto),
            Ok(Resolved::Move(qs))
        );
        let ks = resolve(fen, "b1g1", LetterPolicy::Auto).unwrap();
        assert_eq!(
            ks,
            Resolved::Move(Move::Castle {
                king: Square::B1,
                rook: Square::G1
            })
        );
        let step = resolve(fen, "b1c1", LetterPolicy::Auto).unwrap();
        assert!(matches!(step, Resolved::Move(Move::Normal { .. })));
        assert_eq!(resolve(START, "--", LetterPolicy::Auto), Ok(Resolved::Null));
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
            let quick = token.quick(&pos, LetterPolicy::Auto);
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
}
