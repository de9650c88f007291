#!/usr/bin/env python3
"""Every command the README and docs/ show still works (issue 47): a doc whose command stopped working fails.

Lines of code blocks that start with `build/bin/milab-cli` (or run it under mpirun) are checked against the built
runner: `run`, `prior-orders` and `hashing` with --check (every check a run makes before its first step, nothing
written), listings, help and `sample` run whole, `history` and `show` against a history this script fills with
one short run. A synopsis line (optional parts in brackets, placeholders in capitals) is checked by its command's
help: the command exists and names every flag the line uses. `.ci/` commands must be executable files of the
repository. Commands run in a scratch folder where build/ and resources/ point into the project, so what they
write lands there.

The pictures of docs/getting-started.md must be present and made after the code that draws them changed last
(tests/docs_pictures.py).

docs/method-reference.md and docs/task-reference.md are `milab-cli methods --long` and `tasks --long` as they
stand: a plugin whose keys change fails here until they are written again (--write).

usage: docs_commands.py SOURCE_DIR BIN_DIR [--write]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_pictures  # noqa: E402  (beside this script)

SOURCE, BIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])  # commands run in a scratch folder
WRITE = "--write" in sys.argv[3:]
REFERENCES = {  # file in docs/: (the listing, its title)
    "method-reference.md": ("methods", "Every method: what it estimates, its ceilings and keys"),
    "task-reference.md": ("tasks", "Every task: its exact MI, what it offers and its keys"),
}


def reference_text(listing, title, cwd, env):
    out = run([os.path.join(BIN, "milab-cli"), listing, "--long"], cwd, env).stdout
    return (f"# {title}\n\nWritten from `milab-cli {listing} --long` by `python3 tests/docs_commands.py . build/bin "
            f"--write`; test_docs fails when it no longer matches the plugins.\n\n```text\n{out}```\n")


def check_references(cwd, env, failures):
    for name, (listing, title) in REFERENCES.items():
        path, text = os.path.join(SOURCE, "docs", name), reference_text(listing, title, cwd, env)
        if WRITE:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        elif not os.path.isfile(path) or open(path, encoding="utf-8").read() != text:
            failures.append(f"docs/{name} is not `milab-cli {listing} --long`: write it again (--write)")
CHECKED = {"run", "prior-orders", "hashing"}
# A synopsis's placeholders: capitals standing alone (the N of `--K N`, not the flag `--K` itself), brackets, "...".
PLACEHOLDER = re.compile(
    r"\[|\.\.\.|(?<![-\w])(ID|PATH|DIR|FILE|GRID\.json|N|M|R|K|LR|T|I/N|EXPERIMENT\.json)(?![\w.])")


def documents():
    yield os.path.join(SOURCE, "README.md")
    docs = os.path.join(SOURCE, "docs")
    for name in sorted(os.listdir(docs)) if os.path.isdir(docs) else []:
        if name.endswith(".md"):
            yield os.path.join(docs, name)


def command_lines(path):
    """(line number, command) for each command line of the file's code blocks, continuations joined."""
    fenced, pending, start = False, "", 0
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        in_block = fenced or line.startswith("    ")
        text = line.strip()
        if pending:
            pending += " " + text.rstrip("\\").strip()
            if not text.endswith("\\"):
                yield start, pending
                pending = ""
            continue
        if not in_block or not re.match(r"(build/bin/|\.ci/|mpirun )", text):
            continue
        text = re.sub(r"\s+#\s.*$", "", text)  # a trailing comment
        if text.endswith("\\"):
            pending, start = text.rstrip("\\").strip(), number
        else:
            yield number, text


def run(args, cwd, env):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def write_user_tables(scratch):
    """The tables a reader's own-data commands name (mine.csv, mine.npz): 400 rows, y = x + noise, 2 + 2 columns."""
    import random, struct, zipfile
    rng = random.Random(1)
    rows = []
    for _ in range(400):
        x = [rng.gauss(0, 1), rng.gauss(0, 1)]
        rows.append(x + [x[0] + 0.5 * rng.gauss(0, 1), x[1] + 0.5 * rng.gauss(0, 1)])
    with open(os.path.join(scratch, "mine.csv"), "w") as f:
        f.write("x0,x1,y0,y1\n" + "".join(",".join(f"{v:.6f}" for v in r) + "\n" for r in rows))

    def npy(columns):  # NumPy's format 1.0: magic, header length, a dict padded to 64 bytes, little-endian float64
        header = f"{{'descr': '<f8', 'fortran_order': False, 'shape': ({len(rows)}, {len(columns)}), }}"
        header += " " * (63 - (10 + len(header)) % 64) + "\n"
        body = b"".join(struct.pack("<d", r[c]) for r in rows for c in columns)
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body

    with zipfile.ZipFile(os.path.join(scratch, "mine.npz"), "w") as z:  # the lab reads an .npz's first array
        z.writestr("table.npy", npy([0, 2]))


