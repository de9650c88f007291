"""A good citizen of Python: another thread runs while the lab trains (the GIL is released), and Ctrl-C stops a run
within a poll, its files written, as KeyboardInterrupt."""
import json
import os
import signal
import threading

import pytest

import milab


def test_another_thread_runs_while_a_run_trains_and_its_ctrl_c_stops_the_run(tmp_path):
    began = threading.Event()
    counted = []

    def progress(done, total):
        if done > 0:
            began.set()

    def other_thread():
        began.wait()
        # If the run held the GIL this thread could never count: the run is long, and only this thread stops it.
        for i in range(20):
            counted.append(i)
            threading.Event().wait(0.001)
        os.kill(os.getpid(), signal.SIGINT)

    helper = threading.Thread(target=other_thread)
    helper.start()
    experiment = {"task": "gaussian2", "method": "infonce", "steps": 1000000, "seed": 1}
    with pytest.raises(KeyboardInterrupt):
        milab.run(experiment, out=tmp_path / "run", progress=progress)
    helper.join()
    assert len(counted) == 20
    with open(tmp_path / "run" / "summary.json", encoding="utf-8") as f:
        summary = json.load(f)
    assert summary["status"] == "cancelled"
    assert 0 < summary["steps_done"] < 1000000


def test_a_grid_returns_its_cells_in_order_and_writes_the_runners_files(tmp_path):
    experiment = {"task": "gaussian2", "method": "infonce", "steps": 30, "grid": {"K": [8, 16]}}
    results = milab.run(experiment, out=tmp_path / "grid", jobs=2, progress=False)
    assert [r.summary["K"] for r in results] == [8, 16]
    assert all(r.status == "finished" for r in results)
    assert (tmp_path / "grid" / "grid.csv").exists()
    for r in results:
        assert (tmp_path / "grid" / r.name / "summary.json").exists()
        assert (tmp_path / "grid" / r.name / "curve.csv").exists()


def test_estimate_writes_the_runners_files_to_out(tmp_path):
    x, y = milab.sample("gaussian2", 600, seed=2, dim=2)
    calls = []
    r = milab.estimate(x, y, "ksg", out=tmp_path / "one", progress=lambda done, total: calls.append((done, total)))
    with open(tmp_path / "one" / "summary.json", encoding="utf-8") as f:
        assert json.load(f)["estimate"] == r.estimate
    assert (tmp_path / "one" / "curve.csv").exists()
    assert len(calls) == len(set(calls))  # each report once: a poll with nothing new says nothing


def test_a_preset_file_runs_by_its_path(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"task": "gaussian2", "method": "ksg", "samples": 500}))
    r = milab.run(path, progress=False)
    assert r.status == "finished" and r.estimate == r.estimate
