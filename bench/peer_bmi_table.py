#!/usr/bin/env python3
"""The lab's `--recipe bmi` against bmi's protocol in PyTorch (../shared/bench/peer_bmi.py) on the same rows.

For each task and seed the peer samples N rows, writes them to a CSV and reads its estimate from that CSV with its
split, initialisation and batches seeded by the same seed (bench/peer_bmi_seeded.py: the peer's own command line
fixes them at 42 for every data seed); the lab then reads the same CSV (`--task data`) under `--recipe bmi` with the
same seed. Per task: mean and standard error over the seeds
of each, and whether the two sit within two combined standard errors (issue 45's like-for-like check).

--method dv runs the lab's mine at momentum 0 (the DV bound, read on every off-diagonal held-out pair) against the
peer's dv, like for like. --method mine runs the lab's mine against the peer's dv: bmi's MINE is the DV bound read on the held-out joint and
one permutation, trained with a moving average (alpha 0.9) in its gradient's denominator; the peer writes DV without
that average, the nearest protocol it has. Besides "agree", each task says whether the lab is "no worse": its mean's
distance to the truth at most the peer's plus two combined standard errors (issue 45 item 6's target).

Usage: bench/peer_bmi_table.py WORKDIR [--peer PATH] [--cli PATH] [--samples N] [--seeds S] [--method M]
                               [--phase peer|lab|table|all] [--compare-none] [--need N]
                               [--task ID ...]
Each phase skips what an earlier call already wrote, so an interrupted table resumes. Prints a Markdown table.
The peer is run with /usr/bin/python3 (Debian's python3-torch and python3-numpy), one thread, as it sets itself.
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Every task the peer names in its table of truths, and multinormal-sparse-50-50-2-2.0: Gaussian, additive,
# Student-t, transformed, 1- to 50-dimensional.
TASKS = [
    ("1v1-normal-0.75", 1, 0.4133), ("1v1-additive-0.75", 1, 0.3333), ("1v1-additive-0.1", 1, 1.7094),
    ("student-identity-3-3-2", 3, 0.2909),
    ("multinormal-dense-5-5-0.5", 5, 0.5928), ("multinormal-sparse-5-5-2-2.0", 5, 1.0217),
    ("multinormal-dense-25-25-0.5", 25, 1.2922), ("multinormal-sparse-25-25-2-2.0", 25, 1.0217),
    ("multinormal-sparse-50-50-2-2.0", 50, 1.0217), ("student-identity-2-2-1", 2, 0.4319),
    ("student-identity-5-5-3", 5, 0.2985), ("asinh-student-identity-3-3-2", 3, 0.2909),
    ("half_cube-multinormal-sparse-5-5-2-2.0", 5, 1.0217), ("normal_cdf-multinormal-sparse-5-5-2-2.0", 5, 1.0217),
]


def mean_se(v):
    m = sum(v) / len(v)
    se = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v)) if len(v) > 1 else 0.0
    return m, se


PEER_METHOD = {"infonce": "infonce", "nwj": "nwj", "mine": "dv", "dv": "dv"}  # the lab's method -> the peer's
# dv: the lab's mine without its moving average (momentum 0), which reads DV on every off-diagonal held-out pair as
# the peer's dv (and bmi's) does: like for like. mine keeps bmi's MINE (alpha 0.9, one permutation).
LAB_ARGS = {"infonce": ["--method", "infonce"], "nwj": ["--method", "nwj"], "mine": ["--method", "mine"],
            "dv": ["--method", "mine", "--momentum", "0"]}


def cell(work, task, seed, method, who):  # who: peer, lab (--recipe bmi), lab-none (--recipe none)
    return os.path.join(work, f"{task}-s{seed}-{method}.{who}.json")


def run_peer(a, task, seed):
    out = cell(a.work, task, seed, a.method, "peer")
    csv = os.path.join(a.work, f"{task}-s{seed}.csv")
    if os.path.exists(out) and os.path.exists(csv):
        return
    runner = os.path.join(HERE, "peer_bmi_seeded.py")
    line = subprocess.run(["/usr/bin/python3", runner, a.peer, task, str(a.samples), str(seed), PEER_METHOD[a.method],
                           "--csv", csv],
                          check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    with open(out, "w") as f:
        f.write(line + "\n")


def run_lab(a, task, dx, seed, recipe="bmi"):
    who = "lab" if recipe == "bmi" else "lab-" + recipe
    out = cell(a.work, task, seed, a.method, who)
    if os.path.exists(out):
        return
    csv = os.path.join(a.work, f"{task}-s{seed}.csv")
    if not os.path.exists(csv):  # the peer has not written these rows yet
        return
    folder = os.path.join(a.work, f"{task}-s{seed}-{a.method}.{who}")
    ys = ",".join(str(i) for i in range(dx, 2 * dx))
    subprocess.run([a.cli, "run", "--task", "data", "--file", csv, "--x-columns", ",".join(map(str, range(dx))),
                    "--y-columns", ys, *LAB_ARGS[a.method], "--recipe", recipe, "--seed", str(seed), "--device", "cpu",
                    "--out", folder, "--db", os.path.join(a.work, "history.sqlite")],
                   check=True, capture_output=True, text=True)
    with open(os.path.join(folder, "summary.json")) as f:
        s = json.load(f)
    with open(out, "w") as f:
        f.write(json.dumps({"task": task, "method": a.method, "estimate": s["estimate"],
                            "steps": s.get("steps_done"), "seconds": s.get("seconds")}) + "\n")


def table(a):
    none_col = a.compare_none  # the lab's own defaults beside, when they were run
    print(f"| task (truth) | seeds | peer {PEER_METHOD[a.method]} | lab {a.method} --recipe bmi | difference / combined SE"
          " | agree | no worse |" + (" lab --recipe none |" if none_col else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if none_col else ""))
    agree = no_worse = 0
    for task, _, truth in TASKS:
        vals = {}
        for who in ("peer", "lab", "lab-none"):
            v = []
            for seed in range(1, a.seeds + 1):
                p = cell(a.work, task, seed, a.method, who)
                if os.path.exists(p):
                    v.append(json.load(open(p))["estimate"])
            vals[who] = v
        if len(vals["peer"]) < 2 or len(vals["lab"]) < 2:
            print(f"| {task} ({truth}) | | missing | missing | | |")
            continue
        (pm, ps), (lm, ls) = mean_se(vals["peer"]), mean_se(vals["lab"])
        z = abs(lm - pm) / max(math.hypot(ps, ls), 1e-12)
        ok = z <= 2
        agree += ok
        close = abs(lm - truth) <= abs(pm - truth) + 2 * math.hypot(ps, ls)
        no_worse += close
        none = "%.3f ± %.3f" % mean_se(vals["lab-none"]) if len(vals["lab-none"]) > 1 else ""
        print(f"| {task} ({truth}) | {min(len(vals['peer']), len(vals['lab']))} | {pm:.3f} ± {ps:.3f} | {lm:.3f} ± {ls:.3f} | {z:.2f} | {'yes' if ok else 'no'}"
              f" | {'yes' if close else 'no'} |"
              + (f" {none} |" if none_col else ""))
    print(f"\n{agree} of {len(TASKS)} tasks within two combined standard errors, the lab no worse on {no_worse} "
          f"({a.samples} rows, the seeds each task has of 1-{a.seeds}, mean ± standard error over them).")
    return agree


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("--peer", default=os.path.join(HERE, "..", "..", "shared", "bench", "peer_bmi.py"))
    p.add_argument("--cli", default=os.path.join(HERE, "..", "build", "bin", "milab-cli"))
    p.add_argument("--samples", type=int, default=5000)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--method", default="infonce", choices=sorted(PEER_METHOD))
    p.add_argument("--phase", default="all", choices=["peer", "lab", "table", "all"])
    p.add_argument("--compare-none", action="store_true", help="also run the lab's own defaults (--recipe none)")
    p.add_argument("--need", type=int, default=0, help="exit 1 when fewer tasks agree (the long ctest: 12)")
    p.add_argument("--task", action="append", help="run only these tasks (the table still shows every one)")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    for task, dx, _ in TASKS:
        if a.task and task not in a.task:
            continue
        for seed in range(1, a.seeds + 1):
            if a.phase in ("peer", "all"):
                run_peer(a, task, seed)
            if a.phase in ("lab", "all"):
                run_lab(a, task, dx, seed)
                if a.compare_none:
                    run_lab(a, task, dx, seed, "none")
            print(f"{task} seed {seed} done", file=sys.stderr, flush=True)
    if a.phase in ("table", "all") and table(a) < a.need:
        sys.exit(1)


if __name__ == "__main__":
    main()
