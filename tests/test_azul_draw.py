"""Azul pictures: the replay's story checked against every back end's scores, the text and SVG tables,
the HTML replay page and the `replay` command's outputs."""

from __future__ import annotations

import contextlib
import html
import json
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pysolve.azul import draw, svg
from pysolve.azul.match import play_match
from pysolve.azul.model import FLOOR_SLOTS, MARKER
from pysolve.azul.replay import read_log, settle, story, tile_points, why
from pysolve.azul.replay_page import frames, logged_games, page, page_steps, write_pictures
from pysolve.cli import main
from pysolve.errors import InputError

SVG = "{http://www.w3.org/2000/svg}"


def log_of(players: int = 2, seed: int = 4, backend: str = "python", strategies=("random", "greedy")) -> list[dict]:
    """The records of one logged game."""
    return play_match(players, seed, backend, list(strategies), log=True).log


def empty_wall() -> list[list[int]]:
    return [[0] * 5 for _ in range(5)]


@pytest.mark.parametrize("cells, at, expected", [
    ([], (2, 2), (1, 1, 1)),
    ([(2, 1)], (2, 2), (2, 2, 1)),
    ([(2, 0), (2, 1), (2, 3), (0, 2), (1, 2)], (2, 2), (7, 4, 3)),  # the rulebook's h = 4, v = 3 example
    ([(1, 2), (3, 2)], (2, 2), (3, 1, 3)),
])
def test_tile_points_explain_the_runs(cells, at, expected):
    wall = empty_wall()
    for row, column in [*cells, at]:
        wall[row][column] = 1
    assert tile_points(wall, *at) == expected
    assert why(*expected) == {1: "alone", 2: "row of 2", 7: "row of 4 + column of 3", 3: "column of 3"}[expected[0]]


def test_settle_puts_the_tiles_and_the_marker_where_the_rules_do():
    state = log_of()[0]["state"]
    seat = state["turn"]
    state["centre"] = [3, 0, 0, 0, 0]
    state["boards"][seat]["floor"] = [1] * 5
    after, placed = settle(state, (-1, 0, 1))  # 3 blue from the centre onto line 1: 1 fits, 2 overflow
    assert (placed.taken, placed.on_line, placed.marker) == (3, 1, True)
    assert after["boards"][seat]["floor"] == [1] * 5 + [MARKER, 0]  # the marker first, then one tile fits
    assert (placed.on_floor, placed.to_lid) == (1, 1) and after["lid"][0] == 1
    assert after["marker"] == seat and after["centre"] == [0] * 5
    assert len(after["boards"][seat]["floor"]) == FLOOR_SLOTS


def test_the_story_agrees_with_the_back_end_move_by_move_and_score_by_score(pysolve_backend):
    records = log_of(3, 2, pysolve_backend)
    steps = story(records)
    moves = [step for step in steps if step.kind == "move"]
    assert len(moves) == sum(record["type"] == "move" for record in records)
    final = [step for step in steps if step.kind == "bonus"][-1].state
    assert [board["score"] for board in final["boards"]] == records[-1]["scores"]
    gained = sum(int(re.search(r": \+(\d+) ", step.text).group(1)) for step in steps if step.kind == "tile")
    lost = sum(int(re.search(r": -(\d+);", step.text).group(1)) for step in steps if step.kind == "floor")
    assert gained > lost > 0  # some tiles scored and some floors cost, in every such game


@pytest.mark.slow
def test_grey_wall_games_are_told_with_their_chosen_cells_and_fallen_lines(pysolve_backend):
    fallen = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        records = play_match(players, seed, pysolve_backend, ["random", "greedy"], log=True, variant="grey").log
        steps = story(records)
        assert steps[0].text.startswith(f"game seed {seed}: {players} players (grey wall variant)")
        final = [step for step in steps if step.kind == "bonus"][-1].state
        assert [board["score"] for board in final["boards"]] == records[-1]["scores"]
        fallen += sum("fall to the floor" in step.text for step in steps)
        picture = svg.table_svg(final)
        assert 'href="#grey"' in picture and 'href="#e0"' not in picture  # no printed colours on a grey wall
        assert " . " in draw.board(final, 0)
    assert fallen >= 1  # random seats on a grey wall lose a full line now and then


