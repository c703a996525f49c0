//! Playable positions: placement plus side to move, castling rights,
//! en-passant square and move counters, always consistent with the rules.

use std::fmt;

use crate::{
    attacks,
    bitboard::Bitboard,
    board::Board,
    castling::{Castles, CastlingSide},
    color::Color,
    moves::{Move, MoveList},
    role::Role,
    setup::Setup,
    square::{File, Rank, Square},
    zobrist,
};

/// A legal chess position: the result of [`Position::from_setup`] (usually
/// via FEN) or of playing legal moves from the start position.
///
/// Invariants: each side has exactly one king, no pawn stands on a back
/// rank, the side not to move is not in check, every castling right has its
/// king and rook in place, and an en-passant square is one a double step
/// just skipped.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castles: Castles,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u64,
    pub(crate) fullmoves: u64,
    pub(crate) chess960: bool,
    /// Zobrist key of everything except the en-passant square.
    pub(crate) key: u64,
}

/// One reason a [`Setup`] is not a legal position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PositionProblem {
    /// A side does not have exactly one king.
    KingCount {
        /// Whose kings were counted.
        color: Color,
        /// How many there are.
        count: usize,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// The side that just moved is in check.
    OppositeCheck,
    /// A castling right whose rook (or king) is not on its square.
    InvalidCastlingRight(Square),
    /// A second castling right on one side: the right of the rook nearer
    /// the king (the outer rook's stands, as `K` and `Q` name it).
    SecondCastlingRight(Square),
    /// An en-passant square that no double step could have left.
    InvalidEpSquare(Square),
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionProblem::KingCount { color, count: 0 } => write!(f, "no {color} king"),
            PositionProblem::KingCount { color, count } => write!(f, "{count} {color} kings"),
            PositionProblem::PawnOnBackRank(sq) => write!(f, "pawn on back rank ({sq})"),
            PositionProblem::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionProblem::InvalidCastlingRight(sq) => {
                write!(
                    f,
                    "castling right that no king and rook in place can use ({sq})"
                )
            }
            PositionProblem::SecondCastlingRight(sq) => {
                write!(f, "second castling right on one side ({sq})")
            }
            PositionProblem::InvalidEpSquare(sq) => {
                write!(f, "en-passant square {sq} not left by a double step")
            }
        }
    }
}

/// Error of [`Position::from_setup`]: every problem found, in a fixed order
/// (board, turn, castling, en passant).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct PositionError {
    /// The problems, at least one.
    pub problems: Vec<PositionProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Error of [`Position::play`]: the move is not legal here.
