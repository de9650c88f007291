"""How .ci/mutate builds a mutant beside the build instead of in it, so that two mutants compile at once.

A mutant of a .cpp that ends up only in shared libraries (core, a plugin, a family: almost all of them) is built
with the build's own commands, read from ninja (`ninja -t commands -s`), redirected:
- compile: the mutated file is written to a private folder and the object that compiles it (the file itself, or
  the unity batch that includes it, rewritten to include the copy) is compiled there, with the original folder
  searched first for its quoted includes (-iquote), so it sees exactly the headers the original does. The source
  tree and the build's objects are never written, so any number of mutants compile at once (each compile is one
  busy core; on 2 cores the compiles were 86% of the whole check, issue 51).
- link: the library's own link command with the mutated object in place of the original, written over the
  library; the library is saved first and put back (its file, time stamp included, so ninja sees nothing to do)
  once the suites have run.
Anything else (a header, a file of a static library or a program) is built the old way, in place, by ninja.
"""
import os
import shlex
import shutil
import subprocess
import time


def run(cmd, cwd, timeout=None, env=None):
    """(exit code, stdout and stderr together); 124 on a timeout. .ci/mutate runs its builds with it too."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return 124, "timeout"


def _output(cmd, cwd):
    return run(cmd, cwd)[1]


def _depfile_paths(path):
    """The prerequisites of a make-style depfile (GCC's -MD): `object: source header \\` lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    return set(text.partition(": ")[2].split())


class MutantBuilds:
    def __init__(self, build, root, scratch):
        self.build, self.root, self.scratch = build, root, scratch
        self.objects = {}  # object (relative to the build) -> the sources and headers it compiled
        current = None
        for line in _output(["ninja", "-C", build, "-t", "deps"], root).splitlines():
            if line and not line.startswith(" "):
                current = line.split(":")[0]
                self.objects[current] = set()
            elif current and line.strip():
                self.objects[current].add(line.strip())
        # The hand-tuned loops g++ compiles in a Clang build (cmake/gcc_kernels.cmake): custom commands, which leave
        # nothing in ninja's dependency log, only their own make-style depfile beside the object.
        for folder, _, files in os.walk(build):
            if os.path.basename(folder) == "gcc":
                for name in files:
                    if name.endswith(".o.d"):
                        obj = os.path.relpath(os.path.join(folder, name[:-2]), build)
                        self.objects[obj] = _depfile_paths(os.path.join(folder, name))
        self.queried = {}

    def outputs_of(self, node):
        if node not in self.queried:
            out = _output(["ninja", "-C", self.build, "-t", "query", node], self.root)
            self.queried[node] = [l.strip() for l in out.partition("outputs:")[2].splitlines() if l.strip()]
        return self.queried[node]

    def command(self, target):
        return _output(["ninja", "-C", self.build, "-t", "commands", "-s", target], self.root).strip()

    def compile_command(self, obj):
        """(folder to run in, words) of the compile that makes obj: the build's own line, or for a custom command
        (`cd FOLDER && g++ ... && cmake -E cmake_transform_depfile ...`) its compile alone."""
        line, cwd = self.command(obj), self.build
        for part in line.split(" && "):
            words = shlex.split(part)
            if words[:1] == ["cd"]:
                cwd = words[1]
            elif "-c" in words:
                return cwd, words
        raise ValueError(f"no compile in the command of {obj}")

    def plan(self, path):
        """{object: its libraries} when every object that compiles `path` goes only into shared libraries
        (then the mutant can be built beside the build), else None."""
        full = os.path.join(self.root, path)
        if not path.endswith(".cpp"):
            return None
        plan = {o: self.outputs_of(o) for o, sources in self.objects.items() if full in sources}
        if not plan or any(not libs or not all(l.endswith(".so") for l in libs) for libs in plan.values()):
            return None
        return plan

    def compile(self, ident, path, mutated_text, plan):
        """Compile the mutant's objects in scratch/ident. Returns (objects {original: mutated}, seconds, error)."""
        started, full = time.time(), os.path.join(self.root, path)
        folder = os.path.join(self.scratch, ident)
        os.makedirs(folder, exist_ok=True)
        copy = os.path.join(folder, os.path.basename(path))
        with open(copy, "w", encoding="utf-8") as f:
            f.write(mutated_text)
        compiled = {}
        for number, obj in enumerate(sorted(plan)):
            cwd, words = self.compile_command(obj)
            at = words.index("-c")
            source = words[at + 1]
            if os.path.abspath(os.path.join(cwd, source)) != full:  # a unity batch including the file
                with open(os.path.join(cwd, source), encoding="utf-8") as f:
                    batch = f.read()
                include = f'#include "{full}"'
                if batch.count(include) != 1:
                    return {}, time.time() - started, f"{obj} does not include {full} once"
                source = os.path.join(folder, f"batch{number}.cxx")
                with open(source, "w", encoding="utf-8") as f:
                    f.write(batch.replace(include, f'#include "{copy}"'))
            else:
                source = copy
            target = os.path.join(folder, f"object{number}.o")
            words[words.index("-o") + 1] = target
            words[at + 1] = source
            words[words.index("-MF") + 1] = target + ".d"
            # before the input, not after words[0]: that may be a launcher (ccache)
            words[at:at] = ["-iquote", os.path.dirname(full)]
            code, out = run(words, cwd)
            if code != 0:
                return {}, time.time() - started, out[-300:]
            compiled[obj] = target
        return compiled, time.time() - started, ""

    def link(self, compiled, saved):
        """Relink every library of the compiled objects with them, saving each library first into `saved`
        (library -> its copy) so that restore() puts it back. Returns (seconds, error)."""
        started = time.time()
        libraries = sorted({lib for obj in compiled for lib in self.outputs_of(obj)})
        for lib in libraries:
            real = os.path.join(self.build, lib)
            saved[real] = os.path.join(self.scratch, "saved-" + os.path.basename(lib))
            shutil.copy2(real, saved[real])
            words = [compiled.get(w, w) for w in self.command(lib).split(" ")]
            code, out = run(["sh", "-c", " ".join(words)], self.build)  # ninja's command is a shell line
            if code != 0:
                return time.time() - started, out[-300:]
        return time.time() - started, ""

    @staticmethod
    def restore(saved):
        """Put back the libraries link() replaced (a rename: the running suites have ended)."""
        for real, copy in saved.items():
            os.replace(copy, real)
        saved.clear()

    def discard(self, ident):
        shutil.rmtree(os.path.join(self.scratch, ident), ignore_errors=True)
