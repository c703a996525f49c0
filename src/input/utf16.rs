//! UTF-16 text read as UTF-8: detection by the first bytes and a streaming
//! transcoder.
//!
//! Windows tools (Notepad's "Unicode", PowerShell's `>` before version 7)
//! write UTF-16. Its ASCII characters are a byte and a NUL, so read as it
//! is every game would be binary data. [`detect`] recognises it by a byte
//! order mark, or without one by a NUL in every other byte of the first
//! [`SNIFF_LEN`] bytes; [`Utf16Reader`] then hands out the same text as
//! UTF-8, without the byte order mark.
//!
//! A lone surrogate or an odd number of bytes has no UTF-8 form: it is an
//! [`io::ErrorKind::InvalidData`] error with its byte offset, after the
//! text before it was handed out.

use std::fmt;
use std::io::{self, Read};

/// How many leading bytes [`detect`] looks at.
pub(super) const SNIFF_LEN: usize = 16;

/// Raw bytes read from the inner reader at a time.
const CHUNK: usize = 1 << 16;

/// The byte order of UTF-16 text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ByteOrder {
    Little,
    Big,
}

impl fmt::Display for ByteOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ByteOrder::Little => "UTF-16 little-endian",
            ByteOrder::Big => "UTF-16 big-endian",
        })
    }
}

impl ByteOrder {
    fn unit(self, pair: [u8; 2]) -> u16 {
        match self {
            ByteOrder::Little => u16::from_le_bytes(pair),
            ByteOrder::Big => u16::from_be_bytes(pair),
        }
    }
}

/// The byte order of a stream that starts with `prefix` if it is UTF-16,
/// and the length of its byte order mark (0 or 2).
///
/// With a mark (`FF FE` little-endian, `FE FF` big-endian) one pair of
/// bytes decides. Without one, `prefix` must hold [`SNIFF_LEN`] bytes,
/// every other one NUL and the rest not: the shape of ASCII and Latin-1
/// text, and of no plain text.
pub(super) fn detect(prefix: &[u8]) -> Option<(ByteOrder, usize)> {
    match prefix {
        [0xFF, 0xFE, ..] => return Some((ByteOrder::Little, 2)),
        [0xFE, 0xFF, ..] => return Some((ByteOrder::Big, 2)),
        _ => {}
    }
    let prefix = prefix.get(..SNIFF_LEN)?;
    let pairs = || prefix.chunks_exact(2);
    if pairs().all(|p| p[0] != 0 && p[1] == 0) {
        Some((ByteOrder::Little, 0))
    } else if pairs().all(|p| p[0] == 0 && p[1] != 0) {
        Some((ByteOrder::Big, 0))
    } else {
        None
    }
}

/// UTF-16 code units to UTF-8 bytes, fed in pieces that may split a unit
/// or a surrogate pair anywhere.
#[derive(Debug)]
struct Transcoder {
    order: ByteOrder,
    /// The first byte of a unit whose second byte has not come yet.
    odd: Option<u8>,
    /// A high surrogate waiting for its low half.
    high: Option<u16>,
    /// The stream offset of the next byte fed (the byte order mark
    /// included).
    offset: u64,
}

impl Transcoder {
    fn new(order: ByteOrder, offset: u64) -> Transcoder {
        Transcoder {
            order,
            odd: None,
            high: None,
            offset,
        }
    }

