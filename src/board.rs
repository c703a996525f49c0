//! Piece placement: where each piece stands.

use std::fmt;

use crate::{
    attacks,
    bitboard::Bitboard,
    color::Color,
    role::{Piece, Role},
    square::{File, Rank, Square},
};

/// Piece placement, as bitboards by role and by colour plus a square → role
/// table for fast lookup. Says nothing about whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    roles: [Option<Role>; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            roles: [None; 64],
        }
    }

    /// The standard start position's placement.
    pub fn startpos() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for color in Color::ALL {
            for (file, role) in File::ALL.into_iter().zip(back) {
                let first = Rank::FIRST.relative_to(color);
                let second = Rank::SECOND.relative_to(color);
                board.set(Square::from_coords(file, first), role.of(color));
                board.set(Square::from_coords(file, second), Role::Pawn.of(color));
            }
        }
        board
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces with `role`, either colour.
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role(piece.role).0 & self.by_color(piece.color).0)
    }

    /// Rooks and queens of both colours.
    #[inline]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role(Role::Rook).0 | self.by_role(Role::Queen).0)
    }

    /// Bishops and queens of both colours.
    #[inline]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role(Role::Bishop).0 | self.by_role(Role::Queen).0)
    }

    /// The king of `color`, if there is exactly one.
    #[inline]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King.of(color)).single_square()
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        self.roles[sq.index() & 63]
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        match (self.role_at(sq), self.color_at(sq)) {
            (Some(role), Some(color)) => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        self.put(sq, piece);
    }

    /// Removes and returns the piece on `sq`, if any.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.occupied |= bb;
        self.roles[sq.index() & 63] = Some(piece.role);
    }

    /// Removes `piece`, known to stand on `sq`.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.occupied ^= bb;
        self.roles[sq.index() & 63] = None;
    }

    /// The pieces of `color` that attack `sq`, with `occupied` as the
    /// blockers for sliding pieces.
    #[inline]
    pub fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(color);
        ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(!color, sq) & self.by_role(Role::Pawn)))
            & them
    }

    /// The same squares as [`Board::attackers`], with the sliders found
    /// along the rays through `sq` (the between-squares table) instead
    /// of by magic lookups: the faster choice outside move generation.
    #[inline]
    pub fn attackers_by_rays(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(color);
        let sliders = ((attacks::rook_rays(sq) & self.rooks_and_queens())
            | (attacks::bishop_rays(sq) & self.bishops_and_queens()))
            & them;
        let leapers = ((attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(!color, sq) & self.by_role(Role::Pawn)))
            & them;
        leapers | attacks::sliders_seeing(sq, sliders, occupied)
    }

    /// Whether a piece of `color` attacks `sq` with `occupied` as the
    /// blockers, leaving out a piece on `taken` (captured by the move that
    /// made `occupied`): [`Board::attackers_by_rays`] for a yes or no,
    /// which stops at the first attacker.
    #[inline(always)]
    pub fn attacked_after(
        &self,
        sq: Square,
        color: Color,
        occupied: Bitboard,
        taken: Square,
    ) -> bool {
        let them = self.by_color(color).without(taken);
        let leapers = (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::pawn_attacks(!color, sq) & self.by_role(Role::Pawn))
            | (attacks::king_attacks(sq) & self.by_role(Role::King));
        if (leapers & them).any() {
            return true;
        }
        let mut sliders = ((attacks::rook_rays(sq) & self.rooks_and_queens())
            | (attacks::bishop_rays(sq) & self.bishops_and_queens()))
            & them;
        Iterator::any(&mut sliders, |slider| {
            (attacks::between(sq, slider) & occupied).is_empty()
        })
    }

    /// Whether a piece of `color` attacks `sq`, with `occupied` as the
    /// blockers: [`Board::attackers`] for a yes or no.
    #[inline]
    pub fn is_attacked(&self, sq: Square, color: Color, occupied: Bitboard) -> bool {
        // Leaving out a piece on `sq` itself changes nothing: no piece
        // attacks its own square.
        self.attacked_after(sq, color, occupied, sq)
    }

    /// The pieces on `color`'s side that pin a piece to `king`: returns the
    /// squares of `king`'s own pieces that are the single blocker between
    /// `king` and an enemy slider on the same line.
    pub fn pinned(&self, king: Square, color: Color) -> Bitboard {
        let them = self.by_color(!color);
        let snipers = ((attacks::rook_rays(king) & self.rooks_and_queens())
            | (attacks::bishop_rays(king) & self.bishops_and_queens()))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & self.occupied;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color(color)
    }

    /// The board field of a FEN: ranks 8 to 1, `/`-separated.
    pub fn board_fen(&self) -> String {
        self.to_string()
    }
}

