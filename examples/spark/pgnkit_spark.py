"""Run pgnkit over PGN archives on Apache Spark, in exact shards.

The driver lists the input files and makes one task per (file, K, N): a
plain file of S bytes is cut into N = ceil(S / --shard-bytes) shards, but
no more than --max-shards (shard K frames the K-1 shards before it: see
docs/distributed.md), any other file (compressed) is one task. Each task runs

    pgnkit tags --format jsonl --fields ... --shard K/N FILE
    pgnkit stats --json --shard K/N FILE

on an executor. The rows become a DataFrame written as Parquet; the
per-task stats summaries are merged on the driver with
`pgnkit stats --merge`. pgnkit's shards hold every game exactly once, with
its number in the whole file, so (file, game) is a key of the table.

Usage (local mode, or under spark-submit on a cluster):

    python3 pgnkit_spark.py --pgnkit target/release/pgnkit \
        --out /tmp/games games/*.pgn games/*.pgn.zst

The input paths must be readable at the same place by every executor
(a shared file system, /dbfs/... on Databricks). The pgnkit binary is
shipped to the executors with SparkContext.addFile (as `--files` does).
"""

import argparse
import json
import math
import os
import stat
import subprocess
import sys
import tempfile
import time

from pyspark import SparkFiles, StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import types as T

# The columns of the table: pgnkit's field, Spark's type.
FIELDS = [
    ("game", T.LongType()),
    ("Event", T.StringType()),
    ("Site", T.StringType()),
    ("Date", T.StringType()),
    ("White", T.StringType()),
    ("Black", T.StringType()),
    ("Result", T.StringType()),
    ("WhiteElo", T.StringType()),
    ("BlackElo", T.StringType()),
    ("ECO", T.StringType()),
    ("plies", T.LongType()),
    ("status", T.StringType()),
]

SCHEMA = T.StructType(
    [T.StructField("file", T.StringType(), False)]
    + [T.StructField(name, kind, True) for name, kind in FIELDS]
)

PLAIN_SUFFIXES = (".pgn",)


def tasks(files, shard_bytes, max_shards=8):
    """(file, K, N) for every shard of every file."""
    for path in files:
        size = os.path.getsize(path)
        n = 1
        if path.endswith(PLAIN_SUFFIXES):
            n = min(max(1, math.ceil(size / shard_bytes)), max_shards)
        for k in range(1, n + 1):
            yield (path, k, n)


def executor_binary(name):
    """The pgnkit shipped with addFile, executable."""
    path = SparkFiles.get(name)
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def pgnkit(binary, args):
    """pgnkit's standard output; exit status 1 (some game has an error)
    is an answer, 2 a failure of the task."""
    run = subprocess.run([binary] + args, capture_output=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"pgnkit {' '.join(args)}: {run.stderr.decode(errors='replace')}")
    return run.stdout


def run_tasks(binary_name, jobs):
    """The mapPartitions function: rows of games and stats summaries."""

    def run(partition):
        binary = executor_binary(binary_name)
        fields = ",".join(name for name, _ in FIELDS)
        for path, k, n in partition:
            shard = ["--shard", f"{k}/{n}", "--jobs", str(jobs)]
            out = pgnkit(binary, ["tags", "--format", "jsonl", "--fields", fields] + shard + [path])
            for line in out.splitlines():
                game = json.loads(line)
                row = [path]
                for name, kind in FIELDS:
                    value = game.get(name)
                    if value is not None and isinstance(kind, T.StringType):
                        value = str(value)
                    row.append(value)
                yield ("game", tuple(row))
            summary = pgnkit(binary, ["stats", "--json"] + shard + [path])
            yield ("stats", summary.decode())

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="PGN files (plain or compressed)")
    parser.add_argument("--pgnkit", default="pgnkit", help="the pgnkit binary to ship")
    parser.add_argument("--out", required=True, help="directory for games.parquet and stats.json")
    parser.add_argument("--shard-bytes", type=int, default=256 << 20,
                        help="bytes of a plain file per task (default 256 MiB)")
    parser.add_argument("--max-shards", type=int, default=8,
                        help="most shards of one plain file (default 8)")
    parser.add_argument("--jobs", type=int, default=1, help="pgnkit threads per task")
    parser.add_argument("--master", default=None, help="Spark master (spark-submit sets it)")
    args = parser.parse_args(argv)

    builder = SparkSession.builder.appName("pgnkit")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        return run(spark, args)
    finally:
        spark.stop()


def run(spark, args):
    """The job on `spark`: writes OUT/games.parquet and OUT/stats.json;
    returns the number of games."""
    started = time.monotonic()
    sc = spark.sparkContext
    binary = os.path.abspath(args.pgnkit) if os.sep in args.pgnkit else args.pgnkit
    if os.sep not in binary:
        binary = subprocess.run(["sh", "-c", f"command -v {binary}"], capture_output=True,
                                text=True, check=True).stdout.strip()
    sc.addFile(binary)
    files = [os.path.abspath(f) for f in args.files]
    work = list(tasks(files, args.shard_bytes, args.max_shards))
    # One task a partition: Spark hands them to free cores as they come.
    rdd = sc.parallelize(work, len(work)).mapPartitions(run_tasks(os.path.basename(binary), args.jobs))
    # Computed once for both the table and the summaries.
    rdd.persist(StorageLevel.MEMORY_AND_DISK)
    games = spark.createDataFrame(rdd.filter(lambda kv: kv[0] == "game").map(lambda kv: kv[1]),
                                  SCHEMA)
    os.makedirs(args.out, exist_ok=True)
    games.write.mode("overwrite").parquet(os.path.join(args.out, "games.parquet"))
    summaries = rdd.filter(lambda kv: kv[0] == "stats").map(lambda kv: kv[1]).collect()
    rdd.unpersist()
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, summary in enumerate(summaries):
            part = os.path.join(tmp, f"{i}.json")
            with open(part, "w") as f:
                f.write(summary)
            parts.append(part)
        merged = pgnkit(binary, ["stats", "--json", "--merge"] + parts)
    with open(os.path.join(args.out, "stats.json"), "wb") as f:
        f.write(merged)
    total = json.loads(merged)["games"]
    print(f"pgnkit on Spark: {len(work)} tasks, {total} games, "
          f"{time.monotonic() - started:.1f} s", file=sys.stderr)
    return total


if __name__ == "__main__":
    main()
