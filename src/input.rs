//! Streaming input: a file or stdin, plain or compressed, read with bounded
//! memory whatever its size.
//!
//! [`open`] detects compression by the first bytes of the stream, never by
//! the file name: zstd (`28 B5 2F FD`, or a skippable frame `5? 2A 4D 18`
//! first, as `pzstd` and the seekable format write), gzip (`1F 8B`) and
//! bzip2 (`BZh`); anything else is read as it is. Concatenated streams
//! (several zstd frames, skippable ones included, gzip members or bzip2
//! streams in one file) are read to the end.
//!
//! The decompressed text is UTF-8 or a one-byte encoding, as PGN expects,
//! unless its first bytes show UTF-16: a byte order mark (`FF FE`, `FE FF`)
//! or, without one, a NUL in every other byte of the first 16. UTF-16 is
//! read as UTF-8, without the byte order mark; a lone surrogate or an odd
//! number of bytes is an [`io::ErrorKind::InvalidData`] error.
//!
//! Decompression streams through fixed buffers, so memory stays flat even
//! for an archive that expands a thousandfold. The one allocation that a
//! file controls is zstd's window: a frame may ask for up to 2 GiB
//! (`window_log` 31). [`ZSTD_WINDOW_LOG_MAX`] caps it at 128 MiB, what
//! `zstd --long` writes; a frame that needs more is an error, not an
//! allocation.
//!
//! A compressed stream that ends early is an error
//! ([`io::ErrorKind::UnexpectedEof`]), never a silently short read. Every
//! error from an [`Input`] names its path: it is an [`io::Error`] whose inner
//! error is an [`InputError`].
//!
//! [`Input`] is `Read + Send`, so a reader thread can own it while another
//! thread shows progress through [`Input::bytes_read`] and
//! [`Input::total_len`].
//!
//! A plain regular file of at least [`MAP_MIN_BYTES`] is mapped into memory
//! (see [`Mapped`]): the game framer then reads it in place, where a `read`
//! would first copy every byte from the kernel's page cache.
//! [`OpenOptions::map`] turned off reads such files instead.
//!
//! # Examples
//! ```
//! use std::io::Read;
//! use pgnkit::input::{self, Compression};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/myschach.pgn");
//! let mut input = input::open(path.as_ref())?;
//! assert_eq!(input.compression(), Compression::None);
//! let mut text = String::new();
//! input.read_to_string(&mut text)?;
//! assert!(text.starts_with("[Event "));
//! assert_eq!(input.bytes_read().get(), text.len() as u64);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use bzip2::read::MultiBzDecoder;

use self::utf16::Utf16Reader;

pub use self::frames::{MAX_FRAMES, ZstdFrames};

mod frames;
mod utf16;

/// The smallest file that [`open`] maps into memory: below it, the mapping
/// costs more than the copy it saves.
pub const MAP_MIN_BYTES: u64 = 1 << 20;

/// Pages given back at a time while a mapped file is read.
const RELEASE_STEP: usize = 8 << 20;

/// The largest zstd window accepted, as a power of two: 2^27 bytes =
/// 128 MiB, the window `zstd --long` uses. zstd itself allows up to 31
/// (2 GiB), which would let one file make a reader allocate that much.
pub const ZSTD_WINDOW_LOG_MAX: u32 = 27;

/// How an input is compressed, as told by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// Not compressed (or in a format pgnkit does not know).
    None,
    /// Zstandard (`28 B5 2F FD`, or a skippable frame first:
    /// `50 2A 4D 18` to `5F 2A 4D 18`).
    Zstd,
    /// gzip (`1F 8B`).
    Gzip,
    /// bzip2 (`BZh`).
    Bzip2,
}

impl Compression {
    /// The compression whose magic number `prefix` starts with. Up to four
    /// bytes are looked at; a shorter prefix can only be [`None`].
    ///
    /// [`None`]: Compression::None
    ///
    /// # Examples
    /// ```
    /// use pgnkit::input::Compression;
    ///
    /// assert_eq!(Compression::detect(b"\x28\xB5\x2F\xFD\x04"), Compression::Zstd);
    /// assert_eq!(Compression::detect(b"\x50\x2A\x4D\x18"), Compression::Zstd);
    /// assert_eq!(Compression::detect(b"BZh9"), Compression::Bzip2);
    /// assert_eq!(Compression::detect(b"[Event"), Compression::None);
    /// ```
    pub fn detect(prefix: &[u8]) -> Compression {
        match prefix {
            [0x28, 0xB5, 0x2F, 0xFD, ..] | [0x50..=0x5F, 0x2A, 0x4D, 0x18, ..] => Compression::Zstd,
            [0x1F, 0x8B, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::None => "plain",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        })
    }
}

