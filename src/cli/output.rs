//! Where results go: standard output or a file, buffered for the situation.
//!
//! On a terminal output is line-buffered, so a person sees each line as it
//! is made; into a pipe or file it is block-buffered, which is much faster.
//! `-o FILE` writes to a temporary file beside the target and renames it on
//! success, so a failed run never leaves a half-written file in its place,
//! and refuses to write over any of the inputs.

use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, LineWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// A buffered destination for results.
pub struct Output {
    sink: Sink,
    /// For `-o FILE`: the temporary file and the final name.
    rename: Option<(PathBuf, PathBuf)>,
}

enum Sink {
    Line(LineWriter<io::Stdout>),
    Block(BufWriter<Box<dyn Write + Send>>),
}

impl Output {
    /// Opens standard output, or `path` if given; `inputs` are the files the
    /// run reads, which the output must not replace.
    pub fn open(path: Option<&Path>, inputs: &[PathBuf]) -> anyhow::Result<Output> {
        let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
            let stdout = io::stdout();
            let sink = if stdout.is_terminal() {
                Sink::Line(LineWriter::new(stdout))
            } else {
                Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(stdout)))
            };
            return Ok(Output { sink, rename: None });
        };
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
                rename: None,
            });
        }
        let tmp = temporary_name(path);
        let file =
            File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        Ok(Output {
            sink: Sink::Block(BufWriter::with_capacity(1 << 16, Box::new(file))),
            rename: Some((tmp, path.to_path_buf())),
        })
    }

    /// Flushes everything and, for a file, moves it into place.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.flush()?;
        if let Some((tmp, path)) = self.rename.take() {
            fs::rename(&tmp, &path)
                .with_context(|| format!("cannot move {} to {}", tmp.display(), path.display()))?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // Not finished: the run failed, so the partial file must not survive.
        if let Some((tmp, _)) = self.rename.take() {
            let _ = fs::remove_file(tmp);
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Line(w) => w.write(buf),
            Sink::Block(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
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

/// Whether `path` exists and is not a regular file (a device, a FIFO).
fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn temporary_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.pgnkit-{}.tmp", std::process::id()))
}

fn refuse_overwriting_inputs(path: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let Ok(target) = fs::canonicalize(path) else {
        return Ok(()); // does not exist yet, so it is no input
    };
    for input in inputs {
        if fs::canonicalize(input).is_ok_and(|i| i == target) {
            bail!(
                "refusing to write to {}: it is one of the inputs",
                path.display()
            );
        }
    }
    Ok(())
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
        assert!(out.rename.is_none());
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
}
