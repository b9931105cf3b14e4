"""Shipped instances by name: the CLI, the API and the web read each by the name `pysolve list` shows, a path
that exists is still a path, an unknown name is one line with the close names; what the list says is true."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pysolve import api, cli
from pysolve.catalogue import Note
from pysolve.errors import InputError, UnknownName
from pysolve.options import Option
from pysolve.paths import data_dir
from pysolve.puzzle import Backend, Puzzle
from pysolve.web import crosscheck as web_crosscheck

SHIPPING = ("hidato", "squares", "sudoku", "tangram")  # the puzzles with files under data/


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory without the checkout's data/ folder: names must not lean on it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- the catalogue ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", SHIPPING)
def test_every_shipped_file_has_one_name_and_every_name_reads_that_file(puzzle: str, elsewhere: Path) -> None:
    chosen = api.get_puzzle(puzzle)
    entries = chosen.catalogue().entries
    folder = data_dir() / puzzle
    on_disk = {path for path in folder.rglob("*") if path.is_file() and not path.name.startswith("README")}
    assert {entry.path for entry in entries} == on_disk
    assert len({entry.name for entry in entries}) == len(entries)
    for entry in entries:
        if entry.known == "a shape for --shape":
            continue
        by_name = asked(chosen, entry.name)
        assert by_name == asked(chosen, str(entry.path)) == asked(chosen, entry.file), entry.name


def asked(puzzle: Puzzle, file: str) -> list[dict[str, Any]]:
    """The questions `file` asks as JSON, without the name they go by (squares keeps the name it was asked by)."""
    return [{key: value for key, value in puzzle.describe(question).items() if key not in ("file", "instance")}
            | ({"pieces": question.instance.pieces} if hasattr(question, "instance") else {})
            for question in puzzle.questions(file=file)]


def test_names_are_paths_without_extension_and_a_taken_name_keeps_its_extension() -> None:
    names = set(api.get_puzzle("hidato").catalogue().names())
    assert {"sample", "sample.json", "public/csp_a1_6x6", "long/snake_3x50", "shapes/ring"} <= names
    assert {"top95", "easy", "sixteen-grid"} <= set(api.get_puzzle("sudoku").catalogue().names())
    squares = api.get_puzzle("squares").catalogue()
    assert squares.find("eternity-5x5") == squares.find("eternity/pieces_05x05") is not None
    assert squares.find("eternity-5x5", aliases=False) is None


def test_a_path_that_exists_is_read_as_a_path_before_a_name(elsewhere: Path) -> None:
    (elsewhere / "sample").write_text("1 0\n0 4\n")
    assert api.question("hidato", "sample").board.size == 4
    assert api.question("hidato", str(data_dir() / "hidato" / "sample.txt")).board.size == 40


@pytest.mark.parametrize("given, close", [
    ("sampel", "close names: sample"),
    ("data/hidato/sampel.txt", "close names: sample"),
    ("publc/csp_a1_6x6", "close names: public/csp_a1_6x6"),
    ("zzzzzzzzzz", "`pysolve list hidato` lists them"),
])
def test_an_unknown_name_is_one_line_with_the_close_names(given: str, close: str, elsewhere: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", "hidato", given], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"hidato file {given!r}: no such file, and no shipped hidato instance of that name" in err
    assert close in err
    with pytest.raises(UnknownName, match="no shipped hidato instance"):
        api.question("hidato", given)


# --- by name, everywhere ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, words", [
    (["solve", "hidato", "sample", "--count", "2"], "1 solution: unique"),
    (["solve", "sudoku", "top95", "--index", "3", "--count", "2"], "1 solution: unique"),
    (["solve", "sudoku", "wikipedia"], "solved"),
    (["solve", "tangram", "classic", "--count"], "36 tilings"),
    (["solve", "squares", "eternity-3x3", "--count"], "16 solutions"),
    (["crosscheck", "tangram", "classic.txt", "--count", "--backends", "python,kanren"], "agree"),
    (["generate", "hidato", "--shape", "shapes/ring", "--seed", "32", "--seconds", "5"], "seed 32, 10x10"),
])
def test_the_cli_takes_shipped_names_from_anywhere(argv: list[str], words: str, elsewhere: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*argv, *(["--backend", "python"] if argv[0] == "solve" else [])], capsys)
    assert code == 0 and words in out, (out, err)


def test_the_api_takes_shipped_names(elsewhere: Path) -> None:
    assert api.count("tangram", "classic", strategy="cell", backend="python") == 36
    assert api.solve("hidato", file="sample", count=2, backend="python").count == 1
    assert api.get_puzzle("sudoku").question(file="top95", index=95).board.line == 95
    answer = api.solve("squares", "insects", count=True, up_to_rotation=True, backend="python")
    assert answer.count == 1


def test_the_web_takes_every_name_the_cli_takes_but_no_path() -> None:
    hidato = api.get_puzzle("hidato")
    for given in ("sample", "sample.txt"):
        report = web_crosscheck.ask(hidato, {"file": given, "count": 2}, ["python"])
        assert report["question"]["file"] == "sample.txt" and report["results"][0]["summary"] == "1 solution"
    report = web_crosscheck.ask(api.get_puzzle("sudoku"), {"file": "top95", "index": 2}, ["python"])
    assert report["question"]["line"] == 2 and report["results"][0]["status"] == "solved"
    squares = api.get_puzzle("squares")
    for alias in ("eternity-3x3", "eternity/pieces_03x03"):  # an alias, as `pysolve solve squares` takes it
        report = web_crosscheck.ask(squares, {"file": alias, "count": True}, ["python"])
        assert report["results"][0]["summary"].startswith("16 solutions"), report
    for refused in (str(data_dir() / "squares" / "insects.txt"), "data/squares/insects.txt", "insect"):
        with pytest.raises(InputError, match="no shipped instance") as error:
            web_crosscheck.ask(squares, {"file": refused}, ["python"])
        assert str(data_dir()) not in str(error.value)
    with pytest.raises(InputError, match="close names: insects"):
        web_crosscheck.ask(squares, {"file": "insect"}, ["python"])
    with pytest.raises(InputError, match=r"close names: eternity-4x4, eternity-3x3, "):  # aliases, as the CLI offers
        web_crosscheck.ask(squares, {"file": "eternity-3x4"}, ["python"])


class Mine(Puzzle):
    """A puzzle of one's own with shipped instances of its own: each FILE is read as its text."""

    name = "mine"
    summary = "a test puzzle"
    offers: ClassVar[Mapping[str, Backend]] = {}  # it answers nothing: only its shipped instances are asked for
    folder: ClassVar[Path]
    options = (Option("file", positional=True, required=True, metavar="FILE"),)
    shipped_notes = (Note("first", "one answer", "made for this test"),)

    def shipped_folder(self) -> Path:
        return self.folder

    def ask(self, file: str) -> str:
        return Path(file).read_text()