    fn error(&self, at: u64, what: fmt::Arguments<'_>) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} input: {what} at byte {at}", self.order),
        )
    }

    /// Appends the UTF-8 form of `bytes` to `out`.
    ///
    /// # Errors
    /// At a lone surrogate; `out` then holds the text before it.
    fn push(&mut self, mut bytes: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        out.reserve(bytes.len() / 2 * 3 + 4);
        if let Some(first) = self.odd
            && let [second, rest @ ..] = bytes
        {
            self.odd = None;
            self.unit(self.order.unit([first, *second]), out)?;
            bytes = rest;
        }
        let (pairs, rest) = bytes.as_chunks::<2>();
        for &pair in pairs {
            let unit = self.order.unit(pair);
            if unit < 0x80 && self.high.is_none() {
                out.push(unit as u8);
                self.offset += 2;
            } else {
                self.unit(unit, out)?;
            }
        }
        if let [last] = rest {
            self.odd = Some(*last);
        }
        Ok(())
    }

    /// One code unit, which starts at `self.offset`.
    fn unit(&mut self, unit: u16, out: &mut Vec<u8>) -> io::Result<()> {
        let at = self.offset;
        let code = match (self.high, unit) {
            (Some(high), 0xDC00..=0xDFFF) => {
                self.high = None;
                0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00)
            }
            (Some(high), _) => {
                return Err(self.error(at - 2, format_args!("unpaired surrogate {high:#06X}")));
            }
            (None, 0xD800..=0xDBFF) => {
                self.high = Some(unit);
                self.offset += 2;
                return Ok(());
            }
            (None, 0xDC00..=0xDFFF) => {
                return Err(self.error(at, format_args!("unpaired surrogate {unit:#06X}")));
            }
            (None, _) => u32::from(unit),
        };
        let Some(c) = char::from_u32(code) else {
            return Err(self.error(at, format_args!("no character {code:#X}")));
        };
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        self.offset += 2;
        Ok(())
    }

    /// Checks that the stream did not end inside a unit or a pair.
    ///
    /// # Errors
    /// When it did.
    fn finish(&self) -> io::Result<()> {
        if let Some(high) = self.high {
            return Err(self.error(
                self.offset - 2,
                format_args!("unpaired surrogate {high:#06X}"),
            ));
        }
        if self.odd.is_some() {
            return Err(self.error(
                self.offset,
                format_args!("odd number of bytes, a lone last byte"),
            ));
        }
        Ok(())
    }
}

/// A UTF-16 stream read as UTF-8: the reading state of [`super::Input`]
/// once its first bytes showed UTF-16.
#[derive(Debug)]
pub(super) struct Utf16Reader {
    transcoder: Transcoder,
    raw: Box<[u8]>,
    out: Vec<u8>,
    /// How much of `out` was handed out.
    pos: usize,
    /// An error met after the text in `out`, reported once it is read.
    error: Option<io::Error>,
    ended: bool,
}

impl Utf16Reader {
    /// A reader for a stream whose first bytes, `prefix`, were already
    /// read; the byte order mark, if any, is its first `bom` bytes.
    pub(super) fn new(order: ByteOrder, bom: usize, prefix: &[u8]) -> Utf16Reader {
        let mut reader = Utf16Reader {
            transcoder: Transcoder::new(order, bom as u64),
            raw: vec![0; CHUNK].into_boxed_slice(),
            out: Vec::new(),
            pos: 0,
            error: None,
            ended: false,
        };
        reader.feed(prefix.get(bom..).unwrap_or_default());
        reader
    }

    fn feed(&mut self, bytes: &[u8]) {
        if let Err(e) = self.transcoder.push(bytes, &mut self.out) {
            self.error = Some(e);
        }
    }

    /// Reads UTF-8 text into `buf`, reading UTF-16 from `inner` as needed.
    ///
    /// # Errors
    /// `inner`'s errors, and text that has no UTF-8 form.
    pub(super) fn read(&mut self, inner: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.out.len() {
            if let Some(e) = self.error.take() {
                // Later reads end the stream: what follows a lone
                // surrogate is not read as if nothing happened.
                self.ended = true;
                return Err(e);
            }
            if self.ended || buf.is_empty() {
                return Ok(0);
            }
            self.out.clear();
            self.pos = 0;
            let n = inner.read(&mut self.raw)?;
            if n == 0 {
                self.ended = true;
                self.transcoder.finish()?;
                return Ok(0);
            }
            let raw = std::mem::take(&mut self.raw);
            self.feed(&raw[..n]);
            self.raw = raw;
        }
        let rest = &self.out[self.pos..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(text: &str, order: ByteOrder) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| match order {
                ByteOrder::Little => u.to_le_bytes(),
                ByteOrder::Big => u.to_be_bytes(),
            })
            .collect()
    }