///
/// Shown as the move in UCI notation and the position as FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {} in {position}", .m.uci(.position.is_chess960()))]
#[non_exhaustive]
pub struct IllegalMove {
    /// The move.
    pub m: Move,
    /// The position it is not legal in (boxed: a position is larger
    /// than a `Result` should carry).
    pub position: Box<Position>,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard start position.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Position;
    /// assert_eq!(Position::startpos().legal_moves().len(), 20);
    /// ```
    pub fn startpos() -> Position {
        let mut pos = Position {
            board: Board::startpos(),
            turn: Color::White,
            castles: Castles::standard(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            chess960: false,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The gate from an unchecked [`Setup`] to a playable position.
    ///
    /// The `chess960` flag is set when a castling right has its king off the
    /// e-file or its rook off the a- and h-files; it only affects output.
    ///
    /// # Errors
    /// A [`PositionError`] listing every problem at once.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let board = &setup.board;
        let mut problems = Vec::new();
        for color in Color::ALL {
            let count = board.by_piece(Role::King.of(color)).count();
            if count != 1 {
                problems.push(PositionProblem::KingCount { color, count });
            }
        }
        for sq in board.by_role(Role::Pawn) & Bitboard::BACKRANKS {
            problems.push(PositionProblem::PawnOnBackRank(sq));
        }
        if let Some(king) = board.king_of(!setup.turn)
            && board.attackers(king, setup.turn, board.occupied()).any()
        {
            problems.push(PositionProblem::OppositeCheck);
        }

        let mut castles = Castles::EMPTY;
        let mut chess960 = false;
        for rook in setup.castling_rights {
            let color = if rook.rank() == Rank::FIRST {
                Color::White
            } else {
                Color::Black
            };
            let rank = Rank::FIRST.relative_to(color);
            // A king on the a- or h-file keeps a right with a rook on its
            // one side, as the perft suites read it (shakmaty's
            // "asymmetrical-and-king-on-h").
            let king = board.king_of(color).filter(|k| k.rank() == rank);
            let ok = match king {
                Some(king)
                    if rook.rank() == rank
                        && board.piece_at(rook) == Some(Role::Rook.of(color)) =>
                {
                    let side = CastlingSide::from_files(king.file(), rook.file());
                    // Of two rights on one side, the outer rook's stands.
                    let inner = castles.rook(color, side).map(|other| {
                        let outer = match side {
                            CastlingSide::KingSide => rook.file() > other.file(),
                            CastlingSide::QueenSide => rook.file() < other.file(),
                        };
                        if outer { other } else { rook }
                    });
                    if let Some(inner) = inner {
                        problems.push(PositionProblem::SecondCastlingRight(inner));
                    }
                    if inner != Some(rook) {
                        castles.insert(color, king, rook);
                        chess960 |= king.file() != File::E
                            || (rook.file() != File::A && rook.file() != File::H);
                    }
                    true
                }
                _ => false,
            };
            if !ok {
                problems.push(PositionProblem::InvalidCastlingRight(rook));
            }
        }

        if let Some(ep) = setup.ep_square
            && !ep_square_plausible(board, setup.turn, ep)
        {
            problems.push(PositionProblem::InvalidEpSquare(ep));
        }

        if !problems.is_empty() {
            return Err(PositionError { problems });
        }
        let mut pos = Position {
            board: setup.board,
            turn: setup.turn,
            castles,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            chess960,
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// This position as an unchecked [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castles.mask(),
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    fn compute_key(&self) -> u64 {
        let mut key = zobrist::turn(self.turn);
        for sq in self.board.occupied() {
            if let Some(piece) = self.board.piece_at(sq) {
                key ^= zobrist::piece(piece, sq);
            }
        }
        for sq in self.castles.mask() {
            key ^= zobrist::castling_rook(sq);
        }
        key
    }

    /// The piece placement.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub const fn castles(&self) -> &Castles {
        &self.castles
    }

    /// The en-passant square as written: set after every double step, even
    /// when no pawn can capture. See [`Position::legal_ep_square`].
    #[inline]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub const fn halfmoves(&self) -> u64 {
        self.halfmoves
    }

    /// The number of the move about to be played, from 1.
    #[inline]
    pub const fn fullmoves(&self) -> u64 {
        self.fullmoves
    }

    /// Whether output (FEN castling letters, UCI castling) uses Chess960
    /// conventions. Move generation is the same either way.
    #[inline]
    pub const fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Sets the Chess960 output flag.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// The king of the side to move.
    #[inline]
    pub(crate) fn our_king(&self) -> Option<Square> {
        self.board.by_piece(Role::King.of(self.turn)).first()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.our_king() {
            Some(king) => self
                .board
                .attackers_by_rays(king, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.our_king().is_some_and(|king| {
            self.board
                .is_attacked(king, !self.turn, self.board.occupied())
        })
    }

    /// Whether `m`, a legal move here, checks the opponent's king: the
    /// check mark of its text, found without playing it. A piece checks
    /// from its target square (a pawn as what it promotes to), or uncovers
    /// a slider of its side behind it; castling and en passant, which move
    /// two pieces, are played on a copy.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{LetterPolicy, MoveToken, Position};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1").unwrap();
    /// let check = |san: &str| {
    ///     let m = MoveToken::parse(san.as_bytes()).unwrap().resolve(&pos, LetterPolicy::Auto);
    ///     pos.gives_check(m.unwrap().as_move().unwrap())
    /// };
    /// assert!(check("Nc3")); // uncovers the rook
    /// assert!(!check("Kf2"));
    /// ```
    pub fn gives_check(&self, m: Move) -> bool {
        let board = &self.board;
        let us = self.turn;
        let Some(king) = board.king_of(!us) else {
            return false;
        };
        let Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } = m
        else {
            let mut after = *self;
            after.play_unchecked(m);
            return after.is_check();
        };
        let occupied = board.occupied().without(from).with(to);
        // Sliders by the between-squares table, not the magic tables: a
        // lookup that stays in cache (see `attacks::sliders_seeing`).
        let sees_king = |rays: Bitboard| {
            rays.contains(king) && (attacks::between(to, king) & occupied).is_empty()
        };
        let direct = match promotion.unwrap_or(role) {
            Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
            Role::Knight => attacks::knight_attacks(to).contains(king),
            Role::Bishop => sees_king(attacks::bishop_rays(to)),
            Role::Rook => sees_king(attacks::rook_rays(to)),
            Role::Queen => sees_king(attacks::bishop_rays(to) | attacks::rook_rays(to)),
            Role::King => false,
        };
        if direct {
            return true;
        }
        // Uncovered: a slider of ours on the line from the king through
        // `from` (the moved piece's own attacks are above).
        let line = attacks::line(king, from);
        if line.is_empty() {
            return false;
        }
        let sliders = ((attacks::rook_rays(king) & board.rooks_and_queens())
            | (attacks::bishop_rays(king) & board.bishops_and_queens()))
            & board.by_color(us)
            & line;
        attacks::sliders_seeing(king, sliders.without(from), occupied).any()
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        // Usually the king has a safe square: no move generation then.
        if let Some(king) = self.our_king() {
            let board = &self.board;
            let without_king = board.occupied().without(king);
            let mut targets = attacks::king_attacks(king) & !board.by_color(self.turn);
            if Iterator::any(&mut targets, |sq| {
                board
                    .attackers_by_rays(sq, !self.turn, without_king)
                    .is_empty()
            }) {
                return true;
            }
        }
        !self.legal_moves().is_empty()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether `color` can never checkmate, whatever the moves: a lone king;
    /// a king and one knight against a king with at most queens; or kings
    /// and bishops only, with all bishops on squares of one colour.
    pub fn has_insufficient_material_for(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.by_role(Role::Pawn) | b.rooks_and_queens())).any() {
            return false;
        }
        if (ours & b.by_role(Role::Knight)).any() {
            // One knight mates only with enemy pieces boxing their own king
            // in; a queen would always be able to take the checker instead.
            let blockers = b.by_color(!color) - b.by_role(Role::King) - b.by_role(Role::Queen);
            return ours.count() <= 2 && blockers.is_empty();
        }
        if (ours & b.by_role(Role::Bishop)).any() {
            let bishops = b.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && (b.by_role(Role::Pawn) | b.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Whether neither side can ever checkmate (a dead position by
    /// material): K v K, K+minor v K, and K+B(s) v K+B(s) with all bishops on
    /// squares of one colour.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Position;
    /// let pos = Position::from_fen("8/8/4k3/8/8/2B5/8/4K3 w - - 0 1").unwrap();
    /// assert!(pos.has_insufficient_material());
    /// ```
    pub fn has_insufficient_material(&self) -> bool {
        self.has_insufficient_material_for(Color::White)
            && self.has_insufficient_material_for(Color::Black)
    }

    /// The en-passant square, only if an en-passant capture is legal now.
    #[inline]
    pub fn legal_ep_square(&self) -> Option<Square> {
        // In line up to here: most positions follow no double step.
        self.legal_ep(self.ep_square?)
    }

    /// Whether the en-passant capture onto `ep` is legal now.
    #[inline(never)]
    fn legal_ep(&self, ep: Square) -> Option<Square> {
        let pawns = self.board.by_piece(Role::Pawn.of(self.turn));
        let mut candidates = attacks::pawn_attacks(!self.turn, ep) & pawns;
        // Most double steps pass no enemy pawn: no attack test then.
        if candidates.is_empty() {
            return None;
        }
        let king = self.our_king()?;
        if self.checkers().more_than_one() {
            return None;
        }
        Iterator::any(&mut candidates, |from| self.ep_is_safe(king, from, ep)).then_some(ep)
    }

    /// The Zobrist hash of placement, side to move, castling rights and a
    /// *legal* en-passant capture: an en-passant square nobody can use does
    /// not count, as in the FIDE repetition rule.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Position;
    /// // After 1.e4 no black pawn can capture on e3: same key as without it.
    /// let a = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    /// assert_eq!(a.zobrist_key(), b.zobrist_key());
    /// ```
    #[inline]
    pub fn zobrist_key(&self) -> u64 {
        match self.legal_ep_square() {
            Some(ep) => self.key ^ zobrist::en_passant(ep),
            None => self.key,
        }
    }

    /// Plays a move known to be legal here, e.g. one from
    /// [`Position::legal_moves`]. An illegal move leaves the position in an
    /// unspecified (but memory-safe) state.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        // The key and the clock in registers, written back once: updated
        // in place, each `^=` waited on the store of the one before.
        let us = self.turn;
        let old_castles = self.castles.mask();
        let mut key = self.key ^ zobrist::turn(Color::Black);
        let mut halfmoves = self.halfmoves.saturating_add(1);
        self.ep_square = None;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    let piece = captured.of(!us);
                    self.board.take(to, piece);
                    key ^= zobrist::piece(piece, to);
                    halfmoves = 0;
                }
                let piece = role.of(us);
                let placed = promotion.unwrap_or(role).of(us);
                self.board.take(from, piece);
                self.board.put(to, placed);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(placed, to);
                match role {
                    Role::Pawn => {
                        halfmoves = 0;
                        if from.index().abs_diff(to.index()) == 16 {
                            self.ep_square = Some(Square::from_index_masked(
                                (from.index() + to.index()) as u32 / 2,
                            ));
                        }
                    }
                    Role::King => self.castles.discard_color(us),
                    _ => {}
                }
                if (old_castles & (Bitboard::from(from) | Bitboard::from(to))).any() {
                    self.castles.discard_rook(from);
                    self.castles.discard_rook(to);
                }
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                let pawn = Role::Pawn.of(us);
                let their_pawn = Role::Pawn.of(!us);
                self.board.take(captured, their_pawn);
                self.board.take(from, pawn);
                self.board.put(to, pawn);
                key ^= zobrist::piece(their_pawn, captured)
                    ^ zobrist::piece(pawn, from)
                    ^ zobrist::piece(pawn, to);
                halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_files(king.file(), rook.file());
                let king_to = side.king_to(us);
                let rook_to = side.rook_to(us);
                let k = Role::King.of(us);
                let r = Role::Rook.of(us);
                self.board.take(king, k);
                self.board.take(rook, r);
                self.board.put(king_to, k);
                self.board.put(rook_to, r);
                key ^= zobrist::piece(k, king)
                    ^ zobrist::piece(r, rook)
                    ^ zobrist::piece(k, king_to)
                    ^ zobrist::piece(r, rook_to);
                self.castles.discard_color(us);
            }
        }
        for sq in old_castles ^ self.castles.mask() {
            key ^= zobrist::castling_rook(sq);
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
        self.key = key;
        self.halfmoves = halfmoves;
    }

    /// Plays a null move (`--` in PGN variations): the other side is to
    /// move, the en-passant square is cleared, the half-move clock counts
    /// on, the move number advances after Black; the key follows.
    ///
    /// The side to move must not be in check, or the result breaks the
    /// position's invariants; the caller decides whether null moves are
    /// allowed at all.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Color, Position};
    /// let mut pos = Position::startpos();
    /// pos.play_null();
    /// assert_eq!(pos.turn(), Color::Black);
    /// assert_eq!(pos.halfmoves(), 1);
    /// pos.play_null();
    /// assert_eq!(pos.fullmoves(), 2);
    /// assert_eq!(pos.zobrist_key(), Position::startpos().zobrist_key());
    /// ```
    pub fn play_null(&mut self) {
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= zobrist::turn(Color::Black);
    }

    /// Plays `m` if it is legal here.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not one of the legal moves; the position is
    /// then unchanged.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Move, Position, Role, Square};
    /// let mut pos = Position::startpos();
    /// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
    /// pos.play(e4)?;
    /// assert!(pos.play(e4).is_err());
    /// # Ok::<(), pgnkit::IllegalMove>(())
    /// ```
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove {
                m,
                position: Box::new(*self),
            })
        }
    }