def test_a_puzzle_of_ones_own_ships_its_own_instances(tmp_path: Path, elsewhere: Path) -> None:
    Mine.folder = tmp_path / "shelf"
    (Mine.folder / "more").mkdir(parents=True)
    (Mine.folder / "first.txt").write_text("one")
    (Mine.folder / "more" / "second.txt").write_text("two")
    (Mine.folder / "README.md").write_text("not an instance")
    mine = Mine()
    assert [mine.question(file=name) for name in ("first", "more/second", "more/second.txt")] == ["one", "two", "two"]
    assert api.shipped(mine) == [
        {"name": "first", "file": "first.txt", "aliases": [], "size": "", "known": "one answer",
         "source": "made for this test"},
        {"name": "more/second", "file": "more/second.txt", "aliases": [], "size": "", "known": "", "source": ""}]
    with pytest.raises(UnknownName, match="close names: first"):
        mine.question(file="frist")


# --- pysolve list ----------------------------------------------------------------------------------------------


def test_list_shows_one_line_per_instance_with_size_what_is_known_and_source(capsys) -> None:
    code, out, _ = run(["list"], capsys)
    assert code == 0
    for puzzle in SHIPPING:
        assert f"{puzzle}: {len(api.shipped(puzzle))} shipped (pysolve solve {puzzle} NAME)" in out
    lines = {line.split()[0].rstrip(","): line for line in out.splitlines() if line.startswith("  ")}
    assert "10x10, 6 pieces" in lines["classic"] and "36 tilings" in lines["classic"]
    assert "9x9, 95 puzzles" in lines["top95"] and "Norvig's top95.txt" in lines["top95"]
    assert "8x8, 40 cells" in lines["sample"] and "unique" in lines["sample"] and "Rosetta Code" in lines["sample"]
    assert "eternity/pieces_03x03" in lines["eternity-3x3"] and "16 solutions" in lines["eternity-3x3"]
    assert "more than one solution" in lines["public/csp_b7_6x6"]
    assert "fichas" not in out