impl Board {
    /// The FEN board field, written at the start of `out`: at most 71
    /// bytes. The length written.
    pub(crate) fn write_field(&self, out: &mut [u8; 128]) -> usize {
        let white = self.by_color(Color::White);
        let mut len = 0;
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                let Some(role) = self.roles[sq.index()] else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    out[len] = b'0' + empty;
                    len += 1;
                    empty = 0;
                }
                let upper = role.upper_char() as u8;
                out[len] = if white.contains(sq) {
                    upper
                } else {
                    upper.to_ascii_lowercase()
                };
                len += 1;
            }
            if empty > 0 {
                out[len] = b'0' + empty;
                len += 1;
            }
            if rank != Rank::FIRST {
                out[len] = b'/';
                len += 1;
            }
        }
        len
    }
}

impl fmt::Display for Board {
    /// The FEN board field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built in place and written once: through the formatter, each
        // piece and each digit was a call of its own.
        let mut field = [0u8; 128];
        let len = self.write_field(&mut field);
        // Piece letters, digits and slashes are ASCII.
        f.write_str(std::str::from_utf8(&field[..len]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_layout() {
        let board = Board::startpos();
        assert_eq!(
            board.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        assert_eq!(board.occupied().count(), 32);
        assert_eq!(board.king_of(Color::Black), Some(Square::E8));
        assert_eq!(
            board.piece_at(Square::D1),
            Some(Role::Queen.of(Color::White))
        );
        assert_eq!(board.piece_at(Square::E4), None);
    }

    #[test]
    fn set_remove_attackers_pins() {
        let mut board = Board::empty();
        board.set(Square::E1, Role::King.of(Color::White));
        board.set(Square::E4, Role::Knight.of(Color::White));
        board.set(Square::E8, Role::Rook.of(Color::Black));
        board.set(Square::A5, Role::Bishop.of(Color::Black));
        assert_eq!(board.pinned(Square::E1, Color::White), Square::E4.into());
        assert_eq!(
            board.attackers(Square::E1, Color::Black, board.occupied()),
            Square::A5.into()
        );
        assert_eq!(
            board.remove(Square::E4),
            Some(Role::Knight.of(Color::White))
        );
        assert_eq!(board.pinned(Square::E1, Color::White), Bitboard::EMPTY);
        assert_eq!(
            board
                .attackers(Square::E1, Color::Black, board.occupied())
                .count(),
            2
        );
    }

    #[test]
    fn attackers_by_rays_agrees_with_magics() {
        // Boards with sliders on every kind of line, for every square,
        // both colours and three occupancies (the board's, one with a
        // blocker lifted, one with an extra blocker).
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "q3k2q/8/8/3QB3/8/8/8/R3K2R w - - 0 1",
        ];
        for fen in fens {
            let board = *fen.parse::<crate::Position>().unwrap().board();
            for lifted in [None, Some(Square::D5), Some(Square::E2)] {
                for extra in [None, Some(Square::D4)] {
                    let mut occupied = board.occupied();
                    if let Some(sq) = lifted {
                        occupied = occupied.without(sq);
                    }
                    if let Some(sq) = extra {
                        occupied = occupied.with(sq);
                    }
                    for sq in Square::all() {
                        for color in [Color::White, Color::Black] {
                            assert_eq!(
                                board.attackers_by_rays(sq, color, occupied),
                                board.attackers(sq, color, occupied),
                                "{fen} {sq:?} {color:?} {lifted:?} {extra:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
