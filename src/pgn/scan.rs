//! The reader's byte searches, and the writer's test of a comment it copies
//! as read, sixteen and thirty-two bytes at a time: SSE2 on x86_64 (and AVX2
//! for comments, where the CPU has it), a plain loop elsewhere.
//!
//! The framer passes over every byte of every game, and the stretches
//! between the bytes that matter are short: 5 to 60 bytes of a move, a tag
//! value or a line, a few hundred of a comment. On such stretches one of
//! these calls costs less than a byte loop with a table, and less than
//! `memchr`'s set-up per call.

/// Which versions of the framer's hot loops run: the AVX2 ones or the
/// portable ones (SSE2 on x86_64, plain loops elsewhere). A framer asks
/// once, when it is made ([`Simd::detect`]), and each hot loop picks its
/// version by the answer; the portable versions are tested equal to the
/// AVX2 ones on x86_64 too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Simd {
    /// The CPU has AVX2 (x86_64 only).
    Avx2,
    /// Anything else.
    Portable,
}

impl Simd {
    /// What this CPU runs: the one place that asks it.
    #[inline]
    pub(crate) fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
        Simd::Portable
    }
}

/// The position of the first byte of `hay` that is one of `set`'s four
/// (repeat a byte to search for fewer).
#[inline]
pub fn find4(hay: &[u8], set: [u8; 4]) -> Option<usize> {
    let (chunks, tail) = hay.as_chunks::<16>();
    for (i, chunk) in chunks.iter().enumerate() {
        let mask = lanes::any_of(chunk, set);
        if mask != 0 {
            return Some(i * 16 + mask.trailing_zeros() as usize);
        }
    }
    let j = tail.iter().position(|b| set.contains(b))?;
    Some(chunks.len() * 16 + j)
}

/// [`find4`] with AVX2, 32 bytes a step, for a caller that wants the
/// stops after the first as well: the first 32 bytes of `hay` (from a
/// multiple of 32) that hold one of `set`'s four, as their offset and a
/// bit for each such byte among them (bit 0 for the byte at the offset);
/// in the last 31 bytes, the offset of the first such byte and bit 0
/// alone. In line where the caller is compiled for AVX2 too (the framer's
/// movetext loop).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn stops_avx2(hay: &[u8], set: [u8; 4]) -> Option<(usize, u32)> {
    let (chunks, tail) = hay.as_chunks::<32>();
    for (i, chunk) in chunks.iter().enumerate() {
        let mask = wide::any_of(chunk, set);
        if mask != 0 {
            return Some((i * 32, mask));
        }
    }
    find4(tail, set).map(|j| (chunks.len() * 32 + j, 1))
}

/// The quotes and the `]` of the common tag pair `[Name "value"]` at the
/// start of `bytes` (whose first byte is taken to be the `[`): the first
/// `"` after the `[`, with no `]` or line end before it; the next `"`, with
/// no `\` or line end before it; the first `]` after that, with no `"` or
/// line end before it. `None` when a byte other than the one wanted comes
/// first, or nothing does.
///
/// A tag line of up to 64 bytes is classified in one pass: four 16-byte
/// loads, one mask per byte class, and the three stops picked from the
/// masks. Longer lines, and the last 64 bytes of a buffer, are searched
/// stop by stop.
#[inline]
pub fn tag_stops(bytes: &[u8]) -> Option<[usize; 3]> {
    tag_stops_by(bytes, lanes::tag_bytes)
}

/// [`tag_stops`] with AVX2: two 32-byte loads instead of four 16-byte
/// ones. In line only where the caller is compiled for AVX2 too (the
/// framer's loop over a game's tag lines).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn tag_stops_avx2(bytes: &[u8]) -> Option<[usize; 3]> {
    tag_stops_by(bytes, |block| wide::tag_bytes(block))
}

