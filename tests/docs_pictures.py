#!/usr/bin/env python3
"""The pictures of docs/getting-started.md, made by the lab itself (issue 84, item 1).

    python3 tests/docs_pictures.py SOURCE_DIR BIN_DIR --write    # runs the lab and writes docs/pictures/*.png
    python3 tests/docs_pictures.py SOURCE_DIR BIN_DIR            # checks them (test_docs does)

Each picture is the window's own grab (`milab --run --size --screenshot`, a fresh settings folder and history) or
a figure `milab-cli run` writes. docs/pictures/manifest.json records, beside each picture's command, a SHA-256 of the
code that draws them (app/gui, app/plot), of their experiment files and of this script: the check fails when a
picture the page shows is missing, or when that code changed after the pictures were made (then run --write again).
"""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PAGE = "docs/getting-started.md"
FOLDER = "docs/pictures"
WINDOW_SIZE = "1600x1000"
# name: (how it is made, its arguments); {source} and {out} are filled in, a figure is the file a run writes.
PICTURES = {
    "first-run.png": ("window", ["resources/experiments/default.json"]),
    "ceiling-k.png": ("figure", ["--task", "gaussian2", "--dim", "20", "--mi", "10", "--method", "infonce",
                                 "--K", "16,64,256", "--steps", "2000", "--jobs", "2"], "estimate_vs_K.png"),
    "past-log-k.png": ("figure", ["--task", "gaussian3", "--dim", "20", "--mi", "2,6,10", "--method", "infonce,demi",
                                  "--K", "128", "--steps", "3000", "--jobs", "2"], "estimate_vs_truth.png"),
    "finite-samples.png": ("window", [f"{FOLDER}/experiments/finite-samples.json"]),
}


def code_digest(source):
    """SHA-256 over the drawing code, the pictures' experiment files and this script, in a fixed order."""
    patterns = ["app/gui/**/*.cpp", "app/gui/**/*.h", "app/plot/**/*.cpp", "app/plot/**/*.h",
                f"{FOLDER}/experiments/*.json", "resources/experiments/default.json", "tests/docs_pictures.py"]
    files = sorted({os.path.relpath(f, source) for p in patterns for f in glob.glob(os.path.join(source, p),
                                                                                       recursive=True)})
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0")
        with open(os.path.join(source, name), "rb") as f:
            digest.update(f.read() + b"\0")
    return digest.hexdigest()


def make(source, bin_dir):
    os.makedirs(os.path.join(source, FOLDER), exist_ok=True)
    commands = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_DATA_HOME=tmp,
                   MILAB_DB=os.path.join(tmp, "history.sqlite"))
        for name, (kind, args, *figure) in PICTURES.items():
            target = os.path.join(source, FOLDER, name)
            if kind == "window":
                command = ["milab", *args, "--run", "--size", WINDOW_SIZE, "--screenshot", target]
            else:
                out = os.path.join(tmp, name)
                command = ["milab-cli", "run", *args, "--out", out]
            subprocess.run([os.path.join(bin_dir, command[0]), *command[1:]], cwd=source, env=env, check=True,
                           stdout=subprocess.DEVNULL)
            if kind == "figure":
                shutil.copyfile(os.path.join(out, figure[0]), target)
                command[-1] = "DIR"
                command.append(f"(its {figure[0]})")
            else:
                command[-1] = f"{FOLDER}/{name}"
            commands[name] = " ".join(command)
            print(f"wrote {FOLDER}/{name}")
    with open(os.path.join(source, FOLDER, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"code_sha256": code_digest(source), "pictures": commands}, f, indent=2)
        f.write("\n")


def check(source):
    """The failures, as lines: a picture the page shows that is missing or not made here, or made before the code."""
    failures = []
    with open(os.path.join(source, PAGE), encoding="utf-8") as f:
        shown = re.findall(r"!\[[^\]]*\]\(pictures/([^)]+)\)", f.read())
    manifest_path = os.path.join(source, FOLDER, "manifest.json")
    manifest = json.load(open(manifest_path, encoding="utf-8")) if os.path.isfile(manifest_path) else {}
    for name in shown:
        if not os.path.isfile(os.path.join(source, FOLDER, name)):
            failures.append(f"{PAGE} shows pictures/{name}, which is missing")
        elif name not in manifest.get("pictures", {}):
            failures.append(f"{PAGE} shows pictures/{name}, which tests/docs_pictures.py does not make")
    if manifest.get("code_sha256") != code_digest(source):
        failures.append(f"{FOLDER}: the code that draws the pictures changed after they were made: run "
                        "`python3 tests/docs_pictures.py . build/bin --write`")
    return failures


if __name__ == "__main__":
    source, bin_dir = sys.argv[1], sys.argv[2]
    if "--write" in sys.argv[3:]:
        make(source, bin_dir)
    problems = check(source)
    for line in problems:
        print(line)
    sys.exit(1 if problems else 0)
