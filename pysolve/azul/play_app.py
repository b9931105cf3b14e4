"""`pysolve azul play`: the Azul table in the terminal (Textual), a person in one seat.

The screen shows the table (tiles in their colours), the person's legal moves as a list (arrows and
Enter, or a mouse click; typing narrows it: a source `c` or `1`-`9`, a colour `b y r k w`, a
destination `1`-`5` or `f` for the floor; so does a click on a factory or the centre; on a grey wall's
tiling, `w`, the line and the column: `w24` puts line 2's tile in column 4), and the game told step
by step. Enter plays the highlighted move, and a move is highlighted only when the person points at
it (the arrows) or types it whole: at the start of a turn, or after a partial or unmatched code,
nothing is, so Enter never plays a move the person did not type or point at. A key that is no key of
a move is answered in words; Esc followed at once by a key (which the terminal sends as Alt and the
key) clears, then types the key. After the person's move the list offers to let the others play
(space) or to take the move back (u). The strategies' seats move one at a time, `delay` seconds apart.
The table keeps its width all game, so the list beside it never moves. The rules are the back end's,
through `play.Table`.
"""

from __future__ import annotations

import asyncio
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pysolve.azul import draw
from pysolve.azul.model import (
    CENTRE,
    COLOURS,
    FLOOR_SLOTS,
    LETTERS,
    TILES_PER_FACTORY,
    Move,
    describe_move,
    is_tiling,
)
from pysolve.azul.play import Table
from pysolve.azul.position import OFFER, TILE, move_code
from pysolve.azul.scoring import tile_score
from pysolve.errors import PysolveError
from pysolve.terminal import require_terminal

TILE_STYLES = {letter: Style(color=ink, bgcolor=fill, bold=True) for letter, fill, ink in
               zip(LETTERS, ("#2f6fbd", "#f1c40f", "#d64537", "#2d2d2d", "#f4f4f4"),
                   ("white", "black", "white", "white", "black"))}
EMPTY_STYLES = {letter.lower(): Style(color=fill, dim=True) for letter, fill in
                zip(LETTERS, ("#2f6fbd", "#c9a200", "#d64537", "#777777", "#aaaaaa"))}
MARKER_STYLE = Style(color="black", bgcolor="white", bold=True, reverse=True)
TOKEN = re.compile(r"(?<![A-Za-z])([BYRKWbyrkwM])(?![A-Za-z])")
CONTINUE, UNDO = "continue", "undo"
CODE_KEYS = "c123456789byrkwf"  # the keys of a move's code: source, colour, destination
CODE_LENGTH = 3
BOUND_KEYS = " uq"  # the characters of the app's own keys (space, undo, quit), which bindings handle
MOST_SCORE = 999  # a score as wide as one gets, to size a board's column
ALT = "alt+"  # the name Textual gives Esc followed at once by a key (the escape sequence of Alt and that key)


def coloured(text: str) -> Text:
    """Table text with every tile in its colour (empty wall cells faint, M the first-player marker)."""
    out = Text(no_wrap=True, overflow="crop")
    for line in text.split("\n"):
        position = 0
        for match in TOKEN.finditer(line):
            out.append(line[position:match.start()])
            letter = match.group(1)
            style = MARKER_STYLE if letter == "M" else TILE_STYLES.get(letter) or EMPTY_STYLES[letter]
            out.append(letter, style)
            position = match.end()
        out.append(line[position:] + "\n")
    return out


