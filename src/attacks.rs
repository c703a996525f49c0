//! Attack tables: which squares a piece on a square attacks.
//!
//! Every table is computed at compile time by `const fn`. Sliding pieces use
//! magic bitboards: the magic numbers were found offline by a deterministic
//! search (the ignored test `find_magics` reproduces them) and the table
//! builder rejects any collision at compile time, so a wrong magic cannot
//! build.

use crate::{bitboard::Bitboard, color::Color, role::Piece, role::Role, square::Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares reached from `sq` by the given `(file, rank)` steps, one step each.
const fn step_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i32 + steps[i].0;
            let r = (sq / 8) as i32 + steps[i].1;
            if 0 <= f && f < 8 && 0 <= r && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Slow sliding attacks by walking the rays; used to build the tables.
const fn sliding(sq: u32, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut result = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while 0 <= f && f < 8 && 0 <= r && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            result |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    result
}

/// The squares whose occupancy matters for a slider on `sq`: its rays
/// without their last square.
const fn relevant_mask(sq: u32, dirs: &[(i32, i32); 4]) -> u64 {
    let mut result = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while 0 <= f + df && f + df < 8 && 0 <= r + dr && r + dr < 8 {
            result |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    result
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
    }
}

const fn magics(factors: &[u64; 64], dirs: &[(i32, i32); 4]) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq as u32, dirs);
        out[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - mask.count_ones(),
            offset,
        };
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    out
}

const fn table_size(dirs: &[(i32, i32); 4]) -> usize {
    let mut size = 0;
    let mut sq = 0;
    while sq < 64 {
        size += 1 << relevant_mask(sq, dirs).count_ones();
        sq += 1;
    }
    size
}

