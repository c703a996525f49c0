//! `pgnkit split`: write the games to several files, by a tag's value, by
//! count, or by an expression, byte for byte.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write as _};
use std::path::PathBuf;

use clap::Args;
use pgnkit::engine::{Item, PooledReplayer};
use pgnkit::filter::read_tags;
use pgnkit::replay::ReplayOptions;

use super::Exit;
use super::args::{Inputs, Jobs, Letters, PGN_FILES, Run, ShowProgress, WORKERS};
use super::filter::Matcher;
use super::message;
use super::output::{gap_after, last_byte, last_mark, not_a_file, refuse_overwriting_inputs};
use super::report::{Done, Merge};
use super::run::{Route, Writer, execute};

/// Write the games to several files: by a tag's value, by count, or by an expression.
///
/// By expression, the games that match and the rest are written at once.
/// Games are written byte for byte as in the input, in input order, each
/// with what follows it up to the next game. File names come from
/// --template, where {tag} is the tag's value (--by-tag), {num} the number
/// of the file (--every: 1, 2, …) and {match} `matches` or `rest` (-e).
/// A tag value is made safe for a file name: letters, digits, `-`, `_`
/// and `.` stay, every other character becomes `_` (runs of them one),
/// leading dots are dropped, at most 100 bytes are kept, and a missing or
/// empty value is `_`. Directories in the template are created.
///
/// Files are written in place; an existing file is replaced, or with
/// --append added to. A file that is one of the inputs is refused. The
/// files written are listed on standard output with their game counts.
///
/// Exit status: 0 done, 2 usage or I/O error.
#[derive(Debug, Args)]
#[command(
    verbatim_doc_comment,
    after_help = "Examples:
  pgnkit split --by-tag Event --template 'events/{tag}.pgn' games.pgn
  pgnkit split --every 2 --template 'part-{num}.pgn' games.pgn
  pgnkit split -e 'status = checkmate' --template '{match}.pgn' games.pgn
  pgnkit split --by-tag Result --append --template 'result-{tag}.pgn' games.pgn
  pgnkit split --lenient --every 5 --template 'salvaged-{num}.pgn' games.pgn",
    mut_arg("files", |a| a.help(PGN_FILES)),
    mut_arg("jobs", |a| a.help(WORKERS)),
    mut_arg("lang", |a| a.help("Piece-letter alphabet for replayed games")),
    group(clap::ArgGroup::new("how").args(["by_tag", "every", "expr"])),
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("index", |a| a.hide(true)),
)]
pub struct SplitArgs {
    #[command(flatten)]
    pub(super) inputs: Inputs,
    /// One file per value of the tag NAME.
    #[arg(long, value_name = "NAME", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    by_tag: Option<String>,
    /// A new file every N games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    every: Option<u64>,
    /// The games that match EXPR (the language of `pgnkit filter`) and the
    /// rest.
    #[arg(short, long, value_name = "EXPR")]
    expr: Option<String>,
    /// File names: {tag}, {num} or {match} stand for the part (default:
    /// `{tag}.pgn`, `{num}.pgn` or `{match}.pgn`).
    #[arg(short, long, value_name = "TEMPLATE")]
    template: Option<String>,
    /// Add to existing files instead of replacing them.
    #[arg(long)]
    append: bool,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    lang: Letters,
    #[command(flatten)]
    progress: ShowProgress,
}

/// How the games are parted.
enum How {
    Tag(String),
    Every(u64),
    Expr(Box<Matcher>),
}

impl How {
    /// The placeholder of the part in a template.
    fn placeholder(&self) -> &'static str {
        match self {
            How::Tag(_) => "{tag}",
            How::Every(_) => "{num}",
            How::Expr(_) => "{match}",
        }
    }
}

/// The part of each game of a batch (none for `--every`, which counts in
/// order).
#[derive(Default)]
struct Parts(Vec<String>);

impl Merge for Parts {
    fn merge(&mut self, _: Parts) {}
}

/// The longest part of a file name made from a tag value, in bytes.
const MAX_PART: usize = 100;

