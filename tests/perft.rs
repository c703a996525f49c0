//! Perft against every published suite in `../shared/data/perft/`.
//!
//! The always-on test runs each position up to the deepest depth whose
//! published count stays under a node budget (1 M nodes: about 2.7 G nodes
//! in all). `full_suite` is ignored: it runs every published depth, about
//! 4.1 T nodes (hours); `PGNKIT_PERFT_BUDGET=N` caps it at counts ≤ N:
//!
//! ```text
//! PGNKIT_PERFT_BUDGET=10000000 cargo test --release --test perft -- --ignored
//! ```

mod common;

use std::path::Path;

use pgnkit::{Position, perft};

struct Case {
    origin: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// `id`/`epd`/`perft N count` blocks (shakmaty, dartchess).
fn parse_blocks(text: &str, file: &str, cases: &mut Vec<Case>) {
    let mut current: Option<Case> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            cases.extend(current.take());
            current = Some(Case {
                origin: format!("{file}:{}", i + 1),
                fen: fen.trim().to_owned(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let nodes = parts.next().and_then(|n| n.parse().ok());
            match (depth, nodes, current.as_mut()) {
                (Some(d), Some(n), Some(case)) => case.counts.push((d, n)),
                _ => panic!("{file}:{}: bad perft line {line:?}", i + 1),
            }
        }
    }
    cases.extend(current);
}

/// `FEN ;D1 20 ;D2 400` lines, `#` comments (python-chess suites).
fn parse_epd(text: &str, file: &str, cases: &mut Vec<Case>) {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_owned();
        let counts = parts
            .filter_map(|p| {
                let p = p.trim().strip_prefix('D')?;
                let (d, n) = p.split_once(' ')?;
                Some((d.parse().ok()?, n.trim().parse().ok()?))
            })
            .collect();
        cases.push(Case {
            origin: format!("{file}:{}", i + 1),
            fen,
            counts,
        });
    }
}

fn load(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for (file, blocks) in [
        ("shakmaty/tricky.perft", true),
        ("shakmaty/random.perft", true),
        ("shakmaty/chess960.perft", true),
        ("dartchess/impossible-checker.perft", true),
        ("pychess/perftsuite.epd", false),
        ("pychess/perftsuite2.epd", false),
        ("pychess/frc_perftsuite.epd", false),
    ] {
        let text = std::fs::read_to_string(dir.join("perft").join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        if blocks {
            parse_blocks(&text, file, &mut cases);
        } else {
            parse_epd(&text, file, &mut cases);
        }
    }
    cases
}

fn run(budget: u64) {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let cases = load(&dir);
    let with_counts = cases.iter().filter(|c| !c.counts.is_empty()).count();
    // 9 + 127 + 32 (pychess) + 26 + 5,471 + 960 (shakmaty) + 3 (dartchess).
    assert_eq!(with_counts, 6_628, "positions with published counts");
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut nodes = 0;
    let mut runs = 0;
    for case in &cases {
        let pos = match Position::from_fen(&case.fen) {
            Ok(pos) => pos,
            Err(err) => {
                failures.push(format!("{} {}: {err}", case.origin, case.fen));
                continue;
            }
        };
        for (i, &(depth, expected)) in case.counts.iter().enumerate() {
            if i > 0 && expected > budget {
                break;
            }
            let got = perft(&pos, depth);
            nodes += got;
            runs += 1;
            if got != expected {
                failures.push(format!(
                    "{} {} depth {depth}: {got} != {expected}",
                    case.origin, case.fen
                ));
                break;
            }
        }
    }
    eprintln!(
        "{} positions, {runs} perft runs, {nodes} nodes in {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn suites_under_budget() {
    run(1_000_000);
}

#[test]
#[ignore]
fn full_suite() {
    let budget = std::env::var("PGNKIT_PERFT_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(u64::MAX);
    run(budget);
}

#[test]
fn frc_openings_parse() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let path = dir.join("perft/stockfish-books/FRC_openings.epd");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos = Position::from_fen(line.trim()).unwrap_or_else(|e| panic!("{line}: {e}"));
        // KQkq with the outermost rooks is written back unchanged.
        assert_eq!(pos.to_string(), line.trim());
        assert_eq!(pos.castles().mask().count(), 4, "{line}");
        assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
        count += 1;
    }
    assert_eq!(count, 960);
}

/// The filtered generator (used to resolve SAN) agrees with filtering the
/// full list, and counting agrees with listing, on every suite position.
#[test]
fn filtered_generation_agrees_with_full_list() {
    use pgnkit::{Bitboard, MoveList, Role};
    let Some(dir) = common::data_dir() else {
        return;
    };
    for case in load(&dir) {
        let Ok(pos) = Position::from_fen(&case.fen) else {
            continue;
        };
        let all = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), all.len(), "{}", case.fen);
        for role in Role::ALL {
            let mut targets = Bitboard::EMPTY;
            for m in all.iter().filter(|m| m.role() == role) {
                targets = targets.with(m.to()).with(m.king_to());
            }
            for to in targets {
                let mut got = MoveList::new();
                pos.legal_moves_filtered(Some(role), Bitboard::FULL, to.into(), &mut got);
                let want: Vec<_> = all
                    .iter()
                    .filter(|m| m.role() == role && (m.to() == to || m.king_to() == to))
                    .copied()
                    .collect();
                let mut got: Vec<_> = got.to_vec();
                got.sort_by_key(|m| format!("{m:?}"));
                let mut want = want;
                want.sort_by_key(|m| format!("{m:?}"));
                assert_eq!(got, want, "{} {role} to {to}", case.fen);
            }
        }
        for &m in all.iter() {
            assert!(pos.is_legal(m), "{} {m}", case.fen);
        }
    }
}

