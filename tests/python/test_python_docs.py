"""docs/python.md teaches code that runs: every Python block compiles, and its first steps run as shown."""
import contextlib
import io
import os
import re

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


def test_every_python_block_of_the_doc_compiles():
    found = blocks()
    assert len(found) >= 4
    for i, code in enumerate(found):
        compile(code, f"docs/python.md block {i + 1}", "exec")


def test_the_first_steps_run_and_print_what_the_doc_says():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(blocks()[0], {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "1.0"
    with open(DOC, encoding="utf-8") as f:
        assert f"`{lines[1]}`" in f.read(), f"the doc no longer shows what its first steps print: {lines[1]}"
