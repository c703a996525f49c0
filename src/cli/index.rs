//! `pgnkit index`: the places where a file's shards may start.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use pgnkit::input::InputError;
use pgnkit::shard::ShardIndex;

use super::Exit;
use super::args::OutputFile;
use super::message;
use super::output::Output;

/// Index a file for --shard: where games start near regular places.
///
/// Frames the file once and prints, every 1 MiB of a plain file and at
/// every frame of a zstd file of several frames, where the next game
/// starts, with the games and lines before it. `--shard K/N --index
/// INDEX` then starts each shard from the nearest place instead of
/// framing all that comes before it. An index is for one file as it is:
/// it records the file's size, modification time and a fingerprint of
/// its bytes, and a file that differs in any refuses it (index it again).
/// See docs/distributed.md.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit index games.pgn > games.idx
  pgnkit index -o games.idx games.pgn && pgnkit tags --shard 2/3 --index games.idx games.pgn")]
pub struct IndexArgs {
    /// The PGN file, plain or zstd-compressed (not standard input).
    file: PathBuf,
    #[command(flatten)]
    output: OutputFile,
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<Exit> {
    if args.file.as_os_str() == "-" {
        message!(
            "pgnkit: index needs a file, not standard input: an index holds places in one file"
        );
        return Ok(Exit::Usage);
    }
    // Opened before the file is read: a bad `-o` is found at once.
    let mut out = Output::open(args.output.path(), std::slice::from_ref(&args.file))?;
    let index = match ShardIndex::build(&args.file) {
        Ok(index) => index,
        Err(err) => {
            out.abort();
            // Most errors of the input name it already.
            if err.get_ref().is_some_and(|inner| inner.is::<InputError>()) {
                return Err(err.into());
            }
            return Err(err).with_context(|| format!("indexing {}", args.file.display()));
        }
    };
    write!(out, "{index}").context("writing the index")?;
    out.close(Exit::Ok)
}