/// An I/O or decompression error of one input, with its path; the inner
/// error of every [`io::Error`] that [`open`] and [`Input`] return.
///
/// Its message is `path: reason` (`path (zstd): reason` for a compressed
/// input), complete on its own, so the inner error is not repeated as a
/// [`source`](std::error::Error::source); [`InputError::io_error`] gives it.
///
/// # Examples
/// ```
/// use std::path::Path;
/// use pgnkit::input::{self, InputError};
///
/// let Err(err) = input::open(Path::new("no/such/file.pgn")) else { panic!() };
/// assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
/// let inner = err.get_ref().and_then(|e| e.downcast_ref::<InputError>()).unwrap();
/// assert_eq!(inner.path(), Path::new("no/such/file.pgn"));
/// assert!(err.to_string().starts_with("no/such/file.pgn: "));
/// ```
#[derive(Debug)]
pub struct InputError {
    path: PathBuf,
    compression: Compression,
    error: io::Error,
}

impl InputError {
    /// The path of the input (`-` for stdin).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The compression detected, [`Compression::None`] if the error came
    /// before detection.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The underlying error.
    pub fn io_error(&self) -> &io::Error {
        &self.error
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.compression {
            Compression::None => write!(f, "{}: {}", self.path.display(), self.error),
            c => write!(f, "{} ({c}): {}", self.path.display(), self.error),
        }
    }
}

impl std::error::Error for InputError {}

/// Wraps `error` so that it names `path`; the kind stays the same.
fn with_path(path: &Path, compression: Compression, error: io::Error) -> io::Error {
    io::Error::new(
        error.kind(),
        InputError {
            path: path.to_path_buf(),
            compression,
            error,
        },
    )
}

/// A shared count of the bytes read from an input's file or stdin (before
/// decompression), for progress reports from another thread.
#[derive(Debug, Clone, Default)]
pub struct BytesRead(Arc<AtomicU64>);

impl BytesRead {
    /// The bytes read so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A reader that counts the bytes it hands out.
struct Counted<R> {
    inner: R,
    count: BytesRead,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.0.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The raw bytes: the magic-number prefix already read, then the rest.
type Source = io::Chain<io::Cursor<Vec<u8>>, Counted<Box<dyn Read + Send>>>;

/// The decoder for each compression.
enum Decoder {
    /// A plain file mapped into memory, and how far it was read.
    Mapped(Mapped, usize),
    Plain(Source),
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<Source>>),
    Gzip(Members),
    Bzip2(MultiBzDecoder<Source>),
}

impl Read for Decoder {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Mapped(map, pos) => {
                let rest = map.bytes().get(*pos..).unwrap_or_default();
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                *pos += n;
                map.consumed(*pos, 0);
                Ok(n)
            }
            Decoder::Plain(r) => r.read(buf),
            Decoder::Zstd(r) => r.read(buf),
            Decoder::Gzip(r) => r.read(buf),
            Decoder::Bzip2(r) => r.read(buf),
        }
    }
}

/// The gzip members of a stream, one after another. What follows the
/// last member must be another member or nothing: other bytes (trailing
/// garbage) are an [`io::ErrorKind::InvalidData`] error that gives their
/// offset, after the members before them were read.
struct Members {
    /// The member being read; `None` once the stream ended.
    member: Option<flate2::bufread::GzDecoder<io::BufReader<Source>>>,
    /// The raw bytes read from the file, for the offset of trailing bytes.
    count: BytesRead,
}

impl Members {
    fn new(source: Source, count: BytesRead) -> Members {
        Members {
            member: Some(flate2::bufread::GzDecoder::new(io::BufReader::new(source))),
            count,
        }
    }
}

impl Read for Members {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(member) = &mut self.member {
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let Some(member) = self.member.take() else {
                break;
            };
            let mut rest = member.into_inner();
            let next = rest.fill_buf()?;
            if next.is_empty() {
                return Ok(0);
            }
            if !next.starts_with(&[0x1F, 0x8B][..next.len().min(2)]) {
                let at = self.count.get() - next.len() as u64;
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("trailing garbage from byte {at} on: not a gzip member"),
                ));
            }
            self.member = Some(flate2::bufread::GzDecoder::new(rest));
        }
        Ok(0)
    }
}

/// What the decompressed bytes are, told by the first of them on the
/// first read.
enum Text {
    /// Nothing read yet.
    Unknown,
    /// Bytes handed out as they are: first the ones read to tell, then
    /// the rest, or before it the error that stopped the telling.
    Bytes {
        prefix: Vec<u8>,
        pos: usize,
        error: Option<io::Error>,
    },
    /// UTF-16, handed out as UTF-8.
    Utf16(Utf16Reader),
}

