#!/usr/bin/env python3
"""Reads barsoom's Parquet frames with pyarrow and checks them.

    read_parquet.py RUN_DIR SWEEP_DIR

RUN_DIR holds summary.parquet/.csv and trials.parquet of `barsoom run
--trials-out`; SWEEP_DIR sweep.parquet/.csv and sweep_long.parquet/.csv of a one-field sweep. Checks the
column names and types documented in README.md ("Output files"), that each
Parquet file holds the same values as its CSV, and that the per-trial rows
add up to the summary. One line per problem; exit 1 if any.
"""

import csv
import math
import sys

import pyarrow as pa
import pyarrow.parquet as pq

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def is_text(t):
    return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)


TYPES = {
    "string": is_text,
    "uint64": lambda t: t == pa.uint64(),
    "uint32": lambda t: t == pa.uint32(),
    "int64": lambda t: t == pa.int64(),
    "float64": lambda t: t == pa.float64(),
    "bool": lambda t: t == pa.bool_(),
}

SUMMARY = [
    ("kind", "string"),
    ("name", "string"),
    ("count", "uint64"),
    ("rate", "float64"),
    ("ci95_low", "float64"),
    ("ci95_high", "float64"),
    ("mean", "float64"),
    ("se", "float64"),
    ("min", "uint32"),
    ("median", "uint32"),
    ("max", "uint32"),
]


def check_schema(path, table, expected):
    names = table.schema.names
    check(
        names == [n for n, _ in expected],
        f"{path}: columns {names}, expected {[n for n, _ in expected]}",
    )
    for name, kind in expected:
        if name in names:
            t = table.schema.field(name).type
            check(TYPES[kind](t), f"{path}: column {name!r} is {t}, expected {kind}")


def same(a, b):
    """A Parquet value against its CSV text."""
    if a is None:
        return b == ""
    if isinstance(a, bool):
        return str(a).lower() == b.lower()
    if isinstance(a, float):
        return b != "" and (math.isclose(a, float(b), rel_tol=1e-12, abs_tol=1e-15) or (math.isnan(a) and b.lower() == "nan"))
    if isinstance(a, int):
        return b != "" and a == int(b)
    return str(a) == b


def check_against_csv(parquet_path, csv_path):
    table = pq.read_table(parquet_path)
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    check(rows[0] == table.schema.names, f"{csv_path}: header {rows[0]} differs from {parquet_path}")
    check(len(rows) - 1 == table.num_rows, f"{csv_path}: {len(rows) - 1} rows, {parquet_path} {table.num_rows}")
    columns = table.to_pydict()
    for r, row in enumerate(rows[1:]):
        for name, text in zip(rows[0], row):
            value = columns[name][r]
            check(same(value, text), f"{parquet_path}: row {r} column {name!r} is {value!r}, CSV has {text!r}")
    return table


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    run, sweep = sys.argv[1], sys.argv[2]

    # summary.parquet: documented schema, same values as summary.csv.
    summary = check_against_csv(f"{run}/summary.parquet", f"{run}/summary.csv")
    check_schema("summary.parquet", summary, SUMMARY)
    s = summary.to_pydict()
    outcomes = {n: (c, rate) for k, n, c, rate in zip(s["kind"], s["name"], s["count"], s["rate"]) if k == "outcome"}
    metrics = {n: mean for k, n, mean in zip(s["kind"], s["name"], s["mean"]) if k == "metric"}
    trials_total = sum(c for c, _ in outcomes.values())

    # trials.parquet: trial, outcome, one uint32 column per metric; adds up
    # to the summary.
    trials = pq.read_table(f"{run}/trials.parquet")
    expected = [("trial", "uint64"), ("outcome", "string")] + [(m, "uint32") for m in metrics]
    check_schema("trials.parquet", trials, expected)
    t = trials.to_pydict()
    check(trials.num_rows == trials_total, f"trials.parquet: {trials.num_rows} rows, summary counts {trials_total}")
    check(t["trial"] == list(range(trials.num_rows)), "trials.parquet: trial is not 0..N-1 in order")
    for label, (count, rate) in outcomes.items():
        n = sum(1 for o in t["outcome"] if o == label)
        check(n == count, f"trials.parquet: {n} rows of {label!r}, summary counts {count}")
        check(math.isclose(rate, count / trials_total, rel_tol=1e-12), f"summary: rate of {label!r} is not count / trials")
    for name, mean in metrics.items():
        values = t.get(name, [])
        if values:
            m = sum(values) / len(values)
            check(math.isclose(m, mean, rel_tol=1e-9), f"trials.parquet: mean {name} {m}, summary {mean}")

    # sweep.parquet: the varied field (int64), trials, rates with intervals
    # and metric means with standard errors; same values as sweep.csv.
    table = check_against_csv(f"{sweep}/sweep.parquet", f"{sweep}/sweep.csv")
    field = "sides[0].figures[0].level"
    expected = [(field, "int64"), ("trials", "uint64")]
    for label in outcomes:
        expected += [(f"{label} rate", "float64"), (f"{label} ci95_low", "float64"), (f"{label} ci95_high", "float64")]
    for name in metrics:
        expected += [(f"{name} mean", "float64"), (f"{name} se", "float64")]
    check_schema("sweep.parquet", table, expected)
    check(table.column(field).to_pylist() == [5, 6, 7], "sweep.parquet: expected levels 5, 6, 7")

    # sweep_long.parquet: one row per setting and outcome, then metric,
    # with the wide form's figures.
    long = check_against_csv(f"{sweep}/sweep_long.parquet", f"{sweep}/sweep_long.csv")
    check_schema(
        "sweep_long.parquet",
        long,
        [(field, "int64"), ("trials", "uint64"), ("kind", "string"), ("name", "string"),
         ("count", "uint64"), ("rate", "float64"), ("ci95_low", "float64"), ("ci95_high", "float64"),
         ("mean", "float64"), ("se", "float64")],
    )
    check(long.num_rows == 3 * (len(outcomes) + len(metrics)), f"sweep_long.parquet: {long.num_rows} rows")
    wide = table.to_pylist()
    for row in long.to_pylist():
        setting = next(w for w in wide if w[field] == row[field])
        column = f"{row['name']} rate" if row["kind"] == "outcome" else f"{row['name']} mean"
        value = row["rate"] if row["kind"] == "outcome" else row["mean"]
        check(same(value, setting[column]), f"sweep_long.parquet: {row} against sweep.parquet's {column}")

    for p in problems:
        print(f"interop: {p}", file=sys.stderr)
    if not problems:
        print(
            f"interop: pyarrow {pa.__version__} read summary.parquet ({summary.num_rows} rows), "
            f"trials.parquet ({trials.num_rows} rows) and sweep.parquet ({table.num_rows} rows) "
            "with the documented columns and the CSV's values"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
