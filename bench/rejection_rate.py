#!/usr/bin/env python3
"""The share of a grid's tables whose test of independence rejects at a level (docs/benchmark.md, "The test of
independence: size and power"): on independent tables (mi 1e-9) its size, on dependent ones its power.

usage: rejection_rate.py GRID.csv [LEVEL (0.05)]
"""
import csv
import sys


def main(path, level):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "finished"]
    rejected = sum(float(r["p_value"]) <= level for r in rows)
    seconds = sum(float(r["seconds"]) for r in rows) / len(rows)
    print(f"{rows[0]['method']}: {rejected} of {len(rows)} tables rejected at {level:g} "
          f"({100 * rejected / len(rows):.1f}%), {seconds:.2f} s a table")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.05)