/// An open input: decompressed bytes of a file or stdin.
///
/// Reading is unbuffered apart from what decompression needs; read in large
/// blocks (the PGN reader does).
pub struct Input {
    path: PathBuf,
    compression: Compression,
    total_len: Option<u64>,
    bytes_read: BytesRead,
    decoder: Decoder,
    text: Text,
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("path", &self.path)
            .field("compression", &self.compression)
            .field("total_len", &self.total_len)
            .field("bytes_read", &self.bytes_read.get())
            .finish_non_exhaustive()
    }
}

/// Opens `path` for reading (`-` is stdin), detecting its compression,
/// with the default [`OpenOptions`].
///
/// # Errors
/// When the file cannot be opened or its first bytes cannot be read; the
/// error names the path (see [`InputError`]).
///
/// # Examples
/// ```no_run
/// use std::io::Read;
/// use std::path::Path;
///
/// let mut input = pgnkit::input::open(Path::new("games.pgn.zst"))?;
/// let progress = input.bytes_read();
/// let mut text = Vec::new();
/// input.read_to_end(&mut text)?;
/// assert_eq!(Some(progress.get()), input.total_len());
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn open(path: &Path) -> io::Result<Input> {
    OpenOptions::default().open(path)
}

/// How [`OpenOptions::open`] reads a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpenOptions {
    /// Map a plain regular file of at least [`MAP_MIN_BYTES`] into memory
    /// (see [`Mapped`]); when off, every file is read. On by default.
    pub map: bool,
}

impl Default for OpenOptions {
    fn default() -> OpenOptions {
        OpenOptions { map: true }
    }
}

impl OpenOptions {
    /// Opens `path` for reading (`-` is stdin), detecting its compression.
    ///
    /// # Errors
    /// When the file cannot be opened or its first bytes cannot be read;
    /// the error names the path (see [`InputError`]).
    ///
    /// # Examples
    /// ```no_run
    /// use std::path::Path;
    /// use pgnkit::input::OpenOptions;
    ///
    /// // A file that may change while it is read is safer read than mapped.
    /// let mut input = OpenOptions { map: false }.open(Path::new("live.pgn"))?;
    /// assert!(input.take_mapped().is_none());
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn open(&self, path: &Path) -> io::Result<Input> {
        self.open_mapping(path, MAP_MIN_BYTES)
    }

    /// Opens `path` as [`open`](Self::open) does, but maps a plain file
    /// of any size (of 16 bytes or more) when [`map`](Self::map) is on:
    /// for one shard of a run ([`crate::shard`]), which splits only a file
    /// read in place.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn open_in_place(&self, path: &Path) -> io::Result<Input> {
        self.open_mapping(path, 0)
    }

    /// Opens `path`, mapping a plain file of at least `min` bytes.
    fn open_mapping(&self, path: &Path, min: u64) -> io::Result<Input> {
        if path == Path::new("-") {
            return Input::from_reader(path, io::stdin(), None);
        }
        let file = File::open(path).map_err(|e| with_path(path, Compression::None, e))?;
        let total_len = file
            .metadata()
            .ok()
            .filter(|meta| meta.is_file())
            .map(|meta| meta.len());
        if total_len.is_some_and(|len| len >= min)
            && self.map
            && let Some(map) = Mapped::new(&file)
            && Compression::detect(&map.bytes()[..4]) == Compression::None
            && utf16::detect(&map.bytes()[..utf16::SNIFF_LEN]).is_none()
        {
            let mut input = Input::from_reader(path, io::empty(), total_len)?;
            input.decoder = Decoder::Mapped(
                Mapped {
                    bytes_read: input.bytes_read.clone(),
                    ..map
                },
                0,
            );
            return Ok(input);
        }
        Input::from_reader(path, file, total_len)
    }
}

/// The text that one shard ([`crate::shard`]) reads of a zstd file of
/// several independent frames ([`ZstdFrames`]), given its `range` of the
/// file's bytes: from the text of the first frame that starts in `range`
/// to the text of the first frame that starts past it (the end of the
/// text when none does). The frames before it are measured, not kept,
/// when their headers do not give their length.
///
/// A frame that cannot be decompressed ends the text where one reader
/// would stop: a shard whose frames come after it reads nothing, and the
/// shard that holds it reads on to the error.
///
/// `Ok(None)` when the file is not a zstd file of several frames, or its
/// text is UTF-16 (or it cannot be mapped): it is then one unit.
///
/// # Errors
/// When the file cannot be opened or decompression cannot start.
pub fn zstd_shard_text(path: &Path, range: Range<u64>) -> io::Result<Option<Range<u64>>> {
    let Some((map, mut frames)) = zstd_frames(path)? else {
        return Ok(None);
    };
    let bytes = map.bytes();
    let within = frames.within(range);
    if within.is_empty() {
        return Ok(Some(0..0));
    }
    let Ok(start) = frames.text_at(bytes, within.start) else {
        return Ok(Some(0..0));
    };
    let end = match within.end < frames.len() {
        true => frames.text_at(bytes, within.end).unwrap_or(u64::MAX),
        false => u64::MAX,
    };
    Ok(Some(start..end.max(start)))
}

