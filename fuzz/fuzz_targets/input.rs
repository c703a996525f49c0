//! Input decompression on arbitrary bytes: detection, zstd/gzip/bzip2
//! decoding and framing never panic, and output is read only up to a cap
//! (a bomb is the caller's bound to set, not an allocation).

#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::Input;
use pgnkit::pgn::GameFramer;

/// Decompressed bytes read per input at most.
const CAP: u64 = 8 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::from_reader("fuzz", std::io::Cursor::new(data.to_vec()), None) else {
        return;
    };
    let mut framer = GameFramer::new(input.take(CAP)).with_max_game_bytes(1 << 16);
    while let Some(game) = framer.next_game() {
        if let Err(err) = game {
            let _ = err.to_string();
        }
    }
});
