#!/usr/bin/env python3
"""bmi's peer (../shared/bench/peer_bmi.py) read with its split and initialisation seeded per run.

The peer's command line fixes the seed of its split, its critic's initialisation and its batches at 42 whatever the
data seed, so its readings over five data seeds all start from one initial critic: their standard error leaves out
the initialisation's share, which on multinormal-sparse-50-50-2-2.0 (read at step 250, before overfitting) is most
of it (0.33 to 0.58 nats on one table). Issue 45 asks for seeds "of the split and initialisation"; this runner calls
the peer's own `sample` and `estimate` (imported, not copied) with the seed of the run, so the lab (`--seed S`) and
the peer vary the same things.

Usage: peer_bmi_seeded.py PEER TASK N SEED METHOD --csv ROWS.csv
Samples the task with the peer's sampler (numpy's default_rng(SEED)) unless ROWS.csv exists, writes it as the
peer's --csv does, then reads the rows back from ROWS.csv (the bytes the lab reads) and estimates with seed SEED.
Prints one JSON line: task, truth, method, seed, estimate, steps, seconds.
"""
import importlib.util, json, os, sys, time

import numpy as np


def load_peer(path):
    spec = importlib.util.spec_from_file_location("peer_bmi", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # sets torch to one thread, as the peer's own command line does
    return module


def main():
    a = sys.argv[1:]
    if len(a) != 7 or a[5] != "--csv":
        sys.exit("usage: peer_bmi_seeded.py PEER TASK N SEED METHOD --csv ROWS.csv")
    peer = load_peer(a[0])
    task, n, seed, method, csv = a[1], int(a[2]), int(a[3]), a[4], a[6]
    if not os.path.exists(csv):
        x, y = peer.sample(task, n, np.random.default_rng(seed))
        header = ",".join([f"x{i}" for i in range(x.shape[1])] + [f"y{i}" for i in range(y.shape[1])])
        np.savetxt(csv, np.hstack([x, y]), delimiter=",", header=header, comments="", fmt="%.8g")
    with open(csv) as f:
        dx = sum(1 for name in f.readline().strip().split(",") if name.startswith("x"))
    rows = np.loadtxt(csv, delimiter=",", skiprows=1, ndmin=2)
    start = time.time()
    estimate, steps = peer.estimate(rows[:, :dx], rows[:, dx:], method, seed=seed)
    print(json.dumps({"task": task, "truth": peer.TRUTH.get(task), "method": method, "seed": seed,
                      "estimate": round(estimate, 4), "steps": steps, "seconds": round(time.time() - start, 1)}))


if __name__ == "__main__":
    main()
