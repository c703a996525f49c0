//! The big archives (`data/big/*.pgn.zst`, read through `input::open`):
//! game counts, parse → write → parse for every game, and the syntax
//! checker's errors against the model's.
//!
//! pgnmentor: python-chess reports 31,997 games, pgnkit (like pgn-reader and
//! pgn-extract) 31,990: python-chess ends 7 games at two blank lines between
//! the tags and the movetext (its bug 5). TCEC: 4,922 (pgn-reader reports
//! 4,924, counting `;` comment lines between games as games).

mod common;
mod pgn_support;

use std::time::Instant;

use pgnkit::input;
use pgnkit::pgn::{GameFramer, SyntaxChecker, parse_game};

const FILES: [(&str, usize, usize); 2] = [
    ("pgnmentor-12-players.pgn.zst", 31_997, 31_990),
    ("tcec-seasons-01-14.pgn.zst", 4_922, 4_922),
];

#[test]
fn big_archives_frame_parse_and_round_trip() {
    let Some(data) = common::data_dir() else {
        return;
    };
    for (name, python_chess, ours) in FILES {
        let start = Instant::now();
        let path = data.join("big").join(name);
        let mut framer = GameFramer::new(input::open(&path).expect("open"));
        let mut games = 0;
        let mut written = Vec::new();
        let mut checker = SyntaxChecker::default();
        let mut checked = Vec::new();
        let mut comments = 0;
        while let Some(raw) = framer.next_game() {
            let raw = raw.expect("framing");
            pgn_support::assert_round_trip(&raw, name, &mut written);
            comments += pgn_support::assert_comment_index(&raw, name);
            checked.clear();
            checker.check(&raw, |e| checked.push(e));
            assert_eq!(
                checked,
                parse_game(&raw).errors,
                "{name} game {}",
                raw.number
            );
            games += 1;
        }
        eprintln!(
            "{name}: {games} games (python-chess {python_chess}) in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        assert_eq!(games, ours, "{name}");
        // TCEC has a comment on nearly every move; pgnmentor has none.
        if name.starts_with("tcec") {
            assert!(
                comments > 100 * games,
                "{name}: {comments} comments indexed"
            );
        }
    }
}
