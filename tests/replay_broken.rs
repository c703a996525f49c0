//! Every file of `../shared/data/broken`: the diagnostics pgnkit gives
//! (severity, kind and line), file by file.
//!
//! The table was reviewed file by file; each row says what the file breaks.
//! Repeated diagnostics of one kind on one line are listed once.

mod common;

use std::path::Path;

use pgnkit::pgn::GameFramer;
use pgnkit::replay::{ReplayOptions, Replayer, Severity};
use pgnkit::{LetterPolicy, input};

/// `E`/`W`/`N` (error, warning, note), line, kind; deduplicated per line.
fn diagnostics(path: &Path) -> String {
    let mut framer = GameFramer::new(input::open(path).unwrap());
    let mut replayer = Replayer::new();
    let options = ReplayOptions {
        letters: LetterPolicy::Auto,
        lints: true,
        lenient: false,
    };
    let mut out: Vec<String> = Vec::new();
    while let Some(raw) = framer.next_game() {
        let raw = raw.unwrap();
        let r = replayer.replay(&raw, &options);
        for d in &r.diagnostics {
            let (line, _) = d.span.line_col(raw.bytes, raw.first_line);
            let sev = match d.severity {
                Severity::Error => 'E',
                Severity::Warning => 'W',
                Severity::Note => 'N',
            };
            let entry = format!("{sev}{line}:{}", d.kind.name());
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out.join(" ")
}

include!("replay_broken/table.rs");

#[test]
fn broken_files_give_the_listed_diagnostics() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let dir = data.join("broken");
    let mut files = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            let f = f.unwrap().path();
            files.push(f.strip_prefix(&dir).unwrap().to_string_lossy().into_owned());
        }
    }
    files.sort();
    if std::env::var_os("PGNKIT_BLESS").is_some() {
        for file in &files {
            println!(
                "    (\"{file}\", \"{}\", \"\"),",
                diagnostics(&dir.join(file))
            );
        }
    }
    let listed: Vec<&str> = BROKEN.iter().map(|r| r.0).collect();
    assert_eq!(files, listed, "every broken file has a row");
    let mut failures = Vec::new();
    for (file, expected, _why) in BROKEN {
        let got = diagnostics(&dir.join(file));
        if got != *expected {
            failures.push(format!("{file}\n  expected: {expected}\n  got:      {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
