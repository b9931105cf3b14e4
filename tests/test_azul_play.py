"""A person at the Azul table: the game with undo and its log, the Textual app driven headless by the pilot
(whole games on each back end), and the `pysolve azul play` command's refusals."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from pysolve.azul.play import PERSON, Table
from pysolve.azul.play_app import (
    AzulApp,
    TableView,
    coloured,
    move_key,
    play_through,
    source_at,
    table_text,
    wait_for_turn,
)
from pysolve.azul.replay import story
from pysolve.cli import main
from pysolve.errors import InputError

DOCS = Path(__file__).resolve().parent.parent / "docs"


def run_app(table: Table, script, size=(150, 42)):
    """Run the app headless on `table` and return what `script(pilot)` returns."""

    async def run():
        app = AzulApp(table, 0)
        async with app.run_test(size=size) as pilot:
            return await script(pilot)

    return asyncio.run(run())


def screen(pilot) -> str:
    return "\n".join(strip.text for strip in pilot.app.screen._compositor.render_strips())


def prompt(pilot) -> str:
    """The prompt's words, unwrapped."""
    return str(pilot.app.query_one("#prompt", Static).content)


def test_undo_takes_back_the_persons_move_and_the_game_goes_on_identically(tmp_path):
    log = tmp_path / "game.jsonl"
    table = Table(3, 1, ["greedy", "random"], "python", 11, str(log))
    assert table.names == ["greedy", PERSON, "random"]
    while table.others_move():
        pass
    assert table.person_to_move and not table.pending
    with pytest.raises(InputError, match="nothing to take back"):
        table.undo()
    before, moves = table.state, table.legal_moves()
    table.choose(moves[-1])
    after = table.state
    assert table.pending and table.others_move() is None and table.legal_moves() == []
    with pytest.raises(InputError, match="not your turn"):
        table.choose(moves[0])
    table.undo()
    assert table.state == before and table.legal_moves() == moves
    table.choose(moves[-1])
    assert table.state == after
    table.confirm()
    assert table.others_move() is not None
    with pytest.raises(InputError, match="nothing to take back"):
        table.undo()  # the next player has acted
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records == table.records and records[0]["strategies"] == ["greedy", PERSON, "random"]
    table.close()


def test_an_undo_across_the_end_of_a_round_restores_the_deal():
    table = Table(2, 0, ["greedy"], "python", 5)
    undone = 0
    while not table.over:
        while table.others_move():
            pass
        if table.over:
            break
        move = table.legal_moves()[0]
        table.choose(move)
        after = table.state
        table.undo()
        table.choose(move)
        assert table.state == after  # the same tiles dealt again, from the same numbers of the stream
        undone += 1
        table.confirm()
    assert undone > 10 and table.records[-1]["type"] == "end"
    assert story(table.records)[-1].text.startswith("final scores")


@pytest.mark.slow
def test_a_whole_game_from_the_keyboard_with_undos_on_each_back_end(pysolve_backend, tmp_path):
    log = tmp_path / "game.jsonl"
    table = Table(2, 1, ["greedy"], pysolve_backend, 3, str(log))

    async def script(pilot):
        moves = await play_through(pilot, undo_every=3)
        return moves, screen(pilot)

    moves, shown = run_app(table, script)
    assert table.over and moves == sum(record.get("seat") == 1 for record in table.records)
    assert f"game over: scores {table.match.scores}" in shown and "the log is" in shown
    assert main(["azul", "replay", str(log)]) == 0


@pytest.mark.slow
def test_a_whole_grey_wall_game_from_the_keyboard():
    table = Table(3, 0, ["greedy", "random"], "python", 6, variant="grey")

    async def script(pilot):
        await play_through(pilot, choose=("end", "enter"))  # the last listed move each turn
        return screen(pilot)

    shown = run_app(table, script)
    assert table.over and table.records[0]["variant"] == "grey" and "game over" in shown
    assert any(record.get("seat") == 0 and record["move"][0] == -2 for record in table.records[1:-1])  # columns
    assert story(table.records)[0].text.startswith("game seed 6: 3 players (grey wall variant)")


@pytest.mark.slow
def test_typing_narrows_the_moves_and_escape_clears():
    table = Table(2, 0, ["random"], "python", 2)

    async def script(pilot):
        await wait_for_turn(pilot)
        choices = pilot.app.query_one(OptionList)
        everything = choices.option_count
        await pilot.press("c")
        only_centre = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        await pilot.press("escape")
        restored = choices.option_count
        source = move_key(table.legal_moves()[-1])
        await pilot.press(*source)
        exact = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        await pilot.press("enter")
        return everything, only_centre, restored, source, exact

    everything, only_centre, restored, source, exact = run_app(table, script)
    assert only_centre and all(key.startswith("c") for key in only_centre) and len(only_centre) < everything
    assert restored == everything and exact == [source]
    assert table.pending and move_key(tuple(table.records[-1]["move"])) == source


