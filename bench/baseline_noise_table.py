#!/usr/bin/env python3
"""Do the lab's defaults read above their permutation baseline's noise on tables with signal? (issue 45, item 5)

A run on a table (`--task data`) trains a twin on the same rows with y's rows permuted and reports its reading as
the permutation baseline: what "no dependence" reads as for that estimator and protocol. A default setting that
overfits reads below it (the issue's first finding: infonce -0.48 on multinormal-sparse-25-25-2-2.0, whose baseline
read -0.94 to -1.57). For each of the peer table's tasks (bench/peer_bmi_table.py, whose CSVs this reads: every one
has MI > 0.29 nats) and each neural method, the lab runs with no key but the columns (so the lab's recipe), seeds
1..S; a (task, method) passes when the mean reading sits above the baseline's mean plus two standard deviations of
the baseline's readings over the seeds (its noise), and every single reading above its own run's baseline.

Usage: bench/baseline_noise_table.py WORKDIR [--cli PATH] [--seeds S] [--method M ...] [--need-all]
WORKDIR holds TASK-sSEED.csv as bench/peer_bmi_table.py writes them; runs go to WORKDIR/defaults/ and are reused.
Prints a Markdown table; with --need-all exits 1 when any (task, method) fails.
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peer_bmi_table import TASKS, mean_se  # noqa: E402  (the same tasks and the same statistics)


def run_default(a, task, dx, seed, method):
    folder = os.path.join(a.work, "defaults", f"{task}-s{seed}-{method}")
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):
        csv = os.path.join(a.work, f"{task}-s{seed}.csv")
        if not os.path.exists(csv):
            return None
        subprocess.run([a.cli, "run", "--task", "data", "--file", csv, "--x-columns", ",".join(map(str, range(dx))),
                        "--y-columns", ",".join(str(i) for i in range(dx, 2 * dx)), "--method", method,
                        "--seed", str(seed), "--device", "cpu", "--out", folder], check=True, capture_output=True)
    with open(summary) as f:
        s = json.load(f)
    return s["estimate"], s["permutation_baseline"]["estimate"], s["experiment"]["recipe"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("--cli", default=os.path.join(HERE, "..", "build", "bin", "milab-cli"))
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--method", action="append", help="default: infonce, nwj, mine")
    p.add_argument("--need-all", action="store_true")
    a = p.parse_args()
    methods = a.method or ["infonce", "nwj", "mine"]
    print("| task (truth) | method | seeds | reading | baseline (mean ± sd) | margin / baseline sd | passes |")
    print("|---|---|---|---|---|---|---|")
    failed = total = 0
    recipes = set()
    for task, dx, truth in TASKS:
        for method in methods:
            cells = [c for c in (run_default(a, task, dx, s, method) for s in range(1, a.seeds + 1)) if c]
            if len(cells) < 2:
                print(f"| {task} ({truth}) | {method} | {len(cells)} | missing | | | |")
                continue
            recipes.update(c[2] for c in cells)
            (m, se), (bm, bse) = mean_se([c[0] for c in cells]), mean_se([c[1] for c in cells])
            bsd = bse * math.sqrt(len(cells))
            ok = m > bm + 2 * bsd and all(c[0] > c[1] for c in cells)
            total += 1
            failed += not ok
            margin = (m - bm) / bsd if bsd > 0 else math.inf
            print(f"| {task} ({truth}) | {method} | {len(cells)} | {m:.3f} ± {se:.3f} | {bm:.3f} ± {bsd:.3f} | "
                  f"{margin:.1f} | {'yes' if ok else 'no'} |")
    print(f"\n{total - failed} of {total} (task, method) pairs read above their baseline's noise "
          f"(recipe {', '.join(sorted(recipes))}; mean over seeds 1-{a.seeds}).")
    if a.need_all and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
