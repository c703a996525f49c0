//! What the commands that replay games report: counts over games, and
//! diagnostics as text lines on standard error or JSON lines on standard
//! output.

use std::fmt::Write as _;
use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};

use pgnkit::encoding;
use pgnkit::engine::Item;
use pgnkit::pgn::{
    LineIndex, ParsePgnError, ParsePgnErrorKind, RawGame, ReadPgnError, Span, SyntaxSummary,
    unescape,
};
use pgnkit::replay::{Diagnostic, Omitted, Replay, Severity, TERMINATION_NAMES, termination_index};

use anstyle::{AnsiColor, Style};
use clap::ValueEnum;

/// What the per-game work made of a batch of games.
#[derive(Default)]
pub struct Done<X = ()> {
    /// Bytes for standard output (after the spilled ones).
    pub stdout: Vec<u8>,
    /// Bytes for standard output moved out of memory ([`Done::spill`]).
    spilled: Option<std::fs::File>,
    spilled_len: u64,
    /// Bytes for standard error.
    pub stderr: Vec<u8>,
    /// Counts.
    pub stats: Stats,
    /// Where each output record ends in `stdout`, for a limit on the
    /// records written (`filter --first`).
    pub ends: Vec<usize>,
    /// Totals of the command's own (see [`Merge`]).
    pub extra: X,
}

/// Bytes of standard output a batch keeps in memory: past it they go to a
/// temporary file ([`Done::spill`]).
pub const SPILL_BYTES: usize = 8 << 20;

impl<X: Default> Done<X> {
    /// Empties it for the next games, keeping the buffers' capacity; the
    /// totals of its own are left to [`Merge::merge_from`], which empties
    /// them.
    pub fn clear(&mut self) {
        self.stdout.clear();
        self.spilled = None;
        self.spilled_len = 0;
        self.stderr.clear();
        self.ends.clear();
        self.stats = Stats::default();
    }
}

impl<X> Done<X> {
    /// The bytes for standard output so far, spilled ones included.
    pub fn stdout_len(&self) -> u64 {
        self.spilled_len + self.stdout.len() as u64
    }

    /// Moves the bytes for standard output to a temporary file once there
    /// are more than [`SPILL_BYTES`] of them: one game's output (every
    /// position of a game of a million plies) takes bounded memory.
    ///
    /// # Errors
    /// The temporary file cannot be made or written.
    pub fn spill(&mut self) -> io::Result<()> {
        if self.stdout.len() <= SPILL_BYTES {
            return Ok(());
        }
        let file = match &mut self.spilled {
            Some(file) => file,
            None => self.spilled.insert(tempfile::tempfile()?),
        };
        file.write_all(&self.stdout)?;
        self.spilled_len += self.stdout.len() as u64;
        self.stdout.clear();
        Ok(())
    }

    /// Cuts the bytes for standard output back to their first `len`.
    ///
    /// # Errors
    /// The temporary file cannot be cut.
    pub fn truncate_stdout(&mut self, len: u64) -> io::Result<()> {
        match len.checked_sub(self.spilled_len) {
            Some(kept) => self
                .stdout
                .truncate(usize::try_from(kept).unwrap_or(usize::MAX)),
            None => {
                self.stdout.clear();
                if let Some(file) = &mut self.spilled {
                    file.set_len(len)?;
                    file.seek(SeekFrom::Start(len))?;
                }
                self.spilled_len = len;
            }
        }
        Ok(())
    }

    /// Writes the spilled bytes for standard output, if any, to `out`
    /// (the bytes in [`Done::stdout`] follow them).
    ///
    /// # Errors
    /// Reading the temporary file or writing `out`.
    pub fn write_spilled(&mut self, out: &mut dyn io::Write) -> io::Result<()> {
        if let Some(file) = &mut self.spilled {
            file.seek(SeekFrom::Start(0))?;
            io::copy(&mut file.take(self.spilled_len), out)?;
        }
        Ok(())
    }
}

