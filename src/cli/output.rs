//! Where results go: standard output or a file, buffered for the situation.
//!
//! On a terminal output is line-buffered, so a person sees each line as it
//! is made; into a pipe or file it is block-buffered, which is much faster.
//!
//! `-o FILE` never destroys: the results are written to a temporary file
//! beside the target (`.FILE.pgnkit-PID.tmp`), which is moved into place
//! only when every input was read ([`Output::close`]). A run that stops on
//! an error, or that SIGINT, SIGTERM or SIGHUP ends, removes the temporary
//! file and leaves an existing FILE as it was. The output refuses to be a
//! directory or one of the inputs, before any input is read, and its
//! messages name FILE as given, never the temporary file. A FILE that is
//! a symbolic link stays one: the file it names is replaced, beside
//! which the temporary file is made. The file replaced keeps its
//! permissions.

use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use anyhow::{Context, bail};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::Exit;

/// A buffered destination for results.
pub struct Output {
    sink: Sink,
    /// For `-o FILE`: FILE as given, for messages.
    target: Option<PathBuf>,
    /// For a regular FILE: the temporary file written until it is moved
    /// into place.
    temporary: Option<PathBuf>,
    /// For a regular FILE: where the temporary file is moved, FILE or,
    /// when FILE is a symbolic link, the file it names.
    destination: Option<PathBuf>,
    /// Written before the first bytes: the blank line that keeps them apart
    /// from a file appended to whose last game ends without a line break.
    gap: &'static [u8],
}

enum Sink {
    Line(LineWriter<io::Stdout>),
    Block(BufWriter<Box<dyn Write + Send>>),
}

impl Output {
    /// Opens standard output, or `path` if given; `inputs` are the files the
    /// run reads, which the output must not replace.
    ///
    /// # Errors
    /// `path` is a directory or one of the inputs, or it cannot be
    /// created; the message names `path`.
    pub fn open(path: Option<&Path>, inputs: &[PathBuf]) -> anyhow::Result<Output> {
        let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
            let stdout = io::stdout();
            let sink = if stdout.is_terminal() {
                Sink::Line(LineWriter::new(stdout))
            } else {
                Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(stdout)))
            };
            return Ok(Output {
                sink,
                target: None,
                temporary: None,
                destination: None,
                gap: b"",
            });
        };
        refuse_directories(path)?;
        refuse_overwriting_inputs(path, inputs)?;
        if is_special(path) {
            // A device or pipe (`-o /dev/null`, a FIFO) is written in
            // place: renaming a temporary file over it would replace it.
            let file = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            return Ok(Output {
                sink: Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(file))),
                target: Some(path.to_path_buf()),
                temporary: None,
                destination: None,
                gap: b"",
            });
        }
        remove_temporaries_on_signals();
        let destination = follow_links(path);
        let tmp = temporary_name(&destination);
        let file = {
            // Created and registered under one lock: a signal handled in
            // between would miss the file.
            let mut temporaries = temporaries();
            let file =
                File::create(&tmp).with_context(|| format!("cannot create {}", path.display()))?;
            temporaries.push(tmp.clone());
            file
        };
        if let Ok(existing) = fs::metadata(&destination) {
            // The file open for writing stays writable whatever its mode.
            file.set_permissions(existing.permissions())
                .with_context(|| format!("cannot create {}", path.display()))?;
        }
        Ok(Output {
            sink: Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(file))),
            target: Some(path.to_path_buf()),
            temporary: Some(tmp),
            destination: Some(destination),
            gap: b"",
        })
    }

    /// Opens `path` to add to its end (`--append`): created if missing,
    /// written in place, so a run that fails leaves what it wrote. When
    /// the file's last game ends without a line break, the first game
    /// added is kept apart from it by a blank line.
    ///
    /// # Errors
    /// `path` is a directory or one of the inputs, or it cannot be opened.
    pub fn append(path: &Path, inputs: &[PathBuf]) -> anyhow::Result<Output> {
        if let Some(why) = not_a_file(path) {
            bail!("--append {}: {why}", path.display());
        }
        refuse_overwriting_inputs(path, inputs)?;
        let file = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let last = last_byte(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Output {
            sink: Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(file))),
            target: Some(path.to_path_buf()),
            temporary: None,
            destination: None,
            gap: gap_after(last.unwrap_or(b'\n')),
        })
    }

    /// Ends the output of a run that ends with `exit`, and returns `exit`.
    ///
    /// A file is moved into place unless an input could not be read
    /// ([`Exit::Usage`]): then its temporary file is removed and an
    /// existing file stays as it was. A run whose games had errors
    /// ([`Exit::Errors`]) read every input, so its output is complete for
    /// the games that were valid and is written.
    ///
    /// # Errors
    /// The output cannot be written or moved into place.
    pub fn close(self, exit: Exit) -> anyhow::Result<Exit> {
        if exit == Exit::Usage {
            self.abort();
        } else {
            self.finish()?;
        }
        Ok(exit)
    }

    /// Flushes everything and, for a file, moves it into place.
    ///
    /// # Errors
    /// The output cannot be written or moved into place.
    pub fn finish(mut self) -> anyhow::Result<()> {
        if let Err(err) = self.flush() {
            return Err(match &self.target {
                Some(path) => {
                    anyhow::Error::new(err).context(format!("cannot write {}", path.display()))
                }
                None => err.into(),
            });
        }
        if let (Some(tmp), Some(path), Some(destination)) =
            (self.temporary.take(), &self.target, &self.destination)
        {
            let mut temporaries = temporaries();
            let moved = fs::rename(&tmp, destination);
            if moved.is_err() {
                let _ = fs::remove_file(&tmp);
            }
            forget(&mut temporaries, &tmp);
            moved.with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }

    /// Writes the gap before the first bytes written.
    #[cold]
    fn write_gap(&mut self) -> io::Result<()> {
        let gap = std::mem::take(&mut self.gap);
        match &mut self.sink {
            Sink::Line(w) => w.write_all(gap),
            Sink::Block(w) => w.write_all(gap),
        }
    }

    /// Gives up: what went to standard output or a device stays there, a
    /// temporary file is removed.
    pub fn abort(mut self) {
        if self.temporary.is_none() {
            let _ = self.flush();
        }
        // Dropping removes the temporary file.
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // Not finished: the run failed, so the partial file must not survive.
        if let Some(tmp) = self.temporary.take() {
            let mut temporaries = temporaries();
            let _ = fs::remove_file(&tmp);
            forget(&mut temporaries, &tmp);
        }
    }
}