/// `value` made safe as (part of) a file name: no separator, no leading
/// dot, so never `.` or `..`.
fn safe_name(value: &str) -> String {
    let mut name = String::new();
    for c in value.chars() {
        let keep = c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
        let c = if keep { c } else { '_' };
        if (c == '_' && name.ends_with('_')) || (c == '.' && name.is_empty()) {
            continue;
        }
        if name.len() + c.len_utf8() > MAX_PART {
            break;
        }
        name.push(c);
    }
    if name.is_empty() {
        return "_".to_string();
    }
    name
}

/// Bytes of games held for the files before they are written: files are
/// opened only to write what they hold, so an archive split into
/// thousands of files is not a run of thousands of opens per game.
const HELD_BYTES: usize = 32 << 20;

/// A file of a split: what it holds until written, and its totals.
struct Part {
    path: PathBuf,
    held: Vec<u8>,
    /// What decides the gap before the next record ([`last_mark`]): a
    /// line break before the first.
    last: u8,
    /// Whether the file was opened in this run.
    opened: bool,
    games: u64,
}

/// The files of a split, in the order they were first written.
struct Files {
    template: String,
    placeholder: &'static str,
    every: Option<u64>,
    append: bool,
    inputs: Vec<PathBuf>,
    /// Games routed so far.
    index: u64,
    parts: Vec<Part>,
    by_name: HashMap<String, usize>,
    held: usize,
}

impl Files {
    /// The part named `name` (its value in the template), added the first
    /// time: its path is checked and its directory made.
    fn part(&mut self, name: String) -> io::Result<&mut Part> {
        let slot = match self.by_name.get(&name) {
            Some(&slot) => slot,
            None => {
                let path = PathBuf::from(self.template.replace(self.placeholder, &name));
                if let Some(why) = not_a_file(&path) {
                    return Err(io::Error::other(format!("{}: {why}", path.display())));
                }
                let fail = |err: anyhow::Error| io::Error::other(format!("{err:#}"));
                refuse_overwriting_inputs(&path, &self.inputs).map_err(fail)?;
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    fs::create_dir_all(dir).map_err(|e| {
                        io::Error::new(e.kind(), format!("cannot make {}: {e}", dir.display()))
                    })?;
                }
                // Added to a file whose last game ends without a line
                // break, the first game is kept apart from it.
                let last = match self.append {
                    true => last_byte(&path)
                        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?
                        .unwrap_or(b'\n'),
                    false => b'\n',
                };
                self.parts.push(Part {
                    path,
                    held: Vec::new(),
                    last,
                    opened: false,
                    games: 0,
                });
                self.by_name.insert(name, self.parts.len() - 1);
                self.parts.len() - 1
            }
        };
        Ok(&mut self.parts[slot])
    }

    /// Writes what every file holds: created (or, with --append, added
    /// to) the first time, added to after.
    fn write_held(&mut self) -> io::Result<()> {
        for part in &mut self.parts {
            if part.held.is_empty() && part.opened {
                continue;
            }
            let mut options = fs::OpenOptions::new();
            if part.opened || self.append {
                options.append(true).create(true);
            } else {
                options.write(true).create(true).truncate(true);
            }
            let mut file = options
                .open(&part.path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", part.path.display())))?;
            part.opened = true;
            file.write_all(&part.held)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", part.path.display())))?;
            part.held = Vec::new();
        }
        self.held = 0;
        Ok(())
    }
}

impl Route<Parts> for Files {
    fn route(&mut self, parts: &Parts, nth: usize, record: &[u8]) -> io::Result<bool> {
        let name = match self.every {
            Some(n) => (self.index / n + 1).to_string(),
            None => parts.0.get(nth).cloned().unwrap_or_default(),
        };
        self.index += 1;
        let part = self.part(name)?;
        if record.is_empty() {
            return Ok(false);
        }
        // A game that ends its input without a line break is kept apart
        // from the next one.
        let gap = gap_after(part.last);
        part.held.extend_from_slice(gap);
        part.held.extend_from_slice(record);
        part.last = last_mark(record, part.last);
        part.games += 1;
        self.held += gap.len() + record.len();
        if self.held > HELD_BYTES {
            self.write_held()?;
        }
        Ok(true)
    }
}