/// Totals that the batches of a run add up to.
pub trait Merge: Default {
    /// Adds the totals of the next batch.
    fn merge(&mut self, other: Self);

    /// Adds the totals of the next batch and leaves `other` empty for the
    /// batch after, with whatever room it may reuse.
    fn merge_from(&mut self, other: &mut Self) {
        self.merge(std::mem::take(other));
    }
}

impl Merge for () {
    fn merge(&mut self, (): ()) {}
}

/// Counts over games.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Games read.
    pub games: u64,
    /// Games without errors.
    pub valid: u64,
    /// Games with errors.
    pub errors: u64,
    /// Games with warnings (and no errors).
    pub warnings: u64,
    /// Games skipped: unsupported variants.
    pub unsupported: u64,
    /// Games by termination on the board, in the order of
    /// [`TERMINATION_NAMES`] (`incomplete`: not replayed to the end;
    /// `unsupported`: a variant not played).
    pub terminations: [u64; TERMINATION_NAMES.len()],
}

impl Stats {
    pub fn add(&mut self, other: &Stats) {
        self.games += other.games;
        self.valid += other.valid;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.unsupported += other.unsupported;
        for (a, b) in self.terminations.iter_mut().zip(other.terminations) {
            *a += b;
        }
    }

    /// Counts one replayed game; `errored` says whether it counts as a game
    /// with errors.
    pub fn count(&mut self, replay: &Replay, errored: bool, warned: bool) {
        self.games += 1;
        if replay.status == pgnkit::replay::Status::Unsupported {
            self.unsupported += 1;
        } else if errored {
            self.errors += 1;
        } else {
            self.valid += 1;
            if warned {
                self.warnings += 1;
            }
        }
        self.terminations[replay.termination_index()] += 1;
    }
}

/// How diagnostics are written (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// `path:line:col: severity: game N (White - Black), 23...Nf6: message`
    /// on standard error.
    #[default]
    Text,
    /// One JSON object per diagnostic and line, on standard output.
    Json,
}

/// How diagnostics are shown.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The input's name in messages.
    pub path: &'a str,
    /// Diagnostic format.
    pub format: Format,
    /// Warnings are errors.
    pub strict: bool,
    /// Text diagnostics are coloured (a terminal).
    pub colour: bool,
}

impl<'a> Context<'a> {
    /// Diagnostics of the input `path` as text, warnings as warnings,
    /// coloured if `colour`.
    pub fn text(path: &'a str, colour: bool) -> Context<'a> {
        Context {
            path,
            format: Format::Text,
            strict: false,
            colour,
        }
    }

    /// The start of a text diagnostic: `path:line:column: severity:`, the
    /// place in bold and the severity in its colour when coloured.
    fn head(&self, line: u64, column: u64, severity: Severity) -> String {
        let place = format!("{}:{line}:{column}:", self.path);
        let colour = match severity {
            Severity::Error => AnsiColor::Red,
            Severity::Warning => AnsiColor::Yellow,
            Severity::Note => AnsiColor::Cyan,
        };
        format!(
            "{} {}:",
            paint(self.colour, Style::new().bold(), &place),
            paint(self.colour, colour.on_default().bold(), severity)
        )
    }
}

/// `text` in `style` when `on`, else as it is.
pub fn paint(on: bool, style: Style, text: impl std::fmt::Display) -> String {
    if on {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}

/// The game of an item; a game the framer skipped (too large) is reported
/// as an error instead, and gives `None`.
pub fn game_of<'t, X>(
    ctx: &Context<'_>,
    item: &Item<'t>,
    done: &mut Done<X>,
) -> Option<RawGame<'t>> {
    match item.game {
        Ok(raw) => Some(raw),
        Err(err) => {
            too_large(ctx, err, done);
            None
        }
    }
}

/// Writes a game the framer skipped (over the size bound) as the commands
/// that write or list games name it: `pgnkit: INPUT: message`.
pub fn skipped<X>(item: &Item<'_>, err: &ReadPgnError, done: &mut Done<X>) {
    let _ = writeln!(done.stderr, "pgnkit: {}: {err}", item.name);
}