def table_text(state: dict[str, Any], names: Sequence[str]) -> str:
    """The table as text, the boards two abreast, as wide all game long.

    The boards two abreast (each board's notes, such as `to move`, under it, wrapped), so that four players
    fit a terminal. Every board takes the same width all game (`board_width`), and every line is padded
    (a longer heading or centre wrapped) to the width of the widest the boards and the factories get, so
    the table never widens when a note appears, a score gains a digit or the factories empty, and what
    stands beside it stays where it is.
    """
    width = board_width(state, names)
    columns = [_board_column(draw.board(state, seat, names[seat]), width) for seat in range(state["players"])]
    boards = []
    for first in range(0, len(columns), 2):
        pair = columns[first:first + 2]
        boards.append([(" " * BOARD_GAP).join((column[index] if index < len(column) else "").ljust(width)
                                              for column in pair) for index in range(max(map(len, pair)))])
    total = max(len(line) for line in [*_offer_lines(_widest(state)), *(line for rows in boards for line in rows)])
    head = draw.table(state, names).split("\n\n", 1)[0]
    *factories, centre = _offer_lines(state)
    blocks = [_wrapped(head, total, ""), factories + _wrapped(centre, total, " " * len(CENTRE_LABEL)), *boards]
    return "\n\n".join("\n".join(line.ljust(total) for line in block) for block in blocks)


NOTES = "   <- "  # between a board's title and its notes in `draw.board`
NOTE_INDENT = "  "
BOARD_GAP = 3  # spaces between two boards abreast
FACTORIES_A_LINE = 5
CENTRE_LABEL = "centre:    "  # as `draw.offer` writes it; a centre too long for a line goes on under its tiles


def _board_column(board: str, width: int) -> list[str]:
    """A board's lines, its notes taken off its title and wrapped under it to `width`."""
    title, *body = board.split("\n")
    title, _, notes = title.partition(NOTES)
    wrapped = textwrap.wrap(f"({notes})", width, initial_indent=NOTE_INDENT, subsequent_indent=NOTE_INDENT,
                            break_on_hyphens=False) if notes else []
    return [title, *body, *wrapped]


def _offer_lines(state: dict[str, Any]) -> list[str]:
    """The factories, FACTORIES_A_LINE a line, then the centre."""
    factories, centre = draw.offer(state).split("\n")
    label, _, listed = factories.partition(" ")
    shown = listed.split("  ")
    lines = ["  ".join(shown[first:first + FACTORIES_A_LINE]) for first in range(0, len(shown), FACTORIES_A_LINE)]
    return [f"{label} {lines[0]}", *(" " * (len(label) + 1) + line for line in lines[1:]), centre]


def _wrapped(line: str, width: int, indent: str) -> list[str]:
    """`line` wrapped at spaces to `width`, the lines after the first indented by `indent`."""
    return textwrap.wrap(line, width, subsequent_indent=indent) if len(line) > width else [line]


def _widest(state: dict[str, Any]) -> dict[str, Any]:
    """`state` as wide as its table gets: every factory full, every score of three digits, every floor full."""
    full = [[TILES_PER_FACTORY, 0, 0, 0, 0] for _ in state["factories"]]
    return {**state, "factories": full, "boards": [{**board, "score": MOST_SCORE, "floor": [0] * FLOOR_SLOTS}
                                                   for board in state["boards"]]}


def board_width(state: dict[str, Any], names: Sequence[str]) -> int:
    """The width of a board's column, the same all game.

    Its widest line at the widest a board gets (three digits of score, a full floor), its notes left out
    (they are wrapped to it).
    """
    widest = _widest(state)
    return max(len(line.partition(NOTES)[0]) for seat in range(state["players"])
               for line in draw.board(widest, seat, names[seat]).split("\n"))


def move_key(move: Move) -> str:
    """The keys that type a move.

    Its code, the one outside agents read and write (source c or factory number, colour letter, destination
    f or line; a column choice: w, the line, the column).
    """
    return move_code(move, TILE if is_tiling(move) else OFFER)


def move_label(move: Move, state: dict[str, Any]) -> str:
    """A move as the list shows it: its keys, in words, and how many tiles it takes."""
    source, colour, destination = move
    if is_tiling(move):
        board = state["boards"][state["turn"]]
        wall = [list(cells) for cells in board["wall"]]
        wall[colour][destination] = 1
        line = COLOURS[board["lines"][colour][0]]
        return f"{move_key(move)}  {describe_move(move)} ({line}: +{tile_score(wall, colour, destination)} now)"
    held = state["centre"] if source == CENTRE else state["factories"][source]
    marker = " + marker" if source == CENTRE and state["marker"] == CENTRE else ""
    return f"{move_key(move)}  {describe_move(move)} ({held[colour]} {COLOURS[colour]}{marker})"


