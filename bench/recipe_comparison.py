#!/usr/bin/env python3
"""The lab's recipe against bmi's, task by task (docs/benchmark.md, "The two recipes task by task"): on a grid that
sweeps `recipe` over bmi and lab with the seeds as another axis, each (method, task) pair's paired difference of the
absolute errors, lab minus bmi, seed by seed (the same seed reads the same rows under both recipes), its mean and
standard error over the seeds, and whether the lab's recipe loses by more than its noise: a mean difference above
two standard errors and above 0.02 nats. Prints one markdown table (a row per task, a column per method) and each
method's summary line.

usage: recipe_comparison.py GRID.csv
"""
import collections
import csv
import math
import statistics
import sys

NOISE_FLOOR = 0.02  # nats: a smaller difference is no loss a reader would act on


def verdict(diffs):
    """(mean, standard error, loses) of the paired differences lab - bmi of the absolute errors."""
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, se, mean > max(2 * se, NOISE_FLOOR)


def main(path):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "finished"]
    error = {}  # (method, task, seed, recipe) -> |estimate - truth|
    truth = {}
    for r in rows:
        error[(r["method"], r["task"], r["seed"], r["recipe"])] = abs(float(r["estimate"]) - float(r["true_value"]))
        truth[r["task"]] = float(r["true_value"])
    methods = sorted({k[0] for k in error})
    tasks = list(dict.fromkeys(r["task"] for r in rows))
    table = collections.defaultdict(dict)
    summary = collections.defaultdict(lambda: {"lab": [], "bmi": [], "losses": [], "wins": []})
    for m in methods:
        for t in tasks:
            seeds = sorted({k[2] for k in error if k[0] == m and k[1] == t})
            paired = [s for s in seeds if (m, t, s, "lab") in error and (m, t, s, "bmi") in error]
            if not paired:
                continue
            diffs = [error[(m, t, s, "lab")] - error[(m, t, s, "bmi")] for s in paired]
            mean, se, loses = verdict(diffs)
            wins = -mean > max(2 * se, NOISE_FLOOR)
            table[t][m] = f"{mean:+.3f} ± {se:.3f}" + (" **loses**" if loses else " wins" if wins else "")
            summary[m]["lab"] += [error[(m, t, s, "lab")] for s in paired]
            summary[m]["bmi"] += [error[(m, t, s, "bmi")] for s in paired]
            if loses:
                summary[m]["losses"].append(t)
            if wins:
                summary[m]["wins"].append(t)
    print("| task (truth) | " + " | ".join(methods) + " |")
    print("|---|" + "---|" * len(methods))
    for t in tasks:
        print(f"| {t} ({truth[t]:.3f}) | " + " | ".join(table[t].get(m, "") for m in methods) + " |")
    print()
    for m in methods:
        s = summary[m]
        print(f"{m}: mean |error| lab {statistics.mean(s['lab']):.3f}, bmi {statistics.mean(s['bmi']):.3f} over "
              f"{len(s['lab'])} cells; the lab's recipe loses on {len(s['losses'])} tasks, wins on {len(s['wins'])}"
              + (f" (loses: {', '.join(s['losses'])})" if s["losses"] else ""))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
