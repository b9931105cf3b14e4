"""The pages in a real headless Chromium (Debian's, driven by Playwright): whole games by mouse and keys.

Each test also saves a screenshot of its page; with PYSOLVE_SCREENSHOTS=1 (and
SWI-Prolog, the default back end) into docs/, the pictures docs/web.md shows,
otherwise into a temporary folder, so that a test run leaves the tree as it was.
Chromium comes from the set-up (`.ci/install-browser`) and is found on the PATH
(conftest's `chromium`: PYSOLVE_CHROMIUM names another); only where there is
none are these tests skipped, saying so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CHROMIUM_VARIABLE, find_chromium
from playwright.sync_api import Browser, Locator, Page, sync_playwright
from test_web import serving

from pysolve import api, cli
from pysolve.bridge import HIDE_VARIABLE
from pysolve.hidato import model as hidato_model
from pysolve.web import azul

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]  # containers often have a small /dev/shm
CELL, LABEL = 40, 22  # the tangram board's cell size and row-label width in static/tangram.js

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def base(pysolve_backends: list[str]) -> Iterator[str]:
    with serving(pysolve_backends[0]) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Debian's Chromium (conftest's `chromium`), headless, with a fresh profile."""
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(chromium), args=ARGS,
            headless=True, viewport={"width": 1280, "height": 900})
        yield context  # type: ignore[misc]  (a persistent context opens pages as a browser does)
        context.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, f"JavaScript errors: {errors}"