/// [`tag_stops`] with the byte classes of a block found by `classes`.
#[inline(always)]
fn tag_stops_by(
    bytes: &[u8],
    classes: impl Fn(&[u8; 64]) -> (u64, u64, u64, u64),
) -> Option<[usize; 3]> {
    let Some(block) = bytes.first_chunk::<64>() else {
        return tag_stops_narrow(bytes);
    };
    let (quote, backslash, bracket, line_end) = classes(block);
    // Bits past `i`: the rest of the line after a stop.
    let after = |i: u32| u64::MAX.checked_shl(i + 1).unwrap_or(0);
    let outside = quote | bracket | line_end;
    let open = (outside & after(0)).trailing_zeros();
    let close = ((quote | backslash | line_end) & after(open)).trailing_zeros();
    let end = (outside & after(close)).trailing_zeros();
    if end >= 64 {
        // A stop is past the block (or missing).
        return tag_stops_narrow(bytes);
    }
    let is = |i: u32, mask: u64| mask & (1 << i) != 0;
    (is(open, quote) && is(close, quote) && is(end, bracket)).then_some([
        open as usize,
        close as usize,
        end as usize,
    ])
}

/// The first stop of a tag line at or after `from`: `"` or line end, and
/// `\\` inside a value or `]` outside it; `None` unless it is `want`.
#[inline]
fn tag_stop(bytes: &[u8], from: usize, in_value: bool, want: u8) -> Option<usize> {
    let set = if in_value {
        [b'\n', b'\r', b'"', b'\\']
    } else {
        [b'\n', b'\r', b'"', b']']
    };
    let at = from + find4(bytes.get(from..)?, set)?;
    (bytes[at] == want).then_some(at)
}

/// [`tag_stops`], one search per stop.
fn tag_stops_narrow(bytes: &[u8]) -> Option<[usize; 3]> {
    let open = tag_stop(bytes, 1, false, b'"')?;
    let close = tag_stop(bytes, open + 1, true, b'"')?;
    let end = tag_stop(bytes, close + 1, false, b']')?;
    Some([open, close, end])
}

/// The position of the first `}` in `buf[from..]`, and the line ends
/// before it (`\n`, `\r\n` or a lone `\r`): the end of a comment whose text
/// starts at `from`.
///
/// With AVX2 one call reads 64 bytes a step and returns at the first
/// block holding the `}` when no line end comes before it
/// ([`wide::find_close`]): on TCEC's engine comments (200 bytes on average)
/// that took the search from 153M to 75M instructions, and the whole
/// `validate` from 791M to 715M. An SSE2 first block in line and a call
/// for the rest measured worse there and no better on short
/// `{ [%clk 0:03:00] }` comments. The caller makes sure the CPU has AVX2
/// and is compiled for it too (the framer's movetext loop), so that the
/// search is in line there; without AVX2, [`find_close_narrow`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn find_close(buf: &[u8], from: usize) -> Option<(usize, u64)> {
    wide::find_close(buf, from)
}

/// The search of [`find_close`] with SSE2 (or plain loops) only.
#[inline]
pub(crate) fn find_close_narrow(buf: &[u8], from: usize) -> Option<(usize, u64)> {
    let rest = buf.get(from..)?;
    let (chunks, tail) = rest.as_chunks::<32>();
    let mut lines = 0u64;
    for (i, chunk) in chunks.iter().enumerate() {
        if i % 2 == 0 {
            prefetch(buf, from + i * 32 + STREAM_AHEAD);
        }
        if !lanes::any_comment_byte(chunk) {
            continue;
        }
        let next_lf = rest.get((i + 1) * 32) == Some(&b'\n');
        let (close, more) = close_in(chunk, next_lf);
        lines += more;
        if let Some(j) = close {
            return Some((from + i * 32 + j, lines));
        }
    }
    // The last bytes, padded with zeros (which match nothing).
    let mut last = [0; 32];
    last[..tail.len()].copy_from_slice(tail);
    let (close, more) = close_in(&last, false);
    let j = close?;
    Some((from + chunks.len() * 32 + j, lines + more))
}

/// Whether `text` is ASCII without a line feed: a comment the writer
/// copies as read. Sixteen bytes a step, the last sixteen read again
/// rather than byte by byte; a shorter text byte by byte. On TCEC, where
/// every move has a comment of 190 bytes on average, `convert --to uci`
/// with 2 threads took 124 → 109 ms against eight bytes a step in a word.
#[inline]
pub fn is_plain_line(text: &[u8]) -> bool {
    let Some(last) = text.last_chunk::<16>() else {
        return text.iter().all(|&b| b.is_ascii() && b != b'\n');
    };
    let (chunks, _) = text.as_chunks::<16>();
    chunks.iter().all(lanes::plain) && lanes::plain(last)
}

