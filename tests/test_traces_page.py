"""Searches side by side: traces condensed and checked (pysolve.replay), `pysolve trace --html`, and the Traces
page's endpoints, with hostile uploads (not a trace, truncated, huge, deep JSON, paths for names).

The traces come from small real searches that record themselves (tests/traced_searches.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_web_pages import client, refused  # noqa: F401  (a fixture)
from traced_searches import fichas_trace, queens_trace

from pysolve import api, backends, cli, replay
from pysolve.errors import InputError
from pysolve.trace import read_trace
from pysolve.web.guard import MAX_BODY

STRATEGIES = ("dfs", "bfs", "best-first", "hill-climbing")


@pytest.fixture(scope="module")
def fichas(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Fichas (3, 2) searched by the four tree strategies, each recorded."""
    folder = tmp_path_factory.mktemp("fichas-traces")
    return [fichas_trace(folder / f"{strategy}.jsonl", 3, 2, strategy) for strategy in STRATEGIES]


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Ten queens from either side: searches of a million events, their files cut at 200,000."""
    folder = tmp_path_factory.mktemp("queens-traces")
    return [queens_trace(folder / f"{side}.jsonl", 10, strategy=side) for side in ("left", "right")]


def exported(path: Path) -> dict:
    """The replay data embedded in a page `pysolve trace --html` wrote."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert found, "no replay data in the page"
    return json.loads(found[1])


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run `pysolve trace ARGS`: exit 2 and one line on stderr, which is returned."""
    assert cli.main(["trace", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pysolve: error: ") and "Traceback" not in err, err
    return err


# ---------------------------------------------------------------- the replay's form

def test_a_condensed_trace_replays_every_event_of_its_file(fichas: list[Path]) -> None:
    for path in fichas:
        recorded = read_trace(path)
        trace = replay.condensed(recorded, path.name)
        assert trace["kept"] == trace["written"] == trace["searched"] == len(recorded.events)
        counts = {kind: trace["kinds"].count(letter) for kind, letter in replay.KINDS.items()}
        assert counts == {"enter": recorded.end["nodes"], "fail": recorded.end["fails"],
                          "backtrack": recorded.end["backtracks"], "solution": recorded.end["solutions"]}
        entered = 0
        for letter, ref in zip(trace["kinds"], trace["refs"]):
            assert 0 <= ref <= entered + (letter != "e")  # a parent made before, or a node entered
            entered += letter == "e"
        labels = [event["label"] for event in recorded.events if event["e"] == "enter"]
        assert trace["labels"] == labels


def test_the_four_strategies_of_one_question_go_together(fichas: list[Path]) -> None:
    traces = replay.read(fichas)
    assert [trace["question"]["strategy"] for trace in traces] == list(STRATEGIES)
    solved = {trace["question"]["strategy"]: trace["end"]["status"] for trace in traces}
    assert solved["bfs"] == "solved"
    depth = {trace["question"]["strategy"]: solution_depth(trace) for trace in traces
             if trace["end"]["solutions"]}
    assert depth["bfs"] == min(depth.values())  # breadth-first finds the shortest path


def solution_depth(trace: dict) -> int:
    """The depth of the first solution of a condensed trace."""
    depth = [0]
    for letter, ref in zip(trace["kinds"], trace["refs"]):
        if letter == "e":
            depth.append(depth[ref] + 1)
        elif letter == "s":
            return depth[ref]
    raise AssertionError("no solution")


def test_traces_of_other_questions_or_puzzles_do_not_go_together(fichas: list[Path], tmp_path: Path) -> None:
    other = fichas_trace(tmp_path / "other.jsonl", 2, 2, "dfs")
    with pytest.raises(InputError, match=r"^other.jsonl: another question than dfs.jsonl's \(m=2\)"):
        replay.read([fichas[0], other])
    queens = queens_trace(tmp_path / "queens.jsonl", 4)
    with pytest.raises(InputError, match="^queens.jsonl: a trace of queens, not of fichas as dfs.jsonl"):
        replay.read([fichas[0], queens])
    with pytest.raises(InputError, match="a replay takes 1 to 4 traces, not 5"):
        replay.read([*fichas, other])


# ---------------------------------------------------------------- pysolve trace --html

def test_the_export_embeds_the_replay_and_the_script(fichas: list[Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "side.html"
    assert cli.main(["trace", *map(str, fichas), "--html", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [path.name for path in fichas]
    data = exported(out)
    assert [trace["name"] for trace in data["traces"]] == [path.name for path in fichas]
    assert data["notes"] == [] and data["drawn"] == replay.DRAWN
    page = out.read_text(encoding="utf-8")
    assert "class Run" in page and "startReplay(" in page and "<link" not in page and "src=" not in page


def test_a_label_cannot_close_the_pages_script(tmp_path: Path) -> None:
    from pysolve.trace import Trace

    traces = []
    for backend in ("python", "kanren"):
        with (tmp_path / f"{backend}.jsonl").open("w", encoding="utf-8") as out:
            trace = Trace(out, "toy", backend, {"n": 1})
            trace.push("</script><script>alert(1)</script>")
            trace.solution()
            trace.end("solved")
        traces.append(tmp_path / f"{backend}.jsonl")
    out = tmp_path / "page.html"
    assert cli.main(["trace", *map(str, traces), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("</script>") == 2  # the data's end and the script's
    assert exported(out)["traces"][0]["labels"] == ["</script><script>alert(1)</script>"[:replay.LABEL]]


@pytest.mark.slow
def test_a_big_trace_is_embedded_up_to_its_bound_and_says_so(big: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "big.html"
    assert cli.main(["trace", *map(str, big), "--html", str(out)]) == 0
    data = exported(out)
    for trace in data["traces"]:
        assert trace["kept"] == len(trace["kinds"]) == replay.EMBEDDED
        assert trace["written"] == 200_000 and trace["searched"] > 1_000_000 and trace["end"]["truncated"]
    assert data["notes"][0].startswith("left.jsonl: replays its first 100,000 of the 200,000 events in the file; "
                                       "the search made 1,009,636 events")
    assert out.stat().st_size < 4_000_000


@pytest.mark.parametrize(("text", "said"), [
    ("", "the file is empty"),
    ('{"trace": "other", "version": 1}\n', ":1: not a pysolve trace of version 1"),
    ("[" * 100_000 + "\n", ":1: the JSON nests too deeply to read"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "enter", "id": 1, "parent": 0, "dep',
     ":2: not JSON (a text is not closed"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "enter", "id": 1, "parent": 0, "depth": 1}\n',
     "no 'end' line"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "fail", "id": 7, "depth": 1}\n{"e": "end"}\n',
     ":2: a fail of node 7, never entered"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "enter", "id": 1, "parent": 5, "depth": 1}\n'
     '{"e": "end"}\n', ":2: node 1 names parent 5, never entered"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "enter", "id": 1, "parent": [0], "depth": 1}\n'
     '{"e": "end"}\n', ":2: an event's 'parent' is a whole number >= 0 of at most 18 digits, not [0]"),
    ('{"trace": "pysolve", "version": 1, "puzzle": "fichas"}\n{"e": "enter", "id": 1, "parent": 0, "depth": 1}\n'
     '{"e": "enter", "id": 1, "parent": 0, "depth": 1}\n{"e": "end"}\n', ":3: node 1 is entered twice"),
    ("\xff\xfe not text", "is not UTF-8 text"),
])
def test_a_bad_trace_file_is_one_line_and_exit_2(fichas: list[Path], tmp_path: Path, text: str, said: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode("utf-8"))
    assert said in one_line_error(capsys, str(fichas[0]), str(bad), "--html", str(tmp_path / "out.html"))
    assert not (tmp_path / "out.html").exists()


def test_missing_files_and_counts_are_one_line(fichas: list[Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert "none.jsonl': no such file" in one_line_error(capsys, str(fichas[0]), str(tmp_path / "none.jsonl"))
    assert "is a directory, not a regular file" in one_line_error(capsys, str(fichas[0]), str(tmp_path))
    assert "a replay takes 1 to 4 traces, not 5" in one_line_error(capsys, *map(str, fichas), str(fichas[0]))
    assert "--html" in one_line_error(capsys, *map(str, fichas[:2]), "--html", str(tmp_path / "no" / "x.html"))


# ---------------------------------------------------------------- the page's endpoints

def recorded_by(name: str) -> list[str]:
    """The back ends of puzzle `name` whose searches record themselves (declared: `Backend.traces`)."""
    puzzle = api.get_puzzle(name)
    return [backend for backend in backends.NAMES if backend in puzzle.offers and puzzle.offers[backend].traces]


def uploads(paths: list[Path]) -> list[dict[str, str]]:
    return [{"name": path.name, "text": path.read_text(encoding="utf-8")} for path in paths]


def test_the_page_is_in_the_menu_after_the_puzzles(client: TestClient) -> None:
    menu = client.get("/").text
    assert menu.index('<a href="/traces"') < menu.index('<a href="/crosscheck"')
    assert menu.index('<a href="/tangram"') < menu.index('<a href="/traces"')
    page = client.get("/traces").text
    assert 'id="replay"' in page and "traces.js" in page


def test_uploaded_traces_are_replayed(client: TestClient, fichas: list[Path]) -> None:
    answer = client.post("/api/traces/read", json={"traces": uploads(fichas[:3])})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["drawn"] == replay.DRAWN and data["notes"] == []
    assert data["traces"] == [replay.condensed(read_trace(path), path.name) for path in fichas[:3]]


def test_the_puzzles_offered_live_are_those_that_record(client: TestClient) -> None:
    listed = client.get("/api/traces/puzzles").json()
    recording = [name for name in api.puzzle_names() if recorded_by(name)]
    assert [view["name"] for view in listed["puzzles"]] == recording and listed["most"] == replay.MAX_TRACES


@pytest.mark.parametrize("name", api.puzzle_names())
def test_a_live_ask_replays_or_says_why_not(client: TestClient, name: str,
                                            pysolve_backends: list[str]) -> None:
    puzzle = api.get_puzzle(name)
    options: dict[str, str] = {}
    names = {option.name for option in puzzle.question_options()}
    if "file" in names and puzzle.catalogue().entries:
        options["file"] = puzzle.catalogue().entries[0].file  # a shipped instance, by name
    if "index" in names:
        options["index"] = "1"  # a file of many puzzles: the first
    answer = client.post("/api/traces/ask", json={"puzzle": name, "options": options, "backends": pysolve_backends})
    if not recorded_by(name):
        assert f"{name} records no search (its solve has no --trace)" in refused(answer)
    elif answer.status_code == 200:
        traces = answer.json()["traces"]
        assert len(traces) >= 2 and {trace["backend"] for trace in traces} <= set(pysolve_backends)
    else:
        message = refused(answer)  # each back end that gave no trace, and why
        assert message.startswith("side by side needs two searches; ") or " is required" in message
        assert "pysolve-upload-" not in message


def test_the_live_form_knows_the_settings_that_compare(client: TestClient) -> None:
    assert client.get("/api/traces/puzzles").json()["settings"] == list(replay.SETTINGS)


VARIED = [name for name in api.puzzle_names() if any(option.name in replay.SETTINGS and option.choices
                                                     for option in api.get_puzzle(name).question_options())]


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIED)
def test_a_live_ask_compares_a_settings_values(client: TestClient, name: str) -> None:
    puzzle = api.get_puzzle(name)
    setting = next(option for option in puzzle.question_options() if option.name in replay.SETTINGS and option.choices)
    options: dict[str, str] = {}
    names = {option.name for option in puzzle.question_options()}
    if "file" in names and puzzle.catalogue().entries:
        options["file"] = puzzle.catalogue().entries[0].file
    if "index" in names:
        options["index"] = "1"
    if name == "fichas":
        options.update(m="2", n="2")
    values = list(setting.choices[:2])
    answer = client.post("/api/traces/ask", json={"puzzle": name, "options": options, "backends": ["python"],
                                                  "vary": setting.name, "values": values})
    if not recorded_by(name):
        assert f"{name} records no search" in refused(answer)
    elif answer.status_code == 200:
        traces = answer.json()["traces"]
        assert [trace["question"][setting.name] for trace in traces] == values
        assert [trace["name"] for trace in traces] == [f"python-{value}.jsonl" for value in values]
    else:
        assert refused(answer).startswith("side by side needs two searches; python-")


@pytest.mark.parametrize(("body", "said"), [
    ({"vary": "strategy", "values": ["dfs", "bfs"], "backends": ["python", "kanren"]},
     "the values of strategy side by side are asked of one back end; the field 'backends' names 2"),
    ({"vary": "m", "values": ["1", "2"], "backends": ["python"]}, "the field 'vary' names a search setting of fichas "
     "that has choices (strategy, flavour), not 'm'"),
    ({"vary": "strategy", "values": ["dfs", "sideways"], "backends": ["python"]},
     "strategy is one of dfs, bfs, best-first, hill-climbing, shortest, astar, not 'sideways'"),
    ({"vary": "strategy", "values": ["dfs", "dfs"], "backends": ["python"]}, "takes 2 to 4 traces, not 1"),
    ({"vary": "strategy", "values": [["dfs"], "bfs"], "backends": ["python"]},
     "the field 'values' is a list of the varied setting's choices"),
    ({"backends": [1]}, "the field 'backends' is a list of back-end names"),
    ({"backends": ["python", "cobol"]}, "cobol"),
])
def test_a_bad_live_ask_is_a_one_line_400(client: TestClient, body: dict, said: str) -> None:
    message = refused(client.post("/api/traces/ask", json={"puzzle": "fichas", "options": {"m": "2", "n": "2"},
                                                           **body}))
    assert said in message


@pytest.mark.parametrize(("body", "said"), [
    ({}, "the field 'traces' is required"),
    ({"traces": "x"}, "the field 'traces' must be list"),
    ({"traces": [1, 2]}, "is a list of {\"name\": ..., \"text\": ...}"),
    ({"traces": [{"name": "a.jsonl", "text": ""}]}, "takes 2 to 4 traces, not 1"),
    ({"traces": [{"name": "a.jsonl", "text": "x"}, {"name": "a.jsonl", "text": "x"}]}, "two uploaded traces are named"),
    ({"traces": [{"name": "../../etc/passwd", "text": "x"}, {"name": "b", "text": "x"}]}, "one plain file name"),
    ({"traces": [{"name": "a.jsonl", "text": "not json"}, {"name": "b.jsonl", "text": "{}"}]},
     "a.jsonl:1: not JSON (a value is missing at line 1, column 1)"),
    ({"traces": [{"name": "a.jsonl", "text": "[" * 5000}, {"name": "b.jsonl", "text": "{}"}]},
     "a.jsonl:1: the JSON nests too deeply to read"),
    ({"traces": [{"name": "a.jsonl", "text": 5}, {"name": "b.jsonl", "text": "{}"}]}, "'text' must be str"),
])
def test_hostile_uploads_are_one_line_400s(client: TestClient, body: dict, said: str) -> None:
    message = refused(client.post("/api/traces/read", json=body))
    assert said in message and "pysolve-upload-" not in message and "/tmp" not in message


def test_a_truncated_upload_names_its_line(client: TestClient, fichas: list[Path]) -> None:
    texts = uploads(fichas[:2])
    texts[1]["text"] = texts[1]["text"][: len(texts[1]["text"]) // 2]
    assert refused(client.post("/api/traces/read", json={"traces": texts})).startswith("bfs.jsonl:")


def test_a_huge_or_deep_body_is_refused(client: TestClient, big: list[Path]) -> None:
    assert big[0].stat().st_size > MAX_BODY
    refused(client.post("/api/traces/read", json={"traces": uploads(big)}), 413)
    deep = '{"traces": ' + "[" * 10_000 + "]" * 10_000 + "}"
    assert "nests arrays and objects deeper" in refused(client.post(
        "/api/traces/read", content=deep, headers={"Content-Type": "application/json"}))


TRACE_LINES = ['{"trace": "pysolve", "version": 1, "puzzle": "fichas", "backend": "python", "question": {}}',
               '{"e": "enter", "id": 1, "parent": 0, "depth": 1, "label": "a"}', '{"e": "fail", "id": 1, "depth": 1}',
               '{"e": "backtrack", "id": 1, "depth": 1}', '{"e": "solution", "id": 1, "depth": 1, "count": 1}',
               '{"e": "end", "status": "solved", "events": 3, "seconds": 0.1}', '{"e": "enter", "id": "x"}', "[]",
               '{"e": "enter", "id": 2, "parent": {"a": 1}, "depth": 1}', "{", '{"trace": "pysolve"}']
TRACE_TEXTS = st.lists(st.sampled_from(TRACE_LINES) | st.text(max_size=20), max_size=8).map("\n".join)
UPLOADS = st.lists(st.fixed_dictionaries({"name": st.sampled_from(["a.jsonl", "b.jsonl", "c", "../x", ""])
                                          | st.text(max_size=8), "text": TRACE_TEXTS | st.integers()}),
                   max_size=5)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.fixed_dictionaries({"traces": UPLOADS}) | st.dictionaries(st.sampled_from(["traces", "name"]),
                                                                           st.recursive(st.none() | st.text(max_size=5),
                                                                                        st.lists, max_leaves=6)))
def test_fuzz_uploads_are_answered_2xx_or_one_line_4xx(client: TestClient, body: dict) -> None:
    answer = client.post("/api/traces/read", json=body)
    if answer.status_code != 200:
        refused(answer)
    else:
        assert 2 <= len(answer.json()["traces"]) <= replay.MAX_TRACES


@pytest.mark.slow
def test_the_searches_of_one_ask_share_the_requests_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from pysolve.web import traces

    monkeypatch.setattr(traces, "MAX_SECONDS", 0.3)
    puzzle = api.get_puzzle("fichas")
    runs = traces.runs_of(puzzle, ["python"], "strategy", ["bfs", "dfs", "best-first"])
    with pytest.raises(InputError) as raised:  # bfs takes the 0.3 s (unknown, recorded), nothing is left for more
        traces.live(puzzle, {"m": 6, "n": 6}, runs)
    assert "side by side needs two searches" in str(raised.value)
    assert "the request's searches side by side passed its time limit of 0.3 s" in str(raised.value)