/// Where each frame of a zstd file of several frames starts, in the file
/// (as [`ZstdFrames::start`] counts) and in its text: for an index of the
/// file's shards ([`crate::shard::ShardIndex`]). `Ok(None)` when the file
/// is one unit, as for [`zstd_shard_text`].
///
/// # Errors
/// When the file cannot be opened or a frame cannot be decompressed; the
/// error names the path.
pub fn zstd_frame_starts(path: &Path) -> io::Result<Option<Vec<(u64, u64)>>> {
    let Some((map, mut frames)) = zstd_frames(path)? else {
        return Ok(None);
    };
    (0..frames.len())
        .map(|i| {
            let text = frames.text_at(map.bytes(), i);
            text.map(|text| (frames.start(i), text))
                .map_err(|e| with_path(path, Compression::Zstd, e))
        })
        .collect::<io::Result<_>>()
        .map(Some)
}

/// The zstd file at `path`, mapped, and its frames, if it has several and
/// its text is not UTF-16.
fn zstd_frames(path: &Path) -> io::Result<Option<(Mapped, ZstdFrames)>> {
    let file = File::open(path).map_err(|e| with_path(path, Compression::None, e))?;
    let Some(map) = Mapped::new(&file) else {
        return Ok(None);
    };
    let bytes = map.bytes();
    if Compression::detect(bytes) != Compression::Zstd {
        return Ok(None);
    }
    let Some(frames) = ZstdFrames::walk(bytes) else {
        return Ok(None);
    };
    // UTF-16 text is read transcoded: its places are not the frames'.
    let mut text = zstd::stream::read::Decoder::with_buffer(bytes)?;
    text.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
    let prefix = read_prefix(&mut text, utf16::SNIFF_LEN).unwrap_or_default();
    if utf16::detect(&prefix).is_some() {
        return Ok(None);
    }
    Ok(Some((map, frames)))
}

/// A plain file mapped into memory, read in place by the game framer
/// ([`Input::take_mapped`]).
///
/// Mapping is `unsafe` in Rust's terms because another process may change
/// the file while it is mapped; pgnkit only reads it. A file truncated
/// while pgnkit reads it ends the process with `SIGBUS` (as it does for
/// other tools that map their input, such as ripgrep);
/// [`OpenOptions::map`] turns mapping off for inputs that may change.
///
/// Memory stays flat: the pages behind the reader are given back as it
/// goes ([`Mapped::consumed`]), so the resident size does not grow with the
/// file.
pub struct Mapped {
    map: memmap2::Mmap,
    bytes_read: BytesRead,
    /// Pages before this offset were given back.
    released: AtomicUsize,
}