/// How far ahead of a long search (a comment) its text is asked for
/// ([`prefetch`]), in bytes: a page. The comments of an engine game are
/// most of its bytes, read once, from the page cache through the file's
/// mapping; the CPU's own prefetcher does not cross a page boundary, so
/// each page started with cache misses. On TCEC (131.6 MiB, 200-byte
/// comments) `validate --jobs 1` took 3 % less time; 512 bytes to 16 KiB
/// ahead measured 2 to 3 %, 4 KiB best.
const STREAM_AHEAD: usize = 4096;

/// Asks the CPU to bring the cache line holding `bytes[at]` into its
/// caches, without waiting for it; nothing when `at` is out of range.
#[inline(always)]
pub fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if at < bytes.len() {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86_64 baseline; a prefetch reads
        // nothing and cannot fault, and `at` is inside `bytes`.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().add(at).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

/// The first `}` in 32 bytes, and the line ends before it; `next_lf` says
/// whether a `\n` follows the last byte.
#[inline(always)]
fn close_in(chunk: &[u8; 32], next_lf: bool) -> (Option<usize>, u64) {
    let (close, lf, cr) = lanes::comment_bytes(chunk);
    close_of(close.into(), lf.into(), cr.into(), 32, next_lf)
}

/// [`close_in`] from the masks of `}`, `\n` and `\r` in `width` bytes
/// (32 or 64).
#[inline(always)]
fn close_of(close: u64, lf: u64, cr: u64, width: u32, next_lf: bool) -> (Option<usize>, u64) {
    let before = if close == 0 {
        u64::MAX
    } else {
        (1 << close.trailing_zeros()) - 1
    };
    let mut lines = 0;
    if (lf | cr) & before != 0 {
        // A `\r` counts unless a `\n` follows it.
        let crlf = (lf >> 1) | (u64::from(next_lf) << (width - 1));
        lines = u64::from((lf & before).count_ones() + (cr & !crlf & before).count_ones());
    }
    let close = (close != 0).then(|| close.trailing_zeros() as usize);
    (close, lines)
}

/// [`find_close`] with 256-bit vectors.
#[cfg(target_arch = "x86_64")]
mod wide {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };

    /// The 64 bytes of `block` as two vectors.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(block: &[u8; 64]) -> (__m256i, __m256i) {
        let p = block.as_ptr().cast::<__m256i>();
        // SAFETY: the two loads read the 64 bytes of `block`, unaligned.
        unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) }
    }

    /// The bytes equal to `byte`, one vector per half.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn eq((a, b): (__m256i, __m256i), byte: u8) -> (__m256i, __m256i) {
        let v = _mm256_set1_epi8(byte as i8);
        (_mm256_cmpeq_epi8(a, v), _mm256_cmpeq_epi8(b, v))
    }

    /// The two halves' bytes as one 64-bit mask.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn bits((a, b): (__m256i, __m256i)) -> u64 {
        u64::from(_mm256_movemask_epi8(a) as u32) | u64::from(_mm256_movemask_epi8(b) as u32) << 32
    }

    /// The bytes of `chunk` that are one of `set`'s four.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn any_of(chunk: &[u8; 32], set: [u8; 4]) -> u32 {
        // SAFETY: the load reads the 32 bytes of `chunk`, unaligned.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) };
        let eq = |byte: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(byte as i8));
        let any = _mm256_or_si256(
            _mm256_or_si256(eq(set[0]), eq(set[1])),
            _mm256_or_si256(eq(set[2]), eq(set[3])),
        );
        _mm256_movemask_epi8(any) as u32
    }

    /// `"`, `\\`, `]` and line ends (`\n` or `\r`) in 64 bytes, each on
    /// its own, as `lanes::tag_bytes` finds them.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn tag_bytes(block: &[u8; 64]) -> (u64, u64, u64, u64) {
        let v = load(block);
        let ((n_a, n_b), (r_a, r_b)) = (eq(v, b'\n'), eq(v, b'\r'));
        let line_end = (_mm256_or_si256(n_a, r_a), _mm256_or_si256(n_b, r_b));
        (
            bits(eq(v, b'"')),
            bits(eq(v, b'\\')),
            bits(eq(v, b']')),
            bits(line_end),
        )
    }

    /// [`super::find_close`]; the caller makes sure the CPU has AVX2.
    ///
    /// A 64-byte block of comment text costs two loads, six compares and
    /// one test. The first block with a `}` or a line end ends the search
    /// when the `}` comes first, as at the end of nearly every comment;
    /// otherwise the search goes on from that block in [`counting`], out of
    /// line, so that this way keeps a few registers and no stack frame.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn find_close(buf: &[u8], from: usize) -> Option<(usize, u64)> {
        let rest = buf.get(from..)?;
        let (blocks, _) = rest.as_chunks::<64>();
        for (i, block) in blocks.iter().enumerate() {
            super::prefetch(buf, from + i * 64 + super::STREAM_AHEAD);
            let v = load(block);
            let (close_a, close_b) = eq(v, b'}');
            let (lf, cr) = (eq(v, b'\n'), eq(v, b'\r'));
            let end_a = _mm256_or_si256(lf.0, cr.0);
            let end_b = _mm256_or_si256(lf.1, cr.1);
            let any = _mm256_or_si256(
                _mm256_or_si256(close_a, close_b),
                _mm256_or_si256(end_a, end_b),
            );
            if _mm256_movemask_epi8(any) == 0 {
                continue;
            }
            let close = bits((close_a, close_b));
            // The bytes before the first `}` (all of them without one).
            let before = close.wrapping_sub(1) & !close;
            if bits((end_a, end_b)) & before == 0 {
                return Some((from + i * 64 + close.trailing_zeros() as usize, 0));
            }
            return counting(buf, from + i * 64);
        }
        counting(buf, from + blocks.len() * 64)
    }

    /// [`find_close`] with line ends on the way, and the last bytes of the
    /// buffer.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    fn counting(buf: &[u8], from: usize) -> Option<(usize, u64)> {
        let rest = buf.get(from..)?;
        let (blocks, tail) = rest.as_chunks::<64>();
        let mut lines = 0u64;
        let mut block_lines = |block: &[u8; 64], next_lf: bool| {
            let v = load(block);
            let (close, lf, cr) = (bits(eq(v, b'}')), bits(eq(v, b'\n')), bits(eq(v, b'\r')));
            let (close, more) = super::close_of(close, lf, cr, 64, next_lf);
            lines += more;
            close
        };
        for (i, block) in blocks.iter().enumerate() {
            if let Some(j) = block_lines(block, rest.get((i + 1) * 64) == Some(&b'\n')) {
                return Some((from + i * 64 + j, lines));
            }
        }
        // The last bytes, padded with zeros (which match nothing).
        let mut last = [0; 64];
        last[..tail.len()].copy_from_slice(tail);
        let close = block_lines(&last, false)?;
        Some((from + blocks.len() * 64 + close, lines))
    }
}

