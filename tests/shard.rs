//! `--shard K/N`: the N shards of the inputs hold every game exactly once,
//! with the numbers and lines of the whole file, so that their outputs,
//! concatenated in shard order, are the output of one run, byte for byte.
//! Checked on the shared corpus, the broken files and the decompressed big
//! corpora.

mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cli_support::{pgnkit_bytes, pgnkit_envs, pgnkit_in, temp_file};
use pgnkit::engine::{self, Item, Options};
use pgnkit::shard::{Shard, ShardIndex, Split};

/// A game as the engine hands it: number, offset, first line, text,
/// record; or the error of a game skipped.
type Handed = (Result<(u64, u64, u64, Vec<u8>), String>, Vec<u8>);

/// What the engine hands on, collected.
type Collect = cli_support::Collect<Handed>;

/// What the engine hands on of `paths` with `options`.
fn through_engine(paths: &[PathBuf], options: &Options) -> Collect {
    let mut sink = Collect::default();
    let game = |(): &mut (), item: &Item<'_>, out: &mut Vec<Handed>| {
        let game = item
            .game
            .map(|g| (g.number, g.offset, g.first_line, g.bytes.to_vec()))
            .map_err(ToString::to_string);
        out.push((game, item.record.to_vec()));
    };
    engine::run(options, paths, || (), game, &mut sink).expect("the run");
    sink
}

fn shard(k: u32, n: u32) -> Shard {
    Shard::new(k, n).expect("a shard")
}

/// The shards `1..=n` of `paths` through the engine, concatenated, equal
/// the whole run, for each way of reading: one job; two with pieces of a
/// few KiB (so that the pieces' cuts fall near the shards' and are
/// checked against them); records.
fn assert_shards_concatenate(paths: &[PathBuf], counts: std::ops::RangeInclusive<u32>) {
    assert_indexed_shards_concatenate(paths, counts, None);
}

/// [`assert_shards_concatenate`], the shards starting from `index` when
/// it is given.
fn assert_indexed_shards_concatenate(
    paths: &[PathBuf],
    counts: std::ops::RangeInclusive<u32>,
    index: Option<&Path>,
) {
    let ways = [
        (1, None, false),
        (2, Some(4096), false),
        (2, Some(4096), true),
    ];
    for (jobs, piece_bytes, records) in ways {
        let base = Options {
            jobs,
            batch_bytes: piece_bytes.unwrap_or(engine::BATCH_BYTES),
            piece_bytes,
            records,
            ..Options::default()
        };
        let whole = through_engine(paths, &base);
        for n in counts.clone() {
            let mut games = Vec::new();
            let mut failures = Vec::new();
            for k in 1..=n {
                let options = Options {
                    shard: shard(k, n),
                    index: index.map(Path::to_path_buf),
                    ..base.clone()
                };
                let part = through_engine(paths, &options);
                games.extend(part.games);
                failures.extend(part.failures);
            }
            let differs = (0..games.len().max(whole.games.len()))
                .find(|&i| games.get(i) != whole.games.get(i))
                .map(|i| {
                    let place = |g: Option<&Handed>| {
                        g.map(|(g, _)| g.as_ref().map(|g| (g.0, g.1, g.2)).map_err(Clone::clone))
                    };
                    (i, place(games.get(i)), place(whole.games.get(i)))
                });
            assert_eq!(differs, None, "{paths:?}: {n} shards, {base:?}");
            assert_eq!(failures, whole.failures, "{paths:?}: {n} shards");
        }
    }
}

#[test]
fn shards_of_every_corpus_file_hold_its_games_once() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], false) else {
        return;
    };
    assert!(files.len() > 150, "{} files", files.len());
    for file in &files {
        assert_shards_concatenate(std::slice::from_ref(file), 1..=8);
    }
}

