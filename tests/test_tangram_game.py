"""The tangram game: rules of play asked of the back ends, the app driven headless by Textual's pilot, the command."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import cli
from pysolve.pytest_plugin import assert_backends_agree, needs_prolog
from pysolve.tangram import api
from pysolve.tangram.model import Question, make_placement
from pysolve.tangram.model import options as reference_options
from pysolve.tangram.play import Game, completion
from pysolve.tangram.play_app import (
    CELL_WIDTH,
    LABEL,
    BoardView,
    TangramApp,
    cell_at,
    cell_position,
    perform,
    screenshot,
)
from pysolve.tangram.puzzle import PUZZLE
from pysolve.tangram.reader import load_instance, parse_instance

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = load_instance()
FIRST = [("green", 0, 0), ("blue", 0, 2), ("red", 7, 0), ("orange", 0, 7), ("pink", 4, 0), ("yellow", 7, 8)]
KEYS = {"green": "1", "blue": "2", "red": "3", "orange": "4", "pink": "5", "yellow": "6"}
MID_GAME = ["1", (0, 0), "enter", "2", (0, 2), "t", "3", (7, 0)]  # the docs' screenshot
REAL_RUN = TangramApp.run  # the fixture below keeps tests from starting a real screen
SMALL = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_game(steps, backend, instance=CLASSIC, check=None, size=(90, 28)):
    """Start a game, play the scripted steps headless, and return `check(app)` (default: the app)."""

    async def run():
        app = TangramApp(Game.start(PUZZLE, instance, backend))
        async with app.run_test(size=size) as pilot:
            await perform(pilot, steps)
            return check(app) if check else app

    return asyncio.run(run())


@pytest.fixture
def play(pysolve_backends):
    """`play_game` on the session's first back end, unless a test names another."""

    def play_on(steps, backend=pysolve_backends[0], **options):
        return play_game(steps, backend, **options)

    return play_on


def screen(app) -> list[str]:
    """The screen as text lines."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def text(app) -> str:
    """The screen as one string."""
    return "\n".join(screen(app))


def shown_cells(app) -> dict[tuple[int, int], str]:
    """Board cell -> the two characters on screen, read at the board widget's place."""
    lines, region, instance = screen(app), app.query_one(BoardView).content_region, app.game.instance
    cells = {}
    for x in range(instance.width):
        for y in range(instance.height):
            column, row = cell_position(instance, (x, y))
            cells[(x, y)] = lines[region.y + row][region.x + column:region.x + column + CELL_WIDTH]
    return cells


def marked(app, text="* "):
    return {cell for cell, shown in shown_cells(app).items() if shown == text}


def state(app):
    """Everything a move could change."""
    game = app.game
    return (dict(game.board), set(game.fixed), game.selected, game.preview, game.cursor, game.hint, game.message,
            len(game.history))


def winning_steps(order=FIRST, how="enter"):
    return [step for name, x, y in order for step in (KEYS[name], (x, y), how)]


# ---------------------------------------------------------------- whole games

@pytest.mark.slow
def test_a_whole_winning_game_by_mouse_then_input_changes_nothing(play):
    def check(app):
        won = state(app), screen(app)
        assert app.game.won and app.game.fixed == set(CLASSIC.names)
        assert "Solved! Every piece is placed for good." in "\n".join(won[1])
        assert "beside the board: nothing" in "\n".join(won[1])
        assert set(shown_cells(app).values()) == {f"{key}X" for key in KEYS.values()}
        return won

    won = play(winning_steps(), check=check)
    after = play(winning_steps() + ["2", (5, 5), "t", "escape", "h", "u", "left", "space", "enter", "1"],
                 check=lambda app: (state(app), screen(app)))
    assert after == won


