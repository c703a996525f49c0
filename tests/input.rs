//! Streaming real compressed archives through `pgnkit::input`.

mod common;

use std::io::{self, BufRead, BufReader, Read};

use pgnkit::input::{self, Compression};

/// `big/pgnmentor-12-players.pgn.zst`: the shared data README gives 31,990
/// games and 22,406,081 decompressed bytes; every game has an `[Event ` tag
/// at the start of a line, so `zstd -dc … | grep -c '^\[Event '` is 31990
/// too (checked when the test was written).
#[test]
fn pgnmentor_zst_streams_every_game() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let path = dir.join("big/pgnmentor-12-players.pgn.zst");
    let input = input::open(&path).expect("open");
    assert_eq!(input.compression(), Compression::Zstd);
    assert_eq!(input.total_len(), Some(4_922_419));
    let progress = input.bytes_read();

    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    let (mut events, mut bytes) = (0u64, 0u64);
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).expect("read");
        if n == 0 {
            break;
        }
        bytes += n as u64;
        events += u64::from(line.starts_with(b"[Event "));
    }
    assert_eq!(events, 31_990);
    assert_eq!(bytes, 22_406_081);
    assert_eq!(progress.get(), 4_922_419);
}

/// A zstd bomb (1 GiB of zeros in a few kilobytes) streams through a fixed
/// buffer: the peak memory of the process grows by far less than the data.
#[test]
fn zstd_bomb_streams_in_bounded_memory() {
    const LEN: u64 = 1 << 30;
    let mut bomb = Vec::new();
    zstd::stream::copy_encode(io::repeat(0).take(LEN), &mut bomb, 1).expect("encode");
    assert!(bomb.len() < 1 << 20);

    let before = common::peak_rss_kib();
    let mut input =
        input::Input::from_reader("bomb.zst", io::Cursor::new(bomb), None).expect("open");
    let mut buf = vec![0; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = input.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        total += n as u64;
    }
    assert_eq!(total, LEN);
    if let (Some(before), Some(after)) = (before, common::peak_rss_kib()) {
        assert!(
            after - before < 64 * 1024,
            "peak grew by {} KiB",
            after - before
        );
    }
}