#[test]
fn shards_of_many_inputs_hold_each_game_once() {
    let Some(mut files) = common::pgn_files(&["corpus"], false) else {
        return;
    };
    // A compressed file is one unit, in the shard of its first byte.
    let text = std::fs::read(&files[7]).expect("a corpus file");
    let packed = zstd::encode_all(&text[..], 3).expect("compress");
    files.insert(40, temp_file("shard-units", "unit.pgn.zst", &packed));
    assert_shards_concatenate(&files, 1..=8);
}

/// The big corpora `names`, decompressed into a temporary directory of
/// the test `test`, which the test removes.
fn big_corpora(test: &str, names: &[&str]) -> Option<(PathBuf, Vec<PathBuf>)> {
    let data = common::data_dir()?;
    let dir = std::env::temp_dir().join(format!("pgnkit-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    for name in names {
        let path = dir.join(format!("{name}.pgn"));
        let source =
            std::fs::File::open(data.join(format!("big/{name}.pgn.zst"))).expect("a big corpus");
        let mut out = std::fs::File::create(&path).expect("a temp file");
        zstd::stream::copy_decode(source, &mut out).expect("decompress");
        files.push(path);
    }
    Some((dir, files))
}

/// The output of `args` on `path`, in shard `k` of `n` (whole: `None`).
fn output(args: &[&str], path: &Path, shard: Option<(u32, u32)>) -> Vec<u8> {
    let file = path.to_str().expect("a UTF-8 path");
    let spec = shard.map(|(k, n)| format!("{k}/{n}"));
    let extra = spec.as_deref().map(|spec| ["--shard", spec]);
    let all: Vec<&str> = args
        .iter()
        .copied()
        .chain(extra.iter().flatten().copied())
        .chain([file])
        .collect();
    let out = pgnkit_bytes(&all);
    assert!(out.code <= 1, "{all:?}: {}", out.stderr);
    out.stdout
}

const VALIDATE: &[&str] = &["validate", "--format", "json", "--jobs", "2"];
const TAGS: &[&str] = &[
    "tags",
    "--format",
    "csv",
    "--fields",
    "game,White,Black,Result,Date",
    "--jobs",
    "2",
];

/// The outputs of `validate` and `tags` on `file` in N = 1..8 shards,
/// concatenated, equal the output of one run; with `--index INDEX` when
/// `index` is given.
fn assert_outputs_concatenate(file: &Path, index: Option<&Path>) {
    let index = index.map(|i| ["--index", i.to_str().expect("a UTF-8 path")]);
    for args in [VALIDATE, TAGS] {
        let whole = output(args, file, None);
        assert!(!whole.is_empty(), "{args:?} on {file:?} wrote nothing");
        let args: Vec<&str> = args.iter().chain(index.iter().flatten()).copied().collect();
        for n in 1..=8 {
            let joined: Vec<u8> = (1..=n)
                .flat_map(|k| output(&args, file, Some((k, n))))
                .collect();
            assert!(whole == joined, "{args:?} on {file:?} in {n} shards");
        }
    }
}

#[test]
fn shards_of_the_big_corpora_concatenate_byte_for_byte() {
    let names = ["pgnmentor-12-players", "tcec-seasons-01-14"];
    let Some((dir, files)) = big_corpora("shard-big", &names) else {
        return;
    };
    let started = Instant::now();
    for file in &files {
        assert_outputs_concatenate(file, None);
        assert_shards_concatenate(std::slice::from_ref(file), 7..=7);
    }
    // The engine's part, not the machine's: a loose bound.
    assert!(started.elapsed() < Duration::from_secs(600));
    let _ = std::fs::remove_dir_all(dir);
}

/// How a multi-frame zstd file is written ([`frames`]).
#[derive(Debug, Clone, Copy)]
enum Frames {
    /// As `pzstd` writes: each frame after a skippable frame that holds
    /// its size, and no text length in the frame's header.
    Pzstd,
    /// As the seekable format writes: text lengths in the headers, a
    /// seek table in a skippable frame at the end.
    Seekable,
}

/// `text` as independent zstd frames of `chunk` bytes of text each, cut
/// anywhere (inside games, tags and comments), written as `how` says.
fn frames(text: &[u8], chunk: usize, how: Frames) -> Vec<u8> {
    let skippable = |nibble: u32, payload: &[u8]| {
        let mut frame = (0x184D_2A50 + nibble).to_le_bytes().to_vec();
        frame.extend(u32::try_from(payload.len()).expect("small").to_le_bytes());
        frame.extend(payload);
        frame
    };
    let mut out = Vec::new();
    let mut table = Vec::new();
    for piece in text.chunks(chunk) {
        let frame = match how {
            Frames::Pzstd => {
                let mut encoder =
                    zstd::stream::write::Encoder::new(Vec::new(), 1).expect("an encoder");
                std::io::Write::write_all(&mut encoder, piece).expect("compress");
                encoder.finish().expect("compress")
            }
            Frames::Seekable => zstd::bulk::compress(piece, 1).expect("compress"),
        };
        let size = u32::try_from(frame.len()).expect("small").to_le_bytes();
        match how {
            Frames::Pzstd => out.extend(skippable(0, &size)),
            Frames::Seekable => {
                table.extend(size);
                table.extend(u32::try_from(piece.len()).expect("small").to_le_bytes());
            }
        }
        out.extend(frame);
    }
    if let Frames::Seekable = how {
        let count = u32::try_from(text.len().div_ceil(chunk)).expect("small");
        table.extend(count.to_le_bytes());
        table.push(0);
        table.extend(0x8F92_EAB1u32.to_le_bytes());
        out.extend(skippable(0xE, &table));
    }
    out
}

/// The big corpora of [`big_corpora`] written again as multi-frame zstd
/// files (`name.how.pgn.zst`), `chunk` bytes of text a frame, beside them.
fn framed_corpora(files: &[PathBuf], chunk: usize, how: Frames) -> Vec<PathBuf> {
    files
        .iter()
        .map(|file| {
            let text = std::fs::read(file).expect("a decompressed corpus");
            let path = file.with_extension(format!("{how:?}.pgn.zst"));
            std::fs::write(&path, frames(&text, chunk, how)).expect("a temp file");
            path
        })
        .collect()
}

#[test]
fn shards_of_multi_frame_zstd_files_concatenate_byte_for_byte() {
    let names = ["pgnmentor-12-players", "tcec-seasons-01-14"];
    let Some((dir, files)) = big_corpora("shard-frames", &names) else {
        return;
    };
    // About what `pzstd -p 8` writes: 17 frames of TCEC, 3 of pgnmentor;
    // and frames of 256 KiB, as a seekable file made for random access.
    let mut framed = framed_corpora(&files, 8 << 20, Frames::Pzstd);
    framed.extend(framed_corpora(&files[..1], 256 << 10, Frames::Seekable));
    for file in &framed {
        assert_outputs_concatenate(file, None);
        assert_outputs_concatenate(file, Some(&index_of(file).1));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shards_of_small_frames_hold_each_game_once() {
    let Some((dir, files)) = big_corpora("shard-small-frames", &["pgnmentor-12-players"]) else {
        return;
    };
    // Frames far smaller than games of TCEC would be; here a few games a
    // frame, and games across frames everywhere.
    for how in [Frames::Pzstd, Frames::Seekable] {
        let framed = framed_corpora(&files, 48 << 10, how);
        assert_shards_concatenate(&framed, 1..=8);
        // Every shard but the first starts inside the file's text, which
        // one unit would not: shard 2 of 2 hands out games.
        let second = through_engine(
            &framed,
            &Options {
                shard: shard(2, 2),
                ..Options::default()
            },
        );
        assert!(second.games.len() > 1000, "{how:?}: {}", second.games.len());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shards_of_the_corpus_concatenate_byte_for_byte() {
    let Some(files) = common::pgn_files(&["corpus"], false) else {
        return;
    };
    let names: Vec<&str> = files.iter().filter_map(|f| f.to_str()).collect();
    for n in [1, 2, 3, 5, 8] {
        for args in [VALIDATE, TAGS] {
            let all: Vec<&str> = args.iter().chain(&names).copied().collect();
            let whole = pgnkit_bytes(&all);
            let mut joined = Vec::new();
            for k in 1..=n {
                let spec = format!("{k}/{n}");
                let mut sharded = all.clone();
                sharded.extend(["--shard", &spec]);
                joined.extend(pgnkit_bytes(&sharded).stdout);
            }
            assert!(whole.stdout.len() > 1000);
            assert!(whole.stdout == joined, "{args:?} in {n} shards");
        }
    }
}

#[test]
fn shards_merge_into_the_stats_of_one_run() {
    let Some((big, files)) = big_corpora("shard-stats-big", &["pgnmentor-12-players"]) else {
        return;
    };
    let file = files[0].to_str().expect("a UTF-8 path");
    let dir = temp_file("shard-stats", "x", b"");
    let dir = dir.parent().expect("the temp dir");
    let whole = pgnkit_bytes(&["stats", "--json", file]);
    let mut parts = Vec::new();
    for k in 1..=4 {
        let part = dir.join(format!("{k}.json"));
        let spec = format!("{k}/4");
        let out = pgnkit_bytes(&["stats", "--json", "--shard", &spec, file]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        std::fs::write(&part, out.stdout).expect("write a part");
        parts.push(part.to_str().expect("a UTF-8 path").to_string());
    }
    let mut merge = vec!["stats", "--json", "--merge"];
    merge.extend(parts.iter().map(String::as_str));
    let merged = pgnkit_bytes(&merge);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(whole.stdout == merged.stdout, "merged stats differ");
    let _ = std::fs::remove_dir_all(big);
}

#[test]
fn standard_input_is_one_unit_of_the_first_shard() {
    let text = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    let first = pgnkit_in(&["tags", "--fields", "game,Event", "--shard", "1/2"], text);
    assert_eq!(first.stdout, "1\ta\n2\tb\n");
    let second = pgnkit_in(&["tags", "--fields", "game,Event", "--shard", "2/2"], text);
    assert_eq!((second.code, second.stdout.as_str()), (0, ""));
}

#[test]
fn a_missing_file_is_reported_by_one_shard() {
    let path = temp_file("shard-missing", "a.pgn", b"[Event \"a\"]\n\n1. e4 *\n");
    let file = path.to_str().expect("a UTF-8 path");
    let missing = path.with_file_name("missing.pgn");
    let missing = missing.to_str().expect("a UTF-8 path");
    let codes: Vec<(i32, bool)> = (1..=3)
        .map(|k| {
            let spec = format!("{k}/3");
            let out = pgnkit_envs(&["validate", "--shard", &spec, file, missing], &[]);
            (out.code, out.stderr.contains("missing.pgn"))
        })
        .collect();
    // The missing file stands at the end of the text: the last shard.
    assert_eq!(codes, [(0, false), (0, false), (2, true)]);
}

#[test]
fn bad_shards_are_usage_errors() {
    for bad in ["0/3", "4/3", "1/0", "x", "1/2/3"] {
        let out = pgnkit_envs(&["validate", "--shard", bad, "fixtures/myschach.pgn"], &[]);
        assert_eq!(out.code, 2, "{bad}");
        assert!(out.stderr.contains("--shard"), "{bad}: {}", out.stderr);
    }
}

/// The index of `path`, written beside it (`path.idx`).
fn index_of(path: &Path) -> (ShardIndex, PathBuf) {
    let index = ShardIndex::build(path).expect("an index");
    let written = path.with_extension("idx");
    std::fs::write(&written, index.to_string()).expect("write the index");
    (index, written)
}

#[test]
fn indexed_shards_hold_each_game_once() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], false) else {
        return;
    };
    let Some((dir, big)) = big_corpora("shard-index", &["pgnmentor-12-players"]) else {
        return;
    };
    // Every file of the corpus and the broken files, one after another:
    // places of the index fall into whatever they hold.
    let all: Vec<u8> = files
        .iter()
        .chain(&files)
        .flat_map(|f| std::fs::read(f).expect("a corpus file"))
        .collect();
    let joined = dir.join("all.pgn");
    std::fs::write(&joined, &all).expect("a temp file");
    let mut inputs = vec![joined, big[0].clone()];
    inputs.extend(framed_corpora(&big, 48 << 10, Frames::Pzstd));
    inputs.extend(framed_corpora(&big, 256 << 10, Frames::Seekable));
    for input in &inputs {
        let (index, written) = index_of(input);
        let plain = input.extension().is_some_and(|e| e == "pgn");
        let split = if plain { Split::Text } else { Split::Frames };
        assert_eq!(index.split(), split, "{input:?}");
        assert!(index.points().len() > 4, "{input:?}");
        // That each place is where the framer over the whole file finds
        // it is tested beside the index (src/shard/index.rs); here, that
        // the shards started from them hold each game once.
        let counts = if plain { 5..=8 } else { 1..=8 };
        assert_indexed_shards_concatenate(std::slice::from_ref(input), counts, Some(&written));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_index_of_another_file_is_refused() {
    let a = temp_file("shard-index-other", "a.pgn", b"[Event \"a\"]\n\n1. e4 *\n");
    let b = a.with_file_name("b.pgn");
    std::fs::write(&b, b"[Event \"b\"]\n\n1. d4 d5 *\n").expect("a temp file");
    let (_, index) = index_of(&a);
    let (a, b, index) = (
        a.to_str().expect("UTF-8"),
        b.to_str().expect("UTF-8"),
        index.to_str().expect("UTF-8"),
    );
    let run = |files: &[&str]| {
        let mut args = vec!["tags", "--shard", "1/2", "--index", index];
        args.extend(files);
        pgnkit_envs(&args, &[])
    };
    assert_eq!(run(&[a]).code, 0);
    for (files, reason) in [
        (
            &[b][..],
            "an index of a file of 21 bytes, not of the input's 24",
        ),
        (&[a, a][..], "an index serves one input only"),
    ] {
        let out = run(files);
        assert_eq!(out.code, 2, "{files:?}");
        assert!(out.stderr.contains(reason), "{}", out.stderr);
    }
    let out = pgnkit_envs(&["tags", "--index", index, a], &[]);
    assert_eq!(out.code, 2, "--index without --shard");
}

/// An index holds for its file as it was: a file rewritten with other
/// bytes of the same size (its time set back as it was) or only touched
/// refuses it, with a message that says to index it again, where it used
/// to start the shards at the old places, with wrong game numbers.
#[test]
fn regression_an_index_of_a_rewritten_file_is_refused() {
    let game = |n: usize| format!("[Event \"{n:05}\"]\n\n1. e4 e5 2. Nf3 *\n\n");
    // Over two index steps, so that shard 3 starts from a place.
    let count = 2 * 1024 * 1024 / game(0).len() + 1000;
    let text: String = (0..count).map(game).collect();
    let path = temp_file("shard-index-stale", "g.pgn", text.as_bytes());
    let (_, index) = index_of(&path);
    let (file, idx) = (
        path.to_str().expect("UTF-8"),
        index.to_str().expect("UTF-8"),
    );
    let shard = || {
        pgnkit_envs(
            &[
                "tags",
                "-f",
                "game,Event",
                "--shard",
                "3/3",
                "--index",
                idx,
                file,
            ],
            &[],
        )
    };
    assert_eq!(shard().code, 0);
    let indexed = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("a time");
    let set_time = |time: std::time::SystemTime| {
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(time))
            .expect("a time");
    };
    // The same games, another order: the same size.
    let cut = text.len() / 3 / game(0).len() * game(0).len();
    let rotated = format!("{}{}", &text[cut..], &text[..cut]);
    std::fs::write(&path, &rotated).expect("a rewrite");
    set_time(indexed);
    let out = shard();
    assert_eq!(out.code, 2, "{}", out.stdout.lines().next().unwrap_or(""));
    assert!(out.stderr.contains("other bytes"), "{}", out.stderr);
    assert!(out.stderr.contains("run `pgnkit index"), "{}", out.stderr);
    std::fs::write(&path, &text).expect("a rewrite");
    set_time(indexed + Duration::from_secs(60));
    let out = shard();
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("modified at"), "{}", out.stderr);
    set_time(indexed);
    assert_eq!(shard().code, 0);
    let _ = std::fs::remove_dir_all(path.parent().expect("a temp dir"));
}

/// Inputs that end without a line break, LF and CRLF, one after another:
/// the shards' `filter` outputs concatenate into one run's, byte for
/// byte, for every N. A shard whose first game followed such an input's
/// last game in another shard used to leave out the blank line that one
/// run writes between them.
#[test]
fn regression_inputs_without_a_final_line_break_concatenate() {
    let Some(files) = common::pgn_files(&["corpus"], false) else {
        return;
    };
    let pick = |name: &str| {
        files
            .iter()
            .find(|f| f.ends_with(name))
            .map(|f| std::fs::read(f).expect("a corpus file"))
            .expect("a corpus file")
    };
    let a = pick("mliebelt-pgn-parser/twic-01-232games.pgn");
    let b = pick("dartchess/wcc_2023.pgn");
    let bare = |text: &[u8]| text.trim_ascii_end().to_vec();
    let crlf = |text: &[u8]| {
        let lf = String::from_utf8_lossy(text).replace("\r\n", "\n");
        lf.replace('\n', "\r\n").into_bytes()
    };
    let mut variants = vec![
        ("a.pgn", bare(&a)),
        ("a-lf.pgn", [bare(&a), b"\n".to_vec()].concat()),
        ("a-crlf.pgn", crlf(&bare(&a))),
        ("b.pgn", bare(&b)),
        (
            "b-crlf-lf.pgn",
            [crlf(&bare(&b)), b"\r\n".to_vec()].concat(),
        ),
    ];
    let dir = temp_file("shard-final-line-break", "x", b"")
        .parent()
        .expect("a temp dir")
        .to_path_buf();
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8").to_string();
    for (name, text) in &mut variants {
        std::fs::write(dir.join(*name), text).expect("a temp file");
    }
    for inputs in [
        &["a.pgn"][..],
        &["a-crlf.pgn"],
        &["a.pgn", "b.pgn"],
        // Cuts at the start of the second input, for even N.
        &["a.pgn", "a.pgn"],
        &["a-crlf.pgn", "a-crlf.pgn"],
        &["a.pgn", "a.pgn", "a-crlf.pgn"],
        &["a-crlf.pgn", "b-crlf-lf.pgn", "a.pgn"],
        &["a-lf.pgn", "a.pgn", "b.pgn"],
    ] {
        let names: Vec<String> = inputs.iter().map(|n| path(n)).collect();
        let mut args = vec!["filter"];
        args.extend(names.iter().map(String::as_str));
        let whole = pgnkit_bytes(&args);
        assert_eq!(whole.code, 0, "{}", whole.stderr);
        for n in [2, 3, 4, 5, 8] {
            let joined: Vec<u8> = (1..=n)
                .flat_map(|k| {
                    let spec = format!("{k}/{n}");
                    let mut sharded = args.clone();
                    sharded.extend(["--shard", &spec]);
                    pgnkit_bytes(&sharded).stdout
                })
                .collect();
            assert!(whole.stdout == joined, "{inputs:?} in {n} shards");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
