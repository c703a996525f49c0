//! `pgnkit perft` run as a real binary: whole outputs and exit codes.

use std::process::Command;

fn pgnkit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .output()
        .expect("run pgnkit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn counts_nodes() {
    let (code, stdout, _) = pgnkit(&["perft", "startpos", "3"]);
    assert_eq!((code, stdout.as_str()), (0, "8902\n"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    let (code, stdout, _) = pgnkit(&["perft", kiwipete, "2"]);
    assert_eq!((code, stdout.as_str()), (0, "2039\n"));
}

#[test]
fn divide_lists_root_moves_then_total() {
    let (code, stdout, _) = pgnkit(&["perft", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "1", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 15 + 2);
    assert!(lines.contains(&"e1g1 1"));
    assert_eq!(lines[15..], ["", "15"]);
    // Chess960 positions print castling as king takes rook.
    let (_, stdout, _) = pgnkit(&["perft", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "1", "--divide"]);
    assert!(stdout.lines().any(|l| l == "f1g1 1"), "{stdout}");
}

#[test]
fn bad_fen_is_a_usage_error_naming_field_and_offset() {
    let (code, stdout, stderr) = pgnkit(&[
        "perft",
        "rnbqkbnr/pppppppp/8/8/3x4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "2",
    ]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "pgnkit perft: invalid FEN: board field, offset 23: unknown piece letter 'x'\n"
    );
    let (code, _, stderr) = pgnkit(&["perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "pgnkit perft: illegal position: no white king (board field, offset 0); no black king (board field, offset 0)\n"
    );
}
