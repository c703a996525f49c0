//! `pgnkit perft`: count the leaf nodes of the legal move tree.

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pgnkit::{Position, divide, perft};

use super::Exit;
use super::message;

/// Count legal move sequences of a given length (move-generator test).
///
/// Prints the node count on stdout (with --divide first one line per root
/// move, in UCI); the speed goes to stderr.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit perft startpos 5
  pgnkit perft --divide 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3")]
pub struct PerftArgs {
    /// The position: a FEN (4 or 6 fields) or `startpos`.
    fen: String,
    /// The number of plies.
    depth: u32,
    /// Print the node count below each root move.
    #[arg(long)]
    divide: bool,
}

/// Runs `pgnkit perft`.
pub fn run(args: &PerftArgs) -> anyhow::Result<Exit> {
    let pos = if args.fen == "startpos" {
        Position::startpos()
    } else {
        match Position::from_fen(&args.fen) {
            Ok(pos) => pos,
            Err(err) => {
                message!("pgnkit perft: {err}");
                return Ok(Exit::Usage);
            }
        }
    };
    let start = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let nodes = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            writeln!(out, "{} {n}", m.uci(pos.is_chess960())).context("writing to stdout")?;
            total += n;
        }
        writeln!(out).context("writing to stdout")?;
        total
    } else {
        perft(&pos, args.depth)
    };
    writeln!(out, "{nodes}").context("writing to stdout")?;
    out.flush().context("writing to stdout")?;
    let secs = start.elapsed().as_secs_f64();
    message!(
        "{nodes} nodes in {secs:.3} s ({:.1} Mnodes/s)",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(Exit::Ok)
}