@pytest.mark.slow
def test_a_click_on_a_move_plays_it_and_a_click_on_undo_takes_it_back():
    table = Table(2, 0, ["random"], "python", 2)

    async def script(pilot):
        await wait_for_turn(pilot)
        first = move_key(table.legal_moves()[0])
        await pilot.click(OptionList, offset=(3, 1))  # the first option's line, inside the border
        played = table.pending and move_key(tuple(table.records[-1]["move"])) == first
        shown = screen(pilot)
        await pilot.click(OptionList, offset=(3, 2))  # the second option: undo
        return played, shown, table.pending

    played, shown, pending = run_app(table, script)
    assert played and "space lets the others play, u takes it back" in shown and not pending


@pytest.mark.slow
def test_a_click_on_a_factory_in_the_table_narrows_the_moves_to_it():
    table = Table(2, 0, ["random"], "python", 2)

    async def script(pilot):
        await wait_for_turn(pilot)
        view = pilot.app.query_one(TableView)
        lines = table_text(table.state, table.names).split("\n")
        row = next(index for index, line in enumerate(lines) if line.startswith("factories:"))
        number = next(str(move[0] + 1) for move in table.legal_moves() if move[0] >= 0)
        column = lines[row].index(f"F{number}[") + 2
        assert source_at("\n".join(lines), column, row) == number
        await pilot.click(TableView, offset=(column + view.styles.margin.left, row))
        choices = pilot.app.query_one(OptionList)
        listed = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        centre_row = row + 1 + lines[row + 1].startswith(" ")
        await pilot.click(TableView, offset=(3 + view.styles.margin.left, centre_row))
        return number, listed, pilot.app.typed

    number, listed, typed = run_app(table, script)
    assert listed and all(key.startswith(number) for key in listed) and typed == "c"


def test_ctrl_c_leaves_with_the_status_of_an_interrupt(tmp_path):
    log = tmp_path / "game.jsonl"
    table = Table(2, 0, ["greedy"], "python", 4, str(log))

    async def script(pilot):
        await wait_for_turn(pilot)
        await pilot.press("down", "enter", "ctrl+c")
        await pilot.pause()
        return pilot.app.return_code

    assert run_app(table, script) == 130
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[-1]["type"] == "move" and records[-1]["seat"] == 0  # the move made before is in the log


def test_the_table_text_puts_boards_two_abreast_with_tiles_coloured():
    table = Table(4, 2, ["greedy"], "python", 1)
    text = table_text(table.state, table.names)
    assert text.count("floor -1 -1 -2 -2 -2 -3 -3") == 4 and "seat 2 (you)" in text
    assert len(text.splitlines()) < 30 and max(map(len, text.splitlines())) < 100
    styled = coloured(text)
    assert styled.plain.rstrip("\n") == text.rstrip("\n") and any(span.style.bgcolor for span in styled.spans)