    /// Whether `m` is a legal move here (exactly as generated, including its
    /// capture role).
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves_filtered(
            Some(m.role()),
            Bitboard::from(m.from()),
            Bitboard::from(m.to()),
            &mut list,
        );
        list.contains(&m)
    }
}

/// Whether an en-passant square could have been left by the opponent's
/// double step: on the third rank from the opponent's side, empty, the
/// square behind it empty, an enemy pawn in front of it.
fn ep_square_plausible(board: &Board, turn: Color, ep: Square) -> bool {
    if ep.rank() != Rank::SIXTH.relative_to(turn) {
        return false;
    }
    // Seen from the side to move, the pawn that double-stepped stands one
    // rank below the square and its start square is one rank above.
    let up = turn.fold(1, -1);
    let (Some(pawn), Some(start)) = (ep.offset(0, -up), ep.offset(0, up)) else {
        return false;
    };
    !board.occupied().contains(ep)
        && !board.occupied().contains(start)
        && board.piece_at(pawn) == Some(Role::Pawn.of(!turn))
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn uci(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.uci(p.is_chess960()).to_string())
            .collect();
        v.sort();
        v
    }

    fn has(p: &Position, m: &str) -> bool {
        uci(p).iter().any(|u| u == m)
    }

    #[test]
    fn en_passant_edge_cases() {
        // (fen, e.p. capture in UCI, legal?)
        let cases = [
            // Horizontal pin through both pawns on the fifth rank.
            ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "b5c6", false),
            // The capturing pawn leaves a diagonal to its own king.
            ("8/8/4k3/8/2pP4/8/B5K1/8 b - d3 0 1", "c4d3", false),
            // The captured pawn was blocking a diagonal (discovered check).
            ("8/6k1/8/8/3Pp3/8/1B6/4K3 b - d3 0 1", "e4d3", false),
            // Capturing the checking pawn en passant evades the check.
            ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", true),
            // Plain capture.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", true),
        ];
        for (fen, m, legal) in cases {
            let p = pos(fen);
            assert_eq!(has(&p, m), legal, "{fen} {m}");
            assert_eq!(p.legal_ep_square().is_some(), legal, "{fen}");
            assert!(p.ep_square().is_some());
        }
        // A double step with no enemy pawn beside it: square written, not legal.
        let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(p.ep_square(), Some(Square::E3));
        assert_eq!(p.legal_ep_square(), None);
        // E.p. is possible only right after the double step.
        let mut p = pos("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
        p.play_unchecked(uci_move(&p, "e2e4"));
        assert_eq!(p.legal_ep_square(), Some(Square::E3));
        p.play_unchecked(uci_move(&p, "e8d8"));
        p.play_unchecked(uci_move(&p, "e1d1"));
        assert_eq!(p.ep_square(), None);
        assert!(!has(&p, "d4e3"));
    }

    /// Counters count on past u32::MAX, and the FEN written says so, in
    /// every digit a u64 has, and reads back.
    #[test]
    fn counters_count_on_past_the_largest_a_fen_gives() {
        let mut p = pos("4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295");
        p.play_unchecked(uci_move(&p, "e8d7"));
        p.play_unchecked(uci_move(&p, "h1h2"));
        assert_eq!(
            (p.halfmoves(), p.fullmoves()),
            (4_294_967_297, 4_294_967_296)
        );
        let fen = p.fen(crate::fen::EpMode::Always);
        assert_eq!(fen, "8/3k4/8/8/8/8/7R/4K3 b - - 4294967297 4294967296");
        assert_eq!(Position::from_fen(&fen).map(|back| back == p), Ok(true));
        let mut setup = p.to_setup();
        setup.fullmoves = u64::MAX;
        let fen = setup.to_fen();
        assert_eq!(
            fen,
            "8/3k4/8/8/8/8/7R/4K3 b - - 4294967297 18446744073709551615"
        );
        let mut p = Position::from_fen(&fen).unwrap();
        p.play_unchecked(uci_move(&p, "d7e7"));
        assert_eq!(p.fullmoves(), u64::MAX, "the last move number stays");
    }

    fn uci_move(p: &Position, m: &str) -> Move {
        *p.legal_moves()
            .iter()
            .find(|x| x.uci(p.is_chess960()).to_string() == m)
            .unwrap_or_else(|| panic!("{m} not legal in {p}"))
    }

    #[test]
    fn castling_and_attacks() {
        // (fen, move, legal?)
        let cases = [
            ("4k3/8/8/8/8/8/1r3r2/R3K2R w KQ - 0 1", "e1g1", false), // through check
            ("4k3/8/8/8/8/8/1r3r2/R3K2R w KQ - 0 1", "e1c1", true),  // b1 attacked is fine
            ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1g1", false),   // out of check
            ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1c1", false),
            ("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "e1g1", false), // into check
            ("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "e1c1", true),
            ("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1", false), // blocked
            ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1", false), // b1 must be empty
        ];
        for (fen, m, legal) in cases {
            assert_eq!(has(&pos(fen), m), legal, "{fen} {m}");
        }
    }

    #[test]
    fn chess960_castling() {
        // King and rook swap squares.
        let mut p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
        assert!(p.is_chess960());
        p.play_unchecked(uci_move(&p, "f1g1"));
        assert_eq!(p.board().to_string(), "4k3/8/8/8/8/8/8/5RK1");
        // The king does not move.
        let mut p = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
        p.play_unchecked(uci_move(&p, "g1h1"));
        assert_eq!(p.board().to_string(), "4k3/8/8/8/8/8/8/5RK1");
        assert!(p.castles().is_empty());
        // The castling rook shields c1 from the a1 rook: O-O-O is illegal.
        let p = pos("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1");
        assert!(!has(&p, "e1b1"));
        // Rook on b1, king on c1 stays: the king would stand in check from a1.
        let p = pos("4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
        assert!(!has(&p, "c1b1"));
        let p = pos("4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
        assert!(has(&p, "c1b1"));
        // UCI output follows the chess960 flag.
        let mut p = Position::startpos();
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(castle.uci(p.is_chess960()).to_string(), "e1g1");
        p.set_chess960(true);
        assert_eq!(castle.uci(p.is_chess960()).to_string(), "e1h1");
    }

    #[test]
    fn repetition_keys() {
        let no_ep = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let dead_ep = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(no_ep.zobrist_key(), dead_ep.zobrist_key());
        let live_ep = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
        let gone = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
        assert_ne!(live_ep.zobrist_key(), gone.zobrist_key());
        // Knights out and back: same key, other counters.
        let mut p = Position::startpos();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            p.play_unchecked(uci_move(&p, m));
        }
        assert_eq!(p.zobrist_key(), Position::startpos().zobrist_key());
        assert_eq!(
            p.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"
        );
        // Castling rights and side to move count.
        let no_rights = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1");
        assert_ne!(no_rights.zobrist_key(), Position::startpos().zobrist_key());
        let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(black.zobrist_key(), Position::startpos().zobrist_key());
    }

    #[test]
    fn incremental_key_matches_fresh_key() {
        // A deterministic walk through a busy position.
        let mut p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let mut x = 12345u64;
        for _ in 0..300 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.play_unchecked(moves[(x >> 33) as usize % moves.len()]);
            let fresh = pos(&p.to_string());
            assert_eq!(p.zobrist_key(), fresh.zobrist_key(), "{p}");
            assert_eq!(p, fresh);
        }
    }

    #[test]
    fn insufficient_material() {
        // (fen, white cannot mate, black cannot mate)
        let cases = [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true, true),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true, true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true), // same colour
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false), // opposite colours
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false, true), // bishop pair
            ("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", true, true), // both on dark squares
            ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false, true),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false, true),
            ("4kq2/8/8/8/8/8/8/4KN2 w - - 0 1", true, false),
            ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false, false),
        ];
        for (fen, white, black) in cases {
            let p = pos(fen);
            assert_eq!(
                p.has_insufficient_material_for(Color::White),
                white,
                "{fen}"
            );
            assert_eq!(
                p.has_insufficient_material_for(Color::Black),
                black,
                "{fen}"
            );
            assert_eq!(p.has_insufficient_material(), white && black, "{fen}");
        }
    }

    #[test]
    fn mate_stalemate_play() {
        let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(mate.is_check() && mate.is_checkmate() && !mate.is_stalemate());
        assert_eq!(mate.checkers(), Bitboard::from(Square::H4));
        let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(stale.is_stalemate() && !stale.is_checkmate());
        // Double check: only king moves.
        let double = pos("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1");
        assert_eq!(double.checkers().count(), 2);
        assert!(double.legal_moves().iter().all(|m| m.role() == Role::King));
        // Pinned piece moves only along the pin line.
        let pinned = pos("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
        assert!(
            uci(&pinned)
                .iter()
                .filter(|m| m.starts_with("e2"))
                .all(|m| m.as_bytes()[2] == b'e')
        );
        // Promotions to all four roles.
        let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let promos: Vec<_> = uci(&promo)
            .into_iter()
            .filter(|m| m.starts_with("e7"))
            .collect();
        assert_eq!(promos, ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]);
        // play() rejects and leaves the position unchanged.
        let mut p = Position::startpos();
        let bad = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E5,
            promotion: None,
        };
        let err = p.play(bad).expect_err("e2e5 is illegal");
        assert_eq!(
            err,
            IllegalMove {
                m: bad,
                position: Box::new(Position::startpos())
            }
        );
        assert_eq!(
            err.to_string(),
            "illegal move e2e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(p, Position::startpos());
        // Filtered generation: pawn moves to e4 only.
        let mut list = MoveList::new();
        p.legal_moves_filtered(
            Some(Role::Pawn),
            Bitboard::FULL,
            Square::E4.into(),
            &mut list,
        );
        assert_eq!(list.len(), 1);
        assert!(p.is_legal(list[0]));
    }

    #[test]
    fn null_move() {
        let cases = [
            (
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 2",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 b - - 7 40",
                "4k3/8/8/8/8/8/8/4K3 w - - 8 41",
            ),
        ];
        for (before, after) in cases {
            let mut pos = Position::from_fen(before).unwrap();
            pos.play_null();
            let expected = Position::from_fen(after).unwrap();
            assert_eq!(pos, expected, "{before}");
            assert_eq!(pos.zobrist_key(), expected.zobrist_key());
        }
    }
}
