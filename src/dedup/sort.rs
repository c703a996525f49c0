//! External sorting in bounded memory: records are sorted in memory up to
//! a limit of bytes; past it, each full buffer is sorted and written to a
//! temporary file (a *run*), and the runs are merged when the records are
//! read back.
//!
//! Run files are created in a directory the caller names and unlinked as
//! soon as they are open, so that nothing is left behind, whatever ends
//! the process.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A record that can be sorted on disk: a total order and a byte encoding.
pub trait Record: Ord + Sized {
    /// Bytes the record holds in memory beyond `size_of::<Self>()`.
    fn heap_bytes(&self) -> usize {
        0
    }

    /// Appends the record's encoding to `out`.
    fn encode(&self, out: &mut Vec<u8>);

    /// The record encoded in `bytes`, or `None` when they hold none.
    fn decode(bytes: &[u8]) -> Option<Self>;
}

/// Records added one by one and read back sorted.
///
/// # Examples
/// ```
/// use pgnkit::dedup::sort::{Record, Sorter};
///
/// #[derive(PartialEq, Eq, PartialOrd, Ord, Debug)]
/// struct N(u64);
///
/// impl Record for N {
///     fn encode(&self, out: &mut Vec<u8>) {
///         out.extend_from_slice(&self.0.to_le_bytes());
///     }
///     fn decode(bytes: &[u8]) -> Option<N> {
///         Some(N(u64::from_le_bytes(bytes.try_into().ok()?)))
///     }
/// }
///
/// // 64 bytes of memory: eight records a run.
/// let mut sorter = Sorter::new(64, std::env::temp_dir());
/// for n in (0..100).rev() {
///     sorter.push(N(n))?;
/// }
/// assert!(sorter.runs() > 1);
/// let sorted: Vec<u64> = sorter.finish()?.map(|n| n.map(|n| n.0)).collect::<Result<_, _>>()?;
/// assert_eq!(sorted, (0..100).collect::<Vec<_>>());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Sorter<T> {
    items: Vec<T>,
    /// Bytes the items hold in memory.
    used: usize,
    limit: usize,
    dir: PathBuf,
    runs: Vec<File>,
    buf: Vec<u8>,
}

/// Numbers the run files of this process.
static RUN: AtomicU64 = AtomicU64::new(0);

impl<T: Record> Sorter<T> {
    /// A sorter holding up to about `limit` bytes of records in memory
    /// (at least one record), writing runs to `dir`.
    pub fn new(limit: usize, dir: impl Into<PathBuf>) -> Sorter<T> {
        Sorter {
            items: Vec::new(),
            used: 0,
            limit,
            dir: dir.into(),
            runs: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Adds a record.
    ///
    /// # Errors
    /// A run cannot be written.
    pub fn push(&mut self, item: T) -> io::Result<()> {
        let size = size_of::<T>() + item.heap_bytes();
        if self.used + size > self.limit && !self.items.is_empty() {
            self.spill()?;
        }
        if self.items.len() == self.items.capacity() {
            // Grown by hand: doubling could take twice the limit.
            let room = (self.limit / size_of::<T>().max(1)).max(16);
            let more = self.items.len().clamp(16, room);
            self.items.reserve_exact(more);
        }
        self.used += size;
        self.items.push(item);
        Ok(())
    }

    /// Runs written to disk so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Writes the records in memory, sorted, as a run.
    fn spill(&mut self) -> io::Result<()> {
        self.items.sort_unstable();
        let file = run_file(&self.dir)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        for item in self.items.drain(..) {
            self.buf.clear();
            item.encode(&mut self.buf);
            write_record(&mut out, &self.buf)?;
        }
        let mut file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.flush()?;
        self.runs.push(file);
        self.used = 0;
        if self.runs.len() >= MAX_RUNS {
            self.compact()?;
        }
        Ok(())
    }

    /// Merges the runs into one, so that no more than [`MAX_RUNS`] files
    /// are open (a tiny limit on many records makes thousands of runs).
    fn compact(&mut self) -> io::Result<()> {
        let mut merged = Sorted(Merge::Runs(Runs::<T>::of(std::mem::take(&mut self.runs))?));
        let mut out = BufWriter::with_capacity(1 << 16, run_file(&self.dir)?);
        for item in &mut merged {
            self.buf.clear();
            item?.encode(&mut self.buf);
            write_record(&mut out, &self.buf)?;
        }
        let mut file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.flush()?;
        self.runs.push(file);
        Ok(())
    }

    /// The records in order.
    ///
    /// # Errors
    /// The last run cannot be written, or a run cannot be read back.
    pub fn finish(mut self) -> io::Result<Sorted<T>> {
        if self.runs.is_empty() {
            self.items.sort_unstable();
            return Ok(Sorted(Merge::Memory(self.items.into_iter())));
        }
        if !self.items.is_empty() {
            self.spill()?;
        }
        self.items = Vec::new();
        Ok(Sorted(Merge::Runs(Runs::of(self.runs)?)))
    }
}

/// The most runs a sorter keeps; past it they are merged into one.
pub const MAX_RUNS: usize = 64;

/// Writes one encoded record, its length first.
fn write_record(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "record too large"))?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(bytes)
}