@pytest.mark.slow
@pytest.mark.pysolve_backends("kanren", "python")
def test_a_whole_game_by_keyboard_on_other_back_ends(play, pysolve_backend):
    steps, cursor = [], (0, 0)
    for name, x, y in FIRST:
        dx, dy = x - cursor[0], y - cursor[1]
        steps += [KEYS[name]] + ["right" if dx > 0 else "left"] * abs(dx) + ["up" if dy > 0 else "down"] * abs(dy)
        steps += ["space", "enter"]
        cursor = (x, y)
    app = play(steps, pysolve_backend)
    assert app.game.won
    assert CLASSIC.sort(app.game.board.values()) == tuple(make_placement(CLASSIC, *p) for p in FIRST)
    assert api.validate(CLASSIC, tuple(app.game.board.values()), backend="python") == []


@pytest.mark.slow
@pytest.mark.parametrize("key", ["enter", "t"])
def test_enter_or_t_with_nothing_previewed_does_nothing(play, key):
    before = play(["6", "right", "right"], check=lambda app: (state(app)[:6], shown_cells(app)))
    after, message = play(["6", "right", "right", key], check=lambda app: ((state(app)[:6], shown_cells(app)),
                                                                           app.game.message))
    assert after == before and before[0][0] == {} and before[0][2] == "yellow"  # nothing placed, still selected
    assert message.startswith("nothing previewed: choose a * cell for yellow")
    nothing_selected = play([key, (0, 0), key], check=lambda app: (app.game.board, app.game.fixed))
    assert nothing_selected == ({}, set())


@pytest.mark.slow
def test_ctrl_click_places_temporarily_as_the_original_ctrl(play):
    board, fixed, selected, cells = play(["6", ("ctrl", (2, 0))], check=lambda app: (
        dict(app.game.board), set(app.game.fixed), app.game.selected, shown_cells(app)))
    assert board == {"yellow": make_placement(CLASSIC, "yellow", 2, 0)} and fixed == set() and selected is None
    assert cells[(2, 0)] == "6 "
    previewed = play(["3", (7, 0), ("ctrl", (7, 0))], check=lambda app: dict(app.game.board))  # the preview put down
    assert previewed == {"red": make_placement(CLASSIC, "red", 7, 0)}
    ignored = play(["3", ("ctrl", (0, 5))], check=lambda app: (dict(app.game.board), app.game.selected))
    assert ignored == ({}, "red")  # not an option: nothing placed
    by_key = play(["3", (7, 0), "ctrl+enter"], check=lambda app: (dict(app.game.board), set(app.game.fixed)))
    assert by_key == ({"red": make_placement(CLASSIC, "red", 7, 0)}, set())  # where the terminal reports Ctrl+Enter


# ---------------------------------------------------------------- selection and options

def test_nothing_selected_at_start_and_the_selected_piece_is_named(play):
    lines = " ".join(play([], check=text).split())  # the help line may wrap
    assert "selected piece: none" in lines
    assert all(words in lines for words in ("1-6 select", "t or Ctrl+click temporary", "Enter definitive", "h hint"))
    named = play(["4"], check=text)
    assert "selected piece: orange (4)" in named


def test_the_selected_pieces_name_is_shown_in_its_colour(play):
    def styles_of(app, word):
        status = app.query_one("#status").region
        line = app.screen._compositor.render_strips()[status.y]
        return [segment.style for segment in line if word in segment.text]

    for key, name in (("4", "orange"), ("6", "yellow")):
        (style,) = play([key], check=lambda app, name=name: styles_of(app, name))
        colour = CLASSIC.piece(name).colour
        assert style.bgcolor.triplet.hex == colour
    (plain,) = play([], check=lambda app: styles_of(app, "none"))
    assert plain.bgcolor is None or plain.bgcolor.triplet.hex not in {p.colour for p in CLASSIC.pieces}