impl fmt::Debug for Mapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mapped")
            .field("len", &self.map.len())
            .field("released", &self.released.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Mapped {
    /// Maps `file`; `None` when the system refuses (the file is read
    /// instead).
    fn new(file: &File) -> Option<Mapped> {
        // SAFETY: the map is only read; see the type's documentation for
        // a file that changes while it is mapped.
        let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Sequential);
        if map.len() < utf16::SNIFF_LEN {
            return None;
        }
        Some(Mapped {
            map,
            bytes_read: BytesRead::default(),
            released: AtomicUsize::new(0),
        })
    }

    /// A map of `bytes` in anonymous memory, for the tests of the code
    /// that frames mapped files in pieces.
    #[cfg(test)]
    pub(crate) fn from_bytes(bytes: &[u8]) -> Mapped {
        let mut map = memmap2::MmapMut::map_anon(bytes.len().max(1)).expect("anonymous map");
        map[..bytes.len()].copy_from_slice(bytes);
        let map = map.make_read_only().expect("read-only map");
        // Nothing is given back: `DontNeed` would zero anonymous pages.
        let released = AtomicUsize::new(usize::MAX / 2);
        Mapped {
            map,
            bytes_read: BytesRead::default(),
            released,
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Tells the mapping that everything before `offset` has been read:
    /// counts it as read for progress, and gives back the memory of the
    /// pages more than `keep` bytes before it. Bytes before that may still
    /// be read (the pages come back from the page cache), only more slowly.
    /// One reader calls this; others may read the bytes meanwhile.
    pub fn consumed(&self, offset: usize, keep: usize) {
        let offset = offset.min(self.map.len());
        self.bytes_read.0.store(offset as u64, Ordering::Relaxed);
        #[cfg(unix)]
        {
            let released = self.released.load(Ordering::Relaxed);
            let upto = offset.saturating_sub(keep);
            if upto >= released + RELEASE_STEP {
                let page = 1 << 12;
                let end = upto / page * page;
                // SAFETY: `DontNeed` on a read-only file mapping drops
                // only the page table entries; the bytes read again after
                // it are the file's, from the page cache.
                let _ = unsafe {
                    self.map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        released,
                        end - released,
                    )
                };
                self.released.store(end, Ordering::Relaxed);
            }
        }
        #[cfg(not(unix))]
        let _ = keep;
    }
}

impl Input {
    /// Wraps any reader, detecting its compression; `path` names it in
    /// errors and `total_len` is its size, if known.
    ///
    /// # Errors
    /// When the first bytes cannot be read; the error names `path`.
    ///
    /// # Examples
    /// ```
    /// use std::io::Read;
    /// use pgnkit::input::{Compression, Input};
    ///
    /// let mut input = Input::from_reader("games.pgn", &b"1. e4 *"[..], Some(7))?;
    /// assert_eq!(input.compression(), Compression::None);
    /// let mut text = String::new();
    /// input.read_to_string(&mut text)?;
    /// assert_eq!(text, "1. e4 *");
    /// assert_eq!(input.bytes_read().get(), 7);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn from_reader(
        path: impl AsRef<Path>,
        reader: impl Read + Send + 'static,
        total_len: Option<u64>,
    ) -> io::Result<Input> {
        let path = path.as_ref().to_path_buf();
        let bytes_read = BytesRead::default();
        let mut raw = Counted {
            inner: Box::new(reader) as Box<dyn Read + Send>,
            count: bytes_read.clone(),
        };
        let prefix =
            read_prefix(&mut raw, 4).map_err(|e| with_path(&path, Compression::None, e))?;
        let compression = Compression::detect(&prefix);
        let source = io::Cursor::new(prefix).chain(raw);
        let decoder = match compression {
            Compression::None => Decoder::Plain(source),
            Compression::Zstd => {
                let wrap = |e| with_path(&path, compression, e);
                let mut decoder = zstd::stream::read::Decoder::new(source).map_err(wrap)?;
                decoder.window_log_max(ZSTD_WINDOW_LOG_MAX).map_err(wrap)?;
                Decoder::Zstd(decoder)
            }
            Compression::Gzip => Decoder::Gzip(Members::new(source, bytes_read.clone())),
            Compression::Bzip2 => Decoder::Bzip2(MultiBzDecoder::new(source)),
        };
        Ok(Input {
            path,
            compression,
            total_len,
            bytes_read,
            decoder,
            text: Text::Unknown,
        })
    }

    /// The path this input was opened with (`-` for stdin).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The compression detected.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The size of the file in bytes (compressed, if it is), for a progress
    /// bar against [`Input::bytes_read`]; `None` for stdin and other
    /// streams of unknown length.
    pub fn total_len(&self) -> Option<u64> {
        self.total_len
    }

    /// A handle on the count of bytes read so far from the file or stdin
    /// (compressed bytes, if it is compressed). Clone it into a progress
    /// thread; it keeps counting while this input is read.
    pub fn bytes_read(&self) -> BytesRead {
        self.bytes_read.clone()
    }

    /// The bytes of the file mapped into memory, if [`open`] mapped it.
    pub fn mapped_bytes(&self) -> Option<&[u8]> {
        match &self.decoder {
            Decoder::Mapped(map, _) => Some(map.bytes()),
            _ => None,
        }
    }

    /// The file mapped into memory, if [`open`] mapped it and nothing has
    /// been read from this input yet; the input then reads as empty.
    pub fn take_mapped(&mut self) -> Option<Mapped> {
        if !matches!(self.decoder, Decoder::Mapped(_, 0)) || !matches!(self.text, Text::Unknown) {
            return None;
        }
        let source = io::Cursor::new(Vec::new()).chain(Counted {
            inner: Box::new(io::empty()) as Box<dyn Read + Send>,
            count: self.bytes_read.clone(),
        });
        match std::mem::replace(&mut self.decoder, Decoder::Plain(source)) {
            Decoder::Mapped(map, _) => Some(map),
            _ => None,
        }
    }
}