const fn build_table<const N: usize>(magics: &[Magic; 64], dirs: &[(i32, i32); 4]) -> [u64; N] {
    let mut table = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Enumerate every subset of the mask (carry-rippler).
        let mut subset = 0u64;
        loop {
            let attacks = sliding(sq as u32, subset, dirs);
            let i = m.index(subset);
            // Attack sets are never empty, so 0 marks a free slot.
            assert!(table[i] == 0 || table[i] == attacks, "magic collision");
            table[i] = attacks;
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

#[rustfmt::skip]
const ROOK_FACTORS: [u64; 64] = [
    0x4080_01f0_4004_8020, 0x0840_1000_4000_2000, 0x1900_2000_0a11_0040, 0x0080_0800_1000_8006,
    0x0100_0300_0408_0010, 0x4080_0400_0200_8001, 0x0180_0080_0700_0200, 0x0180_0080_0024_5100,
    0x0020_8008_2040_0080, 0x0002_4000_2010_0040, 0x080a_0012_0044_2086, 0x1000_8008_0080_1000,
    0x8008_8004_0080_8800, 0x800a_0002_0024_1048, 0x1888_8080_2100_0200, 0x0c02_0001_0080_4422,
    0x0c00_8180_0022_4000, 0x0200_8280_4000_2000, 0x2200_8080_2000_1000, 0x8010_0080_0800_8015,
    0x0002_0200_1020_0409, 0x0326_0080_0280_0400, 0x0000_6400_1008_6231, 0x0000_0200_0120_8054,
    0x1000_4010_8000_2081, 0x0201_0081_0030_4000, 0x0001_0041_0020_0011, 0x0210_1000_8008_0080,
    0x8040_0400_8080_0800, 0x0046_0004_0400_2010, 0x00a5_0401_0100_0200, 0x0000_1042_0004_0081,
    0x0000_c000_8280_0220, 0x4b00_8820_0680_4001, 0x1280_1000_8280_2000, 0x0000_2009_0100_1000,
    0x0000_0800_8080_0401, 0x0a04_0041_0040_0200, 0x0241_000c_0700_0200, 0x4201_0000_6100_0082,
    0x0003_0080_0043_0028, 0x4000_8100_4001_0020, 0x4042_0040_8022_0010, 0x2000_0800_1000_8080,
    0x0400_0801_0005_0010, 0x1006_0020_1004_0400, 0x008a_0200_0100_8080, 0x0011_0008_9841_000e,
    0x5006_8002_4100_3100, 0x0400_2010_0040_0040, 0x2002_1005_8020_0880, 0x0020_0800_1000_8080,
    0x0010_0800_8004_0080, 0x0260_0200_8004_0080, 0x0007_0094_4200_2100, 0x0000_1900_8044_0a00,
    0x2128_4504_8000_2011, 0x0200_2048_8100_1202, 0x0020_9020_0269_0041, 0x00a4_0805_0010_0021,
    0x0003_0028_0002_104d, 0x0801_0002_0400_0803, 0x0201_0000_a402_0021, 0x00a4_1400_884d_0026,
];

#[rustfmt::skip]
const BISHOP_FACTORS: [u64; 64] = [
    0x0011_0408_1804_4010, 0x1009_0801_0c02_a804, 0x0010_00c0_8100_0828, 0x0004_4100_2010_0130,
    0x0201_1040_0000_1088, 0x0581_1002_5001_0020, 0x200a_2101_0840_0010, 0x0181_00a5_0128_400a,
    0x4800_4010_0121_0106, 0x0010_0488_1810_4880, 0x4081_0408_1089_1041, 0x0060_0410_4204_0001,
    0x0009_1111_4000_4221, 0x0004_0110_0804_2080, 0x8000_0082_0820_0460, 0x0000_0500_8844_0240,
    0x4408_0010_9101_0800, 0x0020_0404_0818_8110, 0x0220_4182_0081_0200, 0x2848_2084_0242_0000,
    0x0045_0040_9040_0042, 0x3021_8044_1004_1100, 0x01c4_0109_0401_0482, 0x4101_1041_4346_1000,
    0x0402_0840_4051_2400, 0x2230_0823_4401_4400, 0x00a0_4800_0102_0402, 0x0840_0400_0041_0020,
    0x4021_0100_0144_4000, 0x000a_5902_0200_8202, 0x0000_8202_0101_3080, 0x4102_8180_8632_0820,
    0x0001_1010_0008_2000, 0x1a04_5002_0044_0408, 0x1002_a804_0118_0021, 0x2820_6009_0020_0900,
    0xc004_1010_1024_0040, 0x2020_8092_0301_0100, 0x0842_4a02_0500_5804, 0x8802_0403_0c02_3080,
    0x2008_a410_c000_8800, 0x0004_0432_0800_0264, 0x4002_0840_5004_0800, 0x00c0_0014_1400_8800,
    0x0040_4008_1044_0200, 0x0040_0100_4100_0080, 0x2044_9002_0060_0203, 0x0004_d400_4201_0740,
    0x0002_0804_2c24_0410, 0x0281_8204_d004_1000, 0x0005_4024_1208_4000, 0x1a24_6000_4110_8090,
    0x010a_8809_9024_1000, 0x0a06_4008_0101_0802, 0x208a_9003_30c4_1000, 0x0050_1000_8080_8400,
    0x0400_1208_0108_0801, 0x2000_0440_5208_2002, 0x0486_0016_0100_c820, 0x0280_1000_0020_8800,
    0x0804_9000_1002_020a, 0x3200_0120_2202_2610, 0x0481_4410_1012_02b1, 0x0011_0108_0800_8620,
];

const ROOK_MAGICS: [Magic; 64] = magics(&ROOK_FACTORS, &ROOK_DIRS);
const BISHOP_MAGICS: [Magic; 64] = magics(&BISHOP_FACTORS, &BISHOP_DIRS);
const ROOK_TABLE_SIZE: usize = table_size(&ROOK_DIRS);
const BISHOP_TABLE_SIZE: usize = table_size(&BISHOP_DIRS);

static ROOK_TABLE: [u64; ROOK_TABLE_SIZE] = build_table(&ROOK_MAGICS, &ROOK_DIRS);
static BISHOP_TABLE: [u64; BISHOP_TABLE_SIZE] = build_table(&BISHOP_MAGICS, &BISHOP_DIRS);

const KNIGHT_TABLE: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
const KING_TABLE: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
const PAWN_TABLE: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// `BETWEEN[a][b]`: squares strictly between two aligned squares;
/// `LINE[a][b]`: the whole line through them (both included). Empty when
/// the squares are not on a common rank, file or diagonal.
const fn build_lines() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bit_b = 1u64 << b;
            let mut k = 0;
            while k < 2 {
                let dirs = if k == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
                if a != b && sliding(a as u32, 0, dirs) & bit_b != 0 {
                    between[a][b] =
                        sliding(a as u32, bit_b, dirs) & sliding(b as u32, 1 << a, dirs);
                    line[a][b] = (sliding(a as u32, 0, dirs) & sliding(b as u32, 0, dirs))
                        | (1 << a)
                        | bit_b;
                }
                k += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

const fn rays(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = sliding(sq as u32, 0, dirs);
        sq += 1;
    }
    table
}

const ROOK_RAYS: [u64; 64] = rays(&ROOK_DIRS);
const BISHOP_RAYS: [u64; 64] = rays(&BISHOP_DIRS);

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_lines();

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_TABLE[sq.index() & 63])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_TABLE[sq.index() & 63])
}

/// Squares a pawn of `color` on `sq` attacks (its diagonal capture squares).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_TABLE[color.index() & 1][sq.index() & 63])
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let magic = &ROOK_MAGICS[sq.index() & 63];
    let i = magic.index(occupied.0);
    Bitboard(ROOK_TABLE[i])
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let magic = &BISHOP_MAGICS[sq.index() & 63];
    let i = magic.index(occupied.0);
    Bitboard(BISHOP_TABLE[i])
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index() & 63])
}

