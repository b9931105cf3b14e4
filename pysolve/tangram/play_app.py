"""`pysolve play tangram`: the game as a full-screen terminal app (Textual), mouse and keyboard over `play.Game`.

The app only turns clicks and keys into `Game` moves and redraws; the rules
(where a piece may go, whether the board can be completed) are the back
end's, asked by `Game`. A back-end error during play becomes a message
instead of ending the game. Everything that can be wrong before play (the
file, its given pieces, the piece keys, the back end) is checked before the
screen starts, so bad input is one line on stderr and exit code 2 like
every other command.

The screen draws the board the way people draw it (y upwards, row H - 1 on
top), two characters per cell after a three-character row label: a piece
lying temporarily shows its key on its colour, a piece placed for good its
key and `X`, the preview is a ghost `▒▒` in the piece's colour, hint cells
the key in the piece's colour (over option cells `*`), free cells `.`; the
cursor is reversed. The pieces beside the board stand on shelves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from pysolve.errors import PysolveError
from pysolve.puzzle import Puzzle
from pysolve.tangram.model import Instance, Placement
from pysolve.tangram.play import Cell, Game
from pysolve.tangram.reader import load_instance
from pysolve.terminal import require_terminal

# ---------------------------------------------------------------- the screen's pictures

LABEL = 3  # characters of the row label left of the board
CELL_WIDTH = 2  # characters per cell
TRAY_WIDTH = 48  # characters the pieces beside the board may take per shelf
FREE = Style(color="grey50")
OPTION = Style(color="bright_yellow", bold=True)


def piece_style(colour: str) -> Style:
    """Black or white text on the piece's colour, whichever reads better."""
    ink = Color.parse(colour).get_contrast_text(1.0).hex
    return Style(color=ink, bgcolor=colour, bold=True)


def board_size(instance: Instance) -> tuple[int, int]:
    """Width and height in characters of the drawn board (with labels)."""
    return LABEL + CELL_WIDTH * instance.width, instance.height + 1


def cell_at(instance: Instance, column: int, row: int) -> Cell | None:
    """The board cell under a character position of the drawn board, or None (labels, outside)."""
    x, y = (column - LABEL) // CELL_WIDTH, instance.height - 1 - row
    if column < LABEL or not (0 <= x < instance.width and 0 <= y < instance.height):
        return None
    return x, y


def cell_position(instance: Instance, cell: Cell) -> tuple[int, int]:
    """The character position (column, row) of a board cell in the drawn board: where to click it."""
    return LABEL + CELL_WIDTH * cell[0], instance.height - 1 - cell[1]


def _covering(placements: list[Placement] | tuple[Placement, ...]) -> dict[Cell, Placement]:
    return {cell: placement for placement in placements for cell in placement.cells()}


def board_text(game: Game) -> Text:
    """The board with its pieces, preview, options, hint and cursor."""
    lying = _covering(list(game.board.values()))
    ghost = _covering([game.preview] if game.preview else [])
    hinted = _covering(game.hint)
    options = game.option_cells
    text = Text()
    for y in reversed(range(game.instance.height)):
        text.append(f"{y:>2} ", FREE)
        for x in range(game.instance.width):
            look, style = _cell_look(game, (x, y), lying, ghost, hinted, options)
            if (x, y) == game.cursor and not game.won:
                style += Style(reverse=True)
            text.append(look, style)
        text.append("\n")
    text.append(" " * LABEL + "".join(f"{x % 10:<{CELL_WIDTH}}" for x in range(game.instance.width)), FREE)
    return text


def _cell_look(game: Game, cell: Cell, lying: dict[Cell, Placement], ghost: dict[Cell, Placement],
               hinted: dict[Cell, Placement], options: set[Cell]) -> tuple[str, Style]:
    """The two characters and style of one cell."""
    if cell in ghost:
        return "▒▒", Style(color=game.instance.piece(ghost[cell].piece).colour, bold=True)
    if cell in lying:
        piece = game.instance.piece(lying[cell].piece)
        return f"{piece.key}{'X' if piece.name in game.fixed else ' '}", piece_style(piece.colour)
    if cell in hinted:
        piece = game.instance.piece(hinted[cell].piece)
        return f"{piece.key}·", Style(color=piece.colour, italic=True)
    if cell in options:
        return "* ", OPTION
    return ". ", FREE


