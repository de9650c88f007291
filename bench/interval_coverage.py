#!/usr/bin/env python3
"""The coverage of the lab's intervals over the data on a grid of tasks with exact truths (docs/benchmark.md,
"Intervals over the data"): per method, how many (task, seed) cells' 95% interval holds the truth, with and without
the size extrapolation, the mean width, and the interval's own claim checked against the seeds: the spread of the
readings over the seeds of a task (fresh tables) against the reported standard errors.

usage: interval_coverage.py GRID.csv [GRID.csv ...]   (milab-cli run's grid.csv, with and without extrapolate)
"""
import collections
import csv
import math
import statistics
import sys


def number(row, key):
    try:
        return float(row.get(key) or "nan")
    except ValueError:
        return math.nan


def holds(low, high, value):
    return low <= value <= high


def describe(method, rows):
    truths = [number(r, "true_value") for r in rows]
    line = f"{method}, {len(rows)} cells"
    if "extrapolated" in rows[0] and not math.isnan(number(rows[0], "extrapolated")):
        covered = sum(holds(number(r, "extrapolated_low"), number(r, "extrapolated_high"), t) for r, t in zip(rows, truths))
        width = statistics.mean(number(r, "extrapolated_high") - number(r, "extrapolated_low") for r in rows)
        error = statistics.mean(abs(number(r, "extrapolated") - t) for r, t in zip(rows, truths))
        flagged = sum("inconsistent_sizes" in (r.get("flags") or "") for r in rows)
        line += (f", extrapolated: holds the truth in {covered} ({100 * covered / len(rows):.0f}%), mean width "
                 f"{width:.3f}, mean |error| {error:.3f}, inconsistent_sizes {flagged}")
    covered = sum(holds(number(r, "ci_low"), number(r, "ci_high"), t) for r, t in zip(rows, truths))
    width = statistics.mean(number(r, "ci_high") - number(r, "ci_low") for r in rows)
    error = statistics.mean(abs(number(r, "estimate") - t) for r, t in zip(rows, truths))
    line += (f"; raw: holds the truth in {covered} ({100 * covered / len(rows):.0f}%), mean width {width:.3f}, "
             f"mean |error| {error:.3f}")
    by_task = collections.defaultdict(list)
    for r in rows:
        by_task[r["task"]].append(r)
    squares = freedom = errors = count = 0
    for cells in by_task.values():
        if len(cells) < 2:
            continue
        readings = [number(r, "estimate") for r in cells]
        mean = statistics.mean(readings)
        squares += sum((x - mean) ** 2 for x in readings)
        freedom += len(readings) - 1
        errors += sum(number(r, "stderr") ** 2 for r in cells)
        count += len(cells)
    if freedom:
        spread, reported = math.sqrt(squares / freedom), math.sqrt(errors / count)
        line += (f"; spread over seeds {spread:.4f}, reported standard error {reported:.4f} (ratio "
                 f"{reported / spread:.2f})")
    return line


def main(paths):
    groups = collections.defaultdict(list)
    for path in paths:
        extrapolated = False
        rows = [r for r in csv.DictReader(open(path)) if r["status"] == "finished"]
        for r in rows:
            extrapolated = extrapolated or not math.isnan(number(r, "extrapolated"))
        for r in rows:
            groups[(r["method"], extrapolated)].append(r)
    for (method, extrapolated), rows in sorted(groups.items()):
        print(describe(method + (" --extrapolate true" if extrapolated else ""), rows))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