/// Byte classes as bit masks (bit i for byte i).
#[cfg(target_arch = "x86_64")]
mod lanes {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    // SAFETY (every block below): SSE2 is part of the x86_64 baseline, so
    // its intrinsics are always available; each load reads 16 bytes of a
    // `&[u8; 16]` or `&[u8; 32]`, and the unaligned load needs no alignment.

    /// Bytes of `chunk` that are in `set`.
    #[inline(always)]
    pub fn any_of(chunk: &[u8; 16], set: [u8; 4]) -> u32 {
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let eq = |byte: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8));
            let any = _mm_or_si128(
                _mm_or_si128(eq(set[0]), eq(set[1])),
                _mm_or_si128(eq(set[2]), eq(set[3])),
            );
            _mm_movemask_epi8(any) as u32
        }
    }

    /// Whether the 16 bytes are ASCII without a line feed: no high bit
    /// set, in the bytes or in their comparison with `\n`.
    #[inline(always)]
    pub fn plain(chunk: &[u8; 16]) -> bool {
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8));
            _mm_movemask_epi8(_mm_or_si128(v, lf)) == 0
        }
    }

    /// `"`, `\`, `]` and line ends (`\n` or `\r`) in 64 bytes, each on
    /// its own.
    #[inline(always)]
    pub fn tag_bytes(block: &[u8; 64]) -> (u64, u64, u64, u64) {
        unsafe {
            let p = block.as_ptr().cast::<__m128i>();
            let eq = |v: __m128i, byte: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8));
            let bits = |v: __m128i| u64::from(_mm_movemask_epi8(v) as u16);
            let (mut quote, mut backslash, mut bracket, mut line_end) = (0, 0, 0, 0);
            for i in 0..4 {
                let v = _mm_loadu_si128(p.add(i));
                quote |= bits(eq(v, b'"')) << (16 * i);
                backslash |= bits(eq(v, b'\\')) << (16 * i);
                bracket |= bits(eq(v, b']')) << (16 * i);
                line_end |= bits(_mm_or_si128(eq(v, b'\n'), eq(v, b'\r'))) << (16 * i);
            }
            (quote, backslash, bracket, line_end)
        }
    }

    /// Whether any of the 32 bytes is `}`, `\n` or `\r`.
    #[inline(always)]
    pub fn any_comment_byte(chunk: &[u8; 32]) -> bool {
        unsafe {
            let p = chunk.as_ptr().cast::<__m128i>();
            let (a, b) = (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)));
            let any = |v: __m128i| {
                let eq = |byte: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8));
                _mm_or_si128(eq(b'}'), _mm_or_si128(eq(b'\n'), eq(b'\r')))
            };
            _mm_movemask_epi8(_mm_or_si128(any(a), any(b))) != 0
        }
    }

    /// `}`, `\n` and `\r` in 32 bytes, each on its own.
    #[inline(always)]
    pub fn comment_bytes(chunk: &[u8; 32]) -> (u32, u32, u32) {
        unsafe {
            let p = chunk.as_ptr().cast::<__m128i>();
            let (a, b) = (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)));
            let mask = |byte: u8| {
                let m = |v: __m128i| {
                    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8))) as u32
                };
                m(a) | (m(b) << 16)
            };
            (mask(b'}'), mask(b'\n'), mask(b'\r'))
        }
    }
}

