//! `pgnkit stats`: one summary of an archive, mergeable.

use std::collections::BTreeMap;
use std::io::Write as _;

use anyhow::Context as _;
use clap::Args;
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::{Facts, PgnDate};
use pgnkit::replay::{ReplayOptions, Status, termination_name};
use serde::{Deserialize, Serialize};

use super::Exit;
use super::args::{Common, Inputs, Run, WORKERS};
use super::output::Output;
use super::report::{Done, Merge};
use super::run::{Writer, execute};

/// Summarise an archive: games, validity, results, terminations on the
/// board, result/board disagreements, plies, dates, players, events, ECO
/// codes and tags.
///
/// Every game is replayed. A disagreement is a game whose Result tag
/// differs from the result the board imposes (checkmate, stalemate, dead
/// position, fivefold, 75 moves). Dates are the earliest and latest days
/// the Date tags allow (fully unknown dates are left out).
///
/// --json writes the summary as one JSON object with complete counts (a
/// ply histogram, every player, event, ECO code and tag), so summaries of
/// parts can be merged exactly: pgnkit stats --merge a.json b.json
#[derive(Debug, Args)]
#[command(
    mut_arg("files", |a| a.help(
        "PGN files, plain or compressed (`-` or none: standard input); with --merge: JSON summaries"
    )),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet")),
)]
pub struct StatsArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// Write the summary as JSON.
    #[arg(long)]
    json: bool,
    /// The inputs are JSON summaries (from --json): merge them.
    #[arg(long)]
    merge: bool,
    /// How many of the most frequent players, events and ECO codes to show.
    #[arg(long, default_value_t = 10)]
    top: usize,
    #[command(flatten)]
    common: Common,
}

/// The summary: only sums, minima, maxima and complete counts, so that two
/// summaries merge into the summary of both inputs.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    games: u64,
    valid: u64,
    invalid: u64,
    syntax_errors: u64,
    unsupported: u64,
    results: BTreeMap<String, u64>,
    terminations: BTreeMap<String, u64>,
    disagreements: u64,
    /// Games by mainline plies.
    plies: BTreeMap<u32, u64>,
    first_day: Option<u32>,
    last_day: Option<u32>,
    players: BTreeMap<String, u64>,
    events: BTreeMap<String, u64>,
    eco: BTreeMap<String, u64>,
    tags: BTreeMap<String, u64>,
}

fn add_counts<K: Ord + Clone>(into: &mut BTreeMap<K, u64>, from: &BTreeMap<K, u64>) {
    for (k, n) in from {
        *into.entry(k.clone()).or_default() += n;
    }
}

impl Merge for Summary {
    fn merge(&mut self, other: Summary) {
        self.add(&other);
    }
}

impl Summary {
    /// Adds another summary.
    fn add(&mut self, other: &Summary) {
        self.games += other.games;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.syntax_errors += other.syntax_errors;
        self.unsupported += other.unsupported;
        self.disagreements += other.disagreements;
        add_counts(&mut self.results, &other.results);
        add_counts(&mut self.terminations, &other.terminations);
        add_counts(&mut self.plies, &other.plies);
        add_counts(&mut self.players, &other.players);
        add_counts(&mut self.events, &other.events);
        add_counts(&mut self.eco, &other.eco);
        add_counts(&mut self.tags, &other.tags);
        self.first_day = [self.first_day, other.first_day]
            .into_iter()
            .flatten()
            .min();
        self.last_day = [self.last_day, other.last_day].into_iter().flatten().max();
    }

    /// The ply count at rank `k` (0-based) of the sorted games.
    fn plies_at(&self, k: u64) -> Option<u32> {
        let mut seen = 0;
        for (&plies, &n) in &self.plies {
            seen += n;
            if seen > k {
                return Some(plies);
            }
        }
        None
    }

    /// The median plies (the lower median for an even count).
    fn median(&self) -> Option<u32> {
        let n: u64 = self.plies.values().sum();
        (n > 0).then(|| self.plies_at((n - 1) / 2)).flatten()
    }
}

fn day(d: u32) -> String {
    format!("{:04}.{:02}.{:02}", d / 10000, d / 100 % 100, d % 100)
}

