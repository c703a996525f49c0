//! Whether an input is PGN at all: its first bytes show a tag or a
//! numbered move, or the run reports it as no PGN instead of reading on.

use std::io::{self, Read};

use super::{NOT_PGN_BYTES, NotPgn};

/// Whether `prefix`, the first bytes of an input of `len` bytes, shows a
/// tag (`[`, a name, spaces and a quoted value on one line) or a move
/// number and a move (`1. e4`, `12...Nf6`, `3.O-O`) at the start of a
/// line or after a space; an input shorter than [`NOT_PGN_BYTES`] passes
/// whatever it holds. Random bytes show neither in 64 MiB but by a rare
/// chance (about one in fifty).
pub(super) fn looks_like_pgn(prefix: &[u8], len: usize) -> bool {
    (len as u64) < NOT_PGN_BYTES || shows_pgn(prefix, true)
}

/// Whether `bytes` holds a tag or a numbered move (see [`looks_like_pgn`]).
/// `at_start`: whether `bytes` begins the input (else a move number at
/// its start may be the end of a longer word).
fn shows_pgn(bytes: &[u8], at_start: bool) -> bool {
    let name = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    memchr::memchr2_iter(b'[', b'.', bytes).any(|i| {
        let rest = &bytes[i + 1..];
        if bytes[i] == b'[' {
            let n = rest.iter().take_while(|b| name(b)).count();
            let spaces = rest[n..].iter().take_while(|b| **b == b' ').count();
            let Some(value) = rest[n + spaces..].strip_prefix(b"\"") else {
                return false;
            };
            let value = &value[..value.len().min(256)];
            let line = value.iter().position(|b| matches!(b, b'\n' | b'\r'));
            let closed = memchr::memmem::find(value, b"\"]");
            return n >= 2
                && rest[0].is_ascii_alphabetic()
                && spaces > 0
                && closed.is_some_and(|at| line.is_none_or(|end| at < end));
        }
        let digits = bytes[..i]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let before = i.checked_sub(digits + 1).map(|j| bytes[j]);
        let spaced = match before {
            None => at_start,
            Some(b) => matches!(b, b' ' | b'\n' | b'\r' | b'\t'),
        };
        if digits == 0 || !spaced {
            return false;
        }
        let dots = rest.iter().take_while(|b| **b == b'.').count();
        let rest = &rest[dots..];
        let rest = rest.strip_prefix(b" ").unwrap_or(rest);
        matches!(
            rest,
            [b'a'..=b'h', b'1'..=b'8' | b'x', ..]
                | [
                    b'N' | b'B' | b'R' | b'Q' | b'K',
                    b'a'..=b'h' | b'1'..=b'8' | b'x',
                    ..,
                ]
                | [b'O' | b'0', b'-', b'O' | b'0', ..]
        )
    })
}

/// A reader that fails with [`NotPgn`] when its first [`NOT_PGN_BYTES`]
/// show neither a tag nor a move ([`shows_pgn`]).
pub(super) struct Sniffed<R> {
    pub(super) inner: R,
    /// Bytes read so far, until PGN shows.
    pub(super) read: u64,
    pub(super) shown: bool,
    /// The end of what was read, for a tag or a move cut by a read.
    pub(super) tail: Vec<u8>,
}

impl<R> Sniffed<R> {
    pub(super) fn new(inner: R) -> Sniffed<R> {
        Sniffed {
            inner,
            read: 0,
            shown: false,
            tail: Vec::new(),
        }
    }
}

impl<R: Read> Read for Sniffed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.shown {
            return self.inner.read(buf);
        }
        if self.read >= NOT_PGN_BYTES {
            return Err(io::Error::new(io::ErrorKind::InvalidData, NotPgn));
        }
        // Up to the limit exactly, so that the error comes after the same
        // text however the input is read.
        let room = usize::try_from(NOT_PGN_BYTES - self.read).unwrap_or(usize::MAX);
        let len = buf.len().min(room);
        let n = self.inner.read(&mut buf[..len])?;
        let chunk = &buf[..n];
        // The chunk itself, then across the cut: the end of the chunk
        // before and the start of this one (the chunk is not copied whole).
        let first = self.read == 0;
        self.shown = n == 0 || shows_pgn(chunk, first) || {
            self.tail.extend_from_slice(&chunk[..n.min(320)]);
            !first && shows_pgn(&self.tail, false)
        };
        self.tail.clear();
        self.tail.extend_from_slice(&chunk[n.saturating_sub(32)..]);
        self.read += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_shows_by_a_tag_or_a_numbered_move() {
        let cases: &[(&[u8], bool)] = &[
            (b"[Event \"x\"]", true),
            (b"\n\n[Site  \"a b\"]\n", true),
            (b"1. e4 e5", true),
            (b"1.e4", true),
            (b"xx 12... Nf6", true),
            (b"\n3. O-O", true),
            (b"1.Bxc4", true),
            (b"[E \"x\"]", false),
            (b"[Event\"x\"]", false),
            (b"[Event \"x\n\"]", false),
            (b"[Event \"unclosed", false),
            (b"a1. e4", false),
            (b"1. z4", false),
            (b"1.", false),
            (b"[", false),
            (&[0; 64], false),
        ];
        for &(bytes, shown) in cases {
            assert_eq!(
                shows_pgn(bytes, true),
                shown,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        assert!(!shows_pgn(b"1. e4", false));
        assert!(looks_like_pgn(&[0; 100], 100));
    }

    /// A reader handing out its bytes a few at a time.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn pgn_shows_across_the_cuts_of_reads() {
        let text = b"junk junk junk\n[Event \"cut by reads\"]\n";
        for chunk in [1, 3, 7, 16, 64] {
            let mut sniffed = Sniffed::new(Trickle(text, chunk));
            let mut buf = [0; 64];
            while sniffed.read(&mut buf).unwrap_or(0) > 0 {}
            assert!(sniffed.shown, "reads of {chunk}");
        }
        // Neither a tag nor a move in all 17 bytes (the end of the input
        // only ends the sniffing).
        let mut sniffed = Sniffed::new(Trickle(b"junk [Event x] 1.", 4));
        let mut buf = [0; 64];
        let read: usize = (0..5).map(|_| sniffed.read(&mut buf).unwrap_or(0)).sum();
        assert_eq!((read, sniffed.shown), (17, false));
    }
}
