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
    role::{Piece, Role},
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
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castles: Castles,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
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
    /// A castling right whose rook (or king) is not on its square, or a
    /// second right on the same side.
    InvalidCastlingRight(Square),
    /// An en-passant square that no double step could have left.
    InvalidEpSquare(Square),
}

impl PositionProblem {
    /// The FEN field the problem belongs to (as in
    /// [`FenField`](crate::FenField)).
    pub const fn field(self) -> crate::fen::FenField {
        use crate::fen::FenField;
        match self {
            PositionProblem::KingCount { .. } | PositionProblem::PawnOnBackRank(_) => {
                FenField::Board
            }
            PositionProblem::OppositeCheck => FenField::Turn,
            PositionProblem::InvalidCastlingRight(_) => FenField::Castling,
            PositionProblem::InvalidEpSquare(_) => FenField::EnPassant,
        }
    }
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionProblem::KingCount { color, count: 0 } => write!(f, "no {color} king"),
            PositionProblem::KingCount { color, count } => write!(f, "{count} {color} kings"),
            PositionProblem::PawnOnBackRank(sq) => write!(f, "pawn on back rank ({sq})"),
            PositionProblem::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionProblem::InvalidCastlingRight(sq) => {
                write!(f, "castling right without king and rook in place ({sq})")
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {uci} in {fen}")]
pub struct IllegalMove {
    /// The move, in UCI notation.
    pub uci: String,
    /// The position, as FEN.
    pub fen: String,
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
            let king = board.king_of(color).filter(|k| k.rank() == rank);
            let ok = match king {
                Some(king)
                    if rook.rank() == rank
                        && board.piece_at(rook) == Some(Role::Rook.of(color)) =>
                {
                    let side = CastlingSide::from_files(king.file(), rook.file());
                    if castles.has(color, side) {
                        false
                    } else {
                        castles.insert(color, king, rook);
                        chess960 |= king.file() != File::E
                            || (rook.file() != File::A && rook.file() != File::H);
                        true
                    }
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
            board: setup.board.clone(),
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
            board: self.board.clone(),
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
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the move about to be played, from 1.
    #[inline]
    pub const fn fullmoves(&self) -> u32 {
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
                .attackers(king, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
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
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let king = self.our_king()?;
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return None;
        }
        let pawns = self.board.by_piece(Role::Pawn.of(self.turn));
        let mut candidates = attacks::pawn_attacks(!self.turn, ep) & pawns;
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
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let old_castles = self.castles.mask();
        self.ep_square = None;
        self.halfmoves += 1;
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
                    self.key ^= zobrist::piece(piece, to);
                    self.halfmoves = 0;
                }
                let piece = role.of(us);
                self.board.take(from, piece);
                self.key ^= zobrist::piece(piece, from);
                let placed = promotion.unwrap_or(role).of(us);
                self.board.put(to, placed);
                self.key ^= zobrist::piece(placed, to);
                match role {
                    Role::Pawn => {
                        self.halfmoves = 0;
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
                self.key ^= zobrist::piece(their_pawn, captured)
                    ^ zobrist::piece(pawn, from)
                    ^ zobrist::piece(pawn, to);
                self.halfmoves = 0;
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
                self.key ^= zobrist::piece(k, king)
                    ^ zobrist::piece(r, rook)
                    ^ zobrist::piece(k, king_to)
                    ^ zobrist::piece(r, rook_to);
                self.castles.discard_color(us);
            }
        }
        for sq in old_castles ^ self.castles.mask() {
            self.key ^= zobrist::castling_rook(sq);
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
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
                uci: m.uci(self.chess960).to_string(),
                fen: self.to_string(),
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
    let forward = turn.fold(8, -8);
    let (Some(pawn), Some(behind)) = (ep.offset(0, -forward / 8), ep.offset(0, forward / 8)) else {
        return false;
    };
    !board.occupied().contains(ep)
        && !board.occupied().contains(behind)
        && board.piece_at(pawn)
            == Some(Piece {
                color: !turn,
                role: Role::Pawn,
            })
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
