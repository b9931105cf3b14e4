"""What `pysolve --help`, `pysolve list` and `pysolve backends` load: the parser and the modules that print,
never a puzzle, a back end's engine, the cross-check, the web stack or importlib.metadata (issue 35: start-up
that costs nothing). The facts kept on disk (pysolve.cache) are found by a first run, so each command is run
twice and the second is held; what is kept is what the puzzles say, found again when a file it was read from
changes."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pysolve import api, cache, paths, puzzles
from pysolve.hidato import puzzle as hidato_puzzle

PROBE = """
import contextlib, io, sys
from pysolve.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(sorted(sys.modules))
"""

HELP_MODULES = {  # every module of pysolve that `pysolve --help` imports: one more is an eager import to explain
    "pysolve", "pysolve.backends", "pysolve.budget", "pysolve.cache", "pysolve.cli", "pysolve.errors",
    "pysolve.memory", "pysolve.options", "pysolve.puzzles", "pysolve.words",
}
NEVER = ("importlib.metadata", "email", "pyswip", "kanren", "unification", "numpy", "textual", "starlette",
         "uvicorn", "dask", "pysolve.bridge", "pysolve.minikanren", "pysolve.fd", "pysolve.sandbox",
         "pysolve.agreement", "pysolve.report", "pysolve.web", "pysolve.puzzle",
         "pysolve.azul", "pysolve.fichas", "pysolve.hidato", "pysolve.squares", "pysolve.sudoku", "pysolve.tangram")


def pysolve_json(*argv: str, cache: Path) -> Any:
    """What `pysolve ARGV --json` prints, read, with the facts kept under `cache`."""
    ran = subprocess.run([sys.executable, "-m", "pysolve", *argv, "--json"], capture_output=True, text=True,
                         env=dict(os.environ, XDG_CACHE_HOME=str(cache)), timeout=120, check=True)
    return json.loads(ran.stdout)


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


@pytest.mark.subprocess
def test_help_loads_no_puzzle(tmp_path: Path) -> None:
    modules = loaded("--help", cache=tmp_path)
    assert {name for name in modules if name.startswith("pysolve")} == HELP_MODULES
    assert third_party(modules) == set()


@pytest.mark.subprocess
@pytest.mark.parametrize("argv", [("--help",), ("list",), ("list", "--json"), ("backends",), ("backends", "--json")])
def test_a_short_command_starts_no_engine(argv: tuple[str, ...], tmp_path: Path) -> None:
    modules = loaded(*argv, cache=tmp_path)
    allowed = {"pysolve.bridge"} if argv[0] == "backends" else set()  # what its status depends on, no engine
    found = sorted(name for name in modules - allowed
                   if any(name == never or name.startswith(never + ".") for never in NEVER))
    assert found == [], f"pysolve {' '.join(argv)} imports {found}"
    assert third_party(modules) == set()


@pytest.mark.subprocess
def test_the_commands_kept_are_the_puzzles_own(tmp_path: Path) -> None:
    loaded("--help", cache=tmp_path)
    (kept,) = (tmp_path / "pysolve").glob("commands-*.json")
    record = json.loads(kept.read_text())
    assert record["value"] == {
        name: {"play": puzzles.get(name).can_play, "command_groups": dict(puzzles.get(name).command_groups)}
        for name in puzzles.names()}
    read_from = {stamp[0] for stamp in record["files"]}  # the puzzles' declarations, not their search code:
    assert sys.modules["pysolve.squares.puzzle"].__file__ in read_from
    assert sys.modules["pysolve.squares.model"].__file__ not in read_from  # an edit there keeps --help lean


@pytest.mark.subprocess
def test_the_listing_kept_is_the_puzzles_own_and_found_again_when_a_file_changes(tmp_path: Path) -> None:
    listed = pysolve_json("list", cache=tmp_path)
    assert listed == {name: api.shipped(name) for name in puzzles.names()}
    (kept,) = (tmp_path / "pysolve").glob("shipped-*.json")
    record = json.loads(kept.read_text())
    stamps = {stamp[0]: stamp for stamp in record["files"]}
    sample = str(paths.data_dir() / "hidato" / "sample.txt")
    assert hidato_puzzle.__file__ in stamps and sample in stamps
    record["value"]["hidato"] = []  # as if kept before the file was written...
    stamps[sample][2] -= 1  # ...a moment earlier
    kept.write_text(json.dumps(record))
    assert pysolve_json("list", cache=tmp_path) == listed


def test_facts_kept_under_other_settings_do_not_push_a_used_one_out(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Test runs put folders of their own on sys.path: a fact is kept per settings, and one in use stays."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    found: list[str] = []

    def finder(label: str) -> Callable[[], cache.Found]:
        def find() -> cache.Found:
            found.append(label)
            return label, []
        return find

    assert cache.kept("fact", {"path": ["mine"]}, finder("mine")) == "mine"
    for other in range(3 * cache.KEPT):
        assert cache.kept("fact", {"path": [f"test {other}"]}, finder(f"test {other}")) == f"test {other}"
        if other % (cache.KEPT // 2) == 0:
            assert cache.kept("fact", {"path": ["mine"]}, finder("again")) == "mine"  # read back, marked used
    assert cache.kept("fact", {"path": ["mine"]}, finder("again")) == "mine"
    assert "again" not in found and len(found) == 1 + 3 * cache.KEPT
    assert len(list((tmp_path / "pysolve").glob("fact-*.json"))) == cache.KEPT


@pytest.mark.subprocess
def test_games_of_quick_players_load_no_search_player(tmp_path: Path) -> None:
    """The search players' tables are loaded by a name that asks for a search, and only then."""
    quick = loaded("azul", "simulate", "--games", "2", "--backend", "python", cache=tmp_path)
    searching = loaded("azul", "simulate", "--games", "2", "--backend", "python", "--strategy", "mcts:5,greedy",
                       cache=tmp_path)
    search = {"pysolve.azul.search_players", "pysolve.azul.offer"}
    assert quick & search == set()
    assert search <= searching
