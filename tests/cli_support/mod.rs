//! Running the real binary from integration tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// What a run of `pgnkit` gave.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `pgnkit args` with `stdin` as standard input.
pub fn pgnkit_in(args: &[&str], stdin: &[u8]) -> Out {
    run(Command::new(env!("CARGO_BIN_EXE_pgnkit")).args(args), stdin)
}

/// Runs `pgnkit args` with empty standard input and the environment
/// variables `vars` set.
pub fn pgnkit_envs(args: &[&str], vars: &[(&str, &str)]) -> Out {
    run(
        Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .args(args)
            .envs(vars.iter().copied()),
        b"",
    )
}

/// What a run of `pgnkit` gave, its standard output as bytes.
pub struct BytesOut {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `pgnkit args` with empty standard input; standard output as bytes.
pub fn pgnkit_bytes(args: &[&str]) -> BytesOut {
    run_bytes(Command::new(env!("CARGO_BIN_EXE_pgnkit")).args(args), b"")
}

fn run(command: &mut Command, stdin: &[u8]) -> Out {
    let out = run_bytes(command, stdin);
    Out {
        code: out.code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: out.stderr,
    }
}

fn run_bytes(command: &mut Command, stdin: &[u8]) -> BytesOut {
    let mut child = command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    let mut input = child.stdin.take().expect("stdin");
    // Written from another thread: a command that writes as it reads
    // would otherwise fill its output pipe while this thread waits to
    // write. A command that does not read its input may close it early.
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait for pgnkit");
    let _ = writer.join();
    BytesOut {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `pgnkit args` with empty standard input.
pub fn pgnkit(args: &[&str]) -> Out {
    pgnkit_in(args, b"")
}

/// A file in a fresh temporary directory of the test `test`.
pub fn temp_file(test: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

/// The counts of `validate`'s summary line in `stderr`: games, valid, with
/// warnings, with errors, unsupported. Asserts that every game is
/// accounted for (games = valid + with errors + unsupported).
pub fn validate_counts(stderr: &str) -> [u64; 5] {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pgnkit validate: ") && !l.contains("on the board"))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let [games, valid, warned, errors, unsupported] = numbers[..] else {
        panic!("summary {line}");
    };
    assert_eq!(games, valid + errors + unsupported, "{line}");
    [games, valid, warned, errors, unsupported]
}

/// A sink that keeps what the engine hands on, in the order written, and
/// the failures it reports.
pub struct Collect<T> {
    pub games: Vec<T>,
    pub failures: Vec<String>,
}

impl<T> Default for Collect<T> {
    fn default() -> Collect<T> {
        Collect {
            games: Vec::new(),
            failures: Vec::new(),
        }
    }
}

impl<T> pgnkit::engine::Sink<Vec<T>> for Collect<T> {
    fn write(&mut self, out: Vec<T>, _read: u64) -> std::io::Result<std::ops::ControlFlow<()>> {
        self.games.extend(out);
        Ok(std::ops::ControlFlow::Continue(()))
    }

    fn failed(&mut self, failure: pgnkit::engine::Failure<'_>) {
        self.failures.push(format!("{failure:?}"));
    }
}

/// The keys of `validate --format json` as the table of `docs/validate.md`
/// gives them, each with its type column (`number`, `string or null` …).
pub fn validate_json_keys() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/validate.md");
    let doc = std::fs::read_to_string(path).expect("docs/validate.md");
    let rows = doc
        .lines()
        .skip_while(|l| !l.starts_with("| key | type | meaning |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut keys = Vec::new();
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        for key in cells[1].split(',') {
            keys.push((
                key.trim().trim_matches('`').to_string(),
                cells[2].to_string(),
            ));
        }
    }
    assert!(keys.len() > 10, "no key table in {path}");
    keys
}

/// Asserts that a line of `validate --format json` has exactly the keys of
/// [`validate_json_keys`], each of its documented type (an `omitted`
/// object has its three counts besides).
pub fn assert_documented_keys(line: &str, keys: &[(String, String)]) {
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let mut expected: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    if object.get("kind").and_then(|k| k.as_str()) == Some("omitted") {
        expected.extend(["errors", "warnings", "notes"]);
        for count in ["errors", "warnings", "notes"] {
            assert!(object[count].is_u64(), "{count} in {line}");
        }
    }
    let mut present: Vec<&str> = object.keys().map(String::as_str).collect();
    present.sort_unstable();
    expected.sort_unstable();
    assert_eq!(present, expected, "{line}");
    for (key, ty) in keys {
        let value = &object[key.as_str()];
        let fits = match value {
            serde_json::Value::Null => ty.ends_with("or null"),
            serde_json::Value::Number(n) => ty.starts_with("number") && n.is_u64(),
            serde_json::Value::String(_) => ty.starts_with("string"),
            serde_json::Value::Bool(_) => ty.starts_with("boolean"),
            _ => false,
        };
        assert!(fits, "`{key}` is documented as {ty}: {line}");
    }
}