@pytest.mark.parametrize("command", [["play", "azul"], ["azul", "play"]])  # one command, two spellings
@pytest.mark.parametrize("argv, message", [
    (["--players", "5"], "2 to 4 players"),
    (["--seat", "2"], "--seat: a seat of 0..1, not 2"),
    (["--strategy", "clever"], "unknown strategy 'clever'"),
    (["--backend", "lisp"], "invalid choice: 'lisp'"),
    (["--delay", "-1"], "--delay: -1.0 is less than 0"),
    (["--delay", "nan"], "--delay: nan is not a finite number"),
    (["--variant", "blue"], "--variant: 'blue' is not one of standard, grey"),
    (["--log", "/nonexistent/dir/game.jsonl"], "does not exist"),
])
def test_the_play_command_refuses_bad_input_in_one_line(capsys, command, argv, message):
    assert main(command + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_docs_screenshot_is_the_apps():
    picture = (DOCS / "azul-play.svg").read_text().replace("&#160;", " ")
    assert "pysolve azul play" in picture and "your turn: choose a move" in picture and "factories:" in picture


def empty_source(table: Table) -> str | None:
    """The key of a factory (or the centre) that holds no tiles now, if any."""
    sources = [("c", table.state["centre"])] + [(str(number), held)
                                                for number, held in enumerate(table.state["factories"], 1)]
    return next((key for key, held in sources if not any(held)), None)


@pytest.mark.slow
def test_enter_after_an_unmatched_or_partial_code_plays_nothing():
    table = Table(2, 0, ["greedy"], "python", 3)  # as `pysolve azul play --seed 3`

    async def script(pilot):
        await wait_for_turn(pilot)
        while empty_source(table) is None:
            await pilot.press("enter", "space")
            await wait_for_turn(pilot)
        played = len(table.records)
        other = move_key(table.legal_moves()[-1])  # a legal move whose source its third key could be read as
        await pilot.press(empty_source(table), "b", other[0], "enter")
        refused = pilot.app.typed, len(table.records), table.pending, prompt(pilot)
        await pilot.press("escape", *other[:2], "enter")
        partial = len(table.records), table.pending, prompt(pilot)
        await pilot.press("down", "enter")
        return played, refused, partial, other, move_key(tuple(table.records[-1]["move"]))

    played, refused, partial, other, chosen = run_app(table, script)
    typed, records, pending, shown = refused
    assert len(typed) == 3 and records == played and not pending and "no legal move starts so" in shown
    records, pending, shown = partial
    assert records == played and not pending and "type the rest, or pick one with the arrows" in shown
    assert table.pending and len(table.records) == played + 1 and chosen.startswith(other[:2])


def at_your_wall(seed: int) -> Table:
    """A grey-wall table played (your moves: the last listed, onto a line) up to your first column choice."""
    table = Table(2, 0, ["greedy"], "python", seed, variant="grey")
    while not (table.person_to_move and table.state.get("phase") == "tiling"):
        assert not table.over
        if table.person_to_move:
            table.choose(table.legal_moves()[-1])
        table.confirm()
        table.others_move()
    return table


@pytest.mark.slow
def test_on_the_grey_wall_you_type_the_column_of_your_full_line():
    table = at_your_wall(3)
    columns = table.legal_moves()
    assert columns and all(move[0] == -2 for move in columns)
    chosen = columns[-1]
    key = move_key(chosen)

    async def script(pilot):
        await wait_for_turn(pilot)
        words = prompt(pilot)
        shown = screen(pilot)
        choices = pilot.app.query_one(OptionList)
        listed = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        await pilot.press(*key)
        exact = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        await pilot.press("enter")
        return words, shown, listed, exact

    words, shown, listed, exact = run_app(table, script)
    assert "choose the column" in words and "?" in shown and "chooses the wall column of" in shown  # wrapped
    assert listed == [move_key(move) for move in columns] and exact == [key] and key[0] == "w"
    assert table.records[-1]["move"] == list(chosen)
    row, column = chosen[1:]
    assert table.records[-1]["state"]["boards"][0]["wall"][row][column] == 1


@pytest.mark.slow
def test_enter_at_the_start_of_a_turn_plays_nothing_and_keys_of_no_move_get_a_word():
    table = Table(2, 0, ["greedy"], "python", 3)

    async def script(pilot):
        await wait_for_turn(pilot)
        choices = pilot.app.query_one(OptionList)
        played = len(table.records)
        highlighted = choices.highlighted
        await pilot.press("enter")
        after_enter = len(table.records), table.pending
        await pilot.press("x")
        no_key = prompt(pilot)
        await pilot.press(*move_key(table.legal_moves()[0]), "c")
        whole = pilot.app.typed, prompt(pilot)
        return played, highlighted, after_enter, no_key, whole

    played, highlighted, after_enter, no_key, whole = run_app(table, script)
    assert highlighted is None and after_enter == (played, False)
    assert "'x' is no key of a move: a source c or 1-9" in no_key
    typed, words = whole
    assert len(typed) == 3 and f"{typed} is typed whole: Enter plays it" in words


def test_escape_then_a_key_at_once_clears_and_types_the_key():
    table = Table(2, 0, ["random"], "python", 2)

    async def script(pilot):
        await wait_for_turn(pilot)
        await pilot.press("1", "b")
        before = pilot.app.typed
        await pilot.press("alt+c")  # what a terminal sends for Esc and c typed quickly
        await pilot.pause()
        return before, pilot.app.typed

    assert run_app(table, script) == ("1b", "c")


@pytest.mark.slow
def test_the_move_list_stays_in_place_all_game_whatever_the_notes_under_the_boards():
    table = Table(2, 0, ["greedy"], "python", 3)

    async def script(pilot):
        places, notes = set(), set()
        await wait_for_turn(pilot)
        while not table.over:
            places.add(pilot.app.query_one(OptionList).region.x)
            notes.add(table.state["marker"] == table.seat)  # the board's notes: to move, and holds the marker
            await pilot.press("down", "enter", "space")  # the first listed move: the centre's, when it has tiles
            await wait_for_turn(pilot)
        return places, notes

    places, notes = run_app(table, script)
    assert len(places) == 1 and notes == {True, False}


def test_the_table_text_keeps_its_width_from_the_first_move_to_the_last():
    table = Table(4, 1, ["greedy"], "python", 8, variant="grey")
    widths = set()
    while not table.over:
        widths |= set(map(len, table_text(table.state, table.names).splitlines()))
        if table.person_to_move:
            table.choose(table.legal_moves()[0])
        table.confirm()
        table.others_move()
    widths |= set(map(len, table_text(table.state, table.names).splitlines()))
    assert widths - {0} == {max(widths)}  # every line padded to the one width (blank lines between the parts)
    table.close()
