"""Bad input is a ValueError with the runner's line, naming the argument or key and what is allowed; nothing is
recorded, and the interpreter never crashes."""
import os
import sqlite3

import numpy as np
import pytest

import milab


@pytest.fixture
def rows():
    return milab.sample("gaussian2", 200, seed=1)


@pytest.fixture
def history(tmp_path):
    return tmp_path / "history.sqlite"


def refused(history, match, *args, **kwargs):
    with pytest.raises(ValueError, match=match):
        milab.estimate(*args, record=True, history=history, progress=False, **kwargs)
    assert not os.path.exists(history), "a refused run wrote to the history"


def test_a_nan_cell_is_named_by_its_array_row_and_column(rows, history):
    x, y = rows
    x = x.copy()
    x[7, 1] = np.nan
    refused(history, r"^x: row 7, column 1: nan is not a finite number$", x, y, "ksg")


def test_a_cell_beyond_the_lab_s_range_is_refused(rows, history):
    x, y = rows
    y = y.astype(np.float64)
    y[3, 0] = 1e31
    refused(history, r"^y: row 3, column 0: 1e\+31 is beyond \+-1e30", x, y, "ksg")


def test_a_key_the_method_does_not_take_is_named_in_estimates_words(rows, history):
    refused(history, r"^bogus: not a key of method ksg or of a run; help\(milab.estimate\) lists them$", *rows, "ksg",
            bogus=3)


def test_a_key_out_of_range_gets_the_runners_allowed_range(rows, history):
    refused(history, r"^K: must be an integer in \[", *rows, "infonce", K=1)


def test_an_unknown_method_is_named(rows, history):
    refused(history, r"method", *rows, "no-such-method")


def test_three_dimensions_are_refused(rows, history):
    x, y = rows
    refused(history, r"^x: must be 1-d \(n,\) or 2-d \(n, d\), got 3 dimensions", x.reshape(200, 1, -1), y, "ksg")


def test_rows_that_do_not_pair_are_refused(rows, history):
    x, y = rows
    refused(history, r"^y: has 199 rows where x has 200", x, y[:199], "ksg")


def test_an_empty_array_is_refused(history):
    refused(history, r"^x: has no rows$", np.zeros((0, 2)), np.zeros((0, 2)), "ksg")


def test_an_object_array_is_refused(rows, history):
    x, y = rows
    refused(history, r"^x: must hold numbers", np.array([["a", None]] * 200, dtype=object), y, "ksg")


def test_text_is_refused(rows, history):
    x, y = rows
    refused(history, r"^x: must hold numbers.*dtype <U", np.array([["1", "2"]] * 200), y, "ksg")


def test_keys_estimate_sets_itself_are_refused(rows, history):
    refused(history, r"^file: set by estimate", *rows, "ksg", file="elsewhere.csv")


def test_a_list_is_not_a_key_of_one_run(rows, history):
    refused(history, r"^K: must be a number, string, boolean or null in 'estimate's keys'$", *rows, "infonce", K=[8, 16])


def test_a_nan_key_is_refused(rows, history):
    refused(history, r"^lr: must be a finite number, got nan$", *rows, "infonce", lr=float("nan"))


def test_counts_and_seeds_are_integers_in_the_runners_range():
    for call, match in [(lambda: milab.sample("gaussian2", 2.5), r"^n: must be an integer in \[2, 100000000\], got 2.5$"),
                        (lambda: milab.sample("gaussian2", 10, seed=2**31), r"^seed: must be an integer in \[0, "),
                        (lambda: milab.truth("gaussian2", seed=-1), r"^seed: .* got -1$"),
                        (lambda: milab.sample("gaussian2", 10, seed=None), r"^seed: .* got None$"),
                        (lambda: milab.truth("fashion-mnist-views"), r"^task: 'fashion-mnist-views' states no exact MI")]:
        with pytest.raises(ValueError, match=match):
            call()
    assert isinstance(milab.truth("gaussian2", dim=2, mi=1.0), float)


def test_sample_and_truth_refuse_bad_keys():
    with pytest.raises(ValueError, match=r"^task: unknown task 'gaussian9'"):
        milab.sample("gaussian9", 10)
    with pytest.raises(ValueError, match=r"^n: must be an integer in \[2, "):
        milab.sample("gaussian2", 1)
    with pytest.raises(ValueError, match=r"^bogus: not a parameter of"):
        milab.truth("gaussian2", bogus=1)


def test_a_finished_reading_is_recorded_when_asked(rows, history):
    r = milab.estimate(*rows, "ksg", record=True, history=history, progress=False)
    assert r.status == "finished"
    with sqlite3.connect(history) as db:
        recorded = db.execute("select method, origin, estimate from runs").fetchall()
    assert recorded == [("ksg", "python", r.estimate)]