/// Squares a bishop on `sq` attacks on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index() & 63])
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares `piece` on `sq` attacks, given the occupied squares.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index() & 63][b.index() & 63])
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge, both
/// included); empty if they are not aligned or equal.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index() & 63][b.index() & 63])
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// The squares of `sliders` that see `sq` with no square of `occupied`
/// between. Every slider must lie on a rank, file or diagonal through
/// `sq` (filter with [`rook_rays`] or [`bishop_rays`] first): a square
/// off every line has nothing "between" and would count.
///
/// One lookup in the 32 KiB between-table per slider, instead of a magic
/// lookup in the 800 KiB rook table: faster where attacks are asked now
/// and then (move resolution) rather than in a tight loop (perft), as the
/// magic tables do not stay in cache.
#[inline]
pub fn sliders_seeing(sq: Square, sliders: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut seen = Bitboard::EMPTY;
    for slider in sliders {
        if (between(sq, slider) & occupied).is_empty() {
            seen |= Bitboard::from(slider);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attacks, the squares between and the sliders seen, each on a
    /// board small enough to check by eye.
    #[test]
    fn worked_examples() {
        let occupied = Bitboard::from_square(Square::A4);
        let a = rook_attacks(Square::A1, occupied);
        assert!(a.contains(Square::A4) && !a.contains(Square::A5));
        assert!(a.contains(Square::H1));
        let b = between(Square::A1, Square::D4);
        assert_eq!(b.collect::<Vec<_>>(), [Square::B2, Square::C3]);
        assert!(between(Square::A1, Square::B3).is_empty());
        let rooks = Bitboard::from(Square::A8) | Bitboard::from(Square::H1);
        let blocker = Bitboard::from(Square::A4);
        let seen = sliders_seeing(Square::A1, rooks, blocker | rooks);
        assert_eq!(seen, Bitboard::from(Square::H1));
    }

    fn bb(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn leapers() {
        let cases: [(Bitboard, Bitboard); 5] = [
            (knight_attacks(Square::A1), bb(&[Square::B3, Square::C2])),
            (
                king_attacks(Square::H8),
                bb(&[Square::G8, Square::G7, Square::H7]),
            ),
            (
                pawn_attacks(Color::White, Square::E4),
                bb(&[Square::D5, Square::F5]),
            ),
            (pawn_attacks(Color::Black, Square::A7), bb(&[Square::B6])),
            (pawn_attacks(Color::White, Square::H8), Bitboard::EMPTY),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
        assert_eq!(knight_attacks(Square::E4).count(), 8);
    }

    #[test]
    fn sliders_match_slow_rays() {
        // A deterministic spread of occupancies for every square.
        let mut x = 0x1234_5678_9abc_def1u64;
        for sq in Square::all() {
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = x & (x >> 3);
                let i = sq.index() as u32;
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    sliding(i, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    sliding(i, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn lines() {
        assert_eq!(
            between(Square::E1, Square::H1),
            bb(&[Square::F1, Square::G1])
        );
        assert_eq!(between(Square::E1, Square::F1), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert!(line(Square::B2, Square::C4).is_empty());
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert!(!aligned(Square::A1, Square::H8, Square::D5));
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                assert!((between(a, b) - line(a, b)).is_empty());
            }
        }
    }

    /// Reproduces `ROOK_FACTORS` and `BISHOP_FACTORS`: a sparse random search
    /// with a fixed xorshift64* seed. Run with
    /// `cargo test --release --lib find_magics -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn find_magics() {
        struct Rng(u64);
        impl Rng {
            fn next(&mut self) -> u64 {
                self.0 ^= self.0 >> 12;
                self.0 ^= self.0 << 25;
                self.0 ^= self.0 >> 27;
                self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
            }
        }
        fn find(sq: u32, dirs: &[(i32, i32); 4], rng: &mut Rng) -> u64 {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let mut cases = Vec::new();
            let mut subset = 0u64;
            loop {
                cases.push((subset, sliding(sq, subset, dirs)));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            let mut used = vec![0u64; 1 << bits];
            let mut epoch = vec![0u32; 1 << bits];
            let mut attempt = 0;
            loop {
                let factor = rng.next() & rng.next() & rng.next();
                if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
                    continue;
                }
                attempt += 1;
                let ok = cases.iter().all(|&(occ, att)| {
                    let i = (occ.wrapping_mul(factor) >> (64 - bits)) as usize;
                    if epoch[i] < attempt {
                        epoch[i] = attempt;
                        used[i] = att;
                    }
                    used[i] == att
                });
                if ok {
                    return factor;
                }
            }
        }
        let mut rng = Rng(0x7067_6e6b_6974_2121);
        let rooks: Vec<u64> = (0..64).map(|sq| find(sq, &ROOK_DIRS, &mut rng)).collect();
        let bishops: Vec<u64> = (0..64).map(|sq| find(sq, &BISHOP_DIRS, &mut rng)).collect();
        assert_eq!(rooks, ROOK_FACTORS);
        assert_eq!(bishops, BISHOP_FACTORS);
    }
}
