//! Progress on standard error for a person at a terminal: bytes read of the
//! total, games per second, errors so far, time left. Never on a pipe, so
//! never in CI logs, unless asked for.

use std::io::IsTerminal;
use std::time::Duration;

use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// When to show progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum When {
    /// Only when standard error is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A progress bar, or nothing when hidden.
pub struct Progress {
    bar: Option<ProgressBar>,
    games: u64,
    errors: u64,
}

impl Progress {
    /// A bar over the `total` bytes of the input `name` (a spinner with the
    /// bytes read so far when the total is unknown: standard input, a
    /// compressed file).
    pub fn new(when: When, quiet: bool, name: &str, total: Option<u64>) -> Progress {
        let show = !quiet
            && match when {
                When::Auto => std::io::stderr().is_terminal(),
                When::Always => true,
                When::Never => false,
            };
        let bar = show.then(|| {
            let bar = match total {
                Some(total) => ProgressBar::with_draw_target(
                    Some(total),
                    ProgressDrawTarget::stderr_with_hz(4),
                ),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4)),
            };
            let template = if total.is_some() {
                "{prefix} {bytes}/{total_bytes} [{wide_bar}] {msg} eta {eta}"
            } else {
                "{prefix} {spinner} {bytes} read, {msg} {elapsed}"
            };
            bar.set_prefix(shown_name(name));
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            games: 0,
            errors: 0,
        }
    }

    /// Records that input up to `bytes` has been read and `games` more games
    /// (`errors` of them with errors) are done.
    pub fn advance(&mut self, bytes: u64, games: u64, errors: u64) {
        self.games += games;
        self.errors += errors;
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
            let secs = bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{}, {:.0} games/s, {} with errors",
                super::report::count(self.games, "game", "games"),
                self.games as f64 / secs,
                self.errors
            ));
        }
    }

    /// Runs `f` (which writes to standard error) with the bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// An input's name as the bar shows it: the file's name without its
/// directories, `stdin` for `-`.
fn shown_name(name: &str) -> String {
    if name == "-" || name.is_empty() {
        return "stdin".to_string();
    }
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
}