@pytest.mark.slow
def test_the_stars_are_the_back_ends_options(play, pysolve_backend):
    placed = (make_placement(CLASSIC, "green", 0, 0), make_placement(CLASSIC, "pink", 4, 0))
    asked = api.options(CLASSIC, placed, "orange", pysolve_backend)
    stars, choices = play(["1", (0, 0), "t", "5", (4, 0), "enter", "4"], pysolve_backend,
                          check=lambda app: (marked(app), app.game.choices))
    reference = reference_options(CLASSIC, CLASSIC.free_mask(placed), "orange")
    assert stars == {(p.x, p.y) for p in asked} == {(p.x, p.y) for p in reference}
    assert stars == {(0, 7), (1, 7), (2, 7), (3, 7)} and choices == asked  # 7 wide, 3 high: only the top band


@pytest.mark.slow
def test_options_of_a_partial_board_agree_on_every_back_end(play, pysolve_backends):
    placed = (make_placement(CLASSIC, "green", 0, 0), make_placement(CLASSIC, "blue", 0, 2))
    report = assert_backends_agree(PUZZLE, question=Question(CLASSIC, "options", placed=placed, piece="red"))
    assert set(report.results) == set(pysolve_backends)
    assert [(p["x"], p["y"]) for p in report.results["python"].solutions] == sorted(play(
        ["1", (0, 0), "t", "2", (0, 2), "t", "3"], check=marked))


@pytest.mark.slow
def test_an_illegal_click_is_ignored(play):
    def check(app):
        return state(app)[:4], app.game.message

    before, _ = play(["3", (1, 0)], check=check)
    after, message = play(["3", (1, 0), (9, 9), (0, 5)], check=check)
    assert after == before and before[3] == make_placement(CLASSIC, "red", 1, 0)
    assert "0,5 is not an option for red" in message


@pytest.mark.slow
def test_a_click_off_the_cells_does_nothing(play):
    assert cell_at(CLASSIC, LABEL - 1, 0) is None and cell_at(CLASSIC, LABEL, CLASSIC.height) is None
    app = play(["3"], check=lambda app: state(app))
    assert app[3] is None


@pytest.mark.slow
def test_clicking_an_option_again_turns_the_piece_when_rotations_are_on(play):
    small = parse_instance("board 3 2\nrotations yes\npiece 1 bar #cc3333 1 2\npiece 2 box #3366cc 2 2\n", "small")
    first, lines = play(["1", (0, 0)], instance=small, check=lambda app: (app.game.preview, text(app)))
    turned = play(["1", (0, 0), (0, 0)], instance=small, check=lambda app: app.game.preview)
    assert (first.width, first.height) == (1, 2) and (turned.width, turned.height) == (2, 1)
    assert "preview (again: turn)" in lines and "(again: turn)" not in play([], check=text)


# ---------------------------------------------------------------- temporary and definitive pieces

@pytest.mark.slow
def test_a_definitive_piece_shows_x_and_cannot_be_selected_again(play):
    def check(app):
        return app.game.selected, app.game.message, shown_cells(app)[(0, 0)], "\n".join(screen(app))

    selected, message, cell, lines = play(["1", (0, 0), "enter", "1"], check=check)
    assert selected is None and "green is placed for good" in message and cell == "1X"  # its number, and the X
    assert "selected piece: none" in lines
    assert play(["1", (0, 0), "enter", (1, 1)], check=lambda app: app.game.selected) is None


@pytest.mark.slow
def test_a_temporary_piece_can_be_selected_again_and_moved(play):
    def check(app):
        return app.game.board["green"], shown_cells(app)

    moved, cells = play(["1", (0, 0), "t", "1", (6, 8), "t"], check=check)
    assert moved == make_placement(CLASSIC, "green", 6, 8)
    assert cells[(6, 8)] == "1 " and cells[(0, 0)] == ". "
    by_click = play(["1", (0, 0), "t", (1, 1)], check=lambda app: (app.game.selected, len(app.game.choices)))
    assert by_click == ("green", 63)  # lifted: its own cells are free again for its options