impl Input {
    /// Reads decompressed text, telling its encoding on the first call.
    fn read_text(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match &mut self.text {
                Text::Bytes { prefix, pos, error } => {
                    if *pos < prefix.len() {
                        let rest = &prefix[*pos..];
                        let n = rest.len().min(buf.len());
                        buf[..n].copy_from_slice(&rest[..n]);
                        *pos += n;
                        return Ok(n);
                    }
                    if let Some(e) = error.take() {
                        return Err(e);
                    }
                    return self.decoder.read(buf);
                }
                Text::Utf16(reader) => return reader.read(&mut self.decoder, buf),
                Text::Unknown => {
                    let mut prefix = Vec::with_capacity(utf16::SNIFF_LEN);
                    let error = (&mut self.decoder)
                        .take(utf16::SNIFF_LEN as u64)
                        .read_to_end(&mut prefix)
                        .err();
                    self.text = match utf16::detect(&prefix) {
                        Some((order, bom)) if error.is_none() => {
                            Text::Utf16(Utf16Reader::new(order, bom, &prefix))
                        }
                        _ => Text::Bytes {
                            prefix,
                            pos: 0,
                            error,
                        },
                    };
                }
            }
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_text(buf).map_err(|e| match e.kind() {
            // Retried by callers as it is; no need to wrap.
            io::ErrorKind::Interrupted => e,
            _ => with_path(&self.path, self.compression, e),
        })
    }
}

