//! The ordered parallel pipeline every subcommand runs on.
//!
//! One of the pool's workers coordinates: it pulls work items from a source —
//! batches of framed game texts, or pieces of a mapped file that the workers
//! frame themselves — and queues them for the pool,
//! first in first out; results come back tagged with their sequence number
//! and go to the sink strictly in input order. While it waits for a result it
//! works on the oldest item nobody has started. `--jobs N` is N threads in
//! all: a coordinator of its own beside N workers woke for every item done
//! and took a core from a worker each time (TCEC, 2 threads: 175 context
//! switches a run, now about 20, and 5 % less time; a zstd-compressed
//! input, which the coordinator decompresses, 13 %). At most `in_flight` items
//! exist at once (queued, being processed or waiting for their turn to be
//! written), so memory is bounded by the batch size times `in_flight`,
//! independent of the input's size.
//!
//! With one job everything runs on the caller's thread, in order, with no
//! pool at all: `--jobs 1` is exactly sequential. So does a source of a
//! single item (a small input), whatever the number of jobs.

use std::collections::BTreeMap;
use std::sync::mpsc;

/// How many workers, and how far reading may run ahead of writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipeline {
    jobs: usize,
    in_flight: usize,
}

/// Errors of the pipeline itself (the work's and sink's own errors pass
/// through unchanged).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// The worker pool could not be started.
    #[error("cannot start {jobs} worker threads: {source}")]
    Pool {
        /// The requested number of workers.
        jobs: usize,
        /// Why rayon refused.
        source: rayon::ThreadPoolBuildError,
    },
    /// A worker died (a panic in the work function); its item is lost.
    #[error("a worker thread stopped unexpectedly")]
    WorkerLost,
}

/// The most workers a pipeline starts: more asked for are this many.
/// Each is a thread with its own stack and items in flight, and no
/// machine has the cores to keep more busy.
pub const MAX_JOBS: usize = 1024;