/// Byte classes as bit masks (bit i for byte i).
#[cfg(not(target_arch = "x86_64"))]
mod lanes {
    #[inline(always)]
    fn mask(chunk: &[u8], hit: impl Fn(u8) -> bool) -> u32 {
        chunk
            .iter()
            .enumerate()
            .fold(0, |m, (i, &b)| m | (u32::from(hit(b)) << i))
    }

    /// Bytes of `chunk` that are in `set`.
    #[inline(always)]
    pub fn any_of(chunk: &[u8; 16], set: [u8; 4]) -> u32 {
        mask(chunk, |b| set.contains(&b))
    }

    /// Whether the 16 bytes are ASCII without a line feed.
    #[inline(always)]
    pub fn plain(chunk: &[u8; 16]) -> bool {
        chunk.iter().all(|&b| b.is_ascii() && b != b'\n')
    }

    /// `"`, `\`, `]` and line ends (`\n` or `\r`) in 64 bytes, each on
    /// its own.
    #[inline(always)]
    pub fn tag_bytes(block: &[u8; 64]) -> (u64, u64, u64, u64) {
        let mask = |hit: fn(u8) -> bool| {
            block
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &b)| m | (u64::from(hit(b)) << i))
        };
        (
            mask(|b| b == b'"'),
            mask(|b| b == b'\\'),
            mask(|b| b == b']'),
            mask(|b| matches!(b, b'\n' | b'\r')),
        )
    }

    /// Whether any of the 32 bytes is `}`, `\n` or `\r`.
    #[inline(always)]
    pub fn any_comment_byte(chunk: &[u8; 32]) -> bool {
        chunk.iter().any(|&b| matches!(b, b'}' | b'\n' | b'\r'))
    }

    /// `}`, `\n` and `\r` in 32 bytes, each on its own.
    #[inline(always)]
    pub fn comment_bytes(chunk: &[u8; 32]) -> (u32, u32, u32) {
        (
            mask(chunk, |b| b == b'}'),
            mask(chunk, |b| b == b'\n'),
            mask(chunk, |b| b == b'\r'),
        )
    }
}

