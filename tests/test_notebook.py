"""The example notebook runs, top to bottom, on a real Jupyter kernel (nbclient, ipykernel); and answers,
cross-check reports, boards and traces show themselves in a notebook as their puzzles draw them."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from traced_searches import fichas_trace

import pysolve
from pysolve import notebook
from pysolve.trace import read_trace

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_the_example_notebook_runs(path: Path, tmp_path: Path) -> None:
    """Every cell runs without an error (the notebook's own asserts included), on this Python (ipykernel's own
    kernel runs the interpreter that runs the tests), with SWI-Prolog or hidden alike (the kernel inherits
    PYSOLVE_NO_PROLOG)."""
    book = nbformat.read(path, as_version=4)
    NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in book.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    shown = [output.data for output in outputs if output.output_type in ("display_data", "execute_result")]
    assert any("<svg" in data.get("text/html", "") for data in shown)  # an answer drawn as its board
    assert any("pysolve-crosscheck" in data.get("text/html", "") for data in shown)
    assert any("<iframe srcdoc=" in data.get("text/html", "") for data in shown)  # the traces replayed
    assert any("<svg" in data.get("image/svg+xml", "") for data in shown)  # a board of one's own


def test_an_answer_shows_its_puzzles_picture() -> None:
    board = pysolve.solve("sudoku", "easy", index=1, backend="python")
    shown = board._repr_html_()
    assert "<svg" in shown and "sudoku</b> on <b>python</b>" in shown and ">solved<" in shown
    answer = pysolve.solve("fichas", m=2, n=2, strategy="bfs", backend="python")
    path = answer._repr_html_()  # as text: fichas draws no SVG
    assert "<svg" not in path and f"path of {len(answer.solutions[0]) - 1} moves" in path and "|V|V| |B|B|" in path
    tilings = pysolve.solve("tangram", "classic", backend="python")._repr_html_()
    assert tilings.count("<svg") == 1


@pytest.mark.parametrize("name", pysolve.puzzle_names())
def test_every_puzzles_answer_shows_itself(name: str) -> None:
    puzzle = pysolve.get_puzzle(name)
    for question in puzzle.demo_questions()[:2]:
        answer = pysolve.solve(name, question=question, backend="python")
        shown = answer._repr_html_()
        assert f"<b>{name}</b> on <b>python</b>" in shown and f">{answer.status}<" in shown
        drawn = any(option.name == "svg" for option in puzzle.output_options()) and answer.solutions
        assert ("<svg" in shown) if drawn else ("<pre>" in shown and "<svg" not in shown)


def test_a_crosscheck_report_shows_its_verdict_rows_and_answer() -> None:
    report = pysolve.crosscheck("hidato", "sample", count=2, backends=["python", "kanren"])
    shown = report._repr_html_()
    assert report.summary() in shown and shown.count("<tr>") == 1 + len(report.asked)
    assert "the answer of " in shown and "<svg" in shown


def test_a_board_and_a_replay_show_themselves(tmp_path: Path) -> None:
    rows = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    assert notebook.board("sudoku", rows)._repr_svg_() == pysolve.get_puzzle("sudoku").svg(rows, rows)
    with pytest.raises(TypeError, match="fichas is not a board puzzle"):
        notebook.board("fichas", rows)
    traces = [fichas_trace(tmp_path / f"{strategy}.jsonl", 2, 2, strategy) for strategy in ("dfs", "bfs")]
    replayed = notebook.Replay(*traces)
    nodes = read_trace(traces[1]).end["nodes"]
    assert nodes == pysolve.solve("fichas", m=2, n=2, strategy="bfs", backend="python").stats["states"] + 1
    assert repr(replayed).splitlines()[1] == f"bfs.jsonl: python, solved, {nodes} nodes, 1 solutions"
    frame = replayed._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "startReplay(" in frame and "</script>" not in frame
    assert notebook.Replay(traces[0])._repr_html_().count("a search replayed") == 2  # one trace: its title
