"""The cross-check page in a real headless Chromium: every back end's status and reason, the verdict (agree,
disagree, not compared), and an error that replaces the result instead of sitting under it.

The browser, the page and the server are test_web_browser's fixtures.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page
from test_web_browser import base, browser, page, pictures, pytestmark, screenshot, settle  # noqa: F401  (fixtures)

from pysolve.fichas.model import STRATEGIES


def rows(page: Page) -> dict[str, list[str]]:
    """The result table: back end -> its cells."""
    return {row.get_attribute("data-backend") or "": [cell.text_content() or "" for cell in row.locator("td").all()]
            for row in page.locator("#results tr[data-backend]").all()}


def ask_fichas(page: Page, m: str, n: str, strategy: str) -> None:
    page.select_option("#puzzle", "fichas")
    page.fill("#options input[data-option=m]", m)
    page.fill("#options input[data-option=n]", n)
    page.select_option("#options select[data-option=strategy]", strategy)
    page.click("#ask")
    settle(page)


def test_one_answer_is_not_compared_and_every_back_end_shows_why(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/crosscheck")
    page.wait_for_selector("#options [data-option=count]")
    page.uncheck(".only[value=kanren]")  # A* is kanren's and python's: without kanren, python answers alone
    ask_fichas(page, "3", "2", "astar")
    verdict = page.text_content("#verdict") or ""
    assert page.get_attribute("#verdict", "data-verdict") == "not compared"
    assert "agree" not in verdict and page.get_attribute("#verdict", "class") == "bad"
    table = rows(page)
    alone = "answered" if "prolog" in table else "was asked"  # prolog, where it runs, is asked and declines
    assert verdict.startswith(f"m=3, n=2, strategy=astar, flavour=hs: NOT COMPARED: only python {alone}"), verdict
    assert table["python"][:2] == ["python", "solved"] and "kanren" not in table
    assert set(table) == set(page.locator(".only:checked").evaluate_all("boxes => boxes.map(box => box.value)"))
    if "prolog" in table:  # asked when it runs here
        assert table["prolog"][1:3] == ["declined", "prolog does not answer this fichas question"]
        assert "prolog: declined: prolog does not answer this fichas question" in verdict
    assert page.text_content("#limit") == "each back end at most 8 s, side by side"
    screenshot(page, pictures, "crosscheck-not-compared")


def test_an_error_replaces_the_result_in_the_pages_words(base: str, page: Page, pictures: Path) -> None:
    page.goto(f"{base}/crosscheck")
    page.wait_for_selector("#options [data-option=count]")
    page.select_option("#puzzle", "sudoku")
    page.select_option("#options [data-option=file] select", "easy.txt")
    page.fill("#options [data-option=index]", "1")
    page.click("#ask")
    settle(page)
    assert page.get_attribute("#verdict", "data-verdict") in ("agree", "not compared") and rows(page)
    assert page.text_content("#drawing")
    page.select_option("#puzzle", "fichas")
    assert f"by {len(STRATEGIES)} search strategies" in page.text_content("#summary")  # as many as it offers
    page.click("#ask")  # M and N left empty
    settle(page)
    assert page.text_content("#error") == "m is required"  # the field as its label names it
    assert page.locator("#options label").first.text_content() == "m "
    assert rows(page) == {} and page.text_content("#verdict") == "" and page.text_content("#drawing") == ""
    assert page.get_attribute("#verdict", "data-verdict") is None
    screenshot(page, pictures, "crosscheck-error")
    ask_fichas(page, "2", "2", "shortest")  # a good question again: the error goes, the result comes
    assert page.text_content("#error") == "" and page.get_attribute("#verdict", "data-verdict") in ("agree",
                                                                                                    "not compared")
