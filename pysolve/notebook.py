"""pysolve in a notebook (Jupyter): answers, cross-check reports, boards and traces shown as HTML and SVG.

Jupyter shows an object through its `_repr_html_` or `_repr_svg_`. An
`Answer` and a `CrossCheck` have one that calls this module (an answer knows
no puzzle, so the answers module asks here through `answers.NOTEBOOK`, set
when this module loads: the cross-check, and so the API, load it), which
draws each answer with its puzzle's own picture: the SVG its `--svg OUT`
writes (boards, tilings, squares), else the text `pysolve solve` prints.
`board` draws a board of Sudoku or Hidato; `Replay` replays one to four
trace files in the page `pysolve trace --html` writes, inside the notebook.
"""

from __future__ import annotations

import contextlib
import html
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pysolve import answers, puzzles, replay
from pysolve.answers import Answer
from pysolve.boards.puzzle import BoardPuzzle
from pysolve.errors import PysolveError
from pysolve.trace import read_trace

SHOWN = 6000  # characters of an answer's text shown when its puzzle draws no SVG
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours a text drawing may carry
STATUS_INK = {"solved": "#1b7f3b", "no solution": "#555", "unknown": "#b00020"}


def answer_html(answer: Answer) -> str:
    """An answer as HTML: its puzzle, back end, status and summary, its search statistics, and its picture."""
    puzzle = puzzles.get(answer.puzzle)
    ink = STATUS_INK.get(answer.status, "#222")
    stats = ", ".join(f"{key} {value}" for key, value in answer.stats.items())
    return (f'<div class="pysolve-answer"><p><b>{html.escape(answer.puzzle)}</b> on '
            f'<b>{html.escape(answer.backend)}</b>: <span style="color:{ink}">{html.escape(answer.status)}</span>'
            f" &mdash; {html.escape(puzzle.summarise(answer))}</p>"
            f'<p style="color:#666;font-size:90%">{html.escape(stats)}</p>{picture(answer)}</div>')


def picture(answer: Answer) -> str:
    """An answer drawn by its puzzle, as SVG or as text.

    The answer drawn by its puzzle: the SVG of `--svg OUT` when the puzzle has that option and can draw this
    answer, else the text `pysolve solve` prints, cut to SHOWN characters."""
    puzzle = puzzles.get(answer.puzzle)
    if any(option.name == "svg" for option in puzzle.output_options()) and answer.solutions:
        with tempfile.TemporaryDirectory(prefix="pysolve-notebook-") as folder:
            out = Path(folder) / "answer.svg"
            with contextlib.suppress(PysolveError):  # an answer this puzzle does not draw: its text below
                puzzle.write_files(answer, {"svg": str(out)})
            if out.exists():
                return out.read_text(encoding="utf-8")
    text = ANSI.sub("", puzzle.render(answer))
    cut = f"\n... ({len(text):,} characters in all)" if len(text) > SHOWN else ""
    return f"<pre>{html.escape(text[:SHOWN] + cut)}</pre>"


def crosscheck_html(report: Any) -> str:
    """A cross-check report as HTML.

    A cross-check report (`pysolve.agreement.CrossCheck`) as HTML: the verdict in the CLI's words, a row for
    every back end asked (its answer in brief and its seconds, or why it gave none), the first answer drawn."""
    puzzle = puzzles.get(report.puzzle)
    ink = "#1b7f3b" if report.agree else "#b00020"
    rows = [(name, answer.status, puzzle.summarise(answer), answer.stats.get("seconds", ""))
            for name, answer in report.results.items()]
    rows += [(name, why.kind, why.reason, "") for name, why in report.unanswered().items()]
    cells = "".join("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows)
    first = next(iter(report.results.values()), None)
    drawn = f"<p>the answer of {html.escape(first.backend)}:</p>{picture(first)}" if first is not None else ""
    return (f'<div class="pysolve-crosscheck"><p><b>{html.escape(report.puzzle)}</b> '
            f"{html.escape(report.label)}</p><p style=\"color:{ink};font-weight:bold\">"
            f"{html.escape(report.summary())}</p><table><tr><th>back end</th><th>status</th><th>answer</th>"
            f"<th>seconds</th></tr>{cells}</table>{drawn}</div>")


class Board:
    """A board of a board puzzle (Sudoku, Hidato) that a notebook shows as its puzzle draws it."""

    def __init__(self, puzzle: str, rows: Sequence[Sequence[int]], givens: Sequence[Sequence[int]] | None = None):
        chosen = puzzles.get(puzzle)
        if not isinstance(chosen, BoardPuzzle):
            raise TypeError(f"{puzzle} is not a board puzzle")
        self.puzzle, self.rows = chosen, [list(row) for row in rows]
        self.givens = [list(row) for row in (givens if givens is not None else rows)]

    def _repr_svg_(self) -> str:
        return self.puzzle.svg(self.rows, self.givens)


def board(puzzle: str, rows: Sequence[Sequence[int]], givens: Sequence[Sequence[int]] | None = None) -> Board:
    """`rows` as `puzzle` draws them (`givens`, default the rows themselves, set bold), shown by a notebook."""
    return Board(puzzle, rows, givens)


class Replay:
    """One to four trace files replayed in a notebook.

    One to four trace files replayed in a notebook: the page `pysolve trace --html` writes, in a frame (at most
    replay.EMBEDDED events of each trace), and the counters of each search's end line as text."""

    def __init__(self, *paths: str | Path, height: int = 900) -> None:
        if not 1 <= len(paths) <= replay.MAX_TRACES:
            raise ValueError(f"Replay takes 1 to {replay.MAX_TRACES} trace files, not {len(paths)}")
        traces = [replay.condensed(read_trace(path), Path(path).name, replay.EMBEDDED) for path in paths]
        self.traces = replay.together(traces) if len(traces) > 1 else traces
        self.height = height

    def __repr__(self) -> str:
        return "\n".join(f"{trace['name']}: {trace['backend']}, {trace['end'].get('status')}, "
                         f"{trace['end'].get('nodes')} nodes, {trace['end'].get('solutions')} solutions"
                         for trace in self.traces)

    def _repr_html_(self) -> str:
        page = replay.export_html(self.traces)
        return (f'<iframe srcdoc="{html.escape(page, quote=True)}" style="width:100%;height:{self.height}px;'
                f'border:1px solid #ddd" sandbox="allow-scripts"></iframe>')


answers.NOTEBOOK = answer_html
