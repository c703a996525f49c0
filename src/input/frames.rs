//! The independent frames of a zstd file, found without decompressing it:
//! where each frame starts in the file and, when asked, where its text
//! starts in the decompressed text.
//!
//! A zstd file is a sequence of frames (RFC 8878): data frames, each
//! decompressible on its own, and skippable frames (magic `0x184D2A5?`)
//! that hold no text. `pzstd` writes a skippable frame before each data
//! frame; the seekable format ends with a skippable frame holding a seek
//! table (each frame's compressed and decompressed sizes). The frames are
//! taken from the seek table when the file ends with one that matches
//! the file, else by walking the frame and block headers.
//!
//! A data frame's text length is in its header only if the compressor
//! wrote it (`zstd` does, `pzstd` does not); a frame without it is
//! decompressed, into nothing, to measure it.

use std::io;
use std::ops::Range;

use super::ZSTD_WINDOW_LOG_MAX;

/// The most data frames of a file that is split by frames: their table
/// takes 32 MiB. A file of more (frames can be a few bytes each) is one
/// unit, so that no file makes the table grow with its size.
pub const MAX_FRAMES: usize = 1 << 20;

/// The magic number of a seek table's footer.
const SEEKABLE_MAGIC: u32 = 0x8F92_EAB1;

/// The magic number of the skippable frame that holds a seek table.
const SEEK_TABLE_FRAME: u32 = 0x184D_2A5E;

/// The frames of a zstd file of at least two data frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZstdFrames {
    frames: Vec<Frame>,
}

/// One data frame of a zstd file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Frame {
    /// The frame's bytes in the file, from its magic number.
    bytes: Range<usize>,
    /// The length of its text, when known.
    text_len: Option<u64>,
}

impl ZstdFrames {
    /// The frames of `bytes`, a whole zstd file; `None` unless it is a
    /// sequence of whole frames with at least two data frames and at most
    /// [`MAX_FRAMES`] (a file of one frame is read as one unit, and a
    /// damaged file's error is found when it is read).
    pub fn walk(bytes: &[u8]) -> Option<ZstdFrames> {
        let frames = seek_table(bytes).or_else(|| walk_headers(bytes))?;
        (frames.len() >= 2).then_some(ZstdFrames { frames })
    }

    /// The number of data frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether there are no data frames (never, for a walked file).
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Where data frame `index` starts in the file, as a shard counts:
    /// the first byte after the data frame before it, so that the
    /// skippable frames before a data frame belong to it, and the first
    /// data frame starts the file; `u64::MAX` past the last frame.
    pub fn start(&self, index: usize) -> u64 {
        if index >= self.len() {
            return u64::MAX;
        }
        match index.checked_sub(1).and_then(|i| self.frames.get(i)) {
            Some(before) => before.bytes.end as u64,
            None => 0,
        }
    }

    /// The data frames that start (see [`start`](Self::start)) within
    /// `range` of the file's bytes.
    pub fn within(&self, range: Range<u64>) -> Range<usize> {
        let first = |at: u64| (0..self.len()).find(|&i| self.start(i) >= at);
        let from = first(range.start).unwrap_or(self.len());
        let to = first(range.end).unwrap_or(self.len());
        from..to.max(from)
    }

    /// Where the text of data frame `index` starts in the file's text
    /// (its length when `index` is past the last frame), given the file's
    /// `bytes`: the lengths of the frames before it, measured by
    /// decompressing those whose header does not give it.
    ///
    /// # Errors
    /// A frame before it cannot be decompressed.
    pub fn text_at(&mut self, bytes: &[u8], index: usize) -> io::Result<u64> {
        let mut at = 0u64;
        for frame in self.frames.iter_mut().take(index) {
            let len = match frame.text_len {
                Some(len) => len,
                None => {
                    let len = measure(bytes.get(frame.bytes.clone()).unwrap_or_default())?;
                    frame.text_len = Some(len);
                    len
                }
            };
            at = at.saturating_add(len);
        }
        Ok(at)
    }
}

/// The length of the text of one zstd frame, decompressed into nothing.
fn measure(frame: &[u8]) -> io::Result<u64> {
    let mut decoder = zstd::stream::read::Decoder::with_buffer(frame)?.single_frame();
    decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
    io::copy(&mut decoder, &mut io::sink())
}