def test_list_json_and_a_puzzle_that_ships_none(capsys) -> None:
    code, out, _ = run(["list", "sudoku", "--json"], capsys)
    listed = json.loads(out)
    assert code == 0 and list(listed) == ["sudoku"]
    small = next(entry for entry in listed["sudoku"] if entry["name"] == "small")
    assert small == {"name": "small", "file": "small.txt", "aliases": [], "size": "4x4, 6x6, 10 puzzles",
                     "known": "each unique", "source": small["source"]} and "generate sudoku" in small["source"]
    assert run(["list", "fichas"], capsys)[:2] == (0, "fichas: ships no instances\n")
    code, _, err = run(["list", "chess"], capsys)
    assert code == 2 and "invalid choice: 'chess'" in err


def answer_of(puzzle: str, name: str, **options: Any) -> Any:
    """The python back end's answer to a shipped instance."""
    return api.solve(puzzle, name, backend="python", **options)


@pytest.mark.parametrize("puzzle, name, options, known", [
    ("tangram", "classic", {"count": True}, 36),
    ("squares", "insects", {"count": True}, 4),
    ("squares", "eternity-3x3", {"count": True}, 16),
    ("squares", "eternity-4x4", {"count": True}, 36),
    ("hidato", "sample", {"count": 2}, 1),
    ("hidato", "sample.json", {"count": 2}, 1),
    ("hidato", "rect_8x8_s14", {"count": 2}, 1),
    ("hidato", "public/csp_b7_6x6", {"count": 2}, 2),
    ("hidato", "public/rosetta_cpp1_9x9", {"count": 2}, 2),
    ("sudoku", "wikipedia", {"count": 2}, 1),
])
def test_what_the_list_says_is_known_holds(puzzle: str, name: str, options: dict[str, Any], known: int) -> None:
    listed = next(entry for entry in api.shipped(puzzle) if name in (entry["name"], *entry["aliases"]))
    said = listed["known"]
    assert answer_of(puzzle, name, **options).count == known
    assert said.startswith(f"{known} ") if known > 2 or puzzle == "squares" else \
        said == ("unique" if known == 1 else "more than one solution")


def test_each_file_of_many_sudokus_says_how_many_it_holds() -> None:
    sudoku = api.get_puzzle("sudoku")
    for entry in api.shipped(sudoku):
        held = len(sudoku.questions(file=entry["name"]))
        assert (f"{held} puzzles" in entry["size"]) == (held > 1) and entry["known"] == \
            ("each unique" if held > 1 else "unique"), entry


def test_a_puzzle_written_without_declaring_what_it_offers_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match=r"puzzle Old declares no back ends: give it offers = \{'python': Backend"):
        type("Old", (Puzzle,), {"name": "old", "summary": "found its back ends by looking"})
    with pytest.raises(TypeError, match=r"fills the hooks of \['generate'\] but declares faces = nothing"):
        type("Quiet", (Puzzle,), {"name": "quiet", "summary": "a generator undeclared", "offers": {},
                                  "generate": lambda self, **values: ({}, "")})
    with pytest.raises(UnknownName, match="unknown back end 'java'"):
        type("Odd", (Puzzle,), {"name": "odd", "summary": "a back end pysolve has not", "offers": {"java": Backend()}})


def test_only_the_declared_back_ends_answer_and_a_promise_the_module_breaks_is_named() -> None:
    fichas = api.get_puzzle("fichas")
    question = fichas.question(m=2, n=2, strategy="bfs")
    python_only = type("PythonFichas", (type(fichas),), {"offers": {"python": Backend()},
                                                         "__module__": type(fichas).__module__})()
    assert fichas.backends_for(question) == ["prolog", "kanren", "python"]
    assert python_only.backends_for(question) == ["python"] and python_only.backend_module("kanren") is None
    promised = type("Promised", (type(fichas),), {"offers": {"python": Backend(by_name=True)},
                                                  "__module__": type(fichas).__module__})()
    with pytest.raises(TypeError, match="promise is_default_for of the python back end, but pysolve.fichas.python "
                                        "defines no function is_default_for"):
        promised.default_backend(question)
