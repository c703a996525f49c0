//! `pgnkit stats`: one summary of an archive, mergeable.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;

use anyhow::Context as _;
use clap::Args;
use pgnkit::encoding;
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::{Facts, PgnDate};
use pgnkit::opening::{Classifier, Openings};
use pgnkit::pgn::{Outcome, Span, SpareTags, Tag, value_text};
use pgnkit::replay::{MainlinePly, Observer, ReplayOptions, Status};
use serde::{Deserialize, Serialize};

use super::Exit;
use super::args::{Common, Inputs, Run, WORKERS};
use super::output::Output;
use super::report::{Done, Merge};
use super::run::{Writer, execute};

/// Summarise an archive: games, validity, results, terminations on the
/// board, result/board disagreements, plies, dates, players, events, ECO
/// tags, openings and tags.
///
/// Every game is replayed. A disagreement is a game whose Result tag is a
/// result (1-0, 0-1, 1/2-1/2) other than the one the board imposes
/// (checkmate, stalemate, dead position, fivefold, 75 moves): validate's
/// result-contradicts error. A Result tag * on such a board is counted
/// apart, as validate warns of it apart (unknown-result). Dates are the earliest and latest days
/// the Date tags allow (fully unknown dates are left out). `eco` counts
/// the ECO tags as written, `openings` the ECO code and name of the
/// opening each mainline reaches (the lichess opening table, see
/// docs/openings.md).
///
/// --json writes the summary as one JSON object with complete counts (a
/// ply histogram, every player, event, ECO code and tag), so summaries of
/// parts can be merged exactly: pgnkit stats --merge a.json b.json
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  pgnkit stats games.pgn
  pgnkit stats --top 3 games.pgn
  pgnkit stats --json games.pgn > part.json && pgnkit stats --merge part.json part.json
  pgnkit stats --json --shard 1/2 games.pgn > 1.json && pgnkit stats --json --shard 2/2 games.pgn > 2.json && pgnkit stats --merge 1.json 2.json
  pgnkit stats --lenient games.pgn",
    mut_arg("files", |a| a.help(
        "PGN files, plain or compressed (`-` or none: standard input); with --merge: JSON summaries"
    )),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet")),
)]
pub struct StatsArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// Write the summary as JSON.
    #[arg(long)]
    json: bool,
    /// The inputs are JSON summaries (from --json): merge them.
    #[arg(long)]
    merge: bool,
    /// How many of the most frequent players, events, ECO tags and openings
    /// to show.
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
    #[serde(serialize_with = "sorted")]
    results: Counts,
    #[serde(serialize_with = "sorted")]
    terminations: Counts,
    disagreements: u64,
    /// Games whose Result tag is `*` though the board imposes a result.
    /// Summaries written before it was counted merge as having none.
    #[serde(default)]
    unknown_results: u64,
    /// Games by mainline plies.
    plies: BTreeMap<u32, u64>,
    first_day: Option<u32>,
    last_day: Option<u32>,
    #[serde(serialize_with = "sorted")]
    players: Counts,
    #[serde(serialize_with = "sorted")]
    events: Counts,
    #[serde(serialize_with = "sorted")]
    eco: Counts,
    /// Games by the opening found on the board, `ECO name`. Summaries
    /// written before it was counted merge as having none.
    #[serde(serialize_with = "sorted", default)]
    openings: Counts,
    #[serde(serialize_with = "sorted")]
    tags: Counts,
    /// What the games of a batch counted, not yet in the counts below.
    #[serde(skip)]
    seen: Seen,
    /// The texts counted, as written (tag values escaped, in the input's
    /// encoding), by field: each is made text once, however many games
    /// it has ([`Summary::settle`]), and then counted in the maps above.
    #[serde(skip)]
    written: [RawCounts; FIELDS],
}

/// The counts of a batch's games, for [`Summary::merge_from`] to add: the
/// texts as written, one after the other, so that a game adds no key of
/// its own to a map (no allocation for each game and text).
#[derive(Debug, Default, Clone, PartialEq)]
struct Seen {
    text: Vec<u8>,
    /// Each text's count and its end in `text`.
    keys: Vec<(Field, usize)>,
    /// Each game's mainline plies.
    plies: Vec<u32>,
}

/// Which counts of a [`Summary`] a text of [`Seen`] is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Results,
    Terminations,
    Players,
    Events,
    Eco,
    Openings,
    Tags,
}