/// The little-endian `u32` at `at`.
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let word = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

/// Whether `magic` is a skippable frame's.
fn skippable(magic: u32) -> bool {
    magic & 0xFFFF_FFF0 == 0x184D_2A50
}

/// The data frames of `bytes` from the seek table that ends it, if it
/// ends with one whose frames add up to the file.
fn seek_table(bytes: &[u8]) -> Option<Vec<Frame>> {
    let footer = bytes.len().checked_sub(9)?;
    if u32_at(bytes, footer + 5)? != SEEKABLE_MAGIC {
        return None;
    }
    let count = usize::try_from(u32_at(bytes, footer)?).ok()?;
    if count > MAX_FRAMES {
        return None;
    }
    let descriptor = bytes[footer + 4];
    let entry = if descriptor & 0x80 != 0 { 12 } else { 8 };
    // The skippable frame's header, the entries, the footer.
    let table = count.checked_mul(entry)?.checked_add(8 + 9)?;
    let table_at = bytes.len().checked_sub(table)?;
    if u32_at(bytes, table_at)? != SEEK_TABLE_FRAME
        || usize::try_from(u32_at(bytes, table_at + 4)?).ok()? != table - 8
    {
        return None;
    }
    let mut frames = Vec::with_capacity(count);
    let mut at = 0usize;
    for i in 0..count {
        let e = table_at + 8 + i * entry;
        let size = usize::try_from(u32_at(bytes, e)?).ok()?;
        let end = at.checked_add(size)?;
        frames.push(Frame {
            bytes: at..end,
            text_len: Some(u64::from(u32_at(bytes, e + 4)?)),
        });
        at = end;
    }
    // The table must describe the file, and its frames be data frames.
    let data = |f: &Frame| u32_at(bytes, f.bytes.start).is_some_and(|m| !skippable(m));
    (at == table_at && frames.iter().all(data)).then_some(frames)
}