FACTORY_AT = re.compile(r"F(\d+)\[[^\]]*\]")


def source_at(text: str, x: int, y: int) -> str | None:
    """The source key of what the table text shows at column x of line y.

    `c` on the centre's line, a factory's number on its `F<n>[...]`, else None.
    """
    lines = text.split("\n")
    if not 0 <= y < len(lines):
        return None
    if lines[y].startswith("centre:"):
        return "c"
    for found in FACTORY_AT.finditer(lines[y]):
        if found.start() <= x < found.end():
            return found.group(1)
    return None


class TableView(Static):
    """The table; a click on a factory or the centre narrows the moves to it."""

    def on_click(self, event: events.Click) -> None:
        """Find the source under the pointer and tell the app."""
        offset = event.get_content_offset(self)
        app: AzulApp = self.app  # type: ignore[assignment]
        if offset is not None:
            source = source_at(table_text(app.table.state, app.table.names), offset.x, offset.y)
            if source is not None:
                app.source_clicked(source)


class AzulApp(App[None]):
    """The table, the person's moves, the game told so far, and the keys."""

    TITLE = "pysolve azul play"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #top { height: 1fr; }
    #table { width: auto; height: auto; margin: 0 1; }
    #side { width: 1fr; min-width: 40; }
    #prompt { height: auto; margin: 0 1; text-style: bold; }
    #moves { height: 1fr; min-height: 6; max-height: 20; }
    #events { height: 1fr; margin: 0 1; color: $text-muted; }
    #help { height: auto; margin: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "go_on", "let the others play"),
        Binding("u", "undo", "undo"),
        Binding("escape", "clear", "clear the typed keys"),
        Binding("backspace", "erase", "erase a typed key", show=False),
        Binding("q", "quit", "quit"),
        Binding("ctrl+c", "interrupt", "quit", show=False, priority=True),  # as everywhere in pysolve: exit 130
    ]

    def __init__(self, table: Table, delay: float = 0.6) -> None:
        super().__init__()
        self.table = table
        self.delay = delay
        self.typed = ""
        self.message = ""

    def run(self, *, headless: bool = False, **options: Any) -> None:
        """Run the game, refusing a screen that is no terminal.

        Run the game; InputError before anything starts when it would take a screen that is no terminal
        (headless, as tests run it, it needs none).
        """
        if not headless:
            require_terminal("pysolve play azul")
        return super().run(headless=headless, **options)

    def compose(self) -> ComposeResult:
        """The table on the left; the prompt, the moves and the story on the right; the keys below."""
        with Horizontal(id="top"):
            yield TableView(id="table")
            with Vertical(id="side"):
                yield Static(id="prompt")
                yield OptionList(id="moves")
                yield Static(id="events")
        yield Static("arrows+Enter or click: play a move   type source/colour/destination (e.g. 3rf) or click a "
                     "factory to narrow   "
                     "space: let the others play   u: undo your move   Esc: clear   q: quit", id="help")

    def on_mount(self) -> None:
        """Draw the table, then let the strategies move until the person's turn."""
        table = self.table
        self.sub_title = f"you are seat {table.seat}; rules on {table.backend}; seed {table.seed}"
        self.query_one("#moves", OptionList).focus()
        self.show()
        self.advance()

    @property
    def thinking(self) -> bool:
        """True while the strategies' seats are still to move."""
        return self.table.others_to_move

    def advance(self) -> None:
        """One strategy move, then the next after `delay`, until the person's turn or the end."""
        if self.table.others_to_move:
            self.attempt(self.table.others_move)
            if self.delay > 0:
                self.set_timer(self.delay, self.advance)
            else:
                self.call_later(self.advance)

    def attempt(self, action: Any, *args: Any) -> None:
        """Do something to the game and redraw; a back-end or rule error becomes the message."""
        try:
            action(*args)
        except PysolveError as error:
            self.message = str(error)
        self.show()

    # -- drawing ------------------------------------------------------------------------------------
    def show(self) -> None:
        """Redraw the table, the prompt, the choices and the story from the game."""
        table = self.table
        self.query_one("#table", Static).update(coloured(table_text(table.state, table.names)))
        self.query_one("#prompt", Static).update(self.prompt())
        choices = self.query_one("#moves", OptionList)
        choices.set_options(self.options())
        choices.highlighted = 0 if choices.option_count and self.code_is_whole() else None
        told = [step.text for step in table.steps() if step.kind != "start"][-6:]
        self.query_one("#events", Static).update("\n".join(told))

    def prompt(self) -> Text:
        """What the person can do now, and the last message."""
        table = self.table
        if table.over:
            winners = table.match.winners
            verdict = "you win" if table.seat in winners else f"seat {', '.join(map(str, winners))} wins"
            log = f"; the log is {table.log_path}" if table.log_path else ""
            words = f"game over: scores {table.match.scores}, {verdict}{log}. q: quit"
        elif table.pending:
            words = "your move is on the table: space lets the others play, u takes it back"
        elif table.person_to_move and table.state.get("phase"):
            words = f"your wall: choose the column of your top full line (the cells marked ?){self.typed_note()}"
        elif table.person_to_move:
            words = f"your turn: choose a move{self.typed_note()}"
        else:
            words = f"seat {table.turn} ({table.names[table.turn]}) is moving..."
        text = Text(words)
        if self.message:
            text.append(f"\n{self.message}", Style(color="red"))
        return text

    def typed_note(self) -> str:
        """What the typed keys come to: nothing typed, a whole move, the rest still to type, or no move."""
        if not self.typed:
            return ""
        if not self.options():
            return f" (typed: {self.typed}: no legal move starts so; Backspace or Esc)"
        if len(self.typed) < CODE_LENGTH:
            return f" (typed: {self.typed}: type the rest, or pick one with the arrows)"
        return f" (typed: {self.typed}: Enter plays it)"

    def code_is_whole(self) -> bool:
        """True when Enter may play the top of the list.

        The continue / undo choice, or a typed code that names one legal move. With nothing typed nothing is
        highlighted: Enter waits for a move picked with the arrows (or typed).
        """
        return self.table.pending or len(self.typed) == CODE_LENGTH

    def options(self) -> list[Option]:
        """The person's legal moves (narrowed by the typed keys), or continue / undo after a move."""
        table = self.table
        if table.pending:
            return [Option("continue: let the next player move (space)", id=CONTINUE),
                    Option("undo: take my move back (u)", id=UNDO)]
        state = table.state
        return [Option(move_label(move, state), id=move_key(move)) for move in table.legal_moves()
                if move_key(move).startswith(self.typed)]

    # -- input --------------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A move chosen (Enter or a click), or continue / undo."""
        chosen = event.option.id
        self.message = ""
        if chosen == CONTINUE:
            self.action_go_on()
        elif chosen == UNDO:
            self.action_undo()
        else:
            move = next((move for move in self.table.legal_moves() if move_key(move) == chosen), None)
            if move is not None:
                self.typed = ""
                self.attempt(self.table.choose, move)

    def on_key(self, event: events.Key) -> None:
        """A typed source, colour or destination narrows the moves; any other letter or digit gets a word.

        Every code key is kept where it was typed, even one that no legal move has there, so later
        keys are never read in a shifted place. Esc and a key typed quickly after it reach the app as one
        key, `alt+` the key: read as both, the typed keys cleared, then the key.
        """
        if event.key.startswith(ALT) and len(event.key) == len(ALT) + 1:
            event.stop()
            self.action_clear()
            self.simulate_key(event.key[len(ALT):])
            return
        character = (event.character or (event.key if len(event.key) == 1 else "")).lower()
        if not self.table.person_to_move or not character.isprintable() or character in BOUND_KEYS:
            return
        event.stop()
        if character not in CODE_KEYS:
            self.message = (f"{character!r} is no key of a move: a source c or 1-9, a colour b y r k w, a "
                            "destination 1-5 or f (on the grey wall: w, the line, the column)")
            self.show()
        elif len(self.typed) >= CODE_LENGTH:
            self.message = f"{self.typed} is typed whole: Enter plays it, Backspace or Esc changes it"
            self.show()
        else:
            self.narrow(self.typed + character)

    def narrow(self, keys: str) -> None:
        """Show only the moves whose keys start with `keys` (none when no legal move does)."""
        self.typed, self.message = keys, ""
        self.show()

    def source_clicked(self, source: str) -> None:
        """A click on a factory or the centre: its moves only."""
        if self.table.person_to_move:
            self.narrow(source)

    def action_go_on(self) -> None:
        """The person's move stands: the others play."""
        if self.table.pending:
            self.table.confirm()
            self.show()
            self.advance()

    def action_undo(self) -> None:
        """Take back the person's move."""
        self.message = ""
        self.attempt(self.table.undo)

    def action_clear(self) -> None:
        """Forget the typed keys."""
        self.typed, self.message = "", ""
        self.show()

    def action_interrupt(self) -> None:
        """Ctrl-C: leave at once, with the exit status of an interrupt (the log is already written)."""
        self.exit(return_code=130)

    def action_erase(self) -> None:
        """Forget the last typed key."""
        self.typed = self.typed[:-1]
        self.show()


