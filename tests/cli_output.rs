//! `-o FILE` run as a real binary in a temporary directory: FILE is
//! replaced only when every input was read, no temporary file survives an
//! error or a terminating signal, and messages name FILE as given.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The commands that write with `-o`, each with options that keep every
/// game of a valid input in its output.
const COMMANDS: &[&[&str]] = &[
    &["fen"],
    &["convert"],
    &["filter", "-e", "true"],
    &["tags"],
    &["stats"],
];

const VALID: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n";
const ILLEGAL: &str = "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
const AFTER_NF3: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n";
const EXISTING: &[u8] = b"an existing file\n";

/// What a run gave.
struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// A fresh, empty directory for the test `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    command.args(args).current_dir(dir);
    command
}

/// Runs `pgnkit args` in `dir` with empty standard input.
fn pgnkit(dir: &Path, args: &[&str]) -> Out {
    let out = command(dir, args)
        .stdin(Stdio::null())
        .output()
        .expect("run pgnkit");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The temporary files of `-o` left in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|n| n.contains(".pgnkit-") && n.ends_with(".tmp"))
        .collect()
}

fn with<'a>(command: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    command.iter().chain(rest).copied().collect()
}

#[test]
fn a_missing_input_leaves_the_existing_target_untouched() {
    let dir = temp_dir("missing-input");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    for cmd in COMMANDS {
        std::fs::write(dir.join("out.txt"), EXISTING).unwrap();
        let args = with(cmd, &["-o", "out.txt", "a.pgn", "missing.pgn"]);
        let out = pgnkit(&dir, &args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("missing.pgn: No such file or directory"),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(
            std::fs::read(dir.join("out.txt")).unwrap(),
            EXISTING,
            "{args:?}"
        );
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "{args:?}");
        assert_eq!(listing(&dir), ["a.pgn", "out.txt"], "{args:?}");
    }
}

