"""Runs the recipe (pgnkit_spark.py) in Spark's local mode and checks
that it found the same games and counts as one pgnkit run over the same
files: every (file, game) once, the same rows, the same merged stats.

    python3 check_local.py --pgnkit target/release/pgnkit --shard-bytes 4194304 FILES...

Exit status 0 when they agree; prints both times on standard error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession

import pgnkit_spark


def single_run(binary, files):
    """Rows and stats of one pgnkit run per file, as the recipe builds them."""
    fields = ",".join(name for name, _ in pgnkit_spark.FIELDS)
    rows = []
    for path in files:
        out = pgnkit_spark.pgnkit(binary, ["tags", "--format", "jsonl", "--fields", fields, path])
        for line in out.splitlines():
            game = json.loads(line)
            row = [path]
            for name, kind in pgnkit_spark.FIELDS:
                value = game.get(name)
                if value is not None and kind.typeName() == "string":
                    value = str(value)
                row.append(value)
            rows.append(tuple(row))
    stats = pgnkit_spark.pgnkit(binary, ["stats", "--json"] + files)
    return rows, stats


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--pgnkit", required=True)
    parser.add_argument("--shard-bytes", type=int, default=4 << 20)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    files = [os.path.abspath(f) for f in args.files]
    binary = os.path.abspath(args.pgnkit)

    started = time.monotonic()
    expected_rows, expected_stats = single_run(binary, files)
    single = time.monotonic() - started

    spark = (SparkSession.builder.master(f"local[{args.cores}]").appName("pgnkit-check")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    # The executors' Python workers import the recipe too.
    spark.sparkContext.addPyFile(pgnkit_spark.__file__)
    try:
        with tempfile.TemporaryDirectory() as out:
            recipe = argparse.Namespace(pgnkit=binary, out=out, shard_bytes=args.shard_bytes,
                                        max_shards=8, jobs=1, files=files)
            started = time.monotonic()
            total = pgnkit_spark.run(spark, recipe)
            on_spark = time.monotonic() - started
            table = spark.read.parquet(os.path.join(out, "games.parquet"))
            rows = [tuple(r) for r in table.collect()]
            with open(os.path.join(out, "stats.json"), "rb") as f:
                merged = f.read()
    finally:
        spark.stop()

    tasks = len(list(pgnkit_spark.tasks(files, args.shard_bytes, 8)))
    failures = []
    keys = [(r[0], r[1]) for r in rows]
    if len(set(keys)) != len(keys):
        failures.append(f"{len(keys) - len(set(keys))} games twice")
    by_key = lambda r: (r[0], r[1])  # noqa: E731
    if sorted(rows, key=by_key) != sorted(expected_rows, key=by_key):
        failures.append(f"the table has {len(rows)} rows, one run {len(expected_rows)}, "
                        "or they differ")
    if merged != expected_stats:
        failures.append("the merged stats differ from one run's")
    if total != len(expected_rows):
        failures.append(f"stats count {total} games, the table {len(expected_rows)}")
    size = sum(os.path.getsize(f) for f in files)
    print(f"check: {len(files)} files, {size / 1e6:.1f} MB, {tasks} tasks, {len(rows)} games; "
          f"one pgnkit run {single:.2f} s, Spark local[{args.cores}] {on_spark:.2f} s",
          file=sys.stderr)
    for failure in failures:
        print(f"check: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