@dataclass(frozen=True)
class Block:
    """A piece beside the board: its label line and its rectangle of cells."""

    label: str
    key: str
    colour: str
    width: int
    height: int
    selected: bool

    @property
    def columns(self) -> int:
        """Characters the block takes across."""
        return max(len(self.label), CELL_WIDTH * self.width)

    def line(self, row: int) -> tuple[str, Style]:
        """Row `row` of the block: the label, a row of the piece, or blank."""
        if row == 0:
            style = Style(reverse=True, bold=True) if self.selected else Style(bold=True)
            return self.label.ljust(self.columns), style
        if row <= self.height:
            return (f"{self.key} " * self.width).ljust(self.columns), piece_style(self.colour)
        return " " * self.columns, Style()


def status_text(game: Game) -> Text:
    """The selection line, the selected piece's name on its colour."""
    status = game.status()
    if game.selected is None or game.won:
        return Text(status)
    name = f"selected piece: {game.selected}"
    text = Text("selected piece: ")
    text.append(game.selected, piece_style(game.instance.piece(game.selected).colour))
    text.append(status[len(name):])
    return text


def tray_text(game: Game) -> Text:
    """The pieces beside the board, each with its key and name over its shape, packed on shelves."""
    blocks = [Block(f"{p.key} {p.name}", p.key, p.colour, p.width, p.height, p.name == game.selected)
              for p in (game.instance.piece(name) for name in game.waiting)]
    text = Text("beside the board:\n" if blocks else "beside the board: nothing\n", Style(dim=True))
    for shelf in _shelves(blocks):
        for row in range(1 + max(block.height for block in shelf)):
            for block in shelf:
                text.append(*block.line(row))
                text.append(" ")
            text.append("\n")
    return text


def _shelves(blocks: list[Block]) -> list[list[Block]]:
    """Blocks in order, a new shelf whenever the next one would pass TRAY_WIDTH."""
    shelves: list[list[Block]] = []
    used = TRAY_WIDTH
    for block in blocks:
        if used + block.columns + 1 > TRAY_WIDTH:
            shelves.append([])
            used = 0
        shelves[-1].append(block)
        used += block.columns + 1
    return shelves


# ---------------------------------------------------------------- the app

SOLVED = Style(color="black", bgcolor="green", bold=True)
Step = str | tuple[int, int] | tuple[str, tuple[int, int]]  # a key, a board cell to click, ("ctrl", cell)


def key_range(game: Game) -> str:
    """The piece keys as the help line names them: `1-6` when consecutive, else listed."""
    keys = [piece.key for piece in game.instance.pieces]
    consecutive = all(ord(b) == ord(a) + 1 for a, b in pairwise(keys))
    return f"{keys[0]}-{keys[-1]}" if consecutive and len(keys) > 2 else ",".join(keys)


def help_line(game: Game) -> str:
    """Every key of the game, on one line."""
    turn = " (again: turn)" if game.instance.rotations else ""
    return (f"{key_range(game)} select  click * or arrows+space preview{turn}  t or Ctrl+click temporary  "
            f"Enter definitive  Esc cancel  h hint  u undo  q quit")


