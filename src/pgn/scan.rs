//! Byte searches sixteen bytes at a time for the reader's short scans (tag
//! values, tag lines): SSE2 on x86_64, a plain loop elsewhere. For the
//! stretches of 10 to 60 bytes that tags have, one call of these costs
//! less than a byte loop with a table and less than `memchr`'s set-up.

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

#[cfg(target_arch = "x86_64")]
mod lanes {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// Bit i set when byte i of `chunk` is in `set`.
    #[inline(always)]
    pub fn any_of(chunk: &[u8; 16], set: [u8; 4]) -> u32 {
        // SAFETY: SSE2 is part of the x86_64 baseline; `chunk` is valid
        // for reading 16 bytes, and the unaligned load needs no alignment.
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
}

#[cfg(not(target_arch = "x86_64"))]
mod lanes {
    /// Bit i set when byte i of `chunk` is in `set`.
    #[inline(always)]
    pub fn any_of(chunk: &[u8; 16], set: [u8; 4]) -> u32 {
        chunk
            .iter()
            .enumerate()
            .fold(0, |m, (i, b)| m | (u32::from(set.contains(b)) << i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_like_a_plain_search() {
        let set = [b'"', b'\\', b'\n', b'\r'];
        let text = b"abcdefghijklmnopqrstuvwxyz0123456789\"\\\n\r";
        for end in 0..=text.len() {
            for start in 0..=end {
                let hay = &text[start..end];
                let plain = hay.iter().position(|b| set.contains(b));
                assert_eq!(find4(hay, set), plain, "{start}..{end}");
                let mut rev = hay.to_vec();
                rev.reverse();
                let plain = rev.iter().position(|b| set.contains(b));
                assert_eq!(find4(&rev, set), plain, "reversed {start}..{end}");
            }
        }
    }
}
