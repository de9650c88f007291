#!/usr/bin/env python3
"""bmi's second suite in the lab's readings (docs/benchmark.md, "bmi's second suite"): per task, its truth (with the
Monte Carlo standard error of a mixture's) and each method's mean reading over the seeds; then per method and per
part of the suite (the 13 Bend and Mix tasks, the 13 first-suite tasks, all 26) the mean absolute error of those
means and the tasks solved by bmi's rule (the mean within a factor 1.5 of the truth, of its band of two standard
errors for a Monte Carlo truth). Failed cells are counted and left out of the means.

usage: second_suite_table.py GRID.csv [GRID.csv ...]   (milab-cli run's grid.csv of the beyond-normal-v2 preset)
"""
import collections
import csv
import statistics
import sys


def main(paths):
    rows = [r for p in paths for r in csv.DictReader(open(p))]
    tasks, methods = [], []
    truth, readings, failed = {}, collections.defaultdict(list), collections.Counter()
    for r in rows:
        if r["task"] not in tasks:
            tasks.append(r["task"])
        if r["method"] not in methods:
            methods.append(r["method"])
        truth[r["task"]] = (float(r["true_value"]), float(r.get("true_value_stderr") or 0))
        if r["status"] == "finished":
            readings[(r["task"], r["method"])].append(float(r["estimate"]))
        else:
            failed[(r["task"], r["method"])] += 1
    mixtures = [t for t in tasks if truth[t][1] > 0]
    print("| task | truth (nats) | " + " | ".join(methods) + " |")
    print("|---|---|" + "---|" * len(methods))
    for t in tasks:
        value, se = truth[t]
        shown = f"{value:.3f} ± {se:.3f}" if se > 0 else f"{value:.3f}"
        cells = []
        for m in methods:
            v = readings.get((t, m))
            cell = f"{statistics.mean(v):.3f}" if v else "-"
            if failed[(t, m)]:
                cell += f" ({failed[(t, m)]} failed)"
            cells.append(cell)
        print(f"| {t} | {shown} | " + " | ".join(cells) + " |")
    print()
    print("| method | part | tasks | mean abs. error | solved (factor 1.5) | failed cells |")
    print("|---|---|---|---|---|---|")
    parts = [("Bend and Mix", mixtures), ("first suite's", [t for t in tasks if t not in mixtures]), ("all", tasks)]
    for m in methods:
        for name, part in parts:
            errors, solved = [], 0
            for t in part:
                v = readings.get((t, m))
                if not v:
                    continue
                mean, (value, se) = statistics.mean(v), truth[t]
                errors.append(abs(mean - value))
                low, high = value - 2 * se, value + 2 * se
                solved += high > 0 and low / 1.5 <= mean <= 1.5 * high
            fails = sum(failed[(t, m)] for t in part)
            print(f"| {m} | {name} | {len(errors)} | {statistics.mean(errors):.3f} | {solved} of {len(part)} | {fails} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
