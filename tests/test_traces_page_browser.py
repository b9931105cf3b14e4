"""Searches side by side in a real headless Chromium: uploaded traces replayed in lockstep and by their own
clocks, counted per search as they go; a page `pysolve trace --html` wrote, with traces of 200,000 events,
replayed with its tree bounded. The browser and the server are test_web_browser's fixtures.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page
from test_traces_page import STRATEGIES, big, fichas, recorded_by  # noqa: F401  (fixtures)
from test_web_browser import base, browser, page, pictures, pytestmark, screenshot, settle  # noqa: F401  (fixtures)

from pysolve import api, cli, replay
from pysolve.paths import data_dir
from pysolve.trace import read_trace


def figures(page: Page) -> list[dict[str, str]]:
    """What each tree's figure says of its search: events replayed, counters, nodes drawn, done."""
    return page.locator("figure.tree").evaluate_all("figures => figures.map(f => ({...f.dataset}))")


def counted(path: Path, events: int) -> dict[str, str]:
    """The counters of a trace file's search after its first `events` events, counted here in Python."""
    recorded = read_trace(path)
    kinds = [event["e"] for event in recorded.events[:events]]
    return {"at": str(len(kinds)), "nodes": str(kinds.count("enter")), "fails": str(kinds.count("fail")),
            "backtracks": str(kinds.count("backtrack")), "solutions": str(kinds.count("solution"))}


def test_uploaded_traces_in_lockstep_and_by_their_clocks(base: str, page: Page, fichas: list[Path],
                                                         pictures: Path) -> None:
    page.goto(f"{base}/traces")
    page.set_input_files("#files", [str(path) for path in fichas])
    page.click("#read")
    settle(page)
    assert page.is_visible("#replay") and len(figures(page)) == 4
    assert [row.split("\t")[0] for row in page.locator("#counters tr[data-index]").all_inner_texts()] == [
        f"python · strategy {strategy}" for strategy in STRATEGIES]
    for _ in range(7):
        page.click("#step")
    lengths = [len(read_trace(path).events) for path in fichas]
    for figure, path, length in zip(figures(page), fichas, lengths):  # event 7 of each, or its last
        assert {key: figure[key] for key in ("at", "nodes", "fails", "backtracks", "solutions")} == \
            counted(path, min(7, length))
    page.click("#back")
    assert [figure["at"] for figure in figures(page)] == [str(min(6, length)) for length in lengths]

    page.select_option("#mode", "clocks")
    page.click("#restart")
    seconds = [read_trace(path).end["seconds"] for path in fichas]
    page.click("#step")  # the one event that comes first by the clocks: the search with the fewest seconds a step
    firsts = [second / length for second, length in zip(seconds, lengths)]
    assert [figure["at"] for figure in figures(page)] == ["1" if first == min(firsts) else "0" for first in firsts]
    page.select_option("#speed", "50")
    page.click("#play")
    page.wait_for_function("document.getElementById('play').textContent === 'play'", timeout=30_000)
    done = figures(page)
    assert all(figure["done"] == "true" for figure in done)
    for figure, path, length in zip(done, fichas, lengths):
        assert {key: figure[key] for key in ("at", "nodes", "fails", "backtracks", "solutions")} == \
            counted(path, length)
        assert figure["drawn"] == figure["nodes"]  # small trees are drawn whole
    statuses = [row.split("\t")[-1] for row in page.locator("#counters tr[data-index]").all_inner_texts()]
    assert statuses == [read_trace(path).end["status"] for path in fichas]
    page.select_option("#mode", "lockstep")
    page.eval_on_selector("#slider", "slider => { slider.value = '12'; slider.dispatchEvent(new Event('input')); }")
    assert [figure["at"] for figure in figures(page)] == [str(min(12, length)) for length in lengths]
    page.locator("#counters").click()  # away from the form: the keys drive the replay
    page.keyboard.press("Home")
    assert {figure["at"] for figure in figures(page)} == {"0"}
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert {figure["at"] for figure in figures(page)} == {"2"}
    canvas = page.locator("figure.tree canvas").first
    width = int(canvas.get_attribute("width") or 0)
    canvas.hover(position={"x": width / 2, "y": 9})  # the root: on top, in the middle
    assert canvas.get_attribute("title") == "the root"
    page.select_option("#mode", "clocks")
    page.locator("#counters").click()
    page.keyboard.press("End")
    assert all(figure["done"] == "true" for figure in figures(page))
    dfs = read_trace(fichas[0])  # its ids count 1, 2, ... in the order made, as the replay numbers nodes
    parents = {event["id"]: event["parent"] for event in dfs.events if event["e"] == "enter"}
    labels = {event["id"]: event["label"] for event in dfs.events if event["e"] == "enter"}
    solution = next(event["id"] for event in dfs.events if event["e"] == "solution")
    path = [solution]
    while parents[path[-1]]:
        path.append(parents[path[-1]])
    told = " > ".join(labels[node] for node in reversed(path))
    assert page.evaluate(f"replay.runs[0].told({solution})") == \
        f"node {solution} at depth {len(path)}, a solution: {told}"
    screenshot(page, pictures, "traces")


