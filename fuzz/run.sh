#!/usr/bin/env bash
# Runs one fuzz target for a while, from a seed corpus built from the shared
# data (never committed: fuzz/corpus is git-ignored).
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
#
# Targets: pgn_reader validate fen move_token move_resolve input.
# Needs cargo-fuzz (`cargo install cargo-fuzz`); on a stable toolchain it
# runs with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only sanitizer
# flags). Crashes land in fuzz/artifacts/TARGET/.
#
# FUZZ_SANITIZER=none (default) runs without a sanitizer, about 6x faster:
# the library's few `unsafe` blocks (a slice view in moves.rs, SSE2 loads
# from fixed-size arrays, the input memory map; see docs/hostile-input.md)
# cannot go out of bounds, so panics and the asserted invariants are what
# find bugs. Set FUZZ_SANITIZER=address for an AddressSanitizer run.
set -euo pipefail
cd "$(dirname "$0")"

target="${1:?usage: fuzz/run.sh TARGET SECONDS}"
seconds="${2:?usage: fuzz/run.sh TARGET SECONDS}"
shift 2
data="${PGNKIT_DATA:-$(pwd)/../../shared/data}"
corpus="corpus/$target"
mkdir -p "$corpus"

# Seeds are named by content hash, so rebuilding them is idempotent.
seed() {
    local file="$1"
    local name
    name="$(sha1sum "$file" | cut -c1-16)"
    [ -e "$corpus/$name" ] || cp "$file" "$corpus/$name"
}

seed_text() {
    local tmp
    tmp="$(mktemp)"
    printf '%s' "$1" >"$tmp"
    seed "$tmp"
    rm -f "$tmp"
}

pgn_files() {
    [ -d "$data" ] || return 0
    find "$data/corpus" "$data/broken" -type f -name '*.pgn' -size -64k 2>/dev/null | sort
}

epd_lines() {
    [ -d "$data/perft" ] || return 0
    find "$data/perft" -type f \( -name '*.epd' -o -name '*.perft' \) | sort | while read -r f; do
        sed -n -e 's/^epd //p' -e '/^[^#].*\//{s/ *;.*//;p}' "$f"
    done | head -n 400 || true
}

case "$target" in
    pgn_reader)
        pgn_files | while read -r f; do seed "$f"; done
        ;;
    validate)
        # The first byte picks the options (letters, lints).
        tmp="$(mktemp)"
        pgn_files | while read -r f; do
            { printf '\004'; cat "$f"; } >"$tmp"
            seed "$tmp"
        done
        rm -f "$tmp"
        ;;
    input)
        tmp="$(mktemp -d)"
        { pgn_files | head -n 40 || true; } | while read -r f; do
            base="$tmp/$(basename "$f")"
            zstd -q -c "$f" >"$base.zst" 2>/dev/null && seed "$base.zst"
            gzip -c "$f" >"$base.gz" 2>/dev/null && seed "$base.gz"
            bzip2 -c "$f" >"$base.bz2" 2>/dev/null && seed "$base.bz2"
            # A truncated stream: the error path.
            head -c 100 "$base.zst" >"$base.cut.zst" 2>/dev/null && seed "$base.cut.zst"
        done
        rm -rf "$tmp"
        ;;
    fen)
        epd_lines | while IFS= read -r line; do seed_text "$line"; done
        ;;
    move_token)
        for t in e4 Nf3 Nbd7 R1a3 Qh4xe1 exd6 e8=Q O-O O-O-O 0-0 e8Q 'e8(Q)' e8/Q Pe4 \
                 e:d5 exd6e.p. 'exd6ep' Qh4# 'e4++' e2-e4 Ng1-f3 Ng1xf3 e7-e8=Q e2e4 e7e8q \
                 Sf3 Lxb5 Dd1-f3 b2-b1=D Be2-e4 '♘f3' 'e8=♕' -- Z0 0000 @@@@; do
            seed_text "$t"
        done
        ;;
    move_resolve)
        seed_text "$(printf '\000\001\002\003\004\005\006\007')"
        ;;
    *)
        echo "unknown target: $target" >&2
        exit 2
        ;;
esac

# -rss_limit_mb: the bound a run must stay under; -max_len: large enough
# for several whole games and the reader's too-large path (4 KiB in the
# target), small enough to keep executions fast.
case "$target" in
    pgn_reader | validate) max_len=16384 ;;
    input) max_len=65536 ;;
    *) max_len=4096 ;;
esac
RUSTC_BOOTSTRAP=1 cargo fuzz run -O -s "${FUZZ_SANITIZER:-none}" "$target" "$corpus" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" \
    -print_final_stats=1 "$@"