/// What a move's SAN text is, found the slow way: the check and mate
/// marks by playing the move, the origin by the full list of legal moves.
fn san_by_list(pos: &Position, m: pgnkit::Move) -> String {
    use pgnkit::Role;
    let mut after = *pos;
    after.play_unchecked(m);
    let mark = match (after.is_check(), after.legal_moves().is_empty()) {
        (true, true) => "#",
        (true, false) => "+",
        _ => "",
    };
    if let Some(side) = m.castling_side() {
        return format!("{}{mark}", side.san());
    }
    let (role, from, to) = (m.role(), m.from(), m.to());
    let mut text = String::new();
    if role == Role::Pawn {
        if m.is_capture() {
            text.push(from.file().char());
        }
    } else {
        text.push(role.char().to_ascii_uppercase());
        let rivals: Vec<_> = pos
            .legal_moves()
            .iter()
            .filter(|o| o.role() == role && o.castling_side().is_none())
            .filter(|o| o.to() == to && o.from() != from)
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            if rivals.iter().all(|r| r.file() != from.file()) {
                text.push(from.file().char());
            } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                text.push(from.rank().char());
            } else {
                text.push_str(&from.to_string());
            }
        }
    }
    if m.is_capture() {
        text.push('x');
    }
    text.push_str(&to.to_string());
    if let Some(p) = m.promotion() {
        text.push('=');
        text.push(p.char().to_ascii_uppercase());
    }
    text + mark
}

/// Each suite position that reads, with the positions one move on.
fn suite_and_one_move_on(dir: &Path) -> impl Iterator<Item = (Case, Vec<Position>)> {
    load(dir).into_iter().filter_map(|case| {
        let start = Position::from_fen(&case.fen).ok()?;
        let mut positions = vec![start];
        for &m in start.legal_moves().iter() {
            let mut next = start;
            next.play_unchecked(m);
            positions.push(next);
        }
        Some((case, positions))
    })
}

/// The check test that does not play the move ([`Position::gives_check`])
/// and the SAN writer built on it and on the rivals' own legality agree
/// with playing the move and listing all legal moves: every move of every
/// suite position and of the positions one move on. English SAN, built
/// in one word, agrees with the writer of every other alphabet given the
/// same letters (Chess960 castling too).
#[test]
fn check_marks_and_origins_without_playing() {
    use pgnkit::{Alphabet, Style};
    let byte_by_byte = Style::SAN.with_alphabet(Alphabet::Letters(*b"PNBRQK"));
    let Some(dir) = common::data_dir() else {
        return;
    };
    let mut moves = 0;
    for (case, positions) in suite_and_one_move_on(&dir) {
        for pos in &positions {
            for &m in pos.legal_moves().iter() {
                let mut after = *pos;
                after.play_unchecked(m);
                assert_eq!(pos.gives_check(m), after.is_check(), "{} {m}", case.fen);
                assert_eq!(
                    Style::SAN.text(pos, m),
                    byte_by_byte.text(pos, m),
                    "{} {m}",
                    case.fen
                );
                if !pos.is_chess960() {
                    let text = Style::SAN.text(pos, m);
                    assert_eq!(text.as_str(), san_by_list(pos, m), "{}", case.fen);
                    let played = Style::SAN.text_played(pos, m, &after);
                    assert_eq!(text, played, "{}", case.fen);
                }
                moves += 1;
            }
        }
    }
    eprintln!("{moves} moves");
    assert!(moves > 1_000_000, "{moves} moves");
}

/// Every suite position and every position one move on, written as FEN
/// and as EPD, reads back as the same position; the EPD is the FEN
/// without its counters.
#[test]
fn fens_written_read_back() {
    use pgnkit::EpMode;
    let Some(dir) = common::data_dir() else {
        return;
    };
    let mut positions = 0;
    for (case, all) in suite_and_one_move_on(&dir) {
        for pos in &all {
            let fen = pos.fen(EpMode::Always);
            let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            // The same position; a Chess960 position without castling
            // rights reads back as a standard one.
            assert_eq!(back.board(), pos.board(), "{} -> {fen}", case.fen);
            assert_eq!(back.fen(EpMode::Always), fen, "{}", case.fen);
            assert_eq!(back.zobrist_key(), pos.zobrist_key(), "{fen}");
            let mut epd = String::new();
            pos.write_epd(EpMode::Always, &mut epd).unwrap();
            let counters = format!(" {} {}", pos.halfmoves(), pos.fullmoves());
            assert_eq!(fen.strip_suffix(&counters), Some(epd.as_str()), "{fen}");
            positions += 1;
        }
    }
    eprintln!("{positions} positions");
    assert!(positions > 10_000, "{positions} positions");
}