/// The number of [`Field`]s.
const FIELDS: usize = 7;

impl Field {
    const ALL: [Field; FIELDS] = [
        Field::Results,
        Field::Terminations,
        Field::Players,
        Field::Events,
        Field::Eco,
        Field::Openings,
        Field::Tags,
    ];

    /// The text of `written`, a text of this field as written: a tag
    /// value's escapes resolved and decoded (a Result in export format,
    /// when it spells one: [`Outcome::from_tag`]), a tag name decoded, the
    /// others (pgnkit's own names) as they are.
    fn text(self, written: &[u8]) -> String {
        match self {
            Field::Results => Outcome::from_tag(written).map_or_else(
                || value_text(written).trim().to_owned(),
                |outcome| outcome.as_str().to_owned(),
            ),
            Field::Players | Field::Events | Field::Eco => value_text(written).into_owned(),
            Field::Tags => encoding::decode(written).into_owned(),
            Field::Terminations | Field::Openings => String::from_utf8_lossy(written).into_owned(),
        }
    }
}

impl Seen {
    /// One more game counted under `key`, written in `parts`.
    fn count(&mut self, field: Field, parts: &[&[u8]]) {
        for part in parts {
            self.text.extend_from_slice(part);
        }
        self.keys.push((field, self.text.len()));
    }

    fn clear(&mut self) {
        self.text.clear();
        self.keys.clear();
        self.plies.clear();
    }
}

/// Games by a text: hashed, since every game looks up several (a tree
/// compared strings at every level), and written in sorted order. The
/// hasher is fast and randomly seeded (names in an archive cannot be
/// chosen to collide); no output depends on its order.
type Counts = HashMap<String, u64, foldhash::fast::RandomState>;

/// Games by a text as written ([`Summary::settle`] makes it text).
type RawCounts = HashMap<Vec<u8>, u64, foldhash::fast::RandomState>;

fn sorted<S: serde::Serializer>(counts: &Counts, s: S) -> Result<S::Ok, S::Error> {
    counts.iter().collect::<BTreeMap<_, _>>().serialize(s)
}

/// Adds the counts of `from`, moving its keys (the larger map is kept).
fn add_counts<K: Eq + std::hash::Hash>(
    into: &mut HashMap<K, u64, foldhash::fast::RandomState>,
    mut from: HashMap<K, u64, foldhash::fast::RandomState>,
) {
    if into.len() < from.len() {
        std::mem::swap(into, &mut from);
    }
    for (k, n) in from {
        *into.entry(k).or_default() += n;
    }
}

/// Counts one more `key`, allocating only for a key not seen before.
fn count(into: &mut RawCounts, key: &[u8]) {
    match into.get_mut(key) {
        Some(count) => *count += 1,
        None => {
            into.insert(key.to_owned(), 1);
        }
    }
}

impl Merge for Summary {
    fn merge(&mut self, mut other: Summary) {
        self.merge_from(&mut other);
    }

    fn merge_from(&mut self, other: &mut Summary) {
        let mut seen = std::mem::take(&mut other.seen);
        let mut start = 0;
        for &(field, end) in &seen.keys {
            count(&mut self.written[field as usize], &seen.text[start..end]);
            start = end;
        }
        for &plies in &seen.plies {
            *self.plies.entry(plies).or_default() += 1;
        }
        seen.clear();
        self.add(std::mem::take(other));
        other.seen = seen;
    }
}

impl Summary {
    /// Counts the texts counted as written: each is made text once, and
    /// texts written differently that read the same (escaped or not, in
    /// UTF-8 or Windows-1252) count together.
    fn settle(&mut self) {
        for field in Field::ALL {
            let written = std::mem::take(&mut self.written[field as usize]);
            let counts = self.counts(field);
            for (text, n) in written {
                *counts.entry(field.text(&text)).or_default() += n;
            }
        }
    }

    /// The counts of `field`.
    fn counts(&mut self, field: Field) -> &mut Counts {
        match field {
            Field::Results => &mut self.results,
            Field::Terminations => &mut self.terminations,
            Field::Players => &mut self.players,
            Field::Events => &mut self.events,
            Field::Eco => &mut self.eco,
            Field::Openings => &mut self.openings,
            Field::Tags => &mut self.tags,
        }
    }

