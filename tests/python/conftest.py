"""The Python module's suites (issue 78), run by ctest as test_python with the build tree's module on PYTHONPATH and
milab-cli named by MILAB_CLI, so that a reading from Python is compared with the runner's own."""
import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("MILAB_CLI")
    if not path:
        pytest.fail("MILAB_CLI names no milab-cli (ctest sets it)")

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=900)
        if check and r.returncode != 0:
            pytest.fail(f"milab-cli {' '.join(map(str, args))} exited {r.returncode}: {r.stderr.strip()[-400:]}")
        return r

    return run


@pytest.fixture
def runner_reading(cli, tmp_path):
    """summary.json of `milab-cli run` on an .npy table of [x | y] with the given keys."""

    def read(table_path, dim_x, dim_y, **keys):
        out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
        args = ["run", "--task", "data", "--file", table_path, "--x-columns", ",".join(map(str, range(dim_x))),
                "--y-columns", ",".join(map(str, range(dim_x, dim_x + dim_y))), "--out", out]
        for key, value in keys.items():
            args += [f"--{key.replace('_', '-')}", value]
        cli(*args)
        with open(out / "summary.json", encoding="utf-8") as f:
            return json.load(f)

    return read