class BoardView(Widget):
    """The board; a click on a cell chooses it."""

    def __init__(self, game: Game) -> None:
        super().__init__(id="board")
        self.game = game

    def render(self) -> Text:
        """The board as Rich text."""
        return board_text(self.game)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        """As wide as the drawn board."""
        return board_size(self.game.instance)[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """As tall as the drawn board."""
        return board_size(self.game.instance)[1]

    def on_click(self, event: events.Click) -> None:
        """Choose the clicked cell (clicks on labels or margins do nothing)."""
        offset = event.get_content_offset(self)
        cell = cell_at(self.game.instance, offset.x, offset.y) if offset is not None else None
        if cell is not None:
            move = self.game.place_at if event.ctrl else self.game.choose  # Ctrl: the original's temporary placement
            self.app.play(move, cell)  # type: ignore[attr-defined]


class TangramApp(App[None]):
    """`pysolve play tangram`: the board, the pieces beside it, the selection, a message and the keys."""

    TITLE = "pysolve tangram"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #top { height: auto; }
    #board { width: auto; height: auto; margin: 1 2; }
    #tray { width: auto; height: auto; margin: 1 1; }
    #status, #message, #help { height: auto; margin: 0 2; }
    #help { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "left", show=False),
        Binding("right", "move(1, 0)", "right", show=False),
        Binding("up", "move(0, 1)", "up", show=False),
        Binding("down", "move(0, -1)", "down", show=False),
        Binding("space", "choose", "preview"),
        Binding("t", "place(False)", "temporary"),
        Binding("ctrl+enter", "place(False)", "temporary", show=False),  # where the terminal reports it
        Binding("enter", "place(True)", "definitive"),
        Binding("escape", "cancel", "cancel"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def run(self, *, headless: bool = False, **options: Any) -> None:
        """Run the game; InputError before anything starts when the screen would be no terminal.

        Headless, as tests run it, the game needs none."""
        if not headless:
            require_terminal("pysolve play tangram")
        return super().run(headless=headless, **options)

    def compose(self) -> ComposeResult:
        """Board and pieces side by side, then the selection, the message and the keys."""
        with Horizontal(id="top"):
            yield BoardView(self.game)
            yield Static(id="tray")
        yield Static(id="status")
        yield Static(id="message")
        yield Static(help_line(self.game), id="help")

    def on_mount(self) -> None:
        """Draw the first position."""
        self.sub_title = f"{self.game.instance.name}, rules on {self.game.backend}"
        self.show()

    def play(self, move: Callable[..., None], *args: Any) -> None:
        """Make a game move and redraw; a back-end error is shown, not raised."""
        try:
            move(*args)
        except PysolveError as error:
            self.game.message = f"back end error: {error}"
        self.show()

    def show(self) -> None:
        """Redraw everything from the game's state."""
        self.query_one(BoardView).refresh()
        self.query_one("#tray", Static).update(tray_text(self.game))
        self.query_one("#status", Static).update(status_text(self.game))
        style = SOLVED if self.game.won else Style(bold=True)
        self.query_one("#message", Static).update(Text(self.game.message, style))

    def on_key(self, event: events.Key) -> None:
        """A piece's key selects it."""
        name = self.game.piece_for_key(event.character or "")
        if name is not None:
            event.stop()
            self.play(self.game.select, name)

    def action_move(self, dx: int, dy: int) -> None:
        """Move the cursor."""
        self.play(self.game.move_cursor, dx, dy)

    def action_choose(self) -> None:
        """Preview at the cursor."""
        self.play(self.game.choose_cursor)

    def action_place(self, definitive: bool) -> None:
        """Put the previewed piece down."""
        self.play(self.game.place, definitive)

    def action_cancel(self) -> None:
        """Escape: deselect, the piece back beside the board."""
        self.play(self.game.escape)

    def action_hint(self) -> None:
        """Ask the back end for a completion."""
        self.play(self.game.ask_hint)

    def action_undo(self) -> None:
        """Take back the last temporary move."""
        self.play(self.game.undo)


def start(puzzle: Puzzle, file: str | None, backend: str) -> int:
    """Run the game of `puzzle` until the player quits; return the exit code.

    FILE (default: the classic board) and `backend` are checked first."""
    TangramApp(Game.start(puzzle, load_instance(file), backend)).run()
    return 0


async def perform(pilot: Pilot[None], steps: Sequence[Step]) -> None:
    """Play scripted input: press each key, click each board cell (with Ctrl held for `("ctrl", cell)`)."""
    app: TangramApp = pilot.app  # type: ignore[assignment]
    for step in steps:
        if isinstance(step, str):
            await pilot.press(step)
        else:
            control = step[0] == "ctrl"
            cell = step[1] if control else step
            await pilot.click(BoardView, offset=cell_position(app.game.instance, cell), control=control)  # type: ignore[arg-type]


def screenshot(game: Game, steps: Sequence[Step], size: tuple[int, int] = (88, 19)) -> str:
    """Play `steps` headless and return an SVG screenshot of the screen (the docs' picture)."""

    async def play() -> str:
        app = TangramApp(game)
        async with app.run_test(size=size) as pilot:
            await perform(pilot, steps)
            return app.export_screenshot(title="pysolve play tangram")

    return asyncio.run(play())
