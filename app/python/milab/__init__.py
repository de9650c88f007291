"""milab from Python: mutual-information estimators on NumPy arrays, the lab's tasks with their exact MI, and its
experiments. A reading here is the runner's: the same rows and seed give the numbers `milab-cli run --task data`
prints for a file of those rows.

    import milab
    x, y = milab.sample("gaussian2", 5000, seed=1)    # the rows `milab-cli sample` writes
    result = milab.estimate(x, y, "ksg")               # a Result: float(result) is the estimate in nats
    milab.truth("gaussian2")                           # the exact I(x;y) of those rows' law

Errors in the input raise ValueError with the runner's one line, naming the argument or key and what is allowed.
`milab.methods()` and `milab.tasks()` list every method and task with its keys, defaults and ranges.
"""
import json
import math
import os
import re
import sys

import numpy as np

from . import _milab
from ._arrays import table_of
from ._result import Result

__version__ = _milab.version()
__all__ = ["estimate", "run", "sample", "truth", "truths", "tasks", "methods", "Result", "bmi"]


def _plugin_dirs():
    """The plugins beside this package: a build tree's (build/python/milab -> build/plugins) or an install's
    (P/lib/python3/dist-packages/milab -> P/lib/milab/plugins). MILAB_PLUGIN_PATH, when set, wins."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "..", "..", "plugins"), os.path.join(here, "..", "..", "..", "milab", "plugins")]
    return ":".join(os.path.normpath(c) for c in candidates if os.path.isdir(c))


_milab.start(_plugin_dirs())

# Keys estimate sets itself from its arguments: a user's table is task data's file and columns.
_SET_BY_ESTIMATE = ("task", "file", "x_columns", "y_columns", "xp_columns", "header", "method", "grid", "methods")


def _plain(value):
    """A key's value as JSON writes it: NumPy scalars and arrays become Python numbers and lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def _checked_keys(keys):
    """The keys with plain values; a NaN or an infinity, which no key takes and JSON cannot hold, named here."""
    plain = {}
    for key, value in keys.items():
        value = _plain(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{key}: must be a finite number, got {value}")
        plain[key] = value
    return plain


def _keys_text(keys):
    return json.dumps(_checked_keys(keys))


def _progress_reporter(progress):
    """The callable the runs report to: the caller's, a tqdm bar when the process is interactive and tqdm is there,
    else nothing. progress=False is always silent."""
    if progress is False:
        return None, None
    if callable(progress):
        last = [None]

        def report(done, total, cells, estimate):  # once per change: a poll with nothing new says nothing
            if last[0] != (done, total):
                last[0] = (done, total)
                progress(done, total)

        return report, None
    if progress is None and sys.stderr.isatty():
        try:
            from tqdm import tqdm
        except ImportError:
            return None, None
        bar = tqdm(total=0, unit="step", leave=False)

        def update(done, total, cells, estimate):
            bar.total = total
            bar.n = done
            if estimate == estimate:  # not NaN
                bar.set_postfix(estimate=f"{estimate:.3f}", refresh=False)
            bar.refresh()

        return update, bar
    return None, None


def _run(experiment, source, out, record, history, jobs, single, progress):
    report, bar = _progress_reporter(progress)
    try:
        return [Result(name, json.loads(summary), curve, warnings)
                for name, summary, curve, warnings in _milab.run_cells(
                    experiment, source, "" if out is None else os.fspath(out), bool(record),
                    "" if history is None else os.fspath(history), int(jobs), single, report)]
    finally:
        if bar is not None:
            bar.close()


def _integer(name, value, low, high):
    """`value` as an int within [low, high], or a ValueError naming `name` (a float, a bool or text is no count)."""
    if isinstance(value, bool) or not isinstance(_plain(value), int):
        raise ValueError(f"{name}: must be an integer in [{low}, {high}], got {value!r}")
    value = int(_plain(value))
    if not low <= value <= high:
        raise ValueError(f"{name}: must be an integer in [{low}, {high}], got {value}")
    return value


_SEED_RANGE = (0, 2**31 - 1)  # the runner's: a seed is a non-negative 32-bit integer


def _in_estimates_words(error, method):
    """The runner's line for a key no one takes, said in estimate's terms: its list of allowed keys names the table's
    keys (file, x_columns, ...), which estimate sets itself; a table's x' columns are estimate's xp."""
    if str(error).startswith("xp_columns: "):
        return ValueError(f"xp: method {method} reads x' beside x and y; pass its rows as xp=")
    found = re.match(r"^(\w+): unknown key for task data and method (\S+)", str(error))
    if not found:
        return error
    return ValueError(f"{found.group(1)}: not a key of method {method} or of a run; help(milab.estimate) lists them")


def estimate(x, y, method="ksg", *, xp=None, seed=1, out=None, progress=None, record=False, history=None, **keys):
    """Estimates I(x; y) in nats from paired rows, as `milab-cli run --task data` reads a file of the same numbers.

    x, y: array-likes of shape (n,) or (n, d) (NumPy arrays, torch tensors on the CPU, pandas frames), the same n.
    xp: the rows of a second view x', as x and y, for a method that reads I(x; y | x') from rows (ksg-cmi); the
        methods that need samples of the true p(y|x') (CNCE, the DEMI family) run on the lab's tasks instead.
    method: a method id (milab.methods() lists them with their keys). seed: the run's seed (splits, initialisation,
        permutations). out: a folder for the runner's files (summary.json, curve.csv), or None for none.
    keys: any key the runner takes for the method or the run, by its name in an experiment file (K=64,
        recipe="bmi", steps=2000, samples=3000, ci=0.9, permutations=99, extrapolate=True, ...).
    progress: None (a bar when interactive), False, or a callable(done_steps, total_steps).
    record: True writes the run to the run history (origin "python"); history: that file instead of the default.

    Returns a Result; raises ValueError naming the argument or key for bad input, KeyboardInterrupt on Ctrl-C (the
    run is cancelled first, and what it measured is written to `out`).

    On arrays (a finite table) recipe="auto" applies the lab's recipe for the method, which replaces some of the
    defaults listed below (a neural method's K, learning rate, early stopping, report and column transform:
    docs/benchmark.md, "bmi's protocol and the lab's recipe"); the values a run used are in result.summary["experiment"], and
    recipe="none" keeps the defaults as listed.
    """
    for key in keys:
        if key in _SET_BY_ESTIMATE:
            raise ValueError(f"{key}: set by estimate from its arguments; pass the arrays and method instead")
    if xp is not None:
        readers = [m["id"] for m in methods() if m.get("reads_xp")]
        if method not in readers and method in [m["id"] for m in methods()]:
            raise ValueError(f"xp: method {method} reads I(x; y) and takes no x'; {', '.join(readers)} read "
                             f"I(x; y | x') from xp (for I(x, x'; y), join x' to x)")
    parts, columns = table_of(x, y, xp)
    file = _milab.hold_columns(parts)
    try:
        def listed(indices):  # a list-valued key is one comma list in an experiment file ("0,1,2")
            return ",".join(map(str, indices))

        spec = {"task": "data", "file": file, "x_columns": listed(columns["x"]), "y_columns": listed(columns["y"]),
                "method": method, "seed": seed}
        if "xp" in columns:
            spec["xp_columns"] = listed(columns["xp"])
        spec.update(_checked_keys(keys))
        try:
            return _run(json.dumps(spec, allow_nan=False), "estimate's keys", out, record, history, 1, True,
                        progress)[0]
        except ValueError as error:
            raise _in_estimates_words(error, method) from None
    finally:
        _milab.release_rows(file)


def run(experiment, *, out=None, jobs=1, record=False, history=None, progress=None):
    """Runs an experiment: a dict in the experiment file's form, or the path of one (the presets included).

    A grid (a "grid" or "methods" key) returns its cells' Results in cell order; one run returns its Result.
    out: a folder for the runner's files (summary.json and curve.csv per run, grid.csv for a grid; the figures are
    milab-cli's). jobs: cells run at once. record: True writes each run to the run history (origin "python").
    """
    if isinstance(experiment, dict):
        source = "the experiment"
        text, is_grid = json.dumps(experiment, allow_nan=False), "grid" in experiment or "methods" in experiment
    else:
        source = os.fspath(experiment)
        with open(source, encoding="utf-8") as file:
            text = file.read()
        try:
            parsed = json.loads(text)
        except ValueError as error:
            raise ValueError(f"{os.fspath(experiment)}: is not JSON ({error})") from None
        is_grid = isinstance(parsed, dict) and ("grid" in parsed or "methods" in parsed)
    results = _run(text, source, out, record, history, jobs, False, progress)
    return results if is_grid else results[0]


def sample(task, n, *, seed=1, **keys):
    """The n rows a finite-sample run of `task` with that seed reads, as `milab-cli sample` writes them (float32).

    Returns (x, y), or (x, xp, y) for a task with a second view x' (gaussian3)."""
    n = _integer("n", n, 2, _milab.max_sample_values())
    rows, dim_x, dim_xp, dim_y = _milab.sample(task, _keys_text(keys), n, _integer("seed", seed, *_SEED_RANGE))
    # Each part C-contiguous, so that estimate reads it where it lies (milab/_arrays.py).
    x, xp, y = (np.ascontiguousarray(part) for part in
                (rows[:, :dim_x], rows[:, dim_x:dim_x + dim_xp], rows[:, dim_x + dim_xp:]))
    return (x, xp, y) if dim_xp else (x, y)


def truths(task, *, seed=1, **keys):
    """Every exact value the task knows, by name, the total first (gaussian3: I(x,x';y), I(x';y), I(x;y|x'), ...).

    A truth read by Monte Carlo (bmi's mixtures, 1v1-X-0.9) comes with its standard error, named
    "I(x;y) standard error"."""
    named = json.loads(_milab.truths(task, _keys_text(keys), _integer("seed", seed, *_SEED_RANGE)))
    return {name: float(value) for name, value in named}


def truth(task, *, seed=1, **keys):
    """The task's MI in nats (exact, or bmi's mixtures' Monte Carlo mean): I(x;y), or I(x,x';y) with a second view."""
    named = truths(task, seed=seed, **keys)
    if not named:
        raise ValueError(f"task: '{task}' states no exact MI (a table of data, or views without a law)")
    return next(iter(named.values()))


def tasks():
    """Every task: id, name, family, summary, whether it is a table (dataset), its sizes and its keys."""
    return json.loads(_milab.tasks())


def methods():
    """Every method: id, name, family, summary, whether it trains, whether it reads rows of x' (estimate's xp), and its
    keys (name, type, default, allowed)."""
    return json.loads(_milab.methods())


def _methods_help():
    """Each method with its keys, defaults and ranges, as `milab-cli methods --long` lists them: help(estimate)."""
    def key_line(k):
        default = "" if k["default"] is None else f"={k['default']}"
        return f"{k['name']}{default}: {k['allowed']}"

    lines = ["", "Keys of every run (key=default: allowed):"]
    lines += [f"    {key_line(k)}" for k in json.loads(_milab.run_keys())]
    lines += ["", "Methods and their own keys:"]
    for m in methods():
        lines.append(f"  {m['id']} ({m['family']}): {m['summary']}")
        lines += [f"      {key_line(k)}" for k in m["keys"]]
    return "\n".join(lines)


estimate.__doc__ += _methods_help()

from . import bmi  # noqa: E402  (it uses estimate above)