    /// Adds another summary (its counts, not what it has seen).
    fn add(&mut self, other: Summary) {
        self.games += other.games;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.syntax_errors += other.syntax_errors;
        self.unsupported += other.unsupported;
        self.disagreements += other.disagreements;
        self.unknown_results += other.unknown_results;
        add_counts(&mut self.results, other.results);
        add_counts(&mut self.terminations, other.terminations);
        for (&plies, &n) in &other.plies {
            *self.plies.entry(plies).or_default() += n;
        }
        add_counts(&mut self.players, other.players);
        add_counts(&mut self.events, other.events);
        add_counts(&mut self.eco, other.eco);
        add_counts(&mut self.openings, other.openings);
        add_counts(&mut self.tags, other.tags);
        for (into, from) in self.written.iter_mut().zip(other.written) {
            add_counts(into, from);
        }
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

fn top(counts: &Counts, n: usize) -> Vec<(&str, u64)> {
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
    let list = |m: &Counts| {
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
    let _ = writeln!(o, "result tag * on a finished board: {}", s.unknown_results);
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
        ("openings", &s.openings),
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

/// The tags of a game and its opening, shown by its replay.
struct TagList<'a>(Vec<Tag<'a>>, Classifier);

impl<'a> Observer<'a> for TagList<'a> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8], span: Span) {
        self.0.push(Tag { name, value, span });
    }

    fn mainline_ply(&mut self, ply: MainlinePly<'_>) {
        self.1.push(ply.ply, ply.position);
    }
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
        anyhow::ensure!(
            args.inputs.shard.is_none(),
            "--shard reads PGN: merge the shards' summaries whole"
        );
        for path in &args.inputs.files {
            let text =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let part: Summary = serde_json::from_slice(&text)
                .with_context(|| format!("{} is no pgnkit stats --json summary", path.display()))?;
            total.add(part);
        }
    } else {
        // Built before the workers start, on every thread.
        Openings::get();
        let options = ReplayOptions {
            letters: args.common.lang.policy(),
            lints: false,
            lenient: args.inputs.lenient,
        };
        let game = |(replayer, spare): &mut (PooledReplayer, SpareTags),
                    item: &Item<'_>,
                    done: &mut Done<Summary>| {
            // Counted for the progress bar too.
            done.stats.games += 1;
            let s = &mut done.extra;
            s.games += 1;
            let raw = match item.game {
                Ok(raw) => raw,
                Err(err) => {
                    s.invalid += 1;
                    super::report::skipped(item, err, done);
                    return;
                }
            };
            // The tags as the replay reads them: the tag section is read once.
            let mut tags = TagList(spare.take(), Classifier::new());
            let replay = replayer.observe(&raw, &options, &mut tags);
            let facts = Facts {
                tags: tags.0,
                replay: None,
                hits: Vec::new(),
                timeline: None,
                opening: tags.1.opening(),
            };
            match replay.status {
                Status::Valid => s.valid += 1,
                Status::Invalid => s.invalid += 1,
                Status::SyntaxError => s.syntax_errors += 1,
                Status::Unsupported => s.unsupported += 1,
            }
            // Texts are counted as written, and made text once each.
            let written = |name: &str| facts.tag_written(name);
            let seen = &mut s.seen;
            seen.count(Field::Results, &[written("Result").unwrap_or(b"(none)")]);
            let termination = replay.termination_name();
            seen.count(Field::Terminations, &[termination.as_bytes()]);
            // As validate tells them apart: a contradiction, and `*` on a
            // finished board.
            match (
                replay.termination.and_then(|t| t.outcome()),
                replay.result_tag,
            ) {
                (Some(_), Some(Outcome::Unknown)) => s.unknown_results += 1,
                (Some(board), Some(tag)) if board != tag => s.disagreements += 1,
                _ => {}
            }
            s.seen.plies.push(replay.plies);
            if let Some(date) = facts.tag("Date").and_then(|d| d.parse::<PgnDate>().ok())
                && !date.is_unknown()
            {
                s.first_day = Some(s.first_day.map_or(date.first, |d| d.min(date.first)));
                s.last_day = Some(s.last_day.map_or(date.last, |d| d.max(date.last)));
            }
            for name in ["White", "Black"] {
                if let Some(p) = written(name) {
                    s.seen.count(Field::Players, &[p]);
                }
            }
            if let Some(e) = written("Event") {
                s.seen.count(Field::Events, &[e]);
            }
            if let Some(e) = written("ECO") {
                s.seen.count(Field::Eco, &[e]);
            }
            if let Some(o) = facts.opening {
                let opening = [o.eco.as_bytes(), b" ", o.name.as_bytes()];
                s.seen.count(Field::Openings, &opening);
            }
            distinct_names(&facts.tags, |name| s.seen.count(Field::Tags, &[name]));
            spare.keep(facts.tags);
        };
        let run = Run::new(&args.inputs, &args.common.jobs, &args.common.progress);
        let mut sink = std::io::sink();
        let mut writer = Writer::new(&mut sink, &run);
        execute(
            &run,
            &mut writer,
            || (PooledReplayer::take(), SpareTags::default()),
            game,
        )?;
        io_error = writer.io_error;
        total = writer.extra;
        total.settle();
    }
    if args.json {
        serde_json::to_writer(&mut out, &total)?;
        writeln!(out)?;
    } else {
        out.write_all(human(&total, args.top).as_bytes())?;
    }
    out.close(if io_error { Exit::Usage } else { Exit::Ok })
}