/// Runs `pgnkit split`.
pub fn run(args: &SplitArgs) -> anyhow::Result<Exit> {
    if args.inputs.shard.is_some() {
        message!(
            "pgnkit: split takes no --shard: the shards would number and replace \
             the same files; split the whole input, or the shards' outputs \
             concatenated, in one run"
        );
        return Ok(Exit::Usage);
    }
    let options = ReplayOptions {
        letters: args.lang.policy(),
        lints: false,
        lenient: args.inputs.lenient,
    };
    let how = match (&args.by_tag, args.every, &args.expr) {
        (Some(tag), _, _) => How::Tag(tag.clone()),
        (_, Some(n), _) => How::Every(n),
        (_, _, Some(expr)) => match Matcher::parse(Some(expr), expr, options) {
            Some(matcher) => How::Expr(Box::new(matcher)),
            None => return Ok(Exit::Usage),
        },
        _ => {
            message!("pgnkit: split needs one of --by-tag NAME, --every N, -e EXPR");
            return Ok(Exit::Usage);
        }
    };
    let placeholder = how.placeholder();
    let template = args
        .template
        .clone()
        .unwrap_or_else(|| format!("{placeholder}.pgn"));
    if !template.contains(placeholder) {
        message!(
            "pgnkit: --template {template}: has no {placeholder}, so every game would go to one file"
        );
        return Ok(Exit::Usage);
    }
    let game = |replayer: &mut PooledReplayer, item: &Item<'_>, done: &mut Done<Parts>| {
        done.stats.games += 1;
        // A game over the size bound is reported, and written like the
        // others: to the part of a game without the tag, or to the rest.
        let part = match (&how, item.game) {
            (How::Every(_), Ok(_)) => String::new(),
            (How::Tag(name), Ok(raw)) => {
                let tags = read_tags(raw.bytes);
                let value = tags.iter().find(|t| t.is(name)).map(|t| t.value_text());
                safe_name(value.as_deref().unwrap_or(""))
            }
            (How::Expr(matcher), Ok(raw)) => match matcher.matches(replayer, &raw) {
                true => "matches".to_string(),
                false => "rest".to_string(),
            },
            (how, Err(err)) => {
                super::report::skipped(item, err, done);
                match how {
                    How::Tag(_) => safe_name(""),
                    How::Every(_) => String::new(),
                    How::Expr(_) => "rest".to_string(),
                }
            }
        };
        done.stdout.extend_from_slice(item.record);
        done.ends.push(done.stdout.len());
        done.extra.0.push(part);
    };
    let run = Run::new(&args.inputs, &args.jobs, &args.progress).records();
    let mut files = Files {
        template,
        placeholder,
        every: match how {
            How::Every(n) => Some(n),
            _ => None,
        },
        append: args.append,
        inputs: run.paths.clone(),
        index: 0,
        parts: Vec::new(),
        by_name: HashMap::new(),
        held: 0,
    };
    let mut nowhere = io::sink();
    let mut writer: Writer<'_, Parts> = Writer::new(&mut nowhere, &run).route(&mut files);
    let result = execute(&run, &mut writer, PooledReplayer::take, game);
    let (games, io_error) = (writer.stats.games, writer.io_error);
    result?;
    files.write_held()?;
    let mut stdout = io::stdout().lock();
    for part in &files.parts {
        writeln!(stdout, "{}\t{}", part.path.display(), part.games)?;
    }
    message!(
        "pgnkit split: {games} games into {} files",
        files.parts.len()
    );
    Ok(if io_error { Exit::Usage } else { Exit::Ok })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_become_safe_file_names() {
        for (value, name) in [
            ("Tata Steel 2024", "Tata_Steel_2024"),
            ("../../etc/passwd", "_.._etc_passwd"),
            ("..", "_"),
            (".hidden", "hidden"),
            ("", "_"),
            ("?", "_"),
            ("a/b\\c:d", "a_b_c_d"),
            ("Ünterföhring", "Ünterföhring"),
            ("1-0", "1-0"),
            ("1/2-1/2", "1_2-1_2"),
        ] {
            assert_eq!(safe_name(value), name, "{value}");
        }
        assert_eq!(safe_name(&"x".repeat(500)).len(), MAX_PART);
    }
}
