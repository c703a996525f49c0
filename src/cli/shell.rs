//! `pgnkit completions` and `pgnkit man`: the shell's view of pgnkit,
//! made from the same clap command as `--help`.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::output::Output;
use super::{Cli, Exit};

/// Print a shell completion script.
///
/// Bash: save it in ~/.local/share/bash-completion/completions/pgnkit, or
/// source it from ~/.bashrc. Zsh: save it as `_pgnkit` in a directory of
/// $fpath. Fish: save it in ~/.config/fish/completions/pgnkit.fish.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit completions bash > pgnkit.bash && source pgnkit.bash
  pgnkit completions zsh > _pgnkit
  pgnkit completions fish > pgnkit.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Runs `pgnkit completions`.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<Exit> {
    // Made in memory: clap_complete panics when its writer fails, and
    // standard output may be a closed pipe, which ends the run quietly.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "pgnkit", &mut script);
    to_stdout(&script)
}

/// Writes `text` to standard output as the other commands write there.
fn to_stdout(text: &[u8]) -> anyhow::Result<Exit> {
    let mut out = Output::open(None, &[])?;
    out.write_all(text)?;
    out.finish()?;
    Ok(Exit::Ok)
}

/// Print the manual page, or write one page per subcommand.
///
/// Without --dir, the page of pgnkit itself (roff) goes to standard
/// output: `pgnkit man | man -l -`. With --dir, pgnkit.1 and
/// pgnkit-SUBCOMMAND.1 for every subcommand are written there, for
/// `man -M` or a system's man1 directory.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  pgnkit man | man -l -
  pgnkit man --dir man/man1 && man -M man pgnkit-validate")]
pub struct ManArgs {
    /// Write every page into this directory (made if missing).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Runs `pgnkit man`.
pub fn man(args: &ManArgs) -> anyhow::Result<Exit> {
    let cli = Cli::command();
    let Some(dir) = &args.dir else {
        return to_stdout(&page(cli)?);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let write = |name: &str, command: clap::Command| -> anyhow::Result<()> {
        let path = dir.join(format!("{name}.1"));
        std::fs::write(&path, page(command)?)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    write("pgnkit", cli.clone())?;
    for sub in cli.get_subcommands() {
        let name = format!("pgnkit-{}", sub.get_name());
        // The page's title and synopsis name the whole command line.
        write(&name, sub.clone().name(name.clone()))?;
    }
    Ok(Exit::Ok)
}

/// The manual page of `command`, in roff.
///
/// clap_mangen copies the help's text as it is; roff reads its input as
/// ASCII (groff warns of every other byte and drops it), so each other
/// character is written as its escape, `\[u2026]` for `…`.
fn page(command: clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    Ok(ascii_roff(&String::from_utf8_lossy(&page)).into_bytes())
}

/// `roff` with every character outside ASCII written as its roff escape.
fn ascii_roff(roff: &str) -> String {
    let mut ascii = String::with_capacity(roff.len());
    for c in roff.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            ascii.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    ascii
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_outside_ascii_are_escaped() {
        for (text, roff) in [
            ("plain \\-o", "plain \\-o"),
            ("1, 2, …", "1, 2, \\[u2026]"),
            ("(`♘f3`) — é", "(`\\[u2658]f3`) \\[u2014] \\[u00E9]"),
            ("\u{1F600}", "\\[u1F600]"),
        ] {
            assert_eq!(ascii_roff(text), roff, "{text}");
        }
    }
}
