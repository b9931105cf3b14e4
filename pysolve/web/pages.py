"""The puzzles' web pages: every `pysolve.web_pages` entry point, the menu built from them.

A page belongs to a puzzle of the registry (`pysolve.puzzles`) and is
declared as a `Page` under the puzzle's name; pysolve's own are entry
points of the pysolve package (pyproject.toml) and a package of your own
adds one the same way:

    [project.entry-points."pysolve.web_pages"]
    nonogram = "my_package.web:PAGE"

The server then serves its template at `/nonogram`, adds its routes (its
JSON endpoints), and the menu and the index page list it. The menu follows
the puzzle registry's order (pysolve's own by name, then the others by
name); a page whose puzzle is not registered is left out. Pages of no one
puzzle (TOOLS: the traces replayed side by side) come after them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from starlette.routing import BaseRoute

from pysolve import puzzles
from pysolve.web import azul, fichas, hidato, squares, sudoku, tangram, traces
from pysolve.web.core import Choice, Workers

GROUP = "pysolve.web_pages"
Routes = Callable[[Workers, Choice], Sequence[BaseRoute]]
TOOLS = ("traces",)  # pysolve's own pages that serve every puzzle, listed after the puzzles' pages


@dataclass(frozen=True)
class Page:
    """A puzzle's page in the menu, with its template, routes and files.

    A puzzle's page: its title in the menu, one line for the index page, its Jinja template (which extends
    `base.html`), the folder holding that template (None: pysolve's own templates) and its endpoints.
    """

    title: str
    summary: str
    template: str
    routes: Routes
    folder: Path | None = None


def registered() -> dict[str, Page]:
    """Puzzle name -> its page, in the puzzle registry's order, then pysolve's TOOLS.

    TypeError for an entry point that is no Page.
    """
    declared = {point.name: point for point in entry_points(group=GROUP)}
    found = {}
    for name in [*puzzles.names(), *TOOLS]:
        if name in declared:
            page = declared[name].load()
            if not isinstance(page, Page):
                raise TypeError(f"entry point {name} = {declared[name].value} must be a pysolve.web.pages.Page")
            found[name] = page
    return found


TANGRAM = Page("Tangram", "the rectangle tangram played with the mouse and the keys, hints, undo and every tiling "
               "(the classic, or an instance uploaded or pasted).", "tangram.html", tangram.routes)
SQUARES = Page("Squares replay", "watch the original search place and take back pieces until it finds a solution "
               "(a shipped instance, or one uploaded or pasted).", "squares.html",
               lambda workers, choice: squares.routes(workers))
AZUL = Page("Azul", "sit at a table against strategies of your choice; replays of logged games; tournaments with "
            "charts.", "azul.html", azul.routes)
HIDATO = Page("Hidato", "load, generate and solve boards; the path drawn, uniqueness stated, a second solution "
              "shown beside the first.", "hidato.html", hidato.routes)
SUDOKU = Page("Sudoku", "paste or type a grid (4x4 to 16x16), solve it, count its solutions, validate a filled one, "
              "or generate one of a chosen difficulty.", "sudoku.html", sudoku.routes)
FICHAS = Page("Fichas", "slide the tokens past each other: one strategy's path move by move, and every strategy "
              "side by side.", "fichas.html", fichas.routes)
TRACES = Page("Traces", "two to four searches of one question replayed side by side, in lockstep or by their "
              "own clocks, each search tree drawn as it grows.", "traces.html", traces.routes)
