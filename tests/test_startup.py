"""What `pysolve --help`, `pysolve list` and `pysolve backends` load: the registry's puzzles (their options
declare the commands) and the modules that print, never a back end's engine, the cross-check, the web stack or
importlib.metadata (issue 35: start-up that costs nothing). The facts kept on disk (pysolve.cache) are found
by a first run, so each command is run twice and the second is held."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import contextlib, io, sys
from pysolve.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(sorted(sys.modules))
"""

HELP_MODULES = {  # every module of pysolve that `pysolve --help` imports: one more is an eager import to explain
    "pysolve", "pysolve.answers", "pysolve.backends", "pysolve.board_puzzle", "pysolve.boards", "pysolve.budget",
    "pysolve.cache", "pysolve.catalogue", "pysolve.cli", "pysolve.dispatch", "pysolve.errors", "pysolve.files",
    "pysolve.memory", "pysolve.options", "pysolve.paths", "pysolve.puzzle", "pysolve.puzzles", "pysolve.rules",
    "pysolve.search", "pysolve.trace", "pysolve.words",
    "pysolve.azul", "pysolve.azul.model", "pysolve.azul.names", "pysolve.azul.puzzle",
    "pysolve.fichas", "pysolve.fichas.model", "pysolve.fichas.puzzle",
    "pysolve.hidato", "pysolve.hidato.draw", "pysolve.hidato.generate", "pysolve.hidato.model",
    "pysolve.hidato.puzzle", "pysolve.hidato.python",  # its strategies and the generator's limits are options
    "pysolve.squares", "pysolve.squares.model", "pysolve.squares.puzzle",
    "pysolve.sudoku", "pysolve.sudoku.draw", "pysolve.sudoku.generate", "pysolve.sudoku.model",
    "pysolve.sudoku.puzzle", "pysolve.sudoku.python",  # its strategies are options
    "pysolve.tangram", "pysolve.tangram.found", "pysolve.tangram.pieces", "pysolve.tangram.puzzle",
    "pysolve.tangram.question", "pysolve.tangram.reader", "pysolve.tangram.rules",
}
NEVER = ("importlib.metadata", "email", "pyswip", "kanren", "unification", "numpy", "textual", "starlette",
         "uvicorn", "dask", "pysolve.bridge", "pysolve.minikanren", "pysolve.fd", "pysolve.sandbox",
         "pysolve.crosscheck", "pysolve.report", "pysolve.web", "pysolve.azul.strategies",
         "pysolve.azul.offer", "pysolve.azul.packed", "pysolve.azul.search")


def loaded(*argv: str, cache: Path) -> set[str]:
    """The modules a run of `pysolve ARGV` has imported when it ends (its second run: the first keeps the facts)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    for _ in range(2):
        ran = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env,
                             timeout=120, check=True)
    return set(ast.literal_eval(ran.stdout.splitlines()[-1]))


def third_party(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] not in sys.stdlib_module_names
            and name.split(".")[0] not in ("pysolve", "__main__", "_distutils_hack")}


def test_help_loads_the_puzzles_declarations_only(tmp_path: Path) -> None:
    modules = loaded("--help", cache=tmp_path)
    assert {name for name in modules if name.startswith("pysolve")} == HELP_MODULES
    assert third_party(modules) == set()


@pytest.mark.parametrize("argv", [("--help",), ("list",), ("list", "--json"), ("backends",), ("backends", "--json")])
def test_a_short_command_starts_no_engine(argv: tuple[str, ...], tmp_path: Path) -> None:
    modules = loaded(*argv, cache=tmp_path)
    allowed = {"pysolve.bridge"} if argv[0] == "backends" else set()  # what its status depends on, no engine
    found = sorted(name for name in modules - allowed
                   if any(name == never or name.startswith(never + ".") for never in NEVER))
    assert found == [], f"pysolve {' '.join(argv)} imports {found}"
    assert third_party(modules) == set()