def settle(page: Page) -> None:
    """Wait until the page has no request of its own in flight."""
    page.wait_for_function("document.body.dataset.pending === '0'", timeout=60_000)


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: docs/ when PYSOLVE_SCREENSHOTS asks for them (never while Prolog is hidden on
    purpose: the docs show the default back end), else a temporary folder."""
    wanted = os.environ.get("PYSOLVE_SCREENSHOTS") and not os.environ.get(HIDE_VARIABLE)
    return ROOT / "docs" if wanted else tmp_path_factory.mktemp("screenshots")


def screenshot(target: Page | Locator, folder: Path, name: str) -> None:
    """Save a PNG of the page (whole) or of one element as web-NAME.png, and check it was written."""
    path = folder / f"web-{name}.png"
    if isinstance(target, Page):
        target.screenshot(path=str(path), full_page=True)
    else:
        target.screenshot(path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chromium_is_found_without_being_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pytest tests/test_web_browser.py` needs no option: the chromium on the PATH is found (Playwright's own
    browser is never installed); PYSOLVE_CHROMIUM names another; with neither there is none."""
    program = tmp_path / "chromium"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.delenv(CHROMIUM_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_chromium() == program
    monkeypatch.setenv(CHROMIUM_VARIABLE, "/opt/chrome/chrome")
    assert find_chromium() == Path("/opt/chrome/chrome")
    monkeypatch.delenv(CHROMIUM_VARIABLE)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert find_chromium() is None


# ---------------------------------------------------------------- tangram

def click_cell(page: Page, x: int, y: int, ctrl: bool = False) -> None:
    """Click the centre of board cell (x, y) (y upwards), with Ctrl held when `ctrl`."""
    box = page.locator("#board-svg").bounding_box()
    assert box is not None
    height = int(page.locator("#board-svg rect.cell").last.get_attribute("data-y") or 0) + 1
    if ctrl:
        page.keyboard.down("Control")
    page.mouse.click(box["x"] + LABEL + x * CELL + CELL / 2, box["y"] + (height - 1 - y) * CELL + CELL / 2)
    if ctrl:
        page.keyboard.up("Control")
    settle(page)


def press(page: Page, key: str) -> None:
    page.keyboard.press(key)
    settle(page)



def board_pieces(page: Page) -> dict[str, str]:
    """Pieces on the board: name -> fixed or temporary."""
    return {rect.get_attribute("data-piece") or "": rect.get_attribute("class") or ""
            for rect in page.locator("#board-svg rect.fixed, #board-svg rect.temporary").all()}


def test_tangram_game_won_by_mouse_and_keys(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/tangram")
    settle(page)
    assert page.locator("#tray-svg g.piece").count() == 6 and page.text_content("#status") == "selected piece: none"

    press(page, "Enter")  # nothing selected, nothing previewed: nothing happens
    assert board_pieces(page) == {}
    press(page, "1")
    name = page.locator("#selected-name")
    assert name.text_content() == "green" and "rgb(46, 158, 79)" in (name.get_attribute("style") or "")
    assert page.locator("#board-svg circle.option").count() == 63
    press(page, "Enter")  # selected but nothing previewed: nothing happens
    assert board_pieces(page) == {} and page.text_content("#message").startswith("nothing previewed")
    click_cell(page, 0, 0)
    assert page.locator("#board-svg rect.preview").count() == 1
    press(page, "Enter")
    assert board_pieces(page) == {"green": "fixed"}
    assert page.locator("#tray-svg g.piece[data-piece=green]").count() == 0

    press(page, "1")  # a piece placed for good cannot be selected
    assert page.text_content("#message") == "green is placed for good (X) and cannot be selected"
    page.locator("#tray-svg g.piece[data-piece=blue]").click()  # a click on a piece beside the board selects it
    settle(page)
    press(page, "Control")  # Ctrl with nothing previewed: nothing happens
    assert board_pieces(page) == {"green": "fixed"} and page.text_content("#message").startswith("nothing previewed")
    click_cell(page, 0, 2)
    press(page, "Control")  # Ctrl pressed and released: placed for now
    assert board_pieces(page) == {"green": "fixed", "blue": "temporary"}
    press(page, "2")  # selected again (lifted, previewed where it lay), then placed for good
    press(page, "Enter")
    assert board_pieces(page)["blue"] == "fixed"

    press(page, "3")
    click_cell(page, 7, 0, ctrl=True)  # Ctrl+click: preview there and place for now
    assert board_pieces(page)["red"] == "temporary"
    press(page, "4")
    click_cell(page, 0, 7)
    press(page, "t")
    assert board_pieces(page)["orange"] == "temporary"
    press(page, "u")  # undo the last temporary placement: orange is back beside the board
    assert "orange" not in board_pieces(page)
    press(page, "h")  # hint: the back end completes the board in the free cells
    assert page.locator("#board-svg rect.hint").count() == 3
    press(page, "5")
    click_cell(page, 4, 0)
    screenshot(page, pictures, "tangram")
    press(page, "Escape")  # the selected piece goes back
    assert "pink" not in board_pieces(page) and page.text_content("#message") == "pink is back beside the board"

    for key, cell in (("3", None), ("4", (0, 7)), ("5", (4, 0)), ("6", (7, 8))):
        press(page, key)
        if cell:
            click_cell(page, *cell)
        press(page, "Enter")
    assert set(board_pieces(page).values()) == {"fixed"} and len(board_pieces(page)) == 6
    assert page.text_content("#message") == "Solved! Every piece is placed for good."
    assert page.get_attribute("#message", "class") == "won"
    assert page.text_content("#tray-label") == "every piece is on the board"  # nothing is left beside it
    press(page, "1")  # after the victory, input changes nothing
    click_cell(page, 0, 0)
    assert page.text_content("#status") == "selected piece: none - solved"
    screenshot(page, pictures, "tangram-won")

    page.click("#gallery-button")
    settle(page)
    assert page.text_content("#gallery h2") == "All 36 tilings"
    assert page.locator("#gallery svg > g").count() == 36
    screenshot(page.locator("#gallery"), pictures, "tangram-tilings")


# ---------------------------------------------------------------- squares

def shown_grid(page: Page, cols: int) -> list[list[dict[str, int]]]:
    """The pieces on the replay's board as a solution grid (piece and turns per cell; their words, drawn
    upright over them, aside)."""
    cells = {}
    for use in page.locator('#board use[href^="#p"]').all():
        moved = re.fullmatch(r"translate\((\d+) (\d+)\) rotate\((\d+) 50 50\)", use.get_attribute("transform") or "")
        assert moved
        x, y, angle = map(int, moved.groups())
        cells[y // 100, x // 100] = {"piece": int((use.get_attribute("href") or "#p0")[2:]), "turns": angle // 90}
    rows = max(r for r, _ in cells) + 1
    return [[cells[r, c] for c in range(cols)] for r in range(rows)]


def test_squares_replay_ends_on_a_solution(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/squares")
    settle(page)
    assert page.get_attribute("body", "data-event") == "0"
    for _ in range(3):
        page.click("#step")
    assert page.locator("#board use").count() >= 1 and page.get_attribute("body", "data-event") == "3"
    page.fill("#speed", "500")
    page.click("#play")
    page.wait_for_function("Number(document.body.dataset.event) > 40")
    page.click("#pause")
    page.click("#next")
    assert page.text_content("#found") == "solution 1 found (next solution: go on searching)"
    assert page.get_attribute("body", "data-solutions") == "1"
    solutions = api.solve("squares", all=True, backend="python").solutions
    assert shown_grid(page, 3) in solutions
    screenshot(page, pictures, "squares")
    for number in (2, 3, 4):
        page.click("#next")
        assert page.text_content("#found").startswith(f"solution {number} found")
    page.click("#next")  # the end of the search: every solution was found
    assert page.get_attribute("body", "data-finished") == "true" and page.locator("#board use").count() == 0
    page.set_input_files("#squares-file", str(ROOT / "data/squares/eternity/pieces_03x03.txt"))  # an uploaded file
    page.wait_for_function("document.getElementById('where').textContent.startsWith('pieces_03x03.txt')")
    assert page.text_content("#where").endswith("solutions so far: 0 of 16")


# ---------------------------------------------------------------- azul

def azul_started(base: str, page: Page, seed: int, chosen: dict[str, str]) -> None:
    """The Azul page opened and a game started from `seed`, each select of `chosen` (selector: value) set first."""
    page.goto(f"{base}/azul")
    settle(page)
    for selector, value in chosen.items():
        page.select_option(selector, value)
    page.fill("#seed", str(seed))
    page.click("#start")
    settle(page)


def test_azul_game_played_to_its_end_against_random(base: str, page: Page, pictures: Path) -> None:
    azul_started(base, page, 3, {"#seats select >> nth=1": "random"})
    moves, taken_back = 0, False
    while page.get_attribute("body", "data-over") != "true":
        assert page.text_content("#turn").startswith("Round ")
        page.locator(".factory.source-ok").first.click()
        page.locator(".tile.pick").first.click()
        if moves == 1:
            screenshot(page, pictures, "azul")  # a source and a colour chosen: the legal destinations lit
        page.locator(".dest-ok").first.click()
        settle(page)
        if page.get_attribute("body", "data-waiting") == "true":  # the move is on the table
            assert page.is_visible("#take-back") and page.locator(".dest-ok").count() == 0
            if moves == 2 and not taken_back:
                taken_back = True
                press(page, "u")  # taken back: the person is to move again, the same choice open
                assert page.get_attribute("body", "data-waiting") == "false" and page.locator(".source-ok").count()
                continue
            page.click("#go-on")
            settle(page)
        moves += 1
        assert moves < 200
    assert page.text_content("#turn").startswith("Game over after")
    rounds = page.locator("#rounds tr").count() - 1
    assert rounds >= 5 and "(end, bonuses)" in page.text_content("#rounds")
    assert page.locator("#scoring dt").count() == rounds  # each round's scoring told, tile by tile
    assert page.locator("#scoring dd.step-bonus").count() == 2
    assert page.get_attribute("#download", "href").endswith("/log")
    screenshot(page, pictures, "azul-end")


def test_azul_grey_wall_columns_chosen_by_clicks(base: str, page: Page, pictures: Path) -> None:
    azul_started(base, page, 4, {"#variant": "grey"})
    moves, columns = 0, 0
    while page.get_attribute("body", "data-over") != "true":
        cells = page.locator(".tile.cell-ok")
        if cells.count():
            assert "your wall" in (page.text_content("#turn") or "") and page.locator(".line.tiling").count() == 1
            assert page.locator(".factory.source-ok").count() == 0
            if not columns:
                screenshot(page, pictures, "azul-grey")  # the cells the full line's tile may take, marked
            cells.last.click()
            columns += 1
        else:
            page.locator(".factory.source-ok").first.click()
            page.locator(".tile.pick").last.click()
            lines = page.locator(".line.dest-ok")
            (lines.last if lines.count() else page.locator(".floor.dest-ok")).click()  # a line when one takes it
        settle(page)
        if page.get_attribute("body", "data-waiting") == "true":
            page.click("#go-on")
            settle(page)
        moves += 1
        assert moves < 300
    assert columns >= 3 and page.text_content("#turn").startswith("Game over after")
    assert page.locator("#scoring dd.step-choose").count() >= columns


def test_azul_replay_and_tournament_charts(base: str, page: Page, tmp_path: Path, pictures: Path) -> None:
    log = tmp_path / "games.jsonl"
    assert cli.main(["azul", "simulate", "--games", "2", "--seed", "5", "--strategy", "random,greedy",
                     "--log", str(log)]) == 0
    page.goto(f"{base}/azul")
    settle(page)
    page.set_input_files("#log-file", str(log))
    page.wait_for_selector("#replay-table .player")
    assert re.fullmatch(r"step 1 of \d+: game seed 5: 2 players on (prolog|kanren) \(random, greedy\)",
                        page.text_content("#replay-where") or "")
    page.click("#replay-next")
    assert "round 1: 20 tiles dealt to 5 factories" in page.text_content("#replay-where")
    page.click("#replay-round")
    assert "end of round 1: the walls are tiled" in page.text_content("#replay-where")
    page.click("#replay-next")
    assert ": line " in page.text_content("#replay-where")  # the first tile put on a wall, and why it scores
    page.fill("#t-games", "6")
    page.fill("#t-strategies", "random,greedy")
    page.click("#t-run")
    settle(page)
    assert page.locator("#charts svg").count() == 1 and "greedy" in page.text_content("#charts svg")
    assert page.text_content("#charts p").startswith("6 games")
    screenshot(page.locator("#charts"), pictures, "azul-tournament")


PROGRESS_SEEN = """window.seen = [];  // each progress line the page shows while the tournament plays
new MutationObserver(() => {
  const told = document.querySelector("#charts .progress .keys");
  if (told && told.textContent !== window.seen[window.seen.length - 1]) window.seen.push(told.textContent);
}).observe(document.getElementById("charts"), { subtree: true, childList: true, characterData: true });"""


def test_azul_tournament_progress_and_the_games_played_at_its_limit(base: str, page: Page, pictures: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The form's maximum is the server's; each game ended is told as it ends; stopped at the server's CPU limit
    (cut here to 0.01 s), the page shows the games played and says it stopped, after how many of how many."""
    monkeypatch.setattr(azul, "TOURNAMENT_SECONDS", 0.01)
    page.goto(f"{base}/azul")
    settle(page)
    assert page.get_attribute("#t-games", "max") == str(azul.MAX_GAMES)
    assert page.text_content("#t-limit") == (f"At most {azul.MAX_GAMES} games; a tournament plays for 0.01 CPU "
                                             "seconds at most and shows the games it played by then.")
    page.fill("#t-games", str(azul.MAX_GAMES))
    page.fill("#t-strategies", "random,greedy")
    page.evaluate(PROGRESS_SEEN)
    page.click("#t-run")
    settle(page)
    stopped = page.text_content("#charts .stopped") or ""
    found = re.fullmatch(rf"Stopped at the limit after (\d+) of {azul.MAX_GAMES} games: the tournament of "
                         rf"{azul.MAX_GAMES} games passed its time limit of 0.01 s. The results of the (\d+) played:",
                         stopped)
    assert found and found[1] == found[2], stopped
    played = int(found[1])
    assert 1 <= played < azul.MAX_GAMES
    assert page.text_content("#charts .summary").startswith(f"{played} game")
    assert page.locator("#charts svg").count() == 1 and page.locator("#charts progress").count() == 0
    seen = [int(line.split()[1]) for line in page.evaluate("window.seen")]
    assert seen[0] == 0 and seen == sorted(set(seen)) and seen[-1] <= played  # told as they ended, in order
    screenshot(page, pictures, "azul-tournament-stopped")


def test_azul_bad_log_takes_the_replay_away_and_is_told_beside_it(base: str, page: Page, tmp_path: Path) -> None:
    log, bad = tmp_path / "game.jsonl", tmp_path / "bad.jsonl"
    assert cli.main(["azul", "simulate", "--games", "1", "--seed", "3", "--log", str(log)]) == 0
    bad.write_text("{\n")
    page.goto(f"{base}/azul")
    settle(page)
    page.set_input_files("#log-file", str(log))
    page.wait_for_selector("#replay-table .player")
    page.set_input_files("#log-file", str(bad))
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.text_content("#error").startswith("the uploaded log:1: not JSON")
    assert page.locator("#replay-table > *").count() == 0 and page.text_content("#replay-where") == ""
    assert page.evaluate("document.getElementById('replay').nextElementSibling.id") == "error"  # not at the foot
    page.click("#replay-next")  # nothing left to step through
    assert page.text_content("#replay-where") == ""


def test_azul_factories_numbered_as_the_moves_name_them(base: str, page: Page) -> None:
    azul_started(base, page, 2, {"#players": "4"})
    names = page.locator("#table .factory .source-name").all_text_contents()
    assert names == [str(number) for number in range(1, 10)] + ["centre"]  # 9 factories for 4 players
    taken = re.search(r": factory (\d+): (\w+) ->", page.locator("#log li").first.text_content() or "")
    assert taken, page.locator("#log li").first.text_content()
    factory = page.locator(f"#table .factory[data-source='{int(taken[1]) - 1}']")
    assert factory.locator(".source-name").text_content() == taken[1] and factory.locator(".tile").count() == 0


def test_azul_seed_refused_beside_its_field(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/azul")
    settle(page)
    before = page.locator("#table .tile").count()
    for typed, words in [("-5", "the field 'seed' must be 0 or more, not -5"),
                         ("", "the field 'seed' is empty: give a whole number, 0 or more")]:
        page.fill("#seed", typed)
        page.click("#start")
        settle(page)
        assert page.text_content("#error") == words
        assert page.evaluate("document.getElementById('error').previousElementSibling.contains("
                             "document.getElementById('seed'))")  # beside the field it names
        assert page.locator("#table .tile").count() == before  # the game being played stays
    screenshot(page, pictures, "azul-seed-refused")
    page.fill("#t-seed", "-1")
    page.click("#t-run")
    settle(page)
    assert page.text_content("#error") == "the field 'seed' must be 0 or more, not -1"
    assert page.evaluate("document.getElementById('error').previousElementSibling.contains("
                         "document.getElementById('t-seed'))")
    assert page.locator("#charts > *").count() == 0
    page.fill("#seed", "0")
    page.click("#start")
    settle(page)
    assert page.text_content("#error") == "" and page.text_content("#turn").startswith("Round 1")


# ---------------------------------------------------------------- hidato

def test_hidato_generated_board_solved(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/hidato")
    settle(page)
    page.fill("#rows", "6")
    page.fill("#cols", "7")
    page.fill("#holes", "3")
    page.fill("#seed", "5")
    page.click("#generate")
    settle(page)
    assert page.text_content("#verdict").startswith("generated: 6x7")
    board = page.input_value("#board")
    page.click("#solve")
    settle(page)
    assert "the solution is unique" in page.text_content("#verdict")
    numbers = sorted(int(text) for text in page.locator("#pictures text").all_text_contents())
    assert numbers == list(range(1, 6 * 7 - 3 + 1))
    assert page.locator("#pictures polyline").count() == 1
    solved = [[0] * 7 for _ in range(6)]
    for text in page.locator("#pictures text").all():
        x, y = float(text.get_attribute("x") or 0), float(text.get_attribute("y") or 0)
        solved[int(y) // 40][int(x) // 40] = int(text.text_content() or 0)
    puzzle = hidato_model.parse(board)
    for r, row in enumerate(puzzle.rows):  # holes stay holes
        for c, value in enumerate(row):
            if value == hidato_model.BLOCKED:
                solved[r][c] = value
    assert hidato_model.solves(puzzle, solved)
    screenshot(page, pictures, "hidato")


# ---------------------------------------------------------------- cross-check

def test_crosscheck_table_of_every_back_end(base: str, page: Page, pysolve_backends: list[str], pictures: Path) -> None:
    page.goto(f"{base}/crosscheck")
    page.wait_for_selector("#options [data-option=count]")
    page.check("#options [data-option=count]")
    page.click("#ask")
    settle(page)
    assert page.text_content("#verdict") == ("instance=classic, board=[10, 10], mode=count, strategy=cell: "
                                             "the back ends agree")
    assert {row.get_attribute("data-backend") for row in page.locator("#results tr[data-backend]").all()} \
        == set(pysolve_backends)
    screenshot(page, pictures, "crosscheck")
    page.select_option("#puzzle", "fichas")
    page.click("#ask")
    settle(page)
    assert page.text_content("#error") == "m is required"


def test_crosscheck_of_a_shipped_instance_and_of_an_uploaded_file(base: str, page: Page, tmp_path: Path,
                                                                   pictures: Path) -> None:
    """A FILE option is a shipped instance picked by name, or a file of one's own uploaded (or pasted): the
    page sends the name or the text, never a path."""
    page.goto(f"{base}/crosscheck")
    page.wait_for_selector("#options [data-option=count]")
    page.select_option("#puzzle", "squares")
    page.select_option("#options [data-option=file] select", "eternity/pieces_03x03.txt")
    page.check("#options [data-option=count]")
    page.click("#ask")
    settle(page)
    assert page.text_content("#verdict").startswith("instance=pieces_03x03.txt, rows=3, cols=3, rule=eternity")
    assert page.text_content("#verdict").endswith("the back ends agree")
    mine = tmp_path / "mine.txt"
    mine.write_text((ROOT / "data/hidato/sample.txt").read_text())
    page.select_option("#puzzle", "hidato")
    page.set_input_files("#options [data-option=file] input[type=file]", str(mine))
    page.wait_for_function("document.querySelector('#options textarea').value.includes('__')")
    page.fill("#options [data-option=count]", "2")
    page.click("#ask")
    settle(page)
    assert page.text_content("#verdict") == "mine.txt (40 cells), count=2, strategy=fast: the back ends agree"
    screenshot(page, pictures, "crosscheck-upload")
    page.fill("#options textarea", "1 ?? 3\n")  # pasted text, wrong: the error names the paste
    page.click("#ask")
    settle(page)
    assert page.text_content("#error").startswith("pasted.txt")