def help_of(command, cwd, env):
    r = run([os.path.join(BIN, "milab-cli"), "help", command], cwd, env)
    return r.returncode, r.stdout


_keys = []


def keys(cwd, env):
    """What `methods --long` and `tasks --long` say: every key a task or method declares is named there."""
    if not _keys:
        for listing in ("methods", "tasks"):
            _keys.append(run([os.path.join(BIN, "milab-cli"), listing, "--long"], cwd, env).stdout)
    return "\n".join(_keys)


def check(where, text, cwd, env, failures):
    words = shlex.split(text)
    if words[0].startswith(".ci/"):
        path = os.path.join(SOURCE, words[0])
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            failures.append(f"{where}: {words[0]} is not an executable file of the project")
        return "exists"
    if words[0] == "mpirun":  # the runner's part of it: mpirun's own flags are Open MPI's
        words = words[next(i for i, w in enumerate(words) if w.endswith("milab-cli")):]
    if not words[0].endswith("milab-cli"):
        exe = os.path.join(cwd, words[0])
        if not os.path.isfile(exe):
            failures.append(f"{where}: {words[0]} is not built")
        return "exists"
    command = words[1] if len(words) > 1 else ""
    if PLACEHOLDER.search(text) and command not in ("--version", "help"):
        code, usage = help_of(command, cwd, env)
        if code != 0:
            failures.append(f"{where}: `milab-cli help {command}` exits {code}")
            return "synopsis"
        for flag in re.findall(r"--([a-zA-Z][a-zA-Z0-9_-]*)", " ".join(words)):
            # the command's own flag, or a key some task or method declares (`--<any parameter ...>`)
            key = re.compile(r"\b%s\b" % re.escape(flag.replace("-", "_")))
            if "--" + flag not in usage and not key.search(keys(cwd, env)):
                failures.append(f"{where}: --{flag} is neither in `milab-cli help {command}` nor any task's or "
                                "method's key")
        return "synopsis"
    args = [os.path.join(BIN, "milab-cli")] + words[1:]
    if command in CHECKED:
        args.append("--check")
    if command in ("history", "show"):
        args += ["--db", os.path.join(cwd, "history.sqlite")]
    r = run(args, cwd, env)
    if r.returncode != 0:
        failures.append(f"{where}: exit {r.returncode}: {text}\n    {r.stderr.strip()[:300]}")
    return "checked" if command in CHECKED else "ran"


def main():
    failures, counts = [], {}
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "build"))
        os.symlink(BIN, os.path.join(scratch, "build", "bin"))
        for name in ("resources", "tests", "bench", "docs"):
            os.symlink(os.path.join(SOURCE, name), os.path.join(scratch, name))
        env = dict(os.environ, MILAB_DB=os.path.join(scratch, "history.sqlite"))
        write_user_tables(scratch)
        # One short run, so that `history` and `show 1` have a row to read.
        r = run([os.path.join(BIN, "milab-cli"), "run", "--task", "gaussian2", "--method", "infonce", "--steps", "5",
                 "--out", os.path.join(scratch, "first-run")], scratch, env)
        if r.returncode != 0:
            sys.exit(f"docs_commands: the first run failed: {r.stderr}")
        check_references(scratch, env, failures)
        failures.extend(docs_pictures.check(SOURCE))  # getting-started.md's pictures, present and current
        for path in documents():
            for number, text in command_lines(path):
                where = f"{os.path.relpath(path, SOURCE)}:{number}"
                kind = check(where, text, scratch, env, failures)
                counts[kind] = counts.get(kind, 0) + 1
    print("docs_commands: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    for f in failures:
        print("FAIL " + f)
    if not counts.get("checked"):
        failures.append("no run command was found to check: the parser lost the docs' code blocks")
        print("FAIL " + failures[-1])
    sys.exit(1 if failures else 0)


main()