@pytest.mark.slow
def test_escape_takes_the_piece_back_beside_the_board(play):
    def check(app):
        return dict(app.game.board), app.game.selected, app.game.waiting, "\n".join(screen(app))

    board, selected, waiting, lines = play(["1", (0, 0), "t", "1", "escape"], check=check)
    assert board == {} and selected is None and waiting == CLASSIC.names and "1 green" in lines
    board, selected, _, lines = play(["2", (0, 2), "escape"], check=check)
    assert board == {} and selected is None and "2 blue" in lines and "▒" not in lines


@pytest.mark.slow
def test_pieces_beside_the_board_are_drawn_with_their_numbers(play):
    lines = play(["1", (0, 0), "enter"], check=text)
    for name in CLASSIC.names[1:]:
        assert f"{KEYS[name]} {name}" in lines
    assert "1 green" not in lines
    assert "4 4 4 4 4 4 4" in lines  # orange, 7 cells across


@pytest.mark.slow
def test_undo_takes_back_temporary_moves_but_not_definitive_ones(play):
    def check(app):
        return dict(app.game.board), app.game.message

    board, _ = play(["1", (0, 0), "t", "1", (6, 8), "t", "u"], check=check)
    assert board == {"green": make_placement(CLASSIC, "green", 0, 0)}
    board, _ = play(["1", (0, 0), "t", "u"], check=check)
    assert board == {}
    board, message = play(["1", (0, 0), "enter", "2", (0, 2), "t", "u", "u"], check=check)
    assert board == {"green": make_placement(CLASSIC, "green", 0, 0)} and "nothing to undo" in message


def test_a_files_place_lines_are_given_pieces(play):
    text = CLASSIC.to_text() + "place green 0 0\nplace blue 0 2\n"
    given = parse_instance(text, "given")
    fixed, selected, cell = play(["1"], instance=given,
                                 check=lambda app: (app.game.fixed, app.game.selected, shown_cells(app)[(0, 2)]))
    assert fixed == {"green", "blue"} and selected is None and cell == "2X"


# ---------------------------------------------------------------- hints

def test_a_hint_shows_one_completion_from_the_back_end(play):
    def check(app):
        return app.game.hint, app.game.message, shown_cells(app)

    hint, message, cells = play(["1", (0, 0), "enter", "h"], check=check)
    placed = (make_placement(CLASSIC, "green", 0, 0),)
    assert hint and "it can be completed" in message
    assert api.validate(CLASSIC, placed + hint, backend="python") == []
    assert all(cells[cell] == f"{KEYS[p.piece]}·" for p in hint for cell in p.cells())


def test_a_hint_on_a_dead_end_says_so(play):
    hint, message = play(["1", (1, 0), "t", "h"], check=lambda app: (app.game.hint, app.game.message))
    assert hint == () and message.startswith("dead end")


def test_every_back_end_sees_the_dead_end(pysolve_backend):
    assert completion(PUZZLE, CLASSIC, (make_placement(CLASSIC, "green", 1, 0),), pysolve_backend) is None


@pytest.mark.slow
def test_completions_of_the_games_board_agree_on_every_back_end(play, pysolve_backends):
    placed = (make_placement(CLASSIC, "green", 0, 0), make_placement(CLASSIC, "yellow", 4, 0))
    report = assert_backends_agree(PUZZLE, question=Question(CLASSIC, "first", "cell", placed=placed))
    assert set(report.results) == set(pysolve_backends)
    hint = play(["1", (0, 0), "t", "6", (4, 0), "t", "h"], check=lambda app: app.game.hint)
    assert [(p.piece, p.x, p.y) for p in CLASSIC.sort(placed + hint)] == [
        (p["piece"], p["x"], p["y"]) for p in report.results["python"].solutions[0]]