/// Calls `f` with the name of each tag, once for a name repeated in the
/// game: at its first pair. A game has a few tags, compared pair by pair;
/// a hostile one has a million, kept in a set.
fn distinct_names<'t>(tags: &[Tag<'t>], mut f: impl FnMut(&'t [u8])) {
    if tags.len() <= 32 {
        for (i, tag) in tags.iter().enumerate() {
            if !tags[..i].iter().any(|t| t.name == tag.name) {
                f(tag.name);
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(tags.len());
        for tag in tags {
            if seen.insert(tag.name) {
                f(tag.name);
            }
        }
    }
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
        a.add(b.clone());
        assert_eq!(a.median(), Some(20)); // 10 20 20 30 30 30: lower median
        b.plies.insert(40, 1);
        a.add(b.clone());
        assert_eq!(a.median(), Some(30));
    }

    #[test]
    fn texts_written_differently_that_read_the_same_count_together() {
        let mut total = Summary::default();
        let mut batch = Summary::default();
        // The same name in UTF-8 and in Windows-1252; a name with escapes.
        for player in [
            &b"M\xc3\xbcller, K."[..],
            b"M\xfcller, K.",
            br#"Kasparov \"Gazza\""#,
        ] {
            batch.seen.count(Field::Players, &[player]);
        }
        batch.seen.count(Field::Results, &[b" 1-0 "]);
        batch.seen.count(Field::Results, &[b"1-0"]);
        batch.seen.count(Field::Results, &[b"1/2"]);
        batch.seen.count(Field::Results, &[b"1/2-1/2"]);
        batch.seen.count(Field::Results, &[b"1/2 - 1/2"]);
        batch.seen.count(Field::Tags, &[b"White"]);
        total.merge_from(&mut batch);
        total.settle();
        assert_eq!(total.players.get("M\u{fc}ller, K."), Some(&2));
        assert_eq!(total.players.get(r#"Kasparov "Gazza""#), Some(&1));
        assert_eq!(total.results.get("1-0"), Some(&2));
        assert_eq!(total.results.get("1/2-1/2"), Some(&2));
        assert_eq!(total.results.get("1/2 - 1/2"), Some(&1));
        assert_eq!(total.tags.get("White"), Some(&1));
        assert!(total.written.iter().all(HashMap::is_empty));
    }

    #[test]
    fn what_a_batch_has_seen_is_counted_once_when_merged() {
        let mut total = Summary::default();
        let mut batch = Summary::default();
        for round in 0..2 {
            batch.games = 2;
            batch.seen.count(Field::Players, &[b"Carlsen, Magnus"]);
            batch.seen.count(Field::Players, &[b"Carlsen, Magnus"]);
            batch
                .seen
                .count(Field::Openings, &[b"B01", b" ", b"Scandinavian Defense"]);
            batch.seen.plies.extend([40, 41]);
            total.merge_from(&mut batch);
            total.settle();
            let n = round + 1;
            assert_eq!(total.games, 2 * n);
            assert_eq!(total.players.get("Carlsen, Magnus"), Some(&(2 * n)));
            assert_eq!(total.openings.get("B01 Scandinavian Defense"), Some(&n));
            assert_eq!(total.plies.get(&41), Some(&n));
            // The batch is empty for the next games, its room kept.
            assert_eq!(batch.games, 0);
            assert!(batch.seen.keys.is_empty() && batch.seen.text.capacity() > 0);
        }
    }
}