/// Writes a game skipped by the framer (too large) as an error.
pub fn too_large<X>(ctx: &Context<'_>, err: &ReadPgnError, done: &mut Done<X>) {
    let (number, offset, line) = match *err {
        ReadPgnError::GameTooLarge {
            number,
            offset,
            first_line,
            ..
        } => (number, offset, first_line),
        _ => (0, 0, 0),
    };
    done.stats.games += 1;
    done.stats.errors += 1;
    done.stats.terminations[termination_index(None)] += 1;
    let message = err.to_string();
    match ctx.format {
        Format::Text => {
            let _ = writeln!(
                done.stderr,
                "{} game {number}: {message}",
                ctx.head(line, 1, Severity::Error)
            );
        }
        Format::Json => {
            let mut s = String::new();
            s.push('{');
            json_field(&mut s, "file", Some(ctx.path));
            // The game was not read: its players are not known.
            let _ = write!(
                s,
                ",\"game\":{number},\"offset\":{offset},\"line\":{line},\"column\":1,"
            );
            s.push_str("\"white\":null,\"black\":null,");
            s.push_str(NO_MOVE);
            json_field(&mut s, "severity", Some("error"));
            s.push(',');
            json_field(&mut s, "kind", Some("game-too-large"));
            s.push(',');
            json_field(&mut s, "message", Some(&message));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// The severity a diagnostic is shown with.
pub fn shown(severity: Severity, strict: bool) -> Severity {
    if strict && severity == Severity::Warning {
        Severity::Error
    } else {
        severity
    }
}

/// A tag value for messages.
fn tag_text(source: &[u8], span: Option<Span>) -> String {
    match span {
        Some(span) => encoding::decode(&unescape(span.slice(source))).into_owned(),
        None => "?".to_string(),
    }
}

/// Writes one diagnostic of a game.
///
/// `lines` is the game's line index, built once by the caller for all of
/// its diagnostics (a game can have very many).
pub fn write_diagnostic<X>(
    ctx: &Context<'_>,
    raw: &RawGame<'_>,
    lines: &LineIndex,
    replay: &Replay,
    d: &Diagnostic,
    done: &mut Done<X>,
) {
    let source = raw.bytes;
    let severity = shown(d.severity, ctx.strict);
    let (line, column) = lines.line_col(d.span);
    let text = encoding::decode(d.span.slice(source));
    let ply = d
        .ply
        .map(|p| format!("{p}{}", encoding::visible(d.span.slice(source))));
    let message = d.message_in(source);
    match ctx.format {
        Format::Text => {
            let mut s = format!(
                "{} game {} ({} - {})",
                ctx.head(line, column, severity),
                raw.number,
                tag_text(source, replay.white),
                tag_text(source, replay.black),
            );
            if let Some(ply) = &ply {
                let _ = write!(s, ", {}", paint(ctx.colour, Style::new().bold(), ply));
            }
            if d.in_variation {
                s.push_str(" (in a variation)");
            }
            let _ = writeln!(s, ": {message}");
            done.stderr.extend_from_slice(s.as_bytes());
        }
        Format::Json => {
            let white = tag_text(source, replay.white);
            let black = tag_text(source, replay.black);
            let mut s = json_head(ctx, raw, d.span.start, (line, column), &white, &black);
            match d.ply {
                Some(p) => {
                    let _ = write!(s, "\"ply\":{},", p.number());
                }
                None => s.push_str("\"ply\":null,"),
            }
            json_field(&mut s, "move", d.ply.map(|_| &*text));
            s.push(',');
            json_field(&mut s, "fen", d.fen_before().as_deref());
            let _ = write!(s, ",\"variation\":{},", d.in_variation);
            json_field(&mut s, "severity", Some(severity.as_str()));
            s.push(',');
            json_field(&mut s, "kind", Some(d.kind.name()));
            s.push(',');
            json_field(&mut s, "message", Some(&message));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// Writes a warning about a game as a whole that is no diagnostic of its
/// replay (e.g. a change `convert` made): `path:line:col: warning: game N
/// (White - Black): message`, placed at `span` of the game's text.
pub fn write_game_warning<X>(
    ctx: &Context<'_>,
    raw: &RawGame<'_>,
    replay: &Replay,
    span: Span,
    message: &str,
    done: &mut Done<X>,
) {
    let source = raw.bytes;
    let (line, column) = LineIndex::of_game(raw).line_col(span);
    let s = format!(
        "{} game {} ({} - {}): {message}\n",
        ctx.head(line, column, shown(Severity::Warning, ctx.strict)),
        raw.number,
        tag_text(source, replay.white),
        tag_text(source, replay.black),
    );
    done.stderr.extend_from_slice(s.as_bytes());
}

/// Writes one syntax error found without a replay (`validate
/// --syntax-only`): the shape of [`write_diagnostic`], without the move
/// number, the position and the variation flag, which only a replay knows.
/// A recovered finding (an unescaped quote) is a warning.
pub fn write_syntax_error<X>(
    ctx: &Context<'_>,
    raw: &RawGame<'_>,
    lines: &LineIndex,
    summary: &SyntaxSummary,
    error: &ParsePgnError,
    done: &mut Done<X>,
) {
    let source = raw.bytes;
    let (line, column) = lines.line_col(error.span);
    let white = tag_text(source, summary.white);
    let black = tag_text(source, summary.black);
    let severity = if error.kind.is_recovered() {
        Severity::Warning
    } else {
        Severity::Error
    };
    match ctx.format {
        Format::Text => {
            let _ = writeln!(
                done.stderr,
                "{} game {} ({white} - {black}): {}",
                ctx.head(line, column, severity),
                raw.number,
                error.kind.message(error.span.slice(source))
            );
        }
        Format::Json => {
            let kind = match error.kind {
                ParsePgnErrorKind::BadMove(_) => "bad-move",
                ParsePgnErrorKind::UnescapedQuote => "unescaped-quote",
                ParsePgnErrorKind::SkippedToken => "skipped-token",
                ParsePgnErrorKind::GluedMove => "glued-move",
                _ => "syntax",
            };
            let mut s = json_head(ctx, raw, error.span.start, (line, column), &white, &black);
            s.push_str("\"ply\":null,");
            let token = encoding::decode(error.span.slice(source));
            let bad_move = matches!(error.kind, ParsePgnErrorKind::BadMove(_));
            json_field(&mut s, "move", bad_move.then_some(&*token));
            s.push_str(",\"fen\":null,\"variation\":null,");
            json_field(&mut s, "severity", Some(severity.as_str()));
            s.push(',');
            json_field(&mut s, "kind", Some(kind));
            s.push(',');
            json_field(
                &mut s,
                "message",
                Some(&error.kind.message(error.span.slice(source))),
            );
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// A game's errors and notes (not its warnings), and how many more the
/// replay counted: what a command that writes only valid games reports of
/// one it skips.
pub fn write_errors<X>(ctx: &Context<'_>, raw: &RawGame<'_>, replay: &Replay, done: &mut Done<X>) {
    let index = LineIndex::of_game(raw);
    for d in &replay.diagnostics {
        if d.severity != Severity::Warning {
            write_diagnostic(ctx, raw, &index, replay, d, done);
        }
    }
    write_omitted(ctx, raw, replay.omitted, (replay.white, replay.black), done);
}

/// After a game's diagnostics: how many more were counted but not kept
/// ([`pgnkit::replay::MAX_DIAGNOSTICS`]), as one line (in JSON with the
/// exact counts). `players` are the spans of the White and Black tags'
/// values.
pub fn write_omitted<X>(
    ctx: &Context<'_>,
    raw: &RawGame<'_>,
    omitted: Omitted,
    players: (Option<Span>, Option<Span>),
    done: &mut Done<X>,
) {
    if omitted.is_empty() {
        return;
    }
    let (errors, warnings) = if ctx.strict {
        (omitted.errors + omitted.warnings, 0)
    } else {
        (omitted.errors, omitted.warnings)
    };
    let mut parts = Vec::new();
    for (n, one, many) in [
        (errors, "error", "errors"),
        (warnings, "warning", "warnings"),
        (omitted.notes, "note", "notes"),
    ] {
        if n > 0 {
            parts.push(format!("{} more {}", n, if n == 1 { one } else { many }));
        }
    }
    let message = format!(
        "… and {} in this game, not shown (at most {} are kept per game)",
        parts.join(", "),
        pgnkit::replay::MAX_DIAGNOSTICS
    );
    let source = raw.bytes;
    match ctx.format {
        Format::Text => {
            let _ = writeln!(
                done.stderr,
                "{} game {} ({} - {}): {message}",
                ctx.head(raw.first_line, 1, Severity::Note),
                raw.number,
                tag_text(source, players.0),
                tag_text(source, players.1),
            );
        }
        Format::Json => {
            let white = tag_text(source, players.0);
            let black = tag_text(source, players.1);
            let mut s = json_head(ctx, raw, 0, (raw.first_line, 1), &white, &black);
            s.push_str(NO_MOVE);
            json_field(&mut s, "severity", Some("note"));
            s.push(',');
            json_field(&mut s, "kind", Some("omitted"));
            let _ = write!(
                s,
                ",\"errors\":{errors},\"warnings\":{warnings},\"notes\":{},",
                omitted.notes
            );
            json_field(&mut s, "message", Some(&message));
            s.push_str("}\n");
            done.stdout.extend_from_slice(s.as_bytes());
        }
    }
}

/// The move keys of a JSON diagnostic about no move (a game too large to
/// read, the count of omitted diagnostics), each followed by a comma.
const NO_MOVE: &str = "\"ply\":null,\"move\":null,\"fen\":null,\"variation\":null,";

/// Starts a diagnostic's JSON object: file, game, offset, line, column,
/// white and black, each followed by a comma.
fn json_head(
    ctx: &Context<'_>,
    raw: &RawGame<'_>,
    at: usize,
    (line, column): (u64, u64),
    white: &str,
    black: &str,
) -> String {
    let mut s = String::with_capacity(256);
    s.push('{');
    json_field(&mut s, "file", Some(ctx.path));
    let _ = write!(
        s,
        ",\"game\":{},\"offset\":{},\"line\":{line},\"column\":{column},",
        raw.number,
        raw.offset + at as u64,
    );
    json_field(&mut s, "white", Some(white));
    s.push(',');
    json_field(&mut s, "black", Some(black));
    s.push(',');
    s
}

/// `n` and a noun that agrees with it: `1 game`, `2 games`, `0 games`
/// (`one` is the singular, `many` the plural).
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Appends `"name":value` with the value as a JSON string (or `null`).
/// Hand-written: JSON string escaping is all we need, not a dependency.
pub fn json_field(out: &mut String, name: &str, value: Option<&str>) {
    let _ = write!(out, "\"{name}\":");
    let Some(value) = value else {
        out.push_str("null");
        return;
    };
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(0, "game", "games"), "0 games");
        assert_eq!(count(1, "game", "games"), "1 game");
        assert_eq!(count(2, "ply", "plies"), "2 plies");
    }

    #[test]
    fn json_strings_are_escaped() {
        let cases = [
            (Some("plain"), "\"k\":\"plain\""),
            (Some("a\"b\\c"), "\"k\":\"a\\\"b\\\\c\""),
            (Some("x\ny\u{1}"), "\"k\":\"x\\ny\\u0001\""),
            (Some("Müller"), "\"k\":\"Müller\""),
            (None, "\"k\":null"),
        ];
        for (value, expected) in cases {
            let mut s = String::new();
            json_field(&mut s, "k", value);
            assert_eq!(s, expected);
        }
    }
}