/// `len` bytes drawn from `alphabet` by a xorshift generator started at
/// `seed`: inputs made of the bytes a search depends on, for the tests
/// that hold a fast reading against a plain one.
#[cfg(test)]
pub(crate) fn soup(seed: u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random bytes from the ones a tag line's reading depends on, after
    /// a `[`.
    fn tag_soup(seed: u64, len: usize) -> Vec<u8> {
        let mut bytes = soup(seed, len, b"\"\"\"]]\\\n\rab N\t[");
        if let Some(first) = bytes.first_mut() {
            *first = b'[';
        }
        bytes
    }

    /// The test sixteen bytes at a time agrees with a byte loop wherever
    /// the line feed or the non-ASCII byte stands, for every length up to
    /// 56: shorter than a step, whole steps, and a last step read again.
    #[test]
    fn plain_lines_found_as_byte_by_byte() {
        for len in 0..56 {
            let base = vec![b'a'; len];
            assert!(is_plain_line(&base), "{len}");
            for at in 0..len {
                for bad in [b'\n', 0x80, 0xC3, 0xFF, b'\n' + 0x80] {
                    let mut text = base.clone();
                    text[at] = bad;
                    let expected = text.iter().all(|&b| b.is_ascii() && b != b'\n');
                    assert_eq!(is_plain_line(&text), expected, "{len} {at} {bad}");
                }
                // Bytes next to a line feed's value: 0x09, 0x0B, 0x8A.
                let mut text = base.clone();
                text[at] = 0x0B;
                assert!(is_plain_line(&text));
                text[at] = 0x09;
                assert!(is_plain_line(&text));
            }
        }
    }

    #[test]
    fn tag_stops_in_one_pass_agree_with_a_search_per_stop() {
        let mut found = 0;
        for seed in 1..3000 {
            let line = tag_soup(seed, (seed as usize * 13) % 150);
            for cut in 0..=line.len() {
                let bytes = &line[..cut];
                let stops = tag_stops(bytes);
                let narrow = tag_stops_narrow(bytes);
                let text = bytes.escape_ascii().to_string();
                assert_eq!(stops, narrow, "{text:?}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2.
                    assert_eq!(unsafe { tag_stops_avx2(bytes) }, narrow, "{text:?}");
                }
                found += usize::from(stops.is_some());
            }
        }
        // The soup holds tag pairs too: both answers are tried.
        assert!(found > 1000, "{found}");
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn tag_bytes_with_avx2_are_those_with_sse2() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2 on this CPU: only SSE2 tested");
            return;
        }
        for seed in 1..2000 {
            let soup = tag_soup(seed, 64);
            let block = soup.first_chunk::<64>().expect("64 bytes");
            // SAFETY: the CPU has AVX2.
            let wide = unsafe { wide::tag_bytes(block) };
            assert_eq!(wide, lanes::tag_bytes(block), "{}", soup.escape_ascii());
        }
    }

    #[test]
    fn find4_and_the_wide_stops_find_like_a_plain_search() {
        let set = [b'"', b'\\', b'\n', b'\r'];
        // Long enough for two 32-byte steps and a tail.
        let text = b"abcdefghijklmnopqrstuvwxyz0123456789\"\\\n\rABCDEFGHIJKLMNOPQRSTUVWXYZ-. \"";
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::is_x86_feature_detected!("avx2");
        for end in 0..=text.len() {
            for start in 0..=end {
                let mut hay = text[start..end].to_vec();
                for reversed in [false, true] {
                    if reversed {
                        hay.reverse();
                    }
                    let plain = hay.iter().position(|b| set.contains(b));
                    assert_eq!(find4(&hay, set), plain, "{start}..{end} {reversed}");
                    #[cfg(target_arch = "x86_64")]
                    if avx2 {
                        // SAFETY: the CPU has AVX2.
                        let wide = unsafe { stops_avx2(&hay, set) };
                        let first = wide.map(|(at, mask)| at + mask.trailing_zeros() as usize);
                        assert_eq!(first, plain, "AVX2 {start}..{end} {reversed}");
                        if let Some((at, mask)) = wide {
                            // Every stop of the window, and nothing else.
                            let window = &hay[at..hay.len().min(at + 32)];
                            let all = window
                                .iter()
                                .enumerate()
                                .filter(|(_, b)| set.contains(b))
                                .fold(0u32, |m, (i, _)| m | 1 << i);
                            let whole = at % 32 == 0 && window.len() == 32;
                            let want = if whole { all } else { 1 };
                            assert_eq!(mask, want, "AVX2 {start}..{end} {reversed}");
                        }
                    }
                }
            }
        }
    }
}