/// The data frames of `bytes` by their frame and block headers.
fn walk_headers(bytes: &[u8]) -> Option<Vec<Frame>> {
    let mut frames = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let len = zstd::zstd_safe::find_frame_compressed_size(rest).ok()?;
        if len == 0 || len > rest.len() {
            return None;
        }
        if !skippable(u32_at(rest, 0)?) {
            if frames.len() == MAX_FRAMES {
                return None;
            }
            let text_len = zstd::zstd_safe::get_frame_content_size(rest).ok()?;
            frames.push(Frame {
                bytes: at..at + len,
                text_len,
            });
        }
        at += len;
    }
    Some(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &[u8] = b"[Event \"Test\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";

    /// A frame without its text length in the header, as `pzstd` writes.
    fn unsized_frame(text: &[u8]) -> Vec<u8> {
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("encoder");
        io::Write::write_all(&mut encoder, text).expect("write");
        encoder.finish().expect("finish")
    }

    fn skippable_frame(nibble: u8, payload: &[u8]) -> Vec<u8> {
        let mut frame = (0x184D_2A50 + u32::from(nibble)).to_le_bytes().to_vec();
        frame.extend((payload.len() as u32).to_le_bytes());
        frame.extend(payload);
        frame
    }

    /// The frames' starts in the file and their texts' starts.
    fn starts(bytes: &[u8]) -> Option<Vec<(u64, u64)>> {
        let mut frames = ZstdFrames::walk(bytes)?;
        (0..=frames.len())
            .map(|i| Some((frames.start(i), frames.text_at(bytes, i).ok()?)))
            .collect()
    }

    #[test]
    fn walks_pzstd_and_plain_frames() {
        let texts = [TEXT.repeat(3), TEXT.repeat(50), TEXT.to_vec()];
        let sized: Vec<Vec<u8>> = texts
            .iter()
            .map(|t| zstd::encode_all(&t[..], 3).expect("zstd"))
            .collect();
        let pzstd: Vec<Vec<u8>> = texts
            .iter()
            .map(|t| {
                let frame = unsized_frame(t);
                [
                    skippable_frame(0, &(frame.len() as u32).to_le_bytes()),
                    frame,
                ]
                .concat()
            })
            .collect();
        let lens = texts.iter().map(|t| t.len() as u64);
        let text_starts: Vec<u64> = std::iter::once(0)
            .chain(lens.scan(0, |sum, n| {
                *sum += n;
                Some(*sum)
            }))
            .collect();
        for frames in [sized, pzstd] {
            let bytes = frames.concat();
            let ends = frames.iter().scan(0, |sum, f| {
                *sum += f.len() as u64;
                Some(*sum)
            });
            let file_starts: Vec<u64> = std::iter::once(0)
                .chain(ends.take(2))
                .chain([u64::MAX])
                .collect();
            let expected: Vec<(u64, u64)> = file_starts
                .into_iter()
                .zip(text_starts.iter().copied())
                .collect();
            assert_eq!(starts(&bytes), Some(expected));
        }
    }

    #[test]
    fn reads_a_seek_table() {
        let frames: Vec<Vec<u8>> = [TEXT, &TEXT.repeat(9)]
            .iter()
            .map(|t| unsized_frame(t))
            .collect();
        let mut table = Vec::new();
        for (frame, text) in frames.iter().zip([TEXT.len(), TEXT.len() * 9]) {
            table.extend((frame.len() as u32).to_le_bytes());
            table.extend((text as u32).to_le_bytes());
        }
        table.extend([2, 0, 0, 0, 0]);
        table.extend(SEEKABLE_MAGIC.to_le_bytes());
        let bytes = [frames.concat(), skippable_frame(0xE, &table)].concat();
        let walked = ZstdFrames::walk(&bytes).expect("frames");
        assert!(walked.frames.iter().all(|f| f.text_len.is_some()));
        let first = frames[0].len() as u64;
        let len = (TEXT.len() * 10) as u64;
        assert_eq!(
            starts(&bytes),
            Some(vec![(0, 0), (first, TEXT.len() as u64), (u64::MAX, len)])
        );
        // A table that does not match the file is not used: the headers
        // are walked instead.
        let mut wrong = bytes.clone();
        let at = frames.concat().len() + 8;
        wrong[at] ^= 1;
        let walked = ZstdFrames::walk(&wrong).expect("frames");
        assert!(walked.frames.iter().all(|f| f.text_len.is_none()));
        assert_eq!(starts(&wrong), starts(&bytes));
    }

    #[test]
    fn other_files_have_no_frames() {
        let one = zstd::encode_all(TEXT, 3).expect("zstd");
        let two = [one.clone(), one.clone()].concat();
        for (bytes, frames) in [
            (&one[..], None),
            (&two[..], Some(2)),
            (&two[..two.len() - 1], None),
            (&[two.clone(), b"junk".to_vec()].concat()[..], None),
            (b"", None),
            (TEXT, None),
            (&skippable_frame(0, b"only")[..], None),
        ] {
            assert_eq!(ZstdFrames::walk(bytes).map(|f| f.len()), frames);
        }
    }

    /// A file of more frames than [`MAX_FRAMES`] is one unit.
    #[test]
    fn frames_are_bounded() {
        // An empty frame: single segment, a one-byte content size of 0,
        // one last raw block of 0 bytes.
        let empty = [0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00];
        let walk = |n: usize| ZstdFrames::walk(&empty.repeat(n)).map(|f| f.len());
        assert_eq!(walk(2), Some(2));
        assert_eq!(walk(MAX_FRAMES), Some(MAX_FRAMES));
        assert_eq!(walk(MAX_FRAMES + 1), None);
    }

    #[test]
    fn within_takes_the_frames_starting_in_a_range() {
        let one = zstd::encode_all(TEXT, 3).expect("zstd");
        let n = one.len() as u64;
        let frames = ZstdFrames::walk(&one.repeat(3)).expect("frames");
        assert_eq!(frames.within(0..1), 0..1);
        assert_eq!(frames.within(1..n), 1..1);
        assert_eq!(frames.within(1..n + 1), 1..2);
        assert_eq!(frames.within(n + 1..u64::MAX), 2..3);
        assert_eq!(frames.within(3 * n..u64::MAX), 3..3);
    }
}