impl Pipeline {
    /// A pipeline with `jobs` workers (0 = one per core; at most
    /// [`MAX_JOBS`]) and a read-ahead of four items per worker.
    pub fn new(jobs: usize) -> Pipeline {
        let jobs = if jobs == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            jobs
        }
        .min(MAX_JOBS);
        Pipeline {
            jobs,
            in_flight: 4 * jobs,
        }
    }

    /// The number of workers.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// How many items may be in flight at once.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Sets how many items may be in flight at once (at least one).
    #[must_use]
    pub fn with_in_flight(self, in_flight: usize) -> Pipeline {
        Pipeline {
            in_flight: in_flight.max(1),
            ..self
        }
    }

    /// Runs `work` on every item of `source` and passes the results to
    /// `sink` in the order of the items.
    ///
    /// An error of `source` ends the reading, not the run: the items before
    /// it are finished and passed to `sink` in order, and then the error is
    /// returned, whatever the number of workers. An error of `sink` stops
    /// the run at once; items already handed to workers are finished and
    /// dropped.
    ///
    /// # Errors
    /// The first error of `source` (after the items before it went to
    /// `sink`) or of `sink`, or a [`PipelineError`] converted into `E`.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pipeline::{Pipeline, PipelineError};
    ///
    /// let mut out = Vec::new();
    /// let items = (1..=100u64).map(Ok::<u64, PipelineError>);
    /// Pipeline::new(2).run(items, |n| n * n, |sq| {
    ///     out.push(sq);
    ///     Ok::<(), PipelineError>(())
    /// })?;
    /// assert_eq!(out, (1..=100u64).map(|n| n * n).collect::<Vec<_>>());
    /// # Ok::<(), PipelineError>(())
    /// ```
    pub fn run<I, O, E, S, W, K>(&self, source: S, work: W, mut sink: K) -> Result<(), E>
    where
        S: IntoIterator<Item = Result<I, E>>,
        S::IntoIter: Send,
        I: Send,
        O: Send,
        W: Fn(I) -> O + Sync,
        K: FnMut(O) -> Result<(), E> + Send,
        E: From<PipelineError> + Send,
    {
        let mut source = source.into_iter().fuse();
        // A source of one item (a small input: one batch) needs no pool;
        // starting one would cost more than the work.
        let first = source.next();
        let second = match first {
            Some(_) if self.jobs > 1 => source.next(),
            _ => None,
        };
        if second.is_none() {
            for item in first.into_iter().chain(source) {
                sink(work(item?))?;
            }
            return Ok(());
        }
        let source = first.into_iter().chain(second).chain(source);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.jobs)
            .thread_name(|i| format!("pgnkit-worker-{i}"))
            .build()
            .map_err(|source| PipelineError::Pool {
                jobs: self.jobs,
                source,
            })?;
        let work = &work;
        let in_flight_max = self.in_flight;
        // The coordination runs on one of the workers (see the module's
        // documentation): the source, the sink and the error go there and
        // back, hence their `Send` bounds.
        pool.install(move || {
            rayon::in_place_scope_fifo(|scope| {
                let (done_tx, done_rx) = mpsc::channel::<(u64, O)>();
                let mut source = source;
                let mut waiting: BTreeMap<u64, O> = BTreeMap::new();
                let (mut next_read, mut next_write, mut in_flight) = (0u64, 0u64, 0usize);
                let mut exhausted = false;
                // An error of the source, returned once the items before
                // it are written.
                let mut failed = None;
                loop {
                    while !exhausted && in_flight < in_flight_max {
                        match source.next() {
                            Some(Err(err)) => {
                                failed = Some(err);
                                exhausted = true;
                            }
                            Some(Ok(item)) => {
                                let done_tx = done_tx.clone();
                                let seq = next_read;
                                // First in, first out: the items before an
                                // item are started before it (pieces of a
                                // file are settled in order).
                                scope.spawn_fifo(move |_| {
                                    // The receiver is gone only when the run
                                    // was abandoned; the result is then
                                    // unwanted.
                                    let _ = done_tx.send((seq, work(item)));
                                });
                                next_read += 1;
                                in_flight += 1;
                            }
                            None => exhausted = true,
                        }
                    }
                    if in_flight == 0 {
                        return failed.map_or(Ok(()), Err);
                    }
                    let (seq, out) = loop {
                        match done_rx.try_recv() {
                            Ok(done) => break done,
                            Err(mpsc::TryRecvError::Empty) => {}
                            Err(mpsc::TryRecvError::Disconnected) => {
                                return Err(PipelineError::WorkerLost.into());
                            }
                        }
                        if rayon::yield_now() != Some(rayon::Yield::Executed) {
                            // Nothing left to start: every item in flight
                            // is with another worker.
                            break done_rx.recv().map_err(|_| PipelineError::WorkerLost)?;
                        }
                    };
                    waiting.insert(seq, out);
                    while let Some(out) = waiting.remove(&next_write) {
                        next_write += 1;
                        in_flight -= 1;
                        sink(out)?;
                    }
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn collect(jobs: usize, in_flight: usize, n: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let items = (0..n).map(Ok::<u64, PipelineError>);
        // Uneven work so that results finish out of order.
        let work = |i: u64| {
            let spins = (i * 7919) % 5000;
            (0..spins).for_each(|k| {
                std::hint::black_box(k);
            });
            i
        };
        Pipeline::new(jobs)
            .with_in_flight(in_flight)
            .run(items, work, |o| {
                out.push(o);
                Ok(())
            })
            .unwrap();
        out
    }

    #[test]
    fn one_item_runs_on_the_callers_thread() {
        let caller = std::thread::current().id();
        for n in [0, 1, 2] {
            let mut threads = Vec::new();
            let items = (0..n).map(Ok::<u64, PipelineError>);
            Pipeline::new(4)
                .run(
                    items,
                    |_| std::thread::current().id(),
                    |id| {
                        threads.push(id);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(threads.len(), n as usize);
            let on_caller = threads.iter().filter(|&&id| id == caller).count();
            assert_eq!(on_caller, if n == 2 { 0 } else { n as usize }, "{n} items");
        }
    }

    #[test]
    fn one_of_the_workers_coordinates() {
        // With 2 jobs the work and the sink run on the pool's two threads:
        // the caller's thread only waits.
        let caller = std::thread::current().id();
        let (mut workers, mut writers) = (HashSet::new(), HashSet::new());
        let items = (0..200u64).map(Ok::<u64, PipelineError>);
        let work = |i: u64| {
            (0..(i % 7) * 1000).for_each(|k| {
                std::hint::black_box(k);
            });
            std::thread::current().id()
        };
        Pipeline::new(2)
            .run(items, work, |id| {
                workers.insert(id);
                writers.insert(std::thread::current().id());
                Ok::<(), PipelineError>(())
            })
            .unwrap();
        assert!(!workers.contains(&caller) && !writers.contains(&caller));
        assert_eq!(writers.len(), 1);
        assert!(workers.len() <= 2, "{} threads", workers.len());
    }

    #[test]
    fn output_is_in_input_order() {
        let expected: Vec<u64> = (0..2000).collect();
        for (jobs, in_flight) in [(1, 1), (2, 1), (2, 3), (4, 16)] {
            assert_eq!(collect(jobs, in_flight, 2000), expected, "jobs {jobs}");
        }
    }

    #[test]
    fn source_error_stops_the_run() {
        #[derive(Debug, PartialEq)]
        enum E {
            Source,
            Pipeline,
        }
        impl From<PipelineError> for E {
            fn from(_: PipelineError) -> E {
                E::Pipeline
            }
        }
        for (jobs, in_flight) in [(1, 1), (2, 1), (2, 8), (4, 3)] {
            let mut seen = Vec::new();
            let items = (0..10).map(|i| if i == 5 { Err(E::Source) } else { Ok(i) });
            let result = Pipeline::new(jobs).with_in_flight(in_flight).run(
                items,
                |i| i,
                |o| {
                    seen.push(o);
                    Ok(())
                },
            );
            assert_eq!(result, Err(E::Source));
            assert_eq!(seen, vec![0, 1, 2, 3, 4]);
        }
    }

    #[test]
    fn sink_error_stops_the_run() {
        let items = (0..1000u32).map(Ok::<u32, PipelineError>);
        let mut written = 0;
        let result = Pipeline::new(2).run(
            items,
            |i| i,
            |_| {
                written += 1;
                if written == 10 {
                    Err(PipelineError::WorkerLost)
                } else {
                    Ok(())
                }
            },
        );
        assert!(matches!(result, Err(PipelineError::WorkerLost)));
        assert_eq!(written, 10);
    }
}