async def wait_for_turn(pilot: Pilot[None]) -> None:
    """Let the strategies' moves run until the person may act or the game is over."""
    app: AzulApp = pilot.app  # type: ignore[assignment]
    while app.thinking:
        await pilot.pause(0.01)
    await pilot.pause()


async def play_through(pilot: Pilot[None], choose: Sequence[str] = ("down", "enter"), undo_every: int = 0) -> int:
    """Play a whole game from the keyboard.

    Each turn press `choose`, then space (with `undo_every`, every n-th move is first taken back and
    chosen again); the number of the person's moves.
    """
    app: AzulApp = pilot.app  # type: ignore[assignment]
    moves = 0
    await wait_for_turn(pilot)
    while not app.table.over:
        for key in choose:
            await pilot.press(key)
        moves += 1
        if undo_every and moves % undo_every == 0 and app.table.pending:
            await pilot.press("u")
            for key in choose:
                await pilot.press(key)
        await pilot.press("space")
        await wait_for_turn(pilot)
    return moves


def screenshot(table: Table, moves: int, size: tuple[int, int] = (150, 42)) -> str:
    """Play the person's first `moves` turns (the first listed move each time) headless; an SVG screenshot."""

    async def run() -> str:
        app = AzulApp(table, 0)
        async with app.run_test(size=size) as pilot:
            await wait_for_turn(pilot)
            for _ in range(moves):
                await pilot.press("down", "enter", "space")
                await wait_for_turn(pilot)
            source = next(move_key(move)[0] for move in table.legal_moves() if move[0] != CENTRE)
            await pilot.press(source)  # narrow the list, as a person typing a factory's number would
            return app.export_screenshot(title="pysolve azul play")

    return asyncio.run(run())


def start(backend: str, players: int, seat: int, strategy: str, seed: int, variant: str, log: str | None,
          delay: float) -> int:
    """Run the full-screen game until the person quits; return the exit code.

    Run the full-screen game until the person quits (the options checked already, the table's before
    the screen starts); return the exit code.
    """
    others = [name.strip() for name in strategy.split(",") if name.strip()]
    table = Table(players, seat, others, backend, seed, log, variant)
    app = AzulApp(table, delay)
    try:
        app.run()
    finally:
        table.close()
    if log:
        print(f"wrote {log}", file=sys.stderr)
    return app.return_code or 0