def test_a_refused_upload_replaces_the_replay(base: str, page: Page, fichas: list[Path], big: list[Path],
                                              tmp_path: Path) -> None:
    page.goto(f"{base}/traces")
    page.set_input_files("#files", [str(path) for path in fichas[:2]])
    page.click("#read")
    settle(page)
    assert page.is_visible("#replay")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a trace\n")
    page.set_input_files("#files", [str(fichas[0]), str(bad)])
    page.click("#read")
    settle(page)
    assert page.text_content("#error") == "bad.jsonl:1: not JSON (a value is missing at line 1, column 1)"
    assert not page.is_visible("#replay")
    page.set_input_files("#files", [str(path) for path in big])
    page.click("#read")
    settle(page)
    assert (page.text_content("#error") or "").endswith("more than the 1 MB this server takes; replay them with "
                                                         "pysolve trace FILE1 FILE2 --html OUT")


def test_an_exported_page_replays_big_traces_with_a_bounded_tree(page: Page, big: list[Path],
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "big.html"
    assert cli.main(["trace", *map(str, big), "--html", str(out)]) == 0
    page.goto(out.as_uri())
    page.wait_for_selector("figure.tree canvas")  # loaded and laid out within Playwright's 30 s
    page.click("#end")
    for figure in figures(page):
        assert figure["at"] == str(replay.EMBEDDED) and int(figure["drawn"]) == replay.DRAWN
        assert int(figure["nodes"]) > replay.DRAWN
    notes = page.locator("#notes li").all_inner_texts()
    assert any("holds its first 20,000 of" in note and "counted, not drawn" in note for note in notes)
    assert any("replays its first 100,000 of the 200,000 events in the file" in note for note in notes)
    drawing = page.evaluate("(() => { const t = performance.now(); replay.pos = replay.span() / 2; replay.show();"
                            " return performance.now() - t; })()")
    assert drawing < 5_000  # a jump back, replayed from the start and drawn, in well under the budget
    page.select_option("#mode", "clocks")
    page.click("#restart")
    page.select_option("#speed", "1000")
    page.click("#play")
    page.wait_for_function("document.getElementById('play').textContent === 'play'", timeout=60_000)
    assert all(figure["done"] == "true" for figure in figures(page))


def test_the_live_form_offers_the_puzzles_that_record(base: str, page: Page, pysolve_backends: list[str],
                                                      pictures: Path) -> None:
    page.goto(f"{base}/traces")
    page.wait_for_function("document.getElementById('summary').textContent !== ''")
    recording = [name for name in api.puzzle_names() if recorded_by(name)]
    offered = page.locator("#puzzle option").evaluate_all("options => options.map(o => o.value)")
    assert offered == recording
    assert page.locator(".only").evaluate_all("boxes => boxes.map(box => box.value)") == pysolve_backends
    if not recording:
        return
    if "squares" in recording:  # the insect puzzle, its default: a search that backtracks
        page.select_option("#puzzle", "squares")
    else:
        page.select_option("#puzzle", recording[0])
        if page.locator("#options select[data-option=file]").count():
            page.select_option("#options select[data-option=file]", index=1)  # the first shipped instance
        if page.locator("#options [data-option=index]").count():
            page.fill("#options [data-option=index]", "1")
    page.click("#ask")
    settle(page)
    error = page.text_content("#error") or ""
    if error:  # each back end that gave no trace, and why; no replay under the error
        assert error.startswith("side by side needs two searches; ") and not page.is_visible("#replay")
        return
    assert len(figures(page)) >= 2 and page.is_visible("#replay")
    page.click("#end")
    assert all(figure["done"] == "true" for figure in figures(page))
    shown = page.text_content("#question") or ""
    assert "pysolve-upload-" not in shown and str(data_dir()) not in shown  # no folder of the server
    screenshot(page, pictures, "traces-live")
    settings = page.locator("#compare option").evaluate_all("options => options.map(o => o.value).filter(Boolean)")
    if settings:  # one back end, a setting's values side by side
        page.select_option("#compare", settings[0])
        assert page.is_hidden("#which") and page.is_disabled(f"#options [data-option={settings[0]}]")
        ticked = page.locator(".value:checked").evaluate_all("boxes => boxes.map(box => box.value)")
        page.click("#ask")
        settle(page)
        error = page.text_content("#error") or ""
        if error:
            assert error.startswith("side by side needs two searches; ")
        else:
            captions = page.locator("figure.tree figcaption").all_inner_texts()
            assert len(captions) == len(ticked) and all(value in caption for value, caption in zip(ticked, captions))
