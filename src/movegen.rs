//! Legal move generation.
//!
//! Generation starts from the checkers and the pinned pieces, so every
//! generated move is legal without playing it: in double check only the
//! king moves; in single check other pieces must capture the checker or
//! block; pinned pieces move along their pin line; the king never steps
//! onto an attacked square. En passant, rare, is checked by simulation.
//!
//! The generator writes sets of targets into a [`Sink`]: a [`MoveList`]
//! expands them into moves, a counter only counts them (perft's last ply).

use crate::{
    attacks,
    bitboard::Bitboard,
    board::Board,
    castling::CastlingSide,
    color::Color,
    moves::{Move, MoveList},
    position::Position,
    role::Role,
    square::{File, Rank, Square},
};

const NOT_FILE_A: u64 = !Bitboard::from_file(File::A).0;
const NOT_FILE_H: u64 = !Bitboard::from_file(File::H).0;

/// Where generated moves go.
pub(crate) trait Sink {
    /// Moves of the piece with `role` on `from` to each of `targets`.
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from `delta` squares back;
    /// promotions on the back ranks.
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32);
    /// One move.
    fn push(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    #[inline(always)]
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index_masked((to.index() as i32 - delta) as u32);
            let capture = board.role_at(to);
            if Bitboard::BACKRANKS.contains(to) {
                for promotion in Role::PROMOTIONS {
                    self.push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture,
                        to,
                        promotion: Some(promotion),
                    });
                }
            } else {
                self.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without making them.
pub(crate) struct Counter(pub(crate) usize);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline(always)]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32) {
        self.0 +=
            (targets - Bitboard::BACKRANKS).count() + 4 * (targets & Bitboard::BACKRANKS).count();
    }

    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// All legal moves.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Position;
    /// let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 48);
    /// ```
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(None, Bitboard::FULL, Bitboard::FULL, &mut list);
        list
    }

    /// Appends to `out` the legal moves of pieces with `role` (any role if
    /// `None`) from a square in `from` to a square in `to`, without
    /// generating the others. Castling counts as a king move whose target is
    /// either the rook's square or the king's destination.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{Bitboard, MoveList, Position, Role, Square};
    /// let pos = Position::startpos();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves_filtered(Some(Role::Knight), Bitboard::FULL, Square::F3.into(), &mut moves);
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!(moves[0].from(), Square::G1);
    /// ```
    #[inline]
    pub fn legal_moves_filtered(
        &self,
        role: Option<Role>,
        from: Bitboard,
        to: Bitboard,
        out: &mut MoveList,
    ) {
        self.generate(role, from, to, out);
    }

    /// Appends all legal moves to `out` (which is not cleared first).
    #[inline]
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        self.generate(None, Bitboard::FULL, Bitboard::FULL, out);
    }

    /// The legal castling move to `side`, if any (for `O-O` / `O-O-O`).
    ///
    /// # Examples
    /// ```
    /// use pgnkit::{CastlingSide, Position};
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    /// let castle = pos.castling_move(CastlingSide::QueenSide).unwrap();
    /// assert_eq!(castle.uci(false).to_string(), "e8c8");
    /// ```
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let rook = self.castles.rook(self.turn, side)?;
        let king = self.our_king()?;
        let mut list = MoveList::new();
        if self.checkers().is_empty() {
            self.gen_castling(king, Bitboard::from(rook), &mut list);
        }
        list.first().copied()
    }

    /// The number of legal moves, counted without making them.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::Position;
    /// assert_eq!(Position::startpos().count_legal_moves(), 20);
    /// ```
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = Counter(0);
        self.generate(None, Bitboard::FULL, Bitboard::FULL, &mut counter);
        counter.0
    }

    #[inline(always)]
    fn generate<S: Sink>(&self, role: Option<Role>, from: Bitboard, to: Bitboard, out: &mut S) {
        let want = |r: Role| role.is_none_or(|x| x == r);
        let us = self.turn;
        let board = &self.board;
        let Some(king) = self.our_king() else {
            return;
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let checkers = board.attackers(king, !us, occupied);

        if want(Role::King) && from.contains(king) {
            let without_king = occupied.without(king);
            for sq in attacks::king_attacks(king) & !ours & to {
                if board.attackers(sq, !us, without_king).is_empty() {
                    out.piece(board, Role::King, king, Bitboard::from_square(sq));
                }
            }
            if checkers.is_empty() && !self.castles.is_empty() {
                self.gen_castling(king, to, out);
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        } & to;
        let pinned = board.pinned(king, us);

        if want(Role::Knight) {
            for sq in (board.by_role(Role::Knight) & ours & from) - pinned {
                out.piece(
                    board,
                    Role::Knight,
                    sq,
                    attacks::knight_attacks(sq) & target,
                );
            }
        }
        if want(Role::Bishop) {
            for sq in board.by_role(Role::Bishop) & ours & from {
                let mut moves = attacks::bishop_attacks(sq, occupied) & target;
                if pinned.contains(sq) {
                    moves &= attacks::line(king, sq);
                }
                out.piece(board, Role::Bishop, sq, moves);
            }
        }
        if want(Role::Rook) {
            for sq in board.by_role(Role::Rook) & ours & from {
                let mut moves = attacks::rook_attacks(sq, occupied) & target;
                if pinned.contains(sq) {
                    moves &= attacks::line(king, sq);
                }
                out.piece(board, Role::Rook, sq, moves);
            }
        }
        if want(Role::Queen) {
            for sq in board.by_role(Role::Queen) & ours & from {
                let mut moves = attacks::queen_attacks(sq, occupied) & target;
                if pinned.contains(sq) {
                    moves &= attacks::line(king, sq);
                }
                out.piece(board, Role::Queen, sq, moves);
            }
        }
        if want(Role::Pawn) {
            let pawns = board.by_role(Role::Pawn) & ours & from;
            self.gen_pawns(king, pawns, pinned, target, out);
            if let Some(ep) = self.ep_square
                && to.contains(ep)
            {
                for sq in attacks::pawn_attacks(!us, ep) & pawns {
                    if self.ep_is_safe(king, sq, ep) {
                        out.push(Move::EnPassant { from: sq, to: ep });
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn gen_pawns<S: Sink>(
        &self,
        king: Square,
        pawns: Bitboard,
        pinned: Bitboard,
        target: Bitboard,
        out: &mut S,
    ) {
        let us = self.turn;
        let board = &self.board;
        let empty = !board.occupied().0;
        let theirs = board.by_color(!us).0;
        let free = (pawns - pinned).0;
        // Set-wise for unpinned pawns: the targets, each with its origin
        // `delta` squares back.
        let (single, double, left, right, up, up_left, up_right) = match us {
            Color::White => {
                let single = (free << 8) & empty;
                let double = ((single & Bitboard::from_rank(Rank::THIRD).0) << 8) & empty;
                (
                    single,
                    double,
                    ((free & NOT_FILE_A) << 7) & theirs,
                    ((free & NOT_FILE_H) << 9) & theirs,
                    8i32,
                    7i32,
                    9i32,
                )
            }
            Color::Black => {
                let single = (free >> 8) & empty;
                let double = ((single & Bitboard::from_rank(Rank::SIXTH).0) >> 8) & empty;
                (
                    single,
                    double,
                    ((free & NOT_FILE_A) >> 9) & theirs,
                    ((free & NOT_FILE_H) >> 7) & theirs,
                    -8i32,
                    -9i32,
                    -7i32,
                )
            }
        };
        out.pawns(board, Bitboard(left) & target, up_left);
        out.pawns(board, Bitboard(right) & target, up_right);
        out.pawns(board, Bitboard(single) & target, up);
        out.pawns(board, Bitboard(double) & target, 2 * up);

        // Pinned pawns, one by one, along their pin line.
        for from in pawns & pinned {
            let allowed = target & attacks::line(king, from);
            let captures = attacks::pawn_attacks(us, from) & Bitboard(theirs) & allowed;
            for to in captures {
                out.pawns(
                    board,
                    Bitboard::from(to),
                    to.index() as i32 - from.index() as i32,
                );
            }
            if let Some(one) = from.offset(0, up / 8)
                && Bitboard(empty).contains(one)
            {
                out.pawns(board, Bitboard::from(one) & allowed, up);
                if from.rank() == Rank::SECOND.relative_to(us)
                    && let Some(two) = one.offset(0, up / 8)
                    && Bitboard(empty).contains(two)
                {
                    out.pawns(board, Bitboard::from(two) & allowed, 2 * up);
                }
            }
        }
    }

    /// Whether the pawn on `from` may capture en passant onto `ep` without
    /// leaving its king attacked (including through both vacated squares).
    pub(crate) fn ep_is_safe(&self, king: Square, from: Square, ep: Square) -> bool {
        let captured = Square::from_coords(ep.file(), from.rank());
        let occupied = (self.board.occupied().without(from).without(captured)).with(ep);
        (self
            .board
            .attackers(king, !self.turn, occupied)
            .without(captured))
        .is_empty()
    }

    fn gen_castling<S: Sink>(&self, king: Square, to: Bitboard, out: &mut S) {
        let us = self.turn;
        let occupied = self.board.occupied();
        for side in CastlingSide::ALL {
            let Some(rook) = self.castles.rook(us, side) else {
                continue;
            };
            if !(to.contains(rook) || to.contains(side.king_to(us))) {
                continue;
            }
            if (self.castles.path(us, side) & occupied).any() {
                continue;
            }
            // The rook may have been shielding the king's path (Chess960).
            let without = occupied.without(king).without(rook);
            let mut king_path = self.castles.king_path(us, side);
            if Iterator::any(&mut king_path, |sq| {
                self.board.attackers(sq, !us, without).any()
            }) {
                continue;
            }
            out.push(Move::Castle { king, rook });
        }
    }
}
