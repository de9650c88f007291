#!/usr/bin/env python3
"""The docs read as references (issue 84): measurements live in dated "Measured" blocks, the prose around them is
free of dates, first person and rerun histories.

A Measured block is delimited by two HTML comments that Markdown does not show:

    <!-- measured -->
    **Measured** 2026-12-02 on <the machine>, <the build it ran on>:

        build/bin/milab-cli run ...        (its command, indented or fenced)

    ...its table or its figures...
    <!-- /measured -->

Outside the blocks a line may not carry an ISO date, the first person (I, my, we, our; "I(x;y)" is MI, not
a pronoun) or a rerun history ("measured again", "session 12", ...). Inside one, the block must open with its
dated **Measured** line naming the build, and show at least one command. Code lines are not prose and are skipped.
The generated references (docs/method-reference.md, docs/task-reference.md) are the plugins' own text.

usage: docs_style.py SOURCE_DIR
"""
import os
import re
import sys

GENERATED = {"method-reference.md", "task-reference.md"}
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
# "I" as a pronoun is followed by a lower-case word ("I kept"); I(x;y), I_NCE, "I = 18.41" and "I modulo N" are MI
# and indices. "us" is left out (microseconds); "my MI" is the reader's question, quoted.
FIRST_PERSON = re.compile(r"(?<![\w/])(I (?!modulo)(?=[a-z])|I'[a-z]+\b|[Mm]y\b(?! MI)|[Ww]e\b|[Oo]ur\b)")
HISTORY = re.compile(r"measured again|re-?measured|\bre-?ran\b|\bsession \d+|\bthis session\b|\bat the time\b",
                     re.IGNORECASE)
OPEN, CLOSE = "<!-- measured -->", "<!-- /measured -->"
MEASURED_LINE = re.compile(r"^\*\*Measured\*\* 20\d\d-\d\d-\d\d\b.*\bbuil[dt]\b")


def documents(source):
    yield os.path.join(source, "README.md")
    docs = os.path.join(source, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md") and name not in GENERATED:
            yield os.path.join(docs, name)


def prose_lines(lines):
    """(number, text, in_block) for every line that is not code; code fences and indented code are skipped."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    ") or line.startswith("\t"):
            continue
        yield number, line


def check(path, failures):
    lines = open(path, encoding="utf-8").read().split("\n")
    name = os.path.relpath(path, SOURCE)
    block_start, block_lines = None, []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped == OPEN:
            if block_start is not None:
                failures.append(f"{name}:{number}: a Measured block opens inside the one of line {block_start}")
            block_start, block_lines = number, []
            continue
        if stripped == CLOSE:
            if block_start is None:
                failures.append(f"{name}:{number}: {CLOSE} closes no block")
            else:
                check_block(name, block_start, block_lines, failures)
            block_start = None
            continue
        if block_start is not None:
            block_lines.append(line)
    if block_start is not None:
        failures.append(f"{name}:{block_start}: a Measured block is not closed ({CLOSE})")
    inside = False
    for number, line in prose_lines(lines):
        stripped = line.strip()
        if stripped in (OPEN, CLOSE):
            inside = stripped == OPEN
            continue
        if inside:
            continue
        for pattern, what in ((DATE, "a date"), (FIRST_PERSON, "the first person"), (HISTORY, "a rerun history")):
            found = pattern.search(line)
            if found:
                failures.append(f"{name}:{number}: {what} outside a Measured block ({found.group(0)!r}): {stripped[:80]}")


def check_block(name, start, lines, failures):
    text = [line for line in lines if line.strip()]
    if not text or not MEASURED_LINE.match(text[0].strip()):
        failures.append(f"{name}:{start}: a Measured block opens with '**Measured** YYYY-MM-DD ... build ...'")
    in_fence, has_command = False, False
    for line in lines:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if (in_fence or line.startswith("    ")) and line.strip():
            has_command = True
    if not has_command:
        failures.append(f"{name}:{start}: a Measured block shows the command that measured it (an indented line)")


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    failures = []
    for path in documents(SOURCE):
        check(path, failures)
    for failure in failures:
        print(failure)
    print(f"{len(failures)} style failures")
    sys.exit(1 if failures else 0)
