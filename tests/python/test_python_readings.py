"""A reading from Python is the runner's reading of the same rows with the same seed, number for number; the rows and
truths Python draws are the ones milab-cli writes."""
import json
import math
import sys

import numpy as np
import pytest

import milab
from milab import _milab
from milab._arrays import table_of


def test_sample_is_the_rows_milab_cli_writes(cli, tmp_path):
    x, y = milab.sample("gaussian2", 300, seed=4)
    cli("sample", "--task", "gaussian2", "--samples", 300, "--seed", 4, "--out", tmp_path / "rows.npy")
    rows = np.load(tmp_path / "rows.npy")
    assert x.dtype == np.float32 and y.dtype == np.float32
    assert np.array_equal(np.hstack([x, y]), rows)
    assert x.shape[0] == 300 and x.shape[1] + y.shape[1] == rows.shape[1]


def test_a_task_with_a_second_view_samples_three_parts_and_states_its_conditional_truths():
    x, xp, y = milab.sample("gaussian3", 50, seed=1)
    assert x.shape == xp.shape and y.shape[0] == 50
    truths = milab.truths("gaussian3")
    total, conditional = truths["I(x,x';y)"], truths["I(x;y|x')"]
    # The chain rule the task is built on: I(x,x';y) = I(x';y) + I(x;y|x').
    assert math.isclose(total, truths["I(x';y)"] + conditional, rel_tol=1e-12)
    assert milab.truth("gaussian3") == total


@pytest.mark.parametrize("method,keys", [
    ("ksg", {}),
    ("infonce", {"steps": 60, "permutations": 9}),
    ("infonce", {"steps": 60, "recipe": "bmi", "permutations": 9}),
    ("mmg", {"steps": 40, "permutations": 9}),
])
def test_a_reading_equals_the_runners_on_the_same_rows(method, keys, runner_reading, tmp_path):
    x, y = milab.sample("gaussian2", 1200, seed=2)
    np.save(tmp_path / "rows.npy", np.hstack([x, y]))
    ours = milab.estimate(x, y, method, seed=3, progress=False, **keys)
    theirs = runner_reading(tmp_path / "rows.npy", x.shape[1], y.shape[1], method=method, seed=3, **keys)
    assert ours.status == theirs["status"] == "finished"
    assert ours.estimate == theirs["estimate"]  # the same double, so every printed digit too
    assert ours.summary["readings"] == theirs["readings"]
    assert f"{float(ours):.4f}" == f"{theirs['estimate']:.4f}"


def test_a_conditional_reading_from_rows_of_x_prime_equals_the_runners(cli, tmp_path):
    """xp= gives ksg-cmi its x' rows (issue 78): the runner's reading of the same table with --xp-columns, number for
    number; near the truth of the law the rows come from; with no test of independence, which a permutation of y
    cannot give for I(x;y|x'). Without xp the method is refused naming xp."""
    x, xp, y = milab.sample("gaussian3", 1500, seed=7, dim=1, mi=1.0)
    np.save(tmp_path / "rows.npy", np.hstack([x, y, xp]))
    ours = milab.estimate(x, y, "ksg-cmi", xp=xp, seed=2, progress=False)
    cli("run", "--task", "data", "--file", tmp_path / "rows.npy", "--x-columns", 0, "--y-columns", 1,
        "--xp-columns", 2, "--method", "ksg-cmi", "--seed", 2, "--out", tmp_path / "out")
    with open(tmp_path / "out" / "summary.json", encoding="utf-8") as f:
        theirs = json.load(f)
    assert ours.status == theirs["status"] == "finished"
    assert ours.estimate == theirs["estimate"]
    truth = milab.truths("gaussian3", seed=7, dim=1, mi=1.0)["I(x;y|x')"]  # alpha is drawn by the seed
    low, high = ours.interval
    assert low <= truth <= high, (low, high, truth)  # a fixed seed; KSG's bias is small at one dimension
    assert "p_value" not in ours.summary["readings"]
    assert "no test of independence" in ours.summary["reason"]
    with pytest.raises(ValueError, match=r"^xp: method ksg-cmi reads x' beside x and y; pass its rows as xp="):
        milab.estimate(x, y, "ksg-cmi", progress=False)
    with pytest.raises(ValueError, match=r"^xp: has 10 rows where x has 1500"):
        milab.estimate(x, y, "ksg-cmi", xp=xp[:10], progress=False)
    # Another method would read I(x, x'; y) from the same table: said, not done silently.
    with pytest.raises(ValueError, match=r"^xp: method ksg reads I\(x; y\) and takes no x'; ksg-cmi read"):
        milab.estimate(x, y, "ksg", xp=xp, progress=False)
    assert [m["id"] for m in milab.methods() if m["reads_xp"]] == ["ksg-cmi"]


