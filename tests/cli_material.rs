//! `filter -e 'material "PATTERN"'` against pgn-extract's `-z` on the
//! shared data: the same games, except where pgn-extract's count of the
//! material goes wrong after a promotion (docs/filter.md).

mod cli_support;
mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use cli_support::{pgnkit, temp_file};

/// The games of a PGN file pgnkit wrote or pgn-extract wrote: (White,
/// Black, Round, Date) and whether the mainline has a promotion.
fn games(file: &Path) -> Vec<((String, String, String, String), bool)> {
    let out = pgnkit(&[
        "convert",
        "--no-comments",
        "--no-variations",
        "--no-nags",
        "--width",
        "100000",
        file.to_str().expect("path"),
    ]);
    assert!(out.code <= 1, "{}", out.stderr);
    let mut games = Vec::new();
    let mut tags = Vec::new();
    for line in out.stdout.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            tags.push(tag.to_string());
        } else if !line.is_empty() {
            let tag = |name: &str| {
                tags.iter()
                    .find_map(|t| t.strip_prefix(&format!("{name} \"")))
                    .map(|v| v.trim_end_matches("\"]").to_string())
                    .unwrap_or_default()
            };
            let key = (tag("White"), tag("Black"), tag("Round"), tag("Date"));
            games.push((key, line.contains('=')));
            tags.clear();
        }
    }
    games
}

#[test]
fn material_patterns_select_what_pgn_extract_selects() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let Some(extract) = common::pgn_extract() else {
        return;
    };
    let files = [
        "corpus/mliebelt-pgn-parser/twic-01-232games.pgn",
        "corpus/shakmaty-pgn-reader/twic1599_1000k.pgn",
        "corpus/pgn-extract/infiles/fischer.pgn",
    ];
    let patterns = [
        "rp r",
        "r r",
        "r2p+ r=p#",
        "q*r+l*p+ q=r1<=l2>=p1<",
        "q*r*b2n0p* q=r=b0n2p=",
        "10 r p*",
        "0 rp* r",
        "4 qp* q",
    ];
    let (mut both, mut promoted) = (0, 0);
    for file in files {
        let path = data.join(file);
        let path = path.to_str().expect("path");
        for pattern in patterns {
            let balances = temp_file(
                "material",
                "balances.txt",
                format!("{pattern}\n").as_bytes(),
            );
            let theirs = temp_file("material", "pgn-extract.pgn", b"");
            let ours = temp_file("material", "pgnkit.pgn", b"");
            let run = Command::new(&extract)
                .arg("-s")
                .arg("-z")
                .arg(&balances)
                .arg("-o")
                .arg(&theirs)
                .arg(path)
                .output()
                .expect("run pgn-extract");
            assert!(run.status.success(), "pgn-extract -z {pattern} {file}");
            let expr = format!("material \"{pattern}\"");
            let out = pgnkit(&[
                "filter",
                "-e",
                &expr,
                "-o",
                ours.to_str().expect("path"),
                path,
            ]);
            assert!(out.code <= 1, "{expr}: {}", out.stderr);
            let theirs: BTreeSet<_> = games(&theirs).into_iter().map(|(k, _)| k).collect();
            let ours = games(&ours);
            // Every game pgn-extract selects, pgnkit selects.
            let keys: BTreeSet<_> = ours.iter().map(|(k, _)| k.clone()).collect();
            assert!(
                theirs.is_subset(&keys),
                "{file} {pattern}: {theirs:?} vs {keys:?}"
            );
            // The others have a promotion in their mainline.
            for (key, promotion) in &ours {
                if !theirs.contains(key) {
                    assert!(
                        promotion,
                        "{file} {pattern}: {key:?} not selected by pgn-extract"
                    );
                    promoted += 1;
                }
            }
            both += theirs.len();
        }
    }
    // Measured: 171 selections both make, 5 only pgnkit's (promotions).
    assert!(both >= 150, "{both} games selected by both");
    assert!(promoted <= both / 10, "{promoted} differences");
}

#[test]
fn patterns_last_their_half_moves() {
    // White's rook and Black's rook from ply 1 (1. Kxd2) to ply 3, then
    // Black takes the rook: three positions with the balance, each
    // followed by a move.
    let game = b"[FEN \"4k2r/8/8/8/8/8/3n4/R3K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kxd2 Rh7 2. Rh1 Rxh1 *\n";
    let file = temp_file("material-lasting", "game.pgn", game);
    let file = file.to_str().expect("path");
    for (pattern, count) in [("r r", "1"), ("2 r r", "1"), ("3 r r", "0"), ("r2 r", "0")] {
        let expr = format!("material \"{pattern}\"");
        let out = pgnkit(&["filter", "--count", "-e", &expr, file]);
        assert_eq!(out.stdout.trim(), count, "{pattern}: {}", out.stderr);
    }
    // A pattern needs two sides.
    let out = pgnkit(&["filter", "-e", "material \"0 r\"", file]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("bad material pattern"),
        "{}",
        out.stderr
    );
}