@pytest.mark.slow
def test_each_column_choice_is_told_and_a_choice_the_wall_contradicts_is_refused(pysolve_backend):
    records = play_match(2, 4, pysolve_backend, ["greedy", "lookahead"], log=True, variant="grey").log
    choices = [record for record in records if record["type"] == "move" and record["move"][0] == -2]
    steps = story(records)
    told = [step for step in steps if step.kind == "move" and " chooses: line " in step.text]
    assert len(told) == len(choices) > 3
    waiting = [step for step in steps if step.kind == "choose"]
    assert len(waiting) == len(choices) and all(step.state["phase"] == "tiling" for step in waiting)
    assert "?" in draw.board(waiting[0].state, waiting[0].seat)  # the cells the chooser may take
    final = [step for step in steps if step.kind == "bonus"][-1].state
    assert [board["score"] for board in final["boards"]] == records[-1]["scores"]
    index = records.index(choices[0])
    row, column = choices[0]["move"][1:]
    wall = choices[0]["state"]["boards"][choices[0]["seat"]]["wall"]
    other = next(c for c in range(5) if c != column and not wall[row][c])
    records[index] = {**choices[0], "move": [-2, row, other]}
    with pytest.raises(InputError, match=f"log record {index + 1}: seat .* chose column {other + 1}"):
        story(records)


@pytest.mark.parametrize("name", ["grey-policy-2p-seed4.jsonl", "grey-policy-3p-seed7.jsonl"])
def test_grey_logs_recorded_before_the_choice_still_replay(name):
    records = read_log(Path(__file__).parent / "data" / "azul" / name)
    assert not any(record["type"] == "move" and record["move"][0] == -2 for record in records)
    steps = story(records)
    final = [step for step in steps if step.kind == "bonus"][-1].state
    assert [board["score"] for board in final["boards"]] == records[-1]["scores"]
    assert sum(step.kind == "tile" for step in steps) > 10 and "wall row" in draw.replay(records)


@pytest.mark.slow
def test_many_games_are_told_without_disagreeing_with_the_python_rules():
    for players in (2, 3, 4):
        for seed in range(6):
            steps = story(log_of(players, seed, strategies=("random", "greedy", "lookahead")))
            assert steps[-1].kind == "end"


def test_a_log_that_breaks_the_rules_is_refused_naming_the_record():
    records = log_of()
    records[5]["state"]["boards"][0]["score"] += 3
    records[5]["state"]["centre"][0] += 1
    with pytest.raises(InputError, match="log record 6: the logged state after .* differs in centre"):
        story(records)
    with pytest.raises(InputError, match="log record 1: a move before"):
        story(log_of()[1:])


def test_the_text_replay_shows_every_move_floor_penalty_and_the_scoring():
    records = log_of()
    text = draw.replay(records)
    assert text.count("\n  move ") == sum(record["type"] == "move" for record in records)
    assert "[the first-player marker]" in text and "takes the first-player marker onto the floor" in text
    assert "end of round 1: the walls are tiled" in text and re.search(r"wall row \d, column \d: \+\d+ \(", text)
    assert re.search(r"floor [MBYRKW ]+ \(\d items?\): -\d+; score \d+ -> \d+", text)
    assert "floor -1 -1 -2 -2 -2 -3 -3" in text and "bonuses" in text and "final scores" in text
    assert "centre:    1 " not in text  # the bare 1 is gone
    every = draw.replay(records, every_move=True)
    assert every.count("factories: F1[") > text.count("factories: F1[")


def uses(picture: str) -> list[str]:
    """The shapes a picture places, by name (t0..t4 tiles, m the marker, e/grey/slot the empty places)."""
    root = ElementTree.fromstring(picture)
    return [element.get("href")[1:] for element in root.iter(f"{SVG}use")]


def test_the_svg_table_holds_every_tile_on_the_table_and_names_the_marker():
    for step in story(log_of(4, 3))[:40]:
        picture = svg.table_svg(step.state, step.names, step.text, step.focus, step.seat)
        state = step.state
        on_table = (sum(map(sum, state["factories"])) + sum(state["centre"])
                    + sum(count for board in state["boards"] for _, count in board["lines"])
                    + sum(map(sum, (cells for board in state["boards"] for cells in board["wall"])))
                    + sum(item != MARKER for board in state["boards"] for item in board["floor"]))
        shapes = uses(picture)
        assert sum(shape in ("t0", "t1", "t2", "t3", "t4") for shape in shapes) == on_table
        in_centre = state["marker"] == -1 and not state["over"]
        on_floor = sum(item == MARKER for board in state["boards"] for item in board["floor"])
        assert shapes.count("m") == in_centre + on_floor
        assert (">the first-player marker</text>" in picture) == in_centre
        assert step.text.split(":")[0] in picture


