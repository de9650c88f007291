#!/usr/bin/env python3
"""A table of known MI made wide (docs/benchmark.md, "InfoBridge and LMI on the suite"): copies a CSV that
`milab-cli sample` wrote (x's columns x0.., then y's y0..) and adds standard normal noise columns to each side until
it has WIDTH, drawn with SEED. The noise is independent of everything, so the MI is the sampled task's.

usage: pad_columns.py IN.csv OUT.csv WIDTH [SEED (1)]
"""
import csv
import random
import sys


def main(source, target, width, seed):
    rows = list(csv.reader(open(source)))
    header, body = rows[0], rows[1:]
    xs = [i for i, name in enumerate(header) if name.startswith("x")]
    ys = [i for i, name in enumerate(header) if name.startswith("y")]
    if width < max(len(xs), len(ys)):
        sys.exit(f"WIDTH: must be at least {max(len(xs), len(ys))} (the table's widest side), got {width}")
    rng = random.Random(seed)
    pad_x, pad_y = width - len(xs), width - len(ys)
    with open(target, "w", newline="") as out:
        w = csv.writer(out)
        w.writerow([f"x{i}" for i in range(width)] + [f"y{i}" for i in range(width)])
        for r in body:
            x = [r[i] for i in xs] + [f"{rng.gauss(0, 1):.6g}" for _ in range(pad_x)]
            y = [r[i] for i in ys] + [f"{rng.gauss(0, 1):.6g}" for _ in range(pad_y)]
            w.writerow(x + y)
    print(f"wrote {len(body)} rows of {2 * width} columns ({len(xs)} + {pad_x} noise, {len(ys)} + {pad_y} noise) "
          f"to {target}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1)
