//! Round trips for every notation: each legal move of many positions is
//! written in every style, parsed back, resolved with the matching letter
//! policy, and must give the same move. Positions: the shakmaty perft
//! suites (tricky, a sample of random, Chess960) and every position two
//! plies from the start position and from Kiwipete.

mod common;

use std::path::Path;

use pgnkit::{
    Alphabet, LetterPolicy, Lint, Move, MoveToken, Notation, Position, Resolved, Square, Style,
};

/// The styles written, each with the letter policy that reads it back.
fn styles() -> [(&'static str, Style, LetterPolicy); 11] {
    let figurine_lan = Style::new(Notation::Long, Alphabet::Figurine);
    [
        ("san", Style::SAN, LetterPolicy::English),
        ("lan", Style::LAN, LetterPolicy::English),
        (
            "lan+P",
            Style::LAN.with_pawn_letter(true),
            LetterPolicy::English,
        ),
        ("uci", Style::UCI, LetterPolicy::Auto),
        ("de", Style::DE, LetterPolicy::German),
        (
            "de+B",
            Style::DE.with_pawn_letter(true),
            LetterPolicy::German,
        ),
        ("de-lan", Style::DE_LAN, LetterPolicy::German),
        (
            "de-lan+B",
            Style::DE_LAN.with_pawn_letter(true),
            LetterPolicy::German,
        ),
        ("figurine", Style::FIGURINE, LetterPolicy::Auto),
        ("figurine-lan", figurine_lan, LetterPolicy::Auto),
        (
            "figurine-lan+P",
            figurine_lan.with_pawn_letter(true),
            LetterPolicy::Auto,
        ),
    ]
}

/// Writes, parses, resolves every legal move of `pos` in every style;
/// returns the number of round trips.
fn round_trip(pos: &Position, origin: &str, failures: &mut Vec<String>) -> usize {
    let styles = styles();
    let mut count = 0;
    for &m in pos.legal_moves().iter() {
        let mut after = *pos;
        after.play_unchecked(m);
        for (name, style, policy) in &styles {
            let text = style.text(pos, m);
            count += 1;
            let token = match MoveToken::parse(text.as_bytes()) {
                Ok(token) => token,
                Err(e) => {
                    failures.push(format!("{origin}: {name} {text:?}: parse: {e}"));
                    continue;
                }
            };
            match token.resolve(pos, *policy) {
                Ok(Resolved::Move(got)) if got == m => {}
                other => {
                    failures.push(format!("{origin}: {name} {text:?}: {m:?} -> {other:?}"));
                    continue;
                }
            }
            // SAN as written must be standard SAN: no lint at all.
            if *name == "san" {
                let lints = token.lints(pos, m, &after);
                if !lints.is_empty() {
                    let lints: Vec<Lint> = lints.iter().collect();
                    failures.push(format!("{origin}: san {text:?}: lints {lints:?}"));
                }
            }
            if style.notation == Notation::Uci {
                continue;
            }
            // The check mark written agrees with the position after.
            let marked = text.ends_with('+') || text.ends_with('#');
            if marked != after.is_check() {
                failures.push(format!("{origin}: {name} {text:?}: check mark wrong"));
            }
        }
    }
    count
}

/// The `epd` lines of a shakmaty perft file.
fn epds(dir: &Path, file: &str) -> Vec<String> {
    let path = dir.join("perft/shakmaty").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("epd "))
        .map(|fen| fen.trim().to_owned())
        .collect()
}

fn check_suite(file: &str, step: usize, expected_positions: usize) {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let fens = epds(&dir, file);
    let mut failures = Vec::new();
    let mut positions = 0;
    let mut moves = 0;
    for (i, fen) in fens.iter().enumerate().step_by(step) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{file} {fen}: {e}"));
        moves += round_trip(&pos, &format!("{file} #{i} {fen}"), &mut failures);
        positions += 1;
    }
    assert_eq!(positions, expected_positions, "{file}");
    eprintln!("{file}: {positions} positions, {moves} round trips");
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tricky_positions() {
    check_suite("tricky.perft", 1, 26);
}

#[test]
fn random_positions_sample() {
    check_suite("random.perft", 7, 782);
}

#[test]
fn chess960_positions() {
    check_suite("chess960.perft", 1, 960);
}

