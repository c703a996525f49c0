//! `pgnkit index`: the places where a file's shards may start.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use pgnkit::shard::ShardIndex;

use super::Exit;

/// Index a file for --shard: where games start near regular places.
///
/// Frames the file once and prints, every 1 MiB of a plain file and at
/// every frame of a zstd file of several frames, where the next game
/// starts, with the games and lines before it. `--shard K/N --index
/// INDEX` then starts each shard from the nearest place instead of
/// framing all that comes before it. An index is for one file as it is:
/// it records the file's size, and a file of another size refuses it.
/// See docs/distributed.md.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit index games.pgn > games.idx
  pgnkit index games.pgn > games.idx && pgnkit tags --shard 2/3 --index games.idx games.pgn")]
pub struct IndexArgs {
    /// The PGN file, plain or zstd-compressed.
    file: PathBuf,
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> anyhow::Result<Exit> {
    let index = ShardIndex::build(&args.file)
        .with_context(|| format!("indexing {}", args.file.display()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write!(out, "{index}").context("writing to stdout")?;
    out.flush().context("writing to stdout")?;
    Ok(Exit::Ok)
}