/// A new run file in `dir`, already unlinked where the system allows.
fn run_file(dir: &Path) -> io::Result<File> {
    let n = RUN.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!(".pgnkit-sort-{}-{n}.tmp", std::process::id()));
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|err| io::Error::new(err.kind(), format!("{}: {err}", path.display())))?;
    // The open file stays readable; on systems that cannot unlink an open
    // file it is left for the caller's temporary directory to clean.
    let _ = fs::remove_file(&path);
    Ok(file)
}

/// The records of a [`Sorter`], in order.
#[derive(Debug)]
pub struct Sorted<T>(Merge<T>);

#[derive(Debug)]
enum Merge<T> {
    Memory(std::vec::IntoIter<T>),
    Runs(Runs<T>),
}

/// The merge of sorted runs: the smallest next record of each run.
#[derive(Debug)]
struct Runs<T> {
    heap: BinaryHeap<Reverse<(T, usize)>>,
    readers: Vec<BufReader<File>>,
    buf: Vec<u8>,
}

impl<T: Record> Runs<T> {
    /// The merge of the run files `runs`, read from their starts.
    fn of(runs: Vec<File>) -> io::Result<Runs<T>> {
        let mut readers = Vec::with_capacity(runs.len());
        for mut file in runs {
            file.rewind()?;
            readers.push(BufReader::with_capacity(1 << 16, file));
        }
        let mut merge = Runs {
            heap: BinaryHeap::with_capacity(readers.len()),
            readers,
            buf: Vec::new(),
        };
        for i in 0..merge.readers.len() {
            merge.refill(i)?;
        }
        Ok(merge)
    }

    /// Reads the next record of run `i` into the heap, if it has one.
    fn refill(&mut self, i: usize) -> io::Result<()> {
        let reader = &mut self.readers[i];
        let mut len = [0; 4];
        match reader.read_exact(&mut len) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(err) => return Err(err),
        }
        self.buf.resize(u32::from_le_bytes(len) as usize, 0);
        reader.read_exact(&mut self.buf)?;
        let item = T::decode(&self.buf)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "corrupt sort run"))?;
        self.heap.push(Reverse((item, i)));
        Ok(())
    }
}

impl<T: Record> Iterator for Sorted<T> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<io::Result<T>> {
        match &mut self.0 {
            Merge::Memory(items) => items.next().map(Ok),
            Merge::Runs(runs) => {
                let Reverse((item, i)) = runs.heap.pop()?;
                Some(runs.refill(i).map(|()| item))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
    struct Pair(u32, Vec<u8>);

    impl Record for Pair {
        fn heap_bytes(&self) -> usize {
            self.1.len()
        }
        fn encode(&self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.0.to_le_bytes());
            out.extend_from_slice(&self.1);
        }
        fn decode(bytes: &[u8]) -> Option<Pair> {
            let (n, rest) = bytes.split_at_checked(4)?;
            Some(Pair(u32::from_le_bytes(n.try_into().ok()?), rest.to_vec()))
        }
    }

    #[test]
    fn spilled_and_in_memory_sorts_agree() {
        let items: Vec<Pair> = (0..5000u32)
            .map(|i| {
                Pair(
                    i.wrapping_mul(2_654_435_761) % 997,
                    vec![0; (i % 7) as usize],
                )
            })
            .collect();
        let mut expected = items.clone();
        expected.sort();
        for limit in [usize::MAX, 4096, 1] {
            let mut sorter = Sorter::new(limit, std::env::temp_dir());
            for item in items.iter().cloned() {
                sorter.push(item).unwrap();
            }
            let spilled = sorter.runs() > 0;
            assert_eq!(spilled, limit != usize::MAX, "{limit}");
            assert!(sorter.runs() <= MAX_RUNS, "{limit}: {} runs", sorter.runs());
            let sorted: Vec<Pair> = sorter.finish().unwrap().map(Result::unwrap).collect();
            assert_eq!(sorted, expected, "{limit}");
        }
    }

    #[test]
    fn a_corrupt_run_is_an_error_not_a_panic() {
        let mut runs = Runs::<Pair> {
            heap: BinaryHeap::new(),
            readers: vec![],
            buf: vec![],
        };
        let mut file = run_file(&std::env::temp_dir()).unwrap();
        file.write_all(&[2, 0, 0, 0, 1, 2]).unwrap();
        file.rewind().unwrap();
        runs.readers.push(BufReader::new(file));
        assert_eq!(
            runs.refill(0).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }
}