#[test]
fn a_missing_input_creates_no_target() {
    let dir = temp_dir("missing-input-new");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    for cmd in COMMANDS {
        let args = with(cmd, &["-o", "out.txt", "a.pgn", "missing.pgn"]);
        let out = pgnkit(&dir, &args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert_eq!(listing(&dir), ["a.pgn"], "{args:?}");
    }
}

#[test]
fn errors_in_games_still_write_the_target() {
    let dir = temp_dir("status-1");
    std::fs::write(dir.join("a.pgn"), format!("{VALID}\n{ILLEGAL}")).unwrap();
    std::fs::write(dir.join("out.fen"), EXISTING).unwrap();
    let out = pgnkit(&dir, &["fen", "-o", "out.fen", "a.pgn"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("2.Ke3: illegal move"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(
        std::fs::read_to_string(dir.join("out.fen")).unwrap(),
        AFTER_NF3
    );
    assert_eq!(listing(&dir), ["a.pgn", "out.fen"]);

    // No game matched: status 1, and the target holds the empty selection.
    std::fs::write(dir.join("out.pgn"), EXISTING).unwrap();
    let out = pgnkit(
        &dir,
        &[
            "filter",
            "-e",
            "White = \"Nobody\"",
            "-o",
            "out.pgn",
            "a.pgn",
        ],
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(std::fs::read(dir.join("out.pgn")).unwrap(), b"");
    assert_eq!(temporaries(&dir), Vec::<String>::new());
}

#[test]
fn success_writes_the_target() {
    let dir = temp_dir("success");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    for cmd in COMMANDS {
        let to_stdout = pgnkit(&dir, &with(cmd, &["a.pgn"]));
        assert_eq!(to_stdout.code, Some(0), "{cmd:?}: {}", to_stdout.stderr);
        std::fs::write(dir.join("out.txt"), EXISTING).unwrap();
        let args = with(cmd, &["-o", "out.txt", "a.pgn"]);
        let out = pgnkit(&dir, &args);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""));
        assert_eq!(
            std::fs::read_to_string(dir.join("out.txt")).unwrap(),
            to_stdout.stdout,
            "{args:?}"
        );
        assert_eq!(listing(&dir), ["a.pgn", "out.txt"], "{args:?}");
    }
    let out = pgnkit(&dir, &["fen", "-o", "out.txt", "a.pgn"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.join("out.txt")).unwrap(),
        AFTER_NF3
    );
}

#[test]
fn a_directory_is_refused_before_any_input_is_read() {
    let dir = temp_dir("directory");
    std::fs::create_dir(dir.join("out")).unwrap();
    for cmd in COMMANDS {
        for target in ["out", "out/"] {
            // The missing input is never reached.
            let args = with(cmd, &["-o", target, "missing.pgn"]);
            let out = pgnkit(&dir, &args);
            assert_eq!(out.code, Some(2), "{args:?}");
            assert_eq!(
                out.stderr,
                format!("pgnkit: -o {target}: is a directory\n"),
                "{args:?}"
            );
            assert_eq!(listing(&dir), ["out"], "{args:?}");
            assert_eq!(listing(&dir.join("out")), Vec::<String>::new(), "{args:?}");
        }
    }
    let out = pgnkit(&dir, &["fen", "-o", "new/", "missing.pgn"]);
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stderr, "pgnkit: -o new/: not a file name\n");
    assert_eq!(listing(&dir), ["out"]);
}

#[test]
fn other_destinations_are_named_by_their_own_options() {
    let dir = temp_dir("other-destinations");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::create_dir(dir.join("1.pgn")).unwrap();
    std::fs::write(dir.join("afile"), b"").unwrap();
    for (args, stderr) in [
        (
            &["filter", "-e", "true", "--append", "out", "a.pgn"][..],
            "pgnkit: --append out: is a directory\n",
        ),
        // split has no -o: its files are named as the template made them.
        (
            &["split", "--every", "1", "a.pgn"],
            "pgnkit: writing the output: 1.pgn: is a directory\n",
        ),
        (
            &["split", "--every", "1", "-t", "{num}/", "a.pgn"],
            "pgnkit: writing the output: 1/: not a file name\n",
        ),
    ] {
        let out = pgnkit(&dir, args);
        assert_eq!(out.code, Some(2), "{args:?}");
        assert_eq!(out.stderr, stderr, "{args:?}");
    }
    let out = pgnkit(
        &dir,
        &["split", "--every", "1", "-t", "afile/{num}.pgn", "a.pgn"],
    );
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr
            .starts_with("pgnkit: writing the output: cannot make afile: "),
        "{}",
        out.stderr
    );
    assert_eq!(listing(&dir), ["1.pgn", "a.pgn", "afile", "out"]);
}

#[test]
fn index_needs_a_file_and_names_it_once() {
    let dir = temp_dir("index");
    std::fs::create_dir(dir.join("out")).unwrap();
    let out = pgnkit(&dir, &["index", "-"]);
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "pgnkit: index needs a file, not standard input: an index holds places in one file\n"
    );
    let out = pgnkit(&dir, &["index", "out"]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.starts_with("pgnkit: out: "), "{}", out.stderr);
    assert_eq!(out.stderr.matches("out").count(), 1, "{}", out.stderr);
    let out = pgnkit(&dir, &["index", "missing.pgn"]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with("pgnkit: indexing missing.pgn: "),
        "{}",
        out.stderr
    );
    assert_eq!(listing(&dir), ["out"]);
}

#[test]
fn messages_name_the_target_not_the_temporary_file() {
    let dir = temp_dir("missing-dir");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    for cmd in COMMANDS {
        let args = with(cmd, &["-o", "missing-dir/out.pgn", "a.pgn"]);
        let out = pgnkit(&dir, &args);
        assert_eq!(out.code, Some(2), "{args:?}");
        assert!(
            out.stderr.starts_with(
                "pgnkit: cannot create missing-dir/out.pgn: No such file or directory"
            ),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains(".pgnkit-"), "{args:?}: {}", out.stderr);
        assert_eq!(listing(&dir), ["a.pgn"], "{args:?}");
    }
}

