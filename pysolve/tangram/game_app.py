"""The tangram game as a full-screen terminal app (Textual): mouse and keyboard over `game.Game`.

The app only turns clicks and keys into `Game` moves and redraws; the rules
(where a piece may go, whether the board can be completed) are the back
end's, asked by `Game`. A back-end error during play becomes a message
instead of ending the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from pysolve.errors import PysolveError
from pysolve.tangram.game import Game
from pysolve.tangram.game_draw import board_size, board_text, cell_at, cell_position, status_text, tray_text

SOLVED = Style(color="black", bgcolor="green", bold=True)
Step = str | tuple[int, int] | tuple[str, tuple[int, int]]  # a key, a board cell to click, ("ctrl", cell)


def key_range(game: Game) -> str:
    """The piece keys as the help line names them: `1-6` when consecutive, else listed."""
    keys = [piece.key for piece in game.instance.pieces]
    consecutive = all(ord(b) == ord(a) + 1 for a, b in zip(keys, keys[1:]))
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
    BINDINGS = [
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