    /// A reader that hands out `step` bytes per call.
    struct Steps<'a>(&'a [u8], usize);

    impl Read for Steps<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Reads the whole of `bytes` (BOM included) in steps of `step`, into
    /// a buffer of `out_len` bytes at a time.
    fn transcode(bytes: &[u8], step: usize, out_len: usize) -> (Vec<u8>, Option<io::Error>) {
        let (order, bom) = detect(bytes).expect("UTF-16");
        let prefix = &bytes[..bytes.len().min(SNIFF_LEN)];
        let mut reader = Utf16Reader::new(order, bom, prefix);
        let mut inner = Steps(&bytes[prefix.len()..], step);
        let mut text = Vec::new();
        let mut buf = vec![0; out_len];
        loop {
            match reader.read(&mut inner, &mut buf) {
                Ok(0) => return (text, None),
                Ok(n) => text.extend_from_slice(&buf[..n]),
                Err(e) => return (text, Some(e)),
            }
        }
    }

    const TEXTS: [&str; 4] = [
        "[Event \"Test\"]\n\n1. e4 e5 *\n",
        "[White \"Nüss, Jörg\"]\n\n{Ströme: Œ€} 1. Sf3 *\n",
        "[Black \"Карпов\"]\n\n{♔ ♚ 😀 𝄞} 1. d4 *\n",
        "😀😀😀😀😀😀😀😀😀😀",
    ];

    #[test]
    fn transcodes_in_any_pieces() {
        for text in TEXTS {
            for order in [ByteOrder::Little, ByteOrder::Big] {
                let mut bytes = encode("\u{FEFF}", order);
                bytes.extend(encode(text, order));
                for step in [1, 2, 3, 5, 64] {
                    for out_len in [1, 3, 4096] {
                        let (out, err) = transcode(&bytes, step, out_len);
                        assert!(err.is_none(), "{text:?} {order}: {err:?}");
                        assert_eq!(out, text.as_bytes(), "{order} {step} {out_len}");
                    }
                }
            }
        }
    }

    #[test]
    fn detects_by_mark_or_by_nuls() {
        let le = encode("[Event \"Test\"]\n", ByteOrder::Little);
        let be = encode("[Event \"Test\"]\n", ByteOrder::Big);
        type Case<'a> = (&'a [u8], Option<(ByteOrder, usize)>);
        let cases: &[Case<'_>] = &[
            (b"\xFF\xFE", Some((ByteOrder::Little, 2))),
            (b"\xFE\xFF[", Some((ByteOrder::Big, 2))),
            (&le, Some((ByteOrder::Little, 0))),
            (&be, Some((ByteOrder::Big, 0))),
            // Too short to tell without a mark.
            (&le[..SNIFF_LEN - 2], None),
            (b"[Event \"Test\"]\n\n1. e4", None),
            (b"\xEF\xBB\xBF[Event \"Test\"]\n", None),
            (&[0; SNIFF_LEN], None),
            (b"[\0E\0v\0e\0n\0t\0 \0\"\0", Some((ByteOrder::Little, 0))),
            (b"[\0E\0v\0e\0n\0t\0 \0\0\0", None),
        ];
        for &(prefix, expected) in cases {
            assert_eq!(detect(prefix), expected, "{prefix:?}");
        }
    }

    #[test]
    fn lone_surrogates_and_odd_lengths_are_errors() {
        let le =
            |units: &[u16]| -> Vec<u8> { units.iter().flat_map(|u| u.to_le_bytes()).collect() };
        // (bytes after the mark, text before the error, message)
        let cases: Vec<(Vec<u8>, &str, &str)> = vec![
            (
                le(&[0x61, 0xD800, 0x62]),
                "a",
                "UTF-16 little-endian input: unpaired surrogate 0xD800 at byte 4",
            ),
            (
                le(&[0x61, 0xDC00]),
                "a",
                "UTF-16 little-endian input: unpaired surrogate 0xDC00 at byte 4",
            ),
            (
                le(&[0x61, 0x62, 0xD83D]),
                "ab",
                "UTF-16 little-endian input: unpaired surrogate 0xD83D at byte 6",
            ),
            (
                [le(&[0x61, 0x62]), vec![0x63]].concat(),
                "ab",
                "UTF-16 little-endian input: odd number of bytes, a lone last byte at byte 6",
            ),
        ];
        for (units, before, message) in cases {
            let bytes = [&b"\xFF\xFE"[..], &units].concat();
            for step in [1, 3, 64] {
                let (out, err) = transcode(&bytes, step, 4096);
                assert_eq!(out, before.as_bytes());
                let err = err.expect("an error");
                assert_eq!(err.kind(), io::ErrorKind::InvalidData);
                assert_eq!(err.to_string(), message);
            }
        }
    }
}