/// Starts `pgnkit fen -o out.fen` on an input that never ends, and returns
/// once the run has written to its temporary file.
fn start_endless_run(dir: &Path) -> Child {
    let mut child = command(dir, &["fen", "-o", "out.fen"])
        // Small batches: output is made long before the input ends.
        .env("PGNKIT_BATCH_BYTES", "4096")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    let mut input = child.stdin.take().expect("stdin");
    // Written from another thread and never closed: the run stays blocked
    // on its input until the signal comes.
    std::thread::spawn(move || {
        let game = VALID.replace("*\n", "*\n\n");
        for _ in 0..20_000 {
            if input.write_all(game.as_bytes()).is_err() {
                return;
            }
        }
        let _ = input.flush();
        std::thread::sleep(Duration::from_secs(600));
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let written = temporaries(dir)
            .iter()
            .any(|t| std::fs::metadata(dir.join(t)).is_ok_and(|m| m.len() > 0));
        if written {
            return child;
        }
        if Instant::now() > deadline || child.try_wait().expect("try_wait").is_some() {
            let _ = child.kill();
            panic!("the run never wrote its temporary file");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn terminating_signals_remove_the_temporary_file() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = temp_dir(&format!("signal-{signal}"));
        std::fs::write(dir.join("out.fen"), EXISTING).unwrap();
        let mut child = start_endless_run(&dir);
        let kill = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .expect("run kill");
        assert!(kill.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = child.try_wait().expect("try_wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("SIG{signal}: the run did not end");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        assert_eq!(listing(&dir), ["out.fen"], "SIG{signal}");
        assert_eq!(std::fs::read(dir.join("out.fen")).unwrap(), EXISTING);
    }
}

/// `-o LINK`, a symbolic link (relative, through a directory, or to a
/// file not there yet), writes the file the link names and leaves the
/// link a link; an existing file keeps its permissions. The output used
/// to replace the link with a regular file and give the file the
/// default mode (0644 under the usual umask), opening a 0600 file to
/// everyone.
#[cfg(unix)]
#[test]
fn regression_a_link_stays_a_link_and_a_file_keeps_its_mode() {
    use std::os::unix::fs::{PermissionsExt as _, symlink};
    let dir = temp_dir("links");
    std::fs::write(dir.join("a.pgn"), VALID).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mode = |name: &str| {
        std::fs::metadata(dir.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    for cmd in COMMANDS {
        let _ = std::fs::remove_file(dir.join("sub/real.txt"));
        let _ = std::fs::remove_file(dir.join("link"));
        let _ = std::fs::remove_file(dir.join("new-link"));
        std::fs::write(dir.join("sub/real.txt"), EXISTING).unwrap();
        std::fs::set_permissions(
            dir.join("sub/real.txt"),
            std::fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        symlink("sub/real.txt", dir.join("link")).unwrap();
        symlink("sub/later.txt", dir.join("new-link")).unwrap();
        let want = pgnkit(&dir, &with(cmd, &["a.pgn"])).stdout;
        for target in ["link", "new-link"] {
            let out = pgnkit(&dir, &with(cmd, &["-o", target, "a.pgn"]));
            assert_eq!(out.code, Some(0), "{cmd:?} {target}: {}", out.stderr);
            let meta = std::fs::symlink_metadata(dir.join(target)).unwrap();
            assert!(meta.file_type().is_symlink(), "{cmd:?}: {target} replaced");
            assert_eq!(std::fs::read_to_string(dir.join(target)).unwrap(), want);
        }
        assert_eq!(mode("sub/real.txt"), 0o600, "{cmd:?}");
        // Without a link, too.
        std::fs::set_permissions(
            dir.join("sub/real.txt"),
            std::fs::Permissions::from_mode(0o640),
        )
        .unwrap();
        let out = pgnkit(&dir, &with(cmd, &["-o", "sub/real.txt", "a.pgn"]));
        assert_eq!(out.code, Some(0), "{cmd:?}: {}", out.stderr);
        assert_eq!(mode("sub/real.txt"), 0o640, "{cmd:?}");
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "{cmd:?}");
        assert_eq!(temporaries(&dir.join("sub")), Vec::<String>::new());
        std::fs::remove_file(dir.join("sub/later.txt")).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