def test_the_result_carries_the_interval_the_test_and_the_curve():
    x, y = milab.sample("gaussian2", 600, seed=5)
    r = milab.estimate(x, y, "infonce", steps=80, permutations=19, progress=False)
    low, high = r.interval
    assert low <= r.estimate <= high
    assert 0 < r.p_value <= 1
    assert r.summary["experiment"]["task"] == "data"
    assert list(r.curve["step"][:2]) == [1, 2] and len(r.curve["estimate"]) == 80
    assert "estimate" in repr(r) and "nats" in repr(r)
    assert math.isnan(r.truth)  # a user's rows have no truth


def test_a_monte_carlo_truth_comes_with_its_standard_error():
    named = milab.truths("1v1-AI")
    assert list(named) == ["I(x;y)", "I(x;y) standard error"]
    assert milab.truth("1v1-AI") == named["I(x;y)"] and 0 < named["I(x;y) standard error"] < 0.01
    r = milab.run({"task": "1v1-AI", "method": "ksg", "samples": 500, "permutations": 1}, progress=False)
    assert r.truth == named["I(x;y)"] and r.truth_stderr == named["I(x;y) standard error"]
    assert f"+- {r.truth_stderr:.4f}" in repr(r)
    assert milab.run({"task": "1v1-normal-0.75", "method": "ksg", "samples": 500, "permutations": 1},
                     progress=False).truth_stderr == 0


def test_torch_like_objects_and_1d_arrays_are_read_through_their_array_interface():
    x, y = milab.sample("gaussian2", 300, seed=6)

    class Tensorish:  # what torch tensors and pandas frames offer NumPy
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None):
            return self.a if dtype is None else self.a.astype(dtype)

    a = milab.estimate(Tensorish(x), Tensorish(y), "ksg")
    b = milab.estimate(x.astype(np.float64), y, "ksg")
    assert a.estimate == b.estimate
    one = milab.estimate(x[:, 0], y[:, 0], "ksg")
    assert one.summary["experiment"]["x_columns"] == "0"


def test_the_catalog_lists_methods_and_tasks_with_their_keys():
    methods = {m["id"]: m for m in milab.methods()}
    assert {"ksg", "infonce", "mmg", "demi-bo"} <= set(methods)
    k = next(key for key in methods["infonce"]["keys"] if key["name"] == "K")
    assert k["type"] == "int" and "integer" in k["allowed"]
    # help(milab.estimate) lists every run key and every method with its own keys.
    assert all(f"\n  {m} (" in milab.estimate.__doc__ for m in methods)
    assert "\n    permutations=" in milab.estimate.__doc__ and "\n      K=" in milab.estimate.__doc__
    tasks = {t["id"]: t for t in milab.tasks()}
    assert "gaussian2" in tasks and tasks["data"]["dataset"]


def test_a_float32_c_contiguous_array_is_read_where_it_lies_and_held_only_while_read():
    x, y = milab.sample("gaussian2", 300, seed=6)
    assert x.flags.c_contiguous and y.flags.c_contiguous  # sample's parts, ready to be read in place
    parts, _ = table_of(x, y)
    before = sys.getrefcount(x)
    file = _milab.hold_columns(parts)
    try:
        assert _milab.held_block_address(file, 0) == x.ctypes.data  # the lab reads the caller's memory: no copy
        assert _milab.held_block_address(file, 1) == y.ctypes.data
        assert sys.getrefcount(x) == before + 1  # the held table keeps the array alive
    finally:
        _milab.release_rows(file)
    assert sys.getrefcount(x) == before
    kept = x.copy()
    milab.estimate(x, y, "infonce", K=64, steps=20, permutations=3, progress=False)
    assert np.array_equal(x, kept)  # only read
    assert sys.getrefcount(x) == before  # and let go when estimate returns


def test_any_other_array_is_converted_once_to_the_float32_values_a_file_gives():
    x, y = milab.sample("gaussian2", 300, seed=6)
    wide = x.astype(np.float64) / 3
    strided = np.hstack([x, x])[:, :1]  # every other float: not C-contiguous
    for given in (wide, strided, np.arange(300)):
        (part, _), _ = table_of(given, y)
        assert part.dtype == np.float32 and part.flags.c_contiguous
        assert not np.shares_memory(part, given)
        assert np.array_equal(part, np.asarray(given, dtype=np.float64).reshape(300, -1).astype(np.float32))