@pytest.mark.slow
@SMALL
@given(moves=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 200), st.booleans()), min_size=1, max_size=6))
def test_random_games_ask_the_same_of_every_back_end(pysolve_backends, moves):
    games = {name: Game.start(PUZZLE, CLASSIC, name) for name in pysolve_backends}
    for piece, option, definitive in moves:
        for game in games.values():
            name = CLASSIC.names[piece]
            game.select(name)
            if game.choices:
                game.choose((game.choices[option % len(game.choices)].x, game.choices[option % len(game.choices)].y))
                game.place(definitive)
            else:
                game.escape()
        boards = {name: (game.board, game.fixed, game.message) for name, game in games.items()}
        assert len({repr(board) for board in boards.values()}) == 1, boards
    for game in games.values():
        game.ask_hint()
    dead = {name: game.message.startswith("dead end") for name, game in games.items()}
    assert len(set(dead.values())) == 1
    for game in games.values():
        assert game.message.startswith("dead end") or api.validate(CLASSIC, game.placed() + game.hint) == []


# ---------------------------------------------------------------- the command

@pytest.fixture
def no_screen(monkeypatch):
    """No real screen: a game that starts fails the test."""
    monkeypatch.setattr(TangramApp, "run", lambda app: pytest.fail("the game's screen started"))


def one_line_error(capsys, argv):
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    return err


def test_bad_files_fail_before_the_screen_starts(no_screen, capsys, tmp_path):
    assert "no such file" in one_line_error(capsys, ["play", "tangram", str(tmp_path / "none.txt")])
    overlap = tmp_path / "overlap.txt"
    overlap.write_text(CLASSIC.to_text() + "place green 0 0\nplace blue 1 1\n")
    assert "green and blue overlap" in one_line_error(capsys, ["play", "tangram", str(overlap)])
    clash = tmp_path / "clash.txt"
    clash.write_text(CLASSIC.to_text().replace("piece 6 yellow", "piece h yellow"))
    assert "key 'h' is the game's key for hint" in one_line_error(capsys, ["play", "tangram", str(clash)])


@pytest.mark.subprocess
def test_an_unavailable_back_end_fails_before_the_screen_starts(no_screen, capsys):
    env = {**os.environ, "PYSOLVE_NO_PROLOG": "1"}  # in a fresh process: this one has Prolog loaded
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", "play", "tangram", "--backend", "prolog"],
                          env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "back end 'prolog' is unavailable" in done.stderr
    assert cli.main(["play", "tangram", "--backend", "nope"]) == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


@pytest.mark.slow
def test_the_command_starts_the_game_on_the_chosen_back_end(no_screen, monkeypatch):
    seen = {}

    async def pilot(pilot):
        await perform(pilot, ["1", (0, 0), "t"])
        seen.update(backend=pilot.app.game.backend, board=dict(pilot.app.game.board))
        await pilot.press("q")

    monkeypatch.setattr(TangramApp, "run", lambda app: REAL_RUN(app, headless=True, size=(90, 28), auto_pilot=pilot))
    assert cli.main(["play", "tangram", "--backend", "kanren"]) == 0
    assert seen == {"backend": "kanren", "board": {"green": make_placement(CLASSIC, "green", 0, 0)}}


# ---------------------------------------------------------------- the docs' picture

def svg_text(svg: str) -> list[str]:
    return [unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


@pytest.mark.slow
@needs_prolog
def test_the_docs_screenshot_is_the_mid_game_board():
    picture = (ROOT / "docs" / "tangram-game.svg").read_text(encoding="utf-8")
    assert svg_text(picture) == svg_text(screenshot(Game.start(PUZZLE, CLASSIC, "prolog"), MID_GAME))
    assert "selected piece: red (3)" in "".join(svg_text(picture)).replace("\xa0", " ")
    assert "tangram-game.svg" in (ROOT / "docs" / "tangram-game.md").read_text(encoding="utf-8")
    assert "docs/tangram-game.md" in (ROOT / "README.md").read_text(encoding="utf-8")
