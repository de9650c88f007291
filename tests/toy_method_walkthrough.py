#!/usr/bin/env python3
"""The walkthrough of docs/developer.md, "Adding a method or a task family", still works (issue 84): a toy method
folder written exactly as the section shows it builds and appears in `milab-cli methods`, and the section's runs of it
succeed.

The section is the one copy of the toy's files: each of its code blocks belongs to the file that the paragraph just
above it names first (`plugins/<folder>/<file>`). This script writes those blocks into a scratch source tree whose
plugins/CMakeLists.txt is the project's own (so the folder is found by its glob and built by the real
milab_add_method_plugin, with cmake/plain_moc.cmake's moc), with core/ and cmake/ linked from the project and a
top-level CMakeLists.txt that stands in for the project's: it finds Qt and LibTorch as the build tree did (its
CMakeCache.txt) and imports the build tree's libmilab_core.so instead of building core. Only the toy's one
translation unit is compiled, without precompiled headers (a few seconds). The build tree's milab-cli then runs with
MILAB_PLUGIN_PATH naming the build's plugin folder and the scratch one, as the section says a plugin built outside
the tree is loaded:
- without the scratch folder the toy's id is not listed (the plugin under test is the toy's own build);
- every `build/bin/milab-cli ...` command the section's prose shows (inline code) exits 0, run in a scratch folder;
  a `methods` listing lists the toy's id; a run with --out writes a finished summary.json of the toy; a run with
  `--critic oracle` reads within 0.3 nats of the task's truth.
The section must show at least one `methods` listing and one run of the toy.

usage: toy_method_walkthrough.py SOURCE_DIR BUILD_DIR [--keep]
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
KEEP = "--keep" in sys.argv[3:]
DOC = os.path.join(SOURCE, "docs", "developer.md")
SECTION = "## Adding a method or a task family"
FILE_SPAN = re.compile(r"`(plugins/[\w.-]+/[\w.-]+)`")
ORACLE_TOLERANCE = 0.3  # nats between the oracle critic's reading and the task's truth
failures = []


def fail(what):
    failures.append(what)
    print("FAIL " + what, flush=True)


def section_lines():
    lines = open(DOC, encoding="utf-8").read().split("\n")
    if SECTION not in lines:
        sys.exit(f"FAIL docs/developer.md has no section '{SECTION}'")
    start = lines.index(SECTION) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def walkthrough(lines):
    """({path: text} of the section's code blocks, [prose lines]): a block belongs to the first
    `plugins/<folder>/<file>` span of the paragraph just above its opening fence."""
    files, prose, paragraph, block, path = {}, [], [], None, None
    after_text = False  # the line before was text: a line of text extends its paragraph
    for line in lines:
        if block is not None:
            if line.lstrip().startswith("```"):
                if path:
                    if path in files:
                        fail(f"docs/developer.md shows {path} twice")
                    files[path] = "\n".join(block) + "\n"
                block = None
            else:
                block.append(line)
            continue
        if line.lstrip().startswith("```"):
            spans = FILE_SPAN.findall(" ".join(paragraph))
            path, block = (spans[0] if spans else None), []
            continue
        prose.append(line)
        if line.strip():
            paragraph = paragraph + [line] if after_text else [line]
        after_text = bool(line.strip())
    return files, prose


def commands(prose):
    """The section's inline `build/bin/milab-cli ...` commands (a span may wrap across lines)."""
    text = "\n".join(prose)
    spans = (" ".join(s.split()) for s in re.findall(r"`([^`]+)`", text))
    return [s for s in spans if s.startswith("build/bin/milab-cli ")]


def cache_values(build):
    values = {}
    for line in open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8"):
        m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
        if m:
            values[m.group(1)] = m.group(2)
    return values


# What stands in for the project's top-level CMakeLists.txt: the same packages, the project's cmake/ helpers, and
# milab_core imported from the build tree (its public include folder, flags and libraries, as core/CMakeLists.txt
# declares them) rather than built again.
HARNESS = """cmake_minimum_required(VERSION 3.24)
project(milab_toy_method LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(MILAB_PLUGIN_DIR ${CMAKE_BINARY_DIR}/plugins)
set(MILAB_INSTALL_LIB_DIR lib/milab)
set(MILAB_INSTALL_PLUGIN_DIR lib/milab/plugins)
set(MILAB_PRECOMPILED_HEADERS OFF)  # one file to compile: building ATen's precompiled header would cost more
if(MILAB_SANITIZE)  # instrumented as the build tree is (the top-level CMakeLists.txt)
  add_compile_options(-fsanitize=${MILAB_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${MILAB_SANITIZE})
endif()
find_package(Qt6 REQUIRED COMPONENTS Core Sql)
find_package(Torch REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
include(cmake/build_speed.cmake)
include(cmake/plain_moc.cmake)
add_library(milab_core SHARED IMPORTED)
set_target_properties(milab_core PROPERTIES
  IMPORTED_LOCATION ${MILAB_BUILD_DIR}/lib/libmilab_core.so
  INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/core
  INTERFACE_COMPILE_OPTIONS "${TORCH_CXX_FLAGS}"
  INTERFACE_LINK_LIBRARIES "Qt6::Core;Qt6::Sql;${TORCH_LIBRARIES};Eigen3::Eigen")
add_subdirectory(plugins)
"""


def run(args, cwd, env, timeout):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def write_tree(root, files):
    src = os.path.join(root, "src")
    os.makedirs(os.path.join(src, "plugins", "tasks"))
    for name in ("core", "cmake"):
        os.symlink(os.path.join(SOURCE, name), os.path.join(src, name))
    shutil.copy(os.path.join(SOURCE, "plugins", "CMakeLists.txt"), os.path.join(src, "plugins", "CMakeLists.txt"))
    # The task families stay the build tree's: plugins/CMakeLists.txt adds tasks/, which here has nothing to build.
    open(os.path.join(src, "plugins", "tasks", "CMakeLists.txt"), "w").close()
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write(HARNESS)
    for path, text in files.items():
        target = os.path.join(src, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    return src


def build(src, root):
    cache = cache_values(BUILD)
    out = os.path.join(root, "build")
    args = [cache.get("CMAKE_COMMAND", "cmake"), "-S", src, "-B", out, f"-DMILAB_BUILD_DIR={BUILD}"]
    if cache.get("CMAKE_GENERATOR"):
        args += ["-G", cache["CMAKE_GENERATOR"]]
    for key in ("CMAKE_CXX_COMPILER", "CMAKE_BUILD_TYPE", "CMAKE_PREFIX_PATH", "CMAKE_MAKE_PROGRAM", "Torch_DIR",
                "Qt6_DIR", "Eigen3_DIR", "MILAB_SANITIZE"):
        if cache.get(key):
            args.append(f"-D{key}={cache[key]}")
    for step in (args, [cache.get("CMAKE_COMMAND", "cmake"), "--build", out]):
        done = run(step, root, os.environ, 900)
        if done.returncode != 0:
            fail(f"`{' '.join(step[:2])} ...` of the walkthrough's folder failed:\n{done.stdout[-4000:]}"
                 f"{done.stderr[-4000:]}")
            return None
    return os.path.join(out, "plugins")


def method_ids(cli, env, cwd):
    done = run([cli, "methods"], cwd, env, 120)
    return done, {line.split("\t")[0] for line in done.stdout.splitlines() if line.strip()}


def check_command(command, toy_id, cli, env, cwd):
    args = shlex.split(command)[1:]
    done = run([cli] + args, cwd, env, 300)
    if done.returncode != 0:
        fail(f"`{command}` exited {done.returncode}: {(done.stderr or done.stdout).strip()[-600:]}")
        return
    if args[0] == "methods" and toy_id not in {l.split()[0] for l in done.stdout.splitlines() if l.strip()}:
        fail(f"`{command}` does not list {toy_id}")
    if args[0] == "run" and "--out" in args:
        summary_path = os.path.join(cwd, args[args.index("--out") + 1], "summary.json")
        if not os.path.isfile(summary_path):
            fail(f"`{command}` wrote no summary.json")
            return
        summary = json.load(open(summary_path, encoding="utf-8"))
        if summary.get("method") != toy_id or summary.get("status") != "finished":
            fail(f"`{command}`: method {summary.get('method')!r}, status {summary.get('status')!r}")
        oracle = "--critic" in args and args[args.index("--critic") + 1] == "oracle"
        if oracle and not abs(summary["estimate"] - summary["true_mi"]) <= ORACLE_TOLERANCE:
            fail(f"`{command}`: the oracle critic reads {summary['estimate']:.4f}, the truth is "
                 f"{summary['true_mi']:.4f} (tolerance {ORACLE_TOLERANCE})")
    print(f"ok   {command}", flush=True)


def main():
    started = time.monotonic()
    files, prose = walkthrough(section_lines())
    folders = {p.split("/")[1] for p in files}
    names = {p.split("/")[2] for p in files}
    if len(folders) != 1 or "CMakeLists.txt" not in names or not any(n.endswith(".json") for n in names):
        sys.exit(f"FAIL the section shows no one method folder with a CMakeLists.txt and a .json: {sorted(files)}")
    folder = folders.pop()
    json_text = next(t for p, t in files.items() if p.endswith(".json"))
    toy_id = json.loads(json_text)["id"]
    shown = commands(prose)
    if not any(shlex.split(c)[1] == "methods" for c in shown) or not any(
            shlex.split(c)[1] == "run" and toy_id in shlex.split(c) for c in shown):
        fail(f"the section shows no `build/bin/milab-cli methods` and no run of {toy_id}: {shown}")
    print(f"the walkthrough's folder plugins/{folder}/ ({', '.join(sorted(names))}), method {toy_id}", flush=True)

    root = tempfile.mkdtemp(prefix="milab-toy-method-")
    try:
        src = write_tree(root, files)
        plugin_dir = build(src, root)
        built = time.monotonic() - started
        if plugin_dir is None:
            return
        if not any(n.endswith(".so") for n in os.listdir(plugin_dir)):
            fail(f"the build wrote no plugin into {plugin_dir} (MILAB_PLUGIN_DIR)")
            return
        print(f"built in {built:.1f} s: {sorted(os.listdir(plugin_dir))}", flush=True)

        cli = os.path.join(BUILD, "bin", "milab-cli")
        work = os.path.join(root, "work")
        os.makedirs(work)
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8",
                   MILAB_DB=os.path.join(root, "history.sqlite"))  # the toy's runs stay out of any real history
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            env.setdefault(name, os.path.join(root, name.lower()))
        env["MILAB_PLUGIN_PATH"] = os.path.join(BUILD, "plugins")
        done, ids = method_ids(cli, env, work)
        if done.returncode != 0 or toy_id in ids:
            fail(f"the build's own plugins already list {toy_id}, or `methods` failed: {done.stderr.strip()}")
        env["MILAB_PLUGIN_PATH"] += ":" + plugin_dir
        done, with_toy = method_ids(cli, env, work)
        if toy_id not in with_toy or not ids <= with_toy:
            fail(f"with {plugin_dir} on MILAB_PLUGIN_PATH `methods` lists {'' if toy_id in with_toy else 'no '}"
                 f"{toy_id} and {len(ids - with_toy)} fewer of the build's methods: {done.stderr.strip()}")
        for command in shown:
            check_command(command, toy_id, cli, env, work)
    finally:
        if KEEP:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
        print(f"{time.monotonic() - started:.1f} s in all", flush=True)


if __name__ == "__main__":
    main()
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)
