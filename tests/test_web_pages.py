"""The puzzle pages' endpoints through Starlette's TestClient, on the real engines: the menu built from the
registry (a page of one's own included), Sudoku, fichas, Hidato's second solution, and bad input (4xx, one
line, the page's words)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_own_puzzle import run, site  # noqa: F401  (the toy package installed: a fixture)

from pysolve import api, backends, bridge
from pysolve.fichas.model import STRATEGIES, is_solution
from pysolve.hidato import model as hidato_model
from pysolve.sudoku import model as sudoku_model
from pysolve.web import pages
from pysolve.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
WIKIPEDIA = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TWO_BY_TWO = "12..\n....\n....\n....\n"  # a 4x4 grid with more than two solutions


@pytest.fixture(scope="module")
def client(pysolve_backends: list[str]) -> Iterator[TestClient]:
    """The application, its pages' default back end the session's first."""
    app = create_app(pysolve_backends[0])
    with TestClient(app) as test_client:
        yield test_client
    app.state.workers.close(bridge.release_thread, 10)  # no worker thread outlives its module


def refused(response: object, status: int = 400) -> str:
    """The one-line error of a refused request, after checking its status."""
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    message = response.json()["error"]  # type: ignore[attr-defined]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# ---------------------------------------------------------------- the menu

def test_the_menu_lists_every_registered_page_then_the_crosscheck(client: TestClient) -> None:
    registered = pages.registered()
    own = [name for name, page in registered.items() if page.folder is None]  # pysolve's own templates
    assert own == ["azul", "fichas", "hidato", "squares", "sudoku", "tangram", "traces"]  # and any installed beside
    index = client.get("/").text
    menu = re.findall(r'<nav>.*?</nav>', index, re.S)[0]
    expected = [f'<a href="/{name}"' for name in registered] + ['<a href="/crosscheck"']
    assert [menu.index(link) for link in expected] == sorted(menu.index(link) for link in expected)
    for name, page in registered.items():
        assert f"{page.title}</a>: {page.summary}" in index.replace("&#39;", "'")
        shown = client.get(f"/{name}")
        assert shown.status_code == 200 and f"<h1>{page.title}</h1>" in shown.text


@pytest.mark.slow
def test_a_page_of_ones_own_is_in_the_menu_and_answers(site: Path) -> None:
    probe = ("from starlette.testclient import TestClient\n"
             "from pysolve.web.app import create_app\n"
             "client = TestClient(create_app('python'))\n"
             "menu = client.get('/').text.split('</nav>')[0]\n"
             "print(menu.index('href=\"/tangram\"') < menu.index('href=\"/factors\"')"
             " < menu.index('href=\"/crosscheck\"'))\n"
             "page = client.get('/factors')\n"
             "print(page.status_code, '<h1>Factors</h1>' in page.text, 'common.js' in page.text)\n"
             "print(client.post('/api/factors/solve', json={'n': 12}).json())\n"
             "print(client.post('/api/factors/solve', json={'n': 'x'}).json())\n")
    ran = run(site, sys.executable, "-c", probe)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "True", "200 True True", "{'pairs': [[1, 12], [2, 6], [3, 4]], 'backend': 'python'}",
        "{'error': \"the field 'n' must be int, not 'x'\"}"]


# ---------------------------------------------------------------- sudoku

def test_sudoku_line_solved_on_every_back_end_givens_drawn_apart(client: TestClient, pysolve_backend: str) -> None:
    answer = client.post("/api/sudoku/solve", json={"grid": WIKIPEDIA, "backend": pysolve_backend}).json()
    board = sudoku_model.parse(WIKIPEDIA)[0]
    assert answer["status"] == "solved" and answer["backend"] == pysolve_backend and answer["unique"] is None
    assert sudoku_model.solves(board, answer["solution"]) and answer["line"].startswith("534678912")
    assert answer["svg"].count('font-weight="bold"') == board.givens == 30
    assert answer["svg"].count('fill="#1f5fbf"') == 81 - 30  # the digits the back end filled, blue


def test_sudoku_nine_line_grid_counted_unique(client: TestClient) -> None:
    grid = sudoku_model.parse(WIKIPEDIA)[0]
    text = "\n".join(" ".join(sudoku_model.symbol(v) for v in row) for row in grid.rows()) + "\n"
    answer = client.post("/api/sudoku/solve", json={"grid": text, "count": 2, "backend": "python"}).json()
    assert answer["count"] == 1 and answer["unique"] is True and answer["verdict"] == "1 solution: unique"
    assert answer["second"] is None and answer["second_svg"] is None


def test_sudoku_count_shows_the_second_solution_and_where_it_differs(client: TestClient) -> None:
    answer = client.post("/api/sudoku/solve", json={"grid": TWO_BY_TWO, "count": 3, "backend": "python"}).json()
    board = sudoku_model.parse(TWO_BY_TWO)[0]
    first, second = answer["solution"], answer["second"]
    assert answer["count"] == 3 and answer["unique"] is False
    assert answer["verdict"] == "3 solutions (stopped at the limit)"
    assert sudoku_model.solves(board, first) and sudoku_model.solves(board, second) and first != second
    differ = [[r, c] for r in range(4) for c in range(4) if first[r][c] != second[r][c]]
    assert answer["differ"] == differ
    assert answer["svg"].count('class="differs"') == answer["second_svg"].count('class="differs"') == len(differ)


@pytest.mark.slow
def test_sudoku_sixteen_by_sixteen_line_solved(client: TestClient) -> None:
    made = client.post("/api/sudoku/generate", json={"size": 16, "seed": 4}).json()
    line = sudoku_model.to_line(made["data"]["puzzle"])
    answer = client.post("/api/sudoku/solve", json={"grid": line, "backend": "python"}).json()
    assert answer["solution"] == made["data"]["solution"] and len(answer["line"]) == 256


def test_sudoku_validate_a_filled_grid(client: TestClient) -> None:
    solved = client.post("/api/sudoku/solve", json={"grid": WIKIPEDIA, "backend": "python"}).json()["line"]
    valid = client.post("/api/sudoku/solve", json={"grid": solved, "validate": True, "backend": "python"}).json()
    assert valid["verdict"] == "valid: every row, column and box holds each value once"
    swapped = solved[1] + solved[0] + solved[2:]  # two digits of row 1 swapped: two columns and a box break
    broken = client.post("/api/sudoku/solve", json={"grid": swapped, "validate": True, "backend": "python"}).json()
    assert broken["verdict"].startswith("not a solution: column 1 holds")
    assert "cannot validate, row 1 column 3 is empty" in refused(
        client.post("/api/sudoku/solve", json={"grid": WIKIPEDIA, "validate": True, "backend": "python"}))


@pytest.mark.slow
def test_sudoku_generated_of_the_difficulty_asked(client: TestClient) -> None:
    made = client.post("/api/sudoku/generate", json={"difficulty": "hard", "seed": 1}).json()
    assert made["data"]["difficulty"]["label"] == "hard" and made["data"]["seed"] >= 1
    assert made["text"].startswith(f"# sudoku generated by pysolve: seed {made['data']['seed']}, 9x9")
    answer = client.post("/api/sudoku/solve", json={"grid": made["text"], "count": 2, "backend": "python"}).json()
    assert answer["unique"] is True and answer["solution"] == made["data"]["solution"]
    assert made["svg"].count('font-weight="bold"') == made["data"]["givens"]
    small = client.post("/api/sudoku/generate", json={"size": 6, "seed": 2, "givens": 20}).json()["data"]
    assert small["size"] == 6 and small["givens"] == 20


@pytest.mark.parametrize(("data", "words"), [
    ({"grid": ""}, "the grid: no puzzle"),
    ({}, "'grid' is required"),
    ({"grid": WIKIPEDIA + "\n" + WIKIPEDIA}, "the grid holds 2 puzzles, one a line; paste one"),
    ({"grid": WIKIPEDIA[:80]}, "a grid row has 4, 6, 9 or 16"),
    ({"grid": "55" + WIKIPEDIA[2:]}, "the grid: line 1: 5 is given twice in row 1"),
    ({"grid": WIKIPEDIA, "count": 0}, "count to K: K is 1 to 1000, not 0"),
    ({"grid": WIKIPEDIA, "count": 10**6}, "K is 1 to 1000"),
    ({"grid": WIKIPEDIA, "count": 2, "validate": True}, "validate checks a filled grid; it takes no count"),
    ({"grid": WIKIPEDIA, "strategy": "guess"}, "strategy 'guess' is not one of fast, plain"),
    ({"grid": WIKIPEDIA, "backend": "cobol"}, "unknown back end"),
])
def test_sudoku_bad_grids_are_one_line_in_the_pages_words(client: TestClient, data: dict, words: str) -> None:
    assert words in refused(client.post("/api/sudoku/solve", json=data))


@pytest.mark.slow
@pytest.mark.parametrize(("data", "words"), [
    ({"size": 5}, "size 5 is not one of 4, 6, 9, 16"),
    ({"difficulty": "nightmare"}, "difficulty 'nightmare' is not one of any, easy, medium, hard, expert"),
    ({"givens": 82}, "givens: 82 is not between 0 and 81 for a 9x9 sudoku"),
    ({"size": 4, "difficulty": "expert"}, "no expert 4x4 sudoku among seeds 1 to 200"),
    ({"seed": "one"}, "'seed' must be int"),
])
def test_sudoku_bad_generator_options(client: TestClient, data: dict, words: str) -> None:
    assert words in refused(client.post("/api/sudoku/generate", json=data))


# ---------------------------------------------------------------- fichas

def test_fichas_path_on_every_back_end(client: TestClient, pysolve_backend: str) -> None:
    answer = client.post("/api/fichas/solve", json={"m": 2, "n": 2, "strategy": "shortest",
                                                    "backend": pysolve_backend}).json()
    assert answer["backend"] == pysolve_backend and answer["moves"] == len(answer["path"]) - 1 == 5
    assert is_solution(answer["path"], 2, 2) and not answer["cut"]


def test_fichas_strategies_compared(client: TestClient) -> None:
    compared = client.post("/api/fichas/compare", json={"m": 3, "n": 2, "backend": "python"}).json()
    rows = {row["strategy"]: row for row in compared["rows"]}
    assert list(rows) == list(STRATEGIES) and all(row["status"] == "solved" for row in rows.values())
    assert rows["shortest"]["moves"] == rows["astar"]["moves"] == rows["bfs"]["moves"]
    assert all(row["moves"] >= rows["shortest"]["moves"] for row in rows.values() if row["moves"] is not None)
    for strategy in ("dfs", "bfs"):  # the same numbers as one search of that strategy
        alone = api.solve("fichas", m=3, n=2, strategy=strategy, backend="python")
        assert rows[strategy]["moves"] == len(alone.solutions[0]) - 1
        assert rows[strategy]["states"] == alone.stats["states"]
    kanren = client.post("/api/fichas/compare", json={"m": 1, "n": 1, "backend": "kanren"}).json()["rows"]
    declined = api.get_puzzle("fichas").backends_for
    for row in kanren:
        answered = "kanren" in declined(api.get_puzzle("fichas").question(m=1, n=1, strategy=row["strategy"]))
        assert (row["status"] == "not answered on kanren") != answered


@pytest.mark.parametrize(("url", "data", "words"), [
    ("solve", {"m": 13, "n": 1}, "order m=13 is out of range: use 0..12"),
    ("solve", {"n": 1}, "'m' is required"),
    ("solve", {"m": None, "n": 1}, "'m' is required"),  # what the page sends for an M left empty
    ("solve", {"m": 1, "n": 1, "strategy": "luck"}, "unknown strategy 'luck'"),
    ("compare", {"m": 1, "n": -1}, "order n=-1 is out of range"),
    ("compare", {"m": 1, "n": 1, "flavour": "js"}, "unknown flavour 'js'"),
])
def test_fichas_bad_input(client: TestClient, url: str, data: dict, words: str) -> None:
    assert words in refused(client.post(f"/api/fichas/{url}", json=data))


def test_fichas_a_back_end_that_does_not_answer_the_strategy_is_refused(client: TestClient) -> None:
    """A* is kanren's and python's; prolog, asked for it, is refused in one line (unavailable when hidden)."""
    words = refused(client.post("/api/fichas/solve", json={"m": 1, "n": 1, "strategy": "astar", "backend": "prolog"}))
    if backends.available("prolog"):
        assert words == "back end 'prolog' does not answer this fichas question; use one of: kanren, python"
    else:
        assert words == "back end 'prolog' is unavailable: SWI-Prolog is hidden by PYSOLVE_NO_PROLOG=1"


# ---------------------------------------------------------------- hidato

def test_hidato_second_solution_drawn_with_the_cells_that_differ(client: TestClient) -> None:
    board = "1 __ __\n__ __ __\n__ __ 9\n"
    answer = client.post("/api/hidato/solve", json={"board": board, "backend": "python"}).json()
    puzzle = hidato_model.parse(board)
    assert answer["unique"] is False and answer["count"] == 2
    first, second = answer["solution"], answer["second"]
    assert hidato_model.solves(puzzle, first) and hidato_model.solves(puzzle, second) and first != second
    assert answer["differ"] == [[r, c] for r in range(3) for c in range(3) if first[r][c] != second[r][c]]
    assert answer["second_svg"].count('class="differs"') == len(answer["differ"]) >= 2
    unique = client.post("/api/hidato/solve", json={"board": (ROOT / "data/hidato/sample.txt").read_text()}).json()
    assert unique["unique"] is True and unique["second_svg"] is None and 'class="differs"' not in unique["svg"]


# ---------------------------------------------------------------- fuzz

ODD = st.one_of(st.none(), st.booleans(), st.sampled_from([-1, 0, 1, 2, 4, 13, 10**30, 2.5, "", "x", "9", [], {}]),
                st.text(max_size=30))
GRIDS = st.one_of(ODD, st.sampled_from([WIKIPEDIA, TWO_BY_TWO, WIKIPEDIA[:80], "1" * 81, "." * 256, "1 2\n3 4"]))
FIELDS = {  # endpoint -> the fields the page sends, each drawn odd or plausible
    "/api/sudoku/solve": {"grid": GRIDS, "count": ODD, "validate": ODD, "strategy": st.sampled_from(["fast", 3, "x"]),
                          "backend": st.sampled_from([None, "python", "cobol", 1])},
    "/api/sudoku/generate": {"size": st.sampled_from([4, 6, 5, "9", None]), "seed": ODD, "givens": ODD,
                             "difficulty": st.sampled_from(["any", "easy", "x", None, 1])},
    "/api/fichas/solve": {"m": ODD, "n": ODD, "strategy": st.sampled_from(["dfs", "astar", "x", None, 1]),
                          "flavour": st.sampled_from(["hs", "py", "x", None]),
                          "backend": st.sampled_from([None, "kanren"])},
    "/api/fichas/compare": {"m": ODD, "n": ODD, "flavour": ODD},
}


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, dict]:
    """An endpoint of these pages and a body of its fields, some left out, each odd or plausible."""
    path = draw(st.sampled_from(sorted(FIELDS)))
    fields = FIELDS[path]
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True))
    return path, {name: draw(fields[name]) for name in chosen}


@pytest.fixture(scope="module")
def lenient(pysolve_backends: list[str]) -> Iterator[TestClient]:
    """The application, answering a server error as the browser would see it (500) rather than raising."""
    app = create_app(pysolve_backends[0])
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client
    app.state.workers.close(bridge.release_thread, 10)  # no worker thread outlives its module


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(asked=requests())
def test_fuzz_the_pages_endpoints_answer_2xx_or_a_one_line_4xx(lenient: TestClient, asked: tuple[str, dict]) -> None:
    path, data = asked
    answered = lenient.post(path, json=data)
    assert answered.status_code in (200, 400), (path, data, answered.text)
    if answered.status_code == 400:
        refused(answered)
