//! Fast paths of the replay: SAN's everyday shapes read and resolved
//! without the general parser and the move generator. Each gives exactly
//! what the general path gives (tested; resolving is also asserted in debug
//! builds), and declines (`None`) everything else.

use crate::{
    attacks,
    bitboard::Bitboard,
    moves::Move,
    notation::{
        LetterPolicy, Letters, MoveKind, MoveToken, Mover, Notation, ParseMoveTokenError, Spelling,
        Suffix,
    },
    position::Position,
    role::Role,
    square::{File, Rank, Square},
};

/// Reads a move token: SAN's everyday shapes (`e4`, `exd5`, `Nf3`, `Ngf3`,
/// `R1e2`, `Bxc6+`, `Qh4#`) directly, everything else with
/// [`MoveToken::parse`]. The result is exactly what `MoveToken::parse`
/// gives (tested over every token of those shapes).
#[inline]
pub(super) fn parse_move(text: &[u8]) -> Result<MoveToken, ParseMoveTokenError> {
    match plain_san(text) {
        Some(token) => Ok(token),
        None => MoveToken::parse(text),
    }
}

/// The fast path of [`parse_move`]: `[piece][file|rank][x]square[+|#]` and
/// `file[x file]rank` pawn moves without promotion.
#[inline]
fn plain_san(text: &[u8]) -> Option<MoveToken> {
    let file = |b: u8| File::new(u32::from(b.wrapping_sub(b'a')));
    let rank = |b: u8| Rank::new(u32::from(b.wrapping_sub(b'1')));
    let (body, suffix) = match text.split_last()? {
        (b'+', body) => (body, Some(Suffix::Check)),
        (b'#', body) => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let (&to_rank, rest) = body.split_last()?;
    let (&to_file, rest) = rest.split_last()?;
    let to = Square::from_coords(file(to_file)?, rank(to_rank)?);
    let (capture, rest) = match rest.split_last() {
        Some((b'x', rest)) => (true, rest),
        _ => (false, rest),
    };
    let (mover, letters, from_file, from_rank) = match *rest {
        [] if !capture => (Mover::Unnamed, Letters::None, None, None),
        [f] if capture && f.is_ascii_lowercase() => {
            (Mover::Unnamed, Letters::None, Some(file(f)?), None)
        }
        [p] => piece(p)?.with(None, None),
        [p, d] => match (file(d), rank(d)) {
            (Some(f), _) => piece(p)?.with(Some(f), None),
            (_, Some(r)) => piece(p)?.with(None, Some(r)),
            _ => return None,
        },
        _ => return None,
    };
    Some(MoveToken {
        kind: MoveKind::Normal {
            mover,
            from_file,
            from_rank,
            capture,
            to,
            promotion: None,
        },
        notation: Notation::San,
        letters,
        spelling: Spelling::STANDARD,
        suffix,
    })
}

/// An English SAN piece letter.
#[derive(Clone, Copy)]
struct PieceLetter(Mover, Letters);

impl PieceLetter {
    #[inline]
    fn with(
        self,
        from_file: Option<File>,
        from_rank: Option<Rank>,
    ) -> (Mover, Letters, Option<File>, Option<Rank>) {
        (self.0, self.1, from_file, from_rank)
    }
}

#[inline]
fn piece(letter: u8) -> Option<PieceLetter> {
    Some(match letter {
        b'N' => PieceLetter(Mover::Role(Role::Knight), Letters::English),
        b'R' => PieceLetter(Mover::Role(Role::Rook), Letters::English),
        b'Q' => PieceLetter(Mover::Role(Role::Queen), Letters::English),
        b'K' => PieceLetter(Mover::Role(Role::King), Letters::Either),
        b'B' => PieceLetter(Mover::BishopOrPawn, Letters::Either),
        _ => return None,
    })
}

/// The everyday case of [`MoveToken::resolve`] without the move generator:
/// a SAN piece move or pawn push/capture (no promotion) with exactly one
/// pseudo-legal origin, whose legality is one attack test on the king.
/// `None` sends the token to `MoveToken::resolve`, which also explains
/// every failure; when `Some`, the move is the one `resolve` gives (checked
/// in debug builds).
#[inline]
pub(super) fn quick_resolve(
    pos: &Position,
    token: &MoveToken,
    letters: LetterPolicy,
) -> Option<Move> {
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
                || board.piece_at(from) != Some(Role::Pawn.of(us))
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
            return board
                .attackers(to, !us, occupied.without(king))
                .is_empty()
                .then(|| Move::Normal {
                    role,
                    from: king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
        }
        _ => {
            let mut from =
                board.by_piece(role.of(us)) & attacks::attacks(role.of(us), to, occupied);
            if let Some(file) = from_file {
                from &= Bitboard::from_file(file);
            }
            if let Some(rank) = from_rank {
                from &= Bitboard::from_rank(rank);
            }
            from.single_square()?
        }
    };
    // Legal unless the king is attacked once the piece has moved (a piece
    // standing on `to` is captured and attacks nothing).
    let after = occupied.without(from).with(to);
    let checkers = board.attackers(king, !us, after).without(to);
    checkers.is_empty().then(|| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Resolved;

    #[test]
    fn fast_san_reads_like_the_parser() {
        let mut fast = 0;
        for piece in ["", "N", "B", "R", "Q", "K", "P", "S"] {
            for from in ["", "a", "h", "1", "8", "i", "0", "e2"] {
                for capture in ["", "x", ":"] {
                    for to in (0..64).filter_map(Square::new) {
                        for suffix in ["", "+", "#", "++", "=Q", "e.p."] {
                            let text = format!("{piece}{from}{capture}{to}{suffix}");
                            if let Some(token) = plain_san(text.as_bytes()) {
                                fast += 1;
                                assert_eq!(Ok(token), MoveToken::parse(text.as_bytes()), "{text}");
                            }
                        }
                    }
                }
            }
        }
        // Pawn pushes and captures, pieces with and without disambiguation.
        // Pawns: a push and two captures; five pieces: five origins (none,
        // two files, two ranks), with and without `x`; three suffixes.
        assert_eq!(fast, 64 * 3 * (3 + 5 * 5 * 2));
        for text in ["e4", "exd5", "Nf3", "Ngf3", "R1e2", "Bxc6+", "Qh4#", "Kxe2"] {
            assert!(plain_san(text.as_bytes()).is_some(), "{text}");
        }
        for text in [
            "e8=Q", "Pe4", "Sf3", "0-0", "Ng1f3", "e2e4", "x", "", "+", "exd6e.p.",
        ] {
            assert!(plain_san(text.as_bytes()).is_none(), "{text}");
        }
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
            let quick = quick_resolve(&pos, &token, LetterPolicy::Auto);
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
