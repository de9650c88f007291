#!/usr/bin/env python3
"""milab installs like a desktop program (issue 47): `cmake --install` into a scratch prefix, then the programs run
from there with no build folder and no environment variable: the runner's run, the window off screen, the man page,
the desktop entry and icon; and an install without its plugins folder, or with a file there that is not a plugin,
is refused in one line naming the folder or the file (exit 2), never a crash. No ELF file of the build or the install
has an empty or relative entry in its library search path (issue 80).

usage: install_check.py BUILD_DIR [PYTHON]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD = sys.argv[1]
PYTHON = sys.argv[2] if len(sys.argv) > 2 else sys.executable  # the interpreter the module was built for
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def run(args, env, timeout=600):
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)


def linked_elf_files(root):
    """Every executable and shared library under `root` (ELF types EXEC and DYN; object files are REL)."""
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                head = f.read(18)
            if head[:4] == b"\x7fELF" and int.from_bytes(head[16:18], "little") in (2, 3):
                yield path


def search_path_problems(root):
    """Each ELF file whose RUNPATH or RPATH has an entry that is empty or relative: the dynamic linker resolves those
    against the current folder, whatever folder the program is started from (issue 80)."""
    problems, count = [], 0
    for path in linked_elf_files(root):
        count += 1
        dynamic = run(["readelf", "-d", path], os.environ).stdout
        for kind, value in re.findall(r"\((RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", dynamic):
            bad = [e for e in value.split(":") if not (e.startswith("/") or e.startswith("$ORIGIN"))]
            if bad:
                problems.append(f"{os.path.relpath(path, root)} {kind} [{value}]")
    return problems, count


problems, count = search_path_problems(BUILD)
expect(count > 50 and not problems,
       f"no empty or relative search path entry in the build's {count} ELF files: {problems[:3]}")

with tempfile.TemporaryDirectory() as scratch:
    prefix = os.path.join(scratch, "prefix")
    r = run(["cmake", "--install", BUILD, "--prefix", prefix], os.environ)
    expect(r.returncode == 0, f"cmake --install exits {r.returncode}: {r.stderr[-500:]}")
    problems, count = search_path_problems(prefix)
    expect(count > 20 and not problems,
           f"no empty or relative search path entry in the install's {count} ELF files: {problems[:3]}")
    # Nothing from the build: no plugin path, a history of the scratch folder's own, another working directory.
    env = {k: v for k, v in os.environ.items() if not k.startswith("MILAB_")}
    env.update(QT_QPA_PLATFORM="offscreen", MILAB_DB=os.path.join(scratch, "history.sqlite"),
               MILAB_CACHE=os.path.join(scratch, "cache"), XDG_CONFIG_HOME=os.path.join(scratch, "config"))
    cli, window = os.path.join(prefix, "bin", "milab-cli"), os.path.join(prefix, "bin", "milab")

    out = os.path.join(scratch, "run")
    r = run([cli, "run", "--task", "gaussian2", "--method", "infonce", "--steps", "20", "--out", out], env)
    expect(r.returncode == 0 and os.path.isfile(os.path.join(out, "summary.json")),
           f"the installed milab-cli run exits {r.returncode}: {r.stderr.strip()[-300:]}")
    r = run([cli, "methods"], env)
    expect(r.returncode == 0 and "demi" in r.stdout and "infonce" in r.stdout,
           f"the installed milab-cli lists its methods: exit {r.returncode}")
    r = run([cli, "tasks"], env)
    expect(r.returncode == 0 and "gaussian3" in r.stdout and "student-identity" in r.stdout,
           f"the installed milab-cli lists its tasks: exit {r.returncode}")

    # The window, off screen, runs a short experiment and saves itself when the run ends.
    experiment = os.path.join(scratch, "short.json")
    with open(experiment, "w") as f:
        f.write('{"task": "gaussian2", "dim": 5, "mi": 2, "method": "infonce", "K": 32, "steps": 30, "seed": 1}')
    shot = os.path.join(scratch, "window.png")
    r = run([window, experiment, "--run", "--screenshot", shot], env)
    expect(r.returncode == 0 and os.path.isfile(shot) and os.path.getsize(shot) > 10000,
           f"the installed window runs and saves its picture: exit {r.returncode}: {r.stderr.strip()[-300:]}")

    # The Python module (issue 78), when the build made it: the install copied elsewhere imports and reads, loading the
    # lab's library from the copy (its RUNPATH is relative), with nothing of the build on its paths.
    if os.path.isdir(os.path.join(BUILD, "python", "milab")):
        moved = os.path.join(scratch, "moved")
        shutil.copytree(prefix, moved, symlinks=True)
        site = os.path.join(moved, "lib", "python3", "dist-packages")
        code = ("import milab; x, y = milab.sample('gaussian2', 300, seed=1); r = milab.estimate(x, y, 'ksg'); "
                "core = [l.split()[-1] for l in open('/proc/self/maps') if 'libmilab_core' in l][0]; "
                "print(r.status, milab.__file__, core)")
        r = run([PYTHON, "-c", code], dict(env, PYTHONPATH=site))
        words = r.stdout.split()
        expect(r.returncode == 0 and len(words) == 3 and words[0] == "finished" and
               all(w.startswith(moved) for w in words[1:]),
               f"the installed module, moved, imports and reads from its own folder: exit {r.returncode}, "
               f"{r.stdout.strip()} {r.stderr.strip()[-300:]}")
        shutil.rmtree(moved)

    # No usable display: one line and exit 2, not Qt's abort (issue 80), whatever the command (--version included).
    for name, changes in (("a platform this Qt lacks", {"QT_QPA_PLATFORM": "bogus"}),
                          ("no display at all", {}), ("a display that refuses", {"DISPLAY": ":97"})):
        bare = {k: v for k, v in env.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
        r = run([window, "--version"], dict(bare, **changes))
        lines = r.stderr.strip().splitlines()
        expect(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("milab: no display (") and
               lines[0].endswith("set DISPLAY, or QT_QPA_PLATFORM=offscreen with --screenshot"),
               f"the window with {name} says so in one line, exit 2: exit {r.returncode}, stderr {r.stderr!r}")

    share = os.path.join(prefix, "share")
    man = os.path.join(share, "man", "man1", "milab-cli.1")
    expect(os.path.isfile(man) and "milab\\-cli run" in open(man, encoding="utf-8", errors="replace").read(),
           "the man page milab-cli.1 is installed, written from the runner's help")
    # Its SYNOPSIS (resources/man/milab-cli.h2m; help2man writes none) names every command the help has a usage for.
    page = open(man, encoding="utf-8", errors="replace").read() if os.path.isfile(man) else ""
    synopsis = page.split(".SH SYNOPSIS", 1)[1].split(".SH", 1)[0] if ".SH SYNOPSIS" in page else ""
    commands = [line.split()[2] for line in run([cli, "--help"], env).stdout.splitlines() if line.startswith("usage:")]
    missing = [c for c in commands if f".B {c}\n" not in synopsis.replace("\\-", "-") + "\n"]
    expect(synopsis and commands and not missing,
           f"the man page's SYNOPSIS names every command of the help (missing: {', '.join(missing) or 'the section'})")
    desktop = os.path.join(share, "applications", "milab.desktop")
    expect(os.path.isfile(desktop), "the desktop entry is installed")
    expect(os.path.isfile(os.path.join(share, "icons", "hicolor", "scalable", "apps", "milab.svg")),
           "the icon is installed in the hicolor theme")
    if shutil.which("desktop-file-validate"):
        r = run(["desktop-file-validate", desktop], env)
        expect(r.returncode == 0, f"desktop-file-validate: {r.stdout}{r.stderr}")
    expect(os.path.isfile(os.path.join(share, "milab", "experiments", "default.json")), "the presets are installed")
    for page in ("getting-started.md", "concepts.md", "pictures/first-run.png"):  # the Help menu's pages
        expect(os.path.isfile(os.path.join(share, "doc", "milab", page)), f"share/doc/milab/{page} is installed")

    # A file in the plugins folder that is not a plugin: one line naming it, exit 2.
    plugins = os.path.join(prefix, "lib", "milab", "plugins")
    broken = os.path.join(plugins, "libmilab_broken.so")
    shutil.copy(os.path.join(prefix, "lib", "milab", "libmilab_core.so"), broken)
    r = run([cli, "run", "--task", "gaussian2", "--method", "infonce", "--steps", "5", "--out", out + "2"], env)
    lines = r.stderr.strip().splitlines()
    expect(r.returncode == 2 and len(lines) == 1 and "libmilab_broken.so" in lines[0],
           f"a broken plugin is one line naming it, exit 2: exit {r.returncode}, stderr {r.stderr!r}")
    expect(not os.path.exists(out + "2"), "nothing is written when a plugin is broken")
    os.remove(broken)
    # An empty file: Qt's own loader warns about it too ("failed to map to memory"); still one line, the lab's.
    open(broken, "w").close()
    r = run([cli, "methods"], env)
    lines = r.stderr.strip().splitlines()
    expect(r.returncode == 2 and len(lines) == 1 and "libmilab_broken.so" in lines[0] and ".;" not in lines[0],
           f"an empty plugin file is one line naming it, exit 2: exit {r.returncode}, stderr {r.stderr!r}")
    os.remove(broken)

    # A scripted window (--screenshot) never waits for a click: an experiment it cannot read is pictured, exit 2.
    shot = os.path.join(scratch, "unreadable.png")
    r = run([window, os.path.join(scratch, "no-such.json"), "--run", "--screenshot", shot], env)
    expect(r.returncode == 2 and "no-such.json" in r.stderr and os.path.exists(shot),
           f"the window pictures an unreadable experiment and exits 2: exit {r.returncode}: {r.stderr!r}")

    # No plugins folder at all: one line naming where it looked, exit 2.
    os.rename(plugins, plugins + ".moved")
    r = run([cli, "methods"], env)
    lines = r.stderr.strip().splitlines()
    expect(r.returncode == 2 and len(lines) == 1 and "lib/milab/plugins" in lines[0],
           f"a missing plugins folder is one line naming it, exit 2: exit {r.returncode}, stderr {r.stderr!r}")
    # The window: the same line, and its dialog saved as the picture instead of waiting for a click.
    shot = os.path.join(scratch, "no-plugins.png")
    r = run([window, "--run", "--screenshot", shot], env)
    expect(r.returncode == 2 and "lib/milab/plugins" in r.stderr and os.path.exists(shot),
           f"the window without plugins says so, pictures its dialog and exits 2: exit {r.returncode}: {r.stderr!r}")

# The Debian package: CPack's DEB of the same install, whose dependencies are real packages of this machine.
with tempfile.TemporaryDirectory() as scratch:
    r = run(["cpack", "-G", "DEB", "-B", scratch, "--config", os.path.join(BUILD, "CPackConfig.cmake")], os.environ)
    debs = [f for f in os.listdir(scratch) if f.endswith(".deb")]
    expect(r.returncode == 0 and len(debs) == 1,
           f"cpack -G DEB makes one package: exit {r.returncode} {r.stderr[-300:]}")
    if debs:
        deb = os.path.join(scratch, debs[0])
        listing = run(["dpkg-deb", "-c", deb], os.environ).stdout
        paths = ["./usr/bin/milab-cli", "./usr/bin/milab", "./usr/lib/milab/plugins/libmilab_demi.so",
                 "./usr/lib/milab/plugins/tasks/", "./usr/share/applications/milab.desktop"]
        if os.path.isdir(os.path.join(BUILD, "python", "milab")):  # Debian's site folder for /usr
            paths.append("./usr/lib/python3/dist-packages/milab/__init__.py")
        for path in paths:
            expect(path in listing, f"the package holds {path}")
        depends = run(["dpkg-deb", "-f", deb, "Depends"], os.environ).stdout
        for package in [p.strip() for p in depends.split(",") if p.strip()]:
            r = run(["dpkg-query", "-W", "-f=${Status}", package], os.environ)
            expect("install ok installed" in r.stdout, f"the package depends on '{package}', not installed here")

print(f"install_check: {len(failures)} failures")
sys.exit(1 if failures else 0)