/// The temporary files not yet moved into place, which a terminating
/// signal removes.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere leaves the list as valid as it was.
    TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner)
}

fn forget(temporaries: &mut Vec<PathBuf>, tmp: &Path) {
    temporaries.retain(|t| t != tmp);
}

/// From now on, SIGINT, SIGTERM and SIGHUP remove the temporary files and
/// end the process with status 128 + the signal's number (130 for
/// SIGINT), as a shell reports a process that the signal killed.
///
/// Installed only by a run that writes a temporary file, on a thread of
/// its own: the handler must take a lock and remove files, which a signal
/// handler proper may not do.
fn remove_temporaries_on_signals() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Without a handler the signals keep their default action; only
        // a temporary file may then be left behind.
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // The lock is kept until the process ends, so no
                    // temporary file is created or moved after this.
                    let temporaries = temporaries();
                    for tmp in temporaries.iter() {
                        let _ = fs::remove_file(tmp);
                    }
                    std::process::exit(128 + signal);
                }
            });
    });
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.gap.is_empty() && !buf.is_empty() {
            self.write_gap()?;
        }
        match &mut self.sink {
            Sink::Line(w) => w.write(buf),
            Sink::Block(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if !self.gap.is_empty() && !buf.is_empty() {
            self.write_gap()?;
        }
        match &mut self.sink {
            Sink::Line(w) => w.write_all(buf),
            Sink::Block(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Line(w) => w.flush(),
            Sink::Block(w) => w.flush(),
        }
    }
}

/// Game records written one after another: a record that ends without a
/// line break (the last game of a file) is kept apart from the next one
/// by a blank line ([`last_mark`]).
pub struct Joined<W> {
    /// Where the records go.
    pub out: W,
    last: u8,
}

impl<W: Write> Joined<W> {
    /// Records written to `out`.
    pub fn new(out: W) -> Joined<W> {
        Joined { out, last: b'\n' }
    }

    /// Writes one record.
    ///
    /// # Errors
    /// The output cannot be written.
    pub fn record(&mut self, record: &[u8]) -> io::Result<()> {
        if record.is_empty() {
            return Ok(());
        }
        self.out.write_all(gap_after(self.last))?;
        self.out.write_all(record)?;
        self.last = last_mark(record, self.last);
        Ok(())
    }
}

/// What decides the gap after `record`, written after text that `before`
/// decided: its last byte other than a space or a tab. A record holds
/// what follows its game up to the next game, and so the blanks that
/// begin the next game's line (`*\n\n  [Event`): they need no gap.
pub fn last_mark(record: &[u8], before: u8) -> u8 {
    record
        .iter()
        .rev()
        .copied()
        .find(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(before)
}

/// What keeps a game apart from text whose last byte is `last`: nothing
/// after a line break, else a blank line.
pub fn gap_after(last: u8) -> &'static [u8] {
    if matches!(last, b'\n' | b'\r') {
        b""
    } else {
        b"\n\n"
    }
}

/// The last byte of the regular file at `path`; `None` when it is
/// missing, empty, or no regular file (a device or a pipe is not read).
///
/// # Errors
/// The file exists but cannot be read.
pub fn last_byte(path: &Path) -> io::Result<Option<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > 0 => {
            let mut file = File::open(path)?;
            file.seek(SeekFrom::End(-1))?;
            let mut last = [0];
            file.read_exact(&mut last)?;
            Ok(Some(last[0]))
        }
        _ => Ok(None),
    }
}

