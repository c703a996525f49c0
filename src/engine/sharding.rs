//! What a run reads when it is one shard of several: the inputs' sizes
//! that shares are reckoned by, the index that places a shard in a zstd
//! file, and the window of text a shard frames.

use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::EngineError;
use crate::input::Input;
use crate::pgn::{GameFramer, Link, ReadPgnError};
use crate::shard::{ParseIndexError, ShardIndex};

/// The sizes of the files at `paths` on disk, 0 for standard input and
/// anything that is not a regular file (or cannot be read): the sizes by
/// which a shard's share is reckoned.
pub(super) fn disk_sizes(paths: &[PathBuf]) -> Vec<u64> {
    paths
        .iter()
        .map(|path| {
            if path == Path::new("-") {
                return 0;
            }
            std::fs::metadata(path)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map_or(0, |meta| meta.len())
        })
        .collect()
}

/// The index at `path`, which must be that of the one input of `paths`,
/// as the input is now.
pub(super) fn load_index(path: &Path, paths: &[PathBuf]) -> Result<ShardIndex, EngineError> {
    let error = |reason: String| EngineError::Index {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    let index: ShardIndex = text
        .parse()
        .map_err(|e: ParseIndexError| error(e.to_string()))?;
    let input = match paths {
        [input] if input == Path::new("-") => {
            return Err(error("an index serves a file, not standard input".into()));
        }
        [input] => input,
        _ => return Err(error("an index serves one input only".into())),
    };
    index.check(input).map_err(|stale| {
        error(format!(
            "{stale}: the index is not of {} as it is now; run `pgnkit index {}` again",
            input.display(),
            input.display()
        ))
    })?;
    Ok(index)
}

/// What a shard reads of a zstd file of several frames: the games that
/// start in `text`, with the input read from the start of the file, or
/// from `start` (a place in the file, and the game that an index gives
/// for it) when there is one.
pub(super) struct Window {
    pub(super) text: Range<u64>,
    pub(super) start: Option<(u64, Link)>,
}

impl Window {
    /// The window of a shard's `range` of the file, from its index.
    pub(super) fn indexed(index: &ShardIndex, range: Range<u64>) -> Window {
        match index.within(range) {
            Some((point, end)) => Window {
                text: point.text..end.max(point.text),
                start: (point.at > 0).then_some((point.at, point.game)),
            },
            None => Window {
                text: 0..0,
                start: None,
            },
        }
    }

    /// Where the reader starts in the text.
    pub(super) fn from(&self) -> u64 {
        self.start.map_or(0, |(_, game)| game.at as u64)
    }

    /// `input`, or, when the window starts at a place of an index, the
    /// file at `path` read from there and its text up to the game there
    /// passed over.
    pub(super) fn reopen(&self, path: &Path, input: Input) -> io::Result<Input> {
        let Some((at, game)) = self.start else {
            return Ok(input);
        };
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut file = std::fs::File::open(path).map_err(named)?;
        io::Seek::seek(&mut file, io::SeekFrom::Start(at)).map_err(named)?;
        let mut input = Input::from_reader(path, file, input.total_len())?;
        let skip = (game.at as u64).saturating_sub(self.text.start);
        io::copy(&mut (&mut input).take(skip), &mut io::sink())?;
        Ok(input)
    }

    /// A framer over `reader`, which starts where [`from`](Self::from)
    /// says, for the window's games.
    pub(super) fn framer<R: Read>(&self, reader: R) -> (GameFramer<R>, Result<(), ReadPgnError>) {
        let mut framer = match self.start {
            Some((_, game)) => GameFramer::resume(reader, game.at as u64, game.number, game.line),
            None => GameFramer::new(reader),
        };
        let result = framer.window(self.text.clone()).map(drop);
        (framer, result)
    }
}
