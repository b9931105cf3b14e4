"""Faces that misbehaved (issue 23), checked as a person meets them: the squares pictures' words, the
server's icon, titles and Ctrl-C, and the Azul table's white tiles on the web page."""

from __future__ import annotations

import re
import signal
import xml.etree.ElementTree as ElementTree

import httpx
import pytest
from playwright.sync_api import Page
from test_web import the_command
from test_web_browser import base, browser, page, settle  # noqa: F401  (fixtures)

from pysolve.squares import draw, model

SVG = "{http://www.w3.org/2000/svg}"
CENTRE = draw.SIZE / 2
GLYPH_WIDTH, GLYPH_HEIGHT = 7, 9  # an 11-unit sans-serif character's box, at most


def label_clearance(text: ElementTree.Element) -> float:
    """How far the box of a label's text stays from the piece's centre."""
    half = GLYPH_WIDTH * len(text.text or "") / 2
    x, baseline = float(text.get("x", 0)), float(text.get("y", 0))
    nearest_x = min(max(CENTRE, x - half), x + half)
    nearest_y = min(max(CENTRE, baseline - GLYPH_HEIGHT), baseline)
    return ((nearest_x - CENTRE) ** 2 + (nearest_y - CENTRE) ** 2) ** 0.5


@pytest.mark.parametrize("name", ["insects", "eternity-5x5"])
def test_squares_words_read_upright_with_the_number_clear_of_the_labels(name):
    instance = model.load(name)
    root = ElementTree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{draw.defs(instance)}</svg>')
    for piece in instance.pieces:
        assert not root.find(f".//*[@id='p{piece.id}']").findall(f".//{SVG}text")  # the turned shapes: no words
        for turns in range(4):
            words = root.find(f".//*[@id='n{piece.id}-{turns}']")
            *labels, number = words.findall(f"{SVG}text")
            assert [label.text for label in labels] == [str(label) for label in piece.turned(turns)]
            assert number.text == str(piece.id) and "transform" not in ElementTree.tostring(words, "unicode")
            assert all(label_clearance(label) > draw.NUMBER_RADIUS + 2 for label in labels)
            north, east, south, west = ((float(label.get("x")), float(label.get("y"))) for label in labels)
            assert north[1] < CENTRE < south[1] and west[0] < CENTRE < east[0]  # each label by its own edge


def test_a_squares_picture_places_each_pieces_words_unturned_over_it():
    grid = ((5, 0), (2, 1), (9, 1)), ((4, 3), (3, 1), (8, 3)), ((7, 1), (1, 1), (6, 2))
    root = ElementTree.fromstring(draw.svg_grid(model.load(), grid))
    uses = root.findall(f"{SVG}use")
    for (piece, turns), shapes, words in zip((cell for row in grid for cell in row), uses[::2], uses[1::2]):
        assert (shapes.get("href"), words.get("href")) == (f"#p{piece}", f"#n{piece}-{turns}")
        assert shapes.get("transform") == f"{words.get('transform')} rotate({90 * turns} 50 50)"


@pytest.mark.slow
def test_the_squares_page_draws_each_placed_pieces_number_upright(base: str, page: Page) -> None:
    page.goto(f"{base}/squares")
    settle(page)
    page.click("#next")  # on to the first solution: nine pieces, most of them turned
    shapes = page.locator('#board use[href^="#p"]')
    words = page.locator('#board use[href^="#n"]')
    assert shapes.count() == words.count() == 9
    for index in range(9):
        transform = shapes.nth(index).get_attribute("transform")
        turned = re.fullmatch(r"(translate\(\d+ \d+\)) rotate\((\d+) 50 50\)", transform)
        assert turned and words.nth(index).get_attribute("transform") == turned[1]
        piece = shapes.nth(index).get_attribute("href")[2:]
        assert words.nth(index).get_attribute("href") == f"#n{piece}-{int(turned[2]) // 90}"


def test_the_pages_have_an_icon_and_the_home_page_is_titled_once(base: str, page: Page) -> None:
    page.goto(base)
    assert page.title() == "pysolve"
    icon = page.request.get(page.evaluate("document.querySelector('link[rel=icon]').href"))
    asked = page.request.get(f"{base}/favicon.ico")  # what a browser asks of a page without a link
    assert icon.ok and asked.ok and asked.body() == icon.body()
    assert asked.headers["content-type"] == "image/svg+xml"
    assert ElementTree.fromstring(asked.body()).tag == f"{SVG}svg"
    page.goto(f"{base}/azul")
    assert page.title() == "Azul · pysolve"


@pytest.mark.subprocess
def test_ctrl_c_stops_the_server_without_a_prolog_warning(pysolve_backends: list[str]) -> None:
    """With Prolog (the default back end when it runs), every worker thread holds a Prolog engine of its own."""
    with the_command("--backend", pysolve_backends[0]) as (server, port):
        table = httpx.post(f"http://127.0.0.1:{port}/api/azul/games", json={}, timeout=60)
        assert table.status_code == 201 and table.json()["backend"] == pysolve_backends[0]
        server.send_signal(signal.SIGINT)
        assert server.wait(15) == 0
        assert server.stderr is not None
        rest = server.stderr.read()
    assert rest == "pysolve serve: stopped\n"  # no "WARNING: Failed to stop Prolog threads"


def looks(page: Page, selector: str) -> dict[str, str]:
    """The computed look of the first element `selector` finds: its edge, shadow and fill."""
    return page.eval_on_selector(selector, """element => { const style = getComputedStyle(element);
        return {border: style.borderTopStyle, shadow: style.boxShadow, image: style.backgroundImage,
                colour: style.backgroundColor}; }""")


@pytest.mark.slow
def test_white_tiles_on_the_azul_page_look_like_tiles_and_empty_slots_look_empty(base: str, page: Page) -> None:
    page.goto(f"{base}/azul")
    settle(page)
    page.fill("#seed", "3")  # its first deal puts white tiles on the table
    page.click("#start")
    settle(page)
    white, slot = looks(page, ".factory .tile.c4"), looks(page, ".player .tile.empty")
    assert white["border"] == "solid" and white["shadow"] != "none" and "gradient" in white["image"]
    assert slot["border"] == "dashed" and slot["shadow"] == "none" and slot["image"] == "none"
    assert slot["colour"] == "rgba(0, 0, 0, 0)"  # the slot shows the board through it
