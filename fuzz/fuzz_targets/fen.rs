//! FEN parsing on arbitrary text: never panics; an accepted setup writes
//! back to a FEN that reads as the same setup, and an accepted position's
//! FEN reads back as the same position, whose moves all play.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::{EpMode, Position, Setup, Style};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(setup) = Setup::from_fen(text) else {
        let _ = Position::from_fen(text).map_err(|e| e.to_string());
        return;
    };
    let written = setup.to_fen();
    assert_eq!(Setup::from_fen(&written).as_ref(), Ok(&setup), "{written}");
    let pos = match Position::from_fen(text) {
        Ok(pos) => pos,
        Err(err) => {
            let _ = err.to_string();
            return;
        }
    };
    for mode in [EpMode::Always, EpMode::Legal] {
        let fen = pos.fen(mode);
        let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.fen(mode), fen);
        if mode == EpMode::Always {
            assert!(again == pos, "{fen} reads as another position");
        }
    }
    for m in pos.legal_moves().iter() {
        let _ = Style::SAN.text(&pos, *m);
        let mut after = pos.clone();
        after
            .play(*m)
            .unwrap_or_else(|e| panic!("{text}: {m:?}: {e}"));
        let _ = after.fen(EpMode::Legal);
    }
});
