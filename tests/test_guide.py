"""Every example in docs/guide.md runs, in order, in a fresh folder, and prints what the guide says.

The guide's fenced blocks are of four kinds:
- a block whose info string names a file (```prolog my_tangram.pl) is written to that file;
- ```console blocks: each `$ pysolve ...` line runs the CLI in this process, `$ pytest ...` runs
  pytest (pytester), and the lines after it are the expected output (stdout and stderr merged;
  `...` matches anything; `; echo $?` prints the exit code);
- ```pycon blocks are doctests, sharing one namespace from the first block to the last;
- ```sh blocks are set-up steps (clone, make), allowed only in the Install section;
- a ```toml block without a file name is a snippet to read (a pyproject.toml entry).
Pictures the guide embeds or links (`](guide-*)`) must be what its examples draw.
The guide shows Prolog answers, so it runs when the prolog back end is chosen.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from pysolve import backends, cli

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.md"
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
PICTURE = re.compile(r"\]\((?P<name>guide-[^)\s]+)\)")  # embedded or linked
UPDATE = "PYSOLVE_UPDATE_GUIDE"  # set to 1 to copy the pictures the examples draw into docs/
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass
class Block:
    """One fenced block of the guide: its info string words, text, line and section."""

    words: list[str]
    body: str
    line: int
    section: str


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a markdown text, in order."""
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()]
        headings = re.findall(r"^## (.+)$", before, re.M)
        found.append(Block(match["info"].split(), match["body"], before.count("\n") + 1,
                           headings[-1] if headings else ""))
    return found


def commands(body: str) -> list[tuple[str, str]]:
    """The `$ command` lines of a console block, each with the output lines that follow it."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        else:
            raise AssertionError(f"console block starts with output, not a command: {line!r}")
    return [(command, "\n".join(lines) + "\n" if lines else "") for command, lines in pairs]


def run_command(command: str, pytester: pytest.Pytester) -> str:
    """Run one guide command and return what a terminal would show."""
    echo = command.endswith("; echo $?")
    words = shlex.split(command.removesuffix("; echo $?"))
    out = io.StringIO()
    if words[0] == "pysolve":
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = cli.main(words[1:])
        shown = out.getvalue()
    elif words[0] == "pytest":
        result = pytester.runpytest_inprocess(*words[1:])
        code, shown = int(result.ret), "\n".join(result.outlines) + "\n"
    else:
        raise AssertionError(f"the guide runs only pysolve and pytest commands, not {command!r}")
    if echo:
        return shown + f"{code}\n"
    assert code == 0, f"{command!r} exited {code}:\n{shown}"
    return shown


def check_output(command: str, expected: str, got: str) -> None:
    """Compare like doctest does (ELLIPSIS, NORMALIZE_WHITESPACE); fail with both texts."""
    checker = doctest.OutputChecker()
    if not checker.check_output(expected, got, FLAGS):
        raise AssertionError(f"$ {command}\n--- the guide says:\n{expected}--- it printed:\n{got}")


def run_doctest(block: Block, globs: dict, name: str) -> None:
    """Run a pycon block as a doctest in the shared namespace; fail with doctest's report."""
    test = doctest.DocTestParser().get_doctest(block.body, globs, name, str(GUIDE), block.line)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = io.StringIO()
    runner.run(test, out=report.write, clear_globs=False)
    globs.update(test.globs)  # DocTest works on a copy
    assert not runner.failures, report.getvalue()


@pytest.fixture()
def guide_folder(pytester: pytest.Pytester) -> pytest.Pytester:
    """A fresh folder laid out like a clone for the examples: `data/` is the shipped data."""
    backends.all_info()  # start the engines out here: pytester's in-process runs drop modules they import
    (pytester.path / "data").symlink_to(ROOT / "data")
    pytester.syspathinsert()
    return pytester


@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog")
def test_every_example_in_the_guide_runs_and_prints_what_it_says(pysolve_backend: str,
                                                                  guide_folder: pytest.Pytester) -> None:
    globs: dict = {"__name__": "guide"}
    for number, block in enumerate(blocks(GUIDE.read_text(encoding="utf-8"))):
        kind = block.words[0] if block.words else ""
        where = f"docs/guide.md line {block.line}"
        if len(block.words) == 2:
            target = guide_folder.path / block.words[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif kind == "console":
            for command, expected in commands(block.body):
                check_output(command, expected, run_command(command, guide_folder))
        elif kind == "pycon":
            run_doctest(block, globs, f"guide block {number} ({where})")
        else:
            assert (kind == "sh" and block.section == "Install") or kind == "toml", \
                f"{where}: a block the test cannot run ({kind!r})"
    check_pictures(GUIDE.read_text(encoding="utf-8"), guide_folder.path)


def check_pictures(text: str, folder: Path) -> None:
    """Each embedded guide picture is what the examples drew (copied into docs/ when updating)."""
    names = PICTURE.findall(text)
    assert names, "the guide embeds no pictures"
    for name in names:
        drawn, shipped = folder / name, GUIDE.parent / name
        assert drawn.is_file(), f"no example draws {name}"
        if os.environ.get(UPDATE):
            shutil.copyfile(drawn, shipped)
        assert shipped.read_bytes() == drawn.read_bytes(), f"docs/{name} is stale: run with {UPDATE}=1"


def test_the_readme_links_the_guide() -> None:
    assert "docs/guide.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_runner_reads_blocks_and_commands() -> None:
    text = ("## Install\n\n```sh\nmake test\n```\n\n"
            "## Use\n\n```console\n$ pysolve backends\nprolog ...\n$ pysolve x\n```\n")
    found = blocks(text)
    assert [(b.words, b.section, b.line) for b in found] == [(["sh"], "Install", 3), (["console"], "Use", 9)]
    assert commands(found[1].body) == [("pysolve backends", "prolog ...\n"), ("pysolve x", "")]
    with pytest.raises(AssertionError, match="not a command"):
        commands("output first\n$ pysolve backends\n")