#[test]
fn depth_two_from_startpos_and_kiwipete() {
    let mut failures = Vec::new();
    for (name, fen, expected) in [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            421,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2_088,
        ),
    ] {
        let root = Position::from_fen(fen).unwrap();
        let mut positions = 0;
        let mut trips = 0;
        let mut visit = |pos: &Position, path: &[Move]| {
            let origin = format!("{name} after {path:?}");
            trips += round_trip(pos, &origin, &mut failures);
            positions += 1;
        };
        visit(&root, &[]);
        for &m1 in root.legal_moves().iter() {
            let mut p1 = root;
            p1.play_unchecked(m1);
            visit(&p1, &[m1]);
            for &m2 in p1.legal_moves().iter() {
                let mut p2 = p1;
                p2.play_unchecked(m2);
                visit(&p2, &[m1, m2]);
            }
        }
        assert_eq!(
            positions, expected,
            "{name}: 1 + depth 1 + depth 2 positions"
        );
        eprintln!("{name}: {positions} positions up to depth 2, {trips} round trips");
    }
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every UCI pair and every SAN `{piece}{square}` in tricky and a sample of
/// random positions: resolving never panics, a move found is legal, and a
/// legal move is always found.
#[test]
fn every_token_resolves_consistently() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let mut fens = epds(&dir, "tricky.perft");
    fens.extend(epds(&dir, "random.perft").into_iter().step_by(97));
    fens.extend(epds(&dir, "chess960.perft").into_iter().step_by(97));
    let letters = ["", "N", "B", "R", "Q", "K", "P", "S", "L", "T", "D"];
    let policies = [
        LetterPolicy::Auto,
        LetterPolicy::English,
        LetterPolicy::German,
    ];
    let mut failures = Vec::new();
    let mut tokens = 0;
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap();
        let legal = pos.legal_moves();
        for from in Square::all() {
            for to in Square::all() {
                let text = format!("{from}{to}");
                let Ok(token) = MoveToken::parse(text.as_bytes()) else {
                    continue;
                };
                tokens += 1;
                let plain = legal.iter().find(|m| {
                    !m.is_castle() && m.promotion().is_none() && m.from() == from && m.to() == to
                });
                match (token.resolve(&pos, LetterPolicy::Auto), plain) {
                    (Ok(Resolved::Move(m)), Some(&want)) if m == want => {}
                    (Ok(Resolved::Move(m)), None) if m.is_castle() && legal.contains(&m) => {}
                    (Err(_), None) => {}
                    (got, want) => failures.push(format!("{fen} {text}: {got:?}, legal {want:?}")),
                }
            }
            for letter in letters {
                let text = format!("{letter}{from}");
                let Ok(token) = MoveToken::parse(text.as_bytes()) else {
                    continue;
                };
                for policy in policies {
                    tokens += 1;
                    if let Ok(Resolved::Move(m)) = token.resolve(&pos, policy)
                        && !(legal.contains(&m) && m.to() == from)
                    {
                        failures.push(format!("{fen} {text} {policy:?}: {m:?} not legal"));
                    }
                }
            }
        }
    }
    eprintln!("{} positions, {tokens} tokens", fens.len());
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The lichess opening book (`corpus/lichess-chess-openings/*.tsv`, plain
/// SAN lines without comments): every move resolves in English, carries no
/// lint, and the writer gives back exactly the text of the book.
#[test]
fn lichess_openings_rewrite_exactly() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut lines, mut moves) = (0, 0);
    for file in ["a", "b", "c", "d", "e"] {
        let path = dir.join(format!("corpus/lichess-chess-openings/{file}.tsv"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        for line in text.lines().skip(1) {
            let Some(pgn) = line.split('\t').nth(2) else {
                failures.push(format!("{file}.tsv: no pgn column in {line:?}"));
                continue;
            };
            lines += 1;
            let mut pos = Position::startpos();
            // Move numbers are the only other tokens in these lines.
            for san in pgn.split(' ').filter(|t| !t.ends_with('.')) {
                moves += 1;
                let token = MoveToken::parse(san.as_bytes());
                let resolved = token.map(|t| (t, t.resolve(&pos, LetterPolicy::English)));
                let (token, m) = match resolved {
                    Ok((token, Ok(Resolved::Move(m)))) => (token, m),
                    other => {
                        failures.push(format!("{pgn}: {san}: {other:?}"));
                        break;
                    }
                };
                let written = Style::SAN.text(&pos, m);
                let before = pos;
                pos.play_unchecked(m);
                let lints = token.lints(&before, m, &pos);
                if &*written != san || !lints.is_empty() {
                    let lints: Vec<Lint> = lints.iter().collect();
                    failures.push(format!("{pgn}: {san} written {written}, lints {lints:?}"));
                }
            }
        }
    }
    eprintln!("{lines} opening lines, {moves} moves");
    assert!(lines > 3_000, "{lines}");
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