fn top(counts: &BTreeMap<String, u64>, n: usize) -> Vec<(&str, u64)> {
    let mut all: Vec<(&str, u64)> = counts.iter().map(|(k, &v)| (k.as_str(), v)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    all.truncate(n);
    all
}

fn human(s: &Summary, n: usize) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "games: {} ({} valid, {} invalid, {} with syntax errors, {} unsupported)",
        s.games, s.valid, s.invalid, s.syntax_errors, s.unsupported
    );
    let list = |m: &BTreeMap<String, u64>| {
        let mut v: Vec<String> = m.iter().map(|(k, n)| format!("{k} {n}")).collect();
        v.sort();
        v.join(", ")
    };
    let _ = writeln!(o, "results: {}", list(&s.results));
    let _ = writeln!(o, "on the board: {}", list(&s.terminations));
    let _ = writeln!(
        o,
        "result tag disagrees with the board: {}",
        s.disagreements
    );
    let max = s.plies.keys().next_back();
    match (s.plies.keys().next(), s.median(), max) {
        (Some(min), Some(median), Some(max)) => {
            let _ = writeln!(o, "plies: min {min}, median {median}, max {max}");
        }
        _ => o.push_str("plies: -\n"),
    }
    match (s.first_day, s.last_day) {
        (Some(a), Some(b)) => {
            let _ = writeln!(o, "dates: {} to {}", day(a), day(b));
        }
        _ => o.push_str("dates: -\n"),
    }
    for (title, counts) in [
        ("players", &s.players),
        ("events", &s.events),
        ("eco", &s.eco),
    ] {
        let _ = writeln!(o, "{title} ({} different):", counts.len());
        for (name, n) in top(counts, n) {
            let _ = writeln!(o, "  {n:>8}  {name}");
        }
    }
    let _ = writeln!(o, "tags ({} different):", s.tags.len());
    for (name, n) in top(&s.tags, usize::MAX) {
        let _ = writeln!(o, "  {n:>8}  {name}");
    }
    o
}

/// Runs `pgnkit stats`.
pub fn run(args: &StatsArgs) -> anyhow::Result<Exit> {
    // Opened before any input is read: a bad `-o` is found at once.
    let mut out = Output::open(args.common.output.path(), &args.inputs.files)?;
    let mut total = Summary::default();
    let mut io_error = false;
    if args.merge {
        anyhow::ensure!(
            !args.inputs.files.is_empty(),
            "--merge needs JSON summaries to merge"
        );
        for path in &args.inputs.files {
            let text =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let part: Summary = serde_json::from_slice(&text)
                .with_context(|| format!("{} is no pgnkit stats --json summary", path.display()))?;
            total.add(&part);
        }
    } else {
        let options = ReplayOptions {
            letters: args.common.lang.policy(),
            lints: false,
        };
        let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Summary>| {
            let s = &mut done.extra;
            s.games += 1;
            let Ok(raw) = item.game else {
                s.invalid += 1;
                return;
            };
            let game = raw.bytes;
            let facts = Facts::new(game);
            let replay = replayer.replay(&raw, &options);
            match replay.status {
                Status::Valid => s.valid += 1,
                Status::Invalid => s.invalid += 1,
                Status::SyntaxError => s.syntax_errors += 1,
                Status::Unsupported => s.unsupported += 1,
            }
            let result = facts
                .tag("Result")
                .map_or_else(|| "(none)".to_string(), |r| r.trim().to_string());
            *s.results.entry(result).or_default() += 1;
            *s.terminations
                .entry(termination_name(replay.termination).to_string())
                .or_default() += 1;
            if let (Some(board), Some(tag)) = (
                replay.termination.and_then(|t| t.outcome()),
                replay.result_tag,
            ) && board != tag
            {
                s.disagreements += 1;
            }
            *s.plies.entry(replay.plies).or_default() += 1;
            if let Some(date) = facts.tag("Date").and_then(|d| d.parse::<PgnDate>().ok())
                && !date.is_unknown()
            {
                s.first_day = Some(s.first_day.map_or(date.first, |d| d.min(date.first)));
                s.last_day = Some(s.last_day.map_or(date.last, |d| d.max(date.last)));
            }
            for name in ["White", "Black"] {
                if let Some(p) = facts.tag(name) {
                    *s.players.entry(p.into_owned()).or_default() += 1;
                }
            }
            if let Some(e) = facts.tag("Event") {
                *s.events.entry(e.into_owned()).or_default() += 1;
            }
            if let Some(e) = facts.tag("ECO") {
                *s.eco.entry(e.into_owned()).or_default() += 1;
            }
            let mut names: Vec<String> = facts
                .tags
                .iter()
                .map(|t| t.name_text().into_owned())
                .collect();
            names.sort();
            names.dedup();
            for name in names {
                *s.tags.entry(name).or_default() += 1;
            }
        };
        let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
        let mut sink = std::io::sink();
        let mut writer = Writer::new(&mut sink, &run);
        execute(&run, &mut writer, PooledReplayer::take, game)?;
        io_error = writer.io_error;
        total = writer.extra;
    }
    if args.json {
        serde_json::to_writer(&mut out, &total)?;
        writeln!(out)?;
    } else {
        out.write_all(human(&total, args.top).as_bytes())?;
    }
    out.close(if io_error { Exit::Usage } else { Exit::Ok })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_come_from_the_histogram() {
        let mut a = Summary::default();
        for (p, n) in [(10, 1), (20, 2)] {
            a.plies.insert(p, n);
        }
        let mut b = Summary::default();
        b.plies.insert(30, 3);
        assert_eq!(a.median(), Some(20));
        a.add(&b);
        assert_eq!(a.median(), Some(20)); // 10 20 20 30 30 30: lower median
        b.plies.insert(40, 1);
        a.add(&b);
        assert_eq!(a.median(), Some(30));
    }
}