/// Reads up to `len` bytes, fewer only at the end of the stream.
fn read_prefix(reader: &mut impl Read, len: usize) -> io::Result<Vec<u8>> {
    let mut prefix = Vec::with_capacity(len);
    reader.take(len as u64).read_to_end(&mut prefix)?;
    Ok(prefix)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const TEXT: &[u8] = b"[Event \"Test\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";

    fn compress(compression: Compression, data: &[u8]) -> Vec<u8> {
        match compression {
            Compression::None => data.to_vec(),
            Compression::Zstd => zstd::encode_all(data, 3).expect("zstd"),
            Compression::Gzip => {
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                encoder.write_all(data).expect("gzip");
                encoder.finish().expect("gzip")
            }
            Compression::Bzip2 => {
                let mut encoder =
                    bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
                encoder.write_all(data).expect("bzip2");
                encoder.finish().expect("bzip2")
            }
        }
    }

    fn read_all(bytes: Vec<u8>) -> (Compression, io::Result<Vec<u8>>) {
        let len = bytes.len() as u64;
        let mut input =
            Input::from_reader("test.pgn", io::Cursor::new(bytes), Some(len)).expect("open");
        let mut out = Vec::new();
        let result = input.read_to_end(&mut out).map(|_| out);
        if result.is_ok() {
            assert_eq!(input.bytes_read().get(), len);
        }
        (input.compression(), result)
    }

    const FORMATS: [Compression; 4] = [
        Compression::None,
        Compression::Zstd,
        Compression::Gzip,
        Compression::Bzip2,
    ];

    #[test]
    fn round_trips() {
        let big: Vec<u8> = TEXT.iter().copied().cycle().take(1 << 20).collect();
        for compression in FORMATS {
            for data in [&b""[..], b"1", TEXT, &big] {
                if data.is_empty() && compression == Compression::None {
                    continue;
                }
                let (detected, result) = read_all(compress(compression, data));
                assert_eq!(detected, compression);
                assert_eq!(result.expect("read"), data, "{compression}");
            }
        }
    }

    #[test]
    fn reads_concatenated_streams() {
        for compression in FORMATS {
            let mut bytes = compress(compression, TEXT);
            bytes.extend(compress(compression, TEXT));
            let (_, result) = read_all(bytes);
            assert_eq!(
                result.expect("read"),
                [TEXT, TEXT].concat(),
                "{compression}"
            );
        }
    }

    #[test]
    fn truncated_streams_are_errors() {
        let data: Vec<u8> = TEXT.iter().copied().cycle().take(100_000).collect();
        for compression in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
            let full = compress(compression, &data);
            for cut in [full.len() - 1, full.len() / 2, 10] {
                let (_, result) = read_all(full[..cut].to_vec());
                let err = result.expect_err(&format!("{compression} cut at {cut}"));
                let inner = err
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<InputError>())
                    .expect("InputError");
                assert_eq!(inner.path(), Path::new("test.pgn"));
                assert_eq!(inner.compression(), compression);
                assert!(
                    err.to_string()
                        .starts_with(&format!("test.pgn ({compression}): ")),
                    "{err}"
                );
            }
        }
    }

    #[test]
    fn gzip_trailing_garbage_is_an_error_after_the_members() {
        let members = [
            compress(Compression::Gzip, TEXT),
            compress(Compression::Gzip, TEXT),
        ]
        .concat();
        for garbage in [&b"garbage"[..], b"\0", b"\x1F\x8Bxx"] {
            let bytes = [&members[..], garbage].concat();
            let mut input = Input::from_reader("t.pgn.gz", io::Cursor::new(bytes), None).unwrap();
            let mut out = Vec::new();
            let err = input.read_to_end(&mut out).expect_err("garbage");
            assert_eq!(out, [TEXT, TEXT].concat(), "{garbage:?}");
            // A gzip header cut short is a truncated member.
            if garbage[0] != 0x1F {
                assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{garbage:?}");
                assert_eq!(
                    err.to_string(),
                    format!(
                        "t.pgn.gz (gzip): trailing garbage from byte {} on: not a gzip member",
                        members.len()
                    )
                );
            }
        }
    }

    #[test]
    fn detects_by_magic_only() {
        let cases: &[(&[u8], Compression)] = &[
            (b"", Compression::None),
            (b"\x28\xB5\x2F", Compression::None),
            (b"\x28\xB5\x2F\xFD", Compression::Zstd),
            (b"\x1F\x8B", Compression::Gzip),
            (b"\x1F", Compression::None),
            (b"BZh91AY", Compression::Bzip2),
            (b"BZ", Compression::None),
            (b"Bb5", Compression::None),
            (b"\xEF\xBB\xBF[Event", Compression::None),
            (b"\x50\x2A\x4D\x18", Compression::Zstd),
            (b"\x5E\x2A\x4D\x18", Compression::Zstd),
            (b"\x5F\x2A\x4D\x18", Compression::Zstd),
            (b"\x4F\x2A\x4D\x18", Compression::None),
            (b"\x60\x2A\x4D\x18", Compression::None),
            (b"\x50\x2A\x4D", Compression::None),
        ];
        for &(prefix, expected) in cases {
            assert_eq!(Compression::detect(prefix), expected, "{prefix:?}");
        }
    }

    /// A zstd skippable frame: magic `0x184D2A50 + nibble`, payload length,
    /// payload.
    fn skippable(nibble: u8, payload: &[u8]) -> Vec<u8> {
        let mut frame = (0x184D_2A50 + u32::from(nibble)).to_le_bytes().to_vec();
        frame.extend((payload.len() as u32).to_le_bytes());
        frame.extend(payload);
        frame
    }

    /// What `pzstd` writes: each frame preceded by a skippable frame that
    /// holds its compressed size. What the seekable format writes: frames,
    /// then a seek table in a trailing skippable frame.
    #[test]
    fn reads_skippable_frames() {
        let frame = compress(Compression::Zstd, TEXT);
        let size = (frame.len() as u32).to_le_bytes();
        let pzstd = [
            skippable(0, &size),
            frame.clone(),
            skippable(0, &size),
            frame.clone(),
        ]
        .concat();
        let mut table = (frame.len() as u32).to_le_bytes().to_vec();
        table.extend((TEXT.len() as u32).to_le_bytes());
        table.extend([1, 0, 0, 0, 0]); // one entry, no checksums
        table.extend(0x8F92_EAB1u32.to_le_bytes());
        let seekable = [frame.clone(), skippable(0xE, &table)].concat();
        let cases = [
            (pzstd, [TEXT, TEXT].concat()),
            (seekable, TEXT.to_vec()),
            ([skippable(0xF, b""), frame.clone()].concat(), TEXT.to_vec()),
            (skippable(0x5, b"nothing else"), Vec::new()),
        ];
        for (bytes, text) in cases {
            let (detected, result) = read_all(bytes);
            assert_eq!(detected, Compression::Zstd);
            assert_eq!(result.expect("read"), text);
        }
        let (_, result) = read_all(skippable(0, &[0; 100])[..50].to_vec());
        assert_eq!(
            result.expect_err("truncated").kind(),
            io::ErrorKind::UnexpectedEof
        );
    }

    fn utf16(text: &[u8], little: bool, bom: bool) -> Vec<u8> {
        let text = std::str::from_utf8(text).expect("UTF-8");
        let bom = if bom { "\u{FEFF}" } else { "" };
        bom.encode_utf16()
            .chain(text.encode_utf16())
            .flat_map(|u| match little {
                true => u.to_le_bytes(),
                false => u.to_be_bytes(),
            })
            .collect()
    }

    #[test]
    fn reads_utf16_as_utf8() {
        let text = "[White \"Nüss, Jörg\"]\n\n{♔ 😀} 1. e4 e5 *\n".as_bytes();
        for compression in FORMATS {
            for (little, bom) in [(true, true), (false, true), (true, false), (false, false)] {
                let bytes = compress(compression, &utf16(text, little, bom));
                let (detected, result) = read_all(bytes);
                assert_eq!(detected, compression);
                assert_eq!(result.expect("read"), text, "{compression} {little} {bom}");
            }
        }
        let mut bytes = utf16(b"[Event \"x\"]", true, true);
        bytes.extend([0x00, 0xD8, b'x', 0]);
        let (_, result) = read_all(bytes);
        let err = result.expect_err("lone surrogate");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "test.pgn: UTF-16 little-endian input: unpaired surrogate 0xD800 at byte 24"
        );
    }

    /// A UTF-16 file large enough to be mapped is read through the
    /// transcoder instead; a UTF-8 one is still mapped.
    #[test]
    fn utf16_files_are_not_mapped() {
        let big: Vec<u8> = TEXT.iter().copied().cycle().take(1 << 20).collect();
        let dir = std::env::temp_dir().join(format!("pgnkit-input-utf16-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for (name, bytes, mapped) in [
            ("utf8.pgn", big.clone(), true),
            ("le.pgn", utf16(&big, true, true), false),
            ("be.pgn", utf16(&big, false, false), false),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, &bytes).expect("write");
            let mut input = open(&path).expect("open");
            assert_eq!(input.take_mapped().is_some(), mapped, "{name}");
            if !mapped {
                let mut out = Vec::new();
                input.read_to_end(&mut out).expect("read");
                assert!(out == big, "{name}");
                assert_eq!(input.bytes_read().get(), bytes.len() as u64);
            }
        }
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    /// A zstd file of several frames is split by its frames, unless its
    /// text is UTF-16; a file of one frame is one unit.
    #[test]
    fn zstd_shard_texts() {
        let big: Vec<u8> = TEXT.iter().copied().cycle().take(1 << 16).collect();
        let frames = |text: &[u8]| -> Vec<u8> {
            text.chunks(text.len() / 4)
                .flat_map(|chunk| compress(Compression::Zstd, chunk))
                .collect()
        };
        let dir = std::env::temp_dir().join(format!("pgnkit-input-frames-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let utf16_text = utf16(&big, true, true);
        for (name, bytes, quarter) in [
            ("four.pgn.zst", frames(&big), Some(big.len() as u64 / 4)),
            ("utf16.pgn.zst", frames(&utf16_text), None),
            ("one.pgn.zst", compress(Compression::Zstd, &big), None),
            ("plain.pgn", big.clone(), None),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, &bytes).expect("write");
            let len = bytes.len() as u64;
            let text = |range| zstd_shard_text(&path, range).expect("open");
            match quarter {
                Some(q) => {
                    assert_eq!(text(0..len), Some(0..u64::MAX), "{name}");
                    assert_eq!(text(0..1), Some(0..q), "{name}");
                    assert_eq!(text(1..len), Some(q..u64::MAX), "{name}");
                    assert_eq!(text(len - 1..len), Some(0..0), "{name}");
                }
                None => assert_eq!(text(0..len), None, "{name}"),
            }
        }
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    /// A reader that hands out one byte per call, as a slow pipe may.
    struct Trickle(io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let end = buf.len().min(1);
            self.0.read(&mut buf[..end])
        }
    }

    #[test]
    fn detects_through_short_reads() {
        let bytes = compress(Compression::Zstd, TEXT);
        let mut input =
            Input::from_reader("-", Trickle(io::Cursor::new(bytes)), None).expect("open");
        assert_eq!(input.compression(), Compression::Zstd);
        let mut out = Vec::new();
        input.read_to_end(&mut out).expect("read");
        assert_eq!(out, TEXT);
    }

    #[test]
    fn garbage_after_magic_is_an_error() {
        for bytes in [
            &b"\x28\xB5\x2F\xFDgarbage"[..],
            b"\x1F\x8Bgarbage",
            b"BZhgarbage",
        ] {
            let (_, result) = read_all(bytes.to_vec());
            assert!(result.is_err(), "{bytes:?}");
        }
    }

    #[test]
    fn zstd_window_is_capped() {
        // A frame whose header asks for a 2^28-byte window (long mode).
        let data = vec![b'e'; 1000];
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("encoder");
        encoder.long_distance_matching(true).expect("ldm");
        encoder.window_log(28).expect("window");
        encoder.write_all(&data).expect("write");
        let bytes = encoder.finish().expect("finish");
        let (_, result) = read_all(bytes);
        let err = result.expect_err("window over the cap");
        assert!(err.to_string().contains("memory"), "{err}");

        // The same data with a window at the cap reads fine.
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("encoder");
        encoder.window_log(ZSTD_WINDOW_LOG_MAX).expect("window");
        encoder.write_all(&data).expect("write");
        let (_, result) = read_all(encoder.finish().expect("finish"));
        assert_eq!(result.expect("read"), data);
    }

    #[test]
    fn open_names_the_path() {
        let err = open(Path::new("/nonexistent/games.pgn")).expect_err("missing");
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(
            err.to_string().starts_with("/nonexistent/games.pgn: "),
            "{err}"
        );
    }

    #[test]
    fn input_is_send() {
        fn send<T: Send>() {}
        send::<Input>();
        send::<BytesRead>();
    }
}
