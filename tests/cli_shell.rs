//! pgnkit in the shell: every example of every `--help` runs, the bash
//! completion loads and completes, every manual page renders, and the
//! arguments every command shares (`-`, `--jobs`) are checked alike.

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{pgnkit, pgnkit_in};

/// Every subcommand, as `pgnkit --help` lists them.
fn subcommands() -> Vec<String> {
    let help = pgnkit(&["--help"]).stdout;
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// The command lines under `Examples:` in `help`.
fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Examples:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(|line| line.trim().to_string())
        .collect()
}

/// A fresh directory holding `games.pgn` (the bundled example), with the
/// binary's directory first on PATH.
fn workdir(test: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("pgnkit-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a temporary directory");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/myschach.pgn");
    std::fs::copy(fixture, dir.join("games.pgn")).expect("copy the example");
    let bin = Path::new(env!("CARGO_BIN_EXE_pgnkit"))
        .parent()
        .expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (dir, path)
}

/// Runs `script` in bash (failing pipes fail) in `dir`: status, output.
fn bash(script: &str, dir: &Path, path: &str) -> (i32, String, String) {
    let out = Command::new("bash")
        .args(["-o", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .output()
        .expect("run bash");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether `tool` is on PATH; when it is not, the test skips with a
/// message, or fails where `PGNKIT_REQUIRE_TOOLS=1` (`.ci/run`).
fn have(tool: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        let required = std::env::var("PGNKIT_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(!required, "{tool} is missing and PGNKIT_REQUIRE_TOOLS=1");
        common::say_skipped(&format!("{tool} not found"));
    }
    found
}

#[test]
fn every_subcommand_has_examples_and_every_example_runs() {
    let subs = subcommands();
    assert!(subs.len() >= 9, "{subs:?}");
    let (dir, path) = workdir("examples");
    let mut ran = 0;
    for sub in &subs {
        let help = pgnkit(&[sub, "--help"]).stdout;
        let lines = examples(&help);
        assert!(lines.len() >= 2, "pgnkit {sub} --help has no examples");
        for line in lines {
            if line.contains("man -l") && !have("man") {
                continue;
            }
            assert!(
                line.starts_with("pgnkit ") || line.contains("| pgnkit "),
                "{line}"
            );
            let (code, _, stderr) = bash(&line, &dir, &path);
            // 1 is an answer (no game matched, some game had an error);
            // 2 would be a usage error.
            assert!(code == 0 || code == 1, "{line}: exit {code}\n{stderr}");
            assert!(!stderr.contains("Usage:"), "{line}:\n{stderr}");
            ran += 1;
        }
    }
    assert!(ran >= 25, "only {ran} examples");
    let _ = std::fs::remove_dir_all(dir);
}

/// The long options that `line`, a command line in the docs, gives to a
/// subcommand of `subs`: the subcommand and each option.
fn options_named(line: &str, subs: &[String]) -> Vec<(String, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = words
        .iter()
        .position(|w| subs.iter().any(|s| s == w))
        .filter(|&at| at == 0 || words[at - 1] == "pgnkit")
    else {
        return Vec::new();
    };
    let mut named = Vec::new();
    for word in &words[at + 1..] {
        if matches!(*word, "|" | "&&" | ">" | "<") {
            break;
        }
        let Some(name) = word.strip_prefix("--") else {
            continue;
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() && name != "help" {
            named.push((words[at].to_string(), format!("--{name}")));
        }
    }
    named
}

#[test]
fn every_option_the_docs_give_a_subcommand_is_in_its_help() {
    let subs = subcommands();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a page");
        // Code spans, and the lines of code blocks.
        let spans = text
            .split("```")
            .enumerate()
            .flat_map(|(i, part)| match i % 2 {
                1 => part.lines().map(String::from).collect::<Vec<_>>(),
                _ => part
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(String::from)
                    .collect(),
            })
            .collect::<Vec<_>>();
        for span in &spans {
            for (sub, option) in options_named(span, &subs) {
                let help = pgnkit(&[&sub, "--help"]).stdout;
                let listed = help.match_indices(&option).any(|(at, _)| {
                    let next = help[at + option.len()..].chars().next();
                    !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                });
                assert!(
                    listed,
                    "{}: `{span}`: pgnkit {sub} has no {option}",
                    page.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "only {checked} options checked");
}

#[test]
fn examples_do_what_they_say() {
    let (dir, path) = workdir("examples-output");
    let (code, stdout, _) = bash(
        "pgnkit convert --to lan games.pgn | pgnkit convert --from lan --to san",
        &dir,
        &path,
    );
    assert_eq!(code, 0);
    let direct = pgnkit(&["convert", "--to", "san", "fixtures/myschach.pgn"]);
    assert_eq!(stdout, direct.stdout, "the round trip through LAN");
    let (code, stdout, _) = bash(
        "pgnkit stats --json games.pgn > part.json && pgnkit stats --merge part.json part.json",
        &dir,
        &path,
    );
    assert_eq!(code, 0);
    assert!(stdout.starts_with("games: 10 (10 valid,"), "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bash_completion_loads_and_completes_subcommands_and_options() {
    if !have("bash") {
        return;
    }
    let (dir, path) = workdir("completion");
    let script = r#"source <(pgnkit completions bash) || exit 3
complete -p pgnkit || exit 4
COMP_WORDS=(pgnkit val); COMP_CWORD=1; _pgnkit pgnkit val pgnkit
echo "sub: ${COMPREPLY[*]}"
COMP_WORDS=(pgnkit convert --t); COMP_CWORD=2; _pgnkit pgnkit --t convert
echo "opt: ${COMPREPLY[*]}""#;
    let (code, stdout, stderr) = bash(script, &dir, &path);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("complete -o bashdefault -o default -o nosort -F _pgnkit pgnkit"),
        "{stdout}"
    );
    assert!(stdout.contains("sub: validate\n"), "{stdout}");
    assert!(stdout.contains("opt: --to\n"), "{stdout}");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = pgnkit(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        assert!(out.stdout.contains("validate"), "{shell}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_manual_page_renders() {
    if !have("man") {
        return;
    }
    let (dir, path) = workdir("man");
    let (code, _, stderr) = bash("pgnkit man --dir man/man1", &dir, &path);
    assert_eq!(code, 0, "{stderr}");
    let mut pages = 0;
    for sub in std::iter::once(String::new()).chain(subcommands()) {
        let name = if sub.is_empty() {
            "pgnkit".to_string()
        } else {
            format!("pgnkit-{sub}")
        };
        let page = dir.join(format!("man/man1/{name}.1"));
        let (code, stdout, stderr) = bash(
            &format!("MANWIDTH=80 man -l {}", page.display()),
            &dir,
            &path,
        );
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(stdout.contains("NAME"), "{name}:\n{stdout}");
        assert!(stdout.contains(&name), "{name}:\n{stdout}");
        if !sub.is_empty() {
            assert!(stdout.contains("Examples:"), "{name} has no examples");
        }
        pages += 1;
    }
    assert!(pages >= 10);
    // The page of pgnkit itself on standard output, as the example has it.
    let (code, stdout, _) = bash("pgnkit man | MANWIDTH=80 man -l -", &dir, &path);
    assert_eq!(code, 0);
    assert!(stdout.contains("validate"), "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Every page is ASCII, as roff reads it, and groff renders it without a
/// warning: characters outside ASCII (`…`, `—`, `♘`) are escapes. They
/// were raw UTF-8, which groff warned of and dropped.
#[test]
fn regression_manual_pages_are_ascii_roff() {
    let (dir, path) = workdir("man-ascii");
    let (code, _, stderr) = bash(
        "pgnkit man --dir man1 && pgnkit man > pgnkit.1",
        &dir,
        &path,
    );
    assert_eq!(code, 0, "{stderr}");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir.join("man1"))
        .expect("the pages")
        .map(|e| e.expect("a page").path())
        .collect();
    pages.push(dir.join("pgnkit.1"));
    assert!(pages.len() >= 11, "{pages:?}");
    let mut escaped = 0;
    for page in &pages {
        let text = std::fs::read(page).expect("a page");
        let at = text.iter().position(|b| !b.is_ascii());
        assert_eq!(at, None, "{}: not ASCII", page.display());
        escaped += String::from_utf8_lossy(&text).matches("\\[u").count();
    }
    // The help's own `…` and `♘` are there, escaped.
    assert!(escaped >= 5, "{escaped} escapes");
    if have("groff") {
        for page in &pages {
            let script = format!("groff -man -Tutf8 -ww {} > /dev/null", page.display());
            let (code, _, stderr) = bash(&script, &dir, &path);
            assert_eq!((code, stderr.as_str()), (0, ""), "{}", page.display());
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The commands that read games from FILES, each with what it needs to
/// run and write to standard output.
const READERS: &[&[&str]] = &[
    &["validate"],
    &["fen"],
    &["convert"],
    &["tags"],
    &["filter", "-e", "true"],
    &["stats"],
    &["dedup"],
    &[
        "split",
        "--every",
        "1",
        "--template",
        "/nonexistent/{num}.pgn",
    ],
];

/// A second `-` among the inputs is a usage error that names it, in every
/// command, before any input is read: it used to read an empty standard
/// input, silently.
#[test]
fn regression_standard_input_named_twice_is_a_usage_error() {
    let games = std::fs::read("fixtures/myschach.pgn").expect("the example");
    for cmd in READERS {
        for inputs in [&["-", "-"][..], &["-", "fixtures/myschach.pgn", "-"]] {
            let args: Vec<&str> = cmd.iter().chain(inputs).copied().collect();
            let out = pgnkit_in(&args, &games);
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert_eq!(
                out.stderr,
                "pgnkit: `-` (standard input) is named 2 times among the inputs: \
                 standard input can be read once\n",
                "{args:?}"
            );
            assert_eq!(out.stdout, "", "{args:?}");
        }
    }
    // One `-` reads standard input.
    let out = pgnkit_in(&["tags", "-f", "White", "-"], &games);
    assert_eq!((out.code, out.stdout.lines().count()), (0, 5));
}

/// `--jobs` above 1024 is a usage error in every command, as a number
/// that is no count is: 100000 used to start a thread for each, and the
/// largest count panicked (an overflow of the read-ahead).
#[test]
fn regression_jobs_beyond_the_cap_are_usage_errors() {
    for cmd in READERS {
        for jobs in ["1025", "100000", "4294967295", "18446744073709551615"] {
            let args: Vec<&str> = cmd
                .iter()
                .copied()
                .chain(["--jobs", jobs, "fixtures/myschach.pgn"])
                .collect();
            let out = pgnkit(&args);
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("'--jobs <JOBS>'") && !out.stderr.contains("panicked"),
                "{args:?}: {}",
                out.stderr
            );
        }
    }
    for jobs in ["0", "1", "1024"] {
        let out = pgnkit(&["validate", "-q", "--jobs", jobs, "fixtures/myschach.pgn"]);
        assert_eq!(out.code, 0, "--jobs {jobs}: {}", out.stderr);
    }
}