/// Whether `path` exists and is not a regular file (a device, a FIFO).
fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Whether the paths `a` and `b` name one file: the same file under any
/// names (links, `.` and `..`) when both exist, else the same name in the
/// same directory.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => same_node(a, &x, b, &y),
        (Err(_), Err(_)) => place(a).is_some_and(|place_a| place(b) == Some(place_a)),
        _ => false,
    }
}

#[cfg(unix)]
fn same_node(_: &Path, a: &fs::Metadata, _: &Path, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_node(a: &Path, _: &fs::Metadata, b: &Path, _: &fs::Metadata) -> bool {
    fs::canonicalize(a).is_ok_and(|a| fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// A file that does not exist (yet) as its directory's canonical path and
/// its name.
fn place(path: &Path) -> Option<PathBuf> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

/// The file that `path` names: `path`, or, when it is a symbolic link, the
/// file at the end of its links (which may not exist yet). A loop of
/// links is left to the creation of the file, which reports it.
fn follow_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as Linux follows.
    for _ in 0..40 {
        let Ok(link) = fs::read_link(&path) else {
            return path;
        };
        path = match path.parent() {
            Some(dir) if link.is_relative() => dir.join(link),
            _ => link,
        };
    }
    path
}

fn temporary_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.pgnkit-{}.tmp", std::process::id()))
}

/// A directory cannot be the output: neither one that exists nor a name
/// that ends in a separator (`-o out/`).
pub fn refuse_directories(path: &Path) -> anyhow::Result<()> {
    match not_a_file(path) {
        Some(why) => bail!("-o {}: {why}", path.display()),
        None => Ok(()),
    }
}

/// Why `path` cannot be a file to write, if it cannot: it is a
/// directory, or its name is empty or ends in a separator.
pub fn not_a_file(path: &Path) -> Option<&'static str> {
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Some("is a directory");
    }
    let text = path.as_os_str().as_encoded_bytes();
    if text.is_empty()
        || text
            .last()
            .is_some_and(|&b| std::path::is_separator(b.into()))
    {
        return Some("not a file name");
    }
    None
}

/// Refuses an output file that is one of the inputs: the same path, a
/// symbolic or a hard link to it, or the file standard input reads when
/// it is an input (`filter --append g.pgn < g.pgn` would read its own
/// output for ever).
pub fn refuse_overwriting_inputs(path: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    // Only a file can be overwritten: a device (`/dev/null`) or a pipe
    // may be an input and an output at once.
    let target = match fs::metadata(path) {
        Ok(target) if target.is_file() => target,
        _ => return Ok(()), // no file (yet), so it is no input
    };
    let stdin = Path::new("-");
    for input in inputs.iter().filter(|input| *input != stdin) {
        if same_file(path, input) {
            bail!(
                "refusing to write to {}: it is one of the inputs",
                path.display()
            );
        }
    }
    let reads_stdin = inputs.is_empty() || inputs.iter().any(|input| input == stdin);
    if reads_stdin && stdin_reads(path, &target) {
        bail!(
            "refusing to write to {}: standard input reads it",
            path.display()
        );
    }
    Ok(())
}