def test_the_replay_page_stores_each_distinct_part_once_and_numbers_the_steps():
    records = log_of()
    steps = page_steps(records)
    distinct, [numbered], (width, height) = frames(logged_games(records))
    assert len(distinct) == len(set(distinct)) and len(numbered) == len(steps)
    assert all(0 <= part < len(distinct) for row in numbered for part in row)
    text = page(records, "seed 4")
    assert all(f'id="{button}"' in text for button in ("play", "pause", "step", "back", "round", "restart"))
    [game] = json.loads(re.search(r"const DATA = (\{.*?\});", text).group(1))["games"]
    assert game["texts"] == [step.text for step in steps] and game["frames"] == numbered
    assert "<label hidden>1 games" in text and f'viewBox="0 0 {width} {height}"' in text
    assert "http" not in text.replace("http://www.w3.org/2000/svg", "")  # self-contained


def test_the_replay_command_writes_the_page_and_a_step_as_svg(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["azul", "simulate", "--games", "1", "--seed", "4", "--log", str(log)]) == 0
    page_file, picture = tmp_path / "game.html", tmp_path / "step.svg"
    capsys.readouterr()
    assert main(["azul", "replay", str(log), "--html", str(page_file), "--svg", str(picture), "--step", "12"]) == 0
    told = capsys.readouterr()
    assert told.out == "" and told.err == f"wrote {page_file}\nwrote {picture}\n"  # where, not the story again
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert html.escape(page_steps(records)[11].text) in picture.read_text() and "<script>" in page_file.read_text()
    assert main(["azul", "replay", str(log), "--svg", str(tmp_path / "late.svg"), "--step", "999"]) == 2
    error = capsys.readouterr().err
    assert "--step 999: game 1 has steps 1 to" in error and error.count("\n") == 1
    assert main(["azul", "replay", str(log), "--html", str(tmp_path / "missing" / "x.html")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.html", "game.jsonl", "step.svg"]


def test_write_pictures_refuses_a_bad_step_before_writing_anything(tmp_path):
    with pytest.raises(InputError, match="--step -1"):
        write_pictures(log_of(), str(tmp_path / "a.html"), None, -1)
    assert not list(tmp_path.iterdir())


def test_the_docs_pictures_are_the_ones_the_code_draws():
    docs = Path(__file__).resolve().parent.parent / "docs"
    picture = (docs / "azul-table.svg").read_text()
    assert ElementTree.fromstring(picture).tag == f"{SVG}svg" and "first-player marker" in picture


def test_the_tournament_chart_draws_each_strategy_from_the_summary(tmp_path, capsys):
    from pysolve.azul import tournament
    from pysolve.azul.charts import chart, quartiles

    assert quartiles([1, 2, 3, 4, 5]) == (2, 3, 4) and quartiles([7]) == (7, 7, 7)
    results = tournament.run(tournament.tasks(2, 12, 3, "python", ["random", "greedy"]))
    picture = chart(results)
    root = ElementTree.fromstring(picture)
    summary = tournament.summarise(results)
    bars = [float(rect.get("width")) for rect in root.iter(f"{SVG}rect") if rect.get("fill-opacity") == "0.75"]
    assert bars == [pytest.approx(standing["win_rate"] * 460) for standing in summary["strategies"]]
    assert sum(1 for circle in root.iter(f"{SVG}circle") if circle.get("r") == "1.8") == 2 * len(results)
    for standing in summary["strategies"]:
        low, high = standing["win_ci95"]
        assert f"{standing['win_rate']:.2f} ({low:.2f}-{high:.2f}), {standing['wins']}/{standing['seats']}" in picture
    out = tmp_path / "chart.svg"
    assert main(["azul", "simulate", "--games", "4", "--strategy", "random,greedy", "--chart", str(out)]) == 0
    assert "Win rate" in out.read_text() and f"wrote {out}" in capsys.readouterr().err


@contextlib.contextmanager
def opened(records: list[dict], folder: Path, chromium: Path) -> Iterator[Any]:
    """The replay page of `records`, written into `folder`, in headless Chromium (conftest.find_chromium); on
    leaving, no JavaScript error may have happened."""
    from playwright.sync_api import sync_playwright

    page_file = folder / "replay.html"
    page_file.write_text(page(records))
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            view = browser.new_page()
            view.on("pageerror", lambda error: errors.append(str(error)))
            view.goto(page_file.as_uri())
            yield view
        finally:
            browser.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.slow
@pytest.mark.browser
def test_the_replay_page_plays_pauses_and_steps_in_a_real_browser(tmp_path, chromium):
    records = log_of()
    steps = page_steps(records)
    with opened(records, tmp_path, chromium) as view:
        where = view.locator("#where")
        assert where.inner_text() == f"step 1 of {len(steps)}"
        for _ in range(3):
            view.click("#step")
        view.click("#back")
        assert where.inner_text() == f"step 3 of {len(steps)}"
        assert view.locator("#now").inner_text() == steps[2].text
        view.click("#round")
        assert view.locator("#now").inner_text().startswith("end of round 1")
        assert view.locator("#table use").count() > 20  # the boards are drawn
        view.locator("#steps li").nth(20).click()
        assert where.inner_text() == f"step 21 of {len(steps)}"
        view.fill("#speed", "20")
        view.click("#play")
        view.wait_for_function("document.getElementById('where').textContent.startsWith('step 2') === false")
        view.click("#pause")
        paused = where.inner_text()
        view.wait_for_timeout(300)
        assert where.inner_text() == paused != f"step 21 of {len(steps)}"
        view.goto(view.url + "#step=40")
        assert where.inner_text() == f"step 40 of {len(steps)}"


def games_log(count: int = 4) -> list[dict]:
    """The records of `count` games logged one after another, as `simulate --games N --log` writes them (the
    third with three players, so that the page must empty a board's place when it shows a two-player game)."""
    return [record for seed in range(count) for record in log_of(3 if seed == 2 else 2, seed)]


@pytest.mark.slow
def test_the_replay_page_of_a_log_of_several_games_holds_every_game():
    records = games_log()
    games = logged_games(records)
    text = page(records)
    data = json.loads(re.search(r"const DATA = (\{.*?\});", text).group(1))
    assert [len(game["texts"]) for game in data["games"]] == [len(game.steps) for game in games]
    assert [game["texts"] for game in data["games"]] == [[step.text for step in game.steps] for game in games]
    assert text.count("<option ") == 4 and "4 games: <select" in text and "<label hidden" not in text
    assert [game.title.split(":")[0] for game in games] == [f"game seed {seed}" for seed in range(4)]
    assert page_steps(records) == games[0].steps


@pytest.mark.slow
def test_the_replay_command_draws_a_step_of_the_game_asked_for(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    records = games_log(3)
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    games = logged_games(records)
    for number, game in enumerate(games, 1):
        picture = tmp_path / f"game{number}.svg"
        assert main(["azul", "replay", str(log), "--svg", str(picture), "--game", str(number), "--step", "5"]) == 0
        assert html.escape(game.steps[4].text) in picture.read_text()
        assert page_steps(records, number) == game.steps
    assert len({(tmp_path / f"game{number}.svg").read_text() for number in (1, 2, 3)}) == 3  # three games drawn
    capsys.readouterr()
    for wrong in ("0", "4", "-1"):
        assert main(["azul", "replay", str(log), "--svg", str(tmp_path / "x.svg"), "--game", wrong]) == 2
        assert capsys.readouterr().err == f"pysolve: error: --game {wrong}: the log holds games 1 to 3\n"
    last = len(games[2].steps)
    assert main(["azul", "replay", str(log), "--svg", str(tmp_path / "x.svg"), "--game", "3", "--step",
                 str(last + 1)]) == 2
    assert f"--step {last + 1}: game 3 has steps 1 to {last}" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()
    with pytest.raises(InputError, match=r"^--game 2: the log holds one game \(1\)$"):
        page_steps(log_of(), 2)


def test_a_logged_name_cannot_close_the_pages_script():
    records = log_of()
    records[0] = {**records[0], "strategies": ["</script><b>x", "greedy"]}
    text = page(records)
    assert "</script><b>" not in text and text.count("</script>") == 1


@pytest.mark.slow
@pytest.mark.browser
def test_picking_a_game_on_the_replay_page_shows_that_game_in_a_real_browser(tmp_path, chromium):
    records = games_log()
    games = logged_games(records)
    with opened(records, tmp_path, chromium) as view:
        where = view.locator("#where")
        assert where.inner_text() == f"step 1 of {len(games[0].steps)}"
        view.select_option("#game", "2")  # the third game, the one with three players
        assert where.inner_text() == f"step 1 of {len(games[2].steps)}"
        assert view.locator("#steps li").count() == len(games[2].steps)
        assert view.locator("#steps li").nth(5).inner_text() == games[2].steps[5].text
        three = view.locator("#table text", has_text="score").count()
        view.select_option("#game", "1")
        view.click("#step")
        assert where.inner_text() == f"step 2 of {len(games[1].steps)}"
        assert view.locator("#now").inner_text() == games[1].steps[1].text
        assert (three, view.locator("#table text", has_text="score").count()) == (3, 2)
        view.goto(view.url + "#game=4&step=30")
        assert view.locator("#game").input_value() == "3"
        assert view.locator("#now").inner_text() == games[3].steps[29].text