/// Whether standard input reads the file at `path`, of metadata `target`.
#[cfg(unix)]
fn stdin_reads(path: &Path, target: &fs::Metadata) -> bool {
    use std::os::fd::AsFd as _;
    std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .and_then(|fd| fs::File::from(fd).metadata().ok())
        .is_some_and(|stdin| same_node(Path::new("-"), &stdin, path, target))
}

/// Elsewhere standard input cannot be told from its metadata.
#[cfg(not(unix))]
fn stdin_reads(_: &Path, _: &fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_dev_null_is_written_in_place_not_replaced() {
        assert!(is_special(Path::new("/dev/null")));
        assert!(!is_special(Path::new("Cargo.toml")));
        assert!(!is_special(Path::new("no-such-file")));
        let mut out = Output::open(Some(Path::new("/dev/null")), &[]).unwrap();
        assert!(out.temporary.is_none());
        out.write_all(b"x").unwrap();
        out.finish().unwrap();
        let meta = fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null became a regular file");
    }

    #[test]
    fn file_output_appears_only_when_finished() {
        let dir = std::env::temp_dir().join(format!("pgnkit-output-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.txt");
        let mut out = Output::open(Some(&target), &[]).unwrap();
        out.write_all(b"hello\n").unwrap();
        assert!(!target.exists());
        out.finish().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"hello\n");

        let mut out = Output::open(Some(&dir.join("dropped.txt")), &[]).unwrap();
        out.write_all(b"partial").unwrap();
        drop(out);
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "temporary file left behind"
        );

        let err = Output::open(Some(&target), std::slice::from_ref(&target))
            .err()
            .unwrap();
        assert!(err.to_string().contains("one of the inputs"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn close_replaces_the_file_unless_an_input_was_not_read() {
        let dir = std::env::temp_dir().join(format!("pgnkit-close-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.txt");
        for (exit, expected) in [
            (Exit::Usage, b"old\n"),
            (Exit::Errors, b"new\n"),
            (Exit::Ok, b"new\n"),
        ] {
            fs::write(&target, b"old\n").unwrap();
            let mut out = Output::open(Some(&target), &[]).unwrap();
            let tmp = out.temporary.clone().unwrap();
            assert!(temporaries().contains(&tmp));
            out.write_all(b"new\n").unwrap();
            assert_eq!(out.close(exit).unwrap(), exit);
            assert_eq!(fs::read(&target).unwrap(), expected, "{exit:?}");
            assert!(!tmp.exists(), "{exit:?}");
            assert!(!temporaries().contains(&tmp), "{exit:?}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_file_is_found_under_other_names() {
        let dir = std::env::temp_dir().join(format!("pgnkit-same-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("a"), b"a").unwrap();
        fs::write(dir.join("b"), b"b").unwrap();
        fs::hard_link(dir.join("a"), dir.join("hard")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("a"), dir.join("soft")).unwrap();
        let at = |name: &str| dir.join(name);
        for (a, b, same) in [
            (at("a"), at("a"), true),
            (at("a"), at("sub/../a"), true),
            (at("a"), at("./a"), true),
            (at("a"), at("hard"), true),
            (at("a"), at("b"), false),
            (at("new"), at("sub/../new"), true),
            (at("new"), at("new"), true),
            (at("new"), at("sub/new"), false),
            (at("new"), at("a"), false),
            (at("new"), at("missing/new"), false),
        ] {
            assert_eq!(same_file(&a, &b), same, "{} {}", a.display(), b.display());
            assert_eq!(same_file(&b, &a), same, "{} {}", b.display(), a.display());
        }
        #[cfg(unix)]
        assert!(same_file(&at("a"), &at("soft")));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn directories_are_refused() {
        for path in [".", "src", "src/", "no-such-dir/", ""] {
            let err = Output::open(Some(Path::new(path)), &[]).err().unwrap();
            let message = err.to_string();
            assert!(
                message.ends_with("is a directory") || message.ends_with("not a file name"),
                "{path}: {message}"
            );
        }
    }
}
